"""The schema of every exported model kind: declared once, checked on export and on import.

:meth:`companion.interpretable.InterpretableMixin.to_dict` writes, and
:func:`companion.interpretable.from_dict` reads, one envelope around a learner's own ``"model"``
part. This module declares what every field of that part may hold (:data:`SCHEMAS`, one entry per
learner) with a few small spec objects (:class:`Int`, :class:`Real`, :class:`Str`, :class:`Label`,
:class:`ListOf`, :class:`Record`, ...), and :func:`check_model` walks a model part against its
schema. A field is checked for its type (a JSON number, string, list...), its range (an index
within ``n_features_in``, a count not negative, a radius finite and not negative), and its
consistency with the envelope (a label among ``classes``, one count per class). The refusal is a
:class:`ModelFormatError` (a ``ValueError``) naming the learner and the field's path, e.g.
``OccamStumps model: field model.stumps[0].direction must be one of [-1, 1], got 5``.

Non-finite floats are written as the strings ``"Infinity"``, ``"-Infinity"`` and ``"NaN"`` (strict
JSON has no such numbers); :class:`Real` reads them only where the schema allows them
(``nonfinite=True``: the open ends of a bin's edges, an interval's unbounded side).
"""

from __future__ import annotations

import math
import re
from numbers import Integral, Real as _RealNumber

__all__ = ["ModelFormatError", "SCHEMAS", "check_model", "Context"]


class ModelFormatError(ValueError):
    """An exported model that cannot be read back: the message names the learner and the field."""


class Context:
    """What a model part is checked against: the envelope's learner, columns and classes."""

    def __init__(self, learner: str, n_features: int, classes: list, params: dict | None = None, feature_names=None):
        self.learner = learner
        self.n_features = n_features
        #: the names to_text and the model part use: feature_names_in, else x0, x1, ... (made on
        #: demand: an envelope may claim a huge n_features_in)
        self._names = list(feature_names) if feature_names is not None else None
        self.classes = list(classes)
        self.n_classes = len(self.classes)
        self.params = dict(params or {})

    def feature_name(self, j: int) -> str:
        return self._names[j] if self._names is not None else f"x{j}"

    def same_names(self, names) -> bool:
        """Whether ``names`` are the input columns' names, in order."""
        return len(names) == self.n_features and all(name == self.feature_name(j) for j, name in enumerate(names))

    def names_text(self) -> str:
        shown = [self.feature_name(j) for j in range(min(self.n_features, 8))]
        return repr(shown)[:-1] + (", ...]" if self.n_features > 8 else "]")

    def error(self, path: str, problem: str) -> ModelFormatError:
        return ModelFormatError(f"{self.learner} model: field {path} {problem}")


#: The ``"format"`` entry of every exported model (:meth:`InterpretableMixin.to_dict`).
MODEL_FORMAT = "companion.model"
#: The ``"version"`` entry; raised when the envelope changes incompatibly.
MODEL_FORMAT_VERSION = 2


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _is_int(value) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, Integral):
        return True
    return isinstance(value, float) and math.isfinite(value) and value == int(value)


def _as_float(value):
    """A JSON number or one of the non-finite strings as a float; None when it is neither."""
    if isinstance(value, bool):
        return None
    if isinstance(value, _RealNumber):
        return float(value)
    if isinstance(value, str) and value in ("Infinity", "-Infinity", "NaN"):
        return float(value.replace("Infinity", "inf").replace("NaN", "nan"))
    return None


def _bound(bound, ctx):
    return bound(ctx) if callable(bound) else bound


class Spec:
    """A field's declaration; :meth:`check` raises a :class:`ModelFormatError` naming ``path``."""

    def check(self, value, path: str, ctx: Context) -> None:  # pragma: no cover - interface
        raise NotImplementedError


class AnyValue(Spec):
    """Any JSON value (what the learner's own reader checks further)."""

    def check(self, value, path, ctx):
        return None


class Int(Spec):
    """A whole number in ``[low, high)`` (``high`` exclusive; either may depend on the envelope)."""

    def __init__(self, low=None, high=None, what=""):
        self.low, self.high, self.what = low, high, what

    def check(self, value, path, ctx):
        if not _is_int(value):
            raise ctx.error(path, f"must be an integer{self.what and ' (' + self.what + ')'}, got {_show(value)}")
        if abs(value) >= 2**53:
            raise ctx.error(path, f"must be an integer below 2**53 in magnitude, got {_show(value)}")
        low, high = _bound(self.low, ctx), _bound(self.high, ctx)
        if (low is not None and value < low) or (high is not None and value >= high):
            lo = "-inf" if low is None else low
            hi = "inf" if high is None else high
            what = f" ({self.what})" if self.what else ""
            raise ctx.error(path, f"must be an integer in [{lo}, {hi}){what}, got {_show(value)}")


