"""Benchmark: :class:`companion.perceptrons.MaskPerceptron` with its defaults on a soybean-sized table.

A user's first try on a table like UCI soybean (683 rows, 35 nominal columns, 19 classes, missing
cells): ``OneVsRestClassifier(MaskPerceptron()).fit`` on a training fold of a stratified 5-fold
split (seed 0). The frame goes in as it is: the one input pipeline one-hot encodes it (83 0/1
columns with soybean's values), the complemented inputs give about 19,000 candidate monomials of
degree <= 2, and each of the 19 binary fits runs the default ``fallback="inner_cv"`` (three more
fits on inner folds): 76 fits per fold.

Data: Weka's ``soybean.arff`` (Debian package ``weka``, ``/usr/share/doc/weka/examples``) when it
is installed, else a synthetic table of the same shape (:func:`soybean_like`: soybean's column
cardinalities, class sizes and share of missing cells; labels a function of a few columns).

Reported: the wall time of the fold's ``fit`` (best of ``repeats``) against the issue's target of
a few seconds a fold (5 s), and the held-out accuracy (not compared). The fitted models do not
depend on the speed-ups of the candidates' scoring (fixed-order sums; tests/test_perceptrons.py).

Run ``python -m benchmarks.run --only mask_perceptron_soybean [--quick]``.
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["run", "load_soybean", "soybean_like"]

WEKA_SOYBEAN = Path("/usr/share/doc/weka/examples/soybean.arff")
TARGET_S = 5.0
#: Values per column (soybean's 35 attributes) and class sizes (its 19 classes).
_CARDINALITIES = (7, 2, 3, 3, 2, 4, 4, 3, 3, 3, 2, 2, 3, 3, 3, 2, 2, 3, 2, 2, 4, 4, 2, 3, 2, 3, 2, 4, 4,
                  2, 2, 2, 2, 3, 2)
_CLASS_SIZES = (92, 91, 91, 88, 44, 44, 20, 20, 20, 20, 20, 20, 20, 20, 20, 16, 15, 14, 8)


def load_soybean():
    """``(X, y)`` of Weka's soybean.arff (all nominal, '?' as a missing cell), or None without it."""
    if not WEKA_SOYBEAN.exists():
        return None
    names, rows, in_data = [], [], False
    for line in WEKA_SOYBEAN.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("%"):
            continue
        if line.lower().startswith("@attribute"):
            names.append(line.split()[1].strip("'\""))
        elif line.lower().startswith("@data"):
            in_data = True
        elif in_data:
            rows.append([None if v.strip() == "?" else v.strip().strip("'\"") for v in line.split(",")])
    frame = pd.DataFrame(rows, columns=names)
    y = frame.pop(names[-1]).to_numpy()
    return frame.astype("category"), y


def soybean_like(seed: int = 0):
    """A synthetic table of soybean's shape: 683 rows, 35 nominal columns, 19 classes, ~9% of rows with missing cells."""
    rng = np.random.default_rng(seed)
    y = np.repeat([f"class_{k:02d}" for k in range(len(_CLASS_SIZES))], _CLASS_SIZES)
    codes = np.searchsorted(np.unique(y), y)
    columns = {}
    for j, values in enumerate(_CARDINALITIES):
        informative = (codes * (j + 3) + j) % values  # every class its typical value ...
        noise = rng.integers(0, values, size=y.size)
        column = np.where(rng.random(y.size) < 0.25, noise, informative).astype(object)  # ... a quarter at random
        column = np.array([f"v{int(v)}" for v in column], dtype=object)
        columns[f"a{j:02d}"] = column
    frame = pd.DataFrame(columns)
    missing_rows = rng.choice(y.size, size=121, replace=False)
    for row in missing_rows:
        frame.iloc[row, rng.choice(len(_CARDINALITIES), size=19, replace=False)] = None
    return frame.astype("category"), y


def run(quick: bool = False, repeats: int = 1, seed: int = 0):
    """Seconds of one fold's ``OneVsRestClassifier(MaskPerceptron()).fit``; one result row.

    Parameters
    ----------
    quick : bool, default=False
        A quarter of the rows (smoke test).
    repeats : int, default=1
        Fits of the fold; the best time is kept.
    seed : int, default=0
        Seed of the fold split (and of the synthetic table).

    Returns
    -------
    list of dict
        ``benchmark``, ``size`` (rows), ``shape``, ``ours_s``, ``reference`` (the target),
        ``reference_s``, ``ratio``, ``target``, ``note`` (data, fits, held-out accuracy).
    """
    from sklearn.model_selection import StratifiedKFold
    from sklearn.multiclass import OneVsRestClassifier

    from companion.perceptrons import MaskPerceptron

    loaded = load_soybean()
    source = "Weka soybean.arff" if loaded is not None else "synthetic soybean-shaped table (soybean_like)"
    X, y = loaded if loaded is not None else soybean_like(seed)
    if quick:
        keep = np.sort(np.random.default_rng(seed).choice(len(y), size=len(y) // 4, replace=False))
        X, y = X.iloc[keep].reset_index(drop=True), y[keep]
        kept = pd.Series(y).value_counts()
        rows = np.isin(y, kept[kept >= 5].index)
        X, y = X[rows].reset_index(drop=True), y[rows]
    train, test = next(StratifiedKFold(5, shuffle=True, random_state=seed).split(X, y))
    times, model = [], None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # single-class warnings of the binary fits
        for _ in range(repeats):
            model = OneVsRestClassifier(MaskPerceptron())
            start = time.perf_counter()
            model.fit(X.iloc[train], y[train])
            times.append(time.perf_counter() - start)
        accuracy = float(np.mean(model.predict(X.iloc[test]) == y[test]))
    estimator = model.estimators_[0]
    n_inputs = estimator.n_features_in_
    return [{
        "benchmark": "MaskPerceptron() one-vs-rest, one fold of a soybean-sized table",
        "size": len(train),
        "shape": f"{X.shape[0]}x{X.shape[1]} nominal, {len(np.unique(y))} classes",
        "ours_s": round(float(np.min(times)), 3),
        "reference": "target: a few seconds a fold",
        "reference_s": TARGET_S,
        "ratio": round(float(np.min(times)) / TARGET_S, 3),
        "identical": None,
        "target": "<= 1",
        "note": (f"{source}; {n_inputs} one-hot inputs, {len(model.estimators_)} binary fits with 3 inner-fold "
                 f"fits each; held-out accuracy {accuracy:.3f}; best of {repeats}"),
    }]
