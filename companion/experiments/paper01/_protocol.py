"""What notebook 01 runs and on which folds: the selection rules (the paper's, on the test folds;
nested cross-validation; the bound-selected DLM of Section 4), ``Config`` and ``run``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import partial
from numbers import Integral

import numpy as np
import pandas as pd
from scipy.spatial.distance import cdist
from sklearn.utils._param_validation import StrOptions, validate_params

from companion._ball_grid import compiled_grid_state
from companion.evaluation import parallel_map, stratified_folds
from companion.numerics import StrictInterval
from companion.experiments._constraints import N_JOBS, SEED
from companion.experiments._seed_runs import SeedRuns, resolve_seed_runs, run_key
from companion.experiments.protocol import TIDY_KEYS, check_tidy
from companion.experiments.paper01._grids import (
    DATASETS, Grid, GridResults, cross_validate_grid, load_table1_dataset,
)


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
    for machine, errors, sizes in grid_machines(results):
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


def grid_machines(results: GridResults, constrained=True):
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
    indices = _nested_indices(inner_grid_runs(X, y, folds, grid, D=D, inner_splits=inner_splits, seed=seed,
                                          n_jobs=n_jobs))
    out = {}
    for machine, errors, sizes in grid_machines(outer, constrained=False):
        chosen = [index + (f,) for f, index in enumerate(indices[machine])]
        out[machine] = {
            "errors": sum(int(errors[index]) for index in chosen),
            "size": float(np.mean([float(sizes[index]) for index in chosen])),
        }
    return out


def inner_grid_runs(X, y, folds, grid, *, D=None, inner_splits=3, seed=0, n_jobs=1) -> list:
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
        for machine, errors, sizes in grid_machines(inner, constrained=False):
            chosen[machine].append(argmin_prefer_small(errors.sum(axis=-1), sizes.sum(axis=-1)))
    return chosen


def _inner_grid(X, y, D, grid, inner_splits, seed, numbered_fold) -> GridResults:
    """The inner cross-validation of one outer fold (its training set), seeded by the fold number."""
    f, (train, _test) = numbered_fold
    inner_folds = stratified_folds(y[train], n_splits=inner_splits, seed=seed + 1000 + f)
    # one compiled pass of the grid searches for every inner fold of this outer fold
    return cross_validate_grid(X[train], y[train], inner_folds, grid, D=D[np.ix_(train, train)], constrained=False,
                               grid_state_pass=compiled_grid_state())


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
        seed (protocol (c), the DLM of smallest bound); protocols (a) and (b), and the constrained
        DLM under (a), run at every seed, so that every claim can be re-decided at each of them.
    grid : Grid
    nested : bool, default=True
        Run protocol (b), the honest check of the claims that compare machines (it selects no grid
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


# False: the grid of ``config`` becomes the machines' parameters, which their fits still check.
@validate_params({"config": [Config], "n_jobs": N_JOBS, "memo": [dict, None],
                  "seed_runs": [SeedRuns, StrOptions({"committed"}), None]},
                 prefer_skip_nested_validation=False)
def run(config: Config, n_jobs=1, *, memo: dict | None = None, seed_runs: SeedRuns | str | None = None) -> pd.DataFrame:
    """Protocols (a), (b) and (c) of Table 1, one row per data set x method x fold seed x fold.

    Parameters
    ----------
    config : Config
    n_jobs : int or None, default=1
        The folds of every cross-validation (and the outer folds of the nested one) are
        independent items of :func:`companion.evaluation.parallel_map` (1: serial; -1: all local
        cores; None: joblib's default); the data sets run one after the other. Every split is
        seeded from ``config.seeds``, so the result does not depend on ``n_jobs``.
    memo : dict, optional
        The caller's memo of fold grids (:func:`cross_validate_grid`): the outer folds' grids are
        read from it when run before and stored in it; the frame is the one a call without a memo
        gives. None: every fold is fitted here.
    seed_runs : SeedRuns, "committed" or None, default=None
        Committed runs (``"committed"``: ``data/seed_runs/01``): the rows of a fold seed other than the main
        one are read there when committed for the same data, grid and nested protocol
        (:func:`seed_run_key`); they are the rows this function computes. None: every seed is run.

    Returns
    -------
    pandas.DataFrame
        Keys: ``dataset`` (a key of :data:`DATASETS`), ``method`` (below), ``seed`` (the fold
        seed of the 10-fold split) and ``fold`` (0-9, the outer fold of that split). Methods, with
        their ``protocol`` and ``machine`` (``svm``, ``scm``, ``dlm``, ``dlmc``: the DLM with the
        compression-set constraint) columns:

        * ``"SVM (a)"``, ``"SCM (a)"``, ``"DLM (a)"`` and ``"DLM constrained (a)"`` for every
          seed: the grid point of smallest total test errors over the 10 folds
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
    committed, seed_runs = {}, resolve_seed_runs(seed_runs, "01")
    keys = {} if seed_runs is None else seed_run_keys(config.seeds[1:], config)
    for seed, key in keys.items():
        frame = seed_runs.read(seed, key)
        if frame is not None:
            committed[seed] = {name: rows for name, rows in frame.groupby("dataset", sort=False)}
    frames = []
    for name in config.names:
        X, y = load_table1_dataset(name)
        D = cdist(X, X)
        for k, seed in enumerate(config.seeds):
            if seed in committed:
                frames.append(committed[seed][name])
            else:
                frames.append(_seed_rows(name, X, y, D, config, seed, main=k == 0, n_jobs=n_jobs, memo=memo))
    # integers with gaps (rows of machines without a stopping point) stay integers
    return check_tidy(_typed(pd.concat(frames, ignore_index=True)))


#: The columns of :func:`run`'s frame, keys first.
RESULT_COLUMNS = [
    *TIDY_KEYS, "protocol", "machine", "errors", "n_test", "size", "T", "p_p", "p_n", "p", "s", "gamma", "C",
    "bound", "train_error", "longest",
]


@validate_params(
    {"names": ["array-like"], "seed": SEED, "grid": [Grid], "inner_splits": [StrictInterval(Integral, 2, None, closed="left")],
     "n_jobs": N_JOBS, "memo": [dict, None]},
    prefer_skip_nested_validation=False,
)
def nested_run(names, *, seed=0, grid: Grid = Grid(), inner_splits=5, n_jobs=1,
               memo: dict | None = None) -> pd.DataFrame:
    """Protocol (b), nested cross-validation, with another number of inner folds, at one fold seed.

    The honest check beside the paper's protocol (Sokolova et al. 2002, Section 5, selects each
    machine's parameters on the test folds) chooses each outer fold's grid point by an inner
    stratified cross-validation of its training set; :func:`run` uses ``Config.inner_splits``
    inner folds. This runs the same outer folds (``stratified_folds(y, 10, seed)``) and the same
    grid with ``inner_splits`` inner folds, for the three machines (no constrained DLM, no
    protocol (c)).

    Parameters
    ----------
    names : array-like of str
        Keys of :data:`DATASETS`.
    seed : int, default=0
        The fold seed (the outer folds of :func:`run` at this seed).
    grid : Grid, default=Grid()
    inner_splits : int, default=5
        Inner folds (at least 2).
    n_jobs : int or None, default=1
        The outer folds are independent items of :func:`companion.evaluation.parallel_map`.
    memo : dict, optional
        The caller's memo of fold grids (:func:`cross_validate_grid`): the outer folds' grids
        (those of :func:`run` at ``seed``, when it was given the same memo) are read from it or
        stored in it; the frame is the one a call without a memo gives.

    Returns
    -------
    pandas.DataFrame
        :func:`run`'s columns, methods ``"SVM (b)"``, ``"SCM (b)"``, ``"DLM (b)"`` only.
    """
    rows = []
    for name in names:
        X, y = load_table1_dataset(name)
        D = cdist(X, X)
        folds = stratified_folds(y, n_splits=10, seed=seed)
        results = cross_validate_grid(X, y, folds, grid, D=D, constrained=False, n_jobs=n_jobs, memo=memo)
        inner = inner_grid_runs(X, y, folds, grid, D=D, inner_splits=inner_splits, seed=seed, n_jobs=n_jobs)
        for machine, indices in _nested_indices(inner).items():
            rows += [{"dataset": name, "seed": seed, **row}
                     for row in _fold_rows(results, machine, "b", [index + (f,) for f, index in enumerate(indices)])]
    frame = pd.DataFrame(rows).reindex(columns=RESULT_COLUMNS).astype({"s": "Int64", "longest": "Int64"})
    return check_tidy(frame)


#: The protocol-(a) variants of :func:`paper_protocol_variant`: name -> (folds, nominal coding).
PROTOCOL_A_VARIANTS = {"folds=unstratified": ("unstratified", "onehot"), "coding=ordinal": ("stratified", "ordinal")}


@validate_params(
    {"names": ["array-like"], "seed": SEED, "grid": [Grid], "folds": [StrOptions({"stratified", "unstratified"})],
     "nominal": [StrOptions({"onehot", "ordinal"})], "n_jobs": N_JOBS},
    prefer_skip_nested_validation=False,
)
def paper_protocol_variant(names, *, seed=0, grid: Grid = Grid(), folds="stratified", nominal="onehot",
                           n_jobs=1) -> pd.DataFrame:
    """Protocol (a) of the three machines with other folds or another coding, at one fold seed.

    Section 5 of Sokolova et al. (2002) says "10-fold cross-validation" without saying whether the
    folds were stratified, and does not say how many-valued nominal attributes were coded (only
    Credit has them). :func:`run` uses stratified folds and one-hot coding; this runs the same grid
    and selection (:func:`paper_protocol`, the grid point of fewest total test errors) with plain
    shuffled folds (``KFold(10, shuffle=True, random_state=seed)``) or with the ordinal coding.

    Parameters
    ----------
    names : array-like of str
        Keys of :data:`DATASETS`.
    seed : int, default=0
        The fold seed.
    grid : Grid, default=Grid()
    folds : {"stratified", "unstratified"}, default="stratified"
    nominal : {"onehot", "ordinal"}, default="onehot"
        Coding of many-valued nominal attributes (:func:`load_table1_dataset`).
    n_jobs : int or None, default=1
        The folds are independent items of :func:`companion.evaluation.parallel_map`.

    Returns
    -------
    pandas.DataFrame
        :func:`run`'s columns, methods ``"SVM (a)"``, ``"SCM (a)"``, ``"DLM (a)"`` only.
    """
    from sklearn.model_selection import KFold

    rows = []
    for name in names:
        X, y = load_table1_dataset(name, nominal=nominal)
        splits = (stratified_folds(y, n_splits=10, seed=seed) if folds == "stratified"
                  else list(KFold(n_splits=10, shuffle=True, random_state=seed).split(np.zeros((len(y), 1)))))
        results = cross_validate_grid(X, y, splits, grid, constrained=False, n_jobs=n_jobs)
        for machine, best in paper_protocol(results).items():
            rows += [{"dataset": name, "seed": seed, **row}
                     for row in _fold_rows(results, machine, "a", [best["index"] + (f,) for f in range(len(splits))])]
    frame = pd.DataFrame(rows).reindex(columns=RESULT_COLUMNS).astype({"s": "Int64", "longest": "Int64"})
    return check_tidy(frame)


def _seed_rows(name, X, y, D, config: Config, seed, *, main: bool, n_jobs, memo=None) -> pd.DataFrame:
    """The rows of :func:`run` for one data set at one fold seed (protocol (c) at the main seed only)."""
    folds = stratified_folds(y, n_splits=10, seed=seed)
    # the constrained DLM at every fold seed (claim C re-decided at each; protocol (c) reads the main seed's)
    results = cross_validate_grid(X, y, folds, config.grid, D=D, constrained=True, n_jobs=n_jobs, memo=memo)
    n_folds = len(folds)
    part = []
    for machine, best in paper_protocol(results).items():
        part += _fold_rows(results, machine, "a", [best["index"] + (f,) for f in range(n_folds)])
    if config.nested:
        inner = inner_grid_runs(X, y, folds, config.grid, D=D, inner_splits=config.inner_splits, seed=seed,
                                n_jobs=n_jobs)
        for machine, indices in _nested_indices(inner).items():
            part += _fold_rows(results, machine, "b", [index + (f,) for f, index in enumerate(indices)])
    if main:
        for variant in ("published", "corrected"):
            chosen = _bound_selection(results, variant)
            part += _fold_rows(results, "dlmc", "c", list(chosen["index"]), method=f"DLM (c) {variant}",
                               bound=chosen["bound"].tolist(), train_error=chosen["train_error"].tolist())
    part += _stopping_rows(results)
    return _typed(pd.DataFrame([{"dataset": name, "seed": seed, **row} for row in part]))


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with :data:`RESULT_COLUMNS`, its integers with gaps kept integers."""
    return frame.reindex(columns=RESULT_COLUMNS).astype({"s": "Int64", "longest": "Int64"})


def seed_run_key(config: Config, seed: int, digests: dict | None = None) -> str:
    """The key of :func:`run`'s rows at the fold seed ``seed`` (not the main one) in the committed runs.

    It holds what those rows read: the data sets (their names and each one's digest), the grid,
    the nested protocol's settings and the seed; not ``config.seeds`` (a seed's rows are the same
    whichever other seeds run beside it) and not ``n_jobs``.

    Parameters
    ----------
    config : Config
    seed : int
    digests : dict, optional
        ``{name: digest}`` of the data sets, when already computed (default: computed here).

    Returns
    -------
    str
    """
    digests = {} if digests is None else digests
    data = tuple((name, digests[name] if name in digests else _data_digest(name)) for name in config.names)
    return run_key("paper01.run", data, config.grid, config.nested, config.inner_splits, int(seed))


def _data_digest(name: str) -> str:
    """sha-256 of one Table 1 data set as :func:`load_table1_dataset` encodes it."""
    X, y = load_table1_dataset(name)
    X, y = np.ascontiguousarray(X, dtype=float), np.ascontiguousarray(y)
    return run_key(X.shape, hashlib.sha256(X.tobytes()).hexdigest(), y.dtype.str, hashlib.sha256(y.tobytes()).hexdigest())


def seed_run_config(seed: int) -> Config:
    """The protocol a committed run at fold seed ``seed`` is made for: the notebook's full :class:`Config`
    (every data set, the coarse grid, nested CV with 3 inner folds)."""
    return Config(seeds=(int(seed),))


def seed_run_keys(seeds, config: Config | None = None) -> dict:
    """``{seed: seed_run_key(config, seed)}`` (default: :func:`seed_run_config`'s), the data sets read once."""
    digests = {name: _data_digest(name) for name in (config or Config()).names}
    return {int(seed): seed_run_key(config or seed_run_config(seed), seed, digests) for seed in seeds}


def seed_run(seed: int, n_jobs=1):
    """One committed run (what ``python -m companion.sweep --runs --only 01`` runs per seed): :func:`run`'s
    rows of every data set at the fold seed ``seed``, as a seed other than the main one (no protocol (c)).

    Parameters
    ----------
    seed : int
    n_jobs : int, default=1

    Returns
    -------
    frame : pandas.DataFrame
    key : str
        :func:`seed_run_key`.
    config : str
        The protocol in words.
    """
    config = seed_run_config(seed)
    frames = []
    for name in config.names:
        X, y = load_table1_dataset(name)
        frames.append(_seed_rows(name, X, y, cdist(X, X), config, seed, main=False, n_jobs=n_jobs))
    frame = pd.concat(frames, ignore_index=True)
    return frame, seed_run_key(config, seed), repr(config)


def _fold_rows(results: GridResults, machine, protocol, indices, method=None, **per_fold) -> list:
    """One row per fold of the grid points ``indices`` (each ending with its fold) of ``machine``."""
    errors, sizes = {m: (e, s) for m, e, s in grid_machines(results)}[machine]
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
