"""The Decision List Machine and the Set Covering Machine with data-dependent balls (paper 01).

Sokolova, Marchand, Japkowicz and Shawe-Taylor, *The Decision List Machine*, NIPS 15 (2002);
Marchand and Shawe-Taylor, *The Set Covering Machine*, JMLR 3 (2002).

A *decision list* (Section 2) is ``if h_1(x) then b_1 elif h_2(x) then b_2 ... else b_{r+1}``.
Its features here are *data-dependent balls* (Section 3): a ball centred on a training example
``x_c`` with radius given by the distance to a *border* example ``x_b``. Four types exist
(spec §7.3), named by the class of the centre and by where the rule fires:

====  ========  ======  ===========================  =================  ======
type  centre    border  fires on ``x`` when           output ``b``       strict
====  ========  ======  ===========================  =================  ======
Pi    positive  neg.    ``d(x, x_c) <  d(x_b, x_c)``  1 (positive)       yes
Po    negative  neg.    ``d(x, x_c) >  d(x_b, x_c)``  1 (positive)       --
Ni    negative  pos.    ``d(x, x_c) <  d(x_b, x_c)``  0 (negative)       yes
No    positive  pos.    ``d(x, x_c) >  d(x_b, x_c)``  0 (negative)       --
====  ========  ======  ===========================  =================  ======

(The paper's ``± ε`` becomes a strict inequality: "inside, radius ``d − ε``" is ``d(x,x_c) < d``,
"outside a ball of radius ``d + ε``" is ``d(x,x_c) > d``.)

:class:`DecisionListMachine` is BuildDLM of Figure 1 over these balls; the *simple* machine uses
Pi/Ni only, the *complex* one all four. :class:`BallSetCoveringMachine` is the SCM with balls:
a conjunction uses only the output-0 types (Ni/No, positive borders), a disjunction only the
output-1 types (Pi/Po, negative borders); it is BuildDLM restricted to one output and stopping
only when the class it covers is exhausted (spec §7.7).

Implementation. The m×m distance matrix is computed and each row argsorted once per fit
(:class:`SortedDistances`, reusable across fits on the same training set). Every greedy step
scores all O(m²) (centre, border) candidates at once: for each remaining centre, cumulative
counts of the remaining positives/negatives along its sorted row give, at every border position,
how many remaining examples lie strictly inside / inside-or-on the ball. Because the list only
grows, one fit with stopping point ``s`` yields every shorter machine too (the *prefix
property*): :meth:`DecisionListMachine.staged_predict` yields the predictions of all of them.

Ties. Usefulness is compared exactly (integer arithmetic, each penalty taken as the decimal
number it prints as: ``2.1`` is 21/10), so two balls tie only when their usefulness is equal, and
no rounding, BLAS kernel or thread count can change which ball is chosen. The greedy breaks ties
by cover, errors, output and then example index (see :func:`greedy_ball_list`); the estimators
run it on the examples in :func:`canonical_order` (lexicographic on features, then label) and map
the indices back, so the learnt list does not depend on the order of the training rows.
Distances come from SciPy's ``cdist`` (a direct per-pair sum, no matrix product), so a training
point is at exactly the same distance from a centre in ``fit`` and in ``predict``.

On your own data. Distances are taken in the input's units, unscaled (as in the paper): a column
in thousands swamps one in fractions. Put a scaler first, ``make_pipeline(StandardScaler(),
DecisionListMachine(...))``, and tune the penalties and ``s`` (the defaults are weak on data
they were not tuned for; the class docstrings give a grid and measured errors). Both machines
give ``decision_function`` (a signed margin relative to the deciding ball's radius) and
``predict_proba`` (Laplace-corrected training frequencies of the deciding ball), print their
balls by their centres' feature values (``to_text``) and tabulate them (``balls_frame``).

>>> import numpy as np
>>> X = np.array([[0.0], [1.0], [2.0], [3.0], [10.0], [11.0]])
>>> y = np.array(["a", "a", "b", "b", "a", "a"])
>>> dlm = DecisionListMachine(p_p=np.inf, p_n=np.inf, s=5, ball_type="simple").fit(X, y)
>>> bool((dlm.predict(X) == y).all()), dlm.n_balls_
(True, 1)
>>> print(dlm.to_text(["age"]))
if ||x - (age=3)||_2 < 2 then 'b'
else 'a'
>>> dlm.decision_function([[3.0], [2.5], [1.0], [30.0]]).round(3).tolist()
[2.0, 1.75, -0.5, -0.963]
>>> dlm.predict_proba([[3.0], [30.0]]).round(3).tolist()  # ball: 2 'b' of 2; default: 4 'a' of 4
[[0.25, 0.75], [0.833, 0.167]]
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from numbers import Integral, Real

import numpy as np
import pandas as pd
from scipy.spatial.distance import cdist
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from companion.numerics import stable_argsort_rows
from companion.interpretable import (
    InterpretableMixin,
    binary_only_error,
    check_numeric_input,
    laplace_proba,
    resolve_feature_names,
)

__all__ = [
    "Ball",
    "SortedDistances",
    "BlockedSortedDistances",
    "DecisionListMachine",
    "BallSetCoveringMachine",
    "BALL_TYPES",
    "resolve_metric",
    "canonical_order",
    "decision_list_path_predictions",
]

#: The four ball types of Section 3, in the tie-breaking order used by the greedy step.
BALL_TYPES = ("Pi", "Po", "Ni", "No")
_PI, _PO, _NI, _NO = range(4)
_TYPE_INSIDE = np.array([True, False, True, False])
_TYPE_OUTPUT = np.array([1, 1, 0, 0])

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
# BlockedSortedDistances scores this many (centre, border) candidates per block (about 4 MB per
# int32 temporary): small enough that the allocator reuses the blocks' memory from one block to
# the next (fresh pages cost more than the arithmetic on them), large enough to amortise the calls.
_BLOCKED_CANDIDATES = 2**20
# Peak bytes per squared example of a fit on the full SortedDistances (float64 distances, their
# sorted copy and intp order, 24 bytes, plus the scored state and its temporaries): measured
# 5.5 GB at m = 10000, so 56 m^2 with a small margin.
_FULL_BYTES_PER_PAIR = 56
# Largest training set a fit without given sorted distances puts in the full layout: beyond it the
# blocked layout is faster for one fit (measured at m = 3000 on 2 cores: 3.0 s against 6.8 s; at
# m = 1000 they are level), and far smaller. A grid that shares one SortedDistances across fits
# (notebook 01) keeps the full layout's memoised states whatever m.
_FULL_LAYOUT_MAX_M = 2000
# Working memory of the blocked path beyond its order array: a block's temporaries plus a margin
# for the interpreter and the data (measured peak at m = 20000: see benchmarks/README.md).
_BLOCKED_OVERHEAD_BYTES = 400 * 2**20
# BlockedSortedDistances restricts its view to the remaining examples once at most this fraction
# of the view's examples remain: the copy (at most 0.7^2 = 49% of the view) then pays for itself
# within a step, and the peak stays below 1.5 times the order array (root + the first copy).
_RESTRICT_FRACTION = 0.7


def resolve_metric(metric) -> str:
    """Map ``metric`` (``"l1"``, ``"l2"``, ``"linf"`` or a SciPy ``cdist`` name) to a ``cdist`` name.

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
    accepted = {"seuclidean", "sqeuclidean", "minkowski", "canberra", "braycurtis", "cosine", "correlation"}
    if key in accepted:
        return key
    raise ValueError(
        f"metric must be one of 'l1', 'l2', 'linf' (or a SciPy cdist metric such as 'canberra'), got {metric!r}"
    )


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


