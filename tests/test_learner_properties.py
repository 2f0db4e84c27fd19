"""Properties every companion learner must have, checked on random Boolean data (issue 9).

* Relabelling the classes (0/1 -> strings, pandas categoricals, swapped order) changes nothing
  but the names of the predictions.
* Permuting the training rows changes no prediction (a learner that is order-dependent by design
  declares ``_row_order_dependence = "<why>"`` and is reported as skipped with that reason).
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
