"""Benchmark: :class:`companion.baselines.OrderedRipper` against ``wittgenstein.RIPPER``, per fit.

On a two-class table OrderedRipper learns one rule set, with ``wittgenstein.RIPPER``, for the
rarer class; so the reference is ``wittgenstein.RIPPER(random_state=0).fit`` on the same frame with
that class as ``pos_class``, as a user would call it. Timed (interleaved, best of ``repeats``):

* ``OrderedRipper(random_state=0)``, the default: the rule set must beat the default class on 3
  inner folds (``fallback="inner_cv"``), i.e. three more RIPPER fits on two thirds of the rows
  by design;
* ``OrderedRipper(random_state=0, fallback=None)``: RIPPER's rule set as it is, plus what
  OrderedRipper adds (input checks, the exact power-of-two scaling of binned columns, the
  training cell counts behind ``predict_proba``);
* the same with ``calibrate_rulesets=False`` (notebooks 02 and 04), which skips wittgenstein's
  last pass (its own class frequencies, which OrderedRipper never reads).

OrderedRipper's binary rule sets are fitted by :func:`companion._ripper.fit_binary_ripper`,
a reimplementation of ``wittgenstein.RIPPER.fit`` on arrays that leaves the learner in the state
wittgenstein's fit leaves it in (same rules, bins, class frequencies; ``tests/test_ripper_fast.py``),
and their firing rows are read by :func:`companion._ripper.predict_binary_ripper` (wittgenstein's
``predict`` on arrays). The reference is still wittgenstein's own fit: the ratio is what the
reimplementation saves, the default's three inner-fold fits included.

Tables: ``titanic`` and ``mroz`` of ``data/rtables`` (:func:`companion.datasets.load_rtables`).
``identical`` says whether the rules are the same conditions (numeric bins compared by column and
position, since OrderedRipper hands wittgenstein each binned column times a power of two,
``column_shifts_``; on mroz wittgenstein's 2-decimal rounding of the unscaled edges gives other
bins, hence other rules).

Run ``python -m benchmarks.run --only ripper_vs_wittgenstein [--quick]``.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import pandas as pd

from companion.datasets import load_rtables

__all__ = ["run", "TABLES"]

TABLES = ("titanic", "mroz")
VARIANTS = {
    "OrderedRipper() (fallback='inner_cv')": {},
    "OrderedRipper(fallback=None)": {"fallback": None},
    "OrderedRipper(fallback=None, calibrate_rulesets=False)": {"fallback": None, "calibrate_rulesets": False},
}


def _conditions(ruleset):
    """The rules as lists of (column, value) with a numeric bin written as its position among the bins."""
    return [[(c.feature, c.val) for c in rule.conds] for rule in ruleset.rules]


def _bin_positions(model, rules):
    binner = getattr(model, "bin_transformer_", None)
    bins = {feature: list(names) for feature, names in ((binner.bins_ or {}).items() if binner else [])}
    return [[(f, bins[f].index(v) if f in bins and v in bins[f] else v) for f, v in rule] for rule in rules]


def run(quick: bool = False, tables=TABLES, repeats: int = 3):
    """Per-fit times of OrderedRipper's variants and wittgenstein's RIPPER; one row per table and variant.

    Parameters
    ----------
    quick : bool, default=False
        One table (titanic), one repetition.
    tables : sequence of str
        Tables of :func:`companion.datasets.load_rtables` (two classes).
    repeats : int, default=3
        Interleaved rounds; the best time of each learner is kept.

    Returns
    -------
    list of dict
        ``benchmark``, ``size`` (the table), ``shape``, ``ours_s``, ``reference``, ``reference_s``,
        ``ratio`` (ours / wittgenstein, per fit), ``identical``, ``target``, ``n_rules``, ``note``.
    """
    import wittgenstein

    from companion.baselines import OrderedRipper

    if quick:
        tables, repeats = tables[:1], 1
    rows = []
    for name in tables:
        X, y = load_rtables(name)
        y = np.asarray(y)
        labels, counts = np.unique(y, return_counts=True)
        if labels.size != 2:
            raise ValueError(f"ripper_vs_wittgenstein: table {name!r} has {labels.size} classes, not 2")
        rare = labels[np.argmin(counts)]  # ties: the first label, as OrderedRipper orders them
        frame = X.reset_index(drop=True)
        target = pd.Series((y == rare).astype(int), name="class")
        times = {key: [] for key in ["wittgenstein", *VARIANTS]}
        models = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # wittgenstein's own pandas warnings
            for _ in range(repeats):
                reference = wittgenstein.RIPPER(random_state=0)
                start = time.perf_counter()
                reference.fit(frame, target, pos_class=1)
                times["wittgenstein"].append(time.perf_counter() - start)
                models["wittgenstein"] = reference
                for key, params in VARIANTS.items():
                    model = OrderedRipper(random_state=0, **params)
                    start = time.perf_counter()
                    model.fit(X, y)
                    times[key].append(time.perf_counter() - start)
                    models[key] = model
        reference_s = float(np.min(times["wittgenstein"]))
        expected = _bin_positions(reference, _conditions(reference.ruleset_))
        for key in VARIANTS:
            model = models[key]
            learnt = [_bin_positions(ruleset, _conditions(ruleset.ruleset_)) for _, ruleset in model.rulesets_]
            ours_s = float(np.min(times[key]))
            rows.append({
                "benchmark": f"{key} vs wittgenstein RIPPER, per fit",
                "size": name,
                "shape": f"{X.shape[0]}x{X.shape[1]}",
                "ours_s": round(ours_s, 4),
                "reference": "wittgenstein.RIPPER(random_state=0).fit, the rarer class positive",
                "reference_s": round(reference_s, 4),
                "ratio": round(ours_s / reference_s, 3),
                "identical": bool(learnt == [expected]) if model.rulesets_ else False,
                "target": "<= 1",
                "n_rules": int(model.n_rules_),
                "note": (f"best of {repeats} interleaved fits; wittgenstein {len(reference.ruleset_.rules)} rules"
                         + ("; 3 inner-fold RIPPER fits by design" if "inner_cv" in key else "")),
            })
    return rows
