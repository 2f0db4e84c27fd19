"""The baselines the papers compare against, shared by every notebook that needs one.

None of these is a paper's own method; they live here, by concern, so that a paper module never
grows its own copy:

* :class:`PrunedDecisionTree` — one pruned CART tree: pruned exactly to ``leaf_cost·#leaves +
  #errors`` (paper 03's tree), or by scikit-learn's cost-complexity path with ``ccp_alpha``
  chosen by inner cross-validation (paper 04's "Others");
* :class:`OrderedRipper` — multi-class RIPPER as JRip orders it, from the binary learner of the
  optional dependency ``wittgenstein`` (papers 02 and 04);
* :class:`OneR` — Holte's one-attribute rule (paper 02's Weka baseline);
* :func:`tree_leaf_paths` — the one reading of a fitted scikit-learn tree as leaf rules (papers 02,
  03, 04: a leaf is the conjunction of the tests on its path).

ZeroR, the other Weka baseline, is scikit-learn's ``DummyClassifier(strategy="most_frequent")``.

>>> from companion.datasets import load_contact_lenses
>>> X, y = load_contact_lenses()
>>> print(OneR().fit(X, y).to_text())
tear-prod-rate = reduced -> none
tear-prod-rate = normal -> soft
>>> OneR().fit(X, y).predict_proba(X.iloc[[0]]).round(3).tolist()  # reduced: 12 none of 12
[[0.067, 0.867, 0.067]]
"""

from __future__ import annotations

import math
import re
import warnings
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.model_selection import StratifiedKFold
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from sklearn.tree._tree import Tree
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils._param_validation import Interval, StrOptions, validate_params
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.validation import _check_sample_weight, check_array, check_is_fitted, check_X_y, validate_data

from companion._weights import check_sample_weight
from companion._scale import check_learner_scale, column_exponents
from companion._learner_support import canonical_row_order, format_number, laplace_proba, resolve_feature_names
from companion.interpretable import InterpretableMixin, beats_default_class
from companion._learner_support import fallback_check_running
from companion._ripper import fit_binary_ripper, predict_binary_ripper
from companion._nominal_encoding import (
    ENCODING_PARAMETER_CONSTRAINTS,
    NominalEncoding,
    fit_nominal_encoding,
    nominal_codes,
    nominal_input_tags,
    positive_weight_rows,
)
from companion.preprocessing import FrameEncoder, MDLDiscretizer
from companion.numerics import TIE_RTOL, first_near_min

__all__ = ["LeafPath", "tree_leaf_paths", "PrunedDecisionTree", "OrderedRipper", "OneR"]

#: Pruning rules of :class:`PrunedDecisionTree`.
PRUNINGS = ("errors", "cost_complexity_cv", "cost_complexity_1se")
#: Inner folds of the cost-complexity prunings (fewer when the rarest class is smaller).
_INNER_FOLDS = 5


# --------------------------------------------------------------------------------------------
# A fitted tree read as leaf rules
# --------------------------------------------------------------------------------------------


class LeafPath(NamedTuple):
    """One leaf of a fitted scikit-learn tree and the tests on its root-to-leaf path.

    ``conditions`` holds ``(feature, op, threshold)`` triples from the root down, ``op`` being
    ``"<="`` (the left branch, as scikit-learn splits) or ``">"``; ``depth`` is their number.

    Parameters
    ----------
    node : int
        The leaf's node id in the tree.
    conditions : tuple of (int, str, float)
        The tests on the path, root first.
    """

    node: int
    conditions: tuple

    @property
    def depth(self) -> int:
        return len(self.conditions)


# Nested validation stays on, as for any function that takes an estimator.
@validate_params(
    {"tree": [DecisionTreeClassifier, DecisionTreeRegressor, Tree], "cut": ["array-like", None]},
    prefer_skip_nested_validation=False,
)
def tree_leaf_paths(tree, *, cut=None) -> list[LeafPath]:
    """The leaves of a fitted scikit-learn tree, left to right, each with its path's tests.

    Parameters
    ----------
    tree : fitted ``DecisionTreeClassifier``/``DecisionTreeRegressor`` or its ``tree_``
    cut : boolean array of shape (n_nodes,), optional
        Nodes read as leaves although they split (a pruned subtree: the walk stops there).

    Returns
    -------
    list of LeafPath
        In depth-first order, left child first, i.e. the leaves from left to right (the order of
        ``plot_tree`` and of scikit-learn's node ids among leaves).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 0], [1, 1]])
    >>> tree = DecisionTreeClassifier(random_state=0).fit(X, X[:, 0] & X[:, 1])  # x1 splits first
    >>> [(leaf.node, leaf.depth) for leaf in tree_leaf_paths(tree)]
    [(1, 1), (3, 2), (4, 2)]
    >>> tree_leaf_paths(tree)[1].conditions
    ((1, '>', 0.5), (0, '<=', 0.5))
    """
    structure = getattr(tree, "tree_", tree)
    left, right = structure.children_left, structure.children_right
    paths, stack = [], [(0, ())]
    while stack:
        node, conditions = stack.pop()
        if left[node] == -1 or (cut is not None and cut[node]):
            paths.append(LeafPath(int(node), conditions))
            continue
        feature, threshold = int(structure.feature[node]), float(structure.threshold[node])
        # Pushed right first so that the left subtree is walked first.
        stack.append((right[node], conditions + ((feature, ">", threshold),)))
        stack.append((left[node], conditions + ((feature, "<=", threshold),)))
    return paths


def leaf_monomial(conditions, n_variables: int) -> tuple[int, ...]:
    """A leaf of a tree on 0/1 inputs as a monomial on the complemented inputs (paper 03 §2).

    ``x_j <= 0.5`` (left) is the literal ``¬x_j``, column ``j + n_variables``; ``x_j > 0.5`` is
    ``x_j``, column ``j``. Returned sorted.
    """
    return tuple(sorted(f + n_variables if op == "<=" else f for f, op, _ in conditions))


def _missing_routes(tree, leaves) -> list[tuple[bool, ...]]:
    """Per leaf, per condition on its path (root first): whether a missing value satisfies it.

    scikit-learn's tree sends a missing value left at a node when ``missing_go_to_left`` says
    so (learnt at fit; to the larger child where no missing value was seen).
    """
    left, right = tree.children_left, tree.children_right
    parent = np.full(tree.node_count, -1, dtype=np.intp)
    is_left = np.zeros(tree.node_count, dtype=bool)
    inner = np.flatnonzero(left != -1)
    parent[left[inner]] = inner
    parent[right[inner]] = inner
    is_left[left[inner]] = True
    go_left = np.asarray(getattr(tree, "missing_go_to_left", np.zeros(tree.node_count)), dtype=bool)
    routes = []
    for leaf in leaves:
        route, node = [], int(leaf)
        while parent[node] >= 0:
            route.append(bool(go_left[parent[node]]) == bool(is_left[node]))
            node = int(parent[node])
        routes.append(tuple(route[::-1]))
    return routes


def _whole(value):
    """``value`` as an int when it is a whole number (unit or integer weights), else as a float."""
    value = float(value)
    return int(round(value)) if value == round(value) else value


# --------------------------------------------------------------------------------------------
# One pruned CART tree
# --------------------------------------------------------------------------------------------


