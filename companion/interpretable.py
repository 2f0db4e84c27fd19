"""What every interpretable learner of the package shares: text, rules, export, fallback.

* :class:`InterpretableMixin` — the interface every interpretable learner shares:
  ``to_text(feature_names=None, **options)`` with one convention for names (the caller's, else
  ``feature_names_in_`` from a DataFrame, else ``x0, x1, ...`` counted from 0 as scikit-learn's
  ``get_feature_names_out`` does), ``__str__``, the size measure ``complexity_`` and the
  ``staged_predict`` generator convention. A learner implements ``_render_text``.
* :meth:`InterpretableMixin.to_dict` / :func:`from_dict` — the fitted model as a JSON-able
  ``dict`` (schema below) and back; the round trip predicts identically.
* :meth:`InterpretableMixin.rules_frame` — one row per rule, ball, stump or monomial of a
  rule-like model, with how many of the given rows it decides and how many of those it gets
  wrong.
* :func:`pipeline_text` — the text of the last step of a fitted ``Pipeline``, named with the
  feature names the earlier steps produce (``get_feature_names_out``).
* :func:`beats_default_class` — the inner-fold check behind the learners' fallback to the
  majority class.
* :class:`SingleClassWarning` — the package's one warning for a fitted model that predicts a
  single class on every training row (:meth:`InterpretableMixin._check_single_class`); such a
  model prints as ``always C``.

The learners' shared plumbing (printed numbers, Laplace frequencies, input refusals, JSON
values) lives in :mod:`companion._learner_support`.

Exported models
---------------
``to_dict()`` returns, for every interpretable learner, the same envelope (``json.dumps`` takes it
as it is; non-finite floats are written as the strings ``"Infinity"``, ``"-Infinity"`` and
``"NaN"``, which ``float()`` reads back)::

    {
      "format": "companion.model",   # MODEL_FORMAT
      "version": 2,                  # MODEL_FORMAT_VERSION
      "learner": "OccamStumps",      # a class of companion.__all__
      "params": {...},               # get_params(deep=False); an estimator-valued parameter
                                     # as {"estimator": "sklearn....Class", "params": {...}}
      "n_features_in": 30,
      "feature_names_in": [...],     # or null when fitted on an array
      "classes": [...],              # classes_ as JSON values
      "model": {...}                 # the learner's own part, documented in its docstring
    }

``from_dict(data)`` rebuilds the fitted learner from it, once every field is checked: the
envelope here, the ``"model"`` part against the learner's schema, declared once in
:mod:`companion._model_format` and applied by ``to_dict`` too (a model that could not be read
back is refused when written). A refusal is a :class:`ModelFormatError` (a ``ValueError``) naming
the learner and the field (``OccamStumps model: field model.stumps[0].direction must be one of
[-1, 1], got 5``).
"""

from __future__ import annotations

import inspect
import math
from importlib import import_module
from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator
from sklearn.exceptions import NotFittedError
from sklearn.pipeline import Pipeline
from sklearn.utils._param_validation import HasMethods, validate_parameter_constraints, validate_params
from sklearn.utils.validation import check_is_fitted

from companion._learner_support import canonical_row_order, inner_fallback_fit, jsonable, resolve_feature_names
from companion._learners import LEARNERS
from companion._model_format import Context as ModelContext
from companion._model_format import MODEL_FORMAT, MODEL_FORMAT_VERSION, SCHEMAS, ModelFormatError, check_model
from companion.numerics import StrictInterval
from companion.preprocessing import NumericInput

__all__ = [
    "InterpretableMixin",
    "from_dict",
    "ModelFormatError",
    "pipeline_text",
    "SingleClassWarning",
    "beats_default_class",
]


class SingleClassWarning(UserWarning):
    """A fitted model predicts one class on every training row (it is the default class).

    The one warning class of the package for it, whichever learner: ``to_text()`` then prints
    ``always C`` and ``single_class_`` holds ``C``. Often a sign of class imbalance, which
    ``class_weight="balanced"`` (on the learners that have it) addresses. Silence it with
    ``warnings.filterwarnings("ignore", category=SingleClassWarning)``.
    """


