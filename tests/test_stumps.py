"""SetCoveringStumps / OccamStumps / PacBayesStumps: the greedy stump learners of Paper 05 (Sections III-VI).

Most tests check the greedy of Section VI as the paper states it, so they fit with ``GREEDY``
(every stump the greedy adds, no stop at an idle stump); the defaults (length chosen by the bound,
stop before an idle stump) have their own tests at the end."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from companion.bounds.compression import compression_bound
from companion.bounds.occam import dyadic_code, occam_bound
from companion.bounds.pac_bayes import gibbs_risk, pac_bayes_bound, sigma
from companion._stump_search import (
    pick_candidate,
    _sc_step_choice,
    sorted_order_and_run_ends,
    greedy_step_scores,
    pac_bayes_step_scores,
)
from companion.stumps import OccamStumps, PacBayesStumps, SetCoveringStumps, fit_by_bound
from tests._naive import naive_cover_fit, naive_pac_bayes_fit

#: The paper's greedy as such: every stump it adds (no length chosen by the bound, no stop at an
#: idle stump). The defaults are tested at the end of this file.
GREEDY = {"length": "greedy", "stop_idle": False}

#: The stump learner of each framework (Sections II-IV), as the protocols name them.
STUMP_LEARNERS = {"sc": SetCoveringStumps, "occam": OccamStumps, "pac_bayes": PacBayesStumps}


# ------------------------------------------------------------------------------------------
# naive references: explicit loops over attributes, thresholds and directions
# ------------------------------------------------------------------------------------------


def naive_pac_bayes_first_step(X, y, p, eta, gaps):
    """Utility of every PAC-Bayes candidate of the first step, computed with σ directly."""
    m, n = X.shape
    low, high = X.min(axis=0), X.max(axis=0)
    best = (-np.inf, None)
    for f in range(n):
        vals = np.sort(X[:, f])
        for g in gaps:
            for j in range(m - g):
                a, b = vals[j], vals[j + g]
                if b <= a:
                    continue
                for d in (1, -1):
                    removed = 1.0 - sigma(X[:, f], a, b, d)
                    q = removed[y == 0].sum()
                    r = removed[y == 1].sum()
                    u = q - p * r - eta * np.log((high[f] - low[f]) / (b - a))
                    if u > best[0] + 1e-9:
                        best = (u, (f, a, b, d))
    return best


def random_data(rng, m=40, n=12, levels=6):
    """Integer-valued features so that ties between values and between utilities are common."""
    X = rng.integers(0, levels, size=(m, n)).astype(float)
    y = ((X[:, 0] + X[:, 1] + rng.integers(0, 3, size=m)) > levels).astype(int)
    if y.min() == y.max():
        y[0] = 1 - y[0]
    return X, y


def stumps_of(model):
    return list(zip(model.features_.tolist(), model.thresholds_.tolist(), model.directions_.tolist()))


# ------------------------------------------------------------------------------------------
# agreement with the naive references
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("tie_breaking", ["pyscm", "index"])
@pytest.mark.parametrize("p", [0.5, 1.0, 2.7])
def test_sc_matches_naive_greedy(rng, tie_breaking, p):
    for _ in range(6):
        X, y = random_data(rng)
        for reuse in (False, True):
            model = SetCoveringStumps(**GREEDY, threshold="observed", p=p, s=6, tie_breaking=tie_breaking, reuse_features=reuse).fit(X, y)
            assert stumps_of(model) == naive_cover_fit(X, y, p, 6, tie_breaking=tie_breaking, reuse=reuse)


def test_sc_matches_naive_greedy_on_continuous_data(rng):
    X = rng.normal(size=(50, 30))
    y = (X[:, 3] - X[:, 7] + 0.5 * rng.normal(size=50) > 0).astype(int)
    model = SetCoveringStumps(**GREEDY, threshold="observed", p=1.5, s=5).fit(X, y)
    assert stumps_of(model) == naive_cover_fit(X, y, 1.5, 5)


@pytest.mark.parametrize("scale", [70_000, 2**35])
def test_sc_matches_naive_greedy_on_wide_range_whole_numbers(rng, scale):
    """Whole numbers beyond the 16-bit fast path (e.g. Affymetrix levels, -28400..71369) take the
    64-bit key sort: negative values, -0.0, ties and column-major input included."""
    for trial in range(4):
        X = rng.integers(-scale, scale, size=(45, 15)).astype(float)
        X[:, :5] = X[:, :5] // (scale // 4)  # a few values, many ties
        X[rng.random(X.shape) < 0.05] = -0.0
        y = (X[:, 0] + X[:, 7] / scale + rng.normal(size=45) > 0).astype(int)
        if trial % 2:
            X = np.asfortranarray(X)
        for reuse in (False, True):
            model = SetCoveringStumps(**GREEDY, threshold="observed", p=1.0, s=6, reuse_features=reuse).fit(X, y)
            assert stumps_of(model) == naive_cover_fit(X, y, 1.0, 6, reuse=reuse)


@pytest.mark.parametrize("m", [2, 45, 64, 65, 300])
def test_sorted_order_of_whole_numbers_spanning_the_packed_key(rng, m):
    """Whole numbers spanning just below ``2^(32 - b)`` (``b`` the bits of an example index) take
    the packed uint32 sort, just above it the 64-bit one; both give the stable argsort's order
    (ties in index order) and its runs, negative values and -0.0 included. Values a fraction
    apart never share a key."""
    bits = max(1, (m - 1).bit_length())
    for span in (2 ** (32 - bits) - 1, 2 ** (32 - bits) + 1, 70_000):
        X = rng.integers(0, span, size=(m, 6), endpoint=True).astype(float) - span // 3
        X[0, :] = -(span // 3)  # both ends of the span present
        X[-1, :] = span - span // 3
        X[:, 1] = X[:, 1] // (span // 4)  # a few values, many ties
        X[rng.random(X.shape) < 0.1] = -0.0
        order, run_end, near = sorted_order_and_run_ends(X, 1e-7)
        np.testing.assert_array_equal(order, np.argsort(X, axis=0, kind="stable"))
        values = np.take_along_axis(X, order, axis=0)
        np.testing.assert_array_equal(run_end[:-1], np.diff(values, axis=0) > 1e-7)
        assert run_end[-1].all() and near.size == 0
    # Whole numbers far from 0 (X - low must be exact: within 2^53, and beyond it, where a step is 256)
    for offset, step in ((2.0**52, 1.0), (-(2.0**60), 256.0)):
        X = offset + step * rng.integers(0, 70_000, size=(m, 6)).astype(float)
        order, run_end, near = sorted_order_and_run_ends(X, 1e-7)
        np.testing.assert_array_equal(order, np.argsort(X, axis=0, kind="stable"))
        np.testing.assert_array_equal(run_end[:-1], np.diff(np.take_along_axis(X, order, axis=0), axis=0) > 0)
    # Fractions within a span of 2^16: refused by the packed sort on the first row, or (a whole
    # first row) on the whole array; either way the order and runs of the stable argsort.
    fractions = np.round(rng.uniform(0, 2000, size=(m, 6)), 2)
    for first_row in (fractions[0], np.floor(fractions[0])):
        X = np.vstack([first_row, fractions[1:]]) if m > 1 else first_row[None, :]
        order, run_end, _ = sorted_order_and_run_ends(X, 1e-9)
        np.testing.assert_array_equal(order, np.argsort(X, axis=0, kind="stable"))
        values = np.take_along_axis(X, order, axis=0)
        np.testing.assert_array_equal(run_end[:-1], np.diff(values, axis=0) > 1e-9)
    X = np.array([[-(2.0**30)], [1e-10], [2e-10], [3.0]] * 3)  # X - low rounds the fractions to 2^30
    order, run_end, _ = sorted_order_and_run_ends(X, 0.0)
    np.testing.assert_array_equal(order[:, 0], np.argsort(X[:, 0], kind="stable"))
    np.testing.assert_array_equal(run_end[:-1], np.diff(np.take_along_axis(X, order, axis=0), axis=0) > 0)


@pytest.mark.parametrize("tie_breaking", ["index", "pyscm"])
def test_sc_matches_naive_greedy_on_values_differing_in_their_last_bits(rng, tie_breaking):
    """The 64-bit key sort drops a value's low 16 bits: values 1 + k ulp (k < 2^16) share the
    key, come out in index order, and their columns must be argsorted again."""
    for _ in range(3):
        X = rng.normal(size=(40, 10))
        X[:, :4] = 1.0 + rng.integers(0, 3000, size=(40, 4)) * np.finfo(float).eps
        X[:, 4] = -X[:, 0]
        y = (rng.random(40) < 0.5).astype(int)
        y[:2] = [0, 1]
        model = SetCoveringStumps(**GREEDY, threshold="observed", p=1.0, s=5, tie_breaking=tie_breaking).fit(X, y)
        assert stumps_of(model) == naive_cover_fit(X, y, 1.0, 5, tie_breaking=tie_breaking)
        order, run_end, _ = sorted_order_and_run_ends(X, 0.0)
        values = np.take_along_axis(X, order, axis=0)
        assert np.all(np.diff(values, axis=0) >= 0)
        np.testing.assert_array_equal(run_end[:-1], np.diff(values, axis=0) > 0)


def test_sort_cache_serves_only_identical_inputs(rng):
    """A refit on the same rows reuses the sorted order of the cache it is given; an input
    differing in one cell (or changed in place after the fit) is sorted afresh; the models equal
    those fitted without a cache. There is no module-level cache."""
    from companion import stumps
    from companion._stump_search import SortCache

    assert not hasattr(stumps, "_SORT_CACHE")
    cache = SortCache()

    def fitted(X, y, cache=cache, **params):
        model = SetCoveringStumps(**GREEDY, threshold="observed", **params).fit(X, y, sort_cache=cache)
        return stumps_of(model), model.bound_path_.tolist(), model.predict(X).tolist()

    X, y = random_data(rng, m=60, n=20, levels=40)
    X = X * 1000.0 - 7000.0  # the 64-bit key path
    cached = [fitted(X, y, p=p, s=s) for p in (0.5, 1.0, 2.0) for s in (3, 10)]
    assert len(cache._entries) == 1 and cache.hits == 5
    changed = X.copy()
    changed[17, 3] += 1.0
    in_cache = fitted(changed, y, p=1.0, s=10)
    assert len(cache._entries) == 2  # a miss: sorted afresh, then kept
    X[17, 3] += 1.0  # in place: the cache holds its own copy
    assert fitted(X, y, p=1.0, s=10) == in_cache
    X[17, 3] -= 1.0
    assert [fitted(X, y, cache=None, p=p, s=s) for p in (0.5, 1.0, 2.0) for s in (3, 10)] == cached
    disabled = SortCache(max_bytes=0)
    assert [fitted(X, y, cache=disabled, p=p, s=s) for p in (0.5, 1.0, 2.0) for s in (3, 10)] == cached
    assert fitted(changed, y, cache=disabled, p=1.0, s=10) == in_cache
    assert disabled._entries == [] and disabled.hits == 0


@pytest.mark.parametrize("eta", [0.0, 0.3, 2.0])
def test_occam_matches_naive_greedy(rng, eta):
    for _ in range(4):
        X, y = random_data(rng, m=30, n=8, levels=9)
        X += rng.uniform(0, 0.01, size=X.shape)  # distinct values but close ones: varied code lengths
        model = OccamStumps(**GREEDY, p=1.0, s=4, eta=eta).fit(X, y)
        expected = naive_cover_fit(X, y, 1.0, 4, variant="occam", eta=eta)
        assert [(f, d) for f, _, d in stumps_of(model)] == [(f, d) for f, _, d in expected]
        np.testing.assert_allclose(model.thresholds_, [t for _, t, _ in expected])


@pytest.mark.parametrize("eta", [0.3, 1.0])
def test_occam_reused_interval_codes_match_the_naive_greedy_on_long_paths(rng, eta):
    """The Occam greedy recodes only the intervals whose ends stop being neighbours when examples
    leave; on tied values (runs of equal values, many examples leaving per step) and long paths
    (idle steps included) it picks the naive greedy's stumps, which recodes every interval."""
    for _ in range(6):
        X, y = random_data(rng, m=36, n=7, levels=5)
        X[:, 3] = np.round(X[:, 3] / 3.0, 3)  # uneven gaps: code lengths vary between intervals
        model = OccamStumps(**GREEDY, p=1.0, s=6, eta=eta).fit(X, y)
        expected = naive_cover_fit(X, y, 1.0, 6, variant="occam", eta=eta)
        assert [(f, d) for f, _, d in stumps_of(model)] == [(f, d) for f, _, d in expected]
        np.testing.assert_array_equal(model.thresholds_, [t for _, t, _ in expected])


