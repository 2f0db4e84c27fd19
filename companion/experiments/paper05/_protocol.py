"""What notebook 05 runs and on which folds: the data sets, ``Config``, the learners of one outer
fold and ``run`` (Shah, Marchand & Corbeil, TPAMI 2012, Sections I-V); the variants re-run
around it are in ``_variants``.
"""

from __future__ import annotations

import hashlib
import math
import warnings
from dataclasses import dataclass, field
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
from sklearn.utils import Bunch, safe_sqr
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

#: How the notebook's prose and figures name the data sets.
DATASET_NAMES = {"colon": "Colon", "leukemia_golub": "Leukaemia", "c_md": "C_MD", "breast_er": "BreastER",
                 "prostate": "Prostate", "lung_gordon": "Lung", "all_bioc": "ALL"}


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


def loaded_datasets(names, data=None) -> dict:
    """``{name: load_dataset(name)}`` for ``names``, each read once: from ``data`` where given.

    A notebook loads its data sets once and hands them to every run and variant on them
    (:func:`companion.experiments.paper05.results_section`); reading and verifying a microarray
    table costs more than some of the fits made on it.

    Parameters
    ----------
    names : sequence of str
        Keys of :data:`DATASETS`.
    data : dict or None, default=None
        ``{name: load_dataset(name)}`` already loaded (a superset of ``names`` is fine); None:
        every data set is loaded here.

    Returns
    -------
    dict
    """
    return {name: data[name] if data is not None and name in data else load_dataset(name) for name in names}


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
        sample (a choice variant, :data:`~companion.experiments.paper05._variants.CHOICE_VARIANTS`); ``declared_second``:
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


