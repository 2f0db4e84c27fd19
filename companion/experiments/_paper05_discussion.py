"""Notebook 05's discussion, generated from its result frames (re-exported by :mod:`companion.experiments.paper05`).

Every number and verdict the discussion quotes is read here from the frames the notebook shows
(:func:`~companion.experiments.paper05.summary_table`, ``matched_table``, ``claims_report``,
``gene_frequency``, ``margin_sweep``, ``occam_tradeoff``), so the prose cannot drift from the
results; what is argued around the numbers is fixed text.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from companion.claims import Markdown
from companion.experiments.paper05 import (
    COMPETITIVE_POINTS,
    NONTRIVIAL_BOUND,
    OCCAM_GENE,
    PRIORS,
    STUMP_VARIANTS,
    VARIANT_NAMES,
    Config,
)

#: How the discussion names the data sets and learners.
DATASET_NAMES = {"colon": "Colon", "leukemia_golub": "Leukaemia", "c_md": "C_MD", "breast_er": "BreastER",
                 "prostate": "Prostate", "lung_gordon": "Lung", "all_bioc": "ALL"}
LEARNER_NAMES = {"sc": "SC", "occam": "Occam", "pac_bayes": "PAC-Bayes"}
#: The claims engine's variant names, as the discussion words them.
RANGE_WORDS = {VARIANT_NAMES["declared"]: "the declared range",
               VARIANT_NAMES["per_gene"]: "each gene's whole-data extremes",
               VARIANT_NAMES["global"]: "the data's global extremes"}


def _names(keys) -> str:
    """``a``, ``a and b``, ``a, b and c`` of the data sets ``keys`` (in the given order)."""
    words = [DATASET_NAMES.get(k, k) for k in keys]
    if not words:
        return "none"
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _span(values, digits=0, unit="") -> str:
    """``low–high`` of ``values`` rounded to ``digits`` (one number when they agree)."""
    low, high = (f"{v:.{digits}f}" for v in (np.min(values), np.max(values)))
    return f"{low}{unit}" if low == high else f"{low}–{high}{unit}"


def _verdicts(report) -> pd.DataFrame:
    """id × variant verdict table of ``report`` (main variant first)."""
    table = report.sensitivity.pivot(index="id", columns="variant", values="verdict")
    return table[list(dict.fromkeys(report.sensitivity["variant"]))]


def _genes(summary, config) -> str:
    stumps = summary[summary["learner"].isin(STUMP_VARIANTS) & (summary["k"] == 0)
                     & summary["prior"].isin(["declared"])]
    return (f"**Much smaller number of genes.** Guaranteed by the setup rather than found: the stump learners stop "
            f"at {config.s_max} stumps (they choose {_span(stumps['genes'], 1)} genes on average), SVM-RFE keeps "
            f"{config.rfe_genes} genes and the SVM all of them. The claim that can fail is accuracy *at* few genes.")


def _accuracy(report, folds) -> str:
    table = report.table.set_index("id")
    acc = table[table.index.str.startswith("acc-")]
    sets = acc.index.str.removeprefix("acc-")
    holds = sets[acc["verdict"] == "holds"]
    undecided = acc[acc["verdict"] == "undecided"]
    fails = sets[acc["verdict"] == "fails"]
    sizes = folds.groupby("dataset")[["n_train", "n_test"]].first().sum(axis=1)
    text = (f"**Competitive accuracy, all genes (acc-⟨set⟩).** Against the best competitor on all genes the engine "
            f"confirms the claim on {_names(holds)}")
    if len(undecided):
        width = undecided["ci_high"] - undecided["ci_low"]
        text += (f"; {len(undecided)} of the {len(acc)} sets are undecided: their corrected 95 % intervals are "
                 f"{_span(width)} points wide, so {report.table.loc[report.table['id'] == undecided.index[0], 'n'].iloc[0]:.0f} "
                 f"folds of {_span(sizes.reindex(sets))} examples rarely settle a {COMPETITIVE_POINTS:.0f}-point margin")
    worse = sets[(acc["ci_low"] > 0) & (acc["verdict"] != "fails")]
    ahead = sets[acc["estimate"] < 0]
    text += "."
    if len(worse):
        text += (f" On {_names(worse)} the best stump learner is worse than the best competitor (the interval excludes "
                 f"0) but not shown to be more than {COMPETITIVE_POINTS:.0f} points worse.")
    if len(ahead):
        text += f" On {_names(ahead)} it is ahead on average."
    text += f" {'None fails' if not len(fails) else 'It fails on ' + _names(fails)}."
    return text


def _matched(report, matched) -> str:
    table = report.table.set_index("id")
    ks = sorted({int(i.split("-")[0][1:]) for i in table.index if i[:1] == "k" and i[1:2].isdigit()})
    claims = table[[i[:1] == "k" and i[1:2].isdigit() for i in table.index]]
    verdicts = _verdicts(report)
    one = matched[matched["k"] == min(ks)]["difference"] if ks else pd.Series(dtype=float)
    text = ("**Competitive accuracy at matched sparsity (k⟨k⟩-⟨set⟩).** Restricted to the same number of genes, "
            "the competitors lose most of their edge")
    if len(one):
        text += (f": with {min(ks)} gene the best stump learner is within {np.abs(one).max():.1f} points of the best "
                 f"{min(ks)}-gene competitor on every set (difference {one.min():+.1f} to {one.max():+.1f})")
    n_fail = int((claims["verdict"] == "fails").sum())
    text += (", and no matched claim fails." if not n_fail else
             f", and {n_fail} matched claim{' fails' if n_fail == 1 else 's fail'}.")
    held = claims[claims["verdict"] == "holds"]
    by_set: dict = {}
    for claim_id in held.index:
        k, name = claim_id.split("-", 1)
        by_set.setdefault(name, []).append(k[1:])
    parts = []
    for name, found in by_set.items():
        ids = [f"k{k}-{name}" for k in found]
        robust = all((verdicts.loc[i] == "holds").all() for i in ids)
        parts.append(f"{DATASET_NAMES.get(name, name)} (k = {', '.join(found)}"
                     + ("" if robust else ", with the declared range only") + ")")
    if parts:
        text += f" The engine confirms it on {' and on '.join(parts)}; the rest are undecided."
    else:
        text += " Every matched claim is undecided."
    text += (" The data support \"a well-chosen gene or two is about as accurate whichever learner chooses it\", not an "
             "advantage of the stump learners.")
    return text


def _bounds(report, summary) -> str:
    main = summary[summary["learner"].isin(STUMP_VARIANTS) & (summary["k"] == 0) & (summary["prior"] == "declared")]
    main = main.set_index(["dataset", "learner"])
    is_pac = main.index.get_level_values("learner") == "pac_bayes"
    bound = main["bound_%"].where(~is_pac, main["gibbs_bound_%"])
    error = main["cv_error_%"].where(~is_pac, main["gibbs_error_%"])
    gap = bound - error
    table = report.table.set_index("id")
    above = table.loc["bounds-above", "verdict"] == "holds"
    below_all = [LEARNER_NAMES[v] for v in STUMP_VARIANTS if table.loc[f"nontrivial-{v}", "verdict"] == "holds"]
    text = (f"**Tight risk guarantees.** Every mean bound lies {'above' if above else 'not always above'} the error it "
            f"guarantees (by {_span(gap)} points; PAC-Bayes: the Gibbs bound over the Gibbs error)"
            + (", so the bounds hold on these folds; " if above else "; "))
    text += ("none of the three is" if not below_all else f"{', '.join(below_all)} {'is' if len(below_all) == 1 else 'are'}")
    text += f" below {NONTRIVIAL_BOUND:.0f} % on every set."
    order = list(dict.fromkeys(summary["dataset"]))
    for learner in ("sc", "occam"):
        values = main.xs(learner, level="learner")["bound_%"].reindex(order)
        good = values.index[values < NONTRIVIAL_BOUND]
        text += (f" {LEARNER_NAMES[learner]}'s bound is below {NONTRIVIAL_BOUND:.0f} % on {_names(good)}"
                 f" ({_span(values[good], 1, ' %')})." if len(good) else
                 f" {LEARNER_NAMES[learner]}'s bound is {NONTRIVIAL_BOUND:.0f} % or more on every set.")
    pac = main.xs("pac_bayes", level="learner").reindex(order)
    saturated = pac.index[pac["bound_%"] >= 100.0]
    if len(saturated):
        text += (f" The Bayes vote's guarantee, twice the Gibbs bound, is 100 % on {_names(saturated)}; the Gibbs bound "
                 f"itself is {_span(pac.loc[saturated, 'gibbs_bound_%'], 1, ' %')} there.")
    text += (" \"Tight\" holds relative to what a bound over thousands of genes could be — the "
             "$\\ln\\binom{n}{|\\mathbf{k}|}$ price of a few genes — not in absolute terms.")
    return text


def _prior_range(report, summary, frequency) -> str:
    verdicts = _verdicts(report)
    main_name = VARIANT_NAMES["declared"]
    others = [c for c in verdicts.columns if c != main_name]
    main = summary[summary["learner"].isin(STUMP_VARIANTS) & (summary["k"] == 0) & (summary["prior"] == "declared")]
    bounds = main.pivot(index="dataset", columns="learner", values="bound_%").reindex(
        index=list(dict.fromkeys(summary["dataset"])))
    beaten = bounds.index[bounds[["sc", "pac_bayes"]].min(axis=1) < bounds["occam"]]
    tightest = verdicts.loc["occam-tightest"] if "occam-tightest" in verdicts.index else None
    text = "**What the prior range changes.** With the declared range, Occam's bound "
    if tightest is not None:
        text += ("is the tightest of the three on every set" if tightest[main_name] == "holds" else
                 f"is *not* the tightest of the three on every set (another learner's is lower on {_names(beaten)})")
        same = [c for c in others if tightest[c] == tightest[main_name]]
        flipped = [c for c in others if tightest[c] != tightest[main_name]]
        if flipped:
            text += "; " + "; ".join(f"with {RANGE_WORDS[c]} it {tightest[c]}" for c in flipped)
        if same:
            text += "; " + "; ".join(f"with {RANGE_WORDS[c]} it also {tightest[c]}" for c in same)
        text += "."
    leuk = frequency[(frequency["dataset"] == "leukemia_golub") & (frequency["learner"] == "occam")]
    if len(leuk):
        top = leuk.iloc[0]
        stable = verdicts.loc["occam-stable"]
        text += (f" Occam's most frequent gene on Leukaemia with the declared range is {top['gene']} "
                 f"({int(top['folds'])} of {int(top['of folds'])} folds); the stability claim "
                 + ", ".join(f"{v} with {RANGE_WORDS[c]}" for c, v in stable.items()) + ".")
        gene = verdicts.loc["occam-gene"]
        chosen_with = [c for c, v in gene.items() if v == "holds"]
        text += (f" {OCCAM_GENE} is chosen in most folds with {' and '.join(RANGE_WORDS[c] for c in chosen_with)} only."
                 if chosen_with else f" {OCCAM_GENE} is not chosen in most folds under any range.")
    empty = main[(main["learner"] == "occam") & (main["genes"] == 0)]["dataset"]
    if len(empty):
        text += f" On {_names(empty)} the declared range makes Occam return the empty conjunction on every fold."
    accuracy = [i for i in verdicts.index if i.startswith("acc-") or (i[:1] == "k" and i[1:2].isdigit())]
    moved = [i for i in accuracy if verdicts.loc[i].nunique() > 1]
    text += (f" Of the {len(accuracy)} accuracy verdicts, {len(moved)} move with the range"
             + (f" ({', '.join(moved)})" if moved else "") + "; ")
    occam_ids = [i for i in verdicts.index if i.startswith("occam-")]
    occam_moved = [i for i in occam_ids if verdicts.loc[i].nunique() > 1]
    text += (f"{len(occam_moved)} of the {len(occam_ids)} statements about Occam's bound and genes do"
             + (f" ({', '.join(occam_moved)})." if occam_moved else "."))
    return text


def _tradeoffs(sweep, tradeoff, config) -> str:
    text = "**Trade-offs.**"
    if len(sweep):
        paths = sweep[sweep["stumps"] > 0]
        best = paths.loc[paths.groupby("gap")["gibbs_bound"].idxmin()]
        stumps = sorted(set(best["stumps"]))
        overall = best.loc[best["gibbs_bound"].idxmin()]
        protocol = best[best["gap"].isin(config.margin_gaps)]
        wider = best[best["gap"] > max(config.margin_gaps)]
        text += (f" On the full Leukaemia set the PAC-Bayes Gibbs bound is smallest with "
                 f"{' or '.join(str(int(s)) for s in stumps)} stump{'' if stumps == [1] else 's'} at every margin width; "
                 f"its minimum, {100 * overall['gibbs_bound']:.1f} %, is at width {int(overall['gap'])}")
        if len(wider) and len(protocol):
            pays = wider["gibbs_bound"].min() < protocol["gibbs_bound"].min()
            text += (f", and {'a' if pays else 'no'} margin wider than the protocol's "
                     f"({', '.join(str(g) for g in config.margin_gaps)}) pays")
        text += "."
    if len(tradeoff):
        paths = tradeoff[tradeoff["stumps"] > 0]
        best = paths.loc[paths.groupby("eta")["bound"].idxmin()].set_index("eta")
        winners = best.index[np.isclose(best["bound"], best["bound"].min(), rtol=1e-12, atol=0)]
        row = best.loc[winners[0]]
        at = best.loc[config.eta] if config.eta in best.index else None
        text += (f" The Occam bound is smallest at $\\eta$ = {', '.join(f'{e:g}' for e in winners)} "
                 f"({100 * row['bound']:.1f} %: {int(row['stumps'])} stump{'' if row['stumps'] == 1 else 's'}, "
                 f"{int(row['code bits'])} code bits, {int(row['training errors'])} training errors)")
        if at is not None:
            if config.eta in winners:
                text += f", which includes the protocol's $\\eta$ = {config.eta:g}."
            else:
                text += (f"; at the protocol's $\\eta$ = {config.eta:g} the greedy takes {int(at['code bits'])} code bits "
                         f"with {int(at['training errors'])} training errors ({100 * at['bound']:.1f} %), "
                         "so the fixed $\\eta$ is not the bound's best.")
        else:
            text += "."
    return text


def discussion(report, summary, matched, frequency, sweep, tradeoff, folds, config=None) -> Markdown:
    """Notebook 05's discussion, one paragraph per claim, every quoted number read from the results.

    Parameters
    ----------
    report : companion.claims.ClaimsReport
        :func:`~companion.experiments.paper05.claims_report` of ``folds``.
    summary : pandas.DataFrame
        :func:`~companion.experiments.paper05.summary_table` of ``folds``.
    matched : pandas.DataFrame
        :func:`~companion.experiments.paper05.matched_table` of ``folds``.
    frequency : pandas.DataFrame
        :func:`~companion.experiments.paper05.gene_frequency` of ``folds``.
    sweep : pandas.DataFrame
        :func:`~companion.experiments.paper05.margin_sweep` (Leukaemia).
    tradeoff : pandas.DataFrame
        :func:`~companion.experiments.paper05.occam_tradeoff` (Leukaemia).
    folds : pandas.DataFrame
        :func:`~companion.experiments.paper05.run`'s frame (fold sizes).
    config : Config, optional
        The protocol that produced them (default ``Config()``): caps, grids, the fixed ``η``.

    Returns
    -------
    companion.claims.Markdown
        The paragraphs: genes, accuracy on all genes, at matched sparsity, the bounds, the prior
        range, the trade-offs.
    """
    config = Config() if config is None else config
    paragraphs = [_genes(summary, config), _accuracy(report, folds), _matched(report, matched),
                  _bounds(report, summary)]
    if set(PRIORS[1:]) & set(summary["prior"]):
        paragraphs.append(_prior_range(report, summary, frequency))
    paragraphs.append(_tradeoffs(sweep, tradeoff, config))
    return Markdown("\n\n".join(paragraphs))