def test_occam_with_eta_zero_picks_the_sc_stumps(rng):
    X = rng.normal(size=(40, 15))
    y = (X[:, 2] > 0.2).astype(int)
    sc = SetCoveringStumps(**GREEDY, threshold="observed", s=4).fit(X, y)
    occam = OccamStumps(**GREEDY, s=4, eta=0.0).fit(X, y)
    assert sc.features_.tolist() == occam.features_.tolist()
    np.testing.assert_array_equal(sc.predict(X), occam.predict(X))


def test_pac_bayes_first_step_matches_naive(rng):
    for _ in range(3):
        X = rng.normal(size=(25, 6))
        y = (X[:, 1] + 0.5 * rng.normal(size=25) > 0).astype(int)
        model = PacBayesStumps(**GREEDY, p=1.3, eta=0.7, s=1, margin_gaps=(1, 3), tie_breaking="index").fit(X, y)
        _, (f, a, b, d) = naive_pac_bayes_first_step(X, y, 1.3, 0.7, (1, 3))
        assert model.features_[0] == f and model.directions_[0] == d
        np.testing.assert_allclose(model.intervals_[0], [a, b])


@pytest.mark.parametrize("reuse", [False, True])
def test_pac_bayes_greedy_matches_naive(rng, reuse):
    """The whole soft greedy (every step, the Gibbs weights carried), against the candidate loop."""
    for _ in range(3):
        X = np.round(rng.normal(size=(30, 6)), 1)  # repeated values: gaps count distinct ones
        y = (X[:, 1] - X[:, 4] + 0.5 * rng.normal(size=30) > 0).astype(int)
        model = PacBayesStumps(**GREEDY, p=1.3, eta=0.7, s=4, margin_gaps=(1, 3), reuse_features=reuse).fit(X, y)
        expected = naive_pac_bayes_fit(X, y, 1.3, 4, 0.7, (1, 3), reuse=reuse)
        assert [(int(f), int(d)) for f, d in zip(model.features_, model.directions_)] == [(f, d) for f, _, _, d in expected]
        np.testing.assert_allclose(model.intervals_, [(a, b) for _, a, b, _ in expected])


def test_pac_bayes_step_scores_match_sigma_sums(rng):
    """Every candidate's expected cover, with arbitrary weights, against explicit σ sums."""
    m, n, gaps, p, eta = 18, 4, (1, 2, 5), 1.7, 0.4
    X = np.round(rng.normal(size=(m, n)), 1)  # ties included
    y = rng.integers(0, 2, size=m)
    w = rng.uniform(0, 1, size=m)
    order = np.argsort(X.T, axis=1, kind="stable")
    vals = np.take_along_axis(X.T, order, axis=1)
    spans = X.max(axis=0) - X.min(axis=0)
    q, r, u, starts = pac_bayes_step_scores(vals, np.where(y == 0, w, 0)[order], np.where(y == 1, w, 0)[order], spans, p, eta, gaps)
    for block, g in enumerate(gaps):
        for f in range(n):
            for j in range(m - g):
                a, b = vals[f, j], vals[f, j + g]
                col = starts[block] + j
                if b <= a:
                    assert np.all(u[f, col] == -np.inf)
                    continue
                for kind, d in ((0, 1), (1, -1)):
                    removed = w * (1 - sigma(X[:, f], a, b, d))
                    assert q[f, col, kind] == pytest.approx(removed[y == 0].sum(), abs=1e-10)
                    assert r[f, col, kind] == pytest.approx(removed[y == 1].sum(), abs=1e-10)
                    cost = eta * np.log(spans[f] / (b - a))
                    assert u[f, col, kind] == pytest.approx(removed[y == 0].sum() - p * removed[y == 1].sum() - cost, abs=1e-10)


@pytest.mark.parametrize("tie_breaking", ["pyscm", "index"])
def test_fast_sc_step_equals_full_scoring(rng, tie_breaking):
    """The blocked float32 scan picks the candidate of the plain float64 scoring + rule."""
    for trial in range(30):
        m, n = int(rng.integers(2, 40)), int(rng.integers(1, 30))
        X = rng.integers(0, int(rng.integers(2, 8)), size=(m, n)).astype(float)
        y = rng.integers(0, 2, size=m)
        p = float(rng.choice([0.0, 0.3, 1.0, 2.5, 7.0]))
        excluded = rng.random(n) < 0.3 if trial % 2 else None
        order = np.argsort(X.T, axis=1, kind="stable")
        vals = np.take_along_axis(X.T, order, axis=1)
        run_ids = np.zeros(vals.shape, dtype=np.int32)
        np.cumsum(np.diff(vals, axis=1) > 0, axis=1, out=run_ids[:, 1:])
        q, r, u = greedy_step_scores(vals, y[order], p)
        if excluded is not None:
            u[excluded] = -np.inf
        expected = pick_candidate(u, q, r, tie_breaking)
        got = _sc_step_choice(y[order].astype(np.int8), run_ids, p, excluded, tie_breaking, block_size=int(rng.integers(1, 200)))
        if expected is None:
            assert got is None
        else:
            assert got == tuple(int(v) for v in np.unravel_index(expected, u.shape))


def test_sc_step_scores_match_counts(rng):
    X, y = random_data(rng, m=25, n=5)
    order = np.argsort(X.T, axis=1, kind="stable")
    vals = np.take_along_axis(X.T, order, axis=1)
    q, r, u = greedy_step_scores(vals, y[order], 2.0)
    for f in range(5):
        for j in range(25):
            run_end = j == 24 or vals[f, j + 1] > vals[f, j]
            if not run_end:
                assert np.all(u[f, j] == -np.inf)
                continue
            covered = X[:, f] <= vals[f, j]
            assert q[f, j, 0] == np.sum(covered & (y == 0)) and r[f, j, 0] == np.sum(covered & (y == 1))
            assert q[f, j, 1] == np.sum(~covered & (y == 0)) and r[f, j, 1] == np.sum(~covered & (y == 1))
            np.testing.assert_array_equal(u[f, j], q[f, j] - 2.0 * r[f, j])


# ------------------------------------------------------------------------------------------
# bounds exposed by the fitted models
# ------------------------------------------------------------------------------------------


