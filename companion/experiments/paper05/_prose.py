"""Notebook 05's discussion, rendered from templates and its result frames: every number, direction
and verdict it states is a field of a template in :data:`TEMPLATES` (or of a claim's ``discussion``
in ``registry/paper05.toml``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import validate_params

from companion.claims import ClaimsReport
from companion.prose import Markdown, render
from companion.experiments.paper05._protocol import DATASET_NAMES, Config, PRIORS, STUMP_VARIANTS
from companion.experiments.paper05._variants import COMPETITOR_VARIANTS, VARIANT_NAMES
from companion.experiments.paper05._tables import accuracy_by_learner, chosen_summary, per_fold
from companion.experiments.paper05._claims import NONTRIVIAL_BOUND


# --------------------------------------------------------------------------------------------
# Notebook 05's discussion, rendered from templates and its result frames: every number, direction
# and verdict it states is a field of a template in TEMPLATES (or of a claim's ``discussion`` in
# registry/paper05.toml), so the prose cannot drift from the results of any seed.
# --------------------------------------------------------------------------------------------

#: The discussion's sentences; each field is filled from the results by :func:`discussion`.
TEMPLATES = {
    "choices": (
        "**Who was chosen.** Over every data set and fold, pooled over the four sparsity levels (unrestricted and "
        "k = 1, 2, 3: each fold counted once per level; the matched table gives the choices per data set and k), "
        "the smallest training-fold bound chose {stumps:list} on the stump side; the inner folds chose "
        "{competitors:list} among the competitors (the linear SVM on all genes and NSC are eligible only "
        "unrestricted). Neither choice reads a test fold. {outside:pct.0} of these competitor choices went to "
        "learners Section I does not name (the linear SVM, L1-logistic regression, AdaBoost on stumps): the "
        "k-rows are checks of ours against the competitors we run, not against a peer of the paper or a "
        "published number (none survives)."
    ),
    "matched_rule": (
        "**Which k-rows are tests at matched sparsity.** A k-row gets a verdict word only when its stump side "
        "reads exactly k genes on at least half of its folds (the greedy may stop earlier; the competitor reads "
        "k) and its fold differences are not those of the row at k − 1; the other k-rows are shown as "
        "observations. {tested:plural row} pass{tested_s} the rule ({agree} agree, {agree_fragile} of them not "
        "robust; {undecided} undecided, {undecided_fragile} of them not robust ({undecided_ids:list}); {other} "
        "otherwise) on {sets:plural data set}; the rows of one data set share its folds and are not independent of "
        "each other. Each is a one-sided corrected t at α = {alpha:g} after Holm over these {tested} rows (the "
        "two-sided {level:pct.0} interval beside it). Shown without a verdict word: {shown:list}."
    ),
    "same_as": (
        "; its fold differences are those of {below} on every fold (allowing k = {k} stumps changes no fold): the "
        "same comparison counted again, not a separate test of matched sparsity at k = {k}"
    ),
    "fewer_genes": (
        "; its stump side reads {k} genes on {at_k} of the {n} folds ({genes:.1f} on average against the "
        "competitor's {k}): fewer than half, so not a comparison at matched sparsity (no verdict word)"
    ),
    "pac_bayes_k": (
        "**PAC-Bayes at matched sparsity.** The protocol's composite never chooses PAC-Bayes (its Bayes-vote "
        "bound is twice its Gibbs bound), so under the paper-less main rule the k-rows judge SC and Occam only; "
        "the selection variants (`select=…`) judge each learner alone and PAC-Bayes by its Gibbs bound. "
        "PAC-Bayes (Bayes vote) alone minus the competitor, mean per-fold difference in points per data set "
        "(table `by_learner`): {rows}."
    ),
    "bounds": (
        "**Guarantees.** The mean training-fold bound is below {limit:.0f} % on {sc:plural data set} for SC, "
        "{occam:plural data set} for Occam and {pac:plural data set} for the PAC-Bayes Bayes vote, out of {n}; "
        "the Gibbs bound itself ranges from {gibbs_low:.1f} % to {gibbs_high:.1f} %. Each mean bound exceeds the "
        "CV error it guarantees by {gap_low:.1f} to {gap_high:.1f} points: with thousands of genes to pay for, far "
        "from tight. Folds of one data set are not independent samples, so this is no test of validity; the "
        "coverage simulation on two known distributions (sanity checks coverage-sc, coverage-occam, "
        "coverage-pac_bayes) can find a violation there, not establish validity."
    ),
    "composite": (
        "**The learner with the smallest bound.** On each fold the smallest training-fold bound picks one of the "
        "three learners (the composite of the matched-sparsity checks at k ≥ 1). Unrestricted, that composite is "
        "the empty conjunction (the majority class, 0 genes) on {empty:list}: there it judges no learner the paper "
        "names, so the accuracy observations acc-sc, acc-occam and acc-pac_bayes compare each learner with the "
        "competitor separately, and the composite is only shown beside them (table `by_learner`)."
    ),
    "empty": (
        "With the declared range, Occam keeps the empty conjunction (the majority class) in {share:pct.0} of the "
        "folds of {names:list}: there a threshold coded relative to the declared range costs more than it saves."
    ),
    "identical": (
        "**Identical sides.** Matched-sparsity claims on which both sides make exactly the same errors on every "
        "fold: {ids:list} ({count} in all). The engine reports them as identical, a statement about the data (a "
        "gene or two separate the classes whoever picks them), not a verdict for the stump learners."
    ),
    "no_identical": "**Identical sides.** No matched-sparsity claim has a zero difference on every fold.",
    "sensitivity": (
        "**Variants.** Of the {judged:plural row} with a verdict word, {range_count} change verdict with the prior "
        "range taken from the whole data ({range_ids:list}; sensitivity runs, not defensible values: that range "
        "reads every example, test folds included, so it is no valid prior and its bounds are not bounds), "
        "{declared_count} with another data-independent declared range (the 20-bit envelope for the raw sets, or "
        "the second reading of each file's definition: Colon [0, 2^18], BreastER ±2^7, ALL [0, 20]) "
        "({declared_ids:list}), "
        "{seed_count} with the fold seed ({seed_ids:list}), {choice_count} with a free "
        "choice of the stump learners (η, Occam's and PAC-Bayes' p, the prefilter) ({choice_ids:list}), "
        "{select_count} with the rule that picks the stump learner of a fold (each learner alone, PAC-Bayes by "
        "its Gibbs bound, SC's bound paying ln|k|!, the learner of fewest errors on the inner folds) "
        "({select_ids:list}), "
        "{competitor_count} with the competitors' settings at matched sparsity (the linear SVM's C of SVM-RFE and "
        "BAHSIC, and the C of the L1-logistic refit on k genes, each at {competitor_cs:list} instead of 1; "
        "AdaBoost's tie rule among stumps tied on the weights, its genes' columns reversed) "
        "({competitor_ids:list}), "
        "{margin_count} with the 5-point margin ({margin_ids:list}) and {coverage_count} with the coverage test's "
        "own settings ({coverage_ids:list}); these are marked not robust in the table. The table's 'robust to' "
        "names only these variants. Not varied, so no verdict is robust to them: the other settings of the "
        "competitors (unrestricted: the linear SVM's C = 1 on all genes, L1 C = 0.5, AdaBoost's 25 rounds and its tie order, RFE "
        "and BAHSIC to 16 genes, which no k-row reads; at matched sparsity: SVM-RFE's halving steps, BAHSIC's "
        "kernel and tenth of the genes per step; AdaBoost's rounds cannot matter there, as at k ≤ 3 it stops "
        "after k rounds); the selection rule of each learner (p, the length and conjunction or disjunction "
        "chosen by the training-fold bound, not on inner folds: the paper's rule is lost, and this one produces "
        "the empty conjunctions); the prior on the number of stumps p(|k|) = ζ(|k|) (its display is lost); "
        "s ≤ 5 (it changes no k-row: their k ≤ 3 stumps are prefixes of the same greedy paths); the PAC-Bayes "
        "margin widths in the cross-validation (the margin sweep below varies them on the full Leukaemia set); "
        "and the tie rule x ≤ t for d = −1 (the paper's I((x_k − t_k)d_k > 0) is strict, x < t: it decides on "
        "which side SC's compression example, whose value is the threshold, falls)."
    ),
    "tie_order": (
        "**AdaBoost's tie order.** scikit-learn's tree builder meets the genes in an order drawn from each "
        "stump's seed and keeps the first of splits tied on the weights; fitted on the genes' columns reversed, "
        "the same draws meet them in another order. AdaBoost's first k stumps (k = 1 to 3) then take other genes "
        "in {fits_moved} of its {fits} fits at matched sparsity ({outer_moved} of the {outer} on the outer folds, "
        "the rest on their inner folds) and predict {predictions_moved} of {predictions} outer test examples "
        "(counted once per k) otherwise; its outer test errors change on {rows_moved} of {rows} fold-k rows and the "
        "competitor chosen on {chosen_moved} of {chosen}. The k-rows the variant leaves unchanged keep their "
        "data with other AdaBoost fits, not for want of ties."
    ),
    "tie_order_none": (
        "**AdaBoost's tie order.** Fitted on the genes' columns reversed, AdaBoost's first k stumps (k = 1 to 3) "
        "take the same genes in all {fits} of its fits at matched sparsity: no ties among them occurred, and the "
        "variant `competitors=AdaBoost tie order` tests nothing here."
    ),
    "tables": (
        "**Two tables, two averages.** The CV-error table pools the errors of all folds (errors over examples); "
        "the matched-sparsity and by-learner tables average per-fold differences (each fold weighted alike), so "
        "their numbers differ by a few tenths where test folds differ in size."
    ),
    "margins": (
        "**Margins against sparsity.** On the full Leukaemia set the PAC-Bayes Gibbs bound is smallest at margin "
        "width {gap} with {stumps:plural stump} ({bound:pct.1}); {wider_word} width wider than the protocol's "
        "({protocol:list}) gives a smaller bound."
    ),
    "eta": (
        "**Code weight.** The Occam bound on the full Leukaemia set is smallest at $\\eta$ = {etas:list} "
        "({bound:pct.1}: {stumps:plural stump}, {bits} code bits, {errors:plural training error}); at the "
        "protocol's $\\eta$ = {eta:g} it is {eta_bound:pct.1}."
    ),
    "eta_protocol": (
        "**Code weight.** The Occam bound on the full Leukaemia set is smallest at $\\eta$ = {etas:list} "
        "({bound:pct.1}: {stumps:plural stump}, {bits} code bits, {errors:plural training error}), the "
        "protocol's $\\eta$ among them."
    ),
}


#: The competitors Section I does not name (the others: SVM-RFE for Guyon et al.'s wrapper, NSC, BAHSIC).
OUTSIDE_SCOPE = ("linear_svm", "l1_logistic", "adaboost_stumps")


def _outside_share(results) -> float:
    rows = results[(results["learner"] == "competitor") & results["prior"].isin(["-", PRIORS[0]])]
    return float(rows["chosen"].isin(OUTSIDE_SCOPE).mean()) if len(rows) else float("nan")


def _shares(results, learner) -> list[str]:
    rows = results[(results["learner"] == learner) & results["prior"].isin(["-", PRIORS[0]])]
    counts = rows["chosen"].value_counts().sort_index().sort_values(ascending=False, kind="stable")
    return [f"{name} ({count / len(rows):.0%})" for name, count in counts.items()]


def _variant_estimate(report, id, variant):
    rows = report.sensitivity[(report.sensitivity["id"] == id) & (report.sensitivity["variant"] == variant)]
    return float(rows["estimate"].iloc[0]) if len(rows) else float("nan")


def _learner_fields(results, learner):
    """The data sets on which ``learner`` is mostly the empty conjunction, and the head-to-head
    tally (lower, equal, higher mean fold error than the competitor) of the other data sets."""
    rows = results[(results["learner"] == learner) & (results["k"] == 0) & (results["prior"] == PRIORS[0])]
    share = rows.groupby("dataset", sort=False)["genes"].apply(lambda g: float((g == 0).mean()))
    empty = [n for n, v in share.items() if v > 0.5]
    tally = [0, 0, 0]
    for name in share.index:
        if name in empty:
            continue
        rates = per_fold(results, name, PRIORS[0], "errors")
        if {learner, "competitor"} <= set(rates.columns):
            d = float((rates[learner] - rates["competitor"]).mean())
            tally[0 if d < 0 else 1 if d == 0 else 2] += 1
    names = [DATASET_NAMES.get(n, n) for n in empty]
    return {"empty": ", ".join(names) if names else "no data set", "wins_x": tally[0], "ties_x": tally[1],
            "losses_x": tally[2]}


def _same_as(rates, name, k, mean_genes, genes) -> str:
    """What a k-row says when it is no separate test of matched sparsity: its fold differences are
    those of the row at ``k − 1`` (the same comparison counted again), or its stump side reads
    ``k`` genes on fewer than :data:`MATCHED_SHARE` of its folds (``genes``: per fold)."""
    if k < 2:
        return ""
    this = (rates[f"stumps k={k}"] - rates[f"competitor k={k}"]).to_numpy(dtype=float)
    below = (rates[f"stumps k={k - 1}"] - rates[f"competitor k={k - 1}"]).to_numpy(dtype=float)
    if np.array_equal(this, below):
        return render(TEMPLATES["same_as"], k=k, below=f"k{k - 1}-{name}").data
    at_k, n = matched_at_k(genes, k)
    if at_k < MATCHED_SHARE * n:
        return render(TEMPLATES["fewer_genes"], k=k, genes=mean_genes, at_k=at_k, n=n).data
    return ""


def _claim_values(report, results, coverage=None, references=None) -> dict:
    """Per-claim fields the registry's ``discussion`` templates name beyond the table's columns."""
    from scipy.stats import binom

    values = {}
    per_gene, whole = VARIANT_NAMES["per_gene"], VARIANT_NAMES["global"]
    references = references or {}
    for learner in STUMP_VARIANTS:
        values[f"acc-{learner}"] = {**_learner_fields(results, learner),
                                    "per_gene": _variant_estimate(report, f"acc-{learner}", per_gene),
                                    "global": _variant_estimate(report, f"acc-{learner}", whole)}
        if coverage is not None:
            part = coverage[coverage["learner"] == learner]
            by = part.groupby("distribution", sort=False)["any_violated"].agg(["sum", "size"])
            share = (by["sum"] / by["size"]).to_numpy()
            worst = by.index[int(np.flatnonzero(share == share.max())[0])]
            n = int(by.loc[worst, "size"])
            # the smallest count at which the share ≤ δ is rejected by a one-sided binomial test at 5 %
            k = next(k for k in range(n + 1) if binom.sf(k - 1, n, 0.05) <= 0.05)
            paired = coverage[(coverage["learner"] == "sc with ln|k|!") & (coverage["distribution"] == worst)]
            values[f"coverage-{learner}"] = {
                "detectable": k / n, "min_gap": float(part["min_gap"].min()), "pairing": float(paired["any_violated"].sum()),
                "worst": worst, "per": "; ".join(f"{d}: {int(r['sum'])} of {int(r['size'])}" for d, r in by.iterrows())}
    genes = {name: per_fold(results, name, PRIORS[0], "genes") for name in dict.fromkeys(results["dataset"])}
    values["genes-fewer"] = {"empty_folds": int(sum(
        (g[list(STUMP_VARIANTS)].max(axis=1) == 0).sum() for g in genes.values()
        if set(STUMP_VARIANTS) <= set(g.columns)))}
    for id in ("occam-gene", "occam-stable", "occam-tightest"):
        values[id] = {"per_gene": _variant_estimate(report, id, per_gene),
                      "reference": references.get(PRIORS[0], "none"), "reference_per_gene": references.get("per_gene", "none")}
    values["occam-tightest"]["empty"] = _learner_fields(results, "occam")["empty"]
    empty_sets = [_learner_fields(results, v)["empty"] for v in ("pac_bayes", "sc")]
    values["pac-bayes-vs-sc"] = {"empty_pac_bayes": empty_sets[0], "empty_sc": empty_sets[1]}
    for id in report.table["id"]:
        kind, _, name = id.partition("-")
        if name not in set(results["dataset"]):
            continue
        if kind[:1] == "k" and kind[1:].isdigit():
            k = int(kind[1:])
            stumps, other = f"stumps k={k}", f"competitor k={k}"
            rates = per_fold(results, name, PRIORS[0], "errors")
            genes = per_fold(results, name, PRIORS[0], "genes")
            # one rounded value for the sentence and the matched table (which rounds with numpy)
            mean_genes = float(np.round(genes[stumps].mean(), 1))
            values[id] = {"stumps_chosen": chosen_summary(results, name, stumps),
                          "competitors_chosen": chosen_summary(results, name, other),
                          "zeros": int((rates[stumps] == rates[other]).sum()),
                          "stump_genes": mean_genes,
                          "same_as": _same_as(rates, name, k, mean_genes, genes[stumps].to_numpy())}
    return values


#: A k-row is a test at matched sparsity when its stump side reads exactly k genes on at least this
#: share of its folds (and its fold differences are not those of the row at k − 1).
MATCHED_SHARE = 0.5


def matched_at_k(genes, k) -> tuple[int, int]:
    """(folds on which the stump side reads exactly ``k`` genes, folds) of a k-row's per-fold genes."""
    genes = np.asarray(genes)
    return int(np.sum(genes == k)), int(genes.size)


