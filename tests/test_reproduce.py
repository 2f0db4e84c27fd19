"""The papermill runner: order, selection, fast parameter, and failure reporting."""

import json

import nbformat
import pytest

from companion import reproduce


def _write_notebook(path, sources, tag_parameters=True):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    cells = [nbformat.v4.new_code_cell("fast = False")]
    if tag_parameters:
        cells[0].metadata["tags"] = ["parameters"]
    cells += [nbformat.v4.new_code_cell(src) for src in sources]
    nb.cells = cells
    nbformat.write(nb, path)
    return path


@pytest.fixture
def notebooks(tmp_path):
    _write_notebook(tmp_path / "01_ok.ipynb", ["print('mode', 'fast' if fast else 'full')"])
    _write_notebook(tmp_path / "02_fails.ipynb", ["x = 1", "raise RuntimeError('deliberate failure')"])
    (tmp_path / "scratch.ipynb").write_text("{}")  # unnumbered: ignored
    return tmp_path


def test_discovery_is_ordered_and_selectable(notebooks):
    names = [p.name for p in reproduce.discover_notebooks(notebooks)]
    assert names == ["01_ok.ipynb", "02_fails.ipynb"]
    assert [p.name for p in reproduce.discover_notebooks(notebooks, ["2"])] == ["02_fails.ipynb"]
    with pytest.raises(ValueError, match="no notebook numbered 07"):
        reproduce.discover_notebooks(notebooks, ["07"])


def test_failing_notebook_names_cell_keeps_original_and_exits_nonzero(notebooks, capsys):
    original = (notebooks / "02_fails.ipynb").read_bytes()
    failed_dir = notebooks / "failed"
    status = reproduce.main(["--notebooks", str(notebooks), "--fast", "--failed-dir", str(failed_dir)])
    out = capsys.readouterr().out
    assert status == 1
    assert "01_ok.ipynb" in out and "02_fails.ipynb" in out and "FAILED" in out
    assert "cell 2 (0-based): RuntimeError: deliberate failure" in out
    assert (failed_dir / "02_fails.ipynb").is_file()  # partial run kept for inspection
    assert "1 ok, 1 failed" in out
    assert (notebooks / "02_fails.ipynb").read_bytes() == original  # committed copy untouched
    executed = nbformat.read(notebooks / "01_ok.ipynb", as_version=4)
    printed = [o["text"] for c in executed.cells if c.cell_type == "code" for o in c.outputs if "text" in o]
    assert "mode fast\n" in printed  # --fast injected the parameter
    assert "start_time" not in json.dumps(executed.metadata)  # volatile metadata stripped


def test_only_selects_and_success_exits_zero(notebooks, capsys):
    assert reproduce.main(["--notebooks", str(notebooks), "--only", "01"]) == 0
    out = capsys.readouterr().out
    assert "1 ok, 0 failed" in out and "02_fails" not in out.split("Summary")[1]


def test_corrupted_notebook_gets_a_clear_message(tmp_path, capsys):
    (tmp_path / "03_broken.ipynb").write_text('{"cells": [')
    assert reproduce.main(["--notebooks", str(tmp_path)]) == 1
    assert "03_broken.ipynb is not a valid notebook" in capsys.readouterr().out
