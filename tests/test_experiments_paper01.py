"""Tests of notebook 01's protocol (companion.experiments.paper01) with its follow-ups.

The protocol is checked against brute force: every grid point refitted directly with the
estimators (no shared sorted distances, no staged predictions, scikit-learn's own RBF kernel),
not against paper01's own functions.
"""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from sklearn.svm import SVC

from companion.bounds.decision_list import dlm_bound_path
from companion.decision_list import BallSetCoveringMachine, DecisionListMachine
from companion.evaluation import stratified_folds
from companion import claims as C
from companion.experiments import paper01
from companion.experiments.paper01 import _claims, _figures, _followups, _grids, _math_checks, _prose, _studies, _tables
from companion.experiments.paper01._figures import plot_errors_vs_s
from companion.experiments.paper01._grids import DATASETS, Grid, cross_validate_grid
from companion.experiments.paper01._protocol import paper_protocol
from companion.experiments.paper01._tables import paper_table1
from companion.experiments.paper01._claims import _often_check, _table1_often, claims_measures
from companion.experiments.paper01._followups import _BuildDLMVariant, list_lengths
from companion.experiments.paper01._studies import (
    _coverage_run,
    _coverage_summary,
    sample_coverage_distribution,
)


def _random_problem(seed, m=60):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(m, 3)), 1)  # rounding makes ties between distances
    y = (X[:, 0] + rng.normal(scale=0.8, size=m) > 0).astype(int)
    return X, y


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("ball_type", ["simple", "complex"])
def test_tie_rule_variant_with_defaults_learns_the_estimators_list(seed, ball_type):
    X, y = _random_problem(seed)
    dlm = DecisionListMachine(scale=None, p_p=1.5, p_n=2.0, s=6, ball_type=ball_type, fallback=None).fit(X, y)
    variant = _BuildDLMVariant(p_p=1.5, p_n=2.0, s=6, ball_type=ball_type).fit(X, y)
    assert variant.balls_ == dlm.balls_
    other = _BuildDLMVariant(p_p=1.5, p_n=2.0, s=6, ball_type=ball_type, removal="covered").fit(X, y)
    # removing only the correctly classified examples leaves the errors in S': never a longer list
    # of fewer candidates; at least the first ball is the same
    assert other.n_balls_ == 0 or other.balls_[0] == dlm.balls_[0]


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="nominal"):
        _grids.load_table1_dataset("credit", nominal="binary")
    with pytest.raises(ValueError, match="folds"):
        list_lengths("glass", folds="loo")
    with pytest.raises(ValueError, match="n_runs"):
        _studies.bound_coverage(0)
    with pytest.raises(ValueError, match="tie rules"):
        _followups.tie_rule_protocol(("haberman",), rules=("random",))


TINY = Grid(
    dlm_penalties=(1.0, 2.0), dlm_s_max=3, scm_penalties=(1.0,), scm_s_max=2, svm_gamma_factors=(1.0,), svm_Cs=(1.0,)
)
SMALL = paper01.Config(names=("haberman", "glass"), seeds=(0, 1), grid=TINY, inner_splits=2)


@pytest.fixture(scope="module")
def small_run():
    return paper01.run(SMALL)


def _brute_force_totals(X, y, folds, grid, gammas=None, constrained=False):
    """Total test errors of every grid point, each machine fitted directly for each ``s``."""
    dlm, scm, svm = {}, {}, {}
    for train, test in folds:
        for ball_type in grid.dlm_types:
            for p_p in grid.dlm_penalties:
                for p_n in grid.dlm_penalties:
                    for s in range(1, grid.dlm_s_max + 1):
                        model = DecisionListMachine(scale=None, p_p=p_p, p_n=p_n, s=s, ball_type=ball_type,
                                                    compression_constraint=constrained, fallback=None).fit(X[train], y[train])
                        key = (ball_type[0], p_p, p_n, s)
                        dlm[key] = dlm.get(key, 0) + int((model.predict(X[test]) != y[test]).sum())
        for model_type in grid.scm_types:
            for p in grid.scm_penalties:
                for s in range(1, grid.scm_s_max + 1):
                    model = BallSetCoveringMachine(scale=None, p=p, s=s, model_type=model_type, fallback=None).fit(X[train], y[train])
                    key = (model_type[0], p, s)
                    scm[key] = scm.get(key, 0) + int((model.predict(X[test]) != y[test]).sum())
        for gamma in gammas if gammas is not None else ():
            for C in grid.svm_Cs:
                model = SVC(kernel="rbf", gamma=gamma, C=C).fit(X[train], y[train])
                svm[(gamma, C)] = svm.get((gamma, C), 0) + int((model.predict(X[test]) != y[test]).sum())
    return dlm, scm, svm


def test_protocol_a_is_the_brute_force_minimum(small_run):
    results = small_run
    for name in SMALL.names:
        X, y = _grids.load_table1_dataset(name)
        folds = stratified_folds(y, n_splits=10, seed=0)
        gamma = float(results.loc[(results["dataset"] == name) & (results["method"] == "SVM (a)"), "gamma"].iloc[0])
        dlm, scm, svm = _brute_force_totals(X, y, folds, TINY, gammas=[gamma])
        part = results[(results["dataset"] == name) & (results["seed"] == 0)]
        for method, totals in (("DLM (a)", dlm), ("SCM (a)", scm), ("SVM (a)", svm)):
            rows = part[part["method"] == method]
            assert rows["errors"].sum() == min(totals.values()), (name, method)
        first = part[part["method"] == "DLM (a)"].iloc[0]
        assert dlm[(first["T"], first["p_p"], first["p_n"], int(first["s"]))] == min(dlm.values())
        # the median-scaled gamma: factor 1 over the median squared distance of distinct pairs
        d2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=-1)[np.triu_indices(len(X), 1)]
        assert gamma == pytest.approx(1.0 / np.median(d2[d2 > 0]), rel=1e-12)


def test_bound_selection_takes_the_smallest_bound_of_the_training_fold(small_run):
    results = small_run
    X, y = _grids.load_table1_dataset("haberman")
    train, test = stratified_folds(y, n_splits=10, seed=0)[3]
    bounds = {}
    for ball_type in TINY.dlm_types:
        for p_p in TINY.dlm_penalties:
            for p_n in TINY.dlm_penalties:
                model = DecisionListMachine(scale=None, p_p=p_p, p_n=p_n, s=TINY.dlm_s_max, ball_type=ball_type,
                                            compression_constraint=True, fallback=None).fit(X[train], y[train])
                path = dlm_bound_path(model, variant="corrected")
                for t, bound in enumerate(path):
                    if np.isfinite(bound):
                        bounds[(ball_type[0], p_p, p_n, t + 1)] = bound
    row = results[(results["dataset"] == "haberman") & (results["method"] == "DLM (c) corrected")
                  & (results["seed"] == 0) & (results["fold"] == 3)].iloc[0]
    assert row["bound"] == pytest.approx(min(bounds.values()), rel=1e-9)
    chosen = DecisionListMachine(scale=None, p_p=row["p_p"], p_n=row["p_n"], s=int(row["s"]),
                                 ball_type="simple" if row["T"] == "s" else "complex",
                                 compression_constraint=True, fallback=None).fit(X[train], y[train])
    assert row["errors"] == int((chosen.predict(X[test]) != y[test]).sum())


def test_run_is_one_row_per_fold_of_each_protocol(small_run):
    results = small_run
    keys = ["dataset", "method", "seed", "fold"]
    assert not results.duplicated(keys).any()
    per_method = results.groupby(["dataset", "method", "seed"]).size()
    assert (per_method == 10).all()
    main = results[results["seed"] == 0]
    assert set(main.loc[main["protocol"] != "s", "method"]) == {
        "SVM (a)", "SCM (a)", "DLM (a)", "DLM constrained (a)", "SVM (b)", "SCM (b)", "DLM (b)",
        "DLM (c) published", "DLM (c) corrected",
    }
    # the other seed repeats protocols (a) and (b) and the constrained DLM under (a) (every claim is
    # re-decided there, claim C too), not the bound selection (c)
    other = results[(results["seed"] == 1) & (results["protocol"] != "s")]
    assert set(other["method"]) == {"SVM (a)", "SCM (a)", "DLM (a)", "DLM constrained (a)", "SVM (b)", "SCM (b)",
                                    "DLM (b)"}
    # every fold's test set: the ten folds partition each data set
    for name, m in (("haberman", 294), ("glass", 214)):
        rows = results[(results["dataset"] == name) & (results["method"] == "DLM (a)") & (results["seed"] == 0)]
        assert rows["n_test"].sum() == m
    assert results["s"].dtype == "Int64" and (results["errors"] >= 0).all()


