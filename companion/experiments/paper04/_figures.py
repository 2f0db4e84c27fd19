"""Notebook 04's figures: the partitions, the z trace, size against error, the paired scatter and
the sensitivity to ``c_KM``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from companion.experiments.paper04._peers import MAJORITY
from companion.experiments.paper04._tables import per_dataset


def plot_partitions():
    """Figure: a 3-leaf tree's partition beside the cells of 3 overlapping monomials (boxes).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    from companion._partition_boosting import pattern_codes

    boxes = [(0.05, 0.1, 0.55, 0.6), (0.35, 0.3, 0.9, 0.9), (0.2, 0.45, 0.75, 0.95)]  # x0, y0, x1, y1
    grid = np.linspace(0, 1, 301)
    gx, gy = np.meshgrid(grid, grid)
    inside = np.stack([(gx >= a) & (gx <= c) & (gy >= b) & (gy <= d) for a, b, c, d in boxes], axis=-1)
    cells = pattern_codes(inside.reshape(-1, 3)).reshape(gx.shape)
    tree_cells = np.where(gx < 0.35, 0, np.where(gy < 0.45, 1, 2))
    fig, axes = plt.subplots(1, 2, figsize=(9, 4))
    for ax, labels, title in (
        (axes[0], tree_cells, f"decision tree, 3 leaves: {len(np.unique(tree_cells))} cells"),
        (axes[1], cells, f"decision committee, 3 monomials: {len(np.unique(cells))} cells"),
    ):
        ax.imshow(labels, origin="lower", extent=(0, 1, 0, 1), cmap="tab20", alpha=0.6)
        ax.set_title(title, fontsize=10)
        ax.set_xticks([])
        ax.set_yticks([])
    for k, (a, b, c, d) in enumerate(boxes):
        axes[1].add_patch(Rectangle((a, b), c - a, d - b, fill=False, lw=2, color=f"C{k}"))
        axes[1].text(a + 0.01, b + 0.01, f"$t_{k + 1}$", color=f"C{k}", fontsize=12)
    axes[0].axvline(0.35, color="k", lw=2)
    axes[0].plot([0.35, 1], [0.45, 0.45], color="k", lw=2)
    fig.tight_layout()
    return fig


def plot_z_trace(model, title=""):
    """Figure: Z (paper eq. (1)) after every accepted literal, monomial boundaries dotted.

    Parameters
    ----------
    model : DecisionCommittee
        Fitted; its ``z_trace_`` is drawn.
    title : str, default=""
        The axes' title.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.2))
    trace = np.asarray(model.z_trace_)
    ax.plot(np.arange(len(trace)), trace, marker="o", ms=3)
    for boundary in np.cumsum([len(m) for m in model.grown_monomials_]):
        ax.axvline(boundary, color="grey", lw=0.5, ls=":")
    ax.set_xlabel("literals added (dotted: a monomial is closed)")
    ax.set_ylabel("Z over the partition")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig


def plot_size_vs_error(results: pd.DataFrame, learners=None, *, joined=("J48", "CN2")):
    """Figure: literals against test error (%) per data set, one marker per learner (log size axis).

    ``learners``: the learners drawn (default: every learner of ``results`` with literals; the
    majority class, of size 0, is drawn as a dashed tick at its error on each data set's WIDC(p)
    size). Every WIDC(p) point is labelled with its data set, and grey segments join it to the
    learners of ``joined`` on the same data set.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame (with :func:`peer_results`' and :func:`majority_results`', concatenated).
    learners : sequence of str, optional
        The learners drawn.
    joined : tuple of str, default=("J48", "CN2")
        Learners joined to WIDC(p) by segments.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    error = per_dataset(results, "error") * 100
    literals = per_dataset(results, "literals")
    learners = [l for l in (error.columns if learners is None else learners) if l in error.columns]
    drawn = [l for l in learners if l != MAJORITY]
    fig, ax = plt.subplots(figsize=(9, 6))
    markers = "oDs^v<>PX*hp"
    if "WIDC(p)" in error.columns:
        for other in [o for o in joined if o in error.columns]:
            for name in error.index:
                ax.plot([max(literals.loc[name, "WIDC(p)"], 0.5), max(literals.loc[name, other], 0.5)],
                        [error.loc[name, "WIDC(p)"], error.loc[name, other]], color="grey", lw=0.4, zorder=0)
    for k, learner in enumerate(drawn):
        ax.scatter(literals[learner].clip(lower=0.5), error[learner], label=learner, marker=markers[k % len(markers)],
                   s=30, alpha=0.85, color=f"C{k % 10}")
    if "WIDC(p)" in error.columns:
        for name in error.index:
            ax.annotate(name, (max(literals.loc[name, "WIDC(p)"], 0.5), error.loc[name, "WIDC(p)"]), fontsize=7,
                        xytext=(3, 3), textcoords="offset points")
        if MAJORITY in learners:
            ax.scatter(literals["WIDC(p)"].clip(lower=0.5), error[MAJORITY], marker="_", s=120, color="k",
                       label=f"{MAJORITY} (at WIDC(p)'s size)")
    ax.set_xscale("log")
    ax.set_xlabel("literals (mean over folds; log scale; 0 drawn at 0.5)")
    ax.set_ylabel("test error % (10-fold CV)")
    ax.set_title("one point per (data set, learner); labels at WIDC(p); grey: WIDC(p) to " + ", ".join(joined),
                 fontsize=9)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    return fig


