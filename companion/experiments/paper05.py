"""Protocol of notebook 05: stump conjunctions (SC, Occam, PAC-Bayes) on microarrays vs. their competitors.

Shah, Marchand & Corbeil, TPAMI 2012 (Paper 05). The paper's experimental section (its protocol,
grids and tables) is lost, so this module runs a protocol built from what Section I sets out to
do ("an accurate classifier that depends on the smallest possible number of attributes", with
"realizable guarantees") and from Ambroise & McLachlan (2002) on selection bias:

* repeated stratified 10-fold CV (:attr:`Config.n_repeats` × :attr:`Config.n_splits`) on all
  seven data sets; on each training fold, and only there, the search is narrowed to the
  ``n_prefilter`` genes of largest |Welch t|; the bounds charge all ``n`` genes (they hold
  uniformly over every conjunction on the ``n`` genes, so a label-driven narrowing costs nothing);
* SC, Occam and PAC-Bayes choose ``p``, conjunction/disjunction (at ``ln 2``) and the number of
  stumps by their bound (Sections III–V); beside them each learner's best model with exactly
  ``k`` stumps (``k`` in :attr:`Config.matched_k`), chosen by the same bound; the ``stumps`` row
  of a fold is the learner whose training-fold bound is smallest (:func:`_selected_stumps`);
* competitors: a linear SVM on all genes, SVM-RFE to 16 genes, L1-logistic regression, AdaBoost
  on decision stumps, and the two gene selectors Section I names, nearest shrunken centroids
  (Tibshirani et al. 2003) and BAHSIC (Song et al. 2007) (:mod:`._paper05_peers`); at matched
  sparsity the first ``k`` genes of the L1-logistic path, SVM-RFE, BAHSIC to ``k`` genes and
  AdaBoost with ``k`` stumps. The ``competitor`` row of a fold is the one with the fewest errors
  on inner folds of the training fold (:func:`_selected_competitors`), so no choice on either
  side reads a test fold;
* the priors' range ``[A_k, B_k]`` (Sections II–V, "obtained from the definition of the data") is
  :func:`declared_feature_range`, a constant per data set that no fold can move; the ranges taken
  from the whole data set (per gene, or one for all genes) are protocol variants
  (:func:`prior_feature_range`), run on the same folds; the fold seed is another
  (:func:`seed_configs`).

The claims are data, ``registry/paper05.toml`` (the paper's sentences, quoted, and the criteria
fixed before the results); :func:`measures` measures them and :func:`claims_report` decides them
with :mod:`companion.claims`.

Everything is seeded. The outer folds are independent (each carries its own split and seeds), so
:func:`run` sends them through :func:`companion.evaluation.parallel_map` (``n_jobs``); the numbers
do not depend on ``n_jobs``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field, replace
from functools import partial

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.ensemble import AdaBoostClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import ParameterGrid
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, l1_min_c
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import safe_sqr

import companion.datasets as datasets
from companion.bounds.compression import compression_bound, compression_log_message
from companion.bounds.occam import dyadic_code_lengths, log_choose, log_zeta, occam_bound, threshold_code_cost
from companion.bounds.pac_bayes import gibbs_risk, pac_bayes_bound, pac_bayes_kl
from companion.datasets import RegisteredDataset
from companion.evaluation import parallel_map, stratified_folds, trusted_inputs
from companion.experiments._paper05_peers import NSC_THRESHOLDS, bahsic_order, nsc_path
from companion.experiments.protocol import check_tidy
from companion.numerics import TIE_RTOL, first_near_min, ordered_matvec
from companion.prose import Markdown, render
from companion.interpretable import SingleClassWarning
from companion.stumps import STUMP_LEARNERS, OccamStumps, PacBayesStumps, SetCoveringStumps, fit_by_bound

__all__ = [
    "DATASETS",
    "DECLARED_RANGES",
    "PRIORS",
    "STUMP_VARIANTS",
    "COMPETITORS",
    "Config",
    "load_dataset",
    "declared_feature_range",
    "prior_feature_range",
    "welch_t_ranking",
    "linear_svm_importance",
    "run",
    "summary_table",
    "matched_table",
    "per_fold",
    "chosen_summary",
    "corrected_paired_interval",
    "gene_frequency",
    "measures",
    "seed_configs",
    "run_seed_variants",
    "claims_report",
    "discussion",
    "framework_costs",
    "worked_example",
    "golub_genes",
    "margin_sweep",
    "plot_margin_sweep",
    "occam_tradeoff",
    "plot_occam_tradeoff",
    "plot_bound_vs_error",
    "plot_matched_sparsity",
    "plot_gibbs_bound_vs_error",
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
#: The competitors: four standard learners and the two gene selectors Section I names (NSC, BAHSIC).
COMPETITORS = ("linear_svm", "svm_rfe", "l1_logistic", "adaboost_stumps", "nsc", "bahsic")
#: The competitors that can be restricted to ``k`` genes (L1 path, RFE to k, k boosting rounds, BAHSIC to k).
MATCHED_COMPETITORS = ("l1_logistic", "svm_rfe", "adaboost_stumps", "bahsic")

#: Raw Affymetrix values as published (MAS average differences and intensities): the scanner's
#: 16-bit scale, times a global scaling factor of up to 4, signed (average differences are
#: differences of probe intensities). One envelope for all five raw sets.
_RAW_AFFYMETRIX = (-(2.0**18), 2.0**18)

#: ``[A, B]`` of every gene of each data set, declared from the published data's definition
#: (data/README.md describes each file), never from its values. ``breast_er``: every sample is
#: standardised over its 7129 genes, and a standardised value of ``n`` numbers lies within
#: ``±√(n − 1)`` (Samuelson's inequality); ``all_bioc``: RMA values are log2 of 16-bit intensities.
DECLARED_RANGES = {
    "colon": _RAW_AFFYMETRIX,
    "leukemia_golub": _RAW_AFFYMETRIX,
    "c_md": _RAW_AFFYMETRIX,
    "breast_er": (-float(np.sqrt(7128.0)), float(np.sqrt(7128.0))),
    "prostate": _RAW_AFFYMETRIX,
    "lung_gordon": _RAW_AFFYMETRIX,
    "all_bioc": (0.0, 16.0),
}

#: The priors' ranges the protocol runs: the declared one (main) and two taken from the whole data
#: set (every example, training folds included), the sensitivity variants of the claims.
PRIORS = ("declared", "per_gene", "global")


@dataclass(frozen=True)
class Config:
    """Everything :func:`run`'s numbers depend on; ``Config()`` is the notebook's full run.

    Parameters
    ----------
    seed : int, default=0
        Seeds the outer folds (``seed + repeat``) and the competitors.
    n_repeats, n_splits : int, default=2, 10
        Repetitions of stratified ``n_splits``-fold CV.
    n_prefilter : int, default=100
        Genes of largest in-fold |Welch t| the search sees (the bounds charge every gene).
    s_max : int, default=5
        Longest conjunction tried.
    p_grid : tuple of float, default=(0.5, 1.0, 2.0)
        SC's ``p`` grid.
    costly_p : tuple of float, default=(1.0,)
        Occam's and PAC-Bayes' ``p`` grid (``p = 1``: the PAC-Bayes utility follows its bound).
    model_types : tuple of str, default=("conjunction", "disjunction")
        Chosen by the bound at ``ln 2`` (:func:`companion.stumps.fit_by_bound`).
    eta : float, default=1.0
        Code weight of the Occam and PAC-Bayes utilities.
    delta : float, default=0.05
        Confidence of every bound.
    rfe_genes : int, default=16
        Genes SVM-RFE keeps (unrestricted competitor).
    adaboost_rounds : int, default=25
        Boosting rounds (unrestricted competitor).
    margin_gaps : tuple of int, default=(1, 4)
        PAC-Bayes margin widths (sorted training positions).
    matched_k : tuple of int, default=(1, 2, 3)
        Numbers of genes of the matched comparison.
    priors : tuple of str, default=PRIORS
        Prior ranges run for Occam and PAC-Bayes (:data:`PRIORS`; the first is the main one).
    datasets : tuple of str, default=every key of DATASETS
        Data sets run.
    inner_splits : int, default=3
        Inner stratified folds of each training fold on which the competitor of each ``k`` and
        NSC's threshold are chosen.
    """

    seed: int = 0
    n_repeats: int = 2
    n_splits: int = 10
    n_prefilter: int = 100
    s_max: int = 5
    p_grid: tuple = (0.5, 1.0, 2.0)
    costly_p: tuple = (1.0,)
    model_types: tuple = ("conjunction", "disjunction")
    eta: float = 1.0
    delta: float = 0.05
    rfe_genes: int = 16
    adaboost_rounds: int = 25
    margin_gaps: tuple = (1, 4)
    matched_k: tuple = (1, 2, 3)
    priors: tuple = PRIORS
    datasets: tuple = field(default_factory=lambda: tuple(DATASETS))
    inner_splits: int = 3

    def grid(self, variant="sc"):
        """The selection grid of stump learner ``variant``: ``p`` and conjunction/disjunction.

        Parameters
        ----------
        variant : str, default="sc"
            ``"sc"`` gets ``p_grid``, Occam and PAC-Bayes ``costly_p``.

        Returns
        -------
        dict
            A :class:`sklearn.model_selection.ParameterGrid` specification.
        """
        p = self.p_grid if variant == "sc" else self.costly_p
        return {"p": list(p), "model_type": list(self.model_types)}

    @classmethod
    def fast(cls):
        """The notebook's ``fast=True`` run: two data sets, one repetition of 3 folds.

        Returns
        -------
        Config
        """
        return cls(n_repeats=1, n_splits=3, n_prefilter=40, s_max=3, p_grid=(1.0,), adaboost_rounds=10,
                   datasets=("colon", "leukemia_golub"))


def load_dataset(name):
    """One of :data:`DATASETS` as numpy arrays.

    Parameters
    ----------
    name : str
        A key of :data:`DATASETS`.

    Returns
    -------
    X : ndarray of shape (n_examples, n_genes)
    y : ndarray of str
    gene_names : ndarray of str
    """
    if name not in DATASETS:
        raise ValueError(f"unknown data set {name!r}; expected one of {sorted(DATASETS)}")
    X, y = DATASETS[name].load()
    return X.to_numpy(dtype=float), np.asarray(y.astype(str)), np.asarray(X.columns, dtype=str)


def declared_feature_range(name, X=None):
    """``[A, B]`` declared for every gene of data set ``name``: a constant of :data:`DECLARED_RANGES`.

    Paper 05 (Sections II–III) takes ``A_k, B_k`` as "the a priori lower and upper bounds on values
    for ``x_k``", "obtained from the definition of data". A prior must not depend on the training
    sample, its inputs included, so the range is fixed by the published data's definition (the
    measurement scale of each file), not computed from any example: it is the same on every
    training fold, whatever the fold holds.

    Parameters
    ----------
    name : str
        A key of :data:`DECLARED_RANGES`.
    X : array-like of shape (n_examples, n_genes), optional
        Values to check against the declared range (never used to compute it): a value outside
        it means the declaration is wrong, and raises.

    Returns
    -------
    ndarray of shape (2,)
        ``[A, B]``, the same for every gene (the learners broadcast it).
    """
    if name not in DECLARED_RANGES:
        raise ValueError(f"no declared range for data set {name!r}; expected one of {sorted(DECLARED_RANGES)}")
    ranges = np.asarray(DECLARED_RANGES[name], dtype=float)
    if X is not None:
        X = np.asarray(X, dtype=float)
        outside = int(np.sum((X < ranges[0]) | (X > ranges[1])))
        if outside:
            raise ValueError(f"{outside} value(s) of {name!r} fall outside its declared range {ranges.tolist()}")
    return ranges


def prior_feature_range(name, X, prior="declared"):
    """The priors' ``[A_k, B_k]`` of every gene under protocol choice ``prior`` (one of :data:`PRIORS`).

    Parameters
    ----------
    name : str
        The data set (for the declared range).
    X : array-like of shape (n_examples, n_genes)
        The **whole** data set; read only by the two sample-dependent variants.
    prior : {"declared", "per_gene", "global"}, default="declared"
        ``declared``: :func:`declared_feature_range` (independent of every sample);
        ``per_gene``: each gene's min and max over every example (training folds included);
        ``global``: the data set's min and max, one range for all genes (training folds included).

    Returns
    -------
    ndarray of shape (2, n_genes)
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[0] == 0:
        raise ValueError(f"X must be a non-empty 2-D array, got shape {X.shape}")
    if prior == "declared":
        low, high = declared_feature_range(name, X)
        return np.vstack([np.full(X.shape[1], low), np.full(X.shape[1], high)])
    if prior == "per_gene":
        return np.vstack([X.min(axis=0), X.max(axis=0)])
    if prior == "global":
        return np.vstack([np.full(X.shape[1], X.min()), np.full(X.shape[1], X.max())])
    raise ValueError(f"prior must be one of {PRIORS}, got {prior!r}")