def test_builders_read_the_tidy_frame(small_run):
    results = small_run
    part = results[(results["dataset"] == "glass") & (results["seed"] == 0)]
    protocols = _tables.protocols_table(results).loc["Glass"]
    for column, method in (("a_dlm", "DLM (a)"), ("b_scm", "SCM (b)"), ("c_dlm_corrected", "DLM (c) corrected")):
        assert protocols[column] == part.loc[part["method"] == method, "errors"].sum()
    errors = _tables.errors_table(results)
    seeds = [results[(results["dataset"] == "glass") & (results["method"] == "SVM (a)") & (results["seed"] == s)]
             ["errors"].sum() for s in (0, 1)]
    assert errors.loc[("Glass", "SVM"), "seed_max"] == max(seeds) and errors.loc[("Glass", "SVM"), "paper"] == 34
    check = _tables.bound_check_table(results).loc[("Glass", "published")]
    chosen = part[part["method"] == "DLM (c) published"]
    assert check["folds_bound_below_train"] == int((chosen["bound"] < chosen["train_error"]).sum())


def test_fine_and_tie_rule_protocols_select_the_brute_force_minimum(small_run):
    X, y = _grids.load_table1_dataset("haberman")
    folds = stratified_folds(y, n_splits=10, seed=0)
    dlm, scm, _ = _brute_force_totals(X, y, folds, TINY)
    fine = _followups.fine_grid_protocol(["haberman"], seeds=(0,), penalties=(1.0, 2.0), s_max=3,
                                        scm_penalties=(1.0,), scm_s_max=2)
    assert fine["best"].iloc[0]["errors"] == min(dlm.values())
    assert fine["scm_best"].iloc[0]["errors"] == min(scm.values())
    assert sum(fine["best"].iloc[0]["fold_errors"]) == min(dlm.values())
    assert fine["totals"][("haberman", 0)].shape == (2, 2, 2, 3)
    tie = _followups.tie_rule_protocol(["haberman"], seeds=(0,), grid=TINY, rules=("larger_cover", "fewest_errors"))
    assert tie.set_index("rule").loc["larger_cover", "errors"] == min(dlm.values())
    # read from the run instead of refitted: the same numbers
    table = _followups.tie_rule_table(tie, small_run)
    assert table.loc[("Haberman", "larger_cover"), "seed 0"] == min(dlm.values())
    assert table.loc[("Haberman", "fewest_errors"), "seed 0"] == tie.set_index("rule").loc["fewest_errors", "errors"]


def test_svm_gamma_protocol_is_the_brute_force_minimum():
    X, y = _grids.load_table1_dataset("glass")
    folds = stratified_folds(y, n_splits=10, seed=0)
    gammas, Cs = (1e-2, 1.0), (1.0, 10.0)
    totals = {}
    for train, test in folds:
        for gamma in gammas:
            for C in Cs:
                model = SVC(kernel="rbf", gamma=gamma, C=C).fit(X[train], y[train])
                totals[(gamma, C)] = totals.get((gamma, C), 0) + int((model.predict(X[test]) != y[test]).sum())
    row = _followups.svm_gamma_protocol(["glass"], gammas=gammas, Cs=Cs).iloc[0]
    assert row["errors"] == min(totals.values()) and totals[(row["gamma"], row["C"])] == row["errors"]
    assert totals[(row["near_gamma"], row["near_C"])] == row["near_errors"]


def test_claims_report_on_a_small_run(small_run):
    lengths = {s: _followups.list_length_table(("haberman", "glass"), seed=s, variants=_followups.LENGTH_VARIANTS[:1])
               for s in (0, 1)}
    variants = _claims.claims_variants(small_run, lengths=lengths)
    assert list(variants) == ["main", "seed=1", _claims.NESTED, f"{_claims.NESTED} at seed 1", _claims.NESTED_SEEDS,
                              "constraint=on", _claims.PEER_TABLE1, f"{_claims.PEER_TABLE1} at seed 1", "factor=20",
                              "factor=30"]
    # the constraint variant puts the constrained DLM (protocol (a), main seed) in the DLM's place
    constrained = variants["constraint=on"]["rows"]
    assert all(constrained[(n, "dlm", 0)] == variants["main"]["rows"][(n, "dlmc", 0)] for n in ("haberman", "glass"))
    assert constrained[("glass", "dlm", 1)] == variants["main"]["rows"][("glass", "dlm", 1)]
    math = _math_checks.math_checks(0)
    report = _claims.claims_report(variants, math)
    table = report.table.set_index("id")
    assert list(table.index) == [e["id"] for e in C.load_registry("01").entries]
    # claims 1 and 2 pair the test folds of the paper's protocol (a): one difference per fold of
    # each data set at the variant's seed, with its data set and n_test / n_train (corrected t)
    def fold_differences(protocol, seed, other):
        rows = small_run[(small_run["protocol"] == protocol) & (small_run["seed"] == seed)]
        fold = rows.pivot_table(index=["dataset", "fold"], columns="machine", values=["errors", "n_test"])
        return sorted(Fraction(100 * (int(e["dlm"]) - int(e[other])), int(n["dlm"]))
                      for (_, e), (_, n) in zip(fold["errors"].iterrows(), fold["n_test"].iterrows()))
    measures = claims_measures(math)
    d, groups, ratios = measures["dlm_minus_scm"](variants["seed=1"])
    assert sorted(d) == fold_differences("a", 1, "scm") and len(d) == 20
    assert sorted(set(groups)) == ["glass", "haberman"] and all(0.1 < r < 0.125 for r in ratios)
    # the honest check: nested CV (protocol (b)) for the three machines, main seed and seed 1
    assert sorted(measures["dlm_minus_svm"](variants[_claims.NESTED])[0]) == fold_differences("b", 0, "svm")
    assert sorted(measures["dlm_minus_svm"](variants[f"{_claims.NESTED} at seed 1"])[0]) == fold_differences("b", 1, "svm")
    # the honest check of the fold-difference claims: nested CV at every fold seed, one corrected t
    # over the folds of both seeds, each data set one group of 20 folds
    d, groups, ratios = measures["dlm_minus_svm"](variants[_claims.NESTED_SEEDS])
    assert sorted(d) == sorted(fold_differences("b", 0, "svm") + fold_differences("b", 1, "svm"))
    assert sorted(groups.count(g) for g in set(groups)) == [20, 20] and len(ratios) == 40
    assert table.loc["1", "check_variant"] == _claims.NESTED_SEEDS and table.loc["1", "test"] == "corrected_t"
    # broken: a pooled variant without the nested rows of one seed is not measured
    broken = {**variants[_claims.NESTED_SEEDS], "pool_seeds": [0, 1, 7]}
    assert measures["dlm_minus_svm"](broken) is None
    # the constrained DLM runs under (a), on the main seed only, and its claim reads (a) on both
    # sides in every variant
    paper_rows = small_run[(small_run["protocol"] == "a") & (small_run["seed"] == 0)]
    fold = paper_rows.pivot_table(index=["dataset", "fold"], columns="machine", values=["errors", "n_test"])
    expected_c = sorted(Fraction(100 * (int(e["dlmc"]) - int(e["dlm"])), int(n["dlm"]))
                        for (_, e), (_, n) in zip(fold["errors"].iterrows(), fold["n_test"].iterrows()))
    c_diff, c_groups, c_ratios = measures["constrained_minus_dlm"](variants["main"])  # corrected t, as claims 1, 2
    assert sorted(c_diff) == expected_c and sorted(set(c_groups)) == ["glass", "haberman"] and len(c_ratios) == 20
    assert measures["constrained_minus_dlm"](variants[_claims.NESTED]) == measures["constrained_minus_dlm"](variants["main"])
    assert table.loc["C", "test"] == "corrected_t"
    # claim C at the other fold seed: the constrained DLM of that seed against its DLM (protocol (a))
    other_rows = small_run[(small_run["protocol"] == "a") & (small_run["seed"] == 1)]
    fold1 = other_rows.pivot_table(index=["dataset", "fold"], columns="machine", values=["errors", "n_test"])
    expected_c1 = sorted(Fraction(100 * (int(e["dlmc"]) - int(e["dlm"])), int(n["dlm"]))
                         for (_, e), (_, n) in zip(fold1["errors"].iterrows(), fold1["n_test"].iterrows()))
    assert sorted(measures["constrained_minus_dlm"](variants["seed=1"])[0]) == expected_c1
    # broken: without the other seed's constrained rows claim C is not measured there
    no_c1 = {**variants["seed=1"], "rows_paper": {k: v for k, v in variants["seed=1"]["rows_paper"].items()
                                                  if not (k[1] == "dlmc" and k[2] == 1)}}
    assert measures["constrained_minus_dlm"](no_c1) is None
    # the exact checks read the run
    dlm = {s: small_run[(small_run["method"] == "DLM (a)") & (small_run["seed"] == s)].groupby("dataset")["errors"].sum()
           for s in (0, 1)}
    in_range = all(min(dlm[0][n], dlm[1][n]) <= t <= max(dlm[0][n], dlm[1][n]) for n, t in (("haberman", 65), ("glass", 28)))
    assert table.loc["R-DLM", "verdict"] == ("agrees" if in_range else "differs")
    reach = (lengths[0]["min_length"] >= lengths[0]["paper_s"]).all()
    assert table.loc["L", "verdict"] == ("agrees" if reach else "differs")
    # "often" compares the protocol-(a) totals; its honest check the nested ones
    for protocol, column in (("a", "verdict"), ("b", "check_verdict")):
        totals = {m: small_run[(small_run["method"] == f"{m} ({protocol})") & (small_run["seed"] == 0)]
                  .groupby("dataset")["errors"].sum() for m in ("DLM", "SCM")}
        wins = sum(totals["DLM"][n] < totals["SCM"][n] for n in ("haberman", "glass"))
        losses = sum(totals["DLM"][n] > totals["SCM"][n] for n in ("haberman", "glass"))
        assert table.loc["1-often", column] == ("holds" if wins > losses else "fails")
    # the paper's own statements checked exactly, whatever the run
    for id, verdict in (("Rivest-1", "holds"), ("alternation", "fails"), ("strict", "holds"), ("log2r", "holds"),
                        ("zeta", "agrees"), ("reconstruction", "holds"), ("types", "holds"), ("centres", "holds"),
                        ("Rivest-inf", "holds"), ("1-often-table1", "passes"), ("2-often-table1", "passes")):
        assert table.loc[id, "verdict"] == verdict, id
    # no seed can change a mathematical check: it lists no seed variant, and no "seeds keep" is printed
    assert table.loc["Rivest-1", "seeds"] == "" and table.loc["R-DLM", "seeds"] == ""
    # a variant that leaves a claim's data as they are is shown as "=", one it does not list is blank
    pivot = _claims.sensitivity_pivot(report)
    assert pivot.shape == (len(table), 12)  # the variants, then C's margins 0.5 and 2
    # transposed for the notebook: one row per variant, a column per claim that lists a variant
    by_variant = _claims.sensitivity_by_variant(report)
    assert list(by_variant.index) == list(pivot.columns) and "3" in by_variant and "Rivest-1" not in by_variant
    assert by_variant.T.equals(pivot.loc[by_variant.columns].fillna(""))
    # the sparsity factor is varied; the bound claims are mathematical, the aims observations
    assert pivot.loc["3", "factor=20"] in ("holds", "fails", "=") and pivot.loc["1", "factor=20"] == ""
    assert table.loc["B", "category"] == "mathematical" and table.loc["B", "formula"] == "reconstructed"
    assert table.loc["bound-guide", "origin"] == "observation" and table.loc["bound-guide", "category"] == "aim"
    assert table.loc["zeta", "category"] == "conformance"
    assert pivot.loc["3", "seed=1"] in ("holds", "fails") and pivot.loc["Rivest-1", "seed=1"] == ""
    # claim small-dlm is not evaluated without the consistent DLMs
    assert table.loc["small-dlm", "verdict"] == "n/a" and table.loc["small-dlm", "category"] == "aim"


