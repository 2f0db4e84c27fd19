"""Tests of the Decision List Machine and the SCM with balls (companion.decision_list, paper 01).

The vectorised greedy is checked against a naive loop over every (centre, border) candidate that
implements Figure 1 and Section 3 directly, on random data with and without tied distances. The
naive loop computes usefulness in exact rational arithmetic (``fractions.Fraction``), so it is the
ground truth for ties between equally useful balls. Both layouts of the sorted distances (the full
``SortedDistances`` and the streamed ``BlockedSortedDistances``, issue 18 and "past the memory
wall") are held to it; the streamed one also with coarse histograms (loose bounds: most centres
streamed) and a single bucket (no pruning at all).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import pandas as pd
from scipy.spatial.distance import cdist
from sklearn.base import clone

from companion.decision_list import BallSetCoveringMachine, DecisionListMachine, SortedDistances
from companion._ball_search import BALL_TYPES, BlockedSortedDistances, canonical_order, greedy_ball_list
import companion._ball_search as ball_search
from companion._ball_search import (
    _BucketCounts,
    _bucket_bounds,
    _exact_penalties,
    _exact_usefulness,
    _histograms,
    _most_useful,
    _score,
    _ScoredState,
)
from companion._learner_support import staged_predictions

# --------------------------------------------------------------------------------------------
# Naive reference: BuildDLM (Figure 1) with one Python loop per candidate
# --------------------------------------------------------------------------------------------


def exact_penalty(penalty):
    """A penalty as the decimal number it is written as (2.1 -> 21/10); None for infinity."""
    return None if np.isinf(penalty) else Fraction(repr(float(penalty)))


def naive_ball_list(
    X, y01, *, p_p, p_n, types, max_balls, stop_when="either_empty", constraint=False, metric="euclidean",
    stats=None, tie_rule="larger_cover", removal="fired",
):
    """Loop over every remaining centre and border; same tie-breaking rules as the package.

    Usefulness is an exact ``Fraction`` (penalties read as the decimals they are written as), so
    two balls are tied exactly when their usefulness is equal: no tolerance, no rounding.
    ``tie_rule`` and ``removal`` as in :func:`greedy_ball_list`, written out from their docstring.
    ``stats`` (a dict, optional) counts under ``"mixed_ties"`` the steps whose most useful balls
    differ in cover and errors (the tie rule then decides by cover, not by usefulness).
    """
    D = cdist(X, X, metric=metric)
    y01 = np.asarray(y01)
    m = len(y01)
    exact_p_p, exact_p_n = exact_penalty(p_p), exact_penalty(p_n)
    alive = np.ones(m, dtype=bool)
    compression = set()
    chosen = []
    while max_balls is None or len(chosen) < max_balls:
        n_pos = int((alive & (y01 == 1)).sum())
        n_neg = int((alive & (y01 == 0)).sum())
        if stop_when == "either_empty" and (n_pos == 0 or n_neg == 0):
            break
        if stop_when == "negatives_empty" and n_neg == 0:
            break
        if stop_when == "positives_empty" and n_pos == 0:
            break
        candidates = []
        for c in range(m):
            if not alive[c]:
                continue
            by_distance = sorted(range(m), key=lambda j: (D[c, j], j))
            for position, b in enumerate(by_distance):
                if not alive[b]:
                    continue
                if y01[c] == 1:
                    kind = "No" if y01[b] == 1 else "Pi"
                else:
                    kind = "Ni" if y01[b] == 1 else "Po"
                if kind not in types:
                    continue
                radius = D[c, b]
                inside = kind in ("Pi", "Ni")
                output = 1 if kind in ("Pi", "Po") else 0
                fired = np.flatnonzero(alive & (D[c] < radius if inside else D[c] > radius)).tolist()
                covered = sum(1 for i in fired if y01[i] == output)
                errors = len(fired) - covered
                if covered == 0:
                    continue
                if constraint and any(i in compression and y01[i] != output for i in fired):
                    continue
                penalty = exact_p_n if output == 1 else exact_p_p
                if errors and penalty is None:  # an infinite penalty forbids the error
                    continue
                usefulness = Fraction(covered) - (penalty or 0) * errors
                candidates.append((usefulness, covered, errors, output, c, position, b, kind, fired))
        if not candidates:
            break
        best = max(cand[0] for cand in candidates)
        tied = [cand for cand in candidates if cand[0] == best]
        if stats is not None and len({cand[1:3] for cand in tied}) > 1:
            stats["mixed_ties"] = stats.get("mixed_ties", 0) + 1
        rule_keys = {
            "larger_cover": lambda cand: (-cand[1], cand[2], -cand[3]),
            "fewest_errors": lambda cand: (cand[2], -cand[1], -cand[3]),
            "output_one_first": lambda cand: (-cand[3], -cand[1], cand[2]),
        }[tie_rule]
        tied.sort(key=lambda cand: (*rule_keys(cand), cand[4], cand[5]))
        _, _, _, output, c, _, b, kind, fired = tied[0]
        if removal == "covered":  # only the examples the ball classifies right leave S'
            fired = [i for i in fired if y01[i] == output]
        alive[fired] = False
        compression.update((c, b))
        chosen.append((kind, c, b))
    return chosen


def engine_list(X, y01, layout="full", **kwargs):
    metric = kwargs.pop("metric", "euclidean")
    if layout == "full":
        sd = SortedDistances.from_points(X, metric)
    else:
        sd = BlockedSortedDistances(X, metric, n_buckets=LAYOUT_BUCKETS[layout])
    out = greedy_ball_list(sd, y01, **kwargs)
    return [(BALL_TYPES[k], int(c), int(b)) for k, c, b in zip(out["kind"], out["centre"], out["border"])]


def random_problem(rng, m=40, n_features=2, ties=False):
    X = rng.normal(size=(m, n_features))
    if ties:  # coarse grid: many equal distances and some duplicate points
        X = np.round(X * 2) / 2
    y01 = ((X[:, 0] + 0.5 * rng.normal(size=m)) > 0).astype(int)
    return X, y01


# --------------------------------------------------------------------------------------------
# Agreement with the naive reference
# --------------------------------------------------------------------------------------------


LAYOUT_BUCKETS = {"blocked": None, "blocked-coarse": 3, "blocked-one-bucket": 1}
LAYOUTS = ["full", *LAYOUT_BUCKETS]


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks of a few dozen candidates, so that the blocked layout's merge across blocks runs."""
    monkeypatch.setattr(ball_search, "_BLOCKED_CANDIDATES", 37)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("types", [("Pi", "Ni"), BALL_TYPES])
@pytest.mark.parametrize("constraint", [False, True])
def test_vectorised_greedy_matches_naive_loop(rng, small_blocks, layout, ties, types, constraint):
    for _ in range(4):
        X, y01 = random_problem(rng, m=int(rng.integers(20, 45)), ties=ties)
        p_p, p_n = (float(v) for v in rng.choice([0.3, 0.5, 1.0, 1.5, 2.0, 3.0], size=2))
        kwargs = dict(p_p=p_p, p_n=p_n, types=types, max_balls=8)
        expected = naive_ball_list(X, y01, constraint=constraint, **kwargs)
        got = engine_list(X, y01, layout, compression_constraint=constraint, **kwargs)
        assert got == expected


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("metric", ["cityblock", "chebyshev"])
def test_other_metrics_match_naive_loop(rng, small_blocks, layout, metric):
    X, y01 = random_problem(rng, m=35, n_features=3)
    kwargs = dict(p_p=1.0, p_n=2.0, types=BALL_TYPES, max_balls=6)
    assert engine_list(X, y01, layout, metric=metric, **kwargs) == naive_ball_list(X, y01, metric=metric, **kwargs)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("stop_when,types", [("negatives_empty", ("Ni", "No")), ("positives_empty", ("Pi", "Po"))])
def test_scm_stopping_rule_matches_naive_loop(rng, small_blocks, layout, stop_when, types):
    X, y01 = random_problem(rng, m=40, ties=True)
    kwargs = dict(p_p=1.5, p_n=1.5, types=types, max_balls=7, stop_when=stop_when)
    assert engine_list(X, y01, layout, **kwargs) == naive_ball_list(X, y01, **kwargs)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("tie_rule", ["larger_cover", "fewest_errors", "output_one_first"])
@pytest.mark.parametrize("removal", ["fired", "covered"])
def test_tie_rule_and_removal_variants_match_naive_loop(rng, small_blocks, layout, tie_rule, removal):
    mixed = 0
    for _ in range(5):
        X, y01 = integer_problem(rng, m=int(rng.integers(25, 45)))
        kwargs = dict(p_p=1.0, p_n=1.0, types=BALL_TYPES, max_balls=6, tie_rule=tie_rule, removal=removal)
        stats = {}
        expected = naive_ball_list(X, y01, stats=stats, **kwargs)
        mixed += stats.get("mixed_ties", 0)
        assert engine_list(X, y01, layout, **kwargs) == expected
    assert mixed > 0  # the tie rule was exercised: some steps had equally useful balls of different cover


def test_tie_rules_and_removal_change_the_list_on_some_data(rng):
    """The variants are not the default under another name: each changes some list."""
    changed = {"fewest_errors": False, "output_one_first": False, "covered": False}
    for k in range(40):
        X, y01 = integer_problem(rng, m=40)
        # "output 1 first" differs only where an output-0 ball ties with a larger cover: it
        # takes unequal penalties or large ones to make that common
        p_p, p_n = [(1.0, 1.0), (0.5, 2.0), (3.0, 3.0)][k % 3]
        kwargs = dict(p_p=p_p, p_n=p_n, types=BALL_TYPES, max_balls=6)
        default = engine_list(X, y01, **kwargs)
        for rule in ("fewest_errors", "output_one_first"):
            changed[rule] |= engine_list(X, y01, tie_rule=rule, **kwargs) != default
        changed["covered"] |= engine_list(X, y01, removal="covered", **kwargs) != default
    assert all(changed.values()), changed


