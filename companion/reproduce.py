"""Re-execute the numbered notebooks with papermill: ``python -m companion.reproduce``.

What ``make reproduce`` calls. Notebooks ``notebooks/NN_*.ipynb`` run in order, each with the
parameter ``fast`` injected (``--fast`` sets it to True) and any ``-p NAME VALUE`` given.

Only the *default* run (no ``--fast``, no ``-p``, no ``--output-dir``) publishes: a notebook that
succeeds replaces the committed one in place, and its figures and result CSVs are rewritten in
``figures/`` (or wherever ``COMPANION_FIGURES`` points). Any other run writes its executed
notebooks under ``--output-dir DIR`` (default ``build/reproduce/<label>``, the label naming the
parameters, e.g. ``fast`` or ``fast_seed-7``) and its figures and CSVs under ``DIR/figures``
(``COMPANION_FIGURES`` is set for the kernel), never over the committed files.

``--profile`` writes where the time goes, from papermill's records of each cell (the executed
notebooks stay free of timings): ``NN_<name>_cells.csv`` and ``NN_<name>_sections.csv`` per notebook
and ``notebooks.csv`` (wall time and cells' sum per notebook) under ``build/profile`` (a run that
does not publish: ``DIR/profile``). A publishing run with ``--profile`` also records each
notebook's wall time in ``figures/notebook_times.csv``, the published times ``make bench`` sets
beside its own; a run without ``--profile`` leaves that table as it is.

A notebook that fails is never published: its partial run is saved under ``build/failed/`` (or
``DIR/failed``) for inspection. A summary table names, for every failure, the notebook, the cell
and the error; the exit status is non-zero when any notebook failed.

Executed notebooks are normalised so that a re-run gives the same bytes on any machine: no
timestamps, durations, paths or tool and Python versions in the metadata, and the cell papermill
injects gets the fixed id ``injected-parameters``.

While a notebook runs, papermill's bar counts its cells and the long loops inside a cell (folds,
draws: :func:`companion.evaluation.parallel_map`) print ``label: done/total (elapsed)`` lines on
standard error; those lines never enter the executed notebook. The kernel's own start-up and
shut-down chatter (its TCP warning, the interrupt jupyter_client sends at shutdown) is not shown;
anything else the kernel process writes to its standard streams is.

Examples
--------
``python -m companion.reproduce``                   every notebook, full protocol, in place
``python -m companion.reproduce --only 03``         notebook 03 only (several ``--only`` allowed)
``python -m companion.reproduce --fast``            small sizes -> build/reproduce/fast/
``python -m companion.reproduce -p seed 7 --fast``  another seed -> build/reproduce/fast_seed-7/
``python -m companion.reproduce --output-dir DIR``  full protocol, written to DIR and DIR/figures
``python -m companion.reproduce --profile``         also each cell's and section's time -> build/profile/
"""

from __future__ import annotations

import argparse
import re
import signal
import sys
from pathlib import Path

from sklearn.utils._param_validation import validate_params

from companion._files import atomic_path
from companion._notebook_runner import (
    declared_or_none,
    declared_parameter_values,
    default_output_dir,
    discover_notebooks,
    parameter_type_error,
    parse_parameter_value,
    run_all,
    undeclared_parameter_error,
)
from companion._notebook_profile import PUBLISHED_TIMES, record_published_times, write_run_summary
from companion.paths import NOTEBOOKS, ROOT, figures_dir

__all__ = ["main"]


def _plain(text: str) -> str:
    """``text`` with its reStructuredText markup removed, for ``--help`` in a terminal.

    >>> _plain("Run :func:`companion.evaluation.parallel_map` with ``--fast``.")
    'Run companion.evaluation.parallel_map with --fast.'
    """
    text = re.sub(r":\w+:`~?([^`]+)`", r"\1", text)
    return text.replace("``", "")


def _help_texts() -> tuple[str, str]:
    """``--help``'s description (the module doc without its examples) and epilog (the examples)."""
    body, _, examples = __doc__.partition("\nExamples\n--------\n")
    lines = _plain(examples.rstrip()).splitlines()
    return _plain(body.strip()), "\n  ".join(["examples:", *lines])


