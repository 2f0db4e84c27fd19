"""Boolean kernels of Kowalczyk, Smola & Williamson (NIPS 2001), paper 03, §2–§3.

A polynomial of degree at most ``d`` on Boolean inputs ``x ∈ {0,1}^n`` is
``f(x) = Σ_{|I| ≤ d} w_I x^I`` (Eq. 1), where ``x^I = Π_{j: I_j = 1} x_j`` is a *monomial*.
With the norm ``‖f‖² = Σ_I w_I² / c_{|I|}`` (Eq. 4) the polynomials form a reproducing kernel
Hilbert space whose kernel is (Lemma 2, Eq. 5)

    k(x, x') = Σ_{i=0}^{d} c_i · binom(⟨x, x'⟩, i),

because exactly ``binom(⟨x,x'⟩, i)`` monomials of degree ``i`` are non-zero on both ``x`` and
``x'``. For geometric weights ``c_i = β^i`` and ``d = n`` the binomial theorem gives the closed form
``(1 + β)^⟨x, x'⟩`` (Eq. 6).

The module also provides the explicit monomial feature map (used to check the kernel), the
"Standing Assumption" helper that appends complemented bits (paper §2, condition (3)), and the
polynomial form of DNFs (the class DNF_{d,n}, Eq. 2) with the RKHS norm of a polynomial.

>>> import numpy as np
>>> X = np.array([[1, 0, 1], [1, 1, 1]])
>>> boolean_kernel(X, degree=3)          # c_i = 1, d = n: k = 2^<x,x'>
array([[4., 4.],
       [4., 8.]])
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from scipy.special import comb
from sklearn.utils._param_validation import validate_params

from companion._monomials import monomial_columns, monomial_positions, monomial_tuples
from companion.numerics import StrictInterval

__all__ = [
    "boolean_kernel",
    "degree_weights",
    "add_complemented_bits",
    "all_monomials",
    "literal_monomials",
    "monomial_features",
    "monomial_names",
    "dnf_polynomial",
    "polynomial_norm_sq",
]


def _check_boolean(X, name: str, caller: str) -> np.ndarray:
    """Return ``X`` as a 2-D float array after checking that every entry is 0 or 1.


    Parameters
    ----------
    X : array-like of shape (m, n)
        The array to check.
    name : str
        Its name in the error message.
    caller : str
        The public function checking it, named in the error message.

    Returns
    -------
    ndarray of float, shape (m, n)
        ``X`` as floats.
    Raises
    ------
    ValueError
        If ``X`` is not 2-D, is empty, or holds a value other than 0 and 1; the message names
        ``caller``, ``name`` and the offending value.
    """
    try:
        array = np.asarray(X, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{caller}: {name} must be a numeric 0/1 array; could not convert it: {exc}") from exc
    if array.ndim != 2:
        raise ValueError(
            f"{caller}: {name} must be a 2-D array of shape (n_samples, n_features), got {array.ndim} dimension(s)"
        )
    if array.size and not np.isin(array, (0.0, 1.0)).all():
        bad = array[~np.isin(array, (0.0, 1.0))].flat[0]
        raise ValueError(
            f"{caller} needs {name} with entries in {{0, 1}} (Boolean inputs), got the value {bad!r}; "
            "binarise the data first"
        )
    return array


#: ``degree``'s constraint (scikit-learn's ``validate_params``): the maximal degree ``d >= 0``.
_DEGREE = {"degree": [StrictInterval(Integral, 0, None, closed="left")]}
#: ``weights``, the complexity weights of Eq. (4): None (all 1), a ratio ``β > 0`` or an array
#: (whose entries :func:`degree_weights` checks).
_WEIGHTS = {"weights": [None, StrictInterval(Real, 0, None, closed="neither"), "array-like"]}
#: A number of input columns or variables.
_N_COLUMNS = StrictInterval(Integral, 0, None, closed="left")


@validate_params({**_DEGREE, **_WEIGHTS}, prefer_skip_nested_validation=True)
def degree_weights(degree: int, weights=None) -> np.ndarray:
    """The complexity weights ``c_0, …, c_d`` of Eq. (4) as an array of length ``degree + 1``.

    Parameters
    ----------
    degree : int
        The maximal degree ``d ≥ 0``.
    weights : None, float or array-like, default=None
        ``None`` gives ``c_i = 1`` (the paper's experiment); a positive float ``β`` gives the
        geometric weights ``c_i = β^i`` of Eq. (6); an array gives ``c`` directly (all > 0).


    Returns
    -------
    ndarray of shape (degree + 1,)
        ``c_0, …, c_d``.
    Raises
    ------
    ValueError
        On a weight array of wrong length or with a non-positive entry (a negative or non-integer
        degree, a number ``β <= 0``: ``InvalidParameterError``, a ``ValueError`` too).
    """
    if weights is None:
        return np.ones(degree + 1)
    if isinstance(weights, Real) and not isinstance(weights, (bool, np.bool_)):
        return float(weights) ** np.arange(degree + 1)
    c = np.asarray(weights, dtype=float)
    if c.shape != (degree + 1,):
        raise ValueError(
            f"degree_weights: weights must have length degree + 1 = {degree + 1} (c_0..c_d), got shape {c.shape}"
        )
    if not np.all(c > 0):
        raise ValueError(
            f"degree_weights: weights (the complexity weights c_i of Eq. 4) must all be > 0, got {c.tolist()}"
        )
    return c


def _weights_up_to(max_degree: int, weights, caller: str) -> np.ndarray:
    """Weights ``c_0..c_D`` covering degrees up to ``max_degree``; an array may be longer (unused tail)."""
    if weights is None or isinstance(weights, Real):
        return degree_weights(max_degree, weights)
    c = np.asarray(weights, dtype=float)
    if c.ndim != 1 or c.shape[0] <= max_degree or not np.all(c > 0):
        raise ValueError(
            f"{caller}: weights must be positive c_0..c_d with d >= {max_degree} (the largest monomial degree), "
            f"got {c.tolist()}"
        )
    return c


# Size of one block of the kernel's integer indices (tests shrink it: blocks give the same matrix).
_BLOCK_BYTES = 32 << 20


@validate_params(
    {"X": ["array-like"], "Y": ["array-like", None], **_DEGREE, **_WEIGHTS, "compact": ["boolean"]},
    prefer_skip_nested_validation=True,
)
def boolean_kernel(X, Y=None, *, degree, weights=None, compact=False) -> np.ndarray:
    """Gram matrix of the Boolean polynomial kernel, Eq. (5): ``k(x,x') = Σ_{i≤d} c_i binom(⟨x,x'⟩, i)``.

    Follows scikit-learn's pairwise-kernel signature, so it can be passed as a callable kernel
    or used to build a ``kernel="precomputed"`` matrix.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
        Boolean inputs (entries 0 or 1).
    Y : array-like of shape (n_samples_Y, n_features), default=None
        Second set of Boolean inputs; ``None`` means ``Y = X``.
    degree : int
        Maximal degree ``d`` of the monomials (degree 0, the constant, is always included).
    weights : None, float or array-like, default=None
        Complexity weights, see :func:`degree_weights`.
    compact : bool, default=False
        Return float32 when every kernel value is a whole number below ``2**24`` (integer weights:
        then float32 holds the same numbers exactly, in half the memory); float64 otherwise.

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)
        float64, or float32 with ``compact=True`` where that is exact.

    Raises
    ------
    ValueError
        If an input is not Boolean or the feature counts differ.

    Notes
    -----
    ``⟨x, x'⟩`` is an integer in ``0..n``, so the kernel is a lookup in a table of ``n + 1``
    values; no power or factorial is evaluated per pair. The result is filled in blocks of rows,
    so the temporaries (the product and its integer indices) stay small: the peak memory is the
    result itself (3.2 GB in float64, 1.6 GB compact, for 20,000 × 20,000).

    >>> boolean_kernel([[1, 0, 1], [1, 1, 1]], degree=3, compact=True).dtype
    dtype('float32')
    """
    X = _check_boolean(X, "X", "boolean_kernel")
    Y = X if Y is None else _check_boolean(Y, "Y", "boolean_kernel")
    if X.shape[1] != Y.shape[1]:
        raise ValueError(
            f"boolean_kernel: X and Y must have the same number of features, got {X.shape[1]} and {Y.shape[1]}"
        )
    c = degree_weights(degree, weights)
    n_features = X.shape[1]
    # ⟨x, x'⟩ counts shared ones: an integer below 2**24, exact in float32, whose matrix product
    # is faster than float64's and whose result converts to an index with no rounding.
    dtype = np.float32 if n_features < 2**24 else np.float64
    X_cast, Y_cast_T = X.astype(dtype, copy=False), Y.astype(dtype, copy=False).T
    shared = np.arange(n_features + 1)
    # table[s] = Σ_i c_i binom(s, i); comb(s, i) = 0 for i > s, as Lemma 2 requires.
    table = comb(shared[:, None], np.arange(degree + 1)[None, :], exact=False) @ c
    exact_in_float32 = bool(np.array_equal(table, np.rint(table)) and np.abs(table).max() < 2**24)
    if compact and exact_in_float32:
        table = table.astype(np.float32)
    gram = np.empty((X.shape[0], Y.shape[0]), dtype=table.dtype)
    # Blocks of rows of about 32 MB of indices: the products are whole numbers, exact in any
    # order, so the blocks give the same matrix as one product.
    step = max(1, _BLOCK_BYTES // (8 * max(1, Y.shape[0])))
    for start in range(0, X.shape[0], step):
        block = slice(start, start + step)
        # mode="clip": the indices are in 0..n already, and "raise" would buffer the output.
        table.take((X_cast[block] @ Y_cast_T).astype(np.intp), out=gram[block], mode="clip")
    return gram


@validate_params({"X": ["array-like"]}, prefer_skip_nested_validation=True)
def add_complemented_bits(X) -> np.ndarray:
    """Append the complemented bits ``1 - x`` to Boolean ``X`` (the Standing Assumption, paper §2).

    With the complement every negated literal ``¬x_j`` is the ordinary variable ``x_{j+n}``, so
    every conjunction of literals is a monomial.


    Parameters
    ----------
    X : array-like of shape (m, n)
        0/1 inputs.

    Returns
    -------
    ndarray of shape (m, 2n)
        ``[X, 1 - X]`` as floats.
    Examples
    --------
    >>> add_complemented_bits([[1, 0]])
    array([[1., 0., 0., 1.]])
    """
    X = _check_boolean(X, "X", "add_complemented_bits")
    return np.hstack([X, 1.0 - X])


@validate_params({"n_features": [_N_COLUMNS], **_DEGREE}, prefer_skip_nested_validation=True)
def all_monomials(n_features: int, degree: int) -> list[tuple[int, ...]]:
    """Every multi-index ``I`` with ``|I| ≤ degree`` as the sorted tuple of its positions (Eq. 1).

    Parameters
    ----------
    n_features : int
        Number of input columns.
    degree : int
        Largest degree.

    Returns
    -------
    list of tuple of int
        The constant ``()`` first, then by increasing degree, each in lexicographic order.
    """
    return monomial_tuples(*monomial_positions(n_features, degree, literals=False))


@validate_params({"n_variables": [_N_COLUMNS], **_DEGREE}, prefer_skip_nested_validation=True)
def literal_monomials(n_variables: int, degree: int) -> list[tuple[int, ...]]:
    """Monomials on complemented inputs ``(b, 1 - b)`` that do not vanish identically.

    These are the conjunctions of at most ``degree`` literals on distinct variables: variable
    ``j`` appears as column ``j`` (``x_j``) or column ``j + n_variables`` (``¬x_j``), never both.
    There are ``Σ_{i ≤ d} binom(n, i) 2^i`` of them (1, 15, 99, … 2187 for n = 7).


    Parameters
    ----------
    n_variables : int
        Number of original variables ``n`` (the inputs have ``2n`` columns).
    degree : int
        Largest number of literals.

    Returns
    -------
    list of tuple of int
        The monomials, the constant ``()`` first.
    Examples
    --------
    >>> len(literal_monomials(7, 2)), len(literal_monomials(7, 7))
    (99, 2187)
    """
    return monomial_tuples(*monomial_positions(n_variables, degree, literals=True))


@validate_params({"X": ["array-like"], "monomials": ["array-like"], **_WEIGHTS}, prefer_skip_nested_validation=True)
def monomial_features(X, monomials, weights=None) -> np.ndarray:
    """Explicit feature map ``Φ(x) = (√c_{|I|} x^I)_I`` for the given monomials (Eq. 4).

    ``⟨Φ(x), Φ(x')⟩`` over all monomials of degree ≤ d equals :func:`boolean_kernel`.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Inputs (any real values: a monomial is a product of columns).
    monomials : list of tuple of int
        Positions of each monomial, e.g. from :func:`all_monomials`; ``()`` is the constant.
    weights : None, float or array-like, default=None
        Complexity weights ``c`` (see :func:`degree_weights`), indexed by monomial degree.

    Returns
    -------
    ndarray of shape (n_samples, len(monomials))
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"monomial_features: X must be 2-D, got {X.ndim} dimension(s)")
    degrees = np.fromiter(map(len, monomials), dtype=np.intp, count=len(monomials))
    positions = np.zeros((len(monomials), max(int(degrees.max(initial=0)), 1)), dtype=np.intp)
    for size in np.unique(degrees[degrees > 0]):
        rows = np.flatnonzero(degrees == size)
        positions[rows, :size] = np.array([monomials[row] for row in rows], dtype=np.intp).reshape(len(rows), size)
    return monomial_columns(
        X, positions, degrees, _weights_up_to(int(degrees.max(initial=0)), weights, "monomial_features")
    )


