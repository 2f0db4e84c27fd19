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
from companion.experiments.paper05._protocol import Config, PRIORS, STUMP_VARIANTS
from companion.experiments.paper05._tables import chosen_summary, per_fold
from companion.experiments.paper05._claims import NONTRIVIAL_BOUND


# --------------------------------------------------------------------------------------------
# Notebook 05's discussion, rendered from templates and its result frames: every number, direction
# and verdict it states is a field of a template in TEMPLATES (or of a claim's ``discussion`` in
# registry/paper05.toml), so the prose cannot drift from the results of any seed.
# --------------------------------------------------------------------------------------------

#: How the discussion names the data sets.
DATASET_NAMES = {"colon": "Colon", "leukemia_golub": "Leukaemia", "c_md": "C_MD", "breast_er": "BreastER",
                 "prostate": "Prostate", "lung_gordon": "Lung", "all_bioc": "ALL"}

#: The discussion's sentences; each field is filled from the results by :func:`discussion`.
TEMPLATES = {
    "choices": (
        "**Who was chosen.** Over every data set and fold, the smallest training-fold bound chose "
        "{stumps:list} on the stump side; the inner folds chose {competitors:list} among the competitors. "
        "Neither choice reads a test fold."
    ),
    "bounds": (
        "**Guarantees.** The mean training-fold bound is below {limit:.0f} % on {sc:plural data set} for SC, "
        "{occam:plural data set} for Occam and {pac:plural data set} for the PAC-Bayes Bayes vote, out of {n}; "
        "the Gibbs bound itself ranges from {gibbs_low:.1f} % to {gibbs_high:.1f} %. Each mean bound exceeds the "
        "CV error it guarantees by {gap_low:.1f} to {gap_high:.1f} points: with thousands of genes to pay for, far "
        "from tight. Folds of one data set are not independent samples, so this is no test of validity; the "
        "coverage test on a known distribution is (claims coverage-sc, coverage-occam, coverage-pac_bayes)."
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
        "**Range and seed.** Of the {judged:plural judged claim}, {range_count} change verdict with the prior "
        "range ({range_ids:list}) and {seed_count} with the fold seed ({seed_ids:list}); these are marked not robust "
        "in the table."
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


def _shares(results, learner) -> list[str]:
    rows = results[(results["learner"] == learner) & results["prior"].isin(["-", PRIORS[0]])]
    counts = rows["chosen"].value_counts().sort_index().sort_values(ascending=False, kind="stable")
    return [f"{name} ({count / len(rows):.0%})" for name, count in counts.items()]


def _claim_values(report, results) -> dict:
    """Per-claim fields the registry's ``discussion`` templates name beyond the table's columns."""
    values = {}
    for id in report.table["id"]:
        kind, _, name = id.partition("-")
        if name not in set(results["dataset"]):
            continue
        if kind[:1] == "k" and kind[1:].isdigit():
            k = int(kind[1:])
            stumps, other = f"stumps k={k}", f"competitor k={k}"
            rates = per_fold(results, name, PRIORS[0], "errors")
            genes = per_fold(results, name, PRIORS[0], "genes")
            values[id] = {"stumps_chosen": chosen_summary(results, name, stumps),
                          "competitors_chosen": chosen_summary(results, name, other),
                          "zeros": int((rates[stumps] == rates[other]).sum()),
                          "stump_genes": float(genes[stumps].mean())}
    return values


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


def _identical(report) -> Markdown:
    table = report.table
    ids = [i for i, v in zip(table["id"], table["verdict"]) if v == "identical"]
    if not ids:
        return render(TEMPLATES["no_identical"])
    return render(TEMPLATES["identical"], count=len(ids), ids=ids)


def _sensitivity(report) -> Markdown:
    verdicts = report.sensitivity.pivot(index="id", columns="variant", values="verdict")
    table = report.table.set_index("id")
    judged = [i for i in table.index
              if table.loc[i, "origin"] in ("paper", "check") and table.loc[i, "kind"] not in ("unit_test", "guaranteed")
              and table.loc[i, "verdict"] != "n/a"]
    main = verdicts.columns[0] if "main" not in verdicts.columns else "main"

    def moved(prefix):
        columns = [c for c in verdicts.columns if c.startswith(prefix)]
        return [i for i in judged if i in verdicts.index
                and any(verdicts.loc[i, c] != verdicts.loc[i, main] for c in columns if pd.notna(verdicts.loc[i, c]))]

    range_ids, seed_ids = moved("range="), moved("seed=")
    return render(TEMPLATES["sensitivity"], judged=len(judged), range_count=len(range_ids), range_ids=range_ids,
                  seed_count=len(seed_ids), seed_ids=seed_ids)


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
     "sweep": [pd.DataFrame], "tradeoff": [pd.DataFrame], "folds": [pd.DataFrame], "config": [Config, None]},
    prefer_skip_nested_validation=True,
)
def discussion(report, summary, matched, frequency, sweep, tradeoff, folds, config=None) -> Markdown:
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

    Returns
    -------
    companion.prose.Markdown
    """
    config = Config() if config is None else config
    values = _claim_values(report, folds)
    table = report.table
    ids = [i for i, template, verdict in zip(table["id"], table["discussion"], table["verdict"])
           if template and verdict != "n/a"]
    parts = [report.discussion(ids, values={i: values[i] for i in ids if i in values}).data,
             render(TEMPLATES["choices"], stumps=_shares(folds, "stumps"),
                    competitors=_shares(folds, "competitor")).data,
             _composite(folds).data, _bounds(summary).data]
    for extra in (_empty(folds), _identical(report), _sensitivity(report), _margins(sweep, config),
                  _eta(tradeoff, config)):
        if extra is not None:
            parts.append(extra.data)
    return Markdown("\n\n".join(parts))
