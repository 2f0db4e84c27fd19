"""Tests of companion.prism (PRISM), companion.baselines.OneR and experiments.paper02.

The naive references (tests/_naive.py) are loop-by-loop transcriptions of Weka 3.6's
``weka.classifiers.rules.Prism.buildClassifier`` and of Holte's OneR; the vectorised learners
must agree with them on random nominal data.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.preprocessing import KBinsDiscretizer
from sklearn.tree import DecisionTreeClassifier

from companion.datasets import load_contact_lenses, load_iris
from companion.experiments.paper02 import _protocol, _tables
from companion.paper_numbers import paper_table
from companion.baselines import OneR
from companion.preprocessing import MISSING_VALUE_NAME
from companion.prism import Prism, PrismRule, _best_test, _best_test_scan, _drop_rules_below_default
from tests._naive import as_codes, naive_oner, naive_prism, rules_as_tuples
from companion.experiments.paper02._figures import disjunction_data, tree_leaf_rules
from companion.experiments.paper02._protocol import JavaRandom, cross_validate, learners

# --------------------------------------------------------------------------------------------
# Naive references: tests/_naive.py (naive_prism, naive_oner, as_codes, rules_as_tuples)
# --------------------------------------------------------------------------------------------


def random_nominal(rng, n=None, d=None, missing_rate=0.0):
    """A random categorical DataFrame (declared orders shuffled) and categorical labels."""
    n = int(rng.integers(3, 50)) if n is None else n
    d = int(rng.integers(1, 6)) if d is None else d
    n_classes = int(rng.integers(2, 4))
    columns, n_values = {}, []
    for a in range(d):
        k = int(rng.integers(1, 5))
        n_values.append(k)
        names = [f"v{j}" for j in rng.permutation(k)]
        cells = rng.integers(0, k, size=n).astype(object)
        values = np.array([names[c] for c in cells], dtype=object)
        values[rng.random(n) < missing_rate] = None
        columns[f"a{a}"] = pd.Categorical(values, categories=names)
    labels = [f"c{j}" for j in rng.permutation(n_classes)]
    y = pd.Series(pd.Categorical([labels[c] for c in rng.integers(0, n_classes, size=n)], categories=labels))
    return pd.DataFrame(columns), y


# --------------------------------------------------------------------------------------------
# The paper's numbers: Weka's rules, the slides' trace, Weka's CV
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def lenses():
    return load_contact_lenses()


@pytest.fixture(scope="module")
def fitted(lenses):
    X, y = lenses
    return Prism(pruning=None, keep_trace=True).fit(X, y)


def test_the_nine_weka_rules(fitted):
    expected = paper_table("02_prism_rules").sort_values("order")
    assert [r.to_text() for r in fitted.rules_] == list(expected["rule"])
    assert [r.label for r in fitted.rules_] == list(expected["class"])


def test_weka_layout(fitted):
    text = fitted.to_text(weka_layout=True)
    assert text.startswith("Prism rules\n----------\nIf astigmatism = no\n   and tear-prod-rate = normal")
    assert text.endswith("then none\n")


def test_training_accuracy_matches_weka(fitted, lenses):
    X, y = lenses
    weka = paper_table("02_prism_weka_results").set_index(["learner", "measure"])["value"]
    assert int(round(fitted.score(X, y) * len(y))) == weka[("Prism", "training correct")]
    assert fitted.coverage(X) == 1.0


def test_slides_trace_of_first_hard_rule(fitted):
    ours = _tables.first_rule_trace(fitted, "hard")
    paper = paper_table("02_prism_first_rule_trace")
    merged = paper.merge(ours, on=["step", "attribute", "value"], suffixes=("_paper", "_ours"))
    assert len(merged) == len(paper)
    for column in ("p", "t", "selected"):
        assert (merged[f"{column}_paper"] == merged[f"{column}_ours"]).all(), column
    comparison = _tables.trace_comparison(ours)
    assert (comparison["difference"] == 0).all()


def test_weka_cross_validation_counts(lenses):
    X, y = lenses
    folds = _protocol.weka_cv_folds(y, n_folds=10, seed=1)
    estimators = {k: v for k, v in learners(seed=0, ripper=False).items()}
    cv = cross_validate(estimators, X, y, folds)
    weka = paper_table("02_prism_weka_results").set_index(["learner", "measure"])["value"]
    for measure in ("correct", "incorrect", "unclassified"):
        assert cv.loc["PRISM", measure] == weka[("Prism", f"cv {measure}")]
    for name in ("ZeroR", "OneR"):
        assert round(cv.loc[name, "accuracy %"], 1) == weka[(name, "cv accuracy")]


def test_weka_folds_partition_and_stratify(lenses):
    _, y = lenses
    folds = _protocol.weka_cv_folds(y, n_folds=10, seed=1)
    tests = np.concatenate([test for _, test in folds])
    assert sorted(tests.tolist()) == list(range(len(y)))
    for train, test in folds:
        assert np.intersect1d(train, test).size == 0 and len(train) + len(test) == len(y)
    assert [len(test) for _, test in folds] == [3, 3, 3, 3, 2, 2, 2, 2, 2, 2]


def test_java_random_matches_java():
    # Printed by java.util.Random (OpenJDK 17): new Random(42).nextInt(10), and new Random(1)
    # .nextInt(7 + 13 i) for i = 0..7 followed by nextInt(16).
    assert JavaRandom(42).next_int(10) == 0
    generator = JavaRandom(1)
    drawn = [generator.next_int(7 + 13 * i) for i in range(8)] + [generator.next_int(16)]
    assert drawn == [4, 8, 19, 35, 5, 40, 44, 50, 15]


# --------------------------------------------------------------------------------------------
# Agreement with the naive reference
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("missing", ["no_match", "value"])
def test_matches_naive_reference(rng, missing):
    for _ in range(60):
        X, y = random_nominal(rng, missing_rate=0.15)
        model = Prism(pruning=None, missing=missing).fit(X, y)
        assert rules_as_tuples(model, X, y) == naive_prism(*as_codes(X, y, missing))


def test_matches_naive_reference_on_larger_data(rng):
    X, y = random_nominal(rng, n=400, d=8)
    model = Prism(pruning=None).fit(X, y)
    assert rules_as_tuples(model, X, y) == naive_prism(*as_codes(X, y, "no_match"))


@pytest.mark.parametrize("missing", ["value", "no_match"])
def test_cell_counts_follow_the_first_covering_rule(rng, missing):
    """cell_counts_ (taken from the rows each rule covered while learning) equals the class counts
    of the training rows per first covering rule at prediction time, the last rule of each
    class and the rows no rule covers included."""
    for _ in range(30):
        X, y = random_nominal(rng, missing_rate=0.15)
        model = Prism(pruning=None, missing=missing).fit(X, y)
        fired = model.firing_rule(X)
        classes = np.searchsorted(model.classes_, np.asarray(y, dtype=object))
        expected = np.zeros((len(model.rules_), len(model.classes_)), dtype=np.int64)
        np.add.at(expected, (fired[fired >= 0], classes[fired >= 0]), 1)
        np.testing.assert_array_equal(model.cell_counts_, expected)


def test_best_test_equals_weka_scan_on_larger_counts(rng):
    """The integer fast path (equal doubles are exactly the tied ratios) against Weka's scan."""
    for _ in range(300):
        k = int(rng.integers(1, 40))
        t = rng.integers(0, 5000, size=k)
        t[rng.random(k) < 0.3] = rng.choice([6, 12, 18])  # tied ratios: 1/6, 2/12, 3/18 ...
        p = np.minimum(rng.integers(0, 5000, size=k), t)
        p[t % 6 == 0] = t[t % 6 == 0] // 6
        candidate = rng.random(k) < 0.8
        assert _best_test(p, t, candidate) == _best_test_scan(p, t, candidate)


