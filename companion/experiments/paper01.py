"""Table 1 of *The Decision List Machine* (Sokolova et al., NIPS 2002): protocol and table builders.

The paper compares an RBF SVM, the SCM with balls and the DLM with balls (L2 metric, no scaling)
on seven UCI data sets by the **total number of test errors over the ten folds** of one 10-fold
cross-validation, the same folds for every machine, each machine's parameters being those "that
gave the smallest 10-fold cross-validation error" (spec §8.1). This module computes, for every
fold, the test errors of every grid point, and derives from them

(a) the paper's protocol: the grid point with the smallest total test error (selection on the
    test folds, optimistic by construction), over several fold seeds;
(b) honest nested cross-validation: on each outer fold, the grid point chosen by an inner
    stratified CV on the outer training set;
(c) the bound-selected DLM: on each outer fold, the grid point (type, ``p_p``, ``p_n``, ``s``)
    whose Theorem 1/2 bound on the training set is smallest.

The DLM is fitted with the compression-set constraint (Section 4), so that the bounds of (c) apply
to every machine of the grid; the paper reports no significant effect of the constraint.

Cost: one distance matrix per data set; per fold one argsort shared by every DLM/SCM grid point
(:class:`~companion.decision_list.SortedDistances`); one fit per (type, penalties) gives every
stopping point ``s`` (prefix property); the SVM uses precomputed kernels from the same distances.
The folds of :func:`cross_validate_grid` and the outer folds of :func:`nested_protocol` are
independent items of :func:`companion.evaluation.parallel_map` (their ``n_jobs``; default 1,
serial); :func:`run_table1` hands its ``n_jobs`` to both.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd
from scipy.spatial.distance import cdist
from sklearn.svm import SVC

from companion import datasets
from companion.bounds.decision_list import dlm_bound_path
from companion.decision_list import (
    BallSetCoveringMachine,
    DecisionListMachine,
    SortedDistances,
    canonical_order,
)
from companion.evaluation import parallel_map, stratified_folds
from companion.paper_numbers import paper_table

__all__ = [
    "DATASETS",
    "Grid",
    "encode_features",
    "load_table1_dataset",
    "GridResults",
    "cross_validate_grid",
    "paper_protocol",
    "nested_protocol",
    "bound_selected_dlm",
    "paper_table1",
    "comparison_frame",
    "glass_binarisation_evidence",
    "run_table1",
    "bound_check_table",
    "errors_table",
    "parameters_table",
    "protocols_table",
    "examples_table",
    "plot_dlm_balls",
    "plot_errors_vs_s",
    "plot_sparsity",
    "sparsity_frame",
    "figure_errors_vs_s",
    "figure_sparsity",
    "toy_dlm",
    "figure_dlm_balls",
]

#: Loader, its preprocessing options and the class taken as positive, per data set of Table 1.
DATASETS = {
    "breastw": (datasets.load_breastw, dict(drop_incomplete=True), "malignant"),
    "votes": (datasets.load_votes, dict(drop_incomplete=True), "republican"),
    "pima": (datasets.load_pima, {}, "pos"),
    "haberman": (datasets.load_haberman, dict(drop_contradictory=True), 2),
    "bupa": (datasets.load_bupa, {}, 2),
    "glass": (datasets.load_glass, dict(positive_class=(1, 3)), 1),
    "credit": (datasets.load_crx, dict(drop_incomplete=True), "+"),
}
#: Display names used by the paper.
DISPLAY = {
    "breastw": "BreastW",
    "votes": "Votes",
    "pima": "Pima",
    "haberman": "Haberman",
    "bupa": "Bupa",
    "glass": "Glass",
    "credit": "Credit",
}


def encode_features(frame: pd.DataFrame) -> np.ndarray:
    """Numeric matrix for distance computations, with no scaling (the paper: "no preprocessing").

    Numeric columns are kept as they are. A nominal column with two values becomes one 0/1
    column (the value that sorts first is 0; Votes: ``n`` = 0, ``y`` = 1); a nominal column with
    more values becomes one 0/1 column per value (one-hot), so that every pair of distinct values
    is at the same distance. The paper does not say how it coded nominal attributes.
    """
    columns = []
    for name in frame.columns:
        column = frame[name]
        if pd.api.types.is_numeric_dtype(column) and not isinstance(column.dtype, pd.CategoricalDtype):
            columns.append(column.to_numpy(dtype=float)[:, None])
            continue
        values = sorted(pd.unique(column.dropna()), key=str)
        if len(values) <= 2:
            columns.append((column == values[-1]).to_numpy(dtype=float)[:, None])
        else:
            columns.append(np.column_stack([(column == v).to_numpy(dtype=float) for v in values]))
    return np.hstack(columns)


def load_table1_dataset(name: str, *, positive_class=None) -> tuple[np.ndarray, np.ndarray]:
    """``(X, y)`` of one Table 1 data set: ``X`` encoded by :func:`encode_features`, ``y`` 0/1.

    Parameters
    ----------
    name : str
        A key of :data:`DATASETS`.
    positive_class : optional
        Glass only: the original class(es) taken as positive (default: classes 1 and 3, the
        float-processed windows of UCI's ``glass.names``; see :func:`glass_binarisation_evidence`).
    """
    if name not in DATASETS:
        raise ValueError(f"unknown Table 1 data set {name!r}; expected one of {sorted(DATASETS)}")
    loader, options, positive = DATASETS[name]
    options = dict(options)
    if positive_class is not None:
        if name != "glass":
            raise ValueError("positive_class can only be chosen for 'glass' (the others are binary)")
        options["positive_class"] = positive_class
    X, y = loader(**options)
    return encode_features(X), (y.to_numpy() == positive).astype(int)


@dataclass(frozen=True)
class Grid:
    """Parameter grids of the three machines (the paper's lists were not published).

    SVM ``gamma`` values are multiples of ``1 / median(d²)`` over the data set's pairs (an
    unsupervised scale, needed because the features are not scaled).
    """

    dlm_types: tuple = ("simple", "complex")
    dlm_penalties: tuple = (0.5, 1.0, 2.0, 4.0)
    dlm_s_max: int = 12
    scm_types: tuple = ("conjunction", "disjunction")
    scm_penalties: tuple = (0.5, 1.0, 1.5, 3.0)
    scm_s_max: int = 10
    svm_gamma_factors: tuple = (0.1, 1.0, 10.0, 100.0)
    svm_Cs: tuple = (0.1, 1.0, 10.0, 100.0)


@dataclass
class GridResults:
    """Test errors (and sizes, bounds) of every grid point on every fold of one CV.

    Arrays end with a fold axis. DLM arrays have shape (types, p_p, p_n, s, folds), SCM arrays
    (types, p, s, folds), SVM arrays (gamma, C, folds). ``*_balls`` is the number of balls of the
    machine fitted with that stopping point. ``dlm_*`` is BuildDLM as in Figure 1;
    ``dlmc_*`` (None unless requested) the DLM fitted with the compression-set constraint,
    ``dlmc_bound`` its bounds on the training fold, shape (2, types, p_p, p_n, s, folds): index 0 the
    published Theorem 1 (simple) / 2 (complex), index 1 our corrected bound
    (:func:`companion.bounds.decision_list.corrected_bound`); ``dlmc_train_errors`` its training errors.
    """

    grid: Grid
    dlm_errors: np.ndarray
    dlm_balls: np.ndarray
    scm_errors: np.ndarray
    scm_balls: np.ndarray
    svm_errors: np.ndarray
    svm_support: np.ndarray
    dlmc_errors: np.ndarray | None
    dlmc_balls: np.ndarray | None
    dlmc_bound: np.ndarray | None
    dlmc_train_errors: np.ndarray | None
    svm_gammas: np.ndarray
    n_test: np.ndarray


def _pad_path(values, length):
    """Extend a per-stopping-point sequence to ``length`` by repeating its last entry."""
    values = np.asarray(values)
    if len(values) >= length:
        return values[:length]
    return np.concatenate([values, np.repeat(values[-1:], length - len(values), axis=0)], axis=0)


def _dlm_grid(sd, X_train, y_train, X_test, y_test, grid: Grid, constraint: bool):
    g = grid
    n_pen = len(g.dlm_penalties)
    errors = np.zeros((len(g.dlm_types), n_pen, n_pen, g.dlm_s_max))
    balls = np.zeros_like(errors)
    bounds = np.full((2,) + errors.shape, np.nan)  # published, corrected
    train_errors = np.zeros_like(errors)
    for a, ball_type in enumerate(g.dlm_types):
        for b, p_p in enumerate(g.dlm_penalties):
            for c, p_n in enumerate(g.dlm_penalties):
                dlm = DecisionListMachine(
                    p_p=p_p, p_n=p_n, s=g.dlm_s_max, ball_type=ball_type, compression_constraint=constraint
                ).fit(X_train, y_train, sorted_distances=sd)
                if dlm.n_balls_ == 0:
                    errors[a, b, c] = (y_test != dlm.default_).sum()
                    continue
                errors[a, b, c] = _pad_path((dlm.predict_path(X_test) != y_test).sum(axis=1), g.dlm_s_max)
                used = dlm.path_["fitted_n_balls"].to_numpy()
                balls[a, b, c] = _pad_path(used, g.dlm_s_max)
                k = (dlm.path_["k_p"] + dlm.path_["k_n"]).to_numpy()
                train_errors[a, b, c] = _pad_path(k[used - 1], g.dlm_s_max)
                if constraint:
                    for v, variant in enumerate(("published", "corrected")):
                        bound = dlm_bound_path(dlm, variant=variant)[used - 1]
                        bounds[v, a, b, c] = _pad_path(bound, g.dlm_s_max)
    return errors, balls, bounds, train_errors


def _fold_grid(D, X, y, train, test, grid: Grid, gammas, constrained: bool):
    """Every grid point on one (train, test) split; see :class:`GridResults`."""
    g = grid
    X_train, y_train, X_test, y_test = X[train], y[train], X[test], y[test]
    # The ball machines learn in the canonical order of their examples (row-order invariance);
    # handing them the fold already in that order spares every fit a re-sort of the distances.
    canonical = train[canonical_order(X_train, y_train)]
    sd = SortedDistances(D[np.ix_(canonical, canonical)])
    X_ball, y_ball = X[canonical], y[canonical]
    dlm_errors, dlm_balls, _, _ = _dlm_grid(sd, X_ball, y_ball, X_test, y_test, g, constraint=False)
    if constrained:
        dlmc = _dlm_grid(sd, X_ball, y_ball, X_test, y_test, g, constraint=True)
    else:
        dlmc = (None, None, None, None)
    scm_errors = np.zeros((len(g.scm_types), len(g.scm_penalties), g.scm_s_max))
    scm_balls = np.zeros_like(scm_errors)
    for a, model_type in enumerate(g.scm_types):
        for b, p in enumerate(g.scm_penalties):
            scm = BallSetCoveringMachine(p=p, s=g.scm_s_max, model_type=model_type).fit(
                X_ball, y_ball, sorted_distances=sd
            )
            if scm.n_balls_ == 0:
                scm_errors[a, b] = (y_test != scm.default_).sum()
                continue
            scm_errors[a, b] = _pad_path((scm.predict_path(X_test) != y_test).sum(axis=1), g.scm_s_max)
            scm_balls[a, b] = _pad_path(np.arange(1, scm.n_balls_ + 1), g.scm_s_max)
    svm_errors = np.zeros((len(gammas), len(g.svm_Cs)))
    svm_support = np.zeros_like(svm_errors)
    squared = D**2
    for a, gamma in enumerate(gammas):
        kernel = np.exp(-gamma * squared)
        k_train, k_test = kernel[np.ix_(train, train)], kernel[np.ix_(test, train)]
        for b, C in enumerate(g.svm_Cs):
            svm = SVC(kernel="precomputed", C=C).fit(k_train, y_train)
            svm_errors[a, b] = (svm.predict(k_test) != y_test).sum()
            svm_support[a, b] = svm.support_.size
    return (dlm_errors, dlm_balls, scm_errors, scm_balls, svm_errors, svm_support, *dlmc)


def _fold_grid_item(D, X, y, grid, gammas, constrained, fold):
    train, test = fold
    return _fold_grid(D, X, y, train, test, grid, gammas, constrained)


def svm_gammas(D, grid: Grid) -> np.ndarray:
    """The SVM ``gamma`` grid: ``grid.svm_gamma_factors / median(d²)`` over distinct pairs.

    ``D`` is SciPy's ``cdist`` (each distance a direct sum over the features, no matrix product
    through BLAS), and the median an exact order statistic, so ``gamma`` is the same on every
    machine, BLAS kernel and thread count.
    """
    upper = D[np.triu_indices_from(D, k=1)]
    scale = np.median(upper[upper > 0] ** 2)
    return np.asarray(grid.svm_gamma_factors, dtype=float) / scale


def cross_validate_grid(X, y, folds, grid: Grid = Grid(), *, D=None, constrained=True, n_jobs=1) -> GridResults:
    """Test errors of every grid point of the three machines on each of ``folds``.

    Parameters
    ----------
    X : ndarray of shape (m, n)
    y : ndarray of shape (m,), values 0/1
    folds : list of (train_index, test_index)
    grid : Grid
    D : ndarray of shape (m, m), optional
        L2 distances of ``X`` (computed when omitted; pass it to share it across calls).
    constrained : bool, default=True
        Also fit the DLM grid with the compression-set constraint and compute its bounds (for
        protocol (c)).
    n_jobs : int, default=1
        The folds are independent items of :func:`companion.evaluation.parallel_map` (1: serial;
        -1: all local cores; under ``joblib.parallel_backend("dask")``: a Dask cluster); the
        result does not depend on it.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    if D is None:
        D = cdist(X, X)
    gammas = svm_gammas(D, grid)
    per_fold = parallel_map(
        partial(_fold_grid_item, D, X, y, grid, gammas, constrained), list(folds), n_jobs=n_jobs
    )
    stacked = [None if parts[0] is None else np.stack(parts, axis=-1) for parts in zip(*per_fold)]
    return GridResults(grid, *stacked, svm_gammas=gammas, n_test=np.array([len(t) for _, t in folds]))


