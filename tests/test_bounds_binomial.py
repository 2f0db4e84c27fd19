"""Binomial tail and its inversion (Paper 05, Section III; Langford 2005)."""

import math
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import beta, binom
from sklearn.utils._param_validation import InvalidParameterError

from companion.bounds.binomial import (
    binomial_tail, binomial_tail_inversion, log_binomial_tail, log_choose, test_set_bound,
)
from companion.bounds._confidence import check_delta, resolve_log_delta


def naive_tail(k, m, r):
    return sum(binom.pmf(i, m, r) for i in range(k + 1))


def naive_inversion(k, m, delta, steps=200):
    """Plain bisection on Bin(k, m, r) >= delta using scipy's cdf."""
    lo, hi = 0.0, 1.0
    for _ in range(steps):
        mid = (lo + hi) / 2
        if binom.cdf(k, m, mid) >= delta:
            lo = mid
        else:
            hi = mid
    return lo


@pytest.mark.parametrize(
    "k, m, expected",
    [(0, 100, 0.0295130496), (0, 62, 0.0471695114), (5, 62, 0.1621130168), (10, 72, 0.2241926773)],
)
def test_reference_values(k, m, expected):
    assert binomial_tail_inversion(k, m, 0.05) == pytest.approx(expected, abs=1e-10)


def test_reference_values_in_delta():
    got = [binomial_tail_inversion(3, 50, d) for d in (0.01, 0.05, 0.1, 0.5)]
    np.testing.assert_allclose(got, [0.1872, 0.1478, 0.1288, 0.0729], atol=5e-5)


