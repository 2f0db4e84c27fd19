"""Sphinx extension of the companion's site (``make site``, configured in ``docs/conf.py``).

What it adds to myst-nb's rendering of the checkout:

* navigation: a hidden table of contents appended to the README (the landing page) in memory,
  listing the notebooks, the docs pages and the development pages; the README on disk (what
  GitHub shows) is untouched; ``index.html`` sends a browser to the README's page;
* provenance: each notebook page opens, under its title, with the command, seed and companion
  version that executed it, generated from the notebook itself (``metadata.companion``, written
  by :func:`companion._notebook_metadata.stamp_provenance`; papermill's injected parameters; the
  ``parameters`` cell), the seed linking to the parameters cell;
* figures and tables for people (:func:`for_readers`): each figure a notebook saved with
  ``save_figure`` gets its caption and alt text from the PNG (written from the figure's own titles,
  labels and legends), and a click enlarges it (``companion_figures.js``); a missing value in a
  table shows a dash, with a line under the table saying what the dash means;
* anchors: every code cell's HTML element carries ``id="cell-<the notebook's cell id>"``, and the
  raw ``<a id="..."></a>`` anchors of the generated Markdown (``claim-NN-ID``, ``notebook-NN``,
  in ``docs/results.md`` and in the notebooks' verdict outputs) are registered with Sphinx, so
  that Markdown links to them (``docs/results.md#notebook-01``, ``../notebooks/01_x.ipynb#claim-01-2``)
  resolve to those pages and anchors, and a link to an anchor that no page holds is a build
  warning.
"""

from __future__ import annotations

import ast
import html
import json
import re
from pathlib import Path

from docutils import nodes
from sphinx.util import logging

logger = logging.getLogger(__name__)

NOTEBOOK_DOC = re.compile(r"^notebooks/(\d\d)_[^/]+$")
# MyST hands ``<a id="x"></a>`` over as two raw nodes, the opening tag and the closing one.
RAW_ANCHOR = re.compile(r"""<a\s+(?:id|name)=["']([^"']+)["']\s*>""")

#: The hidden table of contents appended to the landing page: (caption, document patterns).
NAVIGATION = [
    ("Notebooks", ["notebooks/*"]),
    ("Results and reference", ["docs/results", "docs/review/index", "docs/review/*", "docs/using",
                               "docs/choosing", "docs/api", "docs/*"]),
    ("Development", ["CONTRIBUTING", "benchmarks/README"]),
]


def _navigation(app) -> str:
    """The MyST toctree blocks listing every document of the site, in :data:`NAVIGATION`'s order."""
    import fnmatch

    found = sorted(app.env.found_docs)
    listed: list[str] = [app.config.root_doc]
    blocks = []
    for caption, patterns in NAVIGATION:
        entries = []
        for pattern in patterns:
            for doc in found:
                if fnmatch.fnmatchcase(doc, pattern) and doc not in listed:
                    entries.append(doc)
                    listed.append(doc)
        if entries:
            body = "\n".join(f"/{doc}" for doc in entries)
            blocks.append(f"\n\n```{{toctree}}\n:hidden:\n:caption: {caption}\n\n{body}\n```\n")
    return "".join(blocks)


def _parameters(nb: dict) -> tuple[dict, str | None]:
    """The values the notebook ran with (its ``parameters`` cell, then papermill's injected ones),
    and the id of its ``parameters`` cell."""
    values: dict = {}
    cell_id = None
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code" and "parameters" in cell.get("metadata", {}).get("tags", []):
            cell_id = cell.get("id")
            for node in ast.parse("".join(cell.get("source", ""))).body:
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    try:
                        values[node.targets[0].id] = ast.literal_eval(node.value)
                    except (ValueError, TypeError, SyntaxError):
                        pass  # not a literal: the page names only literal parameters
            break
    values.update(nb.get("metadata", {}).get("papermill", {}).get("parameters", {}))
    return values, cell_id


#: The packages whose pinned versions the provenance block names (the computing core, the runner).
PINNED = ("numpy", "scipy", "pandas", "scikit-learn", "matplotlib", "numba", "papermill")


