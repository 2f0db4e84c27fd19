"""The sections of notebook 02, one call each: the tables, figures and sentences a section shows.

Each function composes the builders of the lower modules (``_protocol`` < ``_tables`` <
``_figures`` < ``_claims`` < ``_prose``) in the order the notebook reads them and returns a
:class:`sklearn.utils.Bunch` (a dict whose keys are also attributes), so that a notebook cell is
one call and the cells after it show its parts. Nothing here computes anything the builders do
not; nothing here writes a file (the notebook saves what it publishes).
"""

from __future__ import annotations

from numbers import Integral

import numpy as np

import pandas as pd
from sklearn.utils import Bunch
from sklearn.utils._param_validation import validate_params

from companion.evaluation import comparison_table
from companion.experiments._constraints import COUNT, N_JOBS, SEED
from companion.numerics import StrictInterval
from companion.paper_numbers import paper_table
from companion.prism import Prism
from companion.experiments.paper02._protocol import (
    Config, run, seed_variants, supermarket_scale, supermarket_speed, weka_cv_folds, weka_peer_results_if_run,
)
from companion.experiments.paper02._tables import (
    attribute_space, covered_subsets, cv_conflicts, first_rule_trace, fold_list_comparison, order_invariance,
    peer_repeated_accuracy, prism_peer_comparison, repeated_table, rule_coverage, rule_trace, space_conflicts,
    stand_in_table, trace_comparison, weka_comparison, weka_folds_table,
)
from companion.experiments.paper02._figures import covering_2d_example, replicated_subtree_demo
from companion.experiments.paper02._claims import (
    claims_report, conformance_checks, exact_checks, replicated_tests, seed_variant,
)
from companion.experiments.paper02._math_checks import conformance_table, one_rule_per_leaf, replicated_subtree
from companion.experiments.paper02._prose import (
    describe_claims, describe_conflicts_cv, describe_coverage, describe_covering_2d, describe_demo,
    describe_order, describe_second_rule, describe_space, describe_subsets, describe_supermarket,
    describe_trace,
)

#: PRISM's correct count on its training set: an int >= 0.
_CORRECT = [StrictInterval(Integral, 0, None, closed="left")]

# prefer_skip_nested_validation: False for a section that takes a fitted model or fits learners
# (on its data, seeds, configuration), so that their parameters are still checked; True for one
# that draws points and reads tables only.


@validate_params({"seed": SEED}, prefer_skip_nested_validation=True)
def covering_section(seed: int = 0) -> Bunch:
    """Slide 5's covering of a two-dimensional instance space, with its sentence.

    Parameters
    ----------
    seed : int, default=0
        Seed of the points (the slide's picture is lost; the rules and thresholds are its own).

    Returns
    -------
    Bunch
        The keys of :func:`covering_2d_example` (``rules``, ``figure``, ``uncovered_b``, ...)
        and ``text``, the sentence stating what the rules cover.
    """
    example = covering_2d_example(seed=seed)
    return Bunch(**example, text=describe_covering_2d(example))


@validate_params(
    # label: a class of y, of whatever type the labels have (str, int, a category...)
    {"model": [Prism], "X": ["array-like"], "y": ["array-like"], "label": "no_validation"},
    prefer_skip_nested_validation=False,
)
def walkthrough_section(model: Prism, X, y, label="hard") -> Bunch:
    """The slides' walk-through of the first two rules of a class (slides 8-14).

    Parameters
    ----------
    model : Prism
        Fitted with ``keep_trace=True`` on ``X, y``.
    X : DataFrame or array-like of shape (n_samples, n_features)
        The training attributes.
    y : Series or array-like of shape (n_samples,)
        The training classes.
    label : object, default="hard"
        The class whose rules are walked through.

    Returns
    -------
    Bunch
        ``first_trace`` (every candidate test of every step of the first rule), ``trace_text``,
        ``comparison`` (its steps against the slides'), ``first_subsets`` (the subsets of E the
        first rule covers after each test), ``subsets_text``, ``second_trace``,
        ``second_subsets`` and ``second_rule_text``.
    """
    first_trace = first_rule_trace(model, label)
    first_subsets = covered_subsets(model, X, y, label, 1)
    second_trace = rule_trace(model, label, 2)
    second_subsets = covered_subsets(model, X, y, label, 2)
    return Bunch(
        first_trace=first_trace, trace_text=describe_trace(first_trace), comparison=trace_comparison(first_trace),
        first_subsets=first_subsets, subsets_text=describe_subsets(first_subsets),
        second_trace=second_trace, second_subsets=second_subsets,
        second_rule_text=describe_second_rule(first_subsets, second_subsets, second_trace),
    )


