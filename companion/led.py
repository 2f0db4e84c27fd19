"""Noisy 7-segment LED digits (Breiman et al.'s CART book), paper 03's data (§5).

Each digit 0–9 is shown on a 7-segment display; every segment bit is flipped independently
with probability ``noise`` (0.1 in the paper). The task of paper 03 is digits 0–4 against 5–9.
Because the distribution is known, the Bayes-optimal classifier and its error are computed
exactly by enumerating the 128 bit patterns.

The paper's decision tree, a CART tree grown fully (up to ``max_depth``) and pruned to the subtree
minimising ``#leaves + #errors`` (the regularised risk of a tree for λ = 4 and ``c ≡ 1``, Eq. 8),
is :class:`companion.baselines.PrunedDecisionTree`.

>>> from fractions import Fraction
>>> bayes_error(Fraction(1, 10))
Fraction(870491, 6250000)
"""

from __future__ import annotations

from fractions import Fraction
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, validate_params


__all__ = [
    "LED_SEGMENTS",
    "SEGMENT_NAMES",
    "make_led_digits",
    "pattern_likelihoods",
    "bayes_predict",
    "bayes_error",
    "BooleanTree",
    "optimal_boolean_tree",
    "monomial_as_trees",
]

SEGMENT_NAMES = ("top", "upper-left", "upper-right", "middle", "lower-left", "lower-right", "bottom")

#: Segment codes of the digits 0–9 (rows), in the order of :data:`SEGMENT_NAMES` — the UCI/CART
#: generator's table (Breiman et al., *Classification and Regression Trees*, 1984, §2.6; it reproduces UCI's 74 % ten-class Bayes accuracy).
LED_SEGMENTS = np.array(
    [
        [1, 1, 1, 0, 1, 1, 1],
        [0, 0, 1, 0, 0, 1, 0],
        [1, 0, 1, 1, 1, 0, 1],
        [1, 0, 1, 1, 0, 1, 1],
        [0, 1, 1, 1, 0, 1, 0],
        [1, 1, 0, 1, 0, 1, 1],
        [1, 1, 0, 1, 1, 1, 1],
        [1, 0, 1, 0, 0, 1, 0],
        [1, 1, 1, 1, 1, 1, 1],
        [1, 1, 1, 1, 0, 1, 1],
    ],
    dtype=np.int8,
)


#: The flip probability of each segment: a number (a ``Fraction`` for exact results) in [0, 0.5].
_NOISE = [Fraction, Interval(Real, 0, 0.5, closed="both")]


def _check_fraction(noise):
    """The range of an exact ``Fraction`` noise (scikit-learn's ``Interval`` takes floats only)."""
    if isinstance(noise, Fraction) and not 0 <= noise <= Fraction(1, 2):
        raise ValueError(f"noise (the flip probability of each segment) must lie in [0, 1/2], got {noise}")
    return noise


def _digit_group(digits) -> np.ndarray:
    """Labels of the paper's task: ``+1`` for digits 5–9, ``-1`` for digits 0–4.

    Parameters
    ----------
    digits : array-like of int
        Digits 0–9.

    Returns
    -------
    ndarray of int
        ``+1`` or ``-1`` per digit.
    """
    digits = np.asarray(digits)
    return np.where(digits >= 5, 1, -1)


@validate_params({"n": [Interval(Integral, 0, None, closed="left")], "noise": _NOISE, "random_state": ["random_state", np.random.Generator], "return_digits": ["boolean"]}, prefer_skip_nested_validation=True)
def make_led_digits(n, noise=0.1, random_state=None, *, return_digits=False):
    """Draw ``n`` noisy LED digits for the task 0–4 (``y = -1``) against 5–9 (``y = +1``).

    Digits are uniform on 0–9; each of the 7 segment bits is flipped independently with
    probability exactly ``noise`` (not the 0.09 of scikit-multiflow's generator).

    Parameters
    ----------
    n : int
        Number of examples.
    noise : float, default=0.1
        Flip probability of each segment, in [0, 0.5].
    random_state : None, int or numpy Generator/RandomState
        Seed of the draw.
    return_digits : bool, default=False
        Also return the digit (0–9) of each example.

    Returns
    -------
    X : ndarray of shape (n, 7), dtype int8
        The noisy segment bits (not complemented; see :func:`companion.kernels.add_complemented_bits`).
    y : ndarray of shape (n,)
        ``+1`` for 5–9, ``-1`` for 0–4.
    digits : ndarray of shape (n,), only if ``return_digits``

    Examples
    --------
    >>> X, y = make_led_digits(4, random_state=0)
    >>> X.shape, sorted(set(y.tolist()) | {-1, 1})
    ((4, 7), [-1, 1])
    """
    noise = float(noise)
    if isinstance(random_state, np.random.Generator):
        generator = random_state
    else:
        generator = np.random.default_rng(check_random_state(random_state).randint(2**31 - 1))
    digits = generator.integers(0, 10, size=n)
    flips = generator.random((n, 7)) < noise
    X = (LED_SEGMENTS[digits] ^ flips).astype(np.int8)
    y = _digit_group(digits)
    return (X, y, digits) if return_digits else (X, y)