def _matched_rule(report) -> Markdown | None:
    table = report.table
    rows = table[table["id"].str.match(r"k\d-")]
    if rows.empty:
        return None
    tested = rows[rows["origin"] == "check"]
    shown = list(rows[rows["origin"] == "observation"]["id"])
    agree = int((tested["verdict"] == "agrees").sum())
    undecided = int((tested["verdict"] == "undecided").sum())
    fragile = ~tested["robust"].map(lambda v: v in (True, "True")).astype(bool)
    undecided_ids = list(tested[(tested["verdict"] == "undecided") & fragile]["id"])
    sets = len({i.partition("-")[2] for i in tested["id"]})
    alpha = float(tested["alpha"].iloc[0]) if len(tested) else float("nan")
    return render(TEMPLATES["matched_rule"], tested=len(tested), tested_s="es" if len(tested) == 1 else "",
                  agree=agree, agree_fragile=int(((tested["verdict"] == "agrees") & fragile).sum()),
                  undecided=undecided, undecided_fragile=len(undecided_ids), undecided_ids=undecided_ids or ["none"],
                  other=len(tested) - agree - undecided, sets=sets, alpha=alpha, level=1 - 2 * alpha,
                  shown=shown or ["none"])


def _composite(folds) -> Markdown:
    genes = folds[(folds["method"] == "stumps")]
    empty = [f"{int((g['genes'] == 0).sum())} of {len(g)} {DATASET_NAMES.get(n, n)} folds"
             for n, g in genes.groupby("dataset", sort=False) if (g["genes"] == 0).any()]
    return render(TEMPLATES["composite"], empty=empty or ["no fold"])


