"""Bad-input matrix (issue 9): every public estimator, the Boolean kernel, the bounds and the loaders.

Every rejected input must raise a ``ValueError`` or ``TypeError`` whose message names the parameter
or input and says what was expected: never a bare numpy/pandas traceback (``IndexError``,
``KeyError``, ``ZeroDivisionError``, ``AttributeError``, ``OverflowError`` ...). scikit-learn's own
input-validation messages ("Input X contains NaN", "inconsistent numbers of samples", "0 sample(s)")
are accepted: they name the input and the problem. Inputs that must *work* (string and pandas
categorical labels, several classes for the multi-class learners) are checked to give predictions
drawn from the training labels.

The "what is rejected and why" table of docs/using.md summarises this file.
"""

from __future__ import annotations

import inspect

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.utils._param_validation import InvalidParameterError

from companion import _data_files, datasets
from companion.bounds import _confidence, binomial, compression, occam, pac_bayes
from companion.bounds import boolean_kernel as kernel_bounds
from companion.bounds import decision_list as dl_bounds
from companion.discovery import all_estimators
from companion.kernels import boolean_kernel
from companion.decision_list import DecisionListMachine
from companion.perceptrons import KernelPerceptron
from companion.prism import Prism
from companion.baselines import OneR
from companion.experiments.paper03._protocol import run_draw

ESTIMATORS = dict(all_estimators("classifier"))
NAMES = sorted(ESTIMATORS)

# The learners' traits come from their scikit-learn tags, not from a list kept here: the two-class
# learners (they say so with a ValueError) and those for which NaN is a legitimate value.
TAGS = {name: ESTIMATORS[name]().__sklearn_tags__() for name in NAMES}
BINARY_ONLY = {name for name in NAMES if not TAGS[name].classifier_tags.multi_class}
MULTI_CLASS = set(NAMES) - BINARY_ONLY
# What a learner does with a training set of a single class: predict it ("constant") or refuse.
STUMPS = {"SetCoveringStumps", "OccamStumps", "PacBayesStumps"}
ONE_CLASS_REFUSED = {"KernelPerceptron", "MaskPerceptron", "MaximalMarginPerceptron", *STUMPS}
# NaN is a missing attribute value (Prism, OneR, WIDC, RIPPER; the pruned tree routes it).
NAN_IS_MISSING = {name for name in NAMES if TAGS[name].input_tags.allow_nan}

CLASS_ERROR = r"(?i)(2 classes|binary)"
# Exceptions that betray an unguarded numpy/pandas operation rather than input validation.
BARE = (IndexError, KeyError, ZeroDivisionError, AttributeError, OverflowError, FloatingPointError)


