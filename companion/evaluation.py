"""Shared evaluation pieces: seeded folds, the paper-vs-ours comparison table, and the loop
(:func:`parallel_map`) every protocol runs its folds and draws through.

Progress over long loops is opt-in, so that notebook outputs never contain it: with the
environment variable ``COMPANION_PROGRESS`` set, :func:`parallel_map` reports
``label: done/total (elapsed)`` lines at most every few seconds, and so do the long loops inside
one fit (:func:`progress_lines`: a ball machine's greedy steps, a kernel perceptron's updates). ``COMPANION_PROGRESS=1`` (or
``stderr``) writes them to standard error; any other value is a file the lines are appended to
(``python -m companion.reproduce`` uses one, forwarded to its terminal, so the executed notebooks
stay byte-identical). Unset, empty or ``0``: no progress. ``COMPANION_PROGRESS_INTERVAL`` sets
the least number of seconds between two lines of one loop (default 5; 0: a line at every step).

>>> import pandas as pd
>>> comparison_table(pd.Series({"a": 3.0, "b": 5.0}), pd.Series({"a": 4.0, "b": 5.0}))
   paper  ours  difference
a    3.0   4.0         1.0
b    5.0   5.0         0.0
"""

from __future__ import annotations

import hashlib
import warnings
from collections.abc import Iterable
from numbers import Integral, Real

import joblib
import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold
from sklearn.utils._param_validation import HasMethods, validate_params

from companion._progress import Progress, progress_label, progress_target
from companion.numerics import StrictInterval

__all__ = [
    "stratified_folds", "comparison_table", "parallel_map", "fold_errors",
    "fold_hash",
]

#: joblib's worker count: an int, not a bool (``-1``: every core), or None (joblib's default, one
#: worker outside a ``parallel_config``). The one declaration of ``n_jobs``: the experiments' sections take it from here.
N_JOBS_CONSTRAINTS = [StrictInterval(Integral, None, None, closed="neither"), None]


@validate_params(
    {
        "y": ["array-like"],
        "n_splits": [StrictInterval(Integral, 2, None, closed="left")],
        "seed": [StrictInterval(Integral, 0, 2**32 - 1, closed="both")],  # numpy's seeds
    },
    prefer_skip_nested_validation=True,
)
def stratified_folds(y, n_splits: int = 10, seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    """Return the ``(train_index, test_index)`` pairs of a seeded stratified K-fold split.

    The same list is reused for every learner compared on a data set, so that differences
    between learners are not differences between folds.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Labels (any values).
    n_splits : int, default=10
        Number of folds (at least 2).
    seed : int, default=0
        Seed of the shuffle, in ``[0, 2**32 - 1]``.

    Returns
    -------
    list of (numpy.ndarray, numpy.ndarray)
        The ``(train_index, test_index)`` pair of each fold, fold 0 first.

    Examples
    --------
    >>> folds = stratified_folds([0, 1] * 10, n_splits=5, seed=1)
    >>> len(folds), sorted(np.concatenate([test for _, test in folds]).tolist()) == list(range(20))
    (5, True)
    """
    y = np.asarray(y)
    splitter = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=seed)
    return list(splitter.split(np.zeros((len(y), 1)), y))


@validate_params({"paper": [pd.Series], "ours": [pd.Series]}, prefer_skip_nested_validation=True)
def comparison_table(paper: pd.Series, ours: pd.Series) -> pd.DataFrame:
    """Side-by-side table with columns ``paper``, ``ours`` and ``difference`` (= ours - paper).

    Rows are the union of both indexes; a number missing on one side gives NaN, so a paper
    number we could not reproduce stays visible.

    Parameters
    ----------
    paper : pandas.Series
        The paper's numbers.
    ours : pandas.Series
        Ours, indexed as ``paper``.

    Returns
    -------
    pandas.DataFrame
        Columns ``paper``, ``ours``, ``difference``.
    """
    table = pd.concat({"paper": pd.Series(paper, dtype=float), "ours": pd.Series(ours, dtype=float)}, axis=1)
    table["difference"] = table["ours"] - table["paper"]
    return table


