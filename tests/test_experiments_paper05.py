"""Paper 05's protocol: machine-independent pieces, sample-independent priors, matched sparsity, claims."""

import numpy as np
from sklearn.svm import SVC

from companion.experiments.paper05._protocol import linear_svm_importance, welch_t_ranking


def _welch_t(X, y):
    classes = np.unique(y)
    a, b = X[y == classes[0]], X[y == classes[1]]
    var = a.var(axis=0, ddof=1) / len(a) + b.var(axis=0, ddof=1) / len(b)
    return np.abs(a.mean(axis=0) - b.mean(axis=0)) / np.sqrt(np.where(var > 0, var, np.inf))


def test_welch_ranking_keeps_lower_index_among_duplicated_genes(rng):
    """Duplicated probes have equal |t|; the kept gene at the cut is the lower index, as a naive
    sort by (-|t|, index) says (argpartition's choice depended on the CPU's sorting kernel)."""
    base = rng.standard_normal((30, 8))
    X = np.hstack([base, base[:, ::-1], base])  # every gene three times
    y = np.repeat([0, 1], 15)
    t = _welch_t(X, y)
    for n_keep in range(1, X.shape[1] + 1):
        naive = sorted(range(X.shape[1]), key=lambda j: (-t[j], j))[:n_keep]
        assert welch_t_ranking(X, y, n_keep).tolist() == sorted(naive)


def test_linear_svm_importance_is_coef_squared_and_equal_for_identical_genes(rng):
    base = rng.standard_normal((40, 6))
    X = np.hstack([base, base[:, :2]])  # genes 6, 7 duplicate genes 0, 1
    y = (base[:, 0] + base[:, 1] + 0.3 * rng.standard_normal(40) > 0).astype(int)
    svm = SVC(kernel="linear", C=1.0).fit(X, y)
    importance = linear_svm_importance(svm)
    np.testing.assert_allclose(importance, svm.coef_[0] ** 2, rtol=1e-10, atol=1e-14)
    assert importance[0] == importance[6] and importance[1] == importance[7]


# ------------------------------------------------------------------------------------------
# priors independent of the training sample
# ------------------------------------------------------------------------------------------

import math
import warnings
from dataclasses import FrozenInstanceError, replace
from functools import partial
from pathlib import Path

import pandas as pd
import pytest
from scipy import stats
from sklearn.tree import DecisionTreeClassifier

from companion import claims as C
from companion.evaluation import stratified_folds
from companion.experiments import paper05
from companion.experiments.paper05 import _claims, _protocol, _tables, _variants
from companion.experiments.protocol import check_tidy
from companion.stumps import fit_by_bound
from companion.experiments._paper05_peers import NSC_THRESHOLDS
from companion.experiments.paper05._claims import _claims_data, _occam_gene, _paired
from companion.experiments.paper05._protocol import (
    COMPETITORS, DATASETS, MATCHED_COMPETITORS, PRIORS, RESULT_COLUMNS, _choose,
    _competitor_rows, _fit_grid, _fold_rows, _l1_path_order, _rfe_runs, _selected_competitors,
    prior_feature_range, stump_template,
)
from companion.experiments.paper05._variants import VARIANT_NAMES, seed_configs

ROOT = Path(__file__).resolve().parents[1]


def test_declared_range_is_the_same_whatever_training_fold_is_given():
    X, y, _ = _protocol.load_dataset("colon")
    ranges = {tuple(_protocol.declared_feature_range("colon", X[train]))
              for train, _ in stratified_folds(y, n_splits=5, seed=1)}
    assert len(ranges) == 1
    # a fold whose values were different (halved) gets the same range: it is not read from them
    assert tuple(_protocol.declared_feature_range("colon", X[:10] / 2)) in ranges
    full = prior_feature_range("colon", X[:10], "declared")
    assert full.shape == (2, X.shape[1]) and np.all(full == np.asarray(next(iter(ranges)))[:, None])


@pytest.mark.parametrize("name", list(DATASETS))
def test_every_published_value_lies_in_its_declared_range(name):
    X, _, _ = _protocol.load_dataset(name)
    low, high = _protocol.declared_feature_range(name)
    assert low <= X.min() and X.max() <= high


def test_declared_range_rejects_values_outside_it_and_unknown_sets():
    with pytest.raises(ValueError, match="outside its declared range"):
        _protocol.declared_feature_range("all_bioc", np.array([[1.0, 17.0]]))
    with pytest.raises(ValueError, match="no declared range"):
        _protocol.declared_feature_range("b_md")


def test_sample_dependent_prior_variants(rng):
    X = rng.normal(size=(12, 5))
    np.testing.assert_array_equal(prior_feature_range("breast_er", X, "per_gene"),
                                  np.vstack([X.min(axis=0), X.max(axis=0)]))
    glob = prior_feature_range("breast_er", X, "global")
    assert np.all(glob[0] == X.min()) and np.all(glob[1] == X.max())
    with pytest.raises(ValueError, match="prior must be one of"):
        prior_feature_range("breast_er", X, "training")
    with pytest.raises(ValueError, match="2-D"):
        prior_feature_range("breast_er", X[0])


def test_wide_declared_range_is_another_constant_of_the_data_s_definition(rng):
    X = rng.normal(size=(12, 5))
    wide = prior_feature_range("colon", X, "declared_wide")
    assert np.all(wide[0] == -(2.0**20)) and np.all(wide[1] == 2.0**20)
    assert np.array_equal(prior_feature_range("colon", 7 * X, "declared_wide"), wide)  # no value moves it
    # the two sets whose range follows from their scale keep it
    np.testing.assert_array_equal(prior_feature_range("all_bioc", X + 5, "declared_wide"),
                                  prior_feature_range("all_bioc", X + 5, "declared"))
    with pytest.raises(ValueError, match="outside its wide declared range"):
        prior_feature_range("colon", np.array([[0.0, 2.0**21]]), "declared_wide")


def test_a_k_row_that_repeats_the_row_below_says_so():
    from companion.experiments.paper05._prose import _same_as

    index = pd.MultiIndex.from_product([[0], range(4)], names=["repeat", "fold"])
    rates = pd.DataFrame({"stumps k=1": [0.1, 0.2, 0.0, 0.1], "competitor k=1": [0.1, 0.1, 0.0, 0.2],
                          "stumps k=2": [0.1, 0.2, 0.0, 0.1], "competitor k=2": [0.1, 0.1, 0.0, 0.2]}, index=index)
    assert "those of k1-all_bioc on every fold" in _same_as(rates, "all_bioc", 2, 1.0, np.ones(4))
    assert _same_as(rates, "all_bioc", 1, 1.0, np.ones(4)) == ""
    rates["competitor k=2"] = [0.0, 0.1, 0.0, 0.2]  # another comparison at k = 2
    assert _same_as(rates, "all_bioc", 2, 1.5, np.array([2, 2, 1, 1])) == ""  # k genes on half the folds: a test
    assert "not a comparison at matched sparsity" in _same_as(rates, "all_bioc", 2, 1.2, np.array([2, 1, 1, 1]))
    assert "not a comparison at matched sparsity" in _same_as(rates, "all_bioc", 2, 1.0, np.ones(4))


# ------------------------------------------------------------------------------------------
# selection by the bound, at any length and at k stumps
# ------------------------------------------------------------------------------------------


def _toy(rng, m=40, n=30):
    X = rng.normal(size=(m, n))
    y = np.where(X[:, 17] + 0.8 * X[:, 4] + 0.3 * rng.normal(size=m) > 0.1, "b", "a")
    return X, y, np.array([f"gene{j}" for j in range(n)])


@pytest.mark.parametrize("variant", _protocol.STUMP_VARIANTS)
def test_choose_is_fit_by_bound_and_k_gives_k_stumps(rng, variant):
    X, y, _ = _toy(rng, m=80)
    y = np.where(rng.random(80) < 0.25, np.where(y == "a", "b", "a"), y)  # label noise: long greedy paths
    config = paper05.Config(s_max=4)
    template = stump_template(variant, config, 1000).set_params(feature_range=np.array([-10.0, 10.0]))
    grid = config.grid(variant)
    models = _fit_grid(template, X, y, grid)
    chosen, reference = _choose(models), fit_by_bound(template, X, y, grid)
    assert chosen.features_.tolist() == reference.features_.tolist()
    assert chosen.model_type == reference.model_type and chosen.bound_ == pytest.approx(reference.bound_)
    assert np.array_equal(chosen.predict(X), reference.predict(X))
    shortest = min(m.features_.size for m in models)
    assert shortest >= 3  # the toy's paths are long enough for every k below (full greedy paths)
    for k in (1, 2, 3):
        model = _choose(models, k)
        assert model.features_.size == k
        # the k-stump model is the grid point whose k-prefix bound is smallest
        bounds = [m._model_selection_path()[k] for m in models]
        assert model._model_selection_path()[-1] == pytest.approx(min(bounds))


