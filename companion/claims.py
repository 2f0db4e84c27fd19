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
from dataclasses import dataclass
from fractions import Fraction
from numbers import Integral, Rational, Real
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.utils._param_validation import StrOptions, validate_params, validate_parameter_constraints

from companion.numerics import TIE_RTOL, StrictInterval

__all__ = [
    "ALPHA",
    "Claim",
    "ClaimsReport",
    "Markdown",
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
    "headline_claims",
]

#: One-sided level of every test; the intervals are two-sided at ``1 − 2·ALPHA`` (95 %).
ALPHA = 0.025
#: Largest number of non-zero differences whose Wilcoxon p is counted exactly (normal beyond).
_EXACT_MAX = 400
#: Verdict states: tested claims get the first three, ``exact`` claims the first two.
_VERDICTS = ("holds", "fails", "undecided", "guaranteed", "n/a")

_DIRECTIONS = ("<=", "<", ">=", ">", "within")
_TESTS = {"difference": ("wilcoxon", "t", "sign"), "ratio": ("wilcoxon", "t", "sign"), "proportion": ("binomial",)}
_ZERO_METHODS = ("pratt", "zsplit", "wilcox")
_SYMBOLS = {"<=": "≤", "<": "<", ">=": "≥", ">": ">", "within": "within ±"}

