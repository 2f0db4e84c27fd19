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

import os
import sys
import time
import warnings
from functools import partial

import hashlib

import joblib
import numpy as np
import pandas as pd
import sklearn
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold

from companion.paths import PROGRESS_ENV

__all__ = [
    "stratified_folds", "comparison_table", "parallel_map", "progress_lines", "trusted_inputs", "fold_errors",
    "fold_hash",
]

#: Seconds between two progress lines of one loop, unless ``COMPANION_PROGRESS_INTERVAL`` says otherwise.
_DEFAULT_PROGRESS_INTERVAL = 5.0


def _progress_interval() -> float:
    """``COMPANION_PROGRESS_INTERVAL`` as a number of seconds >= 0, else the default."""
    value = os.environ.get("COMPANION_PROGRESS_INTERVAL", "").strip()
    if not value:
        return _DEFAULT_PROGRESS_INTERVAL
    try:
        seconds = float(value)
    except ValueError:
        seconds = float("nan")
    if not seconds >= 0:  # also refuses nan
        raise ValueError(f"COMPANION_PROGRESS_INTERVAL must be a number of seconds >= 0, got {value!r}")
    return seconds


def stratified_folds(y, n_splits: int = 10, seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    """Return the ``(train_index, test_index)`` pairs of a seeded stratified K-fold split.

    The same list is reused for every learner compared on a data set, so that differences
    between learners are not differences between folds.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Labels (any values).
    n_splits : int, default=10
        Number of folds.
    seed : int, default=0
        Seed of the shuffle.

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


def _progress_label(function) -> str:
    """A readable name for the loop over ``function``: its (unwrapped) qualified name.

    >>> def _one_fold(item): ...
    >>> _progress_label(partial(_one_fold, 3))
    'one_fold'
    >>> _progress_label(lambda item: item)
    'items'
    """
    while isinstance(function, partial):
        function = function.func
    name = getattr(function, "__qualname__", None) or type(function).__name__
    name = name.replace(".<locals>", "")
    return "items" if name.endswith("<lambda>") else name.lstrip("_")


class _Progress:
    """``label: done/total (elapsed)`` lines, at most one per interval, to stderr or a file.

    Written for a person watching a long run; never raises (a progress line that cannot be
    written is dropped), so it cannot change what a protocol computes.
    """

    def __init__(self, target: str, label: str, total: int, interval: float | None = None):
        self.target, self.label, self.total = target, label, total
        self.interval = _progress_interval() if interval is None else interval
        self.start = self.last = time.monotonic()
        self.shown = False

    def update(self, done: int) -> None:
        now = time.monotonic()
        finished = done == self.total
        # Short loops print nothing; a loop that printed ends with its final count.
        if now - self.last >= self.interval or (finished and self.shown):
            self.last, self.shown = now, True
            self._write(f"{self.label}: {done}/{self.total} ({now - self.start:.0f} s)\n")

    def _write(self, line: str) -> None:
        try:
            if self.target in ("1", "stderr"):
                sys.stderr.write(line)
                sys.stderr.flush()
            else:
                with open(self.target, "a", encoding="utf-8") as handle:  # one short append
                    handle.write(line)
        except (OSError, ValueError):
            pass


def _progress_target() -> str | None:
    target = os.environ.get(PROGRESS_ENV, "").strip()
    return None if target in ("", "0") else target


def progress_lines(label: str, total: int):
    """The progress of one long loop, or None when ``COMPANION_PROGRESS`` is unset (module doc).

    What :func:`parallel_map` writes, for a loop inside one fit (a ball machine's greedy steps, a
    kernel perceptron's updates): ``label: done/total (elapsed)`` at most every few seconds, to
    standard error or the file the variable names. A learner calls ``update(done)`` on the
    returned object when it is not None; it never changes what the loop computes.

    Parameters
    ----------
    label : str
        Start of each line (the learner's name and what it counts).
    total : int
        The count at which the loop would end at the latest.

    Returns
    -------
    object with ``update(done)``, or None

    Examples
    --------
    >>> import os
    >>> os.environ.pop("COMPANION_PROGRESS", None) and None
    >>> progress_lines("KernelPerceptron updates", 100) is None
    True
    """
    target = _progress_target()
    return None if target is None else _Progress(target, label, int(total))


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
    n_jobs : int, default=1
        Workers (``-1``: every core).
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
    if not (progress is None or isinstance(progress, (str, bool, np.bool_))):
        raise TypeError(f"progress must be a label (str), True/False or None, got {progress!r}")
    target = _progress_target() if progress is not False else None
    if target is None:
        if n_jobs == 1:
            return [function(item) for item in items]
        with warnings.catch_warnings():
            _ignore_worker_restarts()
            return joblib.Parallel(n_jobs=n_jobs)(joblib.delayed(function)(item) for item in items)

    items = list(items)
    label = progress if isinstance(progress, str) else _progress_label(function)
    tracker = _Progress(target, label, len(items), progress_interval)
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


def trusted_inputs():
    """Context in which scikit-learn skips its per-call checks: for protocol loops on validated data.

    Inside it, ``fit``/``predict`` skip the declarative parameter validation and the finiteness
    scan of their inputs (``sklearn.config_context(skip_parameter_validation=True,
    assume_finite=True)``); every other check (shapes, dtypes, labels) still runs, and the models
    are the same. A protocol enters it inside each item of :func:`parallel_map` (a worker process
    does not inherit the parent's configuration) once its data come from a verified loader and its
    parameters are the protocol's fixed grid: across the hundreds of small fits of a fold those
    checks, repeated on the same arrays, cost about a fifth of the time. Never around a user's
    call.

    Returns
    -------
    contextlib.AbstractContextManager
        The configuration context; scikit-learn's previous configuration is restored on exit.
    """
    return sklearn.config_context(skip_parameter_validation=True, assume_finite=True)


def _ignore_worker_restarts() -> None:
    # joblib's process workers restart themselves when their resident memory has grown by
    # 300 MB since their first item (freed heap that the C allocator keeps counts as growth)
    # and warn that "a worker stopped". Every item is still computed exactly once, so the
    # results are unaffected; the warning would only make notebook outputs vary between runs.
    warnings.filterwarnings("ignore", message="A worker stopped while some jobs", category=UserWarning)


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
    folds : list of (array, array)
        ``(train_index, test_index)`` pairs (:func:`stratified_folds`).
    n_jobs : int, default=1
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
