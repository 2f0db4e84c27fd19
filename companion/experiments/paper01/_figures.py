"""Notebook 01's figures: a DLM's balls, errors against the number of balls, sparsity, and the
penalty heat-map of the fine grids.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from companion.decision_list import DecisionListMachine
from companion.experiments._display import legend_in_slot, panel_grid
from companion.experiments.paper01._grids import DISPLAY
from companion.experiments.paper01._tables import (
    main_fold_seed, paper_table1, protocol_a_table, result_datasets,
)


# --------------------------------------------------------------------------------------------
# Notebook 01's figures of Table 1's protocol
# --------------------------------------------------------------------------------------------

_TYPE_COLOURS = {"Pi": "tab:red", "Po": "tab:orange", "Ni": "tab:blue", "No": "tab:cyan"}


def plot_dlm_balls(ax, dlm: DecisionListMachine, X, y, *, resolution=300):
    """Draw a fitted 2-D DLM: its decision regions, the data, and each ball (numbered in order)."""
    import matplotlib.patches as mpatches

    X = np.asarray(X, dtype=float)
    span = X.max(axis=0) - X.min(axis=0)
    lo, hi = X.min(axis=0) - 0.15 * span, X.max(axis=0) + 0.15 * span
    xx, yy = np.meshgrid(np.linspace(lo[0], hi[0], resolution), np.linspace(lo[1], hi[1], resolution))
    grid_points = np.column_stack([xx.ravel(), yy.ravel()])
    positive = dlm.classes_[-1]
    zz = (dlm.predict(grid_points) == positive).reshape(xx.shape)
    ax.contourf(xx, yy, zz, levels=[-0.5, 0.5, 1.5], colors=["#dde8f5", "#f7dcdc"], alpha=0.9)
    is_positive = np.asarray(y) == positive
    ax.scatter(*X[~is_positive].T, s=12, c="tab:blue", marker="o", label=f"class {dlm.classes_[0]}")
    ax.scatter(*X[is_positive].T, s=14, c="tab:red", marker="^", label=f"class {positive}")
    for number, ball in enumerate(dlm.balls_, start=1):
        centre = X[ball.centre_index]
        colour = _TYPE_COLOURS[ball.kind]
        ax.add_patch(
            mpatches.Circle(centre, ball.radius, fill=False, lw=2, ls="-" if ball.inside else "--", ec=colour)
        )
        ax.annotate(f"{number}:{ball.kind}", centre, fontsize=9, weight="bold", color=colour)
        ax.scatter(*X[ball.border_index], s=80, facecolors="none", edgecolors="k")
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_aspect("equal")
    handles = [mpatches.Patch(color=c, label=k) for k, c in _TYPE_COLOURS.items()]
    ax.legend(handles=handles + ax.get_legend_handles_labels()[0], loc="lower right", fontsize=8)
    return ax


def plot_errors_vs_s(ax, results: pd.DataFrame, name, title="", paper=None, seed=None):
    """Total test errors against the stopping point ``s`` (best penalties for each ``s``) on one data set.

    ``results`` is :func:`run`'s frame (its protocol ``"s"`` rows; ``seed``: the main seed by
    default). A fit with stopping point ``s`` returns a shorter list when a class runs out first,
    so beyond the longest list of a machine type (over its penalties and folds) the curve would
    only repeat itself: each curve stops there. ``paper`` (a row of :func:`paper_table1`) adds the
    paper's (``s``, errors) points of the DLM (star) and the SCM (diamond).
    """
    seed = main_fold_seed(results) if seed is None else seed
    part = results[(results["dataset"] == name) & (results["seed"] == seed)]
    curves = part[part["protocol"] == "s"].assign(kind=lambda f: f["method"].str.rsplit(" s=", n=1).str[0])
    for (kind, machine), curve in curves.groupby(["kind", "machine"], sort=False):
        by_s = curve.groupby("s")
        totals, end = by_s["errors"].sum(), max(int(curve["longest"].max()), 1)
        label = kind if machine == "dlm" else f"SCM {kind.split()[1][:4]}."
        style = dict(marker="o", ms=3) if machine == "dlm" else dict(marker="s", ms=3, ls="--")
        ax.plot(np.arange(1, end + 1), totals.to_numpy()[:end], label=label, **style)
    svm = part.loc[part["method"] == "SVM (a)", "errors"].sum()
    ax.axhline(svm, color="k", lw=1, ls=":", label="SVM (best)")
    if paper is not None:
        ax.plot([paper["dlm_s"]], [paper["dlm_errors"]], marker="*", ms=12, color="tab:red", ls="",
                label="paper DLM (s, errors)")
        ax.plot([paper["scm_s"]], [paper["scm_errors"]], marker="D", ms=7, mfc="none", color="tab:green", ls="",
                label="paper SCM (s, errors)")
    ax.set_xlabel("stopping point s")
    ax.set_ylabel("total test errors (10 folds)")
    ax.set_title(title)
    return ax


def plot_sparsity(ax, table: pd.DataFrame):
    """Number of balls (DLM, SCM) against number of support vectors, paper and ours, log-log.

    ``table`` has columns ``svm_size``, ``scm_size``, ``dlm_size`` and a ``source`` column.
    """
    markers = {"paper": "o", "ours": "x"}
    for source, part in table.groupby("source"):
        for machine, colour in (("dlm", "tab:red"), ("scm", "tab:green")):
            ax.scatter(
                part["svm_size"], part[f"{machine}_size"], marker=markers.get(source, "."), c=colour,
                label=f"{machine.upper()} ({source})",
            )
    lim = [1, max(table["svm_size"].max(), 10) * 1.5]
    ax.plot(lim, lim, color="grey", lw=0.8, ls=":")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("SVM: mean number of support vectors")
    ax.set_ylabel("number of balls")
    ax.legend(fontsize=8)
    return ax


def sparsity_frame(results: pd.DataFrame) -> pd.DataFrame:
    """Sizes of the selected machines (protocol (a), main seed), paper and ours, long form.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset``, ``source`` (paper/ours), ``svm_size`` (mean support vectors),
        ``scm_size`` and ``dlm_size`` (balls).
    """
    paper = paper_table1()
    rows = []
    for name, best in protocol_a_table(results).items():
        rows.append(
            {
                "dataset": DISPLAY[name],
                "source": "paper",
                "svm_size": float(paper.loc[name, "svm_size"]),
                "scm_size": float(paper.loc[name, "scm_s"]),
                "dlm_size": float(paper.loc[name, "dlm_s"]),
            }
        )
        rows.append(
            {
                "dataset": DISPLAY[name],
                "source": "ours",
                "svm_size": best["svm"]["size"],
                "scm_size": best["scm"]["size"],
                "dlm_size": best["dlm"]["size"],
            }
        )
    return pd.DataFrame(rows)


def figure_errors_vs_s(results: pd.DataFrame):
    """One panel per data set: total test errors (main seed) against the stopping point ``s``.

    Curves stop at the longest list of each machine type; stars/diamonds are the paper's points.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.

    Returns
    -------
    matplotlib.figure.Figure
    """
    from matplotlib.ticker import MaxNLocator

    names = result_datasets(results)
    fig, panels, spare = panel_grid(len(names), panel_size=(3.6, 3.0))
    for ax, name in zip(panels, names):
        plot_errors_vs_s(ax, results, name, title=DISPLAY[name], paper=paper_table1().loc[name])
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # s counts balls: no tick at 2.5
        if not ax.get_subplotspec().is_first_col():
            ax.set_ylabel("")  # each panel keeps its own scale
    handles, labels = panels[0].get_legend_handles_labels()
    fig.tight_layout()
    if spare:  # the legend in an empty slot, at a size that reads when the figure is shrunk to the page
        legend_in_slot(fig, handles, labels, spare[0], fontsize=10)
    else:
        panels[0].legend(fontsize=10)
    return fig


def figure_sparsity(results: pd.DataFrame):
    """Number of balls against number of support vectors (paper and ours), log-log.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 4))
    plot_sparsity(ax, sparsity_frame(results))
    fig.tight_layout()
    return fig


