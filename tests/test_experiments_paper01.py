"""Tests of the issue-15 experiments of notebook 01 (companion.experiments.paper01)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.spatial.distance import cdist

from companion.decision_list import DecisionListMachine
from companion.evaluation import stratified_folds
from companion.experiments import paper01
from companion.interpretable import staged_predictions


def _random_problem(seed, m=60):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(m, 3)), 1)  # rounding makes ties between distances
    y = (X[:, 0] + rng.normal(scale=0.8, size=m) > 0).astype(int)
    return X, y


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("ball_type", ["simple", "complex"])
def test_fit_ball_list_defaults_learn_the_estimators_list(seed, ball_type):
    X, y = _random_problem(seed)
    perm = np.random.default_rng(seed + 10).permutation(len(y))
    X, y = X[perm], y[perm]
    dlm = DecisionListMachine(p_p=1.5, p_n=2.0, s=6, ball_type=ball_type).fit(X, y)
    learnt = paper01.fit_ball_list(X, y, p_p=1.5, p_n=2.0, ball_type=ball_type, s=6)
    assert learnt["kinds"] == [b.kind for b in dlm.balls_]
    assert learnt["centre_index"].tolist() == [b.centre_index for b in dlm.balls_]
    assert learnt["border_index"].tolist() == [b.border_index for b in dlm.balls_]
    probe = np.random.default_rng(seed).normal(size=(200, 3))
    if dlm.n_balls_:
        np.testing.assert_array_equal(paper01.ball_list_path(learnt, probe), staged_predictions(dlm, probe))


def test_fit_ball_list_rejects_bad_input():
    X, y = _random_problem(0)
    with pytest.raises(ValueError, match="ball_type"):
        paper01.fit_ball_list(X, y, p_p=1, p_n=1, ball_type="round")
    with pytest.raises(ValueError, match="0/1"):
        paper01.fit_ball_list(X, y + 1, p_p=1, p_n=1)
    with pytest.raises(ValueError, match="tie_rule"):
        paper01.fit_ball_list(X, y, p_p=1, p_n=1, tie_rule="random")
    with pytest.raises(ValueError, match="nominal"):
        paper01.load_table1_dataset("credit", nominal="binary")
    with pytest.raises(ValueError, match="folds"):
        paper01.list_lengths("glass", folds="loo")
    with pytest.raises(ValueError, match="n_runs"):
        paper01.bound_coverage(0)


TINY = paper01.Grid(
    dlm_penalties=(1.0, 2.0), dlm_s_max=3, scm_penalties=(1.0,), scm_s_max=2, svm_gamma_factors=(1.0,), svm_Cs=(1.0,)
)


def test_fine_grid_and_variant_protocols_agree_with_the_paper_protocol():
    # the fine-grid protocol with the coarse grid's penalties, and the variant protocol with
    # the default rules, must select what protocol (a) selects
    X, y = paper01.load_table1_dataset("haberman")
    folds = stratified_folds(y, n_splits=10, seed=0)
    expected = paper01.paper_protocol(paper01.cross_validate_grid(X, y, folds, TINY, constrained=False))["dlm"]
    fine = paper01.fine_grid_protocol(["haberman"], seeds=(0,), penalties=(1.0, 2.0), s_max=3)
    row = fine["best"].iloc[0]
    assert (row["errors"], row["T"], row["p_p"], row["p_n"], row["s"]) == (
        expected["errors"], expected["T"], expected["p_p"], expected["p_n"], expected["s"]
    )
    variant = paper01.variant_protocol("haberman", seeds=(0,), grid=TINY).iloc[0]
    assert (variant["errors"], variant["T"], variant["p_p"], variant["p_n"], variant["s"]) == (
        expected["errors"], expected["T"], expected["p_p"], expected["p_n"], expected["s"]
    )
    assert fine["totals"][("haberman", 0)].shape == (2, 2, 2, 3)


def test_fine_grid_table_statistics():
    best = pd.DataFrame(
        {"dataset": ["Pima"] * 3, "seed": [0, 1, 2], "errors": [186, 190, 188], "T": "c", "p_p": 1.0,
         "p_n": 2.0, "s": 4, "size": 4.0}
    )
    # protocol (a) of the coarse grid: seed 0 totals 198, seed 1 totals 190, seed 2 not run; the
    # rows of another method and another data set must not count
    coarse = pd.DataFrame(
        {"dataset": ["pima"] * 4 + ["bupa"], "method": ["DLM (a)", "DLM (a)", "DLM (a)", "SCM (a)", "DLM (a)"],
         "seed": [0, 0, 1, 0, 2], "fold": [0, 1, 0, 0, 0], "errors": [100, 98, 190, 7, 5]}
    )
    row = paper01.fine_grid_table({"best": best}, coarse).loc["Pima"]
    assert row["paper"] == 189 and row["fine_mean"] == 188 and row["fine_sd"] == pytest.approx(2.0)
    assert (row["fine_min"], row["fine_max"], row["coarse_mean"], row["coarse_max"]) == (186, 190, 194, 198)
    assert row["paper_in_fine_range"] and row["difference"] == -1


def test_tie_rules_part_at_breastw_step_8():
    # step 3's ">=" read literally (output 1 first) vs our larger-cover rule (issue 15)
    out = paper01.first_tie_rule_divergence("breastw", p_p=1.0, p_n=np.inf)
    assert out["step"] == 8
    assert out["output_one_first"]["output"] == 1 and out["larger_cover"]["output"] == 0


def test_ordinal_coding_and_names():
    X1, _, names1 = paper01.load_table1_dataset("credit", return_names=True)
    X2, _, names2 = paper01.load_table1_dataset("credit", nominal="ordinal", return_names=True)
    assert X1.shape[1] == len(names1) == 42 and X2.shape[1] == len(names2) == 15
    assert "A6" in names2 and "A6=c" in names1
    # each one-hot block has exactly one 1 per row; the ordinal column holds its position
    block = [i for i, n in enumerate(names1) if n.startswith("A6=")]
    np.testing.assert_array_equal(X1[:, block].argmax(axis=1), X2[:, names2.index("A6")])


def test_list_lengths_at_most_s():
    out = paper01.list_lengths("glass", removal="covered")
    assert len(out["lengths"]) == 10 and max(out["lengths"]) <= out["s"] == 12


def test_coverage_summary_on_a_tiny_case():
    frame = pd.DataFrame(
        {
            "machine": ["DLM"] * 3,
            "risk": [0.30, 0.20, 0.25],
            "train_error": [0.3, 0.1, 0.2],
            "bound_published": [0.10, 0.50, np.nan],  # smallest bound 0.10 < risk 0.30
            "bound_corrected": [0.60, 0.40, 0.22],  # smallest bound 0.22 < risk 0.25
        }
    )
    out = paper01._coverage_summary(frame)
    assert out[("DLM", "published")]["selected_violated"] and out[("DLM", "published")]["any_violated"]
    assert out[("DLM", "published")]["selected_risk"] == 0.30
    assert out[("DLM", "corrected")]["selected_bound"] == 0.22
    assert out[("DLM", "corrected")]["min_gap"] == pytest.approx(-0.03)
    frame["bound_corrected"] = [0.60, 0.40, 0.30]
    out = paper01._coverage_summary(frame)
    assert not out[("DLM", "corrected")]["any_violated"]


def test_bound_coverage_machinery_and_counts():
    noise = {"positive_rate": 0.3, "shift": 0.0}
    kwargs = dict(m=60, n_test=2000, s_max=3, penalties=(1.0,), distribution=noise, seed=3)
    coverage = paper01.bound_coverage(3, **kwargs)
    assert len(coverage) == 3 * 4 and set(coverage["bound"]) == {"published", "corrected"}
    pd.testing.assert_frame_equal(coverage, paper01.bound_coverage(3, n_jobs=2, **kwargs))
    table = paper01.coverage_table(coverage)
    assert (table["runs"] == 3).all()
    assert table.loc[("DLM", "corrected"), "any_violated"] == 0
    # per machine, a valid bound lies above its training error; the corrected ones always do
    frame = paper01._coverage_run(60, 2000, 3, (1.0,), noise, 5)
    finite = frame.dropna()
    assert (finite["bound_corrected"] >= finite["train_error"]).all()


def test_coverage_bayes_risk_matches_monte_carlo():
    rng = np.random.default_rng(0)
    X, y = paper01.sample_coverage_distribution(200_000, rng, positive_rate=0.35, shift=1.0)
    t = 0.5 + np.log(0.65 / 0.35)
    empirical = ((X[:, 0] > t).astype(int) != y).mean()
    assert paper01.coverage_bayes_risk(positive_rate=0.35, shift=1.0) == pytest.approx(empirical, abs=0.004)
    assert paper01.coverage_bayes_risk(positive_rate=0.3, shift=0.0) == pytest.approx(0.3)


def test_corrected_bounds_are_the_general_compression_bound():
    table = paper01.compression_relation_table()
    np.testing.assert_allclose(table["corrected"], table["theorem3"], rtol=1e-12)
    assert (table["log_message"] > 0).all()


def test_protocol_legend_covers_the_protocol_columns():
    columns = ["paper_dlm", "a_svm", "a_scm", "a_dlm", "a_dlm_constrained", "b_svm", "b_scm", "b_dlm",
               "c_dlm_bound", "c_dlm_balls", "c_dlm_corrected", "c_corrected_balls"]
    legend = " ".join(paper01.protocol_legend().index)
    assert all(c in legend for c in columns)


def test_metric_table_l2_column_is_protocol_a():
    X, y = paper01.load_table1_dataset("haberman")
    folds = stratified_folds(y, n_splits=10, seed=0)
    expected = paper01.paper_protocol(paper01.cross_validate_grid(X, y, folds, TINY, constrained=False))["dlm"]
    table = paper01.metric_table(["haberman"], grid=TINY, metrics=("l2", "linf"))
    assert table.loc["Haberman", "l2"] == expected["errors"]
    # a total of test errors over the folds: a whole number, at most the number of examples, and
    # better than always predicting the minority class
    linf = table.loc["Haberman", "linf"]
    assert float(linf).is_integer() and 0 <= linf < max(np.bincount(np.asarray(y, dtype=int)))


def test_figures_stop_curves_at_the_longest_list_and_mark_the_paper():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    X, y = paper01.load_table1_dataset("haberman")
    folds = stratified_folds(y, n_splits=10, seed=0)
    grid = paper01.cross_validate_grid(X, y, folds, TINY, constrained=False)
    results = paper01.run(paper01.Config(names=("haberman",), seeds=(0,), grid=TINY, nested=False))
    fig, ax = plt.subplots()
    paper01.plot_errors_vs_s(ax, results, "haberman", paper=paper01.paper_table1().loc["haberman"])
    lines = {line.get_label(): line for line in ax.get_lines()}
    for t, ball_type in enumerate(TINY.dlm_types):
        end = int(grid.dlm_balls[t].max())
        assert len(lines[f"DLM {ball_type}"].get_xdata()) == end
        # for each s, the smallest total over the penalties
        best = grid.dlm_errors[t].sum(axis=-1).reshape(-1, TINY.dlm_s_max).min(axis=0)
        np.testing.assert_array_equal(lines[f"DLM {ball_type}"].get_ydata(), best[:end])
    assert lines["SVM (best)"].get_ydata()[0] == grid.svm_errors.sum(axis=-1).min()
    star = lines["paper DLM (s, errors)"]
    assert (star.get_xdata()[0], star.get_ydata()[0]) == (7, 65)
    plt.close(fig)
    fine = paper01.fine_grid_protocol(["haberman"], seeds=(0,), penalties=(1.0, 2.0), s_max=3)
    fig = paper01.figure_penalty_heatmap(fine, "haberman")
    assert len(fig.axes) == 3  # two panels and the colour bar
    plt.close(fig)


def former_run_table1(names, *, seeds, grid, nested=True, inner_splits=3, n_jobs=1) -> dict:
    """The protocol as it was before ``run`` (the reference of the builders' test), composed of
    paper01's public protocol functions. Returns the nested dict of the old protocol: ``examples`` {name: (m, n_features,
    n_positive)}, ``main`` {name: GridResults of the main seed}, ``a`` {name: {seed:
    paper_protocol dict}}, ``b`` {name: nested dict}, ``c`` / ``c_corrected`` {name:
    bound_selected_dlm dict}, ``seeds``.
    """
    names = list(names)
    out = {"examples": {}, "main": {}, "a": {}, "b": {}, "c": {}, "c_corrected": {}, "seeds": list(seeds)}
    for name in names:
        part = _former_dataset(
            name, seeds=tuple(seeds), grid=grid, nested=nested, inner_splits=inner_splits, n_jobs=n_jobs
        )
        for key, value in part.items():
            out[key][name] = value
    return out


def _former_dataset(name, *, seeds, grid, nested, inner_splits, n_jobs=1) -> dict:
    """Every protocol of :func:`former_run_table1` on one data set: ``{key of run: value for name}``."""
    part = {"a": {}}
    X, y = paper01.load_table1_dataset(name)
    D = cdist(X, X)
    part["examples"] = (X.shape[0], X.shape[1], int(y.sum()))
    for k, seed in enumerate(seeds):
        folds = stratified_folds(y, n_splits=10, seed=seed)
        results = paper01.cross_validate_grid(X, y, folds, grid, D=D, constrained=(k == 0), n_jobs=n_jobs)
        part["a"][seed] = paper01.paper_protocol(results)
        if k == 0:
            part["main"] = results
            part["c"] = paper01.bound_selected_dlm(results, "published")
            part["c_corrected"] = paper01.bound_selected_dlm(results, "corrected")
            if nested:
                part["b"] = paper01.nested_protocol(
                    X, y, folds, grid, outer=results, D=D, inner_splits=inner_splits, seed=seed, n_jobs=n_jobs
                )
    return part


SMALL = paper01.Config(names=("haberman", "glass"), seeds=(0, 1), grid=TINY, inner_splits=2)


@pytest.fixture(scope="module")
def small_run():
    return paper01.run(SMALL), former_run_table1(list(SMALL.names), seeds=SMALL.seeds, grid=TINY, inner_splits=2)


def test_run_is_one_row_per_fold_of_each_protocol(small_run):
    results, _ = small_run
    keys = ["dataset", "method", "seed", "fold"]
    assert not results.duplicated(keys).any()
    per_method = results.groupby(["dataset", "method", "seed"]).size()
    assert (per_method == 10).all()
    main = results[results["seed"] == 0]
    assert set(main.loc[main["protocol"] != "s", "method"]) == {
        "SVM (a)", "SCM (a)", "DLM (a)", "DLM constrained (a)", "SVM (b)", "SCM (b)", "DLM (b)",
        "DLM (c) published", "DLM (c) corrected",
    }
    # the other seed repeats protocol (a) of the unconstrained machines only
    other = results[(results["seed"] == 1) & (results["protocol"] != "s")]
    assert set(other["method"]) == {"SVM (a)", "SCM (a)", "DLM (a)"}
    # every fold's test set: the ten folds partition each data set
    for name, m in (("haberman", 294), ("glass", 214)):
        rows = results[(results["dataset"] == name) & (results["method"] == "DLM (a)") & (results["seed"] == 0)]
        assert rows["n_test"].sum() == m
    assert results["s"].dtype == "Int64" and (results["errors"] >= 0).all()


def test_builders_over_the_tidy_frame_give_the_nested_dict_numbers(small_run):
    results, old = small_run
    totals = paper01.total_errors(results)
    for name in SMALL.names:
        for seed in SMALL.seeds:
            for machine in ("svm", "scm", "dlm"):
                method = f"{paper01.MACHINE_NAMES[machine]} (a)"
                assert totals[(name, method, seed)] == old["a"][name][seed][machine]["errors"]
    errors = paper01.errors_table(results)
    assert errors.loc[("Haberman", "DLM"), "ours"] == old["a"]["haberman"][0]["dlm"]["errors"]
    assert errors.loc[("Glass", "SVM"), "seed_max"] == max(old["a"]["glass"][s]["svm"]["errors"] for s in (0, 1))
    protocols = paper01.protocols_table(results)
    for name, display in (("haberman", "Haberman"), ("glass", "Glass")):
        row = protocols.loc[display]
        assert row["a_dlm_constrained"] == old["a"][name][0]["dlmc"]["errors"]
        assert [row[f"b_{m}"] for m in ("svm", "scm", "dlm")] == [old["b"][name][m]["errors"] for m in
                                                                    ("svm", "scm", "dlm")]
        assert (row["c_dlm_bound"], row["c_dlm_corrected"]) == (old["c"][name]["errors"],
                                                                 old["c_corrected"][name]["errors"])
        assert row["c_corrected_balls"] == round(old["c_corrected"][name]["size"], 1)
        check = paper01.bound_check_table(results).loc[(display, "published")]
        chosen = old["c"][name]["chosen"]
        assert check["mean_bound"] == chosen["bound"].mean()
        assert check["mean_test_error"] == chosen["test_error"].mean()
        assert check["folds_bound_below_train"] == int((chosen["bound"] < chosen["train_error"]).sum())
        best = old["a"][name][0]["dlm"]
        assert paper01.parameters_table(results).loc[display, "ours_dlm"] == (
            f"{best['T']} p_n={best['p_n']:g} p_p={best['p_p']:g} s={best['s']}"
        )
        sizes = paper01.sparsity_frame(results).set_index(["dataset", "source"]).loc[(display, "ours")]
        assert sizes["svm_size"] == old["a"][name][0]["svm"]["size"]
        assert sizes["scm_size"] == old["a"][name][0]["scm"]["size"]


def test_metric_table_reads_l2_from_the_run(small_run):
    results, _ = small_run
    refitted = paper01.metric_table(["haberman"], grid=TINY, metrics=("l2",))
    read = paper01.metric_table(["haberman"], grid=TINY, metrics=("l2",), results=results)
    pd.testing.assert_frame_equal(refitted, read)
    # seed 1 of the run: a different fold split, read from its rows
    other = paper01.metric_table(["haberman"], seed=1, grid=TINY, metrics=("l2",), results=results)
    pd.testing.assert_frame_equal(other, paper01.metric_table(["haberman"], seed=1, grid=TINY, metrics=("l2",)))


def test_datasets_registry_loads_the_positive_class():
    entry = paper01.DATASETS["haberman"]
    assert entry.options == {"drop_contradictory": True} and entry.positive == 2
    X, y = paper01.load_table1_dataset("haberman")
    _, labels = entry.load()
    np.testing.assert_array_equal(y, (labels.to_numpy() == 2).astype(int))
    assert 0 < y.sum() < len(y)
