"""Scale and finiteness (companion._scale): every learner, data multiplied by powers of two.

A learner either gives the same predictions at every scale (the data's order is unchanged by a
power of two), or refuses the data with a ValueError naming itself, the largest value, the range
its arithmetic handles and the remedy. No NaN or infinity reaches a score, and no raw error
(IndexError, LinAlgError...) reaches the user. The two learners whose arithmetic is not
order-based (MaskPerceptron's penalised polynomial, OrderedRipper's bin edges rounded by
wittgenstein) divide each column by its largest magnitude (companion._scale.largest_magnitudes) or
a power of two (companion._scale.column_exponents) first, so they too must give the same
predictions at every scale they accept.
"""

import warnings

import numpy as np
import pytest

from companion.discovery import all_estimators

LEARNERS = dict(all_estimators("classifier"))
EXPONENTS = [-1070, -996, -600, -300, -100, -12, 12, 100, 300, 600, 1000]


def _data(seed):
    rng = np.random.default_rng(seed)
    X = np.c_[rng.integers(0, 2, (60, 2)), np.round(rng.normal(size=(60, 2)), 2)].astype(float)
    y = np.where((X[:, 0] == 1) & (X[:, 2] > -0.3) | (X[:, 3] > 0.8), 1, 0)
    return X, y


def _make(name):
    estimator = LEARNERS[name]()
    if name == "Prism":
        estimator.set_params(categorical_features=[0, 1])
    if name == "OrderedRipper":
        estimator.set_params(random_state=0)
    return estimator


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(LEARNERS))
def test_same_model_at_every_power_of_two_or_a_clear_refusal(name):
    X, y = _data(0)
    X_test, _ = _data(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = _make(name).fit(X, y).predict(X_test)
        for exponent in EXPONENTS:
            scale = 2.0**exponent
            try:
                model = _make(name).fit(X * scale, y)
            except ValueError as exc:
                message = str(exc)
                assert name in message and "outside the range" in message and "Rescale X" in message, message
                continue
            predicted = model.predict(X_test * scale)
            if hasattr(model, "decision_function"):
                assert np.all(np.isfinite(model.decision_function(X_test * scale))), exponent
            if hasattr(model, "predict_proba"):
                assert np.all(np.isfinite(model.predict_proba(X_test * scale))), exponent
            np.testing.assert_array_equal(predicted, reference, err_msg=f"2**{exponent}")


@pytest.mark.parametrize("name", sorted(LEARNERS))
def test_constant_columns_and_one_row_per_class(name):
    """Nothing to learn, or the least there is: a model with finite scores, or a clear refusal."""
    cases = [
        (np.ones((6, 3)), np.array([0, 1] * 3)),
        (np.array([[0.0, 1.0], [1.0, 0.0]]), np.array([0, 1])),
    ]
    for X, y in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                model = _make(name).fit(X, y)
            except ValueError as exc:
                assert name in str(exc) or "sample" in str(exc), str(exc)
                continue
            assert set(model.predict(X)) <= {0, 1}
            if hasattr(model, "decision_function"):
                assert np.all(np.isfinite(model.decision_function(X)))
            if hasattr(model, "predict_proba"):
                assert np.all(np.isfinite(model.predict_proba(X)))


def test_no_learner_is_exempt_from_scale_invariance():
    """No learner may declare its model scale-dependent: each gives the same model at every power
    of two it accepts (the tests above), and refuses the others by name, range and remedy."""
    exempt = sorted(name for name, cls in LEARNERS.items() if hasattr(cls, "_scale_dependence"))
    assert exempt == []


@pytest.mark.parametrize("name", ["MaskPerceptron", "OrderedRipper"])
def test_the_rescaled_learners_give_the_same_model_at_every_scale(name):
    """The learners that rescale by powers of two: not only the predictions, the exported model
    (coefficients or rules and bins) is the same, with its recorded powers of two moved by the scale."""
    X, y = _data(4)
    X = X * np.array([1.0, 1.0, 37.0, 1000.0])  # binned columns of different magnitudes
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = _make(name).set_params(fallback=None).fit(X, y).to_dict()["model"]
        for exponent in (-996, -40, 12, 300, 1000):
            model = _make(name).set_params(fallback=None).fit(X * 2.0**exponent, y).to_dict()["model"]
            if name == "MaskPerceptron":  # every non-zero column is divided by its largest magnitude
                moved = {"column_divisors": [float(np.ldexp(d, exponent)) for d in reference["column_divisors"]]}
            else:  # the columns wittgenstein bins (here the two real ones) are multiplied by theirs
                moved = {"column_shifts": [s and s - exponent for s in reference["column_shifts"]]}
                assert [s != 0 for s in reference["column_shifts"]] == [False, False, True, True]
            assert model == {**reference, **moved}, exponent


@pytest.mark.parametrize("name", sorted(LEARNERS))
def test_moderate_powers_of_two_same_model_or_a_named_refusal(name):
    """2**k for k in (-40, -10, 10, 20, 40): a scale-invariant learner predicts the same, any learner
    refuses by name, range and remedy, never with a raw error (MaskPerceptron's Newton systems
    turned singular from about 2**14 with a bare 'Singular matrix' LinAlgError)."""
    X, y = _data(2)
    X_test, _ = _data(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = _make(name).fit(X, y).predict(X_test)
        for exponent in (-40, -10, 10, 20, 40):
            scale = 2.0**exponent
            try:
                model = _make(name).fit(X * scale, y)
            except ValueError as exc:
                message = str(exc)
                assert not isinstance(exc, np.linalg.LinAlgError), message
                assert name in message and "outside the range" in message and "Rescale X" in message, message
                continue
            np.testing.assert_array_equal(model.predict(X_test * scale), reference, err_msg=f"2**{exponent}")
