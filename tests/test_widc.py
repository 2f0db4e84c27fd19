"""Tests of WIDC (companion.widc): the algorithm of Nock (2002) against naive references, bad input."""

import itertools

import numpy as np
import pandas as pd
import pytest
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils._param_validation import InvalidParameterError

from companion.baselines import tree_leaf_paths
from companion.preprocessing import mdl_cut_points
from companion.widc import DecisionCommittee, rule_vectors, z_partition
from companion._partition_boosting import (
    committee_predict, grow_monomials, pattern_codes, prune_optimistic, prune_pessimistic, ranking_loss_z,
    satisfaction, score_literals,
)

from tests._naive import naive_pattern_blocks, naive_score, naive_z
from companion.experiments.paper04._claims import claims_data
from companion.experiments.paper04._protocol import tree_size

# --------------------------------------------------------------------------------------------
# helpers and naive references
# --------------------------------------------------------------------------------------------


def boolean_literals(X):
    """Literal matrix [x0, ~x0, x1, ~x1, ...] of a 0/1 matrix."""
    X = np.asarray(X, dtype=bool)
    out = np.empty((X.shape[0], 2 * X.shape[1]), dtype=bool)
    out[:, 0::2], out[:, 1::2] = X, ~X
    return out


def brute_force_vector(W):
    """Minimiser of Z_t over all 3^c vectors, with the same tie-break (fewest non-zeros, largest sum)."""
    c = len(W)
    candidates = np.array(list(itertools.product([-1, 0, 1], repeat=c)))
    z = ranking_loss_z(np.broadcast_to(W, candidates.shape), candidates)
    tied = z <= z.min() + 1e-12 * max(1.0, abs(z.min()))
    best = min(candidates[tied].tolist(), key=lambda v: (sum(x != 0 for x in v), -sum(v)))
    return z.min(), best


def cube():
    """The 8 examples of {0,1}^3."""
    return np.array(list(itertools.product([0, 1], repeat=3)))


# --------------------------------------------------------------------------------------------
# Z over partitions
# --------------------------------------------------------------------------------------------


def test_z_of_one_block_is_sum_of_sqrt_impurities():
    for counts in ([5, 5], [4, 3, 3], [2, 6]):
        y = np.repeat(np.arange(len(counts)), counts)
        w = np.full(len(y), 1 / len(y))
        p = np.array(counts) / sum(counts)
        assert z_partition(np.zeros(len(y)), y, w, len(counts)) == pytest.approx(2 * np.sqrt(p * (1 - p)).sum())


def test_z_matches_loops_and_is_zero_iff_pure(rng):
    y = rng.integers(0, 3, 200)
    w = rng.random(200)
    blocks = rng.integers(0, 7, 200)
    assert z_partition(blocks, y, w, 3) == pytest.approx(naive_z(blocks, y, w, 3))
    assert z_partition(blocks * 3 + y, y, w, 3) == pytest.approx(0.0, abs=1e-12)
    assert z_partition(blocks, y, w, 3) > 0


def test_binary_z_is_kearns_mansour_impurity(rng):
    y = rng.integers(0, 2, 300)
    w = rng.random(300)
    w /= w.sum()
    blocks = rng.integers(0, 5, 300)
    expected = 0.0
    for b in range(5):
        weight = w[blocks == b].sum()
        p = w[(blocks == b) & (y == 1)].sum() / weight
        expected += 4 * weight * np.sqrt(p * (1 - p))
    assert z_partition(blocks, y, w, 2) == pytest.approx(expected)


def test_refinement_never_raises_z_and_scale_equivariance(rng):
    y = rng.integers(0, 4, 500)
    w = rng.random(500)
    coarse = rng.integers(0, 4, 500)
    fine = coarse * 10 + rng.integers(0, 10, 500)
    assert z_partition(fine, y, w, 4) <= z_partition(coarse, y, w, 4) + 1e-12
    assert z_partition(coarse, y, 3.5 * w, 4) == pytest.approx(3.5 * z_partition(coarse, y, w, 4))


def tree_leaf_monomials(tree, n_variables):
    """Each leaf of a tree on 0/1 features as the monomial of its path (literal ids 2v / 2v+1)."""
    # x_v <= 0.5 (the left branch) is the literal NOT x_v, id 2v + 1.
    return {
        leaf.node: tuple(2 * v + (op == "<=") for v, op, _ in leaf.conditions) for leaf in tree_leaf_paths(tree)
    }


def test_z_over_tree_leaves_equals_z_over_their_monomials(rng):
    # The paper's text: the pattern partition of the leaf monomials is the leaf partition.
    X = rng.integers(0, 2, (400, 8))
    y = (X[:, 0] ^ X[:, 3]) | (rng.random(400) < 0.2).astype(int)
    tree = DecisionTreeClassifier(max_leaf_nodes=9, random_state=0).fit(X, y)
    monomials = tree_leaf_monomials(tree, 8)
    literals = boolean_literals(X)
    sat = satisfaction(literals, list(monomials.values()))
    assert (sat.sum(axis=1) == 1).all()  # a tree's monomials are disjoint
    w = np.full(400, 1 / 400)
    assert z_partition(pattern_codes(sat), y, w, 2) == pytest.approx(z_partition(tree.apply(X), y, w, 2))
    assert len(np.unique(pattern_codes(sat))) == len(monomials)


def test_pattern_partition_refines_decision_list_partition(rng):
    X = rng.integers(0, 2, (300, 6))
    y = rng.integers(0, 3, 300)
    monomials = [(0, 3), (5,), (2, 9, 10)]
    sat = satisfaction(boolean_literals(X), monomials)
    first_rule = np.where(sat.any(axis=1), sat.argmax(axis=1), len(monomials))
    w = np.full(300, 1 / 300)
    assert z_partition(pattern_codes(sat), y, w, 3) <= z_partition(first_rule, y, w, 3) + 1e-12
    assert len(np.unique(pattern_codes(sat))) <= min(300, 2 ** len(monomials))
    assert same_partition(pattern_codes(sat), naive_pattern_blocks(sat))


def same_partition(a, b):
    """Two labellings define the same partition iff pairing them creates no new block."""
    pairs = len(set(zip(a.tolist(), b.tolist())))
    return pairs == len(set(a.tolist())) == len(set(b.tolist()))


# --------------------------------------------------------------------------------------------
# Stage 1: vectorised literal search against the naive reference, and growth
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("c", [2, 3, 5])
def test_score_literals_matches_naive_recomputation(rng, c):
    n, n_variables = 120, 7
    literals = boolean_literals(rng.integers(0, 2, (n, n_variables)))
    missing = rng.random((n, n_variables)) < 0.1  # a missing value: both polarities false
    literals[:, 0::2] &= ~missing
    literals[:, 1::2] &= ~missing
    y = rng.integers(0, c, n)
    w = rng.random(n)
    w /= w.sum()
    monomials = [(0,), (3, 6), (9,)]
    term = [4]
    base = pattern_codes(satisfaction(literals, monomials))
    inside = satisfaction(literals, [tuple(term)])[:, 0]
    fast = score_literals(literals, y, w, c, base, inside)
    np.testing.assert_allclose(fast, naive_score(literals, y, w, c, monomials, term), rtol=0, atol=1e-12)


def test_score_literals_with_empty_term_and_no_monomial(rng):
    literals = boolean_literals(rng.integers(0, 2, (60, 4)))
    y = rng.integers(0, 2, 60)
    w = np.full(60, 1 / 60)
    fast = score_literals(literals, y, w, 2, np.zeros(60, dtype=np.int64), np.ones(60, dtype=bool))
    np.testing.assert_allclose(fast, naive_score(literals, y, w, 2, [], []), atol=1e-12)


def grow_on_cube(labels):
    X = cube()
    y = np.asarray(labels)
    c = int(y.max()) + 1
    w = np.full(8, 1 / 8)
    monomials, trace = grow_monomials(boolean_literals(X), y, w, c)
    return X, y, w, c, monomials, trace


