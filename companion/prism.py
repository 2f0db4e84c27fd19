"""PRISM: modular covering rules for nominal attributes (Cendrowska 1987), Weka-exact.

PRISM is the *separate-and-conquer* rule learner of the covering-algorithm slides (after Witten
& Frank, *Data Mining*, ch. 4.4; slides 15-16, "Pseudo-code for PRISM"). For each class C in
turn, it grows rules on the set E of instances not yet covered by a rule for C: a rule starts
with an empty left-hand side and is specialised one ``attribute = value`` test at a time, each
time taking the test that maximises the accuracy :math:`p/t` of the rule (``t`` instances
covered, ``p`` of them of class C), breaking ties by the larger ``p``; when the rule is perfect
(``p = t``) or every attribute is used, the instances it covers are removed from E ("separated")
and the next rule is grown on the rest ("conquered").

:class:`Prism` follows ``weka.classifiers.rules.Prism`` (Weka 3.6) step for step, so that on any
all-nominal data set it emits Weka's rule list: the same rules, in the same order, with their
conditions in the order they were added:

* classes in their declared order (the categories of a categorical ``y``; sorted otherwise);
  for every class, E starts again from the **whole** training set;
* candidates scanned attribute by attribute (column order), values in declared order (the
  categories of a categorical column; sorted otherwise); a candidate replaces the best one when
  ``p * t_best - p_best * t > 0`` (exact integer cross-multiplication) or the ratios are equal
  and its ``p`` is larger; exact ties keep the earliest attribute, then the earliest value;
* a rule grown on a set that holds class C only has no test at all: it is perfect as it is and
  covers everything (Weka prints it as the bare class name).

Counting is vectorised: the ``p`` and ``t`` of every ``attribute = value`` test at once are
the column sums of the data's one-hot matrix over the rows still covered (stored sparsely and
summed with one ``bincount``), kept up to date from whichever of the kept and dropped rows is
the smaller set (and, for a rule that starts with the previous rule's tests, by subtracting
that rule's counts from the previous ones); ratios are compared by exact integer
cross-multiplication (or, for counts below 2^26, as doubles, which is then exact). Nothing loops over
instances or candidate tests. On ``supermarket`` (4627 x 216) this learns Weka's 1506 rules,
identical, more than ten times faster than Weka's own build on the same machine (the times
``make bench`` measured are in ``figures/benchmarks.csv``; ``benchmarks/prism_supermarket.py``).

Missing values (Weka refuses them at training time) are handled in one of two documented ways:
``missing="value"`` (missing is one more value of the attribute, declared after the others and
printed ``?``; the default, and how Weka's 1506-rule model of ``supermarket`` is obtained) or
``missing="no_match"`` (a missing value satisfies no test, so it never helps a rule).

Numeric columns are binned by a ``discretizer`` (by default the supervised MDL cut points of
:class:`companion.preprocessing.MDLDiscretizer`; every numeric column is binned); which columns are
nominal comes from a DataFrame's dtypes or from ``categorical_features``, never from numbers
that happen to be whole. ``predict_proba`` gives the Laplace-corrected class frequencies of the
training instances that the firing rule reaches first (see :class:`Prism`, "Scores").

>>> from companion.datasets import load_contact_lenses
>>> X, y = load_contact_lenses()
>>> prism = Prism(pruning=None).fit(X, y)  # Cendrowska's and Weka's PRISM
>>> len(prism.rules_)
9
>>> print(prism.rules_[3])
If astigmatism = yes and tear-prod-rate = normal and spectacle-prescrip = myope then hard
>>> prism.score(X, y)
1.0
>>> prism.predict_proba(X.iloc[[0]]).round(3).tolist()  # classes_: hard, none, soft
[[0.067, 0.867, 0.067]]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils._param_validation import StrOptions, validate_params
from sklearn.utils.validation import check_is_fitted

from companion._weights import check_sample_weight
from companion._learner_support import laplace_proba
from companion.interpretable import InterpretableMixin, beats_default_class
from companion._learner_support import fallback_check_running
from companion.numerics import TIE_RTOL, StrictInterval
from companion.preprocessing import MDLDiscretizer
from companion._nominal_encoding import (
    ENCODING_PARAMETER_CONSTRAINTS,
    NominalEncoding,
    fit_nominal_encoding,
    nominal_codes,
    nominal_input_tags,
    positive_weight_rows,
)

__all__ = ["Prism", "PrismRule"]

_MISSING_POLICIES = ("no_match", "value")
_UNCOVERED_POLICIES = ("default_class", "unclassified")
_PRUNING = ("j_measure", "jmax")


# --------------------------------------------------------------------------------------------
# Counting (the encoding of the columns into value codes is companion.preprocessing's, shared
# with OneR)
# --------------------------------------------------------------------------------------------


#: Subsets of at most this many cells (rows x attributes) are counted cell by cell (see count).
DENSE_CELLS = 2**12


class _TestCounts:
    """Counts ``p`` and ``t`` of every ``attribute = value`` test over any subset of rows.

    Conceptually the data are one-hot encoded once (one column per test: attributes in column
    order, values in declared order) and ``t`` / ``p`` are the column sums of that matrix over
    the rows of a subset / over its rows of the class. Stored compactly: every cell is a test
    index (or its attribute's "no test" slot, for a cell that satisfies none), and only the
    cells that differ from their attribute's most frequent slot are kept, row by row (CSR).
    A subset's counts are one ``bincount`` of its kept cells; each attribute's most frequent
    slot is then the subset's size minus the attribute's other counts. Integers throughout,
    and the work per row is its number of non-default cells (a few dozen on ``supermarket``
    instead of the 432 one-hot columns).

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features)
        Value codes, ``-1`` for "satisfies no test".
    n_values : ndarray of shape (n_features,)
        Number of values of each attribute.
    """

    def __init__(self, codes: np.ndarray, n_values: np.ndarray, weight=None):
        n_samples, n_features = codes.shape
        #: Frequency weights of the rows (None: every row counts 1, integer counts).
        self.weight = None if weight is None else np.asarray(weight, dtype=np.float64)
        self.n_tests = int(n_values.sum())
        # Slots: attribute a owns slots offsets[a] .. offsets[a] + n_values[a], the last one
        # being its "no test" slot.
        slots_per_attribute = n_values + 1
        self.offsets = np.concatenate([[0], np.cumsum(slots_per_attribute)])
        self.n_slots = int(self.offsets[-1])
        slot_attribute = np.repeat(np.arange(n_features), slots_per_attribute)
        slot_value = np.arange(self.n_slots) - self.offsets[slot_attribute]
        self.is_test = slot_value < n_values[slot_attribute]
        self.test_attribute = slot_attribute[self.is_test]
        self.test_value = slot_value[self.is_test]
        self.slot_of_test = np.flatnonzero(self.is_test)
        #: the tests of attribute a are test_start[a] .. test_start[a + 1] (attribute-major)
        self.test_start = np.concatenate([[0], np.cumsum(n_values)])
        dtype = np.int32 if 2 * self.n_slots < 2**31 else np.int64
        slots = np.where(codes >= 0, codes, n_values).astype(dtype) + self.offsets[:-1].astype(dtype)
        #: (n_features, n_samples) slot of every cell, attribute-major so that splitting the
        #: rows of a rule by one attribute reads contiguous memory.
        self.cell_slot = np.ascontiguousarray(slots.T)
        frequency = np.bincount(slots.ravel(), minlength=self.n_slots)
        # The most frequent slot of each attribute (first on ties) is left implicit.
        self.default_slot = np.array(
            [self.offsets[a] + np.argmax(frequency[self.offsets[a] : self.offsets[a + 1]])
             for a in range(n_features)],
            dtype=dtype,
        )
        explicit = slots != self.default_slot[None, :]
        #: number of kept (non-default) cells of every row, and where each row's cells start
        self.row_length = explicit.sum(axis=1).astype(np.int64)
        self.indptr = np.concatenate([[0], np.cumsum(self.row_length)]).astype(np.int64)
        self.cells = slots[explicit].astype(np.intp)  # row-major: row by row, attributes in order
        self._row_slots = slots.astype(np.intp)  # (n_samples, n_features), for small subsets
        self.cell_row = np.repeat(np.arange(n_samples), self.row_length)
        self.cell_weight = None if self.weight is None else self.weight[self.cell_row]
        self.n_samples = n_samples
        self._positive = None

    def set_class(self, positive: np.ndarray) -> None:
        """Fix the positive rows (one class) that :meth:`count` counts ``p`` over.

        Every kept cell of a positive row is stored shifted by ``n_slots``, so that one
        ``bincount`` of a subset's cells gives its negative and positive counts side by side.
        """
        self._positive = np.asarray(positive, dtype=bool)
        # intp: bincount would convert any other integer type, one more pass per count
        self._class_cells = self.cells + (self._positive[self.cell_row] * self.n_slots)
        # Every cell (defaults included) with the same shift, attribute-major: a small subset's
        # counts are one bincount of its columns (see count).
        if self.weight is None:
            self._class_slot = self._row_slots + (self._positive * self.n_slots)[:, None]

    def test_slot(self, test: int) -> int:
        return int(self.slot_of_test[test])

    def count(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(p, t)`` of every test over ``rows`` (int64 arrays of length ``n_tests``).

        ``p`` counts the rows of the class fixed by :meth:`set_class`.
        """
        width = self.n_slots
        if self.weight is None and rows.size * self.cell_slot.shape[0] <= DENSE_CELLS:
            # Few rows: count every cell of theirs (defaults included), fewer array operations.
            both = np.bincount(self._class_slot[rows].ravel(), minlength=2 * width)
            both = both.reshape(2, width)[:, self.slot_of_test]
            return both[1], both[0] + both[1]
        lengths = self.row_length[rows]
        # Positions of the rows' kept cells: each row's run start .. start + length.
        ends = np.cumsum(lengths)
        gather = np.arange(int(ends[-1]) if ends.size else 0, dtype=np.int64)
        gather += np.repeat(self.indptr[rows] - (ends - lengths), lengths)
        if self.weight is None:
            both = np.bincount(self._class_cells[gather], minlength=2 * width).reshape(2, width)
            n_positive = int(np.count_nonzero(self._positive[rows]))
            n_rows = np.array([[rows.size - n_positive], [n_positive]])
        else:
            both = np.bincount(
                self._class_cells[gather], weights=self.cell_weight[gather], minlength=2 * width
            ).reshape(2, width)
            w = self.weight[rows]
            w_positive = float(w[self._positive[rows]].sum())
            n_rows = np.array([[float(w.sum()) - w_positive], [w_positive]])
        # The implicit (most frequent) slot of each attribute: the rest of the subset.
        both[:, self.default_slot] = n_rows - np.add.reduceat(both, self.offsets[:-1], axis=1)
        both = both[:, self.slot_of_test]
        return both[1], both[0] + both[1]


