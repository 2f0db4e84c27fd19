"""Each claim's verdict over many fold seeds: ``python -m companion.sweep``.

Re-decides every claim of the chosen notebooks under each fold seed and counts, per claim, the
seeds that give each verdict, naming the seeds where it flips. One task is one notebook run at
one seed, exactly as ``python -m companion.reproduce -p seed S`` runs it (papermill, into a
scratch folder: ``figures/`` is never touched); its claims table (``NN_claims.csv`` of that run)
is the task's result. Tasks are independent and each carries its own seed and its notebook's
text, so they run in any order and anywhere:

* serially in this process (the default);
* on a ``distributed.LocalCluster`` of ``--workers N`` worker processes;
* on a running Dask cluster, by its scheduler's address (``--scheduler tcp://host:8786``; the
  workers need this package and its data installed, with the notebooks' extras: ``pip install
  -e .[notebooks,baselines,dask]`` in a checkout).

On a cluster every notebook that declares ``n_jobs`` gets ``n_jobs = 1`` (one core per task:
start workers with ``--nthreads 1``); the verdicts do not depend on ``n_jobs``.

Each finished task is written at once to ``<out>/tasks/NN/seed-S.csv`` (whole or not at all) by
this process, and a worker that dies takes no finished task with it: Dask runs its task again
on another worker. A re-run skips the tasks already written for the same notebook text, so an
interrupted sweep resumes. At the end ``<out>/NN_seed_verdicts.csv`` (claim x seed) and
``<out>/NN_seed_stability.csv`` (per claim and verdict: how many seeds, and which seeds where the
verdict is not the most frequent one) are written from the task files; ``<out>/task_times.csv``
logs each task's wall time. ``<out>`` is ``build/sweep/<label>`` (the label names ``--fast`` and
the ``-p`` parameters, as the runner's ``build/reproduce/<label>``) unless ``--output-dir`` says.

With ``--runs``, the tasks are not notebooks but the runs of a notebook's protocol at other fold
seeds that the notebook reads from ``data/seed_runs/<NN>/`` instead of recomputing them (notebook
05: the whole protocol of Section VI per seed; see :mod:`companion.experiments._seed_runs`). Each
finished run is written there at once, with its record (key, settings, command, commit, seconds);
a seed already committed for the same settings and data is skipped. This publishes: the files
are meant to be committed (``--output-dir`` writes them elsewhere).

Examples
--------
``python -m companion.sweep --only 01 --seeds 0:100``                         serially
``python -m companion.sweep --only 02 --seeds 0:3 --fast --workers 2``         a LocalCluster of 2 processes
``python -m companion.sweep --only 01 --seeds 0:100 --scheduler tcp://host:8786``  a Dask cluster
``python -m companion.sweep --runs --only 05 --seeds 2:200:2 --workers 2``    05's committed fold-seed runs
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

from sklearn.utils._param_validation import validate_params

from companion._notebook_runner import (
    declared_or_none,
    declared_parameter_values,
    discover_notebooks,
    parameter_type_error,
    parse_parameter_value,
    run_label,
    undeclared_parameter_error,
)
from companion._seed_sweep import (
    PROTOCOL_RUNS, SeedTask, count_summary, parse_seeds, run_protocol_runs, run_sweep, stability_tables, write_stability,
)
from companion.experiments._seed_runs import SeedRuns, committed_runs
from companion.paths import NOTEBOOKS, ROOT

# A command, not an API (run it with ``python -m companion.sweep``): its ``main`` stays out of the
# package's public names, whose number tests/test_docstrings.py bounds.
__all__: list[str] = []


def _help_texts() -> tuple[str, str]:
    body, _, examples = __doc__.partition("\nExamples\n--------\n")
    lines = examples.replace("``", "").rstrip().splitlines()
    return body.replace("``", "").strip(), "\n  ".join(["examples:", *lines])


def _exit_on_sigterm(signum, frame):
    raise SystemExit(128 + signum)


def _client(args):
    """The Dask client of ``--workers``/``--scheduler`` and what to close after, or (None, [])."""
    if args.workers is None and args.scheduler is None:
        return None, []
    from distributed import Client, LocalCluster

    if args.scheduler is not None:
        client = Client(args.scheduler)
        return client, [client]
    # processes=True: a worker is a process of its own, which may die alone (its task is re-run)
    cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    return client, [client, cluster]


def _protocol_runs(parser, args, seeds, argv) -> int:
    """``--runs``: make and commit the protocol runs of the ``--only`` notebooks at ``seeds``."""
    numbers = [str(n).zfill(2) for n in (args.only or [])]
    unknown = [n for n in numbers if n not in PROTOCOL_RUNS]
    if not numbers or unknown:
        parser.error(f"--runs needs --only with notebooks whose runs are committed ({', '.join(PROTOCOL_RUNS)}); "
                     f"got {', '.join(unknown) or 'none'}")
    if args.fast or args.parameters:
        parser.error("--runs makes the full protocol's runs: --fast and -p do not apply")
    command = " ".join(["python -m companion.sweep", *argv])
    previous = signal.signal(signal.SIGTERM, _exit_on_sigterm)
    client, to_close = None, []
    failures = []
    try:
        client, to_close = _client(args)
        for number in numbers:
            runs = SeedRuns(args.output_dir / number) if args.output_dir else committed_runs(number)
            print(f"{len(seeds)} runs of {number}'s protocol into {runs.folder}", flush=True)
            failures += [(number, seed, error) for seed, error in
                         run_protocol_runs(number, seeds, runs, command=command, client=client)]
    finally:
        for closable in to_close:
            closable.close()
        signal.signal(signal.SIGTERM, previous)
    for number, seed, error in failures:
        print(f"FAILED {number} run at seed {seed}: {error}", file=sys.stderr)
    return 1 if failures else 0


@validate_params({"argv": [list, tuple, None]}, prefer_skip_nested_validation=True)
def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the process exit status.

    Parameters
    ----------
    argv : list or tuple of str, optional
        The arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 when every task succeeded, 1 when one failed, 2 on a usage error.
    """
    description, epilog = _help_texts()
    parser = argparse.ArgumentParser(prog="python -m companion.sweep", description=description, epilog=epilog,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", metavar="NN",
                        help="sweep notebook NN (repeatable; default: every notebook with a `seed` parameter)")
    parser.add_argument("--seeds", required=True, metavar="A:B",
                        help="fold seeds: A:B (A to B - 1), A,B,C or one seed")
    parser.add_argument("--fast", action="store_true", help="inject fast=True (small sizes)")
    parser.add_argument("-p", "--parameter", dest="parameters", action="append", nargs=2, default=[],
                        metavar=("NAME", "VALUE"), help="inject parameter NAME into every task (not seed)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None, metavar="N",
                       help="run on a LocalCluster of N worker processes (default: serially in this process)")
    where.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="run on the Dask cluster of this scheduler (e.g. tcp://host:8786)")
    parser.add_argument("--output-dir", type=Path, default=None, metavar="DIR",
                        help="where the task files and tables go (default: build/sweep/<label>)")
    parser.add_argument("--notebooks", type=Path, default=NOTEBOOKS, help=argparse.SUPPRESS)
    parser.add_argument("--kernel", default=None, help="Jupyter kernel name (default: notebook's)")
    parser.add_argument("--runs", action="store_true",
                        help="make the protocol runs a notebook reads at other fold seeds, into data/seed_runs/NN "
                             f"(publishes; notebooks {', '.join(PROTOCOL_RUNS)})")
    args = parser.parse_args(argv if argv is not None else sys.argv[1:])
    try:
        seeds = parse_seeds(args.seeds)
    except ValueError as exc:
        parser.error(str(exc))
    if args.workers is not None and args.workers < 1:
        parser.error(f"--workers {args.workers}: at least one worker")
    if args.runs:
        return _protocol_runs(parser, args, seeds, argv if argv is not None else sys.argv[1:])
    try:
        notebooks = discover_notebooks(args.notebooks, args.only)
    except ValueError as exc:
        parser.error(str(exc))
    seeded = [notebook for notebook in notebooks if "seed" in declared_or_none(notebook)]
    if args.only and len(seeded) < len(notebooks):
        unseeded = ", ".join(n.name for n in notebooks if n not in seeded)
        parser.error(f"--only: {unseeded} declares no `seed` parameter: nothing to sweep")
    if not seeded:
        print(f"no numbered notebook with a `seed` parameter in {args.notebooks}", file=sys.stderr)
        return 2
    parameters = {"fast": args.fast}
    declared = set().union(*(declared_or_none(notebook) for notebook in seeded))
    defaults = {n.name: declared_parameter_values(n) for n in seeded}
    for name, text in args.parameters:
        if name == "seed":
            parser.error("-p seed: the sweep sets each task's seed (--seeds)")
        problem = undeclared_parameter_error(name, declared) or parameter_type_error(
            name, text, parse_parameter_value(text), defaults)
        if problem is not None:
            parser.error(problem)
        parameters[name] = parse_parameter_value(text)
    out = args.output_dir or ROOT / "build" / "sweep" / run_label(parameters)
    out.mkdir(parents=True, exist_ok=True)
    texts = {notebook.name: notebook.read_text(encoding="utf-8") for notebook in seeded}
    # one core per task on a cluster, unless told otherwise; the verdicts do not depend on n_jobs
    cluster_parameters = {n.name: {"n_jobs": 1} for n in seeded
                          if "n_jobs" in declared_or_none(n) and "n_jobs" not in parameters}
    tasks = [SeedTask(notebook.name, seed) for notebook in seeded for seed in seeds]
    print(f"{len(tasks)} tasks ({len(seeded)} notebooks x {len(seeds)} seeds) into {out}", flush=True)
    previous = signal.signal(signal.SIGTERM, _exit_on_sigterm)
    client, to_close = None, []
    try:
        client, to_close = _client(args)
        if client is not None:
            print(f"on {client.scheduler.address} ({len(client.scheduler_info()['workers'])} workers)", flush=True)
        failures = run_sweep(tasks, texts, out, parameters, client=client, kernel_name=args.kernel,
                             cluster_parameters=cluster_parameters)
    finally:
        for closable in to_close:
            closable.close()
        signal.signal(signal.SIGTERM, previous)
    failed = {task.notebook for task, _ in failures}
    for notebook in seeded:
        if notebook.name in failed:
            continue
        number = SeedTask(notebook.name, 0).number
        paths = write_stability(out, number, seeds)
        summary = count_summary(stability_tables(out, number, seeds)[1])
        print(f"{notebook.name}: {summary['stable']} claims give one verdict at every seed, "
              f"{summary['flips']} flip; {paths[1]}")
    for task, error in failures:
        print(f"FAILED {task.notebook} seed {task.seed}: {error}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
