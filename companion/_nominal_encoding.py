"""The rule learners' nominal encoding: the input of Prism and OneR, and the column kinds of
:class:`companion.preprocessing.MDLDiscretizer` and :class:`companion.preprocessing.FrameEncoder`.

* :class:`NominalEncoding` and :func:`column_kinds`: how the rule learners (Prism, OneR) turn a
  DataFrame or array into integer value codes, which columns are nominal (a DataFrame's dtypes
  or ``categorical_features``, never numbers that happen to be whole) and how numeric columns
  reach a discretiser; :func:`fit_nominal_encoding` / :func:`nominal_codes` are the fit- and
  predict-time entry points of a learner.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.utils._param_validation import HasMethods, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, validate_data

from companion._nominal import (
    MANY_VALUES,
    declared_categories as _declared_categories,
    holds_numbers as _holds_numbers,
    is_nominal_dtype as _is_nominal_dtype,
    nominal_columns as _nominal_columns,
    value_list as _value_list,
)
from companion._learner_support import format_number

__all__ = [
    "MISSING_VALUE_NAME",
    "MANY_VALUES",
    "column_kinds",
    "NominalEncoding",
    "fit_nominal_encoding",
    "nominal_codes",
    "ENCODING_PARAMETER_CONSTRAINTS",
    "positive_weight_rows",
    "nominal_input_tags",
    "frame_kinds",
    "as_float",
]

# --------------------------------------------------------------------------------------------
# Nominal encoding of the rule learners (Prism, OneR)
# --------------------------------------------------------------------------------------------

#: How a missing value is printed when ``missing="value"`` makes it a value of its own. ``?`` is
#: the ARFF missing marker, so it can never collide with a declared value.
MISSING_VALUE_NAME = "?"

def _declared_classes(y) -> list | None:
    """Declared class order of a categorical ``y`` (pandas Series or Categorical), else None."""
    dtype = getattr(y, "dtype", None)
    if isinstance(dtype, pd.CategoricalDtype):
        return list(dtype.categories)
    return None


def as_float(block: np.ndarray) -> np.ndarray:
    """A block of numbers (possibly an object array holding None / pd.NA) as float, NaN = missing."""
    block = np.asarray(block)
    if block.dtype.kind == "O":
        block = np.where(pd.isna(block), np.nan, block)
    return block.astype(float)


_CATEGORICAL_FEATURES_HELP = (
    "categorical_features must be None (column kinds from the DataFrame's dtypes), 'all' (every "
    "column nominal, e.g. integer codes), or a list of column names, a list of column indices or "
    "a boolean mask of the columns"
)


def column_kinds(X, X_arr: np.ndarray, categorical_features, *, has_discretizer: bool, feature_names, owner):
    """Which columns are nominal, and which of those must hold integer codes.

    Parameters
    ----------
    X : DataFrame or array-like
        The table as given (a DataFrame's dtypes decide under ``categorical_features=None``).
    X_arr : ndarray of shape (n_samples, n_features)
        The same table as an array.
    categorical_features : None, "all", list of str, list of int or boolean mask
        As in :class:`companion.prism.Prism`.
    has_discretizer : bool
        Whether numeric columns can be binned.
    feature_names : list of str
        Column names, for the messages.
    owner : str
        The learner's name, for the messages.

    Returns
    -------
    nominal, codes_only : ndarray of bool, shape (n_features,)
        ``nominal`` is False for the numeric columns (binned by the discretiser).
        ``codes_only`` marks the columns of a plain numeric array read as nominal codes under
        ``categorical_features=None`` without a discretiser: their numbers must be finite
        integers.
    """
    n_features = X_arr.shape[1]
    codes_only = np.zeros(n_features, dtype=bool)
    if categorical_features is None:
        nominal = _nominal_columns(X, X_arr)
        # A plain array's numeric columns are binned by a discretiser; without one they can only
        # be columns of integer codes (checked by the caller). A DataFrame's numeric columns are
        # numbers, always.
        if isinstance(X, pd.DataFrame) or has_discretizer:
            return nominal, codes_only
        return np.ones(n_features, dtype=bool), ~nominal
    if isinstance(categorical_features, str):
        if categorical_features == "all":
            return np.ones(n_features, dtype=bool), codes_only
        raise ValueError(
            f"{_CATEGORICAL_FEATURES_HELP}; got the string {categorical_features!r} (to declare one "
            f"column, pass a list: [{categorical_features!r}])"
        )
    try:
        entries = list(categorical_features)
    except TypeError:
        raise TypeError(f"{_CATEGORICAL_FEATURES_HELP}; got {categorical_features!r}") from None
    nominal = np.zeros(n_features, dtype=bool)
    if entries and all(isinstance(v, (bool, np.bool_)) for v in entries):
        if len(entries) != n_features:
            raise ValueError(
                f"categorical_features as a boolean mask needs one entry per column ({n_features}), "
                f"got {len(entries)}"
            )
        nominal[:] = entries
    elif all(isinstance(v, Integral) and not isinstance(v, (bool, np.bool_)) for v in entries):
        bad = [int(v) for v in entries if not 0 <= int(v) < n_features]
        if bad:
            raise ValueError(
                f"categorical_features holds column indices outside [0, {n_features}): {bad}"
            )
        nominal[[int(v) for v in entries]] = True
    elif all(isinstance(v, str) for v in entries):
        known = {name: j for j, name in enumerate(feature_names)}
        unknown = [v for v in entries if v not in known]
        if unknown:
            where = "the DataFrame's columns" if isinstance(X, pd.DataFrame) else (
                "the columns x0, x1, ... (X has no column names: pass a DataFrame or indices)"
            )
            raise ValueError(f"categorical_features names unknown columns {unknown}; not among {where}")
        nominal[[known[v] for v in entries]] = True
    else:
        raise TypeError(f"{_CATEGORICAL_FEATURES_HELP}; got a mix of types: {entries!r}")
    # An undeclared column is numeric: it must hold numbers.
    for j in np.flatnonzero(~nominal):
        if isinstance(X, pd.DataFrame):
            ok = not _is_nominal_dtype(X.iloc[:, j].dtype)
        else:
            ok = X_arr.dtype.kind in "iuf" or _holds_numbers(X_arr[:, j])
        if not ok:
            raise ValueError(
                f"{owner}: column {feature_names[j]!r} holds non-numeric values but is not listed in "
                "categorical_features, so it would be binned as a number; list it in "
                "categorical_features (or leave categorical_features=None to read the kinds from a "
                "DataFrame's dtypes)"
            )
    return nominal, codes_only


def _numeric_refusal(owner, feature_names, numeric, X) -> ValueError:
    """The error for numeric columns without a discretiser (DataFrame dtype or explicit kinds)."""
    name = feature_names[numeric[0]]
    dtype = f" (dtype {X.iloc[:, numeric[0]].dtype})" if isinstance(X, pd.DataFrame) else ""
    return ValueError(
        f"{owner} handles nominal attributes only, but column {name!r} is numeric{dtype}; "
        f"{len(numeric)} column(s) are numeric: {[feature_names[j] for j in numeric][:10]}. Pass "
        f"discretizer=KBinsDiscretizer(n_bins=5, encode='ordinal', strategy='quantile') (any "
        f"transformer returning bin codes) to {owner}(...) so that it bins every numeric column at "
        f"fit time, or declare nominal columns (e.g. integer codes) with categorical_features=[...] "
        f"or a category dtype."
    )


@dataclass
class NominalEncoding:
    """How the columns of a training matrix map to nominal value codes.

    Built by :meth:`fit` from the training data; :meth:`transform` turns any matrix with the
    same columns into integer codes ``0 .. len(values[j]) - 1``, and ``-1`` for "matches no
    test" (a missing value under ``missing="no_match"``, a value never seen in training, or a
    number outside the bins). Under ``missing="value"`` a missing cell of a column that has a
    missing cell at fit time gets the extra last code ``len(declared values)``; a column without
    one gets no such value (a test no training row could satisfy), and a missing cell there
    matches no test.

    Parameters
    ----------
    missing : {"no_match", "value"}
        How a missing cell is coded (see above).
    values : list of lists
        ``values[j]`` are column ``j``'s values in declared order (the missing value last, as
        :data:`MISSING_VALUE_NAME`, under ``missing="value"`` when the column has a missing
        cell); a numeric column's values are its bin codes ``0, 1, ...`` (none at all when the
        discretiser made a single bin and ``drop_single_bin`` was set: a test ``x = (-inf,
        inf)`` would be true of every present value).
    missing_codes : list of int
        The code of a missing cell in each column (``-1``: matches no test).
    numeric_columns : list of int
        Columns binned by the discretiser (empty when none was given).
    discretizers : list of estimators
        One fitted clone of the discretiser per numeric column, fitted on that column's present
        values (so that a missing cell stays missing).
    """

    missing: str
    values: list = field(default_factory=list)
    missing_codes: list = field(default_factory=list)
    numeric_columns: list = field(default_factory=list)
    discretizers: list = field(default_factory=list)

    @classmethod
    def fit(cls, X_arr: np.ndarray, *, X, declared, feature_names, missing: str, discretizer,
            categorical_features, owner: str, y=None, drop_single_bin: bool = False,
            sample_weight=None):
        """Learn each column's value list; numeric columns go to ``discretizer`` or are refused."""
        encoding = cls(missing=missing)
        n_features = X_arr.shape[1]
        nominal, codes_only = column_kinds(
            X, X_arr, categorical_features, has_discretizer=discretizer is not None,
            feature_names=feature_names, owner=owner,
        )
        numeric = np.flatnonzero(~nominal).tolist()
        if numeric and discretizer is None:
            raise _numeric_refusal(owner, feature_names, numeric, X)
        for j in np.flatnonzero(codes_only):
            column = as_float(X_arr[:, j])
            present = column[~np.isnan(column)]
            bad = ~np.isfinite(present) | (present != np.round(present))
            if bad.any():
                raise ValueError(
                    f"{owner} handles nominal attributes only, but column {feature_names[j]!r} holds "
                    f"numbers that are not finite integer codes (e.g. {present[bad][0]!r}). A plain "
                    f"array of numbers is read as integer codes; for numeric columns pass "
                    f"discretizer=KBinsDiscretizer(n_bins=5, encode='ordinal', strategy='quantile') "
                    f"(any transformer returning bin codes) to {owner}(...) so that it bins them at "
                    f"fit time, or name the nominal ones in categorical_features=[...]."
                )
        encoding.numeric_columns = numeric
        numeric_values = {}
        for j in numeric:
            column = as_float(X_arr[:, j])
            present = column[~np.isnan(column)]
            if not present.size:
                raise ValueError(
                    f"{owner}: numeric column {feature_names[j]!r} has no present value to bin"
                )
            # A supervised discretiser (MDLDiscretizer) needs the labels of the same rows; an
            # unsupervised one ignores y, as scikit-learn's fit(X, y=None) convention allows.
            # Frequency weights reach a discretiser that takes them (MDLDiscretizer does).
            keep = ~np.isnan(column)
            extra = {} if sample_weight is None else {"sample_weight": sample_weight[keep]}
            if y is None:
                fitted = clone(discretizer).fit(present.reshape(-1, 1), **extra)
            else:
                fitted = clone(discretizer).fit(present.reshape(-1, 1), y[keep], **extra)
            binned = _bin_codes(fitted, present)
            edges = getattr(fitted, "bin_edges_", None)
            n_bins = len(edges[0]) - 1 if edges is not None else int(binned.max()) + 1
            encoding.discretizers.append(fitted)
            numeric_values[j] = [] if drop_single_bin and n_bins == 1 else list(range(n_bins))
        is_missing = np.asarray(pd.isna(X_arr), dtype=bool)
        for j in range(n_features):
            if j in numeric_values:
                values = numeric_values[j]
            else:
                values = _value_list(X_arr[:, j], None if declared is None else declared[j])
            if missing == "value" and is_missing[:, j].any():
                encoding.missing_codes.append(len(values))
                values = values + [MISSING_VALUE_NAME]
            else:
                encoding.missing_codes.append(-1)
            encoding.values.append(values)
        codes = encoding.transform(X_arr)
        for j in np.flatnonzero(nominal):
            n_distinct = np.unique(codes[~is_missing[:, j], j]).size
            n_present = int(np.count_nonzero(~is_missing[:, j]))
            if n_distinct > MANY_VALUES and 2 * n_distinct > n_present:
                warnings.warn(
                    f"{owner}: nominal column {feature_names[j]!r} has {n_distinct} distinct values in "
                    f"{n_present} rows; every value is a test of its own, so rules on it fit single "
                    f"rows. If it is numeric, bin it (discretizer=..., and leave it out of "
                    f"categorical_features); if it is an identifier, drop it.",
                    UserWarning,
                    stacklevel=4,
                )
        return encoding, codes

    def transform(self, X: np.ndarray) -> np.ndarray:
        """Integer codes of shape ``X.shape``; ``-1`` where a cell matches no test.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
            The validated input matrix (object or numbers).

        Returns
        -------
        ndarray of int64, shape (n_samples, n_features)
        """
        codes = np.full(X.shape, -1, dtype=np.int64)
        for j, values in enumerate(self.values):
            column = X[:, j]
            is_missing = np.asarray(pd.isna(column), dtype=bool)
            if j in self.numeric_columns:
                try:
                    numbers = as_float(column)
                except (TypeError, ValueError):
                    raise ValueError(
                        f"column {j} (counted from 0) was numeric at fit time but now holds non-numeric values"
                    ) from None
                present = ~np.isnan(numbers)
                discretizer = self.discretizers[self.numeric_columns.index(j)]
                n_bins = len(values) - (self.missing_codes[j] >= 0)
                if present.any() and n_bins:
                    binned = _bin_codes(discretizer, numbers[present])
                    # A transformer may return codes it never produced at fit: they match no test.
                    codes[present, j] = np.where(binned < n_bins, binned, -1).astype(np.int64)
            else:
                declared = values[:-1] if self.missing_codes[j] >= 0 else values
                lookup = pd.Index(declared, dtype=object)
                codes[:, j] = lookup.get_indexer(pd.Index(column, dtype=object))
            codes[is_missing, j] = self.missing_codes[j]
        return codes

    def to_dict(self) -> list:
        """The encoding as JSON-able column records (an exported model's ``columns``).

        Returns
        -------
        list of dict
            Per column: ``values`` in code order, ``missing_code`` (-1: none), and for a binned
            column ``edges`` (``[-inf, c1, ..., inf]``) and ``closed`` (``"right"``: bins
            ``(c, d]``, MDL's; ``"left"``: ``[c, d)``, ``KBinsDiscretizer``'s).

        Raises
        ------
        TypeError
            If a discretiser has no ``bin_edges_`` (its bins cannot be written down).
        """
        columns = []
        for j, values in enumerate(self.values):
            column = {"values": list(values), "missing_code": int(self.missing_codes[j])}
            if j in self.numeric_columns:
                fitted = self.discretizers[self.numeric_columns.index(j)]
                edges = getattr(fitted, "bin_edges_", None)
                if edges is None:
                    raise TypeError(
                        f"the discretizer {type(fitted).__name__} has no bin_edges_, so its bins cannot be "
                        "exported; use discretizer='mdl' or KBinsDiscretizer"
                    )
                column["edges"] = [float(v) for v in np.asarray(edges[0], dtype=float)]
                column["closed"] = getattr(fitted, "closed", "left")
            columns.append(column)
        return columns

    @classmethod
    def from_dict(cls, missing: str, columns: list) -> "NominalEncoding":
        """The encoding :meth:`to_dict` wrote (binned columns cut at the stored edges).

        Parameters
        ----------
        missing : {"no_match", "value"}
        columns : list of dict
            :meth:`to_dict`'s output (after a JSON round trip).

        Returns
        -------
        NominalEncoding
        """
        encoding = cls(missing=missing)
        for j, column in enumerate(columns):
            encoding.values.append(list(column["values"]))
            encoding.missing_codes.append(int(column["missing_code"]))
            if "edges" in column:
                encoding.numeric_columns.append(j)
                encoding.discretizers.append(_EdgeBins([float(v) for v in column["edges"]], column["closed"]))
        return encoding

    def value_name(self, j: int, code: int, decimals=None):
        """The printable value of code ``code`` of column ``j`` (a bin's interval when known).

        The first and last bins are open-ended, as ``KBinsDiscretizer.transform`` puts numbers
        outside the training range there: ``(-inf, 3.2)``, ``[3.2, 5)``, ..., ``[7.1, inf)``.

        Parameters
        ----------
        j : int
            Column index.
        code : int
            Value code in that column.
        decimals : int or None, default=None
            Decimal places of a bin's edges (None: 4 significant digits), as every
            ``to_text``'s ``decimals`` (:func:`companion._learner_support.format_number`).

        Returns
        -------
        object
            The value, or the bin's interval as text.
        """
        value = self.values[j][code]
        if j in self.numeric_columns and value != MISSING_VALUE_NAME:
            edges = getattr(self.discretizers[self.numeric_columns.index(j)], "bin_edges_", None)
            if edges is not None:
                edges = edges[0]
                # MDLDiscretizer's bins are closed on the right (a value equal to a cut point goes
                # to the lower bin), KBinsDiscretizer's on the left.
                right = getattr(self.discretizers[self.numeric_columns.index(j)], "closed", "left") == "right"
                lo = ("(" if right else "[") + format_number(edges[code], decimals) if code > 0 else "(-inf"
                hi = format_number(edges[code + 1], decimals) + ("]" if right else ")") if code + 2 < len(edges) else "inf)"
                return f"{lo}, {hi}"
        return value


