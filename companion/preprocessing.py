"""Preprocessing shared by the learners: supervised MDL discretisation and the one input pipeline.

* :func:`mdl_cut_points` and the transformer :class:`MDLDiscretizer`: the supervised cut points
  of Fayyad & Irani (1993), "Multi-interval discretization of continuous-valued attributes for
  classification learning", IJCAI-93, pp. 1022-1027. WIDC (:class:`companion.widc.DecisionCommittee`)
  booleanises numeric columns at these points; ``Prism(discretizer=MDLDiscretizer())`` and
  ``OneR(discretizer=MDLDiscretizer())`` bin numeric columns at them.
* The rule learners' nominal encoding (Prism, OneR: integer value codes, which columns are
  nominal, numeric columns through a discretiser) is their private engine,
  :mod:`companion._nominal_encoding`, beside :class:`MDLDiscretizer`, which it uses.
* :class:`FrameEncoder`: a DataFrame as one float matrix for the learners on numbers, nominal
  columns as codes or one-hot indicators. :func:`encode_frame` (WIDC's input: codes, nominal
  mask, category names), paper 04's one-hot input of CART and paper 01's
  ``encode_features`` are settings of it. The rule learners' nominal encoding keeps
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
from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin, _fit_context
from sklearn.utils._param_validation import Interval, StrOptions, validate_params
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from companion._weights import check_sample_weight
from companion._nominal import declared_categories as _declared_categories
from companion._nominal import value_list as _value_list
from companion._nominal_encoding import MISSING_VALUE_NAME, as_float, frame_kinds
from companion.numerics import TIE_RTOL, StrictInterval, first_near_min

__all__ = [
    "mdl_cut_points",
    "MDLDiscretizer",
    "MISSING_VALUE_NAME",
    "FrameEncoder",
    "encode_frame",
    "NumericInput",
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


@validate_params(
    {
        "values": [np.ndarray],
        "y": [np.ndarray],
        "n_classes": [StrictInterval(Integral, 1, None, closed="left")],
        "max_cuts": [StrictInterval(Integral, 0, None, closed="left")],
        "sample_weight": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
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
        Number of classes (at least 1).
    max_cuts : int, default=8
        Cut points at most.
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
        nominal = frame_kinds(
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
            cuts = mdl_cut_points(as_float(X_arr[:, j]), y_codes, n_classes, int(self.max_cuts), sample_weight)
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
            out = as_float(X_arr)
        except (TypeError, ValueError):
            if not self.nominal_.any():
                raise
            out = X_arr.astype(object)
        for j in np.flatnonzero(~self.nominal_):
            column = as_float(X_arr[:, j])
            out[:, j] = np.where(np.isnan(column), np.nan, np.searchsorted(self.cut_points_[j], column, side="left"))
        return out


# --------------------------------------------------------------------------------------------
# A DataFrame as one float matrix (learners on numbers: WIDC, CART)
# --------------------------------------------------------------------------------------------




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
    paper 04's one-hot input of CART and ``companion.experiments.paper01._grids.encode_features`` (the
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
        self.nominal_ = frame_kinds(
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
                as_float(X_arr[:, j])  # refuse non-numbers now, not at transform time
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
                blocks.append(as_float(column)[:, None])
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


# A wrapper around FrameEncoder: its fit validates again (scikit-learn's rule for such wrappers).
@validate_params({"X": [pd.DataFrame]}, prefer_skip_nested_validation=False)
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
    encoder = FrameEncoder().fit(X)
    names = {j: [str(v) for v in values] for j, values in enumerate(encoder.categories_) if values is not None}
    return encoder.transform(X), encoder.nominal_, names


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
    ``companion._numeric_input.numeric_input``; the fitted encoder is the learner's ``input_encoder_`` (None when the
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