# --------------------------------------------------------------------------------------------
# Rules
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PrismRule:
    """One modular rule ``IF a1 = v1 AND a2 = v2 ... THEN label``.

    Parameters
    ----------
    label : object
        The class the rule predicts.
    conditions : tuple of (str, object)
        ``(attribute name, value)`` in the order the tests were added; empty for the rule that
        covers everything (grown on a set holding its class only).
    attributes, codes : tuple of int
        The same tests as column indices and value codes (what prediction uses).
    p, t : int
        On the instances the rule was grown on (the set E when it was finished): ``t`` covered,
        ``p`` of them of class ``label``. ``p == t`` unless the attributes ran out.
    """

    label: object
    conditions: tuple
    attributes: tuple
    codes: tuple
    p: int
    t: int

    @property
    def perfect(self) -> bool:
        """Whether the rule made no error on the instances it was grown on."""
        return self.p == self.t

    def to_text(self, feature_names=None, *, weka_layout: bool = False) -> str:
        """``If a = v and b = w then c``; ``weka_layout`` breaks lines as Weka prints them.

        Parameters
        ----------
        feature_names : sequence of str, optional
            Names of all input columns (indexed by ``attributes``); default: the names stored
            in ``conditions`` at fit time.
        weka_layout : bool, default=False
            Break the line before each ``and``, as Weka prints.

        Returns
        -------
        str
        """
        if not self.conditions:
            return str(self.label)
        if feature_names is None:
            names = [name for name, _ in self.conditions]
        else:
            names = [feature_names[a] for a in self.attributes]
        joiner = "\n   and " if weka_layout else " and "
        tests = joiner.join(f"{name} = {value}" for name, (_, value) in zip(names, self.conditions))
        return f"If {tests} then {self.label}"

    def __str__(self) -> str:
        return self.to_text()


