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
    Config, DATASETS, MISSING_POSITIONS, NUMPY_SPLIT, WEKA_SPLIT, counts_table, run, weka_peer_results_if_run,
)
from companion.experiments.paper02._tables import (
    WEKA_RECORDED, WEKA_SAME, covered_subsets, first_rule_trace,
    fold_list_comparison, order_invariance, prism_peer_comparison, split_rows, trace_comparison,
)
from companion.experiments.paper02._figures import covering_2d_example, replicated_subtree_demo, replicated_tests
from companion.experiments.paper02._cv_observations import default_never_worse, paired_folds
from companion.experiments.paper02._math_checks import (
    contradictory_copy, coverage_reduces, more_rules_2d, one_rule_per_leaf, replicated_subtree,
    replicated_subtree_literal, replicated_subtree_some, rules_to_tree, stops_when_no_attribute_left,
    stops_when_perfect, tree_census,
)


# --------------------------------------------------------------------------------------------
# The claims, judged by companion.claims (registry: companion/experiments/registry/paper02.toml)
# --------------------------------------------------------------------------------------------

def _repeated_accuracy(results: pd.DataFrame) -> pd.DataFrame:
    """Accuracy (%) of every learner on every repeated split (rows: split seed, columns: learner)."""
    rows = split_rows(results, NUMPY_SPLIT)
    return pd.DataFrame({seed: counts_table(split)["accuracy %"] for seed, split in rows.groupby("seed", sort=False)}).T


def _check(name):
    def check(data):
        return data["checks"].get(name)
    return check