def _competitor_rows(X_tr, y_tr, X_te, y_te, keep, config, seed, nsc_threshold=None, *, shared=None):
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

    ``shared``: a dict, filled (when given) with what :func:`_matched_competitor_rows` reads again
    on these arrays (:class:`FoldMemo`): the L1 path's first genes, BAHSIC's order and the matched
    competitors' rows.
    """
    linear = SVC(kernel="linear", C=COMPETITOR_SETTINGS["svm_c"])
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
    boost, staged = boosted_stumps(F_tr, y_tr, F_te, config.adaboost_rounds, seed)
    # Two classes: predict's and the last stage's vote are the same sums of the same signed
    # weights (both the sign of the second class's column), divided by a positive norm.
    row("adaboost_stumps", 0, staged[-1] if len(boost.classes_) == 2 else boost.predict(F_te),
        len(boosted_genes(boost, len(boost.estimators_))))
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
    matched = _matched_rows(Z_tr, y_tr, Z_te, y_te, config, order_l1=order_l1, order=order, boost=boost, staged=staged,
                            rfe=rfe, svm_c=COMPETITOR_SETTINGS["svm_c"], refit_c=COMPETITOR_SETTINGS["refit_c"])
    if shared is not None:
        shared.update(order_l1=list(order_l1), order=np.array(order), rows=[dict(r) for r in matched])
    rows += matched
    return rows, nsc_errors


#: The settings of the competitors at matched sparsity (``k`` ≥ 1) in the main protocol: the linear
#: SVM's ``C`` of SVM-RFE's eliminations and BAHSIC's classifier, and the ``C`` of the L2-logistic
#: refit on the first ``k`` genes of the L1 path, and the order of the genes' columns AdaBoost's
#: stumps are fitted on (``"given"``: the filter's; ``"reversed"``: the same columns in reverse,
#: so that among stumps tied on the weights the tree builder meets another first and AdaBoost's
#: tie rule changes). (AdaBoost's rounds and the L1 path are not settings at ``k`` ≤ 3: the first
#: ``k`` rounds, and the order genes enter, are used.)
COMPETITOR_SETTINGS = {"svm_c": 1.0, "refit_c": 1.0, "boost_order": "given"}

#: The column orders of :data:`COMPETITOR_SETTINGS`' ``boost_order``: the index that reorders the
#: kept genes' columns, for ``n`` columns.
BOOST_ORDERS = {"given": lambda n: np.arange(n), "reversed": lambda n: np.arange(n)[::-1]}


def _matched_rows(Z_tr, y_tr, Z_te, y_te, config, *, order_l1, order, boost, staged, rfe, svm_c, refit_c,
                  learners=MATCHED_COMPETITORS):
    """Rows of the matched competitors ``learners`` at each ``k`` of ``config.matched_k`` (see
    :func:`_competitor_rows`): L1-logistic (its path's first ``k`` genes refitted at ``refit_c``),
    SVM-RFE (``rfe``: :func:`_rfe_runs` with the SVM at ``svm_c``), AdaBoost's first ``k`` rounds
    and BAHSIC's last ``k`` genes of ``order`` under a linear SVM at ``svm_c``; for each ``k``, in
    the order of :data:`MATCHED_COMPETITORS`' protocol rows (L1, SVM-RFE, AdaBoost, BAHSIC)."""
    rows = []

    def row(learner, k, predicted, genes):
        rows.append({"learner": learner, "k": k, "prior": "-", "errors": int(np.sum(predicted != y_te)),
                     "genes": int(genes)})

    linear = SVC(kernel="linear", C=svm_c)
    for k in config.matched_k:
        if "l1_logistic" in learners:
            genes = order_l1[:k]
            refit = LogisticRegression(C=refit_c).fit(Z_tr[:, genes], y_tr)
            row("l1_logistic", k, refit.predict(Z_te[:, genes]), len(genes))
        if "svm_rfe" in learners:
            support, model = rfe[k]
            row("svm_rfe", k, model.predict(Z_te[:, support]), support.sum())
        if "adaboost_stumps" in learners:
            rounds = min(k, len(staged))
            row("adaboost_stumps", k, staged[rounds - 1], len(boosted_genes(boost, rounds)))
        if "bahsic" in learners:
            kept = np.sort(order[-k:])
            row("bahsic", k, clone(linear).fit(Z_tr[:, kept], y_tr).predict(Z_te[:, kept]), kept.size)
    return rows


#: The protocol's order of the matched competitors' rows at each ``k`` (:func:`_matched_rows`).
_MATCHED_ROW_ORDER = ("l1_logistic", "svm_rfe", "adaboost_stumps", "bahsic")

#: The setting of :data:`COMPETITOR_SETTINGS` each matched competitor reads.
_MATCHED_SETTING = {"l1_logistic": "refit_c", "svm_rfe": "svm_c", "bahsic": "svm_c", "adaboost_stumps": "boost_order"}


def _matched_competitor_rows(X_tr, y_tr, X_te, y_te, keep, config, seed, settings, *, shared=None):
    """``{label: rows}``: the matched competitors' rows under each of ``settings`` (``{label:
    {"svm_c": …, "refit_c": …, "boost_order": …}}``), each learner fitted once per distinct value
    of the setting it reads and sharing what no setting changes (the standardised kept genes, the
    L1 path, BAHSIC's order).

    AdaBoost is fitted for ``max(config.matched_k)`` rounds: its first ``k`` rounds are those of
    the protocol's longer fit (each round draws its stump's seed in turn from ``seed``).

    ``shared``: what :func:`_competitor_rows` recorded on the same arrays (:class:`FoldMemo`), or
    None. Given, the L1 path and BAHSIC's order are not recomputed, and the rows of AdaBoost and of
    each learner at its :data:`COMPETITOR_SETTINGS` value are the protocol's own (the same fits)."""
    F_tr, F_te = X_tr[:, keep], X_te[:, keep]
    scaler = StandardScaler().fit(F_tr)
    Z_tr, Z_te = scaler.transform(F_tr), scaler.transform(F_te)
    first = next(iter(settings.values()))
    by_learner = {}  # (learner, setting value) -> {k: row}
    if shared is not None:
        fits = {"order_l1": shared["order_l1"], "order": shared["order"]}
        for r in shared["rows"]:
            value = COMPETITOR_SETTINGS[_MATCHED_SETTING[r["learner"]]]
            by_learner.setdefault((r["learner"], value), {})[r["k"]] = dict(r)
    else:
        fits = {"order_l1": _l1_path_order(Z_tr, y_tr, max(config.matched_k), seed), "order": bahsic_order(Z_tr, y_tr)}

    def fitted(learners, svm_c, refit_c, value, boost_order="given"):
        learners = tuple(v for v in learners if (v, value) not in by_learner)  # the protocol's rows are known
        if not learners:
            return
        rfe = (_rfe_runs(SVC(kernel="linear", C=svm_c), Z_tr, y_tr, config.matched_k, 0.5, linear_svm_importance)
               if "svm_rfe" in learners else None)
        boost = staged = None
        if "adaboost_stumps" in learners:
            columns = BOOST_ORDERS[boost_order](F_tr.shape[1])
            boost, staged = boosted_stumps(F_tr[:, columns], y_tr, F_te[:, columns], max(config.matched_k), seed)
        for r in _matched_rows(Z_tr, y_tr, Z_te, y_te, config, rfe=rfe, svm_c=svm_c, refit_c=refit_c,
                               learners=learners, boost=boost, staged=staged, order_l1=fits["order_l1"],
                               order=fits["order"]):
            by_learner.setdefault((r["learner"], value), {})[r["k"]] = r

    for order in dict.fromkeys(s["boost_order"] for s in settings.values()):
        fitted(("adaboost_stumps",), first["svm_c"], first["refit_c"], order, boost_order=order)
    for c in dict.fromkeys(s["svm_c"] for s in settings.values()):
        fitted(("svm_rfe", "bahsic"), c, first["refit_c"], c)
    for c in dict.fromkeys(s["refit_c"] for s in settings.values()):
        fitted(("l1_logistic",), first["svm_c"], c, c)
    value = _MATCHED_SETTING
    return {label: [dict(by_learner[(learner, s[value[learner]])][k])
                    for k in config.matched_k for learner in _MATCHED_ROW_ORDER]
            for label, s in settings.items()}


def selected_matched(X_tr, y_tr, X_te, y_te, keep, config, seed, inner_seed, settings, *, shared=None):
    """``{label: rows}``: the matched competitors' outer rows under each setting, and one
    ``competitor`` row per ``k`` ≥ 1 chosen on the inner folds as :func:`_selected_competitors`
    chooses it (same inner folds, same filter, ties to the first of :data:`MATCHED_COMPETITORS`).

    ``shared``: the list :func:`_selected_competitors` filled on this outer fold (one entry per
    inner fold, then the outer fold; :class:`FoldMemo`), or None."""
    parts = list(stratified_folds(y_tr, n_splits=config.inner_splits, seed=inner_seed))
    shared = [None] * (len(parts) + 1) if shared is None else shared
    inner = {label: {} for label in settings}
    for (train, test), known in zip(parts, shared):
        inner_keep = welch_t_ranking(X_tr[train], y_tr[train], config.n_prefilter)
        for label, rows in _matched_competitor_rows(X_tr[train], y_tr[train], X_tr[test], y_tr[test], inner_keep,
                                                    config, seed, settings, shared=known).items():
            for r in rows:
                inner[label][(r["learner"], r["k"])] = inner[label].get((r["learner"], r["k"]), 0) + r["errors"]
    out = _matched_competitor_rows(X_tr, y_tr, X_te, y_te, keep, config, seed, settings, shared=shared[len(parts)])
    for label, rows in out.items():
        outer = {(r["learner"], r["k"]): r for r in rows}
        for k in config.matched_k:
            chosen = min(MATCHED_COMPETITORS, key=lambda c: (inner[label][(c, k)], MATCHED_COMPETITORS.index(c)))
            rows.append({**outer[(chosen, k)], "learner": "competitor", "chosen": chosen})
    return out


def _selected_competitors(X_tr, y_tr, X_te, y_te, keep, config, seed, inner_seed, *, shared=None):
    """Every competitor's rows on the outer fold, plus one ``competitor`` row per ``k``: the one chosen on inner folds.

    The training fold is split into ``config.inner_splits`` stratified inner folds (seed
    ``inner_seed``); on each, the Welch filter and every competitor are rerun on the inner
    training part and scored on the inner test part. NSC's threshold is the one with the fewest
    inner errors (ties: the larger), and its inner errors there are its score; the competitor with
    the fewest inner errors at each ``k`` (ties: the first of :data:`COMPETITORS`, resp.
    :data:`MATCHED_COMPETITORS`) is the ``competitor`` of that ``k``, its outer errors those of the
    chosen learner. No outer test example is read by any choice.

    ``shared``: a list, filled (when given) with one dict per inner fold, then one for the outer
    fold, of what :func:`selected_matched` reads again there (:func:`_competitor_rows`).
    """
    inner = {}
    nsc_inner = np.zeros(len(NSC_THRESHOLDS), dtype=int)
    for train, test in stratified_folds(y_tr, n_splits=config.inner_splits, seed=inner_seed):
        inner_keep = welch_t_ranking(X_tr[train], y_tr[train], config.n_prefilter)
        part = None if shared is None else {}
        rows, nsc_errors = _competitor_rows(X_tr[train], y_tr[train], X_tr[test], y_tr[test], inner_keep, config, seed,
                                            shared=part)
        if shared is not None:
            shared.append(part)
        for r in rows:
            inner[(r["learner"], r["k"])] = inner.get((r["learner"], r["k"]), 0) + r["errors"]
        nsc_inner += nsc_errors
    lowest = np.flatnonzero(nsc_inner == nsc_inner.min())
    threshold = NSC_THRESHOLDS[lowest[-1]]
    inner[("nsc", 0)] = int(nsc_inner.min())
    part = None if shared is None else {}
    rows, _ = _competitor_rows(X_tr, y_tr, X_te, y_te, keep, config, seed, nsc_threshold=threshold, shared=part)
    if shared is not None:
        shared.append(part)
    outer = {(r["learner"], r["k"]): r for r in rows}
    for k in (0, *config.matched_k):
        candidates = COMPETITORS if k == 0 else MATCHED_COMPETITORS
        chosen = min(candidates, key=lambda c: (inner[(c, k)], candidates.index(c)))
        rows.append({**outer[(chosen, k)], "learner": "competitor", "chosen": chosen})
    for r in rows:
        if r["learner"] == "nsc":
            r["p"] = threshold
    return rows


def boosted_stumps(X_train, y_train, X_test, n_rounds, seed):
    """AdaBoost (SAMME) of ``n_rounds`` decision stumps and its staged predictions on ``X_test``.

    The model and predictions of scikit-learn's ``AdaBoostClassifier(DecisionTreeClassifier(
    max_depth=1), n_estimators=n_rounds, random_state=seed)``: its ``fit`` and
    ``staged_predict`` loops, step for step (the same weights, the same seed drawn for each stump
    in turn, the same early stops, the same sums in the same order), around the same tree fits,
    with one difference in rounding. scikit-learn reweights by ``exp(log(w) + α · [wrong])`` and
    weighs the stump by ``α = log((1 − ε) / ε)``, through numpy's ``log`` and ``exp`` loops, whose
    last bits follow the SIMD level numpy dispatches to (AVX-512 or not). Two stumps whose weighted
    errors are mathematically equal then differ by those bits, and the tree builder picks one
    by them: the chosen stumps followed the CPU. Here a misclassified weight is multiplied by
    ``(1 − ε) / ε`` (which is ``exp(α)``) and a correct one is left as it is (``exp(log(w)) = w``):
    the same weights mathematically, rounded by IEEE multiplication and division alone, so every
    machine fits the same stumps. ``α`` itself is the C library's ``log`` (:func:`math.log`), and
    a staged vote within ``TIE_RTOL`` of 0 (mathematically tied) goes to the first class, as
    scikit-learn's exact 0 does.
    The trees are fitted and read with their input checks off, on the ``float32`` copies the
    checks would make of the inputs (once, not once per round and call): scikit-learn's checks
    and clones are about a third of the time of a round on a microarray fold (25 rounds on
    Colon's folds: 1.56 times faster). Two classes only; with any other number the scikit-learn
    estimator itself is fitted. Tests compare the two on random data with ties and early stops.

    Parameters
    ----------
    X_train : ndarray of shape (n_samples, n_features)
    y_train : ndarray of shape (n_samples,)
    X_test : ndarray of shape (n_test, n_features)
    n_rounds : int
    seed : int

    Returns
    -------
    boost : Bunch or AdaBoostClassifier
        ``estimators_`` (the fitted stumps) and ``classes_``.
    staged : list of ndarray
        The prediction on ``X_test`` after each round (``staged_predict``).
    """
    if np.unique(y_train).size != 2:
        boost = AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=n_rounds,
                                   random_state=seed).fit(X_train, y_train)
        return boost, list(boost.staged_predict(X_test))
    X = np.ascontiguousarray(X_train, dtype=np.float32)  # the trees' own conversion of their input
    X_te = np.ascontiguousarray(X_test, dtype=np.float32)
    # The trees see the labels' codes: they encode labels by np.unique's order themselves, so the
    # same codes reach the tree builder; classes_ are the labels, read back by code.
    classes, y = np.unique(np.asarray(y_train), return_inverse=True)
    sample_weight = np.ones(y.shape[0], dtype=np.float64)
    sample_weight /= sample_weight.sum()
    random_state = np.random.RandomState(seed)
    epsilon = np.finfo(sample_weight.dtype).eps
    zero_weight_mask = sample_weight == 0.0
    trees, weights = [], np.zeros(n_rounds, dtype=np.float64)
    for iboost in range(n_rounds):
        sample_weight = np.clip(sample_weight, a_min=epsilon, a_max=None)
        sample_weight[zero_weight_mask] = 0.0
        tree = DecisionTreeClassifier(max_depth=1, random_state=random_state.randint(np.iinfo(np.int32).max))
        trees.append(tree)
        tree.fit(X, y, sample_weight=sample_weight, check_input=False)
        y_predict = tree.predict(X, check_input=False)
        incorrect = y_predict != y
        estimator_error = np.mean(np.average(incorrect, weights=sample_weight, axis=0))
        if estimator_error <= 0:
            weights[iboost] = 1.0
            break
        n_classes = len(classes)
        if estimator_error >= 1.0 - (1.0 / n_classes):
            trees.pop(-1)
            if not trees:
                raise ValueError("BaseClassifier in AdaBoostClassifier ensemble is worse than random, ensemble "
                                 "can not be fit.")
            break
        # Two classes: log(n_classes - 1) = 0, and exp(α) = (1 - ε) / ε (see the docstring).
        odds = (1.0 - estimator_error) / estimator_error
        estimator_weight = math.log(odds)
        if not iboost == n_rounds - 1:
            sample_weight = np.where(incorrect & (sample_weight > 0), sample_weight * odds, sample_weight)
        weights[iboost] = estimator_weight
        sample_weight_sum = np.sum(sample_weight)
        if not np.isfinite(sample_weight_sum) or sample_weight_sum <= 0:
            break
        if iboost < n_rounds - 1:
            sample_weight /= sample_weight_sum
    staged, pred, norm = [], None, 0.0
    column = np.arange(classes.size)[:, np.newaxis]
    for weight, tree in zip(weights, trees):
        norm += weight
        current = np.where((tree.predict(X_te, check_input=False) == column).T, weight, -1 / (2 - 1) * weight)
        if pred is None:
            pred = current
        else:
            pred += current
        tmp_pred = np.copy(pred)
        tmp_pred[:, 0] *= -1
        staged.append(np.array(classes.take((tmp_pred / norm).sum(axis=1) > TIE_RTOL, axis=0)))
    return Bunch(estimators_=trees, classes_=classes), staged