def Feature():
    """A column index: ``0 <= j < n_features_in``."""
    return Int(0, lambda ctx: ctx.n_features, "a column index below n_features_in")


def Count():
    """A count of examples: a whole number, not negative."""
    return Int(0, 2**53, "a count")


class Real(Spec):
    """A number; finite unless ``nonfinite``; within ``[low, high]`` when given."""

    def __init__(self, low=None, high=None, *, nonfinite=False, nan=False, whole=False):
        self.low, self.high, self.nonfinite, self.nan, self.whole = low, high, nonfinite, nan, whole

    def check(self, value, path, ctx):
        number = _as_float(value)
        if number is None:
            raise ctx.error(path, f"must be a number, got {_show(value)}")
        if math.isnan(number):
            if not self.nan:
                raise ctx.error(path, "must be a number, got NaN")
            return
        if math.isinf(number) and not self.nonfinite:
            raise ctx.error(path, f"must be a finite number, got {_show(value)}")
        if self.low is not None and number < self.low:
            raise ctx.error(path, f"must be >= {self.low}, got {_show(value)}")
        if self.high is not None and number > self.high:
            raise ctx.error(path, f"must be <= {self.high}, got {_show(value)}")
        if self.whole and math.isfinite(number) and number != int(number):
            raise ctx.error(path, f"must be a whole number, got {_show(value)}")


#: Largest count of examples a model part may hold (floats count exactly up to it).
MAX_COUNT = 2.0**53


def Weight():
    """A (possibly weighted) count of examples: finite, not negative, at most 2**53."""
    return Real(0.0, MAX_COUNT)


class Bool(Spec):
    def check(self, value, path, ctx):
        if not isinstance(value, bool):
            raise ctx.error(path, f"must be true or false, got {_show(value)}")


class Str(Spec):
    """A string, one of ``options`` when given."""

    def __init__(self, options=None):
        self.options = None if options is None else list(options)

    def check(self, value, path, ctx):
        if not isinstance(value, str):
            raise ctx.error(path, f"must be a string, got {_show(value)}")
        if self.options is not None and value not in self.options:
            raise ctx.error(path, f"must be one of {self.options}, got {_show(value)}")


class OneOf(Spec):
    """One of a fixed set of values (compared with ``==``, bools excluded from numbers)."""

    def __init__(self, *options):
        self.options = list(options)

    def check(self, value, path, ctx):
        if isinstance(value, bool) or value not in self.options:
            raise ctx.error(path, f"must be one of {self.options}, got {_show(value)}")


class Label(Spec):
    """One of the envelope's ``classes``."""

    def check(self, value, path, ctx):
        if isinstance(value, (list, dict)) or not any(_same_label(value, c) for c in ctx.classes):
            raise ctx.error(path, f"must be one of the classes {_show(ctx.classes)}, got {_show(value)}")


def _same_label(a, b) -> bool:
    if isinstance(a, str) or isinstance(b, str) or isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return isinstance(a, _RealNumber) and isinstance(b, _RealNumber) and a == b


class Nullable(Spec):
    def __init__(self, spec):
        self.spec = spec

    def check(self, value, path, ctx):
        if value is not None:
            self.spec.check(value, path, ctx)


class Scalar(Spec):
    """A JSON scalar (str, number, bool or null): a category value."""

    def check(self, value, path, ctx):
        if isinstance(value, (list, dict)):
            raise ctx.error(path, f"must be a single value, got {_show(value)}")


class ListOf(Spec):
    """A list of ``item``; ``length`` (an int or a function of the context) when fixed."""

    def __init__(self, item, length=None, min_length=0):
        self.item, self.length, self.min_length = item, length, min_length

    def check(self, value, path, ctx):
        if not isinstance(value, list):
            raise ctx.error(path, f"must be a list, got {_show(value)}")
        length = _bound(self.length, ctx)
        if length is not None and len(value) != length:
            raise ctx.error(path, f"must have {length} entries, got {len(value)}")
        if len(value) < self.min_length:
            raise ctx.error(path, f"must have at least {self.min_length} entries, got {len(value)}")
        for i, item in enumerate(value):
            self.item.check(item, f"{path}[{i}]", ctx)


def Tuple(*items):
    """A list of fixed length whose entries have their own specs."""
    return _Tuple(items)