# --------------------------------------------------------------------------------------------
# Selection rules
# --------------------------------------------------------------------------------------------


#: Bounds within this relative distance of the smallest count as tied in protocol (c).
BOUND_TIE_RTOL = 1e-9


def _counts(values) -> np.ndarray:
    """Integer-valued float arrays (error counts, numbers of balls or support vectors) as int64."""
    values = np.asarray(values)
    counts = np.rint(values).astype(np.int64)
    if not np.array_equal(counts, values):
        raise ValueError("expected integer counts")
    return counts


def _argmin_prefer_small(errors, sizes, *, rtol=0.0):
    """Index of the smallest error; among ties the smallest size, then the first grid point.

    ``sizes`` are integer counts (numbers of balls or support vectors, summed over the folds,
    not averaged) compared exactly. ``errors`` are integer counts compared exactly when
    ``rtol == 0``; with ``rtol > 0`` (float bounds) every error ``<= min + rtol * |min|`` counts
    as tied with the minimum. The first grid point is the first in C order of the grid's axes.
    """
    flat_sizes = _counts(sizes).ravel()
    if rtol:
        flat_errors = np.asarray(errors, dtype=float).ravel()
        best = flat_errors.min()
        candidates = np.flatnonzero(flat_errors <= best + rtol * abs(best))
    else:
        flat_errors = _counts(errors).ravel()
        candidates = np.flatnonzero(flat_errors == flat_errors.min())
    best = candidates[np.argmin(flat_sizes[candidates])]  # argmin: the first of equal sizes
    return np.unravel_index(best, np.shape(errors))