def boosted_genes(boost, rounds):
    """The genes of the first ``rounds`` stumps of a fitted AdaBoost (leaves without a split skipped)."""
    return {int(tree.tree_.feature[0]) for tree in boost.estimators_[:rounds] if tree.tree_.feature[0] >= 0}


def stump_rows(name, X, X_tr, y_tr, X_te, y_te, keep, names, config, prior_ranges=None, *, known=None,
               computed=None):
    """Rows of the stump learners: bound-chosen length and ``k`` stumps, for each prior range.

    ``prior_ranges``: ``{prior: prior_feature_range(name, X, prior)}`` if known (a function of the
    whole data set, the same on every fold: :func:`run` computes it once per data set).
    ``known``: ``{(learner, prior): rows}`` already made on this fold with the same parameters
    and range (:class:`FoldMemo`): those are not refitted. ``computed``: a dict, filled (when
    given) with the rows fitted here, by ``(learner, prior)``.
    """
    rows = []
    for variant in STUMP_VARIANTS:
        for prior in (config.priors[:1] if variant == "sc" else config.priors):
            if known is not None and (variant, prior) in known:
                rows += [{**r, "prior": prior} for r in known[(variant, prior)]]
                continue
            start = len(rows)
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
            if computed is not None:
                computed[(variant, prior)] = [dict(r) for r in rows[start:]]
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


