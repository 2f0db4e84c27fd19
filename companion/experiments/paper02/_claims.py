"""Notebook 02's claims as a :mod:`companion.claims` family (``registry/paper02.toml``) and the
exact checks of the worked example.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from companion.paper_numbers import paper_table
from companion.prism import Prism
from companion.prose import render
from companion.experiments.paper02._templates import TEMPLATES
from companion.experiments.paper02._protocol import (
    Config, DATASETS, NUMPY_SPLIT, counts_table, run, weka_peer_results_if_run,
)
from companion.experiments.paper02._tables import (
    WEKA_SAME, covered_subsets, fold_list_comparison, order_invariance, peer_repeated_accuracy,
    prism_peer_comparison, split_rows,
)
from companion.experiments.paper02._figures import covering_2d_example, replicated_subtree_demo, replicated_tests
from companion.experiments.paper02._math_checks import (
    coverage_reduces, more_rules_2d, one_rule_per_leaf, replicated_subtree, stops_when_no_attribute_left,
    stops_when_perfect,
)


# --------------------------------------------------------------------------------------------
# The claims, judged by companion.claims (registry: companion/experiments/registry/paper02.toml)
# --------------------------------------------------------------------------------------------

#: "Worth a few points" (the default class for uncovered instances) read as at least this many
#: points of accuracy, over the repeated cross-validations (the registry's margin of
#: ``default-class``; kept here for the notebook's text).
DEFAULT_CLASS_MARGIN = 2.0


def _repeated_accuracy(results: pd.DataFrame) -> pd.DataFrame:
    """Accuracy (%) of every learner on every repeated split (rows: split seed, columns: learner)."""
    rows = split_rows(results, NUMPY_SPLIT)
    return pd.DataFrame({seed: counts_table(split)["accuracy %"] for seed, split in rows.groupby("seed", sort=False)}).T


def _accuracy_difference(data, a, b):
    table = _repeated_accuracy(data["results"])
    return (table[a] - table[b]).to_numpy()


def _peer_difference(data, peer, b):
    """Accuracy of Weka's ``peer`` minus ours of ``b`` on every seeded split both were run on
    (``None``, not evaluated, when the variant has no peer runs on its splits)."""
    peers = data.get("peers")
    if peers is None:
        return None
    ours = _repeated_accuracy(data["results"])
    shared = [seed for seed in ours.index if seed in set(peers["seed"])]
    if not shared:
        return None
    theirs = peer_repeated_accuracy(peers[peers["seed"].isin(shared)])
    return (theirs.loc[shared, peer] - ours.loc[shared, b]).to_numpy()


def _check(name):
    def check(data):
        return data["checks"].get(name)
    return check


#: Registry measure key -> the name of its exact check in :func:`exact_checks`.
_CHECK_MEASURES = {
    "covering": "covering", "first_test": "first-test", "refine": "refine", "ties": "ties", "perfect": "perfect",
    "separate": "separate", "math_replicated_subtree": "replicated-subtree", "disjunction": "disjunction",
    "no_more_attributes": "no-more-attributes", "coverage_reduces": "coverage-reduces",
    "coverage_reduces_strictly": "coverage-reduces-strictly",
    "one_rule_per_leaf": "one-rule-per-leaf", "more_rules_2d": "more-rules-2d",
    "trace": "trace", "rules": "rules", "training": "training", "weka_cv": "weka-cv", "folds": "folds",
    "weka_prism": "weka-prism", "baselines": "baselines", "supermarket": "supermarket", "modular": "modular",
    "conflicts": "conflicts-unseen",
}


def claims_measures() -> dict:
    """``{measure key: callable(data)}`` for every measure the registry (``paper02.toml``) names.

    ``data`` is one variant's dict (:func:`claims_data`): ``results`` (:func:`run`), ``peers``
    (:func:`weka_peer_results` or ``None``) and ``checks`` (:func:`exact_checks`).

    Returns
    -------
    dict
    """
    measures = {key: _check(name) for key, name in _CHECK_MEASURES.items()}
    measures["default_class"] = partial(_accuracy_difference, a="PRISM + default class", b="PRISM")
    measures["tree_vs_prism"] = partial(_peer_difference, peer="J48", b="PRISM + default class")
    return measures


def claims_family():
    """The registry's claims (``companion/experiments/registry/paper02.toml``) as a claims family.

    The slides' statements (origin ``paper``, quoted verbatim), our code against Weka 3.6.14 and
    the restored slide tables (``check``) and this notebook's statements (``observation``: the
    default class, J48 against PRISM, modularity), each reading :func:`claims_measures`.

    Returns
    -------
    list of companion.claims.Claim
    """
    import companion.claims as C

    return C.family(C.load_registry("02"), claims_measures())


def claims_data(results: pd.DataFrame, checks: dict, peers: pd.DataFrame | None = None) -> dict:
    """One variant's data for :func:`claims_family`'s measures.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame.
    checks : dict
        :func:`exact_checks`.
    peers : pandas.DataFrame, optional
        :func:`weka_peer_results` on the same splits (``None``: the J48 claim is not evaluated).

    Returns
    -------
    dict
    """
    return {"results": results, "checks": checks, "peers": peers}


def claims_report(results: pd.DataFrame, checks: dict, variants: dict | None = None,
                  peers: pd.DataFrame | None = None):
    """Evaluate :func:`claims_family` on ``results`` and ``checks`` and on the variants.

    ``variants`` maps a variant name (``"seed=10"``) to a :func:`claims_data` dict, or to a
    :func:`run` frame alone (its checks are then the main ones and it has no peers).

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame.
    checks : dict
        :func:`exact_checks`.
    variants : dict, optional
        ``{name: claims_data(...)}`` or ``{name: run() frame}``.
    peers : pandas.DataFrame, optional
        :func:`weka_peer_results`.

    Returns
    -------
    companion.claims.ClaimsReport
    """
    import companion.claims as C

    data = {"main": claims_data(results, checks, peers)}
    for name, other in (variants or {}).items():
        data[name] = other if isinstance(other, dict) else claims_data(other, checks, None)
    return C.evaluate(claims_family(), data)


#: The learners a seed variant runs: those its claims read (J48 is Weka's, from the peers).
_VARIANT_METHODS = ("PRISM", "PRISM + default class")


def seed_variant(seed: int, checks: dict, *, n_repeats: int, n_rule_orders: int, n_jobs: int = 1) -> dict:
    """The data of one seed variant: its own splits, Weka's peers on them, the seeded checks.

    :func:`run` on its own splits, Weka's peers on them (when they were run), and the exact
    checks that depend on the seed recomputed with it.

    The checks that read the seed are the replicated subtree and the tree's rules (the tree's
    ``random_state``), slide 5's points (``more-rules-2d``), the rule orders of ``modular``, the
    fold list and Weka's Prism on the variant's splits; the others (slides' trace, rule list,
    Weka's folds, ``supermarket``, the conformance checks on the contact lenses) do not depend on
    it and keep the main values, so the claims engine lists the variant as leaving them
    unchanged.

    Parameters
    ----------
    seed : int
        The variant's notebook seed (:func:`seed_variants`).
    checks : dict
        The main run's :func:`exact_checks`.
    n_repeats : int
        Seeded splits.
    n_rule_orders : int
        Random rule orders of ``modular``.
    n_jobs : int, default=1
        Workers of :func:`run`; the result does not depend on it.

    Returns
    -------
    dict
        :func:`claims_data`'s dict, plus ``status`` (:func:`weka_peer_results_if_run`'s text).
    """
    config = Config(seed=seed, n_repeats=n_repeats, methods=_VARIANT_METHODS)
    results = run(config, n_jobs=n_jobs)
    peers, status = weka_peer_results_if_run(config)
    (_, entry), = DATASETS.items()
    X, y = entry.load()
    demo = replicated_subtree_demo(seed=seed)
    order = order_invariance(Prism(pruning=None).fit(X, y), X, n_permutations=n_rule_orders, seed=seed)
    recomputed = _seed_checks(demo=demo, order_training=order, folds=fold_list_comparison(y, config),
                              prism_peers=None if peers is None else prism_peer_comparison(results, peers),
                              cover_2d=covering_2d_example(seed=seed), seed=seed)
    new = {name: value for name, value in checks.items() if name not in ("weka-prism", "folds")}
    new.update(recomputed)
    return {**claims_data(results, new, peers), "status": status}


def _seed_checks(*, demo, order_training, folds, prism_peers, cover_2d=None, seed=None) -> dict:
    """The exact checks that depend on the notebook's seed."""
    x_leaves = [r for r in demo["leaf_rules"] if r.endswith("then x")]
    checks = {
        "replicated-subtree": replicated_subtree(replicated_tests(x_leaves), seed),
        "disjunction": (demo["x_rules"] == ["If a = true and b = true then x", "If c = true and d = true then x"],
                        render(TEMPLATES["disjunction"], rules=[f"`{r}`" for r in demo["x_rules"]]).data),
        "modular": (int(order_training["orders changing some prediction"]) == 0,
                    render(TEMPLATES["modular"], n=int(order_training["orders tried"]),
                           k=int(order_training["orders changing some prediction"])).data),
    }
    if "tree" in demo:
        checks["one-rule-per-leaf"] = one_rule_per_leaf(demo["tree"], demo["leaf_rules"], seed)
    if cover_2d is not None:
        checks["more-rules-2d"] = more_rules_2d(
            int(cover_2d["uncovered_b"]), int((cover_2d["points"]["class"] == "b").sum()))
    if len(folds):
        checks["folds"] = (bool(folds["identical"].all()),
                           render(TEMPLATES["folds"], k=int(folds["identical"].sum()), n=len(folds)).data)
    if prism_peers is not None and len(prism_peers):
        checks["weka-prism"] = (bool(prism_peers["identical"].all()),
                                render(TEMPLATES["weka_prism"], k=int(prism_peers["folds equal"].sum()),
                                       n=int(prism_peers["folds"].sum()), splits=len(prism_peers)).data)
    return checks


