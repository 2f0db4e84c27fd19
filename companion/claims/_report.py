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

from companion.claims._statistics import ALPHA
from companion.prose import Markdown, render, signed


TABLE_COLUMNS = [
    "notebook", "id", "origin", "central", "statement", "quote", "where", "quote_source", "kind", "test",
    "quantity", "criterion", "direction", "margin", "margin_reason", "tie_rule", "unit", "digits", "n",
    "estimate", "ci_low", "ci_high", "wins", "ties", "losses", "p_raw", "p_holm", "p_fail_raw", "p_fail_holm",
    "min_p", "verdict", "detail", "robust", "flips", "seeds", "sensitivity", "stand_in", "unit_test",
    "discussion", "alpha", "category", "formula", "by_construction", "fixed", "results_known", "history",
    "margin_wins", "margin_ties", "margin_losses", "check_variant", "check_verdict", "check_estimate",
    "check_ci_low", "check_ci_high", "check_p_holm", "check_p_fail_holm",
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
    if _flag(row.get("by_construction")):
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
    for row in rows:
        name = anchor(row["notebook"], row["id"])
        label = f"**{row['id']}.**"
        if links and row["notebook"] in links:
            label = f"**[{row['id']}]({links[row['notebook']]}#{name}).**"
        kind_label = _CATEGORY_LABELS.get(_text(row.get("category")), "" if row["origin"] == "paper" else row["origin"])
        origin = f" *({kind_label})*" if kind_label else ""
        item = f'* <a id="{name}"></a>{label}{origin} {sentence(row)}'
        if row["quote"]:
            item += f"\n  > “{row['quote']}” ({row['where']})"
        history = history_text(row)
        if history:
            item += f"\n\n  *{history}*"
        items.append(item)
    return Markdown("\n".join(items))


#: Columns a claims CSV written before the registry lacks, with the values they stand for.
_DEFAULTS = {"notebook": "", "origin": "paper", "central": False, "quote": "", "where": "", "quote_source": "paper",
             "margin_reason": "", "tie_rule": "", "wins": np.nan, "ties": np.nan, "losses": np.nan,
             "min_p": np.nan, "seeds": "", "stand_in": "", "unit_test": "", "discussion": "", "category": "",
             "formula": "", "by_construction": False, "fixed": "", "results_known": True, "history": "",
             "margin_wins": np.nan, "margin_ties": np.nan, "margin_losses": np.nan, "check_variant": "",
             "check_verdict": "", "check_estimate": np.nan, "check_ci_low": np.nan, "check_ci_high": np.nan,
             "check_p_holm": np.nan, "check_p_fail_holm": np.nan}


_TEXT_COLUMNS = ("notebook", "statement", "quote", "where", "criterion", "unit", "detail", "flips", "sensitivity",
                 "quantity", "margin_reason", "tie_rule", "seeds", "stand_in", "unit_test", "discussion",
                 "category", "formula", "fixed", "history", "check_variant", "check_verdict")


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
        """
        return verdict_markdown(self.table, ids)

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
            text = render(row["discussion"], fields, **values.get(id, {})).data
            items.append(f"* **{id}.** {' '.join(text.split())}")
        return Markdown("\n".join(items))

    def summary(self) -> Markdown:
        """The notebook's verdict summary: its central claims, then every row counted by kind.

        The same as :func:`companion.claims.summary` of :attr:`table`: each central claim under
        the paper's protocol and the honest check, with its robustness.

        Returns
        -------
        Markdown
        """
        return summary(self.table)

    def verdicts(self) -> dict:
        """``{id: verdict}`` of the main variant.

        Returns
        -------
        dict
            ``{id: verdict}``.
        """
        return dict(zip(self.table["id"], self.table["verdict"]))

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
    empirical = verdict[(category == "empirical") & (frame["kind"] != "guaranteed")]
    guaranteed = int(((category == "empirical") & (frame["kind"] == "guaranteed")).sum())
    fragile = ~frame.loc[empirical.index, "robust"].map(_flag).astype(bool)
    words = _count_words(empirical.value_counts().to_dict(),
                         ("holds", "fails", "undecided", "not decidable", "identical", "not evaluated"),
                         {word: int(fragile[empirical == word].sum()) for word in set(empirical)})
    text = f"{len(empirical)}" + (f": {words}" if words else "")
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
    text = (f"{len(counted)} checked here" + (f" ({rebuilt} on our reconstruction of a lost formula)" if rebuilt else "")
            + (f": {words}" if words else ""))
    if built.any():  # not among the checks counted: they could not fail
        text += f"; {int(built.sum())} more by construction"
    cells["mathematical"] = text if len(maths) else "0"
    for name in ("conformance", "peer"):
        rows = frame[(category == name) & (frame["kind"] != "guaranteed")]
        built = rows["by_construction"].astype(bool)
        counted = rows[~built]
        agree = int((counted["verdict"] == "agrees").sum())
        fragile = int(((counted["verdict"] == "agrees") & ~counted["robust"].map(_flag).astype(bool)).sum())
        rest = _count_words(counted.loc[counted["verdict"] != "agrees", "verdict"].replace({"n/a": "not evaluated"})
                            .value_counts().to_dict(),
                            ("differs", "undecided", "not decidable", "identical", "not evaluated"))
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


def _robustness(row, flips_shown=None) -> str:
    """``"robust to what was varied (4 of 4 other seeds keep)"``, ``"unchanged by every variant listed"``,
    ``"no variant run"`` or
    ``"not robust: 1 of 4 other seeds keep; flips under tie=… (undecided)"``.

    "Robust" is only ever to the variants run: a choice nobody varied is not covered by it."""
    seeds = _text(row["seeds"])
    every = re.match(r"(\d+) of (\d+) other seeds keep", seeds)
    if flips_shown is not None and every and every.group(1) == every.group(2):
        seeds = ""  # the short form (the README's glance): a seed count is named only when a seed flips
    if row["robust"] in (True, "True"):
        if not _text(row["seeds"]) and not _text(row["sensitivity"]):  # robust to nothing: no variant was run
            return "no variant run"
        if "unchanged here" in _text(row["sensitivity"]):
            return "unchanged by every variant listed"
        return f"robust to what was varied ({seeds})" if seeds else "robust to what was varied"
    flipped = [part for part in _text(row["flips"]).split("; ") if part]
    # the honest check's own verdict stands beside the main one: not repeated as a flip; each flip
    # keeps the verdict it flips to ("grid=fine (holds)"), the seeds that flip named too
    others = [part for part in flipped if part.rsplit(" (", 1)[0] != _text(row.get("check_variant"))]
    parts = [seeds] if seeds else []
    if others:
        shown = others if flips_shown is None or len(others) <= flips_shown else \
            others[:flips_shown] + [f"{len(others) - flips_shown} more"]
        parts.append("flips under " + ", ".join(shown))
    return "not robust: " + "; ".join(parts) if parts else "not robust"


def central_lines(table, link=None, *, limit=None, reference=False, prefix=None, flips_shown=None) -> list[str]:
    """One Markdown line per central claim: the paper's protocol's verdict, the honest check's
    and the robustness, the statement linked to the claim's anchor (on ``link``'s page, or in
    place when ``link`` is None; ``reference``: a reference-style link named by the anchor;
    ``flips_shown``: name at most that many flipping variants, then count the rest)."""
    frame = as_table(table, "central_lines")
    lines = []
    central = frame[(frame["origin"] == "paper") & frame["central"]]
    for _, row in (central.head(limit) if limit else central).iterrows():
        name = anchor(row["notebook"], row["id"])
        target = f"[{name}]" if reference else f"({link}#{name})" if link else f"(#{name})"
        word = "not decidable with this design" if row["verdict"] == "not decidable" else row["verdict"]
        if row["verdict"] == "n/a":
            word = "not evaluated"
        # "the paper's protocol" only where the row declares its honest check beside it: elsewhere
        # the main design is ours (independent draws where the paper ran one), and is not named so
        parts = [f"paper's protocol: **{word}**" if _text(row["check_variant"]) else f"**{word}**"]
        if row["kind"] == "exact" and row["category"] == "mathematical":
            parts = [f"checked here: **{word}**" + (" (by construction)" if row["by_construction"] else "")]
        check = _text(row["check_variant"])
        if check and _text(row["check_verdict"]):
            check_word = "not evaluated" if row["check_verdict"] == "n/a" else row["check_verdict"]
            parts.append(f"honest check ({check}): **{check_word}**")
        if row["kind"] != "guaranteed":
            parts.append(_robustness(row, flips_shown))
        if prefix is not None:  # the whole line is the link (the README glance: every number a link)
            lines.append(f"[{prefix}{row['statement']} — " + "; ".join(parts) + f"]{target}")
        else:
            lines.append(f"[{row['statement']}]{target} — " + "; ".join(parts))
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
