"""Notebook 03's claims as a :mod:`companion.claims` family (``registry/paper03.toml``), with their
seed variants.
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial

import numpy as np
import pandas as pd

from companion.led import bayes_error
from companion.prose import render
from companion.experiments.paper03._templates import TEMPLATES
from companion.experiments.paper03._protocol import Config, j48_results_if_run, paper_table1, run
from companion.experiments.paper03._tables import J48_DEGREE, draws_table, j48_rows
from companion.experiments.paper03._studies import unpruned_trees


# --------------------------------------------------------------------------------------------
# The paper's claims, judged by companion.claims
# --------------------------------------------------------------------------------------------

#: "Reasonably close" to bound (11) read as a risk at most this many times the bound, and "far
#: above" as at least this many times (section 5 and Table 1; the paper's own ratios are 1.20–1.35
#: for the perceptrons and 2.0–2.5 for the trees). Fixed from the paper's wording, before our runs.
BOUND_RATIO_MARGIN = 1.5
#: Relative slack of the exact check "every risk lies above both bounds" (float risks and bounds).
BOUND_CHECK_RTOL = 1e-9
_RISK_METHODS = ("decision_tree", "best_tree", "kernel_svm", "kernel_perceptron", "mask_perceptron")


def claims_data(results, column_degrees=None, orders=None, j48=None, unpruned=None) -> dict:
    """What :func:`claims_family`'s measures read: the per-draw table, the degree of each column, row orders.

    ``column_degrees`` maps Table 1's columns to maximal degrees (default ``{1: 3, 2: 7}``);
    ``orders`` is :func:`row_order_spread`'s table (or ``None``: the row-order claim is then not
    evaluated); ``j48`` is :func:`j48_results` on the same draws (or ``None``: the J48 claims are
    then not evaluated); ``unpruned`` is :func:`unpruned_trees` on the same draws (or ``None``:
    the un-pruned claims are not evaluated).

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame.
    column_degrees : dict, optional
        ``{1: d1, 2: d2}``.
    orders : pandas.DataFrame, optional
        :func:`row_order_spread`'s table.
    j48 : pandas.DataFrame, optional
        :func:`j48_results` on the same draws.
    unpruned : pandas.DataFrame, optional
        :func:`unpruned_trees` on the same draws.

    Returns
    -------
    dict
        ``draws`` (:func:`draws_table`), ``degrees``, ``orders``, ``j48``, ``unpruned``.
    """
    degrees = {1: 3, 2: 7} if column_degrees is None else dict(column_degrees)
    if set(degrees) != {1, 2}:
        raise ValueError(f"column_degrees must map columns 1 and 2 to degrees, got {column_degrees!r}")
    return {"draws": draws_table(results), "degrees": degrees, "orders": orders,
            "j48": None if j48 is None else j48_rows(j48), "unpruned": unpruned}


def _paired_j48(data, column, b, quantity):
    """J48's ``quantity`` and method ``b``'s at column ``column``'s degree, paired by draw
    (``None`` when J48 was not run on these draws or the column's degree is below :data:`J48_DEGREE`)."""
    j48 = data.get("j48")
    if j48 is None or data["degrees"][column] < J48_DEGREE:
        return None
    left = j48.set_index("draw")[quantity].sort_index()
    right = _column(data, column, b, quantity)
    left, right = left.align(right, join="inner")
    if len(left) == 0:
        return None
    return left.to_numpy(), right.to_numpy()


def _paired_j48_difference(data, *, column, b, quantity, reverse=False):
    pair = _paired_j48(data, column, b, quantity)
    if pair is None:
        return None
    j48, other = pair
    return other - j48 if reverse else j48 - other


def _column(data, column, method, quantity) -> pd.Series:
    draws = data["draws"]
    rows = draws[(draws["degree"] == data["degrees"][column]) & (draws["method"] == method)]
    return rows.set_index("draw")[quantity].sort_index()


def _paired(data, column, a, b, quantity):
    left, right = _column(data, column, a, quantity), _column(data, column, b, quantity)
    left, right = left.align(right, join="inner")
    if len(left) == 0:
        return None  # the column's degree was not run in this variant
    return left.to_numpy(), right.to_numpy()


def _paired_difference(data, *, column, a, b, quantity):
    pair = _paired(data, column, a, b, quantity)
    return None if pair is None else pair[0] - pair[1]


def _unpruned_ratio(data, *, column):
    """Risk of the un-pruned CART tree and of the pruned one at the column's degree, paired by draw."""
    trees = data.get("unpruned")
    if trees is None:
        return None
    rows = trees[trees["degree"] == data["degrees"][column]]
    if rows.empty:
        return None
    wide = rows.pivot(index="draw", columns="tree", values="risk").sort_index()
    return wide["unpruned"].to_numpy(dtype=float), wide["pruned"].to_numpy(dtype=float)


#: How many draw-to-draw standard deviations a single-draw number of the paper may lie from our
#: mean and still count as reproduced (the z of the Table 1 comparison).
Z_AGREEMENT = 2.0


def _bounds_values(data):
    """The paper's four bounds against our means over draws: ``(all |z| ≤ Z_AGREEMENT, detail)``."""
    paper = paper_table1()
    z = {}
    for column in (1, 2):
        for method, name in (("mmp_bound", "(11)"), ("perceptron_bound", "(9)")):
            ours = _column(data, column, method, "risk")
            if len(ours) < 2:
                return None
            value = float(paper[(paper["column"].astype(str) == str(column)) & (paper["method"] == method)
                                & (paper["quantity"] == "risk")]["value"].iloc[0])
            z[f"{name} column {column}"] = (value - float(ours.mean())) / float(ours.std(ddof=1))
    ok = all(abs(v) <= Z_AGREEMENT for v in z.values())
    return ok, render(TEMPLATES["z_values"], items=[f"{k} z = {v:+.2f}".replace("-", "−") for k, v in z.items()],
                      limit=Z_AGREEMENT).data


def _bayes_rates(data):
    """The paper's Bayes error rates against the exact Bayes error, in binomial sd of the paper's set sizes."""
    exact = float(bayes_error(Fraction(1, 10)))
    paper = paper_table1()
    z = {}
    for quantity, n in (("train_error", 500), ("test_error", 5000)):
        value = float(paper[(paper["method"] == "bayes") & (paper["quantity"] == quantity)]["value"].iloc[0]) / 100
        z[quantity.replace("_", " ")] = (value - exact) / np.sqrt(exact * (1 - exact) / n)
    ok = all(abs(v) <= Z_AGREEMENT for v in z.values())
    return ok, render(TEMPLATES["bayes_rates"], exact=exact, items=[f"{k} z = {v:+.2f}".replace("-", "−")
                                                                    for k, v in z.items()], limit=Z_AGREEMENT).data


def _bounds_below_risks(data):
    draws = data["draws"]
    keys = ["draw", "degree"]
    bounds = draws[draws["method"].isin(["mmp_bound", "perceptron_bound"])].groupby(keys)["risk"].max()
    fitted = draws[draws["method"].isin(_RISK_METHODS)][[*keys, "risk"]]
    j48, with_j48 = data.get("j48"), ""
    if j48 is not None:  # J48's trees are polynomials of degree ≤ d for d ≥ _J48_DEGREE only
        high = sorted(d for d in draws["degree"].unique() if d >= J48_DEGREE)
        if high:
            fitted = pd.concat([fitted] + [j48[["draw", "risk"]].assign(degree=d) for d in high], ignore_index=True)
            with_j48 = f" (and Weka's J48 at d = {', '.join(str(d) for d in high)})"
    risks = fitted.groupby(keys)["risk"].min()
    risks, bounds = risks.align(bounds, join="inner")
    ok = bool(np.all(bounds <= risks * (1 + BOUND_CHECK_RTOL)))
    return ok, (f"on {len(risks)} (draw, degree) pairs, the larger bound is at most the smallest risk of "
                f"{len(_RISK_METHODS)} methods{with_j48}; least ratio risk / bound {float((risks / bounds).min()):.3f}")


def _order_invariant(data):
    orders = data["orders"]
    if orders is None:
        return None
    fixed = orders[orders["method"].isin(["kernel_svm", "mask_perceptron"])]
    spread = fixed.groupby(["degree", "method"])["test_error"].agg(["nunique", "count"])
    ok = bool((spread["nunique"] == 1).all())
    return ok, f"one test error per method over {int(spread['count'].min())} row orders of draw 0" if ok else \
        f"test errors vary over the row orders: {spread['nunique'].to_dict()}"


_SHORT = {"mask_perceptron": "mask", "kernel_perceptron": "perceptron", "best_tree": "tree"}


def claims_measures() -> dict:
    """``{measure key: callable(data)}`` for every measure the registry (``paper03.toml``) names.

    ``data`` is one variant's :func:`claims_data`.

    Returns
    -------
    dict
    """
    measures = {}
    for c in (1, 2):
        for other, short in _SHORT.items():
            measures[f"svm_vs_{short}_{c}"] = partial(_paired_difference, column=c, a="kernel_svm", b=other,
                                                      quantity="test_error")
        measures[f"perceptron_near_bound_{c}"] = partial(_paired, column=c, a="kernel_perceptron", b="mmp_bound",
                                                         quantity="risk")
        measures[f"mask_near_bound_{c}"] = partial(_paired, column=c, a="mask_perceptron", b="mmp_bound",
                                                   quantity="risk")
        measures[f"trees_far_{c}"] = partial(_paired, column=c, a="best_tree", b="mmp_bound", quantity="risk")
        measures[f"unpruned_{c}"] = partial(_unpruned_ratio, column=c)
    measures["svm_vs_j48_2"] = partial(_paired_j48_difference, column=2, b="kernel_svm", quantity="test_error",
                                       reverse=True)
    measures["j48_far_2"] = partial(_paired_j48, column=2, b="mmp_bound", quantity="risk")
    measures["svm_over_bayes_2"] = partial(_paired, column=2, a="kernel_svm", b="bayes", quantity="test_error")
    measures["bounds_values"] = _bounds_values
    measures["bayes_rates"] = _bayes_rates
    measures["bounds_below_risks"] = _bounds_below_risks
    measures["orders_invariant"] = _order_invariant
    return measures


def claims_family():
    """The registry's claims (``companion/experiments/registry/paper03.toml``) as a claims family.

    The paper's statements, quoted: the kernel, the representation of trees and DNFs, Theorems
    3-5 and the span of trees (unit tests of the suite), and Table 1's discussion, tested over
    draws per column (the SVM's test error against each other method's, the perceptrons' risks
    near bound (11), trees far above it, un-pruned trees only slightly worse, the SVM's test error
    "only 7 %" above the Bayes rule's), with the paper's numbers against our draws. A sanity
    check of our code on the data (the bounds below every fitted risk) and an observation (the
    row-order invariance of the λ-MMP and the mask perceptron).

    Returns
    -------
    list of companion.claims.Claim
    """
    import companion.claims as C

    return C.family(C.load_registry("03"), claims_measures())


#: Seed variants of every claim: the notebook's seed plus 1 .. 8 (other draws, in other row orders).
#: Eight, not four: a draw of 20 costs seconds here, and column 2's un-pruned-tree ratio sits near
#: the Holm threshold, so four seeds left a reader's seed likely to meet a flip they did not show.
N_SEED_VARIANTS = 8
#: The degrees a seed variant runs: column 1 (d = 3) and column 2 (d = 7).
VARIANT_DEGREES = (3, 7)


def seed_variants(seed: int, n_variants: int = N_SEED_VARIANTS) -> list[int]:
    """The protocol seeds of the seed variants: ``seed + 1 .. seed + n_variants``.

    Parameters
    ----------
    seed : int
    n_variants : int, default=N_SEED_VARIANTS

    Returns
    -------
    list of int
    """
    return [int(seed) + k for k in range(1, int(n_variants) + 1)]


def seed_variant(config: Config, seed: int, *, n_jobs: int = 1) -> dict:
    """One seed variant's data, as :func:`claims_data`.

    :func:`run` on the draws of ``seed`` (degrees :data:`VARIANT_DEGREES`), the un-pruned trees
    and Weka's J48 on them (when it was run).

    Parameters
    ----------
    config : Config
        The main protocol's configuration (sizes, draws); its seed is replaced.
    seed : int
        The variant's protocol seed (:func:`seed_variants`).
    n_jobs : int, default=1
        Workers; the result does not depend on it.

    Returns
    -------
    dict
        :func:`claims_data`'s dict, plus ``status`` (:func:`j48_results_if_run`'s text).
    """
    from dataclasses import replace

    other = replace(config, seed=seed, degrees=tuple(d for d in VARIANT_DEGREES if d in config.degrees))
    results = run(other, n_jobs=n_jobs)
    j48, status = j48_results_if_run(other)
    trees = unpruned_trees(other.n_draws, seed, degrees=other.degrees, n_train=other.n_train, n_test=other.n_test,
                           lam=other.lam)
    return {**claims_data(results, {1: 3, 2: 7}, None, j48, trees), "status": status}


def claims_report(results, *, orders=None, conditioned=None, column1_degree=3, other_degree=2, column2_degree=7,
                  j48=None, unpruned=None, seeds=None):
    """Evaluate :func:`claims_family` on the main draws and its protocol variants.

    Variants: ``main`` (column 1 at d = ``column1_degree``, column 2 at d = ``column2_degree``),
    ``column1=d<other_degree>`` (which d is column 1 is undecided), ``draws=conditioned`` when
    ``conditioned`` (the :func:`run_conditioned_protocol` table) is given (the draws
    rejection-sampled to the paper's Bayes training error; no J48, no un-pruned trees there), and
    the seed variants ``seeds`` (``{"seed=<s>": seed_variant(...)}``).

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame.
    orders : pandas.DataFrame, optional
        :func:`row_order_spread`'s table.
    conditioned : pandas.DataFrame, optional
        :func:`run_conditioned_protocol`'s tidy frame.
    column1_degree, other_degree, column2_degree : int, default=3, 2, 7
        The degrees of the variants.
    j48 : pandas.DataFrame, optional
        :func:`j48_results` on the draws of ``results``.
    unpruned : pandas.DataFrame, optional
        :func:`unpruned_trees` on the draws of ``results``.
    seeds : dict, optional
        ``{variant name: seed_variant(...)}``.

    Returns
    -------
    companion.claims.ClaimsReport
    """
    import companion.claims as C

    variants = {
        "main": claims_data(results, {1: column1_degree, 2: column2_degree}, orders, j48, unpruned),
        f"column1=d{other_degree}": claims_data(results, {1: other_degree, 2: column2_degree}, orders, j48, unpruned),
    }
    if conditioned is not None:
        variants["draws=conditioned"] = claims_data(conditioned, {1: column1_degree, 2: column2_degree}, None)
    variants.update(seeds or {})
    return C.evaluate(claims_family(), variants)
