"""What every learner of the package shares for its text, probabilities, input checks and export.

Plumbing behind :class:`companion.interpretable.InterpretableMixin` and the learners: the names of
the input columns, how a threshold or weight is printed (every ``to_text``'s ``decimals``), the
Laplace-corrected class frequencies of a rule, ball, leaf or cell, the refusals of non-numeric
columns and of more than two classes, the JSON values an exported model holds, the stacked
staged predictions of a model and the flag of the fallback check's inner fits.

>>> laplace_proba([[3, 0], [1, 1]]).tolist()
[[0.8, 0.2], [0.5, 0.5]]
"""

from __future__ import annotations

import contextlib
import contextvars
import math
from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.utils.validation import _num_samples

__all__ = [
    "resolve_feature_names", "jsonable", "format_number", "laplace_proba", "constant_log_odds", "check_numeric_input",
    "binary_only_error",
]


def canonical_row_order(X, y) -> np.ndarray:
    """The rows of ``(X, y)`` in an order that depends on their content, not their position.

    Rows sorted by a hash of their content and label, numeric columns entering by their dense
    ranks, not their values: the order (and folds cut from it) is the same whatever the order of
    the caller's rows and on the data multiplied by any positive number, as the learners' models
    are. The fallback check's inner folds (:func:`companion.interpretable.beats_default_class`)
    and PrunedDecisionTree's default pruning folds are cut from it.

    Parameters
    ----------
    X : DataFrame or array-like of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)

    Returns
    -------
    ndarray of int of shape (n_samples,)
        Row positions, in the canonical order.
    """
    frame = X if isinstance(X, pd.DataFrame) else pd.DataFrame(np.asarray(X))
    frame = frame.reset_index(drop=True)
    frame = frame.apply(lambda column: column.rank(method="dense") if pd.api.types.is_numeric_dtype(column)
                        and not pd.api.types.is_bool_dtype(column) else column)
    row_keys = pd.util.hash_pandas_object(frame, index=False).to_numpy()
    label_keys = pd.util.hash_pandas_object(pd.Series(np.asarray(y).astype(str)), index=False).to_numpy()
    return np.lexsort((label_keys, row_keys))


def resolve_feature_names(estimator, feature_names=None) -> list[str]:
    """Names of the ``n_features_in_`` input columns of a fitted ``estimator``.

    Parameters
    ----------
    estimator : fitted estimator
    feature_names : sequence of str, optional
        Explicit names; must have one name per input column.

    Returns
    -------
    list of str
        ``feature_names`` if given, else ``feature_names_in_`` (fitted on a DataFrame), else
        ``x0, x1, ...`` (columns counted from 0, as ``get_feature_names_out``).

    Raises
    ------
    ValueError
        If ``feature_names`` does not have ``n_features_in_`` entries.
    """
    n = int(estimator.n_features_in_)
    if feature_names is None:
        names = getattr(estimator, "feature_names_in_", None)
        return [str(name) for name in names] if names is not None else [f"x{j}" for j in range(n)]
    if isinstance(feature_names, str):
        raise TypeError("feature_names must be a sequence of column names, not a single string")
    names = [str(name) for name in feature_names]
    if len(names) != n:
        raise ValueError(f"feature_names has {len(names)} names but the model was fitted on {n} columns")
    return names


