"""Boolean kernel of paper 03 (Eq. 5): explicit feature map, closed form, logic classes."""

from itertools import product

import numpy as np
import pytest
from sklearn.svm import SVC
from sklearn.utils._param_validation import InvalidParameterError
from sklearn.tree import DecisionTreeClassifier

from companion.kernels import (
    add_complemented_bits,
    all_monomials,
    boolean_kernel,
    dnf_polynomial,
    literal_monomials,
    monomial_features,
    polynomial_norm_sq,
)
from companion.baselines import leaf_monomial, tree_leaf_paths


def naive_kernel(x, xp, degree, c):
    """Σ over all monomials |I| ≤ d of c_|I| x^I x'^I, with plain loops (Eq. 4 → Eq. 5)."""
    total = 0.0
    for monomial in all_monomials(len(x), degree):
        total += c[len(monomial)] * np.prod([x[j] * xp[j] for j in monomial])
    return total


@pytest.mark.parametrize("degree", [0, 1, 2, 3, 6])
def test_kernel_equals_explicit_feature_map(rng, degree):
    X = rng.integers(0, 2, size=(30, 6))
    Y = rng.integers(0, 2, size=(20, 6))
    c = rng.uniform(0.1, 3.0, size=degree + 1)
    phi_x = monomial_features(X, all_monomials(6, degree), c)
    phi_y = monomial_features(Y, all_monomials(6, degree), c)
    np.testing.assert_allclose(boolean_kernel(X, Y, degree=degree, weights=c), phi_x @ phi_y.T, rtol=0, atol=1e-12)


def test_kernel_equals_naive_monomial_sum(rng):
    X = rng.integers(0, 2, size=(8, 5))
    c = rng.uniform(0.5, 2.0, size=4)
    K = boolean_kernel(X, degree=3, weights=c)
    for a, b in product(range(8), repeat=2):
        assert K[a, b] == pytest.approx(naive_kernel(X[a], X[b], 3, c), abs=1e-12)


@pytest.mark.parametrize("beta", [0.3, 1.0, 2.5])
def test_closed_form_when_degree_is_n(rng, beta):
    X = rng.integers(0, 2, size=(25, 7))
    inner = X @ X.T
    np.testing.assert_allclose(boolean_kernel(X, degree=7, weights=beta), (1 + beta) ** inner, rtol=1e-12)


def test_complemented_inputs(rng):
    bits = rng.integers(0, 2, size=(40, 7))
    Xc = add_complemented_bits(bits)
    diagonals = [boolean_kernel(Xc[:1], degree=d)[0, 0] for d in range(2, 8)]
    assert diagonals == [29, 64, 99, 120, 127, 128]
    hamming = (bits[:, None, :] != bits[None, :, :]).sum(axis=2)
    np.testing.assert_array_equal(np.rint(np.log2(boolean_kernel(Xc, degree=14))), 7 - hamming)
    gram7 = boolean_kernel(Xc, degree=7)
    for d in range(8, 15):
        np.testing.assert_array_equal(boolean_kernel(Xc, degree=d), gram7)
    assert [len(literal_monomials(7, d)) for d in range(8)] == [1, 15, 99, 379, 939, 1611, 2059, 2187]
    # Only the non-vanishing monomials matter on complemented data.
    phi = monomial_features(Xc, literal_monomials(7, 3))
    np.testing.assert_allclose(phi @ phi.T, boolean_kernel(Xc, degree=3), atol=1e-12)


def test_kernel_is_positive_semidefinite(rng):
    X = add_complemented_bits(rng.integers(0, 2, size=(50, 7)))
    for degree in (1, 2, 7):
        assert np.linalg.eigvalsh(boolean_kernel(X, degree=degree)).min() > -1e-8


def test_kernel_works_with_svc_as_callable_and_precomputed(rng):
    X = add_complemented_bits(rng.integers(0, 2, size=(60, 5)))
    y = (X[:, 0] * X[:, 1] + X[:, 2] > 0).astype(int)

    def kernel(A, B):
        return boolean_kernel(A, B, degree=2)

    callable_svc = SVC(kernel=kernel).fit(X, y)
    precomputed_svc = SVC(kernel="precomputed").fit(kernel(X, X), y)
    np.testing.assert_array_equal(callable_svc.predict(X), precomputed_svc.predict(kernel(X, X)))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(X=[[0.5, 1.0]], degree=2), "entries in \\{0, 1\\}"),
        (dict(X=[[2, 0]], degree=2), "Boolean"),
        (dict(X=[0, 1], degree=2), "2-D"),
        (dict(X=[["a", "b"]], degree=2), "numeric"),
        (dict(X=[[0, 1]], degree=-1), "degree"),
        (dict(X=[[0, 1]], degree=1.5), "degree"),
        (dict(X=[[0, 1]], degree=2, weights=[1, 1]), "length degree"),
        (dict(X=[[0, 1]], degree=1, weights=[1, -1]), "> 0"),
    ],
)
def test_bad_input_is_rejected(kwargs, message):
    with pytest.raises(ValueError, match=message):
        boolean_kernel(**kwargs)


def test_a_ratio_beta_must_be_positive():
    # c_i = β^i needs β > 0: refused by the declaration, naming the parameter and the value
    message = (r"The 'weights' parameter of boolean_kernel must be None, a float in the range \(0\.0, inf\) "
               r"or an array-like\. Got 0\.0 instead")
    with pytest.raises(InvalidParameterError, match=message):
        boolean_kernel(X=[[0, 1]], degree=1, weights=0.0)


