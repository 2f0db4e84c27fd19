"""The claims table and its words: verdict sentences, anchors, Markdown lists, discussions."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import validate_params

from companion.claims._registry import markdown_quote
from companion.claims._statistics import ALPHA
from companion.prose import Markdown, render, signed


TABLE_COLUMNS = [
    "notebook", "id", "origin", "central", "statement", "quote", "where", "quote_source", "kind", "test",
    "quantity", "criterion", "direction", "margin", "margin_reason", "tie_rule", "unit", "digits", "n",
    "estimate", "ci_low", "ci_high", "wins", "ties", "losses", "p_raw", "p_holm", "p_fail_raw", "p_fail_holm",
    "min_p", "verdict", "detail", "robust", "flips", "seeds", "sensitivity", "stand_in", "unit_test",
    "discussion", "alpha", "category", "formula", "by_construction", "fixed", "results_known", "history",
    "margin_wins", "margin_ties", "margin_losses", "check_variant", "check_verdict", "check_estimate",
    "check_ci_low", "check_ci_high", "check_p_holm", "check_p_fail_holm", "variants_run", "check_variants_run", "check_family", "sentence",
]


def _format_value(row, value) -> str:
    digits = int(row["digits"])
    if row["kind"] == "ratio":
        return "×∞" if value == math.inf else "×0" if value == 0 else f"×{value:.{digits}f}"
    if not np.isfinite(value):
        return "−∞" if value < 0 else "+∞"
    if row["kind"] == "proportion":
        return f"{value:.{digits}f}"
    return signed(value, digits)


def _format_p(p) -> str:
    if p < 0.001:
        return "< 0.001"
    return f"= {p:.3f}"


@validate_params({"notebook": [str], "id": [str]}, prefer_skip_nested_validation=True)
def anchor(notebook: str, id: str) -> str:
    """The HTML anchor of claim ``id`` of notebook ``notebook``: ``claim-01-2``.

    The notebook's verdict list, ``docs/results.md`` and the site carry it; the README glance
    links to it.

    Parameters
    ----------
    notebook, id : str
        The notebook key and the claim id.

    Returns
    -------
    str

    Examples
    --------
    >>> anchor("04", "3-J48"), anchor("05", "acc leukemia.golub")
    ('claim-04-3-J48', 'claim-05-acc-leukemia-golub')
    """
    parts = [re.sub(r"[^A-Za-z0-9_-]+", "-", part).strip("-") for part in (notebook, id)]
    return "-".join(["claim", *(part for part in parts if part)])


@validate_params({"row": [pd.Series, Mapping]}, prefer_skip_nested_validation=True)
def sentence(row) -> str:
    """The Markdown verdict sentence of one row of a claims table (or of its CSV read back).

    ``"WIDC(p) vs J48, error(WIDC(p)) − error(J48) ≤ +2.00 points: **holds** (estimate +1.60 points,
    95 % CI [+0.40, +2.90], unadjusted, Holm p = 0.030, Wilcoxon, n = 31, head to head 20/3/8
    (wins/ties/losses), against the margin 25/0/6; robust to encoding; 4 of 4 other seeds keep)"``. A
    ``holds`` shows the corrected p of the test of "claim false", a ``fails`` that of the opposite
    test ("claim true"), an ``undecided`` both; the interval is the unadjusted one. Wins, ties and
    losses are head-to-head counts of the raw differences; the count against a non-zero margin
    follows under its own name. An ``exact`` row says that its check ran in the notebook, on the
    paper's formula or on our reconstruction, and whether it holds by construction. A row with an
    honest-check variant is followed by that variant's verdict. A claim whose
    design cannot reach α says so (``**not decidable with this design**``) with its interval; a
    paired comparison whose differences are all zero is ``**identical**``; an ``observation``
    reports its estimate and interval without a verdict; a stand-in peer is named.

    Parameters
    ----------
    row : mapping or pandas.Series
        One row of a claims table.

    Returns
    -------
    str
    """
    verdict = row["verdict"]
    statement = row["statement"]
    extras = [part for part in (_text(row.get("sensitivity")), _text(row.get("seeds"))) if part]
    stand_in = _text(row.get("stand_in"))
    if stand_in:
        statement = f"{statement} [peer: {stand_in}]"
    if row["kind"] == "guaranteed":
        return f"{statement}: **guaranteed** by construction ({row['detail']}); not a claim, not tested."
    if verdict == "n/a":
        return f"{statement}: **not evaluated** on this protocol" + (f" ({'; '.join(extras)})" if extras else "") + "."
    if row["kind"] == "exact":
        detail = _text(row["detail"])
        label = _exact_label(row)
        inside = "; ".join(p for p in (f"{label}: {detail}" if detail else label, *extras) if p)
        fragile = ", not robust" if verdict != "observed" and not _flag(row.get("robust", True)) else ""
        return f"{statement}: **{verdict}**{fragile} ({inside})."
    unit = f" {row['unit']}" if _text(row["unit"]) else ""
    n = int(row["n"]) if np.isfinite(row["n"]) else 0
    if row["kind"] == "proportion":
        estimate = f"{round(row['estimate'] * n)}/{n} = {_format_value(row, row['estimate'])}"
    else:
        estimate = f"{_format_value(row, row['estimate'])}{unit}"
    interval = f"{_level(row)} % CI [{_format_value(row, row['ci_low'])}, {_format_value(row, row['ci_high'])}], unadjusted"
    test = _TEST_NAMES[row["test"]]
    if verdict in ("holds", "agrees", "passes"):
        p_text = f"Holm p {_format_p(row['p_holm'])}"
    elif verdict in ("fails", "differs", "does not pass"):
        p_text = f"Holm p of the test of the opposite {_format_p(row['p_fail_holm'])}"
    elif verdict == "undecided":
        p_text = (f"Holm p {_format_p(row['p_holm'])}, and of the test of the opposite "
                  f"{_format_p(row['p_fail_holm'])[2:]}")
    elif verdict == "not decidable":
        p_text = f"smallest reachable Holm p {row['min_p']:.3g} > α = {float(row['alpha']):g}"
    else:  # observed, identical: no test decides
        p_text = ""
    inside = ", ".join(p for p in (f"estimate {estimate}", interval, p_text, test, f"n = {n}", _tallies(row)) if p)
    if extras:
        inside += "; " + "; ".join(extras)
    word = "not decidable with this design" if verdict == "not decidable" else verdict
    fragile = ", not robust" if verdict not in ("observed", "identical") and not _flag(row.get("robust", True)) else ""
    flips = [part for part in _text(row.get("flips")).split("; ") if part]
    flipped_to = {part.rsplit(" (", 1)[-1].rstrip(")") for part in flips}
    if fragile and verdict in ("holds", "fails") and flipped_to == {"undecided"}:
        changers = "the one variant that changes it leaves" if len(flips) == 1 else \
            f"the {len(flips)} variants that change it leave"
        fragile += f" (no variant reverses it: {changers} it undecided)"
    text = f"{statement}, {row['criterion']}: **{word}**{fragile} ({inside})."
    check = honest_check_text(row)
    return f"{text} {check}" if check else text


#: The most words the first layer of a verdict (:func:`headline`) may have, the claim's statement
#: not counted: what a reader takes in at a glance; the statistics are folded beneath it.
HEADLINE_WORDS = 25


def headline(row) -> str:
    """The first layer of a verdict: at most :data:`HEADLINE_WORDS` words a person would write.

    ``"undecided under the paper's protocol, fails under the honest check; 4 of 4 other seeds
    agree; 3 of 21 variants differ"``. The verdict under the paper's protocol (the main design),
    the honest check's where the row declares one, how many other fold seeds or draws keep the
    verdict, and how many of the other variants run differ from their own protocol's verdict (a
    variant of the honest check's protocol, nested CV on a finer grid say, from the honest
    check's; every other one from the paper's protocol's; "make it undecided" when none of them
    reverses it), naming the variant when it is the only one and the budget allows. The
    statistics (estimate, interval, test, Holm p, tallies, every variant named) are the second
    layer, :func:`sentence`. The claim's statement precedes it and is not counted.

    Parameters
    ----------
    row : mapping or pandas.Series
        One row of a claims table.

    Returns
    -------
    str
        Markdown (verdict words in bold).
    """
    verdict = row["verdict"]
    word = {"n/a": "not evaluated", "not decidable": "not decidable with this design"}.get(verdict, verdict)
    if row["kind"] == "guaranteed":
        return "true by construction; not tested"
    if verdict == "n/a":
        return "**not evaluated** on this protocol"
    if verdict == "observed":
        return "an observation: no verdict"
    largely = ""
    if row["kind"] == "exact":
        built = _flag(row.get("by_construction"))
        if built and _text(row.get("category")) == "empirical":
            largely = ", largely by construction"  # after the protocols it qualifies
            built = False
        first = f"**{word}**" + (" by construction" if built else "")
        if _text(row.get("category")) == "mathematical":
            first = "checked here: " + first
    else:
        first = f"**{word}**"
    check, check_word = _text(row.get("check_variant")), _text(row.get("check_verdict"))
    if check and check_word:
        check_word = {"n/a": "not evaluated", "not decidable": "not decidable"}.get(check_word, check_word)
        first = (f"{first} under the paper's protocol and the honest check" if check_word == verdict else
                 f"{first} under the paper's protocol, **{check_word}** under the honest check")
    first += largely
    flips = [part for part in _text(row.get("flips")).split("; ") if part and part.rsplit(" (", 1)[0] != check]
    seed_flips = [part for part in flips if part.split("=", 1)[0] == "seed"]
    other_flips = [part for part in flips if part not in seed_flips]
    seeds = re.match(r"(\d+) of (\d+) other seeds keep", _text(row.get("seeds")))
    run, checked = (_count(row.get(name)) for name in ("variants_run", "check_variants_run"))
    if check and check_word and checked:
        # a variant of the honest check's protocol is compared with the honest check's verdict
        declared = [n for n in _text(row.get("check_family")).split("; ") if n]
        ours = [part for part in other_flips if check_family(check, part.rsplit(" (", 1)[0], declared)]
        other_flips = [part for part in other_flips if part not in ours] + [
            part for part in ours if part.rsplit(" (", 1)[-1].rstrip(")") != row["check_verdict"]]
        if row["check_verdict"] != verdict:  # those that keep the main verdict differ from the check's
            other_flips += [f"honest-check variants ({verdict})"] * (checked - len(ours))
    parts = [first]
    if seeds:
        kept, total = int(seeds.group(1)), int(seeds.group(2))
        parts.append(f"all {total} other seeds agree" if kept == total else f"{kept} of {total} other seeds agree")
    if run is None:  # a table written before the count: the flips alone
        changed = (f"{len(other_flips)} variant{'s' if len(other_flips) > 1 else ''} "
                   f"differ{'' if len(other_flips) > 1 else 's'}") if other_flips else ""
    elif run == 0:  # the honest check and the seeds, when run, are stated already
        changed = ("" if seeds or (check and check_word) else
                   # variants (fold seeds among them) ran and left its data as they are
                   "unchanged by every variant run" if "unchanged" in _text(row.get("sensitivity")) else
                   "no variant run")
    elif not other_flips:
        changed = f"no other variant differs ({run} run)" if check or seeds else f"no variant differs ({run} run)"
    else:
        to = {part.rsplit(" (", 1)[-1].rstrip(")") for part in other_flips}
        effect = "make it undecided" if to == {"undecided"} and verdict in ("holds", "fails") else "differ"
        if len(other_flips) == 1:
            effect = "makes it undecided" if effect == "make it undecided" else "differs"
        changed = f"the one variant run {effect}" if run == 1 else f"{len(other_flips)} of {run} variants {effect}"
        # name what flips it, as far as the budget allows: every family of variants (a choice run at
        # several seeds is one family), else the first and a count, in full and then without its
        # parenthesis; else the count alone
        families = _flip_families(other_flips)
        shown = []
        for short in (False, True):
            names = [_family_text(name, words, short) for name, words in families.items()]
            shown += [_grouped(names), *([f"{names[0]}, {len(names) - 1} more"] if len(names) > 1 else [])]
        for names in shown:
            named = f"{changed}: {names}"
            if headline_words("; ".join([*parts, named])) <= HEADLINE_WORDS:
                changed = named
                break
    if changed:
        parts.append(changed)
    return "; ".join(parts)


#: Where a sentence ends: a full stop after a lower-case letter, a digit or a closing bracket, then a
#: capital (not "e.g. A", "Fig. 1", "p = 0.03. ").
_SENTENCE_END = re.compile(r"(?<=[a-z0-9)\]*])\.\s+(?=[A-Z“\"*(])")


def _first_sentence(text: str, shortest: int = 40) -> tuple[str, str]:
    """``(first sentence, the rest)`` of a generated paragraph; the first is at least ``shortest``
    characters (a short opening sentence takes the next one with it)."""
    for match in _SENTENCE_END.finditer(text):
        if match.start() >= shortest and text.count("(", 0, match.start()) == text.count(")", 0, match.start()):
            return text[:match.start() + 1], text[match.end():]
    return text, ""


def check_family(honest_check: str, variant: str, names=()) -> bool:
    """Whether ``variant`` is a variant of the honest check's protocol (``"protocol=nested (b), grid=fine"``
    or ``"protocol=nested (b) at seed 2"`` of the check ``"protocol=nested (b), every fold seed"``):
    its verdict is compared with the honest check's, not the paper's protocol's."""
    if not honest_check or variant == honest_check:
        return False
    if variant.split("=", 1)[0] in names:  # declared by the row (its check_variants)
        return True
    protocol = honest_check.split(",")[0].split(" at seed")[0]
    return variant == protocol or variant.startswith((f"{protocol},", f"{protocol} at seed"))