def exact_checks(*, rules, trace, training_correct, n_train, versus_weka, folds, order_training, conflicts_space,
                 demo, supermarket_rules, weka_supermarket_rules, prism_peers=None, conformance=None,
                 cover_2d=None, seed=None) -> dict:
    """The exact checks of :func:`claims_family` from the notebook's tables: ``{name: (ok, detail)}``.

    ``folds`` is :func:`fold_list_comparison`'s table (empty: the check is not evaluated);
    ``prism_peers`` is :func:`prism_peer_comparison`'s table (``None``: ``weka-prism`` is not
    evaluated); ``conformance`` (:func:`conformance_checks`, computed once where the notebook
    shows them) gives the slides' checks of the covering algorithm (not evaluated without it).

    Parameters
    ----------
    rules : pandas.DataFrame
        :func:`rule_comparison`.
    trace : pandas.DataFrame
        :func:`trace_comparison`.
    training_correct : int
        PRISM's correct training predictions.
    n_train : int
        Training instances.
    versus_weka : pandas.DataFrame
        :func:`weka_comparison`.
    folds : pandas.DataFrame
        :func:`fold_list_comparison`.
    order_training : pandas.Series
        :func:`order_invariance` on the training set.
    conflicts_space : pandas.DataFrame
        :func:`space_conflicts` per data set (one row each).
    demo : dict
        :func:`replicated_subtree_demo`.
    supermarket_rules : int
        Our rule count on ``supermarket``.
    weka_supermarket_rules : int
        Weka's recorded rule count.
    prism_peers : pandas.DataFrame, optional
        :func:`prism_peer_comparison`.
    conformance : dict, optional
        :func:`conformance_checks`.
    cover_2d : dict, optional
        :func:`covering_2d_example` (``more-rules-2d``; not evaluated without it).
    seed : int, optional
        The notebook's seed (named in the tree's sentences).

    Returns
    -------
    dict
        ``{name: (ok, detail)}``.
    """
    def equal_rows(table, labels):
        # the recorded accuracies have one decimal (70.8 for 17/24): equal at that precision
        chosen = table.loc[labels]
        same = (chosen["ours"].round(1) == chosen["paper"]).all()
        return bool(same), f"{len(chosen)} numbers, equal at the recorded precision"

    prism_rows = [r for r in versus_weka.index if r.startswith("PRISM cv")]
    baseline_rows = [f"{n} cv accuracy %" for n in WEKA_SAME if f"{n} cv accuracy %" in versus_weka.index]
    checks = {
        "trace": (bool((trace["difference"] == 0).all()), f"{len(trace)} p and t values of the restored tables"),
        "rules": (bool(rules["equal"].all()), f"{int(rules['equal'].sum())} of {len(rules)} rules equal, in order"),
        "training": (training_correct == n_train, f"{training_correct}/{n_train} correct"),
        "weka-cv": equal_rows(versus_weka, prism_rows),
        "baselines": equal_rows(versus_weka, baseline_rows),
        "conflicts-unseen": (bool((conflicts_space["rules of several classes"] > 0).any()),
                             f"unseen instances covered by rules of several classes on "
                             f"{int((conflicts_space['rules of several classes'] > 0).sum())} of "
                             f"{len(conflicts_space)} data sets"),
        "supermarket": (supermarket_rules == weka_supermarket_rules,
                        f"{supermarket_rules} rules, Weka {weka_supermarket_rules}"),
    }
    checks.update(_seed_checks(demo=demo, order_training=order_training, folds=folds, prism_peers=prism_peers,
                               cover_2d=cover_2d, seed=seed))
    checks.update(conformance or {})
    return checks