def selected_stumps(rows, config):
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
    return _shared_fold_rows(loaded, config, seed, (item, None))[0]


def _shared_fold_rows(loaded, config, seed, task):
    """:func:`_fold_rows` of ``task = (item, known)``, also returning what a :class:`FoldMemo` keeps.

    ``known``: the stump rows already made on this fold (:func:`stump_rows`), or None. Returns
    ``(rows, computed, shared)``: the fold's rows, the stump rows fitted here by ``(learner,
    prior)``, and :func:`_selected_competitors`' shared list.
    """
    item, known = task
    name, (repeat, fold, train, test) = item
    X, y, names, *prior_ranges = loaded[name]  # run adds the prior ranges of the whole data set
    X_tr, y_tr, X_te, y_te = X[train], y[train], X[test], y[test]
    keep = welch_t_ranking(X_tr, y_tr, config.n_prefilter)
    base = {"dataset": name, "repeat": repeat, "fold": fold, "n_train": len(train), "n_test": len(test)}
    # loaded and verified once; about 30 fits per fold on the same arrays. A greedy path that keeps
    # no stump (Occam on Colon) is the paper's model, reported by the claims: no SingleClassWarning.
    with trusted_inputs(), warnings.catch_warnings():
        warnings.simplefilter("ignore", SingleClassWarning)
        computed, shared = {}, []
        rows = stump_rows(name, X, X_tr, y_tr, X_te, y_te, keep, names, config, *prior_ranges, known=known,
                          computed=computed)
        rows += selected_stumps(rows, config)
        rows += _selected_competitors(X_tr, y_tr, X_te, y_te, keep, config, seed,
                                      inner_seed=1000 * (seed + repeat) + fold, shared=shared)
    return [{**base, **row} for row in rows], computed, shared