@validate_params({"model": [Prism], "X": [pd.DataFrame], "y": [pd.Series], "rng": [np.random.Generator]},
                 prefer_skip_nested_validation=False)
def conformance_section(model: Prism, X, y, rng) -> Bunch:
    """The slides' description of PRISM (slides 4, 6, 15, 16) run on our code, computed once.

    Parameters
    ----------
    model : Prism
        Fitted with ``keep_trace=True`` and ``pruning=None`` on ``X, y``.
    X : DataFrame
        The contact lenses' attributes.
    y : Series
        Their classes.
    rng : numpy.random.Generator
        The notebook's generator.

    Returns
    -------
    Bunch
        ``checks`` (:func:`conformance_checks`, ``{name: (ok, detail)}``, the worked example's
        ``first-test`` and ``refine`` among them) and ``table`` (the algorithm-description
        checks: slide, statement, what was run, result).
    """
    checks = conformance_checks(model, X, y, rng)
    shown = ("covering", "ties", "perfect", "no-more-attributes", "coverage-reduces",
             "coverage-reduces-strictly", "separate")
    return Bunch(checks=checks, table=conformance_table({name: checks[name] for name in shown}))


@validate_params({"model": [Prism], "X": ["array-like"], "y": ["array-like"]}, prefer_skip_nested_validation=False)
def coverage_section(model: Prism, X, y) -> Bunch:
    """Each rule read on its own over the whole training set (Cendrowska's modular rules).

    Parameters
    ----------
    model : Prism
        Fitted on ``X, y``.
    X : DataFrame or array-like of shape (n_samples, n_features)
        The training attributes.
    y : Series or array-like of shape (n_samples,)
        The training classes.

    Returns
    -------
    Bunch
        ``table`` (:func:`rule_coverage`) and ``text``.
    """
    table = rule_coverage(model, X, y)
    return Bunch(table=table, text=describe_coverage(table))


@validate_params({"model": [Prism], "X": ["array-like"], "n_permutations": COUNT, "seed": SEED},
                 prefer_skip_nested_validation=False)
def order_section(model: Prism, X, n_permutations: int, seed: int) -> Bunch:
    """The rules applied in random orders on the training set: do the predictions change?

    Parameters
    ----------
    model : Prism
        Fitted on ``X``.
    X : DataFrame or array-like of shape (n_samples, n_features)
        The instances to predict.
    n_permutations : int
        Random rule orders tried.
    seed : int
        Seed of the orders.

    Returns
    -------
    Bunch
        ``table`` (:func:`order_invariance`, a Series) and ``text``.
    """
    table = order_invariance(model, X, n_permutations=n_permutations, seed=seed)
    return Bunch(table=table, text=describe_order(table))


