"""The validated model format (``companion._model_format``): generated models and mutations.

Property-based (Hypothesis): models are fitted on generated tables (degenerate ones included:
constant columns, one row per class) and must round-trip through JSON to the same predictions;
exported models are mutated at a generated path with a generated bad value, and ``from_dict``
must either refuse with a ``ModelFormatError`` naming the learner and a field, or rebuild a model
that predicts as the original (a harmless change such as ``1`` for ``1.0``), or the change is a
valid, different model (a finite number for another, a renamed category value). The examples
are derandomized (the same on every run and machine, as every test of the package); to explore
further, run with ``--hypothesis-seed=N`` and ``derandomize`` removed.
"""

import copy
import json
import warnings
from functools import lru_cache

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.preprocessing import KBinsDiscretizer

import companion
from companion.discovery import all_estimators
from companion.interpretable import InterpretableMixin, ModelFormatError, from_dict

INTERPRETABLE = [(name, cls) for name, cls in all_estimators() if issubclass(cls, InterpretableMixin)]
IDS = [name for name, _ in INTERPRETABLE]


def _table(seed, n=60):
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2, size=(n, 2))
    real = np.round(rng.normal(size=n), 2)
    y = np.where((bits[:, 0] == 1) | (real > 0.8), "yes", "no")
    return pd.DataFrame({"a": bits[:, 0], "b": bits[:, 1], "u": real}), y


def _estimator(cls):
    estimator = cls()
    if "categorical_features" in estimator.get_params():
        estimator.set_params(categorical_features=["a", "b"])
    return estimator


@lru_cache(maxsize=None)
def _exported(name):
    cls = dict(INTERPRETABLE)[name]
    X, y = _table(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = _estimator(cls).fit(X, y)
    return model, json.loads(json.dumps(model.to_dict(), allow_nan=False))


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:3]):
            yield from _paths(item, (*path, index))


def _set(data, path, value):
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def _get(data, path):
    for key in path:
        data = data[key]
    return data


#: Values that are wrong almost anywhere in an exported model (and a few that are right somewhere).
BAD_VALUES = st.sampled_from(
    ["NaN", "Infinity", "-Infinity", None, "x", [], {}, True, False, -1, -0.5, 5, 10**9, 0, 1e308, [1, 2], {"a": 1}]
)


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and np.isfinite(value)


def _valid_change(name, path, old, new):
    """A finite number for a finite number (another threshold, centre, count: the schema cannot
    tell it from the fitted one), or a category value (a nominal column's value, a RIPPER
    condition's value, a class label or a column name) replaced by another of the same kind: a
    valid, different model."""
    if _number(old) and _number(new):
        return True
    if path == ("classes",) and isinstance(new, list) and len(new) == len(old):
        return True  # relabelled classes (refused if the model part names the old labels)
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return all(_number(a) and _number(b) for a, b in zip(old, new))
    if name == "OrderedRipper" and "rules" in path and path[-1] == 1:
        return new is not None and not isinstance(new, (list, dict))  # any value of a nominal column
    category = (
        path[:1] in {("classes",), ("feature_names_in",)}
        or path[:2] == ("model", "columns") and "values" in path
        or name == "OrderedRipper" and "rules" in path and path[-1] == 1
    )
    return category and isinstance(new, (str, bool)) == isinstance(old, (str, bool))


@pytest.mark.parametrize("name", IDS)
@settings(max_examples=40, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_mutated_export_is_refused_naming_the_field_or_changes_nothing(name, data):
    model, exported = _exported(name)
    path = data.draw(st.sampled_from([p for p in _paths(exported) if p]), label="path")
    value = data.draw(BAD_VALUES, label="value")
    mutated = copy.deepcopy(exported)
    old = _get(mutated, path)
    _set(mutated, path, value)
    try:
        rebuilt = from_dict(mutated)
    except ModelFormatError as exc:
        message = str(exc)
        assert "field" in message and (name in message or "from_dict" in message), message
        return
    X, _ = _table(1)
    if _valid_change(name, path, old, value):
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_array_equal(rebuilt.predict(X[model.feature_names_in_]), model.predict(X[model.feature_names_in_]))


@pytest.mark.parametrize("name", IDS)
@settings(max_examples=6, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**16),
    n=st.integers(2, 30),
    constant=st.booleans(),
    scale=st.sampled_from([1.0, 2.0**-40, 2.0**40]),
)
def test_generated_models_round_trip_to_the_same_predictions(name, seed, n, constant, scale):
    cls = dict(INTERPRETABLE)[name]
    rng = np.random.default_rng(seed)
    y = np.array(["no", "yes"] * n)[: max(n, 2)]
    X = pd.DataFrame({
        "a": rng.integers(0, 2, size=len(y)),
        "b": np.zeros(len(y), dtype=int) if constant else rng.integers(0, 2, size=len(y)),
        "u": np.round(rng.normal(size=len(y)), 2) * scale,
    })
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            model = _estimator(cls).fit(X, y)
        except ValueError:  # a clear refusal of the data is not this test's business
            return
        rebuilt = from_dict(json.loads(json.dumps(model.to_dict(), allow_nan=False)))
        np.testing.assert_array_equal(rebuilt.predict(X), model.predict(X))
    assert rebuilt.to_text() == model.to_text()