#: Registry measure key -> the name of its exact check in :func:`exact_checks`.
_CHECK_MEASURES = {
    "covering": "covering", "first_test_count": "first-test", "not_exact_after_two": "refine", "ties": "ties",
    "perfect": "perfect", "separate": "separate", "math_replicated_subtree": "replicated-subtree",
    "math_replicated_subtree_literal": "replicated-subtree-literal",
    "math_replicated_subtree_some": "replicated-subtree-some-tree", "disjunction": "disjunction",
    "no_more_attributes": "no-more-attributes", "coverage_reduces": "coverage-reduces",
    "coverage_reduces_strictly": "coverage-reduces-strictly", "exact_after_third": "exact-after-third",
    "one_rule_per_leaf": "one-rule-per-leaf", "more_rules_2d": "more-rules-2d",
    "trace": "trace", "rules": "rules", "training": "training", "weka_cv": "weka-cv", "folds_weka": "folds-weka",
    "folds_seeded": "folds-seeded", "tree_to_rules": "tree-to-rules", "rules_to_tree": "rules-to-tree",
    "weka_prism": "weka-prism", "baselines": "baselines", "supermarket": "supermarket",
    "supermarket_rules": "supermarket-rules", "modular": "modular",
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
    measures["default_never_worse"] = default_never_worse
    measures["default_class_folds"] = partial(paired_folds, a="PRISM + default class", b="PRISM", floor=True)
    measures["tree_vs_prism_folds"] = partial(paired_folds, a="J48", b="PRISM + default class")
    measures["default_vs_zeror"] = partial(paired_folds, a="PRISM + default class", b="ZeroR")
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
_VARIANT_METHODS = ("PRISM", "PRISM + default class", "ZeroR")


def split_names(names) -> str:
    """``"weka:1 and numpy:0–9"``: split names, runs of consecutive seeded splits shortened."""
    names = list(names)
    numbers = sorted(int(n.partition(":")[2]) for n in names if n.startswith(NUMPY_SPLIT))
    parts = [n for n in names if not n.startswith(NUMPY_SPLIT)]
    start = None
    for i, number in enumerate(numbers):
        if start is None:
            start = number
        if i + 1 == len(numbers) or numbers[i + 1] != number + 1:
            parts.append(f"{NUMPY_SPLIT}{start}" if start == number else f"{NUMPY_SPLIT}{start}–{number}")
            start = None
    return render("{parts:list}", parts=parts).data


def seed_variant(seed: int, checks: dict, *, n_repeats: int, n_rule_orders: int, n_jobs: int = 1,
                 modular_condition: str = "") -> dict:
    """The data of one seed variant: its own splits, Weka's peers on them, the seeded checks.

    :func:`run` on its own splits, Weka's peers on them (when they were run), and the exact
    checks that depend on the seed recomputed with it.

    The checks that read the seed are the tree's rules (the tree's ``random_state``), slide 5's
    points (``more-rules-2d``), the rule orders of ``modular``, the contradicting copy of
    ``no-more-attributes`` (drawn from the variant's seed), the fold list and Weka's Prism on
    the variant's splits (their sentences name the splits compared); the others (the walk-through,
    the enumeration of trees, the rule list, Weka's folds, ``supermarket``, the conformance checks
    on the contact lenses) do not depend on it and keep the main values, so the claims engine
    lists the variant as leaving them unchanged.

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
    modular_condition : str, default=""
        :func:`modular_condition`'s clause, appended to ``modular``'s sentence.

    Returns
    -------
    dict
        :func:`claims_data`'s dict, plus ``status`` (:func:`weka_peer_results_if_run`'s text) and
        ``splits`` (the splits Weka's peers were read for, or none).
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
                              cover_2d=covering_2d_example(seed=seed), seed=seed, modular_condition=modular_condition)
    # the contradicting copy of no-more-attributes, drawn anew from the variant's seed
    recomputed["no-more-attributes"] = stops_when_no_attribute_left(X, y, np.random.default_rng(seed))
    new = {name: value for name, value in checks.items() if name not in ("weka-prism", "folds-weka", "folds-seeded")}
    new.update(recomputed)
    splits = [] if peers is None else list(dict.fromkeys(peers["seed"]))
    return {**claims_data(results, new, peers), "status": status, "splits": splits}


def fold_checks(folds: pd.DataFrame) -> dict:
    """``folds-weka`` (Weka's split, a peer check) and ``folds-seeded`` (our seeded splits, a
    sanity check) from :func:`fold_list_comparison`'s table; a check whose splits the table
    lacks is left out (not evaluated).

    Parameters
    ----------
    folds : pandas.DataFrame
        :func:`fold_list_comparison`.

    Returns
    -------
    dict
        ``{name: (ok, detail)}``.
    """
    checks = {}
    for name, prefix in (("folds-weka", WEKA_SPLIT), ("folds-seeded", NUMPY_SPLIT)):
        rows = folds[folds.index.astype(str).str.startswith(prefix)] if len(folds) else folds
        if len(rows):
            checks[name] = (bool(rows["identical"].all()),
                            render(TEMPLATES["folds"], k=int(rows["identical"].sum()), n=len(rows),
                                   names=split_names(rows.index)).data)
    return checks


def tree_to_rules(leaf_rules, seed=None) -> tuple[bool, str]:
    """Slide 2's "Easy converting a tree into a set of rules", on the seeded tree: how many rules
    and tests one pass over the leaves' paths gives (an observation: ``ok`` is that every leaf
    gave a rule).

    Parameters
    ----------
    leaf_rules : list of str
        :func:`replicated_subtree_demo`'s ``leaf_rules`` (``"If a = true and b = true then x"``).
    seed : int, optional
        The tree's seed (named in the sentence).

    Returns
    -------
    (bool, str)
    """
    tests = [rule.removeprefix("If ").rsplit(" then ", 1)[0].count(" = ") for rule in leaf_rules]
    x_rules = [rule for rule in leaf_rules if rule.endswith("then x")]
    return len(leaf_rules) > 0, render(TEMPLATES["tree_to_rules"], seed=seed, rules=len(leaf_rules),
                                       tests=sum(tests), x=len(x_rules)).data


def _seed_checks(*, demo, order_training, folds, prism_peers, cover_2d=None, seed=None, modular_condition="") -> dict:
    """The exact checks that depend on the notebook's seed."""
    checks = {
        "disjunction": (demo["x_rules"] == ["If a = true and b = true then x", "If c = true and d = true then x"],
                        render(TEMPLATES["disjunction"], rules=[f"`{r}`" for r in demo["x_rules"]]).data),
        "modular": (int(order_training["orders changing some prediction"]) == 0,
                    render(TEMPLATES["modular"], n=int(order_training["orders tried"]),
                           k=int(order_training["orders changing some prediction"])).data + modular_condition),
    }
    if "tree" in demo:
        checks["one-rule-per-leaf"] = one_rule_per_leaf(demo["tree"], demo["leaf_rules"], seed)
    if cover_2d is not None:
        checks["more-rules-2d"] = more_rules_2d(
            int(cover_2d["uncovered_b"]), int((cover_2d["points"]["class"] == "b").sum()))
    if "tree" in demo:
        checks["tree-to-rules"] = tree_to_rules(demo["leaf_rules"], seed)
    checks.update(fold_checks(folds))
    if prism_peers is not None and len(prism_peers):
        checks["weka-prism"] = (bool(prism_peers["identical"].all()),
                                render(TEMPLATES["weka_prism"], k=int(prism_peers["folds equal"].sum()),
                                       n=int(prism_peers["folds"].sum()), splits=len(prism_peers),
                                       names=split_names(prism_peers.index)).data)
    return checks


