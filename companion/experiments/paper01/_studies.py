"""Notebook 01's studies of the bounds and the balls: Monte-Carlo coverage of the published and
corrected bounds of Section 4, the corrected bounds as the sample-compression bound, and L1 and
L∞ balls.
"""

from __future__ import annotations

from functools import partial
from numbers import Integral

import numpy as np
import pandas as pd
from scipy.spatial.distance import cdist
from sklearn.utils._param_validation import validate_params

from companion.decision_list import BallSetCoveringMachine, DecisionListMachine, SortedDistances
from companion.evaluation import parallel_map, stratified_folds
from companion._learner_support import staged_predictions
from companion.numerics import StrictInterval
from companion.experiments._constraints import N_JOBS, SEED
from companion.experiments.protocol import paper_models
from companion.experiments.paper01._grids import (
    COMPARABLE, DISPLAY, Grid, dlm_grid_errors, fold_sorted, load_table1_dataset,
)
from companion.experiments.paper01._protocol import argmin_prefer_small, describe_grid_point
from companion.experiments.paper01._tables import paper_table1, selected_method


# --------------------------------------------------------------------------------------------
# Monte-Carlo coverage of the bounds of Section 4
# --------------------------------------------------------------------------------------------

#: The known distribution of :func:`bound_coverage`: P(y = 1) = 0.35; x | y ~ N(mu_y, I_2),
#: mu_0 = (0, 0), mu_1 = (1, 0) (overlapping classes with a minority class, as on Pima).
COVERAGE_DISTRIBUTION = {"positive_rate": 0.35, "shift": 1.0}


def sample_coverage_distribution(n, rng, *, positive_rate=0.35, shift=1.0):
    """``n`` draws ``(X, y)`` of the two-Gaussian distribution of :data:`COVERAGE_DISTRIBUTION`.

    Parameters
    ----------
    n : int
        Number of draws.
    rng : numpy.random.Generator
        Source of randomness.
    positive_rate : float, default=0.35
        ``P(y = 1)``.
    shift : float, default=1.0
        Mean of the first coordinate given ``y = 1`` (0 given ``y = 0``).

    Returns
    -------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,)
    """
    y = (rng.random(n) < positive_rate).astype(int)
    X = rng.standard_normal((n, 2))
    X[:, 0] += shift * y
    return X, y


def coverage_bayes_risk(*, positive_rate=0.35, shift=1.0) -> float:
    """Exact Bayes risk of the two-Gaussian distribution (threshold on the first coordinate).

    Parameters
    ----------
    positive_rate : float, default=0.35
        ``P(y = 1)``.
    shift : float, default=1.0
        Distance between the class means.

    Returns
    -------
    float
    """
    from scipy.stats import norm

    pi1, pi0 = positive_rate, 1 - positive_rate
    if shift == 0:
        return float(min(pi0, pi1))
    t = shift / 2 + np.log(pi0 / pi1) / shift  # posterior odds = 1 at x_0 = t
    return float(pi1 * norm.cdf(t - shift) + pi0 * norm.sf(t))


#: The machines of each coverage run: constrained DLMs and SCMs, every prefix up to ``s``.
#: The coverage table's label of the ball SCM: its bound (``scm_bound``, the form of Theorem 1 with
#: the SCM's compression set) is ours, not stated in this paper.
SCM_COVERAGE = "SCM (our bound)"
COVERAGE_PENALTIES = (0.5, 1.0, 2.0)


@paper_models
def _coverage_run(m, n_test, s_max, penalties, distribution, seed):
    """One training sample: every grid machine's bounds and its risk on a large test sample."""
    from companion.bounds.decision_list import dlm_bound_path, scm_bound_path

    rng = np.random.default_rng(seed)
    X, y = sample_coverage_distribution(m, rng, **distribution)
    X_test, y_test = sample_coverage_distribution(n_test, rng, **distribution)
    # one sort of the training distances (and one memo of greedy states) for every machine
    sd = SortedDistances(cdist(X, X))
    rows = []
    for ball_type in ("simple", "complex"):
        for p_p in penalties:
            for p_n in penalties:
                dlm = DecisionListMachine(p_p=p_p, p_n=p_n, s=s_max, ball_type=ball_type, metric="l2",
                                          compression_constraint=True, stop_if_unchanged=False, fallback=None,
                                          scale=None).fit(X, y, sorted_distances=sd)
                machine = "DLM (Theorem 1)" if ball_type == "simple" else "DLM (Theorem 2)"
                rows += _coverage_rows(machine, dlm, dlm_bound_path, X_test, y_test, m, f"p_p={p_p:g} p_n={p_n:g}")
    for model_type in ("conjunction", "disjunction"):
        for p in penalties:
            scm = BallSetCoveringMachine(p=p, s=s_max, model_type=model_type, compression_constraint=True,
                                         stop_if_unchanged=False, fallback=None, scale=None).fit(
                X, y, sorted_distances=sd)
            rows += _coverage_rows(SCM_COVERAGE, scm, scm_bound_path, X_test, y_test, m, f"{model_type} p={p:g}")
    return pd.DataFrame(rows)


