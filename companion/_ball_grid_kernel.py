"""The pass over one greedy state behind :class:`companion._ball_grid._GridState`, for numba.

Sokolova, Marchand, Japkowicz and Shawe-Taylor, *The Decision List Machine*, NIPS 15 (2002):
notebook 01's grid search visits thousands of greedy states ``S'`` of BuildDLM (Figure 1) per
training fold, and each one is a pass over ``|S'|^2`` entries of the sorted distance rows
(Section 3's data-dependent balls). Written with numpy, that pass is a dozen array operations
(gathers, masks, ``flatnonzero``, column extrema), each reading or writing the whole state;
:func:`grid_state` is one loop that reads each entry once and keeps the row it works on in the
cache. It is plain Python over numpy arrays, written for numba's ``njit``:
:func:`companion._ball_grid.compiled_grid_state` compiles it, once per search (numba is imported
there, an extra of the notebooks), about six times faster than the numpy version. Everything
in it is integer counting and comparisons of distances copied bit for bit, so the result is
exact: the same on every CPU, whatever its SIMD level, and the same as the interpreted function
(tested, with every candidate's counts of :func:`companion._ball_search.score_state` as the
reference, in ``tests/test_ball_grid.py``).
"""

from __future__ import annotations

import numpy as np

__all__ = ["grid_state"]


def grid_state(parent_rows, parent_order, parent_tie_index, parent_tie_sorted, alive, y01):
    """One greedy state: the parent's rows restricted to ``alive``, and its classes of balls.

    A candidate border is the ``t``-th remaining example of its label along a centre's row, at
    position ``p``, in a group of equal distances from ``start`` to ``end`` (both ``p`` when no
    other distance equals its). A ball that fires inside (centre of the other label: Pi, Ni)
    makes ``e = t`` errors and covers ``start - t`` examples if the border is its label's first
    in the group (an earlier border gives the same ball otherwise); one that fires outside
    (centre of the same label: Po, No) makes ``e = count - 1 - t`` errors and covers
    ``other - (end - t)`` if the border is its label's last in the group.

    Parameters
    ----------
    parent_rows : ndarray of int64, shape (n_p,)
        The parent's centres, the positive ones first (each label by increasing index).
    parent_order : ndarray of int, shape (n_p, n_p)
        Each parent row's examples by increasing distance.
    parent_tie_index : ndarray of int64, shape (n_p,)
        Per parent row, its row in ``parent_tie_sorted`` (-1: no equal distances in it).
    parent_tie_sorted : ndarray of float64, shape (n_tie, n_p)
        The sorted distances of the rows with equal distances.
    alive : ndarray of bool, shape (m,)
        The remaining examples ``S'`` (a subset of the parent's).
    y01 : ndarray of bool, shape (m,)
        True for the positive examples.

    Returns
    -------
    rows : ndarray of int64, shape (n,)
        The remaining centres, in the parent's order (the first ``n_pos`` positive).
    order : ndarray of int32, shape (n, n)
        Each row's remaining examples by increasing distance (the parent's order).
    n_pos : int
        Positive remaining examples.
    tie_index, tie_sorted : ndarray
        As the parent's, for the rows that still hold equal distances.
    best, best_row, best_at : ndarray of int64, shape (4, max(n_pos, n - n_pos))
        Per ball type (Pi, Po, Ni, No: the order of
        :data:`companion._ball_search.BALL_TYPES`) and number of errors ``e``: the largest
        covered count of such a ball (0: none), the first row (by centre index) holding one,
        and the position of its border along that row (for an outside ball, the first border
        of its label in the group of equal distances: the first in candidate order of the
        borders giving that ball).
    """
    n_p = parent_rows.shape[0]
    n = 0
    n_pos = 0
    n_tie = 0
    for k in range(n_p):
        c = parent_rows[k]
        if alive[c]:
            n += 1
            if y01[c]:
                n_pos += 1
            if parent_tie_index[k] >= 0:
                n_tie += 1
    n_neg = n - n_pos
    width = max(n_pos, n_neg)
    rows = np.empty(n, np.int64)
    # one spare entry: the branch-free compaction writes every entry, then moves on if it remains
    flat = np.empty(n * n + 1, np.int32)
    tie_index = np.full(n, -1, np.int64)
    tie_sorted = np.empty((n_tie, n + 1), np.float64)
    best = np.zeros((4, width), np.int64)
    best_row = np.zeros((4, width), np.int64)
    best_at = np.zeros((4, width), np.int64)
    positions = np.empty(n, np.int64)  # this row's negatives' positions, then its positives'
    starts = np.empty(n, np.int64)
    ends = np.empty(n, np.int64)
    kk = 0
    tk = 0
    for k in range(n_p):
        c = parent_rows[k]
        if not alive[c]:
            continue
        rows[kk] = c
        base = kk * n
        ti = parent_tie_index[k]
        j = 0
        if ti < 0:
            for q in range(n_p):
                x = parent_order[k, q]
                flat[base + j] = x
                j += alive[x]
        else:
            for q in range(n_p):
                x = parent_order[k, q]
                flat[base + j] = x
                tie_sorted[tk, j] = parent_tie_sorted[ti, q]
                j += alive[x]
        t_neg = 0
        t_pos = 0
        for j in range(n):  # branch-free: a label is as likely as the other
            label = np.int64(y01[flat[base + j]])
            positions[t_neg + label * (n_neg + t_pos - t_neg)] = j
            t_pos += label
            t_neg += 1 - label
        grouped = False
        if ti >= 0:  # groups of equal distances; a row whose ties all left S' is plain from now on
            for j in range(n):
                if j > 0 and tie_sorted[tk, j] == tie_sorted[tk, j - 1]:
                    starts[j] = starts[j - 1]
                    grouped = True
                else:
                    starts[j] = j
            if grouped:
                for j in range(n - 1, -1, -1):
                    if j < n - 1 and tie_sorted[tk, j] == tie_sorted[tk, j + 1]:
                        ends[j] = ends[j + 1]
                    else:
                        ends[j] = j
                tie_index[kk] = tk
                tk += 1
        for border_positive in range(2):
            off, count, other = (n_neg, n_pos, n_neg) if border_positive else (0, n_neg, n_pos)
            inside = bool(y01[c]) != bool(border_positive)  # the centre's label differs from the border's
            kind = 2 * border_positive + (0 if inside else 1)  # Pi, Po, Ni, No
            for t in range(count):
                p = positions[off + t]
                start = p
                end = p
                if grouped:
                    start = starts[p]
                    end = ends[p]
                if inside:
                    v = start - t if t == 0 or positions[off + t - 1] < start else 0
                    e = t
                else:
                    v = other - (end - t) if t == count - 1 or positions[off + t + 1] > end else 0
                    e = count - 1 - t
                if v > best[kind, e]:  # strictly: the first row of the largest cover is kept
                    best[kind, e] = v
                    best_row[kind, e] = kk
                    q = t
                    if not inside:  # the first border of its label in the group
                        while q > 0 and positions[off + q - 1] >= start:
                            q -= 1
                    best_at[kind, e] = positions[off + q]
        kk += 1
    order = flat[: n * n].reshape(n, n)
    return rows, order, n_pos, tie_index, tie_sorted[:tk, :n], best, best_row, best_at