def jsonable(value, *, where="value"):
    """``value`` with numpy types replaced by the Python values ``json.dumps`` accepts.

    Parameters
    ----------
    value : object
        Nested dicts, lists, tuples, numpy arrays and scalars, str, bool, int, float or None.
    where : str, default="value"
        What ``value`` is, for the error message (e.g. ``"parameter 'random_state'"``).

    Returns
    -------
    object
        Dicts (with str keys), lists, str, bool, int, float and None only; a non-finite float
        becomes ``"Infinity"``, ``"-Infinity"`` or ``"NaN"`` (strict JSON has no such numbers,
        and ``float()`` reads these strings back).

    Raises
    ------
    TypeError
        If ``value`` holds anything else (an estimator, a generator, ...), naming ``where``.

    Examples
    --------
    >>> jsonable({"t": np.float64(0.5), "k": np.arange(2), "edge": -np.inf})
    {'t': 0.5, 'k': [0, 1], 'edge': '-Infinity'}
    """
    if value is None or type(value) in (str, bool):
        return value
    if isinstance(value, str):  # np.str_ and other subclasses: the plain string
        return str(value)
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, Integral):
        return int(value)
    if isinstance(value, Real):
        value = float(value)
        if math.isfinite(value):
            return value
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, np.ndarray):
        return [jsonable(item, where=where) for item in value.tolist()]
    if isinstance(value, (list, tuple)):
        return [jsonable(item, where=where) for item in value]
    if isinstance(value, dict):
        return {str(key): jsonable(item, where=f"{where}[{key!r}]") for key, item in value.items()}
    raise TypeError(f"{where} is a {type(value).__name__} ({value!r}), which an exported model cannot hold")


def format_number(value, decimals=None) -> str:
    """A printed threshold, weight or bin edge: the meaning of every ``to_text``'s ``decimals``.

    Parameters
    ----------
    value : float
        The number.
    decimals : int or None, default=None
        Decimal places, positional, trailing zeros dropped (``2.50`` prints ``2.5``); None:
        4 significant digits (``%.4g``).

    Returns
    -------
    str

    Examples
    --------
    >>> format_number(2.34567), format_number(2.34567, 2), format_number(-0.001, 2)
    ('2.346', '2.35', '0')
    """
    if decimals is None:
        return f"{value:.4g}"
    text = np.format_float_positional(round(float(value), int(decimals)) + 0.0, trim="-")
    return "0" if text == "-0" else text


def laplace_proba(counts) -> np.ndarray:
    """Laplace-corrected class frequencies, row by row: ``(n_c + 1) / (n + k)``.

    Parameters
    ----------
    counts : array-like of shape (n_cells, n_classes)
        Training examples of each class reaching each cell (rule, ball, leaf).

    Returns
    -------
    ndarray of shape (n_cells, n_classes)
        Rows sum to 1; a cell no example reached gets the uniform ``1 / k``.
    """
    counts = np.asarray(counts, dtype=float)
    if counts.ndim != 2 or np.any(counts < 0):
        raise ValueError("counts must be a 2-D array of non-negative class counts")
    return (counts + 1.0) / (counts.sum(axis=1, keepdims=True) + counts.shape[1])


def constant_log_odds(class_counts) -> float:
    """The score of a two-class model that predicts one class everywhere: its training log-odds.

    A model that keeps no rule, ball, stump or term (a learner's fallback to the majority class)
    scores every row ``log((n_1 + 1) / (n_0 + 1))``, the log-odds of its Laplace-corrected training
    frequencies (:func:`laplace_proba`, what its ``predict_proba`` gives). The value grows with
    the frequency of ``classes_[1]``, so ``sklearn.multiclass.OneVsRestClassifier`` over constant
    models ranks the classes by their training frequency and picks the majority, where a fixed
    ``±1`` would tie every class and pick the first one. The sign is that of ``n_1 - n_0``
    (equal counts score exactly 0, which predicts ``classes_[0]``, the majority rule's tie).
    One scalar ``math.log`` (the platform's libm, not a SIMD loop), the same on every machine
    that has the same libm.

    Parameters
    ----------
    class_counts : array-like of shape (2,)
        Training (weighted) counts of ``classes_[0]`` and ``classes_[1]``.

    Returns
    -------
    float

    Examples
    --------
    >>> round(constant_log_odds([80, 20]), 4), constant_log_odds([5, 5])
    (-1.3499, 0.0)
    """
    n_0, n_1 = (float(c) for c in np.asarray(class_counts, dtype=float).reshape(2))
    return math.log((n_1 + 1.0) / (n_0 + 1.0))