def toy_dlm(seed=0, n_samples=150):
    """A 2-D problem (two noisy moons) and a simple and a complex DLM (constrained) fitted on it.

    Parameters
    ----------
    seed : int, default=0
        Seed of ``make_moons``.
    n_samples : int, default=150
        Number of examples.

    Returns
    -------
    X, y, dict
        The data and ``{"simple": dlm, "complex": dlm}`` (``p_p = p_n = 2``, ``s = 8``).
    """
    from sklearn.datasets import make_moons

    X, y = make_moons(n_samples=n_samples, noise=0.25, random_state=seed)
    machines = {
        ball_type: DecisionListMachine(
            p_p=2.0, p_n=2.0, s=8, ball_type=ball_type, metric="l2", compression_constraint=True,
            stop_if_unchanged=False, fallback=None, scale=None,
        ).fit(X, y)
        for ball_type in ("simple", "complex")
    }
    return X, y, machines


def figure_dlm_balls(X, y, machines: dict):
    """The learnt balls of 2-D DLMs, one panel each (the regions, the data, each ball numbered).

    Parameters
    ----------
    X : ndarray of shape (m, 2)
        The data the machines were fitted on.
    y : ndarray of shape (m,)
        Its labels.
    machines : dict
        ``{label: fitted DecisionListMachine}``.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(machines), figsize=(6 * len(machines), 5), squeeze=False)
    for ax, (label, dlm) in zip(axes.ravel(), machines.items()):
        plot_dlm_balls(ax, dlm, X, y)
        ax.set_title(f"{label} DLM: {dlm.n_balls_} balls (label = position:type)")
    fig.tight_layout()
    return fig


def best_s_totals(fine: dict, name: str, seed=None):
    """The fine grid's DLM totals at the best ``s`` (types, p_p, p_n) on fold seed ``seed`` (default:
    the first), its grid, and Table 1's row of ``name``: what the heatmap and its text read."""
    seed = fine["seeds"][0] if seed is None else seed
    return fine["totals"][(name, seed)].min(axis=-1), fine["grid"], paper_table1().loc[name]