def _digest(*parts) -> str:
    """sha-256 of ``parts`` (arrays by dtype, shape and bytes; anything else by its ``repr``)."""
    h = hashlib.sha256()
    for part in parts:
        if isinstance(part, np.ndarray) and part.dtype.kind == "O":  # bytes of pointers: hash the values' text
            part = part.astype(str)
        if isinstance(part, np.ndarray):
            h.update(repr((part.dtype.str, part.shape)).encode())
            part = np.ascontiguousarray(part).tobytes()
        else:
            part = repr(part).encode()
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()


def data_digest(X, y, names) -> str:
    """sha-256 of a loaded data set (:func:`load_dataset`'s arrays): the data part of every :class:`FoldMemo` key."""
    return _digest(np.asarray(X), np.asarray(y), np.asarray(names))


def stump_keys(data_key, train, test, config, prior_ranges, n_total) -> dict:
    """``{(learner, prior): key}``: the :class:`FoldMemo` key of each stump learner's rows on a fold.

    A key holds everything :func:`stump_rows` reads for that learner and prior range: the data,
    the fold, the filter's size, the learner's parameters (:func:`stump_template`), the range of
    the whole data set, the grid and the ``k`` of the rows.
    """
    keys = {}
    for variant in STUMP_VARIANTS:
        params = stump_template(variant, config, n_total).get_params()
        params.pop("feature_range")
        for prior in (config.priors[:1] if variant == "sc" else config.priors):
            keys[(variant, prior)] = _digest("stump rows", data_key, train, test, config.n_prefilter, variant,
                                             sorted(params.items()), config.grid(variant),
                                             tuple(config.matched_k), prior_ranges[prior])
    return keys


