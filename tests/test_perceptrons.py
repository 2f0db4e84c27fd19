"""λ-perceptron (Algorithm 1), λ-MMP (Algorithm 2), mask perceptron and the regularised risk."""

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.exceptions import ConvergenceWarning

from companion.bounds.boolean_kernel import extended_gram, minimal_risk
from companion.kernels import add_complemented_bits, boolean_kernel, literal_monomials, monomial_features
from companion.perceptrons import (
    KernelPerceptron,
    MaskPerceptron,
    MaximalMarginPerceptron,
    _squared_hinge_fit,
    regularised_risk,
)

LAM = 4.0


def noisy_boolean(rng, m=80, n=5, flip=0.15):
    bits = rng.integers(0, 2, size=(m, n))
    y = np.where((bits[:, 0] & bits[:, 1]) | (bits[:, 2] & ~bits[:, 3] & 1), 1, -1)
    return bits, np.where(rng.random(m) < flip, -y, y)


def naive_perceptron(G):
    """Algorithm 1 as written: cyclic sweeps over the examples until a sweep makes no update."""
    alpha = np.zeros(G.shape[0], dtype=int)
    updated = True
    while updated:
        updated = False
        for j in range(G.shape[0]):
            if G[j] @ alpha <= 0:
                alpha[j] += 1
                updated = True
    return alpha


def test_vectorised_perceptron_equals_naive_sweeps(rng):
    for degree in (1, 2, 4):
        bits, y = noisy_boolean(rng)
        K = boolean_kernel(add_complemented_bits(bits), degree=degree)
        fitted = KernelPerceptron("precomputed", lam=LAM).fit(K, y)
        np.testing.assert_array_equal(fitted.alpha_, naive_perceptron(extended_gram(K, y, LAM)))


def test_perceptron_converges_on_separable_data(rng):
    bits = rng.integers(0, 2, size=(120, 6))
    y = np.where((bits[:, 0] & bits[:, 1]) | (bits[:, 2] & bits[:, 4]), "yes", "no")  # a DNF: separable, d = 2
    X = add_complemented_bits(bits)
    clf = KernelPerceptron("boolean", degree=2, lam=0.0).fit(X, y)
    assert clf.converged_
    assert clf.training_error_ == 0
    np.testing.assert_array_equal(clf.predict(X), y)
    assert 0 < clf.lower_bound_ < np.inf  # Eq. (9) with λ = 0: a bound on the hard-margin ‖f‖²


def test_perceptron_warns_when_not_separable():
    X = np.array([[1.0, 0.0], [1.0, 0.0]])
    with pytest.warns(ConvergenceWarning, match="max_updates"):
        KernelPerceptron("linear", lam=0.0, max_updates=50).fit(X, [0, 1])


def test_perceptron_scaling_makes_extended_norm_equal_bound(rng):
    bits, y = noisy_boolean(rng)
    K = boolean_kernel(add_complemented_bits(bits), degree=2)
    clf = KernelPerceptron("precomputed", lam=LAM).fit(K, y)
    scale = clf.n_updates_ / clf.extended_norm_sq_
    extended = scale**2 * clf.alpha_ @ extended_gram(K, y, LAM) @ clf.alpha_
    assert extended == pytest.approx(clf.lower_bound_)
    assert clf.alpha_.sum() == clf.n_updates_
    assert clf.n_support_ == np.count_nonzero(clf.alpha_)


def test_mmp_invariants_and_convergence(rng):
    bits, y = noisy_boolean(rng, m=70)
    K = boolean_kernel(add_complemented_bits(bits), degree=3)
    G = extended_gram(K, y, LAM)
    risk, b = minimal_risk(K, y, LAM)
    tol = 1e-3
    mmp = MaximalMarginPerceptron("precomputed", lam=LAM, tol=tol).fit(K, y)
    assert np.all(np.diff(mmp.norm_history_) <= 1e-12 * mmp.norm_history_[0])  # N never increases
    assert np.all(mmp.alpha_ >= 0) and mmp.alpha_.sum() == pytest.approx(1.0)
    g = G @ mmp.alpha_
    N = mmp.alpha_ @ g
    assert g.min() >= (1 - tol) * N  # stopping rule (10)
    assert 1 / N <= risk * (1 + 1e-10) <= N / g.min() ** 2 <= (1 - tol) ** -2 / N * (1 + 1e-10)  # Eqs. (11), (12)
    precise = MaximalMarginPerceptron("precomputed", lam=LAM, tol=1e-6, max_iter=200_000).fit(K, y)
    assert precise.converged_
    assert 1 / precise.extended_norm_sq_ == pytest.approx(risk, rel=1e-6)
    assert precise.risk_ == pytest.approx(risk, rel=1e-5)
    assert set(precise.support_) == set(np.flatnonzero(b > 1e-9))


def test_hard_margin_mmp_on_separable_data(rng):
    bits = rng.integers(0, 2, size=(60, 5))
    y = np.where(bits[:, 0] | bits[:, 3], 1, -1)
    mmp = MaximalMarginPerceptron("boolean", degree=1, lam=0.0, tol=1e-4).fit(add_complemented_bits(bits), y)
    assert mmp.training_error_ == 0 and np.isfinite(mmp.risk_)


