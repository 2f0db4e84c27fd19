"""Conjunctions (and disjunctions) of decision stumps: the SC, Occam and PAC-Bayes learners of Paper 05.

:class:`SetCoveringStumps`, :class:`OccamStumps` and :class:`PacBayesStumps` share
:class:`_BaseStumpConjunction` (as scikit-learn's ``SVC`` and ``NuSVC`` share ``BaseLibSVM``).

M. Shah, M. Marchand, J. Corbeil, *Feature Selection with Conjunctions of Decision Stumps and
Learning from Microarray Data*, IEEE TPAMI 34(1), 2012 (Paper 05).

A decision stump on attribute ``k`` with threshold ``t`` and direction ``d`` outputs 1 when
``x_k > t`` (``d = +1``) or ``x_k ≤ t`` (``d = −1``); a conjunction outputs 1 when all of its stumps
do. (The paper writes ``I((x_k − t)d > 0)``, i.e. a strict ``x_k < t`` for ``d = −1``; the two differ
only on the measure-zero set ``x_k = t``, and the non-strict form makes the SC variant's stumps
exactly those of pyscm-ml and makes the disjunction's complementary stumps the same family.)

All three learners share the set-covering greedy of Section VI: on the remaining examples, add the
stump with the largest utility, then remove every remaining example it classifies 0, until no
negative example remains or ``s`` stumps are used. They differ in what the threshold is and in
what the utility pays for, so that *the greedy step and the model selection both minimise the
learner's bound* (Section VI states the utility ``U = |Q| − p|R|`` for SC only; the Occam and
PAC-Bayes utilities below are our reconstructions, each paying what its bound charges).

Defaults (``length="bound"``, ``stop_idle=True``): the greedy stops before a stump that would
change no training prediction, and the model keeps the prefix of smallest bound (Section VI: "a
conjunction of decision stumps that minimizes the respective risk bounds for each approach");
``length="greedy", stop_idle=False`` is the paper's greedy as such (notebook 05 uses it and
selects the length itself). Sample weights are frequencies (each class docstring).

:class:`SetCoveringStumps`, ``"sc"`` (sample compression, Theorem 3 + Eq. 5)
    ``U = |Q| − p|R|``; the threshold is the value of a remaining training example (the compression
    example). ``bound_`` is :func:`companion.bounds.compression.compression_bound`.
:class:`OccamStumps`, ``"occam"`` (Theorem 2)
    ``U = |Q| − p|R| − η (l ln 2 − ln ζ(l))``, where ``l`` is the dyadic code length of the interval of
    thresholds that classify the remaining examples the same way, i.e. exactly the nats Theorem 2's
    prior charges for that threshold. The threshold is the coded dyadic point.
:class:`PacBayesStumps`, ``"pac_bayes"`` (Theorem 4, "soft greedy")
    Each stump gets a margin interval ``[a, b]`` (``a`` and ``b`` are training values ``g`` sorted
    positions apart, ``g`` in ``margin_gaps``); every example keeps the probability ``w(x)`` that the
    Gibbs conjunction built so far outputs 1, and
    ``U = Q̃ − p R̃ − η ln((B − A)/(b − a))`` with ``Q̃, R̃`` the expected negative/positive weight the
    stump removes. ``m R_S(G)`` changes by exactly ``R̃ − Q̃``, and the KL term by the
    ``ln((B−A)/(b−a))`` charged, so ``p = 1`` and ``η = 1`` follow the bound's own trade-off.
    ``predict`` is the Bayes vote ``I(Π σ > 1/2)``; ``bound_`` is ``min(1, 2 × Gibbs bound)``.

Vectorised: the search engine, :mod:`companion._stump_search`, sorts every attribute once per
fit and scores every (attribute, threshold, direction) candidate of a greedy step with
cumulative counts (weights) along the sorted order of the remaining examples — no Python loop
over examples or attributes. The SC sort depends on ``X`` only, so refits on the same rows —
every ``(p, s)`` of a grid search on one fold — may share it through an explicit
:class:`companion._stump_search.SortCache` passed to ``fit(sort_cache=...)``; :func:`fit_by_bound`
shares one across its grid. No cache outlives its caller.

>>> import numpy as np
>>> X = np.column_stack([np.arange(1, 13), np.arange(12, 0, -1)]).astype(float)
>>> y = np.array([0] * 6 + [1] * 6)
>>> model = SetCoveringStumps().fit(X, y)
>>> print(model.to_text())
IF x0 > 6.5 THEN 1 ELSE 0
>>> model.predict(X).tolist() == y.tolist()
True
"""

from __future__ import annotations

import copy
import inspect
from numbers import Integral, Real

import numpy as np
from sklearn import config_context
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context, clone
from sklearn.model_selection import ParameterGrid
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions, validate_params
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from companion._weights import check_sample_weight
from companion._scale import check_learner_scale
from companion._numeric_input import numeric_input
from companion.bounds.compression import compression_bound
from companion.bounds.binomial import binomial_tail_inversion
from companion.bounds.occam import dyadic_code_lengths, occam_log_prior, threshold_code_cost
from companion.bounds.pac_bayes import gibbs_output_probability, kl_inverse_upper, pac_bayes_kl
from companion._learner_support import (
    binary_only_error, check_numeric_input, constant_log_odds, format_number, jsonable, laplace_proba,
)
from companion.interpretable import InterpretableMixin, beats_default_class
from companion._learner_support import fallback_check_running
from companion.numerics import TIE_RTOL, StrictInterval, first_near_min, is_integer_valued
from companion._stump_search import (
    PYSCM_TOL,
    ScanState,
    SortCache,
    SortedColumns,
    greedy_step_scores,
    nan_off,
    pac_bayes_step_scores,
    pick_candidate,
    sc_scan,
    sorted_order_and_run_ends,
)

__all__ = [
    "SetCoveringStumps",
    "OccamStumps",
    "PacBayesStumps",
    "fit_by_bound",
]

_MODEL_TYPES = ("conjunction", "disjunction")
#: SC greedy steps removing few examples (at most a quarter) taken by gathers before the ranks
#: are built (see ``SetCoveringStumps._greedy``).
_RANK_AFTER_STEPS = 7
_TIE_BREAKING = ("pyscm", "index")


_SHARED_PARAMETERS = """\
    model_type : {"conjunction", "disjunction"}, default="conjunction"
        A disjunction is learned as a conjunction with the labels swapped (Paper 05, Section II).
    p : float, default=1.0
        Penalty for each positive example a stump misclassifies, ``p >= 0``.
    s : int, default=10
        Maximum number of stumps (= genes), ``s >= 1``.
    delta : float, default=0.05
        Confidence of the bounds, in ``(0, 1]``.
    tie_breaking : {"pyscm", "index"}, default="pyscm"
        ``"pyscm"``: utilities within 1e-7 are equal, then the largest ``|Q| − |R|`` wins, then the
        first in (attribute, threshold, ``>`` before ``≤``) order, exactly as pyscm-ml 1.1;
        ``"index"``: the first exact maximum in that order.
    reuse_features : bool, default=False
        Whether an attribute may carry several stumps. The paper uses each attribute at most once
        (its prior counts attribute *sets*); pyscm-ml allows reuse (set True to match it).
    prior_n_features : int or None, default=None
        ``n`` used by the bounds; ``None`` means the number of columns of ``X``. Set it to the full
        gene count when ``X`` holds genes pre-selected with the labels: the bounds hold uniformly
        over all conjunctions on the ``n`` genes, so the search may be narrowed but the prior may not.
    feature_range : array-like of shape (2,) or (2, n_features), or None, default=None
        The a-priori range ``[A_k, B_k]`` of each attribute that the Occam prior (dyadic threshold
        codes, Theorem 2) and the PAC-Bayes prior (uniform threshold density, Theorem 4) are built
        on; Section II: "the a priori lower and upper bounds on values for ``x_i``", "obtained from
        the definition of data". A pair ``(A, B)`` applies to every attribute. The bounds are valid
        only if it is fixed before the training sample is seen: a platform's value range, or a range
        declared for the whole data set (labels unused), e.g.
        :func:`companion.experiments.paper05.declared_feature_range`. ``None`` (the default) uses
        the min/max of the training inputs of positive weight, which depends on the sample, so the
        Occam and PAC-Bayes bounds are then only heuristic. Training inputs outside the given range
        raise ``ValueError``. The SC bound does not use it (SC only bounds the interval of
        equivalent thresholds reported in ``intervals_`` by ``B_k``).
    length : {"bound", "greedy"}, default="bound"
        How many of the greedy's stumps the model keeps. ``"bound"``: the prefix whose bound
        (``bound_path_``; PAC-Bayes: the Gibbs bound ``gibbs_bound_path_``) is smallest, bounds
        within ``companion.numerics.TIE_RTOL`` of the minimum tied and the fewest stumps winning
        (:func:`companion.numerics.first_near_min`) — the model selection by the bound that
        Paper 05, Section VI, aims at ("a conjunction of decision stumps that minimizes the
        respective risk bounds for each approach"); free, as each bound holds for every prefix at
        once. Then, for users' tables, the chosen stumps must beat the default class on 3 inner
        folds (:func:`companion.interpretable.beats_default_class`, CART's one-standard-error
        rule), else (and when the bound chooses no stump) the model keeps no stump and
        predicts the (weighted) majority class, ``fallback_class_``, printed ``always C`` with a
        :class:`companion.interpretable.SingleClassWarning`. ``"greedy"``: every stump the greedy added (at most ``s``), the paper's greedy as
        such (no fallback; what notebook 05 uses); use it to select the length yourself (``staged_predict``, :meth:`truncated`,
        :func:`fit_by_bound`).
    stop_idle : bool, default=True
        Stop the greedy before an *idle* stump, one that would change no training prediction
        (it sends no remaining example of positive weight to 0; PAC-Bayes: it flips the Bayes
        vote of no training example), e.g. an always-true ``x <= max`` that the utility ``0``
        prefers when every other stump costs more positives than it gains negatives. ``False``:
        the paper's greedy, which runs until no negative example remains or ``s`` stumps are used.
    class_weight : dict, "balanced" or None, default=None
        Weights of the classes, multiplied into ``sample_weight``
        (:func:`sklearn.utils.class_weight.compute_sample_weight`); ``"balanced"`` weighs each
        class inversely to its frequency.
"""