def _coverage_rows(machine, model, bound_path, X_test, y_test, m, params=""):
    """One row per prefix of a fitted ball machine: true risk (and the lower 95 % Clopper–Pearson
    limit of its test-sample estimate), training error, both bounds, the machine's penalties
    (``params``) and the prefix length."""
    from scipy.stats import beta

    if model.n_balls_ == 0:
        return []
    wrong = (staged_predictions(model, X_test) != y_test).sum(axis=1)
    n = len(y_test)
    risk = wrong / n
    # one-sided lower 95 % limit of the risk: a bound below it lies below the true risk with confidence
    risk_low = np.where(wrong > 0, beta.ppf(0.05, np.maximum(wrong, 1), n - wrong + 1), 0.0)
    bounds = {v: bound_path(model, variant=v) for v in ("published", "corrected")}
    train = (model.path_["k_p"] + model.path_["k_n"]).to_numpy() / m
    return [{"machine": machine, "params": params, "prefix": t + 1, "risk": risk[t], "risk_low": float(risk_low[t]),
             "train_error": train[t], **{f"bound_{v}": bounds[v][t] for v in bounds}} for t in range(model.n_balls_)]


def _fixed_machines(part, bound, s_max):
    """Per fixed machine (penalties, stopping point ``s`` = 1 .. ``s_max``): is its bound below its
    risk's lower 95 % limit, and below the risk itself? A list that stopped before ``s`` balls is
    the machine at ``s`` (its last prefix).

    The machines in the order of their first row (``groupby(sort=False)``), each one's stopping
    points in order: one gather over all of them (``tests/test_experiments_paper01.py`` holds the
    group-by-group reference)."""
    stops = np.arange(1, s_max + 1)
    codes = part.groupby(["machine", "params"], sort=False).ngroup().to_numpy()
    keep = np.flatnonzero(codes >= 0)  # a row with a missing key is in no group, as in groupby
    if keep.size == 0:
        return np.array([], dtype=bool), np.array([], dtype=bool), []
    codes = codes[keep]
    # each machine's rows in prefix order (stable: equal prefixes keep their row order)
    order = keep[np.lexsort((part["prefix"].to_numpy()[keep], codes))]
    sizes = np.bincount(codes)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    # row min(s, r) - 1 of a machine of r prefixes at stopping point s
    at = order[starts[:, None] + np.minimum(stops[None, :], sizes[:, None]) - 1].ravel()
    value, risk_low, risk = (part[c].to_numpy(dtype=float)[at] for c in (bound, "risk_low", "risk"))
    finite = np.isfinite(value)
    first = order[starts]
    machines, params = part["machine"].to_numpy()[first], part["params"].to_numpy()[first]
    names = [f"{machine} {param} s={s}" for machine, param in zip(machines, params) for s in stops]
    return finite & (value < risk_low), finite & (value < risk), names