def _all_patterns() -> np.ndarray:
    """The 128 bit patterns, row ``p`` holding the binary digits of ``p`` (most significant first)."""
    return ((np.arange(128)[:, None] >> np.arange(6, -1, -1)[None, :]) & 1).astype(np.int8)


@validate_params({"noise": _NOISE}, prefer_skip_nested_validation=True)
def pattern_likelihoods(noise=0.1) -> np.ndarray:
    """``P(b | digit)`` for the 128 patterns ``b`` (rows, in the order of the binary number) and 10 digits.

    With a :class:`fractions.Fraction` ``noise`` the entries are exact Fractions (object array).

    Parameters
    ----------
    noise : float or fractions.Fraction, default=0.1
        Probability that a segment is flipped.

    Returns
    -------
    ndarray of shape (128, 10)
    """
    _check_fraction(noise)
    hamming = (_all_patterns()[:, None, :] != LED_SEGMENTS[None, :, :]).sum(axis=2)
    if isinstance(noise, Fraction):
        powers_flip = [noise**h for h in range(8)]
        powers_keep = [(1 - noise) ** (7 - h) for h in range(8)]
        table = np.array([powers_flip[h] * powers_keep[h] for h in range(8)], dtype=object)
        return table[hamming]
    return float(noise) ** hamming * (1.0 - float(noise)) ** (7 - hamming)


def _pattern_index(X) -> np.ndarray:
    X = np.asarray(X)
    if X.ndim != 2 or X.shape[1] != 7 or not np.isin(X, (0, 1)).all():
        raise ValueError(f"X must be an (n, 7) array of 0/1 segment bits, got shape {X.shape}")
    return X.astype(np.int64) @ (1 << np.arange(6, -1, -1))


@validate_params({"X": ["array-like"], "noise": _NOISE}, prefer_skip_nested_validation=True)
def bayes_predict(X, noise=0.1) -> np.ndarray:
    """Bayes-optimal labels (``+1`` = 5–9) for segment bits ``X`` of shape (n, 7).

    Predicts 5–9 iff ``Σ_{D=5..9} P(b|D) > Σ_{D=0..4} P(b|D)`` (uniform digit prior).

    Parameters
    ----------
    X : array-like of shape (n, 7)
        0/1 segment bits.
    noise : float, default=0.1
        Probability that a segment is flipped.

    Returns
    -------
    ndarray of int, shape (n,)
    """
    likelihood = pattern_likelihoods(float(noise))
    rule = np.where(likelihood[:, 5:].sum(axis=1) > likelihood[:, :5].sum(axis=1), 1, -1)
    return rule[_pattern_index(X)]


@validate_params({"noise": _NOISE}, prefer_skip_nested_validation=True)
def bayes_error(noise=0.1):
    """Exact error of the Bayes-optimal rule for 0–4 vs 5–9: ``Σ_b min(P(b, 0–4), P(b, 5–9))``.

    Parameters
    ----------
    noise : float or fractions.Fraction, default=0.1
        Probability that a segment is flipped.

    Returns
    -------
    fractions.Fraction or float
        A Fraction when ``noise`` is one (``870491/6250000`` for 1/10), else a float.
    """
    likelihood = pattern_likelihoods(noise)
    low, high = likelihood[:, :5].sum(axis=1), likelihood[:, 5:].sum(axis=1)
    total = sum(min(a, b) for a, b in zip(low, high))
    return total / 10 if isinstance(noise, Fraction) else float(total) / 10.0