def conformance_checks(model: Prism, X, y, rng: np.random.Generator) -> dict:
    """The slides' description of the algorithm and their worked example, run on our PRISM.

    :func:`covering_checks` on the contact lenses, and slide 15's "(or there are no more
    attributes to use)" and slide 6's "Each new test reduces rules coverage"
    (:mod:`._math_checks`).

    Parameters
    ----------
    model : Prism
        Fitted with ``keep_trace=True`` and ``pruning=None`` on ``X, y``.
    X : pandas.DataFrame
    y : pandas.Series
    rng : numpy.random.Generator
        The notebook's generator (the contradicting copy of ``no-more-attributes``).

    Returns
    -------
    dict
        ``{name: (ok, detail)}``.
    """
    checks = covering_checks(model, X, y)
    checks["no-more-attributes"] = stops_when_no_attribute_left(X, y, rng)
    checks["coverage-reduces"] = coverage_reduces(model, X, y)
    checks["coverage-reduces-strictly"] = coverage_reduces(model, X, y, strict=True)
    return checks


def covering_checks(model: Prism, X, y) -> dict:
    """The slides' statements on the covering algorithm, checked on PRISM's model of ``X, y``.

    ``covering`` (slide 4), ``first-test`` (slide 10's "4 out of 12", read from
    ``paper_numbers/02_prism_first_rule_trace.csv``'s CONFIRMED row), ``refine`` (slide 12),
    ``ties`` (slide 15: the largest p/t, ties to the largest p, on every step of every rule),
    ``perfect`` (slide 15: each rule grows until perfect, and no further) and ``separate``
    (slide 16).

    Parameters
    ----------
    model : Prism
        Fitted with ``keep_trace=True`` on ``X, y``.
    X : pandas.DataFrame
    y : pandas.Series

    Returns
    -------
    dict
        ``{name: (ok, detail)}``.
    """
    from fractions import Fraction

    covers = model.covers(X)
    grown = model.grown_on(X)
    labels = np.array([rule.label for rule in model.rules_], dtype=object)
    y_values = np.asarray(y, dtype=object)
    classes = list(dict.fromkeys(labels))
    own = [bool(np.array_equal(covers[:, labels == c].any(axis=1), y_values == c)) for c in classes]
    sizes = [f"{c} {int((y_values == c).sum())}" for c in classes]
    checks = {"covering": (all(own), render(TEMPLATES["covering"], n=len(classes), sizes=sizes).data)}

    paper = paper_table("02_prism_first_rule_trace")
    confirmed = paper[paper["status"] == "CONFIRMED"].iloc[0]
    subsets = covered_subsets(model, X, y, "hard", 1)  # the rule of the slides' walk-through
    first = subsets.iloc[1]
    test = f"{confirmed['attribute']} = {confirmed['value']}"
    checks["first-test"] = (first["test added"] == test and (first["p"], first["t"]) == (confirmed["p"], confirmed["t"]),
                            render(TEMPLATES["first_test"], test=first["test added"], p=first["p"], t=first["t"],
                                   paper_p=confirmed["p"], paper_t=confirmed["t"]).data)
    last, second = subsets.iloc[-1], subsets.iloc[2]
    checks["refine"] = (len(subsets) == 4 and second["p"] < second["t"] and last["p"] == last["t"],
                        render(TEMPLATES["refine"], p2=second["p"], t2=second["t"], test=last["test added"],
                               p3=last["p"], t3=last["t"]).data)

    trace = model.trace_
    ok, n_steps, n_ties = True, 0, 0
    for _, step in trace.groupby(["rule", "step"], sort=False):
        n_steps += 1
        ratio = [Fraction(int(p), int(t)) if t else Fraction(-1) for p, t in zip(step["p"], step["t"])]
        best = max(ratio)
        at_best = step[[r == best for r in ratio]]
        chosen = step[step["selected"]]
        if len(chosen) != 1 or ratio[list(step.index).index(chosen.index[0])] != best:
            ok = False
            continue
        if len(at_best) > 1 and at_best["p"].nunique() > 1:
            n_ties += 1
        if int(chosen["p"].iloc[0]) != int(at_best["p"].max()):
            ok = False
    checks["ties"] = (ok, render(TEMPLATES["ties"], steps=n_steps, rules=len(model.rules_), ties=n_ties).data)

    checks["perfect"] = stops_when_perfect(model, X, y)

    separate = 0
    for j in range(len(model.rules_)):
        earlier = covers[:, [i for i in range(j) if labels[i] == labels[j]]].any(axis=1)
        separate += bool(np.array_equal(grown[:, j], ~earlier))
    checks["separate"] = (separate == len(model.rules_),
                          render(TEMPLATES["separate"], k=separate, n=len(model.rules_)).data)
    return checks