def test_and_gives_one_rule_and_exact_fit():
    X, y, w, c, monomials, trace = grow_on_cube(cube()[:, 0] & cube()[:, 1])
    assert monomials == [(0, 2)]  # x0 AND x1
    expected = [z_partition(np.zeros(8), y, w, 2), z_partition(X[:, 0], y, w, 2), 0.0]
    np.testing.assert_allclose(trace, expected, atol=1e-12)
    dc = DecisionCommittee(pruning="none", categorical_features=[0, 1, 2]).fit(X, y)
    assert dc.vectors_.tolist() == [[-1, 1]]
    assert dc.default_votes_.tolist() == [1.0, 0.0]
    assert dc.score(X, y) == 1.0


def test_or_gives_two_rules():
    X, y, w, c, monomials, trace = grow_on_cube(cube()[:, 0] | cube()[:, 1])
    assert monomials == [(0,), (2,)]
    assert trace[-1] == pytest.approx(0.0, abs=1e-12)
    assert len(trace) == 3


def test_xor_gives_no_rule():
    X, y, w, c, monomials, trace = grow_on_cube(cube()[:, 0] ^ cube()[:, 1])
    assert monomials == []
    assert trace == [pytest.approx(2.0)]
    dc = DecisionCommittee(pruning="none", categorical_features=[0, 1, 2]).fit(X, y)
    assert dc.n_rules_ == 0 and dc.n_literals_ == 0


def test_three_class_toy():
    labels = np.where(cube()[:, 0] == 1, 2, cube()[:, 1])  # 00 -> 0, 01 -> 1, 1* -> 2
    X, y, w, c, monomials, trace = grow_on_cube(labels)
    assert monomials == [(0,), (2,)]
    dc = DecisionCommittee(pruning="none", categorical_features=[0, 1, 2]).fit(X, y)
    assert dc.vectors_.tolist() == [[-1, -1, 1], [-1, 1, 1]]
    np.testing.assert_allclose(dc.default_votes_, [0.5, 0.5, 0.0])
    assert (dc.predict(X) == y).all()  # the default vector's tie-break makes 01* class 1


def test_growth_trace_strictly_decreases_and_monomials_are_valid(rng):
    X = rng.integers(0, 2, (300, 10))
    y = (X[:, 0] & X[:, 1]) | (X[:, 2] & ~X[:, 3] & 1)
    y = np.where(rng.random(300) < 0.15, 1 - y, y) + (X[:, 4] & X[:, 5])
    literals = boolean_literals(X)
    w = np.full(300, 1 / 300)
    monomials, trace = grow_monomials(literals, y, w, 3)
    assert len(monomials) > 2
    assert all(b < a for a, b in zip(trace, trace[1:]))
    assert len(set(frozenset(m) for m in monomials)) == len(monomials)
    for monomial in monomials:
        variables = [l // 2 for l in monomial]
        assert len(set(variables)) == len(variables)
    # The final Z is the Z of the final pattern partition.
    final = z_partition(pattern_codes(satisfaction(literals, monomials)), y, w, 3)
    assert trace[-1] == pytest.approx(final)


def test_growth_is_invariant_to_permuting_examples(rng):
    X = rng.integers(0, 2, (200, 6))
    y = (X[:, 0] | X[:, 2]) ^ (rng.random(200) < 0.1)
    w = np.full(200, 1 / 200)
    order = rng.permutation(200)
    first = grow_monomials(boolean_literals(X), y, w, 2)[0]
    second = grow_monomials(boolean_literals(X[order]), y[order], w, 2)[0]
    assert first == second


# --------------------------------------------------------------------------------------------
# Stage 2: vectors
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("c", [2, 3, 4, 5])
def test_vector_rule_matches_brute_force(rng, c):
    W = rng.random((200, c)) * (rng.random((200, c)) < 0.8)
    W[0] = 0.0
    W[0, 0] = 1.0
    fast = rule_vectors(W)
    for weights, vector in zip(W, fast):
        z_best, best = brute_force_vector(weights)
        assert ranking_loss_z(weights, vector) == pytest.approx(z_best, rel=1e-12, abs=1e-15)
        assert vector.tolist() == best


def test_lemma2_thresholds():
    # Ratios just inside each region of Lemma 2 (boundaries e^{1/2} and e^{3/2}).
    ratios = np.exp([2.0, 1.0, 0.0, -1.0, -2.0])
    W = np.stack([np.ones(5), ratios], axis=1)  # (W_-, W_+)
    assert rule_vectors(W).tolist() == [[-1, 1], [0, 1], [0, 0], [1, 0], [1, -1]]
    eps = 1e-6
    near = np.exp([1.5 - eps, 1.5 + eps, 0.5 - eps, 0.5 + eps])
    W = np.stack([np.ones(4), near], axis=1)
    assert rule_vectors(W).tolist() == [[0, 1], [-1, 1], [0, 0], [0, 1]]


def test_vectors_scale_and_permutation(rng):
    W = rng.random((50, 4))
    base = rule_vectors(W)
    assert (rule_vectors(7.0 * W) == base).all()
    perm = rng.permutation(4)
    assert (rule_vectors(W[:, perm]) == base[:, perm]).all()
    single = np.zeros((1, 4))
    single[0, 2] = 0.3
    assert rule_vectors(single).tolist() == [[-1, -1, 1, -1]]


# --------------------------------------------------------------------------------------------
# Classification
# --------------------------------------------------------------------------------------------


def test_tree_as_committee_predicts_like_the_tree(rng):
    X = rng.integers(0, 2, (300, 6))
    y = rng.integers(0, 3, 300)
    tree = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y)
    monomials = tree_leaf_monomials(tree, 6)
    sat = satisfaction(boolean_literals(X), list(monomials.values()))
    leaf_class = np.array([tree.tree_.value[node][0].argmax() for node in monomials])
    vectors = np.where(np.eye(3)[leaf_class] == 1, 1, -1)
    assert (committee_predict(sat, vectors, np.array([0.2, 0.5, 0.3])) == tree.predict(X)).all()


def test_decision_list_as_real_valued_committee(rng):
    X = rng.integers(0, 2, (200, 5))
    monomials = [(0, 2), (5,), (7, 8), (3,)]
    classes = [1, 0, 2, 1]
    default_class = 2
    sat = satisfaction(boolean_literals(X), monomials)
    expected = np.full(200, default_class)
    for k in range(len(monomials) - 1, -1, -1):  # the first satisfied rule decides
        expected[sat[:, k]] = classes[k]
    r = len(monomials)
    vectors = np.array([2.0 ** (r - i) * np.eye(3)[b] for i, b in enumerate(classes)])
    assert (committee_predict(sat, vectors, np.eye(3)[default_class]) == expected).all()


def test_adding_a_constant_to_a_vector_changes_nothing(rng):
    sat = rng.random((100, 5)) < 0.4
    vectors = rng.integers(-1, 2, (5, 3))
    default = np.array([0.1, 0.6, 0.3])
    shifted = vectors.copy()
    shifted[2] += 1
    assert (committee_predict(sat, vectors, default) == committee_predict(sat, shifted, default)).all()


# --------------------------------------------------------------------------------------------
# Pruning and the estimator
# --------------------------------------------------------------------------------------------


def noisy_problem(rng, n=400):
    X = rng.integers(0, 2, (n, 10)).astype(float)
    y = ((X[:, 0] * X[:, 1] + X[:, 2] * (1 - X[:, 3]) + X[:, 4]) >= 2).astype(int)
    y = np.where(rng.random(n) < 0.2, rng.integers(0, 3, n), y)
    return X, y