@dataclass(frozen=True)
class Ball:
    """One rule of a learnt decision list (one data-dependent ball, Section 3).

    Attributes
    ----------
    kind : str
        ``"Pi"``, ``"Po"``, ``"Ni"`` or ``"No"``.
    centre_index, border_index : int
        Row numbers, in the training set, of the ball's centre and border examples.
    radius : float
        ``d(x_centre, x_border)``.
    inside : bool
        True if the rule fires strictly inside the radius, False if strictly outside.
    output
        The class the rule outputs when it fires (a label of ``classes_``).
    """

    kind: str
    centre_index: int
    border_index: int
    radius: float
    inside: bool
    output: object


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
        """Distances of example ``i`` to every example."""
        return self.distances[i]

    def columns(self, indices) -> np.ndarray:
        """Distances of every example to the examples ``indices``, shape ``(m, len(indices))``."""
        return self.distances[:, indices]

    def _best_balls(self, y01, alive, in_compression, allowed, p_p, p_n, parent):
        """The most useful candidates of one greedy step (all exactly tied), or ``None``.

        Returns ``(candidates, state)``: ``candidates`` a dict of equal-length arrays ``rank``
        (orders the candidates by centre index, then by position along the centre's sorted
        row), ``centre``, ``border``, ``border_positive``, ``covered`` and ``errors``; ``state``
        the scored state, handed back as ``parent`` at the next step.
        """
        state = self._scored_state(y01, alive, in_compression, allowed, parent)
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
            "covered": state.covered.ravel()[tied].astype(np.int64),
            "errors": state.errors_p_p.ravel()[tied].astype(np.int64) + state.errors_p_n.ravel()[tied],
        }
        return candidates, state

    def permuted(self, order) -> "SortedDistances":
        """The sorted distances of the examples taken in ``order`` (memoised per order).

        The fits of a grid on one training set all ask for the same (canonical) order, so they
        share one re-sort and one memo of scored states; an identity order returns ``self``.
        """
        order = np.asarray(order, dtype=np.intp)
        if order.shape != (self.n_samples,):
            raise ValueError(f"order must be a permutation of the {self.n_samples} examples, got shape {order.shape}")
        if (order == np.arange(self.n_samples)).all():
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

    def _scored_state(self, y01, alive, in_compression, allowed, parent):
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
        )
        cache = self.__dict__.setdefault("_cache", {})
        if key in cache:
            cache[key] = cache.pop(key)  # most recently used last
            return cache[key]
        state = _score(self, y01, alive, in_compression, allowed, parent)
        cache[key] = state
        # bytes held, kept up to date rather than summed over the cache at every insertion
        self._cache_bytes = self.__dict__.get("_cache_bytes", 0) + state.nbytes
        while self._cache_bytes > self._CACHE_BYTES and len(cache) > 1:
            oldest = next(iter(cache))
            self._cache_bytes -= cache.pop(oldest).nbytes
        return state