@validate_params(
    {"X": [pd.DataFrame], "y": [pd.Series], "config": [Config], "training_correct": _CORRECT, "n_jobs": N_JOBS},
    prefer_skip_nested_validation=False,
)
def cross_validation_section(X, y, config: Config, training_correct: int, n_jobs: int = 1) -> Bunch:
    """Every learner on Weka's folds and on the repeated seeded splits, beside Weka's own runs.

    Parameters
    ----------
    X : DataFrame
        The contact lenses' attributes.
    y : Series
        Their classes.
    config : Config
        The cross-validation (seed, repeats, folds, Weka's seed).
    training_correct : int
        PRISM's correct count on its own training set (the slides' resubstitution row).
    n_jobs : int or None, default=1
        Worker processes of :func:`run` (the numbers do not depend on it).

    Returns
    -------
    Bunch
        ``results`` (:func:`run`'s tidy frame), ``peers`` (Weka's runs on these splits, or None)
        and ``peer_status`` (the sentence saying which), ``weka_folds`` (Weka's folds),
        ``cv_weka`` (the counts on them), ``versus_weka`` (paper / Weka / ours),
        ``stand_ins``, ``fold_check`` (the folds row by row against the committed list),
        ``prism_vs_weka`` (fold by fold against Weka's Prism, or None), ``repeated`` and
        ``repeated_weka`` (the repeated splits; None without the peers), ``conflicts`` and
        ``conflicts_text`` (held-out instances no rule, or rules of several classes, cover).
    """
    results = run(config, n_jobs=n_jobs)
    peers, peer_status = weka_peer_results_if_run(config)
    weka_folds = weka_cv_folds(y, n_folds=config.n_folds, seed=config.weka_seed)
    cv_weka = weka_folds_table(results)
    repeated_weka = None
    if peers is not None:
        repeated_weka = peer_repeated_accuracy(peers).agg(["mean", "std"]).T
        repeated_weka.columns = ["mean accuracy %", "std %"]
    conflicts = cv_conflicts(X, y, weka_folds)
    return Bunch(
        results=results, peers=peers, peer_status=peer_status, weka_folds=weka_folds, cv_weka=cv_weka,
        versus_weka=weka_comparison(cv_weka, training_correct, peers=peers), stand_ins=stand_in_table(cv_weka),
        fold_check=fold_list_comparison(y, config),
        prism_vs_weka=prism_peer_comparison(results, peers) if peers is not None else None,
        repeated=repeated_table(results), repeated_weka=repeated_weka,
        conflicts=conflicts, conflicts_text=describe_conflicts_cv(conflicts, cv_weka),
    )


@validate_params({"data": [dict], "n_permutations": COUNT, "seed": SEED}, prefer_skip_nested_validation=False)
def attribute_space_section(data: dict, n_permutations: int, seed: int) -> Bunch:
    """Where modularity ends: every unseen instance of each table's attribute space.

    Parameters
    ----------
    data : dict
        ``{name: (X, y)}``, the training tables.
    n_permutations : int
        Random rule orders tried on each table's attribute space.
    seed : int
        Seed of the orders.

    Returns
    -------
    Bunch
        ``conflicts`` (one row per table: instances no rule, or rules of several classes,
        cover), ``orders`` (one row per table: :func:`order_invariance` on its attribute space)
        and ``text``.
    """
    conflicts = pd.DataFrame({name: space_conflicts(*pair) for name, pair in data.items()}).T
    orders = pd.DataFrame({
        name: order_invariance(Prism(pruning=None).fit(*pair), attribute_space(pair[0]),
                               n_permutations=n_permutations, seed=seed)
        for name, pair in data.items()
    }).T
    return Bunch(conflicts=conflicts, orders=orders, text=describe_space(conflicts, orders))


@validate_params({"seed": SEED}, prefer_skip_nested_validation=False)
def replicated_subtree_section(seed: int = 0) -> Bunch:
    """Slides 2-3: a tree repeats a subtree that PRISM's rules state once.

    Parameters
    ----------
    seed : int, default=0
        The tree's ``random_state``.

    Returns
    -------
    Bunch
        The keys of :func:`replicated_subtree_demo` (``x_rules``, ``leaf_rules``, ``figure``,
        ...), ``text``, and ``checks`` (slide 2's statements run: the replicated subtree over
        every tree of the example, the tree's rules one per leaf) with their ``check_table``.
    """
    demo = replicated_subtree_demo(seed=seed)
    x_leaves = [r for r in demo["leaf_rules"] if r.endswith("then x")]
    checks = {"replicated-subtree": replicated_subtree(replicated_tests(x_leaves), seed),
              "one-rule-per-leaf": one_rule_per_leaf(demo["tree"], demo["leaf_rules"], seed)}
    return Bunch(**demo, text=describe_demo(demo, seed), checks=checks, check_table=conformance_table(checks))