def _bounds(summary) -> Markdown:
    main = summary[summary["learner"].isin(STUMP_VARIANTS) & (summary["k"] == 0) & (summary["prior"] == PRIORS[0])]
    main = main.set_index(["dataset", "learner"])
    is_pac = main.index.get_level_values("learner") == "pac_bayes"
    gap = (main["bound_%"].where(~is_pac, main["gibbs_bound_%"])
           - main["cv_error_%"].where(~is_pac, main["gibbs_error_%"]))
    below = {v: int((main.xs(v, level="learner")["bound_%"] < NONTRIVIAL_BOUND).sum()) for v in STUMP_VARIANTS}
    gibbs = main.xs("pac_bayes", level="learner")["gibbs_bound_%"]
    return render(TEMPLATES["bounds"], limit=NONTRIVIAL_BOUND, sc=below["sc"], occam=below["occam"],
                  pac=below["pac_bayes"], n=len(main.index.unique("dataset")), gibbs_low=gibbs.min(),
                  gibbs_high=gibbs.max(), gap_low=gap.min(), gap_high=gap.max())


def _empty(results) -> Markdown | None:
    occam = results[(results["learner"] == "occam") & (results["k"] == 0) & (results["prior"] == PRIORS[0])]
    share = occam.groupby("dataset", sort=False)["genes"].apply(lambda g: float((g == 0).mean()))
    empty = share[share > 0.5]
    if empty.empty:
        return None
    folds = occam[occam["dataset"].isin(empty.index)]
    return render(TEMPLATES["empty"], share=float((folds["genes"] == 0).mean()),
                  names=[DATASET_NAMES.get(n, n) for n in empty.index])