def test_math_checks_hold_on_the_code_and_fail_on_broken_inputs(monkeypatch):
    rng = np.random.default_rng(0)
    results = _math_checks.math_checks(0)
    assert set(results) == set(_math_checks.CHECKS) and all(ok for ok, _ in results.values())
    assert "0 where the ball appended errs" in results["math_Rivest_1"][1]
    # broken inputs: each check can fail
    from companion.decision_list import DecisionListMachine as Real

    class Finite(Real):  # "p_p = p_n = 1" read literally: a finite penalty admits erring balls
        def __init__(self, **kw):
            kw.update(p_p=0.5, p_n=0.5) if kw.get("p_p") == np.inf else None
            super().__init__(**kw)

    monkeypatch.setattr(_math_checks, "DecisionListMachine", Finite)
    assert not _math_checks.check_rivest_greedy(np.random.default_rng(0))[0]
    assert not _math_checks.check_rivest_zero_error(np.random.default_rng(0))[0]
    monkeypatch.undo()

    class Complex(Real):  # Po/No balls may reuse a centre
        def __init__(self, **kw):
            kw["ball_type"] = "complex"
            super().__init__(**kw)

    monkeypatch.setattr(_math_checks, "DecisionListMachine", Complex)
    assert not _math_checks.check_centres(np.random.default_rng(0), n_problems=6)[0]
    monkeypatch.undo()
    monkeypatch.setattr(_math_checks, "reconstruct_decision_list",
                        lambda message: SimpleNamespace(predict01=lambda X: np.zeros(len(X), dtype=int)))
    assert not _math_checks.check_reconstruction(rng)[0]
    monkeypatch.undo()
    monkeypatch.setattr(_math_checks, "zeta", lambda a: 1 / (np.asarray(a, dtype=float) + 1) ** 2)  # no 6/pi^2
    assert not _math_checks.check_zeta()[0]
    monkeypatch.undo()
    # usefulness without the penalty of the errors: a ball of no type wins
    monkeypatch.setattr(_math_checks, "_usefulness_terms",
                        lambda inside, y, p_p, p_n, c: (float(np.sum(inside)), -float(np.sum(inside))))
    assert not _math_checks.check_types(np.random.default_rng(0))[0]


def test_small_dlm_and_bound_guide_measures():
    data = {"rows": {("glass", "dlm", 0): {"errors": 30, "size": 3.0, "folds": [3] * 10, "fold_n": [21] * 10},
                     ("haberman", "dlm", 0): {"errors": 80, "size": 2.0, "folds": [8] * 10, "fold_n": [30] * 10}},
            "seed": 0, "consistent": {("glass", 0): {"errors": 35, "balls": 19.0, "train_errors": 0},
                                      ("haberman", 0): {"errors": 80, "balls": 46.0, "train_errors": 0}}}
    ok, detail = _claims._small_beats_consistent(data)
    assert ok and "on 1 of 2 data sets" in detail
    data["consistent"][("glass", 0)]["errors"] = 30
    assert not _claims._small_beats_consistent(data)[0]
    guide = {"seed": 0, "main_seed": 0, "guide_published": {"glass": {"c": [4] * 10, "b": [3] * 10, "fold_n": [21] * 10}}}
    d, groups, ratios = _claims._guide_grouped(guide)
    assert d == [Fraction(100, 21)] * 10 and groups == ["glass"] * 10 and ratios[0] == pytest.approx(21 / 189)
    assert _claims._guide_grouped({**guide, "seed": 1}) is None


def test_often_criterion_on_the_papers_own_table1():
    # "often": more wins than losses; Table 1 (six comparable data sets): against the SCM 3 wins
    # (BreastW, Haberman, Glass), a tie (Pima), 2 losses; against the SVM 4 wins, 2 losses
    ok, detail = _table1_often(None, "scm")
    assert ok and detail.startswith("3 wins, 1 tie and 2 losses over 6 data sets")
    ok, detail = _table1_often(None, "svm")
    assert ok and detail.startswith("4 wins, 0 ties and 2 losses")
    assert _often_check({"glass": (3, 5), "pima": (5, 3)}, "scm")[0] is False  # as many wins as losses


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
    row = _followups.fine_grid_table({"best": best}, coarse).loc["Pima"]
    assert row["paper"] == 189 and row["fine_mean"] == 188 and row["fine_sd"] == pytest.approx(2.0)
    assert (row["fine_min"], row["fine_max"], row["coarse_mean"], row["coarse_max"]) == (186, 190, 194, 198)
    assert row["paper_in_fine_range"] and row["difference"] == -1


def test_tie_rules_part_at_breastw_step_8():
    # step 3's ">=" read literally (output 1 first) vs our larger-cover rule
    out = _followups.first_tie_rule_divergence("breastw", p_p=1.0, p_n=np.inf)
    assert out["step"] == 8
    assert out["output_one_first"]["output"] == 1 and out["larger_cover"]["output"] == 0


def test_ordinal_coding_and_names():
    X1, _, names1 = _grids.load_table1_dataset("credit", return_names=True)
    X2, _, names2 = _grids.load_table1_dataset("credit", nominal="ordinal", return_names=True)
    assert X1.shape[1] == len(names1) == 42 and X2.shape[1] == len(names2) == 15
    assert "A6" in names2 and "A6=c" in names1
    # each one-hot block has exactly one 1 per row; the ordinal column holds its position
    block = [i for i, n in enumerate(names1) if n.startswith("A6=")]
    np.testing.assert_array_equal(X1[:, block].argmax(axis=1), X2[:, names2.index("A6")])


def test_list_lengths_at_most_s():
    out = list_lengths("glass", removal="covered")
    assert len(out["lengths"]) == 10 and max(out["lengths"]) <= out["s"] == 12