def supermarket_check(ours: int, weka: int, missing: str = "last") -> tuple[bool, str]:
    """``(ok, detail)``: our rule count on ``supermarket`` equals Weka 3.6.14's, both under one
    declared position of the missing value (:data:`MISSING_POSITIONS`).

    Parameters
    ----------
    ours : int
        Our rule count.
    weka : int
        Weka's recorded count under the same encoding.
    missing : {"last", "first"}, default="last"
        Where the missing value is declared (``last``: the encoding of Weka's recorded run).

    Returns
    -------
    (bool, str)
    """
    return ours == weka, render(TEMPLATES["supermarket"], ours=ours, weka=weka, encoding=MISSING_POSITIONS[missing]).data


def supermarket_rules_check(ours, weka, missing: str = "last") -> tuple[bool, str]:
    """``(ok, detail)``: our rule list on ``supermarket`` is Weka 3.6.14's stored one, rule by rule
    and in order, test for test (:func:`weka_rule_lines` against
    ``companion.datasets.load_peers("prism", table="supermarket_rules")``), under one declared position of the
    missing value.

    Parameters
    ----------
    ours : array-like of str
        :func:`weka_rule_lines` of our model.
    weka : array-like of str
        Weka's lines under the same encoding.
    missing : {"last", "first"}, default="last"

    Returns
    -------
    (bool, str)
    """
    ours, weka = np.asarray(ours, dtype=object), np.asarray(weka, dtype=object)
    n = min(len(ours), len(weka))
    same = ours[:n] == weka[:n]
    differ = np.flatnonzero(~same)
    first = (f"rule {int(differ[0]) + 1}" if len(differ) else f"rule {n + 1} (one list ends)" if len(ours) != len(weka)
             else "none")
    return bool(len(ours) == len(weka) and same.all()), render(
        TEMPLATES["supermarket_rules"], k=int(same.sum()), n=len(ours), n_weka=len(weka),
        encoding=MISSING_POSITIONS[missing], first=first).data


def modular_condition(model: Prism, X, y, copy: tuple, supermarket_model: Prism | None = None) -> str:
    """The clause of ``modular``'s sentence that states its condition: every rule perfect on its E.

    Counted on the contact lenses, on ``no-more-attributes``' contradicting copy and on
    ``supermarket`` (where attributes run out and some rules stay imperfect).

    Parameters
    ----------
    model : Prism
        PRISM on the contact lenses.
    X, y : pandas.DataFrame, pandas.Series
        The contact lenses.
    copy : tuple
        ``(X2, y2, model2)``: the contradicting copy of ``no-more-attributes`` and PRISM on it.
    supermarket_model : Prism, optional
        PRISM on ``supermarket``.

    Returns
    -------
    str
    """
    def imperfect(fitted):
        table = fitted.rule_table()
        return int((table["p"] < table["t"]).sum()), len(table)

    lenses, n_lenses = imperfect(model)
    on_copy, n_copy = imperfect(copy[2])
    market, n_market = imperfect(supermarket_model) if supermarket_model is not None else (0, 0)
    return render(TEMPLATES["modular_condition"], perfect=n_lenses - lenses, n=n_lenses, copy=on_copy, n_copy=n_copy,
                  market=market, n_market=n_market).data