def plot_paired_scatter(results: pd.DataFrame, widc="WIDC(p)", others=("J48", "CN2", "CN2-unordered", "JRip")):
    """Figure in the layout of the paper's Table 2: WIDC against each peer, one point per data set.

    Top row: mean test error (%), x = the peer, y = ``widc``; bottom row: literals (log scales).
    Points below the diagonal favour WIDC. Data sets are labelled.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame (with :func:`peer_results`' and :func:`majority_results`', concatenated).
    widc : str, default="WIDC(p)"
        The WIDC variant.
    others : tuple of str
        One column of panels per peer.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    error = per_dataset(results, "error") * 100
    literals = per_dataset(results, "literals")
    others = [o for o in others if o in error.columns]
    if not others:  # the peers did not run on these folds (peer_results is empty)
        fig, ax = plt.subplots(figsize=(4, 2))
        ax.axis("off")
        ax.text(0.5, 0.5, "no peer ran on these folds", ha="center", va="center")
        return fig
    # panels 2.9 in wide and labels of 8 pt: four of them shrunk to the page's width stay legible
    fig, axes = plt.subplots(2, len(others), figsize=(2.9 * len(others), 6.2), squeeze=False)
    for k, other in enumerate(others):
        for row, (table, label, log) in enumerate(((error, "test error %", False), (literals, "literals", True))):
            ax = axes[row, k]
            pair = table[[other, widc]].dropna()
            x, y = pair[other].clip(lower=0.5 if log else None), pair[widc].clip(lower=0.5 if log else None)
            ax.scatter(x, y, s=14, color="C0")
            for name in pair.index:
                ax.annotate(name, (x[name], y[name]), fontsize=8, xytext=(2, 2), textcoords="offset points")
            low, high = min(x.min(), y.min()), max(x.max(), y.max())
            ax.plot([low, high], [low, high], color="grey", lw=0.8, ls="--")
            if log:
                ax.set_xscale("log")
                ax.set_yscale("log")
            ax.set_xlabel(f"{other}: {label}")
            ax.set_ylabel(f"{widc}: {label}")
            below = int((pair[widc] < pair[other]).sum())
            ax.set_title(f"{widc} vs {other}: below diagonal {below}/{len(pair)}", fontsize=9)
    fig.tight_layout()
    return fig


def plot_sensitivity(summary: pd.DataFrame, synthetic: pd.DataFrame | None = None):
    """Figure: error and literals against ``c_KM`` (benchmark mean; synthetic problems if given).

    Parameters
    ----------
    summary : pandas.DataFrame
        :func:`sensitivity_summary`.
    synthetic : pandas.DataFrame, optional
        :func:`choose_optimistic_strength`'s table.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(9, 3.4))
    x = np.asarray(summary.index, dtype=float)
    shown = np.where(x == 0, x[x > 0].min() / 2 if (x > 0).any() else 1e-3, x)
    axes[0].plot(shown, summary["error %"], marker="o", label="benchmark (mean over data sets)")
    axes[1].plot(shown, summary["literals"], marker="o", label="benchmark")
    if synthetic is not None:
        xs = np.asarray(synthetic.index, dtype=float)
        xs = np.where(xs == 0, shown.min(), xs)
        axes[0].errorbar(xs, synthetic["error %"], yerr=synthetic["se %"], marker="s", capsize=2,
                         label="synthetic DCs (± 1 se)")
        axes[1].plot(xs, synthetic["literals"], marker="s", label="synthetic DCs")
    for ax, label in zip(axes, ("test error %", "literals")):
        ax.set_xscale("log")
        ax.set_xlabel("c_KM (log scale; the leftmost point is c_KM = 0)")
        ax.set_ylabel(label)
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig
