"""A claim: its statement, the quantity that decides it and its criterion."""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

from sklearn.utils._param_validation import StrOptions, validate_params

from companion.claims._statistics import ZERO_METHODS
from companion.numerics import StrictInterval
from companion.prose import signed


DIRECTIONS = ("<=", "<", ">=", ">", "within")


_TESTS = {"difference": ("wilcoxon", "t", "sign", "corrected_t"), "ratio": ("wilcoxon", "t", "sign", "corrected_t"), "proportion": ("binomial",)}


_SYMBOLS = {"<=": "≤", "<": "<", ">=": "≥", ">": ">", "within": "within ±"}


@dataclass(frozen=True)
class Claim:
    """One claim: its statement, the quantity deciding it and its criterion.

    Build claims with :func:`difference`, :func:`ratio`, :func:`proportion`, :func:`guaranteed`
    and :func:`exact`; evaluate a family with :func:`evaluate`.

    Parameters
    ----------
    id : str
        Short key, unique in the family (``"1"``, ``"3-J48"``).
    statement : str
        The claim in words, as the paper makes it.
    kind : str
        ``difference``, ``ratio``, ``proportion``, ``guaranteed`` or ``exact``.
    values : callable or data
        ``values(data)`` returns the decisive measurements of one protocol variant (or ``None``
        when the claim does not apply to it); a non-callable is the same for every variant.
    direction, margin : str, float
        The criterion: the location is ``<=``, ``<``, ``>=``, ``>`` the margin, or ``within`` ±margin.
    quantity, unit, digits : str, str, int
        How the quantity is named and printed.
    test, zero_method : str
        The test (``wilcoxon``, ``t``, ``sign``; ``binomial`` for proportions) and Wilcoxon's zeros.
    reason : str
        Why a ``guaranteed`` claim holds by construction.
    offset : float
        Added to both terms of a ``ratio`` claim before the ratio is taken.
    origin : {"paper", "check", "sanity", "observation"}
        Whose statement it is: a claim the paper makes (the only origin that gets a verdict word
        and enters the README glance), a check of our code against a reference, a sanity check of
        a baseline, or an observation of ours (reported, never judged).
    quote, where : str
        For a ``paper`` claim: the paper's sentence verbatim, and where it stands (section, table,
        page or slide).
    quote_source : str
        ``"paper"`` (the quote is in the paper's extracted text) or ``"specs"`` (the extraction
        lost the passage; a note quoting the paper holds it).
    margin_reason, tie_rule : str
        Why the margin is what it is; how ties are counted.
    variants : tuple of str or None
        The protocol choices that could flip the verdict (variant names before ``=``; ``"seed"``
        for the fold-seed variants). ``None``: every variant.
    unit_test : str
        The pytest node id of a unit test that also checks the statement (beside the check the
        notebook runs, which alone gives the verdict).
    central : bool
        A central claim of its paper: it leads the README glance.
    stand_in : str
        A peer that stands in for the one the paper used, named in the verdict sentence.
    discussion : str
        A :func:`companion.prose.render` template of the claim's discussion (fields: the claims
        table's columns).
    notebook : str
        The notebook (paper) key, ``"01"``: anchors ``claim-01-<id>`` in the notebook and the docs.
    category : str
        What the row is, by the referee's standard (:data:`companion.claims._registry.CATEGORIES`):
        ``empirical`` or ``mathematical`` (the paper's own assertions), ``conformance`` or ``peer``
        (checks), ``sanity``, ``aim`` or ``observation``.
    formula : {"", "paper", "reconstructed"}
        A mathematical statement's formula: the paper's text, or our reconstruction of a formula
        the extraction lost (the sentence then says the reconstruction was checked).
    by_construction : bool
        The check holds by construction of our reconstruction or implementation: reported, and
        counted apart from the checks that could have failed.
    fixed : str
        ``"YYYY-MM-DD <commit>"``: when the criterion took its present form (from ``git log``).
    results_known : bool
        Whether the notebook had shown the numbers the row decides on when its criterion was fixed.
    history : str
        An earlier design or criterion, its verdict, and why it changed.
    honest_check : str
        The protocol variant that is the honest check beside the paper's protocol (the main
        variant), e.g. ``"protocol=nested"``; its verdict is shown beside the main one.
    margins : tuple of float
        Other defensible margins where the paper names none: the claim is re-decided at each on
        the main data (variants ``margin=m``), and a verdict that flips under one is not robust.
    check_variants : tuple of str
        Variant names (before ``=``) that vary the honest check itself (nested CV with another number
        of inner folds, say) where their names do not start with the check's protocol: their verdicts
        are compared with the honest check's.
    sentence : str
        The sentence of the paper the row judges, as a key shared by its rows (readings, parts,
        peers); empty: the row's quote is its sentence. Summaries count sentences once.
    """

    id: str
    statement: str
    kind: str
    values: Any = None
    direction: str = "<="
    margin: float = 0.0
    quantity: str = ""
    unit: str = ""
    digits: int = 2
    test: str = "none"
    zero_method: str = "pratt"
    reason: str = ""
    offset: float = 0.0
    origin: str = "paper"
    quote: str = ""
    where: str = ""
    quote_source: str = "paper"
    margin_reason: str = ""
    tie_rule: str = ""
    variants: tuple | None = None
    unit_test: str = ""
    central: bool = False
    stand_in: str = ""
    discussion: str = ""
    notebook: str = ""
    category: str = ""
    formula: str = ""
    by_construction: bool = False
    fixed: str = ""
    results_known: bool = True
    history: str = ""
    honest_check: str = ""
    margins: tuple = ()
    check_variants: tuple = ()
    sentence: str = ""

    def criterion(self) -> str:
        """The criterion in words, e.g. ``error(A) − error(B) ≤ +2 points``.

        Returns
        -------
        str
            The criterion, as :func:`companion.claims._report.sentence` prints it.
        """
        if self.kind == "guaranteed":
            return "by construction"
        if self.kind == "exact":
            return "exact check"
        symbol = _SYMBOLS[self.direction]
        if self.kind == "ratio":
            margin = f"×{_plain(self.margin, self.digits)}"
        elif self.kind == "proportion":
            margin = _plain(self.margin, self.digits)
        elif self.direction == "within":
            margin = _plain(self.margin, self.digits)
        else:
            margin = signed(self.margin, self.digits)
        unit = f" {self.unit}" if self.unit else ""
        joiner = "" if self.direction == "within" else " "
        return f"{self.quantity} {symbol}{joiner}{margin}{unit}".strip()


