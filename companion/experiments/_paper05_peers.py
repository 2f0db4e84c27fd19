"""The two gene-selection peers Section I of Paper 05 sets its method against, for notebook 05's protocol.

Shah, Marchand & Corbeil (TPAMI 2012), Section I: "Another example is the approach of Tibshirani et
al. (2003) based on nearest shrunken centroids. Some kernel based approaches such as the BAHSIC
algorithm (Song et al., 2007) […] have also appeared."

* **NSC** (nearest shrunken centroids, Tibshirani et al. 2003): scikit-learn's
  :class:`~sklearn.neighbors.NearestCentroid` with ``shrink_threshold``; the threshold is chosen
  on inner folds of the training fold (:func:`nsc_choose_threshold`), as the authors' PAM does by
  cross-validation.
* **BAHSIC** (backward elimination by HSIC, Song et al. 2007): :func:`bahsic_order` removes, step
  by step, the genes whose removal leaves the Hilbert–Schmidt independence criterion between the
  remaining genes (Gaussian kernel) and the labels (linear kernel) largest, a tenth of the genes
  per step, as Song et al. do; the genes kept are then classified by a linear SVM.

Both are vectorised; ``tests/_naive.py`` holds a loop-by-loop BAHSIC the tests compare with.
"""

from __future__ import annotations

import numpy as np

__all__ = ["hsic_label_matrix", "bahsic_order", "NSC_THRESHOLDS", "nsc_genes", "nsc_choose_threshold"]

#: Shrinkage thresholds NSC chooses from (in units of the within-class standard deviation, as PAM's).
NSC_THRESHOLDS = tuple(float(t) for t in np.arange(0.0, 6.01, 0.5))

#: Share of the remaining genes BAHSIC removes per step (Song et al. 2007: 10 %).
BAHSIC_STEP = 0.1


def hsic_label_matrix(y) -> np.ndarray:
    """``H L H`` of a linear kernel on ±1 labels (``H`` centres): the label side of every HSIC.

    Parameters
    ----------
    y : array-like of shape (m,)
        Two classes.

    Returns
    -------
    ndarray of shape (m, m)
    """
    y = np.asarray(y)
    classes = np.unique(y)
    s = np.where(y == classes[-1], 1.0, -1.0)
    s = s - s.mean()
    return np.outer(s, s)


def bahsic_order(Z, y, *, step=BAHSIC_STEP):
    """BAHSIC's elimination order: gene indices from the first removed to the last kept.

    With ``S`` the remaining genes and the Gaussian kernel ``K_S = exp(−γ ‖x_S − x'_S‖²)``, the
    score of gene ``j ∈ S`` is ``tr(K_{S∖j} H L H)``, the (unnormalised) HSIC left after removing it;
    each step removes the ``max(1, ⌊step · |S|⌋)`` genes of largest score (equal scores: the lower
    index first). ``γ = 1 / (2 n)`` for the ``n`` genes given, fixed along the elimination (for
    standardised genes the exponent is about 1 on the full set). Removing ``j`` multiplies the
    kernel by ``exp(γ (x_j − x'_j)²)``, so one step scores every gene with one contraction.

    Parameters
    ----------
    Z : ndarray of shape (m, n)
        Standardised genes.
    y : array-like of shape (m,)
    step : float, default=0.1

    Returns
    -------
    ndarray of int of shape (n,)
        ``order[-k:]`` are the ``k`` genes BAHSIC keeps.
    """
    Z = np.asarray(Z, dtype=float)
    m, n = Z.shape
    gamma = 1.0 / (2.0 * n)
    M = hsic_label_matrix(y)
    D = gamma * (Z.T[:, :, None] - Z.T[:, None, :]) ** 2  # (n, m, m): γ × per-gene squared differences
    E = np.exp(D)
    K = np.exp(-D.sum(axis=0)) * M
    remaining = np.arange(n)
    removed = []
    while remaining.size > 1:
        scores = np.einsum("jab,ab->j", E[remaining], K)
        count = max(1, int(step * remaining.size))
        drop = np.argsort(-scores, kind="stable")[:count]
        removed.extend(remaining[drop].tolist())
        K = K * np.prod(E[remaining[drop]], axis=0)
        remaining = np.delete(remaining, drop)
    return np.asarray(removed + remaining.tolist(), dtype=int)