# --------------------------------------------------------------------------------------------
# The estimator
# --------------------------------------------------------------------------------------------


class Prism(InterpretableMixin, ClassifierMixin, BaseEstimator):
    """PRISM covering rules (Cendrowska 1987), exactly as Weka's ``Prism`` learns them.

    The algorithm of the covering-algorithm slides (slides 15-16, "Pseudo-code for PRISM";
    Witten & Frank, ch. 4.4): for each class, grow rules by adding the ``attribute = value``
    test of largest accuracy :math:`p/t` (ties: larger ``p``, then earlier attribute, then
    earlier value) until the rule is perfect, then remove the instances it covers and repeat
    while instances of the class remain.

    Parameters
    ----------
    missing : {"value", "no_match"}, default="value"
        ``"value"``: missing is one more value of every attribute that has a missing cell at
        fit time, declared last and printed ``?``; a rule may test it (``income = ?``), which
        is what Weka's 1506-rule model of ``supermarket`` needs (Weka's Prism refuses missing
        values, so its input writes them as a value). ``"no_match"``: a missing cell satisfies
        no test, so it never helps a rule (at prediction too). On tables with missing cells
        ``"value"`` measured better in stratified 5-fold CV (seed 0, default discretiser):
        UCI hepatitis 0.794 against 0.723, votes 0.943 against 0.910, breast-w 0.944 against
        0.927, a 400-row mixed table with 8 % missing cells in three columns 0.682 against
        0.657, mushroom 1.000 both; hence the default. On a table without missing cells the two give the same rules. A missing cell
        of a numeric column is missing too (the discretiser never sees it).
    uncovered : {"default_class", "unclassified"}, default="default_class"
        Prediction for an instance that no rule covers (PRISM has no default rule).
        ``"default_class"``: the training set's most frequent class (the earliest in class
        order on ties). ``"unclassified"``: ``None`` (as Weka reports it); predictions are then
        an object array.
    discretizer : "mdl", transformer or None, default="mdl"
        PRISM is for nominal attributes; numeric columns (see ``categorical_features``) are
        binned, every one of them (whole numbers included), and the bins become the values
        (printed as intervals; ``to_text(decimals=2)`` prints their edges to 2 decimal places). ``"mdl"``: :class:`companion.preprocessing.MDLDiscretizer`
        (Fayyad & Irani's supervised cut points). A transformer, e.g.
        ``KBinsDiscretizer(n_bins=5, encode="ordinal", strategy="quantile")``, is cloned and
        fitted on each numeric column's present values and their class labels (``fit(column,
        y)``; an unsupervised discretiser ignores ``y``) at fit time. A column cut into a single
        bin gets no test (``income = (-inf, inf)`` would be true of every present value).
        ``None``: numeric columns are refused, with an error naming the column (Weka's Prism).
    keep_trace : bool, default=False
        Record the ``p`` and ``t`` of every candidate test at every step in ``trace_``.
    pruning : "j_measure" or None, default="j_measure"
        ``None``: Cendrowska's PRISM as published and as Weka implements it, every rule grown
        until it is perfect and kept (what notebook 02 reproduces, which passes
        ``pruning=None``). ``"j_measure"`` (the default for users): Bramer's *J-pruning*
        (M. Bramer, "Using J-pruning to reduce overfitting of classification rules in noisy
        domains", DEXA 2002, LNCS 2453:433-442; "An information-theoretic approach to the
        pre-pruning of classification rules", IIP 2002): a rule stops being specialised as soon
        as the next test would *lower* its J-measure (Smyth & Goodman 1992), ``J = P(A) [P(C|A)
        log2(P(C|A)/P(C)) + (1-P(C|A)) log2((1-P(C|A))/(1-P(C)))]`` with the probabilities
        estimated on the set E the rule grows on, so an imperfect rule is kept at the length of
        largest J instead of fitting noise with more tests. Then, on the training margin, a rule
        that does not classify the rows it decides (those it is the first to cover) better than
        the list without it is dropped, repeatedly, the smallest margin first: without it, each
        of those rows falls to the next rule that covers it, or to the default class (the most
        frequent) when none does, and a rule whose rows are classified at least as well that way
        is not needed (a rule of the default class that no later rule overlaps always goes; an
        early rule that takes rows a later rule gets right goes too). Last,
        the pruned list must beat the default class on inner folds
        (:func:`companion.interpretable.beats_default_class`, 3 stratified folds), else the
        model falls back to the default class alone, and says so. On
        tables with little signal this leaves few rules or none (the model is then the default
        class, printed ``always C``, with a
        :class:`companion.interpretable.SingleClassWarning`).
    categorical_features : None, "all", list of str, list of int or boolean mask, default=None
        Which columns are nominal; the others are numeric, and numeric columns are binned by
        ``discretizer``. ``None``: from the types. For a DataFrame, from the dtypes
        (``category``, ``object``, ``string`` and ``bool`` columns are nominal, numeric dtypes
        numeric, even when the numbers happen to be whole: ``income`` in whole dollars is
        numeric). A plain array has no per-column dtype: a column of numbers is numeric (with
        ``discretizer=None`` it is read as integer codes, and non-integers are refused); columns
        of strings or bools are nominal. ``"all"``: every column is nominal (e.g. an array of
        integer codes; nothing is binned). A list of names (DataFrame columns) or indices
        (counted from 0), or a boolean mask: those columns are nominal, all others numeric.

    Attributes
    ----------
    complexity_ : int
        Size of the model: the attribute tests (conditions) of all rules.
    classes_ : ndarray
        Sorted class labels (scikit-learn's convention).
    class_order_ : list
        The order in which classes are learnt: the categories of a categorical ``y``, else
        sorted. Rules appear in this order.
    rules_ : list of PrismRule
        The ordered rule list; prediction fires the first rule that covers an instance.
    default_class_ : object
        The most frequent training class (used by ``uncovered="default_class"``).
    uncoverable_ : int
        Training instances left uncovered because no test could separate them (only possible
        under ``missing="no_match"``, when all their remaining attributes are missing).
    cell_counts_ : ndarray of shape (n_rules, n_classes)
        Training instances of each class (columns in ``classes_`` order) whose *first*
        covering rule is each rule: what :meth:`predict_proba` reads.
    class_counts_ : ndarray of shape (n_classes,)
        Training instances of each class.
    encoding_ : companion._nominal_encoding.NominalEncoding
        Each column's values in declared order; ``encoding_.numeric_columns`` are the binned
        columns.
    trace_ : pandas.DataFrame
        Only with ``keep_trace=True``: columns ``rule`` (index in ``rules_``), ``class``,
        ``step`` (1 = the first test), ``attribute``, ``value``, ``p``, ``t``, ``selected``.
    n_features_in_, feature_names_in_
        As in scikit-learn.

    Notes
    -----
    Inputs: a pandas DataFrame (categorical columns keep their declared category order, which
    is the tie-break order, as in Weka; other nominal columns are sorted), or a 2-D array of
    strings or integer codes. Values never seen in training match no test. A nominal column
    with more than :data:`companion._nominal.MANY_VALUES` (50) distinct values, more than half of its present
    cells, warns (``UserWarning``): each value is a test, so the rules would fit single rows.

    **Scores.** :meth:`predict_proba` is the Laplace-corrected class frequency
    ``(n_c + 1) / (n + k)`` (:func:`companion._learner_support.laplace_proba`) of the training
    instances whose first covering rule is the rule that fires (``cell_counts_``); a
    rule that no training instance reaches first gives the uniform ``1 / k``. An instance no
    rule covers gets the Laplace-corrected frequencies of the whole training set
    (``class_counts_``), whose largest is the ``default_class`` prediction, under either
    ``uncovered`` policy. :meth:`predict` is the firing rule's class, which is the argmax of
    these frequencies when the rule's first-reached training instances are mostly of its class
    (always for perfect rules that some training instance reaches first); an imperfect rule, a
    rule reached by no training instance, or a tie may make them differ. PRISM has no margin,
    so there is no ``decision_function``.

    **Weights.** ``sample_weight`` are frequencies: ``p`` and ``t`` are sums of the weights of
    the rows a test covers (of the class, and in all), instead of counts, and so are
    ``cell_counts_``, ``class_counts_`` and the default class; the MDL cut points are weighted
    too. Integer weights give the rules that duplicating the rows gives, zero weights the rules
    that dropping them gives (such rows are dropped first), and unit weights (or none) are
    Weka's PRISM, exact integer arithmetic included. Whole-number weights keep the exact
    comparisons; other weights compare ``p/t`` within a relative
    :data:`companion.numerics.TIE_RTOL`.

    **Exported model** (``to_dict()["model"]``): ``columns`` (per input column: ``values`` in
    code order, ``missing_code`` (-1: none), and for a binned column ``edges`` (``[-inf, c1,
    ..., inf]``) and ``closed`` (``"right"``: MDL bins ``(c, d]``; ``"left"``:
    ``KBinsDiscretizer``'s ``[c, d)``)), ``rules`` (``label``, ``attributes`` and ``codes`` of
    the tests in order, ``p``, ``t``), ``class_order``, ``default_class``, ``cell_counts``,
    ``class_counts``, ``uncoverable``. A discretiser without ``bin_edges_`` cannot be exported.
    ``rules_frame`` has one row per rule; a rule decides the rows it fires on (the first rule
    that covers them).

    The one-hot counting makes a step cost ``O(k * n_tests)`` with ``k`` the smaller of the
    rows kept and the rows dropped by the step's test; ``p/t`` are compared by exact integer
    cross-multiplication.

    References
    ----------
    .. [1] J. Cendrowska, "PRISM: an algorithm for inducing modular rules", Int. J. Man-Machine
       Studies 27(4):349-370, 1987.
    .. [2] I. H. Witten and E. Frank, *Data Mining*, ch. 4.4 "Covering algorithms".
    """

    _sklearn_check_exemptions = {
        "check_classifiers_train": (
            "the check's rounded blobs clash (one cell, several classes); Weka-exact PRISM then "
            "keeps imperfect rules and fires the first class's rule on every clashing cell, "
            "which gives 0.75 training accuracy there (the check wants > 0.83)"
        ),
    }

    _parameter_constraints = {
        "missing": [StrOptions(set(_MISSING_POLICIES))],
        "uncovered": [StrOptions(set(_UNCOVERED_POLICIES))],
        "keep_trace": ["boolean"],
        "pruning": [StrOptions(set(_PRUNING)), None],
        **ENCODING_PARAMETER_CONSTRAINTS,
    }

    def __init__(
        self,
        *,
        missing="value",
        uncovered="default_class",
        discretizer="mdl",
        keep_trace=False,
        categorical_features=None,
        pruning="j_measure",
    ):
        self.pruning = pruning
        self.missing = missing
        self.uncovered = uncovered
        self.discretizer = discretizer
        self.keep_trace = keep_trace
        self.categorical_features = categorical_features

    def __sklearn_tags__(self):
        return nominal_input_tags(super().__sklearn_tags__())

    # ----------------------------------------------------------------------------------------
    # ----------------------------------------------------------------------------------------
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Learn the ordered PRISM rule list.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Nominal attributes, and numeric ones binned by the ``discretizer`` (see
            ``categorical_features``).
        y : array-like of shape (n_samples,)
            Class labels; a categorical's category order is the order classes are learnt in.
        sample_weight : array-like of shape (n_samples,), optional
            Frequency weights (class Notes, "Weights"); unit weights (or None) reproduce Weka.

        Returns
        -------
        self : Prism
        """
        check_sample_weight(self, sample_weight, X)  # one refusal for every learner (companion._weights)
        X, y, weight = positive_weight_rows(X, y, sample_weight)
        codes, y_arr, class_order, encoding, names = fit_nominal_encoding(
            self, X, y, missing=str(self.missing), discretizer=MDLDiscretizer() if isinstance(self.discretizer, str) and self.discretizer == "mdl" else self.discretizer,
            categorical_features=self.categorical_features, drop_single_bin=True, sample_weight=weight,
        )
        self.encoding_ = encoding
        self.classes_ = np.unique(y_arr)
        self.class_order_ = class_order
        unit = np.ones(len(y_arr)) if weight is None else weight
        class_index = np.searchsorted(self.classes_, y_arr)
        totals = np.bincount(class_index, weights=unit, minlength=len(self.classes_))
        self.class_counts_ = totals.astype(np.int64) if weight is None or _whole_valued(weight) else totals
        rank = {c: self.class_counts_[np.searchsorted(self.classes_, c)] for c in class_order}
        self.default_class_ = max(class_order, key=lambda c: (rank[c], -class_order.index(c)))

        n_values = np.array([len(v) for v in encoding.values], dtype=np.int64)
        counts = _TestCounts(codes, n_values, weight)
        test_attribute, test_value = counts.test_attribute, counts.test_value
        test_attributes, test_codes = test_attribute.tolist(), test_value.tolist()
        conditions_of = {}  # (attribute name, value name) of each test a rule uses, computed once

        def condition(k):
            if k not in conditions_of:
                conditions_of[k] = (names[test_attributes[k]], encoding.value_name(test_attributes[k], test_codes[k]))
            return conditions_of[k]

        rules, trace, uncoverable, covered_by = [], [], 0, []
        for label in class_order:
            positive = y_arr == label
            learnt, steps, left = _learn_class(
                counts, positive, trace=bool(self.keep_trace), j_pruning={"j_measure": "first", "jmax": "max"}.get(self.pruning)
            )
            uncoverable += left
            for tests, p, t, rows in learnt:
                covered_by.append(rows)
                rules.append(
                    PrismRule(
                        label=label,
                        conditions=tuple(condition(k) for k in tests),
                        attributes=tuple(test_attributes[k] for k in tests),
                        codes=tuple(test_codes[k] for k in tests),
                        p=p,
                        t=t,
                    )
                )
            for rule_in_class, step, candidates, p, t, chosen in steps:
                trace.append((len(rules) - len(learnt) + rule_in_class, label, step, candidates, p, t, chosen))
        k = len(self.classes_)
        fell_back = False
        if self.pruning is not None:
            rules, trace = _drop_rules_below_default(
                rules, trace, codes, np.searchsorted(self.classes_, [rule.label for rule in rules]),
                class_index, unit, int(np.searchsorted(self.classes_, self.default_class_)),
            )
            if rules and not fallback_check_running() and not beats_default_class(self, X, y, weight):
                rules, trace, fell_back = [], [], True  # the rules lose to the default class on inner folds
            slot = _first_rule(rules, codes)
            slot[slot < 0] = len(rules)
        else:
            # Within a class, the rows a rule covered are those no earlier rule of the class covers
            # (E lost them), so the first covering rule of a row is the first rule, in list order,
            # whose covered rows hold it: the classes' rules are written in reverse, earlier ones last.
            slot = np.full(len(y_arr), len(rules), dtype=np.int64)
            for index in range(len(rules) - 1, -1, -1):
                slot[covered_by[index]] = index
        self.rules_ = rules
        self.complexity_ = int(sum(len(rule.conditions) for rule in rules))
        self.uncoverable_ = int(uncoverable)
        # Class counts of the training rows per first covering rule (last slot: no rule).
        reached = np.bincount(slot * k + class_index, weights=unit, minlength=(len(rules) + 1) * k).reshape(-1, k)
        self.cell_counts_ = reached[:-1].astype(self.class_counts_.dtype)
        if self.keep_trace:
            self.trace_ = _trace_frame(trace, names, encoding, test_attribute, test_value)
        if self.pruning is not None:
            labels = np.array([rule.label for rule in rules] + [self.default_class_], dtype=object)
            self._check_single_class(
                None, predictions=labels[slot % (len(rules) + 1)] if rules else labels[:1].repeat(len(slot)),
                reason=" (its rules did not beat it on inner folds: Prism fell back to the default class)" if fell_back else "",
            )
        else:
            self.single_class_ = None
        return self

    # ----------------------------------------------------------------------------------------
    def firing_rule(self, X) -> np.ndarray:
        """Index in ``rules_`` of the first rule covering each instance, ``-1`` if none does.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Columns as at fit time.

        Returns
        -------
        ndarray of int, shape (n_samples,)
        """
        check_is_fitted(self)
        return _first_rule(self.rules_, nominal_codes(self, X))

    def coverage(self, X) -> float:
        """Fraction of the instances of ``X`` that some rule covers.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Columns as at fit time.

        Returns
        -------
        float
        """
        return float(np.mean(self.firing_rule(X) >= 0))

    def covers(self, X) -> np.ndarray:
        """Which rules cover which instances, each rule read on its own (no order).

        Cendrowska's rules are *modular*: each one is a statement about the whole instance
        space, not a branch of an ordered list. This is the matrix that reading needs; the
        first ``True`` of a row is :meth:`firing_rule`.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Columns as at fit time.

        Returns
        -------
        covered : ndarray of bool, shape (n_samples, n_rules)
            ``covered[i, j]``: instance ``i`` satisfies every test of ``rules_[j]``.
        """
        check_is_fitted(self)
        return _covers(self.rules_, nominal_codes(self, X))

    @validate_params({"rule_index": [StrictInterval(Integral, 0, None, closed="left")]}, prefer_skip_nested_validation=True)
    def step_covers(self, X, rule_index) -> np.ndarray:
        """Instances satisfying the first ``s`` tests of one rule, for ``s = 0 .. len(tests)``.

        The rule as it grows (slides 9-14): column 0 is the empty left-hand side (every
        instance), column ``s`` the rule after its ``s``-th test. Intersect with the set E the
        rule was grown on to get the slides' covered subsets ("4 out of 12", then 6, then 3).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
        rule_index : int
            Position of the rule in ``rules_``.

        Returns
        -------
        covered : ndarray of bool, shape (n_samples, n_tests + 1)
        """
        check_is_fitted(self)
        if not int(rule_index) < len(self.rules_):
            raise ValueError(
                f"rule_index must be in [0, {len(self.rules_)}), got {rule_index}"
            )
        codes = nominal_codes(self, X)
        rule = self.rules_[int(rule_index)]
        covered = np.ones((codes.shape[0], len(rule.attributes) + 1), dtype=bool)
        for step, (attribute, code) in enumerate(zip(rule.attributes, rule.codes), start=1):
            covered[:, step] = covered[:, step - 1] & (codes[:, attribute] == code)
        return covered

    def grown_on(self, X) -> np.ndarray:
        """The set E each rule was grown on, when ``X`` is the training set.

        Separate and conquer (slide 16): the ``k``-th rule for class C is grown on the
        instances that no earlier rule for C covers (each class starts from the whole set).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            The training set.

        Returns
        -------
        in_E : ndarray of bool, shape (n_samples, n_rules)
            ``in_E[i, j]``: instance ``i`` is not covered by any rule of ``rules_[j]``'s class
            that precedes ``j``.
        """
        covered = self.covers(X)
        in_E = np.ones_like(covered)
        for j, rule in enumerate(self.rules_):
            earlier = [k for k in range(j) if self.rules_[k].label == rule.label]
            if earlier:
                in_E[:, j] = ~covered[:, earlier].any(axis=1)
        return in_E

    def predict(self, X):
        """Class of the first rule covering each instance; ``uncovered`` decides the rest.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Columns as at fit time.

        Returns
        -------
        y : ndarray of shape (n_samples,)
            Labels; with ``uncovered="unclassified"`` an object array holding ``None`` for
            the instances no rule covers.
        """
        fired = self.firing_rule(X)
        labels = np.array([rule.label for rule in self.rules_] + [self.default_class_], dtype=object)
        if self.uncovered == "unclassified":
            labels[-1] = None
            return labels[fired]  # -1 picks the last entry
        return np.asarray(labels[fired].tolist(), dtype=self.classes_.dtype)

    def predict_proba(self, X) -> np.ndarray:
        """Laplace-corrected class frequencies of the training instances the firing rule reached.

        See the class Notes ("Scores"): the rule's first-reached training instances,
        ``(n_c + 1) / (n + k)``; the whole training set's frequencies where no rule covers.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Columns as at fit time.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            Columns in ``classes_`` order; rows sum to 1.
        """
        fired = self.firing_rule(X)
        table = laplace_proba(np.vstack([self.cell_counts_, self.class_counts_[None, :]]))
        return table[fired]  # -1 picks the last row: the training set's frequencies

    # ----------------------------------------------------------------------------------------
    def _render_text(self, feature_names, *, weka_layout: bool = False, decimals=None) -> str:
        """The rule list, one rule a line; ``to_text(weka_layout=True)``: exactly as Weka prints it
        (its header and line breaks, one test a line); ``decimals``: decimal places of the
        edges of binned columns' intervals (None: 4 significant digits)."""
        rules = self.rules_
        if decimals is not None:
            rules = [
                replace(rule, conditions=tuple(
                    (name, self.encoding_.value_name(a, c, decimals))
                    for (name, _), a, c in zip(rule.conditions, rule.attributes, rule.codes)
                ))
                for rule in rules
            ]
        if weka_layout:
            return "Prism rules\n----------\n" + "".join(
                r.to_text(feature_names, weka_layout=True) + "\n" for r in rules
            )
        lines = [rule.to_text(feature_names) for rule in rules]
        if self.pruning is not None and self.uncovered == "default_class":
            # The pruned list leaves rows to the default class: say which (Weka's has no such line).
            lines.append(f"Otherwise {self.default_class_!s}")
        return "\n".join(lines)

    def rule_table(self) -> pd.DataFrame:
        """The rules as grown: ``rule`` (text), ``class``, ``conditions``, ``p``, ``t``.

        Returns
        -------
        pandas.DataFrame
            One row per rule; ``p`` and ``t`` on the set E the rule was grown on.
        """
        check_is_fitted(self)
        return pd.DataFrame(
            {
                "rule": [r.to_text() for r in self.rules_],
                "class": [r.label for r in self.rules_],
                "conditions": [len(r.conditions) for r in self.rules_],
                "p": [r.p for r in self.rules_],
                "t": [r.t for r in self.rules_],
            }
        )

    def _rule_records(self, feature_names):
        """One record per rule: its tests as ``to_text`` prints them, and its class."""
        records = []
        for rule in self.rules_:
            text = rule.to_text(feature_names)
            condition = text[3 : text.rindex(" then ")] if rule.conditions else ""
            records.append({"condition": condition, "prediction": rule.label, "p": rule.p, "t": rule.t})
        return records

    def _rule_decisions(self, X):
        """Rule ``j`` decides the rows it fires on (the first rule covering them)."""
        fired = self.firing_rule(X)
        return fired[:, None] == np.arange(len(self.rules_))[None, :]

    def _model_to_dict(self):
        return {
            "columns": self.encoding_.to_dict(),
            "rules": [
                {"label": r.label, "attributes": list(r.attributes), "codes": list(r.codes), "p": r.p, "t": r.t}
                for r in self.rules_
            ],
            "class_order": list(self.class_order_),
            "default_class": self.default_class_,
            "cell_counts": self.cell_counts_.tolist(),
            "class_counts": self.class_counts_.tolist(),
            "uncoverable": self.uncoverable_,
        }

    def _model_from_dict(self, model):
        encoding = NominalEncoding.from_dict(str(self.missing), model["columns"])
        self.encoding_ = encoding
        names = [str(c) for c in self.feature_names_in_] if hasattr(self, "feature_names_in_") else [
            f"x{j}" for j in range(self.n_features_in_)
        ]
        self.rules_ = [
            PrismRule(
                label=_label(self.classes_, r["label"]),
                conditions=tuple((names[a], encoding.value_name(a, c)) for a, c in zip(r["attributes"], r["codes"])),
                attributes=tuple(int(a) for a in r["attributes"]),
                codes=tuple(int(c) for c in r["codes"]),
                p=r["p"],
                t=r["t"],
            )
            for r in model["rules"]
        ]
        self.class_order_ = [_label(self.classes_, c) for c in model["class_order"]]
        self.default_class_ = _label(self.classes_, model["default_class"])
        self.cell_counts_ = _counts_array(model["cell_counts"], len(self.classes_))
        self.class_counts_ = _counts_array(model["class_counts"], len(self.classes_)).ravel()
        self.uncoverable_ = model["uncoverable"]
        self.complexity_ = int(sum(len(rule.conditions) for rule in self.rules_))


