"""Notebook 03's follow-up studies: the row-order spread of the order-sensitive learners, un-pruned
trees, the λ sweep with bounds (9), (11), (12) and R₁, Theorem 6's enumeration size and the trees
spanning ``P_{d,n}``.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import validate_params

from companion.bounds.boolean_kernel import tree_risk
from companion.evaluation import parallel_map
from companion.experiments._constraints import COUNT, SEED
from companion.kernels import add_complemented_bits, boolean_kernel
from companion.baselines import PrunedDecisionTree
from companion.perceptrons import KernelPerceptron, MaskPerceptron, MaximalMarginPerceptron
from companion.experiments.paper03._protocol import (
    AT_LEAST_TWO, AT_LEAST_ZERO, QUANTITIES, distinct_rows, error_percent, margin_error, protocol_draw,
)
from companion.experiments.paper03._tables import draw_pivot, draws_table


_ORDER_PLAN = {"kernel_perceptron": (2, 3, 7), "kernel_svm": (7,), "mask_perceptron": (7,)}
#: Orders per work item of :func:`row_order_spread`: the kernel is computed once per item.
_ORDERS_PER_ITEM = 10


@validate_params({"n_orders": AT_LEAST_TWO}, prefer_skip_nested_validation=True)
def row_order_spread(seed, *, draw=0, plan=None, n_orders=100, max_orders=None, n_train=500, n_test=5000, lam=4.0,
                     tol=1e-3, mask_terms=None, n_jobs=1) -> pd.DataFrame:
    """Refit the order-sensitive methods on ``n_orders`` random row orders of one draw's training set.

    The λ-perceptron sweeps the examples cyclically and the λ-MMP breaks ties between duplicated
    rows by index, so the learnt function depends on the order of the rows; the mask perceptron's
    greedy choice should not (up to last-bit ties). Order 0 is the original order (the value in
    the main table); orders 1.. are permutations from ``SeedSequence([seed, draw])``, the same
    whatever ``n_orders``, so a run with fewer orders is a prefix of a run with more.

    Parameters
    ----------
    seed : int
        The protocol's seed (draw ``draw`` of :func:`run` is regenerated bit for bit).
    draw : int, default=0
        The draw.
    plan : dict {method: degrees}, optional
        Methods among ``kernel_perceptron``, ``kernel_svm``, ``mask_perceptron`` and their degrees;
        default: the perceptron at d = 2, 3, 7, the λ-MMP and the mask perceptron at d = 7.
    n_orders : int, default=100
        Row orders (including the original one).
    max_orders : dict {method: int}, optional
        Fewer orders for some methods (their first ones), e.g. ``{"kernel_svm": 20}``: the
        λ-MMP costs about 10 perceptron fits.
    n_train, n_test : int, default=500, 5000
        Sizes of the draw.
    lam : float, default=4.0
        The risk's λ.
    tol : float, default=1e-3
        The λ-MMP's ε.
    mask_terms : dict {degree: int}, optional
        Terms of the mask perceptron (default: 10 below degree 5, else 26).
    n_jobs : int, default=1
        Workers of :func:`companion.evaluation.parallel_map`; items are blocks of orders of one
        (method, degree), each computing the Boolean kernel once and permuting it (the kernel is
        integer-valued, so the permuted matrix is the kernel of the permuted rows, bit for bit).

    Returns
    -------
    DataFrame with columns ``degree, method, order, risk, train_error, test_error``.
    """
    plan = dict(_ORDER_PLAN if plan is None else plan)
    unknown = set(plan) - set(_ORDER_PLAN)
    if unknown:
        raise ValueError(f"plan names unknown methods {sorted(unknown)}; expected some of {sorted(_ORDER_PLAN)}")
    max_orders = dict(max_orders or {})
    for method, count in max_orders.items():
        if method not in _ORDER_PLAN or not AT_LEAST_TWO[0].is_satisfied_by(count):
            raise ValueError(f"max_orders must map methods of {sorted(_ORDER_PLAN)} to integers >= 2, "
                             f"got {method!r}: {count!r}")
    X, y, X_test, y_test = protocol_draw(seed, draw, n_train, n_test)
    order_rng = np.random.default_rng(np.random.SeedSequence([seed, draw]))
    orders = [np.arange(n_train)] + [order_rng.permutation(n_train) for _ in range(n_orders - 1)]
    items = []
    for method, degrees in plan.items():
        count = min(n_orders, max_orders.get(method, n_orders))
        for degree in degrees:
            for start in range(0, count, _ORDERS_PER_ITEM):
                items.append((method, degree, tuple(range(start, min(count, start + _ORDERS_PER_ITEM)))))
    fit = partial(_fit_in_order, X, y, X_test, y_test, orders, lam, tol, mask_terms)
    rows = [row for block in parallel_map(fit, items, n_jobs=n_jobs) for row in block]
    return pd.DataFrame(rows)


def _fit_in_order(X, y, X_test, y_test, orders, lam, tol, mask_terms, item):
    method, degree, block = item
    results = []
    X_test_distinct, test_inverse = distinct_rows(X_test)  # scored on its distinct rows
    if method != "mask_perceptron":
        Xc = add_complemented_bits(X)
        K_all = boolean_kernel(Xc, degree=degree)
        K_test_all = boolean_kernel(add_complemented_bits(X_test_distinct), Xc, degree=degree)
    for k in block:
        rows = orders[k]
        Xo, yo = X[rows], y[rows]
        if method == "mask_perceptron":
            terms = (mask_terms or {}).get(degree, 10 if degree < 5 else 26)
            model = MaskPerceptron(degree=degree, n_terms=terms, lam=lam, fallback=None).fit(Xo, yo)
            train = margin_error(model, Xo, yo)[0]
            test = margin_error(model, X_test_distinct, y_test, test_inverse)[0]
        else:
            K, K_test = K_all[np.ix_(rows, rows)], K_test_all[:, rows]
            if method == "kernel_svm":
                model = MaximalMarginPerceptron(kernel="precomputed", lam=lam, tol=tol, fallback=None, compiled=True).fit(K, yo)
            else:
                model = KernelPerceptron(kernel="precomputed", lam=lam, fallback=None).fit(K, yo)
            train = margin_error(model, K, yo)[0]
            signed = np.where(y_test == model.classes_[1], 1.0, -1.0)
            test = 100.0 * float(np.mean(signed * model.decision_function(K_test)[test_inverse] <= 0))
        results.append(dict(degree=degree, method=method, order=k, risk=model.risk_, train_error=train, test_error=test))
    return results


#: Quantiles of the row-order spread reported by :func:`row_order_summary`.
_ORDER_QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def row_order_summary(order_results: pd.DataFrame, draw_results: pd.DataFrame, quantity="test_error") -> pd.DataFrame:
    """Row-order spread on one draw beside the draw-to-draw spread, per (degree, method).

    Columns: ``orders`` (how many), ``original`` (the original row order, as in the main table),
    ``orders mean/sd/min``, the quantiles :data:`_ORDER_QUANTILES` (``q05`` ... ``q95``, numpy's
    default linear interpolation), ``orders max``, ``draws sd`` (sd over the draws of
    :func:`run`) and their ratio. A heavy tail shows as ``max`` far beyond ``q95``.

    Parameters
    ----------
    order_results : pandas.DataFrame
        :func:`row_order_spread`'s table.
    draw_results : pandas.DataFrame
        :func:`run`'s tidy frame.
    quantity : str, default="test_error"
        One of :data:`QUANTITIES`.

    Returns
    -------
    pandas.DataFrame
        Index ``(degree, method)``.
    """
    if quantity not in QUANTITIES:
        raise ValueError(f"quantity must be one of {QUANTITIES}, got {quantity!r}")
    grouped = order_results.groupby(["degree", "method"], sort=True)[quantity]
    table = grouped.agg(["count", "mean", "std", "min"])
    table.columns = ["orders", "orders mean", "orders sd", "orders min"]
    for q in _ORDER_QUANTILES:
        table[f"q{round(q * 100):02d}"] = grouped.quantile(q)
    table["orders max"] = grouped.max()
    original = order_results[order_results["order"] == 0].set_index(["degree", "method"])[quantity]
    table.insert(1, "original", original.reindex(table.index))
    draws = draws_table(draw_results).groupby(["degree", "method"])[quantity].std()
    table["draws sd"] = draws.reindex(table.index)
    table["orders sd / draws sd"] = table["orders sd"] / table["draws sd"]
    return table


# --------------------------------------------------------------------------------------------
# Un-pruned trees, the λ sweep with bounds (11), (12), (15) and R₁ (issue 16, item 6)
# --------------------------------------------------------------------------------------------


def unpruned_trees(n_draws, seed, *, degrees=(2, 3, 7), n_train=500, n_test=5000, lam=4.0) -> pd.DataFrame:
    """Pruned against un-pruned CART trees on the draws of :func:`run` (paper §5 remark).

    The paper notes that "for the 'un-pruned' decision trees risks were only slightly worse".
    The un-pruned tree is CART grown to depth ``d`` (:class:`~companion.baselines.PrunedDecisionTree`
    with ``leaf_cost = 0``). Risks are Eq. (8), ``#leaves + (4/λ)#errors``.

    Returns one row per (draw, degree, tree) with ``leaves, risk, train_error, test_error``.

    Parameters
    ----------
    n_draws : int
        Draws of :func:`run`.
    seed : int
        The protocol's seed.
    degrees : tuple of int, default=(2, 3, 7)
        Maximal depths.
    n_train, n_test : int, default=500, 5000
        Sizes of each draw.
    lam : float, default=4.0
        The risk's λ.

    Returns
    -------
    pandas.DataFrame
    """
    rows = []
    for draw in range(n_draws):
        X, y, X_test, y_test = protocol_draw(seed, draw, n_train, n_test)
        for degree in degrees:
            for name, cost in (("pruned", lam / 4.0), ("unpruned", 0.0)):
                tree = PrunedDecisionTree(max_depth=degree, leaf_cost=cost, pruning="errors", random_state=0, fallback=None).fit(X, y)
                rows.append(dict(draw=draw, degree=degree, tree=name, leaves=tree.n_leaves_,
                                 risk=tree_risk(tree.n_leaves_, tree.n_errors_, lam),
                                 train_error=error_percent(tree.predict(X), y),
                                 test_error=error_percent(tree.predict(X_test), y_test)))
    return pd.DataFrame(rows)


def lambda_sweep(n_draws, seed, *, lams=(2.0, 4.0, 8.0, 16.0), degree=7, n_train=500, n_test=5000, tol=1e-3,
                 n_jobs=1) -> pd.DataFrame:
    """The λ-MMP, λ-perceptron and pruned tree for several λ on the first draws of :func:`run`.

    Per (draw, λ) it records the test errors, and the chain of risk bounds at this λ:
    the perceptron bound (9), the MMP bound (11), the exact ``min_f R[f, λ]`` (Eq. 15 with the
    optimal dual ``α = b*``, which attains it; :func:`~companion.bounds.boolean_kernel.minimal_risk`),
    the λ-MMP's risk, its certificate (12) ``N/min_i(Gα)_i²`` and ``(1-ε)^{-2}/N``; and, for the
    tree, the squared-hinge risk ``R`` and the hinge risk ``R₁`` of Eq. (7) (equal on trees), and
    for the λ-MMP output both risks (not equal). At λ = 4 the rows repeat the main protocol.

    Parameters
    ----------
    n_draws : int
        The first draws of :func:`run`.
    seed : int
        The protocol's seed.
    lams : tuple of float, default=(2.0, 4.0, 8.0, 16.0)
        The values of λ.
    degree : int, default=7
        Maximal degree.
    n_train, n_test : int, default=500, 5000
        Sizes of each draw.
    tol : float, default=1e-3
        The λ-MMP's ε (stopping rule (10)).
    n_jobs : int, default=1
        Workers of :func:`companion.evaluation.parallel_map`; the result does not depend on it.

    Returns
    -------
    pandas.DataFrame
        One row per (draw, λ).
    """
    if not all(isinstance(l, (int, float)) and l > 0 for l in lams):
        raise ValueError(f"lams must be positive numbers, got {lams!r}")
    items = [(draw, float(lam)) for draw in range(n_draws) for lam in lams]
    fit = partial(_sweep_item, seed, degree, n_train, n_test, tol)
    return pd.DataFrame(parallel_map(fit, items, n_jobs=n_jobs))


def _sweep_item(seed, degree, n_train, n_test, tol, item):
    from companion.bounds.boolean_kernel import hinge_risk, minimal_risk, regularised_risk

    draw, lam = item
    X, y, X_test, y_test = protocol_draw(seed, draw, n_train, n_test)
    Xc = add_complemented_bits(X)
    K = boolean_kernel(Xc, degree=degree)
    X_test_distinct, test_inverse = distinct_rows(X_test)  # scored on its distinct rows
    K_test = boolean_kernel(add_complemented_bits(X_test_distinct), Xc, degree=degree)
    mmp = MaximalMarginPerceptron(kernel="precomputed", lam=lam, tol=tol, fallback=None, compiled=True).fit(K, y)
    perceptron = KernelPerceptron(kernel="precomputed", lam=lam, fallback=None).fit(K, y)
    tree = PrunedDecisionTree(max_depth=degree, leaf_cost=lam / 4.0, pruning="errors", random_state=0, fallback=None).fit(X, y)
    tree_values = tree.predict(X).astype(float)  # ±1: the tree as a polynomial of DT_{d,n}
    exact, _ = minimal_risk(K, y, lam)
    mmp_values = mmp.decision_function(K)
    signed = np.where(y_test == mmp.classes_[1], 1.0, -1.0)
    return dict(
        draw=draw, lam=lam, degree=degree,
        perceptron_bound=perceptron.lower_bound_, mmp_bound=mmp.lower_bound_, min_risk=exact,
        mmp_risk=mmp.risk_, mmp_upper_bound=mmp.risk_upper_bound_,
        eps_upper_bound=(1.0 - tol) ** -2 / mmp.extended_norm_sq_,
        mmp_hinge_risk=hinge_risk(mmp_values, y, mmp.norm_sq_, lam),
        tree_leaves=tree.n_leaves_, tree_risk=regularised_risk(tree_values, y, tree.n_leaves_, lam),
        tree_hinge_risk=hinge_risk(tree_values, y, tree.n_leaves_, lam),
        tree_eq8=tree_risk(tree.n_leaves_, tree.n_errors_, lam),
        mmp_test_error=100.0 * float(np.mean(signed * mmp.decision_function(K_test)[test_inverse] <= 0)),
        perceptron_test_error=100.0 * float(
            np.mean(signed * perceptron.decision_function(K_test)[test_inverse] <= 0)
        ),
        tree_test_error=error_percent(tree.predict(X_test), y_test),
        mmp_support=mmp.n_support_,
    )


def lambda_sweep_summary(sweep: pd.DataFrame) -> pd.DataFrame:
    """Mean over draws of every column of :func:`lambda_sweep`, one row per λ.

    Parameters
    ----------
    sweep : pandas.DataFrame
        :func:`lambda_sweep`'s table.

    Returns
    -------
    pandas.DataFrame
    """
    return sweep.drop(columns=["draw", "degree"]).groupby("lam").mean()


# The loop makes three validated calls per monomial (its value, the two trees' predictions): checked
# once here, they skip their own checks (379 monomials for n = 7, d = 3).
@validate_params({"n_variables": COUNT, "degree": AT_LEAST_ZERO}, prefer_skip_nested_validation=True)
def trees_span_check(n_variables=7, degree=3) -> pd.DataFrame:
    """Every monomial of degree ≤ d as half the sum of two depth-≤d trees, on all 2ⁿ inputs.

    Uses :func:`companion.led.monomial_as_trees` for every conjunction of literals on distinct
    variables (:func:`companion.kernels.literal_monomials`), on every Boolean input.

    Returns one row per monomial degree: number of monomials, the largest tree depth and
    ``max |x^I - (T₁ + T₂)/2|`` over monomials and inputs (0 when the construction holds).

    Parameters
    ----------
    n_variables : int, default=7
        Boolean variables.
    degree : int, default=3
        Largest monomial degree.

    Returns
    -------
    pandas.DataFrame
    """
    from companion.kernels import literal_monomials, monomial_features
    from companion.led import monomial_as_trees

    X = ((np.arange(2**n_variables)[:, None] >> np.arange(n_variables)[None, :]) & 1).astype(np.int8)
    Xc = np.hstack([X, 1 - X])
    rows = {}
    for monomial in literal_monomials(n_variables, degree):
        t1, t2 = monomial_as_trees(monomial, n_variables)
        value = monomial_features(Xc, [monomial])[:, 0]
        gap = float(np.abs(value - (t1.predict(X) + t2.predict(X)) / 2).max())
        row = rows.setdefault(len(monomial), {"monomials": 0, "max tree depth": 0, "max |x^I - (T1+T2)/2|": 0.0})
        row["monomials"] += 1
        row["max tree depth"] = max(row["max tree depth"], t1.depth, t2.depth)
        row["max |x^I - (T1+T2)/2|"] = max(row["max |x^I - (T1+T2)/2|"], gap)
    table = pd.DataFrame.from_dict(rows, orient="index").sort_index()
    table.index.name = "degree of x^I"
    return table


@validate_params({"results": [pd.DataFrame], "n_train": COUNT}, prefer_skip_nested_validation=True)
def theorem6_table(results: pd.DataFrame, n_train=500) -> pd.DataFrame:
    """Theorem 6's subset size and number of subsets for the best trees of our draws, per degree.

    For the median leaf count of the best tree of depth ≤ d (``‖f‖² = leaves``) and the kernel's
    ``k(x, x) = Σ_{i ≤ d} binom(7, i)`` on complemented inputs, reports ``μ``, the subset size
    ``s = ⌈2/μ²⌉`` and ``log₁₀`` of the number of subsets of at most ``s`` of the ``m`` points
    (:func:`companion.bounds.boolean_kernel.theorem6_subset_size`).

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame.
    n_train : int, default=500
        The sample size ``m``.

    Returns
    -------
    pandas.DataFrame
        Index: the degree ``d``; ``median leaves`` (the median over draws, which the stand-in
        table's mean differs from), ``k(x, x)`` and the columns of ``theorem6_subset_size``.
    """
    from math import comb

    from companion.bounds.boolean_kernel import theorem6_subset_size

    rows = {}
    for degree in sorted(results["degree"].unique()):
        leaves = float(draw_pivot(results, degree, "best_tree", "size").median())
        diag = sum(comb(7, i) for i in range(min(int(degree), 7) + 1))
        rows[int(degree)] = {"median leaves": leaves, "k(x, x)": diag, **theorem6_subset_size(leaves, diag, n_train)}
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "degree d"
    return table


@validate_params(
    {"seed": SEED, "draw": AT_LEAST_ZERO, "degree": COUNT, "n_train": AT_LEAST_TWO,
     "lam": MaskPerceptron._parameter_constraints["lam"], "mask_terms": [dict, None]},
    prefer_skip_nested_validation=False,
)
def learnt_models(seed, *, draw=0, degree=7, n_train=500, lam=4.0, mask_terms=None):
    """The mask perceptron and the pruned CART tree of degree ``degree`` on one draw, for reading.

    Fitted on draw ``draw`` of :func:`run` (same data and settings as the main table).
    Print them with ``to_text(feature_names=SEGMENT_NAMES)`` to read them in segment names.

    Parameters
    ----------
    seed : int
        The protocol's seed.
    draw : int, default=0
        The draw.
    degree : int, default=7
        Maximal degree of the mask and depth of the tree.
    n_train : int, default=500
        Training examples.
    lam : float, default=4.0
        The risk's λ.
    mask_terms : dict {degree: int}, optional
        Terms of the mask perceptron (default: 10 below degree 5, else 26).

    Returns
    -------
    mask : MaskPerceptron
    tree : PrunedDecisionTree
    """
    X, y, _, _ = protocol_draw(seed, draw, n_train, 2)
    terms = (mask_terms or {}).get(degree, 10 if degree < 5 else 26)
    mask = MaskPerceptron(degree=degree, n_terms=terms, lam=lam, fallback=None).fit(X, y)
    tree = PrunedDecisionTree(max_depth=degree, leaf_cost=lam / 4.0, pruning="errors", random_state=0, fallback=None).fit(X, y)
    return mask, tree


def pruning_changed(trees: pd.DataFrame) -> pd.Series:
    """Whether pruning changed the CART tree, per (degree, draw): the two trees' leaf counts differ.

    Pruning returns a subtree of the un-pruned tree, and collapsing any internal node removes at
    least one leaf, so the pruned tree is the un-pruned one exactly when both have as many leaves.
    The test looks at the trees, not at their risks: two different trees can have one risk (a
    leaf that saves one training error costs one leaf at λ = 4), and a filter on the risk would
    keep only the draws where the un-pruned tree is worse.

    Parameters
    ----------
    trees : pandas.DataFrame
        :func:`unpruned_trees`' frame (``draw, degree, tree, leaves``).

    Returns
    -------
    pandas.Series
        Boolean, indexed by ``(degree, draw)``.
    """
    leaves = trees.pivot_table(index=["degree", "draw"], columns="tree", values="leaves")
    return leaves["unpruned"] != leaves["pruned"]
