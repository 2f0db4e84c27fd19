"""WIDC's search engine (Nock, JAIR 17, 2002): partition boosting, rule vectors, pruning, encoding.

The estimator :class:`companion.widc.DecisionCommittee` is built from these pieces; its module
docstring describes the algorithm and its exactness rule. Functions here take the Boolean literal
matrix and integer class codes the estimator prepares, and return plain arrays.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import validate_params

from companion.numerics import TIE_RTOL, StrictInterval, first_near_min
from companion.preprocessing import mdl_cut_points

PRUNINGS = ("pessimistic", "optimistic", "none")

# Budget (in 8-byte cells) of one chunk of the (literals x blocks x classes) score array.
_CHUNK_CELLS = 2_000_000

# Exactness (the project's rule: a selection that can meet an exact tie is computed exactly, or
# with a documented tolerance and tie rule). WIDC's distribution is uniform, w_i = 1/n (see
# ``DecisionCommittee.fit``), so every weighted count is computed as an *integer* count (times
# 1/n, applied once), never as a float sum of 1/n weights, whose value depends on the order of
# summation (numpy's pairwise sum, the BLAS kernel, the thread count): errors, class counts and
# default vectors are integers, committee scores are integer sums of {-1, 0, +1} votes, and the
# pruning decisions compare integers. Quantities that are irrational functions of the counts
# (Z of eq. (1): square roots; the ranking loss Z_t: exponentials, whose last bit depends on the
# CPU's libm/SIMD kernel; MDL entropies: logarithms) are compared with the relative tolerance
# below, and values within it of the minimum are tied: ties go to the lowest index. Non-uniform
# weights (public functions only) use float sums and the same relative tolerance
# (``companion.numerics.TIE_RTOL``).


def _uniform_weight(sample_weight):
    """The common value of ``sample_weight`` if all weights are equal, else ``None``.

    With equal weights ``u`` every weighted count is ``u`` times an integer count, which is what
    the functions below compute (exactly) instead of a float sum of weights.
    """
    w = np.asarray(sample_weight, dtype=float)
    if w.size and bool(np.all(w == w.flat[0])):
        return float(w.flat[0])
    return None


def rule_votes(vectors):
    """Rule vectors as int64 when their entries are integers (WIDC's {-1, 0, +1}), else float64.

    Sums of integer votes are exact in any order; real-valued vectors (allowed by
    :func:`committee_predict`) are summed in float64.
    """
    vectors = np.asarray(vectors)
    if np.issubdtype(vectors.dtype, np.integer) or np.issubdtype(vectors.dtype, np.bool_):
        return vectors.astype(np.int64)
    vectors = vectors.astype(float)
    if np.all(np.isfinite(vectors)) and np.all(vectors == np.round(vectors)) and np.all(np.abs(vectors) < 2**31):
        return vectors.astype(np.int64)
    return vectors


def vote_sums(satisfied, vectors):
    """``S = satisfied @ vectors``: exact integer sums for integer votes (no BLAS), else float."""
    votes = rule_votes(vectors)
    if votes.dtype == np.int64:
        # Integer matmul: numpy's own loop, exact whatever the order; BLAS is never called.
        return np.asarray(satisfied, dtype=np.int64) @ votes
    return np.asarray(satisfied, dtype=float) @ votes


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


@validate_params(
    {
        "block_ids": ["array-like"],
        "y": ["array-like"],
        "sample_weight": ["array-like"],
        "n_classes": [StrictInterval(Integral, 1, None, closed="left")],
    },
    prefer_skip_nested_validation=True,
)
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
        Number of classes (at least 1).

    Returns
    -------
    float

    Notes
    -----
    With equal weights ``u`` (WIDC's case) the class weights are ``u`` times integer counts and
    ``Z = u * 2 sum sqrt(n+ n-)`` is computed from the integer counts, so it depends only on
    the count table: two partitions with the same table give the same float.

    Examples
    --------
    >>> round(z_partition([0] * 8, [0] * 2 + [1] * 6, np.full(8, 1 / 8), 2), 6)
    1.732051
    """
    _, dense = np.unique(np.asarray(block_ids), return_inverse=True)
    y = np.asarray(y, dtype=np.intp)
    n_blocks = int(dense.max()) + 1 if dense.size else 0
    unit = _uniform_weight(sample_weight)
    if unit is not None:
        # Equal weights: integer class counts per block, Z of the counts times the weight, so
        # that Z is a function of the count table only (not of the order of the examples).
        counts = np.bincount(dense * n_classes + y, minlength=n_blocks * n_classes)
        return unit * float(z_blocks(counts.reshape(n_blocks, n_classes)))
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
# Stage 1: partition boosting with a vectorised literal search (Nock 2002, Section 3)
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

    Notes
    -----
    With equal weights ``u`` (WIDC's uniform distribution) ``C0``, ``A`` and ``S_l`` are integer
    counts and the result is ``u`` times Z of the counts: it depends on the count tables only,
    not on the order of the examples, the CPU or BLAS (no matrix product is used). Z is a sum of
    square roots, so equal Z values of different partitions may still differ in the last bit:
    :func:`grow_monomials` compares them with a relative tolerance.
    """
    c = n_classes
    n_literals = literals.shape[1]
    sample_weight = np.asarray(sample_weight, dtype=float)
    # Equal weights u (WIDC): C0, A and S are integer counts and Z is u * Z(counts), a function
    # of the count tables only. Otherwise they are float sums of the weights.
    unit = _uniform_weight(sample_weight)
    counting = unit is not None
    scale = unit if counting else 1.0
    cell_weight = np.ones_like(sample_weight) if counting else sample_weight
    inside_blocks, local = np.unique(base[inside], return_inverse=True)
    n_local = inside_blocks.size
    # Blocks with no example inside t are untouched by any literal: a constant term.
    outside = ~inside
    untouched = ~np.isin(base, inside_blocks)
    constant = 0.0
    if untouched.any():
        constant = z_partition(base[untouched], y[untouched], cell_weight[untouched], c)
    touched_out = outside & ~untouched
    block_of = np.full(base.max() + 1, -1, dtype=np.int64)
    block_of[inside_blocks] = np.arange(n_local)
    C0 = np.bincount(
        block_of[base[touched_out]] * c + y[touched_out],
        weights=None if counting else sample_weight[touched_out],
        minlength=n_local * c,
    ).reshape(n_local, c)
    keys = local * c + y[inside]
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
    columns = np.hstack([literals[inside][order], np.ones((order.size, 1), dtype=bool)])
    if counting:
        weighted = columns.astype(np.int64)  # integer counts: exact in any order
    else:
        # A (all inside weight) is summed in the same order as S, so that A - S is exactly 0 when
        # a literal keeps a whole (block, class) cell: sqrt would turn a 1e-18 residue into 1e-9.
        weighted = columns * sample_weight[inside][order, None]
    S = np.zeros((n_local * c, n_literals + 1), dtype=weighted.dtype)
    if starts.size and order.size:
        S[sorted_keys[starts]] = np.add.reduceat(weighted, starts, axis=0)
    S = S.reshape(n_local, c, n_literals + 1)
    A = S[:, :, -1]
    out = np.empty(n_literals)
    step = max(1, _CHUNK_CELLS // max(1, n_local * c))
    for lo in range(0, n_literals, step):  # chunks of literals bound the memory
        S_chunk = np.moveaxis(S[:, :, lo : min(lo + step, n_literals)], 2, 0)
        out[lo : lo + step] = z_blocks(S_chunk) + z_blocks(C0 + (A - S_chunk))
    return scale * (out + constant)


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

    Notes
    -----
    Tie rule: the literal of least ``Z`` is chosen, where ``Z`` values within a relative
    ``1e-12`` (of ``max(1, min Z)``) of the minimum are tied and the smallest literal id wins; a
    literal is accepted only if its ``Z`` is below the current ``Z`` by more than that tolerance.
    ``Z`` is irrational in the class weights (square roots), so an exact comparison is not
    available; with WIDC's uniform weights its inputs are exact integer counts
    (:func:`score_literals`).
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
            # Z is a sum of square roots: mathematically equal values can differ in the last bit
            # (order of the float sum), so values within TIE_RTOL of the minimum are tied, and
            # ties go to the smallest literal id (documented tie rule).
            best = first_near_min(scores, TIE_RTOL)
            # "Decreases Z" must also beat rounding: a literal that leaves the partition as it is
            # recomputes the same Z through another decomposition.
            tolerance = TIE_RTOL * max(1.0, z_current)
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
    """Ranking-loss ``Z_t(v)`` of rule vectors (the paper's eqs. (2)-(3)).

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


@validate_params({"class_weights": ["array-like"]}, prefer_skip_nested_validation=True)
def rule_vectors(class_weights):
    """Stage 2 of WIDC: the vector in {-1, 0, +1}^c minimising ``Z_t`` for each rule.

    Classes are sorted by decreasing weight; some optimal vector is non-increasing in that
    order (rearrangement inequality), so ``(c+1)(c+2)/2`` candidates suffice. Ties (e.g. every
    constant shift of a vector ties) go to (i) the fewest non-zero components, (ii) the largest
    sum, (iii) the first candidate in enumeration order (our reconstruction: the paper leaves ties open). For
    ``c = 2`` this is Lemma 2 of the paper.

    Exactness: the sort of the classes is exact (stable, ties by class index). ``Z_t`` involves
    ``exp(+-1/2)``, whose last bit depends on the CPU's exp kernel, and the structural ties (the
    constant shifts of a vector) are equal only mathematically, so candidates within a relative
    ``1e-12`` of the least ``Z_t`` are tied and resolved by the rule above. ``DecisionCommittee``
    passes integer class counts divided by ``n`` (no BLAS product), so the inputs are the same
    floats on every machine.

    Parameters
    ----------
    class_weights : array-like of shape (n_rules, c)
        The class weights of each rule (one row for a single rule).

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
    # Documented tolerance: Z_t is a sum of exponentials (irrational, CPU-dependent last bit).
    tied = z <= z_min + TIE_RTOL * np.maximum(1.0, np.abs(z_min))
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
# Classification with the default vector (section "Decision Committees"; our tie rule)
# --------------------------------------------------------------------------------------------


def default_and_predictions(scores, y, sample_weight, prior):
    """Default vectors and training predictions of a stack of committees.

    Parameters
    ----------
    scores : ndarray of shape (k, n_samples, c)
        Summed rule vectors of ``k`` candidate committees on the training examples (integers,
        or floats holding small integers: the comparisons below are then exact).
    y, sample_weight : training labels (class indices) and weights.
    prior : ndarray of shape (c,)
        Class distribution of the learning sample (the default when nothing is ambiguous).

    Returns
    -------
    default : ndarray of shape (k, c)
        Class distribution of the ambiguous examples (``prior`` when there is none).
    predictions : ndarray of int, shape (k, n_samples)
        The unique argmax of the scores; for an ambiguous example, the tied class with the
        largest default component, then the smallest class index.

    Notes
    -----
    With equal weights (WIDC) the default is computed from *integer* counts of the ambiguous
    examples and the tie break compares those integers, so it is exact; the returned default is
    ``counts / total`` (a common total per committee, so its order is the counts' order: a
    correctly rounded division by the same positive number is monotone and keeps counts below
    ``2**52`` distinct). With unequal weights the weights are summed in float.
    """
    k, n, c = scores.shape
    top = scores == scores.max(axis=-1, keepdims=True)
    ambiguous = top.sum(axis=-1) > 1
    member = np.broadcast_to(np.arange(k)[:, None], (k, n))
    unit = _uniform_weight(sample_weight)
    counts = np.bincount(
        (member * c + y[None, :])[ambiguous],
        weights=None if unit is not None else np.broadcast_to(sample_weight, (k, n))[ambiguous],
        minlength=k * c,
    ).reshape(k, c)
    mass = counts.sum(axis=1, keepdims=True)
    default = np.where(mass > 0, counts / np.where(mass > 0, mass, 1), prior[None, :])
    # Only ambiguous examples use the tie break, and a committee with one has mass > 0, so the
    # tie break can read the counts themselves (integers with equal weights: exact).
    tie_break = np.where(top, counts[:, None, :], -1).argmax(axis=-1)
    predictions = np.where(ambiguous, tie_break, scores.argmax(axis=-1))
    return default, predictions


def committee_predict(satisfied, vectors, default):
    """Class indices predicted by a DC (Nock 2002, section "Decision Committees").

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

    Notes
    -----
    Integer-valued vectors (WIDC's {-1, 0, +1}) are summed by an integer matrix product (no
    BLAS), so ``S`` and the test for ties are exact. Real-valued vectors are summed in float64
    (BLAS), exact only when every partial sum is representable (e.g. small dyadic values); two
    classes are tied when their float sums are equal. The default components are compared as
    given (``DecisionCommittee.default_votes_`` holds counts over a common total: exact order).
    """
    scores = vote_sums(satisfied, np.asarray(vectors).reshape(-1, len(default)))
    top = scores == scores.max(axis=1, keepdims=True)
    ambiguous = top.sum(axis=1) > 1
    tie_break = np.where(top, np.asarray(default)[None, :], -np.inf).argmax(axis=1)
    return np.where(ambiguous, tie_break, scores.argmax(axis=1))


# --------------------------------------------------------------------------------------------
# Stage 3: pruning
# --------------------------------------------------------------------------------------------


def _chunked_errors(base_scores, removal, y, sample_weight, prior):
    """Training errors of ``base_scores - removal[i]`` for every candidate ``i``.

    Integer error *counts* (int64) when the weights are equal, so that equal counts are equal
    numbers; otherwise float sums of the weights of the misclassified examples.
    """
    n, c = base_scores.shape
    per_chunk = max(1, _CHUNK_CELLS // max(1, n * c))
    errors = []
    for lo in range(0, len(removal), per_chunk):
        stack = base_scores[None] - removal[lo : lo + per_chunk]
        _, predictions = default_and_predictions(stack, y, sample_weight, prior)
        errors.append(_training_errors(predictions, y, sample_weight))
    if errors:
        return np.concatenate(errors)
    return np.zeros(0, dtype=np.int64 if _uniform_weight(sample_weight) is not None else float)


def _training_errors(predictions, y, sample_weight):
    """Errors of each row of ``predictions``: int64 counts with equal weights, else weight sums."""
    wrong = predictions != y[None, :]
    if _uniform_weight(sample_weight) is not None:
        return wrong.sum(axis=1)  # integer counts: exact in any order
    return (wrong * sample_weight[None, :]).sum(axis=1)


def _error_tolerance(sample_weight):
    """Tolerance of error comparisons: 0 for integer counts, ``1e-12`` of the total weight else."""
    if _uniform_weight(sample_weight) is not None:
        return 0
    return TIE_RTOL * float(np.sum(sample_weight))


def prune_pessimistic(satisfied, vectors, y, sample_weight, prior):
    """Pessimistic pruning (paper, "Pessimistic Pruning").

    Builds a sequence of DCs by removing, at each step, the rule whose removal gives the lowest
    training error (ties: lowest index), down to the empty DC, and returns the smallest DC of
    the lowest error in the sequence. Neutral rules (all components equal) never change a
    prediction and are dropped first.

    Parameters
    ----------
    satisfied : ndarray of bool, shape (n_samples, n_rules)
    vectors : ndarray of int, shape (n_rules, c)
    y : ndarray of int, shape (n_samples,)
    sample_weight : ndarray of shape (n_samples,)
        WIDC's uniform ``1/n``. With equal weights the training error is an integer *count*:
        the argmin and the comparison with the best error so far are exact integer operations
        (ties: the lowest rule index; "not greater than" the best error: the smaller DC). With
        unequal weights errors are float sums of weights and values within ``1e-12`` of the
        total weight are tied, with the same rules.
    prior : ndarray of shape (c,)

    Returns
    -------
    kept : ndarray of int
        Indices of the rules kept, in their original order.
    """
    neutral = (vectors == vectors[:, :1]).all(axis=1)
    current = list(np.flatnonzero(~neutral))  # ascending: position order is rule-index order
    # Integer votes: every score below is an exact integer sum.
    contributions = satisfied[:, :, None] * rule_votes(vectors)[None, :, :]  # (n, r, c)
    scores = contributions[:, current, :].sum(axis=1)
    tolerance = _error_tolerance(sample_weight)
    _, predictions = default_and_predictions(scores[None], y, sample_weight, prior)
    best_error = _training_errors(predictions, y, sample_weight)[0]
    best = list(current)
    while current:
        removal = np.moveaxis(contributions[:, current, :], 1, 0)  # (k, n, c)
        errors = _chunked_errors(scores, removal, y, sample_weight, prior)
        # Least error, ties to the lowest rule index (exact: integer counts with equal weights).
        pick = int(np.flatnonzero(errors <= errors.min() + tolerance)[0])
        scores = scores - removal[pick]
        del current[pick]
        if errors[pick] <= best_error + tolerance:  # "not greater than": ties favour the smaller DC
            best_error = errors[pick]
            best = list(current)
    return np.array(sorted(best), dtype=np.int64)


def prune_optimistic(satisfied, vectors, lengths, y, sample_weight, prior, *, n_literals, strength, delta):
    """Optimistic pruning (paper, "Optimistic Pruning"; the penalty is RECONSTRUCTED).

    One pass over the rules in creation order. Rule ``i`` is removed when, on the ``m_t``
    examples that satisfy its monomial, the error rate of the DC without it is at most the error
    rate with it plus the Kearns-Mansour style penalty
    ``strength * sqrt(((|t_i| + 1) ln(n_literals) + ln(n_samples / delta)) / m_t)``.

    With equal weights (WIDC) the local errors are integer counts and the test is
    ``after - before <= penalty * m_t`` (an integer against a float, compared exactly by
    Python): with ``strength = 0`` it is the exact integer test ``after <= before``, so a rule
    whose removal keeps the local error count goes. With unequal weights the test is on float
    sums of weights, ``after - before <= (penalty + 1e-12) * local weight`` (differences within
    ``1e-12`` of the local weight count as ties, which remove the rule).

    Returns
    -------
    kept : ndarray of int
    """
    return prune_optimistic_sweep(
        satisfied, vectors, lengths, y, sample_weight, prior, n_literals=n_literals, strengths=(strength,), delta=delta
    )[0]


#: The structures of our optimistic pass (Nock 2002, "Optimistic Pruning"; the paper's is lost):
#: while the pass runs, the default vector is recomputed for each committee it looks at
#: (``"recomputed"``, the main one) or frozen at the grown committee's (``"frozen"``); a rule's
#: removal is judged on the examples that satisfy it (``"rule"``, the main one) or on the whole
#: learning sample (``"committee"``), the penalty ``m_t`` unchanged.
OPTIMISTIC_DEFAULTS = ("recomputed", "frozen")
OPTIMISTIC_SCOPES = ("rule", "committee")


def _frozen_predictions(scores, default):
    """Training predictions of committees whose ties of the scores go to a fixed ``default`` vector.

    Parameters
    ----------
    scores : ndarray of shape (k, n_samples, c)
    default : ndarray of shape (c,)

    Returns
    -------
    ndarray of int, shape (k, n_samples)
    """
    top = scores == scores.max(axis=-1, keepdims=True)
    ambiguous = top.sum(axis=-1) > 1
    tie_break = np.where(top, np.asarray(default, dtype=float)[None, None, :], -np.inf).argmax(axis=-1)
    return np.where(ambiguous, tie_break, scores.argmax(axis=-1))


def prune_optimistic_sweep(satisfied, vectors, lengths, y, sample_weight, prior, *, n_literals, strengths, delta,
                           default="recomputed", scope="rule"):
    """:func:`prune_optimistic` for several penalty constants at once: one ``kept`` per strength.

    ``default`` and ``scope`` choose the structure of the pass (:data:`OPTIMISTIC_DEFAULTS`,
    :data:`OPTIMISTIC_SCOPES`; the paper's is lost): the main structure, ``"recomputed"`` and
    ``"rule"``, is :func:`prune_optimistic`'s. With ``default="frozen"`` every committee of the
    pass breaks its ties with the grown committee's default vector (the pruned committee still
    gets its own, as the paper's default vector is defined); with ``scope="committee"`` the
    errors with and without rule ``i`` are counted on the whole learning sample, against the
    same penalty ``penalty * m_t``.

    The pass over the rules is the same for every strength until their decisions differ: the
    strengths that have removed the same rules so far share one committee (its scores and
    predictions, and those without the next rule), which is computed once for all of them; a
    group splits when a rule is removed for some of its strengths and kept for the others.
    Every strength sees the arithmetic :func:`prune_optimistic` does for it alone (the same
    scores, the same integer or float local errors, its own penalty), so its decisions are
    the same.
    """
    if default not in OPTIMISTIC_DEFAULTS or scope not in OPTIMISTIC_SCOPES:
        raise ValueError(f"default must be one of {OPTIMISTIC_DEFAULTS} and scope one of {OPTIMISTIC_SCOPES}, "
                         f"got default={default!r}, scope={scope!r}")
    n = len(y)
    counting = _uniform_weight(sample_weight) is not None
    contributions = satisfied[:, :, None] * rule_votes(vectors)[None, :, :]  # exact integer votes
    log_literals = np.log(max(n_literals, 2))
    if default == "frozen":
        frozen = default_and_predictions(contributions.sum(axis=1)[None], y, sample_weight, prior)[0][0]

        def predictions(scores):
            return _frozen_predictions(scores[None], frozen)[0]
    else:
        def predictions(scores):
            return default_and_predictions(scores[None], y, sample_weight, prior)[1][0]
    # Groups of strengths with the same removals so far: [members, kept, scores, current], where
    # current holds the training predictions of the group's DC (None: not computed yet).
    groups = [[list(range(len(strengths))), np.ones(len(vectors), dtype=bool), contributions.sum(axis=1), None]]
    for i in range(len(vectors)):  # a single pass over the rules (not over examples)
        local = satisfied[:, i]
        m_t = int(local.sum())
        if m_t == 0:
            for group in groups:
                group[1][i] = False
            continue
        split = []
        for group in groups:
            members, kept, scores, current = group
            # Each committee's default and predictions depend on its own scores only, so those of
            # the current DC are computed once and change only when a rule goes (to those without it).
            if current is None:
                current = group[3] = predictions(scores)
            without_scores = scores - contributions[:, i, :]
            without = predictions(without_scores)
            judged = local if scope == "rule" else np.ones(n, dtype=bool)
            wrong = np.stack([current[judged], without[judged]]) != y[None, judged]  # (2, judged): with / without rule i
            if counting:
                before, after = (int(v) for v in wrong.sum(axis=1))
            else:
                before, after = (wrong * sample_weight[judged][None, :]).sum(axis=1)
                total = float(sample_weight[local].sum())
            removed, stayed = [], []
            for member in members:
                penalty = float(strengths[member] * np.sqrt(((lengths[i] + 1) * log_literals + np.log(n / delta)) / m_t))
                if counting:
                    remove = after - before <= penalty * m_t  # exact: Python compares int and float exactly
                else:
                    remove = after - before <= (penalty + TIE_RTOL) * total
                (removed if remove else stayed).append(member)
            if stayed:
                split.append([stayed, kept if not removed else kept.copy(), scores, current])
            if removed:
                kept[i] = False
                split.append([removed, kept, without_scores, without])
        groups = split
    result = [None] * len(strengths)
    for members, kept, _, _ in groups:
        for member in members:
            result[member] = np.flatnonzero(kept)
    return result


# --------------------------------------------------------------------------------------------
# Booleanisation (our reconstruction of Nock 2002, Section 5)
# --------------------------------------------------------------------------------------------


def encode_variables(X, y, n_classes, nominal, max_cuts, numeric_literal="le", sample_weight=None):
    """Boolean variables of a training set: the ``variables_`` :meth:`DecisionCommittee.fit` learns on.

    A nominal attribute gives one variable per value (one, ``[A = larger value]``, when it has
    two values); a numeric one a variable per MDL cut point of the training rows (at most
    ``max_cuts``).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Numeric codes as :meth:`DecisionCommittee.fit` stores them (NaN = missing).
    y : ndarray of shape (n_samples,)
        Class codes ``0 .. n_classes - 1``.
    n_classes : int
        Number of classes.
    nominal : sequence of bool
        Which columns are nominal.
    max_cuts : int
        Cut points per numeric column at most.
    numeric_literal : {"le", "gt"}, default="le"
        The kind of a numeric variable (``x <= t`` or ``x > t``).
    sample_weight : ndarray of shape (n_samples,), optional
        Weights of the rows in the MDL criterion.

    Returns
    -------
    variables : list of (feature, kind, value)
        ``kind`` is ``"eq"``, ``"le"`` or ``"gt"``.
    binary_other : dict
        For each two-valued nominal feature, its second value (the reading of the negated literal).
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
            cuts = mdl_cut_points(column, y, n_classes, max_cuts, sample_weight)
            variables.extend((j, numeric_literal, float(t)) for t in cuts)
    return variables, binary_other


def literal_matrix(X, variables):
    """Truth of every literal on every row of ``X``: the Boolean description WIDC learns on.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Numeric codes as :meth:`DecisionCommittee.fit` stores them (NaN = missing).
    variables : list of (feature, kind, value)
        ``kind`` is ``"eq"`` (nominal value), ``"le"`` or ``"gt"`` (MDL cut), as in the fitted
        ``variables_``.

    Returns
    -------
    ndarray of bool, shape (n_samples, 2 * len(variables))
        Column ``2v`` is variable ``v``, column ``2v + 1`` its negation; a missing value makes both
        false (Nock 2002, Section 5: a missing attribute satisfies no literal on it).
    """
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
# Cells of a committee (predict_proba)
# --------------------------------------------------------------------------------------------


def pattern_cells(rows, y, n_classes, weight=None):
    """Distinct rows of ``rows`` and the class counts of the examples having each one.

    Rows are compared exactly (booleans or integers), so a cell is a set of examples the
    committee cannot tell apart.

    Returns
    -------
    cells : ndarray of shape (n_cells, n_columns)
        The distinct rows, in lexicographic order.
    counts : ndarray of int64, shape (n_cells, n_classes)
    """
    cells, inverse = _unique_rows(rows)
    counts = np.bincount(inverse * n_classes + y, weights=weight, minlength=len(cells) * n_classes)
    return cells, count_array(counts.reshape(len(cells), n_classes))


def _unique_rows(rows):
    """``np.unique(rows, axis=0, return_inverse=True)`` (inverse flat) for boolean or integer rows.

    The distinct rows in lexicographic order: sorted by ``np.lexsort`` on the columns (the first
    column the primary key), a new cell wherever a row differs from the one before it. The same
    result as ``np.unique``, which sorts the rows as records, at a fraction of its cost.
    """
    rows = np.asarray(rows)
    if rows.ndim != 2 or rows.shape[0] == 0 or rows.shape[1] == 0 or rows.dtype.kind not in "biu":
        cells, inverse = np.unique(rows, axis=0, return_inverse=True)
        return cells, inverse.reshape(-1)
    n = rows.shape[0]
    order = np.lexsort(rows.T[::-1])
    ordered = rows[order]
    starts = np.empty(n, dtype=bool)
    starts[0] = True
    np.any(ordered[1:] != ordered[:-1], axis=1, out=starts[1:])
    inverse = np.empty(n, dtype=np.intp)
    inverse[order] = np.cumsum(starts) - 1
    return ordered[starts], inverse


def count_array(counts):
    """Counts as int64 when whole (unit or integer weights), else float."""
    counts = np.asarray(counts)
    return counts.astype(np.int64) if np.all(counts == np.round(counts)) else counts.astype(np.float64)


def row_lookup(table, rows):
    """Index in ``table`` of each row of ``rows`` (exact comparison), -1 where it is absent.

    One ``np.unique`` over the stacked rows instead of a loop over the rows.

    >>> row_lookup(np.array([[0, 1], [1, 1]]), np.array([[1, 1], [0, 0], [0, 1]])).tolist()
    [1, -1, 0]
    """
    m = table.shape[0]
    if m == 0 or rows.shape[0] == 0:
        return np.full(rows.shape[0], -1, dtype=np.intp)
    _, inverse = np.unique(np.concatenate([table, rows.astype(table.dtype)]), axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    position = np.full(int(inverse.max()) + 1, -1, dtype=np.intp)
    position[inverse[:m]] = np.arange(m)
    return position[inverse[m:]]