def test_closed_forms():
    assert binomial_tail_inversion(7, 7, 0.3) == 1.0
    assert binomial_tail_inversion(3, 7, 1.0) == 0.0  # only r = 0 gives Bin = 1
    for m in (1, 10, 200):
        assert binomial_tail_inversion(0, m, 0.05) == pytest.approx(1 - 0.05 ** (1 / m), abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(m=st.integers(1, 300), frac=st.floats(0, 1), delta=st.floats(1e-12, 1.0))
def test_inversion_is_exact_and_matches_clopper_pearson(m, frac, delta):
    k = int(round(frac * m))
    r = binomial_tail_inversion(k, m, delta)
    if k == m:
        assert r == 1.0
        return
    assert r == pytest.approx(beta.isf(delta, k + 1, m - k), abs=1e-9)
    # Bin(k, m, r) = delta at the inversion, to 1e-9 in the tail probability.
    assert binomial_tail(k, m, r) == pytest.approx(delta, rel=1e-6, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(m=st.integers(2, 150), frac=st.floats(0, 1), d1=st.floats(1e-9, 1.0), d2=st.floats(1e-9, 1.0))
def test_inversion_monotone(m, frac, d1, d2):
    k = min(int(frac * m), m - 1)
    lo_d, hi_d = sorted((d1, d2))
    assert binomial_tail_inversion(k, m, lo_d) >= binomial_tail_inversion(k, m, hi_d)
    assert binomial_tail_inversion(k + 1, m, d1) >= binomial_tail_inversion(k, m, d1)
    assert binomial_tail_inversion(k, m + 1, d1) <= binomial_tail_inversion(k, m, d1)


def test_against_naive_bisection(rng):
    for _ in range(20):
        m = int(rng.integers(1, 120))
        k = int(rng.integers(0, m + 1))
        delta = float(rng.uniform(1e-6, 1))
        expected = 1.0 if k == m else naive_inversion(k, m, delta)
        assert binomial_tail_inversion(k, m, delta) == pytest.approx(expected, abs=1e-9)


def test_tail_matches_pmf_sum(rng):
    for _ in range(20):
        m = int(rng.integers(1, 80))
        k = int(rng.integers(0, m + 1))
        r = float(rng.uniform())
        assert binomial_tail(k, m, r) == pytest.approx(naive_tail(k, m, r), rel=1e-10, abs=1e-300)


def test_log_space_confidence_below_double_range():
    # delta * prior far below 1e-308: still finite, monotone and < 1.
    r1 = binomial_tail_inversion(2, 72, log_delta=-2000.0)
    r2 = binomial_tail_inversion(2, 72, log_delta=-1000.0)
    assert 0 < r2 < r1 < 1
    # r1 is within 1e-9 of the exact root: the tail crosses -2000 inside [r1 - 1e-9, r1].
    assert log_binomial_tail(2, 72, r1) <= -2000.0 + 1e-6
    assert log_binomial_tail(2, 72, r1 - 1e-9) >= -2000.0


def test_vectorised_inputs():
    out = binomial_tail_inversion(np.array([0, 1, 2]), 30, 0.05)
    assert out.shape == (3,) and np.all(np.diff(out) > 0)


@pytest.mark.parametrize("delta", [0.0, -0.1, 1.5, float("nan")])
def test_bad_delta(delta):
    with pytest.raises(ValueError, match="delta"):
        binomial_tail_inversion(1, 10, delta)


def test_bad_counts_and_risk():
    with pytest.raises(ValueError, match="cannot exceed"):
        binomial_tail_inversion(11, 10, 0.05)
    with pytest.raises(ValueError, match="whole number"):
        binomial_tail_inversion(1.5, 10, 0.05)
    with pytest.raises(
        InvalidParameterError,
        match=r"The 'm' parameter of binomial_tail_inversion must be a float in the range \[1\.0, inf\) "
        r"or an array-like\. Got 0 instead",
    ):
        binomial_tail_inversion(0, 0, 0.05)
    with pytest.raises(ValueError, match="r"):
        binomial_tail(1, 10, 1.2)
    with pytest.raises(TypeError, match="exactly one"):
        binomial_tail_inversion(1, 10)
    with pytest.raises(ValueError, match="log_delta"):
        binomial_tail_inversion(1, 10, log_delta=0.5)


def exact_tail(k, m, r):
    """``Bin(k, m, r)`` in exact rational arithmetic (``r`` taken as the exact value of its float)."""
    r = Fraction(r)
    return sum(comb(m, i) * r**i * (1 - r) ** (m - i) for i in range(k + 1))


@pytest.mark.parametrize("k, m, delta", [(0, 1, 0.05), (3, 50, 0.05), (0, 100, 0.01), (12, 80, 0.2), (40, 200, 0.5),
                                         (5, 62, 0.999)])
def test_test_set_bound_brackets_the_exact_root(k, m, delta):
    # Independent of the implementation's tail (scipy, log-sum-exp): with exact binomial sums,
    # Bin(k, m, .) crosses delta within 1e-12 of the bound, from above to below.
    r = test_set_bound(k, m, delta)
    assert 0 < r < 1
    assert exact_tail(k, m, r - 1e-12) > Fraction(delta) > exact_tail(k, m, r + 1e-12)


def test_test_set_bound_edge_cases_from_the_definition():
    # k = m: Bin = 1 >= delta for every r, so the supremum is 1; delta = 1 with k < m: only r = 0
    # reaches Bin = 1.
    assert test_set_bound(7, 7, 0.3) == 1.0
    assert test_set_bound(3, 7, 1.0) == 0.0
    assert exact_tail(3, 7, 1e-12) < 1


def exact_log(value: int) -> float:
    """Natural log of a (possibly huge) positive integer, without overflowing a float."""
    shift = max(0, value.bit_length() - 1000)
    return math.log(value >> shift) + shift * math.log(2.0)


def test_log_choose_is_the_log_of_the_exact_binomial():
    for n in (0, 1, 7, 62, 415, 7129):
        for k in sorted({0, 1, n // 3, n // 2, n} - {1} if n == 0 else {0, 1, n // 3, n // 2, n}):
            assert float(log_choose(n, k)) == pytest.approx(exact_log(comb(n, k)), rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("bad, error", [(0.0, ValueError), (1.5, ValueError), (float("nan"), ValueError),
                                        (np.array([0.5, 0.0]), ValueError), ("0.05", TypeError), (True, TypeError)])
def test_check_delta_is_the_one_confidence_check(bad, error):
    with pytest.raises(error, match="delta"):
        check_delta(bad)
    with pytest.raises(error, match="delta"):
        resolve_log_delta(bad)


def test_resolve_log_delta_takes_exactly_one_form():
    assert resolve_log_delta(0.05) == np.log(0.05)
    assert resolve_log_delta(log_delta=-5000.0) == -5000.0
    assert check_delta(1.0) == 1.0
    with pytest.raises(TypeError, match="exactly one"):
        resolve_log_delta(0.05, log_delta=-3.0)
