"""Tests of the modular-rules additions of notebook 02 (issue 16, item 9).

``Prism.covers`` / ``step_covers`` / ``grown_on`` and ``experiments.paper02``'s rule coverage,
rule-order permutations, rule conflicts and slide 5's two-dimensional example, each against a
naive loop or against numbers worked out by hand from the 24 contact-lens instances.
"""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
import pytest

from companion.datasets import load_contact_lenses, load_weather_nominal
from companion.experiments import paper02
from companion.experiments.paper02 import (
    _claims, _cv_observations, _figures, _math_checks, _prose, _protocol, _tables,
)
from companion.paper_numbers import paper_table
from companion.prism import Prism
from companion.experiments.paper02._claims import (
    _repeated_accuracy,
    claims_data,
    covering_checks,
    replicated_tests,
)
from companion.experiments.paper02._protocol import (
    WEKA_PEERS,
    cross_validate,
    fold_vector,
    learners,
    quiet_stratified_folds,
    repeated_cross_validation,
    weka_peer_results,
)
from companion.experiments.paper02._tables import conflict_counts, permuted_predictions, rule_conflicts


@pytest.fixture(scope="module")
def lenses():
    X, y = load_contact_lenses()
    return X, y, Prism(pruning=None, keep_trace=True).fit(X, y)


@pytest.fixture(scope="module")
def weather():
    X, y = load_weather_nominal()
    return X, y, Prism(pruning=None).fit(X, y)


def random_nominal(seed, n=60, d=4, k=3):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        {f"f{j}": pd.Categorical(rng.choice(["u", "v", "w"], n), categories=["u", "v", "w"]) for j in range(d)}
    )
    y = pd.Series(pd.Categorical(rng.choice(list("ABC")[:k], n), categories=list("ABC")[:k]))
    return X, y


def naive_covers(model, X):
    """Rule j covers row i when every (attribute, value) test holds, read from the DataFrame."""
    out = np.zeros((len(X), len(model.rules_)), dtype=bool)
    for i in range(len(X)):
        row = X.iloc[i]
        for j, rule in enumerate(model.rules_):
            out[i, j] = all(str(row[name]) == str(value) for name, value in rule.conditions)
    return out


# --------------------------------------------------------------------------------------------
# Prism.covers, step_covers, grown_on
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_covers_matches_naive_loop_and_firing_rule(seed):
    X, y = random_nominal(seed)
    model = Prism(pruning=None).fit(X, y)
    covered = model.covers(X)
    np.testing.assert_array_equal(covered, naive_covers(model, X))
    first = np.where(covered.any(axis=1), covered.argmax(axis=1), -1)
    np.testing.assert_array_equal(first, model.firing_rule(X))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_grown_on_reproduces_the_p_t_measured_at_fit(seed):
    """p/t of every rule over the E that grown_on rebuilds is the p/t recorded during fit."""
    X, y = random_nominal(seed)
    model = Prism(pruning=None).fit(X, y)
    covered, in_E = model.covers(X), model.grown_on(X)
    y_values = np.asarray(y, dtype=object)
    for j, rule in enumerate(model.rules_):
        on_E = covered[:, j] & in_E[:, j]
        assert (int(on_E.sum()), int((on_E & (y_values == rule.label)).sum())) == (rule.t, rule.p)


def test_step_covers_grows_the_rule_test_by_test(lenses):
    X, y, model = lenses
    for index, rule in enumerate(model.rules_):
        steps = model.step_covers(X, index)
        assert steps.shape == (len(X), len(rule.conditions) + 1)
        assert steps[:, 0].all()
        assert not (steps[:, 1:] & ~steps[:, :-1]).any()  # every test only removes instances
        np.testing.assert_array_equal(steps[:, -1], model.covers(X)[:, index])


def test_step_covers_rejects_bad_rule_index(lenses):
    X, _, model = lenses
    with pytest.raises(ValueError, match="rule_index"):
        model.step_covers(X, len(model.rules_))
    with pytest.raises(TypeError, match="rule_index"):
        model.step_covers(X, 1.0)


# --------------------------------------------------------------------------------------------
# The walk-throughs and covered subsets (slides 9-14)
# --------------------------------------------------------------------------------------------


def test_covered_subsets_are_the_slides_12_then_6_then_3(lenses):
    X, y, model = lenses
    first = _tables.covered_subsets(model, X, y, "hard", 1)
    assert first["t"].tolist() == [24, 12, 6, 3]
    assert first["p"].tolist() == [4, 4, 4, 3]
    assert first["instances"].iloc[-1] == "3, 11, 19"
    second = _tables.covered_subsets(model, X, y, "hard", 2)
    assert second["t"].tolist() == [21, 7, 3, 1]  # E = 24 minus the 3 the first rule covers
    assert second["p"].tolist() == [1, 1, 1, 1]
    assert second["instances"].iloc[-1] == "7"


def test_rule_trace_second_hard_rule(lenses):
    _, _, model = lenses
    pd.testing.assert_frame_equal(_tables.rule_trace(model, "hard", 1), _tables.first_rule_trace(model, "hard"))
    second = _tables.rule_trace(model, "hard", 2)
    chosen = second[second["selected"]]
    assert list(zip(chosen["attribute"], chosen["value"], chosen["p/t"])) == [
        ("age", "young", "1/7"),
        ("astigmatism", "yes", "1/3"),  # ties with tear-prod-rate = normal (1/3): earlier attribute
        ("tear-prod-rate", "normal", "1/1"),
    ]
    with pytest.raises(ValueError, match="number"):
        _tables.rule_trace(model, "hard", 3)
    with pytest.raises(TypeError, match="number"):
        _tables.rule_trace(model, "hard", "2")
    with pytest.raises(ValueError, match="keep_trace"):
        _tables.rule_trace(Prism(pruning=None).fit(*load_contact_lenses()), "hard", 1)


# --------------------------------------------------------------------------------------------
# Modular rules
# --------------------------------------------------------------------------------------------


def test_rule_coverage_every_rule_correct_on_the_whole_training_set(lenses):
    X, y, model = lenses
    table = _tables.rule_coverage(model, X, y)
    assert (table["accuracy on all %"] == 100.0).all()
    assert table["p/t on E"].tolist() == [f"{r.p}/{r.t}" for r in model.rules_]
    assert table.loc[2, "p/t on E"] == "1/1" and table.loc[2, "correct/covered (all)"] == "2/2"
    assert table.loc[5, "p/t on E"] == "1/1" and table.loc[5, "correct/covered (all)"] == "2/2"
    assert table["covered (all)"].tolist() == naive_covers(model, X).sum(axis=0).tolist()


def test_rule_coverage_detects_an_imperfect_rule():
    """Inconsistent data (two identical rows, different classes): a rule below 100 %."""
    X = pd.DataFrame({"a": pd.Categorical(["p", "p", "q"], categories=["p", "q"])})
    y = pd.Series(pd.Categorical(["A", "B", "B"], categories=["A", "B"]))
    table = _tables.rule_coverage(Prism(pruning=None).fit(X, y), X, y)
    assert (table["accuracy on all %"] < 100.0).any()


def naive_permuted_predict(model, X, order):
    """Reorder the fitted rule list itself and call predict (no default class)."""
    reordered = copy.deepcopy(model)
    reordered.rules_ = [model.rules_[j] for j in order]
    reordered.uncovered = "unclassified"
    return reordered.predict(X)


def test_permuted_predictions_match_reordered_rule_lists(weather):
    X, _, model = weather
    space = _tables.attribute_space(X)
    rng = np.random.default_rng(0)
    orders = np.vstack([np.arange(len(model.rules_))] + [rng.permutation(len(model.rules_)) for _ in range(6)])
    predicted = permuted_predictions(model, space, orders)
    for k, order in enumerate(orders):
        assert list(predicted[k]) == list(naive_permuted_predict(model, space, order))
    with pytest.raises(ValueError, match="permutation"):
        permuted_predictions(model, space, np.zeros((1, len(model.rules_)), dtype=int))
    with pytest.raises(ValueError, match="shape"):
        permuted_predictions(model, space, np.arange(3)[None, :])


def test_order_invariance_on_training_set_but_not_on_unseen(lenses, weather):
    X, _, model = lenses
    result = _tables.order_invariance(model, X, n_permutations=200, seed=0)
    assert result["instances whose class depends on the order"] == 0
    assert result["orders changing some prediction"] == 0
    Xw, _, model_w = weather
    unseen = _tables.order_invariance(model_w, _tables.attribute_space(Xw), n_permutations=200, seed=0)
    assert unseen["instances whose class depends on the order"] >= 1
    assert unseen["orders changing some prediction"] >= 1
    with pytest.raises(ValueError, match="n_permutations"):
        _tables.order_invariance(model, X, n_permutations=0, seed=0)