def _flip_families(flips) -> dict:
    """``{family: [verdicts]}`` of ``"variant (verdict)"`` flips, a variant's seeds (``"… at seed 3"``)
    folded into its family, in order of first appearance."""
    families, members = {}, {}
    for part in flips:
        name, _, word = part.rpartition(" (")
        family = re.sub(r" at seed \d+$", "", name)
        families.setdefault(family, []).append(word.rstrip(")"))
        members.setdefault(family, []).append(name)
    # a family one member of which flips is named by that member ("grid=fine at seed 1", not "grid=fine")
    return {(members[f][0] if len(members[f]) == 1 else f): words for f, words in families.items()}


def _family_text(name: str, verdicts: list, short: bool) -> str:
    """``"peer=Table 1 SVM (holds)"``: a family and the verdicts its variants give (``short``: the
    name's parenthesis dropped)."""
    if short:
        name = re.sub(r" \([^()]*\)", "", name)
    return f"{name} ({'/'.join(dict.fromkeys(verdicts))})"


def _grouped(names: list) -> str:
    """``"factor=20, factor=30 (fails)"``: families that give the same verdicts share one bracket."""
    groups = []
    for text in names:
        name, _, verdicts = text.rpartition(" (")
        if groups and groups[-1][1] == verdicts:
            groups[-1][0].append(name)
        else:
            groups.append(([name], verdicts))
    return ", ".join(f"{', '.join(members)} ({verdicts}" for members, verdicts in groups)


