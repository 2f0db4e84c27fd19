"""Static checks of the committed notebooks (nbval checks their outputs separately)."""

import json
import re

import pytest

from companion.paths import NOTEBOOKS

NOTEBOOK_FILES = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


#: Each paper's notebook number, a word of its file name, and what its title cell must cite: the
#: first author's surname and the year (typed here once more on purpose, to check the notebook).
PAPERS = {
    "01": ("decision_list", ("Sokolova", "2002")),
    "02": ("prism", ("Cendrowska", "1987")),
    "03": ("boolean_kernels", ("Kowalczyk", "2001")),
    "04": ("widc", ("Nock", "2002")),
    "05": ("stump", ("Shah", "2012")),
}


def test_every_paper_has_its_notebook_and_its_title_cell_cites_the_paper():
    by_number = {p.name[:2]: p for p in NOTEBOOK_FILES}
    assert "00" in by_number, "the overview notebook 00 is missing"
    for number, (topic, citation) in PAPERS.items():
        assert number in by_number, f"paper {number} has no notebook"
        path = by_number[number]
        assert topic in path.name, f"notebook {path.name} is not about paper {number} ({topic})"
        title = "".join(json.loads(path.read_text(encoding="utf-8"))["cells"][0]["source"])
        # the citation opens the notebook: the title cell, before the first section
        assert all(word in title for word in citation), f"{path.name}'s title cell does not cite {citation}"
    assert set(by_number) == {"00", *PAPERS}, "a notebook without a paper (or a paper missing here)"


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


@pytest.mark.parametrize("path", NOTEBOOK_FILES, ids=lambda p: p.name)
def test_notebook_committed_without_run_specific_metadata(path):
    """What `make reproduce` writes depends on the inputs only, so a re-run on another machine
    leaves `git status` clean: no timestamps, paths or tool/Python versions, and a fixed id for
    the cell papermill injects (it draws a random one on every run)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    papermill = nb["metadata"].get("papermill", {})
    volatile = {"start_time", "end_time", "duration", "input_path", "output_path", "version"}
    assert not volatile & papermill.keys(), "run python -m companion.reproduce (it strips them)"
    assert "version" not in nb["metadata"].get("language_info", {})
    for cell in nb["cells"]:
        assert not {"papermill", "execution"} & cell.get("metadata", {}).keys()
        if "injected-parameters" in cell.get("metadata", {}).get("tags", []):
            assert cell.get("id") == "injected-parameters"


@pytest.mark.parametrize("number", sorted(PAPERS))
def test_notebook_leads_with_its_verdicts_as_its_claims_table_has_them(number):
    """The verdicts come first: a "Verdicts at a glance" box right after the imports holds the
    summary of the notebook's claims table (central claims, every row by kind), filled in by the
    claims section when the notebook runs. nbval skips the box (it is filled after its cell ran);
    this test checks its committed content against the committed table instead."""
    from companion.claims._report import summary
    from companion.paths import ROOT

    path = next(p for p in NOTEBOOK_FILES if p.name.startswith(number))
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    heading = next(i for i, c in enumerate(cells) if "".join(c["source"]).startswith("## Verdicts at a glance"))
    first_section = next(i for i, c in enumerate(cells) if c["cell_type"] == "markdown" and i > 0
                         and "".join(c["source"]).startswith("## "))
    assert heading == first_section, f"{path.name}: the verdicts must be the first section"
    box = cells[heading + 1]
    assert "nbval-ignore-output" in box["metadata"].get("tags", [])
    shown = "".join(box["outputs"][0]["data"]["text/markdown"])
    assert shown == summary(ROOT / "figures" / f"{number}_claims.csv").data
    assert any("verdicts.update(" in "".join(c["source"]) and "summary()" in "".join(c["source"]) for c in cells)