# --------------------------------------------------------------------------------------------
# Rule conflicts
# --------------------------------------------------------------------------------------------


def test_attribute_space_of_contact_lenses_is_the_data_set(lenses):
    X, _, _ = lenses
    space = _tables.attribute_space(X)
    assert len(space) == 3 * 2 * 2 * 2
    as_rows = lambda frame: set(map(tuple, frame.astype(str).to_numpy()))  # noqa: E731
    assert as_rows(space) == as_rows(X)
    with pytest.raises(TypeError, match="categorical"):
        _tables.attribute_space(X.astype(str))
    with pytest.raises(TypeError, match="DataFrame"):
        _tables.attribute_space(X.to_numpy())


def test_rule_conflicts_match_naive_class_sets(weather):
    X, _, model = weather
    space = _tables.attribute_space(X)
    table = rule_conflicts(model, space)
    covered = naive_covers(model, space)
    for i in range(len(space)):
        classes = {str(model.rules_[j].label) for j in np.flatnonzero(covered[i])}
        expected = ["no rule", "rules of one class", "rules of several classes"][min(len(classes), 2)]
        assert table["status"].iloc[i] == expected
        assert table["rules"].iloc[i] == covered[i].sum()
    counts = conflict_counts(model, space)
    assert counts.sum() == len(space)


def test_cv_conflicts_no_rule_total_is_wekas_unclassified_count(lenses):
    X, y, _ = lenses
    table = _tables.cv_conflicts(X, y, _protocol.weka_cv_folds(y))
    weka = paper_table("02_prism_weka_results").set_index(["learner", "measure"])["value"]
    assert table.loc["total", "held out"] == len(y)
    assert table.loc["total", "no rule"] == weka[("Prism", "cv unclassified")]
    statuses = ["no rule", "rules of one class", "rules of several classes"]
    assert (table[statuses].sum(axis=1) == table["held out"]).all()
    correct = table.loc["total", "correct (one class)"] + table.loc["total", "correct (several classes)"]
    assert correct == weka[("Prism", "cv correct")]
    assert (table["correct (several classes)"] <= table["rules of several classes"]).all()


def test_space_conflicts_counts(lenses):
    X, y, _ = lenses
    full = _tables.space_conflicts(X, y)
    assert full["attribute space"] == 24 and full["unseen"] == 0
    Xw, yw = load_weather_nominal()
    weather = _tables.space_conflicts(Xw, yw)
    assert weather["attribute space"] == 36 and weather["unseen"] == 36 - 14
    assert weather[["no rule", "rules of one class", "rules of several classes"]].sum() == 22


# --------------------------------------------------------------------------------------------
# Slide 5
# --------------------------------------------------------------------------------------------


def test_covering_2d_example_counts_and_determinism():
    first = _figures.covering_2d_example(seed=0, n_points=40)
    again = _figures.covering_2d_example(seed=0, n_points=40)
    pd.testing.assert_frame_equal(first["points"], again["points"])
    points, rules = first["points"], first["rules"].set_index(["class", "step"])
    x, y, cls = points["x"].to_numpy(), points["y"].to_numpy(), points["class"].to_numpy()
    naive = {
        ("b", 1): x <= 1.2,
        ("b", 2): (x > 1.2) & (y <= 2.6),
        ("a", 1): x > 1.2,
        ("a", 2): (x > 1.2) & (y > 2.6),
    }
    for (label, step), inside in naive.items():
        assert rules.loc[(label, step), "t"] == inside.sum()
        assert rules.loc[(label, step), "p"] == (inside & (cls == label)).sum()
    assert (rules.loc["b", "p"] == rules.loc["b", "t"]).all()  # b's rules are right where they fire
    assert first["uncovered_b"] == 1  # ... but miss the b among the a's: "more rules could be added"
    assert rules.loc[("a", 2), "t"] - rules.loc[("a", 2), "p"] == 1
    with pytest.raises(ValueError, match="n_points"):
        _figures.covering_2d_example(seed=0, n_points=1)


# --------------------------------------------------------------------------------------------
# The tidy protocol (issue 17, item 5): run(config), weka_folds_table, repeated_table
# --------------------------------------------------------------------------------------------

SMALL_CONFIG = paper02.Config(n_folds=3, n_repeats=2, seed=1)


@pytest.fixture(scope="module")
def tidy():
    return paper02.run(SMALL_CONFIG)


def test_run_rows_are_per_fold_counts(tidy):
    names = list(learners(seed=1))
    assert list(tidy["method"].unique()) == names
    # Weka's seed 1 and the repeats' seed 1 are different splits: distinct keys
    assert list(tidy["seed"].unique()) == ["weka:1", "numpy:1", "numpy:2"]
    assert len(tidy) == len(names) * 3 * 3
    counts = tidy[["correct", "incorrect", "unclassified"]].sum(axis=1)
    assert (counts == tidy["n_test"]).all()
    # every split tests each of the 24 instances once
    assert (tidy.groupby(["method", "seed"])["n_test"].sum() == 24).all()
    weka_sizes = [len(test) for _, test in _protocol.weka_cv_folds(load_contact_lenses()[1], 3, seed=1)]
    assert list(tidy[(tidy["seed"] == "weka:1") & (tidy["method"] == "PRISM")]["n_test"]) == weka_sizes
    # only PRISM without a default class leaves instances unclassified
    assert (tidy.loc[tidy["method"] != "PRISM", "unclassified"] == 0).all()


def test_run_refuses_unknown_learners_by_name():
    """The learners a Config names depend on :func:`learners`: checked by hand, naming run, the
    parameter and the value; a config of the wrong type is refused by the declaration."""
    with pytest.raises(ValueError,
                       match=r"run: config\.methods=\('PRISM', 'C4\.5'\) names unknown learners \['C4\.5'\]"):
        paper02.run(paper02.Config(n_folds=3, n_repeats=1, methods=("PRISM", "C4.5")))
    with pytest.raises(ValueError, match=r"The 'config' parameter of run must be an instance of .*Config.*\. Got"):
        paper02.run({"n_folds": 3})


def test_builders_give_the_old_tables(tidy):
    X, y = load_contact_lenses()
    estimators = learners(seed=1)
    old_weka = cross_validate(estimators, X, y, _protocol.weka_cv_folds(y, 3, seed=1))
    pd.testing.assert_frame_equal(_tables.weka_folds_table(tidy), old_weka, check_exact=True)
    old_repeated = repeated_cross_validation(estimators, X, y, n_repeats=2, seed=1, n_folds=3)
    pd.testing.assert_frame_equal(_tables.repeated_table(tidy), old_repeated, check_exact=True)


def test_repeated_table_against_hand_computed_accuracies():
    rows = pd.DataFrame(
        {
            "dataset": "contact-lenses",
            "method": ["A", "A", "A", "A", "B", "B", "B", "B"],
            "seed": ["numpy:0", "numpy:0", "numpy:1", "numpy:1"] * 2,
            "fold": [0, 1] * 4,
            "correct": [6, 6, 3, 3, 12, 12, 6, 6],
            "incorrect": [6, 4, 9, 9, 0, 0, 6, 6],
            "unclassified": [0, 2, 0, 0, 0, 0, 0, 0],
            "n_test": 12,
        }
    )
    table = _tables.repeated_table(rows)
    # A: 12/24 = 50 % then 6/24 = 25 %; B: 100 % then 50 %
    assert list(table.index) == ["A", "B"]
    np.testing.assert_allclose(table["mean accuracy %"], [37.5, 75.0])
    np.testing.assert_allclose(table["std %"], [np.sqrt(2 * 12.5**2), np.sqrt(2 * 25.0**2)])
    with pytest.raises(ValueError, match="weka:"):
        _tables.weka_folds_table(rows)


# --------------------------------------------------------------------------------------------
# The paper-vs-ours table without stand-ins, the committed fold list, the claims family
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def protocol():
    return paper02.run(paper02.Config(n_repeats=2))


def test_weka_comparison_holds_no_stand_ins_and_takes_weka_peers(protocol):
    cv = _tables.weka_folds_table(protocol)
    table = _tables.weka_comparison(cv, 24)
    assert not any("CART" in r or "wittgenstein" in r for r in table.index)
    assert np.isnan(table.loc["J48 (Weka) cv accuracy %", "this run"])
    assert list(table.columns) == ["Weka 3.6.14 (recorded)", "this run", "difference", "run by"]
    assert table.loc["PRISM cv correct", "run by"] == "ours"
    assert table.loc["J48 (Weka) cv accuracy %", "run by"] == "Weka 3.6.14 (re-run)"
    # Weka's runs in the peers' per-fold format fill the J48 and JRip rows
    peers = pd.DataFrame({"method": ["J48", "J48", "JRip"], "seed": ["weka:1", "weka:1", "weka:1"],
                          "correct": [10, 10, 6], "incorrect": [2, 2, 6], "unclassified": [0, 0, 0]})
    filled = _tables.weka_comparison(cv, 24, peers=peers)
    assert filled.loc["J48 (Weka) cv accuracy %", "this run"] == pytest.approx(100 * 20 / 24)
    assert filled.loc["JRip (Weka) cv accuracy %", "this run"] == pytest.approx(50.0)
    stand = _tables.stand_in_table(cv)
    assert list(stand["stands in for"]) == ["J48", "JRip"]


