"""WIDC: decision committees grown by partition boosting (Nock, JAIR 17, 2002).

A **decision committee** (DC) is an *unordered* set of rules ``(t_i, v_i)``, where ``t_i`` is a
monomial (a conjunction of Boolean literals) and ``v_i`` a vector with one component per class,
plus a default vector ``D``. An observation sums the vectors of the rules it satisfies and takes
the class of the largest component; ties ("ambiguous" observations, including those that satisfy
no rule) go to the class of largest ``D`` among the tied ones (paper, section "Decision
Committees"; the tie rule is reconstructed, spec 04 section 1.2).

WIDC (Weak Induction of Decision Committees) has three stages (paper, "Overview of WIDC"):

1. **Partition boosting** (paper, "Building a Large DC using Partition Boosting", eq. (1)):
   monomials are grown one literal at a time, each literal chosen to minimise Schapire &
   Singer's criterion ``Z = 2 sum_j sum_l sqrt(W+_{j,l} W-_{j,l})`` over the partition of the
   learning sample induced by the satisfaction patterns of all the monomials. A new monomial is
   started when no literal lowers Z; growth stops when a new monomial cannot lower Z.
2. **Rule vectors in {-1, 0, +1}^c** by ranking-loss boosting (paper, "Calculating Rule Vectors
   using Ranking Loss Boosting" and "Optimizing in our Setting"): sorted-class search over the
   ``(c+1)(c+2)/2`` non-increasing vectors, exact under single-label data; Lemma 2 is the
   two-class closed form.
3. **Pruning**, one of ``"pessimistic"`` (paper, "Pessimistic Pruning": the smallest DC of the
   lowest training error in a greedy removal sequence), ``"optimistic"`` (paper, "Optimistic
   Pruning": local error plus a Kearns-Mansour style penalty; the penalty formula was not
   recovered, so ours is **RECONSTRUCTED**) or ``"none"``.

Attributes are turned into Boolean variables on each training set (spec 04 section 1.4, our
choice where the paper's recipe was not recovered): a nominal attribute with ``k > 2`` values
gives ``k`` variables ``[A = a]``, a two-valued one a single variable, and a numeric attribute
gives variables ``[A <= theta]`` at supervised MDL cut points (Fayyad & Irani 1993), at most
``max_cuts`` of them (``numeric_literal="gt"`` makes ``A > theta`` the positive literal). A two-valued
nominal attribute's variable is ``[A = larger value]``, so 0/1 data give the literals ``x = 1`` and
``x = 0``. A missing value makes every literal on that attribute false.

>>> import numpy as np
>>> X = np.array([[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)], dtype=float)
>>> y = X[:, 0].astype(int) & X[:, 1].astype(int)
>>> dc = DecisionCommittee(nominal_features=[0, 1, 2]).fit(X, y)
>>> print(dc.to_text())
IF x0 = 1 AND x1 = 1 THEN (0: -1, 1: +1)
DEFAULT (0: 1, 1: 0)
>>> dc.n_rules_, dc.n_literals_
(1, 2)
"""

from __future__ import annotations

import copy
from collections import deque

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_scalar
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

__all__ = [
    "DecisionCommittee",
    "z_partition",
    "z_blocks",
    "score_literals",
    "grow_monomials",
    "rule_vectors",
    "committee_predict",
    "mdl_cut_points",
    "PRUNINGS",
]

PRUNINGS = ("pessimistic", "optimistic", "none")

# Budget (in float64 cells) of one chunk of the (literals x blocks x classes) score array.
_CHUNK_CELLS = 2_000_000


# --------------------------------------------------------------------------------------------
# Z over a partition (paper eq. (1))
# --------------------------------------------------------------------------------------------


def z_blocks(class_weights):
    """Schapire-Singer's ``Z`` of blocks given their class weights (paper eq. (1)).

    Parameters
    ----------
    class_weights : ndarray of shape (..., n_blocks, n_classes)
        ``class_weights[..., j, l]`` is ``W+_{j,l}``, the weight of class ``l`` in block ``j``;
        ``W-_{j,l}`` is the rest of the block's weight.

    Returns
    -------
    ndarray of shape (...)
        ``2 * sum_{j,l} sqrt(W+_{j,l} * W-_{j,l})``.
    """
    total = class_weights.sum(axis=-1, keepdims=True)
    # max(., 0) absorbs the -1e-17 that cancellation can leave in a pure block.
    return 2.0 * np.sqrt(np.maximum(class_weights * (total - class_weights), 0.0)).sum(axis=(-2, -1))


def z_partition(block_ids, y, sample_weight, n_classes):
    """``Z`` (paper eq. (1)) of the partition whose block of example ``i`` is ``block_ids[i]``.

    Parameters
    ----------
    block_ids : array-like of int, shape (n_samples,)
        Any integer labelling of the blocks (e.g. the leaf of a tree, or a pattern code).
    y : array-like of int, shape (n_samples,)
        Class indices in ``[0, n_classes)``.
    sample_weight : array-like of shape (n_samples,)
        The fixed distribution ``w`` over the learning sample.
    n_classes : int

    Returns
    -------
    float

    Examples
    --------
    >>> round(z_partition([0] * 8, [0] * 2 + [1] * 6, np.full(8, 1 / 8), 2), 6)
    1.732051
    """
    _, dense = np.unique(np.asarray(block_ids), return_inverse=True)
    y = np.asarray(y, dtype=np.intp)
    n_blocks = int(dense.max()) + 1 if dense.size else 0
    weights = np.bincount(
        dense * n_classes + y, weights=np.asarray(sample_weight, float), minlength=n_blocks * n_classes
    )
    return float(z_blocks(weights.reshape(n_blocks, n_classes)))


