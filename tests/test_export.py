"""Exported models (``to_dict`` / ``companion.from_dict``) and rule frames, for every learner.

The round trip goes through ``json.dumps``/``json.loads`` (strict JSON: no NaN or Infinity
literals), and the rebuilt model must predict, score and print exactly as the fitted one, on
rows it was not fitted on.
"""

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

import companion
from companion.discovery import all_estimators
from companion._learner_support import jsonable
from companion.interpretable import InterpretableMixin, from_dict
from companion._model_format import MODEL_FORMAT

INTERPRETABLE = [(name, cls) for name, cls in all_estimators() if issubclass(cls, InterpretableMixin)]
#: Kernel expansions: exported, but no rule to list.
NOT_RULE_LIKE = {"KernelPerceptron", "MaximalMarginPerceptron"}
RULE_LIKE = [(name, cls) for name, cls in INTERPRETABLE if name not in NOT_RULE_LIKE]


def _table(seed, n=120):
    """A stranger's binary problem: 0/1 and real columns, string labels."""
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2, size=(n, 3))
    real = np.round(rng.normal(size=(n, 2)), 2)
    y = np.where((bits[:, 0] == 1) & (real[:, 0] > -0.3) | (bits[:, 1] == 1) & (rng.random(n) < 0.7), "yes", "no")
    return pd.DataFrame({"a": bits[:, 0], "b": bits[:, 1], "c": bits[:, 2], "u": real[:, 0], "v": real[:, 1]}), y


def _fitted(cls):
    X, y = _table(0)
    estimator = cls()
    if "categorical_features" in estimator.get_params():  # PRISM, OneR: nominal attributes
        estimator.set_params(categorical_features=["a", "b", "c"])
        if "discretizer" in estimator.get_params() and estimator.get_params()["discretizer"] is None:
            X = X[["a", "b", "c"]]
    return estimator.fit(X, y), X


@pytest.mark.parametrize("name, cls", INTERPRETABLE, ids=[name for name, _ in INTERPRETABLE])
def test_to_dict_round_trip_predicts_identically(name, cls):
    model, X = _fitted(cls)
    text = json.dumps(model.to_dict(), allow_nan=False)
    data = json.loads(text)
    assert data["format"] == MODEL_FORMAT and data["learner"] == name
    assert data["feature_names_in"] == [str(c) for c in X.columns]
    rebuilt = companion.from_dict(data)
    assert type(rebuilt) is cls and rebuilt.get_params() == clone(model).get_params()
    X_new, _ = _table(1)
    X_new = X_new[X.columns]
    np.testing.assert_array_equal(rebuilt.predict(X_new), model.predict(X_new))
    if hasattr(model, "predict_proba"):
        np.testing.assert_array_equal(rebuilt.predict_proba(X_new), model.predict_proba(X_new))
    if hasattr(model, "decision_function"):
        np.testing.assert_array_equal(rebuilt.decision_function(X_new), model.decision_function(X_new))
    assert rebuilt.to_text() == model.to_text()
    assert rebuilt.complexity_ == model.complexity_


@pytest.mark.parametrize("name, cls", RULE_LIKE, ids=[name for name, _ in RULE_LIKE])
def test_rules_frame_counts_rows_and_errors(name, cls):
    model, X = _fitted(cls)
    _, y = _table(0)
    frame = model.rules_frame(X, y)
    assert list(frame.columns[:3]) == ["position", "condition", "prediction"]
    assert list(frame.columns[-2:]) == ["covered", "errors"]
    assert frame["position"].tolist() == list(range(len(frame)))
    assert ((0 <= frame["errors"]) & (frame["errors"] <= frame["covered"]) & (frame["covered"] <= len(y))).all()
    assert set(frame["prediction"]) <= set(model.classes_.tolist())
    # Every condition is text the model prints.
    text = model.to_text()
    assert all(str(condition) in text for condition in frame["condition"] if str(condition))


def test_from_dict_refuses_what_is_not_an_exported_model():
    with pytest.raises(ValueError, match="format 'companion.model'"):
        from_dict({"learner": "Prism"})
    with pytest.raises(ValueError, match="version 1, 2, got version 3"):
        from_dict({"format": MODEL_FORMAT, "version": 3})
    with pytest.raises(ValueError, match="unknown learner 'Nope'"):
        from_dict({"format": MODEL_FORMAT, "version": 2, "learner": "Nope"})


def test_jsonable_names_what_cannot_be_exported():
    assert jsonable({"x": [np.float64(np.nan), np.int32(2), np.bool_(True)]}) == {"x": ["NaN", 2, True]}
    with pytest.raises(TypeError, match="parameter 'random_state' is a RandomState"):
        jsonable(np.random.RandomState(0), where="parameter 'random_state'")


@pytest.mark.parametrize("cls", [companion.DecisionListMachine, companion.BallSetCoveringMachine],
                         ids=["DecisionListMachine", "BallSetCoveringMachine"])
def test_a_ball_machine_that_fell_back_round_trips(cls):
    """The class it fell back to is exported (``model.fallback_class``) and read back."""
    import warnings

    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(200, 3)), columns=["p", "q", "r"])
    y = np.where(rng.random(200) < 0.35, "yes", "no")  # no signal: the fallback fires
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = cls().fit(X, y)
    assert model.fallback_class_ == "no" and model.n_balls_ == 0
    data = json.loads(json.dumps(model.to_dict(), allow_nan=False))
    assert data["model"]["fallback_class"] == "no" and data["single_class"] == "no"
    rebuilt = companion.from_dict(data)
    assert rebuilt.fallback_class_ == "no" and rebuilt.single_class_ == "no" and rebuilt.n_balls_ == 0
    assert rebuilt.to_text() == model.to_text() == "always no" and rebuilt.complexity_ == model.complexity_ == 0
    X_new = pd.DataFrame(rng.normal(size=(50, 3)), columns=["p", "q", "r"])
    np.testing.assert_array_equal(rebuilt.predict(X_new), model.predict(X_new))
    np.testing.assert_array_equal(rebuilt.predict_proba(X_new), model.predict_proba(X_new))
    np.testing.assert_array_equal(rebuilt.decision_function(X_new), model.decision_function(X_new))
    # the paper's machine on the same table has balls and no fallback field: its export is unchanged
    paper = cls(fallback=None).fit(X, y)
    assert paper.n_balls_ >= 1 and "fallback_class" not in paper.to_dict()["model"]