def test_fold_list_comparison(lenses, tmp_path):
    _, y, _ = lenses
    config = paper02.Config(n_repeats=2)
    rows = []
    for seed, folds in (("weka:1", _protocol.weka_cv_folds(y, 10, 1)), ("numpy:0", quiet_stratified_folds(y, 10, 0))):
        rows += [{"seed": seed, "row": r, "fold": f} for r, f in enumerate(fold_vector(folds))]
    committed = pd.DataFrame(rows)
    table = _tables.fold_list_comparison(y, config, committed)
    assert table["identical"].all() and (table["rows in the same fold"] == 24).all()
    swapped = committed.copy()
    swapped.loc[0, "fold"], swapped.loc[23, "fold"] = committed.loc[23, "fold"], committed.loc[0, "fold"]
    if committed.loc[0, "fold"] != committed.loc[23, "fold"]:
        assert not _tables.fold_list_comparison(y, config, swapped).loc["weka:1", "identical"]
    assert _tables.fold_list_comparison(y, config, "no/such/folds.csv").empty
    # with a config, only the splits run makes are compared
    other = _tables.fold_list_comparison(y, paper02.Config(seed=5, n_repeats=2), committed)
    assert list(other.index) == ["weka:1"]
    assert list(_tables.fold_list_comparison(y, None, committed).index) == ["weka:1", "numpy:0"]
    with pytest.raises(ValueError, match="unknown split 'r:1'"):
        _tables.fold_list_comparison(y, config, committed.assign(seed="r:1"))


def test_claims_report(protocol):
    ok = (True, "")
    checks = {name: ok for name in ("trace", "rules", "training", "weka-cv", "baselines", "modular",
                                    "conflicts-unseen", "replicated-subtree", "replicated-subtree-literal",
                                    "replicated-subtree-some-tree", "supermarket")}
    report = _claims.claims_report(protocol, checks)
    table = report.table.set_index("id")
    assert table.loc["folds", "verdict"] == table.loc["folds-seeded", "verdict"] == "n/a"  # no committed fold list
    assert table.loc["weka-prism", "verdict"] == "n/a"  # no Prism-against-Prism table given
    assert table.loc["tree-vs-prism", "verdict"] == "n/a"  # no Weka peers given: no J48
    assert table.loc["covering", "verdict"] == "n/a"  # no conformance checks given: not evaluated
    # computed from the folds, no verdict word
    assert table.loc["default-never-worse", "verdict"] == "observed"
    assert "on 30 of 30 folds (3 splits)" in table.loc["default-never-worse", "detail"]  # Weka's split and 2 seeded
    assert table.loc["default-class", "verdict"] == table.loc["default-vs-zeror", "verdict"] == "observed"
    assert "Nadeau–Bengio corrected" in table.loc["default-class", "detail"]
    assert table.loc["rules", "verdict"] == "agrees" and table.loc["rules", "origin"] == "check"
    # the results the slides state are the paper's; their description of the algorithm is a conformance
    # check; their illustrations and what the notebook adds have no verdict
    assert set(table.loc[table["origin"] == "paper"].index) == {
        "first-test-4-of-12", "replicated-subtree", "replicated-subtree-some-tree", "replicated-subtree-literal"}
    # slide 2's sentence is judged in both readings, the one that fails among them
    assert table.loc[["replicated-subtree-literal", "replicated-subtree-some-tree"], "category"].eq("mathematical").all()
    assert table.loc[["replicated-subtree-literal", "replicated-subtree-some-tree"], "central"].all()
    # slide 6's strict reading conflicts with slide 15's rule, which our code follows: our observation
    assert table.loc["coverage-reduces-strictly", "category"] == "observation"
    assert table.loc["replicated-subtree", "verdict"] == "holds"
    assert table.loc["replicated-subtree", "quote"] == "Tree cannot easily express disjunction between rules"
    # Weka's split is the peer check; our seeded splits against the peers' fold list are a sanity check
    assert table.loc["folds", "category"] == "peer" and table.loc["folds-seeded", "category"] == "sanity"
    assert table.loc[["tree-to-rules-easy", "rules-to-tree-harder"], "category"].eq("observation").all()
    for name in ("covering", "ties-larger-p", "perfect-rules", "no-more-attributes", "coverage-reduces",
                 "separate-and-conquer", "one-rule-per-leaf", "exact-after-third-test", "refine-to-exact",
                 "trace"):
        assert table.loc[name, "origin"] == "check" and table.loc[name, "category"] == "conformance", name
    # the restored slide tables are the project's: checks against them hold by construction
    assert table.loc[["trace", "exact-after-third-test"], "by_construction"].all()
    assert table.loc["disjunction-rules", "origin"] == table.loc["more-rules-2d", "origin"] == "observation"
    assert table.loc["tree-vs-prism", "origin"] == "observation"
    accuracy = _repeated_accuracy(protocol)
    assert (accuracy["PRISM + default class"] >= accuracy["PRISM"]).all()  # over all instances


def test_paired_folds_is_the_corrected_interval_of_the_fold_differences(protocol):
    from scipy import stats

    data = claims_data(protocol, {}, None)
    ok, detail = _claims.paired_folds(data, "PRISM + default class", "PRISM")
    rows = protocol[protocol["seed"].str.startswith("numpy:")].set_index(["seed", "fold"])
    a = rows[rows["method"] == "PRISM + default class"]
    b = rows[rows["method"] == "PRISM"].loc[a.index]
    d = 100 * (a["correct"] - b["correct"]) / a["n_test"]
    ratio = (a["n_test"] / (24 - a["n_test"])).mean()  # test/train, as the mean sizes give it
    half = stats.t.ppf(0.975, len(d) - 1) * np.sqrt((1 / len(d) + a["n_test"].mean() / (24 - a["n_test"]).mean())
                                                    * d.var(ddof=1))
    assert ratio > 0 and ok == bool(d.mean() > 0)
    assert f"over {len(d)} folds of 2 repeated 10-fold cross-validations" in detail
    assert f"CI [{_fmt(d.mean() - half)}, {_fmt(d.mean() + half)}]" in detail, detail
    # the per-repeat count is head to head on the raw differences
    per = _repeated_accuracy(protocol)
    diff = per["PRISM + default class"] - per["PRISM"]
    assert f"{int((diff > 0).sum())}/{int((diff == 0).sum())}/{int((diff < 0).sum())} (wins/ties/losses)" in detail
    # J48 is Weka's: without the peers the row is not evaluated
    assert _claims.paired_folds(data, "J48", "PRISM + default class") is None
    # a broken input (the two learners swapped) gives the opposite direction
    assert _claims.paired_folds(data, "PRISM", "PRISM + default class")[0] == (not ok or d.mean() == 0)


def _fmt(value):
    from companion.prose import signed

    return signed(value, 1)


def test_default_never_worse_counts_folds_and_names_the_denominator(protocol):
    ok, detail = _claims.default_never_worse(claims_data(protocol, {}, None))
    assert ok and "PRISM is right on 13 of the 20 instances it classifies (65.0 %), PRISM + default class on 15 of all 24 (62.5 %)" in detail
    # a default class that loses an instance PRISM had right breaks it
    broken = protocol.copy()
    row = broken.index[(broken["method"] == "PRISM + default class") & (broken["correct"] > 0)][0]
    broken.loc[row, "correct"] -= 1
    assert not _claims.default_never_worse(claims_data(broken, {}, None))[0]