def test_pessimistic_pruning_is_no_worse_on_training_data_and_smaller(rng):
    X, y = noisy_problem(rng)
    grown = DecisionCommittee(pruning="none", categorical_features=np.arange(10)).fit(X, y)
    pruned = grown.with_pruning("pessimistic", X, y)
    assert pruned.score(X, y) >= grown.score(X, y)
    assert pruned.n_rules_ <= grown.n_rules_ and pruned.n_literals_ <= grown.n_literals_
    assert not (pruned.vectors_ == pruned.vectors_[:, :1]).all(axis=1).any()  # no neutral rule
    refit = DecisionCommittee(pruning="pessimistic", categorical_features=np.arange(10)).fit(X, y)
    assert refit.monomials_ == pruned.monomials_
    assert refit.n_literals_ == sum(len(m) for m in refit.monomials_)
    assert refit.n_rules_ == len(refit.monomials_)


def naive_committee_predictions(sat, vectors, y, rules):
    """Training predictions of the DC made of ``rules``, in Python integers (the package's tie rule).

    Sums of the satisfied rules' vectors; an ambiguous example (tied top classes) goes to the
    tied class with the most ambiguous training examples, then the smallest class index.
    """
    c = vectors.shape[1]
    sums = [[sum(int(vectors[j, l]) for j in rules if sat[i, j]) for l in range(c)] for i in range(len(y))]
    tops = [[l for l in range(c) if s[l] == max(s)] for s in sums]
    default = [0] * c
    for top, label in zip(tops, y.tolist()):
        if len(top) > 1:
            default[label] += 1
    return [top[0] if len(top) == 1 else max(top, key=lambda l: (default[l], -l)) for top in tops]


def naive_committee_errors(sat, vectors, y, rules):
    """Training error count (a Python int) of the DC made of ``rules``."""
    return sum(p != t for p, t in zip(naive_committee_predictions(sat, vectors, y, rules), y.tolist()))


def naive_pessimistic(sat, vectors, y):
    """Pessimistic pruning (Nock 2002) with explicit loops, errors counted in Python integers."""
    current = [i for i in range(len(vectors)) if not (vectors[i] == vectors[i, 0]).all()]
    best, best_error = list(current), naive_committee_errors(sat, vectors, y, current)
    while current:
        errors = [naive_committee_errors(sat, vectors, y, [j for j in current if j != i]) for i in current]
        pick = errors.index(min(errors))  # ties: the lowest rule index
        current.pop(pick)
        if errors[pick] <= best_error:  # not greater: the smaller DC
            best, best_error = list(current), errors[pick]
    return sorted(best)


def float_sum_pessimistic(sat, vectors, y, w, prior):
    """The former arithmetic: errors as numpy float sums of the weights, argmin over floats.

    The predictions (and their tie rule) are the naive ones above, so only the error arithmetic
    differs from :func:`naive_pessimistic`; ``prior`` is unused (it only matters without ties).
    """

    def error(rules):
        predictions = np.array(naive_committee_predictions(sat, vectors, y, rules))
        return ((predictions != y) * w).sum()

    current = [i for i in range(len(vectors)) if not (vectors[i] == vectors[i, 0]).all()]
    best, best_error = list(current), error(current)
    while current:
        errors = [error([j for j in current if j != i]) for i in current]
        current.pop(int(np.argmin(errors)))
        if min(errors) <= best_error + 1e-12:
            best, best_error = list(current), min(errors)
    return sorted(best)


def test_pessimistic_pruning_matches_naive_loops(rng):
    for _ in range(5):
        sat = rng.random((150, 8)) < 0.3
        vectors = rng.integers(-1, 2, (8, 3))
        y = rng.integers(0, 3, 150)
        w = np.full(150, 1 / 150)
        prior = np.bincount(y, weights=w, minlength=3)
        assert prune_pessimistic(sat, vectors, y, w, prior).tolist() == naive_pessimistic(sat, vectors, y)


def random_committee(seed):
    """A random committee problem (the generator the float-sum counterexamples were found with)."""
    rng = np.random.default_rng(seed)
    n, r, c = int(rng.integers(20, 200)), int(rng.integers(3, 9)), int(rng.integers(2, 4))
    sat = rng.random((n, r)) < 0.3
    vectors = rng.integers(-1, 2, (r, c))
    y = rng.integers(0, c, n)
    return sat, vectors, y


@pytest.mark.parametrize("seed", [61, 161, 181])
def test_pessimistic_pruning_counts_errors_where_float_sums_choose_differently(seed):
    # Equal error counts summed as floats of 1/n in different positions differ in the last bit
    # (numpy's pairwise sum), so the former float argmin picked another rule on these problems.
    sat, vectors, y = random_committee(seed)
    n, c = len(y), vectors.shape[1]
    w = np.full(n, 1 / n)
    prior = np.bincount(y, minlength=c) / n
    exact = naive_pessimistic(sat, vectors, y)
    assert float_sum_pessimistic(sat, vectors, y, w, prior) != exact  # the case discriminates
    assert prune_pessimistic(sat, vectors, y, w, prior).tolist() == exact
    # Any equal weights give the same integer-count decisions.
    assert prune_pessimistic(sat, vectors, y, np.full(n, 0.37), prior).tolist() == exact


def test_pessimistic_pruning_on_tie_heavy_data_matches_integer_loops(rng):
    ties = 0
    for _ in range(40):
        n, r, c = int(rng.integers(8, 40)), int(rng.integers(2, 7)), int(rng.integers(2, 5))
        sat = rng.random((n, r)) < 0.5
        vectors = rng.integers(-1, 2, (r, c))
        y = rng.integers(0, c, n)
        prior = np.bincount(y, minlength=c) / n
        kept = prune_pessimistic(sat, vectors, y, np.full(n, 1 / n), prior)
        assert kept.tolist() == naive_pessimistic(sat, vectors, y)
        current = [i for i in range(r) if not (vectors[i] == vectors[i, 0]).all()]
        if len(current) > 1:
            errors = [naive_committee_errors(sat, vectors, y, [j for j in current if j != i]) for i in current]
            ties += errors.count(min(errors)) > 1
    assert ties >= 10  # the first removal alone is a tie in many of these problems


def naive_optimistic(sat, vectors, lengths, y, n_literals, strength, delta):
    """Optimistic pruning with loops; local errors are Python integers, the test is exact."""
    import math

    n = len(y)
    current = list(range(len(vectors)))
    for i in range(len(vectors)):
        local = np.flatnonzero(sat[:, i]).tolist()
        if not local:
            current.remove(i)
            continue
        counts = []
        for rules in (current, [j for j in current if j != i]):
            predictions = naive_committee_predictions(sat, vectors, y, rules)
            counts.append(sum(predictions[k] != y[k] for k in local))
        before, after = counts
        bound = (lengths[i] + 1) * math.log(max(n_literals, 2)) + math.log(n / delta)
        penalty = strength * math.sqrt(bound / len(local))
        if after - before <= penalty * len(local):
            current.remove(i)
    return current


@pytest.mark.parametrize("strength", [0.0, 0.3])
def test_optimistic_pruning_on_tie_heavy_data_matches_integer_loops(rng, strength):
    for _ in range(25):
        n, r, c = int(rng.integers(8, 40)), int(rng.integers(2, 7)), int(rng.integers(2, 4))
        sat = rng.random((n, r)) < 0.5
        vectors = rng.integers(-1, 2, (r, c))
        y = rng.integers(0, c, n)
        lengths = rng.integers(1, 4, r)
        prior = np.bincount(y, minlength=c) / n
        kept = prune_optimistic(
            sat, vectors, lengths, y, np.full(n, 1 / n), prior, n_literals=12, strength=strength, delta=0.05
        )
        assert kept.tolist() == naive_optimistic(sat, vectors, lengths, y, 12, strength, 0.05)