#: Versions :func:`from_dict` reads. Version 2 added the schema checks and estimator-valued
#: parameters (``{"estimator": "sklearn.preprocessing.KBinsDiscretizer", "params": {...}}``);
#: a version-1 file has the same fields and is read with the same checks.
READABLE_MODEL_VERSIONS = (1, 2)

#: The envelope's fields, in the order :meth:`InterpretableMixin.to_dict` writes them.
_ENVELOPE_FIELDS = ("format", "version", "learner", "params", "n_features_in", "feature_names_in", "classes", "model")
#: Envelope fields that may be absent: ``single_class`` (the class a model that predicts one class
#: on every training row prints as ``always C``; absent when there is none).
_OPTIONAL_ENVELOPE_FIELDS = ("single_class",)

#: Packages whose estimators an exported parameter may name (a ``discretizer=`` estimator).
_ESTIMATOR_PACKAGES = ("sklearn.", "companion.")


def _estimator_to_json(value, where):
    """An estimator-valued parameter as ``{"estimator": "module.Class", "params": {...}}``."""
    cls = type(value)
    name = f"{cls.__module__}.{cls.__qualname__}"
    if not name.startswith(_ESTIMATOR_PACKAGES):
        raise TypeError(
            f"{where} is a {cls.__name__} from {cls.__module__}; an exported model can hold estimators of "
            "scikit-learn and companion only"
        )
    # the public path (sklearn.preprocessing.KBinsDiscretizer, not ..._discretization.KBinsDiscretizer)
    public = cls.__module__
    parts = public.split(".")
    for k in range(1, len(parts)):
        candidate = ".".join(parts[:k])
        try:
            if getattr(import_module(candidate), cls.__name__, None) is cls:
                public = candidate
                break
        except ImportError:  # pragma: no cover - a package without __init__
            continue
    return {
        "estimator": f"{public}.{cls.__name__}",
        "params": {key: _param_to_json(item, f"{where}.{key}") for key, item in value.get_params(deep=False).items()},
    }


def _param_to_json(value, where):
    if isinstance(value, BaseEstimator):
        return _estimator_to_json(value, where)
    return jsonable(value, where=where)


def _param_from_json(value, where, learner):
    """Inverse of :func:`_param_to_json` (estimators rebuilt, only from the allowed packages)."""
    if isinstance(value, dict) and set(value) == {"estimator", "params"}:
        path = value["estimator"]
        if not isinstance(path, str) or not path.startswith(_ESTIMATOR_PACKAGES) or "." not in path:
            raise ModelFormatError(
                f"{learner}: field {where}.estimator must name a scikit-learn or companion estimator "
                f"(e.g. 'sklearn.preprocessing.KBinsDiscretizer'), got {value['estimator']!r}"
            )
        module, _, name = path.rpartition(".")
        try:
            cls = getattr(import_module(module), name)
        except (ImportError, AttributeError):
            cls = None
        if not (isinstance(cls, type) and issubclass(cls, BaseEstimator)):
            raise ModelFormatError(f"{learner}: field {where}.estimator names no estimator: {path!r}")
        if not isinstance(value["params"], dict):
            raise ModelFormatError(f"{learner}: field {where}.params must be an object (dict), got {value['params']!r}")
        params = {key: _param_from_json(item, f"{where}.params.{key}", learner) for key, item in value["params"].items()}
        try:
            estimator = cls(**params)
            if hasattr(estimator, "_validate_params"):
                estimator._validate_params()
        except (TypeError, ValueError) as exc:
            raise ModelFormatError(f"{learner}: field {where}.params: {exc}") from None
        return estimator
    return value


def _envelope_error(learner, field, problem):
    return ModelFormatError(f"{learner or 'from_dict'}: field {field} {problem}")


def _learners_read_by(data) -> list[str]:
    """The learners whose parameters and model fields ``data`` holds (its own learner, if valid).

    A learner matches when every key of ``data["params"]`` is one of its parameters and the keys
    of ``data["model"]`` are those of its schema (the required ones, and optional ones only).
    """
    params, model = data.get("params"), data.get("model")
    if not isinstance(params, dict) or not isinstance(model, dict):
        return []
    found = []
    for learner, module in LEARNERS.items():
        schema = SCHEMAS.get(learner)
        if schema is None:  # a transformer: no exported model
            continue
        accepted = set(getattr(import_module(module), learner)().get_params(deep=False))
        if set(params) <= accepted and set(schema.fields) <= set(model) <= set(schema.fields) | set(schema.optional):
            found.append(learner)
    return found


