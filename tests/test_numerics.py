"""companion.numerics: exact integer products and fixed-order sums (issue 13)."""

import math

import numpy as np
import pytest

from companion.numerics import exact_matvec, is_integer_valued, ordered_dot, ordered_matvec, stable_argsort_rows


def test_exact_matvec_equals_python_integers_on_both_paths(rng):
    for high in (50, 2**40):  # both below 2**53 in every partial sum: the float path, exact
        A = rng.integers(-high, high, size=(30, 20))
        v = rng.integers(-50, 50, size=20)
        reference = [sum(int(a) * int(b) for a, b in zip(row, v)) for row in A]
        result = exact_matvec(A.astype(float), v.astype(float))
        assert [int(x) for x in result] == reference


def test_exact_matvec_big_values_take_the_int64_path():
    A = np.array([[2.0**53, 1.0, -(2.0**53)]])
    v = np.array([1.0, 1.0, 1.0])
    assert (2.0**53 + 1.0) - 2.0**53 == 0.0  # summed left to right, float64 loses the 1 (a BLAS
    # kernel may sum in another order and keep it: under OPENBLAS_CORETYPE=Prescott A @ v gives 1)
    assert exact_matvec(A, v).tolist() == [1.0]  # the int64 path keeps it
    with pytest.raises(ValueError, match="integer-valued"):
        exact_matvec(np.array([[0.5]]), np.array([1.0]))
    with pytest.raises(ValueError, match="overflow"):
        exact_matvec(np.array([[2.0**62]]), np.array([4.0]))


def test_ordered_sums_match_fsum_and_are_order_fixed(rng):
    A = rng.standard_normal((40, 333))
    v = rng.standard_normal(333)
    reference = np.array([math.fsum(a * b for a, b in zip(row, v)) for row in A])
    np.testing.assert_allclose(ordered_matvec(A, v), reference, rtol=1e-12, atol=1e-12)
    # Identical rows give identical bits (a BLAS kernel need not: edge rows take other code).
    B = np.vstack([A[:1]] * 17)
    assert np.unique(ordered_matvec(B, v)).size == 1
    assert ordered_dot(A[0], v) == ordered_matvec(A[:1], v)[0]


def test_is_integer_valued():
    assert is_integer_valued(np.array([1, 2], dtype=np.int8))
    assert is_integer_valued([[-3.0, 0.0]])
    assert not is_integer_valued([1.0, np.nan])
    assert not is_integer_valued(["1"])


@pytest.mark.parametrize("block_elements", [7, 2**20])
def test_stable_argsort_rows_is_numpys_stable_argsort(rng, block_elements):
    cases = [
        rng.random((30, 50)),
        np.round(rng.random((30, 50)), 1),  # many exact ties
        # values that differ only in their last bits, in decreasing order: the truncated keys
        # tie and the exact check must re-sort these rows
        np.tile((1.0 + np.arange(40)[::-1] * 2.0**-52)[None, :], (5, 1)),
        np.array([[0.0, -0.0, 0.0, 1e-300, -0.0]]),  # -0.0 counts as 0.0
        rng.integers(0, 3, size=(20, 70)).astype(float),
    ]
    for values in cases:
        expected = np.argsort(values + 0.0, axis=1, kind="stable")
        for dtype in (np.intp, np.uint16):
            order, starts = stable_argsort_rows(values, dtype, return_group_starts=True, block_elements=block_elements)
            assert order.dtype == dtype
            np.testing.assert_array_equal(order, expected)
            sorted_values = np.take_along_axis(values, expected, axis=1)
            expected_starts = np.ones(values.shape, dtype=bool)
            expected_starts[:, 1:] = sorted_values[:, 1:] != sorted_values[:, :-1]
            np.testing.assert_array_equal(starts, expected_starts)
        np.testing.assert_array_equal(stable_argsort_rows(values, block_elements=block_elements), expected)


def test_stable_argsort_rows_refuses_what_it_cannot_order():
    with pytest.raises(ValueError, match="non-negative"):
        stable_argsort_rows(np.array([[1.0, -2.0]]))
    with pytest.raises(ValueError, match="non-negative"):
        stable_argsort_rows(np.array([[1.0, np.nan]]))
    with pytest.raises(ValueError, match="uint8"):
        stable_argsort_rows(np.zeros((1, 300)), np.uint8)
    with pytest.raises(ValueError, match="2-D"):
        stable_argsort_rows(np.zeros(3))
