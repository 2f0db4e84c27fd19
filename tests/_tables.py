"""Tables no notebook uses, for the learners' safe-default tests (issue 27, item 1)."""

from __future__ import annotations

import numpy as np
import pandas as pd


def mixed_table(seed: int = 0, n: int = 400):
    """A stranger's 60/40 table: numbers, categorical strings, a bool column, missing cells.

    The label depends on a number, a string column and noise; about 8 % of the cells of three
    columns are missing (NaN or None).
    """
    rng = np.random.default_rng(seed)
    age = rng.normal(45, 12, n).round(0)
    income = rng.lognormal(10, 0.5, n).round(-2)
    city = rng.choice(["Lille", "Nice", "Paris", "Lyon"], n)
    plan = rng.choice(["basic", "plus", "pro"], n, p=[0.5, 0.3, 0.2])
    member = rng.random(n) < 0.4
    score = 1.2 * (age > 50) + 1.0 * np.isin(city, ["Paris", "Lyon"]) + 0.8 * (plan == "pro") + rng.normal(0, 0.7, n)
    y = np.where(score > np.quantile(score, 0.6), "yes", "no")  # 60 % "no"
    frame = pd.DataFrame({
        "age": age, "income": income, "city": city.astype(object), "plan": plan.astype(object), "member": member,
    })
    for column in ("age", "income", "city"):
        frame.loc[rng.random(n) < 0.08, column] = None if frame[column].dtype == object else np.nan
    return frame, y
