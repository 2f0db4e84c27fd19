"""The one input pipeline of the learners on numbers (balls, stumps, perceptrons).

``fit`` calls :func:`numeric_input` with ``reset=True``: a DataFrame with nominal columns or
missing cells gets a fitted :class:`companion.preprocessing.NumericInput` as the learner's
``input_encoder_``, and every later call encodes its rows the same way. A learner whose
distances depend on the columns' units (the ball machines) then divides each column by
:func:`column_scales`, so that no default depends on a column's units.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from companion._learner_support import check_numeric_input
from companion.preprocessing import NumericInput


def _needs_encoding(X) -> bool:
    if not isinstance(X, pd.DataFrame):
        return False
    if X.isna().to_numpy().any():
        return True
    return any(
        not (pd.api.types.is_numeric_dtype(X[c]) and not isinstance(X[c].dtype, pd.CategoricalDtype))
        or pd.api.types.is_bool_dtype(X[c])
        for c in X.columns
    )


def numeric_input(estimator, X, *, reset: bool):
    """``X`` as a learner on numbers reads it (:class:`NumericInput`): the one input pipeline.

    Parameters
    ----------
    estimator : the learner; ``fit`` calls this with ``reset=True``, which sets its
        ``input_encoder_``; ``predict`` and the other methods with ``reset=False``.
    X : DataFrame or array-like
    reset : bool

    Returns
    -------
    DataFrame or array-like
        ``X`` unchanged, or its encoded DataFrame (numbers only, no missing cell). An array
        (or frame) of the encoded columns themselves (``input_encoder_.names_out_``) passes as
        it is.
    """
    if reset:
        if isinstance(X, pd.DataFrame):
            for column in X.columns:
                if X[column].dtype == object:
                    present = X[column].dropna()
                    numbers = present.map(lambda v: isinstance(v, (int, float, np.number)) and not isinstance(v, bool))
                    if numbers.any() and not numbers.all():
                        # numbers with a stray string: a data error, not a nominal column
                        check_numeric_input(X[[column]], type(estimator).__name__)
        estimator.input_encoder_ = NumericInput().fit(X) if _needs_encoding(X) else None
    encoder = getattr(estimator, "input_encoder_", None)
    if encoder is None:
        return X
    if isinstance(X, pd.DataFrame) and [str(c) for c in X.columns] == encoder.names_out_:
        return X  # already encoded
    if not isinstance(X, pd.DataFrame) and np.ndim(X) == 2 and np.shape(X)[1] == len(encoder.names_out_):
        return X  # an array of the encoded columns, in input_encoder_.names_out_ order
    if not isinstance(X, pd.DataFrame):
        raise ValueError(
            f"{type(estimator).__name__} was fitted on a DataFrame with nominal columns or missing cells "
            f"({', '.join(encoder.encoder.columns_)}); predict needs a DataFrame with these columns."
        )
    return encoder.transform(X)


def column_scales(X) -> np.ndarray:
    """Per column, the divisor that takes its units out of a distance: its standard deviation.

    A column whose values all lie in ``{0, -c, c}`` (an indicator in any unit, a one-hot code
    of the encoder, a constant) is divided by ``c``: a 0/1 column keeps 1, so a 0/1 table is read
    exactly as it is. Every other column gets its population standard deviation, with exactly
    rounded sums (``math.fsum``, one per column, not per example) in units of a power of two
    near its largest value (no square overflows or underflows), so the divisors are the same on
    every machine. Multiplying a column by ``c > 0`` multiplies its divisor by ``c`` (exactly for
    a power of two, else up to the last bit), so the divided column, and a distance-based model
    on it, stays the same.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Finite numbers (the validated input).

    Returns
    -------
    ndarray of float of shape (n_features,)
        Positive divisors.

    Examples
    --------
    >>> column_scales(np.array([[0.0, 1.0, 10.0, 5.0, 0.0], [1.0, 3.0, 30.0, 5.0, 8.0]])).tolist()
    [1.0, 1.0, 10.0, 5.0, 8.0]
    """
    X = np.asarray(X, dtype=float)
    scales = np.ones(X.shape[1])
    if X.shape[0] == 0:
        return scales
    largest = np.abs(X).max(axis=0)
    # values in {0, -c, c}: an indicator in any unit, divided by c (exactly 0/1 again; 1 for a
    # 0/1 column, 2**k for the column times 2**k); a column of zeros keeps 1
    indicator = ((X == 0) | (np.abs(X) == largest)).all(axis=0)
    scales[indicator & (largest > 0)] = largest[indicator & (largest > 0)]
    for j in np.flatnonzero(~indicator):  # one exact sum per column
        # in units of the column's largest |value| (a power of two: exact), so that no square
        # overflows or underflows at any scale the learners take (companion._scale)
        unit = 2.0 ** math.frexp(float(np.max(np.abs(X[:, j]))))[1]
        column = X[:, j] / unit
        mean = math.fsum(column) / len(column)
        deviation = math.sqrt(math.fsum((column - mean) ** 2) / len(column))
        if deviation > 0 and math.isfinite(deviation * unit):
            scales[j] = deviation * unit
    return scales