_SHARED_ATTRIBUTES = """\
    classes_ : ndarray of shape (2,)
        ``classes_[1]`` is the positive class (the one a conjunction outputs when all stumps fire).
    features_ : ndarray of int
        Selected attribute (gene) indices, in the order the greedy added them.
    thresholds_ : ndarray of float
        Thresholds (PAC-Bayes: the midpoints of the margin intervals).
    directions_ : ndarray of int
        ``+1`` for ``x > t``, ``-1`` for ``x ≤ t`` (for a disjunction: its own, complementary stumps).
    complexity_ : int
        The size measure shared by the package's learners: the number of stumps (literals of the
        rendered conjunction or disjunction), ``features_.size``.
    bound_path_ : ndarray of shape (n_stumps + 1,)
        The class's risk bound along the greedy path: index ``k`` is the bound of the first ``k``
        stumps, ``k = 0 .. n_stumps`` (``k = 0``: the empty conjunction, i.e. the default class).
    bound_ : float
        Bound of the fitted model (``bound_path_[-1]``), with confidence ``1 − delta``.
    training_errors_path_ : ndarray of shape (n_stumps + 1,)
        Training errors of ``predict`` for the first ``k`` stumps, indexed as ``bound_path_``;
        weighted (the sum of the weights of the misclassified examples), int when every weight
        is a whole number.
    feature_range_ : ndarray of shape (2, n_features)
        ``[A_k, B_k]`` used by the priors: ``feature_range`` broadcast to every attribute, or (when
        it is None) the per-attribute min and max of the training inputs (no labels used).
    prior_n_features_ : int
        The ``n`` of the bounds (``prior_n_features``, else the number of columns).
    cell_counts_ : ndarray of shape (n_stumps + 1, 2)
        Training weight of each class (columns: ``classes_``) per cell: row ``j`` counts the
        examples whose first ``j`` stumps of the learned conjunction hold and the next fails (row
        ``n_stumps``: all hold); :meth:`predict_proba` is their Laplace frequency.
    default_class_ : object
        The label of the empty model (no stump): ``classes_[1]`` for a conjunction (the empty
        conjunction holds), ``classes_[0]`` for a disjunction.
    fallback_class_ : object or None
        With ``length="bound"``: the majority class the model fell back to when its stumps did
        not beat it on inner folds or the bound chose none (then it keeps no stump and always
        predicts it); else None.
"""

_SAMPLE_WEIGHT_DOC = """\
    Weights are frequencies: an example of weight ``w`` counts as ``w`` copies of it, so integer
    weights give the model that duplicating rows gives and a zero weight the model that
    dropping the row gives (rows of weight 0 are removed before anything else, also from the
    training range that ``feature_range=None`` reads). The greedy's utility counts weights
    (``|Q|``, ``|R|``: the weight of the negatives and positives a stump sends to 0), as do
    ``training_errors_path_`` and ``cell_counts_``. The bounds read the total weight as the
    number of examples ``m`` and the weighted errors as the error count: for whole-number
    weights this is exactly the bound of the duplicated sample; otherwise the SC and Occam bounds
    take ``m`` rounded down and the errors rounded up (a looser, still conservative count), and
    the PAC-Bayes bound takes the weighted Gibbs risk and ``m`` as they are (and, with
    ``gap_unit="value"``, its margin intervals do not depend on repeated rows).

"""


_EXPORT_DOC = """\
    Exported model: ``to_dict()["model"]`` holds ``model_type``, ``default_class`` (the label of
    the empty model), ``stumps`` (in order, each ``{"feature": column index, "direction": +1 for
    x > t / -1 for x <= t, "threshold": t, "interval": [a, b]}``), ``feature_range`` (the
    ``[A_k, B_k]`` rows), ``prior_n_features``, ``cell_counts`` (rows: cells, columns:
    ``classes``), ``bound_path`` and ``training_errors_path`` (index = number of stumps), and
    the learner's own arrays ({own}); :func:`companion.from_dict` reads it back.
"""

_OWN_EXPORTED = {
    "SetCoveringStumps": "``compression_set``: the row carrying each threshold",
    "OccamStumps": "``code_lengths``: bits of each threshold's code",
    "PacBayesStumps": "``gibbs_bound_path``, ``gibbs_risk_path``",
}


def _shared_docs(cls):
    """Put the shared parameter and attribute entries where a class docstring says ``[shared ...]``."""
    cls.__doc__ = (
        cls.__doc__.replace("    [shared parameters]\n", _SHARED_PARAMETERS)
        .replace("    [shared attributes]\n", _SHARED_ATTRIBUTES)
        .replace("    [sample weights]\n", _SAMPLE_WEIGHT_DOC)
        .replace("    [exported model]\n", _EXPORT_DOC.replace("{own}", _OWN_EXPORTED.get(cls.__name__, "none")))
    )
    return cls


_number = format_number  # ``decimals`` places, positional (None: 4 significant digits)


def _whole(values):
    """``values`` as int64 when every entry is a whole number, else as float."""
    values = np.asarray(values, dtype=float)
    return values.astype(np.int64) if is_integer_valued(values) else values


def _bound_counts(errors, m):
    """Whole counts ``(errors, m)`` for the SC and Occam bounds: errors up, ``m`` down (weights)."""
    m_whole = int(np.floor(m + 1e-9 * max(1.0, m)))
    errors = np.ceil(np.asarray(errors, dtype=float) - 1e-9 * max(1.0, m)).astype(np.int64)
    return np.clip(errors, 0, m_whole), max(m_whole, 1)


_CLASS_WEIGHT_CHECK_REASON = (
    "the weights are honoured exactly: with class_weight {0: 1000, 1: 1e-4} the greedy removes every "
    "training example of class 0 (training errors: positives of weight 1e-4 only), and 92% of the training "
    "predictions are class 0; but the one stump's threshold sits on the extreme training value of class 0 "
    "(hard threshold, no margin), so on this check's very noisy blobs 86% of the test predictions are "
    "class 0, below the check's 87%"
)