def test_coverage_summary_on_a_tiny_case():
    frame = pd.DataFrame(
        {
            "machine": ["DLM"] * 3,
            "params": ["p_p=1 p_n=1"] * 3,
            "prefix": [1, 2, 3],
            "risk": [0.30, 0.20, 0.25],
            "risk_low": [0.29, 0.19, 0.24],
            "train_error": [0.3, 0.1, 0.2],
            "bound_published": [0.10, 0.50, np.nan],  # smallest bound 0.10 < risk 0.30
            "bound_corrected": [0.60, 0.40, 0.22],  # smallest bound 0.22 < risk 0.25
        }
    )
    out = _coverage_summary(frame)
    assert out[("DLM", "published")]["selected_violated"] and out[("DLM", "published")]["any_violated"]
    assert out[("DLM", "published")]["selected_risk"] == 0.30
    assert out[("DLM", "corrected")]["selected_bound"] == 0.22
    assert out[("DLM", "corrected")]["min_gap"] == pytest.approx(-0.03)
    frame["bound_corrected"] = [0.60, 0.40, 0.30]
    out = _coverage_summary(frame)
    assert not out[("DLM", "corrected")]["any_violated"]


def test_bound_coverage_machinery_and_counts():
    noise = {"positive_rate": 0.3, "shift": 0.0}
    kwargs = dict(m=60, n_test=2000, s_max=3, penalties=(1.0,), distribution=noise, seed=3)
    coverage = _studies.bound_coverage(3, **kwargs)
    # DLM (both theorems at once), DLM (Theorem 1), DLM (Theorem 2), SCM; two bounds each
    assert len(coverage) == 3 * 8 and set(coverage["bound"]) == {"published", "corrected"}
    assert set(coverage["machine"]) == {"DLM", "DLM (Theorem 1)", "DLM (Theorem 2)", "SCM (our bound)"}
    pd.testing.assert_frame_equal(coverage, _studies.bound_coverage(3, n_jobs=2, **kwargs))
    table = _studies.coverage_table(coverage)
    assert (table["runs"] == 3).all()
    assert table.loc[("DLM", "corrected"), "any_violated"] == 0
    # per machine, a valid bound lies above its training error; the corrected ones always do
    frame = _coverage_run(60, 2000, 3, (1.0,), noise, 5)
    finite = frame.dropna()
    assert (finite["bound_corrected"] >= finite["train_error"]).all()


def test_coverage_bayes_risk_matches_monte_carlo():
    rng = np.random.default_rng(0)
    X, y = sample_coverage_distribution(200_000, rng, positive_rate=0.35, shift=1.0)
    t = 0.5 + np.log(0.65 / 0.35)
    empirical = ((X[:, 0] > t).astype(int) != y).mean()
    assert _studies.coverage_bayes_risk(positive_rate=0.35, shift=1.0) == pytest.approx(empirical, abs=0.004)
    assert _studies.coverage_bayes_risk(positive_rate=0.3, shift=0.0) == pytest.approx(0.3)


def test_corrected_bounds_are_the_general_compression_bound():
    from companion.experiments.paper01._studies import compression_relation_table

    table = compression_relation_table()
    np.testing.assert_allclose(table["corrected"], table["theorem3"], rtol=1e-12)
    assert (table["log_message"] > 0).all()


def test_protocol_legend_covers_the_protocol_columns():
    columns = ["paper_dlm", "a_svm", "a_scm", "a_dlm", "a_dlm_constrained", "b_svm", "b_scm", "b_dlm",
               "c_dlm_bound", "c_dlm_balls", "c_dlm_corrected", "c_corrected_balls"]
    legend = " ".join(_prose.protocol_legend().index)
    assert all(c in legend for c in columns)


def test_metric_table_l2_column_is_protocol_a():
    X, y = _grids.load_table1_dataset("haberman")
    folds = stratified_folds(y, n_splits=10, seed=0)
    expected = paper_protocol(cross_validate_grid(X, y, folds, TINY, constrained=False))["dlm"]
    table = paper01.metric_table(["haberman"], grid=TINY, metrics=("l2", "linf"))
    assert table.loc["Haberman", "l2"] == expected["errors"]
    # a total of test errors over the folds: a whole number, at most the number of examples, and
    # better than always predicting the minority class
    linf = table.loc["Haberman", "linf"]
    assert float(linf).is_integer() and 0 <= linf < max(np.bincount(np.asarray(y, dtype=int)))


@pytest.mark.slow  # fits the figure's whole grid of lists
def test_figures_stop_curves_at_the_longest_list_and_mark_the_paper():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    X, y = _grids.load_table1_dataset("haberman")
    folds = stratified_folds(y, n_splits=10, seed=0)
    grid = cross_validate_grid(X, y, folds, TINY, constrained=False)
    results = paper01.run(paper01.Config(names=("haberman",), seeds=(0,), grid=TINY, nested=False))
    fig, ax = plt.subplots()
    plot_errors_vs_s(ax, results, "haberman", paper=paper_table1().loc["haberman"])
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
    fine = _followups.fine_grid_protocol(["haberman"], seeds=(0,), penalties=(1.0, 2.0), s_max=3)
    fig = _figures.figure_penalty_heatmap(fine, "haberman")
    assert len(fig.axes) == 3  # two panels and the colour bar
    plt.close(fig)


def test_metric_table_reads_l2_from_the_run(small_run):
    refitted = paper01.metric_table(["haberman"], grid=TINY, metrics=("l2",))
    read = paper01.metric_table(["haberman"], grid=TINY, metrics=("l2",), results=small_run)
    pd.testing.assert_frame_equal(refitted, read)


def test_datasets_registry_loads_the_positive_class():
    entry = DATASETS["haberman"]
    assert entry.options == {"drop_contradictory": True} and entry.positive == 2
    X, y = _grids.load_table1_dataset("haberman")
    _, labels = entry.load()
    np.testing.assert_array_equal(y, (labels.to_numpy() == 2).astype(int))
    assert 0 < y.sum() < len(y)


def test_the_sections_show_what_their_builders_give():
    """Each section of the notebook is one call composing the private builders: its tables and
    sentences are theirs, unchanged, and a section's refusal names the section."""
    toy = paper01.toy_section(seed=3, n_probe=200)
    X, y, machines = _figures.toy_dlm(seed=3)
    np.testing.assert_array_equal(toy.X, X)
    for kind, machine in machines.items():
        assert toy.machines[kind].to_text() == machine.to_text()
        assert toy.compression[kind].identical  # the list rebuilt from the compression set predicts the same
        np.testing.assert_array_equal(toy.compression[kind].path["bound"], dlm_bound_path(machine).round(3))
    datasets = paper01.datasets_section(["breastw", "haberman"])
    assert datasets.counts == _tables.dataset_counts(["breastw", "haberman"])
    assert datasets.notes.data == _prose.dataset_notes_markdown(datasets.counts).data
    from companion.experiments.paper01._sections import comparable_names

    assert comparable_names([]) == list(_grids.COMPARABLE)
    with pytest.raises(ValueError, match="'n_runs' parameter of coverage_section"):
        paper01.coverage_section(0, n_test=10, seed=0)


def test_math_section_shows_every_mathematical_check():
    from companion.experiments.paper01._sections import math_section

    table = math_section(0).table
    assert {"alternation", "strict_inclusion", "log2_r"} <= set(table.index)
    assert table.loc["alternation", "result"] == "fails" and table.loc["strict_inclusion", "result"] == "holds"
    assert table.loc["log2_r", "result"] == "holds"


def _rows(dlm_folds, scm_folds, fold_n=30, names=("breastw", "pima")):
    """A claims-data dict of protocol (a) at seed 0 with the given fold errors per data set."""
    rows = {}
    for name, d, c in zip(names, dlm_folds, scm_folds):
        rows[(name, "dlm", 0)] = {"errors": sum(d), "size": 3.0, "folds": list(d), "fold_n": [fold_n] * len(d)}
        rows[(name, "scm", 0)] = {"errors": sum(c), "size": 3.0, "folds": list(c), "fold_n": [fold_n] * len(c)}
    return {"rows": rows, "rows_paper": rows, "seed": 0}


def test_some_tested_counts_only_significant_data_sets():
    # BreastW: the DLM errs 3 less on every fold (significant); Pima: equal on average, noisy
    better = _rows([[1] * 10, [5, 6, 4, 5, 6, 4, 5, 6, 4, 5]], [[4] * 10, [5, 4, 6, 5, 4, 6, 5, 4, 6, 5]])
    assert _claims._some_tested(better) == (1, 2)
    assert "on 1 of 2 data sets" in _claims.some_tested_detail(better)
    # broken: a single raw win of 2 errors spread over noisy folds is no significant difference
    noisy = _rows([[3, 0, 4, 1, 2, 3, 0, 4, 1, 0], [5] * 10], [[2, 3, 1, 2, 3, 1, 2, 3, 1, 2], [5] * 10])
    assert sum(noisy["rows"][("breastw", "dlm", 0)]["folds"]) < sum(noisy["rows"][("breastw", "scm", 0)]["folds"])
    assert _claims._some_tested(noisy) == (0, 2)
    assert _claims._some(noisy)[0]  # the raw-count reading (1-some-raw) still sees a win