def check_numeric_input(X, estimator_name: str) -> None:
    """Raise a ``ValueError`` naming the first non-numeric column of a DataFrame ``X``.

    A numeric learner (distances, thresholds, kernels) cannot take a string or categorical
    column; numpy's own message (``could not convert string to float: 'nice'``) names neither
    the column nor the fix. Arrays are left to ``validate_data``.

    Parameters
    ----------
    X : array-like or pandas.DataFrame
        The input of ``fit`` or ``predict``.
    estimator_name : str
        The learner's class name, for the message.

    Examples
    --------
    >>> import pandas as pd
    >>> check_numeric_input(pd.DataFrame({"age": [30, 40], "city": ["Paris", "Nice"]}), "DecisionListMachine")
    Traceback (most recent call last):
    ...
    ValueError: DecisionListMachine needs numeric columns, but column 'city' holds non-numeric values (e.g. 'Paris'). Encode it first, e.g. with sklearn.preprocessing.OneHotEncoder in a ColumnTransformer.
    """
    if not isinstance(X, pd.DataFrame):
        return
    for name in X.columns:
        column = X[name]
        if pd.api.types.is_bool_dtype(column) or (
            pd.api.types.is_numeric_dtype(column) and not isinstance(column.dtype, pd.CategoricalDtype)
        ):
            continue
        present = column.dropna()
        # Show a value that is really not a number (a mixed column may start with numbers).
        offending = present[~present.map(lambda v: isinstance(v, (int, float, np.number, bool)))]
        example = offending.iloc[0] if len(offending) else (present.iloc[0] if len(present) else None)
        raise ValueError(
            f"{estimator_name} needs numeric columns, but column {name!r} holds non-numeric values"
            f" (e.g. {example!r}). Encode it first, e.g. with sklearn.preprocessing.OneHotEncoder in a"
            " ColumnTransformer."
        )


def binary_only_error(estimator_name: str, n_classes: int) -> ValueError:
    """The error of a two-class learner given ``n_classes`` classes, naming the multi-class route.

    Parameters
    ----------
    estimator_name : str
        The learner's class name, for the message.
    n_classes : int
        The number of classes seen.

    Returns
    -------
    ValueError
        The error to raise.
    """
    return ValueError(
        f"Only binary classification is supported. {estimator_name} needs exactly 2 classes in y, "
        f"got {n_classes} class(es). For more classes wrap it: "
        f"sklearn.multiclass.OneVsRestClassifier({estimator_name}(...))."
    )


def staged_predictions(model, X) -> np.ndarray:
    """All of a fitted model's ``staged_predict(X)`` as one array, stage by stage.

    Parameters
    ----------
    model : fitted estimator with ``staged_predict``
    X : array-like of shape (n_samples, n_features)

    Returns
    -------
    ndarray of shape (n_stages, n_samples)
        Row ``k - 1``: the predictions of the first ``k`` elements; zero rows when the model
        has none.
    """
    stages = list(model.staged_predict(X))
    if not stages:
        return np.empty((0, _num_samples(X)), dtype=np.asarray(model.classes_).dtype)
    return np.stack(stages)


#: True while :func:`companion.interpretable.beats_default_class` fits its inner clones (in this
#: thread or task only).
INNER_FALLBACK_FIT = contextvars.ContextVar("companion_inner_fallback_fit", default=False)


def fallback_check_running() -> bool:
    """Whether the current fit is one of the fallback check's inner fits.

    The check is :func:`companion.interpretable.beats_default_class`.

    A learner with a fallback to the default class skips its own check then: the inner clones
    measure the model the learner would keep, not a model that could itself fall back. The flag
    is a :class:`contextvars.ContextVar` set only for the duration of the inner fits, so it
    holds no state between calls and is separate in each thread.

    Returns
    -------
    bool
    """
    return INNER_FALLBACK_FIT.get()


@contextlib.contextmanager
def inner_fallback_fit():
    """Mark the fits inside the ``with`` block as inner fits of the fallback check.

    Yields
    ------
    None
    """
    token = INNER_FALLBACK_FIT.set(True)
    try:
        yield
    finally:
        INNER_FALLBACK_FIT.reset(token)