def _data(n=24, n_features=4, seed=0):
    """Boolean features (valid for every learner, PRISM included) and balanced 0/1 labels."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n, n_features)).astype(float)
    y = np.arange(n) % 2
    X[:, 0] = y  # a perfectly informative column keeps every learner's fit short
    return X, y


def _make(name, **params):
    estimator = ESTIMATORS[name]()
    if name in {"DecisionListMachine", "BallSetCoveringMachine", *STUMPS}:
        estimator.set_params(s=3)
    return estimator.set_params(**params)


def _raises(exc, match, thunk):
    try:
        with pytest.raises(exc, match=match):
            thunk()
    except BARE as error:  # a clearer failure than pytest's "DID NOT RAISE"
        pytest.fail(f"bare {type(error).__name__} instead of {exc}: {error}")


# ------------------------------------------------------------------------------------------------
# Estimators: bad X / y
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(set(NAMES) - NAN_IS_MISSING))
def test_nan_in_X_is_rejected(name):
    X, y = _data()
    X[3, 1] = np.nan
    _raises(ValueError, r"Input X contains NaN", lambda: _make(name).fit(X, y))


@pytest.mark.parametrize("name", NAMES)
def test_inf_in_X_is_rejected(name):
    X, y = _data()
    X[3, 1] = np.inf
    expected = r"X contains infinity|Input contains infinity|column 'x1' holds numbers that are not finite integer codes"
    _raises(ValueError, expected, lambda: _make(name).fit(X, y))


@pytest.mark.parametrize("name", NAMES)
def test_empty_X_is_rejected(name):
    X = np.zeros((0, 3))
    y = np.zeros(0, dtype=int)
    _raises(ValueError, r"0 sample\(s\)", lambda: _make(name).fit(X, y))


@pytest.mark.parametrize("name", NAMES)
def test_y_of_wrong_length_is_rejected(name):
    X, y = _data()
    _raises(ValueError, r"inconsistent numbers of samples", lambda: _make(name).fit(X, y[:-1]))


@pytest.mark.parametrize("name", NAMES)
def test_one_dimensional_X_is_rejected(name):
    X, y = _data()
    _raises(ValueError, r"Expected 2D array, got 1D array", lambda: _make(name).fit(X[:, 0], y))


@pytest.mark.parametrize("name", NAMES)
def test_two_column_y_is_rejected(name):
    X, y = _data()
    _raises(ValueError, r"y should be a 1d array, got an array of shape \(24, 2\)",
            lambda: _make(name).fit(X, np.c_[y, 1 - y]))


@pytest.mark.parametrize("name", NAMES)
def test_continuous_y_is_rejected(name):
    X, _ = _data()
    y = np.linspace(0.0, 1.0, X.shape[0])
    _raises(ValueError, r"Unknown label type", lambda: _make(name).fit(X, y))


@pytest.mark.parametrize("name", NAMES)
def test_one_class_is_refused_or_predicted(name):
    X, _ = _data()
    y = np.full(X.shape[0], "only")
    if name in ONE_CLASS_REFUSED:
        _raises(ValueError, CLASS_ERROR, lambda: _make(name).fit(X, y))
    else:
        assert set(_make(name).fit(X, y).predict(X)) == {"only"}


@pytest.mark.parametrize("name", NAMES)
def test_one_sample_is_refused_or_predicted(name):
    X, _ = _data()
    if name in ONE_CLASS_REFUSED:
        _raises(ValueError, CLASS_ERROR, lambda: _make(name).fit(X[:1], ["a"]))
    else:
        assert list(_make(name).fit(X[:1], ["a"]).predict(X[:2])) == ["a", "a"]


@pytest.mark.parametrize("name", sorted(BINARY_ONLY))
def test_three_classes_to_binary_learner_is_rejected(name):
    X, _ = _data()
    y = np.arange(X.shape[0]) % 3
    _raises(ValueError, CLASS_ERROR, lambda: _make(name).fit(X, y))


@pytest.mark.parametrize("name", sorted(MULTI_CLASS))
def test_three_classes_work_for_multiclass_learner(name):
    X, _ = _data()
    y = np.array(["red", "green", "blue"])[np.arange(X.shape[0]) % 3]
    X[:, 1] = np.arange(X.shape[0]) % 3 == 1  # makes "green" separable
    predictions = _make(name).fit(X, y).predict(X)
    assert set(predictions) <= {"red", "green", "blue"}


@pytest.mark.parametrize("name", NAMES)
def test_string_labels_work(name):
    X, y = _data()
    labels = np.array(["spam", "ham"], dtype=object)[y]
    model = _make(name).fit(X, labels)
    assert list(model.classes_) == ["ham", "spam"]
    predictions = model.predict(X)
    assert set(predictions) <= {"ham", "spam"}
    # Same model as with integer labels: "ham" < "spam" in sorted order, as 0 < 1 is.
    as_integers = _make(name).fit(X, 1 - y).predict(X)
    np.testing.assert_array_equal(predictions, np.array(["ham", "spam"], dtype=object)[as_integers])


@pytest.mark.parametrize("name", NAMES)
def test_pandas_categorical_labels_work(name):
    X, y = _data()
    labels = pd.Series(pd.Categorical.from_codes(y, categories=["absent", "present"]))
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])])
    if name in {"OneR", "Prism"}:  # a float64 column is numeric by its dtype (issue 14): declare the codes
        frame = frame.astype("category")
    model = _make(name).fit(frame, labels)
    predictions = np.asarray(model.predict(frame), dtype=object)
    assert set(predictions) <= {"absent", "present"}
    as_integers = _make(name).fit(X, y).predict(X)
    np.testing.assert_array_equal(predictions, np.array(["absent", "present"], dtype=object)[as_integers])


# DecisionCommittee and PrunedDecisionTree read string / category / bool columns as nominal
# (issue 14, the one nominal reader): tests/test_widc.py, tests/test_baselines.py.
NUMERIC_LEARNERS = sorted(set(NAMES) - {"OneR", "OrderedRipper", "Prism", "DecisionCommittee", "PrunedDecisionTree"})


@pytest.mark.parametrize("name", NUMERIC_LEARNERS)
def test_string_column_to_numeric_learner_is_rejected(name):
    # The message comes from validate_data (numpy's conversion): it names the offending value.
    X, y = _data()
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])]).astype({"f1": object})
    frame.loc[2, "f1"] = "high"
    # companion._learner_support.check_numeric_input: the column and an encoder are named (issue 14)
    expected = rf"{name} needs numeric columns, but column 'f1' holds non-numeric values \(e.g. 'high'\).*OneHotEncoder"
    _raises(ValueError, expected, lambda: _make(name).fit(frame, y))


@pytest.mark.parametrize("name", sorted(set(NAMES) - NAN_IS_MISSING))
def test_nan_at_predict_is_rejected(name):
    X, y = _data()
    model = _make(name).fit(X, y)
    X[0, 1] = np.nan
    _raises(ValueError, r"Input X contains NaN", lambda: model.predict(X))


@pytest.mark.parametrize("name", NAMES)
def test_predict_before_fit_is_rejected(name):
    X, _ = _data()
    _raises(NotFittedError, r"is not fitted yet", lambda: _make(name).predict(X))


@pytest.mark.parametrize("name", NAMES)
def test_X_wider_at_predict_than_at_fit_is_rejected(name):
    X, y = _data()
    model = _make(name).fit(X, y)
    _raises(ValueError, rf"X has 8 features, but {name} is expecting 4 features", lambda: model.predict(np.hstack([X, X])))


# ------------------------------------------------------------------------------------------------
# PRISM / OneR: nominal attributes only
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("cls", [Prism, OneR], ids=["Prism", "OneR"])
def test_numeric_column_to_nominal_learner_is_rejected(cls):
    X, y = _data()
    X[:, 2] = np.linspace(0.1, 3.3, X.shape[0])
    expected = r"nominal attributes only, but column 'x2' holds numbers that are not finite integer codes"
    _raises(ValueError, expected, lambda: cls(discretizer=None).fit(X, y))


@pytest.mark.parametrize("cls", [Prism, OneR], ids=["Prism", "OneR"])
def test_string_and_categorical_columns_work_for_nominal_learner(cls):
    X, y = _data()
    frame = pd.DataFrame(
        {
            "outlook": np.array(["sunny", "rain"], dtype=object)[X[:, 0].astype(int)],
            "windy": pd.Categorical.from_codes(X[:, 1].astype(int), categories=["no", "yes"]),
        }
    )
    model = cls().fit(frame, y)
    np.testing.assert_array_equal(model.predict(frame), y)  # "outlook" is the label


@pytest.mark.parametrize("cls", [Prism, OneR], ids=["Prism", "OneR"])
def test_discretizer_without_transform_is_rejected(cls):
    X, y = _data()
    _raises(TypeError, r"discretizer", lambda: cls(discretizer=object()).fit(X, y))


# ------------------------------------------------------------------------------------------------
# Estimator parameters
# ------------------------------------------------------------------------------------------------
PARAMETER_CASES = [
    # negative penalties / regularisation constants
    ("DecisionListMachine", {"p_p": -1.0}, ValueError, r"The 'p_p' parameter of DecisionListMachine must be"),
    ("DecisionListMachine", {"p_n": -0.5}, ValueError, r"The 'p_n' parameter of DecisionListMachine must be"),
    ("BallSetCoveringMachine", {"p": -1.0}, ValueError, r"The 'p' parameter of BallSetCoveringMachine must be"),
    ("SetCoveringStumps", {"p": -1.0}, ValueError, r"The 'p' parameter of SetCoveringStumps must be a float in the range \[0.0, inf\). Got -1.0 instead"),
    ("OccamStumps", {"eta": -1.0}, ValueError, r"The 'eta' parameter of OccamStumps must be a float in the range \[0.0, inf\). Got -1.0 instead"),
    ("PacBayesStumps", {"eta": -1.0}, ValueError, r"The 'eta' parameter of PacBayesStumps must be a float in the range \[0.0, inf\). Got -1.0 instead"),
    ("KernelPerceptron", {"lam": -1.0}, ValueError, r"The 'lam' parameter of KernelPerceptron must be"),
    ("MaximalMarginPerceptron", {"lam": -1.0}, ValueError, r"The 'lam' parameter of MaximalMarginPerceptron must be"),
    ("KernelPerceptron", {"max_memory_gb": 0}, ValueError, r"The 'max_memory_gb' parameter of KernelPerceptron must be"),
    ("MaximalMarginPerceptron", {"max_memory_gb": "4GB"}, TypeError, r"The 'max_memory_gb' parameter of MaximalMarginPerceptron must be"),
    ("MaskPerceptron", {"lam": 0.0}, ValueError, r"The 'lam' parameter of MaskPerceptron must be"),
    ("PrunedDecisionTree", {"leaf_cost": -1.0}, ValueError, r"The 'leaf_cost' parameter of PrunedDecisionTree must be a float in the range \[0.0, inf\). Got -1.0 instead"),
    ("DecisionCommittee", {"optimistic_strength": -1.0}, ValueError, r"The 'optimistic_strength' parameter of DecisionCommittee must be a float in the range \[0.0, inf\). Got -1.0"),
    # s = 0 and non-integer stopping points
    ("DecisionListMachine", {"s": 0}, ValueError, r"The 's' parameter of DecisionListMachine must be"),
    ("BallSetCoveringMachine", {"s": 0}, ValueError, r"The 's' parameter of BallSetCoveringMachine must be"),
    ("SetCoveringStumps", {"s": 0}, ValueError, r"The 's' parameter of SetCoveringStumps must be an int in the range \[1, inf\). Got 0 instead"),
    ("OccamStumps", {"s": 2.5}, TypeError, r"The 's' parameter of OccamStumps must be an int in the range \[1, inf\). Got 2.5 instead"),
    ("DecisionListMachine", {"s": "all"}, TypeError, r"The 's' parameter of DecisionListMachine must be"),
    # δ outside (0, 1]
    ("PacBayesStumps", {"delta": 0.0}, ValueError, r"The 'delta' parameter of PacBayesStumps must be a float in the range \(0.0, 1.0\]. Got 0.0 instead"),
    ("SetCoveringStumps", {"delta": 1.5}, ValueError, r"The 'delta' parameter of SetCoveringStumps must be a float in the range \(0.0, 1.0\]. Got 1.5 instead"),
    ("DecisionCommittee", {"optimistic_delta": 0.0}, ValueError, r"The 'optimistic_delta' parameter of DecisionCommittee must be a float in the range \(0.0, 1.0\). Got 0.0"),
    ("DecisionCommittee", {"optimistic_delta": 2.0}, ValueError, r"The 'optimistic_delta' parameter of DecisionCommittee must be a float in the range \(0.0, 1.0\). Got 2.0"),
    # degree < 0 and bad kernel weights
    ("KernelPerceptron", {"kernel": "boolean", "degree": -1}, ValueError, r"The 'degree' parameter of KernelPerceptron must be"),
    ("MaximalMarginPerceptron", {"kernel": "boolean", "degree": -2}, ValueError, r"The 'degree' parameter of MaximalMarginPerceptron must be"),
    ("MaskPerceptron", {"degree": -1}, ValueError, r"The 'degree' parameter of MaskPerceptron must be"),
    ("KernelPerceptron", {"kernel": "boolean", "weights": -1.0}, ValueError, r"The 'weights' parameter of KernelPerceptron must be"),
    ("MaskPerceptron", {"weights": [1.0, 1.0]}, ValueError, r"weights must have length degree \+ 1"),
    # unknown names
    ("DecisionListMachine", {"metric": "manhattan-ish"}, ValueError, r"The 'metric' parameter of DecisionListMachine must be"),
    ("BallSetCoveringMachine", {"metric": "hamming2"}, ValueError, r"The 'metric' parameter of BallSetCoveringMachine must be"),
    ("DecisionListMachine", {"metric": 2}, TypeError, r"The 'metric' parameter of DecisionListMachine must be"),
    ("DecisionListMachine", {"ball_type": "round"}, ValueError, r"The 'ball_type' parameter of DecisionListMachine must be"),
    ("BallSetCoveringMachine", {"model_type": "dnf"}, ValueError, r"The 'model_type' parameter of BallSetCoveringMachine must be"),
    ("OccamStumps", {"model_type": "xor"}, ValueError, r"The 'model_type' parameter of OccamStumps must be a str among .*Got 'xor' instead"),
    ("SetCoveringStumps", {"tie_breaking": "random"}, ValueError, r"The 'tie_breaking' parameter of SetCoveringStumps must be a str among .*Got 'random' instead"),
    ("KernelPerceptron", {"kernel": "gaussian-ish"}, ValueError, r"The 'kernel' parameter of KernelPerceptron must be"),
    ("MaximalMarginPerceptron", {"kernel_params": [1, 2]}, TypeError, r"The 'kernel_params' parameter of MaximalMarginPerceptron must be"),
    ("MaximalMarginPerceptron", {"tol": 0.0}, ValueError, r"The 'tol' parameter of MaximalMarginPerceptron must be"),
    ("Prism", {"missing": "drop"}, ValueError, r"The 'missing' parameter of Prism must be a str among .*Got 'drop' instead"),
    ("Prism", {"uncovered": "guess"}, ValueError, r"The 'uncovered' parameter of Prism must be a str among .*Got 'guess' instead"),
    ("DecisionCommittee", {"pruning": "harsh"}, ValueError, r"The 'pruning' parameter of DecisionCommittee must be a str among .*Got 'harsh' instead"),
    ("DecisionCommittee", {"numeric_literal": "ge"}, ValueError, r"The 'numeric_literal' parameter of DecisionCommittee must be a str among .*Got 'ge' instead"),
    ("DecisionCommittee", {"max_cuts": 0}, ValueError, r"The 'max_cuts' parameter of DecisionCommittee must be an int in the range \[1, inf\). Got 0 instead"),
    ("DecisionCommittee", {"categorical_features": [7]}, ValueError, r"categorical_features holds column indices outside \[0, 4\)"),
    ("DecisionCommittee", {"categorical_features": "f0"}, TypeError, r"The 'categorical_features' parameter of DecisionCommittee must be None, a str among \{'all'\} or an array-like. Got 'f0'"),
    ("PrunedDecisionTree", {"criterion": "purity"}, ValueError, r"The 'criterion' parameter of PrunedDecisionTree must be a str among .*Got 'purity' instead"),
    ("PrunedDecisionTree", {"max_depth": 0}, ValueError, r"The 'max_depth' parameter of PrunedDecisionTree must be an int in the range \[1, inf\) or None. Got 0 instead"),
    ("KernelPerceptron", {"max_updates": 0}, ValueError, r"The 'max_updates' parameter of KernelPerceptron must be"),
    ("MaskPerceptron", {"n_candidates": 0}, ValueError, r"The 'n_candidates' parameter of MaskPerceptron must be"),
    ("MaskPerceptron", {"complement": "yes"}, TypeError, r"The 'complement' parameter of MaskPerceptron must be"),
    ("PacBayesStumps", {"margin_gaps": (0, 2)}, ValueError, r"The 'margin_gaps' parameter of PacBayesStumps must be a non-empty sequence of integers >= 1. Got \(0, 2\) instead"),
    ("OccamStumps", {"prior_n_features": 2}, ValueError, r"The 'prior_n_features' parameter of OccamStumps must be None or at least the number of features \(4\). Got 2 instead"),
    ("DecisionListMachine", {"compression_constraint": "yes"}, TypeError, r"The 'compression_constraint' parameter of DecisionListMachine must be"),
]


@pytest.mark.parametrize(
    "name, params, exc, match",
    PARAMETER_CASES,
    ids=[f"{name}-{'-'.join(f'{k}={v}' for k, v in params.items())}" for name, params, _, _ in PARAMETER_CASES],
)
def test_bad_parameter_is_rejected(name, params, exc, match):
    X, y = _data()
    _raises(exc, match, lambda: _make(name, **params).fit(X, y))


def test_precomputed_kernel_must_be_square():
    X, y = _data()
    _raises(ValueError, r"kernel='precomputed', X must be a square Gram matrix",
            lambda: KernelPerceptron(kernel="precomputed").fit(X, y))


# ------------------------------------------------------------------------------------------------
# The Boolean kernel
# ------------------------------------------------------------------------------------------------
KERNEL_CASES = [
    ("non-Boolean X", lambda X: boolean_kernel(X * 2.0, degree=2), ValueError, r"needs X with entries in \{0, 1\}"),
    ("non-Boolean Y", lambda X: boolean_kernel(X, X + 0.5, degree=2), ValueError, r"needs Y with entries in \{0, 1\}"),
    ("NaN in X", lambda X: boolean_kernel(np.where(X == 1, np.nan, X), degree=2), ValueError, r"X with entries in"),
    ("string X", lambda X: boolean_kernel([["a", "b"]], degree=2), ValueError, r"X must be a numeric 0/1 array"),
    ("1-D X", lambda X: boolean_kernel(X[0], degree=2), ValueError, r"X must be a 2-D array"),
    ("feature mismatch", lambda X: boolean_kernel(X, X[:, :2], degree=2), ValueError, r"same number of features"),
    ("degree < 0", lambda X: boolean_kernel(X, degree=-1), ValueError,
     r"The 'degree' parameter of boolean_kernel must be an int in the range \[0, inf\)\. Got -1 instead"),
    ("degree float", lambda X: boolean_kernel(X, degree=1.5), ValueError,
     r"The 'degree' parameter of boolean_kernel must be an int in the range \[0, inf\)\. Got 1\.5 instead"),
    ("weights <= 0", lambda X: boolean_kernel(X, degree=2, weights=[1, 0, 1]), ValueError, r"weights .* must all be > 0"),
    ("weights length", lambda X: boolean_kernel(X, degree=2, weights=[1, 1]), ValueError, r"weights must have length"),
    ("missing degree", lambda X: boolean_kernel(X), TypeError, r"degree"),
]


@pytest.mark.parametrize("thunk, exc, match", [c[1:] for c in KERNEL_CASES], ids=[c[0] for c in KERNEL_CASES])
def test_boolean_kernel_rejects(thunk, exc, match):
    X, _ = _data()
    _raises(exc, match, lambda: thunk(X))


def test_boolean_kernel_learner_rejects_non_boolean_X():
    X, y = _data()
    X[0, 1] = 0.5
    _raises(ValueError, r"needs X with entries in \{0, 1\}", lambda: KernelPerceptron(kernel="boolean").fit(X, y))


# ------------------------------------------------------------------------------------------------
# Bounds
# ------------------------------------------------------------------------------------------------
_DL_COUNTS = dict(c_p=1, c_n=1, b_p=1, b_n=0, k_p=0, k_n=0, r=2)
BOUND_CASES = [
    # binomial tail / test-set bound
    ("binomial delta=0", lambda: binomial.binomial_tail_inversion(1, 10, 0.0), ValueError,
     r"The \'delta\' parameter of binomial_tail_inversion must be a float in the range \(0\.0, 1\.0\](?:, an array-like or None| or an array-like)\. Got 0.0 instead"),
    ("binomial delta=1.5", lambda: binomial.binomial_tail_inversion(1, 10, 1.5), ValueError,
     r"The \'delta\' parameter of binomial_tail_inversion must be a float in the range \(0\.0, 1\.0\](?:, an array-like or None| or an array-like)\. Got 1.5 instead"),
    ("binomial delta=nan", lambda: binomial.binomial_tail_inversion(1, 10, np.nan), ValueError,
     r"The \'delta\' parameter of binomial_tail_inversion must be a float in the range \(0\.0, 1\.0\](?:, an array-like or None| or an array-like)\. Got nan instead"),
    ("binomial delta str", lambda: binomial.binomial_tail_inversion(1, 10, "0.05"), TypeError,
     r"The \'delta\' parameter of binomial_tail_inversion must be a float in the range \(0\.0, 1\.0\](?:, an array-like or None| or an array-like)\. Got '0\.05' instead"),
    ("binomial both deltas", lambda: binomial.binomial_tail_inversion(1, 10, 0.05, log_delta=-3.0), TypeError,
     r"exactly one of delta"),
    ("binomial log_delta>0", lambda: binomial.binomial_tail_inversion(1, 10, log_delta=1.0), InvalidParameterError,
     r"The 'log_delta' parameter of binomial_tail_inversion must be a float in the range \(-inf, 0\.0\], an array-like "
     r"or None\. Got 1\.0 instead"),
    ("binomial k>m", lambda: binomial.binomial_tail_inversion(11, 10, 0.05), ValueError,
     r"k \(errors\) cannot exceed m"),
    ("binomial k<0", lambda: binomial.log_binomial_tail(-1, 10, 0.1), InvalidParameterError,
     r"The 'k' parameter of log_binomial_tail must be a float in the range \[0\.0, inf\) or an array-like\. Got -1 instead"),
    ("binomial m=0", lambda: binomial.binomial_tail(0, 0, 0.1), InvalidParameterError,
     r"The 'm' parameter of binomial_tail must be a float in the range \[1\.0, inf\) or an array-like\. Got 0 instead"),
    ("binomial k=1.5", lambda: binomial.binomial_tail(1.5, 10, 0.1), ValueError, r"k must be a non-negative whole"),
    ("test_set delta=0", lambda: binomial.test_set_bound(1, 10, delta=0), ValueError, r"The \'delta\' parameter of test_set_bound must be a float in the range \(0\.0, 1\.0\](?:, an array-like or None| or an array-like)\. Got 0 instead"),
    # compression (paper 05)
    ("compression size>n", lambda: compression.compression_bound(0, 10, 2, 3), ValueError,
     r"size \(stumps\) cannot exceed"),
    ("compression n_errors<0", lambda: compression.compression_bound(-1, 10, 5, 1), ValueError,
     r"The 'n_errors' parameter of compression_bound must be an int in the range \[0, inf\)\. Got -1 instead"),
    ("compression m=0", lambda: compression.compression_bound(0, 0, 5, 0), ValueError,
     r"The 'm' parameter of compression_bound must be an int in the range \[1, inf\)\. Got 0 instead"),
    ("compression size+err>m", lambda: compression.compression_bound(8, 10, 5, 3), ValueError,
     r"size \+ n_errors .* cannot exceed m"),
    ("compression delta=0", lambda: compression.compression_bound(0, 10, 5, 1, delta=0.0), ValueError,
     r"The \'delta\' parameter of compression_bound must be a float in the range \(0\.0, 1\.0\](?:, an array-like or None| or an array-like)\. Got 0.0 instead"),
    # Occam (paper 05)
    ("occam delta=0", lambda: occam.occam_bound(0, 10, 5, [1], delta=0.0), ValueError, r"The \'delta\' parameter of occam_bound must be a float in the range \(0\.0, 1\.0\](?:, an array-like or None| or an array-like)\. Got 0.0 instead"),
    ("occam code_lengths<0", lambda: occam.occam_bound(0, 10, 5, [-1]), ValueError,
     r"code_lengths must be non-negative"),
    ("occam n_features<|k|", lambda: occam.occam_log_prior(1, [1, 2]), ValueError, r"n_features must be an integer >="),
    ("occam zeta a<0", lambda: occam.log_zeta(-1), InvalidParameterError,
     r"The 'a' parameter of log_zeta must be a float in the range \[0\.0, inf\) or an array-like\. Got -1 instead"),
    ("occam k>m", lambda: occam.occam_bound(11, 10, 5, [1]), ValueError, r"k \(errors\) cannot exceed m \(examples\)"),
    # PAC-Bayes (paper 05)
    ("pac_bayes delta=0", lambda: pac_bayes.pac_bayes_bound(0.1, 10, 5, [1.0], delta=0.0), ValueError,
     r"The \'delta\' parameter of pac_bayes_bound must be a float in the range \(0\.0, 1\.0\](?:, an array-like or None| or an array-like)\. Got 0.0 instead"),
    ("pac_bayes m=0", lambda: pac_bayes.pac_bayes_bound(0.1, 0, 5, [1.0]), ValueError,
     r"The 'm' parameter of pac_bayes_bound must be an int in the range \[1, inf\)\. Got 0 instead"),
    ("pac_bayes ratio<1", lambda: pac_bayes.pac_bayes_bound(0.1, 10, 5, [0.5]), ValueError,
     r"range_ratios .* must be finite and >= 1"),
    ("pac_bayes risk>1", lambda: pac_bayes.pac_bayes_bound(1.5, 10, 5, [1.0]), ValueError,
     r"The 'gibbs_empirical_risk' parameter of pac_bayes_bound must be a float in the range \[0\.0, 1\.0\] or an array-like\. Got 1\.5 instead"),
    ("pac_bayes risk=nan", lambda: pac_bayes.pac_bayes_bound(np.nan, 10, 5, [1.0]), ValueError,
     r"The 'gibbs_empirical_risk' parameter of pac_bayes_bound must be a float in the range \[0\.0, 1\.0\] or an array-like\. Got nan instead"),
    ("kl_inverse q<0", lambda: pac_bayes.kl_inverse_upper(-0.1, 1.0), InvalidParameterError,
     r"The 'q' parameter of kl_inverse_upper must be a float in the range \[0\.0, 1\.0\] or an array-like\. Got -0\.1 instead"),
    ("kl_inverse eps<0", lambda: pac_bayes.kl_inverse_upper(0.1, -1.0), InvalidParameterError,
     r"The 'epsilon' parameter of kl_inverse_upper must be a float in the range \[0\.0, inf\) or an array-like\. "
     r"Got -1\.0 instead"),
    # Boolean-kernel bounds (paper 03)
    ("extended_gram 0/1 labels", lambda: kernel_bounds.extended_gram(np.eye(3), [0, 1, 1], 0.0), ValueError,
     r"y must be a non-empty vector of labels in \{-1, \+1\}"),
    ("extended_gram lam<0", lambda: kernel_bounds.extended_gram(np.eye(2), [1, -1], -1.0), ValueError,
     r"The 'lam' parameter of extended_gram must be a float in the range \[0\.0, inf\)\. Got -1\.0 instead"),
    ("extended_gram y length", lambda: kernel_bounds.extended_gram(np.eye(3), [1, -1], 1.0), ValueError,
     r"K must be a square \(2, 2\) matrix matching y, got shape \(3, 3\)"),
    ("extended_gram K not square", lambda: kernel_bounds.extended_gram(np.ones((2, 3)), [1, -1], 1.0), ValueError,
     r"K must be a square \(2, 2\) matrix matching y, got shape \(2, 3\)"),
    ("tree_risk lam<0", lambda: kernel_bounds.tree_risk(1.0, 0, -4.0), ValueError,
     r"The 'lam' parameter of tree_risk must be a float in the range \[0\.0, inf\)\. Got -4\.0 instead"),
    ("mmp norm_sq=0", lambda: kernel_bounds.mmp_lower_bound(0.0), InvalidParameterError,
     r"The 'norm_sq' parameter of mmp_lower_bound must be a float in the range \(0\.0, inf\)\. Got 0\.0 instead"),
    ("perceptron norm_sq<0", lambda: kernel_bounds.perceptron_lower_bound(3, -1.0), InvalidParameterError,
     r"The 'norm_sq' parameter of perceptron_lower_bound must be a float in the range \(0\.0, inf\)\. "
     r"Got -1\.0 instead"),
    # decision-list bounds (paper 01)
    ("dl theorem1 delta=0", lambda: dl_bounds.theorem1_bound(10, 10, delta=0.0, **_DL_COUNTS), ValueError,
     r"The \'delta\' parameter of theorem1_bound must be a float in the range \(0\.0, 1\.0\](?:, an array-like or None| or an array-like)\. Got 0.0 instead"),
    ("dl theorem2 delta=1.5", lambda: dl_bounds.theorem2_bound(10, 10, delta=1.5, **_DL_COUNTS), ValueError,
     r"The \'delta\' parameter of theorem2_bound must be a float in the range \(0\.0, 1\.0\](?:, an array-like or None| or an array-like)\. Got 1.5 instead"),
    ("dl theorem1 c_p<0", lambda: dl_bounds.theorem1_bound(10, 10, **{**_DL_COUNTS, "c_p": -1}), ValueError,
     r"The 'c_p' parameter of theorem1_bound must be an int in the range \[0, inf\)\. Got -1 instead"),
    ("dl counts > class", lambda: dl_bounds.theorem1_bound(2, 10, **{**_DL_COUNTS, "k_p": 5}), ValueError,
     r"exceed the class sizes"),
    ("dl corrected ball_type", lambda: dl_bounds.corrected_bound(20, compression_size=2, n_centres=1, n_errors=0, r=1,
                                                                 ball_type="round"), ValueError,
     r"The 'ball_type' parameter of corrected_bound must be a str among \{.*\}\. Got 'round' instead"),
    ("dl corrected delta=0", lambda: dl_bounds.corrected_bound(20, compression_size=2, n_centres=1, n_errors=0, r=1,
                                                               delta=0.0), ValueError, r"The \'delta\' parameter of corrected_bound must be a float in the range \(0\.0, 1\.0\](?:, an array-like or None| or an array-like)\. Got 0.0 instead"),
    ("dl bound_path unfitted", lambda: dl_bounds.dlm_bound_path(DecisionListMachine()), ValueError,
     r"the DecisionListMachine is not fitted"),
]


@pytest.mark.parametrize("thunk, exc, match", [c[1:] for c in BOUND_CASES], ids=[c[0] for c in BOUND_CASES])
def test_bound_rejects(thunk, exc, match):
    _raises(exc, match, thunk)


# ------------------------------------------------------------------------------------------------
# Loaders
# ------------------------------------------------------------------------------------------------
LOADER_CASES = [
    ("monks problem=4", lambda: datasets.load_monks(4), ValueError,
     r"The 'problem' parameter of load_monks must be an int in the range \[1, 3\]\. Got 4 instead"),
    ("monks split", lambda: datasets.load_monks(1, split="validation"), ValueError,
     r"The 'split' parameter of load_monks must be a str among \{.*\}\. Got 'validation' instead"),
    ("positive_class unknown", lambda: datasets.load_haberman(positive_class="nonexistent"), ValueError,
     r"positive_class \['nonexistent'\] not among the labels"),
    ("unlisted file", lambda: _data_files.verified_bytes("no_such_file.csv"), ValueError,
     r"'no_such_file.csv' is not listed"),
    ("unknown keyword", lambda: datasets.load_votes(drop_missing=True), TypeError,
     r"unexpected keyword argument 'drop_missing'"),
]


@pytest.mark.parametrize("thunk, exc, match", [c[1:] for c in LOADER_CASES], ids=[c[0] for c in LOADER_CASES])
def test_loader_rejects(thunk, exc, match):
    _raises(exc, match, thunk)


def test_positive_class_covering_every_label_is_rejected():
    _, y = datasets.load_haberman()
    _raises(ValueError, r"covers every label", lambda: datasets.load_haberman(positive_class=sorted(set(y))))


# ------------------------------------------------------------------------------------------------
# Public functions of the protocols and the claims (scikit-learn's validate_params: the message
# names the function, the parameter, the allowed range and the value given)
# ------------------------------------------------------------------------------------------------
def _protocol_cases():
    from companion.claims._statistics import clopper_pearson
    from companion.experiments.paper01 import _studies as paper01_studies
    from companion.experiments.paper03 import _protocol, _studies

    return [
        ("run_draw n_train=1", lambda: run_draw(0, n_train=1), ValueError,
         r"The 'n_train' parameter of run_draw must be an int in the range \[2, inf\)\. Got 1 instead"),
        ("conditioned n_draws=True", lambda: _protocol.run_conditioned_protocol(True, 0), TypeError,
         r"The 'n_draws' parameter of run_conditioned_protocol must be an int in the range \[1, inf\)\. Got True"),
        ("row_order_spread n_orders=1", lambda: _studies.row_order_spread(0, n_orders=1), ValueError,
         r"The 'n_orders' parameter of row_order_spread must be an int in the range \[2, inf\)\. Got 1 instead"),
        ("bound_coverage m=0.5", lambda: paper01_studies.bound_coverage(2, m=0.5), ValueError,
         r"The 'm' parameter of bound_coverage must be an int in the range \[1, inf\)\. Got 0\.5 instead"),
        ("clopper_pearson n=0", lambda: clopper_pearson(0, 0), ValueError,
         r"The 'n' parameter of clopper_pearson must be an int in the range \[1, inf\)\. Got 0 instead"),
        ("theorem6 n_train=True", lambda: kernel_bounds.theorem6_subset_size(4, 29, True), TypeError,
         r"The 'n_train' parameter of theorem6_subset_size must be an int in the range \[1, inf\)\. Got True"),
        ("log_attribute_choices n=0", lambda: occam.log_attribute_choices(0, 1), ValueError,
         r"The 'n_features' parameter of log_attribute_choices must be an int in the range \[1, inf\)\. Got 0"),
        ("check_delta True", lambda: _confidence.check_delta(True), TypeError,
         r"The 'delta' parameter of check_delta must be a float in the range \(0\.0, 1\.0\] or an array-like\. Got True"),
    ]


@pytest.mark.parametrize("case", range(8))
def test_public_function_messages_name_function_parameter_range_and_value(case):
    name, thunk, exc, match = _protocol_cases()[case]
    _raises(exc, match, thunk)


ALL_ESTIMATORS = dict(all_estimators())
#: Every estimator whose fit takes weights (OrderedRipper refuses any sample_weight: its RIPPER has none).
WEIGHTED = [
    name for name in sorted(ALL_ESTIMATORS)
    if "sample_weight" in inspect.signature(ALL_ESTIMATORS[name].fit).parameters and name != "OrderedRipper"
]


@pytest.mark.parametrize("name", WEIGHTED)
@pytest.mark.parametrize(
    "weights, exc, match",
    [
        (lambda n: np.r_[-1.0, np.ones(n - 1)], ValueError, r"sample_weight must be finite and non-negative \(Negative values in sample_weight: -1\.0 at row 0\)"),
        (lambda n: np.r_[np.ones(n - 1), np.nan], ValueError, r"sample_weight must be finite and non-negative, got nan at row \d+"),
        (lambda n: np.r_[np.inf, np.ones(n - 1)], ValueError, r"sample_weight must be finite and non-negative, got inf at row 0"),
        (lambda n: np.ones(n - 1), ValueError, r"sample_weight has \d+ weights but X has \d+ rows"),
        (lambda n: np.zeros(n), ValueError, r"sample_weight is all zero: at least one non-zero weight is needed"),
        (lambda n: np.ones((n, 2)), ValueError, r"sample_weight must be one weight per row \(1-D\)"),
        (lambda n: np.array(["a"] * n), TypeError, r"sample_weight must hold numbers"),
    ],
    ids=["negative", "nan", "inf", "short", "zeros", "2d", "strings"],
)
def test_bad_sample_weight_is_refused_by_every_learner_the_same_way(name, weights, exc, match):
    """Negative, NaN or infinite weights (PrunedDecisionTree and MDLDiscretizer took negative
    ones) are refused by every learner with one message naming it, the parameter and the row."""
    X, y = _data()
    estimator = ALL_ESTIMATORS[name]()
    with pytest.raises(exc, match=rf"^{name}\.fit: {match}"):
        estimator.fit(X, y, sample_weight=weights(len(y)))


@pytest.mark.parametrize("degree, limit, message", [
    (3, 4.0, r"about 1205\.5 GiB for the scores of its 161801 candidate monomials on 200000 rows, more than "
             r"max_memory_gb=4\.0\."),
    (2, 1.0, r"about 2\.6 GiB for the scores of its 5001 candidate monomials on 200000 rows, more than "
             r"max_memory_gb=1\.0\."),
])
def test_mask_perceptron_refuses_beyond_max_memory_gb_before_allocating(degree, limit, message):
    """200,000 x 50 asked the system for 14.9 GiB without a word; now the estimate comes first
    (degree 3: the candidates' matrix; degree 2: the inputs' products, no such matrix)."""
    import time

    X = np.zeros((200_000, 50))
    y = np.arange(200_000) % 2
    start = time.perf_counter()
    with pytest.raises(ValueError, match=rf"MaskPerceptron would need {message} Raise max_memory_gb"):
        ESTIMATORS["MaskPerceptron"](degree=degree, max_memory_gb=limit).fit(X, y)
    assert time.perf_counter() - start < 30


def test_a_missing_cell_only_in_an_inner_test_fold_is_read_as_the_fit_reads_it():
    """The fallback check's clones read each inner training fold as the fit reads the whole frame
    (NumericInput): a missing cell that falls in an inner test fold is imputed, not refused."""
    import warnings

    import numpy as np
    import pandas as pd

    from companion import BallSetCoveringMachine, DecisionListMachine, KernelPerceptron, OccamStumps

    X = pd.DataFrame(np.random.default_rng(0).normal(size=(60, 3)), columns=list("abc"))
    X.iloc[3, 1] = np.nan  # one missing cell: in one inner test fold, in no training fold with it
    y = (X["a"] > 0).astype(int)
    for learner in (DecisionListMachine, BallSetCoveringMachine, OccamStumps, KernelPerceptron):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = learner().fit(X, y)
        assert model.input_encoder_ is not None and model.predict(X).shape == (60,), learner.__name__