def test_optimistic_zero_strength_removes_a_rule_that_keeps_the_error_count():
    # Rule 0 votes class 0 on L (37 of each class); without it L is ambiguous and the default
    # (class 1: 37 + 14 against 37 + 5) errs on the other 37 examples of L: a different error
    # set with the same count, so strength 0 removes it. Rule 1 votes class 0 on B (5 examples
    # of class 0); without it B would be wrong: it stays.
    k, extra, m_b = 37, 14, 5
    y_local = np.random.default_rng(295).permutation(np.repeat([0, 1], k))
    y = np.concatenate([y_local, np.ones(extra, dtype=int), np.zeros(m_b, dtype=int)])
    n = len(y)
    sat = np.zeros((n, 2), dtype=bool)
    sat[: 2 * k, 0] = True
    sat[2 * k + extra :, 1] = True
    vectors = np.array([[1, -1], [1, -1]])
    prior = np.bincount(y, minlength=2) / n
    before = naive_committee_predictions(sat, vectors, y, [0, 1])
    after = naive_committee_predictions(sat, vectors, y, [1])
    wrong_before = {i for i in range(2 * k) if before[i] != y[i]}
    wrong_after = {i for i in range(2 * k) if after[i] != y[i]}
    assert len(wrong_before) == len(wrong_after) == k and wrong_before != wrong_after
    for w in (np.full(n, 1 / n), np.ones(n)):
        kept = prune_optimistic(sat, vectors, np.ones(2), y, w, prior, n_literals=4, strength=0.0, delta=0.05)
        assert kept.tolist() == [1]


def test_fit_is_bitwise_invariant_to_the_order_of_the_examples(rng):
    # Z, class weights and default vectors come from integer counts: the committee, its Z trace
    # and its default vector are the same floats whatever the order of the rows.
    X = rng.normal(size=(300, 4))
    X[:, 3] = rng.integers(0, 3, 300)
    y = ((X[:, 0] > 0).astype(int) + (X[:, 1] > 0.5) + (rng.random(300) < 0.2)).astype(int)
    for _ in range(3):
        order = rng.permutation(300)
        a = DecisionCommittee(pruning="pessimistic", categorical_features=[3]).fit(X, y)
        b = DecisionCommittee(pruning="pessimistic", categorical_features=[3]).fit(X[order], y[order])
        assert a.grown_monomials_ == b.grown_monomials_ and a.monomials_ == b.monomials_
        assert a.z_trace_ == b.z_trace_  # bitwise, not approximately
        assert a.default_votes_.tobytes() == b.default_votes_.tobytes() and a.prior_.tobytes() == b.prior_.tobytes()
        assert (a.grown_vectors_ == b.grown_vectors_).all()


def test_decision_function_orders_classes_like_predict(rng):
    X = rng.integers(0, 2, (300, 6)).astype(float)
    y = rng.integers(0, 3, 300)
    dc = DecisionCommittee(pruning="none", categorical_features=np.arange(6)).fit(X, y)
    scores = dc.decision_function(X)
    assert (dc.classes_[scores.argmax(axis=1)] == dc.predict(X)).all()
    y2 = (y > 0).astype(int)
    dc2 = DecisionCommittee(pruning="none", categorical_features=np.arange(6)).fit(X, y2)
    assert (np.where(dc2.decision_function(X) > 0, 1, 0) == dc2.predict(X)).all()


def test_optimistic_pruning_extremes(rng):
    X, y = noisy_problem(rng)
    grown = DecisionCommittee(pruning="none", categorical_features=np.arange(10)).fit(X, y)
    everything = grown.with_pruning("optimistic", X, y, optimistic_strength=1e6)
    assert everything.n_rules_ == 0
    majority = np.bincount(y).argmax()
    assert (everything.predict(X) == majority).all()
    strict = grown.with_pruning("optimistic", X, y, optimistic_strength=0.0)
    assert strict.n_rules_ <= grown.n_rules_


def test_optimistic_zero_penalty_removes_exactly_rules_that_do_not_hurt_locally(rng):
    sat = rng.random((200, 6)) < 0.35
    vectors = rng.integers(-1, 2, (6, 2))
    y = rng.integers(0, 2, 200)
    w = np.full(200, 1 / 200)
    prior = np.bincount(y, weights=w, minlength=2)
    kept = prune_optimistic(sat, vectors, np.ones(6), y, w, prior, n_literals=10, strength=0.0, delta=0.05)
    current = list(range(6))  # replay the single pass with loops
    for i in range(6):
        local = sat[:, i]
        if not local.any():
            current.remove(i)
            continue
        errs = []  # local error counts (Python integers; equal weights), naive tie rule
        for rules in (current, [j for j in current if j != i]):
            pred = np.array(naive_committee_predictions(sat, vectors, y, rules))
            errs.append(int(((pred != y) & local).sum()))
        if errs[1] <= errs[0]:
            current.remove(i)
    assert kept.tolist() == current


def test_estimator_on_string_labels_and_missing_values(rng):
    X = rng.normal(size=(300, 3))
    y = np.where(X[:, 0] > 0.3, "high", np.where(X[:, 1] > 0, "mid", "low"))
    X[rng.random((300, 3)) < 0.05] = np.nan
    dc = DecisionCommittee().fit(X, y)
    assert set(dc.predict(X)) <= {"high", "mid", "low"}
    assert dc.score(X, y) > 0.8
    text = dc.to_text(feature_names=["a", "b", "c"])
    assert text.startswith("IF ") and "THEN (high: " in text and text.splitlines()[-1].startswith("DEFAULT (")
    assert str(dc) == dc.to_text()


def test_widc_cuts_numeric_columns_with_the_shared_mdl_discretiser():
    # The cut points themselves are tested in tests/test_preprocessing.py; WIDC must use them.
    x = np.repeat([0, 1, 2, 3], 25).astype(float)
    y = np.repeat([0, 1, 0, 1], 25)
    dc = DecisionCommittee(max_cuts=2).fit(x[:, None], y)
    assert sorted({v[2] for v in dc.variables_}) == mdl_cut_points(x, y, 2, max_cuts=2).tolist() == [0.5, 1.5]


def test_nominal_encoding_reads_values():
    X = np.array([[0, 2.0], [1, 0.0], [2, 1.0], [0, 2.0]] * 10)
    y = np.array([1, 0, 0, 1] * 10)
    dc = DecisionCommittee(categorical_features=[True, False]).fit(X, y)
    assert [v[:2] for v in dc.variables_][:3] == [(0, "eq")] * 3
    # y = 1 exactly when x0 is its first value: one rule on that value, nothing on x1.
    named = dc.to_text(category_names={0: ["red", "green", "blue"]})
    assert named == "IF x0 = red THEN (0: -1, 1: +1)\nDEFAULT (0: 1, 1: 0)"
    assert dc.to_text() == "IF x0 = 0 THEN (0: -1, 1: +1)\nDEFAULT (0: 1, 1: 0)"  # codes without names


# --------------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params, error, match",
    [
        ({"pruning": "sometimes"}, ValueError, "The 'pruning' parameter of DecisionCommittee must be a str among .*Got 'sometimes'"),
        ({"max_cuts": 0}, ValueError, "max_cuts"),
        ({"max_cuts": 2.5}, TypeError, "max_cuts"),
        ({"optimistic_strength": -1.0}, ValueError, "optimistic_strength"),
        ({"optimistic_delta": 1.5}, ValueError, "optimistic_delta"),
        ({"max_rules": -2}, ValueError, "max_rules"),
        ({"categorical_features": "some"}, TypeError, "categorical_features"),
        ({"categorical_features": [0, 7]}, ValueError, "categorical_features"),
        ({"categorical_features": [True]}, ValueError, "categorical_features"),
        ({"categorical_features": [0.5]}, TypeError, "categorical_features"),
    ],
)
def test_bad_parameters_are_named(params, error, match):
    X = np.zeros((10, 2))
    y = np.array([0, 1] * 5)
    with pytest.raises(error, match=match):
        DecisionCommittee(**params).fit(X, y)


