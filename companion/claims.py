"""The claims engine: from measurements to computed verdicts, with their sensitivity.

A notebook states each claim of its paper once, as a :class:`Claim`: the statement, the quantity
that decides it and a criterion fixed before the results are seen (a direction and a margin, e.g.
"error(WIDC(p)) − error(J48) ≤ +2 points"). :func:`evaluate` measures every claim on the main
protocol and on each alternative protocol choice, and returns a :class:`ClaimsReport`: a tidy
table (estimate, interval, raw and Holm-corrected p, verdict, sensitivity), a long sensitivity
table, and Markdown verdict sentences generated from the table.

Kinds of claim
--------------
``difference``
    Paired differences ``d`` (over data sets, draws or folds) against a margin ``m``. Default test:
    the Wilcoxon signed-rank test on ``d − m`` (exact conditional distribution, Pratt's zeros),
    with the Hodges–Lehmann estimate (median of the Walsh averages) and its distribution-free
    interval (Hollander, Wolfe & Chicken, *Nonparametric Statistical Methods*, 3rd ed., §3.2-3.3).
    Options ``test="t"`` (paired Student t: mean and t interval) and ``test="sign"`` (sign test:
    median and its order-statistic interval).
``ratio``
    Paired positive quantities ``(a, b)`` and a claim on ``a / b`` ("at least 2x fewer literals"),
    tested as a ``difference`` on ``log(a / b)`` against ``log(m)``; estimate and interval are
    transformed back (×).
``proportion``
    A count ``k`` of ``n`` (data sets where a learner is best, ...) and a claim on the success
    probability ("a majority": ``> 0.5``): exact binomial test, Clopper–Pearson interval.
``guaranteed``
    A statement the setup makes true whatever the data (a learner capped at 5 genes "uses fewer
    genes" than one fixed at 16). It is shown with its reason, never tested, and is not in the
    Holm family: it is no claim.
``exact``
    A descriptive statement checked exactly (the rule list equals the paper's; a bound lies below
    every risk on every draw): ``holds`` or ``fails``, no p, not in the Holm family.

Verdicts
--------
Let ``θ`` be the location of the decisive quantity (pseudo-median, mean, median or success
probability). A claim ``θ ≤ m`` (or ``<``; the tests do not distinguish them) is *false* when
``θ > m``. Two one-sided tests are run: ``p_hold`` tests "claim false" (rejecting it supports the
claim) and ``p_fail`` tests "claim true". Each is Holm-corrected across the notebook's family (the
tested claims of one protocol variant, :func:`holm`) and

* ``holds`` when the corrected ``p_hold ≤ α`` **and** the interval lies strictly on the claim's
  side of the margin;
* ``fails`` when the corrected ``p_fail ≤ α`` and the interval lies strictly on the other side;
* ``undecided`` otherwise: an interval that contains the margin is undecided, never "similar",
  and absence of evidence is never ``holds``.

``α = 0.025`` one-sided (:data:`ALPHA`) goes with the two-sided 95 % intervals (level ``1 − 2α``),
the convention of non-inferiority analyses (ICH E9, §3.3.2): an uncorrected test rejecting at
0.025 is an interval excluding the margin. ``within`` claims (``|θ| ≤ m``, equivalence) use the
two one-sided tests (TOST): ``p_hold`` is the larger of the two, ``p_fail`` twice the smaller
of the opposite pair.

Determinism
-----------
Ranks, zeros and ties are found exactly for integers and :class:`fractions.Fraction` inputs; for
floats, magnitudes within ``TIE_RTOL`` (relative to the largest) are tied and values within it of
the margin are zeros (:data:`companion.numerics.TIE_RTOL`). The Wilcoxon p is exact: its null
distribution is counted over doubled (integer) ranks; for up to 53 non-zero differences every
probability is an exact dyadic rational in float64, and tails are summed with :func:`math.fsum`
(correctly rounded, order-free), so the p is the same on every CPU. Binomial tails are exact
rational sums. A corrected p is compared with α by ``p ≤ α (1 + TIE_RTOL)``: a p mathematically
equal to α rejects, whatever its last bit.

Sensitivity
-----------
:func:`evaluate` takes ``{"main": data, "encoding=one-hot": other_data, ...}``; every claim is a
function of the data, so it is evaluated on each variant, with Holm within that variant's family.
The table says whether each verdict is ``robust`` (the same in every variant) and which variants
flip it.

Examples
--------
>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> d = rng.normal(0.5, 1.0, size=30)
>>> family = [
...     difference("c1", "A is at most 2 points worse than B", d, direction="<=", margin=2.0,
...                quantity="error(A) − error(B)", unit="points"),
...     guaranteed("c2", "A uses at most 5 genes", "A is capped at 5 genes"),
... ]
>>> report = evaluate(family, {"main": None})
>>> report.table.loc[0, "verdict"]
'holds'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from fractions import Fraction
from numbers import Integral, Rational, Real
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.utils._param_validation import StrOptions, validate_params, validate_parameter_constraints

from companion.numerics import TIE_RTOL, StrictInterval
from companion.prose import Markdown, render, signed

__all__ = [
    "ALPHA",
    "Claim",
    "ClaimsReport",
    "difference",
    "ratio",
    "proportion",
    "guaranteed",
    "exact",
    "evaluate",
    "holm",
    "rejects",
    "wilcoxon_test",
    "hodges_lehmann",
    "clopper_pearson",
    "binomial_tail",
    "sentence",
    "verdict_markdown",
    "render_readme_section",
    "update_readme",
    "stale_readme_sections",
    "render_glance",
    "publish",
    "anchor",
    "unit_test",
    "Registry",
    "load_registry",
    "family",
    "ORIGINS",
    "VERDICT_WORDS",
]

#: One-sided level of every test; the intervals are two-sided at ``1 − 2·ALPHA`` (95 %).
ALPHA = 0.025
#: Largest number of non-zero differences whose Wilcoxon p is counted exactly (normal beyond).
_EXACT_MAX = 400
#: Verdict states: tested claims get the first three, ``exact`` claims the first two.
_VERDICTS = ("holds", "fails", "undecided", "not decidable", "identical", "guaranteed", "n/a")

_DIRECTIONS = ("<=", "<", ">=", ">", "within")
_TESTS = {"difference": ("wilcoxon", "t", "sign"), "ratio": ("wilcoxon", "t", "sign"), "proportion": ("binomial",)}
_ZERO_METHODS = ("pratt", "zsplit", "wilcox")
_SYMBOLS = {"<=": "≤", "<": "<", ">=": "≥", ">": ">", "within": "within ±"}

TABLE_COLUMNS = [
    "notebook", "id", "origin", "central", "statement", "quote", "where", "quote_source", "kind", "test",
    "quantity", "criterion", "direction", "margin", "margin_reason", "tie_rule", "unit", "digits", "n",
    "estimate", "ci_low", "ci_high", "wins", "ties", "losses", "p_raw", "p_holm", "p_fail_raw", "p_fail_holm",
    "min_p", "verdict", "detail", "robust", "flips", "seeds", "sensitivity", "stand_in", "unit_test",
    "discussion", "alpha",
]


# --------------------------------------------------------------------------------------------
# Statistics
# --------------------------------------------------------------------------------------------


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjusted p-values (Holm 1979), in the input order.

    ``p_adj[(i)] = max_{j ≤ i} min(1, (m − j + 1) p[(j)])`` over the ascending order; NaN entries
    (claims not tested) are left NaN and do not count in ``m``.

    Parameters
    ----------
    p_values : array-like of float
        Raw p-values, NaN for claims not tested.

    Returns
    -------
    numpy.ndarray
        Adjusted p-values, in the input order.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03]).round(3).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=float)
    if p.ndim != 1:
        raise ValueError(f"holm: p_values must be 1-D, got shape {p.shape}")
    finite = ~np.isnan(p)
    if np.any((p[finite] < 0) | (p[finite] > 1)):
        raise ValueError(f"holm: p_values must lie in [0, 1], got {p[finite].tolist()}")
    out = np.full(p.shape, np.nan)
    index = np.flatnonzero(finite)
    m = len(index)
    if m == 0:
        return out
    order = index[np.argsort(p[index], kind="stable")]
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out


def rejects(p: float, alpha: float = ALPHA) -> bool:
    """``p ≤ α``, with a p within relative ``TIE_RTOL`` of α counted as equal (and rejecting).

    Parameters
    ----------
    p : float
        A p-value.
    alpha : float, default=0.025
        The one-sided level.

    Returns
    -------
    bool

    Examples
    --------
    >>> rejects(0.025), rejects(0.025 * (1 + 1e-14)), rejects(0.0251)
    (True, True, False)
    """
    return bool(np.isfinite(p) and p <= alpha * (1.0 + TIE_RTOL))


def _as_values(values, name: str):
    """1-D array of the values: an object array of Fractions when every entry is rational, else float."""
    if isinstance(values, (pd.Series, pd.Index)):
        values = values.to_numpy()
    array = np.asarray(values, dtype=object if _all_rational(values) else None)
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {array.shape}")
    if array.dtype == object:
        return np.array([Fraction(v) for v in array], dtype=object)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be numbers, got dtype {array.dtype}")
    array = array.astype(float)
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite, got {array[~np.isfinite(array)].tolist()[:5]}")
    return array


def _all_rational(values) -> bool:
    try:
        items = list(values)
    except TypeError:
        return False
    return len(items) > 0 and all(
        isinstance(v, (Rational, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in items
    ) and any(isinstance(v, Fraction) for v in items)


def _signed_ranks(x):
    """Signs and doubled midranks (integers) of ``x``, Pratt's zeros included in the ranking.

    Exact for Fractions; for floats, magnitudes within ``TIE_RTOL · max|x|`` are tied and such
    values of ``x`` are zeros.
    """
    if x.dtype == object:
        magnitude = np.array([abs(v) for v in x], dtype=object)
        tol = Fraction(0)
        signs = np.array([(v > 0) - (v < 0) for v in x], dtype=int)
    else:
        magnitude = np.abs(x)
        tol = TIE_RTOL * (float(magnitude.max()) if len(x) else 0.0)
        signs = np.where(magnitude <= tol, 0, np.sign(x)).astype(int)
    order = sorted(range(len(x)), key=lambda i: magnitude[i])
    doubled = np.zeros(len(x), dtype=np.int64)
    start = 0
    while start < len(order):
        stop = start + 1
        while stop < len(order) and magnitude[order[stop]] - magnitude[order[stop - 1]] <= tol:
            stop += 1
        # midrank of positions start+1 .. stop, doubled: start + 1 + stop
        for k in range(start, stop):
            doubled[order[k]] = start + 1 + stop
        start = stop
    return signs, doubled


def _sum_distribution(weights) -> np.ndarray:
    """Null pmf of ``Σ_i s_i w_i`` with independent fair ``s_i ∈ {0, 1}`` over integer weights.

    Each step ``p ← (p + shift(p, w)) / 2`` is exact in float64 while counts stay below 2**53
    (at most 53 weights), and elementwise (so the same on every CPU) beyond.
    """
    total = int(np.sum(weights))
    pmf = np.zeros(total + 1)
    pmf[0] = 1.0
    reach = 0
    for w in weights:
        w = int(w)
        shifted = np.zeros(reach + w + 1)
        shifted[w:] = pmf[: reach + 1]
        shifted[: reach + 1] += pmf[: reach + 1]
        reach += w
        pmf[: reach + 1] = shifted * 0.5
    return pmf


def wilcoxon_test(x, *, alternative: str, zero_method: str = "pratt") -> tuple[float, float]:
    """One-sided Wilcoxon signed-rank p-value of ``x`` (already shifted by the margin).

    Parameters
    ----------
    x : array-like
        Differences minus the margin; Fractions are ranked exactly.
    alternative : {"less", "greater"}
        "less": evidence that the location is below 0 (small sum of positive ranks).
    zero_method : {"pratt", "zsplit", "wilcox"}, default="pratt"
        ``pratt``: zeros are ranked with the others, then carry no sign (Pratt 1959).
        ``zsplit``: each zero counts half positive, half negative; conditionally on the
        magnitudes its contribution is a constant, so the exact test equals Pratt's.
        ``wilcox``: zeros are dropped before ranking.

    Returns
    -------
    p : float
        The exact conditional p-value (permutation distribution of the signs given the tied
        ranks) for at most :data:`_EXACT_MAX` non-zero values, else the normal approximation with
        the conditional variance ``Σ r_i² / 4`` and a continuity correction of half a rank.
    statistic : float
        The sum of the (mid)ranks of the positive values.
    """
    if alternative not in ("less", "greater"):
        raise ValueError(f"wilcoxon_test: alternative must be 'less' or 'greater', got {alternative!r}")
    if zero_method not in _ZERO_METHODS:
        raise ValueError(f"wilcoxon_test: zero_method must be one of {_ZERO_METHODS}, got {zero_method!r}")
    x = _as_values(x, "wilcoxon_test: x")
    signs, doubled = _signed_ranks(x)
    if zero_method == "wilcox":
        keep = signs != 0
        signs, doubled = _signed_ranks(x[keep])
    nonzero = signs != 0
    weights = doubled[nonzero]
    t_obs = int(doubled[signs > 0].sum())  # doubled rank sum of the positives
    if len(weights) == 0:
        return 1.0, 0.0
    if len(weights) <= _EXACT_MAX:
        pmf = _sum_distribution(weights)
        tail = pmf[: t_obs + 1] if alternative == "less" else pmf[t_obs:]
        p = min(1.0, math.fsum(tail.tolist()))
    else:
        mean = weights.sum() / 2.0
        sd = math.sqrt(float(np.sum(weights.astype(float) ** 2)) / 4.0)
        z = (t_obs - mean + 1.0) / sd if alternative == "less" else (t_obs - mean - 1.0) / sd
        p = 0.5 * math.erfc(z / math.sqrt(2.0)) if alternative == "greater" else 0.5 * math.erfc(-z / math.sqrt(2.0))
    return float(p), t_obs / 2.0


def _walsh_averages(x) -> np.ndarray:
    """The ``n(n+1)/2`` averages ``(x_i + x_j) / 2``, ``i ≤ j``, sorted (Fractions stay exact)."""
    n = len(x)
    i, j = np.triu_indices(n)
    if x.dtype == object:
        return np.array(sorted((x[a] + x[b]) / 2 for a, b in zip(i, j)), dtype=object)
    return np.sort((x[i] + x[j]) / 2.0)


def _wilcoxon_critical(n: int, confidence: float) -> int:
    """``c`` such that ``c − 1`` is the largest ``t`` with ``P(T⁺ ≤ t) ≤ (1 − confidence)/2`` (0 if none).

    ``T⁺`` is the signed-rank statistic with ranks 1..n (no ties), exact up to :data:`_EXACT_MAX`.
    """
    tail = (1.0 - confidence) / 2.0
    if n <= _EXACT_MAX:
        cdf = np.cumsum(_sum_distribution(np.arange(1, n + 1)))
        return int(np.searchsorted(cdf, tail * (1.0 + TIE_RTOL), side="right"))
    mean, sd = n * (n + 1) / 4.0, math.sqrt(n * (n + 1) * (2 * n + 1) / 24.0)
    return max(0, int(math.floor(mean - stats.norm.ppf(1 - tail) * sd + 0.5)))


def hodges_lehmann(x, confidence: float = 1 - 2 * ALPHA) -> tuple[float, float, float]:
    """Hodges–Lehmann estimate of the pseudo-median of ``x`` and its distribution-free interval.

    The estimate is the median of the Walsh averages; the interval is
    ``[A_(c), A_(M+1−c)]`` (1-based) over the ``M = n(n+1)/2`` sorted Walsh averages ``A``, with ``c`` the
    exact lower ``(1 − confidence)/2`` critical value of the signed-rank statistic (the inversion of
    the Wilcoxon test; Hollander, Wolfe & Chicken 2014, §3.3), where ``c − 1`` is the largest ``t``
    with ``P(T⁺ ≤ t) ≤ (1 − confidence)/2`` for ranks 1..n. Infinite ends when ``n`` is too
    small for the level (``n ≤ 5`` at 95 %).

    Parameters
    ----------
    x : array-like of float
        Paired differences.
    confidence : float, default=0.95
        Two-sided level of the interval.

    Returns
    -------
    estimate, low, high : float
        The estimate and the interval's ends.

    Examples
    --------
    >>> est, low, high = hodges_lehmann([1.0, 2.0, 3.0, 4.0, 10.0, 6.0, 7.0])
    >>> float(est), float(low), float(high)
    (4.5, 2.0, 8.0)
    """
    x = _as_values(x, "hodges_lehmann: x")
    if not 0 < confidence < 1:
        raise ValueError(f"hodges_lehmann: confidence must lie in (0, 1), got {confidence!r}")
    n = len(x)
    if n == 0:
        raise ValueError("hodges_lehmann: x is empty")
    walsh = _walsh_averages(x)
    m = len(walsh)
    middle = (walsh[(m - 1) // 2] + walsh[m // 2]) / 2
    c = _wilcoxon_critical(n, confidence)
    low, high = (walsh[c - 1], walsh[m - c]) if c >= 1 else (-math.inf, math.inf)
    return float(middle), float(low), float(high)


def binomial_tail(k: int, n: int, p0: float, *, upper: bool) -> float:
    """``P(K ≥ k)`` (``upper``) or ``P(K ≤ k)`` for ``K ~ Binomial(n, p0)``, as an exact rational sum.

    ``p0`` is taken as the exact rational value of its float (0.5 is exactly 1/2).

    Parameters
    ----------
    k : int
        The observed count.
    n : int
        Trials.
    p0 : float
        Success probability under the null.
    upper : bool
        ``True`` for ``P(K ≥ k)``, ``False`` for ``P(K ≤ k)``.

    Returns
    -------
    float

    Examples
    --------
    >>> binomial_tail(7, 10, 0.5, upper=True)
    0.171875
    """
    q = Fraction(p0)
    values = range(k, n + 1) if upper else range(0, k + 1)
    return float(sum((math.comb(n, i) * q**i * (1 - q) ** (n - i) for i in values), Fraction(0)))


#: ``k`` successes in ``n`` trials (scikit-learn's constraints; ``k <= n`` is checked apart).
_COUNTS = {"k": [StrictInterval(Integral, 0, None, closed="left")], "n": [StrictInterval(Integral, 1, None, closed="left")]}


@validate_params(_COUNTS, prefer_skip_nested_validation=True)
def clopper_pearson(k: int, n: int, confidence: float = 1 - 2 * ALPHA) -> tuple[float, float]:
    """Clopper–Pearson (exact) interval for a binomial probability from ``k`` successes in ``n``.

    Parameters
    ----------
    k : int
        Successes.
    n : int
        Trials.
    confidence : float, default=0.95
        Two-sided level.

    Returns
    -------
    low, high : float

    Examples
    --------
    >>> [round(v, 4) for v in clopper_pearson(7, 10)]
    [0.3475, 0.9333]
    """
    _check_count(k, n, "clopper_pearson")
    tail = (1 - confidence) / 2
    low = 0.0 if k == 0 else float(stats.beta.ppf(tail, k, n - k + 1))
    high = 1.0 if k == n else float(stats.beta.ppf(1 - tail, k + 1, n - k))
    return low, high


def _check_count(k, n, where):
    validate_parameter_constraints(_COUNTS, {"k": k, "n": n}, caller_name=where)
    if n < 1 or not 0 <= k <= n:
        raise ValueError(f"{where}: need 0 <= k <= n and n >= 1, got k={k!r}, n={n!r}")


# --------------------------------------------------------------------------------------------
# One-sided tests of a location against a margin
# --------------------------------------------------------------------------------------------


def _location_test(d, margin, test, zero_method, confidence):
    """Estimate, interval, and one-sided p-values (less, greater) of ``location(d)`` against ``margin``."""
    n = len(d)
    if test == "wilcoxon":
        shifted = d - (Fraction(margin) if d.dtype == object else margin)
        p_less, _ = wilcoxon_test(shifted, alternative="less", zero_method=zero_method)
        p_greater, _ = wilcoxon_test(shifted, alternative="greater", zero_method=zero_method)
        estimate, low, high = hodges_lehmann(d, confidence)
    elif test == "t":
        values = np.array([float(v) for v in d])
        if n < 2:
            raise ValueError(f"test='t' needs at least 2 values, got {n}")
        estimate = float(np.mean(values))
        se = float(np.std(values, ddof=1)) / math.sqrt(n)
        q = float(stats.t.ppf(1 - (1 - confidence) / 2, n - 1))
        low, high = estimate - q * se, estimate + q * se
        if se <= TIE_RTOL * max(1.0, abs(estimate)):  # constant differences: the test is exact
            side = (estimate > margin) - (estimate < margin)
            p_less, p_greater = (0.0, 1.0) if side < 0 else (1.0, 0.0) if side > 0 else (1.0, 1.0)
        else:
            t = (estimate - margin) / se
            p_less, p_greater = float(stats.t.cdf(t, n - 1)), float(stats.t.sf(t, n - 1))
    else:  # sign test on d − margin, zeros dropped; median with its order-statistic interval
        shifted = d - (Fraction(margin) if d.dtype == object else margin)
        if shifted.dtype == object:
            below, above = sum(v < 0 for v in shifted), sum(v > 0 for v in shifted)
        else:
            tol = TIE_RTOL * max(1.0, abs(margin))
            below, above = int(np.sum(shifted < -tol)), int(np.sum(shifted > tol))
        used = below + above
        p_less = binomial_tail(below, used, 0.5, upper=True) if used else 1.0
        p_greater = binomial_tail(above, used, 0.5, upper=True) if used else 1.0
        ordered = sorted(d)
        estimate = float((ordered[(n - 1) // 2] + ordered[n // 2]) / 2)
        # largest j with P(Bin(n, 1/2) <= j - 1) <= tail: interval [x_(j), x_(n+1-j)]
        tail = (1 - confidence) / 2
        j = 0
        while j + 1 <= n and binomial_tail(j, n, 0.5, upper=False) <= tail * (1 + TIE_RTOL):
            j += 1
        low, high = (float(ordered[j - 1]), float(ordered[n - j])) if j >= 1 else (-math.inf, math.inf)
    return float(estimate), float(low), float(high), float(p_less), float(p_greater)


# --------------------------------------------------------------------------------------------
# Claims
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """One claim: its statement, the quantity deciding it and the criterion fixed in advance.

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
        Why the margin is what it is; how ties are counted, fixed before the results.
    variants : tuple of str or None
        The protocol choices that could flip the verdict (variant names before ``=``; ``"seed"``
        for the fold-seed variants). ``None``: every variant.
    unit_test : str
        For ``kind="unit_test"``: the pytest node id of the unit test that checks it exactly.
    central : bool
        A central claim of its paper: it leads the README glance.
    stand_in : str
        A peer that stands in for the one the paper used, named in the verdict sentence.
    discussion : str
        A :func:`companion.prose.render` template of the claim's discussion (fields: the claims
        table's columns).
    notebook : str
        The notebook (paper) key, ``"01"``: anchors ``claim-01-<id>`` in the notebook and the docs.
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

    def criterion(self) -> str:
        """The criterion in words, e.g. ``error(A) − error(B) ≤ +2 points``.

        Returns
        -------
        str
            The criterion, as :func:`sentence` prints it.
        """
        if self.kind == "guaranteed":
            return "by construction"
        if self.kind == "exact":
            return "exact check"
        if self.kind == "unit_test":
            return "exact, unit test"
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


