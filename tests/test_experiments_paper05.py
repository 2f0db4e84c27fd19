"""Paper 05's protocol pieces whose outcome could depend on the machine (issue 13)."""

import numpy as np
from sklearn.svm import SVC

from companion.experiments.paper05 import linear_svm_importance, welch_t_ranking


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
# issue 15: declared prior ranges, the all-genes protocol, paired intervals, gene counts
# ------------------------------------------------------------------------------------------

from dataclasses import FrozenInstanceError, replace

import pandas as pd
import pytest
from scipy import stats

from companion.evaluation import stratified_folds
from companion.experiments import paper05
from companion.experiments.protocol import check_tidy


def test_declared_feature_range_is_the_whole_sets_min_max_and_rejects_bad_input(rng):
    X = rng.normal(size=(12, 5))
    ranges = paper05.declared_feature_range(X)
    np.testing.assert_array_equal(ranges, np.vstack([X.min(axis=0), X.max(axis=0)]))
    # every training fold lies inside it, so the learners accept it on any fold
    from companion.stumps import OccamStumps, PacBayesStumps

    y = (X[:, 0] > 0).astype(int)
    for learner in (OccamStumps, PacBayesStumps):
        learner(s=2, feature_range=ranges).fit(X[:7], y[:7])
    with pytest.raises(ValueError, match="2-D"):
        paper05.declared_feature_range(X[0])


def test_protocol_prior_range_is_validated():
    with pytest.raises(ValueError, match="prior_range"):
        paper05._ranges(np.zeros((3, 2)), paper05.Config(prior_range="fold"))
    assert paper05._ranges(np.zeros((3, 2)), paper05.Config(prior_range="training")) is None


def test_corrected_paired_interval_matches_a_naive_computation(rng):
    d = rng.normal(1.0, 3.0, size=20)
    mean, low, high = paper05.corrected_paired_interval(d, n_train=54, n_test=6)
    j = d.size
    var = sum((x - d.mean()) ** 2 for x in d) / (j - 1)
    half = stats.t.ppf(0.975, j - 1) * np.sqrt((1 / j + 6 / 54) * var)
    assert mean == pytest.approx(d.mean())
    assert (low, high) == pytest.approx((d.mean() - half, d.mean() + half))
    # the correction widens the plain t interval
    plain = stats.t.ppf(0.975, j - 1) * np.sqrt(var / j)
    assert high - mean > plain
    with pytest.raises(ValueError, match="two paired"):
        paper05.corrected_paired_interval([1.0], 10, 2)


def _fake_results(rng):
    rows = []
    for repeat in range(2):
        for fold in range(5):
            for learner in (*paper05.STUMP_VARIANTS, *paper05.COMPETITORS):
                genes = "gA;gB" if (learner == "sc" and fold < 3) else ("gB" if learner in paper05.STUMP_VARIANTS else "")
                rows.append({"dataset": "toy", "repeat": repeat, "fold": fold, "n_test": 10, "learner": learner,
                             "errors": int(rng.integers(0, 4)) + (3 if learner == "occam" else 0),
                             "gene_names": genes, "genes": genes.count(";") + bool(genes), "bound": np.nan,
                             "gibbs_errors": np.nan, "gibbs_bound": np.nan})
    return pd.DataFrame(rows)


def test_paired_differences_are_per_fold_differences(rng):
    results = _fake_results(rng)
    table = paper05.paired_differences(results)
    assert len(table) == len(paper05.STUMP_VARIANTS) * len(paper05.COMPETITORS)
    row = table[(table["stump learner"] == "occam") & (table["competitor"] == "linear_svm")].iloc[0]
    a = results[results["learner"] == "occam"].sort_values(["repeat", "fold"])["errors"].to_numpy()
    b = results[results["learner"] == "linear_svm"].sort_values(["repeat", "fold"])["errors"].to_numpy()
    mean, low, high = paper05.corrected_paired_interval(10.0 * (a - b), n_train=40, n_test=10)
    assert (row["difference"], row["95% low"], row["95% high"]) == pytest.approx((mean, low, high))
    assert row["competitive"] == (high <= 5.0) and row["worse"] == (low > 0)


