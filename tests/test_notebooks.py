"""Static checks of the committed notebooks (nbval checks their outputs separately)."""

import json
import re

import pytest

from companion.paths import NOTEBOOKS

NOTEBOOK_FILES = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def test_every_paper_has_its_notebook():
    numbers = {p.name[:2] for p in NOTEBOOK_FILES}
    assert "00" in numbers


@pytest.mark.parametrize("path", NOTEBOOK_FILES, ids=lambda p: p.name)
def test_notebook_anatomy(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    cells = nb["cells"]
    assert cells[0]["cell_type"] == "markdown"
    assert "".join(cells[0]["source"]).startswith(f"# {path.name[:2]}"), "title '# NN — ...' first"
    code = [c for c in cells if c["cell_type"] == "code"]
    assert any("parameters" in c.get("metadata", {}).get("tags", []) for c in code)
    parameters = next(c for c in code if "parameters" in c.get("metadata", {}).get("tags", []))
    assert re.search(r"^fast\s*=\s*False", "".join(parameters["source"]), re.M)


@pytest.mark.parametrize("path", NOTEBOOK_FILES, ids=lambda p: p.name)
def test_notebook_committed_executed_in_order_without_errors(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    counts = [c["execution_count"] for c in nb["cells"] if c["cell_type"] == "code" and c["source"]]
    assert None not in counts, "commit the notebook executed (python -m companion.reproduce)"
    assert counts == list(range(1, len(counts) + 1)), "executed top to bottom in one run"
    for cell in nb["cells"]:
        for output in cell.get("outputs", []):
            assert output["output_type"] != "error"


@pytest.mark.parametrize("path", NOTEBOOK_FILES, ids=lambda p: p.name)
def test_notebook_leaks_no_machine_paths(path):
    text = path.read_text(encoding="utf-8")
    for pattern in (r"/work/", r"/root/", r"/tmp/", r"/home/\w+"):
        assert not re.search(pattern, text), f"{path.name} contains a machine path ({pattern})"
