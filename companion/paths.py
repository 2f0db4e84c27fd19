"""Absolute locations of the project's folders, and the one way figures are saved.

Every path is absolute and derived from this file's location, so notebooks, tests and scripts
work whatever their current directory (the convention of showyourwork's ``paths`` module).

>>> (ROOT / "companion" / "paths.py").is_file()
True
>>> DATA.name, FIGURES.name
('data', 'figures')
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["ROOT", "DATA", "FIGURES", "NOTEBOOKS", "save_figure", "results_path"]

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
# COMPANION_FIGURES redirects every figure and result table (the determinism test runs the
# notebooks twice into scratch folders this way, leaving the committed figures/ untouched).
FIGURES = Path(os.environ.get("COMPANION_FIGURES") or ROOT / "figures").resolve()
NOTEBOOKS = ROOT / "notebooks"

# Stable PNG bytes across runs: no timestamp or software version in the metadata.
_PNG_METADATA = {"Software": None}


def save_figure(fig, name: str, *, dpi: int = 110) -> Path:
    """Save ``fig`` as ``figures/<name>.png`` and return the path.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure to write.
    name : str
        File stem, conventionally prefixed by the notebook number (``"01_dlm_balls"``).
        A ``.png`` suffix is added when missing.
    dpi : int, default=110
        Resolution of the PNG.

    Returns
    -------
    pathlib.Path
        Absolute path of the written file.
    """
    if not isinstance(name, str) or not name or "/" in name or "\\" in name:
        raise ValueError(f"figure name must be a plain file name without folders, got {name!r}")
    folder = FIGURES
    path = folder / (name if name.endswith(".png") else f"{name}.png")
    folder.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=dpi, bbox_inches="tight", metadata=_PNG_METADATA)
    return path


def results_path(name: str) -> Path:
    """Absolute path ``figures/<name>`` for a result table (CSV) that a notebook writes.

    >>> results_path("01_table1.csv").parent == FIGURES
    True
    """
    if not isinstance(name, str) or not name or "/" in name or "\\" in name:
        raise ValueError(f"result name must be a plain file name without folders, got {name!r}")
    folder = FIGURES
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name