# Nested validation stays on: ``function`` is the caller's, and what it calls checks its arguments.
@validate_params(
    {
        "function": [callable],
        "items": ["array-like", Iterable],  # a list of work items, or any iterable (a generator)
        "n_jobs": N_JOBS_CONSTRAINTS,
        "progress": [str, "boolean", None],
        "progress_interval": [StrictInterval(Real, 0, None, closed="left"), None],
    },
    prefer_skip_nested_validation=False,
)
def parallel_map(function, items, *, n_jobs: int = 1, progress: str | bool | None = None,
                 progress_interval: float | None = None) -> list:
    """``[function(item) for item in items]`` through joblib, in order.

    Every cross-validation and grid loop of the notebooks goes through here, so the same code runs
    serially (``n_jobs=1``, the default and what CI uses), on local cores (``n_jobs=-1``) or on a
    Dask cluster: inside ``with joblib.parallel_backend("dask"):`` (after creating a
    ``distributed.Client``) the items are shipped to the cluster's workers. Results are identical
    in all three cases because each item carries its own seed.

    Parameters
    ----------
    function : callable
        Called on each item; it must be picklable for ``n_jobs != 1``.
    items : iterable
        The work items.
    n_jobs : int or None, default=1
        Workers (``-1``: every core; None: joblib's default).
    progress : str or bool, optional
        Label of the progress lines (default: the function's name); ``False``: none. Lines are
        written only when the environment variable ``COMPANION_PROGRESS`` is set (module doc);
        they never change the results.
    progress_interval : float, optional
        Seconds at least between two progress lines (default: ``COMPANION_PROGRESS_INTERVAL``,
        else 5).

    Returns
    -------
    list
        ``function(item)`` for each item, in the items' order.

    Examples
    --------
    >>> parallel_map(abs, [-2, 3, -5])
    [2, 3, 5]
    """
    target = progress_target() if progress is not False else None
    if target is None:
        if n_jobs == 1:
            return [function(item) for item in items]
        with warnings.catch_warnings():
            _ignore_worker_restarts()
            return joblib.Parallel(n_jobs=n_jobs)(joblib.delayed(function)(item) for item in items)

    items = list(items)
    label = progress if isinstance(progress, str) else progress_label(function)
    tracker = Progress(target, label, len(items), progress_interval)
    results = []
    if n_jobs == 1:  # exactly the serial loop above (no warnings context: same warnings shown)
        for item in items:
            results.append(function(item))
            tracker.update(len(results))
        return results
    with warnings.catch_warnings():
        _ignore_worker_restarts()
        # A generator yields the results in order as they complete, so they can be counted.
        outputs = joblib.Parallel(n_jobs=n_jobs, return_as="generator")(
            joblib.delayed(function)(item) for item in items
        )
        for output in outputs:
            results.append(output)
            tracker.update(len(results))
    return results


def _ignore_worker_restarts() -> None:
    # joblib's process workers restart themselves when their resident memory has grown by
    # 300 MB since their first item (freed heap that the C allocator keeps counts as growth)
    # and warn that "a worker stopped". Every item is still computed exactly once, so the
    # results are unaffected; the warning would only make notebook outputs vary between runs.
    warnings.filterwarnings("ignore", message="A worker stopped while some jobs", category=UserWarning)


# Nested validation stays on: the clones' fits validate the estimator's parameters.
@validate_params(
    {
        "estimator": [HasMethods(["fit", "predict"])],
        "X": ["array-like"],
        "y": ["array-like"],
        "folds": ["array-like", Iterable],  # a list of (train, test) pairs, or any iterable
        "n_jobs": N_JOBS_CONSTRAINTS,
    },
    prefer_skip_nested_validation=False,
)
def fold_errors(estimator, X, y, folds, *, n_jobs: int = 1) -> np.ndarray:
    """Number of test errors of a clone of ``estimator`` on each ``(train, test)`` fold.

    The paper's measure in Table 1 of the DLM paper is the sum of this array.

    Parameters
    ----------
    estimator : estimator
        Cloned and fitted on each training fold.
    X : array-like of shape (n_samples, n_features)
        The examples.
    y : array-like of shape (n_samples,)
        Their labels.
    folds : iterable of (array, array)
        ``(train_index, test_index)`` pairs (:func:`stratified_folds`).
    n_jobs : int or None, default=1
        Workers of :func:`parallel_map`; the result does not depend on it.

    Returns
    -------
    numpy.ndarray of int
        Test errors of each fold.

    Examples
    --------
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> X = np.r_[0:10, 100:110].reshape(-1, 1); y = (X[:, 0] >= 100).astype(int)
    >>> fold_errors(DecisionTreeClassifier(), X, y, stratified_folds(y, 5, seed=0)).tolist()
    [0, 0, 0, 0, 0]
    """
    X = X.to_numpy() if hasattr(X, "to_numpy") else np.asarray(X)
    y = y.to_numpy() if hasattr(y, "to_numpy") else np.asarray(y)

    def one_fold(fold):
        train, test = fold
        model = clone(estimator).fit(X[train], y[train])
        return int(np.sum(model.predict(X[test]) != y[test]))

    return np.asarray(parallel_map(one_fold, folds, n_jobs=n_jobs))


@validate_params({"folds": ["array-like"]}, prefer_skip_nested_validation=True)
def fold_hash(folds) -> str:
    """The sha256 of a fold vector written ``"0,3,1,..."`` (the hash the peers' runners record).

    ``peers/widc_peers.py`` and ``peers/prism_peers.py`` store it beside every split they ran, so
    that a protocol can check that committed peer results belong to the folds it asks for.

    Parameters
    ----------
    folds : array-like of int
        The test fold of every row.

    Returns
    -------
    str
        Hexadecimal digest.

    Examples
    --------
    >>> fold_hash([0, 1]) == fold_hash(np.array([0, 1]))
    True
    >>> fold_hash([0, 1]) == fold_hash([1, 0])
    False
    """
    return hashlib.sha256(",".join(str(int(f)) for f in folds).encode()).hexdigest()