def test_bad_tie_rule_and_removal_are_named():
    sd = SortedDistances.from_points(np.arange(6.0)[:, None])
    with pytest.raises(ValueError, match="tie_rule"):
        greedy_ball_list(sd, [0, 1] * 3, p_p=1, p_n=1, max_balls=2, tie_rule="random")
    with pytest.raises(ValueError, match="removal"):
        greedy_ball_list(sd, [0, 1] * 3, p_p=1, p_n=1, max_balls=2, removal="all")


# --------------------------------------------------------------------------------------------
# The memory-bounded layout (issue 18): same lists, bounded memory, clear errors
# --------------------------------------------------------------------------------------------


def _balls(machine):
    return [(b.kind, b.centre_index, b.border_index, b.radius) for b in machine.balls_]


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize(
    "machine",
    [
        DecisionListMachine(scale=None, p_p=1.0, p_n=1.0, s=8, fallback=None),
        DecisionListMachine(scale=None, p_p=2.1, p_n=0.3, s=6, ball_type="simple", compression_constraint=True, fallback=None),
        BallSetCoveringMachine(scale=None, p=1.5, s=6, model_type="conjunction", fallback=None),
        BallSetCoveringMachine(scale=None, p=4.8, s=6, model_type="disjunction", metric="l1", compression_constraint=True,
                               fallback=None),
    ],
    ids=["dlm", "dlm-simple-constrained", "scm-conjunction", "scm-disjunction-l1-constrained"],
)
def test_memory_bounded_fit_learns_the_same_machine(rng, small_blocks, monkeypatch, ties, machine):
    """A limit that rules out the full layout streams the distances: nothing else changes.

    The limit (half the full layout's 56 m^2 bytes, about 1 MB) is far below the blocked layout's
    own default sizes too: it streams one centre per block, with fewer buckets, and still fits.
    """
    built = []

    class CountedBlocked(BlockedSortedDistances):
        def __init__(self, *args, **kwargs):
            built.append(self)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(ball_search, "BlockedSortedDistances", CountedBlocked)
    for _ in range(3):
        X, y01 = random_problem(rng, m=int(rng.integers(150, 250)), n_features=3, ties=ties)
        if ties:
            X[::7] = X[0]  # duplicate points as well as tied distances
        full = clone(machine).set_params(max_memory_gb=None).fit(X, y01)
        limit = 56 * len(X) ** 2 / 2 / 2**30
        n_built = len(built)
        bounded = clone(machine).set_params(max_memory_gb=limit).fit(X, y01)
        assert len(built) == n_built + 1  # the bounded fit did take the blocked layout
        assert built[-1].block_pairs == len(X) and built[-1].n_buckets < 512  # one row per block
        assert _balls(bounded) == _balls(full)
        assert bounded.n_balls_ == full.n_balls_ and bounded.default_class_ == full.default_class_
        pd.testing.assert_frame_equal(bounded.path_, full.path_)
        np.testing.assert_array_equal(bounded.cell_counts_, full.cell_counts_)
        np.testing.assert_array_equal(bounded.predict(X), full.predict(X))
        np.testing.assert_array_equal(bounded.decision_function(X), full.decision_function(X))


def test_blocked_layout_keeps_no_pair_array_and_recomputes_the_same_distances(rng):
    X = np.round(rng.normal(size=(300, 2)), 1)
    full = SortedDistances.from_points(X)
    blocked = BlockedSortedDistances(X)
    assert blocked.nbytes == 0
    # distances recomputed on demand are bit-identical to the stored ones
    np.testing.assert_array_equal(blocked.row(17), full.distances[17])
    np.testing.assert_array_equal(blocked.columns([3, 250]), full.distances[:, [3, 250]])
    # the estimate grows as m, not m^2, and stays within the default 4 GB at 100000 rows
    sizes = [BlockedSortedDistances.estimated_bytes(m) for m in (10_000, 100_000)]
    assert sizes[1] < 4 * 2**30 and sizes[1] - sizes[0] < 11 * (sizes[0] - 400 * 2**20)


@pytest.mark.parametrize("ties", [False, True])
def test_bucket_bounds_bound_every_ball_and_follow_the_removals(rng, ties):
    """The histogram bound of each centre is >= the exact usefulness of each of its balls (the full
    layout's scored state), and histograms updated after removals equal histograms rebuilt."""
    X, y01 = random_problem(rng, m=120, ties=ties)
    if ties:
        X[::5] = X[1]
    y01 = y01.astype(bool)
    full = SortedDistances.from_points(X)
    for n_buckets in (1, 4, 64):
        sd = BlockedSortedDistances(X, n_buckets=n_buckets)
        alive = np.ones(len(X), dtype=bool)
        counts = _BucketCounts.current(None, sd, y01, alive)
        for step in range(4):
            allowed = np.ones(4, dtype=bool)
            for p_p, p_n in ((1.0, 1.0), (0.3, 2.1), (np.inf, 1.0), (0.0, np.inf)):
                q, a_p, a_n, dtype, bound = _exact_penalties(p_p, p_n, int(alive.sum()))
                floor = -(bound + 1)
                bounds = _bucket_bounds(counts, y01[counts.rows], allowed, (q, a_p, a_n, p_p, p_n, dtype), floor)
                state = _score(full, y01, alive, None, allowed, None)
                if state.covered is None:
                    continue
                u = _exact_usefulness(state.covered, state.errors_p_p, state.errors_p_n, q, a_p, a_n, p_p, p_n,
                                      np.int64, floor)
                np.testing.assert_array_equal(state.rows, counts.rows)
                assert (u.max(axis=1) <= bounds).all()
            drop = np.flatnonzero(alive)[rng.random(int(alive.sum())) < 0.2]
            alive = alive.copy()
            alive[drop] = False
            counts = _BucketCounts.current(counts, sd, y01, alive)
            rebuilt = _BucketCounts.current(None, sd, y01, alive)
            np.testing.assert_array_equal(counts.rows, rebuilt.rows)
            assert counts.counts.sum() == rebuilt.counts.sum() == alive.sum() ** 2
            # same scale, same buckets: an update equals a rebuild with the original scales
            rows = counts.rows
            same_scale = _histograms(cdist(X[rows], X[rows]), counts.scale, y01[rows].astype(np.intp), n_buckets)
            np.testing.assert_array_equal(counts.counts, same_scale)


@pytest.mark.parametrize("machine", [DecisionListMachine(scale=None), BallSetCoveringMachine(scale=None)], ids=["dlm", "scm"])
def test_a_tiny_memory_limit_bounds_the_block_not_the_fit(rng, machine):
    X, y01 = random_problem(rng, m=200)
    tiny = clone(machine).set_params(max_memory_gb=1e-5).fit(X, y01)
    assert _balls(tiny) == _balls(clone(machine).fit(X, y01))


@pytest.mark.parametrize("value,error", [(0, ValueError), (-1.0, ValueError), ("4GB", TypeError)])
def test_bad_memory_limit_is_named(value, error):
    X = np.arange(20.0).reshape(10, 2)
    for machine in (DecisionListMachine(scale=None, max_memory_gb=value), BallSetCoveringMachine(scale=None, max_memory_gb=value)):
        with pytest.raises(error, match="max_memory_gb"):
            machine.fit(X, [0, 1] * 5)


def canonical_naive_list(X, y01, **kwargs):
    """The naive list on the examples in canonical order, indices mapped back to the caller's rows.

    The estimators run the greedy in the canonical order (features, then label) so that the list
    does not depend on the row order; this is what they must report.
    """
    order = canonical_order(X, y01)
    return [(kind, int(order[c]), int(order[b])) for kind, c, b in naive_ball_list(X[order], y01[order], **kwargs)]


@pytest.mark.parametrize("ties", [False, True])
def test_estimator_reports_the_engines_list(rng, ties):
    X, y01 = random_problem(rng, m=40, ties=ties)
    labels = np.where(y01 == 1, "yes", "no")
    dlm = DecisionListMachine(scale=None, p_p=2.0, p_n=0.5, s=5).fit(X, labels)
    expected = canonical_naive_list(X, y01, p_p=2.0, p_n=0.5, types=BALL_TYPES, max_balls=5)
    assert [(b.kind, b.centre_index, b.border_index) for b in dlm.balls_] == expected
    for ball in dlm.balls_:
        assert ball.radius == pytest.approx(np.linalg.norm(X[ball.centre_index] - X[ball.border_index]))
        assert ball.output == ("yes" if ball.kind in ("Pi", "Po") else "no")


# --------------------------------------------------------------------------------------------
# Exact usefulness: ties are decided by the tie rule, never by rounding
# --------------------------------------------------------------------------------------------

#: The paper's penalties that are not binary fractions (their float32/float64 values are inexact).
DECIMAL_PENALTIES = [(2.1, 0.3), (0.3, 4.8), (4.8, 2.1), (2.1, np.inf), (np.inf, 0.3)]


def integer_problem(rng, m):
    """Integer-valued features on a small grid: many equal distances, duplicates, mixed labels."""
    X = rng.integers(0, 5, size=(m, 2)).astype(float)
    y01 = ((X[:, 0] + rng.integers(-2, 3, size=m)) >= 2).astype(int)
    return X, y01


@pytest.mark.parametrize("p_p,p_n", DECIMAL_PENALTIES)
@pytest.mark.parametrize("types", [("Pi", "Ni"), BALL_TYPES])
def test_vectorised_greedy_matches_exact_reference_with_decimal_penalties(rng, p_p, p_n, types):
    stats = {}
    for k in range(6):
        X, y01 = integer_problem(rng, m=int(rng.integers(30, 60)))
        kwargs = dict(p_p=p_p, p_n=p_n, types=types, max_balls=8)
        constraint = bool(k % 2)
        expected = naive_ball_list(X, y01, constraint=constraint, stats=stats, **kwargs)
        assert engine_list(X, y01, compression_constraint=constraint, **kwargs) == expected