def nsc_genes(model) -> int:
    """Genes a fitted two-class shrunken-centroid model reads: those whose centroids differ."""
    centroids = np.asarray(model.centroids_)
    return int(np.count_nonzero(np.any(centroids != centroids[:1], axis=0)))


def nsc_path(X, y, X_test, thresholds=NSC_THRESHOLDS):
    """Predictions and genes of nearest shrunken centroids at every threshold, from one fit.

    The model of :class:`sklearn.neighbors.NearestCentroid` with ``priors="empirical"`` (PAM's
    discriminant: squared distance scaled by the within-class standard deviation, minus twice the
    log prior; with equal priors, scikit-learn's plain Euclidean distance) and ``shrink_threshold=t`` (``t = 0``: no shrinkage), each threshold's centroids
    computed from the same class means and deviations; the tests compare it with scikit-learn's.

    Parameters
    ----------
    X : ndarray of shape (m, n)
    y : ndarray of shape (m,)
    X_test : ndarray of shape (m_test, n)
    thresholds : sequence of float, default=NSC_THRESHOLDS

    Returns
    -------
    predictions : ndarray of shape (len(thresholds), m_test)
    genes : ndarray of int of shape (len(thresholds),)
        Genes whose shrunken centroids differ between the classes.
    """
    X, X_test = np.asarray(X, dtype=float), np.asarray(X_test, dtype=float)
    classes, y_ind = np.unique(y, return_inverse=True)
    m = len(y)
    nk = np.bincount(y_ind).astype(float)
    prior = nk / m
    centroids = np.vstack([X[y_ind == c].mean(axis=0) for c in range(classes.size)])
    sd = np.sqrt(((X - centroids[y_ind]) ** 2).sum(axis=0) / (m - classes.size))
    overall = X.mean(axis=0)
    ms = np.sqrt(1.0 / nk - 1.0 / m)[:, None] * (sd + np.median(sd))
    deviations = (centroids - overall) / ms
    # scikit-learn scores by the plain Euclidean distance when the priors are equal (balanced classes)
    equal = bool(np.isclose(prior, 1 / classes.size).all())
    scale = np.ones_like(sd) if equal else np.where(sd != 0, sd, 1.0)
    predictions, genes = [], []
    for t in thresholds:
        if t:
            shrunk = np.sign(deviations) * np.clip(np.abs(deviations) - t, 0, None)
            c = overall + ms * shrunk
        else:
            c = centroids
        distance = (((X_test[:, None, :] - c[None, :, :]) / scale) ** 2).sum(axis=2)
        score = -distance if equal else -distance + 2.0 * np.log(prior)
        predictions.append(classes[np.argmax(score, axis=1)])
        genes.append(int(np.count_nonzero(np.any(c != c[:1], axis=0))))
    return np.asarray(predictions), np.asarray(genes)


def nsc_choose_threshold(X, y, splits, thresholds=NSC_THRESHOLDS):
    """The shrinkage threshold with the fewest inner-fold errors (ties: the larger, sparser one).

    Parameters
    ----------
    X : ndarray of shape (m, n)
    y : ndarray of shape (m,)
    splits : sequence of (train, test) index arrays
        Inner folds of the training fold.
    thresholds : sequence of float, default=NSC_THRESHOLDS

    Returns
    -------
    threshold : float
    errors : ndarray of int
        Inner-fold errors summed over the splits, per threshold.
    """
    errors = np.zeros(len(thresholds), dtype=int)
    for train, test in splits:
        predictions, _ = nsc_path(X[train], y[train], X[test], thresholds)
        errors += (predictions != y[test]).sum(axis=1)
    best = np.flatnonzero(errors == errors.min())
    return float(thresholds[best[-1]]), errors