def _git(root: Path, *args: str) -> str | None:
    """``git -C root args``'s output, or None where there is no git or no repository."""
    import subprocess

    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=False)
    except OSError:
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def committed(root: Path, relative: str) -> dict:
    """What git says of a committed notebook: the commit that last changed it, its date, whether
    the file differs from it, and the versions ``requirements.lock`` pinned at that commit.

    Parameters
    ----------
    root : pathlib.Path
        The checkout (the site's source folder).
    relative : str
        The notebook's path in it, ``notebooks/01_x.ipynb``.

    Returns
    -------
    dict
        ``commit`` (full hash), ``date`` (ISO 8601), ``changed`` (bool) and ``pins``
        (package -> version, the packages of :data:`PINNED` the lock names); empty where git
        knows nothing of the file.
    """
    line = _git(root, "log", "-1", "--format=%H %cI", "--", relative)
    if not line:
        return {}
    commit, date = line.split(" ", 1)
    status = _git(root, "status", "--porcelain", "--", relative)
    lock = _git(root, "show", f"{commit}:requirements.lock") or ""
    pins = {}
    for entry in lock.splitlines():
        name, _, version = entry.partition("==")
        if name.strip().lower() in PINNED and version:
            pins[name.strip().lower()] = version.split(";")[0].strip()
    return {"commit": commit, "date": date, "changed": bool(status), "pins": pins}


def downloads(root: Path, relative: str) -> list[tuple[str, str]]:
    """The files a notebook page offers for download, as (label, path from the checkout's root):
    the notebook, its registry (``companion/experiments/registry/paperNN.toml``) and its tables
    (``figures/NN_*.csv``), those that exist."""
    number = Path(relative).name[:2]
    files = [("notebook", relative), ("claims registry", f"companion/experiments/registry/paper{number}.toml")]
    files += [("table", f"figures/{csv.name}") for csv in sorted((root / "figures").glob(f"{number}_*.csv"))]
    return [(label, path) for label, path in files if (root / path).is_file()]


def _wall_time(root: Path, name: str) -> str | None:
    """The notebook's wall time in the last ``make bench`` run (``figures/benchmarks.csv``), if any."""
    import csv

    path = root / "figures" / "benchmarks.csv"
    if not path.is_file():
        return None
    with path.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            if row.get("benchmark") == "notebook wall time" and row.get("size") == name:
                return row.get("ours_s")
    return None


