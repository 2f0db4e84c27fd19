"""Algorithm 2's iterations (the λ-MMP of paper 03) as one loop over arrays, for numba.

Kowalczyk's maximal margin perceptron as paper 03 (Section 4, Algorithm 2) runs it takes about
``16 m`` greedy steps, each a pass over the ``m`` extended points (the best step toward and away
from each); written with numpy (:func:`companion.perceptrons._mmp_iterations_numpy`) a step is
some thirty array calls on a few hundred values, whose per-call cost, not the arithmetic, is
the time. :func:`mmp_steps` is the same step as one loop that reads each point once, written as plain
Python for numba's ``njit``: :func:`compiled_mmp_steps` compiles it for one fit (numba is an
extra of the notebooks, imported there; :func:`companion.perceptrons._mmp_iterations` runs the
numpy loop without it). About ten times faster on paper 03's fits.

Every value is computed by the same IEEE operations, in the same order, as the numpy loop:
elementwise operations are exact whatever the SIMD level (numba compiles without fast-math, so
no operation is fused or reordered), the ``argmin`` / ``maximum`` / ``minimum`` follow numpy's
rules (first index of the minimum, NaN propagated and preferred), and ``N = Σ α_i g_i`` is
summed by numpy's own pairwise summation (:func:`pairwise_sum`, the order of ``np.add.reduce``
on a contiguous float64 array). So the iterates are the numpy loop's, bit for bit (tested in
``tests/test_perceptrons.py`` on Boolean data full of ties, real kernels and capped runs).
"""

from __future__ import annotations

import math
import types

__all__ = ["compiled_mmp_steps", "mmp_steps", "pairwise_plan", "pairwise_sum"]

#: The functions :func:`compiled_mmp_steps` compiles, callees first (each is compiled against the
#: compiled versions of those it calls).
_KERNEL_FUNCTIONS = ("_block_sum", "pairwise_sum", "_maximum", "_minimum", "_argmin", "mmp_steps")

#: numpy's block of its pairwise summation (``PW_BLOCKSIZE`` in ``loops_utils.h.src``).
_PW_BLOCKSIZE = 128


def _block_sum(values, start, n):
    """numpy's ``pairwise_sum`` of a block ``values[start:start + n]`` of at most 128 values:
    a plain running sum below 8 values, else eight running sums combined pairwise."""
    if n < 8:
        total = 0.0
        for k in range(start, start + n):
            total += values[k]
        return total
    r0, r1, r2, r3 = values[start], values[start + 1], values[start + 2], values[start + 3]
    r4, r5, r6, r7 = values[start + 4], values[start + 5], values[start + 6], values[start + 7]
    k = 8
    end = n - n % 8
    while k < end:
        r0 += values[start + k]
        r1 += values[start + k + 1]
        r2 += values[start + k + 2]
        r3 += values[start + k + 3]
        r4 += values[start + k + 4]
        r5 += values[start + k + 5]
        r6 += values[start + k + 6]
        r7 += values[start + k + 7]
        k += 8
    total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while k < n:
        total += values[start + k]
        k += 1
    return total


def pairwise_plan(n):
    """numpy's pairwise summation of ``n`` values as a program for :func:`pairwise_sum`.

    numpy sums a block of at most 128 values directly and a longer run as the sum of its two
    halves (the first a multiple of 8 long), recursively. The program lists, in post-order, the
    blocks ``(start, length)`` and the additions ``(-1, 0)`` (of the two last values), so that
    :func:`pairwise_sum` adds in numpy's order without recursion (numba's disk cache does not
    hold recursive functions).

    Parameters
    ----------
    n : int
        Number of values.

    Returns
    -------
    ndarray of int64, shape (k, 2)
    """
    import numpy as np

    program = []

    def visit(start, length):
        if length <= _PW_BLOCKSIZE:
            program.append((start, length))
            return
        half = length // 2
        half -= half % 8
        visit(start, half)
        visit(start + half, length - half)
        program.append((-1, 0))

    visit(0, int(n))
    return np.array(program, dtype=np.int64).reshape(-1, 2)


def pairwise_sum(values, plan, stack):
    """``np.add.reduce(values)`` for a contiguous 1-d float64 array, bit for bit.

    numpy's reduction starts from its identity 0 and adds the pairwise sum of the values (so a
    sum of negative zeros is +0, as numpy's).

    Parameters
    ----------
    values : ndarray of float64, shape (n,)
    plan : ndarray of int64
        :func:`pairwise_plan` of ``n``.
    stack : ndarray of float64
        Scratch, at least as long as ``plan``.

    Returns
    -------
    float
    """
    depth = 0
    for step in range(plan.shape[0]):
        start = plan[step, 0]
        if start < 0:
            stack[depth - 2] = stack[depth - 2] + stack[depth - 1]
            depth -= 1
        else:
            stack[depth] = _block_sum(values, start, plan[step, 1])
            depth += 1
    return 0.0 + stack[0]


def _maximum(a, b):
    """``np.maximum(a, b)`` on two floats: NaN propagated, ``a`` kept on equality."""
    if a >= b or math.isnan(a):
        return a
    return b


def _minimum(a, b):
    """``np.minimum(a, b)`` on two floats: NaN propagated, ``a`` kept on equality."""
    if a <= b or math.isnan(a):
        return a
    return b


def _argmin(values):
    """``np.argmin(values)``: the first index of the minimum, of the first NaN if there is one."""
    best = 0
    lowest = values[0]
    if lowest != lowest:
        return 0
    for k in range(1, values.shape[0]):
        value = values[k]
        if value < lowest:
            best, lowest = k, value
        elif value != value:
            return k
    return best