def _describe(machine, index, grid: Grid, gammas=None):
    if machine in ("dlm", "dlmc"):
        t, b, c, s = index
        return {
            "T": "s" if grid.dlm_types[t] == "simple" else "c",
            "p_p": grid.dlm_penalties[b],
            "p_n": grid.dlm_penalties[c],
            "s": int(s + 1),
        }
    if machine == "scm":
        t, b, s = index
        return {"T": grid.scm_types[t][0], "p": grid.scm_penalties[b], "s": int(s + 1)}
    a, b = index
    return {"gamma": float(gammas[a]), "C": grid.svm_Cs[b]}


def paper_protocol(results: GridResults) -> dict:
    """(a) Best grid point by total test errors over the folds (the paper's selection).

    Ties (equal total errors) go to the smaller machine (total number of support vectors or balls
    over the folds, an integer), then to the first grid point (:func:`_argmin_prefer_small`).

    Returns
    -------
    dict
        Per machine (``"svm"``, ``"scm"``, ``"dlm"`` and, when fitted, ``"dlmc"``: the DLM with
        the compression-set constraint): ``errors`` (total over the folds), ``size`` (mean number
        of support vectors / balls over the folds) and the parameters.
    """
    r = results
    out = {}
    machines = [
        ("svm", r.svm_errors, r.svm_support),
        ("scm", r.scm_errors, r.scm_balls),
        ("dlm", r.dlm_errors, r.dlm_balls),
    ]
    if r.dlmc_errors is not None:
        machines.append(("dlmc", r.dlmc_errors, r.dlmc_balls))
    for machine, errors, sizes in machines:
        total = errors.sum(axis=-1)
        total_size = sizes.sum(axis=-1)  # integer: ties in size are exact (the mean is reported)
        index = _argmin_prefer_small(total, total_size)
        out[machine] = {
            "errors": int(total[index]),
            "size": float(total_size[index] / sizes.shape[-1]),
            **_describe(machine, index, r.grid, r.svm_gammas),
        }
    return out


