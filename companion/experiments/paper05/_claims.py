"""Notebook 05's claims as a :mod:`companion.claims` family: the measures of
``registry/paper05.toml`` and the claims report over the fold-seed variants.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from companion.experiments.paper05._protocol import DATASETS, PRIORS, STUMP_VARIANTS, method_key
from companion.experiments.paper05._variants import VARIANT_NAMES
from companion.experiments.paper05._tables import error_rates, per_fold, summary_table


# --------------------------------------------------------------------------------------------
# The paper's claims as a companion.claims family
# --------------------------------------------------------------------------------------------

#: "An accurate classifier" (Section I): the points of CV error a stump learner may lose to the
#: inner-CV-chosen competitor and still be called accurate (the registry's ``margin``; the paper
#: quantifies no such margin).
COMPETITIVE_POINTS = 5.0
#: "Non-trivial" bound: below this risk (%) on every data set.
NONTRIVIAL_BOUND = 50.0
def _claims_data(results, prior, summary=None, tradeoff=None, coverage=None, reference=None):
    """What the measures read under prior range ``prior``: per-fold errors and genes, sizes, summaries.

    ``summary``: :func:`summary_table` of ``results`` if known (the variants share it);
    ``coverage``: the coverage test's frame; ``reference``: the first gene of Occam's conjunction
    on the full Leukaemia data under the same range.
    """
    names = list(dict.fromkeys(results["dataset"]))
    summary = summary_table(results) if summary is None else summary
    summary = summary[summary["prior"].isin(["-", prior]) | (summary["learner"] == "sc")]
    return {
        "rates": {name: error_rates(results, name, prior) for name in names},
        "genes_per_fold": {name: per_fold(results, name, prior, "genes") for name in names},
        "sizes": {name: results[results["dataset"] == name][["n_train", "n_test"]].mean() for name in names},
        "summary": summary[summary["k"] == 0].set_index(["dataset", "learner"]),
        "genes": results[(results["learner"] == "occam") & (results["k"] == 0) & (results["prior"] == prior)],
        "tradeoff": tradeoff, "coverage": coverage, "reference": reference,
    }


def _paired(data, name, column_a, column_b, table="rates"):
    """Paired fold differences ``a − b`` of data set ``name`` for the corrected resampled t.

    ``(differences, groups, ratios)``: one group (the folds of the data set's cross-validations)
    and every fold's ``n_test / n_train`` (the means over the folds; Nadeau & Bengio 2003), or
    None if the data set or a side did not run."""
    if name not in data[table]:
        return None
    values, size = data[table][name], data["sizes"][name]
    if not {column_a, column_b} <= set(values.columns):
        return None
    d = (values[column_a] - values[column_b]).to_numpy(dtype=float)
    return d, [name] * d.size, [size["n_test"] / size["n_train"]] * d.size


def _accuracy(data, name, k=0):
    return _paired(data, name, method_key("stumps", k, "-"), method_key("competitor", k, "-"))


def _learner_accuracy(data, learner):
    """Per data set: mean CV error (points) of ``learner`` minus the competitor chosen on inner folds.

    The data sets are the independent units (their folds are not); None if fewer than two ran."""
    values = [float((rates[learner] - rates["competitor"]).mean()) for rates in data["rates"].values()
              if {learner, "competitor"} <= set(rates.columns)]
    return np.asarray(values) if len(values) >= 2 else None


def _genes_fewer(data):
    """(folds on which every stump learner reads fewer genes than the competitor, folds, ties)."""
    fewer = n = tied = 0
    for genes in data["genes_per_fold"].values():
        if not {*STUMP_VARIANTS, "competitor"} <= set(genes.columns):
            continue
        most = genes[list(STUMP_VARIANTS)].max(axis=1)
        fewer += int((most < genes["competitor"]).sum())
        tied += int((most == genes["competitor"]).sum())
        n += len(genes)
    return (fewer, n, tied) if n else None


def _occam_tightest(data):
    table = data["summary"]["bound_%"].unstack("learner")[list(STUMP_VARIANTS)]
    smallest = sum(bool(table.loc[name, "occam"] <= table.loc[name].min()) for name in table.index)
    return (int(smallest), len(table))


def _bounds_above(data):
    summary = data["summary"]
    table = summary[summary.index.get_level_values("learner").isin(STUMP_VARIANTS)]
    bound = table["bound_%"].where(table.index.get_level_values("learner") != "pac_bayes", table["gibbs_bound_%"])
    error = table["cv_error_%"].where(table.index.get_level_values("learner") != "pac_bayes", table["gibbs_error_%"])
    gap = bound - error
    below = [f"{n} {lr}" for (n, lr), v in gap.items() if not v >= 0]
    return (not below, f"bound − CV error from {gap.min():.1f} to {gap.max():.1f} points"
            + (f"; below on {', '.join(below)}" if below else ""))


def _nontrivial(data, learner):
    table = data["summary"].xs(learner, level="learner")["bound_%"]
    bad = [f"{n} ({v:.1f} %)" for n, v in table.items() if not v < NONTRIVIAL_BOUND]
    return (not bad, f"mean training-fold bound below {NONTRIVIAL_BOUND:.0f} % on {len(table) - len(bad)}/"
            f"{len(table)} data sets" + (f"; not on {', '.join(bad)}" if bad else ""))


def _leukaemia_genes(data):
    folds = data["genes"][data["genes"]["dataset"] == "leukemia_golub"]
    genes = pd.Series([g for text in folds["gene_names"] for g in set(text.split(";")) if g], dtype=str)
    return folds, genes.value_counts()


def _occam_gene(data):
    folds, counts = _leukaemia_genes(data)
    if folds.empty or not data["reference"]:
        return None
    return (int(counts.get(data["reference"], 0)), len(folds))


def _occam_stable(data):
    folds, counts = _leukaemia_genes(data)
    if folds.empty:
        return None
    return (int(counts.max()) if len(counts) else 0, len(folds))


def _pac_bayes_vs_sc(data):
    table = data["summary"]["cv_error_%"].unstack("learner")
    if not {"pac_bayes", "sc"} <= set(table.columns) or len(table) < 2:
        return None
    return (table["pac_bayes"] - table["sc"]).to_numpy(dtype=float)


def _coverage(data, learner):
    """The coverage row's measure: :func:`_coverage_worst` of the variant's coverage frame."""
    return None if data["coverage"] is None else _coverage_worst(data["coverage"], learner)


def _coverage_worst(coverage, learner):
    """(violations, samples) of the known distribution on which ``learner``'s bound fell below the
    risk on the largest share of training samples: a bound must hold at δ on each distribution, so
    each is decided alone and the row reports the worse (ties: the first distribution)."""
    part = coverage[coverage["learner"] == learner]
    by = part.groupby("distribution", sort=False)["any_violated"].agg(["sum", "size"])
    if by.empty:
        return None
    share = (by["sum"] / by["size"]).to_numpy()
    worst = by.iloc[int(np.flatnonzero(share == share.max())[0])]
    return (int(worst["sum"]), int(worst["size"]))


def _coverage_share(coverage, learner):
    """(training samples on which some prefix of ``learner``'s conjunction has a bound below its
    true risk, samples), both known distributions pooled, with the per-distribution counts."""
    part = coverage[coverage["learner"] == learner]
    by = part.groupby("distribution", sort=False)["any_violated"].agg(["sum", "size"])
    return (int(part["any_violated"].sum()), len(part),
            "; ".join(f"{d}: {int(r['sum'])} of {int(r['size'])}" for d, r in by.iterrows()))


def measures(names=tuple(DATASETS), matched_k=(1, 2, 3), checks=None):
    """The measurement of every claim of ``registry/paper05.toml``, by its ``measure`` key.

    Parameters
    ----------
    names : sequence of str, default=all of :data:`DATASETS`
        The data sets with claims of their own (the registry names all seven; one not run
        measures ``None``, ``n/a``).
    matched_k : sequence of int, default=(1, 2, 3)
    checks : dict or None
        :func:`run_math_checks`' results, ``{measure key: (ok, detail)}``, computed once per
        notebook run (the same constant in every variant); None: those rows are not evaluated.

    Returns
    -------
    dict
        ``{measure key: callable(data) or constant}`` for :func:`companion.claims.family`.
    """
    out = {}
    for name in names:
        for k in matched_k:
            out[f"matched_{k}_{name}"] = partial(_accuracy, name=name, k=k)
    for learner in STUMP_VARIANTS:
        out[f"nontrivial_{learner}"] = partial(_nontrivial, learner=learner)
        out[f"accuracy_{learner}"] = partial(_learner_accuracy, learner=learner)
        out[f"coverage_{learner}"] = partial(_coverage, learner=learner)
    out["genes_fewer"] = _genes_fewer
    from companion.experiments.paper05._math_checks import CHECKS
    out.update({key: None if checks is None else checks[key] for key in CHECKS})
    out.update(bounds_above=_bounds_above, occam_tightest=_occam_tightest, occam_gene=_occam_gene,
               occam_stable=_occam_stable, pac_bayes_vs_sc=_pac_bayes_vs_sc)
    return out


def claims_report(results, seed_results=None, tradeoff=None, checks=None, coverage=None, references=None):
    """Decide the registry's claims (``registry/paper05.toml``) on :func:`run`'s frame and its variants.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame (main: the declared range).
    seed_results : dict, optional
        :func:`run_seed_variants`' frames, ``{"seed=<s>": frame}`` (the fold-seed variants), and
        :func:`run_choice_variants`' (``{"eta=0.5": frame, ...}``): each a variant of the rows
        that list its name.
    tradeoff : pandas.DataFrame, optional
        :func:`occam_tradeoff`'s frame (Leukaemia; kept for the data the measures read).
    checks : dict, optional
        :func:`run_math_checks`' results (the ``math_*`` rows).
    coverage : pandas.DataFrame or dict, optional
        :func:`bound_coverage`'s frame (the ``coverage-*`` rows), or ``{"main": frame, variant:
        frame}`` with the coverage test's own variants (``coverage=…``, :data:`COVERAGE_VARIANTS`).
    references : dict, optional
        ``{prior: probe}``: the first gene of Occam's conjunction on the full Leukaemia data under
        each prior range (``occam-gene``; None: not evaluated).

    Returns
    -------
    companion.claims.ClaimsReport
        Variants: ``range=per gene (whole data)`` and ``range=global (whole data)`` where run,
        and every seed variant.
    """
    import companion.claims as C

    coverage = coverage if isinstance(coverage, dict) else {"main": coverage}
    references = references or {}
    priors = [p for p in PRIORS if p in set(results["prior"])]
    summary = summary_table(results)  # one table for every range variant (each selects its rows)
    data = {VARIANT_NAMES[p]: _claims_data(results, p, summary, tradeoff, coverage.get("main"), references.get(p))
            for p in priors}
    for name, frame in (seed_results or {}).items():
        data[name] = _claims_data(frame, PRIORS[0], tradeoff=tradeoff, coverage=coverage.get("main"),
                                  reference=references.get(PRIORS[0]))
    for name, frame in coverage.items():
        if name != "main":
            data[name] = {**data["main"], "coverage": frame}
    family = C.family(C.load_registry("05"), measures(checks=checks))
    return C.evaluate(family, data)