def _label(classes, value):
    """A label read back from JSON, as the element of ``classes`` it equals."""
    return classes[np.flatnonzero(classes == np.asarray(value, dtype=classes.dtype))[0]]


def _counts_array(rows, n_classes):
    """Counts read back from JSON: int64 when whole, else float."""
    array = np.asarray(rows, dtype=float).reshape(-1, n_classes)
    return array.astype(np.int64) if np.all(array == np.round(array)) else array


def _covers(rules, codes: np.ndarray) -> np.ndarray:
    """``covered[i, j]``: row ``i`` of ``codes`` satisfies every test of ``rules[j]``."""
    covered = np.ones((codes.shape[0], len(rules)), dtype=bool)
    for index, rule in enumerate(rules):
        if rule.attributes:
            covered[:, index] = np.all(
                codes[:, list(rule.attributes)] == np.array(rule.codes, dtype=np.int64), axis=1
            )
    return covered


def _first_rule(rules, codes: np.ndarray) -> np.ndarray:
    """Index of the first rule covering each row of ``codes``, ``-1`` where none does."""
    fired = np.full(codes.shape[0], -1, dtype=np.int64)
    # Later rules first, so that earlier ones overwrite: the first covering rule wins.
    for index in range(len(rules) - 1, -1, -1):
        rule = rules[index]
        covered = np.all(codes[:, list(rule.attributes)] == np.array(rule.codes, dtype=np.int64), axis=1)
        fired[covered] = index
    return fired


