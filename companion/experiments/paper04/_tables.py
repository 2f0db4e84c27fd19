"""Notebook 04's tables: the summary of :func:`run`'s frame, the paper-vs-ours comparison, the
peers' tables and the sensitivity and cells summaries.
"""

from __future__ import annotations

import statistics
from fractions import Fraction

import numpy as np
import pandas as pd

from companion.experiments.protocol import check_tidy
from companion.experiments.paper04._protocol import FOLDS_COLUMNS, WIDC_LEARNERS
from companion.experiments.paper04._peers import CLAIM_PEERS, MAJORITY, PEER_LEARNERS


def folds_table(results: pd.DataFrame) -> pd.DataFrame:
    """:func:`run`'s frame in the layout of ``figures/04_benchmark_folds.csv``: :data:`FOLDS_COLUMNS`.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`FOLDS_COLUMNS` (``method`` named ``learner``).
    """
    return _learner_view(results)[FOLDS_COLUMNS].reset_index(drop=True)


def _learner_view(results: pd.DataFrame) -> pd.DataFrame:
    """``results`` with the tidy ``method`` column named ``learner``, as the tables name it, and
    the test error rate ``error = errors / n_test`` (a fraction) beside the counts.

    Every builder takes :func:`run`'s tidy frame (or it with :func:`peer_results`' and
    :func:`majority_results`', concatenated), and only that: :func:`check_tidy` refuses any
    other layout (such as :func:`folds_table`'s).
    """
    view = check_tidy(results).rename(columns={"method": "learner"})
    return view.assign(error=view["errors"] / view["n_test"])


def summary_table(results: pd.DataFrame) -> pd.DataFrame:
    """Table 1 layout: per data set and learner, mean error (%), its std over folds, rules, literals.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame (with :func:`peer_results`' and :func:`majority_results`', concatenated).

    Returns
    -------
    pandas.DataFrame
        Index: data set; columns ``(learner, quantity)``.
    """
    grouped = _learner_view(results).groupby(["dataset", "learner"], sort=False)
    table = pd.DataFrame(
        {
            "error %": grouped["error"].mean() * 100,
            "std %": grouped["error"].std(ddof=1) * 100,
            "rules": grouped["rules"].mean(),
            "literals": grouped["literals"].mean(),
        }
    )
    return table.unstack("learner").swaplevel(axis=1).sort_index(axis=1, level=0, sort_remaining=False)


def per_dataset(results, quantity):
    return _learner_view(results).groupby(["dataset", "learner"], sort=False)[quantity].mean().unstack("learner")


def exact_per_dataset(results, quantity):
    """:func:`per_dataset` in exact rational arithmetic (a frame of :class:`fractions.Fraction`).

    A fold's ``error`` is the fraction ``errors / n_test`` of its two counts; ``rules`` and
    ``literals`` are integers. Means over folds are then exact, so that equal mean errors compare
    equal (a float mean of rates with different fold sizes may differ in its last bit).
    """
    view = _learner_view(results)
    if quantity == "error":
        values = [Fraction(int(e), int(n)) for e, n in zip(view["errors"], view["n_test"])]
    else:
        values = [Fraction(int(v)) for v in view[quantity]]
    cells = {}
    for key, value in zip(zip(view["dataset"], view["learner"]), values):
        cells.setdefault(key, []).append(value)
    series = pd.Series({key: sum(v, Fraction(0)) / len(v) for key, v in cells.items()}, dtype=object)
    series.index = pd.MultiIndex.from_tuples(series.index, names=["dataset", "learner"])
    return series.unstack("learner")


def _mean(values):
    """Exact mean of a sequence of fractions."""
    values = list(values)
    return sum(values, Fraction(0)) / len(values)


# --------------------------------------------------------------------------------------------
# Paper-vs-ours numbers, the partition illustration and the figures
# --------------------------------------------------------------------------------------------


