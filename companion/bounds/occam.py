"""Occam's razor bound for conjunctions of decision stumps (Paper 05, Section III, Theorems 1–2).

Langford's (2005) Occam's razor bound (Theorem 1 of Paper 05): for any sub-prior ``P`` over a
countable class and any ``δ ∈ (0, 1]``, with probability at least ``1 − δ`` every ``f`` satisfies
``R(f) ≤ Bin‾(m R_S(f), m, P(f) δ)``.

For stump conjunctions the class is made countable by coding each threshold with a dyadic message
(Paper 05, Section III: the prior of Eq. 1 with the dyadic threshold code and the distribution
``ζ`` of its string lengths; our copy of the paper lost the display equations, so the formula
below is reconstructed from the text around them):

.. math::

    P(\\mathbf{k}, \\mathbf{d}, \\sigma) = \\zeta(|\\mathbf{k}|)\\,\\binom{n}{|\\mathbf{k}|}^{-1}
        2^{-|\\mathbf{k}|} \\prod_{i \\in \\mathbf{k}} \\zeta(l_i)\\, 2^{-l_i},
    \\qquad \\zeta(a) = \\frac{6}{\\pi^2}(a+1)^{-2},

where ``l_i`` is the length of the code of threshold ``i``: the smallest ``l`` for which the dyadic
set ``Λ_l = {A + (B−A)(2j−1)/2^{l+1} : j = 1..2^l}`` has a point inside the interval of equally good
thresholds (so at most ``⌊log₂((B−A)/(b−a))⌋`` bits, the paper's claim).

>>> dyadic_code(0.30, 0.45, 0.0, 1.0)
(2, 0.375)
>>> round(float(occam_bound(5, 62, 2000, [3, 5])), 5)
0.56443
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import validate_params

from companion.bounds.binomial import binomial_tail_inversion, log_choose
from companion.bounds._confidence import (
    ATTRIBUTES_CONSTRAINTS, DELTA_CONSTRAINTS, NON_NEGATIVE_CONSTRAINTS, NUMBERS_CONSTRAINTS, resolve_log_delta,
)
from companion.numerics import StrictInterval

_MAX_CODE_LENGTH = 60  # 2^-61 of the range is below double resolution of any interval we code

__all__ = [
    "zeta",
    "log_zeta",
    "dyadic_code",
    "dyadic_code_lengths",
    "threshold_code_cost",
    "log_attribute_choices",
    "occam_log_prior",
    "occam_bound",
]


@validate_params({"a": NON_NEGATIVE_CONSTRAINTS}, prefer_skip_nested_validation=True)
def log_zeta(a):
    """``ln ζ(a) = ln(6/π²) − 2 ln(a+1)`` for integers ``a ≥ 0`` (Paper 05, Section III).

    The distribution ``ζ`` the prior puts on the number of stumps and on each code length.

    Parameters
    ----------
    a : int or array-like of int
        Counts, ``a >= 0``.

    Returns
    -------
    numpy.ndarray or float
        ``ln ζ(a)``, elementwise.
    """
    return _log_zeta(a, "log_zeta")


def _log_zeta(a, caller):
    """:func:`log_zeta`, the values of an array checked in the name of ``caller``."""
    a = np.asarray(a, dtype=float)
    if np.any(a < 0):
        raise ValueError(f"{caller}: zeta is defined for a >= 0, got {a!r}")
    return np.log(6.0 / np.pi**2) - 2.0 * np.log1p(a)


@validate_params({"a": NON_NEGATIVE_CONSTRAINTS}, prefer_skip_nested_validation=True)
def zeta(a):
    """``ζ(a) = (6/π²)(a+1)^{-2}``; ``Σ_{a≥0} ζ(a) = 1`` (Paper 05, Section III).

    Parameters
    ----------
    a : int or array-like of int
        Counts, ``a >= 0``.

    Returns
    -------
    numpy.ndarray or float
        ``ζ(a)``, elementwise.
    """
    return np.exp(_log_zeta(a, "zeta"))


@validate_params(
    {**dict.fromkeys(("a", "b", "low", "high"), NUMBERS_CONSTRAINTS), "closed": ["boolean"]},
    prefer_skip_nested_validation=True,
)
def dyadic_code_lengths(a, b, low, high, *, closed=True):
    """Smallest ``l`` with a point of ``Λ_l`` in ``[a, b]`` (or ``[a, b)``), and that point.

    Vectorised over arrays of intervals (the coding scheme of Paper 05, Section III): ``Λ_l``
    holds the odd multiples of
    ``h = (high − low)/2^{l+1}`` above ``low``; the test for a point in the interval is the closed
    form ``j_min ≤ j_max`` on the index ``j`` of ``low + h(2j − 1)``.

    Parameters
    ----------
    a, b : array-like
        Interval ends, ``low <= a <= b <= high``.
    low, high : array-like
        The a-priori range ``[A, B]`` of the attribute (fixed before seeing labels).
    closed : bool, default=True
        Whether ``b`` belongs to the interval. The learner uses half-open intervals
        ``[u_c, u_{c+1})``: a stump ``x > t`` classifies the training set identically for every
        ``t`` in it, but not at ``t = u_{c+1}``.

    Returns
    -------
    lengths : numpy.ndarray of int
        Code lengths; ``-1`` where no ``Λ_l`` with ``l ≤ 60`` meets the interval (empty interval).
    thresholds : numpy.ndarray of float
        The coded threshold (smallest point of ``Λ_l`` in the interval); NaN where length is -1.
    """
    return _dyadic_code_lengths(a, b, low, high, closed, "dyadic_code_lengths")


def _dyadic_code_lengths(a, b, low, high, closed, caller):
    """:func:`dyadic_code_lengths`, its checks of the intervals naming ``caller``."""
    given = (a, b, low, high)
    a, b, low, high = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in given))
    if np.any(high <= low):
        raise ValueError(f"{caller}: the attribute range must satisfy high > low, got low={given[2]!r}, high={given[3]!r}")
    if np.any(a < low) or np.any(b > high) or np.any(a > b):
        raise ValueError(
            f"{caller}: interval [a, b] must satisfy low <= a <= b <= high, got a={given[0]!r}, b={given[1]!r}, "
            f"low={given[2]!r}, high={given[3]!r}"
        )
    lengths = np.full(a.shape, -1, dtype=np.int64)
    thresholds = np.full(a.shape, np.nan)
    # Only non-empty intervals can be coded; work on the still-uncoded ones only.
    pending = np.flatnonzero((b >= a) if closed else (b > a))
    a_f, b_f, low_f, width_f = a.ravel(), b.ravel(), low.ravel(), (high - low).ravel()
    len_f, thr_f = lengths.reshape(-1), thresholds.reshape(-1)
    for level in range(_MAX_CODE_LENGTH + 1):  # loop over code lengths, vectorised over intervals
        if pending.size == 0:
            break
        lo, aa, bb = low_f[pending], a_f[pending], b_f[pending]
        h = width_f[pending] / 2.0 ** (level + 1)
        # j_min: first odd multiple at or above a; j_max: last one at or below b (below b if open).
        j_min = np.maximum(1.0, np.ceil(((aa - lo) / h + 1.0) / 2.0))
        upper = ((bb - lo) / h + 1.0) / 2.0
        j_max = np.floor(upper) if closed else np.ceil(upper) - 1.0
        j_max = np.minimum(2.0**level, j_max)
        point = lo + h * (2.0 * j_min - 1.0)
        # Guard the closed form against rounding: the point must really lie in the interval.
        inside = (point >= aa) & ((point <= bb) if closed else (point < bb))
        hit = (j_min <= j_max) & inside
        len_f[pending[hit]] = level
        thr_f[pending[hit]] = point[hit]
        pending = pending[~hit]
    return lengths, thresholds


@validate_params(
    {**dict.fromkeys(("a", "b", "low", "high"), [Real]), "closed": ["boolean"]}, prefer_skip_nested_validation=True
)
def dyadic_code(a, b, low, high, *, closed=True):
    """Scalar version of :func:`dyadic_code_lengths`: ``(l, t)`` for one interval.

    Parameters
    ----------
    a, b : float
        Interval ends, ``low <= a <= b <= high``.
    low, high : float
        The a-priori range ``[A, B]`` of the attribute.
    closed : bool, default=True
        Whether ``b`` belongs to the interval.

    Returns
    -------
    length : int
        Code length ``l`` (``-1``: the interval is empty).
    threshold : float
        The coded threshold (NaN when ``length`` is -1).

    Examples
    --------
    >>> dyadic_code(0.10, 0.12, 0.0, 1.0)
    (5, 0.109375)
    >>> dyadic_code(3.0, 3.9, 0.0, 16.0)
    (3, 3.0)
    """
    lengths, thresholds = _dyadic_code_lengths(a, b, low, high, closed, "dyadic_code")
    return int(lengths), float(thresholds)


@validate_params({"lengths": NON_NEGATIVE_CONSTRAINTS}, prefer_skip_nested_validation=True)
def threshold_code_cost(lengths):
    """Nats the Occam prior charges for one threshold message: ``l ln 2 − ln ζ(l)`` (Paper 05, Section III).

    Parameters
    ----------
    lengths : int or array-like of int
        Code lengths ``l >= 0``.

    Returns
    -------
    numpy.ndarray or float
        ``l ln 2 − ln ζ(l)``, elementwise.
    """
    lengths = np.asarray(lengths, dtype=float)
    return lengths * np.log(2.0) - _log_zeta(lengths, "threshold_code_cost")


@validate_params(
    {"size": [StrictInterval(Integral, 0, None, closed="left")], **ATTRIBUTES_CONSTRAINTS},
    prefer_skip_nested_validation=True,
)
def log_attribute_choices(n_features, size, *, reuse_features=False):
    """``ln`` of the number of attribute choices a prior spreads its mass over uniformly.

    The paper's priors (Theorems 2-4) use each attribute at most once: ``C(n, |k|)`` attribute
    *sets*. A learner that may put several stumps on one attribute (``reuse_features=True``,
    pyscm-ml's behaviour) chooses a *multiset*, and a prior fixed before seeing the data must cover
    all ``C(n + |k| - 1, |k|)`` of them; with that count every bound below stays valid for it (and
    ``|k|`` may exceed ``n``). Directions and thresholds are coded per stump as before.

    Parameters
    ----------
    n_features : int
        ``n``, the number of attributes, ``>= 1``.
    size : int
        ``|k|``, the number of stumps.
    reuse_features : bool, default=False
        Count multisets ``C(n + |k| − 1, |k|)`` instead of sets ``C(n, |k|)``.

    Returns
    -------
    float
        The log of the count.

    Examples
    --------
    >>> round(log_attribute_choices(3, 2), 6), round(log_attribute_choices(3, 2, reuse_features=True), 6)
    (1.098612, 1.791759)
    """
    if not reuse_features and n_features < size:
        raise ValueError(
            f"n_features must be an integer >= the number of stumps ({size}) when each attribute "
            f"carries at most one stump, got {n_features!r} (pass reuse_features=True otherwise)"
        )
    return float(log_choose(n_features + size - 1, size) if reuse_features else log_choose(n_features, size))


@validate_params({"code_lengths": ["array-like"], **ATTRIBUTES_CONSTRAINTS}, prefer_skip_nested_validation=True)
def occam_log_prior(n_features, code_lengths, *, reuse_features=False):
    """``ln P(k, d, σ)`` of Theorem 2 for a conjunction whose stumps have the given code lengths.

    Parameters
    ----------
    n_features : int
        ``n``, the number of attributes the conjunction could have used (all genes, even if a
        label-dependent filter narrowed the search: the bound holds uniformly over the class).
    code_lengths : sequence of int
        ``l_i`` for each stump; its length is ``|k|``.
    reuse_features : bool, default=False
        Count attribute multisets instead of sets (:func:`log_attribute_choices`).

    Returns
    -------
    float
        ``ln ζ(|k|) − ln C(n, |k|) − |k| ln 2 + Σ_i (ln ζ(l_i) − l_i ln 2)``.
    """
    return _occam_log_prior(n_features, code_lengths, reuse_features, "occam_log_prior")


def _occam_log_prior(n_features, code_lengths, reuse_features, caller):
    """:func:`occam_log_prior`, its check of the code lengths naming ``caller``."""
    lengths = np.asarray(code_lengths, dtype=float).reshape(-1)
    if np.any(lengths < 0) or np.any(lengths != np.round(lengths)):
        raise ValueError(f"{caller}: code_lengths must be non-negative integers, got {code_lengths!r}")
    size = lengths.size
    return float(
        log_zeta(size) - log_attribute_choices(n_features, size, reuse_features=reuse_features) - size * np.log(2.0)
        - threshold_code_cost(lengths).sum()
    )


@validate_params(
    {
        "n_errors": [StrictInterval(Integral, 0, None, closed="left")],
        "m": [StrictInterval(Integral, 1, None, closed="left")],
        "code_lengths": ["array-like"],
        "delta": DELTA_CONSTRAINTS,
        **ATTRIBUTES_CONSTRAINTS,
    },
    prefer_skip_nested_validation=True,
)
def occam_bound(n_errors, m, n_features, code_lengths, delta=0.05, *, reuse_features=False):
    """Theorem 2 of Paper 05: ``Bin‾(m R_S, m, P(k,d,σ) δ)`` (display reconstructed, module docstring).

    Parameters
    ----------
    n_errors : int
        Training errors of the conjunction with the *coded* thresholds.
    m : int
        Number of training examples.
    n_features : int
        Number of attributes ``n``.
    code_lengths : sequence of int
        Dyadic code length of each stump's threshold.
    delta : float, default=0.05
        Confidence parameter in ``(0, 1]``.
    reuse_features : bool, default=False
        The conjunction may put several stumps on one attribute (:func:`log_attribute_choices`).

    Returns
    -------
    float
        Upper bound on the true risk, holding with probability ``≥ 1 − δ``.

    Examples
    --------
    >>> round(float(occam_bound(0, 62, 2000, [0])), 6)
    0.197889
    >>> round(float(occam_bound(2, 72, 7129, [2])), 6)
    0.289903
    """
    ld = resolve_log_delta(delta)
    log_prior = _occam_log_prior(n_features, code_lengths, reuse_features, "occam_bound")
    return float(binomial_tail_inversion(n_errors, m, log_delta=float(ld) + log_prior))