def welch_t_ranking(X, y, n_keep):
    """Indices of the ``n_keep`` genes with the largest |Welch t| between the two classes.

    Parameters
    ----------
    X : ndarray of shape (n_examples, n_genes)
    y : ndarray of shape (n_examples,)
        Two classes.
    n_keep : int
        Genes kept (at most every gene).

    Returns
    -------
    ndarray of int
        Sorted indices; equal |t| (duplicated probes) keep the lower index.
    """
    classes = np.unique(y)
    a, b = X[y == classes[0]], X[y == classes[1]]
    var = a.var(axis=0, ddof=1) / max(len(a), 1) + b.var(axis=0, ddof=1) / max(len(b), 1)
    t = np.abs(a.mean(axis=0) - b.mean(axis=0)) / np.sqrt(np.where(var > 0, var, np.inf))
    n_keep = min(n_keep, X.shape[1])
    # A stable sort: argpartition's (and the default argsort's) order among equal keys depends on
    # the CPU's SIMD sorting kernel, so the kept gene at the cut would too.
    keep = np.argsort(-t, kind="stable")[:n_keep]
    return np.sort(keep)


def linear_svm_importance(svm) -> np.ndarray:
    """SVM-RFE's ranking criterion ``w_j²`` of a fitted linear ``SVC``, summed in a fixed order.

    ``SVC.coef_`` is a BLAS product of the dual coefficients and the support vectors, whose last
    bits depend on the BLAS kernel; two identical gene columns (duplicated probes) can then get
    different ``w_j`` and RFE would drop one or the other depending on the machine. Summed by
    numpy (:func:`companion.numerics.ordered_matvec`), identical columns get identical weights and
    RFE's stable ranking drops the lower index first on every machine.

    Parameters
    ----------
    svm : sklearn.svm.SVC
        Fitted, ``kernel="linear"``.

    Returns
    -------
    ndarray of shape (n_features,)
    """
    weights = ordered_matvec(np.asarray(svm.support_vectors_).T, np.asarray(svm.dual_coef_)[0])
    return weights**2


# --------------------------------------------------------------------------------------------
# One outer fold
# --------------------------------------------------------------------------------------------


def _stump_template(variant, config, n_total):
    """The unfitted learner of ``variant`` (a key of :data:`companion.stumps.STUMP_LEARNERS`)."""
    own = {"sc": {"threshold": "observed"}, "occam": {"eta": config.eta},
           "pac_bayes": {"eta": config.eta, "margin_gaps": config.margin_gaps, "gap_unit": "example"}}
    # The paper's greedy paths in full (the k-stump models are their prefixes; selection by bound is ours).
    return STUMP_LEARNERS[variant](s=config.s_max, delta=config.delta, prior_n_features=int(n_total), length="greedy",
                                   stop_idle=False, **own[variant])


def _fit_grid(template, X, y, grid):
    """Every grid point fitted once, at ``delta / g`` for ``g`` model types (as :func:`fit_by_bound`)."""
    points = list(ParameterGrid(grid))
    types = {point.get("model_type", template.get_params()["model_type"]) for point in points}
    delta = template.get_params()["delta"] / max(len(types), 1)
    return [clone(template).set_params(**point, delta=delta).fit(X, y) for point in points]


def _choose(models, k=None):
    """The prefix with the smallest bound: of any length (``k=None``) or of ``min(k, path)`` stumps.

    Bounds within :data:`companion.numerics.TIE_RTOL` of the smallest are tied; ties go to fewer
    stumps, then to the first grid point (the rule of :func:`companion.stumps.fit_by_bound`).
    """
    paths = [np.asarray(model._model_selection_path(), dtype=float) for model in models]
    sizes = [first_near_min(path) if k is None else min(int(k), path.size - 1) for path in paths]
    bounds = np.array([path[size] for path, size in zip(paths, sizes)])
    lowest = bounds.min()
    tied = np.flatnonzero(bounds <= lowest + TIE_RTOL * max(1.0, abs(lowest)))
    chosen = min(tied, key=lambda i: (sizes[i], i))
    return models[chosen].truncated(sizes[chosen])


def _l1_path_order(Z, y, n_genes, seed):
    """The first ``n_genes`` genes to enter the L1-logistic path (liblinear, C from ``l1_min_c`` up).

    Genes entering at the same C are ordered by |coefficient| there, then by index.
    """
    start = l1_min_c(Z, y, loss="log")
    order = []
    for c in start * np.logspace(0, 4, 41)[1:]:
        coef = LogisticRegression(l1_ratio=1.0, solver="liblinear", C=c, random_state=seed).fit(Z, y).coef_[0]
        new = [j for j in np.flatnonzero(coef) if j not in order]
        order += sorted(new, key=lambda j: (-abs(coef[j]), j))
        if len(order) >= n_genes:
            break
    return order[:n_genes]


def _linear_svm_predict(X_train, y_train, X_test):
    """Linear SVM (C = 1, standardised inputs) on every gene, through its Gram matrix (same model, faster)."""
    scaler = StandardScaler().fit(X_train)
    Z_train, Z_test = scaler.transform(X_train), scaler.transform(X_test)
    svm = SVC(kernel="precomputed", C=1.0).fit(Z_train @ Z_train.T, y_train)
    return svm.predict(Z_test @ Z_train.T)


