"""The one check of ``sample_weight`` every learner's ``fit`` runs first.

scikit-learn's ``_check_sample_weight`` names neither the estimator nor the row, and refuses
negative weights only when asked (``PrunedDecisionTree`` and ``MDLDiscretizer`` took them). Here
every learner refuses the same things the same way, before any work: a weight that is not a
number, NaN, infinite or negative, weights of the wrong shape or length, and weights that are all
zero. The refusal is a ``ValueError`` (``TypeError`` for weights that are not numbers) naming the
estimator, the parameter, the row and the value.

>>> import numpy as np
>>> class Learner: pass
>>> check_sample_weight(Learner(), [1.0, -2.0, 1.0], np.zeros((3, 1)))
Traceback (most recent call last):
...
ValueError: Learner.fit: sample_weight must be finite and non-negative (Negative values in sample_weight: -2.0 at row 1)
"""

from __future__ import annotations

import numpy as np
from sklearn.utils.validation import _num_samples

__all__ = ["check_sample_weight"]


def check_sample_weight(estimator, sample_weight, X) -> None:
    """Refuse a ``sample_weight`` no learner can use (None passes).

    Parameters
    ----------
    estimator : object
        The learner (its class name is in the message).
    sample_weight : array-like of shape (n_samples,), scalar or None
    X : array-like
        The rows the weights go with (only their number is read).

    Raises
    ------
    TypeError
        If the weights are not numbers.
    ValueError
        If they are not one per row, or one is NaN, infinite or negative, or all are zero.
    """
    if sample_weight is None:
        return
    where = f"{type(estimator).__name__}.fit: sample_weight"
    try:
        weights = np.asarray(sample_weight)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{where} must be an array of numbers: {exc}") from None
    if weights.dtype.kind not in "biuf":
        example = weights.ravel()[0] if weights.size else weights
        raise TypeError(f"{where} must hold numbers, got {weights.dtype} values such as {example!r}")
    weights = weights.astype(np.float64)
    try:
        n = _num_samples(X)
    except TypeError:
        n = None  # X itself is refused by validate_data
    if weights.ndim > 1:
        raise ValueError(f"{where} must be one weight per row (1-D), got an array of shape {weights.shape}")
    if weights.ndim == 1 and n is not None and weights.shape[0] != n:
        raise ValueError(f"{where} has {weights.shape[0]} weights but X has {n} rows")
    bad = ~np.isfinite(weights) | (weights < 0)
    if bad.any():
        row = int(np.flatnonzero(bad.ravel())[0])
        value = float(weights.ravel()[row])
        at = f" at row {row}" if weights.ndim == 1 else ""
        if value < 0:
            raise ValueError(f"{where} must be finite and non-negative (Negative values in sample_weight: {value!r}{at})")
        raise ValueError(f"{where} must be finite and non-negative, got {value!r}{at}")
    if weights.size and not (weights > 0).any():
        raise ValueError(f"{where} is all zero: at least one non-zero weight is needed")