@validate_params(
    {"monomials": ["array-like"], "n_variables": [_N_COLUMNS, None], "feature_names": ["array-like", None]},
    prefer_skip_nested_validation=True,
)
def monomial_names(monomials, n_variables: int | None = None, feature_names=None) -> list[str]:
    """Readable names of monomials; with ``n_variables`` columns ``j + n_variables`` print as ``¬x_j``.

    Parameters
    ----------
    monomials : list of tuple of int
        Column positions of each monomial (``()`` is the constant, written ``1``).
    n_variables : int, optional
        Number of original variables when the columns are complemented inputs ``(x, 1 - x)``.
    feature_names : sequence of str, optional
        Name of each (original) variable. Default: the paper's numbering ``x1, x2, ...`` counted
        from 1 (the learners pass their own names, counted from 0 as scikit-learn does).


    Returns
    -------
    list of str
        One name per monomial: its literals separated by spaces, ``1`` for the constant.
    Examples
    --------
    >>> monomial_names([(), (0, 3)], n_variables=2, feature_names=["age", "smoker"])
    ['1', 'age ¬smoker']
    """
    def literal(col: int) -> str:
        if n_variables is not None and col >= n_variables:
            base = col - n_variables
            return "¬" + (feature_names[base] if feature_names is not None else f"x{base + 1}")
        return feature_names[col] if feature_names is not None else f"x{col + 1}"

    return [" ".join(literal(col) for col in m) if m else "1" for m in monomials]


