"""Noisy LED digits: generator, exact Bayes error, the pruned CART tree and the best tree."""

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from companion.led import (
    LED_SEGMENTS,
    PrunedDecisionTree,
    bayes_error,
    bayes_error_10class,
    bayes_predict,
    make_led_digits,
    optimal_boolean_tree,
    pattern_likelihoods,
)
from companion.paper_numbers import paper_table


def paper_value(method, quantity, column):
    table = paper_table("03_table1")
    row = table[(table["method"] == method) & (table["quantity"] == quantity) & (table["column"] == column)]
    return float(row["value"].iloc[0])


def test_exact_bayes_error():
    exact = bayes_error(Fraction(1, 10))
    assert isinstance(exact, Fraction)
    assert float(exact) == pytest.approx(paper_value("bayes", "error", "population") / 100, abs=1e-9)
    assert bayes_error(0.1) == pytest.approx(float(exact), rel=1e-12)
    # The ten-class Bayes error checks the segment table against UCI's 74 % accuracy.
    assert float(bayes_error_10class(Fraction(1, 10))) == pytest.approx(
        paper_value("bayes_10class", "error", "population") / 100, abs=1e-7
    )
    patterns = ((np.arange(128)[:, None] >> np.arange(6, -1, -1)) & 1)
    assert np.sum(bayes_predict(patterns) == 1) == 56
    assert bayes_error(0.0) == 0.0


def test_bayes_error_by_enumeration_equals_monte_carlo():
    X, y = make_led_digits(200_000, random_state=7)
    empirical = np.mean(bayes_predict(X) != y)
    p = bayes_error(0.1)
    assert abs(empirical - p) < 4 * np.sqrt(p * (1 - p) / y.size)


def test_likelihoods_sum_to_one():
    np.testing.assert_allclose(pattern_likelihoods(0.1).sum(axis=0), 1.0)
    exact = pattern_likelihoods(Fraction(1, 10))
    assert all(sum(exact[:, d]) == 1 for d in range(10))


def test_bayes_rule_is_optimal_among_all_rules():
    """No other labelling of the 128 patterns has a lower population error (brute force on 2 patterns)."""
    likelihood = pattern_likelihoods(0.1)
    low, high = likelihood[:, :5].sum(axis=1) / 10, likelihood[:, 5:].sum(axis=1) / 10
    patterns = ((np.arange(128)[:, None] >> np.arange(6, -1, -1)) & 1)
    rule = bayes_predict(patterns)
    error = np.sum(np.where(rule == 1, low, high))
    assert error == pytest.approx(bayes_error(0.1))
    for flip in range(128):
        other = rule.copy()
        other[flip] *= -1
        assert np.sum(np.where(other == 1, low, high)) >= error


def test_generator():
    X, y, digits = make_led_digits(20_000, random_state=3, return_digits=True)
    assert X.shape == (20_000, 7) and set(np.unique(X)) <= {0, 1}
    np.testing.assert_array_equal(y, np.where(digits >= 5, 1, -1))
    flips = X != LED_SEGMENTS[digits]
    assert abs(flips.mean() - 0.1) < 4 * np.sqrt(0.09 / flips.size)
    counts = np.bincount(digits, minlength=10)
    assert counts.min() > 1800 and counts.max() < 2200
    again, _ = make_led_digits(20_000, random_state=3)
    np.testing.assert_array_equal(X, again)
    clean, _, d = make_led_digits(50, noise=0.0, random_state=0, return_digits=True)
    np.testing.assert_array_equal(clean, LED_SEGMENTS[d])


@pytest.mark.parametrize(
    "kwargs, message",
    [(dict(n=-1), "non-negative integer"), (dict(n=2.5), "non-negative integer"), (dict(n=5, noise=0.7), "noise"),
     (dict(n=5, noise="a"), "noise")],
)
def test_generator_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        make_led_digits(**kwargs)


def test_bayes_predict_bad_input():
    with pytest.raises(ValueError, match="0/1 segment bits"):
        bayes_predict(np.zeros((3, 6)))


def naive_best_pruning(tree, counts, leaf_cost):
    """Enumerate every pruned subtree of a small tree; return the smallest leaf_cost·leaves + errors."""

    def options(node):
        as_leaf = [(1, counts[node].sum() - counts[node].max())]
        if tree.children_left[node] == -1:
            return as_leaf
        left, right = options(tree.children_left[node]), options(tree.children_right[node])
        return as_leaf + [(a + c, b + d) for (a, b), (c, d) in product(left, right)]

    return min(leaf_cost * leaves + errors for leaves, errors in options(0))


