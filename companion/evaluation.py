"""Shared evaluation pieces: seeded folds and the paper-vs-ours comparison table.

>>> import pandas as pd
>>> comparison_table(pd.Series({"a": 3.0, "b": 5.0}), pd.Series({"a": 4.0, "b": 5.0}))
   paper  ours  difference
a    3.0   4.0         1.0
b    5.0   5.0         0.0
"""

from __future__ import annotations

import warnings

import joblib
import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold

__all__ = ["stratified_folds", "comparison_table", "parallel_map", "fold_errors"]


def stratified_folds(y, n_splits: int = 10, seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    """Return the ``(train_index, test_index)`` pairs of a seeded stratified K-fold split.

    The same list is reused for every learner compared on a data set, so that differences
    between learners are not differences between folds.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Labels (any values).
    n_splits : int, default=10
    seed : int, default=0
        Seed of the shuffle.

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
    """
    table = pd.concat({"paper": pd.Series(paper, dtype=float), "ours": pd.Series(ours, dtype=float)}, axis=1)
    table["difference"] = table["ours"] - table["paper"]
    return table


def parallel_map(function, items, *, n_jobs: int = 1) -> list:
    """``[function(item) for item in items]`` through joblib, in order.

    Every cross-validation and grid loop of the notebooks goes through here, so the same code runs
    serially (``n_jobs=1``, the default and what CI uses), on local cores (``n_jobs=-1``) or on a
    Dask cluster: inside ``with joblib.parallel_backend("dask"):`` (after creating a
    ``distributed.Client``) the items are shipped to the cluster's workers. Results are identical
    in all three cases because each item carries its own seed.

    >>> parallel_map(abs, [-2, 3, -5])
    [2, 3, 5]
    """
    if n_jobs == 1:
        return [function(item) for item in items]
    with warnings.catch_warnings():
        # joblib's process workers restart themselves when their resident memory has grown by
        # 300 MB since their first item (freed heap that the C allocator keeps counts as growth)
        # and warn that "a worker stopped". Every item is still computed exactly once, so the
        # results are unaffected; the warning would only make notebook outputs vary between runs.
        warnings.filterwarnings("ignore", message="A worker stopped while some jobs", category=UserWarning)
        return joblib.Parallel(n_jobs=n_jobs)(joblib.delayed(function)(item) for item in items)


def fold_errors(estimator, X, y, folds, *, n_jobs: int = 1) -> np.ndarray:
    """Number of test errors of a clone of ``estimator`` on each ``(train, test)`` fold.

    The paper's measure in Table 1 of the DLM paper is the sum of this array.

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