def provenance(nb: dict, root: Path | None = None, relative: str | None = None) -> str:
    """The Markdown block a notebook page opens with: what executed it, from what, and its files.

    Its first line is the command, seed and companion version that executed the notebook (from
    the notebook itself); given the checkout and the notebook's path in it, it goes on with what
    git knows of the committed notebook (commit, date, the versions ``requirements.lock`` pinned
    then), the wall time of a full run as ``make bench`` last measured it, and downloads of the
    notebook, its claims registry and its tables.

    Parameters
    ----------
    nb : dict
        The notebook's JSON.
    root : pathlib.Path, optional
        The checkout the site is built from.
    relative : str, optional
        The notebook's path in it (``notebooks/01_x.ipynb``).

    Returns
    -------
    str
        A MyST ``container`` block of class ``provenance``.
    """
    stamp = nb.get("metadata", {}).get("companion", {})
    values, cell_id = _parameters(nb)
    papermill = nb.get("metadata", {}).get("papermill", {}).get("parameters", {})
    command = stamp.get("executed_by")
    injected = " ".join(f"-p {k} {v}" for k, v in papermill.items() if k != "fast")
    only = f" --only {Path(relative).name[:2]}" if relative and Path(relative).name[:2].isdigit() else ""
    if command:
        command = (f"`{command}{only}{' --fast' if papermill.get('fast') else ''}"
                   f"{' ' + injected if injected else ''}`")
    else:
        command = "papermill (the command was not recorded: re-execute with `make reproduce`)"
    seed = values.get("seed")
    if seed is None:
        seed_text = "no seed (nothing in it is random)"
    else:
        seed_text = f"seed {seed}"
    if cell_id:  # raw HTML: the cell's id is set on its element, not a Sphinx label
        seed_text = f'<a href="#cell-{html.escape(cell_id)}">{seed_text}</a>'
    version = stamp.get("version")
    version_text = f"companion version {version}" if version else "companion version not recorded"
    lines = [f"Executed by {command}, {seed_text}, {version_text}; shown as committed, not re-executed "
             "by the site."]
    if root is not None and relative is not None:
        # one line in sight (commit and date), the rest folded: the verdict box stays on the first screen
        facts = committed(root, relative)
        files = downloads(root, relative)
        if facts:
            summary = (f"Committed in <code>{facts['commit'][:12]}</code> on {facts['date'][:10]}"
                       + (" (this page shows the working copy, which differs from it)" if facts["changed"] else ""))
        else:
            summary = "Not a committed file (no git history): commit, date and pinned versions unknown"
        summary += f"; package versions, run time and {len(files)} download{'s' if len(files) != 1 else ''}"
        lines.append(f"<details class=\"provenance-details\"><summary>{summary}</summary>")
        if facts and facts["pins"]:
            pins = ", ".join(f"{name} {version}" for name, version in facts["pins"].items())
            lines.append(f"Pinned in `requirements.lock` at that commit: {pins}.")
        seconds = _wall_time(root, Path(relative).name)
        lines.append(f"A full run takes {float(seconds):.0f} s (the last `make bench`, `figures/benchmarks.csv`); "
                     "the publishing run does not record its own wall time." if seconds else
                     "The publishing run does not record its wall time.")
        if files:
            links = [f"{{download}}`{Path(path).name} </{path}>`" for label, path in files if label != "table"]
            tables = [f"{{download}}`{Path(path).name} </{path}>`" for label, path in files if label == "table"]
            lines.append("Download: " + " · ".join(links)
                         + (f"; its tables ({len(tables)}): " + " · ".join(tables) if tables else "") + ".")
        lines.append("</details>")
    body = "\n\n".join(lines)
    return f"\n\n````{{container}} provenance\n{body}\n````\n"


#: The landing page's section that holds the glance block (every central claim's verdict).
GLANCE_SECTION = "## Results at a glance"


def glance_first(text: str) -> str:
    """The landing page with its glance section moved under the title, the central claims first.

    On GitHub the README opens with what the package is; on the site a reader comes for the
    verdicts: the section ``## Results at a glance`` is moved right under the ``#`` title, and
    inside it the list of central claims (lines starting ``* ``) is put first, before the section's
    introduction and the table of counts,
    so that at 1280 px the first screen shows every paper's central verdicts. The text of the
    section is unchanged, the README on disk untouched.

    Parameters
    ----------
    text : str
        The README's Markdown.

    Returns
    -------
    str
        The Markdown the site renders; ``text`` itself when it has no such section.
    """
    lines = text.split("\n")
    try:
        start = lines.index(GLANCE_SECTION)
        title = next(i for i, line in enumerate(lines) if line.startswith("# "))
    except (ValueError, StopIteration):
        return text
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    section = lines[start:end]
    table = [i for i, line in enumerate(section) if line.startswith("|")]
    bullets = [i for i, line in enumerate(section) if line.startswith("* ")]
    if table and bullets and table[-1] < bullets[0]:
        # heading, the central claims, then the section's introduction (what the block is
        # generated from) and the table of counts
        # generated block's opening comments stay before them (the glance block is what they mark)
        moved = section[bullets[0]:bullets[-1] + 1]
        comments = [i for i in range(1, table[0]) if section[i].startswith("<!--")]
        intro = [line for i, line in enumerate(section[1:table[0]], start=1) if i not in comments]
        section = ([section[0], ""] + [section[i] for i in comments] + [""] + moved + intro
                   + section[table[0]:bullets[0]] + section[bullets[-1] + 1:])
    return "\n".join(lines[:title + 1] + [""] + section + lines[title + 1:start] + lines[end:])


#: The page that documents the public API (its module list is generated: :func:`api_modules`).
API_DOC = "docs/api"


