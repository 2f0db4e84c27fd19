"""Default stump learners against the majority class on tables no notebook uses (issue 27, item 1).

5-fold stratified CV accuracy of ``SetCoveringStumps()``, ``OccamStumps()`` and
``PacBayesStumps()`` with their defaults (length chosen by the bound, stop before an idle stump)
and with the paper's greedy as such (``length="greedy", stop_idle=False``), on scikit-learn's
breast_cancer, wine and iris (multi-class through ``OneVsRestClassifier``), digits (one-vs-rest
ties) and a 400-row mixed table (numeric and one-hot columns, 60/40 classes).

Run: ``python -m benchmarks.stump_defaults`` (about a minute on 2 cores).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.datasets import load_breast_cancer, load_digits, load_iris, load_wine
from sklearn.dummy import DummyClassifier
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.multiclass import OneVsRestClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

from companion.stumps import OccamStumps, PacBayesStumps, SetCoveringStumps

LEARNERS = {"sc": SetCoveringStumps, "occam": OccamStumps, "pac_bayes": PacBayesStumps}
PAPER_GREEDY = {"length": "greedy", "stop_idle": False}


def mixed_table(seed=0, n=400):
    """400 rows: two numeric columns, a city and a plan (one-hot encoded), classes 60/40."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({
        "age": rng.normal(45, 12, n).round(),
        "income": rng.lognormal(10, 0.5, n).round(-2),
        "city": rng.choice(["Paris", "Lille", "Lyon", "Nice"], n),
        "plan": rng.choice(["basic", "plus", "pro"], n, p=[0.5, 0.3, 0.2]),
    })
    score = 0.05 * (frame["age"] - 45) + 0.8 * (frame["city"] == "Lille") + 1.2 * (frame["plan"] == "pro")
    score = score + rng.normal(0, 1, n)
    y = np.where(score > np.quantile(score, 0.6), "churn", "stay")  # 60/40
    return frame, y


def _encoder():
    return ColumnTransformer([
        ("num", "passthrough", ["age", "income"]),
        ("cat", OneHotEncoder(sparse_output=False), ["city", "plan"]),
    ])


def tables():
    X, y = load_breast_cancer(return_X_y=True)
    yield "breast_cancer", X, y, False
    X, y = load_wine(return_X_y=True)
    yield "wine", X, y, True
    X, y = load_iris(return_X_y=True)
    yield "iris", X, y, True
    frame, y = mixed_table()
    yield "mixed (400 rows)", frame, y, False
    X, y = load_digits(return_X_y=True)
    yield "digits", X, y, True


def _model(cls, params, multi, mixed):
    model = cls(**params)
    if multi:
        model = OneVsRestClassifier(model)
    return make_pipeline(_encoder(), model) if mixed else model


def run(seed=0) -> pd.DataFrame:
    """One row per (table, learner, setting): mean 5-fold CV accuracy."""
    cv = StratifiedKFold(5, shuffle=True, random_state=seed)
    rows = []
    for name, X, y, multi in tables():
        mixed = isinstance(X, pd.DataFrame)
        majority = cross_val_score(DummyClassifier(), X, y, cv=cv).mean()
        rows.append({"table": name, "learner": "majority class", "setting": "-", "accuracy": majority})
        for learner, cls in LEARNERS.items():
            for setting, params in (("default", {}), ("paper greedy", PAPER_GREEDY)):
                accuracy = cross_val_score(_model(cls, params, multi, mixed), X, y, cv=cv).mean()
                rows.append({"table": name, "learner": learner, "setting": setting, "accuracy": accuracy})
    return pd.DataFrame(rows)


if __name__ == "__main__":
    table = run()
    print(table.pivot_table(index=["table"], columns=["learner", "setting"], values="accuracy").round(3).to_string())