def test_best_test_equals_weka_scan(rng):
    for _ in range(500):
        k = int(rng.integers(1, 12))
        t = rng.integers(0, 6, size=k)
        p = np.minimum(rng.integers(0, 6, size=k), t)
        candidate = rng.random(k) < 0.8
        assert _best_test(p, t, candidate) == _best_test_scan(p, t, candidate)


def test_oner_matches_naive_reference(rng):
    for _ in range(40):
        X, y = random_nominal(rng, missing_rate=0.1)
        model = OneR().fit(X, y)
        attribute, mapping, errors = naive_oner(*as_codes(X, y, "value"))
        assert model.attribute_ == attribute
        assert model.training_errors_ == errors
        names = model.encoding_.values[attribute]
        assert model.value_classes_ == {names[v]: y.cat.categories[c] for v, c in mapping.items()}


# --------------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------------


def consistent_nominal(rng, n=60, d=4):
    """Random nominal data whose label is a function of the attributes (no clashes)."""
    X, _ = random_nominal(rng, n=n, d=d)
    keys = X.astype(str).agg("|".join, axis=1)
    label_of_key = {key: f"c{rng.integers(0, 3)}" for key in keys.unique()}
    y = pd.Series(pd.Categorical(keys.map(label_of_key)))
    return X, y