class _BaseStumpConjunction(InterpretableMixin, ClassifierMixin, BaseEstimator):
    """What the three stump learners of Paper 05 share (as scikit-learn's ``BaseLibSVM``).

    A conjunction (or disjunction) of decision stumps grown by the set-covering greedy of
    Section VI; the subclasses differ in the greedy's utility and threshold and in the bound:
    :class:`SetCoveringStumps` (sample compression), :class:`OccamStumps` (Occam's razor),
    :class:`PacBayesStumps` (PAC-Bayes). Written once here: the parameter constraints, the
    a-priori ``feature_range``, sample weights, the disjunction as a conjunction on swapped labels
    (one sign, :meth:`_disjunction_sign`, maps the learned conjunction's directions to the
    disjunction's and back), the path of bounds and training errors (:meth:`_compute_bound_path`;
    a subclass supplies :meth:`_greedy` and :meth:`_bounds_along_path`), the length chosen by the
    bound, the cells of ``predict_proba``, ``staged_predict``, ``truncated``, the text, the
    exported model and the rules frame. The base's stumps are hard thresholds (SC, Occam);
    :class:`PacBayesStumps` overrides the prefix votes and the margin with the Gibbs product of
    its margin intervals.

    The model is an ordered sequence of stumps, so the package's path convention applies:
    ``staged_predict(X)`` yields the predictions of the first ``k`` stumps for ``k = 1 ..
    n_stumps`` (its last item equals ``predict``), and the bounds along the path are the fitted
    attribute ``bound_path_``, whose index ``k`` is the bound of the first ``k`` stumps
    (``k = 0 .. n_stumps``; index 0 is the empty conjunction, which predicts the default class).
    With ``length="bound"`` (the default) the path ends at the chosen prefix.

    Scores (binary, ``classes_[1]`` positive):

    * :meth:`decision_function` — hard stumps (SC, Occam): a count of stumps plus a graded
      margin, ``h − k + 1/2 + τ`` for a conjunction of ``k`` stumps of which ``h`` hold, with
      ``τ = tanh(μ)/4`` and ``μ`` the mean over the stumps of ``d (x − c)/(B − A)``, ``c`` the
      middle of the stump's interval ``intervals_`` (how far each input lies on the stump's
      side, in units of the attribute's range); a disjunction
      scores the negation on its learned conjunction. The count decides the sign (``|τ| ≤
      1/4``), so ``predict`` always agrees with it and it is never 0; ``τ`` ranks examples with
      the same count, which a one-vs-rest wrapper needs to break its ties. PAC-Bayes: the Gibbs
      output probability minus 1/2, graded in the same way (see :class:`PacBayesStumps`). A
      model that fell back to the majority class (``fallback_class_``) scores every row by the
      training log-odds ``log((n_1 + 1)/(n_0 + 1))``
      (:func:`companion._learner_support.constant_log_odds`): one-vs-rest over fallbacks then
      picks the most frequent class (0 only on equal class totals, predicted ``classes_[0]``).
    * :meth:`predict_proba` — Laplace-corrected class frequencies ``(n_c + 1)/(n + 2)`` of the
      training examples in the example's *cell*: the number ``j`` of leading stumps of the learned
      conjunction that hold, i.e. "stump ``j`` is the first to fail" (for a disjunction: "stump
      ``j`` is the first to fire") or "all hold" (``j = k``; a disjunction: "none fires"); for
      PAC-Bayes "the Bayes vote of the first ``j + 1`` stumps is the first to say 0". The counts
      are ``cell_counts_`` (weighted); a cell no training example reached gets ``(1/2, 1/2)``.
      These are frequencies, not the rule: ``predict`` is the conjunction itself, and it equals
      the argmax of ``predict_proba`` only where a cell's majority agrees with the rule.

    Text: ``to_text(feature_names=None, *, decimals=None, show_class=True)``: thresholds with
    ``decimals`` places (None: four significant digits) and the class each outcome predicts,
    e.g. ``IF age > 54.5 AND smoker <= 0.5 THEN sick ELSE healthy`` (a disjunction: ``IF a OR b
    THEN ...``); ``show_class=False`` prints the conjunction alone (``age > 54.5 AND smoker <=
    0.5``, the form notebook 05's tables hold).
    """

    # sklearn's check_decision_proba_consistency passes on its data (one stump), but
    # decision_function (stumps of the rule) and predict_proba (frequencies of the cell) may rank
    # examples differently in general; both are documented above.
    _sklearn_check_exemptions: dict = {}
    _text_option_constraints = {"show_class": ["boolean"]}
    #: Fitted arrays with one entry per stump (cut by :meth:`truncated`).
    _per_stump_attributes = ("features_", "thresholds_", "directions_", "intervals_")
    #: Fitted arrays indexed by the prefix length ``k = 0 .. n_stumps`` (cut by :meth:`truncated`).
    _path_attributes = ("bound_path_", "training_errors_path_")

    #: max |X| its 1e-7 run tolerance leaves distinguishable (companion._scale)
    _scale_range = {"low": 2.0**-16, "high": None, "why": "sorted values closer than 1e-7 are one run (pyscm's tolerance), so data scaled this far down has only constant columns"}
    _parameter_constraints: dict = {
        "model_type": [StrOptions(set(_MODEL_TYPES))],
        "p": [Interval(Real, 0, None, closed="left")],
        "s": [Interval(Integral, 1, None, closed="left")],
        "delta": [Interval(Real, 0, 1, closed="right")],
        "tie_breaking": [StrOptions(set(_TIE_BREAKING))],
        "reuse_features": ["boolean"],
        "prior_n_features": [Interval(Integral, 1, None, closed="left"), None],
        "feature_range": ["array-like", None],
        "length": [StrOptions({"bound", "greedy"})],
        "stop_idle": ["boolean"],
        "class_weight": [StrOptions({"balanced"}), dict, None],
    }

    def __init__(
        self,
        *,
        model_type="conjunction",
        p=1.0,
        s=10,
        delta=0.05,
        tie_breaking="pyscm",
        reuse_features=False,
        prior_n_features=None,
        feature_range=None,
        length="bound",
        stop_idle=True,
        class_weight=None,
    ):
        self.model_type = model_type
        self.p = p
        self.s = s
        self.delta = delta
        self.tie_breaking = tie_breaking
        self.reuse_features = reuse_features
        self.prior_n_features = prior_n_features
        self.feature_range = feature_range
        self.length = length
        self.stop_idle = stop_idle
        self.class_weight = class_weight

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    # ----------------------------------------------------------------------------------------
    # validation (beyond _parameter_constraints)
    # ----------------------------------------------------------------------------------------

    def _prior_n(self, n_features):
        """``prior_n_features`` resolved and checked against the number of columns."""
        if self.prior_n_features is None:
            return int(n_features)
        if self.prior_n_features < n_features:
            raise ValueError(
                f"The 'prior_n_features' parameter of {type(self).__name__} must be None or at least "
                f"the number of features ({n_features}). Got {self.prior_n_features!r} instead."
            )
        return int(self.prior_n_features)

    def _check_own_params(self):
        """Check what the constraints of a subclass's own parameters cannot express (nothing here)."""

    def _resolve_feature_range(self, X):
        """``[A_k, B_k]`` as a (2, n_features) array (see the ``feature_range`` parameter)."""
        name = type(self).__name__
        if self.feature_range is None:
            return np.vstack([X.min(axis=0), X.max(axis=0)])
        try:
            given = np.asarray(self.feature_range, dtype=float)
        except (TypeError, ValueError):
            raise ValueError(
                f"The 'feature_range' parameter of {name} must be None or an array of reals of shape (2,) "
                f"or (2, n_features). Got {self.feature_range!r} instead."
            ) from None
        n = X.shape[1]
        if given.shape == (2,):
            given = np.repeat(given[:, None], n, axis=1)
        if given.shape != (2, n):
            raise ValueError(
                f"The 'feature_range' parameter of {name} must have shape (2,) or (2, {n}). "
                f"Got shape {given.shape} instead."
            )
        if not np.all(np.isfinite(given)) or np.any(given[0] > given[1]):
            raise ValueError(
                f"The 'feature_range' parameter of {name} must hold finite values with A_k <= B_k for "
                "every attribute."
            )
        if X.size and (np.any(X < given[0]) or np.any(X > given[1])):
            outside = int(np.count_nonzero(((X < given[0]) | (X > given[1])).any(axis=0)))
            raise ValueError(
                f"training inputs fall outside the 'feature_range' of {name} on {outside} attribute(s): "
                "the a-priori range [A_k, B_k] must contain every value the attribute can take"
            )
        return given.copy()

    def _tie_tolerance(self):
        return PYSCM_TOL if self.tie_breaking == "pyscm" else 0.0

    # ----------------------------------------------------------------------------------------
    # fit
    # ----------------------------------------------------------------------------------------

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None, *, sort_cache=None):
        """Learn the stumps greedily, compute the bound along the path and choose the length.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Real-valued inputs (e.g. expression levels).
        y : array-like of shape (n_samples,)
            Two classes, any label type.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights, read as frequencies (see the class docstring); None: all 1.
        sort_cache : SortCache, optional
            SC only: a cache of sorted orders shared by the caller's fits on the same rows (a
            grid, :func:`fit_by_bound`); None sorts afresh. The model is the same either way.

        Returns
        -------
        self : object
            The fitted learner.
        """
        self._sort_cache = sort_cache
        try:
            return self._fit(X, y, sample_weight)
        finally:
            del self._sort_cache

    def _fit(self, X, y, sample_weight):
        check_sample_weight(self, sample_weight, X)  # one refusal for every learner (companion._weights)
        # The input scale its arithmetic handles (companion._scale); an array's extremes, as read.
        extremes = check_learner_scale(self, X)
        name = type(self).__name__
        X = numeric_input(self, X, reset=True)  # nominal columns, missing cells: the one pipeline
        check_numeric_input(X, name)
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.size != 2:
            raise binary_only_error(name, self.classes_.size)
        prior_n = self._prior_n(X.shape[1])
        self._check_own_params()
        weight = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
        given = (X, y, None if sample_weight is None else weight.copy())  # for the fallback check
        if self.class_weight is not None:
            weight = weight * compute_sample_weight(self.class_weight, y)
        kept = weight > 0  # _check_sample_weight refuses all-zero weights
        rows = None
        if not kept.all():  # a zero weight drops the row
            rows = np.flatnonzero(kept)
            X, y, weight = X[kept], y[kept], weight[kept]
        positive = (y == self.classes_[1]).astype(np.int64)
        # A disjunction is a conjunction learned on swapped labels (Paper 05, Section II).
        internal = positive if self.model_type == "conjunction" else 1 - positive
        self.feature_range_ = self._resolve_feature_range(X)
        self.prior_n_features_ = prior_n
        self.default_class_ = self.classes_[1] if self.model_type == "conjunction" else self.classes_[0]
        features, thresholds, directions, intervals = self._greedy(X, internal, weight, extremes=extremes)
        self.features_ = np.asarray(features, dtype=np.int64)
        self.thresholds_ = np.asarray(thresholds, dtype=float)
        # The greedy returns the learned conjunction's directions; a disjunction's stumps are
        # their complements, so the same sign that maps them back flips them here.
        self.directions_ = self._disjunction_sign() * np.asarray(directions, dtype=np.int64)
        self.intervals_ = np.asarray(intervals, dtype=float).reshape(-1, 2)
        self._compute_bound_path(X, internal, weight)
        n_stumps = self.features_.size
        if self.length == "bound":
            n_stumps = first_near_min(self._model_selection_path())
        self._cut(n_stumps)
        # After the bound path (SC's compression set is found by the observed thresholds).
        self.thresholds_ = np.asarray(self._place_thresholds(X, self.features_, self.thresholds_), dtype=float)
        if rows is not None and hasattr(self, "compression_set_"):
            self.compression_set_ = rows[self.compression_set_]  # indices of the rows given to fit
        cells = self._cells(X)
        n_cells = self.features_.size + 1
        counts = np.bincount(cells * 2 + positive, weights=weight, minlength=2 * n_cells).reshape(n_cells, 2)
        self.cell_counts_ = _whole(counts)
        self.fallback_class_ = None
        reason = ""
        if self.length == "bound" and not fallback_check_running() and (
                not self.features_.size or not beats_default_class(self, *given)):
            # The chosen stumps lose to the default class on inner folds, or the bound chose none:
            # keep none, predict the (weighted) majority class, which the empty conjunction
            # (always default_class_) cannot always say.
            totals = counts.sum(axis=0)
            self.fallback_class_ = self.classes_[int(np.argmax(totals))]
            reason = (f" ({name}'s stumps did not beat it on inner folds: it fell back to the default class)"
                      if self.features_.size else f" (the bound chose no stump: {name} fell back to the majority class)")
            self._cut(0)
            self.cell_counts_ = _whole(totals[None, :])
        # On the training rows of positive weight (the zero-weight rows were dropped above).
        self._check_single_class(None, predictions=self._to_labels(self._staged_internal_one(X)[:, -1]), reason=reason)
        return self

    def _greedy(self, X, labels, weight, *, extremes=None):
        """``(features, thresholds, directions, intervals)`` of the learned conjunction.

        ``extremes``: ``(low, high)`` with every value of ``X`` in between (the scale check's
        reading of the input, whose rows ``X`` keeps), or None.
        """
        raise NotImplementedError

    def _place_thresholds(self, X, features, thresholds):
        """The thresholds the model keeps (SC may move them to midpoints; the others keep theirs)."""
        return thresholds

    def _used_mask(self, utility, used):
        if not self.reuse_features:
            utility[used] = -np.inf
        return utility

    # ----------------------------------------------------------------------------------------
    # bounds along the path
    # ----------------------------------------------------------------------------------------

    def _compute_bound_path(self, X, internal, weight):
        """Training errors and bounds of every prefix ``k = 0 .. n_stumps`` (``*_path_[k]``)."""
        one = self._staged_internal_one(X)
        wrong = one != (internal[:, None] == 1)
        self.training_errors_path_ = _whole(weight @ wrong)
        # The bound functions' own parameter checks would cost about twice the bounds (three to
        # eleven calls a fit): their arguments are counts of this fit and the learner's checked
        # delta, so they are skipped here, as the DLM's bound path does.
        with config_context(skip_parameter_validation=True):
            self.bound_path_ = self._bounds_along_path(X, internal, one, self.training_errors_path_, weight)
        self.bound_ = float(self.bound_path_[-1])

    def _bounds_along_path(self, X, internal, one, errors, weight):
        """The class's bound for each prefix, from the prefixes' votes ``one`` (m, n_stumps + 1)."""
        raise NotImplementedError

    def _model_selection_path(self):
        """The bounds the length selection (``length="bound"``, :func:`fit_by_bound`) minimises."""
        return self.bound_path_

    # ----------------------------------------------------------------------------------------
    # prediction
    # ----------------------------------------------------------------------------------------

    def _disjunction_sign(self):
        return 1 if self.model_type == "conjunction" else -1

    def _internal_directions(self):
        """Directions of the learned conjunction's stumps (a disjunction's, flipped back)."""
        return self._disjunction_sign() * self.directions_

    def _internal_stump_outputs(self, X):
        columns = X[:, self.features_]
        above = columns > self.thresholds_
        return np.where(self._internal_directions() > 0, above, ~above)

    def _internal_prefix_votes(self, X):
        """(n_samples, n_stumps) bool: the learned conjunction of the first ``k`` stumps says 1."""
        return np.logical_and.accumulate(self._internal_stump_outputs(X), axis=1)

    def _mean_margin(self, X):
        """``μ``: mean over the stumps of ``d (x − c) / (B − A)`` of the learned conjunction.

        ``c`` is the middle of the stump's interval ``intervals_`` (the thresholds equivalent on
        the training data; PAC-Bayes: the margin interval), so that an input on a training value
        next to the threshold still gets a non-zero margin.
        """
        low, high = self.feature_range_[:, self.features_]
        span = np.where(high > low, high - low, 1.0)
        centre = 0.5 * (self.intervals_[:, 0] + self.intervals_[:, 1])
        signed = (X[:, self.features_] - centre) * self._internal_directions() / span
        return signed.mean(axis=1)

    def _internal_margin(self, X):
        """Score of the learned conjunction (at least one stump): ``h − k + 1/2 + tanh(μ)/4``."""
        count = self._internal_stump_outputs(X).sum(axis=1) - self.features_.size + 0.5
        return count + 0.25 * np.tanh(self._mean_margin(X))

    def _check_X(self, X):
        check_is_fitted(self)
        return validate_data(self, numeric_input(self, X, reset=False), reset=False, dtype=np.float64)

    def _staged_internal_one(self, X):
        """(n_samples, n_stumps + 1) bool: the learned (internal) conjunction of each prefix says 1."""
        out = np.ones((X.shape[0], self.features_.size + 1), dtype=bool)
        if self.features_.size:
            out[:, 1:] = self._internal_prefix_votes(X)
        return out

    def _cells(self, X):
        """Cell of each row: how many leading stumps of the learned conjunction hold (0..n_stumps).

        The prefixes' votes only ever turn from 1 to 0 (a conjunction gains conditions; the
        PAC-Bayes product of σ only shrinks), so counting the prefixes that say 1 gives the index
        of the first stump that fails, or ``n_stumps`` if none does.
        """
        return self._staged_internal_one(X)[:, 1:].sum(axis=1)

    def _to_labels(self, internal_one):
        if getattr(self, "fallback_class_", None) is not None:
            return np.full(internal_one.shape, self.fallback_class_, dtype=self.classes_.dtype)
        positive = internal_one if self.model_type == "conjunction" else ~internal_one
        return self.classes_[positive.astype(np.int64)]

    def predict(self, X):
        """Predict classes (PAC-Bayes: the deterministic Bayes vote ``I(Π σ > 1/2)``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs with the training columns.

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels in ``classes_``.
        """
        X = self._check_X(X)
        return self._to_labels(self._staged_internal_one(X)[:, -1])

    def decision_function(self, X):
        """Signed, graded score of each row; positive iff :meth:`predict` says ``classes_[1]``.

        Hard stumps: ``h − k + 1/2 + tanh(μ)/4`` for a conjunction of ``k`` stumps of which ``h``
        hold, ``μ`` the mean signed margin of the stumps in units of the attributes' ranges (the
        class docstring); a disjunction scores the negation on its learned conjunction. PAC-Bayes:
        ``(P − 1/2)(1 + sign(P − 1/2) tanh(μ)/2)``, ``P`` the Gibbs probability of
        ``classes_[1]``; a disjunction's tie (``Π σ = 1/2`` exactly, which it predicts as
        ``classes_[1]``) scores the smallest positive float so that the sign still agrees with
        :meth:`predict`. A model that fell back to the majority class scores every row by the
        training log-odds of its one cell, ``log((n_1 + 1)/(n_0 + 1))``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs with the training columns.

        Returns
        -------
        score : ndarray of shape (n_samples,)
            Positive iff :meth:`predict` says ``classes_[1]``; never 0, but for a fallback
            on equal class totals (which predicts ``classes_[0]``).
        """
        X = self._check_X(X)
        if getattr(self, "fallback_class_", None) is not None:
            # one cell, the training class totals: their log-odds (one-vs-rest picks the majority)
            return np.full(X.shape[0], constant_log_odds(self.cell_counts_[0]))
        if self.features_.size == 0:
            internal = np.full(X.shape[0], 0.5)  # the empty conjunction always holds
        else:
            internal = self._internal_margin(X)
        if self.model_type == "conjunction":
            internal[internal == 0] = -np.finfo(float).smallest_subnormal  # a PAC-Bayes tie predicts 0
            return internal
        score = -internal
        score[score == 0] = np.finfo(float).smallest_subnormal
        return score

    def predict_proba(self, X):
        """Laplace-corrected class frequencies of the training examples in each row's cell.

        The cell is the number of leading stumps of the learned conjunction that hold (see the
        class docstring and ``cell_counts_``); a cell of training weight ``n``, ``n_c`` of class
        ``c``, gives ``(n_c + 1) / (n + 2)``, so an empty cell gives ``(1/2, 1/2)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs with the training columns.

        Returns
        -------
        ndarray of shape (n_samples, 2)
            Columns follow ``classes_``. Not the rule: :meth:`predict` need not be its argmax.
        """
        X = self._check_X(X)
        return laplace_proba(self.cell_counts_)[self._cells(X)]

    def staged_predict(self, X):
        """Yield the predictions of the first ``k`` stumps, ``k = 1 .. n_stumps``.

        A generator, as scikit-learn's boosting: the last item equals :meth:`predict`; a model
        with no stump yields nothing (the empty conjunction predicts ``default_class_``). The
        greedy is prefix-consistent, so item ``k`` equals the prediction of a refit with ``s = k``
        and ``length="greedy"``; used to select ``s`` by CV.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs with the training columns.

        Yields
        ------
        stage : ndarray of shape (n_samples,)
            Predictions of the first ``k`` stumps, in ``classes_``.
        """
        X = self._check_X(X)
        one = self._staged_internal_one(X)
        for k in range(1, one.shape[1]):
            yield self._to_labels(one[:, k])

    # ----------------------------------------------------------------------------------------
    # inspection
    # ----------------------------------------------------------------------------------------

    def _cut(self, n_stumps):
        """Keep the first ``n_stumps`` stumps of this fitted model (in place; not the cells)."""
        for name in self._per_stump_attributes:
            setattr(self, name, getattr(self, name)[:n_stumps])
        for name in self._path_attributes:
            setattr(self, name, getattr(self, name)[: n_stumps + 1])
        self.complexity_ = int(n_stumps)
        self.bound_ = float(self.bound_path_[-1])

    @validate_params({"n_stumps": [StrictInterval(Integral, 0, None, closed="left")]}, prefer_skip_nested_validation=True)
    def truncated(self, n_stumps):
        """A copy of this fitted model keeping only its first ``n_stumps`` stumps (and bound).

        Parameters
        ----------
        n_stumps : int
            How many leading stumps to keep, ``0 <= n_stumps <= complexity_``.

        Returns
        -------
        estimator
            A fitted copy; its cells merge the cells ``n_stumps ..`` of this model.
        """
        check_is_fitted(self)
        if n_stumps > self.features_.size:
            raise ValueError(
                f"{type(self).__name__}.truncated: n_stumps must be at most complexity_ = {self.features_.size}, "
                f"got {n_stumps!r}"
            )
        out = copy.deepcopy(self)
        out._cut(int(n_stumps))
        # Prefix of r stumps: an example's cell j becomes min(j, r), so cells r.. merge.
        out.cell_counts_ = np.vstack(
            [self.cell_counts_[:n_stumps], self.cell_counts_[n_stumps:].sum(axis=0, keepdims=True)]
        )
        return out

    def _stump_texts(self, feature_names, decimals):
        texts = []
        for feature, threshold, direction, (a, b) in zip(self.features_, self.thresholds_, self.directions_, self.intervals_):
            op = ">" if direction > 0 else "<="
            texts.append(f"{feature_names[feature]} {op} {_number(threshold, decimals)}" + self._threshold_note(a, b, decimals))
        return texts

    def _render_text(self, feature_names, *, decimals=None, show_class=True):
        if getattr(self, "fallback_class_", None) is not None:
            return f"always {self.fallback_class_!s}"
        if self.features_.size == 0:
            return f"always {self.default_class_!s}"
        rule = (" AND " if self.model_type == "conjunction" else " OR ").join(self._stump_texts(feature_names, decimals))
        if not show_class:
            return rule
        # Both model types output classes_[1] when the rule holds (all stumps / any stump).
        return f"IF {rule} THEN {self.classes_[1]!s} ELSE {self.classes_[0]!s}"

    def _threshold_note(self, a, b, decimals):
        """Text after a stump (none for hard thresholds)."""
        return ""

    # ----------------------------------------------------------------------------------------
    # exported model and rules frame
    # ----------------------------------------------------------------------------------------

    def _model_to_dict(self):
        model = {
            "model_type": self.model_type,
            "default_class": jsonable(self.default_class_),
            "stumps": [
                {"feature": int(k), "direction": int(d), "threshold": float(t), "interval": [float(a), float(b)]}
                for k, d, t, (a, b) in zip(self.features_, self.directions_, self.thresholds_, self.intervals_)
            ],
            "feature_range": self.feature_range_,
            "prior_n_features": int(self.prior_n_features_),
            "cell_counts": self.cell_counts_,
            "fallback_class": jsonable(getattr(self, "fallback_class_", None)),
        }
        for name in self._path_attributes:
            model[name.rstrip("_")] = getattr(self, name)
        for name in self._per_stump_attributes:
            if name not in _BaseStumpConjunction._per_stump_attributes:
                model[name.rstrip("_")] = getattr(self, name)
        return model

    def _model_from_dict(self, model):
        # JSON has no tuples: a tuple parameter (margin_gaps) comes back as a list
        defaults = {name: parameter.default for name, parameter in inspect.signature(type(self).__init__).parameters.items()}
        for name, value in self.get_params(deep=False).items():
            if isinstance(defaults.get(name), tuple) and isinstance(value, list):
                setattr(self, name, tuple(value))
        stumps = model["stumps"]
        self.features_ = np.asarray([stump["feature"] for stump in stumps], dtype=np.int64)
        self.directions_ = np.asarray([stump["direction"] for stump in stumps], dtype=np.int64)
        self.thresholds_ = np.asarray([float(stump["threshold"]) for stump in stumps], dtype=float)
        self.intervals_ = np.asarray([[float(v) for v in stump["interval"]] for stump in stumps], dtype=float).reshape(-1, 2)
        self.feature_range_ = np.asarray(model["feature_range"], dtype=float).reshape(2, -1)
        self.prior_n_features_ = int(model["prior_n_features"])
        self.cell_counts_ = _whole(np.asarray(model["cell_counts"], dtype=float).reshape(-1, 2))
        for name in self._path_attributes:
            values = np.asarray([float(v) for v in model[name.rstrip("_")]], dtype=float)
            setattr(self, name, _whole(values) if name == "training_errors_path_" else values)
        for name in self._per_stump_attributes:
            if name not in _BaseStumpConjunction._per_stump_attributes:
                setattr(self, name, np.asarray(model[name.rstrip("_")], dtype=np.int64))
        self.default_class_ = self.classes_[1] if self.model_type == "conjunction" else self.classes_[0]
        fallback = model.get("fallback_class")
        self.fallback_class_ = None if fallback is None else self.classes_[
            np.flatnonzero(self.classes_.astype(object) == fallback)[0]]
        self.complexity_ = int(self.features_.size)
        self.bound_ = float(self.bound_path_[-1])

    def _rule_records(self, feature_names):
        conjunction = self.model_type == "conjunction"
        stump_label = self.classes_[0] if conjunction else self.classes_[1]
        records = [
            {"condition": text, "prediction": stump_label,
             "decides": "first stump that fails" if conjunction else "first stump that holds",
             "feature": feature_names[feature], "threshold": float(threshold)}
            for text, feature, threshold in zip(self._stump_texts(feature_names, None), self.features_, self.thresholds_)
        ]
        records.append({"condition": "", "prediction": self.default_class_,
                        "decides": "every stump holds" if conjunction else "no stump holds",
                        "feature": None, "threshold": np.nan})
        return records

    def _rule_decisions(self, X):
        """Row ``j < n_stumps``: the rows stump ``j`` is the first to exclude (for a disjunction:
        the first to fire); last row: the rows no stump excludes (the default class)."""
        X = self._check_X(X)
        cells = self._cells(X)
        return cells[:, None] == np.arange(self.features_.size + 1)[None, :]


