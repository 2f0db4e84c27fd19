"""Re-execute the numbered notebooks with papermill: ``python -m companion.reproduce``.

What ``make reproduce`` calls. Notebooks ``notebooks/NN_*.ipynb`` run in order, each with the
parameter ``fast`` injected (``--fast`` sets it to True). A notebook that succeeds replaces the
committed one in place (outputs, figures and result CSVs regenerated); one that fails leaves the
committed notebook untouched and its partial run is saved under ``build/failed/`` for
inspection. A summary table names, for every failure, the notebook, the cell and the error; the
exit status is non-zero when any notebook failed.

Examples
--------
``python -m companion.reproduce``            every notebook, full protocol
``python -m companion.reproduce --only 03``  notebook 03 only (several ``--only`` allowed)
``python -m companion.reproduce --fast``     small sizes, for a quick end-to-end check
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from companion.paths import NOTEBOOKS, ROOT

__all__ = ["NotebookResult", "discover_notebooks", "run_notebook", "run_all", "main"]

_NUMBERED = re.compile(r"^(\d\d)_.*\.ipynb$")


@dataclass
class NotebookResult:
    """Outcome of executing one notebook."""

    notebook: Path
    ok: bool
    seconds: float
    failed_cell: int | None = None  # 0-based index among the notebook's cells
    error: str = ""
    failed_copy: Path | None = None

    def summary_line(self) -> str:
        status = "ok" if self.ok else "FAILED"
        line = f"{self.notebook.name:<45} {status:<7} {self.seconds:7.1f} s"
        if not self.ok:
            where = f"cell {self.failed_cell} (0-based)" if self.failed_cell is not None else "before any cell"
            line += f"\n    {where}: {self.error}"
            if self.failed_copy is not None:
                line += f"\n    partial run saved to {self.failed_copy}"
        return line


def discover_notebooks(folder: Path = NOTEBOOKS, only: list[str] | None = None) -> list[Path]:
    """Numbered notebooks in ``folder``, sorted; ``only`` keeps those whose number is listed.

    Raises
    ------
    ValueError
        If a number in ``only`` matches no notebook.
    """
    notebooks = sorted(p for p in Path(folder).glob("*.ipynb") if _NUMBERED.match(p.name))
    if only:
        wanted = {str(n).zfill(2) for n in only}
        found = {_NUMBERED.match(p.name).group(1) for p in notebooks}
        missing = sorted(wanted - found)
        if missing:
            raise ValueError(f"no notebook numbered {', '.join(missing)} in {folder}")
        notebooks = [p for p in notebooks if _NUMBERED.match(p.name).group(1) in wanted]
    return notebooks


def _check_readable(notebook: Path) -> None:
    """Fail early, with the file's name, on a notebook that is not valid notebook JSON."""
    import nbformat

    try:
        nbformat.validate(nbformat.read(notebook, as_version=4))
    except (json.JSONDecodeError, nbformat.reader.NotJSONError) as exc:
        raise ValueError(f"{notebook.name} is not a valid notebook file (not JSON): {exc}") from exc
    except nbformat.ValidationError as exc:
        raise ValueError(f"{notebook.name} is not a valid notebook: {exc.message}") from exc


def run_notebook(
    notebook: Path,
    *,
    fast: bool = False,
    kernel_name: str | None = None,
    progress_bar: bool = True,
    failed_dir: Path | None = None,
) -> NotebookResult:
    """Execute ``notebook`` with papermill; replace it in place only when every cell succeeds."""
    import papermill
    from papermill.exceptions import PapermillExecutionError

    notebook = Path(notebook).resolve()
    failed_dir = Path(failed_dir or ROOT / "build" / "failed")
    start = time.perf_counter()
    try:
        _check_readable(notebook)
    except ValueError as exc:
        return NotebookResult(notebook, False, time.perf_counter() - start, None, str(exc))

    handle, scratch = tempfile.mkstemp(suffix=".ipynb", dir=notebook.parent, prefix=".running-")
    os.close(handle)
    scratch = Path(scratch)
    # The kernel must use its inline backend so that figures are embedded in the notebook; an
    # inherited MPLBACKEND=Agg would silently drop them.
    inherited_backend = os.environ.pop("MPLBACKEND", None)
    try:
        papermill.execute_notebook(
            str(notebook),
            str(scratch),
            parameters={"fast": bool(fast)},
            kernel_name=kernel_name,
            cwd=str(notebook.parent),
            progress_bar=progress_bar,
            log_output=False,
        )
    except PapermillExecutionError as exc:
        failed_dir.mkdir(parents=True, exist_ok=True)
        copy = failed_dir / notebook.name
        shutil.move(scratch, copy)
        return NotebookResult(
            notebook,
            False,
            time.perf_counter() - start,
            failed_cell=_cell_index(copy, exc),
            error=f"{exc.ename}: {exc.evalue}",
            failed_copy=copy,
        )
    except Exception as exc:  # kernel death, timeouts, bad JSON written by a cell...
        scratch.unlink(missing_ok=True)
        return NotebookResult(notebook, False, time.perf_counter() - start, None, repr(exc))
    finally:
        if inherited_backend is not None:
            os.environ["MPLBACKEND"] = inherited_backend
    _strip_volatile_metadata(scratch)
    shutil.move(scratch, notebook)
    return NotebookResult(notebook, True, time.perf_counter() - start)


