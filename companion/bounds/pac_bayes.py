"""PAC-Bayes bound for stochastic conjunctions of decision stumps (Paper 05, Section V).

Theorem 4 of Paper 05 (McAllester 2003; Langford 2005; Seeger 2002; our copy of the paper lost
the display, so it is restated from those sources): with probability ``≥ 1 − δ``, for every
posterior ``Q``,

.. math::

    \\mathrm{kl}\\big(R_S(G_Q)\\,\\|\\,R(G_Q)\\big) \\le \\frac{1}{m}\\Big[\\mathrm{KL}(Q\\|P) + \\ln\\frac{m+1}{\\delta}\\Big].

``Q`` keeps the attribute set ``k`` and directions ``d`` fixed and draws each threshold ``t_k``
uniformly in a margin interval ``[a_k, b_k]``; the prior draws it uniformly in ``[A_k, B_k]``, so
(Paper 05, Section V; the discrete part as the Occam prior of Section III)

.. math::

    \\mathrm{KL}(Q\\|P) = \\ln\\binom{n}{|k|} - \\ln\\zeta(|k|) + |k|\\ln 2
        + \\sum_{k} \\ln\\frac{B_k - A_k}{b_k - a_k}.

The Gibbs risk uses the piecewise-linear ``σ`` (Paper 05, Section V): ``σ^{+1}_{a,b}(x)`` is 0 below ``a``,
``(x−a)/(b−a)`` inside and 1 above ``b``; ``σ^{−1} = 1 − σ^{+1}``. The Bayes classifier outputs 1
when ``Π_k σ_k(x_k) > 1/2``, and ``R(B_Q) ≤ 2 R(G_Q)``.

The inversion ``kl^{-1}_+(q, ε) = sup{r ≥ q : kl(q‖r) ≤ ε}`` is a fixed 64-step bisection on
``[q, 1]``: accurate far beyond 1e-9 and exactly monotone in ``q`` and ``ε``.

>>> round(float(pac_bayes_kl(2000, [4.0, 10.0])), 5)
22.27826
>>> round(float(pac_bayes_bound(0.1, 62, 2000, [4.0, 10.0])), 6)
0.561437
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import validate_params

from companion.bounds._confidence import (
    ATTRIBUTES_CONSTRAINTS, DELTA_CONSTRAINTS, NON_NEGATIVE_CONSTRAINTS, NUMBERS_CONSTRAINTS, RISK_CONSTRAINTS,
    resolve_log_delta,
)
from companion.bounds.occam import log_attribute_choices, log_zeta
from companion.numerics import StrictInterval

__all__ = [
    "kl_bernoulli",
    "kl_inverse_upper",
    "pac_bayes_kl",
    "pac_bayes_bound",
    "sigma",
    "gibbs_output_probability",
    "gibbs_risk",
    "bayes_predict",
]

_BISECTION_STEPS = 64

#: The posterior's stumps and the inputs they read (:func:`gibbs_output_probability`).
_STUMPS = {name: ["array-like"] for name in ("X", "features", "lows", "highs", "directions")}


@validate_params({"q": RISK_CONSTRAINTS, "r": RISK_CONSTRAINTS}, prefer_skip_nested_validation=True)
def kl_bernoulli(q, r):
    """``kl(q‖r) = q ln(q/r) + (1−q) ln((1−q)/(1−r))``, with ``0 ln 0 = 0`` (may be ``inf``).

    Written with ``log1p`` of the relative gap so that near ``r = q`` (where ``kl`` is of order
    ``(r − q)²``) the value keeps its relative accuracy; the inversion relies on it for 1e-9.

    Parameters
    ----------
    q, r : float or array-like
        Bernoulli parameters in ``[0, 1]``.

    Returns
    -------
    numpy.ndarray or float
        ``kl(q‖r) >= 0``, elementwise.
    """
    return _kl_bernoulli(q, r)


def _kl_bernoulli(q, r):
    """:func:`kl_bernoulli` without the validation: the bisection calls it 64 times per inversion."""
    q, r = np.broadcast_arrays(np.asarray(q, dtype=float), np.asarray(r, dtype=float))
    gap = r - q
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        q_safe = np.where(q > 0, q, 1.0)
        p_safe = np.where(q < 1, 1.0 - q, 1.0)
        near_first = np.abs(gap) <= q_safe
        near_second = np.abs(gap) <= p_safe
        first = np.where(
            near_first, -q * np.log1p(gap / q_safe), q * (np.log(q_safe) - np.log(np.where(r > 0, r, 1.0)))
        )
        second = np.where(
            near_second,
            -(1.0 - q) * np.log1p(-gap / p_safe),
            (1.0 - q) * (np.log1p(-np.where(q < 1, q, 0.0)) - np.log1p(-np.where(r < 1, r, 0.0))),
        )
        first = np.where(q > 0, first, 0.0)
        second = np.where(q < 1, second, 0.0)
    out = first + second
    # r = 0 with q > 0, or r = 1 with q < 1: infinite divergence.
    out = np.where(((r <= 0) & (q > 0)) | ((r >= 1) & (q < 1)), np.inf, out)
    out = np.maximum(out, 0.0)  # kl >= 0; clips rounding of order 1e-300
    return out[()] if out.ndim == 0 else out


@validate_params(
    {"q": RISK_CONSTRAINTS, "epsilon": NON_NEGATIVE_CONSTRAINTS},
    prefer_skip_nested_validation=True,
)
def kl_inverse_upper(q, epsilon):
    """``kl^{-1}_+(q, ε) = sup{r ∈ [q, 1] : kl(q‖r) ≤ ε}`` by bisection (vectorised).

    Parameters
    ----------
    q : float or array-like
        Empirical (Gibbs) risk in ``[0, 1]``.
    epsilon : float or array-like
        Right-hand side ``≥ 0``.

    Returns
    -------
    numpy.ndarray or float
        Upper end of the final bracket (never below the supremum).

    Examples
    --------
    >>> round(float(kl_inverse_upper(0.0, np.log(2.0))), 12)
    0.5
    """
    q = np.asarray(q, dtype=float)
    epsilon = np.asarray(epsilon, dtype=float)
    # the values of an array (a number is checked by the declaration)
    if np.any(np.isnan(q)) or np.any(q < 0) or np.any(q > 1):
        raise ValueError(f"kl_inverse_upper: q (an empirical risk) must lie in [0, 1], got {q!r}")
    if np.any(np.isnan(epsilon)) or np.any(epsilon < 0):
        raise ValueError(f"kl_inverse_upper: epsilon must be >= 0, got {epsilon!r}")
    q, epsilon = np.broadcast_arrays(q, epsilon)
    lo = q.astype(float).copy()
    hi = np.ones_like(lo)
    for _ in range(_BISECTION_STEPS):  # fixed steps: same dyadic points for every input => monotone
        mid = 0.5 * (lo + hi)
        ok = _kl_bernoulli(q, mid) <= epsilon
        lo = np.where(ok, mid, lo)
        hi = np.where(ok, hi, mid)
    return hi[()] if hi.ndim == 0 else hi


@validate_params({"range_ratios": ["array-like"], **ATTRIBUTES_CONSTRAINTS}, prefer_skip_nested_validation=True)
def pac_bayes_kl(n_features, range_ratios, *, reuse_features=False):
    """``KL(Q‖P)`` of Theorem 4 (module docstring) for a posterior on ``|k| = len(range_ratios)`` stumps.

    Parameters
    ----------
    n_features : int
        ``n``, number of attributes.
    range_ratios : sequence of float
        ``(B_k − A_k)/(b_k − a_k) ≥ 1`` for each stump.
    reuse_features : bool, default=False
        The prior spreads over attribute multisets, not sets
        (:func:`companion.bounds.occam.log_attribute_choices`).

    Returns
    -------
    float
        ``ln C(n, |k|) − ln ζ(|k|) + |k| ln 2 + Σ ln((B − A)/(b − a))``.
    """
    ratios = np.asarray(range_ratios, dtype=float).reshape(-1)
    if np.any(~(ratios >= 1.0)) or np.any(~np.isfinite(ratios)):
        raise ValueError(f"pac_bayes_kl: range_ratios (B-A)/(b-a) must be finite and >= 1, got {range_ratios!r}")
    size = ratios.size
    choices = log_attribute_choices(n_features, size, reuse_features=reuse_features)
    return float(choices - log_zeta(size) + size * np.log(2.0) + np.log(ratios).sum())


@validate_params(
    {
        "gibbs_empirical_risk": RISK_CONSTRAINTS,
        "m": [StrictInterval(Integral, 1, None, closed="left")],
        "range_ratios": ["array-like"],
        "delta": DELTA_CONSTRAINTS,
        **ATTRIBUTES_CONSTRAINTS,
    },
    prefer_skip_nested_validation=True,
)
def pac_bayes_bound(gibbs_empirical_risk, m, n_features, range_ratios, delta=0.05, *, reuse_features=False):
    """Theorem 4 of Paper 05: upper bound on the Gibbs risk ``R(G_Q)`` (Section V).

    Parameters
    ----------
    gibbs_empirical_risk : float
        ``R_S(G_Q)`` in ``[0, 1]``.
    m : int
        Number of training examples.
    n_features : int
        ``n``.
    range_ratios : sequence of float
        ``(B_k − A_k)/(b_k − a_k)`` per stump.
    delta : float, default=0.05
        Confidence in ``(0, 1]``.
    reuse_features : bool, default=False
        See :func:`pac_bayes_kl`.

    Returns
    -------
    float
        ``kl^{-1}_+(R_S(G), [KL + ln((m+1)/δ)]/m)``. The Bayes classifier's risk is at most twice this.

    Examples
    --------
    >>> round(float(pac_bayes_bound(0.0, 62, 2000, [1.0])), 6)
    0.243691
    """
    risk = np.asarray(gibbs_empirical_risk, dtype=float)
    if not np.all((risk >= 0) & (risk <= 1)):  # an array's values; NaN fails both comparisons
        raise ValueError(f"gibbs_empirical_risk must be a number in [0, 1], got {gibbs_empirical_risk!r}")
    ld = float(resolve_log_delta(delta))
    epsilon = (pac_bayes_kl(n_features, range_ratios, reuse_features=reuse_features) + np.log(m + 1.0) - ld) / m
    return float(kl_inverse_upper(gibbs_empirical_risk, epsilon))


@validate_params(dict.fromkeys(("x", "a", "b", "direction"), NUMBERS_CONSTRAINTS), prefer_skip_nested_validation=True)
def sigma(x, a, b, direction):
    """Probability ``Pr_{t~U[a,b]}((x − t) d > 0)``: the piecewise-linear ``σ^d_{a,b}(x)`` (Section V).

    Parameters
    ----------
    x : float or array-like
        Attribute values.
    a, b : float or array-like
        Margin interval, ``b > a``.
    direction : int or array-like
        ``+1`` (``x > t``) or ``-1`` (``x ≤ t``).

    Returns
    -------
    numpy.ndarray
        ``σ^d_{a,b}(x)`` in ``[0, 1]``.

    Examples
    --------
    >>> float(sigma(0.25, 0.0, 1.0, +1))
    0.25
    """
    x = np.asarray(x, dtype=float)
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if np.any(~(b > a)):
        raise ValueError(f"sigma: margin intervals must satisfy b > a, got a={a!r}, b={b!r}")
    up = np.clip((x - a) / (b - a), 0.0, 1.0)
    return np.where(np.asarray(direction) > 0, up, 1.0 - up)


@validate_params(_STUMPS, prefer_skip_nested_validation=True)
def gibbs_output_probability(X, features, lows, highs, directions):
    """``Π_k σ^{d_k}_{a_k,b_k}(x_k)`` for each row of ``X``: probability the Gibbs conjunction says 1.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Inputs.
    features : sequence of int
        Attribute of each stump.
    lows, highs : sequence of float
        Margin interval ``[a_k, b_k]`` of each stump.
    directions : sequence of int
        ``+1`` or ``-1`` per stump.

    Returns
    -------
    numpy.ndarray of shape (n_samples,)
        The product (1 for no stump).
    """
    X = np.asarray(X, dtype=float)
    features = np.asarray(features, dtype=np.int64)
    if features.size == 0:
        return np.ones(X.shape[0])
    return np.prod(sigma(X[:, features], lows, highs, directions), axis=1)


@validate_params({**_STUMPS, "y": ["array-like"]}, prefer_skip_nested_validation=True)
def gibbs_risk(X, y, features, lows, highs, directions):
    """Empirical Gibbs risk ``R_S(G) = (1/m) Σ [(1−y) Π σ + y (1 − Π σ)]`` for 0/1 labels ``y``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Inputs.
    y : array-like of shape (n_samples,)
        0/1 labels.
    features : sequence of int
        Attribute of each stump.
    lows, highs : sequence of float
        Margin interval ``[a_k, b_k]`` of each stump.
    directions : sequence of int
        ``+1`` or ``-1`` per stump.

    Returns
    -------
    float
        The empirical Gibbs risk.
    """
    y = np.asarray(y, dtype=float)
    prob_one = gibbs_output_probability(X, features, lows, highs, directions)
    return float(np.mean((1.0 - y) * prob_one + y * (1.0 - prob_one)))


@validate_params(_STUMPS, prefer_skip_nested_validation=True)
def bayes_predict(X, features, lows, highs, directions):
    """Deterministic Bayes vote ``I(Π σ > 1/2)`` (0/1) of the stochastic conjunction.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Inputs.
    features : sequence of int
        Attribute of each stump.
    lows, highs : sequence of float
        Margin interval ``[a_k, b_k]`` of each stump.
    directions : sequence of int
        ``+1`` or ``-1`` per stump.

    Returns
    -------
    numpy.ndarray of int of shape (n_samples,)
        The vote, 0 or 1.
    """
    return (gibbs_output_probability(X, features, lows, highs, directions) > 0.5).astype(np.int64)