def mmp_steps(G, diag, alpha, g, norm, keep, n_steps, history, n_history, work, plan, stack):
    """At most ``n_steps`` iterations of Algorithm 2, in place on ``alpha`` and ``g``.

    The body of :func:`companion.perceptrons._mmp_iterations_numpy`'s loop, the same operations
    on each point in the same order (see there for the step rules): stop (converged) when
    ``min_i g_i ≥ keep · N``, else take the step toward or away from one point with the largest
    decrease of ``N``, update ``α``, ``g = Gα`` and ``N = Σ α_i g_i``, and record ``N``.

    Parameters
    ----------
    G : ndarray of float64, shape (m, m)
        The extended Gram matrix ``diag(y) K diag(y) + λ I`` (its rows are read).
    diag : ndarray of float64, shape (m,)
        Its diagonal, as :meth:`companion.perceptrons._ExtendedGram.diagonal` gives it.
    alpha, g : ndarray of float64, shape (m,)
        The iterate and ``G α``, updated in place.
    norm : float
        ``N`` of the iterate.
    keep : float
        ``1 - tol``.
    n_steps : int
        Iterations at most.
    history : ndarray of float64
        ``N`` after each iteration is written at ``history[n_history]``, ``n_history + 1``, ...
        (room for ``n_steps`` more).
    n_history : int
        Entries of ``history`` already written.
    work : ndarray of float64, shape (6, m)
        Scratch.
    plan, stack : ndarray
        :func:`pairwise_plan` of ``m``, and scratch as long.

    Returns
    -------
    steps : int
        Iterations taken.
    norm : float
        ``N`` after them.
    converged : bool
        Whether the stopping rule held (checked before each iteration; not after the last one).
    """
    m = alpha.shape[0]
    norm_a, norm_b, gamma_a, gamma_b, caps = work[1], work[2], work[3], work[4], work[5]
    work = work[0]
    lowest = g[0]  # min_i g_i (np.minimum.reduce: exact, NaN propagated), kept by the update pass
    for k in range(1, m):
        lowest = _minimum(lowest, g[k])
    for step in range(n_steps):
        if lowest >= keep * norm:
            return step, norm, True
        # every point's two steps, branch-free (numba vectorises the pass), then the two argmins
        for k in range(m):
            # gap = max(N - 2 g + diag, 1e-300), slope = N - g (see the numpy loop)
            gap = _maximum((norm - g[k] * 2.0) + diag[k], 1e-300)
            slope = norm - g[k]
            ratio = slope / gap
            twice = slope * 2.0
            # (A) toward z_k
            toward = _minimum(_maximum(ratio, 0.0), 1.0)
            norm_a[k] = norm - toward * (twice - toward * gap)
            gamma_a[k] = toward
            # (B) away from z_k, γ capped at α_k / max(1 - α_k, 1e-300)
            cap = alpha[k] / _maximum(1.0 - alpha[k], 1e-300)
            away = _minimum(_maximum(-ratio, 0.0), cap)
            norm_b[k] = norm + away * (twice + away * gap)
            gamma_b[k] = away
            caps[k] = cap
        best_a, best_b = _argmin(norm_a), _argmin(norm_b)
        value_a, value_b = norm_a[best_a], norm_b[best_b]
        cap_b = caps[best_b]
        # α ← (1 ∓ γ) α ± γ e_i, g ← (1 ∓ γ) g ± γ G_i, α_i g_i and min g in one pass (the numpy
        # loop's operations on each entry, in its order)
        toward_step = value_a <= value_b
        if toward_step:
            i, gamma = best_a, gamma_a[best_a]
            factor = 1.0 - gamma
        else:
            i, gamma = best_b, gamma_b[best_b]
            factor = 1.0 + gamma
        for k in range(m):
            a = alpha[k] * factor
            if k == i:
                if toward_step:
                    a += gamma
                else:
                    a -= gamma
                    if gamma >= cap_b:
                        a = 0.0  # the point leaves the support exactly
            alpha[k] = a
            if toward_step:
                value = g[k] * factor + G[i, k] * gamma
            else:
                value = g[k] * factor - G[i, k] * gamma
            g[k] = value
            work[k] = a * value
            lowest = value if k == 0 else _minimum(lowest, value)
        norm = pairwise_sum(work, plan, stack)
        history[n_history + step] = norm
    return n_steps, norm, False


def compiled_mmp_steps():
    """:func:`mmp_steps` compiled by numba's ``njit`` (cached on disk by numba), for one fit.

    The module holds plain Python functions (importing it needs no numba, an extra of the
    notebooks). Each call compiles them into a namespace of its own, every function against the
    compiled versions of those it calls, and returns that namespace's :func:`mmp_steps`; numba
    loads the machine code from its disk cache after the first time (a few hundredths of a
    second). The caller owns the result for as long as it keeps it (CONTRIBUTING.md, caches have
    an owner): :func:`companion.perceptrons._mmp_iterations` takes one per fit.

    Returns
    -------
    numba.core.registry.CPUDispatcher

    Raises
    ------
    ImportError
        numba is not installed.
    """
    import numba

    compile_one = numba.njit(cache=True, nogil=True)
    namespace = dict(globals())
    for name in _KERNEL_FUNCTIONS:
        source = globals()[name]
        namespace[name] = compile_one(types.FunctionType(source.__code__, namespace, name, source.__defaults__))
    return namespace["mmp_steps"]