def _check_common(where, id, statement):
    if not isinstance(id, str) or not id:
        raise ValueError(f"{where}: id must be a non-empty string, got {id!r}")
    if not isinstance(statement, str) or not statement:
        raise ValueError(f"{where}: statement must be a non-empty string, got {statement!r}")


#: The criterion's parameters of :func:`difference` and :func:`ratio` (scikit-learn's
#: ``validate_params``; a ratio's margin is positive, see ``_RATIO``).
_CRITERION = {
    "direction": [StrOptions(set(_DIRECTIONS))],
    "margin": [StrictInterval(Real, None, None, closed="neither")],  # finite
    "test": [StrOptions(set(_TESTS["difference"]))],
    "zero_method": [StrOptions(set(_ZERO_METHODS))],
    "digits": [StrictInterval(Integral, 0, 6, closed="both")],
}
_RATIO = {
    **_CRITERION,
    "margin": [StrictInterval(Real, 0, None, closed="neither")],
    "offset": [StrictInterval(Real, 0, None, closed="left")],
}
_PROPORTION = {
    "direction": [StrOptions(set(_DIRECTIONS) - {"within"})],
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
    values : callable or array-like
        ``values(data) -> array`` of differences (e.g. per-data-set error of A minus that of B,
        in points), or the array itself. Fractions are tested exactly.
    direction : {"<=", "<", ">=", ">", "within"}
        What the claim says of the location against ``margin`` (``within``: ``|θ| ≤ margin``).
    margin : float, default=0.0
        Fixed before the results.
    quantity, unit : str
        Names for the criterion and the sentence (``"error(A) − error(B)"``, ``"points"``).
    test : {"wilcoxon", "t", "sign"}, default="wilcoxon"
        Signed-rank test with the Hodges–Lehmann estimate and interval; paired t with the mean;
        sign test with the median.
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
    values : callable or tuple of array-like
        ``values(data) -> (a, b)``, or the pair itself.
    direction : {"<=", "<", ">=", ">", "within"}
        What the claim says of the ratio's location against ``margin``.
    margin : float
        A ratio, fixed before the results.
    quantity : str, default=""
        Name of the ratio in the criterion and the sentence.
    test : {"wilcoxon", "t", "sign"}, default="wilcoxon"
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
    values : callable or tuple of int
        ``values(data) -> (k, n)``, or the pair itself.
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
    if not isinstance(reason, str) or not reason:
        raise ValueError(f"guaranteed: reason must be a non-empty string, got {reason!r}")
    return Claim(id, statement, "guaranteed", None, reason=reason)


def exact(id, statement, check) -> Claim:
    """A descriptive statement checked exactly: ``check(data)`` returns a bool or ``(bool, detail)``.

    The verdict is ``holds`` or ``fails``, with no p, outside the Holm family (a non-callable
    ``check`` is the same for every variant).

    Parameters
    ----------
    id, statement : str
        Key and wording of the claim.
    check : callable or bool or tuple
        ``check(data) -> bool`` or ``(bool, detail)`` (``None``: not applicable), or its value.

    Returns
    -------
    Claim
    """
    _check_common("exact", id, statement)
    return Claim(id, statement, "exact", check)


def unit_test(id, statement, test) -> Claim:
    """A theorem, identity or bound property that a unit test of the suite checks exactly.

    Its verdict is ``holds``: the suite (``make test``, run by CI on every change) fails if the
    statement stops holding. No p, not in the Holm family.

    Parameters
    ----------
    id, statement : str
        Key and wording of the claim.
    test : str
        The pytest node id, ``tests/test_file.py::test_name``.

    Returns
    -------
    Claim
    """
    _check_common("unit_test", id, statement)
    if not isinstance(test, str) or not re.fullmatch(r"tests/test_\w+\.py::\w+(\[[^\]]*\])?", test):
        raise ValueError(f"unit_test: test must be a node id 'tests/test_x.py::test_y', got {test!r}")
    return Claim(id, statement, "unit_test", None, unit_test=test)


# --------------------------------------------------------------------------------------------
# The registry: each paper's claims as data
# --------------------------------------------------------------------------------------------

#: Where each paper's registry lives: ``companion/experiments/registry/paperNN.toml``.
REGISTRY_DIR = Path(__file__).resolve().parent / "experiments" / "registry"
ORIGINS = ("paper", "check", "sanity", "observation")
_KINDS = ("difference", "ratio", "proportion", "exact", "guaranteed", "unit_test")
#: The fields a registry entry may have, and which it must have, by kind.
_ENTRY_FIELDS = {
    "id", "origin", "central", "quote", "where", "quote_source", "statement", "kind", "measure", "test",
    "direction", "margin", "margin_reason", "quantity", "unit", "digits", "offset", "ties", "variants",
    "reason", "unit_test", "stand_in", "discussion", "zero_method",
}
_REQUIRED = {
    "difference": ("measure", "direction", "margin_reason"),
    "ratio": ("measure", "direction", "margin", "margin_reason"),
    "proportion": ("measure", "direction", "margin", "margin_reason"),
    "exact": ("measure",),
    "guaranteed": ("reason",),
    "unit_test": ("unit_test",),
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
    """

    key: str
    citation: str
    text: str
    entries: tuple
    path: Path

    def entry(self, id) -> dict:
        """The entry of claim ``id``.

        Parameters
        ----------
        id : str
            The claim's key.

        Returns
        -------
        dict
        """
        for entry in self.entries:
            if entry["id"] == id:
                return entry
        raise KeyError(f"{self.path.name}: no claim with id {id!r}; the registry has {[e['id'] for e in self.entries]}")


def _registry_error(path, where, message):
    return ValueError(f"{Path(path).name}: {where}: {message}")


def load_registry(source) -> Registry:
    """Read and validate a paper's claims registry (TOML, read with :mod:`tomllib`).

    Parameters
    ----------
    source : str or pathlib.Path
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
    elif isinstance(source, (str, Path)):
        path = Path(source)
    else:
        raise TypeError(f"load_registry: source must be a key such as '01' or a path, got {source!r}")
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
        if entry["kind"] not in _KINDS:
            raise _registry_error(path, label, f"kind must be one of {_KINDS}, got {entry['kind']!r}")
        if entry["origin"] == "paper":
            for field in ("quote", "where"):
                if not isinstance(entry.get(field), str) or not entry[field].strip():
                    raise _registry_error(path, label, f"a paper claim needs {field!r}")
        elif entry.get("central"):
            raise _registry_error(path, label, "only a paper claim can be central")
        if entry.get("quote_source", "paper") not in ("paper", "specs"):
            raise _registry_error(path, label, f"quote_source must be 'paper' or 'specs', got {entry['quote_source']!r}")
        for field in _REQUIRED[entry["kind"]]:
            if field not in entry or entry[field] in ("", None):
                raise _registry_error(path, label, f"a {entry['kind']} claim needs {field!r}")
        variants = entry.get("variants", [])
        if not isinstance(variants, list) or not all(isinstance(v, str) and v and "=" not in v for v in variants):
            raise _registry_error(path, label, f"variants must be a list of variant names (before '='), got {variants!r}")
        checked.append(dict(entry))
    return Registry(paper["key"], paper["citation"], paper["text"], tuple(checked), path)


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
        A measure the registry names is missing, or one given is named by no claim.
    """
    if not isinstance(registry, Registry):
        raise TypeError(f"family: registry must be a Registry (load_registry), got {type(registry).__name__}")
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
        elif kind == "guaranteed":
            claim = guaranteed(entry["id"], entry["statement"], entry["reason"])
        else:
            claim = unit_test(entry["id"], entry["statement"], entry["unit_test"])
        claims.append(replace(
            claim, origin=entry["origin"], quote=" ".join(entry.get("quote", "").split()),
            where=entry.get("where", ""), quote_source=entry.get("quote_source", "paper"),
            margin_reason=entry.get("margin_reason", ""), tie_rule=entry.get("ties", ""),
            variants=tuple(entry.get("variants", ["seed"])),
            central=bool(entry.get("central", False)), stand_in=entry.get("stand_in", ""),
            discussion=entry.get("discussion", ""), notebook=registry.key,
            reason=entry.get("reason", claim.reason),
        ))
    return claims


# --------------------------------------------------------------------------------------------
# Evaluation
# --------------------------------------------------------------------------------------------


def _fingerprint(values):
    """A hashable, exact image of what a claim measured: two variants that give a claim the same
    data have the same fingerprint (so the variant cannot change its verdict and is not counted)."""
    if isinstance(values, np.ndarray):
        return ("array", values.dtype.kind, tuple(values.tolist()))
    if isinstance(values, (list, tuple)):
        return tuple(_fingerprint(v) for v in values)
    if isinstance(values, (pd.Series, pd.Index)):
        return _fingerprint(values.to_numpy())
    if isinstance(values, np.generic):
        return values.item()
    return values


def _tally(d, margin, direction) -> tuple[int, int, int]:
    """Wins, ties, losses: values on the claim's side of the margin, equal to it, on the other side.

    Equality is exact for integers and fractions, within ``TIE_RTOL`` of the largest magnitude
    for floats (the rule of the Wilcoxon zeros)."""
    if _all_rational(d):
        centred = [Fraction(x) - Fraction(margin) for x in d]
        if direction == "within":
            centred = [abs(Fraction(x)) - Fraction(margin) for x in d]
        negative = sum(1 for x in centred if x < 0)
        zero = sum(1 for x in centred if x == 0)
    else:
        x = np.asarray(d, dtype=float)
        centred = (np.abs(x) if direction == "within" else x) - margin
        scale = max(1.0, float(np.max(np.abs(x))) if x.size else 1.0, abs(margin))
        zero_mask = np.abs(centred) <= TIE_RTOL * scale
        zero = int(zero_mask.sum())
        negative = int(((centred < 0) & ~zero_mask).sum())
    positive = len(d) - negative - zero
    if direction in (">=", ">"):
        return positive, zero, negative
    return negative, zero, positive


def _all_zero(d) -> bool:
    if _all_rational(d):
        return all(Fraction(x) == 0 for x in d)
    x = np.asarray(d, dtype=float)
    return bool(np.all(x == 0))


def _design_min_p(claim: Claim, n: int) -> float:
    """The smallest raw one-sided p the claim's test can give with ``n`` paired values (or trials).

    Wilcoxon and sign tests: every value on the claim's side, ``2^-n``; the paired t: 0 (no floor);
    binomial with margin ``m``: ``m^n`` for an upper claim, ``(1 − m)^n`` for a lower one."""
    if claim.kind == "proportion":
        return claim.margin ** n if claim.direction in (">", ">=") else (1 - claim.margin) ** n
    if claim.test == "t":
        return 0.0
    return 2.0 ** -n


def _measure(claim: Claim, data, alpha: float) -> dict:
    """Raw evaluation of one claim on one variant's data (p-values not yet corrected)."""
    row = {"kind": claim.kind, "test": claim.test, "n": np.nan, "estimate": np.nan, "ci_low": np.nan,
           "ci_high": np.nan, "p_raw": np.nan, "p_fail_raw": np.nan, "detail": "", "verdict": None,
           "wins": np.nan, "ties": np.nan, "losses": np.nan, "design_p": np.nan, "fingerprint": None}
    if claim.kind == "guaranteed":
        row.update(verdict="guaranteed", detail=claim.reason)
        return row
    if claim.kind == "unit_test":
        row.update(verdict="holds", detail=f"unit test `{claim.unit_test}`, run by `make test`")
        return row
    values = claim.values(data) if callable(claim.values) else claim.values
    row["fingerprint"] = _fingerprint(values)
    if values is None:
        row["verdict"] = "n/a"
        return row
    where = f"claim {claim.id!r}"
    if claim.kind == "exact":
        ok, detail = (values if isinstance(values, tuple) else (values, ""))
        if not isinstance(ok, (bool, np.bool_)):
            raise TypeError(f"{where}: an exact check must return a bool or (bool, detail), got {ok!r}")
        row.update(verdict="holds" if ok else "fails", detail=str(detail))
        return row
    confidence = 1 - 2 * alpha
    identical = False
    if claim.kind == "proportion":
        if not (isinstance(values, tuple) and len(values) == 2):
            raise ValueError(f"{where}: a proportion needs (k, n), got {values!r}")
        k, n = (int(v) if isinstance(v, np.integer) else v for v in values)
        _check_count(k, n, where)
        estimate = k / n
        low, high = clopper_pearson(k, n, confidence)
        p_less = binomial_tail(k, n, claim.margin, upper=False)
        p_greater = binomial_tail(k, n, claim.margin, upper=True)
        if claim.direction in (">", ">="):
            row.update(wins=k, ties=0, losses=n - k)
        else:
            row.update(wins=n - k, ties=0, losses=k)
    else:
        if claim.kind == "ratio":
            if not (isinstance(values, tuple) and len(values) == 2):
                raise ValueError(f"{where}: a ratio needs (numerators, denominators), got {type(values).__name__}")
            a = _as_values(values[0], f"{where}: numerators").astype(float) + claim.offset
            b = _as_values(values[1], f"{where}: denominators").astype(float) + claim.offset
            if a.shape != b.shape:
                raise ValueError(f"{where}: numerators and denominators differ in length: {a.shape} vs {b.shape}")
            if np.any(a <= 0) or np.any(b <= 0):
                raise ValueError(f"{where}: a ratio needs positive values (use offset=), got "
                                 f"{np.concatenate([a[a <= 0], b[b <= 0]]).tolist()[:5]}")
            d = np.log(a / b)
            identical = bool(np.all(a == b))
            margin, lower_margin = math.log(claim.margin), -math.log(claim.margin)
        else:
            d = _as_values(values, f"{where}: values")
            identical = len(d) > 0 and _all_zero(d)
            margin, lower_margin = claim.margin, -claim.margin
        if len(d) == 0:
            raise ValueError(f"{where}: no values to test")
        n = len(d)
        row.update(zip(("wins", "ties", "losses"), _tally(d, margin, claim.direction)))
        estimate, low, high, p_less, p_greater = _location_test(d, margin, claim.test, claim.zero_method, confidence)
        if claim.direction == "within":
            _, _, _, p_less_low, p_greater_low = _location_test(d, lower_margin, claim.test, claim.zero_method,
                                                                confidence)
    if claim.direction in ("<=", "<"):
        p_hold, p_fail = p_less, p_greater
    elif claim.direction in (">=", ">"):
        p_hold, p_fail = p_greater, p_less
    else:  # within: TOST
        p_hold = max(p_less, p_greater_low)
        p_fail = min(1.0, 2 * min(p_greater, p_less_low))
    if claim.kind == "ratio":
        estimate, low, high = math.exp(estimate), math.exp(low), math.exp(high)
    row.update(n=n, estimate=estimate, ci_low=low, ci_high=high, p_raw=p_hold, p_fail_raw=p_fail,
               design_p=_design_min_p(claim, n))
    if identical:
        row.update(verdict="identical", detail=f"all {n} paired differences are 0: the two sides are identical")
    return row


def _decide(claim: Claim, row: dict, alpha: float) -> str:
    """The verdict of a tested claim from its corrected p-values and its interval."""
    margin = claim.margin
    tol = TIE_RTOL * max(1.0, abs(margin))
    low, high = row["ci_low"], row["ci_high"]
    if claim.direction in ("<=", "<"):
        claim_side, other_side = high < margin - tol, low > margin + tol
    elif claim.direction in (">=", ">"):
        claim_side, other_side = low > margin + tol, high < margin - tol
    else:
        lower = 1 / margin if claim.kind == "ratio" else -margin
        claim_side = low > lower + tol and high < margin - tol
        other_side = low > margin + tol or high < lower - tol
    if rejects(row["p_holm"], alpha) and claim_side:
        return "holds"
    if rejects(row["p_fail_holm"], alpha) and other_side:
        return "fails"
    return "undecided"


#: The verdict words of each origin (the engine's verdicts on the left). Only ``paper`` claims
#: are judged; a ``check`` agrees with its reference or not; an ``observation`` is reported.
VERDICT_WORDS = {
    "paper": {},
    "check": {"holds": "agrees", "fails": "differs"},
    "sanity": {"holds": "passes", "fails": "does not pass"},
    "observation": {"holds": "observed", "fails": "observed", "undecided": "observed", "not decidable": "observed",
                    "identical": "observed"},
}


def _holm_family(claims, rows, alpha):
    """Holm within each origin, over the claims whose design can decide them.

    ``min_p`` of a tested claim is its design's smallest raw p (:func:`_design_min_p`)
    Holm-corrected among the design minima of its origin's family: every claim of the family at
    its best at once. A claim whose ``min_p`` exceeds α is ``not decidable`` and leaves the
    family, and the minima are corrected again without it, until none is dropped."""
    for origin in ORIGINS:
        members = [i for i, (c, r) in enumerate(zip(claims, rows))
                   if c.origin == origin and r["verdict"] is None and origin != "observation"]
        while members:
            minima = holm([rows[i]["design_p"] for i in members])
            for i, m in zip(members, minima):
                rows[i]["min_p"] = m
            kept = [i for i, m in zip(members, minima) if rejects(m, alpha)]
            if len(kept) == len(members):
                break
            for i, m in zip(members, minima):
                if not rejects(m, alpha):
                    rows[i]["verdict"] = "not decidable"
                    rows[i]["detail"] = (f"with n = {int(rows[i]['n'])} the smallest Holm-corrected p this design "
                                         f"can reach is {m:.3g} > α = {alpha:g}")
            members = kept
        p_hold = holm([rows[i]["p_raw"] for i in members]) if members else []
        p_fail = holm([rows[i]["p_fail_raw"] for i in members]) if members else []
        for i, ph, pf in zip(members, p_hold, p_fail):
            rows[i]["p_holm"], rows[i]["p_fail_holm"] = ph, pf
            rows[i]["verdict"] = _decide(claims[i], rows[i], alpha)
    for claim, row in zip(claims, rows):
        if claim.origin == "observation" and row["verdict"] is None:
            row["verdict"] = "observed"


def _evaluate_variant(claims, data, alpha):
    rows = [_measure(claim, data, alpha) for claim in claims]
    for row in rows:
        row.update(p_holm=np.nan, p_fail_holm=np.nan, min_p=np.nan)
    _holm_family(claims, rows, alpha)
    for claim, row in zip(claims, rows):
        row["verdict"] = VERDICT_WORDS[claim.origin].get(row["verdict"], row["verdict"])
    return rows


def _variant_name(variant: str) -> str:
    return variant.split("=", 1)[0]


def _applies(claim: Claim, variant: str) -> bool:
    return claim.variants is None or _variant_name(variant) in claim.variants


@validate_params({"alpha": [StrictInterval(Real, 0, 0.5, closed="neither")]}, prefer_skip_nested_validation=True)
def evaluate(claims, data, *, alpha: float = ALPHA, main: str = "main") -> "ClaimsReport":
    """Evaluate a family of claims on the main protocol and on every alternative protocol choice.

    Parameters
    ----------
    claims : sequence of Claim
        The notebook's family (:func:`family` of its registry); ids must be unique.
    data : dict {variant name: data} or any object
        What each claim's ``values`` function receives, per protocol variant; ``main`` must be a
        key. Variant names are ``name=value`` (``seed=3``, ``tie=fewest_errors``); a claim is
        re-decided under the variants whose name its ``variants`` lists. A non-dict is the only
        (main) variant.
    alpha : float, default=ALPHA
        One-sided level; the intervals are at ``1 − 2α``.
    main : str, default="main"
        The variant the verdicts are stated for; the others are its sensitivity.

    Returns
    -------
    ClaimsReport
        A variant that gives a claim exactly the data of the main protocol is listed as
        "unchanged by", never as "robust to"; the fold-seed variants (``seed=…``) are summarised
        in ``seeds`` ("4/4 keep"), and a flip under any of them marks the claim not robust.
    """
    claims = list(claims)
    if not claims or not all(isinstance(c, Claim) for c in claims):
        raise TypeError(f"evaluate: claims must be a non-empty sequence of Claim, got {claims!r}")
    ids = [c.id for c in claims]
    duplicated = sorted({i for i in ids if ids.count(i) > 1})
    if duplicated:
        raise ValueError(f"evaluate: claim ids must be unique, got duplicates {duplicated}")
    variants = data if isinstance(data, dict) else {main: data}
    if main not in variants:
        raise ValueError(f"evaluate: data has no {main!r} variant; got {list(variants)}")
    order = [main] + [v for v in variants if v != main]
    measured = {variant: _evaluate_variant(claims, variants[variant], alpha) for variant in order}
    long_rows = []
    for variant in order:
        for claim, row, first in zip(claims, measured[variant], measured[main]):
            if variant == main:
                role = "main"
            elif not _applies(claim, variant):
                role = "not listed"
            elif row["fingerprint"] == first["fingerprint"] and claim.kind not in ("guaranteed", "unit_test"):
                role = "unchanged"
            else:
                role = "varies" if claim.kind not in ("guaranteed", "unit_test") else "not listed"
            long_rows.append({"variant": variant, "id": claim.id, "role": role, **row,
                              "same_as_main": row["verdict"] == first["verdict"]})
    sensitivity = pd.DataFrame(long_rows)
    sensitivity = sensitivity[["variant", "id", "role", "kind", "test", "n", "estimate", "ci_low", "ci_high", "wins",
                               "ties", "losses", "p_raw", "p_holm", "p_fail_raw", "p_fail_holm", "min_p", "verdict",
                               "same_as_main", "detail"]]
    rows = []
    for claim in claims:
        mine = sensitivity[sensitivity["id"] == claim.id].set_index("variant")
        first = mine.loc[main]
        others = mine.drop(index=main)
        varied = others[others["role"] == "varies"]
        unchanged = list(others.index[others["role"] == "unchanged"])
        judged = claim.origin != "observation" and claim.kind not in ("guaranteed", "unit_test")
        compared = varied[varied["verdict"] != "n/a"] if first["verdict"] != "n/a" else varied.iloc[0:0]
        flips = [f"{v} ({compared.loc[v, 'verdict']})" for v in compared.index
                 if not compared.loc[v, "same_as_main"]] if judged else []
        robust_to = [v for v in compared.index if compared.loc[v, "same_as_main"]] if judged else []
        missing = [v for v in varied.index if v not in compared.index]
        seeds = [v for v in others.index if _variant_name(v) == "seed" and others.loc[v, "role"] in ("varies", "unchanged")]
        kept = [v for v in seeds if others.loc[v, "same_as_main"]]
        seed_text = f"{len(kept)}/{len(seeds)} seeds keep" if seeds and judged else ""
        rows.append({
            "notebook": claim.notebook, "id": claim.id, "origin": claim.origin, "central": claim.central,
            "statement": claim.statement, "quote": claim.quote, "where": claim.where,
            "quote_source": claim.quote_source, "kind": claim.kind, "test": claim.test,
            "quantity": claim.quantity, "criterion": claim.criterion(), "direction": claim.direction,
            "margin": claim.margin, "margin_reason": claim.margin_reason, "tie_rule": claim.tie_rule,
            "unit": claim.unit, "digits": claim.digits,
            **{k: first[k] for k in ("n", "estimate", "ci_low", "ci_high", "wins", "ties", "losses", "p_raw",
                                     "p_holm", "p_fail_raw", "p_fail_holm", "min_p", "verdict", "detail")},
            "robust": bool(not flips),
            "flips": "; ".join(flips), "seeds": seed_text,
            "sensitivity": _sensitivity_text(robust_to, flips, missing, unchanged if judged else []),
            "stand_in": claim.stand_in, "unit_test": claim.unit_test, "discussion": claim.discussion,
            "alpha": alpha,
        })
    return ClaimsReport(pd.DataFrame(rows, columns=TABLE_COLUMNS), sensitivity, main, alpha)


def _sensitivity_text(robust_to, flips, missing, unchanged=()) -> str:
    parts = []
    if robust_to:
        parts.append("robust to " + ", ".join(robust_to))
    if flips:
        parts.append("flips under " + ", ".join(flips))
    if missing:
        parts.append("not evaluated under " + ", ".join(missing))
    if unchanged:
        parts.append("unchanged by " + ", ".join(unchanged))
    return "; ".join(parts)


# --------------------------------------------------------------------------------------------
# Output: sentences, Markdown, saving, README sections
# --------------------------------------------------------------------------------------------


def _plain(value, digits) -> str:
    return f"{value:.{digits}f}"


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
    parts = [re.sub(r"[^A-Za-z0-9_-]+", "-", str(part)).strip("-") for part in (notebook, id)]
    return "-".join(["claim", *(part for part in parts if part)])


def sentence(row) -> str:
    """The Markdown verdict sentence of one row of a claims table (or of its CSV read back).

    ``"WIDC(p) vs J48, error(WIDC(p)) − error(J48) ≤ +2.00 points: **holds** (estimate +1.60 points,
    95 % CI [+0.40, +2.90], Holm p = 0.030, Wilcoxon, n = 31, wins/ties/losses 20/3/8; robust to
    encoding; 4/4 seeds keep)"``. A ``holds`` shows the corrected p of the test of "claim false", a
    ``fails`` that of "claim true" (``Holm p (claim true)``), an ``undecided`` both. A claim whose
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
    if row["kind"] in ("exact", "unit_test"):
        detail = _text(row["detail"])
        label = "exact check" if row["kind"] == "exact" else "checked exactly by the"
        inside = "; ".join(p for p in (f"{label}: {detail}" if detail else label, *extras) if p)
        return f"{statement}: **{verdict}** ({inside})."
    unit = f" {row['unit']}" if _text(row["unit"]) else ""
    n = int(row["n"]) if np.isfinite(row["n"]) else 0
    if row["kind"] == "proportion":
        estimate = f"{round(row['estimate'] * n)}/{n} = {_format_value(row, row['estimate'])}"
    else:
        estimate = f"{_format_value(row, row['estimate'])}{unit}"
    level = f"{100 * (1 - 2 * float(row['alpha'])):.4g}"
    interval = f"{level} % CI [{_format_value(row, row['ci_low'])}, {_format_value(row, row['ci_high'])}]"
    test = {"wilcoxon": "Wilcoxon", "t": "paired t", "sign": "sign test", "binomial": "binomial"}[row["test"]]
    if verdict in ("holds", "agrees", "passes"):
        p_text = f"Holm p {_format_p(row['p_holm'])}"
    elif verdict in ("fails", "differs", "does not pass"):
        p_text = f"Holm p (claim true) {_format_p(row['p_fail_holm'])}"
    elif verdict == "undecided":
        p_text = f"Holm p {_format_p(row['p_holm'])} (for holds), {_format_p(row['p_fail_holm'])[2:]} (for fails)"
    elif verdict == "not decidable":
        p_text = f"smallest reachable Holm p {row['min_p']:.3g} > α = {float(row['alpha']):g}"
    else:  # observed, identical: no test decides
        p_text = ""
    tally = ""
    if row["kind"] != "proportion" and np.isfinite(row.get("wins", np.nan)):
        tally = f"wins/ties/losses {int(row['wins'])}/{int(row['ties'])}/{int(row['losses'])}"
    inside = ", ".join(p for p in (f"estimate {estimate}", interval, p_text, test, f"n = {n}", tally) if p)
    if extras:
        inside += "; " + "; ".join(extras)
    word = "not decidable with this design" if verdict == "not decidable" else verdict
    return f"{statement}, {row['criterion']}: **{word}** ({inside})."


def _text(value) -> str:
    return value if isinstance(value, str) else ""


def verdict_markdown(table: pd.DataFrame, ids=None, *, links: dict | None = None) -> Markdown:
    """Markdown list of the verdict sentences of ``table`` (all rows, or those of ``ids`` in order).

    Each item carries the claim's anchor (:func:`anchor`); a ``paper`` claim is followed by its
    quotation and where it stands in the paper.

    Parameters
    ----------
    table : pandas.DataFrame
        A claims table.
    ids : list of str, optional
        The claims shown, in this order (default: all rows).
    links : dict, optional
        ``{notebook key: URL of the page holding the verdicts}``: each claim id links to its
        anchor there (``docs/results.md`` links to the notebooks' cells).

    Returns
    -------
    Markdown
    """
    table = _as_table(table, "verdict_markdown")
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
        origin = "" if row["origin"] == "paper" else f" *({row['origin']})*"
        item = f'* <a id="{name}"></a>{label}{origin} {sentence(row)}'
        if row["origin"] == "paper" and row["quote"]:
            item += f"\n  > “{row['quote']}” ({row['where']})"
        items.append(item)
    return Markdown("\n".join(items))


#: Columns a claims CSV written before the registry lacks, with the values they stand for.
_DEFAULTS = {"notebook": "", "origin": "paper", "central": False, "quote": "", "where": "", "quote_source": "paper",
             "margin_reason": "", "tie_rule": "", "wins": np.nan, "ties": np.nan, "losses": np.nan,
             "min_p": np.nan, "seeds": "", "stand_in": "", "unit_test": "", "discussion": ""}
_TEXT_COLUMNS = ("notebook", "statement", "quote", "where", "criterion", "unit", "detail", "flips", "sensitivity",
                 "quantity", "margin_reason", "tie_rule", "seeds", "stand_in", "unit_test", "discussion")


def _as_table(table, where) -> pd.DataFrame:
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
    table["central"] = table["central"].astype(bool)
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

    def discussion(self, ids=None, values: dict | None = None) -> Markdown:
        """Each claim's discussion, rendered from its registry template and its row of the table.

        Parameters
        ----------
        ids : list of str, optional
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
            fields = {k: (v.item() if isinstance(v, np.generic) else v) for k, v in row.items()}
            text = render(row["discussion"], fields, **values.get(id, {})).data
            items.append(f"* **{id}.** {' '.join(text.split())}")
        return Markdown("\n".join(items))

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


_MARKER = re.compile(r"^[A-Za-z0-9_.-]+$")


def render_readme_section(table, key: str, link: str | None = None) -> str:
    """The block of claims table ``table`` (DataFrame or CSV path), between its markers.

    ``<!-- claims:KEY -->``, a line saying where it comes from, the paper's claims, then the
    checks, sanity checks and observations, ``<!-- /claims:KEY -->``. Each claim carries its
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
    frame = _as_table(table, "render_readme_section")
    links = {notebook: link for notebook in frame["notebook"].unique()} if link else None
    parts = []
    for origin, title in (("paper", "The paper's claims"), ("check", "Checks of our code against a reference"),
                          ("sanity", "Sanity checks"), ("observation", "Observations (no verdict)")):
        ids = list(frame.loc[frame["origin"] == origin, "id"])
        if ids:
            parts.append(f"**{title}**\n\n" + verdict_markdown(frame, ids, links=links).data)
    body = "\n\n".join(parts)
    return (f"<!-- claims:{key} -->\n<!-- generated{source} by companion.claims.update_readme; do not edit -->\n"
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


def update_readme(path, sections: dict, *, glance: bool = False, links: dict | None = None) -> bool:
    """Write each claims section ``{key: table or CSV path}`` into the Markdown file at ``path``.

    Parameters
    ----------
    path : str or pathlib.Path
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


#: Where the glance's links land (relative to the README).
RESULTS_PAGE = "docs/results.md"


def render_glance(sections: dict) -> str:
    """The README's results-at-a-glance block: the papers' own claims counted, central ones stated.

    Parameters
    ----------
    sections : dict
        ``{key: claims table or the path of its CSV}``, one per notebook, in display order.

    Returns
    -------
    str
        ``<!-- claims:glance -->``, a Markdown table (one row per notebook: the paper's claims,
        and how many hold, fail, stay undecided, cannot be decided by the design, or compare
        identical; how many checks of our code agree with their reference), then the verdict
        sentence of each notebook's central claims, ``<!-- /claims:glance -->``. Every number
        links to :data:`RESULTS_PAGE`: a count to the notebook's section, a sentence to the
        claim's anchor.
    """
    lines = [
        "<!-- claims:glance -->",
        "<!-- generated from figures/NN_claims.csv by companion.claims.update_readme; do not edit -->",
        "| notebook | paper claims | holds | fails | undecided | not decidable | identical | checks agree |",
        "|---|---|---|---|---|---|---|---|",
    ]
    bullets = []
    for key, source in sections.items():
        table = _as_table(source, "render_glance")
        paper = table[(table["origin"] == "paper") & (table["kind"] != "guaranteed")]
        counts = paper["verdict"].value_counts()
        checks = table[(table["origin"] == "check") & (table["kind"] != "guaranteed")]
        section = f"{RESULTS_PAGE}#notebook-{key}"

        def cell(number, target=section):
            return f"[{number}]({target})"

        agreeing = f"{int((checks['verdict'] == 'agrees').sum())} of {len(checks)}"
        lines.append(
            f"| {key} | {cell(len(paper))} | {cell(int(counts.get('holds', 0)))} | {cell(int(counts.get('fails', 0)))} "
            f"| {cell(int(counts.get('undecided', 0)) + int(counts.get('n/a', 0)))} "
            f"| {cell(int(counts.get('not decidable', 0)))} | {cell(int(counts.get('identical', 0)))} "
            f"| {cell(agreeing)} |"
        )
        for _, row in paper[paper["central"]].iterrows():
            target = f"{RESULTS_PAGE}#{anchor(row['notebook'] or key, row['id'])}"
            text = sentence(row)
            head, _, tail = text.partition(" (")
            linked = f"{head} ([{tail[:-2]}]({target}))." if tail.endswith(").") else f"[{text}]({target})"
            bullets.append(f"* **{key} [{row['id']}]({target}).** {linked}")
    body = "\n".join(lines) + ("\n\n" + "\n".join(bullets) if bullets else "")
    return body + "\n<!-- /claims:glance -->"


def publish(root=None, *, write: bool = True) -> list[str]:
    """Write every notebook's claims into ``docs/results.md`` (full) and the README (glance).

    Parameters
    ----------
    root : str or pathlib.Path, optional
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
