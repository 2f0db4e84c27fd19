"""Noisy LED digits: generator, exact Bayes error and the best tree (the pruned CART tree: test_baselines)."""

from fractions import Fraction

import numpy as np
import pytest

from companion.baselines import PrunedDecisionTree
from companion.led import (
    LED_SEGMENTS,
    bayes_error,
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


def bayes_error_10class(noise):
    """Exact ten-class Bayes error ``1 - sum_b max_D P(b|D) / 10`` (UCI: 26 %): the segment table's check."""
    likelihood = pattern_likelihoods(noise)
    return 1 - sum(max(row) for row in likelihood) / 10


def test_exact_bayes_error():
    exact = bayes_error(Fraction(1, 10))
    assert isinstance(exact, Fraction)
    assert float(exact) == pytest.approx(paper_value("bayes", "error", "population") / 100, abs=1e-9)
    assert bayes_error(0.1) == pytest.approx(float(exact), rel=1e-12)
    # The ten-class Bayes error checks the segment table against UCI's 74 % accuracy.
    assert float(bayes_error_10class(Fraction(1, 10))) == pytest.approx(
        paper_value("bayes_10class", "error", "population") / 100, abs=1e-7
    )
    assert bayes_error(0.0) == 0.0


#: The seven-segment display (top, upper-left, upper-right, middle, lower-left, lower-right,
#: bottom) typed from the picture of the digits, independently of ``companion.led.LED_SEGMENTS``.
DISPLAY = {
    0: "1110111", 1: "0010010", 2: "1011101", 3: "1011011", 4: "0111010",
    5: "1101011", 6: "1101111", 7: "1010010", 8: "1111111", 9: "1111011",
}


def test_bayes_rule_by_brute_force_over_the_128_patterns():
    # Derived, not typed: each pattern x gets +1 (digit >= 5) iff its exact likelihood under the
    # digits 5-9 exceeds that under 0-4, P(x | d) = p^h (1-p)^(7-h), h the Hamming distance to d's
    # segments, p = 1/10. No pattern ties, and 56 of the 128 get +1.
    p = Fraction(1, 10)
    patterns = ((np.arange(128)[:, None] >> np.arange(6, -1, -1)) & 1)
    expected = []
    for x in patterns.tolist():
        distance = {d: sum(int(s) != b for s, b in zip(segments, x)) for d, segments in DISPLAY.items()}
        likelihood = {d: p**h * (1 - p) ** (7 - h) for d, h in distance.items()}
        high, low = sum(likelihood[d] for d in range(5, 10)), sum(likelihood[d] for d in range(5))
        assert high != low
        expected.append(1 if high > low else -1)
    np.testing.assert_array_equal(bayes_predict(patterns), expected)
    assert expected.count(1) == 56  # the number the former test typed without derivation
    np.testing.assert_array_equal(LED_SEGMENTS, [[int(s) for s in DISPLAY[d]] for d in range(10)])


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
    [(dict(n=-1), r"The 'n' parameter of make_led_digits must be an int in the range \[0, inf\). Got -1"),
     (dict(n=2.5), "The 'n' parameter of make_led_digits must be an int"),
     (dict(n=5, noise=0.7), r"The 'noise' parameter of make_led_digits must be .*a float in the range \[0.0, 0.5\]. Got 0.7"),
     (dict(n=5, noise="a"), "The 'noise' parameter of make_led_digits")],
)
def test_generator_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        make_led_digits(**kwargs)


def test_bayes_predict_bad_input():
    with pytest.raises(ValueError, match="0/1 segment bits"):
        bayes_predict(np.zeros((3, 6)))


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
            greedy = PrunedDecisionTree(pruning="errors", max_depth=depth, random_state=0, fallback=None).fit(X, y)
            assert optimal_boolean_tree(X, y, depth).risk <= greedy.risk_
    assert "predict" in best.to_text()
    with pytest.raises(ValueError, match="0/1"):
        optimal_boolean_tree(np.full((3, 2), 0.5), np.array([1, -1, 1]), 2)
    with pytest.raises(ValueError, match="-1, \\+1"):
        optimal_boolean_tree(np.zeros((3, 2)), np.array([1, 0, 1]), 2)


def test_boolean_tree_text_takes_names():
    X, y = make_led_digits(300, random_state=4)
    best = optimal_boolean_tree(X, y, 2)
    default = best.to_text()
    named = best.to_text(feature_names=[f"s{j}" for j in range(7)])
    assert "x" in default and "x" not in named and "s" in named
    assert len(default.splitlines()) == len(named.splitlines()) == best.n_leaves
    with pytest.raises(ValueError, match="feature_names has 2 names"):
        best.to_text(feature_names=["a", "b"])