TABLE_COLUMNS = [
    "id", "statement", "kind", "test", "quantity", "criterion", "direction", "margin", "unit", "digits",
    "n", "estimate", "ci_low", "ci_high", "p_raw", "p_holm", "p_fail_raw", "p_fail_holm", "verdict",
    "detail", "robust", "flips", "sensitivity", "alpha",
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
        symbol = _SYMBOLS[self.direction]
        if self.kind == "ratio":
            margin = f"×{_plain(self.margin, self.digits)}"
        elif self.kind == "proportion":
            margin = _plain(self.margin, self.digits)
        elif self.direction == "within":
            margin = _plain(self.margin, self.digits)
        else:
            margin = _signed(self.margin, self.digits)
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


# --------------------------------------------------------------------------------------------
# Evaluation
# --------------------------------------------------------------------------------------------


def _measure(claim: Claim, data, alpha: float) -> dict:
    """Raw evaluation of one claim on one variant's data (p-values not yet corrected)."""
    row = {"kind": claim.kind, "test": claim.test, "n": np.nan, "estimate": np.nan, "ci_low": np.nan,
           "ci_high": np.nan, "p_raw": np.nan, "p_fail_raw": np.nan, "detail": "", "verdict": None}
    if claim.kind == "guaranteed":
        row.update(verdict="guaranteed", detail=claim.reason)
        return row
    values = claim.values(data) if callable(claim.values) else claim.values
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
    if claim.kind == "proportion":
        if not (isinstance(values, tuple) and len(values) == 2):
            raise ValueError(f"{where}: a proportion needs (k, n), got {values!r}")
        k, n = (int(v) if isinstance(v, np.integer) else v for v in values)
        _check_count(k, n, where)
        estimate = k / n
        low, high = clopper_pearson(k, n, confidence)
        p_less = binomial_tail(k, n, claim.margin, upper=False)
        p_greater = binomial_tail(k, n, claim.margin, upper=True)
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
            margin, lower_margin = math.log(claim.margin), -math.log(claim.margin)
        else:
            d = _as_values(values, f"{where}: values")
            margin, lower_margin = claim.margin, -claim.margin
        if len(d) == 0:
            raise ValueError(f"{where}: no values to test")
        n = len(d)
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
    row.update(n=n, estimate=estimate, ci_low=low, ci_high=high, p_raw=p_hold, p_fail_raw=p_fail)
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


def _evaluate_variant(claims, data, alpha):
    rows = [_measure(claim, data, alpha) for claim in claims]
    tested = [r["verdict"] is None for r in rows]
    p_hold = holm([r["p_raw"] if t else np.nan for r, t in zip(rows, tested)])
    p_fail = holm([r["p_fail_raw"] if t else np.nan for r, t in zip(rows, tested)])
    for claim, row, t, ph, pf in zip(claims, rows, tested, p_hold, p_fail):
        row["p_holm"], row["p_fail_holm"] = ph, pf
        if t:
            row["verdict"] = _decide(claim, row, alpha)
    return rows


@validate_params({"alpha": [StrictInterval(Real, 0, 0.5, closed="neither")]}, prefer_skip_nested_validation=True)
def evaluate(claims, data, *, alpha: float = ALPHA, main: str = "main") -> "ClaimsReport":
    """Evaluate a family of claims on the main protocol and on every alternative protocol choice.

    Parameters
    ----------
    claims : sequence of Claim
        The notebook's family; ids must be unique.
    data : dict {variant name: data} or any object
        What each claim's ``values`` function receives, per protocol variant; ``main`` must be a
        key. A non-dict is the only (main) variant.
    alpha : float, default=ALPHA
        One-sided level; the intervals are at ``1 − 2α``.
    main : str, default="main"
        The variant the verdicts are stated for; the others are its sensitivity.

    Returns
    -------
    ClaimsReport
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
    long_rows = []
    for variant in order:
        for claim, row in zip(claims, _evaluate_variant(claims, variants[variant], alpha)):
            long_rows.append({"variant": variant, "id": claim.id, **row})
    sensitivity = pd.DataFrame(long_rows)
    main_verdict = sensitivity[sensitivity["variant"] == main].set_index("id")["verdict"]
    sensitivity["same_as_main"] = [v == main_verdict[i] for i, v in zip(sensitivity["id"], sensitivity["verdict"])]
    sensitivity = sensitivity[["variant", "id", "kind", "test", "n", "estimate", "ci_low", "ci_high", "p_raw",
                               "p_holm", "p_fail_raw", "p_fail_holm", "verdict", "same_as_main", "detail"]]
    rows = []
    for claim in claims:
        mine = sensitivity[sensitivity["id"] == claim.id].set_index("variant")
        first = mine.loc[main]
        others = mine.drop(index=main)
        compared = others[~others["verdict"].isin(["n/a"])] if first["verdict"] != "n/a" else others.iloc[0:0]
        flips = [f"{v} ({compared.loc[v, 'verdict']})" for v in compared.index if not compared.loc[v, "same_as_main"]]
        robust_to = [v for v in compared.index if compared.loc[v, "same_as_main"]]
        missing = [v for v in others.index if v not in compared.index]
        rows.append({
            "id": claim.id, "statement": claim.statement, "kind": claim.kind, "test": claim.test,
            "quantity": claim.quantity, "criterion": claim.criterion(), "direction": claim.direction,
            "margin": claim.margin, "unit": claim.unit, "digits": claim.digits,
            **{k: first[k] for k in ("n", "estimate", "ci_low", "ci_high", "p_raw", "p_holm", "p_fail_raw",
                                     "p_fail_holm", "verdict", "detail")},
            "robust": bool(not flips) if claim.kind != "guaranteed" else True,
            "flips": "; ".join(flips),
            "sensitivity": _sensitivity_text(robust_to, flips, missing), "alpha": alpha,
        })
    return ClaimsReport(pd.DataFrame(rows, columns=TABLE_COLUMNS), sensitivity, main, alpha)


def _sensitivity_text(robust_to, flips, missing) -> str:
    parts = []
    if robust_to:
        parts.append("robust to " + ", ".join(robust_to))
    if flips:
        parts.append("flips under " + ", ".join(flips))
    if missing:
        parts.append("not evaluated under " + ", ".join(missing))
    return "; ".join(parts)


# --------------------------------------------------------------------------------------------
# Output: sentences, Markdown, saving, README sections
# --------------------------------------------------------------------------------------------


class Markdown:
    """Markdown text that a notebook shows rendered (``_repr_markdown_``) and nbval compares as text.

    Compatible with :class:`IPython.display.Markdown` (``.data``) without importing IPython.

    Parameters
    ----------
    text : str
        The Markdown source.
    """

    def __init__(self, text: str):
        self.data = str(text)

    def _repr_markdown_(self) -> str:
        return self.data

    def __repr__(self) -> str:
        return self.data

    __str__ = __repr__

    def __eq__(self, other) -> bool:
        return isinstance(other, Markdown) and other.data == self.data

    __hash__ = None


def _plain(value, digits) -> str:
    return f"{value:.{digits}f}"


def _signed(value, digits) -> str:
    """``+1.60`` / ``−0.40`` (a true minus sign); a value that rounds to zero prints ``0.00``."""
    text = f"{value:+.{digits}f}"
    if float(text) == 0:
        return text[1:]
    return text.replace("-", "−")


def _format_value(row, value) -> str:
    digits = int(row["digits"])
    if row["kind"] == "ratio":
        return "×∞" if value == math.inf else "×0" if value == 0 else f"×{value:.{digits}f}"
    if not np.isfinite(value):
        return "−∞" if value < 0 else "+∞"
    if row["kind"] == "proportion":
        return f"{value:.{digits}f}"
    return _signed(value, digits)


def _format_p(p) -> str:
    if p < 0.001:
        return "< 0.001"
    return f"= {p:.3f}"


def sentence(row) -> str:
    """The Markdown verdict sentence of one row of a claims table (or of its CSV read back).

    ``"WIDC(p) vs J48, error(WIDC(p)) − error(J48) ≤ +2.00 points: **holds** (estimate +1.60 points,
    95 % CI [+0.40, +2.90], Holm p = 0.030, Wilcoxon, n = 31; robust to encoding)"``. A ``holds``
    shows the corrected p of the test of "claim false", a ``fails`` that of "claim true"
    (``Holm p (claim true)``), an ``undecided`` both (``Holm p = 0.300 (for holds), 0.040 (for fails)``).

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
    sensitivity = row["sensitivity"] if isinstance(row["sensitivity"], str) else ""
    if row["kind"] == "guaranteed":
        return f"{statement}: **guaranteed** by construction ({row['detail']}); not a claim, not tested."
    if verdict == "n/a":
        return f"{statement}: **not evaluated** on this protocol" + (f" ({sensitivity})" if sensitivity else "") + "."
    if row["kind"] == "exact":
        detail = row["detail"] if isinstance(row["detail"], str) and row["detail"] else ""
        inside = "; ".join(p for p in (f"exact check: {detail}" if detail else "exact check", sensitivity) if p)
        return f"{statement}: **{verdict}** ({inside})."
    unit = f" {row['unit']}" if isinstance(row["unit"], str) and row["unit"] else ""
    if row["kind"] == "proportion":
        n = int(row["n"]) if np.isfinite(row["n"]) else 0
        estimate = f"{round(row['estimate'] * n)}/{n} = {_format_value(row, row['estimate'])}"
    else:
        estimate = f"{_format_value(row, row['estimate'])}{unit}"
    level = f"{100 * (1 - 2 * float(row['alpha'])):.4g}"
    interval = f"{level} % CI [{_format_value(row, row['ci_low'])}, {_format_value(row, row['ci_high'])}]"
    test = {"wilcoxon": "Wilcoxon", "t": "paired t", "sign": "sign test", "binomial": "binomial"}[row["test"]]
    n = int(row["n"]) if np.isfinite(row["n"]) else 0
    if verdict == "holds":
        p_text = f"Holm p {_format_p(row['p_holm'])}"
    elif verdict == "fails":
        p_text = f"Holm p (claim true) {_format_p(row['p_fail_holm'])}"
    else:
        p_text = f"Holm p {_format_p(row['p_holm'])} (for holds), {_format_p(row['p_fail_holm'])[2:]} (for fails)"
    inside = f"estimate {estimate}, {interval}, {p_text}, {test}, n = {n}"
    if sensitivity:
        inside += f"; {sensitivity}"
    return f"{statement}, {row['criterion']}: **{verdict}** ({inside})."


