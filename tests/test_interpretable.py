"""The interface every interpretable learner shares (companion/interpretable.py).

One ``to_text(feature_names=None, **options)`` defined once, keyword-only ``__init__``, the size
measure ``complexity_`` and the ``staged_predict`` generator convention, checked on every
estimator the package defines (found by ``companion.discovery``), so a new learner is held to
them the moment it exists.
"""

import inspect
import types

import numpy as np
import pandas as pd
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from companion.decision_list import DecisionListMachine
from companion.discovery import all_estimators
from companion.interpretable import InterpretableMixin
from companion._learner_support import staged_predictions
from companion.prism import Prism

ESTIMATORS = all_estimators()
INTERPRETABLE = [(name, cls) for name, cls in ESTIMATORS if issubclass(cls, InterpretableMixin)]


def _binary_data(seed=0, n=60):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n, 5)).astype(float)
    y = np.where((X[:, 0] == 1) & (X[:, 1] == 0) | (X[:, 2] == 1) & (rng.random(n) < 0.8), "yes", "no")
    return pd.DataFrame(X, columns=["a", "b", "c", "d", "e"]), y


@pytest.mark.parametrize("name, cls", ESTIMATORS, ids=[name for name, _ in ESTIMATORS])
def test_init_parameters_are_keyword_only(name, cls):
    parameters = [p for p in inspect.signature(cls.__init__).parameters.values() if p.name != "self"]
    positional = [p.name for p in parameters if p.kind is not inspect.Parameter.KEYWORD_ONLY]
    assert positional == [], f"{name}.__init__ takes {positional} positionally"


@pytest.mark.parametrize("name, cls", INTERPRETABLE, ids=[name for name, _ in INTERPRETABLE])
def test_one_to_text_signature(name, cls):
    # to_text is the mixin's, never overridden: one signature for every learner
    assert cls.to_text is InterpretableMixin.to_text, f"{name} overrides to_text"
    options = [
        p for p in inspect.signature(cls._render_text).parameters.values() if p.name not in ("self", "feature_names")
    ]
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in options), f"{name}._render_text options"


@pytest.mark.parametrize("name, cls", INTERPRETABLE, ids=[name for name, _ in INTERPRETABLE])
def test_complexity_is_set_by_fit(name, cls):
    estimator = cls()
    assert not hasattr(estimator, "complexity_")
    X, y = _binary_data()
    if "categorical_features" in estimator.get_params():  # PRISM, OneR: nominal attributes only
        estimator.set_params(categorical_features=list(range(X.shape[1])))
    try:
        estimator.fit(X, y)
    except ImportError as exc:  # an optional dependency (e.g. wittgenstein) is missing
        pytest.skip(str(exc))
    assert isinstance(estimator.complexity_, (int, np.integer)) and estimator.complexity_ >= 0
    doc = inspect.getdoc(cls) or ""
    assert "complexity_" in doc, f"{name} does not document what complexity_ counts"


def test_to_text_options_reach_the_renderer_and_unknown_ones_are_named():
    X, y = _binary_data()
    prism = Prism(categorical_features=[0, 1, 2, 3, 4]).fit(X, y)
    assert prism.to_text(weka_layout=True).startswith("Prism rules\n----------\n")
    assert not prism.to_text().startswith("Prism rules")
    with pytest.raises(TypeError, match=r"unknown option\(s\) \['max_inline'\].*\['weka_layout', 'decimals'\]"):
        prism.to_text(max_inline=2)
    dlm = DecisionListMachine(s=2).fit(X, y)
    with pytest.raises(
        InvalidParameterError,
        match=r"The 'max_inline' parameter of DecisionListMachine\.to_text must be an int in the range "
        r"\[0, inf\)\. Got 1\.5 instead\.",
    ):
        dlm.to_text(max_inline=1.5)


def test_str_before_fit_is_the_parameter_repr_and_after_fit_the_text():
    model = DecisionListMachine(s=2)
    assert str(model) == "DecisionListMachine(s=2)"
    X, y = _binary_data()
    model.fit(X, y)
    assert str(model) == model.to_text()


def test_str_does_not_hide_errors_other_than_not_fitted():
    class Broken(DecisionListMachine):
        def _render_text(self, feature_names):
            raise RuntimeError("renderer bug")

    X, y = _binary_data()
    model = Broken(s=2).fit(X, y)
    with pytest.raises(RuntimeError, match="renderer bug"):
        str(model)


STAGED = [(name, cls) for name, cls in ESTIMATORS if hasattr(cls, "staged_predict")]