def test_kernel_options_agree(rng):
    bits, y = noisy_boolean(rng)
    X = add_complemented_bits(bits)
    labels = np.where(y > 0, "five-nine", "zero-four")
    by_name = MaximalMarginPerceptron("boolean", degree=2).fit(X, labels)
    by_gram = MaximalMarginPerceptron("precomputed").fit(boolean_kernel(X, degree=2), labels)
    by_callable = MaximalMarginPerceptron(lambda A, B: boolean_kernel(A, B, degree=2)).fit(X, labels)
    np.testing.assert_array_equal(by_name.predict(X), by_gram.predict(boolean_kernel(X, degree=2)))
    np.testing.assert_array_equal(by_name.predict(X), by_callable.predict(X))
    assert set(by_name.predict(X)) <= {"five-nine", "zero-four"}
    assert by_name.risk_ == pytest.approx(by_gram.risk_)


def test_regularised_risk():
    assert regularised_risk([2.0, 0.5, -1.0], [1, 1, 1], norm_sq=1.0, lam=2.0) == pytest.approx(1 + (0.25 + 4) / 2)
    assert regularised_risk([1.0, 1.0], [1, 1], norm_sq=3.0, lam=0.0) == 3.0
    assert regularised_risk([1.0, 0.9], [1, 1], norm_sq=3.0, lam=0.0) == np.inf
    with pytest.raises(ValueError, match="same length"):
        regularised_risk([1.0], [1, 1], 1.0, 1.0)
    with pytest.raises(ValueError, match="lam"):
        regularised_risk([1.0], [1], 1.0, -1.0)


def test_squared_hinge_fit_matches_lbfgs(rng):
    bits, y = noisy_boolean(rng)
    features = monomial_features(add_complemented_bits(bits), literal_monomials(5, 2)[:12])
    v, risk = _squared_hinge_fit(features, y.astype(float), LAM)

    def objective(w):
        slack = np.maximum(0, 1 - y * (features @ w))
        return w @ w + slack @ slack / LAM

    reference = minimize(objective, np.zeros(features.shape[1]), method="L-BFGS-B", options=dict(ftol=1e-15, gtol=1e-12))
    assert risk == pytest.approx(reference.fun, rel=1e-7)
    assert risk <= reference.fun + 1e-9


def test_mask_perceptron(rng):
    bits, y = noisy_boolean(rng, m=150)
    clf = MaskPerceptron(degree=2, n_terms=6).fit(bits, y)
    assert 1 <= clf.n_terms_ <= 6
    assert np.all(np.diff(clf.risk_path_) < 0)
    f = clf.decision_function(bits)
    assert clf.risk_ == pytest.approx(regularised_risk(f, y, clf.norm_sq_, LAM))
    assert clf.norm_sq_ == pytest.approx(np.sum(clf.coef_**2))  # c ≡ 1: ‖f‖² = Σ w_I²
    risk, _ = minimal_risk(boolean_kernel(add_complemented_bits(bits), degree=2), y, LAM)
    assert clf.risk_ >= risk - 1e-9  # a sparse polynomial cannot beat the optimum over P_{2,n}
    text = clf.to_text()
    assert "¬" in text or "x" in text
    assert len(clf.monomials_) == clf.n_terms_ + 1 and clf.monomials_[0] == ()


@pytest.mark.parametrize(
    "estimator, X, message",
    [
        (KernelPerceptron("boolean"), [[0.5, 1.0], [1.0, 0.0]], "Boolean"),
        (MaximalMarginPerceptron("boolean"), [[3.0, 1.0], [1.0, 0.0]], "Boolean"),
        (KernelPerceptron("no-such-kernel"), [[0.0, 1.0], [1.0, 0.0]], "kernel must be"),
        (KernelPerceptron("boolean", degree=-2), [[0.0, 1.0], [1.0, 0.0]], "degree"),
        (KernelPerceptron(lam=-1.0), [[0.0, 1.0], [1.0, 0.0]], "lam"),
        (MaximalMarginPerceptron(tol=1.5), [[0.0, 1.0], [1.0, 0.0]], "tol"),
        (KernelPerceptron("precomputed"), [[0.0, 1.0, 1.0], [1.0, 0.0, 1.0]], "square"),
        (MaskPerceptron(lam=0.0), [[0.0, 1.0], [1.0, 0.0]], "lam"),
        (MaskPerceptron(n_terms=-1), [[0.0, 1.0], [1.0, 0.0]], "n_terms"),
    ],
)
def test_bad_parameters_and_input(estimator, X, message):
    with pytest.raises(ValueError, match=message):
        estimator.fit(X, [0, 1])


def test_binary_only():
    X = np.eye(3)
    for estimator in (KernelPerceptron(), MaximalMarginPerceptron(), MaskPerceptron()):
        with pytest.raises(ValueError, match="exactly 2 classes"):
            estimator.fit(X, [0, 1, 2])