def test_matched_competitors_use_k_genes_and_one_boosting_round_is_one_stump(rng):
    X, y, _ = _toy(rng, m=60, n=40)
    config = paper05.Config(n_prefilter=20, adaboost_rounds=5, rfe_genes=6)
    train, test = np.arange(45), np.arange(45, 60)
    keep = welch_t_ranking(X[train], y[train], config.n_prefilter)
    rows, nsc_errors = _competitor_rows(X[train], y[train], X[test], y[test], keep, config, 0)
    table = pd.DataFrame(rows).set_index(["learner", "k"])
    assert ("nsc", 0) not in table.index and nsc_errors.shape == (len(NSC_THRESHOLDS),)
    for k in config.matched_k:
        assert table.loc[("l1_logistic", k), "genes"] == k
        assert table.loc[("svm_rfe", k), "genes"] == k
        assert table.loc[("bahsic", k), "genes"] == k
        assert 1 <= table.loc[("adaboost_stumps", k), "genes"] <= k
    assert table.loc[("linear_svm", 0), "genes"] == X.shape[1] and table.loc[("svm_rfe", 0), "genes"] == 6
    assert table.loc[("bahsic", 0), "genes"] == 6
    stump = DecisionTreeClassifier(max_depth=1).fit(X[train][:, keep], y[train])
    assert table.loc[("adaboost_stumps", 1), "errors"] == int(np.sum(stump.predict(X[test][:, keep]) != y[test]))


@pytest.mark.parametrize("step", [0.5, 0.3, 7, 1])
def test_shared_rfe_runs_are_scikit_learns_rfe_runs(rng, step):
    """:func:`paper05._rfe_runs` (one elimination path, fits shared between the runs to each k)
    gives every run the support, ranking's survivors and final model of its own sklearn ``RFE``
    fit: duplicated genes (equal importances, the stable ranking's ties) included."""
    from sklearn.feature_selection import RFE

    for trial in range(3):
        base = rng.standard_normal((36, 14))
        Z = np.hstack([base, base[:, :5], base[:, 3:9]])  # 25 genes, 11 duplicated
        y = (base[:, 0] - base[:, 3] + base[:, 7] + 0.5 * rng.standard_normal(36) > 0).astype(int)
        test = rng.standard_normal((20, Z.shape[1]))
        ks = (16, 12, 1, 2, 3, 25, 30)  # 25: nothing to drop; 30 > genes: sklearn keeps every gene
        runs = _rfe_runs(SVC(kernel="linear", C=1.0), Z, y, ks, step, linear_svm_importance)
        for k in ks:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)  # k > genes
                ref = RFE(SVC(kernel="linear", C=1.0), n_features_to_select=k, step=step,
                          importance_getter=linear_svm_importance).fit(Z, y)
            support, model = runs[k]
            assert np.array_equal(support, ref.support_), (trial, k)
            assert np.array_equal(model.predict(test[:, support]), ref.predict(test))
            assert np.array_equal(model.dual_coef_, ref.estimator_.dual_coef_)
            assert np.array_equal(model.support_, ref.estimator_.support_)


def test_adaboost_prediction_is_its_last_staged_prediction(rng):
    """Two classes: ``predict`` is the last ``staged_predict`` (what ``_competitor_rows`` reads)."""
    from sklearn.ensemble import AdaBoostClassifier

    cube = np.array([[a, b] for a in (0, 1) for b in (0, 1)], dtype=float)
    for trial in range(6):
        X = rng.integers(0, 3, size=(50, 6)).astype(float)  # few values: equal stumps and votes
        y = rng.choice(["a", "b"], size=50)
        boost = AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=12, random_state=trial).fit(X, y)
        for Xq in (X, rng.integers(0, 3, size=(40, 6)).astype(float)):
            assert np.array_equal(boost.predict(Xq), list(boost.staged_predict(Xq))[-1])
    # A tied vote (a decision of exactly 0) on corners of the square: both read it as the first class.
    small = np.random.default_rng(3)
    X, y = small.integers(0, 2, size=(8, 2)).astype(float), small.choice(["a", "b"], size=8)
    boost = AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=4, random_state=0).fit(X, y)
    tied = boost.decision_function(cube) == 0
    assert tied.any()
    assert np.array_equal(boost.predict(cube), list(boost.staged_predict(cube))[-1])
    assert np.all(boost.predict(cube)[tied] == boost.classes_[0])


def test_l1_path_order_returns_distinct_genes_entering_first(rng):
    X, y, _ = _toy(rng, m=80, n=30)
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    order = _l1_path_order(Z, y, 3, seed=0)
    assert len(order) == len(set(order)) == 3
    assert order[0] == 17  # the strongest gene enters the path first


# ------------------------------------------------------------------------------------------
# corrected intervals and the claims
# ------------------------------------------------------------------------------------------


def test_fold_differences_go_to_the_engine_s_corrected_t_with_their_fold_sizes(rng):
    # a data set's k-rows are decided by the engine's corrected resampled t on its fold differences:
    # one group, every fold's n_test / n_train (Nadeau & Bengio's (1/J + n_test/n_train) s^2)
    d = rng.normal(2.0, 4.0, size=50)
    rates = pd.DataFrame({"a": d + 10.0, "b": np.full(50, 10.0)})
    data = {"rates": {"colon": rates}, "sizes": {"colon": pd.Series({"n_train": 56.0, "n_test": 6.0})}}
    values = _paired(data, "colon", "a", "b")
    assert _paired(data, "prostate", "a", "b") is None and _paired(data, "colon", "a", "c") is None
    report = C.evaluate([C.difference("x", "x", values, direction="<=", margin=5.0, test="corrected_t")], {"main": None})
    row = report.table.iloc[0]
    se = np.sqrt((1 / 50 + 6 / 56) * d.var(ddof=1))
    assert row["estimate"] == pytest.approx(d.mean())
    assert row["ci_high"] - row["estimate"] == pytest.approx(stats.t.ppf(0.975, 49) * se)
    assert row["p_raw"] == pytest.approx(stats.t.cdf((d.mean() - 5.0) / se, 49))


@pytest.fixture(scope="module")
def small_run():
    config = replace(paper05.Config.fast(), datasets=("leukemia_golub",), n_prefilter=20, s_max=2, n_repeats=2)
    return config, paper05.run(config)


def _naive_summary_table(results):
    """The summary as pandas computes it group by group (the reference of _tables.summary_table)."""
    rows = []
    for (name, method), g in results.groupby(["dataset", "method"], sort=False):
        per_repeat = 100.0 * g.groupby("repeat")["errors"].sum() / g.groupby("repeat")["n_test"].sum()
        first = g.iloc[0]
        rows.append({
            "dataset": name, "method": method, "learner": first["learner"], "k": int(first["k"]),
            "prior": first["prior"], "cv_error_%": 100.0 * g["errors"].sum() / g["n_test"].sum(),
            "sd over repeats": float(per_repeat.std(ddof=1)) if per_repeat.size > 1 else np.nan,
            "genes": float(g["genes"].mean()),
            "bound_%": 100.0 * g["bound"].mean() if g["bound"].notna().any() else np.nan,
            "bound_pairing_%": 100.0 * g["bound_pairing"].mean()
            if "bound_pairing" in g and g["bound_pairing"].notna().any() else np.nan,
            "gibbs_error_%": 100.0 * g["gibbs_errors"].sum() / g["n_test"].sum()
            if g["gibbs_errors"].notna().any() else np.nan,
            "gibbs_bound_%": 100.0 * g["gibbs_bound"].mean() if g["gibbs_bound"].notna().any() else np.nan,
        })
    return pd.DataFrame(rows)


def _random_results(rng, n_rows):
    """A frame with run()'s summary columns: a few data sets and methods, repeats in any order,
    floats with missing cells, groups of one row and of one repeat among them."""
    def floats():
        values = rng.random(n_rows) * rng.choice([1e-3, 1.0, 1e3])
        values[rng.random(n_rows) < rng.choice([0.0, 0.3, 1.0])] = np.nan
        return values
    return pd.DataFrame({
        "dataset": rng.choice(["a", "b", "c"], n_rows), "method": rng.choice(["sc", "occam", "k=1", "x"], n_rows),
        "repeat": rng.integers(0, rng.integers(1, 5), n_rows), "n_train": rng.integers(20, 90, n_rows),
        "n_test": rng.integers(1, 30, n_rows), "learner": rng.choice(["sc", "occam"], n_rows),
        "k": rng.integers(0, 4, n_rows), "prior": rng.choice(["-", "declared"], n_rows),
        "errors": rng.integers(0, 12, n_rows), "genes": rng.integers(0, 9, n_rows), "bound": floats(),
        "bound_pairing": floats(), "gibbs_errors": np.floor(floats() * 7), "gibbs_bound": floats(),
    })


