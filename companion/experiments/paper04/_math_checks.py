"""The mathematical statements of Nock (JAIR 2002) and the algorithm steps it describes, checked
where notebook 04 shows them: each check runs (an identity on random inputs, an exhaustive small
case, a replay against a loop written from the paper's sentence) and returns ``(ok, detail)``.

Every check takes the notebook's seeded :class:`numpy.random.Generator` and, as a keyword, the
piece of the package it checks (so a test can hand it a deliberately broken one and see it fail).
:func:`math_checks` runs them all once (a few seconds); the claims registry
(``registry/paper04.toml``) names them as the ``math_*`` measures of its ``exact`` rows. The unit
tests named in those rows (``tests/test_widc.py``) check the same statements again.
"""

from __future__ import annotations

import functools
import itertools
import warnings

import numpy as np
import pandas as pd
from sklearn.tree import DecisionTreeClassifier

from companion.baselines import tree_leaf_paths
from companion.interpretable import SingleClassWarning
from companion.widc import DecisionCommittee
from companion._partition_boosting import (
    default_and_predictions, grow_monomials, pattern_codes, prune_optimistic, prune_pessimistic, ranking_loss_z,
    rule_votes, rule_vectors, satisfaction, z_partition,
)


def _plain(check):
    """``check`` returning ``(bool, str)`` with a Python bool (not ``numpy.bool_``)."""

    @functools.wraps(check)
    def wrapper(*args, **kwargs):
        ok, detail = check(*args, **kwargs)
        return bool(ok), str(detail)

    return wrapper


# --------------------------------------------------------------------------------------------
# references written from the paper's sentences (plain loops)
# --------------------------------------------------------------------------------------------


def _literals(X):
    """Literal matrix ``[x0, ~x0, x1, ~x1, ...]`` of a 0/1 matrix (ids ``2v`` and ``2v + 1``)."""
    X = np.asarray(X, dtype=bool)
    out = np.empty((X.shape[0], 2 * X.shape[1]), dtype=bool)
    out[:, 0::2], out[:, 1::2] = X, ~X
    return out


def _naive_blocks(satisfied):
    """Block = the tuple of monomials an example satisfies, labelled through a dict."""
    labels = {}
    return np.array([labels.setdefault(tuple(row), len(labels)) for row in np.asarray(satisfied).tolist()])


def _naive_z(blocks, y, w, c):
    """Eq. (1), ``Z = 2 Σ_j Σ_l sqrt(W+ W-)``, with loops over blocks and classes."""
    total = 0.0
    for block in set(blocks.tolist()):
        members = blocks == block
        for label in range(c):
            total += 2 * np.sqrt(w[members & (y == label)].sum() * w[members & (y != label)].sum())
    return total


def _same_partition(a, b):
    """Two labellings define the same partition iff pairing them creates no new block."""
    return len(set(zip(a.tolist(), b.tolist()))) == len(set(a.tolist())) == len(set(b.tolist()))


def leaf_monomials(tree):
    """Each leaf of a tree on 0/1 variables as the monomial of its path (``x_v <= 0.5`` is ``¬x_v``, id ``2v+1``)."""
    return [tuple(2 * v + (op == "<=") for v, op, _ in leaf.conditions) for leaf in tree_leaf_paths(tree)]


def _random_trees(rng, n_trees=10):
    """``(X, y, tree)`` for ``n_trees`` random noisy Boolean problems (400 x 8, up to 6-12 leaves)."""
    for _ in range(n_trees):
        X = rng.integers(0, 2, (400, 8))
        y = ((X[:, 0] ^ X[:, 3]) | (rng.random(400) < 0.2)).astype(int)
        leaves = int(rng.integers(6, 13))
        yield X, y, DecisionTreeClassifier(max_leaf_nodes=leaves, random_state=0).fit(X, y)


# --------------------------------------------------------------------------------------------
# the paper's mathematical statements
# --------------------------------------------------------------------------------------------