def test_bad_data_is_refused_clearly():
    y = np.array([0, 1] * 5)
    X = np.zeros((10, 2))
    X[0, 0] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        DecisionCommittee().fit(X, y)
    with pytest.raises(ValueError):
        DecisionCommittee().fit(np.zeros((10, 2)), y[:9])
    fitted = DecisionCommittee().fit(np.arange(20.0).reshape(10, 2), y)
    with pytest.raises(TypeError, match="with_pruning accepts only"):
        fitted.with_pruning("optimistic", np.arange(20.0).reshape(10, 2), y, max_cuts=3)
    with pytest.raises(ValueError, match="labels that fit did not see"):
        fitted.with_pruning("optimistic", np.arange(20.0).reshape(10, 2), y + 5)
    with pytest.raises(ValueError, match="The 'pruning' parameter of DecisionCommittee must be a str among"):
        fitted.with_pruning("never", np.arange(20.0).reshape(10, 2), y)


def test_first_literal_ties_with_its_negation(rng):
    # Without missing values {l} and {not l} induce the same partition: an exact tie on Z.
    literals = boolean_literals(rng.integers(0, 2, (150, 6)))
    y = rng.integers(0, 3, 150)
    w = np.full(150, 1 / 150)
    base = pattern_codes(satisfaction(literals, [(0, 3)]))
    scores = score_literals(literals, y, w, 3, base, np.ones(150, dtype=bool))
    np.testing.assert_allclose(scores[0::2], scores[1::2], atol=1e-12)


def test_numeric_literal_polarity(rng):
    X = rng.normal(size=(200, 2))
    y = (X[:, 0] > 0.2).astype(int)
    le = DecisionCommittee(numeric_literal="le").fit(X, y)
    gt = DecisionCommittee(numeric_literal="gt").fit(X, y)
    assert [v[1] for v in le.variables_] == ["le"] * len(le.variables_)
    assert [v[1] for v in gt.variables_] == ["gt"] * len(gt.variables_)
    assert le.literal_text(0) == f"x0 <= {le.variables_[0][2]:g}" and le.literal_text(1).startswith("x0 > ")
    assert gt.literal_text(0).startswith("x0 > ") and gt.literal_text(1).startswith("x0 <= ")
    assert le.score(X, y) > 0.95 and gt.score(X, y) > 0.95
    with pytest.raises(ValueError, match="numeric_literal"):
        DecisionCommittee(numeric_literal="ge").fit(X, y)


# --------------------------------------------------------------------------------------------
# The notebook-04 protocol (companion.experiments.paper04), on small inputs
# --------------------------------------------------------------------------------------------


def test_benchmark_protocol_on_one_fold():
    from companion.experiments import paper04
    from companion.experiments.paper04 import _tables

    tidy = paper04.run(paper04.Config(datasets=("iris",), max_folds=1, others=("CART", "PRISM", "RIPPER")))
    results = _tables.folds_table(tidy)
    assert set(results["learner"]) == {"WIDC(p)", "WIDC(o)", "WIDC()", "CART", "PRISM", "RIPPER"}
    assert results["error"].between(0, 1).all() and (results["literals"] >= results["rules"]).all()
    by_learner = results.set_index("learner")
    assert by_learner.loc["WIDC(p)", "literals"] <= by_learner.loc["WIDC()", "literals"]
    claims = claims_data(tidy)
    assert {"error", "literals", "fold_error", "fold_literals", "fold_ratio"} <= set(claims)
    assert list(claims["error"].index) == ["iris"]
    assert claims["fold_ratio"] == {("iris", 0): None}  # one fold ran: its training size is unknown
    assert float(claims["fold_error"][("iris", 0, "WIDC(p)")]) == pytest.approx(by_learner.loc["WIDC(p)", "error"] * 100)
    assert claims["literals"].loc["iris", "WIDC(p)"] <= claims["literals"].loc["iris", "WIDC()"]
    with pytest.raises(ValueError, match="others must be among"):
        paper04.run(paper04.Config(datasets=("iris",), others=("C4.5",)))
    unknown = "The 'name' parameter of load_benchmark_set must be a str among .* Got 'echo' instead"
    with pytest.raises(InvalidParameterError, match=unknown):
        paper04.load_benchmark_set("echo")


def test_encode_frame_and_tree_size():
    import pandas as pd

    from companion.experiments.paper04 import _tables
    from companion.preprocessing import encode_frame

    frame = pd.DataFrame({"colour": ["red", None, "blue", "red"], "size": [1.0, 2.5, np.nan, 4.0]})
    array, nominal, names = encode_frame(frame)
    assert nominal.tolist() == [True, False]
    assert names == {0: ["blue", "red"]}
    assert np.isnan(array[1, 0]) and np.isnan(array[2, 1]) and array[0, 0] == 1.0
    with pytest.raises(TypeError, match="DataFrame"):
        encode_frame(array)
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
    tree = DecisionTreeClassifier(random_state=0).fit(X, X[:, 0] & X[:, 1])
    assert tree_size(tree) == (3, 5)  # leaves at depths 1, 2, 2
    assert _tables.pattern_cells(4) == (16, 4)


# --------------------------------------------------------------------------------------------
# Issue 14: the learner on one's own data (scores, numpy parameters, DataFrames, text)
# --------------------------------------------------------------------------------------------


def naive_proba(dc, X_train, y_train, X):
    """predict_proba by loops: same pattern, else same vote vector, else same predicted class."""
    c = len(dc.classes_)
    codes = np.searchsorted(dc.classes_, y_train)
    sat_train, sat = dc._satisfied(X_train), dc._satisfied(X)
    vectors = dc.vectors_.reshape(-1, c)
    votes_train, votes = sat_train.astype(int) @ vectors, sat.astype(int) @ vectors
    predicted_train = np.searchsorted(dc.classes_, dc.predict(X_train))
    predicted = np.searchsorted(dc.classes_, dc.predict(X))
    out = np.empty((len(sat), c))
    for i in range(len(sat)):
        for members in (
            (sat_train == sat[i]).all(axis=1),
            (votes_train == votes[i]).all(axis=1),
            predicted_train == predicted[i],
        ):
            if members.any():
                break
        counts = np.array([np.sum(codes[members] == k) for k in range(c)])
        out[i] = (counts + 1) / (counts.sum() + c)
    return out


@pytest.mark.parametrize("pruning", ["pessimistic", "optimistic", "none"])
def test_predict_proba_is_laplace_frequency_of_the_cell(rng, pruning):
    X, y = noisy_problem(rng)
    y = np.array(["a", "b", "c"])[y]
    dc = DecisionCommittee(pruning=pruning, categorical_features=np.arange(10)).fit(X[:200], y[:200])
    proba = dc.predict_proba(X)
    assert proba.shape == (400, 3)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(proba, naive_proba(dc, X[:200], y[:200], X))
    # The training cells hold exactly the training examples: their counts add up to n.
    assert dc.cell_counts_.sum() == dc.vote_class_counts_.sum() == dc.region_class_counts_.sum() == 200


def test_predict_proba_fallbacks_for_unseen_patterns():
    # Rules "x0 = 1" (+1 for class 1) and "x1 = 1" (+1 for class 0); no training row has both.
    X = np.vstack([[[1, 0]] * 10, [[0, 1]] * 10, [[0, 0]] * 10]).astype(float)
    y = np.r_[[1] * 10, [0] * 10, [0] * 7, [1] * 3]
    dc = DecisionCommittee(pruning="none", categorical_features=[0, 1]).fit(X, y)
    assert dc.n_rules_ == 2 and dc.cell_patterns_.shape == (3, 2)
    # [1, 1]: unseen pattern, but its votes cancel (S = 0) as on the 10 rows [0, 0] (7 vs 3).
    np.testing.assert_array_equal(dc.predict_proba([[1.0, 1.0], [0.0, 0.0]]), [[8 / 12, 4 / 12]] * 2)
    # Four classes, one rule per x1..x3: [0, 0, 1, 1] has an unseen pattern *and* unseen votes
    # (S = (-2, -2, 0, 0)); the committee predicts class 2 (tie of 2 and 3, equal defaults: the
    # smaller index) and the 10 training rows predicted 2 are all of class 2.
    X = np.vstack([np.eye(4)] * 10 + [np.zeros((10, 4))])
    y = np.r_[np.tile([0, 1, 2, 3], 10), np.zeros(10, dtype=int)]
    dc = DecisionCommittee(pruning="none", categorical_features=np.arange(4)).fit(X, y)
    test = np.array([[0.0, 0, 1, 1], [1, 1, 1, 1], [0, 0, 1, 0]])
    assert dc.predict(test[:1]).tolist() == [2]
    np.testing.assert_array_equal(dc.predict_proba(test[:1]), [[1 / 14, 1 / 14, 11 / 14, 1 / 14]])
    np.testing.assert_array_equal(dc.predict_proba(test), naive_proba(dc, X, y, test))