def _cell_index(executed: Path, exc) -> int | None:
    """0-based index, in the notebook as committed, of the cell that raised.

    Papermill's copy has extra cells (the injected parameters, its error banners); they are not
    counted, so the number points into the notebook a reader opens.
    """
    import nbformat

    index = 0
    for cell in nbformat.read(executed, as_version=4).cells:
        tags = cell.get("metadata", {}).get("tags", [])
        if "injected-parameters" in tags or "papermill-error-cell-tag" in tags:
            continue
        outputs = cell.get("outputs", []) if cell.cell_type == "code" else []
        if any(o.get("output_type") == "error" for o in outputs):
            return index
        index += 1
    return getattr(exc, "cell_index", None)


def _strip_volatile_metadata(path: Path) -> None:
    """Drop papermill's per-run timestamps and durations so reruns give the same file."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    papermill_meta = nb.metadata.get("papermill", {})
    for key in ("start_time", "end_time", "duration", "input_path", "output_path"):
        papermill_meta.pop(key, None)
    for cell in nb.cells:
        cell.metadata.pop("papermill", None)
        cell.metadata.pop("execution", None)
    nbformat.write(nb, path)


def run_all(
    notebooks: list[Path],
    *,
    fast: bool = False,
    kernel_name: str | None = None,
    failed_dir: Path | None = None,
    stream=None,
) -> list[NotebookResult]:
    """Run ``notebooks`` in order, printing one progress line per notebook, and return results."""
    stream = stream or sys.stdout
    results = []
    for position, notebook in enumerate(notebooks, start=1):
        print(f"[{position}/{len(notebooks)}] {notebook.name}", file=stream, flush=True)
        results.append(
            run_notebook(notebook, fast=fast, kernel_name=kernel_name, failed_dir=failed_dir)
        )
    return results


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the process exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m companion.reproduce", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--only", action="append", metavar="NN", help="run notebook NN only")
    parser.add_argument("--fast", action="store_true", help="inject fast=True (small sizes)")
    parser.add_argument("--notebooks", type=Path, default=NOTEBOOKS, help=argparse.SUPPRESS)
    parser.add_argument("--failed-dir", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--timings", type=Path, default=None, metavar="CSV",
                        help="also write notebook, ok, seconds to this CSV (make bench uses it)")
    parser.add_argument("--kernel", default=None, help="Jupyter kernel name (default: notebook's)")
    args = parser.parse_args(argv)
    try:
        notebooks = discover_notebooks(args.notebooks, args.only)
    except ValueError as exc:
        parser.error(str(exc))
    if not notebooks:
        print(f"no numbered notebooks in {args.notebooks}", file=sys.stderr)
        return 2
    results = run_all(notebooks, fast=args.fast, kernel_name=args.kernel, failed_dir=args.failed_dir)
    print("\nSummary")
    for result in results:
        print(result.summary_line())
    failed = [r for r in results if not r.ok]
    print(f"{len(results) - len(failed)} ok, {len(failed)} failed")
    if args.timings is not None:
        args.timings.parent.mkdir(parents=True, exist_ok=True)
        lines = ["notebook,ok,seconds"] + [
            f"{r.notebook.name},{r.ok},{r.seconds:.2f}" for r in results
        ]
        args.timings.write_text("\n".join(lines) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