def test_sparsity_marks_the_ratios_the_cap_guarantees():
    data = {"rows": {("breastw", "svm", 0): {"size": 60.0}, ("breastw", "dlm", 0): {"size": 2.0},
                     ("pima", "svm", 0): {"size": 390.0}, ("pima", "dlm", 0): {"size": 5.0}},
            "seed": 0, "caps": {"dlm": 12, "scm": 10}}
    ok, detail = _claims._sparsity(data, "dlm")
    assert ok and "Pima 78.0x (by the cap)" in detail and "BreastW 30.0x;" not in detail
    assert "BreastW 30.0x," in detail or "BreastW 30.0x and" in detail
    assert "on 1 of 2 data sets, so tested on BreastW only" in detail
    # broken: without the cap nothing is marked; with a cap of 1 every ratio is guaranteed
    assert "by the cap" not in _claims._sparsity({**data, "caps": None}, "dlm")[1]
    assert "on 2 of 2 data sets, so tested on no data set" in _claims._sparsity({**data, "caps": {"dlm": 1}}, "dlm")[1]
    assert "tested on BreastW and Pima only" not in _claims._sparsity({**data, "caps": {"dlm": 1}}, "dlm")[1]


def test_figure1_conformance_reads_the_first_divergence():
    found = {"step": 8, "larger_cover": {"kind": "No", "output": 0, "length": 8},
             "output_one_first": {"kind": "Pi", "output": 1, "length": 9}}
    ok, detail = _claims._figure1_conformance({"figure1": found})
    assert not ok and "step 8" in detail and "a No ball (output 0)" in detail
    same = {"step": None, "larger_cover": {"kind": None, "output": None, "length": 8},
            "output_one_first": {"kind": None, "output": None, "length": 8}}
    assert _claims._figure1_conformance({"figure1": same})[0]
    assert _claims._figure1_conformance({}) is None


def test_constraint_difference_reading():
    def data(extra):
        rows = {}
        for name in ("breastw", "pima"):
            base = [3, 5, 2, 4, 3, 5, 2, 4, 3, 4]
            rows[(name, "dlm", 0)] = {"errors": sum(base), "size": 3.0, "folds": base, "fold_n": [30] * 10}
            c = [b + e for b, e in zip(base, extra)]
            rows[(name, "dlmc", 0)] = {"errors": sum(c), "size": 3.0, "folds": c, "fold_n": [30] * 10}
        return {"rows": rows, "rows_paper": rows, "seed": 0}
    ok, detail = _claims._constraint_not_significant(data([1, -1, 0, 1, -1, 0, 1, -1, 0, 0]))
    assert ok and "Nadeau–Bengio" in detail
    # broken: the constraint costs 3 errors on every fold: a significant variation
    assert not _claims._constraint_not_significant(data([3] * 10))[0]


def test_coverage_fixed_machines_and_the_designated_count():
    part = pd.DataFrame({"machine": ["DLM (Theorem 1)"] * 3, "params": ["p_p=1 p_n=1"] * 2 + ["p_p=2 p_n=1"],
                         "prefix": [1, 2, 1], "risk": [0.3, 0.3, 0.3], "risk_low": [0.29, 0.29, 0.29],
                         "bound_published": [0.5, 0.28, 0.295]})
    below, point, names = _studies._fixed_machines(part, "bound_published", 3)
    # p_p=1: s=1 above, s=2 and s=3 (the list stopped at 2) below the limit; p_p=2: 0.295 is below the
    # risk but not below its lower limit
    assert below.tolist() == [False, True, True, False, False, False]
    assert point.tolist() == [False, True, True, True, True, True]
    assert names[1] == "DLM (Theorem 1) p_p=1 p_n=1 s=2"
    runs = pd.DataFrame({"machine": ["DLM (Theorem 1)"] * 4, "bound": ["published"] * 4, "run": range(4),
                         "designated_violated": [True, False, False, False]})
    assert _claims._coverage_fixed({"coverage_trials": runs}, "DLM (Theorem 1)") == (1, 4)
    assert _claims._coverage_fixed({"coverage_trials": None}, "DLM (Theorem 1)") is None


def test_the_per_algorithm_coverage_pools_the_distributions_and_varies_each_alone():
    # Theorems 1-2 hold for every distribution: the main data pool the samples of both distributions
    # run, and each distribution alone is a variant (signal only, no signal)
    runs = pd.DataFrame({"distribution": ["signal (mu = 1)"] * 4 + ["no signal (mu = 0)"] * 4,
                         "machine": ["DLM (Theorem 1)"] * 8, "bound": ["published"] * 8, "run": list(range(4)) * 2,
                         "designated_violated": [True, False, False, False, True, True, True, False]})
    assert _claims._coverage_fixed({"coverage_trials": runs}, "DLM (Theorem 1)") == (4, 8)
    signal = _claims._distribution_runs(runs, 0)
    assert _claims._coverage_fixed({"coverage_trials": signal}, "DLM (Theorem 1)") == (1, 4)


def _fixed_runs(hits, n=20):
    """Coverage runs of two distributions and three fixed simple DLMs; ``hits[(distribution, s)]`` the
    runs (0-based) on which machine ``s`` is violated."""
    rows = []
    for label in ("signal (mu = 1)", "no signal (mu = 0)"):
        for run in range(n):
            names = [f"DLM (Theorem 1) p_p=1 p_n=1 s={s}" for s in (1, 2, 3)
                     if run in hits.get((label.split(" (")[0], s), ())]
            designated = f"DLM (Theorem 1) p_p=1 p_n=1 s={run % 3 + 1}"
            rows.append({"distribution": label, "machine": "DLM (Theorem 1)", "bound": "published", "run": run,
                         "fixed_violated": ";".join(names), "designated": designated,
                         "designated_violated": designated in names})
    return pd.DataFrame(rows)


def test_each_fixed_machine_is_tested_on_each_distribution():
    # within delta: one violation in 20 samples per machine and distribution: no test rejects
    ok, detail = _claims._coverage_each({"coverage_trials": _fixed_runs({("signal", 1): [0], ("no signal", 2): [5]})},
                                        "DLM (Theorem 1)")
    assert ok and "0 of 3 machines rejected" in detail
    # broken: one machine violated on 12 of the 20 samples of one distribution only refutes the theorem,
    # although the pooled designated count (the earlier design) stays small
    runs = _fixed_runs({("no signal", 2): range(0, 20, 5)})
    runs.loc[(runs["distribution"] == "no signal (mu = 0)") & (runs["run"] < 12), "fixed_violated"] = \
        "DLM (Theorem 1) p_p=1 p_n=1 s=3"
    ok, detail = _claims._coverage_each({"coverage_trials": runs}, "DLM (Theorem 1)")
    assert not ok and "no signal: 1 of 3 machines rejected" in detail and "on 12 of 20" in detail
    counts = _claims.coverage_fixed_counts(runs, "DLM (Theorem 1)")
    assert counts.set_index(["distribution", "fixed"])["k"].loc[("no signal (mu = 0)", "DLM (Theorem 1) p_p=1 p_n=1 s=3")] == 12
    assert _claims._coverage_each({"coverage_trials": None}, "DLM (Theorem 1)") is None


def test_bound_coverage_designates_each_fixed_machine_in_turn():
    noise = {"positive_rate": 0.3, "shift": 0.0}
    coverage = _studies.bound_coverage(3, m=60, n_test=2000, s_max=2, penalties=(1.0, 2.0), distribution=noise, seed=3)
    simple = coverage[(coverage["machine"] == "DLM (Theorem 1)") & (coverage["bound"] == "published")]
    assert simple["designated"].tolist() == ["DLM (Theorem 1) p_p=1 p_n=1 s=1", "DLM (Theorem 1) p_p=1 p_n=1 s=2",
                                              "DLM (Theorem 1) p_p=1 p_n=2 s=1"]
    for _, row in simple.iterrows():
        assert row["designated_violated"] == (row["designated"] in row["fixed_violated"].split(";"))
    assert ((coverage["fixed_share"] >= 0) & (coverage["fixed_share"] <= 1)).all()
    # the per-machine counts of the real runs: every fixed machine of the type, each counted on the runs
    # whose violated list names it
    counts = _claims.coverage_fixed_counts(coverage.assign(distribution="no signal"), "DLM (Theorem 1)")
    assert len(counts) == 3 and (counts["n"] == 3).all() and (simple["fixed_machines"] == 8).all()
    ok, detail = _claims._coverage_each({"coverage_trials": coverage.assign(distribution="no signal")}, "DLM (Theorem 1)")
    assert "Holm over the 8 tests" in detail and "of 8 machines" in detail
    for _, row in counts.iterrows():
        assert row["k"] == sum(row["fixed"] in str(v).split(";") for v in simple["fixed_violated"])