@pytest.mark.parametrize("p_p,p_n", DECIMAL_PENALTIES[:3])
def test_estimators_match_exact_reference_with_decimal_penalties(rng, p_p, p_n):
    X, y01 = integer_problem(rng, m=50)
    dlm = DecisionListMachine(scale=None, p_p=p_p, p_n=p_n, s=6, fallback=None).fit(X, y01)
    expected = canonical_naive_list(X, y01, p_p=p_p, p_n=p_n, types=BALL_TYPES, max_balls=6)
    assert [(b.kind, b.centre_index, b.border_index) for b in dlm.balls_] == expected
    scm = BallSetCoveringMachine(scale=None, p=p_p, s=6, model_type="conjunction", fallback=None).fit(X, y01)
    expected = canonical_naive_list(
        X, y01, p_p=p_p, p_n=1.0, types=("Ni", "No"), max_balls=6, stop_when="negatives_empty"
    )
    assert [(b.kind, b.centre_index, b.border_index) for b in scm.balls_] == expected


# A 1-D data set (integer features 0..22, one character each: ord(ch) - 48) found by a random
# search on which usefulness in float32 broke a true tie. At the second step, with p_p = 2.1 and
# p_n = 4.8, Pi balls covering 35 positives with 7 negative errors and Pi balls covering 11
# positives with 2 errors are both worth exactly 7/5 (35 - 4.8 * 7 = 11 - 4.8 * 2); float32 gave
# them 1.3999977 and 1.3999996 (1.9e-6 apart, beyond its 1.4e-6 tolerance) and took a smaller
# ball, (Pi, 1, 0), against the documented rule (larger cover first).
_ROUNDING_CASE_X = (
    ":;4B3A5ED5D>1B8A6=B=4B@=?C:<D:2>>:72E?A408@:EE95E>9561B:<6F>F@D<F@EB?D>1483A41?<==:C796BB0E68535;7D19D>:"
    "=9F=;?321F6D=;1E4:33;1A633;D34EED46B:A=@=::3E9E@4>F:;D;146B2504A?C8<2A45:5:@7C0:2A7=D;67<<7D9;6:BD69=D>"
    "86<;>909636D74379??E:84E0?B2?A?=77@1E8D@5654?=C43B5;;<>@"
)
_ROUNDING_CASE_Y = (
    "01111101111011011111111111111111011111111011110111111111011101101011101111101111101111111111111111111101"
    "10001101111011100011001111011111110111111011111110111011111011111011011111111111010111110111110111111101"
    "1111111111101101110111111111111111111101011100111111011"
)


def test_true_tie_that_float32_rounding_broke_follows_the_tie_rule():
    X = np.array([ord(ch) - 48 for ch in _ROUNDING_CASE_X], dtype=float)[:, None]
    y01 = np.array([int(ch) for ch in _ROUNDING_CASE_Y])
    kwargs = dict(p_p=2.1, p_n=4.8, types=BALL_TYPES, max_balls=2)
    got = engine_list(X, y01, **kwargs)
    assert got == naive_ball_list(X, y01, **kwargs)
    assert got == [("Po", 0, 11), ("Pi", 26, 14)]  # float32 chose ("Pi", 1, 0) second
    # the second ball is the larger of the equally useful ones: 35 positives, 7 negatives
    alive = ~(np.abs(X[:, 0] - X[0, 0]) > abs(X[11, 0] - X[0, 0]))
    fired = alive & (np.abs(X[:, 0] - X[26, 0]) < abs(X[14, 0] - X[26, 0]))
    assert (fired & (y01 == 1)).sum() == 35 and (fired & (y01 == 0)).sum() == 7
    small = alive & (np.abs(X[:, 0] - X[1, 0]) < abs(X[0, 0] - X[1, 0]))
    assert (small & (y01 == 1)).sum() == 11 and (small & (y01 == 0)).sum() == 2


def _synthetic_state(entries, n_examples):
    """A scored state with one row of ``n_examples`` candidates, the first ones given as
    ``(covered, errors_p_p, errors_p_n)``, the others inadmissible (covered 0)."""
    dtype = np.int16 if n_examples < 16_000 else np.int32
    counts = np.zeros((3, 1, n_examples), dtype=dtype)
    for j, entry in enumerate(entries):
        counts[:, 0, j] = entry
    empty = np.zeros(0)
    return _ScoredState(alive=empty, rows=empty, order=empty, sorted_rows=empty,
                        covered=counts[0], errors_p_p=counts[1], errors_p_n=counts[2])


@pytest.mark.parametrize(
    "entries,p_p,p_n,expected",
    [
        # true ties that float32 broke by rounding (15000 examples: counts as large as the engine allows)
        ([(2000, 0, 910), (2147, 0, 980)], 1.0, 2.1, [0, 1]),  # both 89
        ([(1, 0, 0), (28, 0, 90)], 1.0, 0.3, [0, 1]),  # both 1
        ([(49, 10, 0), (1, 0, 0), (241, 50, 0)], 4.8, 1.0, [0, 1, 2]),  # all 1
        ([(35, 7, 0), (11, 2, 0), (12, 2, 0)], 4.8, 2.1, [2]),  # 1.4, 1.4 and 2.4
        # genuine gaps that a relative tolerance of 1e-6 * |best| took for ties
        ([(15002, 0, 1), (15000, 0, 0)], 1.0, 2.01, [1]),  # 14999.99 < 15000
        ([(15000, 0, 0), (15005, 1, 0)], 5.001, 1.0, [0]),  # 15000 > 14999.999
        # 16 significant digits (Python integers beyond int64), read as the decimal printed:
        # 0.3333333333333333, not 1/3, so 4 - 9p = 1 + 3e-16 > 2 - 3p = 1 + 1e-16 > 1 (float64: 1, 1, 1)
        ([(4, 0, 9), (1, 0, 0), (2, 0, 3)], 1.0, 1 / 3, [0]),
        ([(1, 0, 0), (2, 0, 3), (2, 0, 3)], 1.0, 1 / 3, [1, 2]),
        # inadmissible candidates never win, even against negative usefulness
        ([(0, 0, 0), (1, 0, 5)], 1.0, 2.1, [1]),
        ([(3, 0, 1), (2, 0, 0)], 1.0, np.inf, [1]),
        ([(3, 0, 1)], 1.0, np.inf, []),
    ],
)
def test_most_useful_candidates_are_exact(entries, p_p, p_n, expected):
    state = _synthetic_state(entries, n_examples=15_000)
    np.testing.assert_array_equal(_most_useful(state, p_p, p_n), expected)


def test_most_useful_scans_every_block():
    # one candidate row per block: the best and its ties may sit in any block
    covered = np.zeros((300, 1000), dtype=np.int16)
    covered[7, 3] = covered[250, 999] = covered[299, 0] = 5
    covered[100, 100] = 4
    zero = np.zeros_like(covered)
    empty = np.zeros(0)
    state = _ScoredState(alive=empty, rows=empty, order=empty, sorted_rows=empty,
                         covered=covered, errors_p_p=zero, errors_p_n=zero)
    np.testing.assert_array_equal(_most_useful(state, 2.1, 0.3), [7 * 1000 + 3, 250 * 1000 + 999, 299 * 1000])


@pytest.mark.parametrize("metric", ["l2", "l1", "linf"])
@pytest.mark.parametrize("data", ["integer", "decimal"])
def test_predict_sees_the_distances_the_fit_saw(rng, metric, data):
    """Borders lie exactly on their radius: predict (cdist to the centres) must not fire on them.

    The fit counts training errors from the training distance matrix, predict recomputes the
    distances to the centres; both are SciPy per-pair sums, so they agree to the last bit.
    """
    for _ in range(3):
        if data == "integer":
            X, y01 = integer_problem(rng, m=60)
        else:  # several features with one decimal: sums of squares that are not exact in binary
            X = np.round(rng.normal(size=(60, 7)), 1)
            y01 = (X[:, 0] + 0.3 * rng.normal(size=60) > 0).astype(int)
        dlm = DecisionListMachine(scale=None, p_p=2.1, p_n=0.3, s=8, metric=metric, fallback=None).fit(X, y01)
        assert dlm.n_balls_ >= 1
        wrong = (staged_predictions(dlm, X) != y01).sum(axis=1)
        np.testing.assert_array_equal(wrong, (dlm.path_["k_p"] + dlm.path_["k_n"]).to_numpy())
        np.testing.assert_array_equal(dlm.predict(X), staged_predictions(dlm, X)[-1])


def test_majority_default_takes_the_first_class_on_a_tie():
    # duplicates with both labels and infinite penalties: no admissible ball, majority default
    X = np.zeros((4, 1))
    assert DecisionListMachine(scale=None, p_p=np.inf, p_n=np.inf).fit(X, ["b", "a", "b", "a"]).default_class_ == "a"
    assert DecisionListMachine(scale=None, p_p=np.inf, p_n=np.inf).fit(X, ["b", "a", "b", "b"]).default_class_ == "b"


# --------------------------------------------------------------------------------------------
# Paper properties (paper 01, Sections 2-4)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ball_type", ["simple", "complex"])
def test_infinite_penalties_give_rivests_greedy_with_zero_training_error(rng, ball_type):
    # Distinct points: a ball around each point alone is consistent, so a consistent list exists
    # and Rivest's greedy (only error-free features) must reach zero training errors.
    X, y01 = random_problem(rng, m=60)
    dlm = DecisionListMachine(scale=None, p_p=np.inf, p_n=np.inf, s=None, ball_type=ball_type).fit(X, y01)
    assert (dlm.predict(X) == y01).all()
    errors = dlm.path_[["k_p", "k_n"]].sum(axis=1).to_numpy()
    assert errors[-1] == 0
    # Every rule is error-free: each prefix errs only on examples that none of its rules reaches
    # (its default ``not b_t`` may err on more examples than the previous prefix's default did,
    # so the error count itself need not decrease).
    reached = np.zeros(len(X), dtype=bool)
    for ball, prefix_predictions in zip(dlm.balls_, staged_predictions(dlm, X)):
        distance = np.linalg.norm(X - X[ball.centre_index], axis=1)
        reached |= distance < ball.radius if ball.inside else distance > ball.radius
        assert not (reached & (prefix_predictions != y01)).any()