def test_summary_table_gives_pandas_numbers_to_the_last_bit(small_run, rng):
    """The summary over numpy arrays (one pass per group) equals pandas' group-by-group Series
    sums, means and standard deviations exactly, on a run and on random frames (missing cells,
    one-row groups, unordered repeats)."""
    frames = [small_run[1], small_run[1].sample(frac=1.0, random_state=0)]
    frames += [_random_results(rng, int(rng.integers(1, 300))) for _ in range(40)]
    frames.append(_random_results(rng, 50).drop(columns="bound_pairing"))
    for frame in frames:
        expected, got = _naive_summary_table(frame), _tables.summary_table(frame)
        pd.testing.assert_frame_equal(got, expected, check_exact=True)
        for column in expected.columns:  # every float equal, NaN where NaN
            a, b = expected[column].to_numpy(), got[column].to_numpy()
            assert all(x == y or (x != x and y != y) for x, y in zip(a, b)), column


def test_run_is_tidy_with_every_method_on_every_fold(small_run):
    config, results = small_run
    check_tidy(results)
    assert list(results.columns[:4]) == ["dataset", "method", "seed", "fold"]
    assert list(results.columns[4:]) == RESULT_COLUMNS
    assert (results["seed"] == config.seed + results["repeat"]).all()
    per_method = results.groupby("method").size()
    assert (per_method == config.n_repeats * config.n_splits).all()
    expected = {f"{v}{f' k={k}' if k else ''}" for v in _protocol.STUMP_VARIANTS for k in (0, *config.matched_k)}
    expected |= {f"{v}{f' k={k}' if k else ''} [{p}]" for v in ("occam", "pac_bayes") for k in (0, *config.matched_k)
                 for p in PRIORS[1:]}
    expected |= set(COMPETITORS) | {f"{c} k={k}" for c in MATCHED_COMPETITORS for k in config.matched_k}
    expected |= {f"{side}{f' k={k}' if k else ''}" for side in ("stumps", "competitor") for k in (0, *config.matched_k)}
    expected |= {f"stumps{f' k={k}' if k else ''} [{p}]" for k in (0, *config.matched_k) for p in PRIORS[1:]}
    assert set(per_method.index) == expected
    stumps = results[results["learner"].isin(_protocol.STUMP_VARIANTS) & (results["k"] > 0)]
    assert (stumps["genes"] <= stumps["k"]).all()


def test_competitor_variants_rerun_only_the_matched_competitors(small_run):
    config, results = small_run
    key = ["dataset", "method", "seed", "fold"]
    main = {"competitors=main": _protocol.COMPETITOR_SETTINGS}
    broken = {"competitors=C 1e-4": {**_protocol.COMPETITOR_SETTINGS, "svm_c": 1e-4, "refit_c": 1e-4}}  # no longer the protocol's competitors
    frames = _variants.run_competitor_variants(config, results, variants={**main, **broken})
    # at the protocol's settings the rerun (inner choice included) is the main run, row for row
    pd.testing.assert_frame_equal(frames["competitors=main"].sort_values(key).reset_index(drop=True),
                                  results.sort_values(key).reset_index(drop=True))
    other = frames["competitors=C 1e-4"].sort_values(key).reset_index(drop=True)
    with pytest.raises(AssertionError):
        pd.testing.assert_frame_equal(other, results.sort_values(key).reset_index(drop=True))
    # only the matched competitors' rows (k ≥ 1) move
    moved = other.merge(results, on=key, suffixes=("", "_main"))
    moved = moved[moved["errors"] != moved["errors_main"]]
    assert len(moved) and (moved["k"] > 0).all()
    assert set(moved["learner"]) <= {"l1_logistic", "svm_rfe", "bahsic", "competitor"}
    assert set(_variants.COMPETITOR_VARIANTS) == {
        f"competitors={name}" for name in ("SVM C 0.1 (SVM-RFE, BAHSIC)", "SVM C 10 (SVM-RFE, BAHSIC)",
                                           "L1 refit C 0.1", "L1 refit C 10",
                                           "AdaBoost tie order (genes reversed)")}


def test_adaboost_tie_order_variant_moves_only_adaboost_and_breaks_ties_the_other_way(small_run):
    config, results = small_run
    key = ["dataset", "method", "seed", "fold"]
    name = "competitors=AdaBoost tie order (genes reversed)"
    frame = _variants.run_competitor_variants(config, results, variants={name: _variants.COMPETITOR_VARIANTS[name]})[name]
    moved = frame.merge(results, on=key, suffixes=("", "_main"))
    moved = moved[(moved["errors"] != moved["errors_main"]) | (moved["genes"] != moved["genes_main"])]
    assert set(moved["learner"]) <= {"adaboost_stumps", "competitor"}
    # Two genes that split the training examples alike (a tie at every weight) but the test
    # examples apart: the protocol's order and the reversed one take different genes.
    y_tr = np.array([0, 0, 0, 1, 1, 1])
    X_tr = np.column_stack([y_tr, y_tr]).astype(float)
    X_te = np.array([[0.0, 1.0], [1.0, 0.0]])
    y_te = np.array([0, 1])
    one = replace(config, matched_k=(1,))
    settings = {order: {**_protocol.COMPETITOR_SETTINGS, "boost_order": order} for order in ("given", "reversed")}
    rows = _protocol._matched_competitor_rows(X_tr, y_tr, X_te, y_te, np.arange(2), one, 0, settings)
    errors = {order: next(r["errors"] for r in rows[order] if r["learner"] == "adaboost_stumps") for order in settings}
    assert sorted(errors.values()) == [0, 2]


def test_adaboost_tie_order_effect_counts_the_fits_and_rows_the_variant_moves(small_run):
    config, results = small_run
    name = _variants.TIE_ORDER_VARIANT
    frame = _variants.run_competitor_variants(config, results, variants={name: _variants.COMPETITOR_VARIANTS[name]})[name]
    effect = _variants.adaboost_tie_order_effect(config, results, frame)
    outer = config.n_repeats * config.n_splits * len(config.datasets)
    assert effect["outer"] == outer * len(config.matched_k)
    assert effect["fits"] == effect["outer"] * (1 + config.inner_splits)
    assert 0 <= effect["outer_moved"] <= effect["fits_moved"] <= effect["fits"]
    assert effect["rows"] == effect["chosen"] == outer * len(config.matched_k)
    assert effect["rows_moved"] <= effect["rows"] and effect["predictions_moved"] <= effect["predictions"]
    if effect["rows_moved"]:  # a changed test error needs a changed prediction, which needs a changed fit
        assert effect["predictions_moved"] and effect["outer_moved"]
    # against itself, the protocol's order moves nothing
    same = _variants.adaboost_tie_order_effect(config, results, results)
    assert same["rows_moved"] == same["chosen_moved"] == 0
    text = paper05._prose.render(paper05._prose.TEMPLATES["tie_order"], **effect).data
    assert f"in {effect['fits_moved']} of its {effect['fits']} fits" in text


def test_inner_cv_variant_picks_a_learner_row_without_reading_the_outer_test_fold(small_run):
    config, results = small_run
    frame = _variants.inner_cv_variant(config, results)[_variants.INNER_CV_RULE]
    key = ["dataset", "repeat", "fold", "k"]
    stumps = frame[(frame["learner"] == "stumps") & (frame["prior"] == PRIORS[0])]
    assert len(stumps) == len(results[(results["learner"] == "stumps") & (results["prior"] == PRIORS[0])])
    learners = results[results["learner"].isin(_protocol.STUMP_VARIANTS) & (results["prior"] == PRIORS[0])]
    joined = stumps.merge(learners, left_on=[*key, "chosen"], right_on=[*key, "learner"], suffixes=("", "_learner"))
    assert len(joined) == len(stumps)
    assert (joined["errors"] == joined["errors_learner"]).all() and (joined["genes"] == joined["genes_learner"]).all()
    # every other row is the main run's
    rest = frame[~((frame["learner"] == "stumps") & (frame["prior"] == PRIORS[0]))]
    assert len(rest) + len(stumps) == len(results)
    # the choice reads the training fold only: flipping the outer test labels changes the outer
    # errors of the learners (broken input for a choice that would read them) but not the choice
    name = config.datasets[0]
    X, y, names = _protocol.load_dataset(name)
    train, test = next(iter(stratified_folds(y, n_splits=config.n_splits, seed=config.seed)))
    flipped = y.copy()
    flipped[test] = np.where(y[test] == y[0], y[y != y[0]][0], y[0])
    item = (name, (0, 0, train, test))
    ranges = {PRIORS[0]: _protocol.prior_feature_range(name, X, PRIORS[0])}
    variant = replace(config, priors=config.priors[:1])
    choose = partial(_variants._inner_cv_choices, config=variant, item=item)
    assert choose({name: (X, y, names, ranges)}) == choose({name: (X, flipped, names, ranges)})
    keep = _protocol.welch_t_ranking(X[train], y[train], config.n_prefilter)
    outer = [_protocol.stump_rows(name, X, X[train], y[train], X[test], labels[test], keep, names, variant, ranges)
             for labels in (y, flipped)]
    assert [r["errors"] for r in outer[0]] != [r["errors"] for r in outer[1]]


