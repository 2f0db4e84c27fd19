"""λ-perceptron (Algorithm 1), λ-MMP (Algorithm 2), mask perceptron and the regularised risk."""

import functools

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.exceptions import ConvergenceWarning
from sklearn.base import clone

from companion.bounds.boolean_kernel import extended_gram, minimal_risk, regularised_risk
from companion.kernels import add_complemented_bits, boolean_kernel, literal_monomials, monomial_features
from companion.perceptrons import (
    KernelPerceptron,
    MaskPerceptron,
    MaximalMarginPerceptron,
    _CandidateMatrix,
    _CandidatePairs,
    _GivenKernel,
    _KernelRows,
    _squared_hinge_fit,
    _top_scores,
)
from companion._monomials import monomial_positions
from companion.kernels import degree_weights
from companion.numerics import ordered_matvec

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
        fitted = KernelPerceptron(kernel="precomputed", lam=LAM).fit(K, y)
        np.testing.assert_array_equal(fitted.alpha_, naive_perceptron(extended_gram(K, y, LAM)))


def test_perceptron_converges_on_separable_data(rng):
    bits = rng.integers(0, 2, size=(120, 6))
    y = np.where((bits[:, 0] & bits[:, 1]) | (bits[:, 2] & bits[:, 4]), "yes", "no")  # a DNF: separable, d = 2
    X = add_complemented_bits(bits)
    clf = KernelPerceptron(kernel="boolean", degree=2, lam=0.0).fit(X, y)
    assert clf.converged_
    assert clf.training_error_ == 0
    np.testing.assert_array_equal(clf.predict(X), y)
    assert 0 < clf.lower_bound_ < np.inf  # Eq. (9) with λ = 0: a bound on the hard-margin ‖f‖²


def test_perceptron_warns_when_not_separable():
    X = np.array([[1.0, 0.0], [1.0, 0.0]])
    with pytest.warns(ConvergenceWarning, match="max_updates"):
        KernelPerceptron(kernel="linear", lam=0.0, max_updates=50).fit(X, [0, 1])


def test_perceptron_scaling_makes_extended_norm_equal_bound(rng):
    bits, y = noisy_boolean(rng)
    K = boolean_kernel(add_complemented_bits(bits), degree=2)
    clf = KernelPerceptron(kernel="precomputed", lam=LAM).fit(K, y)
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
    mmp = MaximalMarginPerceptron(kernel="precomputed", lam=LAM, tol=tol).fit(K, y)
    assert np.all(np.diff(mmp.norm_history_) <= 1e-12 * mmp.norm_history_[0])  # N never increases
    assert np.all(mmp.alpha_ >= 0) and mmp.alpha_.sum() == pytest.approx(1.0)
    g = G @ mmp.alpha_
    N = mmp.alpha_ @ g
    assert g.min() >= (1 - tol) * N  # stopping rule (10)
    assert 1 / N <= risk * (1 + 1e-10) <= N / g.min() ** 2 <= (1 - tol) ** -2 / N * (1 + 1e-10)  # Eqs. (11), (12)
    precise = MaximalMarginPerceptron(kernel="precomputed", lam=LAM, tol=1e-6, max_iter=200_000).fit(K, y)
    assert precise.converged_
    assert 1 / precise.extended_norm_sq_ == pytest.approx(risk, rel=1e-6)
    assert precise.risk_ == pytest.approx(risk, rel=1e-5)
    assert set(precise.support_) == set(np.flatnonzero(b > 1e-9))


def test_hard_margin_mmp_on_separable_data(rng):
    bits = rng.integers(0, 2, size=(60, 5))
    y = np.where(bits[:, 0] | bits[:, 3], 1, -1)
    mmp = MaximalMarginPerceptron(kernel="boolean", degree=1, lam=0.0, tol=1e-4).fit(add_complemented_bits(bits), y)
    assert mmp.training_error_ == 0 and np.isfinite(mmp.risk_)


def test_kernel_options_agree(rng):
    bits, y = noisy_boolean(rng)
    X = add_complemented_bits(bits)
    labels = np.where(y > 0, "five-nine", "zero-four")
    # the kernel's arithmetic, not the fallback (which a Gram matrix cannot take): the paper's model
    by_name = MaximalMarginPerceptron(kernel="boolean", degree=2, fallback=None).fit(X, labels)
    by_gram = MaximalMarginPerceptron(kernel="precomputed", fallback=None).fit(boolean_kernel(X, degree=2), labels)
    by_callable = MaximalMarginPerceptron(kernel=lambda A, B: boolean_kernel(A, B, degree=2), fallback=None).fit(X, labels)
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
    assert len(clf.monomials_) == clf.n_terms_ + 1 and clf.monomials_[0] == ()
    assert clf.to_text().count("\n") == clf.n_terms_ + 1  # a header, the constant, one line per term


def test_mask_perceptron_text_of_a_hand_built_model():
    model = MaskPerceptron(degree=2, n_terms=3)
    model.classes_ = np.array(["no", "yes"])
    model.n_features_in_ = 2
    model.monomials_ = [(), (0, 1), (2,), (1, 2)]  # with complement=True, column 2 is 1 - x0
    model.coef_ = np.array([-0.4, 0.778, -1.5, 2.0])
    model.n_terms_ = 3
    header = "predict 'yes' if f(x) > 0, else 'no', where f(x) =\n"
    assert model.to_text() == header + "  -0.400 1\n  +0.778 x0 x1\n  -1.500 ¬x0\n  +2.000 x1 ¬x0"
    assert model.to_text(feature_names=["age", "smoker"]) == (
        header + "  -0.400 1\n  +0.778 age smoker\n  -1.500 ¬age\n  +2.000 smoker ¬age"
    )
    assert str(model) == model.to_text()