def paper_comparison(results: pd.DataFrame, stand_in: str = "CN2") -> pd.DataFrame:
    """The paper's numeric statements that have a like-for-like number of ours.

    ``vote0_literal_ratio`` (CN2-POE literals / WIDC(o) literals on Vote0) is computed with
    ``stand_in``, which must be a CN2 (default: Orange3's ordered ``CN2``, the decision-list
    learner of the paper's family; CN2-POE itself is not available). Echo is not among our data
    sets, so its rows stay NaN. The number of domains is not a comparison (the paper's 31 vs the
    17 we have): it is in :func:`paper_context`, not here.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame (with :func:`peer_results`' and :func:`majority_results`', concatenated).
    stand_in : str, default="CN2"
        The CN2 run standing in for CN2-POE.

    Returns
    -------
    pandas.DataFrame
        :func:`companion.evaluation.comparison_table`'s columns.
    """
    from companion.evaluation import comparison_table
    from companion.paper_numbers import paper_table

    if not str(stand_in).startswith("CN2"):
        raise ValueError(f"stand_in must be a CN2 learner (the paper compares with CN2-POE), got {stand_in!r}")
    claims = paper_table("04_claims").set_index("key")
    numeric = claims["value"].dropna().astype(float).drop("n_domains")
    literals = per_dataset(results, "literals")
    ours = pd.Series(np.nan, index=numeric.index)
    ours["n_folds"] = results.groupby("dataset")["fold"].nunique().max()
    if "votes" in literals.index and stand_in in literals.columns:
        ours["vote0_literal_ratio"] = literals.loc["votes", stand_in] / literals.loc["votes", "WIDC(o)"]
    return comparison_table(numeric, ours)


def paper_context(results: pd.DataFrame) -> pd.DataFrame:
    """What the paper ran and what we ran, side by side as text (not a paper/ours/difference row).

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame (with :func:`peer_results`' and :func:`majority_results`', concatenated).

    Returns
    -------
    pandas.DataFrame
    """
    from companion.paper_numbers import paper_table

    claims = paper_table("04_claims").set_index("key")
    learners = sorted(set(_learner_view(results)["learner"]) - set(WIDC_LEARNERS.values()))
    return pd.DataFrame(
        {"paper": [f"{int(claims.loc['n_domains', 'value'])} domains (mostly UCI; the list is in the lost Table 1)",
                   "C4.5, CN2-POE (and other DT/DL/DC learners in Table 1)"],
         "ours": [f"{results['dataset'].nunique()} UCI data sets we vendor",
                  ", ".join(learners)]},
        index=pd.Index(["domains", "other learners"], name="context"))


def pattern_cells(n_monomials: int) -> tuple[int, int]:
    """Cells realised by ``t`` monomials ``x_1 .. x_t`` on ``{0,1}^t`` versus a tree with ``t`` leaves.

    Returns ``(cells of the committee, cells of the tree)``: ``2^t`` satisfaction patterns against
    ``t`` leaves (paper, "Partition Boosting": O(2^t) subsets with t monomials, t with a tree).

    Parameters
    ----------
    n_monomials : int
        ``t``.

    Returns
    -------
    committee, tree : int
    """
    from companion._partition_boosting import pattern_codes

    points = np.array(list(np.ndindex(*(2,) * n_monomials)), dtype=bool)
    committee = len(np.unique(pattern_codes(points)))
    # The tree "x1 ? leaf : (x2 ? leaf : ...)" has t leaves: one per first true variable, or none.
    first_true = np.where(points.any(axis=1), points.argmax(axis=1), n_monomials - 1)
    return committee, len(np.unique(first_true))


def peer_claims_table(results: pd.DataFrame, others=PEER_LEARNERS) -> pd.DataFrame:
    """Claim 3 ("no accuracy traded for simplicity") against each peer, paired over data sets.

    For WIDC(p) and WIDC(o) against each learner of ``others``: the mean over data sets of the
    error difference (points, exact fractions), win/tie/loss counts of the per-data-set mean
    errors and the median literal ratio other / WIDC. Only data sets where both learners ran are
    paired. A description, not a test: the tests are :func:`claims_family`'s (Holm-corrected).

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame (with :func:`peer_results`' and :func:`majority_results`', concatenated).
    others : tuple of str
        The peers.

    Returns
    -------
    pandas.DataFrame
        One row per (WIDC variant, other).
    """
    error = exact_per_dataset(results, "error")
    literals = exact_per_dataset(results, "literals")
    rows = []
    for widc in ("WIDC(p)", "WIDC(o)"):
        for other in [o for o in others if o in error.columns]:
            both = error[[widc, other]].dropna().index
            difference = [error.loc[n, widc] - error.loc[n, other] for n in both]
            ratio = statistics.median(literals.loc[n, other] / max(literals.loc[n, widc], 1) for n in both)
            rows.append({
                "WIDC": widc, "other": other, "data sets": len(both),
                "mean error difference (points)": float(_mean(difference) * 100),
                "wins/ties/losses": f"{sum(d < 0 for d in difference)}/{sum(d == 0 for d in difference)}/"
                                    f"{sum(d > 0 for d in difference)}",
                "median literal ratio other/WIDC": float(ratio),
            })
    return pd.DataFrame(rows)