def _usefulness_terms(inside, y, p_p, p_n, centre_label):
    """The two terms of U (Figure 1) of the ball feature ``h`` (output the centre's label inside, the other outside)."""
    positive, negative = y == 1, y == 0
    fires_one = inside if centre_label == 1 else ~inside  # h(x) = 1
    P_i, N_i = (positive & fires_one).sum(), (negative & ~fires_one).sum()
    return P_i - p_n * (negative.sum() - N_i), N_i - p_p * (positive.sum() - P_i)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("p_p, p_n", [(1.0, 1.0), (0.5, 2.0), (3.0, 0.25)])
def test_the_most_useful_ball_is_one_of_the_four_types(rng, ties, p_p, p_n):
    # Section 3: over every centre and every radius rho in [0, inf), the largest usefulness U is
    # reached by a ball of type Pi (positive centre, radius just below a negative border), Po
    # (negative centre, just above a negative border), Ni (negative centre, just below a positive
    # border) or No (positive centre, just above a positive border). Brute force: every distinct
    # inside set {d <= t} of every centre, on S' = S and on random remaining sets S'.
    X, y01 = random_problem(rng, m=30, ties=ties)
    for trial in range(4):
        keep = np.ones(len(y01), dtype=bool) if trial == 0 else rng.random(len(y01)) < 0.6
        Xs, ys = X[keep], y01[keep]
        if len(set(ys)) < 2:
            continue
        D = cdist(Xs, Xs)
        # per (centre label, term): the best over every radius, and over the type's borders
        best_any = {key: -np.inf for key in ((1, 0), (1, 1), (0, 0), (0, 1))}
        best_typed = dict(best_any)
        for c in range(len(ys)):
            for t in np.concatenate([[-1.0], np.unique(D[c])]):
                for term, value in enumerate(_usefulness_terms(D[c] <= t, ys, p_p, p_n, ys[c])):
                    best_any[(ys[c], term)] = max(best_any[(ys[c], term)], value)
            for b in range(len(ys)):
                below = _usefulness_terms(D[c] < D[c, b], ys, p_p, p_n, ys[c])  # radius just below the border
                above = _usefulness_terms(D[c] <= D[c, b], ys, p_p, p_n, ys[c])  # just above it
                if ys[c] == 1 and ys[b] == 0:  # Pi: covers the positives inside
                    best_typed[(1, 0)] = max(best_typed[(1, 0)], below[0])
                elif ys[c] == 1:  # No: covers the negatives outside
                    best_typed[(1, 1)] = max(best_typed[(1, 1)], above[1])
                elif ys[b] == 1:  # Ni: covers the negatives inside
                    best_typed[(0, 1)] = max(best_typed[(0, 1)], below[1])
                else:  # Po: covers the positives outside
                    best_typed[(0, 0)] = max(best_typed[(0, 0)], above[0])
        assert best_typed == best_any
        assert max(best_typed.values()) == max(best_any.values())


def test_simple_dlm_uses_each_centre_once(rng):
    # Section 4: with Pi and Ni balls only, a centre is removed with the examples its ball covers,
    # so no example is the centre of two balls (balls of type Po/No may share a centre).
    for _ in range(6):
        X, y01 = random_problem(rng, m=80, ties=True)
        for p_p, p_n in ((0.5, 0.5), (1.0, 2.0), (np.inf, np.inf)):
            dlm = DecisionListMachine(scale=None, p_p=p_p, p_n=p_n, s=None, ball_type="simple").fit(X, y01)
            centres = [b.centre_index for b in dlm.balls_]
            assert len(centres) == len(set(centres)) and len(centres) >= 1

def test_finite_penalties_trade_accuracy_for_size(rng):
    X, y01 = random_problem(rng, m=80)
    exact = DecisionListMachine(scale=None, p_p=np.inf, p_n=np.inf, s=None).fit(X, y01)
    tolerant = DecisionListMachine(scale=None, p_p=0.5, p_n=0.5, s=None).fit(X, y01)
    assert tolerant.n_balls_ < exact.n_balls_


@pytest.mark.parametrize("model_type", ["conjunction", "disjunction"])
def test_restricted_dlm_equals_scm(rng, model_type):
    """BuildDLM with only (¬h, 0) moves (Ni/No) and p_p = p is the SCM conjunction (Marchand & Shawe-Taylor 2002)."""
    X, y01 = random_problem(rng, m=50, ties=True)
    p = 1.3
    scm = BallSetCoveringMachine(scale=None, p=p, s=6, model_type=model_type).fit(X, y01)
    order = canonical_order(X, y01)  # the order the estimator runs the greedy in
    sd = SortedDistances.from_points(X[order])
    if model_type == "conjunction":
        restricted = greedy_ball_list(sd, y01[order], p_p=p, p_n=123.0, types=("Ni", "No"), max_balls=6)
    else:
        restricted = greedy_ball_list(sd, y01[order], p_p=123.0, p_n=p, types=("Pi", "Po"), max_balls=6)
    r = len(restricted["centre"])
    assert r >= 1
    scm_list = [(b.centre_index, b.border_index) for b in scm.balls_][:r]
    assert scm_list == list(zip(order[restricted["centre"]].tolist(), order[restricted["border"]].tolist()))
    expected_default = 1 if model_type == "conjunction" else 0
    assert scm.default_class_ == expected_default
    assert {b.output for b in scm.balls_} == {1 - expected_default}


def test_prefix_property_one_fit_gives_every_stopping_point(rng):
    X, y01 = random_problem(rng, m=70, ties=True)
    Z = rng.normal(size=(50, 2))
    for constraint in (False, True):
        full = DecisionListMachine(scale=None, p_p=1.0, p_n=1.5, s=8, compression_constraint=constraint).fit(X, y01)
        path = staged_predictions(full, Z)
        assert path.shape == (full.n_balls_, len(Z))
        for t in range(1, full.n_balls_ + 1):
            short = DecisionListMachine(scale=None, p_p=1.0, p_n=1.5, s=t, compression_constraint=constraint).fit(X, y01)
            np.testing.assert_array_equal(path[t - 1], short.predict(Z))
        np.testing.assert_array_equal(path[-1], full.predict(Z))


def test_compression_constraint_classifies_compression_set(rng):
    for _ in range(5):
        X, y01 = random_problem(rng, m=60, ties=True)
        dlm = DecisionListMachine(scale=None, p_p=0.7, p_n=0.7, s=8, compression_constraint=True, fallback=None).fit(X, y01)
        members = dlm.compression_set_
        np.testing.assert_array_equal(dlm.predict(X[members]), y01[members])
        assert dlm.path_["compression_correct"].iloc[-1]


def test_sorted_distances_can_be_shared_across_fits(rng):
    X, y01 = random_problem(rng, m=50)
    sd = SortedDistances.from_points(X)
    for ball_type in ("simple", "complex"):
        for p in (0.5, 2.0):
            shared = DecisionListMachine(scale=None, p_p=p, p_n=1.0, ball_type=ball_type).fit(X, y01, sorted_distances=sd)
            alone = DecisionListMachine(scale=None, p_p=p, p_n=1.0, ball_type=ball_type).fit(X, y01)
            assert shared.balls_ == alone.balls_


def _ball_geometry(machine, X):
    return [
        (ball.kind, tuple(X[ball.centre_index]), tuple(X[ball.border_index]), ball.radius, ball.inside, ball.output)
        for ball in machine.balls_
    ]


def _compression_examples(machine, X):
    return sorted(zip(map(tuple, X[machine.compression_set_]), machine.compression_labels_))


@pytest.mark.parametrize(
    "machine",
    [
        DecisionListMachine(scale=None, p_p=1.0, p_n=1.5, s=8, ball_type="complex", fallback=None),
        DecisionListMachine(scale=None, p_p=np.inf, p_n=np.inf, s=None, ball_type="simple", compression_constraint=True,
                            fallback=None),
        BallSetCoveringMachine(scale=None, p=1.2, s=6, model_type="conjunction", fallback=None),
        BallSetCoveringMachine(scale=None, p=0.8, s=6, model_type="disjunction", compression_constraint=True, fallback=None),
    ],
    ids=["dlm-complex", "dlm-simple-constrained", "scm-conjunction", "scm-disjunction-constrained"],
)
def test_permuting_the_rows_learns_the_same_list(rng, machine):
    """Ties are broken in the canonical order of the examples, not in the caller's row order."""
    Z = rng.normal(size=(100, 2))
    for _ in range(4):
        # coarse grid: many tied distances, duplicate points, even duplicates with both labels
        X, y01 = random_problem(rng, m=50, ties=True)
        labels = np.where(y01 == 1, "pos", "neg")
        reference = clone(machine).fit(X, labels)
        assert reference.n_balls_ >= 1
        for _ in range(3):
            perm = rng.permutation(len(X))
            permuted = clone(machine).fit(X[perm], labels[perm])
            assert _ball_geometry(permuted, X[perm]) == _ball_geometry(reference, X)
            assert permuted.default_class_ == reference.default_class_
            # indices refer to the caller's rows: the same examples up to identical (x, y) duplicates
            assert _compression_examples(permuted, X[perm]) == _compression_examples(reference, X)
            np.testing.assert_array_equal(permuted.compression_labels_, labels[perm][permuted.compression_set_])
            np.testing.assert_array_equal(permuted.path_.to_numpy(), reference.path_.to_numpy())
            np.testing.assert_array_equal(permuted.predict(X), reference.predict(X))
            np.testing.assert_array_equal(staged_predictions(permuted, Z), staged_predictions(reference, Z))