@pytest.mark.parametrize(
    "estimator, X, message",
    [
        (KernelPerceptron(kernel="boolean"), [[0.5, 1.0], [1.0, 0.0]], "Boolean"),
        (MaximalMarginPerceptron(kernel="boolean"), [[3.0, 1.0], [1.0, 0.0]], "Boolean"),
        (KernelPerceptron(kernel="no-such-kernel"), [[0.0, 1.0], [1.0, 0.0]], "'kernel' parameter of KernelPerceptron"),
        (KernelPerceptron(kernel="boolean", degree=-2), [[0.0, 1.0], [1.0, 0.0]], "degree"),
        (KernelPerceptron(lam=-1.0), [[0.0, 1.0], [1.0, 0.0]], "lam"),
        (MaximalMarginPerceptron(tol=1.5), [[0.0, 1.0], [1.0, 0.0]], "tol"),
        (KernelPerceptron(kernel="precomputed"), [[0.0, 1.0, 1.0], [1.0, 0.0, 1.0]], "square"),
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


# ------------------------------------------------------------------------------------------------
# Exact scores and ties (issue 13: no decision may depend on BLAS rounding)
# ------------------------------------------------------------------------------------------------


def led_problem(seed=3, m=300):
    from companion.led import make_led_digits

    X, y = make_led_digits(m, noise=0.1, random_state=np.random.default_rng(seed))
    return add_complemented_bits(X), y


def test_perceptron_scores_are_exact_integers_with_exact_ties():
    """On LED digits (128 patterns, duplicates with both labels) the λ-perceptron's score is an
    integer and often exactly 0. A reference in Python integers gives the same scores, the same
    ties, the paper's err(f) counting every tie as an error, and predict's tie rule."""
    Xc, y = led_problem()
    K = boolean_kernel(Xc, degree=2)
    clf = KernelPerceptron(kernel="precomputed", lam=LAM).fit(K, y)
    y_signed = np.where(y == clf.classes_[1], 1, -1)
    counts = [int(a) * int(s) for a, s in zip(clf.alpha_, y_signed)]
    K_int = [[int(v) for v in row] for row in K]
    reference = np.array([sum(c * k for c, k in zip(counts, row)) for row in K_int])
    values = clf.decision_function(K)
    np.testing.assert_array_equal(values == 0, reference == 0)
    np.testing.assert_array_equal(np.sign(values), np.sign(reference))
    np.testing.assert_array_equal(values, clf.decision_scale_ * reference.astype(float))
    assert clf.n_ties_ == int(np.sum(reference == 0)) > 0  # ties really occur on this sample
    assert clf.training_error_ == np.mean(y_signed * reference <= 0)
    predicted = clf.predict(K)
    np.testing.assert_array_equal(predicted[reference == 0], clf.classes_[0])
    np.testing.assert_array_equal(predicted[reference > 0], clf.classes_[1])


def test_perceptron_training_error_counts_ties_as_errors_for_both_labels():
    # Two identical inputs with opposite labels: whatever f, y f(x) <= 0 for one of them; with
    # lam = 0 updates on both cancel exactly, so f(x) = 0 and both are errors (not one).
    X = np.array([[1.0, 0.0], [1.0, 0.0]])
    K = boolean_kernel(X, degree=1)
    clf = KernelPerceptron(kernel="precomputed", lam=4.0).fit(K, [0, 1])
    assert clf.n_ties_ == 2 and clf.training_error_ == 1.0
    assert clf.predict(K).tolist() == [0, 0]


def test_perceptron_exactness_does_not_depend_on_the_scale_or_on_blas():
    """The unscaled integer scores decide; a float kernel (rbf) falls back to a fixed-order sum
    that equals a math.fsum reference to rounding."""
    import math

    Xc, y = led_problem(seed=5, m=200)
    K = boolean_kernel(Xc, degree=3)
    clf = KernelPerceptron(kernel="precomputed", lam=LAM).fit(K, y)
    np.testing.assert_array_equal(clf.dual_coef_, clf.decision_scale_ * clf.unscaled_coef_)
    rbf = KernelPerceptron(kernel="rbf", lam=LAM).fit(Xc, y)
    K_rbf = rbf._kernel(Xc, rbf.support_vectors_)
    reference = [math.fsum(float(c) * float(k) for c, k in zip(rbf.unscaled_coef_, row)) for row in K_rbf]
    np.testing.assert_allclose(rbf.decision_function(Xc) / rbf.decision_scale_, reference, rtol=1e-12, atol=1e-12)


def test_mmp_and_mask_perceptron_report_ties_and_count_them_as_errors():
    Xc, y = led_problem(seed=7, m=200)
    K = boolean_kernel(Xc, degree=2)
    mmp = MaximalMarginPerceptron(kernel="precomputed", lam=LAM).fit(K, y)
    f = mmp.decision_function(K)
    y_signed = np.where(y == mmp.classes_[1], 1.0, -1.0)
    assert mmp.n_ties_ == int(np.sum(f == 0))
    assert mmp.training_error_ == np.mean(y_signed * f <= 0)
    X = Xc[:, :7]
    mask = MaskPerceptron(degree=2, n_terms=5, lam=LAM).fit(X, y)
    g = mask.decision_function(X)
    assert mask.n_ties_ == int(np.sum(g == 0))
    assert mask.training_error_ == np.mean(y_signed * g <= 0)


def test_mask_perceptron_identical_columns_keep_index_order():
    """Two candidate monomials with identical training columns score identically (fixed-order
    sums), so the lower-index one is chosen, and the fit equals one with the duplicate removed."""
    rng = np.random.default_rng(0)
    bits = rng.integers(0, 2, size=(120, 3)).astype(float)
    X = np.hstack([bits, bits[:, :1]])  # column 3 duplicates column 0
    y = np.where(bits[:, 0] + bits[:, 1] + rng.random(120) * 0.8 > 1.2, 1, 0)
    mask = MaskPerceptron(degree=1, n_terms=2, lam=LAM, complement=False).fit(X, y)
    chosen = {m for m in mask.monomials_ if m}
    assert (0,) in chosen and (3,) not in chosen


def _naive_top_scores(score, k, rtol=1e-9):
    """The tie rule as MaskPerceptron's docstring states it, one candidate at a time over all."""
    score = np.array(score, dtype=float)
    positive = score > 0
    floor = rtol * max(1.0, score[positive].max()) if positive.any() else 0.0
    available = score > floor
    taken = []
    while len(taken) < k and available.any():
        best = score[available].max()
        tied = [i for i in range(score.size) if available[i] and score[i] >= best - rtol * max(1.0, abs(best))]
        taken.append(tied[0])
        available[tied[0]] = False
    return np.array(taken, dtype=np.intp)


def test_top_scores_follows_the_tie_rule_one_candidate_at_a_time():
    """The partial selection takes, ``k`` times, the lowest index among the scores within the
    tolerance of the best remaining one (naive reference), with exactly equal scores, scores
    equal up to rounding, tiny and zero ones and excluded (-inf) ones."""
    rng = np.random.default_rng(3)
    for trial in range(400):
        size = int(rng.integers(1, 60))
        score = rng.integers(0, 6, size=size).astype(float) / 4 * 10.0 ** [0, -3, 4][trial % 3]
        score *= 1.0 + rng.integers(-3, 4, size=size) * 2.0**-45  # ties that rounding broke
        score[rng.random(size) < 0.1] = 1e-12
        score[rng.random(size) < 0.2] = -np.inf
        k = int(rng.integers(1, size + 3))
        np.testing.assert_array_equal(_top_scores(score, k), _naive_top_scores(score, k))


def test_top_scores_do_not_depend_on_the_last_bits():
    """Scores equal in exact arithmetic but not in their last bits (what another BLAS kernel's
    refit gives) are shortlisted as the exact ones are: the lower index first. A sort of the
    scores as they come (the stable argsort) would follow the rounding."""
    rng = np.random.default_rng(4)
    exact = rng.integers(1, 5, size=40).astype(float) * 0.7
    for _ in range(50):
        rounded = exact * (1.0 + rng.integers(-4, 5, size=exact.size) * 2.0**-52)
        np.testing.assert_array_equal(_top_scores(rounded, 10), np.argsort(-exact, kind="stable")[:10])
    assert any(not np.array_equal(np.argsort(-exact * (1.0 + rng.integers(-4, 5, size=exact.size) * 2.0**-52),
                                             kind="stable")[:10], np.argsort(-exact, kind="stable")[:10])
               for _ in range(50))  # the plain sort would differ


def _naive_shortlist(features, weights, excluded, n):
    """The definition: every candidate scored by ``ordered_matvec``, the tie rule, the first n."""
    score = np.abs(ordered_matvec(features.T, weights))
    score[excluded] = -np.inf
    return _naive_top_scores(score, n)


@pytest.mark.parametrize("complement", [True, False])
@pytest.mark.parametrize("degree", [0, 1, 2])
def test_the_pairs_shortlist_is_the_full_matrix_shortlist(degree, complement):
    """At degree 1 or 2 the fit screens the candidates by a product of the inputs with a rounding
    bound: every fixed-order score lies within its bounds, and the shortlist is exactly what the
    candidates' full matrix gives (naive reference), with 0/1 inputs (many exactly tied scores),
    real ones, near-ties, cancelling weights and zero weights."""
    rng = np.random.default_rng(11 + degree + 3 * complement)
    for trial in range(40):
        m, n_vars = int(rng.integers(5, 90)), int(rng.integers(1, 9))
        X = (rng.random((m, n_vars)) < 0.5).astype(float)
        if trial % 4 == 1:
            X = rng.normal(size=(m, n_vars))
        inputs = np.hstack([X, 1.0 - X]) if complement else X
        positions, degrees = monomial_positions(n_vars, degree, literals=complement)
        c = degree_weights(degree, [None, 2.0, 0.3][trial % 3])
        full = _CandidateMatrix(inputs, positions, degrees, c)
        pairs = _CandidatePairs(inputs, positions, degrees, c)
        np.testing.assert_array_equal(pairs.columns(np.arange(len(degrees))), full.features)
        weights = rng.normal(size=m)
        if trial % 3 == 0:
            weights = 1.0 + rng.integers(-2, 3, size=m) * 2.0**-50  # scores equal up to rounding
        elif trial % 3 == 1:  # cancellations: the order of the sums decides the last digits
            weights = weights * 10.0 ** rng.uniform(-12, 12, size=m)
        weights[rng.random(m) < 0.3] = 0.0
        excluded = sorted(set(rng.integers(0, len(degrees), size=int(rng.integers(0, 3))).tolist()))
        lower, upper = pairs.score_bounds(weights)  # what the screening rests on
        exact = np.abs(ordered_matvec(full.features.T, weights))
        assert np.all((lower <= exact) & (exact <= upper)), np.max(np.abs(exact - (lower + upper) / 2))
        for n in (1, 3, 10, len(degrees) + 1):
            expected = _naive_shortlist(full.features, weights, excluded, n)
            np.testing.assert_array_equal(full.shortlist(weights, excluded, n), expected)
            np.testing.assert_array_equal(pairs.shortlist(weights, excluded, n), expected)


# ------------------------------------------------------------------------------------------------
# Issue 14: the learners on the user's own data
# ------------------------------------------------------------------------------------------------


def _rbf_learners():
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return {
        "KernelPerceptron": make_pipeline(StandardScaler(), KernelPerceptron(kernel="rbf")),
        "MaximalMarginPerceptron": make_pipeline(StandardScaler(), MaximalMarginPerceptron(kernel="rbf")),
        "MaskPerceptron": make_pipeline(StandardScaler(), MaskPerceptron(degree=2, n_terms=5)),
    }


def test_roc_auc_on_breast_cancer_and_one_vs_rest_on_wine():
    from sklearn.datasets import load_breast_cancer, load_wine
    from sklearn.model_selection import cross_val_score
    from sklearn.multiclass import OneVsRestClassifier

    X, y = load_breast_cancer(return_X_y=True)
    X_wine, y_wine = load_wine(return_X_y=True)
    for name, learner in _rbf_learners().items():
        auc = cross_val_score(learner, X, y, cv=3, scoring="roc_auc")
        assert np.all(np.isfinite(auc)) and auc.mean() > 0.95, name
        ovr = OneVsRestClassifier(learner).fit(X_wine, y_wine)
        assert set(ovr.predict(X_wine)) <= set(y_wine) and ovr.score(X_wine, y_wine) > 0.9, name
        with pytest.raises(ValueError, match=rf"Only binary classification is supported. {name}.*OneVsRestClassifier"):
            learner.fit(X_wine, y_wine)


def test_no_predict_proba_but_calibrated_log_loss_works():
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import cross_val_score

    X, y = load_breast_cancer(return_X_y=True)
    for learner in _rbf_learners().values():
        assert not hasattr(learner[-1], "predict_proba")  # no natural class frequency
    calibrated = CalibratedClassifierCV(_rbf_learners()["KernelPerceptron"], cv=3)
    loss = cross_val_score(calibrated, X, y, cv=3, scoring="neg_log_loss")
    assert np.all(np.isfinite(loss)) and loss.mean() > -0.3
    proba = calibrated.fit(X, y).predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def test_decision_function_sign_agrees_with_predict(rng):
    bits, y = noisy_boolean(rng)
    labels = np.where(y > 0, "pos", "neg")
    X = add_complemented_bits(bits)
    for model in (KernelPerceptron(kernel="boolean", degree=2), MaximalMarginPerceptron(kernel="boolean", degree=2),
                  MaskPerceptron(degree=2, n_terms=4)):
        model.fit(X, labels)
        scores = model.decision_function(X)
        np.testing.assert_array_equal(np.where(scores > 0, model.classes_[1], model.classes_[0]), model.predict(X))


def test_texts_name_frame_columns_and_print_plain_labels(rng):
    import pandas as pd

    bits, y = noisy_boolean(rng, m=120)  # texts of the paper's models (fallback=None): the subject is the naming
    frame = pd.DataFrame(bits, columns=["smoker", "male", "urban", "married", "retired"])
    mask = MaskPerceptron(degree=2, n_terms=4, fallback=None).fit(frame, y)
    text = mask.to_text()
    assert text == str(mask)
    assert "np." not in text and text.startswith("predict 1 if f(x) > 0, else -1, where f(x) =")
    assert any(name in text for name in frame.columns) and "x1" not in text
    # On an array the columns are x0 .. x4 (counted from 0, as get_feature_names_out).
    plain = MaskPerceptron(degree=2, n_terms=4, fallback=None).fit(bits, y)
    literals = {word.lstrip("¬") for line in plain.to_text().splitlines()[1:] for word in line.split()[1:]}
    assert literals - {"1"} <= {f"x{j}" for j in range(5)} and literals - {"1"}
    words_of = {word.lstrip("¬") for line in text.splitlines()[1:] for word in line.split()[1:]}
    assert words_of - {"1"} <= set(frame.columns)
    renamed = mask.to_text(feature_names=["a", "b", "c", "d", "e"])
    assert "smoker" not in renamed
    words = MaskPerceptron(degree=1, n_terms=2, fallback=None).fit(frame, np.where(y > 0, "yes", "no")).to_text()
    assert words.startswith("predict 'yes' if f(x) > 0, else 'no'")
    kernel = KernelPerceptron(kernel="boolean", degree=2, fallback=None).fit(frame, y)
    text = kernel.to_text(max_terms=2)
    assert text == kernel.to_text(max_terms=2) and "np." not in text
    assert "smoker=" in text and f"over {kernel.n_support_} support points" in text
    assert len(text.splitlines()) == 4  # header, two terms, "... more terms"
    gram = KernelPerceptron(kernel="precomputed").fit(boolean_kernel(bits, degree=1), y)
    assert "training row" in gram.to_text()
    assert str(KernelPerceptron()) == "KernelPerceptron()"  # unfitted: the parameters


def test_string_column_is_named_and_numpy_scalars_are_accepted(rng):
    import pandas as pd

    frame = pd.DataFrame({"age": rng.normal(size=30), "city": rng.choice(["Paris", "Nice"], 30)})
    y = np.arange(30) % 2
    frame.loc[3, "age"] = np.nan
    for model in (KernelPerceptron(), MaximalMarginPerceptron(), MaskPerceptron()):
        # The one input pipeline (companion.preprocessing.NumericInput): the city's values and
        # the missing age become columns named after them.
        model.fit(frame, y)
        assert list(model.feature_names_in_) == ["age", "city=Paris", "age=?"]
        assert model.predict(frame).shape == (30,)
    with pytest.raises(ValueError):
        KernelPerceptron().fit(frame.to_numpy(), y)  # an array has no dtypes: still refused
    bits, y = noisy_boolean(rng)
    X = add_complemented_bits(bits)
    pairs = [
        (KernelPerceptron(kernel="boolean", degree=2, lam=4.0, max_updates=10_000),
         KernelPerceptron(kernel="boolean", degree=np.int64(2), lam=np.float32(4.0), max_updates=np.int64(10_000))),
        (MaximalMarginPerceptron(kernel="boolean", degree=2, weights=2.0, tol=1e-3, max_iter=50_000),
         MaximalMarginPerceptron(kernel="boolean", degree=np.int32(2), weights=np.float64(2.0), tol=np.float64(1e-3),
                                 max_iter=np.int64(50_000))),
        (MaskPerceptron(degree=2, n_terms=3, lam=4.0, complement=True, n_candidates=5),
         MaskPerceptron(degree=np.int64(2), n_terms=np.int64(3), lam=np.float64(4.0), complement=np.bool_(True),
                        n_candidates=np.int64(5))),
    ]
    for plain, numpy in pairs:
        features = bits if isinstance(plain, MaskPerceptron) else X
        np.testing.assert_array_equal(plain.fit(features, y).decision_function(features),
                                      numpy.fit(features, y).decision_function(features))


def test_mmp_that_runs_out_of_iterations_says_so():
    Xc, y = led_problem(seed=1, m=200)
    K = boolean_kernel(Xc, degree=2)
    # Too few iterations for any positive margin: an error naming max_iter, not "not separable".
    with pytest.raises(ValueError, match=r"ran out of iterations: max_iter=3 .*Raise max_iter") as error:
        MaximalMarginPerceptron(kernel="precomputed", lam=LAM, max_iter=3).fit(K, y)
    assert "not separable" not in str(error.value)
    # Enough for positive margins but not for the stopping rule: a warning and a usable model.
    with pytest.warns(ConvergenceWarning, match=r"max_iter=400 iterations before the stopping rule"):
        early = MaximalMarginPerceptron(kernel="precomputed", lam=LAM, max_iter=400).fit(K, y)
    assert not early.converged_ and early.n_iter_ == 400 and np.isfinite(early.risk_)
    # The default scales with m and keeps the fixed 200_000 of the published runs for m <= 4000.
    default = MaximalMarginPerceptron(kernel="precomputed", lam=LAM).fit(K, y)
    assert default.converged_ and default.max_iter_ == 200_000
    assert MaximalMarginPerceptron().max_iter is None


def test_mmp_default_iteration_cap_grows_with_m():
    from companion.perceptrons import _default_max_iter

    assert _default_max_iter(500) == 200_000  # paper 03's runs (m = 500): the earlier fixed cap
    # LED digits need about 16 m iterations (32,596 at m = 2,000; 125,976 at m = 8,000): the fixed
    # 200_000 failed from m ~ 13,000, the default leaves a margin of 3 at every size.
    for m, needed in ((2_000, 32_596), (8_000, 125_976), (13_000, 16 * 13_000), (100_000, 16 * 100_000)):
        assert _default_max_iter(m) >= 3 * needed


# ------------------------------------------------------------------------------------------------
# Memory (issue 18): G is never stored, K is filled by blocks (float32 when exact); same bits
# ------------------------------------------------------------------------------------------------


class _StoredRows:
    """A whole, stored matrix G behind the row interface the λ-MMP reads (rows, columns, diagonal)."""

    def __init__(self, G):
        self.G, self.shape = G, G.shape

    def row(self, i):
        return self.G[i].copy()

    def column(self, j):
        return self.G[:, j].copy()

    def diagonal(self):
        return np.diag(self.G).copy()


def _reference_fit(estimator, X, y, *, one_call=False):
    """The fit as it was before issue 18, on the whole m × m matrices K and G = extended_gram(K):
    returns alpha, dual_coef, risk, n_ties, norm_sq, extended_norm_sq, the training scores.

    K as the package defines it: one kernel call per distinct input's row (``_KernelRows``);
    ``one_call=True``: ``k(X, X)`` in one call, as the code before "past the memory wall" did
    (the same numbers for integer-valued kernels, last bits apart otherwise)."""
    from companion.numerics import exact_matvec, is_integer_valued, ordered_dot, ordered_matvec
    from companion.perceptrons import _default_max_iter, _mmp_iterations

    classes = np.unique(y)
    y_signed = np.where(y == classes[1], 1.0, -1.0)
    if estimator.kernel not in ("boolean", "precomputed"):
        X = X / estimator.scale_  # scale="std": the kernel is taken on the divided columns
    if estimator.kernel == "precomputed":
        K = np.asarray(X, dtype=np.float64)
    elif estimator.kernel == "boolean":
        from scipy.special import comb

        from companion.kernels import degree_weights

        common = (X.astype(np.float32) @ X.astype(np.float32).T).astype(np.intp)  # one whole product
        shared = np.arange(X.shape[1] + 1)[:, None]
        table = comb(shared, np.arange(estimator.degree + 1)[None, :], exact=False) @ degree_weights(
            estimator.degree, estimator.weights
        )
        K = table.take(common)
    elif one_call:
        K = estimator._kernel(X, X)
    else:
        U, inverse = np.unique(X, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        K_U = np.vstack([estimator._kernel(U[a : a + 1], U) for a in range(len(U))])
        K = K_U[np.ix_(inverse, inverse)]
    G = extended_gram(K, y_signed, estimator.lam)
    if isinstance(estimator, KernelPerceptron):
        alpha = naive_perceptron(G).astype(np.int64)
        t = int(alpha.sum())
        Ga = exact_matvec(G, alpha) if is_integer_valued(G) else ordered_matvec(G, alpha)
        extended = float(ordered_dot(alpha, Ga))
        scale = t / extended
        exact = True
    else:
        # Algorithm 2's own iteration, fed the whole matrix G: the test is about where the rows
        # of G come from (stored vs computed on demand), not about the iteration itself.
        alpha, g, _, _ = _mmp_iterations(_StoredRows(G), estimator.tol, _default_max_iter(G.shape[0]))
        extended, scale, exact = ordered_dot(alpha, g), 1.0 / float(g.min()), False
    support = np.flatnonzero(alpha > 0)
    coef = alpha[support] * y_signed[support]

    def scores(K_support):
        if exact and is_integer_valued(K_support):
            return exact_matvec(K_support, coef)
        return ordered_matvec(K_support, coef)

    K_support = K[:, support]
    train = scores(K_support)
    norm_sq = scale**2 * float(ordered_dot(coef, scores(K_support[support])))
    risk = regularised_risk(scale * train, y_signed, norm_sq, estimator.lam)
    return alpha, scale * coef, risk, int(np.count_nonzero(train == 0)), norm_sq, extended, train


# max_memory_gb of the three ways a fit reads its kernel: whole (one call, as before "past the
# memory wall"), by rows with a cache of about a third of the distinct rows (evictions), by rows
# with no cache at all (every read recomputed).
KERNEL_LAYOUTS = {"whole": 4.0, "rows-cached": 1.0 + 90 * 60 * 8 / 3 / 2**30, "rows-uncached": 1.0}


@pytest.mark.parametrize("layout", list(KERNEL_LAYOUTS))
@pytest.mark.parametrize("tiny_blocks", [False, True])
@pytest.mark.parametrize(
    "make",
    [
        lambda: KernelPerceptron(kernel="boolean", degree=2, lam=4),
        lambda: KernelPerceptron(kernel="boolean", degree=3, weights=0.5, lam=1.5),
        lambda: KernelPerceptron(kernel="rbf", lam=1.0),
        lambda: KernelPerceptron(kernel="poly", degree=2, lam=0.5),
        lambda: MaximalMarginPerceptron(kernel="boolean", degree=2, lam=4),
        lambda: MaximalMarginPerceptron(kernel="boolean", degree=2, weights=[1.0, 0.5, 0.25], lam=0.3),
        lambda: MaximalMarginPerceptron(kernel="rbf", lam=1.0),
        lambda: MaximalMarginPerceptron(kernel="poly", degree=2, lam=2),
    ],
)
def test_fit_without_extended_gram_is_bit_identical_to_the_full_matrices(make, tiny_blocks, layout, monkeypatch):
    """The rows of G on demand, K by row blocks (float32 when exact) or by rows of the distinct
    inputs (cached or not) and the support scores by row blocks give exactly the numbers of the
    whole K and G, on data with duplicated rows (K by rows: the matrix of those rows)."""
    import companion.kernels as kernels_module
    import companion.perceptrons as perceptrons_module

    if tiny_blocks:  # many blocks, some of one row: the blocked paths are really exercised
        monkeypatch.setattr(perceptrons_module, "_BLOCK_BYTES", 8 * 90 * 3)
        monkeypatch.setattr(kernels_module, "_BLOCK_BYTES", 8 * 90 * 7)
    for seed in range(3):
        rng = np.random.default_rng(seed)
        bits = rng.integers(0, 2, size=(90, 5))
        bits[45:70] = bits[:25]  # duplicated inputs ...
        y = rng.integers(0, 2, 90)
        y[45:55] = 1 - y[:10]  # ... some with the other label
        estimator = make().set_params(max_memory_gb=KERNEL_LAYOUTS[layout], fallback=None)  # the paper's model
        X = add_complemented_bits(bits) if estimator.kernel == "boolean" else bits + 0.3 * rng.normal(size=bits.shape)
        X[60:70] = X[:10]
        fitted = estimator.fit(X, y)
        # the Boolean kernel reads the distinct rows whenever an input repeats (these data repeat)
        assert isinstance(fitted._train_gram(X), _KernelRows) == (layout != "whole" or estimator.kernel == "boolean")
        alpha, dual, risk, ties, norm_sq, extended, train = _reference_fit(estimator, X, y, one_call=layout == "whole")
        np.testing.assert_array_equal(fitted.alpha_, alpha)
        np.testing.assert_array_equal(fitted.dual_coef_, dual)
        assert (fitted.risk_, fitted.n_ties_, fitted.norm_sq_, fitted.extended_norm_sq_) == (risk, ties, norm_sq, extended)
        # Exact integer scores only: a real score's last bits follow how it is summed (the training
        # scores over column-major K[:, support], decision_function over a fresh k(X, support)).
        if estimator.kernel == "boolean" and isinstance(estimator, KernelPerceptron):
            np.testing.assert_array_equal(fitted.decision_function(X), fitted.decision_scale_ * train)
            np.testing.assert_array_equal(fitted.predict(X), fitted.classes_[(train > 0).astype(int)])


def _fitted_numbers(model, X):
    return {"predict": model.predict(X), "support_": model.support_, "alpha_": model.alpha_,
            "dual_coef_": model.dual_coef_, "risk_": model.risk_, "n_ties_": model.n_ties_,
            "decision": model.decision_function(X)}


@pytest.mark.parametrize(
    "make",
    [
        lambda: KernelPerceptron(),
        lambda: KernelPerceptron(kernel="boolean", degree=3),
        lambda: KernelPerceptron(kernel="poly", degree=2, lam=0.5),
        lambda: MaximalMarginPerceptron(),
        lambda: MaximalMarginPerceptron(kernel="boolean", degree=2, weights=0.5),
        lambda: MaximalMarginPerceptron(kernel="poly", degree=2, lam=2),
    ],
    ids=["kp-rbf", "kp-boolean", "kp-poly", "mmp-rbf", "mmp-boolean", "mmp-poly"],
)
def test_kernel_by_rows_learns_what_the_whole_kernel_learns_on_boolean_inputs(make):
    """Past the memory wall: a fit whose kernel does not fit max_memory_gb reads it by rows of the
    distinct inputs; on Boolean inputs (the benchmark's, the paper's) it learns bit for bit what
    the whole kernel (one call, the code before) learns: same predictions, support, coefficients,
    risk and ties, with the distinct rows cached or recomputed at every read."""
    for seed in range(3):
        rng = np.random.default_rng(seed)
        bits, y = noisy_boolean(rng, m=400)
        X = add_complemented_bits(bits[:, :4]) if make().kernel == "boolean" else bits.astype(float)
        reference = make()
        if reference.kernel == "boolean":  # read by distinct rows whatever the limit: the whole
            # kernel in one call is that of the same function given as a callable
            degree, weights = reference.degree, reference.weights
            reference.set_params(kernel=lambda A, B: boolean_kernel(A, B, degree=degree, weights=weights))
        whole = reference.fit(X, y)
        assert isinstance(whole._train_gram(X), _GivenKernel)
        expected = _fitted_numbers(whole, X)
        for limit in (1.0 + 32 * 8 * 5 / 2**30, 1.0):  # a few of the <= 32 distinct rows cached; none
            by_rows = make().set_params(max_memory_gb=limit).fit(X, y)
            assert isinstance(by_rows._train_gram(X), _KernelRows)
            got = _fitted_numbers(by_rows, X)
            for name in expected:
                np.testing.assert_array_equal(got[name], expected[name], err_msg=name)


@pytest.mark.parametrize("cls", [KernelPerceptron, MaximalMarginPerceptron])
def test_kernel_by_rows_on_real_inputs_predicts_as_the_whole_kernel(cls):
    """On real-valued inputs the rbf kernel's rows (one BLAS call each) can differ from the whole
    matrix's in their last bits. The λ-perceptron still makes the same integer updates; the λ-MMP
    stops at a nearby point of its (1 - tol) approximation: the same support, coefficients within
    1e-4 (measured: 6e-6 at tol=1e-3), and the same predictions wherever |f(x)| > 1e-3 (measured:
    flips only at |f| ~ 5e-6)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 5))
    y = (X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=300) > 0).astype(int)
    whole, by_rows = cls(lam=1.0).fit(X, y), cls(lam=1.0, max_memory_gb=1.0).fit(X, y)
    assert isinstance(by_rows._train_gram(X), _KernelRows)
    np.testing.assert_array_equal(by_rows.support_, whole.support_)
    f = whole.decision_function(X)
    decided = np.abs(f) > 1e-3
    assert decided.mean() > 0.95
    np.testing.assert_array_equal(by_rows.predict(X)[decided], whole.predict(X)[decided])
    if cls is KernelPerceptron:
        np.testing.assert_array_equal(by_rows.alpha_, whole.alpha_)
        np.testing.assert_array_equal(by_rows.predict(X), whole.predict(X))
    else:
        np.testing.assert_allclose(by_rows.alpha_, whole.alpha_, rtol=0, atol=1e-4)


def test_kernel_rows_cache_keeps_the_most_recent_rows_within_its_budget(rng):
    X = rng.integers(0, 2, size=(500, 6)).astype(float)  # at most 64 distinct rows
    reads = []

    def kernel(A, B):
        reads.append(len(A))
        return A @ B.T

    rows = _KernelRows(kernel, X, budget_bytes=10 * 64 * 8, exact_in_blocks=False)
    n_unique = len(rows.unique)
    np.testing.assert_array_equal(rows.rows(slice(0, 500)), X @ X.T)
    assert sum(reads) == n_unique and set(reads) == {1}  # one call per distinct row
    np.testing.assert_array_equal(rows.column(7), (X @ X.T)[:, 7])
    np.testing.assert_array_equal(rows.diagonal(), np.diag(X @ X.T))
    assert len(rows._row_in) == 10
    reads.clear()
    recent = np.flatnonzero(np.isin(rows.inverse, rows._row_in))[:3]
    for j in recent:  # the rows last used are cached: reading them computes nothing
        np.testing.assert_array_equal(rows.row(j), (X @ X.T)[j])
    assert reads == []


@pytest.mark.parametrize("cls", [KernelPerceptron, MaximalMarginPerceptron])
def test_precomputed_float32_gram_is_not_copied_and_gives_the_float64_result(cls, rng):
    bits, y = noisy_boolean(rng, m=70)
    K = boolean_kernel(add_complemented_bits(bits), degree=2, compact=True)
    assert K.dtype == np.float32
    K32 = K + np.float32(0.25) * rng.random(K.shape, dtype=np.float32)
    K32 = (K32 + K32.T) / np.float32(2)  # non-integer float32 values: converted exactly when used
    fitted32 = cls(kernel="precomputed", lam=LAM).fit(K32, y)
    fitted64 = cls(kernel="precomputed", lam=LAM).fit(K32.astype(np.float64), y)
    for name in ("alpha_", "dual_coef_", "risk_", "n_ties_", "norm_sq_"):
        np.testing.assert_array_equal(getattr(fitted32, name), getattr(fitted64, name))
    np.testing.assert_array_equal(fitted32.decision_function(K32), fitted64.decision_function(K32.astype(np.float64)))


# --------------------------------------------------------------------------------------------
# Weights, safe defaults, exported models
# --------------------------------------------------------------------------------------------


def _boolean_problem(rng, m=80, n=5):
    bits = rng.integers(0, 2, size=(m, n)).astype(float)
    y = np.where((bits[:, 0] == 1) & (bits[:, 1] == 1) | (rng.random(m) < 0.2), "yes", "no")
    return bits, y


def test_mask_perceptron_integer_weights_are_duplicated_rows_and_zero_weights_dropped_rows(rng):
    for _ in range(3):
        X, y = _boolean_problem(rng)
        X = X + rng.normal(scale=0.1, size=X.shape)  # no exact ties between candidate monomials
        weights = rng.integers(0, 4, size=len(X))
        weights[:2] = [0, 3]
        model = MaskPerceptron(degree=2, n_terms=6)
        weighted = clone(model).fit(X, y, sample_weight=weights)
        repeated = clone(model).fit(np.repeat(X, weights, axis=0), np.repeat(y, weights))
        dropped = clone(model).fit(X[weights > 0], y[weights > 0], sample_weight=weights[weights > 0])
        X_new = rng.random(size=(100, X.shape[1]))
        for reference in (repeated, dropped):
            assert weighted.monomials_ == reference.monomials_
            np.testing.assert_allclose(weighted.coef_, reference.coef_, rtol=1e-9, atol=1e-12)
            np.testing.assert_array_equal(weighted.predict(X_new), reference.predict(X_new))
        assert weighted.risk_ == pytest.approx(repeated.risk_, rel=1e-9)
        assert weighted.training_error_ == pytest.approx(repeated.training_error_)


@pytest.mark.parametrize("cls", [KernelPerceptron, MaximalMarginPerceptron])
def test_kernel_perceptrons_refuse_weights_with_the_reason(cls):
    X = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
    with pytest.raises(TypeError, match=f"{cls.__name__} does not take sample_weight: .*extended space"):
        cls().fit(X, [0, 1, 1, 0], sample_weight=[1, 2, 1, 1])
    with pytest.raises(TypeError, match="unexpected"):
        cls().fit(X, [0, 1, 1, 0], sample_wieght=[1, 2, 1, 1])


def test_gamma_scale_is_that_of_svc():
    from sklearn.svm import SVC

    rng = np.random.default_rng(3)
    X = rng.normal(scale=[1.0, 1000.0], size=(60, 2))
    y = (X[:, 0] + X[:, 1] / 1000 > 0).astype(int)
    model = KernelPerceptron().fit(X, y)  # scale="std": SVC's gamma of the divided columns
    assert model.gamma_ == pytest.approx(SVC(gamma="scale").fit(X / model.scale_, y)._gamma)
    np.testing.assert_allclose(model.scale_, X.std(axis=0), rtol=1e-12)
    assert KernelPerceptron(scale=None).fit(X, y).gamma_ == pytest.approx(SVC(gamma="scale").fit(X, y)._gamma)
    assert KernelPerceptron(gamma=None).fit(X, y).gamma_ is None  # pairwise_kernels' 1 / n_features
    assert KernelPerceptron(kernel_params={"gamma": 0.5}).fit(X, y).gamma_ is None  # the caller's gamma
    assert KernelPerceptron(kernel="boolean").fit((X > 0).astype(float), y).gamma_ is None


def _mixed_table(seed=0, n=400):
    """Numeric columns in different units and one nominal column, 60/40 classes."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    age = rng.normal(45, 12, n).round()
    income = rng.lognormal(8, 0.5, n).round()
    city = rng.choice(["Paris", "Lille", "Nice", "Lyon"], n)
    score = 0.04 * (age - 45) + 0.8 * (income > 3500) + 0.7 * (city == "Paris") + rng.normal(0, 0.8, n)
    y = np.where(score > np.quantile(score, 0.6), "yes", "no")
    return pd.DataFrame({"age": age, "income": income, "city": city}), y


@pytest.mark.parametrize("cls", [KernelPerceptron, MaximalMarginPerceptron, MaskPerceptron])
def test_defaults_beat_the_majority_class_on_a_mixed_table(cls):
    from sklearn.compose import ColumnTransformer
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    X, y = _mixed_table()
    encode = ColumnTransformer([("num", "passthrough", ["age", "income"]), ("cat", OneHotEncoder(), ["city"])])
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    # measured: 0.68 (KernelPerceptron), 0.66 (MMP), 0.705 (MaskPerceptron); majority 0.60
    assert cross_val_score(make_pipeline(encode, cls()), X, y, cv=cv).mean() > 0.62


def test_mask_perceptron_export_names_literals_and_rules_frame_counts_active_terms(rng):
    import json

    import pandas as pd

    from companion import from_dict

    bits, y = _boolean_problem(rng)
    X = pd.DataFrame(bits, columns=["a", "b", "c", "d", "e"])
    model = MaskPerceptron(degree=2, n_terms=4).fit(X, y)
    data = json.loads(json.dumps(model.to_dict(), allow_nan=False))
    terms = data["model"]["terms"]
    assert [tuple(t["monomial"]) for t in terms] == model.monomials_
    for term in terms:
        assert all(lit["column"] in X.columns for lit in term["literals"])
    # f recomputed from the export alone: a product of literals (1 - x when negated)
    f = np.zeros(len(X))
    for term in terms:
        value = np.ones(len(X))
        for lit in term["literals"]:
            value *= (1 - X[lit["column"]]) if lit["negated"] else X[lit["column"]]
        f += term["coef"] * value
    np.testing.assert_allclose(f, model.decision_function(X), rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(from_dict(data).predict(X), model.predict(X))
    frame = model.rules_frame(X, y)
    assert frame["covered"].iloc[0] == len(X)  # the constant term is active everywhere
    active = monomial_features(np.hstack([bits, 1 - bits]), model.monomials_) != 0
    np.testing.assert_array_equal(frame["covered"], active.sum(axis=0))


def test_to_text_decimals(rng):
    X, y = _boolean_problem(rng)
    # fallback=None: the printed weights are the subject here, not the inner-fold fallback check
    # (which, on this small problem, may pick the default class)
    mask = MaskPerceptron(degree=1, n_terms=2, fallback=None).fit(X, y)
    terms = mask.to_text(decimals=1).splitlines()[1:]
    assert terms and all(line.split()[0].split(".")[1].__len__() == 1 for line in terms)
    assert mask.to_text() == mask.to_text(decimals=3)  # the default is the notebooks' 3 places
    kp = KernelPerceptron(kernel="boolean", degree=1, fallback=None).fit(X, y)
    line = kp.to_text(decimals=2, max_terms=1).splitlines()[1]
    coefficient = line.split()[0]
    assert coefficient[0] in "+-" and len(coefficient.split(".")[1]) == 2
    assert kp.to_text() == kp.to_text(decimals=None)


# ------------------------------------------------------------------------------------------------
# Algorithm 2's buffered loop against its plain expressions (the same bits)
# ------------------------------------------------------------------------------------------------


def _plain_mmp_iterations(G, tol, max_iter):
    """Algorithm 2 as plain numpy expressions (the loop before it wrote into buffers)."""
    from companion.numerics import ordered_dot

    diag = G.diagonal()
    start = int(np.argmin(diag))
    alpha = np.zeros(G.shape[0])
    alpha[start] = 1.0
    g = G.column(start)
    norm = float(diag[start])
    history = [norm]
    converged = False
    for _ in range(max_iter):
        if g.min() >= (1.0 - tol) * norm:
            converged = True
            break
        gap = np.maximum(norm - 2.0 * g + diag, 1e-300)
        slope = norm - g
        gamma_a = np.clip(slope / gap, 0.0, 1.0)
        norm_a = norm - gamma_a * (2.0 * slope - gamma_a * gap)
        cap = alpha / np.maximum(1.0 - alpha, 1e-300)
        gamma_b = np.clip(-slope / gap, 0.0, cap)
        norm_b = norm + gamma_b * (2.0 * slope + gamma_b * gap)
        best_a, best_b = int(np.argmin(norm_a)), int(np.argmin(norm_b))
        if norm_a[best_a] <= norm_b[best_b]:
            i, gamma = best_a, gamma_a[best_a]
            alpha *= 1.0 - gamma
            alpha[i] += gamma
            g *= 1.0 - gamma
            g += gamma * G.row(i)
        else:
            i, gamma = best_b, gamma_b[best_b]
            alpha *= 1.0 + gamma
            alpha[i] -= gamma
            if gamma >= cap[i]:
                alpha[i] = 0.0
            g *= 1.0 + gamma
            g -= gamma * G.row(i)
        norm = ordered_dot(alpha, g)
        history.append(norm)
    else:
        converged = bool(g.min() >= (1.0 - tol) * norm)
    return alpha, g, np.array(history), converged


def _random_mmp_problem(rng, m, *, real, max_bits, max_degree):
    """``(K, y)`` for Algorithm 2's agreement tests: a real-valued linear kernel, or a Boolean
    kernel on few distinct rows (tied steps, broken by index), with random ±1 labels."""
    from companion.kernels import add_complemented_bits, boolean_kernel

    if real:
        Z = rng.normal(size=(m, 3))
        K = Z @ Z.T
    else:
        X = rng.integers(0, 2, size=(m, int(rng.integers(2, max_bits)))).astype(float)  # few distinct rows
        K = boolean_kernel(add_complemented_bits(X), degree=int(rng.integers(1, max_degree)))
    return K, np.where(rng.random(m) < 0.5, 1.0, -1.0)


@pytest.mark.parametrize("case", range(12))
def test_mmp_iterations_equal_the_plain_expressions_bit_for_bit(case):
    """The buffered loop of Algorithm 2 gives the plain loop's iterates, bits included: Boolean
    data full of duplicated rows (tied steps, broken by index; away steps that empty a support
    point), a real-valued kernel, and a cap of iterations reached before the stopping rule."""
    from companion.perceptrons import _ExtendedGram, _GivenKernel, _mmp_iterations

    rng = np.random.default_rng(case)
    m = int(rng.integers(8, 80))
    K, y = _random_mmp_problem(rng, m, real=case % 3 == 2, max_bits=5, max_degree=4)
    G = _ExtendedGram(_GivenKernel(K), y, float(rng.choice([0.25, 1.0, 4.0])))
    max_iter = 40 if case == 0 else 20_000
    fast, plain = _mmp_iterations(G, 1e-3, max_iter), _plain_mmp_iterations(G, 1e-3, max_iter)
    for a, b in zip(fast[:3], plain[:3]):
        assert a.tobytes() == b.tobytes()
    assert fast[3] == plain[3]
    if case == 0:
        assert not fast[3] and fast[2].size == 41  # the cap was reached


def test_extended_gram_rows_kept_on_a_small_fit_are_the_rows_computed_afresh(monkeypatch):
    """A small fit keeps the rows of G it read (each computed once); they are the bits of a row
    computed afresh, in any order of reads, and fits with and without kept rows are identical."""
    import companion.perceptrons as perceptrons_module
    from companion.kernels import add_complemented_bits, boolean_kernel
    from companion.perceptrons import _ExtendedGram, _GivenKernel

    rng = np.random.default_rng(3)
    bits = rng.integers(0, 2, size=(60, 5))
    y_signed = np.where(rng.random(60) < 0.5, 1.0, -1.0)
    K = boolean_kernel(add_complemented_bits(bits), degree=2).astype(np.float32)
    kept = _ExtendedGram(_GivenKernel(K), y_signed, 0.5)
    assert kept._kept is not None
    monkeypatch.setattr(perceptrons_module, "_G_ROWS_CACHE_BYTES", 0)
    fresh = _ExtendedGram(_GivenKernel(K), y_signed, 0.5)
    assert fresh._kept is None
    for j in rng.integers(0, 60, size=200):  # repeated reads: the second comes from what was kept
        assert kept.row(j).tobytes() == fresh.row(j).tobytes()
    X = add_complemented_bits(bits)
    y = (y_signed > 0).astype(int)
    for make in (lambda: MaximalMarginPerceptron(kernel="boolean", degree=2, lam=0.5),
                 lambda: KernelPerceptron(kernel="boolean", degree=3, lam=1.0)):
        without = make().fit(X, y)
        monkeypatch.setattr(perceptrons_module, "_G_ROWS_CACHE_BYTES", 32 << 20)
        with_kept = make().fit(X, y)
        monkeypatch.setattr(perceptrons_module, "_G_ROWS_CACHE_BYTES", 0)
        for name in ("alpha_", "dual_coef_", "risk_", "norm_sq_"):
            assert np.asarray(getattr(with_kept, name)).tobytes() == np.asarray(getattr(without, name)).tobytes(), name


@pytest.mark.parametrize("case", range(8))
def test_perceptron_updates_equal_cyclic_sweeps_with_a_cap(case):
    """Algorithm 1's jump to the next violator (wrapping around) against the sweep as written,
    stopped after ``max_updates`` updates: the same counts, update number and convergence flag
    (λ = 0 included, where the sweep may not converge; tied duplicated rows)."""
    from companion.kernels import add_complemented_bits, boolean_kernel
    from companion.perceptrons import _ExtendedGram, _GivenKernel, _perceptron_updates

    rng = np.random.default_rng(case)
    m = int(rng.integers(3, 40))
    X = rng.integers(0, 2, size=(m, 3)).astype(float)
    y = np.where(rng.random(m) < 0.5, 1.0, -1.0)
    K = boolean_kernel(add_complemented_bits(X), degree=2)
    lam = [0.0, 1.0, 4.0][case % 3]
    G = extended_gram(K, y, lam)
    cap = int(rng.integers(1, 200))
    alpha, updates, converged = np.zeros(m, dtype=np.int64), 0, False
    while updates < cap and not converged:
        converged = True
        for j in range(m):
            if updates < cap and G[j] @ alpha <= 0:
                alpha[j] += 1
                updates += 1
                converged = False
    converged = converged or not np.any(G @ alpha <= 0)
    fast = _perceptron_updates(_ExtendedGram(_GivenKernel(K), y, lam), cap)
    assert fast[0].tolist() == alpha.tolist() and fast[1] == updates and fast[2] == converged


# ------------------------------------------------------------------------------------------------
# Issue 58: no default depends on a column's units (scale="std" for kernels on real values)
# ------------------------------------------------------------------------------------------------
def _units_table():
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    rows = np.random.default_rng(0).permutation(len(y))[:300]
    X = X[rows][:, [0, 1, 4, 7]]
    indicator = (X[:, 2] > np.median(X[:, 2])).astype(float)  # a 0/1 column beside the numbers
    return np.column_stack([X, indicator]), y[rows]


@pytest.mark.parametrize("cls", [KernelPerceptron, MaximalMarginPerceptron])
@pytest.mark.parametrize("kernel", ["rbf", "laplacian", "poly"])
def test_a_column_times_ten_thousand_changes_no_kernel_model(cls, kernel):
    X, y = _units_table()
    train, test = slice(0, 200), slice(200, None)
    big = X.copy()
    big[:, 1] *= 1e4
    a = cls(kernel=kernel).fit(X[train], y[train])
    b = cls(kernel=kernel).fit(big[train], y[train])
    assert a.fallback_class_ is None and a.training_error_ < 0.2  # a real model
    np.testing.assert_array_equal(a.support_, b.support_)
    np.testing.assert_array_equal(a.predict(X[test]), b.predict(big[test]))
    np.testing.assert_allclose(a.decision_function(X[test]), b.decision_function(big[test]), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(b.scale_, a.scale_ * [1, 1e4, 1, 1, 1], rtol=1e-12)
    assert a.scale_[4] == 1.0  # the 0/1 column is read as it is
    np.testing.assert_allclose(b.support_vectors_[:, 1], a.support_vectors_[:, 1] * 1e4, rtol=1e-12)  # input's units
    assert "k is taken on x / s" in b.to_text()
    # in the input's own units the big column decides the kernel: another model
    raw = cls(kernel=kernel, scale=None).fit(big[train], y[train])
    assert raw.fallback_class_ is not None or not np.array_equal(raw.predict(big[test]), b.predict(big[test]))


@pytest.mark.parametrize("cls", [KernelPerceptron, MaximalMarginPerceptron])
def test_the_default_scale_is_the_unscaled_perceptron_on_the_divided_columns(cls):
    X, y = _units_table()
    scaled = cls(fallback=None).fit(X, y)
    divided = cls(scale=None, fallback=None).fit(X / scaled.scale_, y)
    np.testing.assert_array_equal(scaled.alpha_, divided.alpha_)
    assert scaled.gamma_ == divided.gamma_
    np.testing.assert_array_equal(scaled.decision_function(X), divided.decision_function(X / scaled.scale_))
    # the export keeps the divisors and the points in the input's units: it reads back the same
    from companion.interpretable import from_dict

    restored = from_dict(scaled.to_dict())
    assert restored.to_dict() == scaled.to_dict() and "scale" in scaled.to_dict()["model"]
    np.testing.assert_array_equal(restored.decision_function(X), scaled.decision_function(X))
    assert "scale" not in divided.to_dict()["model"]  # scale=None writes the model as before


@pytest.mark.parametrize("cls", [KernelPerceptron, MaximalMarginPerceptron])
def test_the_boolean_kernel_divides_nothing(cls):
    """Notebook 03's setting: kernel="boolean" on 0/1 bits is read as it is, the same model as
    scale=None bit for bit (and so is a real-valued kernel on a 0/1 table)."""
    bits = add_complemented_bits(np.random.default_rng(5).integers(0, 2, size=(80, 4)))
    y = ((bits[:, 0] + bits[:, 1]) > 0).astype(int)
    y[:8] = 1 - y[:8]
    for kernel in ("boolean", "rbf"):
        default = cls(kernel=kernel, fallback=None).fit(bits, y)
        unscaled = cls(kernel=kernel, scale=None, fallback=None).fit(bits, y)
        assert (default.scale_ == 1).all()
        assert default.to_dict()["model"] == unscaled.to_dict()["model"]
        np.testing.assert_array_equal(default.decision_function(bits), unscaled.decision_function(bits))


# ------------------------------------------------------------------------------------------------
# Algorithm 2 compiled by numba against its numpy loop (the same bits)
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 5, 7, 8, 9, 63, 128, 129, 250, 256, 257, 500, 1031, 2048, 5000])
def test_pairwise_sum_is_numpys_add_reduce_bit_for_bit(n):
    """The compiled sum of N = Σ α_i g_i adds in numpy's pairwise order: on values of wide
    dynamic range (where the order shows in the last bits) it is np.add.reduce, bits included,
    negative zeros too."""
    pytest.importorskip("numba")
    from companion._mmp_kernel import pairwise_plan, pairwise_sum

    rng = np.random.default_rng(n)
    plan = pairwise_plan(n)
    stack = np.empty(max(len(plan), 1))
    for _ in range(20):
        values = rng.standard_normal(n) * 10.0 ** rng.integers(-12, 12, n)
        assert pairwise_sum(values, plan, stack) == np.add.reduce(values)
        assert np.float64(pairwise_sum(values, plan, stack)).tobytes() == np.add.reduce(values).tobytes()
    zeros = np.full(n, -0.0)
    assert np.float64(pairwise_sum(zeros, plan, stack)).tobytes() == np.add.reduce(zeros).tobytes()


@pytest.mark.parametrize("case", range(16))
def test_compiled_mmp_iterations_equal_the_numpy_loop_bit_for_bit(case):
    """Algorithm 2 compiled (companion._mmp_kernel) gives the numpy loop's α, g, history and
    convergence, bits included: Boolean data full of duplicated rows (tied steps broken by index,
    away steps that empty a support point), real-valued kernels, sizes past numpy's pairwise
    blocks (m > 128, > 256), a cap of iterations reached, and a progress tracker (the compiled
    loop then runs in chunks)."""
    pytest.importorskip("numba")
    from companion.perceptrons import _ExtendedGram, _GivenKernel, _compiled_mmp_steps, _mmp_iterations, \
        _mmp_iterations_numpy

    rng = np.random.default_rng(100 + case)
    m = int(rng.integers(8, 80)) if case < 8 else int(rng.integers(129, 700))
    K, y = _random_mmp_problem(rng, m, real=case % 4 == 3, max_bits=8, max_degree=5)
    lam = float(rng.choice([0.25, 1.0, 4.0]))
    tol = float(rng.choice([1e-2, 1e-3]))
    max_iter = 37 if case in (0, 9) else 300 if case == 10 else 50_000
    fast = _mmp_iterations(_ExtendedGram(_GivenKernel(K), y, lam), tol, max_iter, compiled=_compiled_mmp_steps())
    plain = _mmp_iterations_numpy(_ExtendedGram(_GivenKernel(K), y, lam), tol, max_iter)
    for a, b in zip(fast[:3], plain[:3]):
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
    assert fast[3] == plain[3]
    if case in (0, 9):
        assert not fast[3] and fast[2].size == max_iter + 1  # the cap was reached


def test_compiled_mmp_iterations_report_progress_as_the_numpy_loop(monkeypatch):
    """With a progress tracker the compiled loop runs _PROGRESS_EVERY iterations between two
    updates, at the iterations the numpy loop reports, and gives the same iterates."""
    pytest.importorskip("numba")
    import companion.perceptrons as perceptrons_module
    from companion.perceptrons import _ExtendedGram, _GivenKernel, _compiled_mmp_steps, _mmp_iterations, \
        _mmp_iterations_numpy

    seen = {"compiled": [], "numpy": []}

    class Tracker:
        def __init__(self, key):
            self.key = key

        def update(self, done):
            seen[self.key].append(done)

    rng = np.random.default_rng(7)
    Z = rng.normal(size=(150, 4))
    y = np.where(rng.random(150) < 0.5, 1.0, -1.0)
    results = {}
    compiled = functools.partial(_mmp_iterations, compiled=_compiled_mmp_steps())
    for key, function in (("compiled", compiled), ("numpy", _mmp_iterations_numpy)):
        monkeypatch.setattr(perceptrons_module, "progress_lines", lambda *args, key=key: Tracker(key))
        results[key] = function(_ExtendedGram(_GivenKernel(Z @ Z.T), y, 1.0), 1e-4, 2_000)
    assert seen["compiled"] == seen["numpy"] and len(seen["numpy"]) > 1
    assert all(a.tobytes() == b.tobytes() for a, b in zip(results["compiled"][:3], results["numpy"][:3]))


def test_compiled_fit_is_the_numpy_fit_bit_for_bit():
    """compiled=True (numba) fits the same perceptron as the default numpy loop, bits included."""
    pytest.importorskip("numba")
    rng = np.random.default_rng(11)
    X = rng.integers(0, 2, size=(120, 6)).astype(float)
    y = np.where(X[:, 0] + X[:, 1] + rng.random(120) > 1.2, "yes", "no")
    plain = MaximalMarginPerceptron(kernel="boolean", degree=3, fallback=None).fit(X, y)
    fast = MaximalMarginPerceptron(kernel="boolean", degree=3, fallback=None, compiled=True).fit(X, y)
    for name in ("alpha_", "norm_history_", "dual_coef_"):
        assert getattr(fast, name).tobytes() == getattr(plain, name).tobytes(), name
    assert fast.decision_function(X).tobytes() == plain.decision_function(X).tobytes()


def test_compiled_without_numba_names_the_estimator_parameter_and_remedy(monkeypatch):
    """compiled=True where numba cannot be imported fails before any work, saying what to do;
    the default (compiled=False) never imports numba."""
    import sys

    monkeypatch.setitem(sys.modules, "numba", None)  # `import numba` now raises ImportError
    X = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]] * 3)
    y = np.array([0, 1, 1, 0] * 3)
    with pytest.raises(ImportError, match=r"MaximalMarginPerceptron: compiled=True needs numba.*compiled=False"):
        MaximalMarginPerceptron(kernel="boolean", compiled=True, fallback=None).fit(X, y)
    MaximalMarginPerceptron(kernel="boolean", fallback=None).fit(X, y)


def test_compiled_must_be_a_boolean():
    with pytest.raises(ValueError, match=r"'compiled' parameter of MaximalMarginPerceptron must be .*bool.* Got 'yes'"):
        MaximalMarginPerceptron(compiled="yes").fit([[0.0], [1.0]], [0, 1])


def test_a_model_written_before_compiled_existed_reads_back_and_predicts_the_same():
    """to_dict records compiled; a model written without it (before the parameter) still reads
    back through from_dict with the default, and a wrong value names the learner and the field."""
    from companion.interpretable import ModelFormatError, from_dict

    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(40, 4)).astype(float)
    y = X[:, 0].astype(int)
    model = MaximalMarginPerceptron(kernel="boolean", fallback=None).fit(X, y)
    written = model.to_dict()
    assert written["params"]["compiled"] is False
    del written["params"]["compiled"]
    again = from_dict(written)
    assert again.compiled is False and (again.predict(X) == model.predict(X)).all()
    written["params"]["compiled"] = "yes"
    with pytest.raises(ModelFormatError, match=r"MaximalMarginPerceptron: field params: The 'compiled' parameter"):
        from_dict(written)