def test_consistent_data_perfect_rules_full_coverage_zero_error(rng):
    for _ in range(20):
        X, y = consistent_nominal(rng)
        model = Prism(pruning=None).fit(X, y)
        assert all(rule.perfect for rule in model.rules_)
        fired = model.firing_rule(X)
        assert (fired >= 0).all()
        assert model.score(X, y) == 1.0
        # Every instance of class C is covered by some rule for C.
        for label in y.cat.categories:
            rules_for = [k for k, r in enumerate(model.rules_) if r.label == label]
            covered = np.zeros(len(y), dtype=bool)
            for k in rules_for:
                rule = model.rules_[k]
                codes = model.encoding_.transform(X.to_numpy(dtype=object))
                covered |= np.all(codes[:, list(rule.attributes)] == rule.codes, axis=1)
            assert covered[(y == label).to_numpy()].all()


def test_row_order_invariance(rng):
    for _ in range(10):
        X, y = random_nominal(rng, n=40, d=4)
        order = rng.permutation(len(y))
        a = Prism(pruning=None).fit(X, y).to_text()
        b = Prism(pruning=None).fit(X.iloc[order].reset_index(drop=True), y.iloc[order].reset_index(drop=True)).to_text()
        assert a == b


def test_value_order_changes_tie_breaks_only(lenses):
    X, y = lenses
    reordered = X.copy()
    for column in reordered.columns:
        reordered[column] = reordered[column].cat.reorder_categories(
            list(reversed(reordered[column].cat.categories))
        )
    model = Prism(pruning=None).fit(reordered, y)
    assert model.to_text() != Prism(pruning=None).fit(X, y).to_text()  # tie-breaks moved
    assert model.score(reordered, y) == 1.0  # contact lenses are consistent
    assert all(rule.perfect for rule in model.rules_)


def test_missing_value_satisfies_no_test(rng):
    for _ in range(20):
        X, y = random_nominal(rng, n=40, d=3, missing_rate=0.3)
        model = Prism(pruning=None, missing="no_match").fit(X, y)
        codes = model.encoding_.transform(X.to_numpy(dtype=object))
        missing = X.isna().to_numpy()
        for rule in model.rules_:
            covered = np.all(codes[:, list(rule.attributes)] == rule.codes, axis=1)
            for attribute in rule.attributes:  # no row missing a tested attribute is covered
                assert not (covered & missing[:, attribute]).any()
    # Treated as a value, the missing cell is a test of its own, declared last.
    X = pd.DataFrame({"a": ["u", "u", None, "v"]})
    y = pd.Series(["yes", "yes", "no", "no"])
    as_value = Prism(pruning=None, missing="value").fit(X, y)
    assert as_value.encoding_.values[0] == ["u", "v", MISSING_VALUE_NAME]
    assert "If a = ? then no" in as_value.to_text()