def test_sc_bound_and_compression_set(rng):
    X, y = random_data(rng, m=60, n=20)
    model = SetCoveringStumps(**GREEDY, threshold="observed", p=1.0, s=5).fit(X, y)
    k = model.features_.size
    assert model.compression_set_.size == k == np.unique(model.compression_set_).size
    # Each threshold is the attribute value of its compression example.
    np.testing.assert_array_equal(X[model.compression_set_, model.features_], model.thresholds_)
    wrong = model.predict(X) != y
    outside = int(wrong.sum() - wrong[model.compression_set_].sum())
    assert model.bound_ == pytest.approx(compression_bound(outside, 60, 20, k))
    assert model.bound_path_.shape == (k + 1,)


def test_occam_bound_uses_code_lengths_and_prior_n(rng):
    X, y = random_data(rng, m=60, n=20)
    X += rng.uniform(0, 0.1, size=X.shape)
    model = OccamStumps(**GREEDY, s=3, prior_n_features=7129).fit(X, y)
    errors = int(np.sum(model.predict(X) != y))
    assert model.bound_ == pytest.approx(occam_bound(errors, 60, 7129, model.code_lengths_))
    for (a, b), t in zip(model.intervals_, model.thresholds_):
        assert a <= t < b


def test_pac_bayes_bound_gibbs_and_bayes(rng):
    X = rng.normal(size=(60, 10))
    y = (X[:, 0] > 0).astype(int)
    model = PacBayesStumps(**GREEDY, s=3).fit(X, y)
    low, high = model.feature_range_[:, model.features_]
    ratios = (high - low) / (model.intervals_[:, 1] - model.intervals_[:, 0])
    internal = model.directions_
    g = gibbs_risk(X, y, model.features_, model.intervals_[:, 0], model.intervals_[:, 1], internal)
    assert model.gibbs_risk_path_[-1] == pytest.approx(g)
    assert model.gibbs_bound_path_[-1] == pytest.approx(pac_bayes_bound(g, 60, 10, ratios))
    assert model.bound_ == pytest.approx(min(1.0, 2 * model.gibbs_bound_path_[-1]))
    # Bayes vote errs at most twice the Gibbs risk (pointwise: where the Bayes vote errs, the Gibbs classifier errs with probability >= 1/2).
    assert np.mean(model.predict_bayes(X) != y) <= 2 * g + 1e-12
    proba = model.gibbs_proba(X)
    assert np.all((proba >= 0) & (proba <= 1))
    np.testing.assert_array_equal(model.predict(X), model.classes_[(proba > 0.5).astype(int)])
    draws = np.array([model.predict_gibbs(X, random_state=i) for i in range(400)])
    np.testing.assert_allclose((draws == 1).mean(axis=0), proba, atol=0.1)


def test_gibbs_methods_exist_only_on_pac_bayes(rng):
    X, y = random_data(rng)
    for cls in (SetCoveringStumps, OccamStumps):
        model = cls(**GREEDY).fit(X, y)
        for method in ("gibbs_proba", "predict_gibbs", "predict_bayes"):
            assert not hasattr(model, method)
        with pytest.raises(AttributeError, match="gibbs_proba"):
            model.gibbs_proba(X)
    assert PacBayesStumps(**GREEDY, s=2).fit(X, y).gibbs_proba(X).shape == (X.shape[0],)


# ------------------------------------------------------------------------------------------
# structure: disjunctions, prefixes, labels, text
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["sc", "occam", "pac_bayes"])
def test_disjunction_is_complement_of_conjunction_on_swapped_labels(rng, variant):
    X = rng.normal(size=(50, 8))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    disj = STUMP_LEARNERS[variant](**GREEDY, model_type="disjunction", s=3).fit(X, y)
    conj = STUMP_LEARNERS[variant](**GREEDY, model_type="conjunction", s=3).fit(X, 1 - y)
    np.testing.assert_array_equal(disj.predict(X), 1 - conj.predict(X))
    np.testing.assert_array_equal(disj.directions_, -conj.directions_)
    np.testing.assert_allclose(disj.bound_path_, conj.bound_path_)
    assert disj.features_.size >= 2  # the data need two stumps, so the text must join them
    assert disj.to_text().count(" OR ") == disj.features_.size - 1
    assert " AND " not in disj.to_text()


@pytest.mark.parametrize("variant", ["sc", "occam", "pac_bayes"])
def test_prefixes_equal_refits(rng, variant):
    X = rng.normal(size=(45, 10))
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    full = STUMP_LEARNERS[variant](**GREEDY, s=4).fit(X, y)
    staged = list(full.staged_predict(X))  # item k - 1: the first k stumps
    assert len(staged) == full.features_.size >= 2
    for r in range(1, full.features_.size + 1):
        refit = STUMP_LEARNERS[variant](**GREEDY, s=r).fit(X, y)
        np.testing.assert_array_equal(staged[r - 1], refit.predict(X))
        short = full.truncated(r)
        assert short.bound_ == pytest.approx(refit.bound_)
        np.testing.assert_array_equal(short.predict(X), refit.predict(X))


def test_any_labels_and_feature_names(rng):
    X = rng.normal(size=(40, 4))
    y = np.where(X[:, 2] > 0, "tumour", "normal")
    frame = pd.DataFrame(X, columns=["gA", "gB", "gC", "gD"])
    model = SetCoveringStumps(**GREEDY, threshold="observed").fit(frame, y)
    assert set(model.predict(frame)) <= {"tumour", "normal"}
    assert "gC" in model.to_text()
    assert model.score(frame, y) == 1.0


def test_perfectly_separable_data_reaches_zero_training_error(rng):
    X = rng.normal(size=(60, 5))
    y = ((X[:, 0] > 0) & (X[:, 3] < 0.5)).astype(int)
    model = SetCoveringStumps(**GREEDY, threshold="observed", p=10.0, s=5).fit(X, y)
    assert model.training_errors_path_[-1] == 0
    assert set(model.features_.tolist()) == {0, 3}


def test_fit_by_bound_picks_smallest_bound(rng):
    X = rng.normal(size=(60, 20))
    y = (X[:, 4] > 0).astype(int)
    grid = {"p": [0.5, 2.0], "model_type": ["conjunction", "disjunction"]}
    best = fit_by_bound(OccamStumps(**GREEDY, s=4), X, y, grid)
    # Choosing conjunction vs disjunction by the bound costs ln 2: every candidate uses delta / 2.
    assert best.delta == pytest.approx(0.025)
    for params in ({"p": 0.5}, {"p": 2.0}):
        for mt in ("conjunction", "disjunction"):
            other = OccamStumps(**GREEDY, s=4, model_type=mt, delta=0.025, **params).fit(X, y)
            assert best.bound_ <= other.bound_path_.min() + 1e-12


class _StubPathStumps(OccamStumps):
    """Occam stumps whose model-selection path is dictated by ``p`` (to pin fit_by_bound's tie rule)."""

    PATHS = {
        # mathematically equal minima 0.5, one of them a few ulp above: a SIMD-level difference
        1.0: [0.9, 0.5 + 2 * np.spacing(0.5), 0.7, 0.5],
        2.0: [0.9, 0.8, 0.5],
    }

    def _model_selection_path(self):
        return np.array(self.PATHS[self.p])


def test_fit_by_bound_ties_bounds_within_tie_rtol_and_keeps_the_fewest_stumps(rng):
    X = rng.normal(size=(40, 6))
    y = (X[:, 1] > 0).astype(int)
    best = fit_by_bound(_StubPathStumps(**GREEDY, s=3), X, y, {"p": [2.0, 1.0]})
    # By bits, p = 2.0 with 2 stumps (0.5) would beat p = 1.0 with 1 stump (0.5 + 2 ulp); under the
    # tie rule they are equal and the shorter prefix wins; a real gap (0.7 vs 0.5) is not a tie.
    assert (best.p, best.features_.size) == (1.0, 1)
    _StubPathStumps.PATHS[3.0] = [0.9, 0.5 + 1e-9]
    try:
        best = fit_by_bound(_StubPathStumps(**GREEDY, s=3), X, y, {"p": [3.0, 2.0]})
        assert (best.p, best.features_.size) == (2.0, 2)
    finally:
        del _StubPathStumps.PATHS[3.0]

@pytest.mark.parametrize("variant", ["sc", "occam", "pac_bayes"])
def test_fit_by_bound_pays_ln2_only_for_the_model_type_choice(rng, variant):
    X = rng.normal(size=(50, 8))
    y = ((X[:, 1] > 0) | (X[:, 5] > 1)).astype(int)
    gaps = {"margin_gaps": (1, 4)} if variant == "pac_bayes" else {}
    template = STUMP_LEARNERS[variant](**GREEDY, s=3, delta=0.05, **gaps)
    both = fit_by_bound(template, X, y, {"p": [1.0], "model_type": ["conjunction", "disjunction"]})
    direct = STUMP_LEARNERS[variant](**GREEDY, s=3, delta=0.025, model_type=both.model_type, **gaps).fit(X, y)
    path = getattr(direct, "gibbs_bound_path_", direct.bound_path_)
    assert both.delta == 0.025
    assert both.bound_ == pytest.approx(direct.bound_path_[int(np.argmin(path))])
    # the price is real: at delta the same classifier's bound is strictly smaller
    at_delta = STUMP_LEARNERS[variant](**GREEDY, s=3, delta=0.05, model_type=both.model_type, **gaps).fit(X, y)
    assert both.bound_ < 1.0  # a bound of 1 (trivial) could not show the price
    assert at_delta.bound_path_[int(np.argmin(path))] < both.bound_
    # one model type (or several p): no price
    one = fit_by_bound(template, X, y, {"p": [0.5, 1.0, 2.0], "model_type": ["conjunction"]})
    assert one.delta == 0.05