# --------------------------------------------------------------------------------------------
# The search (vectorised)
# --------------------------------------------------------------------------------------------


def _best_test(p: np.ndarray, t: np.ndarray, candidate: np.ndarray) -> int:
    """Index of Weka's choice among the candidate tests, or -1 when no candidate has ``p > 0``.

    Weka scans candidates in order and replaces the best when ``p*t_best - p_best*t > 0`` or
    the difference is 0 and ``p > p_best``. When some candidate has ``p > 0`` that scan returns
    the first candidate maximising ``(p/t, p)`` lexicographically; this computes it without
    the scan: a float argmax proposes the best ratio, exact integer cross-multiplication
    confirms it and finds all exact ties, and the first tie of largest ``p`` wins.
    """
    p_c = p * candidate
    if not p_c.any():
        return -1
    t_c = t * candidate
    # Some candidate has p > 0, hence a ratio > 0: a test with t = 0 (p = 0) and the
    # non-candidates (p_c = t_c = 0) get ratio 0 and cannot be proposed.
    ratio = p_c / np.maximum(t_c, 1)
    if p.dtype.kind in "iu" and t.size and int(t.max()) < 2**26:
        # Integer counts below 2^26: distinct ratios p/t <= 1 differ by more than 2^-52, more
        # than their two roundings can close, so equal doubles are exactly the tied ratios.
        return int(np.argmax(p_c * (ratio == ratio.max())))
    proposal = int(np.argmax(ratio))
    diff = p_c * t[proposal] - p[proposal] * t_c  # exact: int64 (or whole-float) cross-multiplication
    if p.dtype.kind == "f" and not _whole_valued(p, t):
        # Non-integer weights: products within TIE_RTOL of each other are tied.
        tolerance = TIE_RTOL * np.maximum(np.abs(p_c * t[proposal]), np.abs(p[proposal] * t_c))
        diff = np.where(np.abs(diff) <= tolerance, 0.0, diff)
    if (diff > 0).any():  # pragma: no cover - float division cannot misorder p/t with t < 2**26
        return _best_test_scan(p, t, candidate)
    # The ties of the proposal (itself one, p >= 1): the first of largest p wins; the
    # non-candidates and the tests with p = 0 have p_c = 0 and lose.
    return int(np.argmax(p_c * (diff == 0)))