def verdict_markdown(table: pd.DataFrame, ids=None) -> Markdown:
    """Markdown list of the verdict sentences of ``table`` (all rows, or those of ``ids`` in order).

    Parameters
    ----------
    table : pandas.DataFrame
        A claims table.
    ids : list of str, optional
        The claims shown, in this order (default: all rows).

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
    return Markdown("\n".join(f"* **{row['id']}.** {sentence(row)}" for row in rows))


def _as_table(table, where) -> pd.DataFrame:
    if isinstance(table, (str, Path)):
        table = pd.read_csv(table, dtype={"id": str}, keep_default_na=False, na_values=[""])
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"{where}: table must be a claims DataFrame or the path of its CSV, got {type(table).__name__}")
    missing = [c for c in TABLE_COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(f"{where}: not a claims table, columns {missing} are missing")
    table = table.copy()
    for column in ("statement", "criterion", "unit", "detail", "flips", "sensitivity", "quantity"):
        table[column] = table[column].where(table[column].notna(), "")
    table["id"] = table["id"].astype(str)
    return table


@dataclass
class ClaimsReport:
    """What :func:`evaluate` returns.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per claim (main variant): ``id, statement, kind, test, quantity, criterion,
        direction, margin, unit, digits, n, estimate, ci_low, ci_high, p_raw, p_holm, p_fail_raw,
        p_fail_holm, verdict, detail, robust, flips, sensitivity``.
    sensitivity : pandas.DataFrame
        Long table, one row per (variant, claim), with ``same_as_main``.
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
        """The verdict sentences of every claim (or of ``ids``), a Markdown list.

        Parameters
        ----------
        ids : list of str, optional
            The claims shown, in this order (default: all).

        Returns
        -------
        Markdown
        """
        return verdict_markdown(self.table, ids)

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


