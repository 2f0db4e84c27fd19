"""Issue 14, "the learners on your own data": every public learner on tables a researcher brings.

The learners are discovered (:func:`companion.discovery.all_estimators`), so a new one is held to
these tests the moment it exists; how each kind of learner is fed is read from its scikit-learn tags:

* learners tagged ``input_tags.string`` read string/category/bool columns as nominal; those of
  them with a ``discretizer`` parameter (nominal attributes only, ``NOMINAL_ONLY``) get one for
  numbers;
* every other learner is numeric and sits behind a ``StandardScaler``;
* two-class learners are those whose ``classifier_tags.multi_class`` is False.

What is checked: ``GridSearchCV`` with numpy-typed grids (np.int64 / np.float64 / np.bool_),
``roc_auc`` and ``neg_log_loss`` scoring on breast cancer, ``OneVsRestClassifier`` on wine,
``to_text`` with the caller's column names (also through a ``ColumnTransformer``), and the
error a numeric learner gives for a string column. Small data and ``cv=3`` keep it short.
"""

from __future__ import annotations

import inspect
import numbers
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.compose import ColumnTransformer
from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.exceptions import NotFittedError
from sklearn.utils._param_validation import InvalidParameterError
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate
from sklearn.multiclass import OneVsRestClassifier
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import KBinsDiscretizer, OneHotEncoder, OrdinalEncoder, StandardScaler

from companion.discovery import all_estimators
from companion.interpretable import InterpretableMixin, SingleClassWarning, pipeline_text

ESTIMATORS = dict(all_estimators("classifier"))
NAMES = sorted(ESTIMATORS)

TAGS = {name: ESTIMATORS[name]().__sklearn_tags__() for name in NAMES}
# What the learners' scikit-learn tags carry:
# readers of string/category/bool columns (input_tags.string): they take the mixed table as it is;
STRING_READERS = sorted(name for name in NAMES if TAGS[name].input_tags.string)
# of those, the learners of nominal attributes only bin numbers through their ``discretizer``
# parameter (Prism, OneR); the others cut numbers themselves (WIDC's MDL cuts, RIPPER's bins,
# CART's thresholds);
NOMINAL_ONLY = sorted(name for name in STRING_READERS if "discretizer" in ESTIMATORS[name]().get_params())
# every other learner is numeric and sits behind a StandardScaler;
NUMERIC = sorted(set(NAMES) - set(STRING_READERS))
# two-class learners (classifier_tags.multi_class is False) go through OneVsRestClassifier.
BINARY_ONLY = sorted(name for name in NAMES if not TAGS[name].classifier_tags.multi_class)

# The tables below are not traits, so no tag carries them: what the issue asks of some learners,
# and small settings for this file's short fits.
# The "natural frequency" learners (a rule, ball, leaf or cell that training examples
# reach): required to offer predict_proba, so the list is the requirement, not read from the code.
FREQUENCY_LEARNERS = {
    "BallSetCoveringMachine",
    "DecisionCommittee",
    "DecisionListMachine",
    "OneR",
    "Prism",
    "PrunedDecisionTree",
}

# Settings that keep a fit small (the defaults are the papers', sized for the notebooks).
FAST = {
    "BallSetCoveringMachine": {"s": 3},
    "DecisionListMachine": {"s": 3},
    "SetCoveringStumps": {"s": 3},
    "OccamStumps": {"s": 3},
    "PacBayesStumps": {"s": 3},
    "KernelPerceptron": {"max_updates": 2000},
    "MaximalMarginPerceptron": {"max_iter": 20000},
}

# One or two parameters searched with several numpy values (every other numeric or bool
# parameter is searched at its current value, as a numpy scalar: see numpy_grid).
GRIDS = {
    "BallSetCoveringMachine": {"s": np.arange(2, 4), "p": np.array([0.5, 1.0])},
    "DecisionCommittee": {"max_cuts": np.arange(2, 4), "optimistic_delta": np.array([0.05, 0.1])},
    "DecisionListMachine": {"s": np.arange(2, 4), "p_p": np.array([0.5, 1.0])},
    "KernelPerceptron": {"lam": np.array([1.0, 4.0])},
    "MaskPerceptron": {"degree": np.arange(1, 3)},
    "MaximalMarginPerceptron": {"lam": np.array([1.0, 4.0])},
    "OneR": {"discretizer__n_bins": np.arange(2, 4)},
    "Prism": {"discretizer__n_bins": np.arange(2, 4)},
    "PrunedDecisionTree": {"max_depth": np.arange(2, 4), "leaf_cost": np.array([0.5, 1.0])},
    "SetCoveringStumps": {"s": np.arange(2, 4), "p": np.array([0.5, 1.0])},
    "OccamStumps": {"s": np.arange(2, 4), "eta": np.array([0.5, 1.0])},
    "PacBayesStumps": {"s": np.arange(2, 4), "delta": np.array([0.05, 0.1])},
}

