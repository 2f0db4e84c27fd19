"""``make test``'s file order: the notebooks first, longest first; nothing dropped, files in their own order."""

from __future__ import annotations

from types import SimpleNamespace

from companion.paths import ROOT
from tests._ordering import longest_notebooks_first, notebook_seconds


def _item(path, name):
    return SimpleNamespace(path=ROOT / path, name=name)


def test_notebooks_come_first_longest_first_and_every_file_keeps_its_order():
    items = [_item("tests/test_a.py", "a1"), _item("notebooks/00_overview.ipynb", "c1"),
             _item("tests/test_a.py", "a2"), _item("notebooks/01_x.ipynb", "c1"),
             _item("notebooks/00_overview.ipynb", "c2"), _item("companion/b.py", "doc"),
             _item("notebooks/01_x.ipynb", "c2"), _item("notebooks/02_y.ipynb", "c1")]
    ordered = longest_notebooks_first(items, {"01_x.ipynb": 300.0, "00_overview.ipynb": 2.0})
    assert [(i.path.name, i.name) for i in ordered] == [
        ("01_x.ipynb", "c1"), ("01_x.ipynb", "c2"), ("00_overview.ipynb", "c1"), ("00_overview.ipynb", "c2"),
        ("02_y.ipynb", "c1"), ("test_a.py", "a1"), ("test_a.py", "a2"), ("b.py", "doc")]


def test_the_committed_report_times_every_notebook(tmp_path):
    seconds = notebook_seconds(ROOT / "figures" / "benchmarks.csv")
    assert set(seconds) == {p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")}
    assert all(s > 0 for s in seconds.values())
    assert notebook_seconds(tmp_path / "missing.csv") == {}