def exact_checks(*, rules, trace, first_trace=None, training_correct, n_train, versus_weka, folds, order_training, conflicts_space,
                 demo, supermarket_rules, weka_supermarket_rules, prism_peers=None, conformance=None,
                 cover_2d=None, seed=None, modular_condition: str = "", supermarket_list=None) -> dict:
    """The exact checks of :func:`claims_family` from the notebook's tables: ``{name: (ok, detail)}``.

    ``folds`` is :func:`fold_list_comparison`'s table (empty: the check is not evaluated);
    ``prism_peers`` is :func:`prism_peer_comparison`'s table (``None``: ``weka-prism`` is not
    evaluated); ``conformance`` (:func:`conformance_checks`, computed once where the notebook
    shows them) gives the slides' checks of the covering algorithm (not evaluated without it);
    ``demo``'s ``checks`` (:func:`replicated_subtree_section`, computed once) the three readings
    of slide 2's replicated subtree.

    Parameters
    ----------
    rules : pandas.DataFrame
        :func:`rule_comparison`.
    trace : pandas.DataFrame
        :func:`trace_comparison`.
    first_trace : pandas.DataFrame, optional
        :func:`first_rule_trace` (the ``trace`` check then says how many candidates the
        restoration covers).
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
        :func:`replicated_subtree_demo` (or :func:`replicated_subtree_section`, with its checks).
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
    modular_condition : str, default=""
        :func:`modular_condition`'s clause.
    supermarket_list : tuple, optional
        :func:`supermarket_rules_check`'s ``(ok, detail)`` (``supermarket-rules``; not evaluated without it).

    Returns
    -------
    dict
        ``{name: (ok, detail)}``.
    """
    def equal_rows(table, labels):
        # the recorded accuracies have one decimal (70.8 for 17/24): equal at that precision
        chosen = table.loc[labels]
        same = (chosen["this run"].round(1) == chosen[WEKA_RECORDED]).all()
        return bool(same), f"{len(chosen)} numbers, equal at the recorded precision"

    prism_rows = [r for r in versus_weka.index if r.startswith("PRISM cv")]
    baseline_rows = [f"{n} cv accuracy %" for n in WEKA_SAME if f"{n} cv accuracy %" in versus_weka.index]
    unseen = conflicts_space[conflicts_space["unseen"] > 0]
    several = unseen[unseen["rules of several classes"] > 0]
    without = [f"{name} (its training set is its whole attribute space)" for name in conflicts_space.index
               if name not in unseen.index]
    checks = {
        "trace": restored_trace(trace, first_trace),
        "rules": (bool(rules["equal"].all()), f"{int(rules['equal'].sum())} of {len(rules)} rules equal, in order"),
        "training": (training_correct == n_train, f"{training_correct}/{n_train} correct"),
        "weka-cv": equal_rows(versus_weka, prism_rows),
        "baselines": equal_rows(versus_weka, baseline_rows),
        "conflicts-unseen": (len(several) > 0, render(
            TEMPLATES["conflicts"], k=len(several), n=len(unseen), names=list(several.index),
            without=render(TEMPLATES["conflicts_without"], names=without,
                           verb="has" if len(without) == 1 else "have").data if without else "").data),
        "supermarket": supermarket_check(supermarket_rules, weka_supermarket_rules),
    }
    checks.update(_seed_checks(demo=demo, order_training=order_training, folds=folds, prism_peers=prism_peers,
                               cover_2d=cover_2d, seed=seed, modular_condition=modular_condition))
    checks.update(demo.get("checks", {}))
    checks.update(conformance or {})
    if supermarket_list is not None:
        checks["supermarket-rules"] = supermarket_list
    return checks


def restored_trace(comparison: pd.DataFrame, trace: pd.DataFrame | None = None) -> tuple[bool, str]:
    """``(ok, detail)``: every p and t of the restored slide tables equals our trace's (:func:`trace_comparison`).

    With ``trace`` (:func:`first_rule_trace`), the detail says how many of the trace's candidate
    tests the restoration covers, step by step (it lists every candidate of step 1 only).

    Parameters
    ----------
    comparison : pandas.DataFrame
        :func:`trace_comparison`.
    trace : pandas.DataFrame, optional
        :func:`first_rule_trace` of the same model.

    Returns
    -------
    (bool, str)
    """
    equal = int((comparison["difference"] == 0).sum())
    text = render(TEMPLATES["trace"], k=equal, n=len(comparison)).data
    if trace is not None:
        steps = pd.Series([int(name.split(":")[0].removeprefix("step ")) for name in comparison.index
                           if name.endswith("(p)")], dtype=int)
        restored = steps.value_counts()
        per_step = trace.groupby("step").size()
        text += render(TEMPLATES["trace_coverage"], k=int(restored.sum()), n=int(per_step.sum()),
                       steps=[f"{int(restored.get(step, 0))} of the {int(size)} of step {int(step)}"
                              for step, size in per_step.items()]).data
    return equal == len(comparison), text


