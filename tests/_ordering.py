"""The order in which ``make test`` hands files to its two pytest-xdist workers (root ``conftest.py``).

``make test`` runs ``--dist loadfile --no-loadscope-reorder``: whole files, in collection order.
A long notebook started last would run alone at the end while the other worker idles, so the
notebooks come first, the longest first by the wall times of the last ``make bench``, and the
many short unit-test files fill the gaps. Within a file the order is untouched (nbval runs a
notebook's cells in order).
"""

from __future__ import annotations

import csv
from pathlib import Path


def notebook_seconds(report: Path) -> dict[str, float]:
    """Each notebook's wall time in a ``make bench`` report (``figures/benchmarks.csv``), by file name.

    Parameters
    ----------
    report : pathlib.Path
        The report's CSV; missing: no times (the notebooks keep their collection order).

    Returns
    -------
    dict
        ``{"01_decision_list_machine.ipynb": seconds, ...}``.
    """
    if not report.exists():
        return {}
    with report.open(newline="", encoding="utf-8") as handle:
        return {row["size"]: float(row["ours_s"]) for row in csv.DictReader(handle)
                if row.get("benchmark") == "notebook wall time" and row.get("ours_s")}


def longest_notebooks_first(items: list, seconds: dict[str, float]) -> list:
    """``items`` with the notebooks' cells first, longest notebook first, the rest as collected.

    Parameters
    ----------
    items : list
        Collected pytest items (anything with a ``path``).
    seconds : dict
        :func:`notebook_seconds`; a notebook it lacks counts as 0 s.

    Returns
    -------
    list
        The same items; the sort is stable, so every file keeps its own order.
    """
    def rank(item):
        path = Path(item.path)
        if path.suffix != ".ipynb":
            return (1, 0.0, "")
        return (0, -seconds.get(path.name, 0.0), path.name)

    return sorted(items, key=rank)
