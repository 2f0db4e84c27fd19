"""Shared evaluation helpers, including the same results on a Dask cluster (issue 8)."""

import joblib
import numpy as np
import pandas as pd
import pytest
from sklearn.tree import DecisionTreeClassifier

from companion.evaluation import comparison_table, fold_errors, parallel_map, stratified_folds


def test_folds_partition_and_are_seeded():
    y = np.array([0] * 30 + [1] * 12)
    folds = stratified_folds(y, 10, seed=3)
    tests = np.concatenate([t for _, t in folds])
    assert sorted(tests.tolist()) == list(range(42))
    assert all(set(tr).isdisjoint(te) for tr, te in folds)
    again = stratified_folds(y, 10, seed=3)
    assert all((a[1] == b[1]).all() for a, b in zip(folds, again))
    other = stratified_folds(y, 10, seed=4)
    assert any((a[1] != b[1]).any() for a, b in zip(folds, other) if len(a[1]) == len(b[1]))


def test_comparison_table_keeps_unmatched_rows():
    table = comparison_table(pd.Series({"a": 1.0}), pd.Series({"a": 1.5, "b": 2.0}))
    assert table.loc["a", "difference"] == 0.5
    assert np.isnan(table.loc["b", "paper"])


def _data(rng):
    X = rng.normal(size=(120, 5))
    y = (X[:, 0] + 0.5 * rng.normal(size=120) > 0).astype(int)
    return X, y


def test_parallel_map_matches_serial_with_processes(rng):
    X, y = _data(rng)
    folds = stratified_folds(y, 5, seed=0)
    serial = fold_errors(DecisionTreeClassifier(random_state=0), X, y, folds)
    parallel = fold_errors(DecisionTreeClassifier(random_state=0), X, y, folds, n_jobs=2)
    assert serial.tolist() == parallel.tolist()
    assert parallel_map(str, [1, 2], n_jobs=2) == ["1", "2"]


def test_dask_backend_gives_identical_results(rng):
    """The same CV run through joblib's dask backend on an in-process LocalCluster."""
    distributed = pytest.importorskip("distributed")
    X, y = _data(rng)
    folds = stratified_folds(y, 5, seed=0)
    serial = fold_errors(DecisionTreeClassifier(random_state=0), X, y, folds)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster, distributed.Client(cluster):
        with joblib.parallel_backend("dask"):
            on_cluster = fold_errors(DecisionTreeClassifier(random_state=0), X, y, folds, n_jobs=2)
    assert serial.tolist() == on_cluster.tolist()
