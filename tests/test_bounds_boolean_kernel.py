"""Lower bounds of paper 03 (Eqs. 9, 11, (Σα)²/αᵀGα, Theorem 5) against fitted trees and DNFs."""

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.utils._param_validation import InvalidParameterError

from companion.bounds.boolean_kernel import (
    alpha_lower_bound,
    error_lower_bound,
    extended_gram,
    minimal_risk,
    mmp_lower_bound,
    perceptron_lower_bound,
    regularised_risk,
    tree_risk,
)
from companion.kernels import (
    add_complemented_bits,
    boolean_kernel,
    dnf_polynomial,
    literal_monomials,
    monomial_features,
    polynomial_norm_sq,
)
from companion.baselines import PrunedDecisionTree
from companion.led import optimal_boolean_tree
from companion.perceptrons import KernelPerceptron, MaximalMarginPerceptron

LAM = 4.0


def random_problem(rng, m=60, n=5, flip=0.2):
    bits = rng.integers(0, 2, size=(m, n))
    y = np.where((bits[:, 0] & bits[:, 1]) | bits[:, 2], 1, -1)
    y = np.where(rng.random(m) < flip, -y, y)
    return bits, y


def primal_minimal_risk(features, y, lam):
    """min_v ‖v‖² + (1/λ) Σ (1 - y_i v·φ_i)_+² by L-BFGS on the explicit features."""

    def objective(v):
        slack = np.maximum(0.0, 1.0 - y * (features @ v))
        return v @ v + slack @ slack / lam, 2 * v - 2 / lam * features.T @ (slack * y)

    result = minimize(objective, np.zeros(features.shape[1]), jac=True, method="L-BFGS-B", options=dict(gtol=1e-12, ftol=1e-15, maxiter=10_000))
    return result.fun


@pytest.mark.parametrize("degree", [1, 2, 3])
def test_minimal_risk_three_ways(rng, degree):
    bits, y = random_problem(rng, m=40)
    Xc = add_complemented_bits(bits)
    K = boolean_kernel(Xc, degree=degree)
    risk, b = minimal_risk(K, y, LAM)
    assert risk == pytest.approx(b @ extended_gram(K, y, LAM) @ b, rel=1e-8)
    features = monomial_features(Xc, literal_monomials(5, degree))
    assert primal_minimal_risk(features, y, LAM) == pytest.approx(risk, rel=1e-6)
    mmp = MaximalMarginPerceptron(kernel="precomputed", lam=LAM, tol=1e-7, max_iter=1_000_000).fit(K, y)
    assert 1 / mmp.extended_norm_sq_ == pytest.approx(risk, rel=1e-5)
    # Optimality conditions of the minimal risk (paper 03, Section 4): 1 - y f*(x_i) = λ b_i on the support, y f* >= 1 elsewhere.
    margins = y * (K @ (b * y))
    support = b > 1e-10
    np.testing.assert_allclose(1 - margins[support], LAM * b[support], atol=1e-6)
    assert np.all(margins[~support] >= 1 - 1e-6)


def test_alpha_bound_never_exceeds_minimal_risk(rng):
    bits, y = random_problem(rng)
    K = boolean_kernel(add_complemented_bits(bits), degree=2)
    G = extended_gram(K, y, LAM)
    risk, b = minimal_risk(K, y, LAM)
    for _ in range(200):
        alpha = rng.exponential(size=y.size) * (rng.random(y.size) < 0.5)
        alpha[0] += 1e-3
        assert alpha_lower_bound(alpha, G) <= risk * (1 + 1e-10)
    assert alpha_lower_bound(b, G) == pytest.approx(risk, rel=1e-8)  # attained at the optimum


def test_perceptron_and_mmp_states_bound_the_risk(rng):
    bits, y = random_problem(rng)
    K = boolean_kernel(add_complemented_bits(bits), degree=3)
    G = extended_gram(K, y, LAM)
    risk, _ = minimal_risk(K, y, LAM)
    perceptron = KernelPerceptron(kernel="precomputed", lam=LAM).fit(K, y)
    assert perceptron_lower_bound(perceptron.n_updates_, perceptron.extended_norm_sq_) <= risk
    assert perceptron.lower_bound_ == pytest.approx(alpha_lower_bound(perceptron.alpha_, G))
    assert perceptron.risk_ >= risk - 1e-9
    # Novikoff in extended space: t <= (max K_ii + λ) · min R.
    assert perceptron.n_updates_ <= (K.diagonal().max() + LAM) * risk
    mmp = MaximalMarginPerceptron(kernel="precomputed", lam=LAM, tol=1e-3).fit(K, y)
    # Every MMP state is in the simplex, so every 1/N on the way is a lower bound (Eq. 11).
    assert np.all(1 / mmp.norm_history_ <= risk * (1 + 1e-10))
    assert mmp_lower_bound(mmp.extended_norm_sq_) <= risk * (1 + 1e-10) <= mmp.risk_upper_bound_
    assert mmp.risk_ <= mmp.risk_upper_bound_ * (1 + 1e-10)