def render_readme_section(table, key: str) -> str:
    """The README block of claims table ``table`` (DataFrame or CSV path), between its markers.

    ``<!-- claims:KEY -->``, a line saying where it comes from, the verdict list, ``<!-- /claims:KEY -->``.

    Parameters
    ----------
    table : pandas.DataFrame or path-like
        A claims table or its CSV.
    key : str
        The section's marker key.

    Returns
    -------
    str
    """
    if not isinstance(key, str) or not _MARKER.match(key):
        raise ValueError(f"render_readme_section: key must match {_MARKER.pattern}, got {key!r}")
    source = f" from `{Path(table).name}`" if isinstance(table, (str, Path)) else ""
    body = verdict_markdown(_as_table(table, "render_readme_section")).data
    return (f"<!-- claims:{key} -->\n<!-- generated{source} by companion.claims.update_readme; do not edit -->\n"
            f"{body}\n<!-- /claims:{key} -->")


def _section_span(text: str, key: str, path) -> tuple[int, int] | None:
    start_marker, end_marker = f"<!-- claims:{key} -->", f"<!-- /claims:{key} -->"
    start, end = text.find(start_marker), text.find(end_marker)
    if start < 0 and end < 0:
        return None
    if start < 0 or end < start or text.count(start_marker) > 1 or text.count(end_marker) > 1:
        raise ValueError(f"{path}: the markers of claims section {key!r} are unpaired, repeated or out of order")
    return start, end + len(end_marker)