class _Tuple(Spec):
    def __init__(self, items):
        self.items = items

    def check(self, value, path, ctx):
        if not isinstance(value, list) or len(value) != len(self.items):
            raise ctx.error(path, f"must be a list of {len(self.items)} entries, got {_show(value)}")
        for i, (item, spec) in enumerate(zip(value, self.items)):
            spec.check(item, f"{path}[{i}]", ctx)


class Record(Spec):
    """A dict with the declared keys (``optional`` ones may be absent; no others)."""

    def __init__(self, fields: dict, optional: dict | None = None, extra: bool = False):
        self.fields, self.optional, self.extra = fields, dict(optional or {}), extra

    def check(self, value, path, ctx):
        if not isinstance(value, dict):
            raise ctx.error(path, f"must be an object (dict), got {_show(value)}")
        missing = [key for key in self.fields if key not in value]
        if missing:
            raise ctx.error(f"{path}.{missing[0]}", "is missing")
        unknown = [key for key in value if key not in self.fields and key not in self.optional]
        if unknown and not self.extra:
            raise ctx.error(f"{path}.{unknown[0]}", f"is not a field of this model kind (fields: {sorted(self.fields)})")
        for key, spec in {**self.fields, **self.optional}.items():
            if key in value:
                spec.check(value[key], f"{path}.{key}", ctx)


class MapOf(Spec):
    """A dict whose values all follow ``item`` (keys: the column names)."""

    def __init__(self, item):
        self.item = item

    def check(self, value, path, ctx):
        if not isinstance(value, dict):
            raise ctx.error(path, f"must be an object (dict), got {_show(value)}")
        for key, item in value.items():
            self.item.check(item, f"{path}[{key!r}]", ctx)


def ClassCounts():
    """One row of counts per class (weighted counts allowed): finite, not negative."""
    return ListOf(Weight(), length=lambda ctx: ctx.n_classes)


def CountTable(rows=None):
    """Rows of per-class counts."""
    return ListOf(ClassCounts(), length=rows)


# --------------------------------------------------------------------------------------------
# The schemas
# --------------------------------------------------------------------------------------------

_COLUMN = Record(
    {"values": ListOf(Scalar()), "missing_code": Int(-1, None, "-1 for none, else a value's code")},
    optional={"edges": ListOf(Real(nonfinite=True), min_length=2), "closed": Str(["left", "right"])},
)
_COLUMNS = ListOf(_COLUMN, length=lambda ctx: ctx.n_features)

_STUMP = Record({
    "feature": Feature(),
    "direction": OneOf(-1, 1),
    "threshold": Real(),
    "interval": Tuple(Real(nonfinite=True), Real(nonfinite=True)),
})


def _stumps(extra: dict) -> Record:
    return Record({
        "model_type": Str(["conjunction", "disjunction"]),
        "default_class": Label(),
        "stumps": ListOf(_STUMP),
        "feature_range": Tuple(ListOf(Real(), length=lambda c: c.n_features), ListOf(Real(), length=lambda c: c.n_features)),
        "prior_n_features": Int(0, None),
        "cell_counts": ListOf(ListOf(Weight(), length=2)),
        **extra,
    })


_BALL = Record({
    "kind": Str(["Pi", "Po", "Ni", "No"]),
    "centre": MapOf(Real()),
    "radius": Real(0.0),
    "fires": Str(["inside", "outside"]),
    "output": Label(),
    "centre_index": Int(0, None, "a training row"),
    "border_index": Int(0, None, "a training row"),
})

_BALLS = Record({
    "metric": Str(),
    "columns": ListOf(Str(), length=lambda c: c.n_features),
    "balls": ListOf(_BALL),
    "default_class": Label(),
    "fitted_n_balls": ListOf(Int(1, None)),
    "cell_counts": CountTable(),
}, optional={
    # each column's divisor (scale="std"), written when one is not 1; absent: the input's units
    "scale": ListOf(Real(2.0**-1000, 2.0**1000), length=lambda c: c.n_features),
})

_KERNEL = Record({
    "kernel": Nullable(Str()),
    "gamma": Nullable(Real(0.0)),
    "n_training_rows": Int(0, None),
    "support": ListOf(Int(0, None, "a training row")),
    "support_vectors": Nullable(ListOf(MapOf(Real()))),
    "unscaled_coef": ListOf(Real()),
    "decision_scale": Real(),
    "exact_scores": Bool(),
    "alpha": ListOf(Real(0.0)),
    "class_counts": ClassCounts(),
}, optional={
    # each column's divisor (scale="std", a kernel on real values), written when one is not 1;
    # absent: the kernel is taken on the input's units
    "scale": ListOf(Real(2.0**-1000, 2.0**1000), length=lambda c: c.n_features),
})