def nested_protocol(
    X, y, folds, grid: Grid = Grid(), *, outer: GridResults, D=None, inner_splits=3, seed=0, n_jobs=1
) -> dict:
    """(b) Nested CV: on each outer fold an inner stratified CV of the outer training set picks the grid point.

    The outer test errors of the chosen points are read from ``outer`` (the same fits as (a)).
    The inner selection breaks ties as :func:`paper_protocol` does.
    The outer folds are independent items of :func:`companion.evaluation.parallel_map`
    (``n_jobs``; the inner splits are seeded per fold, so the result does not depend on it).

    Returns
    -------
    dict
        Per machine: total outer test errors and mean size of the chosen machines.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    if D is None:
        D = cdist(X, X)
    inner_runs = parallel_map(
        partial(_inner_grid, X, y, D, grid, inner_splits, seed), list(enumerate(folds)), n_jobs=n_jobs
    )
    totals = {"svm": 0, "scm": 0, "dlm": 0}
    sizes = {"svm": [], "scm": [], "dlm": []}
    for f, inner in enumerate(inner_runs):
        for machine, inner_errors, inner_sizes, outer_errors, outer_sizes in (
            ("svm", inner.svm_errors, inner.svm_support, outer.svm_errors, outer.svm_support),
            ("scm", inner.scm_errors, inner.scm_balls, outer.scm_errors, outer.scm_balls),
            ("dlm", inner.dlm_errors, inner.dlm_balls, outer.dlm_errors, outer.dlm_balls),
        ):
            index = _argmin_prefer_small(inner_errors.sum(axis=-1), inner_sizes.sum(axis=-1))
            totals[machine] += int(outer_errors[index + (f,)])
            sizes[machine].append(float(outer_sizes[index + (f,)]))
    return {machine: {"errors": totals[machine], "size": float(np.mean(sizes[machine]))} for machine in totals}


def _inner_grid(X, y, D, grid, inner_splits, seed, numbered_fold) -> GridResults:
    """The inner cross-validation of one outer fold (its training set), seeded by the fold number."""
    f, (train, _test) = numbered_fold
    inner_folds = stratified_folds(y[train], n_splits=inner_splits, seed=seed + 1000 + f)
    return cross_validate_grid(X[train], y[train], inner_folds, grid, D=D[np.ix_(train, train)], constrained=False)


def bound_selected_dlm(results: GridResults, variant: str = "published") -> dict:
    """(c) On each fold, the constrained-DLM grid point of smallest bound on its training set.

    The bounds are floats (sums of log-binomials through ``expm1``), whose last bits may differ
    between machines (vectorised ``log``/``exp`` depend on the CPU's instructions and the libm):
    bounds within a relative :data:`BOUND_TIE_RTOL` (1e-9) of the smallest count as tied, far
    above that rounding (~1e-15) and far below the differences between bounds of different counts.
    Ties go to the machine with fewer balls, then to the first grid point (type, ``p_p``,
    ``p_n``, ``s`` in grid order). Grid points whose bound is NaN (a prefix that misclassifies
    its compression set) are never chosen unless every bound is.

    Parameters
    ----------
    results : GridResults
        Run with ``constrained=True``.
    variant : {"published", "corrected"}
        Theorem 1/2 as published, or our corrected bound.

    Returns
    -------
    dict
        ``errors`` (total test errors of the chosen machines), ``size`` (mean number of balls) and
        ``chosen`` (one row per fold: parameters, bound, training and test error rates).
    """
    if results.dlmc_bound is None:
        raise ValueError("the grid was run without the constrained DLM (constrained=False); no bounds")
    if variant not in ("published", "corrected"):
        raise ValueError(f"variant must be 'published' or 'corrected', got {variant!r}")
    bounds = results.dlmc_bound[0 if variant == "published" else 1]
    n_folds = results.dlmc_errors.shape[-1]
    n_train = results.n_test.sum() - results.n_test
    errors = sizes = 0.0
    chosen = []
    for f in range(n_folds):
        filled = np.where(np.isfinite(bounds[..., f]), bounds[..., f], np.inf)
        index = _argmin_prefer_small(filled, results.dlmc_balls[..., f], rtol=BOUND_TIE_RTOL)
        errors += results.dlmc_errors[index + (f,)]
        sizes += results.dlmc_balls[index + (f,)]
        chosen.append(
            {
                **_describe("dlm", index, results.grid),
                "bound": float(filled[index]),
                "train_error": float(results.dlmc_train_errors[index + (f,)] / n_train[f]),
                "test_error": float(results.dlmc_errors[index + (f,)] / results.n_test[f]),
            }
        )
    return {"errors": int(errors), "size": sizes / n_folds, "chosen": pd.DataFrame(chosen)}


def bound_check_table(run) -> pd.DataFrame:
    """How the two bounds behave on the machines they select (main seed, all folds).

    For each data set and bound variant: the mean bound, the mean training and test error rates of
    the selected machines, and on how many folds the bound is below the selected machine's training
    error rate (impossible for a valid bound to do often) or below its test error rate.
    """
    rows = []
    for name in run["c"]:
        for variant, selected in (("published", run["c"][name]), ("corrected", run["c_corrected"][name])):
            chosen = selected["chosen"]
            rows.append(
                {
                    "dataset": DISPLAY[name],
                    "bound": variant,
                    "mean_bound": chosen["bound"].mean(),
                    "mean_train_error": chosen["train_error"].mean(),
                    "mean_test_error": chosen["test_error"].mean(),
                    "folds_bound_below_train": int((chosen["bound"] < chosen["train_error"]).sum()),
                    "folds_bound_below_test": int((chosen["bound"] < chosen["test_error"]).sum()),
                    "total_test_errors": selected["errors"],
                    "mean_balls": selected["size"],
                }
            )
    return pd.DataFrame(rows).set_index(["dataset", "bound"])


# --------------------------------------------------------------------------------------------
# Paper numbers and comparison tables
# --------------------------------------------------------------------------------------------


def paper_table1() -> pd.DataFrame:
    """Table 1 of the paper in wide form (one row per data set), from ``paper_numbers/01_table1.csv``."""
    long = paper_table("01_table1")
    wide = long.pivot(index="dataset", columns=["machine", "quantity"], values="value")
    wide.columns = [f"{machine}_{quantity}" for machine, quantity in wide.columns]
    wide = wide.reindex(list(DATASETS))
    for column in wide.columns:
        converted = pd.to_numeric(wide[column], errors="coerce")
        if converted.notna().all():
            wide[column] = converted
    return wide


def comparison_frame(ours: dict, what: str = "errors") -> pd.DataFrame:
    """Paper vs ours for one quantity of each machine; ``ours[dataset][machine][what]``.

    Rows: (data set, machine). Columns ``paper``, ``ours``, ``difference``.
    """
    from companion.evaluation import comparison_table

    paper = paper_table1()
    rows_paper, rows_ours = {}, {}
    for dataset, machines in ours.items():
        for machine, values in machines.items():
            key = (DISPLAY[dataset], machine.upper())
            rows_paper[key] = paper.loc[dataset, f"{machine}_{what}"]
            rows_ours[key] = values[what]
    table = comparison_table(pd.Series(rows_paper), pd.Series(rows_ours))
    table.index = pd.MultiIndex.from_tuples(table.index, names=["dataset", "machine"])
    return table


def glass_binarisation_evidence(candidates, grid: Grid = Grid(), seed=0, n_jobs=1) -> pd.DataFrame:
    """Paper-protocol errors of the three machines for each candidate Glass binarisation.

    Parameters
    ----------
    candidates : dict
        ``{label: positive_class}`` (a class or a tuple of classes of the original Glass data).
    grid : Grid
    seed : int
        Fold seed.
    n_jobs : int, default=1
        Passed to :func:`cross_validate_grid` (the folds run in parallel; same result).
    """
    paper = paper_table1().loc["glass"]
    rows = []
    for label, positive in candidates.items():
        X, y = load_table1_dataset("glass", positive_class=positive)
        folds = stratified_folds(y, n_splits=10, seed=seed)
        best = paper_protocol(cross_validate_grid(X, y, folds, grid, constrained=False, n_jobs=n_jobs))
        row = {"split": label, "positives": int(y.sum())}
        for machine in ("svm", "scm", "dlm"):
            row[f"{machine}_errors"] = best[machine]["errors"]
        row["distance_to_paper"] = sum(abs(row[f"{m}_errors"] - paper[f"{m}_errors"]) for m in ("svm", "scm", "dlm"))
        rows.append(row)
    return pd.DataFrame(rows).set_index("split")


# --------------------------------------------------------------------------------------------
# The whole protocol
# --------------------------------------------------------------------------------------------


def run_table1(names=None, *, seeds=(0, 1, 2), grid: Grid = Grid(), nested=True, inner_splits=3, n_jobs=1) -> dict:
    """Run protocols (a), (b) and (c) on the Table 1 data sets.

    Parameters
    ----------
    names : list of str, optional
        Data sets (default: all seven, in the paper's order).
    seeds : sequence of int
        Fold seeds of :func:`companion.evaluation.stratified_folds`. The first is the main run
        (every protocol, constrained DLM and bounds); the others repeat protocol (a) to show how
        much the paper's measure moves with the folds.
    grid : Grid
    nested : bool, default=True
        Run protocol (b) (inner ``inner_splits``-fold CV on each outer training set).
    n_jobs : int, default=1
        The folds of every cross-validation (and the outer folds of the nested one) are
        independent items of :func:`companion.evaluation.parallel_map` (1: serial; -1: all local
        cores; under ``joblib.parallel_backend("dask")``: a Dask cluster); the data sets run one
        after the other. Every split is seeded from ``seeds``, so the result does not depend on
        ``n_jobs``.

    Returns
    -------
    dict
        ``examples`` {name: (m, n_features, n_positive)}, ``main`` {name: GridResults of the main
        seed}, ``a`` {name: {seed: paper_protocol dict}}, ``b`` {name: nested dict},
        ``c`` / ``c_corrected`` {name: bound_selected_dlm dict with the published / corrected
        bound}, ``seeds``.
    """
    names = list(DATASETS) if names is None else list(names)
    run = {"examples": {}, "main": {}, "a": {}, "b": {}, "c": {}, "c_corrected": {}, "seeds": list(seeds)}
    for name in names:
        part = _table1_dataset(
            name, seeds=tuple(seeds), grid=grid, nested=nested, inner_splits=inner_splits, n_jobs=n_jobs
        )
        for key, value in part.items():
            run[key][name] = value
    return run


def _table1_dataset(name, *, seeds, grid, nested, inner_splits, n_jobs=1) -> dict:
    """Every protocol of :func:`run_table1` on one data set: ``{key of run: value for name}``."""
    part = {"a": {}}
    X, y = load_table1_dataset(name)
    D = cdist(X, X)
    part["examples"] = (X.shape[0], X.shape[1], int(y.sum()))
    for k, seed in enumerate(seeds):
        folds = stratified_folds(y, n_splits=10, seed=seed)
        results = cross_validate_grid(X, y, folds, grid, D=D, constrained=(k == 0), n_jobs=n_jobs)
        part["a"][seed] = paper_protocol(results)
        if k == 0:
            part["main"] = results
            part["c"] = bound_selected_dlm(results, "published")
            part["c_corrected"] = bound_selected_dlm(results, "corrected")
            if nested:
                part["b"] = nested_protocol(
                    X, y, folds, grid, outer=results, D=D, inner_splits=inner_splits, seed=seed, n_jobs=n_jobs
                )
    return part


def errors_table(run) -> pd.DataFrame:
    """Protocol (a): paper vs ours (main seed) total test errors, with the range over the seeds.

    Rows (data set, machine); columns ``paper``, ``ours``, ``difference``, ``seed_min``,
    ``seed_max`` and ``paper_in_range`` (the paper's number lies within our range over the seeds).
    """
    main_seed = run["seeds"][0]
    ours = {name: {m: run["a"][name][main_seed][m] for m in ("svm", "scm", "dlm")} for name in run["a"]}
    table = comparison_frame(ours, "errors")
    spread = {
        (DISPLAY[name], machine.upper()): [run["a"][name][seed][machine]["errors"] for seed in run["seeds"]]
        for name in run["a"]
        for machine in ("svm", "scm", "dlm")
    }
    table["seed_min"] = [min(spread[key]) for key in table.index]
    table["seed_max"] = [max(spread[key]) for key in table.index]
    table["paper_in_range"] = (table["paper"] >= table["seed_min"]) & (table["paper"] <= table["seed_max"])
    return table


def parameters_table(run) -> pd.DataFrame:
    """Protocol (a), main seed: the chosen parameters and sizes beside the paper's.

    One row per data set; ``paper_*`` columns from Table 1, ``ours_*`` columns from our grid.
    """
    paper = paper_table1()
    main_seed = run["seeds"][0]
    rows = []
    for name in run["a"]:
        best = run["a"][name][main_seed]
        p = paper.loc[name]
        rows.append(
            {
                "dataset": DISPLAY[name],
                "paper_svm_size": p["svm_size"],
                "ours_svm_size": round(best["svm"]["size"], 1),
                "paper_scm": f"{p['scm_T']} p={p['scm_p']:g} s={p['scm_s']:g}",
                "ours_scm": f"{best['scm']['T']} p={best['scm']['p']:g} s={best['scm']['s']}",
                "ours_scm_size": round(best["scm"]["size"], 1),
                "paper_dlm": f"{p['dlm_T']} p_n={p['dlm_p_n']:g} p_p={p['dlm_p_p']:g} s={p['dlm_s']:g}",
                "ours_dlm": (
                    f"{best['dlm']['T']} p_n={best['dlm']['p_n']:g} p_p={best['dlm']['p_p']:g} s={best['dlm']['s']}"
                ),
                "ours_dlm_size": round(best["dlm"]["size"], 1),
            }
        )
    return pd.DataFrame(rows).set_index("dataset")


def protocols_table(run) -> pd.DataFrame:
    """Total test errors of each machine under the three protocols (main seed).

    Columns: the paper's DLM errors, then ours: (a) SVM/SCM/DLM, (a) DLM with the
    compression-set constraint, (b) nested SVM/SCM/DLM, (c) bound-selected constrained DLM (the
    published Theorem 1/2, then our corrected bound) and their mean numbers of balls.
    """
    paper = paper_table1()
    main_seed = run["seeds"][0]
    rows = []
    for name in run["a"]:
        a = run["a"][name][main_seed]
        row = {"dataset": DISPLAY[name], "paper_dlm": paper.loc[name, "dlm_errors"]}
        for machine in ("svm", "scm", "dlm"):
            row[f"a_{machine}"] = a[machine]["errors"]
        row["a_dlm_constrained"] = a["dlmc"]["errors"] if "dlmc" in a else np.nan
        if name in run["b"]:
            for machine in ("svm", "scm", "dlm"):
                row[f"b_{machine}"] = run["b"][name][machine]["errors"]
        row["c_dlm_bound"] = run["c"][name]["errors"]
        row["c_dlm_balls"] = round(run["c"][name]["size"], 1)
        row["c_dlm_corrected"] = run["c_corrected"][name]["errors"]
        row["c_corrected_balls"] = round(run["c_corrected"][name]["size"], 1)
        rows.append(row)
    return pd.DataFrame(rows).set_index("dataset")


def examples_table(run) -> pd.DataFrame:
    """Number of examples per data set: the paper's and ours."""
    from companion.evaluation import comparison_table

    paper = paper_table1()
    ours = pd.Series({DISPLAY[n]: run["examples"][n][0] for n in run["examples"]})
    theirs = pd.Series({DISPLAY[n]: paper.loc[n, "data_examples"] for n in run["examples"]})
    table = comparison_table(theirs, ours)
    table["features"] = [run["examples"][n][1] for n in run["examples"]]
    table["positives"] = [run["examples"][n][2] for n in run["examples"]]
    return table


# --------------------------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------------------------

_TYPE_COLOURS = {"Pi": "tab:red", "Po": "tab:orange", "Ni": "tab:blue", "No": "tab:cyan"}


def plot_dlm_balls(ax, dlm: DecisionListMachine, X, y, *, resolution=300):
    """Draw a fitted 2-D DLM: its decision regions, the data, and each ball (numbered in order)."""
    import matplotlib.patches as mpatches

    X = np.asarray(X, dtype=float)
    span = X.max(axis=0) - X.min(axis=0)
    lo, hi = X.min(axis=0) - 0.15 * span, X.max(axis=0) + 0.15 * span
    xx, yy = np.meshgrid(np.linspace(lo[0], hi[0], resolution), np.linspace(lo[1], hi[1], resolution))
    grid_points = np.column_stack([xx.ravel(), yy.ravel()])
    positive = dlm.classes_[-1]
    zz = (dlm.predict(grid_points) == positive).reshape(xx.shape)
    ax.contourf(xx, yy, zz, levels=[-0.5, 0.5, 1.5], colors=["#dde8f5", "#f7dcdc"], alpha=0.9)
    is_positive = np.asarray(y) == positive
    ax.scatter(*X[~is_positive].T, s=12, c="tab:blue", marker="o", label=f"class {dlm.classes_[0]}")
    ax.scatter(*X[is_positive].T, s=14, c="tab:red", marker="^", label=f"class {positive}")
    for number, ball in enumerate(dlm.balls_, start=1):
        centre = X[ball.centre_index]
        colour = _TYPE_COLOURS[ball.kind]
        ax.add_patch(
            mpatches.Circle(centre, ball.radius, fill=False, lw=2, ls="-" if ball.inside else "--", ec=colour)
        )
        ax.annotate(f"{number}:{ball.kind}", centre, fontsize=9, weight="bold", color=colour)
        ax.scatter(*X[ball.border_index], s=80, facecolors="none", edgecolors="k")
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_aspect("equal")
    handles = [mpatches.Patch(color=c, label=k) for k, c in _TYPE_COLOURS.items()]
    ax.legend(handles=handles + ax.get_legend_handles_labels()[0], loc="lower right", fontsize=8)
    return ax


def plot_errors_vs_s(ax, results: GridResults, title=""):
    """Total CV errors against the stopping point ``s`` (best penalties for each ``s``)."""
    dlm_total = results.dlm_errors.sum(axis=-1)
    scm_total = results.scm_errors.sum(axis=-1)
    for t, ball_type in enumerate(results.grid.dlm_types):
        curve = dlm_total[t].reshape(-1, dlm_total.shape[-1]).min(axis=0)
        ax.plot(np.arange(1, len(curve) + 1), curve, marker="o", ms=3, label=f"DLM {ball_type}")
    for t, model_type in enumerate(results.grid.scm_types):
        curve = scm_total[t].min(axis=0)
        ax.plot(np.arange(1, len(curve) + 1), curve, marker="s", ms=3, ls="--", label=f"SCM {model_type[:4]}.")
    ax.axhline(results.svm_errors.sum(axis=-1).min(), color="k", lw=1, ls=":", label="SVM (best)")
    ax.set_xlabel("stopping point s")
    ax.set_ylabel("total test errors (10 folds)")
    ax.set_title(title)
    return ax


def plot_sparsity(ax, table: pd.DataFrame):
    """Number of balls (DLM, SCM) against number of support vectors, paper and ours, log-log.

    ``table`` has columns ``svm_size``, ``scm_size``, ``dlm_size`` and a ``source`` column.
    """
    markers = {"paper": "o", "ours": "x"}
    for source, part in table.groupby("source"):
        for machine, colour in (("dlm", "tab:red"), ("scm", "tab:green")):
            ax.scatter(
                part["svm_size"], part[f"{machine}_size"], marker=markers.get(source, "."), c=colour,
                label=f"{machine.upper()} ({source})",
            )
    lim = [1, max(table["svm_size"].max(), 10) * 1.5]
    ax.plot(lim, lim, color="grey", lw=0.8, ls=":")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("SVM: mean number of support vectors")
    ax.set_ylabel("number of balls")
    ax.legend(fontsize=8)
    return ax


def sparsity_frame(run) -> pd.DataFrame:
    """Sizes of the selected machines (protocol (a), main seed), paper and ours, long form.

    Columns ``dataset``, ``source`` (paper/ours), ``svm_size`` (mean support vectors),
    ``scm_size`` and ``dlm_size`` (balls).
    """
    paper = paper_table1()
    main_seed = run["seeds"][0]
    rows = []
    for name in run["a"]:
        best = run["a"][name][main_seed]
        rows.append(
            {
                "dataset": DISPLAY[name],
                "source": "paper",
                "svm_size": float(paper.loc[name, "svm_size"]),
                "scm_size": float(paper.loc[name, "scm_s"]),
                "dlm_size": float(paper.loc[name, "dlm_s"]),
            }
        )
        rows.append(
            {
                "dataset": DISPLAY[name],
                "source": "ours",
                "svm_size": best["svm"]["size"],
                "scm_size": best["scm"]["size"],
                "dlm_size": best["dlm"]["size"],
            }
        )
    return pd.DataFrame(rows)


def figure_errors_vs_s(run):
    """One panel per data set: total test errors (main seed) against the stopping point ``s``."""
    import matplotlib.pyplot as plt

    names = list(run["main"])
    n_cols = min(4, len(names))
    n_rows = int(np.ceil(len(names) / n_cols))
    fig, axes = plt.subplots(n_rows, n_cols, figsize=(3.6 * n_cols, 3.0 * n_rows), squeeze=False)
    for k, (ax, name) in enumerate(zip(axes.ravel(), names)):
        plot_errors_vs_s(ax, run["main"][name], title=DISPLAY[name])
        if k % n_cols:
            ax.set_ylabel("")  # each panel keeps its own scale
    for ax in axes.ravel()[len(names):]:
        ax.set_visible(False)
    axes.ravel()[0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def figure_sparsity(run):
    """Number of balls against number of support vectors (paper and ours), log-log."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 4))
    plot_sparsity(ax, sparsity_frame(run))
    fig.tight_layout()
    return fig


def toy_dlm(seed=0, n_samples=150):
    """A 2-D problem (two noisy moons) and a simple and a complex DLM (constrained) fitted on it.

    Returns
    -------
    X, y, dict
        The data and ``{"simple": dlm, "complex": dlm}`` (``p_p = p_n = 2``, ``s = 8``).
    """
    from sklearn.datasets import make_moons

    X, y = make_moons(n_samples=n_samples, noise=0.25, random_state=seed)
    machines = {
        ball_type: DecisionListMachine(
            p_p=2.0, p_n=2.0, s=8, ball_type=ball_type, compression_constraint=True
        ).fit(X, y)
        for ball_type in ("simple", "complex")
    }
    return X, y, machines


def figure_dlm_balls(X, y, machines: dict):
    """The learnt balls of 2-D DLMs, one panel each (see :func:`plot_dlm_balls`)."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(machines), figsize=(6 * len(machines), 5), squeeze=False)
    for ax, (label, dlm) in zip(axes.ravel(), machines.items()):
        plot_dlm_balls(ax, dlm, X, y)
        ax.set_title(f"{label} DLM: {dlm.n_balls_} balls (label = position:type)")
    fig.tight_layout()
    return fig