def _whole_valued(*arrays) -> bool:
    """Whether every entry is a whole number (counts under unit or integer weights)."""
    return all(bool(np.all(a == np.round(a))) for a in arrays)


def _best_test_scan(p, t, candidate) -> int:
    """Weka's sequential scan (fallback and documentation of :func:`_best_test`)."""
    best, best_p, best_t = -1, 0, 0
    for k in np.flatnonzero(candidate):
        diff = p[k] * best_t - best_p * t[k]
        if best == -1 or diff > 0 or (diff == 0 and p[k] > best_p):
            best, best_p, best_t = int(k), p[k], t[k]
    return best if best_p > 0 else -1


def _j_measure(p, t, n, n_positive) -> float:
    """Smyth & Goodman's J-measure of a rule covering ``t`` of ``n`` rows, ``p`` of its class
    (``n_positive`` of the ``n``): ``P(A) * j(C; A)``, in bits (Bramer's J-pruning)."""
    if t <= 0 or n <= 0:
        return 0.0
    prior, accuracy = n_positive / n, p / t
    value = 0.0
    for a, b in ((accuracy, prior), (1.0 - accuracy, 1.0 - prior)):
        if a > 0:
            value += a * np.log2(a / b)
    return float(t / n * value)


def _drop_rules_below_default(rules, trace, codes, class_of_rule, class_index, unit, default_index):
    """The rules that classify the training rows they decide better than the list without them
    (``pruning``).

    A rule decides the rows it is the first to cover; without it, each of those rows falls to
    the next kept rule that covers it, or to the default class when none does. The rule's
    margin is the training weight of its class among the rows it decides minus the weight of
    the rows whose fallback class is their own (so a rule of the default class that no later
    rule overlaps has margin 0). Repeatedly drops the rule of smallest margin, the earliest on
    ties, while that margin is not positive. Returns the kept rules and the trace renumbered to
    them.
    """
    covered_all = _covers(rules, codes)
    kept = list(range(len(rules)))
    while kept:
        covered = covered_all[:, kept]
        n_kept = len(kept)
        rule_class = np.asarray(class_of_rule, dtype=np.int64)[kept]
        decided = covered.any(axis=1)
        slot = covered.argmax(axis=1)[decided]  # the first kept rule covering each decided row
        later = covered[decided] & (np.arange(n_kept) > slot[:, None])
        fallback = np.where(later.any(axis=1), rule_class[later.argmax(axis=1)], default_index)
        truth, weight = class_index[decided], unit[decided]
        right = np.bincount(slot, weights=weight * (truth == rule_class[slot]), minlength=n_kept)
        without = np.bincount(slot, weights=weight * (truth == fallback), minlength=n_kept)
        margins = right - without
        worst = int(np.argmin(margins))
        if margins[worst] > 0:
            break
        del kept[worst]
    renumber = {j: position for position, j in enumerate(kept)}
    trace = [(renumber[r], *rest) for r, *rest in trace if r in renumber]
    return [rules[j] for j in kept], trace