@dataclass(frozen=True)
class BooleanTree:
    """A decision tree on 0/1 inputs as a member of DT_{d,n}: leaves = conjunctions of literals.

    Parameters
    ----------
    leaf_monomials : tuple
        ``leaf_monomials[k]`` lists columns of the complemented inputs (``j + n_variables`` is
        ``¬x_j``).
    leaf_signs : ndarray
        ``leaf_signs[k]`` is the leaf's label in {-1, +1}.
    n_variables : int
        Number of input variables.
    n_errors : int
        Training errors.
    risk : float
        ``leaf_cost·#leaves + #errors``.
    """

    leaf_monomials: tuple
    leaf_signs: np.ndarray
    n_variables: int
    n_errors: int
    risk: float

    @property
    def n_leaves(self) -> int:
        return len(self.leaf_monomials)

    @property
    def depth(self) -> int:
        return max((len(m) for m in self.leaf_monomials), default=0)

    def predict(self, X) -> np.ndarray:
        """Labels in {-1, +1}: the sign of the one leaf whose conjunction holds.

        Parameters
        ----------
        X : array-like of shape (n, n_variables)
            0/1 inputs.

        Returns
        -------
        ndarray of shape (n,)
        """
        X = np.asarray(X)
        if X.ndim != 2 or X.shape[1] != self.n_variables or not np.isin(X, (0, 1)).all():
            raise ValueError(f"X must be an (n, {self.n_variables}) array of 0/1 values, got shape {X.shape}")
        from companion.kernels import monomial_features

        fires = monomial_features(np.hstack([X, 1 - X]), list(self.leaf_monomials))
        return fires @ self.leaf_signs

    def to_text(self, feature_names=None) -> str:
        """One rule per leaf, ``¬x3`` for a complemented literal.

        Parameters
        ----------
        feature_names : sequence of str, optional
            One name per variable. Default: the paper's numbering ``x1 .. xn`` (counted from 1,
            as the segment bits in paper 03 and its notebook; the estimators count from 0).

        Returns
        -------
        str
        """
        from companion.kernels import monomial_names

        if feature_names is not None:
            feature_names = [str(name) for name in feature_names]
            if len(feature_names) != self.n_variables:
                raise ValueError(
                    f"feature_names has {len(feature_names)} names but the tree has {self.n_variables} variables"
                )
        names = monomial_names(self.leaf_monomials, self.n_variables, feature_names)
        return "\n".join(
            f"if {name if name != '1' else 'always'}: predict {int(sign):+d}"
            for name, sign in zip(names, self.leaf_signs)
        )


@validate_params({"X": ["array-like"], "y": ["array-like"], "max_depth": [Interval(Integral, 0, None, closed="left")], "leaf_cost": [Interval(Real, 0, None, closed="left")]}, prefer_skip_nested_validation=True)
def optimal_boolean_tree(X, y, max_depth, leaf_cost=1.0) -> BooleanTree:
    """The tree of depth ≤ ``max_depth`` minimising ``leaf_cost·#leaves + #errors`` exactly.

    Exhaustive dynamic programme over partial assignments (conjunctions of literals on distinct
    variables): ``best(C) = min(leaf_cost + errors(C), min_j best(C ∧ x_j) + best(C ∧ ¬x_j))``.
    There are ``Σ_{i≤d} binom(n,i) 2^i`` conjunctions (2187 for n = d = 7), so this is cheap for
    the LED data. It gives the smallest tree risk in DT_{d,n} (Eq. 8 with λ = 4, c ≡ 1), the number
    a greedy tree (CART, C4.5) can only approach from above; ties prefer the leaf.

    Parameters
    ----------
    X : array-like of shape (m, n)
        0/1 inputs (not complemented).
    y : array-like of shape (m,)
        Labels in {-1, +1}.
    max_depth : int
        ``d ≥ 0``.
    leaf_cost : float, default=1.0
        Cost of a leaf in errors.

    Returns
    -------
    BooleanTree
    """
    X = np.asarray(X)
    y = np.asarray(y)
    if X.ndim != 2 or not np.isin(X, (0, 1)).all():
        raise ValueError(f"X must be a 2-D array of 0/1 values, got shape {X.shape}")
    if y.shape != (X.shape[0],) or not np.isin(y, (-1, 1)).all():
        raise ValueError("y must be a vector of labels in {-1, +1} with one entry per row of X")
    n_vars = X.shape[1]
    bits = X.astype(bool)
    positive = y == 1
    memo: dict = {}

    def solve(assignment: tuple, rows: np.ndarray):
        if assignment in memo:
            return memo[assignment]
        n_pos = int(positive[rows].sum())
        n_neg = int(rows.sum()) - n_pos
        leaf = (leaf_cost + min(n_pos, n_neg), None)
        best = leaf
        if len(assignment) < max_depth and n_pos and n_neg:
            used = {v for v, _ in assignment}
            for j in range(n_vars):
                if j in used:
                    continue
                one = solve(tuple(sorted(assignment + ((j, 1),))), rows & bits[:, j])
                zero = solve(tuple(sorted(assignment + ((j, 0),))), rows & ~bits[:, j])
                if one[0] + zero[0] < best[0] - 1e-12:
                    best = (one[0] + zero[0], j)
        memo[assignment] = (best[0], best[1], 1 if n_pos > n_neg else -1)
        return memo[assignment]

    all_rows = np.ones(X.shape[0], dtype=bool)
    total = solve((), all_rows)[0]
    monomials, signs, stack = [], [], [()]
    while stack:
        assignment = stack.pop()
        _, split, sign = memo[assignment]
        if split is None:
            monomials.append(tuple(sorted(v if value else v + n_vars for v, value in assignment)))
            signs.append(float(sign))
            continue
        stack.append(tuple(sorted(assignment + ((split, 0),))))
        stack.append(tuple(sorted(assignment + ((split, 1),))))
    errors = int(round(total - leaf_cost * len(monomials)))
    return BooleanTree(tuple(monomials), np.array(signs), n_vars, errors, float(total))


