"""The verdicts of a notebook's claims under many fold seeds: the tasks, their files, their tables.

Plumbing of :mod:`companion.sweep` (the command line). One *task* is one notebook run at one
fold seed, exactly as ``python -m companion.reproduce -p seed S`` runs it
(:func:`companion._notebook_runner.run_notebook`, papermill, into a scratch folder); its result
is the notebook's claims table (``figures/NN_claims.csv`` of that run) cut down to each claim's
verdicts. Every task carries its seed and its notebook's text, so it runs anywhere the package
is installed (a Dask worker on another host included) and in any order.

:func:`run_sweep` runs the tasks serially in this process, or on a ``distributed`` client (a
``LocalCluster`` of worker processes, or a scheduler's address) and writes each task's rows to
``<out>/tasks/<NN>/seed-<S>.csv`` as soon as it finishes (whole or not at all), from the
process that submitted it: a task lost with its worker is run again by Dask on another worker,
and a finished one is never lost. A file already there for the same notebook text is not run
again, so a stopped sweep resumes where it stopped. :func:`stability_tables` reads the task files
and counts, per claim, the seeds giving each verdict.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from companion._files import atomic_path
from companion._notebook_runner import run_notebook

#: The columns of one task's file, one row per claim of the notebook's claims table.
TASK_COLUMNS = ["notebook", "seed", "id", "origin", "central", "verdict", "check_verdict", "notebook_sha256"]

#: The columns of ``NN_seed_stability.csv``: one row per claim, judgement and verdict.
STABILITY_COLUMNS = ["notebook", "id", "origin", "central", "judged", "verdict", "seeds", "of", "at_seeds"]

_NUMBER = re.compile(r"^(\d\d)_")


class SweepTaskError(RuntimeError):
    """A notebook that failed at one seed (the message names the notebook, the seed, the cell)."""


@dataclass(frozen=True)
class SeedTask:
    """One notebook at one fold seed.

    Parameters
    ----------
    notebook : str
        The notebook's file name (``02_prism_contact_lenses.ipynb``).
    seed : int
        The fold seed injected as ``seed``.
    """

    notebook: str
    seed: int

    @property
    def number(self) -> str:
        """The notebook's two digits."""
        return _NUMBER.match(self.notebook).group(1)

    def path(self, out: Path) -> Path:
        """The task's result file under the sweep's folder ``out``."""
        return task_file(out, self.number, self.seed)


def task_file(out: Path, number: str, seed: int) -> Path:
    """Where the task of notebook ``number`` at ``seed`` is written under the sweep's folder ``out``."""
    return Path(out) / "tasks" / number / f"seed-{seed}.csv"


def parse_seeds(text: str) -> list[int]:
    """Seeds from ``A:B`` (``range(A, B)``), ``A:B:STEP`` (``range(A, B, STEP)``), ``A,B,C`` or one number.

    Parameters
    ----------
    text : str
        The ``--seeds`` value.

    Returns
    -------
    list of int
        Distinct non-negative seeds, in the order given.

    Examples
    --------
    >>> parse_seeds("0:3"), parse_seeds("2:9:2"), parse_seeds("5,1,5"), parse_seeds("7")
    ([0, 1, 2], [2, 4, 6, 8], [5, 1], [7])
    """
    text = text.strip()
    try:
        if ":" in text:
            bounds = [int(part) for part in text.split(":")]
            if len(bounds) > 3 or (len(bounds) == 3 and bounds[2] < 1):
                raise ValueError
            seeds = list(range(*bounds))
        else:
            seeds = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise ValueError(f"--seeds {text}: expected A:B (the seeds A to B - 1), A:B:STEP (STEP ≥ 1), A,B,C or one seed, as integers") from None
    if not seeds:
        raise ValueError(f"--seeds {text}: no seed (A:B runs A to B - 1, so B must exceed A)")
    if min(seeds) < 0:
        raise ValueError(f"--seeds {text}: a seed must be 0 or more, got {min(seeds)}")
    return list(dict.fromkeys(seeds))