def test_with_pruning_recomputes_the_cells(rng):
    X, y = noisy_problem(rng)
    grown = DecisionCommittee(pruning="none", categorical_features=np.arange(10)).fit(X, y)
    pruned = grown.with_pruning("pessimistic", X, y)
    direct = DecisionCommittee(pruning="pessimistic", categorical_features=np.arange(10)).fit(X, y)
    np.testing.assert_array_equal(pruned.predict_proba(X), direct.predict_proba(X))
    assert pruned.cell_patterns_.shape[1] == pruned.n_rules_


def test_empty_committee_ties_go_to_the_first_class_in_every_score():
    # No rule: every example is ambiguous, D is the (balanced) class distribution, so the tie
    # rule picks the smallest class index; decision_function is exactly 0 (-> classes_[0]).
    X = np.arange(20.0).reshape(10, 2)
    y = np.array(["no", "yes"] * 5)
    dc = DecisionCommittee(max_rules=0).fit(X, y)
    assert dc.n_rules_ == 0 and (dc.predict(X) == "no").all()
    assert (dc.decision_function(X) == 0.0).all()
    np.testing.assert_array_equal(dc.predict_proba(X), np.full((10, 2), 0.5))


def test_numpy_scalar_parameters_and_grid_search(rng):
    from sklearn.model_selection import GridSearchCV

    X = rng.normal(size=(90, 3))
    y = (X[:, 0] + 0.3 * rng.normal(size=90) > 0).astype(int)
    grid = {"max_cuts": np.arange(2, 4), "optimistic_delta": np.array([0.05, 0.1])}
    search = GridSearchCV(DecisionCommittee(pruning="optimistic"), grid, cv=3).fit(X, y)
    assert isinstance(search.best_params_["max_cuts"], np.integer)
    plain = DecisionCommittee(max_cuts=3, optimistic_strength=0.5, max_rules=4).fit(X, y)
    numpy = DecisionCommittee(
        max_cuts=np.int32(3), optimistic_strength=np.float32(0.5), max_rules=np.uint8(4)
    ).fit(X, y)
    assert plain.monomials_ == numpy.monomials_
    for name in ("max_cuts", "max_rules", "optimistic_strength", "optimistic_delta"):
        with pytest.raises(TypeError, match=f"The '{name}' parameter of DecisionCommittee must be .*Got np.True_ instead"):
            DecisionCommittee(**{name: np.True_}).fit(X, y)


def test_to_text_follows_the_package_convention(rng):
    import pandas as pd

    X = rng.normal(size=(200, 2))
    y = (X[:, 0] > 0.2).astype(int)
    before = DecisionCommittee(max_cuts=3)
    assert str(before) == "DecisionCommittee(max_cuts=3)"  # parameters before fit
    on_array = DecisionCommittee().fit(X, y)
    assert "x0 <= " in on_array.to_text() and str(on_array) == on_array.to_text()
    on_frame = DecisionCommittee().fit(pd.DataFrame(X, columns=["dose", "weight"]), y)
    assert "dose <= " in on_frame.to_text() and "x0" not in on_frame.to_text()
    assert "mg <= " in on_frame.to_text(["mg", "kg"])
    with pytest.raises(ValueError, match="feature_names has 1 names but the model was fitted on 2"):
        on_frame.to_text(["mg"])
    with pytest.raises(TypeError):
        on_frame.to_text(None, {0: ["a"]})  # category_names is keyword-only


def test_dataframe_dtypes_say_which_columns_are_nominal(rng):
    import pandas as pd

    n = 300
    frame = pd.DataFrame(
        {
            "age": rng.integers(18, 80, n),
            "income": rng.normal(50.0, 10.0, n),
            "city": rng.choice(["Paris", "Nice", "Lyon"], n),
            "smoker": rng.random(n) < 0.3,
            "diet": pd.Categorical(rng.choice(["vegan", "omnivore"], n), categories=["vegan", "omnivore"]),
        }
    )
    y = np.where(frame["smoker"] | (frame["city"] == "Nice"), "sick", "well")
    dc = DecisionCommittee().fit(frame, y)
    assert dc.nominal_mask_.tolist() == [False, False, True, True, True]
    assert dc.frame_categories_ == {2: ["Lyon", "Nice", "Paris"], 3: [False, True], 4: ["vegan", "omnivore"]}
    assert dc.score(frame, y) == 1.0
    # y is the disjunction smoker OR city = Nice: one rule per literal (a vote, so in any order).
    *rules, default = dc.to_text().splitlines()
    assert sorted(rules) == ["IF city = Nice THEN (sick: +1, well: -1)", "IF smoker = True THEN (sick: +1, well: -1)"]
    assert default == "DEFAULT (sick: 0, well: 1)"
    # Whole-number floats stay numeric: the kind comes from the dtype, never from the values.
    assert DecisionCommittee().fit(frame[["age"]].astype(float), y).nominal_mask_.tolist() == [False]
    # An unseen city is a missing value: no literal on city holds, nothing fails.
    unseen = frame.head(3).copy()
    unseen["city"] = "Rome"
    assert dc.predict(unseen).shape == (3,) and dc.predict_proba(unseen).shape == (3, 2)
    # Declared nominal columns by name, and the errors of names that do not exist.
    frame["children"] = rng.integers(0, 4, n)
    named = DecisionCommittee(categorical_features=["children"]).fit(frame[["age", "children"]], y)
    assert named.nominal_mask_.tolist() == [False, True]
    with pytest.raises(ValueError, match=r"categorical_features names columns that X does not have: \['height'\]"):
        DecisionCommittee(categorical_features=["height"]).fit(frame, y)
    with pytest.raises(TypeError, match="categorical_features holds column names, but X is not a DataFrame"):
        DecisionCommittee(categorical_features=["age"]).fit(frame[["age"]].to_numpy(), y)


def test_nominal_column_with_very_many_values_warns(rng):
    import pandas as pd

    frame = pd.DataFrame({"id": [f"row{i}" for i in range(120)], "x": rng.normal(size=120)})
    y = (frame["x"] > 0).astype(int)
    with pytest.warns(UserWarning, match=r"nominal column 'id' has 120 distinct values"):
        DecisionCommittee().fit(frame, y)


def test_categorical_features_all_equals_every_index():
    """``categorical_features="all"`` (the same spelling as Prism's) declares every column nominal."""
    rng = np.random.default_rng(3)
    X = rng.integers(0, 4, size=(120, 3)).astype(float)
    y = (X[:, 0] == 2) | (X[:, 1] == 0)
    every = DecisionCommittee(categorical_features="all").fit(X, y)
    listed = DecisionCommittee(categorical_features=[0, 1, 2]).fit(X, y)
    assert every.to_text() == listed.to_text()
    np.testing.assert_array_equal(every.predict(X), listed.predict(X))
    assert "= 2" in every.to_text()  # a value test, not a threshold: the codes are categories


