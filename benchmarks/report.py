"""The README's speed section, generated from one ``make bench`` run (``figures/benchmarks.csv``).

``make bench`` writes every number it measured into ``figures/benchmarks.csv`` and the same table
as ``figures/benchmarks.md`` (whose first line names the date and the machine), then rewrites
the README's block between ``<!-- bench:speed -->`` and ``<!-- /bench:speed -->`` with
:func:`speed_markdown` of that table, so that no speed number in the README is typed by hand.
``tests/test_benchmarks.py`` re-renders the block from the committed CSV and fails if the README
differs. A part of the report whose rows the run lacks (``--only``, an older CSV) is left out.

Usage: ``python -m benchmarks.report`` re-renders the README from the committed report.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pandas as pd

from benchmarks.learner_scaling import LIMIT_SIZE as _LIMIT
from benchmarks.learner_scaling import ROW_PREFIX as _SCALING

__all__ = ["speed_markdown", "update_readme", "readme_block", "MARKERS", "REPRODUCE_TARGET_S"]

MARKERS = ("<!-- bench:speed -->", "<!-- /bench:speed -->")
#: ``make reproduce`` within 6.5 minutes on 2 cores ("Past the memory wall", item 6).
REPRODUCE_TARGET_S = 390.0


def _number(value, digits: int = 3) -> str:
    """``value`` to ``digits`` significant digits, without exponent for the report's magnitudes."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    value = float(value)
    if value == 0:
        return "0"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    return f"{value:,.{decimals}f}"


def _rows(table: pd.DataFrame, mask) -> pd.DataFrame:
    return table[mask.fillna(False).astype(bool)] if len(table) else table