def _coverage_summary(frame, s_max=5) -> dict:
    """Per (machine, bound): violated by the bound-selected machine / by any machine of the run,
    and the share of the run's fixed machines (penalties, ``s``) whose bound lies below the lower
    95 % limit of their risk (the theorems' own quantifier: one algorithm at a time).

    The simple DLMs (Theorem 1) and the complex ones (Theorem 2) are summarised apart, each a
    statement at level ``1 - delta``, and together as ``"DLM"`` (both at once: level ``1 - 2 delta``).
    """
    out = {}
    dlm = frame[frame["machine"].str.startswith("DLM")]
    parts = [("DLM", dlm)] + list(frame.groupby("machine", sort=True))
    for machine, part in parts:
        for variant in ("published", "corrected"):
            bound = part[f"bound_{variant}"].to_numpy()
            ok = np.isfinite(bound)
            if not ok.any():
                continue
            risk, bound = part["risk"].to_numpy()[ok], bound[ok]
            risk_low = part["risk_low"].to_numpy()[ok]
            chosen = int(np.argmin(bound))  # the first of equal bounds
            below, below_point, names = _fixed_machines(part, f"bound_{variant}", s_max)
            worst = int(np.argmin(bound - risk_low))
            kept = part[ok].iloc[worst]
            out[(machine, variant)] = {
                "selected_bound": float(bound[chosen]),
                "selected_risk": float(risk[chosen]),
                "selected_violated": bool(bound[chosen] < risk[chosen]),
                "any_violated": bool((bound < risk).any()),
                "any_beyond": bool((bound < risk_low).any()),
                "fixed_share": float(below.mean()) if len(below) else 0.0,
                "fixed_share_point": float(below_point.mean()) if len(below_point) else 0.0,
                "fixed_machines": len(below),
                "fixed_violated": ";".join(name for name, hit in zip(names, below) if hit),
                "min_gap": float((bound - risk).min()),
                "worst_machine": f"{kept['machine']} {kept['params']} s={int(kept['prefix'])}",
                "worst_bound": float(bound[worst]), "worst_risk": float(risk[worst]),
                "worst_risk_low": float(risk_low[worst]),
            }
    return out


@validate_params(
    dict.fromkeys(("n_runs", "m", "n_test", "s_max"), [StrictInterval(Integral, 1, None, closed="left")]),
    prefer_skip_nested_validation=True,
)
def bound_coverage(n_runs=100, *, m=200, n_test=50_000, s_max=5, penalties=COVERAGE_PENALTIES,
                   distribution=COVERAGE_DISTRIBUTION, delta=0.05, seed=0, n_jobs=1) -> pd.DataFrame:
    """Monte-Carlo coverage of the DLM and SCM bounds, published and corrected, at ``delta``.

    Each run draws a training sample of ``m`` examples and a test sample of ``n_test`` from the
    known distribution (:data:`COVERAGE_DISTRIBUTION`), fits every constrained DLM (simple and
    complex, ``p_p``, ``p_n`` in ``penalties``) and SCM (conjunction and disjunction, ``p`` in
    ``penalties``) with stopping point ``s_max``, and computes for every prefix the bounds
    (Theorems 1-2 as published and :func:`~companion.bounds.decision_list.corrected_bound` for
    the DLM; :func:`~companion.bounds.decision_list.scm_bound` and
    :func:`~companion.bounds.decision_list.scm_bound_corrected` for the SCM) and the test error,
    an estimate of the true risk to about ``0.5 / sqrt(n_test)``. A bound valid with probability
    ``1 - delta`` holds *for every machine at once* outside an event of probability ``delta``,
    so ``any_violated`` (some machine's bound below its risk) may be true in at most about
    ``delta * n_runs`` runs; ``selected_violated`` checks the machine the bound itself selects.

    Parameters
    ----------
    n_runs : int
    m : int
        Training-set size.
    n_test : int
    s_max : int
    penalties : tuple of float
    distribution : dict
        Keywords of :func:`sample_coverage_distribution`.
    delta : float
        Only 0.05 (the bounds' default) is supported.
    seed : int
        Run ``i`` is seeded by the ``i``-th child of ``SeedSequence(seed)``.
    n_jobs : int
        The runs are independent items of :func:`companion.evaluation.parallel_map`.

    Returns
    -------
    pandas.DataFrame
        One row per (run, machine, bound): ``selected_bound``, ``selected_risk``,
        ``selected_violated``, ``any_violated``, ``any_beyond`` (some bound below its risk's lower
        95 % limit), ``fixed_share`` (the share of the run's fixed machines, penalties and ``s``,
        whose bound lies below that limit; ``fixed_share_point``: below the risk itself),
        ``fixed_machines``, ``min_gap`` (smallest bound minus risk) and the machine whose bound lies
        farthest below its risk's lower limit (``worst_machine``, ``worst_bound``, ``worst_risk``,
        ``worst_risk_low``); ``designated`` (run ``i``'s fixed machine: the ``i``-th, cyclically, of
        the machine type's penalties and stopping points, chosen before the sample is drawn) and
        ``designated_violated`` (its bound below its risk's lower limit).
    """
    if delta != 0.05:
        raise ValueError("bound_coverage evaluates the bounds at their default delta = 0.05")
    seeds = [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(n_runs)]
    frames = parallel_map(
        partial(_coverage_run, m, n_test, s_max, tuple(penalties), dict(distribution)), seeds, n_jobs=n_jobs
    )
    rows = []
    fixed = {"DLM (Theorem 1)": [f"p_p={a:g} p_n={b:g}" for a in penalties for b in penalties],
             "DLM (Theorem 2)": [f"p_p={a:g} p_n={b:g}" for a in penalties for b in penalties],
             SCM_COVERAGE: [f"{t} p={p:g}" for t in ("conjunction", "disjunction") for p in penalties]}
    for run_index, frame in enumerate(frames):
        for (machine, variant), values in _coverage_summary(frame, s_max).items():
            # one fixed machine per sample, in turn, chosen before the sample is drawn: the samples'
            # designated machines are independent trials of the theorem's per-algorithm statement
            names = [f"{machine} {params} s={s}" for params in fixed.get(machine, []) for s in range(1, s_max + 1)]
            designated = names[run_index % len(names)] if names else ""
            rows.append({"run": run_index, "machine": machine, "bound": variant, **values, "designated": designated,
                         "designated_violated": bool(designated)
                         and designated in str(values["fixed_violated"]).split(";")})
    return pd.DataFrame(rows)


