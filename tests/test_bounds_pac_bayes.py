"""PAC-Bayes bound, kl inversion, σ functions and Gibbs risk (Paper 05, Section V, Theorem 4)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.bounds.pac_bayes import (
    bayes_predict,
    gibbs_output_probability,
    gibbs_risk,
    kl_bernoulli,
    kl_inverse_upper,
    pac_bayes_bound,
    pac_bayes_kl,
    sigma,
)


def test_reference_values():
    assert pac_bayes_kl(2000, []) == pytest.approx(math.log(math.pi**2 / 6), abs=1e-6)
    assert pac_bayes_kl(2000, [4.0, 10.0]) == pytest.approx(22.27826, abs=1e-5)
    assert pac_bayes_bound(0.1, 62, 2000, [4.0, 10.0]) == pytest.approx(0.561437, abs=1e-6)
    assert pac_bayes_kl(2000, [1.0]) == pytest.approx(10.17804, abs=1e-5)
    assert pac_bayes_bound(0.0, 62, 2000, [1.0]) == pytest.approx(0.243691, abs=1e-6)


@settings(max_examples=100, deadline=None)
@given(q=st.floats(0, 1), eps=st.floats(1e-6, 20))
def test_kl_inverse_is_exact(q, eps):
    r = kl_inverse_upper(q, eps)
    assert q <= r <= 1
    if r < 1 - 1e-9:
        # kl(q‖r) = ε at the inversion: just below r it is within ε, just above it exceeds ε.
        assert kl_bernoulli(q, max(q, r - 1e-9)) <= eps + 1e-12
        assert kl_bernoulli(q, min(1.0, r + 1e-9)) > eps


@settings(max_examples=60, deadline=None)
@given(q1=st.floats(0, 1), q2=st.floats(0, 1), e1=st.floats(0, 5), e2=st.floats(0, 5))
def test_kl_inverse_monotone(q1, q2, e1, e2):
    ql, qh = sorted((q1, q2))
    el, eh = sorted((e1, e2))
    assert kl_inverse_upper(ql, e1) <= kl_inverse_upper(qh, e1)
    assert kl_inverse_upper(q1, el) <= kl_inverse_upper(q1, eh)


def test_kl_inverse_at_zero_epsilon_is_q():
    assert kl_inverse_upper(0.3, 0.0) == pytest.approx(0.3, abs=1e-9)


def test_kl_inverse_closed_form_at_zero():
    # kl(0‖r) = -ln(1 - r) => r = 1 - exp(-ε).
    for eps in (0.01, 0.3, 2.0):
        assert kl_inverse_upper(0.0, eps) == pytest.approx(1 - math.exp(-eps), abs=1e-12)


def test_sigma_properties(rng):
    x = rng.normal(size=100)
    np.testing.assert_allclose(sigma(x, -0.5, 0.7, +1) + sigma(x, -0.5, 0.7, -1), 1.0)
    assert sigma(0.25, 0.0, 1.0, +1) == pytest.approx(0.25)
    assert sigma(-1.0, 0.0, 1.0, +1) == 0.0 and sigma(2.0, 0.0, 1.0, +1) == 1.0


def test_gibbs_risk_matches_monte_carlo(rng):
    X = rng.normal(size=(40, 3))
    y = (X[:, 0] + 0.3 * rng.normal(size=40) > 0).astype(int)
    features, lows, highs, dirs = [0, 2], np.array([-0.4, -1.0]), np.array([0.5, 0.2]), np.array([1, -1])
    closed = gibbs_risk(X, y, features, lows, highs, dirs)
    draws = rng.uniform(lows, highs, size=(20000, 2))
    out = np.all(np.where(dirs > 0, X[:, features][None] > draws[:, None], X[:, features][None] < draws[:, None]), axis=2)
    mc = np.mean(out != y[None].astype(bool))
    assert closed == pytest.approx(mc, abs=0.01)


def test_gibbs_tends_to_deterministic_and_bayes_at_most_twice_gibbs(rng):
    X = rng.normal(size=(60, 2))
    y = (X[:, 0] > 0.1).astype(int)
    a, width = 0.05, 1e-9
    gibbs = gibbs_risk(X, y, [0], [a], [a + width], [1])
    det = np.mean((X[:, 0] > a) != y.astype(bool))
    assert gibbs == pytest.approx(det, abs=1e-6)
    for lows, highs in ([[-1.0], [1.0]], [[-0.2], [0.3]]):
        g = gibbs_risk(X, y, [0], lows, highs, [1])
        bayes = np.mean(bayes_predict(X, [0], lows, highs, [1]) != y)
        assert bayes <= 2 * g + 1e-12
    assert np.all(gibbs_output_probability(X, [], [], [], []) == 1.0)


def test_kl_continuous_part_vanishes_at_the_prior_range():
    # Section V: with [a_k, b_k] = [A_k, B_k] the KL of the "continuous components" vanishes: the
    # KL is then ln C(n,|k|) − ln ζ(|k|) + |k| ln 2 alone.
    from companion.bounds.binomial import log_choose
    from companion.bounds.occam import log_zeta

    for n, size in ((2000, 0), (2000, 1), (7129, 3), (12625, 5)):
        discrete = log_choose(n, size) - log_zeta(size) + size * math.log(2)
        # rtol: sums of logs, last bits follow the machine
        assert pac_bayes_kl(n, [1.0] * size) == pytest.approx(discrete, rel=1e-12)
        if size:
            assert pac_bayes_kl(n, [1.0] * (size - 1) + [1.5]) > pac_bayes_kl(n, [1.0] * size)


def test_kl_trades_margins_against_sparsity():
    # Section V: the KL "exhibits a tradeoff between margins (b_k − a_k) and sparsity (small |k|)":
    # it falls as any margin widens (smaller (B−A)/(b−a)) and rises with each stump added while
    # |k| ≤ n/2 (the discrete part is small for small |k|).
    for n in (50, 2000, 7129):
        previous = -math.inf
        for size in range(0, min(n // 2, 40) + 1):
            kl = pac_bayes_kl(n, [1.0] * size)
            assert kl > previous
            previous = kl
    ratios = [8.0, 64.0, 2.0]
    for i in range(len(ratios)):
        wider = list(ratios)
        wider[i] /= 2.0
        assert pac_bayes_kl(2000, wider) < pac_bayes_kl(2000, ratios)
        assert pac_bayes_kl(2000, ratios) == pytest.approx(pac_bayes_kl(2000, wider) + math.log(2.0), rel=1e-12)


@settings(max_examples=40, deadline=None)
@given(q=st.floats(0, 0.5), ratio=st.floats(1, 1e6))
def test_bound_monotone_in_risk_and_margin(q, ratio):
    b = pac_bayes_bound(q, 60, 2000, [ratio])
    assert pac_bayes_bound(min(1.0, q + 0.01), 60, 2000, [ratio]) >= b
    assert pac_bayes_bound(q, 60, 2000, [ratio * 2]) >= b
    assert b >= q


def test_bad_input():
    with pytest.raises(ValueError, match="delta"):
        pac_bayes_bound(0.1, 60, 100, [2.0], delta=0.0)
    with pytest.raises(ValueError, match="range_ratios"):
        pac_bayes_kl(100, [0.5])
    with pytest.raises(ValueError, match="q"):
        kl_inverse_upper(1.5, 0.1)
    with pytest.raises(ValueError, match="epsilon"):
        kl_inverse_upper(0.1, -1)
    with pytest.raises(ValueError, match="b > a"):
        sigma(0.0, 1.0, 1.0, 1)
    with pytest.raises(ValueError, match=r"The 'm' parameter of pac_bayes_bound must be an int in the range \[1, inf\)"):
        pac_bayes_bound(0.1, 0, 100, [2.0])
