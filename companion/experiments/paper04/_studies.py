"""Notebook 04's follow-up studies: the optimistic pruning strength chosen on synthetic data, the
polarity ablation, the sensitivity to ``c_KM`` on the benchmark folds, and the paper's
equivalences and a committee's cells shown on data.
"""

from __future__ import annotations

from functools import partial
from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils._param_validation import StrOptions, validate_params

from companion.baselines import tree_leaf_paths
from companion.evaluation import parallel_map, stratified_folds
from companion.experiments._constraints import SEED
from companion.numerics import StrictInterval
from companion.widc import DecisionCommittee
from companion.experiments.protocol import paper_models
from companion.experiments.paper04._protocol import (
    BENCHMARK_SETS, BenchmarkSet, FoldMemo, grow, growth_key, load_benchmark_set,
)


# --------------------------------------------------------------------------------------------
# Choosing the reconstructed optimistic penalty on synthetic data (not on the benchmark)
# --------------------------------------------------------------------------------------------


def _synthetic_committee_data(n_samples, *, n_variables=12, n_rules=4, noise=0.1, seed=0):
    """Boolean data labelled by a random 2-class decision committee, with label noise.

    Each rule is a random monomial of 2-3 literals with vector (+1 for a random class, -1 for
    the other); ties go to class 0. ``noise`` flips that fraction of labels.

    Returns
    -------
    X : ndarray of shape (n_samples, n_variables), values 0/1
    y : ndarray of int
    """
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n_samples, n_variables)).astype(float)
    vote = np.zeros(n_samples)
    for _ in range(n_rules):
        variables = rng.choice(n_variables, size=rng.integers(2, 4), replace=False)
        signs = rng.integers(0, 2, size=len(variables))
        fires = np.all(X[:, variables] == signs[None, :], axis=1)
        vote += np.where(fires, rng.choice([-1.0, 1.0]), 0.0)
    y = (vote > 0).astype(int)
    flip = rng.random(n_samples) < noise
    return X, np.where(flip, 1 - y, y)


def choose_optimistic_strength(
    strengths=(0.0, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0), *, n_problems=20, seed=0, n_jobs=1
):
    """Mean test error and size of WIDC(o) for each penalty constant on synthetic DC problems.

    Each problem is 300 training and 2000 test examples from :func:`_synthetic_committee_data`
    (10% noise). The recommended constant follows the one-standard-error rule of Breiman et al.
    (1984) for pruning strengths: the largest constant whose mean error is within one standard
    error (over the problems) of the lowest mean error. The lowest mean error is found on
    integer error counts (ties: the smallest constant); "within" includes equality.

    Parameters
    ----------
    strengths : sequence of float
    n_problems : int, default=20
    seed : int, default=0
        Problem ``k`` is drawn with seed ``seed + k``.
    n_jobs : int, default=1
        Problems are independent items of :func:`companion.evaluation.parallel_map` (1: serial);
        the result does not depend on it.

    Returns
    -------
    table : pandas.DataFrame
        Index ``strength``; columns ``error %``, ``se %``, ``rules``, ``literals``.
    recommended : float
    """
    parts = parallel_map(
        partial(_strength_problem, tuple(strengths)), [seed + problem for problem in range(n_problems)], n_jobs=n_jobs
    )
    rows = [row for part in parts for row in part]
    grouped = pd.DataFrame(rows).groupby("strength")
    table = grouped[["error", "rules", "literals"]].mean().rename(columns={"error": "error %"})
    # Every problem has the same test size, so the mean error is the total error count over all
    # test examples: one division of integers, the same float for the same count (exact ties).
    wrong = grouped["wrong"].sum()
    table["error %"] = 100 * wrong / grouped["n_test"].sum()
    table.insert(1, "se %", grouped["error"].std(ddof=1) / np.sqrt(n_problems))
    best = wrong.idxmin()  # least integer error count; ties: the smallest strength
    # One-SE threshold: a float (the standard error has a square root); error rates with equal
    # counts are equal floats, so ties with the best are within.
    within = table.index[table["error %"] <= table.loc[best, "error %"] + table.loc[best, "se %"]]
    return table, float(max(within))


