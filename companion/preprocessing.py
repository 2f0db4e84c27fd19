"""Preprocessing shared by the learners: supervised MDL discretisation and nominal encoding.

* :func:`mdl_cut_points` and the transformer :class:`MDLDiscretizer`: the supervised cut points
  of Fayyad & Irani (1993), "Multi-interval discretization of continuous-valued attributes for
  classification learning", IJCAI-93, pp. 1022-1027. WIDC (:class:`companion.widc.DecisionCommittee`)
  booleanises numeric columns at these points; ``Prism(discretizer=MDLDiscretizer())`` and
  ``OneR(discretizer=MDLDiscretizer())`` bin numeric columns at them.
* :class:`NominalEncoding` and :func:`column_kinds`: how the rule learners (Prism, OneR) turn a
  DataFrame or array into integer value codes, which columns are nominal (a DataFrame's dtypes
  or ``categorical_features``, never numbers that happen to be whole) and how numeric columns
  reach a discretiser; :func:`fit_nominal_encoding` / :func:`nominal_codes` are the fit- and
  predict-time entry points of a learner.
* :class:`FrameEncoder`: a DataFrame as one float matrix for the learners on numbers, nominal
  columns as codes or one-hot indicators. :func:`encode_frame` (WIDC's input: codes, nominal
  mask, category names), :func:`one_hot_nominal` (CART's input) and paper 01's
  ``encode_features`` are settings of it. The rule learners' :class:`NominalEncoding` keeps
  its own codes (``-1`` = matches no test, a missing value as a value of its own, numeric
  columns through a discretiser) but takes its value lists from the same helper.

>>> import numpy as np
>>> X = np.array([[1.0], [2.0], [3.0], [4.0], [5.0], [6.0], [np.nan]])
>>> y = np.array(["a", "a", "a", "b", "b", "b", "b"])
>>> MDLDiscretizer().fit(X, y).transform(X).ravel().tolist()
[0.0, 0.0, 0.0, 1.0, 1.0, 1.0, nan]
"""

from __future__ import annotations

import warnings
from collections import deque
from dataclasses import dataclass, field
from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin, _fit_context, clone
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from companion._weights import check_sample_weight
from companion._nominal import (
    MANY_VALUES,
    declared_categories as _declared_categories,
    holds_numbers as _holds_numbers,
    is_nominal_dtype as _is_nominal_dtype,
    nominal_columns as _nominal_columns,
    value_list as _value_list,
)
from companion.numerics import TIE_RTOL, first_near_min
from companion._learner_support import format_number

__all__ = [
    "mdl_cut_points",
    "MDLDiscretizer",
    "MISSING_VALUE_NAME",
    "MANY_VALUES",
    "column_kinds",
    "NominalEncoding",
    "fit_nominal_encoding",
    "nominal_codes",
    "ENCODING_PARAMETER_CONSTRAINTS",
    "positive_weight_rows",
    "nominal_input_tags",
    "FrameEncoder",
    "encode_frame",
    "one_hot_nominal",
    "NumericInput",
    "numeric_input",
]

# --------------------------------------------------------------------------------------------
# Supervised MDL discretisation (Fayyad & Irani 1993)
# --------------------------------------------------------------------------------------------

def _entropy(counts):
    """Class entropy (bits) of each row of a count array."""
    total = counts.sum(axis=-1, keepdims=True)
    p = counts / np.where(total > 0, total, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, -p * np.log2(np.where(p > 0, p, 1)), 0.0)
    return terms.sum(axis=-1)


