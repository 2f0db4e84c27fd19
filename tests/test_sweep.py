"""``python -m companion.sweep``: each claim's verdicts over fold seeds, serial or on Dask.

The slow tests run notebook 02 (the fastest notebook with a ``seed`` parameter) in fast mode at
three seeds: serially, on a ``LocalCluster`` of two worker processes (``--workers 2``), and on a
cluster given by its scheduler's address while one of its workers is killed mid-sweep. The task
files and tables must be byte for byte those of the serial run.
"""

import csv
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from companion import sweep
from companion._seed_sweep import (
    SeedTask,
    is_done,
    notebook_digest,
    parse_seeds,
    stability_tables,
    write_task,
)
from companion.paths import NOTEBOOKS

NOTEBOOK = next(NOTEBOOKS.glob("02_*.ipynb"))
SEEDS = "0:3"


def _files(folder: Path) -> dict[str, bytes]:
    """Every result file of a sweep (the time log aside, which records wall times)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*.csv"))
            if p.name != "task_times.csv"}


def _task_rows(seed, verdicts, digest="d"):
    return [{"notebook": "07", "seed": seed, "id": claim, "origin": "paper", "central": "True",
             "verdict": verdict, "check_verdict": check, "notebook_sha256": digest}
            for claim, (verdict, check) in verdicts.items()]


@pytest.mark.parametrize("text, seeds", [("0:4", [0, 1, 2, 3]), ("3,1,3", [3, 1]), (" 9 ", [9]), ("2:3", [2])])
def test_seeds_are_read_as_ranges_lists_or_one(text, seeds):
    assert parse_seeds(text) == seeds


@pytest.mark.parametrize("text, words", [("3:1", "no seed"), ("a:b", "integers"), ("-2,1", "0 or more"), ("", "no seed")])
def test_bad_seeds_are_refused_with_the_reason(text, words):
    with pytest.raises(ValueError, match=words):
        parse_seeds(text)


def test_stability_counts_verdicts_and_names_the_flipping_seeds(tmp_path):
    per_seed = {0: {"a": ("holds", "fails"), "b": ("fails", "")}, 1: {"a": ("undecided", "fails"), "b": ("fails", "")},
                2: {"a": ("holds", "holds"), "b": ("fails", "")}, 3: {"a": ("undecided", "fails"), "b": ("fails", "")},
                4: {"a": ("holds", "fails"), "b": ("fails", "")}}
    for seed, verdicts in per_seed.items():
        write_task(SeedTask("07_x.ipynb", seed).path(tmp_path), _task_rows(seed, verdicts))
    verdicts, stability = stability_tables(tmp_path, "07", [4, 0, 1, 2, 3])
    assert [(r["id"], r["seed"], r["verdict"]) for r in verdicts][:5] == [
        ("a", 0, "holds"), ("a", 1, "undecided"), ("a", 2, "holds"), ("a", 3, "undecided"), ("a", 4, "holds")]
    assert [(r["id"], r["judged"], r["verdict"], r["seeds"], r["of"], r["at_seeds"]) for r in stability] == [
        ("a", "main", "holds", 3, 5, ""),
        ("a", "main", "undecided", 2, 5, "1 3"),
        ("a", "check", "fails", 4, 5, ""),
        ("a", "check", "holds", 1, 5, "2"),
        ("b", "main", "fails", 5, 5, ""),  # no honest check: no check row
    ]


def test_stability_tie_puts_the_verdict_of_the_smaller_seed_first(tmp_path):
    for seed, verdict in {5: "fails", 6: "holds"}.items():
        write_task(SeedTask("07_x.ipynb", seed).path(tmp_path), _task_rows(seed, {"a": (verdict, "")}))
    _, stability = stability_tables(tmp_path, "07", [5, 6])
    assert [(r["verdict"], r["at_seeds"]) for r in stability] == [("fails", ""), ("holds", "6")]


def test_a_task_file_counts_as_done_only_for_the_same_notebook_text(tmp_path):
    path = SeedTask("07_x.ipynb", 1).path(tmp_path)
    assert not is_done(path, notebook_digest("{}"))
    write_task(path, _task_rows(1, {"a": ("holds", "")}, digest=notebook_digest("{}")))
    assert is_done(path, notebook_digest("{}"))
    assert not is_done(path, notebook_digest('{"changed": 1}'))  # an edited notebook is run again
    assert [p.name for p in path.parent.iterdir()] == ["seed-1.csv"]  # written whole: no scratch file left


@pytest.mark.parametrize("argv, words", [
    (["--only", "00", "--seeds", "0:2"], "declares no `seed` parameter"),
    (["--only", "02", "--seeds", "2:2"], "no seed"),
    (["--only", "02", "--seeds", "0:2", "-p", "seed", "3"], "sets each task's seed"),
    (["--only", "02", "--seeds", "0:2", "-p", "n_cv_repets", "3"], "did you mean 'n_cv_repeats'"),
    (["--only", "02", "--seeds", "0:2", "-p", "n_cv_repeats", "many"], "is not an int"),
    (["--only", "02", "--seeds", "0:2", "--workers", "0"], "at least one worker"),
    (["--only", "02", "--seeds", "0:2", "--workers", "2", "--scheduler", "tcp://x:1"], "not allowed with"),
])
def test_usage_errors_exit_2_before_any_task(argv, words, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        sweep.main([*argv, "--output-dir", str(tmp_path / "out")])
    assert exit_info.value.code == 2
    assert words in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    """The serial sweep: fast notebook 02 at seeds 0, 1, 2, in this process."""
    out = tmp_path_factory.mktemp("serial")
    assert sweep.main(["--only", "02", "--seeds", SEEDS, "--fast", "--output-dir", str(out)]) == 0
    return out


@pytest.mark.slow
def test_serial_sweep_writes_one_file_per_task_and_a_rerun_skips_them(serial, capsys):
    files = _files(serial)
    assert sorted(files) == ["02_seed_stability.csv", "02_seed_verdicts.csv",
                             "tasks/02/seed-0.csv", "tasks/02/seed-1.csv", "tasks/02/seed-2.csv"]
    stability = list(csv.DictReader((serial / "02_seed_stability.csv").open()))
    claims = {row["id"] for row in csv.DictReader((serial / "tasks/02/seed-0.csv").open())}
    assert {row["id"] for row in stability} == claims and claims
    assert all(row["of"] == "3" for row in stability)
    capsys.readouterr()
    assert sweep.main(["--only", "02", "--seeds", SEEDS, "--fast", "--output-dir", str(serial)]) == 0
    assert "3 of 3 tasks already done" in capsys.readouterr().out
    assert _files(serial) == files


def _kill_a_busy_worker(tasks: Path, killed: dict, deadline_s: float = 600) -> None:
    """Once a first task file is written, SIGKILL a worker process of this process's LocalCluster
    that is running a task (a child process with a Jupyter kernel under it)."""
    import psutil

    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline and not list(tasks.glob("seed-*.csv")):
        time.sleep(0.2)
    finished = list(tasks.glob("seed-*.csv"))
    if not finished:
        return
    killed["finished"] = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in finished}
    while time.monotonic() < deadline:
        for worker in psutil.Process().children():
            try:
                busy = any("ipykernel" in " ".join(child.cmdline()) for child in worker.children(recursive=True))
            except psutil.Error:
                continue
            if busy:
                os.kill(worker.pid, signal.SIGKILL)
                killed["worker"] = worker.pid
                return
        time.sleep(0.2)


@pytest.mark.slow
def test_local_cluster_of_two_processes_gives_the_serial_results_though_a_worker_is_killed(serial, tmp_path):
    """``--workers 2``: a LocalCluster of two worker processes. After a first task has finished,
    one worker is killed (SIGKILL) while it runs a task: the finished task's file stays as
    written, the killed task runs again (Dask re-runs it; the nanny restarts the worker), and
    the sweep ends with the serial run's files, byte for byte."""
    out = tmp_path / "cluster"
    killed = {}
    killer = threading.Thread(target=_kill_a_busy_worker, args=(out / "tasks" / "02", killed), daemon=True)
    killer.start()
    status = sweep.main(["--only", "02", "--seeds", SEEDS, "--fast", "--workers", "2", "--output-dir", str(out)])
    killer.join(timeout=60)
    assert "worker" in killed, "no worker was killed mid-sweep"
    assert status == 0
    for path, (content, mtime) in killed["finished"].items():
        assert path.read_bytes() == content and path.stat().st_mtime_ns == mtime  # never rewritten
    assert _files(out) == _files(serial)
    workers = {line.split(",")[3] for line in (out / "task_times.csv").read_text().splitlines()[1:]}
    assert len(workers) >= 2 and all(w.startswith("tcp://") for w in workers)  # worker processes did the work


@pytest.mark.slow
def test_a_scheduler_address_is_used_and_finished_tasks_are_not_sent_again(serial, tmp_path, capsys):
    """``--scheduler ADDRESS``: the sweep connects to a running cluster; resuming a sweep whose
    tasks are all written sends nothing and rewrites the tables from the task files."""
    import shutil

    from distributed import LocalCluster

    out = tmp_path / "resumed"
    shutil.copytree(serial / "tasks", out / "tasks")
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        status = sweep.main(["--only", "02", "--seeds", SEEDS, "--fast", "--scheduler", cluster.scheduler_address,
                             "--output-dir", str(out)])
    printed = capsys.readouterr().out
    assert status == 0
    assert f"on {cluster.scheduler_address} (1 workers)" in printed and "3 of 3 tasks already done" in printed
    assert _files(out) == _files(serial)
