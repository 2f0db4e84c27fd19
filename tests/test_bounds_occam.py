"""Occam's razor bound with the stump prior and the dyadic threshold code (Paper 05, Section III, Theorem 2)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import beta

from companion.bounds.binomial import log_choose
from companion.bounds.occam import (
    dyadic_code,
    dyadic_code_lengths,
    occam_bound,
    occam_log_prior,
    threshold_code_cost,
    zeta,
)


def naive_code(a, b, low, high, closed=True, max_level=40):
    """Enumerate Λ_l point by point."""
    for level in range(max_level + 1):
        for j in range(1, 2**level + 1):
            point = low + (high - low) * (2 * j - 1) / 2 ** (level + 1)
            if a <= point and (point <= b if closed else point < b):
                return level, point
    return -1, float("nan")


@pytest.mark.parametrize(
    "interval, rng_, expected",
    [((0.30, 0.45), (0, 1), (2, 0.375)), ((0.49, 0.51), (0, 1), (0, 0.5)),
     ((0.10, 0.12), (0, 1), (5, 0.109375)), ((3.0, 3.9), (0, 16), (3, 3.0))],
)
def test_dyadic_code_examples(interval, rng_, expected):
    assert dyadic_code(*interval, *rng_) == expected


@settings(max_examples=200, deadline=None)
@given(a=st.floats(0, 1), w=st.floats(1e-6, 1))
def test_code_length_at_most_floor_log2_and_point_inside(a, w):
    b = min(1.0, a + w)
    if b <= a:
        return
    level, point = dyadic_code(a, b, 0.0, 1.0)
    assert 0 <= level <= math.floor(math.log2(1.0 / (b - a)))
    assert a <= point <= b


def test_vectorised_code_matches_enumeration(rng):
    low, high = -3.0, 5.0
    a = rng.uniform(low, high, 300)
    b = np.minimum(high, a + rng.exponential(0.3, 300))
    for closed in (True, False):
        lengths, points = dyadic_code_lengths(a, b, low, high, closed=closed)
        for ai, bi, li, pi in zip(a, b, lengths, points):
            ln, pn = naive_code(ai, bi, low, high, closed=closed)
            assert li == ln
            if ln >= 0:
                assert pi == pytest.approx(pn, abs=1e-12)


def test_empty_open_interval_has_no_code():
    lengths, points = dyadic_code_lengths([0.5, 0.2], [0.5, 0.3], 0.0, 1.0, closed=False)
    assert lengths[0] == -1 and np.isnan(points[0]) and lengths[1] >= 0


def test_prior_sums_to_at_most_one():
    # Σ_l ζ(l) 2^l 2^{-l} = 1 (per stump) and Σ_d ζ(d) ≤ 1 (sizes).
    assert sum(zeta(l) for l in range(200000)) == pytest.approx(1.0, abs=1e-5)
    n = 30
    total = sum(math.comb(n, d) * 2**d * math.exp(occam_log_prior(n, [0] * d)) / (zeta(0) ** d) for d in range(n + 1))
    assert total <= 1.0


def test_reference_values():
    assert occam_log_prior(2000, [3, 5]) == pytest.approx(-31.48606, abs=1e-5)
    assert occam_bound(0, 62, 2000, [0]) == pytest.approx(0.197889, abs=1e-6)
    assert occam_bound(2, 72, 7129, [2]) == pytest.approx(0.289903, abs=1e-6)


def test_bound_is_binomial_inversion_at_prior_times_delta():
    # Independent check through the Clopper–Pearson quantile (our notes' hand value 0.564041 for
    # this case disagreed with its own ln prior; the formula gives 0.564430).
    log_prior = occam_log_prior(2000, [3, 5])
    expected = beta.isf(0.05 * math.exp(log_prior), 6, 57)
    assert occam_bound(5, 62, 2000, [3, 5]) == pytest.approx(expected, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(errors=st.integers(0, 30), lengths=st.lists(st.integers(0, 20), min_size=1, max_size=6))
def test_monotone_in_errors_code_lengths_and_size(errors, lengths):
    base = occam_bound(errors, 60, 2000, lengths)
    assert occam_bound(errors + 1, 60, 2000, lengths) >= base
    longer = list(lengths)
    longer[0] += 1
    assert occam_bound(errors, 60, 2000, longer) >= base
    assert occam_bound(errors, 60, 2000, lengths + [0]) >= base


def test_threshold_cost_and_log_choose():
    assert threshold_code_cost(0) == pytest.approx(math.log(math.pi**2 / 6))
    assert log_choose(10, 3) == pytest.approx(math.log(120))


@settings(max_examples=60, deadline=None)
@given(m=st.integers(1, 500), n=st.integers(1, 20000), lengths=st.lists(st.integers(0, 30), min_size=1, max_size=6),
       delta=st.floats(1e-6, 0.5))
def test_tighter_than_blumer_et_al(m, n, lengths, delta):
    n = max(n, len(lengths))  # one stump per attribute: at least as many attributes as stumps
    # Section III: Langford's bound is "a tighter version of the bound proposed by Blumer et al.":
    # for a classifier with no training error, Blumer et al. bound the risk by ln(1/(δP(f)))/m;
    # the binomial inversion gives 1 − (δP(f))^{1/m}, which is below it since 1 − e^{−x} < x.
    blumer = (-math.log(delta) - occam_log_prior(n, lengths)) / m
    langford = occam_bound(0, m, n, lengths, delta)
    assert langford < blumer
    # rtol: both pass through log/exp; the inequality is strict by far more than their last bits.
    assert langford == pytest.approx(min(1.0, -math.expm1(-blumer)), rel=1e-9)


def test_threshold_cost_is_linear_in_l_up_to_a_log():
    # Section III: "the dominant contribution comes from the 2^{-l_i} term yielding a risk bound that
    # depends linearly in l_i": the cost of an l-bit threshold is l ln 2 plus −ln ζ(l), which grows
    # like 2 ln(l + 1) only, so the cost per bit tends to ln 2.
    levels = np.arange(0, 2001)
    cost = threshold_code_cost(levels)
    rest = cost - levels * math.log(2)
    np.testing.assert_allclose(rest, math.log(math.pi**2 / 6) + 2 * np.log(levels + 1), rtol=1e-12)
    assert np.all(np.diff(cost) > math.log(2))  # each bit costs at least ln 2 ...
    assert cost[-1] / levels[-1] < math.log(2) * 1.02  # ... and not much more for long codes


def test_bad_input():
    with pytest.raises(ValueError, match="delta"):
        occam_bound(1, 10, 5, [1], delta=0.0)
    with pytest.raises(ValueError, match="delta"):
        occam_bound(1, 10, 5, [1], delta=1.01)
    with pytest.raises(ValueError, match="code_lengths"):
        occam_log_prior(5, [-1])
    with pytest.raises(ValueError, match="n_features"):
        occam_log_prior(1, [0, 0])
    with pytest.raises(ValueError, match="low <= a <= b"):
        dyadic_code(0.6, 0.5, 0.0, 1.0)
    with pytest.raises(ValueError, match="high > low"):
        dyadic_code(0.0, 0.0, 1.0, 1.0)