def conformance_checks(model: Prism, X, y, rng: np.random.Generator) -> tuple[dict, tuple]:
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
    checks : dict
        ``{name: (ok, detail)}``.
    copy : tuple
        ``(X2, y2, model2)``: the contradicting copy and PRISM on it (read by
        :func:`modular_condition`).
    """
    checks = covering_checks(model, X, y)
    copy = contradictory_copy(X, y, rng)
    copy_model = Prism(pruning=None).fit(copy[0], copy[1])
    checks["no-more-attributes"] = stops_when_no_attribute_left(X, y, copy=copy, model=copy_model)
    checks.update(_coverage_checks(model, X, y))
    return checks, (copy[0], copy[1], copy_model)


def _coverage_checks(model: Prism, X, y) -> dict:
    return {"coverage-reduces": coverage_reduces(model, X, y),
            "coverage-reduces-strictly": coverage_reduces(model, X, y, strict=True)}


#: The rules for exact ties (candidates equal in p/t and in p) the walk-through is re-run with:
#: the slides fix only "the largest p"; the main run keeps the earliest attribute, then the
#: earliest value, as Weka does.
TIE_RULES = {
    "last": "the last attribute, then the last value",
    "random": "a random priority of the attributes and of their values, drawn with the notebook's generator",
}


def tie_order(X: pd.DataFrame, rule: str, rng: np.random.Generator | None = None) -> pd.DataFrame:
    """``X`` with its attributes and values reordered so that Weka's exact-tie rule (the earliest
    attribute, then the earliest value) becomes :data:`TIE_RULES`' ``rule``.

    PRISM reads attributes in column order and values in declared order, and keeps the first of
    exactly tied candidates; only exact ties (equal p/t and equal p) depend on the order.

    Parameters
    ----------
    X : pandas.DataFrame
        Nominal attributes (categoricals).
    rule : {"last", "random"}
    rng : numpy.random.Generator, optional
        Draws the random priority (``rule="random"``).

    Returns
    -------
    pandas.DataFrame
    """
    columns = list(X.columns)
    if rule == "last":
        order = columns[::-1]
        values = {c: list(X[c].cat.categories)[::-1] for c in columns}
    elif rule == "random":
        if rng is None:
            raise ValueError("tie_order: rule='random' needs rng")
        order = [columns[i] for i in rng.permutation(len(columns))]
        values = {c: [X[c].cat.categories[i] for i in rng.permutation(len(X[c].cat.categories))] for c in columns}
    else:
        raise ValueError(f"tie_order: rule must be one of {tuple(TIE_RULES)}, got {rule!r}")
    out = X[order].copy()
    for c in order:
        out[c] = out[c].cat.reorder_categories(values[c])
    return out


def tie_variant_checks(X: pd.DataFrame, y, rule: str, rng: np.random.Generator | None = None) -> tuple[dict, str]:
    """The checks of the walk-through and of the algorithm's description, PRISM re-fitted under the
    exact-tie rule ``rule`` (:func:`tie_order`).

    Parameters
    ----------
    X : pandas.DataFrame
    y : pandas.Series
    rule : {"last", "random"}
    rng : numpy.random.Generator, optional

    Returns
    -------
    checks : dict
        ``covering``, ``first-test``, ``refine``, ``exact-after-third``, ``ties``, ``perfect``,
        ``separate``, ``coverage-reduces``, ``coverage-reduces-strictly`` and ``trace``.
    order : str
        The priority used (attributes, each with its values).
    """
    reordered = tie_order(X, rule, rng)
    model = Prism(keep_trace=True, pruning=None).fit(reordered, y)
    checks = covering_checks(model, reordered, y)
    checks.update(_coverage_checks(model, reordered, y))
    first = first_rule_trace(model, "hard")
    checks["trace"] = restored_trace(trace_comparison(first), first)
    # the variant's checks ran on another model: their sentences say under which rule
    checks = {name: (ok, f"{detail}; under tie={rule}") for name, (ok, detail) in checks.items()}
    order = "; ".join(f"{c} ({', '.join(map(str, reordered[c].cat.categories))})" for c in reordered.columns)
    return checks, order


def tree_class_checks(tests: str, cart: dict | None = None, subtrees: str = "any") -> dict:
    """Slide 2's three readings of "identical subtrees" over the trees of class ``tests``
    (:data:`companion.experiments.paper02._math_checks.TREE_CLASSES`).

    Parameters
    ----------
    tests : {"relevant", "untested"}
    cart : dict, optional
        ``seed`` and ``tree`` of the notebook's CART tree.
    subtrees : {"any", "two-tests"}, default="any"
        The smallest repeated subtree counted (:data:`companion.experiments.paper02._math_checks.SUBTREE_SIZES`).

    Returns
    -------
    dict
    """
    census = tree_census(tests=tests, subtrees=subtrees)
    return {"replicated-subtree": replicated_subtree(census, cart),
            "replicated-subtree-literal": replicated_subtree_literal(census, cart),
            "replicated-subtree-some-tree": replicated_subtree_some(census),
            "rules-to-tree": rules_to_tree(census)}


def registry_rows() -> dict:
    """``{check name: registry entry}``: the claims-registry row that judges each exact check.

    Returns
    -------
    dict
    """
    import companion.claims as C

    by_measure = {entry["measure"]: entry for entry in C.load_registry("02").entries if "measure" in entry}
    return {name: by_measure[key] for key, name in _CHECK_MEASURES.items() if key in by_measure}


def covering_checks(model: Prism, X, y) -> dict:
    """The slides' statements on the covering algorithm, checked on PRISM's model of ``X, y``.

    ``covering`` (slide 4), ``first-test`` (slide 10's "4 out of 12": the p and t of the
    CONFIRMED row of ``paper_numbers/02_prism_first_rule_trace.csv``; the test's name is the
    restoration's and is not judged here), ``refine`` (slide 12: not exact after two tests, no candidate second test exact, and the loop
    goes on: the trace has a third step and the rule a third test),
    ``exact-after-third`` (the lost slide 14, as the project restored it: the third test and its
    p/t are the restoration's), ``ties`` (slide 15: the largest p/t, ties to the largest p, on
    every step of every rule), ``perfect`` (slide 15: each rule grows until perfect, and no
    further) and ``separate`` (slide 16).

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
    restored = paper[(paper["step"] == 3) & paper["selected"].astype(str).eq("True")].iloc[0]
    subsets = covered_subsets(model, X, y, "hard", 1)  # the rule of the slides' walk-through
    first = subsets.iloc[1]
    checks["first-test"] = ((int(first["p"]), int(first["t"])) == (int(confirmed["p"]), int(confirmed["t"])),
                            render(TEMPLATES["first_test"], test=first["test added"], p=first["p"], t=first["t"],
                                   paper_p=confirmed["p"], paper_t=confirmed["t"]).data)
    second = subsets.iloc[2] if len(subsets) > 2 else subsets.iloc[-1]
    steps = first_rule_trace(model, "hard")
    candidates = steps[steps["step"] == 2]
    exact = [f"`{a} = {v}`" for a, v, p, t in zip(candidates["attribute"], candidates["value"], candidates["p"],
                                                   candidates["t"]) if int(t) > 0 and int(p) == int(t)]
    # the loop goes on: the trace has a third step, and the rule a third test, after the non-exact second one
    third = steps[steps["step"] == 3]
    went_on = len(subsets) > 3 and len(third) > 0 and int(third["selected"].sum()) == 1
    checks["refine"] = (len(subsets) > 2 and int(second["p"]) < int(second["t"]) and len(candidates) > 0 and not exact
                        and went_on,
                        render(TEMPLATES["refine"], test=second["test added"], p2=second["p"], t2=second["t"],
                               n=len(candidates), pts=[str(pt) for pt in candidates["p/t"]],
                               exact=exact or ["none"]).data
                        + (render(TEMPLATES["refine_third"], n=len(third)).data if went_on
                           else TEMPLATES["refine_stopped"]))
    last = subsets.iloc[-1]
    test = f"{restored['attribute']} = {restored['value']}"
    checks["exact-after-third"] = (
        len(subsets) == 4 and last["test added"] == test and int(last["p"]) == int(last["t"])
        and (int(last["p"]), int(last["t"])) == (int(restored["p"]), int(restored["t"])),
        render(TEMPLATES["exact_after_third"], n=len(subsets) - 1, test=last["test added"], p=last["p"], t=last["t"],
               restored=test, restored_p=restored["p"], restored_t=restored["t"]).data)

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
