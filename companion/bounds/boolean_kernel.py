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

from numbers import Integral, Real

import numpy as np
from scipy.linalg import cholesky, solve_triangular
from scipy.optimize import nnls
from sklearn.utils._param_validation import validate_params

from companion.numerics import StrictInterval, ordered_dot

__all__ = [
    "extended_gram",
    "alpha_lower_bound",
    "perceptron_lower_bound",
    "mmp_lower_bound",
    "minimal_risk",
    "error_lower_bound",
    "tree_risk",
    "regularised_risk",
    "hinge_risk",
    "theorem6_subset_size",
]


def _signed_labels(y, caller) -> np.ndarray:
    """Check that ``y`` holds only -1 and +1 and return it as floats.

    Parameters
    ----------
    y : array-like of shape (m,)
        Labels, which must be -1 or +1.
    caller : str
        The public function checking it, named in the error message.

    Returns
    -------
    ndarray of float, shape (m,)
        ``y`` as floats.
    """
    y = np.asarray(y, dtype=float).ravel()
    if y.size == 0 or not np.isin(y, (-1.0, 1.0)).all():
        raise ValueError(
            f"{caller}: y must be a non-empty vector of labels in {{-1, +1}}, got values {np.unique(y)[:5].tolist()}"
        )
    return y


#: ``lam``, the regularisation constant λ of Eq. 7, for scikit-learn's ``validate_params``.
_LAM = {"lam": [StrictInterval(Real, 0, None, closed="left")]}
#: ``lam`` where the risk divides by it (the hinge risk, the dual solver).
_POSITIVE_LAM = {"lam": [StrictInterval(Real, 0, None, closed="neither")]}
#: A squared RKHS norm ``‖f‖²`` (a tree's number of leaves when ``c ≡ 1``).
_NORM_SQ = [StrictInterval(Real, 0, None, closed="left")]
#: The kernel matrix of the training inputs and their labels in {-1, +1} (checked by hand).
_GRAM = {"K": ["array-like"], "y": ["array-like"]}
#: A function's values on the training inputs and their labels, with its squared norm.
_SCORES = {"decision_values": ["array-like"], "y": ["array-like"], "norm_sq": _NORM_SQ}


@validate_params({**_GRAM, **_LAM}, prefer_skip_nested_validation=True)
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

    Returns
    -------
    ndarray of shape (m, m)
        ``diag(y) K diag(y) + λ I``.
    """
    K = np.asarray(K, dtype=float)
    y = _signed_labels(y, "extended_gram")
    lam = float(lam)
    if K.ndim != 2 or K.shape != (y.size, y.size):
        raise ValueError(f"extended_gram: K must be a square ({y.size}, {y.size}) matrix matching y, got shape {K.shape}")
    G = (y[:, None] * y[None, :]) * K
    G[np.diag_indices_from(G)] += lam
    return G


@validate_params({"alpha": ["array-like"], "G": ["array-like"]}, prefer_skip_nested_validation=True)
def alpha_lower_bound(alpha, G) -> float:
    """General lower bound ``(Σ α_i)² / αᵀ G α ≤ R[f, λ]`` for every ``f`` (paper §4, key lemma).

    Parameters
    ----------
    alpha : array-like of shape (m,)
        Any non-negative weights, not all zero.
    G : array-like of shape (m, m)
        Extended Gram matrix from :func:`extended_gram`.


    Returns
    -------
    float
        ``(Σ α_i)² / αᵀ G α``, a lower bound on ``min_f R[f, λ]``.
    Raises
    ------
    ValueError
        If ``alpha`` has a negative entry, is all zero or does not match ``G``.
    """
    alpha = np.asarray(alpha, dtype=float).ravel()
    G = np.asarray(G, dtype=float)
    if G.shape != (alpha.size, alpha.size):
        raise ValueError(f"alpha_lower_bound: alpha of length {alpha.size} does not match G of shape {G.shape}")
    if np.any(alpha < 0) or not np.any(alpha > 0):
        raise ValueError(
            "alpha_lower_bound: alpha must be non-negative and not all zero for the bound (Σα)²/αᵀGα, "
            f"got entries from {alpha.min(initial=np.inf)!r} to {alpha.max(initial=-np.inf)!r}"
        )
    quadratic = float(alpha @ G @ alpha)
    if quadratic <= 0:
        return np.inf  # the extended points are separable with unbounded margin only if G is singular there
    return float(alpha.sum() ** 2 / quadratic)


@validate_params(
    {
        "n_updates": [StrictInterval(Integral, 0, None, closed="left")],
        "norm_sq": [StrictInterval(Real, 0, None, closed="neither")],
    },
    prefer_skip_nested_validation=True,
)
def perceptron_lower_bound(n_updates, norm_sq) -> float:
    """Eq. (9): ``t² / ‖w̃^t‖² ≤ min_f R[f, λ]`` after ``t`` updates of the λ-perceptron.

    Parameters
    ----------
    n_updates : int
        ``t``, the number of updates.
    norm_sq : float
        ``‖w̃^t‖² = αᵀ G α > 0``.

    Returns
    -------
    float
        ``t² / ‖w̃^t‖²``.
    """
    return float(n_updates) ** 2 / float(norm_sq)


@validate_params({"norm_sq": [StrictInterval(Real, 0, None, closed="neither")]}, prefer_skip_nested_validation=True)
def mmp_lower_bound(norm_sq) -> float:
    """Eq. (11): ``1 / ‖w̃^t‖² ≤ min_f R[f, λ]`` for any ``α`` in the simplex (λ-MMP state).

    Parameters
    ----------
    norm_sq : float
        ``‖w̃‖² = αᵀ G α > 0`` of the current state.

    Returns
    -------
    float
        ``1 / norm_sq``.
    """
    return 1.0 / float(norm_sq)


@validate_params({**_GRAM, **_POSITIVE_LAM}, prefer_skip_nested_validation=True)
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
        Must be > 0 (then ``G`` is positive definite; for ``lam = 0`` the data may not be separable).

    Returns
    -------
    risk : float
    b : ndarray of shape (m,)
    """
    lam = float(lam)
    G = extended_gram(K, y, lam)
    lower = cholesky(G, lower=True)
    target = solve_triangular(lower, np.ones(G.shape[0]), lower=True)
    b, _ = nnls(lower.T, target, maxiter=50 * G.shape[0])
    return float(b.sum()), b