def test_glass_variants_replace_the_glass_rows_only(small_run):
    folds = {"1 vs rest": {m: {"errors": 99, "size": 1.0, "folds": [9] * 10 + [9], "fold_n": [20] * 11}
                           for m in ("svm", "scm", "dlm")},
             "float (1, 3) vs rest": {}}
    variants = _claims.claims_variants(small_run, glass=folds)
    main = variants["main"]
    if ("glass", "dlm", main["seed"]) not in main["rows"]:
        assert not any(name.startswith("glass=") for name in variants)
        return
    assert "glass=float 1 3 vs rest" not in variants
    glass = variants["glass=1 vs rest"]
    assert glass["rows"][("glass", "dlm", main["seed"])]["errors"] == 99
    assert all(glass["rows"][k] is main["rows"][k] for k in main["rows"] if k[0] != "glass")


def test_nested_run_repeats_the_runs_nested_protocol_and_another_inner_split_is_a_variant(small_run):
    from companion.experiments.paper01._protocol import nested_run

    keys = ["dataset", "machine", "fold", "errors", "n_test"]
    ours = small_run[(small_run["protocol"] == "b") & (small_run["seed"] == 0)][keys].reset_index(drop=True)
    again = nested_run(list(SMALL.names), seed=0, grid=SMALL.grid, inner_splits=SMALL.inner_splits)
    # the same outer folds and inner splits: the run's nested rows, fold by fold
    assert again[keys].sort_values(keys[:3]).reset_index(drop=True).equals(ours.sort_values(keys[:3]).reset_index(drop=True))
    # as the variant inner_splits=k of the claims, in place of the nested rows of the main seed
    variants = _claims.claims_variants(small_run, nested={SMALL.inner_splits: again})
    name = f"inner_splits={SMALL.inner_splits}"
    assert variants[name]["rows"][("haberman", "dlm", 0)] == variants[_claims.NESTED]["rows"][("haberman", "dlm", 0)]
    # broken: a nested run at another fold seed is not put in the main seed's place
    other = nested_run(["haberman"], seed=5, grid=SMALL.grid, inner_splits=SMALL.inner_splits)
    assert name not in _claims.claims_variants(small_run, nested={SMALL.inner_splits: other})


def test_the_empirical_results_are_counted_by_sentence():
    from types import SimpleNamespace

    table = pd.DataFrame({"id": ["1", "1-often", "2", "C", "C-nosig", "B"],
                          "origin": ["paper", "paper", "paper", "paper", "observation", "paper"],
                          "category": ["empirical", "empirical", "empirical", "empirical", "observation", "mathematical"],
                          "quote": ["often", "often", "often", "constraint", "constraint", "theorem"],
                          "where": ["S5"] * 3 + ["S4"] * 2 + ["S4"],
                          "verdict": ["holds", "fails", "undecided", "undecided", "observed", "fails"],
                          "robust": [True, False, True, True, True, True]})
    sentences = _claims.sentence_table(SimpleNamespace(table=table))
    # one row per sentence of the paper's empirical results; the observation and the theorem are not counted
    assert list(sentences["sentence"]) == ["often", "constraint"]
    assert sentences.loc[0, "rows"] == "1: holds; 1-often: fails (not robust); 2: undecided"
    assert list(sentences["reading"]) == ["rows disagree", "no row holds"]
    tally = _claims.sentence_tally(sentences, 4)
    assert "2 sentences judged as empirical results, in 4 rows" in tally and "1 whose rows disagree" in tally
    # broken: every row of the sentence holds
    agreeing = _claims.sentence_table(SimpleNamespace(table=table.assign(verdict="holds")))
    assert list(agreeing["reading"]) == ["every row holds", "every row holds"]


def test_nested_variants_reproduce_the_nested_run_and_notice_broken_inputs(small_run):
    # the grid "fine" and the tie rule "larger_cover" set to the run's own grid and rule: nested CV
    # under these variants is the run's nested CV (protocol (b)), fold by fold
    names = ("haberman", "glass")
    fine = _followups.fine_grid_protocol(names, seeds=(0,), penalties=TINY.dlm_penalties, s_max=TINY.dlm_s_max,
                                         scm_penalties=TINY.scm_penalties, scm_s_max=TINY.scm_s_max)
    _, grids = _followups.tie_rule_protocol(names, seeds=(0,), grid=TINY, rules=("larger_cover",), return_grids=True)
    variants = _followups.nested_variant_protocol(names, seed=0, fine=fine, tie_grids=grids, grid=TINY,
                                                  rules=("larger_cover",), inner_splits=SMALL.inner_splits)
    assert set(variants) == {_followups.NESTED_FINE, _followups.nested_tie_name("larger_cover")}
    keys = ["dataset", "method", "fold"]
    ours = small_run[(small_run["protocol"] == "b") & (small_run["seed"] == 0)].set_index(keys)
    for name, frame in variants.items():
        frame = frame.set_index(keys)
        assert len(frame) == (40 if name == _followups.NESTED_FINE else 20)  # DLM and SCM, or the DLM only
        assert (frame["errors"] == ours.loc[frame.index, "errors"]).all(), name
        assert (frame["size"] == ours.loc[frame.index, "size"]).all(), name
    # the claims read them as variants of that name, the SVM's nested rows kept
    data = _claims.claims_variants(small_run, nested_variants=variants)
    nested = data[_claims.NESTED]["rows"]
    for name in variants:
        assert data[name]["rows"] == nested and data[name]["seed"] == 0
    # broken: other inner folds (another inner seed) or another seed's outer grids change the rows
    moved = _followups.nested_variant_protocol(names, seed=0, fine=fine, tie_grids=None, grid=TINY,
                                               inner_splits=SMALL.inner_splits + 1)[_followups.NESTED_FINE]
    other = _followups.fine_grid_protocol(names, seeds=(1,), penalties=TINY.dlm_penalties, s_max=TINY.dlm_s_max,
                                          scm_penalties=TINY.scm_penalties, scm_s_max=TINY.scm_s_max)
    swapped = {**fine, "fold_grids": {(n, 0): other["fold_grids"][(n, 1)] for n in names}}
    wrong = _followups.nested_variant_protocol(names, seed=0, fine=swapped, grid=TINY,
                                               inner_splits=SMALL.inner_splits)[_followups.NESTED_FINE]
    reference = variants[_followups.NESTED_FINE].set_index(keys)["errors"]
    assert not moved.set_index(keys)["errors"].equals(reference)
    assert not wrong.set_index(keys)["errors"].equals(reference)
    with pytest.raises(ValueError, match="fold seed 1"):
        _followups.nested_variant_protocol(names, seed=1, fine=fine, grid=TINY)


def test_peer_variant_runs_at_every_fold_seed(small_run):
    variants = _claims.claims_variants(small_run)
    names = [_claims.PEER_TABLE1, f"{_claims.PEER_TABLE1} at seed 1"]
    assert "not the same folds" in _claims.PEER_TABLE1 and all(name in variants for name in names)
    paper = paper_table1()
    for seed, name in enumerate(names):
        assert variants[name]["seed"] == seed
        pairs = _claims._totals(variants[name], "svm")
        dlm = small_run[(small_run["method"] == "DLM (a)") & (small_run["seed"] == seed)].groupby("dataset")["errors"].sum()
        assert pairs == {n: (int(dlm[n]), int(paper.loc[n, "svm_errors"])) for n in ("haberman", "glass")}
    # broken: without the peer's totals the variant compares our SVM again
    assert _claims._totals({**variants[names[1]], "peer_totals": None}, "svm") != _claims._totals(variants[names[1]], "svm")


def test_paper_protocol_variants_rerun_protocol_a_with_other_folds(small_run):
    from companion.experiments.paper01._protocol import paper_protocol_variant

    keys = ["dataset", "method", "fold"]
    ours = small_run[(small_run["protocol"] == "a") & (small_run["seed"] == 0)].set_index(keys)
    # stratified folds and one-hot coding: protocol (a) of the run itself, fold by fold
    same = paper_protocol_variant(["haberman"], seed=0, grid=TINY).set_index(keys)
    assert len(same) == 30 and (same["errors"] == ours.loc[same.index, "errors"]).all()
    # unstratified folds: other test folds (broken as a check of the run: their fold sizes or errors move)
    plain = paper_protocol_variant(["haberman"], seed=0, grid=TINY, folds="unstratified").set_index(keys)
    assert not plain[["errors", "n_test"]].equals(same[["errors", "n_test"]])
    data = _claims.claims_variants(small_run, paper_variants={"folds=unstratified": plain.reset_index()})
    row = data["folds=unstratified"]["rows"][("haberman", "dlm", 0)]
    assert row["folds"] == plain.xs("DLM (a)", level="method")["errors"].tolist()
    assert data["folds=unstratified"]["rows_paper"] == data["folds=unstratified"]["rows"]
    assert data["folds=unstratified"]["rows"][("glass", "dlm", 0)] == data["main"]["rows"][("glass", "dlm", 0)]
    with pytest.raises(ValueError):
        paper_protocol_variant(["haberman"], folds="grouped")