class _EdgeBins:
    """A fitted one-column discretiser rebuilt from its bin edges (an exported model's)."""

    def __init__(self, edges, closed):
        self.bin_edges_ = np.empty(1, dtype=object)
        self.bin_edges_[0] = np.asarray(edges, dtype=float)
        self.closed = closed

    def transform(self, X):
        inner = self.bin_edges_[0][1:-1]
        side = "left" if self.closed == "right" else "right"
        return np.searchsorted(inner, np.asarray(X, dtype=float)[:, 0], side=side).astype(float)[:, None]


def _bin_codes(discretizer, numbers: np.ndarray) -> np.ndarray:
    """The bin code of every number of one column, from a fitted one-column discretiser."""
    out = discretizer.transform(numbers.reshape(-1, 1))
    if hasattr(out, "toarray"):  # a sparse one-hot matrix
        out = out.toarray()
    out = np.asarray(out, dtype=float)
    if out.ndim != 2 or out.shape[1] != 1:
        raise ValueError(
            "discretizer must return one bin code per column, e.g. KBinsDiscretizer(n_bins=5, "
            f"encode='ordinal'); {type(discretizer).__name__} returned an array of shape "
            f"{out.shape} for one column (encode='onehot' is KBinsDiscretizer's default)"
        )
    codes = out[:, 0]
    if not np.all((codes >= 0) & (codes == np.round(codes))):
        raise ValueError(
            f"discretizer must return non-negative integer bin codes; {type(discretizer).__name__} "
            f"returned e.g. {codes[(codes < 0) | (codes != np.round(codes))][0]!r}"
        )
    return codes


