"""The statistics of the claims engine: Holm, the exact Wilcoxon signed-rank test and its
Hodges–Lehmann interval, exact binomial tails and the Clopper–Pearson interval, and the paired
location tests (:func:`location_test`) the verdicts are read from."""

from __future__ import annotations

import math
from fractions import Fraction
from numbers import Integral, Rational

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.utils._param_validation import validate_params, validate_parameter_constraints

from companion.numerics import TIE_RTOL, StrictInterval


#: One-sided level of every test; the intervals are two-sided at ``1 − 2·ALPHA`` (95 %).
ALPHA = 0.025


#: Largest number of non-zero differences whose Wilcoxon p is counted exactly (normal beyond).
_EXACT_MAX = 400


ZERO_METHODS = ("pratt", "zsplit", "wilcox")


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


def as_values(values, name: str):
    """1-D array of the values: an object array of Fractions when every entry is rational, else float."""
    if isinstance(values, (pd.Series, pd.Index)):
        values = values.to_numpy()
    array = np.asarray(values, dtype=object if all_rational(values) else None)
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


def all_rational(values) -> bool:
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
    if zero_method not in ZERO_METHODS:
        raise ValueError(f"wilcoxon_test: zero_method must be one of {ZERO_METHODS}, got {zero_method!r}")
    x = as_values(x, "wilcoxon_test: x")
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
    x = as_values(x, "hodges_lehmann: x")
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
    return binomial_tails([k], n, p0, upper=upper)[0]


def binomial_tails(ks, n: int, p0: float, *, upper: bool) -> list[float]:
    """:func:`binomial_tail` at every count of ``ks`` for the same ``n`` and ``p0``: the terms summed once.

    Parameters
    ----------
    ks : sequence of int
        The observed counts (any order, repeats allowed).
    n : int
        Trials.
    p0 : float
        Success probability under the null (its float's exact rational value).
    upper : bool
        ``True`` for ``P(K ≥ k)``, ``False`` for ``P(K ≤ k)``.

    Returns
    -------
    list of float
        One tail per count, in the order of ``ks``; each the float :func:`binomial_tail` gives.

    Examples
    --------
    >>> binomial_tails([7, 10, 0], 10, 0.5, upper=True)
    [0.171875, 0.0009765625, 1.0]
    """
    # in integers: with p0 = a / b exactly, a tail is Σ C(n, i) a^i (b − a)^(n − i) / b^n, one exact
    # division rounded once (the same float as the sum of the terms as fractions, without a gcd per
    # term); the integer terms are made once and summed cumulatively from the tail's far end
    n = int(n)
    # a count beyond 0..n has the tail of the nearest end (upper: P(K ≥ k) = 1 for k ≤ 0, 0 for k > n)
    ks = [max(int(k), 0) if upper else min(int(k), n) for k in ks]
    if not ks:
        return []
    q = Fraction(p0)
    a, c = q.numerator, q.denominator - q.numerator
    lo, hi = (min(ks), n) if upper else (0, max(ks))
    # term i = C(n, i) a^i c^(n - i), for i in lo..hi
    terms = [math.comb(n, i) * a**i * c ** (n - i) for i in range(lo, hi + 1)] if hi >= lo else []
    sums = {}
    total = 0
    order = range(len(terms) - 1, -1, -1) if upper else range(len(terms))
    for j in order:
        total += terms[j]
        sums[lo + j] = total
    scale = q.denominator**n
    return [float(Fraction(sums.get(k, 0), scale)) for k in ks]


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
    check_count(k, n, "clopper_pearson")
    tail = (1 - confidence) / 2
    low = 0.0 if k == 0 else float(stats.beta.ppf(tail, k, n - k + 1))
    high = 1.0 if k == n else float(stats.beta.ppf(1 - tail, k + 1, n - k))
    return low, high


def check_count(k, n, where):
    validate_parameter_constraints(_COUNTS, {"k": k, "n": n}, caller_name=where)
    if n < 1 or not 0 <= k <= n:
        raise ValueError(f"{where}: need 0 <= k <= n and n >= 1, got k={k!r}, n={n!r}")


def corrected_t(d, groups, ratios, margin=0.0, confidence=1 - 2 * ALPHA):
    """Nadeau and Bengio's (2003) corrected resampled t over the folds of one or more cross-validations.

    The folds of one cross-validation share training examples, so their differences are
    correlated; Nadeau and Bengio replace the variance ``s²/J`` of the mean of ``J`` folds by
    ``(1/J + n_test/n_train) s²``. Per group ``g`` (the folds of one data set): the mean
    ``d̄_g`` and its corrected variance ``v_g = (1/J_g + r_g) s_g²`` (``r_g`` the mean of the
    folds' ``n_test / n_train``); groups are independent, so the mean of the group means has
    variance ``Σ v_g / G²``, with Satterthwaite's degrees of freedom.

    Parameters
    ----------
    d : array-like
        Paired differences, one per fold.
    groups : array-like
        The group (cross-validation) of each difference.
    ratios : array-like
        Each fold's ``n_test / n_train``.
    margin : float, default=0.0
    confidence : float, default=0.95

    Returns
    -------
    estimate, low, high, p_less, p_greater : float
        The mean of the group means, its interval, and the one-sided p-values against ``margin``.

    Examples
    --------
    >>> est, low, high, p_less, p_greater = corrected_t([-1, -2, 0, -1, -3, -1], [0, 0, 0, 1, 1, 1], [0.5] * 6)
    >>> round(est, 3), round(p_less, 3)
    (-1.333, 0.065)
    """
    x = np.array([float(v) for v in d])
    groups, r = np.asarray(groups), np.asarray(ratios, dtype=float)
    if not (len(x) == len(groups) == len(r)):
        raise ValueError(f"corrected_t: differences, groups and ratios differ in length: {len(x)}, {len(groups)}, "
                         f"{len(r)}")
    means, variances, dfs = [], [], []
    for g in dict.fromkeys(groups.tolist()):
        part = groups == g
        J = int(part.sum())
        if J < 2:
            raise ValueError(f"corrected_t: group {g!r} has {J} value; each needs at least 2")
        means.append(float(x[part].mean()))
        variances.append((1 / J + float(r[part].mean())) * float(np.var(x[part], ddof=1)))
        dfs.append(J - 1)
    G = len(means)
    estimate = float(np.mean(means))
    var = float(np.sum(variances)) / G**2
    se = math.sqrt(var)
    if se <= TIE_RTOL * max(1.0, abs(estimate)):  # constant differences within every group: exact
        side = (estimate > margin) - (estimate < margin)
        p_less, p_greater = (0.0, 1.0) if side < 0 else (1.0, 0.0) if side > 0 else (1.0, 1.0)
        return estimate, estimate, estimate, p_less, p_greater
    df = float(np.sum(variances)) ** 2 / sum(v**2 / f for v, f in zip(variances, dfs) if v > 0)
    q = float(stats.t.ppf(1 - (1 - confidence) / 2, df))
    t = (estimate - margin) / se
    return (estimate, estimate - q * se, estimate + q * se, float(stats.t.cdf(t, df)), float(stats.t.sf(t, df)))


def location_test(d, margin, test, zero_method, confidence, groups=None, ratios=None):
    """Estimate, interval, and one-sided p-values (less, greater) of ``location(d)`` against ``margin``.

    ``test="corrected_t"`` needs ``groups`` and ``ratios`` (:func:`corrected_t`)."""
    n = len(d)
    if test == "corrected_t":
        return corrected_t(d, groups, ratios, margin, confidence)
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
