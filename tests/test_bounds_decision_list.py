"""Tests of the DLM bounds (Theorems 1 and 2), the reconstructed SCM bound and the
reconstruction function of Section 4 (companion.bounds.decision_list, paper 01)."""

from __future__ import annotations

import itertools
import math
from types import SimpleNamespace

import numpy as np
import pytest

from companion.bounds.decision_list import (
    compression_message,
    corrected_bound,
    dlm_bound_path,
    scm_bound,
    scm_bound_path,
    theorem1_bound,
    theorem2_bound,
)
from companion.bounds.occam import zeta
from companion.decision_list import BallSetCoveringMachine, DecisionListMachine, reconstruct_decision_list

COUNTS = ("c_p", "c_n", "b_p", "b_n", "k_p", "k_n")


def _base(**changes):
    counts = dict(c_p=1, c_n=1, b_p=1, b_n=1, k_p=5, k_n=5, r=2)
    counts.update(changes)
    return counts


def test_reference_values_of_the_bounds():
    # test vectors computed by hand from the formulas of Theorems 1-2 (not numbers printed in the paper)
    assert theorem1_bound(200, 415, **_base()) == pytest.approx(0.137559, abs=5e-7)
    assert theorem2_bound(200, 415, **_base()) == pytest.approx(0.142519, abs=5e-7)
    assert theorem1_bound(200, 415, **_base(k_p=0, k_n=0)) == pytest.approx(0.055466, abs=5e-7)


def test_the_zeta_prior_of_the_package_sums_to_one():
    # Sum_{a>=0} zeta(a) = 1: the partial sum up to N leaves a tail (6/pi^2) Sum_{a>=N} (a+1)^-2,
    # which lies between (6/pi^2)/(N+1) and (6/pi^2)/N (integral bounds). A prior without the
    # 6/pi^2, or with a^-2, or shifted, falls outside.
    n = 100_000
    partial = math.fsum(zeta(np.arange(n)).tolist())
    tail = 1.0 - partial
    assert 6 / math.pi**2 / (n + 1) - 1e-12 <= tail <= 6 / math.pi**2 / n + 1e-12
    assert zeta(0) == pytest.approx(6 / math.pi**2, rel=1e-15)


@pytest.mark.parametrize("counts", [_base(), _base(k_p=0, k_n=0), _base(c_p=3, b_n=0, r=4), _base(k_p=20, b_p=7)])
def test_theorem1_spends_delta_by_the_zeta_prior_of_each_count(counts):
    # delta_Lambda = delta * Prod_x zeta(x) over the six counts: recompute Theorem 1 from exact
    # binomials (math.comb) and the package's zeta, independently of the bound's own log terms.
    m_p, m_n, delta = 200, 415, 0.05
    c_p, c_n, b_p, b_n, k_p, k_n, r = (counts[k] for k in (*COUNTS, "r"))
    ln_b = sum(math.log(math.comb(n, k)) for n, k in (
        (m_p, c_p), (m_p - c_p, b_p), (m_n, c_n), (m_n - c_n, b_n), (m_p - c_p - b_p, k_p), (m_n - c_n - b_n, k_n)))
    ln_inv_delta_lambda = -math.log(delta) - sum(math.log(zeta(counts[k])) for k in COUNTS)
    free = m_p + m_n - (c_p + c_n + b_p + b_n) - (k_p + k_n)
    expected = -math.expm1(-(ln_b + math.lgamma(r + 1) + ln_inv_delta_lambda) / free)
    assert theorem1_bound(m_p, m_n, **counts) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("name", COUNTS)
@pytest.mark.parametrize("bound", [theorem1_bound, theorem2_bound])
def test_bounds_non_decreasing_in_each_count(bound, name):
    values = [bound(200, 415, **_base(**{name: v})) for v in range(0, 30)]
    assert np.all(np.diff(values) >= -1e-12)
    assert values[-1] > values[0]


@pytest.mark.parametrize("bound", [theorem1_bound, theorem2_bound])
def test_bounds_non_decreasing_in_number_of_balls(bound):
    values = [bound(200, 415, **_base(c_p=3, c_n=3, r=r)) for r in range(1, 20)]
    assert np.all(np.diff(values) > 0)