@validate_params(
    {"risk_lower_bound": [StrictInterval(Real, 0, None, closed="left")], "norm_sq": _NORM_SQ, **_LAM},
    prefer_skip_nested_validation=True,
)
def error_lower_bound(risk_lower_bound, norm_sq, lam) -> float:
    """Theorem 5 (Eqs. 13–15): ``#errors ≥ (λ/4)(LB - ‖f‖²)`` for a decision tree ``f``.

    ``risk_lower_bound`` is any of the bounds (9), (11) or the general ``(Σα)²/αᵀGα``; ``norm_sq``
    is the tree's ``‖f‖² = Σ_leaves 1/c_depth`` (#leaves when ``c ≡ 1``). The result is clipped
    at 0; the number of errors is at least its ceiling.

    Parameters
    ----------
    risk_lower_bound : float
        A lower bound on ``min_f R[f, λ]`` (Eq. 9, Eq. 11 or :func:`alpha_lower_bound`).
    norm_sq : float
        The tree's ``‖f‖²``.
    lam : float
        Regularisation constant ``λ > 0``.

    Returns
    -------
    float
        ``max(0, (λ/4)(risk_lower_bound - norm_sq))``.
    """
    lam = float(lam)
    return max(0.0, lam / 4.0 * (float(risk_lower_bound) - float(norm_sq)))


@validate_params(
    {"norm_sq": _NORM_SQ, "n_errors": [StrictInterval(Real, 0, None, closed="left")], **_LAM},
    prefer_skip_nested_validation=True,
)
def tree_risk(norm_sq, n_errors, lam) -> float:
    """Eq. (8): risk of a decision tree, ``R = ‖f‖² + (4/λ)·#errors`` (= leaves + errors for λ=4, c≡1).

    Parameters
    ----------
    norm_sq : float
        The tree's ``‖f‖²`` (its number of leaves when ``c ≡ 1``).
    n_errors : int or float
        Its training errors (a weighted count when the tree was fitted with sample weights).
    lam : float
        Regularisation constant ``λ >= 0`` (``0``: the hard-margin risk, infinite with an error).

    Returns
    -------
    float
        ``‖f‖² + (4/λ)·n_errors``.
    """
    lam = float(lam)
    if lam <= 0:
        return float(norm_sq) if n_errors == 0 else np.inf
    return float(norm_sq) + 4.0 / lam * float(n_errors)


def _slacks(decision_values, y, caller) -> np.ndarray:
    """``ξ_i = (1 - y_i f(x_i))_+`` after checking ``f`` and ``y`` (shared by both risks of Eq. 7)."""
    f = np.asarray(decision_values, dtype=float).ravel()
    y = _signed_labels(y, caller)
    if f.shape != y.shape:
        raise ValueError(f"{caller}: decision_values and y must have the same length, got {f.size} and {y.size}")
    return np.maximum(0.0, 1.0 - y * f)


