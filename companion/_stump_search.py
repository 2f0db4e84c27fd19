"""The search engine of the stump learners (:mod:`companion.stumps`): the greedy step's scores
over every (attribute, threshold, direction) candidate at once, and the sorted columns they scan.

Paper 05 (Section VI): every attribute is sorted once per fit; one greedy step scores every
candidate with cumulative counts (weights) along the sorted order of the remaining examples, with
no Python loop over examples or attributes. SC's removed examples get weight 0 in place, so
nothing is re-sorted or compacted (:func:`sc_scan`). The SC sort depends on ``X`` only, so refits
on the same rows may share it through an explicit :class:`SortCache` (``fit(sort_cache=...)``).

:func:`greedy_step_scores` and :func:`pac_bayes_step_scores` are the utilities of one step
(``U = |Q| - p|R|`` and the PAC-Bayes soft utility), kept as plain functions for the tests'
naive references.
"""

from __future__ import annotations

import threading

import numpy as np

__all__ = [
    "PYSCM_TOL",
    "SORT_CACHE_BYTES",
    "ScanState",
    "SortCache",
    "SortedColumns",
    "greedy_step_scores",
    "nan_off",
    "pac_bayes_step_scores",
    "pick_candidate",
    "sc_scan",
    "sorted_order_and_run_ends",
]

PYSCM_TOL = 1e-7  # pyscm-ml's double comparison tolerance (cpp_extensions/double_utils.h)


def greedy_step_scores(values, labels, p, *, tie_tolerance=0.0, sample_weight=None):
    """Cover counts of every SC candidate of one greedy step, from presorted remaining examples.

    Parameters
    ----------
    values : ndarray of shape (n_features, m_remaining)
        Each row: one attribute's values over the remaining examples, sorted ascending.
    labels : ndarray of shape (n_features, m_remaining)
        The 0/1 labels in the same (per-row) order.
    p : float
        Penalty per misclassified positive.
    tie_tolerance : float, default=0.0
        Consecutive sorted values closer than this are one run (pyscm-ml uses 1e-7).
    sample_weight : ndarray of shape (n_features, m_remaining), optional
        Weight of each example in the same (per-row) order; ``q`` and ``r`` are then weighted
        counts (default: every weight 1).

    Returns
    -------
    q, r : ndarray of shape (n_features, m_remaining, 2)
        Negatives covered and positives misclassified by the stump ``x > v_j`` (last axis 0, it
        classifies 0 every remaining example with ``x ≤ v_j``) and ``x ≤ v_j`` (last axis 1).
    utility : ndarray of shape (n_features, m_remaining, 2)
        ``|Q| − p|R|``; ``-inf`` where ``v_j`` is not the last value of its run of equal values.
    """
    if sample_weight is None:
        negatives = np.cumsum(1 - labels, axis=1)
        positives = np.cumsum(labels, axis=1)
    else:
        negatives = np.cumsum(np.where(labels == 0, sample_weight, 0.0), axis=1)
        positives = np.cumsum(np.where(labels == 0, 0.0, sample_weight), axis=1)
    n_neg = negatives[:, -1:]
    n_pos = positives[:, -1:]
    q = np.stack([negatives, n_neg - negatives], axis=-1)
    r = np.stack([positives, n_pos - positives], axis=-1)
    run_end = np.ones(values.shape, dtype=bool)
    run_end[:, :-1] = (values[:, 1:] - values[:, :-1]) > tie_tolerance
    utility = q - p * r
    utility = np.where(run_end[..., None], utility, -np.inf)
    return q, r, utility