def test_fine_grid_variant_runs_at_every_fold_seed_the_fine_grid_ran(small_run):
    names = ["haberman", "glass"]
    fine = _followups.fine_grid_protocol(names, seeds=(0, 1), penalties=TINY.dlm_penalties, s_max=TINY.dlm_s_max,
                                         scm_penalties=TINY.scm_penalties, scm_s_max=TINY.scm_s_max)
    variants = _claims.claims_variants(small_run, fine=fine)
    at_1 = f"{_claims._GRID_FINE} at seed 1"
    assert _claims._GRID_FINE in variants and at_1 in variants and variants[at_1]["seed"] == 1
    best = fine["best"].set_index(["dataset", "seed"])
    for name in names:
        for seed, variant in ((0, _claims._GRID_FINE), (1, at_1)):
            row = _claims._row(variants[variant], name, "dlm")
            assert variants[variant]["seed"] == seed
            assert row["errors"] == best.loc[(_grids.DISPLAY[name], seed), "errors"]  # read, not refitted
            assert row["folds"] == list(best.loc[(_grids.DISPLAY[name], seed), "fold_errors"])
        # the SCM too, and the caps of the fine grid (claims 3 and 3-SCM)
        scm = fine["scm_best"].set_index(["dataset", "seed"])
        assert _claims._row(variants[at_1], name, "scm")["errors"] == scm.loc[(_grids.DISPLAY[name], 1), "errors"]
    assert variants[at_1]["caps"] == {"dlm": TINY.dlm_s_max, "scm": TINY.scm_s_max}
    # 1-often at seed 1 on the fine grid is the fine grid's head-to-head of seed 1, not the coarse grid's
    pairs = _claims._totals(variants[at_1], "scm")
    assert pairs == {n: (int(best.loc[(_grids.DISPLAY[n], 1), "errors"]), int(scm.loc[(_grids.DISPLAY[n], 1), "errors"]))
                     for n in names}
    # broken: a fine grid run at the main seed alone gives no other seed's variant (it would read the coarse rows)
    only_main = {**fine, "best": fine["best"][fine["best"]["seed"] == 0],
                 "scm_best": fine["scm_best"][fine["scm_best"]["seed"] == 0]}
    assert at_1 not in _claims.claims_variants(small_run, fine=only_main)


def test_dataset_rates_say_why_their_mean_is_not_the_fold_level_estimate(small_run):
    variants = _claims.claims_variants(small_run)
    main = variants["main"]
    rates, estimate = _claims._dataset_rates_and_estimate(main, "scm")
    # the estimate is claim 1's: the mean over data sets of each data set's mean fold difference
    d, groups, _ = claims_measures(_math_checks.math_checks(0))["dlm_minus_scm"](main)
    by_group = {g: [v for v, h in zip(d, groups) if h == g] for g in dict.fromkeys(groups)}
    assert estimate == sum(sum(v) / len(v) for v in by_group.values()) / len(by_group)
    # the rates are the totals over the data set's examples
    for name, rate in rates.items():
        dlm, scm = _claims._row(main, name, "dlm"), _claims._row(main, name, "scm")
        assert rate == Fraction(100 * (dlm["errors"] - scm["errors"]), sum(dlm["fold_n"]))
    text = _claims._dataset_level(main, "scm")
    mean = float(sum(rates.values()) / len(rates))
    differ = round(mean, 2) != round(float(estimate), 2)
    assert ("is not the estimate above" in text) == differ and ("the mean of the data sets' fold means" in text)
    # broken: folds of equal size make the two the same number, and the clause says so
    equal = {**main, "rows": {key: {**row, "fold_n": [10] * len(row["fold_n"])} for key, row in main["rows"].items()}}
    rates_eq, estimate_eq = _claims._dataset_rates_and_estimate(equal, "scm")
    assert sum(rates_eq.values()) / len(rates_eq) == estimate_eq
    assert "is not the estimate above" not in _claims._dataset_level(equal, "scm")


def test_bound_selected_dlm_is_called_near_trivial_from_its_balls_and_the_majority_sentence_parses():
    rows = pd.DataFrame({"c_dlm_bound": [21, 75, 65], "c_dlm_balls": [1.0, 1.0, 1.2]},
                        index=["BreastW", "Haberman", "Glass"])
    sizes = pd.DataFrame({"majority_errors": [239, 75, 87]}, index=["BreastW", "Haberman", "Glass"])
    text = _claims._near_trivial(rows, "c_dlm_balls")
    assert text.startswith("The bound-chosen DLMs are near-trivial: at most 2 balls on average on 3 of 3 data sets")
    assert "BreastW 1.0, Haberman 1.0 and Glass 1.2" in text
    near = _claims._near_majority(rows, sizes, "c_dlm_bound")
    assert near == ("; on Haberman it is at most 2 errors better than the majority class, or worse (its total errors "
                    "against the majority class's: Haberman 75 vs 75)")
    assert "fewer times" not in near and ", or more," not in near
    # broken: lists of many balls are not called near-trivial; a DLM far below the majority class is not named
    big = rows.assign(c_dlm_balls=[5.0, 7.5, 1.0], c_dlm_bound=[21, 60, 65])
    assert _claims._near_trivial(big, "c_dlm_balls").startswith("The bound-chosen DLMs have at most 2 balls on average "
                                                                "on only 1 of 3")
    assert _claims._near_majority(big, sizes, "c_dlm_bound") == \
        "; it makes at least 2 fewer errors than the majority class on every data set"


def test_list_lengths_are_judged_on_both_readings_of_s():
    lengths = _followups.list_length_table(("haberman", "glass"), seed=0, variants=_followups.LENGTH_VARIANTS[:1])
    data = {"lengths": {0: lengths}, "seed": 0}
    ours = lengths.xs("Figure 1, our tie rule", level="variant")
    reach, _ = _claims._lengths_reach(data)
    within, text = _claims._lengths_within(data)
    assert reach == bool((ours["min_length"] >= ours["paper_s"]).all())
    assert within == bool((ours["max_length"] <= ours["paper_s"]).all())  # BuildDLM stops at s: never longer
    assert within and text == "no list is longer than s on 2 of 2 data sets"
    # broken: a list longer than s is named, and the stopping-parameter reading differs
    broken = lengths.copy()
    key = next(k for k in broken.index if k[-1] == "Figure 1, our tie rule" or "Figure 1, our tie rule" in k)
    broken.loc[key, "max_length"] = broken.loc[key, "paper_s"] + 1
    within, text = _claims._lengths_within({"lengths": {0: broken}, "seed": 0})
    assert not within and "; not on" in text and text.startswith("no list is longer than s on 1 of 2")
    assert _claims._lengths_within({"lengths": {}, "seed": 0}) is None


def test_alternation_detail_states_the_counterexamples_narrow_scope(monkeypatch):
    holds, detail = _claims.alternation_check({})
    assert not holds and "a single alternation at the last rule" in detail and "literal universal reading" in detail
    assert "with two alternations" in detail and "is none of the 46" in detail
    # broken: with no pure function to compare against, the one-alternation list is no disjunction, and the
    # detail no longer calls the sentence's failure narrow
    monkeypatch.setattr(_claims, "_pure_functions", lambda n: (None, []))
    monkeypatch.setattr(_claims, "_decision_list", lambda rules, default, inputs: (0,))
    holds, detail = _claims.alternation_check({})
    assert holds and "narrow" not in detail and "is none of the 0" in detail