def test_feature_count_mismatch():
    with pytest.raises(ValueError, match="same number of features"):
        boolean_kernel([[0, 1]], [[0, 1, 1]], degree=1)


def tree_polynomial(tree, n_variables: int) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """Monomial form of a decision tree on Boolean inputs: the class DT_{d,n} (paper §2).

    Each leaf becomes the conjunction of the literals on its root-to-leaf path, expressed on the
    complemented inputs (``x_{j+n}`` for ``¬x_j``), with coefficient ``w_I = ±1`` (the leaf's class).

    Parameters
    ----------
    tree : sklearn.tree._tree.Tree
        A fitted scikit-learn ``tree_`` whose splits are on Boolean features (threshold 0.5).
    n_variables : int
        Number of original Boolean variables ``n``.

    Returns
    -------
    monomials : list of tuple of int
    signs : ndarray of ±1
        ``+1`` where the leaf predicts the positive class (``classes_[1]``).
    """
    monomials, signs = [], []
    # Right to left, the order paper 03's polynomials have always been listed in.
    for leaf in reversed(tree_leaf_paths(tree)):
        counts = tree.value[leaf.node].ravel()
        monomials.append(leaf_monomial(leaf.conditions, n_variables))
        signs.append(1.0 if counts.shape[0] > 1 and counts[1] > counts[0] else -1.0)
    return monomials, np.array(signs)


def test_tree_polynomial_is_a_member_of_DT(rng):
    bits = rng.integers(0, 2, size=(200, 6))
    y = rng.integers(0, 2, size=200)
    tree = DecisionTreeClassifier(max_depth=4, random_state=0).fit(bits, y)
    monomials, signs = tree_polynomial(tree.tree_, 6)
    fires = monomial_features(add_complemented_bits(bits), monomials)
    assert np.all(fires.sum(axis=1) == 1)  # exactly one leaf fires
    f = fires @ signs
    assert set(np.unique(f)) <= {-1.0, 1.0}
    np.testing.assert_array_equal(np.where(f > 0, 1, 0), tree.predict(bits))
    assert polynomial_norm_sq(monomials, signs) == tree.get_n_leaves()
    assert max(len(m) for m in monomials) <= 4
    # A tree is half the difference of two DNFs (paper §2).
    g_plus = -1 + 2 * fires[:, signs > 0].sum(axis=1)
    g_minus = -1 + 2 * fires[:, signs < 0].sum(axis=1)
    np.testing.assert_array_equal(f, (g_plus - g_minus) / 2)


def test_dnf_polynomial(rng):
    bits = rng.integers(0, 2, size=(100, 5))
    Xc = add_complemented_bits(bits)
    candidates = literal_monomials(5, 3)[1:]
    terms = [candidates[k] for k in rng.choice(len(candidates), size=4, replace=False)]
    monomials, coefficients = dnf_polynomial(terms)
    f = monomial_features(Xc, monomials) @ coefficients
    truth = np.any([np.all(Xc[:, list(t)] == 1, axis=1) for t in terms], axis=0)
    assert np.all(np.abs(f) >= 1)
    np.testing.assert_array_equal(f >= 1, truth)
    assert polynomial_norm_sq(monomials, coefficients) == 1 + 4 * len(terms)
    c = np.array([2.0, 0.5, 0.25, 4.0])
    expected = 1 / c[0] + 4 * sum(1 / c[len(t)] for t in terms)
    assert polynomial_norm_sq(monomials, coefficients, c) == pytest.approx(expected)
    with pytest.raises(ValueError, match="non-empty"):
        dnf_polynomial([()])


def test_numpy_scalars_are_accepted_and_numpy_bools_are_not(rng):
    from companion.kernels import degree_weights

    X = rng.integers(0, 2, size=(20, 5))
    np.testing.assert_array_equal(
        boolean_kernel(X, degree=np.int64(3), weights=np.float32(2.0)), boolean_kernel(X, degree=3, weights=2.0)
    )
    np.testing.assert_array_equal(degree_weights(np.uint8(2), np.float64(0.5)), [1.0, 0.5, 0.25])
    for bad in (np.bool_(True), True, np.float64(2.0)):
        with pytest.raises(ValueError, match=r"The 'degree' parameter of degree_weights must be an int in the range \[0, inf\)"):
            degree_weights(bad)


def test_monomial_names_take_feature_names():
    from companion.kernels import monomial_names

    monomials = [(), (0,), (1, 2)]
    assert monomial_names(monomials, n_variables=2, feature_names=["age", "smoker"]) == ["1", "age", "smoker ¬age"]
    assert monomial_names(monomials, n_variables=2) == ["1", "x1", "x2 ¬x1"]  # the paper's numbering


def test_monomial_features_reads_positions_as_numpy_indexes():
    """A monomial's positions index the columns of X and, one past them, a column of ones (as the
    padding of shorter monomials does); a negative position counts from that end; a position
    beyond raises."""
    from companion.kernels import monomial_features

    X = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(monomial_features(X, [(0, 2), (3,), (-1,), (-2, 1)]),
                                  [[0.0, 1.0, 1.0, 2.0], [15.0, 1.0, 1.0, 20.0]])
    with pytest.raises(IndexError, match="outside the 3 columns"):
        monomial_features(X, [(4,)])