def _rfe_runs(estimator, Z_train, y_train, ks, step, importance_getter):
    """SVM-RFE (Guyon et al. 2002) to each ``k`` of ``ks`` genes, the runs sharing their fits.

    Each run is scikit-learn's :class:`~sklearn.feature_selection.RFE` loop
    (``RFE(estimator, n_features_to_select=k, step=step, importance_getter=importance_getter)``):
    while more than ``k`` genes remain, fit a clone of ``estimator`` on them, rank them by
    ``safe_sqr(importance_getter(fit))`` (a stable argsort: the lower index first among equal
    scores) and drop the ``min(step, remaining - k)`` lowest, ``step`` being
    ``int(max(1, step × n_genes))`` for a fraction ``0 < step < 1`` (of the initial count), else
    ``int(step)``; then a clone is fitted on the surviving genes. The runs to different ``k``
    start alike (with ``step=0.5`` on 100 genes, every run to at most 50 genes fits the same 100
    then the same 50 genes): a fit is a deterministic function of the genes it sees, so each
    distinct gene set is fitted once and shared, and every run ends with the support and final
    model its own ``RFE`` fit gives (tests compare them with scikit-learn's).

    Returns
    -------
    dict
        ``k`` -> ``(support, fitted estimator)``: the boolean mask of the kept genes and the clone
        fitted on them (``RFE.support_`` and ``RFE.estimator_``; ``RFE.predict(X)`` is its
        ``predict(X[:, support])``).
    """
    n_genes = Z_train.shape[1]
    step = int(max(1, step * n_genes)) if 0.0 < step < 1.0 else int(step)
    fits = {}

    def fitted(features):
        key = features.tobytes()
        if key not in fits:
            fits[key] = clone(estimator).fit(Z_train[:, features], y_train)
        return fits[key]

    runs = {}
    for k in ks:
        support = np.ones(n_genes, dtype=bool)
        while support.sum() > k:
            features = np.flatnonzero(support)
            ranks = np.ravel(np.argsort(safe_sqr(importance_getter(fitted(features))), kind="stable"))
            support[features[ranks][: min(step, support.sum() - k)]] = False
        runs[k] = (support, fitted(np.flatnonzero(support)))
    return runs


def _competitor_rows(X_tr, y_tr, X_te, y_te, keep, config, seed, nsc_threshold=None):
    """Rows (without the fold keys) of every competitor, all genes and matched to ``k`` genes.

    The SVM-RFE runs (to ``config.rfe_genes`` and to each matched ``k``) read the same
    standardised kept genes and share their fits (:func:`_rfe_runs`); AdaBoost's prediction is
    its last staged one (both the sign of the same weighted vote). BAHSIC (Song et al. 2007) keeps
    ``config.rfe_genes`` (or ``k``) of the kept genes and classifies them with a linear SVM; NSC
    (Tibshirani et al. 2003) shrinks the centroids of the kept genes at ``nsc_threshold``.

    Returns
    -------
    rows : list of dict
        Without NSC's row when ``nsc_threshold`` is None.
    nsc_errors : ndarray of int
        NSC's test errors at every threshold of :data:`NSC_THRESHOLDS` (its inner-fold choice).
    """
    linear = SVC(kernel="linear", C=1.0)
    rows = []

    def row(learner, k, predicted, genes):
        rows.append({"learner": learner, "k": k, "prior": "-", "errors": int(np.sum(predicted != y_te)),
                     "genes": int(genes)})

    row("linear_svm", 0, _linear_svm_predict(X_tr, y_tr, X_te), X_tr.shape[1])
    F_tr, F_te = X_tr[:, keep], X_te[:, keep]
    # The pipelines' StandardScaler (fitted on F_tr) is this one: the same standardised genes.
    scaler = StandardScaler().fit(F_tr)
    Z_tr, Z_te = scaler.transform(F_tr), scaler.transform(F_te)
    rfe = _rfe_runs(linear, Z_tr, y_tr, (config.rfe_genes, *config.matched_k), 0.5, linear_svm_importance)

    def rfe_row(k, genes):
        support, model = rfe[genes]
        row("svm_rfe", k, model.predict(Z_te[:, support]), support.sum())

    rfe_row(0, config.rfe_genes)
    l1 = LogisticRegression(l1_ratio=1.0, solver="liblinear", C=0.5, random_state=seed).fit(Z_tr, y_tr)
    row("l1_logistic", 0, l1.predict(Z_te), np.count_nonzero(l1.coef_))
    boost = AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=config.adaboost_rounds,
                               random_state=seed).fit(F_tr, y_tr)
    staged = list(boost.staged_predict(F_te))
    # Two classes: predict's and the last stage's vote are the same sums of the same signed
    # weights (both the sign of the second class's column), divided by a positive norm.
    row("adaboost_stumps", 0, staged[-1] if len(boost.classes_) == 2 else boost.predict(F_te),
        len(_boosted_genes(boost, len(boost.estimators_))))
    order = bahsic_order(Z_tr, y_tr)

    def bahsic_row(k, genes):
        kept = np.sort(order[-genes:])
        row("bahsic", k, clone(linear).fit(Z_tr[:, kept], y_tr).predict(Z_te[:, kept]), kept.size)

    bahsic_row(0, config.rfe_genes)
    nsc_predictions, nsc_genes = nsc_path(Z_tr, y_tr, Z_te, NSC_THRESHOLDS)
    nsc_errors = (nsc_predictions != y_te).sum(axis=1)
    if nsc_threshold is not None:
        at = NSC_THRESHOLDS.index(nsc_threshold)
        row("nsc", 0, nsc_predictions[at], nsc_genes[at])
    # matched sparsity: k genes
    order_l1 = _l1_path_order(Z_tr, y_tr, max(config.matched_k), seed)
    for k in config.matched_k:
        genes = order_l1[:k]
        refit = LogisticRegression(C=1.0).fit(Z_tr[:, genes], y_tr)
        row("l1_logistic", k, refit.predict(Z_te[:, genes]), len(genes))
        rfe_row(k, k)
        rounds = min(k, len(staged))
        row("adaboost_stumps", k, staged[rounds - 1], len(_boosted_genes(boost, rounds)))
        bahsic_row(k, k)
    return rows, nsc_errors


def _selected_competitors(X_tr, y_tr, X_te, y_te, keep, config, seed, inner_seed):
    """Every competitor's rows on the outer fold, plus one ``competitor`` row per ``k``: the one chosen on inner folds.

    The training fold is split into ``config.inner_splits`` stratified inner folds (seed
    ``inner_seed``); on each, the Welch filter and every competitor are rerun on the inner
    training part and scored on the inner test part. NSC's threshold is the one with the fewest
    inner errors (ties: the larger), and its inner errors there are its score; the competitor with
    the fewest inner errors at each ``k`` (ties: the first of :data:`COMPETITORS`, resp.
    :data:`MATCHED_COMPETITORS`) is the ``competitor`` of that ``k``, its outer errors those of the
    chosen learner. No outer test example is read by any choice.
    """
    inner = {}
    nsc_inner = np.zeros(len(NSC_THRESHOLDS), dtype=int)
    for train, test in stratified_folds(y_tr, n_splits=config.inner_splits, seed=inner_seed):
        inner_keep = welch_t_ranking(X_tr[train], y_tr[train], config.n_prefilter)
        rows, nsc_errors = _competitor_rows(X_tr[train], y_tr[train], X_tr[test], y_tr[test], inner_keep, config, seed)
        for r in rows:
            inner[(r["learner"], r["k"])] = inner.get((r["learner"], r["k"]), 0) + r["errors"]
        nsc_inner += nsc_errors
    lowest = np.flatnonzero(nsc_inner == nsc_inner.min())
    threshold = NSC_THRESHOLDS[lowest[-1]]
    inner[("nsc", 0)] = int(nsc_inner.min())
    rows, _ = _competitor_rows(X_tr, y_tr, X_te, y_te, keep, config, seed, nsc_threshold=threshold)
    outer = {(r["learner"], r["k"]): r for r in rows}
    for k in (0, *config.matched_k):
        candidates = COMPETITORS if k == 0 else MATCHED_COMPETITORS
        chosen = min(candidates, key=lambda c: (inner[(c, k)], candidates.index(c)))
        rows.append({**outer[(chosen, k)], "learner": "competitor", "chosen": chosen})
    for r in rows:
        if r["learner"] == "nsc":
            r["p"] = threshold
    return rows


def _boosted_genes(boost, rounds):
    """The genes of the first ``rounds`` stumps of a fitted AdaBoost (leaves without a split skipped)."""
    return {int(tree.tree_.feature[0]) for tree in boost.estimators_[:rounds] if tree.tree_.feature[0] >= 0}