def test_permuting_the_rows_of_shared_sorted_distances_learns_the_same_list(rng):
    X, y01 = random_problem(rng, m=50, ties=True)
    perm = rng.permutation(len(X))
    sd = SortedDistances.from_points(X[perm])
    reference = DecisionListMachine(scale=None, p_p=1.0, p_n=2.0, s=8).fit(X, y01)
    for _ in range(2):  # the second fit reuses the memoised canonical re-sort
        shared = DecisionListMachine(scale=None, p_p=1.0, p_n=2.0, s=8).fit(X[perm], y01[perm], sorted_distances=sd)
        assert _ball_geometry(shared, X[perm]) == _ball_geometry(reference, X)
        np.testing.assert_array_equal(shared.predict(X), reference.predict(X))


def test_canonical_order_sorts_by_features_then_label():
    X = np.array([[1.0, 0.0], [0.0, 5.0], [1.0, 0.0], [0.0, 2.0], [1.0, 0.0]])
    y = np.array(["b", "a", "a", "a", "b"])
    # (0,2,a) (0,5,a) (1,0,a) (1,0,b) (1,0,b): identical (x, y) rows keep their relative order
    np.testing.assert_array_equal(canonical_order(X, y), [3, 1, 2, 0, 4])


def test_simple_machine_uses_only_inside_balls(rng):
    X, y01 = random_problem(rng, m=60)
    dlm = DecisionListMachine(scale=None, p_p=1.0, p_n=1.0, s=10, ball_type="simple").fit(X, y01)
    assert {b.kind for b in dlm.balls_} <= {"Pi", "Ni"}
    assert all(b.inside for b in dlm.balls_)


def test_default_is_negation_of_last_output(rng):
    X, y01 = random_problem(rng, m=60)
    dlm = DecisionListMachine(scale=None, p_p=1.0, p_n=1.0, s=3).fit(X, y01)
    assert dlm.default_class_ != dlm.balls_[-1].output


def test_text_rendering_lists_every_ball(rng):
    X, y01 = random_problem(rng, m=40)
    dlm = DecisionListMachine(scale=None, s=3).fit(X, np.where(y01 == 1, "pos", "neg"))
    text = dlm.to_text()
    assert text.count("\n") == dlm.n_balls_
    lines = text.splitlines()
    for t, (line, ball) in enumerate(zip(lines, dlm.balls_)):
        centre = X[ball.centre_index]
        sign = "<" if ball.inside else ">"
        expected = (
            f"{'if' if t == 0 else 'else if'} ||x - (x0={round(centre[0], 4):g}, x1={round(centre[1], 4):g})||_2"
            f" {sign} {round(ball.radius, 4):g} then '{ball.output}'"
        )
        assert line == expected
    assert lines[-1] == f"else '{dlm.default_class_}'"
    assert str(dlm) == text


def test_single_class_gives_constant_classifier():
    X = np.arange(10.0).reshape(5, 2)
    dlm = DecisionListMachine(scale=None).fit(X, ["a"] * 5)
    assert dlm.n_balls_ == 0
    assert (dlm.predict(X) == "a").all()


# --------------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params,error,match",
    [
        (dict(p_p=-1.0), ValueError, "p_p"),
        (dict(p_n="big"), TypeError, "p_n"),
        (dict(s=0), ValueError, "'s' parameter of DecisionListMachine must be an int in the range"),
        (dict(s=2.5), TypeError, "'s' parameter"),
        (dict(ball_type="round"), ValueError, "ball_type"),
        (dict(metric="hamming-ish"), ValueError, "metric"),
        (dict(compression_constraint="yes"), TypeError, "compression_constraint"),
    ],
)
def test_bad_parameters_are_named(params, error, match):
    X = np.arange(20.0).reshape(10, 2)
    y = [0, 1] * 5
    with pytest.raises(error, match=match):
        DecisionListMachine(scale=None, **params).fit(X, y)


def test_scm_bad_parameters_are_named():
    X = np.arange(20.0).reshape(10, 2)
    y = [0, 1] * 5
    with pytest.raises(ValueError, match="model_type"):
        BallSetCoveringMachine(scale=None, model_type="both").fit(X, y)
    with pytest.raises(ValueError, match=r"'p' parameter of BallSetCoveringMachine must be a float in the range \[0.0, inf\]"):
        BallSetCoveringMachine(scale=None, p=-0.1).fit(X, y)


def test_multiclass_and_nan_are_rejected():
    X = np.arange(18.0).reshape(9, 2)
    with pytest.raises(ValueError, match="binary"):
        DecisionListMachine(scale=None).fit(X, [0, 1, 2] * 3)
    X_nan = X.copy()
    X_nan[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        DecisionListMachine(scale=None).fit(X_nan, [0, 1, 0] * 3)


def test_mismatched_sorted_distances_are_rejected(rng):
    X, y01 = random_problem(rng, m=20)
    other = SortedDistances.from_points(X[:10])
    with pytest.raises(ValueError, match="sorted_distances"):
        DecisionListMachine(scale=None).fit(X, y01, sorted_distances=other)
    with pytest.raises(ValueError, match="square"):
        SortedDistances(np.zeros((3, 4)))
    with pytest.raises(ValueError, match="non-negative"):
        SortedDistances(-np.ones((3, 3)))


# --------------------------------------------------------------------------------------------
# Scores, readable models and your own data (issue 14)
# --------------------------------------------------------------------------------------------

# The paper's machines (fallback=None): the scores of their balls on random tables, where the
# fallback to the default class would often leave none.
SCORED_MACHINES = [
    DecisionListMachine(scale=None, p_p=1.0, p_n=1.5, s=8, ball_type="complex", fallback=None),
    DecisionListMachine(scale=None, p_p=0.5, p_n=2.0, s=6, ball_type="simple", compression_constraint=True, fallback=None),
    BallSetCoveringMachine(scale=None, p=1.2, s=6, model_type="conjunction", fallback=None),
    BallSetCoveringMachine(scale=None, p=0.8, s=6, model_type="disjunction", metric="l1", fallback=None),
]
SCORED_IDS = ["dlm-complex", "dlm-simple-constrained", "scm-conjunction", "scm-disjunction-l1"]


def reference_decision(machine, X):
    """The documented margin, one point and one ball at a time (loops, no vectorisation)."""
    metric = {"l2": "euclidean", "l1": "cityblock"}[machine.metric]
    scores = []
    for x in X:
        depths, fired = [], []
        for ball, centre in zip(machine.balls_, machine.centres_):
            d = cdist(x[None, :], centre[None, :], metric=metric)[0, 0]
            r = ball.radius
            rho = (d - r) / max(d, r) if max(d, r) > 0 else 0.0
            depths.append(-rho if ball.inside else rho)
            fired.append(d < r if ball.inside else d > r)
        positive = machine.classes_[1]
        if any(fired):
            if isinstance(machine, BallSetCoveringMachine):  # the deepest firing ball
                j = max((depth, -i) for i, (depth, f) in enumerate(zip(depths, fired)) if f)[1] * -1
            else:  # the first firing ball
                j = fired.index(True)
            sign = 1.0 if machine.balls_[j].output == positive else -1.0
            scores.append(sign * (1.0 + depths[j]))
        else:
            escape = min([-depth for depth in depths], default=1.0)
            sign = 1.0 if machine.default_class_ == positive else -1.0
            scores.append(sign * (1.0 + escape) / 2.0)
    return np.array(scores)


@pytest.mark.parametrize("machine", SCORED_MACHINES, ids=SCORED_IDS)
@pytest.mark.parametrize("ties", [False, True])
def test_decision_function_sign_is_predict_and_matches_its_definition(rng, machine, ties):
    for _ in range(3):
        X, y01 = random_problem(rng, m=60, ties=ties)
        labels = np.where(y01 == 1, "yes", "no")
        model = clone(machine).fit(X, labels)
        assert model.n_balls_ >= 1
        # training points (borders lie exactly on their radius) and fresh ones, some on the grid
        Z = np.vstack([X, rng.normal(size=(80, 2)), np.round(rng.normal(size=(40, 2)) * 2) / 2])
        scores = model.decision_function(Z)
        assert scores.shape == (len(Z),)
        np.testing.assert_array_equal(np.where(scores > 0, "yes", "no"), model.predict(Z))
        np.testing.assert_allclose(scores, reference_decision(model, Z), rtol=1e-12, atol=0)
        # a ball decides: |score| in (1, 2]; the default: [1/2, 1]
        magnitude = np.abs(scores)
        assert ((magnitude >= 0.5) & (magnitude <= 2)).all()
        decided_by_ball = magnitude > 1
        assert decided_by_ball.any() and (~decided_by_ball).any()


def test_decision_function_by_hand():
    # one Pi ball centred on 3 with radius 2 (border 1), output 'b'; default 'a'
    X = np.array([[0.0], [1.0], [2.0], [3.0], [10.0], [11.0]])
    y = np.array(["a", "a", "b", "b", "a", "a"])
    dlm = DecisionListMachine(scale=None, p_p=np.inf, p_n=np.inf, s=5, ball_type="simple").fit(X, y)
    assert [(b.kind, b.radius) for b in dlm.balls_] == [("Pi", 2.0)]
    Z = np.array([[3.0], [2.5], [4.9], [1.0], [5.0], [30.0]])
    # inside: 1 + (r - d) / r; outside (default 'a', negative): (1 + (d - r) / d) / 2
    expected = [2.0, 1.75, 1.05, -0.5, -0.5, -(1 + 25 / 27) / 2]
    np.testing.assert_allclose(dlm.decision_function(Z), expected, rtol=1e-14)


def test_predict_proba_is_laplace_frequencies_of_the_cells_by_hand():
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [10.0], [11.0], [12.0]])
    y = np.array(["a", "a", "b", "b", "a", "a", "a", "b"])
    dlm = DecisionListMachine(scale=None, p_p=1.0, p_n=1.0, s=1, ball_type="simple", fallback=None).fit(X, y)
    # the most useful ball: 'a' within 12 of 0 (border 12), 5 'a' covered, 2 'b' errors
    assert [(b.kind, b.centre_index, b.border_index, b.radius, b.output) for b in dlm.balls_] == [
        ("Ni", 0, 7, 12.0, "a")
    ]
    assert dlm.default_class_ == "b"
    # ball 1 decides 0, 1, 2, 3, 4, 10, 11 ('a' x 5, 'b' x 2); the default decides 12 ('b')
    np.testing.assert_array_equal(dlm.cell_counts_, [[5, 2], [0, 1]])
    proba = dlm.predict_proba(np.array([[0.0], [11.9], [12.0], [-20.0]]))
    # ball: ((5 + 1) / (7 + 2), (2 + 1) / 9); default: ((0 + 1) / (1 + 2), (1 + 1) / 3)
    np.testing.assert_allclose(proba, [[2 / 3, 1 / 3], [2 / 3, 1 / 3], [1 / 3, 2 / 3], [1 / 3, 2 / 3]], rtol=1e-15)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-15)
    assert list(dlm.predict(np.array([[0.0], [12.0]]))) == ["a", "b"]
    frame = dlm.balls_frame()
    assert (frame["n_covered"].tolist(), frame["n_errors"].tolist()) == ([5], [2])