def coverage_table(coverage: pd.DataFrame) -> pd.DataFrame:
    """Summary of :func:`bound_coverage`: per (machine, bound) the runs, the violations, the means.

    Parameters
    ----------
    coverage : pandas.DataFrame
        :func:`bound_coverage`'s frame.

    Returns
    -------
    pandas.DataFrame
        Columns ``runs``, ``any_violated``, ``any_beyond``, ``designated_violated`` (each run's
        designated fixed machine below its risk's lower limit) and ``selected_violated`` (counts of
        runs), ``mean_fixed_share`` (mean over the runs of the share of fixed machines whose bound
        lies below their risk's lower 95 % limit), ``max_fixed_share``, ``worst_fixed_runs`` (on how
        many runs the most often violated fixed machine, ``worst_fixed``, was), ``mean_selected_bound``,
        ``mean_selected_risk``, ``mean_min_gap``.
    """
    grouped = coverage.groupby(["machine", "bound"], sort=False)

    def worst(names):  # the fixed machine violated (beyond the risk's lower limit) on the most runs
        counts = pd.Series([n for value in names for n in str(value).split(";") if n and value == value])
        return (counts.value_counts().index[0], int(counts.value_counts().iloc[0])) if len(counts) else ("none", 0)

    table = pd.DataFrame(
        {
            "runs": grouped.size(),
            "any_violated": grouped["any_violated"].sum().astype(int),
            "any_beyond": grouped["any_beyond"].sum().astype(int),
            "designated_violated": grouped["designated_violated"].sum().astype(int),
            "selected_violated": grouped["selected_violated"].sum().astype(int),
            "mean_fixed_share": grouped["fixed_share"].mean(),
            "max_fixed_share": grouped["fixed_share"].max(),
            "worst_fixed_runs": grouped["fixed_violated"].agg(lambda v: worst(v)[1]),
            "worst_fixed": grouped["fixed_violated"].agg(lambda v: worst(v)[0]),
            "mean_selected_bound": grouped["selected_bound"].mean(),
            "mean_selected_risk": grouped["selected_risk"].mean(),
            "mean_min_gap": grouped["min_gap"].mean(),
        }
    )
    return table


