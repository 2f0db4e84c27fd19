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
:func:`run` (``Config`` in, the tidy frame of :mod:`companion.experiments.protocol` out) sends
them through :func:`companion.evaluation.parallel_map` (``n_jobs``; default 1, serial); the numbers
do not depend on ``n_jobs``.
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
from companion.datasets import RegisteredDataset
from companion.evaluation import parallel_map, stratified_folds
from companion.experiments.protocol import check_tidy
from companion.numerics import ordered_matvec
from companion.stumps import STUMP_LEARNERS, OccamStumps, PacBayesStumps, SetCoveringStumps, fit_by_bound

__all__ = [
    "DATASETS",
    "Config",
    "run",
    "folds_table",
    "load_dataset",
    "welch_t_ranking",
    "select_by_inner_cv",
    "summarise",
    "wide_view",
    "framework_costs",
    "worked_example",
    "golub_genes",
    "claims_table",
    "plot_bound_vs_error",
    "declared_feature_range",
    "run_all_genes",
    "corrected_paired_interval",
    "paired_differences",
    "all_genes_summary",
    "gene_frequency",
    "margin_sweep",
    "plot_margin_sweep",
    "plot_gibbs_bound_vs_error",
    "occam_tradeoff",
    "plot_occam_tradeoff",
    "restated_claims",
]

#: name -> :class:`companion.datasets.RegisteredDataset` (loader, options, note). Labels are the
#: loaders' own.
DATASETS = {
    "colon": RegisteredDataset(datasets.load_colon, note="Alon et al. 1999, tumour vs normal"),
    "leukemia_golub": RegisteredDataset(datasets.load_golub, note="Golub et al. 1999, ALL vs AML"),
    "c_md": RegisteredDataset(datasets.load_c_md, note="Pomeroy et al. 2002 set C, outcome"),
    "breast_er": RegisteredDataset(datasets.load_breast_er, note="West et al. 2001, ER status"),
    "prostate": RegisteredDataset(datasets.load_prostate, note="Singh et al. 2002 (not confirmed in Paper 05)"),
    "lung_gordon": RegisteredDataset(datasets.load_lung_gordon,
                                     note="Gordon et al. 2002: a STAND-IN for the paper's Lung set"),
    "all_bioc": RegisteredDataset(datasets.load_all_bioc, {"lineage": True}, "Chiaretti et al. 2004, B vs T lineage"),
}

STUMP_VARIANTS = ("sc", "occam", "pac_bayes")
COMPETITORS = ("linear_svm", "svm_rfe", "l1_logistic", "adaboost_stumps")


@dataclass(frozen=True)
class Config:
    """Everything :func:`run`'s numbers depend on; ``Config()`` is the notebook's full run.

    The defaults are sized for ~4 min on one core; :meth:`fast` is the notebook's smoke run.
    ``seed`` seeds the outer folds (``seed + repeat``), the inner folds
    (``seed + 1000 * repeat + fold``) and the competitors.
    """

    seed: int = 0
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
    #: ``"dataset"``: the Occam/PAC-Bayes priors' ``[A_k, B_k]`` is :func:`declared_feature_range`
    #: of the whole data set (fixed before any training fold is drawn); ``"training"``: the
    #: training fold's min/max (sample-dependent: the protocol before issue 15).
    prior_range: str = "dataset"

    def grid(self):
        return {"p": list(self.p_grid), "model_type": list(self.model_types)}

    @classmethod
    def fast(cls):
        """The notebook's ``fast=True`` run: two data sets, 3 outer folds, one ``p``."""
        return cls(n_splits=3, inner_splits=2, n_prefilter=40, s_max=3, p_grid=(1.0,), adaboost_rounds=10,
                   datasets=("colon", "leukemia_golub"))


def load_dataset(name):
    """``(X, y, gene_names)`` as numpy arrays for one of :data:`DATASETS`."""
    if name not in DATASETS:
        raise ValueError(f"unknown data set {name!r}; expected one of {sorted(DATASETS)}")
    X, y = DATASETS[name].load()
    return X.to_numpy(dtype=float), np.asarray(y.astype(str)), np.asarray(X.columns, dtype=str)