@validate_params({"monomial": ["array-like"], "n_variables": [Interval(Integral, 1, None, closed="left")]}, prefer_skip_nested_validation=True)
def monomial_as_trees(monomial, n_variables) -> tuple[BooleanTree, BooleanTree]:
    """Two trees ``T₁, T₂ ∈ DT_{d,n}`` with ``x^I = (T₁ + T₂)/2``: trees span ``P_{d,n}`` (paper §4).

    The paper shows that the polynomials of degree ≤ d are spanned by the decision trees of depth
    ≤ d (so boosting trees can reach the maximal margin solution in ``P_{d,n}``), via the partition
    of the identity. Construction (our derivation of the paper's claim): for ``x^I = ℓ₁⋯ℓ_k`` take the "caterpillar"
    leaves ``L₀ = ℓ₁⋯ℓ_k`` and ``L_r = ℓ₁⋯ℓ_{r-1}¬ℓ_r`` (r = 1..k), which partition the inputs
    (``Σ_r L_r = 1``). ``T₁`` labels every leaf +1 (``T₁ ≡ 1``), ``T₂`` labels ``L₀`` +1 and the
    others -1 (``T₂ = 2x^I - 1``).

    Parameters
    ----------
    monomial : tuple of int
        Columns of the complemented inputs (``j + n_variables`` is ``¬x_j``), on distinct variables.
    n_variables : int
        Number of (uncomplemented) input variables.

    Returns
    -------
    tuple of BooleanTree
        ``(T₁, T₂)``.

    Examples
    --------
    >>> t1, t2 = monomial_as_trees((0, 9), 7)     # x1 ¬x3 (counted from 1)
    >>> print(t2.to_text())
    if x1 ¬x3: predict +1
    if ¬x1: predict -1
    if x1 x3: predict -1
    """
    literals = [int(c) for c in monomial]
    if any(c < 0 or c >= 2 * n_variables for c in literals):
        raise ValueError(f"monomial columns must lie in [0, {2 * n_variables}), got {monomial!r}")
    if len({c % n_variables for c in literals}) != len(literals):
        raise ValueError(f"monomial must use distinct variables (no x and ¬x together), got {monomial!r}")

    def negate(c):
        return c + n_variables if c < n_variables else c - n_variables

    leaves = [tuple(sorted(literals))]
    leaves += [tuple(sorted(literals[:r] + [negate(literals[r])])) for r in range(len(literals))]
    ones = np.ones(len(leaves))
    signs = np.where(np.arange(len(leaves)) == 0, 1.0, -1.0)
    return (
        BooleanTree(tuple(leaves), ones, int(n_variables), 0, float("nan")),
        BooleanTree(tuple(leaves), signs, int(n_variables), 0, float("nan")),
    )
