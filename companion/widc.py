"""WIDC: decision committees grown by partition boosting (Nock, JAIR 17, 2002).

A **decision committee** (DC) is an *unordered* set of rules ``(t_i, v_i)``, where ``t_i`` is a
monomial (a conjunction of Boolean literals) and ``v_i`` a vector with one component per class,
plus a default vector ``D``. An observation sums the vectors of the rules it satisfies and takes
the class of the largest component; ties ("ambiguous" observations, including those that satisfy
no rule) go to the class of largest ``D`` among the tied ones (paper, section "Decision
Committees"; the tie rule is our reconstruction: the paper does not state one).

WIDC (Weak Induction of Decision Committees) has three stages (paper, "Overview of WIDC"):

1. **Partition boosting** (paper, "Building a Large DC using Partition Boosting", eq. (1)):
   monomials are grown one literal at a time, each literal chosen to minimise Schapire &
   Singer's criterion ``Z = 2 sum_j sum_l sqrt(W+_{j,l} W-_{j,l})`` over the partition of the
   learning sample induced by the satisfaction patterns of all the monomials. A new monomial is
   started when no literal lowers Z; growth stops when a new monomial cannot lower Z.
2. **Rule vectors in {-1, 0, +1}^c** by ranking-loss boosting (paper, "Calculating Rule Vectors
   using Ranking Loss Boosting" and "Optimizing in our Setting"): sorted-class search over the
   ``(c+1)(c+2)/2`` non-increasing vectors, exact under single-label data; Lemma 2 is the
   two-class closed form.
3. **Pruning**, one of ``"pessimistic"`` (paper, "Pessimistic Pruning": the smallest DC of the
   lowest training error in a greedy removal sequence), ``"optimistic"`` (paper, "Optimistic
   Pruning": local error plus a Kearns-Mansour style penalty; the penalty formula was not
   recovered, so ours is **RECONSTRUCTED**) or ``"none"``.

Attributes are turned into Boolean variables on each training set (our choice, Nock 2002
Section 5 does not give the recipe): a nominal attribute with ``k > 2`` values
gives ``k`` variables ``[A = a]``, a two-valued one a single variable, and a numeric attribute
gives variables ``[A <= theta]`` at supervised MDL cut points (Fayyad & Irani 1993), at most
``max_cuts`` of them (``numeric_literal="gt"`` makes ``A > theta`` the positive literal). A two-valued
nominal attribute's variable is ``[A = larger value]``, so 0/1 data give the literals ``x = 1`` and
``x = 0``. A missing value makes every literal on that attribute false.

Exactness: WIDC's distribution is uniform, so class weights, default vectors and training
errors are computed as integer counts and committee scores as integer sums of votes; every
pruning decision and prediction is an exact integer comparison, whatever the CPU, BLAS or
thread count. Only Z (square roots), the ranking loss (exponentials) and MDL entropies
(logarithms) are compared with a documented relative tolerance of ``1e-12``, ties going to the
lowest index (see ``TIE_RTOL``).

>>> import numpy as np
>>> X = np.array([[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)], dtype=float)
>>> y = X[:, 0].astype(int) & X[:, 1].astype(int)
>>> dc = DecisionCommittee(categorical_features=[0, 1, 2]).fit(X, y)
>>> print(dc.to_text())
IF x0 = 1 AND x1 = 1 THEN (0: -1, 1: +1)
DEFAULT (0: 1, 1: 0)
>>> dc.n_rules_, dc.n_literals_
(1, 2)
"""

from __future__ import annotations

import copy
import numbers
import warnings

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from companion._weights import check_sample_weight
from companion._learner_support import fallback_check_running, format_number, jsonable, laplace_proba, resolve_feature_names
from companion.interpretable import InterpretableMixin, beats_default_class
from companion._nominal import MANY_VALUES, declared_categories, nominal_columns, value_list

from companion._partition_boosting import (
    PRUNINGS,
    committee_predict,
    count_array,
    default_and_predictions,
    encode_variables,
    grow_monomials,
    literal_matrix,
    pattern_cells,
    prune_optimistic,
    prune_optimistic_sweep,
    prune_pessimistic,
    row_lookup,
    rule_vectors,
    rule_votes,
    satisfaction,
    vote_sums,
    z_partition,
)

__all__ = [
    "DecisionCommittee",
    "z_partition",
    "rule_vectors",
]




# --------------------------------------------------------------------------------------------
# The estimator
# --------------------------------------------------------------------------------------------