def test_fold_memo_gives_what_a_fresh_run_gives_and_fits_a_fold_once(monkeypatch):
    """The notebook's memo of fold grids: a run, a nested run and Glass's evidence with one memo
    give the frames of calls without it, and a fold met again is read from it, not refitted."""
    from companion.experiments.paper01._protocol import nested_run

    memo = {}
    glass = _tables.glass_binarisation_evidence({"float": (1, 3)}, TINY, seed=0, memo=memo)
    assert len(memo) == 10  # Glass's main split, without the constrained DLM
    with_memo = paper01.run(SMALL, memo=memo)
    assert with_memo.equals(paper01.run(SMALL))
    # the run stored its outer folds with the constrained DLM: 2 data sets x 2 seeds x 10 folds
    assert len(memo) == 40 and all(parts[6] is not None for parts in memo.values())
    calls = []
    original = _grids._fold_grid_item
    monkeypatch.setattr(_grids, "_fold_grid_item", lambda *a, **k: calls.append(1) or original(*a, **k))
    # the nested run's outer folds are the run's main-seed folds: read, only the inner folds are fitted
    again = nested_run(list(SMALL.names), seed=0, grid=TINY, inner_splits=3, memo=memo)
    inner = len(calls)
    assert inner == 2 * 10 * 3
    assert again.equals(nested_run(list(SMALL.names), seed=0, grid=TINY, inner_splits=3))
    assert len(calls) == inner + 2 * 10 * 4  # without the memo: the outer folds too
    # Glass's evidence again: every fold from the memo, the same table
    calls.clear()
    assert _tables.glass_binarisation_evidence({"float": (1, 3)}, TINY, seed=0, memo=memo).equals(glass)
    assert calls == []


def test_fold_memo_keys_and_entries():
    X, y = _grids.load_table1_dataset("haberman")
    folds = stratified_folds(y, n_splits=10, seed=0)[:2]
    gammas = _grids.svm_gammas(_grids.cdist(X, X), TINY)
    key = _grids.fold_key(X, y, *folds[0], TINY, gammas)
    # everything the fold's grid reads is in the key: another fold, grid, width or label differs
    assert key == _grids.fold_key(X, y, *folds[0], TINY, gammas.copy())
    assert key != _grids.fold_key(X, y, *folds[1], TINY, gammas)
    assert key != _grids.fold_key(X, y, *folds[0], Grid(), gammas)
    assert key != _grids.fold_key(X, y, *folds[0], TINY, gammas * 2)
    assert key != _grids.fold_key(X, 1 - y, *folds[0], TINY, gammas)
    # an unconstrained entry does not serve a constrained run; a constrained one serves both
    memo = {}
    unconstrained = cross_validate_grid(X, y, folds, TINY, constrained=False, memo=memo)
    assert memo[key][6] is None
    constrained = cross_validate_grid(X, y, folds, TINY, constrained=True, memo=memo)
    assert memo[key][6] is not None
    again = cross_validate_grid(X, y, folds, TINY, constrained=False, memo=memo)
    fresh = cross_validate_grid(X, y, folds, TINY, constrained=True)
    for field in ("dlm_errors", "dlm_balls", "scm_errors", "scm_balls", "svm_errors", "svm_support"):
        assert np.array_equal(getattr(again, field), getattr(unconstrained, field))
        assert np.array_equal(getattr(constrained, field), getattr(fresh, field))
    assert again.dlmc_errors is None and unconstrained.dlmc_errors is None
    for field in ("dlmc_errors", "dlmc_balls", "dlmc_bound", "dlmc_train_errors"):
        assert np.array_equal(getattr(constrained, field), getattr(fresh, field), equal_nan=True)


def test_one_compiled_pass_shared_by_the_searches_of_a_task_learns_the_same_lists():
    """A caller's compiled pass (one per task) gives the lists each search's own pass gives."""
    from companion._ball_grid import compiled_grid_state, greedy_ball_lists

    X, y = _random_problem(3)
    X_ball, y_ball, sd = _grids.fold_sorted(_grids.cdist(X, X), X, y, np.arange(len(y)))
    pairs = [(a, b) for a in (0.5, 1.0, 2.0) for b in (0.5, 1.0, 2.0, np.inf)]
    shared = compiled_grid_state()
    for types in (("Pi", "Ni"), ("Ni", "No"), ("Pi", "Po", "Ni", "No")):
        own = greedy_ball_lists(sd, y_ball, pairs, types=types, max_balls=6)
        given = greedy_ball_lists(sd, y_ball, pairs, types=types, max_balls=6, grid_state_pass=shared)
        assert [_grids.grid_lists.list_key(a) for a in own] == [_grids.grid_lists.list_key(b) for b in given]
    folds = stratified_folds(y, n_splits=3, seed=0)
    serial = cross_validate_grid(X, y, folds, TINY, constrained=False, grid_state_pass=shared)
    plain = cross_validate_grid(X, y, folds, TINY, constrained=False)
    assert np.array_equal(serial.dlm_errors, plain.dlm_errors) and np.array_equal(serial.scm_errors, plain.scm_errors)
    with pytest.raises(ValueError, match="n_jobs=1"):
        cross_validate_grid(X, y, folds, TINY, constrained=False, grid_state_pass=shared, n_jobs=2)


def _fixed_machines_naive(part, bound, s_max):
    """The reference of ``_studies._fixed_machines``: row by row, as it was written first."""
    below, below_point, names = [], [], []
    for params, group in part.groupby(["machine", "params"], sort=False):
        group = group.sort_values("prefix")
        for s in range(1, s_max + 1):
            row = group.iloc[min(s, len(group)) - 1]
            value = row[bound]
            below.append(bool(np.isfinite(value) and value < row["risk_low"]))
            below_point.append(bool(np.isfinite(value) and value < row["risk"]))
            names.append(f"{params[0]} {params[1]} s={s}")
    return np.array(below, dtype=bool), np.array(below_point, dtype=bool), names


@pytest.mark.parametrize("seed", range(5))
def test_fixed_machines_vectorised_equals_the_row_by_row_reading(seed):
    rng = np.random.default_rng(seed)
    rows = []
    for machine in ("DLM (Theorem 1)", "SCM (our bound)"):
        for params in ("a", "b", "c"):
            length = int(rng.integers(1, 6))
            for prefix in rng.permutation(np.arange(1, length + 1)):  # rows in any order
                risk = float(rng.uniform(0.1, 0.4))
                bound = rng.choice([np.nan, np.inf, float(rng.uniform(0.0, 0.6)), risk])  # ties and missing bounds
                rows.append({"machine": machine, "params": params, "prefix": int(prefix), "risk": risk,
                             "risk_low": risk - float(rng.uniform(0, 0.05)), "bound_published": bound})
    part = pd.DataFrame(rows).sample(frac=1.0, random_state=seed)
    for s_max in (1, 3, 5, 7):
        fast = _studies._fixed_machines(part, "bound_published", s_max)
        naive = _fixed_machines_naive(part, "bound_published", s_max)
        assert fast[0].tolist() == naive[0].tolist() and fast[1].tolist() == naive[1].tolist()
        assert fast[2] == naive[2]


def test_svm_kernels_once_per_cross_validation_are_the_per_fold_kernels():
    """The kernels computed once for the folds are the bits each fold computed for itself."""
    X, y = _random_problem(5)
    D = _grids.cdist(X, X)
    gammas = _grids.svm_gammas(D, TINY)
    for gamma, kernel in zip(gammas, _grids.svm_kernels(D, gammas)):
        assert np.array_equal(kernel, np.exp(-gamma * D**2))
    train, test = stratified_folds(y, n_splits=3, seed=0)[0]
    own = _grids._fold_grid(D, X, y, train, test, TINY, gammas, False)
    shared = _grids._fold_grid(D, X, y, train, test, TINY, gammas, False, kernels=_grids.svm_kernels(D, gammas))
    assert all(np.array_equal(a, b) for a, b in zip(own[:6], shared[:6]))


def test_list_lengths_read_from_the_fine_grid_are_the_refitted_ones(monkeypatch):
    """Figure 1's variant of the list lengths read from the fine grid's folds (prefix at the
    paper's s) is the table the refits give; a point off the grid, or s beyond it, is refitted."""
    names = ["haberman", "glass"]  # paper: s 3.0/2.0 s=7 (simple), c 4.8/1.0 s=12 (complex)
    fine = _followups.fine_grid_protocol(names, seeds=(0,), penalties=(1.0, 2.0, 3.0, 4.8), s_max=12,
                                         scm_penalties=None)
    variants = _followups.LENGTH_VARIANTS[:2]
    refitted = _followups.list_length_table(names, seed=0, variants=variants)
    fits = []
    original = _BuildDLMVariant.fit
    monkeypatch.setattr(_BuildDLMVariant, "fit", lambda self, *a, **k: fits.append(1) or original(self, *a, **k))
    read = _followups.list_length_table(names, seed=0, variants=variants, fine=fine)
    assert read.equals(refitted)
    assert len(fits) == 2 * 10  # only the "remove covered only" variant is fitted
    # s beyond the grid (glass: s=12 > 6), or a seed it did not run: refitted, the same numbers
    short = _followups.fine_grid_protocol(["glass"], seeds=(0,), penalties=(1.0, 4.8), s_max=6, scm_penalties=None)
    fits.clear()
    assert _followups.list_lengths("glass", seed=0, fine=short) == _followups.list_lengths("glass", seed=0)
    assert _followups.list_lengths("glass", seed=1, fine=fine) == _followups.list_lengths("glass", seed=1)
    assert len(fits) == 4 * 10
