"""``make site``: the executed notebooks, the README and docs/ as a static site, read in a real browser.

The site is built (as ``make site`` builds it, into a temporary folder, without network where the
machine can cut it: ``unshare -n``) and every page is opened in headless Chromium by
:func:`tests._site.check_site`, which fails on a console error, a request that fails or leaves
the machine, an image that does not load, a broken internal link or anchor, math left untypeset
or as raw TeX, a notebook without its page or provenance line, and a number of the README's glance
that is not a link. A small site built from a tree made here, with one defect per page, shows
that each of those checks can fail, on the page holding the defect and only there.

The browser tests need the machine's Chromium (Debian's ``chromium``: ``apt-get install
chromium``); where there is none they are skipped, saying so. ``.ci/run`` installs it when it can.
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from companion.paths import ROOT
from tests._site import PROVENANCE, STORY_WORDS, build_site, check_site, find_chromium, site_command

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
NO_CHROMIUM = ("no Chromium on this machine: the site's browser test needs Debian's chromium "
               "(apt-get install chromium) or COMPANION_CHROMIUM pointing at one")


@pytest.fixture(scope="module")
def chromium():
    pytest.importorskip("playwright", reason="Playwright (the site extra of requirements.lock) is not installed")
    path = find_chromium()
    if path is None:
        pytest.skip(NO_CHROMIUM)
    return path


def _offline(command: list[str]) -> list[str]:
    """``command`` in a network namespace of its own (no network at all) where the machine allows it."""
    if shutil.which("unshare") and subprocess.run(["unshare", "-rn", "true"], capture_output=True).returncode == 0:
        return ["unshare", "-rn", *command]
    return command


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The checkout's site, built offline into a temporary folder: (folder, processor seconds, warnings)."""
    out = tmp_path_factory.mktemp("site") / "html"
    seconds, warnings = build_site(out, wrap=_offline)
    return out, seconds, warnings


def test_make_site_runs_the_tested_command():
    """``make site`` and these tests build with the same Sphinx command, into build/site by default."""
    completed = subprocess.run(["make", "-n", "site"], cwd=ROOT, capture_output=True, text=True, check=True)
    line = next(line for line in completed.stdout.splitlines() if "sphinx" in line)
    expected = site_command(Path("."), Path("build/site"))[1:]  # the interpreter is make's $(PY)
    assert line.split()[1:] == [str(a) if a != str(ROOT / "docs") else "docs" for a in expected], line


