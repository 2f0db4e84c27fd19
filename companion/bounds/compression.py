"""Sample-compression bound for conjunctions of decision stumps (Paper 05, Section IV).

Theorem 3 of Paper 05 is the generic sample-compression bound of Marchand & Sokolova (2005); with
the message distribution of its Eq. 5 (uniform over attribute sets of a given size and over
directions) it reads (our copy of the paper lost the displays; restated from Marchand &
Sokolova 2005 with the message of Eq. 5):

.. math::

    R(f) \\le 1 - \\exp\\Big(-\\frac{1}{m - |k| - e}\\Big[\\ln\\binom{m}{|k|}
        + \\ln\\binom{m-|k|}{e} + \\ln\\binom{n}{|k|} + |k|\\ln 2
        - \\ln\\big(\\zeta(|k|)\\,\\zeta(e)\\,\\delta\\big)\\Big]\\Big),

where the compression set holds one training example per stump (its value of the stump's
attribute is the threshold) and ``e`` counts the training errors *outside* the compression set.

Implementers' caveat (ours): the pairing of each compression example with its attribute is
not determined by the sorted index vectors; ``pairing=True`` adds the ``ln |k|!`` that sending it
costs. The paper's form (``pairing=False``) is the default.

>>> round(float(compression_bound(0, 100, 2000, 0)), 7)
0.0391254
>>> round(float(compression_bound(5, 62, 2000, 2)), 6)
0.587657
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from scipy.special import gammaln
from sklearn.utils._param_validation import validate_params

from companion.bounds.binomial import log_choose
from companion.bounds._confidence import (
    ATTRIBUTES_CONSTRAINTS, COUNTS_CONSTRAINTS, DELTA_CONSTRAINTS, NON_NEGATIVE_CONSTRAINTS, resolve_log_delta,
)
from companion.bounds.occam import log_attribute_choices, log_zeta
from companion.numerics import StrictInterval

__all__ = ["compression_log_message", "compression_bound", "sample_compression_bound"]


#: The parameters of :func:`compression_bound`.
_BOUND_CONSTRAINTS = {
    "n_errors": [StrictInterval(Integral, 0, None, closed="left")],
    "m": [StrictInterval(Integral, 1, None, closed="left")],
    "size": [StrictInterval(Integral, 0, None, closed="left")],
    "delta": DELTA_CONSTRAINTS,
    "pairing": ["boolean"],
    **ATTRIBUTES_CONSTRAINTS,
}


def _check(n_errors, m, n_features, size, reuse_features=False):
    """What the constraints cannot say: the sizes must fit together."""
    if size > n_features and not reuse_features:
        raise ValueError(
            f"size (stumps) cannot exceed n_features: {size} > {n_features} (unless reuse_features=True)"
        )
    if size + n_errors > m:
        raise ValueError(
            f"size + n_errors (compression set plus errors outside it) cannot exceed m: "
            f"{size} + {n_errors} > {m}"
        )


@validate_params(
    {name: _BOUND_CONSTRAINTS[name] for name in ("n_features", "size", "pairing", "reuse_features")},
    prefer_skip_nested_validation=True,
)
def compression_log_message(n_features, size, *, pairing=False, reuse_features=False):
    """``ln 1/P_M(σ) = ln C(n,|k|) + |k| ln 2`` (Eq. 5), plus ``ln |k|!`` when ``pairing``.

    With ``reuse_features`` the attributes form a multiset: ``C(n + |k| − 1, |k|)`` replaces
    ``C(n, |k|)`` (:func:`companion.bounds.occam.log_attribute_choices`).

    Parameters
    ----------
    n_features : int
        ``n``, the number of attributes.
    size : int
        ``|k|``, the number of stumps.
    pairing : bool, default=False
        Add ``ln |k|!`` for the example–attribute pairing.
    reuse_features : bool, default=False
        Code an attribute multiset.

    Returns
    -------
    float
        ``ln 1/P_M(σ)`` in nats.
    """
    extra = gammaln(size + 1) if pairing else 0.0
    choices = log_attribute_choices(n_features, size, reuse_features=reuse_features)
    return float(choices + size * np.log(2.0) + extra)


@validate_params(_BOUND_CONSTRAINTS, prefer_skip_nested_validation=True)
def compression_bound(n_errors, m, n_features, size, delta=0.05, *, pairing=False, reuse_features=False):
    """Theorem 3 + Eq. 5 of Paper 05 (reconstructed): the SC risk bound.

    Parameters
    ----------
    n_errors : int
        ``e``, errors on the ``m − |k|`` training examples outside the compression set.
    m : int
        Number of training examples.
    n_features : int
        ``n``, number of attributes.
    size : int
        ``|k|``, number of stumps (= size of the compression set).
    delta : float, default=0.05
        Confidence in ``(0, 1]``.
    pairing : bool, default=False
        Also pay ``ln |k|!`` for the example–attribute pairing (strictly valid form).
    reuse_features : bool, default=False
        Several stumps may share an attribute: the message codes an attribute multiset, and
        ``size`` may exceed ``n_features``.

    Returns
    -------
    float
        Bound on the true risk; ``1`` when ``m − |k| − e = 0``.
    """
    _check(n_errors, m, n_features, size, reuse_features)
    ld = float(resolve_log_delta(delta))
    free = m - size - n_errors
    if free <= 0:
        return 1.0
    cost = (
        log_choose(m, size)
        + log_choose(m - size, n_errors)
        + compression_log_message(n_features, size, pairing=pairing, reuse_features=reuse_features)
        - (log_zeta(size) + log_zeta(n_errors) + ld)
    )
    return float(-np.expm1(-cost / free))


@validate_params(
    {
        "m": COUNTS_CONSTRAINTS,
        "compression_size": COUNTS_CONSTRAINTS,
        "n_errors": COUNTS_CONSTRAINTS,
        "log_message": NON_NEGATIVE_CONSTRAINTS,
        "delta": DELTA_CONSTRAINTS,
    },
    prefer_skip_nested_validation=True,
)
def sample_compression_bound(m, compression_size, n_errors, log_message, delta=0.05):
    """Theorem 3 of Paper 05 in its general form (Marchand & Sokolova 2005), any message.

    ``R(f) <= 1 - exp(-[ln C(m, λ) + ln C(m - λ, e) + ln 1/P_M(σ) - ln(ζ(λ) ζ(e) δ)] / (m - λ - e))``
    for a reconstruction function that rebuilds ``f`` from a compression set of ``λ`` training
    examples and a message ``σ`` of prior probability ``P_M(σ)``, ``e`` the training errors outside
    the compression set, ``ζ(a) = (6/π²)(a + 1)^-2``. :func:`compression_bound` is this bound with
    the stump message of Eq. 5 (``log_message = compression_log_message(n, λ)``); paper 01's
    corrected DLM bound (:func:`companion.bounds.decision_list.corrected_bound`) is it with the
    ball-list message (which examples are centres, then the ordering).

    Parameters
    ----------
    m : int or array-like of int
        Number of training examples.
    compression_size : int or array-like of int
        ``λ``.
    n_errors : int or array-like of int
        ``e``, errors outside the compression set.
    log_message : float or array-like
        ``ln 1/P_M(σ) >= 0``.
    delta : float, default=0.05
        Confidence in ``(0, 1]``.

    Returns
    -------
    float or ndarray
        The bound; 1 where ``m - λ - e <= 0``.

    >>> round(float(sample_compression_bound(100, 0, 0, 0.0)), 7) == round(compression_bound(0, 100, 2000, 0), 7)
    True
    """
    # the values of an array (a number is checked by the declaration)
    for name, value in (("m", m), ("compression_size", compression_size), ("n_errors", n_errors)):
        values = np.asarray(value)
        if values.dtype == bool or not np.issubdtype(values.dtype, np.integer) or np.any(values < 0):
            raise ValueError(
                f"sample_compression_bound: {name} must be a non-negative integer (or array of them), got {value!r}"
            )
    log_message = np.asarray(log_message, dtype=float)
    if np.any(~(log_message >= 0)):
        raise ValueError(f"sample_compression_bound: log_message (ln 1/P_M) must be >= 0, got {log_message!r}")
    if np.any(np.asarray(compression_size) + np.asarray(n_errors) > np.asarray(m)):
        raise ValueError(
            f"sample_compression_bound: compression_size + n_errors cannot exceed m, "
            f"got {compression_size!r} + {n_errors!r} > {m!r}"
        )
    ld = float(resolve_log_delta(delta))
    lam = np.asarray(compression_size, dtype=float)
    e = np.asarray(n_errors, dtype=float)
    free = np.asarray(m, dtype=float) - lam - e
    cost = log_choose(m, lam) + log_choose(m - lam, e) + log_message - (log_zeta(lam) + log_zeta(e) + ld)
    with np.errstate(divide="ignore", invalid="ignore"):
        bound = np.where(free > 0, -np.expm1(-cost / free), 1.0)
    return float(bound) if bound.ndim == 0 else bound