def _check_writable(path: Path) -> str | None:
    """Why ``path`` cannot be written (None when it can), found without keeping a trace of it."""
    try:
        if path.is_dir():
            return "it is a folder"
        path.parent.mkdir(parents=True, exist_ok=True)
        existed = path.exists()
        with open(path, "a"):
            pass
        if not existed:
            path.unlink()
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def _exit_on_sigterm(signum, frame):
    raise SystemExit(128 + signum)


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
        0 when every notebook succeeded, 1 when one failed, 2 on a usage error.
    """
    description, epilog = _help_texts()
    parser = argparse.ArgumentParser(
        prog="python -m companion.reproduce",
        description=description,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--only", action="append", metavar="NN", help="run notebook NN only")
    parser.add_argument("--fast", action="store_true", help="inject fast=True (small sizes)")
    parser.add_argument(
        "-p", "--parameter", dest="parameters", action="append", nargs=2, default=[],
        metavar=("NAME", "VALUE"),
        help="inject parameter NAME (repeatable); VALUE is read as papermill does: "
             "True/False/None, int, float, else str",
    )
    parser.add_argument(
        "--output-dir", type=Path, default=None, metavar="DIR",
        help="write executed notebooks to DIR and figures/CSVs to DIR/figures (default for "
             "--fast or -p runs: build/reproduce/<label>); only a run without --fast, -p and "
             "--output-dir rewrites notebooks/ and figures/ in place",
    )
    parser.add_argument("--notebooks", type=Path, default=NOTEBOOKS, help=argparse.SUPPRESS)
    parser.add_argument("--failed-dir", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--timings", type=Path, default=None, metavar="CSV",
                        help="also write notebook, ok, seconds to this CSV (make bench uses it)")
    parser.add_argument(
        "--profile", action="store_true",
        help="write each notebook's cell and section times (papermill's records) under build/profile "
             "(DIR/profile for a run that does not publish); a publishing run also records the "
             "notebooks' times in figures/notebook_times.csv",
    )
    parser.add_argument("--kernel", default=None, help="Jupyter kernel name (default: notebook's)")
    args = parser.parse_args(argv)
    parameters = {"fast": args.fast}
    for name, value in args.parameters:
        if not name.isidentifier():
            parser.error(f"-p {name} {value}: {name!r} is not a Python variable name")
        parameters[name] = parse_parameter_value(value)
    if args.timings is not None:  # fail now, not after hours of notebooks
        problem = _check_writable(args.timings)
        if problem is not None:
            parser.error(f"--timings {args.timings} cannot be written: {problem}")
    publish = not (args.fast or args.parameters or args.output_dir is not None)
    output_dir = None if publish else (args.output_dir or default_output_dir(parameters))
    if output_dir is not None and output_dir.resolve() == args.notebooks.resolve():
        parser.error(f"--output-dir {output_dir} would overwrite the notebooks it runs")
    try:
        notebooks = discover_notebooks(args.notebooks, args.only)
    except ValueError as exc:
        parser.error(str(exc))
    if not notebooks:
        print(f"no numbered notebooks in {args.notebooks}", file=sys.stderr)
        return 2
    # A misspelt name (-p sed 3) would otherwise run the default silently: papermill only warns.
    declared = set().union(*(declared_or_none(notebook) for notebook in notebooks)) if args.parameters else set()
    for name, _ in args.parameters:
        problem = undeclared_parameter_error(name, declared)
        if problem is not None:
            parser.error(problem)
    # A value of the wrong type (-p seed seven) would start a kernel and fail inside the
    # notebook with numpy's message; the parameters cell says what each name takes.
    if args.parameters:
        defaults = {}
        for notebook in notebooks:
            try:
                defaults[notebook.name] = declared_parameter_values(notebook)
            except (ValueError, SyntaxError, OSError):
                defaults[notebook.name] = {}
        for name, text in args.parameters:
            problem = parameter_type_error(name, text, parameters[name], defaults)
            if problem is not None:
                parser.error(problem)
    if output_dir is not None:
        print(f"writing executed notebooks to {output_dir}, figures and CSVs to "
              f"{output_dir / 'figures'} (only the default run publishes in place)", flush=True)
    profile_dir = None
    if args.profile:
        profile_dir = (output_dir / "profile") if output_dir is not None else ROOT / "build" / "profile"
    # `kill` (SIGTERM) unwinds like Ctrl-C, so that no half-run scratch notebook stays behind.
    previous = signal.signal(signal.SIGTERM, _exit_on_sigterm)
    try:
        results = run_all(notebooks, parameters=parameters, output_dir=output_dir,
                          kernel_name=args.kernel, failed_dir=args.failed_dir,
                          profile_dir=profile_dir)
    finally:
        signal.signal(signal.SIGTERM, previous)
    print("\nSummary")
    for result in results:
        print(result.summary_line())
    failed = [r for r in results if not r.ok]
    print(f"{len(results) - len(failed)} ok, {len(failed)} failed")
    if publish and not failed and args.notebooks.resolve() == NOTEBOOKS.resolve():
        from companion.claims import publish as publish_claims

        for changed in publish_claims():  # the verdicts of README.md and docs/results.md, from figures/
            print(f"updated {changed} from the claims tables")
    if profile_dir is not None:
        write_run_summary(profile_dir, results)
        print(f"cell and section times in {profile_dir}")
        if publish and args.notebooks.resolve() == NOTEBOOKS.resolve():
            command = "python -m companion.reproduce --profile" + "".join(f" --only {n}" for n in args.only or [])
            record_published_times(figures_dir() / PUBLISHED_TIMES, results, command)
    if args.timings is not None:
        args.timings.parent.mkdir(parents=True, exist_ok=True)
        lines = ["notebook,ok,seconds"] + [
            f"{r.notebook.name},{r.ok},{r.seconds:.2f}" for r in results
        ]
        with atomic_path(args.timings) as scratch:
            scratch.write_text("\n".join(lines) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