@_shared_docs
class SetCoveringStumps(_BaseStumpConjunction):
    """The set covering machine with decision stumps, bounded by sample compression (Paper 05, SC).

    Paper 05, Theorem 3 with Eq. 5, and the set-covering greedy of Section VI: each
    step adds the stump of largest utility ``U = |Q| − p|R|`` (``Q``: remaining negatives it
    sends to 0, ``R``: remaining positives it sends to 0) whose threshold is the value of a
    remaining training example, the *compression example*, then removes every remaining example
    the stump sends to 0. With ``tie_breaking="pyscm"`` and ``reuse_features=True`` it picks
    exactly pyscm-ml 1.1's stumps. ``bound_path_`` is
    :func:`companion.bounds.compression.compression_bound` of each prefix, charged with the
    errors outside its compression set.

    The scan is vectorised: every attribute is sorted once per fit and removed examples get weight
    0 in place, so nothing is re-sorted or compacted (see :func:`companion._stump_search.sc_scan`).

    [sample weights]
    [exported model]

    Parameters
    ----------
    [shared parameters]
    threshold : {"midpoint", "observed"}, default="midpoint"
        Where a stump's threshold sits between the compression example's value ``v`` and the
        next larger training value ``v'`` of its column, two placements that classify every
        training row alike: ``"midpoint"``, ``(v + v') / 2`` (readable, and halfway for unseen
        values, as trees place theirs); ``"observed"``, ``v`` itself (Paper 05's reconstruction
        from the compression set, pyscm-ml's threshold; notebook 05 passes it). The bound is
        computed on the training rows, which both classify alike; strictly it is the bound of
        the ``"observed"`` classifier.

    Attributes
    ----------
    [shared attributes]
    intervals_ : ndarray of shape (n_stumps, 2)
        Interval of thresholds equivalent on the examples remaining at the stump's step.
    compression_set_ : ndarray of int of shape (n_stumps,)
        Index of the training example that carries each threshold.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.column_stack([np.arange(1, 13), np.arange(12, 0, -1)]).astype(float)
    >>> y = [0] * 6 + [1] * 6
    >>> model = SetCoveringStumps().fit(X, y)
    >>> model.to_text(), model.complexity_
    ('IF x0 > 6.5 THEN 1 ELSE 0', 1)
    >>> SetCoveringStumps(threshold="observed").fit(X, y).to_text(show_class=False)
    'x0 > 6'

    On a handful of rows the default falls back to the majority class: three inner folds of
    four rows cannot show that a stump beats it (``fallback_class_``, printed ``always C``).
    """

    _per_stump_attributes = (*_BaseStumpConjunction._per_stump_attributes, "compression_set_")
    _sklearn_check_exemptions = {"check_class_weight_classifiers": _CLASS_WEIGHT_CHECK_REASON}

    _parameter_constraints: dict = {
        **_BaseStumpConjunction._parameter_constraints,
        "threshold": [StrOptions({"midpoint", "observed"})],
    }

    def __init__(self, *, model_type="conjunction", p=1.0, s=10, delta=0.05, tie_breaking="pyscm",
                 reuse_features=False, prior_n_features=None, feature_range=None, length="bound",
                 stop_idle=True, class_weight=None, threshold="midpoint"):
        super().__init__(model_type=model_type, p=p, s=s, delta=delta, tie_breaking=tie_breaking,
                         reuse_features=reuse_features, prior_n_features=prior_n_features,
                         feature_range=feature_range, length=length, stop_idle=stop_idle,
                         class_weight=class_weight)
        self.threshold = threshold

    def _place_thresholds(self, X, features, thresholds):
        """``threshold="midpoint"``: each threshold moved from the compression example's value
        to the midpoint between it and the next larger training value of its column, which
        sends every training row to the same side (so the greedy, the training errors and the
        bound path are unchanged) and prints a value between two observed ones (``x > 0.5`` on a
        0/1 column, not ``x > 0``); a value that is its column's largest stays. ``"observed"``:
        the compression example's value itself, pyscm-ml's and the paper's threshold (what
        notebook 05 uses)."""
        if self.threshold == "observed":
            return thresholds
        placed = []
        for feature, value in zip(features, thresholds):
            column = X[:, feature]
            above = column[column > value]
            placed.append(float(value) if above.size == 0 else float(value + (above.min() - value) / 2))
        return placed

    def _resolve_feature_range(self, X):
        # Without a given range the greedy reads each column's extremes off its sorted order
        # (two passes over X fewer) and sets feature_range_ itself.
        return None if self.feature_range is None else super()._resolve_feature_range(X)

    def _greedy(self, X, labels, weight, *, extremes=None):
        """SC greedy: attributes sorted once, removed examples zeroed in place.

        Each step is one :func:`companion._stump_search.sc_scan` over (m, n) arrays in sorted order. Removing the
        examples a stump sends to 0 zeroes their cells: through ranks (``weights[rank[dead], k]
        = 0``) or, when many leave or the ranks are not built, by one gather through the sorted
        order. The fit never re-sorts or compacts.

        Building the ranks is one scatter of every cell (about 1.3 ms on a Golub fold, 57 x 7129),
        while a step by ranks saves about 0.18 ms over one by gathers: they are built once
        :data:`_RANK_AFTER_STEPS` steps removing few examples have been taken by gathers (the
        ski-rental rule: never more than about twice the cost of the better choice in hindsight),
        or used at once if a shared :class:`~companion._stump_search.SortCache` already holds them.

        Without a ``feature_range``, sets ``feature_range_`` to each column's smallest and largest
        value, its first and last in sorted order. The sort's key width comes from ``extremes``
        (the scale check's reading of the input) when given.
        """
        m, n = X.shape
        tol = self._tie_tolerance()
        low, high = extremes if extremes is not None else (X.min(initial=np.inf), X.max(initial=-np.inf))
        cache = getattr(self, "_sort_cache", None)
        columns_sorted = (
            cache.get(X, tol, low, high) if cache is not None
            else SortedColumns(*sorted_order_and_run_ends(X, tol, low, high))
        )
        order, run_end, near_ties = columns_sorted.order, columns_sorted.run_end, columns_sorted.near_ties
        columns = np.arange(n)
        if self.feature_range is None:
            # + 0.0: a column whose extreme is a zero reports +0.0, whichever of -0.0 and 0.0 sorts first
            self.feature_range_ = np.vstack([X[order[0], columns], X[order[-1], columns]]) + 0.0
        if near_ties.size:
            run_end = run_end.copy()  # the runs of these columns follow the examples in play
        negative = labels == 0
        example_weight = np.where(negative, weight, -self.p * weight).astype(np.float32)
        alive = np.ones(m, dtype=bool)
        state = ScanState(
            float_weights=example_weight[order],
            offsets=nan_off(run_end),
            run_end=run_end,
            order=order,
            alive=alive,
            positive=~negative,
            weight=weight,
        )
        rank = None  # rank[i, k]: sorted position of example i in column k (built when it pays)
        countdown = np.arange(m, 0, -1, dtype=np.int16 if m < 2**15 else np.int64)[:, None]
        few_removed_steps = 0
        first_in_play = np.zeros(n, dtype=np.int64)  # sorted position of each column's first
        high = self.feature_range_[1]
        used = np.zeros(n, dtype=bool)
        n_neg, n_pos = float(weight[negative].sum()), float(weight[~negative].sum())
        features, thresholds, directions, intervals = [], [], [], []
        while len(features) < self.s and n_neg > 0:
            if near_ties.size and not alive.all():
                self._update_near_tie_runs(X, state, near_ties, tol)
            choice = sc_scan(state, n_neg, n_pos, self.p, None if self.reuse_features else used, self.tie_breaking)
            if choice is None:
                break
            feature, position, kind = choice
            # The threshold is the last example in play of the chosen run; the interval of
            # equivalent thresholds reaches the next example in play (or the attribute's max).
            in_play = np.flatnonzero(alive[order[:, feature]])
            k = int(np.searchsorted(in_play, position, side="right"))
            value = X[order[in_play[k - 1], feature], feature]
            upper_value = X[order[in_play[k], feature], feature] if k < in_play.size else high[feature]
            direction = 1 if kind == 0 else -1
            column = X[:, feature]
            keep = (column > value) if direction == 1 else (column <= value)
            dead = np.flatnonzero(alive & ~keep)
            if dead.size == 0 and self.stop_idle:
                break  # an idle stump: it would change no training prediction
            features.append(int(feature))
            thresholds.append(float(value))
            directions.append(direction)
            intervals.append((float(value), float(upper_value)))
            used[feature] = True
            alive &= keep  # in place: state.alive is this array
            n_neg, n_pos = float(weight[alive & negative].sum()), float(weight[alive & ~negative].sum())
            if n_neg == 0 or len(features) == self.s:
                break  # done: no need to update the scan arrays
            # Few removed: zero their cells through the ranks (once built, see the docstring).
            # Many removed: one gather (a scattered cell costs ~4x a gathered one).
            few_removed_steps += 4 * dead.size <= m
            if rank is None and (few_removed_steps > _RANK_AFTER_STEPS or columns_sorted.has_ranks):
                rank = columns_sorted.ranks()
            in_play = None
            if rank is None or 4 * dead.size > m:
                in_play = alive[order]
                state.float_weights *= in_play  # removed cells to 0, the others keep their weight
            else:
                state.float_weights[rank[dead], columns] = 0
            # Positions before a column's first example in play hold no threshold: mask the
            # newly leading ones (each position once per fit).
            if in_play is not None:
                # first in-play position of each column (every column holds every example, and
                # some remain): a row-wise max, ~3x faster than argmax down the columns
                first = m - (in_play * countdown).max(axis=0)
            else:
                first = rank[alive].min(axis=0)
            grown = np.flatnonzero(first > first_in_play)
            lengths = first[grown] - first_in_play[grown]
            starts = np.repeat(first_in_play[grown] - np.cumsum(lengths) + lengths, lengths)
            state.offsets[np.arange(lengths.sum()) + starts, np.repeat(grown, lengths)] = np.nan
            first_in_play = first
        return features, thresholds, directions, intervals

    @staticmethod
    def _update_near_tie_runs(X, state, columns, tol):
        """Runs of the examples in play, for the columns with near ties (pyscm-ml's rule).

        Where distinct values lie within ``tol``, which values form a run depends on which examples
        remain (removing the middle of a chain can split it), as pyscm-ml compares consecutive
        remaining values. For these (rare) columns, mark the last example in play of each run of
        the remaining values, from the next remaining value (a reversed running minimum).
        """
        examples = state.order[:, columns]
        values = X[examples, columns]
        in_play = state.alive[examples]
        remaining = np.where(in_play, values, np.inf)
        following = np.full_like(remaining, np.inf)
        following[:-1] = np.minimum.accumulate(remaining[::-1], axis=0)[::-1][1:]
        marks = in_play & ((following - values > tol) | np.isinf(following))
        state.run_end[:, columns] = marks
        state.offsets[:, columns] = nan_off(marks)


    def _bounds_along_path(self, X, internal, one, errors, weight):
        self.compression_set_ = self._compression_examples(X, one[:, -1] != (internal == 1), weight)
        wrong = one != (internal[:, None] == 1)
        # Weights are frequencies: each use of an example of weight w puts one of its copies in
        # the set (min(w, 1) of it when w < 1), so that much of its error leaves the count.
        inside = np.minimum(weight[self.compression_set_], 1.0)
        outside = weight @ wrong
        for size in range(1, one.shape[1]):
            outside[size] -= inside[:size] @ wrong[self.compression_set_[:size], size]
        outside_errors, m = _bound_counts(outside, weight.sum())
        bounds = np.ones(one.shape[1])
        for size in range(one.shape[1]):
            if size + outside_errors[size] <= m:
                bounds[size] = compression_bound(
                    int(outside_errors[size]), m, self.prior_n_features_, size, self.delta,
                    reuse_features=bool(self.reuse_features),
                )
        return bounds

    def _compression_examples(self, X, wrong_final, weight):
        """One training example per stump whose attribute value is the threshold.

        An example of weight ``w`` may carry up to ``max(1, floor(w))`` thresholds, as its ``w``
        copies could (integer weights: the compression sets of the duplicated sample).

        Any choice gives a valid bound (Theorem 3 holds for every compression set); we prefer an
        example the final model misclassifies, which lowers the error count outside the set.
        Loops over the (few) stumps only.
        """
        chosen = []
        copies = np.maximum(np.floor(weight), 1)  # a weight-w example stands for w copies of it
        for feature, threshold in zip(self.features_, self.thresholds_):
            candidates = np.flatnonzero(X[:, feature] == threshold)
            uses = np.bincount(np.asarray(chosen, dtype=np.int64), minlength=X.shape[0])
            candidates = candidates[uses[candidates] < copies[candidates]]
            if candidates.size == 0:  # cannot happen for SC thresholds; keep the bound honest
                candidates = np.flatnonzero(uses < copies)
            preferred = candidates[wrong_final[candidates]]
            chosen.append(int((preferred if preferred.size else candidates)[0]))
        return np.asarray(chosen, dtype=np.int64)