#: Kernels that take a gamma (the perceptrons' ``gamma_`` is then a number).
_GAMMA_KERNELS = ("rbf", "laplacian", "sigmoid", "chi2", "poly", "polynomial")

_LEAF = Record({
    "conditions": ListOf(Tuple(Int(0, None, "an encoded column"), Str(["<=", ">"]), Real())),
    "missing_satisfies": ListOf(Bool()),
    "class": Int(0, lambda c: c.n_classes, "a class index"),
    "counts": ClassCounts(),
})

SCHEMAS: dict[str, Record] = {
    "Prism": Record({
        "columns": _COLUMNS,
        "rules": ListOf(Record({
            "label": Label(),
            "attributes": ListOf(Feature()),
            "codes": ListOf(Int(0, None, "a value code")),
            "p": Count(),
            "t": Count(),
        })),
        "class_order": ListOf(Label()),
        "default_class": Label(),
        "cell_counts": CountTable(),
        "class_counts": ClassCounts(),
        "uncoverable": Count(),
    }),
    "OneR": Record({
        "columns": _COLUMNS,
        "attribute": Feature(),
        "value_classes": ListOf(Label()),
        "class_order": ListOf(Label()),
        "default_class": Label(),
        "cell_counts": CountTable(),
        "class_counts": ClassCounts(),
        "training_errors": Weight(),
    }),
    "PrunedDecisionTree": Record({
        "leaves": ListOf(_LEAF, min_length=1),
        "n_encoded_features": Int(1, None),
        "ccp_alpha": Real(0.0),
        "n_errors": Weight(),
        "encoder": Nullable(Record({"nominal": ListOf(Bool(), length=lambda c: c.n_features),
                                    "categories": ListOf(Nullable(ListOf(Scalar())), length=lambda c: c.n_features)})),
    }),
    "OrderedRipper": Record({
        "columns": ListOf(Scalar(), length=lambda c: c.n_features),
        "rulesets": ListOf(Record({
            "label": Label(),
            "rules": ListOf(ListOf(Tuple(Scalar(), Scalar()))),
            "bins": ListOf(Tuple(Scalar(), ListOf(Str(), min_length=1))),
            "binner": Record({"n_discretize_bins": Nullable(Int(1, None)), "names_precision": Nullable(Int(0, None)),
                              "engine": AnyValue()}),
            "selected_features": ListOf(Scalar()),
            "trainset_features": ListOf(Scalar()),
            "class_feat": Str(),
        })),
        "class_order": ListOf(Label()),
        "default_class": Label(),
        "cell_counts": CountTable(),
        "n_rules": Count(),
        "n_literals": Count(),
    }, optional={"column_shifts": ListOf(Int(-1004, 1095, "a power-of-two exponent"), length=lambda c: c.n_features)}),
    "DecisionListMachine": _BALLS,
    "BallSetCoveringMachine": _BALLS,
    "KernelPerceptron": _KERNEL,
    "MaximalMarginPerceptron": _KERNEL,
    "MaskPerceptron": Record({
        "terms": ListOf(min_length=1, item=Record({
            "monomial": ListOf(Int(0, None, "a literal index")),
            "literals": ListOf(Record({"column": Str(), "negated": Bool()})),
            "coef": Real(),
        })),
        "norm_sq": Real(0.0),
        "risk": Real(0.0),
        "class_counts": ClassCounts(),
    }, optional={"column_divisors": ListOf(Real(2.0**-1074, None), length=lambda c: c.n_features)}),
    "DecisionCommittee": Record({
        "variables": ListOf(Tuple(Feature(), Str(["eq", "le", "gt"]), Real())),
        "binary_other": ListOf(Tuple(Feature(), Real())),
        "frame_categories": ListOf(Tuple(Feature(), ListOf(Scalar()))),
        "nominal_mask": ListOf(Bool(), length=lambda c: c.n_features),
        "monomials": ListOf(ListOf(Int(0, None, "a literal id, 2v or 2v+1 of variable v"), min_length=1)),
        "vectors": ListOf(ListOf(Real(), length=lambda c: c.n_classes)),
        "default_votes": ListOf(Real(), length=lambda c: c.n_classes),
        "prior": ListOf(Real(0.0), length=lambda c: c.n_classes),
        "cell_patterns": ListOf(ListOf(OneOf(0, 1))),
        "cell_counts": CountTable(),
        "vote_cells": ListOf(ListOf(Real(), length=lambda c: c.n_classes)),
        "vote_class_counts": CountTable(),
        "region_class_counts": CountTable(lambda c: c.n_classes),
    }),
}