@pytest.mark.parametrize("machine", SCORED_MACHINES, ids=SCORED_IDS)
def test_predict_proba_cells_partition_the_training_set(rng, machine):
    X, y01 = random_problem(rng, m=70, ties=True)
    model = clone(machine).fit(X, y01)
    counts = model.cell_counts_
    assert counts.shape == (model.n_balls_ + 1, 2)
    assert counts.sum() == len(X)
    np.testing.assert_array_equal(counts.sum(axis=0), np.bincount(y01))
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-15)
    # every training point gets its cell's Laplace frequency; the cells reproduce the counts
    cells = np.unique(proba, axis=0, return_counts=True)
    expected = (counts + 1) / (counts.sum(axis=1, keepdims=True) + 2)
    for row, n in zip(*cells):
        matches = np.flatnonzero(np.isclose(expected, row, rtol=0, atol=1e-15).all(axis=1))
        assert counts[matches].sum() == n
    # a ball or default whose cell holds mostly its own output agrees with predict
    frame = model.balls_frame()
    agree = frame["n_covered"] > frame["n_errors"]
    assert agree.any()


def _breast_cancer():
    from sklearn.datasets import load_breast_cancer

    return load_breast_cancer(return_X_y=True, as_frame=True)


@pytest.mark.parametrize("machine", [DecisionListMachine(scale=None), BallSetCoveringMachine(scale=None)], ids=["dlm", "scm"])
def test_roc_auc_and_log_loss_scoring_on_breast_cancer(machine):
    from sklearn.model_selection import cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = _breast_cancer()
    model = make_pipeline(StandardScaler(), machine)
    auc = cross_val_score(model, X, y, cv=3, scoring="roc_auc")
    assert np.isfinite(auc).all() and auc.mean() > 0.85
    log_loss = cross_val_score(model, X, y, cv=3, scoring="neg_log_loss")
    assert np.isfinite(log_loss).all() and (log_loss < 0).all()


def test_text_names_dataframe_columns_and_no_training_row(rng):
    X, y01 = random_problem(rng, m=50, n_features=3)
    frame = pd.DataFrame(X, columns=["age", "income", "height"])
    dlm = DecisionListMachine(scale=None, p_p=1.0, p_n=1.5, s=4, fallback=None).fit(frame, y01)
    text = dlm.to_text()
    ball = dlm.balls_[0]
    values = ", ".join(f"{name}={round(v, 4):g}" for name, v in zip(frame.columns, X[ball.centre_index]))
    assert text.splitlines()[0].startswith(f"if ||x - ({values})||_2 ")
    assert "x[" not in text and "#" not in text and "centre" not in text
    assert dlm.to_text(feature_names=["a", "b", "c"]).splitlines()[0].startswith("if ||x - (a=")
    with pytest.raises(ValueError, match="feature_names has 2 names"):
        dlm.to_text(feature_names=["a", "b"])
    # the table view: the centres by name, the border by row, the counts of each ball's cell
    table = dlm.balls_frame()
    assert list(table.columns[:8]) == [
        "kind", "fires", "radius", "output", "n_covered", "n_errors", "centre_index", "border_index"
    ]
    np.testing.assert_array_equal(table[["age", "income", "height"]].to_numpy(), X[table["centre_index"]])
    np.testing.assert_array_equal(table["radius"], [b.radius for b in dlm.balls_])
    assert (table["n_covered"] + table["n_errors"]).sum() == dlm.cell_counts_[:-1].sum()


def test_text_with_many_features_names_balls_and_tabulates_centres():
    X, y = _breast_cancer()
    dlm = DecisionListMachine(scale=None, s=3).fit(X, y)
    text = dlm.to_text(decimals=2)
    lines = text.splitlines()
    assert lines[0].startswith("if ||x - c1||_2 ")
    assert lines[dlm.n_balls_] == f"else {int(dlm.default_class_)}"
    # then the centres: one row per feature (named), one column per ball
    header = lines[dlm.n_balls_ + 1].split()
    assert header == [f"c{t + 1}" for t in range(dlm.n_balls_)]
    table = lines[dlm.n_balls_ + 3:]  # after the header and the index-name line
    rows = {line.rsplit(None, dlm.n_balls_)[0].strip(): line.split()[-dlm.n_balls_:] for line in table}
    assert list(rows) == list(X.columns)
    assert rows["mean area"][0] == f"{round(dlm.centres_[0, 3], 2):g}"
    # more features inline when asked
    assert dlm.to_text(max_inline=30).splitlines()[0].startswith("if ||x - (mean radius=")


def test_pipeline_text_uses_the_pipeline_feature_names(rng):
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    from companion.interpretable import pipeline_text

    n = 80
    frame = pd.DataFrame({
        "age": rng.integers(20, 70, size=n), "income": rng.normal(3000, 800, size=n),
        "city": rng.choice(["Paris", "Nice"], size=n),
    })
    y = np.where(frame["age"] + rng.normal(0, 5, size=n) > 45, "old", "young")
    prep = ColumnTransformer([("num", StandardScaler(), ["age", "income"]), ("cat", OneHotEncoder(), ["city"])])
    model = make_pipeline(prep, DecisionListMachine(scale=None, s=3)).fit(frame, y)
    text = pipeline_text(model)
    assert "num__age=" in text and "cat__city_Paris=" in text


def test_string_column_goes_through_the_one_input_pipeline():
    frame = pd.DataFrame({"age": [30.0, 40.0, 50.0, 60.0, 35.0, 55.0], "city": ["Paris", "Nice", "Paris", "Lyon", "Nice", "Lyon"]})
    for machine in (DecisionListMachine(scale=None), BallSetCoveringMachine(scale=None)):
        machine.fit(frame, [0, 1, 0, 1, 1, 0])
        assert {"city=Paris", "city=Nice", "city=Lyon"} <= set(machine.input_encoder_.names_out_)
        assert machine.predict(frame).shape == (6,)
        with pytest.raises(ValueError, match=rf"{type(machine).__name__} was fitted on a DataFrame with nominal columns"):
            machine.predict(frame.to_numpy()[:, :1])


def test_wine_through_one_vs_rest():
    from sklearn.datasets import load_wine
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_wine(return_X_y=True)
    with pytest.raises(ValueError, match=r"Only binary classification .*OneVsRestClassifier"):
        DecisionListMachine(scale=None).fit(X, y)
    for machine in (DecisionListMachine(scale=None, s=5), BallSetCoveringMachine(scale=None, s=5)):
        model = OneVsRestClassifier(make_pipeline(StandardScaler(), machine)).fit(X, y)
        assert (model.predict(X) == y).mean() > 0.9
        assert model.decision_function(X).shape == (len(y), 3)


def test_numpy_scalar_parameters(rng):
    X, y01 = random_problem(rng, m=50, ties=True)
    plain = DecisionListMachine(scale=None, p_p=2.1, p_n=0.3, s=5, ball_type="simple", compression_constraint=True).fit(X, y01)
    numpy = DecisionListMachine(scale=None, 
        p_p=np.float32(2.1), p_n=np.float64(0.3), s=np.int64(5), ball_type=np.str_("simple"),
        compression_constraint=np.bool_(True), metric=np.str_("l2"),
    ).fit(X, y01)
    assert numpy.balls_ == plain.balls_
    scm = BallSetCoveringMachine(scale=None, p=np.float32(1.5), s=np.int32(4), model_type=np.str_("disjunction")).fit(X, y01)
    assert scm.balls_ == BallSetCoveringMachine(scale=None, p=1.5, s=4, model_type="disjunction").fit(X, y01).balls_
    with pytest.raises(TypeError, match="'s' parameter"):
        DecisionListMachine(scale=None, s=np.float64(3.0)).fit(X, y01)
    with pytest.raises(TypeError, match="p_p"):
        DecisionListMachine(scale=None, p_p=np.bool_(True)).fit(X, y01)


# --------------------------------------------------------------------------------------------
# Sample weights, class weights, the safe stop, exported models
# --------------------------------------------------------------------------------------------

WEIGHTED_MACHINES = [
    DecisionListMachine(scale=None, p_p=1.0, p_n=1.0, s=8),
    DecisionListMachine(scale=None, p_p=2.1, p_n=0.3, s=6, ball_type="simple", compression_constraint=True),
    BallSetCoveringMachine(scale=None, p=1.5, s=6, model_type="conjunction"),
    BallSetCoveringMachine(scale=None, p=0.7, s=6, model_type="disjunction", metric="l1", compression_constraint=True),
]
WEIGHTED_IDS = ["dlm", "dlm-simple-constrained", "scm-conjunction", "scm-disjunction-l1-constrained"]