def pattern_codes(satisfied):
    """Dense block ids of the partition induced by satisfaction patterns.

    Two examples share a block iff they satisfy the same monomials (paper, partition boosting).

    Parameters
    ----------
    satisfied : ndarray of bool, shape (n_samples, n_monomials)

    Returns
    -------
    ndarray of int, shape (n_samples,)
    """
    satisfied = np.asarray(satisfied, dtype=bool)
    codes = np.zeros(satisfied.shape[0], dtype=np.int64)
    for column in satisfied.T:  # loop over monomials; each step is O(n_samples)
        codes = _relabel(2 * codes + column)
    return codes


def _relabel(keys):
    """Relabel non-negative integer keys densely (0..B-1), keeping their order, in O(N + max key)."""
    present = np.zeros(int(keys.max()) + 1 if keys.size else 0, dtype=np.int64)
    present[keys] = 1
    return (np.cumsum(present) - 1)[keys]


# --------------------------------------------------------------------------------------------
# Stage 1: partition boosting with a vectorised literal search (spec section 5)
# --------------------------------------------------------------------------------------------


def score_literals(literals, y, sample_weight, n_classes, base, inside):
    """``Z`` after appending each literal to the monomial being grown, all literals at once.

    The partition is that of the finalised monomials (``base``) refined by the monomial ``t``
    being grown; appending literal ``l`` replaces ``t`` by ``t AND l``. Only the examples inside
    ``t`` can change block, so with ``C0`` the class weights outside ``t``, ``A`` inside ``t`` and
    ``S_l`` inside ``t AND l`` (all per block of ``base``),
    ``Z(l) = Z(S_l) + Z(C0 + A - S_l)``. ``S_l`` for every literal comes from one segment sum
    over the inside examples sorted by (block, class).

    Parameters
    ----------
    literals : ndarray of bool, shape (n_samples, n_literals)
        Truth value of every literal on every example.
    y : ndarray of int, shape (n_samples,)
    sample_weight : ndarray of shape (n_samples,)
    n_classes : int
    base : ndarray of int, shape (n_samples,)
        Dense block ids of the partition induced by the finalised monomials.
    inside : ndarray of bool, shape (n_samples,)
        Which examples satisfy the monomial being grown.

    Returns
    -------
    ndarray of shape (n_literals,)
        ``Z`` of the partition obtained with each literal appended.
    """
    c = n_classes
    n_literals = literals.shape[1]
    inside_blocks, local = np.unique(base[inside], return_inverse=True)
    n_local = inside_blocks.size
    # Blocks with no example inside t are untouched by any literal: a constant term.
    outside = ~inside
    untouched = ~np.isin(base, inside_blocks)
    constant = 0.0
    if untouched.any():
        constant = z_partition(base[untouched], y[untouched], sample_weight[untouched], c)
    touched_out = outside & ~untouched
    block_of = np.full(base.max() + 1, -1, dtype=np.int64)
    block_of[inside_blocks] = np.arange(n_local)
    C0 = np.bincount(
        block_of[base[touched_out]] * c + y[touched_out],
        weights=sample_weight[touched_out],
        minlength=n_local * c,
    ).reshape(n_local, c)
    keys = local * c + y[inside]
    w_in = sample_weight[inside]
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
    # A (all inside weight) is summed in the same order as S, so that A - S is exactly 0 when a
    # literal keeps a whole (block, class) cell: sqrt would turn a 1e-18 residue into 1e-9.
    weighted = np.hstack([literals[inside][order], np.ones((order.size, 1), dtype=bool)]) * w_in[order, None]
    S = np.zeros((n_local * c, n_literals + 1))
    S[sorted_keys[starts]] = np.add.reduceat(weighted, starts, axis=0)
    S = S.reshape(n_local, c, n_literals + 1)
    A = S[:, :, -1]
    out = np.empty(n_literals)
    step = max(1, _CHUNK_CELLS // max(1, n_local * c))
    for lo in range(0, n_literals, step):  # chunks of literals bound the memory
        S_chunk = np.moveaxis(S[:, :, lo : min(lo + step, n_literals)], 2, 0)
        out[lo : lo + step] = z_blocks(S_chunk) + z_blocks(C0 + (A - S_chunk))
    return out + constant


def grow_monomials(literals, y, sample_weight, n_classes, *, literal_variable=None, max_rules=None):
    """Stage 1 of WIDC: grow a large set of monomials by partition boosting.

    Parameters
    ----------
    literals : ndarray of bool, shape (n_samples, n_literals)
        Column ``2v`` is the positive literal of variable ``v``, column ``2v+1`` its negation.
    y : ndarray of int, shape (n_samples,)
    sample_weight : ndarray of shape (n_samples,)
        Fixed distribution ``w``; WIDC never reweights.
    n_classes : int
    literal_variable : ndarray of int, shape (n_literals,), optional
        Variable of each literal; defaults to ``column // 2``. A monomial tests each variable once.
    max_rules : int or None
        Stop after this many monomials (None: the paper's rule, no cap).

    Returns
    -------
    monomials : list of tuple of int
        Literal ids of each monomial, in the order they were added.
    z_trace : list of float
        ``Z`` at the start and after every accepted literal (strictly decreasing).
    """
    n_samples, n_literals = literals.shape
    if literal_variable is None:
        literal_variable = np.arange(n_literals) // 2
    base = np.zeros(n_samples, dtype=np.int64)
    z_current = z_partition(base, y, sample_weight, n_classes)
    z_trace = [z_current]
    monomials: list[tuple[int, ...]] = []
    existing: set[frozenset] = set()
    while n_literals and (max_rules is None or len(monomials) < max_rules):
        term: list[int] = []
        inside = np.ones(n_samples, dtype=bool)
        while True:
            scores = score_literals(literals, y, sample_weight, n_classes, base, inside)
            # A variable is tested once per monomial (x AND NOT x is empty, x AND x a no-op).
            scores[np.isin(literal_variable, literal_variable[term])] = np.inf
            for monomial in existing:  # never add a monomial twice (paper); loop over rules only
                if len(monomial) == len(term) + 1 and monomial.issuperset(term):
                    (missing,) = monomial.difference(term)
                    scores[missing] = np.inf
            # Ties (up to rounding, which depends on the order of the examples): smallest id.
            lowest = scores.min()
            best = int(np.flatnonzero(scores <= lowest + 1e-12 * max(1.0, abs(lowest)))[0])
            tolerance = 1e-12 * max(1.0, z_current)
            if not scores[best] < z_current - tolerance:
                break  # no literal decreases Z
            term.append(best)
            inside &= literals[:, best]
            z_current = float(scores[best])
            z_trace.append(z_current)
        if not term:
            break  # a new monomial cannot decrease Z
        monomials.append(tuple(term))
        existing.add(frozenset(term))
        base = _relabel(2 * base + inside)
    return monomials, z_trace


def satisfaction(literals, monomials):
    """Boolean matrix (n_samples, n_monomials): which example satisfies which monomial."""
    out = np.ones((literals.shape[0], len(monomials)), dtype=bool)
    for k, monomial in enumerate(monomials):
        if monomial:
            out[:, k] = literals[:, list(monomial)].all(axis=1)
    return out


# --------------------------------------------------------------------------------------------
# Stage 2: rule vectors in {-1, 0, +1}^c (ranking-loss boosting, sorted-class search)
# --------------------------------------------------------------------------------------------


def _sorted_candidates(n_classes):
    """The (c+1)(c+2)/2 non-increasing vectors: +1 on a classes, 0 on b, -1 on the rest."""
    rows = []
    for a in range(n_classes + 1):
        for b in range(n_classes + 1 - a):
            rows.append([1] * a + [0] * b + [-1] * (n_classes - a - b))
    return np.array(rows, dtype=np.int64)


def ranking_loss_z(class_weights, vectors):
    """Ranking-loss ``Z_t(v)`` of rule vectors (spec 04 section 2.2; the paper's eqs. (2)-(3)).

    ``Z_t(v) = 1/(c-1) * sum_j W_j sum_{k != j} exp((v[k] - v[j]) / 2)``.

    Parameters
    ----------
    class_weights : ndarray of shape (..., c)
        ``W_l``: weight of class ``l`` among the examples satisfying the monomial.
    vectors : ndarray of shape (..., c)
        Broadcast against ``class_weights``.

    Returns
    -------
    ndarray of shape (...)
    """
    c = class_weights.shape[-1]
    half = np.asarray(vectors, dtype=float) / 2.0
    factor = np.exp(half).sum(-1) * (class_weights * np.exp(-half)).sum(-1) - class_weights.sum(-1)
    return factor / max(c - 1, 1)


def rule_vectors(class_weights):
    """Stage 2 of WIDC: the vector in {-1, 0, +1}^c minimising ``Z_t`` for each rule.

    Classes are sorted by decreasing weight; some optimal vector is non-increasing in that
    order (rearrangement inequality), so ``(c+1)(c+2)/2`` candidates suffice. Ties (e.g. every
    constant shift of a vector ties) go to (i) the fewest non-zero components, (ii) the largest
    sum, (iii) the first candidate in enumeration order (RECONSTRUCTED, spec 04 section 2.2). For
    ``c = 2`` this is Lemma 2 of the paper.

    Parameters
    ----------
    class_weights : ndarray of shape (n_rules, c)

    Returns
    -------
    ndarray of int, shape (n_rules, c)

    Examples
    --------
    >>> rule_vectors(np.array([[1.0, 4.5], [1.0, 1.7], [1.0, 1.0], [1.7, 1.0], [4.5, 1.0]]))
    array([[-1,  1],
           [ 0,  1],
           [ 0,  0],
           [ 1,  0],
           [ 1, -1]])
    """
    class_weights = np.atleast_2d(np.asarray(class_weights, dtype=float))
    n_rules, c = class_weights.shape
    candidates = _sorted_candidates(c)  # (K, c) in sorted-class order
    order = np.argsort(-class_weights, axis=1, kind="stable")
    sorted_weights = np.take_along_axis(class_weights, order, axis=1)
    z = ranking_loss_z(sorted_weights[:, None, :], candidates[None, :, :])  # (n_rules, K)
    z_min = z.min(axis=1, keepdims=True)
    tied = z <= z_min + 1e-12 * np.maximum(1.0, np.abs(z_min))
    nonzero = (candidates != 0).sum(1)
    total = candidates.sum(1)
    # Lexicographic preference (fewest non-zeros, largest sum, first), as one integer rank.
    preference = np.lexsort((np.arange(len(candidates)), -total, nonzero))
    rank = np.empty(len(candidates), dtype=np.int64)
    rank[preference] = np.arange(len(candidates))
    choice = np.argmin(np.where(tied, rank[None, :], len(candidates)), axis=1)
    vectors = np.empty((n_rules, c), dtype=np.int64)
    np.put_along_axis(vectors, order, candidates[choice], axis=1)
    return vectors


# --------------------------------------------------------------------------------------------
# Classification with the default vector (spec 04 section 1.2, RECONSTRUCTED tie rule)
# --------------------------------------------------------------------------------------------


def _default_and_predictions(scores, y, sample_weight, prior):
    """Default vectors and training predictions of a stack of committees.

    Parameters
    ----------
    scores : ndarray of shape (k, n_samples, c)
        Summed rule vectors of ``k`` candidate committees on the training examples.
    y, sample_weight : training labels (class indices) and weights.
    prior : ndarray of shape (c,)
        Class distribution of the learning sample (the default when nothing is ambiguous).

    Returns
    -------
    default : ndarray of shape (k, c)
    predictions : ndarray of int, shape (k, n_samples)
    """
    k, n, c = scores.shape
    top = scores == scores.max(axis=-1, keepdims=True)
    ambiguous = top.sum(axis=-1) > 1
    member = np.broadcast_to(np.arange(k)[:, None], (k, n))
    default = np.bincount(
        (member * c + y[None, :])[ambiguous],
        weights=np.broadcast_to(sample_weight, (k, n))[ambiguous],
        minlength=k * c,
    ).reshape(k, c)
    mass = default.sum(axis=1, keepdims=True)
    default = np.where(mass > 0, default / np.where(mass > 0, mass, 1.0), prior[None, :])
    tie_break = np.where(top, default[:, None, :], -np.inf).argmax(axis=-1)
    predictions = np.where(ambiguous, tie_break, scores.argmax(axis=-1))
    return default, predictions


def committee_predict(satisfied, vectors, default):
    """Class indices predicted by a DC (spec 04 section 1.2).

    ``S(o)`` = sum of the vectors of the satisfied rules; the unique argmax of ``S(o)`` wins;
    otherwise the tied class with the largest default component (then the smallest index).

    Parameters
    ----------
    satisfied : ndarray of bool, shape (n_samples, n_rules)
    vectors : ndarray of shape (n_rules, c)
    default : ndarray of shape (c,)

    Returns
    -------
    ndarray of int, shape (n_samples,)
    """
    scores = satisfied.astype(float) @ np.asarray(vectors, dtype=float).reshape(-1, len(default))
    top = scores == scores.max(axis=1, keepdims=True)
    ambiguous = top.sum(axis=1) > 1
    tie_break = np.where(top, np.asarray(default)[None, :], -np.inf).argmax(axis=1)
    return np.where(ambiguous, tie_break, scores.argmax(axis=1))


# --------------------------------------------------------------------------------------------
# Stage 3: pruning
# --------------------------------------------------------------------------------------------


def _chunked_errors(base_scores, removal, y, sample_weight, prior):
    """Weighted training errors of ``base_scores - removal[i]`` for every candidate ``i``."""
    n, c = base_scores.shape
    per_chunk = max(1, _CHUNK_CELLS // max(1, n * c))
    errors = []
    for lo in range(0, len(removal), per_chunk):
        stack = base_scores[None] - removal[lo : lo + per_chunk]
        _, predictions = _default_and_predictions(stack, y, sample_weight, prior)
        errors.append(((predictions != y[None, :]) * sample_weight[None, :]).sum(axis=1))
    return np.concatenate(errors) if errors else np.zeros(0)


def prune_pessimistic(satisfied, vectors, y, sample_weight, prior):
    """Pessimistic pruning (paper, "Pessimistic Pruning").

    Builds a sequence of DCs by removing, at each step, the rule whose removal gives the lowest
    training error (ties: lowest index), down to the empty DC, and returns the smallest DC of
    the lowest error in the sequence. Neutral rules (all components equal) never change a
    prediction and are dropped first.

    Returns
    -------
    kept : ndarray of int
        Indices of the rules kept, in their original order.
    """
    neutral = (vectors == vectors[:, :1]).all(axis=1)
    current = list(np.flatnonzero(~neutral))
    contributions = satisfied[:, :, None] * vectors[None, :, :].astype(float)  # (n, r, c)
    scores = contributions[:, current, :].sum(axis=1)
    _, predictions = _default_and_predictions(scores[None], y, sample_weight, prior)
    best_error = float(((predictions[0] != y) * sample_weight).sum())
    best = list(current)
    while current:
        removal = np.moveaxis(contributions[:, current, :], 1, 0)  # (k, n, c)
        errors = _chunked_errors(scores, removal, y, sample_weight, prior)
        pick = int(np.argmin(errors))
        scores = scores - removal[pick]
        del current[pick]
        if errors[pick] <= best_error + 1e-12:  # "not greater than": ties favour the smaller DC
            best_error = float(errors[pick])
            best = list(current)
    return np.array(sorted(best), dtype=np.int64)


def prune_optimistic(satisfied, vectors, lengths, y, sample_weight, prior, *, n_literals, strength, delta):
    """Optimistic pruning (paper, "Optimistic Pruning"; the penalty is RECONSTRUCTED).

    One pass over the rules in creation order. Rule ``i`` is removed when, on the examples that
    satisfy its monomial, the error of the DC without it is at most the error with it plus the
    Kearns-Mansour style penalty
    ``strength * sqrt(((|t_i| + 1) ln(n_literals) + ln(n_samples / delta)) / m_t)``.

    Returns
    -------
    kept : ndarray of int
    """
    n = len(y)
    contributions = satisfied[:, :, None] * vectors[None, :, :].astype(float)
    kept = np.ones(len(vectors), dtype=bool)
    scores = contributions.sum(axis=1)
    log_literals = np.log(max(n_literals, 2))
    for i in range(len(vectors)):  # a single pass over the rules (not over examples)
        local = satisfied[:, i]
        m_t = int(local.sum())
        if m_t == 0:
            kept[i] = False
            continue
        stack = np.stack([scores, scores - contributions[:, i, :]])
        _, predictions = _default_and_predictions(stack, y, sample_weight, prior)
        wrong = (predictions != y[None, :]) * sample_weight[None, :]
        local_weight = sample_weight[local].sum()
        before, after = wrong[:, local].sum(axis=1) / local_weight
        penalty = strength * np.sqrt(((lengths[i] + 1) * log_literals + np.log(n / delta)) / m_t)
        if after <= before + penalty:
            kept[i] = False
            scores = scores - contributions[:, i, :]
    return np.flatnonzero(kept)


# --------------------------------------------------------------------------------------------
# Booleanisation (spec 04 section 1.4)
# --------------------------------------------------------------------------------------------


def _entropy(counts):
    """Class entropy (bits) of each row of a count array."""
    total = counts.sum(axis=-1, keepdims=True)
    p = counts / np.where(total > 0, total, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, -p * np.log2(np.where(p > 0, p, 1)), 0.0)
    return terms.sum(axis=-1)


def mdl_cut_points(values, y, n_classes, max_cuts=8):
    """Supervised MDL cut points of one numeric attribute (Fayyad & Irani 1993).

    Each interval is split at the boundary point of least class entropy if the information gain
    passes the MDL test ``gain > (log2(N - 1) + Delta) / N``; intervals are processed
    breadth-first and at most ``max_cuts`` cuts are kept. Missing values (NaN) are ignored.

    Parameters
    ----------
    values : ndarray of shape (n_samples,)
    y : ndarray of int, shape (n_samples,)
    n_classes : int
    max_cuts : int

    Returns
    -------
    ndarray
        Sorted thresholds (midpoints between consecutive distinct values).

    Examples
    --------
    >>> mdl_cut_points(np.array([1., 2, 3, 4, 5, 6, 7, 8]), np.array([0, 0, 0, 0, 1, 1, 1, 1]), 2)
    array([4.5])
    """
    known = ~np.isnan(values)
    order = np.argsort(values[known], kind="stable")
    xs = values[known][order]
    ys = y[known][order]
    cumulative = np.vstack([np.zeros((1, n_classes)), np.cumsum(np.eye(n_classes)[ys], axis=0)])
    cuts = []
    queue = deque([(0, xs.size)])
    while queue and len(cuts) < max_cuts:
        lo, hi = queue.popleft()
        size = hi - lo
        if size < 2:
            continue
        # Boundary candidates: positions p (left part = [lo, p)) between distinct values.
        positions = lo + 1 + np.flatnonzero(xs[lo + 1 : hi] != xs[lo : hi - 1])
        if positions.size == 0:
            continue
        total = cumulative[hi] - cumulative[lo]
        left = cumulative[positions] - cumulative[lo]
        right = total[None, :] - left
        n_left = (positions - lo).astype(float)
        entropy_left, entropy_right = _entropy(left), _entropy(right)
        split_entropy = (n_left * entropy_left + (size - n_left) * entropy_right) / size
        best = int(np.argmin(split_entropy))
        entropy_all = float(_entropy(total))
        gain = entropy_all - split_entropy[best]
        k_all = int((total > 0).sum())
        k_left = int((left[best] > 0).sum())
        k_right = int((right[best] > 0).sum())
        delta = np.log2(3.0**k_all - 2) - (
            k_all * entropy_all - k_left * entropy_left[best] - k_right * entropy_right[best]
        )
        if gain > (np.log2(size - 1) + delta) / size:
            p = int(positions[best])
            cuts.append((xs[p - 1] + xs[p]) / 2.0)
            queue.append((lo, p))
            queue.append((p, hi))
    return np.array(sorted(cuts), dtype=float)


def _encode_variables(X, y, n_classes, nominal, max_cuts, numeric_literal="le"):
    """Boolean variables of a training set.

    Returns a list of ``(feature, kind, value)`` with kind ``"eq"``, ``"le"`` or ``"gt"``, and, for each
    two-valued nominal feature, its second value (the reading of the negated literal).
    """
    variables = []
    binary_other = {}
    for j in range(X.shape[1]):
        column = X[:, j]
        if nominal[j]:
            values = np.unique(column[~np.isnan(column)])
            if values.size == 2:  # one variable [A = larger value] (x = 1 for 0/1 data)
                variables.append((j, "eq", float(values[1])))
                binary_other[j] = float(values[0])
            elif values.size > 2:
                variables.extend((j, "eq", float(v)) for v in values)
        else:
            cuts = mdl_cut_points(column, y, n_classes, max_cuts)
            variables.extend((j, numeric_literal, float(t)) for t in cuts)
    return variables, binary_other


def _literal_matrix(X, variables):
    """Truth of every literal (columns 2v = positive, 2v+1 = negated) on every row of ``X``."""
    out = np.zeros((X.shape[0], 2 * len(variables)), dtype=bool)
    if not variables:
        return out
    features = np.array([v[0] for v in variables])
    thresholds = np.array([v[2] for v in variables])
    kinds = np.array([v[1] for v in variables])
    columns = X[:, features]
    known = ~np.isnan(columns)  # missing value: both polarities false
    with np.errstate(invalid="ignore"):
        positive = np.where(
            kinds[None, :] == "eq",
            columns == thresholds[None, :],
            np.where(kinds[None, :] == "le", columns <= thresholds[None, :], columns > thresholds[None, :]),
        )
    out[:, 0::2] = positive & known
    out[:, 1::2] = ~positive & known
    return out


# --------------------------------------------------------------------------------------------
# The estimator
# --------------------------------------------------------------------------------------------


class DecisionCommittee(ClassifierMixin, BaseEstimator):
    """WIDC decision committee (Nock 2002): partition boosting, {-1,0,+1} vectors, pruning.

    Parameters
    ----------
    pruning : {"pessimistic", "optimistic", "none"}, default="pessimistic"
        Stage 3. ``"pessimistic"`` is the paper's WIDC(p), ``"optimistic"`` WIDC(o) (penalty
        RECONSTRUCTED, see ``optimistic_strength``), ``"none"`` WIDC().
    nominal_features : array-like of int or bool, default=None
        Columns holding nominal codes (any numbers); each value becomes a variable ``[A = a]``.
        The other columns are numeric and are discretised by MDL. NaN means missing.
    max_cuts : int, default=8
        Largest number of MDL cut points per numeric attribute.
    optimistic_strength : float, default=0.0
        The constant ``c_KM`` of the reconstructed optimistic penalty. The paper's value was not
        recovered; 0.0 is what the one-standard-error rule selects on synthetic committee
        problems (``companion.experiments.paper04.choose_optimistic_strength``), chosen once and
        never on the benchmark. With 0 a rule goes as soon as its local error does not increase.
    numeric_literal : {"le", "gt"}, default="le"
        Which side of a numeric cut is the *positive* literal: ``A <= theta`` (the spec's
        variables) or ``A > theta``. The first literal of a monomial and its negation always tie
        on Z (they induce the same partition) and ties go to the positive literal, so this
        convention can change the committee grown.
    optimistic_delta : float, default=0.05
        Confidence ``delta`` of the optimistic penalty.
    max_rules : int or None, default=None
        Cap on the number of monomials grown (None: the paper's rule, no cap).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    variables_ : list of tuple
        Boolean variables ``(feature, "eq" | "le" | "gt", value)`` built on the training set.
    binary_other_ : dict
        For each two-valued nominal feature, the value its negated literal stands for.
    grown_monomials_ : list of tuple of int
        Stage-1 monomials (literal ids ``2v`` / ``2v+1``), before pruning.
    grown_vectors_ : ndarray of shape (n_grown, n_classes)
        Stage-2 vectors of the grown monomials.
    z_trace_ : list of float
        ``Z`` (paper eq. (1)) at the start of growth and after every accepted literal.
    monomials_ : list of tuple of int
        Monomials of the rules kept after pruning.
    vectors_ : ndarray of shape (n_rules, n_classes)
        Their vectors, in {-1, 0, +1}.
    default_ : ndarray of shape (n_classes,)
        Default vector: class distribution of the ambiguous training examples.
    n_rules_ : int
        Number of rules (the Kearns et al. size).
    n_literals_ : int
        Total number of literals, counted with repetition (the paper's other size).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> dc = DecisionCommittee().fit(X, y)
    >>> dc.n_rules_ <= len(dc.grown_monomials_), dc.score(X, y) > 0.9
    (True, True)
    """

    def __init__(
        self,
        pruning="pessimistic",
        *,
        nominal_features=None,
        max_cuts=8,
        optimistic_strength=0.0,
        optimistic_delta=0.05,
        numeric_literal="le",
        max_rules=None,
    ):
        self.pruning = pruning
        self.nominal_features = nominal_features
        self.max_cuts = max_cuts
        self.optimistic_strength = optimistic_strength
        self.optimistic_delta = optimistic_delta
        self.numeric_literal = numeric_literal
        self.max_rules = max_rules

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags

    # -- validation ---------------------------------------------------------------------------

    def _check_params(self, n_features):
        if not isinstance(self.pruning, str) or self.pruning not in PRUNINGS:
            raise ValueError(f"pruning must be one of {PRUNINGS}, got {self.pruning!r}")
        check_scalar(self.max_cuts, "max_cuts", int, min_val=1)
        if not isinstance(self.numeric_literal, str) or self.numeric_literal not in ("le", "gt"):
            raise ValueError(f"numeric_literal must be 'le' or 'gt', got {self.numeric_literal!r}")
        check_scalar(self.optimistic_strength, "optimistic_strength", (int, float), min_val=0.0)
        check_scalar(
            self.optimistic_delta, "optimistic_delta", float, min_val=0.0, max_val=1.0, include_boundaries="neither"
        )
        if self.max_rules is not None:
            check_scalar(self.max_rules, "max_rules", int, min_val=0)
        return self._nominal_mask(n_features)

    def _nominal_mask(self, n_features):
        spec = self.nominal_features
        mask = np.zeros(n_features, dtype=bool)
        if spec is None:
            return mask
        if isinstance(spec, (str, bytes)) or np.ndim(spec) != 1:
            raise TypeError(
                f"nominal_features must be None or a 1-d array-like of column indices or booleans, got {spec!r}"
            )
        spec = np.asarray(spec)
        if spec.dtype == bool:
            if spec.size != n_features:
                raise ValueError(
                    f"nominal_features as a boolean mask must have one entry per feature "
                    f"({n_features}), got {spec.size}"
                )
            return spec.copy()
        if spec.size == 0:
            return mask
        if not np.issubdtype(spec.dtype, np.integer):
            raise TypeError(f"nominal_features must hold integer column indices or booleans, got dtype {spec.dtype}")
        if spec.min() < -n_features or spec.max() >= n_features:
            raise ValueError(
                f"nominal_features holds column indices outside [0, {n_features}): {spec.tolist()}"
            )
        mask[spec] = True
        return mask

    # -- fitting ------------------------------------------------------------------------------

    def fit(self, X, y):
        """Grow, vectorise and prune a decision committee on ``(X, y)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numbers; NaN marks a missing value. Nominal columns are named by
            ``nominal_features``.
        y : array-like of shape (n_samples,)
            Class labels of any type.

        Returns
        -------
        self
        """
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_all_finite="allow-nan")
        if np.isinf(X).any():
            raise ValueError("X contains infinity; only finite numbers and NaN (missing) are accepted")
        nominal = self._check_params(X.shape[1])
        check_classification_targets(y)
        self.classes_, y_codes = np.unique(y, return_inverse=True)
        c = len(self.classes_)
        n = X.shape[0]
        weights = np.full(n, 1.0 / n)  # WIDC's fixed uniform distribution (spec 04 section 2)
        self.nominal_mask_ = nominal
        self.variables_, self.binary_other_ = _encode_variables(
            X, y_codes, c, nominal, self.max_cuts, self.numeric_literal
        )
        literals = _literal_matrix(X, self.variables_)
        self.prior_ = np.bincount(y_codes, weights=weights, minlength=c)
        if c > 1:
            monomials, trace = grow_monomials(literals, y_codes, weights, c, max_rules=self.max_rules)
        else:
            monomials, trace = [], [0.0]
        self.grown_monomials_ = monomials
        self.z_trace_ = trace
        satisfied = satisfaction(literals, monomials)
        class_weights = satisfied.T.astype(float) @ (np.eye(c)[y_codes] * weights[:, None])
        self.grown_vectors_ = rule_vectors(class_weights) if monomials else np.zeros((0, c), dtype=np.int64)
        self._prune(literals, satisfied, y_codes, weights)
        return self

    def _prune(self, literals, satisfied, y_codes, weights):
        vectors = self.grown_vectors_
        if self.pruning == "none" or len(vectors) == 0:
            kept = np.arange(len(vectors))
        elif self.pruning == "pessimistic":
            kept = prune_pessimistic(satisfied, vectors, y_codes, weights, self.prior_)
        else:
            lengths = np.array([len(m) for m in self.grown_monomials_])
            kept = prune_optimistic(
                satisfied,
                vectors,
                lengths,
                y_codes,
                weights,
                self.prior_,
                n_literals=literals.shape[1],
                strength=self.optimistic_strength,
                delta=self.optimistic_delta,
            )
        self.monomials_ = [self.grown_monomials_[i] for i in kept]
        self.vectors_ = vectors[kept]
        scores = satisfied[:, kept].astype(float) @ self.vectors_.astype(float)
        default, _ = _default_and_predictions(scores[None], y_codes, weights, self.prior_)
        self.default_ = default[0]
        self.n_rules_ = len(self.monomials_)
        self.n_literals_ = int(sum(len(m) for m in self.monomials_))

    def with_pruning(self, pruning, X, y, **pruning_params):
        """A copy of this fitted committee with stage 3 redone by ``pruning`` (stages 1-2 reused).

        Growth does not depend on the pruning, so the benchmark grows once per fold and prunes
        three ways. ``X, y`` must be the training data ``fit`` saw.

        Parameters
        ----------
        pruning : {"pessimistic", "optimistic", "none"}
        X, y : the training data.
        **pruning_params
            New values of ``optimistic_strength`` / ``optimistic_delta``.

        Returns
        -------
        DecisionCommittee
            A fitted estimator whose ``pruning`` parameter is ``pruning``.
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64, ensure_all_finite="allow-nan")
        y = np.asarray(y)
        if y.shape[0] != X.shape[0]:
            raise ValueError(f"y has {y.shape[0]} labels for {X.shape[0]} rows of X")
        codes = np.searchsorted(self.classes_, y)
        if np.any(codes >= len(self.classes_)) or np.any(self.classes_[np.minimum(codes, len(self.classes_) - 1)] != y):
            raise ValueError("y holds labels that fit did not see; pass the training data")
        allowed = {"optimistic_strength", "optimistic_delta"}
        if set(pruning_params) - allowed:
            raise TypeError(
                f"with_pruning accepts only {sorted(allowed)} as keyword parameters, "
                f"got {sorted(set(pruning_params) - allowed)}"
            )
        other = copy.deepcopy(self)
        other.set_params(pruning=pruning, **pruning_params)
        other._check_params(X.shape[1])
        literals = _literal_matrix(X, self.variables_)
        satisfied = satisfaction(literals, self.grown_monomials_)
        other._prune(literals, satisfied, codes, np.full(len(codes), 1.0 / len(codes)))
        return other

    # -- prediction ---------------------------------------------------------------------------

    def _satisfied(self, X):
        X = validate_data(self, X, reset=False, dtype=np.float64, ensure_all_finite="allow-nan")
        return satisfaction(_literal_matrix(X, self.variables_), self.monomials_)

    def decision_function(self, X):
        """Vote ``S(o) + D / 2``: the summed rule vectors plus half the default vector.

        ``S`` is integer and ``D`` a distribution, so adding ``D / 2`` only orders the classes
        tied in ``S``, exactly as the default-vector rule does: the argmax is the prediction.
        For two classes the difference ``[:, 1] - [:, 0]`` is returned, as scikit-learn expects.

        Returns
        -------
        ndarray of shape (n_samples, n_classes), or (n_samples,) for two classes
        """
        check_is_fitted(self)
        c = len(self.classes_)
        scores = self._satisfied(X).astype(float) @ self.vectors_.reshape(-1, c).astype(float)
        scores = scores + self.default_[None, :] / 2.0
        if c == 2:
            return scores[:, 1] - scores[:, 0]
        return scores

    def predict(self, X):
        """Class of the largest summed vector; ties go to the default vector ``D``."""
        check_is_fitted(self)
        satisfied = self._satisfied(X)
        codes = committee_predict(satisfied, self.vectors_.reshape(-1, len(self.classes_)), self.default_)
        return self.classes_[codes]

    # -- reading ------------------------------------------------------------------------------

    def literal_text(self, literal, feature_names=None, category_names=None):
        """Readable text of literal id ``literal`` (``2v``: variable v, ``2v+1``: its negation)."""
        check_is_fitted(self)
        feature, kind, value = self.variables_[literal // 2]
        negated = literal % 2 == 1
        names = feature_names
        if names is None:
            names = getattr(self, "feature_names_in_", None)
        name = str(names[feature]) if names is not None else f"x{feature}"

        def value_text(v):
            labels = (category_names or {}).get(feature)
            if labels is not None and float(v).is_integer() and 0 <= int(v) < len(labels):
                return str(labels[int(v)])
            return f"{v:g}"

        if kind in ("le", "gt"):
            upper = (kind == "le") != negated
            return f"{name} {'<=' if upper else '>'} {value:g}"
        if negated and feature in self.binary_other_:  # two values: "not a" reads "= b"
            return f"{name} = {value_text(self.binary_other_[feature])}"
        return f"{name} {'!=' if negated else '='} {value_text(value)}"

    def to_text(self, feature_names=None, category_names=None):
        """The committee as ``IF monomial THEN vector`` lines plus the default vector.

        Parameters
        ----------
        feature_names : sequence of str, optional
            Defaults to ``feature_names_in_`` when fitted on a DataFrame, else ``x0, x1, ...``.
        category_names : dict {feature index: sequence}, optional
            Names of the nominal codes ``0, 1, ...`` of a feature.
        """
        check_is_fitted(self)
        labels = [str(c) for c in self.classes_]
        lines = []
        for monomial, vector in zip(self.monomials_, self.vectors_):
            condition = " AND ".join(self.literal_text(l, feature_names, category_names) for l in monomial)
            votes = ", ".join(f"{label}: {int(v):+d}" if v else f"{label}: 0" for label, v in zip(labels, vector))
            lines.append(f"IF {condition or 'TRUE'} THEN ({votes})")
        default = ", ".join(f"{label}: {d:.3g}" for label, d in zip(labels, self.default_))
        lines.append(f"DEFAULT ({default})")
        return "\n".join(lines)

    def __str__(self):
        return self.to_text() if hasattr(self, "monomials_") else self.__repr__()