@pytest.mark.parametrize("name, cls", STAGED, ids=[name for name, _ in STAGED])
def test_staged_predict_is_a_generator_ending_at_predict(name, cls):
    X, y = _binary_data(seed=5)
    model = cls().fit(X, y)
    stages = model.staged_predict(X)
    assert isinstance(stages, types.GeneratorType)
    stages = list(stages)
    assert len(stages) >= 1
    np.testing.assert_array_equal(stages[-1], model.predict(X))
    assert all(stage.shape == (len(X),) for stage in stages)


def test_staged_predictions_stacks_and_handles_an_empty_model():
    X, y = _binary_data(seed=5)
    model = DecisionListMachine(s=4).fit(X, y)
    matrix = staged_predictions(model, X)
    assert matrix.shape == (model.n_balls_, len(X))
    np.testing.assert_array_equal(matrix[-1], model.predict(X))
    # a model with no element yields nothing: zero rows, one column per sample
    empty = types.SimpleNamespace(staged_predict=lambda X: iter(()), classes_=np.array(["no", "yes"]))
    assert staged_predictions(empty, X).shape == (0, len(X))


def test_the_inner_fits_of_the_fallback_check_and_only_they_skip_the_check():
    """beats_default_class marks its inner fits (fallback_check_running), not the clones: the flag
    is off before and after the check, also when an inner fit raises."""
    import numpy as np
    from sklearn.base import BaseEstimator, ClassifierMixin

    from companion.interpretable import beats_default_class
    from companion._learner_support import fallback_check_running

    class Spy(ClassifierMixin, BaseEstimator):
        def __init__(self, fail=False):
            self.fail = fail

        def fit(self, X, y):
            seen.append(fallback_check_running())
            if self.fail:
                raise RuntimeError("inner fit failed")
            self.classes_ = np.unique(y)
            return self

        def predict(self, X):
            return np.full(len(X), self.classes_[0])

    seen = []
    X, y = np.arange(24.0).reshape(12, 2), np.array([0, 1] * 6)
    assert not fallback_check_running()
    beats_default_class(Spy(), X, y)
    assert seen == [True] * 3 and not fallback_check_running()
    with pytest.raises(RuntimeError):
        beats_default_class(Spy(fail=True), X, y)
    assert not fallback_check_running()


class _RecordingMajority:
    """A learner for beats_default_class: records the rows of each inner fit, predicts its class 1."""

    seen: list = []

    def get_params(self, deep=True):
        return {}

    def set_params(self, **params):
        return self

    def fit(self, X, y):
        type(self).seen.append(np.asarray(X)[:, 0].copy())
        return self

    def predict(self, X):
        return np.ones(len(X), dtype=int)


def test_the_fallback_check_on_a_subsample_keeps_classes_in_proportion_and_ignores_row_order():
    """beats_default_class(max_rows=): beyond max_rows rows the inner folds are those of a
    stratified subsample (each class's first rows in the content-hash order, rounded up), the
    same rows whatever the caller's order; up to max_rows, the decision of every row."""
    from companion.interpretable import beats_default_class

    rng = np.random.default_rng(3)
    m = 5000
    X = np.column_stack([np.arange(m), rng.integers(0, 5, m)]).astype(float)  # column 0 names the row
    y = (rng.random(m) < 0.3).astype(int)
    _RecordingMajority.seen = []
    beats_default_class(_RecordingMajority(), X, y, max_rows=600)
    fitted = np.concatenate(_RecordingMajority.seen).astype(int)
    used = np.unique(fitted)
    assert len(_RecordingMajority.seen) == 3
    assert 600 <= used.size <= 601  # each class's quota rounded up
    share = y[used].mean()
    assert abs(share - y.mean()) < 2 / 600
    assert np.bincount(fitted, minlength=m).max() == 2  # each kept row trains 2 of the 3 folds
    # the same subsample from permuted rows, and the same decision as an explicit subset would not
    # promise (folds are of the subsample): compare the subsample itself
    order = rng.permutation(m)
    _RecordingMajority.seen = []
    beats_default_class(_RecordingMajority(), X[order], y[order], max_rows=600)
    assert np.array_equal(np.unique(np.concatenate(_RecordingMajority.seen).astype(int)), used)
    # no more rows than max_rows: every row, the decision of max_rows=None
    small = slice(0, 500)
    learner = DecisionListMachine(fallback=None)
    assert beats_default_class(learner, X[small], y[small], max_rows=600) == beats_default_class(learner, X[small], y[small])
    with pytest.raises(InvalidParameterError, match="max_rows"):
        beats_default_class(learner, X, y, max_rows=1)