def _pac_bayes_k(folds) -> Markdown | None:
    table = accuracy_by_learner(folds)
    table = table[(table["side"] == "pac_bayes") & (table["k"] > 0)]
    if table.empty:
        return None
    rows = ["k = {}: {}".format(k, ", ".join(f"{DATASET_NAMES.get(n, n)} {d:+.1f}" for n, d in
                                             zip(part["dataset"], part["difference"])))
            for k, part in table.groupby("k", sort=True)]
    return render(TEMPLATES["pac_bayes_k"], rows="; ".join(rows))


def _identical(report) -> Markdown:
    table = report.table
    ids = [i for i, v in zip(table["id"], table["verdict"]) if v == "identical"]
    if not ids:
        return render(TEMPLATES["no_identical"])
    return render(TEMPLATES["identical"], count=len(ids), ids=ids)


def _sensitivity(report) -> Markdown:
    verdicts = report.sensitivity.pivot(index="id", columns="variant", values="verdict")
    table = report.table.set_index("id")
    judged = [i for i in table.index if table.loc[i, "category"] not in ("aim", "observation")
              and table.loc[i, "verdict"] not in ("n/a", "observed")]
    main = verdicts.columns[0] if "main" not in verdicts.columns else "main"

    def moved(prefix):
        columns = [c for c in verdicts.columns if c.startswith(prefix)]
        return [i for i in judged if i in verdicts.index
                and any(verdicts.loc[i, c] != verdicts.loc[i, main] for c in columns if pd.notna(verdicts.loc[i, c]))]

    range_ids, seed_ids, margin_ids, coverage_ids = moved("range=per"), moved("seed="), moved("margin="), moved("coverage=")
    range_ids = sorted(set(range_ids) | set(moved("range=global")))
    declared_ids = moved("range=declared")
    choice_ids = sorted(set(moved("eta=")) | set(moved("p=")) | set(moved("prefilter=")))
    select_ids = moved("select=")
    competitor_ids = moved("competitors=")
    competitor_cs = sorted({settings[c] for settings in COMPETITOR_VARIANTS.values() for c in ("svm_c", "refit_c")}
                           - {1.0})
    return render(TEMPLATES["sensitivity"], judged=len(judged), competitor_count=len(competitor_ids),
                  competitor_ids=competitor_ids or ["none"], competitor_cs=[f"{c:g}" for c in competitor_cs], range_count=len(range_ids), range_ids=range_ids or ["none"],
                  declared_count=len(declared_ids), declared_ids=declared_ids or ["none"],
                  seed_count=len(seed_ids), seed_ids=seed_ids or ["none"], choice_count=len(choice_ids),
                  choice_ids=choice_ids or ["none"], select_count=len(select_ids), select_ids=select_ids or ["none"],
                  margin_count=len(margin_ids), margin_ids=margin_ids or ["none"],
                  coverage_count=len(coverage_ids), coverage_ids=coverage_ids or ["none"])