_STUMP_PATHS = {"bound_path": ListOf(Real(0.0, nonfinite=True)), "training_errors_path": ListOf(Weight())}
SCHEMAS["SetCoveringStumps"] = _stumps({**_STUMP_PATHS, "compression_set": ListOf(Int(0, None, "a training row"))})
SCHEMAS["OccamStumps"] = _stumps({**_STUMP_PATHS, "code_lengths": ListOf(Int(0, None))})
SCHEMAS["PacBayesStumps"] = _stumps({
    **_STUMP_PATHS,
    "gibbs_bound_path": ListOf(Real(0.0, nonfinite=True)),
    "gibbs_risk_path": ListOf(Real(0.0, 1.0)),
})

# A learner that falls back to the majority class on inner folds (fallback="inner_cv") exports the
# class it fell back to, or null (companion.interpretable.beats_default_class).
for _learner in ("SetCoveringStumps", "OccamStumps", "PacBayesStumps", "KernelPerceptron", "MaximalMarginPerceptron",
                 "MaskPerceptron", "DecisionListMachine", "BallSetCoveringMachine", "DecisionCommittee"):
    SCHEMAS[_learner] = Record(SCHEMAS[_learner].fields, optional={**SCHEMAS[_learner].optional,
                                                                   "fallback_class": Nullable(Label())},
                               extra=SCHEMAS[_learner].extra)
del _learner


def _index_of(name, ctx):
    """Position of a column name (for ordering a support vector's keys); unknown names last."""
    if ctx._names is not None:
        if getattr(ctx, "_positions", None) is None:
            ctx._positions = {n: j for j, n in enumerate(ctx._names)}
        return ctx._positions.get(name, len(ctx._names))
    return int(name[1:]) if isinstance(name, str) and name[:1] == "x" and name[1:].isdigit() else ctx.n_features


def _same_length(ctx, path, a, b, what_a, what_b):
    if len(a) != len(b):
        raise ctx.error(path, f"has {len(a)} {what_a} but {len(b)} {what_b}")


