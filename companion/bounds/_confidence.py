"""The one check of a bound's confidence ``δ``, shared by every module of :mod:`companion.bounds`.

A bound takes ``delta`` in ``(0, 1]`` (a number or an array of them), or, when its confidence is
split over a prior far below the smallest double, ``log_delta <= 0``.
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.utils._param_validation import validate_params

from companion.numerics import StrictInterval

#: The constraint of every bound's ``delta`` (scikit-learn's ``validate_params``): a number in
#: ``(0, 1]`` or an array of them (whose values :func:`check_delta` checks).
DELTA_CONSTRAINTS = [StrictInterval(Real, 0, 1, closed="right"), "array-like"]


@validate_params({"delta": DELTA_CONSTRAINTS}, prefer_skip_nested_validation=True)
def check_delta(delta):
    """Validate a confidence parameter ``δ ∈ (0, 1]`` (a number or an array of them).

    Parameters
    ----------
    delta : float or numpy.ndarray
        The confidence.

    Returns
    -------
    numpy.ndarray
        ``delta`` as floats (0-d for a number).

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        If ``delta`` is neither a number in ``(0, 1]`` nor an array (a string, NaN, 0, say).
    ValueError
        If an array holds NaN or a value outside ``(0, 1]``.
    """
    d = np.asarray(delta, dtype=float)
    if np.any(~(d > 0)) or np.any(d > 1):
        raise ValueError(f"delta must lie in (0, 1], got {delta!r}")
    return d


def resolve_log_delta(delta=None, log_delta=None):
    """Return ``log δ`` from exactly one of ``delta`` ∈ (0, 1] or ``log_delta`` ≤ 0.

    Bounds whose confidence is split over a prior (``δ·P(f)``, far below the smallest double) take
    it in log space; this is their one check of either form.

    Parameters
    ----------
    delta : float or array-like, optional
        Confidence in ``(0, 1]``.
    log_delta : float or array-like, optional
        ``log δ <= 0``.

    Returns
    -------
    numpy.ndarray
        ``log δ``.
    """
    if (delta is None) == (log_delta is None):
        raise TypeError("give exactly one of delta (in (0, 1]) or log_delta (<= 0)")
    if delta is not None:
        return np.log(check_delta(delta))
    ld = np.asarray(log_delta, dtype=float)
    if np.any(np.isnan(ld)) or np.any(ld > 0) or np.any(ld == np.inf):
        raise ValueError(f"log_delta must be <= 0 (and not NaN), got {log_delta!r}")
    return ld