def _margins(sweep, config) -> Markdown | None:
    paths = sweep[sweep["stumps"] > 0]
    if paths.empty:
        return None
    best = paths.loc[paths.groupby("gap")["gibbs_bound"].idxmin()]
    overall = best.loc[best["gibbs_bound"].idxmin()]
    protocol = best[best["gap"].isin(config.margin_gaps)]
    wider = best[best["gap"] > max(config.margin_gaps)]
    pays = len(wider) and len(protocol) and wider["gibbs_bound"].min() < protocol["gibbs_bound"].min()
    return render(TEMPLATES["margins"], gap=int(overall["gap"]), stumps=int(overall["stumps"]),
                  bound=float(overall["gibbs_bound"]), wider_word="a" if pays else "no",
                  protocol=[str(g) for g in config.margin_gaps])


def _eta(tradeoff, config) -> Markdown | None:
    paths = tradeoff[tradeoff["stumps"] > 0]
    if paths.empty:
        return None
    best = paths.loc[paths.groupby("eta")["bound"].idxmin()].set_index("eta")
    winners = best.index[np.isclose(best["bound"], best["bound"].min(), rtol=1e-12, atol=0)]
    row = best.loc[winners[0]]
    at = best.loc[config.eta]["bound"] if config.eta in best.index else np.nan
    key = "eta_protocol" if config.eta in winners else "eta"
    return render(TEMPLATES[key], etas=[f"{e:g}" for e in winners], bound=float(row["bound"]),
                  stumps=int(row["stumps"]), bits=int(row["code bits"]), errors=int(row["training errors"]),
                  eta=config.eta, eta_bound=float(at))