def _cost_complexity_alpha(X, y, sample_weight, *, max_depth, criterion, random_state, max_alphas, one_se=False):
    """``ccp_alpha`` of least inner-CV error among at most ``max_alphas`` values of the path;
    ``one_se``: the largest ``ccp_alpha`` (the smallest tree) whose inner-CV error is within one
    standard error of the least (CART's one-standard-error rule)."""
    grower = DecisionTreeClassifier(max_depth=max_depth, criterion=criterion, random_state=random_state)
    path = grower.cost_complexity_pruning_path(X, y, sample_weight=sample_weight)
    alphas = np.unique(path.ccp_alphas[:-1]) if len(path.ccp_alphas) > 1 else np.array([0.0])
    if len(alphas) > max_alphas:
        alphas = np.unique(np.quantile(alphas, np.linspace(0, 1, max_alphas)))
    n_splits = int(min(_INNER_FOLDS, np.bincount(y).min()))
    if n_splits < 2 or len(alphas) == 1:
        return 0.0
    if one_se:
        # The default's folds are cut from the rows' canonical order (their content and label,
        # numeric columns by rank), as the fallback check's: the same tree whatever the order of
        # the rows, at any positive scale of a column, and with random_state=None (whose draws
        # then only break ties between equally good splits).
        canonical = canonical_row_order(X, y)
        splits = [(np.sort(canonical[train]), np.sort(canonical[test])) for train, test in
                  StratifiedKFold(n_splits=n_splits).split(np.zeros((len(y), 1)), y[canonical])]
    else:
        splits = list(StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=random_state).split(X, y))
    # The criterion is the sum over inner folds of the fold error rates (weighted errors over the
    # fold's weight). With integer weights (unit weights included) it is accumulated exactly in
    # Python integers as multiples of 1 / lcm(n_f): equal criteria are equal numbers (a float sum
    # of rates can break such a tie in its last bit).
    integer = bool(np.all(sample_weight == np.round(sample_weight)))
    totals = [float(sample_weight[test].sum()) for _, test in splits]
    exact = integer and all(t > 0 for t in totals)
    common = math.lcm(*(int(t) for t in totals)) if exact else 1
    errors = [0] * len(alphas)
    # A fit at ccp_alpha grows the unpruned tree, which does not depend on ccp_alpha, and then
    # prunes it (DecisionTreeClassifier._prune_tree). With an int seed every grow is the same
    # tree, so it is grown once per inner fold and pruned at each alpha: the trees a fit per
    # alpha gives (tests/test_baselines.py checks it). A RandomState or None draws a new seed at
    # every fit: there each alpha keeps its own fit.
    regrow = not isinstance(random_state, Integral)
    for (train, test), total in zip(splits, totals):
        X_train, y_train, w_train, X_test = X[train], y[train], sample_weight[train], X[test]
        model = DecisionTreeClassifier(max_depth=max_depth, criterion=criterion, random_state=random_state)
        grown = None if regrow else model.fit(X_train, y_train, sample_weight=w_train).tree_
        for k, alpha in enumerate(alphas):
            model.ccp_alpha = alpha
            if regrow:
                model.fit(X_train, y_train, sample_weight=w_train)
            else:
                model.tree_ = grown
                model._prune_tree()
            wrong = float(sample_weight[test][model.predict(X_test) != y[test]].sum())
            if exact:
                errors[k] += int(wrong) * (common // int(total))
            elif total > 0:
                errors[k] += wrong / total
    if one_se:
        # CART's one-standard-error rule (Breiman, Friedman, Olshen & Stone 1984, Sec. 3.4.3):
        # the mean inner-fold error rate e of each alpha (exact numbers over a common denominator
        # turned into one float each, so equal criteria are equal floats); the least e_min plus
        # its binomial standard error sqrt(e_min (1 - e_min) / n) over the n rows (or weight)
        # held out bounds the largest alpha kept. A tie at the bound keeps the larger alpha.
        rates = [float(e) / (common * len(splits)) for e in errors]
        least = min(rates)
        bound = least + math.sqrt(least * (1.0 - least) / sum(totals))
        return float(alphas[max(k for k, rate in enumerate(rates) if rate <= bound)])
    # Ties: the first, i.e. the smallest alpha (the largest tree) of least inner-CV error.
    return float(alphas[errors.index(min(errors))])


class PrunedDecisionTree(InterpretableMixin, ClassifierMixin, BaseEstimator):
    """A CART tree grown fully, then pruned by one of three rules (papers 03 and 04; users' default).

    ``pruning="errors"`` (paper 03 §5): the subtree minimising ``leaf_cost·#leaves + #errors``.
    With ``leaf_cost = 1`` it minimises the tree's regularised risk ``R = #leaves + #errors``
    (Eq. 8 with λ = 4, c ≡ 1), which is CART's cost-complexity ``#errors + α·#leaves`` at
    ``α = 1``; by Breiman et al.'s theorem the minimiser over all pruned subtrees lies on the
    (misclassification-cost) cost-complexity path. It is found exactly by the bottom-up recursion
    ``best(node) = min(leaf_cost + errors(node), best(left) + best(right))``; a tie keeps the
    leaf (the smaller tree).

    ``pruning="cost_complexity_cv"`` (paper 04's CART among the "Others"): scikit-learn's
    cost-complexity pruning (impurity-based), ``ccp_alpha`` chosen by stratified inner
    ``min(5, rarest class)``-fold CV (shuffled with ``random_state``) among at most
    ``max_alphas`` values of the pruning path (its quantiles when longer). The criterion, the
    sum of the inner-fold error rates, is compared exactly (integer error counts over a common
    denominator); ties go to the smallest ``alpha``. ``leaf_cost`` is not used.

    ``pruning="cost_complexity_1se"`` (the default, for users' tables): the same path, inner folds
    cut from the rows' canonical order (by content and label, numeric columns by rank, as the
    fallback check's: the same tree whatever the rows' order or a column's positive scale, and
    with ``random_state=None``), and CART's one-standard-error rule (Breiman, Friedman, Olshen &
    Stone 1984, Sec. 3.4.3):
    the largest ``alpha`` (the smallest tree) whose mean inner-fold error rate is within one
    binomial standard error ``sqrt(e (1 - e) / n)`` of the least ``e``. Measured on the nine R
    tables of ``benchmarks/learner_defaults.py`` (5 x 5-fold CV): the trees' mean size 60.5 -> 13.9
    literals against ``"errors"`` (mroz 312 -> 70, titanic 115 -> 10, crabs 51 -> 36), mean
    accuracy 0.784 -> 0.779 (stagec +3.6 points, crabs -2.5, melanoma -2.5, infert -1.6, the
    others within 0.5). ``"errors"`` (paper 03) and
    ``"cost_complexity_cv"`` (paper 04) are the papers' settings, which their notebooks pass. Missing values
    (NaN) are routed by scikit-learn's tree.

    Scores: :meth:`predict_proba` is the Laplace-corrected class frequency ``(n_c + 1)/(n + k)`` of
    the training examples in the pruned leaf an example reaches (``k`` classes; every pruned leaf
    holds training examples), and :meth:`predict` is its argmax (the leaf's majority; a tie goes to
    the first class of ``classes_``). :meth:`decision_function` is, for two classes,
    ``P(classes_[1]) − P(classes_[0]) = (n_1 − n_0)/(n + 2)``, exact in sign and positive iff
    ``predict`` says ``classes_[1]``; for more classes it is ``predict_proba`` itself.
    Any number of classes. Numbers, with NaN for a missing value (routed by scikit-learn's tree,
    in both pruning modes); nominal columns (read by the package's one rule: a DataFrame's
    category, bool, object and string columns) are one-hot encoded first, a missing nominal
    cell being NaN in every indicator. ``to_text(decimals=None)`` names the columns by
    ``feature_names_in_`` (else ``x0, x1, ...``).

    **Weights.** ``sample_weight`` are frequencies: an example of weight ``w`` counts as ``w``
    examples in the split criterion, in the errors the pruning counts and in ``cell_counts_``,
    so integer weights give the tree that duplicating the rows gives and zero weights the tree
    that dropping them gives (``pruning="errors"``; the inner folds of the
    cost-complexity prunings, the default's among them, split rows, not weights). ``class_weight`` (``"balanced"`` or a
    dict) multiplies them, as the pruning minimises a count of errors.

    **Exported model** (``to_dict()["model"]``): ``leaves`` (one per pruned leaf, right to left:
    ``conditions`` as ``[column, "<=" or ">", threshold]`` on the encoded columns,
    ``missing_satisfies`` per condition, ``class`` (index in ``classes``), ``counts``),
    ``n_encoded_features``, ``ccp_alpha``, ``n_errors``, and ``encoder`` (``nominal`` mask and
    ``categories`` of the one-hot encoder, or null). The rebuilt model predicts from the leaves'
    conditions (it has no ``full_tree_``; ``leaves_`` becomes ``0 .. n_leaves - 1``).
    ``rules_frame`` has one row per pruned leaf; a leaf decides the rows that reach it.

    Parameters
    ----------
    max_depth : int or None, default=None
        Depth limit of the grown tree (``d`` of the class DT_{d,n}).
    leaf_cost : float, default=1.0
        ``pruning="errors"``: cost of a leaf in errors (``λ/4`` for weights ``c ≡ 1``); 0 keeps
        the full tree.
    criterion : {"gini", "entropy", "log_loss"}, default="gini"
        Split criterion used to grow the tree.
    pruning : {"errors", "cost_complexity_cv", "cost_complexity_1se"}, default="cost_complexity_1se"
        The pruning rule (see above). The default was ``"errors"`` before issue 58 (a tree of
        hundreds of literals on a table of a few hundred rows); notebook 03 passes it.
    max_alphas : int, default=8
        Cost-complexity prunings: most values of ``ccp_alpha`` tried, to bound the cost.
    fallback : {"inner_cv", None}, default="inner_cv"
        ``"inner_cv"``: the pruned tree must beat the default class (the most frequent) on 3
        inner stratified folds (:func:`companion.interpretable.beats_default_class`), else it is
        pruned to its root, the default class, and a
        :class:`companion.interpretable.SingleClassWarning` says so (the pruning's own error
        count sees the training rows only, and on a table with little signal a tree that fits
        them loses to the majority class on new rows). ``None``: the pruned tree as it is, the
        papers' baseline (notebooks 03 and 04 pass it).
    class_weight : None, "balanced" or dict, default=None
        Weights of the classes, multiplied into ``sample_weight`` (``"balanced"``:
        ``n_samples / (n_classes * count of the class)``).
    random_state : int, RandomState or None, default=None
        Tie-breaking between equally good splits, and the inner folds' shuffle (scikit-learn's
        convention: ``None`` draws it afresh at every fit; pass an int for repeatable trees, as
        the notebooks do).

    Attributes
    ----------
    classes_ : ndarray
    full_tree_ : DecisionTreeClassifier
        The grown tree: unpruned for ``"errors"``, already pruned at ``ccp_alpha_`` otherwise.
    ccp_alpha_ : float
        The chosen ``ccp_alpha`` (``0.0`` for ``"errors"``).
    n_leaves_ : int
        Leaves of the pruned tree (its leaf rules).
    n_literals_ : int
        Tests on the leaf rules' paths, i.e. the sum of the leaf depths (paper 04's tree size).
    complexity_ : int
        ``n_literals_``: the conditions :meth:`to_text` shows.
    depth_ : int
        Depth of the pruned tree.
    n_errors_ : int
        Training errors of the pruned tree.
    risk_ : float
        ``leaf_cost·n_leaves_ + n_errors_`` (for ``leaf_cost = 1``: paper 03's Table 1 tree risk).
    cell_counts_ : ndarray of shape (n_leaves, n_classes)
        Weighted training examples of each class (columns: ``classes_``) in each pruned leaf
        (rows in ``leaves_`` order): what :meth:`predict_proba` reads. Integers under integer
        weights.
    leaf_class_ : ndarray of int
        Index in ``classes_`` of each pruned leaf's prediction (its weighted majority).
    leaf_missing_ : list of tuple of bool
        Per pruned leaf, per condition of ``leaf_conditions_``: whether a missing value
        satisfies it (the way scikit-learn's tree routes it).
    encoder_ : FrameEncoder or None
        The one-hot encoder of the nominal input columns (None when every column is numeric);
        the conditions test its output columns (``n_encoded_features_`` of them).
    leaves_ : ndarray
        Node ids of the pruned leaves, from right to left (the order of ``leaf_monomials_``,
        ``leaf_signs_``, ``leaf_depths_`` and ``leaf_conditions_``; paper 03's numbers were
        computed in it).
    leaf_monomials_, leaf_signs_ : list, ndarray
        For binary 0/1 inputs: each pruned leaf as a conjunction of literals on the complemented
        inputs (column ``j + n`` is ``¬x_j``) with sign ``+1`` for ``classes_[1]`` — the tree as a
        member of DT_{d,n} (paper 03 §2).
    """

    def __init__(
        self, *, max_depth=None, leaf_cost=1.0, criterion="gini", pruning="cost_complexity_1se", max_alphas=8,
        class_weight=None, random_state=None, fallback="inner_cv",
    ):
        self.max_depth = max_depth
        self.leaf_cost = leaf_cost
        self.criterion = criterion
        self.pruning = pruning
        self.max_alphas = max_alphas
        self.class_weight = class_weight
        self.fallback = fallback
        self.random_state = random_state

    #: max |X| scikit-learn's float32 trees handle (companion._scale)
    _scale_range = {"low": 2.0**-16, "high": 2.0**120, "why": "scikit-learn's trees split only between values more than 1e-7 apart and work in float32"}
    _parameter_constraints = {
        "max_depth": [Interval(Integral, 1, None, closed="left"), None],
        "leaf_cost": [Interval(Real, 0, None, closed="left")],
        "criterion": [StrOptions({"gini", "entropy", "log_loss"})],
        "pruning": [StrOptions(set(PRUNINGS))],
        "max_alphas": [Interval(Integral, 1, None, closed="left")],
        "class_weight": [None, StrOptions({"balanced"}), dict],
        "random_state": ["random_state"],
        "fallback": [StrOptions({"inner_cv"}), None],
    }

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.string = tags.input_tags.categorical = True
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Grow the CART tree on ``(X, y)`` and prune it by ``pruning``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Numbers (NaN = missing, routed by scikit-learn's tree); the nominal columns (a
            DataFrame's category, bool, object and string columns, an array's columns of
            non-numbers) are one-hot encoded first (:class:`companion.preprocessing.FrameEncoder`).
        y : array-like of shape (n_samples,)
            Class labels of any type.
        sample_weight : array-like of shape (n_samples,), optional
            Frequency weights: an example of weight ``w`` counts as ``w`` examples in the split
            criterion, the leaf counts, the errors the pruning counts and ``cell_counts_``.

        Returns
        -------
        self : PrunedDecisionTree
        """
        check_sample_weight(self, sample_weight, X)  # one refusal for every learner (companion._weights)
        check_learner_scale(self, X)  # the input scale its arithmetic handles (companion._scale)
        if not isinstance(X, pd.DataFrame):
            X = check_array(X, dtype=None, ensure_all_finite="allow-nan")
        validate_data(self, X, skip_check_array=True)
        raw_X, raw_weight = X, sample_weight
        encoder = FrameEncoder(encoding="onehot").fit(X)
        self.encoder_ = encoder if encoder.nominal_.any() else None
        if self.encoder_ is not None:
            X = self.encoder_.transform(X)
            if X.shape[1] == 0:  # check_X_y would report "0 feature(s)", naming neither the learner nor the cause
                raise ValueError(
                    f"PrunedDecisionTree: every cell of X is missing (None or NaN in all {raw_X.shape[1]} "
                    "column(s)): there is no value to split on"
                )
        X, y = check_X_y(X, y, dtype=np.float64, ensure_all_finite="allow-nan")
        check_classification_targets(y)
        sample_weight = _check_sample_weight(sample_weight, X, dtype=np.float64)
        if self.class_weight is not None:
            sample_weight = sample_weight * compute_sample_weight(self.class_weight, y)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        self.ccp_alpha_ = 0.0
        if self.pruning in ("cost_complexity_cv", "cost_complexity_1se"):
            self.ccp_alpha_ = _cost_complexity_alpha(
                X, y_index, sample_weight, max_depth=self.max_depth, criterion=self.criterion,
                random_state=self.random_state, max_alphas=int(self.max_alphas),
                one_se=self.pruning == "cost_complexity_1se",
            )
        self.full_tree_ = DecisionTreeClassifier(
            max_depth=self.max_depth, criterion=self.criterion, random_state=self.random_state,
            ccp_alpha=self.ccp_alpha_,
        ).fit(X, y_index, sample_weight=sample_weight)
        tree = self.full_tree_.tree_
        n_nodes = tree.node_count
        # Weighted class counts of the training examples reaching each node, from the decision path.
        paths = self.full_tree_.decision_path(X)
        one_hot = np.eye(self.classes_.size)[y_index] * sample_weight[:, None]
        counts = np.asarray(paths.T @ one_hot)
        if np.all(sample_weight == np.round(sample_weight)):
            counts = np.rint(counts).astype(np.int64)  # sums of whole weights: whole numbers
        node_class = np.argmax(counts, axis=1)
        leaf_errors = counts.sum(axis=1) - counts.max(axis=1)
        left, right = tree.children_left, tree.children_right
        keep_split = left != -1
        if self.pruning == "errors":
            # Nodes are numbered in depth-first preorder, so children come after parents: a
            # reverse sweep over nodes sees both children before their parent.
            best = np.zeros(n_nodes)
            for node in range(n_nodes - 1, -1, -1):
                as_leaf = self.leaf_cost + leaf_errors[node]
                if left[node] == -1:
                    best[node] = as_leaf
                else:
                    split = best[left[node]] + best[right[node]]
                    keep_split[node] = split < as_leaf
                    best[node] = split if keep_split[node] else as_leaf
        fell_back = False
        if (self.fallback == "inner_cv" and keep_split.any() and not fallback_check_running()
                and not beats_default_class(self, raw_X, y, raw_weight)):
            keep_split[:] = False  # the root alone: the default class
            fell_back = True
        leaves = tree_leaf_paths(tree, cut=~keep_split)[::-1]
        self.leaves_ = np.array([leaf.node for leaf in leaves])
        self.leaf_conditions_ = [leaf.conditions for leaf in leaves]
        self.leaf_missing_ = _missing_routes(tree, self.leaves_)
        self.leaf_monomials_ = [leaf_monomial(leaf.conditions, X.shape[1]) for leaf in leaves]
        self.leaf_depths_ = np.array([leaf.depth for leaf in leaves])
        self.leaf_class_ = node_class[self.leaves_]
        self.n_encoded_features_ = X.shape[1]
        self.cell_counts_ = counts[self.leaves_]
        self._set_sizes()
        self.n_errors_ = _whole(leaf_errors[self.leaves_].sum())
        self.risk_ = float(self.leaf_cost * self.n_leaves_ + self.n_errors_)
        # The class each training row's leaf predicts: one class everywhere warns.
        reached = self._leaf_decisions(X.astype(np.float32).astype(np.float64)).argmax(axis=1)
        self._check_single_class(
            None, predictions=self.classes_[self.leaf_class_[reached]],
            reason=" (the pruned tree did not beat it on inner folds: it was pruned to its root)" if fell_back else "",
        )
        return self

    def _set_sizes(self):
        """The size attributes, from the leaves."""
        self.n_leaves_ = len(self.leaves_)
        self.n_literals_ = int(self.leaf_depths_.sum())
        self.complexity_ = self.n_literals_
        self.depth_ = int(self.leaf_depths_.max())
        self.leaf_signs_ = np.where(self.leaf_class_ == 1, 1.0, -1.0)

    def _reached(self, X):
        """Position in ``leaves_`` of the pruned leaf each row of ``X`` reaches."""
        check_is_fitted(self)
        if not isinstance(X, pd.DataFrame):
            X = check_array(X, dtype=None, ensure_all_finite="allow-nan")
        validate_data(self, X, skip_check_array=True, reset=False)
        if self.encoder_ is not None:
            X = self.encoder_.transform(X)
        # scikit-learn's tree compares float32 inputs with float64 thresholds: the same rounding here,
        # or a value between a float32 and its float64 would take the other branch.
        X = check_array(X, dtype=np.float32, ensure_all_finite="allow-nan").astype(np.float64)
        return self._leaf_decisions(X).argmax(axis=1)

    def _leaf_decisions(self, X):
        """``decided[i, k]``: encoded row ``i`` satisfies every condition of leaf ``k`` (exactly one ``k``).

        A missing value goes the way scikit-learn's tree sent it (``leaf_missing_``).
        """
        decided = np.ones((X.shape[0], len(self.leaf_conditions_)), dtype=bool)
        for k, (conditions, missing) in enumerate(zip(self.leaf_conditions_, self.leaf_missing_)):
            for (feature, op, threshold), nan_goes in zip(conditions, missing):
                column = X[:, feature]
                with np.errstate(invalid="ignore"):
                    holds = column <= threshold if op == "<=" else column > threshold
                decided[:, k] &= np.where(np.isnan(column), nan_goes, holds)
        return decided

    def predict(self, X):
        """Class of the pruned leaf reached by each row of ``X`` (its training majority).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        reached = self._reached(X)  # first: it raises NotFittedError before fit
        return self.classes_[self.leaf_class_[reached]]

    def predict_proba(self, X):
        """Laplace-corrected class frequencies ``(n_c + 1)/(n + k)`` of the reached pruned leaf.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns in ``classes_`` order; :meth:`predict` is the argmax (ties: the first class).
        """
        reached = self._reached(X)
        return laplace_proba(self.cell_counts_[reached])

    def decision_function(self, X):
        """Two classes: ``(n_1 − n_0)/(n + 2)`` of the reached leaf, positive iff ``classes_[1]`` is predicted.

        It is ``predict_proba[:, 1] − predict_proba[:, 0]``, computed from the integer counts so
        that equal counts give exactly 0 (predicted ``classes_[0]``, as :meth:`predict` does).
        With more (or fewer) than two classes: :meth:`predict_proba`, whose argmax is ``predict``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Columns as at fit time.

        Returns
        -------
        ndarray of shape (n_samples,) for two classes, else (n_samples, n_classes)
        """
        reached = self._reached(X)
        counts = self.cell_counts_[reached]
        if self.classes_.size != 2:
            return laplace_proba(counts)
        return (counts[:, 1] - counts[:, 0]) / (counts.sum(axis=1) + 2.0)

    def _names(self, feature_names):
        """Names of the encoded columns the conditions test (one-hot: ``city=Paris``)."""
        if self.encoder_ is None:
            return list(feature_names)
        return [str(name) for name in self.encoder_.get_feature_names_out(list(feature_names))]

    def _condition_text(self, index, names, decimals=None) -> str:
        """The conditions of leaf ``leaves_[index]`` (``names``: encoded columns), joined by AND."""
        def number(t):
            return f"{t:.3g}" if decimals is None else format_number(t, decimals)
        return " AND ".join(f"{names[f]} {op} {number(t)}" for f, op, t in self.leaf_conditions_[index])

    def _render_text(self, feature_names, *, decimals=None) -> str:
        """The pruned tree as rules, one leaf per line (left to right), with the leaf's training counts.

        ``age <= 54.5`` follows scikit-learn's split (left: ``<=``); on 0/1 inputs ``x3 <= 0.5``
        is the literal ``¬x3``; a one-hot column of a nominal input is ``city=Paris``. Columns
        are named by ``feature_names`` (default ``feature_names_in_``, else ``x0, x1, ...``
        counted from 0). ``decimals``: thresholds rounded to that many decimals (default: 3
        significant digits).
        """
        names = self._names(feature_names)
        lines = []
        for index in range(self.n_leaves_ - 1, -1, -1):  # leaves_ runs right to left
            text = self._condition_text(index, names, decimals) or "always"
            counts = self.cell_counts_[index]
            label = self.leaf_class_[index]
            lines.append(
                f"if {text}: predict {self.classes_[label]!s} ({_whole(counts[label])} of {_whole(counts.sum())} "
                "training examples)"
            )
        return "\n".join(lines)

    def _rule_records(self, feature_names):
        """One record per pruned leaf, in ``to_text`` order (left to right)."""
        names = self._names(feature_names)
        return [
            {"condition": self._condition_text(index, names), "prediction": self.classes_[self.leaf_class_[index]]}
            for index in range(self.n_leaves_ - 1, -1, -1)
        ]

    def _rule_decisions(self, X):
        """Leaf ``k`` decides the rows that reach it (one leaf per row)."""
        positions = self._reached(X)
        order = np.arange(self.n_leaves_ - 1, -1, -1)
        return positions[:, None] == order[None, :]

    def _model_to_dict(self):
        model = {
            "leaves": [
                {
                    "conditions": [[int(f), op, float(t)] for f, op, t in conditions],
                    "missing_satisfies": list(missing),
                    "class": int(label),
                    "counts": counts.tolist(),
                }
                for conditions, missing, label, counts in zip(
                    self.leaf_conditions_, self.leaf_missing_, self.leaf_class_, self.cell_counts_
                )
            ],
            "n_encoded_features": int(self.n_encoded_features_),
            "ccp_alpha": float(self.ccp_alpha_),
            "n_errors": self.n_errors_,
            "encoder": None,
        }
        if self.encoder_ is not None:
            model["encoder"] = {
                "nominal": self.encoder_.nominal_.tolist(),
                "categories": [None if v is None else list(v) for v in self.encoder_.categories_],
            }
        return model

    def _model_from_dict(self, model):
        leaves = model["leaves"]
        self.leaf_conditions_ = [tuple((int(f), op, float(t)) for f, op, t in leaf["conditions"]) for leaf in leaves]
        self.leaf_missing_ = [tuple(bool(v) for v in leaf["missing_satisfies"]) for leaf in leaves]
        self.leaf_class_ = np.array([leaf["class"] for leaf in leaves], dtype=np.intp)
        counts = np.array([leaf["counts"] for leaf in leaves], dtype=float)
        self.cell_counts_ = counts.astype(np.int64) if np.all(counts == np.round(counts)) else counts
        self.n_encoded_features_ = int(model["n_encoded_features"])
        self.leaf_depths_ = np.array([len(c) for c in self.leaf_conditions_])
        self.leaf_monomials_ = [leaf_monomial(c, self.n_encoded_features_) for c in self.leaf_conditions_]
        self.leaves_ = np.arange(len(leaves))
        self.ccp_alpha_ = float(model["ccp_alpha"])
        self.n_errors_ = model["n_errors"]
        self._set_sizes()
        self.risk_ = float(self.leaf_cost * self.n_leaves_ + self.n_errors_)
        self.encoder_ = None
        if model.get("encoder") is not None:
            encoder = FrameEncoder(encoding="onehot")
            encoder.nominal_ = np.array(model["encoder"]["nominal"], dtype=bool)
            encoder.categories_ = model["encoder"]["categories"]
            encoder.n_features_in_ = self.n_features_in_
            names = getattr(self, "feature_names_in_", None)
            if names is not None:
                encoder.feature_names_in_ = np.asarray(names, dtype=object)
            encoder.columns_ = [str(c) for c in names] if names is not None else [
                f"x{j}" for j in range(self.n_features_in_)
            ]
            self.encoder_ = encoder


# --------------------------------------------------------------------------------------------
# Ordered multi-class RIPPER
# --------------------------------------------------------------------------------------------


def _import_wittgenstein():
    try:
        import wittgenstein
    except ImportError as error:  # an optional dependency: say how to get it
        raise ImportError(
            "OrderedRipper needs the optional dependency 'wittgenstein' (the binary RIPPER it "
            "orders): pip install wittgenstein, or pip install 'companion[baselines]'"
        ) from error
    return wittgenstein


def _binary_ripper_class(calibrate):
    """The binary learner of :class:`OrderedRipper`: ``wittgenstein.RIPPER``, or (``calibrate``
    False) its subclass :class:`_UncalibratedRIPPER`, made on first use (``wittgenstein`` is optional)."""
    wittgenstein = _import_wittgenstein()
    if calibrate:
        return wittgenstein.RIPPER
    if "_UncalibratedRIPPER" not in globals():

        class _UncalibratedRIPPER(wittgenstein.RIPPER):
            """``wittgenstein.RIPPER`` whose ``fit`` skips its last pass, the recalibration of its
            rules' class frequencies on the training rows (``recalibrate_proba(..., min_samples=1)``):
            the rules, their order and ``predict`` are those of ``wittgenstein.RIPPER``; only its
            own ``predict_proba`` needs the frequencies (call ``recalibrate_proba`` to set them)."""

            def fit(self, *args, **kwargs):
                self._skip_recalibration = True
                try:
                    return super().fit(*args, **kwargs)
                finally:
                    del self._skip_recalibration

            def recalibrate_proba(self, *args, **kwargs):
                if getattr(self, "_skip_recalibration", False):
                    return None
                return super().recalibrate_proba(*args, **kwargs)

        _UncalibratedRIPPER.__module__, _UncalibratedRIPPER.__qualname__ = __name__, "_UncalibratedRIPPER"
        globals()["_UncalibratedRIPPER"] = _UncalibratedRIPPER
    return globals()["_UncalibratedRIPPER"]


def __getattr__(name):
    # A pickled OrderedRipper(calibrate_rulesets=False) names _UncalibratedRIPPER: a fresh process
    # makes it on first use (module-level __getattr__, PEP 562).
    if name == "_UncalibratedRIPPER":
        return _binary_ripper_class(False)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_NUMBER = r"-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?"
#: ``wittgenstein``'s names of its numeric bins: ``<b``, ``>a`` and ``a - b``.
_BIN_NAME = re.compile(rf"^(?:<(?P<below>{_NUMBER})|>(?P<above>{_NUMBER})|(?P<low>{_NUMBER}) - (?P<high>{_NUMBER}))$")


def _bin_name(value, decimals, shift=0):
    """A RIPPER condition's value in the column's own units; a bin name's numbers to ``decimals``
    places (None: as named, or to 6 significant digits when the column was shifted).

    ``shift``: the column reached ``wittgenstein`` multiplied by ``2**shift``
    (``OrderedRipper.column_shifts_``), so its numbers are divided back (exactly).
    """
    if shift and isinstance(value, (int, float, np.number)) and not isinstance(value, bool):
        return _unshifted(float(value), shift, decimals)
    match = _BIN_NAME.match(value) if (decimals is not None or shift) and isinstance(value, str) else None
    if match is None:
        return value
    number = {
        key: _unshifted(float(text), shift, decimals) if shift else format_number(float(text), decimals)
        for key, text in match.groupdict().items() if text
    }
    if "below" in number:
        return f"<{number['below']}"
    if "above" in number:
        return f">{number['above']}"
    return f"{number['low']} - {number['high']}"


def _unshifted(number: float, shift: int, decimals) -> str:
    """``number / 2**shift`` printed to ``decimals`` places (None: 6 significant digits)."""
    value = float(np.ldexp(number, -int(shift)))
    if decimals is not None:
        return format_number(value, decimals)
    return np.format_float_positional(value, precision=6, unique=True, fractional=False, trim="-")


#: The magnitude OrderedRipper brings a binned column to before ``wittgenstein`` rounds its bin
#: edges to 2 decimals: ``max |x|`` in ``(2**19, 2**20]``, where that rounding is below 1e-8 of it.
_RIPPER_BIN_EXPONENT = 20

#: The decimals of ``wittgenstein``'s bin names (``BinTransformer(names_precision=2)``, which its
#: RIPPER uses): OrderedRipper hands each binned column over on that grid (:meth:`OrderedRipper._frame`).
_RIPPER_BIN_DECIMALS = 2


class OrderedRipper(InterpretableMixin, ClassifierMixin, BaseEstimator):
    """Multi-class RIPPER as an ordered list of one-vs-rest rule sets, in JRip's class order.

    As in Cohen's RIPPER and Weka's JRip, classes are taken from the least to the most frequent
    (ties: the order of ``classes_``, i.e. sorted labels): a rule set from the binary
    ``wittgenstein.RIPPER`` separates each class from the classes not yet handled, the training
    examples of that class are then set aside, and the most frequent class is the default. An
    example gets the class of the first rule set that fires on it (papers 02 and 04 use it as
    their RIPPER baseline).

    **Binary fits.** Each rule set is a ``wittgenstein.RIPPER`` fitted by
    :func:`companion._ripper.fit_binary_ripper`, a reimplementation of wittgenstein's ``fit`` on
    arrays: the same grow/prune splits (the same ``random`` draws), the same choices and ties,
    hence the same rules, bins and class frequencies as ``wittgenstein.RIPPER.fit`` (tested
    against it on every R table, random frames and the notebooks' data sets,
    ``tests/test_ripper_fast.py``), about five times faster, so that the default's three
    inner-fold fits cost less than one fit of wittgenstein's; a rule set's predictions are
    wittgenstein's ``predict``, computed on arrays (:func:`companion._ripper.predict_binary_ripper`).

    Input: a DataFrame is handed to ``wittgenstein`` as it is (categorical and string columns are
    nominal; numeric columns are binned by ``wittgenstein`` itself); a plain array becomes a
    DataFrame with columns ``0, 1, ...``. ``wittgenstein`` rounds its bin edges to 2 decimals,
    which would make the rules depend on the input's scale: each column it bins (numeric, more
    than 10 distinct values) reaches it multiplied by the power of two (``column_shifts_``, exact)
    that brings its largest magnitude into ``(2**19, 2**20]``, where that rounding is below 1e-8
    of it, and rounded to that grid of 2 decimals (``binned_columns_``), so that a bin edge that is a
    training value (a quantile at a whole position, a repeated value) is named exactly instead of
    moving up or down off it depending on the column's units; :meth:`to_text` divides the edges back. Missing cells (NaN) reach ``wittgenstein`` as they are;
    on a nominal column a condition ``a = v`` never holds for them.

    **Weights.** None: ``fit`` refuses ``sample_weight`` with a ``TypeError`` naming
    OrderedRipper, since ``wittgenstein.RIPPER`` grows and prunes on unweighted rows.

    **Exported model** (``to_dict()["model"]``): ``columns`` (the frame's columns), ``rulesets``
    (per class but the default, in order: ``label``, ``rules`` as lists of ``[column, value]``
    conditions, and what ``wittgenstein`` needs to predict with them without refitting: its
    numeric ``bins`` (the range names it bins numbers into), ``binner`` settings,
    ``selected_features``, ``trainset_features``, ``class_feat``), ``class_order``,
    ``default_class``, ``cell_counts``, ``n_rules``, ``n_literals``, ``column_shifts`` (the bins
    and conditions are in ``wittgenstein``'s units, the column times ``2**column_shifts[j]``). ``rules_frame`` has one row
    per rule; a rule decides the rows it is the first listed rule to cover.

    Parameters
    ----------
    random_state : int, RandomState or None, default=None
        Seed of ``wittgenstein``'s grow/prune splits (a RandomState draws an int seed).
    calibrate_rulesets : bool, default=True
        Whether each binary ``wittgenstein.RIPPER`` ends its fit by recalibrating its rules'
        class frequencies on its training rows, which only its own ``predict_proba`` reads.
        OrderedRipper never reads them (its :meth:`predict_proba` reads ``cell_counts_``; the
        rules, :meth:`predict`, :meth:`to_text` and the exported model do not depend on them),
        so False gives the same OrderedRipper about a tenth faster, its ``rulesets_`` learners
        without those frequencies (as a model restored from :meth:`to_dict` is).
    fallback : {"inner_cv", None}, default="inner_cv"
        ``"inner_cv"``: the rule sets must beat the default class on 3 inner stratified folds
        (:func:`companion.interpretable.beats_default_class`, CART's one-standard-error rule;
        RIPPER's own MDL stop sees the training rows only), else none is kept and the model is
        the default class, with a :class:`companion.interpretable.SingleClassWarning`. It costs
        three more fits. ``None``: RIPPER's rule sets as they are (notebooks 02 and 04 pass it).

    Attributes
    ----------
    classes_ : ndarray
    class_order_ : list
        The classes in the order their rule sets are learnt and tried; the last is the default.
    column_shifts_ : list of int
        Per column, the power of two it is multiplied by before ``wittgenstein`` bins it (0:
        not binned, or handed over as it is).
    binned_columns_ : list of bool
        Per column, whether ``wittgenstein`` bins it; each such column is handed over on the
        grid of its 2-decimal bin names (after the shift), so that an edge that is a training
        value is named exactly and no column's units move a row across an edge.
    default_class_ : object
        The most frequent class.
    rulesets_ : list of (label, wittgenstein.RIPPER)
        One fitted binary learner per class but the default, in ``class_order_``.
    n_rules_ : int
        Rules over all rule sets.
    n_literals_ : int
        Conditions over all rules.
    complexity_ : int
        ``n_literals_``: the conditions :meth:`to_text` shows.
    cell_counts_ : ndarray of shape (n_rulesets + 1, n_classes)
        Training examples of each class (columns: ``classes_``) decided by each rule set (rows
        in ``rulesets_`` order; the last row: the default), what :meth:`predict_proba` reads.
        :meth:`predict` is the deciding rule set's class, usually but not necessarily the
        argmax of :meth:`predict_proba`.

    References
    ----------
    .. [1] W. W. Cohen, "Fast effective rule induction", ICML 1995.
    """

    _row_order_dependence = (
        "RIPPER splits the training rows at random into a growing and a pruning set; with a fixed "
        "seed the split is of row positions, so reordering the rows changes the split and the rules"
    )

    #: max |X| it rescales exactly (companion._scale)
    _scale_range = {"low": 2.0**-1000, "high": None, "why": "it multiplies each binned column by a power of two, which is exact only for normal numbers (above 2**-1022), not for subnormal ones"}
    _parameter_constraints = {
        "random_state": ["random_state"], "calibrate_rulesets": ["boolean"], "fallback": [StrOptions({"inner_cv"}), None],
    }

    _sklearn_check_exemptions = dict.fromkeys(
        (
            "check_sample_weights_pandas_series", "check_sample_weights_not_an_array",
            "check_sample_weights_list", "check_sample_weights_shape", "check_sample_weights_not_overwritten",
            "check_sample_weight_equivalence_on_dense_data", "check_all_zero_sample_weights_error",
            "check_classifiers_one_label_sample_weights",
        ),
        "wittgenstein's RIPPER grows and prunes rules on unweighted rows, so OrderedRipper takes "
        "no sample_weight (it refuses one with a TypeError naming OrderedRipper)",
    )

    def __init__(self, *, random_state=None, calibrate_rulesets=True, fallback="inner_cv"):
        self.fallback = fallback
        self.random_state = random_state
        self.calibrate_rulesets = calibrate_rulesets

    def __sklearn_tags__(self):
        return nominal_input_tags(super().__sklearn_tags__())

    @staticmethod
    def _raw_frame(X, raw):
        """The DataFrame as given, else the validated array as one."""
        if isinstance(raw, pd.DataFrame):
            return raw.reset_index(drop=True)
        return pd.DataFrame(X)

    @staticmethod
    def _binned_columns(frame) -> list[bool]:
        """Per column, whether ``wittgenstein`` bins it: numeric, more distinct values than its
        ``n_discretize_bins`` (the rule of ``BinTransformer.find_continuous_feats``)."""
        n_bins = _import_wittgenstein().RIPPER().n_discretize_bins  # the binary learners' default
        return [bool(pd.api.types.is_numeric_dtype(frame[column]) and not pd.api.types.is_bool_dtype(frame[column])
                     and len(frame[column].unique()) > n_bins) for column in frame.columns]

    @classmethod
    def _binned_column_shifts(cls, frame) -> list[int]:
        """Per column, the power of two that brings a column ``wittgenstein`` bins
        (:meth:`_binned_columns`) to ``max |x|`` in ``(2**19, 2**20]``; 0 for the others."""
        shifts = []
        for column, binned in zip(frame.columns, cls._binned_columns(frame)):
            values = frame[column]
            if not binned:
                shifts.append(0)
                continue
            numbers = values.to_numpy(dtype=float, na_value=np.nan)
            finite = numbers[np.isfinite(numbers)]
            shifts.append(int(_RIPPER_BIN_EXPONENT - column_exponents(finite[:, None])[0]) if np.any(finite) else 0)
        return shifts

    def _frame(self, X, raw):
        """What wittgenstein reads: the DataFrame as given (else the validated array as one), each
        binned column multiplied by ``2**column_shifts_`` (exact) and rounded to the 2 decimals
        of wittgenstein's bin names.

        Why the rounding: wittgenstein's bins are ``pd.qcut``'s, whose edges it names, and then
        reads back, to 2 decimals. An edge is often a training value itself (a quantile at a
        whole position, or a repeated value); rounded to 2 decimals it moves off that value, up
        or down depending on the value's digits, so the value (and its copies) changes bins, and
        which way it moves depends on the column's units (1 in 20 held-out predictions changed
        with a column multiplied by 10^4 on 201 training rows). On the grid of the names, an
        edge that is a training value is named exactly (``round(v, 2) == v``), so the bins hold
        the rows the quantiles say, in any units. At ``max |x|`` in ``(2**19, 2**20]`` the grid's
        step is below 1e-8 of the column's largest magnitude: only values closer than that merge
        (and only an edge between two values at most two steps apart can still fall either way).
        Whole numbers in these units are on the grid already (integer codes are handed over as
        they were).
        """
        frame = self._raw_frame(X, raw)
        shifts = getattr(self, "column_shifts_", None) or [0] * frame.shape[1]
        binned = getattr(self, "binned_columns_", None) or [False] * frame.shape[1]
        if any(shifts) or any(binned):
            frame = frame.copy()
            for column, shift, on_grid in zip(frame.columns, shifts, binned):
                if shift or on_grid:
                    shifted = np.ldexp(frame[column].to_numpy(dtype=float, na_value=np.nan), shift)
                    frame[column] = np.round(shifted, _RIPPER_BIN_DECIMALS) if on_grid else shifted
        return frame

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Learn one rule set per class but the most frequent, rarest class first.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : None
            Not supported: wittgenstein's RIPPER has no weights. Anything but None raises.

        Returns
        -------
        self : OrderedRipper

        Raises
        ------
        TypeError
            If ``sample_weight`` is given.
        """
        check_learner_scale(self, X)  # the input scale its arithmetic handles (companion._scale)
        if sample_weight is not None:
            raise TypeError(
                "OrderedRipper does not take sample_weight: the binary RIPPER it orders "
                "(wittgenstein.RIPPER) grows and prunes its rules on unweighted rows. Repeat rows "
                "to give them integer weights, or use Prism, OneR, PrunedDecisionTree or "
                "DecisionCommittee, which take weights."
            )
        # A clone fitted inside the fallback's inner folds (beats_default_class) is only asked
        # to predict: its rule sets need no class frequencies, nor it cell counts (same rules).
        inner_fold = fallback_check_running()  # an inner fit of the fallback check: predictions only
        binary_ripper = _binary_ripper_class(self.calibrate_rulesets and not inner_fold)
        if self.random_state is None or isinstance(self.random_state, Integral):
            seed = self.random_state
        else:
            seed = int(check_random_state(self.random_state).randint(2**31 - 1))
        raw = X
        X, y = validate_data(self, X, y, dtype=None, ensure_all_finite="allow-nan")
        check_classification_targets(y)
        # wittgenstein rounds its bin edges to 2 decimals, which depends on the scale: each binned
        # column reaches it at one magnitude (a power of two, exact), so the rules are the same
        # at any power-of-two scale of the input; to_text divides the edges back.
        self.column_shifts_ = self._binned_column_shifts(self._raw_frame(X, raw))
        self.binned_columns_ = self._binned_columns(self._raw_frame(X, raw))
        frame = self._frame(X, raw)
        self.classes_, y_index, counts = np.unique(y, return_inverse=True, return_counts=True)
        order = np.lexsort((np.arange(len(counts)), counts))  # by count, ties by classes_ order
        self.class_order_ = [self.classes_[k] for k in order]
        self.default_class_ = self.class_order_[-1]
        target_name = "class"
        while target_name in frame.columns:  # the binary target must not shadow an attribute
            target_name = f"_{target_name}"
        self.columns_ = list(frame.columns)
        self.rulesets_ = []
        remaining = np.ones(len(y), dtype=bool)
        for k in order[:-1]:
            model = binary_ripper(random_state=seed, verbosity=0)
            target = pd.Series((y_index[remaining] == k).astype(int), name=target_name)
            with warnings.catch_warnings():  # wittgenstein warns about its own pandas calls
                warnings.simplefilter("ignore")
                # model.fit(frame, target, pos_class=1), reimplemented: the same fitted model, faster
                fit_binary_ripper(model, frame[remaining].reset_index(drop=True), target,
                                  calibrate=self.calibrate_rulesets and not inner_fold)
            self.rulesets_.append((self.classes_[k], model))
            remaining &= y_index != k
        reason = ""
        if not inner_fold and self.fallback == "inner_cv" and self.rulesets_ and not beats_default_class(self, raw, y):
            self.rulesets_ = []  # the rule sets lose to the default class on inner folds
            reason = " (its rule sets did not beat it on inner folds: OrderedRipper fell back to the default class)"
        rules = [rule for _, model in self.rulesets_ for rule in model.ruleset_.rules]
        self.n_rules_ = len(rules)
        self.n_literals_ = int(sum(len(rule.conds) for rule in rules))
        self.complexity_ = self.n_literals_
        if inner_fold:
            return self
        counts = np.zeros((len(self.rulesets_) + 1, self.classes_.size), dtype=np.int64)
        decider = self._decider(frame)
        np.add.at(counts, (decider, y_index), 1)
        self.cell_counts_ = counts
        labels = np.array([label for label, _ in self.rulesets_] + [self.default_class_], dtype=object)
        self._check_single_class(None, predictions=labels[decider], reason=reason)
        return self

    def _decider(self, frame) -> np.ndarray:
        """Index in ``rulesets_`` of the first rule set firing on each row (``len(rulesets_)``: none)."""
        decider = np.full(len(frame), len(self.rulesets_))
        for k in range(len(self.rulesets_) - 1, -1, -1):  # the earliest firing one is written last
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                # np.asarray(model.predict(frame), dtype=bool), reimplemented: the same rows, faster
                fires = predict_binary_ripper(self.rulesets_[k][1], frame)
            decider[fires] = k
        return decider

    def _validated_decider(self, X) -> np.ndarray:
        check_is_fitted(self)
        raw = X
        X = validate_data(self, X, reset=False, dtype=None, ensure_all_finite="allow-nan")
        return self._decider(self._frame(X, raw))

    def predict(self, X):
        """The class of the first rule set that fires, else the default class.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Columns as at fit time.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        decider = self._validated_decider(X)
        labels = np.array([label for label, _ in self.rulesets_] + [self.default_class_], dtype=object)
        return labels[decider].astype(self.classes_.dtype)

    def predict_proba(self, X) -> np.ndarray:
        """Laplace-corrected class frequencies ``(n_c + 1)/(n + k)`` of the deciding rule set.

        The training examples counted are those the same rule set decides (the first that fires
        on them), or that none decides for the default; ``cell_counts_`` holds them.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Columns as at fit time.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns in ``classes_`` order.
        """
        decider = self._validated_decider(X)  # first: it raises NotFittedError before fit
        return laplace_proba(self.cell_counts_[decider])

    def _render_text(self, feature_names, *, decimals=None) -> str:
        """One line per rule, ``if a = v AND ...: predict c``, in the order they are tried.

        ``decimals``: decimal places of the numbers in ``wittgenstein``'s bin names (``<0.25``,
        ``0.25 - 0.49``, ``>4.46``; it writes them to 2 decimals, so only fewer change them);
        None: as ``wittgenstein`` names them.
        """
        position = {column: j for j, column in enumerate(self.columns_)}
        shifts = self._shifts()
        lines = []
        for label, model in self.rulesets_:
            for rule in model.ruleset_.rules:
                text = " AND ".join(
                    f"{feature_names[position[c.feature]]} = {_bin_name(c.val, decimals, shifts[position[c.feature]])}"
                    for c in rule.conds
                )
                lines.append(f"if {text or 'always'}: predict {label!s}")
        lines.append(f"otherwise: predict {self.default_class_!s}")
        return "\n".join(lines)

    def _rule_records(self, feature_names):
        """One record per rule, in the order :meth:`to_text` lists them (the default excluded)."""
        position = {column: j for j, column in enumerate(self.columns_)}
        shifts = self._shifts()
        return [
            {
                "condition": " AND ".join(
                    f"{feature_names[position[c.feature]]} = {_bin_name(c.val, None, shifts[position[c.feature]])}"
                    for c in rule.conds),
                "prediction": label,
            }
            for label, model in self.rulesets_
            for rule in model.ruleset_.rules
        ]

    def _rule_decisions(self, X):
        """A rule decides the rows it is the first rule (in the listed order) to cover."""
        check_is_fitted(self)
        raw = X
        X = validate_data(self, X, reset=False, dtype=None, ensure_all_finite="allow-nan")
        frame = self._frame(X, raw)
        columns = []
        for _, model in self.rulesets_:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                _, reasons = model.predict(frame, give_reasons=True)
            for rule in model.ruleset_.rules:
                columns.append(np.array([any(r is rule or r == rule for r in why) for why in reasons], dtype=bool))
        covered = np.column_stack(columns) if columns else np.zeros((len(frame), 0), dtype=bool)
        first = np.cumsum(covered, axis=1) == 1
        return covered & first

    def _shifts(self) -> list[int]:
        return list(getattr(self, "column_shifts_", None) or [0] * len(self.columns_))

    def _model_to_dict(self):
        rulesets = []
        for label, model in self.rulesets_:
            binner = model.bin_transformer_
            rulesets.append({
                "label": label,
                "rules": [[[c.feature, c.val] for c in rule.conds] for rule in model.ruleset_.rules],
                "bins": [[feature, list(bins)] for feature, bins in (binner.bins_ or {}).items()],
                "binner": {key: getattr(binner, key) for key in ("n_discretize_bins", "names_precision", "engine")},
                "selected_features": list(model.selected_features_),
                "trainset_features": list(model.trainset_features_),
                "class_feat": model.class_feat,
            })
        return {
            "columns": list(self.columns_),
            "column_shifts": self._shifts(),
            "rulesets": rulesets,
            "class_order": list(self.class_order_),
            "default_class": self.default_class_,
            "cell_counts": self.cell_counts_.tolist(),
            "n_rules": self.n_rules_,
            "n_literals": self.n_literals_,
        }

    def _model_from_dict(self, model):
        wittgenstein = _import_wittgenstein()
        from wittgenstein.base import Cond, Rule, Ruleset
        from wittgenstein.discretize import BinTransformer

        def label(value):
            return self.classes_[np.flatnonzero(self.classes_ == np.asarray(value, dtype=self.classes_.dtype))[0]]

        self.columns_ = list(model["columns"])
        self.column_shifts_ = [int(k) for k in model.get("column_shifts") or [0] * len(self.columns_)]
        # the columns wittgenstein bins are those its binners name (the first rule set's sees
        # every training row); each is handed over on the grid of its bin names (_frame)
        named = {feature for entry in model["rulesets"] for feature, _ in entry["bins"]}
        self.binned_columns_ = [column in named for column in self.columns_]
        self.rulesets_ = []
        for entry in model["rulesets"]:
            ripper = wittgenstein.RIPPER(random_state=None, verbosity=0)
            ripper.ruleset_ = Ruleset([Rule([Cond(f, v) for f, v in conds]) for conds in entry["rules"]])
            binner = BinTransformer(**entry["binner"], verbosity=0)
            binner.bins_ = {feature: list(bins) for feature, bins in entry["bins"]}
            binner.thresholds_ = {}
            ripper.bin_transformer_ = binner
            ripper.selected_features_ = list(entry["selected_features"])
            ripper.trainset_features_ = list(entry["trainset_features"])
            ripper.class_feat = entry["class_feat"]
            ripper.pos_class = 1
            ripper.classes_ = np.array([0, 1])
            self.rulesets_.append((label(entry["label"]), ripper))
        self.class_order_ = [label(c) for c in model["class_order"]]
        self.default_class_ = label(model["default_class"])
        self.cell_counts_ = np.asarray(model["cell_counts"], dtype=np.int64)
        self.n_rules_ = int(model["n_rules"])
        self.n_literals_ = int(model["n_literals"])
        self.complexity_ = self.n_literals_


# --------------------------------------------------------------------------------------------
# OneR
# --------------------------------------------------------------------------------------------


class OneR(InterpretableMixin, ClassifierMixin, BaseEstimator):
    """One-attribute rule classifier for nominal attributes (Holte 1993; Weka's ``OneR``).

    OneR makes one rule per attribute, ``attribute = v -> the most frequent class among the
    training instances with value v``, and keeps the attribute whose rule makes the fewest
    training errors. For nominal attributes this is Weka's ``weka.classifiers.rules.OneR``: a
    missing value is a value of its own; ties between classes go to the earlier class in declared
    order, ties between attributes to the earlier attribute. A value never seen in training gets
    the majority class. Numeric columns are binned by a ``discretizer``, with the column kinds of
    :class:`companion.prism.Prism` (DataFrame dtypes or ``categorical_features``);
    ``to_text(decimals=2)`` prints the bins' edges to 2 decimal places.

    Parameters
    ----------
    discretizer : "mdl", transformer or None, default="mdl"
        As in :class:`companion.prism.Prism`: every numeric column (see
        ``categorical_features``) is binned, whole numbers included; ``"mdl"``:
        :class:`companion.preprocessing.MDLDiscretizer`; a transformer such as
        ``KBinsDiscretizer(n_bins=5, encode="ordinal", strategy="quantile")`` is cloned and
        fitted on every numeric column; ``None`` refuses numeric columns. (Weka's OneR has its
        own discretisation of numeric attributes, with a minimum bucket size; this one has not.)
    categorical_features : None, "all", list of str, list of int or boolean mask, default=None
        Which columns are nominal, exactly as in :class:`companion.prism.Prism` (``None``: from
        the DataFrame's dtypes; a plain array's numbers are numeric with a discretiser, integer
        codes without one); the other columns are numeric and binned by ``discretizer``.
    class_weight : None, "balanced" or dict, default=None
        Weights of the classes, multiplied into ``sample_weight``: OneR minimises a count of
        errors, which then counts each class's errors at its weight.

    Attributes
    ----------
    classes_ : ndarray
        Sorted class labels.
    class_order_ : list
        Declared class order (categories of a categorical ``y``, else sorted): the tie-break.
    attribute_ : int
        Index of the chosen attribute.
    attribute_name_ : str
    value_classes_ : dict
        Value of the chosen attribute (``?`` for missing) -> predicted class.
    cell_counts_ : ndarray of shape (n_values, n_classes)
        Training instances of each class (columns in ``classes_`` order) per value code of the
        chosen attribute (the last code is missing): what :meth:`predict_proba` reads.
    class_counts_ : ndarray of shape (n_classes,)
        Training instances of each class.
    training_errors_ : int
        Errors of the chosen rule on the training set.
    default_class_ : object
        Majority class, for values never seen in training.
    complexity_ : int
        Tests ``attribute = value`` of the rule, one per line of :meth:`to_text`.
    encoding_ : companion._nominal_encoding.NominalEncoding

    Notes
    -----
    **Scores.** :meth:`predict_proba` is the Laplace-corrected class frequency
    ``(n_c + 1) / (n + k)`` (:func:`companion._learner_support.laplace_proba`) of the training
    instances holding the instance's value of the chosen attribute; a value no training
    instance holds (declared but unused, or unseen) gets the Laplace-corrected frequencies of
    the whole training set, as :meth:`predict` gives it the majority class. :meth:`predict` is
    the argmax of :meth:`predict_proba` except on exact ties between classes, which
    :meth:`predict` breaks by declared class order and the argmax by ``classes_`` order.
    OneR has no margin, so there is no ``decision_function``.

    References
    ----------
    .. [1] R. C. Holte, "Very simple classification rules perform well on most commonly used
       datasets", Machine Learning 11:63-90, 1993.
    """

    _sklearn_check_exemptions = {
        "check_classifiers_train": (
            "one attribute of the check's two cannot separate its three blobs: OneR reaches "
            "about 0.71 training accuracy there (the check wants > 0.83)"
        ),
    }

    _parameter_constraints = {
        **ENCODING_PARAMETER_CONSTRAINTS,
        "class_weight": [None, StrOptions({"balanced"}), dict],
    }

    def __init__(self, *, discretizer="mdl", categorical_features=None, class_weight=None):
        self.class_weight = class_weight
        self.discretizer = discretizer
        self.categorical_features = categorical_features

    def __sklearn_tags__(self):
        return nominal_input_tags(super().__sklearn_tags__())

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Choose the attribute whose one-level rule makes the fewest training errors.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Nominal attributes (strings, integer codes or categoricals), and numeric ones binned
            by the ``discretizer`` (see ``categorical_features``).
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional
            Frequency weights: the errors counted are sums of weights (class Notes).

        Returns
        -------
        self : OneR
        """
        check_sample_weight(self, sample_weight, X)  # one refusal for every learner (companion._weights)
        if self.class_weight is not None:
            balance = compute_sample_weight(self.class_weight, np.asarray(y))
            sample_weight = balance if sample_weight is None else balance * _check_sample_weight(sample_weight, X)
        X, y, weight = positive_weight_rows(X, y, sample_weight)
        codes, y_arr, class_order, encoding, names = fit_nominal_encoding(
            self, X, y, missing="value", discretizer=MDLDiscretizer() if isinstance(self.discretizer, str) and self.discretizer == "mdl" else self.discretizer,
            categorical_features=self.categorical_features, sample_weight=weight,
        )
        self.encoding_ = encoding
        self.classes_ = np.unique(y_arr)
        self.class_order_ = class_order
        class_code = np.searchsorted(self.classes_, y_arr)  # classes_ order
        # Declared order of each class_ (the tie-break between classes).
        rank = np.array([class_order.index(c) for c in self.classes_.tolist()])
        n_classes = len(class_order)
        n_values = np.array([len(v) for v in encoding.values])
        offsets = np.concatenate([[0], np.cumsum(n_values)])
        # Joint (attribute, value, class) counts in one bincount: cell index = test * k + class.
        test = offsets[:-1] + codes  # codes >= 0 everywhere: missing is a value here
        unit = np.ones(len(y_arr)) if weight is None else weight
        joint = np.bincount(
            (test * n_classes + class_code[:, None]).ravel(),
            weights=np.repeat(unit, codes.shape[1]), minlength=offsets[-1] * n_classes,
        ).reshape(offsets[-1], n_classes)
        if weight is None or np.all(weight == np.round(weight)):
            joint = np.rint(joint).astype(np.int64)  # sums of whole weights
        declared = joint[:, np.argsort(rank)]  # columns in declared class order
        majority = np.argmax(declared, axis=1)  # first maximum = earliest class in declared order
        correct_per_test = joint.max(axis=1)
        correct = np.add.reduceat(correct_per_test, offsets[:-1])
        # Earliest attribute on ties (exact for whole weights; within TIE_RTOL for others).
        best = first_near_min(-correct.astype(float), 0.0 if joint.dtype.kind == "i" else TIE_RTOL)
        self.attribute_ = best
        self.attribute_name_ = names[best]
        block = slice(offsets[best], offsets[best + 1])
        self.value_codes_ = np.array([class_order[k] for k in majority[block]], dtype=object)
        self.cell_counts_ = joint[block]
        self.class_counts_ = joint[offsets[best] : offsets[best + 1]].sum(axis=0)
        # A value absent from the training set predicts the majority class.
        absent = joint[block].sum(axis=1) == 0
        totals = self.class_counts_[np.argsort(rank)]
        self.default_class_ = class_order[int(np.argmax(totals))]
        self.value_codes_[absent] = self.default_class_
        self.value_classes_ = {
            encoding.value_name(best, v): c for v, c in enumerate(self.value_codes_) if not absent[v]
        }
        self.complexity_ = len(self.value_classes_)
        self.training_errors_ = _whole(unit.sum() - correct[best])
        self._check_single_class(None, predictions=self.value_codes_[codes[:, best]])
        return self

    def _rule_records(self, feature_names):
        """One record per ``value -> class`` line of :meth:`to_text`."""
        name = feature_names[self.attribute_]
        return [
            {"condition": f"{name} = {value}", "prediction": label} for value, label in self.value_classes_.items()
        ]

    def _rule_decisions(self, X):
        """The line of value ``v`` decides the rows holding ``v`` in the chosen attribute."""
        codes = self._value_codes(X)
        seen = np.flatnonzero(self.cell_counts_.sum(axis=1) > 0)
        return codes[:, None] == seen[None, :]

    def _model_to_dict(self):
        return {
            "columns": self.encoding_.to_dict(),
            "attribute": int(self.attribute_),
            "value_classes": [None if c is None else c for c in self.value_codes_.tolist()],
            "class_order": list(self.class_order_),
            "default_class": self.default_class_,
            "cell_counts": self.cell_counts_.tolist(),
            "class_counts": self.class_counts_.tolist(),
            "training_errors": self.training_errors_,
        }

    def _model_from_dict(self, model):
        def label(value):
            return self.classes_[np.flatnonzero(self.classes_ == np.asarray(value, dtype=self.classes_.dtype))[0]]

        def counts(rows):
            array = np.asarray(rows, dtype=float)
            return array.astype(np.int64) if np.all(array == np.round(array)) else array

        self.encoding_ = NominalEncoding.from_dict("value", model["columns"])
        self.attribute_ = int(model["attribute"])
        names = resolve_feature_names(self)
        self.attribute_name_ = names[self.attribute_]
        self.value_codes_ = np.array([label(c) for c in model["value_classes"]], dtype=object)
        self.class_order_ = [label(c) for c in model["class_order"]]
        self.default_class_ = label(model["default_class"])
        self.cell_counts_ = counts(model["cell_counts"]).reshape(-1, len(self.classes_))
        self.class_counts_ = counts(model["class_counts"])
        self.training_errors_ = model["training_errors"]
        absent = self.cell_counts_.sum(axis=1) == 0
        self.value_classes_ = {
            self.encoding_.value_name(self.attribute_, v): c
            for v, c in enumerate(self.value_codes_) if not absent[v]
        }
        self.complexity_ = len(self.value_classes_)

    def _value_codes(self, X) -> np.ndarray:
        """Code of each instance's value of the chosen attribute; ``-1`` for an unseen value."""
        check_is_fitted(self)
        return nominal_codes(self, X)[:, self.attribute_]

    def predict(self, X):
        """Class of each instance's value of the chosen attribute.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Columns as at fit time.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        codes = self._value_codes(X)
        labels = np.append(self.value_codes_, self.default_class_)
        predicted = labels[np.where(codes >= 0, codes, len(labels) - 1)]
        return np.asarray(predicted.tolist(), dtype=self.classes_.dtype)

    def predict_proba(self, X) -> np.ndarray:
        """Laplace-corrected class frequencies of the training instances sharing the value.

        See the class Notes ("Scores").

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Columns as at fit time.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            Columns in ``classes_`` order; rows sum to 1.
        """
        codes = self._value_codes(X)
        counts = self.cell_counts_.copy()
        # A value no training instance holds falls back on the training set, as predict does.
        counts[counts.sum(axis=1) == 0] = self.class_counts_
        table = laplace_proba(np.vstack([counts, self.class_counts_[None, :]]))
        return table[np.where(codes >= 0, codes, len(table) - 1)]

    def _render_text(self, feature_names, *, decimals=None) -> str:
        """The rule, one ``attribute = value -> class`` line per value seen in training;
        ``decimals``: decimal places of a binned attribute's interval edges (None: 4 significant
        digits)."""
        name = feature_names[self.attribute_]
        seen = np.flatnonzero(self.cell_counts_.sum(axis=1) > 0)  # the values of value_classes_
        return "\n".join(
            f"{name} = {self.encoding_.value_name(self.attribute_, v, decimals)} -> {self.value_codes_[v]}"
            for v in seen
        )