@_plain
def check_z_tree(rng, *, monomials_of=leaf_monomials):
    """Z over a tree's leaves equals Z over the satisfaction patterns of its leaf monomials.

    Paper, *Building a Large DC using Partition Boosting*: "Measuring Z over the tree's leaves is
    equivalent to measure Z over the partition realized by the set of monomials" (eq. (1)).

    Parameters
    ----------
    rng : numpy.random.Generator
    monomials_of : callable, default=:func:`leaf_monomials`
        A fitted tree to its leaf monomials (the encoding checked).

    Returns
    -------
    (bool, str)
    """
    worst, trees = 0.0, 0
    for X, y, tree in _random_trees(rng):
        w = np.full(len(y), 1 / len(y))
        codes = pattern_codes(satisfaction(_literals(X), monomials_of(tree)))
        worst = max(worst, abs(z_partition(codes, y, w, 2) - _naive_z(tree.apply(X), y, w, 2)))
        trees += 1
    return worst <= 1e-12, (f"eq. (1) over the leaves (loops) against eq. (1) over the leaf monomials' patterns, "
                            f"{trees} random trees (6-12 leaves) on 400 x 8 Boolean samples: max |difference| = "
                            f"{worst:.1e}")


@_plain
def check_cells_tree(rng, *, monomials_of=leaf_monomials):
    """The ``t`` leaf monomials of a tree are disjoint and realise exactly ``t`` cells.

    Paper: "only t subsets can be realized with t monomials, or equivalently with a tree having
    t leaves".

    Parameters
    ----------
    rng : numpy.random.Generator
    monomials_of : callable, default=:func:`leaf_monomials`

    Returns
    -------
    (bool, str)
    """
    bad, trees, sizes = [], 0, []
    for X, _, tree in _random_trees(rng):
        monomials = monomials_of(tree)
        sat = satisfaction(_literals(X), monomials)
        cells = len(np.unique(pattern_codes(sat)))
        trees += 1
        sizes.append(len(monomials))
        if not ((sat.sum(axis=1) == 1).all() and cells == len(monomials) == tree.get_n_leaves()):
            bad.append(f"{len(monomials)} monomials, {cells} cells")
    return not bad, (f"{trees} random trees with {min(sizes)}-{max(sizes)} leaves: every example satisfies exactly "
                     f"one leaf monomial and the cells equal the leaves in {trees - len(bad)}/{trees}"
                     + (f" (not: {'; '.join(bad[:3])})" if bad else ""))


@_plain
def check_cells_2_t(rng, *, codes_of=pattern_codes):
    """``t`` monomials realise up to ``2^t`` cells, and never more.

    Paper: "a number of subsets of order O(2^t) is now possible with only t monomials".
    Exhaustive: ``t`` one-literal monomials on ``{0,1}^t`` give ``2^t`` cells, ``t = 1..10``;
    random monomials (1-3 literals) on 600 x 12 samples never exceed ``2^t``.

    Parameters
    ----------
    rng : numpy.random.Generator
    codes_of : callable, default=:func:`companion._partition_boosting.pattern_codes`

    Returns
    -------
    (bool, str)
    """
    reached = []
    for t in range(1, 11):
        X = np.array(list(itertools.product([0, 1], repeat=t)))
        reached.append(len(np.unique(codes_of(satisfaction(_literals(X), [(2 * v,) for v in range(t)])))) == 2 ** t)
    Z, over, tried = rng.integers(0, 2, (600, 12)), 0, 0
    for t in (1, 2, 3, 5, 8):
        for _ in range(20):
            monomials = [tuple(sorted(rng.choice(24, size=int(rng.integers(1, 4)), replace=False).tolist()))
                         for _ in range(t)]
            over += len(np.unique(codes_of(satisfaction(_literals(Z), monomials)))) > 2 ** t
            tried += 1
    ok = all(reached) and over == 0
    return ok, (f"exhaustive {{0,1}}^t, t = 1..10: 2^t cells reached for {sum(reached)}/10 t; "
                f"{tried} random committees of t = 1-8 monomials on 600 x 12 samples: {over} exceed 2^t")


