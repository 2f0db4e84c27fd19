"""The one input pipeline of the learners on numbers (balls, stumps, perceptrons).

``fit`` calls :func:`numeric_input` with ``reset=True``: a DataFrame with nominal columns or
missing cells gets a fitted :class:`companion.preprocessing.NumericInput` as the learner's
``input_encoder_``, and every later call encodes its rows the same way.
"""

from __future__ import annotations

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