@validate_params({"terms": ["array-like"]}, prefer_skip_nested_validation=True)
def dnf_polynomial(terms) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """Polynomial form of a DNF, Eq. (2): ``f = -1 + 2 Σ_{I∈U} x^I``.

    Parameters
    ----------
    terms : list of tuple of int
        The non-empty terms (monomials on the complemented inputs).

    Returns
    -------
    monomials, coefficients
        The constant monomial ``()`` with coefficient ``-1`` followed by each term with ``+2``.
    """
    terms = [tuple(sorted(t)) for t in terms]
    if any(len(t) == 0 for t in terms):
        raise ValueError(
            f"dnf_polynomial: terms must be non-empty conjunctions (the constant is added by Eq. 2), got {terms!r}"
        )
    return [()] + terms, np.array([-1.0] + [2.0] * len(terms))


@validate_params(
    {"monomials": ["array-like"], "coefficients": ["array-like"], **_WEIGHTS}, prefer_skip_nested_validation=True
)
def polynomial_norm_sq(monomials, coefficients, weights=None) -> float:
    """RKHS norm ``‖f‖² = Σ_I w_I² / c_{|I|}`` of Eq. (4).

    Gives the number of leaves for a tree and ``1 + 4·#terms`` for a DNF when ``c ≡ 1``.
    Repeated monomials are merged first (their coefficients add).

    Parameters
    ----------
    monomials : list of tuple of int
        The monomials ``I``.
    coefficients : array-like of shape (len(monomials),)
        Their coefficients ``w_I``.
    weights : None, float or array-like, default=None
        Complexity weights ``c_i``, as in :func:`degree_weights`.

    Returns
    -------
    float
        ``‖f‖²``.
    """
    merged: dict[tuple[int, ...], float] = {}
    for monomial, w in zip(monomials, np.asarray(coefficients, dtype=float)):
        key = tuple(sorted(monomial))
        merged[key] = merged.get(key, 0.0) + float(w)
    c = _weights_up_to(max((len(m) for m in merged), default=0), weights, "polynomial_norm_sq")
    return float(sum(w * w / c[len(m)] for m, w in merged.items()))