def pac_bayes_step_scores(values, neg_weights, pos_weights, spans, p, eta, gaps, *, gap_unit="example"):
    """Expected cover of every PAC-Bayes candidate ``(attribute, [a, b], direction)`` of one step.

    Parameters
    ----------
    values : ndarray of shape (n_features, m)
        Each attribute's training values, sorted ascending.
    neg_weights, pos_weights : ndarray of shape (n_features, m)
        ``w(x)`` of the negative (resp. positive) examples in that order, 0 for the other class.
    spans : ndarray of shape (n_features,)
        ``B − A`` per attribute.
    p, eta : float
        Utility parameters.
    gaps : sequence of int
        Candidate intervals are ``[v_j, v_{j+g}]`` for each ``g``.
    gap_unit : {"example", "value"}, default="example"
        ``"example"``: ``g`` sorted positions (examples) apart, block ``i`` holding ``m − g``
        candidates; ``"value"``: ``a`` is the last example of a run of equal values and ``b``
        the value ``g`` distinct values further, block ``i`` holding ``m`` candidates (the
        others ``-inf``), so that a repeated example moves no interval.

    Returns
    -------
    q, r : ndarray of shape (n_features, n_candidates, 2)
        Expected negative / positive weight sent to 0 by ``x > t`` (last axis 0) and ``x ≤ t``
        (last axis 1), ``t ~ U[a, b]``.
    utility : ndarray of the same shape
        ``q − p r − η ln((B − A)/(b − a))``; ``-inf`` for empty intervals.
    starts : ndarray of int
        Column where each gap's block of candidates begins (block ``i`` has ``m − gaps[i]``).
    """
    n, m = values.shape
    zeros = np.zeros((n, 1))
    # Exclusive prefix sums: C[:, j] = sum over the first j sorted entries.
    cn = np.concatenate([zeros, np.cumsum(neg_weights, axis=1)], axis=1)
    cnx = np.concatenate([zeros, np.cumsum(neg_weights * values, axis=1)], axis=1)
    cp = np.concatenate([zeros, np.cumsum(pos_weights, axis=1)], axis=1)
    cpx = np.concatenate([zeros, np.cumsum(pos_weights * values, axis=1)], axis=1)
    blocks_q, blocks_r, blocks_u, starts = [], [], [], []
    offset = 0
    if gap_unit == "value":
        new_run = values[:, 1:] != values[:, :-1]
        run_end = np.ones((n, m), dtype=bool)
        run_end[:, :-1] = new_run
        run_id = np.zeros((n, m), dtype=np.int64)
        np.cumsum(new_run, axis=1, out=run_id[:, 1:])
        # first_position[k, r]: sorted position where run r of attribute k starts (m: none)
        first_position = np.full((n, m + 1), m, dtype=np.int64)
        starts_run = np.ones((n, m), dtype=bool)
        starts_run[:, 1:] = new_run
        rows, cols = np.nonzero(starts_run)
        first_position[rows, run_id[rows, cols]] = cols
    for g in gaps:  # a handful of interval widths; vectorised over attributes and positions
        if gap_unit == "value":
            hi = np.take_along_axis(first_position, np.minimum(run_id + g, m), axis=1)
            usable = run_end & (hi < m)
            hi = np.where(usable, hi, m - 1)
            a = values
            b = np.take_along_axis(values, hi, axis=1)
            width = np.where(usable, b - a, 0.0)
            lo = slice(1, m + 1)  # prefix up to and including position j, for every j
            hi = hi + (np.arange(n) * (m + 1))[:, None]  # flat index into a C-ordered (n, m + 1) prefix

            def prefix(c, index):
                return c[:, index] if isinstance(index, slice) else c.ravel()[index]
        else:
            a = values[:, : m - g]
            b = values[:, g:]
            width = b - a
            lo = slice(1, m - g + 1)  # prefix up to and including position j
            hi = slice(g, m)  # prefix up to position j + g, exclusive

            def prefix(c, index):
                return c[:, index]
        valid = width > 0
        safe = np.where(valid, width, 1.0)
        # x > t with t ~ U[a, b] sends to 0 every x <= a and (b - x)/(b - a) of those inside.
        cn_lo, cn_hi, cp_lo, cp_hi = prefix(cn, lo), prefix(cn, hi), prefix(cp, lo), prefix(cp, hi)
        removed_neg = cn_lo + (b * (cn_hi - cn_lo) - (prefix(cnx, hi) - prefix(cnx, lo))) / safe
        removed_pos = cp_lo + (b * (cp_hi - cp_lo) - (prefix(cpx, hi) - prefix(cpx, lo))) / safe
        q = np.stack([removed_neg, cn[:, -1:] - removed_neg], axis=-1)
        r = np.stack([removed_pos, cp[:, -1:] - removed_pos], axis=-1)
        with np.errstate(divide="ignore"):
            margin_cost = np.log(np.where(valid, spans[:, None] / safe, np.inf))
        u = np.where(valid[..., None], q - p * r - eta * margin_cost[..., None], -np.inf)
        blocks_q.append(q)
        blocks_r.append(r)
        blocks_u.append(u)
        starts.append(offset)
        offset += b.shape[1]
    return (
        np.concatenate(blocks_q, axis=1),
        np.concatenate(blocks_r, axis=1),
        np.concatenate(blocks_u, axis=1),
        np.asarray(starts),
    )


