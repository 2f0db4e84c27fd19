"""The one check of a bound's confidence ``δ``, shared by every module of :mod:`companion.bounds`,
and the other parameter constraints (scikit-learn's ``validate_params``) that several of them declare.

A bound takes ``delta`` in ``(0, 1]`` (a number or an array of them), or, when its confidence is
split over a prior far below the smallest double, ``log_delta <= 0``.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import validate_params

from companion.numerics import StrictInterval

#: The constraint of every bound's ``delta`` (scikit-learn's ``validate_params``): a number in
#: ``(0, 1]`` or an array of them (whose values :func:`check_delta` checks).
DELTA_CONSTRAINTS = [StrictInterval(Real, 0, 1, closed="right"), "array-like"]

#: A count of a bound that broadcasts over counts: an int ``>= 0`` or an array of them (whose
#: values the bound checks).
COUNTS_CONSTRAINTS = [StrictInterval(Integral, 0, None, closed="left"), "array-like"]

#: A number ``>= 0`` (a count that may be given as a float, a code length, a message length in
#: nats) or an array of them (whose values the function checks).
NON_NEGATIVE_CONSTRAINTS = [StrictInterval(Real, 0, None, closed="left"), "array-like"]

#: A risk or another probability in ``[0, 1]``, or an array of them (whose values the function checks).
RISK_CONSTRAINTS = [StrictInterval(Real, 0, 1, closed="both"), "array-like"]

#: Any number (an attribute value, an end of an interval), or an array of them.
NUMBERS_CONSTRAINTS = [Real, "array-like"]

#: The attributes a stump prior spreads its mass over (paper 05): ``n_features >= 1`` of them,
#: as sets or, with ``reuse_features``, as multisets.
ATTRIBUTES_CONSTRAINTS = {
    "n_features": [StrictInterval(Integral, 1, None, closed="left")],
    "reuse_features": ["boolean"],
}


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


def resolve_log_delta(delta=None, log_delta=None, *, caller="resolve_log_delta"):
    """Return ``log δ`` from exactly one of ``delta`` ∈ (0, 1] or ``log_delta`` ≤ 0.

    Bounds whose confidence is split over a prior (``δ·P(f)``, far below the smallest double) take
    it in log space; this is their one check of either form.

    Parameters
    ----------
    delta : float or array-like, optional
        Confidence in ``(0, 1]``.
    log_delta : float or array-like, optional
        ``log δ <= 0``.
    caller : str, default="resolve_log_delta"
        The bound taking the confidence, named in the error messages.

    Returns
    -------
    numpy.ndarray
        ``log δ``.
    """
    if (delta is None) == (log_delta is None):
        raise TypeError(
            f"{caller}: give exactly one of delta (in (0, 1]) or log_delta (<= 0), "
            f"got delta={delta!r} and log_delta={log_delta!r}"
        )
    if delta is not None:
        return np.log(check_delta(delta))
    ld = np.asarray(log_delta, dtype=float)
    if np.any(np.isnan(ld)) or np.any(ld > 0) or np.any(ld == np.inf):
        raise ValueError(f"{caller}: log_delta must be <= 0 (and not NaN), got {log_delta!r}")
    return ld