def supermarket_section() -> Bunch:
    """PRISM on Weka's ``supermarket``: its rule count beside Weka's, and the last benchmark.

    Returns
    -------
    Bunch
        ``scale`` (:func:`supermarket_scale`), ``speed`` (the last ``make bench`` report, not a
        live timing), ``weka_rules`` (Weka's rule count, ``paper_numbers``), ``comparison``
        (paper / ours / difference) and ``text``.
    """
    scale = supermarket_scale(repeats=1)
    speed = supermarket_speed()
    weka_numbers = paper_table("02_prism_weka_results").set_index(["dataset", "measure"])["value"]
    weka_rules = int(weka_numbers[("supermarket", "rules")])
    comparison = comparison_table(
        pd.Series({"supermarket: rules": weka_numbers[("supermarket", "rules")]}),
        pd.Series({"supermarket: rules": scale["n_rules"]}),
    )
    return Bunch(scale=scale, speed=speed, weka_rules=weka_rules, comparison=comparison,
                 text=describe_supermarket(scale, speed, weka_rules))


@validate_params(
    {"model": [Prism], "X": ["array-like"], "y": ["array-like"], "rules": [pd.DataFrame], "training_correct": _CORRECT,
     "order_training": [pd.Series], "demo": [dict], "seed": SEED, "n_repeats": COUNT, "n_rule_orders": COUNT,
     "n_jobs": N_JOBS, **dict.fromkeys(("walkthrough", "cv", "space", "supermarket", "conformance", "cover_2d"), [Bunch])},
    prefer_skip_nested_validation=False,
)
def claims_section(*, model: Prism, X, y, rules, walkthrough: Bunch, training_correct: int, cv: Bunch,
                   order_training, space: Bunch, demo: Bunch, supermarket: Bunch, conformance: Bunch,
                   cover_2d: Bunch, seed: int, n_repeats: int, n_rule_orders: int, n_jobs: int = 1) -> Bunch:
    """The claims judged: the exact checks, the other seeds' variants, the report and its summary.

    Parameters
    ----------
    model : Prism
        PRISM fitted on the contact lenses.
    X : DataFrame or array-like of shape (n_samples, n_features)
        The contact lenses' attributes.
    y : Series or array-like of shape (n_samples,)
        Their classes.
    rules : DataFrame
        :func:`rule_comparison` of ``model``.
    walkthrough : Bunch
        :func:`walkthrough_section`.
    training_correct : int
        PRISM's correct count on its training set.
    cv : Bunch
        :func:`cross_validation_section`.
    order_training : Series
        :func:`order_invariance` on the training set.
    space : Bunch
        :func:`attribute_space_section`.
    demo : Bunch or dict
        :func:`replicated_subtree_section`.
    supermarket : Bunch
        :func:`supermarket_section`.
    conformance : Bunch
        :func:`conformance_section` (its checks, computed once, are read here).
    cover_2d : Bunch
        :func:`covering_section`.
    seed : int
        The notebook's seed (the variants use the other seeds :func:`seed_variants` lists).
    n_repeats : int
        Repeated cross-validations of each variant.
    n_rule_orders : int
        Random rule orders of each variant.
    n_jobs : int or None, default=1
        Worker processes (the numbers do not depend on it).

    Returns
    -------
    Bunch
        ``checks`` (:func:`exact_checks`), ``variant_seeds``, ``report``
        (:class:`companion.claims.ClaimsReport`; ``report.sentences()`` states the verdicts) and
        ``text`` (the summary of what was judged, and on which seeds).
    """
    checks = exact_checks(
        rules=rules, trace=walkthrough.comparison, training_correct=training_correct, n_train=len(y),
        versus_weka=cv.versus_weka, folds=cv.fold_check, order_training=order_training,
        conflicts_space=space.conflicts, demo=demo, supermarket_rules=supermarket.scale["n_rules"],
        weka_supermarket_rules=supermarket.weka_rules, prism_peers=cv.prism_vs_weka, conformance=conformance.checks,
        cover_2d=cover_2d, seed=seed,
    )
    variant_seeds = seed_variants(seed, n_repeats)
    variants = {f"seed={s}": seed_variant(s, checks, n_repeats=n_repeats, n_rule_orders=n_rule_orders, n_jobs=n_jobs)
                for s in variant_seeds}
    report = claims_report(cv.results, checks, variants, peers=cv.peers)
    return Bunch(checks=checks, variant_seeds=variant_seeds, report=report,
                 text=describe_claims(report, cv.peer_status, variant_seeds))
