"""The greedy search over data-dependent balls behind :mod:`companion.decision_list` (paper 01).

Sokolova, Marchand, Japkowicz and Shawe-Taylor, *The Decision List Machine*, NIPS 15 (2002),
Figure 1 (BuildDLM) over the balls of Section 3. Plumbing of the estimators: the public names
of this module are re-exported by :mod:`companion.decision_list`, their documented home.

Two layouts of a training set's distances serve :func:`greedy_ball_list`; both learn the same
list (same counts, same exact usefulness, same tie order):

* :class:`SortedDistances` keeps the m x m distances, their sorted copy and their order, and
  memoises scored greedy states, so that a grid of penalties on one training set (notebook 01)
  shares its first steps. 24 bytes per pair, 56 at the peak of a step.
* :class:`BlockedSortedDistances` keeps no m x m array. Per training set it holds, for every
  remaining centre, a histogram of the remaining examples' distances in ``n_buckets`` buckets
  per class (:class:`_BucketCounts`, O(m * n_buckets) integers), kept up to date as examples
  leave ``S'``. A greedy step reads from them an exact upper bound on the usefulness of every
  ball of a centre (:func:`_bucket_bounds`), then streams the distance rows of the centres
  whose bound can still reach the best ball found, a block of centres at a time, sorts them and
  scores them exactly (:func:`_score_rows`). Memory: O(m * (n_buckets + block)).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import numpy as np
from scipy.spatial.distance import cdist

from companion._progress import progress_lines
from companion.numerics import TIE_RTOL, stable_argsort_rows

__all__ = [
    "BALL_TYPES",
    "TYPE_INSIDE",
    "TYPE_OUTPUT",
    "METRIC_NAMES",
    "SortedDistances",
    "BlockedSortedDistances",
    "greedy_ball_list",
    "append_ball",
    "exact_penalty_integers",
    "score_state",
    "resolve_metric",
    "sorted_distances_within",
]

#: The four ball types of Section 3, in the tie-breaking order used by the greedy step.
BALL_TYPES = ("Pi", "Po", "Ni", "No")
_PI, _PO, _NI, _NO = range(4)
#: Per type code: fires strictly inside (True) or strictly outside (False) the radius.
TYPE_INSIDE = np.array([True, False, True, False])
#: Per type code: the output when the ball fires (1 = positive).
TYPE_OUTPUT = np.array([1, 1, 0, 0])

_METRIC_ALIASES = {
    "l2": "euclidean",
    "euclidean": "euclidean",
    "l1": "cityblock",
    "manhattan": "cityblock",
    "cityblock": "cityblock",
    "linf": "chebyshev",
    "chebyshev": "chebyshev",
}
# Usefulness is compared exactly, in integers (see _most_useful), a block of candidate rows at a
# time: about this many candidates per block keeps the temporaries small (a few MB, not m x m).
_USEFULNESS_BLOCK = 2**17
# BlockedSortedDistances streams this many (centre, example) pairs per block (about 4 MB per
# int32 temporary, some 150 MB for all of a block's): small enough that the allocator reuses the
# blocks' memory from one block to the next (fresh pages cost more than the arithmetic on them),
# large enough to amortise the calls. max_memory_gb can only shrink it.
_BLOCKED_CANDIDATES = 2**20
# Bytes per streamed pair at the peak of a block (float64 distances, their sort keys and order,
# the counts and the usefulness of every candidate): about 140, rounded up.
_BYTES_PER_STREAMED_PAIR = 160
# Buckets per class of each centre's distance histogram, at most: more buckets give tighter bounds
# (fewer centres streamed) and cost n_buckets * 8 bytes per centre and a pass over them per step.
_MAX_BUCKETS = 512
# Share of max_memory_gb the histograms may take (the rest: blocks, data, interpreter).
_BUCKET_SHARE = 0.25
# Peak bytes per squared example of a fit on the full SortedDistances (float64 distances, their
# sorted copy and intp order, 24 bytes, plus the scored state and its temporaries). Measured with
# tracemalloc (tests/test_decision_list.py): 59 to 72 bytes per pair unweighted at m = 200..2000
# (100 for a BallSetCoveringMachine at m = 200, where the fixed costs still weigh), 120 with
# sample_weight (the weighted counts are float64); 128 covers both.
_FULL_BYTES_PER_PAIR = 128
# Largest training set a fit without given sorted distances puts in the full layout: beyond it the
# blocked layout is faster for one fit, and far smaller. A grid that shares one SortedDistances
# across fits (notebook 01) keeps the full layout's memoised states whatever m.
_FULL_LAYOUT_MAX_M = 2000
# Interpreter, imports and data beside a fit's own arrays (measured: about 250 MB at m = 20000).
_BASE_BYTES = 400 * 2**20
# The O(m) vectors of a blocked fit beside its histograms and block (the data in canonical order,
# labels, orders, removal masks, the list): measured 750 to 800 bytes per example at m = 300..1200.
_BYTES_PER_ROW = 1024


_OTHER_METRICS = ("seuclidean", "sqeuclidean", "minkowski", "canberra", "braycurtis", "cosine", "correlation")
#: Every ``metric`` the ball machines accept.
METRIC_NAMES = tuple(_METRIC_ALIASES) + _OTHER_METRICS


def resolve_metric(metric) -> str:
    """Map ``metric`` (``"l1"``, ``"l2"``, ``"linf"`` or a SciPy ``cdist`` name) to a ``cdist`` name.


    Parameters
    ----------
    metric : str
        ``"l1"``, ``"l2"``, ``"linf"``, an alias (``"manhattan"``, ``"euclidean"``, ...) or one of
        :data:`METRIC_NAMES`.

    Returns
    -------
    str
        The SciPy ``cdist`` metric name.
    Raises
    ------
    ValueError
        If the metric is not a string naming one of the accepted metrics.
    """
    if not isinstance(metric, str):
        raise TypeError(f"metric must be a string such as 'l2', 'l1' or 'linf', got {metric!r}")
    key = metric.lower()
    if key in _METRIC_ALIASES:
        return _METRIC_ALIASES[key]
    if key in _OTHER_METRICS:
        return key
    raise ValueError(
        f"metric must be one of 'l1', 'l2', 'linf' (or a SciPy cdist metric such as 'canberra'), got {metric!r}"
    )


def _checked_order(order, n_samples):
    """``order`` as distinct example indices among ``n_samples``; None for the identity order
    (``permuted`` then returns the distances themselves)."""
    order = np.asarray(order, dtype=np.intp)
    if order.ndim != 1 or len(order) > n_samples or len(np.unique(order)) != len(order):
        raise ValueError(f"order must list distinct examples among the {n_samples}, got shape {order.shape}")
    if len(order) == n_samples and (order == np.arange(n_samples)).all():
        return None
    return order


class SortedDistances:
    """A training set's distance matrix with every row argsorted once (the per-fit floor).

    Candidate radii of a ball centred on ``x_c`` are the distances in row ``c``; sorting the row
    turns "how many remaining examples lie inside" into a cumulative count.

    Build it once per training fold and pass it to ``fit(X, y, sorted_distances=...)`` of either
    machine to share the sort across a grid of penalties and ball types.

    Parameters
    ----------
    distances : ndarray of shape (m, m)
        Symmetric matrix of pairwise distances with zero diagonal.

    Attributes
    ----------
    distances : ndarray of shape (m, m)
    order : ndarray of shape (m, m)
        ``order[c]`` lists the examples by increasing distance to ``x_c`` (stable: equal
        distances by increasing index).
    sorted_rows : ndarray of shape (m, m)
        ``distances[c, order[c]]``.
    """

    def __init__(self, distances):
        distances = np.asarray(distances, dtype=float)
        if distances.ndim != 2 or distances.shape[0] != distances.shape[1]:
            raise ValueError(f"distances must be a square (m, m) matrix, got shape {distances.shape}")
        if not np.isfinite(distances).all():
            raise ValueError("distances must be finite")
        if (distances < 0).any():
            raise ValueError("distances must be non-negative")
        self.distances = distances
        # intp, not int32: gathering through native-width indices is about 4x faster (numpy
        # would otherwise convert the index array on every restriction and label lookup)
        self.order = stable_argsort_rows(distances)  # = np.argsort(..., kind="stable"), faster
        self.sorted_rows = np.take_along_axis(distances, self.order, axis=1)
        self.has_ties = bool((self.sorted_rows[:, 1:] == self.sorted_rows[:, :-1]).any())

    @classmethod
    def from_points(cls, X, metric: str = "euclidean") -> "SortedDistances":
        """Compute the distances of the rows of ``X`` under ``metric`` and sort them."""
        X = np.asarray(X, dtype=float)
        return cls(cdist(X, X, metric=resolve_metric(metric)))

    @property
    def n_samples(self) -> int:
        return self.distances.shape[0]

    @property
    def nbytes(self) -> int:
        """Memory held by the distances, their order and their sorted copy."""
        return self.distances.nbytes + self.order.nbytes + self.sorted_rows.nbytes

    def row(self, i: int) -> np.ndarray:
        """Distances of example ``i`` to every example.

        Parameters
        ----------
        i : int
            Example index.

        Returns
        -------
        ndarray of shape (m,)
            ``d(x_i, x_j)`` for every example ``j``.
        """
        return self.distances[i]

    def columns(self, indices) -> np.ndarray:
        """Distances of every example to the examples ``indices``, shape ``(m, len(indices))``.

        Parameters
        ----------
        indices : array-like of int
            Example indices (the centres).

        Returns
        -------
        ndarray of shape (m, len(indices))
            ``d(x_i, x_indices[j])``.
        """
        return self.distances[:, indices]

    def _best_balls(self, y01, alive, in_compression, allowed, p_p, p_n, parent, weights=None):
        """The most useful candidates of one greedy step (all exactly tied), or ``None``.

        ``weights``: per-example weights (int64 or float64, all positive), or ``None`` (unit
        weights, the paper's counts). Returns ``(candidates, state)``: ``candidates`` a dict of equal-length arrays ``rank``
        (orders the candidates by centre index, then by position along the centre's sorted
        row), ``centre``, ``border``, ``border_positive``, ``covered`` and ``errors``; ``state``
        the scored state, handed back as ``parent`` at the next step.
        """
        state = self._scored_state(y01, alive, in_compression, allowed, parent, weights)
        if state.covered is None:  # no admissible candidate
            return None, state
        tied = _most_useful(state, p_p, p_n)
        if not len(tied):  # an infinite penalty rules out every candidate
            return None, state
        row, position = np.divmod(tied, len(state.rows))
        candidates = {
            "rank": tied,
            "centre": state.rows[row],
            "border": state.order[row, position],
            "border_positive": state.label_sorted.ravel()[tied],
            "covered": _wide(state.covered.ravel()[tied]),
            "errors": _wide(state.errors_p_p.ravel()[tied]) + state.errors_p_n.ravel()[tied],
        }
        return candidates, state

    def permuted(self, order) -> "SortedDistances":
        """The sorted distances of the examples taken in ``order`` (memoised per order).

        The fits of a grid on one training set all ask for the same (canonical) order, so they
        share one re-sort and one memo of scored states; an identity order returns ``self``.
        ``order`` may also select fewer examples than there are (the rows of positive weight
        of a weighted fit), each at most once.

        Parameters
        ----------
        order : array-like of int
            Distinct example indices, in the order wanted.

        Returns
        -------
        SortedDistances
            The distances of the examples ``order`` (``self`` for the identity).
        """
        order = _checked_order(order, self.n_samples)
        if order is None:
            return self
        cache = self.__dict__.setdefault("_permuted", {})
        key = order.tobytes()
        if key not in cache:
            while len(cache) >= 2:  # a training set rarely comes with more than one labelling
                cache.pop(next(iter(cache)))
            cache[key] = SortedDistances(self.distances[np.ix_(order, order)])
        return cache[key]

    # Scored greedy states are memoised: the fits of a grid of penalties on one training set
    # share their first states (all of them share the first), which dominate the cost. The memo
    # is capped in bytes: beyond the first few states its hit rate barely grows (an 8x larger
    # cap saved 10% of the time of Pima's grid, and cost 550 MB more peak memory), while a larger
    # peak stays resident in the process (the C allocator keeps freed heap), which joblib's
    # process workers take for a memory leak (they restart, with a warning).
    _CACHE_BYTES = 64 * 2**20

    def _scored_state(self, y01, alive, in_compression, allowed, parent, weights=None):
        if in_compression is not None:
            # only the remaining compression examples constrain the candidates
            in_compression = in_compression & alive
            if not in_compression.any():
                in_compression = None
        key = (
            y01.tobytes(),
            allowed.tobytes(),
            alive.tobytes(),
            None if in_compression is None else in_compression.tobytes(),
            None if weights is None else (weights.dtype.str, weights.tobytes()),
        )
        cache = self.__dict__.setdefault("_cache", {})
        if key in cache:
            cache[key] = cache.pop(key)  # most recently used last
            return cache[key]
        state = _score(self, y01, alive, in_compression, allowed, parent, weights)
        cache[key] = state
        # bytes held, kept up to date rather than summed over the cache at every insertion
        self._cache_bytes = self.__dict__.get("_cache_bytes", 0) + state.nbytes
        while self._cache_bytes > self._CACHE_BYTES and len(cache) > 1:
            oldest = next(iter(cache))
            self._cache_bytes -= cache.pop(oldest).nbytes
        return state


class BlockedSortedDistances:
    """The sorted distance rows of a training set, streamed a block of centres at a time.

    The memory-bounded twin of :class:`SortedDistances`: no m x m array is kept. Each greedy step
    (Figure 1, step 1) needs, for every remaining centre, the remaining examples in increasing
    distance; a block of centres at a time, their distances are recomputed by the same ``cdist``
    call (so bit-identical to those of :class:`SortedDistances`), sorted by
    :func:`companion.numerics.stable_argsort_rows` (the same stable order, with the exact tie
    groups) and scored with the same exact integer usefulness (:func:`_score_rows`).

    Most centres cannot hold the best ball, and are not streamed: for every remaining centre a
    histogram of the remaining examples' distances (``n_buckets`` buckets per class, bucket
    ``floor(d * scale_c)``, monotone in ``d``) gives an exact upper bound on the usefulness of
    each of its balls (:func:`_bucket_bounds`: the examples of a lower bucket lie strictly inside
    any radius in a higher one, those of a higher bucket strictly outside, and the bucket of the
    border itself is counted in the covering class's favour). Centres are streamed in decreasing
    order of that bound until the bound of the next one is below the best usefulness found; a
    centre whose bound equals it is still scored, so every exactly tied ball is found and the
    tie rules of :func:`greedy_ball_list` see the same candidates as on the full layout. The
    histograms follow ``S'`` (:class:`_BucketCounts`): the examples a ball removes are
    subtracted, streaming only their distances.

    Parameters
    ----------
    X : array-like of shape (m, n_features)
        The training examples (in the order the greedy will see them).
    metric : str, default="euclidean"
        As for :meth:`SortedDistances.from_points`.
    max_memory_gb : float or None, default=4.0
        Bounds the working memory, not whether a fit runs: the histograms take at most a quarter
        of it (fewer buckets, at least 16) and a streamed block the rest (fewer centres per
        block, at least one). ``None``: the largest buckets and blocks (``_MAX_BUCKETS``,
        ``_BLOCKED_CANDIDATES`` pairs).
    n_buckets : int, optional
        Buckets per class of each histogram (default: from ``max_memory_gb``, at most 512).
        Fewer buckets only loosen the bounds (more centres streamed), never change the result.

    Attributes
    ----------
    X : ndarray of shape (m, n_features)
    metric : str
    n_buckets : int
    block_pairs : int
        (centre, example) pairs streamed per block.
    """

    def __init__(self, X, metric: str = "euclidean", *, max_memory_gb=4.0, n_buckets=None):
        X = np.ascontiguousarray(X, dtype=np.float64)
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D, got shape {X.shape}")
        if not np.isfinite(X).all():
            raise ValueError("X must be finite")
        self.X = X
        self.metric = resolve_metric(metric)
        self.max_memory_gb = max_memory_gb
        self.n_buckets, self.block_pairs = _blocked_sizes(X.shape[0], max_memory_gb, n_buckets)

    @staticmethod
    def estimated_bytes(m: int, max_memory_gb=4.0) -> int:
        """Peak bytes of a fit on ``m`` examples, interpreter and data included: O(m), not O(m^2).

        Parameters
        ----------
        m : int
            Number of examples.
        max_memory_gb : float or None, default=4.0
            As for the constructor.

        Returns
        -------
        int
            Estimated peak bytes.
        """
        return int(_BASE_BYTES + estimated_fit_bytes(m, max_memory_gb, layout="blocked"))

    def permuted(self, order) -> "BlockedSortedDistances":
        """The same for the examples taken in ``order`` (identity: ``self``; a selection allowed).

        Parameters
        ----------
        order : array-like of int
            Distinct example indices, in the order wanted.

        Returns
        -------
        BlockedSortedDistances
            The distances of the examples ``order`` (``self`` for the identity).
        """
        order = _checked_order(order, self.n_samples)
        if order is None:
            return self
        return BlockedSortedDistances(
            self.X[order], self.metric, max_memory_gb=self.max_memory_gb, n_buckets=self.n_buckets
        )

    @property
    def n_samples(self) -> int:
        return self.X.shape[0]

    @property
    def nbytes(self) -> int:
        """Memory held between fits: none (the examples are the caller's, the histograms a fit's)."""
        return 0

    def row(self, i: int) -> np.ndarray:
        """Distances of example ``i`` to every example (recomputed).

        Parameters
        ----------
        i : int
            Example index.

        Returns
        -------
        ndarray of shape (m,)
            ``d(x_i, x_j)`` for every example ``j``.
        """
        return cdist(self.X[i : i + 1], self.X, metric=self.metric)[0]

    def columns(self, indices) -> np.ndarray:
        """Distances of every example to the examples ``indices``, shape ``(m, len(indices))``.

        Parameters
        ----------
        indices : array-like of int
            Example indices (the centres).

        Returns
        -------
        ndarray of shape (m, len(indices))
            ``d(x_i, x_indices[j])``.
        """
        return cdist(self.X, self.X[np.asarray(indices, dtype=np.intp)], metric=self.metric)

    def _best_balls(self, y01, alive, in_compression, allowed, p_p, p_n, parent=None, weights=None):
        """As :meth:`SortedDistances._best_balls`: the most useful candidates, all exactly tied.

        Unit weights only (``weights`` must be ``None``): :func:`sorted_distances_within` gives a
        weighted fit the full layout.

        ``parent`` is the previous step's :class:`_BucketCounts` (``None``: none yet), brought
        up to date with ``alive`` and returned as the state. ``rank`` is ``centre * m +
        position`` (position along the centre's sorted row of remaining examples), which orders
        candidates as the full layout's flat index does.
        """
        if weights is not None:
            raise ValueError("BlockedSortedDistances counts unit weights only; weighted fits use SortedDistances")
        m = self.n_samples
        y01 = np.asarray(y01, dtype=bool)
        alive = np.asarray(alive, dtype=bool)
        counts = _BucketCounts.current(parent, self, y01, alive)
        examples = counts.rows  # the remaining examples, increasing: every centre and border
        width = len(examples)
        label = y01[examples]
        n_pos = int(np.count_nonzero(label))
        compression = None
        if in_compression is not None:
            kept = np.flatnonzero(in_compression & alive)
            if len(kept):
                compression = (kept, y01[kept])
        q, a_p, a_n, dtype, bound = _exact_penalties(p_p, p_n, width)
        penalties = (q, a_p, a_n, p_p, p_n, dtype)
        floor = -(bound + 1)
        if dtype is object:  # penalties with many digits: no int64 bound, stream every centre
            bounds = np.zeros(width, dtype=np.int64)
        else:
            bounds = _bucket_bounds(counts, label, allowed, penalties, floor)
        ranked = np.argsort(-bounds, kind="stable")  # most promising centres first
        ranked = ranked[bounds[ranked] > floor]
        step = max(1, self.block_pairs // max(width, 1))
        best, found = floor, []
        for start in range(0, len(ranked), step):
            block = ranked[start : start + step]
            if dtype is not object:
                block = block[bounds[block] >= best]  # a prefix: the bounds decrease
            if not len(block):
                break
            rows = np.sort(block)  # positions in `examples` of the centres streamed
            block_best, hit = _score_rows(self, examples, rows, label, n_pos, allowed, compression, penalties,
                                          floor)
            if block_best < best or block_best == floor:
                continue
            if block_best > best:
                best, found = block_best, [hit]
            else:
                found.append(hit)
        if not found:
            return None, counts
        candidates = {key: np.concatenate([hit[key] for hit in found]) for key in found[0]}
        candidates["rank"] = candidates["centre"].astype(np.int64) * m + candidates.pop("position")
        return candidates, counts


def _blocked_sizes(m, max_memory_gb, n_buckets=None):
    """``(n_buckets, block_pairs)`` of :class:`BlockedSortedDistances` for ``m`` examples.

    The histograms (8 bytes per centre and bucket) take at most :data:`_BUCKET_SHARE` of
    ``max_memory_gb`` (at least 16 buckets, at most :data:`_MAX_BUCKETS`); a block streams at most
    :data:`_BLOCKED_CANDIDATES` pairs, fewer if the rest of the limit is smaller, and at least one
    row of ``m``.
    """
    m = max(int(m), 1)
    limit = np.inf if max_memory_gb is None else float(max_memory_gb) * 2**30
    if n_buckets is None:
        n_buckets = int(min(_MAX_BUCKETS, max(16, _BUCKET_SHARE * limit // (8 * m))))
    if isinstance(n_buckets, bool) or not isinstance(n_buckets, (int, np.integer)) or not 1 <= n_buckets <= 2**20:
        raise ValueError(f"n_buckets must be an integer in [1, 2**20], got {n_buckets!r}")
    room = (limit - _BASE_BYTES - 16 * m * n_buckets - _BYTES_PER_ROW * m) / _BYTES_PER_STREAMED_PAIR
    return int(n_buckets), int(max(m, min(_BLOCKED_CANDIDATES, room)))


def _score_rows(sd, examples, rows, label, n_pos, allowed, compression, penalties, floor):
    """Exact usefulness of every ball centred on ``examples[rows]``, and the most useful ones.

    The counts of :func:`_score` along the sorted rows of the remaining examples ``examples``
    (whose labels are ``label``, ``n_pos`` of them positive): a block of distance rows, computed
    and sorted here. Returns ``(block_best, hits)``, ``hits`` a dict of the candidates of
    usefulness ``block_best`` (``centre``, ``border`` as training indices, ``position`` along
    the centre's row, ``border_positive``, ``covered``, ``errors``).
    """
    q, a_p, a_n, p_p, p_n, dtype = penalties
    width = len(examples)
    centres = examples[rows]
    distances = cdist(sd.X[centres], sd.X[examples], metric=sd.metric)
    order, starts = stable_argsort_rows(distances, np.intp, return_group_starts=True)
    label_sorted = label[order]
    border_positive = label_sorted.view(np.int8)
    incl_pos = np.cumsum(border_positive, axis=1, dtype=np.int32)
    excl_pos = incl_pos - border_positive
    position = np.arange(width, dtype=np.int32)
    if starts.all():
        excl_all, incl_all = position[None, :], position[None, :] + 1
    else:  # equal distances: a ball's counts are those at the ends of its border's tie group
        ends = np.ones(starts.shape, dtype=bool)
        ends[:, :-1] = starts[:, 1:]
        excl_all = _value_at_group_start(position[None, :], starts)
        incl_all = _value_at_group_end(np.broadcast_to(position + 1, starts.shape), ends)
        excl_pos = _value_at_group_start(excl_pos, starts)
        incl_pos = _value_at_group_end(incl_pos, ends)
    # The classes of centre and border fix the type (module table of companion.decision_list):
    # the rule outputs 1 iff the border is negative and fires inside iff the classes differ.
    inside = label[rows].view(np.int8)[:, None] ^ border_positive
    covered, errors = _fire_counts(inside, border_positive, (excl_all, incl_all, width), (excl_pos, incl_pos, n_pos))
    valid = covered > 0
    if not allowed.all():
        valid &= _type_allowed(allowed, inside.view(bool), label_sorted)
    if compression is not None:
        kept, kept_positive = compression
        sorted_rows = np.take_along_axis(distances, order, axis=1)
        to_compression = cdist(sd.X[centres], sd.X[kept], metric=sd.metric)
        valid &= _compression_ok(sorted_rows, to_compression, kept_positive, label_sorted, inside.view(bool))
    errors_p_p = errors * border_positive  # output-0 rules err on positives
    usefulness = _exact_usefulness(covered, errors_p_p, errors - errors_p_p, q, a_p, a_n, p_p, p_n, dtype, floor)
    usefulness[~valid] = floor
    block_best = usefulness.max()
    hits = np.flatnonzero(usefulness == block_best)
    row, column = np.divmod(hits, width)
    return block_best, {
        "centre": centres[row],
        "position": column.astype(np.int64),
        "border": examples[order[row, column]],
        "border_positive": label_sorted[row, column],
        "covered": _wide(covered[row, column]),
        "errors": _wide(errors[row, column]),
    }


@dataclass
class _BucketCounts:
    """For every remaining centre, the remaining examples of each class by distance bucket.

    ``counts[k, c, b]``: remaining examples of class ``c`` (0 negative, 1 positive) whose distance
    ``d`` to the centre ``rows[k]`` falls in bucket ``b = floor(d * scale[k])``; ``scale[k] =
    (n_buckets - 1) / max d`` is fixed when the row is first counted, so ``b`` is monotone in
    ``d`` and lies in ``[0, n_buckets)`` (``max d * scale <= (n_buckets - 1)(1 + 2^-52) <
    n_buckets``). ``rows`` are the remaining examples, increasing (the centres and the examples
    counted are the same set, ``S'``).
    """

    y01: np.ndarray
    alive: np.ndarray
    rows: np.ndarray
    scale: np.ndarray
    counts: np.ndarray

    @classmethod
    def current(cls, parent, sd, y01, alive) -> "_BucketCounts":
        """``parent`` brought up to date with ``alive`` (or built, if it counts other labels)."""
        if parent is None or not np.array_equal(parent.y01, y01) or (alive & ~parent.alive).any():
            return cls._build(sd, y01, alive)
        return parent._after_removal(sd, alive)

    @classmethod
    def _build(cls, sd, y01, alive):
        rows = np.flatnonzero(alive)
        width, n_buckets = len(rows), sd.n_buckets
        counts = np.empty((width, 2, n_buckets), dtype=np.int32)
        scale = np.empty(width)
        labels = y01[rows].astype(np.intp)
        for block in _row_blocks(width, width, sd.block_pairs):
            distances = cdist(sd.X[rows[block]], sd.X[rows], metric=sd.metric)
            largest = distances.max(axis=1) if width else np.zeros(0)
            scale[block] = np.divide(n_buckets - 1, largest, out=np.zeros(len(largest)), where=largest > 0)
            counts[block] = _histograms(distances, scale[block], labels, n_buckets)
        return cls(y01=y01.copy(), alive=alive.copy(), rows=rows, scale=scale, counts=counts)

    def _after_removal(self, sd, alive):
        """The counts over ``alive``, a subset of ``self.alive``: the removed examples subtracted.

        Streams ``|S'| x |removed|`` distances; rebuilds from scratch (``|S'|^2``) when fewer.
        """
        removed = np.flatnonzero(self.alive & ~alive)
        if not len(removed):
            return self
        keep = alive[self.rows]
        rows = self.rows[keep]
        if len(removed) >= len(rows):
            return self._build(sd, self.y01, alive)
        counts, scale = self.counts[keep], self.scale[keep]
        self.counts = None  # the caller's state is consumed: free it before the next step's peak
        labels = self.y01[removed].astype(np.intp)
        for block in _row_blocks(len(rows), len(removed), sd.block_pairs):
            distances = cdist(sd.X[rows[block]], sd.X[removed], metric=sd.metric)
            counts[block] -= _histograms(distances, scale[block], labels, sd.n_buckets).astype(np.int32)
        return _BucketCounts(y01=self.y01, alive=alive.copy(), rows=rows, scale=scale, counts=counts)


def _histograms(distances, scale, labels, n_buckets):
    """Per row of ``distances``: counts of its columns by (class ``labels``, bucket), shape (r, 2, B).

    Overwrites ``distances``. One ``bincount`` over the block: the bucket, offset by the class and
    the row, indexes a flat array of ``r * 2 * n_buckets`` counts.
    """
    n_rows = distances.shape[0]
    np.multiply(distances, scale[:, None], out=distances)
    index = distances.astype(np.intp)  # floor: the values are >= 0
    index += labels * n_buckets
    index += (np.arange(n_rows, dtype=np.intp) * (2 * n_buckets))[:, None]
    return np.bincount(index.ravel(), minlength=n_rows * 2 * n_buckets).reshape(n_rows, 2, n_buckets)


def _bucket_bounds(counts: _BucketCounts, label, allowed, penalties, floor) -> np.ndarray:
    """For every remaining centre, an upper bound on ``q * usefulness`` of its balls (int64).

    A ball whose border lies in bucket ``b`` (so its class, the class the rule errs on, has an
    example there) fires, if inside, on every example of the buckets below ``b`` and on none above
    it; if outside, the reverse. So with ``C`` the class it covers and ``E`` the other one, an
    inside ball covers at most ``C`` of buckets ``<= b`` and errs on at least ``E`` of buckets
    ``< b``; an outside one covers at most ``C`` of buckets ``>= b`` and errs on at least ``E`` of
    buckets ``> b``. Inside balls cover the centre's class, outside balls the other one (module
    table of :mod:`companion.decision_list`). ``floor`` where no admissible ball can exist (no
    border of the type allowed, nothing covered, or an infinite penalty certainly met).
    """
    q, a_p, a_n, p_p, p_n, _ = penalties
    n_rows, _, n_buckets = counts.counts.shape
    bounds = np.full(n_rows, floor, dtype=np.int64)
    centre_positive = label
    for positive in (False, True):
        # inside: Pi (positive centre, errs on negatives: p_n) or Ni (negative centre, p_p);
        # outside: No (positive centre, errs on positives: p_p) or Po (negative centre, p_n)
        a_in, inf_in, ok_in = (a_n, np.isinf(p_n), allowed[_PI]) if positive else (a_p, np.isinf(p_p), allowed[_NI])
        a_out, inf_out, ok_out = (a_p, np.isinf(p_p), allowed[_NO]) if positive else (a_n, np.isinf(p_n), allowed[_PO])
        if not (ok_in or ok_out):
            continue
        group = np.flatnonzero(centre_positive == positive)
        for block in _row_blocks(len(group), n_buckets, _BLOCKED_CANDIDATES):
            rows = group[block]
            hist = counts.counts[rows].astype(np.int64)
            same, other = (hist[:, 1], hist[:, 0]) if positive else (hist[:, 0], hist[:, 1])
            best = np.full(len(rows), floor, dtype=np.int64)
            if ok_in:  # covers `same` (<= b), errs on `other` (< b), border of class `other`
                cover = np.cumsum(same, axis=1)
                err = np.cumsum(other, axis=1) - other
                best = np.maximum(best, _bucket_max(cover, err, other > 0, q, a_in, inf_in, floor))
            if ok_out:  # covers `other` (>= b), errs on `same` (> b), border of class `same`
                cover = np.cumsum(other[:, ::-1], axis=1)[:, ::-1]
                err = np.cumsum(same[:, ::-1], axis=1)[:, ::-1] - same
                best = np.maximum(best, _bucket_max(cover, err, same > 0, q, a_out, inf_out, floor))
            bounds[rows] = best
    return bounds


def _bucket_max(cover, err, has_border, q, a, infinite, floor):
    """Row maxima of ``q * cover - a * err`` over the admissible buckets (``floor`` if none)."""
    value = q * cover - a * err
    admissible = has_border & (cover > 0)
    if infinite:
        admissible &= err == 0
    value[~admissible] = floor
    return value.max(axis=1)


def _row_blocks(n_rows: int, width: int, pairs: int):
    """Slices of ``n_rows`` rows of ``width`` columns, about ``pairs`` entries each."""
    step = max(1, pairs // max(width, 1))
    return [slice(start, min(n_rows, start + step)) for start in range(0, n_rows, step)]


def estimated_fit_bytes(m: int, max_memory_gb=4.0, *, weighted: bool = False, layout: str | None = None) -> int:
    """Peak bytes of the arrays of a ball machine's fit on ``m`` examples, before any is allocated.

    What a fit without given sorted distances allocates beyond the interpreter and its input
    (:data:`_BASE_BYTES`), in the layout :func:`sorted_distances_within` takes:

    * full layout (:class:`SortedDistances`: ``m <= 2000`` and within ``max_memory_gb``, or any
      fit with weights): the ``m x m`` float64 distances, their sorted copy, the ``m x m`` intp
      order and the scored state of the greedy (the usefulness and cover counts of every ball)
      with its temporaries, :data:`_FULL_BYTES_PER_PAIR` (128) bytes per pair;
    * blocked layout (:class:`BlockedSortedDistances`): each centre's two-class distance
      histogram, twice (an update copies the rows it keeps), ``16 m n_buckets`` bytes; one
      streamed block of ``block_pairs`` (centre, example) pairs with its distances, sort keys,
      orders, counts and usefulness, :data:`_BYTES_PER_STREAMED_PAIR` (160) bytes per pair; and
      :data:`_BYTES_PER_ROW` (1024) bytes per example for the O(m) vectors.

    Parameters
    ----------
    m : int
        Number of training examples (of positive weight).
    max_memory_gb : float or None, default=4.0
        The fit's limit: it picks the layout and sizes the blocked one.
    weighted : bool, default=False
        A fit with ``sample_weight`` or ``class_weight`` (always the full layout).
    layout : {"full", "blocked"} or None, default=None
        Estimate this layout instead of the one the fit would take.

    Returns
    -------
    int
        Estimated peak bytes (tests/test_decision_list.py checks it against tracemalloc's peak).
    """
    m = max(int(m), 1)
    if layout is None:
        layout = "full" if weighted or _full_layout_fits(m, max_memory_gb) else "blocked"
    if layout == "full":
        return int(_FULL_BYTES_PER_PAIR * m * m)
    n_buckets, block_pairs = _blocked_sizes(m, max_memory_gb)
    return int(2 * 8 * m * n_buckets + _BYTES_PER_STREAMED_PAIR * block_pairs + _BYTES_PER_ROW * m)


def _full_layout_fits(m, max_memory_gb) -> bool:
    limit = np.inf if max_memory_gb is None else float(max_memory_gb) * 2**30
    return m <= _FULL_LAYOUT_MAX_M and _FULL_BYTES_PER_PAIR * m * m <= limit


def sorted_distances_within(X, metric, max_memory_gb, weighted=False):
    """The sorted-distance layout for one fit on ``X``: the faster one within ``max_memory_gb``.

    :class:`SortedDistances` up to :data:`_FULL_LAYOUT_MAX_M` examples when its ``128 m^2`` bytes
    (:func:`estimated_fit_bytes`) fit; :class:`BlockedSortedDistances` otherwise, whose memory grows as ``m`` and which
    ``max_memory_gb`` only sizes (it never refuses a fit). Both learn the same list. A
    ``weighted`` fit always takes the full layout (the histograms count unit weights only),
    and is refused when its ``128 m^2`` bytes exceed ``max_memory_gb`` (the learners refuse it
    first, by name, with :func:`companion._resources.check_memory`).
    """
    m = X.shape[0]
    limit = np.inf if max_memory_gb is None else max_memory_gb * 2**30
    if weighted:
        if _FULL_BYTES_PER_PAIR * m * m > limit:
            raise ValueError(
                f"a fit with sample_weight keeps every distance: {m} rows with positive weight need about "
                f"{_FULL_BYTES_PER_PAIR * m * m / 2**30:.1f} GiB, above max_memory_gb={max_memory_gb}"
            )
        return SortedDistances.from_points(X, metric)
    if _full_layout_fits(m, max_memory_gb):
        return SortedDistances.from_points(X, metric)
    return BlockedSortedDistances(X, metric, max_memory_gb=max_memory_gb)


def _type_allowed(allowed, is_inside, label_sorted):
    """Candidates whose type (inside/outside, border class) is among the ``allowed`` ones.

    Parameters
    ----------
    allowed : sequence of 4 bool
        Whether each of :data:`BALL_TYPES` (Pi, Po, Ni, No) may be chosen.
    is_inside : ndarray of bool
        Per candidate, whether its rule fires inside the ball.
    label_sorted : ndarray of bool
        Per candidate, whether its border is a positive example.

    Returns
    -------
    ndarray of bool
        The candidates of an allowed type, shaped as ``label_sorted``.
    """
    pi, po, ni, no = (bool(v) for v in allowed)
    mask = np.zeros(label_sorted.shape, dtype=bool)
    combinations = ((pi, True, False), (po, False, False), (ni, True, True), (no, False, True))
    for ok, inside_wanted, border_wanted in combinations:
        if ok:
            mask |= (is_inside if inside_wanted else ~is_inside) & (
                label_sorted if border_wanted else ~label_sorted
            )
    return mask


def _compression_ok(sorted_rows, to_compression, compression_positive, label_sorted, is_inside):
    """Candidates that fire on no remaining compression example of their border's class.

    An inside rule needs every such example at distance >= the border's, an outside rule at
    distance <= the border's (paper 01, Section 4: the list must classify its compression set
    correctly; the paper states the condition, this candidate filter is our enforcement of it).
    """
    ok_inside = np.zeros(label_sorted.shape, dtype=bool)
    ok_outside = np.zeros(label_sorted.shape, dtype=bool)
    for wrong_positive, border_mask in ((True, label_sorted), (False, ~label_sorted)):
        columns = compression_positive == wrong_positive
        if columns.any():
            nearest = to_compression[:, columns].min(axis=1)[:, None]
            farthest = to_compression[:, columns].max(axis=1)[:, None]
            ok_inside |= border_mask & (sorted_rows <= nearest)
            ok_outside |= border_mask & (sorted_rows >= farthest)
        else:
            ok_inside |= border_mask
            ok_outside |= border_mask
    return (is_inside & ok_inside) | (~is_inside & ok_outside)


def _exact_penalties(p_p, p_n, n_remaining):
    """The penalties as integers over a common denominator, and an integer type that holds
    ``q * usefulness`` exactly for ``n_remaining`` examples (see :func:`_most_useful`).

    Returns ``(q, a_p, a_n, dtype, bound)`` with ``|q * usefulness| <= bound``.
    """
    finite = [_decimal_penalty(p) for p in (p_p, p_n) if not np.isinf(p)]
    q = lcm(*(f.denominator for f in finite)) if finite else 1
    a_p, a_n = (0 if np.isinf(p) else int(_decimal_penalty(p) * q) for p in (p_p, p_n))
    bound = (q + max(a_p, a_n)) * n_remaining
    if bound < 2**31 - 1:
        dtype = np.int32
    elif bound < 2**63 - 1:
        dtype = np.int64
    else:  # exact but slow: only for penalties with many significant digits
        dtype = object
    return q, a_p, a_n, dtype, bound


def _exact_usefulness(covered, errors_p_p, errors_p_n, q, a_p, a_n, p_p, p_n, dtype, floor):
    """``q * (covered - p_p errors_p_p - p_n errors_p_n)`` exactly, ``floor`` where an infinite
    penalty meets an error of its kind or the candidate covers nothing (inadmissible)."""
    u = covered.astype(dtype)
    if q != 1:
        u *= q
    for a, penalty, errors in ((a_p, p_p, errors_p_p), (a_n, p_n, errors_p_n)):
        if np.isinf(penalty):
            u[errors > 0] = floor
        elif a:
            u -= errors.astype(dtype) * a
    u[covered == 0] = floor
    return u


def _tie_groups(sorted_rows, dtype):
    """Where the groups of equal distances of every sorted row start and end.

    Returns ``None`` when no row has two equal distances; otherwise ``(starts, ends, first, last)``:
    boolean masks of the first / last position of each group, and for every position the first
    and last position of its group.
    """
    a = sorted_rows.shape[1]
    starts = np.ones(sorted_rows.shape, dtype=bool)
    np.not_equal(sorted_rows[:, 1:], sorted_rows[:, :-1], out=starts[:, 1:])
    if starts.all():
        return None
    ends = np.ones(sorted_rows.shape, dtype=bool)
    ends[:, :-1] = starts[:, 1:]
    positions = np.arange(a, dtype=dtype)
    return starts, ends, _value_at_group_start(positions, starts), _value_at_group_end(positions, ends)


def _value_at_group_start(values, starts):
    """``values`` (non-decreasing along each row, >= 0) taken at the start of each tie group.

    A running maximum of the values kept at group starts only: a streaming pass instead of a
    gather through index arrays (several times faster on m x m arrays).
    """
    return np.maximum.accumulate(values * starts, axis=1)


def _value_at_group_end(values, ends, upper=None):
    """``values`` (non-decreasing along each row, in ``[0, n]``) taken at the end of each group.

    A reversed running minimum of the values kept at group ends (``n + 1`` elsewhere; ``2n + 1``
    fits the int16 counts used for ``n < 16000``). ``upper``: a value above every entry, for
    values not bounded by the row length (weight sums; ``np.inf`` for floats).
    """
    if upper is not None:
        masked = np.where(ends, values, values.dtype.type(upper))
        return np.minimum.accumulate(masked[:, ::-1], axis=1)[:, ::-1]
    n = values.shape[-1]
    masked = values + (~ends) * values.dtype.type(n + 1)
    return np.minimum.accumulate(masked[:, ::-1], axis=1)[:, ::-1]


def _inside_counts(flags_sorted, groups):
    """Flagged examples strictly inside (``< d_j``) and inside-or-on (``<= d_j``) each radius.

    ``flags_sorted[k, j]``: the ``j``-th nearest remaining example to the ``k``-th centre is
    flagged; ``groups`` from :func:`_tie_groups`. One cumulative sum per call.
    """
    dtype = np.int16 if flags_sorted.shape[1] < 16_000 else np.int32
    inclusive = np.cumsum(flags_sorted, axis=1, dtype=dtype)
    exclusive = inclusive - flags_sorted
    if groups is None:
        return exclusive, inclusive
    starts, ends = groups[:2]
    return _value_at_group_start(exclusive, starts), _value_at_group_end(inclusive, ends)


def greedy_ball_list(
    sd: SortedDistances,
    y01,
    *,
    p_p: float,
    p_n: float,
    types=BALL_TYPES,
    max_balls: int | None,
    stop_when: str = "either_empty",
    compression_constraint: bool = False,
    tie_rule: str = "larger_cover",
    removal: str = "fired",
    sample_weight=None,
    progress: str = "greedy_ball_list",
):
    """BuildDLM (Figure 1) over data-dependent balls, vectorised over all candidates.

    Parameters
    ----------
    sd : SortedDistances or BlockedSortedDistances
        Sorted distances of the ``m`` training examples (both layouts learn the same list).
    y01 : ndarray of shape (m,)
        1 for positive, 0 for negative examples.
    p_p, p_n : float
        Penalty per error on a positive / negative example (``np.inf`` allowed).
    types : collection of str
        Allowed ball types among ``BALL_TYPES``.
    max_balls : int or None
        Stopping point ``s`` (None: no limit).
    stop_when : {"either_empty", "negatives_empty", "positives_empty"}
        BuildDLM stops when ``P'`` or ``N'`` is empty (step 5); the SCM conjunction only when
        ``N'`` is, the disjunction only when ``P'`` is.
    compression_constraint : bool
        Discard any ball that would fire with the wrong output on a compression example still
        remaining (paper 01, Section 4; our enforcement of the paper's constraint).
    tie_rule : {"larger_cover", "fewest_errors", "output_one_first"}
        How balls of equal usefulness are ordered (Figure 1 leaves it open; see Notes).
        ``"larger_cover"`` (the default, used by the estimators): larger covered set, then fewer
        errors, then output 1. ``"fewest_errors"``: fewer errors, then larger covered set, then
        output 1. ``"output_one_first"``: step 3's ``>=`` read literally (a tie between the two
        uses of the same feature goes to output 1), then larger covered set, then fewer errors.
        The remaining keys (centre index, border) are the same for all three. The variants exist
        for notebook 01's experiments on how much the unspecified tie rule matters.
    removal : {"fired", "covered"}
        Which examples leave ``S'`` after a ball is added. ``"fired"`` (Figure 1, step 4; the
        default): every example on which the rule fires. ``"covered"``: only those it classifies
        correctly, so that its errors stay available to later balls (an experiment, not the
        paper's algorithm).
    sample_weight : ndarray of shape (m,), optional
        Positive weights (drop the rows of weight 0 first): every count of covered examples and
        of errors becomes the sum of their weights, so an integer weight acts as that many
        copies of the row. Integer weights are summed exactly (int64) and the usefulness is then
        compared exactly as for unit weights; real weights are summed in float64 and two balls
        are tied when their usefulness agrees within :data:`companion.numerics.TIE_RTOL`. Needs
        the full layout (:class:`SortedDistances`).
    progress : str, default="greedy_ball_list"
        Label of the progress lines (``label balls: done/max (elapsed)``, at most every few
        seconds), written only when ``COMPANION_PROGRESS`` is set
        (``companion._progress.progress_lines``); they never change the list.

    Returns
    -------
    dict of ndarrays
        ``kind`` (type codes), ``centre``, ``border``, ``radius``, in list order.

    Notes
    -----
    Usefulness (Figure 1, step 1) per type, counts over the remaining examples ``S'``:
    Pi ``|P_in| - p_n |N_in|``, Po ``|P_out| - p_n |N_out|``, Ni ``|N_in| - p_p |P_in|``,
    No ``|N_out| - p_p |P_out|`` (inside strict, outside strict). Centres and borders are remaining
    examples; a candidate must cover at least one example.

    Usefulness is compared *exactly*: each finite penalty is read as the decimal number it prints
    as (``repr``: ``2.1`` is 21/10, ``0.3`` is 3/10, not their binary approximations), so that
    ``q · usefulness`` is an integer for ``q`` the common denominator of the two penalties, and is
    computed in int32/int64 (Python integers if it could overflow int64: penalties with more than
    about 12 significant digits), see :func:`_most_useful`. Two balls are tied exactly when their
    usefulness is equal; no tolerance is involved and the choice does not depend on rounding.
    Ties are broken by the larger covered set, then the smaller error set, then output 1 before
    output 0 (Figure 1, step 3 uses ``>=``), then the smaller centre index, then the nearer border
    (and the smaller border index among equidistant ones). The estimators call this on the
    examples in :func:`canonical_order`, which makes "smaller index" independent of the caller's
    row order.
    Whatever the output, the examples on which the chosen rule fires leave ``S'`` (covered ones
    are right, the others are errors that later rules cannot change).

    The sorted rows are kept restricted to the remaining examples (rows: remaining centres,
    columns: remaining examples in distance order), so each step costs O(|S'|^2) and one
    cumulative sum of the labels gives every count.
    """
    if stop_when not in ("either_empty", "negatives_empty", "positives_empty"):
        raise ValueError(f"stop_when must be 'either_empty', 'negatives_empty' or 'positives_empty', got {stop_when!r}")
    if tie_rule not in ("larger_cover", "fewest_errors", "output_one_first"):
        raise ValueError(
            f"tie_rule must be 'larger_cover', 'fewest_errors' or 'output_one_first', got {tie_rule!r}"
        )
    if removal not in ("fired", "covered"):
        raise ValueError(f"removal must be 'fired' or 'covered', got {removal!r}")
    m = sd.n_samples
    y01 = np.asarray(y01).astype(bool)
    if y01.shape != (m,):
        raise ValueError(f"y01 must have one label per row of the distances ({m}), got shape {y01.shape}")
    weights = _engine_weights(sample_weight, m)
    if weights is not None and not isinstance(sd, SortedDistances):
        raise ValueError("a weighted fit needs the full SortedDistances layout (see sorted_distances_within)")
    allowed = np.zeros(4, dtype=bool)
    for name in types:
        allowed[BALL_TYPES.index(name)] = True
    alive = np.ones(m, dtype=bool)
    in_compression = np.zeros(m, dtype=bool)
    kinds, centres, borders, radii = [], [], [], []
    limit = np.inf if max_balls is None else max_balls
    state = None
    tracker = progress_lines(f"{progress} balls", int(min(limit, m)))  # COMPANION_PROGRESS only
    while len(kinds) < limit:
        n_pos = int((alive & y01).sum())
        n_neg = int(alive.sum()) - n_pos
        if stop_when == "either_empty" and (n_pos == 0 or n_neg == 0):
            break
        if stop_when == "negatives_empty" and n_neg == 0:
            break
        if stop_when == "positives_empty" and n_pos == 0:
            break
        found, state = sd._best_balls(
            y01, alive, in_compression if compression_constraint else None, allowed, p_p, p_n, state, weights
        )
        if found is None:
            break
        pick = 0
        if len(found["rank"]) > 1:
            output_one = ~found["border_positive"]
            covered, errors, rank = found["covered"], found["errors"], found["rank"]
            # lexsort: last key is primary
            if tie_rule == "larger_cover":
                keys = (rank, ~output_one, errors, -covered)
            elif tie_rule == "fewest_errors":
                keys = (rank, ~output_one, -covered, errors)
            else:
                keys = (rank, errors, -covered, ~output_one)
            pick = int(np.lexsort(keys)[0])
        centre, border = int(found["centre"][pick]), int(found["border"][pick])
        code, radius, alive, in_compression = append_ball(sd, y01, alive, in_compression, centre, border, removal)
        kinds.append(code)
        centres.append(centre)
        borders.append(border)
        radii.append(radius)
        if tracker is not None:
            tracker.update(len(kinds))
    return {
        "kind": np.array(kinds, dtype=int),
        "centre": np.array(centres, dtype=int),
        "border": np.array(borders, dtype=int),
        "radius": np.array(radii, dtype=float),
    }


def append_ball(sd, y01, alive, in_compression, centre, border, removal="fired"):
    """Figure 1, step 4, once the ball ``(centre, border)`` is chosen: ``(code, radius, alive, in_compression)``.

    The ball's type code and radius, and new arrays for ``S'`` (``removal`` as for
    :func:`greedy_ball_list`) and the compression set after the step.
    """
    code = _kind_of(bool(y01[centre]), bool(y01[border]))
    to_centre = sd.row(centre)
    radius = to_centre[border]
    fired = to_centre < radius if TYPE_INSIDE[code] else to_centre > radius
    if removal == "covered":
        fired = fired & (y01 == bool(TYPE_OUTPUT[code]))
    alive = alive & ~fired
    in_compression = in_compression.copy()
    in_compression[[centre, border]] = True
    return code, radius, alive, in_compression


def exact_penalty_integers(p_p, p_n):
    """``(q, a_p, a_n)``: the penalties as ``a / q`` over their common decimal denominator (see :func:`_most_useful`)."""
    q, a_p, a_n, _, _ = _exact_penalties(p_p, p_n, 1)
    return q, a_p, a_n


def score_state(sd, y01, alive, in_compression, allowed, parent=None, keep_sorted=True):
    """Every candidate ball of the state ``S' = alive`` scored up to the penalties, not memoised.

    What :meth:`SortedDistances._best_balls` scores (the compression set, or None, counts where it
    meets ``S'``); ``parent``: a state of a superset of ``alive``; ``keep_sorted=False`` carries
    no sorted distances (only if no descendant state applies the compression-set constraint).
    """
    if in_compression is not None:
        in_compression = in_compression & alive
        if not in_compression.any():
            in_compression = None
    return _score(sd, y01, alive, in_compression, allowed, parent, keep_sorted=keep_sorted)


def _engine_weights(sample_weight, m):
    """``sample_weight`` as the engine counts it: None, int64 (whole numbers) or float64, all > 0."""
    if sample_weight is None:
        return None
    weights = np.asarray(sample_weight, dtype=np.float64)
    if weights.shape != (m,) or not np.isfinite(weights).all() or not (weights > 0).all():
        raise ValueError(f"sample_weight must hold {m} positive finite weights (drop the rows of weight 0 first)")
    if (weights == np.round(weights)).all() and weights.sum() < 2**52:
        return weights.astype(np.int64)
    return weights


@dataclass
class _ScoredState:
    """Every candidate ball of one greedy state ``S'``, scored up to the penalties.

    Rows are the remaining centres (increasing index), columns the remaining examples in
    increasing distance from each centre. ``covered`` is the covered count (0 where the candidate
    is not admissible: an admissible one covers at least one example), ``errors_p_p``/
    ``errors_p_n`` the errors that ``p_p``/``p_n`` penalise (the other one is 0), so that
    usefulness = ``covered - p_p errors_p_p - p_n errors_p_n`` (:func:`_most_useful`). All three
    are integer counts (int16, or int32 from 16000 examples on).
    ``covered`` is None when no candidate is admissible.
    """

    alive: np.ndarray
    rows: np.ndarray
    order: np.ndarray
    sorted_rows: np.ndarray
    label_sorted: np.ndarray | None = None
    covered: np.ndarray | None = None
    errors_p_p: np.ndarray | None = None
    errors_p_n: np.ndarray | None = None

    @property
    def nbytes(self) -> int:
        """Memory held by the state's arrays (arrays shared with the parent state included)."""
        arrays = (self.alive, self.rows, self.order, self.sorted_rows, self.label_sorted, self.covered,
                  self.errors_p_p, self.errors_p_n)
        return sum(a.nbytes for a in arrays if a is not None)


def _decimal_penalty(penalty: float) -> Fraction:
    """A finite penalty as the decimal number it prints as (``2.1`` -> 21/10), exactly."""
    return Fraction(repr(float(penalty)))


def _most_useful(state: _ScoredState, p_p: float, p_n: float) -> np.ndarray:
    """Flat indices of the candidates of largest usefulness (Figure 1, step 1), exactly tied.

    Usefulness ``covered - p_p * (errors of output-0 rules) - p_n * (errors of output-1 rules)``
    is compared exactly: with each finite penalty read as a decimal ``a / q`` over the common
    denominator ``q`` (:func:`_decimal_penalty`), ``q * usefulness = q covered - a_p e_p - a_n e_n``
    is an integer of absolute value at most ``(q + max(a_p, a_n)) n`` (``n`` remaining examples).
    It is computed in int32 when that fits, int64 otherwise and Python integers beyond int64, so
    the maximum and its ties are exact. An infinite penalty makes every candidate with an error
    of its kind inadmissible. Returns an empty array when no candidate is admissible.

    The candidates are scored a block of centre rows at a time (about ``_USEFULNESS_BLOCK``
    candidates): the temporaries stay a few MB instead of m x m arrays, and a state is shared
    by many fits (one per penalty pair), so nothing penalty-specific is stored in it.
    """
    covered, errors_p_p, errors_p_n = state.covered, state.errors_p_p, state.errors_p_n
    n_rows, n_cols = covered.shape
    if covered.dtype.kind == "f":
        return _near_most_useful(covered, errors_p_p, errors_p_n, p_p, p_n)
    # the counts never exceed the total weight of the remaining examples (their number if unweighted)
    total = n_cols if covered.dtype.itemsize < 8 else int(covered.max(initial=0)) + int(
        (errors_p_p + errors_p_n).max(initial=0))
    q, a_p, a_n, dtype, bound = _exact_penalties(p_p, p_n, max(total, n_cols))
    floor = -(bound + 1)  # below every admissible candidate
    best, tied = floor, []
    step = max(1, _USEFULNESS_BLOCK // max(n_cols, 1))
    for start in range(0, n_rows, step):
        block = slice(start, start + step)
        u = _exact_usefulness(
            covered[block], errors_p_p[block], errors_p_n[block], q, a_p, a_n, p_p, p_n, dtype, floor
        )
        block_best = u.max()
        if block_best < best or block_best == floor:
            continue
        hits = np.flatnonzero(u == block_best) + start * n_cols
        if block_best > best:
            best, tied = block_best, [hits]
        else:
            tied.append(hits)
    return np.concatenate(tied) if tied else np.zeros(0, dtype=np.intp)


def _near_most_useful(covered, errors_p_p, errors_p_n, p_p, p_n) -> np.ndarray:
    """:func:`_most_useful` for real-valued weights: the candidates within ``TIE_RTOL`` of the best.

    Sums of non-integer weights are not exact, so two balls are tied when their usefulness
    ``covered - p_p errors_p_p - p_n errors_p_n`` differs by at most
    :data:`companion.numerics.TIE_RTOL` times the largest magnitude involved.
    """
    u = covered.astype(np.float64)
    scale = float(covered.max(initial=0.0))
    for penalty, errors in ((p_p, errors_p_p), (p_n, errors_p_n)):
        if np.isinf(penalty):
            u[errors > 0] = -np.inf
        elif penalty:
            u -= penalty * errors
            scale += penalty * float(errors.max(initial=0.0))
    u[covered <= 0] = -np.inf
    best = u.max(initial=-np.inf)
    if not np.isfinite(best):
        return np.zeros(0, dtype=np.intp)
    return np.flatnonzero(u >= best - TIE_RTOL * max(scale, 1e-300))


def _restrict(sd, alive, parent, keep_sorted=True):
    """Rows and columns of the sorted distances restricted to the remaining examples.

    ``keep_sorted=False``: the sorted distances themselves are not carried (None), for a search
    that needs neither tie groups nor the compression-set constraint.
    """
    if parent is None:
        rows, order, sorted_rows = np.arange(sd.n_samples), sd.order, sd.sorted_rows
    else:
        rows, order, sorted_rows = parent.rows, parent.order, parent.sorted_rows
    if not keep_sorted:
        sorted_rows = None
    if len(rows) == int(alive.sum()):
        return rows, order, sorted_rows
    _, _, kept, rows, order = _restrict_sorted_rows(rows, order, alive)
    if sorted_rows is not None:
        sorted_rows = sorted_rows.ravel().take(kept).reshape(len(rows), len(rows))
    return rows, order, sorted_rows


def _restrict_sorted_rows(rows, order, alive):
    """A state's rows and their distance orders restricted to the remaining examples ``alive``.

    Each kept row keeps exactly the remaining examples, in the same distance order: one mask
    over the parent's rows (removed rows cleared), then flat indices and ``take`` (several times
    faster than copying the kept rows first or boolean-mask indexing).

    Parameters
    ----------
    rows : ndarray of int
        The parent state's centres.
    order : ndarray of shape (len(rows), len(rows))
        Each of those rows' examples by increasing distance.
    alive : ndarray of bool of shape (m,)
        The remaining examples (a subset of ``rows``).

    Returns
    -------
    row_alive : ndarray of bool
        Which of ``rows`` remain.
    mask : ndarray of bool, shape of ``order``
        Which entries of ``order`` remain.
    kept : ndarray of int
        Their flat indices (apply them to any array laid out as ``order``).
    rows, order : ndarray
        The restricted centres and orders.
    """
    row_alive = alive[rows]
    mask = alive[order]
    mask[~row_alive] = False
    kept = np.flatnonzero(mask)
    rows = rows[row_alive]
    return row_alive, mask, kept, rows, order.ravel().take(kept).reshape(len(rows), len(rows))


def _score(sd, y01, alive, in_compression, allowed, parent, weights=None, keep_sorted=True) -> _ScoredState:
    """Covered and error counts of every (remaining centre, remaining border) ball.

    Written with arithmetic on 0/1 arrays rather than ``np.where``: a data-dependent ``where``
    over m² elements costs about ten times an addition. With ``weights`` (positive, int64 or
    float64, one per example) the counts are sums of the weights of the examples counted.
    """
    rows, order, sorted_rows = _restrict(sd, alive, parent, keep_sorted or sd.has_ties or in_compression is not None)
    state = _ScoredState(alive=alive, rows=rows, order=order, sorted_rows=sorted_rows)
    n_alive = len(rows)
    dtype = np.int16 if n_alive < 16_000 else np.int32  # 2 * counts must fit
    label_sorted = y01[order]
    border_positive = label_sorted.view(np.int8)
    n_pos = int(y01[rows].sum())
    groups = _tie_groups(sorted_rows, dtype) if sd.has_ties else None
    if weights is None:
        pos_strict, pos_incl = _inside_counts(label_sorted, groups)
        if groups is None:
            group_start = np.arange(n_alive, dtype=dtype)[None, :]
            group_end = group_start
        else:
            group_start, group_end = groups[2:]
        all_counts = (group_start, group_end + 1, n_alive)
        pos_counts = (pos_strict, pos_incl, n_pos)
    else:
        w_sorted = weights[order]
        all_counts = _weighted_inside_counts(w_sorted, groups)
        pos_counts = _weighted_inside_counts(w_sorted * label_sorted, groups)
    # The classes of centre and border fix the type (module table): the rule outputs 1 iff
    # the border is negative (Pi, Po) and fires inside iff centre and border differ (Pi, Ni).
    centre_positive = y01[rows].view(np.int8)[:, None]
    inside = centre_positive ^ border_positive  # 0/1
    covered, errors = _fire_counts(inside, border_positive, all_counts, pos_counts)
    valid = covered > 0
    if not allowed.all():
        valid &= _type_allowed(allowed, inside.view(bool), label_sorted)
    if in_compression is not None:
        compression = np.flatnonzero(in_compression & alive)
        if len(compression):
            to_compression = sd.distances[np.ix_(rows, compression)]
            valid &= _compression_ok(sorted_rows, to_compression, y01[compression], label_sorted, inside.view(bool))
    if valid.any():
        covered *= valid  # 0 marks an inadmissible candidate (an admissible one covers >= 1)
        errors_p_p = errors * border_positive  # output-0 rules err on positives: penalised by p_p
        state.label_sorted = label_sorted
        state.covered, state.errors_p_p, state.errors_p_n = covered, errors_p_p, errors - errors_p_p
    return state


def _fire_counts(inside, border_positive, all_counts, pos_counts):
    """Covered and erred counts of every candidate ball, from inside counts along sorted rows.

    ``all_counts`` and ``pos_counts`` are ``(strict, inclusive, total)`` for all examples and for
    the positive ones: ``strict[k, j]`` (``inclusive[k, j]``) counts those strictly inside
    (inside or on) the ball of centre ``k`` whose border is at position ``j``, ``total`` all of
    them (a number or a column). ``inside`` (0/1) is 1 for a Pi/Ni candidate, ``border_positive``
    (0/1) 1 for an output-0 one (Ni/No). The rule fires strictly inside or strictly outside; it
    covers the positives it fires on when its output is 1 (negative border), the negatives when
    it is 0, and errs on the rest of what it fires on. Counts of examples, or sums of weights.
    """
    strict_all, incl_all, total_all = all_counts
    strict_pos, incl_pos, total_pos = pos_counts
    outside_all = total_all - incl_all
    fire_all = outside_all + inside * (strict_all - outside_all)
    outside_pos = total_pos - incl_pos
    fire_pos = outside_pos + inside * (strict_pos - outside_pos)
    covered = fire_pos + border_positive * (fire_all - 2 * fire_pos)
    return covered, fire_all - covered


def _weighted_inside_counts(weights_sorted, groups):
    """``(strict, inclusive, total)`` weight sums along sorted rows, for :func:`_fire_counts`.

    ``weights_sorted[k, j]``: the weight of the ``j``-th nearest remaining example to centre
    ``k`` (0 for an example not counted). ``total`` is each row's own sum (a column), so that
    ``total - inclusive`` is exactly 0 at the end of a row, in floating point too.
    """
    inclusive = np.cumsum(weights_sorted, axis=1)
    strict = inclusive - weights_sorted
    total = inclusive[:, -1:].copy() if inclusive.shape[1] else np.zeros((inclusive.shape[0], 1), inclusive.dtype)
    if groups is not None:
        starts, ends = groups[:2]
        strict = _value_at_group_start(strict, starts)
        upper = np.inf if inclusive.dtype.kind == "f" else (int(total.max(initial=0)) + 1)
        inclusive = _value_at_group_end(inclusive, ends, upper=upper)
    return strict, inclusive, total


def _wide(counts):
    """Integer counts as int64 (float weight sums as float64), for the tie-breaking keys."""
    return counts.astype(np.float64 if counts.dtype.kind == "f" else np.int64)


def _kind_of(centre_positive: bool, border_positive: bool) -> int:
    if centre_positive:
        return _NO if border_positive else _PI
    return _NI if border_positive else _PO


def canonical_order(X, y) -> np.ndarray:
    """The canonical order of a training set: lexicographic on the features, then on the label.

    The greedy step breaks ties between equally useful balls by example index (Figure 1 leaves
    the choice open). Running it on the examples in this order makes the learnt list independent
    of the order of the caller's rows: only examples with identical features *and* label keep
    their relative order, and those are interchangeable (same distances, same class, hence the
    same balls).

    Parameters
    ----------
    X : ndarray of shape (m, n_features)
    y : array-like of shape (m,)
        Labels of any sortable type (compared through their rank in ``np.unique(y)``).

    Returns
    -------
    ndarray of int, shape (m,)
        ``order`` such that ``X[order], y[order]`` is the canonical order; position ``i`` of the
        canonical order is the caller's row ``order[i]``.
    """
    X = np.asarray(X, dtype=float)
    labels = np.unique(np.asarray(y), return_inverse=True)[1].reshape(-1)
    if X.ndim != 2 or X.shape[0] != labels.shape[0]:
        raise ValueError(f"X must be 2-D with one row per label, got shapes {X.shape} and {labels.shape}")
    # np.lexsort sorts by its last key first: feature 0, ..., feature n-1, then the label
    return np.lexsort((labels,) + tuple(X.T[::-1])).astype(np.intp)


def decision_list_path_predictions(fires, outputs, defaults):
    """Outputs (0/1) of every prefix of a decision list.

    Parameters
    ----------
    fires : ndarray of bool, shape (n_samples, r)
        ``fires[i, j]``: rule ``j`` fires on example ``i``.
    outputs : ndarray of shape (r,)
        ``b_1 .. b_r`` in {0, 1}.
    defaults : ndarray of shape (r,)
        Default output of the list truncated to ``t + 1`` rules, for ``t = 0 .. r-1``.

    Returns
    -------
    ndarray of shape (r, n_samples)
        Row ``t``: outputs of the list truncated to its first ``t + 1`` rules.
    """
    fires = np.asarray(fires, dtype=bool)
    n, r = fires.shape
    if r == 0:
        return np.zeros((0, n), dtype=int)
    first = np.where(fires.any(axis=1), fires.argmax(axis=1), r)  # the first rule that fires
    first_output = np.asarray(outputs)[np.minimum(first, r - 1)]
    lengths = np.arange(1, r + 1)[:, None]
    return np.where(first[None, :] < lengths, first_output[None, :], np.asarray(defaults)[:, None]).astype(int)