def fit_nominal_encoding(
    estimator, X, y, *, missing, discretizer, categorical_features, drop_single_bin=False, sample_weight=None
):
    """Validate ``X, y``; return ``(codes, y, class_order, encoding, feature_names)`` for a rule learner.

    Parameters
    ----------
    estimator : Prism or OneR
        The learner being fitted (``validate_data`` records its input names and width).
    X : DataFrame or array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    missing : {"no_match", "value"}
    discretizer : transformer or None
        The learner's discretiser (it resolves ``"mdl"`` to
        :class:`companion.preprocessing.MDLDiscretizer` first).
    categorical_features : see :func:`column_kinds`
    drop_single_bin : bool, default=False
        Give a numeric column the discretiser cut into one bin no value (no test).
    sample_weight : ndarray of shape (n_samples,), optional
        Passed to the discretiser's ``fit`` (rows of zero weight must be dropped by the caller).

    Returns
    -------
    tuple
        ``(codes, y, class_order, encoding, feature_names)``.
    """
    declared = _declared_categories(X)
    declared_classes = _declared_classes(y)
    X_arr, y_arr = validate_data(estimator, X, y, dtype=None, ensure_all_finite=False)
    check_classification_targets(y_arr)
    X_arr = np.asarray(X_arr)
    if X_arr.dtype.kind == "c":  # pragma: no cover - check_array already refuses complex data
        raise ValueError("complex data are not supported")
    feature_names = (
        [str(c) for c in estimator.feature_names_in_]
        if hasattr(estimator, "feature_names_in_")
        else [f"x{j}" for j in range(X_arr.shape[1])]
    )
    encoding, codes = NominalEncoding.fit(
        X_arr,
        X=X,
        declared=declared,
        feature_names=feature_names,
        missing=missing,
        discretizer=discretizer,
        categorical_features=categorical_features,
        owner=type(estimator).__name__,
        y=y_arr,
        drop_single_bin=drop_single_bin,
        sample_weight=sample_weight,
    )
    classes = np.unique(y_arr)
    if declared_classes is not None:
        present = set(classes.tolist())
        class_order = [c for c in declared_classes if c in present]
    else:
        class_order = classes.tolist()
    return codes, y_arr, class_order, encoding, feature_names


