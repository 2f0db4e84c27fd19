"""The monomials of the Boolean kernels as arrays: their enumeration and their columns.

``companion.kernels`` (``all_monomials``, ``literal_monomials``, ``monomial_features``) and the
MaskPerceptron's fit, which reads thousands of candidates and keeps a few, share this one home.
"""

from __future__ import annotations

from itertools import combinations, product

import numpy as np


def monomial_positions(n_variables: int, degree: int, *, literals: bool) -> tuple[np.ndarray, np.ndarray]:
    """``companion.kernels.literal_monomials`` (``literals=True``) or ``all_monomials`` as arrays.

    Returns ``(positions, degrees)``: row ``k`` of ``positions`` (shape ``(n_monomials,
    max(degree, 1))``) holds the sorted positions of monomial ``k`` in its first ``degrees[k]``
    entries (the rest is 0 and unread). A fit that selects a few of thousands of candidates
    reads these arrays and makes tuples of the selected ones only.
    """
    sizes = range(1, min(degree, n_variables) + 1)
    blocks = [np.zeros((1, max(degree, 1)), dtype=np.intp)]
    degrees = [np.zeros(1, dtype=np.intp)]
    for size in sizes:
        # Every combination of variables (lexicographic); with literals, each with every pattern
        # of negations (in product order), positions sorted: the order of the nested loops.
        if size == 2:  # the pairs in lexicographic order, without a tuple each
            variables = np.column_stack(np.triu_indices(n_variables, 1)).astype(np.intp, copy=False)
        else:
            variables = np.array(list(combinations(range(n_variables), size)), dtype=np.intp).reshape(-1, size)
        if literals:
            negated = np.array(list(product((0, 1), repeat=size)), dtype=np.intp)
            variables = np.sort(variables[:, None, :] + n_variables * negated[None, :, :], axis=2).reshape(-1, size)
        block = np.zeros((variables.shape[0], max(degree, 1)), dtype=np.intp)
        block[:, :size] = variables
        blocks.append(block)
        degrees.append(np.full(variables.shape[0], size, dtype=np.intp))
    return np.concatenate(blocks), np.concatenate(degrees)


def monomial_tuples(positions: np.ndarray, degrees: np.ndarray) -> list[tuple[int, ...]]:
    """The monomials of ``(positions, degrees)`` (:func:`monomial_positions`) as tuples."""
    rows = positions.tolist()
    return [tuple(row[:size]) for row, size in zip(rows, degrees.tolist())]


def monomial_columns(X, positions, degrees, c) -> np.ndarray:
    """``companion.kernels.monomial_features`` of the monomials ``(positions, degrees)``
    (:func:`monomial_positions`), with the complexity weights ``c`` indexed by degree (checked
    by the caller, at least ``degrees.max() + 1`` of them): the ``(n_samples, n_monomials)``
    column-major matrix of ``√c_|I| x^I``.
    """
    max_degree = int(degrees.max(initial=0))
    # Pad each monomial with the index of an appended column of ones, then multiply the gathered
    # columns, first position first: x^I = ((x_i1 * x_i2) * x_i3) ..., the padding multiplying
    # by 1.0, exactly. The columns are gathered as contiguous rows of the transposed input and
    # multiplied in place (no (n_samples, n_monomials, degree) temporary); the result is the
    # transpose of that (n_monomials, n_samples) block, column-major, the layout the fixed-order
    # sums of its callers read (companion.numerics.ordered_matvec).
    width = max(max_degree, 1)
    padded = np.where(np.arange(width) < degrees[:, None], positions[:, :width], X.shape[1])
    columns = np.vstack([X.T, np.ones((1, X.shape[0]))])  # row j: input column j; last row: ones
    if padded.size and (padded.min() < 0 or padded.max() > X.shape[1]):
        # numpy's indexing of the columns and the ones (a negative position counts from the end)
        padded = np.where(padded < 0, padded + columns.shape[0], padded)
        if padded.min() < 0 or padded.max() >= columns.shape[0]:
            raise IndexError(f"monomial_features: a monomial names a column outside the {X.shape[1]} columns of X")
    scale = np.sqrt(c[degrees])
    n_monomials = len(degrees)
    values = np.empty((n_monomials, X.shape[0]))
    block = max(1, 2**18 // max(X.shape[0], 1))  # monomials per block (~2 MB of factors)
    factor = np.empty((min(block, n_monomials), X.shape[0]))
    for start in range(0, n_monomials, block):
        stop = min(start + block, n_monomials)
        out = values[start:stop]
        np.take(columns, padded[start:stop, 0], axis=0, out=out, mode="clip")  # valid indices; "raise" would buffer out
        for position in range(1, padded.shape[1]):
            out *= np.take(columns, padded[start:stop, position], axis=0, out=factor[: stop - start], mode="clip")
        out *= scale[start:stop, None]
    return values.T
