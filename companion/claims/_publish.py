"""The claims outside the notebooks: ``docs/results.md`` (every sentence, anchored) and the
README's glance block (the papers' own claims, counted, each number a link)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pandas as pd
from sklearn.utils._param_validation import validate_params

from companion.claims._report import anchor, as_table, verdict_markdown
from companion.prose import Markdown


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
    parts = [summary(frame).data]
    for category, title in SECTION_TITLES.items():
        ids = list(frame.loc[frame["category"] == category, "id"])
        if ids:
            parts.append(f"**{title}**\n\n" + verdict_markdown(frame, ids, links=links).data)
    body = "\n\n".join(parts)
    return (f"<!-- claims:{key} -->\n<!-- generated{source} by companion.claims.update_readme; do not edit -->\n"
            f'<a id="notebook-{key}"></a>\n\n{body}\n<!-- /claims:{key} -->')


#: The sections of a notebook's full list, one per kind of row, in reading order.
SECTION_TITLES = {
    "empirical": "The paper's empirical results",
    "mathematical": "The paper's mathematical statements, checked in the notebook",
    "conformance": "Conformance checks of our code against the paper's description of its algorithm",
    "peer": "Checks against a peer's output or a published number",
    "sanity": "Sanity checks",
    "aim": "The paper's aims (no verdict: what our results say of them)",
    "observation": "Our observations (no verdict)",
}


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


def _count_words(counts: dict, order) -> str:
    """``"3 holds, 1 fails"``: the counts in ``order``, then any other word."""
    words = list(order) + sorted(set(counts) - set(order))
    return ", ".join(f"{counts[word]} {word}" for word in words if counts.get(word))


def kind_counts(table) -> dict:
    """The rows of a claims table counted by kind, never pooled (the referee's standard, §5).

    Parameters
    ----------
    table : pandas.DataFrame or path-like
        A claims table or its CSV.

    Returns
    -------
    dict
        ``{"empirical", "mathematical", "conformance", "peer", "sanity", "observations"}``: each a
        short phrase (``"9: 3 holds, 4 fails, 1 undecided, 1 not evaluated"``; mathematical
        statements say how many hold by construction; checks how many agree of how many).
    """
    frame = as_table(table, "kind_counts")
    category = frame["category"]
    verdict = frame["verdict"].replace({"n/a": "not evaluated"})
    cells = {}
    empirical = verdict[(category == "empirical") & (frame["kind"] != "guaranteed")]
    guaranteed = int(((category == "empirical") & (frame["kind"] == "guaranteed")).sum())
    words = _count_words(empirical.value_counts().to_dict(),
                         ("holds", "fails", "undecided", "not decidable", "identical", "not evaluated"))
    text = f"{len(empirical)}" + (f": {words}" if words else "")
    if guaranteed:
        text += f"; {guaranteed} true by construction (untested)"
    cells["empirical"] = text
    maths = frame[category == "mathematical"]
    built = maths["by_construction"].astype(bool)
    counted = maths[~built]
    words = _count_words(counted["verdict"].replace({"n/a": "not evaluated"}).value_counts().to_dict(),
                         ("holds", "fails", "not evaluated"))
    text = f"{len(counted)} checked here" + (f": {words}" if words else "")
    if built.any():
        text += f"; {int(built.sum())} by construction"
    cells["mathematical"] = text if len(maths) else "0"
    for name in ("conformance", "peer"):
        rows = frame[(category == name) & (frame["kind"] != "guaranteed")]
        built = rows["by_construction"].astype(bool)
        counted = rows[~built]
        agree = int((counted["verdict"] == "agrees").sum())
        rest = _count_words(counted.loc[counted["verdict"] != "agrees", "verdict"].replace({"n/a": "not evaluated"})
                            .value_counts().to_dict(),
                            ("differs", "undecided", "not decidable", "identical", "not evaluated"))
        text = f"{agree} of {len(counted)} agree" + (f" ({rest})" if rest else "")
        if built.any():
            text += f"; {int(built.sum())} by construction"
        cells[name] = text if len(rows) else "0"
    sanity = frame[category == "sanity"]
    passing = int((sanity["verdict"] == "passes").sum())
    cells["sanity"] = f"{passing} of {len(sanity)} pass" if len(sanity) else "0"
    aims = int((category == "aim").sum())
    observations = int((category == "observation").sum())
    cells["observations"] = f"{aims} aims, {observations} observations"
    return cells


def registration(table) -> str:
    """One sentence on when the criteria were fixed, from the rows' ``results_known``: none of
    them is said to be registered before the results unless the history shows it."""
    frame = as_table(table, "registration")
    if "fixed" not in frame or not frame["fixed"].astype(bool).any():
        return ""
    after = int(frame["results_known"].astype(bool).sum())
    total = len(frame)
    dates = sorted(date.split(" ")[0] for date in frame["fixed"] if date)
    span = dates[0] if dates[0] == dates[-1] else f"{dates[0]} to {dates[-1]}"
    if after == total:
        return (f"Every criterion ({total} rows) was written after the notebook had shown its numbers ({span}, "
                f"from `git log`); none is a pre-registration.")
    return (f"{after} of {total} criteria were written after the notebook had shown its numbers, {total - after} "
            f"before ({span}, from `git log`).")


def _robustness(row) -> str:
    """``"robust (4/4 seeds keep)"`` or ``"not robust: 1/4 seeds keep; flips under tie=…"``."""
    seeds = _text(row["seeds"])
    if row["robust"] in (True, "True"):
        return f"robust ({seeds})" if seeds else "robust"
    flipped = [part.rsplit(" (", 1)[0] for part in _text(row["flips"]).split("; ") if part]
    others = [name for name in flipped if not name.startswith("seed=")]
    parts = [seeds] if seeds else []
    if others:
        parts.append("flips under " + ", ".join(others))
    return "not robust: " + "; ".join(parts) if parts else "not robust"


def central_lines(table, link=None, *, limit=None, reference=False) -> list[str]:
    """One Markdown line per central claim: the paper's protocol's verdict, the honest check's
    and the robustness, the statement linked to the claim's anchor (on ``link``'s page, or in
    place when ``link`` is None; ``reference``: a reference-style link named by the anchor)."""
    frame = as_table(table, "central_lines")
    lines = []
    central = frame[(frame["origin"] == "paper") & frame["central"]]
    for _, row in (central.head(limit) if limit else central).iterrows():
        name = anchor(row["notebook"], row["id"])
        target = f"[{name}]" if reference else f"({link}#{name})" if link else f"(#{name})"
        word = "not decidable with this design" if row["verdict"] == "not decidable" else row["verdict"]
        if row["verdict"] == "n/a":
            word = "not evaluated"
        parts = [f"paper's protocol: **{word}**"]
        if row["kind"] == "exact" and row["category"] == "mathematical":
            parts = [f"checked here: **{word}**" + (" (by construction)" if row["by_construction"] else "")]
        check = _text(row["check_variant"])
        if check and _text(row["check_verdict"]):
            check_word = "not evaluated" if row["check_verdict"] == "n/a" else row["check_verdict"]
            parts.append(f"honest check ({check}): **{check_word}**")
        if row["kind"] not in ("exact", "guaranteed") or _text(row["flips"]):
            parts.append(_robustness(row))
        lines.append(f"[{row['statement']}]{target} — " + "; ".join(parts))
    return lines


def _text(value) -> str:
    return value if isinstance(value, str) else ""


@validate_params({"table": [pd.DataFrame, str, os.PathLike]}, prefer_skip_nested_validation=True)
def summary(table) -> Markdown:
    """A notebook's verdict summary: its central claims, then every row counted by kind.

    Each central claim is shown under the paper's protocol and the honest check, with its
    robustness.

    Parameters
    ----------
    table : pandas.DataFrame or path-like
        The notebook's claims table (or its CSV).

    Returns
    -------
    companion.prose.Markdown
    """
    counts = kind_counts(table)
    central = central_lines(table)
    parts = []
    if central:
        parts.append("**The paper's central claims**\n\n" + "\n".join(f"* {line}" for line in central))
    parts.append(
        "**Every row, by kind** (only the paper's own results and statements get a verdict word)\n\n"
        f"* empirical results of the paper: {counts['empirical']}\n"
        f"* mathematical statements of the paper: {counts['mathematical']}\n"
        f"* conformance checks of our code against the paper's description: {counts['conformance']}\n"
        f"* checks against a peer or a published number: {counts['peer']}\n"
        f"* sanity checks: {counts['sanity']}\n"
        f"* no verdict: {counts['observations']}\n\n"
        f"{registration(table)}"
    )
    return Markdown("\n\n".join(parts))


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
        "<!-- generated from figures/NN_claims.csv by companion.claims.update_readme; do not edit -->",
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
        for line in central_lines(table, limit=GLANCE_CENTRAL, reference=True):
            bullets.append(f"* **{key}.** {line}")
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
