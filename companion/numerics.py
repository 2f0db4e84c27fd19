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
4. **A number is never a bool**: :class:`StrictInterval` is scikit-learn's ``Interval``
   constraint (for ``validate_params``) that refuses ``True`` as a count or a confidence.

>>> import numpy as np
>>> K = np.array([[2.0, 1.0], [1.0, 2.0]])
>>> exact_matvec(K, np.array([1, -2])).tolist()
[0.0, -3.0]
>>> ordered_dot([0.1, 0.2], [1.0, 1.0]) == 0.1 + 0.2
True
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval, validate_params

__all__ = [
    "StrictInterval",
    "is_integer_valued",
    "exact_matvec",
    "ordered_matvec",
    "ordered_dot",
    "stable_argsort_rows",
    "TIE_RTOL",
    "first_near_min",
]

#: Relative tolerance within which two real scores computed from integer counts are tied (rule 3).
TIE_RTOL = 1e-12

# Largest magnitude below which every integer is exactly representable in float64.
_EXACT_FLOAT_INTEGERS = 2.0**53


class StrictInterval(Interval):
    """The ``Interval`` constraint of scikit-learn (for ``validate_params``) that refuses bools (rule 4).

    ``True`` is an ``Integral`` (and a ``Real``) to Python, so scikit-learn's constraint takes it
    as 1; a count of errors, a problem number or a confidence given as ``True`` is a mistake,
    refused here with scikit-learn's message ("... must be an int in the range [0, inf). Got
    True instead.").

    Parameters
    ----------
    type : {numbers.Integral, numbers.Real}
        The type of the value.
    left, right : float or None
        The bounds (None: unbounded).
    closed : {"left", "right", "both", "neither"}
        Which bounds belong to the interval.

    Examples
    --------
    >>> from numbers import Integral
    >>> count = StrictInterval(Integral, 0, None, closed="left")
    >>> count.is_satisfied_by(3), count.is_satisfied_by(True), count.is_satisfied_by(-1)
    (True, False, False)
    """

    def is_satisfied_by(self, val):
        """Whether ``val`` is a number of the type (numpy's too, not a bool) inside the interval.

        Parameters
        ----------
        val : object

        Returns
        -------
        bool
        """
        return not isinstance(val, (bool, np.bool_)) and super().is_satisfied_by(val)


@validate_params(
    {"values": ["array-like"], "rtol": [StrictInterval(Real, 0, None, closed="left")]},
    prefer_skip_nested_validation=True,
)
def first_near_min(values, rtol=TIE_RTOL) -> int:
    """Lowest index ``i`` with ``values[i] <= min + rtol * max(1, |min|)``: the tie rule of rule 3.

    For values that are irrational functions of integer counts (WIDC's Z and Z_t, Nock 2002
    Eq. 6; the class entropies of the Fayyad-Irani MDL cut, Fayyad & Irani 1993): mathematically
    equal values may differ in their last bits with the order of a float sum or the CPU's exp/log
    kernel, so values within ``rtol`` (relative, at least absolute for values below 1) of the
    minimum are tied and the leftmost wins.

    Parameters
    ----------
    values : array-like of float
        The candidates' values, in the order whose leftmost tie wins.
    rtol : float, default=:data:`TIE_RTOL`
        Relative tolerance of a tie.

    Returns
    -------
    int
        The chosen index.

    Examples
    --------
    >>> first_near_min(np.array([0.3, 0.1 + 0.2, 0.2]))
    2
    >>> first_near_min(np.array([0.1 + 0.2, 0.3, 0.5]))
    0
    """
    values = np.asarray(values, dtype=float)
    lowest = values.min()
    return int(np.flatnonzero(values <= lowest + rtol * max(1.0, abs(lowest)))[0])


@validate_params({"values": ["array-like", Real]}, prefer_skip_nested_validation=True)
def is_integer_valued(values) -> bool:
    """True when every entry of ``values`` is a finite whole number (as a float or an integer).

    Parameters
    ----------
    values : array-like or float
        Numbers of any shape.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_integer_valued([1.0, -3.0, 0.0]), is_integer_valued([0.5]), is_integer_valued([np.inf])
    (True, False, False)
    """
    values = np.asarray(values)
    if values.dtype.kind in "biu":
        return True
    if values.dtype.kind != "f":
        return False
    return bool(np.all(np.isfinite(values)) and np.array_equal(values, np.rint(values)))