DEFAULT_NAME = re.compile(r"\bx\d+\b")  # the x0, x1, ... names of a model fitted on an array


def discretizer(n_bins=3):
    return KBinsDiscretizer(n_bins=n_bins, encode="ordinal", strategy="quantile")


def learner(name, *, discretize=True):
    """The bare learner, small settings, a discretizer for the nominal-only ones (numeric data)."""
    estimator = ESTIMATORS[name]()
    estimator.set_params(**FAST.get(name, {}))
    if name in NOMINAL_ONLY and discretize:
        estimator.set_params(discretizer=discretizer())
    return estimator


def model(name):
    """What a researcher fits on a numeric table: the learner, behind a scaler if it is numeric."""
    estimator = learner(name)
    return make_pipeline(StandardScaler(), estimator) if name in NUMERIC else estimator


def numpy_grid(estimator, prefix=""):
    """Every int, float and bool parameter of ``estimator`` at its value, as a numpy scalar."""
    grid = {}
    for key, value in estimator.get_params(deep=False).items():
        if isinstance(value, (bool, np.bool_)):
            grid[prefix + key] = np.array([value], dtype=bool)
        elif isinstance(value, numbers.Integral):
            grid[prefix + key] = np.array([value], dtype=np.int64)
        elif isinstance(value, numbers.Real):
            grid[prefix + key] = np.array([value], dtype=np.float64)
    return grid


def full_grid(name):
    estimator = learner(name)
    prefix = f"{type(estimator).__name__.lower()}__" if name in NUMERIC else ""
    grid = numpy_grid(estimator, prefix)
    grid.update({prefix + key: values for key, values in GRIDS.get(name, {}).items()})
    return grid


def cv3():
    return StratifiedKFold(n_splits=3, shuffle=True, random_state=0)


@pytest.fixture(scope="module")
def cancer():
    """A stratified 210-row, 10-column slice of breast cancer, as a named DataFrame."""
    frame, y = load_breast_cancer(return_X_y=True, as_frame=True)
    rows = np.r_[np.flatnonzero(y == 0)[:90], np.flatnonzero(y == 1)[:120]]
    return frame.iloc[rows, :10].reset_index(drop=True), y.iloc[rows].to_numpy()


@pytest.fixture(scope="module")
def wine():
    return load_wine(return_X_y=True)


@pytest.fixture(scope="module")
def people():
    """The issue's mixed table: numbers, a string column and a bool column."""
    rng = np.random.default_rng(14)
    n = 150
    frame = pd.DataFrame(
        {
            "age": rng.integers(18, 80, n),
            "income": rng.normal(50.0, 12.0, n).round(1),
            "city": rng.choice(["Paris", "Nice", "Lyon"], n),
            "smoker": rng.random(n) < 0.35,
        }
    )
    y = np.where(frame["smoker"] | (frame["age"] > 62), "ill", "well")
    return frame, y


def test_the_tables_name_only_existing_learners():
    # A renamed learner must not silently lose its settings here.
    for table in (FREQUENCY_LEARNERS, FAST, GRIDS):
        assert set(table) <= set(NAMES), set(table) - set(NAMES)
    assert BINARY_ONLY, "no learner declares itself two-class (classifier_tags.multi_class = False)"
    assert NOMINAL_ONLY and set(NOMINAL_ONLY) < set(STRING_READERS), "no learner reads nominal columns"


# ------------------------------------------------------------------------------------------------
# a. numpy-typed parameter grids
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_grid_search_with_numpy_typed_grids(name, cancer):
    X, y = cancer
    X = X.iloc[::2, :6]  # 105 rows, 6 columns
    y = y[::2]
    grid = full_grid(name)
    assert any(len(values) > 1 for values in grid.values()) or name not in GRIDS
    search = GridSearchCV(model(name), grid, cv=cv3(), error_score="raise").fit(X, y)
    assert np.isfinite(search.best_score_)
    assert set(search.predict(X)) <= set(y)