def _count(value) -> int | None:
    """An integer column of a claims table, None where a table written before it lacks it."""
    return int(value) if isinstance(value, (int, float, np.integer, np.floating)) and np.isfinite(value) else None


def headline_words(text: str) -> int:
    """The words of a headline as a reader counts them: the whitespace-separated pieces holding a
    letter or a digit (Markdown's ``**`` and lone punctuation are not words; the site's browser
    test counts the rendered text the same way)."""
    return sum(1 for piece in text.split() if re.search(r"[A-Za-z0-9]", piece))


_TEST_NAMES = {"wilcoxon": "Wilcoxon", "t": "paired t", "sign": "sign test", "corrected_t": "corrected resampled t",
               "binomial": "binomial"}


def _level(row) -> str:
    return f"{100 * (1 - 2 * float(row['alpha'])):.4g}"


def _exact_label(row) -> str:
    """What an exact row's check is: computed in the notebook, on the paper's formula or on our
    reconstruction of it, and whether it holds by construction."""
    category = _text(row.get("category"))
    if category == "mathematical":
        source = ("the paper's formula" if _text(row.get("formula")) == "paper"
                  else "our reconstruction of a formula the extracted text lost")
        label = f"checked in this notebook, on {source}"
    else:
        label = "checked in this notebook"
    if _flag(row.get("by_construction")) and category == "empirical":
        label += ("; the design decides it on most of its units (named in the detail), so it is counted apart "
                  "from the tested results")
    elif _flag(row.get("by_construction")):
        label += "; holds by construction of our implementation, not counted with the checks that could fail"
    return label