def test_bound_decreases_with_more_data_and_stays_in_unit_interval():
    small = theorem1_bound(50, 50, **_base())
    large = theorem1_bound(500, 500, **_base())
    assert 0 < large < small <= 1
    assert theorem1_bound(5, 5, **_base(k_p=3, k_n=3)) == 1.0  # m - λ - k <= 0


def test_theorem2_exceeds_theorem1_when_its_message_is_longer():
    for c_p, c_n, r in itertools.product(range(1, 4), range(1, 4), range(1, 6)):
        lam = c_p + c_n + 2
        counts = _base(c_p=c_p, c_n=c_n, r=r)
        if np.log(lam) + r * np.log(2 * (c_p + c_n)) >= np.sum(np.log(np.arange(1, r + 1))):
            assert theorem2_bound(300, 300, **counts) >= theorem1_bound(300, 300, **counts)


def test_scm_bound_is_monotone_and_below_one():
    base = dict(c_p=1, c_n=2, b_p=2, k_p=3, k_n=4)
    for name in base:
        values = [scm_bound(200, 300, **{**base, name: v}) for v in range(0, 20)]
        assert np.all(np.diff(values) >= -1e-12)
        assert 0 < values[0] < 1


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(_base(c_p=-1)), "c_p"),
        (dict(_base(k_n=1.5)), "k_n"),
        (dict(_base(), delta=0.0), "delta"),
        (dict(_base(), delta=2), "delta"),
        (dict(_base(k_p=500)), "exceed"),
    ],
)
def test_bad_counts_are_named(kwargs, match):
    with pytest.raises(ValueError, match=match):
        theorem1_bound(200, 415, **kwargs)


# --------------------------------------------------------------------------------------------
# From fitted machines; the reconstruction function
# --------------------------------------------------------------------------------------------


def _problem(rng, m=80, round_to=None):
    X = rng.normal(size=(m, 2))
    if round_to:
        X = np.round(X / round_to) * round_to
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    flip = rng.random(m) < 0.1
    y[flip] = 1 - y[flip]
    return X, y


@pytest.mark.parametrize("ball_type", ["simple", "complex"])
def test_reconstruction_from_compression_set_returns_the_same_classifier(rng, ball_type):
    for trial in range(8):
        X, y = _problem(rng, m=int(rng.integers(30, 90)), round_to=0.25 if trial % 2 else None)
        labels = np.where(y == 1, "pos", "neg")
        p_p, p_n = (float(v) for v in rng.choice([0.5, 1.0, 2.0, np.inf], size=2))
        dlm = DecisionListMachine(scale=None, p_p=p_p, p_n=p_n, s=8, ball_type=ball_type, compression_constraint=True, fallback=None)
        dlm.fit(X, labels)
        message = compression_message(dlm, X)
        assert len(message.X) == len(dlm.compression_set_)
        if ball_type == "simple":
            assert all(inside for _, inside in message.balls)
        rebuilt = reconstruct_decision_list(message)
        probe = np.vstack([X, rng.normal(size=(300, 2)) * 1.5])
        rebuilt_labels = np.where(rebuilt.predict01(probe) == 1, "pos", "neg")
        np.testing.assert_array_equal(rebuilt_labels, dlm.predict(probe))


def test_bound_paths_read_only_public_attributes(rng):
    # Bounds never import learners: any object with the fitted model's public attributes works.
    X, y = _problem(rng, m=80)
    dlm = DecisionListMachine(scale=None, s=6, ball_type="complex", compression_constraint=True, fallback=None).fit(X, y)
    public = SimpleNamespace(ball_type="complex", path_=dlm.path_, n_positive_=dlm.n_positive_,
                             n_negative_=dlm.n_negative_)
    for theorem, variant in itertools.product((1, 2), ("published", "corrected")):
        np.testing.assert_array_equal(dlm_bound_path(public, theorem=theorem, variant=variant),
                                      dlm_bound_path(dlm, theorem=theorem, variant=variant))
    scm = BallSetCoveringMachine(scale=None, s=4, compression_constraint=True, fallback=None).fit(X, y)
    public = SimpleNamespace(model_type=scm.model_type, path_=scm.path_, n_positive_=scm.n_positive_,
                             n_negative_=scm.n_negative_)
    np.testing.assert_array_equal(scm_bound_path(public), scm_bound_path(scm))
    with pytest.raises(TypeError, match="BallSetCoveringMachine"):
        scm_bound_path(SimpleNamespace(path_=scm.path_))


