"""Absolute locations of the project's folders, and the one way figures and tables are saved.

Every path is absolute and derived from this file's location, so notebooks, tests and scripts
work whatever their current directory (the convention of showyourwork's ``paths`` module).

>>> (ROOT / "companion" / "paths.py").is_file()
True
>>> data_dir().name  # ROOT / "data", or wherever COMPANION_DATA points
'data'
>>> figures_dir().is_absolute()  # ROOT / "figures", or wherever COMPANION_FIGURES points
True
"""

from __future__ import annotations

import os
from numbers import Integral
from pathlib import Path

import pandas as pd
from sklearn.utils._param_validation import HasMethods, validate_params

from companion._files import atomic_path
from companion.numerics import StrictInterval

__all__ = ["ROOT", "data_dir", "figures_dir", "NOTEBOOKS", "save_figure", "results_path", "save_table"]

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"


def data_dir() -> Path:
    """The folder the data loaders read: ``COMPANION_DATA`` if set, else the repository's ``data/``.

    Read at every call, so that the variable can be set after import (a test points it at a
    tampered copy; an installed package at a checkout's ``data/``).

    Returns
    -------
    pathlib.Path
        An absolute path.
    """
    return Path(os.environ.get("COMPANION_DATA") or ROOT / "data").resolve()


def figures_dir() -> Path:
    """The folder figures and result tables are saved to: ``COMPANION_FIGURES`` if set, else ``figures/``.

    The variable redirects every figure and result table: the test session points it at a
    temporary folder (the root ``conftest.py``), and the runner at
    ``build/reproduce/<label>/figures`` for any run other than the default one, so that only
    ``make reproduce`` rewrites ``figures/``. Read at every call, so that a variable set after
    import is followed.

    Returns
    -------
    pathlib.Path
        An absolute path.
    """
    return Path(os.environ.get("COMPANION_FIGURES") or ROOT / "figures").resolve()


# Stable PNG bytes across runs: no timestamp or software version in the metadata.
_PNG_METADATA = {"Software": None}
#: The longest Title / Description written into a figure's PNG (the site's caption and alt text).
_FIGURE_TEXT_CHARS = 300


