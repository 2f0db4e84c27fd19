"""What the toy paper runs and on which folds: its learner, ``Config`` and ``run``."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from companion.evaluation import parallel_map, stratified_folds
from companion.experiments.protocol import check_tidy


class ThresholdStump(ClassifierMixin, BaseEstimator):
    """Predict class 1 where the first feature exceeds the threshold with fewest training errors."""

    def fit(self, X, y):
        X, y = validate_data(self, X, y)
        self.classes_ = np.unique(y)
        order = np.sort(X[:, 0])
        candidates = (order[1:] + order[:-1]) / 2
        errors = ((X[None, :, 0] > candidates[:, None]) != (y == self.classes_[-1])[None, :]).sum(axis=1)
        self.threshold_ = float(candidates[int(np.argmin(errors))])  # the first of equal counts
        return self

    def predict(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return np.where(X[:, 0] > self.threshold_, self.classes_[-1], self.classes_[0])


@dataclass(frozen=True)
class Config:
    """Everything the numbers depend on."""

    seed: int = 0
    other_seeds: tuple = (1, 2, 3, 4)
    n_rows: int = 300
    n_folds: int = 10

    @classmethod
    def fast(cls, seed: int = 0) -> "Config":
        return cls(seed=seed, other_seeds=(seed + 1, seed + 2), n_rows=120)


def _table(config):
    rng = np.random.default_rng(12345)  # the data are the paper's, fixed; the seed draws the folds
    X = rng.uniform(-5, 5, size=(config.n_rows, 2))
    y = (X[:, 0] + rng.normal(0, 1.5, config.n_rows) > 0).astype(int)
    return X, y


def _one_fold(item):
    X, y, seed, fold, (train, test) = item
    stump = ThresholdStump().fit(X[train], y[train])
    majority = np.bincount(y[train]).argmax()
    return [
        {"dataset": "toy", "method": "stump", "seed": seed, "fold": fold, "n_test": len(test),
         "errors": int((stump.predict(X[test]) != y[test]).sum()), "threshold": stump.threshold_},
        {"dataset": "toy", "method": "majority", "seed": seed, "fold": fold, "n_test": len(test),
         "errors": int((y[test] != majority).sum()), "threshold": np.nan},
    ]


def run(config: Config, n_jobs: int = 1) -> pd.DataFrame:
    """One row per (data set, method, seed, fold): test errors, test size and the threshold."""
    X, y = _table(config)
    items = [(X, y, seed, fold, split) for seed in (config.seed, *config.other_seeds)
             for fold, split in enumerate(stratified_folds(y, config.n_folds, seed))]
    rows = [row for rows in parallel_map(_one_fold, items, n_jobs=n_jobs) for row in rows]
    return check_tidy(pd.DataFrame(rows))
