"""Binomial tail and its exact inversion (Langford 2005), the building block of the Occam bound.

Paper 05 (Shah, Marchand & Corbeil, TPAMI 2012), Section III: "``Bin(κ, m, r)`` is the probability
that this classifier makes at most κ errors on a set of m examples", and the *binomial tail
inversion* ``Bin‾(κ, m, δ)`` "gives the largest risk value that a classifier can have while still
having a probability of at least δ of observing at most κ errors out of m examples":

.. math::

    \\mathrm{Bin}(\\kappa, m, r) = \\sum_{i=0}^{\\kappa} \\binom{m}{i} r^i (1-r)^{m-i},\\qquad
    \\overline{\\mathrm{Bin}}(\\kappa, m, \\delta) = \\sup\\{r \\in [0,1] : \\mathrm{Bin}(\\kappa, m, r) \\ge \\delta\\}.

The Occam bound evaluates the inversion at ``δ · P(f)`` where the prior ``P(f)`` can be far below
the smallest double (``n ≈ 7000`` genes and tens of stumps), so everything here accepts the
confidence in log space (``log_delta``) and computes the tail as a log-sum-exp.

The inversion is a fixed-length bisection on the monotone predicate ``log Bin(κ, m, r) ≥ log δ``:
after 64 halvings of ``[0, 1]`` the bracket is below double resolution (accuracy far better than
1e-9), and because every call inspects the same dyadic points, the result is *exactly* monotone
(non-decreasing in κ, non-increasing in δ) — no rounding can break the ordering a bound needs.

>>> round(float(binomial_tail_inversion(0, 100, 0.05)), 10)
0.0295130496
>>> round(float(binomial_tail_inversion(5, 62, 0.05)), 10)
0.1621130168
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from scipy.special import bdtr, bdtrc, gammaln, logsumexp
from sklearn.utils._param_validation import validate_params

from companion.bounds._confidence import (
    DELTA_CONSTRAINTS, NON_NEGATIVE_CONSTRAINTS, RISK_CONSTRAINTS, resolve_log_delta,
)
from companion.numerics import StrictInterval

__all__ = [
    "log_choose",
    "log_binomial_tail",
    "binomial_tail",
    "binomial_tail_inversion",
    "test_set_bound",
]

_BISECTION_STEPS = 64

#: A number of errors and a number of examples, for scikit-learn's ``validate_params``: numbers or
#: arrays of them (the bounds broadcast), whole numbers (``3.0`` counts), which
#: :func:`_check_counts` checks with the values of an array and ``errors <= examples``.
_ERRORS = NON_NEGATIVE_CONSTRAINTS
_EXAMPLES = [StrictInterval(Real, 1, None, closed="left"), "array-like"]
#: The arguments of the binomial tail ``Bin(k, m, r)``; ``r`` a risk in ``[0, 1]``.
_TAIL = {"k": _ERRORS, "m": _EXAMPLES, "r": RISK_CONSTRAINTS}


def _check_counts(k, m, caller, *, k_name="k", m_name="m"):
    """What the constraints cannot say: whole numbers (an array's values too), and ``k <= m``."""
    k_arr = np.asarray(k, dtype=float)
    m_arr = np.asarray(m, dtype=float)
    if np.any(~np.isfinite(k_arr)) or np.any(k_arr != np.round(k_arr)) or np.any(k_arr < 0):
        raise ValueError(f"{caller}: {k_name} must be a non-negative whole number of errors, got {k!r}")
    if np.any(~np.isfinite(m_arr)) or np.any(m_arr != np.round(m_arr)) or np.any(m_arr < 1):
        raise ValueError(f"{caller}: {m_name} must be a positive whole number of examples, got {m!r}")
    if np.any(k_arr > m_arr):
        raise ValueError(f"{caller}: {k_name} (errors) cannot exceed {m_name} (examples): got {k!r} > {m!r}")
    return k_arr.astype(np.int64), m_arr.astype(np.int64)


@validate_params({"n": NON_NEGATIVE_CONSTRAINTS, "k": NON_NEGATIVE_CONSTRAINTS}, prefer_skip_nested_validation=True)
def log_choose(n, k):
    """``ln C(n, k)`` via log-gamma, on scalars or arrays (exact enough for n in the tens of thousands).

    The one log-binomial of :mod:`companion.bounds`: every bound counts its choices with it.

    Parameters
    ----------
    n, k : float or array-like
        ``0 <= k <= n`` (whole numbers for a binomial coefficient; reals give the Γ extension).

    Returns
    -------
    numpy.ndarray or float
        ``ln Γ(n + 1) − ln Γ(k + 1) − ln Γ(n − k + 1)``.

    Examples
    --------
    >>> round(float(log_choose(10, 3)), 12) == round(float(np.log(120)), 12)
    True
    """
    n = np.asarray(n, dtype=float)
    k = np.asarray(k, dtype=float)
    return gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1)


