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

from companion.datasets import load_peers
from companion.evaluation import comparison_table
from companion.experiments._constraints import COUNT, N_JOBS, SEED
from companion.numerics import StrictInterval
from companion.paper_numbers import paper_table
from companion.prism import Prism
from companion.experiments.paper02._protocol import (
    RULE_ORDERS, Config, rule_order_variants, run, seed_variants, supermarket_scale, supermarket_speed, weka_cv_folds,
    weka_peer_results_if_run, weka_rule_lines,
)
from companion.experiments.paper02._tables import (
    attribute_space, covered_subsets, cv_conflicts, first_rule_trace, fold_list_comparison, order_invariance,
    peer_repeated_accuracy, prism_peer_comparison, repeated_table, rule_coverage, rule_trace, space_conflicts,
    WEKA_RECORDED, stand_in_table, trace_comparison, weka_comparison, weka_folds_table,
)
from companion.experiments.paper02._figures import covering_2d_example, replicated_subtree_demo
from companion.experiments.paper02._claims import (
    TIE_RULES, claims_data, claims_report, conformance_checks, exact_checks, modular_condition, registry_rows,
    replicated_tests, seed_variant, supermarket_check, supermarket_rules_check, tie_variant_checks, tree_class_checks, tree_to_rules,
)
from companion.experiments.paper02._cv_observations import variant_sentences, variant_table
from companion.experiments.paper02._math_checks import (
    SUBTREE_SIZES, TREE_CLASSES, conformance_table, one_rule_per_leaf, sklearn_tree_text, tree_census,
)
from companion.experiments.paper02._prose import (
    describe_bench, describe_claims, describe_conflicts_cv, describe_coverage, describe_covering_2d,
    describe_default_vs_zeror, describe_demo, describe_glance, describe_stand_ins, describe_order, describe_second_rule, describe_space,
    describe_subsets, describe_supermarket, describe_supermarket_lists, describe_trace,
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


@validate_params({"model": [Prism], "X": [pd.DataFrame], "y": [pd.Series], "rng": [None, np.random.Generator]},
                 prefer_skip_nested_validation=False)
def conformance_section(model: Prism, X, y, rng=None) -> Bunch:
    """The slides' description of PRISM (slides 4, 6, 15, 16) run on our code, computed once.

    Parameters
    ----------
    model : Prism
        Fitted with ``keep_trace=True`` and ``pruning=None`` on ``X, y``.
    X : DataFrame
        The contact lenses' attributes.
    y : Series
        Their classes.
    rng : numpy.random.Generator or None, default=None
        The notebook's generator (None: one seeded with 0).

    Returns
    -------
    Bunch
        ``checks`` (:func:`conformance_checks`, ``{name: (ok, detail)}``, the worked example's
        ``first-test``, ``refine`` and ``exact-after-third`` among them), ``table`` (the
        algorithm-description checks: slide, statement, what was run, and the claims row that
        judges each, its kind and verdict word, from the registry) and ``contradicting``
        (``no-more-attributes``' contradicting copy and PRISM on it).
    """
    checks, copy = conformance_checks(model, X, y, np.random.default_rng(0) if rng is None else rng)
    shown = ("covering", "ties", "perfect", "no-more-attributes", "coverage-reduces",
             "coverage-reduces-strictly", "separate")
    return Bunch(checks=checks, table=conformance_table({name: checks[name] for name in shown}, registry_rows()),
                 contradicting=copy)


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
        ``stand_ins`` and ``stand_ins_text`` (how far each stand-in is from the Weka learner it
        stands in for), ``fold_check`` (the folds row by row against the committed list),
        ``prism_vs_weka`` (fold by fold against Weka's Prism, or None), ``repeated`` and
        ``repeated_weka`` (the repeated splits; None without the peers), ``default_text`` (PRISM
        with a default class against ZeroR), ``conflicts`` and ``conflicts_text`` (held-out
        instances no rule, or rules of several classes, cover).
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
    stand_ins, repeated = stand_in_table(cv_weka), repeated_table(results)
    return Bunch(
        results=results, peers=peers, peer_status=peer_status, weka_folds=weka_folds, cv_weka=cv_weka,
        versus_weka=weka_comparison(cv_weka, training_correct, peers=peers), stand_ins=stand_ins,
        stand_ins_text=describe_stand_ins(stand_ins, repeated, repeated_weka),
        fold_check=fold_list_comparison(y, config),
        prism_vs_weka=prism_peer_comparison(results, peers) if peers is not None else None,
        repeated=repeated, repeated_weka=repeated_weka,
        default_text=describe_default_vs_zeror(results), conflicts=conflicts, conflicts_text=describe_conflicts_cv(conflicts, cv_weka),
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
    """Slides 2-3: a tree repeats a subtree that PRISM's rules state once; every tree of the example.

    Parameters
    ----------
    seed : int, default=0
        The tree's ``random_state``.

    Returns
    -------
    Bunch
        The keys of :func:`replicated_subtree_demo` (``x_rules``, ``leaf_rules``, ``figure``,
        ...), ``text``, ``cart`` (the CART tree's seed and one-line form), ``trees`` (every
        decision tree of (a and b) or (c and d) in the notebook's class, :func:`tree_census`,
        with a column marking the CART tree), ``checks`` (slide 2's statements run: the three
        readings of "identical subtrees" over every tree of the example, the tree's rules one per
        leaf, and its two other statements on trees against rules) and their ``check_table`` (with
        the claims row judging each, its kind and verdict word, from the registry).
    """
    demo = replicated_subtree_demo(seed=seed)
    cart = {"seed": seed, "tree": sklearn_tree_text(demo["tree"], list("abcd"))}
    trees = tree_census(tests="relevant")
    trees[f"CART (seed {seed})"] = trees["tree"] == cart["tree"]
    checks = {**tree_class_checks("relevant", cart),
              "one-rule-per-leaf": one_rule_per_leaf(demo["tree"], demo["leaf_rules"], seed),
              "tree-to-rules": tree_to_rules(demo["leaf_rules"], seed)}
    identical = bool(trees.loc[trees[f"CART (seed {seed})"], "two identical subtrees"].any())
    return Bunch(**demo, text=describe_demo(demo, seed, identical), cart=cart, trees=trees, checks=checks,
                 check_table=conformance_table(checks, registry_rows()))


def supermarket_section() -> Bunch:
    """PRISM on Weka's ``supermarket``: its rule count beside Weka's, and the last benchmark.

    Returns
    -------
    Bunch
        ``scale`` (:func:`supermarket_scale`, the missing value declared after ``t``, as in Weka's
        recorded run), ``first`` (the same with the missing value declared before ``t``, the
        variant ``encoding=missing-first``), ``speed`` (the last ``make bench`` report, not a
        live timing), ``weka_rules`` and ``weka_first`` (Weka's rule counts under the two
        encodings, ``paper_numbers``), ``comparison`` (Weka 3.6.14's recorded counts / ours /
        difference), ``lists`` (``{"last" | "first": (ok, detail)}``: our rule lists against
        Weka's stored ones, rule by rule, :func:`supermarket_rules_check`) and ``lists_text``,
        ``text`` (what is checked here) and
        ``bench_text`` (what is read from the last ``make bench`` report, not checked here).
    """
    from companion.datasets import load_supermarket

    data = load_supermarket()
    scale = supermarket_scale(repeats=1, data=data)
    first = supermarket_scale(repeats=1, missing="first", data=data)
    speed = supermarket_speed()
    weka_numbers = paper_table("02_prism_weka_results").set_index(["dataset", "measure"])["value"]
    weka_rules = int(weka_numbers[("supermarket", "rules")])
    weka_first = int(weka_numbers[("supermarket", "rules (missing declared first)")])
    rows = ["supermarket: rules", "supermarket, missing declared first: rules"]
    comparison = comparison_table(
        pd.Series(dict(zip(rows, [weka_rules, weka_first]))),
        pd.Series(dict(zip(rows, [scale["n_rules"], first["n_rules"]]))),
    ).rename(columns={"paper": WEKA_RECORDED})
    stored = load_peers("prism", table="supermarket_rules")
    lists = {missing: supermarket_rules_check(weka_rule_lines(fit["model"]),
                                              stored.loc[stored["encoding"] == missing, "text"].to_numpy(), missing)
             for missing, fit in (("last", scale), ("first", first))}
    return Bunch(scale=scale, first=first, speed=speed, weka_rules=weka_rules, weka_first=weka_first,
                 comparison=comparison, lists=lists, lists_text=describe_supermarket_lists(lists),
                 text=describe_supermarket(scale, speed, weka_rules, first, weka_first),
                 bench_text=describe_bench(speed))


@validate_params(
    {"model": [Prism], "X": ["array-like"], "y": ["array-like"], "rules": [pd.DataFrame], "training_correct": _CORRECT,
     "order_training": [pd.Series], "demo": [dict], "seed": SEED, "n_repeats": COUNT, "n_rule_orders": COUNT,
     "rng": [None, np.random.Generator], "n_jobs": N_JOBS,
     **dict.fromkeys(("walkthrough", "cv", "space", "supermarket", "conformance", "cover_2d"), [Bunch])},
    prefer_skip_nested_validation=False,
)
def claims_section(*, model: Prism, X, y, rules, walkthrough: Bunch, training_correct: int, cv: Bunch,
                   order_training, space: Bunch, demo: Bunch, supermarket: Bunch, conformance: Bunch,
                   cover_2d: Bunch, seed: int, n_repeats: int, n_rule_orders: int, rng=None,
                   n_jobs: int = 1) -> Bunch:
    """The claims judged: the exact checks, the variants, the report and its summary.

    The variants are the free choices the slides leave open: the notebook's seed (``seed=…``:
    other splits, trees, points and rule orders), the rule for exact ties of the walk-through
    (``tie=…``, :data:`TIE_RULES`), the class of trees enumerated for slide 2
    (``trees=…``, :data:`TREE_CLASSES`) and the smallest repeated subtree counted
    (``subtrees=…``, :data:`SUBTREE_SIZES`), the order conflicting rules are read in on held-out
    instances (``order=…``, :data:`RULE_ORDERS`) and where ``supermarket``'s missing value is
    declared (``encoding=missing-first``, when ``supermarket`` has ``first``).

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
    rng : numpy.random.Generator or None, default=None
        The notebook's generator (the random tie priority of ``tie=random``; None: one seeded
        with ``seed``).
    n_jobs : int or None, default=1
        Worker processes (the numbers do not depend on it).

    Returns
    -------
    Bunch
        ``checks`` (:func:`exact_checks`), ``variant_seeds``, ``report``
        (:class:`companion.claims.ClaimsReport`; ``report.sentences()`` states the verdicts),
        ``cv_variants`` (the cross-validation observations under the seed and rule-order variants,
        :func:`variant_table`), ``discussion_values`` (their sentences, for :func:`discussion`),
        ``glance`` (what the summary box does not say, :func:`describe_glance`) and ``text``
        (what was judged, on which variants, and why no honest check applies).
    """
    condition = modular_condition(model, X, y, conformance.contradicting, supermarket.scale["model"])
    checks = exact_checks(
        rules=rules, trace=walkthrough.comparison, first_trace=walkthrough.first_trace, training_correct=training_correct, n_train=len(y),
        versus_weka=cv.versus_weka, folds=cv.fold_check, order_training=order_training,
        conflicts_space=space.conflicts, demo=demo, supermarket_rules=supermarket.scale["n_rules"],
        weka_supermarket_rules=supermarket.weka_rules, prism_peers=cv.prism_vs_weka, conformance=conformance.checks,
        cover_2d=cover_2d, seed=seed, modular_condition=condition, supermarket_list=supermarket.get("lists", {}).get("last"),
    )
    variant_seeds = seed_variants(seed, n_repeats)
    variants = {f"seed={s}": seed_variant(s, checks, n_repeats=n_repeats, n_rule_orders=n_rule_orders, n_jobs=n_jobs,
                                          modular_condition=condition)
                for s in variant_seeds}
    rng = np.random.default_rng(seed) if rng is None else rng
    orders = {}
    for rule in TIE_RULES:
        tie_checks, orders[rule] = tie_variant_checks(X, y, rule, rng)
        variants[f"tie={rule}"] = claims_data(cv.results, {**checks, **tie_checks}, cv.peers)
    cart = {"seed": seed, "tree": demo["cart"]["tree"]} if "cart" in demo else None
    for tests in TREE_CLASSES:
        if tests != "relevant":
            variants[f"trees={tests}"] = claims_data(cv.results, {**checks, **tree_class_checks(tests, cart)}, cv.peers)
    for subtrees in SUBTREE_SIZES:  # the smallest repeated subtree counted as "identical subtrees"
        if subtrees != "any":
            variants[f"subtrees={subtrees}"] = claims_data(
                cv.results, {**checks, **tree_class_checks("relevant", cart, subtrees)}, cv.peers)
    if "first" in supermarket:  # the missing value declared before `t`, Weka re-run on the same encoding
        encoded = {"supermarket": supermarket_check(supermarket.first["n_rules"], supermarket.weka_first, "first")}
        if "lists" in supermarket:
            encoded["supermarket-rules"] = supermarket.lists["first"]
        variants["encoding=missing-first"] = claims_data(cv.results, {**checks, **encoded}, cv.peers)
    config = Config(seed=seed, n_repeats=n_repeats)
    for order, reordered in rule_order_variants(config, tuple(RULE_ORDERS)).items():
        # the rules read in another order (one fit per fold for every order): only conflicting instances can change
        kept = cv.results[~cv.results["method"].isin(set(reordered["method"]))]
        variants[f"order={order}"] = claims_data(pd.concat([kept, reordered], ignore_index=True), checks, cv.peers)
    report = claims_report(cv.results, checks, variants, peers=cv.peers)
    splits = {name: data.get("splits", []) for name, data in variants.items() if name.startswith("seed=")}
    cv_variants = variant_table({"main": claims_data(cv.results, checks, cv.peers), **variants})
    return Bunch(checks=checks, variant_seeds=variant_seeds, report=report, cv_variants=cv_variants,
                 discussion_values={claim: {"variants": text} for claim, text in variant_sentences(cv_variants).items()},
                 glance=describe_glance(report, demo["trees"]) if "trees" in demo else None,
                 text=describe_claims(report, cv.peer_status, splits, orders))