@validate_params(
    {"report": [ClaimsReport], "summary": [pd.DataFrame], "matched": [pd.DataFrame], "frequency": [pd.DataFrame],
     "sweep": [pd.DataFrame], "tradeoff": [pd.DataFrame], "folds": [pd.DataFrame], "config": [Config, None],
     "coverage": [pd.DataFrame, None], "references": [dict, None], "tie_order": [dict, None]},
    prefer_skip_nested_validation=True,
)
def discussion(report, summary, matched, frequency, sweep, tradeoff, folds, config=None, coverage=None,
               references=None, tie_order=None) -> Markdown:
    """Notebook 05's discussion: one item per claim (the registry's templates), then the cross-cutting points.

    Parameters
    ----------
    report : companion.claims.ClaimsReport
        :func:`~companion.experiments.paper05.claims_report` of ``folds``.
    summary : pandas.DataFrame
        :func:`~companion.experiments.paper05.summary_table` of ``folds``.
    matched : pandas.DataFrame
        :func:`~companion.experiments.paper05.matched_table` of ``folds`` (kept for the signature).
    frequency : pandas.DataFrame
        :func:`~companion.experiments.paper05.gene_frequency` of ``folds`` (kept for the signature).
    sweep : pandas.DataFrame
        :func:`~companion.experiments.paper05.margin_sweep` (Leukaemia).
    tradeoff : pandas.DataFrame
        :func:`~companion.experiments.paper05.occam_tradeoff` (Leukaemia).
    folds : pandas.DataFrame
        :func:`~companion.experiments.paper05.run`'s frame.
    config : Config, optional
        The protocol that produced them (default ``Config()``).
    coverage : pandas.DataFrame, optional
        The coverage test's main frame (the coverage rows' detectable share and slack).
    references : dict, optional
        ``{prior: probe}`` of Occam's full-data Leukaemia conjunction (``occam-gene``).
    tie_order : dict, optional
        :func:`~companion.experiments.paper05._variants.adaboost_tie_order_effect` (what AdaBoost's
        tie-order variant changes).

    Returns
    -------
    companion.prose.Markdown
    """
    config = Config() if config is None else config
    values = _claim_values(report, folds, coverage, references)
    table = report.table
    ids = [i for i, template, verdict in zip(table["id"], table["discussion"], table["verdict"])
           if template and verdict != "n/a"]
    parts = [report.discussion(ids, values={i: values[i] for i in ids if i in values}).data,
             render(TEMPLATES["choices"], stumps=_shares(folds, "stumps"),
                    competitors=_shares(folds, "competitor"), outside=_outside_share(folds)).data,
             _composite(folds).data, _bounds(summary).data, render(TEMPLATES["tables"]).data]
    tie = None if tie_order is None else render(TEMPLATES["tie_order" if tie_order["fits_moved"] else "tie_order_none"],
                                                **tie_order)
    for extra in (_matched_rule(report), _pac_bayes_k(folds), _empty(folds), _identical(report), _sensitivity(report), tie,
                  _margins(sweep, config),
                  _eta(tradeoff, config)):
        if extra is not None:
            parts.append(extra.data)
    return Markdown("\n\n".join(parts))