def _first_non_integer(values):
    """The first entry of ``values`` that is not a finite whole number (its dtype if not numeric)."""
    values = np.asarray(values)
    if values.dtype.kind not in "biuf":
        return f"an array of dtype {values.dtype}"
    bad = values[~(np.isfinite(values) & (values == np.rint(values)))]
    return f"the entry {bad.flat[0].item()!r}"


@validate_params({"matrix": ["array-like"], "vector": ["array-like"]}, prefer_skip_nested_validation=True)
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
    for name, values in (("matrix", matrix), ("vector", vector)):
        if not is_integer_valued(values):
            raise ValueError(f"exact_matvec needs an integer-valued {name}, got {_first_non_integer(values)}")
    if matrix.size == 0 or vector.size == 0:
        return np.zeros(matrix.shape[0])
    bound = float(np.abs(matrix).max()) * float(np.abs(vector).sum())
    if bound < _EXACT_FLOAT_INTEGERS:
        return np.asarray(matrix, dtype=np.float64) @ np.asarray(vector, dtype=np.float64)
    if bound >= 2.0**63:
        raise ValueError(
            f"exact_matvec: the products could overflow int64: max |matrix| * sum |vector| = {bound!r} >= 2**63"
        )
    return (np.asarray(matrix, dtype=np.int64) @ np.asarray(vector, dtype=np.int64)).astype(np.float64)


@validate_params({"matrix": ["array-like"], "vector": ["array-like"]}, prefer_skip_nested_validation=True)
def ordered_matvec(matrix, vector) -> np.ndarray:
    """``matrix @ vector`` summed by numpy in a fixed order, not by BLAS (rule 2 above).

    Each row's products are added by numpy's pairwise summation, whose order depends only on
    the row length: the result is the same on every CPU and with any number of threads.

    Parameters
    ----------
    matrix : array-like of shape (n_rows, n_columns)
        The matrix.
    vector : array-like of shape (n_columns,)
        The vector.

    Returns
    -------
    numpy.ndarray of shape (n_rows,)

    Examples
    --------
    >>> ordered_matvec([[1.0, 2.0], [3.0, 4.0]], [1.0, 0.5]).tolist()
    [2.0, 5.0]
    """
    return _ordered_matvec(matrix, vector)


def _ordered_matvec(matrix, vector) -> np.ndarray:
    """:func:`ordered_matvec` without its parameter check, for the inner loops of a fit (the
    check costs more than the product on the few hundred values of a Newton step)."""
    matrix = np.asarray(matrix, dtype=np.float64)
    vector = np.asarray(vector, dtype=np.float64)
    return np.multiply(matrix, vector[None, :]).sum(axis=1)


@validate_params({"a": ["array-like"], "b": ["array-like"]}, prefer_skip_nested_validation=True)
def ordered_dot(a, b) -> float:
    """``a · b`` summed by numpy in a fixed order, not by BLAS (rule 2 above).

    Parameters
    ----------
    a, b : array-like of shape (n,)
        The two vectors.

    Returns
    -------
    float
    """
    return _ordered_dot(a, b)


def _ordered_dot(a, b) -> float:
    """:func:`ordered_dot` without its parameter check, for the inner loops of a fit."""
    return float(np.multiply(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)).sum())


# rows of keys sorted at a time by stable_argsort_rows: bounds its uint64 temporaries to ~32 MB
_ARGSORT_BLOCK_ELEMENTS = 2**22


