"""Sums and products whose result does not depend on the machine: the package's arithmetic policy.

A matrix product through BLAS (``A @ v``, ``np.dot``) adds its terms in an order chosen by the BLAS
kernel, which depends on the CPU (``OPENBLAS_CORETYPE``), the thread count and the library build.
Two machines then disagree in the last bit, and a decision taken on that bit (the sign of a score
that is truly 0, an ``argmin`` over two truly equal values) disagrees too. The rules the learners
follow:

1. **Integer quantities are computed as integers.** Error counts, update counts, integer kernels.
   :func:`exact_matvec` multiplies integer-valued arrays exactly: when every partial sum is an
   integer below ``2**53`` in magnitude, each is exactly representable in float64, so *any*
   summation order (and fused multiply-adds) gives the exact result, and the fast BLAS product
   can be used; otherwise it falls back to int64 arithmetic.
2. **Real quantities are summed in a fixed order.** :func:`ordered_matvec` and :func:`ordered_dot`
   use numpy's own reductions (pairwise summation along a row, in an order fixed by the array's
   length, not by the CPU or thread count) instead of BLAS. Same inputs, same numpy: same bits.
3. **Ties get an explicit rule**, written in the docstring of the function that breaks them.

>>> import numpy as np
>>> K = np.array([[2.0, 1.0], [1.0, 2.0]])
>>> exact_matvec(K, np.array([1, -2])).tolist()
[0.0, -3.0]
>>> ordered_dot([0.1, 0.2], [1.0, 1.0]) == 0.1 + 0.2
True
"""

from __future__ import annotations

import numpy as np

__all__ = ["is_integer_valued", "exact_matvec", "ordered_matvec", "ordered_dot"]

# Largest magnitude below which every integer is exactly representable in float64.
_EXACT_FLOAT_INTEGERS = 2.0**53


def is_integer_valued(values) -> bool:
    """True when every entry of ``values`` is a finite whole number (as a float or an integer).

    >>> is_integer_valued([1.0, -3.0, 0.0]), is_integer_valued([0.5]), is_integer_valued([np.inf])
    (True, False, False)
    """
    values = np.asarray(values)
    if values.dtype.kind in "biu":
        return True
    if values.dtype.kind != "f":
        return False
    return bool(np.all(np.isfinite(values)) and np.array_equal(values, np.rint(values)))


def exact_matvec(matrix, vector) -> np.ndarray:
    """``matrix @ vector`` for integer-valued inputs, exactly, as float64 (whole numbers).

    Parameters
    ----------
    matrix : array-like of shape (n, k)
        Integer-valued entries (e.g. a Boolean kernel with integer weights).
    vector : array-like of shape (k,)
        Integer-valued entries (e.g. signed perceptron update counts ``α_i y_i``).

    Returns
    -------
    ndarray of shape (n,)
        The exact products. When ``max|matrix| · Σ|vector| < 2**53`` every partial sum of every
        summation order is an exactly representable integer, so the BLAS product is exact; else
        the product is taken in int64 (an ``OverflowError``-free bound is checked first).

    Raises
    ------
    ValueError
        If an input is not integer-valued, or the exact result could exceed int64.
    """
    matrix = np.asarray(matrix)
    vector = np.asarray(vector)
    if not (is_integer_valued(matrix) and is_integer_valued(vector)):
        raise ValueError("exact_matvec needs integer-valued matrix and vector")
    if matrix.size == 0 or vector.size == 0:
        return np.zeros(matrix.shape[0])
    bound = float(np.abs(matrix).max()) * float(np.abs(vector).sum())
    if bound < _EXACT_FLOAT_INTEGERS:
        return np.asarray(matrix, dtype=np.float64) @ np.asarray(vector, dtype=np.float64)
    if bound >= 2.0**63:
        raise ValueError("exact_matvec: the products could overflow int64")
    return (np.asarray(matrix, dtype=np.int64) @ np.asarray(vector, dtype=np.int64)).astype(np.float64)


def ordered_matvec(matrix, vector) -> np.ndarray:
    """``matrix @ vector`` summed by numpy in a fixed order, not by BLAS (rule 2 above).

    Each row's products are added by numpy's pairwise summation, whose order depends only on
    the row length: the result is the same on every CPU and with any number of threads.

    >>> ordered_matvec([[1.0, 2.0], [3.0, 4.0]], [1.0, 0.5]).tolist()
    [2.0, 5.0]
    """
    matrix = np.asarray(matrix, dtype=np.float64)
    vector = np.asarray(vector, dtype=np.float64)
    return np.multiply(matrix, vector[None, :]).sum(axis=1)


def ordered_dot(a, b) -> float:
    """``a · b`` summed by numpy in a fixed order, not by BLAS (rule 2 above)."""
    return float(np.multiply(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)).sum())
