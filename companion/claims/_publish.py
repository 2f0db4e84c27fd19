"""The claims outside the notebooks: ``docs/results.md`` (every sentence, anchored) and the
README's glance block (the papers' own claims, counted, each number a link)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from sklearn.utils._param_validation import validate_params

from companion.claims._report import anchor, as_table, central_lines, kind_counts, summary, verdict_sections


_MARKER = re.compile(r"^[A-Za-z0-9_.-]+$")


def render_readme_section(table, key: str, link: str | None = None) -> str:
    """The block of claims table ``table`` (DataFrame or CSV path), between its markers.

    ``<!-- claims:KEY -->``, a line saying where it comes from, the notebook's :func:`summary`,
    then its rows by kind (:data:`SECTION_TITLES`), ``<!-- /claims:KEY -->``. Each claim carries its
    anchor; ``link`` (the notebook's path relative to the file written) makes each id a link to
    the notebook cell holding the same anchor.

    Parameters
    ----------
    table : pandas.DataFrame or path-like
        A claims table or its CSV.
    key : str
        The section's marker key.
    link : str, optional
        The notebook the claims come from, as a relative link.

    Returns
    -------
    str
    """
    if not isinstance(key, str) or not _MARKER.match(key):
        raise ValueError(f"render_readme_section: key must match {_MARKER.pattern}, got {key!r}")
    source = f" from `{Path(table).name}`" if isinstance(table, (str, Path)) else ""
    frame = as_table(table, "render_readme_section")
    links = {notebook: link for notebook in frame["notebook"].unique()} if link else None
    parts = [summary(frame, link).data, verdict_sections(frame, links).data]
    body = "\n\n".join(parts)
    return (f"<!-- claims:{key} -->\n<!-- generated{source} by companion.claims.publish; do not edit -->\n"
            f'<a id="notebook-{key}"></a>\n\n{body}\n<!-- /claims:{key} -->')


def _section_span(text: str, key: str, path) -> tuple[int, int] | None:
    start_marker, end_marker = f"<!-- claims:{key} -->", f"<!-- /claims:{key} -->"
    start, end = text.find(start_marker), text.find(end_marker)
    if start < 0 and end < 0:
        return None
    if start < 0 or end < start or text.count(start_marker) > 1 or text.count(end_marker) > 1:
        raise ValueError(f"{path}: the markers of claims section {key!r} are unpaired, repeated or out of order")
    return start, end + len(end_marker)


def _blocks(sections: dict, glance: bool, links: dict | None) -> dict:
    if glance:
        return {"glance": render_glance(sections)}
    links = links or {}
    return {key: render_readme_section(table, key, links.get(key)) for key, table in sections.items()}


@validate_params(
    {"path": [str, os.PathLike], "sections": [dict], "glance": ["boolean"], "links": [dict, None]},
    prefer_skip_nested_validation=True,
)
def update_readme(path, sections: dict, *, glance: bool = False, links: dict | None = None) -> bool:
    """Write each claims section ``{key: table or CSV path}`` into the Markdown file at ``path``.

    Parameters
    ----------
    path : str or path-like
        The Markdown file (the README, ``docs/results.md``).
    sections : dict
        ``{key: claims table or the path of its CSV}``, e.g. ``{"02": "figures/02_claims.csv"}``.
    glance : bool, default=False
        Write instead the one ``<!-- claims:glance -->`` block of :func:`render_glance`.
    links : dict, optional
        ``{key: relative link of the notebook}`` for the full sections.

    Returns
    -------
    bool
        Whether the file changed. A block replaces the text between its markers; a block without
        markers is appended at the end.
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    new = text
    for key, block in _blocks(sections, glance, links).items():
        span = _section_span(new, key, path)
        if span is None:
            new = new.rstrip("\n") + "\n\n" + block + "\n"
        else:
            new = new[: span[0]] + block + new[span[1]:]
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text


def stale_readme_sections(path, sections: dict, *, glance: bool = False, links: dict | None = None) -> list[str]:
    """Keys of the blocks of ``path`` that are missing or differ from the committed tables.

    Parameters
    ----------
    path : str or pathlib.Path
        The Markdown file.
    sections : dict
        ``{key: claims table or CSV path}``, as for :func:`update_readme`.
    glance : bool, default=False
        Check the ``glance`` block instead.
    links : dict, optional
        As for :func:`update_readme`.

    Returns
    -------
    list of str
        The stale keys (``["glance"]`` for a stale glance block); a test asserts it is empty.
    """
    text = Path(path).read_text(encoding="utf-8")
    stale = []
    for key, block in _blocks(sections, glance, links).items():
        span = _section_span(text, key, path)
        if span is None or text[span[0]: span[1]] != block:
            stale.append(key)
    return stale


#: Central claims per notebook stated in the glance (the registry's first ``central`` rows, the
#: abstract's and the conclusion's; every other claim is one click away in docs/results.md).
GLANCE_CENTRAL = 2
#: Where the glance's links land (relative to the README).
RESULTS_PAGE = "docs/results.md"


def render_glance(sections: dict) -> str:
    """The README's results-at-a-glance block: every notebook's rows counted by kind, and its
    central claims under the paper's protocol and the honest check.

    Parameters
    ----------
    sections : dict
        ``{key: claims table or the path of its CSV}``, one per notebook, in display order.

    Returns
    -------
    str
        ``<!-- claims:glance -->``, a Markdown table (one row per notebook, one column per kind
        of row: the paper's empirical results and mathematical statements, the conformance and
        peer checks, the sanity checks, the aims and observations), then each notebook's central
        claims (the first :data:`GLANCE_CENTRAL`), ``<!-- /claims:glance -->``. Every count links
        to the notebook's section of :data:`RESULTS_PAGE`, every central claim to its anchor there
        (reference-style links, defined below the list).
    """
    lines = [
        "<!-- claims:glance -->",
        "<!-- generated from figures/NN_claims.csv by companion.claims.publish; do not edit -->",
        "| notebook | empirical results | mathematical statements | conformance checks | peer checks | sanity | no verdict |",
        "|---|---|---|---|---|---|---|",
    ]
    bullets, targets = [], {}
    for key, source in sections.items():
        table = as_table(source, "render_glance")
        counts = kind_counts(table)
        # reference-style links (one definition each, below the table): the table stays readable
        section = f"nb-{key}"
        targets[section] = f"{RESULTS_PAGE}#notebook-{key}"
        cells = " | ".join(f"[{counts[name]}][{section}]" for name in
                           ("empirical", "mathematical", "conformance", "peer", "sanity", "observations"))
        lines.append(f"| {key} | {cells} |")
        # the glance's lines stay short (the whole list on the first screen): one flip named, the rest
        # counted, and the seeds named only when one flips
        for line in central_lines(table, limit=GLANCE_CENTRAL, reference=True, prefix=f"{key}: "):
            bullets.append(f"* {line}")
        central = table[(table["origin"] == "paper") & table["central"]].head(GLANCE_CENTRAL)
        for notebook, id in zip(central["notebook"], central["id"]):
            name = anchor(notebook or key, id)
            targets[name] = f"{RESULTS_PAGE}#{name}"
    definitions = "\n".join(f"[{name}]: {target}" for name, target in targets.items())
    body = "\n".join(lines) + ("\n\n" + "\n".join(bullets) if bullets else "") + "\n\n" + definitions
    return body + "\n<!-- /claims:glance -->"


@validate_params({"root": [str, os.PathLike, None], "write": ["boolean"]}, prefer_skip_nested_validation=True)
def publish(root=None, *, write: bool = True) -> list[str]:
    """Write every notebook's claims into ``docs/results.md`` (full) and the README (glance).

    Parameters
    ----------
    root : str or path-like, optional
        The checkout (default :data:`companion.paths.ROOT`); the tables are
        ``root/figures/NN_claims.csv``, the notebooks ``root/notebooks/NN_*.ipynb``.
    write : bool, default=True
        ``False``: write nothing, return the files that are stale (a test asserts none is).

    Returns
    -------
    list of str
        The files that changed (or would change). The default ``make reproduce`` run calls it
        after the notebooks.
    """
    from companion.paths import ROOT

    root = Path(root) if root is not None else ROOT
    sections = {path.name[:2]: path for path in sorted((root / "figures").glob("[0-9][0-9]_claims.csv"))}
    links = {}
    for key in sections:
        notebooks = sorted((root / "notebooks").glob(f"{key}_*.ipynb"))
        if notebooks:
            links[key] = f"../notebooks/{notebooks[0].name}"
    changed = []
    for name, glance in (("docs/results.md", False), ("README.md", True)):
        target = root / name
        if write:
            if update_readme(target, sections, glance=glance, links=None if glance else links):
                changed.append(name)
        elif stale_readme_sections(target, sections, glance=glance, links=None if glance else links):
            changed.append(name)
    return changed