def mdl_cut_points(values, y, n_classes, max_cuts=8, sample_weight=None):
    """Supervised MDL cut points of one numeric attribute (Fayyad & Irani 1993).

    Each interval is split at the boundary point of least class entropy if the information gain
    passes the MDL test ``gain > (log2(N - 1) + Delta) / N``; intervals are processed
    breadth-first and at most ``max_cuts`` cuts are kept. Missing values (NaN) are ignored.

    Ties: split entropies are sums of logarithms, whose last bit depends on the order of the sum
    and on the CPU's log kernel, so boundary points whose split entropies are within a relative
    :data:`companion.numerics.TIE_RTOL` (``1e-12``) of the least are tied, and the leftmost wins. The MDL test is a
    strict float comparison of two sums of logarithms (not exact; they could only be confused
    by rounding if mathematically equal).

    Parameters
    ----------
    values : ndarray of shape (n_samples,)
    y : ndarray of int, shape (n_samples,)
        Class codes ``0 .. n_classes - 1``.
    n_classes : int
    max_cuts : int
    sample_weight : ndarray of shape (n_samples,), optional
        Frequency weights: the class counts, the interval sizes ``N`` of the MDL test and the
        entropies are weighted counts, so integer weights give the cut points that duplicating
        the rows gives, and zero weights those that dropping them gives (a zero-weight value is
        no boundary).

    Returns
    -------
    ndarray
        Sorted thresholds (midpoints between consecutive distinct values).

    Examples
    --------
    >>> mdl_cut_points(np.array([1., 2, 3, 4, 5, 6, 7, 8]), np.array([0, 0, 0, 0, 1, 1, 1, 1]), 2)
    array([4.5])
    """
    known = ~np.isnan(values)
    if sample_weight is not None:
        known &= np.asarray(sample_weight) > 0
    order = np.argsort(values[known], kind="stable")
    xs = values[known][order]
    ys = y[known][order]
    one_hot = np.eye(n_classes)[ys]
    if sample_weight is not None:
        one_hot = one_hot * np.asarray(sample_weight, dtype=float)[known][order][:, None]
    cumulative = np.vstack([np.zeros((1, n_classes)), np.cumsum(one_hot, axis=0)])
    cuts = []
    queue = deque([(0, xs.size)])
    while queue and len(cuts) < max_cuts:
        lo, hi = queue.popleft()
        total = cumulative[hi] - cumulative[lo]
        size = float(total.sum())
        if hi - lo < 2 or size <= 1:
            continue
        # Boundary candidates: positions p (left part = [lo, p)) between distinct values.
        positions = lo + 1 + np.flatnonzero(xs[lo + 1 : hi] != xs[lo : hi - 1])
        if positions.size == 0:
            continue
        left = cumulative[positions] - cumulative[lo]
        right = total[None, :] - left
        n_left = left.sum(axis=1)
        entropy_left, entropy_right = _entropy(left), _entropy(right)
        split_entropy = (n_left * entropy_left + (size - n_left) * entropy_right) / size
        best = first_near_min(split_entropy, TIE_RTOL)
        entropy_all = float(_entropy(total))
        gain = entropy_all - split_entropy[best]
        k_all = int((total > 0).sum())
        k_left = int((left[best] > 0).sum())
        k_right = int((right[best] > 0).sum())
        delta = np.log2(3.0**k_all - 2) - (
            k_all * entropy_all - k_left * entropy_left[best] - k_right * entropy_right[best]
        )
        if gain > (np.log2(size - 1) + delta) / size:
            p = int(positions[best])
            cuts.append((xs[p - 1] + xs[p]) / 2.0)
            queue.append((lo, p))
            queue.append((p, hi))
    return np.array(sorted(cuts), dtype=float)