def test_claims_read_the_variant_rows_and_the_matched_table(small_run):
    _, results = small_run
    report = _claims.claims_report(results)
    ids = list(report.table["id"])
    assert ids == [e["id"] for e in C.load_registry("05").entries]
    matched = _tables.matched_table(results).set_index(["dataset", "k"])
    row = report.table.set_index("id").loc["k1-leukemia_golub"]
    assert row["estimate"] == pytest.approx(matched.loc[("leukemia_golub", 1), "difference"])
    # a data set not run is n/a, never judged
    assert report.table.set_index("id").loc["k1-colon", "verdict"] == "n/a"
    # the per-gene variant reads the per-gene Occam rows: its Occam-gene share is theirs
    per_gene = results[(results["method"] == "occam [per_gene]")]
    hits = sum("X95735_at" in text.split(";") for text in per_gene["gene_names"])
    data = _claims_data(results, "per_gene", reference="X95735_at")
    assert _occam_gene(data) == (hits, len(per_gene))
    assert set(report.sensitivity["variant"]) == {VARIANT_NAMES[p] for p in PRIORS} | {"margin=2.5", "margin=10"}
    # claims the paper never makes are observations, without a verdict
    table = report.table.set_index("id")
    for id in ("occam-tightest", "occam-gene", "occam-stable", "pac-bayes-vs-sc"):
        assert table.loc[id, "origin"] == "observation" and table.loc[id, "verdict"] in ("observed", "n/a")


def test_verdicts_table_leaves_empty_the_variants_a_row_never_enters(small_run):
    _, results = small_run
    section = paper05.claims_section(results, {}, None)
    per_gene = VARIANT_NAMES["per_gene"]
    assert section.verdicts.loc["k1-leukemia_golub", per_gene] == section.report.sensitivity.set_index(
        ["id", "variant"]).loc[("k1-leukemia_golub", per_gene), "verdict"]
    assert pd.isna(section.verdicts.loc["bayes-gibbs", per_gene])  # its row lists no variant
    assert pd.isna(section.verdicts.loc["coverage-sc", per_gene])  # the simulation never reads a range


def test_the_wide_declared_range_stands_in_the_main_range_s_place(small_run):
    config, results = small_run
    name = "range=declared 20-bit envelope for the raw sets"
    frame = _variants.run_choice_variants(config, results, variants={name: _variants.CHOICE_VARIANTS[name]})[name]
    assert set(frame["prior"]) == {"-", "declared"}
    stumps = frame[frame["learner"].isin(_protocol.STUMP_VARIANTS)]
    main = results[results["learner"].isin(_protocol.STUMP_VARIANTS) & (results["prior"] != "per_gene")
                   & (results["prior"] != "global")]
    assert set(stumps["method"]) == set(main["method"])
    sc = lambda f: f[f["learner"] == "sc"].sort_values(["seed", "fold", "k"])["errors"].to_numpy()  # noqa: E731
    np.testing.assert_array_equal(sc(stumps), sc(main))  # SC's bound reads no range


def test_choices_read_no_test_fold(small_run):
    """The ``stumps`` row is the learner with the smallest training bound; the ``competitor`` row the
    one with the fewest inner-fold errors: changing the outer test labels changes neither choice."""
    config, results = small_run
    stumps = results[results["learner"] == "stumps"]
    for row in stumps.itertuples():
        same = results[(results["dataset"] == row.dataset) & (results["repeat"] == row.repeat)
                       & (results["fold"] == row.fold) & (results["k"] == row.k)
                       & results["learner"].isin(_protocol.STUMP_VARIANTS)
                       & ((results["prior"] == row.prior) | (results["learner"] == "sc"))]
        assert row.bound == pytest.approx(same["bound"].min(), rel=1e-12)
        assert row.errors == int(same.set_index("learner").loc[row.chosen, "errors"])
    X, y, names = _protocol.load_dataset("leukemia_golub")
    train, test = stratified_folds(y, n_splits=3, seed=0)[0]
    keep = welch_t_ranking(X[train], y[train], config.n_prefilter)
    flipped = np.where(y[test] == y[0], y[y != y[0]][0], y[0])
    a = _selected_competitors(X[train], y[train], X[test], y[test], keep, config, 0, inner_seed=5)
    b = _selected_competitors(X[train], y[train], X[test], flipped, keep, config, 0, inner_seed=5)
    chosen = lambda rows: [(r["k"], r["chosen"]) for r in rows if r["learner"] == "competitor"]
    assert chosen(a) == chosen(b) and len(chosen(a)) == 1 + len(config.matched_k)


def test_seed_configs_use_other_folds_and_the_declared_range():
    config = paper05.Config(seed=11, n_repeats=5)
    variants = seed_configs(config)
    assert list(variants) == ["seed=16", "seed=21", "seed=26", "seed=31"]
    seeds = [set(range(c.seed, c.seed + c.n_repeats)) for c in (config, *variants.values())]
    assert all(a.isdisjoint(b) for i, a in enumerate(seeds) for b in seeds[i + 1:])
    assert all(c.priors == ("declared",) for c in variants.values())


def test_gene_frequency_counts_folds(small_run):
    _, results = small_run
    table = _tables.gene_frequency(results)
    occam = results[results["method"] == "occam"]
    counts = pd.Series([g for text in occam["gene_names"] for g in text.split(";") if g]).value_counts()
    got = table[table["learner"] == "occam"].set_index("gene")["folds"]
    assert got.to_dict() == counts.head(len(got)).to_dict()
    assert set(table["of folds"]) == {len(occam)}


def test_config_is_frozen_and_the_registry_loads():
    with pytest.raises(FrozenInstanceError):
        paper05.Config().seed = 1
    entry = DATASETS["all_bioc"]
    assert entry.options == {"lineage": True} and entry.note.startswith("Chiaretti")
    X, y, names = _protocol.load_dataset("colon")
    assert X.shape == (62, 2000) and names.shape == (2000,) and set(y) == {"n", "t"}


def _discussion_inputs(small_run):
    config, results = small_run
    summary = _tables.summary_table(results)
    sweep = pd.DataFrame({"gap": [1, 1, 8, 8], "stumps": [0, 1, 0, 1], "gibbs_risk": [0.6, 0.1, 0.6, 0.1],
                          "gibbs_bound": [0.8, 0.45, 0.8, 0.40], "mean_log_range_ratio": [0.0, 5.0, 0.0, 5.0]})
    tradeoff = pd.DataFrame({"eta": [0.5, 0.5, 1.0, 1.0], "stumps": [0, 1, 0, 1], "code bits": [0, 8, 0, 0],
                             "bits per stump": [0, 8, 0, 0], "training errors": [40, 3, 40, 9],
                             "bound": [0.7, 0.38, 0.7, 0.40]})
    return dict(report=_claims.claims_report(results), summary=summary, matched=_tables.matched_table(results),
                frequency=_tables.gene_frequency(results, top=3), sweep=sweep, tradeoff=tradeoff, folds=results,
                config=config)


def test_discussion_quotes_the_results_it_is_given(small_run):
    inputs = _discussion_inputs(small_run)
    text = paper05.discussion(**inputs).data
    # a wider margin with a smaller bound is reported as giving a smaller bound
    assert "a width wider than the protocol's (1 and 4) gives a smaller bound" in text
    assert "smallest at $\\eta$ = 0.5 (38.0 %: 1 stump, 8 code bits, 3 training errors)" in text
    assert "at the protocol's $\\eta$ = 1 it is 40.0 %" in text
    report = inputs["report"]
    identical = list(report.table.loc[report.table["verdict"] == "identical", "id"])
    assert ("**Identical sides.** No matched-sparsity" in text) == (not identical)
    for id in report.table.loc[report.table["verdict"] != "n/a", "id"]:
        if report.table.set_index("id").loc[id, "discussion"]:
            assert f"**{id}.**" in text
    assert "**k1-colon.**" not in text  # not run: no discussion