def _stump_rows(name, X, X_tr, y_tr, X_te, y_te, keep, names, config, prior_ranges=None):
    """Rows of the stump learners: bound-chosen length and ``k`` stumps, for each prior range.

    ``prior_ranges``: ``{prior: prior_feature_range(name, X, prior)}`` if known (a function of the
    whole data set, the same on every fold: :func:`run` computes it once per data set).
    """
    rows = []
    for variant in STUMP_VARIANTS:
        for prior in (config.priors[:1] if variant == "sc" else config.priors):
            whole = prior_ranges[prior] if prior_ranges is not None else prior_feature_range(name, X, prior)
            ranges = whole[:, keep]
            template = _stump_template(variant, config, X.shape[1]).set_params(feature_range=ranges)
            models = _fit_grid(template, X_tr[:, keep], y_tr, config.grid(variant))
            for k in (0, *config.matched_k):
                model = _choose(models, k or None)
                used = names[keep][model.features_]
                row = {"learner": variant, "k": k, "prior": prior,
                       "errors": int(np.sum(model.predict(X_te[:, keep]) != y_te)), "genes": int(used.size),
                       "bound": float(model.bound_), "model_type": model.model_type, "p": float(model.p),
                       "gene_names": ";".join(used),
                       "rule": model.to_text(feature_names=list(names[keep]), show_class=False) if k == 0 else ""}
                if variant == "pac_bayes":
                    row.update(_gibbs_columns(model, X_te[:, keep], y_te))
                rows.append(row)
    return rows


def _selected_stumps(rows, config):
    """One ``stumps`` row per prior and ``k``: the stump learner whose training-fold bound is smallest.

    A choice made on the training fold only (each learner's bound is a valid guarantee): bounds
    within :data:`companion.numerics.TIE_RTOL` of the smallest are tied, and ties go to the first
    of :data:`STUMP_VARIANTS`. PAC-Bayes is read by its Bayes vote's bound (the classifier it
    predicts with). SC's bound does not read the prior range, so its row serves every prior.
    """
    chosen = []
    for prior in config.priors:
        for k in (0, *config.matched_k):
            candidates = [r for v in STUMP_VARIANTS for r in rows
                          if r["learner"] == v and r["k"] == k and (r["prior"] == prior or v == "sc")]
            bounds = np.array([r["bound"] for r in candidates])
            best = candidates[first_near_min(bounds)]
            chosen.append({**best, "learner": "stumps", "prior": prior, "chosen": best["learner"], "rule": ""})
    return chosen


def _fold_rows(loaded, config, seed, item):
    """Rows of one outer fold ``(name, (repeat, fold, train, test))``: self-contained, any order, any worker."""
    name, (repeat, fold, train, test) = item
    X, y, names, *prior_ranges = loaded[name]  # run adds the prior ranges of the whole data set
    X_tr, y_tr, X_te, y_te = X[train], y[train], X[test], y[test]
    keep = welch_t_ranking(X_tr, y_tr, config.n_prefilter)
    base = {"dataset": name, "repeat": repeat, "fold": fold, "n_train": len(train), "n_test": len(test)}
    # loaded and verified once; about 30 fits per fold on the same arrays. A greedy path that keeps
    # no stump (Occam on Colon) is the paper's model, reported by the claims: no SingleClassWarning.
    with trusted_inputs(), warnings.catch_warnings():
        warnings.simplefilter("ignore", SingleClassWarning)
        rows = _stump_rows(name, X, X_tr, y_tr, X_te, y_te, keep, names, config, *prior_ranges)
        rows += _selected_stumps(rows, config)
        rows += _selected_competitors(X_tr, y_tr, X_te, y_te, keep, config, seed,
                                      inner_seed=1000 * (seed + repeat) + fold)
    return [{**base, **row} for row in rows]


#: The value columns of :func:`run`'s frame, after the keys, in order.
RESULT_COLUMNS = ["repeat", "n_train", "n_test", "learner", "k", "prior", "errors", "genes", "bound", "gibbs_errors",
                  "gibbs_bound", "model_type", "p", "gene_names", "rule", "chosen"]


def _method(learner, k, prior):
    """``"occam"``, ``"occam k=2"``, ``"occam [per_gene]"``, ``"svm_rfe k=1"``: the tidy frame's method key."""
    return learner + (f" k={k}" if k else "") + (f" [{prior}]" if prior not in ("-", PRIORS[0]) else "")


def run(config: Config, n_jobs=1) -> pd.DataFrame:
    """The repeated outer CV of every data set of ``config``: stump learners and competitors, same folds.

    Parameters
    ----------
    config : Config
        The protocol.
    n_jobs : int, default=1
        Every (data set, repeat, outer fold) is one independent item of
        :func:`companion.evaluation.parallel_map` (1: serial; -1: all local cores), carrying its
        own split and seeds: the frame does not depend on ``n_jobs``.

    Returns
    -------
    pandas.DataFrame
        Tidy (:func:`companion.experiments.protocol.check_tidy`): one row per ``dataset``,
        ``method`` (:func:`_method`: learner, ``k=…`` when restricted to ``k`` stumps or genes,
        ``[prior]`` for a sample-dependent prior range), ``seed`` (the repeat's fold seed,
        ``config.seed + repeat``) and 0-based ``fold``. Values (:data:`RESULT_COLUMNS`):
        ``learner``, ``k`` (0: unrestricted), ``prior`` (``"-"`` for competitors), test
        ``errors``, ``genes`` used, the training-fold ``bound`` (PAC-Bayes: the Bayes vote's,
        ``min(1, 2 × Gibbs)``), the Gibbs classifier's expected test errors and bound, the chosen
        ``model_type`` and ``p``, the genes' names and the rule (unrestricted stump models).
    """
    seed = config.seed
    loaded = {name: load_dataset(name) for name in config.datasets}
    # The priors' ranges read the whole data set only, so every fold shares them.
    loaded = {name: (X, y, names, {prior: prior_feature_range(name, X, prior) for prior in config.priors})
              for name, (X, y, names) in loaded.items()}
    items = [
        (name, (repeat, fold, train, test))
        for name in config.datasets
        for repeat in range(config.n_repeats)
        for fold, (train, test) in enumerate(stratified_folds(loaded[name][1], n_splits=config.n_splits,
                                                              seed=seed + repeat))
    ]
    parts = parallel_map(partial(_fold_rows, loaded, config, seed), items, n_jobs=n_jobs)
    frame = pd.DataFrame([row for part in parts for row in part])
    for column, fill in (("bound", np.nan), ("gibbs_errors", np.nan), ("gibbs_bound", np.nan), ("model_type", ""),
                         ("p", np.nan), ("gene_names", ""), ("rule", ""), ("chosen", "")):
        frame[column] = frame[column].fillna(fill) if column in frame else fill
    frame["method"] = [_method(*key) for key in zip(frame["learner"], frame["k"], frame["prior"])]
    frame["seed"] = seed + frame["repeat"]
    return check_tidy(frame[["dataset", "method", "seed", "fold", *RESULT_COLUMNS]])


# --------------------------------------------------------------------------------------------
# Summaries of run's frame
# --------------------------------------------------------------------------------------------


def summary_table(results):
    """Per data set and method of :func:`run`'s frame: CV error with its spread, genes, bounds.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, method), in the frame's order: ``learner``, ``k``, ``prior``,
        ``cv_error_%`` (pooled over every fold and repeat), ``sd over repeats`` (of the
        repeats' CV errors), mean ``genes``, mean training-fold ``bound_%``, and the Gibbs
        classifier's pooled ``gibbs_error_%`` and mean ``gibbs_bound_%`` (PAC-Bayes).
    """
    rows = []
    for (name, method), g in results.groupby(["dataset", "method"], sort=False):
        per_repeat = 100.0 * g.groupby("repeat")["errors"].sum() / g.groupby("repeat")["n_test"].sum()
        first = g.iloc[0]
        rows.append({
            "dataset": name, "method": method, "learner": first["learner"], "k": int(first["k"]),
            "prior": first["prior"], "cv_error_%": 100.0 * g["errors"].sum() / g["n_test"].sum(),
            "sd over repeats": float(per_repeat.std(ddof=1)) if per_repeat.size > 1 else np.nan,
            "genes": float(g["genes"].mean()),
            "bound_%": 100.0 * g["bound"].mean() if g["bound"].notna().any() else np.nan,
            "gibbs_error_%": 100.0 * g["gibbs_errors"].sum() / g["n_test"].sum()
            if g["gibbs_errors"].notna().any() else np.nan,
            "gibbs_bound_%": 100.0 * g["gibbs_bound"].mean() if g["gibbs_bound"].notna().any() else np.nan,
        })
    return pd.DataFrame(rows)


def _rates(results, name, prior=PRIORS[0]):
    """Per-fold test error (%) of data set ``name``: index (repeat, fold), one column per method.

    Under ``prior``, Occam's and PAC-Bayes' columns are those of that prior range (named without
    the ``[prior]`` suffix), so every claim reads the same column names in every variant.
    """
    part = results[(results["dataset"] == name) & results["prior"].isin(["-", PRIORS[0], prior])]
    part = part[(part["prior"] == prior) | (part["learner"] == "sc") | (part["prior"] == "-")]
    part = part.assign(method=[_method(lr, k, "-") for lr, k in zip(part["learner"], part["k"])],
                       rate=100.0 * part["errors"] / part["n_test"])
    return part.pivot(index=["repeat", "fold"], columns="method", values="rate")