def test_reconstruction_needs_the_message_not_just_the_set(rng):
    X, y = _problem(rng, m=80)
    dlm = DecisionListMachine(scale=None, p_p=np.inf, p_n=np.inf, s=6, ball_type="simple", compression_constraint=True, fallback=None).fit(X, y)
    message = compression_message(dlm, X)
    assert len(message.balls) >= 2
    bad = type(message)(X=message.X, y=message.y, is_centre=~message.is_centre, balls=message.balls)
    with pytest.raises(ValueError, match="centre"):
        reconstruct_decision_list(bad)


@pytest.mark.parametrize("ball_type", ["simple", "complex"])
def test_bound_path_of_fitted_dlm(rng, ball_type):
    X, y = _problem(rng, m=120)
    dlm = DecisionListMachine(scale=None, p_p=1.0, p_n=1.0, s=8, ball_type=ball_type, compression_constraint=True, fallback=None).fit(X, y)
    path = dlm_bound_path(dlm)
    assert path.shape == (dlm.n_balls_,)
    finite = path[np.isfinite(path)]
    assert len(finite) >= 1 and np.all((finite > 0) & (finite <= 1))
    np.testing.assert_array_equal(np.isnan(path), ~dlm.path_["compression_correct"].to_numpy())
    bound = theorem1_bound if ball_type == "simple" else theorem2_bound
    for t, row in dlm.path_.iterrows():  # the vectorised path agrees with the scalar theorem
        if row["compression_correct"]:
            expected = bound(dlm.n_positive_, dlm.n_negative_, **{k: int(row[k]) for k in COUNTS}, r=t + 1)
            assert path[t] == pytest.approx(expected, rel=1e-12)


def test_scm_bound_path_of_fitted_scm(rng):
    X, y = _problem(rng, m=120)
    for model_type in ("conjunction", "disjunction"):
        scm = BallSetCoveringMachine(scale=None, p=1.0, s=5, model_type=model_type, compression_constraint=True, fallback=None).fit(X, y)
        path = scm_bound_path(scm)
        assert path.shape == (scm.n_balls_,)
        assert np.nanmax(path) <= 1


def test_bound_path_rejects_wrong_or_unfitted_estimator(rng):
    with pytest.raises(ValueError, match="not fitted"):
        dlm_bound_path(DecisionListMachine(scale=None))
    with pytest.raises(TypeError, match="DecisionListMachine"):
        dlm_bound_path(BallSetCoveringMachine(scale=None))
    X, y = _problem(rng, m=40)
    dlm = DecisionListMachine(scale=None, s=3, fallback=None).fit(X, y)
    with pytest.raises(ValueError, match="theorem"):
        dlm_bound_path(dlm, theorem=3)


# --------------------------------------------------------------------------------------------
# Our corrected bound (the published class-wise counting fails for lists that err on a class)
# --------------------------------------------------------------------------------------------


def test_published_theorem_can_fall_below_the_training_error():
    # A list that misclassifies 211 of 241 positives (Pima-like): its risk is at least about the
    # training error 213/691 = 0.31, yet Theorem 1 as published gives ~0.26. The corrected bound
    # does not have this defect.
    m_p, m_n = 241, 450
    published = theorem1_bound(m_p, m_n, c_p=1, c_n=1, b_p=1, b_n=1, k_p=211, k_n=2, r=2)
    corrected = corrected_bound(m_p + m_n, compression_size=4, n_centres=2, n_errors=213, r=2)
    training_error = 213 / (m_p + m_n)
    assert published < training_error < corrected


@pytest.mark.parametrize("ball_type", ["simple", "complex"])
def test_corrected_bound_exceeds_the_error_rate_outside_the_compression_set(ball_type):
    for k in range(0, 400, 25):
        bound = corrected_bound(700, compression_size=6, n_centres=3, n_errors=k, r=3, ball_type=ball_type)
        assert bound >= k / (700 - 6) - 0.01
        assert bound <= 1


def test_corrected_bound_is_monotone_and_close_to_theorem1_when_balanced():
    values = [corrected_bound(615, compression_size=4, n_centres=2, n_errors=k, r=2) for k in range(50)]
    assert np.all(np.diff(values) > 0)
    sizes = [corrected_bound(615, compression_size=lam, n_centres=2, n_errors=10, r=2) for lam in range(2, 30)]
    assert np.all(np.diff(sizes) > 0)
    assert corrected_bound(615, compression_size=4, n_centres=2, n_errors=10, r=2) == pytest.approx(
        theorem1_bound(200, 415, **_base()), abs=0.01
    )