def _same_decisions(a, b, X):
    np.testing.assert_array_equal(a.predict(X), b.predict(X))
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    np.testing.assert_array_equal(staged_predictions(a, X), staged_predictions(b, X))
    assert a.to_text() == b.to_text()
    np.testing.assert_array_equal(a.cell_counts_, b.cell_counts_)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("machine", WEIGHTED_MACHINES, ids=WEIGHTED_IDS)
def test_integer_weights_are_duplicated_rows_and_zero_weights_dropped_rows(rng, machine, ties):
    for _ in range(3):
        X, y01 = random_problem(rng, m=int(rng.integers(30, 60)), ties=ties)
        weights = rng.integers(0, 4, size=len(X))
        weights[:2] = [0, 3]
        weighted = clone(machine).fit(X, y01, sample_weight=weights)
        repeated = clone(machine).fit(np.repeat(X, weights, axis=0), np.repeat(y01, weights))
        dropped = clone(machine).fit(X[weights > 0], y01[weights > 0], sample_weight=weights[weights > 0])
        X_new = rng.normal(size=(200, 2))
        for reference in (repeated, dropped):
            _same_decisions(weighted, reference, np.vstack([X, X_new]))
        assert weighted.path_[["k_p", "k_n"]].equals(repeated.path_[["k_p", "k_n"]])
        # the indices name the caller's rows: never a row of weight 0
        assert (weights[weighted.compression_set_] > 0).all()


@pytest.mark.parametrize("machine", WEIGHTED_MACHINES, ids=WEIGHTED_IDS)
def test_half_integer_weights_take_the_real_path_and_learn_the_exact_model(rng, machine):
    """Weights k/2 are summed in float64 (tied within TIE_RTOL): exact here, so the model is that
    of the integer weights k (usefulness scales by 1/2)."""
    X, y01 = random_problem(rng, m=50, ties=True)
    k = rng.integers(1, 5, size=len(X))
    halves = clone(machine).fit(X, y01, sample_weight=k / 2)
    whole = clone(machine).fit(X, y01, sample_weight=k)
    assert _balls(halves) == _balls(whole)
    np.testing.assert_array_equal(halves.predict(X), whole.predict(X))
    np.testing.assert_allclose(halves.cell_counts_, whole.cell_counts_ / 2)


def test_unit_weights_and_class_weight(rng):
    X, y01 = random_problem(rng, m=60, ties=True)
    y01[:40] = 0  # imbalanced
    from sklearn.utils.class_weight import compute_sample_weight

    # the search's weights (the fallback's inner folds weigh a fold's classes on the fold)
    for machine in (DecisionListMachine(scale=None, s=6, fallback=None), BallSetCoveringMachine(scale=None, s=6, model_type="disjunction", fallback=None)):
        plain = clone(machine).fit(X, y01)
        ones = clone(machine).fit(X, y01, sample_weight=np.ones(len(X)))
        assert _balls(ones) == _balls(plain)
        balanced = clone(machine).set_params(class_weight="balanced").fit(X, y01)
        explicit = clone(machine).fit(X, y01, sample_weight=compute_sample_weight("balanced", y01))
        assert _balls(balanced) == _balls(explicit)
        by_dict = clone(machine).set_params(class_weight={0: 1, 1: 3}).fit(X, y01)
        assert _balls(by_dict) == _balls(clone(machine).fit(X, y01, sample_weight=np.where(y01 == 1, 3, 1)))


def test_bad_weights_are_named(rng):
    X, y01 = random_problem(rng, m=20)
    with pytest.raises(ValueError, match="Negative values .*sample_weight"):
        DecisionListMachine(scale=None).fit(X, y01, sample_weight=-np.ones(20))
    with pytest.raises(ValueError, match="at least one non-zero"):
        DecisionListMachine(scale=None).fit(X, y01, sample_weight=np.zeros(20))
    with pytest.raises(ValueError, match="class_weight"):
        DecisionListMachine(scale=None, class_weight="even").fit(X, y01)
    # a weighted fit keeps every distance: refused, by name, beyond the memory limit
    with pytest.raises(ValueError, match="sample_weight .* max_memory_gb"):
        DecisionListMachine(scale=None, max_memory_gb=1e-6).fit(X, y01, sample_weight=np.arange(1, 21))


@pytest.mark.parametrize("machine", WEIGHTED_MACHINES, ids=WEIGHTED_IDS)
def test_the_default_stop_keeps_only_balls_that_change_a_training_prediction(rng, machine):
    for _ in range(5):
        X, y01 = random_problem(rng, m=40, ties=True)
        X[rng.random(len(X)) < 0.3] = X[0]  # duplicated points with both labels
        safe = clone(machine).set_params(stop_if_unchanged=True, s=None).fit(X, y01)
        paper = clone(machine).set_params(stop_if_unchanged=False, s=None).fit(X, y01)
        # a prefix of the paper's list
        assert _balls(safe) == _balls(paper)[: safe.n_balls_]
        majority = np.full(len(X), np.bincount(y01).argmax())
        stages = np.vstack([majority, staged_predictions(paper, X)])
        changes = (stages[1:] != stages[:-1]).any(axis=1)
        # it stops exactly before the first ball that changes nothing
        expected = int(np.argmin(changes)) if not changes.all() else len(changes)
        if machine.compression_constraint:
            assert safe.n_balls_ <= expected
        else:
            assert safe.n_balls_ == expected


def test_the_stop_drops_a_ball_that_changes_nothing():
    # Pi ball around 0 covers the 'b's at 0 and 1; then the remaining examples (the 'a's) are
    # all fired on by a ball whose output is the old default: it changes no prediction.
    X = np.array([[0.0], [1.0], [5.0], [6.0], [7.0]])
    y = np.array(["b", "b", "a", "a", "a"])
    paper = DecisionListMachine(scale=None, p_p=1.0, p_n=1.0, s=None, stop_if_unchanged=False).fit(X, y)
    safe = DecisionListMachine(scale=None, p_p=1.0, p_n=1.0, s=None).fit(X, y)
    assert (safe.predict(X) == y).all() and (paper.predict(X) == y).all()
    assert safe.n_balls_ <= paper.n_balls_


def _mixed_table(seed=0, n=400):
    """Numeric columns in different units and one nominal column, 60/40 classes."""
    rng = np.random.default_rng(seed)
    age = rng.normal(45, 12, n).round()
    income = rng.lognormal(8, 0.5, n).round()
    city = rng.choice(["Paris", "Lille", "Nice", "Lyon"], n)
    score = 0.04 * (age - 45) + 0.8 * (income > 3500) + 0.7 * (city == "Paris") + rng.normal(0, 0.8, n)
    y = np.where(score > np.quantile(score, 0.6), "yes", "no")
    return pd.DataFrame({"age": age, "income": income, "city": city}), y


@pytest.mark.parametrize("cls", [DecisionListMachine, BallSetCoveringMachine])
def test_defaults_beat_the_majority_class(cls):
    from sklearn.compose import ColumnTransformer
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    X, y = load_breast_cancer(return_X_y=True)
    assert cross_val_score(cls(), X, y, cv=cv).mean() > max(np.mean(y), 1 - np.mean(y)) + 0.2  # measured 0.90
    X, y = _mixed_table()
    encode = ColumnTransformer([("num", "passthrough", ["age", "income"]), ("cat", OneHotEncoder(), ["city"])])
    assert cross_val_score(make_pipeline(encode, cls()), X, y, cv=cv).mean() > 0.6 + 0.02  # measured 0.67, 0.64


def test_export_names_centres_radius_metric_and_class():
    import json

    from companion import from_dict

    X, y = _mixed_table(n=120)
    X = X.assign(paris=(X["city"] == "Paris").astype(float)).drop(columns="city")
    dlm = DecisionListMachine(scale=None, s=4, metric="l1", fallback=None).fit(X, y)
    data = json.loads(json.dumps(dlm.to_dict(), allow_nan=False))
    model = data["model"]
    assert model["metric"] == "cityblock" and model["columns"] == ["age", "income", "paris"]
    assert len(model["balls"]) == dlm.n_balls_ > 0
    for ball, row in zip(model["balls"], dlm.balls_):
        # the centre by its column names and values: usable without the training set
        assert ball["centre"] == dict(zip(X.columns, X.iloc[row.centre_index].tolist()))
        assert ball["radius"] == row.radius and ball["output"] in ("yes", "no")
        assert ball["fires"] == ("inside" if row.inside else "outside")
    assert model["default_class"] == dlm.default_class_
    rebuilt = from_dict(data)
    np.testing.assert_array_equal(staged_predictions(rebuilt, X), staged_predictions(dlm, X))
    # a ball's test recomputed from the export alone
    first = model["balls"][0]
    distance = np.abs(X[model["columns"]].to_numpy() - [first["centre"][c] for c in model["columns"]]).sum(axis=1)
    fires = distance < first["radius"] if first["fires"] == "inside" else distance > first["radius"]
    assert (dlm.predict(X)[fires] == first["output"]).all()


@pytest.mark.parametrize("machine", WEIGHTED_MACHINES, ids=WEIGHTED_IDS)
def test_rules_frame_counts_the_cells(rng, machine):
    X, y01 = random_problem(rng, m=60, ties=True)
    fitted = clone(machine).fit(X, y01)
    frame = fitted.rules_frame(X, y01)
    assert len(frame) == fitted.n_balls_ + 1 and frame["kind"].iloc[-1] == "default"
    # a row is decided by its first firing ball, else by the default: every row exactly once
    assert frame["covered"].sum() == len(X)
    # the cells of the fit, counted again from the frame's predictions
    np.testing.assert_array_equal(frame["covered"], fitted.cell_counts_.sum(axis=1))
    lines = fitted.to_text().splitlines()
    for t, condition in enumerate(frame["condition"][:-1]):
        assert condition in lines[t]


