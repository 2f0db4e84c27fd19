"""Shared evaluation pieces: seeded folds and the paper-vs-ours comparison table.

>>> import pandas as pd
>>> comparison_table(pd.Series({"a": 3.0, "b": 5.0}), pd.Series({"a": 4.0, "b": 5.0}))
   paper  ours  difference
a    3.0   4.0         1.0
b    5.0   5.0         0.0
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

__all__ = ["stratified_folds", "comparison_table"]


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