# ------------------------------------------------------------------------------------------
# the priors' a-priori range [A_k, B_k] (feature_range)
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["sc", "occam", "pac_bayes"])
def test_feature_range_equal_to_training_range_changes_nothing(rng, variant):
    X = rng.normal(size=(40, 6))
    y = (X[:, 2] > 0.2).astype(int)
    plain = STUMP_LEARNERS[variant](**GREEDY, s=3).fit(X, y)
    given = STUMP_LEARNERS[variant](**GREEDY, s=3, feature_range=np.vstack([X.min(0), X.max(0)])).fit(X, y)
    np.testing.assert_array_equal(plain.features_, given.features_)
    np.testing.assert_array_equal(plain.thresholds_, given.thresholds_)
    np.testing.assert_array_equal(plain.bound_path_, given.bound_path_)


def test_occam_codes_use_the_given_range_not_the_sample(rng):
    """With a declared range the prior no longer moves with the sample's extremes."""
    X = rng.uniform(2.0, 8.0, size=(60, 5))
    y = (X[:, 3] > 5.0).astype(int)
    model = OccamStumps(**GREEDY, s=2, feature_range=(0.0, 10.0)).fit(X, y)
    np.testing.assert_array_equal(model.feature_range_, np.repeat([[0.0], [10.0]], 5, axis=1))
    for (a, b), length, t in zip(model.intervals_, model.code_lengths_, model.thresholds_):
        assert (length, t) == dyadic_code(a, b, 0.0, 10.0, closed=False)
    errors = int(np.sum(model.predict(X) != y))
    assert model.bound_ == pytest.approx(occam_bound(errors, 60, 5, model.code_lengths_))
    # Dropping the sample's extreme examples changes the training range but not the given prior.
    inner = (X.min(axis=1) > 2.2) & (X.max(axis=1) < 7.8)
    sub = OccamStumps(**GREEDY, s=2, feature_range=(0.0, 10.0)).fit(X[inner], y[inner])
    np.testing.assert_array_equal(sub.feature_range_, model.feature_range_)
    legacy = OccamStumps(**GREEDY, s=2).fit(X[inner], y[inner])
    assert not np.array_equal(legacy.feature_range_, model.feature_range_)


def test_pac_bayes_kl_uses_the_given_range(rng):
    X = rng.normal(size=(60, 7))
    y = (X[:, 0] > 0).astype(int)
    ranges = np.vstack([X.min(0) - 3.0, X.max(0) + 1.0])
    model = PacBayesStumps(**GREEDY, s=3, feature_range=ranges).fit(X, y)
    a, b = model.intervals_[:, 0], model.intervals_[:, 1]
    ratios = (ranges[1, model.features_] - ranges[0, model.features_]) / (b - a)
    g = gibbs_risk(X, y, model.features_, a, b, model.directions_)
    assert model.gibbs_bound_path_[-1] == pytest.approx(pac_bayes_bound(g, 60, 7, ratios))
    narrow = PacBayesStumps(**GREEDY, s=3).fit(X, y)
    # a wider a-priori range costs more KL for the same margin intervals
    if np.array_equal(narrow.features_, model.features_) and np.array_equal(narrow.intervals_, model.intervals_):
        assert model.gibbs_bound_path_[-1] > narrow.gibbs_bound_path_[-1]


@pytest.mark.parametrize(
    "feature_range, error, match",
    [
        ((0.0, 1.0, 2.0), ValueError, "shape"),
        (np.zeros((2, 3)), ValueError, "shape"),
        ((1.0, -1.0), ValueError, "A_k <= B_k"),
        ((0.0, np.inf), ValueError, "finite"),
        ((-0.5, 0.5), ValueError, "outside the 'feature_range' of OccamStumps"),
        ("wide", TypeError, "feature_range"),
    ],
)
def test_feature_range_bad_input(rng, feature_range, error, match):
    X = rng.uniform(-1.0, 1.0, size=(20, 4))
    y = (X[:, 0] > 0).astype(int)
    with pytest.raises(error, match=match):
        OccamStumps(**GREEDY, feature_range=feature_range).fit(X, y)


# ------------------------------------------------------------------------------------------
# bad input
# ------------------------------------------------------------------------------------------


SHARED_BAD = [
    ({"delta": 0.0}, ValueError, "delta"),
    ({"delta": 1.5}, ValueError, "delta"),
    ({"delta": -0.1}, ValueError, "delta"),
    ({"p": -1.0}, ValueError, "'p' parameter"),
    ({"p": "a"}, TypeError, "'p' parameter"),
    ({"s": 0}, ValueError, "'s' parameter"),
    ({"s": 2.5}, TypeError, "'s' parameter"),
    ({"length": "all"}, ValueError, "'length' parameter"),
    ({"stop_idle": "yes"}, TypeError, "'stop_idle' parameter"),
    ({"class_weight": "even"}, ValueError, "'class_weight' parameter"),
    ({"model_type": "xor"}, ValueError, "model_type"),
    ({"tie_breaking": "random"}, ValueError, "tie_breaking"),
    ({"prior_n_features": 2}, ValueError, "prior_n_features"),
    ({"reuse_features": "yes"}, TypeError, "reuse_features"),
]
OWN_BAD = [
    (OccamStumps, {"eta": -0.5}, ValueError, "eta"),
    (PacBayesStumps, {"eta": -0.5}, ValueError, "eta"),
    (PacBayesStumps, {"margin_gaps": (0,)}, ValueError, "margin_gaps"),
]


@pytest.mark.parametrize(
    "cls, params, error, match",
    [(cls, *case) for cls in (SetCoveringStumps, OccamStumps, PacBayesStumps) for case in SHARED_BAD] + OWN_BAD,
)
def test_bad_parameters(rng, cls, params, error, match):
    X, y = random_data(rng, m=20, n=5)
    with pytest.raises(error, match=match) as caught:
        cls(**params).fit(X, y)
    # one message format: the estimator, the parameter, the allowed values and the value given
    name = next(iter(params))
    assert f"The '{name}' parameter of {cls.__name__} must be" in str(caught.value)
    assert f"Got {params[name]!r} instead" in str(caught.value)