@pytest.mark.parametrize("depth", [2, 3, 4])
def test_pruned_tree_minimises_leaves_plus_errors(rng, depth):
    X = rng.integers(0, 2, size=(150, 5))
    y = np.where((X[:, 0] & X[:, 1]) | X[:, 2], "a", "b")
    y = np.where(rng.random(150) < 0.2, np.where(y == "a", "b", "a"), y)
    for leaf_cost in (0.0, 1.0, 3.0):
        pruned = PrunedDecisionTree(max_depth=depth, leaf_cost=leaf_cost, random_state=0).fit(X, y)
        errors = int(np.sum(pruned.predict(X) != y))
        assert errors == pruned.n_errors_
        assert pruned.risk_ == pytest.approx(leaf_cost * pruned.n_leaves_ + errors)
        full = pruned.full_tree_
        one_hot = np.eye(2)[np.searchsorted(pruned.classes_, y)]
        counts = np.asarray(full.decision_path(X).T @ one_hot)
        assert pruned.risk_ == pytest.approx(naive_best_pruning(full.tree_, counts, leaf_cost))
        assert pruned.depth_ <= depth and len(pruned.leaf_monomials_) == pruned.n_leaves_
        if leaf_cost == 0.0:
            assert errors == np.sum(full.predict(X) != np.searchsorted(pruned.classes_, y))
    assert "predict" in pruned.to_text()


def brute_force_depth2(X, y):
    """Best depth-≤2 tree risk (leaves + errors) by enumerating roots and children."""
    def leaf(mask):
        return 1 + min(np.sum(y[mask] == 1), np.sum(y[mask] == -1))

    def depth1(mask):
        best = leaf(mask)
        for j in range(X.shape[1]):
            best = min(best, leaf(mask & (X[:, j] == 1)) + leaf(mask & (X[:, j] == 0)))
        return best

    everything = np.ones(len(y), dtype=bool)
    best = depth1(everything)  # depth 0 or 1
    for j in range(X.shape[1]):
        best = min(best, depth1(X[:, j] == 1) + depth1(X[:, j] == 0))
    return best


def test_optimal_tree_is_optimal(rng):
    for _ in range(3):
        X, y = make_led_digits(300, random_state=int(rng.integers(1_000_000)))
        best = optimal_boolean_tree(X, y, 2)
        assert best.risk == brute_force_depth2(X, y)
        assert best.n_leaves + int(np.sum(best.predict(X) != y)) == best.risk
        assert best.depth <= 2
        for depth in (2, 3, 7):
            greedy = PrunedDecisionTree(max_depth=depth, random_state=0).fit(X, y)
            assert optimal_boolean_tree(X, y, depth).risk <= greedy.risk_
    assert "predict" in best.to_text()
    with pytest.raises(ValueError, match="0/1"):
        optimal_boolean_tree(np.full((3, 2), 0.5), np.array([1, -1, 1]), 2)
    with pytest.raises(ValueError, match="-1, \\+1"):
        optimal_boolean_tree(np.zeros((3, 2)), np.array([1, 0, 1]), 2)


# ------------------------------------------------------------------------------------------------
# Issue 14: the pruned tree on the user's own data
# ------------------------------------------------------------------------------------------------


def test_pruned_tree_proba_is_laplace_leaf_frequency_by_hand():
    from fractions import Fraction

    # x = 0: a, a, b; x = 1: b, b, b, a. leaf_cost = 0 keeps the split: two leaves.
    X = np.array([[0], [0], [0], [1], [1], [1], [1]])
    y = np.array(["a", "a", "b", "b", "b", "b", "a"])
    tree = PrunedDecisionTree(leaf_cost=0.0, random_state=0).fit(X, y)
    assert tree.n_leaves_ == 2
    proba = tree.predict_proba(np.array([[0], [1]]))
    expected = [[Fraction(3, 5), Fraction(2, 5)], [Fraction(2, 6), Fraction(4, 6)]]
    np.testing.assert_array_equal(proba, np.array(expected, dtype=float))
    np.testing.assert_array_equal(tree.decision_function(np.array([[0], [1]])), [-1 / 5, 2 / 6])
    # leaf_cost = 2 prunes to the root: one leaf, 3 a and 4 b -> (4/9, 5/9), decision (4 - 3)/9
    root = PrunedDecisionTree(leaf_cost=2.0, random_state=0).fit(X, y)
    assert root.n_leaves_ == 1
    np.testing.assert_array_equal(root.predict_proba(X), np.tile([4 / 9, 5 / 9], (7, 1)))
    np.testing.assert_array_equal(root.decision_function(X[:1]), [1 / 9])
    assert root.to_text() == "if always: predict b (4 of 7 training examples)"


