"""Sample-compression bounds of the Decision List Machine (paper 01, Section 4) and the SCM.

Sokolova, Marchand, Japkowicz and Shawe-Taylor, *The Decision List Machine*, NIPS 15 (2002).

* :func:`theorem1_bound` — Theorem 1 (Pi and Ni balls only: the "simple" DLM).
* :func:`theorem2_bound` — Theorem 2 (all four ball types: the "complex" DLM).
* :func:`dlm_bound_path` — either theorem for every prefix of a fitted
  :class:`~companion.decision_list.DecisionListMachine` (for bound-based model selection).
* :func:`corrected_bound` — **our correction** of Theorems 1/2: the published statements choose the
  compression and error sets within each class, which fails for lists that err on almost a whole
  class (the bound can fall below the training error); choosing them among all examples does not.
* :func:`scm_bound`, :func:`scm_bound_path` — a bound for the SCM with balls, **our
  reconstruction** by the proof of Theorem 1 (the JMLR 2002 statement was not recovered).
  It chooses its sets within each class as Theorems 1-2 do and inherits their defect;
  :func:`scm_bound_corrected` (``scm_bound_path(..., variant="corrected")``) repairs it the same way.
* :func:`corrected_log_message` — the corrected bounds are the general sample-compression bound
  (Marchand & Sokolova 2005; :func:`companion.bounds.compression.sample_compression_bound`) with
  this message length.
* :func:`compression_message` — what Section 4 transmits: the compression set plus the ordering
  message that the bounds count. The reconstruction function that rebuilds the list from it is
  learner code, :func:`companion.decision_list.reconstruct_decision_list`.

Bounds take counts or a fitted model's public attributes (``path_``, ``n_positive_``, …) and never
import a learner.

All bounds hold with probability ``1 - delta`` and need a learner that classifies its compression
set correctly (``compression_constraint=True``); they are 1 when ``m - λ - k <= 0``.

>>> round(theorem1_bound(200, 415, c_p=1, c_n=1, b_p=1, b_n=1, k_p=5, k_n=5, r=2), 6)
0.137559
>>> round(theorem2_bound(200, 415, c_p=1, c_n=1, b_p=1, b_n=1, k_p=5, k_n=5, r=2), 6)
0.142519
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral

import numpy as np
from scipy.special import gammaln
from sklearn import config_context
from sklearn.utils._param_validation import Options, StrOptions, validate_params

from companion.bounds.binomial import log_choose
from companion.bounds._confidence import COUNTS_CONSTRAINTS, DELTA_CONSTRAINTS, check_delta
from companion.bounds.occam import log_zeta
from companion.numerics import StrictInterval

__all__ = [
    "theorem1_bound",
    "theorem2_bound",
    "scm_bound",
    "dlm_bound_path",
    "scm_bound_path",
    "corrected_bound",
    "corrected_log_message",
    "scm_bound_corrected",
    "CompressionMessage",
    "compression_message",
]

_LN_ZETA_NORMALISER = np.log(np.pi**2 / 6.0)  # sum_{i>=1} 1/i^2 = pi^2/6


_COUNT = [StrictInterval(Integral, 0, None, closed="left")]


def _counts(*names, **more):
    """scikit-learn ``validate_params`` constraints: each named count an int >= 0, and ``delta``."""
    return {**dict.fromkeys(names, _COUNT), "delta": DELTA_CONSTRAINTS, **more}


#: The bound paths' ``variant``: the paper's bound or our correction.
_VARIANT = [StrOptions({"published", "corrected"})]
# A fitted machine, or any object with its public attributes: bounds read them and never import
# a learner, so no type can be declared; _check_fitted checks the attributes (a TypeError naming
# the expected machine) and that it is fitted.
_FITTED = "no_validation"


def _theorem_log_terms(m_p, m_n, c_p, c_n, b_p, b_n, k_p, k_n, delta):
    """``ln B_Λ`` and ``ln(1/δ_Λ)`` of Theorems 1-2, on scalars or arrays of counts."""
    ln_b = (
        log_choose(m_p, c_p)
        + log_choose(m_p - c_p, b_p)
        + log_choose(m_n, c_n)
        + log_choose(m_n - c_n, b_n)
        + log_choose(m_p - c_p - b_p, k_p)
        + log_choose(m_n - c_n - b_n, k_n)
    )
    ln_inv_delta = (
        6 * _LN_ZETA_NORMALISER
        + 2 * np.log((c_p + 1) * (c_n + 1) * (b_p + 1) * (b_n + 1) * (k_p + 1) * (k_n + 1))
        - np.log(delta)
    )
    return ln_b, ln_inv_delta


def _compression_terms(m_p, m_n, c_p, c_n, b_p, b_n, k_p, k_n, delta):
    """``ln B_Λ`` and ``ln(1/δ_Λ)`` of Theorem 1, and ``m - λ - k``."""
    if c_p + b_p + k_p > m_p or c_n + b_n + k_n > m_n:
        raise ValueError(
            "the compression and error counts exceed the class sizes: "
            f"c_p + b_p + k_p = {c_p + b_p + k_p} vs m_p = {m_p}, c_n + b_n + k_n = {c_n + b_n + k_n} vs m_n = {m_n}"
        )
    ln_b, ln_inv_delta = _theorem_log_terms(m_p, m_n, c_p, c_n, b_p, b_n, k_p, k_n, delta)
    free = (m_p + m_n) - (c_p + c_n + b_p + b_n) - (k_p + k_n)
    return float(ln_b), float(ln_inv_delta), free


def _solve(complexity, free):
    # (1 - eps)^free * exp(complexity) = 1  =>  eps = 1 - exp(-complexity / free)
    if free <= 0:
        return 1.0
    return float(-np.expm1(-complexity / free))


@validate_params(_counts("m_p", "m_n", "c_p", "c_n", "b_p", "b_n", "k_p", "k_n", "r"), prefer_skip_nested_validation=True)
def theorem1_bound(m_p, m_n, *, c_p, c_n, b_p, b_n, k_p, k_n, r, delta=0.05) -> float:
    """Theorem 1: risk bound of a DLM of ``r`` Pi/Ni balls (Sokolova et al. 2002, Section 4).

    ``er <= 1 - exp(-(ln B_Λ + ln r! + ln 1/δ_Λ) / (m - λ - k))`` with
    ``B_Λ = C(m_p,c_p) C(m_p-c_p,b_p) C(m_n,c_n) C(m_n-c_n,b_n) C(m_p-c_p-b_p,k_p) C(m_n-c_n-b_n,k_n)``
    and ``δ_Λ = (π²/6)^-6 ((c_p+1)(c_n+1)(b_p+1)(b_n+1)(k_p+1)(k_n+1))^-2 δ``.

    Parameters
    ----------
    m_p, m_n : int
        Numbers of positive and negative training examples.
    c_p, c_n : int
        Positive / negative ball centres.
    b_p, b_n : int
        Positive / negative borders that are not centres.
    k_p, k_n : int
        Training errors on positives / negatives.
    r : int
        Number of balls (``ln r!`` bits order them).
    delta : float, default=0.05

    Returns
    -------
    float
        Upper bound on the true risk, in ``[0, 1]``.
    """
    ln_b, ln_inv_delta, free = _compression_terms(m_p, m_n, c_p, c_n, b_p, b_n, k_p, k_n, delta)
    return _solve(ln_b + float(gammaln(r + 1)) + ln_inv_delta, free)


@validate_params(_counts("m_p", "m_n", "c_p", "c_n", "b_p", "b_n", "k_p", "k_n", "r"), prefer_skip_nested_validation=True)
def theorem2_bound(m_p, m_n, *, c_p, c_n, b_p, b_n, k_p, k_n, r, delta=0.05) -> float:
    """Theorem 2: risk bound of a DLM with all four ball types (Section 4).

    As :func:`theorem1_bound` with ``ln r!`` replaced by ``ln λ + r ln(2c)`` (``λ`` the
    compression-set size, ``c = c_p + c_n``): ``log₂ λ`` bits send ``r``, then each ball sends which
    centre it uses and whether it covers inside or outside.

    Parameters
    ----------
    m_p, m_n : int
        Numbers of positive and negative training examples.
    c_p, c_n : int
        Positive / negative ball centres.
    b_p, b_n : int
        Positive / negative borders that are not centres.
    k_p, k_n : int
        Training errors on positives / negatives.
    r : int
        Number of balls.
    delta : float, default=0.05
        Confidence parameter.

    Returns
    -------
    float
        Upper bound on the true risk, in ``[0, 1]``.
    """
    ln_b, ln_inv_delta, free = _compression_terms(m_p, m_n, c_p, c_n, b_p, b_n, k_p, k_n, delta)
    size = c_p + c_n + b_p + b_n
    centres = c_p + c_n
    ordering = (np.log(size) if size > 0 else 0.0) + (r * np.log(2 * centres) if r > 0 else 0.0)
    return _solve(ln_b + ordering + ln_inv_delta, free)


@validate_params(_counts("m_p", "m_n", "c_p", "c_n", "b_p", "k_p", "k_n"), prefer_skip_nested_validation=True)
def scm_bound(m_p, m_n, *, c_p, c_n, b_p, k_p, k_n, delta=0.05) -> float:
    """Risk bound of a ball SCM conjunction — OUR RECONSTRUCTION, not the JMLR 2002 formula.

    By the proof of Theorem 1 of paper 01, our reconstruction: a conjunction of balls is fixed by its centres
    ``c_p``/``c_n`` and its positive borders ``b_p`` (radii are min/max distances to the positive
    compression examples; no ordering message):
    ``er <= 1 - exp(-(ln[C(m_p,c_p) C(m_p-c_p,b_p) C(m_n,c_n) C(m_p-c_p-b_p,k_p) C(m_n-c_n,k_n)]
    + ln 1/((π²/6)^-5 ((c_p+1)(c_n+1)(b_p+1)(k_p+1)(k_n+1))^-2 δ)) / (m - λ - k))``.
    For a disjunction pass the counts with the classes swapped.

    **Flagged**: like Theorems 1-2 it chooses the compression and error sets within each class
    and then uses the unconditional ``(1 - er)^(m - λ - k)``, so it inherits their defect (it can
    fall below the training error of a conjunction that gives up on one class; notebook 01's
    coverage experiment). Kept unchanged for reference; :func:`scm_bound_corrected` is the valid
    form.

    Parameters
    ----------
    m_p, m_n : int
        Numbers of positive and negative training examples.
    c_p, c_n : int
        Positive / negative ball centres.
    b_p : int
        Positive borders that are not centres.
    k_p, k_n : int
        Training errors on positives / negatives.
    delta : float, default=0.05
        Confidence parameter.

    Returns
    -------
    float
        Upper bound on the true risk, in ``[0, 1]``.
    """
    if c_p + b_p + k_p > m_p or c_n + k_n > m_n:
        raise ValueError("the compression and error counts exceed the class sizes")
    ln_b = (
        log_choose(m_p, c_p)
        + log_choose(m_p - c_p, b_p)
        + log_choose(m_n, c_n)
        + log_choose(m_p - c_p - b_p, k_p)
        + log_choose(m_n - c_n, k_n)
    )
    ln_inv_delta = (
        5 * _LN_ZETA_NORMALISER
        + 2 * np.log((c_p + 1) * (c_n + 1) * (b_p + 1) * (k_p + 1) * (k_n + 1))
        - np.log(delta)
    )
    free = (m_p + m_n) - (c_p + c_n + b_p) - (k_p + k_n)
    return _solve(float(ln_b) + float(ln_inv_delta), free)


@validate_params(_counts("m", "compression_size", "n_centres", "n_errors", "r", ball_type=[StrOptions({"simple", "complex"})]), prefer_skip_nested_validation=True)
def corrected_bound(m, *, compression_size, n_centres, n_errors, r, ball_type="simple", delta=0.05) -> float:
    """A sample-compression bound for the DLM that does not split counts by class — OUR CORRECTION.

    Theorems 1 and 2 choose the compression and error sets *within each class*
    (``C(m_p, c_p) … C(m_n - c_n - b_n, k_n)``), i.e. conditionally on the class counts, and then use
    the unconditional ``(1 - er)^(m - λ - k)``. Conditionally on the labels that step fails: a
    list that errs on almost every positive has ``C(m_p - c_p - b_p, k_p) ≈ 1`` and gets a bound
    near 0 although its risk is about the positive rate (this happens on Pima, see notebook 01).
    Choosing the index sets among all ``m`` examples makes the standard argument go through: the
    examples outside the compression and error sets are i.i.d. and independent of the rebuilt list, so

    ``er <= 1 - exp(-(ln C(m, λ) + ln C(λ, c) + ln C(m - λ, k) + ln M + ln 1/δ') / (m - λ - k))``

    with ``C(λ, c)`` saying which compression examples are centres (their classes are their labels),
    ``ln M`` the ordering message (``ln r!`` for Pi/Ni balls, ``ln λ + r ln(2c)`` for all four types)
    and ``δ' = (π²/6)^-3 ((λ+1)(c+1)(k+1))^-2 δ``.

    Parameters
    ----------
    m : int
        Training-set size.
    compression_size : int
        ``λ``.
    n_centres : int
        ``c`` (distinct centres).
    n_errors : int
        ``k`` (training errors; none in the compression set).
    r : int
        Number of balls.
    ball_type : {"simple", "complex"}
    delta : float, default=0.05

    Returns
    -------
    float
        Upper bound on the true risk, in ``[0, 1]``.
    """
    if n_centres > compression_size or compression_size + n_errors > m:
        raise ValueError("need n_centres <= compression_size and compression_size + n_errors <= m")
    return float(
        _corrected_vectorised(ball_type, m, compression_size, n_centres, n_errors, r, delta)
    )


@validate_params(
    {
        "compression_size": COUNTS_CONSTRAINTS,
        "n_centres": COUNTS_CONSTRAINTS,
        "r": COUNTS_CONSTRAINTS,
        "ball_type": [StrOptions({"simple", "complex", "scm"})],
    },
    prefer_skip_nested_validation=True,
)
def corrected_log_message(compression_size, n_centres, r, ball_type="simple"):
    """``ln 1/P_M(σ)`` of the corrected bounds read as a general sample-compression message.

    The message says which ``c`` of the ``λ`` compression examples are centres (``ζ(c)`` for the
    number ``c``, then uniform over the ``C(λ, c)`` choices), then the ordering: ``r!`` orders for
    Pi/Ni balls (``"simple"``), ``λ (2c)^r`` for all four types (``"complex"``), nothing for a
    ball SCM (``"scm"``: a conjunction or disjunction does not depend on the order of its balls):
    ``ln 1/P_M = ln C(λ, c) - ln ζ(c) + ln M``. With it the general bound
    (:func:`companion.bounds.compression.sample_compression_bound`, paper 05's Theorem 3) is
    exactly :func:`corrected_bound` (and :func:`scm_bound_corrected`), since
    ``δ' = ζ(λ) ζ(c) ζ(k) δ``.

    Parameters
    ----------
    compression_size : int or array-like of int
        ``λ``, the compression examples (centres and borders).
    n_centres : int or array-like of int
        ``c``, the distinct centres.
    r : int or array-like of int
        Number of balls.
    ball_type : {"simple", "complex", "scm"}, default="simple"
        Which ordering message (see above).

    Returns
    -------
    float or numpy.ndarray
        ``ln 1/P_M(σ)`` in nats.
    """
    lam, c, r = (np.asarray(v, dtype=float) for v in (compression_size, n_centres, r))
    if ball_type == "simple":
        ordering = gammaln(r + 1)
    elif ball_type == "complex":
        ordering = np.log(np.maximum(lam, 1)) + np.where(r > 0, r * np.log(np.maximum(2 * c, 1)), 0.0)
    else:
        ordering = np.zeros_like(lam)
    out = log_choose(lam, c) - log_zeta(c) + ordering
    return float(out) if out.ndim == 0 else out


@validate_params(_counts("m", "compression_size", "n_centres", "n_errors"), prefer_skip_nested_validation=True)
def scm_bound_corrected(m, *, compression_size, n_centres, n_errors, delta=0.05) -> float:
    """Risk bound of a ball SCM with the sets chosen among all ``m`` examples — OUR CORRECTION.

    :func:`scm_bound` fixed as :func:`corrected_bound` fixes Theorems 1-2:
    ``er <= 1 - exp(-(ln C(m, λ) + ln C(λ, c) + ln C(m - λ, k) + ln 1/δ') / (m - λ - k))``,
    ``δ' = (π²/6)^-3 ((λ+1)(c+1)(k+1))^-2 δ``, no ordering message. The reconstruction is that of
    :func:`scm_bound` (the centres are marked, the other compression examples are borders; each
    ball's type follows from its centre's label). It is the general sample-compression bound with
    :func:`corrected_log_message` ``(..., ball_type="scm")``.

    Parameters
    ----------
    m : int
    compression_size : int
        ``λ`` (centres and borders).
    n_centres : int
        ``c``.
    n_errors : int
        ``k``, training errors (none in the compression set).
    delta : float, default=0.05

    Returns
    -------
    float
        Upper bound on the true risk, in ``[0, 1]``.
    """
    if n_centres > compression_size or compression_size + n_errors > m:
        raise ValueError("need n_centres <= compression_size and compression_size + n_errors <= m")
    return float(_corrected_vectorised("scm", m, compression_size, n_centres, n_errors, 0, delta))


def _corrected_vectorised(ball_type, m, lam, c, k, r, delta):
    lam, c, k, r = (np.asarray(v, dtype=float) for v in (lam, c, k, r))
    ln_choices = log_choose(m, lam) + log_choose(lam, c) + log_choose(m - lam, k)
    if ball_type == "simple":
        ordering = gammaln(r + 1)
    elif ball_type == "scm":
        ordering = np.zeros_like(lam)
    else:
        ordering = np.log(np.maximum(lam, 1)) + np.where(r > 0, r * np.log(np.maximum(2 * c, 1)), 0.0)
    ln_inv_delta = 3 * _LN_ZETA_NORMALISER + 2 * np.log((lam + 1) * (c + 1) * (k + 1)) - np.log(delta)
    free = m - lam - k
    with np.errstate(divide="ignore", invalid="ignore"):
        bound = -np.expm1(-(ln_choices + ordering + ln_inv_delta) / free)
    return np.where(free > 0, bound, 1.0)


def _check_fitted(model, kind, parameter, caller):
    """Duck-typed check of a fitted ball list: bounds read public attributes, never import learners.

    ``parameter`` is the hyper-parameter that tells the two learners apart (``ball_type`` for a
    :class:`~companion.decision_list.DecisionListMachine`, ``model_type`` for a
    :class:`~companion.decision_list.BallSetCoveringMachine`); ``caller`` the public function
    named in the messages.
    """
    if not hasattr(model, parameter):
        raise TypeError(f"{caller}: expected a fitted {kind} (a model with a {parameter!r}), got {type(model).__name__}")
    if not hasattr(model, "path_"):
        raise ValueError(f"{caller}: the {kind} is not fitted; call fit first")
    if getattr(model, "fallback_class_", None) is not None:
        # the fallback's constant classifier is not a list of balls from a compression set
        raise ValueError(
            f"{caller}: the {kind} fell back to the majority class {model.fallback_class_!r} (fallback='inner_cv'), "
            "which the paper's bounds and compression message do not describe; fit it with fallback=None"
        )


def _theorem_bounds_vectorised(theorem, m_p, m_n, c_p, c_n, b_p, b_n, k_p, k_n, r, delta):
    """Theorem 1 or 2 on arrays of counts (already validated), as in the scalar functions."""
    c_p, c_n, b_p, b_n, k_p, k_n, r = (np.asarray(v, dtype=float) for v in (c_p, c_n, b_p, b_n, k_p, k_n, r))
    ln_b, ln_inv_delta = _theorem_log_terms(m_p, m_n, c_p, c_n, b_p, b_n, k_p, k_n, delta)
    size = c_p + c_n + b_p + b_n
    if theorem == 1:
        ordering = gammaln(r + 1)
    else:
        with np.errstate(divide="ignore"):
            ordering = np.where(size > 0, np.log(np.maximum(size, 1)), 0.0) + np.where(
                r > 0, r * np.log(np.maximum(2 * (c_p + c_n), 1)), 0.0
            )
    free = (m_p + m_n) - size - (k_p + k_n)
    with np.errstate(divide="ignore", invalid="ignore"):
        bound = -np.expm1(-(ln_b + ordering + ln_inv_delta) / free)
    return np.where(free > 0, bound, 1.0)


@validate_params(
    {"dlm": _FITTED, "delta": DELTA_CONSTRAINTS, "theorem": [Options(Integral, {1, 2}), None], "variant": _VARIANT},
    prefer_skip_nested_validation=False,  # it takes a fitted estimator (scikit-learn's rule)
)
def dlm_bound_path(
    dlm, *, delta=0.05, theorem: int | None = None, variant: str = "published"
) -> np.ndarray:
    """Theorem 1 or 2 for every prefix of a fitted DLM (row ``t``: its first ``t + 1`` balls).

    Parameters
    ----------
    dlm : DecisionListMachine
        Fitted, preferably with ``compression_constraint=True`` (or any object with its fitted
        public attributes ``ball_type``, ``path_``, ``n_positive_``, ``n_negative_``).
    delta : float, default=0.05
        Confidence in ``(0, 1]``.
    theorem : {1, 2}, optional
        Default: 1 for ``ball_type="simple"``, 2 for ``"complex"``.
    variant : {"published", "corrected"}, default="published"
        "published": the paper's Theorem 1/2; "corrected": :func:`corrected_bound` (our
        correction, same ordering message as the theorem).

    Returns
    -------
    ndarray of shape (dlm.n_balls_,)
        The bound, NaN for a prefix that misclassifies an example of its own compression set
        (the theorems do not apply to it).
    """
    _check_fitted(dlm, "DecisionListMachine", "ball_type", "dlm_bound_path")
    # The numeric calls below take delta (declared above) and arrays of counts read from the fitted
    # model: they skip their own checks, three to six log-binomials whose checks would cost more
    # than the bound itself.
    with config_context(skip_parameter_validation=True):
        check_delta(delta)  # the values of an array
        if theorem is None:
            theorem = 1 if dlm.ball_type == "simple" else 2
        path = dlm.path_
        if len(path) == 0:
            return np.zeros(0)
        if variant == "corrected":
            centres = path["c_p"].to_numpy() + path["c_n"].to_numpy()
            size = centres + path["b_p"].to_numpy() + path["b_n"].to_numpy()
            errors = path["k_p"].to_numpy() + path["k_n"].to_numpy()
            bound = _corrected_vectorised(
                "simple" if theorem == 1 else "complex",
                dlm.n_positive_ + dlm.n_negative_,
                size,
                centres,
                errors,
                path["n_balls"].to_numpy(),
                delta,
            )
        else:
            bound = _theorem_bounds_vectorised(
                theorem,
                dlm.n_positive_,
                dlm.n_negative_,
                *(path[c].to_numpy() for c in ("c_p", "c_n", "b_p", "b_n", "k_p", "k_n", "n_balls")),
                delta,
            )
    return np.where(path["compression_correct"].to_numpy(), bound, np.nan)


@validate_params(
    {"scm": _FITTED, "delta": DELTA_CONSTRAINTS, "variant": _VARIANT},
    prefer_skip_nested_validation=False,  # it takes a fitted estimator (scikit-learn's rule)
)
def scm_bound_path(scm, *, delta=0.05, variant: str = "published") -> np.ndarray:
    """:func:`scm_bound` (our reconstruction) for every prefix of a fitted ball SCM.

    ``variant="corrected"``: :func:`scm_bound_corrected` instead (the default, "published", keeps
    the per-class form of :func:`scm_bound`, flagged there, for comparison). NaN for a prefix that
    misclassifies its compression set.

    Parameters
    ----------
    scm : BallSetCoveringMachine
        Fitted with ``compression_constraint=True`` (or any object with its fitted public
        attributes ``model_type``, ``path_``, ``n_positive_``, ``n_negative_``).
    delta : float, default=0.05
        Confidence parameter.
    variant : {"published", "corrected"}, default="published"
        Which bound (see above).

    Returns
    -------
    ndarray of shape (n_balls_,)
        The bound of the machine truncated to its first ``k`` balls, ``k = 1 .. n_balls_``.
    """
    _check_fitted(scm, "BallSetCoveringMachine", "model_type", "scm_bound_path")
    # As in dlm_bound_path: the bound of each prefix takes delta (declared) and the counts read
    # from the model, and skips its own checks (one bound per ball).
    with config_context(skip_parameter_validation=True):
        check_delta(delta)  # the values of an array
        return _scm_bounds(scm, delta, variant)


def _scm_bounds(scm, delta, variant):
    """The body of :func:`scm_bound_path`: one scalar bound per prefix of the fitted SCM."""
    values = []
    m = scm.n_positive_ + scm.n_negative_
    for row in scm.path_.itertuples(index=False):
        if not row.compression_correct:
            values.append(np.nan)
            continue
        if variant == "corrected":
            values.append(
                scm_bound_corrected(
                    m,
                    compression_size=int(row.c_p + row.c_n + row.b_p + row.b_n),
                    n_centres=int(row.c_p + row.c_n),
                    n_errors=int(row.k_p + row.k_n),
                    delta=delta,
                )
            )
            continue
        if scm.model_type == "conjunction":
            counts = dict(c_p=row.c_p, c_n=row.c_n, b_p=row.b_p, k_p=row.k_p, k_n=row.k_n)
            m_p, m_n = scm.n_positive_, scm.n_negative_
        else:  # the same bound with the classes swapped
            counts = dict(c_p=row.c_n, c_n=row.c_p, b_p=row.b_n, k_p=row.k_n, k_n=row.k_p)
            m_p, m_n = scm.n_negative_, scm.n_positive_
        values.append(scm_bound(m_p, m_n, delta=delta, **counts))
    return np.array(values, dtype=float)


# --------------------------------------------------------------------------------------------
# The compression message of Section 4
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CompressionMessage:
    """What the reconstruction function receives (Section 4).

    Parameters
    ----------
    X : ndarray of shape (λ, n_features)
        The compression set, in any order.
    y : ndarray of shape (λ,)
        1 for positive, 0 for negative examples.
    is_centre : ndarray of bool, shape (λ,)
        Partition into centres (``C_p ∪ C_n``) and borders that are no centre (``B_p ∪ B_n``).
    balls : tuple of (int, bool)
        The extra information: for each ball in list order, the row of its centre in ``X`` and
        whether it covers the inside (True: Pi/Ni) or the outside (False: Po/No). With Pi/Ni balls
        only, this is just the ordering of the centres (``log₂ r!`` bits).
    """

    X: np.ndarray
    y: np.ndarray
    is_centre: np.ndarray
    balls: tuple


@validate_params(
    {"dlm": _FITTED, "X": ["array-like"]},
    prefer_skip_nested_validation=False,  # it takes a fitted estimator (scikit-learn's rule)
)
def compression_message(dlm, X) -> CompressionMessage:
    """The compression set and ordering message of a fitted DLM (what Section 4 transmits).

    Parameters
    ----------
    dlm : DecisionListMachine
        Fitted on ``X``.
    X : array-like of shape (n_samples, n_features)
        The training inputs (the compression set indexes into them).

    Returns
    -------
    CompressionMessage
        The compression set (centres and borders), their labels and the ordering message.
    """
    _check_fitted(dlm, "DecisionListMachine", "ball_type", "compression_message")
    X = np.asarray(X, dtype=float)
    members = dlm.compression_set_
    centres = {ball.centre_index for ball in dlm.balls_}
    row_of = {int(index): row for row, index in enumerate(members)}
    positive = dlm.classes_[-1]
    if len(dlm.classes_) == 2:
        y_members = (dlm.compression_labels_ == positive).astype(int)
    else:
        y_members = np.zeros(len(members), dtype=int)
    balls = tuple((row_of[ball.centre_index], bool(ball.inside)) for ball in dlm.balls_)
    return CompressionMessage(
        X=X[members],
        y=y_members,
        is_centre=np.array([int(i) in centres for i in members], dtype=bool),
        balls=balls,
    )