def test_corrected_bound_rejects_bad_counts():
    with pytest.raises(ValueError, match="n_centres"):
        corrected_bound(100, compression_size=2, n_centres=3, n_errors=0, r=1)
    with pytest.raises(ValueError, match="ball_type"):
        corrected_bound(100, compression_size=2, n_centres=1, n_errors=0, r=1, ball_type="round")


@pytest.mark.parametrize("ball_type", ["simple", "complex"])
def test_corrected_bound_path_matches_scalar(rng, ball_type):
    X, y = _problem(rng, m=120)
    dlm = DecisionListMachine(scale=None, p_p=1.0, p_n=1.0, s=8, ball_type=ball_type, compression_constraint=True, fallback=None).fit(X, y)
    path = dlm_bound_path(dlm, variant="corrected")
    for t, row in dlm.path_.iterrows():
        if row["compression_correct"]:
            size = int(row["c_p"] + row["c_n"] + row["b_p"] + row["b_n"])
            expected = corrected_bound(
                120, compression_size=size, n_centres=int(row["c_p"] + row["c_n"]),
                n_errors=int(row["k_p"] + row["k_n"]), r=t + 1, ball_type=ball_type,
            )
            assert path[t] == pytest.approx(expected, rel=1e-12)
    with pytest.raises(ValueError, match="variant"):
        dlm_bound_path(dlm, variant="tight")


# --------------------------------------------------------------------------------------------
# Selection in paper 01's protocols: exact on counts, a documented tolerance on float bounds
# --------------------------------------------------------------------------------------------


def test_selection_on_counts_is_exact_and_prefers_small_then_first():
    from companion.experiments.paper01._protocol import argmin_prefer_small

    errors = np.array([[3.0, 3.0], [3.0, 4.0]])
    assert argmin_prefer_small(errors, np.array([[7.0, 6.0], [1.0, 0.0]])) == (1, 0)
    assert argmin_prefer_small(errors, np.array([[7.0, 2.0], [2.0, 0.0]])) == (0, 1)  # first in C order
    # counts are counts: a fractional "error" or size (a mean, say) is refused, not compared
    with pytest.raises(ValueError, match="integer counts"):
        argmin_prefer_small(errors, np.array([[7.0, 6.5], [1.0, 0.0]]))
    with pytest.raises(ValueError, match="integer counts"):
        argmin_prefer_small(errors + 0.25, np.ones((2, 2)))


def _bound_results(bounds, balls):
    """GridResults of one constrained simple DLM (p_p = p_n = 1), len(bounds) stopping points, two equal folds."""
    from companion.experiments.paper01._grids import Grid, GridResults

    s_max = len(bounds)
    grid = Grid(dlm_types=("simple",), dlm_penalties=(1.0,), dlm_s_max=s_max)
    shape = (1, 1, 1, s_max, 2)
    bound = np.repeat(np.array(bounds, dtype=float).reshape(shape[:-1] + (1,)), 2, axis=-1)
    return GridResults(
        grid, None, None, None, None, None, None,
        dlmc_errors=np.ones(shape),
        dlmc_balls=np.repeat(np.array(balls, dtype=float).reshape(shape[:-1] + (1,)), 2, axis=-1),
        dlmc_bound=np.stack([bound, bound]),
        dlmc_train_errors=np.zeros(shape),
        svm_gammas=np.zeros(0),
        n_test=np.array([10, 10]),
    )


def test_bound_selection_takes_last_bit_differences_for_ties():
    from companion.experiments.paper01._protocol import BOUND_TIE_RTOL, bound_selected_dlm

    b = 0.3
    # s = 2 is one ulp below s = 1 (as another CPU's log/exp may round it): a tie, fewer balls win
    chosen = bound_selected_dlm(_bound_results([b, np.nextafter(b, 0)], balls=[1, 2]))["chosen"]
    assert chosen["s"].tolist() == [1, 1]
    # a genuine difference (far above the tolerance) still decides
    smaller = b * (1 - 100 * BOUND_TIE_RTOL)
    assert bound_selected_dlm(_bound_results([b, smaller], balls=[1, 2]))["chosen"]["s"].tolist() == [2, 2]
    # NaN bounds (prefix misclassifying its compression set) are never chosen
    assert bound_selected_dlm(_bound_results([np.nan, b, b], balls=[1, 2, 2]))["chosen"]["s"].tolist() == [2, 2]


