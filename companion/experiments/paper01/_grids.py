"""What notebook 01 fits: Table 1's data sets and their encodings, the parameter grids of the SVM,
the SCM and the DLM, and their errors fold by fold (*The Decision List Machine*, Sokolova et al.,
NIPS 2002, Section 5).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd
from scipy.spatial.distance import cdist
from sklearn.svm import SVC

import companion.datasets as datasets
from companion.bounds.decision_list import dlm_bound_path
from companion.datasets import RegisteredDataset
from companion.decision_list import BallSetCoveringMachine, DecisionListMachine, SortedDistances
from companion._ball_grid import compiled_grid_state
from companion._ball_search import canonical_order
from companion.evaluation import parallel_map
from companion.experiments._trusted import trusted_inputs
import companion.experiments._paper01_grid as grid_lists
from companion._learner_support import staged_predictions
from companion.preprocessing import FrameEncoder
from companion.experiments.protocol import paper_models


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
              learner=DecisionListMachine, grid_state_pass=None, **options):
    """Test errors, sizes, bounds and training errors of every DLM grid point on one fold.

    ``learner`` (a :class:`DecisionListMachine` or a subclass, built with ``options``) with
    ``s = grid.dlm_s_max`` at each (type, ``p_p``, ``p_n``); every smaller ``s`` is read from its
    prefixes (``staged_predict``). The lists of all penalty pairs
    of all types come from one search over their shared greedy states
    (:mod:`companion.experiments._paper01_grid`; the same lists as one fit per pair, tested), and
    a list that several grid points learn is read once. ``grid_state_pass``: the caller's compiled
    pass of that search (:func:`companion._ball_grid.compiled_grid_state`), shared by the
    searches of one task; None: the search takes its own.
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
            metric=metric, stop_if_unchanged=False, **{"fallback": None, "scale": None, **options},
        )
    by_type = [[None] * len(points) for _ in g.dlm_types]
    if shared and g.dlm_types:  # every type's lists from one search, sharing the states the types share
        template = make(g.dlm_types[0], *pairs[0])
        search = {name: getattr(template, name) for name in getattr(learner, "search_options", ())}
        by_type = grid_lists.dlm_lists_by_type(sd, y_train, g.dlm_types, pairs, g.dlm_s_max, constraint=constraint,
                                               grid_state_pass=grid_state_pass, **search)
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
def scm_grid_errors(sd, X_train, y_train, X_test, y_test, grid: Grid, grid_state_pass=None):
    """Test errors and sizes of every SCM grid point on one fold (one search per type for every ``p``).

    ``grid_state_pass`` as for :func:`dlm_grid_errors`.
    """
    g = grid
    errors = np.zeros((len(g.scm_types), len(g.scm_penalties), g.scm_s_max))
    balls = np.zeros_like(errors)
    if grid_lists.lists_apply(X_train, y_train):
        to_train = grid_lists.test_distances(X_test, X_train)
        majority = int(np.bincount(y_train, minlength=2).argmax())
        for a, model_type in enumerate(g.scm_types):
            lists = grid_lists.scm_lists(sd, y_train, model_type, g.scm_penalties, g.scm_s_max,
                                         grid_state_pass=grid_state_pass)
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
                                         stop_if_unchanged=False, fallback=None, scale=None).fit(
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


def fold_key(X, y, train, test, grid: Grid, gammas) -> str:
    """The key of one fold's grid in a memo of :func:`cross_validate_grid`: sha-256 of what it reads.

    The training and test rows and labels (in the fold's order), the grid's parameters and the
    SVM's ``gamma`` values: every array of the fold's grid is a deterministic function of them, so
    a memo's entry is what a refit gives.

    Parameters
    ----------
    X : ndarray of shape (m, n)
        Encoded features of the data set.
    y : ndarray of shape (m,)
        Labels 0/1.
    train, test : ndarray of int
        The fold's rows.
    grid : Grid
    gammas : ndarray
        :func:`svm_gammas` of the data set.

    Returns
    -------
    str
    """
    digest = hashlib.sha256(repr(grid).encode())
    for part in (X[train], y[train], X[test], y[test], np.asarray(gammas, dtype=float)):
        part = np.ascontiguousarray(part)
        digest.update(f"{part.dtype.str}{part.shape}".encode())
        digest.update(part.tobytes())
    return digest.hexdigest()


def _remembered(memo, key, constrained):
    """The fold's arrays in ``memo`` (the constrained DLM's four too when ``constrained``), or None."""
    parts = None if memo is None else memo.get(key)
    if parts is None or (constrained and parts[6] is None):
        return None
    return parts if constrained else (*parts[:6], None, None, None, None)


def svm_kernels(D, gammas) -> tuple:
    """The RBF kernel ``exp(-gamma d²)`` of every ``gamma`` on the whole matrix ``D``, one per width.

    Computed once per cross-validation and shared by its folds, each of which reads its
    training and test blocks (the same arithmetic on the same matrix as a per-fold computation,
    so the same bits).
    """
    squared = D**2
    return tuple(np.exp(-gamma * squared) for gamma in gammas)


def _fold_grid(D, X, y, train, test, grid: Grid, gammas, constrained: bool, grid_state_pass=None, kernels=None):
    """Every grid point on one (train, test) split; see :class:`GridResults` (``kernels``: :func:`svm_kernels`)."""
    g = grid
    y_train, X_test, y_test = y[train], X[test], y[test]
    X_ball, y_ball, sd = fold_sorted(D, X, y, train)
    # one compiled pass for the fold's searches (DLM, SCM): the caller's, or the fold's own
    compiled = compiled_grid_state() if grid_state_pass is None else grid_state_pass
    dlm_errors, dlm_balls, _, _ = dlm_grid_errors(sd, X_ball, y_ball, X_test, y_test, g, constraint=False,
                                                  grid_state_pass=compiled)
    if constrained:
        dlmc = dlm_grid_errors(sd, X_ball, y_ball, X_test, y_test, g, constraint=True)
    else:
        dlmc = (None, None, None, None)
    scm_errors, scm_balls = scm_grid_errors(sd, X_ball, y_ball, X_test, y_test, g, grid_state_pass=compiled)
    svm_errors = np.zeros((len(gammas), len(g.svm_Cs)))
    svm_support = np.zeros_like(svm_errors)
    if kernels is None:
        kernels = svm_kernels(D, gammas)
    for a, kernel in enumerate(kernels):
        k_train, k_test = kernel[np.ix_(train, train)], kernel[np.ix_(test, train)]
        for b, C in enumerate(g.svm_Cs):
            svm = SVC(kernel="precomputed", C=C).fit(k_train, y_train)
            svm_errors[a, b] = (svm.predict(k_test) != y_test).sum()
            svm_support[a, b] = svm.support_.size
    return (dlm_errors, dlm_balls, scm_errors, scm_balls, svm_errors, svm_support, *dlmc)


def _fold_grid_item(D, X, y, grid, gammas, constrained, fold, grid_state_pass=None, kernels=None):
    train, test = fold
    with trusted_inputs():  # a verified loader's data, the protocol's fixed grid: 16 SVM fits per fold
        return _fold_grid(D, X, y, train, test, grid, gammas, constrained, grid_state_pass, kernels)


def svm_gammas(D, grid: Grid) -> np.ndarray:
    """The SVM ``gamma`` grid: ``grid.svm_gamma_factors / median(d²)`` over distinct pairs.

    ``D`` is SciPy's ``cdist`` (each distance a direct sum over the features, no matrix product
    through BLAS), and the median an exact order statistic, so ``gamma`` is the same on every
    machine, BLAS kernel and thread count.
    """
    upper = D[np.triu_indices_from(D, k=1)]
    scale = np.median(upper[upper > 0] ** 2)
    return np.asarray(grid.svm_gamma_factors, dtype=float) / scale


def cross_validate_grid(X, y, folds, grid: Grid = Grid(), *, D=None, constrained=True, n_jobs=1,
                        grid_state_pass=None, memo: dict | None = None) -> GridResults:
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
    grid_state_pass : callable, optional
        A compiled pass of the grid searches (:func:`companion._ball_grid.compiled_grid_state`)
        shared by every fold, when the caller runs several cross-validations in one task (the
        inner folds of the nested protocol); only with ``n_jobs=1``: a compiled function sent to
        a worker process is compiled there anew. None: each fold takes its own.
    memo : dict, optional
        The caller's memo of fold grids (notebook 01 keeps one for its run, glass and claims
        sections: :func:`~companion.experiments.paper01.run` at the main fold seed, the honest
        check's second nested cross-validation and Glass's main split run the same outer folds).
        A fold run before with the same rows, grid and widths (:func:`fold_key`) is read from it,
        the others are run and stored in it: ``{fold_key: arrays}``, the fold's arrays of
        :class:`GridResults` in its field order (the constrained DLM's four None when it was not
        fitted; a run that needs them refits such a fold). The result is the one a call without
        a memo gives; the memo lives as long as the caller keeps it. None: every fold is run.

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
    if grid_state_pass is not None and n_jobs != 1:
        raise ValueError(f"cross_validate_grid: grid_state_pass is shared by a serial run only (n_jobs=1), got n_jobs={n_jobs}")
    folds = list(folds)
    keys = [None] * len(folds) if memo is None else [fold_key(X, y, train, test, grid, gammas) for train, test in folds]
    per_fold = [_remembered(memo, key, constrained) for key in keys]
    missing = [f for f, parts in enumerate(per_fold) if parts is None]
    # the SVM's kernels on the whole matrix, once for every fold to run (not once per fold)
    kernels = svm_kernels(D, gammas) if missing else None
    run = parallel_map(
        partial(_fold_grid_item, D, X, y, grid, gammas, constrained, grid_state_pass=grid_state_pass, kernels=kernels),
        [folds[f] for f in missing], n_jobs=n_jobs,
    )
    for f, parts in zip(missing, run):
        per_fold[f] = parts
        if memo is not None:
            memo[keys[f]] = tuple(parts)
    stacked = [None if parts[0] is None else np.stack(parts, axis=-1) for parts in zip(*per_fold)]
    return GridResults(grid, *stacked, svm_gammas=gammas, n_test=np.array([len(t) for _, t in folds]))