def per_fold(results, name, prior, column):
    """Per-fold ``column`` of data set ``name`` under ``prior``: index (repeat, fold), one column per method.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.
    name : str
        Data set.
    prior : str
        One of :data:`PRIORS`: Occam's, PAC-Bayes' and the ``stumps`` rows of that range (named
        without the ``[prior]`` suffix); SC's and the competitors' rows whatever it is.
    column : str
        A value column of :func:`run`'s frame (``errors``, ``genes``, ...).

    Returns
    -------
    pandas.DataFrame
    """
    part = results[(results["dataset"] == name) & results["prior"].isin(["-", PRIORS[0], prior])]
    part = part[(part["prior"] == prior) | (part["learner"] == "sc") | (part["prior"] == "-")]
    part = part.assign(method=[_method(lr, k, "-") for lr, k in zip(part["learner"], part["k"])])
    return part.pivot(index=["repeat", "fold"], columns="method", values=column)


def chosen_summary(results, name, method) -> str:
    """``occam 41/50, sc 9/50``: how often each learner was chosen in the ``method`` rows of ``name``.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.
    name : str
        Data set.
    method : str
        A ``stumps`` or ``competitor`` method of the frame (``"stumps k=2"``, ``"competitor"``).

    Returns
    -------
    str
    """
    chosen = results[(results["dataset"] == name) & (results["method"] == method)]["chosen"]
    counts = chosen.value_counts(sort=False).sort_index()
    counts = counts.sort_values(ascending=False, kind="stable")
    return ", ".join(f"{learner} {count}/{len(chosen)}" for learner, count in counts.items())


def matched_table(results, prior=PRIORS[0]):
    """Per data set and ``k`` (0: unrestricted): the bound-chosen stump learner against the inner-CV-chosen competitor.

    Both choices are made on the training fold only (:func:`_selected_stumps`,
    :func:`_selected_competitors`), so neither side is the best of several on the test folds.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.
    prior : str, default="declared"
        The prior range of Occam's and PAC-Bayes' rows (:data:`PRIORS`).

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, k): the CV errors (%) and mean genes of the ``stumps`` and
        ``competitor`` rows, how often each learner was chosen on each side, and the difference
        (points, stump − competitor).
    """
    rows = []
    suffix = "" if prior == PRIORS[0] else f" [{prior}]"
    for name in dict.fromkeys(results["dataset"]):
        rates = _rates(results, name, prior)
        genes = per_fold(results, name, prior, "genes")
        for k in sorted(set(results["k"])):
            a, b = _method("stumps", k, "-"), _method("competitor", k, "-")
            rows.append({"dataset": name, "k": k, "stump error %": rates[a].mean(), "stump genes": genes[a].mean(),
                         "stump learners chosen": chosen_summary(results, name, a + suffix),
                         "competitor error %": rates[b].mean(), "competitor genes": genes[b].mean(),
                         "competitors chosen": chosen_summary(results, name, b),
                         "difference": rates[a].mean() - rates[b].mean()})
    return pd.DataFrame(rows)