@_plain
def check_cells_ls(rng, *, codes_of=pattern_codes):
    """The non-empty cells of a committee on a sample are at most ``|LS|``, and the bound is reached.

    Paper: "the number of partitions is in fact bounded by the number of examples, |LS|".

    Parameters
    ----------
    rng : numpy.random.Generator
    codes_of : callable, default=:func:`companion._partition_boosting.pattern_codes`

    Returns
    -------
    (bool, str)
    """
    over = reached = trials = 0
    for _ in range(50):
        n = int(rng.integers(5, 60))
        X = rng.integers(0, 2, (n, 16))
        monomials = [(2 * v,) for v in range(16)]  # 2^16 = 65536 possible cells
        cells = len(np.unique(codes_of(satisfaction(_literals(X), monomials))))
        distinct = len(np.unique(X, axis=0))
        over += cells > n
        reached += cells == distinct
        trials += 1
    ok = over == 0 and reached == trials
    return ok, (f"{trials} random samples of 5-59 examples, 16 one-literal monomials (65,536 possible cells): "
                f"{over} exceed |LS|; the cells equal the distinct examples (the bound reached when all differ) "
                f"in {reached}/{trials}")


@_plain
def check_vector_search(rng, *, vectors_of=rule_vectors):
    """The sorted-class search over ``(c+1)(c+2)/2`` vectors finds the minimiser of ``Z_t`` over all ``3^c``.

    Paper, *Optimizing in our Setting* (eqs. (2)-(3), whose formula we reconstructed): "simply
    explore this set of elements, and keep the vector having the lowest value of Z".

    Parameters
    ----------
    rng : numpy.random.Generator
    vectors_of : callable, default=:func:`companion._partition_boosting.rule_vectors`

    Returns
    -------
    (bool, str)
    """
    worst, count = 0.0, 0
    for c in (2, 3, 4, 5):
        W = rng.random((200, c)) * (rng.random((200, c)) < 0.8)
        W[0] = 0.0
        W[0, 0] = 1.0
        candidates = np.array(list(itertools.product([-1, 0, 1], repeat=c)))
        found = np.asarray(vectors_of(W))
        for weights, vector in zip(W, found):
            best = ranking_loss_z(np.broadcast_to(weights, candidates.shape), candidates).min()
            worst = max(worst, (float(ranking_loss_z(weights, vector)) - best) / max(1e-300, abs(best)))
            count += 1
    return worst <= 1e-12, (f"the searched vector's Z_t against the least Z_t of all 3^c vectors (brute force), "
                            f"{count} random weight vectors, c = 2..5: max relative excess = {worst:.1e}")


# --------------------------------------------------------------------------------------------
# the algorithm steps the paper describes: our code against a loop written from the sentence
# --------------------------------------------------------------------------------------------


@_plain
def check_pattern_partition(rng, *, codes_of=pattern_codes):
    """The partition is that of the satisfaction patterns, and it refines the decision list's.

    Paper: "if two examples satisfy the same monomials, they belong to the same subset of the
    partition" (a decision list's partition is that of its first firing rule plus the default).

    Parameters
    ----------
    rng : numpy.random.Generator
    codes_of : callable, default=:func:`companion._partition_boosting.pattern_codes`

    Returns
    -------
    (bool, str)
    """
    same = refines = trials = 0
    for _ in range(30):
        n, r, c = 300, int(rng.integers(2, 9)), 3
        sat = rng.random((n, r)) < 0.4
        y, w = rng.integers(0, c, n), np.full(n, 1 / n)
        codes = np.asarray(codes_of(sat))
        first = np.where(sat.any(axis=1), sat.argmax(axis=1), r)
        same += _same_partition(codes, _naive_blocks(sat))
        refines += z_partition(codes, y, w, c) <= z_partition(first, y, w, c) + 1e-12
        trials += 1
    return same == refines == trials, (f"{trials} random committees of 2-8 monomials on 300 examples: the package's "
                                       f"blocks are the patterns' (dict labelling) in {same}/{trials}; Z of the "
                                       f"patterns ≤ Z of the first-firing-rule partition in {refines}/{trials}")


def _growth_problems(rng, n_problems=4):
    for _ in range(n_problems):
        X = rng.integers(0, 2, (120, 5))
        y = ((X[:, 0] & X[:, 1]) | (X[:, 2] ^ (rng.random(120) < 0.2))).astype(int) + (X[:, 3] & X[:, 4])
        yield _literals(X), y, np.full(120, 1 / 120), 3


def _naive_score(literals, y, w, c, monomials, term, candidates):
    """Z of the committee ``monomials + [term + (l,)]`` for each candidate literal ``l``, from scratch."""
    return np.array([_naive_z(_naive_blocks(satisfaction(literals, monomials + [tuple(term) + (l,)])), y, w, c)
                     for l in candidates])