def test_discussion_follows_a_changed_verdict(small_run):
    inputs = _discussion_inputs(small_run)
    report = inputs["report"]
    report.table.loc[report.table["id"] == "k1-leukemia_golub", "verdict"] = "identical"
    text = paper05.discussion(**inputs).data
    assert "k1-leukemia_golub" in text.split("**Identical sides.**")[1].split("\n")[0]


def test_matched_rule_states_the_level_and_the_not_robust_undecided_rows(small_run):
    from companion.experiments.paper05._prose import _matched_rule

    report = _discussion_inputs(small_run)["report"]
    table = report.table
    rows = table["id"].str.match(r"k\d-") & (table["origin"] == "check")
    assert rows.sum() >= 2
    ids = list(table.loc[rows, "id"])
    table.loc[rows, "verdict"] = "undecided"
    table.loc[rows, "robust"] = True
    table.loc[table["id"] == ids[0], "robust"] = False
    text = _matched_rule(report).data
    assert f"{len(ids)} undecided, 1 of them not robust ({ids[0]})" in text
    assert "one-sided corrected t at α = 0.025 after Holm" in text and "two-sided 95 % interval" in text
    # a changed robustness changes the count (the sentence is not fixed text)
    table.loc[rows, "robust"] = False
    text = _matched_rule(report).data
    assert f"{len(ids)} undecided, {len(ids)} of them not robust" in text
    assert f"{len(ids)} undecided, 1 of them not robust" not in text


def test_bahsic_matches_a_naive_elimination(rng):
    from tests._naive import naive_bahsic_order

    from companion.experiments._paper05_peers import bahsic_order

    for trial in range(4):
        Z = rng.normal(size=(24, 12))
        y = rng.integers(0, 2, size=24)
        Z[y == 1, :3] += 1.0
        assert bahsic_order(Z, y).tolist() == naive_bahsic_order(Z, y)


def test_nsc_path_is_scikit_learns_nearest_centroid(rng):
    from sklearn.neighbors import NearestCentroid

    from companion.experiments._paper05_peers import NSC_THRESHOLDS, nsc_path

    for trial in range(6):
        m = 40 if trial % 2 else 41  # balanced and unbalanced classes: scikit-learn scores them differently
        X = rng.normal(size=(m, 25))
        y = np.where(np.arange(m) < 20, "a", "b")
        X[y == "a", :3] += 1.5
        X_test = rng.normal(size=(30, 25))
        predictions, genes = nsc_path(X, y, X_test)
        for i, t in enumerate(NSC_THRESHOLDS):
            reference = NearestCentroid(shrink_threshold=t or None, priors="empirical").fit(X, y)
            assert np.array_equal(predictions[i], reference.predict(X_test)), (trial, t)
            centroids = reference.centroids_
            assert genes[i] == np.count_nonzero(np.any(centroids != centroids[:1], axis=0))
        assert genes[0] == 25 and genes[-1] <= genes[0]


def test_folds_give_the_same_rows_with_and_without_scikit_learns_repeated_checks(monkeypatch):
    """``_fold_rows`` runs its fits in ``companion.experiments._trusted.trusted_inputs``: same rows as fully checked."""
    import contextlib

    config = replace(paper05.Config.fast(), datasets=("colon",), n_prefilter=20, s_max=2)
    loaded = {"colon": _protocol.load_dataset("colon")}
    train, test = stratified_folds(loaded["colon"][1], n_splits=3, seed=0)[0]
    item = ("colon", (0, 0, train, test))
    trusted = _fold_rows(loaded, config, 0, item)
    monkeypatch.setattr("companion.experiments.paper05._protocol.trusted_inputs", contextlib.nullcontext)
    assert _fold_rows(loaded, config, 0, item) == trusted


def test_the_sections_show_what_their_builders_give(small_run):
    """Each section of the notebook is one call composing the private builders: its frame is
    :func:`run`'s and its tables are the builders' on it, unchanged."""
    config, results = small_run
    main = paper05.results_section(config)
    pd.testing.assert_frame_equal(main.results, results)
    pd.testing.assert_frame_equal(main.summary, _tables.summary_table(results))
    pd.testing.assert_frame_equal(main.matched, _tables.matched_table(results))
    pd.testing.assert_frame_equal(main.frequency, _tables.gene_frequency(results, top=3))
    assert set(main.seeds.columns) == {"main", *main.seed_results}
    assert main.cv_error.columns.tolist() == list(config.datasets)
    ranges = paper05.feature_range_table(["leukemia_golub"])
    X, _, _ = _protocol.load_dataset("leukemia_golub")
    np.testing.assert_array_equal(ranges.loc["leukemia_golub", ["declared A", "declared B"]].to_numpy(dtype=float),
                                  _protocol.declared_feature_range("leukemia_golub", X))


# --------------------------------------------------------------------------------------------
# The checks the notebook runs (math_* rows), the coverage test, the per-learner table
# --------------------------------------------------------------------------------------------

from companion.experiments.paper05 import _coverage, _math_checks  # noqa: E402


def _broken_inversion(k, m, delta):
    from companion.bounds.binomial import binomial_tail_inversion

    return 0.9 * binomial_tail_inversion(k, m, delta)


def _broken_learner(**params):
    from companion.stumps import SetCoveringStumps

    class Shifted(SetCoveringStumps):
        def fit(self, X, y):
            super().fit(X, y)
            self.thresholds_ = self.thresholds_ + 1e-3  # no longer the compression examples' values
            self.features_ = self.features_[::-1].copy() if self.features_.size > 1 else self.features_
            return self

    return Shifted(**params)


def _no_disjunction(**params):
    from companion.stumps import SetCoveringStumps

    return SetCoveringStumps(**{**params, "model_type": "conjunction"})  # ignores the disjunction asked for


def _kl_without_margins(n, ratios, **kw):
    from companion.bounds.pac_bayes import pac_bayes_kl

    return pac_bayes_kl(n, [1.0] * len(ratios))


BROKEN = {
    "math_test_set_bound": {"inversion": _broken_inversion},
    "math_occam_tighter_than_blumer": {"bound": lambda k, m, n, lengths, delta: 2.0},
    "math_occam_subprior": {"log_prior": lambda n, lengths: 0.0},
    "math_occam_codes_sum_to_one": {"zeta_fn": lambda l: 1.0 / (l + 1.0) ** 2},
    "math_occam_code_length": {"code": lambda a, b, low, high: (60, (a + b) / 2 + (b - a))},
    "math_occam_linear_in_l": {"cost": lambda l: np.asarray(l, dtype=float) * 0.5},
    "math_occam_code_tradeoff": {"bound": lambda e, m, n, lengths: 0.1 + 0.01 * len(lengths)},
    "math_compression_set": {"learner": _broken_learner},
    "math_bayes_gibbs": {"gibbs": lambda X, y, f, a, b, d: 0.0},
    "math_kl_continuous_vanishes": {"kl": lambda n, ratios: 1.0 + len(ratios)},
    "math_kl_discrete_small": {"kl": lambda n, ratios: -float(len(ratios))},
    "math_margin_sparsity_tradeoff": {"kl": _kl_without_margins},
    "math_gibbs_closed_form": {"gibbs": lambda X, y, f, a, b, d: 0.5},
    "math_gibbs_deterministic_limit": {"gibbs": lambda X, y, f, a, b, d: 0.5},
    "math_disjunction_by_label_swap": {"learners": {"sc": _no_disjunction}},
    "math_sc_greedy": {"learner": lambda **p: _broken_learner(**p)},
    "math_sc_message_pairing": {"log_message": lambda n, size, pairing=False: _log_message(n, size)},
    "math_pac_bayes_prior_normalised": {"kl": lambda n, ratios: _kl_without_zeta(n, ratios)},
    "math_occam_subprior_union": {"inversion": _broken_inversion},
    # the free reading fails on the code; paying ln|k|! (the pairing) makes it hold
    "math_sc_eq5_free_pairing": {"log_message": lambda n, size: _log_message_paired(n, size)},
    "math_sc_eq5_canonical_pairing": {"log_message": lambda n, size: 0.0},  # every message of probability 1
    "math_zeta_decreases_slowly": {"cost": lambda l: (2 * np.asarray(l, dtype=float) + 1) * np.log(2)},  # geometric
    "math_bayes_vote_not_midpoint": {"bayes": lambda X, f, a, b, d: np.zeros(len(X), dtype=int)},
}

