"""Notebook 03's claims as a :mod:`companion.claims` family (``registry/paper03.toml``), with their
seed variants.
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial

import numpy as np
import pandas as pd

from companion.experiments._seed_runs import SeedRuns, run_key
from companion.led import bayes_error
from companion.prose import render
from companion.experiments.paper03._templates import TEMPLATES
from companion.experiments.paper03._protocol import (
    J48_SETTINGS, Config, FitMemo, j48_results, j48_results_if_run, paper_table1, run, run_with_memo,
)
from companion.experiments.paper03._tables import J48_DEGREE, draws_table, j48_rows
from companion.experiments.paper03._studies import unpruned_trees
from companion.experiments.paper03._math_checks import CHECKS as _MATH_CHECKS

#: The ``math_<id>`` measures of the registry (:mod:`._math_checks`).
MATH_MEASURES = tuple(_MATH_CHECKS)


# --------------------------------------------------------------------------------------------
# The paper's claims, judged by companion.claims
# --------------------------------------------------------------------------------------------

#: "Reasonably close" to bound (11) read as a risk at most this many times the bound, and "far
#: above" as at least this many times (section 5 and Table 1; the paper's own ratios are 1.20–1.35
#: for the perceptrons and 2.0–2.5 for the trees). Read from the paper's wording; written when the
#: notebook had already shown our numbers (the registry's ``fixed`` and ``results_known``).
BOUND_RATIO_MARGIN = 1.5
#: Relative slack of the exact check "every risk lies above both bounds" (float risks and bounds).
BOUND_CHECK_RTOL = 1e-9
_RISK_METHODS = ("decision_tree", "best_tree", "kernel_svm", "kernel_perceptron", "mask_perceptron")


#: The degree of each column of Table 1 the verdicts take. Column 1's header was lost, and the
#: notebook's section 4 leaves it undetermined between d = 2 and d = 3; the main variant takes
#: d = 3, the first registry's choice (732e004), on which the rows of the paper's own methods (its
#: bounds and kernel machines, no stand-in) lean: the rows that had counted for d = 2 are weak
#: evidence (no spread, a stand-in tree, means within an sd), and the conditioned draws are no
#: evidence for a degree. d = 2 is the variant ``column1=d2`` of every column-1 row, on every design.
#: Column 2 is any d ≥ 7.
COLUMN_DEGREES = {1: 3, 2: 7}
#: Column 1's other candidate degree (the variants ``column1=d2[,...]``).
OTHER_COLUMN1_DEGREE = 2


#: How a point with ``f(x) = 0`` counts: ``"error"`` (the paper's ``err(f) = #{y f(x) ≤ 0}``, the main
#: variant), ``"half"`` (half an error, the expected error of a coin toss; the variant ``ties=half``),
#: ``"negative"`` / ``"positive"`` (sign(0) sends the point to the digits 0-4 / 5-9, as an
#: implementation's ``predict`` does; the variants ``ties=negative`` and ``ties=positive``).
TIE_RULES = ("error", "half", "negative", "positive")


def claims_data(results, column_degrees=None, orders=None, j48=None, unpruned=None, *, ties="error",
                n_test=None, math=None, unpruned_draws="changed", rival="per-draw", tree="best_tree") -> dict:
    """What :func:`claims_family`'s measures read: the per-draw table, the degree of each column, row orders.

    ``column_degrees`` maps Table 1's columns to maximal degrees (default :data:`COLUMN_DEGREES`);
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
    ties : {"error", "half", "negative", "positive"}, default="error"
        :data:`TIE_RULES`: with ``"half"`` every tied test point (``test_ties``) of the kernel SVM,
        the kernel perceptron and the mask perceptron counts half an error; with ``"negative"``
        (``"positive"``) it is an error only when its label is 5-9 (0-4): ``test_ties_high``.
    n_test : int, optional
        The test sets' size (needed with any rule but ``"error"``).
    math : dict, optional
        :func:`companion.experiments.paper03._math_checks.math_checks`'s results (``None``: the
        mathematical statements are not evaluated).
    unpruned_draws : {"changed", "all", "risk"}, default="changed"
        The draws the un-pruned rows judge: those where pruning changed the tree (fewer leaves,
        the design), every draw (the first design, the variant ``unpruned=all``), or those where
        pruning changed the risk (the second design, a filter on the outcome, the variant
        ``unpruned=risk-changed``).
    rival : {"per-draw", "lowest-mean", "one-tree"}, default="per-draw"
        The SVM's strongest rival in ``svm-closest-*``: the rival with the smallest test error of
        each draw (the design), the one rival with the smallest mean test error over the draws,
        fixed across draws (the variant ``rival=lowest-mean``: no minimum of noisy errors per draw),
        or the smallest of the paper's rivals, with one tree (the variant ``rival=one-tree``: J48
        for the paper's C4.5 where it was run, without the best tree).
    tree : {"best_tree", "decision_tree"}, default="best_tree"
        The stand-in for the paper's C4.5 in the tree rows (``svm-vs-tree-*``, ``trees-far-*``,
        ``trees-informative-*``): the best tree of depth ≤ d, or pruned CART (the variant
        ``tree=pruned-cart``).

    Returns
    -------
    dict
        ``draws`` (:func:`draws_table`), ``degrees``, ``orders``, ``j48``, ``unpruned``, ``math``,
        ``unpruned_draws``.
    """
    degrees = dict(COLUMN_DEGREES) if column_degrees is None else dict(column_degrees)
    if set(degrees) != {1, 2}:
        raise ValueError(f"column_degrees must map columns 1 and 2 to degrees, got {column_degrees!r}")
    if ties not in TIE_RULES:
        raise ValueError(f"ties must be one of {TIE_RULES}, got {ties!r}")
    draws = draws_table(results)
    if ties != "error":
        if n_test is None:
            raise ValueError(f"claims_data: ties={ties!r} needs n_test")
        tied, high = draws["test_ties"].fillna(0.0), draws["test_ties_high"].fillna(0.0)
        # every tie is counted as an error in test_error; a rule takes back the ties it gets right
        right = {"half": 0.5 * tied, "negative": tied - high, "positive": high}[ties]
        draws = draws.assign(test_error=draws["test_error"] - 100.0 * right / n_test)
    if unpruned_draws not in ("changed", "all", "risk"):
        raise ValueError(f"unpruned_draws must be 'changed', 'all' or 'risk', got {unpruned_draws!r}")
    if rival not in ("per-draw", "lowest-mean", "one-tree"):
        raise ValueError(f"rival must be 'per-draw', 'lowest-mean' or 'one-tree', got {rival!r}")
    if tree not in ("best_tree", "decision_tree"):
        raise ValueError(f"tree must be 'best_tree' or 'decision_tree', got {tree!r}")
    return {"draws": draws, "degrees": degrees, "orders": orders,
            "j48": None if j48 is None else j48_rows(j48), "unpruned": unpruned, "math": math,
            "unpruned_draws": unpruned_draws, "rival": rival, "tree": tree}


def _j48_applies(data, column, quantity="test_error") -> bool:
    """Whether J48 is compared in ``column``: column 2 (its 17-leaf trees), when it was run; a risk
    against a bound only where column 2's degree is at least :data:`J48_DEGREE` (J48's trees have
    depth ≤ 7, polynomials of degree ≤ 7: a bound of a lower degree does not bound them)."""
    if data.get("j48") is None or column != 2:
        return False
    return quantity != "risk" or data["degrees"][column] >= J48_DEGREE


def _paired_j48(data, column, b, quantity):
    """J48's ``quantity`` and method ``b``'s at column ``column``'s degree, paired by draw
    (``None`` when J48 was not run on these draws or the column's degree is below :data:`J48_DEGREE`)."""
    j48 = data.get("j48")
    if not _j48_applies(data, column, quantity):
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


def draws_by_column(draws: pd.DataFrame) -> dict:
    """The per-draw table's rows grouped once by ``(degree, method)``, each indexed by draw in draw order.

    What :func:`claims_report` attaches to every variant (``by_column``) so that a measure reading
    one method's column takes its rows without filtering the whole table again; the values are
    those the filter gives.

    Parameters
    ----------
    draws : pandas.DataFrame
        :func:`draws_table`'s layout.

    Returns
    -------
    dict
        ``{(degree, method): frame}``.
    """
    return {(int(degree), method): rows.set_index("draw").sort_index()
            for (degree, method), rows in draws.groupby(["degree", "method"], sort=False)}


def _column(data, column, method, quantity) -> pd.Series:
    degree = data["degrees"][column]
    grouped = data.get("by_column")
    if grouped is not None and (degree, method) in grouped:
        return grouped[(degree, method)][quantity]
    draws = data["draws"]
    rows = draws[(draws["degree"] == degree) & (draws["method"] == method)]
    return rows.set_index("draw")[quantity].sort_index()


def _paired(data, column, a, b, quantity):
    left, right = _column(data, column, a, quantity), _column(data, column, b, quantity)
    left, right = left.align(right, join="inner")
    if len(left) == 0:
        return None  # the column's degree was not run in this variant
    return left.to_numpy(), right.to_numpy()


def _tree_paired(data, *, column, b, quantity, reverse=False):
    """The stand-in tree for C4.5 (``data["tree"]``: the best tree, or pruned CART in the variant
    ``tree=pruned-cart``) against method ``b``: ``(tree, b)`` pairs, or with ``reverse`` the
    difference ``b − tree``."""
    pair = _paired(data, column, data.get("tree", "best_tree"), b, quantity)
    if pair is None or not reverse:
        return pair
    return pair[1] - pair[0]


def _paired_difference(data, *, column, a, b, quantity):
    pair = _paired(data, column, a, b, quantity)
    return None if pair is None else pair[0] - pair[1]


def _unpruned_wide(data, column, value="risk"):
    trees = data.get("unpruned")
    if trees is None:
        return None
    rows = trees[trees["degree"] == data["degrees"][column]]
    if rows.empty:
        return None
    return rows.pivot(index="draw", columns="tree", values=value).sort_index()


def _unpruned_ratio(data, *, column):
    """Risk of the un-pruned CART tree and of the pruned one at the column's degree, paired by draw,
    on the draws where pruning changed the tree (:func:`pruning_changed`: fewer leaves).

    Pruning minimises leaves + errors over the subtrees, so the un-pruned risk is never below the
    pruned one; where pruning removes nothing the two trees are one tree, and such a draw says
    nothing of "slightly worse". ``None`` when no draw is left.
    """
    wide = _unpruned_wide(data, column)
    if wide is None:
        return None
    if data.get("unpruned_draws") == "all":
        changed = wide
    elif data.get("unpruned_draws") == "risk":  # the design of 2026-12-06, a filter on the outcome
        changed = wide[wide["unpruned"] != wide["pruned"]]
    else:
        leaves = _unpruned_wide(data, column, "leaves")
        changed = wide[(leaves["unpruned"] != leaves["pruned"]).reindex(wide.index, fill_value=False)]
    if changed.empty:
        return None
    return changed["unpruned"].to_numpy(dtype=float), changed["pruned"].to_numpy(dtype=float)


#: The rivals of the SVM in Table 1 (test error), as the per-draw table names them.
RIVALS = ("mask_perceptron", "kernel_perceptron", "best_tree")


def _svm_vs_best_rival(data, *, column):
    """The SVM's test error minus the smallest rival test error of the same draw (points).

    The rivals are the mask perceptron, the kernel perceptron, the best tree of depth ≤ d and, where
    it was run (column 2), Weka's J48: "closest to the Bayesian classifier" says the SVM's error is
    below every one of them, so the strongest rival of each draw decides. The minimum of four noisy
    errors is an order statistic, biased low (against the SVM); with ``data["rival"] ==
    "lowest-mean"`` the one rival with the smallest mean error over the draws is taken instead, and
    with ``data["rival"] == "one-tree"`` the rivals are the paper's (one tree: C4.5, run as J48,
    where it was run; the best tree of depth ≤ d where it was not), so that a second tree does not
    deepen the order statistic.
    """
    svm = _column(data, column, "kernel_svm", "test_error")
    if len(svm) == 0:
        return None
    rivals = {m: _column(data, column, m, "test_error") for m in RIVALS}
    if _j48_applies(data, column):
        rivals["j48_tree"] = data["j48"].set_index("draw")["test_error"].sort_index()
        if data.get("rival") == "one-tree":  # the paper's rivals: one tree, its C4.5
            del rivals["best_tree"]
    wide = pd.concat(rivals, axis=1, join="inner")
    if data.get("rival") == "lowest-mean":  # one rival for every draw: no per-draw minimum of noisy errors
        best = wide[wide.mean().idxmin()]
    else:
        best = wide.min(axis=1)
    svm, best = svm.align(best, join="inner")
    return (svm - best).to_numpy()


def strongest_rivals(data, column) -> pd.Series:
    """How often each rival has the smallest test error of its draw (ties counted for each).

    Parameters
    ----------
    data : dict
        :func:`claims_data`'s dict.
    column : int
        Table 1's column.

    Returns
    -------
    pandas.Series
        Draws per rival, largest first.
    """
    rivals = {m: _column(data, column, m, "test_error") for m in RIVALS}
    if _j48_applies(data, column):
        rivals["j48_tree"] = data["j48"].set_index("draw")["test_error"].sort_index()
    wide = pd.concat(rivals, axis=1, join="inner")
    return wide.eq(wide.min(axis=1), axis=0).sum().sort_values(ascending=False)


def _about_7pct(data):
    """The SVM's test error over the Bayes rule's, minus 1.07, in points of % (column 2), per draw."""
    pair = _paired(data, 2, "kernel_svm", "bayes", "test_error")
    if pair is None:
        return None
    return 100.0 * (pair[0] / pair[1] - 1.0) - 7.0


def _mmp_on_bound(data):
    """Every draw: the λ-MMP's risk over bound (11) at most ``(1 − ε)⁻²`` (Eq. 12, ε = 10⁻³)."""
    draws = data["draws"]
    wide = draws[draws["method"].isin(["kernel_svm", "mmp_bound"])].pivot_table(
        index=["draw", "degree"], columns="method", values="risk")
    ratio = wide["kernel_svm"] / wide["mmp_bound"]
    limit = (1 - 1e-3) ** -2
    ok = bool(((ratio >= 1 - BOUND_CHECK_RTOL) & (ratio <= limit * (1 + BOUND_CHECK_RTOL))).all())
    return ok, (f"R(λ-MMP) / bound (11) − 1 on {len(ratio)} (draw, degree) pairs: {float(ratio.min() - 1):.1e} to "
                f"{float(ratio.max() - 1):.1e}, against [0, (1 − ε)⁻² − 1 = {limit - 1:.1e}]")


def _math(measure, data):
    math = data.get("math")
    return None if math is None else math[measure]


#: How many draw-to-draw standard deviations a single-draw number of the paper may lie from our
#: mean and still count as reproduced (the z of the Table 1 comparison).
Z_AGREEMENT = 2.0


def _paper_value(method, column, quantity="risk", paper=None):
    """Table 1's published ``quantity`` of ``method`` in ``column`` (``paper``: :func:`paper_table1`, read
    here when not given)."""
    paper = paper_table1() if paper is None else paper
    return float(paper[(paper["column"].astype(str) == str(column)) & (paper["method"] == method)
                       & (paper["quantity"] == quantity)]["value"].iloc[0])


def _z(gap, sd):
    return gap / sd if sd > 0 else (0.0 if gap == 0 else float(np.copysign(np.inf, gap)))


#: The stricter agreement threshold judged beside :data:`Z_AGREEMENT` where several z are read at
#: once: the two-sided 5 % normal quantile corrected for four comparisons (Bonferroni),
#: ``Φ⁻¹(1 − 0.05 / 8)`` = 2.50.
Z_FOUR = 2.4977


def _bounds_values(data):
    """The paper's four bounds against our means over draws: ``(all |z| ≤ Z_AGREEMENT, detail)``.

    An observation, not a verdict: the four values alone have little power (the draw-to-draw sd of
    a bound is about 4 risk units, so |z| ≤ 2 accepts a band some 16 units wide, which the detail
    gives), so the detail calls an agreement "consistent (a weak test)"; :func:`_bounds_ratios` is
    the sharper comparison.
    """
    z, ranges = {}, []
    for column in (1, 2):
        for method, name in (("mmp_bound", "(11)"), ("perceptron_bound", "(9)")):
            ours = _column(data, column, method, "risk")
            if len(ours) < 2:
                return None
            sd = float(ours.std(ddof=1))
            paper = _paper_value(method, column, paper=data.get("paper"))
            z[f"{name} column {column}"] = _z(float(ours.mean()) - paper, sd)  # ours − paper
            ranges.append(f"{name} column {column} {ours.mean() - Z_AGREEMENT * sd:.1f}–{ours.mean() + Z_AGREEMENT * sd:.1f}")
    ok = all(abs(v) <= Z_AGREEMENT for v in z.values())
    return ok, render(TEMPLATES["z_values"], word="consistent (a weak test)" if ok else "not consistent",
                      items=[f"{k} z = {v:+.2f}".replace("-", "−") for k, v in z.items()],
                      limit=Z_AGREEMENT, ranges=ranges).data


def _ratio_z(data):
    """``{name: (our mean, our sd, paper, z)}`` of the four within-draw bound ratios, or None."""
    ratios, paper = {}, data.get("paper")
    for method, name in (("mmp_bound", "(11)"), ("perceptron_bound", "(9)")):
        a, b = _column(data, 1, method, "risk").align(_column(data, 2, method, "risk"), join="inner")
        ratios[f"{name} column 1 / column 2"] = (a / b, _paper_value(method, 1, paper=paper)
                                                 / _paper_value(method, 2, paper=paper))
    for column in (1, 2):
        a, b = _column(data, column, "perceptron_bound", "risk").align(_column(data, column, "mmp_bound", "risk"),
                                                                         join="inner")
        ratios[f"(9) / (11) column {column}"] = (a / b, _paper_value("perceptron_bound", column, paper=paper)
                                                 / _paper_value("mmp_bound", column, paper=paper))
    if any(len(ours) < 2 for ours, _ in ratios.values()):
        return None
    return {name: (float(ours.mean()), float(ours.std(ddof=1)), paper,
                   _z(float(ours.mean()) - paper, float(ours.std(ddof=1)))) for name, (ours, paper) in ratios.items()}


def _bounds_ratios(data):
    """The paper's within-draw bound ratios against ours: column 1 / column 2 of each bound, and
    bound (9) / bound (11) in each column, ``(all |z| ≤ Z_AGREEMENT, detail)``.

    A ratio of two bounds of one draw cancels most of the draw-to-draw variation (its sd is a few
    hundredths). The ratios are our construction from the paper's four values, not a sentence of
    the paper, so the row is an observation; the detail reads them at both thresholds
    (:data:`Z_AGREEMENT`, and :data:`Z_FOUR` for four z read at once) and at both candidate degrees
    of column 1 (:data:`COLUMN_DEGREES`, :data:`OTHER_COLUMN1_DEGREE`), and says
    "undetermined" when these four readings disagree.
    """
    main = _ratio_z(data)
    if main is None:
        return None
    degrees = dict(data["degrees"])
    other_degree = OTHER_COLUMN1_DEGREE if degrees[1] != OTHER_COLUMN1_DEGREE else COLUMN_DEGREES[1]
    other = None
    if other_degree in set(data["draws"]["degree"]):
        other = _ratio_z({**data, "degrees": {**degrees, 1: other_degree}})
    readings = []
    for degree, values in ((degrees[1], main), (other_degree, other)):
        if values is None:
            continue
        for limit in (Z_AGREEMENT, Z_FOUR):
            outside = [name for name, (*_, z) in values.items() if abs(z) > limit]
            readings.append((degree, limit, outside))
    agree = {not outside for *_, outside in readings}
    word = ("within the limits" if agree == {True} else "outside the limits" if agree == {False}
            else "undetermined: the outcome depends on the degree of column 1 and the threshold")
    return agree == {True}, render(
        TEMPLATES["z_ratios"], degree=degrees[1], limit=Z_AGREEMENT, strict=Z_FOUR,
        items=[f"{k}: ours {m:.3f} ± {sd:.3f}, paper {p:.3f}, z = {z:+.2f}".replace("-", "−")
               for k, (m, sd, p, z) in main.items()],
        readings=[f"column 1 at d = {d}, |z| ≤ {limit:.2f}: " + (f"outside on {', '.join(outside)}" if outside
                                                                else "all four within")
                  for d, limit, outside in readings], word=word).data


def _paper_tree_risks(data):
    """The paper's tree risks against leaves + errors at λ = 4 from its own leaves and training errors.

    A check of our reconstruction (``c ≡ 1``, λ = 4: risk = leaves + errors, Eq. 8) on the paper's
    own Table 1: column 1 is 4 + 21.3 % of 500 = 110.5 (paper 110), column 2 is 17 + 12.0 % of 500
    = 77 (paper 80). Agreement: within the rounding of the printed training error (± 0.05 % of
    500, 0.25 errors) and of the printed risk (± 0.5).
    """
    items, ok = [], True
    for column in (1, 2):
        # the check reads the paper alone: ``data`` may be None
        leaves, error, risk = (_paper_value("decision_tree", column, q, paper=(data or {}).get("paper"))
                               for q in ("size", "train_error", "risk"))
        errors = error / 100 * 500
        implied = leaves + errors
        close = abs(implied - risk) <= 0.5 + 0.25
        ok &= close
        item = (f"column {column}: {leaves:.0f} leaves + {error:g} % of 500 = {implied:g} against the paper's "
                f"{risk:g} ({'consistent within rounding' if close else 'inconsistent'})")
        if abs(errors - round(errors)) > 1e-9:  # a rate of 500 examples is a multiple of 0.2 %
            whole = [k for k in (int(np.floor(errors)), int(np.ceil(errors))) if leaves + k == risk]
            item += (f", but {error:g} % of 500 is {errors:g} errors, not a whole count: the printed rate cannot be "
                     f"an error count on 500 examples"
                     + "".join(f" ({k} errors, {100 * k / 500:g} %, give exactly {risk:g})" for k in whole))
        items.append(item)
    return bool(ok), "; ".join(items)


def _bounds_reference(data):
    """The conclusion's aim ("points of reference" for trees): where trees lie against bound (11), per column."""
    items = []
    for column in (1, 2):
        pair = _paired(data, column, "best_tree", "mmp_bound", "risk")
        cart = _paired(data, column, "decision_tree", "mmp_bound", "risk")
        if pair is None or cart is None:
            return None
        items.append(f"column {column}: best tree ×{np.median(pair[0] / pair[1]):.2f}, pruned CART "
                     f"×{np.median(cart[0] / cart[1]):.2f} bound (11) (median over draws; paper's C4.5 "
                     f"×{_paper_value('decision_tree', column, paper=data.get('paper')) / _paper_value('mmp_bound', column, paper=data.get('paper')):.2f})")
    j48 = _paired_j48(data, 2, "mmp_bound", "risk")
    if j48 is not None:
        items.append(f"J48 (column 2) ×{np.median(j48[0] / j48[1]):.2f}")
    return True, "; ".join(items)


def _boosting_limit(data):
    """The paper's boosting sentence, an aim it defers: nothing of ours boosts trees."""
    return True, ("not run: we do not boost trees; the span it rests on is checked (trees-span), the limit "
                  "the paper itself leaves to be investigated")


def _bayes_rates(data):
    """The paper's Bayes error rates against the exact Bayes error, in binomial sd of the paper's set sizes.

    ``z = (exact − paper) / sd``, signed as Table 1's ``z`` (ours − paper), whose Bayes rows use the
    same binomial sd (:func:`table1_comparison`) with our mean over draws in place of the exact error.
    """
    exact = float(bayes_error(Fraction(1, 10)))
    paper = (data or {}).get("paper")
    paper = paper_table1() if paper is None else paper
    z = {}
    for quantity, n in (("train_error", 500), ("test_error", 5000)):
        value = float(paper[(paper["method"] == "bayes") & (paper["quantity"] == quantity)]["value"].iloc[0]) / 100
        # ours (the exact error) minus the paper's, as Table 1's z (difference = ours − paper)
        z[quantity.replace("_", " ")] = (exact - value) / np.sqrt(exact * (1 - exact) / n)
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
        measures[f"svm_vs_tree_{c}"] = partial(_tree_paired, column=c, b="kernel_svm", quantity="test_error",
                                               reverse=True)
        measures[f"perceptron_near_bound_{c}"] = partial(_paired, column=c, a="kernel_perceptron", b="mmp_bound",
                                                         quantity="risk")
        measures[f"mask_near_bound_{c}"] = partial(_paired, column=c, a="mask_perceptron", b="mmp_bound",
                                                   quantity="risk")
        measures[f"trees_far_{c}"] = partial(_tree_paired, column=c, b="mmp_bound", quantity="risk")
        measures[f"svm_near_bound9_{c}"] = partial(_paired, column=c, a="kernel_svm", b="perceptron_bound",
                                                   quantity="risk")
        measures[f"perceptron_near_bound9_{c}"] = partial(_paired, column=c, a="kernel_perceptron",
                                                          b="perceptron_bound", quantity="risk")
        measures[f"unpruned_{c}"] = partial(_unpruned_ratio, column=c)
        measures[f"svm_vs_best_rival_{c}"] = partial(_svm_vs_best_rival, column=c)
    measures["svm_vs_j48_2"] = partial(_paired_j48_difference, column=2, b="kernel_svm", quantity="test_error",
                                       reverse=True)
    measures["j48_far_2"] = partial(_paired_j48, column=2, b="mmp_bound", quantity="risk")
    measures["svm_over_bayes_2"] = partial(_paired, column=2, a="kernel_svm", b="bayes", quantity="test_error")
    measures["bounds_values"] = _bounds_values
    measures["bounds_ratios"] = _bounds_ratios
    measures["bayes_rates"] = _bayes_rates
    measures["bounds_below_risks"] = _bounds_below_risks
    measures["orders_invariant"] = _order_invariant
    measures["svm_about_7pct_2"] = _about_7pct
    measures["mmp_on_bound"] = _mmp_on_bound
    measures["paper_tree_risks"] = _paper_tree_risks
    measures["bounds_reference"] = _bounds_reference
    measures["boosting_limit"] = _boosting_limit
    for measure in MATH_MEASURES:
        measures[measure] = partial(_math, measure)
    return measures


def claims_family():
    """The registry's claims (``companion/experiments/registry/paper03.toml``) as a claims family.

    The paper's statements, quoted: the kernel, the representation of trees and DNFs, Theorems
    3-5 and the span of trees (mathematical statements, whose verdicts are the runs of
    :func:`companion.experiments.paper03._math_checks.math_checks`), and Table 1's discussion,
    tested over draws per column (the SVM's test error against the strongest rival of each draw
    and against each other method's, the perceptrons' risks near bound (11), trees far above it,
    un-pruned trees only slightly worse where pruning changed them, the SVM's test error "only
    7 %" and "about 7 %" above the Bayes rule's). Checks: the paper's published numbers against
    our draws, our encoding of the complemented inputs. A sanity check of our code on the data
    (the bounds below every fitted risk) and an observation (the row-order invariance of the
    λ-MMP and the mask perceptron).

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
#: The degrees a seed variant runs: column 1 (d = 2, and d = 3 for its degree variant) and column 2 (d = 7).
VARIANT_DEGREES = (2, 3, 7)


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


def seed_run_config(seed: int, config: Config | None = None) -> Config:
    """The protocol of the seed variant at ``seed``: ``config`` (default the notebook's full
    :class:`Config`) with that seed and the degrees of :data:`VARIANT_DEGREES` it runs.

    Parameters
    ----------
    seed : int
        The variant's protocol seed.
    config : Config, optional
        The main protocol (default ``Config()``, the notebook's defaults).

    Returns
    -------
    Config
    """
    from dataclasses import replace

    config = Config() if config is None else config
    return replace(config, seed=int(seed), degrees=tuple(d for d in VARIANT_DEGREES if d in config.degrees))


def seed_run_key(config: Config) -> str:
    """The key of a seed variant's run in the committed runs (``data/seed_runs/03``).

    The run reads no file: its draws come from ``SeedSequence(config.seed)``, so the key holds
    everything it depends on, ``config`` (seed, draws, sizes, noise, degrees, λ, ε and the
    learners' choices); a run made for other settings is never read.

    Parameters
    ----------
    config : Config
        :func:`seed_run_config`'s protocol.

    Returns
    -------
    str
    """
    return run_key("paper03.seed_variant", config)


def seed_run_keys(seeds, config: Config | None = None) -> dict:
    """``{seed: seed_run_key(seed_run_config(seed, config))}``.

    Parameters
    ----------
    seeds : iterable of int
    config : Config, optional
        The main protocol (default ``Config()``).

    Returns
    -------
    dict
    """
    return {int(seed): seed_run_key(seed_run_config(seed, config)) for seed in seeds}


#: The columns of :func:`unpruned_trees`' frame, in its order (the rows ``part == "unpruned"`` of a
#: committed run); those not in :func:`run`'s frame are left empty in its rows, and the reverse.
UNPRUNED_COLUMNS = ("draw", "degree", "tree", "leaves", "risk", "train_error", "test_error")


def seed_run_frame(results: pd.DataFrame, unpruned: pd.DataFrame) -> pd.DataFrame:
    """One committed frame of a seed variant's run: :func:`run`'s rows (``part`` ``"protocol"``) above
    :func:`unpruned_trees`' rows (``"unpruned"``); integer columns as ``Int64`` (empty in the other
    part's rows). :func:`split_seed_run` gives both frames back exactly.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.
    unpruned : pandas.DataFrame
        :func:`unpruned_trees`' frame on the same draws.

    Returns
    -------
    pandas.DataFrame
    """
    if tuple(unpruned.columns) != UNPRUNED_COLUMNS:
        raise ValueError(f"seed_run_frame: unpruned columns {list(unpruned.columns)} are not {list(UNPRUNED_COLUMNS)}")
    parts = []
    for part, frame in (("protocol", results), ("unpruned", unpruned)):
        frame = frame.astype({c: "Int64" for c, dtype in frame.dtypes.items() if str(dtype) == "int64"})
        parts.append(frame.assign(part=part))
    stacked = pd.concat(parts, ignore_index=True)
    return stacked[["part", *[c for c in stacked.columns if c != "part"]]]


def split_seed_run(frame: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`run`'s frame and :func:`unpruned_trees`' frame from :func:`seed_run_frame`'s.

    Parameters
    ----------
    frame : pandas.DataFrame
        A committed frame (:func:`seed_run_frame`).

    Returns
    -------
    results, unpruned : pandas.DataFrame
    """
    only = set(UNPRUNED_COLUMNS) - {"degree", "risk", "train_error", "test_error"}
    layouts = {"protocol": [c for c in frame.columns if c != "part" and c not in only],
               "unpruned": list(UNPRUNED_COLUMNS)}
    out = []
    for part, columns in layouts.items():
        rows = frame.loc[frame["part"] == part, columns].reset_index(drop=True)
        # an integer column is whole in its own part's rows: back to int64, as computed
        out.append(rows.astype({c: "int64" for c, dtype in rows.dtypes.items() if str(dtype) == "Int64"}))
    return out[0], out[1]


def seed_run(seed: int, n_jobs=1):
    """One committed run (what ``python -m companion.sweep --runs --only 03`` runs per seed): the seed
    variant at ``seed`` of the notebook's full protocol (:func:`seed_run_config`), what
    :func:`seed_variant` computes: :func:`run` at :data:`VARIANT_DEGREES` and :func:`unpruned_trees`.

    Weka's J48 is not part of it: it is read from ``data/led_peers`` when the variant is judged.

    Parameters
    ----------
    seed : int
        The variant's protocol seed.
    n_jobs : int, default=1

    Returns
    -------
    frame : pandas.DataFrame
        :func:`seed_run_frame`.
    key : str
        :func:`seed_run_key`.
    config : str
        The protocol in words.
    """
    config = seed_run_config(seed)
    results = run_with_memo(config, n_jobs, None)
    trees = unpruned_trees(config.n_draws, config.seed, degrees=config.degrees, n_train=config.n_train,
                           n_test=config.n_test, lam=config.lam)
    return seed_run_frame(results, trees), seed_run_key(config), repr(config)


def _variant_data(other: Config, results: pd.DataFrame, trees: pd.DataFrame) -> dict:
    """A seed variant's :func:`claims_data`, with Weka's J48 on its draws where it was run."""
    j48, status = j48_results_if_run(other)
    return {**claims_data(results, COLUMN_DEGREES, None, j48, trees), "status": status, "results": results}


def seed_variant(config: Config, seed: int, *, n_jobs: int = 1, memo: FitMemo | None = None,
                 seed_runs: SeedRuns | None = None) -> dict:
    """One seed variant's data, as :func:`claims_data`.

    :func:`run` on the draws of ``seed`` (degrees :data:`VARIANT_DEGREES`), the un-pruned trees
    and Weka's J48 on them (when it was run). With ``seed_runs``, a run committed for the same
    settings (:func:`seed_run_key`) is read instead of computed; the data are the same.

    Parameters
    ----------
    config : Config
        The main protocol's configuration (sizes, draws); its seed is replaced.
    seed : int
        The variant's protocol seed (:func:`seed_variants`).
    n_jobs : int, default=1
        Workers; the result does not depend on it.
    memo : FitMemo, optional
        The fits shared with other runs on these draws (:class:`FitMemo`); the result does not
        depend on it.
    seed_runs : SeedRuns, optional
        The committed runs (:func:`companion.experiments._seed_runs.resolve_seed_runs`); None: computed here.

    Returns
    -------
    dict
        :func:`claims_data`'s dict, plus ``status`` (:func:`j48_results_if_run`'s text) and
        ``results`` (the tidy frame, for the variant at column 1's other degree).
    """
    other = seed_run_config(seed, config)
    frame = None if seed_runs is None else seed_runs.read(other.seed, seed_run_key(other))
    if frame is None:
        results = run_with_memo(other, n_jobs, memo)
        trees = unpruned_trees(other.n_draws, other.seed, degrees=other.degrees, n_train=other.n_train,
                               n_test=other.n_test, lam=other.lam)
    else:
        results, trees = split_seed_run(frame)
    return _variant_data(other, results, trees)


def committed_seed_variants(config: Config, seeds, seed_runs: SeedRuns | None) -> tuple[dict, list[int]]:
    """The seed variants at ``seeds`` whose runs are committed for ``config``'s settings, read (nothing is
    computed here), and the seeds with no committed run.

    Parameters
    ----------
    config : Config
        The main protocol.
    seeds : iterable of int
        The variants' protocol seeds.
    seed_runs : SeedRuns or None
        The committed runs (None: none is read; every seed is missing).

    Returns
    -------
    variants : dict
        ``{"seed=<s>": seed_variant-like dict}``.
    missing : list of int
    """
    variants, missing = {}, []
    for seed in seeds:
        other = seed_run_config(seed, config)
        frame = None if seed_runs is None else seed_runs.read(other.seed, seed_run_key(other))
        if frame is None:
            missing.append(int(seed))
        else:
            variants[f"seed={int(seed)}"] = _variant_data(other, *split_seed_run(frame))
    return variants, missing


#: The reconstructed choices varied on the main draws (column 1 at d = 3, column 2 at d = 7): variant
#: name -> the :class:`Config` fields it changes. λ (the loss weight, reconstructed from "leaves +
#: errors"), ε of the λ-MMP's stopping rule (10), the mask perceptron's search breadth (our
#: surrogate's heuristic: 1 adds the candidate with the largest risk gradient, no shortlist
#: refitted) and the λ-perceptron's output scale (ours: t/‖w̃ᵗ‖²; the variant: the scale that
#: minimises its risk).
RECONSTRUCTION_VARIANTS = {
    "lambda=2": {"lam": 2.0},
    "lambda=8": {"lam": 8.0},
    "epsilon=1e-2": {"tol": 1e-2},
    "mask=gradient": {"mask_candidates": 1},
    "scale=min-risk": {"perceptron_scale": "min-risk"},
}


def reconstruction_variant(config: Config, changes: dict, *, j48=None, unpruned=None, n_jobs: int = 1,
                           memo: FitMemo | None = None) -> dict:
    """One reconstructed choice varied on the main draws, as :func:`claims_data` (:data:`COLUMN_DEGREES`).

    Parameters
    ----------
    config : Config
        The main protocol.
    changes : dict
        :class:`Config` fields to change (a value of :data:`RECONSTRUCTION_VARIANTS`).
    j48, unpruned : pandas.DataFrame, optional
        The main draws' J48 and un-pruned trees, kept when λ is unchanged (they do not depend on
        ε, the mask perceptron or the perceptron's scale); with another λ both are recomputed
        (their risk is leaves + (4/λ) errors).
    n_jobs : int, default=1
    memo : FitMemo, optional
        The fits shared with other runs on these draws: with the main run's fits in it
        (:meth:`FitMemo.remember_run`), a choice refits only the learners it changes (ε the
        λ-MMP, the breadth the mask perceptron, the scale the λ-perceptron). The result does
        not depend on it.

    Returns
    -------
    dict
    """
    from dataclasses import replace

    other = replace(config, degrees=tuple(d for d in sorted(set(COLUMN_DEGREES.values())) if d in config.degrees),
                    **changes)
    results = run_with_memo(other, n_jobs, memo)
    if other.lam != config.lam:
        j48, _ = j48_results_if_run(other)
        unpruned = unpruned_trees(other.n_draws, other.seed, degrees=other.degrees, n_train=other.n_train,
                                  n_test=other.n_test, lam=other.lam)
    return claims_data(results, COLUMN_DEGREES, None, j48, unpruned)


#: Column 2's other candidate degrees (the variants ``column2=d5``, ``column2=d6``): a 17-leaf tree
#: needs depth ≥ 5, and every d ≥ 7 gives one kernel on the complemented inputs.
OTHER_COLUMN2_DEGREES = (5, 6)


def column2_variant(config: Config, degree: int, *, j48=None, n_jobs: int = 1, memo: FitMemo | None = None) -> dict:
    """Column 2 at another degree on the main draws, as :func:`claims_data` (column 1 at its main degree).

    Parameters
    ----------
    config : Config
        The main protocol.
    degree : int
        Column 2's degree (:data:`OTHER_COLUMN2_DEGREES`).
    j48 : pandas.DataFrame, optional
        The main draws' J48 (it has no depth parameter): compared on test error; its risk is
        compared with the bounds only at d ≥ 7 (:func:`_j48_applies`).
    n_jobs : int, default=1
    memo : FitMemo, optional
        The fits shared with other runs on these draws: with the main run's fits in it, column
        1's degree is not refitted. The result does not depend on it.

    Returns
    -------
    dict
    """
    from dataclasses import replace

    other = replace(config, degrees=(COLUMN_DEGREES[1], int(degree)))  # column 1 too: the bound rows read both
    results = run_with_memo(other, n_jobs, memo)
    unpruned = unpruned_trees(other.n_draws, other.seed, degrees=(int(degree),), n_train=other.n_train,
                              n_test=other.n_test, lam=other.lam)
    return claims_data(results, {1: COLUMN_DEGREES[1], 2: int(degree)}, None, j48, unpruned)


def j48_settings_if_run(config: Config) -> dict:
    """J48's other settings on the main draws (:data:`J48_SETTINGS`), as ``{variant name: frame}``.

    The paper names C4.5 but none of its settings; Weka's defaults ``-C 0.25 -M 2`` are the main
    variant's, and the pruning confidence ``-C``, the minimum leaf size ``-M`` and the un-pruned
    tree ``-U`` were run beside them on the seeds 2001 and 11 (``peers/led_peers.py``).

    Parameters
    ----------
    config : Config
        The main protocol.

    Returns
    -------
    dict
        ``{variant name: j48_results(config, options)}``; empty when J48 was not run at these
        settings on ``config``'s draws (another seed, ``fast``).
    """
    try:
        frames = j48_results(config, list(J48_SETTINGS.values()))
    except ValueError:
        return {}
    return {name: frames[options] for name, options in J48_SETTINGS.items()}


def j48_unpruned_trees(unpruned, j48, j48_unpruned) -> pd.DataFrame:
    """The un-pruned rows' trees with J48 for CART at depth :data:`J48_DEGREE` (the variant ``unpruned=j48``).

    J48 (Weka's C4.5) un-pruned (``-U``) against J48 pruned at its defaults, per draw, in
    :func:`unpruned_trees`' layout; the CART rows of other depths are kept (J48 has no depth limit:
    it stands only beside the depth-7 trees of column 2).

    Parameters
    ----------
    unpruned : pandas.DataFrame
        :func:`unpruned_trees` on the main draws.
    j48, j48_unpruned : pandas.DataFrame
        :func:`j48_results` at Weka's defaults and at ``-U -M 2``, on the same draws.

    Returns
    -------
    pandas.DataFrame
    """
    keep = unpruned[unpruned["degree"] != J48_DEGREE]
    trees = [keep]
    for name, frame in (("pruned", j48), ("unpruned", j48_unpruned)):
        trees.append(pd.DataFrame({"draw": frame["seed"].to_numpy(), "degree": J48_DEGREE, "tree": name,
                                   "leaves": frame["leaves"].to_numpy(), "risk": frame["risk"].to_numpy(),
                                   "train_error": frame["train_error"].to_numpy(),
                                   "test_error": frame["test_error"].to_numpy()}))
    return pd.concat(trees, ignore_index=True)


def pooled_data(datasets) -> dict:
    """The main draws and every seed variant's, pooled: one :func:`claims_data` on all their draws.

    The seed variants are independent replicates of the main design (other draws of the same
    distribution), so pooled they are one test on ``9 × n_draws`` draws (the variant
    ``draws=pooled``), the replication the seeds' separate verdicts spread over nine tests.

    Parameters
    ----------
    datasets : list of dict
        :func:`claims_data` dicts (the main one first), column 1 at the same degree.

    Returns
    -------
    dict
    """
    offset = 0
    draws, j48, unpruned = [], [], []
    for data in datasets:
        width = int(data["draws"]["draw"].max()) + 1
        draws.append(data["draws"].assign(draw=data["draws"]["draw"] + offset))
        if data.get("j48") is not None:
            j48.append(data["j48"].assign(draw=data["j48"]["draw"] + offset))
        if data.get("unpruned") is not None:
            unpruned.append(data["unpruned"].assign(draw=data["unpruned"]["draw"] + offset))
        offset += width
    first = datasets[0]
    return {"draws": pd.concat(draws, ignore_index=True), "degrees": dict(first["degrees"]), "orders": None,
            "j48": pd.concat(j48, ignore_index=True) if j48 else None,
            "unpruned": pd.concat(unpruned, ignore_index=True) if unpruned else None, "math": first.get("math"),
            "unpruned_draws": first.get("unpruned_draws", "changed"), "rival": first.get("rival", "per-draw"),
            "tree": first.get("tree", "best_tree")}


def single_draw_table(data, report) -> pd.DataFrame:
    """The paper's single-draw protocol first, then our tests over draws, per tested row of Table 1.

    The paper ran one draw and read each number as it fell. For each ``difference`` and
    ``ratio`` row: which draw is read (``draw``: draw 0, or for the un-pruned rows the first of the
    draws where pruning changed the tree), its value there, whether that one draw, read exactly as
    the paper read its own, reproduces the sentence (on the claim's side of its margin; a ratio of
    exactly 1 is ``identical``, which reproduces neither "worse" nor "better"), the share of the
    draws on which a single run would have reproduced it (with its 95 % Clopper–Pearson interval;
    a draw at a ratio of exactly 1 is identical, so it is not counted as reproducing, and the
    identical draws are counted beside),
    the verdict of the test over the main draws and that of the honest check (``draws=pooled``).

    Parameters
    ----------
    data : dict
        The main variant's :func:`claims_data`.
    report : companion.claims.ClaimsReport
        :func:`claims_report`'s report on the same data.

    Returns
    -------
    pandas.DataFrame
        Indexed by the claim's id.
    """
    import companion.claims as C
    from scipy.stats import binomtest

    measures = claims_measures()
    verdicts = report.table.set_index("id")["verdict"]
    sens = report.sensitivity
    pooled = sens[sens["variant"] == "draws=pooled"].set_index("id")["verdict"]
    n_draws = int(data["draws"]["draw"].nunique())
    rows = []
    for entry in C.load_registry("03").entries:
        if entry["kind"] not in ("difference", "ratio") or entry["origin"] != "paper":
            continue
        values = measures[entry["measure"]](data)
        if values is None:
            continue
        v = np.asarray(values[0], float) / np.asarray(values[1], float) if entry["kind"] == "ratio" \
            else np.asarray(values, float)
        margin, direction = float(entry["margin"]), entry["direction"]
        side = {"<": v < margin, "<=": v <= margin, ">": v > margin, ">=": v >= margin,
                "within": np.abs(v) <= margin}[direction]
        # a ratio of exactly 1 is identical: it reproduces neither "worse" nor "better", so it is not
        # counted among the draws reproducing the row (its count is printed beside)
        same = v == 1.0 if entry["kind"] == "ratio" else np.zeros(len(v), bool)
        k, n, n_same = int((side & ~same).sum()), len(v), int(same.sum())
        interval = binomtest(k, n).proportion_ci(0.95, method="exact")
        low, high = interval.low, interval.high
        unit = "×" if entry["kind"] == "ratio" else ""
        criterion = f"{unit}{margin:g}" if direction != "within" else f"±{margin:g}"
        identical = entry["kind"] == "ratio" and v[0] == 1.0
        rows.append({"id": entry["id"], "criterion": f"{direction} {criterion}",
                     "draw": "draw 0" if n == n_draws else f"first of {n} measured",
                     "first draw": f"{unit}{v[0]:.3f}" if unit else f"{v[0]:+.2f}",
                     "first draw reproduces": "identical" if identical else "yes" if side[0] else "no",
                     "single draws reproducing": f"{k} of {n}" + (f" ({n_same} identical)" if n_same else ""),
                     "share 95 % CI": f"[{low:.2f}, {high:.2f}]",
                     "verdict over draws": verdicts.get(entry["id"], ""),
                     "verdict pooled": pooled.get(entry["id"], "n/a")})
    return pd.DataFrame(rows).set_index("id")


def claims_report(results, *, orders=None, conditioned=None, column1_degree=COLUMN_DEGREES[1],
                  other_degree=OTHER_COLUMN1_DEGREE, column2_degree=COLUMN_DEGREES[2],
                  j48=None, unpruned=None, seeds=None, math=None, n_test=None, reconstructions=None, column2=None,
                  j48_settings=None, other_seeds=None):
    """Evaluate :func:`claims_family` on the main draws and its protocol variants.

    Variants: ``main`` (column 1 at d = ``column1_degree``, column 2 at d = ``column2_degree``,
    ties counted as errors), ``column1=d<other_degree>`` (which d is column 1 is undecided: the
    headers were lost), ``unpruned=all`` (the un-pruned rows on every draw, identical trees
    included: the earlier design), ``ties=half``, ``ties=negative``, ``ties=positive`` (a tied
    test point, ``f(x) = 0``, counts half an error, or goes to one class; need ``n_test``),
    ``draws=conditioned`` when ``conditioned`` (the :func:`run_conditioned_protocol` table) is
    given (the draws rejection-sampled to the paper's Bayes training error; no J48, no un-pruned
    trees there), the seed variants ``seeds`` (``{"seed=<s>": seed_variant(...)}``) and their
    pool with the main draws (``draws=pooled``), the reconstructed choices ``reconstructions``
    (``{name: reconstruction_variant(...)}``, :data:`RECONSTRUCTION_VARIANTS`), and column 1's
    other degree on the conditioned and on every seed's draws
    (``column1=d<other_degree>,draws=conditioned``, ``column1=d<other_degree>,seed=<s>``): the
    degree is a variant of every column-1 row under every design. J48's other settings
    ``j48_settings`` (:func:`j48_settings_if_run`): ``j48=C0.1``, ``j48=C0.5``, ``j48=M1``,
    ``j48=M5`` put J48 at that setting in the J48 rows, and ``unpruned=j48`` judges the un-pruned
    rows of column 2 on J48 un-pruned (``-U``) against J48 pruned (:func:`j48_unpruned_trees`).

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame.
    orders : pandas.DataFrame, optional
        :func:`row_order_spread`'s table.
    conditioned : pandas.DataFrame, optional
        :func:`run_conditioned_protocol`'s tidy frame.
    column1_degree, other_degree, column2_degree : int, default=2, 3, 7
        The degrees of the variants (:data:`COLUMN_DEGREES`, :data:`OTHER_COLUMN1_DEGREE`).
    j48 : pandas.DataFrame, optional
        :func:`j48_results` on the draws of ``results``.
    unpruned : pandas.DataFrame, optional
        :func:`unpruned_trees` on the draws of ``results``.
    seeds : dict, optional
        ``{variant name: seed_variant(...)}``.
    math : dict, optional
        :func:`companion.experiments.paper03._math_checks.math_checks`'s results, computed once
        (the same for every variant).
    n_test : int, optional
        The test sets' size (for the tie variants; without it, they are not run).
    reconstructions : dict, optional
        ``{variant name: reconstruction_variant(...)}``.
    column2 : dict, optional
        ``{"column2=d<k>": column2_variant(...)}`` (:data:`OTHER_COLUMN2_DEGREES`).
    j48_settings : dict, optional
        :func:`j48_settings_if_run` on the main draws (needs ``j48`` and ``unpruned`` for
        ``unpruned=j48``).
    other_seeds : dict, optional
        More seed variants, ``{"seed=<s>": data}`` (:func:`committed_seed_variants`: the committed
        runs of the other seeds): each is a variant ``seed=<s>`` of every claim, as ``seeds``'
        are, but neither pooled into ``draws=pooled`` nor judged at column 1's other degree (the
        honest check and the column-1 table keep the :data:`N_SEED_VARIANTS` seed sets).

    Returns
    -------
    companion.claims.ClaimsReport
    """
    import companion.claims as C

    main = {1: column1_degree, 2: column2_degree}
    other = {1: other_degree, 2: column2_degree}
    variants = {
        "main": claims_data(results, main, orders, j48, unpruned, math=math),
        f"column1=d{other_degree}": claims_data(results, other, orders, j48, unpruned, math=math),
    }
    variants["unpruned=all"] = claims_data(results, main, orders, j48, unpruned, math=math, unpruned_draws="all")
    variants["unpruned=risk-changed"] = claims_data(results, main, orders, j48, unpruned, math=math,
                                                    unpruned_draws="risk")
    variants["rival=lowest-mean"] = claims_data(results, main, orders, j48, unpruned, math=math, rival="lowest-mean")
    variants["rival=one-tree"] = claims_data(results, main, orders, j48, unpruned, math=math, rival="one-tree")
    variants["tree=pruned-cart"] = claims_data(results, main, orders, j48, unpruned, math=math, tree="decision_tree")
    if n_test is not None:
        for rule in TIE_RULES[1:]:
            variants[f"ties={rule}"] = claims_data(results, main, orders, j48, unpruned, ties=rule, n_test=n_test,
                                                   math=math)
    for name, frame in (j48_settings or {}).items():
        if name == "unpruned=j48":
            if j48 is not None and unpruned is not None:
                variants[name] = claims_data(results, main, orders, j48, j48_unpruned_trees(unpruned, j48, frame),
                                             math=math)
        else:
            variants[name] = claims_data(results, main, orders, frame, unpruned, math=math)
    if conditioned is not None:
        variants["draws=conditioned"] = claims_data(conditioned, main, None, math=math)
    # the honest check of the Table 1 rows: every draw there is, pooled (the main draws alone without seeds)
    variants["draws=pooled"] = pooled_data([variants["main"], *(
        {**data, "degrees": main} for data in (seeds or {}).values())])
    for name, data in {**(seeds or {}), **(other_seeds or {})}.items():
        variants[name] = {**data, "math": math}
    for name, data in (reconstructions or {}).items():
        variants[name] = {**data, "math": math}
    for name, data in (column2 or {}).items():
        variants[name] = {**data, "math": math}
    if conditioned is not None and other_degree in set(conditioned["degree"]):
        variants[f"column1=d{other_degree},draws=conditioned"] = claims_data(conditioned, other, None, math=math)
    for name, data in (seeds or {}).items():
        if "results" in data and other_degree in set(data["results"]["degree"]):
            variants[f"column1=d{other_degree},{name}"] = {**data, "degrees": other, "math": math}
    # what every variant's measures read, made once here for them all (the values are those each
    # measure would read itself): the paper's Table 1, and each per-draw table grouped by column
    paper, grouped = paper_table1(), {}
    for data in variants.values():
        grouped.setdefault(id(data["draws"]), (data["draws"], draws_by_column(data["draws"])))
    variants = {name: {**data, "paper": paper, "by_column": grouped[id(data["draws"])][1]}
                for name, data in variants.items()}
    return C.evaluate(claims_family(), variants)


def _registry_entries():
    import companion.claims as C

    return C.load_registry("03").entries


def _verdict_counts(verdicts) -> str:
    """``"8 holds, 1 undecided"``: verdicts counted, most frequent first."""
    counts = pd.Series(list(verdicts), dtype=object).value_counts()
    return ", ".join(f"{int(k)} {word}" for word, k in counts.items())


def column1_table(report) -> pd.DataFrame:
    """Every column-1 row at both candidate degrees: the verdict on the main draws and over the seed sets.

    Column 1's degree is undetermined between d = 2 and d = 3 (the headers were lost). For each
    row that lists the variant ``column1``: its verdict at the main degree (:data:`COLUMN_DEGREES`)
    and at the other (:data:`OTHER_COLUMN1_DEGREE`) on the main draws, and
    the verdicts over the main draws and the seed variants' draws judged at both degrees (the
    :data:`N_SEED_VARIANTS` seed variants: nine seed sets) at each.
    ``same verdict`` is ``yes`` only when both the main verdict and the seed sets' verdicts (counted
    word by word) agree at the two degrees; ``main verdict same; seed sets differ`` when only the
    main verdict does; ``no`` when the main verdict changes.

    Parameters
    ----------
    report : companion.claims.ClaimsReport
        :func:`claims_report`'s report.

    Returns
    -------
    pandas.DataFrame
        Indexed by the claim's id.
    """
    sens = report.sensitivity
    main = report.main
    other = f"column1=d{OTHER_COLUMN1_DEGREE}"
    rows = []
    for entry in _registry_entries():
        if "column1" not in entry.get("variants", []):
            continue
        mine = sens[sens["id"] == entry["id"]].set_index("variant")["verdict"]
        # the seed sets judged at both degrees (the committed seeds beyond them are at the main degree only)
        both = [v.split(",", 1)[1] for v in mine.index if v.startswith(f"{other},seed=")]
        at_main = [mine[v] for v in [main, *both]]
        at_other = [mine[v] for v in mine.index if v == other or v.startswith(f"{other},seed=")]
        same_main = mine[main] == mine.get(other, "n/a")
        same_sets = sorted(at_main) == sorted(at_other)
        rows.append({"id": entry["id"], f"d = {COLUMN_DEGREES[1]}": mine[main],
                     f"d = {COLUMN_DEGREES[1]}, seed sets": _verdict_counts(at_main),
                     f"d = {OTHER_COLUMN1_DEGREE}": mine.get(other, "n/a"),
                     f"d = {OTHER_COLUMN1_DEGREE}, seed sets": _verdict_counts(at_other),
                     "same verdict": ("yes" if same_sets else "main verdict same; seed sets differ") if same_main
                     else "no"})
    return pd.DataFrame(rows).set_index("id")


#: Rows that are parts of a sentence's test, not its verdict (``{id: why}``). "SVM solutions have
#: error rates closest to the Bayesian classifier" is a superlative: its verdict is the composite
#: ``svm-closest-*`` (below every rival), and a pairwise row (below one rival) is a component. The
#: reading "trees far above the bound" of "meaningful" is passed by any bound far enough below the
#: trees (a bound of 0 passes it), so it is shown but is no evidence for the bound: the reading
#: "informative" (``trees-informative-*``, ``j48-informative-2``) decides.
COMPONENTS = {
    **{f"svm-vs-{rival}-{c}": "a part of the superlative 'closest' (svm-closest-*)"
       for rival in ("mask", "perceptron", "tree") for c in (1, 2)},
    "svm-vs-j48-2": "a part of the superlative 'closest' (svm-closest-2)",
    **{row: "the reading 'far above', which any bound far enough below the trees passes"
       for row in ("trees-far-1", "trees-far-2", "j48-far-2")},
}


#: Rows that judge one side of a sentence other than the one its words name (``{id: label}``), the
#: label printed beside the row in the table *By sentence*. The SVM (λ-MMP) sits on bound (11) by
#: construction (``mmp-on-bound``), so its rows against bound (9) measure a ratio of two bounds.
ROW_LABELS = {f"svm-near-bound9-{c}": "the SVM half: a ratio of two bounds, bound (11) / bound (9)" for c in (1, 2)}

#: Paper sentences judged by no row of their own (``{id: why}``): the row quoting the sentence is a
#: conformance check of our code, and the sentence itself is counted as ``not checked``.
UNCHECKED = {"theorem6": "a conformance check of our code for the selection step of Theorem 6's algorithm; the "
                         "subset size s and the polynomial running time are not run"}


def sentence_verdict(verdicts) -> str:
    """One verdict for a sentence from those of the rows that decide it: their common word, else
    ``"mixed (…)"`` with the counts (a sentence whose columns or readings disagree does not hold)."""
    verdicts = [v for v in verdicts if v not in ("", "n/a")]
    if not verdicts:
        return "n/a"
    if len(set(verdicts)) == 1:
        return verdicts[0]
    return f"mixed ({_verdict_counts(verdicts)})"


def sentence_table(report, single=None) -> pd.DataFrame:
    """The paper's judged sentences, one row each, with one verdict per sentence.

    One sentence of the paper can give several rows (both columns of Table 1, two readings, each
    rival); this counts the paper's sentences, not the rows. The rows are those with a verdict word
    (origin ``paper``: empirical results and mathematical statements). A sentence's verdict comes
    from the rows that decide it, not from its :data:`COMPONENTS` (the pairwise parts of a
    superlative, the reading any bound passes) nor from a row that holds by construction where the
    sentence has other rows, by :func:`sentence_verdict`; a sentence judged only by construction
    counts as such, not as ``holds``. With ``single`` (:func:`single_draw_table`), a
    Table 1 sentence is judged under the paper's protocol (one draw: ``yes`` read as holds, ``no``
    as fails), over the main draws and over the pooled draws (the honest check).

    Parameters
    ----------
    report : companion.claims.ClaimsReport
    single : pandas.DataFrame, optional
        :func:`single_draw_table`.

    Returns
    -------
    pandas.DataFrame
        One row per quoted sentence, in the registry's order: ``sentence``, ``kind`` (empirical or
        mathematical), ``rows`` (those that decide it, with the side of the sentence a row judges
        where it is not the one the words name, :data:`ROW_LABELS`), ``components``, ``one draw``
        (the paper's protocol; the check itself for a mathematical statement), ``over draws``,
        ``pooled``, ``only by construction``, ``mathematical rows`` (the sentence's rows of that
        category, whatever its kind: how the count by kind's rows become sentences), ``robustness``
        (the sentence's own verdict over the main draws re-decided under every variant,
        :meth:`companion.claims.ClaimsReport.sentence_robustness`, by
        :func:`describe_sentence_robustness`). A sentence of :data:`UNCHECKED` (the conclusion's
        Theorem 6) is a mathematical statement ``not checked``, its row a component.
    """
    table = report.table
    decided = {}
    paper = table[((table["origin"] == "paper") & table["category"].isin(["empirical", "mathematical"]))
                  | table["id"].isin(list(UNCHECKED))]
    rows = []
    for quote, group in paper.groupby("quote", sort=False):
        maths = ", ".join(group["id"][group["category"] == "mathematical"])
        if group["id"].isin(list(UNCHECKED)).all():  # the paper's sentence is judged by no row of its own
            rows.append({"sentence": quote if len(quote) <= 90 else quote[:87] + "…", "kind": "mathematical",
                         "rows": "", "components": ", ".join(f"{i} ({UNCHECKED[i]})" for i in group["id"]),
                         "one draw": "not checked", "over draws": "not checked", "pooled": "not checked",
                         "only by construction": False, "mathematical rows": ""})
            continue
        built = group["by_construction"].map(lambda v: v in (True, "True", "true", 1)).to_numpy()
        words = pd.Series([f"{v} by construction" if b else v
                           for v, b in zip(group["verdict"].replace({"n/a": "not evaluated"}), built)],
                          index=group["id"].to_numpy())
        # a row that holds by construction is no evidence for an empirical sentence that has tested rows
        deciding = [i for i, b in zip(group["id"], built) if i not in COMPONENTS and not b] \
            or [i for i in group["id"] if i not in COMPONENTS]
        tested = [] if single is None else [i for i in deciding if i in single.index]
        read = {"yes": "holds", "no": "fails", "identical": "identical"}
        one = [read[single.loc[i, "first draw reproduces"]] if i in tested else words[i] for i in deciding]
        pooled = [single.loc[i, "verdict pooled"] if i in tested else words[i] for i in deciding]
        decided[len(rows)] = deciding
        rows.append({"sentence": quote if len(quote) <= 90 else quote[:87] + "…",
                     "kind": group["category"].iloc[0],
                     "rows": ", ".join(f"{i} ({ROW_LABELS[i]})" if i in ROW_LABELS else i for i in deciding),
                     "components": ", ".join(i for i in group["id"] if i not in deciding),
                     "one draw": sentence_verdict(one), "over draws": sentence_verdict(words[deciding]),
                     "pooled": sentence_verdict(pooled), "only by construction": bool(built.all()),
                     "mathematical rows": maths})
    frame = pd.DataFrame(rows)
    frame["robustness"] = ""
    if decided and hasattr(report, "sentence_robustness"):
        robust = report.sentence_robustness({str(k): ids for k, ids in decided.items()},
                                            lambda words: sentence_verdict(list(words.values())).split(" (")[0])
        for k in decided:
            frame.loc[k, "robustness"] = describe_sentence_robustness(robust.loc[str(k)])
    return frame


def _is_replicate(variant: str) -> bool:
    """A seed variant (other draws of the same design) or the pool of them: replication, not a choice."""
    return variant == "draws=pooled" or any(part.startswith("seed=") for part in variant.split(","))


def describe_sentence_robustness(row) -> str:
    """A sentence's robustness over the main draws, from :meth:`ClaimsReport.sentence_robustness`'s row:
    ``robust (n variants)``, else the choices that change its verdict (at most three named) and,
    apart, how many seed sets do (replication, not a choice; the pool is the honest check column).

    Parameters
    ----------
    row : pandas.Series
        ``verdict``, ``robust``, ``flips`` (``"variant (word); …"``), ``variants``.

    Returns
    -------
    str
    """
    if bool(row["robust"]):
        return f"robust ({int(row['variants'])} variants)" if int(row["variants"]) else "no variant run"
    flips = [part for part in str(row["flips"]).split("; ") if part]
    choices = [f for f in flips if not _is_replicate(f.rsplit(" (", 1)[0])]
    seeds = [f for f in flips if _is_replicate(f.rsplit(" (", 1)[0]) and not f.startswith("draws=pooled")]
    parts = []
    if choices:
        named = ", ".join(choices[:3]) + (f" and {len(choices) - 3} more" if len(choices) > 3 else "")
        parts.append(f"not robust to {named}")
    if seeds:
        parts.append(f"changed on {len(seeds)} seed set{'s' if len(seeds) > 1 else ''}")
    return "; ".join(parts) if parts else "robust to every choice (only the pooled draws differ)"


def row_readings(report, single, column1) -> dict:
    """``{claim id: {"readings": text}}``: what each row's discussion adds to its sentence
    (``" Beside it: …."``, or ``""`` when there is nothing to add).

    The paper's single-draw protocol (first draw and share of single draws reproducing, from
    :func:`single_draw_table`), both degrees of column 1 (:func:`column1_table`), the tie rules
    where one of them changes the verdict (the rule "a tie is an error" is our reconstruction of
    the lost err(f)), the paper's own learner where a row's trees are a stand-in for it (J48
    un-pruned against J48, ``unpruned=j48``), and the robustness of an exact check.

    Parameters
    ----------
    report : companion.claims.ClaimsReport
    single : pandas.DataFrame
        :func:`single_draw_table`.
    column1 : pandas.DataFrame
        :func:`column1_table`.

    Returns
    -------
    dict
    """
    table = report.table.set_index("id")
    sens = report.sensitivity.set_index(["variant", "id"])
    out = {}
    for id, row in table.iterrows():
        parts = []
        if id in single.index:
            s = single.loc[id]
            share, _, same = s["single draws reproducing"].partition(" (")
            parts.append(f"the paper's protocol, one draw ({s['draw']}): {s['first draw'].replace('-', '−')}, reproduces: "
                         f"{s['first draw reproduces']}; {share} single draws reproduce it"
                         + (f" ({same.rstrip(')')} at a ratio of exactly 1, counted apart)" if same else "")
                         + f"; pooled: {s['verdict pooled']}")
        if id in column1.index:
            c = column1.loc[id]
            a, b = COLUMN_DEGREES[1], OTHER_COLUMN1_DEGREE
            parts.append(f"column 1 at d = {a}: {c[f'd = {a}']} ({c[f'd = {a}, seed sets']} over the seed sets), at "
                         f"d = {b}: {c[f'd = {b}']} ({c[f'd = {b}, seed sets']})")
        ties = [v for v in ("ties=half", "ties=negative", "ties=positive") if (v, id) in sens.index
                and sens.loc[(v, id), "role"] == "varies" and sens.loc[(v, id), "verdict"] != row["verdict"]]
        if ties:
            parts.append(f"{row['verdict']} only when a tied point (f(x) = 0) counts as an error, our reconstruction "
                         f"of the lost err(f); " + ", ".join(f"{v}: {sens.loc[(v, id), 'verdict']}" for v in ties))
        if ("unpruned=j48", id) in sens.index and sens.loc[("unpruned=j48", id), "role"] == "varies":
            j = sens.loc[("unpruned=j48", id)]
            parts.append(render("on the paper's own learner, Weka's J48 un-pruned (-U) against J48 at its defaults "
                                "(`unpruned=j48`), on the {n:.0f} draws where -U changed the tree: {verdict} at "
                                "×{estimate:.3f} (95 % CI [×{low:.3f}, ×{high:.3f}])", n=j["n"], verdict=j["verdict"],
                                estimate=j["estimate"], low=j["ci_low"], high=j["ci_high"]).data)
        if row["kind"] == "exact" and row["category"] not in ("mathematical", "aim", "observation") \
                and isinstance(row["flips"], str) and row["flips"]:
            parts.append(f"not robust: flips under {row['flips'].replace('; ', ', ')}")
        text = "; ".join(parts)
        out[id] = {"readings": f" Beside it: {text}." if text else ""}
    return out