def _learn_class(counts: _TestCounts, positive, *, trace, j_pruning=False):
    """Separate-and-conquer for one class, Weka's exact procedure (module docstring).

    Returns ``(rules, steps, uncoverable)``: each rule as ``(test indices, p, t, rows)``, ``rows``
    the instances of E it covered (those not covered by an earlier rule of the class); the trace
    steps as ``(rule number within the class, step, candidate indices, p, t, chosen)``; and the
    number of positives that no test could reach.
    """
    n_samples = counts.cell_slot.shape[1]
    test_attribute = counts.test_attribute
    n_testable = int(np.count_nonzero(np.diff(counts.test_start)))  # attributes with a test (value)
    in_E = np.ones(n_samples, dtype=bool)
    weight = counts.weight
    # Errors are exact under whole weights; a float sum of other weights is 0 within TIE_RTOL.
    tolerance = 0 if weight is None or _whole_valued(weight) else TIE_RTOL * float(weight.sum())
    counts.set_class(positive)
    E_p, E_t = counts.count(np.arange(n_samples))
    rules, steps = [], []
    # The previous rule's steps, as (test, p, t) over its rows after each test, and its final
    # counts: a rule that starts with the same tests covers those rows less the previous rule's
    # (E lost exactly those), so its counts are a subtraction (unit weights: exact integers).
    previous, previous_p, previous_t = [], None, None
    while (in_E & positive).any():
        rule_rows = np.flatnonzero(in_E)
        p, t = E_p, E_t
        prefix = weight is None  # still on the previous rule's tests
        stepped = []
        if counts.weight is None:
            errors = int(np.count_nonzero(~positive[rule_rows]))
        else:
            errors = float(weight[rule_rows][~positive[rule_rows]].sum())
        candidate = np.ones(test_attribute.size, dtype=bool)
        tests = []
        if j_pruning:  # J of the empty rule is 0
            n_E = float(rule_rows.size if weight is None else weight[rule_rows].sum())
            n_E_positive = n_E - float(errors)
            j_value, j_path, rows_path = 0.0, [], []
        while errors > tolerance:
            if len(tests) == n_testable:
                break  # every attribute used: the rule stays imperfect, as in Weka
            best = _best_test(p, t, candidate)
            if trace:
                steps.append((len(rules), len(tests) + 1, np.flatnonzero(candidate),
                              p[candidate], t[candidate], best))
            if best < 0:
                break  # no test reaches a positive (their remaining cells are all missing)
            if j_pruning:
                j_next = _j_measure(float(p[best]), float(t[best]), n_E, n_E_positive)
                if j_pruning == "first" and j_next < j_value:
                    break  # Bramer's J-pruning: the test would lower J; the rule stops here
                j_value = j_next
                j_path.append(j_next)
            attribute = test_attribute[best]
            tests.append(best)
            candidate[counts.test_start[attribute] : counts.test_start[attribute + 1]] = False
            keep = counts.cell_slot[attribute, rule_rows] == counts.test_slot(best)
            kept = rule_rows[keep]
            errors = t[best] - p[best]
            prefix = prefix and len(previous) >= len(tests) and previous[len(tests) - 1][0] == best
            if prefix:
                _, p, t = previous[len(tests) - 1]
                p, t = p - previous_p, t - previous_t
            # Count over whichever side is smaller: the kept rows, or the dropped ones subtracted.
            elif 2 * kept.size <= rule_rows.size:
                p, t = counts.count(kept)
            else:
                p_dropped, t_dropped = counts.count(rule_rows[~keep])
                p, t = p - p_dropped, t - t_dropped
            stepped.append((best, p, t))
            rule_rows = kept
            if j_pruning:
                rows_path.append(rule_rows)
        if j_pruning == "max" and tests:
            # Jmax-pruning: the rule grown in full, cut after its test of largest J (first on ties).
            k = int(np.argmax(j_path)) + 1
            if k < len(tests):
                tests, stepped = tests[:k], stepped[:k]
                _, p, t = stepped[-1]
                rule_rows = rows_path[k - 1]
        if not tests and errors > tolerance:
            # No test covers any remaining positive: stop (an empty rule would cover everything).
            left = in_E & positive
            return rules, steps, int(np.count_nonzero(left)) if weight is None else _count(weight[left].sum())
        if counts.weight is None:
            rules.append((tests, int(np.count_nonzero(positive[rule_rows])), int(rule_rows.size), rule_rows))
        else:
            rules.append((tests, _count(weight[rule_rows][positive[rule_rows]].sum()), _count(weight[rule_rows].sum()),
                          rule_rows))
        in_E[rule_rows] = False
        # (p, t) are always the counts over rule_rows: no need to count the covered rows again.
        E_p, E_t = E_p - p, E_t - t
        previous, previous_p, previous_t = stepped, p, t
    return rules, steps, 0


def _count(value):
    """A weighted count as an int when whole (unit or integer weights), else a float."""
    value = float(value)
    return int(round(value)) if value == round(value) else value


def _trace_frame(trace, names, encoding, test_attribute, test_value) -> pd.DataFrame:
    """Flatten the recorded steps into one row per candidate test."""
    columns = {k: [] for k in ("rule", "class", "step", "attribute", "value", "p", "t", "selected")}
    for rule, label, step, candidates, p, t, chosen in trace:
        n = len(candidates)
        columns["rule"].append(np.full(n, rule))
        columns["class"].append(np.full(n, label, dtype=object))
        columns["step"].append(np.full(n, step))
        columns["attribute"].append(np.array([names[test_attribute[k]] for k in candidates], dtype=object))
        columns["value"].append(
            np.array([encoding.value_name(test_attribute[k], test_value[k]) for k in candidates], dtype=object)
        )
        columns["p"].append(p)
        columns["t"].append(t)
        columns["selected"].append(candidates == chosen)
    if not trace:
        return pd.DataFrame({k: [] for k in columns})
    return pd.DataFrame({k: np.concatenate(v) for k, v in columns.items()})