class MDLDiscretizer(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Supervised discretiser at the MDL cut points of Fayyad & Irani (1993).

    Every numeric column is cut at :func:`mdl_cut_points` of its present values against the
    class labels (at most ``max_cuts`` cuts), and :meth:`transform` replaces a number ``v`` by
    its bin code, the number of cut points strictly below it: bins are closed on the right,
    ``(-inf, c1], (c1, c2], ..., (ck, inf)`` (cut points are midpoints between training values,
    so no training value falls on one). NaN stays NaN; nominal columns pass through unchanged.

    It plugs into the rule learners: ``Prism(discretizer=MDLDiscretizer())`` fits a clone on
    each numeric column's present values and their labels (leave ``categorical_features`` of
    the discretiser at None there; the learner's own ``categorical_features`` says which
    columns are nominal).

    Parameters
    ----------
    max_cuts : int, default=8
        Largest number of cut points per column (``0``: no cut, every value in bin 0).
    categorical_features : None, "all", list of str, list of int or boolean mask, default=None
        Columns passed through unchanged. ``None``: a DataFrame's category, bool, object and
        string columns, an array's columns of non-numbers (the package's one rule: integer and
        float columns are numeric, even when whole). Otherwise as in
        :class:`companion.prism.Prism` (column names, indices or a mask); the columns not listed
        must hold numbers.

    Attributes
    ----------
    cut_points_ : list of ndarray
        Sorted cut points of every column (empty for a nominal column or a column without a
        cut).
    bin_edges_ : ndarray of object, shape (n_features,)
        ``[-inf, c1, ..., ck, inf]`` per numeric column (``len - 1`` bins, the layout of
        ``KBinsDiscretizer.bin_edges_``); ``None`` for a nominal column.
    nominal_ : ndarray of bool, shape (n_features,)
        The columns passed through.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When fitted on a DataFrame.

    Examples
    --------
    >>> X = np.array([[1.0, 7.0], [2.0, 7.0], [3.0, 8.0], [4.0, 8.0]])
    >>> MDLDiscretizer(categorical_features=[1]).fit(X, [0, 0, 1, 1]).cut_points_[0].tolist()
    [2.5]
    """

    #: Bins are closed on the right (read by :meth:`NominalEncoding.value_name` to print them).
    closed = "right"

    _parameter_constraints = {
        "max_cuts": [Interval(Integral, 0, None, closed="left")],
        "categorical_features": [None, StrOptions({"all"}), "array-like"],
    }

    def __init__(self, *, max_cuts=8, categorical_features=None):
        self.max_cuts = max_cuts
        self.categorical_features = categorical_features

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.input_tags.allow_nan = True
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Find the cut points of every numeric column.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels (any values).
        sample_weight : array-like of shape (n_samples,), optional
            Frequency weights of the rows (:func:`mdl_cut_points`): integer weights give the cut
            points that duplicating the rows gives, zero weights those that dropping them gives.

        Returns
        -------
        self : MDLDiscretizer
        """
        check_sample_weight(self, sample_weight, X)  # one refusal for every learner (companion._weights)
        X_arr, y_arr = validate_data(self, X, y, dtype=None, ensure_all_finite="allow-nan")
        check_classification_targets(y_arr)
        if sample_weight is not None:
            sample_weight = _check_sample_weight(sample_weight, X_arr, dtype=np.float64)
        X_arr = np.asarray(X_arr)
        feature_names = (
            [str(c) for c in self.feature_names_in_]
            if hasattr(self, "feature_names_in_")
            else [f"x{j}" for j in range(X_arr.shape[1])]
        )
        nominal = _frame_kinds(
            X, X_arr, self.categorical_features, feature_names=feature_names, owner=type(self).__name__,
        )
        _, y_codes = np.unique(y_arr, return_inverse=True)
        n_classes = int(y_codes.max()) + 1
        self.nominal_ = nominal
        self.cut_points_, edges = [], []
        for j in range(X_arr.shape[1]):
            if nominal[j]:
                self.cut_points_.append(np.empty(0))
                edges.append(None)
                continue
            cuts = mdl_cut_points(_as_float(X_arr[:, j]), y_codes, n_classes, int(self.max_cuts), sample_weight)
            self.cut_points_.append(cuts)
            edges.append(np.concatenate([[-np.inf], cuts, [np.inf]]))
        self.bin_edges_ = np.empty(len(edges), dtype=object)
        self.bin_edges_[:] = edges
        return self

    def transform(self, X):
        """Bin codes (float, NaN for a missing value) of the numeric columns; nominal ones as they are.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_features)
            Float, or object when a nominal column holds non-numbers.
        """
        check_is_fitted(self)
        X_arr = np.asarray(validate_data(self, X, dtype=None, ensure_all_finite="allow-nan", reset=False))
        try:
            out = _as_float(X_arr)
        except (TypeError, ValueError):
            if not self.nominal_.any():
                raise
            out = X_arr.astype(object)
        for j in np.flatnonzero(~self.nominal_):
            column = _as_float(X_arr[:, j])
            out[:, j] = np.where(np.isnan(column), np.nan, np.searchsorted(self.cut_points_[j], column, side="left"))
        return out

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


def _as_float(block: np.ndarray) -> np.ndarray:
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
            column = _as_float(X_arr[:, j])
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
            column = _as_float(X_arr[:, j])
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
                    numbers = _as_float(column)
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
    discretizer : transformer, "mdl" or None
        ``"mdl"``: :class:`MDLDiscretizer` with its defaults.
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
    if isinstance(discretizer, str) and discretizer == "mdl":
        discretizer = MDLDiscretizer()
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


# --------------------------------------------------------------------------------------------
# A DataFrame as one float matrix (learners on numbers: WIDC, CART)
# --------------------------------------------------------------------------------------------


def _frame_kinds(X, X_arr, categorical_features, *, feature_names, owner) -> np.ndarray:
    """Nominal mask of the numeric-output transformers (:class:`FrameEncoder`, :class:`MDLDiscretizer`).

    ``None``: :func:`_nominal_columns` (a DataFrame's dtypes; an array's non-numeric columns);
    otherwise :func:`column_kinds`.
    """
    if categorical_features is None:
        return _nominal_columns(X, X_arr)
    nominal, _ = column_kinds(
        X, X_arr, categorical_features, has_discretizer=True, feature_names=feature_names, owner=owner,
    )
    return nominal