def _consistency(learner: str, model: dict, ctx: Context) -> None:
    """What one field says about another (lengths, codes within a column's values)."""
    if "class_order" in model:
        order = model["class_order"]
        if len(order) != ctx.n_classes or any(not any(_same_label(c, o) for o in order) for c in ctx.classes):
            raise ctx.error("model.class_order", f"must list every class once ({ctx.classes}), got {order}")
    if learner in ("Prism", "OneR"):
        columns = model["columns"]
        for i, column in enumerate(columns):
            seen = []
            for v, value in enumerate(column["values"]):
                if value is None or any(value == other for other in seen):
                    raise ctx.error(f"model.columns[{i}].values[{v}]", f"repeats a value or is null: {value!r}")
                seen.append(value)
            kinds = {isinstance(value, str) for value in column["values"] if value != "?"}
            if len(kinds) > 1:
                raise ctx.error(f"model.columns[{i}].values", f"mixes numbers and strings: {column['values']!r}")
            if ("edges" in column) != ("closed" in column):
                raise ctx.error(f"model.columns[{i}]", "must have both 'edges' and 'closed' or neither")
            if column["missing_code"] >= len(column["values"]):
                raise ctx.error(f"model.columns[{i}].missing_code", f"must be -1 or below {len(column['values'])} (the column's values), got {column['missing_code']}")
            if "edges" in column:
                edges = [_as_float(v) for v in column["edges"]]
                if any(b <= a for a, b in zip(edges, edges[1:])):
                    raise ctx.error(f"model.columns[{i}].edges", "must be increasing")
    if learner == "Prism":
        for r, rule in enumerate(model["rules"]):
            _same_length(ctx, f"model.rules[{r}].codes", rule["codes"], rule["attributes"], "codes", "attributes")
            for a, c in zip(rule["attributes"], rule["codes"]):
                if c >= len(model["columns"][a]["values"]):
                    raise ctx.error(f"model.rules[{r}].codes", f"holds code {c} but column {a} has {len(model['columns'][a]['values'])} values")
            if rule["p"] > rule["t"]:
                raise ctx.error(f"model.rules[{r}].p", f"must not exceed t ({rule['t']}), got {rule['p']}")
        if len(model["cell_counts"]) != len(model["rules"]):
            raise ctx.error("model.cell_counts", f"must have one row per rule ({len(model['rules'])}), got {len(model['cell_counts'])}")
    if learner == "OneR":
        n_values = len(model["columns"][model["attribute"]]["values"])
        if len(model["value_classes"]) != n_values:
            raise ctx.error("model.value_classes", f"must have one entry per value of column {model['attribute']} ({n_values}), got {len(model['value_classes'])}")
        if len(model["cell_counts"]) != n_values:
            raise ctx.error("model.cell_counts", f"must have one row per value of column {model['attribute']} ({n_values}), got {len(model['cell_counts'])}")
    if learner in ("DecisionListMachine", "BallSetCoveringMachine"):
        columns = model["columns"]
        if not ctx.same_names(columns):
            raise ctx.error("model.columns", f"must list the input columns {ctx.names_text()}, got {_show(columns)}")
        for b, ball in enumerate(model["balls"]):
            if sorted(ball["centre"]) != sorted(columns):
                raise ctx.error(f"model.balls[{b}].centre", "must give one coordinate per column of model.columns")
            kind = ball["kind"]
            if (kind.endswith("i")) != (ball["fires"] == "inside"):
                raise ctx.error(f"model.balls[{b}].fires", f"contradicts kind {kind!r}")
            if ctx.n_classes == 2 and ball["output"] != ctx.classes[1 if kind.startswith("P") else 0]:
                raise ctx.error(f"model.balls[{b}].output", f"contradicts kind {kind!r}")
        from companion._ball_search import resolve_metric  # lazy: scipy's distances only for balls

        try:
            resolve_metric(model["metric"])
        except (TypeError, ValueError) as exc:
            raise ctx.error("model.metric", f"names no known metric: {exc}") from None
        if len(model["cell_counts"]) != len(model["balls"]) + 1:
            raise ctx.error("model.cell_counts", f"must have one row per ball plus the default ({len(model['balls']) + 1}), got {len(model['cell_counts'])}")
        if any(n > len(model["balls"]) for n in model["fitted_n_balls"]):
            raise ctx.error("model.fitted_n_balls", f"must not exceed the {len(model['balls'])} balls")
        fallback = model.get("fallback_class")
        if fallback is not None and (model["balls"] or not _same_label(fallback, model["default_class"])):
            # a machine that fell back keeps no ball and predicts the class it fell back to
            raise ctx.error("model.fallback_class", f"must be null, or the default_class ({model['default_class']!r}) of a "
                            f"model with no ball ({len(model['balls'])} balls), got {fallback!r}")
    if learner in ("KernelPerceptron", "MaximalMarginPerceptron", "MaskPerceptron"):
        fallback, counts = model.get("fallback_class"), model["class_counts"]
        majority = ctx.classes[max(range(len(counts)), key=lambda k: (counts[k], -k))] if counts else None
        if fallback is not None and not _same_label(fallback, majority):
            # a fallback predicts the (weighted) majority class of class_counts, the first on a tie
            raise ctx.error("model.fallback_class", f"must be null, or the majority class of class_counts "
                            f"({majority!r} of {counts}), got {fallback!r}")
    if learner in ("KernelPerceptron", "MaximalMarginPerceptron"):
        n = model["n_training_rows"]
        if any(i >= n for i in model["support"]):
            raise ctx.error("model.support", f"must hold training rows below n_training_rows ({n})")
        if len(model["alpha"]) != n:
            raise ctx.error("model.alpha", f"must have n_training_rows ({n}) entries, got {len(model['alpha'])}")
        _same_length(ctx, "model.unscaled_coef", model["unscaled_coef"], model["support"], "coefficients", "support rows")
        if model["support_vectors"] is not None:
            _same_length(ctx, "model.support_vectors", model["support_vectors"], model["support"], "points", "support rows")
            for s, point in enumerate(model["support_vectors"]):
                if len(point) != ctx.n_features:
                    raise ctx.error(f"model.support_vectors[{s}]", f"must give {ctx.n_features} coordinates, got {len(point)}")
        kernel = ctx.params.get("kernel")
        if (model["support_vectors"] is None) != (kernel == "precomputed"):
            raise ctx.error("model.support_vectors", "must be null exactly when kernel='precomputed'")
        if model["support_vectors"] is not None:
            for s, point in enumerate(model["support_vectors"]):
                if len(point) != ctx.n_features or not ctx.same_names(sorted(point, key=lambda k: _index_of(k, ctx))):
                    raise ctx.error(f"model.support_vectors[{s}]", f"must give one coordinate per input column {ctx.names_text()}, got {_show(sorted(point))}")
        if model["gamma"] is None and kernel in _GAMMA_KERNELS and "gamma" not in (ctx.params.get("kernel_params") or {}):
            raise ctx.error("model.gamma", f"must be a number for kernel={kernel!r}, got null")
        if isinstance(kernel, str) and model["kernel"] not in (None, kernel):
            raise ctx.error("model.kernel", f"must match the parameter kernel={kernel!r}, got {model['kernel']!r}")
    if learner == "MaskPerceptron":
        n = ctx.n_features * (2 if ctx.params.get("complement") else 1)
        for t, term in enumerate(model["terms"]):
            if any(j >= n for j in term["monomial"]):
                raise ctx.error(f"model.terms[{t}].monomial", f"must hold literal indices below {n}")
            if len(term["monomial"]) != len(set(term["monomial"])):
                raise ctx.error(f"model.terms[{t}].monomial", "repeats a literal")
            _same_length(ctx, f"model.terms[{t}].literals", term["literals"], term["monomial"], "literals", "monomial indices")
            for l, (j, literal) in enumerate(zip(term["monomial"], term["literals"])):
                expected = (ctx.feature_name(j % ctx.n_features), j >= ctx.n_features)
                if (literal["column"], literal["negated"]) != expected:
                    raise ctx.error(f"model.terms[{t}].literals[{l}]", f"must be column {expected[0]!r} negated={expected[1]} (literal {j}), got {literal!r}")
    if learner == "PrunedDecisionTree":
        k = model["n_encoded_features"]
        for l, leaf in enumerate(model["leaves"]):
            if any(f >= k for f, _, _ in leaf["conditions"]):
                raise ctx.error(f"model.leaves[{l}].conditions", f"must test encoded columns below n_encoded_features ({k})")
            _same_length(ctx, f"model.leaves[{l}].missing_satisfies", leaf["missing_satisfies"], leaf["conditions"], "flags", "conditions")
        if model["encoder"] is None and k != ctx.n_features:
            raise ctx.error("model.n_encoded_features", f"must equal n_features_in ({ctx.n_features}) without an encoder, got {k}")
    if learner in ("SetCoveringStumps", "OccamStumps", "PacBayesStumps"):
        for s, stump in enumerate(model["stumps"]):
            a, b = (_as_float(v) for v in stump["interval"])
            if learner == "PacBayesStumps" and not (math.isfinite(a) and math.isfinite(b)):
                raise ctx.error(f"model.stumps[{s}].interval", f"must be finite (its middle is the stump's centre), got {stump['interval']}")
            if not a <= b:
                raise ctx.error(f"model.stumps[{s}].interval", f"must have its low end <= its high end, got {stump['interval']}")
        n_stumps = len(model["stumps"])
        for name in ("bound_path", "training_errors_path", "gibbs_bound_path", "gibbs_risk_path"):
            if name in model and len(model[name]) != n_stumps + 1:
                raise ctx.error(f"model.{name}", f"must have one entry per prefix length 0..{n_stumps} ({n_stumps + 1}), got {len(model[name])}")
        for name in ("compression_set", "code_lengths"):
            if name in model and len(model[name]) != n_stumps:
                raise ctx.error(f"model.{name}", f"must have one entry per stump ({n_stumps}), got {len(model[name])}")
        if model["default_class"] != ctx.classes[1 if model["model_type"] == "conjunction" else 0]:
            raise ctx.error("model.default_class", f"contradicts model_type {model['model_type']!r}")
        if len(model["cell_counts"]) not in (0, len(model["stumps"]) + 1):
            raise ctx.error("model.cell_counts", f"must have one row per stump plus the default ({len(model['stumps']) + 1}), got {len(model['cell_counts'])}")
        mt = ctx.params.get("model_type")
        if isinstance(mt, str) and mt != model["model_type"]:
            raise ctx.error("model.model_type", f"must match the parameter model_type={mt!r}, got {model['model_type']!r}")
    if learner == "DecisionCommittee":
        n_vars = len(model["variables"])
        for m, monomial in enumerate(model["monomials"]):
            if any(v >= 2 * n_vars for v in monomial):
                raise ctx.error(f"model.monomials[{m}]", f"must hold literal ids below {2 * n_vars} (2 per variable)")
            if len(set(monomial)) != len(monomial):
                raise ctx.error(f"model.monomials[{m}]", "repeats a literal")
        _same_length(ctx, "model.vectors", model["vectors"], model["monomials"], "vectors", "monomials")
        for p, pattern in enumerate(model["cell_patterns"]):
            if len(pattern) != len(model["monomials"]):
                raise ctx.error(f"model.cell_patterns[{p}]", f"must have one entry per monomial ({len(model['monomials'])}), got {len(pattern)}")
        _same_length(ctx, "model.cell_counts", model["cell_counts"], model["cell_patterns"], "rows", "cell patterns")
        fallback = model.get("fallback_class")
        votes = model["default_votes"]
        favoured = ctx.classes[max(range(len(votes)), key=lambda k: (votes[k], -k))] if votes else None
        if fallback is not None and (model["monomials"] or not _same_label(fallback, favoured)):
            # a committee that fell back keeps no rule and its default vector favours that class
            raise ctx.error("model.fallback_class", f"must be null, or the class the default vector favours ({favoured!r}) "
                            f"of a committee with no rule ({len(model['monomials'])} rules), got {fallback!r}")