def test_uncoverable_positives_stop_the_class():
    # The only "yes" with an all-missing row can be reached by no test.
    X = pd.DataFrame({"a": ["u", None, "v"], "b": ["s", None, "r"]})
    y = pd.Series(["no", "yes", "no"])
    model = Prism(pruning=None, missing="no_match").fit(X, y)
    assert model.uncoverable_ == 1
    assert all(r.label == "no" for r in model.rules_)


def test_rule_without_tests_when_only_the_class_is_left():
    # Weka: a rule grown on a set holding its class only has no test and covers everything.
    model = Prism(pruning=None).fit(pd.DataFrame({"a": ["u", "v"]}), pd.Series(["k", "k"]))
    assert [r.conditions for r in model.rules_] == [()]
    assert model.rules_[0].to_text() == "k"
    assert list(model.predict(pd.DataFrame({"a": ["w"]}))) == ["k"]


def test_uncovered_policies():
    X = pd.DataFrame({"a": pd.Categorical(["u", "u", "v", "v", "v"], categories=["u", "v", "w"])})
    y = pd.Series(["p", "p", "q", "q", "q"])
    new = pd.DataFrame({"a": pd.Categorical(["w", "u"], categories=["u", "v", "w"])})
    assert list(Prism(pruning=None).fit(X, y).predict(new)) == ["q", "p"]
    unclassified = Prism(pruning=None, uncovered="unclassified").fit(X, y)
    assert list(unclassified.predict(new)) == [None, "p"]
    assert unclassified.coverage(new) == 0.5


def test_integer_codes_and_string_arrays(rng):
    X = rng.integers(0, 3, size=(30, 3))
    y = (X[:, 0] == 1).astype(int)
    model = Prism(pruning=None, categorical_features="all").fit(X, y)  # integer codes, declared nominal
    assert model.score(X, y) == 1.0
    assert str(model.rules_[0]).startswith("If x0 = ")
    assert Prism(pruning=None, discretizer=None).fit(X, y).to_text() == model.to_text()  # codes without a discretiser
    strings = Prism(pruning=None).fit(X.astype(str), y.astype(str))
    assert strings.score(X.astype(str), y.astype(str)) == 1.0


def test_disjunction_gives_the_two_rules():
    X, y = disjunction_data()
    model = Prism(pruning=None).fit(X, y)
    x_rules = [r.to_text() for r in model.rules_ if r.label == "x"]
    assert x_rules == ["If a = true and b = true then x", "If c = true and d = true then x"]
    codes = X.apply(lambda c: c.cat.codes)
    tree = DecisionTreeClassifier(random_state=0).fit(codes, y.astype(str))
    leaves = tree_leaf_rules(tree, list(X.columns))
    assert sum(rule.endswith("then x") for rule in leaves) > 2  # the replicated subtree


# --------------------------------------------------------------------------------------------
# Numeric attributes and bad input
# --------------------------------------------------------------------------------------------


def test_numeric_columns_are_refused_with_a_pointer_to_the_discretizer():
    X, y = load_iris()
    with pytest.raises(ValueError, match=r"(?s)nominal attributes only.*discretizer=KBinsDiscretizer"):
        Prism(pruning=None, discretizer=None).fit(X, y)
    with pytest.raises(ValueError, match="discretizer"):
        OneR(discretizer=None).fit(X, y)
    # By default both bin numbers at the MDL cut points.
    assert Prism(pruning=None).fit(X, y).score(X, y) > 0.9 and OneR().fit(X, y).score(X, y) > 0.9


def test_discretizer_option():
    X, y = load_iris()
    discretizer = KBinsDiscretizer(
        n_bins=3, encode="ordinal", strategy="quantile", quantile_method="averaged_inverted_cdf"
    )
    model = Prism(pruning=None, discretizer=discretizer).fit(X, y)
    assert model.score(X, y) > 0.8  # ZeroR: 1/3; imperfect rules on clashing bins cost the rest
    assert "[" in model.to_text()  # values printed as intervals
    assert not hasattr(discretizer, "bin_edges_")  # the given discretiser is cloned