@validate_params({**_SCORES, **_LAM}, prefer_skip_nested_validation=True)
def regularised_risk(decision_values, y, norm_sq, lam) -> float:
    """Regularised risk ``R[f, λ] = ‖f‖² + (1/λ) Σ_i ξ_i²`` with ``ξ_i = (1 - y_i f(x_i))_+`` (Eq. 7).

    The risk the λ-perceptron and λ-MMP (:mod:`companion.perceptrons`) minimise and whose minimum
    the bounds of this module bound from below. For ``λ = 0`` it is ``‖f‖²`` when every margin
    ``y_i f(x_i) ≥ 1`` and ``+inf`` otherwise (hard margin). For a decision tree (values ±1) it
    equals ``‖f‖² + (4/λ)·#errors`` (Eq. 8).

    Parameters
    ----------
    decision_values : array-like of shape (m,)
        ``f(x_i)`` on the training inputs.
    y : array-like of shape (m,)
        Labels in {-1, +1}.
    norm_sq : float
        RKHS norm ``‖f‖²`` (Eq. 4; the number of leaves for a tree with ``c ≡ 1``).
    lam : float
        Regularisation constant ``λ ≥ 0``.


    Returns
    -------
    float
        ``R[f, λ]`` (``inf`` for ``λ = 0`` with a margin below 1).
    Examples
    --------
    >>> regularised_risk([1.0, -1.0, 1.0], [1, -1, -1], norm_sq=3.0, lam=4.0)   # 3 leaves, 1 error
    4.0
    """
    slack = _slacks(decision_values, y, "regularised_risk")
    lam = float(lam)
    if lam == 0:
        return float(norm_sq) if not np.any(slack > 0) else np.inf
    return float(norm_sq + ordered_dot(slack, slack) / lam)


@validate_params({**_SCORES, **_POSITIVE_LAM}, prefer_skip_nested_validation=True)
def hinge_risk(decision_values, y, norm_sq, lam) -> float:
    """Hinge ("SVM type") risk ``R₁[f, λ] = ‖f‖² + (2/λ) Σ_i (1 - y_i f(x_i))_+`` (paper Eq. 7).

    The paper defines two risks, the squared-hinge :func:`regularised_risk` of regularisation
    networks and this hinge risk of SVMs; the factor ``2/λ`` is our reconstruction (the paper's constant is garbled in our copy),
    chosen so that ``R = R₁`` on decision trees, whose values ±1 give slacks ``ξ_i ∈ {0, 2}``
    (Eq. 8: both equal ``‖f‖² + (4/λ)·#errors``). Parameters as :func:`regularised_risk`, with
    ``λ > 0``.


    Parameters
    ----------
    decision_values : array-like of shape (m,)
        ``f(x_i)`` on the training inputs.
    y : array-like of shape (m,)
        Labels in {-1, +1}.
    norm_sq : float
        RKHS norm ``‖f‖²`` (Eq. 4).
    lam : float
        Regularisation constant ``λ > 0`` (the loss is weighted by ``2/λ``).

    Returns
    -------
    float
        ``R₁[f, λ]``.
    Examples
    --------
    >>> hinge_risk([1.0, -1.0, 1.0], [1, -1, -1], norm_sq=3.0, lam=4.0)   # 3 leaves, 1 error: 3 + 4/4
    4.0
    """
    slack = _slacks(decision_values, y, "hinge_risk")
    lam = float(lam)
    return float(norm_sq) + 2.0 / lam * float(np.sum(np.sort(slack)))


@validate_params(
    {
        "norm_sq": [StrictInterval(Real, 0, None, closed="neither")],
        "kernel_diagonal": [StrictInterval(Real, 0, None, closed="neither")],
        "n_train": [StrictInterval(Integral, 1, None, closed="left")],
    },
    prefer_skip_nested_validation=True,
)
def theorem6_subset_size(norm_sq, kernel_diagonal, n_train) -> dict:
    """Size of Theorem 6's enumeration for trees/DNFs of norm ``‖f‖²`` (paper 03, Theorem 6, reconstructed).

    Theorem 6 (after Ben-David & Simon) finds, in time polynomial in ``n`` and ``m`` for fixed
    ``μ``, an ``h ∈ P_{d,n}`` with no more training errors than any tree or DNF ``f`` with
    ``‖f‖·max_i √k(x_i, x_i) ≤ 1/μ``, by trying the maximal margin hyperplane of every subset of
    at most ``s`` training points. The exponent's expression is garbled in our copy; we take
    ``s = ⌈2/μ²⌉`` (our reading), with ``μ = 1/(‖f‖ √k(x, x))``.

    Parameters
    ----------
    norm_sq : float
        ``‖f‖²`` of the competitor (leaves for a tree, ``c ≡ 1``), > 0.
    kernel_diagonal : float
        ``k(x, x)`` (constant on complemented inputs: 29 for d = 2, 128 for d ≥ 7), > 0.
    n_train : int
        ``m``.

    Returns
    -------
    dict with ``mu``, ``subset_size`` (``s``, capped at ``m``) and ``log10_subsets``
    (``log₁₀ Σ_{j ≤ s} binom(m, j)``, the number of quadratic programmes to solve).

    Examples
    --------
    >>> theorem6_subset_size(4, 29, 500)["subset_size"]     # 4 leaves at d = 2: s = 2·4·29
    232
    """
    from math import ceil, comb, log10

    mu = 1.0 / np.sqrt(float(norm_sq) * float(kernel_diagonal))
    size = min(int(n_train), ceil(2.0 / mu**2 - 1e-9))
    total = sum(comb(int(n_train), j) for j in range(size + 1))
    return {"mu": float(mu), "subset_size": int(size), "log10_subsets": float(log10(total))}