@pytest.mark.parametrize("degree", [1, 2, 3, 5])
def test_every_bound_below_every_tree_and_dnf(rng, degree):
    """min R over P_{d,n} ≤ R of every tree/DNF in DT_{d,n}, DNF_{d,n}; so is every lower bound."""
    for _ in range(3):
        bits, y = random_problem(rng, m=80)
        Xc = add_complemented_bits(bits)
        K = boolean_kernel(Xc, degree=degree)
        risk, _ = minimal_risk(K, y, LAM)
        bounds = [
            risk,
            KernelPerceptron(kernel="precomputed", lam=LAM).fit(K, y).lower_bound_,
            MaximalMarginPerceptron(kernel="precomputed", lam=LAM).fit(K, y).lower_bound_,
        ]
        risks = []
        for tree in (PrunedDecisionTree(pruning="errors", max_depth=degree, random_state=0, fallback=None).fit(bits, y), optimal_boolean_tree(bits, y, degree)):
            monomials = getattr(tree, "leaf_monomials_", None) or list(tree.leaf_monomials)
            signs = getattr(tree, "leaf_signs_", None)
            signs = tree.leaf_signs if signs is None else signs
            f = monomial_features(Xc, monomials) @ signs
            norm = polynomial_norm_sq(monomials, signs)
            errors = int(np.sum(f * y <= 0))
            tree_value = regularised_risk(f, y, norm, LAM)
            assert tree_value == pytest.approx(tree_risk(norm, errors, LAM))  # Eq. (8)
            assert tree_value == pytest.approx(len(monomials) + errors)
            risks.append(tree_value)
            for bound in bounds:
                assert errors >= np.ceil(error_lower_bound(bound, norm, LAM) - 1e-9)  # Theorem 5
        candidates = literal_monomials(5, degree)[1:]
        for n_terms in (1, 2, 4, 8):
            terms = [candidates[k] for k in rng.choice(len(candidates), size=n_terms, replace=False)]
            monomials, coefficients = dnf_polynomial(terms)
            f = monomial_features(Xc, monomials) @ coefficients
            risks.append(regularised_risk(f, y, polynomial_norm_sq(monomials, coefficients), LAM))
        for value in risks:
            for bound in bounds:
                assert bound <= value + 1e-9


def test_error_lower_bound_and_tree_risk():
    assert error_lower_bound(44.3, 4, 4.0) == pytest.approx(40.3)  # a 4-leaf tree makes >= 41 errors
    assert error_lower_bound(3.0, 10, 4.0) == 0.0
    assert tree_risk(4, 106, 4.0) == 110
    assert tree_risk(4, 0, 0.0) == 4 and tree_risk(4, 1, 0.0) == np.inf


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: alpha_lower_bound([1, -1], np.eye(2)), "non-negative"),
        (lambda: alpha_lower_bound([0, 0], np.eye(2)), "not all zero"),
        (lambda: alpha_lower_bound([1, 1, 1], np.eye(2)), "does not match"),
        (lambda: extended_gram(np.eye(2), [1, 0], 1.0), "-1, \\+1"),
        (lambda: extended_gram(np.eye(3), [1, -1], 1.0), "square"),
        (lambda: extended_gram(np.eye(2), [1, -1], -1.0), "lam"),
        (lambda: perceptron_lower_bound(3, 0.0), "norm_sq"),
        (lambda: mmp_lower_bound(-1.0), "norm_sq"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_the_dual_solver_needs_a_positive_lam():
    # for lam = 0 the data may not be separable: refused by the declaration
    with pytest.raises(
        InvalidParameterError,
        match=r"The 'lam' parameter of minimal_risk must be a float in the range \(0\.0, inf\)\. Got 0\.0 instead",
    ):
        minimal_risk(np.eye(2), [1, -1], 0.0)