# ------------------------------------------------------------------------------------------------
# b. ranking and probability scores on breast cancer
# ------------------------------------------------------------------------------------------------
def test_every_learner_has_a_score():
    for name in NAMES:
        estimator = learner(name)
        assert hasattr(estimator, "decision_function") or hasattr(estimator, "predict_proba"), name


@pytest.mark.parametrize("name", sorted(FREQUENCY_LEARNERS))
def test_frequency_learners_have_predict_proba(name):
    assert hasattr(learner(name), "predict_proba")


@pytest.mark.parametrize("name", NAMES)
def test_roc_auc_and_log_loss_on_breast_cancer(name, cancer):
    X, y = cancer
    estimator = model(name)
    scoring = ["roc_auc"] + (["neg_log_loss"] if hasattr(estimator, "predict_proba") else [])
    scores = cross_validate(estimator, X, y, cv=cv3(), scoring=scoring, error_score="raise")
    auc = scores["test_roc_auc"]
    assert np.isfinite(auc).all() and auc.mean() > 0.6, auc
    if "neg_log_loss" in scoring:
        log_loss = scores["test_neg_log_loss"]
        assert np.isfinite(log_loss).all() and (log_loss < 0).all(), log_loss


@pytest.mark.parametrize("name", NAMES)
def test_scores_follow_the_package_convention(name, cancer):
    X, y = cancer
    fitted = model(name).fit(X, y)
    classes = fitted.classes_
    predictions = fitted.predict(X)
    if hasattr(fitted, "decision_function"):
        scores = fitted.decision_function(X)
        assert scores.shape == (len(y),)  # two classes: one column, positive for classes_[1]
        np.testing.assert_array_equal(np.where(scores > 0, classes[1], classes[0]), predictions)
    if hasattr(fitted, "predict_proba"):
        proba = fitted.predict_proba(X)
        assert proba.shape == (len(y), 2) and (proba > 0).all() and (proba < 1).all()  # Laplace
        np.testing.assert_allclose(proba.sum(axis=1), 1.0)


# ------------------------------------------------------------------------------------------------
# c. more than two classes: OneVsRestClassifier
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", BINARY_ONLY)
def test_one_vs_rest_on_wine(name, wine):
    X, y = wine
    pipe = make_pipeline(StandardScaler(), OneVsRestClassifier(learner(name)))
    predictions = pipe.fit(X, y).predict(X)
    assert set(predictions) <= set(y) and np.mean(predictions == y) > 0.8
    with pytest.raises(ValueError, match=r"(?s)Only binary classification is supported.*OneVsRestClassifier"):
        learner(name).fit(StandardScaler().fit_transform(X), y)


def four_classes(seed, n=300, *, separable):
    """Issue 58's multi-class table: 4 classes of 10/20/30/40 %, the rarest first in label order.

    ``separable=False``: three noise columns, so every one-vs-rest fit falls back to "never this
    class". ``separable=True``: ``b``, ``c`` and ``d`` sit apart on ``x0`` and ``a`` lies among the
    ``d`` rows, so ``a``'s fit falls back and the others learn a model.
    """
    rng = np.random.default_rng(seed)
    y = rng.choice(np.array(["a", "b", "c", "d"]), size=n, p=[0.1, 0.2, 0.3, 0.4])
    X = rng.normal(scale=0.5 if separable else 1.0, size=(n, 3))
    if separable:
        X[:, 0] += pd.Series(y).map({"a": 3.0, "b": -3.0, "c": 0.0, "d": 3.0}).to_numpy()
    return X, y