def _flag(value) -> bool:
    return value in (True, "True", "true", 1) or (isinstance(value, (bool, np.bool_)) and bool(value))


def _tallies(row) -> str:
    """Head-to-head wins/ties/losses of the raw differences, and the count against a non-zero
    margin under its own name."""
    if row["kind"] == "proportion" or not np.isfinite(row.get("wins", np.nan)):
        return ""
    text = f"head to head {int(row['wins'])}/{int(row['ties'])}/{int(row['losses'])} (wins/ties/losses)"
    margin_wins = row.get("margin_wins", np.nan)
    zero = 1.0 if row["kind"] == "ratio" else 0.0
    if np.isfinite(margin_wins) and float(row["margin"]) != zero:
        text += (f", against the margin {int(margin_wins)}/{int(row['margin_ties'])}/"
                 f"{int(row['margin_losses'])}")
    return text


def honest_check_text(row) -> str:
    """``"Honest check (protocol=nested): **undecided**, estimate +0.50 points, 95 % CI [...]."``,
    or ``""`` when the row names no honest-check variant."""
    variant = _text(row.get("check_variant"))
    if not variant or not _text(row.get("check_verdict")):
        return ""
    verdict = row["check_verdict"]
    word = "not decidable with this design" if verdict == "not decidable" else verdict
    if verdict == "n/a":
        return f"Honest check ({variant}): not evaluated."
    unit = f" {row['unit']}" if _text(row["unit"]) else ""
    parts = []
    if np.isfinite(row.get("check_estimate", np.nan)):
        value = row["check_estimate"]
        estimate = (f"{round(value * row['n'])}/{int(row['n'])}" if row["kind"] == "proportion" and np.isfinite(row["n"])
                    else f"{_format_value(row, value)}{unit}")
        parts.append(f"estimate {estimate}")
        parts.append(f"{_level(row)} % CI [{_format_value(row, row['check_ci_low'])}, "
                     f"{_format_value(row, row['check_ci_high'])}]")
    inside = f" ({', '.join(parts)})" if parts else ""
    return f"Honest check ({variant}): **{word}**{inside}."


def history_text(row) -> str:
    """When the row's criterion took its present form, whether results were known then, and its
    history (``"Criterion in this form since 2026-12-03 (dac61b8623), after the notebook had shown
    its numbers."``)."""
    fixed = _text(row.get("fixed"))
    if not fixed:
        return ""
    date, _, commit = fixed.partition(" ")
    known = ("after the notebook had shown its numbers" if _flag(row.get("results_known"))
             else "before the notebook had shown its numbers")
    text = f"Criterion in this form since {date} ({commit}), {known}."
    history = _text(row.get("history"))
    return f"{text} {history}" if history else text


#: How each category is named beside a claim's id.
_CATEGORY_LABELS = {"empirical": "empirical result", "mathematical": "mathematical statement",
                    "conformance": "conformance check", "peer": "peer check", "sanity": "sanity check",
                    "aim": "the paper's aim", "observation": "observation"}


def _text(value) -> str:
    return value if isinstance(value, str) else ""


#: The claim ids a list of sentences or discussions shows: one, several, or all (None).
_IDS = [str, "array-like", None]


# Validated once for the whole list: the sentence and anchor of every row skip theirs.
@validate_params(
    {"table": [pd.DataFrame, str, os.PathLike], "ids": _IDS, "links": [dict, None]},
    prefer_skip_nested_validation=True,
)
def verdict_markdown(table: pd.DataFrame, ids=None, *, links: dict | None = None) -> Markdown:
    """Markdown list of the verdict sentences of ``table`` (all rows, or those of ``ids`` in order).

    Each item carries the claim's anchor (:func:`companion.claims._report.anchor`); a ``paper`` claim is followed by its
    quotation and where it stands in the paper.

    Parameters
    ----------
    table : pandas.DataFrame or path-like
        A claims table, or the path of its CSV.
    ids : str or list of str, optional
        The claims shown, in this order (default: all rows).
    links : dict, optional
        ``{notebook key: URL of the page holding the verdicts}``: each claim id links to its
        anchor there (``docs/results.md`` links to the notebooks' cells).

    Returns
    -------
    Markdown
    """
    table = as_table(table, "verdict_markdown")
    if ids is None:
        rows = [row for _, row in table.iterrows()]
    else:
        ids = [ids] if isinstance(ids, str) else list(ids)
        known = list(table["id"])
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise KeyError(f"verdict_markdown: no claim with id {unknown}; the table has {known}")
        rows = [table.loc[table["id"] == i].iloc[0] for i in ids]
    items = []
    quoted = {}  # each sentence of the paper is quoted once: a later row of it points to the first
    for row in rows:
        name = anchor(row["notebook"], row["id"])
        label = f"**{row['id']}.**"
        if links and row["notebook"] in links:
            label = f"**[{row['id']}]({links[row['notebook']]}#{name}).**"
        kind_label = _CATEGORY_LABELS.get(_text(row.get("category")), "" if row["origin"] == "paper" else row["origin"])
        origin = f" *({kind_label})*" if kind_label else ""
        statement = row["statement"]
        if _text(row.get("stand_in")) and "stand-in" not in statement and "stand in" not in statement:
            # the peer is named in full in the statistics beneath (sentence's "[peer: …]")
            statement += " *(against a stand-in)*"
        # the first layer: the statement and a short verdict; the statistics folded beneath it
        item = (f'* <a id="{name}"></a>{label}{origin} {statement} — '
                f'<span class="verdict-headline">{headline(row)}</span>')
        quote = _text(row.get("quote"))
        parts = []
        if quote and (row["notebook"], quote) in quoted:
            first = quoted[(row["notebook"], quote)]
            page = links[row["notebook"]] if links and row["notebook"] in links else ""  # as the ids link
            parts.append(f"*The same sentence of the paper as [{first}]({page}#{anchor(row['notebook'], first)}).*")
        elif quote:
            quoted[(row["notebook"], quote)] = row["id"]
            parts.append(f"> “{markdown_quote(quote)}” ({row['where']})")
        parts.append(sentence(row))
        history = history_text(row)
        if history:
            parts.append(f"*{history}*")
        summary_line = "Quote, statistics and variants" if quote else "Statistics and variants"
        folded = "\n\n  ".join(parts)
        item += f"\n\n  <details><summary>{summary_line}</summary>\n\n  {folded}\n\n  </details>\n"
        items.append(item)
    return Markdown("\n".join(items))


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

