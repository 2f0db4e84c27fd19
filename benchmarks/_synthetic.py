"""The synthetic data of the scaling benchmarks (:mod:`benchmarks.learner_scaling`, which re-exports
:func:`make_data`, and :mod:`benchmarks.ball_memory`): one module below both, so that neither
imports the other for it."""

from __future__ import annotations

import numpy as np
import pandas as pd

N_FEATURES = 8
#: Learners fitted on nominal columns (categorical frames), and on Boolean ones; the rest numeric.
NOMINAL = {"Prism", "OneR", "DecisionCommittee"}
BOOLEAN = {"KernelPerceptron", "MaximalMarginPerceptron", "MaskPerceptron"}


def make_data(name: str, m: int, seed: int = 0):
    """Synthetic ``(X, y)`` of ``m`` rows suited to learner ``name`` (see :mod:`benchmarks.learner_scaling`).

    Parameters
    ----------
    name : str
        Estimator class name; decides the column kind (nominal, Boolean or numeric).
    m : int
        Number of rows.
    seed : int, default=0
        Seed of the generator (the same data for every learner of a kind).

    Returns
    -------
    X : numpy.ndarray or pandas.DataFrame of shape (m, 8)
    y : numpy.ndarray of shape (m,), labels in {0, 1}
    """
    rng = np.random.default_rng(seed)
    if name in NOMINAL:
        codes = rng.integers(0, 4, size=(m, N_FEATURES))
        y = ((codes[:, 0] == 0) | ((codes[:, 1] == 1) & (codes[:, 2] != 3))).astype(int)
        X = pd.DataFrame({f"a{j}": pd.Categorical(codes[:, j], categories=range(4)) for j in range(N_FEATURES)})
    elif name in BOOLEAN:
        X = rng.integers(0, 2, size=(m, N_FEATURES)).astype(float)
        y = ((X[:, 0] + X[:, 1] + X[:, 2] >= 2) ^ (X[:, 3] > 0)).astype(int)
    else:
        X = rng.normal(size=(m, N_FEATURES))
        y = (np.linalg.norm(X[:, :3], axis=1) < 1.5).astype(int)
    flip = rng.random(m) < 0.1  # label noise: no learner is done after one perfect rule
    return X, np.where(flip, 1 - y, y)