def corrected_paired_interval(differences, n_train, n_test, level=0.95):
    """Mean and corrected resampled-t interval of paired per-fold differences (Nadeau & Bengio 2003).

    ``r × k``-fold CV reuses every example, so the fold differences are correlated and the plain
    t interval is too narrow; Nadeau & Bengio's correction inflates the variance of the mean from
    ``σ²/J`` to ``(1/J + n_test/n_train) σ²`` (``J`` folds in all), with ``J − 1`` degrees of freedom.

    Parameters
    ----------
    differences : array-like of shape (J,)
        One paired difference per fold.
    n_train, n_test : float
        Training and test fold sizes (means over the folds).
    level : float, default=0.95
        Two-sided confidence level.

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


def _nadeau_bengio_values(d, n_train, n_test):
    """``d`` spread about its mean by ``√(1 + J n_test/n_train)``: their paired t is the corrected t.

    The engine's paired t (``test="t"``) uses ``σ²/J``; on these values its mean is unchanged and
    its variance of the mean is ``(1/J + n_test/n_train) σ²``, :func:`corrected_paired_interval`'s.
    """
    d = np.asarray(d, dtype=float)
    return d.mean() + (d - d.mean()) * np.sqrt(1.0 + d.size * n_test / n_train)


def gene_frequency(results, top=10):
    """How often each gene is chosen across the outer folds, per data set and stump learner.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame; its unrestricted stump rows of the declared prior are counted.
    top : int, default=10
        Genes listed per (data set, learner).

    Returns
    -------
    pandas.DataFrame
        ``dataset, learner, gene, folds, of folds``; more folds first, then the gene's name.
    """
    rows = []
    chosen = results[results["learner"].isin(STUMP_VARIANTS) & (results["k"] == 0)
                     & (results["prior"] == PRIORS[0])]
    for (name, learner), g in chosen.groupby(["dataset", "learner"], sort=False):
        genes = pd.Series([gene for text in g["gene_names"] for gene in text.split(";") if gene], dtype=str)
        counts = genes.value_counts(sort=False).rename_axis("gene").reset_index(name="folds")
        counts = counts.sort_values(["folds", "gene"], ascending=[False, True], kind="stable").head(top)
        rows.extend({"dataset": name, "learner": learner, "gene": r.gene, "folds": int(r.folds),
                     "of folds": len(g)} for r in counts.itertuples())
    return pd.DataFrame(rows, columns=["dataset", "learner", "gene", "folds", "of folds"])


# --------------------------------------------------------------------------------------------
# The paper's claims as a companion.claims family
# --------------------------------------------------------------------------------------------

#: "An accurate classifier" (Section I): the points of CV error the bound-chosen stump learner may
#: lose to the inner-CV-chosen competitor and still be called accurate, fixed before the results
#: (the registry's ``margin``; the paper quantifies no such margin).
COMPETITIVE_POINTS = 5.0
#: "Non-trivial" bound: below this risk (%) on every data set.
NONTRIVIAL_BOUND = 50.0
#: The Leukaemia probe Occam chose on the full data set with the per-gene ranges (an observation:
#: the share of training folds that choose it is reported, not judged).
OCCAM_GENE = "X95735_at"
#: Fold-seed variants of every claim: the whole protocol rerun on other outer folds.
N_SEED_VARIANTS = 4
#: Names of the prior-range variants: the main range first, then the two sample-dependent ones.
VARIANT_NAMES = {"declared": "main", "per_gene": "range=per gene (whole data)", "global": "range=global (whole data)"}


def seed_configs(config, n=N_SEED_VARIANTS):
    """The fold-seed variants of ``config``: ``{"seed=<s>": Config}``, each with folds no other uses.

    Variant ``j`` (1..n) is ``config`` with ``seed = config.seed + j × n_repeats`` (its repeats'
    fold seeds follow the main run's and each other's without overlap) and the declared prior
    range only (the range variants are the main run's).

    Parameters
    ----------
    config : Config
    n : int, default=N_SEED_VARIANTS

    Returns
    -------
    dict
    """
    out = {}
    for j in range(1, n + 1):
        seed = config.seed + j * config.n_repeats
        out[f"seed={seed}"] = replace(config, seed=seed, priors=config.priors[:1])
    return out


def run_seed_variants(config, n=N_SEED_VARIANTS, n_jobs=1):
    """:func:`run` of every :func:`seed_configs` variant: ``{"seed=<s>": frame}``.

    Parameters
    ----------
    config : Config
    n : int, default=N_SEED_VARIANTS
    n_jobs : int, default=1

    Returns
    -------
    dict
    """
    return {name: run(variant, n_jobs=n_jobs) for name, variant in seed_configs(config, n).items()}


def _claims_data(results, prior, summary=None, tradeoff=None):
    """What the measures read under prior range ``prior``: per-fold errors and genes, sizes, summaries.

    ``summary``: :func:`summary_table` of ``results`` if known (the variants share it).
    """
    names = list(dict.fromkeys(results["dataset"]))
    summary = summary_table(results) if summary is None else summary
    summary = summary[summary["prior"].isin(["-", prior]) | (summary["learner"] == "sc")]
    return {
        "rates": {name: _rates(results, name, prior) for name in names},
        "genes_per_fold": {name: per_fold(results, name, prior, "genes") for name in names},
        "sizes": {name: results[results["dataset"] == name][["n_train", "n_test"]].mean() for name in names},
        "summary": summary[summary["k"] == 0].set_index(["dataset", "learner"]),
        "genes": results[(results["learner"] == "occam") & (results["k"] == 0) & (results["prior"] == prior)],
        "tradeoff": tradeoff,
    }


def _paired(data, name, column_a, column_b, table="rates"):
    """Nadeau & Bengio-ready paired fold differences ``a − b`` of data set ``name`` (None if not run)."""
    if name not in data[table]:
        return None
    values, size = data[table][name], data["sizes"][name]
    if not {column_a, column_b} <= set(values.columns):
        return None
    d = (values[column_a] - values[column_b]).to_numpy(dtype=float)
    return _nadeau_bengio_values(d, size["n_train"], size["n_test"])


def _accuracy(data, name, k=0):
    return _paired(data, name, _method("stumps", k, "-"), _method("competitor", k, "-"))


def _fewer_genes(data, name):
    return _paired(data, name, "stumps", "competitor", table="genes_per_fold")


def _occam_tightest(data):
    table = data["summary"]["bound_%"].unstack("learner")[list(STUMP_VARIANTS)]
    smallest = sum(bool(table.loc[name, "occam"] <= table.loc[name].min()) for name in table.index)
    return (int(smallest), len(table))


def _bounds_above(data):
    summary = data["summary"]
    table = summary[summary.index.get_level_values("learner").isin(STUMP_VARIANTS)]
    bound = table["bound_%"].where(table.index.get_level_values("learner") != "pac_bayes", table["gibbs_bound_%"])
    error = table["cv_error_%"].where(table.index.get_level_values("learner") != "pac_bayes", table["gibbs_error_%"])
    gap = bound - error
    below = [f"{n} {lr}" for (n, lr), v in gap.items() if not v >= 0]
    return (not below, f"bound − CV error from {gap.min():.1f} to {gap.max():.1f} points"
            + (f"; below on {', '.join(below)}" if below else ""))


def _nontrivial(data, learner):
    table = data["summary"].xs(learner, level="learner")["bound_%"]
    bad = [f"{n} ({v:.1f} %)" for n, v in table.items() if not v < NONTRIVIAL_BOUND]
    return (not bad, f"mean training-fold bound below {NONTRIVIAL_BOUND:.0f} % on {len(table) - len(bad)}/"
            f"{len(table)} data sets" + (f"; not on {', '.join(bad)}" if bad else ""))


def _leukaemia_genes(data):
    folds = data["genes"][data["genes"]["dataset"] == "leukemia_golub"]
    genes = pd.Series([g for text in folds["gene_names"] for g in set(text.split(";")) if g], dtype=str)
    return folds, genes.value_counts()


def _occam_gene(data):
    folds, counts = _leukaemia_genes(data)
    if folds.empty:
        return None
    return (int(counts.get(OCCAM_GENE, 0)), len(folds))


def _occam_stable(data):
    folds, counts = _leukaemia_genes(data)
    if folds.empty:
        return None
    return (int(counts.max()) if len(counts) else 0, len(folds))


def _pac_bayes_vs_sc(data):
    table = data["summary"]["cv_error_%"].unstack("learner")
    if not {"pac_bayes", "sc"} <= set(table.columns) or len(table) < 2:
        return None
    return (table["pac_bayes"] - table["sc"]).to_numpy(dtype=float)


def _occam_code_tradeoff(data):
    """Some longer Occam conjunction with fewer code bits has a smaller bound than a shorter one with more bits."""
    tradeoff = data["tradeoff"]
    if tradeoff is None or tradeoff.empty:
        return None
    models = tradeoff[tradeoff["stumps"] > 0].drop_duplicates(["stumps", "code bits", "bound"])
    best = None
    for long in models.itertuples():
        for short in models.itertuples():
            if long.stumps > short.stumps and long._3 < short._3 and long.bound < short.bound:
                gain = short.bound - long.bound
                if best is None or gain > best[0]:
                    best = (gain, long, short)
    if best is None:
        return (False, f"no pair among the {len(models)} Occam models on Leukaemia")
    _, long, short = best
    return (True, f"{long.stumps} stumps, {long._3} code bits: bound {100 * long.bound:.1f} % against "
            f"{short.stumps} stumps, {short._3} code bits: {100 * short.bound:.1f} % (η {long.eta:g} vs {short.eta:g})")


def measures(names=tuple(DATASETS), matched_k=(1, 2, 3)):
    """The measurement of every claim of ``registry/paper05.toml``, by its ``measure`` key.

    Parameters
    ----------
    names : sequence of str, default=all of :data:`DATASETS`
        The data sets with claims of their own (the registry names all seven; one not run
        measures ``None``, ``n/a``).
    matched_k : sequence of int, default=(1, 2, 3)

    Returns
    -------
    dict
        ``{measure key: callable(data)}`` for :func:`companion.claims.family`.
    """
    out = {}
    for name in names:
        out[f"accuracy_{name}"] = partial(_accuracy, name=name, k=0)
        out[f"genes_{name}"] = partial(_fewer_genes, name=name)
        for k in matched_k:
            out[f"matched_{k}_{name}"] = partial(_accuracy, name=name, k=k)
    for learner in STUMP_VARIANTS:
        out[f"nontrivial_{learner}"] = partial(_nontrivial, learner=learner)
    out.update(bounds_above=_bounds_above, occam_tightest=_occam_tightest, occam_gene=_occam_gene,
               occam_stable=_occam_stable, pac_bayes_vs_sc=_pac_bayes_vs_sc, occam_code_tradeoff=_occam_code_tradeoff)
    return out


def claims_report(results, seed_results=None, tradeoff=None):
    """Decide the registry's claims (``registry/paper05.toml``) on :func:`run`'s frame and its variants.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame (main: the declared range).
    seed_results : dict, optional
        :func:`run_seed_variants`' frames, ``{"seed=<s>": frame}``: the fold-seed variants.
    tradeoff : pandas.DataFrame, optional
        :func:`occam_tradeoff`'s frame (Leukaemia), read by ``occam-code-tradeoff``.

    Returns
    -------
    companion.claims.ClaimsReport
        Variants: ``range=per gene (whole data)`` and ``range=global (whole data)`` where run,
        and every seed variant.
    """
    import companion.claims as C

    priors = [p for p in PRIORS if p in set(results["prior"])]
    summary = summary_table(results)  # one table for every range variant (each selects its rows)
    data = {VARIANT_NAMES[p]: _claims_data(results, p, summary, tradeoff) for p in priors}
    for name, frame in (seed_results or {}).items():
        data[name] = _claims_data(frame, PRIORS[0], tradeoff=tradeoff)
    family = C.family(C.load_registry("05"), measures())
    return C.evaluate(family, data)


# --------------------------------------------------------------------------------------------
# Figures of run's frame
# --------------------------------------------------------------------------------------------


def plot_bound_vs_error(summary):
    """Mean training-fold bound against CV error, per stump learner, data set and prior range.

    PAC-Bayes is shown by its Gibbs bound against the Gibbs classifier's error (the Bayes vote's
    bound, twice it, saturates at 100 % on the small sets and would say nothing).

    Parameters
    ----------
    summary : pandas.DataFrame
        :func:`summary_table`'s frame.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    data = summary[summary["learner"].isin(STUMP_VARIANTS) & (summary["k"] == 0)]
    fig, ax = plt.subplots(figsize=(6.5, 5))
    markers = {"sc": "o", "occam": "s", "pac_bayes": "^"}
    fills = {"declared": "full", "per_gene": "none", "global": "none"}
    colours = dict(zip(dict.fromkeys(data["dataset"]), plt.cm.tab10.colors))
    for _, row in data.iterrows():
        gibbs = row["learner"] == "pac_bayes"
        x, y = (row["gibbs_error_%"], row["gibbs_bound_%"]) if gibbs else (row["cv_error_%"], row["bound_%"])
        ax.scatter(x, y, marker=markers[row["learner"]], s=45 if row["prior"] != "global" else 20,
                   facecolors=colours[row["dataset"]] if fills[row["prior"]] == "full" else "none",
                   edgecolors=colours[row["dataset"]])
    ax.plot([0, 100], [0, 100], color="grey", lw=0.8, ls="--")
    top = float(np.nanmax(np.r_[data["bound_%"].where(data["learner"] != "pac_bayes"), data["gibbs_bound_%"]])) + 5
    ax.set_xlim(0, 45)
    ax.set_ylim(0, min(100, top))
    ax.set_xlabel("CV test error (%; PAC-Bayes: Gibbs classifier)")
    ax.set_ylabel("risk bound on the training folds (%, δ = 0.05; PAC-Bayes: Gibbs)")
    for learner, marker in markers.items():
        ax.scatter([], [], marker=marker, color="k", label=learner)
    for name, colour in colours.items():
        ax.scatter([], [], marker="o", color=colour, label=name)
    ax.legend(fontsize=7, ncol=2, title="filled: declared range; open: per-gene; small open: global",
              title_fontsize=7)
    fig.tight_layout()
    return fig