_FRAME_ENCODER_OPTIONS = {
    "encoding": ("ordinal", "onehot"),
    "categories": ("declared", "present"),
    "order": ("natural", "text"),
    "binary": ("keep", "indicator"),
    "missing_indicator": ("nan", "zero"),
}


class FrameEncoder(TransformerMixin, BaseEstimator):
    """A DataFrame (or array) as one float matrix: numbers as they are, nominal columns coded.

    The one encoder of the learners on numbers: :func:`encode_frame` (WIDC's input, paper 04),
    :func:`one_hot_nominal` (CART's) and ``companion.experiments.paper01._grids.encode_features`` (the
    distance machines of paper 01) are settings of it. Each nominal column gets a list of values
    at fit time (``categories_``); :meth:`transform` writes a value's code ``0 .. k-1``
    (``encoding="ordinal"``) or one 0/1 indicator column per value (``"onehot"``). A value not
    in the list is NaN as a code and 0 in every indicator; a missing cell is NaN as a code and
    ``missing_indicator`` in the indicators.

    Parameters
    ----------
    categorical_features : None, "all", list of str, list of int or boolean mask, default=None
        Nominal columns. ``None``: a DataFrame's category, bool, object and string columns, an
        array's columns of non-numbers (strings, bools); integer and float columns are numeric,
        even when whole. Otherwise as in
        :class:`companion.prism.Prism`; the other columns must hold numbers.
    encoding : {"ordinal", "onehot"}, default="ordinal"
    categories : {"declared", "present"}, default="declared"
        A nominal column's values: ``"declared"``: a categorical column's categories, used or
        not, and the distinct present values of any other column; ``"present"``: the distinct
        present values of the training column.
    order : {"natural", "text"}, default="natural"
        How values that are not declared categories are sorted: as values, or by their text.
    binary : {"keep", "indicator"}, default="keep"
        ``"indicator"``: a nominal column with one or two values becomes one 0/1 column, the
        indicator of its last value, under either encoding.
    missing_indicator : {"nan", "zero"}, default="nan"
        What the indicator columns of a missing nominal cell hold (NaN lets a tree's
        missing-value support route it).

    Attributes
    ----------
    nominal_ : ndarray of bool, shape (n_features_in_,)
    categories_ : list
        ``categories_[j]``: the values of nominal column ``j`` in code order; None for a numeric
        column.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When fitted on a DataFrame with string column names.

    Examples
    --------
    >>> frame = pd.DataFrame({"a": ["y", "n", None], "b": [1.5, 2.0, 3.0]})
    >>> encoder = FrameEncoder(encoding="onehot").fit(frame)
    >>> encoder.transform(frame).tolist()
    [[0.0, 1.0, 1.5], [1.0, 0.0, 2.0], [nan, nan, 3.0]]
    >>> encoder.get_feature_names_out().tolist()
    ['a=n', 'a=y', 'b']
    """

    _parameter_constraints = {
        "categorical_features": [None, StrOptions({"all"}), "array-like"],
        **{name: [StrOptions(set(allowed))] for name, allowed in _FRAME_ENCODER_OPTIONS.items()},
    }

    def __init__(
        self,
        *,
        categorical_features=None,
        encoding="ordinal",
        categories="declared",
        order="natural",
        binary="keep",
        missing_indicator="nan",
    ):
        self.categorical_features = categorical_features
        self.encoding = encoding
        self.categories = categories
        self.order = order
        self.binary = binary
        self.missing_indicator = missing_indicator

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # Numbers, text and categories are all valid input, and so is a missing cell.
        tags.input_tags.allow_nan = tags.input_tags.categorical = tags.input_tags.string = True
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Learn which columns are nominal and their values.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self : FrameEncoder
        """
        declared = _declared_categories(X)
        X_arr = np.asarray(validate_data(self, X, dtype=None, ensure_all_finite="allow-nan"))
        self.columns_ = [str(c) for c in X.columns] if isinstance(X, pd.DataFrame) else (
            [f"x{j}" for j in range(X_arr.shape[1])]
        )
        self.nominal_ = _frame_kinds(
            X, X_arr, self.categorical_features, feature_names=self.columns_, owner=type(self).__name__,
        )
        self.categories_ = []
        for j in range(X_arr.shape[1]):
            if self.nominal_[j]:
                self.categories_.append(_value_list(
                    X_arr[:, j], None if declared is None else declared[j],
                    categories=self.categories, order=self.order,
                ))
            else:
                _as_float(X_arr[:, j])  # refuse non-numbers now, not at transform time
                self.categories_.append(None)
        return self

    def _indicator_only(self, j) -> bool:
        return self.binary == "indicator" and 1 <= len(self.categories_[j]) <= 2

    def transform(self, X):
        """The float matrix of ``X``: numeric columns, then codes or indicators, in column order.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features_in_)
            The columns seen by :meth:`fit`; a nominal value it did not see is a NaN code and
            0 in every indicator.

        Returns
        -------
        ndarray of float, shape (n_samples, len(get_feature_names_out()))
        """
        check_is_fitted(self)
        X_arr = np.asarray(validate_data(self, X, dtype=None, ensure_all_finite="allow-nan", reset=False))
        missing_value = np.nan if self.missing_indicator == "nan" else 0.0
        blocks = []
        for j, values in enumerate(self.categories_):
            column = X_arr[:, j]
            if values is None:
                blocks.append(_as_float(column)[:, None])
                continue
            # Look up each distinct cell once (hashing, as pandas matches values; -1: unknown).
            found, distinct = pd.factorize(column, use_na_sentinel=True)
            lookup = np.append(pd.Index(values, dtype=object).get_indexer(pd.Index(distinct, dtype=object)), -1)
            codes = lookup[found]
            is_missing = np.asarray(pd.isna(column), dtype=bool)
            if self._indicator_only(j):
                block = (codes == len(values) - 1).astype(float)[:, None]
            elif self.encoding == "ordinal":
                blocks.append(np.where(codes >= 0, codes, np.nan).astype(float)[:, None])
                continue
            else:
                block = (codes[:, None] == np.arange(len(values))[None, :]).astype(float)
            block[is_missing] = missing_value
            blocks.append(block)
        if not blocks:
            return np.empty((X_arr.shape[0], 0))
        return np.hstack(blocks)

    def get_feature_names_out(self, input_features=None):
        """Column names: a numeric or ordinal column's name, ``name=value`` for an indicator.

        Parameters
        ----------
        input_features : array-like of str, optional
            Names of the input columns (default: the fitted DataFrame's, else ``x0, x1, ...``).

        Returns
        -------
        ndarray of str
        """
        check_is_fitted(self)
        names = self.columns_ if input_features is None else [str(c) for c in input_features]
        if len(names) != self.n_features_in_:
            raise ValueError(f"input_features must have {self.n_features_in_} names, got {len(names)}")
        out = []
        for j, values in enumerate(self.categories_):
            if values is None or (self.encoding == "ordinal" and not self._indicator_only(j)):
                out.append(names[j])
            elif self._indicator_only(j):
                out.append(f"{names[j]}={values[-1]}")
            else:
                out.extend(f"{names[j]}={v}" for v in values)
        return np.asarray(out, dtype=object)


def encode_frame(X: pd.DataFrame):
    """Numeric array, nominal mask and category names of a data frame.

    :class:`FrameEncoder` with its defaults: categorical and other non-numeric columns become
    nominal codes in their category order (a non-categorical column's distinct values sorted);
    bool columns are nominal too (codes 0 = False, 1 = True); numeric columns stay numbers.
    Missing cells become NaN.

    Parameters
    ----------
    X : DataFrame
        The table.

    Returns
    -------
    array : ndarray of float, shape (n_samples, n_features)
    nominal : ndarray of bool, shape (n_features,)
    category_names : dict {column index: list of str}
        ``category_names[j][code]`` is the value of code ``code`` of nominal column ``j``.

    Examples
    --------
    >>> frame = pd.DataFrame({"a": ["y", "n", None], "b": [1.5, 2.0, 3.0]})
    >>> array, nominal, names = encode_frame(frame)
    >>> array[:, 0].tolist(), nominal.tolist(), names
    ([1.0, 0.0, nan], [True, False], {0: ['n', 'y']})
    """
    if not isinstance(X, pd.DataFrame):
        raise TypeError(f"X must be a pandas DataFrame, got {type(X).__name__}")
    encoder = FrameEncoder().fit(X)
    names = {j: [str(v) for v in values] for j, values in enumerate(encoder.categories_) if values is not None}
    return encoder.transform(X), encoder.nominal_, names


def one_hot_nominal(X, nominal, reference):
    """Numeric columns as they are, nominal columns one-hot over ``reference``'s values.

    ``X`` and ``reference`` are float matrices as :func:`encode_frame` returns them (nominal
    codes, NaN missing); the indicator columns of nominal column ``j`` are the distinct present
    values of ``reference[:, j]``, sorted (:class:`FrameEncoder` with ``encoding="onehot"``,
    ``categories="present"``). A missing nominal value is NaN in every indicator, so that a
    tree's missing-value support decides where it goes.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Rows to encode.
    nominal : array-like of bool, shape (n_features,)
        The nominal columns.
    reference : ndarray of shape (n_reference, n_features)
        The rows whose values make the indicator columns (the training set).

    Returns
    -------
    ndarray of float

    Examples
    --------
    >>> X = np.array([[0.0, 1.5], [2.0, 2.5], [np.nan, 0.5]])
    >>> one_hot_nominal(X, np.array([True, False]), X).tolist()
    [[1.0, 0.0, 1.5], [0.0, 1.0, 2.5], [nan, nan, 0.5]]
    """
    encoder = FrameEncoder(
        categorical_features=np.asarray(nominal, dtype=bool), encoding="onehot", categories="present"
    )
    return encoder.fit(reference).transform(X)


# --------------------------------------------------------------------------------------------
# The one input pipeline of the learners on numbers (stumps, perceptrons)
# --------------------------------------------------------------------------------------------


class NumericInput:
    """How a learner on numbers reads a DataFrame with nominal columns or missing cells.

    The one documented place where the package's learners on numbers (the stump conjunctions of
    :mod:`companion.stumps`, the perceptrons of :mod:`companion.perceptrons`) turn a table into
    numbers, so that ``Learner().fit(frame, y)`` works on a table as it comes:

    * a nominal column (category, object, string or bool dtype; see :class:`FrameEncoder`)
      becomes one 0/1 indicator column per value, named ``column=value`` (a column of one or
      two values: the indicator of its last value); a missing or unseen value is 0 in every
      indicator;
    * a numeric column with a missing cell at fit time gets an indicator column ``column=?``
      (1 where the cell is missing), and its missing cells, at fit and at predict time, take the
      column's training median (of every numeric column, at predict time);
    * the learner then sees the encoded columns under these names, so ``to_text`` names the
      original columns and categories (``sex=male > 0.5``, ``age=? <= 0.5``).

    A DataFrame of numbers without a missing cell, and any array, pass unchanged (arrays keep
    scikit-learn's checks: a string or NaN in an array is refused as before). Used through
    :func:`numeric_input`; the fitted encoder is the learner's ``input_encoder_`` (None when the
    input passed unchanged).
    """

    def __init__(self):
        self.encoder = None

    def fit(self, X):
        """Learn the nominal columns' values, the numeric columns' medians and which had a missing cell.

        Parameters
        ----------
        X : DataFrame

        Returns
        -------
        self : NumericInput
        """
        self.encoder = FrameEncoder(encoding="onehot", binary="indicator", missing_indicator="zero").fit(X)
        encoded = self.encoder.transform(X)
        numeric = [j for j, values in enumerate(self.encoder.categories_) if values is None]
        self.names_ = [str(name) for name in self.encoder.get_feature_names_out()]
        self.numeric_positions_ = [self.names_.index(self.encoder.columns_[j]) for j in numeric]
        columns = encoded[:, self.numeric_positions_]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # an all-missing column: median NaN
            medians = np.nanmedian(columns, axis=0) if columns.size else np.zeros(0)
        self.medians_ = np.where(np.isnan(medians), 0.0, medians)
        had_missing = np.isnan(columns).any(axis=0)
        self.indicator_positions_ = [p for p, flag in zip(self.numeric_positions_, had_missing) if flag]
        self.names_out_ = self.names_ + [f"{self.names_[p]}=?" for p in self.indicator_positions_]
        return self

    def transform(self, X):
        """The encoded frame: numbers only, no missing cell, columns ``names_out_``.

        Parameters
        ----------
        X : DataFrame
            The columns seen by :meth:`fit`.

        Returns
        -------
        DataFrame
        """
        encoded = self.encoder.transform(X)
        indicators = np.isnan(encoded[:, self.indicator_positions_]).astype(np.float64)
        numeric = encoded[:, self.numeric_positions_]
        encoded[:, self.numeric_positions_] = np.where(np.isnan(numeric), self.medians_, numeric)
        return pd.DataFrame(np.hstack([encoded, indicators]), columns=self.names_out_, index=X.index)


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
                        from companion._learner_support import check_numeric_input

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
