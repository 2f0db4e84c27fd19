"""Monte-Carlo coverage of the three bounds of Paper 05 (Occam, Theorem 2; sample compression,
Theorem 3 with Eq. 5; PAC-Bayes, Theorem 4) on a distribution whose true risks are known exactly.

Shah, Marchand & Corbeil, TPAMI 2012, Sections III-V. A bound that holds with probability
``1 − δ`` over the training sample holds for every conjunction of its class at once outside an
event of probability ``δ``; so the share of training samples on which *some* prefix of a learned
conjunction has a bound below its true risk estimates an upper bound on that event's probability,
and must be at most about ``δ``. The known distribution: ``n`` attributes uniform on ``[0, 1]``
(the priors' range ``[A, B] = [0, 1]`` is declared, not read from the sample), ``P(y = 1 | x)`` is
``η₁`` where ``x_k > τ`` for every relevant ``k`` and ``η₀`` elsewhere. A conjunction of stumps
(or a Gibbs conjunction of uniform thresholds) then has an exact true risk: every probability is
a product over attributes of one-dimensional integrals of piecewise-linear functions.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from companion.bounds.compression import compression_bound
from companion.evaluation import parallel_map
from companion.stumps import OccamStumps, PacBayesStumps, SetCoveringStumps

#: The two distributions: with signal (two relevant attributes of 500, 10 % label noise) and
#: without (the label independent of ``x``, ``P(y = 1) = 0.4``).
COVERAGE_DISTRIBUTIONS = {
    "signal": {"relevant": (0, 1), "tau": 0.3, "eta1": 0.9, "eta0": 0.1},
    "no signal": {"relevant": (), "tau": 0.3, "eta1": 0.4, "eta0": 0.4},
}

#: The coverage test's own settings varied (the variants of the coverage rows): more examples (where
#: the bounds tighten), fewer attributes, a weaker signal on one attribute, and a prior range wider
#: than the support. ``{variant name: keyword arguments of bound_coverage}``.
COVERAGE_VARIANTS = {
    "coverage=m 200": {"m": 200},
    "coverage=n 50": {"n": 50},
    "coverage=one relevant attribute with 25 % noise": {"distributions": {
        "weak signal": {"relevant": (0,), "tau": 0.5, "eta1": 0.75, "eta0": 0.25}}},
    "coverage=prior range -1 to 2": {"feature_range": (-1.0, 2.0)},
}


def _sample(m, n, rng, relevant, tau, eta1, eta0):
    X = rng.random((m, n))
    target = np.all(X[:, list(relevant)] > tau, axis=1) if relevant else np.ones(m, dtype=bool)
    y = (rng.random(m) < np.where(target, eta1, eta0)).astype(int)
    return X, y


def _primitive(x, a, b):
    """``∫_{−∞}^{x} clip((u − a)/(b − a), 0, 1) du`` (``a = b``: ``max(0, x − a)``)."""
    if b <= a:
        return max(0.0, x - a)
    if x <= a:
        return 0.0
    if x <= b:
        return (x - a) ** 2 / (2 * (b - a))
    return (b - a) / 2 + (x - b)


def _holds(lo, a, b, d):
    """``∫_lo^1 Pr_{t~U[a,b]}((x − t) d > 0) dx``: the probability that ``x ~ U[0, 1]`` lies in
    ``[lo, 1]`` and the stump (threshold uniform in ``[a, b]``; a point when ``a = b``) says 1."""
    up = _primitive(1.0, a, b) - _primitive(lo, a, b)
    return up if d > 0 else (1.0 - lo) - up


def true_risk(features, lows, highs, directions, *, relevant, tau, eta1, eta0):
    """Exact risk of the (Gibbs) conjunction of stumps on the known distribution.

    Parameters
    ----------
    features : sequence of int
        The stumps' attributes (distinct).
    lows, highs : sequence of float
        Each threshold's interval (``low = high``: a fixed threshold).
    directions : sequence of int
        ``+1`` (``x > t``) or ``−1`` (``x ≤ t``).
    relevant, tau, eta1, eta0
        The distribution (:data:`COVERAGE_DISTRIBUTIONS`).

    Returns
    -------
    float
        ``P(prediction ≠ y)`` (the Gibbs risk when the thresholds are random).
    """
    relevant = set(relevant)
    target = (1.0 - tau) ** len(relevant)
    says_one, both = 1.0, 1.0
    for f, a, b, d in zip(features, lows, highs, directions):
        says_one *= _holds(0.0, a, b, d)
        both *= _holds(tau if f in relevant else 0.0, a, b, d)
    both *= (1.0 - tau) ** len(relevant - set(int(f) for f in features))
    return float(both * (1 - eta1) + (says_one - both) * (1 - eta0) + (target - both) * eta1
                 + (1 - says_one - target + both) * eta0)


def _pairing_path(model, X, y, delta):
    """SC's bound of every prefix with the ``ln |k|!`` pairing term (Eq. 5's strictly valid message)."""
    wrong_path, out = [], []
    for k in range(model.features_.size + 1):
        wrong = model.truncated(k).predict(X) != y
        outside = int(wrong.sum() - wrong[model.compression_set_[:k]].sum())
        out.append(compression_bound(outside, X.shape[0], model.prior_n_features_, k, delta, pairing=True))
    return np.asarray(out)


def _prefix_rows(name, model, bounds, m):
    k_max = model.features_.size
    if name == "pac_bayes":
        lows, highs = model.intervals_[:, 0], model.intervals_[:, 1]
    else:
        lows = highs = model.thresholds_
    return [(k, float(bounds[k]), (model.features_[:k], lows[:k], highs[:k], model.directions_[:k]))
            for k in range(k_max + 1)]


def _coverage_run(m, n, s, distribution, margin_gaps, delta, feature_range, seed):
    """One training sample: each learner's path of bounds and the exact risks of its prefixes
    (``sc with ln|k|!``: SC's conjunction under the bound that pays the pairing term)."""
    rng = np.random.default_rng(seed)
    X, y = _sample(m, n, rng, **distribution)
    common = {"p": 1.0, "s": s, "delta": delta, "feature_range": tuple(feature_range), "length": "greedy",
              "stop_idle": False}
    models = {
        "sc": (SetCoveringStumps(threshold="observed", **common), "bound_path_"),
        "occam": (OccamStumps(**common), "bound_path_"),
        "pac_bayes": (PacBayesStumps(margin_gaps=margin_gaps, **common), "gibbs_bound_path_"),
    }
    rows = []
    for name, (learner, path) in models.items():
        model = learner.fit(X, y)
        paths = {name: getattr(model, path)}
        if name == "sc":
            paths["sc with ln|k|!"] = _pairing_path(model, X, y, delta)
        for label, bounds in paths.items():
            for k, bound, stumps in _prefix_rows(name, model, bounds, m):
                rows.append({"learner": label, "k": k, "bound": bound, "risk": true_risk(*stumps, **distribution)})
    return pd.DataFrame(rows)


def bound_coverage(n_runs=200, *, m=50, n=500, s=5, margin_gaps=(1, 4), delta=0.05, seed=0, n_jobs=1,
                   distributions=None, feature_range=(0.0, 1.0)) -> pd.DataFrame:
    """Monte-Carlo coverage of the SC, Occam and PAC-Bayes bounds on both known distributions.

    Each run draws ``m`` training examples of ``n`` attributes, fits each learner (conjunction,
    ``p = 1``, every stump the greedy adds up to ``s``; SC with observed thresholds, PAC-Bayes with
    margins ``margin_gaps`` values wide) and computes, for every prefix of its conjunction
    (``k = 0 .. s`` stumps), its bound at ``delta`` (PAC-Bayes: the Gibbs bound of Theorem 4) and
    its exact true risk (:func:`true_risk`; PAC-Bayes: the Gibbs risk).

    Parameters
    ----------
    n_runs : int, default=200
        Training samples per distribution.
    m, n, s : int, default=50, 500, 5
        Training-set size, attributes, longest conjunction.
    margin_gaps : tuple of int, default=(1, 4)
        PAC-Bayes margin widths (the protocol's).
    delta : float, default=0.05
        Confidence of every bound.
    seed : int, default=0
        Run ``i`` of each distribution is seeded by a child of ``SeedSequence(seed)``.
    n_jobs : int, default=1
        The runs are independent items of :func:`companion.evaluation.parallel_map`.
    distributions : dict or None, default=None
        ``{name: distribution}`` (None: :data:`COVERAGE_DISTRIBUTIONS`).
    feature_range : tuple of float, default=(0.0, 1.0)
        The priors' ``[A, B]`` (the support of every attribute is ``[0, 1]``).

    Returns
    -------
    pandas.DataFrame
        One row per (distribution, run, learner; ``sc with ln|k|!`` is SC's conjunction under the
        bound that also pays ``ln |k|!``): ``any_violated`` (some prefix's bound below its
        risk), ``selected_violated`` (the prefix of smallest bound), ``selected_bound``,
        ``selected_risk``, ``min_gap`` and ``violated_prefixes`` (the numbers of stumps of the
        prefixes whose bound lies below their risk, ``"1;2"``).
    """
    distributions = COVERAGE_DISTRIBUTIONS if distributions is None else distributions
    children = np.random.SeedSequence(seed).spawn(len(distributions) * n_runs)
    seeds = [int(c.generate_state(1)[0]) for c in children]
    rows = []
    for i, (dist_name, distribution) in enumerate(distributions.items()):
        frames = parallel_map(partial(_coverage_run, m, n, s, distribution, tuple(margin_gaps), delta,
                                      tuple(feature_range)),
                              seeds[i * n_runs:(i + 1) * n_runs], n_jobs=n_jobs)
        for run, frame in enumerate(frames):
            for learner, part in frame.groupby("learner", sort=False):
                chosen = part.iloc[int(np.argmin(part["bound"].to_numpy()))]
                gap = part["bound"] - part["risk"]
                rows.append({"distribution": dist_name, "run": run, "learner": learner,
                             "any_violated": bool((gap < 0).any()), "selected_violated": bool(chosen["bound"] < chosen["risk"]),
                             "selected_bound": float(chosen["bound"]), "selected_risk": float(chosen["risk"]),
                             "min_gap": float(gap.min()),
                             "violated_prefixes": ";".join(str(int(k)) for k in part["k"][gap < 0])})
    return pd.DataFrame(rows)


def _prefix_counts(part) -> str:
    """``"1: 3, 2: 1"``: in how many runs the prefix of each number of stumps had a bound below its risk."""
    if "violated_prefixes" not in part:
        return ""
    ks = pd.Series([int(k) for text in part["violated_prefixes"] for k in str(text).split(";") if k], dtype=int)
    return ", ".join(f"{k}: {c}" for k, c in ks.value_counts().sort_index().items()) or "none"


def coverage_table(coverage: pd.DataFrame, delta: float = 0.05) -> pd.DataFrame:
    """Per distribution and learner: runs, violations (any prefix; the bound's own choice), means,
    the prefixes that fell below their risk; and the smallest of the three chosen bounds (its
    learner's risk), which holds at ``3δ``.

    Parameters
    ----------
    coverage : pandas.DataFrame
        :func:`bound_coverage`'s frame.
    delta : float, default=0.05
        The bounds' confidence.

    Returns
    -------
    pandas.DataFrame
    """
    rows = []
    for (dist, learner), part in coverage.groupby(["distribution", "learner"], sort=False):
        rows.append({"distribution": dist, "bound": learner, "runs": len(part),
                     "some prefix below its risk": int(part["any_violated"].sum()),
                     "chosen model below its risk": int(part["selected_violated"].sum()),
                     "mean chosen bound": part["selected_bound"].mean(), "mean true risk": part["selected_risk"].mean(),
                     "smallest bound − risk": part["min_gap"].min(), "level": delta,
                     "violating prefixes (stumps: runs)": _prefix_counts(part)})
    for dist, part in coverage[coverage["learner"].isin(["sc", "occam", "pac_bayes"])].groupby("distribution", sort=False):
        best = part.loc[part.groupby("run")["selected_bound"].idxmin()]
        rows.append({"distribution": dist, "bound": "min of the three", "runs": len(best),
                     "some prefix below its risk": np.nan,
                     "chosen model below its risk": int((best["selected_bound"] < best["selected_risk"]).sum()),
                     "mean chosen bound": best["selected_bound"].mean(), "mean true risk": best["selected_risk"].mean(),
                     "smallest bound − risk": (best["selected_bound"] - best["selected_risk"]).min(), "level": 3 * delta})
    return pd.DataFrame(rows)