def test_covering_checks_hold_on_the_slides_data_and_catch_a_wrong_choice(lenses):
    X, y, model = lenses
    checks = covering_checks(model, X, y)
    assert set(checks) == {"covering", "first-test", "refine", "exact-after-third", "ties", "perfect", "separate"}
    assert all(ok for ok, _ in checks.values()), checks
    assert "covers 12 instances, 4 of them `hard`" in checks["first-test"][1]
    assert "covers 6 instances, 4 of them `hard`: not exact" in checks["refine"][1]
    assert "`spectacle-prescrip = myope`, the rule covers 3 instances, 3 of them" in checks["exact-after-third"][1]
    # a trace whose step 3 picks `age = young` (2/2) over `myope` (3/3) breaks the tie rule
    broken = copy.deepcopy(model)
    trace = broken.trace_
    first = trace["rule"] == trace.loc[trace["class"] == "hard", "rule"].min()
    step3 = first & (trace["step"] == 3)
    trace.loc[step3, "selected"] = (trace.loc[step3, "attribute"] == "age") & (trace.loc[step3, "value"] == "young")
    assert not covering_checks(broken, X, y)["ties"][0]
    # a class's rules that miss one of its instances break the covering statement
    assert not covering_checks(model, X, y.where(y.index != 0, "soft"))["covering"][0]


def test_replicated_tests_read_the_leaves_for_x():
    leaves = ["If b = false and d = true and c = true then x", "If b = true and a = false and c = true and d = true then x",
              "If b = true and a = true then x"]
    assert replicated_tests(leaves) == ["c = true", "d = true"]
    assert replicated_tests(leaves[1:2]) == []
    assert replicated_tests(["If a = true then x", "If a = true and b = true then x"]) == []


def test_seed_variants_do_not_overlap_the_main_splits():
    assert _protocol.seed_variants(0, 10) == [10, 20, 30, 40]
    assert _protocol.seed_variants(11, 10) == [21, 31, 41, 51]
    assert _protocol.seed_variants(0, 2) == [2, 4, 6, 8]


def test_weka_peers_cover_the_default_seed_its_variants_and_seed_11():
    for seed in (0, 10, 20, 30, 40, 11, 21, 31, 41, 51):
        frame, status = _protocol.weka_peer_results_if_run(paper02.Config(seed=seed))
        assert frame is not None and "folds verified" in status
        assert set(frame["seed"]) == {"weka:1", *(f"numpy:{s}" for s in range(seed, seed + 10))}
    missing, status = _protocol.weka_peer_results_if_run(paper02.Config(seed=200, n_repeats=2))
    assert missing is None and "numpy:200" in status and "peers/prism_peers.py export --splits" in status


@pytest.mark.slow  # the whole claims protocol, with its J48 peer: tens of seconds
def test_claims_report_judges_the_tree_with_wekas_j48(protocol):
    peers = weka_peer_results(paper02.Config(n_repeats=2))  # Weka's split and numpy:0, 1
    checks = {"weka-prism": (True, "")}
    config2 = paper02.Config(seed=2, n_repeats=2)
    other = paper02.run(config2)  # numpy:2, 3: run by the peers too
    far = paper02.run(paper02.Config(seed=200, n_repeats=2))  # numpy:200, 201: never run by the peers
    variants = {"seed=2": claims_data(other, checks, weka_peer_results(config2)),
                "seed=200": claims_data(far, checks, None)}
    report = _claims.claims_report(protocol, checks, variants, peers=peers)
    table = report.table.set_index("id")
    assert table.loc["weka-prism", "verdict"] == "agrees"
    assert "J48" in table.loc["tree-vs-prism", "statement"] and "CART" not in table.loc["tree-vs-prism", "statement"]
    ours = _repeated_accuracy(protocol)["PRISM + default class"]
    expected = _tables.peer_repeated_accuracy(peers)["J48"].loc[ours.index]
    assert f"mean accuracy {expected.mean():.1f} % against {ours.mean():.1f} %" in table.loc["tree-vs-prism", "detail"]
    sensitivity = report.sensitivity.set_index(["variant", "id"])
    assert sensitivity.loc[("seed=200", "tree-vs-prism"), "verdict"] == "n/a"
    assert "over 20 folds" in sensitivity.loc[("seed=2", "tree-vs-prism"), "detail"]


@pytest.mark.slow  # four small protocols
def test_seed_variant_recomputes_the_seed_dependent_checks(lenses):
    X, y, model = lenses
    checks = {"rules": (True, "kept"), "folds-weka": (False, "main"), "folds-seeded": (False, "main"),
              "weka-prism": (False, "main")}
    data = _claims.seed_variant(3, checks, n_repeats=2, n_rule_orders=5)
    assert set(data["results"]["method"]) == {"PRISM", "PRISM + default class", "ZeroR"}
    assert data["checks"]["rules"] == (True, "kept")  # does not depend on the seed: the main value
    assert data["checks"]["folds-seeded"][0] and data["checks"]["weka-prism"][0]  # recomputed on numpy:3, 4
    assert data["checks"]["folds-weka"][0]
    assert data["peers"] is not None and set(data["peers"]["seed"]) == {"weka:1", "numpy:3", "numpy:4"}
    assert data["checks"]["one-rule-per-leaf"][0] and data["checks"]["modular"][0]
    assert "numpy:3–4" in data["checks"]["weka-prism"][1]  # the sentence names the splits compared
    assert "replicated-subtree" not in data["checks"]  # the enumeration does not read the seed
    expected = _math_checks.stops_when_no_attribute_left(X, y, np.random.default_rng(3))
    assert data["checks"]["no-more-attributes"] == expected and expected[0]


def test_prism_peer_comparison_is_fold_by_fold(protocol):
    peers = weka_peer_results(paper02.Config(n_repeats=2))
    table = _tables.prism_peer_comparison(protocol, peers)
    assert list(table.index) == ["weka:1", "numpy:0", "numpy:1"]
    assert table["identical"].all() and (table["folds equal"] == 10).all()
    ours = protocol[protocol["method"] == "PRISM"].groupby("seed", sort=False)[["correct", "unclassified"]].sum()
    assert (table["ours correct"] == ours.loc[table.index, "correct"]).all()
    assert (table["Weka unclassified"] == table["ours unclassified"]).all()
    # one fold's counts moved between correct and incorrect, the sums kept elsewhere: the fold is caught
    tampered = peers.copy()
    row = tampered.index[(tampered["method"] == "Prism") & (tampered["seed"] == "numpy:1") & (tampered["correct"] > 0)][0]
    tampered.loc[row, ["correct", "incorrect"]] = tampered.loc[row, ["correct", "incorrect"]].to_numpy() + [-1, 1]
    broken = _tables.prism_peer_comparison(protocol, tampered)
    assert not broken.loc["numpy:1", "identical"] and broken.loc["numpy:1", "folds equal"] == 9
    assert broken.loc[["weka:1", "numpy:0"], "identical"].all()
    with pytest.raises(ValueError, match="share no"):
        _tables.prism_peer_comparison(protocol, peers[peers["seed"] == "numpy:0"].assign(seed="numpy:99"))


def test_peer_repeated_accuracy_counts_every_instance():
    peers = weka_peer_results()
    table = _tables.peer_repeated_accuracy(peers)
    assert list(table.index) == [f"numpy:{s}" for s in range(10)] and set(table.columns) == set(WEKA_PEERS)
    j48 = peers[(peers["method"] == "J48") & (peers["seed"] == "numpy:3")]
    assert table.loc["numpy:3", "J48"] == pytest.approx(100 * j48["correct"].sum() / j48["n_test"].sum())
    with pytest.raises(ValueError, match="no split"):
        _tables.peer_repeated_accuracy(peers[peers["seed"] == "weka:1"])


# ------------------------------------------------------------------------------ Weka's own peers


def test_weka_peers_folds_are_wekas_and_the_protocols():
    """The committed Weka folds (read from Weka's StratifiedRemoveFolds) are weka_cv_folds'."""
    from companion import datasets

    results, folds, provenance = datasets.load_peers("prism")
    _, y = load_contact_lenses()
    weka = folds.loc[folds["seed"] == "weka:1"].sort_values("row")["fold"].to_numpy()
    assert np.array_equal(weka, fold_vector(_protocol.weka_cv_folds(y, 10, seed=1)))
    peers = weka_peer_results()
    assert set(peers["method"]) == set(WEKA_PEERS)
    assert peers.groupby(["method", "seed"])["fold"].nunique().eq(10).all()
    assert (peers[["correct", "incorrect", "unclassified"]].sum(axis=1) == peers["n_test"]).all()
    # Weka's own -x 10 -s 1 counts equal the sums over the committed folds.
    on_weka = peers[peers["seed"] == "weka:1"].groupby("method")[["correct", "incorrect", "unclassified"]].sum()
    for learner in WEKA_PEERS:
        assert provenance[f"weka -x 10 -s 1: {learner}"] == "correct {} incorrect {} unclassified {}".format(
            *on_weka.loc[learner].tolist())
    # Prism's are the paper's (Weka's) published counts.
    weka_numbers = paper_table("02_prism_weka_results")
    weka_numbers = weka_numbers[weka_numbers["dataset"] == "contact_lenses"].set_index(["learner", "measure"])["value"]
    for measure in ("correct", "incorrect", "unclassified"):
        assert on_weka.loc["Prism", measure] == weka_numbers[("Prism", f"cv {measure}")]
    assert len(weka_peer_results(paper02.Config.fast())) == 3 * 10 * 3