def _log_tail(k: int, m: int, r: np.ndarray) -> np.ndarray:
    """log Bin(k, m, r) for scalar ``k, m`` and an array of ``r`` (log-sum-exp over i = 0..k)."""
    r = np.asarray(r, dtype=float)
    if k >= m:
        return np.zeros_like(r)
    i = np.arange(k + 1, dtype=float)
    log_comb = log_choose(m, i)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_r = np.log(r)[..., None]
        log_1mr = np.log1p(-r)[..., None]
        terms = log_comb + i * log_r + (m - i) * log_1mr
    # 0 * log 0 = 0 (the i = 0 term at r = 0 and the i = m term at r = 1).
    terms = np.where((i == 0) & (r[..., None] == 0), log_comb + (m - i) * log_1mr, terms)
    out = logsumexp(terms, axis=-1)
    return np.where(r <= 0, 0.0, np.where(r >= 1, -np.inf, out))


@validate_params(_TAIL, prefer_skip_nested_validation=True)
def log_binomial_tail(k, m, r):
    """Natural log of ``Bin(k, m, r)``, the probability of at most ``k`` errors among ``m``.

    Parameters
    ----------
    k : int or array-like of int
        Number of errors, ``0 <= k <= m``.
    m : int or array-like of int
        Number of examples, ``m >= 1``.
    r : float or array-like
        True risk in ``[0, 1]``.

    Returns
    -------
    numpy.ndarray or float
        ``log Bin(k, m, r)``; ``0`` at ``r = 0`` and ``-inf`` at ``r = 1`` when ``k < m``.
    """
    return _log_binomial_tail(k, m, r, "log_binomial_tail")


def _log_binomial_tail(k, m, r, caller):
    """:func:`log_binomial_tail`, its checks naming ``caller``."""
    k_arr, m_arr = _check_counts(k, m, caller)
    r_arr = np.asarray(r, dtype=float)
    if np.any(np.isnan(r_arr)) or np.any(r_arr < 0) or np.any(r_arr > 1):
        raise ValueError(f"{caller}: r (a risk) must lie in [0, 1], got {r!r}")
    k_b, m_b, r_b = np.broadcast_arrays(k_arr, m_arr, r_arr)
    out = np.empty(r_b.shape, dtype=float)
    for idx in np.ndindex(r_b.shape):  # loops over bound evaluations, never over examples
        out[idx] = _log_tail(int(k_b[idx]), int(m_b[idx]), np.asarray(r_b[idx]))
    return out[()] if out.ndim == 0 else out


@validate_params(_TAIL, prefer_skip_nested_validation=True)
def binomial_tail(k, m, r):
    """``Bin(k, m, r) = Σ_{i≤k} C(m,i) r^i (1−r)^{m−i}`` (Paper 05, Section III).

    Parameters
    ----------
    k : int or array-like of int
        Number of errors, ``0 <= k <= m``.
    m : int or array-like of int
        Number of examples.
    r : float or array-like
        True risk in ``[0, 1]``.

    Returns
    -------
    numpy.ndarray or float
        The probability of at most ``k`` errors among ``m``.
    """
    return np.exp(_log_binomial_tail(k, m, r, "binomial_tail"))