#: What each check returns on the package's code (the free-pairing reading of Eq. 5 fails).
EXPECTED = {"math_sc_eq5_free_pairing": False}


def _log_message_paired(n, size):
    from companion.bounds.compression import compression_log_message

    return compression_log_message(n, size, pairing=True)


def _log_message(n, size):
    from companion.bounds.compression import compression_log_message

    return compression_log_message(n, size, pairing=False)  # never pays ln|k|!


def _kl_without_zeta(n, ratios):
    from companion.bounds.pac_bayes import pac_bayes_kl
    from companion.bounds.occam import log_zeta

    return pac_bayes_kl(n, ratios) + float(log_zeta(len(ratios)))  # p(|k|) = 1 for every |k|: sums to n + 1


def test_sc_message_pairing_check_needs_the_pairing_term():
    ok, detail = _math_checks.check_sc_message_pairing(np.random.default_rng(0))
    assert ok, detail
    assert "denotes up to 6 different conjunctions" in detail and "6.0000 without it" in detail  # |k| = 3: 3!
    broken, detail = _math_checks.check_sc_message_pairing(np.random.default_rng(0), **BROKEN["math_sc_message_pairing"])
    assert not broken, detail


def test_eq5_readings_free_fails_canonical_holds():
    ok, detail = _math_checks.check_sc_eq5_free_pairing(np.random.default_rng(0))
    assert not ok and "reach 6.0000" in detail, detail  # |k| = 3: one message denotes 3! conjunctions
    ok, detail = _math_checks.check_sc_eq5_canonical_pairing(np.random.default_rng(0))
    assert ok and "the sum reaches 1.0000" in detail, detail
    # paying ln|k|! makes the free reading valid; probability 1 per message breaks the canonical one
    assert _math_checks.check_sc_eq5_free_pairing(np.random.default_rng(0), **BROKEN["math_sc_eq5_free_pairing"])[0]
    assert not _math_checks.check_sc_eq5_canonical_pairing(
        np.random.default_rng(0), **BROKEN["math_sc_eq5_canonical_pairing"])[0]


def _eq5_counts(checks):
    """(compression sets of each of the three Eq. 5 rows, the free row's pairs, the canonical row's denominator)."""
    import re

    sets = [int(re.search(r"(\d+) compression sets", checks[k][1]).group(1)) for k in _math_checks.EQ5_CHECKS]
    free = int(re.search(r"pairing: (\d+) \(compression set", checks["math_sc_eq5_free_pairing"][1]).group(1))
    denominator = int(re.search(r"of the (\d+) \(compression set", checks["math_sc_eq5_canonical_pairing"][1]).group(1))
    return sets, free, denominator


def test_eq5_rows_read_one_enumeration():
    # the notebook's run: the three rows count the same compression sets, and the free row's pairs
    # are the canonical row's denominator
    checks = _math_checks.run_math_checks(np.random.default_rng(0))
    sets, free, denominator = _eq5_counts(checks)
    assert len(set(sets)) == 1 and free == denominator
    assert not checks["math_sc_eq5_free_pairing"][0] and checks["math_sc_eq5_canonical_pairing"][0]
    # broken: each row draws its own samples from the generator (as before) and the counts part
    rng = np.random.default_rng(0)
    apart = {k: _math_checks.CHECKS[k](rng) for k in _math_checks.EQ5_CHECKS}
    _, free, denominator = _eq5_counts(apart)
    assert free != denominator


def test_eq5_enumeration_matches_a_loop_over_pairings():
    # the enumeration's free count against the plain loop over every (message, pairing) it replaced
    import itertools

    e = _math_checks.eq5_enumeration(np.random.default_rng(3))
    rng = np.random.default_rng(3)
    i = 0
    for n, m in _math_checks.EQ5_SAMPLES:
        X = rng.normal(size=(m, n))
        probe = np.vstack([X, rng.normal(size=(200, n))])
        for size in range(1, min(3, n) + 1):
            for examples in itertools.combinations(range(m), size):
                free = set()
                for attributes in itertools.combinations(range(n), size):
                    for directions in itertools.product((-1, 1), repeat=size):
                        for order in itertools.permutations(examples):
                            t = X[list(order), list(attributes)]
                            out = np.all(np.where(np.asarray(directions) > 0, probe[:, attributes] > t,
                                                  probe[:, attributes] <= t), axis=1)
                            free.add((attributes, directions, out.tobytes()))
                assert e.free[i] == len(free) and e.canonical[i] == math.comb(n, size) * 2 ** size
                i += 1
    assert i == len(e)


def test_new_checks_hold_and_fail_on_broken_input():
    for key in ("math_zeta_decreases_slowly", "math_bayes_vote_not_midpoint", "math_bayes_gibbs"):
        ok, detail = _math_checks.CHECKS[key](np.random.default_rng(0))
        assert ok, detail
        assert not _math_checks.CHECKS[key](np.random.default_rng(0), **BROKEN[key])[0]
    # a vote at Π σ > 0.4 errs where fewer than half of Q err: the pointwise check sees it
    from companion.bounds.pac_bayes import gibbs_output_probability

    def loose(X, f, a, b, d):
        return (gibbs_output_probability(X, f, a, b, d) > 0.4).astype(int)

    ok, detail = _math_checks.check_bayes_gibbs(np.random.default_rng(0), bayes=loose)
    assert not ok, detail


def test_pac_bayes_prior_check_sums_the_prior():
    ok, detail = _math_checks.check_pac_bayes_prior_normalised(np.random.default_rng(0))
    assert ok, detail
    broken, _ = _math_checks.check_pac_bayes_prior_normalised(
        np.random.default_rng(0), **BROKEN["math_pac_bayes_prior_normalised"])
    assert not broken


def test_subprior_union_check_catches_a_loose_inversion():
    ok, detail = _math_checks.check_occam_subprior_union(np.random.default_rng(0))
    assert ok, detail
    broken, _ = _math_checks.check_occam_subprior_union(np.random.default_rng(0), inversion=_broken_inversion)
    assert not broken


@pytest.mark.parametrize("key", list(_math_checks.CHECKS))
def test_math_check_holds_on_the_code_and_fails_on_a_broken_input(key):
    check = _math_checks.CHECKS[key]
    expected = EXPECTED.get(key, True)
    ok, detail = check(np.random.default_rng(0))
    assert bool(ok) is expected, detail
    assert detail
    broken, _ = check(np.random.default_rng(0), **BROKEN[key])
    assert bool(broken) is not expected


def test_every_math_row_has_its_check_and_the_table_names_them():
    entries = [e for e in C.load_registry("05").entries if str(e.get("measure", "")).startswith("math_")]
    assert {e["measure"] for e in entries} == set(_math_checks.CHECKS)
    section = paper05.bounds_checks_section(np.random.default_rng(1), 2, 0)
    assert set(section.coverage["learner"]) == {"sc", "sc with ln|k|!", "occam", "pac_bayes"}
    shown = {e["id"] for e in entries if e["category"] == "observation"}  # not judged: no verdict word
    assert shown == {"kl-discrete-small", "pac-bayes-deterministic-guarantee"}
    failing = {"sc-eq5-free-pairing"}  # Eq. 5 with a free pairing is no message distribution
    assert list(section.table["result"]) == ["shown, not judged" if i in shown else "fails" if i in failing else "holds"
                                             for i in section.table["id"]]


def test_true_risk_is_exact_against_a_large_sample():
    rng = np.random.default_rng(3)
    dist = _coverage.COVERAGE_DISTRIBUTIONS["signal"]
    X, y = _coverage._sample(400_000, 4, rng, **dist)
    features, lows, highs, dirs = [0, 3], [0.2, 0.6], [0.5, 0.6], [1, -1]
    t = rng.uniform(0.2, 0.5, size=len(y))  # the Gibbs draw of the first threshold
    pred = (X[:, 0] > t) & (X[:, 3] <= 0.6)
    assert _coverage.true_risk(features, lows, highs, dirs, **dist) == pytest.approx(np.mean(pred != y), abs=0.003)
    assert _coverage.true_risk([], [], [], [], **dist) == pytest.approx(0.49 * 0.1 + 0.51 * 0.9)


def test_coverage_counts_a_bound_below_the_risk():
    coverage = _coverage.bound_coverage(3, m=30, n=20, s=2)
    assert set(coverage["learner"]) == {"sc", "sc with ln|k|!", "occam", "pac_bayes"} and len(coverage) == 2 * 3 * 4
    table = _coverage.coverage_table(coverage)
    assert list(table["bound"])[-2:] == ["min of the three"] * 2 and table["level"].iloc[-1] == pytest.approx(0.15)
    assert (coverage["min_gap"] > 0).all()  # valid bounds on a few samples
    lowered = coverage.assign(any_violated=True)
    assert _claims._coverage_share(lowered, "sc")[:2] == (6, 6)


