"""Table 1 of paper 03 (Kowalczyk, Smola & Williamson, NIPS 2001): noisy LED digits 0–4 vs 5–9.

Protocol (paper §5, spec §6): independent draws of 500 training and 5000 test examples; the
7 segment bits are complemented to 14 (Standing Assumption); Boolean kernel (Eq. 5) with
``c_i = 1`` and ``λ = 4`` (inferred, spec §3), for several maximal degrees ``d``. On each draw:

* decision trees — CART grown to depth ``d`` and pruned to minimise #leaves + #errors
  (:class:`companion.led.PrunedDecisionTree`), and the exact best tree of depth ≤ d
  (:func:`companion.led.optimal_boolean_tree`), a stand-in for the paper's C4.5;
* kernel SVM — the λ-MMP (:class:`~companion.perceptrons.MaximalMarginPerceptron`), giving bound (11);
* kernel perceptron — the λ-perceptron (:class:`~companion.perceptrons.KernelPerceptron`), bound (9);
* mask perceptron — :class:`~companion.perceptrons.MaskPerceptron`;
* the Bayes-optimal rule's training and test error.

Results are kept in a long table, one row per (draw, degree, method), with columns ``risk``,
``size`` (leaves / support vectors / terms), ``train_error`` and ``test_error`` (in %).
"""

from __future__ import annotations

from functools import partial
from numbers import Integral

import numpy as np
import pandas as pd

from companion.bounds.boolean_kernel import tree_risk
from companion.evaluation import comparison_table, parallel_map
from companion.kernels import add_complemented_bits, boolean_kernel
from companion.led import PrunedDecisionTree, bayes_predict, make_led_digits, optimal_boolean_tree
from companion.paper_numbers import paper_table
from companion.perceptrons import KernelPerceptron, MaskPerceptron, MaximalMarginPerceptron

__all__ = [
    "METHODS",
    "QUANTITIES",
    "TIE_COLUMNS",
    "tie_summary",
    "run_draw",
    "run_protocol",
    "summarise",
    "table1_comparison",
    "paper_table1",
    "degree_evidence",
    "conditional_on_bayes_train_error",
    "plot_risks_against_bounds",
    "table1_conditional",
    "tree_error_bounds",
    "kernel_identity_checks",
]

#: Row labels of the long results table, in Table 1's order (bounds and Bayes last).
METHODS = (
    "decision_tree",
    "best_tree",
    "kernel_svm",
    "kernel_perceptron",
    "mask_perceptron",
    "mmp_bound",
    "perceptron_bound",
    "bayes",
)
QUANTITIES = ("risk", "size", "train_error", "test_error")
#: Tie counts of the scored methods (points with f(x) = 0, counted as errors).
TIE_COLUMNS = ("train_ties", "test_ties")


def _error_percent(predicted, y) -> float:
    return 100.0 * float(np.mean(np.asarray(predicted) != np.asarray(y)))


def _margin_error(classifier, X, y) -> tuple[float, int]:
    """The paper's ``err(f) = #{y f(x) ≤ 0}`` in %, and the number of ties ``f(x) = 0``.

    A tie is an error whatever the label (Eq. 7's ``err``), not a coin flip: counting it by the
    predicted label would make the error depend on which class the tie rule names. The scores of
    the λ-perceptron are exact integers up to a positive scale, so the ties are exact too.
    """
    values = classifier.decision_function(X)
    signed = np.where(np.asarray(y) == classifier.classes_[1], 1.0, -1.0)
    return 100.0 * float(np.mean(signed * values <= 0)), int(np.count_nonzero(values == 0))