@validate_params(
    {
        "values": ["array-like"],
        # a numpy scalar type (np.intp), a dtype or its name: whatever np.iinfo reads
        "dtype": [type, np.dtype, str],
        "return_group_starts": ["boolean"],
        "block_elements": [StrictInterval(Integral, 1, None, closed="left")],
    },
    prefer_skip_nested_validation=True,
)
def stable_argsort_rows(values, dtype=np.intp, *, return_group_starts: bool = False,
                        block_elements: int = _ARGSORT_BLOCK_ELEMENTS):
    """``np.argsort(values, axis=1, kind="stable")`` for non-negative floats, several times faster.

    The order is unique (equal values keep increasing column index), so it is the same on every
    CPU whatever sorting kernel numpy picks. It is computed by sorting one ``uint64`` key per entry,
    the value's bit pattern (monotone in the value for non-negative floats) with its low
    ``ceil(log2 n)`` bits replaced by the column index: the keys of a row are distinct, so numpy's
    fast (SIMD, unstable) sort has only one possible result, ordered by (truncated value, index).
    That is the stable order unless two values that differ only in the replaced bits come out
    decreasing; only neighbours with equal truncated keys can, so they are compared exactly, and
    such rows are re-sorted with the stable sort.

    Parameters
    ----------
    values : array-like of shape (r, n)
        Finite, non-negative float64 (e.g. distances); ``-0.0`` counts as ``0.0``.
    dtype : integer type, dtype or dtype name, default=np.intp
        Index type of the result (e.g. ``np.uint16`` when ``n <= 65536``).
    return_group_starts : bool, default=False
        Also return where each sorted row starts a new group of equal values.
    block_elements : int, default=2**22
        Entries sorted per block of rows (the work buffers' size; the result does not depend on it).

    Returns
    -------
    order : ndarray of shape (r, n)
        For each row, the column indices by increasing value, equal values by increasing index.
    group_starts : ndarray of bool, shape (r, n)
        Only with ``return_group_starts``: ``values[i, order[i, j]] != values[i, order[i, j - 1]]``
        (True at ``j = 0``), found exactly without gathering the sorted values.

    Examples
    --------
    >>> stable_argsort_rows(np.array([[0.5, 0.0, 0.5, 0.25]])).tolist()
    [[1, 3, 0, 2]]
    """
    values = np.asarray(values, dtype=np.float64)
    if values.ndim != 2:
        raise ValueError(f"stable_argsort_rows: values must be 2-D, got shape {values.shape}")
    n_rows, n = values.shape
    if n_rows == 0 or n == 0:
        empty = np.zeros(values.shape, dtype=dtype)
        return (empty, np.ones(values.shape, dtype=bool)) if return_group_starts else empty
    if not np.all(np.isfinite(values)) or (values < 0).any():
        bad = values[~(np.isfinite(values) & (values >= 0))].flat[0]
        raise ValueError(f"stable_argsort_rows needs finite, non-negative values, got {bad.item()!r}")
    if np.iinfo(dtype).max < n - 1:
        raise ValueError(f"stable_argsort_rows: dtype {np.dtype(dtype).name} cannot index {n} columns of values")
    index_bits = max(1, int(n - 1).bit_length())
    index_mask = np.uint64((1 << index_bits) - 1)
    keep = np.uint64(~((1 << index_bits) - 1) & 0xFFFFFFFFFFFFFFFF)
    columns = np.arange(n, dtype=np.uint64)
    out = np.empty(values.shape, dtype=dtype)
    starts = np.ones(values.shape, dtype=bool) if return_group_starts else None
    step = max(1, min(n_rows, int(block_elements) // n))
    # work buffers allocated once: fresh pages cost more than the arithmetic on them
    block_buffer = np.empty((step, n))
    keys_buffer = np.empty((step, n), dtype=np.uint64)
    truncated_buffer = np.empty((step, n), dtype=np.uint64)
    for start in range(0, n_rows, step):
        rows_here = min(step, n_rows - start)
        block, keys, truncated = block_buffer[:rows_here], keys_buffer[:rows_here], truncated_buffer[:rows_here]
        np.add(values[start : start + rows_here], 0.0, out=block)  # + 0.0 turns -0.0 into 0.0
        np.bitwise_and(block.view(np.uint64), keep, out=keys)
        keys |= columns
        keys.sort(axis=1)
        np.bitwise_and(keys, index_mask, out=truncated)
        out[start : start + rows_here] = truncated
        # Only neighbours with equal truncated values can be out of order: check those exactly.
        np.bitwise_and(keys, keep, out=truncated)
        same_truncated = truncated[:, 1:] == truncated[:, :-1]
        rows, cols = np.nonzero(same_truncated)
        if len(rows):
            order = out[start : start + rows_here]
            left = block[rows, order[rows, cols].astype(np.intp)]
            right = block[rows, order[rows, cols + 1].astype(np.intp)]
            bad = np.unique(rows[right < left])
            if len(bad):
                out[start + bad] = np.argsort(block[bad], axis=1, kind="stable")
        if return_group_starts:
            group_starts = starts[start : start + rows_here]
            # different truncated keys: different values; equal ones: compare the values
            np.logical_not(same_truncated, out=group_starts[:, 1:])
            if len(rows):
                order = out[start : start + rows_here]
                left = block[rows, order[rows, cols].astype(np.intp)]
                right = block[rows, order[rows, cols + 1].astype(np.intp)]
                group_starts[rows, cols + 1] = right != left
    return (out, starts) if return_group_starts else out