@_shared_docs
class OccamStumps(_BaseStumpConjunction):
    """Conjunction of decision stumps bounded by Occam's razor with coded thresholds (Paper 05).

    Paper 05, Theorem 2: the prior pays for the attribute set and, per stump, for a threshold
    coded by a dyadic point of ``[A_k, B_k]`` (``l ln 2 − ln ζ(l)`` nats for a code of ``l``
    bits). The greedy of Section VI with the utility ``U = |Q| − p|R| − η (l ln 2 − ln ζ(l))``,
    ``l`` being the dyadic code length of the interval of thresholds that classify the remaining
    examples the same way, so that the greedy step pays exactly the nats the prior charges (our
    reconstruction: Section VI states the utility for SC only). The threshold is the coded
    dyadic point. ``bound_path_`` inverts the binomial tail at ``δ`` times the prior of each
    prefix (:func:`companion.bounds.occam.occam_bound`).

    [sample weights]
    [exported model]

    Parameters
    ----------
    [shared parameters]
    eta : float, default=1.0
        Weight of the threshold-code cost in the utility, ``>= 0``; ``eta=0`` picks the same
        stumps as :class:`SetCoveringStumps` (with coded thresholds).

    Attributes
    ----------
    [shared attributes]
    intervals_ : ndarray of shape (n_stumps, 2)
        Interval of thresholds equivalent on the examples remaining at the stump's step; the
        threshold is its dyadic point.
    code_lengths_ : ndarray of int of shape (n_stumps,)
        Dyadic code length (bits) of each threshold.
    """

    _per_stump_attributes = (*_BaseStumpConjunction._per_stump_attributes, "code_lengths_")
    _sklearn_check_exemptions = {"check_class_weight_classifiers": _CLASS_WEIGHT_CHECK_REASON}

    _parameter_constraints: dict = {
        **_BaseStumpConjunction._parameter_constraints,
        "eta": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(self, *, model_type="conjunction", p=1.0, s=10, eta=1.0, delta=0.05, tie_breaking="pyscm",
                 reuse_features=False, prior_n_features=None, feature_range=None, length="bound", stop_idle=True,
                 class_weight=None):
        super().__init__(model_type=model_type, p=p, s=s, delta=delta, tie_breaking=tie_breaking,
                         reuse_features=reuse_features, prior_n_features=prior_n_features, feature_range=feature_range,
                         length=length, stop_idle=stop_idle, class_weight=class_weight)
        self.eta = eta

    def _greedy(self, X, labels, weight, *, extremes=None):
        """Hard covering with cumulative counts on presorted attributes, compacted as examples leave.

        Sets ``code_lengths_``.
        """
        m, n = X.shape
        tol = self._tie_tolerance()
        values_t = np.ascontiguousarray(X.T)
        # Sorted once per fit; the order inside runs of equal values is irrelevant (a threshold
        # sits at the end of a run), so the fast unstable sort is fine.
        order = np.argsort(values_t, axis=1).astype(np.int32)
        vals = np.take_along_axis(values_t, order, axis=1)
        run_ids = np.zeros(vals.shape, dtype=np.int32)
        np.cumsum(np.diff(vals, axis=1) > tol, axis=1, out=run_ids[:, 1:])
        sorted_labels = labels.astype(np.int8)[order]
        sorted_weights = weight[order]
        low, high = self.feature_range_
        # Constant attributes: any finite upper end, as their candidates are masked below.
        high_safe = np.where(high > low, high, low + 1.0)
        alive = np.ones(m, dtype=bool)
        used = np.zeros(n, dtype=bool)
        features, thresholds, directions, intervals, lengths = [], [], [], [], []
        raw_code = None  # dyadic code length of each interval [v_j, v_{j+1}) of the current arrays
        while len(features) < self.s and np.any(alive & (labels == 0)):
            # Keep each attribute's sorted order restricted to the remaining examples (every row
            # keeps the same number of entries, so the compressed arrays stay rectangular).
            reused = None
            if order.shape[1] != alive.sum():
                keep = alive[order]
                # An interval whose two ends stay neighbours keeps its code (the code of an
                # interval is a function of its ends and the range only): only intervals that
                # lose their upper neighbour are coded again.
                neighbours = keep.copy()
                neighbours[:, :-1] &= keep[:, 1:]
                reused = neighbours[keep].reshape(n, -1)
                raw_code = raw_code[keep].reshape(n, -1)
                order = order[keep].reshape(n, -1)
                run_ids = run_ids[keep].reshape(n, -1)
                sorted_labels = sorted_labels[keep].reshape(n, -1)
                sorted_weights = sorted_weights[keep].reshape(n, -1)
                vals = vals[keep].reshape(n, -1)
            q, r, utility = greedy_step_scores(
                vals, sorted_labels.astype(np.int64), self.p, tie_tolerance=tol, sample_weight=sorted_weights
            )
            # Interval [v_j, v_{j+1}) of thresholds equivalent on the remaining examples; the
            # last run's is [v_max, B). Its dyadic code length is what Theorem 2 pays.
            upper = np.concatenate([vals[:, 1:], high_safe[:, None]], axis=1)
            if raw_code is None:
                raw_code, _ = dyadic_code_lengths(vals, upper, low[:, None], high_safe[:, None], closed=False)
            elif reused is not None and not reused.all():
                rows, cols = np.nonzero(~reused)
                raw_code[rows, cols] = dyadic_code_lengths(
                    vals[rows, cols], upper[rows, cols], low[rows], high_safe[rows], closed=False
                )[0]
            code = np.where(high[:, None] > low[:, None], raw_code, -1)
            cost = np.where(code >= 0, threshold_code_cost(np.maximum(code, 0)), np.inf)
            # eta = 0 must not turn an uncodable threshold's infinite cost into 0 * inf = NaN.
            utility = utility - self.eta * cost[..., None] if self.eta > 0 else np.where(
                np.isfinite(cost)[..., None], utility, -np.inf
            )
            choice = pick_candidate(self._used_mask(utility, used), q, r, self.tie_breaking)
            if choice is None:
                break
            feature, position, kind = np.unravel_index(choice, utility.shape)
            value = vals[feature, position]
            upper_value = vals[feature, position + 1] if position + 1 < vals.shape[1] else high[feature]
            direction = 1 if kind == 0 else -1
            length, coded = dyadic_code_lengths(value, upper_value, low[feature], high[feature], closed=False)
            threshold = float(coded)
            column = X[:, feature]
            keep_rows = (column > threshold) if direction == 1 else (column <= threshold)
            if self.stop_idle and not np.any(alive & ~keep_rows):
                break  # an idle stump: it would change no training prediction
            features.append(int(feature))
            thresholds.append(threshold)
            directions.append(direction)
            intervals.append((float(value), float(upper_value)))
            lengths.append(int(length))
            used[feature] = True
            alive &= keep_rows
        self.code_lengths_ = np.asarray(lengths, dtype=np.int64)
        return features, thresholds, directions, intervals

    def _bounds_along_path(self, X, internal, one, errors, weight):
        # All prefixes in one vectorised inversion (same value as occam_bound prefix by prefix).
        errors, m = _bound_counts(errors, weight.sum())
        log_conf = np.log(self.delta) + np.array(
            [occam_log_prior(self.prior_n_features_, self.code_lengths_[:size], reuse_features=bool(self.reuse_features))
             for size in range(one.shape[1])]
        )
        return np.atleast_1d(binomial_tail_inversion(errors, m, log_delta=log_conf)).astype(float)


@_shared_docs
class PacBayesStumps(_BaseStumpConjunction):
    """Conjunction of stumps with margin intervals, bounded by PAC-Bayes (Paper 05, "soft greedy").

    Paper 05, Section V, Theorem 4: the posterior draws each stump's threshold uniformly on a
    margin interval ``[a, b]`` (``a`` and ``b`` training values ``g`` distinct values apart,
    ``g`` in ``margin_gaps``; see ``gap_unit``); the prior draws it uniformly on ``[A_k, B_k]``,
    so each stump costs
    ``ln((B − A)/(b − a))`` nats of KL. The greedy of Section VI keeps for every example the
    probability ``w(x)`` that the Gibbs conjunction built so far outputs 1 and adds the stump of
    largest ``U = Q̃ − p R̃ − η ln((B − A)/(b − a))``, ``Q̃, R̃`` being the expected negative and
    positive weight it removes (our reconstruction: Section VI states the utility only for SC,
    ``U = |Q| − p|R|``; this is its expectation under the posterior, with the KL price of the
    interval). ``m R_S(G)``
    changes by exactly ``R̃ − Q̃`` and the KL term by the ``ln((B−A)/(b−a))`` charged, so
    ``p = 1`` and ``η = 1`` follow the bound's own trade-off.

    ``predict`` is the Bayes vote ``I(Π σ > 1/2)``; :meth:`gibbs_proba` is the posterior's Gibbs
    classifier. ``bound_path_`` is ``min(1, 2 × Gibbs bound)`` (the Bayes vote errs at most twice
    the Gibbs classifier); model selection (:func:`fit_by_bound`) minimises the Gibbs bound
    ``gibbs_bound_path_`` itself, and so does ``length="bound"``. ``decision_function`` is
    :meth:`gibbs_proba` ``− 1/2``, graded by the mean margin (see :meth:`decision_function`); at
    an exact tie ``Π σ = 1/2`` a disjunction predicts ``classes_[1]`` (its learned conjunction
    says 0 there) and its score is the smallest positive float. The Gibbs probability is exactly 0 or
    1 for every example outside the margin intervals, so it is not ``predict_proba`` (a log-loss
    would punish it without bound); ``predict_proba`` is the cell frequency of the base class.

    [sample weights]
    [exported model]

    Parameters
    ----------
    [shared parameters]
    eta : float, default=1.0
        Weight of the margin cost ``ln((B − A)/(b − a))`` in the utility, ``>= 0``.
    margin_gaps : tuple of int, default=(1, 2, 4, 8)
        Widths of the candidate margin intervals, in units of ``gap_unit``.
    gap_unit : {"value", "example"}, default="value"
        ``"value"``: ``[a, b]`` runs from a training value to the one ``g`` *distinct* values
        further, so a repeated example (or an integer weight) moves no interval and integer
        weights give the model of the duplicated rows. ``"example"``: ``b`` is ``g`` sorted
        examples after ``a`` (ties count as positions), the reconstruction notebook 05 uses;
        equal to ``"value"`` when no two training values of an attribute are equal.

    Attributes
    ----------
    [shared attributes]
    intervals_ : ndarray of shape (n_stumps, 2)
        Margin interval ``[a, b]`` of each threshold (``thresholds_`` holds their midpoints).
    gibbs_risk_path_, gibbs_bound_path_ : ndarray of shape (n_stumps + 1,)
        Empirical Gibbs risk and its PAC-Bayes bound (Theorem 4) for the first ``k`` stumps,
        indexed as ``bound_path_``.
    """

    _path_attributes = (*_BaseStumpConjunction._path_attributes, "gibbs_bound_path_", "gibbs_risk_path_")

    _scale_range = None  # no absolute tolerance: the same model at every scale
    _parameter_constraints: dict = {
        **_BaseStumpConjunction._parameter_constraints,
        "eta": [Interval(Real, 0, None, closed="left")],
        "margin_gaps": ["array-like"],
        "gap_unit": [StrOptions({"value", "example"})],
    }

    def __init__(self, *, model_type="conjunction", p=1.0, s=10, eta=1.0, delta=0.05, tie_breaking="pyscm",
                 reuse_features=False, margin_gaps=(1, 2, 4, 8), gap_unit="value", prior_n_features=None,
                 feature_range=None, length="bound", stop_idle=True, class_weight=None):
        super().__init__(model_type=model_type, p=p, s=s, delta=delta, tie_breaking=tie_breaking,
                         reuse_features=reuse_features, prior_n_features=prior_n_features, feature_range=feature_range,
                         length=length, stop_idle=stop_idle, class_weight=class_weight)
        self.eta = eta
        self.margin_gaps = margin_gaps
        self.gap_unit = gap_unit

    def _check_own_params(self):
        gaps = np.asarray(self.margin_gaps)
        if gaps.ndim != 1 or gaps.size == 0 or not np.issubdtype(gaps.dtype, np.integer) or np.any(gaps < 1):
            raise ValueError(
                f"The 'margin_gaps' parameter of {type(self).__name__} must be a non-empty sequence of "
                f"integers >= 1. Got {self.margin_gaps!r} instead."
            )

    def _greedy(self, X, labels, sample_weight, *, extremes=None):
        """Soft greedy (our reconstruction of Paper 05, Section VI) with weighted cumulative sums."""
        m, n = X.shape
        values_t = np.ascontiguousarray(X.T)
        order = np.argsort(values_t, axis=1, kind="stable")
        vals = np.take_along_axis(values_t, order, axis=1)
        low, high = self.feature_range_
        by_value = self.gap_unit == "value"
        if by_value:  # a gap must fit within some attribute's distinct values
            n_values = 1 + (np.diff(vals, axis=1) != 0).sum(axis=1) if m else np.zeros(n, dtype=np.int64)
            gaps = sorted({int(g) for g in self.margin_gaps if g < n_values.max(initial=0)})
        else:
            gaps = sorted({int(g) for g in self.margin_gaps if g < m})
        weight = sample_weight.astype(float)  # sample weight times the Gibbs output probability
        gibbs = np.ones(m)  # the Gibbs output probability of the conjunction so far
        used = np.zeros(n, dtype=bool)
        negative = labels == 0
        floor = 1e-9 * float(sample_weight.max(initial=1.0))
        features, thresholds, directions, intervals = [], [], [], []
        while len(features) < self.s and weight[negative].sum() > floor and gaps:
            q_all, r_all, utility, starts = pac_bayes_step_scores(
                vals, np.where(negative, weight, 0.0)[order], np.where(negative, 0.0, weight)[order],
                high - low, self.p, self.eta, gaps, gap_unit=self.gap_unit,
            )
            choice = pick_candidate(self._used_mask(utility, used), q_all, r_all, self.tie_breaking)
            if choice is None:
                break
            feature, column_index, kind = np.unravel_index(choice, utility.shape)
            block = int(np.searchsorted(starts, column_index, side="right")) - 1
            position, gap = column_index - starts[block], gaps[block]
            a = float(vals[feature, position])
            if by_value:
                distinct = np.unique(vals[feature])
                b = float(distinct[np.searchsorted(distinct, a) + gap])
            else:
                b = float(vals[feature, position + gap])
            direction = 1 if kind == 0 else -1
            new_gibbs = gibbs * gibbs_output_probability(X[:, [feature]], [0], [a], [b], [direction])
            if self.stop_idle and np.array_equal(new_gibbs > 0.5, gibbs > 0.5):
                break  # an idle stump: the Bayes vote of no training example changes
            features.append(int(feature))
            thresholds.append(0.5 * (a + b))
            directions.append(direction)
            intervals.append((a, b))
            used[feature] = True
            gibbs = new_gibbs
            weight = sample_weight * gibbs
        return features, thresholds, directions, intervals

    def _bounds_along_path(self, X, internal, one, errors, weight):
        m, k_max = float(weight.sum()), self.features_.size
        low, high = self.feature_range_[:, self.features_]
        ratios = np.maximum((high - low) / (self.intervals_[:, 1] - self.intervals_[:, 0]), 1.0)
        probs = np.ones((X.shape[0], k_max + 1))
        if k_max:
            probs[:, 1:] = np.cumprod(self._internal_sigma(X), axis=1)
        risk = (1 - internal)[:, None] * probs + internal[:, None] * (1 - probs)
        # Unit weights: the plain mean (the same bits as without weights).
        gibbs = risk.mean(axis=0) if np.all(weight == 1.0) else weight @ risk / m
        epsilon = np.array(
            [pac_bayes_kl(self.prior_n_features_, ratios[:size], reuse_features=bool(self.reuse_features))
             for size in range(k_max + 1)]
        ) + np.log(m + 1.0) - np.log(self.delta)
        self.gibbs_risk_path_ = gibbs
        self.gibbs_bound_path_ = np.atleast_1d(kl_inverse_upper(np.clip(gibbs, 0.0, 1.0), epsilon / m)).astype(float)
        return np.minimum(1.0, 2.0 * self.gibbs_bound_path_)

    def _model_selection_path(self):
        # The Gibbs bound itself: the Bayes bound 2x it saturates at 1.
        return self.gibbs_bound_path_

    def _internal_sigma(self, X):
        columns = X[:, self.features_]
        a, b = self.intervals_[:, 0], self.intervals_[:, 1]
        up = np.clip((columns - a) / (b - a), 0.0, 1.0)
        return np.where(self._internal_directions() > 0, up, 1.0 - up)

    def _internal_prefix_votes(self, X):
        # The Bayes vote of each prefix of the posterior.
        return np.cumprod(self._internal_sigma(X), axis=1) > 0.5

    def _internal_margin(self, X):
        # The same cumprod as predict (_internal_prefix_votes), so the same bits decide; the
        # difference with 1/2 is correctly rounded, so its sign is exact, and the graded factor
        # 1 + sign(d) tanh(mu)/2 lies in (1/2, 3/2), so it keeps the sign.
        difference = np.cumprod(self._internal_sigma(X), axis=1)[:, -1] - 0.5
        return difference + 0.5 * np.abs(difference) * np.tanh(self._mean_margin(X))

    def _threshold_note(self, a, b, decimals):
        return f" (t ~ U[{_number(a, decimals)}, {_number(b, decimals)}])"

    def gibbs_proba(self, X):
        """Probability that the stochastic Gibbs classifier predicts ``classes_[1]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs, as for :meth:`predict`.

        Returns
        -------
        proba : ndarray of shape (n_samples,)
            ``Π σ`` over the stumps of the learned conjunction (a disjunction: ``1 − Π σ``).
        """
        X = self._check_X(X)
        one = np.prod(self._internal_sigma(X), axis=1)  # the empty product (no stump) is 1
        return one if self.model_type == "conjunction" else 1.0 - one

    def predict_gibbs(self, X, random_state=None):
        """One draw of the Gibbs classifier per example (thresholds ``t ~ U[a, b]``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs with the training columns.
        random_state : int, RandomState instance or None, default=None
            Seed of the draws.

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels in ``classes_``.
        """
        proba = self.gibbs_proba(X)
        rng = check_random_state(random_state)
        return self.classes_[(rng.random_sample(proba.shape[0]) < proba).astype(np.int64)]

    def predict_bayes(self, X):
        """The Bayes vote of the posterior (the same as :meth:`predict`).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs with the training columns.

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels in ``classes_``.
        """
        return self.predict(X)


# Nested validation stays on: every grid point is a fit with the caller's parameters.
@validate_params(
    {
        "estimator": [SetCoveringStumps, OccamStumps, PacBayesStumps],
        "X": ["array-like"],
        "y": ["array-like"],
        "param_grid": [dict, list],
    },
    prefer_skip_nested_validation=False,
)
def fit_by_bound(estimator, X, y, param_grid):
    """Model selection by the bound: fit every grid point, keep the prefix with the smallest bound.

    Parameters
    ----------
    estimator : SetCoveringStumps, OccamStumps or PacBayesStumps
        Template (cloned for each grid point).
    X, y : array-like
        Training data.
    param_grid : dict or list of dicts
        As for :class:`sklearn.model_selection.ParameterGrid` (e.g. ``p``, ``eta``,
        ``model_type``); ``s`` is the longest path, every prefix ``r ≤ s`` is a candidate.

    Returns
    -------
    SetCoveringStumps, OccamStumps or PacBayesStumps
        The fitted (possibly truncated) model whose bound is smallest (PAC-Bayes: the Gibbs bound
        ``gibbs_bound_path_``). Bounds within ``companion.numerics.TIE_RTOL`` of the smallest are tied
        (their last bits follow the CPU's log/exp loops); ties go to fewer stumps, then to the
        first grid point.

    Notes
    -----
    Choosing ``p``, ``eta`` or the prefix length by the bound is free: each bound holds
    simultaneously for every conjunction of its class (its prior already pays for ``|k|``), so it
    holds for whichever the selection returns. Choosing between the class of conjunctions and the
    class of disjunctions is not: it is a union bound over two classes, i.e. a prior of 1/2 on each,
    which costs ``ln 2`` in the complexity term, i.e. ``δ → δ/2`` in every bound (the same
    price the set covering machine pays for the same choice, Marchand & Shawe-Taylor 2002, JMLR 3,
    Section 4; Paper 05 builds the disjunction by the same label swap, Section II). So when the grid
    holds ``g`` distinct ``model_type`` values, every candidate is fitted with ``delta / g`` (the
    returned model's ``delta`` shows it); its ``bound_`` then holds with confidence
    ``1 − estimator.delta`` for the selected model.
    """
    points = list(ParameterGrid(param_grid))
    model_types = {point.get("model_type", estimator.get_params()["model_type"]) for point in points}
    delta = estimator.get_params()["delta"] / max(len(model_types), 1)
    models, sizes, bounds = [], [], []
    cache = SortCache()  # the grid's fits share the sorted orders of X (SC)
    for params in points:
        model = clone(estimator).set_params(**params, delta=delta).fit(X, y, sort_cache=cache)
        path = np.asarray(model._model_selection_path(), dtype=float)
        size = first_near_min(path)  # fewest stumps among the (near-)minimal bounds
        models.append(model)
        sizes.append(size)
        bounds.append(path[size])
    chosen = _fewest_among_near_minimal(bounds, sizes)
    return models[chosen].truncated(sizes[chosen])


def _fewest_among_near_minimal(bounds, sizes) -> int:
    """Index of the grid point whose bound is minimal within ``TIE_RTOL``, fewest stumps first.

    The bounds pass through log/exp, whose last bits follow the CPU's SIMD loops, so two
    mathematically equal bounds are tied by :func:`companion.numerics.first_near_min`'s rule
    rather than by their bits; among the tied points the shortest prefix wins, then the first
    point of the grid.

    >>> _fewest_among_near_minimal([0.5, 0.3, 0.3 + 1e-17, 0.3], [2, 3, 1, 1])
    2
    """
    bounds = np.asarray(bounds, dtype=float)
    lowest = bounds.min()
    tied = np.flatnonzero(bounds <= lowest + TIE_RTOL * max(1.0, abs(lowest)))
    sizes = np.asarray(sizes)[tied]
    return int(tied[np.flatnonzero(sizes == sizes.min())[0]])