@validate_params(
    {
        "k": _ERRORS,
        "m": _EXAMPLES,
        "delta": DELTA_CONSTRAINTS + [None],
        "log_delta": [StrictInterval(Real, None, 0, closed="right"), "array-like", None],
    },
    prefer_skip_nested_validation=True,
)
def binomial_tail_inversion(k, m, delta=None, *, log_delta=None):
    """Exact binomial tail inversion ``Bin‾(k, m, δ) = sup{r : Bin(k, m, r) ≥ δ}``.

    Parameters
    ----------
    k : int or array-like of int
        Number of observed errors, ``0 <= k <= m``.
    m : int or array-like of int
        Number of examples.
    delta : float or array-like, optional
        Confidence in ``(0, 1]``. Give this **or** ``log_delta``.
    log_delta : float or array-like, optional
        ``log δ`` (any value ``<= 0``, e.g. ``-5000``), for the Occam bound's tiny ``δ·P(f)``.

    Returns
    -------
    numpy.ndarray or float
        The upper end of the bisection bracket (never below the supremum); ``1`` when ``k = m``.
        Equals the Clopper–Pearson upper limit ``BetaInv(1−δ; k+1, m−k)`` to ~1e-15.

    Raises
    ------
    ValueError
        If ``k``/``m`` are not whole counts with ``k <= m``, or ``δ ∉ (0, 1]``.
    TypeError
        If neither or both of ``delta`` and ``log_delta`` are given.

    Examples
    --------
    >>> round(float(binomial_tail_inversion(10, 72, 0.05)), 10)
    0.2241926773
    >>> float(binomial_tail_inversion(3, 3, 0.5))
    1.0
    """
    k_arr, m_arr = _check_counts(k, m, "binomial_tail_inversion")
    ld = resolve_log_delta(delta, log_delta, caller="binomial_tail_inversion")
    k_b, m_b, ld_b = (np.array(v, dtype=float).reshape(-1) for v in np.broadcast_arrays(k_arr, m_arr, ld))
    shape = np.broadcast_shapes(k_arr.shape, m_arr.shape, np.shape(ld))
    lo = np.zeros(k_b.shape)
    hi = np.ones(k_b.shape)
    for _ in range(_BISECTION_STEPS):  # all requested inversions bisected together
        mid = 0.5 * (lo + hi)
        ok = _tail_at_least(k_b, m_b, mid, ld_b)
        lo = np.where(ok, mid, lo)
        hi = np.where(ok, hi, mid)
    # Bin(m, m, r) = 1 for every r; with delta = 1 only r = 0 reaches Bin >= 1 when k < m.
    out = np.where(k_b >= m_b, 1.0, np.where(ld_b >= 0, 0.0, hi)).reshape(shape)
    return out[()] if out.ndim == 0 else out


def _tail_at_least(k, m, r, log_delta):
    """Predicate ``Bin(k, m, r) >= δ``, evaluated where it is accurate.

    For ``δ > 1/2`` the complement ``1 − Bin = bdtrc`` is compared with ``1 − δ = −expm1(log δ)``:
    a tail close to 1 carries only ~1e-16 absolute precision, its complement keeps full relative
    precision (otherwise ``δ = 1 − 1e-16`` would be inverted with an error of ~1e-8).
    """
    upper = log_delta > np.log(0.5)
    out = np.empty(k.shape, dtype=bool)
    if upper.any():
        ku, mu = k[upper].astype(np.int64), m[upper].astype(np.int64)
        out[upper] = bdtrc(ku, mu, r[upper]) <= -np.expm1(log_delta[upper])
    lower = ~upper
    if lower.any():
        out[lower] = _log_tail_many(k[lower], m[lower], r[lower]) >= log_delta[lower]
    return out


def _log_tail_many(k, m, r):
    """Vectorised log Bin(k, m, r): scipy's ``bdtr`` where it is representable, log-sum-exp else."""
    with np.errstate(divide="ignore"):
        out = np.log(bdtr(k.astype(np.int64), m.astype(np.int64), r))
    tiny = out < -600.0  # ``bdtr`` underflows near 1e-308: recompute those exactly in log space
    for idx in np.flatnonzero(tiny):  # only for confidences below ~1e-260, a few bound values
        out[idx] = _log_tail(int(k[idx]), int(m[idx]), np.asarray(r[idx]))
    return out


@validate_params({"n_errors": _ERRORS, "m": _EXAMPLES, "delta": DELTA_CONSTRAINTS}, prefer_skip_nested_validation=True)
def test_set_bound(n_errors, m, delta=0.05):
    """Test-set bound ``Bin‾(m R_S(f), m, δ)`` on the risk of a classifier fixed before the test set.

    Parameters
    ----------
    n_errors : int or array-like of int
        Errors on the test set.
    m : int or array-like of int
        Test-set size.
    delta : float, default=0.05
        Confidence in ``(0, 1]``.

    Returns
    -------
    numpy.ndarray or float
        The bound (:func:`binomial_tail_inversion`).
    """
    _check_counts(n_errors, m, "test_set_bound", k_name="n_errors")
    return binomial_tail_inversion(n_errors, m, delta)


test_set_bound.__test__ = False  # not a pytest test despite its name