def _same(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return "yes" if str(value).strip().lower() in ("true", "1", "1.0") else "**no**"


def _ratio(row) -> str:
    """``0.0457 (21.9x faster)``, flagged when the two sides learnt different models."""
    ratio = row.get("ratio")
    if ratio is None or pd.isna(ratio):
        return "not measured"
    text = _number(ratio) + (f" ({_number(1 / float(ratio))}x faster)" if 0 < float(ratio) < 1 else "")
    return text if _same(row.get("identical")) != "**no**" else text + " **(different model)**"


def _peer_line(table: pd.DataFrame) -> str | None:
    name = table["benchmark"].astype(str)
    size = table["size"].astype(str)
    parts = []
    for r in _rows(table, name == "PRISM supermarket vs Weka Prism").to_dict("records"):
        parts.append(f"PRISM vs Weka's Prism on supermarket, {_ratio(r)}")
    sc = []
    fresh = name.str.startswith("SC fits of a") & name.str.contains("fresh process")
    for r in _rows(table, fresh & size.str.contains("+", regex=False)).to_dict("records"):
        sc.append(f"{int(r['n_fits'])} fits of CV grids summed, first round in a fresh process, {_ratio(r)}")
    for r in _rows(table, name.str.startswith("SC cold fits") & size.str.contains("+", regex=False)).to_dict("records"):
        sc.append(f"{int(r['n_fits'])} cold fits of CV grids summed, {_ratio(r)}")
    warm = _rows(table, name.str.startswith("SC stump ") & name.str.endswith("vs pyscm-ml"))
    if len(warm):
        low, high = _number(warm["ratio"].min()), _number(warm["ratio"].max())
        same = "" if all(_same(v) == "yes" for v in warm["identical"]) else " **(different model)**"
        sc.append(f"best warm fit {low}–{high}{same}")
    if sc:
        parts.append("SC stumps vs pyscm-ml, " + "; ".join(sc))
    naive = _rows(table, name.str.contains("stump cold fits") & name.str.contains("naive"))
    if len(naive):
        labels = " and ".join(r["benchmark"].split()[0] for r in naive.to_dict("records"))
        ratios = ", ".join(_ratio(r).split(" (")[0] for r in naive.to_dict("records"))
        parts.append(f"{labels} stumps vs our naive loops, cold fits, {ratios}")
    return ("Ours / theirs, timed side by side: " + " · ".join(parts) + ".") if parts else None


def _memory_line(table: pd.DataFrame) -> str | None:
    rows = _rows(table, table["benchmark"].astype(str).str.endswith("(4 GB target)"))
    if rows.empty:
        return None
    parts = []
    for learner, group in rows.groupby(rows["benchmark"].str.split(" fit,").str[0], sort=False):
        ok = group[group["ours_s"].notna()]
        if ok.empty:
            parts.append(f"{learner}: {group['note'].iloc[-1] if 'note' in group else 'failed'}")
            continue
        r = ok.loc[pd.to_numeric(ok["size"]).idxmax()]
        peak = "" if pd.isna(r.get("peak_mb", float("nan"))) else f", peak {_number(float(r['peak_mb']) / 1024, 2)} GB"
        parts.append(f"{learner} {int(float(r['size'])):,} rows in {_number(r['ours_s'])} s{peak}")
    return "Largest fits, default parameters, a fresh process each: " + " · ".join(parts) + "."


def _scaling_line(table: pd.DataFrame) -> str | None:
    name, size = table["benchmark"].astype(str), table["size"].astype(str)
    summary = _rows(table, name.str.startswith(_SCALING) & (size == _LIMIT))
    if summary.empty or "time_exponent" not in summary:
        return None
    parts = [f"{r['benchmark'].removeprefix(_SCALING)} {_number(r['time_exponent'], 2)}" for r in summary.to_dict("records")]
    return ("Fit time ~ m^b from m = 1000 on (`figures/benchmarks_learner_scaling.png`, with peak memory): b = "
            + " · ".join(parts) + ".")


def _notebook_line(table: pd.DataFrame) -> str | None:
    name = table["benchmark"].astype(str)
    rows = _rows(table, name == "notebook wall time")
    if rows.empty:
        return None
    def cell(r):
        published = r.get("reference_s")
        beside = f" (published {_number(published)} s)" if published is not None and pd.notna(published) else ""
        return f"{str(r['size']).split('_')[0]} {_number(r['ours_s'])} s{beside}"

    cells = " · ".join(cell(r) for r in rows.to_dict("records"))
    line = f"Notebooks (`make reproduce`): {cells}"
    total = _rows(table, name == "make reproduce total")
    if not total.empty:
        t = total.iloc[0]
        met = "met" if float(t["ours_s"]) <= float(t["reference_s"]) else "**not met**"
        line += f"; all {_number(t['ours_s'])} s (target {_number(t['reference_s'])} s: {met})"
    return line + "."


def speed_markdown(table, header: str) -> str:
    """The README block: peers, largest fits, every learner's time exponent and the notebooks, from one run.

    Parameters
    ----------
    table : pandas.DataFrame or path-like
        The report of ``python -m benchmarks.run`` (``figures/benchmarks.csv``).
    header : str
        Its first line in ``figures/benchmarks.md`` (date, processor, cores, Python).

    Returns
    -------
    str
        The block, markers included.
    """
    table = pd.read_csv(table) if isinstance(table, (str, Path)) else table
    lines = [f"`make bench`, {header.removeprefix('Benchmarks, ').strip()}; every row: `figures/benchmarks.md`."]
    for part in (_peer_line, _memory_line, _scaling_line, _notebook_line):
        line = part(table)
        if line:
            lines += ["", line]
    return "\n".join([MARKERS[0], "<!-- generated from figures/benchmarks.csv by benchmarks.report; do not edit -->",
                      *lines, MARKERS[1]])


def readme_block(text: str) -> str | None:
    """The speed block of a README's ``text`` (markers included), or None when it has none.

    Parameters
    ----------
    text : str
        The README.

    Returns
    -------
    str or None
    """
    start, end = text.find(MARKERS[0]), text.find(MARKERS[1])
    if start < 0 and end < 0:
        return None
    if start < 0 or end < start or text.count(MARKERS[0]) > 1 or text.count(MARKERS[1]) > 1:
        raise ValueError("the README's bench:speed markers are unpaired, repeated or out of order")
    return text[start:end + len(MARKERS[1])]


def update_readme(path, table, header: str) -> bool:
    """Replace the speed block of the README at ``path`` by :func:`speed_markdown` of ``table``.

    Parameters
    ----------
    path : path-like
        The README; it must already hold the markers (the block's place is the README's choice).
    table : pandas.DataFrame or path-like
        The report.
    header : str
        The report's first line.

    Returns
    -------
    bool
        Whether the file changed.
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    old = readme_block(text)
    if old is None:
        raise ValueError(f"{path} has no {MARKERS[0]} ... {MARKERS[1]} block")
    new = text.replace(old, speed_markdown(table, header))
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text


def main(argv=None) -> int:
    from companion.paths import ROOT, figures_dir

    header = (figures_dir() / "benchmarks.md").read_text(encoding="utf-8").splitlines()[0]
    changed = update_readme(ROOT / "README.md", figures_dir() / "benchmarks.csv", header)
    print("README.md " + ("rewritten" if changed else "unchanged"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
