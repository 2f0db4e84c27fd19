"""The grid search (one tree of greedy states for every penalty) against one search per grid point.

The reference is the per-pair engine, :func:`companion._ball_search.greedy_ball_list` (itself
checked against the naive loop of Figure 1 in ``test_decision_list.py``), and, for the notebook's
grids, one fitted estimator per grid point (``dlm_grid_errors``/``scm_grid_errors`` with the
shared path switched off).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from companion._ball_grid import greedy_ball_lists
from companion._ball_search import BALL_TYPES, SortedDistances, greedy_ball_list
from companion.experiments import _paper01_grid as grid_lists
from companion.decision_list import DecisionListMachine
from companion._ball_search import canonical_order
from companion.experiments.paper01._grids import Grid, dlm_grid_errors, fold_sorted, scm_grid_errors
from companion.experiments.paper01._followups import _BuildDLMVariant

#: Penalties that meet exact ties: equal decimals written differently, 0, infinity, fractions
#: whose usefulness coincides with another pair's.
PENALTIES = (0.0, 0.3, 0.5, 1.0, 1.5, 2.0, 2.1, np.inf)


def _problem(rng, m, ties, n_features=2):
    X = rng.normal(size=(m, n_features))
    if ties:  # a coarse lattice: equal distances everywhere and duplicate points
        X = np.round(X * 2) / 2
    y = ((X[:, 0] + 0.7 * rng.normal(size=m)) > 0).astype(int)
    return X, y


def _same(a, b):
    return all(np.array_equal(a[key], b[key]) for key in ("kind", "centre", "border", "radius"))


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("types", [("Pi", "Ni"), BALL_TYPES, ("Ni", "No")])
@pytest.mark.parametrize("constraint", [False, True])
@pytest.mark.parametrize("tie_rule", ["larger_cover", "fewest_errors", "output_one_first"])
def test_grid_search_learns_every_pairs_own_list(rng, ties, types, constraint, tie_rule):
    pairs = list(itertools.product(PENALTIES, PENALTIES))
    for m in (30, 61):
        X, y = _problem(rng, m, ties)
        sd = SortedDistances.from_points(X)
        options = dict(types=types, max_balls=6, compression_constraint=constraint, tie_rule=tie_rule)
        grid = greedy_ball_lists(sd, y, pairs, **options)
        for (p_p, p_n), learnt in zip(pairs, grid):
            alone = greedy_ball_list(SortedDistances.from_points(X), y, p_p=p_p, p_n=p_n, **options)
            assert _same(learnt, alone), (m, p_p, p_n)


@pytest.mark.parametrize("stop_when", ["either_empty", "negatives_empty", "positives_empty"])
@pytest.mark.parametrize("removal", ["fired", "covered"])
def test_grid_search_follows_the_stopping_and_removal_rules(rng, stop_when, removal):
    pairs = list(itertools.product((0.5, 1.0, 4.8), (0.2, 1.0, np.inf)))
    X, y = _problem(rng, 50, ties=True)
    sd = SortedDistances.from_points(X)
    options = dict(types=BALL_TYPES, max_balls=None, stop_when=stop_when, removal=removal)
    for (p_p, p_n), learnt in zip(pairs, greedy_ball_lists(sd, y, pairs, **options)):
        assert _same(learnt, greedy_ball_list(sd, y, p_p=p_p, p_n=p_n, **options))


def test_grid_search_meets_exact_ties_between_classes_of_balls():
    """On a lattice many balls of different (cover, errors) are equally useful: the tie rule decides."""
    rng = np.random.default_rng(5)
    X = rng.integers(0, 3, size=(40, 2)).astype(float)
    y = (rng.random(40) < 0.5).astype(int)
    sd = SortedDistances.from_points(X)
    pairs = [(0.5, 0.5), (1.0, 1.0), (2.0, 2.0), (1.0, 0.5)]
    lists = {rule: greedy_ball_lists(sd, y, pairs, max_balls=4, tie_rule=rule)
             for rule in ("larger_cover", "fewest_errors")}
    differ = False
    for k, (p_p, p_n) in enumerate(pairs):
        for rule, grid in lists.items():
            assert _same(grid[k], greedy_ball_list(sd, y, p_p=p_p, p_n=p_n, max_balls=4, tie_rule=rule))
        differ |= not _same(lists["larger_cover"][k], lists["fewest_errors"][k])
    assert differ  # the data do exercise the tie rule


def test_weighted_or_blocked_fits_take_the_per_pair_search(rng):
    X, y = _problem(rng, 40, ties=True)
    sd = SortedDistances.from_points(X)
    weights = rng.integers(1, 4, size=40)
    pairs = [(1.0, 2.0), (0.5, 0.5)]
    grid = greedy_ball_lists(sd, y, pairs, max_balls=5, sample_weight=weights)
    for (p_p, p_n), learnt in zip(pairs, grid):
        assert _same(learnt, greedy_ball_list(sd, y, p_p=p_p, p_n=p_n, max_balls=5, sample_weight=weights))
    with pytest.raises(ValueError, match="tie_rule"):
        greedy_ball_lists(sd, y, pairs, max_balls=5, tie_rule="nearest")


def _fold(rng, m, ties, n_features=3):
    X, y = _problem(rng, m, ties, n_features)
    train = np.sort(rng.choice(m, size=int(0.8 * m), replace=False))
    test = np.setdiff1d(np.arange(m), train)
    X_ball, y_ball, sd = fold_sorted(cdist(X, X), X, y, train)
    return X_ball, y_ball, sd, X[test], y[test]


def _per_fit(monkeypatch, function, *args, **kwargs):
    """``function`` with one estimator fit per grid point (the shared lists switched off)."""
    with monkeypatch.context() as patch:
        patch.setattr(grid_lists, "lists_apply", lambda X, y: False)
        X_ball, y_ball, sd, *rest = args
        return function(X_ball, y_ball, SortedDistances(sd.distances), *rest, **kwargs)


GRID = Grid(dlm_penalties=(0.3, 1.0, 2.1, np.inf), dlm_s_max=7, scm_penalties=(0.5, 1.4, 3.0), scm_s_max=6)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("constraint", [False, True])
def test_dlm_grid_errors_equal_one_fit_per_grid_point(rng, monkeypatch, ties, constraint):
    for m in (40, 90):
        X_ball, y_ball, sd, X_test, y_test = _fold(rng, m, ties)
        fast = dlm_grid_errors(sd, X_ball, y_ball, X_test, y_test, GRID, constraint)

        def slow(X_ball, y_ball, sd, X_test, y_test):
            return dlm_grid_errors(sd, X_ball, y_ball, X_test, y_test, GRID, constraint)

        reference = _per_fit(monkeypatch, slow, X_ball, y_ball, sd, X_test, y_test)
        for got, want in zip(fast, reference):
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("ties", [False, True])
def test_scm_grid_errors_equal_one_fit_per_grid_point(rng, monkeypatch, ties):
    X_ball, y_ball, sd, X_test, y_test = _fold(rng, 80, ties)
    fast = scm_grid_errors(sd, X_ball, y_ball, X_test, y_test, GRID)

    def slow(X_ball, y_ball, sd, X_test, y_test):
        return scm_grid_errors(sd, X_ball, y_ball, X_test, y_test, GRID)

    for got, want in zip(fast, _per_fit(monkeypatch, slow, X_ball, y_ball, sd, X_test, y_test)):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("metric", ["l1", "linf"])
def test_other_metrics_and_tie_rules_equal_one_fit_per_grid_point(rng, monkeypatch, metric):
    X_ball, y_ball, _, X_test, y_test = _fold(rng, 70, ties=True)
    sd = SortedDistances.from_points(X_ball, metric)
    options = dict(metric=metric, learner=_BuildDLMVariant, tie_rule="fewest_errors")
    fast = dlm_grid_errors(sd, X_ball, y_ball, X_test, y_test, GRID, False, **options)

    def slow(X_ball, y_ball, sd, X_test, y_test):
        return dlm_grid_errors(sd, X_ball, y_ball, X_test, y_test, GRID, False, **options)

    for got, want in zip(fast, _per_fit(monkeypatch, slow, X_ball, y_ball, sd, X_test, y_test)):
        np.testing.assert_array_equal(got, want)


def test_the_shared_lists_need_the_canonical_order_and_both_classes(rng):
    X, y = _problem(rng, 30, ties=False)
    order = canonical_order(X, y)
    assert grid_lists.lists_apply(X[order], y[order])
    assert not grid_lists.lists_apply(X[order[::-1]], y[order[::-1]])
    assert not grid_lists.lists_apply(X[order], np.zeros(30, dtype=int))


def test_a_learner_with_its_own_search_is_fitted_per_grid_point(rng):
    """A DLM subclass that changes the search without naming it (``search_options``) is not bypassed."""

    class EmptyDLM(DecisionListMachine):
        def _learn(self, sd, y01, weights):
            return {"kind": np.zeros(0, int), "centre": np.zeros(0, int), "border": np.zeros(0, int),
                    "radius": np.zeros(0)}

    X_ball, y_ball, sd, X_test, y_test = _fold(rng, 50, ties=False)
    errors, balls, _, _ = dlm_grid_errors(sd, X_ball, y_ball, X_test, y_test, GRID, False, learner=EmptyDLM)
    majority = int(np.bincount(y_ball).argmax())
    assert (balls == 0).all() and (errors == (y_test != majority).sum()).all()


def _sparse_ties(rng, m):
    """Points in general position but for one duplicate: few groups of equal distances."""
    X = rng.normal(size=(m, 3))
    a, b = rng.choice(m, size=2, replace=False)
    X[a] = X[b]
    y = ((X[:, 0] + 0.7 * rng.normal(size=m)) > 0).astype(int)
    return X, y


@pytest.mark.parametrize("layout", ["none", "sparse", "lattice"])
@pytest.mark.parametrize("types", [("Pi", "Ni"), BALL_TYPES, ("Ni", "No"), ("Pi", "Po")])
def test_grid_state_summary_equals_the_counts_of_every_candidate(rng, layout, types):
    """_GridState (where each class lies along the rows) against _Summary of score_state's counts
    (every candidate ball counted): the same best cover per (output, errors) class and the same
    first ball of each class, on the root and on states after removals."""
    from companion._ball_grid import _GridState, _Summary, compiled_grid_state
    from companion._ball_search import score_state

    allowed = np.array([name in types for name in BALL_TYPES])
    for m in (25, 60):
        if layout == "sparse":
            X, y = _sparse_ties(rng, m)
        else:
            X, y = _problem(rng, m, ties=layout == "lattice", n_features=3)
        y01 = y.astype(bool)
        sd = SortedDistances.from_points(X)
        assert sd.has_ties == (layout != "none")
        alive = np.ones(m, dtype=bool)
        parent_fast = None
        grid_state_pass = compiled_grid_state()
        for _ in range(4):
            if y01[alive].all() or not y01[alive].any():
                break
            naive = _Summary(score_state(sd, y01, alive, None, allowed, None, keep_sorted=True))
            state = _GridState(sd, y01, alive, parent_fast, grid_state_pass)
            fast = state.summary(allowed)
            want = {(g, e): int(naive.best_cover[g * naive.width + e])
                    for g in (0, 1) for e in range(naive.width) if naive.best_cover[g * naive.width + e] > 0}
            got = {(g, e): int(fast.best_cover[g * fast.width + e])
                   for g in (0, 1) for e in range(fast.width) if fast.best_cover[g * fast.width + e] > 0}
            assert got == want
            for g, e in want:
                assert fast.ball(g * fast.width + e) == naive.ball(g * naive.width + e), (g, e)
            # remove what a random admissible ball fires on, as the search does
            g, e = list(want)[rng.integers(len(want))]
            centre, border = fast.ball(g * fast.width + e)
            to_centre = sd.row(centre)
            inside = y01[centre] != y01[border]
            fired = to_centre < to_centre[border] if inside else to_centre > to_centre[border]
            alive = alive & ~fired
            parent_fast = state


@pytest.mark.parametrize("layout", ["none", "sparse", "lattice"])
def test_compiled_state_pass_is_the_interpreted_function(rng, layout):
    """numba's compilation of the state pass (companion._ball_grid_kernel.grid_state) returns
    exactly what the same function returns run by Python, along a chain of removals: integer
    semantics (bool arithmetic, the branch-free compaction's spare entry) are numba's too."""
    from companion._ball_grid import _Root, compiled_grid_state
    from companion._ball_grid_kernel import grid_state

    compiled = compiled_grid_state()
    m = 40
    X, y = _sparse_ties(rng, m) if layout == "sparse" else _problem(rng, m, ties=layout == "lattice", n_features=3)
    y01 = y.astype(bool)
    sd = SortedDistances.from_points(X)
    parent = _Root(sd, y01)
    alive = np.ones(m, dtype=bool)
    for _ in range(4):
        arguments = (parent.rows, parent.order, parent.tie_index, parent.tie_sorted, alive, y01)
        interpreted, fast = grid_state(*arguments), compiled(*arguments)
        for a, b in zip(interpreted, fast):
            assert np.array_equal(a, b)
        assert fast[0].dtype == np.int64 and fast[1].dtype == np.int32
        parent = type("State", (), dict(zip(("rows", "order", "n_pos", "tie_index", "tie_sorted"), fast[:5])))
        keep = [rng.choice(np.flatnonzero(alive & y01)), rng.choice(np.flatnonzero(alive & ~y01))]
        alive = alive & (rng.random(m) < 0.8)  # a subset of the parent's, with both classes
        alive[keep] = True


@pytest.mark.parametrize("layout", ["sparse", "lattice"])
@pytest.mark.parametrize("types", [("Pi", "Ni"), BALL_TYPES, ("Ni", "No")])
@pytest.mark.parametrize("tie_rule", ["larger_cover", "fewest_errors", "output_one_first"])
def test_grid_state_search_with_equal_distances_learns_every_pairs_own_list(rng, layout, types, tie_rule):
    """The _GridState search on data with equal distances (groups of equal distances along the
    rows, however many) learns each pair's own list."""
    pairs = list(itertools.product(PENALTIES, PENALTIES))
    for m in (30, 61):
        X, y = _sparse_ties(rng, m) if layout == "sparse" else _problem(rng, m, ties=True)
        sd = SortedDistances.from_points(X)
        options = dict(types=types, max_balls=6, tie_rule=tie_rule)
        grid = greedy_ball_lists(sd, y, pairs, **options)
        for (p_p, p_n), learnt in zip(pairs, grid):
            assert _same(learnt, greedy_ball_list(SortedDistances.from_points(X), y, p_p=p_p, p_n=p_n, **options))


@pytest.mark.parametrize("layout", ["none", "sparse", "lattice"])
@pytest.mark.parametrize("tie_rule", ["larger_cover", "fewest_errors"])
@pytest.mark.parametrize("constraint", [False, True])
def test_search_of_several_type_sets_learns_each_sets_own_lists(rng, layout, tie_rule, constraint):
    """greedy_ball_lists_by_types (without the constraint the type sets share their common
    summarised states; with it each is searched alone) against each pair's own search with each
    type set, exact ties met."""
    from companion._ball_grid import greedy_ball_lists_by_types

    type_sets = [("Pi", "Ni"), BALL_TYPES, ("Ni", "No"), ("Pi", "Po"), ("Po",)]
    pairs = list(itertools.product((0.0, 0.5, 1.0, 2.1, np.inf), (0.0, 0.3, 1.0, 1.5, np.inf)))
    shared_states = 0
    for m in (30, 61):
        if layout == "sparse":
            X, y = _sparse_ties(rng, m)
        else:
            X, y = _problem(rng, m, ties=layout == "lattice")
        sd = SortedDistances.from_points(X)
        options = dict(max_balls=6, tie_rule=tie_rule, compression_constraint=constraint)
        together = greedy_ball_lists_by_types(sd, y, pairs, type_sets, **options)
        assert len(together) == len(type_sets)
        for types, lists in zip(type_sets, together):
            assert len(lists) == len(pairs)
            for (p_p, p_n), learnt in zip(pairs, lists):
                alone = greedy_ball_list(SortedDistances.from_points(X), y, p_p=p_p, p_n=p_n, types=types, **options)
                assert _same(learnt, alone), (m, types, p_p, p_n)
        # the simple and complex searches do meet common states (what the sharing saves)
        simple, complex_ = together[0], together[1]
        shared_states += sum(_same(a, b) for a, b in zip(simple, complex_))
    assert shared_states > 0
