"""Tests of the Decision List Machine and the SCM with balls (companion.decision_list, paper 01).

The vectorised greedy is checked against a naive loop over every (centre, border) candidate that
implements Figure 1 and Section 3 directly, on random data with and without tied distances.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.distance import cdist
from sklearn.base import clone

from companion.decision_list import (
    BALL_TYPES,
    BallSetCoveringMachine,
    DecisionListMachine,
    SortedDistances,
    canonical_order,
    greedy_ball_list,
)

# --------------------------------------------------------------------------------------------
# Naive reference: BuildDLM (Figure 1) with one Python loop per candidate
# --------------------------------------------------------------------------------------------


def naive_ball_list(
    X, y01, *, p_p, p_n, types, max_balls, stop_when="either_empty", constraint=False, metric="euclidean"
):
    """Loop over every remaining centre and border; same tie-breaking rule as the package."""
    D = cdist(X, X, metric=metric)
    m = len(y01)
    alive = [True] * m
    compression = set()
    chosen = []
    while max_balls is None or len(chosen) < max_balls:
        n_pos = sum(1 for i in range(m) if alive[i] and y01[i] == 1)
        n_neg = sum(1 for i in range(m) if alive[i] and y01[i] == 0)
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
                fired = [i for i in range(m) if alive[i] and (D[c, i] < radius if inside else D[c, i] > radius)]
                covered = sum(1 for i in fired if y01[i] == output)
                errors = len(fired) - covered
                if covered == 0:
                    continue
                if constraint and any(i in compression and y01[i] != output for i in fired):
                    continue
                penalty = p_n if output == 1 else p_p
                if errors == 0:
                    usefulness = float(covered)
                elif np.isinf(penalty):
                    usefulness = -np.inf
                else:
                    usefulness = covered - penalty * errors
                candidates.append((usefulness, covered, errors, output, c, position, b, kind, fired))
        candidates = [cand for cand in candidates if np.isfinite(cand[0])]
        if not candidates:
            break
        best = max(cand[0] for cand in candidates)
        tolerance = 1e-6 * max(1.0, abs(best))
        tied = [cand for cand in candidates if cand[0] >= best - tolerance]
        tied.sort(key=lambda cand: (-cand[1], cand[2], -cand[3], cand[4], cand[5]))
        _, _, _, _, c, _, b, kind, fired = tied[0]
        for i in fired:
            alive[i] = False
        compression.update((c, b))
        chosen.append((kind, c, b))
    return chosen


def engine_list(X, y01, **kwargs):
    sd = SortedDistances.from_points(X, kwargs.pop("metric", "euclidean"))
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


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("types", [("Pi", "Ni"), BALL_TYPES])
@pytest.mark.parametrize("constraint", [False, True])
def test_vectorised_greedy_matches_naive_loop(rng, ties, types, constraint):
    for _ in range(4):
        X, y01 = random_problem(rng, m=int(rng.integers(20, 45)), ties=ties)
        p_p, p_n = (float(v) for v in rng.choice([0.3, 0.5, 1.0, 1.5, 2.0, 3.0], size=2))
        kwargs = dict(p_p=p_p, p_n=p_n, types=types, max_balls=8)
        expected = naive_ball_list(X, y01, constraint=constraint, **kwargs)
        got = engine_list(X, y01, compression_constraint=constraint, **kwargs)
        assert got == expected


@pytest.mark.parametrize("metric", ["cityblock", "chebyshev"])
def test_other_metrics_match_naive_loop(rng, metric):
    X, y01 = random_problem(rng, m=35, n_features=3)
    kwargs = dict(p_p=1.0, p_n=2.0, types=BALL_TYPES, max_balls=6)
    assert engine_list(X, y01, metric=metric, **kwargs) == naive_ball_list(X, y01, metric=metric, **kwargs)


@pytest.mark.parametrize("stop_when,types", [("negatives_empty", ("Ni", "No")), ("positives_empty", ("Pi", "Po"))])
def test_scm_stopping_rule_matches_naive_loop(rng, stop_when, types):
    X, y01 = random_problem(rng, m=40, ties=True)
    kwargs = dict(p_p=1.5, p_n=1.5, types=types, max_balls=7, stop_when=stop_when)
    assert engine_list(X, y01, **kwargs) == naive_ball_list(X, y01, **kwargs)


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
    dlm = DecisionListMachine(p_p=2.0, p_n=0.5, s=5).fit(X, labels)
    expected = canonical_naive_list(X, y01, p_p=2.0, p_n=0.5, types=BALL_TYPES, max_balls=5)
    assert [(b.kind, b.centre_index, b.border_index) for b in dlm.balls_] == expected
    for ball in dlm.balls_:
        assert ball.radius == pytest.approx(np.linalg.norm(X[ball.centre_index] - X[ball.border_index]))
        assert ball.output == ("yes" if ball.kind in ("Pi", "Po") else "no")


# --------------------------------------------------------------------------------------------
# Paper properties (spec §9.5)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ball_type", ["simple", "complex"])
def test_infinite_penalties_give_rivests_greedy_with_zero_training_error(rng, ball_type):
    # Distinct points: a ball around each point alone is consistent, so a consistent list exists
    # and Rivest's greedy (only error-free features) must reach zero training errors.
    X, y01 = random_problem(rng, m=60)
    dlm = DecisionListMachine(p_p=np.inf, p_n=np.inf, s=None, ball_type=ball_type).fit(X, y01)
    assert (dlm.predict(X) == y01).all()
    errors = dlm.path_[["k_p", "k_n"]].sum(axis=1).to_numpy()
    assert errors[-1] == 0
    # Every rule is error-free: each prefix errs only on examples that none of its rules reaches
    # (its default ``not b_t`` may err on more examples than the previous prefix's default did,
    # so the error count itself need not decrease).
    reached = np.zeros(len(X), dtype=bool)
    for ball, prefix_predictions in zip(dlm.balls_, dlm.predict_path(X)):
        distance = np.linalg.norm(X - X[ball.centre_index], axis=1)
        reached |= distance < ball.radius if ball.inside else distance > ball.radius
        assert not (reached & (prefix_predictions != y01)).any()


def test_finite_penalties_trade_accuracy_for_size(rng):
    X, y01 = random_problem(rng, m=80)
    exact = DecisionListMachine(p_p=np.inf, p_n=np.inf, s=None).fit(X, y01)
    tolerant = DecisionListMachine(p_p=0.5, p_n=0.5, s=None).fit(X, y01)
    assert tolerant.n_balls_ < exact.n_balls_


@pytest.mark.parametrize("model_type", ["conjunction", "disjunction"])
def test_restricted_dlm_equals_scm(rng, model_type):
    """BuildDLM with only (¬h, 0) moves (Ni/No) and p_p = p is the SCM conjunction (spec §7.7)."""
    X, y01 = random_problem(rng, m=50, ties=True)
    p = 1.3
    scm = BallSetCoveringMachine(p=p, s=6, model_type=model_type).fit(X, y01)
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
    assert scm.default_ == expected_default
    assert {b.output for b in scm.balls_} == {1 - expected_default}


def test_prefix_property_one_fit_gives_every_stopping_point(rng):
    X, y01 = random_problem(rng, m=70, ties=True)
    Z = rng.normal(size=(50, 2))
    for constraint in (False, True):
        full = DecisionListMachine(p_p=1.0, p_n=1.5, s=8, compression_constraint=constraint).fit(X, y01)
        path = full.predict_path(Z)
        assert path.shape == (full.n_balls_, len(Z))
        for t in range(1, full.n_balls_ + 1):
            short = DecisionListMachine(p_p=1.0, p_n=1.5, s=t, compression_constraint=constraint).fit(X, y01)
            np.testing.assert_array_equal(path[t - 1], short.predict(Z))
        np.testing.assert_array_equal(path[-1], full.predict(Z))


def test_compression_constraint_classifies_compression_set(rng):
    for _ in range(5):
        X, y01 = random_problem(rng, m=60, ties=True)
        dlm = DecisionListMachine(p_p=0.7, p_n=0.7, s=8, compression_constraint=True).fit(X, y01)
        members = dlm.compression_set_
        np.testing.assert_array_equal(dlm.predict(X[members]), y01[members])
        assert dlm.path_["compression_correct"].iloc[-1]


def test_sorted_distances_can_be_shared_across_fits(rng):
    X, y01 = random_problem(rng, m=50)
    sd = SortedDistances.from_points(X)
    for ball_type in ("simple", "complex"):
        for p in (0.5, 2.0):
            shared = DecisionListMachine(p_p=p, p_n=1.0, ball_type=ball_type).fit(X, y01, sorted_distances=sd)
            alone = DecisionListMachine(p_p=p, p_n=1.0, ball_type=ball_type).fit(X, y01)
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
        DecisionListMachine(p_p=1.0, p_n=1.5, s=8, ball_type="complex"),
        DecisionListMachine(p_p=np.inf, p_n=np.inf, s=None, ball_type="simple", compression_constraint=True),
        BallSetCoveringMachine(p=1.2, s=6, model_type="conjunction"),
        BallSetCoveringMachine(p=0.8, s=6, model_type="disjunction", compression_constraint=True),
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
            assert permuted.default_ == reference.default_
            # indices refer to the caller's rows: the same examples up to identical (x, y) duplicates
            assert _compression_examples(permuted, X[perm]) == _compression_examples(reference, X)
            np.testing.assert_array_equal(permuted.compression_labels_, labels[perm][permuted.compression_set_])
            np.testing.assert_array_equal(permuted.path_.to_numpy(), reference.path_.to_numpy())
            np.testing.assert_array_equal(permuted.predict(X), reference.predict(X))
            np.testing.assert_array_equal(permuted.predict_path(Z), reference.predict_path(Z))


def test_permuting_the_rows_of_shared_sorted_distances_learns_the_same_list(rng):
    X, y01 = random_problem(rng, m=50, ties=True)
    perm = rng.permutation(len(X))
    sd = SortedDistances.from_points(X[perm])
    reference = DecisionListMachine(p_p=1.0, p_n=2.0, s=8).fit(X, y01)
    for _ in range(2):  # the second fit reuses the memoised canonical re-sort
        shared = DecisionListMachine(p_p=1.0, p_n=2.0, s=8).fit(X[perm], y01[perm], sorted_distances=sd)
        assert _ball_geometry(shared, X[perm]) == _ball_geometry(reference, X)
        np.testing.assert_array_equal(shared.predict(X), reference.predict(X))


def test_canonical_order_sorts_by_features_then_label():
    X = np.array([[1.0, 0.0], [0.0, 5.0], [1.0, 0.0], [0.0, 2.0], [1.0, 0.0]])
    y = np.array(["b", "a", "a", "a", "b"])
    # (0,2,a) (0,5,a) (1,0,a) (1,0,b) (1,0,b): identical (x, y) rows keep their relative order
    np.testing.assert_array_equal(canonical_order(X, y), [3, 1, 2, 0, 4])


def test_simple_machine_uses_only_inside_balls(rng):
    X, y01 = random_problem(rng, m=60)
    dlm = DecisionListMachine(p_p=1.0, p_n=1.0, s=10, ball_type="simple").fit(X, y01)
    assert {b.kind for b in dlm.balls_} <= {"Pi", "Ni"}
    assert all(b.inside for b in dlm.balls_)


def test_default_is_negation_of_last_output(rng):
    X, y01 = random_problem(rng, m=60)
    dlm = DecisionListMachine(p_p=1.0, p_n=1.0, s=3).fit(X, y01)
    assert dlm.default_ != dlm.balls_[-1].output


def test_text_rendering_lists_every_ball(rng):
    X, y01 = random_problem(rng, m=40)
    dlm = DecisionListMachine(s=3).fit(X, np.where(y01 == 1, "pos", "neg"))
    text = dlm.to_text()
    assert text.count("\n") == dlm.n_balls_
    assert text.splitlines()[0].startswith("if d(x, x[")
    assert text.splitlines()[-1] == f"else '{dlm.default_}'"
    assert str(dlm) == text


def test_single_class_gives_constant_classifier():
    X = np.arange(10.0).reshape(5, 2)
    dlm = DecisionListMachine().fit(X, ["a"] * 5)
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
        (dict(s=0), ValueError, "s "),
        (dict(s=2.5), TypeError, "s "),
        (dict(ball_type="round"), ValueError, "ball_type"),
        (dict(metric="hamming-ish"), ValueError, "metric"),
        (dict(compression_constraint="yes"), TypeError, "compression_constraint"),
    ],
)
def test_bad_parameters_are_named(params, error, match):
    X = np.arange(20.0).reshape(10, 2)
    y = [0, 1] * 5
    with pytest.raises(error, match=match):
        DecisionListMachine(**params).fit(X, y)


def test_scm_bad_parameters_are_named():
    X = np.arange(20.0).reshape(10, 2)
    y = [0, 1] * 5
    with pytest.raises(ValueError, match="model_type"):
        BallSetCoveringMachine(model_type="both").fit(X, y)
    with pytest.raises(ValueError, match="p "):
        BallSetCoveringMachine(p=-0.1).fit(X, y)


def test_multiclass_and_nan_are_rejected():
    X = np.arange(18.0).reshape(9, 2)
    with pytest.raises(ValueError, match="binary"):
        DecisionListMachine().fit(X, [0, 1, 2] * 3)
    X_nan = X.copy()
    X_nan[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        DecisionListMachine().fit(X_nan, [0, 1, 0] * 3)


def test_mismatched_sorted_distances_are_rejected(rng):
    X, y01 = random_problem(rng, m=20)
    other = SortedDistances.from_points(X[:10])
    with pytest.raises(ValueError, match="sorted_distances"):
        DecisionListMachine().fit(X, y01, sorted_distances=other)
    with pytest.raises(ValueError, match="square"):
        SortedDistances(np.zeros((3, 4)))