def _plain(value, digits) -> str:
    return f"{value:.{digits}f}"


def _check_common(where, id, statement):
    """What the constraints cannot say of a claim's key and wording: neither is empty."""
    if not id:
        raise ValueError(f"{where}: id must be a non-empty string, got {id!r}")
    if not statement:
        raise ValueError(f"{where}: statement must be a non-empty string, got {statement!r}")


#: The parameters every claim builder shares (scikit-learn's ``validate_params``): its key and
#: wording (non-empty, checked by :func:`_check_common`).
_COMMON = {"id": [str], "statement": [str]}


#: The criterion's parameters of :func:`difference` and :func:`ratio` (scikit-learn's
#: ``validate_params``; a ratio's margin is positive, see ``_RATIO``).
_CRITERION = {
    **_COMMON,
    # the measurements, or the function of the data that returns them (None: not applicable)
    "values": [callable, "array-like", None],
    "quantity": [str],
    "unit": [str],
    "direction": [StrOptions(set(DIRECTIONS))],
    "margin": [StrictInterval(Real, None, None, closed="neither")],  # finite
    "test": [StrOptions(set(_TESTS["difference"]))],
    "zero_method": [StrOptions(set(ZERO_METHODS))],
    "digits": [StrictInterval(Integral, 0, 6, closed="both")],
}


_RATIO = {
    **{key: value for key, value in _CRITERION.items() if key != "unit"},
    "values": [callable, tuple, None],  # (a, b): the numerators and denominators
    "margin": [StrictInterval(Real, 0, None, closed="neither")],
    "offset": [StrictInterval(Real, 0, None, closed="left")],
}


_PROPORTION = {
    **_COMMON,
    "values": [callable, tuple, None],  # (k, n)
    "quantity": [str],
    "direction": [StrOptions(set(DIRECTIONS) - {"within"})],
    "margin": [StrictInterval(Real, 0, 1, closed="neither")],
    "digits": [StrictInterval(Integral, 0, 6, closed="both")],
}


def _check_criterion(where, kind, direction, margin):
    """What the constraints cannot say: ``within`` needs a margin that makes an interval."""
    if direction == "within" and (margin <= 0 if kind != "ratio" else margin <= 1):
        raise ValueError(f"{where}: direction='within' needs margin > {1 if kind == 'ratio' else 0}, got {margin!r}")


@validate_params(_CRITERION, prefer_skip_nested_validation=True)
def difference(id, statement, values, *, direction, margin=0.0, quantity="", unit="", test="wilcoxon",
               zero_method="pratt", digits=2) -> Claim:
    """A claim on the location of paired differences (over data sets, draws or folds).

    Parameters
    ----------
    id, statement : str
        Key and wording of the claim.
    values : callable, array-like or None
        ``values(data) -> array`` of differences (e.g. per-data-set error of A minus that of B,
        in points), or the array itself. Fractions are tested exactly. ``None`` (or a function
        returning it): not applicable, the claim is not evaluated. A function may return
        ``(tested, raw)``: the test reads ``tested`` (e.g. values spread for a variance
        correction), the head-to-head tally and the identity check read the raw differences.
    direction : {"<=", "<", ">=", ">", "within"}
        What the claim says of the location against ``margin`` (``within``: ``|θ| ≤ margin``).
    margin : float, default=0.0
        The margin of the criterion.
    quantity, unit : str
        Names for the criterion and the sentence (``"error(A) − error(B)"``, ``"points"``).
    test : {"wilcoxon", "t", "sign", "corrected_t"}, default="wilcoxon"
        Signed-rank test with the Hodges–Lehmann estimate and interval; paired t with the mean;
        sign test with the median; ``corrected_t``: Nadeau and Bengio's (2003) corrected resampled
        t for cross-validation folds, whose ``values(data)`` returns ``(differences, groups,
        ratios)``: one group label per difference (the folds of one cross-validation) and each
        fold's ``n_test / n_train`` (:func:`companion.claims._statistics.corrected_t`).
    zero_method : {"pratt", "zsplit", "wilcox"}, default="pratt"
        Wilcoxon's treatment of differences equal to the margin (:func:`wilcoxon_test`).
    digits : int, default=2
        Decimals printed in the sentence.

    Returns
    -------
    Claim
    """
    _check_common("difference", id, statement)
    _check_criterion("difference", "difference", direction, margin)
    return Claim(id, statement, "difference", values, direction, float(margin), quantity, unit, digits, test,
                 zero_method)