def nominal_codes(estimator, X) -> np.ndarray:
    """Codes of ``X`` under the fitted ``estimator.encoding_`` (validated against the fit).

    Parameters
    ----------
    estimator : fitted Prism or OneR
    X : DataFrame or array-like of shape (n_samples, n_features)

    Returns
    -------
    ndarray of int64, shape (n_samples, n_features)
    """
    X_arr = validate_data(estimator, X, dtype=None, ensure_all_finite=False, reset=False)
    return estimator.encoding_.transform(np.asarray(X_arr))


def positive_weight_rows(X, y, sample_weight):
    """``X``, ``y`` without their zero-weight rows, and the weights of the rest.

    The rule learners treat weights as frequencies: a zero weight is a row that is not there, so
    it is dropped before anything (value lists, discretiser cut points) sees it.

    Parameters
    ----------
    X : DataFrame or array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,) or None
        Non-negative weights.

    Returns
    -------
    X, y : the rows of positive weight (a DataFrame or Series stays one)
    weight : ndarray of float or None
        Their weights; ``None`` when every weight is 1 (no weights: integer counts).
    """
    if sample_weight is None:
        return X, y, None
    weight = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
    keep = weight > 0
    if not keep.all():
        X = X.iloc[keep] if isinstance(X, pd.DataFrame) else np.asarray(X, dtype=None)[keep] if not (
            hasattr(X, "tocsr")) else X[keep]
        y = y.iloc[keep] if isinstance(y, pd.Series) else np.asarray(y)[keep]
        weight = weight[keep]
    return X, y, (None if np.all(weight == 1.0) else weight)