@pytest.mark.parametrize(
    "params, error, pattern",
    [
        ({"missing": "drop"}, ValueError, "The 'missing' parameter of Prism must be a str among .*Got 'drop'"),
        ({"uncovered": "majority"}, ValueError, "The 'uncovered' parameter of Prism must be"),
        ({"discretizer": 5}, TypeError, "The 'discretizer' parameter of Prism must be None, a str among"),
        ({"keep_trace": "yes"}, TypeError, "The 'keep_trace' parameter of Prism must be an instance of 'bool'"),
    ],
)
def test_bad_parameters(lenses, params, error, pattern):
    X, y = lenses
    with pytest.raises(error, match=pattern):
        Prism(**params).fit(X, y)


def test_bad_input(lenses):
    X, y = lenses
    with pytest.raises(NotFittedError):
        Prism(pruning=None).predict(X)
    model = Prism(pruning=None).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        model.predict(X.iloc[:, :2].to_numpy())
    with pytest.raises(ValueError, match="continuous|Unknown label type"):
        Prism(pruning=None).fit(X, np.linspace(0, 1, len(y)))


def test_trace_selects_the_rules_tests(rng):
    for _ in range(10):
        X, y = random_nominal(rng, n=40, d=4, missing_rate=0.1)
        model = Prism(pruning=None, keep_trace=True).fit(X, y)
        chosen = model.trace_[model.trace_["selected"]]
        for index, rule in enumerate(model.rules_):
            steps = chosen[chosen["rule"] == index].sort_values("step")
            assert list(zip(steps["attribute"], steps["value"])) == list(rule.conditions)
            if len(steps):  # the last chosen test's p/t are the finished rule's
                assert (steps["p"].iloc[-1], steps["t"].iloc[-1]) == (rule.p, rule.t)


def test_a_numeric_column_cut_into_one_bin_gets_no_test():
    # income carries no class information: MDL finds no cut, so "income = (-inf, inf)" (true of
    # every present value) must not be a test; its missing cells stay a value of their own.
    rng = np.random.default_rng(0)
    n = 120
    X = pd.DataFrame({"income": rng.normal(size=n), "k": rng.choice(["a", "b"], n).astype(object)})
    y = np.where(X["k"] == "a", "p", "q")
    X.loc[:9, "income"] = np.nan
    y[:5] = "p"
    model = Prism(pruning=None).fit(X, y)
    assert model.encoding_.values[0] == [MISSING_VALUE_NAME]
    assert "(-inf, inf)" not in model.to_text()
    assert model.score(X, y) > 0.9


def test_missing_value_default_is_a_value_and_weka_is_a_parameter_away():
    X = pd.DataFrame({"a": ["u", "u", None, "v", None], "b": ["s", "r", "s", "r", "r"]})
    y = pd.Series(["yes", "yes", "no", "no", "no"])
    assert Prism(pruning=None).missing == "value" and Prism(pruning=None).fit(X, y).encoding_.values[0][-1] == MISSING_VALUE_NAME
    assert MISSING_VALUE_NAME not in Prism(pruning=None, missing="no_match").fit(X, y).encoding_.values[0]
    # A column without missing cells gets no "?" value.
    assert MISSING_VALUE_NAME not in Prism(pruning=None).fit(X, y).encoding_.values[1]


# --------------------------------------------------------------------------------------------
# The default's rule dropping (pruning="j_measure"): a rule stays only when the list needs it
# --------------------------------------------------------------------------------------------