#: The kinds of row a reader sees open: the paper's empirical results. Its mathematical statements
#: (checked in the notebook) stay open where they do not hold; the checks, aims and observations
#: are folded beneath a line that counts them.
OPEN_SECTIONS = ("empirical",)


def verdict_sections(table, links: dict | None = None) -> Markdown:
    """Every row of ``table`` by kind (:data:`SECTION_TITLES`): the paper's empirical results open,
    its mathematical statements open where they do not hold (those that hold folded beneath their
    count), each other kind folded beneath its title and its count (:func:`kind_counts`).

    Parameters
    ----------
    table : pandas.DataFrame or path-like
        A claims table or its CSV.
    links : dict, optional
        As for :func:`verdict_markdown`.

    Returns
    -------
    Markdown
    """
    frame = as_table(table, "verdict_sections")
    counts = kind_counts(frame)
    count_of = {"empirical": counts["empirical"], "mathematical": counts["mathematical"],
                "conformance": counts["conformance"], "peer": counts["peer"], "sanity": counts["sanity"]}
    parts = []
    other = list(frame.loc[~frame["category"].isin(list(SECTION_TITLES)), "id"])  # a table without categories
    if other:
        parts.append(verdict_markdown(frame, other, links=links).data)
    for category, title in SECTION_TITLES.items():
        ids = list(frame.loc[frame["category"] == category, "id"])
        if not ids:
            continue
        if category == "mathematical":
            # a statement that does not hold stays open; those that hold are folded beneath their count
            held = frame["id"].isin(ids) & (frame["verdict"] == "holds")
            shown = [i for i in ids if i not in set(frame.loc[held, "id"])]
            text = f"**{title}** ({count_of['mathematical']})"
            if shown:
                text += "\n\n" + verdict_markdown(frame, shown, links=links).data
            if held.any():
                folded = verdict_markdown(frame, list(frame.loc[held, "id"]), links=links).data
                text += (f"\n\n<details><summary>The {int(held.sum())} that hold</summary>\n\n{folded}\n\n"
                         "</details>")
            parts.append(text)
        elif category in OPEN_SECTIONS:
            parts.append(f"**{title}**\n\n{verdict_markdown(frame, ids, links=links).data}")
        else:
            listing = verdict_markdown(frame, ids, links=links).data
            count = count_of.get(category, f"{len(ids)}")
            parts.append(f"<details><summary><strong>{title}</strong> ({count})</summary>\n\n{listing}\n\n</details>")
    return Markdown("\n\n".join(parts))


#: Columns a claims CSV written before the registry lacks, with the values they stand for.
_DEFAULTS = {"notebook": "", "origin": "paper", "central": False, "quote": "", "where": "", "quote_source": "paper",
             "margin_reason": "", "tie_rule": "", "wins": np.nan, "ties": np.nan, "losses": np.nan,
             "min_p": np.nan, "seeds": "", "stand_in": "", "unit_test": "", "discussion": "", "category": "",
             "formula": "", "by_construction": False, "fixed": "", "results_known": True, "history": "",
             "margin_wins": np.nan, "margin_ties": np.nan, "margin_losses": np.nan, "check_variant": "",
             "check_verdict": "", "check_estimate": np.nan, "check_ci_low": np.nan, "check_ci_high": np.nan,
             "check_p_holm": np.nan, "check_p_fail_holm": np.nan, "variants_run": np.nan,
             "check_variants_run": np.nan, "check_family": "", "sentence": ""}


_TEXT_COLUMNS = ("notebook", "statement", "quote", "where", "criterion", "unit", "detail", "flips", "sensitivity",
                 "quantity", "margin_reason", "tie_rule", "seeds", "stand_in", "unit_test", "discussion",
                 "category", "formula", "fixed", "history", "check_variant", "check_verdict", "sentence", "check_family")