def plot_matched_sparsity(table):
    """CV error of the best stump learner and the best competitor against the number of genes ``k``.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`matched_table`'s frame.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys(table["dataset"]))
    fig, axes = plt.subplots(1, len(names), figsize=(2.1 * len(names), 3), sharey=False, squeeze=False)
    for ax, name in zip(axes[0], names):
        part = table[(table["dataset"] == name) & (table["k"] > 0)]
        ax.plot(part["k"], part["stump error %"], "o-", label="best stump learner")
        ax.plot(part["k"], part["competitor error %"], "s--", label="best competitor")
        ax.set_title(name, fontsize=8)
        ax.set_xticks(list(part["k"]))
        ax.set_xlabel("genes k", fontsize=8)
    axes[0][0].set_ylabel("CV error (%)")
    axes[0][0].legend(fontsize=6)
    fig.tight_layout()
    return fig


def plot_gibbs_bound_vs_error(results):
    """Per outer fold: the PAC-Bayes Gibbs bound on the training fold against the Gibbs test error.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame (its unrestricted PAC-Bayes rows of the declared range).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    data = results[(results["learner"] == "pac_bayes") & (results["k"] == 0) & (results["prior"] == PRIORS[0])]
    fig, ax = plt.subplots(figsize=(5.5, 4.5))
    for (name, part), colour in zip(data.groupby("dataset", sort=False), plt.cm.tab10.colors):
        ax.scatter(100 * part["gibbs_errors"] / part["n_test"], 100 * part["gibbs_bound"], s=10, alpha=0.5,
                   color=colour, label=name)
    ax.plot([0, 100], [0, 100], color="grey", lw=0.8, ls="--")
    top = float(100 * data["gibbs_bound"].max()) + 5
    ax.set_xlim(-2, top)
    ax.set_ylim(0, top)
    ax.set_xlabel("Gibbs classifier's expected test error on the fold (%)")
    ax.set_ylabel("Gibbs bound on the training fold (%, δ = 0.05)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------------------------
# The bounds on the full data set: worked example, genes, trade-offs
# --------------------------------------------------------------------------------------------


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
    delta : float, default=0.05
        Confidence of every bound.

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
    intervals; Gibbs risk computed exactly). The priors' range is the declared one
    (:func:`declared_feature_range`).

    Parameters
    ----------
    n_prefilter : int, default=500
        Genes of largest |Welch t| the greedy searches (the bounds charge all 7129).
    s : int, default=2
        Stumps.
    p : float, default=1.0
        SC's utility weight.
    delta : float, default=0.05
        Confidence of every bound.

    Returns
    -------
    model : SetCoveringStumps
    table : pandas.DataFrame
        :func:`framework_costs` of that classifier.
    """
    X, y, names = load_dataset("leukemia_golub")
    keep = welch_t_ranking(X, y, n_prefilter)
    frame = pd.DataFrame(X[:, keep], columns=names[keep])
    model = SetCoveringStumps(s=s, p=p, delta=delta, prior_n_features=X.shape[1], length="greedy", stop_idle=False, threshold="observed").fit(frame, y)
    m, k = len(y), model.features_.size
    wrong = model.predict(frame) != y
    # the priors' range is the declared one (the SC model itself does not use it)
    low, high = (np.full(k, v) for v in declared_feature_range("leukemia_golub"))
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

    The priors' range is the declared one (:func:`declared_feature_range`).

    Parameters
    ----------
    config : Config, optional
        Learners' settings and grid (default ``Config()``).
    n_prefilter : int, default=500
        Genes of largest |Welch t| the greedy searches (the bounds charge all 7129).

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
    ranges = prior_feature_range("leukemia_golub", X)[:, keep]
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


def margin_sweep(name="leukemia_golub", gaps=(1, 2, 4, 8, 16, 32), config=None, p=1.0, model_type="conjunction"):
    """PAC-Bayes on the full data set (all genes), one margin width at a time: Gibbs bound along the path.

    Every candidate margin interval is ``[v_j, v_{j+g}]`` (``g`` sorted positions wide); one fit per
    ``g`` with ``margin_gaps=(g,)``, so the bound's margin–sparsity trade-off (Section V: a wider
    margin costs less KL but lets more examples be misclassified stochastically) is read off along
    two axes: the margin width and the number of stumps. Priors: :func:`declared_feature_range`.

    Parameters
    ----------
    name : str, default="leukemia_golub"
        Data set.
    gaps : sequence of int, default=(1, 2, 4, 8, 16, 32)
        Margin widths ``g``.
    config : Config, optional
        ``s_max``, ``eta``, ``delta`` (default ``Config()``).
    p : float, default=1.0
        Utility weight.
    model_type : {"conjunction", "disjunction"}, default="conjunction"
        The model class.

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
            margin_gaps=(int(gap),), prior_n_features=X.shape[1], feature_range=declared_feature_range(name, X),
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
    """Gibbs bound against margin width (best prefix per width) and against the number of stumps.

    Parameters
    ----------
    sweep : pandas.DataFrame
        :func:`margin_sweep`'s frame.

    Returns
    -------
    matplotlib.figure.Figure
    """
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