def api_modules() -> list[str]:
    """The public modules of ``companion``: every module or package whose dotted name has no part
    starting with ``_`` and that declares ``__all__``, in the order of the package's tree.

    Returns
    -------
    list of str
        Dotted names, ``companion`` first.
    """
    import importlib
    import pkgutil

    import companion

    names = ["companion"]
    for info in pkgutil.walk_packages(companion.__path__, "companion."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        module = importlib.import_module(info.name)
        if hasattr(module, "__all__"):
            names.append(info.name)
    return names


def api_page() -> str:
    """The MyST blocks appended to :data:`API_DOC`: one section per public module, its docstring
    and the members of its ``__all__`` (autodoc, numpydoc sections)."""
    blocks = []
    for name in api_modules():
        # autodoc writes reStructuredText: the directive runs inside eval-rst, not as MyST
        blocks.append(f"\n\n## `{name}`\n\n```{{eval-rst}}\n.. automodule:: {name}\n   :members:\n"
                      "   :imported-members:\n```\n")
    return "".join(blocks)


def skip_foreign_member(app, what, name, obj, skip, options):
    """autodoc: document only what ``companion`` defines. scikit-learn's methods a learner
    inherits or has generated (``set_params``, ``set_fit_request``) are scikit-learn's API, and
    their docstrings point at scikit-learn's own glossary and labels."""
    module = getattr(obj, "__module__", None) or ""
    if what in ("class", "exception") and module and not module.startswith("companion"):
        return True
    return skip


#: In the prose of a docstring (not between backticks): an identifier ending in ``_`` (scikit-learn's
#: fitted attributes, ``n_features_in_``) is a reference to a target for reStructuredText, and a
#: ``|...|`` pair (``|Welch t|``, an absolute value) a substitution.
_TRAILING_UNDERSCORE = re.compile(r"(?<![`\w])([A-Za-z][\w.]*_)(?![\w`])")
_BARS = re.compile(r"(?<![`\\])\|([^|`\n]+)\|(?!`)")


_SIMPLE_TABLE_BORDER = re.compile(r"^\s*=+(\s+=+)+\s*$")


def _literal_if_malformed(lines: list[str]) -> None:
    """A simple table whose text runs into the gap between two columns is what ``help()`` shows
    well and reStructuredText rejects ("Malformed table"): it is shown as preformatted text."""
    i = 0
    while i < len(lines):
        if not _SIMPLE_TABLE_BORDER.match(lines[i]):
            i += 1
            continue
        border = lines[i].rstrip()
        same = [j for j in range(i + 1, len(lines)) if lines[j].rstrip() == border]
        if not same:
            return
        last = same[-1] if len(same) >= 2 else same[0]  # header rule, then bottom rule
        gaps = [k for k, ch in enumerate(border) if ch == " " and k >= len(border) - len(border.lstrip())]
        rows = [row for row in lines[i:last + 1] if row.rstrip() != border]
        if any(len(row) > k and row[k] != " " for row in rows for k in gaps):
            block = ["", "::", ""] + ["    " + row for row in lines[i:last + 1]] + [""]
            lines[i:last + 1] = block
            last = i + len(block) - 1  # past the literal block: its rules are text now
        i = last + 1


def docstring_as_text(app, what, name, obj, options, lines):
    """autodoc: the numpydoc docstrings are written to be read as text (``help()``); the few
    marks reStructuredText would take for markup in their prose are escaped, outside literals,
    a section heading gets the blank line before it that numpydoc needs, a module's sections
    (several modules share the page) become rubrics, and a simple table that reStructuredText
    would reject is shown as preformatted text."""
    for i in range(len(lines) - 1, 0, -1):  # "Raises\n------" right after the text above it
        heading, rule = lines[i - 1].strip(), lines[i].strip()
        if heading and rule and set(rule) == {"-"} and len(rule) == len(heading) and i >= 2 and lines[i - 2].strip():
            lines.insert(i - 1, "")
    if what == "module":
        for i in range(len(lines) - 1, 0, -1):
            heading, rule = lines[i - 1].strip(), lines[i].strip()
            if heading and rule and set(rule) == {"-"} and len(rule) == len(heading):
                lines[i - 1:i + 1] = [f".. rubric:: {heading}", ""]
        _literal_if_malformed(lines)
    for i, line in enumerate(lines):
        parts = re.split(r"(``.*?``|`[^`]*`)", line)
        for j in range(0, len(parts), 2):
            parts[j] = _BARS.sub(lambda m: "\\|" + m.group(1) + "\\|", parts[j])
            parts[j] = _TRAILING_UNDERSCORE.sub(lambda m: m.group(1)[:-1] + "\\_", parts[j])
        lines[i] = "".join(parts)


def source_read(app, docname, source):
    if docname == app.config.root_doc:
        source[0] = glance_first(source[0]) + _navigation(app)
    elif docname == API_DOC:
        source[0] += api_page()
    elif NOTEBOOK_DOC.match(docname):
        nb = json.loads(source[0])
        if not arrange_for_site(nb):
            logger.warning(f"{docname}: no Markdown cell to hold the provenance line", location=docname)
            return
        first = nb["cells"][0]
        title = "".join(first["source"]) if isinstance(first["source"], list) else first["source"]
        first["source"] = title.rstrip("\n") + provenance(nb, Path(app.srcdir), str(app.env.doc2path(docname, False)))
        _own_page_links(nb, Path(docname).name + ".ipynb")
        for_readers(nb, Path(app.srcdir) / "figures")
        fold_for_story(nb)
        source[0] = json.dumps(nb)


#: The heading of the notebooks' verdict box.
VERDICTS_HEADING = "## Verdicts at a glance"


def arrange_for_site(nb: dict) -> bool:
    """Lay a notebook out for its page, in place: the verdict box under the title.

    The notebook opens with its title cell (title, citation, summary), the set-up code cells
    (parameters, papermill's injected ones, imports) and then ``## Verdicts at a glance`` with the
    box. On the site the title cell is split after its title line, the verdicts section (its
    heading cell and the code cell of the box) moved between the title and the citation, and the
    source of the code cells up to the box folded behind myst-nb's "Show code cell source": the
    box is on the first screen, every cell stays on the page (the box's own cell, a placeholder
    ``display`` call, shows its output only) and the notebook on disk is untouched. A notebook without that heading only has its title cell split. The same
    arrangement is applied where a page's cells are matched to the notebook's (doctree_read).

    Parameters
    ----------
    nb : dict
        The notebook's JSON, changed in place.

    Returns
    -------
    bool
        False when the notebook has no Markdown cell (nothing done).
    """
    cells = nb.get("cells", [])
    first = next((i for i, c in enumerate(cells) if c.get("cell_type") == "markdown"), None)
    if first is None:
        return False
    cell = cells.pop(first)
    text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    title, _, rest = text.partition("\n")
    head = dict(cell, source=title + "\n")
    tail = dict(cell, source=rest.lstrip("\n"), id=f"{cell.get('id', 'title')}-text")
    heading = next((i for i, c in enumerate(cells) if c.get("cell_type") == "markdown"
                    and "".join(c.get("source", "")).startswith(VERDICTS_HEADING)), None)
    box = None
    if heading is not None:
        box = next((i for i in range(heading + 1, len(cells)) if cells[i].get("cell_type") == "code"), heading)
        for index, code in enumerate(cells[:box + 1]):
            if code.get("cell_type") == "code":
                tags = code.setdefault("metadata", {}).setdefault("tags", [])
                if "hide-input" not in tags and "remove-input" not in tags:
                    # the box's own cell is a placeholder display() call: its output is the box
                    tags.append("remove-input" if index == box else "hide-input")
        section = cells[heading:box + 1]
        del cells[heading:box + 1]
    else:
        section = []
    cells[first:first] = [head, *section] + ([tail] if tail["source"].strip() else [])
    return True


#: The tag of a notebook heading cell whose section is detail (forensics, sensitivity tables,
#: per-variant results): on the site its code cells' outputs are folded behind a toggle.
DETAIL_TAG = "detail"
#: The tag of a Markdown cell whose text alone is detail (a protocol's minutiae under a heading whose
#: section stays open): its text is folded as a detail section's is, its heading kept.
DETAIL_TEXT_TAG = "detail-text"
HEADING = re.compile(r"^(#{1,6}) ", re.MULTILINE)
#: In folded text, the longest opening paragraph left open under a heading (what the section is
#: about), and under none, inside a detail section (a caption naming the folded output below it).
OPENING_WORDS, CAPTION_WORDS = 60, 25


def fold_for_story(nb: dict) -> None:
    """Let a notebook page read as its story, in place: code and detail folded, nothing removed.

    Every code cell's source is folded behind myst-nb's "Show code cell source" (the calls stay
    one click away, and nbval still executes them). A section whose heading cell carries the tag
    :data:`DETAIL_TAG` is detail, down to the next heading of the same or a higher level: its
    Markdown is folded after each block's opening paragraph (:func:`fold_text`; in a cell without a
    heading, an opening of at most :data:`CAPTION_WORDS` words) and its code
    outputs behind "Show code cell outputs" (a cell whose source and outputs are both folded gets
    one toggle, ``hide-cell``) — except the verdicts (an output holding a verdict's
    first layer, ``verdict-headline``), which move to a cell of their own and stay open. A Markdown
    cell tagged :data:`DETAIL_TEXT_TAG` has its text folded the same way, its section left open. The story
    (claims, our numbers beside the paper's, verdicts, discussion) stays open; the browser test
    measures its length. The notebook on disk is untouched; :func:`doctree_read` applies the same
    arrangement so that the page's cells and the notebook's match.
    """
    cells = nb.get("cells", [])
    level = None  # the level of the detail section being folded, None outside one
    index = 0
    while index < len(cells):
        cell = cells[index]
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if cell.get("cell_type") == "markdown":
            headings = HEADING.findall(source)
            if headings:
                top = min(len(h) for h in headings)
                if DETAIL_TAG in cell.get("metadata", {}).get("tags", []):
                    level = top if level is None else min(level, top)
                elif level is not None and top <= level:
                    level = None
            if level is not None or DETAIL_TEXT_TAG in cell.get("metadata", {}).get("tags", []):
                # a cell without a heading, inside a detail section, is a caption or an aside: only a
                # short opening (a label for the folded output under it) stays open
                cell["source"] = fold_text(source, OPENING_WORDS if headings or level is None else CAPTION_WORDS)
            index += 1
            continue
        if cell.get("cell_type") != "code":
            index += 1
            continue
        tags = cell.setdefault("metadata", {}).setdefault("tags", [])
        if "hide-input" not in tags and "remove-input" not in tags:
            tags.append("hide-input")
        if level is None or "remove-output" in tags:
            index += 1
            continue
        runs = _verdict_runs(cell.get("outputs", []))
        cell["outputs"] = runs[0][1]
        if not runs[0][0] and "hide-output" not in tags:
            tags.append("hide-output")
        for number, (open_, outputs) in enumerate(runs[1:], start=1):
            cells.insert(index + number, {
                "cell_type": "code", "id": f"{cell.get('id', index)}-part{number}", "execution_count": None,
                "metadata": {"tags": ["remove-input"] + ([] if open_ else ["hide-output"])}, "outputs": outputs,
                "source": "# outputs of the cell above"})  # an empty cell is skipped
        index += len(runs)
    for cell in cells:
        tags = cell.get("metadata", {}).get("tags", [])
        if cell.get("cell_type") == "code" and "hide-input" in tags and "hide-output" in tags:
            # source and outputs both folded: one toggle ("Show code cell content") opens the cell,
            # rather than two toggles one above the other
            tags[:] = [t for t in tags if t not in ("hide-input", "hide-output")] + ["hide-cell"]


def _verdict_runs(outputs: list) -> list:
    """``[(is_verdicts, outputs), …]``: the outputs in consecutive runs, those holding verdicts apart."""
    runs = []
    for output in outputs:
        text = output.get("data", {}).get("text/markdown", "")
        verdicts = "verdict-headline" in ("".join(text) if isinstance(text, list) else text)
        if runs and runs[-1][0] == verdicts:
            runs[-1][1].append(output)
        else:
            runs.append((verdicts, [output]))
    return runs or [(False, [])]


#: A paragraph that is prose (not a list, table, quote, display formula, HTML or code).
_PROSE = re.compile(r"^(?![*+|>$<`-]|\d+[.)] |    )")


def fold_text(source: str, opening_words: int = OPENING_WORDS) -> str:
    """A detail section's Markdown, folded: headings kept, each block's opening paragraph shown
    (when it is prose of at most ``opening_words`` words), the rest behind "Read more".

    Headings stay outside the folds, so the page's sections and its "On this page" menu are
    those of the notebook; a fold never spans a heading.
    """
    out, block = [], []

    def flush():
        text = "\n".join(block).strip("\n")
        block.clear()
        if not text.strip():
            return
        first, _, rest = text.partition("\n\n")
        if _PROSE.match(first) and len(first.split()) <= opening_words:
            shown, hidden = first, rest.strip("\n")
        else:
            shown, hidden = "", text
        if shown:
            out.append(shown)
        if hidden:
            out.append(f"<details class=\"story-fold\"><summary>Read more</summary>\n\n{hidden}\n\n</details>")

    fence = False
    for line in source.split("\n"):
        if line.startswith("```"):
            fence = not fence
        if not fence and HEADING.match(line):
            flush()
            out.append(line)
        else:
            block.append(line)
    flush()
    return "\n\n".join(out) + "\n"


#: ``save_figure(<figure>, "<name>")`` in a code cell: the figure the cell shows, saved under figures/.
SAVED_FIGURE = re.compile(r"""save_figure\([^,()]+,\s*["']([^"']+)["']""")
#: A table cell that holds no value, as pandas prints it.
EMPTY_CELL = re.compile(r"<td>(?:NaN|nan|None|&lt;NA&gt;|NaT)</td>")
#: What the dash in a table means, said under every table that has one.
DASH_NOTE = '<p class="table-note">– : no value here (not applicable, or not measured for this row).</p>'


def png_text(path: Path) -> dict[str, str]:
    """The ``tEXt`` entries of a PNG file (``{}`` when it is missing or not a PNG)."""
    import struct
    import zlib

    try:
        data = path.read_bytes()
    except OSError:
        return {}
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return {}
    entries, at = {}, 8
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"tEXt" and b"\0" in body:
            key, _, value = body.partition(b"\0")
            entries[key.decode("latin-1")] = value.decode("latin-1")
        elif kind == b"iTXt" and b"\0" in body:  # key, compression flag and method, language, key again
            key, _, rest = body.partition(b"\0")
            compressed, rest = rest[0], rest[2:]
            _, _, rest = rest.partition(b"\0")
            _, _, value = rest.partition(b"\0")
            entries[key.decode("latin-1")] = (zlib.decompress(value) if compressed else value).decode("utf-8")
        elif kind == b"IEND":
            break
        at += 12 + length
    return entries


def for_readers(nb: dict, figures: Path) -> None:
    """Figures and tables for people, in place: captions, alt text, dashes for missing values.

    A code cell that shows a figure it saved with ``save_figure(fig, "name")`` gets the PNG's
    ``Title`` as the figure's caption and its ``Description`` as the image's alt text (both written
    by :func:`companion.paths.save_figure` from the figure's own titles, labels and legends), through
    myst-nb's ``mystnb.figure`` and ``mystnb.image`` cell metadata. In an HTML table output, a cell
    pandas prints as ``NaN`` (or ``None``, ``<NA>``, ``NaT``) shows a dash, and a line under the table
    says what the dash means. The notebook on disk is untouched.

    myst-nb wraps every displayed output of a cell in the figure its metadata names, so the outputs
    a figure cell shows after its figure (a table) move to a cell of their own, placed after it,
    with no source shown. :func:`doctree_read` applies the same arrangement, so that the page's
    cells and the notebook's match.
    """
    cells = nb.get("cells", [])
    for index in range(len(cells) - 1, -1, -1):
        cell = cells[index]
        if cell.get("cell_type") != "code":
            continue
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        outputs = cell.get("outputs", [])
        saved = SAVED_FIGURE.findall(source)
        shown = [i for i, o in enumerate(outputs) if "image/png" in o.get("data", {})]
        if saved and shown:
            name = saved[-1]
            text = png_text(figures / (name if name.endswith(".png") else f"{name}.png"))
            if text.get("Title") and text.get("Description"):
                meta = cell.setdefault("metadata", {}).setdefault("mystnb", {})
                meta["figure"] = {"caption": f"**Figure {name}.** {text['Title']}", "name": f"figure-{name}"}
                meta["image"] = {"alt": text["Description"], "classes": "enlargeable"}
                displayed = [i for i, o in enumerate(outputs) if o.get("output_type") in ("display_data", "execute_result")]
                after = [o for i, o in enumerate(outputs) if i > shown[0] and i in displayed]
                if after:
                    cell["outputs"] = [o for i, o in enumerate(outputs) if i <= shown[0] or i not in displayed]
                    rest = {"cell_type": "code", "id": f"{cell.get('id', index)}-rest", "execution_count": None,
                            "metadata": {"tags": ["remove-input"]}, "outputs": after,
                            "source": "# the outputs the cell above shows after its figure"}  # an empty cell is skipped
                    cells.insert(index + 1, rest)
    for cell in cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "text/html" in data:
                html_text = data["text/html"]
                joined = "".join(html_text) if isinstance(html_text, list) else html_text
                if EMPTY_CELL.search(joined):
                    joined = EMPTY_CELL.sub("<td>–</td>", joined)
                    joined = joined.replace("</table>", "</table>" + DASH_NOTE)
                    data["text/html"] = joined


def _own_page_links(nb: dict, filename: str) -> None:
    """Links to an anchor of the notebook itself in its Markdown outputs (the verdict box's
    ``[claim](#claim-01-2)``) name the notebook's file, as links from other pages do, so that the
    anchor registered for ``notebooks/01_x#claim-01-2`` resolves them."""
    for cell in nb.get("cells", []):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "text/markdown" in data:
                text = data["text/markdown"]
                joined = "".join(text) if isinstance(text, list) else text
                data["text/markdown"] = joined.replace("](#claim-", f"]({filename}#claim-")


def doctree_read(app, doctree):
    """Register the raw-HTML anchors as Sphinx labels; give code cells their notebook ids."""
    docname = app.env.docname
    std = app.env.domains.standard_domain
    for raw in doctree.findall(nodes.raw):
        if "html" not in raw.get("format", "").split():
            continue
        for anchor in RAW_ANCHOR.findall(raw.astext()):
            std.anonlabels[f"{docname}#{anchor}"] = (docname, html.unescape(anchor))
    if NOTEBOOK_DOC.match(docname):
        nb = json.loads(Path(app.env.doc2path(docname)).read_text(encoding="utf-8"))
        arrange_for_site(nb)  # the cells in the order of the page
        for_readers(nb, Path(app.srcdir) / "figures")
        fold_for_story(nb)
        cells = nb.get("cells", [])
        for container in doctree.findall(nodes.container):
            index = container.get("cell_index")
            if container.get("nb_element") == "cell_code" and index is not None and index < len(cells):
                cell_id = cells[index].get("id")
                if cell_id:
                    container["ids"].append(f"cell-{cell_id}")


LANDING = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>companion</title>
<meta http-equiv="refresh" content="0; url={page}"></head>
<body><p><a href="{page}">The companion's site starts here.</a></p></body></html>
"""


def build_finished(app, exception):
    if exception is None and app.builder.format == "html":
        page = app.builder.get_target_uri(app.config.root_doc)
        if page != "index.html":
            (Path(app.outdir) / "index.html").write_text(LANDING.format(page=page), encoding="utf-8")


def setup(app):
    app.setup_extension("sphinx.ext.autodoc")  # its events, whatever the order of conf.py's extensions
    app.connect("source-read", source_read)
    app.connect("autodoc-skip-member", skip_foreign_member)
    app.connect("autodoc-process-docstring", docstring_as_text, priority=400)  # before numpydoc (500)
    app.connect("doctree-read", doctree_read)
    app.connect("build-finished", build_finished)
    app.add_css_file("companion_site.css")
    app.add_js_file("companion_search.js")  # search snippets without theme chrome or TeX; from disk
    app.add_js_file("companion_figures.js")  # a click enlarges a figure
    app.config.html_static_path.append(str(Path(__file__).parent / "static"))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