def as_table(table, where) -> pd.DataFrame:
    if isinstance(table, (str, Path)):
        path = Path(table)
        table = pd.read_csv(path, dtype={"id": str, "notebook": str}, keep_default_na=False, na_values=[""])
        if "notebook" not in table.columns:
            table["notebook"] = path.name[:2]
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"{where}: table must be a claims DataFrame or the path of its CSV, got {type(table).__name__}")
    table = table.copy()
    for column, value in _DEFAULTS.items():
        if column not in table.columns:
            table[column] = value
    missing = [c for c in TABLE_COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(f"{where}: not a claims table, columns {missing} are missing")
    for column in _TEXT_COLUMNS:
        table[column] = table[column].where(table[column].notna(), "").astype(str)
    table["id"] = table["id"].astype(str)
    for column in ("central", "by_construction", "results_known"):
        table[column] = table[column].map(_flag).astype(bool)
    return table


@dataclass
class ClaimsReport:
    """What :func:`evaluate` returns.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per claim (main variant), the columns of :data:`TABLE_COLUMNS`: the registry's
        fields (``origin``, ``quote``, ``where``, criterion, tie rule), the estimate, interval,
        wins/ties/losses, raw and Holm-corrected p, ``min_p`` (the smallest corrected p the design
        can reach), the verdict and its sensitivity (``flips``, ``seeds``).
    sensitivity : pandas.DataFrame
        Long table, one row per (variant, claim), with its ``role`` (``main``; ``varies``: the
        variant is listed for the claim and changes its data; ``unchanged``: listed, same data;
        ``not listed``) and ``same_as_main``.
    main : str
        The main variant's name.
    alpha : float
        The one-sided level.
    """

    table: pd.DataFrame
    sensitivity: pd.DataFrame
    main: str = "main"
    alpha: float = ALPHA

    def sentence(self, id) -> Markdown:
        """The verdict sentence of claim ``id``, as Markdown.

        Parameters
        ----------
        id : str
            The claim's key.

        Returns
        -------
        Markdown
        """
        return Markdown(sentence(self._row(id)))

    def sentences(self, ids=None) -> Markdown:
        """The verdict sentences of every claim (or of ``ids``), a Markdown list with anchors.

        Parameters
        ----------
        ids : list of str, optional
            The claims shown, in this order (default: all).

        Returns
        -------
        Markdown
            With ``ids``, their list; else every row by kind (:func:`verdict_sections`: the
            paper's results and statements open, the checks and observations folded).
        """
        return verdict_markdown(self.table, ids) if ids is not None else verdict_sections(self.table)

    # Validated once for the whole list: the render of every claim's template skips its own.
    @validate_params({"ids": _IDS, "values": [dict, None]}, prefer_skip_nested_validation=True)
    def discussion(self, ids=None, values: dict | None = None) -> Markdown:
        """Each claim's discussion, rendered from its registry template and its row of the table.

        Parameters
        ----------
        ids : str or list of str, optional
            The claims discussed, in this order (default: every claim with a template).
        values : dict, optional
            ``{claim id: {field: value}}``: further fields a template names (paper-specific
            numbers computed by the protocol), added to the row's columns.

        Returns
        -------
        Markdown
            One list item per claim, ``**id.** text``.
        """
        values = values or {}
        unknown = sorted(set(values) - set(self.table["id"]))
        if unknown:
            raise KeyError(f"ClaimsReport.discussion: values for unknown claims {unknown}")
        chosen = list(self.table["id"]) if ids is None else ([ids] if isinstance(ids, str) else list(ids))
        items = []
        for id in chosen:
            row = self._row(id)
            if not row["discussion"]:
                if ids is not None:
                    raise ValueError(f"ClaimsReport.discussion: claim {id!r} has no discussion template")
                continue
            if row["verdict"] == "n/a":  # nothing was measured: the template's numbers would be NaN
                items.append(f"* **{id}.** Not evaluated in this run" + (f" ({row['detail']})." if row["detail"] else "."))
                continue
            fields = {k: (v.item() if isinstance(v, np.generic) else v) for k, v in row.items()}
            text = " ".join(render(row["discussion"], fields, **values.get(id, {})).data.split())
            first, rest = _first_sentence(text)
            item = f"* **{id}.** {first}"
            if rest:
                item += f"\n\n  <details><summary>More on {id}</summary>\n\n  {rest}\n\n  </details>\n"
            items.append(item)
        return Markdown("\n".join(items))

    def summary(self) -> Markdown:
        """The notebook's verdict summary: its central claims, then every row counted by kind.

        The summary the README glance and ``docs/results.md`` publish for this notebook: each
        central claim under the paper's protocol and the honest check, with its robustness.

        Returns
        -------
        Markdown
        """
        return summary(self.table)

    def verdicts(self, variant: str | None = None) -> dict:
        """``{id: verdict}`` of the main variant, or under ``variant``.

        Under a variant, a claim it re-decides has that verdict; a claim it leaves as it is (its
        data unchanged, or the variant not among the claim's) keeps the main one.

        Parameters
        ----------
        variant : str, optional
            A variant of :attr:`sensitivity` (default: the main one).

        Returns
        -------
        dict
            ``{id: verdict}``.
        """
        main = dict(zip(self.table["id"], self.table["verdict"]))
        if variant is None or variant == self.main:
            return main
        rows = self.sensitivity[self.sensitivity["variant"] == variant]
        if rows.empty:
            raise KeyError(f"ClaimsReport.verdicts: no variant {variant!r}; the report has "
                           f"{list(dict.fromkeys(self.sensitivity['variant']))}")
        varied = rows[rows["role"] == "varies"]
        return {**main, **dict(zip(varied["id"], varied["verdict"]))}

    def sentence_robustness(self, sentences: Mapping, verdict_of) -> pd.DataFrame:
        """A sentence's verdict (from its rows' verdicts) re-decided under every variant.

        A sentence of the paper judged by several rows (readings, parts, peers) has a verdict of
        its own, ``verdict_of({id: verdict})``; it is robust when no variant changes it, whatever
        its rows do one by one (a row that flips can leave the sentence's verdict as it is). A
        variant under which a row the main variant decides is not evaluated (``n/a``: what it
        reads was not run there) is no flip: the sentence is *not evaluated* under it, as the row is.

        Parameters
        ----------
        sentences : mapping
            ``{sentence label: ids of its rows}``.
        verdict_of : callable
            ``verdict_of({id: verdict}) -> str``, the notebook's rule for a sentence.

        Returns
        -------
        pandas.DataFrame
            One row per sentence, indexed by its label: ``verdict`` (main variant), ``robust``
            (bool), ``flips`` (``"variant (verdict); …"``, the variants that change it),
            ``not evaluated`` (``"variant; …"``, those under which one of its rows is not) and
            ``variants`` (how many variants re-decide at least one of its rows).
        """
        known = set(self.table["id"])
        variants = [v for v in dict.fromkeys(self.sensitivity["variant"]) if v != self.main]
        under = {v: self.verdicts(v) for v in variants}
        touching = {v: set(self.sensitivity.loc[(self.sensitivity["variant"] == v)
                                                & (self.sensitivity["role"] == "varies"), "id"]) for v in variants}
        rows = []
        for label, ids in sentences.items():
            ids = list(ids)
            unknown = [i for i in ids if i not in known]
            if unknown:
                raise KeyError(f"ClaimsReport.sentence_robustness: sentence {label!r} names unknown claims {unknown}")
            decided = {i: self.verdicts()[i] for i in ids}
            main = verdict_of(decided)
            relevant = [v for v in variants if touching[v] & set(ids)]
            missing = [v for v in relevant if any(under[v][i] == "n/a" != decided[i] for i in ids)]
            flips = [(v, word) for v in relevant if v not in missing
                     and (word := verdict_of({i: under[v][i] for i in ids})) != main]
            rows.append({"sentence": label, "verdict": main, "robust": not flips,
                         "flips": "; ".join(f"{v} ({word})" for v, word in flips),
                         "not evaluated": "; ".join(missing), "variants": len(relevant)})
        return pd.DataFrame(rows, columns=["sentence", "verdict", "robust", "flips", "not evaluated", "variants"]
                            ).set_index("sentence")

    def save(self, name: str) -> None:
        """Write ``figures/<name>.csv`` (the table) and ``figures/<name>_sensitivity.csv``.

        Via :func:`companion.paths.save_table` (10 significant digits).

        Parameters
        ----------
        name : str
            File stem, without ``.csv``.
        """
        from companion.paths import save_table

        if not isinstance(name, str) or not name or name.endswith(".csv"):
            raise ValueError(f"ClaimsReport.save: name must be a file stem without .csv, got {name!r}")
        save_table(self.table, f"{name}.csv", index=False)
        save_table(self.sensitivity, f"{name}_sensitivity.csv", index=False)

    def _row(self, id):
        match = self.table[self.table["id"] == id]
        if match.empty:
            raise KeyError(f"ClaimsReport: no claim with id {id!r}; the family has {list(self.table['id'])}")
        return match.iloc[0]


def _count_words(counts: dict, order, fragile=None) -> str:
    """``"3 holds (1 not robust), 1 fails"``: the counts in ``order``, then any other word; with
    ``fragile`` (``{word: how many are not robust}``) the non-robust ones in brackets."""
    fragile = fragile or {}
    words = list(order) + sorted(set(counts) - set(order))
    return ", ".join(f"{counts[word]} {word}" + (f" ({fragile[word]} not robust)" if fragile.get(word) else "")
                     for word in words if counts.get(word))


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
    # an empirical row its design decides on most units (by_construction) is counted apart
    largely = (category == "empirical") & frame["by_construction"].astype(bool)
    empirical = verdict[(category == "empirical") & (frame["kind"] != "guaranteed") & ~largely]
    guaranteed = int(((category == "empirical") & (frame["kind"] == "guaranteed")).sum())
    fragile = ~frame.loc[empirical.index, "robust"].map(_flag).astype(bool)
    words = _count_words(empirical.value_counts().to_dict(),
                         ("holds", "fails", "undecided", "not decidable", "identical", "not evaluated"),
                         {word: int(fragile[empirical == word].sum()) for word in set(empirical)})
    text = _rows_on_sentences(frame.loc[empirical.index]) + (f": {words}" if words else "")
    if largely.any():
        shaky = int((largely & ~frame["robust"].map(_flag).astype(bool)).sum())
        text += (f"; {int(largely.sum())} more {'holds' if largely.sum() == 1 else 'hold'} largely by construction of "
                 f"the design" + (f" ({shaky} not robust)" if shaky else ""))
    if guaranteed:
        text += f"; {guaranteed} true by construction (untested)"
    cells["empirical"] = text
    maths = frame[category == "mathematical"]
    built = maths["by_construction"].astype(bool)
    counted = maths[~built]
    maths_words = counted["verdict"].replace({"n/a": "not evaluated"})
    maths_fragile = ~counted["robust"].map(_flag).astype(bool)
    words = _count_words(maths_words.value_counts().to_dict(),
                         ("holds", "fails", "undecided", "not decidable", "not evaluated"),
                         {word: int(maths_fragile[maths_words == word].sum()) for word in set(maths_words)})
    rebuilt = int((counted["formula"].astype(str) == "reconstructed").sum()) if "formula" in counted else 0
    # the sentences counted over every row, checked or by construction (one sentence's two readings
    # can fall on either side)
    shared = _rows_on_sentences(maths)
    text = ((f"{shared}; " if shared != f"{len(maths)}" else "") + f"{len(counted)} checked here"
            + (f" ({rebuilt} on our reconstruction of a lost formula)" if rebuilt else "")
            + (f": {words}" if words else ""))
    if built.any():  # not among the checks counted: they could not fail
        text += f"; {int(built.sum())} more by construction"
    cells["mathematical"] = text if len(maths) else "0"
    for name in ("conformance", "peer"):
        rows = frame[(category == name) & (frame["kind"] != "guaranteed")]
        built = rows["by_construction"].astype(bool)
        counted = rows[~built]
        agree = int((counted["verdict"] == "agrees").sum())
        shaky = ~counted["robust"].map(_flag).astype(bool)
        fragile = int(((counted["verdict"] == "agrees") & shaky).sum())
        others = counted.loc[counted["verdict"] != "agrees", "verdict"].replace({"n/a": "not evaluated"})
        counts = others.value_counts().to_dict()
        rest = ", ".join(
            f"{counts[word]} {word}" + (f", {n} of them not robust" if (n := int(shaky[others.index][others == word].sum()))
                                        and word != "not evaluated" else "")
            for word in [*(w for w in ("differs", "undecided", "not decidable", "identical", "not evaluated")
                           if w in counts), *sorted(set(counts) - {"differs", "undecided", "not decidable",
                                                                    "identical", "not evaluated"})])
        text = (f"{agree} of {len(counted)} agree" + (f", {fragile} of them not robust" if fragile else "")
                + (f" ({rest})" if rest else ""))
        if built.any():
            text += f"; {int(built.sum())} more by construction"
        cells[name] = text if len(rows) else "0"
    sanity = frame[category == "sanity"]
    passing = int((sanity["verdict"] == "passes").sum())
    shaky = int(((sanity["verdict"] == "passes") & ~sanity["robust"].map(_flag).astype(bool)).sum())
    cells["sanity"] = (f"{passing} of {len(sanity)} pass" + (f", {shaky} of them not robust" if shaky else "")
                       if len(sanity) else "0")
    aims = int((category == "aim").sum())
    observations = int((category == "observation").sum())
    cells["observations"] = f"{aims} aims, {observations} observations"
    return cells


def sentence_keys(frame) -> pd.Series:
    """The sentence of the paper each row judges: its ``sentence`` key, else its quote (rows of one
    sentence — readings, parts, peers — share it)."""
    quotes = frame["quote"].map(lambda q: " ".join(str(q).split()))
    return frame["sentence"].where(frame["sentence"].astype(str) != "", quotes)


def _rows_on_sentences(rows) -> str:
    """``"10 rows on 5 sentences"`` where the rows judge fewer sentences of the paper than they are,
    else ``"10"``."""
    keys = sentence_keys(rows)
    n = int(keys[keys != ""].nunique() + (keys == "").sum())
    return f"{len(rows)} rows on {n} sentence{'s' if n > 1 else ''}" if n < len(rows) else f"{len(rows)}"


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
        text = (f"Every criterion ({total} rows) was written after the notebook had shown its numbers ({span}, "
                f"from `git log`); none is a pre-registration.")
    else:
        text = (f"{after} of {total} criteria were written after the notebook had shown its numbers, {total - after} "
                f"before ({span}, from `git log`).")
    return text + _changed_after_results(frame)


def _changed_after_results(frame) -> str:
    """`` " 3 rows changed design, criterion or kind after a result was seen (a, b, c); …"`` from the
    rows' ``history`` (empty when no row has one)."""
    if "history" not in frame or "id" not in frame:
        return ""
    changed = [str(i) for i, h in zip(frame["id"], frame["history"]) if _text(h)]
    if not changed:
        return ""
    rows = "One row" if len(changed) == 1 else f"{len(changed)} rows"
    verb = "was" if len(changed) == 1 else "were"
    return (f" {rows} ({', '.join(changed)}) {verb} changed in design, criterion or kind after a result had "
            f"been seen; each row's history gives the earlier design and its verdict then.")


def central_lines(table, link=None, *, limit=None, reference=False, prefix=None) -> list[str]:
    """One Markdown line per central claim: the statement linked to the claim's anchor (on
    ``link``'s page, or in place when ``link`` is None; ``reference``: a reference-style link named
    by the anchor) and its short verdict (:func:`headline`: the paper's protocol, the honest check,
    the seeds and the other variants counted)."""
    frame = as_table(table, "central_lines")
    lines = []
    central = frame[(frame["origin"] == "paper") & frame["central"]]
    for _, row in (central.head(limit) if limit else central).iterrows():
        name = anchor(row["notebook"], row["id"])
        target = f"[{name}]" if reference else f"({link}#{name})" if link else f"(#{name})"
        if prefix is not None:  # the whole line is the link (the README glance: every number a link)
            lines.append(f"[{prefix}{row['statement']} — {headline(row)}]{target}")
        else:
            lines.append(f"[{row['statement']}]{target} — {headline(row)}")
    return lines




@validate_params({"table": [pd.DataFrame, str, os.PathLike], "link": [str, None]}, prefer_skip_nested_validation=True)
def summary(table, link=None) -> Markdown:
    """A notebook's verdict summary: its central claims, then every row counted by kind.

    Each central claim is shown under the paper's protocol and the honest check, with its
    robustness.

    Parameters
    ----------
    table : pandas.DataFrame or path-like
        The notebook's claims table (or its CSV).
    link : str, optional
        The page holding the claims' anchors, relative to the page the summary is shown on (the
        notebook, from ``docs/results.md``); None: the anchors are on the same page.

    Returns
    -------
    companion.prose.Markdown
    """
    counts = kind_counts(table)
    central = central_lines(table, link)
    parts = []
    if central:
        parts.append("**The paper's central claims**\n\n" + "\n".join(f"* {line}" for line in central))
    parts.append(
        "**Every row, by kind** (only the paper's own results and statements get a verdict word)\n\n"
        f"* empirical results of the paper: {counts['empirical']}\n"
        f"* mathematical statements of the paper: {counts['mathematical']}\n"
        f"* conformance checks of our code against the paper's description: {counts['conformance']}\n"
        f"* checks of our runs against a peer we ran or a published number: {counts['peer']}\n"
        f"* sanity checks: {counts['sanity']}\n"
        f"* no verdict: {counts['observations']}"
        + (f"\n\n{registration(table)}" if registration(table) else "")
    )
    return Markdown("\n\n".join(parts))