_RANGE_BIN = re.compile(r"^(<|>)-?\d[\d.e+-]*$|^-?\d[\d.e+-]* - -?\d[\d.e+-]*$")


def _check_ripper(model, ctx):
    order = model["class_order"]
    # no ruleset at all: the model fell back to the default class (fallback="inner_cv")
    if model["rulesets"] and [r["label"] for r in model["rulesets"]] != order[:-1]:
        raise ctx.error("model.rulesets", f"must hold one ruleset per class of class_order but the last, in that order "
                                          f"({order[:-1]}), or none (the fallback to the default class)")
    if model["default_class"] != order[-1]:
        raise ctx.error("model.default_class", f"must be the last class of class_order ({order[-1]!r}), got {model['default_class']!r}")
    if len(model["cell_counts"]) != len(model["rulesets"]) + 1:
        raise ctx.error("model.cell_counts", f"must have one row per ruleset plus the default ({len(model['rulesets']) + 1})")
    rules = [rule for ruleset in model["rulesets"] for rule in ruleset["rules"]]
    if model["n_rules"] != len(rules):
        raise ctx.error("model.n_rules", f"must count the rules of the rulesets ({len(rules)}), got {model['n_rules']}")
    if model["n_literals"] != sum(len(rule) for rule in rules):
        raise ctx.error("model.n_literals", f"must count the conditions of the rules ({sum(len(rule) for rule in rules)}), got {model['n_literals']}")
    columns = model["columns"]
    if not ctx.same_names(columns) and columns != list(range(ctx.n_features)):
        raise ctx.error("model.columns", f"must list the input columns {ctx.names_text()}, got {_show(columns)}")
    for r, ruleset in enumerate(model["rulesets"]):
        where = f"model.rulesets[{r}]"
        for name in ("selected_features", "trainset_features"):
            unknown = [f for f in ruleset[name] if f not in columns]
            if unknown:
                raise ctx.error(f"{where}.{name}", f"names columns that are not inputs: {unknown}")
        bins = {}
        for b, (feature, names) in enumerate(ruleset["bins"]):
            if feature not in columns:
                raise ctx.error(f"{where}.bins[{b}][0]", f"names a column that is not an input: {feature!r}")
            for k, text in enumerate(names):
                if not _RANGE_BIN.match(text):
                    raise ctx.error(f"{where}.bins[{b}][1][{k}]", f"is not a bin ('<a', 'a - b' or '>b'): {text!r}")
            bins[feature] = names
        for i, rule in enumerate(ruleset["rules"]):
            if not rule:
                raise ctx.error(f"{where}.rules[{i}]", "is an empty rule (it would cover every row)")
            for c, (feature, value) in enumerate(rule):
                if value is None or value in ("NaN", "Infinity", "-Infinity") or (
                    isinstance(value, str) and feature not in bins and _RANGE_BIN.match(value)
                ):
                    raise ctx.error(f"{where}.rules[{i}][{c}][1]", f"must be a value of column {feature!r}, got {value!r}")
                if feature not in ruleset["selected_features"]:
                    raise ctx.error(f"{where}.rules[{i}][{c}][0]", f"names a column not in selected_features: {feature!r}")
                if feature in bins and value not in bins[feature]:
                    raise ctx.error(f"{where}.rules[{i}][{c}][1]", f"is not one of column {feature!r}'s bins: {value!r}")


def check_model(learner: str, model, ctx: Context) -> None:
    """Check the ``"model"`` part of an exported ``learner`` against its schema.

    Parameters
    ----------
    learner : str
        The class name (the envelope's ``"learner"``).
    model : object
        The model part (after ``json.loads``).
    ctx : Context
        The envelope's columns and classes.

    Raises
    ------
    ModelFormatError
        Naming the learner and the first field that is wrong.
    """
    schema = SCHEMAS.get(learner)
    if schema is None:
        raise ModelFormatError(f"{learner}: no model schema is declared for this learner")
    schema.check(model, "model", ctx)
    _consistency(learner, model, ctx)
    if learner == "OrderedRipper":
        _check_ripper(model, ctx)