@validate_params(_RATIO, prefer_skip_nested_validation=True)
def ratio(id, statement, values, *, direction, margin, quantity="", test="wilcoxon", zero_method="pratt",
          digits=2, offset=0.0) -> Claim:
    """A claim on paired ratios ``a / b`` ("at least 2x fewer literals"), tested on ``log(a / b)``.

    ``values(data)`` returns ``(a, b)``, two arrays of positive numbers (``offset`` is added to
    both first, e.g. 1 for sizes that may be 0). ``margin`` is a ratio (2 for "twice"); the
    estimate and the interval are ratios (the exponential of the log-scale ones).

    Parameters
    ----------
    id, statement : str
        Key and wording of the claim.
    values : callable, tuple of array-like or None
        ``values(data) -> (a, b)``, or the pair itself (``None``: not applicable); with
        ``test="corrected_t"``, ``(a, b, groups, ratios)`` (as in :func:`difference`).
    direction : {"<=", "<", ">=", ">", "within"}
        What the claim says of the ratio's location against ``margin``.
    margin : float
        A ratio.
    quantity : str, default=""
        Name of the ratio in the criterion and the sentence.
    test : {"wilcoxon", "t", "sign", "corrected_t"}, default="wilcoxon"
        The test on ``log(a / b)`` (as in :func:`difference`).
    zero_method : {"pratt", "zsplit", "wilcox"}, default="pratt"
        Wilcoxon's treatment of ratios equal to the margin.
    digits : int, default=2
        Decimals printed in the sentence.
    offset : float, default=0.0
        Added to ``a`` and ``b`` before the ratio.

    Returns
    -------
    Claim
    """
    _check_common("ratio", id, statement)
    _check_criterion("ratio", "ratio", direction, margin)
    return Claim(id, statement, "ratio", values, direction, float(margin), quantity, "", digits, test, zero_method,
                 offset=float(offset))


@validate_params(_PROPORTION, prefer_skip_nested_validation=True)
def proportion(id, statement, values, *, direction=">", margin=0.5, quantity="share", digits=2) -> Claim:
    """A claim on a success probability from a count ("best on a majority of data sets": ``> 0.5``).

    ``values(data)`` returns ``(k, n)``; the exact binomial test and the Clopper–Pearson interval
    decide it.

    Parameters
    ----------
    id, statement : str
        Key and wording of the claim.
    values : callable, tuple of int or None
        ``values(data) -> (k, n)``, or the pair itself (``None``: not applicable).
    direction : {">", ">=", "<", "<="}, default=">"
        What the claim says of the probability against ``margin``.
    margin : float, default=0.5
        The probability it is compared with.
    quantity : str, default="share"
        Name of the probability in the criterion and the sentence.
    digits : int, default=2
        Decimals printed in the sentence.

    Returns
    -------
    Claim
    """
    _check_common("proportion", id, statement)
    return Claim(id, statement, "proportion", values, direction, float(margin), quantity, "", digits, "binomial")


@validate_params({**_COMMON, "reason": [str]}, prefer_skip_nested_validation=True)
def guaranteed(id, statement, reason) -> Claim:
    """A statement the setup makes true whatever the data: shown with ``reason``, never tested.

    Parameters
    ----------
    id, statement : str
        Key and wording of the claim.
    reason : str
        Why the setup makes it true (a theorem, an equation, a construction).

    Returns
    -------
    Claim
    """
    _check_common("guaranteed", id, statement)
    if not reason:
        raise ValueError(f"guaranteed: reason must be a non-empty string, got {reason!r}")
    return Claim(id, statement, "guaranteed", None, reason=reason)


@validate_params({**_COMMON, "check": [callable, "boolean", tuple, None]}, prefer_skip_nested_validation=True)
def exact(id, statement, check) -> Claim:
    """A descriptive statement checked exactly: ``check(data)`` returns a bool or ``(bool, detail)``.

    The verdict is ``holds`` or ``fails``, with no p, outside the Holm family (a non-callable
    ``check`` is the same for every variant).

    Parameters
    ----------
    id, statement : str
        Key and wording of the claim.
    check : callable, bool, tuple or None
        ``check(data) -> bool`` or ``(bool, detail)`` (``None``: not applicable), or its value.

    Returns
    -------
    Claim
    """
    _check_common("exact", id, statement)
    return Claim(id, statement, "exact", check)