def error_with_std(results: pd.DataFrame, learners=None) -> pd.DataFrame:
    """Per data set and learner, ``"mean ± std"`` of the fold test errors (%, one decimal).

    The standard deviation is over the folds (``ddof=1``), as :func:`summary_table`'s ``std %``.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame (with :func:`peer_results`' and :func:`majority_results`', concatenated).
    learners : sequence of str, optional
        Columns, in this order (default: all).

    Returns
    -------
    pandas.DataFrame
    """
    grouped = _learner_view(results).groupby(["dataset", "learner"], sort=False)["error"]
    mean = (grouped.mean() * 100).unstack("learner")
    std = (grouped.std(ddof=1) * 100).unstack("learner")
    learners = list(mean.columns) if learners is None else [l for l in learners if l in mean.columns]
    table = pd.DataFrame(index=mean.index)
    for learner in learners:
        table[learner] = [f"{m:.1f} ± {s:.1f}" if np.isfinite(m) else "" for m, s in zip(mean[learner], std[learner])]
    return table


def sensitivity_summary(sensitivity: pd.DataFrame) -> pd.DataFrame:
    """Per ``c_KM``: mean over data sets of the mean test error (%), rules and literals.

    Also the number of data sets whose mean error is at most that of ``c_KM = 0`` (exact integer
    counts; every data set has the same folds for every constant).

    Parameters
    ----------
    sensitivity : pandas.DataFrame
        :func:`optimistic_sensitivity`'s table.

    Returns
    -------
    pandas.DataFrame
        One row per ``c_KM``.
    """
    per = sensitivity.groupby(["strength", "dataset"]).agg(errors=("errors", "sum"), n_test=("n_test", "sum"),
                                                           rules=("rules", "mean"), literals=("literals", "mean"))
    per["error %"] = 100 * per["errors"] / per["n_test"]
    zero = per.xs(0.0, level="strength")["errors"]
    table = per.groupby("strength")[["error %", "rules", "literals"]].mean()
    table["data sets no worse than c_KM=0"] = [
        int((per.xs(s, level="strength")["errors"] <= zero).sum()) for s in table.index
    ]
    return table


def cells_table(sensitivity: pd.DataFrame) -> pd.DataFrame:
    """Per data set: |LS|, grown rules t, the grown committee's cells, ``min(2^t, |LS|)``, WIDC(o)'s cells.

    |LS| is the mean training fold; WIDC(o) at ``c_KM = 0``; means over folds.

    Parameters
    ----------
    sensitivity : pandas.DataFrame
        :func:`optimistic_sensitivity`'s table.

    Returns
    -------
    pandas.DataFrame
        One row per data set.
    """
    first = sensitivity[sensitivity["strength"] == sensitivity["strength"].min()]
    table = first.groupby("dataset", sort=False).agg(**{
        "|LS|": ("n_train", "mean"), "grown rules t": ("grown_rules", "mean"),
        "cells (grown)": ("grown_cells", "mean"), "cells (WIDC(o))": ("cells", "mean")})
    bound = [float(np.mean([min(2.0 ** t, n) for t, n in zip(g["grown_rules"], g["n_train"])]))
             for _, g in first.groupby("dataset", sort=False)]
    table.insert(3, "min(2^t, |LS|)", bound)
    table["cells / |LS|"] = table["cells (grown)"] / table["|LS|"]
    return table


#: The variants whose columns of :func:`sensitivity_pivot` carry each row's estimate and Holm p
#: beside its verdict: the alternative margins and tie readings (the family's Holm correction
#: decides them) and the structures of our optimistic pass (their estimates are the results).
DETAILED_VARIANTS = ("margin=", "ties=", "surrogate=")


def _estimate_text(kind: str, digits: int, estimate: float, wins, n) -> str:
    """One estimate as the claims table states it: a ratio ``×0.59``, a share ``10/17`` (its wins
    over its data sets), a difference with its sign (``+1.99``)."""
    if estimate is None or not np.isfinite(float(estimate)):
        return "n/a"
    if kind == "ratio":
        return f"×{estimate:.{digits}f}"
    if kind == "proportion":
        return f"{int(wins)}/{int(n)}"
    return f"{estimate:+.{digits}f}"