def _replay_growth(literals, y, w, c, monomials, trace):
    """``(argmin_ok, stop_ok, steps)``: the grown monomials replayed literal by literal against Z from scratch."""
    tolerance = lambda z: 1e-12 * max(1.0, z)  # noqa: E731 (grow_monomials' tie tolerance)

    def allowed(done, term):
        used = {l // 2 for l in term}
        return [l for l in range(literals.shape[1]) if l // 2 not in used
                and frozenset(term + (l,)) not in {frozenset(m) for m in done}]

    argmin_ok = stop_ok = True
    z_current, step = _naive_z(np.zeros(len(y), dtype=int), y, w, c), 0
    for k, monomial in enumerate(list(monomials) + [()]):
        done = list(monomials[:k])
        for length in range(len(monomial) + 1):
            term = tuple(monomial[:length])
            candidates = allowed(done, term)
            scores = _naive_score(literals, y, w, c, done, term, candidates) if candidates else np.array([])
            if length < len(monomial):  # the literal added: the least Z, the smallest id on ties, and Z drops
                best = scores.min()
                tied = [l for l, z in zip(candidates, scores) if z <= best + tolerance(best)]
                argmin_ok &= bool(monomial[length] == tied[0] and best < z_current)
                z_current, step = best, step + 1
            else:  # closed, or (the last, empty one) never started: no addition lowers Z
                stop_ok &= bool(len(scores) == 0 or scores.min() >= z_current - tolerance(z_current))
    return argmin_ok, stop_ok, step


def _growth_replays(rng, grow):
    return [_replay_growth(literals, y, w, c, *grow(literals, y, w, c))
            for literals, y, w, c in _growth_problems(rng)]


@_plain
def check_growth_argmin(rng, *, grow=grow_monomials):
    """Each literal added is the one of least Z among the additions that do not repeat a monomial.

    Paper: "the literal added at the current step is the one which minimizes the current Z
    criterion, over all possible addition of literals, and given that the new monomial does not
    exist already in the current decision committee".

    Parameters
    ----------
    rng : numpy.random.Generator
    grow : callable, default=:func:`companion._partition_boosting.grow_monomials`

    Returns
    -------
    (bool, str)
    """
    replays = _growth_replays(rng, grow)
    good = sum(a for a, _, _ in replays)
    return good == len(replays), (f"growth replayed with eq. (1) recomputed from scratch for every candidate literal, "
                                  f"{len(replays)} random 3-class problems (120 x 5), {sum(s for *_, s in replays)} "
                                  f"literals added: each the least-Z addition in {good}/{len(replays)} problems")


@_plain
def check_growth_stop(rng, *, grow=grow_monomials):
    """A monomial is closed when no literal lowers Z; growth stops when no new monomial lowers Z.

    Paper: "When no further creation of a monomial decreases the Z value, the algorithm stops".

    Parameters
    ----------
    rng : numpy.random.Generator
    grow : callable, default=:func:`companion._partition_boosting.grow_monomials`

    Returns
    -------
    (bool, str)
    """
    replays = _growth_replays(rng, grow)
    good = sum(s for _, s, _ in replays)
    return good == len(replays), (f"the same replay: at every closed monomial and at the end no addition lowers Z "
                                  f"in {good}/{len(replays)} problems")


def _ambiguous_distribution(dc, X, y, c):
    sat = dc._satisfied(X)
    sums = [[sum(int(dc.vectors_[j, l]) for j in range(dc.n_rules_) if sat[i, j]) for l in range(c)]
            for i in range(len(y))]
    ambiguous = [i for i, s in enumerate(sums) if s.count(max(s)) > 1]
    counts = np.bincount(y[ambiguous], minlength=c)
    return (counts / counts.sum() if ambiguous else np.bincount(y, minlength=c) / len(y)), len(ambiguous)


@_plain
def check_default_vector(rng, *, default_of=lambda dc: dc.default_votes_):
    """The default vector is the class distribution of the ambiguous training examples.

    Paper, *Overview of WIDC*: "The default vector is always chosen to be the observed
    distribution of ambiguously classified examples".

    Parameters
    ----------
    rng : numpy.random.Generator
    default_of : callable
        A fitted committee to its default vector (the attribute checked).

    Returns
    -------
    (bool, str)
    """
    worst, fits, ambiguous = 0.0, 0, 0
    for pruning in ("none", "pessimistic", "optimistic"):
        for _ in range(2):
            X = rng.integers(0, 2, (200, 6))
            y = (X[:, 0] | X[:, 1]) + (X[:, 2] & (rng.random(200) < 0.5))
            dc = DecisionCommittee(pruning=pruning, categorical_features=np.arange(6)).fit(X, y)
            expected, k = _ambiguous_distribution(dc, X, y, 3)
            worst = max(worst, float(np.max(np.abs(np.asarray(default_of(dc)) - expected))))
            fits, ambiguous = fits + 1, ambiguous + k
    return worst <= 1e-15, (f"{fits} committees (three prunings) on random 3-class problems: the default vector "
                            f"against the class distribution of the ambiguous training examples recounted in Python "
                            f"({ambiguous} ambiguous examples in all): max |difference| = {worst:.1e}")


def _naive_predictions(sat, vectors, y, rules):
    """Training predictions of the DC of ``rules`` in Python integers (ties: the class with the most
    ambiguous training examples, then the smallest index)."""
    c = vectors.shape[1]
    sums = [[sum(int(vectors[j, l]) for j in rules if sat[i, j]) for l in range(c)] for i in range(len(y))]
    tops = [[l for l in range(c) if s[l] == max(s)] for s in sums]
    default = [0] * c
    for top, label in zip(tops, y.tolist()):
        if len(top) > 1:
            default[label] += 1
    return [top[0] if len(top) == 1 else max(top, key=lambda l: (default[l], -l)) for top in tops]


def _naive_errors(sat, vectors, y, rules):
    return sum(p != t for p, t in zip(_naive_predictions(sat, vectors, y, rules), y.tolist()))


def _naive_pessimistic(sat, vectors, y):
    """The paper's sentence as a loop: remove the rule of least training error after removal, down to
    the empty DC; return the smallest DC of the least error of that sequence."""
    current = [i for i in range(len(vectors)) if not (vectors[i] == vectors[i, 0]).all()]
    best, best_error = list(current), _naive_errors(sat, vectors, y, current)
    while current:
        errors = [_naive_errors(sat, vectors, y, [j for j in current if j != i]) for i in current]
        pick = errors.index(min(errors))
        current.pop(pick)
        if errors[pick] <= best_error:
            best, best_error = list(current), errors[pick]
    return sorted(best)


@_plain
def check_pessimistic_smallest(rng, *, prune=prune_pessimistic):
    """Pessimistic pruning returns the smallest committee of least training error in its removal sequence.

    Paper, *Pessimistic Pruning*: "This pruning returns the smallest DC having the lowest error of
    the sequence".

    Parameters
    ----------
    rng : numpy.random.Generator
    prune : callable, default=:func:`companion._partition_boosting.prune_pessimistic`

    Returns
    -------
    (bool, str)
    """
    same = trials = 0
    for _ in range(10):
        sat = rng.random((150, 8)) < 0.3
        vectors = rng.integers(-1, 2, (8, 3))
        y = rng.integers(0, 3, 150)
        w = np.full(150, 1 / 150)
        prior = np.bincount(y, weights=w, minlength=3)
        same += list(np.asarray(prune(sat, vectors, y, w, prior)).tolist()) == _naive_pessimistic(sat, vectors, y)
        trials += 1
    return same == trials, (f"{trials} random committees of 8 rules on 150 examples: the rules kept equal those of "
                            f"the removal loop (integer error counts) in {same}/{trials}")


def _single_pass(sat, vectors, lengths, y, w, prior, *, n_literals, strength, delta):
    """Optimistic pruning as the paper's sentence reads: each rule tested once, first to last, both
    committees (with and without it) predicted afresh; our reconstructed Kearns-Mansour penalty."""
    n = len(y)
    contributions = sat[:, :, None] * rule_votes(vectors)[None, :, :]
    kept = np.ones(len(vectors), dtype=bool)
    scores = contributions.sum(axis=1)
    for i in range(len(vectors)):
        local = sat[:, i]
        m_t = int(local.sum())
        if m_t == 0:
            kept[i] = False
            continue
        _, predictions = default_and_predictions(np.stack([scores, scores - contributions[:, i, :]]), y, w, prior)
        before, after = (int(v) for v in (predictions[:, local] != y[None, local]).sum(axis=1))
        penalty = strength * np.sqrt(((lengths[i] + 1) * np.log(max(n_literals, 2)) + np.log(n / delta)) / m_t)
        if after - before <= penalty * m_t:
            kept[i] = False
            scores = scores - contributions[:, i, :]
    return np.flatnonzero(kept)


@_plain
def check_single_pass(rng, *, prune=prune_optimistic):
    """Optimistic pruning tests each rule once, from the first rule to the last.

    Paper, *Pruning a DC*: "The algorithm is a single-pass algorithm: each rule is tested only once,
    from the first rule to the last one" (its penalty is our reconstruction).

    Parameters
    ----------
    rng : numpy.random.Generator
    prune : callable, default=:func:`companion._partition_boosting.prune_optimistic`

    Returns
    -------
    (bool, str)
    """
    same = trials = 0
    for strength in (0.0, 0.05, 0.3):
        for _ in range(20):
            n, r, c = int(rng.integers(8, 60)), int(rng.integers(2, 9)), int(rng.integers(2, 4))
            sat = rng.random((n, r)) < 0.5
            vectors = rng.integers(-1, 2, (r, c))
            y = rng.integers(0, c, n)
            lengths = rng.integers(1, 4, r)
            w = np.full(n, 1 / n)
            prior = np.bincount(y, weights=w, minlength=c) / w.sum()
            kwargs = dict(n_literals=12, strength=strength, delta=0.05)
            same += np.array_equal(np.asarray(prune(sat, vectors, lengths, y, w, prior, **kwargs)),
                                   _single_pass(sat, vectors, lengths, y, w, prior, **kwargs))
            trials += 1
    return same == trials, (f"{trials} random tie-heavy committees, c_KM in {{0, 0.05, 0.3}}: the rules kept equal "
                            f"those of the plain first-to-last loop in {same}/{trials}")


def _noisy_problem(rng, n=300):
    X = rng.integers(0, 3, (n, 10))
    y = (X[:, 0] + X[:, 1] > 2).astype(int) + (X[:, 2] == 1)
    return X, np.where(rng.random(n) < 0.2, rng.integers(0, 3, n), y)


@_plain
def check_literal_count(rng, *, size_of=lambda dc: dc.n_literals_):
    """A committee's size in literals is the sum of its monomials' lengths (a repeated literal counts each time).

    Paper, *Building Small Accurate DCs*: "the whole number of literals of the formula (if a
    literal is present k times, it is counted k times)".

    Parameters
    ----------
    rng : numpy.random.Generator
    size_of : callable
        A fitted committee to its size in literals (the attribute checked).

    Returns
    -------
    (bool, str)
    """
    same = fits = repeated = 0
    for pruning in ("none", "pessimistic", "optimistic"):
        for _ in range(3):
            X, y = _noisy_problem(rng)
            dc = DecisionCommittee(pruning=pruning, categorical_features=np.arange(10)).fit(X, y)
            every = [l for m in dc.monomials_ for l in m]
            repeated += len(every) - len(set(every))
            same += size_of(dc) == len(every)
            fits += 1
    return same == fits, (f"{fits} committees (three prunings) on random noisy 3-class problems, {repeated} repeated "
                          f"literals among them: the size equals the sum of the monomials' lengths in {same}/{fits}")


@_plain
def check_never_larger(rng, *, prune=lambda grown, X, y: grown.with_pruning("pessimistic", X, y)):
    """Pessimistic pruning never gives a larger committee, nor a worse one on the training data.

    Our check of the pruning (it only removes rules, and keeps the least training error of its
    sequence, the full committee included).

    Parameters
    ----------
    rng : numpy.random.Generator
    prune : callable
        ``(grown committee, X, y)`` to the pruned one.

    Returns
    -------
    (bool, str)
    """
    good = trials = 0
    for _ in range(8):
        X, y = _noisy_problem(rng)
        grown = DecisionCommittee(pruning="none", categorical_features=np.arange(10)).fit(X, y)
        pruned = prune(grown, X, y)
        good += (pruned.n_literals_ <= grown.n_literals_ and pruned.n_rules_ <= grown.n_rules_
                 and pruned.score(X, y) >= grown.score(X, y))
        trials += 1
    return good == trials, (f"{trials} random noisy 3-class problems: the pruned committee has no more rules or "
                            f"literals and no lower training accuracy than the grown one in {good}/{trials}")


@_plain
def check_lemma2(rng, *, vectors_of=rule_vectors):
    """Our reconstruction of eqs. (2)-(3) gives Lemma 2's two-class thresholds ``e^(1/2)`` and ``e^(3/2)``.

    The reconstruction was chosen so that Lemma 2 holds: this check holds by construction; it
    verifies the code, on random ratios on both sides of each threshold.

    Parameters
    ----------
    rng : numpy.random.Generator
    vectors_of : callable, default=:func:`companion._partition_boosting.rule_vectors`

    Returns
    -------
    (bool, str)
    """
    log_ratio = np.concatenate([rng.uniform(-3, 3, 400), [1.5 - 1e-6, 1.5 + 1e-6, 0.5 - 1e-6, 0.5 + 1e-6]])
    W = np.stack([np.ones_like(log_ratio), np.exp(log_ratio)], axis=1)  # (W_-, W_+)
    found = np.asarray(vectors_of(W)).tolist()
    expected = [[-1, 1] if r > 1.5 else [0, 1] if r > 0.5 else [0, 0] if r >= -0.5 else [1, 0] if r >= -1.5
                else [1, -1] for r in log_ratio]
    good = sum(f == e for f, e in zip(found, expected))
    return good == len(W), (f"{len(W)} ratios W+/W- = e^u, u uniform in [-3, 3] plus e^(1/2 ± 1e-6), e^(3/2 ± 1e-6): "
                            f"the vector is Lemma 2's region's in {good}/{len(W)}")


#: ``{measure key of the registry: (check, what it is)}``, in the registry's order.
CHECKS = {
    "math_Z_tree": check_z_tree,
    "math_cells_tree": check_cells_tree,
    "math_cells_2_t": check_cells_2_t,
    "math_cells_LS": check_cells_ls,
    "math_pattern_partition": check_pattern_partition,
    "math_growth_argmin": check_growth_argmin,
    "math_growth_stop": check_growth_stop,
    "math_vector_search": check_vector_search,
    "math_default_vector": check_default_vector,
    "math_pessimistic_smallest": check_pessimistic_smallest,
    "math_single_pass": check_single_pass,
    "math_literal_count": check_literal_count,
    "math_2_never_larger": check_never_larger,
    "math_lemma2": check_lemma2,
}


def math_checks(rng) -> dict:
    """Run every check of :data:`CHECKS` once, in order, on ``rng``.

    Parameters
    ----------
    rng : numpy.random.Generator
        The notebook's seeded generator.

    Returns
    -------
    dict
        ``{measure key: (ok, detail)}``: the constants the ``math_*`` measures of the registry read.
    """
    with warnings.catch_warnings():
        # a pruned committee of a random noisy problem may predict one class (SingleClassWarning)
        warnings.simplefilter("ignore", category=SingleClassWarning)
        return {key: check(rng) for key, check in CHECKS.items()}


#: The verdict words of a check by the row's category (the engine's, :mod:`companion.claims`).
_WORDS = {"mathematical": {True: "holds", False: "fails"}, "conformance": {True: "agrees", False: "differs"}}


def math_table(results: dict) -> pd.DataFrame:
    """The checks as a table: the registry row, its statement, what was run, the result.

    Parameters
    ----------
    results : dict
        :func:`math_checks`.

    Returns
    -------
    pandas.DataFrame
        Indexed by the registry id: ``kind`` (the row's category), ``statement``, ``what was run``,
        ``result``.
    """
    import companion.claims as C

    by_measure = {e["measure"]: e for e in C.load_registry("04").entries if e.get("measure", "") in results}
    rows = []
    for key, (ok, detail) in results.items():
        entry = by_measure[key]
        kind = entry["category"] + (", by construction" if entry.get("by_construction") else "")
        rows.append({"id": entry["id"], "kind": kind, "statement": entry["statement"], "what was run": detail,
                     "result": _WORDS[entry["category"]][bool(ok)]})
    return pd.DataFrame(rows).set_index("id")