def test_readme_names_make_site_beside_the_two_commands():
    """Where the site lands and how to open it, in the README's "Two commands" section."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("## Two commands\n")
    section = readme[start: readme.index("\n## ", start + 1)]
    for text in ("make site", "build/site/index.html", "http.server", "apt-get install chromium"):
        assert text in section, text


@pytest.mark.slow
def test_site_builds_offline_quickly_and_without_warnings(site):
    out, seconds, warnings = site
    assert not warnings, "the site's build warns:\n" + "\n".join(warnings)
    assert seconds < 60, f"the site's build took {seconds:.0f} s of processor time"  # well under 2 minutes
    assert (out / "index.html").is_file() and (out / "README.html").is_file()
    for notebook in NOTEBOOKS:
        assert (out / "notebooks" / f"{notebook.stem}.html").is_file(), notebook.name
    # MathJax is served by the site itself; no page names a CDN
    assert (out / "_static" / "mathjax" / "tex-chtml.js").is_file()
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"""(src|href)=["']https?://(?!127\.0\.0\.1)[^"']*\.(js|css|woff2?)""", text), page


@pytest.mark.slow
def test_every_page_reads_in_a_real_browser(chromium, site):
    out, _, _ = site
    report = check_site(out, chromium=chromium)
    assert not report.problems, report.summary()
    assert {f"notebooks/{n.stem}.html" for n in NOTEBOOKS} <= set(report.pages)
    assert report.formulas > 100 and report.images > 0 and report.glance_links > 0, report.summary()
    # every notebook figure was found with its caption and alt text (a problem otherwise), and a
    # click enlarged the first of each page that has one
    assert report.figures >= len(NOTEBOOKS) and report.enlarged and all(report.enlarged.values()), report.summary()
    # what the checks measured, not only that nothing failed: every page at both screens, both
    # menus of a notebook opened at both, each numbered notebook's verdict box and the index's
    # central claims found on the first screen
    assert {(p, w) for p in report.pages if p != "index.html" for w in (1280, 390)} <= set(report.widths)
    # (at 1280 "On this page" is shown beside the page, without a toggle; at 390 both are dialogs)
    for width, kind in ((1280, "primary"), (390, "primary"), (390, "secondary")):
        assert (f"notebooks/{NOTEBOOKS[1].stem}.html", width, kind) in report.menus, report.menus
    with_box = {f"notebooks/{n.stem}.html" for n in NOTEBOOKS
                if "## Verdicts at a glance" in n.read_text(encoding="utf-8")}
    assert with_box and set(report.verdict_tops) == with_box, report.summary()
    assert report.glance_bottom is not None, report.summary()
    # every verdict of every notebook, on its page and on docs/results.md, read in two layers
    rows = sum(len(pd.read_csv(path)) for path in (ROOT / "figures").glob("[0-9][0-9]_claims.csv"))
    assert report.headlines >= 2 * rows, report.summary()
    # every notebook's story measured (over the budget is a "length" problem above)
    assert {f"notebooks/{n.stem}.html" for n in NOTEBOOKS} <= set(report.story_words), report.summary()


@pytest.mark.slow
def test_every_notebook_page_says_what_executed_it(site):
    """The provenance line is generated from the notebook (stamp, papermill's parameters, the
    parameters cell), not typed: the seed it names is the notebook's own."""
    out, _, _ = site
    for notebook in NOTEBOOKS:
        nb = json.loads(notebook.read_text(encoding="utf-8"))
        stamp = nb["metadata"].get("companion", {})
        assert stamp.get("executed_by") == "python -m companion.reproduce", (
            f"{notebook.name} was not executed by the runner that stamps it: re-execute it with make reproduce")
        page = (out / "notebooks" / f"{notebook.stem}.html").read_text(encoding="utf-8")
        (block,) = re.findall(r'<div class="provenance[^"]*">(.*?)</div>', page, flags=re.S)
        text = re.sub(r"<[^>]+>", "", block)
        text = re.sub(r"\s+", " ", text)
        assert PROVENANCE.search(text), text
        assert f"--only {notebook.name[:2]}," in text, text  # the command that re-executes this one
        # the commit and date git gives for the file, the versions pinned then
        commit, date = subprocess.run(["git", "log", "-1", "--format=%H %cI", "--", f"notebooks/{notebook.name}"],
                                      cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
        assert f"Committed in {commit[:12]} on {date[:10]}" in text, text
        lock = subprocess.run(["git", "show", f"{commit}:requirements.lock"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout
        numpy = re.search(r"^numpy==(\S+)$", lock, flags=re.M).group(1)
        assert f"numpy {numpy}" in text, text
        # downloads: the notebook, its registry, every figures/NN_*.csv, each a file of the site
        targets = re.findall(r'<a class="reference download internal" download="" href="([^"]+)"', block)
        names = sorted(Path(t).name for t in targets)
        expected = sorted([notebook.name] + [p.name for p in (ROOT / "figures").glob(f"{notebook.name[:2]}_*.csv")]
                          + [p.name for p in (ROOT / "companion/experiments/registry").glob(f"paper{notebook.name[:2]}.toml")])
        assert names == expected, (notebook.name, names)
        for target in targets:
            assert (out / "notebooks" / target).resolve().is_file(), target
        assert f"companion version {stamp['version']}" in text
        seeds = re.findall(r"^seed = (\d+)", "".join(c for cell in nb["cells"] if "parameters" in
                                                   cell["metadata"].get("tags", []) for c in cell["source"]), re.M)
        assert (f"seed {seeds[0]}" if seeds else "no seed") in text, (notebook.name, text)


# A tree with one defect per page: each check must fail on that page and nowhere else.


def _png(broken: bool = False, saved: bool = False) -> str:
    """A PNG, base64; ``saved``: with the Title and Description that save_figure writes."""
    if broken:
        return base64.b64encode(b"\x89PNG\r\n\x1a\n but not an image").decode()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from companion.paths import _figure_text

    fig, ax = plt.subplots(figsize=(1, 1))
    ax.plot([0, 1], [0, 1])
    ax.set(title="Risk against size", xlabel="size", ylabel="risk")
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata=_figure_text(fig) if saved else None)
    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode()


#: A pandas table with a missing value, as a notebook shows it.
NAN_TABLE = pd.DataFrame({"errors": [1.0, float("nan")]}, index=["a", "b"]).to_html()


def _notebook(title: str, *, png: str | None = None, markdown_output: str = "", stamped: bool = True,
              verdicts: str | None = None, source: str = "show()", html_output: str = "") -> str:
    outputs = []
    if png is not None:
        outputs.append({"output_type": "display_data", "metadata": {},
                        "data": {"image/png": png, "text/plain": "<Figure>"}})
    if markdown_output:
        outputs.append({"output_type": "display_data", "metadata": {},
                        "data": {"text/markdown": markdown_output, "text/plain": "<Markdown>"}})
    if html_output:
        outputs.append({"output_type": "display_data", "metadata": {},
                        "data": {"text/html": html_output, "text/plain": "<Table>"}})
    metadata = {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
                "language_info": {"name": "python"},
                "papermill": {"parameters": {"fast": False}}}
    if stamped:
        metadata["companion"] = {"executed_by": "python -m companion.reproduce", "version": "0.1.0"}
    cells = [
        {"cell_type": "markdown", "id": "title", "metadata": {}, "source": f"# {title}\n\nA citation."},
        {"cell_type": "code", "id": "params", "metadata": {"tags": ["parameters"]}, "execution_count": 1,
         "outputs": [], "source": "fast = False\nseed = 3"},
        {"cell_type": "code", "id": "result", "metadata": {}, "execution_count": 2, "outputs": outputs,
         "source": source},
    ]
    if verdicts is not None:  # a verdict section after the set-up, as the numbered notebooks have
        box = {"output_type": "display_data", "metadata": {},
               "data": {"text/markdown": "* **a** holds", "text/plain": "<Markdown>"}}
        cells[2:2] = [
            {"cell_type": "markdown", "id": "verdicts", "metadata": {}, "source": verdicts},
            {"cell_type": "code", "id": "box", "metadata": {}, "execution_count": 3, "outputs": [box],
             "source": "display(box)"},
        ]
    return json.dumps({"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5})


DEFECTS = {
    # page: (source file, its text, the kinds of problem the browser check must report there)
    "docs/broken_link.html": ("docs/broken_link.md", '# A link\n\n<a href="nowhere.html">a page that is not there</a>\n',
                              {"link"}),
    "docs/broken_anchor.html": ("docs/broken_anchor.md", "# An anchor\n\n[claim](results.md#claim-01-gone)\n",
                                {"anchor"}),
    "docs/broken_image.html": ("docs/broken_image.md", "# An image\n\n![figure](missing.png)\n",
                               {"image", "network", "console"}),
    "docs/broken_formula.html": ("docs/broken_formula.md", "# A formula\n\nThe bound $\\frac{1}{m$ holds.\n",
                                 {"math"}),
    "docs/raw_dollar.html": ("docs/raw_dollar.md",  # a `|` inside $…$ in a table cell
                             "# A table\n\n| bound | value |\n|---|---|\n| $\\|x| | $1$ |\n", {"math"}),
    "docs/display_in_paragraph.html": ("docs/display_in_paragraph.md",  # $$ … $$ inside a paragraph
                                       "# Display math\n\nThe risk is\n$$R = 1$$ for every tree.\n", {"math"}),
    "docs/console_error.html": ("docs/console_error.md",
                                '# A script\n\n<script>console.error("boom")</script>\n', {"console"}),
    "docs/cdn.html": ("docs/cdn.md", '# A CDN\n\n<img src="https://cdn.example.org/logo.png" alt="logo">\n',
                      {"network", "image", "console"}),
    "notebooks/02_broken_figure.html": ("notebooks/02_broken_figure.ipynb",
                                        _notebook("02 — a figure that does not decode", png=_png(broken=True),
                                                  source='save_figure(fig, "02_broken_figure")\nfig'),
                                        {"image"}),
    "notebooks/06_uncaptioned.html": ("notebooks/06_uncaptioned.ipynb",  # shown, never saved: no caption
                                      _notebook("06 — a figure without caption or alt text", png=_png()),
                                      {"figure"}),
    "docs/nan_table.html": ("docs/nan_table.md", "# A table\n\n| data set | errors |\n|---|---|\n| a | NaN |\n",
                            {"table"}),
    "notebooks/03_unstamped.html": ("notebooks/03_unstamped.ipynb",
                                    _notebook("03 — not executed by the runner", stamped=False), {"notebook"}),
    "README.html": ("README.md",
                    "# Mini companion\n\n<!-- claims:glance -->\n| notebook | claims | holds |\n|---|---|---|\n"
                    "| 01 | [2](docs/results.md#notebook-01) | 1 |\n<!-- /claims:glance -->\n\n"
                    "[results](docs/results.md), [notebook](notebooks/01_clean.ipynb)\n", {"glance"}),
    "notebooks/04_late.html": ("notebooks/04_late.ipynb", None, {"notebook"}),  # added after the build
    "docs/too_wide.html": ("docs/too_wide.md",  # wider than both screens, in no box of its own
                           '# Too wide\n\n<div style="width: 1500px">a line wider than any screen</div>\n',
                           {"width"}),
    "docs/dead_toggle.html": ("docs/dead_toggle.md",  # the toggle's listeners lost, as in #2451
                              "# A dead toggle\n\n<script>window.addEventListener('load', () => {\n"
                              "  const b = document.querySelector('.bd-header-article .primary-toggle');\n"
                              "  b.replaceWith(b.cloneNode(true));\n});</script>\n", {"menu"}),
    "docs/long_verdict.html": ("docs/long_verdict.md",  # a first layer over budget, one with nothing folded
                               '# Verdicts\n\n* **a.** A beats B — <span class="verdict-headline">'
                               + "holds " * 26 + "</span>\n\n  <details><summary>Statistics</summary>\n\n"
                               "  p < 0.001\n\n  </details>\n\n"
                               '* **b.** C beats D — <span class="verdict-headline">holds</span>\n', {"verdict"}),
    "notebooks/07_long_story.html": ("notebooks/07_long_story.ipynb",  # more words open than the budget
                                     _notebook("07 — a story over its budget",
                                               verdicts="## Verdicts at a glance\n\nThe box.",
                                               markdown_output="Words. " * (STORY_WORDS + 100)), {"length"}),
    "notebooks/05_late_verdict.html": ("notebooks/05_late_verdict.ipynb",  # the box two screens down
                                       _notebook("05 — a verdict below the first screen", verdicts=(
                                           "## Verdicts at a glance\n\n" + "A long preamble.\n\n" * 60)),
                                       {"first-screen"}),
}

CLEAN = {
    "docs/results.md": ('# Results\n\n<a id="notebook-01"></a>\n\n'
                        '* <a id="claim-01-a"></a>**[a](../notebooks/01_clean.ipynb#claim-01-a).** '
                        '— <span class="verdict-headline">**holds**; no variant run</span>\n\n'
                        "  <details><summary>Statistics and variants</summary>\n\n"
                        "  holds: $\\hat R = 0.25$, within\n\n  $$\n  [0, 1].\n  $$\n\n  </details>\n"),
    "notebooks/01_clean.ipynb": _notebook("01 — everything right", png=_png(),
                                          markdown_output='* <a id="claim-01-a"></a>**a** holds: $\\alpha < 1$.',
                                          verdicts="## Verdicts at a glance\n\nThe central claim.",
                                          source='save_figure(fig, "01_clean")\nfig', html_output=NAN_TABLE),
}
#: The PNGs save_figure wrote for the notebooks above (the site reads their Title and Description).
SAVED = {"figures/01_clean.png": _png(saved=True), "figures/02_broken_figure.png": _png(saved=True)}


@pytest.mark.slow
def test_the_browser_check_fails_on_each_defect_where_it_is(tmp_path, chromium):
    source = tmp_path / "tree"
    for relative, text in CLEAN.items():
        (source / relative).parent.mkdir(parents=True, exist_ok=True)
        (source / relative).write_text(text, encoding="utf-8")
    for relative, text, _ in DEFECTS.values():
        if text is not None:
            (source / relative).parent.mkdir(parents=True, exist_ok=True)
            (source / relative).write_text(text, encoding="utf-8")
    for relative, png in SAVED.items():
        (source / relative).parent.mkdir(parents=True, exist_ok=True)
        (source / relative).write_bytes(base64.b64decode(png))
    out = tmp_path / "html"
    _, warnings = build_site(out, source=source)
    # Sphinx itself already warns about some of them
    assert any("claim-01-gone" in w for w in warnings), warnings
    assert any("missing.png" in w for w in warnings), warnings
    (source / "notebooks" / "04_late.ipynb").write_text(_notebook("04 — not built"), encoding="utf-8")

    report = check_site(out, source=source, chromium=chromium, search_word="everything")
    found: dict[str, set[str]] = {}
    for problem in report.problems:
        found.setdefault(problem.page, set()).add(problem.kind)
    expected = {page: kinds for page, (_, _, kinds) in DEFECTS.items()}
    assert found == expected, report.summary()
    # the clean pages passed every check: a typeset formula, a figure, the claim's anchor, the
    # verdict box on the first screen, both menus opened at both widths
    assert report.formulas >= 3 and report.images >= 1 and report.anchors >= 2, report.summary()
    assert report.headlines == 3, report.summary()  # the clean one and the two defective ones
    assert report.story_words["notebooks/01_clean.html"] < 200 < STORY_WORDS < report.story_words["notebooks/07_long_story.html"]
    # the clean figure has its caption and alt text, from the PNG save_figure wrote, and a click enlarges it
    assert report.figures >= 3 and report.enlarged == {
        "notebooks/01_clean.html": True, "notebooks/02_broken_figure.html": True}, report.summary()
    clean = (out / "notebooks" / "01_clean.html").read_text(encoding="utf-8")
    assert 'alt="One panel. Risk against size: risk against size."' in clean
    assert "Figure 01_clean.</strong> Risk against size" in clean
    assert "<td>–</td>" in clean and "no value here" in clean  # the NaN cell shows a dash, and says why
    assert set(report.verdict_tops) == {"notebooks/01_clean.html", "notebooks/05_late_verdict.html",
                                        "notebooks/07_long_story.html"}, report.summary()
    assert report.verdict_tops["notebooks/01_clean.html"] < 800 < report.verdict_tops["notebooks/05_late_verdict.html"]
    assert {(w, kind) for (page, w, kind) in report.menus if page == "docs/results.html"} == {
        (1280, "primary"), (390, "primary")}, report.menus  # one heading: no "On this page" menu


@pytest.mark.slow
def test_a_request_is_awaited_and_charged_to_the_page_that_sent_it(tmp_path, chromium):
    """A page is finished before the next opens: a request of its own still loading at the timeout
    is its problem, and the abort the checker causes by moving on is charged to no page."""
    site = tmp_path / "html"
    site.mkdir()
    never = site / "never.txt"
    os.mkfifo(never)  # the server's open() waits for a writer that never comes: a request that never ends
    (site / "a_hanging.html").write_text(
        "<html><body><p>a</p><script>fetch('never.txt');</script></body></html>", encoding="utf-8")
    (site / "b_quiet.html").write_text("<html><body><p>b</p></body></html>", encoding="utf-8")
    try:
        report = check_site(site, source=tmp_path, chromium=chromium, timeout_ms=3000)
    finally:
        try:  # release the server's thread
            os.close(os.open(never, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass
    mine = [p for p in report.problems if p.page != "search.html"]  # a folder without a search page
    assert [(p.page, p.kind, p.detail.rsplit("/", 1)[-1]) for p in mine] == [
        ("a_hanging.html", "network", "never.txt still loading after 3 s")], report.summary()


@pytest.mark.slow
def test_the_examples_of_docs_using_md_run_as_written():
    """Every ```pycon block of docs/using.md (the Dask cluster example) is a doctest that passes."""
    import doctest

    text = (ROOT / "docs" / "using.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```pycon\n(.*?)^```$", text, flags=re.M | re.S)
    assert blocks, "docs/using.md has no ```pycon example"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    for number, block in enumerate(blocks, start=1):
        runner.run(parser.get_doctest(block, {}, f"docs/using.md block {number}", "docs/using.md", 0))
    results = runner.summarize(verbose=False)
    assert results.failed == 0 and results.attempted >= 8, results


# The site's layout of the pages, applied in memory (docs/_ext/companion_site.py).


def _site_extension():
    import importlib
    import sys

    pytest.importorskip("sphinx", reason="Sphinx (the site extra of requirements.lock) is not installed")
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        return importlib.import_module("companion_site")
    finally:
        sys.path.remove(str(ROOT / "docs" / "_ext"))


def test_the_landing_page_leads_with_the_central_claims():
    """The README's glance section moves under its title on the site, the central claims first and
    still inside the generated block; nothing is lost or added."""
    site = _site_extension()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    page = site.glance_first(readme)
    from collections import Counter

    assert Counter(line for line in page.splitlines() if line) == Counter(line for line in readme.splitlines() if line)
    lines = page.splitlines()
    title = next(i for i, line in enumerate(lines) if line.startswith("# "))
    headings = [line for line in lines if line.startswith("## ")]
    assert headings[0] == site.GLANCE_SECTION and lines.index(site.GLANCE_SECTION) == title + 2
    start, end = lines.index("<!-- claims:glance -->"), lines.index("<!-- /claims:glance -->")
    bullets = [i for i, line in enumerate(lines) if line.startswith("* [")]
    table = [i for i, line in enumerate(lines) if line.startswith("| notebook | empirical")]
    assert start < bullets[0] and bullets[-1] < table[0] < end and len(table) == 1
    assert site.glance_first("# Title\n\nno glance\n") == "# Title\n\nno glance\n"


def test_a_notebook_page_puts_its_verdict_box_under_its_title():
    """Title, then the verdict section, then the rest of the title cell, then the set-up cells with
    their source folded: every cell kept, ids unique, the notebook's JSON otherwise unchanged."""
    site = _site_extension()
    nb = json.loads(NOTEBOOKS[1].read_text(encoding="utf-8"))
    before = [c.get("id") for c in nb["cells"]]
    assert site.arrange_for_site(nb)
    cells = nb["cells"]
    ids = [c.get("id") for c in cells]
    assert len(set(ids)) == len(ids) == len(before) + 1 and set(before) < set(ids)
    assert "".join(cells[0]["source"]).startswith("# ") and "\n" not in "".join(cells[0]["source"]).strip()
    assert "".join(cells[1]["source"]).startswith(site.VERDICTS_HEADING)
    assert cells[2]["cell_type"] == "code" and "remove-input" in cells[2]["metadata"]["tags"]  # the box
    assert cells[3]["id"].endswith("-text")  # the citation and summary
    setup = [c for c in cells[4:] if c["id"] in before[:before.index(cells[1]["id"])]]
    assert setup and all("hide-input" in c["metadata"]["tags"] for c in setup if c["cell_type"] == "code")
    later = [c for c in cells if c["cell_type"] == "code" and c not in setup and c is not cells[2]]
    assert not any("hide-input" in c["metadata"].get("tags", []) for c in later)


def test_the_api_page_documents_every_public_module():
    """docs/api.md is generated from the package: the modules it documents are those whose
    docstrings tests/test_docstrings.py validates, no more and no fewer."""
    from tests.test_docstrings import PUBLIC_MODULES

    site = _site_extension()
    modules = site.api_modules()
    assert modules[0] == "companion" and sorted(modules) == sorted(PUBLIC_MODULES)
    page = site.api_page()
    assert all(f".. automodule:: {name}\n" in page for name in modules)


def test_docstrings_become_valid_restructuredtext_on_the_api_page():
    """What autodoc would reject in a numpydoc docstring read as reStructuredText is escaped or
    laid out as text, outside literals only."""
    site = _site_extension()
    lines = ["The fitted ``n_features_in_`` and n_features_in_; genes of largest |Welch t|.",
             "    Returns", "    -------", "    int", "        A count.", "    Raises", "    ------",
             "    ValueError", "        Never."]
    site.docstring_as_text(None, "function", "f", None, {}, lines)
    assert lines[0] == "The fitted ``n_features_in_`` and n_features_in\\_; genes of largest \\|Welch t\\|."
    assert lines[1:3] == ["", "    Returns"] and lines[6:8] == ["", "    Raises"]  # numpydoc needs them
    table = ["Doc.", "", "====  ===", "a     b", "====  ===", "long  x", "====  ===", "", "Examples", "--------",
             ">>> 1", "1"]
    site.docstring_as_text(None, "module", "m", None, {}, table)
    assert table[:8] == ["Doc.", "", "====  ===", "a     b", "====  ===", "long  x", "====  ===", ""]
    assert ".. rubric:: Examples" in table  # several modules on one page: no duplicate section ids
    broken = ["====  ===", "a     b", "====  ===", "longer x", "====  ==="]
    site.docstring_as_text(None, "module", "m", None, {}, broken)
    assert "::" in broken and "    longer x" in broken  # text in a column gap: shown as preformatted


def test_a_detail_section_folds_on_the_site_and_keeps_its_verdicts_open():
    """Code sources folded everywhere; in a section whose heading is tagged ``detail``, the text after
    each opening paragraph (a caption's only when short) and the code outputs folded, a cell with both
    folded behind one toggle, verdict lists split off and left open, up to the next heading of the
    same level; a cell tagged ``detail-text`` has its text folded, its section open; the notebook's
    cells all kept."""
    site = _site_extension()
    markdown = lambda i, text, tags=(): {"cell_type": "markdown", "id": i, "metadata": {"tags": list(tags)},
                                         "source": text}
    output = lambda text: {"output_type": "display_data", "metadata": {},
                           "data": {"text/markdown": text, "text/plain": "<Markdown>"}}
    code = lambda i, *outs: {"cell_type": "code", "id": i, "metadata": {}, "execution_count": 1,
                             "outputs": list(outs), "source": "show()"}
    verdicts = '* **a.** A — <span class="verdict-headline">**holds**</span>'
    nb = {"cells": [
        markdown("story", "## Results\n\nOur table beside the paper's."), code("table", output("a table")),
        markdown("claims", "## The claims, judged\n\nShort opening.\n\nA long explanation.\n\n### Sub\n\n* a list",
                 tags=["detail"]),
        code("mixed", output("sensitivity"), output(verdicts), output("more tables")),
        markdown("sub", "### Another sub-section\n\nStill detail."), code("inner", output("x")),
        markdown("caption", "The table below."), code("captioned", output("z")),
        markdown("aside", " ".join(["word"] * 30)), code("aside-table", output("w")),
        markdown("end", "## Discussion\n\nOpen again."), code("after", output("y")),
        markdown("protocol", "## Protocol\n\nWhat we run.\n\nThe minutiae.", tags=["detail-text"]),
        code("protocol-table", output("v")),
    ]}
    site.fold_for_story(nb)
    cells = {c["id"]: c for c in nb["cells"]}
    assert [c["id"] for c in nb["cells"]] == ["story", "table", "claims", "mixed", "mixed-part1", "mixed-part2",
                                              "sub", "inner", "caption", "captioned", "aside", "aside-table",
                                              "end", "after", "protocol", "protocol-table"]
    tags = {c["id"]: c["metadata"]["tags"] for c in nb["cells"] if c["cell_type"] == "code"}
    assert all("hide-input" in t or "hide-cell" in t or "remove-input" in t for t in tags.values())
    for open_ in ("table", "after", "protocol-table"):  # outside detail sections: the outputs open
        assert tags[open_] == ["hide-input"], tags
    # source and outputs both folded: one toggle (hide-cell), not hide-input and hide-output stacked
    for folded in ("mixed", "inner", "captioned", "aside-table"):
        assert tags[folded] == ["hide-cell"], tags
    assert "hide-output" in cells["mixed-part2"]["metadata"]["tags"]
    assert cells["mixed-part1"]["metadata"]["tags"] == ["remove-input"] and cells["mixed-part1"]["outputs"][0]["data"][
        "text/markdown"] == verdicts
    assert "hide-cell" in cells["inner"]["metadata"]["tags"]  # a lower heading stays inside the detail section
    assert cells["caption"]["source"] == "The table below.\n"  # a short caption names the folded output
    assert cells["aside"]["source"].startswith('<details class="story-fold">')  # a longer one is folded
    assert cells["protocol"]["source"] == ("## Protocol\n\nWhat we run.\n\n<details class=\"story-fold\"><summary>"
                                           "Read more</summary>\n\nThe minutiae.\n\n</details>\n")
    assert cells["claims"]["source"] == ("## The claims, judged\n\nShort opening.\n\n<details class=\"story-fold\"><summary>"
                                         "Read more</summary>\n\nA long explanation.\n\n</details>\n\n### Sub\n\n"
                                         "<details class=\"story-fold\"><summary>Read more</summary>\n\n* a list\n\n"
                                         "</details>\n")
    assert cells["end"]["source"] == "## Discussion\n\nOpen again."  # the next heading of its level ends it