def _random_rule_list(rng, n_classes):
    """Random integer codes, rules of 1-2 tests on them, labels and whole weights."""
    n, d = int(rng.integers(5, 60)), int(rng.integers(1, 4))
    codes = rng.integers(0, 3, size=(n, d))
    rules, rule_class = [], []
    for _ in range(int(rng.integers(1, 8))):
        attributes = tuple(sorted(rng.choice(d, size=int(rng.integers(0, min(d, 2) + 1)), replace=False).tolist()))
        label = int(rng.integers(0, n_classes))
        rules.append(PrismRule(label=label, conditions=(), attributes=attributes,
                               codes=tuple(int(rng.integers(0, 3)) for _ in attributes), p=0, t=0))
        rule_class.append(label)
    truth = rng.integers(0, n_classes, size=n)
    weight = rng.integers(0, 4, size=n).astype(float)
    return codes, rules, np.array(rule_class), truth, weight


def _naive_list_predictions(rules, rule_class, codes, default):
    """Row by row: the class of the first rule covering the row, else the default class."""
    out = []
    for row in codes:
        covering = [j for j, rule in enumerate(rules) if all(row[a] == v for a, v in zip(rule.attributes, rule.codes))]
        out.append(rule_class[covering[0]] if covering else default)
    return np.array(out)


def _naive_drop(rules, rule_class, codes, truth, weight, default):
    """Loop-by-loop reference of ``_drop_rules_below_default``: a rule's margin is the weight it
    classifies right among the rows it is first to cover minus what the next covering rule (or
    the default class) gets right there; drop the smallest (earliest on ties) while not positive."""
    kept = list(range(len(rules)))
    while kept:
        margins = []
        for j in kept:
            margin = 0.0
            for i, row in enumerate(codes):
                covering = [q for q in kept if all(row[a] == v for a, v in zip(rules[q].attributes, rules[q].codes))]
                if not covering or covering[0] != j:
                    continue
                fallback = rule_class[covering[1]] if len(covering) > 1 else default
                margin += weight[i] * (float(truth[i] == rule_class[j]) - float(truth[i] == fallback))
            margins.append(margin)
        worst = int(np.argmin(margins))
        if margins[worst] > 0:
            break
        del kept[worst]
    return kept


def test_rule_dropping_matches_naive_reference(rng):
    for _ in range(200):
        n_classes = int(rng.integers(2, 4))
        codes, rules, rule_class, truth, weight = _random_rule_list(rng, n_classes)
        default = int(rng.integers(0, n_classes))
        kept, _ = _drop_rules_below_default(rules, [], codes, rule_class, truth, weight, default)
        assert [next(j for j, other in enumerate(rules) if other is rule) for rule in kept] == _naive_drop(rules, rule_class, codes, truth, weight, default)


def test_rule_dropping_never_lowers_training_accuracy_and_keeps_only_needed_rules(rng):
    """Each drop removes a rule whose rows the rest classify at least as well, so the kept list is
    right on at least the weight the whole list is; and removing any kept rule loses weight."""
    for _ in range(200):
        n_classes = int(rng.integers(2, 4))
        codes, rules, rule_class, truth, weight = _random_rule_list(rng, n_classes)
        default = int(rng.integers(0, n_classes))
        kept, _ = _drop_rules_below_default(rules, [], codes, rule_class, truth, weight, default)
        kept_class = np.array([rule.label for rule in kept])

        def right(rule_list, classes):
            return float(weight @ (_naive_list_predictions(rule_list, classes, codes, default) == truth))

        assert right(kept, kept_class) >= right(rules, rule_class)
        for j in range(len(kept)):
            others = kept[:j] + kept[j + 1:]
            assert right(others, np.delete(kept_class, j)) < right(kept, kept_class)


def test_default_prints_no_rule_the_list_does_not_need():
    """crabs (MASS): the whole PRISM list's first rule, of the default class B, takes 28 O rows and
    2 B rows that the next rule classifies as O; the default drops it, and the rest with it
    but one test (7 literals, 0.51 on the training rows, before; issue 58)."""
    from companion.datasets import load_rtables

    X, y = load_rtables("crabs")
    model = Prism().fit(X, y)
    assert model.complexity_ == 1 and model.score(X, y) > 0.7
    assert str(model) == "If FL = (17.45, inf) then O\nOtherwise B"
