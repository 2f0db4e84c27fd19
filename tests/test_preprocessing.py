"""Tests of companion.preprocessing: MDL discretisation (Fayyad & Irani 1993) and the encoders.

The naive MDL reference below is written from the paper's definitions (class entropy of a
partition, the MDLPC acceptance test ``Gain > log2(N - 1) / N + Delta / N``), one candidate
boundary at a time in pure Python; the vectorised :func:`mdl_cut_points` must agree with it
exactly on random data. (``tests/_naive.py`` does not exist yet, so it lives here.)
"""

from __future__ import annotations

import math
from collections import Counter, deque

import numpy as np
import pandas as pd
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from companion.experiments import paper04
from companion.preprocessing import FrameEncoder, MDLDiscretizer, encode_frame, mdl_cut_points
from companion.experiments.paper04._protocol import one_hot_nominal
from companion.prism import Prism
from companion.baselines import OneR
from companion.experiments.paper04._protocol import mdl_codes, prism_fit_predict

# --------------------------------------------------------------------------------------------
# Naive reference
# --------------------------------------------------------------------------------------------


def _naive_entropy(labels) -> float:
    n = len(labels)
    return -sum(k / n * math.log2(k / n) for k in Counter(labels).values())


def naive_mdl_cut_points(values, y, max_cuts=8):
    """Fayyad & Irani's recursive MDLPC, intervals taken breadth-first, at most ``max_cuts`` cuts.

    Every boundary between two distinct sorted values is a candidate; the one of least weighted
    class entropy (leftmost among those within a relative 1e-12 of the least) is kept when it
    passes the MDL test.
    """
    pairs = sorted((float(v), int(c)) for v, c in zip(values, y) if not math.isnan(v))
    xs = [v for v, _ in pairs]
    ys = [c for _, c in pairs]
    cuts = []
    queue = deque([(0, len(xs))])
    while queue and len(cuts) < max_cuts:
        lo, hi = queue.popleft()
        n = hi - lo
        scored = []
        for p in range(lo + 1, hi):
            if xs[p - 1] == xs[p]:
                continue
            left, right = ys[lo:p], ys[p:hi]
            scored.append(((len(left) * _naive_entropy(left) + len(right) * _naive_entropy(right)) / n, p))
        if not scored:
            continue
        lowest = min(e for e, _ in scored)
        entropy, p = next((e, p) for e, p in scored if e <= lowest + 1e-12 * max(1.0, abs(lowest)))
        whole, left, right = ys[lo:hi], ys[lo:p], ys[p:hi]
        k, k1, k2 = len(set(whole)), len(set(left)), len(set(right))
        gain = _naive_entropy(whole) - entropy
        delta = math.log2(3**k - 2) - (
            k * _naive_entropy(whole) - k1 * _naive_entropy(left) - k2 * _naive_entropy(right)
        )
        if gain > (math.log2(n - 1) + delta) / n:
            cuts.append((xs[p - 1] + xs[p]) / 2.0)
            queue.append((lo, p))
            queue.append((p, hi))
    return sorted(cuts)