class DecisionCommittee(InterpretableMixin, ClassifierMixin, BaseEstimator):
    """WIDC decision committee (Nock 2002): partition boosting, {-1,0,+1} vectors, pruning.

    Works on any number of classes. Numeric columns are booleanised by MDL cut points on each
    training set (no discretizer needed); nominal columns give one variable per value.

    **Which columns are nominal** is said, never guessed from the values: a DataFrame's
    category, object, string and bool columns are nominal (their values are coded in
    ``frame_categories_``; a value ``fit`` did not see is treated as missing), and so are the
    columns ``categorical_features`` names; every other column is numeric, whole-number floats
    included. A nominal column with more than 50 distinct values warns (one variable per value).

    **Scores.**

    * ``decision_function``: the vote ``S(o) + D / 2``, the integer sum of the rule vectors the
      observation satisfies plus half the default vector, one column per class (two classes: the
      difference ``[:, 1] - [:, 0]``, positive for ``classes_[1]``). Its argmax is exactly
      :meth:`predict`, ties included (equal ``S``: the largest default component, then the
      smallest class index).
    * ``predict_proba``: Laplace-corrected class frequencies ``(n_c + 1) / (n + k)`` of the
      training examples in the observation's *cell*, its set of satisfied rules (satisfaction
      pattern). A pattern no training example had falls back to the training examples with the
      same vote vector ``S``, then to those the committee predicts the same class for, then to
      the uniform ``1 / k``. :meth:`predict` is the vote, not the argmax of these frequencies
      (they differ where the vote is wrong on most of a cell's training examples, or on a tie).

    **Text.** ``to_text(feature_names=None, *, category_names=None, decimals=None)`` (also ``str``) lists the
    rules ``IF monomial THEN vector`` and the default vector, naming columns by
    ``feature_names_in_`` when fitted on a DataFrame, else ``x0, x1, ...``. A pruned committee
    (``pruning="pessimistic"``, the default, or ``"optimistic"``) that predicts one class ``C``
    on every training row (on an imbalanced or noisy table the pruning may leave no rule, or
    rules that never outvote the default vector) prints as ``always C``, has
    ``complexity_ = 0`` and ``single_class_ = C``, and ``fit`` warns with a
    :class:`companion.interpretable.SingleClassWarning` (``class_weight="balanced"`` often
    helps). ``pruning="none"``, the committee as grown (the paper's WIDC(), which notebook 04
    inspects), is printed as it is, without the check.

    **Weights.** ``sample_weight`` are frequencies. WIDC's uniform distribution ``w_i = 1/n``
    becomes ``w_i / sum(w)`` (Nock 2002, Section 2: the growth and pruning are stated for any
    distribution), the MDL cut points are weighted and ``cell_counts_`` are sums of weights;
    zero-weight rows are dropped first. Integer weights give the committee that duplicating
    the rows gives (tested; the scores then come from float sums of weights, compared within
    the documented tolerance).

    **Exported model** (``to_dict()["model"]``): ``variables``
    (``[column, "eq"|"le"|"gt", value]``), ``binary_other``, ``frame_categories``,
    ``nominal_mask``, ``monomials`` (literal ids ``2v``/``2v+1``), ``vectors``,
    ``default_votes``, ``prior`` and the cells of :meth:`predict_proba` (``cell_patterns``,
    ``cell_counts``, ``vote_cells``, ``vote_class_counts``, ``region_class_counts``).
    ``rules_frame`` has one row per monomial: it decides the rows that satisfy it, and its
    ``prediction`` is the class its vote vector favours.

    Parameters
    ----------
    pruning : {"pessimistic", "optimistic", "none"}, default="pessimistic"
        Stage 3. ``"pessimistic"`` is the paper's WIDC(p), ``"optimistic"`` WIDC(o) (penalty
        RECONSTRUCTED, see ``optimistic_strength``), ``"none"`` WIDC().
    categorical_features : "all" or array-like of int, str or bool, default=None
        Columns holding nominal codes (any numbers), as indices, a boolean mask, or column names
        of a DataFrame, or ``"all"`` (the same parameter as :class:`companion.prism.Prism`'s);
        each value becomes a variable ``[A = a]``. Added to the DataFrame's
        nominal dtypes. The other columns are numeric and are discretised by MDL. NaN means
        missing.
    max_cuts : int, default=8
        Largest number of MDL cut points per numeric attribute.
    optimistic_strength : float, default=0.0
        The constant ``c_KM`` of the reconstructed optimistic penalty. The paper's value was not
        recovered; 0.0 is what the one-standard-error rule selects on synthetic committee
        problems (``companion.experiments.paper04.choose_optimistic_strength``), chosen once and
        never on the benchmark. With 0 a rule goes as soon as its local error does not increase.
    numeric_literal : {"le", "gt"}, default="le"
        Which side of a numeric cut is the *positive* literal: ``A <= theta`` (our
        reading of the paper's variables) or ``A > theta``. The first literal of a monomial and its negation always tie
        on Z (they induce the same partition) and ties go to the positive literal, so this
        convention can change the committee grown.
    optimistic_delta : float, default=0.05
        Confidence ``delta`` of the optimistic penalty.
    max_rules : int or None, default=None
        Cap on the number of monomials grown (None: the paper's rule, no cap).
    class_weight : None, "balanced" or dict, default=None
        Weights of the classes, multiplied into ``sample_weight`` (the pruning counts errors).
    fallback : {"inner_cv", None}, default="inner_cv"
        ``"inner_cv"``: a pruned committee must beat the (weighted) majority class on 3 inner
        stratified folds (:func:`companion.interpretable.beats_default_class`, CART's
        one-standard-error rule; the pruning sees the training rows only), else it keeps no rule
        and predicts that class, ``fallback_class_``, printed ``always C`` with a
        :class:`companion.interpretable.SingleClassWarning`. It costs three more fits and applies
        to :meth:`with_pruning` too; ``pruning="none"`` is never checked. ``None``: the pruned
        committee as it is, the paper's WIDC(p) and WIDC(o) (Nock 2002, Section 5), what notebook
        04's reproduction of the paper uses (``companion.experiments.paper04`` passes
        ``fallback=None``).


    Attributes
    ----------
    complexity_ : int
        Size of the model: the literals of its monomials (``n_literals_``; the default vector has
        none); 0 for a committee that predicts one class on every training row.
    classes_ : ndarray of shape (n_classes,)
    variables_ : list of tuple
        Boolean variables ``(feature, "eq" | "le" | "gt", value)`` built on the training set.
    binary_other_ : dict
        For each two-valued nominal feature, the value its negated literal stands for.
    grown_monomials_ : list of tuple of int
        Stage-1 monomials (literal ids ``2v`` / ``2v+1``), before pruning.
    grown_vectors_ : ndarray of shape (n_grown, n_classes)
        Stage-2 vectors of the grown monomials.
    z_trace_ : list of float
        ``Z`` (paper eq. (1)) at the start of growth and after every accepted literal.
    monomials_ : list of tuple of int
        Monomials of the rules kept after pruning.
    vectors_ : ndarray of shape (n_rules, n_classes)
        Their vectors, in {-1, 0, +1}.
    default_votes_ : ndarray of shape (n_classes,)
        Default vector: class distribution of the ambiguous training examples (integer counts
        over their total; the class distribution ``prior_`` when no example is ambiguous).
    default_class_ : object
        The class the default vector favours (its first largest component).
    n_rules_ : int
        Number of rules (the Kearns et al. size).
    n_literals_ : int
        Total number of literals, counted with repetition (the paper's other size).
    single_class_ : object or None
        The class a pruned committee predicts on every training row (then ``to_text()`` is
        ``always C``), else None (always None with ``pruning="none"``).
    fallback_class_ : object or None
        With ``fallback="inner_cv"``: the majority class the committee fell back to when its
        rules did not beat it on inner folds; None otherwise.
    nominal_mask_ : ndarray of bool, shape (n_features_in_,)
        Which columns were read as nominal.
    frame_categories_ : dict {column index: list}
        Values of the DataFrame's nominal-dtype columns; code ``i`` stands for ``values[i]``.
    cell_patterns_, cell_counts_ : ndarray
        The distinct satisfaction patterns of the training examples and their (weighted) class
        counts: the cells behind :meth:`predict_proba`.
    vote_cells_, vote_class_counts_ : ndarray
        The distinct vote vectors ``S`` of the training examples and their class counts.
    region_class_counts_ : ndarray of shape (n_classes, n_classes)
        Row ``k``: class counts of the training examples the committee predicts ``k`` for.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Defined when fitted on a DataFrame with string column names.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> dc = DecisionCommittee().fit(X, y)
    >>> dc.n_rules_ <= len(dc.grown_monomials_), dc.score(X, y) > 0.9
    (True, True)
    >>> dc.predict_proba(X).shape, bool((dc.classes_[dc.decision_function(X).argmax(1)] == dc.predict(X)).all())
    ((150, 3), True)
    """

    _parameter_constraints = {
        "pruning": [StrOptions(set(PRUNINGS))],
        "categorical_features": [None, StrOptions({"all"}), "array-like"],
        "max_cuts": [Interval(numbers.Integral, 1, None, closed="left")],
        "optimistic_strength": [Interval(numbers.Real, 0, None, closed="left")],
        "optimistic_delta": [Interval(numbers.Real, 0, 1, closed="neither")],
        "numeric_literal": [StrOptions({"le", "gt"})],
        "max_rules": [Interval(numbers.Integral, 0, None, closed="left"), None],
        "class_weight": [None, StrOptions({"balanced"}), dict],
        "fallback": [StrOptions({"inner_cv"}), None],
    }

    def __init__(
        self,
        *,
        pruning="pessimistic",
        categorical_features=None,
        max_cuts=8,
        optimistic_strength=0.0,
        optimistic_delta=0.05,
        numeric_literal="le",
        max_rules=None,
        class_weight=None,
        fallback="inner_cv",
    ):
        self.pruning = pruning
        self.categorical_features = categorical_features
        self.max_cuts = max_cuts
        self.optimistic_strength = optimistic_strength
        self.optimistic_delta = optimistic_delta
        self.numeric_literal = numeric_literal
        self.max_rules = max_rules
        self.class_weight = class_weight
        self.fallback = fallback

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        # It reads category, string/object and bool columns as nominal (companion._nominal).
        tags.input_tags.categorical = tags.input_tags.string = True
        return tags

    # -- validation ---------------------------------------------------------------------------

    def _nominal_mask(self, n_features):
        # Columns read as nominal from the DataFrame's dtypes, plus those categorical_features names.
        mask = np.zeros(n_features, dtype=bool)
        mask[list(getattr(self, "frame_categories_", {}))] = True
        return mask | self._declared_nominal(n_features)

    def _declared_nominal(self, n_features):
        spec = self.categorical_features
        mask = np.zeros(n_features, dtype=bool)
        if spec is None:
            return mask
        if isinstance(spec, str) and spec == "all":  # every column nominal (integer codes)
            return np.ones(n_features, dtype=bool)
        if isinstance(spec, (str, bytes)) or np.ndim(spec) != 1:
            raise TypeError(
                f"categorical_features must be None, 'all' or a 1-d array-like of column indices, column names "
                f"or booleans, got {spec!r}"
            )
        spec = np.asarray(spec)
        if spec.size and (spec.dtype.kind in "USO") and all(isinstance(v, str) for v in spec.tolist()):
            names = getattr(self, "feature_names_in_", None)
            if names is None:
                raise TypeError(
                    "categorical_features holds column names, but X is not a DataFrame with named columns; "
                    "pass column indices"
                )
            unknown = [v for v in spec.tolist() if v not in set(names.tolist())]
            if unknown:
                raise ValueError(f"categorical_features names columns that X does not have: {unknown}")
            return np.isin(names, spec)
        if spec.dtype == bool:
            if spec.size != n_features:
                raise ValueError(
                    f"categorical_features as a boolean mask must have one entry per feature "
                    f"({n_features}), got {spec.size}"
                )
            return spec.copy()
        if spec.size == 0:
            return mask
        if not np.issubdtype(spec.dtype, np.integer):
            raise TypeError(f"categorical_features must hold integer column indices or booleans, got dtype {spec.dtype}")
        if spec.min() < -n_features or spec.max() >= n_features:
            raise ValueError(
                f"categorical_features holds column indices outside [0, {n_features}): {spec.tolist()}"
            )
        mask[spec] = True
        return mask

    # -- DataFrames: nominal columns from their dtypes --------------------------------------

    def _frame_codes(self, X, *, reset):
        """``X`` with its nominal columns (read by the package's one rule) replaced by float codes.

        At ``fit`` (``reset``) the nominal columns are found by
        :func:`companion._nominal.nominal_columns` (a DataFrame's category, bool, object
        and string columns; an array's columns of non-numbers) and their values recorded in
        ``frame_categories_`` (a categorical's categories, else the sorted distinct values);
        their codes ``0, 1, ...`` index these lists and a value ``fit`` did not see becomes NaN
        (missing: every literal on it is false). Numeric columns pass unchanged: whether a number
        is nominal is never guessed from its value.
        """
        is_frame = isinstance(X, pd.DataFrame)
        if not is_frame and not hasattr(X, "__array__") and not isinstance(X, (list, tuple)):
            return X  # let validate_data refuse it
        raw = X if is_frame else np.asarray(X)
        if not is_frame and (raw.ndim != 2 or raw.dtype.kind in "iufc"):
            if reset:
                self.frame_categories_ = {}
            return X  # numbers (or a shape validate_data refuses)
        if reset:
            values = raw.to_numpy(dtype=object) if is_frame else raw
            declared = declared_categories(X)
            self.frame_categories_ = {
                j: value_list(values[:, j], None if declared is None else declared[j])
                for j in np.flatnonzero(nominal_columns(X, values))
            }
        categories = getattr(self, "frame_categories_", {})
        if not categories or (not reset and raw.shape[1] != self.n_features_in_):
            return X  # numeric frames; validate_data names a column mismatch
        columns = []
        for j in range(raw.shape[1]):
            column = raw.iloc[:, j] if is_frame else pd.Series(raw[:, j], dtype=object)
            if j in categories:
                # Position in the fitted values; -1 (unseen or missing) becomes NaN.
                codes = pd.Index(categories[j], dtype=object).get_indexer(pd.Index(column, dtype=object))
                column = pd.Series(np.where(codes >= 0, codes, np.nan), index=column.index)
            columns.append(column if is_frame else np.asarray(column, dtype=object))
        if not is_frame:
            return np.column_stack(columns)
        encoded = pd.concat(columns, axis=1)
        encoded.columns = X.columns
        return encoded

    def _warn_many_values(self):
        """Warn about each nominal column with more than ``MANY_VALUES`` distinct values."""
        eq = np.array([feature for feature, kind, _ in self.variables_ if kind == "eq"], dtype=np.intp)
        counts = np.bincount(eq, minlength=self.n_features_in_)
        names = resolve_feature_names(self)
        for j in np.flatnonzero(counts > MANY_VALUES):
            warnings.warn(
                f"DecisionCommittee: nominal column {names[j]!r} has {counts[j]} distinct values, each a "
                f"Boolean variable [{names[j]} = value]; an identifier or a numeric column read as text "
                f"overfits and slows the growth. Drop it, or give it as a numeric column.",
                UserWarning,
                stacklevel=3,
            )

    # -- fitting ------------------------------------------------------------------------------

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Grow, vectorise and prune a decision committee on ``(X, y)``.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Numbers; NaN marks a missing value. Nominal columns are a DataFrame's category,
            object, string and bool columns (an array's columns of non-numbers) and those named
            by ``categorical_features``.
        y : array-like of shape (n_samples,)
            Class labels of any type.
        sample_weight : array-like of shape (n_samples,), optional
            Frequency weights (class docstring, "Weights"); None is WIDC's uniform distribution.

        Returns
        -------
        self
        """
        check_sample_weight(self, sample_weight, X)  # one refusal for every learner (companion._weights)
        given = (X, y, sample_weight)  # for the fallback check (its clones fit what the caller gave)
        X = self._frame_codes(X, reset=True)
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_all_finite="allow-nan")
        if np.isinf(X).any():
            raise ValueError("DecisionCommittee: X contains infinity; only finite numbers and NaN (missing) are accepted")
        nominal = self._nominal_mask(X.shape[1])
        check_classification_targets(y)
        if sample_weight is not None or self.class_weight is not None:
            raw = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
            if self.class_weight is not None:
                raw = raw * compute_sample_weight(self.class_weight, y)
            if not raw.any():
                raise ValueError("DecisionCommittee: sample_weight sums to 0")
            keep = raw > 0  # a zero weight is a row that is not there
            X, y, raw = X[keep], y[keep], raw[keep]
        else:
            raw = None
        self.classes_, y_codes = np.unique(y, return_inverse=True)
        c = len(self.classes_)
        n = X.shape[0]
        unit = raw is None or bool(np.all(raw == raw[0]))
        # WIDC's fixed uniform distribution (Nock 2002, Section 2), or the normalised weights.
        weights = np.full(n, 1.0 / n) if unit else raw / raw.sum()
        self.nominal_mask_ = nominal
        self.variables_, self.binary_other_ = encode_variables(
            X, y_codes, c, nominal, self.max_cuts, self.numeric_literal, None if unit else raw
        )
        self._warn_many_values()
        literals = literal_matrix(X, self.variables_)
        if unit:
            # Class counts are integers, divided by n once: the same floats on every machine.
            self.prior_ = np.bincount(y_codes, minlength=c) / n
        else:
            self.prior_ = np.bincount(y_codes, weights=weights, minlength=c)
        if c > 1:
            monomials, trace = grow_monomials(literals, y_codes, weights, c, max_rules=self.max_rules)
        else:
            monomials, trace = [], [0.0]
        self.grown_monomials_ = monomials
        self.z_trace_ = trace
        satisfied = satisfaction(literals, monomials)
        if unit:
            # W_l of each rule = (number of class-l examples satisfying it) / n: integer counts
            # (boolean column sums), one division, no BLAS product of 1/n weights (whose float
            # sum would depend on the BLAS kernel and thread count).
            class_counts = np.stack([satisfied[y_codes == l].sum(axis=0) for l in range(c)], axis=1)
            class_weights = class_counts.reshape(len(monomials), c) / n
        else:
            class_weights = np.stack(
                [(satisfied[y_codes == l] * weights[y_codes == l, None]).sum(axis=0) for l in range(c)], axis=1
            ).reshape(len(monomials), c)
        self.grown_vectors_ = rule_vectors(class_weights) if monomials else np.zeros((0, c), dtype=np.int64)
        self._prune(literals, satisfied, y_codes, weights, raw)
        self._fall_back_unless_it_wins(given, literals, satisfied, y_codes, weights, raw)
        return self

    def _fall_back_unless_it_wins(self, given, literals, satisfied, y_codes, weights, cell_weight=None):
        """With ``fallback="inner_cv"``, a pruned committee that does not beat the majority class
        on inner folds (``given``: the caller's ``X, y, sample_weight``) keeps no rule."""
        self.fallback_class_ = None
        if (self.fallback != "inner_cv" or self.pruning == "none" or not self.n_rules_
                or self.single_class_ is not None or fallback_check_running()
                or beats_default_class(self, *given)):
            return
        # No rule: the default vector is the (weighted) class distribution, whose first largest
        # component is the majority class.
        self._prune(literals, satisfied, y_codes, weights, cell_weight, kept=np.arange(0),
                    reason=" (its rules did not beat it on inner folds: DecisionCommittee fell back to the default class)")
        self.fallback_class_ = self.default_class_

    def _grown_lengths(self):
        """The number of literals of each grown rule (the optimistic pruning's penalty reads it)."""
        return np.array([len(m) for m in self.grown_monomials_])

    def _prune(self, literals, satisfied, y_codes, weights, cell_weight=None, kept=None, reason=""):
        vectors = self.grown_vectors_
        if kept is not None:  # computed by the caller (with_prunings' shared optimistic sweep)
            pass
        elif self.pruning == "none" or len(vectors) == 0:
            kept = np.arange(len(vectors))
        elif self.pruning == "pessimistic":
            kept = prune_pessimistic(satisfied, vectors, y_codes, weights, self.prior_)
        else:
            kept = prune_optimistic(
                satisfied,
                vectors,
                self._grown_lengths(),
                y_codes,
                weights,
                self.prior_,
                n_literals=literals.shape[1],
                strength=self.optimistic_strength,
                delta=self.optimistic_delta,
            )
        self.monomials_ = [self.grown_monomials_[i] for i in kept]
        self.vectors_ = vectors[kept]
        scores = vote_sums(satisfied[:, kept], self.vectors_)  # exact integer sums
        default, predictions = default_and_predictions(scores[None], y_codes, weights, self.prior_)
        self.default_votes_ = default[0]
        self.default_class_ = self.classes_[int(np.argmax(self.default_votes_))]
        self.n_rules_ = len(self.monomials_)
        self.n_literals_ = int(sum(len(m) for m in self.monomials_))
        self.complexity_ = self.n_literals_
        # The cells of predict_proba: training class counts per satisfaction pattern of the kept
        # rules, per vote vector S, and per predicted class (the fallbacks, coarser and coarser).
        c = len(self.classes_)
        weight = cell_weight
        self.cell_patterns_, self.cell_counts_ = pattern_cells(satisfied[:, kept], y_codes, c, weight)
        self.vote_cells_, self.vote_class_counts_ = pattern_cells(scores, y_codes, c, weight)
        self.region_class_counts_ = count_array(
            np.bincount(predictions[0] * c + y_codes, weights=weight, minlength=c * c).reshape(c, c)
        )
        if self.pruning == "none":
            # WIDC(): the committee as grown (stages 1-2), an inspection of the growth, kept as it is
            self.single_class_ = None
        else:
            # A pruned committee that predicts one class on every training row (its rules pruned
            # away, or outvoted everywhere) is the default rule: it warns and prints "always C".
            self._check_single_class(None, predictions=self.classes_[predictions[0]], reason=reason)

    def with_pruning(self, pruning, X, y, **pruning_params):
        """A copy of this fitted committee with stage 3 redone by ``pruning`` (stages 1-2 reused).

        Growth does not depend on the pruning, so the benchmark grows once per fold and prunes
        three ways. ``X, y`` must be the training data ``fit`` saw.

        Parameters
        ----------
        pruning : {"pessimistic", "optimistic", "none"}
        X, y : the training data.
        **pruning_params
            New values of ``optimistic_strength`` / ``optimistic_delta``.

        Returns
        -------
        DecisionCommittee
            A fitted estimator whose ``pruning`` parameter is ``pruning``.
        """
        return self.with_prunings(X, y, [(pruning, pruning_params)])[0]

    def with_prunings(self, X, y, settings, *, optimistic_default="recomputed", optimistic_scope="rule"):
        """:meth:`with_pruning` for each ``(pruning, pruning_params)`` of ``settings``, in order.

        The training data are validated and their literals and rule satisfactions computed once
        for all the copies, and the optimistic prunings of the same ``optimistic_delta`` run as
        one sweep over their strengths (the decisions of :func:`prune_optimistic` for each): a
        sweep over ``c_KM`` (Nock 2002, Section 5's optimistic pruning) costs about one pruning.

        Parameters
        ----------
        X, y : array-like
            The training data ``fit`` saw.
        settings : sequence of (str, dict)
            ``(pruning, pruning_params)`` pairs, as :meth:`with_pruning` takes them.
        optimistic_default, optimistic_scope : str, default="recomputed", "rule"
            The structure of the optimistic pass (the paper's is lost): the default vector
            recomputed for each committee the pass looks at, or ``"frozen"`` at the grown
            committee's; a removal judged on the rule's examples, or on the whole sample
            (``"committee"``): :func:`companion._partition_boosting.prune_optimistic_sweep`.

        Returns
        -------
        list of DecisionCommittee
            One fitted copy per setting: the committee ``with_pruning`` returns for it.
        """
        check_is_fitted(self)
        X_given = X  # for the fallback check (its clones fit what the caller gave)
        X = validate_data(
            self, self._frame_codes(X, reset=False), reset=False, dtype=np.float64, ensure_all_finite="allow-nan"
        )
        y = np.asarray(y)
        if y.shape[0] != X.shape[0]:
            raise ValueError(f"y has {y.shape[0]} labels for {X.shape[0]} rows of X")
        codes = np.searchsorted(self.classes_, y)
        if np.any(codes >= len(self.classes_)) or np.any(self.classes_[np.minimum(codes, len(self.classes_) - 1)] != y):
            raise ValueError("y holds labels that fit did not see; pass the training data")
        allowed = {"optimistic_strength", "optimistic_delta"}
        copies = []
        for pruning, pruning_params in settings:
            if set(pruning_params) - allowed:
                raise TypeError(
                    f"with_pruning accepts only {sorted(allowed)} as keyword parameters, "
                    f"got {sorted(set(pruning_params) - allowed)}"
                )
            other = copy.deepcopy(self)
            other.set_params(pruning=pruning, **pruning_params)
            other._validate_params()
            copies.append(other)
        literals = literal_matrix(X, self.variables_)
        satisfied = satisfaction(literals, self.grown_monomials_)
        weights = np.full(len(codes), 1.0 / len(codes))
        kept = [None] * len(copies)
        sweeps = {}  # optimistic_delta -> positions of the optimistic copies
        for position, other in enumerate(copies):
            if other.pruning == "optimistic" and len(other.grown_vectors_):
                sweeps.setdefault(other.optimistic_delta, []).append(position)
        for delta, positions in sweeps.items():
            swept = prune_optimistic_sweep(
                satisfied, self.grown_vectors_, self._grown_lengths(), codes, weights, self.prior_, n_literals=literals.shape[1],
                strengths=[copies[position].optimistic_strength for position in positions], delta=delta,
                default=optimistic_default, scope=optimistic_scope,
            )
            for position, indices in zip(positions, swept):
                kept[position] = indices
        for other, indices in zip(copies, kept):
            other._prune(literals, satisfied, codes, weights, kept=indices)
            other._fall_back_unless_it_wins((X_given, y), literals, satisfied, codes, weights)
        return copies

    # -- prediction ---------------------------------------------------------------------------

    def _satisfied(self, X):
        X = self._frame_codes(X, reset=False)
        X = validate_data(self, X, reset=False, dtype=np.float64, ensure_all_finite="allow-nan")
        return satisfaction(literal_matrix(X, self.variables_), self.monomials_)

    def decision_function(self, X):
        """Vote ``S(o) + D / 2``: the summed rule vectors plus half the default vector.

        ``S`` is integer and ``D`` a distribution, so adding ``D / 2`` only orders the classes
        tied in ``S``, exactly as the default-vector rule does: the argmax is the prediction.
        For two classes the difference ``[:, 1] - [:, 0]`` is returned, as scikit-learn expects.

        ``S`` is an exact integer matrix product (no BLAS). Classes with different ``S`` differ
        by at least 1 while the ``D / 2`` components differ by at most 1/2, so their order is
        kept; classes tied in ``S`` are ordered by ``D`` (counts over a common total, at least
        ``1/n`` apart) because adding the same integer rounds monotonically and cannot merge
        values that far apart (``|S| * n`` far below ``2**50``). Equal ``D`` components stay
        equal, and ``argmax`` then takes the smallest class index, as :meth:`predict` does.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Columns as in :meth:`fit`.

        Returns
        -------
        ndarray of shape (n_samples, n_classes), or (n_samples,) for two classes
        """
        check_is_fitted(self)
        c = len(self.classes_)
        scores = vote_sums(self._satisfied(X), self.vectors_.reshape(-1, c)).astype(float)
        scores = scores + self.default_votes_[None, :] / 2.0
        if c == 2:
            return scores[:, 1] - scores[:, 0]
        return scores

    def predict(self, X):
        """Class of the largest summed vector; ties go to the default vector ``D``.

        Exact: ``S`` is an integer sum of {-1, 0, +1} votes (:func:`committee_predict`); among
        the classes tied in ``S`` the largest ``D`` component wins, then the smallest index.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Columns as in :meth:`fit`.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        satisfied = self._satisfied(X)
        codes = committee_predict(satisfied, self.vectors_.reshape(-1, len(self.classes_)), self.default_votes_)
        return self.classes_[codes]

    def predict_proba(self, X):
        """Laplace-corrected class frequencies of the training examples in the same cell.

        The cell of an observation is its *satisfaction pattern*, the set of kept rules it
        satisfies: the committee cannot tell apart two observations with the same pattern. Its
        probabilities are ``(n_c + 1) / (n + k)`` over the ``n`` training examples of that
        pattern (:func:`companion._learner_support.laplace_proba`). A pattern no training example
        had falls back to the training examples with the same vote vector ``S`` (the committee
        sees nothing else), then to those the committee predicts the same class for (its
        decision region); a region no training example reached gives the uniform ``1 / k``.

        ``predict`` is the committee's vote, not the argmax of these frequencies: they agree
        where the vote is right on most of the cell's training examples; otherwise (and on a
        tie of frequencies) they may differ. All counts are integers.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Columns as in :meth:`fit`; NaN is a missing value, which satisfies no literal on
            its attribute.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            One row per observation, one column per entry of ``classes_``, each row summing to 1.
        """
        check_is_fitted(self)
        c = len(self.classes_)
        satisfied = self._satisfied(X)
        counts = np.zeros((satisfied.shape[0], c), dtype=np.int64)
        cell = row_lookup(self.cell_patterns_, satisfied)
        counts[cell >= 0] = self.cell_counts_[cell[cell >= 0]]
        unseen = np.flatnonzero(cell < 0)
        if unseen.size:
            vectors = self.vectors_.reshape(-1, c)
            votes = vote_sums(satisfied[unseen], vectors)
            vote_cell = row_lookup(self.vote_cells_, votes)
            counts[unseen[vote_cell >= 0]] = self.vote_class_counts_[vote_cell[vote_cell >= 0]]
            rest = unseen[vote_cell < 0]
            if rest.size:
                region = committee_predict(satisfied[rest], vectors, self.default_votes_)
                counts[rest] = self.region_class_counts_[region]
        return laplace_proba(counts)

    # -- reading ------------------------------------------------------------------------------

    def literal_text(self, literal, feature_names=None, category_names=None):
        """Readable text of literal id ``literal`` (``2v``: variable v, ``2v+1``: its negation).

        Parameters
        ----------
        literal : int
            A literal id.
        feature_names : sequence of str, optional
            As in :meth:`to_text`.
        category_names : dict, optional
            As in :meth:`to_text`.

        Returns
        -------
        str
        """
        check_is_fitted(self)
        names = resolve_feature_names(self, feature_names)
        return self._literal_text(literal, names, self._category_names(category_names))

    def _category_names(self, category_names):
        """The values of the DataFrame's nominal columns, overridden by the caller's names."""
        merged = {j: list(values) for j, values in getattr(self, "frame_categories_", {}).items()}
        merged.update(category_names or {})
        return merged

    def _literal_text(self, literal, names, category_names, decimals=None):
        feature, kind, value = self.variables_[literal // 2]
        negated = literal % 2 == 1
        name = names[feature]

        def value_text(v):
            labels = (category_names or {}).get(feature)
            if labels is None:
                labels = (category_names or {}).get(name)
            if labels is not None and float(v).is_integer() and 0 <= int(v) < len(labels):
                return str(labels[int(v)])
            return f"{v:g}"

        if kind in ("le", "gt"):
            upper = (kind == "le") != negated
            shown = f"{value:g}" if decimals is None else format_number(value, decimals)
            return f"{name} {'<=' if upper else '>'} {shown}"
        if negated and feature in self.binary_other_:  # two values: "not a" reads "= b"
            return f"{name} = {value_text(self.binary_other_[feature])}"
        return f"{name} {'!=' if negated else '='} {value_text(value)}"

    def _render_text(self, feature_names, *, category_names=None, decimals=None):
        """The committee as ``IF monomial THEN vector`` lines plus the default vector (``to_text``).

        Parameters
        ----------
        feature_names : sequence of str, optional
            One name per input column; defaults to ``feature_names_in_`` when fitted on a
            DataFrame, else ``x0, x1, ...`` (columns counted from 0).
        category_names : dict {feature index or name: sequence}, optional
            Names of the nominal codes ``0, 1, ...`` of a feature.
        decimals : int, optional
            Decimal places of thresholds and the default vector
            (:func:`companion._learner_support.format_number`; default: ``%g`` thresholds,
            3 significant digits for the default vector).
        """
        category_names = self._category_names(category_names)
        labels = [str(c) for c in self.classes_]
        lines = []
        for monomial, vector in zip(self.monomials_, self.vectors_):
            condition = self._monomial_text(monomial, feature_names, category_names, decimals)
            votes = ", ".join(f"{label}: {int(v):+d}" if v else f"{label}: 0" for label, v in zip(labels, vector))
            lines.append(f"IF {condition or 'TRUE'} THEN ({votes})")
        if decimals is None:
            default = ", ".join(f"{label}: {d:.3g}" for label, d in zip(labels, self.default_votes_))
        else:
            default = ", ".join(f"{label}: {format_number(d, decimals)}" for label, d in zip(labels, self.default_votes_))
        lines.append(f"DEFAULT ({default})")
        return "\n".join(lines)

    def _monomial_text(self, monomial, names, category_names, decimals=None):
        return " AND ".join(self._literal_text(l, names, category_names, decimals) for l in monomial)

    def _rule_records(self, feature_names):
        """One record per kept monomial; ``prediction``: the class its vote vector favours."""
        category_names = self._category_names(None)
        return [
            {
                "condition": self._monomial_text(monomial, feature_names, category_names),
                "prediction": self.classes_[int(np.argmax(vector))],
            }
            for monomial, vector in zip(self.monomials_, self.vectors_)
        ]

    def _rule_decisions(self, X):
        """A monomial decides the rows that satisfy it (several may decide a row, or none)."""
        check_is_fitted(self)
        return self._satisfied(X)

    def _model_to_dict(self):
        return {
            "variables": [[int(f), kind, float(v)] for f, kind, v in self.variables_],
            "binary_other": [[int(j), float(v)] for j, v in self.binary_other_.items()],
            "frame_categories": [[int(j), list(values)] for j, values in self.frame_categories_.items()],
            "nominal_mask": self.nominal_mask_.tolist(),
            "monomials": [[int(l) for l in m] for m in self.monomials_],
            "vectors": np.asarray(self.vectors_).tolist(),
            "default_votes": self.default_votes_.tolist(),
            "prior": self.prior_.tolist(),
            "cell_patterns": self.cell_patterns_.astype(int).tolist(),
            "cell_counts": self.cell_counts_.tolist(),
            "vote_cells": np.asarray(self.vote_cells_).tolist(),
            "vote_class_counts": self.vote_class_counts_.tolist(),
            "region_class_counts": self.region_class_counts_.tolist(),
            # only when it fell back: the model of any other fit is written as before the fallback
            **({"fallback_class": jsonable(self.fallback_class_, where="fallback_class_")}
               if getattr(self, "fallback_class_", None) is not None else {}),
        }

    def _model_from_dict(self, model):
        c = len(self.classes_)
        self.variables_ = [(int(f), kind, float(v)) for f, kind, v in model["variables"]]
        self.binary_other_ = {int(j): float(v) for j, v in model["binary_other"]}
        self.frame_categories_ = {int(j): list(values) for j, values in model["frame_categories"]}
        self.nominal_mask_ = np.array(model["nominal_mask"], dtype=bool)
        self.monomials_ = [tuple(int(l) for l in m) for m in model["monomials"]]
        self.vectors_ = rule_votes(np.array(model["vectors"], dtype=float).reshape(-1, c))
        self.default_votes_ = np.array(model["default_votes"], dtype=float)
        self.default_class_ = self.classes_[int(np.argmax(self.default_votes_))]
        self.prior_ = np.array(model["prior"], dtype=float)
        self.cell_patterns_ = np.array(model["cell_patterns"], dtype=bool).reshape(len(model["cell_patterns"]), len(self.monomials_))
        self.cell_counts_ = count_array(np.array(model["cell_counts"], dtype=float).reshape(-1, c))
        self.vote_cells_ = rule_votes(np.array(model["vote_cells"], dtype=float).reshape(-1, c))
        self.vote_class_counts_ = count_array(np.array(model["vote_class_counts"], dtype=float).reshape(-1, c))
        self.region_class_counts_ = count_array(np.array(model["region_class_counts"], dtype=float).reshape(c, c))
        self.n_rules_ = len(self.monomials_)
        self.n_literals_ = int(sum(len(m) for m in self.monomials_))
        self.complexity_ = self.n_literals_
        fallback = model.get("fallback_class")  # absent unless the fit fell back
        self.fallback_class_ = None if fallback is None else self.classes_[self.classes_.tolist().index(fallback)]