def matched_key(data_key, train, test, config, seed, repeat, fold, rounds) -> str:
    """The :class:`FoldMemo` key of the competitors' shared entries on an outer fold.

    Everything those entries read: the data, the fold, the filter's size, the inner folds
    (``inner_splits`` and the seed ``1000 × (seed + repeat) + fold``), the learners' seed, the
    ``k`` of the matched rows, :data:`COMPETITOR_SETTINGS` and AdaBoost's ``rounds`` as far as the
    matched rows read them (``min(rounds, max(matched_k))``: :func:`run` stores under its
    ``adaboost_rounds``, :func:`selected_matched` looks up its ``max(matched_k)``-round fit, and
    the two meet only when the protocol's fit has at least those rounds).
    """
    return _digest("matched", data_key, train, test, config.n_prefilter, config.inner_splits,
                   1000 * (seed + repeat) + fold, seed, tuple(config.matched_k), sorted(COMPETITOR_SETTINGS.items()),
                   min(int(rounds), max(config.matched_k)))


class FoldMemo:
    """What notebook 05's protocol and its variants share on the same outer folds, owned by the caller.

    Pass one memo to :func:`run` and then to the variants rerun on its folds
    (:func:`~companion.experiments.paper05._variants.run_choice_variants`,
    :func:`~companion.experiments.paper05._variants.run_competitor_variants`); ``results_section``
    makes one per call. A call without one fits everything itself, so no result depends on what
    ran earlier in the process. Every entry is a deterministic function of everything its key
    holds, so a hit is what a refit gives:

    * ``stump_rows``: :func:`stump_keys` -> the rows of one stump learner under one prior range on
      one outer fold (:func:`stump_rows`). A choice variant that leaves a learner's parameters and
      range as they are (SC under the ``η`` and ``p``-grid variants; every learner on the data sets
      where a variant's declared range is the main one) reads its rows here.
    * ``matched``: :func:`matched_key` -> one entry per part of an outer fold on which the
      competitors are fitted (its inner folds in order, then the outer fold): the L1 path's first
      genes, BAHSIC's order and the matched competitors' rows at :data:`COMPETITOR_SETTINGS`
      (:func:`_competitor_rows`). The competitor variants rerun only the settings they change.

    Examples
    --------
    >>> memo = FoldMemo()  # then run(config, memo=memo), run_choice_variants(config, results, memo=memo), …
    >>> len(memo.stump_rows), len(memo.matched)
    (0, 0)
    """

    def __init__(self):
        self.stump_rows = {}
        self.matched = {}