def _stacked_optimistic(satisfied, vectors, lengths, y, sample_weight, prior, *, n_literals, strength, delta):
    """Optimistic pruning as it was written before the current DC's predictions were carried:
    both committees (with and without rule i) predicted afresh, stacked, at every rule."""
    from companion.numerics import TIE_RTOL
    from companion._partition_boosting import default_and_predictions, rule_votes
    from companion._partition_boosting import _uniform_weight

    n = len(y)
    counting = _uniform_weight(sample_weight) is not None
    contributions = satisfied[:, :, None] * rule_votes(vectors)[None, :, :]
    kept = np.ones(len(vectors), dtype=bool)
    scores = contributions.sum(axis=1)
    log_literals = np.log(max(n_literals, 2))
    for i in range(len(vectors)):
        local = satisfied[:, i]
        m_t = int(local.sum())
        if m_t == 0:
            kept[i] = False
            continue
        stack = np.stack([scores, scores - contributions[:, i, :]])
        _, predictions = default_and_predictions(stack, y, sample_weight, prior)
        wrong = predictions[:, local] != y[None, local]
        penalty = float(strength * np.sqrt(((lengths[i] + 1) * log_literals + np.log(n / delta)) / m_t))
        if counting:
            before, after = (int(v) for v in wrong.sum(axis=1))
            remove = after - before <= penalty * m_t
        else:
            local_weight = sample_weight[local]
            before, after = (wrong * local_weight[None, :]).sum(axis=1)
            remove = after - before <= (penalty + TIE_RTOL) * float(local_weight.sum())
        if remove:
            kept[i] = False
            scores = scores - contributions[:, i, :]
    return np.flatnonzero(kept)


def _pruning_problem(rng, *, max_rules, weighted):
    """A random pruning problem with many ties: ``(sat, vectors, lengths, y, w, prior)``, small
    integer votes, integer and unequal weights when ``weighted``."""
    n, r, c = int(rng.integers(8, 60)), int(rng.integers(2, max_rules)), int(rng.integers(2, 4))
    sat = rng.random((n, r)) < 0.5
    vectors = rng.integers(-1, 2, (r, c))
    y = rng.integers(0, c, n)
    lengths = rng.integers(1, 4, r)
    w = rng.integers(1, 4, n) / n if weighted else np.full(n, 1 / n)
    prior = np.bincount(y, weights=w, minlength=c) / w.sum()
    return sat, vectors, lengths, y, w, prior


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("strength", [0.0, 0.05, 0.3])
def test_optimistic_pruning_equals_the_stacked_loop(rng, weighted, strength):
    """Carrying the current DC's predictions (recomputed only when a rule goes) keeps every
    decision of the loop that predicted both committees at each rule; tie-heavy data, integer
    and unequal weights."""
    for _ in range(30):
        args = _pruning_problem(rng, max_rules=9, weighted=weighted)
        kwargs = dict(n_literals=12, strength=strength, delta=0.05)
        assert prune_optimistic(*args, **kwargs).tolist() == _stacked_optimistic(*args, **kwargs).tolist()


@pytest.mark.parametrize("kind", ["bool", "int", "wide", "one_row", "no_column", "empty"])
def test_unique_rows_equals_numpy_unique(rng, kind):
    """The cells of predict_proba: ``_unique_rows`` gives ``np.unique(axis=0)``'s rows and inverse."""
    from companion._partition_boosting import _unique_rows

    shape = {"bool": (300, 5), "int": (300, 4), "wide": (200, 70), "one_row": (1, 3), "no_column": (7, 0),
             "empty": (0, 3)}[kind]
    rows = rng.integers(-2, 3, shape) if kind == "int" else rng.random(shape) < 0.2
    cells, inverse = _unique_rows(rows)
    expected, expected_inverse = np.unique(rows, axis=0, return_inverse=True)
    assert cells.dtype == expected.dtype and np.array_equal(cells, expected)
    assert np.array_equal(inverse, expected_inverse.reshape(-1))


@pytest.mark.parametrize("weighted", [False, True])
def test_optimistic_sweep_equals_one_pruning_per_strength(rng, weighted):
    """The shared sweep over several c_KM (groups of strengths with the same removals so far)
    keeps, for each strength, the rules the plain stacked loop keeps for it alone; tie-heavy
    data (small integer votes, repeated and zero strengths), integer and unequal weights."""
    from companion._partition_boosting import prune_optimistic_sweep

    strengths = (0.0, 0.01, 0.05, 0.05, 0.3, 1.0, 0.0, 3.0)
    for _ in range(40):
        args = _pruning_problem(rng, max_rules=10, weighted=weighted)
        swept = prune_optimistic_sweep(*args, n_literals=12, strengths=strengths, delta=0.05)
        assert len(swept) == len(strengths)
        for strength, kept in zip(strengths, swept):
            expected = _stacked_optimistic(*args, n_literals=12, strength=strength, delta=0.05)
            assert kept.tolist() == expected.tolist()


def test_with_prunings_equal_with_pruning_one_at_a_time(rng):
    """``with_prunings`` (shared literals, one optimistic sweep) gives each setting the committee
    a separate with_pruning gives: same kept rules, vectors, defaults, cells and predictions."""
    X = rng.integers(0, 4, (150, 5)).astype(float)
    y = (X[:, 0] + X[:, 1] + rng.integers(0, 3, 150) > 4).astype(int)
    grown = DecisionCommittee(pruning="none").fit(X, y)
    settings = [("pessimistic", {}), ("optimistic", dict(optimistic_strength=0.0)),
                ("optimistic", dict(optimistic_strength=0.5)), ("optimistic", dict(optimistic_strength=0.5,
                                                                                    optimistic_delta=0.2)),
                ("none", {}), ("optimistic", dict(optimistic_strength=5.0))]
    copies = grown.with_prunings(X, y, settings)
    for (pruning, params), model in zip(settings, copies):
        alone = DecisionCommittee(pruning=pruning, **params).fit(X, y)
        assert model.get_params() == alone.get_params()
        assert model.monomials_ == alone.monomials_
        assert np.array_equal(model.vectors_, alone.vectors_)
        assert np.array_equal(model.default_votes_, alone.default_votes_)
        assert np.array_equal(model.cell_counts_, alone.cell_counts_)
        assert np.array_equal(model.predict(X), alone.predict(X))


# --------------------------------------------------------------------------------------------
# The paper's statements about partitions and growth, checked exactly (claims registry of
# notebook 04: companion/experiments/registry/paper04.toml names these tests)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("t", [1, 3, 6])
def test_t_monomials_realise_up_to_two_to_the_t_cells(rng, t):
    """Partition Boosting: "a number of subsets of order O(2^t) is now possible with only t
    monomials". t one-literal monomials on t variables split {0,1}^t into exactly 2^t cells, and
    no t monomials realise more (random monomials on a larger sample)."""
    X = np.array(list(itertools.product([0, 1], repeat=t)))
    sat = satisfaction(boolean_literals(X), [(2 * v,) for v in range(t)])
    assert len(np.unique(pattern_codes(sat))) == 2**t == len(X)
    Z = rng.integers(0, 2, (600, 8))
    for _ in range(20):
        monomials = [tuple(sorted(rng.choice(16, size=int(rng.integers(1, 3)), replace=False).tolist()))
                     for _ in range(t)]
        assert len(np.unique(pattern_codes(satisfaction(boolean_literals(Z), monomials)))) <= 2**t


def test_cells_are_bounded_by_the_sample_size(rng):
    """Partition Boosting: "the number of partitions is in fact bounded by the number of examples,
    |LS|". 16 monomials could realise 65536 cells; on 40 examples at most 40 are non-empty, and
    the bound is reached when every example has its own pattern."""
    X = rng.integers(0, 2, (40, 16))
    monomials = [(2 * v,) for v in range(16)]
    codes = pattern_codes(satisfaction(boolean_literals(X), monomials))
    assert len(np.unique(codes)) <= len(X)
    distinct = np.unique(X, axis=0)
    assert len(np.unique(pattern_codes(satisfaction(boolean_literals(distinct), monomials)))) == len(distinct)