#: The ``_parameter_constraints`` shared by the rule learners on nominal attributes (Prism,
#: OneR): ``discretizer`` and ``categorical_features``.
ENCODING_PARAMETER_CONSTRAINTS = {
    "discretizer": [None, StrOptions({"mdl"}), HasMethods(["fit", "transform"])],
    "categorical_features": [None, StrOptions({"all"}), "array-like"],
}


def nominal_input_tags(tags):
    """Tags of a learner on nominal attributes (Prism, OneR).

    scikit-learn's checks then feed integer codes (check_estimator rounds its float data);
    strings and missing cells are valid input.

    Parameters
    ----------
    tags : sklearn.utils.Tags
        The learner's tags.

    Returns
    -------
    sklearn.utils.Tags
        The same tags, with categorical, string and NaN input allowed.
    """
    tags.input_tags.categorical = True
    tags.input_tags.string = True
    tags.input_tags.allow_nan = True
    return tags



def frame_kinds(X, X_arr, categorical_features, *, feature_names, owner) -> np.ndarray:
    """Nominal mask of the numeric-output transformers (:class:`FrameEncoder`, :class:`companion.preprocessing.MDLDiscretizer`).

    ``None``: :func:`_nominal_columns` (a DataFrame's dtypes; an array's non-numeric columns);
    otherwise :func:`column_kinds`.
    """
    if categorical_features is None:
        return _nominal_columns(X, X_arr)
    nominal, _ = column_kinds(
        X, X_arr, categorical_features, has_discretizer=True, feature_names=feature_names, owner=owner,
    )
    return nominal