#: The value columns of :func:`run`'s frame, after the keys, in order.
RESULT_COLUMNS = ["repeat", "n_train", "n_test", "learner", "k", "prior", "errors", "genes", "bound", "bound_pairing",
                  "gibbs_errors", "gibbs_bound", "model_type", "p", "gene_names", "rule", "chosen"]


def method_key(learner, k, prior):
    """``"occam"``, ``"occam k=2"``, ``"occam [per_gene]"``, ``"svm_rfe k=1"``: the tidy frame's method key."""
    return learner + (f" k={k}" if k else "") + (f" [{prior}]" if prior not in ("-", PRIORS[0]) else "")


@validate_params({"config": [Config], "n_jobs": N_JOBS, "data": [dict, None], "memo": [FoldMemo, None]},
                 prefer_skip_nested_validation=False)
def run(config: Config, n_jobs=1, *, data=None, memo=None) -> pd.DataFrame:
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
        protocol several times on the same data (:func:`~companion.experiments.paper05._variants.run_seed_variants`); None: loaded here.
    memo : FoldMemo or None, default=None
        Shared with the variants given the same memo (:class:`FoldMemo`): the stump rows already
        in it are not refitted, and what this run fits is added to it. The frame is the one a call
        without a memo gives.

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
    loaded = loaded_datasets(config.datasets, data)
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
    if memo is None:
        parts = parallel_map(partial(_fold_rows, loaded, config, seed), items, n_jobs=n_jobs)
    else:
        digests = {name: data_digest(X, y, names) for name, (X, y, names, _) in loaded.items()}
        keys = [stump_keys(digests[name], train, test, config, loaded[name][3], loaded[name][0].shape[1])
                for name, (_, _, train, test) in items]
        tasks = [(item, {vp: memo.stump_rows[key] for vp, key in k.items() if key in memo.stump_rows})
                 for item, k in zip(items, keys)]
        done = parallel_map(partial(_shared_fold_rows, loaded, config, seed), tasks, n_jobs=n_jobs)
        for (name, (repeat, fold, train, test)), k, (_, computed, shared) in zip(items, keys, done):
            memo.stump_rows.update({k[vp]: rows for vp, rows in computed.items()})
            memo.matched[matched_key(digests[name], train, test, config, seed, repeat, fold,
                                     config.adaboost_rounds)] = shared
        parts = [rows for rows, _, _ in done]
    frame = pd.DataFrame([row for part in parts for row in part])
    for column, fill in (("bound", np.nan), ("bound_pairing", np.nan), ("gibbs_errors", np.nan),
                         ("gibbs_bound", np.nan), ("model_type", ""), ("p", np.nan), ("gene_names", ""), ("rule", ""),
                         ("chosen", "")):
        frame[column] = frame[column].fillna(fill) if column in frame else fill
    frame["method"] = [method_key(*key) for key in zip(frame["learner"], frame["k"], frame["prior"])]
    frame["seed"] = seed + frame["repeat"]
    return check_tidy(frame[["dataset", "method", "seed", "fold", *RESULT_COLUMNS]])
def _gibbs_columns(model, X_test, y_test) -> dict:
    """Expected test errors of a PAC-Bayes model's stochastic Gibbs classifier, and its own bound."""
    proba = model.gibbs_proba(X_test)
    return {
        "gibbs_errors": float(np.sum(np.where(y_test == model.classes_[1], 1 - proba, proba))),
        "gibbs_bound": float(model.gibbs_bound_path_[-1]),
    }