def _check_learner_matches(name, data) -> None:
    """Refuse, before any parameter or field, a model of another learner read as ``name``."""
    read_by = _learners_read_by(data)
    if read_by and name not in read_by:
        others = " or ".join(read_by)
        raise _envelope_error(
            name, "learner",
            f"says {name!r}, but the parameters and the model part are those of a {others} model: "
            f"this export is not a {name} (set learner to {read_by[0]!r} if it was renamed by mistake)",
        )


def _check_classes(name, classes, binary, one_class=False):
    if not isinstance(classes, list) or not classes:
        raise _envelope_error(name, "classes", f"must be a non-empty list of labels, got {classes!r}")
    for i, label in enumerate(classes):
        if not isinstance(label, (str, int, float)) or isinstance(label, float) and not math.isfinite(label):
            raise _envelope_error(name, f"classes[{i}]", f"must be a string or a finite number, got {label!r}")
    kinds = {str if isinstance(c, str) else (bool if isinstance(c, bool) else Real) for c in classes}
    if len(kinds) > 1:
        raise _envelope_error(name, "classes", f"mixes strings, booleans and numbers: {classes!r}")
    if any(b <= a for a, b in zip(classes, classes[1:])):
        raise _envelope_error(name, "classes", f"must be sorted and without repeats (as np.unique gives), got {classes!r}")
    if binary and len(classes) != 2 and not (one_class and len(classes) == 1):
        # a two-class learner whose fit takes one class (the machine that always predicts it)
        # exports that one label
        sizes = "1 or 2 labels (one: a model fitted on one class)" if one_class else "exactly 2 labels"
        raise _envelope_error(name, "classes", f"must hold {sizes} for this two-class learner, got {classes!r}")