def run_draw(
    seed,
    *,
    degrees=(2, 3, 7),
    n_train=500,
    n_test=5000,
    lam=4.0,
    mask_terms=None,
    tol=1e-3,
    noise=0.1,
) -> pd.DataFrame:
    """Fit every method of Table 1 on one draw of the LED data, for each degree in ``degrees``.

    Parameters
    ----------
    seed : int or numpy Generator
        Seed of this draw (training and test sets both derive from it).
    degrees : tuple of int, default=(2, 3, 7)
        Maximal degrees ``d`` of the kernel, the trees and the mask perceptron.
    n_train, n_test : int
        Sizes (paper: 500 and 5000).
    lam : float, default=4.0
        Regularisation constant λ (a tree's risk is #leaves + (4/λ)#errors).
    mask_terms : dict {degree: int}, default=None
        Terms of the mask perceptron per degree; default 10 for ``d < 5`` and 26 otherwise
        (Table 1's 10 and 26 terms).
    tol : float, default=1e-3
        ``ε`` of the λ-MMP stopping rule (10).
    noise : float, default=0.1

    Returns
    -------
    DataFrame
        Columns ``degree, method, risk, size, train_error, test_error`` (errors in %) and
        ``train_ties, test_ties``: for the kernel SVM, the kernel perceptron and the mask
        perceptron, the number of points with ``f(x) = 0`` exactly (counted as errors, the
        paper's ``err(f) = #{y f(x) ≤ 0}``); NaN for the trees, which output labels.
    """
    for name, value in (("n_train", n_train), ("n_test", n_test)):
        if isinstance(value, bool) or not isinstance(value, Integral) or value < 2:
            raise ValueError(f"{name} must be an integer >= 2, got {value!r}")
    rng = np.random.default_rng(seed)
    X, y = make_led_digits(n_train, noise=noise, random_state=rng)
    X_test, y_test = make_led_digits(n_test, noise=noise, random_state=rng)
    Xc, Xc_test = add_complemented_bits(X), add_complemented_bits(X_test)
    rows = []

    def record(degree, method, risk, size, train_error, test_error, train_ties=np.nan, test_ties=np.nan):
        rows.append(dict(degree=degree, method=method, risk=risk, size=size, train_error=train_error,
                         test_error=test_error, train_ties=train_ties, test_ties=test_ties))

    def record_scored(degree, method, classifier, risk, size, X_train, X_evaluate):
        (train_error, train_ties), (test_error, test_ties) = (
            _margin_error(classifier, X_train, y), _margin_error(classifier, X_evaluate, y_test)
        )
        record(degree, method, risk, size, train_error, test_error, train_ties, test_ties)

    bayes_train, bayes_test = _error_percent(bayes_predict(X, noise), y), _error_percent(bayes_predict(X_test, noise), y_test)
    for degree in degrees:
        record(degree, "bayes", np.nan, np.nan, bayes_train, bayes_test)
        tree = PrunedDecisionTree(max_depth=degree, leaf_cost=lam / 4.0, random_state=0).fit(X, y)
        record(
            degree, "decision_tree", tree_risk(tree.n_leaves_, tree.n_errors_, lam), tree.n_leaves_,
            _error_percent(tree.predict(X), y), _error_percent(tree.predict(X_test), y_test),
        )
        best = optimal_boolean_tree(X, y, degree, leaf_cost=lam / 4.0)
        record(
            degree, "best_tree", tree_risk(best.n_leaves, best.n_errors, lam), best.n_leaves,
            _error_percent(best.predict(X), y), _error_percent(best.predict(X_test), y_test),
        )
        K = boolean_kernel(Xc, degree=degree)
        K_test = boolean_kernel(Xc_test, Xc, degree=degree)
        mmp = MaximalMarginPerceptron("precomputed", lam=lam, tol=tol).fit(K, y)
        record_scored(degree, "kernel_svm", mmp, mmp.risk_, mmp.n_support_, K, K_test)
        record(degree, "mmp_bound", mmp.lower_bound_, np.nan, np.nan, np.nan)
        perceptron = KernelPerceptron("precomputed", lam=lam).fit(K, y)
        record_scored(degree, "kernel_perceptron", perceptron, perceptron.risk_, perceptron.n_support_, K, K_test)
        record(degree, "perceptron_bound", perceptron.lower_bound_, np.nan, np.nan, np.nan)
        terms = (mask_terms or {}).get(degree, 10 if degree < 5 else 26)
        mask = MaskPerceptron(degree=degree, n_terms=terms, lam=lam).fit(X, y)
        record_scored(degree, "mask_perceptron", mask, mask.risk_, mask.n_terms_, X, X_test)
    return pd.DataFrame(rows)


def run_protocol(n_draws, seed, *, n_jobs=1, **kwargs) -> pd.DataFrame:
    """Run :func:`run_draw` on ``n_draws`` independent draws seeded from ``seed``.

    Draw ``k`` uses the ``k``-th child of ``numpy.random.SeedSequence(seed)``, so the draws are
    independent items of :func:`companion.evaluation.parallel_map`: ``n_jobs`` (default 1,
    serial; -1: all local cores; under ``joblib.parallel_backend("dask")``: a Dask cluster) does
    not change the result. Other keyword arguments go to :func:`run_draw`.

    Returns the long table of :func:`run_draw` with an extra column ``draw``.
    """
    if isinstance(n_draws, bool) or not isinstance(n_draws, Integral) or n_draws < 1:
        raise ValueError(f"n_draws must be a positive integer, got {n_draws!r}")
    seeds = np.random.SeedSequence(seed).spawn(n_draws)
    frames = parallel_map(partial(_run_seeded_draw, kwargs), list(enumerate(seeds)), n_jobs=n_jobs)
    return pd.concat(frames, ignore_index=True)