def test_weights_with_shared_sorted_distances(rng):
    """A SortedDistances of all the rows serves a weighted fit too (rows of weight 0 left out)."""
    X, y01 = random_problem(rng, m=50, ties=True)
    weights = rng.integers(0, 3, size=len(X))
    for machine in WEIGHTED_MACHINES:
        sd = SortedDistances.from_points(X, machine.metric)  # computed under the machine's metric
        shared = clone(machine).fit(X, y01, sample_weight=weights, sorted_distances=sd)
        alone = clone(machine).fit(X, y01, sample_weight=weights)
        assert _balls(shared) == _balls(alone)
        np.testing.assert_array_equal(shared.cell_counts_, alone.cell_counts_)


# --------------------------------------------------------------------------------------------
# The fallback to the default class (fallback="inner_cv", the users' default)
# --------------------------------------------------------------------------------------------

BALL_MACHINES = [DecisionListMachine(scale=None), BallSetCoveringMachine(scale=None), BallSetCoveringMachine(scale=None, model_type="disjunction")]
BALL_MACHINE_IDS = ["dlm", "scm-conjunction", "scm-disjunction"]


def _no_signal(seed=0, m=200):
    """Labels drawn independently of the features, 35 % positive: nothing to learn."""
    rng = np.random.default_rng(seed)
    return rng.normal(size=(m, 4)), np.where(rng.random(m) < 0.35, "rare", "common")


def _signal(seed=0, m=200):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, 4))
    return X, np.where(X[:, 0] + 0.2 * rng.normal(size=m) > 0, "rare", "common")


@pytest.mark.parametrize("machine", BALL_MACHINES, ids=BALL_MACHINE_IDS)
def test_a_table_with_no_signal_falls_back_to_the_default_class_and_says_so(machine):
    from companion.interpretable import SingleClassWarning

    X, y = _no_signal()
    paper = clone(machine).set_params(fallback=None).fit(X, y)
    assert paper.n_balls_ >= 1 and paper.fallback_class_ is None  # the paper's machine keeps its balls
    with pytest.warns(SingleClassWarning, match="did not beat it on inner folds.*fell back to the default class"):
        model = clone(machine).fit(X, y)
    assert model.fallback_class_ == "common" == model.single_class_ == model.default_class_
    assert model.n_balls_ == 0 and model.complexity_ == 0 and model.balls_ == [] and len(model.path_) == 0
    assert model.to_text() == "always common" == str(model)
    assert (model.predict(X) == "common").all()
    assert list(model.staged_predict(X)) == []
    # the cell of every row is the default: its probabilities are the training frequencies, Laplace-corrected
    counts = np.array([(y == "common").sum(), (y == "rare").sum()])
    np.testing.assert_allclose(model.predict_proba(X[:3]), np.tile((counts + 1) / (len(y) + 2), (3, 1)))


@pytest.mark.parametrize("machine", BALL_MACHINES, ids=BALL_MACHINE_IDS)
def test_a_table_with_signal_keeps_the_paper_s_balls(machine):
    import warnings

    X, y = _signal()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no SingleClassWarning, nor any other
        model = clone(machine).fit(X, y)
    paper = clone(machine).set_params(fallback=None).fit(X, y)
    assert model.fallback_class_ is None and model.single_class_ is None and model.n_balls_ >= 1
    # the fallback's check changes nothing else: the same balls as without it, the same text
    assert _balls(model) == _balls(paper) and model.to_text() == paper.to_text()
    assert (model.predict(X) == y).mean() > 0.8


def test_the_fallback_leaves_the_naive_reference_s_list_where_it_does_not_fire(rng):
    """Where the balls beat the default class, the estimator still learns BuildDLM's list exactly."""
    for _ in range(3):
        X = np.round(rng.normal(size=(60, 2)) * 2) / 2
        y01 = (X[:, 0] > 0).astype(int)
        dlm = DecisionListMachine(scale=None, p_p=2.0, p_n=0.5, s=5).fit(X, y01)
        assert dlm.fallback_class_ is None
        expected = canonical_naive_list(X, y01, p_p=2.0, p_n=0.5, types=BALL_TYPES, max_balls=5)
        assert [(b.kind, b.centre_index, b.border_index) for b in dlm.balls_] == expected


def test_the_fallback_decision_does_not_depend_on_row_order_or_weights_as_copies():
    import warnings

    X, y = _no_signal(seed=3, m=120)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = DecisionListMachine(scale=None).fit(X, y)
        perm = np.random.default_rng(1).permutation(len(y))
        permuted = DecisionListMachine(scale=None).fit(X[perm], y[perm])
        doubled = DecisionListMachine(scale=None).fit(np.vstack([X, X]), np.concatenate([y, y]))
        weighted = DecisionListMachine(scale=None).fit(X, y, sample_weight=np.full(len(y), 2))
    assert reference.fallback_class_ == permuted.fallback_class_ == "common"
    assert doubled.fallback_class_ == weighted.fallback_class_ == "common"
    assert doubled.n_balls_ == weighted.n_balls_ == 0


@pytest.mark.parametrize("machine", [DecisionListMachine(scale=None, fallback=None), BallSetCoveringMachine(scale=None, fallback=None)],
                         ids=["dlm", "scm"])
def test_a_paper_machine_that_predicts_one_class_warns_and_prints_always(machine):
    from companion.interpretable import SingleClassWarning

    # every row at the same point: no ball covers anything (strict inequalities), the list stays
    # empty and predicts the majority class
    X, y = np.zeros((7, 2)), np.array(["a", "b", "a", "b", "a", "b", "a"])
    with pytest.warns(SingleClassWarning, match="predicts a for every training row") as record:
        model = clone(machine).fit(X, y)
    assert not any("fell back" in str(w.message) for w in record)
    assert model.single_class_ == "a" and model.fallback_class_ is None and model.to_text() == "always a"
    assert model.complexity_ == 0 and model.n_balls_ == 0


# ------------------------------------------------------------------------------------------------
# Issue 58: no default depends on a column's units (scale="std")
# ------------------------------------------------------------------------------------------------
def _units_table():
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    rows = np.random.default_rng(0).permutation(len(y))[:300]
    X = X[rows][:, [0, 1, 4, 7]]
    indicator = (X[:, 2] > np.median(X[:, 2])).astype(float)  # a 0/1 column beside the numbers
    return np.column_stack([X, indicator]), y[rows]


@pytest.mark.parametrize("machine", [DecisionListMachine(), BallSetCoveringMachine(),
                                     BallSetCoveringMachine(model_type="disjunction")],
                         ids=["dlm", "scm-conjunction", "scm-disjunction"])
def test_a_column_times_ten_thousand_changes_no_default_model(machine):
    X, y = _units_table()
    train, test = slice(0, 200), slice(200, None)
    big = X.copy()
    big[:, 1] *= 1e4  # one column in other units (the column in the tens of thousands)
    a = clone(machine).fit(X[train], y[train])
    b = clone(machine).fit(big[train], y[train])
    assert a.n_balls_ > 0 and a.fallback_class_ is None  # a real model, not the majority class
    assert [(x.kind, x.centre_index, x.border_index) for x in a.balls_] == [
        (x.kind, x.centre_index, x.border_index) for x in b.balls_]
    np.testing.assert_array_equal(a.predict(X[test]), b.predict(big[test]))
    np.testing.assert_allclose(a.decision_function(X[test]), b.decision_function(big[test]), rtol=1e-9)
    np.testing.assert_allclose(b.scale_, a.scale_ * [1, 1e4, 1, 1, 1], rtol=1e-12)
    assert a.scale_[4] == 1.0  # the 0/1 column is read as it is
    np.testing.assert_allclose(b.centres_[:, 1], a.centres_[:, 1] * 1e4, rtol=1e-12)  # input's units
    assert "where s = (" in b.to_text() and "||(x - " in b.to_text()
    # in the input's own units (scale=None) the big column decides the distances: another model
    raw = clone(machine).set_params(scale=None).fit(big[train], y[train])
    assert [(x.kind, x.centre_index, x.border_index) for x in raw.balls_] != [
        (x.kind, x.centre_index, x.border_index) for x in b.balls_]


def test_the_default_scale_is_the_unscaled_machine_on_the_divided_columns():
    X, y = _units_table()
    scaled = DecisionListMachine().fit(X, y)
    divided = DecisionListMachine(scale=None).fit(X / scaled.scale_, y)
    assert [(x.kind, x.centre_index, x.border_index, x.radius) for x in scaled.balls_] == [
        (x.kind, x.centre_index, x.border_index, x.radius) for x in divided.balls_]
    np.testing.assert_array_equal(scaled.decision_function(X), divided.decision_function(X / scaled.scale_))
    np.testing.assert_array_equal(scaled.predict_proba(X), divided.predict_proba(X / scaled.scale_))


def test_a_0_1_table_is_read_as_it_is_and_shared_distances_need_scale_none():
    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, size=(60, 5)).astype(float)
    y = (X[:, 0] + X[:, 1] > 1).astype(int)
    default, unscaled = DecisionListMachine().fit(X, y), DecisionListMachine(scale=None).fit(X, y)
    assert (default.scale_ == 1).all() and default.to_dict() == {**unscaled.to_dict(), "params": default.to_dict()["params"]}
    sd = SortedDistances.from_points(X)
    assert DecisionListMachine().fit(X, y, sorted_distances=sd).balls_ == default.balls_
    real = np.column_stack([X, rng.normal(size=60) * 1000])
    with pytest.raises(ValueError, match=r"DecisionListMachine: sorted_distances .* pass scale=None"):
        DecisionListMachine().fit(real, y, sorted_distances=SortedDistances.from_points(real))
