"""Where a notebook's time goes: its cells' and sections' wall times, read from papermill's records.

Papermill stamps every executed cell with ``metadata.papermill.duration`` (seconds); the runner
strips those stamps before it saves a notebook (committed notebooks carry no timings), so
``python -m companion.reproduce --profile`` reads them here first, from the scratch copy, and
writes them as tables under ``build/`` (:func:`write_profile`). The published run's wall times,
one row per notebook, go to ``figures/notebook_times.csv`` (:data:`PUBLISHED_TIMES`), the table
``make bench`` reads to set each notebook's time beside the last published run.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from companion._files import atomic_path

#: The published run's wall time per notebook (under ``companion.paths.figures_dir()``).
PUBLISHED_TIMES = "notebook_times.csv"

_PUBLISHED_COLUMNS = ["notebook", "seconds", "source"]


def _heading(cell: dict, level: int) -> str | None:
    """The first Markdown heading of exactly ``level`` in a Markdown cell, without its hashes."""
    if cell.get("cell_type") != "markdown":
        return None
    prefix = "#" * level + " "
    for line in "".join(cell.get("source", "")).splitlines():
        if line.startswith(prefix):
            return line[len(prefix):].strip()
    return None


def cell_times(executed: Path) -> list[dict]:
    """One row per code cell of an executed notebook: its section and papermill's duration.

    The section of a cell is the last level-2 heading (``## ...``) above it, or the notebook's
    title (``# ...``) for the cells before the first one. A cell that did not run (after a
    failure) has no duration and is left out.

    Parameters
    ----------
    executed : pathlib.Path
        A notebook papermill executed, before the runner strips its metadata.

    Returns
    -------
    list of dict
        Keys ``cell`` (0-based index among the executed notebook's cells, papermill's injected
        cell included), ``id``, ``section``, ``first_line`` and ``seconds``.
    """
    nb = json.loads(Path(executed).read_text(encoding="utf-8"))
    rows, section = [], ""
    for index, cell in enumerate(nb.get("cells", [])):
        title = _heading(cell, 2) or (None if section else _heading(cell, 1))
        if title is not None:
            section = title
        if cell.get("cell_type") != "code":
            continue
        duration = cell.get("metadata", {}).get("papermill", {}).get("duration")
        if duration is None:
            continue
        source = "".join(cell.get("source", ""))
        first_line = next((line.strip() for line in source.splitlines() if line.strip()), "")
        rows.append({"cell": index, "id": cell.get("id", ""), "section": section,
                     "first_line": first_line[:100], "seconds": round(float(duration), 3)})
    return rows


def section_times(cells: list[dict]) -> list[dict]:
    """The rows of :func:`cell_times` summed per section, in the notebook's order.

    Parameters
    ----------
    cells : list of dict
        :func:`cell_times`'s rows.

    Returns
    -------
    list of dict
        Keys ``section``, ``cells`` (code cells timed) and ``seconds``.

    Examples
    --------
    >>> section_times([{"section": "a", "seconds": 1.0}, {"section": "b", "seconds": 2.5},
    ...                {"section": "a", "seconds": 0.5}])
    [{'section': 'a', 'cells': 2, 'seconds': 1.5}, {'section': 'b', 'cells': 1, 'seconds': 2.5}]
    """
    totals: dict[str, dict] = {}
    for row in cells:
        entry = totals.setdefault(row["section"], {"section": row["section"], "cells": 0, "seconds": 0.0})
        entry["cells"] += 1
        entry["seconds"] = round(entry["seconds"] + row["seconds"], 3)
    return list(totals.values())


def _write_csv(path: Path, rows: list[dict], columns: list[str]) -> None:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as scratch:
        scratch.write_text(buffer.getvalue(), encoding="utf-8")


def write_profile(executed: Path, name: str, folder: Path) -> list[dict]:
    """Write ``<stem>_cells.csv`` and ``<stem>_sections.csv`` of one executed notebook into ``folder``.

    Parameters
    ----------
    executed : pathlib.Path
        The notebook as papermill wrote it (durations still in its metadata).
    name : str
        The notebook's file name (``01_decision_list_machine.ipynb``); the tables are named after
        its stem.
    folder : pathlib.Path
        Where the tables go (``build/profile`` for the default run).

    Returns
    -------
    list of dict
        The cell rows written.
    """
    stem = Path(name).stem
    cells = cell_times(executed)
    _write_csv(Path(folder) / f"{stem}_cells.csv", cells, ["cell", "id", "section", "first_line", "seconds"])
    _write_csv(Path(folder) / f"{stem}_sections.csv", section_times(cells), ["section", "cells", "seconds"])
    return cells


def write_run_summary(folder: Path, results) -> None:
    """``notebooks.csv`` in ``folder``: each notebook's wall time and the sum of its cells' times.

    Parameters
    ----------
    folder : pathlib.Path
        The profile folder.
    results : list of companion._notebook_runner.NotebookResult
        The run's results, in order.
    """
    rows = []
    for result in results:
        cells = Path(folder) / f"{result.notebook.stem}_cells.csv"
        cell_sum = None
        if cells.exists():
            with open(cells, encoding="utf-8") as handle:
                cell_sum = round(sum(float(r["seconds"]) for r in csv.DictReader(handle)), 2)
        rows.append({"notebook": result.notebook.name, "ok": result.ok,
                     "seconds": round(result.seconds, 2), "cells_seconds": cell_sum})
    _write_csv(Path(folder) / "notebooks.csv", rows, ["notebook", "ok", "seconds", "cells_seconds"])


def read_published_times(path: Path) -> dict[str, float | None]:
    """``notebook file name -> seconds`` of the last published run (None where not recorded).

    Parameters
    ----------
    path : pathlib.Path
        :data:`PUBLISHED_TIMES` in the figures folder.

    Returns
    -------
    dict
        Empty when the file does not exist.
    """
    path = Path(path)
    if not path.exists():
        return {}
    with open(path, encoding="utf-8") as handle:
        return {row["notebook"]: (float(row["seconds"]) if row["seconds"] else None)
                for row in csv.DictReader(handle)}


def record_published_times(path: Path, results, source: str) -> None:
    """Replace the rows of the notebooks that ``results`` published successfully in ``path``.

    The rows of notebooks not run keep their times and sources; a failed notebook published
    nothing, so its row is kept too.

    Parameters
    ----------
    path : pathlib.Path
        :data:`PUBLISHED_TIMES` in the figures folder.
    results : list of companion._notebook_runner.NotebookResult
        The publishing run's results.
    source : str
        What made the times (the command), written in each new row.
    """
    path = Path(path)
    rows: dict[str, dict] = {}
    if path.exists():
        with open(path, encoding="utf-8") as handle:
            rows = {row["notebook"]: row for row in csv.DictReader(handle)}
    for result in results:
        if result.ok:
            rows[result.notebook.name] = {"notebook": result.notebook.name,
                                          "seconds": f"{result.seconds:.1f}", "source": source}
    _write_csv(path, [rows[name] for name in sorted(rows)], _PUBLISHED_COLUMNS)