def _run_seeded_draw(kwargs, item):
    """:func:`run_draw` on draw ``k`` seeded by its own ``SeedSequence`` child ``(k, child)``."""
    k, child = item
    return run_draw(np.random.default_rng(child), **kwargs).assign(draw=k)


def summarise(results: pd.DataFrame) -> pd.DataFrame:
    """Mean and standard deviation over draws of every quantity, per degree and method."""
    grouped = results.groupby(["degree", "method"], sort=False)[list(QUANTITIES)]
    summary = grouped.agg(["mean", "std"])
    summary.columns = [f"{q}_{stat}" for q, stat in summary.columns]
    return summary


def tie_summary(results: pd.DataFrame) -> pd.DataFrame:
    """Ties ``f(x) = 0`` of the scored methods: mean per draw and the share of points, per degree.

    On LED digits ties are common for the λ-perceptron: its score is an integer and duplicated
    inputs carry both labels. Every tie counts as an error (the paper's ``err(f)``).
    """
    scored = results.dropna(subset=list(TIE_COLUMNS))
    table = scored.groupby(["degree", "method"], sort=False)[list(TIE_COLUMNS)].agg(["mean", "max"])
    table.columns = [f"{column}_{stat}" for column, stat in table.columns]
    return table


def paper_table1() -> pd.DataFrame:
    """Table 1 of the paper (and the bounds and Bayes errors), from ``paper_numbers/03_table1.csv``."""
    return paper_table("03_table1")


def table1_comparison(results: pd.DataFrame, column: int, degree: int) -> pd.DataFrame:
    """Paper's Table 1 column ``column`` beside our means over draws at maximal degree ``degree``.

    Returns the :func:`companion.evaluation.comparison_table` (columns ``paper``, ``ours``,
    ``difference``) indexed by ``(method, quantity)``, plus our standard deviation ``ours_sd``
    and ``z = difference / ours_sd`` (how many draw-to-draw deviations apart; the paper used one
    draw, so |z| ≲ 2 is agreement).
    """
    paper = paper_table1()
    paper = paper[paper["column"].astype(str).isin([str(column), "both"])]
    paper = paper.set_index(["method", "quantity"])["value"]
    ours = results[results["degree"] == degree]
    long = ours.melt(id_vars=["method"], value_vars=list(QUANTITIES), var_name="quantity").dropna()
    stats = long.groupby(["method", "quantity"])["value"].agg(["mean", "std"])
    table = comparison_table(paper, stats["mean"])
    table["ours_sd"] = stats["std"].reindex(table.index)
    table["z"] = table["difference"] / table["ours_sd"]
    order = {m: k for k, m in enumerate(METHODS)}
    qorder = {q: k for k, q in enumerate(QUANTITIES)}
    keys = sorted(table.index, key=lambda mq: (order.get(mq[0], 99), qorder.get(mq[1], 99)))
    return table.loc[keys]


def _per_draw(results: pd.DataFrame, degree: int, method: str, quantity: str) -> pd.Series:
    rows = results[(results["degree"] == degree) & (results["method"] == method)]
    return rows.set_index("draw")[quantity]


