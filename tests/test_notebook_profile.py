"""``python -m companion.reproduce --profile``: cell and section times from papermill's records,
the published times ``make bench`` reads, and executed notebooks that stay free of timings."""

import csv
import json

import nbformat
import pytest

from companion import reproduce
from companion._notebook_profile import (
    cell_times,
    read_published_times,
    record_published_times,
    section_times,
)
from companion._notebook_runner import NotebookResult


def _notebook(cells):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = cells
    return nb


def _timed(source, seconds):
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["papermill"] = {"duration": seconds, "status": "completed"}
    return cell


def test_cells_are_timed_by_section_and_unrun_cells_left_out(tmp_path):
    nb = _notebook([
        nbformat.v4.new_markdown_cell("# 09 — a title\n\ntext"),
        _timed("import numpy", 0.5),
        nbformat.v4.new_markdown_cell("## First section\n### a subsection"),
        _timed("a = 1\nb = 2", 1.25),
        nbformat.v4.new_markdown_cell("### still the first section"),
        _timed("\n\nc = 3", 2.0),
        nbformat.v4.new_markdown_cell("## Second section"),
        _timed("d = 4", 0.25),
        nbformat.v4.new_code_cell("never run"),  # after a failure: no duration
    ])
    path = tmp_path / "09_x.ipynb"
    nbformat.write(nb, path)
    cells = cell_times(path)
    assert [(c["cell"], c["section"], c["first_line"], c["seconds"]) for c in cells] == [
        (1, "09 — a title", "import numpy", 0.5),
        (3, "First section", "a = 1", 1.25),
        (5, "First section", "c = 3", 2.0),
        (7, "Second section", "d = 4", 0.25),
    ]
    assert section_times(cells) == [
        {"section": "09 — a title", "cells": 1, "seconds": 0.5},
        {"section": "First section", "cells": 2, "seconds": 3.25},
        {"section": "Second section", "cells": 1, "seconds": 0.25},
    ]


def test_published_times_replace_only_the_notebooks_that_succeeded(tmp_path):
    table = tmp_path / "notebook_times.csv"
    table.write_text("notebook,seconds,source\n01_a.ipynb,10.0,old\n02_b.ipynb,,old\n03_c.ipynb,30.0,old\n")
    results = [NotebookResult(tmp_path / "02_b.ipynb", True, 21.04),
               NotebookResult(tmp_path / "03_c.ipynb", False, 5.0),
               NotebookResult(tmp_path / "04_d.ipynb", True, 4.0)]
    record_published_times(table, results, "python -m companion.reproduce --profile")
    assert read_published_times(table) == {"01_a.ipynb": 10.0, "02_b.ipynb": 21.0, "03_c.ipynb": 30.0,
                                           "04_d.ipynb": 4.0}
    sources = {row["notebook"]: row["source"] for row in csv.DictReader(table.open())}
    assert sources["01_a.ipynb"] == "old" and sources["03_c.ipynb"] == "old"  # not run / failed: kept
    assert sources["02_b.ipynb"] == "python -m companion.reproduce --profile"
    assert read_published_times(tmp_path / "absent.csv") == {}


def test_committed_published_times_name_every_numbered_notebook():
    """make bench reads this table: one row per notebook, seconds empty or positive."""
    from companion.paths import NOTEBOOKS, ROOT

    published = read_published_times(ROOT / "figures" / "notebook_times.csv")
    assert set(published) == {p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")}
    assert all(seconds is None or seconds > 0 for seconds in published.values())


@pytest.mark.slow
def test_profile_run_writes_cell_and_section_times_and_notebooks_stay_clean(tmp_path, capsys):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    parameters = nbformat.v4.new_code_cell("fast = False")
    parameters.metadata["tags"] = ["parameters"]
    nbformat.write(_notebook([
        nbformat.v4.new_markdown_cell("# 01 — toy"), parameters,
        nbformat.v4.new_markdown_cell("## Sleeping"),
        nbformat.v4.new_code_cell("import time\ntime.sleep(0.3)"),
        nbformat.v4.new_code_cell("time.sleep(0.2)"),
    ]), folder / "01_toy.ipynb")
    out = tmp_path / "out"
    assert reproduce.main(["--notebooks", str(folder), "--fast", "--output-dir", str(out), "--profile"]) == 0
    sections = list(csv.DictReader((out / "profile" / "01_toy_sections.csv").open()))
    sleeping = next(row for row in sections if row["section"] == "Sleeping")
    assert sleeping["cells"] == "2" and 0.5 <= float(sleeping["seconds"]) < 5
    summary = list(csv.DictReader((out / "profile" / "notebooks.csv").open()))
    assert [row["notebook"] for row in summary] == ["01_toy.ipynb"]
    assert float(summary[0]["seconds"]) >= float(summary[0]["cells_seconds"]) >= 0.5
    executed = json.loads((out / "01_toy.ipynb").read_text())
    assert "duration" not in json.dumps(executed)  # the executed notebook keeps no timing


def test_bench_sets_each_notebook_beside_its_published_time():
    """The README's notebook line shows the published time where ``make bench`` had one."""
    import pandas as pd

    from benchmarks.report import speed_markdown

    table = pd.DataFrame([
        {"benchmark": "notebook wall time", "size": "01_a.ipynb", "ours_s": 150.0, "reference_s": 319.0},
        {"benchmark": "notebook wall time", "size": "02_b.ipynb", "ours_s": 20.0, "reference_s": None},
    ])
    block = speed_markdown(table, "Benchmarks, 2026-12-06, x86_64, 2 cores, Python 3.11.7")
    assert "01 150 s (published 319 s) · 02 20.0 s." in block
