"""Sphinx extension of the companion's site (``make site``, configured in ``docs/conf.py``).

What it adds to myst-nb's rendering of the checkout:

* navigation: a hidden table of contents appended to the README (the landing page) in memory,
  listing the notebooks, the docs pages and the development pages; the README on disk (what
  GitHub shows) is untouched; ``index.html`` sends a browser to the README's page;
* provenance: each notebook page opens, under its title, with the command, seed and companion
  version that executed it, generated from the notebook itself (``metadata.companion``, written
  by :func:`companion._notebook_metadata.stamp_provenance`; papermill's injected parameters; the
  ``parameters`` cell), the seed linking to the parameters cell;
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
    ("Results and reference", ["docs/results", "docs/review/index", "docs/review/*", "docs/using", "docs/*"]),
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


def provenance(nb: dict) -> str:
    """The Markdown block a notebook page opens with: command, seed and version that executed it.

    Parameters
    ----------
    nb : dict
        The notebook's JSON.

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
    if command:
        command = f"`{command}{' --fast' if papermill.get('fast') else ''}{' ' + injected if injected else ''}`"
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
    return (
        "\n\n```{container} provenance\n"
        f"Executed by {command}, {seed_text}, {version_text}; shown as committed, not re-executed "
        "by the site.\n```\n"
    )


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


def source_read(app, docname, source):
    if docname == app.config.root_doc:
        source[0] = glance_first(source[0]) + _navigation(app)
    elif NOTEBOOK_DOC.match(docname):
        nb = json.loads(source[0])
        if not arrange_for_site(nb):
            logger.warning(f"{docname}: no Markdown cell to hold the provenance line", location=docname)
            return
        first = nb["cells"][0]
        title = "".join(first["source"]) if isinstance(first["source"], list) else first["source"]
        first["source"] = title.rstrip("\n") + provenance(nb)
        _own_page_links(nb, Path(docname).name + ".ipynb")
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
    app.connect("source-read", source_read)
    app.connect("doctree-read", doctree_read)
    app.connect("build-finished", build_finished)
    app.add_css_file("companion_site.css")
    app.config.html_static_path.append(str(Path(__file__).parent / "static"))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