def test_by_learner_and_genes_count_the_raw_folds(small_run):
    _, results = small_run
    table = _tables.accuracy_by_learner(results)
    assert list(table[table["k"] == 0]["side"]) == ["sc", "occam", "pac_bayes", "chosen by smallest bound"]
    assert set(table["k"]) == {0, 1, 2, 3} or set(table["k"]) >= {0, 1}
    assert (table[["lower", "equal", "higher"]].sum(axis=1) == len(results[results["method"] == "stumps"])).all()
    data = _claims_data(results, "declared")
    fewer, n, tied = _claims._genes_fewer(data)
    genes = _tables.per_fold(results, "leukemia_golub", "declared", "genes")
    most = genes[["sc", "occam", "pac_bayes"]].max(axis=1)
    assert (fewer, n, tied) == (int((most < genes["competitor"]).sum()), len(genes), int((most == genes["competitor"]).sum()))
    d, groups, ratios = _claims._accuracy(data, "leukemia_golub", k=1)
    sizes = results[results["dataset"] == "leukemia_golub"][["n_train", "n_test"]].mean()
    assert len(d) == len(groups) == len(ratios) == len(genes) and set(groups) == {"leukemia_golub"}
    assert ratios == [pytest.approx(sizes["n_test"] / sizes["n_train"])] * len(d)


def test_golub_descriptions_sit_beside_the_probes():
    from companion.datasets import golub_gene_descriptions

    descriptions = golub_gene_descriptions()
    _, _, names = _protocol.load_dataset("leukemia_golub")
    assert list(descriptions.index) == list(names)
    assert descriptions["M23197_at"].startswith("CD33") and descriptions["X95735_at"] == "Zyxin"


# ------------------------------------------------------------------------------------------
# the referee's third reading: the selection rules, SC's strictly valid bound, the second
# declared range, the coverage rows per distribution, the by-learner display
# ------------------------------------------------------------------------------------------


def test_selection_variants_pick_by_their_rule(small_run):
    _, results = small_run
    variants = _variants.selection_variants(results)
    assert set(variants) == set(_variants.SELECTION_RULES)
    keys = ["dataset", "repeat", "fold", "k"]
    for label, rule in _variants.SELECTION_RULES.items():
        frame = variants[label]
        check_tidy(frame)
        stumps = frame[(frame["learner"] == "stumps") & (frame["prior"] == "declared")]
        assert len(stumps) == len(results[(results["learner"] == "stumps") & (results["prior"] == "declared")])
        # every other row is the main run's
        pd.testing.assert_frame_equal(frame[frame["learner"] != "stumps"].reset_index(drop=True),
                                      results[results["learner"] != "stumps"].reset_index(drop=True))
        if rule in _protocol.STUMP_LEARNERS:
            assert set(stumps["chosen"]) == {rule}
            own = results[(results["learner"] == rule) & (results["prior"] == "declared")].set_index(keys)["errors"]
            assert (stumps.set_index(keys)["errors"] == own.loc[stumps.set_index(keys).index]).all()
    # the Gibbs rule picks PAC-Bayes where its Gibbs bound is the smallest, which the main rule never does
    gibbs = variants["select=smallest bound, PAC-Bayes by its Gibbs bound"]
    learners = results[results["learner"].isin(_protocol.STUMP_VARIANTS) & (results["prior"] == "declared")]
    score = learners["bound"].where(learners["learner"] != "pac_bayes", learners["gibbs_bound"])
    best = learners.assign(score=score).sort_values("score", kind="stable").groupby(keys).first()["learner"]
    picked = gibbs[(gibbs["learner"] == "stumps") & (gibbs["prior"] == "declared")].set_index(keys)["chosen"]
    assert (picked == best.loc[picked.index]).all()
    # a broken rule (the largest bound) gives other choices than the smallest
    worst = learners.assign(score=score).sort_values("score", kind="stable").groupby(keys).last()["learner"]
    assert not (picked == worst.loc[picked.index]).all()


def test_sc_bound_with_pairing_is_the_papers_bound_plus_ln_k_factorial():
    from companion.stumps import SetCoveringStumps

    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 12))
    y = ((X[:, 0] > 0) & (X[:, 3] > -0.5)).astype(int)
    model = SetCoveringStumps(threshold="observed", p=1.0, s=3, length="greedy", stop_idle=False).fit(X, y)
    for k in range(model.features_.size + 1):
        part = model.truncated(k)
        paper = _protocol.sc_bound_with_pairing(part, X, y, pairing=False)
        assert paper == pytest.approx(part.bound_, rel=1e-12)  # the paper's form is the model's own bound
        strict = _protocol.sc_bound_with_pairing(part, X, y)
        assert strict >= paper and (strict > paper) == (k >= 2)  # ln 0! = ln 1! = 0
    # on labels it was not fitted to, the errors outside the compression set differ: so does the bound
    assert _protocol.sc_bound_with_pairing(model, X, 1 - y, pairing=False) != pytest.approx(model.bound_)


def test_second_declared_range_reruns_only_the_sets_it_changes(small_run):
    config, results = small_run
    assert _protocol.DECLARED_RANGES_SECOND["colon"] == (0.0, 2.0**18)
    assert _protocol.DECLARED_RANGES_SECOND["leukemia_golub"] == _protocol.DECLARED_RANGES["leukemia_golub"]
    X = np.array([[1.0, 2.0]])
    assert prior_feature_range("colon", X, "declared_second")[:, 0].tolist() == [0.0, 2.0**18]
    with pytest.raises(ValueError, match="second declared range"):
        prior_feature_range("colon", -X, "declared_second")  # an intensity is never negative
    name = [n for n in _variants.CHOICE_VARIANTS if n.startswith("range=declared second")][0]
    frame = _variants.run_choice_variants(config, results, variants={name: _variants.CHOICE_VARIANTS[name]})[name]
    stumps = frame[frame["learner"].isin([*_protocol.STUMP_VARIANTS, "stumps"])].sort_values(["method", "seed", "fold"])
    main = results[results["learner"].isin([*_protocol.STUMP_VARIANTS, "stumps"]) & (results["prior"] == "declared")]
    main = main.sort_values(["method", "seed", "fold"])
    # Leukaemia keeps its range: its rows are the main run's, not refitted
    np.testing.assert_array_equal(stumps["errors"].to_numpy(), main["errors"].to_numpy())


def test_coverage_rows_decide_each_distribution_alone():
    coverage = pd.DataFrame({"distribution": ["signal"] * 4 + ["no signal"] * 4, "learner": "occam",
                             "any_violated": [True, False, False, False, True, True, False, False]})
    assert _claims._coverage_worst(coverage, "occam") == (2, 4)  # the worse distribution, not 3 of 8 pooled
    assert _claims._coverage_share(coverage, "occam")[:2] == (3, 8)
    assert _claims._coverage_worst(coverage.assign(any_violated=False), "occam") == (0, 4)


def test_by_learner_display_shows_intervals_and_tallies(small_run):
    _, results = small_run
    table = _tables.accuracy_by_learner(results)
    shown = _tables.by_learner_display(table)
    first = table.iloc[0]
    cell = shown.loc[(first["dataset"], first["k"]), first["side"]]
    assert cell.startswith(f"{first['difference']:+.1f} [{first['low']:+.1f}, {first['high']:+.1f}] "
                           f"{first['lower']}/{first['equal']}/{first['higher']}")
    assert list(shown.columns) == ["sc", "occam", "pac_bayes", "chosen by smallest bound"]