# --------------------------------------------------------------------------------------------
# MDL cut points
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(60))
def test_mdl_cut_points_match_the_naive_reference(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 60))
    n_classes = int(rng.integers(2, 4))
    values = rng.integers(0, 12, n).astype(float)
    # Labels that depend on the value, with noise, so that cuts are found as well as refused.
    y = np.where(rng.random(n) < 0.8, (values * n_classes // 12).astype(int), rng.integers(0, n_classes, n))
    values[rng.random(n) < 0.1] = np.nan
    max_cuts = int(rng.integers(0, 5))
    expected = naive_mdl_cut_points(values, y, max_cuts)
    assert mdl_cut_points(values, y, n_classes, max_cuts).tolist() == expected


def test_the_reference_finds_cuts_on_these_data():
    """The random comparison above is not vacuous: the reference cuts many of its data sets."""
    found = 0
    for seed in range(60):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(2, 60))
        n_classes = int(rng.integers(2, 4))
        values = rng.integers(0, 12, n).astype(float)
        y = np.where(rng.random(n) < 0.8, (values * n_classes // 12).astype(int), rng.integers(0, n_classes, n))
        found += bool(naive_mdl_cut_points(values, y, 4))
    assert found >= 20


def test_clean_threshold_is_cut_at_the_midpoint():
    values = np.arange(20.0)
    y = (values >= 12).astype(int)
    assert mdl_cut_points(values, y, 2).tolist() == [11.5]


def test_no_cut_on_pure_or_independent_data():
    values = np.arange(40.0)
    assert mdl_cut_points(values, np.zeros(40, dtype=int), 2).size == 0  # one class: no gain
    # Classes alternate along the axis: every split leaves both halves mixed 50/50.
    assert mdl_cut_points(values, np.arange(40) % 2, 2).size == 0
    assert mdl_cut_points(np.full(40, 3.0), (values >= 20).astype(int), 2).size == 0  # no boundary


def test_missing_values_are_ignored_by_the_cuts_and_stay_missing():
    values = np.arange(20.0)
    y = (values >= 12).astype(int)
    with_nan = np.concatenate([values, [np.nan, np.nan]])
    y_nan = np.concatenate([y, [0, 1]])
    assert mdl_cut_points(with_nan, y_nan, 2).tolist() == [11.5]
    X = with_nan[:, None]
    codes = MDLDiscretizer().fit(X, y_nan).transform(X)[:, 0]
    assert np.isnan(codes[-2:]).all()
    assert codes[:20].tolist() == [0.0] * 12 + [1.0] * 8


# --------------------------------------------------------------------------------------------
# MDLDiscretizer
# --------------------------------------------------------------------------------------------


def test_discretizer_bins_are_the_cut_points_closed_on_the_right():
    values = np.arange(20.0)
    y = np.where(values >= 12, "high", "low")
    discretizer = MDLDiscretizer().fit(values[:, None], y)
    assert discretizer.cut_points_[0].tolist() == [11.5]
    assert discretizer.bin_edges_[0].tolist() == [-np.inf, 11.5, np.inf]
    # A value equal to a cut point goes to the lower bin.
    assert discretizer.transform(np.array([[11.5], [11.6], [-100.0], [100.0]]))[:, 0].tolist() == [0, 1, 0, 1]


def test_discretizer_agrees_with_the_function_column_by_column():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(80, 3))
    y = np.array(["a", "b", "c"])[(X[:, 0] > 0).astype(int) + (X[:, 2] > 0.5)]
    discretizer = MDLDiscretizer(max_cuts=3).fit(X, y)
    _, codes = np.unique(y, return_inverse=True)
    for j in range(3):
        assert discretizer.cut_points_[j].tolist() == mdl_cut_points(X[:, j], codes, 3, 3).tolist()
    assert discretizer.cut_points_[0].size > 0 and discretizer.cut_points_[2].size > 0
    assert discretizer.transform(X)[:, 0].tolist() == np.searchsorted(discretizer.cut_points_[0], X[:, 0]).tolist()


def test_nominal_columns_pass_through():
    frame = pd.DataFrame({"colour": ["red", "blue", "red", None] * 5, "size": np.arange(20.0)})
    y = (np.arange(20) >= 10).astype(int)
    discretizer = MDLDiscretizer().fit(frame, y)
    assert discretizer.nominal_.tolist() == [True, False]
    out = discretizer.transform(frame)
    assert out[:, 0].tolist() == frame["colour"].tolist()
    assert out[:, 1].tolist() == [0.0] * 10 + [1.0] * 10
    assert discretizer.get_feature_names_out().tolist() == ["colour", "size"]
    # Declared by index on a plain array: column 0 holds codes that must not be cut.
    X = np.column_stack([np.arange(20.0), np.arange(20.0)])
    declared = MDLDiscretizer(categorical_features=[0]).fit(X, y)
    assert declared.transform(X)[:, 0].tolist() == list(range(20))
    assert declared.transform(X)[:, 1].tolist() == [0.0] * 10 + [1.0] * 10


def test_prism_with_the_mdl_discretizer_on_a_mixed_frame():
    rng = np.random.default_rng(0)
    n = 60
    income = rng.uniform(0, 100, n).round(1)
    income[:3] = np.nan
    frame = pd.DataFrame({"city": rng.choice(["x", "y"], n), "income": income})
    y = np.where(np.nan_to_num(income, nan=0.0) > 40, "rich", "poor")
    # missing="value": the three rows without an income get a rule of their own.
    model = Prism(discretizer=MDLDiscretizer(), missing="value", pruning=None).fit(frame, y)  # every rule, unpruned
    # The discretiser saw the labels: its one cut separates the classes.
    (fitted,) = model.encoding_.discretizers
    present = income[~np.isnan(income)]
    cut = fitted.cut_points_[0]
    assert cut.size == 1 and present[present <= cut[0]].max() <= 40 < present[present > cut[0]].min()
    assert model.score(frame, y) == 1.0
    assert f"income = ({cut[0]:.4g}, inf)" in model.to_text()
    assert f"income = (-inf, {cut[0]:.4g}]" in model.to_text()
    oner = OneR(discretizer=MDLDiscretizer()).fit(frame, y)  # a missing income is a value of its own
    assert oner.score(frame, y) == 1.0


def test_paper04_prism_on_mdl_codes_equals_prism_with_the_discretizer():
    """``mdl_codes`` + Prism (paper 04's PRISM) is ``Prism(discretizer=MDLDiscretizer())`` on the fold."""
    data = paper04.load_benchmark_set("hepatitis")  # numeric and nominal columns, missing values
    train, test = np.arange(0, 155, 2), np.arange(1, 155, 2)
    coded_train, coded_test = mdl_codes(data.X[train], data.y[train], data.X[test], data.nominal)
    predictions, n_rules, n_literals = prism_fit_predict(coded_train, data.y[train], coded_test)
    model = Prism(missing="no_match", discretizer=MDLDiscretizer(), categorical_features=data.nominal, pruning=None)
    model.fit(data.X[train], data.y[train])
    assert model.predict(data.X[test]).tolist() == predictions.tolist()
    assert len(model.rules_) == n_rules
    assert sum(len(rule.conditions) for rule in model.rules_) == n_literals


@pytest.mark.parametrize(
    "params, X, error, pattern",
    [
        (dict(max_cuts=-1), np.zeros((4, 1)), ValueError, "max_cuts"),
        (dict(max_cuts=1.5), np.zeros((4, 1)), TypeError, "The 'max_cuts' parameter of MDLDiscretizer must be an int in the range \\[0, inf\\). Got 1.5 instead"),
        (dict(categorical_features=["nope"]), pd.DataFrame({"a": [1.0, 2, 3, 4]}), ValueError, "unknown columns"),
        (dict(categorical_features=[5]), np.zeros((4, 2)), ValueError, "outside"),
        (dict(categorical_features="some"), np.zeros((4, 2)), ValueError, "categorical_features"),
        (dict(categorical_features=3), np.zeros((4, 2)), TypeError, "categorical_features"),
    ],
)
def test_bad_parameters_and_input_name_the_problem(params, X, error, pattern):
    with pytest.raises(error, match=pattern):
        MDLDiscretizer(**params).fit(X, [0, 0, 1, 1])


def test_one_nominal_reader_for_every_learner_and_encoder():
    """bool, category, object and string columns are nominal and whole floats numeric, for all readers."""
    from companion.widc import DecisionCommittee

    rng = np.random.default_rng(0)
    n = 60
    y = np.array(["a", "b"] * (n // 2))
    frame = pd.DataFrame({
        "flag": rng.random(n) < 0.5,
        "cat": pd.Categorical(rng.choice(["p", "q"], n)),
        "text": rng.choice(["u", "v", "w"], n).astype(object),
        "whole": rng.integers(0, 5, n).astype(float),
        "count": rng.integers(0, 5, n),
    })
    expected = [True, True, True, False, False]
    assert FrameEncoder().fit(frame).nominal_.tolist() == expected
    assert MDLDiscretizer().fit(frame, y).nominal_.tolist() == expected
    committee = DecisionCommittee(pruning="none").fit(frame, y)
    assert committee.nominal_mask_.tolist() == expected
    assert committee.frame_categories_[0] == [False, True]
    assert FrameEncoder().fit(frame).categories_[0] == [False, True]
    prism = Prism(discretizer=MDLDiscretizer()).fit(frame, y)
    assert prism.encoding_.numeric_columns == [3, 4]
    assert OneR(discretizer=MDLDiscretizer()).fit(frame, y).encoding_.numeric_columns == [3, 4]
    # A plain array: strings and bools are nominal, numbers numeric (the same rule).
    array = np.array([[1.0, "u", True], [2.0, "v", False], [3.0, "u", True], [4.0, "v", False]], dtype=object)
    assert FrameEncoder().fit(array).nominal_.tolist() == [False, True, True]
    assert DecisionCommittee(pruning="none").fit(array, [0, 0, 1, 1]).nominal_mask_.tolist() == [False, True, True]


def test_undeclared_text_column_is_refused():
    frame = pd.DataFrame({"a": [1.0, 2, 3, 4], "b": ["u", "v", "u", "v"]})
    with pytest.raises(ValueError, match="'b' holds non-numeric values"):
        MDLDiscretizer(categorical_features=["a"]).fit(frame, [0, 0, 1, 1])


def test_transform_needs_the_fitted_columns():
    discretizer = MDLDiscretizer().fit(np.arange(8.0).reshape(4, 2), [0, 0, 1, 1])
    with pytest.raises(ValueError, match="features"):
        discretizer.transform(np.zeros((3, 3)))


# --------------------------------------------------------------------------------------------
# Frame encoders
# --------------------------------------------------------------------------------------------


def test_encode_frame_round_trips_codes_to_category_names():
    frame = pd.DataFrame(
        {
            "colour": pd.Categorical(["red", "blue", None, "red"], categories=["red", "green", "blue"]),
            "shape": ["round", "square", "round", None],
            "size": [1.5, 2.0, np.nan, 4.0],
            "flag": [True, False, True, True],
        }
    )
    array, nominal, names = encode_frame(frame)
    assert nominal.tolist() == [True, True, False, True]  # a bool column is nominal (codes 0/1)
    assert names == {0: ["red", "green", "blue"], 1: ["round", "square"], 3: ["False", "True"]}
    for j in (0, 1):
        decoded = [None if np.isnan(code) else names[j][int(code)] for code in array[:, j]]
        assert decoded == [None if pd.isna(v) else str(v) for v in frame.iloc[:, j]]
    assert np.array_equal(array[:, 2], frame["size"].to_numpy(), equal_nan=True)
    assert array[:, 3].tolist() == [1.0, 0.0, 1.0, 1.0]


def test_one_hot_nominal_uses_the_reference_values():
    reference = np.array([[0.0, 1.0], [2.0, 2.0], [0.0, 3.0]])
    X = np.array([[2.0, 5.0], [1.0, 6.0], [np.nan, 7.0]])
    out = one_hot_nominal(X, np.array([True, False]), reference)
    # Reference values 0 and 2; the unseen value 1 is in no indicator, a missing one is NaN.
    assert np.array_equal(out, [[0, 1, 5], [0, 0, 6], [np.nan, np.nan, 7]], equal_nan=True)


def test_nominal_encoding_round_trips_codes_to_values():
    frame = pd.DataFrame({"a": pd.Categorical(["q", "p", "q"], categories=["q", "p"]), "b": ["x", "z", None]})
    model = Prism(missing="value").fit(frame, ["1", "2", "1"])
    codes = model.encoding_.transform(frame.to_numpy(dtype=object))
    decoded = [[model.encoding_.value_name(j, int(c)) for j, c in enumerate(row)] for row in codes]
    assert decoded == [["q", "x"], ["p", "z"], ["q", "?"]]


def test_encode_frame_refuses_an_array():
    message = r"(?s)The 'X' parameter of encode_frame must be an instance of 'pandas.DataFrame'\. Got array\(.* instead"
    with pytest.raises(InvalidParameterError, match=message):
        encode_frame(np.zeros((2, 2)))


@pytest.fixture
def mixed_frame():
    return pd.DataFrame(
        {
            # declared order z, a, m; "m" never occurs
            "grade": pd.Categorical(["z", "a", "z", None], categories=["z", "a", "m"]),
            "vote": ["y", "n", None, "y"],
            "size": [1.5, 2.0, np.nan, 4.0],
        }
    )


def test_frame_encoder_ordinal_codes_follow_the_declared_categories(mixed_frame):
    encoder = FrameEncoder().fit(mixed_frame)
    assert encoder.categories_ == [["z", "a", "m"], ["n", "y"], None]
    assert np.array_equal(
        encoder.transform(mixed_frame),
        [[0, 1, 1.5], [1, 0, 2.0], [0, np.nan, np.nan], [np.nan, 1, 4.0]],
        equal_nan=True,
    )
    assert encoder.get_feature_names_out().tolist() == ["grade", "vote", "size"]


def test_frame_encoder_paper01_settings(mixed_frame):
    """Present values sorted by text, a two-valued column as one indicator, missing = 0."""
    options = dict(categories="present", order="text", binary="indicator", missing_indicator="zero")
    onehot = FrameEncoder(encoding="onehot", **options).fit(mixed_frame)
    assert onehot.categories_ == [["a", "z"], ["n", "y"], None]
    assert onehot.get_feature_names_out().tolist() == ["grade=z", "vote=y", "size"]
    assert np.array_equal(
        onehot.transform(mixed_frame), [[1, 1, 1.5], [0, 0, 2.0], [1, 0, np.nan], [0, 1, 4.0]], equal_nan=True
    )
    three = pd.DataFrame({"c": ["q", "p", "r", None]})
    assert FrameEncoder(encoding="onehot", **options).fit(three).transform(three).tolist() == [
        [0, 1, 0], [1, 0, 0], [0, 0, 1], [0, 0, 0]
    ]
    ordinal = FrameEncoder(encoding="ordinal", **options).fit(three)
    assert np.array_equal(ordinal.transform(three)[:, 0], [1, 0, 2, np.nan], equal_nan=True)


def test_frame_encoder_unseen_values(mixed_frame):
    encoder = FrameEncoder(encoding="onehot").fit(mixed_frame)
    new = pd.DataFrame({"grade": pd.Categorical(["m"], categories=["z", "a", "m"]), "vote": ["maybe"], "size": [0.0]})
    assert encoder.transform(new).tolist() == [[0, 0, 1, 0, 0, 0.0]]
    assert np.isnan(FrameEncoder().fit(mixed_frame).transform(new)[0, 1])


@pytest.mark.parametrize(
    "params, error, pattern",
    [
        (dict(encoding="dummy"), ValueError, "The 'encoding' parameter of FrameEncoder must be a str among"),
        (dict(categories=None), ValueError, "The 'categories' parameter of FrameEncoder must be a str among"),
        (dict(order="random"), ValueError, "The 'order' parameter of FrameEncoder must be a str among"),
        (dict(binary=True), ValueError, "The 'binary' parameter of FrameEncoder must be a str among"),
        (dict(missing_indicator=0), ValueError, "The 'missing_indicator' parameter of FrameEncoder must be a str among"),
        (dict(categorical_features=["colour"]), ValueError, "unknown columns \\['colour'\\]"),
        (dict(categorical_features=["size"]), ValueError, "'grade' holds non-numeric values"),
    ],
)
def test_frame_encoder_bad_parameters(mixed_frame, params, error, pattern):
    with pytest.raises(error, match=pattern):
        FrameEncoder(**params).fit(mixed_frame)


def test_frame_encoder_refuses_text_in_a_numeric_array_column():
    # Column 0 holds text but is declared numeric (only column 1 is nominal).
    with pytest.raises(ValueError, match="holds non-numeric values"):
        FrameEncoder(categorical_features=[1]).fit(np.array([["a", 1.0], ["b", 2.0]], dtype=object))
    # Undeclared, the text column is nominal (the one rule: an array's non-numbers are nominal).
    assert FrameEncoder().fit(np.array([["a", 1.0], ["b", 2.0]], dtype=object)).nominal_.tolist() == [True, False]