def degree_evidence(results: pd.DataFrame, candidates=(2, 3), reference=7) -> pd.DataFrame:
    """Which degree ``d`` fits Table 1's column 1? Per-draw statistics for each candidate ``d``.

    Compares, with the paper's values, the within-sample ratios of the bounds of column 1 to
    column 2 (``d = reference``), which cancel most of the sample-to-sample variation, and the
    tree sizes and kernel-method numbers of column 1.

    Returns
    -------
    DataFrame
        Index: statistic; columns ``paper`` and ``d=<k> mean`` / ``d=<k> sd`` for each candidate.
    """
    paper = paper_table1().set_index(["column", "method", "quantity"])["value"]

    def p(column, method, quantity):
        return float(paper.loc[(str(column), method, quantity)])

    statistics = {
        "MMP bound (11), col 1 / col 2": (
            p(1, "mmp_bound", "risk") / p(2, "mmp_bound", "risk"),
            lambda d: _per_draw(results, d, "mmp_bound", "risk") / _per_draw(results, reference, "mmp_bound", "risk"),
        ),
        "perceptron bound (9), col 1 / col 2": (
            p(1, "perceptron_bound", "risk") / p(2, "perceptron_bound", "risk"),
            lambda d: _per_draw(results, d, "perceptron_bound", "risk")
            / _per_draw(results, reference, "perceptron_bound", "risk"),
        ),
        "perceptron bound / MMP bound": (
            p(1, "perceptron_bound", "risk") / p(1, "mmp_bound", "risk"),
            lambda d: _per_draw(results, d, "perceptron_bound", "risk") / _per_draw(results, d, "mmp_bound", "risk"),
        ),
        "MMP bound (11)": (p(1, "mmp_bound", "risk"), lambda d: _per_draw(results, d, "mmp_bound", "risk")),
        "leaves, pruned CART tree": (p(1, "decision_tree", "size"), lambda d: _per_draw(results, d, "decision_tree", "size")),
        "leaves, best tree": (p(1, "decision_tree", "size"), lambda d: _per_draw(results, d, "best_tree", "size")),
        "train error % of best tree": (
            p(1, "decision_tree", "train_error"),
            lambda d: _per_draw(results, d, "best_tree", "train_error"),
        ),
        "train error % of kernel SVM": (
            p(1, "kernel_svm", "train_error"),
            lambda d: _per_draw(results, d, "kernel_svm", "train_error"),
        ),
    }
    table = {}
    for name, (paper_value, per_draw) in statistics.items():
        row = {"paper": paper_value}
        for d in candidates:
            values = per_draw(d)
            row[f"d={d} mean"], row[f"d={d} sd"] = float(values.mean()), float(values.std())
        table[name] = row
    return pd.DataFrame(table).T


def conditional_on_bayes_train_error(results: pd.DataFrame, degree: int, target=None) -> pd.DataFrame:
    """Our means adjusted to a training sample as "easy" as the paper's (linear fit over draws).

    The paper's Bayes-optimal rule erred on 11.2 % of its training set, against 13.9 % expected, so
    its training sample was easier than average, which lowers every training risk. For each
    (method, quantity) we regress the per-draw value on the draw's Bayes training error and read
    the fit at ``target`` (default: the paper's 11.2 %).

    Returns
    -------
    DataFrame indexed by (method, quantity) with columns ``slope`` and ``at_target``.
    """
    if target is None:
        paper = paper_table1()
        target = float(paper[(paper["method"] == "bayes") & (paper["quantity"] == "train_error")]["value"].iloc[0])
    bayes = _per_draw(results, degree, "bayes", "train_error")
    rows = {}
    for method in METHODS:
        if method == "bayes":
            continue
        for quantity in QUANTITIES:
            values = _per_draw(results, degree, method, quantity)
            if values.isna().all() or values.size < 3 or np.ptp(bayes.loc[values.index]) == 0:
                continue
            slope, intercept = np.polyfit(bayes.loc[values.index].to_numpy(), values.to_numpy(), 1)
            rows[(method, quantity)] = {"slope": slope, "at_target": intercept + slope * target}
    index = pd.MultiIndex.from_tuples(list(rows), names=["method", "quantity"])
    return pd.DataFrame(list(rows.values()), index=index, columns=["slope", "at_target"])