def test_weka_peer_results_refuses_other_or_tampered_folds(editable_data):
    from companion import datasets

    with pytest.raises(ValueError, match="not run on the splits"):
        weka_peer_results(paper02.Config(weka_seed=2))
    results, folds, provenance = datasets.load_peers("prism")
    tampered = folds.copy()
    rows = tampered.index[tampered["seed"] == "numpy:0"][:2]
    tampered.loc[rows, "fold"] = tampered.loc[rows[::-1], "fold"].to_numpy()
    if np.array_equal(tampered["fold"], folds["fold"]):
        tampered.loc[rows[0], "fold"] = (tampered.loc[rows[0], "fold"] + 1) % 10
    editable_data.write("prism_peers/folds.csv", tampered)
    with pytest.raises(ValueError, match="folds of split 'numpy:0' differ"):
        weka_peer_results()


def test_generated_prose_follows_the_tables(lenses):
    X, y, model = lenses
    trace = _prose.describe_trace(_tables.first_rule_trace(model, "hard")).data
    assert trace.startswith("Step 1: `astigmatism = yes` (4/12) is selected; `tear-prod-rate = normal` ties with it")
    assert "Step 3: `spectacle-prescrip = myope` (3/3) is selected; `age = young` (2/2) has the same p/t" in trace
    subsets = _prose.describe_subsets(_tables.covered_subsets(model, X, y, "hard", 1)).data
    assert "24 → 12 → 6 → 3" in subsets and subsets.endswith("exact.")
    example = _figures.covering_2d_example(seed=0)
    text = _prose.describe_covering_2d(example).data
    assert f"{example['uncovered_b']} `b` point is left" in text
    demo = {"x_rules": ["r1", "r2"], "leaf_rules": [
        "If b = false and d = true and c = true then x", "If b = true and a = false and c = true and d = true then x",
        "If b = true and a = true then x"]}
    text = _prose.describe_demo(demo, seed=4).data
    assert "(CART, seed 4) has 3 leaves for `x`; its root tests `b`" in text
    assert "tests `c = true` and `d = true` in two places" in text
    demo["leaf_rules"] = ["If a = true and b = true then x", "If a = false then not x"]
    assert "tests no attribute under both branches" in _prose.describe_demo(demo).data
    order = pd.Series({"orders tried": 5, "instances": 24, "instances whose class depends on the order": 1,
                       "orders changing some prediction": 1})
    assert _prose.describe_order(order).data == ("Over 5 random rule orders, 1 order changed a prediction on the "
                                                   "training set (1 instance whose class depends on the order).")


def test_the_sections_show_what_their_builders_give(lenses):
    """Each section of the notebook is one call composing the private builders: its tables and
    sentences are theirs, unchanged (the notebook's outputs do not depend on the grouping)."""
    X, y, model = lenses
    walk = paper02.walkthrough_section(model, X, y, "hard")
    pd.testing.assert_frame_equal(walk.first_trace, _tables.first_rule_trace(model, "hard"))
    pd.testing.assert_frame_equal(walk.comparison, _tables.trace_comparison(walk.first_trace))
    pd.testing.assert_frame_equal(walk.second_subsets, _tables.covered_subsets(model, X, y, "hard", 2))
    assert walk.trace_text.data == _prose.describe_trace(walk.first_trace).data
    assert walk.second_rule_text.data == _prose.describe_second_rule(
        walk.first_subsets, walk.second_subsets, walk.second_trace).data
    coverage = paper02.coverage_section(model, X, y)
    pd.testing.assert_frame_equal(coverage.table, _tables.rule_coverage(model, X, y))
    order = paper02.order_section(model, X, n_permutations=20, seed=3)
    pd.testing.assert_series_equal(order.table, _tables.order_invariance(model, X, n_permutations=20, seed=3))
    assert order.text.data == _prose.describe_order(order.table).data
    covering = paper02.covering_section(seed=2)
    assert covering.text.data == _prose.describe_covering_2d(_figures.covering_2d_example(seed=2)).data
    space = paper02.attribute_space_section({"lenses": (X, y)}, n_permutations=10, seed=1)
    assert space.conflicts.loc["lenses"].equals(_tables.space_conflicts(X, y).rename("lenses"))


# --------------------------------------------------------------------------------------------
# The checks computed where the notebook shows them (_math_checks): each holds on our code and
# fails on a deliberately broken input
# --------------------------------------------------------------------------------------------


def test_stops_when_perfect_and_catches_a_rule_grown_past_perfect(lenses):
    import dataclasses

    X, y, model = lenses
    ok, detail = _math_checks.stops_when_perfect(model, X, y)
    assert ok and detail.startswith("9 rules: 9 stop"), detail
    broken = copy.deepcopy(model)
    rule = broken.rules_[2]  # `age = pre-presbyopic ...` is perfect after its 3 tests: add a fourth
    extra = dataclasses.replace(rule, attributes=rule.attributes + (1,), codes=rule.codes + (0,),
                                conditions=rule.conditions + (("spectacle-prescrip", "myope"),))
    broken.rules_ = [*broken.rules_[:2], extra, *broken.rules_[3:]]
    assert not _math_checks.stops_when_perfect(broken, X, y)[0]


def test_stops_when_no_attribute_left_on_a_contradicting_copy(lenses):
    X, y, _ = lenses
    ok, detail = _math_checks.stops_when_no_attribute_left(X, y, np.random.default_rng(0))
    assert ok and "stop with all 4 attributes used" in detail, detail
    # the same draw gives the same data; a model of the data without the copy has no imperfect rule
    X2, y2, row, label = _math_checks.contradictory_copy(X, y, np.random.default_rng(0))
    assert len(X2) == 25 and X2.iloc[-1].equals(X.iloc[row]) and y2.iloc[-1] == label != y.iloc[row]
    clean = Prism(pruning=None).fit(X2.iloc[:24], y2.iloc[:24])
    assert not _math_checks.stops_when_no_attribute_left(X, y, np.random.default_rng(0), model=clean)[0]


def test_coverage_reduces_both_readings(lenses):
    import dataclasses

    X, y, model = lenses
    wide, detail = _math_checks.coverage_reduces(model, X, y)
    strict, _ = _math_checks.coverage_reduces(model, X, y, strict=True)
    assert wide and not strict  # rule 7's `tear-prod-rate = normal` keeps t at 4 (as Weka's rule does)
    assert "reduces it on 25" in detail and "`tear-prod-rate = normal` (4 → 4)" in detail
    # a rule without that test reduces its coverage strictly at every step
    fixed = copy.deepcopy(model)
    rule = fixed.rules_[6]
    keep = [k for k, (name, _) in enumerate(rule.conditions) if name != "tear-prod-rate"]
    fixed.rules_[6] = dataclasses.replace(rule, attributes=tuple(rule.attributes[k] for k in keep),
                                          codes=tuple(rule.codes[k] for k in keep),
                                          conditions=tuple(rule.conditions[k] for k in keep))
    assert _math_checks.coverage_reduces(fixed, X, y, strict=True)[0]


def test_one_rule_per_leaf_counts_leaves_and_path_lengths():
    demo = _figures.replicated_subtree_demo(seed=0)
    assert _math_checks.one_rule_per_leaf(demo["tree"], demo["leaf_rules"], 0)[0]
    assert not _math_checks.one_rule_per_leaf(demo["tree"], demo["leaf_rules"][1:], 0)[0]
    shortened = [demo["leaf_rules"][0].replace(" and ", " then x #", 1).split(" #")[0], *demo["leaf_rules"][1:]]
    assert not _math_checks.one_rule_per_leaf(demo["tree"], shortened, 0)[0]


def test_replicated_subtree_over_every_tree():
    census = _math_checks.tree_census()
    cart = {"seed": 0, "tree": "b(d(-,c(-,x)),a(c(-,d(-,x)),x))"}
    ok, detail = _math_checks.replicated_subtree(census, cart)
    assert ok and detail.startswith("of the 48 decision trees") and "the 16 smallest (7 leaves)" in detail, detail
    # by hand: the root (4 choices) leaves one conjunction (2 trees) and the disjunction of the other's
    # variable with it (6 trees, 2 of them with the smallest 4 leaves)
    a, b, c, d = _math_checks._ASSIGNMENTS.T
    assert len(_math_checks.all_trees((a & b) | (c & d))) == 4 * 2 * 6
    # (a and b) or c has no replicated subtree: a tree rooted at c decides c = true at once
    ok, detail = _math_checks.replicated_subtree(_math_checks.tree_census((a & b) | c))
    assert not ok and "of the 6 decision trees" in detail, detail


