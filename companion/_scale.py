"""The scale of the input a learner's arithmetic handles, checked before any work.

Multiplying every feature by a power of two changes no comparison between values, so an
order-based learner should give the same model at any scale. Some arithmetic does not follow:
squared distances and kernel values overflow beyond about ``2**256`` and underflow below
``2**-256``; an absolute tolerance (pyscm's ``1e-7`` between sorted values, scikit-learn's trees'
``1e-7`` between split values) merges every value of data scaled down far enough, and the model
silently becomes constant. Rather than a NaN score, an ``IndexError`` or a constant model, a
learner declares the range of ``max |X|`` (the largest finite magnitude of its input) its
arithmetic handles, and :func:`check_scale` refuses data outside it with a ``ValueError`` naming
the learner, the value, the range, the reason and the remedy.

>>> import numpy as np
>>> class Learner: pass
>>> check_scale(Learner(), np.array([[1e-300, 0.0]]), low=2.0**-256, high=2.0**256, why="distances underflow")
Traceback (most recent call last):
...
ValueError: Learner: the largest |value| in X is 1e-300, outside the range [8.636e-78, 1.158e+77] this learner's arithmetic handles (distances underflow). Rescale X first, e.g. with sklearn.preprocessing.StandardScaler or by multiplying it by a power of two.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["check_scale", "check_learner_scale", "column_exponents", "largest_magnitude", "largest_magnitudes"]


def largest_magnitude(X) -> float | None:
    """``max |x|`` over the finite numeric entries of ``X`` (None when it has none or is not numeric)."""
    return _read_scale(X)[0]


def _read_scale(X):
    """``(max |x|, extremes)``: :func:`largest_magnitude`, and ``(smallest, largest)`` value of an
    array ``X`` (not a DataFrame) when both are finite (else None), read in the same two passes."""
    try:
        if isinstance(X, pd.DataFrame):
            X = X.select_dtypes(include=["number", "bool"])
            if X.shape[1] == 0:
                return None, None
            values = X.to_numpy(dtype=float, na_value=np.nan)
            array = False
        else:
            values = np.asarray(X, dtype=float)
            array = True
    except (TypeError, ValueError):
        return None, None  # strings, ragged lists: validate_data names the problem
    if values.size:
        # The largest magnitude is minus the smallest value or the largest one: two reductions
        # without a temporary, the same number as the masked pass below whenever both are finite
        # (a NaN or infinite entry sends the data there).
        low, high = values.min(), values.max()
        if np.isfinite(low) and np.isfinite(high):
            return float(max(-low, high, 0.0)), ((float(low), float(high)) if array else None)
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return None, None
    return float(np.max(np.abs(finite))), None


def check_scale(estimator, X, *, low=None, high=None, why: str = ""):
    """Refuse ``X`` whose largest magnitude lies outside ``[low, high]`` (all zeros pass).

    Parameters
    ----------
    estimator : object
        The learner (its class name starts the message).
    X : array-like or DataFrame
        The input of ``fit`` (non-numeric columns are ignored).
    low, high : float, optional
        The range of ``max |X|`` the learner handles.
    why : str
        What breaks outside the range, for the message.

    Returns
    -------
    tuple of float or None
        ``(smallest, largest)`` value of an array ``X`` (not a DataFrame) when both are finite,
        as read by the check: a learner may reuse them instead of reading ``X`` again (they
        are those of ``np.asarray(X, dtype=float)``). None otherwise.

    Raises
    ------
    ValueError
        Naming the learner, the largest magnitude, the range and the remedy.
    """
    largest, extremes = _read_scale(X)
    if largest is None or largest == 0.0:
        return extremes
    if (low is not None and largest < low) or (high is not None and largest > high):
        lo = "0" if low is None else f"{low:.4g}"
        hi = "inf" if high is None else f"{high:.4g}"
        raise ValueError(
            f"{type(estimator).__name__}: the largest |value| in X is {largest:.4g}, outside the range "
            f"[{lo}, {hi}] this learner's arithmetic handles ({why}). Rescale X first, e.g. with "
            "sklearn.preprocessing.StandardScaler or by multiplying it by a power of two."
        )
    return extremes


def check_learner_scale(estimator, X):
    """:func:`check_scale` with the range the learner's class declares in ``_scale_range``
    (a dict of ``low``, ``high`` and ``why``; a class without one is not checked, and gets None)."""
    scale_range = getattr(estimator, "_scale_range", None)
    if scale_range:
        return check_scale(estimator, X, **scale_range)
    return None


def column_exponents(X) -> np.ndarray:
    """Per column, the power of two ``e`` with ``max |x| / 2**e`` in ``(0.5, 1]`` (0 for a column
    without a non-zero finite value).

    Dividing a column by ``2**e`` (``np.ldexp(x, -e)``) is exact in floating point (away from the
    subnormal range), and multiplying the input by ``2**k`` adds ``k`` to ``e``: the divided
    columns are the same bits at every power-of-two scale, so a learner fitted on them gives the
    same model at every scale. A column whose largest magnitude lies in ``(0.5, 1]`` (0/1 columns
    among them) gets ``e = 0`` and is left as it is.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Numbers; NaN and infinite cells are ignored.

    Returns
    -------
    ndarray of int of shape (n_features,)

    Examples
    --------
    >>> column_exponents(np.array([[1.0, 3.0, 0.0, -0.5], [0.0, 2.0, 0.0, 0.25]])).tolist()
    [0, 2, 0, -1]
    """
    # a column without a non-zero finite value has largest magnitude 1, so exponent 0
    mantissa, exponent = np.frexp(largest_magnitudes(X))  # largest = mantissa * 2**exponent, mantissa in [0.5, 1)
    return np.where(mantissa == 0.5, exponent - 1, exponent).astype(int)  # a power of two maps to 1, not 0.5


def largest_magnitudes(X) -> np.ndarray:
    """Per column, its largest finite magnitude ``max |x|`` (1 for a column without a non-zero
    finite value): the divisor that brings a column's values into ``[-1, 1]`` in any units.

    Multiplying a column by ``c > 0`` multiplies its divisor by ``c``, so the divided column is
    the same (bit for bit when ``c`` is a power of two, else up to the last bit).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Numbers; NaN and infinite cells are ignored.

    Returns
    -------
    ndarray of float of shape (n_features,)

    Examples
    --------
    >>> largest_magnitudes(np.array([[1.0, 3.0, 0.0, -0.5], [0.0, 2.0, 0.0, 0.25]])).tolist()
    [1.0, 3.0, 1.0, 0.5]
    """
    values = np.abs(np.asarray(X, dtype=float))
    values = np.where(np.isfinite(values), values, 0.0)
    largest = values.max(axis=0) if values.shape[0] else np.zeros(values.shape[1])
    return np.where(largest > 0, largest, 1.0)
