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

__all__ = ["speed_markdown", "update_readme", "readme_block", "MARKERS", "REPRODUCE_TARGET_S"]

MARKERS = ("<!-- bench:speed -->", "<!-- /bench:speed -->")
#: ``make reproduce`` within 6.5 minutes on 2 cores ("Past the memory wall", item 6).
REPRODUCE_TARGET_S = 390.0
_SCALING = "fit scaling: "
_LIMIT = "limit 2c/16GB"


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


def _column(rows: pd.DataFrame, name: str):
    return rows[name] if name in rows else pd.Series([None] * len(rows), index=rows.index, dtype=object)


def _same(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return "yes" if str(value).strip().lower() in ("true", "1", "1.0") else "**no**"


def _peer_lines(table: pd.DataFrame) -> list[str]:
    name = table["benchmark"].astype(str)
    size = table["size"].astype(str)
    picked = []  # (what, rows)
    prism = _rows(table, name == "PRISM supermarket vs Weka Prism")
    picked += [(f"PRISM on supermarket ({size_} rows), whole fit", r) for size_, r in zip(prism["size"], prism.to_dict("records"))]
    cold = _rows(table, name.str.startswith("SC cold fits") & size.str.contains("+", regex=False))
    picked += [(f"SC stumps, the {int(r['n_fits'])} cold fits of a CV grid on {r['size'].replace('+', ', ')} (summed)", r)
               for r in cold.to_dict("records")]
    for r in _rows(table, name.str.startswith("SC stump ") & name.str.endswith("vs pyscm-ml")).to_dict("records"):
        picked.append((f"SC stump {r['benchmark'].split()[2]}, {r['shape']} (best of warm fits)", r))
    for r in _rows(table, name.str.contains("stump cold fits") & name.str.contains("naive")).to_dict("records"):
        picked.append((f"{r['benchmark'].split()[0]} stumps, {int(r['n_fits'])} cold fits ({r['shape']})", r))
    for r in _rows(table, name.str.startswith("PRISM supermarket (first")).to_dict("records"):
        picked.append((f"PRISM, first {r['size']} rows of supermarket", r))
    for r in _rows(table, name.str.startswith("WIDC literal search")).to_dict("records"):
        picked.append((r["benchmark"].replace("WIDC literal search per growth step", "WIDC literal search per step"), r))
    if not picked:
        return []
    lines = ["Side by side with a peer or our naive reference (ratio = ours / theirs, below 1: ours is faster):", "",
             "| fit | ours (s) | reference | reference (s) | ratio | speed-up | same model |", "|---|---|---|---|---|---|---|"]
    for what, r in picked:
        ratio = r.get("ratio")
        speedup = "-" if ratio is None or pd.isna(ratio) or not ratio else f"{_number(1 / float(ratio))}x"
        lines.append(f"| {what} | {_number(r.get('ours_s'))} | {r.get('reference')} | {_number(r.get('reference_s'))} | "
                     f"{_number(ratio)} | {speedup} | {_same(r.get('identical'))} |")
    return lines + [""]


def _memory_lines(table: pd.DataFrame) -> list[str]:
    rows = _rows(table, table["benchmark"].astype(str).str.endswith("(4 GB target)"))
    if rows.empty:
        return []
    lines = ["Past the memory wall (default parameters, a fresh process per fit; peak = the whole process):", "",
             "| learner | rows m | fit (s) | time target (s) | peak (GB) |", "|---|---|---|---|---|"]
    for r in rows.to_dict("records"):
        learner = r["benchmark"].split(" fit,")[0]
        peak = r.get("peak_mb")
        peak = "-" if peak is None or pd.isna(peak) else _number(float(peak) / 1024)
        seconds = _number(r["ours_s"]) if pd.notna(r.get("ours_s")) else str(r.get("note", "failed"))
        lines.append(f"| {learner} | {int(float(r['size'])):,} | {seconds} | {_number(r['reference_s'])} | {peak} |")
    return lines + [""]


def _scaling_lines(table: pd.DataFrame) -> list[str]:
    name, size = table["benchmark"].astype(str), table["size"].astype(str)
    summary = _rows(table, name.str.startswith(_SCALING) & (size == _LIMIT))
    if summary.empty or "time_exponent" not in summary:
        return []
    fits = _rows(table, name.str.startswith(_SCALING) & (size != _LIMIT) & table["ours_s"].notna())
    memory = _rows(table, name.str.endswith("(4 GB target)") & table["ours_s"].notna())
    lines = ["Every learner against the number of rows m (default parameters, a fresh process per fit; exponents "
             "fitted on log-log axes from m = 1000 on; the limit extrapolates to a 2-core / 16 GB machine and 10 "
             "minutes):", "",
             "| learner | largest m fitted | time ~ m^b | memory ~ m^b | limit (bound) |", "|---|---|---|---|---|"]
    for r in summary.to_dict("records"):
        learner = r["benchmark"].removeprefix(_SCALING)
        sizes = list(pd.to_numeric(fits.loc[fits["benchmark"] == r["benchmark"], "size"]))
        sizes += list(pd.to_numeric(memory.loc[memory["benchmark"].str.startswith(f"{learner} fit,"), "size"]))
        largest = f"{int(max(sizes)):,}" if sizes else "-"
        limit = "-" if pd.isna(r.get("limit_m")) else f"{int(r['limit_m']):,} ({r['limit_by']})"
        lines.append(f"| {learner} | {largest} | {_number(r['time_exponent'])} | {_number(r['memory_exponent'])} | {limit} |")
    return lines + ["", "The curves are `figures/benchmarks_learner_scaling.png`.", ""]


def _notebook_lines(table: pd.DataFrame) -> list[str]:
    name = table["benchmark"].astype(str)
    rows = _rows(table, name == "notebook wall time")
    total = _rows(table, name == "make reproduce total")
    if rows.empty:
        return []
    cells = " · ".join(f"{str(r['size']).split('_')[0]}: {_number(r['ours_s'])} s" for r in rows.to_dict("records"))
    line = f"Notebooks under the runner (`python -m companion.reproduce`): {cells}"
    if not total.empty:
        t = total.iloc[0]
        line += (f"; all of them {_number(t['ours_s'])} s against the {_number(t['reference_s'])} s target "
                 f"({'met' if float(t['ours_s']) <= float(t['reference_s']) else '**not met**'}).")
    return [line, ""]


def speed_markdown(table, header: str) -> str:
    """The README block: peers, memory, every learner's scaling and the notebooks, from one run.

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
    body = [f"Measured by `make bench` ({header.removeprefix('Benchmarks, ').strip()}); every figure below comes from "
            "`figures/benchmarks.csv`.", ""]
    for part in (_peer_lines, _memory_lines, _scaling_lines, _notebook_lines):
        body += part(table)
    return "\n".join([MARKERS[0], "<!-- generated from figures/benchmarks.csv by benchmarks.report; do not edit -->",
                      *body, MARKERS[1]])


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
    from companion.paths import FIGURES, ROOT

    header = (FIGURES / "benchmarks.md").read_text(encoding="utf-8").splitlines()[0]
    changed = update_readme(ROOT / "README.md", FIGURES / "benchmarks.csv", header)
    print("README.md " + ("rewritten" if changed else "unchanged"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
