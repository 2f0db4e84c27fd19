"""The mathematical statements of paper 03, checked where the notebook shows them.

Kowalczyk, Smola & Williamson, *Kernel Machines and Boolean Functions*, NIPS 14 (2001): Lemma 1
(trees and DNFs are polynomials), Lemma 2 and Eqs. (5)-(6) (the kernel), Eqs. (7)-(8) (the
regularised risk of a tree), Theorems 3-5 (the λ-perceptron's and the λ-MMP's lower bounds and
the error bound of trees), the span of trees (section 5) and the Bayes rule of the LED data.
Our copy of the paper lost every formula: what is checked is our *reconstruction* of each.

Each ``check_*`` runs its statement on random or exhaustive inputs drawn from the generator it
is given and returns ``(ok, detail)``: whether it held, and what was computed, with the numbers.
The function under test is a keyword argument (the package's own by default), so a test can
hand in a broken one and see the check fail. :func:`math_checks` runs them all once (a few
seconds) for the claims table (measures ``math_<id>``) and the notebook's table.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pandas as pd

from companion.baselines import PrunedDecisionTree
from companion.interpretable import SingleClassWarning
from companion.bounds.boolean_kernel import (
    error_lower_bound, extended_gram, hinge_risk, minimal_risk, regularised_risk, theorem6_subset_size, tree_risk,
)
from companion.kernels import (
    add_complemented_bits, all_monomials, boolean_kernel, dnf_polynomial, literal_monomials, monomial_features,
    polynomial_norm_sq,
)
from companion.led import bayes_error, bayes_predict, monomial_as_trees, optimal_boolean_tree, pattern_likelihoods
from companion.perceptrons import KernelPerceptron, MaximalMarginPerceptron

#: λ of the checks: the experiment's (leaves + errors).
LAM = 4.0
#: Relative slack of a float inequality between a bound and a risk.
RTOL = 1e-9


def _problem(rng, m=60, n=5, flip=0.2):
    """A noisy Boolean problem: ``(x0 ∧ x1) ∨ x2`` with a fraction ``flip`` of labels flipped."""
    bits = rng.integers(0, 2, size=(m, n))
    y = np.where((bits[:, 0] & bits[:, 1]) | bits[:, 2], 1, -1)
    return bits, np.where(rng.random(m) < flip, -y, y)


def _trees(bits, y, degree):
    """Two trees of depth ≤ degree as polynomials on the complemented inputs: pruned CART and the best tree."""
    with warnings.catch_warnings():  # a pruned tree may be one leaf: still a tree of depth ≤ d
        warnings.simplefilter("ignore", SingleClassWarning)
        cart = PrunedDecisionTree(max_depth=degree, pruning="errors", random_state=0, fallback=None).fit(bits, y)
    best = optimal_boolean_tree(bits, y, degree)
    return [(list(cart.leaf_monomials_), np.asarray(cart.leaf_signs_, dtype=float)),
            (list(best.leaf_monomials), np.asarray(best.leaf_signs, dtype=float))]


def check_kernel_lemma2(rng, *, kernel=boolean_kernel, n_pairs=200, n=14, degrees=range(8)):
    """Lemma 2 / Eq. (5): ``k(x, x') = Σ_i c_i C(⟨x,x'⟩, i)`` is ``⟨Φ(x), Φ(x')⟩`` of the weighted monomial map.

    Parameters
    ----------
    rng : numpy.random.Generator
    kernel : callable, default=companion.kernels.boolean_kernel
        ``kernel(X, Y, degree=, weights=)``, the function under test.
    n_pairs, n : int
        Random pairs of ``n``-bit inputs.
    degrees : iterable of int

    Returns
    -------
    (bool, str)
    """
    X, Y = rng.integers(0, 2, size=(2, n_pairs, n))
    gap = 0.0
    for d in degrees:
        c = rng.uniform(0.1, 3.0, size=d + 1)
        monomials = all_monomials(n, d)
        explicit = np.einsum("ij,ij->i", monomial_features(X, monomials, c), monomial_features(Y, monomials, c))
        ours = np.array([kernel(X[i:i + 1], Y[i:i + 1], degree=d, weights=c)[0, 0] for i in range(n_pairs)])
        gap = max(gap, float(np.max(np.abs(ours - explicit) / np.maximum(1.0, np.abs(explicit)))))
    degrees = list(degrees)
    return gap <= 1e-12, (f"Eq. 5 against the explicit map over all monomials of degree ≤ d, random weights c_i, "
                          f"{n_pairs} random pairs of {n}-bit inputs, d = {degrees[0]}..{degrees[-1]}: "
                          f"max relative |difference| = {gap:.1e}")


def check_kernel_closed_form(rng, *, kernel=boolean_kernel, n_inputs=40, n=14, betas=(0.25, 1.0, 3.0)):
    """Eq. (6): with ``c_i = β^i`` and ``d = n`` the kernel is ``(1 + β)^⟨x,x'⟩``."""
    X = rng.integers(0, 2, size=(n_inputs, n))
    inner = X @ X.T
    gap = max(float(np.max(np.abs(kernel(X, X, degree=n, weights=b) / (1 + b) ** inner - 1))) for b in betas)
    return gap <= 1e-12, (f"Eq. 6 on {n_inputs}² pairs of random {n}-bit inputs, d = n, β = "
                          f"{', '.join(f'{b:g}' for b in betas)}: max relative |difference| = {gap:.1e}")


def check_trees_dnf_represented(rng, *, dnf=dnf_polynomial, n_dnfs=50, n=5, m=100):
    """Lemma 1 / Eq. (2): a DNF is ``−1 + 2 Σ x^I`` (sign = the DNF's truth), with ``‖f‖² = 1 + 4 #terms``."""
    bits = rng.integers(0, 2, size=(m, n))
    Xc = add_complemented_bits(bits)
    candidates = literal_monomials(n, 3)[1:]
    bad = 0
    for _ in range(n_dnfs):
        terms = [candidates[k] for k in rng.choice(len(candidates), size=int(rng.integers(1, 7)), replace=False)]
        monomials, coefficients = dnf(terms)
        f = monomial_features(Xc, monomials) @ coefficients
        truth = np.any([np.all(Xc[:, list(t)] == 1, axis=1) for t in terms], axis=0)
        ok = (np.all(np.abs(f) >= 1) and np.array_equal(f >= 1, truth)
              and polynomial_norm_sq(monomials, coefficients) == 1 + 4 * len(terms))
        bad += not ok
    return bad == 0, (f"{n_dnfs} random DNFs of 1-6 terms of degree ≤ 3 on {n} variables, on {m} random inputs: "
                      f"sign of −1 + 2 Σ x^I against the DNF and ‖f‖² against 1 + 4 #terms; {bad} failures")


def _tree_cases(rng, n_problems, degrees):
    for _ in range(n_problems):
        bits, y = _problem(rng, m=120, n=6)
        for d in degrees:
            for monomials, signs in _trees(bits, y, d):
                yield bits, y, d, monomials, signs


def check_tree_half_difference(rng, *, n_problems=10, degrees=(1, 2, 3, 4), features=monomial_features):
    """Section 2, Eq. (1): exactly one leaf monomial of a tree fires on each input, and the tree is half
    the difference of the DNF of its positive leaves and that of its negative leaves."""
    n_trees = bad = 0
    for bits, _, _, monomials, signs in _tree_cases(rng, n_problems, degrees):
        fires = features(add_complemented_bits(bits), monomials)
        f = fires @ signs
        g_plus = -1 + 2 * fires[:, signs > 0].sum(axis=1)
        g_minus = -1 + 2 * fires[:, signs < 0].sum(axis=1)
        n_trees += 1
        bad += not (np.all(fires.sum(axis=1) == 1) and np.array_equal(f, (g_plus - g_minus) / 2))
    return bad == 0, (f"{n_trees} trees (pruned CART and the best tree, d = {degrees[0]}..{degrees[-1]}) on "
                      f"{n_problems} random 120-example problems: one leaf fires per input and f = (g₊ − g₋)/2; "
                      f"{bad} failures")


def domain_norm_sq(monomials, coefficients, n_bits, degree, *, kernel=boolean_kernel) -> float:
    """The least squared RKHS norm of a polynomial's function on the complemented inputs only.

    On ``x = (b, 1 − b)`` the monomials are linearly dependent (``x_j + x̄_j = 1``), so one function
    has many expansions; the least ``‖v‖²`` over them is ``f^T K^+ f`` with ``K`` the kernel of
    Eq. (5) (``c ≡ 1``) over all ``2^n_bits`` complemented inputs. It is at most the coefficient
    norm of Eq. (4) of any one expansion; on the full cube ``{0,1}^{2 n_bits}``, where the
    monomials are independent, the two are equal.

    Parameters
    ----------
    monomials, coefficients : list, array
        The polynomial, over the complemented inputs.
    n_bits : int
        Bits before complementing.
    degree : int
        The kernel's degree d.
    kernel : callable, default=boolean_kernel

    Returns
    -------
    float
    """
    cube = (np.arange(2 ** n_bits)[:, None] >> np.arange(n_bits)) & 1
    Xc = add_complemented_bits(cube)
    f = monomial_features(Xc, monomials) @ np.asarray(coefficients, dtype=float)
    K = kernel(Xc, degree=degree)
    alpha = np.linalg.lstsq(K, f, rcond=None)[0]
    return float(f @ alpha)


def check_tree_norm_leaves(rng, *, n_problems=10, degrees=(1, 2, 3, 4), norm=polynomial_norm_sq,
                           function_norm=domain_norm_sq):
    """Section 3, after Eq. (7): with ``c_i = 1`` a tree's squared norm is its number of leaves.

    The norm of Eq. (4) is that of the tree's expansion (its leaf monomials with ``w_I = ±1``), so
    it counts the leaves by arithmetic (by construction). What could fail is checked beside it:
    the least norm of the tree's *function* on the complemented inputs (:func:`domain_norm_sq`),
    where the monomials are dependent, is at most the number of leaves (and can be smaller).
    """
    n_trees = bad = smaller = n_bits = 0
    for bits, _, d, monomials, signs in _tree_cases(rng, n_problems, degrees):
        n_trees, n_bits = n_trees + 1, bits.shape[1]
        leaves = len(monomials)
        least = function_norm(monomials, signs, bits.shape[1], d)
        bad += norm(monomials, signs) != leaves or least > leaves * (1 + RTOL)
        smaller += least < leaves * (1 - 1e-6)
    return bad == 0, (f"‖f‖² of the expansion (Eq. 4) against the number of leaves of {n_trees} trees (pruned CART "
                      f"and the best tree, d = {degrees[0]}..{degrees[-1]}, {n_problems} random problems), equal by "
                      f"arithmetic with w_I = ±1; the least norm of the tree's function on the complemented inputs "
                      f"(f^T K⁺ f over all {2 ** n_bits} inputs; the monomials are dependent there, x_j + x̄_j = 1) is at "
                      f"most the number of leaves on every tree and below it on {smaller}; {bad} failures")


def check_risk_is_cart_cost(rng, *, n_problems=10, degrees=(1, 2, 3, 4), risk=regularised_risk, lam=LAM):
    """Eq. (8): a tree's regularised risk (7) and hinge risk (7') are ``leaves + (4/λ) errors`` (CART's cost)."""
    gap, n_trees = 0.0, 0
    for bits, y, _, monomials, signs in _tree_cases(rng, n_problems, degrees):
        f = monomial_features(add_complemented_bits(bits), monomials) @ signs
        norm = polynomial_norm_sq(monomials, signs)
        errors = int(np.sum(f * y <= 0))
        cost = len(monomials) + 4.0 / lam * errors
        gap = max(gap, abs(risk(f, y, norm, lam) - cost), abs(hinge_risk(f, y, norm, lam) - cost),
                  abs(tree_risk(norm, errors, lam) - cost))
        n_trees += 1
    return gap <= 1e-9, (f"Eqs. 7, 7' and 8 of {n_trees} trees ({n_problems} random problems, "
                         f"d = {degrees[0]}..{degrees[-1]}, λ = {lam:g}) against leaves + (4/λ) errors: "
                         f"max |difference| = {gap:.1e}")


def _kernel_problem(rng, m, degree):
    bits, y = _problem(rng, m=m)
    K = boolean_kernel(add_complemented_bits(bits), degree=degree)
    return bits, y, K


def check_bounds_every_polynomial(rng, *, n_problems=6, degrees=(1, 2, 3), n_dnfs=8, lam=LAM,
                                  perceptron=KernelPerceptron, mmp=MaximalMarginPerceptron):
    """Abstract, Theorems 3-4: bounds (9), (11) and min R lie below the risk of every tree and DNF of degree ≤ d."""
    n_risks, least, bad = 0, np.inf, 0
    for _ in range(n_problems):
        for d in degrees:
            bits, y, K = _kernel_problem(rng, 80, d)
            Xc = add_complemented_bits(bits)
            bounds = [minimal_risk(K, y, lam)[0], perceptron(kernel="precomputed", lam=lam).fit(K, y).lower_bound_,
                      mmp(kernel="precomputed", lam=lam).fit(K, y).lower_bound_]
            polynomials = _trees(bits, y, d)
            candidates = literal_monomials(bits.shape[1], d)[1:]
            for _ in range(n_dnfs):
                terms = [candidates[k] for k in rng.choice(len(candidates), size=int(rng.integers(1, 9)),
                                                           replace=False)]
                polynomials.append(dnf_polynomial(terms))
            for monomials, coefficients in polynomials:
                f = monomial_features(Xc, monomials) @ coefficients
                value = regularised_risk(f, y, polynomial_norm_sq(monomials, coefficients), lam)
                least = min(least, value / max(bounds))
                bad += any(b > value * (1 + RTOL) for b in bounds)
                n_risks += 1
    return bad == 0, (f"{n_risks} trees and random DNFs of degree ≤ d (d = {degrees[0]}..{degrees[-1]}, "
                      f"{n_problems} random 80-example problems per d): every risk ≥ min R, (9) and (11); "
                      f"{bad} violations, least risk / largest bound = {least:.3f}")


def check_theorem3(rng, *, n_problems=10, degree=3, lam=LAM, perceptron=KernelPerceptron):
    """Theorem 3, Eq. (9): ``t² / ‖w̃ᵗ‖² ≤ min R``, and Novikoff: ``t ≤ (max k(x,x) + λ) min R``."""
    bad, worst = 0, 0.0
    for _ in range(n_problems):
        _, y, K = _kernel_problem(rng, 80, degree)
        risk = minimal_risk(K, y, lam)[0]
        model = perceptron(kernel="precomputed", lam=lam).fit(K, y)
        novikoff = (K.diagonal().max() + lam) * risk
        worst = max(worst, model.lower_bound_ / risk)
        bad += not (model.lower_bound_ <= risk * (1 + RTOL) and model.n_updates_ <= novikoff * (1 + RTOL))
    return bad == 0, (f"λ-perceptron on {n_problems} random 80-example problems (d = {degree}, λ = {lam:g}): "
                      f"bound (9) ≤ min R (largest ratio {worst:.3f}) and updates ≤ Novikoff's bound; "
                      f"{bad} violations")


def check_theorem4(rng, *, n_problems=10, degree=3, lam=LAM, tol=1e-3, mmp=MaximalMarginPerceptron):
    """Theorem 4, Eqs. (11)-(12): every λ-MMP state gives ``1/N ≤ min R``; the output's risk is at most
    ``N / min(Gα)² ≤ (1 − ε)⁻² / N``."""
    bad, n_states = 0, 0
    for _ in range(n_problems):
        _, y, K = _kernel_problem(rng, 80, degree)
        risk = minimal_risk(K, y, lam)[0]
        model = mmp(kernel="precomputed", lam=lam, tol=tol).fit(K, y)
        g = extended_gram(K, y, lam) @ model.alpha_
        N = float(model.alpha_ @ g)
        n_states += len(model.norm_history_)
        bad += not (np.all(1 / np.asarray(model.norm_history_) <= risk * (1 + RTOL))
                    and 1 / N <= risk * (1 + RTOL) and risk <= N / g.min() ** 2 * (1 + RTOL)
                    and model.risk_ <= N / g.min() ** 2 * (1 + RTOL)
                    and N / g.min() ** 2 <= (1 - tol) ** -2 / N * (1 + RTOL))
    return bad == 0, (f"λ-MMP on {n_problems} random 80-example problems (d = {degree}, ε = {tol:g}): 1/N ≤ min R "
                      f"at all {n_states} states, min R ≤ R(output) ≤ N/min(Gα)² ≤ (1 − ε)⁻²/N; {bad} violations")


def check_mmp_converges(rng, *, n_problems=5, degree=3, lam=LAM, mmp=MaximalMarginPerceptron):
    """After Theorem 4: under (10) the λ-MMP stops, and with a small ε its risk reaches min R."""
    bad, gap = 0, 0.0
    for _ in range(n_problems):
        _, y, K = _kernel_problem(rng, 70, degree)
        risk = minimal_risk(K, y, lam)[0]
        model = mmp(kernel="precomputed", lam=lam, tol=1e-6, max_iter=200_000).fit(K, y)
        g = extended_gram(K, y, lam) @ model.alpha_
        N = float(model.alpha_ @ g)
        history = np.asarray(model.norm_history_)
        rel = abs(model.risk_ / risk - 1)
        gap = max(gap, rel)
        bad += not (model.converged_ and g.min() >= (1 - 1e-6) * N * (1 - RTOL)
                    and np.all(np.diff(history) <= 1e-12 * history[0]) and rel <= 1e-5)
    return bad == 0, (f"λ-MMP with ε = 10⁻⁶ on {n_problems} random 70-example problems (d = {degree}): stops under "
                      f"(10) with N never increasing, max |R(output)/min R − 1| = {gap:.1e}; {bad} failures")


def check_theorem5(rng, *, n_problems=6, degrees=(1, 2, 3), lam=LAM, bound=error_lower_bound):
    """Theorem 5, Eqs. (13)-(14): a tree of norm ``‖f‖²`` makes at least ``(λ/4)(B − ‖f‖²)`` training errors
    for every lower bound ``B`` (min R, (9), (11))."""
    bad = n_trees = 0
    for _ in range(n_problems):
        for d in degrees:
            bits, y, K = _kernel_problem(rng, 80, d)
            Xc = add_complemented_bits(bits)
            bounds = [minimal_risk(K, y, lam)[0], KernelPerceptron(kernel="precomputed", lam=lam).fit(K, y).lower_bound_,
                      MaximalMarginPerceptron(kernel="precomputed", lam=lam, compiled=True).fit(K, y).lower_bound_]
            for monomials, signs in _trees(bits, y, d):
                f = monomial_features(Xc, monomials) @ signs
                errors = int(np.sum(f * y <= 0))
                norm = polynomial_norm_sq(monomials, signs)
                n_trees += 1
                bad += any(errors < np.ceil(bound(b, norm, lam) - 1e-9) for b in bounds)
    return bad == 0, (f"training errors of {n_trees} trees (d = {degrees[0]}..{degrees[-1]}) against "
                      f"⌈(λ/4)(B − ‖f‖²)⌉ for B = min R, (9), (11); {bad} violations")


def check_trees_span(rng, *, n_variables=7, degree=3, as_trees=monomial_as_trees):
    """Section 5: every monomial of degree ≤ d is half the sum of two trees of depth ≤ d (all inputs)."""
    X = ((np.arange(2**n_variables)[:, None] >> np.arange(n_variables)[None, :]) & 1).astype(np.int8)
    Xc = np.hstack([X, 1 - X])
    monomials = literal_monomials(n_variables, degree)
    gap, deepest = 0.0, 0
    for monomial in monomials:
        t1, t2 = as_trees(monomial, n_variables)
        value = monomial_features(Xc, [monomial])[:, 0]
        gap = max(gap, float(np.abs(value - (t1.predict(X) + t2.predict(X)) / 2).max()))
        deepest = max(deepest, t1.depth - len(monomial), t2.depth - len(monomial))
    ok = gap == 0.0 and deepest <= 0
    return ok, (f"all {len(monomials)} conjunctions of degree ≤ {degree} on {n_variables} variables, on all "
                f"{len(X)} inputs: max |x^I − (T₁ + T₂)/2| = {gap:g}, trees no deeper than the monomial: {deepest <= 0}")


def check_complemented_bits(rng, *, kernel=boolean_kernel, n_inputs=40):
    """Section 5: on complemented LED inputs ``⟨x, x'⟩ = 7 − Hamming``, every d ≥ 7 gives one kernel, and
    only the conjunctions of literals on distinct variables survive (the map over them is the kernel)."""
    bits = rng.integers(0, 2, size=(n_inputs, 7))
    Xc = add_complemented_bits(bits)
    hamming = (bits[:, None, :] != bits[None, :, :]).sum(axis=2)
    inner_ok = np.array_equal(np.rint(np.log2(kernel(Xc, Xc, degree=14))), 7 - hamming)
    gram7 = kernel(Xc, Xc, degree=7)
    same = all(np.array_equal(kernel(Xc, Xc, degree=d), gram7) for d in range(8, 15))
    gap = max(float(np.max(np.abs(monomial_features(Xc, literal_monomials(7, d))
                                  @ monomial_features(Xc, literal_monomials(7, d)).T - kernel(Xc, Xc, degree=d))))
              for d in (2, 3, 7))
    ok = bool(inner_ok and same and gap <= 1e-9)
    return ok, (f"{n_inputs} random complemented 7-bit inputs: log₂ k(d = 14) = 7 − Hamming: {inner_ok}; "
                f"k(d) = k(7) for d = 8..14: {same}; the map over the {len(literal_monomials(7, 7))} conjunctions of "
                f"literals against the kernel at d = 2, 3, 7: max |difference| = {gap:.1e}")


def check_bayes_computable(rng, *, predict=bayes_predict, noise=Fraction(1, 10)):
    """Section 5: the Bayes rule of 0-4 against 5-9 is computed exactly from the noise model, and no
    labelling of the 128 patterns has a lower population error."""
    likelihood = pattern_likelihoods(noise)
    low = [sum(row[:5]) / 10 for row in likelihood]
    high = [sum(row[5:]) / 10 for row in likelihood]
    patterns = ((np.arange(128)[:, None] >> np.arange(6, -1, -1)[None, :]) & 1).astype(np.int8)  # the likelihoods' rows
    rule = np.asarray(predict(patterns))
    error = sum(lo if r == 1 else hi for r, lo, hi in zip(rule, low, high))
    # The population error is a sum over patterns: the rule is optimal iff no single pattern's label,
    # flipped, lowers it (every labelling is reached by flips of single patterns).
    better = sum(1 for r, lo, hi in zip(rule, low, high) if (hi if r == 1 else lo) < (lo if r == 1 else hi))
    exact = bayes_error(noise)
    ok = better == 0 and error == exact
    return ok, (f"exact arithmetic over the 128 patterns: error of the Bayes rule {float(error):.4%} "
                f"(= bayes_error: {error == exact}); patterns whose flipped label would lower the error: {better}")


def max_margin_values(Z, subset):
    """Decision values, on every row of ``Z``, of the homogeneous maximal margin hyperplane of ``subset``.

    ``Z`` holds the rows ``y_i Φ(x_i)``; the hyperplane is ``w = Σ_{i∈S} β_i y_i Φ(x_i)`` with ``β`` the
    minimiser of ``‖Σ β_i y_i Φ(x_i)‖²`` over the simplex (its direction is the maximal margin one when
    the subset is separable; NNLS with the simplex constraint as a heavily weighted row). Returns
    ``None`` when the subset is not separable (some subset margin ``≤ 0``).
    """
    from scipy.optimize import nnls

    A = Z[list(subset)].T
    weight = 1e4
    beta, _ = nnls(np.vstack([A, weight * np.ones((1, A.shape[1]))]), np.r_[np.zeros(A.shape[0]), weight])
    w = A @ beta
    margins = Z[list(subset)] @ w
    scale = max(1.0, float(np.abs(Z).max()) ** 2)
    if float(w @ w) <= 1e-10 * scale or float(margins.min()) <= 1e-9 * scale:
        return None
    return Z @ w  # y_j f(x_j) on every row


def check_theorem6(rng, *, n_problems=40, n_bits=2, m=16, degree=1, flip=0.25, hyperplane=max_margin_values):
    """Theorem 6 (reconstructed, after Ben-David & Simon): the algorithm A (the maximal margin hyperplane
    of every subset of at most ``s = ⌈2/μ²⌉`` training points, the one with the fewest training errors
    kept) makes no more training errors than any tree of depth ≤ d with ``‖f‖ max_i √k(x_i, x_i) ≤ 1/μ``.

    Tiny instances, so that A runs exhaustively: ``m`` noisy points on ``n_bits`` bits (complemented),
    kernel of Eq. 5 with ``c ≡ 1`` at degree ``d``; μ is the largest margin every tree of depth ≤ d
    satisfies (``‖f‖² ≤ 2^d`` leaves), the trees' least error count is the best tree's
    (:func:`companion.led.optimal_boolean_tree` with no leaf cost). A tie ``f(x) = 0`` is an error.

    Parameters
    ----------
    rng : numpy.random.Generator
    n_problems, n_bits, m, degree : int
    flip : float
        Share of labels flipped.
    hyperplane : callable, default=max_margin_values
        ``hyperplane(Z, subset)`` -> margins on every row or None, the function under test.

    Returns
    -------
    (bool, str)
    """
    from itertools import combinations

    monomials = all_monomials(2 * n_bits, degree)
    worse, sizes, tried, a_errors, tree_errors, distinct_max = 0, set(), 0, [], [], 0
    for _ in range(n_problems):
        bits = rng.integers(0, 2, size=(m, n_bits))
        y = np.where(bits[:, 0] == 1, 1, -1)
        y = np.where(rng.random(m) < flip, -y, y)
        X = add_complemented_bits(bits)
        Z = monomial_features(X, monomials) * y[:, None]
        radius_sq = float(np.max(boolean_kernel(X, degree=degree).diagonal()))
        s = int(theorem6_subset_size(2 ** degree, radius_sq, 10 ** 6)["subset_size"])  # s = ⌈2/μ²⌉, not capped at m
        sizes.add(s)
        # subsets of distinct labelled points (a repeated point changes no maximal margin hyperplane)
        keys = {}
        for i, (row, label) in enumerate(zip(bits, y)):
            keys.setdefault((tuple(row), int(label)), i)
        points = sorted(keys.values())
        distinct_max = max(distinct_max, len(points))
        best = m
        for size in range(1, min(s, len(points)) + 1):
            for subset in combinations(points, size):
                tried += 1
                margins = hyperplane(Z, subset)
                if margins is not None:
                    best = min(best, int(np.count_nonzero(margins <= 1e-9)))
        tree = optimal_boolean_tree(bits, y, degree, leaf_cost=0.0)
        a_errors.append(best)
        tree_errors.append(int(tree.n_errors))
        worse += best > tree.n_errors
    ok = worse == 0
    every = max(sizes) >= distinct_max
    return ok, (f"{n_problems} random {m}-point problems on {n_bits} bits (complemented), d = {degree}, c ≡ 1: "
                f"s = ⌈2/μ²⌉ = {', '.join(map(str, sorted(sizes)))} (μ = 1/(‖f‖ max √k(x, x)) for every tree of "
                f"depth ≤ {degree}); {tried} subsets tried; A's training errors above the best tree's on {worse} of "
                f"{n_problems} (mean {np.mean(a_errors):.2f} against {np.mean(tree_errors):.2f})"
                + ("; s is at least the number of distinct labelled points (at most "
                   f"{distinct_max}): every subset is tried, so this checks A's selection step, not the "
                   "subset-size bound s, which needs more distinct points than s (instances too large to enumerate)" if every else ""))


#: ``{measure: (check, statement)}``: every ``math_<id>`` measure of ``registry/paper03.toml``.
CHECKS = {
    "math_kernel_lemma2": (check_kernel_lemma2, "Lemma 2, Eq. 5: the kernel is the monomial map's dot product"),
    "math_kernel_closed_form": (check_kernel_closed_form, "Eq. 6: c_i = β^i, d = n gives (1 + β)^⟨x,x'⟩"),
    "math_trees_dnf_represented": (check_trees_dnf_represented, "Lemma 1: a DNF is −1 + 2 Σ x^I, ‖f‖² = 1 + 4 #terms"),
    "math_tree_half_difference": (check_tree_half_difference, "Eq. 1: a tree is half the difference of two DNFs"),
    "math_tree_norm_leaves": (check_tree_norm_leaves, "after Eq. 7: a tree's ‖f‖² is its number of leaves"),
    "math_risk_is_cart_cost": (check_risk_is_cart_cost, "Eq. 8: a tree's risk is leaves + (4/λ) errors"),
    "math_bounds_every_polynomial": (check_bounds_every_polynomial,
                                     "Theorems 3-4: the bounds lie below every tree's and DNF's risk"),
    "math_theorem3": (check_theorem3, "Theorem 3: bound (9) ≤ min R; Novikoff's update count"),
    "math_theorem4": (check_theorem4, "Theorem 4: 1/N ≤ min R ≤ N/min(Gα)² ≤ (1 − ε)⁻²/N"),
    "math_mmp_converges": (check_mmp_converges, "after Theorem 4: the λ-MMP stops and reaches min R"),
    "math_theorem5": (check_theorem5, "Theorem 5: trees make ≥ (λ/4)(B − ‖f‖²) errors"),
    "math_trees_span": (check_trees_span, "Section 5: every monomial is half the sum of two trees"),
    "math_complemented_bits": (check_complemented_bits,
                               "Section 5: complemented bits make every d ≥ 7 one kernel of conjunctions of literals"),
    "math_bayes_computable": (check_bayes_computable, "Section 5: the Bayes rule, computed exactly, is optimal"),
    "math_theorem6": (check_theorem6, "Theorem 6's selection step (our code; s and the running time not checked): the subset algorithm A errs no more than any tree of margin μ"),
}


def math_checks(rng) -> dict:
    """Run every check of :data:`CHECKS` once, in a fixed order, with ``rng``.

    Parameters
    ----------
    rng : numpy.random.Generator
        The notebook's seeded generator.

    Returns
    -------
    dict
        ``{measure: (ok, detail)}``.
    """
    return {measure: check(rng) for measure, (check, _) in CHECKS.items()}


def math_checks_table(results: dict) -> pd.DataFrame:
    """The notebook's table of :func:`math_checks`: statement, what was run, result.

    The result is labelled as the claims table of §9 labels its row (the registry's ``origin`` and
    ``by_construction``): a statement of the paper ``holds`` / ``fails``, or ``holds by
    construction`` when it can only hold because of how we built it; a conformance check of our
    code ``agrees`` / ``differs``, with ``(by construction)`` likewise.

    Parameters
    ----------
    results : dict
        :func:`math_checks`'s dict (a subset is fine).

    Returns
    -------
    pandas.DataFrame
    """
    import companion.claims as C

    entries = {e["measure"]: e for e in C.load_registry("03").entries if "measure" in e}

    def label(measure, ok):
        entry = entries.get(measure, {})
        word = ("agrees" if ok else "differs") if entry.get("origin") == "check" else ("holds" if ok else "fails")
        if entry.get("by_construction") and ok:
            word += " (by construction)" if entry.get("origin") == "check" else " by construction"
        return word

    rows = [{"statement": CHECKS[m][1], "what was run": detail, "result": label(m, ok)}
            for m, (ok, detail) in results.items()]
    return pd.DataFrame(rows, index=pd.Index([m.removeprefix("math_").replace("_", "-") for m in results], name="id"))
