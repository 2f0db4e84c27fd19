"""Table 1 of *The Decision List Machine* (Sokolova et al., NIPS 2002): protocol and table builders.

The paper (Section 5, Table 1) compares an RBF SVM, the SCM with balls and the DLM with balls (L2
metric, no scaling) on seven UCI data sets by the **total number of test errors over the ten
folds** of one 10-fold cross-validation, the same folds for every machine, each machine's
parameters being those "that gave the smallest 10-fold cross-validation error". This module
computes, for every fold, the test errors of every grid point, and derives from them

(a) the paper's protocol: the grid point with the smallest total test error (selection on the
    test folds, optimistic by construction), over several fold seeds;
(b) honest nested cross-validation: on each outer fold, the grid point chosen by an inner
    stratified CV on the outer training set;
(c) the bound-selected DLM: on each outer fold, the grid point (type, ``p_p``, ``p_n``, ``s``)
    whose Theorem 1/2 bound on the training set is smallest.

The DLM of (c) is fitted with the compression-set constraint (Section 4), so that the bounds apply
to every machine of the grid; the paper reports no significant effect of the constraint. The
follow-up experiments of notebook 01 (fine grids, tie rules, list lengths, the SVM's kernel
width, coverage of the bounds, other metrics, the claims) are in
:mod:`companion.experiments.paper01_followups`.

Cost: one distance matrix per data set; per fold one argsort shared by every DLM/SCM grid point
(:class:`~companion.decision_list.SortedDistances`); one fit per (type, penalties) gives every
stopping point ``s`` (prefix property); the SVM uses precomputed kernels from the same distances.
The folds of :func:`cross_validate_grid` and the outer folds of :func:`nested_protocol` are
independent items of :func:`companion.evaluation.parallel_map` (their ``n_jobs``; default 1,
serial); :func:`run` hands its ``n_jobs`` to both.

The protocol has the shape of :mod:`companion.experiments.protocol`: :class:`Config` (``Config()``
the notebook's full run, ``Config.fast()`` its smoke run), ``run(config, n_jobs=1)`` returning the
tidy frame (one row per data set x method x fold seed x fold), and builders over that frame
(:func:`errors_table`, :func:`parameters_table`, :func:`protocols_table`,
:func:`bound_check_table`, :func:`sparsity_frame`, :func:`figure_errors_vs_s`,
:func:`figure_sparsity`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd
from scipy.spatial.distance import cdist
from sklearn.svm import SVC

import companion.datasets as datasets
from companion.bounds.decision_list import dlm_bound_path
from companion.datasets import RegisteredDataset
from companion.decision_list import BallSetCoveringMachine, DecisionListMachine, SortedDistances, canonical_order
from companion.evaluation import parallel_map, stratified_folds, trusted_inputs
import companion.experiments._paper01_grid as grid_lists
from companion.experiments.protocol import TIDY_KEYS, check_tidy, paper_models
from companion.interpretable import staged_predictions
from companion.paper_numbers import paper_table
from companion.preprocessing import FrameEncoder

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
    "glass_binarisation_evidence",
    "Config",
    "FAST_GRID",
    "MACHINE_NAMES",
    "run",
    "total_errors",
    "bound_check_table",
    "errors_table",
    "parameters_table",
    "protocols_table",
    "examples_table",
    "dataset_counts",
    "sparsity_frame",
    "figure_errors_vs_s",
    "figure_sparsity",
    "toy_dlm",
    "figure_dlm_balls",
    "COMPARABLE",
    "PROTOCOL_COLUMNS",
    "protocol_legend",
    "readable_dlm",
]


#: The data sets of Table 1: loader, preprocessing options, note and the class taken as positive.
DATASETS = {
    "breastw": RegisteredDataset(datasets.load_breastw, dict(drop_incomplete=True),
                                 "incomplete examples removed", "malignant"),
    "votes": RegisteredDataset(datasets.load_votes, dict(drop_incomplete=True),
                               "incomplete examples removed: 232 examples, the paper has 52", "republican"),
    "pima": RegisteredDataset(datasets.load_pima, {}, "", "pos"),
    "haberman": RegisteredDataset(datasets.load_haberman, dict(drop_contradictory=True),
                                  "contradictory examples removed", 2),
    "bupa": RegisteredDataset(datasets.load_bupa, {}, "", 2),
    "glass": RegisteredDataset(datasets.load_glass, dict(positive_class=(1, 3)),
                               "classes 1 and 3 (float-processed windows) against the rest", 1),
    "credit": RegisteredDataset(datasets.load_crx, dict(drop_incomplete=True), "incomplete examples removed", "+"),
}
#: The data sets of Table 1 whose rows are comparable (Votes has 232 examples, not 52).
COMPARABLE = ("breastw", "pima", "haberman", "bupa", "glass", "credit")
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


def encode_features(frame: pd.DataFrame, nominal: str = "onehot") -> np.ndarray:
    """Numeric matrix for distance computations, with no scaling (the paper: "no preprocessing").

    Numeric columns are kept as they are. A nominal column with two values becomes one 0/1
    column (the value that sorts first is 0; Votes: ``n`` = 0, ``y`` = 1); a nominal column with
    more values becomes one 0/1 column per value (``nominal="onehot"``, the default), so that every
    pair of distinct values is at the same distance, or one column of integer codes 0, 1, ... in
    the values' sorted order (``nominal="ordinal"``, an experiment of notebook 01). The paper does
    not say how it coded nominal attributes.

    Parameters
    ----------
    frame : pandas.DataFrame
        The attributes of a Table 1 data set.
    nominal : {"onehot", "ordinal"}, default="onehot"
        Coding of many-valued nominal attributes.

    Returns
    -------
    ndarray of shape (n_samples, n_encoded)
        The encoded matrix.
    """
    return _encode(frame, nominal)[0]


def _encode(frame, nominal):
    if nominal not in ("onehot", "ordinal"):
        raise ValueError(f"nominal must be 'onehot' or 'ordinal', got {nominal!r}")
    encoder = FrameEncoder(
        encoding=nominal, categories="present", order="text", binary="indicator", missing_indicator="zero"
    ).fit(frame)
    return encoder.transform(frame), encoder.get_feature_names_out().tolist()


def load_table1_dataset(name: str, *, positive_class=None, nominal: str = "onehot", return_names: bool = False):
    """``(X, y)`` of one Table 1 data set: ``X`` encoded by :func:`encode_features`, ``y`` 0/1.

    Parameters
    ----------
    name : str
        A key of :data:`DATASETS`.
    positive_class : optional
        Glass only: the original class(es) taken as positive (default: classes 1 and 3, the
        float-processed windows of UCI's ``glass.names``; see :func:`glass_binarisation_evidence`).
    nominal : {"onehot", "ordinal"}, default="onehot"
        Coding of many-valued nominal attributes (Credit's A4-A7, A13), see :func:`encode_features`.
    return_names : bool, default=False
        Also return the encoded columns' names (``(X, y, names)``).

    Returns
    -------
    X : ndarray of shape (n_samples, n_encoded)
    y : ndarray of shape (n_samples,)
        1 for the positive class of :data:`DATASETS`, else 0.
    names : list of str
        Only with ``return_names``.
    """
    if name not in DATASETS:
        raise ValueError(f"unknown Table 1 data set {name!r}; expected one of {sorted(DATASETS)}")
    entry = DATASETS[name]
    overrides = {}
    if positive_class is not None:
        if name != "glass":
            raise ValueError("positive_class can only be chosen for 'glass' (the others are binary)")
        overrides["positive_class"] = positive_class
    X, y = entry.load(**overrides)
    encoded, names = _encode(X, nominal)
    y01 = (y.to_numpy() == entry.positive).astype(int)
    return (encoded, y01, names) if return_names else (encoded, y01)


@dataclass(frozen=True)
class Grid:
    """Parameter grids of the three machines (the paper's lists were not published).

    SVM ``gamma`` values are multiples of ``1 / median(d²)`` over the data set's pairs (an
    unsupervised scale, needed because the features are not scaled).

    Parameters
    ----------
    dlm_types : tuple of str
        DLM ball types (``"simple"``: Pi/Ni, ``"complex"``: all four).
    dlm_penalties : tuple of float
        Values of ``p_p`` and of ``p_n``.
    dlm_s_max : int
        Largest DLM stopping point (every smaller one through the prefixes).
    scm_types : tuple of str
        SCM types (conjunction, disjunction).
    scm_penalties : tuple of float
        Values of the SCM's ``p``.
    scm_s_max : int
        Largest SCM stopping point.
    svm_gamma_factors : tuple of float
        Kernel widths in units of ``1 / median(d²)``.
    svm_Cs : tuple of float
        Soft-margin constants.
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
    (types, p, s, folds), SVM arrays (gamma, C, folds).

    Parameters
    ----------
    grid : Grid
        The grid run.
    dlm_errors, dlm_balls : ndarray
        Test errors and numbers of balls of BuildDLM as in Figure 1 (``*_balls``: the machine fitted
        with that stopping point).
    scm_errors, scm_balls : ndarray
        The same for the SCM.
    svm_errors, svm_support : ndarray
        Test errors and numbers of support vectors of the SVM.
    dlmc_errors, dlmc_balls : ndarray or None
        The DLM fitted with the compression-set constraint (None unless requested).
    dlmc_bound : ndarray or None
        Its bounds on the training fold, shape (2, types, p_p, p_n, s, folds): index 0 the
        published Theorem 1 (simple) / 2 (complex), index 1 the corrected bound
        (:func:`companion.bounds.decision_list.corrected_bound`).
    dlmc_train_errors : ndarray or None
        Its training errors.
    svm_gammas : ndarray
        The absolute ``gamma`` values of the grid.
    n_test : ndarray
        Size of each test fold.
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


@paper_models
def dlm_grid_errors(sd, X_train, y_train, X_test, y_test, grid: Grid, constraint: bool, metric: str = "l2",
              learner=DecisionListMachine, **options):
    """Test errors, sizes, bounds and training errors of every DLM grid point on one fold.

    ``learner`` (a :class:`DecisionListMachine` or a subclass, built with ``options``) with
    ``s = grid.dlm_s_max`` at each (type, ``p_p``, ``p_n``); every smaller ``s`` is read from its
    prefixes (:func:`~companion.interpretable.staged_predictions`). The lists of all penalty pairs
    of all types come from one search over their shared greedy states
    (:mod:`companion.experiments._paper01_grid`; the same lists as one fit per pair, tested), and
    a list that several grid points learn is read once.
    """
    g = grid
    n_pen = len(g.dlm_penalties)
    errors = np.zeros((len(g.dlm_types), n_pen, n_pen, g.dlm_s_max))
    balls = np.zeros_like(errors)
    bounds = np.full((2,) + errors.shape, np.nan)  # published, corrected
    train_errors = np.zeros_like(errors)
    # the shared search runs BuildDLM itself: for the DLM, or a subclass that names the search
    # options it changes (``search_options``, passed on); any other subclass is fitted per point
    searchable = learner is DecisionListMachine or hasattr(learner, "search_options")
    shared = searchable and grid_lists.lists_apply(X_train, y_train)
    points = [(b, c) for b in range(n_pen) for c in range(n_pen)]
    pairs = [(g.dlm_penalties[b], g.dlm_penalties[c]) for b, c in points]
    if shared and not constraint:
        to_train = grid_lists.test_distances(X_test, X_train, metric)
        majority = int(np.bincount(y_train, minlength=2).argmax())
    def make(ball_type, p_p, p_n):
        return learner(
            p_p=p_p, p_n=p_n, s=g.dlm_s_max, ball_type=ball_type, compression_constraint=constraint,
            metric=metric, stop_if_unchanged=False, **{"fallback": None, **options},
        )
    by_type = [[None] * len(points) for _ in g.dlm_types]
    if shared and g.dlm_types:  # every type's lists from one search, sharing the states the types share
        template = make(g.dlm_types[0], *pairs[0])
        search = {name: getattr(template, name) for name in getattr(learner, "search_options", ())}
        by_type = grid_lists.dlm_lists_by_type(sd, y_train, g.dlm_types, pairs, g.dlm_s_max, constraint=constraint,
                                               **search)
    read = {}  # a list's test and training errors, read once however many pairs (and types) learn it
    for a, (ball_type, lists) in enumerate(zip(g.dlm_types, by_type)):
        make_type = partial(make, ball_type)
        for (b, c), (p_p, p_n), learnt in zip(points, pairs, lists):
            if learnt is not None and not constraint:
                key = grid_lists.list_key(learnt)
                if key not in read:
                    test = grid_lists.list_test_errors(
                        learnt, to_train, y_test, default="dlm", length=g.dlm_s_max, majority=majority)
                    # the training errors of every prefix: the same reading on the fold
                    train = grid_lists.list_test_errors(
                        learnt, sd.distances, y_train, default="dlm", length=g.dlm_s_max, majority=majority
                    )[0] if len(learnt["kind"]) else 0.0
                    read[key] = (*test, train)
                errors[a, b, c], balls[a, b, c], train_errors[a, b, c] = read[key]
                continue
            dlm = make_type(p_p, p_n)
            if learnt is None:
                dlm.fit(X_train, y_train, sorted_distances=sd)
            else:
                grid_lists.fit_with_list(dlm, X_train, y_train, sd, learnt)
            if dlm.n_balls_ == 0:  # the empty list predicts its default everywhere
                errors[a, b, c] = (dlm.predict(X_test) != y_test).sum()
                continue
            errors[a, b, c] = _pad_path((staged_predictions(dlm, X_test) != y_test).sum(axis=1), g.dlm_s_max)
            used = dlm.path_["fitted_n_balls"].to_numpy()
            balls[a, b, c] = _pad_path(used, g.dlm_s_max)
            k = (dlm.path_["k_p"] + dlm.path_["k_n"]).to_numpy()
            train_errors[a, b, c] = _pad_path(k[used - 1], g.dlm_s_max)
            if constraint:
                for v, variant in enumerate(("published", "corrected")):
                    bound = dlm_bound_path(dlm, variant=variant)[used - 1]
                    bounds[v, a, b, c] = _pad_path(bound, g.dlm_s_max)
    return errors, balls, bounds, train_errors


@paper_models
def scm_grid_errors(sd, X_train, y_train, X_test, y_test, grid: Grid):
    """Test errors and sizes of every SCM grid point on one fold (one search per type for every ``p``)."""
    g = grid
    errors = np.zeros((len(g.scm_types), len(g.scm_penalties), g.scm_s_max))
    balls = np.zeros_like(errors)
    if grid_lists.lists_apply(X_train, y_train):
        to_train = grid_lists.test_distances(X_test, X_train)
        majority = int(np.bincount(y_train, minlength=2).argmax())
        for a, model_type in enumerate(g.scm_types):
            lists = grid_lists.scm_lists(sd, y_train, model_type, g.scm_penalties, g.scm_s_max)
            read = {}  # a list's errors, read once however many penalties learn it
            for b, learnt in enumerate(lists):
                key = grid_lists.list_key(learnt)
                if key not in read:
                    read[key] = grid_lists.list_test_errors(
                        learnt, to_train, y_test, default=1 if model_type == "conjunction" else 0,
                        length=g.scm_s_max, majority=majority)
                errors[a, b], balls[a, b] = read[key]
        return errors, balls
    for a, model_type in enumerate(g.scm_types):
        for b, p in enumerate(g.scm_penalties):
            scm = BallSetCoveringMachine(p=p, s=g.scm_s_max, model_type=model_type, compression_constraint=False,
                                         stop_if_unchanged=False, fallback=None).fit(
                X_train, y_train, sorted_distances=sd
            )
            if scm.n_balls_ == 0:
                errors[a, b] = (scm.predict(X_test) != y_test).sum()
                continue
            errors[a, b] = _pad_path((staged_predictions(scm, X_test) != y_test).sum(axis=1), g.scm_s_max)
            balls[a, b] = _pad_path(np.arange(1, scm.n_balls_ + 1), g.scm_s_max)
    return errors, balls


def fold_sorted(D, X, y, train):
    """The training fold in the ball machines' canonical order: ``(X, y, SortedDistances)``.

    The ball machines learn in the canonical order of their examples (row-order invariance);
    handing them the fold already in that order spares every fit a re-sort of the distances.
    """
    canonical = train[canonical_order(X[train], y[train])]
    return X[canonical], y[canonical], SortedDistances(D[np.ix_(canonical, canonical)])


def _fold_grid(D, X, y, train, test, grid: Grid, gammas, constrained: bool):
    """Every grid point on one (train, test) split; see :class:`GridResults`."""
    g = grid
    y_train, X_test, y_test = y[train], X[test], y[test]
    X_ball, y_ball, sd = fold_sorted(D, X, y, train)
    dlm_errors, dlm_balls, _, _ = dlm_grid_errors(sd, X_ball, y_ball, X_test, y_test, g, constraint=False)
    if constrained:
        dlmc = dlm_grid_errors(sd, X_ball, y_ball, X_test, y_test, g, constraint=True)
    else:
        dlmc = (None, None, None, None)
    scm_errors, scm_balls = scm_grid_errors(sd, X_ball, y_ball, X_test, y_test, g)
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
    with trusted_inputs():  # a verified loader's data, the protocol's fixed grid: 16 SVM fits per fold
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
        Encoded features.
    y : ndarray of shape (m,)
        Labels 0/1.
    folds : list of (train_index, test_index)
        The folds.
    grid : Grid
        The parameter grids.
    D : ndarray of shape (m, m), optional
        L2 distances of ``X`` (computed when omitted; pass it to share it across calls).
    constrained : bool, default=True
        Also fit the DLM grid with the compression-set constraint and compute its bounds (for
        protocol (c)).
    n_jobs : int, default=1
        The folds are independent items of :func:`companion.evaluation.parallel_map` (1: serial;
        -1: all local cores; under ``joblib.parallel_backend("dask")``: a Dask cluster); the
        result does not depend on it.

    Returns
    -------
    GridResults
        Every grid point's test errors and sizes on every fold.
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


def as_counts(values) -> np.ndarray:
    """Integer-valued float arrays (error counts, numbers of balls or support vectors) as int64."""
    values = np.asarray(values)
    counts = np.rint(values).astype(np.int64)
    if not np.array_equal(counts, values):
        raise ValueError("expected integer counts")
    return counts


def argmin_prefer_small(errors, sizes, *, rtol=0.0):
    """Index of the smallest error; among ties the smallest size, then the first grid point.

    ``sizes`` are integer counts (numbers of balls or support vectors, summed over the folds,
    not averaged) compared exactly. ``errors`` are integer counts compared exactly when
    ``rtol == 0``; with ``rtol > 0`` (float bounds) every error ``<= min + rtol * |min|`` counts
    as tied with the minimum. The first grid point is the first in C order of the grid's axes.
    """
    flat_sizes = as_counts(sizes).ravel()
    if rtol:
        flat_errors = np.asarray(errors, dtype=float).ravel()
        best = flat_errors.min()
        candidates = np.flatnonzero(flat_errors <= best + rtol * abs(best))
    else:
        flat_errors = as_counts(errors).ravel()
        candidates = np.flatnonzero(flat_errors == flat_errors.min())
    best = candidates[np.argmin(flat_sizes[candidates])]  # argmin: the first of equal sizes
    return np.unravel_index(best, np.shape(errors))


def describe_grid_point(machine, index, grid: Grid, gammas=None):
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
    over the folds, an integer), then to the first grid point.

    Parameters
    ----------
    results : GridResults
        :func:`cross_validate_grid`'s result.

    Returns
    -------
    dict
        Per machine (``"svm"``, ``"scm"``, ``"dlm"`` and, when fitted, ``"dlmc"``: the DLM with
        the compression-set constraint): ``errors`` (total over the folds), ``size`` (mean number
        of support vectors / balls over the folds), the parameters and ``index`` (the grid point).
    """
    out = {}
    for machine, errors, sizes in _machines(results):
        total = errors.sum(axis=-1)
        total_size = sizes.sum(axis=-1)  # integer: ties in size are exact (the mean is reported)
        index = argmin_prefer_small(total, total_size)
        out[machine] = {
            "errors": int(total[index]),
            "size": float(total_size[index] / sizes.shape[-1]),
            **describe_grid_point(machine, index, results.grid, results.svm_gammas),
            "index": index,
        }
    return out


def _machines(results: GridResults, constrained=True):
    """``(machine, errors, sizes)`` of each machine of a grid run (``"dlmc"`` when fitted and asked)."""
    machines = [
        ("svm", results.svm_errors, results.svm_support),
        ("scm", results.scm_errors, results.scm_balls),
        ("dlm", results.dlm_errors, results.dlm_balls),
    ]
    if constrained and results.dlmc_errors is not None:
        machines.append(("dlmc", results.dlmc_errors, results.dlmc_balls))
    return machines


def nested_protocol(
    X, y, folds, grid: Grid = Grid(), *, outer: GridResults, D=None, inner_splits=3, seed=0, n_jobs=1
) -> dict:
    """(b) Nested CV: on each outer fold an inner stratified CV of the outer training set picks the grid point.

    The outer test errors of the chosen points are read from ``outer`` (the same fits as (a)).
    The inner selection breaks ties as :func:`paper_protocol` does. The inner splits are seeded per
    fold (``seed + 1000 + fold``), so the result does not depend on ``n_jobs``.

    Parameters
    ----------
    X : ndarray of shape (m, n)
        Encoded features.
    y : ndarray of shape (m,)
        Labels 0/1.
    folds : list of (train_index, test_index)
        The outer folds.
    grid : Grid
        The grid searched by the inner CV.
    outer : GridResults
        :func:`cross_validate_grid` on ``folds``.
    D : ndarray of shape (m, m), optional
        L2 distances of ``X``.
    inner_splits : int, default=3
        Inner folds.
    seed : int, default=0
        Base seed of the inner splits.
    n_jobs : int, default=1
        The outer folds are items of :func:`companion.evaluation.parallel_map`.

    Returns
    -------
    dict
        Per machine: total outer test errors and mean size of the chosen machines.
    """
    indices = _nested_indices(_inner_runs(X, y, folds, grid, D=D, inner_splits=inner_splits, seed=seed,
                                          n_jobs=n_jobs))
    out = {}
    for machine, errors, sizes in _machines(outer, constrained=False):
        chosen = [index + (f,) for f, index in enumerate(indices[machine])]
        out[machine] = {
            "errors": sum(int(errors[index]) for index in chosen),
            "size": float(np.mean([float(sizes[index]) for index in chosen])),
        }
    return out


def _inner_runs(X, y, folds, grid, *, D=None, inner_splits=3, seed=0, n_jobs=1) -> list:
    """The inner cross-validation (a :class:`GridResults`) of each outer fold's training set."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    if D is None:
        D = cdist(X, X)
    return parallel_map(partial(_inner_grid, X, y, D, grid, inner_splits, seed), list(enumerate(folds)), n_jobs=n_jobs)


def _nested_indices(inner_runs) -> dict:
    """Per machine, the grid point each outer fold's inner CV selects (ties as in (a))."""
    chosen = {"svm": [], "scm": [], "dlm": []}
    for inner in inner_runs:
        for machine, errors, sizes in _machines(inner, constrained=False):
            chosen[machine].append(argmin_prefer_small(errors.sum(axis=-1), sizes.sum(axis=-1)))
    return chosen


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
        Theorem 1/2 as published, or the corrected bound.

    Returns
    -------
    dict
        ``errors`` (total test errors of the chosen machines), ``size`` (mean number of balls) and
        ``chosen`` (one row per fold: parameters, bound, training and test error rates).
    """
    chosen = _bound_selection(results, variant)
    errors = sum(float(results.dlmc_errors[index]) for index in chosen["index"])
    sizes = sum(float(results.dlmc_balls[index]) for index in chosen["index"])
    return {"errors": int(errors), "size": sizes / len(chosen), "chosen": chosen.drop(columns="index")}


def _bound_selection(results: GridResults, variant: str) -> pd.DataFrame:
    """One row per fold: the machine :func:`bound_selected_dlm` selects (``index``: its grid point)."""
    if results.dlmc_bound is None:
        raise ValueError("the grid was run without the constrained DLM (constrained=False); no bounds")
    if variant not in ("published", "corrected"):
        raise ValueError(f"variant must be 'published' or 'corrected', got {variant!r}")
    bounds = results.dlmc_bound[0 if variant == "published" else 1]
    n_train = results.n_test.sum() - results.n_test
    chosen = []
    for f in range(results.dlmc_errors.shape[-1]):
        filled = np.where(np.isfinite(bounds[..., f]), bounds[..., f], np.inf)
        index = argmin_prefer_small(filled, results.dlmc_balls[..., f], rtol=BOUND_TIE_RTOL)
        chosen.append(
            {
                **describe_grid_point("dlm", index, results.grid),
                "bound": float(filled[index]),
                "train_error": float(results.dlmc_train_errors[index + (f,)] / n_train[f]),
                "test_error": float(results.dlmc_errors[index + (f,)] / results.n_test[f]),
                "index": index + (f,),
            }
        )
    return pd.DataFrame(chosen)


# --------------------------------------------------------------------------------------------
# Paper numbers and comparison tables
# --------------------------------------------------------------------------------------------


def paper_table1() -> pd.DataFrame:
    """Table 1 of the paper in wide form (one row per data set), from ``paper_numbers/01_table1.csv``.

    Returns
    -------
    pandas.DataFrame
        Columns ``<machine>_<quantity>`` (``svm_errors``, ``dlm_p_p``, ...), rows the keys of
        :data:`DATASETS`.
    """
    long = paper_table("01_table1")
    wide = long.pivot(index="dataset", columns=["machine", "quantity"], values="value")
    wide.columns = [f"{machine}_{quantity}" for machine, quantity in wide.columns]
    wide = wide.reindex(list(DATASETS))
    for column in wide.columns:
        converted = pd.to_numeric(wide[column], errors="coerce")
        if converted.notna().all():
            wide[column] = converted
    return wide


def _comparison_frame(ours: dict, what: str = "errors") -> pd.DataFrame:
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
        The parameter grids.
    seed : int
        Fold seed.
    n_jobs : int, default=1
        Passed to :func:`cross_validate_grid` (the folds run in parallel; same result).

    Returns
    -------
    pandas.DataFrame
        One row per candidate: ``positives``, each machine's errors and ``distance_to_paper`` (the
        summed absolute differences to Table 1's Glass row).
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
# The whole protocol: Config, run and the tidy result
# --------------------------------------------------------------------------------------------

#: The smoke run's grid (notebook 01 with ``fast=True``).
FAST_GRID = Grid(
    dlm_penalties=(0.5, 2.0), dlm_s_max=6, scm_penalties=(1.0, 2.0), scm_s_max=5,
    svm_gamma_factors=(1.0, 10.0), svm_Cs=(1.0, 10.0),
)

#: Display name of each machine in the ``method`` column of :func:`run`.
MACHINE_NAMES = {"svm": "SVM", "scm": "SCM", "dlm": "DLM", "dlmc": "DLM constrained"}


@dataclass(frozen=True)
class Config:
    """Everything notebook 01's Table 1 numbers depend on.

    Parameters
    ----------
    names : tuple of str
        Keys of :data:`DATASETS` (default: all seven, in the paper's order).
    seeds : tuple of int
        Fold seeds of :func:`companion.evaluation.stratified_folds`. The first is the *main*
        seed (protocol (c), the constrained DLM and its bounds); protocols (a) and (b) run at
        every seed, so that every claim can be re-decided at each of them.
    grid : Grid
    nested : bool, default=True
        Run protocol (b), the design of the claims that compare machines (it selects no grid
        point on a test fold).
    inner_splits : int, default=3
        Inner folds of protocol (b).
    """

    names: tuple = tuple(DATASETS)
    seeds: tuple = (0, 1, 2)
    grid: Grid = Grid()
    nested: bool = True
    inner_splits: int = 3

    @classmethod
    def fast(cls, seed: int = 0) -> "Config":
        """The smoke run: Votes, Haberman and Glass, fold seeds ``seed`` and ``seed + 1``, :data:`FAST_GRID`."""
        return cls(names=("votes", "haberman", "glass"), seeds=(seed, seed + 1), grid=FAST_GRID, inner_splits=2)


def run(config: Config, n_jobs=1) -> pd.DataFrame:
    """Protocols (a), (b) and (c) of Table 1, one row per data set x method x fold seed x fold.

    Parameters
    ----------
    config : Config
    n_jobs : int, default=1
        The folds of every cross-validation (and the outer folds of the nested one) are
        independent items of :func:`companion.evaluation.parallel_map` (1: serial; -1: all local
        cores); the data sets run one after the other. Every split is seeded from
        ``config.seeds``, so the result does not depend on ``n_jobs``.

    Returns
    -------
    pandas.DataFrame
        Keys: ``dataset`` (a key of :data:`DATASETS`), ``method`` (below), ``seed`` (the fold
        seed of the 10-fold split) and ``fold`` (0-9, the outer fold of that split). Methods, with
        their ``protocol`` and ``machine`` (``svm``, ``scm``, ``dlm``, ``dlmc``: the DLM with the
        compression-set constraint) columns:

        * ``"SVM (a)"``, ``"SCM (a)"``, ``"DLM (a)"`` for every seed, ``"DLM constrained (a)"``
          for the main seed: the grid point of smallest total test errors over the 10 folds
          (:func:`paper_protocol`), one row per fold;
        * ``"SVM (b)"``, ``"SCM (b)"``, ``"DLM (b)"`` (every seed, with ``config.nested``): the
          grid point chosen by the inner CV of each fold (:func:`nested_protocol`);
        * ``"DLM (c) published"`` and ``"DLM (c) corrected"`` (main seed): the constrained DLM of
          smallest bound on each training fold (:func:`bound_selected_dlm`);
        * ``"DLM simple s=3"``, ``"SCM conjunction s=2"``, ... (protocol ``"s"``, every seed): for
          each machine type and stopping point ``s``, the penalties of smallest total test errors
          at that ``s``, the data of the errors-against-``s`` curves.

        Columns: ``errors`` (test errors on the fold), ``n_test`` (its size), ``size`` (support
        vectors or balls of the fold's machine), the grid point (``T``, ``p_p``, ``p_n``, ``p``,
        ``s``, ``gamma``, ``C``; missing where the machine has no such parameter), ``bound`` and
        ``train_error`` (protocol (c): the selected machine's bound and training error rate) and
        ``longest`` (protocol ``"s"``: the most balls of that type at that ``s`` over the penalties).
    """
    frames = [_dataset_rows(name, config, n_jobs) for name in config.names]
    results = pd.concat(frames, ignore_index=True).reindex(columns=RESULT_COLUMNS)
    # integers with gaps (rows of machines without a stopping point) stay integers
    results = results.astype({"s": "Int64", "longest": "Int64"})
    return check_tidy(results)


#: The columns of :func:`run`'s frame, keys first.
RESULT_COLUMNS = [
    *TIDY_KEYS, "protocol", "machine", "errors", "n_test", "size", "T", "p_p", "p_n", "p", "s", "gamma", "C",
    "bound", "train_error", "longest",
]


def _dataset_rows(name, config: Config, n_jobs) -> pd.DataFrame:
    """The rows of :func:`run` for one data set."""
    X, y = load_table1_dataset(name)
    D = cdist(X, X)
    rows = []
    for k, seed in enumerate(config.seeds):
        main = k == 0
        folds = stratified_folds(y, n_splits=10, seed=seed)
        results = cross_validate_grid(X, y, folds, config.grid, D=D, constrained=main, n_jobs=n_jobs)
        n_folds = len(folds)
        part = []
        for machine, best in paper_protocol(results).items():
            part += _fold_rows(results, machine, "a", [best["index"] + (f,) for f in range(n_folds)])
        if config.nested:
            inner = _inner_runs(X, y, folds, config.grid, D=D, inner_splits=config.inner_splits, seed=seed,
                                n_jobs=n_jobs)
            for machine, indices in _nested_indices(inner).items():
                part += _fold_rows(results, machine, "b", [index + (f,) for f, index in enumerate(indices)])
        if main:
            for variant in ("published", "corrected"):
                chosen = _bound_selection(results, variant)
                part += _fold_rows(results, "dlmc", "c", list(chosen["index"]), method=f"DLM (c) {variant}",
                                   bound=chosen["bound"].tolist(), train_error=chosen["train_error"].tolist())
        part += _stopping_rows(results)
        rows += [{"dataset": name, "seed": seed, **row} for row in part]
    return pd.DataFrame(rows)


def _fold_rows(results: GridResults, machine, protocol, indices, method=None, **per_fold) -> list:
    """One row per fold of the grid points ``indices`` (each ending with its fold) of ``machine``."""
    errors, sizes = {m: (e, s) for m, e, s in _machines(results)}[machine]
    rows = []
    for f, index in enumerate(indices):
        rows.append(
            {
                "method": method or f"{MACHINE_NAMES[machine]} ({protocol})",
                "fold": f,
                "protocol": protocol,
                "machine": machine,
                "errors": int(as_counts(errors[index])),
                "n_test": int(results.n_test[f]),
                "size": float(sizes[index]),
                **describe_grid_point(machine, index[:-1], results.grid, results.svm_gammas),
                **{key: values[f] for key, values in per_fold.items()},
            }
        )
    return rows


def _stopping_rows(results: GridResults) -> list:
    """Protocol "s": per machine type and stopping point, the best penalties' errors on each fold."""
    rows = []
    grid = results.grid
    for machine, types, errors, balls in (
        ("dlm", grid.dlm_types, results.dlm_errors, results.dlm_balls),
        ("scm", grid.scm_types, results.scm_errors, results.scm_balls),
    ):
        for t, kind in enumerate(types):
            # the penalty axes flattened, then the stopping point and the fold
            per_type = errors[t].reshape(-1, *errors.shape[-2:])
            per_type_balls = balls[t].reshape(per_type.shape)
            for s in range(per_type.shape[1]):
                total = per_type[:, s].sum(axis=-1)
                (penalties,) = argmin_prefer_small(total, per_type_balls[:, s].sum(axis=-1))
                index = (t, *np.unravel_index(penalties, errors.shape[1:-2]), s)
                longest = per_type_balls[:, s].max(axis=0)
                rows += _fold_rows(
                    results, machine, "s", [index + (f,) for f in range(per_type.shape[-1])],
                    method=f"{MACHINE_NAMES[machine]} {kind} s={s + 1}", longest=[int(v) for v in longest],
                )
    return rows


def total_errors(results: pd.DataFrame) -> pd.Series:
    """Total test errors over the folds, indexed by (``dataset``, ``method``, ``seed``) in row order.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.

    Returns
    -------
    pandas.Series
    """
    return results.groupby(["dataset", "method", "seed"], sort=False)["errors"].sum()


def main_fold_seed(results: pd.DataFrame):
    """The main fold seed of a :func:`run` result: the one of protocol (c) (else the first row's)."""
    seeds = results.loc[results["protocol"] == "c", "seed"]
    return (seeds if len(seeds) else results["seed"]).iloc[0]


def result_datasets(results: pd.DataFrame) -> list:
    return list(dict.fromkeys(results["dataset"]))


def selected_method(results: pd.DataFrame, name, method, seed) -> dict:
    """Total errors, mean size and the grid point (of the first fold) of one method's rows."""
    part = results[(results["dataset"] == name) & (results["method"] == method) & (results["seed"] == seed)]
    if part.empty:
        return {}
    first = part.iloc[0]
    out = {"errors": int(part["errors"].sum()), "size": float(part["size"].mean())}
    for key in ("T", "p", "p_p", "p_n", "gamma", "C"):
        if pd.notna(first[key]):
            out[key] = first[key]
    if pd.notna(first["s"]):
        out["s"] = int(first["s"])
    return out


def protocol_a_table(results: pd.DataFrame, seed=None) -> dict:
    """``{dataset: {machine: selected_method(...)}}`` of protocol (a) (main seed by default)."""
    seed = main_fold_seed(results) if seed is None else seed
    return {
        name: {m: selected_method(results, name, f"{MACHINE_NAMES[m]} (a)", seed) for m in ("svm", "scm", "dlm", "dlmc")}
        for name in result_datasets(results)
    }


def errors_table(results: pd.DataFrame) -> pd.DataFrame:
    """Protocol (a): paper vs ours (main seed) total test errors, with the range over the seeds.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.

    Returns
    -------
    pandas.DataFrame
        Rows (data set, machine); columns ``paper``, ``ours``, ``difference``, ``seed_min``,
        ``seed_max`` and ``paper_in_range`` (the paper's number lies within our range over the seeds).
    """
    totals = total_errors(results)
    main_seed = main_fold_seed(results)
    seeds = list(dict.fromkeys(results["seed"]))
    machines = ("svm", "scm", "dlm")
    names = result_datasets(results)
    ours = {name: {m: {"errors": totals[(name, f"{MACHINE_NAMES[m]} (a)", main_seed)]} for m in machines}
            for name in names}
    table = _comparison_frame(ours, "errors")
    spread = {
        (DISPLAY[name], machine.upper()): [
            totals[(name, f"{MACHINE_NAMES[machine]} (a)", seed)] for seed in seeds
            if (name, f"{MACHINE_NAMES[machine]} (a)", seed) in totals.index
        ]
        for name in names
        for machine in machines
    }
    table["seed_min"] = [min(spread[key]) for key in table.index]
    table["seed_max"] = [max(spread[key]) for key in table.index]
    table["paper_in_range"] = (table["paper"] >= table["seed_min"]) & (table["paper"] <= table["seed_max"])
    return table


def parameters_table(results: pd.DataFrame) -> pd.DataFrame:
    """Protocol (a), main seed: the chosen parameters and sizes beside the paper's.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.

    Returns
    -------
    pandas.DataFrame
        One row per data set; ``paper_*`` columns from Table 1, ``ours_*`` columns from our grid.
    """
    paper = paper_table1()
    rows = []
    for name, best in protocol_a_table(results).items():
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


def protocols_table(results: pd.DataFrame) -> pd.DataFrame:
    """Total test errors of each machine under the three protocols (main seed).

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.

    Returns
    -------
    pandas.DataFrame
        Columns: the paper's DLM errors, then ours: (a) SVM/SCM/DLM, (a) DLM with the
        compression-set constraint, (b) nested SVM/SCM/DLM (when run), (c) bound-selected
        constrained DLM (the published Theorem 1/2, then the corrected bound) and their mean numbers
        of balls (:data:`PROTOCOL_COLUMNS`).
    """
    paper = paper_table1()
    main_seed = main_fold_seed(results)
    rows = []
    for name, a in protocol_a_table(results, main_seed).items():
        row = {"dataset": DISPLAY[name], "paper_dlm": paper.loc[name, "dlm_errors"]}
        for machine in ("svm", "scm", "dlm"):
            row[f"a_{machine}"] = a[machine]["errors"]
        row["a_dlm_constrained"] = a["dlmc"]["errors"] if a["dlmc"] else np.nan
        for machine in ("svm", "scm", "dlm"):
            nested = selected_method(results, name, f"{MACHINE_NAMES[machine]} (b)", main_seed)
            if nested:
                row[f"b_{machine}"] = nested["errors"]
        for variant, column, balls in (("published", "c_dlm_bound", "c_dlm_balls"),
                                       ("corrected", "c_dlm_corrected", "c_corrected_balls")):
            selected = selected_method(results, name, f"DLM (c) {variant}", main_seed)
            row[column] = selected["errors"]
            row[balls] = round(selected["size"], 1)
        rows.append(row)
    return pd.DataFrame(rows).set_index("dataset")


def bound_check_table(results: pd.DataFrame) -> pd.DataFrame:
    """How the two bounds behave on the machines they select (main seed, all folds).

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.

    Returns
    -------
    pandas.DataFrame
        For each data set and bound variant: the mean bound, the mean training and test error rates
        of the selected machines, and on how many folds the bound is below the selected machine's
        training error rate (impossible for a valid bound to do often) or below its test error rate.
    """
    main_seed = main_fold_seed(results)
    rows = []
    for name in result_datasets(results):
        for variant in ("published", "corrected"):
            chosen = results[(results["dataset"] == name) & (results["method"] == f"DLM (c) {variant}")
                             & (results["seed"] == main_seed)]
            test_error = chosen["errors"] / chosen["n_test"]
            rows.append(
                {
                    "dataset": DISPLAY[name],
                    "bound": variant,
                    "mean_bound": chosen["bound"].mean(),
                    "mean_train_error": chosen["train_error"].mean(),
                    "mean_test_error": test_error.mean(),
                    "folds_bound_below_train": int((chosen["bound"] < chosen["train_error"]).sum()),
                    "folds_bound_below_test": int((chosen["bound"] < test_error).sum()),
                    "total_test_errors": int(chosen["errors"].sum()),
                    "mean_balls": chosen["size"].mean(),
                }
            )
    return pd.DataFrame(rows).set_index(["dataset", "bound"])


def dataset_counts(names=None) -> dict:
    """``{name: (m, n_features, n_positive)}`` of the Table 1 data sets.

    Parameters
    ----------
    names : list of str, optional
        Keys of :data:`DATASETS` (default: all).

    Returns
    -------
    dict
    """
    names = list(DATASETS) if names is None else list(names)
    counts = {}
    for name in names:
        X, y = load_table1_dataset(name)
        counts[name] = (X.shape[0], X.shape[1], int(y.sum()))
    return counts


def examples_table(counts: dict) -> pd.DataFrame:
    """Number of examples per data set, the paper's and ours.

    Parameters
    ----------
    counts : dict
        :func:`dataset_counts`'s result.

    Returns
    -------
    pandas.DataFrame
        ``paper``, ``ours``, ``difference``, ``features`` and ``positives`` per data set.
    """
    from companion.evaluation import comparison_table

    paper = paper_table1()
    ours = pd.Series({DISPLAY[n]: counts[n][0] for n in counts})
    theirs = pd.Series({DISPLAY[n]: paper.loc[n, "data_examples"] for n in counts})
    table = comparison_table(theirs, ours)
    table["features"] = [counts[n][1] for n in counts]
    table["positives"] = [counts[n][2] for n in counts]
    return table


# --------------------------------------------------------------------------------------------
# Legends and a real DLM as text
# --------------------------------------------------------------------------------------------

#: Meaning of the columns of :func:`protocols_table`.
PROTOCOL_COLUMNS = {
    "paper_dlm": "the paper's DLM total test errors (Table 1)",
    "a_svm / a_scm / a_dlm": "protocol (a), the paper's: best grid point by total test errors on the test folds",
    "a_dlm_constrained": "protocol (a) for the DLM fitted with the compression-set constraint",
    "b_svm / b_scm / b_dlm": "protocol (b): nested CV, grid point chosen by an inner 3-fold CV on each training fold",
    "c_dlm_bound": "protocol (c): constrained DLM of smallest published Theorem 1/2 bound on each training fold",
    "c_dlm_balls": "mean number of balls of the (c) machines chosen by the published bound",
    "c_dlm_corrected": "protocol (c) with the corrected bound (corrected_bound) instead",
    "c_corrected_balls": "mean number of balls of the (c) machines chosen by the corrected bound",
}


def protocol_legend() -> pd.DataFrame:
    """The legend of :func:`protocols_table`'s columns (:data:`PROTOCOL_COLUMNS`).

    Returns
    -------
    pandas.DataFrame
        One row per column, its ``meaning``.
    """
    return pd.DataFrame({"meaning": PROTOCOL_COLUMNS}).rename_axis("column")


def readable_dlm(name="breastw"):
    """The DLM with the paper's Table 1 parameters fitted on a whole data set, with column names.

    Parameters
    ----------
    name : str, default="breastw"
        A key of :data:`DATASETS`.

    Returns
    -------
    DecisionListMachine, list of str
        The fitted machine (L2, no constraint) and the encoded columns' names, for
        ``dlm.to_text(names)``.
    """
    p = paper_table1().loc[name]
    X, y, names = load_table1_dataset(name, return_names=True)
    dlm = DecisionListMachine(
        p_p=float(p["dlm_p_p"]), p_n=float(p["dlm_p_n"]), s=int(p["dlm_s"]),
        ball_type="simple" if p["dlm_T"] == "s" else "complex", metric="l2", compression_constraint=False,
        stop_if_unchanged=False, fallback=None,
    ).fit(X, y)
    return dlm, names


# --------------------------------------------------------------------------------------------
# Notebook 01's figures of Table 1's protocol
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


def plot_errors_vs_s(ax, results: pd.DataFrame, name, title="", paper=None, seed=None):
    """Total test errors against the stopping point ``s`` (best penalties for each ``s``) on one data set.

    ``results`` is :func:`run`'s frame (its protocol ``"s"`` rows; ``seed``: the main seed by
    default). A fit with stopping point ``s`` returns a shorter list when a class runs out first,
    so beyond the longest list of a machine type (over its penalties and folds) the curve would
    only repeat itself: each curve stops there. ``paper`` (a row of :func:`paper_table1`) adds the
    paper's (``s``, errors) points of the DLM (star) and the SCM (diamond).
    """
    seed = main_fold_seed(results) if seed is None else seed
    part = results[(results["dataset"] == name) & (results["seed"] == seed)]
    curves = part[part["protocol"] == "s"].assign(kind=lambda f: f["method"].str.rsplit(" s=", n=1).str[0])
    for (kind, machine), curve in curves.groupby(["kind", "machine"], sort=False):
        by_s = curve.groupby("s")
        totals, end = by_s["errors"].sum(), max(int(curve["longest"].max()), 1)
        label = kind if machine == "dlm" else f"SCM {kind.split()[1][:4]}."
        style = dict(marker="o", ms=3) if machine == "dlm" else dict(marker="s", ms=3, ls="--")
        ax.plot(np.arange(1, end + 1), totals.to_numpy()[:end], label=label, **style)
    svm = part.loc[part["method"] == "SVM (a)", "errors"].sum()
    ax.axhline(svm, color="k", lw=1, ls=":", label="SVM (best)")
    if paper is not None:
        ax.plot([paper["dlm_s"]], [paper["dlm_errors"]], marker="*", ms=12, color="tab:red", ls="",
                label="paper DLM (s, errors)")
        ax.plot([paper["scm_s"]], [paper["scm_errors"]], marker="D", ms=7, mfc="none", color="tab:green", ls="",
                label="paper SCM (s, errors)")
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


def sparsity_frame(results: pd.DataFrame) -> pd.DataFrame:
    """Sizes of the selected machines (protocol (a), main seed), paper and ours, long form.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset``, ``source`` (paper/ours), ``svm_size`` (mean support vectors),
        ``scm_size`` and ``dlm_size`` (balls).
    """
    paper = paper_table1()
    rows = []
    for name, best in protocol_a_table(results).items():
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


def figure_errors_vs_s(results: pd.DataFrame):
    """One panel per data set: total test errors (main seed) against the stopping point ``s``.

    Curves stop at the longest list of each machine type; stars/diamonds are the paper's points.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    names = result_datasets(results)
    n_cols = min(4, len(names))
    n_rows = int(np.ceil(len(names) / n_cols))
    fig, axes = plt.subplots(n_rows, n_cols, figsize=(3.6 * n_cols, 3.0 * n_rows), squeeze=False)
    for k, (ax, name) in enumerate(zip(axes.ravel(), names)):
        plot_errors_vs_s(ax, results, name, title=DISPLAY[name], paper=paper_table1().loc[name])
        if k % n_cols:
            ax.set_ylabel("")  # each panel keeps its own scale
    for ax in axes.ravel()[len(names):]:
        ax.set_visible(False)
    axes.ravel()[0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def figure_sparsity(results: pd.DataFrame):
    """Number of balls against number of support vectors (paper and ours), log-log.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 4))
    plot_sparsity(ax, sparsity_frame(results))
    fig.tight_layout()
    return fig


def toy_dlm(seed=0, n_samples=150):
    """A 2-D problem (two noisy moons) and a simple and a complex DLM (constrained) fitted on it.

    Parameters
    ----------
    seed : int, default=0
        Seed of ``make_moons``.
    n_samples : int, default=150
        Number of examples.

    Returns
    -------
    X, y, dict
        The data and ``{"simple": dlm, "complex": dlm}`` (``p_p = p_n = 2``, ``s = 8``).
    """
    from sklearn.datasets import make_moons

    X, y = make_moons(n_samples=n_samples, noise=0.25, random_state=seed)
    machines = {
        ball_type: DecisionListMachine(
            p_p=2.0, p_n=2.0, s=8, ball_type=ball_type, metric="l2", compression_constraint=True,
            stop_if_unchanged=False, fallback=None,
        ).fit(X, y)
        for ball_type in ("simple", "complex")
    }
    return X, y, machines


def figure_dlm_balls(X, y, machines: dict):
    """The learnt balls of 2-D DLMs, one panel each (the regions, the data, each ball numbered).

    Parameters
    ----------
    X : ndarray of shape (m, 2)
        The data the machines were fitted on.
    y : ndarray of shape (m,)
        Its labels.
    machines : dict
        ``{label: fitted DecisionListMachine}``.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(machines), figsize=(6 * len(machines), 5), squeeze=False)
    for ax, (label, dlm) in zip(axes.ravel(), machines.items()):
        plot_dlm_balls(ax, dlm, X, y)
        ax.set_title(f"{label} DLM: {dlm.n_balls_} balls (label = position:type)")
    fig.tight_layout()
    return fig