def test_gene_frequency_counts_folds(rng):
    table = paper05.gene_frequency(_fake_results(rng))
    sc = table[table["learner"] == "sc"].set_index("gene")["folds"]
    assert sc.to_dict() == {"gB": 10, "gA": 6}
    assert set(table["of folds"]) == {10}


def test_all_genes_fold_uses_every_gene_and_names(rng):
    X = rng.normal(size=(40, 30))
    y = np.where(X[:, 17] > 0.1, "b", "a")
    names = np.array([f"gene{j}" for j in range(30)])
    config = paper05.Config(s_max=2, p_grid=(1.0,), n_prefilter=5, adaboost_rounds=3, rfe_genes=3)
    train, test = np.arange(30), np.arange(30, 40)
    rows = paper05._all_genes_fold_rows({"toy": (X, y, names)}, config, 0, ("toy", (0, 0, train, test)))
    table = pd.DataFrame(rows).set_index("learner")
    assert set(table.index) == {*paper05.STUMP_VARIANTS, "sc (5 genes)", *paper05.COMPETITORS}
    # the informative gene is found, and the rule prints its name
    assert "gene17" in table.loc["sc", "gene_names"].split(";")
    assert "gene17" in table.loc["sc", "rule"]
    assert table.loc["linear_svm", "genes"] == 30


# ------------------------------------------------------------------------------ the protocol's shape


def _small_config(**changes):
    return replace(paper05.Config.fast(), datasets=("colon",), s_max=2, n_prefilter=20, **changes)


def test_run_is_tidy_and_its_folds_are_the_fold_rows():
    """run's frame: method = learner/selection, seed = the repeat's fold-split seed; its folds table
    is the rows of every outer fold (_fold_rows on stratified_folds(y, seed + repeat)) in order."""
    config = _small_config(seed=3, n_repeats=2)
    results = paper05.run(config)
    check_tidy(results)
    assert list(results.columns[:4]) == ["dataset", "method", "seed", "fold"]
    assert set(results["method"]) == {f"{v}/{s}" for v in paper05.STUMP_VARIANTS for s in ("bound", "cv")} | set(
        paper05.COMPETITORS)
    assert (results["seed"] == 3 + results["repeat"]).all()
    X, y, _ = paper05.load_dataset("colon")
    rows = []
    for repeat in range(2):
        for fold, (train, test) in enumerate(stratified_folds(y, n_splits=config.n_splits, seed=3 + repeat)):
            rows += paper05._fold_rows(X, y, "colon", config, 3, (repeat, fold, train, test))
    expected = pd.DataFrame(rows)
    assert list(expected.columns) == paper05.FOLDS_COLUMNS
    pd.testing.assert_frame_equal(paper05.folds_table(results), expected)


def test_summaries_of_the_tidy_frame_are_those_of_the_folds_table():
    results = paper05.run(_small_config())
    summary = paper05.summarise(results)
    pd.testing.assert_frame_equal(summary, paper05.summarise(paper05.folds_table(results)))
    # one summary row per method of the tidy frame, in its order
    methods = summary["learner"].where(summary["selection"] == "-", summary["learner"] + "/" + summary["selection"])
    assert list(methods) == list(dict.fromkeys(results["method"]))
    first = results[results["method"] == "sc/bound"]
    row = summary[(summary["learner"] == "sc") & (summary["selection"] == "bound")].iloc[0]
    assert row["cv_error_%"] == 100.0 * first["errors"].sum() / first["n_test"].sum()
    assert set(paper05.wide_view(summary)["cv_error_%"].index) >= {"sc (bound)", "linear_svm"}


def test_config_is_frozen_and_the_registry_loads():
    with pytest.raises(FrozenInstanceError):
        paper05.Config().seed = 1
    entry = paper05.DATASETS["all_bioc"]
    assert entry.options == {"lineage": True} and entry.note.startswith("Chiaretti")
    X, y, names = paper05.load_dataset("colon")
    assert X.shape == (62, 2000) and names.shape == (2000,) and set(y) == {"n", "t"}