class BlockedSortedDistances:
    """The sorted distances in O(m^2) *bytes*: the memory-bounded twin of :class:`SortedDistances`.

    :class:`SortedDistances` holds the float64 distances, their sorted copy and the int64 order,
    24 bytes per pair of examples, and a greedy step scores every candidate at once (about 56
    bytes per pair at the peak, 22 GB at m = 20000). This class keeps only what the greedy needs
    and cannot recompute cheaply:

    * ``order`` -- for each centre the examples by increasing distance (stable), as ``uint16``
      (``uint32`` past 65536 examples): 2 bytes per pair;
    * ``tie_bits`` -- one bit per pair, set where a position of a sorted row starts a new group
      of equal distances (distances are compared exactly, so tie groups must be exact).

    Distances themselves are recomputed from ``X`` when needed (a ball's radius, the examples it
    fires on, the compression constraint), with the same ``cdist`` call per pair, so they are
    bit-identical to those of :class:`SortedDistances`. Each greedy step scores the candidates a
    block of centres at a time (:data:`_BLOCKED_CANDIDATES` candidates per block) and keeps only
    the most useful ones, so the working memory is a few tens of MB whatever ``m``; once few
    enough examples remain, a fit continues on a copy restricted to them (:class:`_BlockedView`).
    The balls
    chosen are those :class:`SortedDistances` gives (same counts, same exact usefulness, same tie
    order; ``tests/test_decision_list.py`` compares the two on data with duplicate points and
    tied distances). Scored states are not memoised: a grid of fits on one training set costs
    each fit its own steps.

    Parameters
    ----------
    X : array-like of shape (m, n_features)
        The training examples (in the order the greedy will see them).
    metric : str, default="euclidean"
        As for :meth:`SortedDistances.from_points`.

    Attributes
    ----------
    X : ndarray of shape (m, n_features)
    metric : str
    order : ndarray of shape (m, m), uint16 or uint32
    tie_bits : ndarray of shape (m, ceil(m / 8)), uint8
        ``np.packbits`` of the group-start flags of each sorted row.
    has_ties : bool
        Whether any row has two equal distances.
    """

    def __init__(self, X, metric: str = "euclidean"):
        X = np.ascontiguousarray(X, dtype=np.float64)
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D, got shape {X.shape}")
        if not np.isfinite(X).all():
            raise ValueError("X must be finite")
        self.X = X
        self.metric = resolve_metric(metric)
        m = X.shape[0]
        self.order = np.empty((m, m), dtype=np.uint16 if m <= 2**16 else np.uint32)
        self.tie_bits = np.empty((m, (m + 7) // 8), dtype=np.uint8)
        has_ties = False
        for rows in _row_blocks(m, m):
            distances = cdist(X[rows], X, metric=self.metric)
            self.order[rows], starts = stable_argsort_rows(distances, self.order.dtype, return_group_starts=True)
            has_ties = has_ties or not starts.all()
            self.tie_bits[rows] = np.packbits(starts, axis=1)
        self.has_ties = has_ties

    def permuted(self, order) -> "BlockedSortedDistances":
        """The sorted distances of the examples taken in ``order`` (rebuilt; identity: ``self``)."""
        order = np.asarray(order, dtype=np.intp)
        if order.shape != (self.n_samples,):
            raise ValueError(f"order must be a permutation of the {self.n_samples} examples, got shape {order.shape}")
        if (order == np.arange(self.n_samples)).all():
            return self
        return BlockedSortedDistances(self.X[order], self.metric)

    @staticmethod
    def estimated_bytes(m: int) -> int:
        """Peak bytes of a fit on ``m`` examples: the order, the tie bits and the working memory."""
        index_bytes = 2 if m <= 2**16 else 4
        # the order, and a restricted copy of at most _RESTRICT_FRACTION^2 of it
        per_pair = (index_bytes + 1 / 8) * (1 + _RESTRICT_FRACTION**2)
        return int(per_pair * m * m) + _BLOCKED_OVERHEAD_BYTES

    @property
    def n_samples(self) -> int:
        return self.X.shape[0]

    @property
    def nbytes(self) -> int:
        """Memory held by the order and the tie bits (the examples are the caller's)."""
        return self.order.nbytes + self.tie_bits.nbytes

    def row(self, i: int) -> np.ndarray:
        """Distances of example ``i`` to every example (recomputed)."""
        return cdist(self.X[i : i + 1], self.X, metric=self.metric)[0]

    def columns(self, indices) -> np.ndarray:
        """Distances of every example to the examples ``indices``, shape ``(m, len(indices))``."""
        return cdist(self.X, self.X[np.asarray(indices, dtype=np.intp)], metric=self.metric)

    def _best_balls(self, y01, alive, in_compression, allowed, p_p, p_n, parent=None):
        """As :meth:`SortedDistances._best_balls`, scored a block of remaining centres at a time.

        The counts are those of :func:`_score`, taken along the sorted rows of a *view*
        (:class:`_BlockedView`) with the removed examples masked out: a removed example
        contributes to no count and is no border, and the tie groups of a row, restricted to the
        remaining examples, are the remaining examples' tie groups. When at most
        :data:`_RESTRICT_FRACTION` of the view's examples remain, the view is first restricted to
        them (a copy of ``order`` and ``tie_bits`` over the remaining rows and columns), so later
        steps cost O(|S'|^2) as in the full layout. ``rank`` is ``centre * width + position``,
        which orders candidates as the full layout's flat index does. ``parent`` is the view of
        the previous step (``None``: the whole training set); the view is returned as the state.
        """
        m = self.n_samples
        y01 = np.asarray(y01, dtype=bool)
        view = parent if parent is not None else _BlockedView(np.arange(m), self.order, self.tie_bits)
        n_alive = int(np.count_nonzero(alive))
        if n_alive <= _RESTRICT_FRACTION * view.width:
            view = view.restricted(alive, self.has_ties)
        width = view.width
        local_centres = np.flatnonzero(alive[view.examples])
        n_pos = int(y01[alive].sum())
        compression = None
        if in_compression is not None:
            compression = np.flatnonzero(in_compression & alive)
            if not len(compression):
                compression = None
        q, a_p, a_n, dtype, bound = _exact_penalties(p_p, p_n, n_alive)
        floor = -(bound + 1)
        best, found = floor, []
        # one gather per block instead of two: bit 1 "remaining", bit 0 "positive"
        codes = (np.asarray(alive, dtype=np.uint8) << 1) | y01
        for block in _row_blocks(len(local_centres), width):
            local_rows = local_centres[block]
            rows = view.examples[local_rows]
            order = view.order[local_rows]
            codes_sorted = np.take(codes, order)
            alive_sorted = codes_sorted >= 2
            label_sorted = (codes_sorted & 1).view(bool)
            positive_sorted = codes_sorted == 3
            incl_all = np.cumsum(alive_sorted, axis=1, dtype=np.int32)
            incl_pos = np.cumsum(positive_sorted, axis=1, dtype=np.int32)
            excl_all = incl_all - alive_sorted
            excl_pos = incl_pos - positive_sorted
            if self.has_ties:
                starts = np.unpackbits(view.tie_bits[local_rows], axis=1, count=width).view(bool)
                ends = np.ones(starts.shape, dtype=bool)
                ends[:, :-1] = starts[:, 1:]
                excl_all = _value_at_group_start(excl_all, starts)
                excl_pos = _value_at_group_start(excl_pos, starts)
                incl_all = _value_at_group_end(incl_all, ends)
                incl_pos = _value_at_group_end(incl_pos, ends)
            border_positive = label_sorted.view(np.int8)
            inside = y01[rows].view(np.int8)[:, None] ^ border_positive  # 0/1, as in _score
            outside_all = n_alive - incl_all
            fire_all = outside_all + inside * (excl_all - outside_all)
            outside_pos = n_pos - incl_pos
            fire_pos = outside_pos + inside * (excl_pos - outside_pos)
            covered = fire_pos + border_positive * (fire_all - 2 * fire_pos)
            errors = fire_all - covered
            valid = alive_sorted & (covered > 0)
            if not allowed.all():
                valid &= _type_allowed(allowed, inside.view(bool), label_sorted)
            if compression is not None:
                sorted_rows = np.take_along_axis(
                    cdist(self.X[rows], self.X, metric=self.metric), order.astype(np.intp), axis=1
                )
                to_compression = cdist(self.X[rows], self.X[compression], metric=self.metric)
                valid &= _compression_ok(
                    sorted_rows, to_compression, y01[compression], label_sorted, inside.view(bool)
                )
            errors_p_p = errors * border_positive  # output-0 rules err on positives
            usefulness = _exact_usefulness(
                covered, errors_p_p, errors - errors_p_p, q, a_p, a_n, p_p, p_n, dtype, floor
            )
            usefulness[~valid] = floor
            block_best = usefulness.max()
            if block_best < best or block_best == floor:
                continue
            hits = np.flatnonzero(usefulness == block_best)
            row, position = np.divmod(hits, width)
            hit = {
                "rank": rows[row].astype(np.int64) * width + position,
                "centre": rows[row],
                "border": order[row, position].astype(np.intp),
                "border_positive": label_sorted[row, position],
                "covered": covered[row, position].astype(np.int64),
                "errors": errors[row, position].astype(np.int64),
            }
            if block_best > best:
                best, found = block_best, [hit]
            else:
                found.append(hit)
        if not found:
            return None, view
        return {key: np.concatenate([hit[key] for hit in found]) for key in found[0]}, view


@dataclass
class _BlockedView:
    """The rows and columns of :class:`BlockedSortedDistances` that one greedy fit still uses.

    ``examples`` (increasing) are the examples the view covers; row ``k`` of ``order`` lists them
    by increasing distance from ``examples[k]`` (as global indices), ``tie_bits`` marks where
    each of its tie groups starts.
    """

    examples: np.ndarray
    order: np.ndarray
    tie_bits: np.ndarray

    @property
    def width(self) -> int:
        return len(self.examples)

    def restricted(self, alive, has_ties: bool) -> "_BlockedView":
        """The view over the remaining examples only (rows and columns), a block of rows at a time.

        Every sorted row keeps the remaining examples in the same order; a kept position starts
        a tie group when its group in the full row differs from that of the previous kept one.
        """
        keep_rows = np.flatnonzero(alive[self.examples])
        width = len(keep_rows)
        order = np.empty((width, width), dtype=self.order.dtype)
        tie_bits = np.empty((width, (width + 7) // 8), dtype=np.uint8)
        for block in _row_blocks(width, self.width):
            rows = keep_rows[block]
            full = self.order[rows]
            kept = alive[full]
            order[block] = full[kept].reshape(len(rows), width)
            if has_ties:
                starts = np.unpackbits(self.tie_bits[rows], axis=1, count=self.width).view(bool)
                group = np.cumsum(starts, axis=1, dtype=np.int32)[kept].reshape(len(rows), width)
                new_starts = np.ones((len(rows), width), dtype=bool)
                np.not_equal(group[:, 1:], group[:, :-1], out=new_starts[:, 1:])
                tie_bits[block] = np.packbits(new_starts, axis=1)
            else:
                tie_bits[block] = 255
        return _BlockedView(self.examples[keep_rows], order, tie_bits)


def _row_blocks(n_rows: int, width: int):
    """Slices of ``n_rows`` rows, about :data:`_BLOCKED_CANDIDATES` / ``width`` rows each."""
    step = max(1, _BLOCKED_CANDIDATES // max(width, 1))
    return [slice(start, min(n_rows, start + step)) for start in range(0, n_rows, step)]


def _sorted_distances_within(X, metric, max_memory_gb, learner):
    """The sorted-distance layout for one fit: the faster one that fits ``max_memory_gb``.

    :class:`SortedDistances` up to :data:`_FULL_LAYOUT_MAX_M` examples when its ``56 m^2`` bytes
    fit; :class:`BlockedSortedDistances` (about ``2 m^2`` bytes) otherwise. Beyond about 2000
    examples the blocked layout is also the faster for a single fit (the full one spends its
    time filling fresh m x m arrays); both learn the same list. Raises ``MemoryError`` naming the
    limit, before allocating, when neither fits.
    """
    m = X.shape[0]
    limit = np.inf if max_memory_gb is None else max_memory_gb * 2**30
    if m <= _FULL_LAYOUT_MAX_M and _FULL_BYTES_PER_PAIR * m * m <= limit:
        return SortedDistances.from_points(X, metric)
    needed = BlockedSortedDistances.estimated_bytes(m)
    if needed > limit:
        raise MemoryError(
            f"{learner}: a fit on {m} examples needs about {needed / 2**30:.1f} GB (the sorted "
            f"distances of every pair, 2 bytes each, plus working memory), more than "
            f"max_memory_gb={max_memory_gb}. Set max_memory_gb to at least "
            f"{np.ceil(needed / 2**30 * 10) / 10:.1f} if the machine has the memory (None: no limit), "
            f"or fit on a subsample."
        )
    return BlockedSortedDistances(X, metric)


def _type_allowed(allowed, is_inside, label_sorted):
    """Candidates whose type (inside/outside, border class) is among the ``allowed`` ones."""
    pi, po, ni, no = (bool(v) for v in allowed)
    type_allowed = np.zeros(label_sorted.shape, dtype=bool)
    combinations = ((pi, True, False), (po, False, False), (ni, True, True), (no, False, True))
    for ok, inside_wanted, border_wanted in combinations:
        if ok:
            type_allowed |= (is_inside if inside_wanted else ~is_inside) & (
                label_sorted if border_wanted else ~label_sorted
            )
    return type_allowed


def _compression_ok(sorted_rows, to_compression, compression_positive, label_sorted, is_inside):
    """Candidates that fire on no remaining compression example of their border's class.

    An inside rule needs every such example at distance >= the border's, an outside rule at
    distance <= the border's (spec §7.4).
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


def _value_at_group_end(values, ends):
    """``values`` (non-decreasing along each row, in ``[0, n]``) taken at the end of each group.

    A reversed running minimum of the values kept at group ends (``n + 1`` elsewhere; ``2n + 1``
    fits the int16 counts used for ``n < 16000``).
    """
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
):
    """BuildDLM (Figure 1) over data-dependent balls, vectorised over all candidates.

    Parameters
    ----------
    sd : SortedDistances
        Sorted distances of the ``m`` training examples.
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
        remaining (spec §7.4, our enforcement of the paper's constraint).
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
    allowed = np.zeros(4, dtype=bool)
    for name in types:
        allowed[BALL_TYPES.index(name)] = True
    alive = np.ones(m, dtype=bool)
    in_compression = np.zeros(m, dtype=bool)
    kinds, centres, borders, radii = [], [], [], []
    limit = np.inf if max_balls is None else max_balls
    state = None
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
            y01, alive, in_compression if compression_constraint else None, allowed, p_p, p_n, state
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
        code = _kind_of(bool(y01[centre]), bool(y01[border]))
        to_centre = sd.row(centre)
        radius = to_centre[border]
        fired = to_centre < radius if _TYPE_INSIDE[code] else to_centre > radius
        if removal == "covered":
            fired = fired & (y01 == bool(_TYPE_OUTPUT[code]))
        alive = alive & ~fired
        in_compression = in_compression.copy()
        in_compression[[centre, border]] = True
        kinds.append(code)
        centres.append(centre)
        borders.append(border)
        radii.append(radius)
    return {
        "kind": np.array(kinds, dtype=int),
        "centre": np.array(centres, dtype=int),
        "border": np.array(borders, dtype=int),
        "radius": np.array(radii, dtype=float),
    }


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
    q, a_p, a_n, dtype, bound = _exact_penalties(p_p, p_n, n_cols)
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


def _restrict(sd, alive, parent):
    """Rows and columns of the sorted distances restricted to the remaining examples."""
    if parent is None:
        rows, order, sorted_rows = np.arange(sd.n_samples), sd.order, sd.sorted_rows
    else:
        rows, order, sorted_rows = parent.rows, parent.order, parent.sorted_rows
    if len(rows) == int(alive.sum()):
        return rows, order, sorted_rows
    keep_rows = np.flatnonzero(alive[rows])
    rows, order, sorted_rows = rows[keep_rows], order[keep_rows], sorted_rows[keep_rows]
    # each row keeps exactly the remaining examples, in the same distance order (flat indices
    # and take: several times faster than boolean-mask indexing)
    kept = np.flatnonzero(alive[order])
    n_left = len(rows)
    order = order.ravel().take(kept).reshape(n_left, n_left)
    return rows, order, sorted_rows.ravel().take(kept).reshape(n_left, n_left)


def _score(sd, y01, alive, in_compression, allowed, parent) -> _ScoredState:
    """Covered and error counts of every (remaining centre, remaining border) ball.

    Written with arithmetic on 0/1 arrays rather than ``np.where``: a data-dependent ``where``
    over m² elements costs about ten times an addition.
    """
    rows, order, sorted_rows = _restrict(sd, alive, parent)
    state = _ScoredState(alive=alive, rows=rows, order=order, sorted_rows=sorted_rows)
    n_alive = len(rows)
    dtype = np.int16 if n_alive < 16_000 else np.int32  # 2 * counts must fit
    label_sorted = y01[order]
    border_positive = label_sorted.view(np.int8)
    n_pos = int(y01[rows].sum())
    n_neg = n_alive - n_pos
    groups = _tie_groups(sorted_rows, dtype) if sd.has_ties else None
    pos_strict, pos_incl = _inside_counts(label_sorted, groups)
    if groups is None:
        group_start = np.arange(n_alive, dtype=dtype)[None, :]
        group_end = group_start
    else:
        group_start, group_end = groups[2:]
    # The classes of centre and border fix the type (module table): the rule outputs 1 iff
    # the border is negative (Pi, Po) and fires inside iff centre and border differ (Pi, Ni).
    centre_positive = y01[rows].view(np.int8)[:, None]
    inside = centre_positive ^ border_positive  # 0/1
    # examples (all / positive) on which the rule fires: strictly inside (positions before the
    # tie group) or strictly outside (positions after it)
    outside_all = (n_alive - 1) - group_end
    fire_all = outside_all + inside * (group_start - outside_all)
    outside_pos = n_pos - pos_incl
    fire_pos = outside_pos + inside * (pos_strict - outside_pos)
    # covered: positives for output 1 (negative border), negatives for output 0
    covered = fire_pos + border_positive * (fire_all - 2 * fire_pos)
    errors = fire_all - covered
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


def _kind_of(centre_positive: bool, border_positive: bool) -> int:
    if centre_positive:
        return _NO if border_positive else _PI
    return _NI if border_positive else _PO


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


class _BallListBase(InterpretableMixin, ClassifierMixin, BaseEstimator):
    """Shared fit/predict/score/text machinery of the DLM and the SCM with balls."""

    #: SCM: any firing ball decides (conjunction/disjunction); DLM: the first firing ball.
    _any_ball_decides = False

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    # -- subclasses provide these ------------------------------------------------------------
    def _validate_params(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def _learn(self, sd, y01):  # pragma: no cover - abstract
        raise NotImplementedError

    def _prefix_defaults(self, outputs):  # pragma: no cover - abstract
        raise NotImplementedError

    # -- shared ------------------------------------------------------------------------------
    def _check_s(self):
        if self.s is not None:
            if isinstance(self.s, (bool, np.bool_)) or not isinstance(self.s, Integral):
                raise TypeError(f"s (the stopping point) must be a positive int or None, got {self.s!r}")
            if self.s < 1:
                raise ValueError(f"s (the stopping point) must be >= 1, got {self.s}")

    @staticmethod
    def _check_penalty(name, value):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real):
            raise TypeError(f"{name} must be a non-negative number (np.inf allowed), got {value!r}")
        if not value >= 0:
            raise ValueError(f"{name} must be a non-negative number (np.inf allowed), got {value!r}")

    def _check_max_memory(self):
        value = self.max_memory_gb
        if value is None:
            return
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real):
            raise TypeError(f"max_memory_gb must be a positive number of gigabytes or None, got {value!r}")
        if not value > 0:
            raise ValueError(f"max_memory_gb must be a positive number of gigabytes or None, got {value!r}")

    @staticmethod
    def _check_bool(name, value):
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{name} must be a bool, got {value!r}")

    def fit(self, X, y, sorted_distances: SortedDistances | None = None):
        """Learn the list of balls.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features, used as they are: distances are in the input's units (scale them
            first, e.g. ``make_pipeline(StandardScaler(), ...)``, unless the units are
            comparable). A non-numeric DataFrame column is refused with its name.
        y : array-like of shape (n_samples,)
            Two classes of any type; ``classes_[1]`` is the "positive" class.
        sorted_distances : SortedDistances, optional
            Precomputed for these ``X`` under this metric (shares the sort across a grid).

        Returns
        -------
        self
        """
        self._validate_params()
        self._metric = resolve_metric(self.metric)
        check_numeric_input(X, type(self).__name__)
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        if len(self.classes_) > 2:
            raise binary_only_error(type(self).__name__, len(self.classes_))
        y01 = y_index.astype(int)
        m = X.shape[0]
        if sorted_distances is not None and (
            not isinstance(sorted_distances, (SortedDistances, BlockedSortedDistances))
            or sorted_distances.n_samples != m
        ):
            raise ValueError(
                f"sorted_distances must be a SortedDistances of the {m} rows of X, got {sorted_distances!r}"
            )
        # The greedy breaks ties by example index: run it in the canonical order of the examples
        # so that the learnt list does not depend on the order of the caller's rows, and map every
        # index back to the caller's rows below.
        order = canonical_order(X, y01)
        y01_canonical = y01[order]
        if sorted_distances is None:
            sorted_distances = _sorted_distances_within(X[order], self._metric, self.max_memory_gb, type(self).__name__)
        else:
            sorted_distances = sorted_distances.permuted(order)
        # integer counts; argmax takes classes_[0] on a tie
        majority = int(np.bincount(y01, minlength=2).argmax()) if len(self.classes_) == 2 else 0
        if len(self.classes_) == 1:
            learnt = greedy_ball_list(sorted_distances, y01_canonical, p_p=1.0, p_n=1.0, max_balls=0)
        else:
            learnt = self._learn(sorted_distances, y01_canonical)
        kinds, radii = learnt["kind"], learnt["radius"]
        centres, borders = order[learnt["centre"]], order[learnt["border"]]  # caller's rows
        outputs = _TYPE_OUTPUT[kinds] if len(kinds) else np.zeros(0, dtype=int)
        inside = _TYPE_INSIDE[kinds] if len(kinds) else np.zeros(0, dtype=bool)
        # D is in canonical order: select the canonical centre columns, then put the rows back
        # into the caller's order
        to_centres = sorted_distances.columns(learnt["centre"])
        train_fires = np.empty((m, len(kinds)), dtype=bool)
        train_fires[order] = np.where(inside, to_centres < radii, to_centres > radii)
        defaults = self._prefix_defaults(outputs)
        train_path = decision_list_path_predictions(train_fires, outputs, defaults)
        path = _path_statistics(train_path, y01, centres, borders)
        r = len(kinds)
        if getattr(self, "compression_constraint", False) and r and not path["compression_correct"][-1]:
            # The final default misclassifies a remaining compression example: keep the longest
            # prefix that classifies its whole compression set correctly (spec §7.4).
            ok = np.flatnonzero(path["compression_correct"])
            r = int(ok[-1]) + 1 if len(ok) else 0
        self._kinds, self._centres, self._borders, self._radii = kinds[:r], centres[:r], borders[:r], radii[:r]
        self._outputs, self._inside = outputs[:r], inside[:r]
        self._defaults = defaults[:r]
        # With the constraint, a fit stopped at s = t returns the longest prefix of length <= t
        # that classifies its compression set right; staged_predict reproduces that choice.
        if getattr(self, "compression_constraint", False) and r:
            correct = path["compression_correct"][:r]
            self._path_source = np.maximum.accumulate(np.where(correct, np.arange(r), 0))
        else:
            self._path_source = np.arange(r)
        self._default01 = int(defaults[r - 1]) if r else majority
        self.n_balls_ = r
        self.complexity_ = r  # one literal (a ball test) per rule
        self.centres_ = X[self._centres]
        self.balls_ = [
            Ball(BALL_TYPES[k], int(c), int(b), float(rad), bool(ins), self.classes_[o])
            for k, c, b, rad, ins, o in zip(self._kinds, self._centres, self._borders, self._radii, inside, outputs)
        ]
        self.default_ = self.classes_[self._default01] if len(self.classes_) == 2 else self.classes_[0]
        self.compression_set_ = np.unique(np.concatenate([self._centres, self._borders])).astype(int)
        self.compression_labels_ = self.classes_[y01[self.compression_set_]] if len(self.classes_) == 2 else (
            np.full(len(self.compression_set_), self.classes_[0])
        )
        self.path_ = pd.DataFrame(
            {"n_balls": np.arange(1, r + 1), **{c: path[c][:r] for c in _PATH_COLUMNS},
             "fitted_n_balls": self._path_source + 1}
        )
        self.n_positive_, self.n_negative_ = int(y01.sum()), int(m - y01.sum())
        # predict_proba: class counts of the training examples in each cell (ball that decides,
        # then the default), integers, Laplace-corrected once here
        n_classes = len(self.classes_)
        cells = _first_firing(train_fires[:, :r])
        self.cell_counts_ = np.bincount(cells * n_classes + y01, minlength=(r + 1) * n_classes).reshape(
            r + 1, n_classes
        )
        self._cell_proba = laplace_proba(self.cell_counts_)
        return self

    def _distances(self, X):
        if self.n_balls_ == 0:
            return np.zeros((len(X), 0))
        return cdist(X, self.centres_, metric=self._metric)

    def _fires(self, X):
        return _fires_from(self._distances(X), self._inside, self._radii)

    def staged_predict(self, X):
        """Predictions of every prefix of the learnt list (the prefix property), as a generator.

        As scikit-learn's boosting estimators do, it yields one array per stage: the labels
        predicted by the machine truncated to its first ``k`` balls, for ``k = 1 .. n_balls_``,
        i.e. what a fit with stopping point ``s = k`` returns (with
        ``compression_constraint=True``: the longest such prefix that classifies its compression
        set right). The last item equals :meth:`predict`; nothing is yielded when
        ``n_balls_ == 0``. All prefixes are computed at once (one pass over the balls), then
        yielded.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Yields
        ------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        path01 = decision_list_path_predictions(self._fires(X), self._outputs, self._defaults)[self._path_source]
        labels = self.classes_[path01] if len(self.classes_) == 2 else np.full(path01.shape, self.classes_[0])
        yield from labels

    def predict(self, X):
        """Class labels predicted by the learnt list (Section 2's definition of ``f``)."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        if self.n_balls_ == 0:
            return np.full(X.shape[0], self.default_)
        path01 = decision_list_path_predictions(self._fires(X), self._outputs, self._defaults)
        return self.classes_[path01[-1]]

    def decision_function(self, X):
        """Signed margin: positive favours ``classes_[1]``; ``predict`` is its sign (see Scores).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
            ``±(1 + depth)`` in ``(1, 2]`` where a ball decides, ``depth`` being how far inside
            its firing region the point lies relative to the radius; ``±(1 + escape) / 2`` in
            ``[1/2, 1]`` where the default decides, ``escape`` being how far the point lies from
            the nearest firing region, relative to its radius. The sign is the output's.
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        distances = self._distances(X)
        fires = _fires_from(distances, self._inside, self._radii)
        # relative signed distance to each ball's surface, in [-1, 1]: (d - r) / max(d, r),
        # 0 on the surface (d == r, the radius 0 included)
        scale = np.maximum(distances, self._radii)
        with np.errstate(divide="ignore", invalid="ignore"):
            rho = np.where(scale > 0, (distances - self._radii) / scale, 0.0)
        # depth > 0 exactly where the ball fires (strict inequality); elsewhere -depth >= 0 is
        # the escape. The sign of the result never depends on these floats: it is the output of
        # the deciding rule, taken from the same comparisons as predict.
        depth = np.where(self._inside, -rho, rho)
        n = X.shape[0]
        escape = (-depth).min(axis=1, initial=1.0, where=~fires) if self.n_balls_ else np.ones(n)
        escape = np.clip(escape, 0.0, 1.0)
        sign_default = 1.0 if (len(self.classes_) == 2 and self._default01 == 1) else -1.0
        scores = sign_default * (1.0 + escape) / 2.0
        if self.n_balls_:
            decided = fires.any(axis=1)
            if self._any_ball_decides:
                # SCM: a conjunction (disjunction) is refuted (confirmed) by any of its balls;
                # every ball has the same output, the deepest one sets the margin
                ball_depth = np.max(depth, axis=1, initial=0.0, where=fires)
                ball_output = np.full(n, self._outputs[0])
            else:
                first = _first_firing(fires)
                chosen = np.minimum(first, self.n_balls_ - 1)
                ball_depth = np.take_along_axis(depth, chosen[:, None], axis=1)[:, 0]
                ball_output = self._outputs[chosen]
            ball_scores = np.where(ball_output == 1, 1.0, -1.0) * (1.0 + np.clip(ball_depth, 0.0, 1.0))
            scores = np.where(decided, ball_scores, scores)
        return scores

    def predict_proba(self, X):
        """Laplace-corrected class frequencies of the training examples in the same cell.

        The cell of a point is the first ball that fires on it (the default when none does):
        ``(n_c + 1) / (n + k)`` over the ``n`` training examples of that cell (``cell_counts_``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            In the units the balls were learnt in (scaled as the training inputs); NaN is refused.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            One row per point, one column per entry of ``classes_``; a ball's cell of ``n``
            training examples, none of some class, still gives that class ``1 / (n + k)``.
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return self._cell_proba[_first_firing(self._fires(X))]

    # -- readable model ----------------------------------------------------------------------
    def balls_frame(self, feature_names=None) -> pd.DataFrame:
        """The learnt balls as a table, one row per ball in list order (index ``ball``: 1, 2, ...).

        Parameters
        ----------
        feature_names : sequence of str, optional
            Names of the input columns (default ``feature_names_in_``, else ``x0, x1, ...``).

        Returns
        -------
        pandas.DataFrame
            Columns ``kind`` (Pi/Po/Ni/No), ``fires`` ("inside": ``d(x, centre) < radius``;
            "outside": ``>``), ``radius`` (in the input's units), ``output`` (the class when the
            ball decides), ``n_covered`` / ``n_errors`` (training examples the ball decides,
            of its output class / of the other class), ``centre_index`` and ``border_index``
            (training rows), then the centre's value of every feature (a feature whose name
            clashes with one of these columns appears as ``centre:<name>``).
        """
        check_is_fitted(self)
        names = resolve_feature_names(self, feature_names)
        r = self.n_balls_
        counts = self.cell_counts_[:r]
        out_index = self._outputs if len(self.classes_) == 2 else np.zeros(r, dtype=int)
        covered = counts[np.arange(r), out_index] if r else np.zeros(0, dtype=int)
        frame = pd.DataFrame(
            {
                "kind": [BALL_TYPES[k] for k in self._kinds],
                "fires": np.where(self._inside, "inside", "outside"),
                "radius": np.asarray(self._radii, dtype=float),
                "output": self.classes_[out_index] if r else self.classes_[:0],
                "n_covered": covered.astype(int),
                "n_errors": (counts.sum(axis=1) - covered).astype(int),
                "centre_index": np.asarray(self._centres, dtype=int),
                "border_index": np.asarray(self._borders, dtype=int),
            },
            index=pd.RangeIndex(1, r + 1, name="ball"),
        )
        reserved = set(frame.columns)
        centres = pd.DataFrame(
            self.centres_.reshape(r, len(names)),
            columns=[f"centre:{name}" if name in reserved else name for name in names],
            index=frame.index,
        )
        return pd.concat([frame, centres], axis=1)

    def _render_text(self, feature_names: list[str], *, decimals: int = 4, max_inline: int = 4) -> str:
        """The learnt list as ``if … else if … else`` text, one ball per line (``to_text``).

        A ball reads ``||x - centre||_2 < radius`` (``_1``, ``_inf`` for the other norms; a
        SciPy metric by its name). With at most ``max_inline`` features the centre is written
        inline by its feature values, ``(age=54, income=3100)``; with more, the balls are
        written ``c1, c2, ...`` and a table of their centres (one row per feature, one column
        per ball) follows the list. Values are in the input's units (after a scaler in a
        pipeline: in its units; see :func:`companion.interpretable.pipeline_text`).

        Parameters
        ----------
        feature_names : sequence of str, optional
            One name per input column; default ``feature_names_in_``, else ``x0, x1, ...``.
        decimals : int, default=4
            Rounding of radii and centre coordinates.
        max_inline : int, default=4
            Largest number of features written inline in each line.
        """
        for name, value in (("decimals", decimals), ("max_inline", max_inline)):
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, Integral) or value < 0:
                raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
        return self._render(feature_names, int(decimals), int(max_inline))

    def _render(self, names, decimals, max_inline) -> str:
        inline = len(names) <= max_inline
        lines = []
        for t, ball in enumerate(self.balls_):
            keyword = "if" if t == 0 else "else if"
            sign = "<" if ball.inside else ">"
            if inline:
                centre = "(" + ", ".join(
                    f"{name}={_number(v, decimals)}" for name, v in zip(names, self.centres_[t])
                ) + ")"
            else:
                centre = f"c{t + 1}"
            lines.append(
                f"{keyword} {_distance_text(self._metric, centre)} {sign} {_number(ball.radius, decimals)}"
                f" then {_plain(ball.output)!r}"
            )
        default = _plain(self.default_)
        lines.append(f"else {default!r}" if lines else f"always {default!r}")
        if lines[:-1] and not inline:
            table = pd.DataFrame(
                [[_number(v, decimals) for v in row] for row in self.centres_.T],
                index=pd.Index(names, name="centres"),
                columns=[f"c{t + 1}" for t in range(self.n_balls_)],
            )
            lines.append(table.to_string())
        return "\n".join(lines)


def _fires_from(distances, inside, radii):
    """``fires[i, j]``: ball ``j`` fires on point ``i`` (strictly inside / strictly outside)."""
    return np.where(inside, distances < radii, distances > radii)


def _first_firing(fires) -> np.ndarray:
    """Index of the first firing ball of every row, ``r`` (the default) when none fires."""
    fires = np.asarray(fires, dtype=bool)
    r = fires.shape[1]
    if r == 0:
        return np.zeros(fires.shape[0], dtype=np.intp)
    return np.where(fires.any(axis=1), fires.argmax(axis=1), r).astype(np.intp)


_NORM_SUBSCRIPTS = {"euclidean": "2", "cityblock": "1", "chebyshev": "inf"}


def _distance_text(metric: str, centre: str) -> str:
    """``||x - centre||_2`` for the norms, ``canberra(x, centre)`` for other SciPy metrics."""
    if metric in _NORM_SUBSCRIPTS:
        return f"||x - {centre}||_{_NORM_SUBSCRIPTS[metric]}"
    return f"{metric}(x, {centre})"


def _number(value, decimals: int) -> str:
    """``value`` rounded to ``decimals`` places, positional, trailing zeros dropped."""
    text = np.format_float_positional(round(float(value), decimals) + 0.0, trim="-")
    return "0" if text == "-0" else text


_PATH_COLUMNS = ("k_p", "k_n", "c_p", "c_n", "b_p", "b_n", "compression_correct")


def _penalty(value) -> float:
    """A penalty parameter as the float of the decimal it prints as.

    Python floats, NumPy float64 and integers are unchanged; a NumPy float32 ``2.1`` (which is
    2.0999999046... in binary) becomes the float64 2.1, so that the exact comparison of
    usefulness (:func:`_most_useful`) reads it as 21/10, the number the caller wrote.
    """
    if isinstance(value, np.floating) and not np.isinf(value):
        return float(str(value))
    return float(value)


def _plain(value):
    """A NumPy scalar as the equivalent Python scalar (for readable text)."""
    return value.item() if isinstance(value, np.generic) else value


def _path_statistics(train_path, y01, centres, borders) -> dict[str, np.ndarray]:
    """Per prefix: training errors, compression-set sizes and whether it is classified right.

    Column names follow Theorem 1: ``k_p``/``k_n`` errors on positives/negatives; ``c_p``/``c_n``
    positive/negative centres; ``b_p``/``b_n`` positive/negative borders that are not centres;
    ``compression_correct``: the prefix classifies every example of its compression set right.
    Returned as one array per column (the estimator builds ``path_`` from them once).
    """
    y01 = np.asarray(y01).astype(bool)
    r = len(centres)
    if r == 0:
        return {c: np.zeros(0, dtype=bool if c == "compression_correct" else int) for c in _PATH_COLUMNS}
    wrong = train_path != y01[None, :]
    prefixes = np.arange(r)
    members = np.union1d(centres, borders)
    # first prefix in which each member is a centre / a border (r if never)
    first_centre = np.full(len(members), r)
    first_border = np.full(len(members), r)
    np.minimum.at(first_centre, np.searchsorted(members, centres), prefixes)
    np.minimum.at(first_border, np.searchsorted(members, borders), prefixes)
    is_centre = first_centre[:, None] <= prefixes[None, :]  # (members, prefixes)
    is_border = (first_border[:, None] <= prefixes[None, :]) & ~is_centre
    positive = y01[members][:, None]
    in_compression = is_centre | is_border
    return {
        "k_p": (wrong & y01).sum(axis=1),
        "k_n": (wrong & ~y01).sum(axis=1),
        "c_p": (is_centre & positive).sum(axis=0),
        "c_n": (is_centre & ~positive).sum(axis=0),
        "b_p": (is_border & positive).sum(axis=0),
        "b_n": (is_border & ~positive).sum(axis=0),
        "compression_correct": ~(wrong[:, members] & in_compression.T).any(axis=1),
    }


class DecisionListMachine(_BallListBase):
    """Decision List Machine with data-dependent balls (Sokolova et al. 2002, Figure 1).

    Usefulness is compared exactly, each penalty as the decimal number it prints as (``2.1`` is
    21/10; see :func:`greedy_ball_list`). Ties between equally useful balls go to the larger cover,
    then fewer errors, then output 1, then a canonical order of the examples (lexicographic on
    features, then label), so the learnt list does not depend on the row order or on rounding;
    the indices in ``balls_`` and ``compression_set_`` refer to the caller's rows.

    Parameters
    ----------
    p_p : float, default=1.0
        Penalty per error on a positive example (``classes_[1]``); ``np.inf`` forbids such errors.
    p_n : float, default=1.0
        Penalty per error on a negative example (``classes_[0]``).
    s : int or None, default=10
        Stopping point: the largest number of balls (None: stop only when a class is exhausted).
    ball_type : {"simple", "complex"}, default="complex"
        "simple": Pi and Ni balls only; "complex": all four types (Section 3).
    metric : str, default="l2"
        ``"l2"``, ``"l1"``, ``"linf"`` or a SciPy ``cdist`` metric name. No scaling is applied.
    compression_constraint : bool, default=False
        Enforce that the returned list classifies its compression set correctly (needed for
        Theorems 1 and 2; Section 4). Balls that would misclassify a remaining compression example
        are not considered and, if the final default misclassifies one, the list is cut to the
        longest prefix that does not.
    max_memory_gb : float or None, default=4.0
        Peak memory the fit may use for its sorted distances, in GiB. Up to 2000 examples the
        fit keeps every distance (:class:`SortedDistances`, 56 bytes per pair at the peak: 0.2 GB
        at m = 2000); beyond, it keeps 2 bytes per pair and scores the candidates in blocks
        (:class:`BlockedSortedDistances`: about 1 GB and under a minute for 20000 examples, see
        the README's speed section). The learnt list is the same either way. A fit that cannot
        stay within the limit raises ``MemoryError`` before allocating (the default allows about
        40000 examples). ``None``: no limit.

    Attributes
    ----------
    complexity_ : int
        Size of the model: its literals, here one ball test per rule (``n_balls_``).
    classes_ : ndarray of shape (2,)
    balls_ : list of Ball
        The rules in order: type, centre index, border index, radius, inside/outside, output
        (:meth:`balls_frame` tabulates them with their centres' feature values).
    default_ :
        Output when no ball fires (``¬b_r``, Figure 1 step 6); with no ball at all, the majority
        class of the training set (``classes_[0]`` if both classes are equally frequent).
    n_balls_ : int
    centres_ : ndarray of shape (n_balls_, n_features)
    compression_set_ : ndarray of int
        Training indices of the centres and borders (Section 4).
    compression_labels_ : ndarray
        Their labels.
    path_ : pandas.DataFrame
        One row per prefix length ``n_balls``: training errors ``k_p``, ``k_n``, compression
        counts ``c_p``, ``c_n``, ``b_p``, ``b_n``, ``compression_correct``, and
        ``fitted_n_balls``: the size of the machine a fit with ``s = n_balls`` returns (smaller
        only under the compression constraint).
    cell_counts_ : ndarray of int, shape (n_balls_ + 1, n_classes)
        Training examples of each class per cell: row ``j`` those whose first firing ball is
        ball ``j + 1``, the last row those that reach the default (the basis of ``predict_proba``).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When fitted on a DataFrame; they name the centres' coordinates in ``to_text``.

    Notes
    -----
    **Units and scaling.** Distances are in the input's units, unscaled as in the paper, and the
    defaults are weak on data they were not tuned for. On your own table, scale and tune::

        model = make_pipeline(StandardScaler(), DecisionListMachine())
        grid = {"decisionlistmachine__p_p": [0.5, 1, 2, 4], "decisionlistmachine__p_n": [0.5, 1, 2, 4],
                "decisionlistmachine__s": [2, 5, 10, 20], "decisionlistmachine__ball_type": ["simple", "complex"],
                "decisionlistmachine__metric": ["l2", "l1"]}
        GridSearchCV(model, grid, cv=5)

    (one fit with ``s = 20`` gives every smaller ``s`` through :meth:`staged_predict`, which is
    how ``companion.experiments.paper01`` searches it quickly). 10-fold CV error, the grid chosen
    by an inner 5-fold CV on each training fold (nested; a pruned CART for comparison):

    =================================  =============  =====  ============
    10-fold CV error                   breast_cancer  sonar  credit (crx)
    =================================  =============  =====  ============
    defaults, raw features             0.097          0.419  0.314
    defaults, StandardScaler first     0.091          0.288  0.257
    StandardScaler + the grid above    0.063          0.221  0.214
    pruned CART (``ccp_alpha`` tuned)  0.072          0.270  0.136
    =================================  =============  =====  ============

    (sklearn's breast_cancer; :func:`companion.datasets.load_sonar`; the Australian credit
    data in its crx form, nominal columns one-hot, ``paper01.load_table1_dataset("credit")``;
    outer ``StratifiedKFold(10, shuffle=True, random_state=0)``, inner 5-fold.) The search
    mostly chose simple balls, ``p_p = p_n = 4`` and ``s`` of 10-20; a wider grid (penalties
    up to 8, ``s`` up to 40) did no better. On credit no ball machine comes near a tree.

    **Scores.** ``decision_function`` is a signed margin, positive for ``classes_[1]``, whose sign
    is ``predict``. Let ``rho = (d - r) / max(d, r)`` be the distance ``d`` of ``x`` to a ball's
    centre relative to its radius ``r`` (0 on the surface). The ball's *depth* is how far ``x``
    lies in its firing region (``-rho`` for an inside ball, ``rho`` for an outside one, in
    ``(0, 1]`` where it fires); where a ball decides, the score is ``±(1 + depth)`` with the
    sign of its output, in ``(1, 2]``; where the default decides, ``±(1 + escape) / 2``, in
    ``[1/2, 1]``, ``escape`` being the smallest ``-depth`` over the balls (how far ``x`` is from
    the nearest firing region). A point deep in a ball thus ranks beyond one near its surface,
    and a point left to the default scores closer to 0 than any point a ball decides, which
    makes ranking (ROC AUC) meaningful. No decision is taken on these floats: the sign comes
    from the same strict comparisons as ``predict``.
    ``predict_proba`` is the Laplace-corrected class frequency ``(n_c + 1) / (n + 2)`` of the
    training examples in the point's cell (``cell_counts_``: the first ball that fires, or the
    default). Its argmax is usually ``predict``, but not always: with small penalties a ball
    may err on more training examples than it covers, and the examples that reach the default
    can be mostly of the other class; a cell no training example reached gets ``1/2, 1/2``.

    **Reading the model.** ``to_text()`` prints each ball by its centre's feature values,
    ``if ||x - (age=54, income=3100)||_2 < 5.4 then 'benign'``; with more than ``max_inline``
    features the balls are named ``c1, c2, ...`` and a table of the centres follows.
    :meth:`balls_frame` gives the same as a DataFrame. In a pipeline, the names (and units)
    are those of the step before: :func:`companion.interpretable.pipeline_text`.

    Examples
    --------
    >>> from sklearn.datasets import make_moons
    >>> X, y = make_moons(200, noise=0.1, random_state=0)
    >>> dlm = DecisionListMachine(p_p=2.0, p_n=2.0, s=6).fit(X, y)
    >>> dlm.n_balls_ <= 6, len(list(dlm.staged_predict(X))) == dlm.n_balls_
    (True, True)
    >>> bool(((dlm.decision_function(X) > 0) == (dlm.predict(X) == 1)).all())
    True
    """

    def __init__(
        self, *, p_p=1.0, p_n=1.0, s=10, ball_type="complex", metric="l2", compression_constraint=False,
        max_memory_gb=4.0,
    ):
        self.p_p = p_p
        self.p_n = p_n
        self.s = s
        self.ball_type = ball_type
        self.metric = metric
        self.compression_constraint = compression_constraint
        self.max_memory_gb = max_memory_gb

    def _validate_params(self):
        self._check_max_memory()
        self._check_penalty("p_p", self.p_p)
        self._check_penalty("p_n", self.p_n)
        self._check_s()
        if not isinstance(self.ball_type, str) or self.ball_type not in ("simple", "complex"):
            raise ValueError(f"ball_type must be 'simple' (Pi/Ni) or 'complex' (all four), got {self.ball_type!r}")
        self._check_bool("compression_constraint", self.compression_constraint)

    def _learn(self, sd, y01):
        types = ("Pi", "Ni") if self.ball_type == "simple" else BALL_TYPES
        return greedy_ball_list(
            sd,
            y01,
            p_p=_penalty(self.p_p),
            p_n=_penalty(self.p_n),
            types=types,
            max_balls=self.s,
            stop_when="either_empty",
            compression_constraint=bool(self.compression_constraint),
        )

    def _prefix_defaults(self, outputs):
        # Figure 1, step 6: b_{r+1} = not b_r, for every prefix length r.
        return 1 - np.asarray(outputs, dtype=int)


class BallSetCoveringMachine(_BallListBase):
    """Set Covering Machine with data-dependent balls (Marchand & Shawe-Taylor 2002; spec §7.7).

    A conjunction outputs ``classes_[1]`` unless one of its balls fires (each ball is a rule
    "fires → ``classes_[0]``": Ni and No balls, positive borders); a disjunction is the same with
    the classes swapped (Pi and Po balls, negative borders). Greedy: usefulness
    ``|Q| - p |R|`` (``Q`` covered examples of the class being covered, ``R`` errors on the other
    class), remove ``Q`` and ``R`` from the remaining examples, stop after ``s`` balls or when the
    covered class is exhausted.

    As for :class:`DecisionListMachine`, ties between equally useful balls are broken by a
    canonical order of the examples (lexicographic on features, then label), so the learnt list
    does not depend on the row order; the indices in ``balls_`` and ``compression_set_`` refer to
    the caller's rows.

    Parameters
    ----------
    p : float, default=1.0
        Penalty per error (``np.inf`` allowed).
    s : int or None, default=10
        Stopping point (largest number of balls).
    model_type : {"conjunction", "disjunction"}, default="conjunction"
    metric : str, default="l2"
    compression_constraint : bool, default=False
        As for :class:`DecisionListMachine` (needed for :func:`companion.bounds.decision_list.scm_bound`).
    max_memory_gb : float or None, default=4.0
        As for :class:`DecisionListMachine`.

    Attributes
    ----------
    complexity_ : int
        Size of the model: its literals, here one ball test each (``n_balls_``).
    Same as :class:`DecisionListMachine`.

    Notes
    -----
    **Units and scaling.** As for :class:`DecisionListMachine`: distances are in the input's
    units; scale first and tune, e.g. ``make_pipeline(StandardScaler(),
    BallSetCoveringMachine())`` with ``{"ballsetcoveringmachine__p": [0.5, 1, 2, 4],
    "ballsetcoveringmachine__s": [2, 5, 10, 20], "ballsetcoveringmachine__model_type":
    ["conjunction", "disjunction"], "ballsetcoveringmachine__metric": ["l2", "l1"]}``.
    10-fold CV error (nested selection as in :class:`DecisionListMachine`):

    =================================  =============  =====  ============
    10-fold CV error                   breast_cancer  sonar  credit (crx)
    =================================  =============  =====  ============
    defaults, raw features             0.104          0.351  0.328
    defaults, StandardScaler first     0.084          0.370  0.273
    StandardScaler + the grid above    0.033          0.221  0.239
    =================================  =============  =====  ============

    The search mostly chose disjunctions, ``p`` of 2-4.

    **Scores.** The order of the balls does not matter to a conjunction or a disjunction, so
    ``decision_function`` takes the deepest firing ball rather than the first: with ``depth``
    and ``escape`` as in :class:`DecisionListMachine`, a point on which some ball fires scores
    ``±(1 + max depth)`` (sign of the balls' common output: negative for a conjunction), one on
    which none fires ``±(1 + escape) / 2`` (the default's sign), ``escape`` measuring how far it
    lies from the nearest ball. ``predict`` is its sign. ``predict_proba`` is, as for the DLM,
    the Laplace-corrected class frequency of the training examples whose *first* firing ball is
    the point's (or that no ball fires: ``cell_counts_``), the cells of the list as learnt; its
    argmax is usually, not always, ``predict``.

    **Reading the model.** ``to_text()`` writes the machine as the equivalent decision list
    (``if ball 1 fires then classes_[0] else if ... else classes_[1]`` for a conjunction), each
    ball by its centre's feature values; :meth:`balls_frame` tabulates the balls.

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> X, y = make_blobs(100, centers=[[0, 0], [4, 0]], random_state=0)
    >>> scm = BallSetCoveringMachine(p=1.0, s=3).fit(X, y)
    >>> bool((scm.predict(X) == y).mean() > 0.9)
    True
    >>> bool(((scm.decision_function(X) > 0) == (scm.predict(X) == 1)).all())
    True
    """

    def __init__(
        self, *, p=1.0, s=10, model_type="conjunction", metric="l2", compression_constraint=False, max_memory_gb=4.0
    ):
        self.p = p
        self.s = s
        self.model_type = model_type
        self.metric = metric
        self.compression_constraint = compression_constraint
        self.max_memory_gb = max_memory_gb

    def _validate_params(self):
        self._check_max_memory()
        self._check_penalty("p", self.p)
        self._check_s()
        if not isinstance(self.model_type, str) or self.model_type not in ("conjunction", "disjunction"):
            raise ValueError(f"model_type must be 'conjunction' or 'disjunction', got {self.model_type!r}")
        self._check_bool("compression_constraint", self.compression_constraint)

    def _learn(self, sd, y01):
        if self.model_type == "conjunction":
            types, stop, p_p, p_n = ("Ni", "No"), "negatives_empty", _penalty(self.p), 1.0
        else:
            types, stop, p_p, p_n = ("Pi", "Po"), "positives_empty", 1.0, _penalty(self.p)
        return greedy_ball_list(
            sd,
            y01,
            p_p=p_p,
            p_n=p_n,
            types=types,
            max_balls=self.s,
            stop_when=stop,
            compression_constraint=bool(self.compression_constraint),
        )

    _any_ball_decides = True

    def _prefix_defaults(self, outputs):
        default = 1 if self.model_type == "conjunction" else 0
        return np.full(len(outputs), default, dtype=int)


# --------------------------------------------------------------------------------------------
# The reconstruction function of Section 4 (learner code: the bounds in
# companion.bounds.decision_list only count the message it reads)
# --------------------------------------------------------------------------------------------

__all__ += ["ReconstructedList", "reconstruct_decision_list"]


@dataclass(frozen=True)
class ReconstructedList:
    """A decision list of balls rebuilt from a compression message (Section 4)."""

    centres: np.ndarray
    radii: np.ndarray
    inside: np.ndarray
    outputs: np.ndarray
    default: int
    metric: str

    def predict01(self, X) -> np.ndarray:
        """Outputs (1 = positive) of the rebuilt list on the rows of ``X``."""
        X = np.asarray(X, dtype=float)
        if len(self.radii) == 0:
            return np.full(len(X), self.default)
        distances = cdist(X, self.centres, metric=self.metric)
        fires = np.where(self.inside, distances < self.radii, distances > self.radii)
        defaults = 1 - self.outputs
        return decision_list_path_predictions(fires, self.outputs, defaults)[-1]


def reconstruct_decision_list(message, metric="l2") -> ReconstructedList:
    """Rebuild the decision list from its compression set (Section 4's reconstruction function).

    Start with ``C'_p, C'_n, B'_p, B'_n`` = the compression set's centres and borders; for each
    ball in order, centred on ``x_i``:

    * inside (Pi if ``x_i`` positive, Ni if negative): radius ``min d(x_i, x_j)`` over the
      remaining compression examples of the other class, rule fires on ``d < radius``;
    * outside (No if ``x_i`` positive, Po if negative): radius ``max d(x_i, x_j)`` over the
      remaining compression examples of its own class, rule fires on ``d > radius``;
    * output 1 for Pi/Po, 0 for Ni/No; then every remaining compression example on which the rule
      fires (the Pi/Ni centre among them) is removed from ``C'`` and ``B'``.

    The paper removes only the centre and the covered ``B'`` examples; removing covered ``C'``
    examples as well changes nothing with Pi/Ni balls (a covered example cannot be a later centre)
    and is what keeps a Po/No centre that was later covered out of later radii (our reading of
    "the same proof can be used" for Theorem 2). The default is ``not b_r``.

    ``message`` is a :class:`companion.bounds.decision_list.CompressionMessage` (or any object with
    its attributes ``X``, ``y``, ``is_centre``, ``balls``), e.g. from
    :func:`companion.bounds.decision_list.compression_message`.
    """
    metric = resolve_metric(metric)
    X = np.asarray(message.X, dtype=float)
    y = np.asarray(message.y, dtype=int)
    remaining = np.ones(len(X), dtype=bool)
    centres, radii, inside, outputs = [], [], [], []
    for row, covers_inside in message.balls:
        if not message.is_centre[row]:
            raise ValueError(f"ball centre {row} is not marked as a centre in the compression set")
        distances = cdist(X[row : row + 1], X, metric=metric)[0]
        centre_positive = y[row] == 1
        if covers_inside:
            reference = remaining & (y != y[row])
            radius = distances[reference].min()
            fires = distances < radius
            output = 1 if centre_positive else 0
        else:
            reference = remaining & (y == y[row])
            radius = distances[reference].max()
            fires = distances > radius
            output = 0 if centre_positive else 1
        remaining &= ~fires
        centres.append(X[row])
        radii.append(radius)
        inside.append(bool(covers_inside))
        outputs.append(output)
    n_features = X.shape[1] if X.ndim == 2 else 0
    outputs = np.array(outputs, dtype=int)
    return ReconstructedList(
        centres=np.array(centres, dtype=float).reshape(len(radii), n_features),
        radii=np.array(radii, dtype=float),
        inside=np.array(inside, dtype=bool),
        outputs=outputs,
        default=int(1 - outputs[-1]) if len(outputs) else 0,
        metric=metric,
    )