@pytest.mark.parametrize("separable", [False, True], ids=["all_fall_back", "some_fall_back"])
@pytest.mark.parametrize("name", BINARY_ONLY)
def test_one_vs_rest_over_fallbacks_predicts_at_least_the_majority(name, separable):
    # Issue 58: every fallback used to score -1, so one-vs-rest's argmax took the first class
    # (here the rarest, 10 %); a constant model now scores its training log-odds.
    (X, y), (X_test, y_test) = four_classes(0, separable=separable), four_classes(1, separable=separable)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SingleClassWarning)
        ovr = OneVsRestClassifier(ESTIMATORS[name]()).fit(X, y)  # the defaults
    fell_back = [e.fallback_class_ is not None for e in ovr.estimators_]
    majority_rate = np.mean(y_test == "d")
    accuracy = np.mean(ovr.predict(X_test) == y_test)
    if separable:
        assert fell_back[0] and not all(fell_back), fell_back  # "a" falls back, not all do
        assert accuracy >= majority_rate + 0.2, (accuracy, majority_rate)
    else:
        assert all(fell_back), fell_back
        np.testing.assert_array_equal(ovr.predict(X_test), "d")  # exactly the majority rate
    for estimator, positive in zip(ovr.estimators_, "abcd"):
        if estimator.fallback_class_ is None:
            continue
        n_positive = np.count_nonzero(y == positive)
        expected = np.log((n_positive + 1) / (len(y) - n_positive + 1))  # Laplace log-odds
        np.testing.assert_allclose(estimator.decision_function(X_test), expected, rtol=1e-12)
        if hasattr(estimator, "predict_proba"):  # the same frequencies as predict_proba's
            proba = estimator.predict_proba(X_test)
            np.testing.assert_allclose(np.log(proba[:, 1] / proba[:, 0]), expected, rtol=1e-12)


@pytest.mark.parametrize("name", BINARY_ONLY)
def test_a_fallback_scores_by_weighted_frequencies_and_agrees_with_predict(name):
    X, y = four_classes(0, separable=False)
    y = np.where(y == "d", "d", "other")  # 40 % "d": classes_ = ["d", "other"]
    estimator = ESTIMATORS[name]()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SingleClassWarning)
        estimator.fit(X, y)
        assert estimator.fallback_class_ == "other"
        scores = estimator.decision_function(X)
        assert (scores > 0).all() and np.ptp(scores) == 0
        np.testing.assert_array_equal(estimator.predict(X), "other")
        if "sample_weight" in inspect.signature(estimator.fit).parameters:
            # weights 3 on "d" make it the weighted majority: the score's sign follows
            weight = np.where(y == "d", 3.0, 1.0)
            estimator = ESTIMATORS[name]().fit(X, y, sample_weight=weight)
            if estimator.fallback_class_ is not None:
                assert estimator.fallback_class_ == "d"
                n_d, n_other = weight[y == "d"].sum(), weight[y == "other"].sum()
                np.testing.assert_allclose(estimator.decision_function(X), np.log((n_other + 1) / (n_d + 1)))
                np.testing.assert_array_equal(estimator.predict(X), "d")


@pytest.mark.parametrize("name", sorted(set(NAMES) - set(BINARY_ONLY)))
def test_multi_class_learners_take_wine_directly(name, wine):
    X, y = wine
    fitted = model(name).fit(X, y)
    assert np.mean(fitted.predict(X) == y) > 0.6  # the largest class is 40%; OneR's one test: 78%
    if hasattr(fitted, "predict_proba"):
        assert fitted.predict_proba(X).shape == (len(y), 3)
    if hasattr(fitted, "decision_function"):
        assert fitted.decision_function(X).shape == (len(y), 3)


# ------------------------------------------------------------------------------------------------
# d. readable models named with the caller's columns
# ------------------------------------------------------------------------------------------------
def named_table(name, cancer):
    """A named DataFrame the learner takes as it is: numbers, or labelled bins for nominal ones."""
    X, y = cancer
    X = X.iloc[:, :6]
    if name in NOMINAL_ONLY:
        X = pd.DataFrame({column: pd.qcut(X[column], 3, labels=["low", "mid", "high"]) for column in X})
    elif name in NUMERIC:
        X = (X - X.mean()) / X.std()  # scaled, names kept
    return X, y


@pytest.mark.parametrize("name", NAMES)
def test_to_text_has_one_signature(name):
    # One to_text, the mixin's; a learner's own rendering options are keyword-only in _render_text.
    assert ESTIMATORS[name].to_text is InterpretableMixin.to_text
    parameters = list(inspect.signature(ESTIMATORS[name]._render_text).parameters.values())
    assert [p.name for p in parameters[:2]] == ["self", "feature_names"], parameters
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters[2:]), parameters
    with pytest.raises(NotFittedError):
        learner(name).to_text()


