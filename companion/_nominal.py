"""The one reader of nominal columns, shared by every learner and encoder of the package.

Which columns of a table are nominal, and the values of a nominal column in code order, are
decided here once, for WIDC (:class:`companion.widc.DecisionCommittee`), Prism, OneR
(:mod:`companion.prism`, :mod:`companion.baselines`) and the encoders
(:class:`companion.preprocessing.FrameEncoder`, :class:`companion.preprocessing.MDLDiscretizer`):

* a DataFrame's ``category``, ``bool``, ``object`` and ``string`` columns are nominal; its
  integer and float columns are numeric, even when every value is whole (whether a number is a
  code is said with ``categorical_features``, never guessed from its value);
* a plain array has no per-column dtype: a column is numeric when all its present values are
  numbers (bools are not numbers), as pandas infers; a bool or string array is nominal;
* a nominal column's values are a categorical's declared categories, else its distinct present
  values sorted (by type name, then text, when they do not compare).

>>> import pandas as pd
>>> frame = pd.DataFrame({"n": [1, 2], "b": [True, False], "s": ["x", "y"]})
>>> nominal_columns(frame, frame.to_numpy()).tolist()
[False, True, True]
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = [
    "MANY_VALUES",
    "declared_categories",
    "holds_numbers",
    "is_nominal_dtype",
    "nominal_columns",
    "sorted_values",
    "value_list",
]

#: A nominal column with more distinct values than this (and, for the rule learners, more than
#: half of its present cells) warns at fit: each value is a test or variable of its own, so such
#: a column (an identifier, free text, a numeric column read as text) fits single rows.
MANY_VALUES = 50


def declared_categories(X) -> list | None:
    """Per-column declared value order of a DataFrame's categorical columns (None elsewhere).

    Parameters
    ----------
    X : DataFrame or array-like
        The table.

    Returns
    -------
    list or None
        ``None`` for an array; else one entry per column: the categories of a categorical
        column, ``None`` for any other column.
    """
    if not isinstance(X, pd.DataFrame):
        return None
    return [
        list(X.iloc[:, j].cat.categories) if isinstance(X.dtypes.iloc[j], pd.CategoricalDtype) else None
        for j in range(X.shape[1])
    ]


def holds_numbers(column) -> bool:
    """Whether an object column's present values are all numbers (bools are not), as pandas infers.

    Parameters
    ----------
    column : ndarray of shape (n_samples,)
        One column.

    Returns
    -------
    bool
    """
    kind = pd.api.types.infer_dtype(column, skipna=True)
    return kind in {"integer", "floating", "mixed-integer-float", "decimal"}


def is_nominal_dtype(dtype) -> bool:
    """Whether a DataFrame column of this dtype is nominal: the package's one rule.

    Parameters
    ----------
    dtype : numpy or pandas dtype
        A column's dtype.

    Returns
    -------
    bool
        True for ``category``, ``bool``, ``object``, ``string`` (any non-numeric dtype);
        False for integer and float dtypes, even when every value is whole.
    """
    return (
        isinstance(dtype, pd.CategoricalDtype)
        or pd.api.types.is_bool_dtype(dtype)
        or not pd.api.types.is_numeric_dtype(dtype)
    )


def nominal_columns(X, X_arr) -> np.ndarray:
    """Which columns are nominal when nothing declares it (``categorical_features=None``).

    Parameters
    ----------
    X : DataFrame or array-like
        The table as given (a DataFrame's dtypes decide).
    X_arr : ndarray of shape (n_samples, n_features)
        The same table as an array (read when ``X`` is not a DataFrame).

    Returns
    -------
    ndarray of bool, shape (n_features,)
        A DataFrame's columns by :func:`is_nominal_dtype`; an array's columns of non-numbers
        (strings, bools, mixed), numbers being numeric.
    """
    if isinstance(X, pd.DataFrame):
        return np.array([is_nominal_dtype(dtype) for dtype in X.dtypes], dtype=bool)
    X_arr = np.asarray(X_arr)
    n_features = X_arr.shape[1]
    if X_arr.dtype.kind in "iuf":
        return np.zeros(n_features, dtype=bool)
    if X_arr.dtype.kind == "O":
        return np.array([_holds_values(X_arr[:, j]) for j in range(n_features)], dtype=bool)
    return np.ones(n_features, dtype=bool)  # bools, strings, bytes


def _holds_values(column) -> bool:
    """Whether an object column is nominal: not all numbers, and every present cell a scalar.

    A cell that is no value (a dict, a list) leaves the column to the numeric reader, whose
    error names the offending type.
    """
    if holds_numbers(column):
        return False
    present = column[~np.asarray(pd.isna(column), dtype=bool)]
    return all(isinstance(v, (str, bytes, bool, np.bool_, int, float, np.number)) for v in present)


def sorted_values(values) -> list:
    """Distinct values in a deterministic order: natural order when comparable, else by text.

    Parameters
    ----------
    values : array-like
        Present values (no missing cell).

    Returns
    -------
    list
        The distinct values, sorted; mixed types by type name, then text.
    """
    distinct = pd.unique(pd.Series(values, dtype=object))
    try:
        return sorted(distinct)
    except TypeError:  # mixed types (e.g. strings and numbers): order by type, then text
        return sorted(distinct, key=lambda v: (type(v).__name__, str(v)))


def value_list(column, declared=None, *, categories="declared", order="natural") -> list:
    """The values of one nominal column, in code order.

    Parameters
    ----------
    column : ndarray of shape (n_samples,)
        The column's cells (missing cells are skipped).
    declared : list, optional
        A categorical's categories.
    categories : {"declared", "present"}, default="declared"
        ``"declared"``: ``declared`` as it is when given; ``"present"``: the distinct present
        values.
    order : {"natural", "text"}, default="natural"
        Sort the present values naturally (:func:`sorted_values`) or by their text (equal
        texts in order of first appearance).

    Returns
    -------
    list
    """
    if declared is not None and categories == "declared":
        return list(declared)
    present = np.asarray(column, dtype=object)[~np.asarray(pd.isna(column), dtype=bool)]
    if order == "text":
        return sorted(pd.unique(pd.Series(present, dtype=object)), key=str)
    return sorted_values(present)