def test_pruned_tree_scores_agree_with_predict(rng):
    from sklearn.datasets import load_wine

    X = rng.integers(0, 2, size=(200, 6))
    y = np.where((X[:, 0] & X[:, 1]) | X[:, 2], "yes", "no")
    y = np.where(rng.random(200) < 0.25, np.where(y == "yes", "no", "yes"), y)
    y[:4] = ["yes", "no", "yes", "no"]
    tree = PrunedDecisionTree(max_depth=4, leaf_cost=0.0, random_state=0).fit(X, y)
    scores = tree.decision_function(X)
    assert scores.shape == (200,)
    np.testing.assert_array_equal(np.where(scores > 0, "yes", "no"), tree.predict(X))
    proba = tree.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(tree.classes_[proba.argmax(axis=1)], tree.predict(X))
    X_wine, y_wine = load_wine(return_X_y=True)
    multi = PrunedDecisionTree(max_depth=3, random_state=0).fit(X_wine, y_wine)
    proba = multi.predict_proba(X_wine)
    assert proba.shape == (len(y_wine), 3)
    np.testing.assert_array_equal(multi.classes_[proba.argmax(axis=1)], multi.predict(X_wine))
    np.testing.assert_array_equal(multi.decision_function(X_wine), proba)


def test_pruned_tree_on_breast_cancer_roc_auc_and_log_loss():
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import cross_val_score

    X, y = load_breast_cancer(return_X_y=True)
    tree = PrunedDecisionTree(max_depth=4, random_state=0)
    auc = cross_val_score(tree, X, y, cv=3, scoring="roc_auc")
    assert np.all(np.isfinite(auc)) and auc.mean() > 0.9
    loss = cross_val_score(tree, X, y, cv=3, scoring="neg_log_loss")
    assert np.all(np.isfinite(loss)) and loss.mean() > -0.5


def test_pruned_tree_text_counts_columns_from_zero_and_uses_frame_names():
    import pandas as pd
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    from companion.interpretable import pipeline_text

    age = np.arange(100.0) % 50 + 30
    frame = pd.DataFrame({"age": age, "income": np.arange(100.0) % 7})
    y = np.where(age > 54, "sick", "well")
    tree = PrunedDecisionTree(random_state=0).fit(frame, y)
    assert tree.to_text() == str(tree) == (
        "if age <= 54.5: predict well (50 of 50 training examples)\n"
        "if age > 54.5: predict sick (50 of 50 training examples)"
    )
    plain = PrunedDecisionTree(random_state=0).fit(frame.to_numpy(), y)
    assert plain.to_text().splitlines()[0].startswith("if x0 <= 54.5")  # column 0, not "x1"
    assert tree.to_text(["AGE", "INCOME"]).startswith("if AGE <= 54.5")
    mixed = frame.assign(city=np.where(age > 54, "Paris", "Nice"))
    pipe = make_pipeline(
        ColumnTransformer([("num", "passthrough", ["age", "income"]), ("cat", OneHotEncoder(), ["city"])]),
        PrunedDecisionTree(random_state=0),
    ).fit(mixed, y)
    assert any(name in pipeline_text(pipe) for name in ("num__age", "cat__city_Nice", "cat__city_Paris"))
    with pytest.raises(ValueError, match=r"PrunedDecisionTree needs numeric columns, but column 'city'"):
        PrunedDecisionTree().fit(mixed, y)


def test_pruned_tree_accepts_numpy_scalars():
    X, y = make_led_digits(300, random_state=2)
    plain = PrunedDecisionTree(max_depth=3, leaf_cost=1.0, random_state=0).fit(X, y)
    numpy = PrunedDecisionTree(max_depth=np.int64(3), leaf_cost=np.float32(1.0), random_state=np.int64(0)).fit(X, y)
    assert plain.to_text() == numpy.to_text() and plain.risk_ == numpy.risk_


def test_boolean_tree_text_takes_names():
    X, y = make_led_digits(300, random_state=4)
    best = optimal_boolean_tree(X, y, 2)
    default = best.to_text()
    named = best.to_text(feature_names=[f"s{j}" for j in range(7)])
    assert "x" in default and "x" not in named and "s" in named
    assert len(default.splitlines()) == len(named.splitlines()) == best.n_leaves
    with pytest.raises(ValueError, match="feature_names has 2 names"):
        best.to_text(feature_names=["a", "b"])