def figure_penalty_heatmap(fine: dict, name="pima", seed=None):
    """Total test errors over (``p_p``, ``p_n``) of the fine grid (best ``s``), one panel per type.

    The paper's (``p_p``, ``p_n``) is circled when its type is the panel's; the cell of the
    smallest total is marked with a cross.

    Parameters
    ----------
    fine : dict
        :func:`fine_grid_protocol`'s result.
    name : str, default="pima"
        A data set of ``fine``.
    seed : int, optional
        A fold seed of ``fine`` (default: its first).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    totals, grid, paper = best_s_totals(fine, name, seed)
    pens = list(grid.dlm_penalties)
    fig, axes = plt.subplots(1, len(grid.dlm_types), figsize=(5.2 * len(grid.dlm_types), 4.4), squeeze=False)
    lo, hi = totals.min(), totals.max()
    for t, (ax, ball_type) in enumerate(zip(axes.ravel(), grid.dlm_types)):
        image = ax.imshow(totals[t].T, origin="lower", cmap="viridis", vmin=lo, vmax=hi)
        ax.set_xticks(range(len(pens)), [f"{v:g}" for v in pens], rotation=90, fontsize=7)
        ax.set_yticks(range(len(pens)), [f"{v:g}" for v in pens], fontsize=7)
        ax.set_xlabel("p_p")
        ax.set_ylabel("p_n")
        b, c = np.unravel_index(np.argmin(totals[t]), totals[t].shape)
        ax.plot([b], [c], marker="x", color="w", ms=10, mew=2)
        if (paper["dlm_T"] == ball_type[0]) and paper["dlm_p_p"] in pens and paper["dlm_p_n"] in pens:
            ax.plot([pens.index(paper["dlm_p_p"])], [pens.index(paper["dlm_p_n"])], marker="o", mfc="none",
                    mec="r", ms=14, mew=2)
        ax.set_title(f"{DISPLAY[name]}, {ball_type} DLM (min {int(totals[t].min())})")
    fig.colorbar(image, ax=axes.ravel().tolist(), label="total test errors, best s")
    return fig