def plot_risks_against_bounds(results: pd.DataFrame, degrees=(2, 7)):
    """Figure: every method's training risk per draw, against the lower bounds (9) and (11).

    One panel per degree; draws sorted by the MMP bound so the bound is an increasing curve.
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, MaxNLocator, NullFormatter, ScalarFormatter

    styles = {
        "decision_tree": ("pruned CART tree", "s", "tab:brown"),
        "best_tree": ("best tree of depth ≤ d", "D", "tab:gray"),
        "mask_perceptron": ("mask perceptron", "^", "tab:green"),
        "kernel_perceptron": ("kernel perceptron", "v", "tab:orange"),
        "kernel_svm": ("kernel SVM (λ-MMP)", "o", "tab:blue"),
    }
    fig, axes = plt.subplots(1, len(degrees), figsize=(5.5 * len(degrees), 4.2), sharey=True, squeeze=False)
    for ax, degree in zip(axes[0], degrees):
        bound = _per_draw(results, degree, "mmp_bound", "risk").sort_values()
        order = bound.index
        x = np.arange(order.size)
        ax.plot(x, bound.to_numpy(), "k-", lw=1.5, label="lower bound (11), λ-MMP")
        ax.plot(x, _per_draw(results, degree, "perceptron_bound", "risk").loc[order].to_numpy(), "k--", lw=1.2,
                label="lower bound (9), λ-perceptron")
        for method, (label, marker, colour) in styles.items():
            ax.plot(x, _per_draw(results, degree, method, "risk").loc[order].to_numpy(), marker, color=colour,
                    ms=5, ls="none", label=label, alpha=0.85)
        ax.set_yscale("log")
        ax.yaxis.set_major_locator(FixedLocator([20, 30, 40, 50, 70, 100, 150, 200, 300]))
        ax.yaxis.set_major_formatter(ScalarFormatter())
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("draw (sorted by the bound (11))")
        ax.set_title(f"d = {degree}")
        ax.grid(alpha=0.3, which="both")
    axes[0][0].set_ylabel("regularised risk R[f, λ] on the training set")
    axes[0][-1].legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig


def table1_conditional(results: pd.DataFrame, column: int, degree: int) -> pd.DataFrame:
    """Paper's column beside our values adjusted to the paper's easy training sample.

    Uses :func:`conditional_on_bayes_train_error`; training risks and training errors move with
    the sample's difficulty, test errors hardly do.
    """
    paper = paper_table1()
    paper = paper[paper["column"].astype(str) == str(column)].set_index(["method", "quantity"])["value"]
    adjusted = conditional_on_bayes_train_error(results, degree)["at_target"]
    table = comparison_table(paper, adjusted).dropna(subset=["paper"])
    order = {m: k for k, m in enumerate(METHODS)}
    qorder = {q: k for k, q in enumerate(QUANTITIES)}
    return table.loc[sorted(table.index, key=lambda mq: (order.get(mq[0], 99), qorder.get(mq[1], 99)))]


def tree_error_bounds(results: pd.DataFrame, degree: int, lam=4.0) -> pd.DataFrame:
    """Theorem 5 per draw: errors of the best tree against ``(λ/4)(LB - ‖f‖²)`` for its leaf count.

    Returns one row per draw with the best tree's leaves and errors and the error lower bounds
    from (14) (λ-MMP) and (13) (λ-perceptron) for a tree with that many leaves (``c ≡ 1``).
    """
    from companion.bounds.boolean_kernel import error_lower_bound

    leaves = _per_draw(results, degree, "best_tree", "size")
    errors = (_per_draw(results, degree, "best_tree", "risk") - leaves) * lam / 4.0  # Eq. (8), c ≡ 1
    mmp = _per_draw(results, degree, "mmp_bound", "risk")
    perceptron = _per_draw(results, degree, "perceptron_bound", "risk")
    table = pd.DataFrame(
        {
            "leaves": leaves.astype(int),
            "errors": errors.round().astype(int),
            "errors >= (14)": [int(np.ceil(error_lower_bound(b, n, lam))) for b, n in zip(mmp, leaves)],
            "errors >= (13)": [int(np.ceil(error_lower_bound(b, n, lam))) for b, n in zip(perceptron, leaves)],
        }
    )
    return table


def kernel_identity_checks(X_complemented, degrees=(0, 1, 2, 3, 7)) -> pd.DataFrame:
    """Lemma 2 on data: the kernel (5) against the explicit monomial feature map, per degree.

    Parameters
    ----------
    X_complemented : array of shape (m, 2·n0)
        Complemented Boolean inputs ``(b, 1 - b)``.

    Returns
    -------
    DataFrame indexed by degree: number of non-vanishing monomials, ``k(x, x)`` (constant on
    complemented inputs) and ``max |K - Φ Φᵀ|``.
    """
    from companion.kernels import literal_monomials, monomial_features

    n_vars = X_complemented.shape[1] // 2
    rows = {}
    for degree in degrees:
        monomials = literal_monomials(n_vars, degree)
        phi = monomial_features(X_complemented, monomials)
        K = boolean_kernel(X_complemented, degree=degree)
        rows[degree] = {
            "monomials": len(monomials),
            "k(x, x)": float(K[0, 0]),
            "max |K - PhiPhi^T|": float(np.abs(K - phi @ phi.T).max()),
        }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "degree d"
    return table
