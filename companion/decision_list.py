"""The Decision List Machine and the Set Covering Machine with data-dependent balls (paper 01).

Sokolova, Marchand, Japkowicz and Shawe-Taylor, *The Decision List Machine*, NIPS 15 (2002);
Marchand and Shawe-Taylor, *The Set Covering Machine*, JMLR 3 (2002).

A *decision list* (Section 2) is ``if h_1(x) then b_1 elif h_2(x) then b_2 ... else b_{r+1}``.
Its features here are *data-dependent balls* (Section 3): a ball centred on a training example
``x_c`` with radius given by the distance to a *border* example ``x_b``. Four types exist
(paper 01, Section 3), named by the class of the centre and by where the rule fires:

====  ========  ======  ===========================  =================  ======
type  centre    border  fires on ``x`` when           output ``b``       strict
====  ========  ======  ===========================  =================  ======
Pi    positive  neg.    ``d(x, x_c) <  d(x_b, x_c)``  1 (positive)       yes
Po    negative  neg.    ``d(x, x_c) >  d(x_b, x_c)``  1 (positive)       --
Ni    negative  pos.    ``d(x, x_c) <  d(x_b, x_c)``  0 (negative)       yes
No    positive  pos.    ``d(x, x_c) >  d(x_b, x_c)``  0 (negative)       --
====  ========  ======  ===========================  =================  ======

(The paper's ``± ε`` becomes a strict inequality: "inside, radius ``d − ε``" is ``d(x,x_c) < d``,
"outside a ball of radius ``d + ε``" is ``d(x,x_c) > d``.)

:class:`DecisionListMachine` is BuildDLM of Figure 1 over these balls; the *simple* machine uses
Pi/Ni only, the *complex* one all four. :class:`BallSetCoveringMachine` is the SCM with balls:
a conjunction uses only the output-0 types (Ni/No, positive borders), a disjunction only the
output-1 types (Pi/Po, negative borders); it is BuildDLM restricted to one output and stopping
only when the class it covers is exhausted (the SCM's greedy of Marchand and Shawe-Taylor 2002,
Section 3, over the balls of paper 01).

Implementation (the search itself lives in :mod:`companion._ball_search`). Every greedy step
scores the O(m²) (centre, border) candidates: for each remaining centre, cumulative counts of the
remaining positives/negatives along its sorted distance row give, at every border position, how
many remaining examples lie strictly inside / inside-or-on the ball. Up to 2000 examples the
m×m distances are computed and each row argsorted once per fit (:class:`SortedDistances`,
reusable across fits on the same training set); beyond, no m×m array is kept
(``companion._ball_search.BlockedSortedDistances``): exact per-centre bounds from distance
histograms pick the few centres that can hold the best ball, and only their rows are streamed
and sorted, so that 100,000 examples fit in under 1 GB. Both learn the same list. Because the list only grows, one fit with stopping point ``s`` yields every shorter machine too (the *prefix
property*): :meth:`DecisionListMachine.staged_predict` yields the predictions of all of them.

Ties. Usefulness is compared exactly (integer arithmetic, each penalty taken as the decimal
number it prints as: ``2.1`` is 21/10), so two balls tie only when their usefulness is equal, and
no rounding, BLAS kernel or thread count can change which ball is chosen. The greedy breaks ties
by cover, errors, output and then example index (see ``companion._ball_search.greedy_ball_list``); the estimators
run it on the examples in canonical order (lexicographic on features, then label) and map
the indices back, so the learnt list does not depend on the order of the training rows.
Distances come from SciPy's ``cdist`` (a direct per-pair sum, no matrix product), so a training
point is at exactly the same distance from a centre in ``fit`` and in ``predict``.

On your own data. By default (``scale="std"``) each column is divided by its standard deviation
before any distance (a column of 0 and ``c`` by ``c``: 0/1 columns are left as they are), so a column in thousands does not swamp
one in fractions and no column's units decide the model; ``scale=None`` takes the input's units,
unscaled, as the paper does (notebook 01). Tune the penalties and ``s`` (the defaults are weak on data
they were not tuned for; the class docstrings give a grid and measured errors). Both machines
give ``decision_function`` (a signed margin relative to the deciding ball's radius) and
``predict_proba`` (Laplace-corrected training frequencies of the deciding ball), print their
balls by their centres' feature values (``to_text``) and tabulate them (``balls_frame``).

>>> import numpy as np
>>> X = np.array([[0.0], [1.0], [2.0], [3.0], [10.0], [11.0]])
>>> y = np.array(["a", "a", "b", "b", "a", "a"])
>>> dlm = DecisionListMachine(p_p=np.inf, p_n=np.inf, s=5, ball_type="simple").fit(X, y)
>>> bool((dlm.predict(X) == y).all()), dlm.n_balls_
(True, 1)
>>> print(dlm.to_text(["age"]))
if ||(x - (age=3)) / s||_2 < 0.4598 then 'b'
else 'a'
where s = (age=4.3493): each column's standard deviation, c for a column of 0 and c (scale='std')
>>> dlm.decision_function([[3.0], [2.5], [1.0], [30.0]]).round(3).tolist()
[2.0, 1.75, -0.5, -0.963]
>>> dlm.predict_proba([[3.0], [30.0]]).round(3).tolist()  # ball: 2 'b' of 2; default: 4 'a' of 4
[[0.25, 0.75], [0.833, 0.167]]
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
import pandas as pd
from scipy.spatial.distance import cdist
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions, validate_params
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from companion._weights import check_sample_weight
from companion._scale import check_learner_scale
from companion._resources import check_memory
from companion._numeric_input import column_scales, numeric_input
from companion._progress import announced_fit
from companion._ball_search import (
    BALL_TYPES,
    METRIC_NAMES,
    TYPE_INSIDE,
    TYPE_OUTPUT,
    BlockedSortedDistances,
    SortedDistances,
    canonical_order,
    decision_list_path_predictions,
    greedy_ball_list,
    estimated_fit_bytes,
    resolve_metric,
    sorted_distances_within,
)
from companion._learner_support import (
    binary_only_error, check_numeric_input, constant_log_odds, format_number, laplace_proba, resolve_feature_names,
)
from companion.interpretable import InterpretableMixin, beats_default_class
from companion._learner_support import fallback_check_running, jsonable
from companion.numerics import StrictInterval

__all__ = [
    "Ball",
    "SortedDistances",
    "DecisionListMachine",
    "BallSetCoveringMachine",
]


@dataclass(frozen=True)
class Ball:
    """One rule of a learnt decision list (one data-dependent ball, Section 3).

    Parameters
    ----------
    kind : str
        ``"Pi"``, ``"Po"``, ``"Ni"`` or ``"No"``.
    centre_index : int
        Row number, in the training set, of the ball's centre example.
    border_index : int
        Row number, in the training set, of its border example.
    radius : float
        ``d(x_centre, x_border)``.
    inside : bool
        True if the rule fires strictly inside the radius, False if strictly outside.
    output : label
        The class the rule outputs when it fires (a label of ``classes_``).
    """

    kind: str
    centre_index: int
    border_index: int
    radius: float
    inside: bool
    output: object


class _BallListBase(InterpretableMixin, ClassifierMixin, BaseEstimator):
    """Shared fit/predict/score/text machinery of the DLM and the SCM with balls."""

    #: SCM: any firing ball decides (conjunction/disjunction); DLM: the first firing ball.
    _any_ball_decides = False
    #: A fit on one class is a machine with no ball that predicts it (exported with that one
    #: label, read back by companion.interpretable.from_dict).
    _fits_one_class = True

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    #: max |X| its squared distances handle (companion._scale)
    _scale_range = {"low": 2.0**-400, "high": 2.0**400, "why": "squared distances between rows underflow or overflow"}
    _parameter_constraints: dict = {
        "s": [Interval(Integral, 1, None, closed="left"), None],
        "metric": [StrOptions(set(METRIC_NAMES))],
        "scale": [StrOptions({"std"}), None],
        "compression_constraint": ["boolean"],
        "stop_if_unchanged": ["boolean"],
        "class_weight": [StrOptions({"balanced"}), dict, None],
        "max_memory_gb": [Interval(Real, 0, None, closed="neither"), None],
        "fallback": [StrOptions({"inner_cv"}), None],
    }
    #: ``to_text``'s own option (``decimals`` is every learner's: interpretable.TEXT_OPTION_CONSTRAINTS).
    _text_option_constraints = {"max_inline": [StrictInterval(Integral, 0, None, closed="left")]}

    # -- subclasses provide these ------------------------------------------------------------
    def _learn(self, sd, y01, weights):  # pragma: no cover - abstract
        raise NotImplementedError

    def _prefix_defaults(self, outputs):  # pragma: no cover - abstract
        raise NotImplementedError

    # -- shared ------------------------------------------------------------------------------
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None, sorted_distances: SortedDistances | None = None):
        """Learn the list of balls.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features; with ``scale="std"`` (the default) each column is divided by its
            standard deviation before any distance, with ``scale=None`` distances are in the
            input's units. A non-numeric DataFrame column is refused with its name.
        y : array-like of shape (n_samples,)
            Two classes of any type; ``classes_[1]`` is the "positive" class.
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights, multiplied by those of ``class_weight``. A weight is how many
            times the row counts: the covered and erred counts of the greedy step, the training
            errors of ``path_`` and ``cell_counts_`` are sums of weights, so an integer weight
            gives the model that many copies of the row give, and a row of weight 0 is dropped
            (it is no centre or border). Integer weights keep every comparison exact; real
            weights tie within :data:`companion.numerics.TIE_RTOL`. A weighted fit keeps every
            distance of the rows of positive weight (128 bytes per pair,
            :func:`companion._ball_search.estimated_fit_bytes`): beyond ``max_memory_gb`` it is
            refused before any distance is computed, naming the learner and the GiB it needs.
        sorted_distances : SortedDistances, optional
            Precomputed for these ``X`` under this metric (shares the sort across a grid); only
            with ``scale=None`` or a table whose columns ``scale="std"`` leaves as they are
            (0/1, constant), else refused.

        Returns
        -------
        self
            The fitted machine.

        Notes
        -----
        A fit estimated to take over a minute (:func:`_estimated_fit_seconds`) says so first, with
        the remedies, and shows its progress while it runs (:func:`companion._progress.announced_fit`).
        A fit interrupted (``KeyboardInterrupt``) leaves the machine as it was before the call.
        """
        with announced_fit(self, _estimated_fit_seconds(self, X), X, _LONG_FIT_REMEDY):
            return self._fit_rows(X, y, sample_weight, sorted_distances)

    def _fit_rows(self, X, y, sample_weight, sorted_distances):
        """:meth:`fit`'s work (the announcement and the interruption are :meth:`fit`'s)."""
        check_sample_weight(self, sample_weight, X)  # one refusal for every learner (companion._weights)
        check_learner_scale(self, X)  # the input scale its arithmetic handles (companion._scale)
        self._metric = resolve_metric(self.metric)
        given = (X, y, sample_weight)  # for the fallback check (its clones fit what the caller gave)
        X = numeric_input(self, X, reset=True)  # nominal columns, missing cells: the one pipeline
        check_numeric_input(X, type(self).__name__)
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        if len(self.classes_) > 2:
            raise binary_only_error(type(self).__name__, len(self.classes_))
        # Distances in units the columns' own units do not decide: each column divided by its
        # scale (1 for 0/1 columns and with scale=None, where X / 1 is X bit for bit).
        self.scale_ = column_scales(X) if self.scale == "std" else np.ones(X.shape[1])
        if sorted_distances is not None and (self.scale_ != 1).any():
            raise ValueError(
                f"{type(self).__name__}: sorted_distances holds distances in X's own units, but scale='std' "
                f"divides {int((self.scale_ != 1).sum())} column(s) by their standard deviation; pass "
                "scale=None (the paper's unscaled distances) or leave sorted_distances out"
            )
        X_input, X = X, X / self.scale_
        y01 = y_index.astype(int).reshape(-1)
        m = X.shape[0]
        if sorted_distances is not None and (
            not isinstance(sorted_distances, (SortedDistances, BlockedSortedDistances))
            or sorted_distances.n_samples != m
        ):
            raise ValueError(
                f"sorted_distances must be a SortedDistances of the {m} rows of X, got {sorted_distances!r}"
            )
        weighted = sample_weight is not None or self.class_weight is not None
        weights = _fit_weights(self, X, y, sample_weight)  # None: unit weights (the paper's counts)
        kept = np.arange(m) if weights is None else np.flatnonzero(weights > 0)
        # The greedy breaks ties by example index: run it in the canonical order of the examples
        # so that the learnt list does not depend on the order of the caller's rows, and map every
        # index back to the caller's rows below.
        order = kept[canonical_order(X[kept], y01[kept])]
        y01_canonical = y01[order]
        engine_weights = None if weights is None or (weights[order] == 1).all() else weights[order]
        if engine_weights is not None and not isinstance(sorted_distances, SortedDistances):
            # weighted counts need every distance: refused by name before any pair is computed
            check_memory(self, estimated_fit_bytes(len(order), self.max_memory_gb, weighted=True),
                         f"the {len(order)} x {len(order)} sorted distances a fit with sample_weight or "
                         "class_weight keeps", "fit without weights (the streamed layout) or on fewer rows")
        if sorted_distances is None:
            sorted_distances = sorted_distances_within(
                X[order], self._metric, self.max_memory_gb, weighted=engine_weights is not None
            )
        else:
            sorted_distances = sorted_distances.permuted(order)
            if engine_weights is not None and not isinstance(sorted_distances, SortedDistances):
                sorted_distances = sorted_distances_within(X[order], self._metric, self.max_memory_gb, weighted=True)
        counts = np.ones(m, dtype=np.int64) if weights is None else weights
        # the majority class by (weighted) count; argmax takes classes_[0] on a tie
        majority = int(np.bincount(y01, weights=counts, minlength=2).argmax()) if len(self.classes_) == 2 else 0
        if len(self.classes_) == 1:
            learnt = greedy_ball_list(sorted_distances, y01_canonical, p_p=1.0, p_n=1.0, max_balls=0)
        else:
            learnt = self._learn(sorted_distances, y01_canonical, engine_weights)
        kinds, radii = learnt["kind"], learnt["radius"]
        centres, borders = order[learnt["centre"]], order[learnt["border"]]  # caller's rows
        outputs = TYPE_OUTPUT[kinds] if len(kinds) else np.zeros(0, dtype=int)
        inside = TYPE_INSIDE[kinds] if len(kinds) else np.zeros(0, dtype=bool)
        if weighted:
            # every training row, those of weight 0 included (cdist: the same bits as the search's)
            to_centres = cdist(X, X[centres], metric=self._metric) if len(kinds) else np.zeros((m, 0))
            train_fires = np.where(inside, to_centres < radii, to_centres > radii)
        else:
            # D is in canonical order: select the canonical centre columns, then put the rows back
            # into the caller's order
            to_centres = sorted_distances.columns(learnt["centre"])
            train_fires = np.empty((m, len(kinds)), dtype=bool)
            train_fires[order] = np.where(inside, to_centres < radii, to_centres > radii)
        defaults = self._prefix_defaults(outputs)
        train_path = decision_list_path_predictions(train_fires, outputs, defaults)
        path = _path_statistics(train_path, y01, centres, borders, counts)
        r = len(kinds)
        if self.stop_if_unchanged and r:
            # Stop before the first ball that changes no prediction on a row of positive weight
            # (the machine with no ball predicts the majority class).
            previous = np.vstack([np.full((1, m), majority), train_path[:-1]])
            changes = (train_path[:, kept] != previous[:, kept]).any(axis=1)
            if not changes.all():
                r = int(np.argmin(changes))
        if self.compression_constraint and r and not path["compression_correct"][r - 1]:
            # The final default misclassifies a remaining compression example: keep the longest
            # prefix that classifies its whole compression set correctly (paper 01, Section 4:
            # Theorems 1 and 2 need a list consistent with its compression set).
            ok = np.flatnonzero(path["compression_correct"][:r])
            r = int(ok[-1]) + 1 if len(ok) else 0
        self.fallback_class_ = None
        reason = ""
        if (self.fallback == "inner_cv" and r and len(self.classes_) == 2 and not fallback_check_running()
                and not beats_default_class(self, *given)):
            # The balls lose to the default class on inner folds: keep none, predict the
            # (weighted) majority class (the empty list's default).
            r = 0
            self.fallback_class_ = self.classes_[majority]
            reason = f" (its balls did not beat it on inner folds: {type(self).__name__} fell back to the default class)"
        self._kinds, self._centres, self._borders, self._radii = kinds[:r], centres[:r], borders[:r], radii[:r]
        self._outputs, self._inside = outputs[:r], inside[:r]
        self._defaults = defaults[:r]
        # With the constraint, a fit stopped at s = t returns the longest prefix of length <= t
        # that classifies its compression set right; staged_predict reproduces that choice.
        if self.compression_constraint and r:
            correct = path["compression_correct"][:r]
            self._path_source = np.maximum.accumulate(np.where(correct, np.arange(r), 0))
        else:
            self._path_source = np.arange(r)
        self._default01 = int(defaults[r - 1]) if r else majority
        self.centres_ = X_input[self._centres]  # in the input's units (to_text prints them)
        self._scaled_centres = X[self._centres]
        self.compression_set_ = np.unique(np.concatenate([self._centres, self._borders])).astype(int)
        self.compression_labels_ = self.classes_[y01[self.compression_set_]] if len(self.classes_) == 2 else (
            np.full(len(self.compression_set_), self.classes_[0])
        )
        self.path_ = pd.DataFrame(
            {"n_balls": np.arange(1, r + 1), **{c: path[c][:r] for c in _PATH_COLUMNS},
             "fitted_n_balls": self._path_source + 1}
        )
        self.n_positive_, self.n_negative_ = int(y01.sum()), int(m - y01.sum())
        # predict_proba: class counts (sums of weights) of the training examples in each cell
        # (ball that decides, then the default), Laplace-corrected once here
        n_classes = len(self.classes_)
        cells = _first_firing(train_fires[:, :r])
        cell_counts = np.bincount(cells * n_classes + y01, weights=counts, minlength=(r + 1) * n_classes)
        if counts.dtype.kind != "f":
            cell_counts = np.rint(cell_counts).astype(np.int64)
        self._set_model(cell_counts.reshape(r + 1, n_classes))
        # What the machine predicts on the training rows of positive weight: one class warns.
        trained = self.classes_[train_path[r - 1]] if r and n_classes == 2 else np.full(m, self.default_class_)
        self._check_single_class(None, predictions=trained[kept], reason=reason)
        return self

    def _set_model(self, cell_counts):
        """The fitted attributes derived from the balls' arrays (shared by ``fit`` and ``from_dict``)."""
        r = len(self._kinds)
        self.n_balls_ = r
        self.complexity_ = r  # one literal (a ball test) per rule
        self.balls_ = [
            Ball(BALL_TYPES[k], int(c), int(b), float(rad), bool(ins), self.classes_[o])
            for k, c, b, rad, ins, o in zip(
                self._kinds, self._centres, self._borders, self._radii, self._inside, self._outputs
            )
        ]
        self.default_class_ = self.classes_[self._default01] if len(self.classes_) == 2 else self.classes_[0]
        self.cell_counts_ = cell_counts
        self._cell_proba = laplace_proba(self.cell_counts_)

    def _distances(self, X):
        if self.n_balls_ == 0:
            return np.zeros((len(X), 0))
        # the same division as fit's: a training row is at the same distance in fit and predict
        return cdist(X / self.scale_, self._scaled_centres, metric=self._metric)

    def _fires(self, X):
        return _fires_from(self._distances(X), self._inside, self._radii)

    def staged_predict(self, X):
        """Predictions of every prefix of the learnt list (the prefix property), as a generator.

        As scikit-learn's boosting estimators do, it yields one array per stage: the labels
        predicted by the machine truncated to its first ``k`` balls, for ``k = 1 .. n_balls_``,
        i.e. what a fit with stopping point ``s = k`` returns (with
        ``compression_constraint=True``: the longest such prefix that classifies its compression
        set right). The last item equals :meth:`predict`; nothing is yielded when
        ``n_balls_ == 0``. All prefixes are computed at once (one pass over the balls), then
        yielded.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Yields
        ------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        X = validate_data(self, numeric_input(self, X, reset=False), reset=False, dtype=np.float64)
        path01 = decision_list_path_predictions(self._fires(X), self._outputs, self._defaults)[self._path_source]
        labels = self.classes_[path01] if len(self.classes_) == 2 else np.full(path01.shape, self.classes_[0])
        yield from labels

    def predict(self, X):
        """Class labels predicted by the learnt list (Section 2's definition of ``f``)."""
        check_is_fitted(self)
        X = validate_data(self, numeric_input(self, X, reset=False), reset=False, dtype=np.float64)
        if self.n_balls_ == 0:
            return np.full(X.shape[0], self.default_class_)
        path01 = decision_list_path_predictions(self._fires(X), self._outputs, self._defaults)
        return self.classes_[path01[-1]]

    def decision_function(self, X):
        """Signed margin: positive favours ``classes_[1]``; ``predict`` is its sign (see Scores).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
            ``±(1 + depth)`` in ``(1, 2]`` where a ball decides, ``depth`` being how far inside
            its firing region the point lies relative to the radius; ``±(1 + escape) / 2`` in
            ``[1/2, 1]`` where the default decides, ``escape`` being how far the point lies from
            the nearest firing region, relative to its radius. The sign is the output's. A
            machine with no ball (the fallback, or no ball learnt) predicts its majority class
            everywhere and scores every row by the training log-odds
            (:func:`companion._learner_support.constant_log_odds`), so that one-vs-rest over
            such machines picks the most frequent class.
        """
        check_is_fitted(self)
        X = validate_data(self, numeric_input(self, X, reset=False), reset=False, dtype=np.float64)
        if self.n_balls_ == 0 and len(self.classes_) == 2:
            return np.full(X.shape[0], constant_log_odds(self.cell_counts_[0]))
        distances = self._distances(X)
        fires = _fires_from(distances, self._inside, self._radii)
        # relative signed distance to each ball's surface, in [-1, 1]: (d - r) / max(d, r),
        # 0 on the surface (d == r, the radius 0 included)
        scale = np.maximum(distances, self._radii)
        with np.errstate(divide="ignore", invalid="ignore"):
            rho = np.where(scale > 0, (distances - self._radii) / scale, 0.0)
        # depth > 0 exactly where the ball fires (strict inequality); elsewhere -depth >= 0 is
        # the escape. The sign of the result never depends on these floats: it is the output of
        # the deciding rule, taken from the same comparisons as predict.
        depth = np.where(self._inside, -rho, rho)
        n = X.shape[0]
        escape = (-depth).min(axis=1, initial=1.0, where=~fires) if self.n_balls_ else np.ones(n)
        escape = np.clip(escape, 0.0, 1.0)
        sign_default = 1.0 if (len(self.classes_) == 2 and self._default01 == 1) else -1.0
        scores = sign_default * (1.0 + escape) / 2.0
        if self.n_balls_:
            decided = fires.any(axis=1)
            if self._any_ball_decides:
                # SCM: a conjunction (disjunction) is refuted (confirmed) by any of its balls;
                # every ball has the same output, the deepest one sets the margin
                ball_depth = np.max(depth, axis=1, initial=0.0, where=fires)
                ball_output = np.full(n, self._outputs[0])
            else:
                first = _first_firing(fires)
                chosen = np.minimum(first, self.n_balls_ - 1)
                ball_depth = np.take_along_axis(depth, chosen[:, None], axis=1)[:, 0]
                ball_output = self._outputs[chosen]
            ball_scores = np.where(ball_output == 1, 1.0, -1.0) * (1.0 + np.clip(ball_depth, 0.0, 1.0))
            scores = np.where(decided, ball_scores, scores)
        return scores

    def predict_proba(self, X):
        """Laplace-corrected class frequencies of the training examples in the same cell.

        The cell of a point is the first ball that fires on it (the default when none does):
        ``(n_c + 1) / (n + k)`` over the ``n`` training examples of that cell (``cell_counts_``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            In the input's units (the machine divides the columns by ``scale_`` itself); NaN is
            refused.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            One row per point, one column per entry of ``classes_``; a ball's cell of ``n``
            training examples, none of some class, still gives that class ``1 / (n + k)``.
        """
        check_is_fitted(self)
        X = validate_data(self, numeric_input(self, X, reset=False), reset=False, dtype=np.float64)
        return self._cell_proba[_first_firing(self._fires(X))]

    # -- exported model ----------------------------------------------------------------------
    def _model_to_dict(self) -> dict:
        names = resolve_feature_names(self)
        model = {
            "metric": self._metric,
            "columns": names,
            "balls": [
                {
                    "kind": ball.kind,
                    "centre": {name: float(v) for name, v in zip(names, self.centres_[t])},
                    "radius": ball.radius,
                    "fires": "inside" if ball.inside else "outside",
                    "output": ball.output,
                    "centre_index": ball.centre_index,
                    "border_index": ball.border_index,
                }
                for t, ball in enumerate(self.balls_)
            ],
            "default_class": self.default_class_,
            "fitted_n_balls": (self._path_source + 1).tolist(),
            "cell_counts": self.cell_counts_,
        }
        if (self.scale_ != 1).any():
            # only when a column is divided: a 0/1 table or scale=None writes the model as before
            model["scale"] = [float(v) for v in self.scale_]
        if getattr(self, "fallback_class_", None) is not None:
            # only when it fell back: the model of any other fit is written as before the fallback
            model["fallback_class"] = jsonable(self.fallback_class_, where="fallback_class_")
        return model

    def _model_from_dict(self, model):
        self._metric = resolve_metric(model["metric"])
        balls = model["balls"]
        columns = model["columns"]
        self._kinds = np.array([BALL_TYPES.index(b["kind"]) for b in balls], dtype=int)
        self._centres = np.array([b["centre_index"] for b in balls], dtype=int)
        self._borders = np.array([b["border_index"] for b in balls], dtype=int)
        self._radii = np.array([float(b["radius"]) for b in balls], dtype=float)
        self._outputs = TYPE_OUTPUT[self._kinds] if len(balls) else np.zeros(0, dtype=int)
        self._inside = TYPE_INSIDE[self._kinds] if len(balls) else np.zeros(0, dtype=bool)
        self._defaults = self._prefix_defaults(self._outputs)
        self._path_source = np.asarray(model["fitted_n_balls"], dtype=int).reshape(-1) - 1
        self.centres_ = np.array(
            [[float(b["centre"][name]) for name in columns] for b in balls], dtype=float
        ).reshape(len(balls), len(columns))
        self.scale_ = np.array([float(v) for v in model.get("scale", [1.0] * len(columns))], dtype=float)
        self._scaled_centres = self.centres_ / self.scale_
        labels = list(self.classes_.tolist())
        self._default01 = labels.index(model["default_class"]) if len(labels) == 2 else 0
        counts = np.array(model["cell_counts"], dtype=float).reshape(len(balls) + 1, len(labels))
        if (counts == np.round(counts)).all():
            counts = counts.astype(np.int64)
        self._set_model(counts)
        fallback = model.get("fallback_class")  # absent unless the fit fell back
        self.fallback_class_ = None if fallback is None else self.classes_[labels.index(fallback)]

    def _rule_records(self, feature_names):
        records = [
            {"condition": _ball_condition(self, t, feature_names, 4, 4), "prediction": ball.output,
             "kind": ball.kind, "radius": ball.radius}
            for t, ball in enumerate(self.balls_)
        ]
        records.append({"condition": "else" if self.balls_ else "always", "prediction": self.default_class_,
                         "kind": "default", "radius": np.nan})
        return records

    def _rule_decisions(self, X):
        """Which cell decides each row: ball ``j`` where it is the first ball to fire, the default
        (last column) where none fires."""
        check_is_fitted(self)
        X = validate_data(self, numeric_input(self, X, reset=False), reset=False, dtype=np.float64)
        cells = _first_firing(self._fires(X))
        return cells[:, None] == np.arange(self.n_balls_ + 1)[None, :]

    # -- readable model ----------------------------------------------------------------------
    def balls_frame(self, feature_names=None) -> pd.DataFrame:
        """The learnt balls as a table, one row per ball in list order (index ``ball``: 1, 2, ...).

        Parameters
        ----------
        feature_names : sequence of str, optional
            Names of the input columns (default ``feature_names_in_``, else ``x0, x1, ...``).

        Returns
        -------
        pandas.DataFrame
            Columns ``kind`` (Pi/Po/Ni/No), ``fires`` ("inside": ``d(x, centre) < radius``;
            "outside": ``>``), ``radius`` (in the input's units), ``output`` (the class when the
            ball decides), ``n_covered`` / ``n_errors`` (training examples the ball decides,
            of its output class / of the other class), ``centre_index`` and ``border_index``
            (training rows), then the centre's value of every feature (a feature whose name
            clashes with one of these columns appears as ``centre:<name>``).
        """
        check_is_fitted(self)
        names = resolve_feature_names(self, feature_names)
        r = self.n_balls_
        counts = self.cell_counts_[:r]
        out_index = self._outputs if len(self.classes_) == 2 else np.zeros(r, dtype=int)
        covered = counts[np.arange(r), out_index] if r else np.zeros(0, dtype=int)
        frame = pd.DataFrame(
            {
                "kind": [BALL_TYPES[k] for k in self._kinds],
                "fires": np.where(self._inside, "inside", "outside"),
                "radius": np.asarray(self._radii, dtype=float),
                "output": self.classes_[out_index] if r else self.classes_[:0],
                "n_covered": covered.astype(int),
                "n_errors": (counts.sum(axis=1) - covered).astype(int),
                "centre_index": np.asarray(self._centres, dtype=int),
                "border_index": np.asarray(self._borders, dtype=int),
            },
            index=pd.RangeIndex(1, r + 1, name="ball"),
        )
        reserved = set(frame.columns)
        centres = pd.DataFrame(
            self.centres_.reshape(r, len(names)),
            columns=[f"centre:{name}" if name in reserved else name for name in names],
            index=frame.index,
        )
        return pd.concat([frame, centres], axis=1)

    def _render_text(self, feature_names: list[str], *, decimals: int = 4, max_inline: int = 4) -> str:
        """The learnt list as ``if … else if … else`` text, one ball per line (``to_text``).

        A ball reads ``||x - centre||_2 < radius`` (``_1``, ``_inf`` for the other norms; a
        SciPy metric by its name). With at most ``max_inline`` features the centre is written
        inline by its feature values, ``(age=54, income=3100)``; with more, the balls are
        written ``c1, c2, ...`` and a table of their centres (one row per feature, one column
        per ball) follows the list. Values are in the input's units (after a scaler in a
        pipeline: in its units; see :func:`companion.interpretable.pipeline_text`).

        Parameters
        ----------
        feature_names : sequence of str, optional
            One name per input column; default ``feature_names_in_``, else ``x0, x1, ...``.
        decimals : int or None, default=4
            Decimal places of radii and centre coordinates (None: 4 significant digits).
        max_inline : int, default=4
            Largest number of features written inline in each line.
        """
        return self._render(feature_names, decimals, int(max_inline))

    def _render(self, names, decimals, max_inline) -> str:
        inline = len(names) <= max_inline
        lines = []
        for t, ball in enumerate(self.balls_):
            keyword = "if" if t == 0 else "else if"
            lines.append(
                f"{keyword} {_ball_condition(self, t, names, decimals, max_inline)} then {_plain(ball.output)!r}"
            )
        default = _plain(self.default_class_)
        lines.append(f"else {default!r}" if lines else f"always {default!r}")
        if lines[:-1] and (self.scale_ != 1).any():
            scales = ", ".join(f"{name}={_number(v, decimals)}" for name, v in zip(names, self.scale_))
            lines.append(f"where s = ({scales}): each column's standard deviation, c for a column of 0 and c (scale='std')")
        if lines[:-1] and not inline:
            table = pd.DataFrame(
                [[_number(v, decimals) for v in row] for row in self.centres_.T],
                index=pd.Index(names, name="centres"),
                columns=[f"c{t + 1}" for t in range(self.n_balls_)],
            )
            lines.append(table.to_string())
        return "\n".join(lines)


def _ball_condition(model, t, names, decimals, max_inline) -> str:
    """The test of ball ``t`` as ``to_text`` prints it, ``||x - (age=54)||_2 < 5.4``."""
    if len(names) <= max_inline:
        centre = "(" + ", ".join(f"{name}={_number(v, decimals)}" for name, v in zip(names, model.centres_[t])) + ")"
    else:
        centre = f"c{t + 1}"
    sign = "<" if model._inside[t] else ">"
    scaled = bool((model.scale_ != 1).any())
    return f"{_distance_text(model._metric, centre, scaled)} {sign} {_number(model._radii[t], decimals)}"


#: What shortens a long fit of a ball machine (the line :func:`companion._progress.long_fit` writes).
_LONG_FIT_REMEDY = (
    "fit on a subsample of the rows, pass fallback=None (no 3 inner fits of the fallback check: "
    "about half the time) or a smaller s, run cross-validation folds in parallel with n_jobs; "
    "max_memory_gb bounds the memory, not the time"
)


def _estimated_fit_seconds(machine, X) -> float:
    """A rough duration of ``machine.fit(X, ...)`` in seconds, for the announcement of a long fit.

    Measured on the project's 2-core machine under load (default DLM, 50 normal features): 18 s
    at m = 8000 without the fallback, growing as m^1.7 from m = 1000 (0.5, 1.8, 5.7, 18 s at
    1000, 2000, 4000, 8000 rows); the fallback's three inner fits about double it; the distances'
    share grows with the columns. Only decides whether a line is written, never what is learnt.
    """
    try:
        m, n = np.shape(X)
    except (TypeError, ValueError):
        return 0.0
    seconds = 18.0 * (m / 8000.0) ** 1.7 * (0.5 + 0.5 * n / 50.0)
    return seconds * (2.1 if machine.fallback == "inner_cv" else 1.0)


def _fires_from(distances, inside, radii):
    """``fires[i, j]``: ball ``j`` fires on point ``i`` (strictly inside / strictly outside)."""
    return np.where(inside, distances < radii, distances > radii)


def _first_firing(fires) -> np.ndarray:
    """Index of the first firing ball of every row, ``r`` (the default) when none fires."""
    fires = np.asarray(fires, dtype=bool)
    r = fires.shape[1]
    if r == 0:
        return np.zeros(fires.shape[0], dtype=np.intp)
    return np.where(fires.any(axis=1), fires.argmax(axis=1), r).astype(np.intp)


_NORM_SUBSCRIPTS = {"euclidean": "2", "cityblock": "1", "chebyshev": "inf"}


def _distance_text(metric: str, centre: str, scaled: bool = False) -> str:
    """``||x - centre||_2`` for the norms, ``canberra(x, centre)`` for other SciPy metrics;
    ``||(x - centre) / s||_2``, ``canberra(x / s, centre / s)`` when the columns are divided by
    ``s`` (``scale_``)."""
    if metric in _NORM_SUBSCRIPTS:
        difference = f"(x - {centre}) / s" if scaled else f"x - {centre}"
        return f"||{difference}||_{_NORM_SUBSCRIPTS[metric]}"
    return f"{metric}(x / s, {centre} / s)" if scaled else f"{metric}(x, {centre})"


_number = format_number  # ``value`` to ``decimals`` places, the package's one number format


_PATH_COLUMNS = ("k_p", "k_n", "c_p", "c_n", "b_p", "b_n", "compression_correct")


def _penalty(value) -> float:
    """A penalty parameter as the float of the decimal it prints as.

    Python floats, NumPy float64 and integers are unchanged; a NumPy float32 ``2.1`` (which is
    2.0999999046... in binary) becomes the float64 2.1, so that the exact comparison of
    usefulness (:func:`_most_useful`) reads it as 21/10, the number the caller wrote.
    """
    if isinstance(value, np.floating) and not np.isinf(value):
        return float(str(value))
    return float(value)


def _plain(value):
    """A NumPy scalar as the equivalent Python scalar (for readable text)."""
    return value.item() if isinstance(value, np.generic) else value


def _fit_weights(estimator, X, y, sample_weight):
    """The row weights of a fit: ``sample_weight`` times ``class_weight``'s, or None (unit weights).

    Integer-valued weights are returned as int64 (so that every count stays an exact integer),
    others as float64. A fit whose weights are all 0 is refused, naming the estimator.
    """
    if sample_weight is None and estimator.class_weight is None:
        return None
    weights = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
    if estimator.class_weight is not None:
        weights = weights * compute_sample_weight(estimator.class_weight, y)
    if not weights.sum() > 0:
        raise ValueError(f"{type(estimator).__name__}: sample_weight (times class_weight) is 0 on every row")
    if (weights == np.round(weights)).all() and weights.sum() < 2**52:
        return weights.astype(np.int64)
    return weights


def _path_statistics(train_path, y01, centres, borders, weights=None) -> dict[str, np.ndarray]:
    """Per prefix: training errors, compression-set sizes and whether it is classified right.

    Column names follow Theorem 1: ``k_p``/``k_n`` errors on positives/negatives (sums of
    ``weights`` when given); ``c_p``/``c_n``
    positive/negative centres; ``b_p``/``b_n`` positive/negative borders that are not centres;
    ``compression_correct``: the prefix classifies every example of its compression set right.
    Returned as one array per column (the estimator builds ``path_`` from them once).
    """
    y01 = np.asarray(y01).astype(bool)
    r = len(centres)
    if r == 0:
        return {c: np.zeros(0, dtype=bool if c == "compression_correct" else int) for c in _PATH_COLUMNS}
    wrong = train_path != y01[None, :]
    w = np.ones(len(y01), dtype=np.int64) if weights is None else np.asarray(weights)
    prefixes = np.arange(r)
    members = np.union1d(centres, borders)
    # first prefix in which each member is a centre / a border (r if never)
    first_centre = np.full(len(members), r)
    first_border = np.full(len(members), r)
    np.minimum.at(first_centre, np.searchsorted(members, centres), prefixes)
    np.minimum.at(first_border, np.searchsorted(members, borders), prefixes)
    is_centre = first_centre[:, None] <= prefixes[None, :]  # (members, prefixes)
    is_border = (first_border[:, None] <= prefixes[None, :]) & ~is_centre
    positive = y01[members][:, None]
    in_compression = is_centre | is_border
    return {
        "k_p": ((wrong & y01) * w).sum(axis=1),
        "k_n": ((wrong & ~y01) * w).sum(axis=1),
        "c_p": (is_centre & positive).sum(axis=0),
        "c_n": (is_centre & ~positive).sum(axis=0),
        "b_p": (is_border & positive).sum(axis=0),
        "b_n": (is_border & ~positive).sum(axis=0),
        "compression_correct": ~(wrong[:, members] & in_compression.T).any(axis=1),
    }


class DecisionListMachine(_BallListBase):
    """Decision List Machine with data-dependent balls (Sokolova et al. 2002, Figure 1).

    Usefulness is compared exactly, each penalty as the decimal number it prints as (``2.1`` is
    21/10; see :func:`greedy_ball_list`). Ties between equally useful balls go to the larger cover,
    then fewer errors, then output 1, then a canonical order of the examples (lexicographic on
    features, then label), so the learnt list does not depend on the row order or on rounding;
    the indices in ``balls_`` and ``compression_set_`` refer to the caller's rows.

    Parameters
    ----------
    p_p : float, default=1.0
        Penalty per error on a positive example (``classes_[1]``); ``np.inf`` forbids such errors.
    p_n : float, default=1.0
        Penalty per error on a negative example (``classes_[0]``).
    s : int or None, default=10
        Stopping point: the largest number of balls (None: stop only when a class is exhausted).
    ball_type : {"simple", "complex"}, default="complex"
        "simple": Pi and Ni balls only; "complex": all four types (Section 3).
    metric : str, default="l2"
        ``"l2"``, ``"l1"``, ``"linf"`` or a SciPy ``cdist`` metric name, taken on the columns
        divided by ``scale_`` (see ``scale``).
    scale : {"std", None}, default="std"
        ``"std"`` (for users' tables): the distances are taken on each column divided by its
        standard deviation on the training rows (``scale_``; a column of values ``{0, c}`` by
        ``c``, so a 0/1 column by 1: :func:`companion._numeric_input.column_scales`), so that a column's
        units (dollars or thousands of dollars) decide no ball. Centres are printed and exported
        in the input's units, the radii in the divided units (``to_text`` writes
        ``||(x - centre) / s||`` and the ``s`` of each column). ``None``: the input's own
        units, the paper's setting (notebook 01's data, which the paper does not scale), with
        which ``sorted_distances`` may be passed to ``fit``. On a 0/1 table both are the same.
    compression_constraint : bool, default=False
        Enforce that the returned list classifies its compression set correctly (needed for
        Theorems 1 and 2; Section 4). Balls that would misclassify a remaining compression example
        are not considered and, if the final default misclassifies one, the list is cut to the
        longest prefix that does not.
    stop_if_unchanged : bool, default=True
        Stop before the first ball that would change no training prediction (of a row of
        positive weight; the machine with no ball predicts the majority class), so that no
        padded ball is kept. ``False`` is the paper's BuildDLM, which only stops at ``s`` or
        when a class is exhausted (Figure 1, step 5); the paper-01 protocols pass it.
    class_weight : dict, "balanced" or None, default=None
        Weights of the classes, multiplied into ``sample_weight`` (see :meth:`fit`); "balanced"
        weighs each class by ``n_samples / (2 * its count)``. Like ``p_p``/``p_n`` it trades the
        errors on one class against the other, but it also weighs what a ball covers.
    max_memory_gb : float or None, default=4.0
        Bounds the working memory of the fit, in GiB, not whether it runs. Up to 2000 examples,
        when it allows them, the fit keeps every distance (:class:`SortedDistances`, 128 bytes per
        pair at the peak: 0.5 GB at m = 2000); beyond, it keeps O(m) memory
        (:class:`BlockedSortedDistances`: distance histograms per centre, sized to a quarter of
        the limit, and blocks of streamed distance rows sized to the rest; about 0.8 GB for
        100,000 examples, see benchmarks/README.md). The learnt list is the same either
        way. ``None``: no limit.
    fallback : {"inner_cv", None}, default="inner_cv"
        ``"inner_cv"`` (the default, for users' tables): the learnt list must beat the default
        class (the weighted majority class) on 3 inner stratified folds
        (:func:`companion.interpretable.beats_default_class`, CART's one-standard-error rule),
        else the machine keeps no ball and predicts that class, ``fallback_class_``, printed
        ``always C`` with a :class:`companion.interpretable.SingleClassWarning`. It costs
        three more fits on two thirds of the rows (whole ``sample_weight`` enter them as
        copies of the rows, so large whole weights make them larger fits, each within
        ``max_memory_gb``). ``None``: BuildDLM's list as it is
        (Figure 1, no fallback), what notebook 01's reproduction of the paper uses
        (``companion.experiments.paper01`` passes ``fallback=None``).

    Attributes
    ----------
    complexity_ : int
        Size of the model: its literals, here one ball test per rule (``n_balls_``); 0 for a
        machine that predicts one class on every training row (``single_class_``).
    classes_ : ndarray of shape (2,)
    balls_ : list of Ball
        The rules in order: type, centre index, border index, radius, inside/outside, output
        (:meth:`balls_frame` tabulates them with their centres' feature values).
    default_class_ : label
        Output when no ball fires (``¬b_r``, Figure 1 step 6); with no ball at all, the majority
        class of the training set (``classes_[0]`` if both classes are equally frequent).
    fallback_class_ : object or None
        With ``fallback="inner_cv"``: the majority class the machine fell back to when its
        balls did not beat it on inner folds (it then has no ball and always predicts it);
        else None.
    single_class_ : object or None
        The class the machine predicts on every training row (its text is then ``always C``
        and a :class:`companion.interpretable.SingleClassWarning` was issued), else None.
    n_balls_ : int
    centres_ : ndarray of shape (n_balls_, n_features)
        The balls' centres, in the input's units.
    scale_ : ndarray of shape (n_features,)
        What each column is divided by before any distance (``scale``): its standard deviation,
        ``c`` for a column of values ``{0, c}`` (1 for a 0/1 column), or 1 with ``scale=None``.
    compression_set_ : ndarray of int
        Training indices of the centres and borders (Section 4).
    compression_labels_ : ndarray
        Their labels.
    path_ : pandas.DataFrame
        One row per prefix length ``n_balls``: training errors ``k_p``, ``k_n``, compression
        counts ``c_p``, ``c_n``, ``b_p``, ``b_n``, ``compression_correct``, and
        ``fitted_n_balls``: the size of the machine a fit with ``s = n_balls`` returns (smaller
        only under the compression constraint).
    cell_counts_ : ndarray of int, shape (n_balls_ + 1, n_classes)
        Training examples of each class per cell: row ``j`` those whose first firing ball is
        ball ``j + 1``, the last row those that reach the default (the basis of ``predict_proba``).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When fitted on a DataFrame; they name the centres' coordinates in ``to_text``.

    Notes
    -----
    **Units and scaling.** Distances are in the input's units, unscaled as in the paper, and the
    defaults are weak on data they were not tuned for. On your own table, scale and tune::

        model = make_pipeline(StandardScaler(), DecisionListMachine())
        grid = {"decisionlistmachine__p_p": [0.5, 1, 2, 4], "decisionlistmachine__p_n": [0.5, 1, 2, 4],
                "decisionlistmachine__s": [2, 5, 10, 20], "decisionlistmachine__ball_type": ["simple", "complex"],
                "decisionlistmachine__metric": ["l2", "l1"]}
        GridSearchCV(model, grid, cv=5)

    (one fit with ``s = 20`` gives every smaller ``s`` through :meth:`staged_predict`, which is
    how ``companion.experiments.paper01`` searches it quickly). 10-fold CV error, the grid chosen
    by an inner 5-fold CV on each training fold (nested; a pruned CART for comparison):

    =================================  =============  =====  ============
    10-fold CV error                   breast_cancer  sonar  credit (crx)
    =================================  =============  =====  ============
    defaults, raw features             0.097          0.419  0.314
    defaults, StandardScaler first     0.091          0.288  0.257
    StandardScaler + the grid above    0.063          0.221  0.214
    pruned CART (``ccp_alpha`` tuned)  0.072          0.270  0.136
    =================================  =============  =====  ============

    (sklearn's breast_cancer; :func:`companion.datasets.load_sonar`; the Australian credit
    data in its crx form, nominal columns one-hot, ``paper01._grids.load_table1_dataset("credit")``;
    outer ``StratifiedKFold(10, shuffle=True, random_state=0)``, inner 5-fold.) The search
    mostly chose simple balls, ``p_p = p_n = 4`` and ``s`` of 10-20; a wider grid (penalties
    up to 8, ``s`` up to 40) did no better. On credit no ball machine comes near a tree.

    **Scores.** ``decision_function`` is a signed margin, positive for ``classes_[1]``, whose sign
    is ``predict``. Let ``rho = (d - r) / max(d, r)`` be the distance ``d`` of ``x`` to a ball's
    centre relative to its radius ``r`` (0 on the surface). The ball's *depth* is how far ``x``
    lies in its firing region (``-rho`` for an inside ball, ``rho`` for an outside one, in
    ``(0, 1]`` where it fires); where a ball decides, the score is ``±(1 + depth)`` with the
    sign of its output, in ``(1, 2]``; where the default decides, ``±(1 + escape) / 2``, in
    ``[1/2, 1]``, ``escape`` being the smallest ``-depth`` over the balls (how far ``x`` is from
    the nearest firing region). A point deep in a ball thus ranks beyond one near its surface,
    and a point left to the default scores closer to 0 than any point a ball decides, which
    makes ranking (ROC AUC) meaningful. No decision is taken on these floats: the sign comes
    from the same strict comparisons as ``predict``.
    ``predict_proba`` is the Laplace-corrected class frequency ``(n_c + 1) / (n + 2)`` of the
    training examples in the point's cell (``cell_counts_``: the first ball that fires, or the
    default). Its argmax is usually ``predict``, but not always: with small penalties a ball
    may err on more training examples than it covers, and the examples that reach the default
    can be mostly of the other class; a cell no training example reached gets ``1/2, 1/2``.

    **Reading the model.** ``to_text()`` prints each ball by its centre's feature values,
    ``if ||x - (age=54, income=3100)||_2 < 5.4 then 'benign'``; with more than ``max_inline``
    features the balls are named ``c1, c2, ...`` and a table of the centres follows.
    :meth:`balls_frame` gives the same as a DataFrame, and ``rules_frame(X, y)`` one row per
    ball plus the default (a ball *decides* the rows on which it is the first to fire) with
    the rows it decides and its errors. In a pipeline, the names (and units) are those of the
    step before: :func:`companion.interpretable.pipeline_text`.

    **Sample weights.** A weight is a number of copies: the greedy's covered and erred
    counts are sums of weights, an integer weight gives exactly the machine that duplicated
    rows give and a weight 0 the machine without the row (see :meth:`fit`).

    **Exported model.** ``to_dict()["model"]`` holds ``metric`` (the SciPy ``cdist`` name),
    ``columns`` (the input columns' names), ``balls`` (in list order, each with ``kind``,
    ``centre`` — a ``{column: value}`` mapping, in the input's units —, ``radius``, ``fires``
    — ``"inside"``: ``d(x, centre) < radius``, ``"outside"``: ``>`` —, ``output`` — the class
    label given where it decides —, and the training rows ``centre_index``/``border_index``),
    ``default_class``, ``fitted_n_balls`` (per prefix, for ``staged_predict``),
    ``cell_counts``, and ``fallback_class`` only when a ``fallback="inner_cv"`` fit fell back
    (the class it fell back to; the model then has no ball). The balls and the default alone
    reproduce ``predict`` in another tool.

    Examples
    --------
    >>> from sklearn.datasets import make_moons
    >>> X, y = make_moons(200, noise=0.1, random_state=0)
    >>> dlm = DecisionListMachine(p_p=2.0, p_n=2.0, s=6).fit(X, y)
    >>> dlm.n_balls_ <= 6, len(list(dlm.staged_predict(X))) == dlm.n_balls_
    (True, True)
    >>> bool(((dlm.decision_function(X) > 0) == (dlm.predict(X) == 1)).all())
    True
    """

    _parameter_constraints: dict = {
        **_BallListBase._parameter_constraints,
        "p_p": [Interval(Real, 0, None, closed="both")],
        "p_n": [Interval(Real, 0, None, closed="both")],
        "ball_type": [StrOptions({"simple", "complex"})],
    }

    def __init__(
        self, *, p_p=1.0, p_n=1.0, s=10, ball_type="complex", metric="l2", scale="std", compression_constraint=False,
        stop_if_unchanged=True, class_weight=None, max_memory_gb=4.0, fallback="inner_cv",
    ):
        self.p_p = p_p
        self.p_n = p_n
        self.s = s
        self.ball_type = ball_type
        self.metric = metric
        self.scale = scale
        self.compression_constraint = compression_constraint
        self.stop_if_unchanged = stop_if_unchanged
        self.class_weight = class_weight
        self.max_memory_gb = max_memory_gb
        self.fallback = fallback

    def _learn(self, sd, y01, weights):
        types = ("Pi", "Ni") if self.ball_type == "simple" else BALL_TYPES
        return greedy_ball_list(
            sd,
            y01,
            p_p=_penalty(self.p_p),
            p_n=_penalty(self.p_n),
            types=types,
            max_balls=self.s,
            stop_when="either_empty",
            compression_constraint=bool(self.compression_constraint),
            sample_weight=weights,
            progress=type(self).__name__,
        )

    def _prefix_defaults(self, outputs):
        # Figure 1, step 6: b_{r+1} = not b_r, for every prefix length r.
        return 1 - np.asarray(outputs, dtype=int)


class BallSetCoveringMachine(_BallListBase):
    """Set Covering Machine with data-dependent balls (Marchand & Shawe-Taylor 2002, over paper 01's balls).

    A conjunction outputs ``classes_[1]`` unless one of its balls fires (each ball is a rule
    "fires → ``classes_[0]``": Ni and No balls, positive borders); a disjunction is the same with
    the classes swapped (Pi and Po balls, negative borders). Greedy: usefulness
    ``|Q| - p |R|`` (``Q`` covered examples of the class being covered, ``R`` errors on the other
    class), remove ``Q`` and ``R`` from the remaining examples, stop after ``s`` balls or when the
    covered class is exhausted.

    As for :class:`DecisionListMachine`, ties between equally useful balls are broken by a
    canonical order of the examples (lexicographic on features, then label), so the learnt list
    does not depend on the row order; the indices in ``balls_`` and ``compression_set_`` refer to
    the caller's rows.

    Parameters
    ----------
    p : float, default=1.0
        Penalty per error (``np.inf`` allowed).
    s : int or None, default=10
        Stopping point (largest number of balls).
    model_type : {"conjunction", "disjunction"}, default="conjunction"
    metric : str, default="l2"
    scale : {"std", None}, default="std"
        As for :class:`DecisionListMachine`: each column divided by its standard deviation
        (``scale_``), ``None`` for the input's own units (the paper's setting).
    compression_constraint : bool, default=False
        As for :class:`DecisionListMachine` (needed for :func:`companion.bounds.decision_list.scm_bound`).
    stop_if_unchanged : bool, default=True
        As for :class:`DecisionListMachine` (``False``: the SCM's own stopping rule, ``s`` balls
        or the covered class exhausted).
    class_weight : dict, "balanced" or None, default=None
        As for :class:`DecisionListMachine`.
    max_memory_gb : float or None, default=4.0
        As for :class:`DecisionListMachine`.
    fallback : {"inner_cv", None}, default="inner_cv"
        As for :class:`DecisionListMachine`: ``"inner_cv"`` (the default, for users' tables)
        keeps no ball and predicts the (weighted) majority class, ``fallback_class_``, printed
        ``always C`` with a :class:`companion.interpretable.SingleClassWarning`, when the
        machine does not beat it on 3 inner stratified folds
        (:func:`companion.interpretable.beats_default_class`). ``None``: the SCM's
        conjunction or disjunction as it is (no fallback), what notebook 01's reproduction of
        the paper uses (``companion.experiments.paper01`` passes ``fallback=None``).

    Attributes
    ----------
    complexity_ : int
        Size of the model: its literals, here one ball test each (``n_balls_``).
    Same as :class:`DecisionListMachine`.

    Notes
    -----
    **Units and scaling.** As for :class:`DecisionListMachine`: distances are in the input's
    units; scale first and tune, e.g. ``make_pipeline(StandardScaler(),
    BallSetCoveringMachine())`` with ``{"ballsetcoveringmachine__p": [0.5, 1, 2, 4],
    "ballsetcoveringmachine__s": [2, 5, 10, 20], "ballsetcoveringmachine__model_type":
    ["conjunction", "disjunction"], "ballsetcoveringmachine__metric": ["l2", "l1"]}``.
    10-fold CV error (nested selection as in :class:`DecisionListMachine`):

    =================================  =============  =====  ============
    10-fold CV error                   breast_cancer  sonar  credit (crx)
    =================================  =============  =====  ============
    defaults, raw features             0.104          0.351  0.328
    defaults, StandardScaler first     0.084          0.370  0.273
    StandardScaler + the grid above    0.033          0.221  0.239
    =================================  =============  =====  ============

    The search mostly chose disjunctions, ``p`` of 2-4.

    **Scores.** The order of the balls does not matter to a conjunction or a disjunction, so
    ``decision_function`` takes the deepest firing ball rather than the first: with ``depth``
    and ``escape`` as in :class:`DecisionListMachine`, a point on which some ball fires scores
    ``±(1 + max depth)`` (sign of the balls' common output: negative for a conjunction), one on
    which none fires ``±(1 + escape) / 2`` (the default's sign), ``escape`` measuring how far it
    lies from the nearest ball. ``predict`` is its sign. ``predict_proba`` is, as for the DLM,
    the Laplace-corrected class frequency of the training examples whose *first* firing ball is
    the point's (or that no ball fires: ``cell_counts_``), the cells of the list as learnt; its
    argmax is usually, not always, ``predict``.

    **Reading the model.** ``to_text()`` writes the machine as the equivalent decision list
    (``if ball 1 fires then classes_[0] else if ... else classes_[1]`` for a conjunction), each
    ball by its centre's feature values; :meth:`balls_frame` tabulates the balls and
    ``rules_frame(X, y)`` counts, per ball, the rows on which it is the first to fire.

    **Sample weights** and the **exported model** are as for :class:`DecisionListMachine`.

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> X, y = make_blobs(100, centers=[[0, 0], [4, 0]], random_state=0)
    >>> scm = BallSetCoveringMachine(p=1.0, s=3).fit(X, y)
    >>> bool((scm.predict(X) == y).mean() > 0.9)
    True
    >>> bool(((scm.decision_function(X) > 0) == (scm.predict(X) == 1)).all())
    True
    """

    _parameter_constraints: dict = {
        **_BallListBase._parameter_constraints,
        "p": [Interval(Real, 0, None, closed="both")],
        "model_type": [StrOptions({"conjunction", "disjunction"})],
    }

    def __init__(
        self, *, p=1.0, s=10, model_type="conjunction", metric="l2", scale="std", compression_constraint=False,
        stop_if_unchanged=True, class_weight=None, max_memory_gb=4.0, fallback="inner_cv",
    ):
        self.p = p
        self.s = s
        self.model_type = model_type
        self.metric = metric
        self.scale = scale
        self.compression_constraint = compression_constraint
        self.stop_if_unchanged = stop_if_unchanged
        self.class_weight = class_weight
        self.max_memory_gb = max_memory_gb
        self.fallback = fallback

    def _learn(self, sd, y01, weights):
        if self.model_type == "conjunction":
            types, stop, p_p, p_n = ("Ni", "No"), "negatives_empty", _penalty(self.p), 1.0
        else:
            types, stop, p_p, p_n = ("Pi", "Po"), "positives_empty", 1.0, _penalty(self.p)
        return greedy_ball_list(
            sd,
            y01,
            p_p=p_p,
            p_n=p_n,
            types=types,
            max_balls=self.s,
            stop_when=stop,
            compression_constraint=bool(self.compression_constraint),
            sample_weight=weights,
            progress=type(self).__name__,
        )

    _any_ball_decides = True

    def _prefix_defaults(self, outputs):
        default = 1 if self.model_type == "conjunction" else 0
        return np.full(len(outputs), default, dtype=int)


# --------------------------------------------------------------------------------------------
# The reconstruction function of Section 4 (learner code: the bounds in
# companion.bounds.decision_list only count the message it reads)
# --------------------------------------------------------------------------------------------

__all__ += ["ReconstructedList", "reconstruct_decision_list"]


@dataclass(frozen=True)
class ReconstructedList:
    """A decision list of balls rebuilt from a compression message (Section 4).

    Parameters
    ----------
    centres : ndarray of shape (r, n_features)
        The balls' centres, in list order.
    radii : ndarray of shape (r,)
        Their radii.
    inside : ndarray of bool, shape (r,)
        True where the ball fires strictly inside its radius, False strictly outside.
    outputs : ndarray of int, shape (r,)
        The output (1 positive, 0 negative) of each ball.
    default : int
        The output when no ball fires.
    metric : str
        The ``cdist`` metric of the distances.
    """

    centres: np.ndarray
    radii: np.ndarray
    inside: np.ndarray
    outputs: np.ndarray
    default: int
    metric: str

    def predict01(self, X) -> np.ndarray:
        """Outputs (1 = positive) of the rebuilt list on the rows of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points in the units of the compression set.

        Returns
        -------
        ndarray of int, shape (n_samples,)
            The output of the first ball that fires, else the default.
        """
        X = np.asarray(X, dtype=float)
        if len(self.radii) == 0:
            return np.full(len(X), self.default)
        distances = cdist(X, self.centres, metric=self.metric)
        fires = np.where(self.inside, distances < self.radii, distances > self.radii)
        defaults = 1 - self.outputs
        return decision_list_path_predictions(fires, self.outputs, defaults)[-1]


class _HasAttributes(HasMethods):
    """scikit-learn's ``HasMethods`` constraint for data attributes: an object that has them all.

    A compression message is read by its attributes, whatever its class (this module does not
    import the bounds that define :class:`companion.bounds.decision_list.CompressionMessage`).
    """

    def is_satisfied_by(self, val):
        return all(hasattr(val, name) for name in self.methods)

    def __str__(self):
        return f"an object with the attributes {', '.join(map(repr, self.methods))}"


@validate_params(
    {"message": [_HasAttributes(["X", "y", "is_centre", "balls"])], "metric": [str]},
    prefer_skip_nested_validation=True,
)
def reconstruct_decision_list(message, metric="l2") -> ReconstructedList:
    """Rebuild the decision list from its compression set (Section 4's reconstruction function).

    Start with ``C'_p, C'_n, B'_p, B'_n`` = the compression set's centres and borders; for each
    ball in order, centred on ``x_i``:

    * inside (Pi if ``x_i`` positive, Ni if negative): radius ``min d(x_i, x_j)`` over the
      remaining compression examples of the other class, rule fires on ``d < radius``;
    * outside (No if ``x_i`` positive, Po if negative): radius ``max d(x_i, x_j)`` over the
      remaining compression examples of its own class, rule fires on ``d > radius``;
    * output 1 for Pi/Po, 0 for Ni/No; then every remaining compression example on which the rule
      fires (the Pi/Ni centre among them) is removed from ``C'`` and ``B'``.

    The paper removes only the centre and the covered ``B'`` examples; removing covered ``C'``
    examples as well changes nothing with Pi/Ni balls (a covered example cannot be a later centre)
    and is what keeps a Po/No centre that was later covered out of later radii (our reading of
    "the same proof can be used" for Theorem 2). The default is ``not b_r``.

    Parameters
    ----------
    message : CompressionMessage
        A :class:`companion.bounds.decision_list.CompressionMessage` (or any object with its
        attributes ``X``, ``y``, ``is_centre``, ``balls``), e.g. from
        :func:`companion.bounds.decision_list.compression_message`.
    metric : str, default="l2"
        The metric of the distances (as for :class:`DecisionListMachine`).

    Returns
    -------
    ReconstructedList
        The rebuilt list.
    """
    metric = resolve_metric(metric)
    X = np.asarray(message.X, dtype=float)
    y = np.asarray(message.y, dtype=int)
    remaining = np.ones(len(X), dtype=bool)
    centres, radii, inside, outputs = [], [], [], []
    for row, covers_inside in message.balls:
        if not message.is_centre[row]:
            raise ValueError(f"ball centre {row} is not marked as a centre in the compression set")
        distances = cdist(X[row : row + 1], X, metric=metric)[0]
        centre_positive = y[row] == 1
        if covers_inside:
            reference = remaining & (y != y[row])
            radius = distances[reference].min()
            fires = distances < radius
            output = 1 if centre_positive else 0
        else:
            reference = remaining & (y == y[row])
            radius = distances[reference].max()
            fires = distances > radius
            output = 0 if centre_positive else 1
        remaining &= ~fires
        centres.append(X[row])
        radii.append(radius)
        inside.append(bool(covers_inside))
        outputs.append(output)
    n_features = X.shape[1] if X.ndim == 2 else 0
    outputs = np.array(outputs, dtype=int)
    return ReconstructedList(
        centres=np.array(centres, dtype=float).reshape(len(radii), n_features),
        radii=np.array(radii, dtype=float),
        inside=np.array(inside, dtype=bool),
        outputs=outputs,
        default=int(1 - outputs[-1]) if len(outputs) else 0,
        metric=metric,
    )
