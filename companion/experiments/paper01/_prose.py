"""Notebook 01's generated prose: the protocols' legend, a real DLM as text, and the numbers the
notebook's text quotes, read from the paper's table and the runs.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from companion.decision_list import DecisionListMachine
from companion.prose import Markdown
from companion.experiments.paper01._grids import COMPARABLE, DISPLAY, Grid, load_table1_dataset
from companion.experiments.paper01._tables import paper_table1
from companion.experiments.paper01._followups import fine_grid
from companion.experiments.paper01._figures import best_s_totals
from companion.experiments.paper01._claims import MACHINES, TEMPLATES, render_claim_text


# --------------------------------------------------------------------------------------------
# Legends and a real DLM as text
# --------------------------------------------------------------------------------------------

#: Meaning of the columns of :func:`protocols_table`.
PROTOCOL_COLUMNS = {
    "paper_dlm": "the paper's DLM total test errors (Table 1)",
    "a_svm / a_scm / a_dlm": "protocol (a), the paper's: best grid point by total test errors on the test folds",
    "a_dlm_constrained": "protocol (a) for the DLM fitted with the compression-set constraint",
    "b_svm / b_scm / b_dlm": "protocol (b): nested CV, grid point chosen by an inner 3-fold CV on each training fold",
    "c_dlm_bound": "protocol (c): constrained DLM of smallest published Theorem 1/2 bound on each training fold",
    "c_dlm_balls": "mean number of balls of the (c) machines chosen by the published bound",
    "c_dlm_corrected": "protocol (c) with the corrected bound (corrected_bound) instead",
    "c_corrected_balls": "mean number of balls of the (c) machines chosen by the corrected bound",
}


def protocol_legend() -> pd.DataFrame:
    """The legend of :func:`protocols_table`'s columns (:data:`PROTOCOL_COLUMNS`).

    Returns
    -------
    pandas.DataFrame
        One row per column, its ``meaning``.
    """
    return pd.DataFrame({"meaning": PROTOCOL_COLUMNS}).rename_axis("column")


def readable_dlm(name="breastw"):
    """The DLM with the paper's Table 1 parameters fitted on a whole data set, with column names.

    Parameters
    ----------
    name : str, default="breastw"
        A key of :data:`DATASETS`.

    Returns
    -------
    DecisionListMachine, list of str
        The fitted machine (L2, no constraint) and the encoded columns' names, for
        ``dlm.to_text(names)``.
    """
    p = paper_table1().loc[name]
    X, y, names = load_table1_dataset(name, return_names=True)
    dlm = DecisionListMachine(
        p_p=float(p["dlm_p_p"]), p_n=float(p["dlm_p_n"]), s=int(p["dlm_s"]),
        ball_type="simple" if p["dlm_T"] == "s" else "complex", metric="l2", compression_constraint=False,
        stop_if_unchanged=False, fallback=None, scale=None,
    ).fit(X, y)
    return dlm, names


def _numbers(values) -> str:
    return ", ".join(f"{v:g}" for v in sorted(set(float(v) for v in values)))


def _md(key, **values):
    from companion.prose import render

    return render(TEMPLATES[key], **values)


def fine_grid_markdown(grid: Grid | None = None, coarse: Grid = Grid()) -> "Markdown":
    """The fine grids of :func:`fine_grid_protocol` beside the paper's parameters (Table 1), as text.

    Parameters
    ----------
    grid : Grid, optional
        The fine grid run (default :func:`fine_grid`).
    coarse : Grid
        The coarse grid of protocol (a).

    Returns
    -------
    companion.prose.Markdown
        The paper's DLM and SCM penalties that the coarse grid lacks, and the fine grids' values,
        stopping points and which of the paper's values they contain.
    """
    from companion.prose import Markdown

    grid = fine_grid() if grid is None else grid
    paper = paper_table1()
    dlm_paper = set(paper["dlm_p_p"]) | set(paper["dlm_p_n"])
    scm_paper = set(paper["scm_p"])
    dlm_in, scm_in = dlm_paper & set(grid.dlm_penalties), scm_paper & set(grid.scm_penalties)

    def share(found, every):
        return "every" if found == every else render_claim_text("share_of", k=len(found), n=len(every))

    lines = [
        render_claim_text("fine_missing", dlm_missing=_numbers(dlm_paper - set(coarse.dlm_penalties)),
                scm_missing=_numbers(scm_paper - set(coarse.scm_penalties))),
        render_claim_text("fine_dlm", k=len(grid.dlm_penalties), low=min(grid.dlm_penalties), high=max(grid.dlm_penalties),
                values=_numbers(grid.dlm_penalties), share=share(dlm_in, dlm_paper), s_max=grid.dlm_s_max),
    ]
    if grid.scm_penalties:
        coarse_in = set(coarse.scm_penalties) <= set(grid.scm_penalties)
        lines.append(render_claim_text("fine_scm", k=len(grid.scm_penalties), values=_numbers(grid.scm_penalties),
                             share=share(scm_in, scm_paper), coarse=" and of our coarse grid" if coarse_in else "",
                             s_max=grid.scm_s_max))
    return Markdown("\n".join(lines))


def reproduction_markdown(errors_a: pd.DataFrame, parameters: pd.DataFrame, fine_dlm: pd.DataFrame,
                          fine_scm: pd.DataFrame, tie_rules: pd.DataFrame, lengths: pd.DataFrame,
                          svm: pd.DataFrame, *, svm_gap: int = 10) -> "Markdown":
    """The facts the discussion of Table 1's columns rests on, read from the notebook's tables.

    Parameters
    ----------
    errors_a : pandas.DataFrame
        :func:`~companion.experiments.paper01.errors_table`.
    parameters : pandas.DataFrame
        :func:`~companion.experiments.paper01.parameters_table`.
    fine_dlm, fine_scm : pandas.DataFrame
        :func:`fine_grid_table` of the DLM and of the SCM.
    tie_rules : pandas.DataFrame
        :func:`tie_rule_table`.
    lengths : pandas.DataFrame
        :func:`list_length_table`.
    svm : pandas.DataFrame
        :func:`svm_gamma_table`.
    svm_gap : int, default=10
        Fewer errors than the paper's by at least this many counts as an SVM gap.

    Returns
    -------
    companion.prose.Markdown
        One bullet per column of Table 1 (data sets in the paper's order, Votes left out).
    """
    from companion.prose import Markdown

    names = [DISPLAY[n] for n in COMPARABLE if DISPLAY[n] in fine_dlm.index]
    dlm = errors_a.xs("DLM", level="machine").loc[names]
    above = [n for n in names if dlm.loc[n, "difference"] > 0]
    gap = fine_dlm.loc[names, "difference"].abs()
    rules = tie_rules["mean"].unstack("rule").loc[names]
    other = [r for r in rules.columns if r != "larger_cover"][0]
    figure1 = lengths.xs("Figure 1, our tie rule", level="variant").loc[names]
    short = [render_claim_text("repro_short", name=n, mean=figure1.loc[n, "mean_length"], s=figure1.loc[n, "paper_s"])
             for n in names if figure1.loc[n, "mean_length"] < figure1.loc[n, "paper_s"]]
    worse = [render_claim_text("repro_worse", name=n, ours=int(figure1.loc[n, "errors"]), paper=int(figure1.loc[n, "paper_errors"]))
             for n in names if figure1.loc[n, "errors"] > figure1.loc[n, "paper_errors"]]
    same = [n for n in names if parameters.loc[n, "ours_dlm"] == parameters.loc[n, "paper_dlm"]]
    lines = [render_claim_text(
        "repro_dlm", above=len(above), n=len(names), above_names=above, gap_low=gap.min(), gap_high=gap.max(),
        other=other.replace("_", " "), lower=[n for n in names if rules.loc[n, other] < rules.loc[n, "larger_cover"]],
        higher=[n for n in names if rules.loc[n, other] > rules.loc[n, "larger_cover"]], short_count=len(short),
        short=short, worse_count=len(worse), worse=worse, same=same,
        same_detail="".join(render_claim_text("repro_same", paper=parameters.loc[n, "paper_dlm"],
                                    fine=fine_dlm.loc[n, "fine_first_seed"]) for n in same))]
    inside = [n for n in names if fine_scm.loc[n, "paper_in_fine_range"]]
    worse = []
    for n in names:
        row = fine_scm.loc[n]
        low, high = min(row["coarse_min"], row["fine_min"]), max(row["coarse_max"], row["fine_max"])
        if row["paper"] > high:
            worse.append(render_claim_text("repro_scm_worse", name=n, paper=row["paper"], low=low, high=high))
    lines.append(render_claim_text("repro_scm", inside=inside, worse=worse))
    svm_rows = errors_a.xs("SVM", level="machine").loc[names]
    ahead = svm_rows[svm_rows["difference"] <= -svm_gap]
    if len(ahead):
        lines.append(render_claim_text(
            "repro_svm", low=-ahead["difference"].max(), high=-ahead["difference"].min(), names=list(ahead.index),
            absolute=", ".join(str(int(v)) for v in svm.loc[list(ahead.index), "absolute"]),
            relative=", ".join(str(int(v)) for v in svm.loc[list(ahead.index), "relative"]),
            near_worse=sum(svm.loc[n, "near_errors"] > svm.loc[n, "paper"] for n in names), n=len(names)))
    else:
        lines.append(render_claim_text("repro_svm_none", gap=svm_gap))
    return Markdown("\n".join(lines))


def dataset_notes_markdown(counts: dict) -> "Markdown":
    """Where our Votes and Haberman rows stand against Table 1's example counts, as text.

    Parameters
    ----------
    counts : dict
        :func:`~companion.experiments.paper01.dataset_counts`'s result.

    Returns
    -------
    companion.prose.Markdown
        One bullet per data set of ``counts`` among Votes and Haberman: the paper's count, ours,
        and (Votes) the paper's errors against which its row cannot be compared, (Haberman) the
        contradictory examples the loader drops.
    """
    import companion.datasets as datasets
    from companion.prose import Markdown

    paper = paper_table1()
    lines = []
    if "votes" in counts:
        m, _, positives = counts["votes"]
        errors = paper.loc["votes", [f"{machine}_errors" for machine in MACHINES]].astype(float)
        lines.append(render_claim_text("votes", paper=paper.loc["votes", "data_examples"], m=m, democrats=m - positives,
                             republicans=positives, errors=_span(errors)))
    if "haberman" in counts:
        X, y = datasets.load_haberman()
        labels = pd.Series(np.asarray(y)).groupby([X[c].to_numpy() for c in X.columns]).nunique()
        lines.append(render_claim_text("haberman", paper=paper.loc["haberman", "data_examples"], m=counts["haberman"][0],
                             vectors=int((labels > 1).sum()), rows=len(X) - counts["haberman"][0]))
    return Markdown("\n".join(lines))


def _span(values) -> str:
    low, high = (f"{v:g}" for v in (np.min(values), np.max(values)))
    return low if low == high else f"{low}–{high}"


def glass_choice_markdown(evidence: pd.DataFrame, used: str = "float (1, 3) vs rest") -> "Markdown":
    """Which binary Glass problem is closest to Table 1's Glass row, and how the one we use ranks.

    Parameters
    ----------
    evidence : pandas.DataFrame
        :func:`~companion.experiments.paper01.glass_binarisation_evidence`'s table.
    used : str, default="float (1, 3) vs rest"
        The row of ``evidence`` that :data:`~companion.experiments.paper01._grids.DATASETS` uses.

    Returns
    -------
    companion.prose.Markdown
        The closest split by the summed distance over the three machines (ties: the first row),
        the runner-up, and the split closest on the SVM errors alone when it is another.
    """
    paper = paper_table1().loc["glass"]
    distance = evidence["distance_to_paper"]
    order = distance.sort_values(kind="stable")
    best, second = order.index[0], order.index[1] if len(order) > 1 else None
    svm_gap = (evidence["svm_errors"] - paper["svm_errors"]).abs().sort_values(kind="stable")
    used_text = ""
    if used in evidence.index and used != best:
        used_text = render_claim_text("glass_used_other", used=used, distance=distance[used])
    elif used == best:
        used_text = render_claim_text("glass_used_best", positives=evidence.loc[used, "positives"])
    svm_only = ""
    if svm_gap.index[0] != best:
        svm_only = render_claim_text("glass_svm_only", name=svm_gap.index[0], errors=evidence.loc[svm_gap.index[0], "svm_errors"],
                           best_errors=evidence.loc[best, "svm_errors"])
    return _md("glass", svm=paper["svm_errors"], scm=paper["scm_errors"], dlm=paper["dlm_errors"], best=best,
               distance=distance[best],
               runner_up="" if second is None else render_claim_text("glass_next", name=second, distance=distance[second]),
               used=used_text, svm_only=svm_only)


def penalty_valley_markdown(fine: dict, name: str = "pima", seed=None) -> "Markdown":
    """What :func:`figure_penalty_heatmap` shows on the paper's ball type, in numbers.

    Parameters
    ----------
    fine : dict
        :func:`fine_grid_protocol`'s result.
    name : str, default="pima"
        A data set of ``fine``.
    seed : int, optional
        A fold seed of ``fine`` (default: its first), as in the figure.

    Returns
    -------
    companion.prose.Markdown
        On the panel of the paper's DLM type: the ``p_p`` of the lowest total (ties: the smaller
        ``p_p``) beside the paper's, at how many values of ``p_n`` that ``p_p`` is the best one
        (the valley), the range ``p_n`` spans along it, and the range of the best totals across
        ``p_p``. Totals are error counts, so every comparison is exact.
    """
    totals, grid, paper = best_s_totals(fine, name, seed)
    types = [t[0] for t in grid.dlm_types]
    t = types.index(paper["dlm_T"]) if paper["dlm_T"] in types else 0
    panel = np.asarray(totals[t], dtype=float)  # (p_p, p_n)
    pens = np.asarray(grid.dlm_penalties, dtype=float)
    best_per_pp = panel.min(axis=1)
    row = int(np.argmin(best_per_pp))  # the first (smallest) p_p holding the lowest total
    in_valley = int(np.sum(np.argmin(panel, axis=0) == row))  # p_n columns whose best p_p is it
    valley = panel[row]
    return _md("valley", name=DISPLAY[name], type=grid.dlm_types[t], low=panel.min(), p_p=pens[row],
               paper_p_p=paper["dlm_p_p"], in_valley=in_valley, n_p_n=panel.shape[1], valley_low=valley.min(),
               valley_high=valley.max(), best_low=best_per_pp.min(), best_high=best_per_pp.max())