def update_readme(path, sections: dict, *, glance=None) -> bool:
    """Write each claims section ``{key: table or CSV path}`` into the Markdown file at ``path``.

    Parameters
    ----------
    path : str or pathlib.Path
        The Markdown file (the README, ``docs/results.md``).
    sections : dict
        ``{key: claims table or the path of its CSV}``, e.g. ``{"02": "figures/02_claims.csv"}``.
    glance : dict, optional
        ``{key: [headline claim ids]}``: write instead the one ``<!-- claims:glance -->`` block
        of :func:`render_glance` (verdict counts of every section and the headline sentences).

    Returns
    -------
    bool
        Whether the file changed. A block replaces the text between its markers; a block without
        markers is appended at the end.
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    new = text
    blocks = {"glance": render_glance(sections, glance)} if glance is not None else {
        key: render_readme_section(table, key) for key, table in sections.items()
    }
    for key, block in blocks.items():
        span = _section_span(new, key, path)
        if span is None:
            new = new.rstrip("\n") + "\n\n" + block + "\n"
        else:
            new = new[: span[0]] + block + new[span[1]:]
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text


def stale_readme_sections(path, sections: dict, *, glance=None) -> list[str]:
    """Keys of the blocks of ``path`` that are missing or differ from the committed tables.

    Parameters
    ----------
    path : str or pathlib.Path
        The Markdown file.
    sections : dict
        ``{key: claims table or CSV path}``, as for :func:`update_readme`.
    glance : dict, optional
        ``{key: [headline claim ids]}``: check the ``glance`` block instead.

    Returns
    -------
    list of str
        The stale keys (``["glance"]`` for a stale glance block); a test asserts it is empty.
    """
    text = Path(path).read_text(encoding="utf-8")
    stale = []
    blocks = {"glance": render_glance(sections, glance)} if glance is not None else {
        key: render_readme_section(table, key) for key, table in sections.items()
    }
    for key, block in blocks.items():
        span = _section_span(text, key, path)
        if span is None or text[span[0]: span[1]] != block:
            stale.append(key)
    return stale


def render_glance(sections: dict, headlines: dict | None = None) -> str:
    """The README's results-at-a-glance block: verdict counts per claims table, headline sentences.

    Parameters
    ----------
    sections : dict
        ``{key: claims table or the path of its CSV}``, one per notebook, in display order.
    headlines : dict, optional
        ``{key: [claim ids]}``: the claims of each table whose full verdict sentence is shown.

    Returns
    -------
    str
        ``<!-- claims:glance -->``, a Markdown table (one row per key: claims tested, and how many
        hold, fail, stay undecided; statements the setup guarantees are counted apart, as no
        claim), the headline sentences, ``<!-- /claims:glance -->``.
    """
    headlines = headlines or {}
    lines = [
        "<!-- claims:glance -->",
        "<!-- generated from figures/NN_claims.csv by companion.claims.update_readme; do not edit -->",
        "| notebook | claims | holds | fails | undecided | guaranteed by the setup (no claim) |",
        "|---|---|---|---|---|---|",
    ]
    bullets = []
    for key, source in sections.items():
        table = _as_table(source, "render_glance")
        counts = table["verdict"].value_counts()
        guaranteed = int((table["kind"] == "guaranteed").sum())
        lines.append(
            f"| {key} | {len(table) - guaranteed} | {int(counts.get('holds', 0))} | {int(counts.get('fails', 0))} "
            f"| {int(counts.get('undecided', 0)) + int(counts.get('n/a', 0))} | {guaranteed} |"
        )
        for row in verdict_markdown(table, headlines.get(key, [])).data.splitlines() if headlines.get(key) else []:
            bullets.append(row.replace("* **", f"* **{key} ", 1))
    body = "\n".join(lines) + ("\n\n" + "\n".join(bullets) if bullets else "")
    return body + "\n<!-- /claims:glance -->"


def publish(root=None, *, headlines: dict | None = None) -> list[str]:
    """Write every notebook's claims into ``docs/results.md`` (full) and the README (glance).

    Parameters
    ----------
    root : str or pathlib.Path, optional
        The checkout (default :data:`companion.paths.ROOT`); the tables are
        ``root/figures/NN_claims.csv``.
    headlines : dict, optional
        ``{key: [claim ids]}`` for the README; default each experiments module's
        ``HEADLINE_CLAIMS``.

    Returns
    -------
    list of str
        The files that changed. The default ``make reproduce`` run calls it after the notebooks.
    """
    from companion.paths import ROOT

    root = Path(root) if root is not None else ROOT
    sections = {path.name[:2]: path for path in sorted((root / "figures").glob("[0-9][0-9]_claims.csv"))}
    if headlines is None:
        headlines = headline_claims(sections)
    changed = []
    for target, glance in ((root / "docs" / "results.md", None), (root / "README.md", headlines)):
        if update_readme(target, sections, glance=glance):
            changed.append(str(target.relative_to(root)))
    return changed


def headline_claims(keys) -> dict:
    """``{key: HEADLINE_CLAIMS of companion.experiments.paperNN}`` for each key that declares them.

    Parameters
    ----------
    keys : iterable of str
        Notebook numbers (``"02"``).

    Returns
    -------
    dict
        The headline claim ids of each notebook whose protocol module declares them.
    """
    from importlib import import_module

    found = {}
    for key in keys:
        try:
            module = import_module(f"companion.experiments.paper{key}")
        except ImportError:
            continue
        if getattr(module, "HEADLINE_CLAIMS", None):
            found[key] = list(module.HEADLINE_CLAIMS)
    return found