def notebook_digest(text: str) -> str:
    """sha256 of a notebook's text: a task file made from another version of it is run again."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def seed_task(notebook: str, text: str, seed: int, parameters: dict, kernel_name: str | None = None) -> list[dict]:
    """Run one notebook at one fold seed and return its claims' verdicts (what a worker runs).

    The notebook is written into a scratch folder and executed there by the runner of
    ``python -m companion.reproduce`` with ``seed`` and ``parameters`` injected; its figures and
    tables go to that folder (never to ``figures/``), which is removed afterwards.

    Parameters
    ----------
    notebook : str
        The notebook's file name.
    text : str
        The notebook's JSON text (sent with the task, so that a worker needs no checkout of it).
    seed : int
        The fold seed.
    parameters : dict
        The other injected parameters (``fast`` among them).
    kernel_name : str, optional
        Jupyter kernel (default: the notebook's).

    Returns
    -------
    list of dict
        One row per claim, keys :data:`TASK_COLUMNS`.

    Raises
    ------
    SweepTaskError
        When a cell fails or the run writes no claims table.
    """
    number = _NUMBER.match(notebook).group(1)
    with tempfile.TemporaryDirectory(prefix=f"companion-sweep-{number}-{seed}-") as scratch:
        folder = Path(scratch) / "notebooks"
        folder.mkdir()
        (folder / notebook).write_text(text, encoding="utf-8")
        out = Path(scratch) / "out"
        result = run_notebook(folder / notebook, parameters={**parameters, "seed": seed}, output_dir=out,
                              kernel_name=kernel_name, progress_bar=False)
        if not result.ok:
            where = f"cell {result.failed_cell}" if result.failed_cell is not None else "before any cell"
            raise SweepTaskError(f"{notebook} at seed {seed} failed in {where}: {result.error}")
        claims = out / "figures" / f"{number}_claims.csv"
        if not claims.exists():
            raise SweepTaskError(f"{notebook} at seed {seed} wrote no {claims.name}: it has no claims to sweep")
        with open(claims, encoding="utf-8", newline="") as handle:
            table = list(csv.DictReader(handle))
    digest = notebook_digest(text)
    return [{"notebook": number, "seed": seed, "id": row["id"], "origin": row["origin"], "central": row["central"],
             "verdict": row["verdict"], "check_verdict": row.get("check_verdict", ""), "notebook_sha256": digest}
            for row in table]


def _csv_text(rows: list[dict], columns: list[str]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def write_task(path: Path, rows: list[dict]) -> None:
    """Write one task's rows whole or not at all (a stopped sweep leaves no half file).

    Parameters
    ----------
    path : pathlib.Path
        :meth:`SeedTask.path`.
    rows : list of dict
        :func:`seed_task`'s rows.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as scratch:
        scratch.write_text(_csv_text(rows, TASK_COLUMNS), encoding="utf-8")


def read_task(path: Path) -> list[dict]:
    """The rows of one task file (strings, as written).

    Parameters
    ----------
    path : pathlib.Path
        A task file.

    Returns
    -------
    list of dict
    """
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def is_done(path: Path, digest: str) -> bool:
    """Whether ``path`` holds a finished task of the notebook whose text has sha256 ``digest``."""
    if not path.exists():
        return False
    rows = read_task(path)
    return bool(rows) and all(row["notebook_sha256"] == digest for row in rows)


def _log_time(out: Path, task: SeedTask, seconds: float, where: str) -> None:
    """Append the task's wall time to ``<out>/task_times.csv`` (a log: the results never read it)."""
    log = Path(out) / "task_times.csv"
    new = not log.exists()
    with open(log, "a", encoding="utf-8") as handle:
        if new:
            handle.write("notebook,seed,seconds,where\n")
        handle.write(f"{task.number},{task.seed},{seconds:.1f},{where}\n")


def run_sweep(tasks, texts: dict, out: Path, parameters: dict, *, client=None, kernel_name=None,
              cluster_parameters: dict | None = None, stream=None) -> list[tuple[SeedTask, str]]:
    """Run the tasks not yet done and write each one's file as it finishes.

    Parameters
    ----------
    tasks : list of SeedTask
        Every task of the sweep; those with a file for the same notebook text are skipped.
    texts : dict
        ``notebook file name -> its JSON text``.
    out : pathlib.Path
        The sweep's folder.
    parameters : dict
        Injected into every task (``fast`` among them).
    client : distributed.Client, optional
        Run the tasks on its cluster; None runs them one after another in this process.
    kernel_name : str, optional
        Jupyter kernel.
    cluster_parameters : dict, optional
        ``notebook file name -> parameters`` injected on top of ``parameters`` when the tasks run
        on a client (the sweep gives ``n_jobs = 1`` to the notebooks that declare it: one core
        per task).
    stream : file-like, optional
        Where progress lines go (default: standard output).

    Returns
    -------
    list of (SeedTask, str)
        The tasks that failed, with the error.
    """
    stream = stream or sys.stdout
    digests = {name: notebook_digest(text) for name, text in texts.items()}
    todo = [task for task in tasks if not is_done(task.path(out), digests[task.notebook])]
    if len(todo) < len(tasks):
        print(f"{len(tasks) - len(todo)} of {len(tasks)} tasks already done in {out}: skipped", file=stream, flush=True)
    def finished(position, task, result):
        rows, seconds, where = result
        write_task(task.path(out), rows)
        _log_time(out, task, seconds, where)
        print(f"[{position}/{len(todo)}] {task.notebook} seed {task.seed}: {seconds:.1f} s ({where})", file=stream, flush=True)

    def job(task, on_cluster):
        injected = {**parameters, **(cluster_parameters or {}).get(task.notebook, {})} if on_cluster else parameters
        return (task.notebook, texts[task.notebook], task.seed, injected, kernel_name)

    return _dispatch(todo, _timed_task, job, finished, client=client, stream=stream,
                     key=lambda task: f"sweep-{task.number}-seed-{task.seed}",
                     label=lambda task: f"{task.notebook} seed {task.seed}")


def _dispatch(items, function, arguments, finished, *, client, stream, key, label) -> list:
    """Run ``function(*arguments(item, on_cluster))`` for each item, serially here or on ``client``,
    and hand each result to ``finished(position, item, result)`` in this process as it arrives.

    The one loop of both sweeps: a task that raises is reported (``FAILED ...``) and returned with
    its error, and the others go on; on a cluster the results arrive as they finish (a task lost with
    its worker is run again by Dask), and each task's key (``key(item)`` and this call's id) is
    unique, so a run never reuses a result of another.

    Returns
    -------
    list of (item, str)
        The items whose task failed, with the error.
    """
    failures, position = [], 0

    def settle(item, outcome):
        nonlocal position
        try:
            result = outcome()
        except Exception as exc:  # a failed task, or one that killed its workers too often: the others go on
            failures.append((item, f"{type(exc).__name__}: {exc}"))
            print(f"FAILED {label(item)}: {type(exc).__name__}: {exc}", file=stream, flush=True)
            return
        position += 1
        finished(position, item, result)

    if client is None:
        for item in items:
            settle(item, lambda: function(*arguments(item, False)))
        return failures

    from distributed import as_completed

    run_id = uuid.uuid4().hex[:8]
    futures = {client.submit(function, *arguments(item, True), key=f"{key(item)}-{run_id}", pure=False): item
               for item in items}
    for future in as_completed(futures):
        settle(futures[future], future.result)
    return failures


def _timed_task(notebook, text, seed, parameters, kernel_name):
    """:func:`seed_task` on a worker, with its wall time and the worker's address."""
    start = time.perf_counter()
    rows = seed_task(notebook, text, seed, parameters, kernel_name)
    try:
        from distributed import get_worker

        where = get_worker().address
    except (ImportError, ValueError):
        where = "serial"
    return rows, time.perf_counter() - start, where


def _flips(seeds_by_verdict: dict[str, list[int]], total: int, notebook: str, claim: dict, judged: str) -> list[dict]:
    """Rows of one claim and judgement: every verdict seen, the most frequent first, with its seeds
    named for every verdict but the most frequent (the seeds where the verdict flips)."""
    order = sorted(seeds_by_verdict, key=lambda v: (-len(seeds_by_verdict[v]), min(seeds_by_verdict[v])))
    rows = []
    for position, verdict in enumerate(order):
        seeds = sorted(seeds_by_verdict[verdict])
        rows.append({"notebook": notebook, "id": claim["id"], "origin": claim["origin"], "central": claim["central"],
                     "judged": judged, "verdict": verdict, "seeds": len(seeds), "of": total,
                     "at_seeds": "" if position == 0 else " ".join(map(str, seeds))})
    return rows


def stability_tables(out: Path, number: str, seeds: list[int]) -> tuple[list[dict], list[dict]]:
    """The per-seed verdicts and their counts per claim, from the task files of ``seeds``.

    Parameters
    ----------
    out : pathlib.Path
        The sweep's folder.
    number : str
        The notebook's two digits.
    seeds : list of int
        The seeds to read (each must have its task file).

    Returns
    -------
    verdicts : list of dict
        One row per claim and seed: ``notebook, id, seed, verdict, check_verdict``.
    stability : list of dict
        Keys :data:`STABILITY_COLUMNS`: per claim, its main verdict (``judged = "main"``) and,
        where the claim has one, its honest check's (``"check"``), one row per verdict seen with
        the number of seeds giving it; ``at_seeds`` names the seeds of every verdict but the most
        frequent (ties: the verdict seen at the smaller seed first).
    """
    verdicts, claims, by_claim = [], {}, {}
    for seed in sorted(seeds):
        for row in read_task(task_file(out, number, seed)):
            claims.setdefault(row["id"], row)
            verdicts.append({"notebook": number, "id": row["id"], "seed": seed, "verdict": row["verdict"],
                             "check_verdict": row["check_verdict"]})
            entry = by_claim.setdefault(row["id"], {"main": {}, "check": {}})
            entry["main"].setdefault(row["verdict"], []).append(seed)
            if row["check_verdict"]:
                entry["check"].setdefault(row["check_verdict"], []).append(seed)
    stability = []
    for claim_id, claim in claims.items():
        for judged in ("main", "check"):
            seen = by_claim[claim_id][judged]
            if seen:
                stability += _flips(seen, sum(map(len, seen.values())), number, claim, judged)
    verdicts.sort(key=lambda row: (list(claims).index(row["id"]), row["seed"]))
    return verdicts, stability


def write_stability(out: Path, number: str, seeds: list[int]) -> tuple[Path, Path]:
    """Write ``NN_seed_verdicts.csv`` and ``NN_seed_stability.csv`` into ``out``.

    Parameters
    ----------
    out : pathlib.Path
        The sweep's folder.
    number : str
        The notebook's two digits.
    seeds : list of int
        The sweep's seeds.

    Returns
    -------
    tuple of pathlib.Path
        The two files.
    """
    verdicts, stability = stability_tables(out, number, seeds)
    paths = (Path(out) / f"{number}_seed_verdicts.csv", Path(out) / f"{number}_seed_stability.csv")
    for path, rows, columns in zip(paths, (verdicts, stability),
                                   (["notebook", "id", "seed", "verdict", "check_verdict"], STABILITY_COLUMNS)):
        with atomic_path(path) as scratch:
            scratch.write_text(_csv_text(rows, columns), encoding="utf-8")
    return paths


def count_summary(stability: list[dict]) -> Counter:
    """How many claims (main verdicts) flip at some seed: ``Counter({"stable": a, "flips": b})``."""
    claims = Counter(row["id"] for row in stability if row["judged"] == "main")
    return Counter("flips" if n > 1 else "stable" for n in claims.values())


#: The notebooks whose fold-seed runs are committed (``python -m companion.sweep --runs``): their
#: number and the module that makes one run, with ``seed_run(seed, n_jobs)`` (frame, key, settings in
#: words) and ``seed_run_keys(seeds)`` (``{seed: key}``, to skip the runs already committed).
PROTOCOL_RUNS = {"01": "companion.experiments.paper01._protocol", "03": "companion.experiments.paper03._claims",
                 "04": "companion.experiments.paper04._peers", "05": "companion.experiments.paper05._variants"}


def _protocol_module(number: str):
    import importlib

    return importlib.import_module(PROTOCOL_RUNS[number])


def _timed_protocol_run(number: str, seed: int, n_jobs):
    """One committed run of notebook ``number`` at ``seed`` (what a worker runs), with its wall time and where."""
    start = time.perf_counter()
    frame, key, config = _protocol_module(number).seed_run(seed, n_jobs=n_jobs)
    try:
        from distributed import get_worker

        where = get_worker().address
    except (ImportError, ValueError):
        where = "serial"
    return frame, key, config, time.perf_counter() - start, where


def run_protocol_runs(number: str, seeds: list[int], runs, *, command: str, client=None, n_jobs=-1,
                      stream=None) -> list[tuple[int, str]]:
    """Make and commit the runs of notebook ``number``'s protocol at ``seeds`` not yet committed.

    Each run is written (:meth:`~companion.experiments._seed_runs.SeedRuns.write`, whole or not
    at all) by this process as soon as it finishes, so a stopped sweep keeps every finished run
    and a re-run makes only the others: a seed whose record holds the key of the run it would
    make is skipped.

    Parameters
    ----------
    number : str
        A key of :data:`PROTOCOL_RUNS`.
    seeds : list of int
    runs : SeedRuns
        Where to write (the committed folder, or another for a test).
    command : str
        The command recorded with each run.
    client : distributed.Client, optional
        Run on its cluster (one core per run); None: one after another here with ``n_jobs``.
    n_jobs : int, default=-1
        Worker processes of a serial run's cross-validation loops.
    stream : file-like, optional
        Where progress lines go (default: standard output).

    Returns
    -------
    list of (int, str)
        The seeds that failed, with the error.
    """
    stream = stream or sys.stdout
    module = _protocol_module(number)
    keys = module.seed_run_keys(seeds)
    todo = [seed for seed in seeds if (runs.record(seed) or {}).get("key") != keys[seed]]
    if len(todo) < len(seeds):
        print(f"{len(seeds) - len(todo)} of {len(seeds)} runs of {number} already committed in {runs.folder}: skipped",
              file=stream, flush=True)

    def finished(position, seed, result):
        frame, key, config, seconds, where = result
        runs.write(seed, key, frame, seconds=seconds, command=command, config=config)
        print(f"[{position}/{len(todo)}] {number} run at seed {seed}: {seconds:.1f} s ({where})", file=stream, flush=True)

    return _dispatch(todo, _timed_protocol_run, lambda seed, on_cluster: (number, seed, 1 if on_cluster else n_jobs),
                     finished, client=client, stream=stream, key=lambda seed: f"runs-{number}-seed-{seed}",
                     label=lambda seed: f"{number} run at seed {seed}")
