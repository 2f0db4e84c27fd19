"""The README's user section runs as written and describes every learner (issue 14).

Its ```python blocks are executed in order, in one namespace, so the quick start cannot rot.
"""

import re

import pytest

import companion
from companion.paths import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
HEADING = "## Use the learners on your own data"


def _section(heading: str) -> str:
    start = README.index(heading + "\n")
    following = README.find("\n## ", start + len(heading))
    return README[start : following if following != -1 else len(README)]


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.M | re.S)


def test_section_has_the_quick_start_and_install_lines():
    section = _section(HEADING)
    assert len(_python_blocks(section)) >= 2
    for line in ("pip install .", 'pip install ".[notebooks]"', "make lab"):
        assert line in section
    assert "make lab" in README.split("\n## ")[0]  # also beside make reproduce / make test


@pytest.mark.slow
def test_quick_start_runs(capsys):
    namespace = {"__name__": "readme"}
    for block in _python_blocks(_section(HEADING)):
        exec(compile(block, "README.md", "exec"), namespace)
    printed = capsys.readouterr().out
    assert "test ROC AUC" in printed and "wine, one-vs-rest ROC AUC" in printed
    assert 0.5 < namespace["search"].score(namespace["X_test"], namespace["y_test"]) <= 1
    assert "num__age" in printed  # the pipeline's column names reached the model's text


def test_support_table_lists_every_public_learner():
    from sklearn.base import ClassifierMixin

    section = _section(HEADING)
    table_rows = [line for line in section.splitlines() if line.startswith("| `")]
    names = set(companion.__all__) - {"__version__"}
    learners = {name for name in names if issubclass(getattr(companion, name), ClassifierMixin)}
    assert len(learners) >= 13
    for name in learners:
        assert any(f"`{name}`" in row for row in table_rows), name
    for name in names - learners:  # the transformers: named in the section, outside the learner table
        assert f"`{name}`" in section and not any(f"`{name}`" in row for row in table_rows), name


def test_speed_section_keeps_its_table_and_links_the_profiling_notes():
    speed = _section("## Speed (`make bench`)")
    assert "| benchmark | size | ratio (ours / reference)" in speed
    assert "benchmarks/README.md" in speed and (ROOT / "benchmarks" / "README.md").is_file()
    assert "was profiled" not in speed
    assert "was profiled" in (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")


def test_claims_sections_of_02_and_03_are_the_committed_verdicts():
    """The README's 02 and 03 verdicts are generated from the committed claims tables, not typed."""
    from companion.claims import stale_readme_sections

    sections = {key: ROOT / "figures" / f"{key}_claims.csv" for key in ("02", "03")}
    assert stale_readme_sections(ROOT / "README.md", sections) == []
