"""Lower bounds on the regularised risk and on the number of errors, paper 03 §4 (Eqs. 9, 11, 13–15).

Extended feature space (paper §4, after Shawe-Taylor & Cristianini): with
``z_i = y_i (Φ(x_i), √λ e_i)`` the Gram matrix of the ``z_i`` is
``G = diag(y) K diag(y) + λ I`` and

    min_f R[f, λ] = 1 / min_{α ∈ simplex} αᵀ G α,     R[f, λ] = ‖f‖² + (1/λ) Σ_i (1 - y_i f(x_i))_+².

For *any* ``α ≥ 0`` (not all zero) Cauchy–Schwarz gives the general lower bound
``R[f, λ] ≥ (Σ α_i)² / αᵀ G α`` for every polynomial ``f``; the λ-perceptron's bound (9) is the
case ``Σ α_i = t`` (updates) and the λ-MMP's bound (11) the case ``Σ α_i = 1``.

For a decision tree, whose values are ±1, ``R = ‖f‖² + (4/λ)·#errors`` exactly (Eq. 8), which
turns a risk lower bound into a lower bound on the number of errors (Theorem 5, Eqs. 13–15).

>>> import numpy as np
>>> G = np.array([[2.0, 0.0], [0.0, 2.0]])
>>> round(alpha_lower_bound([1, 1], G), 6)     # (1+1)^2 / 4
1.0
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import cholesky, solve_triangular
from scipy.optimize import nnls

__all__ = [
    "signed_labels",
    "extended_gram",
    "alpha_lower_bound",
    "perceptron_lower_bound",
    "mmp_lower_bound",
    "minimal_risk",
    "error_lower_bound",
    "tree_risk",
]


def signed_labels(y) -> np.ndarray:
    """Check that ``y`` holds only -1 and +1 and return it as floats."""
    y = np.asarray(y, dtype=float).ravel()
    if y.size == 0 or not np.isin(y, (-1.0, 1.0)).all():
        raise ValueError(f"y must be a non-empty vector of labels in {{-1, +1}}, got values {np.unique(y)[:5].tolist()}")
    return y


def _check_lam(lam) -> float:
    if isinstance(lam, bool) or not isinstance(lam, (int, float, np.integer, np.floating)) or not lam >= 0:
        raise ValueError(f"lam (the regularisation constant λ) must be a number >= 0, got {lam!r}")
    return float(lam)


def extended_gram(K, y, lam) -> np.ndarray:
    """``G_ij = y_i y_j k(x_i, x_j) + λ δ_ij``: Gram matrix of the extended points ``z_i`` (paper §4).

    Parameters
    ----------
    K : array-like of shape (m, m)
        Kernel matrix on the training inputs.
    y : array-like of shape (m,)
        Labels in {-1, +1}.
    lam : float
        Regularisation constant λ ≥ 0.
    """
    K = np.asarray(K, dtype=float)
    y = signed_labels(y)
    lam = _check_lam(lam)
    if K.ndim != 2 or K.shape != (y.size, y.size):
        raise ValueError(f"K must be a square ({y.size}, {y.size}) matrix matching y, got shape {K.shape}")
    G = (y[:, None] * y[None, :]) * K
    G[np.diag_indices_from(G)] += lam
    return G


def alpha_lower_bound(alpha, G) -> float:
    """General lower bound ``(Σ α_i)² / αᵀ G α ≤ R[f, λ]`` for every ``f`` (paper §4, key lemma).

    Parameters
    ----------
    alpha : array-like of shape (m,)
        Any non-negative weights, not all zero.
    G : array-like of shape (m, m)
        Extended Gram matrix from :func:`extended_gram`.

    Raises
    ------
    ValueError
        If ``alpha`` has a negative entry, is all zero or does not match ``G``.
    """
    alpha = np.asarray(alpha, dtype=float).ravel()
    G = np.asarray(G, dtype=float)
    if G.shape != (alpha.size, alpha.size):
        raise ValueError(f"alpha of length {alpha.size} does not match G of shape {G.shape}")
    if np.any(alpha < 0) or not np.any(alpha > 0):
        raise ValueError("alpha must be non-negative and not all zero for the bound (Σα)²/αᵀGα")
    quadratic = float(alpha @ G @ alpha)
    if quadratic <= 0:
        return np.inf  # the extended points are separable with unbounded margin only if G is singular there
    return float(alpha.sum() ** 2 / quadratic)


def perceptron_lower_bound(n_updates, norm_sq) -> float:
    """Eq. (9): ``t² / ‖w̃^t‖² ≤ min_f R[f, λ]`` after ``t`` updates of the λ-perceptron."""
    if norm_sq <= 0:
        raise ValueError(f"norm_sq (‖w̃‖²) must be > 0, got {norm_sq!r}")
    return float(n_updates) ** 2 / float(norm_sq)


def mmp_lower_bound(norm_sq) -> float:
    """Eq. (11): ``1 / ‖w̃^t‖² ≤ min_f R[f, λ]`` for any ``α`` in the simplex (λ-MMP state)."""
    if norm_sq <= 0:
        raise ValueError(f"norm_sq (‖w̃‖²) must be > 0, got {norm_sq!r}")
    return 1.0 / float(norm_sq)


def minimal_risk(K, y, lam) -> tuple[float, np.ndarray]:
    """Exact ``min_f R[f, λ]`` over the RKHS, and its dual coefficients (reference solver).

    Solves the dual ``max_{b ≥ 0} Σ b_i - ½ bᵀ G b`` as a non-negative least-squares problem
    ``min_{b ≥ 0} ‖Lᵀ b - L⁻¹ 1‖`` with ``G = L Lᵀ``. At the optimum ``min R = Σ b*_i`` and
    ``f*(x) = Σ b*_i y_i k(x_i, x)``; the support vectors are ``{i : b*_i > 0}``.

    Parameters
    ----------
    K : array-like of shape (m, m)
    y : array-like of shape (m,), labels in {-1, +1}
    lam : float
        Must be > 0 (then ``G`` is positive definite).

    Returns
    -------
    risk : float
    b : ndarray of shape (m,)
    """
    lam = _check_lam(lam)
    if lam <= 0:
        raise ValueError("minimal_risk needs lam > 0 (for lam = 0 the data may not be separable)")
    G = extended_gram(K, y, lam)
    lower = cholesky(G, lower=True)
    target = solve_triangular(lower, np.ones(G.shape[0]), lower=True)
    b, _ = nnls(lower.T, target, maxiter=50 * G.shape[0])
    return float(b.sum()), b


def error_lower_bound(risk_lower_bound, norm_sq, lam) -> float:
    """Theorem 5 (Eqs. 13–15): ``#errors ≥ (λ/4)(LB - ‖f‖²)`` for a decision tree ``f``.

    ``risk_lower_bound`` is any of the bounds (9), (11) or the general ``(Σα)²/αᵀGα``; ``norm_sq``
    is the tree's ``‖f‖² = Σ_leaves 1/c_depth`` (#leaves when ``c ≡ 1``). The result is clipped
    at 0; the number of errors is at least its ceiling.
    """
    lam = _check_lam(lam)
    return max(0.0, lam / 4.0 * (float(risk_lower_bound) - float(norm_sq)))


def tree_risk(norm_sq, n_errors, lam) -> float:
    """Eq. (8): risk of a decision tree, ``R = ‖f‖² + (4/λ)·#errors`` (= leaves + errors for λ=4, c≡1)."""
    lam = _check_lam(lam)
    if lam <= 0:
        return float(norm_sq) if n_errors == 0 else np.inf
    return float(norm_sq) + 4.0 / lam * float(n_errors)