# --- issue 15: the corrected SCM bound and the relation to the general compression bound -------


def test_corrected_bounds_equal_the_general_sample_compression_bound():
    from companion.bounds.compression import sample_compression_bound
    from companion.bounds.decision_list import corrected_log_message, scm_bound_corrected

    for m, lam, c, k, r in itertools.product((50, 400), (2, 5), (1, 2), (0, 7, 30), (1, 3)):
        for kind in ("simple", "complex"):
            expected = corrected_bound(m, compression_size=lam, n_centres=c, n_errors=k, r=r, ball_type=kind)
            general = sample_compression_bound(m, lam, k, corrected_log_message(lam, c, r, kind))
            assert general == pytest.approx(expected, rel=1e-12, abs=1e-15)
        expected = scm_bound_corrected(m, compression_size=lam, n_centres=c, n_errors=k)
        assert sample_compression_bound(m, lam, k, corrected_log_message(lam, c, 0, "scm")) == pytest.approx(
            expected, rel=1e-12, abs=1e-15
        )
    # the SCM needs no ordering message: at most the simple DLM's bound with one ball
    assert scm_bound_corrected(300, compression_size=4, n_centres=2, n_errors=20) <= corrected_bound(
        300, compression_size=4, n_centres=2, n_errors=20, r=1
    )


def test_per_class_scm_bound_falls_below_the_training_error_the_corrected_does_not():
    from companion.bounds.decision_list import scm_bound_corrected

    # a conjunction that errs on 95 of 100 positives and no negative, out of 300 examples
    published = scm_bound(100, 200, c_p=0, c_n=1, b_p=1, k_p=95, k_n=0)
    corrected = scm_bound_corrected(300, compression_size=2, n_centres=1, n_errors=95)
    assert published < 95 / 300 < corrected


def test_scm_bound_path_variants():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 2))
    y = (X[:, 0] > 0).astype(int)
    scm = BallSetCoveringMachine(scale=None, p=1.0, s=4, compression_constraint=True, fallback=None).fit(X, y)
    published, corrected = scm_bound_path(scm), scm_bound_path(scm, variant="corrected")
    assert published.shape == corrected.shape == (scm.n_balls_,)
    train = (scm.path_["k_p"] + scm.path_["k_n"]).to_numpy() / 80
    ok = np.isfinite(corrected)
    assert ok.any() and (corrected[ok] >= train[ok]).all()
    with pytest.raises(ValueError, match="variant"):
        scm_bound_path(scm, variant="loose")


def test_sample_compression_bound_rejects_bad_input():
    from companion.bounds.compression import sample_compression_bound
    from companion.bounds.decision_list import corrected_log_message

    with pytest.raises(ValueError, match="log_message"):
        sample_compression_bound(100, 2, 3, -1.0)
    with pytest.raises(ValueError, match="exceed"):
        sample_compression_bound(10, 6, 5, 1.0)
    with pytest.raises(ValueError, match="compression_size"):
        sample_compression_bound(10, 1.5, 0, 1.0)
    with pytest.raises(ValueError, match="ball_type"):
        corrected_log_message(3, 1, 1, "round")


def test_a_fallen_back_machine_has_no_bound_and_no_message():
    """The fallback's constant classifier is not one of the paper's ball lists: the bounds and the
    compression message refuse it, naming the fallback, instead of describing a list it does not use."""
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(60, 2)), rng.integers(0, 2, 60)  # no signal: the machines fall back
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dlm = DecisionListMachine(scale=None, p_p=1.0, p_n=1.0, s=4, compression_constraint=True).fit(X, y)
        scm = BallSetCoveringMachine(scale=None, p=1.0, s=4, compression_constraint=True).fit(X, y)
    assert dlm.fallback_class_ is not None and scm.fallback_class_ is not None
    for call in (lambda: dlm_bound_path(dlm), lambda: compression_message(dlm, X), lambda: scm_bound_path(scm)):
        with pytest.raises(ValueError, match="fell back to the majority class .*fallback=None"):
            call()
