"""Notebook 03's figures: risks against bounds, the row-order spread and the λ sweep.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from companion.experiments.paper03._protocol import paper_table1
from companion.experiments.paper03._tables import draw_pivot
from companion.experiments.paper03._studies import lambda_sweep_summary


def plot_risks_against_bounds(results: pd.DataFrame, degrees=(2, 3, 7), paper_columns=None):
    """Figure: every method's training risk per draw, against the lower bounds (9) and (11).

    One panel per degree; draws sorted by the MMP bound so the bound is an increasing curve. The
    risk axis is logarithmic (said in its label). The paper's values of the column a degree is
    compared with (``paper_columns``, default ``{2: 1, 3: 1, 7: 2}``: column 1 is d = 2 or 3,
    undecided) are drawn as horizontal dotted lines in the method's colour (black: the bounds).

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame.
    degrees : tuple of int, default=(2, 3, 7)
        One panel per degree.
    paper_columns : dict, optional
        ``{degree: Table 1 column}`` whose values are drawn.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.ticker import FixedLocator, MaxNLocator, NullFormatter, ScalarFormatter

    paper_columns = {2: 1, 3: 1, 7: 2} if paper_columns is None else dict(paper_columns)
    paper = paper_table1().set_index(["column", "method", "quantity"])["value"]
    styles = {
        "decision_tree": ("pruned CART tree", "s", "tab:brown"),
        "best_tree": ("best tree of depth ≤ d", "D", "tab:gray"),
        "mask_perceptron": ("mask perceptron", "^", "tab:green"),
        "kernel_perceptron": ("kernel perceptron", "v", "tab:orange"),
        "kernel_svm": ("kernel SVM (λ-MMP)", "o", "tab:blue"),
    }
    # panels 3.8 in wide: three of them shrunk to the page's width keep an 8 pt legend legible
    fig, axes = plt.subplots(1, len(degrees), figsize=(3.8 * len(degrees), 4.4), sharey=True, squeeze=False)
    for ax, degree in zip(axes[0], degrees):
        bound = draw_pivot(results, degree, "mmp_bound", "risk").sort_values(kind="stable")
        order = bound.index
        x = np.arange(order.size)
        ax.plot(x, bound.to_numpy(), "k-", lw=1.5, label="lower bound (11), λ-MMP")
        ax.plot(x, draw_pivot(results, degree, "perceptron_bound", "risk").loc[order].to_numpy(), "k--", lw=1.2,
                label="lower bound (9), λ-perceptron")
        for method, (label, marker, colour) in styles.items():
            ax.plot(x, draw_pivot(results, degree, method, "risk").loc[order].to_numpy(), marker, color=colour,
                    ms=5, ls="none", label=label, alpha=0.85)
        column = paper_columns.get(int(degree))
        if column is not None:
            for method, colour in [(m, c) for m, (_, _, c) in styles.items()] + [("mmp_bound", "k"),
                                                                                  ("perceptron_bound", "k")]:
                key = (str(column), method, "risk")
                if key in paper.index:
                    ax.axhline(paper[key], color=colour, ls=":", lw=1.2, alpha=0.9)
            ax.set_title(f"d = {degree} (dotted: paper's column {column})")
        else:
            ax.set_title(f"d = {degree}")
        ax.set_yscale("log")
        ax.yaxis.set_major_locator(FixedLocator([20, 30, 40, 50, 70, 100, 150, 200, 300]))
        ax.yaxis.set_major_formatter(ScalarFormatter())
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("draw (sorted by the bound (11))")
        ax.grid(alpha=0.3, which="both")
    axes[0][0].set_ylabel("regularised risk R[f, λ] on the training set (log scale)")
    handles, labels = axes[0][-1].get_legend_handles_labels()
    handles.append(Line2D([], [], color="0.3", ls=":"))
    labels.append("paper's value (Table 1)")
    axes[0][-1].legend(handles, labels, fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig


def plot_row_orders(order_results: pd.DataFrame, *, draw=0, method="kernel_perceptron", quantity="test_error"):
    """Figure: the spread of one method's ``quantity`` over the row orders, one box per degree.

    Parameters
    ----------
    order_results : pandas.DataFrame
        :func:`row_order_spread`'s table.
    draw : int, default=0
        The draw ``order_results`` was computed on (its ``draw`` argument), for the title.
    method : str, default="kernel_perceptron"
        The method shown (one of :data:`METHODS`).
    quantity : str, default="test_error"
        The quantity shown (one of :data:`QUANTITIES`, in %).

    Returns
    -------
    matplotlib.figure.Figure
        Boxes with whiskers at the 5 % and 95 % quantiles of the orders.
    """
    titles = {"kernel_perceptron": "λ-perceptron", "kernel_svm": "λ-MMP", "mask_perceptron": "mask perceptron"}
    ax = order_results[order_results["method"] == method].boxplot(
        column=quantity, by="degree", whis=(5, 95), figsize=(6, 3.6)
    )
    label = quantity.replace("_", " ")
    ax.set_title(f"{titles.get(method, method)}, draw {draw}: {label} over row orders (whiskers 5-95 %)")
    ax.figure.suptitle("")
    ax.set_ylabel(f"{label} (%)")
    return ax.figure


def plot_lambda_sweep(sweep: pd.DataFrame, column=2):
    """Figure: the bound (11) against λ with the paper's value, and the test errors against λ.

    Parameters
    ----------
    sweep : pandas.DataFrame
        :func:`lambda_sweep`'s table.
    column : int, default=2
        Table 1's column whose bound (11) is drawn.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    summary = lambda_sweep_summary(sweep)
    paper = paper_table1().set_index(["column", "method", "quantity"])["value"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    lams = summary.index.to_numpy()
    for name, label, style in (("mmp_bound", "bound (11)", "ko-"), ("perceptron_bound", "bound (9)", "k^--"),
                               ("tree_risk", "pruned tree R = R₁", "s-")):
        left.plot(lams, summary[name], style, label=label)
    left.axhline(paper[(str(column), "mmp_bound", "risk")], color="tab:red", ls=":", label="paper's (11)")
    left.axhline(paper[(str(column), "perceptron_bound", "risk")], color="tab:red", ls="-.", label="paper's (9)")
    left.set_xscale("log", base=2)
    left.set_yscale("log")
    left.set_xlabel("λ (log scale)")
    left.set_ylabel("training risk R[f, λ] (log scale)")
    left.legend(fontsize=8)
    for name, label, style in (("mmp_test_error", "kernel SVM (λ-MMP)", "o-"),
                               ("perceptron_test_error", "kernel perceptron", "v-"),
                               ("tree_test_error", "pruned CART tree", "s-")):
        right.plot(lams, summary[name], style, label=label)
    right.set_xscale("log", base=2)
    right.set_xlabel("λ (log scale)")
    right.set_ylabel("test error % (mean over draws)")
    right.legend(fontsize=8)
    for ax in (left, right):
        ax.set_xticks(lams, [f"{lam:g}" for lam in lams])
        ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    return fig
