"""Paper 05's protocol pieces whose outcome could depend on the machine (issue 13)."""

import numpy as np
from sklearn.svm import SVC

from companion.experiments.paper05 import linear_svm_importance, welch_t_ranking


def _welch_t(X, y):
    classes = np.unique(y)
    a, b = X[y == classes[0]], X[y == classes[1]]
    var = a.var(axis=0, ddof=1) / len(a) + b.var(axis=0, ddof=1) / len(b)
    return np.abs(a.mean(axis=0) - b.mean(axis=0)) / np.sqrt(np.where(var > 0, var, np.inf))


def test_welch_ranking_keeps_lower_index_among_duplicated_genes(rng):
    """Duplicated probes have equal |t|; the kept gene at the cut is the lower index, as a naive
    sort by (-|t|, index) says (argpartition's choice depended on the CPU's sorting kernel)."""
    base = rng.standard_normal((30, 8))
    X = np.hstack([base, base[:, ::-1], base])  # every gene three times
    y = np.repeat([0, 1], 15)
    t = _welch_t(X, y)
    for n_keep in range(1, X.shape[1] + 1):
        naive = sorted(range(X.shape[1]), key=lambda j: (-t[j], j))[:n_keep]
        assert welch_t_ranking(X, y, n_keep).tolist() == sorted(naive)


def test_linear_svm_importance_is_coef_squared_and_equal_for_identical_genes(rng):
    base = rng.standard_normal((40, 6))
    X = np.hstack([base, base[:, :2]])  # genes 6, 7 duplicate genes 0, 1
    y = (base[:, 0] + base[:, 1] + 0.3 * rng.standard_normal(40) > 0).astype(int)
    svm = SVC(kernel="linear", C=1.0).fit(X, y)
    importance = linear_svm_importance(svm)
    np.testing.assert_allclose(importance, svm.coef_[0] ** 2, rtol=1e-10, atol=1e-14)
    assert importance[0] == importance[6] and importance[1] == importance[7]