def test_growth_adds_the_literal_of_least_z_and_stops_when_none_lowers_it(rng):
    """Partition Boosting, replayed with Z recomputed from scratch (tests/_naive.py): each literal
    added is the one of least Z among all additions (not on a variable already in the monomial,
    not repeating an existing monomial; ties to the smallest id); a monomial is closed when no
    addition lowers Z, and growth stops when no new monomial lowers Z."""
    for _ in range(5):
        X = rng.integers(0, 2, (120, 5))
        y = ((X[:, 0] & X[:, 1]) | (X[:, 2] ^ (rng.random(120) < 0.2))).astype(int) + (X[:, 3] & X[:, 4])
        literals, w, c = boolean_literals(X), np.full(120, 1 / 120), 3
        monomials, trace = grow_monomials(literals, y, w, c)
        tolerance = lambda z: 1e-12 * max(1.0, z)  # noqa: E731 (grow_monomials' tie tolerance)

        def allowed(done, term):
            used = {l // 2 for l in term}
            return [l for l in range(literals.shape[1]) if l // 2 not in used
                    and frozenset(term + (l,)) not in {frozenset(m) for m in done}]

        z_current, step = trace[0], 1
        for k, monomial in enumerate(monomials + [()]):
            done = monomials[:k]
            for length in range(len(monomial) + 1):
                term = tuple(monomial[:length])
                candidates = allowed(done, term)
                scores = naive_score(literals, y, w, c, done, term)[candidates] if candidates else np.array([])
                if length < len(monomial):  # the literal added is the least-Z one, smallest id on ties
                    best = scores.min()
                    tied = [l for l, z in zip(candidates, scores) if z <= best + tolerance(best)]
                    assert monomial[length] == tied[0]
                    assert trace[step] == pytest.approx(best, rel=1e-12, abs=1e-15) and best < z_current
                    z_current, step = trace[step], step + 1
                else:  # closed (or, for the last, never started): no addition lowers Z
                    assert len(scores) == 0 or scores.min() >= z_current - tolerance(z_current)
        assert step == len(trace)


def test_default_vector_is_the_distribution_of_the_ambiguous_training_examples(rng):
    """Overview of WIDC: "The default vector is always chosen to be the observed distribution of
    ambiguously classified examples": recomputed in Python from the committee's training sums."""
    for pruning in ("none", "pessimistic", "optimistic"):
        X = rng.integers(0, 2, (200, 6))
        y = (X[:, 0] | X[:, 1]) + (X[:, 2] & (rng.random(200) < 0.5))
        dc = DecisionCommittee(pruning=pruning, categorical_features=np.arange(6)).fit(X, y)
        sat = dc._satisfied(X)
        sums = [[sum(int(dc.vectors_[j, l]) for j in range(dc.n_rules_) if sat[i, j]) for l in range(3)]
                for i in range(200)]
        ambiguous = [i for i, s in enumerate(sums) if s.count(max(s)) > 1]
        counts = np.bincount(y[ambiguous], minlength=3)
        expected = counts / counts.sum() if ambiguous else np.bincount(y, minlength=3) / 200
        np.testing.assert_allclose(dc.default_votes_, expected, rtol=0, atol=1e-15)


# --- a committee that predicts one class -----------------------------------------------------


def _imbalanced_noise(seed=0, n=200):
    """Nominal columns independent of the labels, 20 % of the rare class: nothing to learn."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 3, size=(n, 4)), np.where(rng.random(n) < 0.2, "rare", "common")


@pytest.mark.parametrize("pruning", ["pessimistic", "optimistic"])
def test_a_pruned_committee_that_predicts_one_class_warns_and_prints_always(pruning):
    import json

    from companion.interpretable import SingleClassWarning, from_dict

    X, y = _imbalanced_noise()
    with pytest.warns(SingleClassWarning, match="DecisionCommittee predicts common for every training row"):
        model = DecisionCommittee(pruning=pruning, categorical_features="all").fit(X, y)
    assert model.single_class_ == "common" and (model.predict(X) == "common").all()
    assert model.to_text() == "always common" == str(model) and model.complexity_ == 0
    rebuilt = from_dict(json.loads(json.dumps(model.to_dict())))
    assert rebuilt.single_class_ == "common" and rebuilt.to_text() == "always common" and rebuilt.complexity_ == 0
    # the same committee from the grown one (with_pruning): the same check
    grown = DecisionCommittee(pruning="none", categorical_features="all").fit(X, y)
    with pytest.warns(SingleClassWarning):
        copy = grown.with_pruning(pruning, X, y)
    assert copy.single_class_ == "common" and copy.to_text() == "always common"


def test_the_grown_committee_and_a_committee_with_signal_do_not_warn():
    import warnings

    X, y = _imbalanced_noise()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        grown = DecisionCommittee(pruning="none", categorical_features="all").fit(X, y)  # WIDC(), as grown
        signal = DecisionCommittee(categorical_features="all").fit(X, np.where(X[:, 0] == 1, "rare", "common"))
    assert grown.single_class_ is None and grown.n_rules_ > 0 and grown.to_text().startswith("IF ")
    assert signal.single_class_ is None and signal.n_rules_ >= 1 and signal.complexity_ == signal.n_literals_
    assert signal.to_text().startswith("IF ")


def _nominal_noise(seed=0, m=120):
    """Six three-valued nominal columns and a 30 % class independent of them."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.integers(0, 3, size=(m, 6)).astype(str), columns=list("abcdef"))
    return X, np.where(rng.random(m) < 0.3, "yes", "no")


def test_a_pruned_committee_that_loses_on_inner_folds_falls_back_and_says_so():
    from companion.interpretable import SingleClassWarning

    X, y = _nominal_noise()
    paper = DecisionCommittee(fallback=None).fit(X, y)
    assert paper.n_rules_ >= 1 and paper.fallback_class_ is None and paper.single_class_ is None
    with pytest.warns(SingleClassWarning, match="did not beat it on inner folds: DecisionCommittee fell back"):
        model = DecisionCommittee().fit(X, y)
    assert model.fallback_class_ == "no" == model.single_class_ == model.default_class_
    assert model.n_rules_ == 0 and model.complexity_ == 0 and model.to_text() == "always no" == str(model)
    assert (model.predict(X) == "no").all()
    # stages 1-2 are the paper's: only the outcome of the pruning changes
    assert model.grown_monomials_ == paper.grown_monomials_
    counts = np.array([(y == "no").sum(), (y == "yes").sum()])
    np.testing.assert_allclose(model.predict_proba(X.iloc[:3]), np.tile((counts + 1) / (len(y) + 2), (3, 1)))
    # with_pruning makes the same check, and the grown committee (pruning="none") is never checked
    grown = DecisionCommittee(pruning="none").fit(X, y)
    assert grown.fallback_class_ is None and grown.n_rules_ == len(grown.grown_monomials_) >= 1
    with pytest.warns(SingleClassWarning, match="fell back to the default class"):
        pruned = grown.with_pruning("pessimistic", X, y)
    assert pruned.fallback_class_ == "no" and pruned.monomials_ == []
    assert grown.set_params(fallback=None).with_pruning("pessimistic", X, y).monomials_ == paper.monomials_


def test_a_pruned_committee_that_wins_on_inner_folds_keeps_the_paper_s_rules():
    import warnings

    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 4))
    y = np.where(X[:, 0] + 0.2 * rng.normal(size=200) > 0, "rare", "common")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no SingleClassWarning, nor any other
        model = DecisionCommittee().fit(X, y)
    paper = DecisionCommittee(fallback=None).fit(X, y)
    assert model.fallback_class_ is None and model.n_rules_ >= 1
    assert model.monomials_ == paper.monomials_ and model.to_text() == paper.to_text()