def test_identical_subtrees_read_literally_hold_for_half_the_smallest_trees():
    census = _math_checks.tree_census()
    smallest = census[census["smallest"]]
    # the root and the other conjunction's first test under each branch: 4 x 2 x 2 smallest trees, of
    # which the 8 with the same first test under both branches repeat a subtree test for test
    assert len(smallest) == 16 and int(smallest["two identical subtrees"].sum()) == 8
    assert int(census["two identical subtrees"].sum()) == 32
    assert smallest["conjunction in two disjoint subtrees"].all()
    cart = {"seed": 0, "tree": "b(d(-,c(-,x)),a(c(-,d(-,x)),x))"}
    ok, detail = _math_checks.replicated_subtree_literal(census, cart)
    assert not ok and "8 contain two identical subtrees" in detail and "is one of the smallest and has no two" in detail
    ok, detail = _math_checks.replicated_subtree_some(census)
    assert ok and detail.startswith("8 of the 16 smallest"), detail
    # a census where every smallest tree repeats a subtree exactly makes the literal reading hold; one where
    # none does breaks the existential one
    assert _math_checks.replicated_subtree_literal(census.assign(**{"two identical subtrees": True}))[0]
    assert not _math_checks.replicated_subtree_some(census.assign(**{"two identical subtrees": False}))[0]
    # the CART tree of seed 0 is one of the 16
    demo = _figures.replicated_subtree_demo(seed=0)
    assert _math_checks.sklearn_tree_text(demo["tree"], list("abcd")) == cart["tree"]
    assert cart["tree"] in set(smallest["tree"])


def test_the_wider_class_of_trees_has_the_same_smallest_trees():
    narrow, wide = _math_checks.tree_census(), _math_checks.tree_census(tests="untested")
    assert len(wide) == 320 and len(narrow) == 48
    assert set(wide.loc[wide["smallest"], "tree"]) == set(narrow.loc[narrow["smallest"], "tree"])
    assert set(narrow["tree"]) <= set(wide["tree"])
    with pytest.raises(ValueError, match="tests must be one of"):
        _math_checks.all_trees(_math_checks._disjunction(), tests="any")


def test_tie_rules_change_only_exact_ties(lenses):
    X, y, model = lenses
    last = _claims.tie_order(X, "last")
    assert list(last.columns) == list(X.columns)[::-1]
    assert list(last["age"].cat.categories) == ["presbyopic", "pre-presbyopic", "young"]
    checks, order = _claims.tie_variant_checks(X, y, "last")
    assert order.startswith("tear-prod-rate (normal, reduced)")
    # step 1's exact tie goes the other way: the first test is `tear-prod-rate = normal`, also 4 of 12
    assert checks["first-test"][0] and "`tear-prod-rate = normal`, covers 12 instances, 4 of them" in checks["first-test"][1]
    assert checks["refine"][0] and checks["exact-after-third"][0] and checks["ties"][0]
    assert checks["first-test"][1].endswith("; under tie=last")
    # the restored tables broke that tie as Weka does: the trace no longer matches them
    assert not checks["trace"][0]
    # the same rules as sets of tests (only the order of the tests within a rule, and which rule, can change)
    refit = Prism(pruning=None).fit(last, y)
    assert refit.score(last, y) == 1.0
    random_checks, random_order = _claims.tie_variant_checks(X, y, "random", np.random.default_rng(0))
    assert random_checks["covering"][0] and random_order != order
    with pytest.raises(ValueError, match="needs rng"):
        _claims.tie_order(X, "random")


def testsplit_names_shorten_runs():
    assert _claims.split_names(["weka:1", "numpy:0", "numpy:1", "numpy:2", "numpy:5"]) == "weka:1, numpy:0–2 and numpy:5"
    assert _claims.split_names(["numpy:3"]) == "numpy:3"


def test_more_rules_2d_counts_the_points():
    example = _figures.covering_2d_example(seed=0)
    n_b = int((example["points"]["class"] == "b").sum())
    assert _math_checks.more_rules_2d(example["uncovered_b"], n_b)[0]
    assert not _math_checks.more_rules_2d(0, n_b)[0]


def test_refine_reads_every_candidate_second_test_and_catches_an_exact_one(lenses):
    X, y, model = lenses
    ok, detail = covering_checks(model, X, y)["refine"]
    assert ok and "of the 7 candidate second tests" in detail and "exact: none" in detail
    assert "2/4, 1/4, 1/4, 3/6, 1/6, 0/6 and 4/6" in detail
    # relabel the instances `astigmatism = yes` and `tear-prod-rate = normal` cover: the second test is exact
    y2 = y.astype(object).copy()
    mask = (X["astigmatism"] == "yes") & (X["tear-prod-rate"] == "normal")
    y2[mask.to_numpy()] = "hard"
    y2 = y2.astype(y.dtype) if hasattr(y, "cat") else y2
    broken = Prism(pruning=None, keep_trace=True).fit(X, y2)
    ok2, detail2 = covering_checks(broken, X, y2)["refine"]
    assert not ok2 and "exact: none" not in detail2


def test_refine_fails_a_prism_that_stops_after_two_tests(lenses):
    import dataclasses

    X, y, model = lenses
    ok, detail = covering_checks(model, X, y)["refine"]
    assert ok and "the loop goes on: the trace has a third step (5 candidate tests) and the rule a third test" in detail
    # the same model, its first `hard` rule cut after two tests and its trace after step 2
    stopped = copy.deepcopy(model)
    trace = stopped.trace_
    first = int(trace.loc[trace["class"] == "hard", "rule"].min())
    index = [i for i, rule in enumerate(stopped.rules_) if rule.label == "hard"][0]
    rule = stopped.rules_[index]
    stopped.rules_[index] = dataclasses.replace(rule, conditions=rule.conditions[:2], attributes=rule.attributes[:2],
                                                codes=rule.codes[:2], p=4, t=6)
    stopped.trace_ = trace[~((trace["rule"] == first) & (trace["step"] > 2))].reset_index(drop=True)
    ok2, detail2 = covering_checks(stopped, X, y)["refine"]
    assert not ok2 and "exact: none" in detail2 and "the loop stops" in detail2
    # the rule cut alone (the trace kept) fails it too
    stopped.trace_ = trace
    assert not covering_checks(stopped, X, y)["refine"][0]


def test_restored_trace_says_how_many_candidates_it_covers(lenses):
    X, y, model = lenses
    first = _tables.first_rule_trace(model, "hard")
    comparison = _tables.trace_comparison(first)
    ok, detail = _claims.restored_trace(comparison, first)
    assert ok and "24 of 24" in detail
    assert "12 of the trace's 21 candidate tests (9 of the 9 of step 1, 1 of the 7 of step 2 and 2 of the 5 of step 3)" in detail
    broken = comparison.copy()
    broken.iloc[0, broken.columns.get_loc("difference")] = 1
    assert not _claims.restored_trace(broken, first)[0]
    assert "11 of the trace's 21" in _claims.restored_trace(comparison.iloc[2:], first)[1]


def test_fold_checks_split_weka_from_the_seeded_splits(lenses):
    X, y, _ = lenses
    config = paper02.Config(n_repeats=2)
    folds = _tables.fold_list_comparison(y, config)
    checks = _claims.fold_checks(folds)
    assert checks["folds-weka"] == (True, "1 of 1 committed split identical, row by row (weka:1)")
    assert checks["folds-seeded"][0] and "2 of 2 committed splits" in checks["folds-seeded"][1]
    broken = folds.copy()
    broken.loc["weka:1", "identical"] = False
    checks = _claims.fold_checks(broken)
    assert not checks["folds-weka"][0] and checks["folds-seeded"][0]
    assert _claims.fold_checks(folds.iloc[0:0]) == {}


def test_tree_and_rule_sizes_of_slide_2():
    census = _math_checks.tree_census()
    ok, detail = _math_checks.rules_to_tree(census)
    assert ok and "7 leaves and 6 test nodes" in detail and "2 rules hold 4 tests" in detail
    # a function a small tree computes (a and b): its smallest tree has 2 tests, no more than the rules'
    a, b = _math_checks._ASSIGNMENTS.T[:2]
    assert not _math_checks.rules_to_tree(_math_checks.tree_census(function=a & b))[0]
    ok, detail = _claims.tree_to_rules(["If a = true and b = true then x", "If a = false then -",
                                        "If a = true and b = false then -"], seed=3)
    assert ok and detail == ("the tree (seed 3) converts, one pass over its leaves' paths, into 3 rules (1 for x) "
                             "holding 5 tests")
    assert not _claims.tree_to_rules([], seed=3)[0]


