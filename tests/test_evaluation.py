"""Shared evaluation helpers, including the same results on a Dask cluster (issue 8)."""

from functools import partial

import joblib
import numpy as np
import pandas as pd
import pytest
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils._param_validation import InvalidParameterError

from companion.evaluation import comparison_table, fold_errors, parallel_map, stratified_folds
from companion.experiments._trusted import trusted_inputs


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


@pytest.mark.slow
def test_parallel_map_matches_serial_with_processes(rng):
    X, y = _data(rng)
    folds = stratified_folds(y, 5, seed=0)
    serial = fold_errors(DecisionTreeClassifier(random_state=0), X, y, folds)
    parallel = fold_errors(DecisionTreeClassifier(random_state=0), X, y, folds, n_jobs=2)
    assert serial.tolist() == parallel.tolist()
    assert parallel_map(str, [1, 2], n_jobs=2) == ["1", "2"]


@pytest.mark.slow
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


# Progress lines (issue 14): opt-in through COMPANION_PROGRESS, so notebook outputs never hold them.


def _square(x):
    return x * x


#: A progress line for every item (the default interval is a few seconds).
EVERY_ITEM = dict(progress_interval=0.0)


def test_no_progress_without_the_environment_variable(monkeypatch, capsys):
    monkeypatch.delenv("COMPANION_PROGRESS", raising=False)
    assert parallel_map(_square, range(4), **EVERY_ITEM) == [0, 1, 4, 9]
    monkeypatch.setenv("COMPANION_PROGRESS", "0")
    assert parallel_map(_square, range(4), **EVERY_ITEM) == [0, 1, 4, 9]
    assert capsys.readouterr() == ("", "")


def test_progress_lines_on_stderr_name_the_loop(monkeypatch, capsys):
    monkeypatch.setenv("COMPANION_PROGRESS", "1")
    assert parallel_map(partial(pow, 2), [1, 2, 3], **EVERY_ITEM) == [2, 4, 8]
    assert parallel_map(_square, range(3), progress="folds", **EVERY_ITEM) == [0, 1, 4]
    out, err = capsys.readouterr()
    assert out == ""
    lines = [line.split(" (")[0] for line in err.splitlines()]
    assert lines == ["pow: 1/3", "pow: 2/3", "pow: 3/3", "folds: 1/3", "folds: 2/3", "folds: 3/3"]
    parallel_map(_square, range(3), progress=False, **EVERY_ITEM)
    assert capsys.readouterr().err == ""


def test_progress_to_a_file_counts_parallel_items_in_order(monkeypatch, tmp_path):
    log = tmp_path / "progress.log"
    monkeypatch.setenv("COMPANION_PROGRESS", str(log))
    assert parallel_map(partial(pow, 3), range(5), n_jobs=2, **EVERY_ITEM) == [1, 3, 9, 27, 81]
    lines = [line.split(" (")[0] for line in log.read_text().splitlines()]
    assert lines == [f"pow: {k}/5" for k in range(1, 6)]


def test_short_loops_print_nothing(monkeypatch, capsys):
    monkeypatch.setenv("COMPANION_PROGRESS", "1")
    assert parallel_map(_square, range(3)) == [0, 1, 4]
    assert capsys.readouterr().err == ""


def test_progress_that_cannot_be_written_changes_nothing(monkeypatch, tmp_path):
    monkeypatch.setenv("COMPANION_PROGRESS", str(tmp_path / "missing-folder" / "progress.log"))
    assert parallel_map(_square, range(3), **EVERY_ITEM) == [0, 1, 4]


def test_progress_label_is_checked():
    message = r"The 'progress' parameter of parallel_map must be an instance of 'str', .* or None\. Got 3 instead"
    with pytest.raises(InvalidParameterError, match=message):
        parallel_map(_square, range(3), progress=3)


def test_trusted_inputs_skips_only_the_repeated_checks_and_restores_the_configuration(rng):
    import sklearn

    from companion import SetCoveringStumps

    before = sklearn.get_config()
    X, y = rng.normal(size=(60, 5)), rng.integers(0, 2, 60)
    checked = SetCoveringStumps().fit(X, y)
    with trusted_inputs():
        config = sklearn.get_config()
        assert config["skip_parameter_validation"] and config["assume_finite"]
        trusted = SetCoveringStumps().fit(X, y)
        with pytest.raises(ValueError):  # shapes and labels are still checked
            SetCoveringStumps().fit(X, y[:-1])
    assert sklearn.get_config() == before
    assert trusted.to_dict() == checked.to_dict()
    with pytest.raises(ValueError, match="SetCoveringStumps"):  # outside, parameters are validated again
        SetCoveringStumps(p=-1.0).fit(X, y)