def _first_difference(a, b, path="model"):
    """The path of the first place two JSON values differ (None when equal)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{path}.{key}"
            found = _first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return path
        for i, (x, y) in enumerate(zip(a, b)):
            found = _first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    if a == b and type(a) is type(b) or (
        isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool) and a == b
    ):
        return None
    return path


# Nested validation stays on: the learner is built from the caller's parameters (``params``).
@validate_params({"data": [dict]}, prefer_skip_nested_validation=False)
def from_dict(data):
    """Rebuild a fitted learner from :meth:`InterpretableMixin.to_dict`'s output.

    Every field is checked before anything is built: the envelope (format, version, a known
    learner, its parameters as the learner's own constraints accept them, ``n_features_in``,
    ``feature_names_in``, ``classes``) and the learner's ``"model"`` part against its schema in
    :mod:`companion._model_format` (types, ranges, indices within ``n_features_in``, labels among
    ``classes``, finite numbers, consistent lengths). Once rebuilt, the model is exported again
    and must give back the same ``"model"`` part: a field that contradicts another is refused.

    Parameters
    ----------
    data : dict
        An exported model (or ``json.loads`` of one): the envelope of the module docstring.

    Returns
    -------
    estimator
        A fitted instance of ``data["learner"]`` with ``data["params"]``; it predicts as the
        exported model did.

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        (a ``TypeError`` and a ``ValueError``) If ``data`` is not a dict.
    ModelFormatError
        (a ``ValueError``) If ``data`` is not a ``companion.model`` of a version this package
        reads, names a learner the package does not have, or has a field that is missing, of the
        wrong type, out of range or inconsistent; the message names the learner and the field.
    """
    if data.get("format") != MODEL_FORMAT:
        raise ModelFormatError(
            f"from_dict: field format must be {MODEL_FORMAT!r}: from_dict needs a dict with format "
            f"{MODEL_FORMAT!r} (the output of to_dict()), got format {data.get('format')!r}"
        )
    if data.get("version") not in READABLE_MODEL_VERSIONS or isinstance(data.get("version"), bool):
        raise ModelFormatError(
            f"from_dict: field version: from_dict reads {MODEL_FORMAT} version "
            f"{', '.join(map(str, READABLE_MODEL_VERSIONS))}, got version {data.get('version')!r}"
        )
    name = data.get("learner")
    if not isinstance(name, str) or name not in LEARNERS:
        raise ModelFormatError(
            f"from_dict: field learner: unknown learner {name!r}; the package's learners are {sorted(LEARNERS)}"
        )
    cls = getattr(import_module(LEARNERS[name]), name)
    if not hasattr(cls, "_model_from_dict"):
        raise ModelFormatError(f"from_dict: field learner: {name} does not export its model")
    _check_learner_matches(name, data)  # the mismatch first, not a parameter it leads to
    for field in _ENVELOPE_FIELDS:
        if field not in data:
            raise _envelope_error(name, field, "is missing")
    unknown = [key for key in data if key not in _ENVELOPE_FIELDS + _OPTIONAL_ENVELOPE_FIELDS]
    if unknown:
        raise _envelope_error(name, unknown[0], f"is not a field of an exported model (fields: {list(_ENVELOPE_FIELDS)})")
    params = data["params"]
    if not isinstance(params, dict):
        raise _envelope_error(name, "params", f"must be an object (dict), got {params!r}")
    accepted = set(cls().get_params(deep=False))
    for key in params:
        if key not in accepted:
            raise _envelope_error(name, f"params.{key}", f"is not a parameter of {name} (its parameters: {sorted(accepted)})")
    params = {key: _param_from_json(value, f"params.{key}", name) for key, value in params.items()}
    estimator = cls(**params)
    try:
        estimator._validate_params()
    except (TypeError, ValueError) as exc:
        raise ModelFormatError(f"{name}: field params: {exc}") from None
    n_features = data["n_features_in"]
    if isinstance(n_features, bool) or not isinstance(n_features, Integral) or n_features < 1:
        raise _envelope_error(name, "n_features_in", f"must be an integer >= 1, got {n_features!r}")
    names = data["feature_names_in"]
    if names is not None:
        if not isinstance(names, list) or len(names) != n_features or not all(isinstance(v, str) for v in names):
            raise _envelope_error(name, "feature_names_in", f"must be null or a list of {n_features} strings, got {names!r}")
        if len(set(names)) != len(names):
            raise _envelope_error(name, "feature_names_in", f"repeats a column name: {names!r}")
    tags = estimator.__sklearn_tags__()
    binary = tags.classifier_tags is not None and not tags.classifier_tags.multi_class
    _check_classes(name, data["classes"], binary, one_class=getattr(cls, "_fits_one_class", False))
    check_model(name, data["model"], ModelContext(name, int(n_features), data["classes"], data["params"], names))
    estimator.n_features_in_ = int(n_features)
    if names is not None:
        estimator.feature_names_in_ = np.asarray(names, dtype=object)
    estimator.classes_ = np.asarray(data["classes"])
    try:
        estimator._model_from_dict(data["model"])
        again = jsonable(estimator._model_to_dict(), where=f"{name} model")
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, OverflowError) as exc:
        raise ModelFormatError(f"{name} model: field model could not be rebuilt ({type(exc).__name__}: {exc})") from None
    mismatch = _first_difference(data["model"], again)
    if mismatch is not None:
        raise ModelFormatError(
            f"{name} model: field {mismatch} contradicts the rest of the model (rebuilt, it reads differently)"
        )
    if "single_class" in data:
        label = data["single_class"]
        matches = [c for c in estimator.classes_.tolist() if type(c) is type(label) and c == label]
        if not matches:
            raise _envelope_error(name, "single_class", f"must be one of the classes {data['classes']!r}, got {label!r}")
        estimator.single_class_ = estimator.classes_[estimator.classes_.tolist().index(matches[0])]
        estimator.complexity_ = 0
    return estimator


#: Constraints of the ``to_text`` options every learner shares (a learner adds its own in
#: ``_text_option_constraints``), checked by :meth:`InterpretableMixin.to_text`.
TEXT_OPTION_CONSTRAINTS = {"decimals": [StrictInterval(Integral, 0, None, closed="left"), None]}


class InterpretableMixin:
    """What every interpretable learner shares (mix in left of ``ClassifierMixin``).

    One interface for all of them:

    * ``to_text(feature_names=None, **options)`` — the model as text. Names are resolved once,
      here (:func:`resolve_feature_names`); the learner implements
      ``_render_text(self, feature_names, *, <options>)`` whose keyword-only parameters are its
      rendering options, documented in the class docstring: ``decimals=`` on every learner
      (decimal places of printed thresholds, weights and bin edges, :func:`format_number`;
      checked here against ``TEXT_OPTION_CONSTRAINTS``), others of its own (``weka_layout=``
      for PRISM; their constraints in the class's ``_text_option_constraints``). An option the learner does not have is a ``TypeError``
      naming the options it has.
    * ``__str__`` — ``to_text()`` once fitted, the parameter repr before.
    * ``complexity_`` — one size measure, set by ``fit``: the number of literals (tests,
      conditions, balls, stumps, monomial terms) of the model as ``to_text`` renders it; each
      learner's docstring says what it counts. Protocols compare model sizes through it.
    * A learner whose model is an ordered sequence (a decision list, a conjunction built one
      element at a time) offers ``staged_predict(X)``, a generator in the manner of
      scikit-learn's boosting: it yields the predictions of the first ``k`` elements for
      ``k = 1 .. n``, so its last item equals ``predict(X)``.
    * ``to_dict()`` — the model as a JSON-able dict (module docstring); the learner implements
      ``_model_to_dict(self) -> dict`` and ``_model_from_dict(self, model)`` (which sets the
      fitted attributes ``predict`` needs), and :func:`from_dict` reads it back.
    * ``single_class_`` — set by ``fit`` (:meth:`_check_single_class`): the class the model
      predicts on every training row, or None; when set, ``to_text()`` prints ``always C``
      and a :class:`SingleClassWarning` was issued.
    * ``rules_frame(X, y)`` — for a rule-like learner, which implements
      ``_rule_records(self, feature_names) -> list[dict]`` (one dict per rule with at least
      ``"condition"`` and ``"prediction"``) and ``_rule_decisions(self, X) -> bool array`` of
      shape ``(n_samples, n_rules)``: which rule decides which row (its docstring says what
      "decides" means for it).
    """

    def to_dict(self) -> dict:
        """The fitted model as a JSON-serialisable ``dict``.

        Returns
        -------
        dict
            The envelope of :mod:`companion.interpretable` (format, version, learner, params,
            input columns, classes) around the learner's own ``"model"`` part, which its class
            docstring documents. ``json.dumps`` takes it as it is; :func:`from_dict` reads it back.
        """
        check_is_fitted(self)
        if getattr(self, "input_encoder_", None) is not None:
            # the one input pipeline's encoder (nominal columns, missing cells) has no schema yet:
            # refused here rather than exported as a model that from_dict would read wrongly
            raise ModelFormatError(
                f"{type(self).__name__}.to_dict: field input_encoder_: this model was fitted on a DataFrame with "
                f"nominal columns or missing cells ({', '.join(map(str, self.input_encoder_.encoder.columns_))}), "
                "whose encoding the model format does not hold; to export it, encode the frame first "
                "(companion.preprocessing.FrameEncoder, or one-hot and impute) and fit on the numbers"
            )
        names = getattr(self, "feature_names_in_", None)
        data = {
            "format": MODEL_FORMAT,
            "version": MODEL_FORMAT_VERSION,
            "learner": type(self).__name__,
            "params": {
                key: _param_to_json(value, f"{type(self).__name__} parameter {key!r}")
                for key, value in self.get_params(deep=False).items()
            },
            "n_features_in": int(self.n_features_in_),
            "feature_names_in": None if names is None else [str(name) for name in names],
            "classes": jsonable(np.asarray(self.classes_), where="classes_"),
            "model": jsonable(self._model_to_dict(), where=f"{type(self).__name__} model"),
        }
        if getattr(self, "single_class_", None) is not None:
            data["single_class"] = jsonable(np.asarray([self.single_class_]), where="single_class_")[0]
        # The schema that from_dict applies, applied here too: a model that could not be read
        # back is refused when it is written, not months later when it is loaded.
        check_model(data["learner"], data["model"], ModelContext(data["learner"], data["n_features_in"], data["classes"], data["params"], data["feature_names_in"]))
        return data

    def rules_frame(self, X, y, feature_names=None) -> pd.DataFrame:
        """One row per rule (ball, stump, monomial) with what it decides on ``(X, y)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows to count on (pass the training data for training counts).
        y : array-like of shape (n_samples,)
            Their labels.
        feature_names : sequence of str, optional
            Names for the conditions, as in ``to_text``.

        Returns
        -------
        pandas.DataFrame
            Columns ``position`` (0, 1, ... in the model's order), ``condition`` (text),
            ``prediction`` (the label the rule gives), any columns the learner adds, then
            ``covered`` (rows of ``X`` the rule decides) and ``errors`` (those of them whose label
            is not ``prediction``).
        """
        check_is_fitted(self)
        records = self._rule_records(resolve_feature_names(self, feature_names))
        decisions = np.asarray(self._rule_decisions(X), dtype=bool)
        y = np.asarray(y)
        if decisions.shape != (len(y), len(records)):
            raise ValueError(
                f"{type(self).__name__}.rules_frame: X has {decisions.shape[0]} rows but y has {len(y)}"
            )
        frame = pd.DataFrame.from_records(records)
        if frame.empty:
            frame = pd.DataFrame(columns=["condition", "prediction"])
        frame.insert(0, "position", np.arange(len(records)))
        predictions = np.asarray(frame["prediction"].to_numpy(), dtype=object)
        wrong = y.astype(object)[:, None] != predictions[None, :]
        frame["covered"] = decisions.sum(axis=0).astype(int)
        frame["errors"] = (decisions & wrong).sum(axis=0).astype(int)
        return frame

    def to_text(self, feature_names=None, **options) -> str:
        """The fitted model as text, naming columns by ``feature_names``.

        Parameters
        ----------
        feature_names : sequence of str, optional
            One name per input column; default ``feature_names_in_`` when fitted on a
            DataFrame, else ``x0, x1, ...``.
        **options
            The learner's rendering options (keyword-only parameters of its ``_render_text``,
            listed in its docstring). Every learner has ``decimals`` (int >= 0 or None): the
            decimal places of the printed thresholds, weights and bin edges
            (:func:`format_number`).

        Returns
        -------
        str
        """
        check_is_fitted(self)
        accepted = [
            name for name, parameter in inspect.signature(self._render_text).parameters.items()
            if parameter.kind is inspect.Parameter.KEYWORD_ONLY
        ]
        unknown = sorted(set(options) - set(accepted))
        if unknown:
            raise TypeError(
                f"{type(self).__name__}.to_text got unknown option(s) {unknown}; "
                f"its options are {accepted or 'none'}"
            )
        # One validation for every learner's options: scikit-learn's, naming the learner's
        # to_text, the option, the allowed range and the value given.
        constraints = {**TEXT_OPTION_CONSTRAINTS, **getattr(self, "_text_option_constraints", {})}
        validate_parameter_constraints(
            {key: constraints[key] for key in options if key in constraints},
            options,
            caller_name=f"{type(self).__name__}.to_text",
        )
        names = resolve_feature_names(self, feature_names)
        if getattr(self, "single_class_", None) is not None:
            return f"always {self.single_class_!s}"
        return self._render_text(names, **options)

    def _check_single_class(self, X, *, predictions=None, reason=""):
        """Set ``single_class_`` and warn when the fitted model predicts one class on ``X``.

        Called at the end of ``fit`` with the training input (or the training predictions,
        when ``fit`` has them). A model that predicts the same class ``C`` on every training
        row is, on those rows, the default rule: ``single_class_ = C``, ``complexity_ = 0``
        (its text is ``always C``) and a :class:`SingleClassWarning` says so. Otherwise
        ``single_class_ = None``. A training set of one class gives no warning (there is
        nothing else to predict).

        Parameters
        ----------
        X : array-like
            The training input, as ``predict`` takes it.
        predictions : array-like, optional
            ``predict(X)`` when already computed.
        """
        import warnings

        self.single_class_ = None
        if len(getattr(self, "classes_", ())) < 2:
            return
        if predictions is None:
            with warnings.catch_warnings():  # X may be the validated array of a fitted frame
                warnings.filterwarnings("ignore", message="X does not have valid feature names")
                predictions = self.predict(X)
        values = pd.unique(np.asarray(predictions, dtype=object))
        if len(values) != 1 or values[0] is None:
            return
        label = self.classes_[np.flatnonzero(np.asarray(self.classes_, dtype=object) == values[0])[0]]
        self.single_class_ = label
        self.complexity_ = 0
        warnings.warn(
            f"{type(self).__name__} predicts {label!s} for every training row: the fitted model is "
            f"the constant 'always {label}' (its text){reason}. With imbalanced classes try "
            "class_weight='balanced'.",
            SingleClassWarning,
            stacklevel=3,
        )

    def __str__(self) -> str:
        try:
            check_is_fitted(self)
        except NotFittedError:
            return BaseEstimator.__repr__(self)
        return self.to_text()


@validate_params({"pipeline": [Pipeline], "feature_names": ["array-like", None]}, prefer_skip_nested_validation=False)
def pipeline_text(pipeline, feature_names=None) -> str:
    """Text of the fitted last step of ``pipeline``, in the names the earlier steps produce.

    A learner inside a ``Pipeline`` sees a plain array (e.g. after a ``ColumnTransformer``), so
    its own ``feature_names_in_`` is missing; ``pipeline[:-1].get_feature_names_out()`` knows
    the names (``num__age``, ``cat__city_Paris``, ...).

    Parameters
    ----------
    pipeline : fitted sklearn.pipeline.Pipeline whose last step has ``to_text``
    feature_names : sequence of str, optional
        Names of the pipeline's *input* columns, when it was fitted on an array.

    Returns
    -------
    str
    """
    model = pipeline[-1]
    if len(pipeline) == 1:
        return model.to_text(feature_names)
    names = pipeline[:-1].get_feature_names_out(feature_names)
    return model.to_text(list(names))


#: Inner folds of :func:`beats_default_class`.
FALLBACK_FOLDS = 3

# Nested validation stays on: the clones are fitted (inside a learner's fit, which skips it).
@validate_params(
    {
        "estimator": [HasMethods(["fit", "predict"])],
        "X": ["array-like"],
        "y": ["array-like"],
        "sample_weight": ["array-like", None],
        "max_rows": [StrictInterval(Integral, 2, None, closed="left"), None],
    },
    prefer_skip_nested_validation=False,
)
def beats_default_class(estimator, X, y, sample_weight=None, *, max_rows=None) -> bool:
    """Whether ``estimator`` beats the default class on inner stratified folds of ``(X, y)``.

    The check behind the learners' fallback to the default class (``Prism(pruning=...)``,
    ``PrunedDecisionTree(fallback="inner_cv")``): a clone is fitted on each of
    :data:`FALLBACK_FOLDS` stratified training folds (of the rows sorted by a hash of their
    content and label, numeric columns by their ranks, so that the folds depend neither on the
    rows' order nor on the data's scale; fewer folds when the
    rarest class has fewer rows) and scored on the held-out rows against the most frequent class of the same
    training fold (weighted by ``sample_weight``). The clones skip their own fallback check
    (they see ``companion._learner_support.fallback_check_running()`` true).

    Parameters
    ----------
    estimator : unfitted learner
    X : DataFrame or array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), optional
    max_rows : int or None, default=None
        Beyond this many rows (after whole weights are split into copies), the folds are those of
        a stratified subsample of about ``max_rows`` rows: each class's first rows in the
        canonical order (by the hash of their content and label, so neither the rows' order nor
        their scale matters), in proportion to its size, rounded up. A learner whose fit grows
        faster than its rows bounds the check's cost with it. None: every row.

    Returns
    -------
    bool
        True when the clones' held-out (weighted) error rate ``e``, plus its binomial standard
        error ``sqrt(e (1 - e) / n)``, is below the default class's held-out error rate: CART's
        one-standard-error rule (Breiman, Friedman, Olshen & Stone 1984, Sec. 3.4.3) between the
        model and the smallest model there is. False otherwise. True when the data cannot be
        split (a class with fewer than 2 rows).
    """
    import warnings

    from sklearn.base import clone
    from sklearn.model_selection import StratifiedKFold

    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()  # a column vector (scikit-learn warns about it in the learner's fit)
    if sample_weight is not None:
        given = np.asarray(sample_weight, dtype=float)
        if np.all(given == np.round(given)):
            # Whole weights are copies: split the copies, so that weights and repeated rows
            # (and zero weights and dropped rows) give the same folds and the same decision.
            rows = np.repeat(np.arange(len(y)), given.astype(np.int64))
            X = X.iloc[rows] if isinstance(X, pd.DataFrame) else np.asarray(X)[rows]
            y, sample_weight = y[rows], None
    _, y_codes, counts = np.unique(y, return_inverse=True, return_counts=True)
    n_splits = int(min(FALLBACK_FOLDS, counts.min()))
    if n_splits < 2 or counts.size < 2:
        return True
    weight = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    # Folds of a canonical row order (by content and label, not by position), so that the
    # decision does not depend on the order of the caller's rows. Numeric columns enter by their
    # dense ranks, not their values, so that the folds (and the decision) are also the same on
    # the data multiplied by any positive number, as the learners' models are.
    canonical = canonical_row_order(X, y)  # companion._learner_support
    if max_rows is not None and len(y) > max_rows:
        # each class's first rows of the canonical order, ceil(max_rows * share) of them
        codes = y_codes[canonical]
        quota = np.ceil(max_rows * counts / len(y)).astype(np.int64)
        by_class = np.argsort(codes, kind="stable")
        rank = np.empty(len(codes), dtype=np.int64)
        rank[by_class] = np.arange(len(codes)) - np.repeat(np.cumsum(counts) - counts, counts)
        canonical = canonical[rank < quota[codes]]
        counts = np.bincount(y_codes[canonical], minlength=counts.size)
        n_splits = int(min(FALLBACK_FOLDS, counts.min()))
        if n_splits < 2:
            return True
    folds = StratifiedKFold(n_splits=n_splits)
    model_correct = default_correct = 0.0
    for train, test in folds.split(np.zeros((len(canonical), 1)), y_codes[canonical]):
        train, test = np.sort(canonical[train]), np.sort(canonical[test])
        inner = clone(estimator)
        take = (lambda rows: X.iloc[rows]) if isinstance(X, pd.DataFrame) else (lambda rows: np.asarray(X)[rows])
        X_train, X_test = take(train), take(test)
        if isinstance(X, pd.DataFrame) and getattr(estimator, "input_encoder_", None) is not None:
            # The fit read X through NumericInput (nominal columns, missing cells). A clone fitted on
            # training rows without a missing cell would not, and could not read a test row with
            # one: each inner training fold gets its own reading, applied to its test rows.
            reading = NumericInput().fit(X_train)
            X_train, X_test = reading.transform(X_train), reading.transform(X_test)
        # the clones skip their own check (fallback_check_running)
        with inner_fallback_fit():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if sample_weight is None:
                    inner.fit(X_train, y[train])
                else:
                    inner.fit(X_train, y[train], sample_weight=weight[train])
                predicted = np.asarray(inner.predict(X_test), dtype=object)
        default = np.argmax(np.bincount(y_codes[train], weights=weight[train], minlength=counts.size))
        model_correct += float(weight[test][predicted == y[test].astype(object)].sum())
        default_correct += float(weight[test][y_codes[test] == default].sum())
    total = float(weight[np.sort(canonical)].sum())  # every row: weight.sum(), in its order
    model_error, default_error = 1.0 - model_correct / total, 1.0 - default_correct / total
    # CART's one-standard-error rule (Breiman et al. 1984, Sec. 3.4.3): the smaller model (here
    # the default class) unless the larger one's CV error plus its binomial standard error is
    # below the smaller one's.
    return model_error + math.sqrt(model_error * (1.0 - model_error) / total) < default_error