def test_rule_orders_change_only_instances_covered_by_several_classes(lenses):
    X, y, model = lenses
    labels = [rule.label for rule in model.rules_]
    reversed_order = _protocol.rule_order(model, "reversed")
    assert sorted(reversed_order) == list(range(len(labels)))
    assert labels[reversed_order[0]] == list(dict.fromkeys(labels))[-1]
    coverage = _protocol.rule_order(model, "coverage")
    assert [model.rules_[i].p for i in coverage] == sorted((r.p for r in model.rules_), reverse=True)
    with pytest.raises(ValueError, match="order must be one of"):
        _protocol.rule_order(model, "random")
    config = paper02.Config(n_repeats=1)
    main = paper02.run(config)
    for order in _protocol.RULE_ORDERS:
        rows = _protocol.rule_order_rows(config, order)
        merged = main.merge(rows, on=["method", "seed", "fold"], suffixes=("", " order"))
        assert len(merged) == len(rows) == 2 * 10 * 2
        # coverage does not depend on the order: the same unclassified counts
        assert (merged["unclassified"] == merged["unclassified order"]).all()
        assert (merged["n_test"] == merged["n_test order"]).all()
    # both orders from one fit per fold: each equals the model's own predict with its rules reordered
    together = _protocol.rule_order_variants(config)
    folds = _protocol.weka_cv_folds(y, 10, seed=1)
    for order, rows in together.items():
        pd.testing.assert_frame_equal(rows, _protocol.rule_order_rows(config, order))
        for method, uncovered in (("PRISM", "unclassified"), ("PRISM + default class", "default_class")):
            got = rows[(rows["seed"] == "weka:1") & (rows["method"] == method)].set_index("fold")
            for fold, (train, test) in enumerate(folds):
                fitted = Prism(uncovered=uncovered, pruning=None).fit(X.iloc[train], y.iloc[train])
                fitted.rules_ = [fitted.rules_[i] for i in _protocol.rule_order(fitted, order)]
                predicted = np.asarray(fitted.predict(X.iloc[test]), dtype=object)
                truth = np.asarray(y.iloc[test], dtype=object)
                assert got.loc[fold, "correct"] == int((predicted == truth).sum()), (order, method, fold)
    # on Weka's folds, the learnt order is the main run's: a fold changes only where rules of several classes cover
    conflicts = _tables.cv_conflicts(X, y, folds).drop(index="total")
    rows = _protocol.rule_order_rows(config, "reversed")
    merged = main.merge(rows, on=["method", "seed", "fold"], suffixes=("", " order"))
    weka = merged[(merged["seed"] == "weka:1") & (merged["method"] == "PRISM")].set_index("fold")
    changed = weka.index[weka["correct"] != weka["correct order"]] + 1
    assert set(changed) <= set(conflicts.index[conflicts["rules of several classes"] > 0])


def test_variant_sentences_name_a_flipped_direction():
    index = pd.MultiIndex.from_tuples([("tree-vs-prism", "main"), ("tree-vs-prism", "seed=10"),
                                       ("tree-vs-prism", "order=reversed")], names=["claim", "variant"])
    same = pd.DataFrame({"mean": [20.0, 15.0, 25.0], "low": [1.0, -2.0, 3.0], "high": [40.0, 30.0, 45.0],
                         "wins": [10, 9, 10], "ties": [0, 1, 0], "losses": [0, 0, 0], "repeats": [10] * 3}, index=index)
    text = _cv_observations.variant_sentences(same)["tree-vs-prism"]
    assert "is the main run's under all 2" in text and "`seed=10` +15.0 points [−2.0, +30.0], head to head 9/1/0" in text
    # which intervals support a direction: the main run's and order=reversed's exclude 0, seed=10's does not
    assert "the corrected interval excludes 0 under the main run and `order=reversed` and includes it under `seed=10`" in text
    assert "excludes 0 under all 3" in _cv_observations.variant_sentences(same.assign(low=[1.0, 2.0, 3.0]))["tree-vs-prism"]
    assert "includes 0 under all 3" in _cv_observations.variant_sentences(same.assign(low=[-1.0, -2.0, -3.0]))["tree-vs-prism"]
    flipped = same.assign(mean=[20.0, -1.0, 0.0])
    text = _cv_observations.variant_sentences(flipped)["tree-vs-prism"]
    assert "flips under `seed=10`" in text and "it is 0 under `order=reversed`" in text


def test_paired_folds_says_the_interval_ignores_the_floor(protocol):
    data = claims_data(protocol, {}, None)
    with_floor = _claims.paired_folds(data, "PRISM + default class", "PRISM", floor=True)[1]
    without = _claims.paired_folds(data, "PRISM + default class", "PRISM")[1]
    assert "ignores that floor at 0" in with_floor and "floor" not in without
    assert _claims.claims_measures()["default_class_folds"](data)[1] == with_floor


@pytest.fixture(scope="module")
def judged(protocol):
    census = _math_checks.tree_census()
    ok = (True, "")
    checks = {name: ok for name in ("trace", "rules", "training", "weka-cv", "baselines", "modular",
                                    "conflicts-unseen", "supermarket")}
    checks.update(_claims.tree_class_checks("relevant"))
    return _claims.claims_report(protocol, checks), census, checks


def test_discussion_covers_every_row_without_empty_clauses(judged):
    report, _, _ = judged
    text = paper02.discussion(report).data
    items = [line for line in text.split("\n") if line.startswith("* **")]
    assert [line.split("**")[1].rstrip(".") for line in items] == list(report.table["id"])
    assert "; ." not in text and ";." not in text and "; ;" not in text
    given = paper02.discussion(report, {"tree-vs-prism": {"variants": "VARIANTS"}}).data
    assert "VARIANTS" in given or "tree-vs-prism.** Not evaluated" in given


def test_discussion_states_the_claims_tables_robustness_for_every_row(lenses, protocol):
    X, y, model = lenses
    checks, _ = _claims.conformance_checks(model, X, y, np.random.default_rng(0))
    tie_checks, _ = _claims.tie_variant_checks(X, y, "last")
    report = _claims.claims_report(protocol, checks, {"tie=last": claims_data(protocol, {**checks, **tie_checks})})
    text = paper02.discussion(report).data
    # an item runs to the next one (its first sentence, then the rest folded under it)
    items = {block.split("**")[0].rstrip("."): block for block in ("\n" + text).split("\n* **")[1:]}
    rows = report.table.set_index("id")
    stated = [i for i, row in rows.iterrows() if isinstance(row["sensitivity"], str) and row["sensitivity"]
              and row["verdict"] != "n/a"]
    assert {"covering", "coverage-reduces", "ties-larger-p"} <= set(stated), stated
    for i in stated:  # the Discussion's clause is the claims table's
        assert f"; {rows.loc[i, 'sensitivity']}" in items[i], i
    # a template that drops the clause is refused
    broken = copy.deepcopy(report)
    table = broken.table
    row = table.index[table["id"] == "covering"][0]
    table.loc[row, "discussion"] = table.loc[row, "discussion"].replace("{robustness}", "")
    with pytest.raises(ValueError, match="'covering'"):
        paper02.discussion(broken)


def test_glance_counts_slide_2_once_and_lists_the_adverse_changes(judged, protocol):
    report, census, checks = judged
    text = _prose.describe_glance(report, census).data
    assert "counted once here: **ambiguous**" in text
    assert "8 of the 16 smallest trees contain two identical subtrees" in text
    assert "slide 10's one surviving number" in text and "no honest check applies" in text
    # the selection rule says why slide 2's "cannot easily" is judged and "Easy" / "More difficult" are not
    assert "properties of the resulting trees" in text and "qualify a process, whose ease is not measured" in text
    # the note on slide 2 names its other sentences, each with its kind
    others = text.split("Slide 2's other sentences: ")[1].split("\n")[0]
    for name in ("one-rule-per-leaf", "disjunction-rules", "tree-to-rules-easy", "rules-to-tree-harder"):
        assert f"[`{name}`](#claim-02-{name})" in others, name
    assert "(#claim-02-tree-to-rules-easy), observation)" in others
    assert "replicated-subtree-literal" not in others
    for name in ("first-test-4-of-12", "replicated-subtree-literal", "coverage-reduces-strictly", "default-class"):
        assert f"[`{name}`](#claim-02-{name})" in text.split("**Changed after the results were seen.**")[1]
    # both readings holding (a broken literal check): the sentence is no longer ambiguous
    both = dict(checks, **{"replicated-subtree-literal": (True, "")})
    text = _prose.describe_glance(_claims.claims_report(protocol, both), census).data
    assert "**ambiguous**" not in text and "counted once here: **holds**" in text