@validate_params({"cases": ["array-like"]}, prefer_skip_nested_validation=True)
def compression_relation_table(cases=((200, 4, 2, 10, 2, "simple"), (200, 6, 3, 40, 3, "complex"),
                                      (600, 10, 5, 150, 5, "complex"), (300, 5, 3, 20, 0, "scm"))) -> pd.DataFrame:
    """The corrected bounds next to the general sample-compression bound (paper 05's Theorem 3).

    Parameters
    ----------
    cases : tuple of tuple
        ``(m, λ, c, k, r, type)`` per row: sample size, compression-set size, centres, errors,
        balls and ``"simple"``, ``"complex"`` or ``"scm"``.

    Returns
    -------
    pandas.DataFrame
        Per case: ``corrected`` (:func:`~companion.bounds.decision_list.corrected_bound`, or
        :func:`~companion.bounds.decision_list.scm_bound_corrected` for ``"scm"``),
        ``log_message`` (``ln 1/P_M``) and ``theorem3``
        (:func:`companion.bounds.compression.sample_compression_bound` with that message); the two
        bounds agree to rounding.
    """
    from companion.bounds.compression import sample_compression_bound
    from companion.bounds.decision_list import corrected_bound, corrected_log_message, scm_bound_corrected

    rows = []
    for m, lam, c, k, r, kind in cases:
        if kind == "scm":
            corrected = scm_bound_corrected(m, compression_size=lam, n_centres=c, n_errors=k)
        else:
            corrected = corrected_bound(m, compression_size=lam, n_centres=c, n_errors=k, r=r, ball_type=kind)
        message = corrected_log_message(lam, c, r, kind)
        rows.append({"m": m, "lambda": lam, "c": c, "k": k, "r": r, "type": kind, "log_message": message,
                     "corrected": corrected, "theorem3": sample_compression_bound(m, lam, k, message)})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------
# L1 and L∞ balls; the penalty heat-map
# --------------------------------------------------------------------------------------------


def _metric_fold(D, X, y, grid, metric, fold):
    train, test = fold
    X_ball, y_ball, sd = fold_sorted(D, X, y, train)
    errors, balls, _, _ = dlm_grid_errors(sd, X_ball, y_ball, X[test], y[test], grid, constraint=False, metric=metric)
    return errors, balls


# False: ``grid`` becomes the machines' parameters, which their fits still check.
@validate_params(
    {"names": ["array-like"], "seed": SEED, "grid": [Grid], "metrics": ["array-like"], "results": [pd.DataFrame, None],
     "n_jobs": N_JOBS},
    prefer_skip_nested_validation=False,
)
def metric_table(names=COMPARABLE, *, seed=0, grid: Grid = Grid(), metrics=("l2", "l1", "linf"), results=None,
                 n_jobs=1):
    """Protocol (a) of the DLM (coarse grid, one fold seed) with L2, L1 and L∞ balls.

    The paper mentions L1 and L∞ balls and reports L2 only.

    Parameters
    ----------
    names : tuple of str
        Keys of :data:`~companion.experiments.paper01._grids.DATASETS`.
    seed : int
        Fold seed.
    grid : Grid
        Its DLM part is used.
    metrics : tuple of str
        Metric names of :class:`~companion.decision_list.DecisionListMachine`.
    results : pandas.DataFrame, optional
        :func:`~companion.experiments.paper01.run` with the same ``grid`` and ``seed`` among its
        seeds: the L2 column is read from its protocol (a) instead of being refitted (the same
        numbers, tested).
    n_jobs : int or None, default=1
        The folds are items of :func:`companion.evaluation.parallel_map` (same result).

    Returns
    -------
    pandas.DataFrame
        Rows: data sets; columns: the paper's (L2) errors, then our best total test errors per
        metric (the grid point in ``*_machine``).
    """
    from companion._ball_search import resolve_metric

    paper = paper_table1()
    rows = []
    for name in names:
        X, y = load_table1_dataset(name)
        folds = stratified_folds(y, n_splits=10, seed=seed)
        row = {"dataset": DISPLAY[name], "paper_l2": int(paper.loc[name, "dlm_errors"])}
        for metric in metrics:
            if metric == "l2" and results is not None:
                best = selected_method(results, name, "DLM (a)", seed)
                row["l2"] = best["errors"]
                row["l2_machine"] = f"{best['T']} p_n={best['p_n']:g} p_p={best['p_p']:g} s={best['s']}"
                continue
            D = cdist(X, X, metric=resolve_metric(metric))
            per_fold = parallel_map(partial(_metric_fold, D, X, y, grid, metric), folds, n_jobs=n_jobs)
            total = np.stack([e for e, _ in per_fold], axis=-1).sum(axis=-1)
            size = np.stack([b for _, b in per_fold], axis=-1).sum(axis=-1)
            index = argmin_prefer_small(total, size)
            d = describe_grid_point("dlm", index, grid)
            row[metric] = int(total[index])
            row[f"{metric}_machine"] = f"{d['T']} p_n={d['p_n']:g} p_p={d['p_p']:g} s={d['s']}"
        rows.append(row)
    return pd.DataFrame(rows).set_index("dataset")