def declared_feature_range(X):
    """``[A_k, B_k]`` declared for a data set: each gene's min and max over *all* its examples.

    Paper 05 (Section II) takes ``A_k, B_k`` as "the a priori lower and upper bounds on values for
    ``x_k``", "obtained from the definition of data". The vendored files carry no platform range,
    so we declare the range of the whole published data set (every example, labels unused) as the
    data's definition; it is computed once, before any cross-validation split, so on every
    training fold the priors are the same, whatever the fold holds. (The training fold's own
    min/max, used before, changes with the sample and so is no valid prior.)

    Returns
    -------
    ndarray of shape (2, n_genes)
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[0] == 0:
        raise ValueError(f"X must be a non-empty 2-D array, got shape {X.shape}")
    return np.vstack([X.min(axis=0), X.max(axis=0)])


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
    """The unfitted learner of ``variant`` (a key of :data:`companion.stumps.STUMP_LEARNERS`)."""
    own = {"sc": {}, "occam": {"eta": config.eta},
           "pac_bayes": {"eta": config.eta, "margin_gaps": config.margin_gaps, "gap_unit": "example"}}
    return STUMP_LEARNERS[variant](s=config.s_max, delta=config.delta, prior_n_features=int(n_total), length="greedy",
                                   stop_idle=False, **own[variant])


def _ranges(X, config):
    """Prior ranges of every gene for ``config.prior_range`` (None: the training fold's min/max)."""
    if config.prior_range == "dataset":
        return declared_feature_range(X)
    if config.prior_range == "training":
        return None
    raise ValueError(f"prior_range must be 'dataset' or 'training', got {config.prior_range!r}")


def _columns(ranges, keep):
    return None if ranges is None else ranges[:, keep]


def select_by_inner_cv(template, X, y, grid, n_prefilter, inner_splits, seed, feature_range=None):
    """Choose grid point and number of stumps by inner stratified CV (prefilter redone per fold).

    Uses the prefix property of the greedy: one fit per (inner fold, grid point) gives the
    predictions of every ``1 ≤ s ≤ s_max`` through ``staged_predict`` (and ``truncated(0)`` those
    of the empty conjunction, ``s = 0``).

    ``feature_range`` (shape (2, n_genes), optional): the priors' ranges of all genes, sliced to
    the kept genes in every inner fold.

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
            model = clone(template).set_params(**params, feature_range=_columns(feature_range, keep))
            model.fit(X[train][:, keep], y[train])
            X_test = X[test][:, keep]
            stages = [model.truncated(0).predict(X_test), *model.staged_predict(X_test)]
            wrong = np.array([np.sum(stage != y[test]) for stage in stages])
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
    ranges = _ranges(X, config)  # the whole data set's, fixed before the split (labels unused)
    base = {"dataset": name, "repeat": repeat, "fold": fold, "n_test": len(test)}
    for variant in STUMP_VARIANTS:
        template = _stump_template(variant, config, n_total).set_params(feature_range=_columns(ranges, keep))
        by_bound = fit_by_bound(template, X_tr[:, keep], y_tr, config.grid())
        params, size = select_by_inner_cv(
            template, X_tr, y_tr, config.grid(), config.n_prefilter, config.inner_splits,
            seed=seed + 1000 * repeat + fold, feature_range=ranges,
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
                row.update(_gibbs_columns(model, X_te[:, keep], y_te))
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


#: The columns of ``figures/05_protocol_folds.csv`` (:func:`folds_table`), in order.
FOLDS_COLUMNS = ["dataset", "repeat", "fold", "n_test", "learner", "selection", "errors", "genes", "bound",
                 "model_type", "p", "gibbs_errors", "gibbs_bound"]


def run(config: Config, n_jobs=1) -> pd.DataFrame:
    """The outer CV of every data set of ``config``: stump learners (by bound, by inner CV), competitors.

    Parameters
    ----------
    config : Config
    n_jobs : int, default=1
        Every (data set, repeat, outer fold) is one independent item of
        :func:`companion.evaluation.parallel_map` (1: serial; -1: all local cores; under
        ``joblib.parallel_backend("dask")``: a Dask cluster), carrying its own split and seeds:
        the frame does not depend on ``n_jobs``.

    Returns
    -------
    pandas.DataFrame
        Tidy (:func:`companion.experiments.protocol.check_tidy`): one row per ``dataset`` (a key
        of :data:`DATASETS`), ``method`` (``"<learner>/<selection>"`` for a stump learner, e.g.
        ``"sc/bound"``, ``"occam/cv"``; the competitor's name, e.g. ``"linear_svm"``), ``seed``
        (the seed of the repeat's outer fold split: ``config.seed + repeat``) and ``fold``
        (0-based outer fold). Other columns: ``repeat``, ``n_test``, ``learner``, ``selection``
        (``"bound"``, ``"cv"``, or ``"-"`` for a competitor), test ``errors``, ``genes`` used,
        the training-fold ``bound``, the chosen ``model_type`` and ``p``, and the PAC-Bayes Gibbs
        classifier's expected test errors ``gibbs_errors`` and its bound ``gibbs_bound``.
        :func:`folds_table` gives the layout of ``05_protocol_folds.csv``.
    """
    seed = config.seed
    loaded = {name: load_dataset(name) for name in config.datasets}
    folds = [_outer_folds(loaded[name][1], config, seed) for name in config.datasets]
    items = [(name, outer) for name, outers in zip(config.datasets, folds) for outer in outers]
    parts = iter(parallel_map(partial(_run_loaded_fold, loaded, config, seed), items, n_jobs=n_jobs))
    # One table per data set, concatenated, exactly as the serial protocol built it (the dtypes
    # of the folds CSV follow from it).
    tables = [pd.DataFrame([row for _ in outers for row in next(parts)]) for outers in folds]
    frame = pd.concat(tables, ignore_index=True)
    frame["method"] = frame["learner"].where(frame["selection"] == "-", frame["learner"] + "/" + frame["selection"])
    frame["seed"] = seed + frame["repeat"]
    keys = ["dataset", "method", "seed", "fold"]
    return check_tidy(frame[keys + [c for c in frame.columns if c not in keys]])


def folds_table(results: pd.DataFrame) -> pd.DataFrame:
    """:func:`run`'s frame in the layout of ``figures/05_protocol_folds.csv``: :data:`FOLDS_COLUMNS`."""
    return results[FOLDS_COLUMNS].reset_index(drop=True)


def summarise(results):
    """Per data set, learner and selection of :func:`run`'s frame: CV error (%), mean genes, mean
    training-fold bound (%), and the PAC-Bayes Gibbs classifier's CV error and mean bound (%)."""
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
    model : SetCoveringStumps
    table : pandas.DataFrame
        :func:`framework_costs` of that classifier.
    """
    X, y, names = load_dataset("leukemia_golub")
    keep = welch_t_ranking(X, y, n_prefilter)
    frame = pd.DataFrame(X[:, keep], columns=names[keep])
    model = SetCoveringStumps(s=s, p=p, delta=delta, prior_n_features=X.shape[1], length="greedy", stop_idle=False).fit(frame, y)
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
    config = config or Config()
    X, y, names = load_dataset("leukemia_golub")
    keep = welch_t_ranking(X, y, n_prefilter)
    frame = pd.DataFrame(X[:, keep], columns=names[keep])
    rows, models = [], {}
    ranges = declared_feature_range(X)[:, keep]  # the full data set's: here the training set's too
    for variant in STUMP_VARIANTS:
        template = _stump_template(variant, config, X.shape[1]).set_params(feature_range=ranges)
        model = fit_by_bound(template, frame, y, config.grid())
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


# --------------------------------------------------------------------------------------------
# Issue 15: the paper's learners on every gene, repeated CV, trade-offs, learnt genes
# --------------------------------------------------------------------------------------------

#: Data sets of the all-genes protocol: the two the recovered text names (Golub carries probe names).
ALL_GENES_DATASETS = ("colon", "leukemia_golub")


def _all_genes_fold_rows(loaded, config, seed, item, costly_p=None):
    """Rows of one outer fold of :func:`run_all_genes` (self-contained: split and seeds travel with it)."""
    import time

    name, (repeat, fold, train, test) = item
    X, y, names = loaded[name]
    ranges = declared_feature_range(X)
    X_tr, y_tr, X_te, y_te = X[train], y[train], X[test], y[test]
    base = {"dataset": name, "repeat": repeat, "fold": fold, "n_test": len(test)}
    empty = {"bound": np.nan, "gibbs_errors": np.nan, "gibbs_bound": np.nan, "model_type": "", "p": np.nan,
             "rule": "", "gene_names": ""}
    rows = []
    keep = welch_t_ranking(X_tr, y_tr, config.n_prefilter)
    for variant, inputs in [(v, "all") for v in STUMP_VARIANTS] + [("sc", "prefilter")]:
        columns = slice(None) if inputs == "all" else keep
        template = _stump_template(variant, config, X.shape[1]).set_params(feature_range=ranges[:, columns])
        grid = config.grid()
        if variant != "sc" and costly_p is not None:
            grid = {**grid, "p": list(costly_p)}
        start = time.perf_counter()
        model = fit_by_bound(template, X_tr[:, columns], y_tr, grid)
        seconds = time.perf_counter() - start
        used = np.asarray(names[columns])[model.features_]
        row = {
            **base, **empty, "learner": variant if inputs == "all" else f"{variant} ({config.n_prefilter} genes)",
            "errors": int(np.sum(model.predict(X_te[:, columns]) != y_te)), "genes": int(used.size),
            "bound": model.bound_, "model_type": model.model_type, "p": model.p,
            "rule": model.to_text(feature_names=list(names[columns])), "gene_names": ";".join(used),
            "fit_seconds": seconds,
        }
        if variant == "pac_bayes":
            row.update(_gibbs_columns(model, X_te[:, columns], y_te))
        rows.append(row)
    for learner, model in _competitors(config, seed).items():
        inputs = slice(None) if learner == "linear_svm" else keep
        start = time.perf_counter()
        model.fit(X_tr[:, inputs], y_tr)
        seconds = time.perf_counter() - start
        rows.append({
            **base, **empty, "learner": learner,
            "errors": int(np.sum(model.predict(X_te[:, inputs]) != y_te)),
            "genes": _genes_used(learner, model, X_tr[:, inputs].shape[1]), "fit_seconds": seconds,
        })
    return rows


def run_all_genes(config=None, datasets=ALL_GENES_DATASETS, n_repeats=5, seed=None, n_jobs=1, costly_p=(1.0,)):
    """The bound-selected learners as the paper runs them: on every gene, no prefilter, no inner CV.

    Repeated stratified ``config.n_splits``-fold CV (``n_repeats`` repetitions, fold seeds
    ``seed + repeat``; ``seed`` defaults to ``config.seed``). On each training fold, SC, Occam and
    PAC-Bayes choose ``p``, conjunction vs disjunction (paying ``ln 2``, :func:`companion.stumps.fit_by_bound`) and the number of stumps by
    their bound, on all genes, with the priors' ranges :func:`declared_feature_range` of the whole
    data set. Beside them, on the same folds: SC on the ``config.n_prefilter`` Welch-filtered genes
    (what the prefilter changes) and the competitors of :func:`run` (the Welch prefilter
    is kept only for those that need it: SVM-RFE, L1-logistic, AdaBoost; the linear SVM takes all
    genes).

    ``costly_p``: the ``p`` grid of Occam and PAC-Bayes here (default ``(1.0,)``, the value at which
    the PAC-Bayes utility follows its bound exactly; on 7129 genes each grid point costs a greedy
    fit, so the full ``config.p_grid`` would triple their time); ``None``: ``config.p_grid``. SC
    keeps ``config.p_grid`` (its fit takes about a tenth of a second).

    Returns
    -------
    pandas.DataFrame
        One row per (data set, repeat, fold, learner): test errors, genes, bound, the rule with the
        genes' names (``rule``; ``gene_names`` joined by ``;``), the Gibbs classifier's expected
        test errors and bound (PAC-Bayes), and ``fit_seconds`` (wall time of the fit, selection
        included: volatile, never compared). Identical for every ``n_jobs`` except ``fit_seconds``.
    """
    config = config or Config()
    seed = config.seed if seed is None else seed
    if isinstance(n_repeats, bool) or not isinstance(n_repeats, (int, np.integer)) or n_repeats < 1:
        raise ValueError(f"n_repeats must be an integer >= 1, got {n_repeats!r}")
    loaded = {name: load_dataset(name) for name in datasets}
    cfg = replace(config, n_repeats=int(n_repeats))
    items = [(name, outer) for name in datasets for outer in _outer_folds(loaded[name][1], cfg, seed)]
    parts = parallel_map(partial(_all_genes_fold_rows, loaded, cfg, seed, costly_p=costly_p), items, n_jobs=n_jobs)
    return pd.DataFrame([row for part in parts for row in part])


def corrected_paired_interval(differences, n_train, n_test, level=0.95):
    """Mean and corrected resampled-t interval of paired per-fold differences (Nadeau & Bengio 2003).

    ``r × k``-fold CV reuses every example, so the fold differences are correlated and the plain
    t interval is too narrow; Nadeau & Bengio's correction inflates the variance of the mean from
    ``σ²/J`` to ``(1/J + n_test/n_train) σ²`` (``J`` folds in all), with ``J − 1`` degrees of freedom.

    Returns
    -------
    mean, low, high : float
    """
    from scipy import stats

    d = np.asarray(differences, dtype=float)
    if d.ndim != 1 or d.size < 2:
        raise ValueError(f"need at least two paired differences, got {d.size}")
    if n_train <= 0 or n_test <= 0:
        raise ValueError(f"n_train and n_test must be positive, got {n_train}, {n_test}")
    mean = float(d.mean())
    half = float(stats.t.ppf(0.5 + level / 2, d.size - 1)) * np.sqrt((1 / d.size + n_test / n_train) * d.var(ddof=1))
    return mean, mean - half, mean + half


def paired_differences(results, learners=STUMP_VARIANTS, margin=5.0):
    """Each stump learner against each competitor on the same folds: difference of test error (points).

    Per data set and pair, the per-fold differences of error rate (%, stump − competitor), their
    mean over all ``repeats × folds`` and a 95 % corrected resampled-t interval
    (:func:`corrected_paired_interval`). ``competitive`` says the interval's upper end is at most
    ``margin`` points (the "within 5 points" of the claims, now with its uncertainty);
    ``worse``/``better``: the interval excludes 0.
    """
    rows = []
    for name, part in results.groupby("dataset", sort=False):
        rate = part.assign(rate=100.0 * part["errors"] / part["n_test"]).pivot_table(
            index=["repeat", "fold"], columns="learner", values="rate"
        )
        n_test = part.groupby(["repeat", "fold"])["n_test"].first()
        n_total = int(n_test.groupby("repeat").sum().iloc[0])
        mean_test = float(n_test.mean())
        for learner in learners:
            for other in COMPETITORS:
                d = (rate[learner] - rate[other]).to_numpy()
                mean, low, high = corrected_paired_interval(d, n_total - mean_test, mean_test)
                rows.append({
                    "dataset": name, "stump learner": learner, "competitor": other,
                    "stump fold error %": float(rate[learner].mean()),
                    "competitor fold error %": float(rate[other].mean()),
                    "difference": mean, "95% low": low, "95% high": high,
                    "competitive": bool(high <= margin), "worse": bool(low > 0), "better": bool(high < 0),
                })
    return pd.DataFrame(rows)


def all_genes_summary(results):
    """Per data set and learner: CV error (%) with its spread over repeats, genes, bounds (means)."""
    rows = []
    for (name, learner), g in results.groupby(["dataset", "learner"], sort=False):
        per_repeat = 100.0 * g.groupby("repeat")["errors"].sum() / g.groupby("repeat")["n_test"].sum()
        rows.append({
            "dataset": name, "learner": learner, "cv_error_%": float(per_repeat.mean()),
            "sd over repeats": float(per_repeat.std(ddof=1)) if per_repeat.size > 1 else np.nan,
            "genes": float(g["genes"].mean()),
            "bound_%": 100.0 * g["bound"].mean() if g["bound"].notna().any() else np.nan,
            "gibbs_error_%": 100.0 * g["gibbs_errors"].sum() / g["n_test"].sum()
            if g["gibbs_errors"].notna().any() else np.nan,
            "gibbs_bound_%": 100.0 * g["gibbs_bound"].mean() if g["gibbs_bound"].notna().any() else np.nan,
        })
    return pd.DataFrame(rows)


def gene_frequency(results, learners=STUMP_VARIANTS, top=10):
    """How often each gene is chosen across the outer folds, per data set and learner (top ``top``)."""
    rows = []
    for (name, learner), g in results[results["learner"].isin(learners)].groupby(["dataset", "learner"], sort=False):
        genes = pd.Series([gene for text in g["gene_names"] for gene in text.split(";") if gene])
        counts = genes.value_counts(sort=False).rename_axis("gene").reset_index(name="folds")
        # Ties: more folds first, then the gene's name (deterministic).
        counts = counts.sort_values(["folds", "gene"], ascending=[False, True], kind="stable").head(top)
        rows.extend({"dataset": name, "learner": learner, "gene": r.gene, "folds": int(r.folds),
                     "of folds": len(g)} for r in counts.itertuples())
    return pd.DataFrame(rows)


def margin_sweep(name="leukemia_golub", gaps=(1, 2, 4, 8, 16, 32), config=None, p=1.0, model_type="conjunction"):
    """PAC-Bayes on the full data set (all genes), one margin width at a time: Gibbs bound along the path.

    Every candidate margin interval is ``[v_j, v_{j+g}]`` (``g`` sorted positions wide); one fit per
    ``g`` with ``margin_gaps=(g,)``, so the bound's margin–sparsity trade-off (Section V: a wider
    margin costs less KL but lets more examples be misclassified stochastically) is read off along
    two axes: the margin width and the number of stumps.

    Returns
    -------
    pandas.DataFrame
        One row per (gap, number of stumps): empirical Gibbs risk, Gibbs bound, mean
        ``ln((B−A)/(b−a))`` of the stumps so far.
    """
    config = config or Config()
    X, y, names = load_dataset(name)
    rows = []
    for gap in gaps:
        model = PacBayesStumps(
            s=config.s_max, p=p, eta=config.eta, delta=config.delta, model_type=model_type,
            margin_gaps=(int(gap),), prior_n_features=X.shape[1], feature_range=declared_feature_range(X),
            length="greedy", stop_idle=False, gap_unit="example",
        ).fit(X, y)
        low, high = model.feature_range_[:, model.features_]
        log_ratio = np.log((high - low) / (model.intervals_[:, 1] - model.intervals_[:, 0]))
        for size in range(model.features_.size + 1):
            rows.append({
                "gap": int(gap), "stumps": size, "gibbs_risk": float(model.gibbs_risk_path_[size]),
                "gibbs_bound": float(model.gibbs_bound_path_[size]),
                "mean_log_range_ratio": float(log_ratio[:size].mean()) if size else 0.0,
            })
    return pd.DataFrame(rows)


def plot_margin_sweep(sweep):
    """Gibbs bound against margin width (best prefix per width) and against the number of stumps."""
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    best = sweep.loc[sweep.groupby("gap")["gibbs_bound"].idxmin()]
    left.plot(best["gap"], 100 * best["gibbs_bound"], "o-", label="Gibbs bound (best number of stumps)")
    left.plot(best["gap"], 100 * best["gibbs_risk"], "s--", label="empirical Gibbs risk there")
    left.set_xscale("log", base=2)
    left.set_xlabel("margin width g (sorted training positions)")
    left.set_ylabel("%")
    left.legend(fontsize=8)
    for gap, part in sweep.groupby("gap"):
        right.plot(part["stumps"], 100 * part["gibbs_bound"], "o-", label=f"g = {gap}")
    right.set_xlabel("number of stumps")
    right.set_ylabel("Gibbs bound (%, δ = 0.05)")
    right.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    return fig


def plot_gibbs_bound_vs_error(results):
    """Per outer fold: the PAC-Bayes Gibbs bound on the training fold against the Gibbs test error."""
    import matplotlib.pyplot as plt

    data = results[results["learner"] == "pac_bayes"]
    fig, ax = plt.subplots(figsize=(5.5, 4.5))
    for (name, part), colour in zip(data.groupby("dataset", sort=False), plt.cm.tab10.colors):
        ax.scatter(100 * part["gibbs_errors"] / part["n_test"], 100 * part["gibbs_bound"], s=14, alpha=0.6,
                   color=colour, label=name)
    ax.plot([0, 100], [0, 100], color="grey", lw=0.8, ls="--")
    top = float(100 * data["gibbs_bound"].max()) + 5
    ax.set_xlim(-2, top)
    ax.set_ylim(0, top)
    ax.set_xlabel("Gibbs classifier's expected test error on the fold (%)")
    ax.set_ylabel("Gibbs bound on the training fold (%, δ = 0.05)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def occam_tradeoff(name="leukemia_golub", etas=(0.0, 0.25, 0.5, 1.0, 2.0, 4.0), config=None, p=1.0,
                   model_type="conjunction"):
    """Occam on the full data set (all genes) for several code weights ``η``: stumps, code bits, bound.

    ``η`` weighs the threshold's code length in the greedy's utility; small ``η`` buys stumps that
    cover many examples with thresholds that need long codes, large ``η`` prefers short codes
    (wide intervals of equivalent thresholds). Each row is the bound-minimising prefix.
    """
    config = config or Config()
    X, y, _ = load_dataset(name)
    rows = []
    for eta in etas:
        model = OccamStumps(
            s=config.s_max, p=p, eta=float(eta), delta=config.delta, model_type=model_type,
            prior_n_features=X.shape[1], feature_range=declared_feature_range(X), length="greedy", stop_idle=False,
        ).fit(X, y)
        for size in range(model.features_.size + 1):
            codes = model.code_lengths_[:size]
            rows.append({
                "eta": float(eta), "stumps": size, "code bits": int(codes.sum()),
                "bits per stump": float(codes.mean()) if size else 0.0,
                "training errors": int(model.training_errors_path_[size]), "bound": float(model.bound_path_[size]),
            })
    return pd.DataFrame(rows)


def plot_occam_tradeoff(tradeoff):
    """Occam bound along the greedy path for each code weight ``η`` (labels: total code bits)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for eta, part in tradeoff.groupby("eta"):
        ax.plot(part["stumps"], 100 * part["bound"], "o-", label=f"η = {eta:g}")
        last = part.iloc[-1]
        ax.annotate(f"{int(last['code bits'])} bits", (last["stumps"], 100 * last["bound"]), fontsize=7,
                    xytext=(3, 3), textcoords="offset points")
    ax.set_xlabel("number of stumps")
    ax.set_ylabel("Occam bound (%, δ = 0.05)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def restated_claims(paired, summary):
    """The two claims from repeated CV: each bound-selected stump learner against the best competitor.

    Per data set and stump learner: the competitor with the lowest mean fold error, the paired
    difference (points) with its 95 % corrected interval, whether the interval's upper end is within
    5 points, the genes of each, and the learner's mean training-fold bound minus its CV error.
    """
    best = paired.loc[paired.groupby(["dataset", "stump learner"], sort=False)["competitor fold error %"].idxmin()]
    stats_ = summary.set_index(["dataset", "learner"])
    rows = []
    for _, r in best.iterrows():
        mine, theirs = stats_.loc[(r["dataset"], r["stump learner"])], stats_.loc[(r["dataset"], r["competitor"])]
        rows.append({
            "dataset": r["dataset"], "stump learner": r["stump learner"], "best competitor": r["competitor"],
            "difference": r["difference"], "95% low": r["95% low"], "95% high": r["95% high"],
            "competitive (upper <= 5)": r["competitive"], "genes": mine["genes"],
            "competitor genes": theirs["genes"], "bound %": mine["bound_%"],
            "bound - CV error": mine["bound_%"] - mine["cv_error_%"],
            "gibbs bound - gibbs error": mine["gibbs_bound_%"] - mine["gibbs_error_%"],
        })
    return pd.DataFrame(rows)


def _gibbs_columns(model, X_test, y_test) -> dict:
    """Expected test errors of a PAC-Bayes model's stochastic Gibbs classifier, and its own bound."""
    proba = model.gibbs_proba(X_test)
    return {
        "gibbs_errors": float(np.sum(np.where(y_test == model.classes_[1], 1 - proba, proba))),
        "gibbs_bound": float(model.gibbs_bound_path_[-1]),
    }