def test_section_tables_take_kind_and_verdict_from_the_registry(lenses):
    X, y, model = lenses
    rows = _claims.registry_rows()
    table = _math_checks.conformance_table({"covering": (True, "a"), "coverage-reduces-strictly": (False, "b"),
                                            "replicated-subtree-literal": (False, "c"),
                                            "replicated-subtree-some-tree": (True, "d")}, rows)
    assert table.loc["covering", ["claims row", "kind", "verdict (main run)"]].tolist() == [
        "covering", "conformance check", "agrees"]
    assert table.loc["coverage-reduces-strictly", "verdict (main run)"] == "observed"
    assert table.loc["replicated-subtree-literal", ["kind", "verdict (main run)"]].tolist() == [
        "mathematical statement", "fails"]
    assert table.loc["replicated-subtree-some-tree", "verdict (main run)"] == "holds"
    # a row that holds by construction says so in the column, as the claims table does
    built = _math_checks.conformance_table({"coverage-reduces": (True, "e"), "one-rule-per-leaf": (True, "f"),
                                            "ties": (True, "g"), "trace": (False, "h")}, rows)
    assert built["verdict (main run)"].tolist() == [
        "agrees (by construction)", "agrees (by construction)", "agrees", "differs (by construction)"]
    # without the registry rows, no verdict word is printed
    assert _math_checks.conformance_table({"covering": (False, "a")}).loc["covering", "verdict (main run)"] == ""


def test_missing_declared_first_moves_only_the_missing_value_and_can_change_ties():
    from companion.preprocessing import MISSING_VALUE_NAME

    X = pd.DataFrame({"a": pd.Categorical(["t", "t", None, None], categories=["t"]),
                      "c": pd.Categorical(["u", "v", "v", "u"], categories=["u", "v"])})
    y = pd.Series(["pos", "neg", "pos", "neg"])
    first = _protocol.missing_declared_first(X)
    assert list(first["a"].cat.categories) == [MISSING_VALUE_NAME, "t"]
    assert list(first["c"].cat.categories) == [MISSING_VALUE_NAME, "u", "v"]
    assert (first.astype(object) == X.astype(object).where(X.notna(), MISSING_VALUE_NAME)).all().all()
    # every first test ties exactly (1/2, p = 1): the earliest attribute, then the earliest declared value
    last_rules = [r.to_text() for r in Prism(missing="value", pruning=None).fit(X, y).rules_]
    first_rules = [r.to_text() for r in Prism(missing="value", pruning=None).fit(first, y).rules_]
    assert last_rules != first_rules
    assert last_rules[0].startswith("If a = t ") and first_rules[0].startswith(f"If a = {MISSING_VALUE_NAME} ")


def test_supermarket_check_names_the_encoding_and_catches_another_count():
    ok, detail = _claims.supermarket_check(1506, 1506)
    assert ok and "under the encoding of Weka's recorded run" in detail and "declared after `t`" in detail
    ok2, detail2 = _claims.supermarket_check(1505, 1506, "first")
    assert not ok2 and "1505 rules, Weka 1506" in detail2 and "declared before `t`" in detail2


def test_describe_supermarket_generates_the_size_and_both_encodings(weather):
    X, y, model = weather
    scale = {"model": model, "n_samples": len(X), "n_features": X.shape[1], "n_rules": len(model.rules_),
             "max_conditions": 2, "training_accuracy": 1.0}
    speed = pd.Series({"ratio": 0.05, "identical": True})
    n = len(model.rules_)
    text = _prose.describe_supermarket(scale, speed, n, dict(scale), n).data
    assert text.startswith(f"On {len(X)} baskets by {X.shape[1]} departments, ")
    assert f"The rule count is equal to Weka's ({n})" in text and f"Weka's Prism {n} on the same encoding (equal;" in text
    wrong = _prose.describe_supermarket(scale, speed, n + 1, dict(scale), n + 1).data
    assert f"The rule count is not Weka's ({n + 1})" in wrong and "(different;" in wrong
    assert "declared before" not in _prose.describe_supermarket(scale, speed, n).data


def test_supermarket_rules_check_compares_rule_by_rule():
    ours = ["If a = t then low", "If b = missing and c = t then high", "If d = t then high"]
    ok, detail = _claims.supermarket_rules_check(ours, list(ours))
    assert ok and detail.startswith("3 of our 3 rules equal Weka's stored list's (3) at the same place")
    assert "first difference: none" in detail and "declared after `t`" in detail
    swapped = [ours[0], ours[2], ours[1]]
    ok2, detail2 = _claims.supermarket_rules_check(ours, swapped, "first")
    assert not ok2 and "1 of our 3 rules" in detail2 and "first difference: rule 2" in detail2
    ok3, detail3 = _claims.supermarket_rules_check(ours, ours[:2])
    assert not ok3 and "first difference: rule 3 (one list ends)" in detail3


def test_weka_rule_lines_print_one_rule_a_line_in_wekas_words():
    from companion.preprocessing import MISSING_VALUE_NAME

    X = pd.DataFrame({"a": pd.Categorical(["t", "t", None, None, "t"], categories=["t"]),
                      "b": pd.Categorical(["t", None, "t", None, None], categories=["t"])})
    y = pd.Series(["low", "high", "low", "high", "high"])
    model = Prism(missing="value", pruning=None).fit(X, y)
    lines = _protocol.weka_rule_lines(model)
    assert len(lines) == len(model.rules_)
    assert all(line.startswith("If ") and " then " in line and "\n" not in line for line in lines)
    assert any(" = missing" in line for line in lines) and not any(f" = {MISSING_VALUE_NAME}" in line for line in lines)


@pytest.mark.slow
def test_supermarket_rule_lists_equal_wekas_stored_lists():
    from companion.datasets import load_peers, load_supermarket

    stored = load_peers("prism", table="supermarket_rules")
    data = load_supermarket()
    for missing in ("last", "first"):
        fit = _protocol.supermarket_scale(missing=missing, data=data)
        weka = stored.loc[stored["encoding"] == missing, "text"].to_numpy()
        ok, detail = _claims.supermarket_rules_check(_protocol.weka_rule_lines(fit["model"]), weka, missing)
        assert ok and f"{len(weka)} of our {len(weka)} rules" in detail, detail
        # one test of one rule changed in Weka's list: found at its place
        broken = weka.copy()
        broken[9] = broken[9].replace(" = t", " = missing", 1) if " = t" in broken[9] else broken[9] + " x"
        assert "first difference: rule 10" in _claims.supermarket_rules_check(
            _protocol.weka_rule_lines(fit["model"]), broken, missing)[1]


def test_describe_stand_ins_states_each_gap():
    stand_ins = pd.DataFrame({"stands in for": ["J48", "JRip"], "Weka's accuracy %": [83.3, 75.0],
                              "stand-in accuracy %": [83.3, 62.5]},
                             index=["decision tree (CART, one-hot)", "RIPPER (wittgenstein, one-vs-rest)"])
    repeated = pd.DataFrame({"mean accuracy %": [80.8, 62.9]}, index=stand_ins.index)
    weka = pd.DataFrame({"mean accuracy %": [84.6, 81.7]}, index=["J48", "JRip"])
    text = _prose.describe_stand_ins(stand_ins, repeated, weka).data
    assert "RIPPER (wittgenstein, one-vs-rest) scores 62.5 % against JRip's recorded 75.0 % (−12.5 points)" in text
    assert "decision tree (CART, one-hot) scores 80.8 % against Weka's J48 re-run on the same splits, 84.6 % (−3.8 points)" in text
    assert "Over the repeated splits" not in _prose.describe_stand_ins(stand_ins, repeated).data


def test_subtree_size_variant_counts_only_repeated_subtrees_of_two_tests():
    wide = _math_checks.tree_census()
    narrow = _math_checks.tree_census(subtrees="two-tests")
    assert (wide["tree"] == narrow["tree"]).all() and (wide["smallest"] == narrow["smallest"]).all()
    # trees whose only identical pair is a single test (`d(-,x)` twice) drop out; copies of a conjunction stay
    dropped = wide["two identical subtrees"] & ~narrow["two identical subtrees"]
    assert dropped.sum() == 24 and (narrow["two identical subtrees"] == narrow["identical copies of a conjunction"]).all()
    assert (wide["leaves"] == wide["tests"] + 1).all()
    ok, detail = _math_checks.replicated_subtree_some(narrow)
    assert ok and "subtrees of two tests or more only" in detail
    literal = _math_checks.replicated_subtree_literal(narrow)[1]
    assert "8 of all 48 trees contain two identical subtrees" in literal and "(48 of 48)" in literal
    with pytest.raises(ValueError, match="subtrees must be one of"):
        _math_checks.tree_census(subtrees="three")