@paper_models
def _strength_problem(strengths, problem_seed):
    """Rows of :func:`choose_optimistic_strength` for the synthetic problem drawn with ``problem_seed``."""
    rows = []
    X, y = _synthetic_committee_data(2300, seed=problem_seed)
    grown = DecisionCommittee(pruning="none", fallback=None, categorical_features=np.arange(X.shape[1])).fit(X[:300], y[:300])
    # with_pruning("optimistic", ...) for each strength, as one sweep (with_prunings).
    models = grown.with_prunings(X[:300], y[:300], [("optimistic", dict(optimistic_strength=s)) for s in strengths])
    for strength, model in zip(strengths, models):
        wrong = int(np.count_nonzero(model.predict(X[300:]) != y[300:]))
        rows.append(dict(strength=strength, error=100 * wrong / len(y[300:]), rules=model.n_rules_,
                         literals=model.n_literals_, wrong=wrong, n_test=len(y[300:])))
    return rows


@paper_models
def _polarity_fold(item):
    """Rows of :func:`polarity_ablation` for one ``(data set, train, test)`` item."""
    data, train, test = item
    rows = []
    for polarity in ("le", "gt"):
        grown = DecisionCommittee(pruning="none", fallback=None, categorical_features=data.nominal, numeric_literal=polarity)
        grown.fit(data.X[train], data.y[train])
        pruned = grown.with_pruning("pessimistic", data.X[train], data.y[train])
        for learner, model in (("WIDC()", grown), ("WIDC(p)", pruned)):
            error = np.mean(model.predict(data.X[test]) != data.y[test]) * 100
            rows.append(dict(dataset=data.name, learner=learner, polarity=polarity, error=error))
    return rows


def polarity_ablation(names=None, *, n_splits=10, seed=0, max_folds=None, n_jobs=1):
    """WIDC() and WIDC(p) errors with ``numeric_literal="le"`` (our default) and ``"gt"``.

    The first literal of a monomial and its negation always tie on Z, so the convention of which
    side of a numeric cut is the positive literal (ties go to it) can change the committee. Only
    data sets with a numeric attribute are run; same folds as :func:`run`.

    ``n_jobs`` (default 1, serial): every (data set, fold) is an independent item of
    :func:`companion.evaluation.parallel_map`; the result does not depend on it.

    Parameters
    ----------
    names : sequence of str, optional
        Keys of :data:`BENCHMARK_SETS` (default: all).
    n_splits : int, default=10
        Folds.
    seed : int, default=0
        Seed of the fold split (and of the learners).
    max_folds : int, optional
        Only the first folds (the notebook's fast run).
    n_jobs : int, default=1
        Workers of :func:`companion.evaluation.parallel_map`; the result does not depend on it.

    Returns
    -------
    pandas.DataFrame
        Index data set; columns ``(learner, polarity)`` of mean test error (%).
    """
    names = list(BENCHMARK_SETS) if names is None else list(names)
    items = []
    for name in names:
        data = load_benchmark_set(name)
        if data.nominal.all():
            continue
        folds = stratified_folds(data.y, n_splits=n_splits, seed=seed)[:max_folds]
        items += [(data, train, test) for train, test in folds]
    frame = pd.DataFrame([row for part in parallel_map(_polarity_fold, items, n_jobs=n_jobs) for row in part])
    return frame.groupby(["dataset", "learner", "polarity"], sort=False)["error"].mean().unstack(["learner", "polarity"])


# --------------------------------------------------------------------------------------------
# Optimistic pruning: sensitivity to c_KM on the benchmark folds; cells realised vs |LS|
# --------------------------------------------------------------------------------------------

