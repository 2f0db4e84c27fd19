"""Properties every companion learner must have, checked on random Boolean data (issue 9).

* Relabelling the classes (0/1 -> strings, pandas categoricals, swapped order) changes nothing
  but the names of the predictions.
* Permuting the training rows changes no prediction (a learner that is order-dependent by design
  declares ``_row_order_dependence = "<why>"`` and is reported as skipped with that reason).
* A column in other units (multiplied by 10^4) changes no default model's predictions (issue 58).
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.discovery import all_estimators

LEARNERS = [cls for _, cls in all_estimators("classifier")]
PROPERTY_SETTINGS = settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _seeded(learner):
    """A learner with its own randomness fixed (``random_state=0``) when it has any.

    With ``random_state=None`` a randomised learner (the CART tree inside ``PrunedDecisionTree``
    breaks ties between equally good splits at random) differs from fit to fit on the very same
    rows; the properties below concern the data, so both fits get the same randomness.
    """
    return learner(random_state=0) if "random_state" in learner().get_params() else learner()


def _boolean_problem(seed, n_samples=40, n_features=6):
    """A noisy DNF on Boolean features: (x0 and x1) or x2, with 10% label noise."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n_samples, n_features))
    y = ((X[:, 0] & X[:, 1]) | X[:, 2]).astype(int)
    flip = rng.random(n_samples) < 0.1
    y[flip] = 1 - y[flip]
    if y.min() == y.max():  # keep two classes
        y[0] = 1 - y[0]
    return X, y


@pytest.mark.parametrize("learner", LEARNERS, ids=lambda c: c.__name__)
@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**31 - 1))
def test_relabelling_classes_only_renames_predictions(learner, seed):
    X, y = _boolean_problem(seed)
    reference = _seeded(learner).fit(X, y).predict(X)
    names = np.array(["negative", "positive"])
    as_strings = _seeded(learner).fit(X, names[y]).predict(X)
    assert (as_strings == names[reference]).all()
    # Same category order as the sorted names: PRISM, as Weka, takes the declared class order as
    # its search order, so a reordered categorical is a different problem for it.
    categorical = pd.Series(pd.Categorical(names[y], categories=["negative", "positive"]))
    as_categorical = _seeded(learner).fit(X, categorical).predict(X)
    assert (np.asarray(as_categorical) == names[reference]).all()


@pytest.mark.parametrize("learner", LEARNERS, ids=lambda c: c.__name__)
@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**31 - 1))
@example(seed=33145)  # found by CI: two unseeded CART fits broke a tie differently
def test_row_order_does_not_change_predictions(learner, seed):
    reason = getattr(learner, "_row_order_dependence", None)
    if reason is not None:
        assert len(reason) > 40, "an order-dependent learner must say why"
        pytest.skip(f"{learner.__name__} is order-dependent by design: {reason}")
    X, y = _boolean_problem(seed)
    order = np.random.default_rng(seed + 1).permutation(len(y))
    reference = _seeded(learner).fit(X, y).predict(X)
    permuted = _seeded(learner).fit(X[order], y[order]).predict(X)
    assert (reference == permuted).all()


def _units_table():
    """300 breast-cancer rows: 4 numeric columns of different units and a 0/1 column."""
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    rows = np.random.default_rng(0).permutation(len(y))[:301]
    X = X[rows][:, [0, 1, 4, 7]]
    indicator = (X[:, 2] > np.median(X[:, 2])).astype(float)
    return np.column_stack([X, indicator]), y[rows]


@pytest.mark.parametrize("column", [1, 3])
@pytest.mark.parametrize("learner", LEARNERS, ids=lambda c: c.__name__)
def test_a_column_times_ten_thousand_changes_no_default_model(learner, column):
    """Every public learner with its defaults (its randomness fixed, as above): one column in other
    units (the issue's column in the tens of thousands beside 0/1 indicators) gives the same
    held-out predictions and the same scores. 201 training rows: pd.qcut's edges in RIPPER are
    training values. Before issue 58 the kernel perceptrons changed 21-23 % of the predictions
    (their rbf kernel and gamma="scale" in the input's units), MaskPerceptron 1 % (its columns
    divided by powers of two only), OrderedRipper up to 12 % (its bin edges named off the values)."""
    X, y = _units_table()
    train, test = slice(0, 201), slice(201, None)
    big = X.copy()
    big[:, column] *= 1e4
    a = _seeded(learner).fit(X[train], y[train])
    b = _seeded(learner).fit(big[train], y[train])
    assert getattr(a, "fallback_class_", None) is None and a.complexity_ > 0  # a real model
    np.testing.assert_array_equal(a.predict(X[test]), b.predict(big[test]))
    for method in ("decision_function", "predict_proba"):
        if hasattr(a, method):
            np.testing.assert_allclose(getattr(a, method)(X[test]), getattr(b, method)(big[test]), rtol=1e-9, atol=1e-12)