def _sc_step_choice(sorted_labels, run_ids, p, excluded, tie_breaking, block_size=None):
    """Best SC candidate ``(feature, position, kind)`` of one greedy step, or None.

    Same result as :func:`greedy_step_scores` + :func:`pick_candidate` (checked in the tests). A thin
    adapter, for all examples in play, onto :func:`sc_scan` (which the fit uses directly).

    Parameters
    ----------
    sorted_labels : ndarray of int, shape (n_features, m_remaining)
        0/1 labels of the remaining examples in each attribute's sorted order.
    run_ids : ndarray of int, same shape
        Equal ids mark equal values (a threshold sits at the last example of each run).
    p : float
    excluded : ndarray of bool of shape (n_features,) or None
        Attributes that may not be chosen.
    tie_breaking : {"pyscm", "index"}
    block_size : int or None
        Approximate number of cells scanned per chunk (None: cache-sized).
    """
    n, m = sorted_labels.shape
    positive = sorted_labels.T != 0
    run_end = np.ones((m, n), dtype=bool)
    run_end[:-1] = run_ids.T[1:] != run_ids.T[:-1]
    # Every (position, attribute) cell is its own "example" here: order is the identity.
    state = ScanState(
        float_weights=np.where(positive, -np.float32(p), np.float32(1.0)),
        offsets=nan_off(run_end),
        run_end=run_end,
        order=np.arange(m * n).reshape(m, n),
        alive=np.ones(m * n, dtype=bool),
        positive=positive.ravel(),
        weight=np.ones(m * n),
    )
    n_pos = int(np.count_nonzero(sorted_labels[0])) if n else 0
    chunk_rows = None if block_size is None else max(1, int(block_size) // max(n, 1))
    return sc_scan(state, m - n_pos, n_pos, p, excluded, tie_breaking, chunk_rows=chunk_rows)


class ScanState:
    """Per-fit arrays of the SC scan, all of shape (m, n_features), column ``k`` in the sorted
    order of attribute ``k`` (sorted once per fit; removed examples are zeroed, never deleted).

    ``float_weights``: ``1`` for a negative in play, ``−p`` for a positive in play, ``0`` once
    removed. ``offsets``: ``0`` where a threshold may sit, NaN elsewhere: inside a run of equal
    values (``run_end`` False) and before the first example in play of the column. ``order``:
    the example at each cell; ``alive``, ``positive`` and ``weight`` (per example, float64) give
    the exact (weighted) counts.
    """

    def __init__(self, float_weights, offsets, run_end, order, alive, positive, weight):
        self.weight = weight
        self.float_weights = float_weights
        self.offsets = offsets
        self.run_end = run_end
        self.order = order
        self.alive = alive
        self.positive = positive


def sc_scan(state, n_neg, n_pos, p, excluded, tie_breaking, chunk_rows=None):
    """Best SC candidate of one greedy step over every attribute, or None.

    Parameters
    ----------
    state : ScanState
    n_neg, n_pos : float
        Weight of the negatives and positives still in play.
    p : float
    excluded : ndarray of bool of shape (n_features,) or None
    tie_breaking : {"pyscm", "index"}
    chunk_rows : int or None
        Sorted positions per chunk (None: about 256 KiB of float32).

    Returns
    -------
    (feature, position, kind) or None
        ``position`` indexes the full sorted order; it is the end of a run that holds an example
        in play. ``kind`` 0 is ``x > v``, 1 is ``x <= v``.

    Notes
    -----
    A threshold is the value of an example in play, i.e. the end of a run holding one; the
    cumulative weight there counts exactly the examples in play up to it. A run of removed
    examples only repeats the counts of the run before it (same utility, same ``|Q| − |R|``, later
    position, so never chosen), except before the first example in play: those are masked.

    The scan runs in float32 over cache-sized chunks of sorted positions: the cumulative sum is
    one vector addition per position (numpy's cumsum along an axis is ~10x slower), the NaN
    offsets mask non-thresholds, and NaN-ignoring ``fmax``/``fmin`` keep per-attribute extremes.
    The attributes within a safe margin of the best are then re-scored exactly in float64 from
    the integer counts, with pyscm-ml's arithmetic and tolerance.
    """
    run_end = state.run_end
    m, n = state.float_weights.shape
    if chunk_rows is None:
        chunk_rows = max(1, 2**16 // max(n, 1))
    col_max = np.full(n, -np.inf, dtype=np.float32)  # best |Q| - p|R| of x > v per attribute
    col_min = np.full(n, np.inf, dtype=np.float32)  # x <= v scores the row constant minus this
    buffer = np.empty((min(chunk_rows, m), n), dtype=np.float32)  # one chunk's sums, then scores
    previous = np.zeros(n, dtype=np.float32)
    for start in range(0, m, chunk_rows):
        stop = min(m, start + chunk_rows)
        cum = buffer[: stop - start]
        cum[...] = state.float_weights[start:stop]
        cum[0] += previous
        _accumulate_rows(cum)
        previous = cum[-1].copy()  # the running sum, before the offsets go in
        raw = np.add(cum, state.offsets[start:stop], out=cum)  # in the cached buffer
        np.fmax(col_max, np.fmax.reduce(raw, axis=0), out=col_max)
        np.fmin(col_min, np.fmin.reduce(raw, axis=0), out=col_min)
    if excluded is not None:
        col_max[excluded] = -np.inf
        col_min[excluded] = np.inf
    row_constant = n_neg - p * n_pos  # |N'| - p|P'|
    col_best = np.maximum(col_max.astype(float), row_constant - col_min.astype(float))
    best_approx = col_best.max() if n else -np.inf
    if not np.isfinite(best_approx):
        return None
    tol = PYSCM_TOL if tie_breaking == "pyscm" else 0.0
    # float32: p's rounding and each of the m additions err by at most 2^-24 (1 + p) m.
    # With weights, every partial sum is bounded by the total weight in play instead of m.
    margin = (1.0 + p) * max(n_neg + n_pos, m) * (1e-4 + (m + 1) * 2.0**-22) + tol
    columns = np.flatnonzero(col_best >= best_approx - margin)
    per_chunk = max(1, 2**18 // max(m, 1))
    chunks = [columns[i : i + per_chunk] for i in range(0, columns.size, per_chunk)]

    # Per example: its weight as a positive and as a negative in play (0 otherwise).
    pos_weight = np.where(state.alive & state.positive, state.weight, 0.0)
    neg_weight = np.where(state.alive & ~state.positive, state.weight, 0.0)

    def exact(cols):
        # Exact float64 re-scoring, as pyscm-ml computes it: N - p * P_bar, on the examples in
        # play only: entry (j, c) is column cols[c]'s j-th example in play, at flat index
        # cells[j, c] of the (len(cols), m) arrays below (c * m + its sorted position). It is a
        # threshold when a run ends before the next example in play (it is the last in play of
        # its run); the other run ends of the full order repeat the counts of the one before
        # them at a later position, so they never win a tie (first_flat maps the winner back to
        # its position). Per kind (0: x > v, q = neg, r = pos; 1: x <= v, the complements),
        # arrays of shape (n_in_play, len(cols)): late in the greedy, when few examples remain,
        # many columns tie and this is most of a scan.
        c = len(cols)
        ordered = np.ascontiguousarray(state.order[:, cols].T)  # (c, m): numpy's gather is this layout
        in_play = state.alive[ordered]
        # Every column orders the same examples, so each holds as many in play (>= 1: the greedy
        # scans while negatives remain).
        n_in_play = int(np.count_nonzero(in_play[0]))
        cells = np.ascontiguousarray(np.flatnonzero(in_play).reshape(c, n_in_play).T)
        examples = ordered.reshape(-1)[cells]
        pos = _accumulate_rows(pos_weight[examples])
        neg = _accumulate_rows(neg_weight[examples])
        # Run ends before each cell, counted over the flattened columns: two examples in play
        # of a column are in one run iff no run end lies between them.
        ends = np.ascontiguousarray(run_end[:, cols].T).reshape(-1)
        before = np.cumsum(ends, dtype=np.int32)
        before -= ends
        run = before[cells]
        threshold_here = np.ones((n_in_play, c), dtype=bool)
        np.not_equal(run[1:], run[:-1], out=threshold_here[:-1])  # the last in play always is
        q = (neg, n_neg - neg)
        r = (pos, n_pos - pos)
        utility = tuple(np.where(threshold_here, q[kind] - p * r[kind], -np.inf) for kind in (0, 1))
        return q, r, utility, cells

    def first_flat(cols, cells, mask):
        # Smallest flat index (feature, position, kind in C order) among the cells of mask[kind];
        # an entry's position is the first run end at or after its example (as the full scan's).
        firsts = []
        for kind in (0, 1):
            hits = np.flatnonzero(mask[kind].T)  # (column, entry) order: cols ascend, entries map in order
            if hits.size:
                column, entry = divmod(int(hits[0]), cells.shape[0])
                start = int(cells[entry, column]) - column * m
                position = start + int(np.argmax(run_end[start:, cols[column]]))
                firsts.append((int(cols[column]) * m + position) * 2 + kind)
        return min(firsts) if firsts else None

    scored = [exact(chunks[0])] if len(chunks) == 1 else None
    best = max(max(float(u.max()) for u in (scored[0] if scored else exact(cols))[2]) for cols in chunks)
    chosen, top = None, -np.inf
    for cols in chunks:
        q, r, utility, cells = scored[0] if scored else exact(cols)
        if tie_breaking == "index":
            chosen = first_flat(cols, cells, [u == best for u in utility])
            if chosen is not None:
                break
            continue
        tied = [u >= best - tol for u in utility]
        if not (tied[0].any() or tied[1].any()):
            continue
        decrease = [np.where(tied[kind], q[kind] - r[kind], -np.inf) for kind in (0, 1)]
        local_top = max(decrease[0].max(), decrease[1].max())
        if local_top > top:  # chunks are in attribute order: an equal later top never wins
            top = local_top
            chosen = first_flat(cols, cells, [d == local_top for d in decrease])
    feature, rest = divmod(chosen, 2 * m)
    position, kind = divmod(rest, 2)
    return feature, position, kind


def _accumulate_rows(a):
    """``np.cumsum(a, axis=0)`` in place, one vector addition per row: the same sums in the same
    order, about 3x faster than numpy's accumulation along an axis on short columns."""
    for j in range(1, a.shape[0]):
        np.add(a[j], a[j - 1], out=a[j])
    return a


def nan_off(mask):
    """float32 array: 0 where ``mask``, NaN elsewhere (0/1 = 0, 0/0 = NaN: ~4x faster than where)."""
    with np.errstate(invalid="ignore"):
        return np.divide(np.float32(0.0), mask, dtype=np.float32)


def _ranks(order):
    """``rank[i, k]``: sorted position of example ``i`` in column ``k`` (inverse of ``order``).

    Scattered by blocks of 256 columns, so that each block's writes stay in cache.
    """
    m, n = order.shape
    rank = np.empty((m, n), dtype=np.int32)
    positions = np.arange(m, dtype=np.int32)[:, None]
    for start in range(0, n, 256):
        block = rank[:, start : start + 256]
        block[order[:, start : start + 256], np.arange(block.shape[1])] = positions
    return rank


def sorted_order_and_run_ends(X, tol, low=None, high=None):
    """Each column's sort order, as an (m, n) C-contiguous array, and where its runs of equal values end.

    ``order[:, k]`` lists the examples by increasing ``x_k`` (ties in any order: a threshold sits
    at the end of a run); ``run_end[j, k]`` says the value at sorted position ``j`` is more than
    ``tol`` below the next one (always true at the last position). ``low``/``high``: the smallest
    and largest value of ``X``, if known. Also returns the columns holding distinct values less
    than ``tol`` apart ("near ties"), whose runs depend on which examples remain.

    Integer-valued data spanning fewer than ``2^(32 - b)`` values, ``b`` the bits of an example
    index (``2^26`` at m = 64: expression counts such as Affymetrix levels) take a fast path:
    value and example index packed in one uint32, one (SIMD) ``sort`` gives both the order and the
    sorted values (ties in index order, as every path here). Up to 2^16 examples, other values pack the top 48 bits of an
    order-preserving 64-bit key of the value with the example index (whole numbers below 2^36
    lose nothing; other values are checked and the rare misordered columns argsorted again).
    Otherwise ``argsort`` plus a ``sort`` of the values (cheaper than gathering them through
    ``order``).
    """
    m, n = X.shape
    if X.size and (low is None or high is None):
        low, high = X.min(), X.max()
    bits = max(1, (m - 1).bit_length())  # of an example index (m <= 2^16: at most 16)
    span = 2 ** (32 - bits)  # values below it fit in the uint32 key beside the index
    unshifted = bool(X.size) and 0 <= low and high < span
    whole = False  # X checked whole by _is_whole
    if (m <= 2**16 and X.size and high - low < span
            # The uint32 test below, on the first row first: fractional data fails it there,
            # before two whole-array copies and a comparison (a third of a colon fit's sort).
            and _fits_uint32(X[0] if unshifted else X[0] - low)
            # (Beyond 2^16 only whole numbers, whose differences are exact: a fractional X - low
            # could round to a whole number and merge distinct values.)
            and (high - low < 2**16 or (whole := _is_whole(X)))):
        if whole:
            # Whole numbers spanning less than 2^32: X - low is exact and lies in [0, span), so
            # its uint32 conversion is exact too; subtract straight into the keys (no float64
            # temporary, no comparison pass).
            keys = np.empty(X.shape, dtype=np.uint32)
            np.subtract(X, low, out=keys, casting="unsafe")
            shifted = None
        else:
            shifted = X if unshifted else X - low  # memory traffic dominates: no copy
            keys = shifted.astype(np.uint32)
        if whole or np.array_equal(keys, shifted):
            keys <<= bits
            keys |= np.arange(m, dtype=np.uint32)[:, None]
            keys.sort(axis=0)
            order = np.bitwise_and(keys, (1 << bits) - 1, dtype=np.intp)
            run_end = np.ones((m, n), dtype=bool)
            if tol < 1:  # integer values: a gap exceeds tol iff they differ, i.e. in the value bits
                np.greater_equal(keys[1:] ^ keys[:-1], np.uint32(2**bits), out=run_end[:-1])
                return order, run_end, np.empty(0, dtype=np.intp)
            keys >>= bits  # ... iff it exceeds floor(tol)
            gaps = keys[1:] - keys[:-1]
            np.greater(gaps, np.uint32(min(np.floor(tol), span)), out=run_end[:-1])
            return order, run_end, np.flatnonzero(((gaps > 0) & ~run_end[:-1]).any(axis=0))
    if m <= 2**16 and X.size and tol < 1 and max(-low, high) < 2**36 and _is_whole(X):
        # Whole numbers of any range below 2^36: the IEEE bits of a whole number below 2^36 fit
        # in its top 48 bits, so the order-preserving 64-bit key of the value keeps them all
        # and the low 16 bits carry the example (one uint64 sort). Distinct whole numbers are
        # at least 1 > tol apart: a run ends where the value bits change.
        keys = X + 0.0  # a new buffer, and -0.0 becomes +0.0 (equal values, equal keys)
        bits = keys.view(np.int64)
        if low < 0:
            bits ^= (bits >> 63) & np.int64(2**63 - 1)  # negatives: magnitude bits reversed
        keys = bits.view(np.uint64)
        keys ^= np.uint64(2**63)  # sign bit flipped: unsigned order is the values' order
        keys &= np.uint64(2**64 - 2**16)  # the value's low 16 bits are 0 (1 once reversed): clear
        keys |= np.arange(m, dtype=np.uint64)[:, None]
        keys.sort(axis=0)
        order = np.bitwise_and(keys.view(np.int64), 0xFFFF).view(np.intp)
        run_end = np.ones((m, n), dtype=bool)
        np.greater_equal(keys[1:] ^ keys[:-1], np.uint64(2**16), out=run_end[:-1])
        return order, run_end, np.empty(0, dtype=np.intp)
    if m <= 2**16 and X.size:
        # Any finite values: the same 64-bit key with the value's low 16 bits dropped; values
        # that agree on the rest (within ~2^-36 relative) may come out of order, so the columns
        # whose sorted values do not ascend are argsorted again (rare).
        keys = X + 0.0
        bits = keys.view(np.int64)
        if low < 0:
            bits ^= (bits >> 63) & np.int64(2**63 - 1)
        keys = bits.view(np.uint64)
        keys ^= np.uint64(2**63)
        keys &= np.uint64(2**64 - 2**16)
        keys |= np.arange(m, dtype=np.uint64)[:, None]
        keys.sort(axis=0)
        order = np.bitwise_and(keys.view(np.int64), 0xFFFF).view(np.intp)
        del keys, bits
        if X.flags.c_contiguous:  # a flat gather: cheaper than take_along_axis's index tuple
            values = X.reshape(-1)[order * n + np.arange(n)]
        else:
            values = np.take_along_axis(X, order, axis=0)
        gaps = np.diff(values, axis=0)
        unordered = np.flatnonzero((gaps < 0).any(axis=0)) if (gaps < 0).any() else np.empty(0, dtype=np.intp)
        if unordered.size:
            order[:, unordered] = np.argsort(X[:, unordered], axis=0, kind="stable")
            gaps[:, unordered] = np.diff(np.take_along_axis(X[:, unordered], order[:, unordered], axis=0), axis=0)
        run_end = np.ones((m, n), dtype=bool)
        np.greater(gaps, tol, out=run_end[:-1])
        return order, run_end, np.flatnonzero(((gaps > 0) & ~run_end[:-1]).any(axis=0))
    if m < 200:  # short columns: sorting the rows of the transpose is ~2x faster
        values_t = np.array(X.T, order="C", copy=True)  # a copy even when X.T is contiguous
        order_t = np.argsort(values_t, axis=1)
        values_t.sort(axis=1)  # our own copy: sorted in place
        run_end_t = np.ones((n, m), dtype=bool)
        gaps = np.diff(values_t, axis=1)
        np.greater(gaps, tol, out=run_end_t[:, :-1])
        near = np.flatnonzero(((gaps > 0) & ~run_end_t[:, :-1]).any(axis=1))
        return np.ascontiguousarray(order_t.T), np.ascontiguousarray(run_end_t.T), near
    order = np.argsort(X, axis=0)
    run_end = np.ones((m, n), dtype=bool)
    gaps = np.diff(np.sort(X, axis=0), axis=0)
    np.greater(gaps, tol, out=run_end[:-1])
    return order, run_end, np.flatnonzero(((gaps > 0) & ~run_end[:-1]).any(axis=0))


def _fits_uint32(values):
    """Whether ``values`` (floats) are equal to their uint32 conversion: whole and in ``[0, 2^32)``."""
    return np.array_equal(values.astype(np.uint32), values)


def _is_whole(X):
    """Whether every entry of the float array ``X`` is a whole number (one pass, by row blocks)."""
    step = max(1, 2**15 // max(X.shape[1], 1))
    buffer = np.empty((min(step, X.shape[0]), X.shape[1]))
    for start in range(0, X.shape[0], step):
        block = X[start : start + step]
        rounded = np.round(block, out=buffer[: block.shape[0]])
        if not np.array_equal(rounded, block):
            return False
    return True


#: Budget of a sorted-order cache (bytes of the arrays it keeps, see :class:`SortCache`).
SORT_CACHE_BYTES = 64 * 2**20


class SortedColumns:
    """``order``, ``run_end``, ``near_ties`` of :func:`sorted_order_and_run_ends` (read-only), and
    the ranks (:func:`_ranks`, built on first use and kept)."""

    def __init__(self, order, run_end, near_ties):
        for array in (order, run_end, near_ties):
            array.flags.writeable = False
        self.order, self.run_end, self.near_ties = order, run_end, near_ties
        self._rank = None

    @property
    def has_ranks(self):
        """Whether :meth:`ranks` has been built (a shared cache may hold them already)."""
        return self._rank is not None

    def ranks(self):
        if self._rank is None:
            rank = _ranks(self.order)
            rank.flags.writeable = False
            self._rank = rank
        return self._rank


class SortCache:
    """The last few sorted orders of SC fits, by content of ``X``: an explicit, caller-owned cache.

    Cross-validation and grid searches fit the same training rows again and again (every
    ``(p, s)`` of a grid on the same fold); the sort of every attribute (and the ranks) does not
    depend on the parameters, so with a cache it is computed once per distinct ``X`` (and tie
    tolerance). There is no module-level cache: a fit sorts afresh unless the caller passes one,
    ``SetCoveringStumps().fit(X, y, sort_cache=cache)`` (:func:`fit_by_bound` makes one for its
    grid), so no fit's time or memory depends on an earlier fit it did not share a cache with. An
    entry is reused only when its own copy of ``X`` equals the new input exactly; its arrays are
    read-only (a caller that changes ``run_end`` copies it). Least recently used first out,
    within ``max_bytes`` in all (0 disables it); inputs above a quarter of it are not cached.

    Parameters
    ----------
    max_bytes : int, default=:data:`SORT_CACHE_BYTES`
        Budget of the arrays kept (0: nothing is kept, every fit sorts afresh).
    """

    def __init__(self, max_bytes=SORT_CACHE_BYTES):
        self.max_bytes = int(max_bytes)
        self._entries = []  # most recent last: (X copy, tol, SortedColumns, nbytes)
        self.hits = 0  # how many fits reused a stored order
        self._lock = threading.Lock()

    def get(self, X, tol, low, high):
        """The sorted order of ``X`` under tie tolerance ``tol``: stored, or computed and stored.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
        tol : float
            Tie tolerance of the runs.
        low, high : float
            The range of ``X`` (the key width of the sort).

        Returns
        -------
        object
            The order, the run ends and the near-tie columns of ``X`` (read-only).
        """
        budget = self.max_bytes
        size = X.size * (X.itemsize + np.dtype(np.intp).itemsize + 1 + 4)  # X, order, run_end, ranks
        if size == 0 or 4 * size > budget:
            return SortedColumns(*sorted_order_and_run_ends(X, tol, low, high))
        with self._lock:
            for index, entry in enumerate(self._entries):
                kept = entry[0]
                if entry[1] == tol and kept.shape == X.shape and np.array_equal(kept[0], X[0]) and np.array_equal(kept, X):
                    self._entries.append(self._entries.pop(index))
                    self.hits += 1
                    return entry[2]
        columns = SortedColumns(*sorted_order_and_run_ends(X, tol, low, high))
        copy = np.array(X, order="C", copy=True)
        copy.flags.writeable = False
        with self._lock:
            self._entries.append((copy, tol, columns, size))
            while sum(entry[3] for entry in self._entries) > budget:
                self._entries.pop(0)
        return columns

    def clear(self):
        """Forget every stored order."""
        with self._lock:
            self._entries.clear()


def pick_candidate(utility, q, r, tie_breaking):
    """Flat index of the chosen candidate (C order = feature, position, kind, as pyscm-ml scans)."""
    flat_u = utility.reshape(-1)
    best = flat_u.max()
    if not np.isfinite(best):
        return None
    if tie_breaking == "index":
        return int(np.argmax(flat_u))
    tied = flat_u >= best - PYSCM_TOL
    decrease = np.where(tied, (q - r).reshape(-1), -np.inf)
    return int(np.argmax(decrease))
