"""What notebook 05 runs and on which folds: the data sets, ``Config``, the learners of one outer
fold, ``run`` and the fold-seed variants (Shah, Marchand & Corbeil, TPAMI 2012, Sections I-V).
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
from sklearn.utils._param_validation import validate_params

import companion.datasets as datasets
from companion.datasets import RegisteredDataset
from companion.evaluation import parallel_map, stratified_folds
from companion.experiments._constraints import N_JOBS
from companion.experiments._trusted import trusted_inputs
from companion.experiments._paper05_peers import NSC_THRESHOLDS, bahsic_order, nsc_path
from companion.experiments.protocol import check_tidy
from companion.bounds.compression import compression_bound
from companion.numerics import TIE_RTOL, first_near_min, ordered_matvec
from companion.interpretable import SingleClassWarning
from companion.stumps import OccamStumps, PacBayesStumps, SetCoveringStumps


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

#: The stump learner of each variant.
STUMP_LEARNERS = {"sc": SetCoveringStumps, "occam": OccamStumps, "pac_bayes": PacBayesStumps}
STUMP_VARIANTS = tuple(STUMP_LEARNERS)

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
#: Another data-independent declaration for the raw sets (a choice variant of the main one): a
#: 20-bit envelope, signed (the 16-bit scale times a scaling factor of up to 16), two bits wider.
_RAW_AFFYMETRIX_WIDE = (-(2.0**20), 2.0**20)

DECLARED_RANGES = {
    "colon": _RAW_AFFYMETRIX,
    "leukemia_golub": _RAW_AFFYMETRIX,
    "c_md": _RAW_AFFYMETRIX,
    "breast_er": (-float(np.sqrt(7128.0)), float(np.sqrt(7128.0))),
    "prostate": _RAW_AFFYMETRIX,
    "lung_gordon": _RAW_AFFYMETRIX,
    "all_bioc": (0.0, 16.0),
}

#: A second reading of each file's definition (a choice variant of the main declaration, as fixed
#: as it): where the file's definition is a non-negative intensity (Colon's raw intensities), the
#: unsigned scale ``[0, 2^18]``; BreastER's standardised values within the dyadic envelope
#: ``[−2^7, 2^7]`` of Samuelson's bound; ALL's RMA values as log2 of 20-bit intensities, ``[0, 20]``.
#: Its dyadic points differ from the main declaration's (Colon's midpoint is ``2^17``, not 0; ALL's
#: is 10, not 8). The four signed raw sets (MAS average differences, which are negative as well as
#: positive by definition) keep ``[−2^18, 2^18]``: a declaration symmetric about 0 is what their
#: definition gives, so their rows are the main run's.
DECLARED_RANGES_SECOND = {**DECLARED_RANGES, "colon": (0.0, 2.0**18), "breast_er": (-(2.0**7), 2.0**7),
                          "all_bioc": (0.0, 20.0)}

#: The other declared range, as fixed as the main one: :data:`_RAW_AFFYMETRIX_WIDE` for the raw
#: Affymetrix sets, the main declaration for the two sets whose range follows from their scale.
DECLARED_RANGES_WIDE = {name: (_RAW_AFFYMETRIX_WIDE if value == _RAW_AFFYMETRIX else value)
                        for name, value in DECLARED_RANGES.items()}

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
    prior : {"declared", "declared_wide", "declared_second", "per_gene", "global"}, default="declared"
        ``declared``: :func:`declared_feature_range` (independent of every sample);
        ``declared_wide``: :data:`DECLARED_RANGES_WIDE`, another declaration independent of every
        sample (a choice variant, :data:`CHOICE_VARIANTS`); ``declared_second``:
        :data:`DECLARED_RANGES_SECOND`, a second reading of each file's definition (another choice variant);
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
    if prior == "declared_wide":
        low, high = DECLARED_RANGES_WIDE[name]
        if np.any((X < low) | (X > high)):
            raise ValueError(f"a value of {name!r} falls outside its wide declared range {[low, high]}")
        return np.vstack([np.full(X.shape[1], low), np.full(X.shape[1], high)])
    if prior == "declared_second":
        low, high = DECLARED_RANGES_SECOND[name]
        if np.any((X < low) | (X > high)):
            raise ValueError(f"a value of {name!r} falls outside its second declared range {[low, high]}")
        return np.vstack([np.full(X.shape[1], low), np.full(X.shape[1], high)])
    if prior == "per_gene":
        return np.vstack([X.min(axis=0), X.max(axis=0)])
    if prior == "global":
        return np.vstack([np.full(X.shape[1], X.min()), np.full(X.shape[1], X.max())])
    raise ValueError(f"prior must be one of {PRIORS}, 'declared_wide' or 'declared_second', got {prior!r}")


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


def stump_template(variant, config, n_total):
    """The unfitted learner of ``variant`` (a key of :data:`STUMP_LEARNERS`)."""
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
            template = stump_template(variant, config, X.shape[1]).set_params(feature_range=ranges)
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
                if variant == "sc":
                    row["bound_pairing"] = sc_bound_with_pairing(model, X_tr[:, keep], y_tr)
                rows.append(row)
    return rows


def sc_bound_with_pairing(model, X, y, *, pairing=True):
    """The strictly valid form of a fitted SC model's bound: Eq. 5 (as we reconstruct it) plus ``ln |k|!``.

    Section IV's message (Eq. 5) names the attribute set and the directions; which compression
    example thresholds which attribute is not in it (check ``sc-message-pairing`` enumerates what a
    message then denotes). This form also pays for that pairing, ``ln |k|!`` nats, with the same
    errors outside the compression set and the same confidence as ``model.bound_``.

    Parameters
    ----------
    model : SetCoveringStumps
        Fitted (possibly :meth:`truncated`) on ``X, y``, unweighted.
    X : ndarray of shape (m, n_kept)
    y : ndarray of shape (m,)
    pairing : bool, default=True
        Pay ``ln |k|!`` (False: the paper's form, ``model.bound_`` itself).

    Returns
    -------
    float
    """
    size = int(model.features_.size)
    wrong = model.predict(X) != y
    outside = int(wrong.sum() - wrong[np.asarray(model.compression_set_[:size], dtype=int)].sum())
    if size + outside > len(y):
        return 1.0
    return float(compression_bound(outside, len(y), int(model.prior_n_features_), size, float(model.delta),
                                   pairing=pairing))


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
RESULT_COLUMNS = ["repeat", "n_train", "n_test", "learner", "k", "prior", "errors", "genes", "bound", "bound_pairing",
                  "gibbs_errors", "gibbs_bound", "model_type", "p", "gene_names", "rule", "chosen"]


def method_key(learner, k, prior):
    """``"occam"``, ``"occam k=2"``, ``"occam [per_gene]"``, ``"svm_rfe k=1"``: the tidy frame's method key."""
    return learner + (f" k={k}" if k else "") + (f" [{prior}]" if prior not in ("-", PRIORS[0]) else "")


@validate_params({"config": [Config], "n_jobs": N_JOBS, "data": [dict, None]}, prefer_skip_nested_validation=False)
def run(config: Config, n_jobs=1, *, data=None) -> pd.DataFrame:
    """The repeated outer CV of every data set of ``config``: stump learners and competitors, same folds.

    Parameters
    ----------
    config : Config
        The protocol.
    n_jobs : int or None, default=1
        Every (data set, repeat, outer fold) is one independent item of
        :func:`companion.evaluation.parallel_map` (1: serial; -1: all local cores), carrying its
        own split and seeds: the frame does not depend on ``n_jobs``.
    data : dict or None, default=None
        ``{name: load_dataset(name)}`` for the data sets of ``config``, from a caller that runs the
        protocol several times on the same data (:func:`run_seed_variants`); None: loaded here.

    Returns
    -------
    pandas.DataFrame
        Tidy (:func:`companion.experiments.protocol.check_tidy`): one row per ``dataset``,
        ``method`` (:func:`method_key`: learner, ``k=…`` when restricted to ``k`` stumps or genes,
        ``[prior]`` for a sample-dependent prior range), ``seed`` (the repeat's fold seed,
        ``config.seed + repeat``) and 0-based ``fold``. Values (:data:`RESULT_COLUMNS`):
        ``learner``, ``k`` (0: unrestricted), ``prior`` (``"-"`` for competitors), test
        ``errors``, ``genes`` used, the training-fold ``bound`` (PAC-Bayes: the Bayes vote's,
        ``min(1, 2 × Gibbs)``), the Gibbs classifier's expected test errors and bound, the chosen
        ``model_type`` and ``p``, the genes' names and the rule (unrestricted stump models).
    """
    seed = config.seed
    loaded = {name: data[name] if data is not None else load_dataset(name) for name in config.datasets}
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
    for column, fill in (("bound", np.nan), ("bound_pairing", np.nan), ("gibbs_errors", np.nan),
                         ("gibbs_bound", np.nan), ("model_type", ""), ("p", np.nan), ("gene_names", ""), ("rule", ""),
                         ("chosen", "")):
        frame[column] = frame[column].fillna(fill) if column in frame else fill
    frame["method"] = [method_key(*key) for key in zip(frame["learner"], frame["k"], frame["prior"])]
    frame["seed"] = seed + frame["repeat"]
    return check_tidy(frame[["dataset", "method", "seed", "fold", *RESULT_COLUMNS]])
#: Fold-seed variants of every claim: the whole protocol rerun on other outer folds.
N_SEED_VARIANTS = 4
#: Names of the prior-range variants: the main range first, then the two sample-dependent ones, named as what
#: they are: sensitivity runs whose range reads every example, test folds included, so no valid prior.
VARIANT_NAMES = {"declared": "main",
                 "per_gene": "range=per gene from the whole data (invalid prior: test folds leak)",
                 "global": "range=global from the whole data (invalid prior: test folds leak)"}


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

    The data sets are loaded once and shared by the variants' runs.

    Parameters
    ----------
    config : Config
    n : int, default=N_SEED_VARIANTS
    n_jobs : int, default=1

    Returns
    -------
    dict
    """
    data = {name: load_dataset(name) for name in config.datasets}
    return {name: run(variant, n_jobs=n_jobs, data=data) for name, variant in seed_configs(config, n).items()}


#: The free choices of the stump learners varied beside the main protocol (on its folds, declared
#: range; the competitors' rows are the main run's): ``{variant name: Config fields}``.
#: ``prefilter``: the stump learners' search sees that many in-fold Welch-filtered genes (the
#: competitors keep ``n_prefilter``). A variant naming ``datasets`` reruns those only: on the
#: others its range is the main one, and their rows are the main run's.
CHOICE_VARIANTS = {
    "eta=0.5": {"eta": 0.5},
    "eta=0.25": {"eta": 0.25},
    "p=grid 0.5 1 2 for Occam and PAC-Bayes": {"costly_p": (0.5, 1.0, 2.0)},
    "prefilter=200 (stump learners)": {"n_prefilter": 200},
    "prefilter=50 (stump learners)": {"n_prefilter": 50},
    "range=declared 20-bit envelope for the raw sets": {"priors": ("declared_wide",)},
    "range=declared second reading (Colon [0, 2^18], BreastER ±2^7, ALL [0, 20])": {
        "priors": ("declared_second",), "datasets": ("colon", "breast_er", "all_bioc")},
}


def _stump_fold_rows(loaded, config, item):
    """The stump learners' rows of one outer fold (declared range), as :func:`_fold_rows` makes them."""
    name, (repeat, fold, train, test) = item
    X, y, names, prior_ranges = loaded[name]
    X_tr, y_tr, X_te, y_te = X[train], y[train], X[test], y[test]
    keep = welch_t_ranking(X_tr, y_tr, config.n_prefilter)
    base = {"dataset": name, "repeat": repeat, "fold": fold, "n_train": len(train), "n_test": len(test)}
    with trusted_inputs(), warnings.catch_warnings():
        warnings.simplefilter("ignore", SingleClassWarning)
        rows = _stump_rows(name, X, X_tr, y_tr, X_te, y_te, keep, names, config, prior_ranges)
        rows += _selected_stumps(rows, config)
    return [{**base, **row} for row in rows]


def run_choice_variants(config, results, n_jobs=1, variants=None):
    """The stump learners rerun under each free choice of :data:`CHOICE_VARIANTS`, on the main folds.

    Each variant is ``config`` with the variant's fields and the declared range only (or, for
    ``range=declared …``, the other declared range, whose rows then stand as the main range's); its stump
    rows (and the bound-chosen ``stumps`` rows) are recomputed on every outer fold of the main run,
    and the competitors' rows are ``results``' (their settings do not change).

    Parameters
    ----------
    config : Config
        The main protocol.
    results : pandas.DataFrame
        :func:`run`'s frame of ``config``.
    n_jobs : int, default=1
    variants : dict or None, default=None
        ``{name: Config fields}`` (None: :data:`CHOICE_VARIANTS`).

    Returns
    -------
    dict
        ``{variant name: frame}``, each shaped as :func:`run`'s.
    """
    variants = CHOICE_VARIANTS if variants is None else variants
    data = {name: load_dataset(name) for name in config.datasets}
    out = {}
    competitors = results[~results["learner"].isin([*STUMP_VARIANTS, "stumps"])]
    for label, fields in variants.items():
        fields = dict(fields)
        if "datasets" in fields:  # the other data sets' rows are the main run's (same range there)
            fields["datasets"] = tuple(n for n in config.datasets if n in fields["datasets"])
        variant = replace(config, **{"priors": config.priors[:1], **fields})
        same = results[~results["dataset"].isin(variant.datasets) & results["learner"].isin([*STUMP_VARIANTS, "stumps"])
                       & (results["prior"] == PRIORS[0])]
        loaded = {name: (X, y, names, {p: prior_feature_range(name, X, p) for p in variant.priors})
                  for name, (X, y, names) in data.items() if name in variant.datasets}
        items = [(name, (repeat, fold, train, test)) for name in variant.datasets for repeat in range(variant.n_repeats)
                 for fold, (train, test) in enumerate(stratified_folds(loaded[name][1], n_splits=variant.n_splits,
                                                                       seed=variant.seed + repeat))]
        columns = ["dataset", "method", "seed", "fold", *RESULT_COLUMNS]
        frame = results.iloc[0:0][columns]
        if items:
            parts = parallel_map(partial(_stump_fold_rows, loaded, variant), items, n_jobs=n_jobs)
            frame = pd.DataFrame([row for part in parts for row in part])
            for column, fill in (("bound", np.nan), ("bound_pairing", np.nan), ("gibbs_errors", np.nan),
                                 ("gibbs_bound", np.nan), ("model_type", ""), ("p", np.nan), ("gene_names", ""),
                                 ("rule", ""), ("chosen", "")):
                frame[column] = frame[column].fillna(fill) if column in frame else fill
            # a variant's own declared range stands where the main one does (the claims read that row)
            frame["prior"] = frame["prior"].replace({variant.priors[0]: PRIORS[0]})
            frame["method"] = [method_key(*key) for key in zip(frame["learner"], frame["k"], frame["prior"])]
            frame["seed"] = variant.seed + frame["repeat"]
        frame = pd.concat([part[columns] for part in (frame, same, competitors) if len(part)], ignore_index=True)
        out[label] = check_tidy(frame)
    return out


#: The rules that pick the stump side of a fold (the ``stumps`` rows, read by the matched-sparsity
#: k-rows) beside the protocol's (the smallest training-fold bound, PAC-Bayes read by its Bayes
#: vote's bound, twice its Gibbs bound, so never chosen): each named learner alone, and the
#: smallest bound with PAC-Bayes read by its Gibbs bound (its Bayes vote predicts) or with SC's
#: bound paying ``ln |k|!`` (:func:`sc_bound_with_pairing`). ``{variant name: rule}``.
SELECTION_RULES = {
    "select=SC alone": "sc",
    "select=Occam alone": "occam",
    "select=PAC-Bayes alone (Bayes vote)": "pac_bayes",
    "select=smallest bound, PAC-Bayes by its Gibbs bound": "gibbs",
    "select=smallest bound, SC paying ln|k|!": "pairing",
}


def selection_variants(results, rules=None):
    """:func:`run`'s frame with its ``stumps`` rows chosen by each rule of :data:`SELECTION_RULES`.

    The stump learners' and competitors' rows are ``results``' own; on each fold, ``k`` and prior
    range the ``stumps`` row becomes the row of the learner the rule picks (ties within
    :data:`companion.numerics.TIE_RTOL` go to the first of :data:`STUMP_VARIANTS`, as in
    :func:`_selected_stumps`). Nothing is refitted and no rule reads a test fold.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.
    rules : dict or None, default=None
        ``{variant name: rule}`` (None: :data:`SELECTION_RULES`); a rule is a key of
        :data:`STUMP_LEARNERS` (that learner alone), ``"gibbs"`` or ``"pairing"``.

    Returns
    -------
    dict
        ``{variant name: frame}``, each shaped as :func:`run`'s.
    """
    rules = SELECTION_RULES if rules is None else rules
    learners = results[results["learner"].isin(STUMP_VARIANTS)]
    rest = results[results["learner"] != "stumps"]
    priors = [p for p in dict.fromkeys(results.loc[results["learner"] == "stumps", "prior"])]
    out = {}
    for label, rule in rules.items():
        chosen = []
        for prior in priors:
            part = learners[(learners["prior"] == prior) | (learners["learner"] == "sc")]
            if rule in STUMP_LEARNERS:
                picked = part[part["learner"] == rule]
            else:
                score = part["bound"]
                if rule == "gibbs":
                    score = score.where(part["learner"] != "pac_bayes", part["gibbs_bound"])
                if rule == "pairing":
                    score = score.where(part["learner"] != "sc", part["bound_pairing"])
                order = part["learner"].map({v: i for i, v in enumerate(STUMP_VARIANTS)})
                part = part.assign(_score=score.to_numpy(dtype=float), _order=order)
                rows = []
                for _, group in part.groupby(["dataset", "repeat", "fold", "k"], sort=False):
                    group = group.sort_values("_order", kind="stable")
                    rows.append(group.index[first_near_min(group["_score"].to_numpy())])
                picked = part.loc[rows].drop(columns=["_score", "_order"])
            chosen.append(picked.assign(chosen=picked["learner"], learner="stumps", prior=prior, rule="",
                                        method=[method_key("stumps", k, prior) for k in picked["k"]]))
        frame = pd.concat([rest, *chosen], ignore_index=True)
        out[label] = check_tidy(frame[results.columns])
    return out


def _gibbs_columns(model, X_test, y_test) -> dict:
    """Expected test errors of a PAC-Bayes model's stochastic Gibbs classifier, and its own bound."""
    proba = model.gibbs_proba(X_test)
    return {
        "gibbs_errors": float(np.sum(np.where(y_test == model.classes_[1], 1 - proba, proba))),
        "gibbs_bound": float(model.gibbs_bound_path_[-1]),
    }
