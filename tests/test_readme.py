"""The README is a front door: short, its code blocks run as written, its verdicts generated.

Each ```python block of the user section is executed on its own, so the quick start cannot rot.
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
    for line in ("pip install .", 'pip install ".[notebooks]"'):
        assert line in section
    commands = _section("## Two commands")
    for line in ("make reproduce", "make test", "make lab", "make test-fast"):
        assert line in commands


def _blocks():
    return _python_blocks(_section(HEADING))


@pytest.mark.slow
@pytest.mark.parametrize("number", range(2))
def test_every_code_block_runs_on_its_own(number, capsys):
    """Each ```python block of the user section runs alone, in a fresh namespace: a reader may
    copy any one of them."""
    blocks = _blocks()
    assert len(blocks) == 2  # the weights and JSON-export examples live in docs/using.md (doctests there)
    namespace = {"__name__": "readme"}
    exec(compile(blocks[number], f"README.md block {number + 1}", "exec"), namespace)
    printed = capsys.readouterr().out
    expected = [
        ["majority class", "OccamStumps", "covered", "errors"],
        ["test ROC AUC", "num__age"],
    ][number]
    for text in expected:
        assert text in printed, (number, text)
    if number == 0:
        majority, occam = map(float, re.findall(r"(\d\.\d{3})", printed)[:2])
        assert occam > majority  # the default learner beats the majority class
    if number == 1:
        assert 0.5 < namespace["search"].score(namespace["X_test"], namespace["y_test"]) <= 1


def test_readme_is_a_front_door():
    """At most 16 KB, with the two commands first and the user section before the results."""
    assert len(README.encode("utf-8")) <= 16 * 1024
    headings = re.findall(r"^## (.+)$", README, flags=re.M)
    assert headings[:3] == ["Two commands", "How to read a notebook", "Use the learners on your own data"]
    assert headings.index("Results at a glance") > headings.index("Use the learners on your own data")
    for link in ("docs/results.md", "docs/using.md", "benchmarks/README.md", "CONTRIBUTING.md"):
        assert f"]({link})" in README and (ROOT / link).is_file(), link


def test_support_table_lists_every_public_learner():
    """The one table of what each learner takes and gives (docs/using.md, linked from the README's
    user section) has a row for every public learner, and no transformer."""
    from sklearn.base import ClassifierMixin

    section = _section(HEADING)
    assert "docs/using.md#scores-probabilities-and-input-of-each-learner" in section
    using = (ROOT / "docs" / "using.md").read_text(encoding="utf-8")
    start = using.index("## Scores, probabilities and input of each learner")
    table_rows = [line for line in using[start:using.index("\n## ", start + 1)].splitlines() if line.startswith("| `")]
    names = {name for name in companion.__all__ if isinstance(getattr(companion, name), type)}
    learners = {name for name in names if issubclass(getattr(companion, name), ClassifierMixin)}
    assert len(learners) >= 13
    for name in learners:
        assert any(f"`{name}`" in row for row in table_rows), name
    for name in names - learners:  # the transformers: named in the section, outside the learner table
        assert f"`{name}`" in section and not any(f"`{name}`" in row for row in table_rows), name


def test_results_are_the_committed_verdicts():
    """docs/results.md holds every claims table's sentences and the README its glance block, both
    generated from the committed tables, not typed."""
    from companion.claims import publish

    assert len(list((ROOT / "figures").glob("[0-9][0-9]_claims.csv"))) >= 3
    assert publish(ROOT, write=False) == []