@pytest.mark.parametrize("name", NAMES)
def test_to_text_names_the_dataframe_columns(name, cancer):
    X, y = named_table(name, cancer)
    fitted = learner(name, discretize=False).fit(X, y)
    text = fitted.to_text()
    assert any(column in text for column in X.columns), text
    assert not DEFAULT_NAME.search(text), text
    assert str(fitted) == text
    renamed = fitted.to_text([f"col_{j}" for j in range(X.shape[1])])
    assert "col_" in renamed and not any(column in renamed for column in X.columns), renamed
    # On an array, columns are x0, x1, ... counted from 0 (as get_feature_names_out).
    on_array = clone(fitted).fit(X.to_numpy(), y)
    assert on_array.to_text() == on_array.to_text([f"x{j}" for j in range(X.shape[1])])


@pytest.mark.parametrize("name", NAMES)
def test_to_text_decimals_means_decimal_places_for_every_learner(name, cancer):
    # One option, one meaning: ``decimals`` places for every printed threshold, weight or edge.
    X, y = cancer
    X = X.iloc[:, :6]
    X = (X - X.mean()) / X.std() * 1.2345  # many decimals in every threshold a learner picks
    fitted = learner(name).fit(X, y)
    places = lambda text: [len(digits) for digits in re.findall(r"\d\.(\d+)", text)]  # noqa: E731
    coarse, fine = fitted.to_text(decimals=1), fitted.to_text(decimals=6)
    assert places(coarse) and max(places(coarse)) <= 1, coarse
    assert max(places(fine)) > 1, fine  # the option changed what is printed
    message = (
        rf"The 'decimals' parameter of {name}\.to_text must be an int in the range \[0, inf\) "
        r"or None\. Got -1 instead\."
    )
    with pytest.raises(InvalidParameterError, match=message):
        fitted.to_text(decimals=-1)


def column_pipeline(name):
    """ColumnTransformer for the mixed table, then the learner (names: num__age, cat__city_Nice, ...)."""
    numbers_step = discretizer() if name in NOMINAL_ONLY else StandardScaler()
    if name in NOMINAL_ONLY:
        categories_step = OrdinalEncoder()
    else:
        categories_step = OneHotEncoder(sparse_output=False)
    columns = ColumnTransformer(
        [("num", numbers_step, ["age", "income"]), ("cat", categories_step, ["city", "smoker"])]
    )
    # The ColumnTransformer bins the numbers for the nominal-only learners already.
    return Pipeline([("columns", columns), ("model", learner(name, discretize=False))])


@pytest.mark.parametrize("name", NAMES)
def test_pipeline_text_names_columns_through_a_column_transformer(name, people):
    X, y = people
    pipe = column_pipeline(name)
    if name == "Prism":  # on these bins no rule beats the majority class: the default list falls back
        pipe.set_params(model__pruning=None)
    pipe.fit(X, y)
    text = pipeline_text(pipe)
    assert re.search(r"\b(num__age|num__income|cat__city\w*|cat__smoker\w*)\b", text), text
    assert not DEFAULT_NAME.search(text), text


def test_decision_committee_reads_the_mixed_table_as_it_is(people):
    X, y = people
    committee = ESTIMATORS["DecisionCommittee"]().fit(X, y)
    assert committee.nominal_mask_.tolist() == [False, False, True, True]
    text = committee.to_text()
    assert "smoker = " in text and "age " in text, text
    assert committee.score(X, y) > 0.9


@pytest.mark.parametrize("name", STRING_READERS)
def test_learners_tagged_string_read_the_mixed_table_as_it_is(name, people):
    # The tag is the learner's word that strings are valid input: it must fit on them.
    X, y = people
    fitted = learner(name).fit(X, y)
    assert set(fitted.predict(X)) <= set(y)
    majority = max(np.mean(y == label) for label in set(y))
    assert fitted.score(X, y) > majority + 0.1  # y is smoker or age > 62: the columns are read


# ------------------------------------------------------------------------------------------------
# e. string columns to numeric learners
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NUMERIC)
def test_numeric_learner_reads_the_string_column_through_the_one_pipeline(name, people):
    # companion.preprocessing.NumericInput: the city's values become columns named after them.
    X, y = people
    model = learner(name).fit(X, y)
    assert model.input_encoder_ is not None
    assert any(str(column).startswith("city=") for column in model.feature_names_in_)
    assert len(model.predict(X)) == len(y)
