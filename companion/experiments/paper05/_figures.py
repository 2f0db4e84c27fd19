"""Notebook 05's figures: bounds against test errors, matched sparsity, the margin sweep and the
Occam trade-off (Sections III-V).
"""

from __future__ import annotations

import numpy as np

from companion.experiments._display import legend_in_slot, panel_grid
from companion.experiments.paper05._protocol import DATASET_NAMES, PRIORS, STUMP_VARIANTS


# --------------------------------------------------------------------------------------------
# Figures of run's frame
# --------------------------------------------------------------------------------------------


def plot_bound_vs_error(summary):
    """Mean training-fold bound against CV error, per stump learner, data set and prior range.

    PAC-Bayes is shown by its Gibbs bound against the Gibbs classifier's error (the Bayes vote's
    bound, twice it, saturates at 100 % on the small sets and would say nothing).

    Parameters
    ----------
    summary : pandas.DataFrame
        :func:`summary_table`'s frame.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    data = summary[summary["learner"].isin(STUMP_VARIANTS) & (summary["k"] == 0)]
    fig, ax = plt.subplots(figsize=(6.5, 5))
    markers = {"sc": "o", "occam": "s", "pac_bayes": "^"}
    fills = {"declared": "full", "per_gene": "none", "global": "none"}
    colours = dict(zip(dict.fromkeys(data["dataset"]), plt.cm.tab10.colors))
    for _, row in data.iterrows():
        gibbs = row["learner"] == "pac_bayes"
        x, y = (row["gibbs_error_%"], row["gibbs_bound_%"]) if gibbs else (row["cv_error_%"], row["bound_%"])
        ax.scatter(x, y, marker=markers[row["learner"]], s=45 if row["prior"] != "global" else 20,
                   facecolors=colours[row["dataset"]] if fills[row["prior"]] == "full" else "none",
                   edgecolors=colours[row["dataset"]])
    ax.plot([0, 100], [0, 100], color="grey", lw=0.8, ls="--")
    top = float(np.nanmax(np.r_[data["bound_%"].where(data["learner"] != "pac_bayes"), data["gibbs_bound_%"]])) + 5
    ax.set_xlim(0, 45)
    ax.set_ylim(0, min(100, top))
    ax.set_xlabel("CV test error (%; PAC-Bayes: Gibbs classifier)")
    ax.set_ylabel("risk bound on the training folds (%, δ = 0.05; PAC-Bayes: Gibbs)")
    for learner, marker in markers.items():
        ax.scatter([], [], marker=marker, color="k", label=learner)
    for name, colour in colours.items():
        ax.scatter([], [], marker="o", color=colour, label=name)
    ax.legend(fontsize=7, ncol=2, title="filled: declared range; open: per-gene; small open: global",
              title_fontsize=7)
    fig.tight_layout()
    return fig


def plot_matched_sparsity(table):
    """CV error of the best stump learner and the best competitor against the number of genes ``k``.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`matched_table`'s frame.

    Returns
    -------
    matplotlib.figure.Figure
    """
    names = list(dict.fromkeys(table["dataset"]))
    fig, panels, spare = panel_grid(len(names), legend_slot=True)
    for ax, name in zip(panels, names):
        part = table[(table["dataset"] == name) & (table["k"] > 0)]
        ax.plot(part["k"], part["stump error %"], "o-", label="best stump learner")
        ax.plot(part["k"], part["competitor error %"], "s--", label="best competitor")
        ax.set_title(DATASET_NAMES.get(name, name))
        ax.set_xticks(list(part["k"]))
        ax.set_xlabel("genes k")
        if ax.get_subplotspec().is_first_col():
            ax.set_ylabel("CV error (%)")
    fig.tight_layout()
    legend_in_slot(fig, *panels[0].get_legend_handles_labels(), spare[0])
    return fig


def plot_gibbs_bound_vs_error(results):
    """Per outer fold: the PAC-Bayes Gibbs bound on the training fold against the Gibbs test error.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame (its unrestricted PAC-Bayes rows of the declared range).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    data = results[(results["learner"] == "pac_bayes") & (results["k"] == 0) & (results["prior"] == PRIORS[0])]
    fig, ax = plt.subplots(figsize=(5.5, 4.5))
    for (name, part), colour in zip(data.groupby("dataset", sort=False), plt.cm.tab10.colors):
        ax.scatter(100 * part["gibbs_errors"] / part["n_test"], 100 * part["gibbs_bound"], s=10, alpha=0.5,
                   color=colour, label=name)
    ax.plot([0, 100], [0, 100], color="grey", lw=0.8, ls="--")
    top = float(100 * data["gibbs_bound"].max()) + 5
    ax.set_xlim(-2, top)
    ax.set_ylim(0, top)
    ax.set_xlabel("Gibbs classifier's expected test error on the fold (%)")
    ax.set_ylabel("Gibbs bound on the training fold (%, δ = 0.05)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def plot_margin_sweep(sweep):
    """Gibbs bound against margin width (best prefix per width) and against the number of stumps.

    Parameters
    ----------
    sweep : pandas.DataFrame
        :func:`margin_sweep`'s frame.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    best = sweep.loc[sweep.groupby("gap")["gibbs_bound"].idxmin()]
    left.plot(best["gap"], 100 * best["gibbs_bound"], "o-", label="Gibbs bound (best number of stumps)")
    left.plot(best["gap"], 100 * best["gibbs_risk"], "s--", label="empirical Gibbs risk there")
    left.set_xscale("log", base=2)
    left.set_xlabel("margin width g (sorted training positions)")
    left.set_ylabel("%")
    left.legend(fontsize=8)
    for gap, part in sweep.groupby("gap"):
        right.plot(part["stumps"], 100 * part["gibbs_bound"], "o-", label=f"g = {gap}")
    right.set_xlabel("number of stumps")
    right.set_ylabel("Gibbs bound (%, δ = 0.05)")
    right.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    return fig


def plot_occam_tradeoff(tradeoff):
    """Occam bound along the greedy path for each code weight ``η`` (labels: total code bits).

    Parameters
    ----------
    tradeoff : pandas.DataFrame
        :func:`occam_tradeoff`'s frame.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    groups = list(tradeoff.groupby("eta"))
    markers, styles = "osD^vP*X", ["-", "--", "-.", ":"]
    # Curves of different η often coincide (the same greedy path): each is shifted sideways by a
    # small offset of its own and drawn with its own marker and line style, so none hides another.
    offsets = np.linspace(-0.15, 0.15, len(groups)) if len(groups) > 1 else [0.0]
    for i, ((eta, part), shift) in enumerate(zip(groups, offsets)):
        x = part["stumps"].to_numpy(dtype=float) + shift
        ax.plot(x, 100 * part["bound"], marker=markers[i % len(markers)], ls=styles[i % len(styles)], ms=5,
                mfc="none" if i % 2 else None, label=f"η = {eta:g} ({int(part.iloc[-1]['code bits'])} bits)")
    ax.set_xticks(sorted(set(tradeoff["stumps"])))
    ax.set_xlabel("number of stumps (curves shifted sideways to keep each visible)")
    ax.set_ylabel("Occam bound (%, δ = 0.05)")
    ax.legend(fontsize=8, title="code weight (code bits at the last stump)", title_fontsize=8)
    fig.tight_layout()
    return fig