@pytest.mark.parametrize("name", IDS)
def test_degenerate_models_round_trip(name):
    """Nothing to learn (constant columns), one row per class, and a plain array."""
    cls = dict(INTERPRETABLE)[name]
    cases = [
        (pd.DataFrame({"a": [1.0] * 6, "b": [2.0] * 6}), np.array(["n", "y"] * 3)),
        (pd.DataFrame({"a": [0.0, 1.0], "b": [3.0, 3.0]}), np.array(["n", "y"])),
        (np.array([[0.0, 1.0], [1.0, 0.0], [0.0, 0.0], [1.0, 1.0]]), np.array([0, 1, 0, 1])),
    ]
    for X, y in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = cls().fit(X, y)
            rebuilt = from_dict(json.loads(json.dumps(model.to_dict(), allow_nan=False)))
            np.testing.assert_array_equal(rebuilt.predict(X), model.predict(X))


@pytest.mark.parametrize("name", ["Prism", "OneR"])
def test_a_discretizer_estimator_is_exported_and_rebuilt(name):
    cls = getattr(companion, name)
    X = pd.DataFrame({"a": np.linspace(0, 1, 20), "b": np.arange(20) % 3})
    y = np.where(X["a"] > 0.5, "y", "n")
    model = cls(discretizer=KBinsDiscretizer(n_bins=3, encode="ordinal", strategy="uniform")).fit(X, y)
    data = json.loads(json.dumps(model.to_dict(), allow_nan=False))
    assert data["params"]["discretizer"]["estimator"] == "sklearn.preprocessing.KBinsDiscretizer"
    rebuilt = from_dict(data)
    assert isinstance(rebuilt.discretizer, KBinsDiscretizer) and rebuilt.discretizer.n_bins == 3
    np.testing.assert_array_equal(rebuilt.predict(X), model.predict(X))
    data["params"]["discretizer"]["estimator"] = "os.system"
    with pytest.raises(ModelFormatError, match="field params.discretizer.estimator"):
        from_dict(data)


def _occam():
    return _exported("OccamStumps")[1]


@pytest.mark.parametrize(
    "path, value, message",
    [
        (("model", "stumps", 0, "direction"), 5, r"OccamStumps model: field model.stumps\[0\].direction must be one of \[-1, 1\], got 5"),
        (("model", "stumps", 0, "feature"), -1, r"field model.stumps\[0\].feature must be an integer in \[0, 3\)"),
        (("model", "stumps", 0, "feature"), 3, r"field model.stumps\[0\].feature must be an integer in \[0, 3\)"),
        (("model", "stumps", 0, "threshold"), "NaN", r"field model.stumps\[0\].threshold must be a number, got NaN"),
        (("model", "stumps", 0, "threshold"), "Infinity", r"threshold must be a finite number"),
        (("model", "model_type"), "xor", r"field model.model_type must be one of \['conjunction', 'disjunction'\]"),
        (("classes",), ["no"], r"OccamStumps: field classes must hold exactly 2 labels"),
        (("classes",), ["yes", "no"], r"field classes must be sorted"),
        (("model", "default_class"), "maybe", r"field model.default_class must be one of the classes"),
        (("n_features_in",), 0, r"field n_features_in must be an integer >= 1"),
        (("params", "delta"), 2.0, r"OccamStumps: field params: The 'delta' parameter of OccamStumps"),
        (("params", "nope"), 1, r"field params.nope is not a parameter of OccamStumps"),
    ],
)
def test_the_issue_s_mutations_are_refused_naming_the_field(path, value, message):
    data = copy.deepcopy(_occam())
    _set(data, path, value)
    with pytest.raises(ModelFormatError, match=message):
        from_dict(data)


def test_a_missing_field_is_named():
    data = copy.deepcopy(_occam())
    del data["model"]["stumps"][0]["threshold"]
    with pytest.raises(ModelFormatError, match=r"field model.stumps\[0\].threshold is missing"):
        from_dict(data)
    data = copy.deepcopy(_occam())
    del data["classes"]
    with pytest.raises(ModelFormatError, match="field classes is missing"):
        from_dict(data)


@pytest.mark.parametrize("name", ["DecisionListMachine", "BallSetCoveringMachine"])
@pytest.mark.parametrize("value", ["NaN", "Infinity", -1.0])
def test_a_bad_radius_is_refused(name, value):
    data = copy.deepcopy(_exported(name)[1])
    data["model"]["balls"][0]["radius"] = value
    with pytest.raises(ModelFormatError, match=rf"{name} model: field model.balls\[0\].radius"):
        from_dict(data)


def test_a_nan_coefficient_is_refused():
    data = copy.deepcopy(_exported("MaskPerceptron")[1])
    data["model"]["terms"][0]["coef"] = "NaN"
    with pytest.raises(ModelFormatError, match=r"MaskPerceptron model: field model.terms\[0\].coef"):
        from_dict(data)


def test_version_1_files_are_still_read():
    data = copy.deepcopy(_occam())
    data["version"] = 1
    model = _exported("OccamStumps")[0]
    X, _ = _table(1)
    np.testing.assert_array_equal(from_dict(data).predict(X), model.predict(X))


@pytest.mark.parametrize("name", ["OccamStumps", "DecisionListMachine", "KernelPerceptron"])
def test_a_model_fitted_through_the_input_encoder_is_refused_naming_it(name):
    import warnings

    import pandas as pd

    import companion

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=60), "c": pd.Categorical(rng.choice(["u", "v"], 60))})
    X.loc[3, "a"] = np.nan
    y = np.where(X["a"].fillna(0) > 0, "yes", "no")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = getattr(companion, name)().fit(X, y)
    with pytest.raises(ValueError, match=rf"{name}.to_dict: field input_encoder_: .*\(a, c\).*encode the frame first"):
        model.to_dict()


def _fallen_back(name):
    """A ball machine on a table with no signal: it falls back to the default class."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(200, 3)), columns=["a", "b", "u"])
    y = np.where(rng.random(200) < 0.35, "yes", "no")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = dict(INTERPRETABLE)[name]().fit(X, y)
    assert model.fallback_class_ == "no"
    return model, json.loads(json.dumps(model.to_dict(), allow_nan=False))


@pytest.mark.parametrize("name", ["DecisionListMachine", "BallSetCoveringMachine"])
def test_a_ball_machine_s_fallback_class_is_checked(name):
    model, data = _fallen_back(name)
    assert data["model"]["fallback_class"] == "no" == data["single_class"] and data["model"]["balls"] == []
    assert from_dict(data).fallback_class_ == "no"
    for value, message in [("maybe", "must be one of the classes"), ("yes", "must be null, or the default_class")]:
        mutated = copy.deepcopy(data)
        mutated["model"]["fallback_class"] = value
        with pytest.raises(ModelFormatError, match=rf"{name} model: field model.fallback_class {message}"):
            from_dict(mutated)
    # a machine with balls did not fall back: a fallback class beside its balls is refused
    with_balls = copy.deepcopy(_exported(name)[1])
    assert with_balls["model"]["balls"] and "fallback_class" not in with_balls["model"]
    with_balls["model"]["fallback_class"] = with_balls["model"]["default_class"]
    with pytest.raises(ModelFormatError, match=rf"{name} model: field model.fallback_class must be null"):
        from_dict(with_balls)


def test_a_committee_s_fallback_class_is_checked():
    """WIDC's fallback (``fallback="inner_cv"``) exports the class it fell back to; a fallback class
    beside rules, or other than the class its default vector favours, is refused."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 3, size=(120, 6)).astype(str), columns=list("abcdef"))
    y = np.where(rng.random(120) < 0.3, "yes", "no")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = companion.DecisionCommittee().fit(X, y)
        kept = companion.DecisionCommittee(fallback=None).fit(X, y)
    data = json.loads(json.dumps(model.to_dict(), allow_nan=False))
    assert data["model"]["fallback_class"] == "no" == data["single_class"] and data["model"]["monomials"] == []
    rebuilt = from_dict(data)
    assert rebuilt.fallback_class_ == "no" and rebuilt.to_text() == "always no"
    for value, message in [("maybe", "must be one of the classes"), ("yes", "must be null, or the class the default vector favours")]:
        mutated = copy.deepcopy(data)
        mutated["model"]["fallback_class"] = value
        with pytest.raises(ModelFormatError, match=rf"DecisionCommittee model: field model.fallback_class {message}"):
            from_dict(mutated)
    with_rules = json.loads(json.dumps(kept.to_dict(), allow_nan=False))
    assert with_rules["model"]["monomials"] and "fallback_class" not in with_rules["model"]
    with_rules["model"]["fallback_class"] = "no"
    with pytest.raises(ModelFormatError, match=r"DecisionCommittee model: field model.fallback_class must be null"):
        from_dict(with_rules)


# ------------------------------------------------------------------------------------------------
# Issue 58: one-class models, fallbacks' scores, a model read as the wrong learner
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", IDS)
@pytest.mark.parametrize("label", ["y", 1], ids=["str", "int"])
def test_a_model_fitted_on_one_class_round_trips(name, label):
    """Every learner whose fit takes one class exports a model that from_dict reads back (the
    ball machines' used to be refused: "classes must hold exactly 2 labels")."""
    cls = dict(INTERPRETABLE)[name]
    X = pd.DataFrame({"a": [0.0, 1.0, 2.0, 3.0], "b": [1.0, 0.0, 1.0, 0.0]})
    y = np.array([label] * 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            model = _estimator(cls).fit(X, y)
        except ValueError as exc:  # a two-class learner's refusal, naming the wrapper to use
            assert "needs exactly 2 classes" in str(exc) and name in str(exc)
            assert not getattr(cls, "_fits_one_class", False)
            return
        rebuilt = from_dict(json.loads(json.dumps(model.to_dict(), allow_nan=False)))
        np.testing.assert_array_equal(rebuilt.predict(X), model.predict(X))
    assert rebuilt.to_text() == model.to_text() and rebuilt.classes_.tolist() == [label]


@pytest.mark.parametrize("name", [n for n, c in INTERPRETABLE if not c().__sklearn_tags__().classifier_tags.multi_class])
def test_a_fallback_round_trips_with_its_scores(name):
    """A two-class model that fell back scores its training log-odds; the export keeps them."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(200, 3)), columns=["u", "v", "w"])
    y = np.where(rng.random(200) < 0.3, "yes", "no")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = dict(INTERPRETABLE)[name]().fit(X, y)
        assert model.fallback_class_ == "no"
        data = json.loads(json.dumps(model.to_dict(), allow_nan=False))
        rebuilt = from_dict(data)
        np.testing.assert_array_equal(rebuilt.decision_function(X), model.decision_function(X))
        assert (model.decision_function(X) < 0).all()
    if "class_counts" in data["model"]:  # the perceptrons: the fallback must be the counts' majority
        mutated = copy.deepcopy(data)
        mutated["model"]["class_counts"] = mutated["model"]["class_counts"][::-1]
        with pytest.raises(ModelFormatError, match=rf"{name} model: field model.fallback_class must be null, or the majority class"):
            from_dict(mutated)


def test_a_model_read_as_another_learner_says_so_first():
    """Each learner's export relabelled as every other learner: the refusal names the learner
    field, the learner it says and the learner the export is, before any parameter or field."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.integers(0, 2, 60), "b": rng.integers(0, 2, 60), "u": rng.normal(size=60).round(2)})
    y = np.where((X["a"] == 1) | (X["u"] > 0.8), "yes", "no")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exported = {name: json.loads(json.dumps(cls().fit(X, y).to_dict(), allow_nan=False)) for name, cls in INTERPRETABLE}
    for name, data in exported.items():
        for other in exported:
            if other == name:
                continue
            relabelled = {**data, "learner": other}
            with pytest.raises(ModelFormatError) as caught:
                from_dict(relabelled)
            message = str(caught.value)
            assert message.startswith(f"{other}: field learner says {other!r}") and f"a {name}" in message, message