def test_bad_data(rng):
    X, y = random_data(rng, m=20, n=5)
    with pytest.raises(ValueError, match="binary"):
        SetCoveringStumps(**GREEDY, threshold="observed").fit(X, np.arange(20) % 3)
    with pytest.raises(ValueError, match="2 classes"):
        SetCoveringStumps(**GREEDY, threshold="observed").fit(X, np.zeros(20))
    X_nan = X.copy()
    X_nan[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        SetCoveringStumps(**GREEDY, threshold="observed").fit(X_nan, y)
    model = SetCoveringStumps(**GREEDY, threshold="observed").fit(X, y)
    with pytest.raises(ValueError, match="features"):
        model.predict(X[:, :3])
    with pytest.raises(ValueError, match=r"truncated: n_stumps must be at most complexity_ = \d+, got 99"):
        model.truncated(99)
    with pytest.raises(ValueError, match=r"The 'n_stumps' parameter of \w+\.truncated must be an int in the range \[0, inf\)\. Got -1 instead"):
        model.truncated(-1)


@settings(max_examples=25, deadline=None)
@given(
    X=arrays(np.float64, (15, 3), elements=st.floats(-5, 5, allow_nan=False, width=32)),
    labels=arrays(np.int64, 15, elements=st.integers(0, 1)),
    variant=st.sampled_from(["sc", "occam", "pac_bayes"]),
)
def test_any_data_gives_a_valid_model(X, labels, variant):
    if labels.min() == labels.max():
        labels[0] = 1 - labels[0]
    learner = STUMP_LEARNERS[variant](**GREEDY, s=3)
    low = (learner._scale_range or {}).get("low") or 0.0
    if 0 < np.max(np.abs(X)) < low:
        # Below the declared scale every column is one run (pyscm's 1e-7 tolerance): the learner
        # refuses, naming itself and the remedy, instead of returning a constant model.
        with pytest.raises(ValueError, match=rf"{type(learner).__name__}: the largest \|value\| in X .* Rescale X"):
            learner.fit(X, labels)
        return
    model = learner.fit(X, labels)
    assert 0.0 <= model.bound_ <= 1.0
    assert np.all(np.isin(model.predict(X), [0, 1]))
    assert model.training_errors_path_[-1] == np.sum(model.predict(X) != labels)


# --------------------------------------------------------------------------------------------
# Attribute reuse (pyscm-ml's behaviour): the priors count attribute multisets
# --------------------------------------------------------------------------------------------


def test_attribute_multisets_are_counted_exactly():
    from itertools import combinations, combinations_with_replacement

    from companion.bounds.occam import log_attribute_choices

    for n in range(1, 6):
        for k in range(0, 7):
            multisets = sum(1 for _ in combinations_with_replacement(range(n), k))
            assert log_attribute_choices(n, k, reuse_features=True) == pytest.approx(np.log(multisets))
            if k <= n:
                sets = sum(1 for _ in combinations(range(n), k))
                assert log_attribute_choices(n, k) == pytest.approx(np.log(sets))


def test_reuse_makes_every_bound_larger():
    from companion.bounds.occam import occam_bound
    from companion.bounds.pac_bayes import pac_bayes_bound

    # one stump: a multiset of one attribute is a set, the bounds agree
    assert compression_bound(2, 60, 20, 1, reuse_features=True) == compression_bound(2, 60, 20, 1)
    for size in (2, 3):
        assert compression_bound(2, 60, 20, size, reuse_features=True) > compression_bound(2, 60, 20, size)
        lengths = [2] * size
        assert occam_bound(2, 60, 20, lengths, reuse_features=True) > occam_bound(2, 60, 20, lengths)
        ratios = [4.0] * size
        assert pac_bayes_bound(0.1, 60, 20, ratios, reuse_features=True) > pac_bayes_bound(0.1, 60, 20, ratios)


@pytest.mark.parametrize("variant", ["sc", "occam", "pac_bayes"])
def test_reused_attributes_get_a_valid_bound(variant):
    # A box on two attributes needs two stumps per attribute: with reuse the conjunction has more
    # stumps than there are attributes, which the set-based priors cannot even express.
    rng = np.random.default_rng(3)
    X = rng.uniform(-1, 2, size=(120, 2))
    y = ((X > 0) & (X < 1)).all(axis=1).astype(int)
    model = STUMP_LEARNERS[variant](**GREEDY, reuse_features=True, s=6, p=10.0).fit(X, y)
    assert model.features_.size > X.shape[1]
    assert 0.0 < model.bound_ <= 1.0
    assert np.all((model.bound_path_ >= 0) & (model.bound_path_ <= 1))


# ------------------------------------------------------------------------------------------
# issue 14: scores, text, input kinds and parameters on the user's own data
# ------------------------------------------------------------------------------------------


def tiny_example():
    """Five rows; with s=2 the greedy picks x0 > 2 (removes rows 0, 1) then x1 > 1 (row 4)."""
    X = np.array([[1.0, 5.0], [2.0, 4.0], [3.0, 3.0], [4.0, 2.0], [5.0, 1.0]])
    y = np.array(["no", "no", "yes", "yes", "no"])
    return X, y


def test_predict_proba_is_laplace_frequency_of_the_first_failing_stump_by_hand():
    from fractions import Fraction

    X, y = tiny_example()
    model = SetCoveringStumps(**GREEDY, threshold="observed", s=2).fit(X, y)
    assert stumps_of(model) == [(0, 2.0, 1), (1, 1.0, 1)]
    # cells: stump 0 fails (rows 0, 1: no, no), stump 1 fails (row 4: no), all hold (rows 2, 3: yes, yes)
    assert model.cell_counts_.tolist() == [[2, 0], [1, 0], [0, 2]]
    expected = [[Fraction(3, 4), Fraction(1, 4)], [Fraction(2, 3), Fraction(1, 3)], [Fraction(1, 4), Fraction(3, 4)]]
    X_new = np.array([[0.0, 0.0], [9.0, 0.0], [3.5, 3.0]])  # one row per cell
    np.testing.assert_array_equal(model.predict_proba(X_new), np.array(expected, dtype=float))
    # s=1: the last two cells merge (x0 > 2 holds for rows 2, 3, 4: yes, yes, no) -> (2/5, 3/5)
    one = SetCoveringStumps(**GREEDY, threshold="observed", s=1).fit(X, y)
    assert one.cell_counts_.tolist() == [[2, 0], [1, 2]]
    np.testing.assert_array_equal(one.predict_proba(X_new[1:]), [[0.4, 0.6], [0.4, 0.6]])
    np.testing.assert_array_equal(model.truncated(1).cell_counts_, one.cell_counts_)
    # decision_function: stumps that hold - stumps + 1/2, plus tanh(mean margin)/4, the margins
    # d (x - c) / (B - A) in units of the training range (x0, x1: [1, 5] -> 4), c the middle of
    # the interval of equivalent thresholds (x0 > 2: [2, 3]; x1 > 1 on rows 2-4: [1, 2]), by hand
    assert model.intervals_.tolist() == [[2.0, 3.0], [1.0, 2.0]]
    margins = [((0 - 2.5) / 4 + (0 - 1.5) / 4) / 2, ((9 - 2.5) / 4 + (0 - 1.5) / 4) / 2,
               ((3.5 - 2.5) / 4 + (3 - 1.5) / 4) / 2]
    expected = np.array([-1.5, -0.5, 0.5]) + np.tanh(margins) / 4
    np.testing.assert_allclose(model.decision_function(X_new), expected, rtol=1e-15)


@pytest.mark.parametrize("variant", ["sc", "occam", "pac_bayes"])
@pytest.mark.parametrize("model_type", ["conjunction", "disjunction"])
def test_decision_function_sign_agrees_with_predict_and_proba_rows_sum_to_one(rng, variant, model_type):
    X, y = random_data(rng, m=60, n=8)
    labels = np.array(["low", "high"])[y]
    model = STUMP_LEARNERS[variant](**GREEDY, model_type=model_type, s=4, p=0.7).fit(X, labels)
    X_test = X + rng.integers(-1, 2, size=X.shape)
    for data in (X, X_test):
        scores = model.decision_function(data)
        assert scores.shape == (data.shape[0],)
        np.testing.assert_array_equal(np.where(scores > 0, model.classes_[1], model.classes_[0]), model.predict(data))
        proba = model.predict_proba(data)
        assert proba.shape == (data.shape[0], 2) and np.all((proba > 0) & (proba < 1))
        np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert model.cell_counts_.sum() == X.shape[0]
    assert model.cell_counts_.shape == (model.features_.size + 1, 2)
    for r in range(model.features_.size + 1):  # prefixes keep their frequencies
        refit = STUMP_LEARNERS[variant](**GREEDY, model_type=model_type, s=max(r, 1), p=0.7).fit(X, labels)
        if r:
            np.testing.assert_array_equal(model.truncated(r).cell_counts_, refit.cell_counts_)
            np.testing.assert_array_equal(model.truncated(r).predict_proba(X_test), refit.predict_proba(X_test))
    scores = model.decision_function(X)
    if variant != "pac_bayes":  # half-integer counts of stumps, graded within +-1/4
        outputs = np.column_stack([
            (X[:, k] > t) if d > 0 else (X[:, k] <= t)
            for k, t, d in zip(model.features_, model.thresholds_, model.directions_)
        ])
        count = outputs.sum(axis=1) - 0.5 if model_type == "disjunction" else outputs.sum(axis=1) - outputs.shape[1] + 0.5
        assert np.all(np.abs(scores - count) <= 0.25)
        assert np.unique(scores).size > np.unique(count).size  # the grade breaks ties of the count
    else:  # the Gibbs margin, scaled by a factor in (1/2, 3/2)
        gibbs = model.gibbs_proba(X) - 0.5
        ratio = scores[gibbs != 0] / gibbs[gibbs != 0]
        assert np.all((ratio > 0.5) & (ratio < 1.5))


def test_pac_bayes_disjunction_tie_scores_positive_like_predict():
    # One stump with margin interval [a, b]: at x = (a + b)/2 exactly, sigma = 1/2 and the Bayes
    # vote of the learned conjunction is 0, so the disjunction predicts classes_[1].
    X = np.array([[0.0], [2.0], [4.0], [6.0], [8.0], [10.0]])
    y = np.array([1, 1, 1, 0, 0, 0])
    model = PacBayesStumps(**GREEDY, model_type="disjunction", s=1, margin_gaps=(2,)).fit(X, y)
    a, b = model.intervals_[0]
    middle = np.array([[(a + b) / 2]])
    assert model.gibbs_proba(middle)[0] == 0.5
    assert model.predict(middle)[0] == model.classes_[1]
    assert model.decision_function(middle)[0] > 0


def test_scores_on_breast_cancer_and_one_vs_rest_on_wine():
    from sklearn.datasets import load_breast_cancer, load_wine
    from sklearn.model_selection import cross_val_score
    from sklearn.multiclass import OneVsRestClassifier

    X, y = load_breast_cancer(return_X_y=True)
    X_wine, y_wine = load_wine(return_X_y=True)
    for variant in ("sc", "occam", "pac_bayes"):
        auc = cross_val_score(STUMP_LEARNERS[variant](**GREEDY, s=3), X, y, cv=3, scoring="roc_auc")
        assert np.all(np.isfinite(auc)) and auc.mean() > 0.85
        loss = cross_val_score(STUMP_LEARNERS[variant](**GREEDY, s=3), X, y, cv=3, scoring="neg_log_loss")
        assert np.all(np.isfinite(loss)) and loss.mean() > -0.5
        ovr = OneVsRestClassifier(STUMP_LEARNERS[variant](**GREEDY, s=3)).fit(X_wine, y_wine)
        assert set(ovr.predict(X_wine)) <= set(y_wine) and ovr.score(X_wine, y_wine) > 0.8
    with pytest.raises(ValueError, match=r"Only binary classification is supported.*OneVsRestClassifier"):
        SetCoveringStumps(**GREEDY, threshold="observed").fit(X_wine, y_wine)


def test_text_names_columns_from_frames_lists_and_pipelines(rng):
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    from companion.interpretable import pipeline_text

    frame = pd.DataFrame({"age": np.arange(80.0) % 60 + 20, "income": rng.normal(size=80)})
    y = np.where(frame["age"] > 54, "sick", "well")
    model = SetCoveringStumps(**GREEDY, threshold="observed", s=1).fit(frame, y)
    assert model.to_text(show_class=False) == "age <= 54"
    assert model.to_text() == str(model) == "IF age <= 54 THEN well ELSE sick"  # the classes it predicts
    assert model.to_text(["AGE", "INCOME"], show_class=False) == "AGE <= 54"
    assert model.to_text(decimals=0, show_class=False) == "age <= 54"
    plain = SetCoveringStumps(**GREEDY, threshold="observed", s=1).fit(frame.to_numpy(), y)
    assert plain.to_text(show_class=False) == "x0 <= 54"  # columns counted from 0
    # The default threshold lies halfway to the next observed age (55): between observed values.
    midpoint = SetCoveringStumps(**GREEDY, s=1).fit(frame, y)
    assert midpoint.to_text() == "IF age <= 54.5 THEN well ELSE sick"
    with pytest.raises(ValueError, match="feature_names has 1 names"):
        model.to_text(["AGE"])
    assert str(SetCoveringStumps(s=3)) == "SetCoveringStumps(s=3)"  # unfitted: the parameters
    mixed = frame.assign(city=np.where(frame["age"] > 54, "Paris", "Nice"))
    pipe = make_pipeline(
        ColumnTransformer([("num", "passthrough", ["age", "income"]), ("cat", OneHotEncoder(), ["city"])]),
        SetCoveringStumps(**GREEDY, threshold="observed", s=1),
    ).fit(mixed, y)
    assert pipeline_text(pipe) in {f"IF {rule} THEN well ELSE sick"
                                   for rule in ("num__age <= 54", "cat__city_Nice > 0", "cat__city_Paris <= 0")}


def test_string_column_is_named_and_numpy_scalars_are_accepted(rng):
    frame = pd.DataFrame({"age": rng.normal(size=30), "city": rng.choice(["Paris", "Nice"], 30)})
    y = np.arange(30) % 2
    frame.loc[2, "age"] = np.nan
    for cls in STUMP_LEARNERS.values():
        # The one input pipeline (companion.preprocessing.NumericInput): the city's values and
        # the missing age become columns named after them, which to_text prints.
        model = cls(**GREEDY, s=2).fit(frame, y)
        assert list(model.feature_names_in_) == ["age", "city=Paris", "age=?"]
        assert set(model.predict(frame)) <= {0, 1}
        assert all(model.feature_names_in_[k] in model.to_text() for k in model.features_)
    X, y = random_data(rng)
    own = {"sc": {}, "occam": {"eta": 1.0}, "pac_bayes": {"eta": 1.0, "margin_gaps": (1, 2)}}
    own_numpy = {"sc": {}, "occam": {"eta": np.float64(1.0)},
                 "pac_bayes": {"eta": np.float64(1.0), "margin_gaps": np.array([1, 2])}}
    for variant, cls in STUMP_LEARNERS.items():
        plain = cls(**GREEDY, s=3, p=0.5, delta=0.05, prior_n_features=20, **own[variant])
        numpy = cls(**GREEDY, 
            s=np.int64(3), p=np.float32(0.5), delta=np.float64(0.05), reuse_features=np.bool_(False),
            prior_n_features=np.int32(20), **own_numpy[variant],
        )
        a, b = plain.fit(X, y), numpy.fit(X, y)
        assert stumps_of(a) == stumps_of(b) and a.bound_ == b.bound_


# ------------------------------------------------------------------------------------------
# issue 17: three learners over one base
# ------------------------------------------------------------------------------------------

# Recorded with the former one-class StumpConjunction (variant flag) before the split, on
# split_data(): (features_, thresholds_, directions_, bound_path_, training_errors_path_, own
# attributes). The split learners must give exactly these numbers.
FORMER = {
    ("sc", "conjunction"): ([2, 5, 1], [-0.3, 0.7, -3.1], [1, -1, 1], [0.838413058285717, 0.6051037994137651, 0.5505564361637639, 0.5583938740437872], [18, 5, 2, 1], {'compression_set_': [16, 14, 21]}),
    ("sc", "disjunction"): ([2, 0], [-0.3, -1.4], [1, -1], [0.838413058285717, 0.6051037994137651, 0.6445166650913056], [18, 5, 4], {'compression_set_': [16, 13]}),
    ("occam", "conjunction"): ([2, 1, 4], [0.0, -1.9000000000000001, -2.0999999999999996], [1, 1, 1], [0.6643405859879417, 0.4829821662965889, 0.5553148826922039, 0.5933394574273819], [18, 7, 6, 5], {'code_lengths_': [0, 1, 1]}),
    ("occam", "disjunction"): ([2, 4, 0], [0.0, -2.0999999999999996, 1.6249999999999996], [1, -1, 1], [0.6643405859879417, 0.4829821662965889, 0.5229303424479506, 0.6237344881084911], [18, 7, 5, 6], {'code_lengths_': [0, 1, 1]}),
    ("pac_bayes", "conjunction"): ([2, 1, 5], [-0.25, -2.1, 0.8], [1, 1, -1], [1.0, 1.0, 1.0, 1.0], [18, 5, 4, 1], {'gibbs_bound_path_': [0.785529545395957, 0.5746979260824204, 0.587095128553347, 0.5428444332147468]}),
    ("pac_bayes", "disjunction"): ([2, 1, 4], [-0.25, -2.1, -2.5], [1, -1, -1], [1.0, 1.0, 1.0, 1.0], [18, 5, 5, 5], {'gibbs_bound_path_': [0.785529545395957, 0.5746979260824204, 0.6249412087387114, 0.6608464938159655]}),
}
OWN_PARAMS = {"sc": {"threshold": "observed"}, "occam": {"eta": 1.0}, "pac_bayes": {"eta": 1.0, "margin_gaps": (1, 3), "gap_unit": "example"}}
#: Own attributes that are real functions of counts (log/exp inside), compared at BOUND_RTOL.
REAL_VALUED_OWN = {"gibbs_bound_path_"}
#: Relative tolerance of a recorded bound: a few ulp of float64 (see the test below).
BOUND_RTOL = 1e-12
FITTED_ARRAYS = ("features_", "thresholds_", "directions_", "intervals_", "bound_path_", "training_errors_path_",
                 "cell_counts_", "feature_range_", "classes_")


def split_data():
    rng = np.random.default_rng(2012)
    X = np.round(rng.normal(size=(36, 7)), 1)
    y = ((X[:, 2] > -0.3) & (X[:, 5] < 0.8)).astype(int) ^ (rng.random(36) < 0.1)
    return X, y


@pytest.mark.parametrize("variant, model_type", sorted(FORMER))
def test_split_learners_reproduce_the_former_class_exactly(variant, model_type):
    X, y = split_data()
    model = STUMP_LEARNERS[variant](**GREEDY, model_type=model_type, s=3, p=1.5, **OWN_PARAMS[variant]).fit(X, y)
    features, thresholds, directions, bounds, errors, own = FORMER[(variant, model_type)]
    # Decisions exactly: the chosen stumps, their thresholds (midpoints of data values, one
    # correctly rounded IEEE operation on any CPU), directions, error counts, compression sets
    # and code lengths.
    assert model.features_.tolist() == features
    assert model.thresholds_.tolist() == thresholds
    assert model.directions_.tolist() == directions
    assert model.training_errors_path_.tolist() == errors
    # The bounds pass through log/exp, whose last bits follow the SIMD loop numpy dispatches to
    # (up to 4 ulp between AVX-512, AVX2 and baseline code): a few ulp, never more.
    np.testing.assert_allclose(model.bound_path_, bounds, rtol=BOUND_RTOL, atol=0)
    np.testing.assert_allclose(model.bound_, bounds[-1], rtol=BOUND_RTOL, atol=0)
    for name, value in own.items():
        if name in REAL_VALUED_OWN:
            np.testing.assert_allclose(getattr(model, name), value, rtol=BOUND_RTOL, atol=0)
        else:
            assert getattr(model, name).tolist() == value


def test_discovery_finds_exactly_the_three_stump_learners():
    from companion.discovery import all_estimators

    discovered = {cls for name, cls in all_estimators() if cls.__module__ == "companion.stumps"}
    assert discovered == set(STUMP_LEARNERS.values())


@pytest.mark.parametrize("variant", ["sc", "occam", "pac_bayes"])
@pytest.mark.parametrize("model_type", ["conjunction", "disjunction"])
def test_staged_predict_is_a_generator_of_the_first_k_stumps(rng, variant, model_type):
    import inspect

    X, y = random_data(rng, m=60, n=8)
    labels = np.array(["a", "b"])[y]
    model = STUMP_LEARNERS[variant](**GREEDY, model_type=model_type, s=4, p=0.7).fit(X, labels)
    X_new = X + rng.integers(-1, 2, size=X.shape)
    stages = model.staged_predict(X_new)
    assert inspect.isgenerator(stages)
    stages = list(stages)
    assert len(stages) == model.features_.size == model.complexity_ >= 2
    np.testing.assert_array_equal(stages[-1], model.predict(X_new))
    for k, stage in enumerate(stages, start=1):
        np.testing.assert_array_equal(stage, model.truncated(k).predict(X_new))
    assert list(model.truncated(0).staged_predict(X_new)) == []
    # bound_path_[k] is the bound of the first k stumps, k = 0 .. n_stumps
    assert model.bound_path_.shape == (len(stages) + 1,)
    for k in range(len(stages) + 1):
        assert model.truncated(k).bound_ == model.bound_path_[k]


@pytest.mark.parametrize("variant", ["sc", "occam", "pac_bayes"])
def test_complexity_is_the_number_of_rendered_stumps(rng, variant):
    X, y = random_data(rng, m=60, n=8)
    for model_type, joint in (("conjunction", " AND "), ("disjunction", " OR ")):
        model = STUMP_LEARNERS[variant](**GREEDY, model_type=model_type, s=4, p=0.5).fit(X, y)
        assert model.complexity_ == model.features_.size == len(model.to_text().split(joint)) >= 2
        for r in range(model.features_.size + 1):
            assert model.truncated(r).complexity_ == r


def test_each_learner_takes_only_its_own_parameters_and_attributes(rng):
    shared = {"model_type", "p", "s", "delta", "tie_breaking", "reuse_features", "prior_n_features", "feature_range",
              "length", "stop_idle", "class_weight"}
    assert set(SetCoveringStumps(**GREEDY, threshold="observed").get_params()) == shared | {"threshold"}
    assert set(OccamStumps(**GREEDY).get_params()) == shared | {"eta"}
    assert set(PacBayesStumps(**GREEDY).get_params()) == shared | {"eta", "margin_gaps", "gap_unit"}
    for cls, foreign in ((SetCoveringStumps, {"eta": 1.0}), (SetCoveringStumps, {"margin_gaps": (1,)}),
                         (OccamStumps, {"margin_gaps": (1,)}), (PacBayesStumps, {"variant": "sc"})):
        with pytest.raises(TypeError, match=next(iter(foreign))):
            cls(**GREEDY, **foreign)
        with pytest.raises(ValueError, match="Invalid parameter"):
            cls(**GREEDY).set_params(**foreign)
    with pytest.raises(TypeError):
        SetCoveringStumps("disjunction")  # keyword-only
    X, y = random_data(rng)
    own = {
        SetCoveringStumps: {"compression_set_"},
        OccamStumps: {"code_lengths_"},
        PacBayesStumps: {"gibbs_bound_path_", "gibbs_risk_path_"},
    }
    every = set().union(*own.values())
    for cls, attributes in own.items():
        model = cls(**GREEDY, s=3).fit(X, y)
        assert {name for name in every if hasattr(model, name)} == attributes


# ------------------------------------------------------------------------------------------
# issue 27: safe defaults, sample weights, exported models and rule frames
# ------------------------------------------------------------------------------------------


def _idle_stumps(model, X):
    """Stumps after which no training prediction changes (computed from the rendered stumps)."""
    one = np.ones(X.shape[0], dtype=bool)
    idle = []
    for j, (k, t, d) in enumerate(stumps_of(model)):
        if isinstance(model, PacBayesStumps):
            break  # soft stumps: checked through staged_predict below
        holds = (X[:, k] > t) if d > 0 else (X[:, k] <= t)
        if model.model_type == "disjunction":
            holds = ~holds  # a disjunction's stump fires where the learned conjunction's fails
        new = one & holds
        if np.array_equal(new, one):
            idle.append(j)
        one = new
    return idle


def _mixed_table(seed=0, n=400):
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({
        "age": rng.normal(45, 12, n).round(), "income": rng.lognormal(10, 0.5, n).round(-2),
        "city": rng.choice(["Paris", "Lille", "Lyon", "Nice"], n), "plan": rng.choice(["basic", "plus", "pro"], n),
    })
    score = 0.05 * (frame["age"] - 45) + 0.8 * (frame["city"] == "Lille") + 1.2 * (frame["plan"] == "pro")
    y = np.where(score + rng.normal(0, 1, n) > np.quantile(score, 0.6), "churn", "stay")
    return frame, y


@pytest.mark.parametrize("variant", ["sc", "occam", "pac_bayes"])
def test_defaults_beat_the_majority_class_with_no_idle_stump(variant):
    from sklearn.compose import ColumnTransformer
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    cls = STUMP_LEARNERS[variant]
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    X, y = load_breast_cancer(return_X_y=True)
    frame, labels = _mixed_table()
    encoder = ColumnTransformer([("num", "passthrough", ["age", "income"]),
                                 ("cat", OneHotEncoder(sparse_output=False), ["city", "plan"])])
    for data, target, model in ((X, y, cls()), (frame, labels, make_pipeline(encoder, cls()))):
        majority = max(np.mean(target == c) for c in np.unique(target))
        assert cross_val_score(model, data, target, cv=cv).mean() > majority + 0.05
    # the paper's greedy pads breast_cancer with stumps that change nothing; the default does not
    padded = cls(length="greedy", stop_idle=False).fit(X, y)
    default = cls().fit(X, y)
    stops = cls(length="greedy").fit(X, y)
    assert default.complexity_ < padded.complexity_ and stops.complexity_ <= padded.complexity_
    if variant != "pac_bayes":
        assert _idle_stumps(padded, X) and not _idle_stumps(default, X) and not _idle_stumps(stops, X)
    for model in (default, stops):
        stages = [np.full(len(y), model.default_class_)] + list(model.staged_predict(X))
        assert all(np.any(a != b) for a, b in zip(stages, stages[1:]))  # each stump changes a prediction
    # length="bound" is the minimum of the full path (Paper 05, Section VI)
    greedy_bound = cls(length="greedy").fit(X, y)
    chosen = int(np.argmin(greedy_bound._model_selection_path()))
    assert default.complexity_ == chosen and default.bound_ == pytest.approx(greedy_bound.bound_path_[chosen])


def test_no_always_true_stump_on_a_one_hot_table():
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    from companion.interpretable import pipeline_text

    frame, labels = _mixed_table()
    encoder = ColumnTransformer([("num", "passthrough", ["age", "income"]),
                                 ("cat", OneHotEncoder(sparse_output=False), ["city", "plan"])])
    for cls in STUMP_LEARNERS.values():
        for params in ({}, {"length": "greedy"}):
            pipe = make_pipeline(encoder, cls(**params)).fit(frame, labels)
            text = pipeline_text(pipe)
            assert "<= 1 " not in text + " " and "> 0 (t" not in text, text
            assert not _idle_stumps(pipe[-1], pipe[:-1].transform(frame))


def _fitted_arrays(model):
    return {name: getattr(model, name) for name in ("features_", "thresholds_", "directions_", "intervals_")}


def _assert_same_model(a, b, X_new):
    for name, value in _fitted_arrays(a).items():
        np.testing.assert_array_equal(value, getattr(b, name), err_msg=name)
    np.testing.assert_allclose(a.bound_path_, b.bound_path_, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(a.training_errors_path_, b.training_errors_path_)
    np.testing.assert_array_equal(a.predict(X_new), b.predict(X_new))
    np.testing.assert_allclose(a.cell_counts_, b.cell_counts_)
    np.testing.assert_allclose(a.predict_proba(X_new), b.predict_proba(X_new), rtol=1e-12)


@pytest.mark.parametrize("variant", ["sc", "occam", "pac_bayes"])
@pytest.mark.parametrize("model_type", ["conjunction", "disjunction"])
@pytest.mark.parametrize("length", ["bound", "greedy"])
def test_integer_weights_equal_duplicated_rows_and_zero_weights_dropped_rows(rng, variant, model_type, length):
    for trial in range(3):
        X, y = random_data(rng, m=50, n=8)
        if trial:
            X = X + rng.normal(0, 0.3, size=X.shape)  # real values as well as ties
        X_new = X + rng.integers(-1, 2, size=X.shape)
        weights = rng.integers(0, 4, size=len(y))
        weights[:2] = [1, 2]  # both classes keep weight
        if np.unique(y[weights > 0]).size < 2:
            continue
        params = {"model_type": model_type, "s": 5, "p": 0.8, "length": length}
        cls = STUMP_LEARNERS[variant]
        weighted = cls(**params).fit(X, y, sample_weight=weights)
        repeated = cls(**params).fit(np.repeat(X, weights, axis=0), np.repeat(y, weights))
        _assert_same_model(weighted, repeated, X_new)
        zero_one = (weights > 0).astype(float)
        dropped = cls(**params).fit(X[weights > 0], y[weights > 0])
        _assert_same_model(cls(**params).fit(X, y, sample_weight=zero_one), dropped, X_new)


@pytest.mark.parametrize("variant", ["sc", "occam", "pac_bayes"])
def test_class_weight_multiplies_into_sample_weight_and_weights_count(rng, variant):
    from sklearn.utils.class_weight import compute_sample_weight

    X, y = random_data(rng, m=60, n=8)
    cls = STUMP_LEARNERS[variant]
    weights = rng.uniform(0.5, 2.0, size=len(y))
    balanced = cls(class_weight="balanced").fit(X, y, sample_weight=weights)
    explicit = cls().fit(X, y, sample_weight=weights * compute_sample_weight("balanced", y))
    _assert_same_model(balanced, explicit, X)
    # weighted counts: the cells hold the training weight of each class
    np.testing.assert_allclose(explicit.cell_counts_.sum(axis=0),
                               [np.sum((weights * compute_sample_weight("balanced", y))[y == c]) for c in (0, 1)])
    assert 0.0 < explicit.bound_ <= 1.0
    with pytest.raises(ValueError, match="non-zero"):
        cls().fit(X, y, sample_weight=np.zeros(len(y)))
    with pytest.raises(ValueError, match="Negative values"):
        cls().fit(X, y, sample_weight=-np.ones(len(y)))


@pytest.mark.parametrize("variant", ["sc", "occam", "pac_bayes"])
@pytest.mark.parametrize("model_type", ["conjunction", "disjunction"])
def test_rules_frame_lists_the_stumps_and_the_rows_they_decide(rng, variant, model_type):
    X, y = random_data(rng, m=60, n=8)
    labels = np.array(["no", "yes"])[y]
    model = STUMP_LEARNERS[variant](**GREEDY, model_type=model_type, s=3).fit(X, labels)
    frame = model.rules_frame(X, labels)
    k = model.complexity_
    assert len(frame) == k + 1 and frame["covered"].sum() == len(labels)  # every row decided once
    text = model.to_text()
    assert all(condition in text for condition in frame["condition"][:k])
    assert frame["condition"].iloc[-1] == "" and frame["prediction"].iloc[-1] == model.default_class_
    # by hand for hard stumps: row j decides the rows whose first failing stump of the learned
    # conjunction (a disjunction: first firing stump) is j; they get the other class
    if variant != "pac_bayes":
        first = np.full(len(labels), k)
        for j, (f, t, d) in reversed(list(enumerate(stumps_of(model)))):
            holds = (X[:, f] > t) if d > 0 else (X[:, f] <= t)
            first[~holds if model_type == "conjunction" else holds] = j
        np.testing.assert_array_equal(frame["covered"], np.bincount(first, minlength=k + 1))
        predicted = model.predict(X)
        np.testing.assert_array_equal(frame["errors"], np.bincount(first, weights=predicted != labels, minlength=k + 1))


@pytest.mark.parametrize("variant", ["sc", "occam", "pac_bayes"])
def test_exported_model_round_trip_keeps_paths_and_own_attributes(rng, variant):
    import json

    from companion.interpretable import from_dict

    X, y = random_data(rng, m=60, n=8)
    model = STUMP_LEARNERS[variant](model_type="disjunction", s=4).fit(X, np.array(["a", "b"])[y])
    data = json.loads(json.dumps(model.to_dict(), allow_nan=False))
    assert [stump["feature"] for stump in data["model"]["stumps"]] == model.features_.tolist()
    rebuilt = from_dict(data)
    for name in (*model._per_stump_attributes, *model._path_attributes, "cell_counts_", "feature_range_"):
        np.testing.assert_array_equal(getattr(rebuilt, name), getattr(model, name), err_msg=name)
    assert rebuilt.to_text(decimals=2) == model.to_text(decimals=2)
    np.testing.assert_array_equal(rebuilt.decision_function(X), model.decision_function(X))
    assert rebuilt.default_class_ == model.default_class_ == "a"


@pytest.mark.parametrize("variant", ["sc", "occam", "pac_bayes"])
def test_decision_function_breaks_one_vs_rest_ties(variant):
    from sklearn.datasets import load_digits
    from sklearn.multiclass import OneVsRestClassifier

    X, y = load_digits(return_X_y=True)
    X, y = X[:600], y[:600]
    # length="greedy": with the default length a one-vs-rest member whose stumps lose to "rest" on
    # inner folds falls back to a constant (fallback_class_), whose score is constant by design.
    ovr = OneVsRestClassifier(STUMP_LEARNERS[variant](length="greedy")).fit(X[:400], y[:400])
    scores = ovr.decision_function(X[400:])
    # the coarse part of the score: the stump count (|tanh|/4 < 1/2), PAC-Bayes: the vote
    coarse = np.sign(scores) if variant == "pac_bayes" else np.floor(scores + 0.5)

    def tied(values):
        return np.mean((values == values.max(axis=1, keepdims=True)).sum(axis=1) > 1)

    assert tied(coarse) > 0.4  # most rows tie on the coarse score ...
    assert tied(scores) < tied(coarse) / 1.5  # ... the graded score breaks most of those ties


def test_sc_midpoint_thresholds_lie_between_observed_values_and_keep_the_training_predictions(rng):
    X = np.column_stack([rng.integers(0, 2, 120), rng.normal(size=120), rng.integers(0, 5, 120)]).astype(float)
    y = ((X[:, 0] == 1) & (X[:, 2] > 1)) ^ (rng.random(120) < 0.05)
    for model_type in ("conjunction",):
        observed = SetCoveringStumps(model_type=model_type, threshold="observed").fit(X, y)
        midpoint = SetCoveringStumps(model_type=model_type).fit(X, y)
        assert midpoint.features_.tolist() == observed.features_.tolist() and midpoint.features_.size >= 1
        np.testing.assert_array_equal(midpoint.predict(X), observed.predict(X))
        np.testing.assert_array_equal(midpoint.bound_path_, observed.bound_path_)
        for feature, low, threshold in zip(midpoint.features_, observed.thresholds_, midpoint.thresholds_):
            values = np.unique(X[:, feature])
            above = values[values > low]
            assert threshold not in values  # never an observed value ...
            assert low < threshold < above.min()  # ... but halfway to the next one
            assert threshold == (low + above.min()) / 2
    exact = SetCoveringStumps().fit(X, X[:, 0] == 1)
    assert exact.to_text() == "IF x0 > 0.5 THEN True ELSE False"  # a 0/1 column: 0.5, not 0


def test_stump_text_names_the_class_of_each_outcome(rng):
    X, y = random_data(rng, m=60, n=6)
    labels = np.where(y == 1, "yes", "no")
    for cls in (SetCoveringStumps, OccamStumps, PacBayesStumps):
        for model_type in ("conjunction", "disjunction"):
            model = cls(**GREEDY, model_type=model_type, s=2).fit(X, labels)
            text = model.to_text()
            assert text.startswith("IF ") and text.endswith(" THEN yes ELSE no"), text
            assert text[3:-len(" THEN yes ELSE no")] == model.to_text(show_class=False)


@pytest.mark.parametrize("variant", ["sc", "occam", "pac_bayes"])
def test_default_length_falls_back_to_the_majority_class_when_the_stumps_lose_on_inner_folds(rng, variant):
    from companion.interpretable import SingleClassWarning

    X = rng.normal(size=(120, 5))
    y = np.where(rng.random(120) < 0.2, "rare", "common")  # no signal; the empty conjunction says "rare"
    with pytest.warns(SingleClassWarning, match="fell back to the default class"):
        model = STUMP_LEARNERS[variant]().fit(X, y)
    assert model.fallback_class_ == "common" and model.features_.size == 0 and model.complexity_ == 0
    assert set(model.predict(X)) == {"common"} and model.to_text() == "always common"
    assert np.all(model.decision_function(X) < 0) == (model.classes_[1] != "common")
    from companion.interpretable import from_dict
    assert set(from_dict(model.to_dict()).predict(X)) == {"common"}
    paper = STUMP_LEARNERS[variant](**GREEDY, s=3).fit(X, y)  # the paper's greedy: no fallback
    assert paper.fallback_class_ is None and paper.features_.size >= 1 and paper.to_text() != "always common"


@pytest.mark.parametrize("tie_breaking", ["index", "pyscm"])
def test_sc_ranks_route_matches_naive_greedy(rng, tie_breaking):
    """A long greedy (25 stumps on random labels, most removing few examples) builds the ranks
    midway and zeroes cells through them; a refit whose shared cache already holds the ranks uses
    them from its first step; a two-stump fit never builds them. All equal the naive greedy."""
    from companion._stump_search import SortCache

    X = np.round(rng.normal(size=(120, 12)), 1)
    y = (rng.random(120) < 0.5).astype(int)
    cache = SortCache()
    params = dict(**GREEDY, threshold="observed", p=1.0, reuse_features=True, tie_breaking=tie_breaking)
    expected = naive_cover_fit(X, y, 1.0, 25, tie_breaking=tie_breaking, reuse=True)
    long_fit = SetCoveringStumps(**params, s=25).fit(X, y, sort_cache=cache)
    (stored,) = [entry[2] for entry in cache._entries]
    assert stored.has_ranks and len(expected) == 25
    assert stumps_of(long_fit) == expected
    assert stumps_of(SetCoveringStumps(**params, s=25).fit(X, y, sort_cache=cache)) == expected
    short_cache = SortCache()
    short_fit = SetCoveringStumps(**params, s=2).fit(X, y, sort_cache=short_cache)
    assert stumps_of(short_fit) == expected[:2]
    assert not short_cache._entries[0][2].has_ranks


def test_sc_feature_range_read_off_the_sorted_columns(rng):
    """Without a given range, SC's feature_range_ is each column's smallest and largest value
    (read off its sorted order), of the rows of positive weight, +0.0 for a zero extreme; the
    sort's key width from the scale check's reading of an array is the same model as from a
    DataFrame's (read again) or a list's."""
    X = np.round(rng.normal(size=(50, 6)) * 1000)
    X[:, 2] = np.where(rng.random(50) < 0.5, -0.0, 0.0)  # only zeros, of both signs
    X[:, 3] = np.abs(X[:, 3])
    X[:10, 3] = -0.0
    y = (X[:, 0] + rng.normal(scale=500, size=50) > 0).astype(int)
    weight = np.where(rng.random(50) < 0.2, 0.0, 1.0)
    weight[[0, 1]] = 1.0
    kept = weight > 0
    model = SetCoveringStumps().fit(X, y, sample_weight=weight)
    expected = np.vstack([X[kept].min(axis=0), X[kept].max(axis=0)])
    np.testing.assert_array_equal(model.feature_range_, expected)
    assert not np.signbit(model.feature_range_[:, 2:4]).any()
    for other in (pd.DataFrame(X, columns=[f"g{k}" for k in range(6)]), X.tolist()):
        twin = SetCoveringStumps().fit(other, y, sample_weight=weight)
        assert stumps_of(twin) == stumps_of(model)
        np.testing.assert_array_equal(twin.feature_range_, model.feature_range_)
    given = SetCoveringStumps(feature_range=(-1e4, 1e4)).fit(X, y, sample_weight=weight)
    assert given.feature_range_.shape == (2, 6) and np.all(given.feature_range_[0] == -1e4)
