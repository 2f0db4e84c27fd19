"""Protocol of notebook 05: stump conjunctions (SC, Occam, PAC-Bayes) on microarrays vs. four competitors.

Shah, Marchand & Corbeil, TPAMI 2012 (Paper 05). The paper's experimental protocol, grids and tables
were not recovered (spec ``01_05`` §5.4, §6), so this module implements the protocol the spec
prescribes from the evidence (Ambroise & McLachlan 2002 on selection bias):

* repeated stratified 10-fold CV; on each training fold, and only there,
  - genes are pre-filtered (the ``n_prefilter`` largest |Welch t| statistics), for speed;
  - the stump learners' parameters (``p``, conjunction/disjunction, number of stumps ``s``) are
    chosen either by the variant's **bound** on the training fold or by an **inner CV**
    (pre-filtering redone inside every inner fold);
* the bounds use the full gene count ``n`` (valid: they hold uniformly over all conjunctions on
  the ``n`` genes, so a label-dependent narrowing of the search costs nothing);
* competitors (scikit-learn): linear SVM on all genes, SVM-RFE, L1-logistic regression and
  AdaBoost on decision stumps.

Everything is seeded. The outer folds are independent (each carries its own split and seeds), so
:func:`run_protocol` and :func:`run_dataset` can send them through
:func:`companion.evaluation.parallel_map` (``n_jobs``; default 1, serial, what the notebook uses);
the numbers do not depend on ``n_jobs``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.ensemble import AdaBoostClassifier
from sklearn.feature_selection import RFE
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import ParameterGrid
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from companion import datasets
from companion.bounds.compression import compression_bound, compression_log_message
from companion.bounds.occam import dyadic_code_lengths, log_choose, log_zeta, occam_bound, threshold_code_cost
from companion.bounds.pac_bayes import gibbs_risk, pac_bayes_bound, pac_bayes_kl
from companion.evaluation import parallel_map, stratified_folds
from companion.numerics import ordered_matvec
from companion.stumps import StumpConjunction, fit_by_bound

__all__ = [
    "DATASETS",
    "ProtocolConfig",
    "load_dataset",
    "welch_t_ranking",
    "select_by_inner_cv",
    "run_dataset",
    "run_protocol",
    "summarise",
    "wide_view",
    "framework_costs",
    "worked_example",
    "golub_genes",
    "claims_table",
    "plot_bound_vs_error",
]

#: name -> (loader, keyword arguments, note). Labels are the loaders' own.
DATASETS = {
    "colon": (datasets.load_colon, {}, "Alon et al. 1999, tumour vs normal"),
    "leukemia_golub": (datasets.load_golub, {}, "Golub et al. 1999, ALL vs AML"),
    "c_md": (datasets.load_c_md, {}, "Pomeroy et al. 2002 set C, outcome"),
    "breast_er": (datasets.load_breast_er, {}, "West et al. 2001, ER status"),
    "prostate": (datasets.load_prostate, {}, "Singh et al. 2002 (not confirmed in Paper 05)"),
    "lung_gordon": (datasets.load_lung_gordon, {}, "Gordon et al. 2002: a STAND-IN for the paper's Lung set"),
    "all_bioc": (datasets.load_all_bioc, {"lineage": True}, "Chiaretti et al. 2004, B vs T lineage"),
}

STUMP_VARIANTS = ("sc", "occam", "pac_bayes")
COMPETITORS = ("linear_svm", "svm_rfe", "l1_logistic", "adaboost_stumps")


@dataclass
class ProtocolConfig:
    """Sizes of the protocol (the defaults are the notebook's full run, sized for ~4 min on one core)."""

    n_repeats: int = 1
    n_splits: int = 10
    inner_splits: int = 3
    n_prefilter: int = 100
    s_max: int = 5
    p_grid: tuple = (0.5, 1.0, 2.0)
    model_types: tuple = ("conjunction", "disjunction")
    eta: float = 1.0
    delta: float = 0.05
    rfe_genes: int = 16
    adaboost_rounds: int = 25
    margin_gaps: tuple = (1, 4)
    datasets: tuple = field(default_factory=lambda: tuple(DATASETS))

    def grid(self):
        return {"p": list(self.p_grid), "model_type": list(self.model_types)}


def load_dataset(name):
    """``(X, y, gene_names)`` as numpy arrays for one of :data:`DATASETS`."""
    if name not in DATASETS:
        raise ValueError(f"unknown data set {name!r}; expected one of {sorted(DATASETS)}")
    loader, kwargs, _ = DATASETS[name]
    X, y = loader(**kwargs)
    return X.to_numpy(dtype=float), np.asarray(y.astype(str)), np.asarray(X.columns, dtype=str)


def welch_t_ranking(X, y, n_keep):
    """Indices of the ``n_keep`` genes with the largest |Welch t| between the two classes (sorted)."""
    classes = np.unique(y)
    a, b = X[y == classes[0]], X[y == classes[1]]
    var = a.var(axis=0, ddof=1) / max(len(a), 1) + b.var(axis=0, ddof=1) / max(len(b), 1)
    t = np.abs(a.mean(axis=0) - b.mean(axis=0)) / np.sqrt(np.where(var > 0, var, np.inf))
    n_keep = min(n_keep, X.shape[1])
    # Tie rule: equal |t| (duplicated probes) keep the lower gene index. A stable sort, because
    # argpartition's (and the default argsort's) order among equal keys depends on the CPU's
    # SIMD sorting kernel (AVX2 / AVX-512 / none), so the kept gene would too.
    keep = np.argsort(-t, kind="stable")[:n_keep]
    return np.sort(keep)


def _stump_template(variant, config, n_total):
    return StumpConjunction(
        variant=variant, s=config.s_max, eta=config.eta, delta=config.delta,
        margin_gaps=config.margin_gaps, prior_n_features=int(n_total),
    )


def select_by_inner_cv(template, X, y, grid, n_prefilter, inner_splits, seed):
    """Choose grid point and number of stumps by inner stratified CV (prefilter redone per fold).

    Uses the prefix property of the greedy: one fit per (inner fold, grid point) gives the
    predictions of every ``s ≤ s_max`` through ``staged_predict``.

    Returns
    -------
    params : dict
        Chosen grid point.
    n_stumps : int
        Chosen number of stumps (ties: fewer stumps, then the first grid point).
    """
    points = list(ParameterGrid(grid))
    errors = np.zeros((len(points), template.s + 1))
    for train, test in stratified_folds(y, n_splits=inner_splits, seed=seed):
        keep = welch_t_ranking(X[train], y[train], n_prefilter)
        for i, params in enumerate(points):
            model = clone(template).set_params(**params).fit(X[train][:, keep], y[train])
            staged = model.staged_predict(X[test][:, keep])
            wrong = (staged != y[test]).sum(axis=1)
            # Paths that stopped early (no negative left) keep their last model for larger s.
            errors[i, : wrong.size] += wrong
            errors[i, wrong.size :] += wrong[-1]
    best = np.flatnonzero(errors.ravel() == errors.min())
    # Flat order is (grid point, s); prefer fewer stumps, then the first grid point.
    point, size = min((np.unravel_index(b, errors.shape) for b in best), key=lambda ps: (ps[1], ps[0]))
    return points[int(point)], int(size)


def _competitors(config, seed):
    linear = SVC(kernel="linear", C=1.0)
    return {
        "linear_svm": make_pipeline(StandardScaler(), clone(linear)),
        "svm_rfe": make_pipeline(
            StandardScaler(),
            RFE(clone(linear), n_features_to_select=config.rfe_genes, step=0.5, importance_getter=linear_svm_importance),
        ),
        "l1_logistic": make_pipeline(
            StandardScaler(), LogisticRegression(l1_ratio=1.0, solver="liblinear", C=0.5, random_state=seed)
        ),
        "adaboost_stumps": AdaBoostClassifier(
            DecisionTreeClassifier(max_depth=1), n_estimators=config.adaboost_rounds, random_state=seed
        ),
    }


def linear_svm_importance(svm) -> np.ndarray:
    """SVM-RFE's ranking criterion ``w_j²`` of a fitted linear ``SVC``, summed in a fixed order.

    ``SVC.coef_`` is a BLAS product of the dual coefficients and the support vectors, whose last
    bits depend on the BLAS kernel; two identical gene columns (duplicated probes) can then get
    different ``w_j`` and RFE would drop one or the other depending on the machine. Summed by
    numpy (:func:`companion.numerics.ordered_matvec`), identical columns get identical weights and
    RFE's stable ranking drops the lower index first on every machine.
    """
    weights = ordered_matvec(np.asarray(svm.support_vectors_).T, np.asarray(svm.dual_coef_)[0])
    return weights**2


def _genes_used(name, model, n_input):
    if name == "linear_svm":
        return n_input
    if name == "svm_rfe":
        return int(model[-1].support_.sum())
    if name == "l1_logistic":
        return int(np.count_nonzero(model[-1].coef_))
    if name == "adaboost_stumps":
        used = {int(tree.tree_.feature[0]) for tree in model.estimators_ if tree.tree_.feature[0] >= 0}
        return len(used)
    raise ValueError(name)


def _outer_folds(y, config, seed):
    """``(repeat, fold, train, test)`` of every outer fold, in the protocol's order."""
    return [
        (repeat, fold, train, test)
        for repeat in range(config.n_repeats)
        for fold, (train, test) in enumerate(stratified_folds(y, n_splits=config.n_splits, seed=seed + repeat))
    ]


def _fold_rows(X, y, name, config, seed, outer_fold):
    """Rows of one outer fold: every stump variant (by bound and by inner CV) and every competitor.

    Self-contained (its split and seeds come with ``outer_fold``), so folds may run in any order or
    on any worker.
    """
    repeat, fold, train, test = outer_fold
    n_total = X.shape[1]
    rows = []
    X_tr, y_tr, X_te, y_te = X[train], y[train], X[test], y[test]
    keep = welch_t_ranking(X_tr, y_tr, config.n_prefilter)
    base = {"dataset": name, "repeat": repeat, "fold": fold, "n_test": len(test)}
    for variant in STUMP_VARIANTS:
        template = _stump_template(variant, config, n_total)
        by_bound = fit_by_bound(template, X_tr[:, keep], y_tr, config.grid())
        params, size = select_by_inner_cv(
            template, X_tr, y_tr, config.grid(), config.n_prefilter, config.inner_splits,
            seed=seed + 1000 * repeat + fold,
        )
        by_cv = clone(template).set_params(**params).fit(X_tr[:, keep], y_tr)
        by_cv = by_cv.truncated(min(size, by_cv.features_.size))
        for selection, model in (("bound", by_bound), ("cv", by_cv)):
            row = {
                **base, "learner": variant, "selection": selection,
                "errors": int(np.sum(model.predict(X_te[:, keep]) != y_te)),
                "genes": int(np.unique(model.features_).size), "bound": model.bound_,
                "model_type": model.model_type, "p": model.p,
                "gibbs_errors": np.nan, "gibbs_bound": np.nan,
            }
            if variant == "pac_bayes":
                # Expected test errors of the stochastic Gibbs classifier, and its own bound.
                proba = model.gibbs_proba(X_te[:, keep])
                row["gibbs_errors"] = float(np.sum(np.where(y_te == model.classes_[1], 1 - proba, proba)))
                row["gibbs_bound"] = float(model.gibbs_bound_path_[-1])
            rows.append(row)
    for learner, model in _competitors(config, seed).items():
        inputs = slice(None) if learner == "linear_svm" else keep
        model.fit(X_tr[:, inputs], y_tr)
        rows.append({
            **base, "learner": learner, "selection": "-",
            "errors": int(np.sum(model.predict(X_te[:, inputs]) != y_te)),
            "genes": _genes_used(learner, model, X_tr[:, inputs].shape[1]), "bound": np.nan,
            "model_type": "", "p": np.nan, "gibbs_errors": np.nan, "gibbs_bound": np.nan,
        })
    return rows


def _run_loaded_fold(loaded, config, seed, item):
    name, outer_fold = item
    X, y, _ = loaded[name]
    return _fold_rows(X, y, name, config, seed, outer_fold)


def run_dataset(name, config, seed=0, n_jobs=1):
    """Run the outer CV on one data set; returns one row per (repeat, fold, learner).

    Parameters
    ----------
    name : str
        One of :data:`DATASETS`.
    config : ProtocolConfig
    seed : int, default=0
        Seed of the outer folds (``seed + repeat``), the inner folds and the competitors.
    n_jobs : int, default=1
        Outer folds run through :func:`companion.evaluation.parallel_map` (1: serial; -1: all
        local cores; under ``joblib.parallel_backend("dask")``: a Dask cluster). The table does
        not depend on it.
    """
    return run_protocol(replace(config, datasets=(name,)), seed=seed, n_jobs=n_jobs)


def run_protocol(config=None, seed=0, n_jobs=1):
    """:func:`run_dataset` for every data set of ``config``; one long table.

    Parameters
    ----------
    config : ProtocolConfig, optional
        Default: :class:`ProtocolConfig` ``()`` (the notebook's full run).
    seed : int, default=0
    n_jobs : int, default=1
        Every (data set, repeat, outer fold) is one independent item of
        :func:`companion.evaluation.parallel_map` (1: serial; -1: all local cores; under
        ``joblib.parallel_backend("dask")``: a Dask cluster). Each item carries its own split
        and seeds, so the table is identical for every ``n_jobs``.
    """
    config = config or ProtocolConfig()
    loaded = {name: load_dataset(name) for name in config.datasets}
    folds = [_outer_folds(loaded[name][1], config, seed) for name in config.datasets]
    items = [(name, outer) for name, outers in zip(config.datasets, folds) for outer in outers]
    parts = iter(parallel_map(partial(_run_loaded_fold, loaded, config, seed), items, n_jobs=n_jobs))
    # One table per data set, concatenated, exactly as the serial protocol built it.
    tables = [pd.DataFrame([row for _ in outers for row in next(parts)]) for outers in folds]
    return pd.concat(tables, ignore_index=True)


def summarise(results):
    """Per data set and learner: CV error (%), mean genes, mean training-fold bound (%)."""
    grouped = results.groupby(["dataset", "learner", "selection"], sort=False)
    table = grouped.apply(
        lambda g: pd.Series({
            "cv_error_%": 100.0 * g["errors"].sum() / g["n_test"].sum(),
            "genes": g["genes"].mean(),
            "bound_%": 100.0 * g["bound"].mean() if g["bound"].notna().any() else np.nan,
            "gibbs_error_%": 100.0 * g["gibbs_errors"].sum() / g["n_test"].sum()
            if g["gibbs_errors"].notna().any() else np.nan,
            "gibbs_bound_%": 100.0 * g["gibbs_bound"].mean() if g["gibbs_bound"].notna().any() else np.nan,
        }),
        include_groups=False,
    )
    return table.reset_index()


def wide_view(summary):
    """:func:`summarise` output as one learner x data set table per quantity (dict of DataFrames)."""
    label = summary["learner"] + np.where(summary["selection"] == "-", "", " (" + summary["selection"] + ")")
    view = summary.assign(learner=label)
    order = list(dict.fromkeys(view["dataset"]))
    learners = list(dict.fromkeys(view["learner"]))
    return {
        column: view.pivot(index="learner", columns="dataset", values=column).reindex(index=learners, columns=order)
        for column in ("cv_error_%", "genes", "bound_%", "gibbs_error_%", "gibbs_bound_%")
    }


def framework_costs(
    m, n, n_stumps, errors, code_lengths, range_ratios, gibbs_risk=None, compression_errors=None, delta=0.05
):
    """What each framework pays for one conjunction: the complexity terms (nats) and the bounds.

    Parameters
    ----------
    m, n : int
        Training examples and attributes.
    n_stumps : int
        ``|k|``.
    errors : int
        Training errors (for SC: taken as the errors outside the compression set).
    code_lengths : sequence of int
        Occam: dyadic code length of each threshold.
    range_ratios : sequence of float
        PAC-Bayes: ``(B − A)/(b − a)`` of each margin interval.
    gibbs_risk : float, optional
        PAC-Bayes empirical Gibbs risk (default: ``errors / m``).
    compression_errors : int, optional
        SC: errors outside the compression set (default: ``errors``).

    Returns
    -------
    pandas.DataFrame
        One row per framework: attribute choice, threshold cost, data/compression cost, bound.
    """
    k = int(n_stumps)
    gibbs = errors / m if gibbs_risk is None else gibbs_risk
    sc_errors = errors if compression_errors is None else int(compression_errors)
    rows = [
        {
            "framework": "Occam (Thm 2)",
            "attributes + directions": float(log_choose(n, k) + k * np.log(2) - log_zeta(k)),
            "thresholds": float(np.sum(threshold_code_cost(np.asarray(code_lengths)))),
            "sample": 0.0,
            "bound": occam_bound(errors, m, n, code_lengths, delta),
        },
        {
            "framework": "Sample compression (Thm 3)",
            "attributes + directions": compression_log_message(n, k) - float(log_zeta(k)),
            "thresholds": float(log_choose(m, k)),
            "sample": float(log_choose(m - k, sc_errors) - log_zeta(sc_errors)),
            "bound": compression_bound(sc_errors, m, n, k, delta),
        },
        {
            "framework": "PAC-Bayes (Thm 4, Gibbs)",
            "attributes + directions": float(log_choose(n, k) + k * np.log(2) - log_zeta(k)),
            "thresholds": float(np.sum(np.log(range_ratios))),
            "sample": float(np.log(m + 1)),
            "bound": pac_bayes_bound(gibbs, m, n, range_ratios, delta),
        },
    ]
    table = pd.DataFrame(rows).set_index("framework")
    table.insert(3, "total nats", table[["attributes + directions", "thresholds", "sample"]].sum(axis=1))
    assert np.isclose(pac_bayes_kl(n, range_ratios), table.iloc[2, 0] + table.iloc[2, 1])
    return table


def worked_example(n_prefilter=500, s=2, p=1.0, delta=0.05):
    """One SC conjunction on the full Golub data, priced by the three frameworks.

    The same classifier is a compression-set classifier (thresholds = training values), an Occam
    classifier (each threshold coded by the dyadic point of its interval of equivalent thresholds;
    same training errors) and the mean of a PAC-Bayes posterior (thresholds uniform on those
    intervals; Gibbs risk computed exactly).

    Returns
    -------
    model : StumpConjunction
    table : pandas.DataFrame
        :func:`framework_costs` of that classifier.
    """
    X, y, names = load_dataset("leukemia_golub")
    keep = welch_t_ranking(X, y, n_prefilter)
    frame = pd.DataFrame(X[:, keep], columns=names[keep])
    model = StumpConjunction(variant="sc", s=s, p=p, delta=delta, prior_n_features=X.shape[1]).fit(frame, y)
    m, k = len(y), model.features_.size
    wrong = model.predict(frame) != y
    low, high = model.feature_range_[:, model.features_]
    a, b = model.intervals_[:, 0], model.intervals_[:, 1]
    lengths, _ = dyadic_code_lengths(a, b, low, high, closed=False)
    positive = (y == model.classes_[1]).astype(int)
    gibbs = gibbs_risk(frame.to_numpy(), positive, model.features_, a, b, model.directions_)
    outside = int(wrong.sum() - wrong[model.compression_set_].sum())
    table = framework_costs(
        m, X.shape[1], k, int(wrong.sum()), lengths, (high - low) / (b - a),
        gibbs_risk=gibbs, compression_errors=outside, delta=delta,
    )
    return model, table


def golub_genes(config=None, n_prefilter=500):
    """Fit each variant on the full Golub data (selection by bound) and list its genes.

    Returns
    -------
    table : pandas.DataFrame
        One row per (variant, stump): gene name, rule, interval; plus each model's bound.
    models : dict
        The fitted models.
    """
    config = config or ProtocolConfig()
    X, y, names = load_dataset("leukemia_golub")
    keep = welch_t_ranking(X, y, n_prefilter)
    frame = pd.DataFrame(X[:, keep], columns=names[keep])
    rows, models = [], {}
    for variant in STUMP_VARIANTS:
        model = fit_by_bound(_stump_template(variant, config, X.shape[1]), frame, y, config.grid())
        models[variant] = model
        for feature, threshold, direction, (a, b) in zip(
            model.features_, model.thresholds_, model.directions_, model.intervals_
        ):
            rows.append({
                "variant": variant, "model_type": model.model_type, "p": model.p,
                "gene": model.feature_names_in_[feature], "rule": ">" if direction > 0 else "<=",
                "threshold": threshold, "interval": f"[{a:.4g}, {b:.4g}]",
                "training_errors": int(model.training_errors_path_[-1]), "bound": model.bound_,
                "gibbs_bound": float(model.gibbs_bound_path_[-1]) if variant == "pac_bayes" else np.nan,
            })
    return pd.DataFrame(rows), models


def claims_table(summary):
    """Test the paper's two claims per data set from :func:`summarise` output.

    * "far fewer genes at competitive accuracy": the best stump learner's genes and CV error vs.
      the best competitor's (competitive = within 5 percentage points).
    * "tight risk guarantees": bound minus CV error of the bound-selected stump learners.
    """
    rows = []
    for name, part in summary.groupby("dataset", sort=False):
        stumps = part[part["learner"].isin(STUMP_VARIANTS)]
        others = part[part["learner"].isin(COMPETITORS)]
        best_stump = stumps.loc[stumps["cv_error_%"].idxmin()]
        best_other = others.loc[others["cv_error_%"].idxmin()]
        bound_sel = stumps[stumps["selection"] == "bound"]
        tightest = bound_sel.loc[bound_sel["bound_%"].idxmin()]
        rows.append({
            "dataset": name,
            "best stump learner": f"{best_stump['learner']} ({best_stump['selection']})",
            "its error %": best_stump["cv_error_%"], "its genes": best_stump["genes"],
            "best competitor": best_other["learner"],
            "competitor error %": best_other["cv_error_%"], "competitor genes": best_other["genes"],
            "competitive (<= 5 points)": bool(best_stump["cv_error_%"] <= best_other["cv_error_%"] + 5.0),
            "fewer genes": bool(best_stump["genes"] < best_other["genes"]),
            "tightest bound %": tightest["bound_%"], "its CV error %": tightest["cv_error_%"],
            "bound - error (points)": tightest["bound_%"] - tightest["cv_error_%"],
        })
    return pd.DataFrame(rows).set_index("dataset")


def plot_bound_vs_error(summary):
    """Scatter of mean training-fold bound vs. CV error, per stump learner and data set."""
    import matplotlib.pyplot as plt

    data = summary[summary["bound_%"].notna()]
    fig, ax = plt.subplots(figsize=(6.5, 5))
    markers = {"sc": "o", "occam": "s", "pac_bayes": "^"}
    colours = dict(zip(data["dataset"].unique(), plt.cm.tab10.colors))
    for _, row in data.iterrows():
        ax.scatter(
            row["cv_error_%"], row["bound_%"], marker=markers[row["learner"]],
            facecolors=colours[row["dataset"]] if row["selection"] == "bound" else "none",
            edgecolors=colours[row["dataset"]], s=45,
        )
    ax.plot([0, 100], [0, 100], color="grey", lw=0.8, ls="--")
    ax.set_xlim(0, max(45, data["cv_error_%"].max() + 5))
    ax.set_ylim(0, 102)
    ax.set_xlabel("CV test error (%)")
    ax.set_ylabel("risk bound on the training folds (%, δ = 0.05)")
    for learner, marker in markers.items():
        ax.scatter([], [], marker=marker, color="k", label=learner)
    for name, colour in colours.items():
        ax.scatter([], [], marker="o", color=colour, label=name)
    ax.legend(fontsize=7, ncol=2, title="filled: chosen by bound; open: by inner CV", title_fontsize=7)
    fig.tight_layout()
    return fig