def occam_tradeoff(name="leukemia_golub", etas=(0.0, 0.25, 0.5, 1.0, 2.0, 4.0), config=None, p=1.0,
                   model_type="conjunction"):
    """Occam on the full data set (all genes) for several code weights ``η``: stumps, code bits, bound.

    ``η`` weighs the threshold's code length in the greedy's utility; small ``η`` buys stumps that
    cover many examples with thresholds that need long codes, large ``η`` prefers short codes
    (wide intervals of equivalent thresholds). Priors: :func:`declared_feature_range`.

    Parameters
    ----------
    name : str, default="leukemia_golub"
        Data set.
    etas : sequence of float, default=(0.0, 0.25, 0.5, 1.0, 2.0, 4.0)
        Code weights.
    config : Config, optional
        ``s_max``, ``delta`` (default ``Config()``).
    p : float, default=1.0
        Utility weight.
    model_type : {"conjunction", "disjunction"}, default="conjunction"
        The model class.

    Returns
    -------
    pandas.DataFrame
        One row per (η, prefix of the greedy path): stumps, code bits, bits per stump, training
        errors, bound.
    """
    config = config or Config()
    X, y, _ = load_dataset(name)
    rows = []
    for eta in etas:
        model = OccamStumps(
            s=config.s_max, p=p, eta=float(eta), delta=config.delta, model_type=model_type,
            prior_n_features=X.shape[1], feature_range=declared_feature_range(name, X), length="greedy", stop_idle=False,
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
    """Occam bound along the greedy path for each code weight ``η`` (labels: total code bits).

    Parameters
    ----------
    tradeoff : pandas.DataFrame
        :func:`occam_tradeoff`'s frame.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    groups = list(tradeoff.groupby("eta"))
    markers, styles = "osD^vP*X", ["-", "--", "-.", ":"]
    # Curves of different η often coincide (the same greedy path): each is shifted sideways by a
    # small offset of its own and drawn with its own marker and line style, so none hides another.
    offsets = np.linspace(-0.15, 0.15, len(groups)) if len(groups) > 1 else [0.0]
    for i, ((eta, part), shift) in enumerate(zip(groups, offsets)):
        x = part["stumps"].to_numpy(dtype=float) + shift
        ax.plot(x, 100 * part["bound"], marker=markers[i % len(markers)], ls=styles[i % len(styles)], ms=5,
                mfc="none" if i % 2 else None, label=f"η = {eta:g} ({int(part.iloc[-1]['code bits'])} bits)")
    ax.set_xticks(sorted(set(tradeoff["stumps"])))
    ax.set_xlabel("number of stumps (curves shifted sideways to keep each visible)")
    ax.set_ylabel("Occam bound (%, δ = 0.05)")
    ax.legend(fontsize=8, title="code weight (code bits at the last stump)", title_fontsize=8)
    fig.tight_layout()
    return fig


def _gibbs_columns(model, X_test, y_test) -> dict:
    """Expected test errors of a PAC-Bayes model's stochastic Gibbs classifier, and its own bound."""
    proba = model.gibbs_proba(X_test)
    return {
        "gibbs_errors": float(np.sum(np.where(y_test == model.classes_[1], 1 - proba, proba))),
        "gibbs_bound": float(model.gibbs_bound_path_[-1]),
    }


# --------------------------------------------------------------------------------------------
# Notebook 05's discussion, rendered from templates and its result frames: every number, direction
# and verdict it states is a field of a template in TEMPLATES (or of a claim's ``discussion`` in
# registry/paper05.toml), so the prose cannot drift from the results of any seed.
# --------------------------------------------------------------------------------------------

#: How the discussion names the data sets.
DATASET_NAMES = {"colon": "Colon", "leukemia_golub": "Leukaemia", "c_md": "C_MD", "breast_er": "BreastER",
                 "prostate": "Prostate", "lung_gordon": "Lung", "all_bioc": "ALL"}

#: The discussion's sentences; each field is filled from the results by :func:`discussion`.
TEMPLATES = {
    "choices": (
        "**Who was chosen.** Over every data set and fold, the smallest training-fold bound chose "
        "{stumps:list} on the stump side; the inner folds chose {competitors:list} among the competitors. "
        "Neither choice reads a test fold."
    ),
    "bounds": (
        "**Guarantees.** The mean training-fold bound is below {limit:.0f} % on {sc:plural data set} for SC, "
        "{occam:plural data set} for Occam and {pac:plural data set} for the PAC-Bayes Bayes vote, out of {n}; "
        "the Gibbs bound itself ranges from {gibbs_low:.1f} % to {gibbs_high:.1f} %. Each bound exceeds the error "
        "it guarantees by {gap_low:.1f} to {gap_high:.1f} points: valid on these folds and, with thousands of "
        "genes to pay for, far from tight in absolute terms."
    ),
    "empty": (
        "With the declared range, Occam keeps the empty conjunction (the majority class) in {share:pct.0} of the "
        "folds of {names:list}: there a threshold coded relative to the declared range costs more than it saves."
    ),
    "identical": (
        "**Identical sides.** Matched-sparsity claims on which both sides make exactly the same errors on every "
        "fold: {ids:list} ({count} in all). The engine reports them as identical, a statement about the data (a "
        "gene or two separate the classes whoever picks them), not a verdict for the stump learners."
    ),
    "no_identical": "**Identical sides.** No matched-sparsity claim has a zero difference on every fold.",
    "sensitivity": (
        "**Range and seed.** Of the {judged:plural judged claim}, {range_count} change verdict with the prior "
        "range ({range_ids:list}) and {seed_count} with the fold seed ({seed_ids:list}); these are marked not robust "
        "in the table."
    ),
    "margins": (
        "**Margins against sparsity.** On the full Leukaemia set the PAC-Bayes Gibbs bound is smallest at margin "
        "width {gap} with {stumps:plural stump} ({bound:pct.1}); {wider_word} width wider than the protocol's "
        "({protocol:list}) gives a smaller bound."
    ),
    "eta": (
        "**Code weight.** The Occam bound on the full Leukaemia set is smallest at $\\eta$ = {etas:list} "
        "({bound:pct.1}: {stumps:plural stump}, {bits} code bits, {errors:plural training error}); at the "
        "protocol's $\\eta$ = {eta:g} it is {eta_bound:pct.1}."
    ),
    "eta_protocol": (
        "**Code weight.** The Occam bound on the full Leukaemia set is smallest at $\\eta$ = {etas:list} "
        "({bound:pct.1}: {stumps:plural stump}, {bits} code bits, {errors:plural training error}), the "
        "protocol's $\\eta$ among them."
    ),
}


def _shares(results, learner) -> list[str]:
    rows = results[(results["learner"] == learner) & results["prior"].isin(["-", PRIORS[0]])]
    counts = rows["chosen"].value_counts().sort_index().sort_values(ascending=False, kind="stable")
    return [f"{name} ({count / len(rows):.0%})" for name, count in counts.items()]


def _claim_values(report, results) -> dict:
    """Per-claim fields the registry's ``discussion`` templates name beyond the table's columns."""
    values = {}
    for id in report.table["id"]:
        kind, _, name = id.partition("-")
        if name not in set(results["dataset"]):
            continue
        if kind == "acc" or (kind[:1] == "k" and kind[1:].isdigit()):
            k = 0 if kind == "acc" else int(kind[1:])
            stumps, other = ("stumps", "competitor") if not k else (f"stumps k={k}", f"competitor k={k}")
            rates = per_fold(results, name, PRIORS[0], "errors")
            values[id] = {"stumps_chosen": chosen_summary(results, name, stumps),
                          "competitors_chosen": chosen_summary(results, name, other),
                          "zeros": int((rates[stumps] == rates[other]).sum())}
        elif kind == "genes":
            genes = per_fold(results, name, PRIORS[0], "genes")
            values[id] = {"stump_genes": float(genes["stumps"].mean()),
                          "competitor_genes": float(genes["competitor"].mean())}
    return values


def _bounds(summary) -> Markdown:
    main = summary[summary["learner"].isin(STUMP_VARIANTS) & (summary["k"] == 0) & (summary["prior"] == PRIORS[0])]
    main = main.set_index(["dataset", "learner"])
    is_pac = main.index.get_level_values("learner") == "pac_bayes"
    gap = (main["bound_%"].where(~is_pac, main["gibbs_bound_%"])
           - main["cv_error_%"].where(~is_pac, main["gibbs_error_%"]))
    below = {v: int((main.xs(v, level="learner")["bound_%"] < NONTRIVIAL_BOUND).sum()) for v in STUMP_VARIANTS}
    gibbs = main.xs("pac_bayes", level="learner")["gibbs_bound_%"]
    return render(TEMPLATES["bounds"], limit=NONTRIVIAL_BOUND, sc=below["sc"], occam=below["occam"],
                  pac=below["pac_bayes"], n=len(main.index.unique("dataset")), gibbs_low=gibbs.min(),
                  gibbs_high=gibbs.max(), gap_low=gap.min(), gap_high=gap.max())


def _empty(results) -> Markdown | None:
    occam = results[(results["learner"] == "occam") & (results["k"] == 0) & (results["prior"] == PRIORS[0])]
    share = occam.groupby("dataset", sort=False)["genes"].apply(lambda g: float((g == 0).mean()))
    empty = share[share > 0.5]
    if empty.empty:
        return None
    folds = occam[occam["dataset"].isin(empty.index)]
    return render(TEMPLATES["empty"], share=float((folds["genes"] == 0).mean()),
                  names=[DATASET_NAMES.get(n, n) for n in empty.index])


def _identical(report) -> Markdown:
    table = report.table
    ids = [i for i, v in zip(table["id"], table["verdict"]) if v == "identical"]
    if not ids:
        return render(TEMPLATES["no_identical"])
    return render(TEMPLATES["identical"], count=len(ids), ids=ids)


def _sensitivity(report) -> Markdown:
    verdicts = report.sensitivity.pivot(index="id", columns="variant", values="verdict")
    table = report.table.set_index("id")
    judged = [i for i in table.index
              if table.loc[i, "origin"] in ("paper", "check") and table.loc[i, "kind"] not in ("unit_test", "guaranteed")
              and table.loc[i, "verdict"] != "n/a"]
    main = verdicts.columns[0] if "main" not in verdicts.columns else "main"

    def moved(prefix):
        columns = [c for c in verdicts.columns if c.startswith(prefix)]
        return [i for i in judged if i in verdicts.index
                and any(verdicts.loc[i, c] != verdicts.loc[i, main] for c in columns if pd.notna(verdicts.loc[i, c]))]

    range_ids, seed_ids = moved("range="), moved("seed=")
    return render(TEMPLATES["sensitivity"], judged=len(judged), range_count=len(range_ids), range_ids=range_ids,
                  seed_count=len(seed_ids), seed_ids=seed_ids)


def _margins(sweep, config) -> Markdown | None:
    paths = sweep[sweep["stumps"] > 0]
    if paths.empty:
        return None
    best = paths.loc[paths.groupby("gap")["gibbs_bound"].idxmin()]
    overall = best.loc[best["gibbs_bound"].idxmin()]
    protocol = best[best["gap"].isin(config.margin_gaps)]
    wider = best[best["gap"] > max(config.margin_gaps)]
    pays = len(wider) and len(protocol) and wider["gibbs_bound"].min() < protocol["gibbs_bound"].min()
    return render(TEMPLATES["margins"], gap=int(overall["gap"]), stumps=int(overall["stumps"]),
                  bound=float(overall["gibbs_bound"]), wider_word="a" if pays else "no",
                  protocol=[str(g) for g in config.margin_gaps])


def _eta(tradeoff, config) -> Markdown | None:
    paths = tradeoff[tradeoff["stumps"] > 0]
    if paths.empty:
        return None
    best = paths.loc[paths.groupby("eta")["bound"].idxmin()].set_index("eta")
    winners = best.index[np.isclose(best["bound"], best["bound"].min(), rtol=1e-12, atol=0)]
    row = best.loc[winners[0]]
    at = best.loc[config.eta]["bound"] if config.eta in best.index else np.nan
    key = "eta_protocol" if config.eta in winners else "eta"
    return render(TEMPLATES[key], etas=[f"{e:g}" for e in winners], bound=float(row["bound"]),
                  stumps=int(row["stumps"]), bits=int(row["code bits"]), errors=int(row["training errors"]),
                  eta=config.eta, eta_bound=float(at))


def discussion(report, summary, matched, frequency, sweep, tradeoff, folds, config=None) -> Markdown:
    """Notebook 05's discussion: one item per claim (the registry's templates), then the cross-cutting points.

    Parameters
    ----------
    report : companion.claims.ClaimsReport
        :func:`~companion.experiments.paper05.claims_report` of ``folds``.
    summary : pandas.DataFrame
        :func:`~companion.experiments.paper05.summary_table` of ``folds``.
    matched : pandas.DataFrame
        :func:`~companion.experiments.paper05.matched_table` of ``folds`` (kept for the signature).
    frequency : pandas.DataFrame
        :func:`~companion.experiments.paper05.gene_frequency` of ``folds`` (kept for the signature).
    sweep : pandas.DataFrame
        :func:`~companion.experiments.paper05.margin_sweep` (Leukaemia).
    tradeoff : pandas.DataFrame
        :func:`~companion.experiments.paper05.occam_tradeoff` (Leukaemia).
    folds : pandas.DataFrame
        :func:`~companion.experiments.paper05.run`'s frame.
    config : Config, optional
        The protocol that produced them (default ``Config()``).

    Returns
    -------
    companion.prose.Markdown
    """
    config = Config() if config is None else config
    values = _claim_values(report, folds)
    table = report.table
    ids = [i for i, template, verdict in zip(table["id"], table["discussion"], table["verdict"])
           if template and verdict != "n/a"]
    parts = [report.discussion(ids, values={i: values[i] for i in ids if i in values}).data,
             render(TEMPLATES["choices"], stumps=_shares(folds, "stumps"),
                    competitors=_shares(folds, "competitor")).data,
             _bounds(summary).data]
    for extra in (_empty(folds), _identical(report), _sensitivity(report), _margins(sweep, config),
                  _eta(tradeoff, config)):
        if extra is not None:
            parts.append(extra.data)
    return Markdown("\n\n".join(parts))