#: Grid of the sensitivity curve (the synthetic selection's grid refined near 0).
SENSITIVITY_STRENGTHS = (0.0, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


@paper_models
def _sensitivity_fold(strengths, item, grown=None, *, with_growth=False):
    """Rows of :func:`optimistic_sensitivity` for one ``(data set, fold, train, test)`` item
    (``grown``: WIDC() grown on this fold, from a :class:`FoldMemo`; ``with_growth``: return
    ``(rows, grown)``)."""
    from companion._partition_boosting import literal_matrix, pattern_codes, satisfaction

    data, fold, train, test = item
    Xtr, ytr, Xte, yte = data.X[train], data.y[train], data.X[test], data.y[test]
    grown = grow(data, train, {}, grown)
    sat = satisfaction(literal_matrix(Xtr, grown.variables_), grown.grown_monomials_)
    base = dict(dataset=data.name, fold=fold, n_train=len(train), grown_rules=len(grown.grown_monomials_),
                grown_cells=int(len(np.unique(pattern_codes(sat)))) if sat.shape[1] else 1)
    rows = []
    # with_pruning("optimistic", ...) for each strength, as one sweep (with_prunings).
    models = grown.with_prunings(Xtr, ytr, [("optimistic", dict(optimistic_strength=s)) for s in strengths])
    for strength, model in zip(strengths, models):
        rows.append(dict(base, strength=strength, errors=int(np.count_nonzero(model.predict(Xte) != yte)),
                         n_test=len(test), rules=model.n_rules_, literals=model.n_literals_,
                         cells=len(model.cell_counts_)))
    return (rows, grown) if with_growth else rows


def _sensitivity_task(strengths, task):
    """:func:`_sensitivity_fold` of ``(item, grown)``: its rows and the grown committee."""
    item, grown = task
    return _sensitivity_fold(strengths, item, grown, with_growth=True)


def optimistic_sensitivity(names=None, strengths=SENSITIVITY_STRENGTHS, *, n_splits=10, seed=0, max_folds=None,
                           n_jobs=1, memo: FoldMemo | None = None):
    """WIDC(o)'s test errors and sizes for each ``c_KM`` on :func:`run`'s folds.

    The committee is grown once per fold and pruned optimistically with each constant (the
    reconstructed Kearns-Mansour penalty, :func:`companion._partition_boosting.prune_optimistic`). Each row also
    records the number of cells (distinct satisfaction patterns) the grown committee realises on
    the training fold, beside ``|LS|`` (paper, "Partition Boosting": at most ``|LS|``, up to
    ``2^t``), and the cells of the pruned committee.

    Parameters
    ----------
    names : sequence of str, optional
        Keys of :data:`BENCHMARK_SETS` (default: all).
    strengths : tuple of float, default=:data:`SENSITIVITY_STRENGTHS`
        The constants ``c_KM``.
    n_splits : int, default=10
        Folds.
    seed : int, default=0
        Seed of the fold split (and of the learners).
    max_folds : int, optional
        Only the first folds (the notebook's fast run).
    n_jobs : int, default=1
        Workers of :func:`companion.evaluation.parallel_map`; the result does not depend on it.
    memo : FoldMemo, optional
        Shared with the other calls given it (:class:`FoldMemo`): a committee grown on one of
        these folds before is pruned, not regrown; the frame is the one a call without a memo gives.

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, fold, strength): ``errors``, ``n_test``, ``rules``, ``literals``,
        ``cells``, ``grown_rules``, ``grown_cells``, ``n_train``.
    """
    strengths = tuple(float(s) for s in strengths)
    if any(s < 0 for s in strengths) or not strengths:
        raise ValueError(f"strengths must be a non-empty sequence of non-negative numbers, got {strengths}")
    names = list(BENCHMARK_SETS) if names is None else list(names)
    items = []
    for name in names:
        data = load_benchmark_set(name)
        folds = stratified_folds(data.y, n_splits=n_splits, seed=seed)[:max_folds]
        items += [(data, fold, train, test) for fold, (train, test) in enumerate(folds)]
    # The committees are grown once per fold, shared with run's WIDC on the same folds (memo).
    memo = FoldMemo(limit=0) if memo is None else memo
    keys = [growth_key(data, train, {}) for data, _, train, _ in items]
    parts = parallel_map(partial(_sensitivity_task, strengths),
                         [(item, memo.grown.get(key)) for item, key in zip(items, keys)], n_jobs=n_jobs)
    for key, (_, grown) in zip(keys, parts):
        memo.remember_growth(key, grown)
    return pd.DataFrame([row for part, _ in parts for row in part])


#: The structures of our optimistic pass that the claims vary beside the main one (default vector
#: recomputed, removal judged on the rule's examples): ``{variant label: (default, scope)}``.
SURROGATE_STRUCTURES = {"frozen default": ("frozen", "rule"), "committee removal": ("recomputed", "committee")}


@paper_models
def _structure_fold(strength, item, grown=None):
    """Rows of :func:`optimistic_structures` for one ``(data set, fold, train, test)`` item, and the grown committee."""
    data, fold, train, test = item
    Xtr, ytr, Xte, yte = data.X[train], data.y[train], data.X[test], data.y[test]
    grown = grow(data, train, {}, grown)
    rows = []
    for label, (default, scope) in SURROGATE_STRUCTURES.items():
        model, = grown.with_prunings(Xtr, ytr, [("optimistic", dict(optimistic_strength=strength))],
                                     optimistic_default=default, optimistic_scope=scope)
        rows.append(dict(dataset=data.name, fold=fold, structure=label, strength=strength,
                         errors=int(np.count_nonzero(model.predict(Xte) != yte)), n_test=len(test),
                         rules=model.n_rules_, literals=model.n_literals_))
    return rows, grown


def optimistic_structures(names=None, strength=0.0, *, n_splits=10, seed=0, max_folds=None, n_jobs=1,
                          memo: FoldMemo | None = None):
    """WIDC(o) under the other structures of our optimistic pass, on :func:`run`'s folds.

    The paper's optimistic pruning (Nock 2002, "Optimistic Pruning") is a single pass that tests
    each rule once; its penalty, and with it how the pass sees the committee, was lost. Ours
    recomputes the default vector for every committee it looks at and judges a removal on the
    rule's own examples; :data:`SURROGATE_STRUCTURES` are the two other structures the claims
    vary: the default vector frozen at the grown committee's during the pass, and a removal
    judged on the whole learning sample
    (:func:`companion._partition_boosting.prune_optimistic_sweep`).

    Parameters
    ----------
    names : sequence of str, optional
        Keys of :data:`BENCHMARK_SETS` (default: all).
    strength : float, default=0.0
        The constant ``c_KM`` (the benchmark's).
    n_splits : int, default=10
        Folds.
    seed : int, default=0
        Seed of the fold split.
    max_folds : int, optional
        Only the first folds (the notebook's fast run).
    n_jobs : int, default=1
        Workers of :func:`companion.evaluation.parallel_map`; the result does not depend on it.
    memo : FoldMemo, optional
        Committees already grown on these folds (:class:`FoldMemo`): pruned, not regrown.

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, fold, structure): ``structure, strength, errors, n_test, rules, literals``.
    """
    if strength < 0:
        raise ValueError(f"strength must be non-negative, got {strength}")
    names = list(BENCHMARK_SETS) if names is None else list(names)
    items = []
    for name in names:
        data = load_benchmark_set(name)
        folds = stratified_folds(data.y, n_splits=n_splits, seed=seed)[:max_folds]
        items += [(data, fold, train, test) for fold, (train, test) in enumerate(folds)]
    memo = FoldMemo(limit=0) if memo is None else memo
    keys = [growth_key(data, train, {}) for data, _, train, _ in items]
    parts = parallel_map(_structure_task, [(float(strength), item, memo.grown.get(key))
                                           for item, key in zip(items, keys)], n_jobs=n_jobs)
    for key, (_, grown) in zip(keys, parts):
        memo.remember_growth(key, grown)
    return pd.DataFrame([row for part, _ in parts for row in part])


def _structure_task(task):
    """:func:`_structure_fold` of ``(strength, item, grown)``."""
    strength, item, grown = task
    return _structure_fold(strength, item, grown)


# --------------------------------------------------------------------------------------------
# The paper's equivalences shown on data, and a committee read through its cells
# --------------------------------------------------------------------------------------------


def _boolean_view(data: BenchmarkSet):
    """0/1 indicators ``[A = a]`` of a nominal benchmark set (missing: every indicator 0)."""
    columns, names = [], []
    for j in range(data.X.shape[1]):
        for code, value in enumerate(data.category_names.get(j, [])):
            columns.append(data.X[:, j] == code)
            names.append(f"{data.feature_names[j]} = {value}")
    return np.column_stack(columns).astype(np.int64), names


@paper_models
@validate_params(
    {"name": [StrOptions(set(BENCHMARK_SETS))], "max_leaf_nodes": [StrictInterval(Integral, 2, None, closed="left")],
     "seed": SEED},
    prefer_skip_nested_validation=False,
)
def z_equivalences(name="votes", *, max_leaf_nodes=8, seed=0) -> pd.DataFrame:
    """The two partition facts of the paper's "Partition Boosting" section, on a real data set.

    1. A decision tree's leaves and the monomials of its leaf paths induce the same partition, so
       Z (eq. (1)) over the leaves equals Z over the satisfaction patterns of the monomials.
    2. A decision list partitions the sample by its first firing rule (plus the default); the
       same monomials read as a committee partition it by satisfaction pattern, which refines the
       list's partition, so Z is not larger (a refinement never increases eq. (1)).

    The tree is scikit-learn's CART on the 0/1 indicators ``[A = a]`` of the (nominal) data set;
    the monomials of item 2 are those WIDC() grows on the whole data set, in creation order.

    Parameters
    ----------
    name : str, default="votes"
        Key of :data:`BENCHMARK_SETS` (nominal).
    max_leaf_nodes : int, default=8
        Size of the tree.
    seed : int, default=0
        The tree's ``random_state``.

    Returns
    -------
    pandas.DataFrame
        Rows: partition; columns ``blocks`` and ``Z``.
    """
    from companion.widc import z_partition
    from companion._partition_boosting import literal_matrix, pattern_codes, satisfaction

    data = load_benchmark_set(name)
    if not data.nominal.all():
        raise ValueError(f"The 'name' parameter of z_equivalences must be a nominal data set; "
                         f"{name!r} has numeric attributes")
    B, _ = _boolean_view(data)
    _, y = np.unique(data.y, return_inverse=True)
    c = int(y.max()) + 1
    tree = DecisionTreeClassifier(max_leaf_nodes=max_leaf_nodes, random_state=seed).fit(B, y)
    # Literal 2v is [indicator v = 1], 2v + 1 its negation (the left branch, indicator 0).
    monomials = [
        tuple(2 * v + (op == "<=") for v, op, _ in leaf.conditions) for leaf in tree_leaf_paths(tree)
    ]
    literals = np.empty((len(y), 2 * B.shape[1]), dtype=bool)
    literals[:, 0::2], literals[:, 1::2] = B == 1, B == 0
    sat = satisfaction(literals, monomials)
    weights = np.full(len(y), 1.0 / len(y))
    grown = DecisionCommittee(pruning="none", fallback=None, categorical_features=data.nominal).fit(data.X, data.y)
    sat_dc = satisfaction(literal_matrix(data.X, grown.variables_), grown.grown_monomials_)
    first = np.where(sat_dc.any(axis=1), sat_dc.argmax(axis=1), sat_dc.shape[1])
    t = sat_dc.shape[1]
    rows = {
        f"tree leaves ({len(monomials)}-leaf CART)": tree.apply(B),
        "satisfaction patterns of its leaf monomials": pattern_codes(sat),
        f"decision list: WIDC()'s {t} monomials in order (first firing rule, or default)": first,
        f"decision committee: the same {t} monomials (satisfaction patterns)": pattern_codes(sat_dc),
    }
    return pd.DataFrame({"blocks": [len(np.unique(v)) for v in rows.values()],
                         "Z": [z_partition(v, y, weights, c) for v in rows.values()]}, index=list(rows))


def committee_cells(model: DecisionCommittee, X, y) -> pd.DataFrame:
    """A fitted committee read through its cells on ``(X, y)``.

    A cell is a satisfaction pattern (the set of rules an example fires); every example of a cell
    gets the same summed vector ``S`` and so the same class. One row per non-empty cell: the
    rules fired (1-based, in ``to_text`` order), the examples and their classes, ``S``, the
    predicted class and the errors.

    Parameters
    ----------
    model : DecisionCommittee
        Fitted.
    X : array-like
        Examples.
    y : array-like
        Their labels.

    Returns
    -------
    pandas.DataFrame
    """
    from companion._partition_boosting import literal_matrix, satisfaction

    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    sat = satisfaction(literal_matrix(X, model.variables_), model.monomials_)
    predictions = model.predict(X)
    keys = [tuple(np.flatnonzero(row) + 1) for row in sat]
    rows = []
    for key in sorted(set(keys), key=lambda k: (len(k), k)):
        members = np.array([k == key for k in keys])
        S = model.vectors_[list(np.array(key) - 1)].sum(axis=0) if key else np.zeros(len(model.classes_), int)
        counts = {str(c): int(np.count_nonzero(y[members] == c)) for c in model.classes_}
        predicted = predictions[members][0]
        rows.append({"rules fired": ", ".join(map(str, key)) or "(none)", "examples": int(members.sum()),
                     **{f"n {c}": v for c, v in counts.items()},
                     "S": tuple(int(s) for s in S), "predicted": predicted,
                     "errors": int(np.count_nonzero(y[members] != predicted))})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------
# What a vendored data set is: distinct inputs, conflicting labels, test rows copied in training
# --------------------------------------------------------------------------------------------


@validate_params({"name": [StrOptions(set(BENCHMARK_SETS))], "n_splits": [StrictInterval(Integral, 2, None,
                                                                                        closed="left")],
                  "seed": SEED}, prefer_skip_nested_validation=False)
def label_noise_facts(name="xd6", *, n_splits=10, seed=0) -> dict:
    """Whether a data set carries label noise, read off the data: repeated inputs and their labels.

    xd6 is Buntine & Niblett's (1992) Boolean concept "with 10 % class noise"; a sample with
    label noise has inputs that occur with two labels. On the benchmark's folds, also the share of
    a test fold's examples whose input occurs in its training fold (a learner can then score them
    by memory).

    Parameters
    ----------
    name : str, default="xd6"
        A key of :data:`BENCHMARK_SETS`.
    n_splits : int, default=10
        Folds.
    seed : int, default=0
        Seed of the folds.

    Returns
    -------
    dict
        ``examples``, ``attributes``, ``distinct`` (distinct inputs), ``conflicting`` (inputs seen
        with more than one label) and ``copies`` (mean share of a test fold's examples whose input
        is in the training fold).
    """
    data = load_benchmark_set(name)
    X, y = np.asarray(data.X), np.asarray(data.y)
    _, inverse = np.unique(X, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    labels = {}
    for key, label in zip(inverse.tolist(), y.tolist()):
        labels.setdefault(key, set()).add(label)
    shares = []
    for train, test in stratified_folds(y, n_splits=n_splits, seed=seed):
        seen = set(inverse[train].tolist())
        shares.append(float(np.mean([key in seen for key in inverse[test].tolist()])))
    return {"examples": len(y), "attributes": X.shape[1], "distinct": len(labels),
            "conflicting": sum(len(v) > 1 for v in labels.values()), "copies": float(np.mean(shares))}


# --------------------------------------------------------------------------------------------
# WIDC(o) fold by fold: where the reconstructed optimistic pass collapses, and why
# --------------------------------------------------------------------------------------------


@paper_models
def _optimistic_trace_fold(strength, item, grown=None):
    """One fold of :func:`optimistic_trace`: the optimistic pass replayed rule by rule, with the
    training errors of the whole committee beside the local ones the test reads."""
    from companion._partition_boosting import default_and_predictions, literal_matrix, rule_votes, satisfaction

    data, fold, train, test = item
    Xtr, ytr, Xte, yte = data.X[train], data.y[train], data.X[test], data.y[test]
    grown = grow(data, train, {}, grown)
    model = grown.with_pruning("optimistic", Xtr, ytr, optimistic_strength=strength)
    codes = np.searchsorted(grown.classes_, ytr)
    literals = literal_matrix(Xtr, grown.variables_)
    sat = satisfaction(literals, grown.grown_monomials_)
    weights = np.full(len(codes), 1.0 / len(codes))
    contributions = sat[:, :, None] * rule_votes(grown.grown_vectors_)[None, :, :]
    scores = contributions.sum(axis=1)
    lengths, n = grown._grown_lengths(), len(codes)
    hidden, worst, kept = 0, 0, []
    for i in range(len(grown.grown_vectors_)):
        local = sat[:, i]
        m_t = int(local.sum())
        if m_t == 0:
            continue
        current = default_and_predictions(scores[None], codes, weights, grown.prior_)[1][0]
        without_scores = scores - contributions[:, i, :]
        without = default_and_predictions(without_scores[None], codes, weights, grown.prior_)[1][0]
        before, after = int((current[local] != codes[local]).sum()), int((without[local] != codes[local]).sum())
        penalty = strength * np.sqrt(((lengths[i] + 1) * np.log(max(literals.shape[1], 2))
                                      + np.log(n / model.optimistic_delta)) / m_t)
        if after - before <= penalty * m_t:
            rise = int((without != codes).sum()) - int((current != codes).sum())
            if after <= before and rise > 0:  # the rule's own examples lose nothing, the committee does
                hidden += 1
                worst = max(worst, rise)
            scores = without_scores
        else:
            kept.append(i)
    train_predictions = model.predict(Xtr)
    return dict(dataset=data.name, fold=fold, n_train=len(train), grown_rules=len(grown.grown_monomials_),
                kept_rules=int(model.n_rules_), replayed_rules=len(kept),
                one_class=bool(len(np.unique(train_predictions)) == 1),
                train_errors=int(np.count_nonzero(train_predictions != ytr)),
                hidden_removals=hidden, worst_rise=worst,
                errors=int(np.count_nonzero(model.predict(Xte) != yte)), n_test=len(test))


def optimistic_trace(names=None, strength=0.0, *, n_splits=10, seed=0, max_folds=None, memo: FoldMemo | None = None):
    """WIDC(o) on :func:`run`'s folds, its single pass replayed with the whole committee's errors.

    The optimistic test (paper, "Optimistic Pruning"; our reconstruction,
    :func:`companion._partition_boosting.prune_optimistic`) compares the errors *on the examples
    that satisfy the rule*. Removing a rule also changes the default vector (recomputed from the
    ambiguous training examples, paper, "Overview of WIDC"), which re-labels ambiguous examples
    outside the rule: the local test does not see them. For each fold this counts the removals
    whose local errors did not rise while the committee's training errors did, and whether the
    pruned committee predicts a single class on the training fold.

    Parameters
    ----------
    names : sequence of str, optional
        Keys of :data:`BENCHMARK_SETS` (default: all).
    strength : float, default=0.0
        ``c_KM`` of the penalty (the benchmark's).
    n_splits : int, default=10
        Folds.
    seed : int, default=0
        Seed of the folds.
    max_folds : int, optional
        Only the first folds.
    memo : FoldMemo, optional
        The committees already grown on these folds (:class:`FoldMemo`).

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, fold): ``grown_rules``, ``kept_rules`` (and ``replayed_rules``, the
        replay's count, equal to it), ``one_class``, ``train_errors``, ``hidden_removals``,
        ``worst_rise`` (the largest rise of the training errors at such a removal, in examples),
        ``errors`` and ``n_test`` (WIDC(o)'s test errors).
    """
    names = list(BENCHMARK_SETS) if names is None else list(names)
    memo = FoldMemo(limit=0) if memo is None else memo
    rows = []
    for name in names:
        data = load_benchmark_set(name)
        for fold, (train, test) in enumerate(stratified_folds(data.y, n_splits=n_splits, seed=seed)[:max_folds]):
            rows.append(_optimistic_trace_fold(float(strength), (data, fold, train, test),
                                               memo.grown.get(growth_key(data, train, {}))))
    return pd.DataFrame(rows)