def _shorten(text: str, limit: int = _FIGURE_TEXT_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _figure_text(fig) -> dict[str, str]:
    """The ``Title`` and ``Description`` of a figure, read from the figure's own texts.

    :func:`save_figure` writes both into the PNG, and the site shows the title as the figure's
    caption and the description as its alt text, so that neither is typed beside the figure it
    describes and a re-run keeps them true.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure.

    Returns
    -------
    dict
        ``{"Title": ..., "Description": ...}``. The title is the figure's suptitle, else its only
        panel's title, else the count of panels and their titles; the description names every
        panel's title, its axes' labels and its legend's entries.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> _ = ax.plot([0, 1], [1, 0], label="risk"); _ = ax.legend()
    >>> _ = ax.set(title="Risk against size", xlabel="size", ylabel="risk")
    >>> _figure_text(fig)["Description"]
    'One panel. Risk against size: risk against size; legend: risk.'
    >>> plt.close(fig)
    """
    suptitle = getattr(getattr(fig, "_suptitle", None), "get_text", lambda: "")()
    panels = []
    for ax in fig.get_axes():
        title = " ".join(t for t in (ax.get_title("left"), ax.get_title(), ax.get_title("right")) if t)
        xlabel, ylabel = ax.get_xlabel(), ax.get_ylabel()
        if not (title or xlabel or ylabel):
            continue
        parts = [f"{ylabel or 'values'} against {xlabel}" if xlabel else ylabel]
        legend = ax.get_legend()
        if legend is not None:
            entries = [t.get_text() for t in legend.get_texts() if t.get_text()]
            if entries:
                parts.append("legend: " + ", ".join(entries))
        panels.append((title, "; ".join(p for p in parts if p)))
    shared = [t.get_text() for legend in fig.legends for t in legend.get_texts() if t.get_text()]
    count = {0: "No labelled panel", 1: "One panel"}.get(len(panels), f"{len(panels)} panels")
    titled = [t for t, _ in panels if t]
    if suptitle:
        title = suptitle
    elif len(panels) == 1:
        title = panels[0][0] or panels[0][1]
    elif titled:
        title = f"{count}: " + "; ".join(titled)
    elif panels:  # untitled panels: what each plots
        title = f"{count}: " + "; ".join(d.split("; legend")[0] for _, d in panels if d)
    else:
        title = count
    title = title[:1].upper() + title[1:] if title else count
    described = " ".join(": ".join(p for p in (t, d) if p) + "." for t, d in panels)
    if shared:  # a legend of the whole figure (in a spare panel's slot)
        described += " Legend: " + ", ".join(shared) + "."
    return {"Title": _shorten(title), "Description": _shorten(f"{count}. {described}".strip())}


def _smallest_text_points(fig) -> float:
    """The size in points of the smallest visible text of ``fig`` (tick labels, legends,
    annotations, titles), laid out as it will be saved; ``0.0`` for a figure without text.

    :func:`save_figure` writes it into the PNG (``Smallest text``), so that a test can tell how
    large that text is when the site shows the figure at its page's width.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> _ = ax.set_title("t", fontsize=12); _ = ax.tick_params(labelsize=7)
    >>> _smallest_text_points(fig)
    7.0
    >>> plt.close(fig)
    """
    from matplotlib.text import Text

    fig.draw_without_rendering()  # tick labels and legends exist only once laid out

    def shown(text):
        panel = text.axes
        return text.get_visible() and (panel is None or panel.get_visible()) and bool(text.get_text().strip())

    sizes = [t.get_fontsize() for t in fig.findobj(Text) if shown(t)]
    return float(min(sizes)) if sizes else 0.0


def _check_plain_name(name: str, caller: str) -> None:
    """What the constraints cannot say of a file name: not empty, no folder."""
    if not name or "/" in name or "\\" in name:
        raise ValueError(f"{caller}: name must be a plain file name without folders, got {name!r}")


# A figure is anything that saves itself as matplotlib's Figure does (matplotlib is not imported
# with the paths every module uses).
@validate_params(
    {"fig": [HasMethods(["savefig"])], "name": [str], "dpi": [StrictInterval(Integral, 1, None, closed="left")]},
    prefer_skip_nested_validation=True,
)
def save_figure(fig, name: str, *, dpi: int = 110) -> Path:
    """Save ``fig`` as ``figures/<name>.png`` and return the path.

    The PNG carries the figure's :func:`_figure_text` (its ``Title`` and ``Description``), which
    the site shows as the figure's caption and alt text, and the size of its smallest text
    (``Smallest text``, :func:`_smallest_text_points`), which a test holds legible at the site's
    page width. The file is written atomically (scratch file renamed into place) with the umask's mode.

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
    _check_plain_name(name, "save_figure")
    folder = figures_dir()
    path = folder / (name if name.endswith(".png") else f"{name}.png")
    folder.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as scratch:  # an interrupted save leaves no empty or partial PNG
        fig.savefig(scratch, format="png", dpi=dpi, bbox_inches="tight",
                    metadata={**_PNG_METADATA, **_figure_text(fig),
                              "Smallest text": f"{_smallest_text_points(fig):g} pt at {dpi} dpi"})
    return path


@validate_params({"name": [str]}, prefer_skip_nested_validation=True)
def results_path(name: str) -> Path:
    """Absolute path ``figures/<name>`` for a result table (CSV) that a notebook writes.

    Parameters
    ----------
    name : str
        File name under ``figures/``.

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> results_path("01_table1.csv").parent == figures_dir()
    True
    """
    _check_plain_name(name, "results_path")
    folder = figures_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


# Significant digits of the floats in result tables: enough for every number the notebooks
# report, few enough that last-bit differences (another BLAS kernel, another summation order)
# cannot change a byte of the file.
TABLE_FLOAT_FORMAT = "%.10g"


@validate_params(
    {"df": [pd.DataFrame, pd.Series], "name": [str], "index": ["boolean"]}, prefer_skip_nested_validation=True
)
def save_table(df, name: str, *, index: bool = True) -> None:
    """Write ``df`` as the result table ``figures/<name>`` (the file is ``results_path(name)``).

    Written atomically (whole or not at all, the umask's mode). Same file
    as ``df.to_csv(results_path(name), index=index)`` except that floats are written
    with 10 significant digits (``float_format="%.10g"``) and lines end in ``\\n`` on every
    platform, so that two runs differing only in the last bits of a float write identical bytes
    (unless a value sits on a rounding boundary of its 10th digit, or is noise around an exact
    0 such as ``2e-17``: round such columns explicitly).

    Parameters
    ----------
    df : pandas.DataFrame or pandas.Series
        The table.
    name : str
        File name, conventionally prefixed by the notebook number (``"01_table1.csv"``); a
        ``.csv`` suffix is added when missing.
    index : bool, default=True
        Write the row index as the first column (pandas' default, as ``df.to_csv``).

    Returns
    -------
    None
        Nothing, on purpose: a notebook cell ending with ``save_table(...)`` then shows no
        output. (A trailing ``;`` would not do: the kernels nbval starts do not honour it, so the
        cell would show a path in CI and nothing in the committed notebook.)

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"s": [1, 2], "error": [0.1 + 0.2, 1 / 3]}, index=["a", "b"])
    >>> save_table(df, "00_doctest_save_table")
    >>> path = results_path("00_doctest_save_table.csv")
    >>> path.parent == figures_dir()
    True
    >>> print(path.read_text(), end="")
    ,s,error
    a,1,0.3
    b,2,0.3333333333
    >>> save_table(df, "00_doctest_save_table.csv", index=False)
    >>> print(path.read_text(), end="")
    s,error
    1,0.3
    2,0.3333333333
    >>> path.unlink()
    """
    _check_plain_name(name, "save_table")
    if not name.endswith(".csv"):
        name = f"{name}.csv"
    path = results_path(name)
    with atomic_path(path) as scratch:  # an interrupted write leaves no partial table
        df.to_csv(scratch, index=index, float_format=TABLE_FLOAT_FORMAT, lineterminator="\n")
