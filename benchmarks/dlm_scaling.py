"""DLM fit time against its floor (distance matrix + one argsort per row), m = 200, 400, ..., 2000.

Every fit of :class:`companion.decision_list.DecisionListMachine` must compute the m×m distance
matrix and argsort its rows; that is the floor. The greedy steps add O(|S'|²) work each. This script
times both on synthetic data (two overlapping Gaussian classes, 8 features), fits the scaling
exponent of the fit time in m (log-log least squares) and reports the ratio to the floor
(target: at most 3).

Run standalone (``python -m benchmarks.dlm_scaling``) or call :func:`run` (``make bench``).
"""

from __future__ import annotations

import time

import numpy as np
from scipy.spatial.distance import cdist

from companion.decision_list import DecisionListMachine

__all__ = ["run"]


def _best_times(functions, repeats):
    """Best wall time of each function, the timings interleaved (a, b, a, b, ...).

    Interleaving exposes both sides to the same background load, so a burst of noise on a shared
    machine cannot inflate one side of a ratio only.
    """
    best = [np.inf] * len(functions)
    for _ in range(repeats):
        for i, function in enumerate(functions):
            start = time.perf_counter()
            function()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def run(sizes=tuple(range(200, 2001, 200)), *, n_features=8, s=10, ball_type="complex", repeats=None, seed=0) -> dict:
    """Time the DLM fit and its floor for each training-set size.

    Parameters
    ----------
    sizes : sequence of int
        Numbers of training examples ``m``.
    n_features : int
    s : int
        Stopping point of the DLM (number of greedy steps at most).
    ball_type : {"simple", "complex"}
    repeats : int, optional
        Best of this many interleaved timings is kept; default: enough for about 0.5 s per side
        and size (at least 3), since small sizes are the most exposed to timer noise.
    seed : int

    Returns
    -------
    dict
        ``m``, ``floor_s`` (distance matrix + row argsorts), ``fit_s`` (DLM fit), ``ratio``
        (fit / floor), ``n_balls``, ``exponent_fit`` and ``exponent_floor`` (log-log slopes),
        ``target_ratio`` (3.0) and ``meets_target`` (max ratio <= 3).
    """
    rng = np.random.default_rng(seed)
    floors, fits, balls = [], [], []
    for m in sizes:
        X = rng.normal(size=(m, n_features))
        y = (X[:, 0] + X[:, 1] ** 2 - 1 + rng.normal(scale=0.7, size=m) > 0).astype(int)

        def floor():
            distances = cdist(X, X)
            np.argsort(distances, axis=1, kind="stable")

        # one fit of the search (its inner-fold fallback check would time three more)
        dlm = DecisionListMachine(p_p=1.5, p_n=1.5, s=s, ball_type=ball_type, fallback=None)
        n_repeats = repeats or max(3, min(50, int(0.5 / (2e-8 * m**2 + 1e-3))))
        floor_s, fit_s = _best_times([floor, lambda: dlm.fit(X, y)], n_repeats)
        floors.append(floor_s)
        fits.append(fit_s)
        balls.append(dlm.n_balls_)
    m = np.asarray(sizes, dtype=float)
    floors, fits = np.asarray(floors), np.asarray(fits)
    ratio = fits / floors
    return {
        "m": list(map(int, sizes)),
        "floor_s": floors.round(4).tolist(),
        "fit_s": fits.round(4).tolist(),
        "ratio": ratio.round(2).tolist(),
        "n_balls": balls,
        "exponent_fit": float(np.polyfit(np.log(m), np.log(fits), 1)[0]),
        "exponent_floor": float(np.polyfit(np.log(m), np.log(floors), 1)[0]),
        "target_ratio": 3.0,
        "meets_target": bool(ratio.max() <= 3.0),
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