@pytest.mark.slow
def test_a_fold_memo_changes_no_frame_and_refits_only_what_a_variant_changes(small_run):
    """``run`` and the variants rerun on its folds, given one :class:`FoldMemo`, give the
    frames they give without one; the choice variants fit only the learners whose parameters they
    change, and the competitor variants read the main run's fits at the protocol's settings."""
    import copy

    config, results = small_run
    from companion.experiments.paper05._protocol import FoldMemo

    memo = FoldMemo()
    pd.testing.assert_frame_equal(paper05.run(config, memo=memo), results)
    n_folds = config.n_repeats * config.n_splits
    assert len(memo.stump_rows) == n_folds * (1 + 2 * len(config.priors)) and len(memo.matched) == n_folds
    names = ("eta=0.5", "p=grid 0.5 1 2 for Occam and PAC-Bayes", "range=declared 20-bit envelope for the raw sets")
    choice = {name: _variants.CHOICE_VARIANTS[name] for name in names}
    before = len(memo.stump_rows)
    shared = _variants.run_choice_variants(config, results, variants=choice, memo=memo)
    alone = _variants.run_choice_variants(config, results, variants=choice)
    for name in names:
        pd.testing.assert_frame_equal(shared[name], alone[name])
    # SC's rows under η = 0.5 and the p grid are the main run's; the wider range moves all three on Golub
    assert len(memo.stump_rows) - before == n_folds * (2 + 2 + 3)
    settings = {"competitors=SVM C 10 (SVM-RFE, BAHSIC)": _variants.COMPETITOR_VARIANTS[
        "competitors=SVM C 10 (SVM-RFE, BAHSIC)"], "competitors=L1 refit C 0.1": _variants.COMPETITOR_VARIANTS[
        "competitors=L1 refit C 0.1"]}
    shared = _variants.run_competitor_variants(config, results, variants=settings, memo=memo)
    alone = _variants.run_competitor_variants(config, results, variants=settings)
    for name in settings:
        pd.testing.assert_frame_equal(shared[name], alone[name])
    # the memo's entries are what the variants read: AdaBoost's rows (no setting moves them) come from it
    tampered = copy.deepcopy(memo)
    for parts in tampered.matched.values():
        for part in parts:
            for row in part["rows"]:
                if row["learner"] == "adaboost_stumps":
                    row["errors"] += 100
    moved = _variants.run_competitor_variants(config, results, variants=settings, memo=tampered)
    for name in settings:
        boosted = moved[name][moved[name]["method"].str.startswith("adaboost_stumps k=")]
        assert (boosted["errors"] >= 100).all()
    # the key holds the fold seed, and AdaBoost's rounds as far as the matched rows read them
    X, y, gene_names = _protocol.load_dataset("leukemia_golub")
    data_key = _protocol.data_digest(X, y, gene_names)
    train, test = next(iter(stratified_folds(y, n_splits=config.n_splits, seed=config.seed)))
    assert _protocol.matched_key(data_key, train, test, config, config.seed, 0, 0, max(config.matched_k)) in memo.matched
    other = replace(config, seed=config.seed + 7)
    assert _protocol.matched_key(data_key, train, test, other, other.seed, 0, 0, max(config.matched_k)) not in memo.matched
    short = replace(config, adaboost_rounds=2)
    assert (_protocol.matched_key(data_key, train, test, short, 0, 0, 0, short.adaboost_rounds)
            != _protocol.matched_key(data_key, train, test, short, 0, 0, 0, max(short.matched_k)))


def test_enumerated_miss_is_the_count_by_count_loop():
    """The subprior and test-set checks enumerate every error count in one call: the values of one call per count."""
    from companion.bounds.binomial import binomial_tail, binomial_tail_inversion

    rng = np.random.default_rng(3)
    for _ in range(6):
        m = int(rng.integers(1, 90))
        r, delta = float(rng.uniform(0.01, 0.6)), float(rng.uniform(1e-6, 0.3))
        counts = np.arange(m + 1)
        below, pmf = _math_checks._enumerated_miss(counts, m, r, delta, binomial_tail_inversion, binomial_tail)
        naive_below = np.array([float(binomial_tail_inversion(int(k), m, delta)) < r for k in counts])
        naive_pmf = np.diff(np.concatenate([[0.0], [float(binomial_tail(int(k), m, r)) for k in counts]]))
        assert np.array_equal(below, naive_below)
        assert np.array_equal(pmf, naive_pmf)  # bit for bit


def _naive_adaboost_check(X, y, boost, staged, X_test):
    """Replays ``boost`` in exact rational arithmetic: each stump must split at a best Gini
    impurity for the exact weights of its round (brute force over every feature and cut), the
    weights then updated exactly (a misclassified weight times ``(1 - ε) / ε``, then normalised),
    and each staged prediction must be the sign of the exact vote unless that vote is within
    1e-9 of 0 (of the weights' sum).

    Returns
    -------
    ties : int
        Rounds with more than one best split.
    clear : list of ndarray of bool
        Per stage, the test examples whose vote is not within 1e-9 of 0.
    """
    from fractions import Fraction

    classes = boost.classes_
    codes = np.searchsorted(classes, y)
    X, X_test = X.astype(np.float32), X_test.astype(np.float32)  # what the trees read
    m = len(y)
    w = [Fraction(1, m)] * m
    ties = 0
    alphas = []
    for tree in boost.estimators_:
        def impurity(left):
            total = Fraction(0)
            for side in (left, ~left):
                weight = [sum((w[i] for i in range(m) if side[i] and codes[i] == c), Fraction(0)) for c in (0, 1)]
                size = weight[0] + weight[1]
                if size:
                    total += size - (weight[0] ** 2 + weight[1] ** 2) / size
            return total
        cuts = [X[:, j] <= t for j in range(X.shape[1]) for t in np.unique(X[:, j])[:-1]]
        scores = [impurity(left) for left in cuts]
        best = min(scores)
        ties += sum(score == best for score in scores) > 1
        feature, threshold = tree.tree_.feature[0], tree.tree_.threshold[0]
        assert impurity(X[:, feature] <= threshold) == best
        wrong = tree.predict(X) != codes
        error = sum((w[i] for i in range(m) if wrong[i]), Fraction(0))
        if error == 0:
            alphas.append(1.0)
            break
        odds = (1 - error) / error
        alphas.append(math.log(odds))
        w = [w[i] * odds if wrong[i] else w[i] for i in range(m)]
        w = [v / sum(w) for v in w]
    vote = np.zeros(len(X_test))
    clears = []
    assert len(staged) == len(alphas)
    for stage, (alpha, tree) in enumerate(zip(alphas, boost.estimators_)):
        vote += np.where(tree.predict(X_test) == 1, alpha, -alpha)
        clear = np.abs(vote) > 1e-9 * sum(alphas[: stage + 1])
        assert np.array_equal(staged[stage][clear], classes[(vote > 0).astype(int)][clear])
        clears.append(clear)
    return ties, clears


def test_boosted_stumps_replay_exactly_and_are_scikit_learns_adaboost_where_no_splits_tie():
    """``boosted_stumps`` on random data, real-valued and full of tied splits (rounded and
    duplicated columns), with early stops (a separable sample):

    * every stump is a best split for the weights exact arithmetic gives, and the staged
      predictions are the exact vote's (:func:`_naive_adaboost_check`);
    * where no round met two best splits, it is scikit-learn's
      ``AdaBoostClassifier(DecisionTreeClassifier(max_depth=1))``: the same stumps, thresholds
      and staged predictions (but at votes within 1e-9 of 0). Where splits tie, scikit-learn's
      choice follows the last bits of numpy's ``log``/``exp`` (the SIMD level) and ours the
      exact weights; ``tests/cross_machine_probe.py`` runs ours under every SIMD level.
    """
    from sklearn.ensemble import AdaBoostClassifier

    rng = np.random.default_rng(1)
    compared = tied = stops = 0
    for trial in range(30):
        m, d = int(rng.integers(8, 20)), int(rng.integers(1, 5))
        X = rng.normal(size=(m, d))
        if trial % 2:
            X = X.round(int(rng.integers(0, 2)))  # rounded columns: tied splits
        if trial % 3 == 0:
            X[:, : d // 2] = X[:, [0]]  # duplicated columns: tied splits
        y = np.where(rng.random(m) < 0.4, "a", "b").astype(object)
        if trial % 5 == 0:
            y = np.where(X[:, 0] > 0, "a", "b").astype(object)  # one stump separates: boosting stops early
        if len(set(y)) < 2:
            continue
        X_test = rng.normal(size=(7, d)).round(1)
        rounds = (1, 3, 6)[trial % 3]
        boost, staged = _protocol.boosted_stumps(X, y, X_test, rounds, trial)
        ties, clears = _naive_adaboost_check(X, y, boost, staged, X_test)
        stops += len(staged) < rounds
        if ties:
            tied += 1
            continue
        expected = AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=rounds,
                                      random_state=trial).fit(X, y)
        expected_staged = list(expected.staged_predict(X_test))
        assert len(staged) == len(expected_staged) == len(clears)
        for a, b, clear in zip(staged, expected_staged, clears):
            assert a.dtype == b.dtype and np.array_equal(a[clear], b[clear])
        for ours_tree, tree in zip(boost.estimators_, expected.estimators_, strict=True):
            assert ours_tree.tree_.feature[0] == tree.tree_.feature[0]
            assert ours_tree.tree_.threshold[0] == tree.tree_.threshold[0]
        assert np.array_equal(boost.classes_, expected.classes_)
        compared += 1
    assert compared >= 5 and tied >= 5 and stops > 0, (compared, tied, stops)
