"""Each paper's claims as data: the registry ``companion/experiments/registry/paperNN.toml``."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

from sklearn.utils._param_validation import InvalidParameterError, validate_params

from companion.claims._claim import Claim, difference, exact, guaranteed, proportion, ratio


#: Where each paper's registry lives: ``companion/experiments/registry/paperNN.toml``.
REGISTRY_DIR = Path(__file__).resolve().parent.parent / "experiments" / "registry"


ORIGINS = ("paper", "check", "sanity", "observation")


#: What a row is, by the referee's standard, and the origins each category belongs to. A paper's
#: own assertion is an ``empirical`` result or a ``mathematical`` statement (the only rows with a
#: verdict word); a description of a step of the algorithm becomes a ``conformance`` check of our
#: code, a comparison with a peer's output or a published number a ``peer`` check; a ``sanity``
#: check tests a baseline or a design; an ``aim`` of the paper and an ``observation`` of ours are
#: reported without a verdict.
CATEGORIES = {
    "empirical": "paper",
    "mathematical": "paper",
    "conformance": "check",
    "peer": "check",
    "sanity": "sanity",
    "aim": "observation",
    "observation": "observation",
}


#: Where a mathematical statement's formula comes from: the paper's text, or our reconstruction
#: of a formula the extracted text lost.
FORMULAS = ("paper", "reconstructed")


_FIXED = re.compile(r"\d{4}-\d{2}-\d{2} [0-9a-f]{7,40}")


_KINDS = ("difference", "ratio", "proportion", "exact", "guaranteed")


#: The fields a registry entry may have, and which it must have, by kind.
_ENTRY_FIELDS = {
    "id", "origin", "central", "quote", "where", "quote_source", "statement", "kind", "measure", "test",
    "direction", "margin", "margin_reason", "quantity", "unit", "digits", "offset", "ties", "variants",
    "reason", "unit_test", "stand_in", "discussion", "zero_method", "category", "formula", "by_construction",
    "fixed", "results_known", "history", "honest_check", "margins", "sentence", "check_variants",
    "quote_repairs",
}


#: Ligatures the extraction kept as one glyph, where the glyph is the paper's own: shown as letters,
#: unmarked (a typographic form, like curly quotes). A glyph the extraction put in place of
#: another is a repair, declared in the registry and marked (:func:`repaired_quote`).
_LIGATURES = {"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl"}


def repaired_quote(quote: str, repairs=()) -> str:
    """A quote as shown: the extracted sentence with each declared repair in place, marked.

    The extracted texts of the papers lost glyphs (the DLM paper's text renders ∞ as "1", δ as
    "–", "ff" as "ﬁ"); a registry declares each repair as a pair ``[extracted, meant]``, the meant
    text carrying square brackets around what the extraction lost ("di[ff]erence", "[∞]"), so a
    reader sees which characters are ours. The registry keeps the sentence as extracted (its test
    finds it verbatim in the paper's text). Whitespace is collapsed and the ligatures the
    extraction kept as one glyph are spelt out.

    Parameters
    ----------
    quote : str
        The sentence as extracted.
    repairs : sequence of (str, str)
        ``(extracted, meant)`` pairs, applied in order to every occurrence.

    Returns
    -------
    str

    Examples
    --------
    >>> repaired_quote("This diﬁerence is huge.", [("ﬁ", "[ff]")])
    'This di[ff]erence is huge.'
    >>> repaired_quote("a   classiﬁer")
    'a classifier'
    """
    text = " ".join(quote.split())
    for extracted, meant in repairs:
        text = text.replace(extracted, meant)
    for ligature, letters in _LIGATURES.items():
        text = text.replace(ligature, letters)
    return text


def markdown_quote(quote: str) -> str:
    r"""A quote as literal Markdown text: a repair's closing bracket before an opening parenthesis
    ("log[₂](r)") would make a link, so that parenthesis is escaped.

    Examples
    --------
    >>> markdown_quote("log[₂](r) bits")
    'log[₂]\\(r) bits'
    """
    return quote.replace("](", "]\\(")


def _check_repairs(path, label, repairs, quote=None):
    """Each repair a pair of strings whose meant text marks what it restores; a row's own repairs
    must each change its quote (a repair that matches nothing is a typo)."""
    if not isinstance(repairs, list) or not all(
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(t, str) and t for t in pair)
            for pair in repairs):
        raise _registry_error(path, label, f"quote_repairs must be a list of [extracted, meant] pairs of non-empty "
                                           f"strings, got {repairs!r}")
    for extracted, meant in repairs:
        if not re.search(r"\[[^\]]+\]", meant):
            raise _registry_error(path, label, f"quote_repairs: the meant text {meant!r} must mark what it restores "
                                               "in square brackets")
        if quote is not None and extracted not in " ".join(quote.split()):
            raise _registry_error(path, label, f"quote_repairs: {extracted!r} is not in the quote")


_REQUIRED = {
    "difference": ("measure", "direction", "margin_reason"),
    "ratio": ("measure", "direction", "margin", "margin_reason"),
    "proportion": ("measure", "direction", "margin", "margin_reason"),
    "exact": ("measure",),
    "guaranteed": ("reason",),
}


@dataclass(frozen=True)
class Registry:
    """One paper's claims registry, as read by :func:`load_registry`.

    Parameters
    ----------
    key : str
        The notebook number, ``"01"``.
    citation : str
        The paper.
    text : str
        The file in the papers folder its quotes are checked against.
    entries : tuple of dict
        The claims, in order, each a validated mapping of the registry's fields.
    path : pathlib.Path
        The TOML file.
    quote_repairs : tuple of (str, str), default=()
        The repairs of the extraction that hold for every quote of the paper (a glyph the
        extraction always put in place of another); a claim's own ``quote_repairs`` follow them.
    """

    key: str
    citation: str
    text: str
    entries: tuple
    path: Path
    quote_repairs: tuple = ()

    def shown_quote(self, entry) -> str:
        """An entry's quote as shown, with the paper's and the entry's repairs marked (:func:`repaired_quote`).

        Parameters
        ----------
        entry : dict
            One of :attr:`entries`.

        Returns
        -------
        str
        """
        return repaired_quote(entry.get("quote", ""),
                              [*self.quote_repairs, *(tuple(pair) for pair in entry.get("quote_repairs", []))])

    def markdown(self):
        """The registry as a Markdown list: each claim's id, and a paper claim's quote and place.

        Other origins show their statement. Math in a quote renders, as it would not in an HTML
        table. The list is folded beneath a line counting its rows (the verdicts quote each
        sentence again).

        Returns
        -------
        companion.prose.Markdown
        """
        from companion.prose import Markdown

        items = []
        for entry in self.entries:
            if entry["origin"] == "paper":
                items.append(f"* **{entry['id']}** ({entry['where']}): “{markdown_quote(self.shown_quote(entry))}”")
            else:
                items.append(f"* **{entry['id']}** *({entry['origin']})*: {entry['statement']}")
        papers = sum(entry["origin"] == "paper" for entry in self.entries)
        # the list is reference (each verdict below quotes its sentence again): folded beneath a count
        return Markdown(f"<details><summary>The registry's {len(items)} rows ({papers} quoting the paper, with where "
                        f"each sentence stands)</summary>\n\n" + "\n".join(items) + "\n\n</details>")



def _registry_error(path, where, message):
    return ValueError(f"{Path(path).name}: {where}: {message}")


@validate_params({"source": [str, os.PathLike]}, prefer_skip_nested_validation=True)
def load_registry(source) -> Registry:
    """Read and validate a paper's claims registry (TOML, read with :mod:`tomllib`).

    Parameters
    ----------
    source : str or path-like
        A notebook key (``"01"``, read from :data:`REGISTRY_DIR`) or the path of a TOML file.

    Returns
    -------
    Registry

    Raises
    ------
    ValueError
        A field is missing, unknown or of the wrong type; the message names the file, the claim
        and the field.
    """
    import tomllib

    if isinstance(source, str) and re.fullmatch(r"\d\d", source):
        path = REGISTRY_DIR / f"paper{source}.toml"
    else:
        path = Path(source)
    if not path.is_file():
        raise FileNotFoundError(f"load_registry: no registry at {path}")
    with path.open("rb") as handle:
        try:
            raw = tomllib.load(handle)
        except tomllib.TOMLDecodeError as error:
            raise _registry_error(path, "TOML", str(error)) from None
    paper = raw.get("paper")
    if not isinstance(paper, dict):
        raise _registry_error(path, "[paper]", "the table is missing")
    for field in ("key", "citation", "text"):
        if not isinstance(paper.get(field), str) or not paper[field]:
            raise _registry_error(path, "[paper]", f"field {field!r} must be a non-empty string")
    unknown_paper = set(paper) - {"key", "citation", "text", "quote_repairs"}
    if unknown_paper:
        raise _registry_error(path, "[paper]", f"unknown fields {sorted(unknown_paper)}")
    _check_repairs(path, "[paper]", paper.get("quote_repairs", []))
    unknown_tables = set(raw) - {"paper", "claim"}
    if unknown_tables:
        raise _registry_error(path, "top level", f"unknown tables {sorted(unknown_tables)}")
    entries = raw.get("claim")
    if not isinstance(entries, list) or not entries:
        raise _registry_error(path, "[[claim]]", "no claim")
    seen = set()
    checked = []
    for position, entry in enumerate(entries):
        label = f"claim {entry.get('id', '#' + str(position))!r}"
        unknown = set(entry) - _ENTRY_FIELDS
        if unknown:
            raise _registry_error(path, label, f"unknown fields {sorted(unknown)}; allowed {sorted(_ENTRY_FIELDS)}")
        for field in ("id", "origin", "statement", "kind"):
            if not isinstance(entry.get(field), str) or not entry[field]:
                raise _registry_error(path, label, f"field {field!r} must be a non-empty string")
        if entry["id"] in seen:
            raise _registry_error(path, label, "the id is repeated")
        seen.add(entry["id"])
        if entry["origin"] not in ORIGINS:
            raise _registry_error(path, label, f"origin must be one of {ORIGINS}, got {entry['origin']!r}")
        if entry["kind"] == "unit_test":
            raise _registry_error(path, label, "kind 'unit_test' gives a verdict that nothing in the notebook "
                                               "computed; check the statement in the notebook (kind 'exact' with a "
                                               "measure that runs the check)")
        if entry["kind"] not in _KINDS:
            raise _registry_error(path, label, f"kind must be one of {_KINDS}, got {entry['kind']!r}")
        if entry["origin"] == "paper":
            for field in ("quote", "where"):
                if not isinstance(entry.get(field), str) or not entry[field].strip():
                    raise _registry_error(path, label, f"a paper claim needs {field!r}")
        elif entry.get("central"):
            raise _registry_error(path, label, "only a paper claim can be central")
        if "quote_repairs" in entry:
            if not entry.get("quote"):
                raise _registry_error(path, label, "quote_repairs needs a quote to repair")
            _check_repairs(path, label, entry["quote_repairs"], entry["quote"])
        _check_standard(path, label, entry)
        if entry.get("quote_source", "paper") not in ("paper", "specs"):
            raise _registry_error(path, label, f"quote_source must be 'paper' or 'specs', got {entry['quote_source']!r}")
        for field in _REQUIRED[entry["kind"]]:
            if field not in entry or entry[field] in ("", None):
                raise _registry_error(path, label, f"a {entry['kind']} claim needs {field!r}")
        variants = entry.get("variants", [])
        if not isinstance(variants, list) or not all(isinstance(v, str) and v and "=" not in v for v in variants):
            raise _registry_error(path, label, f"variants must be a list of variant names (before '='), got {variants!r}")
        checked.append(dict(entry))
    repairs = tuple(tuple(pair) for pair in paper.get("quote_repairs", []))
    return Registry(paper["key"], paper["citation"], paper["text"], tuple(checked), path, repairs)


def _check_standard(path, label, entry):
    """The referee's fields: category (consistent with the origin), the formula's source of a
    mathematical statement, and when the criterion was fixed."""
    category = entry.get("category")
    if category not in CATEGORIES:
        raise _registry_error(path, label, f"category must be one of {tuple(CATEGORIES)}, got {category!r}")
    if CATEGORIES[category] != entry["origin"]:
        raise _registry_error(path, label, f"category {category!r} belongs to origin {CATEGORIES[category]!r}, "
                                           f"got origin {entry['origin']!r}")
    if category == "mathematical":
        if entry.get("formula") not in FORMULAS:
            raise _registry_error(path, label, f"a mathematical statement needs formula in {FORMULAS}, "
                                               f"got {entry.get('formula')!r}")
        if entry["kind"] not in ("exact", "guaranteed", "proportion"):
            raise _registry_error(path, label, "a mathematical statement is checked where it is shown: exactly "
                                               "(kind 'exact') or, for a probability statement such as a bound's "
                                               f"confidence, by a Monte-Carlo count (kind 'proportion'); got kind "
                                               f"{entry['kind']!r}")
    elif "formula" in entry:
        raise _registry_error(path, label, f"formula is for a mathematical statement, not a {category!r} row")
    if not isinstance(entry.get("by_construction", False), bool):
        raise _registry_error(path, label, f"by_construction must be true or false, got {entry['by_construction']!r}")
    if entry.get("by_construction") and category not in ("empirical", "mathematical", "conformance", "peer"):
        raise _registry_error(path, label, f"by_construction is for an empirical, mathematical, conformance or peer "
                                           f"row, not {category!r}")
    if entry.get("by_construction") and category == "empirical" and entry.get("kind") != "exact":
        # a tested difference cannot hold by construction: only an exact count whose design decides
        # most of its units (a grid's cap) can
        raise _registry_error(path, label, "by_construction on an empirical row is for an exact count whose design "
                                           f"decides most of its units, not a {entry.get('kind')!r} row")
    if not isinstance(entry.get("fixed"), str) or not _FIXED.fullmatch(entry["fixed"]):
        raise _registry_error(path, label, "fixed must be 'YYYY-MM-DD <commit>', when the criterion took its present "
                                           f"form, got {entry.get('fixed')!r}")
    if not isinstance(entry.get("results_known"), bool):
        raise _registry_error(path, label, "results_known must be true or false (had the notebook shown the numbers "
                                           f"this row decides on when its criterion was fixed?), got "
                                           f"{entry.get('results_known')!r}")
    for field in ("history", "honest_check", "sentence"):
        if not isinstance(entry.get(field, ""), str):
            raise _registry_error(path, label, f"{field} must be a string, got {entry[field]!r}")
    check_variants = entry.get("check_variants", [])
    if check_variants and (not entry.get("honest_check") or not isinstance(check_variants, list)
                           or not all(isinstance(v, str) and v and "=" not in v for v in check_variants)):
        raise _registry_error(path, label, "check_variants must be a list of variant names (before '=') of a row "
                                           f"with an honest_check, got {check_variants!r}")
    margins = entry.get("margins", [])
    if margins and (entry["kind"] not in ("difference", "ratio", "proportion") or not isinstance(margins, list)
                    or not all(isinstance(m, (int, float)) and not isinstance(m, bool) for m in margins)
                    or entry.get("margin") in margins):
        raise _registry_error(path, label, "margins must be a list of numbers other than the margin, for a "
                                           f"difference, ratio or proportion, got {margins!r}")
    if (entry["kind"] == "ratio" and any(m <= 0 for m in margins)) or (
            entry["kind"] == "proportion" and any(not 0 < m < 1 for m in margins)):
        raise _registry_error(path, label, f"margins of a {entry['kind']} must be "
                                           f"{'positive' if entry['kind'] == 'ratio' else 'in (0, 1)'}, got {margins!r}")


# Nested validation stays on: the registry's fields (a direction, a margin, a test) are checked
# by the claim builders it calls, as a caller's own arguments would be.
@validate_params({"registry": [Registry], "measures": [dict]}, prefer_skip_nested_validation=False)
def family(registry: Registry, measures: dict) -> list[Claim]:
    """The claims of ``registry`` as a family for :func:`evaluate`, each reading its measurement.

    Parameters
    ----------
    registry : Registry
        From :func:`load_registry`.
    measures : dict
        ``{measure key: callable(data) -> values}``: what each claim's ``measure`` names (values
        as :func:`difference`, :func:`ratio`, :func:`proportion` and :func:`exact` take them).

    Returns
    -------
    list of Claim

    Raises
    ------
    ValueError
        A measure the registry names is missing, or one given is named by no claim, or an
        entry's criterion is refused by its builder (:func:`difference`, ...); the message names
        the file and the claim.
    """
    named = {e["measure"] for e in registry.entries if "measure" in e}
    missing = sorted(named - set(measures))
    unused = sorted(set(measures) - named)
    if missing or unused:
        raise ValueError(f"family: {registry.path.name}: measures missing {missing}, given but never named {unused}")
    claims = []
    for entry in registry.entries:
        kind = entry["kind"]
        values = measures.get(entry.get("measure"))
        common = {k: entry[k] for k in ("digits",) if k in entry}
        # The builders check the entry's criterion (nested validation); a refusal names the file
        # and the claim, as a malformed registry does in load_registry.
        try:
            if kind == "difference":
                claim = difference(entry["id"], entry["statement"], values, direction=entry["direction"],
                                   margin=entry.get("margin", 0.0), quantity=entry.get("quantity", ""),
                                   unit=entry.get("unit", ""), test=entry.get("test", "wilcoxon"),
                                   zero_method=entry.get("zero_method", "pratt"), **common)
            elif kind == "ratio":
                claim = ratio(entry["id"], entry["statement"], values, direction=entry["direction"],
                              margin=entry["margin"], quantity=entry.get("quantity", ""),
                              test=entry.get("test", "wilcoxon"), zero_method=entry.get("zero_method", "pratt"),
                              offset=entry.get("offset", 0.0), **common)
            elif kind == "proportion":
                claim = proportion(entry["id"], entry["statement"], values, direction=entry["direction"],
                                   margin=entry["margin"], quantity=entry.get("quantity", "share"), **common)
            elif kind == "exact":
                claim = exact(entry["id"], entry["statement"], values)
            else:
                claim = guaranteed(entry["id"], entry["statement"], entry["reason"])
        except InvalidParameterError as error:
            raise _registry_error(registry.path, f"claim {entry['id']!r}", str(error)) from error
        claims.append(replace(
            claim, origin=entry["origin"], quote=registry.shown_quote(entry),
            where=entry.get("where", ""), quote_source=entry.get("quote_source", "paper"),
            margin_reason=entry.get("margin_reason", ""), tie_rule=entry.get("ties", ""),
            variants=tuple(entry.get("variants", ["seed"])),
            central=bool(entry.get("central", False)), stand_in=entry.get("stand_in", ""),
            discussion=entry.get("discussion", ""), notebook=registry.key,
            reason=entry.get("reason", claim.reason), unit_test=entry.get("unit_test", ""),
            category=entry["category"], formula=entry.get("formula", ""),
            by_construction=bool(entry.get("by_construction", False)), fixed=entry["fixed"],
            results_known=entry["results_known"], history=entry.get("history", ""),
            honest_check=entry.get("honest_check", ""), margins=tuple(float(m) for m in entry.get("margins", [])),
            sentence=entry.get("sentence", ""), check_variants=tuple(entry.get("check_variants", [])),
        ))
    return claims