def deciding_p(verdict: str, p_holm: float, p_fail_holm: float) -> float:
    """The Holm-corrected one-sided p of the test that decides ``verdict``.

    A claim **holds** when the test of "claim false" rejects, **fails** when the test of "claim
    true" does (the engine's two one-sided tests, Holm within the row's family); an undecided
    row is shown with the p of the test for the claim, the one a looser margin or another tie
    reading would have to bring below α.

    Parameters
    ----------
    verdict : str
        The row's verdict under the variant.
    p_holm, p_fail_holm : float
        The Holm-corrected p of the test for the claim and of the test against it.

    Returns
    -------
    float
        ``p_fail_holm`` for ``fails``, else ``p_holm`` (NaN when the row was not tested).
    """
    return p_fail_holm if verdict == "fails" else p_holm


def sensitivity_pivot(report) -> pd.DataFrame:
    """Verdict of every claim (rows) under every protocol variant (columns), from ``report.sensitivity``.

    An observation's cell is its estimate under the variant (``observed: +1.99``; the sentence
    of Nock 2002 it reads has no verdict of ours). In the columns of :data:`DETAILED_VARIANTS`
    and in ``main``, a tested row's verdict is followed by its estimate and the Holm-corrected p
    of the test that decides it (:func:`deciding_p`), so a flip under a margin, a tie reading or
    a structure of our optimistic pass can be checked in the table itself.

    Parameters
    ----------
    report : companion.claims.ClaimsReport
        :func:`claims_report`.

    Returns
    -------
    pandas.DataFrame
        Index ``id``; one column per variant (``main`` first), each cell a string.
    """
    long = report.sensitivity
    digits = report.table.set_index("id")["digits"].fillna(2)
    estimates = [_estimate_text(k, int(digits[i]), e, w, n)
                 for i, k, e, w, n in zip(long["id"], long["kind"], long["estimate"], long["wins"], long["n"])]
    p = [deciding_p(v, ph, pf) for v, ph, pf in zip(long["verdict"], long["p_holm"], long["p_fail_holm"])]
    detailed = long["variant"].eq("main") | long["variant"].str.startswith(DETAILED_VARIANTS)
    shown = long["role"].isin(["main", "varies", "unchanged"])
    cells = []
    for verdict, estimate, p_value, detail, show in zip(long["verdict"], estimates, p, detailed, shown):
        if verdict == "observed":
            cells.append(f"observed: {estimate}" if show and estimate != "n/a" else verdict)
        elif detail and show and np.isfinite(p_value):
            cells.append(f"{verdict} ({estimate}; p {'< 0.001' if p_value < 0.001 else f'{p_value:.3f}'})")
        else:
            cells.append(verdict)
    table = long.assign(cell=cells).pivot(index="id", columns="variant", values="cell")
    return table.reindex(index=list(report.table["id"]), columns=list(dict.fromkeys(long["variant"])))


def polarity_table(results: pd.DataFrame, polarity_gt: pd.DataFrame) -> pd.DataFrame:
    """Mean test error (%) of WIDC() and WIDC(p) with ``[A <= theta]`` (``le``) and ``[A > theta]`` (``gt``).

    One row per data set of ``polarity_gt`` (the data sets with a numeric attribute); columns
    ``(learner, polarity)``, the layout of :func:`polarity_ablation`.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame (``numeric_literal="le"``).
    polarity_gt : pandas.DataFrame
        :func:`run`'s tidy frame with ``numeric_literal="gt"``.

    Returns
    -------
    pandas.DataFrame
    """
    columns = {}
    for learner in ("WIDC()", "WIDC(p)"):
        for polarity, frame in (("le", results), ("gt", polarity_gt)):
            columns[(learner, polarity)] = per_dataset(frame, "error")[learner] * 100
    names = list(dict.fromkeys(_learner_view(polarity_gt)["dataset"]))
    table = pd.DataFrame(columns).reindex(names)
    table.columns = pd.MultiIndex.from_tuples(table.columns, names=["learner", "polarity"])
    table.index.name = "dataset"
    return table


def peer_tables(variants: dict, others=CLAIM_PEERS + (MAJORITY,)) -> pd.DataFrame:
    """:func:`peer_claims_table` of WIDC(p) under each protocol variant ``{name: frame}``, stacked with a ``variant`` column.

    Parameters
    ----------
    variants : dict
        :func:`claims_variants`.
    others : tuple of str, default=:data:`CLAIM_PEERS` + (:data:`MAJORITY`,)
        The peers.

    Returns
    -------
    pandas.DataFrame
    """
    parts = []
    for name, frame in variants.items():
        table = peer_claims_table(frame, others=others)
        parts.append(table[table["WIDC"] == "WIDC(p)"].drop(columns="WIDC").assign(variant=name))
    table = pd.concat(parts, ignore_index=True)
    return table[["variant"] + [c for c in table.columns if c != "variant"]]
