"""OneR (Holte 1993): the one-attribute rule baseline that Weka reports beside PRISM.

ZeroR, the other baseline, is scikit-learn's ``DummyClassifier(strategy="most_frequent")``.

OneR makes one rule per attribute, ``attribute = v -> the most frequent class among the training
instances with value v``, and keeps the attribute whose rule makes the fewest training errors.
For nominal attributes this is Weka's ``weka.classifiers.rules.OneR``: a missing value is a value
of its own; ties between classes go to the earlier class in declared order, ties between
attributes to the earlier attribute. A value never seen in training gets the majority class.
Numeric columns are binned by a ``discretizer``, with the column kinds of
:class:`companion.prism.Prism` (DataFrame dtypes or ``categorical_features``); ``predict_proba``
gives the Laplace-corrected class frequencies of the training instances sharing the value.

>>> from companion.datasets import load_contact_lenses
>>> X, y = load_contact_lenses()
>>> print(OneR().fit(X, y).to_text())
tear-prod-rate:
    reduced -> none
    normal -> soft
>>> OneR().fit(X, y).predict_proba(X.iloc[[0]]).round(3).tolist()  # reduced: 12 none of 12
[[0.067, 0.867, 0.067]]
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from companion.interpretable import InterpretableMixin, laplace_proba
from companion.prism import (
    _check_rule_learner_params,
    _encode_for_fit,
    _encode_for_predict,
    _nominal_input_tags,
)

__all__ = ["OneR"]


class OneR(InterpretableMixin, ClassifierMixin, BaseEstimator):
    """One-attribute rule classifier for nominal attributes (Holte 1993; Weka's ``OneR``).

    Parameters
    ----------
    discretizer : transformer or None, default=None
        As in :class:`companion.prism.Prism`: numeric columns (see ``categorical_features``)
        are refused unless a discretiser such as ``KBinsDiscretizer(n_bins=5,
        encode="ordinal", strategy="quantile")`` is given; it is then cloned and fitted on
        every numeric column, whole numbers included. (Weka's OneR has its own
        discretisation of numeric attributes, with a minimum bucket size; this one has not.)
    categorical_features : None, "all", list of str, list of int or boolean mask, default=None
        Which columns are nominal, exactly as in :class:`companion.prism.Prism` (``None``: from
        the DataFrame's dtypes; a plain array's numbers are numeric with a discretiser, integer
        codes without one); the other columns are numeric and binned by ``discretizer``.

    Attributes
    ----------
    classes_ : ndarray
        Sorted class labels.
    class_order_ : list
        Declared class order (categories of a categorical ``y``, else sorted): the tie-break.
    attribute_ : int
        Index of the chosen attribute.
    attribute_name_ : str
    value_classes_ : dict
        Value of the chosen attribute (``?`` for missing) -> predicted class.
    value_class_counts_ : ndarray of shape (n_values, n_classes)
        Training instances of each class (columns in ``classes_`` order) per value code of the
        chosen attribute (the last code is missing): what :meth:`predict_proba` reads.
    class_counts_ : ndarray of shape (n_classes,)
        Training instances of each class.
    training_errors_ : int
        Errors of the chosen rule on the training set.
    default_class_ : object
        Majority class, for values never seen in training.
    encoding_ : companion.prism.NominalEncoding

    Notes
    -----
    **Scores.** :meth:`predict_proba` is the Laplace-corrected class frequency
    ``(n_c + 1) / (n + k)`` (:func:`companion.interpretable.laplace_proba`) of the training
    instances holding the instance's value of the chosen attribute; a value no training
    instance holds (declared but unused, or unseen) gets the Laplace-corrected frequencies of
    the whole training set, as :meth:`predict` gives it the majority class. :meth:`predict` is
    the argmax of :meth:`predict_proba` except on exact ties between classes, which
    :meth:`predict` breaks by declared class order and the argmax by ``classes_`` order.
    OneR has no margin, so there is no ``decision_function``.

    References
    ----------
    .. [1] R. C. Holte, "Very simple classification rules perform well on most commonly used
       datasets", Machine Learning 11:63-90, 1993.
    """

    _sklearn_check_exemptions = {
        "check_positive_only_tag_during_fit": (
            "the check subtracts the mean from the integer codes it feeds a categorical "
            "learner, making non-integer numbers, which OneR refuses by design in a plain array "
            "without a discretizer (nominal attributes only; the error points to the "
            "discretizer option)"
        ),
        "check_classifier_data_not_an_array": (
            "the check wraps its float64 integer codes in a DataFrame and expects the array's "
            "predictions; a DataFrame's float64 columns are numeric by their dtype (issue 14: "
            "column kinds come from dtypes, never from whole-looking floats), so OneR without a "
            "discretizer refuses them, naming the column, while a plain array of numbers is read "
            "as integer codes"
        ),
        "check_classifiers_train": (
            "one attribute of the check's two cannot separate its three blobs: OneR reaches "
            "about 0.71 training accuracy there (the check wants > 0.83)"
        ),
    }

    def __init__(self, *, discretizer=None, categorical_features=None):
        self.discretizer = discretizer
        self.categorical_features = categorical_features

    def __sklearn_tags__(self):
        return _nominal_input_tags(super().__sklearn_tags__())

    def fit(self, X, y):
        """Choose the attribute whose one-level rule makes the fewest training errors.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Nominal attributes (strings, integer codes or categoricals), and numeric ones with a
            ``discretizer`` (see ``categorical_features``).
        y : array-like of shape (n_samples,)

        Returns
        -------
        self : OneR
        """
        _check_rule_learner_params(self)
        codes, y_arr, class_order, encoding, names = _encode_for_fit(
            self, X, y, missing="value", discretizer=self.discretizer,
            categorical_features=self.categorical_features,
        )
        self.encoding_ = encoding
        self.classes_ = np.unique(y_arr)
        self.class_order_ = class_order
        class_code = np.searchsorted(self.classes_, y_arr)  # classes_ order
        # Declared order of each class_ (the tie-break between classes).
        rank = np.array([class_order.index(c) for c in self.classes_.tolist()])
        n_classes = len(class_order)
        n_values = np.array([len(v) for v in encoding.values])
        offsets = np.concatenate([[0], np.cumsum(n_values)])
        # Joint (attribute, value, class) counts in one bincount: cell index = test * k + class.
        test = offsets[:-1] + codes  # codes >= 0 everywhere: missing is a value here
        joint = np.bincount(
            (test * n_classes + class_code[:, None]).ravel(), minlength=offsets[-1] * n_classes
        ).reshape(offsets[-1], n_classes)
        declared = joint[:, np.argsort(rank)]  # columns in declared class order
        majority = np.argmax(declared, axis=1)  # first maximum = earliest class in declared order
        correct_per_test = joint.max(axis=1)
        correct = np.add.reduceat(correct_per_test, offsets[:-1])
        best = int(np.argmax(correct))  # earliest attribute on ties
        self.attribute_ = best
        self.attribute_name_ = names[best]
        block = slice(offsets[best], offsets[best + 1])
        self.value_codes_ = np.array([class_order[k] for k in majority[block]], dtype=object)
        self.value_class_counts_ = joint[block]
        self.class_counts_ = np.bincount(class_code, minlength=n_classes)
        # A value absent from the training set predicts the majority class.
        absent = joint[block].sum(axis=1) == 0
        totals = self.class_counts_[np.argsort(rank)]
        self.default_class_ = class_order[int(np.argmax(totals))]
        self.value_codes_[absent] = self.default_class_
        self.value_classes_ = {
            encoding.value_name(best, v): c for v, c in enumerate(self.value_codes_) if not absent[v]
        }
        self.training_errors_ = int(len(y_arr) - correct[best])
        return self

    def _value_codes(self, X) -> np.ndarray:
        """Code of each instance's value of the chosen attribute; ``-1`` for an unseen value."""
        check_is_fitted(self)
        return _encode_for_predict(self, X)[:, self.attribute_]

    def predict(self, X):
        """Class of each instance's value of the chosen attribute."""
        codes = self._value_codes(X)
        labels = np.append(self.value_codes_, self.default_class_)
        predicted = labels[np.where(codes >= 0, codes, len(labels) - 1)]
        return np.asarray(predicted.tolist(), dtype=self.classes_.dtype)

    def predict_proba(self, X) -> np.ndarray:
        """Laplace-corrected class frequencies of the training instances sharing the value.

        See the class Notes ("Scores").

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            Columns in ``classes_`` order; rows sum to 1.
        """
        codes = self._value_codes(X)
        counts = self.value_class_counts_.copy()
        # A value no training instance holds falls back on the training set, as predict does.
        counts[counts.sum(axis=1) == 0] = self.class_counts_
        table = laplace_proba(np.vstack([counts, self.class_counts_[None, :]]))
        return table[np.where(codes >= 0, codes, len(table) - 1)]

    def _render_text(self, feature_names) -> str:
        """The rule, Weka-style: the attribute, then ``value -> class`` per line."""
        lines = [f"{feature_names[self.attribute_]}:"]
        lines += [f"    {value} -> {label}" for value, label in self.value_classes_.items()]
        return "\n".join(lines)
