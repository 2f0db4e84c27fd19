"""Notebook 05's tables: summaries of :func:`run`'s frame and the bounds on the full data set
(the worked example, the selected genes, the margin and code-length trade-offs of Sections III-V).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import StrOptions, validate_params

from companion.bounds._confidence import DELTA_CONSTRAINTS
from companion.claims._statistics import corrected_t
from companion.bounds.compression import compression_bound, compression_log_message
from companion.bounds.occam import dyadic_code_lengths, log_choose, log_zeta, occam_bound, threshold_code_cost
from companion.bounds.pac_bayes import gibbs_risk, pac_bayes_bound, pac_bayes_kl
from companion.stumps import OccamStumps, PacBayesStumps, SetCoveringStumps, fit_by_bound
from companion.datasets import golub_gene_descriptions
from companion.experiments._constraints import COUNT
from companion.experiments.paper05._protocol import (
    Config, PRIORS, STUMP_VARIANTS, declared_feature_range, load_dataset, method_key, prior_feature_range,
    stump_template, welch_t_ranking,
)


# --------------------------------------------------------------------------------------------
# Summaries of run's frame
# --------------------------------------------------------------------------------------------


@validate_params({"datasets": ["array-like"]}, prefer_skip_nested_validation=True)
def feature_range_table(datasets) -> pd.DataFrame:
    """The declared range ``[A, B]`` of every gene beside each data set's observed values.

    :func:`declared_feature_range` raises if a value falls outside the declared range.

    Parameters
    ----------
    datasets : sequence of str
        Names of :data:`DATASETS`.

    Returns
    -------
    DataFrame
        One row per data set: ``declared A``, ``declared B``, the two other declarations (the
        20-bit envelope and the second reading of each file's definition, choice variants), the
        global minimum and maximum and the median per-gene range over the whole data set.
    """
    rows = []
    for name in datasets:
        X, _, _ = load_dataset(name)
        low, high = declared_feature_range(name, X)
        wide = prior_feature_range(name, X, "declared_wide")[:, 0]
        second = prior_feature_range(name, X, "declared_second")[:, 0]
        rows.append({"dataset": name, "declared A": low, "declared B": high,
                     "20-bit envelope A": wide[0], "20-bit envelope B": wide[1],
                     "second reading A": second[0], "second reading B": second[1], "global min (whole data)": X.min(),
                     "global max (whole data)": X.max(),
                     "median per-gene range (whole data)": np.median(np.ptp(X, axis=0))})
    return pd.DataFrame(rows).set_index("dataset")


def summary_table(results):
    """Per data set and method of :func:`run`'s frame: CV error with its spread, genes, bounds.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, method), in the frame's order: ``learner``, ``k``, ``prior``,
        ``cv_error_%`` (pooled over every fold and repeat), ``sd over repeats`` (of the
        repeats' CV errors), mean ``genes``, mean training-fold ``bound_%`` (SC's also in its strictly
        valid form, ``bound_pairing_%``, which pays ``ln |k|!``), and the Gibbs
        classifier's pooled ``gibbs_error_%`` and mean ``gibbs_bound_%`` (PAC-Bayes).
    """
    # One pass per group over numpy arrays, computed as pandas' Series.sum/mean/std compute them
    # (a sum over the group's rows in their order, NaN filled with 0 and not counted; the two-pass
    # variance), so the numbers are the ones a groupby over Series gives; a loop over groups,
    # not rows, and no frame per group (117 frames of a few hundred groups in notebook 05's claims).
    codes = results.groupby(["dataset", "method"], sort=False).ngroup().to_numpy()
    order = np.argsort(codes, kind="stable")
    order = order[codes[order] >= 0]  # rows with a missing key are in no group, as in groupby
    bounds = np.flatnonzero(np.diff(codes[order])) + 1
    column = {c: results[c].to_numpy() for c in results.columns}
    has_pairing = "bound_pairing" in column
    rows = []
    for idx in np.split(order, bounds) if order.size else []:
        first = idx[0]
        n_test = column["n_test"][idx].sum()
        repeats, by_repeat = np.unique(column["repeat"][idx], return_inverse=True)  # repeats ascending, as groupby
        per_repeat = (100.0 * _group_sums(column["errors"][idx], by_repeat, repeats.size)
                      / _group_sums(column["n_test"][idx], by_repeat, repeats.size))
        rows.append({
            "dataset": column["dataset"][first], "method": column["method"][first], "learner": column["learner"][first],
            "k": int(column["k"][first]), "prior": column["prior"][first],
            "cv_error_%": 100.0 * column["errors"][idx].sum() / n_test,
            "sd over repeats": _series_std(per_repeat) if per_repeat.size > 1 else np.nan,
            "genes": float(_series_mean(column["genes"][idx])),
            "bound_%": _percent_mean(column["bound"][idx]),
            "bound_pairing_%": _percent_mean(column["bound_pairing"][idx]) if has_pairing else np.nan,
            "gibbs_error_%": 100.0 * _series_sum(column["gibbs_errors"][idx]) / n_test
            if _any_present(column["gibbs_errors"][idx]) else np.nan,
            "gibbs_bound_%": _percent_mean(column["gibbs_bound"][idx]),
        })
    return pd.DataFrame(rows)


def _group_sums(values, groups, n_groups):
    """Sums of ``values`` per group (``groups`` in ``0 .. n_groups - 1``), in the values' type: exact for integers."""
    out = np.zeros(n_groups, dtype=values.dtype)
    np.add.at(out, groups, values)
    return out


def _present(values):
    """The mask of the entries that are not missing (NaN), as pandas' ``notna``."""
    return ~np.isnan(values) if values.dtype.kind == "f" else np.ones(values.shape, dtype=bool)


def _any_present(values) -> bool:
    """pandas' ``Series.notna().any()``."""
    return bool(_present(values).any())


def _series_sum(values):
    """pandas' ``Series.sum()``: missing entries as 0, summed in the column's order and type."""
    if values.dtype.kind == "f":
        values = np.where(_present(values), values, 0.0)
        return values.sum(dtype=np.float64)
    return values.sum()


def _series_mean(values):
    """pandas' ``Series.mean()``: the sum of :func:`_series_sum` (in float64) over the present count."""
    present = _present(values)
    count = np.float64(present.sum())
    total = (np.where(present, values, 0.0) if values.dtype.kind == "f" else values).sum(dtype=np.float64)
    return total / count if count > 0 else np.nan


def _percent_mean(values) -> float:
    """``100 ×`` :func:`_series_mean`, NaN when no entry is present."""
    return 100.0 * _series_mean(values) if _any_present(values) else np.nan


def _series_std(values) -> float:
    """pandas' ``Series.std(ddof=1)`` of a float array: the two-pass variance over the present entries."""
    present = _present(values)
    count = np.float64(present.sum())
    d = count - 1
    if d <= 0:
        return np.nan
    values = np.where(present, values, 0.0)
    mean = values.sum(dtype=np.float64) / count
    squares = np.where(present, (mean - values) ** 2, 0.0)
    return float(np.sqrt(squares.sum(dtype=np.float64) / d))


def error_rates(results, name, prior=PRIORS[0]):
    """Per-fold test error (%) of data set ``name``: index (repeat, fold), one column per method.

    Under ``prior``, Occam's and PAC-Bayes' columns are those of that prior range (named without
    the ``[prior]`` suffix), so every claim reads the same column names in every variant.
    """
    part = results[(results["dataset"] == name) & results["prior"].isin(["-", PRIORS[0], prior])]
    part = part[(part["prior"] == prior) | (part["learner"] == "sc") | (part["prior"] == "-")]
    part = part.assign(method=[method_key(lr, k, "-") for lr, k in zip(part["learner"], part["k"])],
                       rate=100.0 * part["errors"] / part["n_test"])
    return part.pivot(index=["repeat", "fold"], columns="method", values="rate")


def per_fold(results, name, prior, column):
    """Per-fold ``column`` of data set ``name`` under ``prior``: index (repeat, fold), one column per method.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.
    name : str
        Data set.
    prior : str
        One of :data:`PRIORS`: Occam's, PAC-Bayes' and the ``stumps`` rows of that range (named
        without the ``[prior]`` suffix); SC's and the competitors' rows whatever it is.
    column : str
        A value column of :func:`run`'s frame (``errors``, ``genes``, ...).

    Returns
    -------
    pandas.DataFrame
    """
    part = results[(results["dataset"] == name) & results["prior"].isin(["-", PRIORS[0], prior])]
    part = part[(part["prior"] == prior) | (part["learner"] == "sc") | (part["prior"] == "-")]
    part = part.assign(method=[method_key(lr, k, "-") for lr, k in zip(part["learner"], part["k"])])
    return part.pivot(index=["repeat", "fold"], columns="method", values=column)


def chosen_summary(results, name, method) -> str:
    """``occam 41/50, sc 9/50``: how often each learner was chosen in the ``method`` rows of ``name``.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.
    name : str
        Data set.
    method : str
        A ``stumps`` or ``competitor`` method of the frame (``"stumps k=2"``, ``"competitor"``).

    Returns
    -------
    str
    """
    chosen = results[(results["dataset"] == name) & (results["method"] == method)]["chosen"]
    counts = chosen.value_counts(sort=False).sort_index()
    counts = counts.sort_values(ascending=False, kind="stable")
    return ", ".join(f"{learner} {count}/{len(chosen)}" for learner, count in counts.items())


def matched_table(results, prior=PRIORS[0]):
    """Per data set and ``k`` (0: unrestricted): the bound-chosen stump learner against the inner-CV-chosen competitor.

    Both choices are made on the training fold only (:func:`selected_stumps`,
    :func:`_selected_competitors`), so neither side is the best of several on the test folds.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.
    prior : str, default="declared"
        The prior range of Occam's and PAC-Bayes' rows (:data:`PRIORS`).

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, k): the CV errors (%) and mean genes of the ``stumps`` and
        ``competitor`` rows, how often each learner was chosen on each side, and the difference
        (points, stump − competitor).
    """
    rows = []
    suffix = "" if prior == PRIORS[0] else f" [{prior}]"
    for name in dict.fromkeys(results["dataset"]):
        rates = error_rates(results, name, prior)
        genes = per_fold(results, name, prior, "genes")
        for k in sorted(set(results["k"])):
            a, b = method_key("stumps", k, "-"), method_key("competitor", k, "-")
            rows.append({"dataset": name, "k": k, "stump error %": rates[a].mean(), "stump genes": genes[a].mean(),
                         "stump learners chosen": chosen_summary(results, name, a + suffix),
                         "competitor error %": rates[b].mean(), "competitor genes": genes[b].mean(),
                         "competitors chosen": chosen_summary(results, name, b),
                         "difference": rates[a].mean() - rates[b].mean()})
    return pd.DataFrame(rows)


def accuracy_by_learner(results, prior=PRIORS[0]) -> pd.DataFrame:
    """Each stump learner, and the composite chosen by the smallest bound, against the competitor.

    Per data set, ``k`` (0: unrestricted; else at most ``k`` stumps against the competitor with
    ``k`` genes) and side (``sc``, ``occam``, ``pac_bayes`` and ``stumps``, the learner whose
    training-fold bound is smallest on each fold): the mean CV error difference to the competitor
    chosen on inner folds (points) with its corrected resampled-t interval (Nadeau & Bengio 2003,
    :func:`companion.claims._statistics.corrected_t`), the head-to-head folds lower / equal / higher on the raw differences, and
    the folds on which the side's model is the empty conjunction (the majority class).

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.
    prior : str, default=PRIORS[0]
        Prior range of Occam's, PAC-Bayes' and the composite's rows.

    Returns
    -------
    pandas.DataFrame
    """
    rows = []
    for name in dict.fromkeys(results["dataset"]):
        rates, genes = error_rates(results, name, prior), per_fold(results, name, prior, "genes")
        sizes = results[results["dataset"] == name][["n_train", "n_test"]].mean()
        for k in sorted(set(results["k"])):
            for side in (*STUMP_VARIANTS, "stumps"):
                column, other = method_key(side, k, "-"), method_key("competitor", k, "-")
                if column not in rates or other not in rates:
                    continue
                d = (rates[column] - rates[other]).to_numpy(dtype=float)
                mean, low, high, *_ = corrected_t(d, [name] * d.size, [sizes["n_test"] / sizes["n_train"]] * d.size)
                rows.append({"dataset": name, "k": int(k),
                             "side": "chosen by smallest bound" if side == "stumps" else side,
                             "difference": mean, "low": low, "high": high, "lower": int((d < 0).sum()),
                             "equal": int((d == 0).sum()), "higher": int((d > 0).sum()),
                             "empty conjunction": f"{int((genes[column] == 0).sum())}/{len(d)}"})
    return pd.DataFrame(rows)


def by_learner_display(table) -> pd.DataFrame:
    """:func:`accuracy_by_learner`'s table as the notebook shows it: per data set and ``k``, one
    column per side, each cell ``difference [low, high] lower/equal/higher (empty conjunction)``.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`accuracy_by_learner`'s frame.

    Returns
    -------
    pandas.DataFrame
    """
    cells = [f"{d:+.1f} [{lo:+.1f}, {hi:+.1f}] {a}/{b}/{c} ({e} empty)"
             for d, lo, hi, a, b, c, e in zip(table["difference"], table["low"], table["high"], table["lower"],
                                              table["equal"], table["higher"], table["empty conjunction"])]
    shown = table.assign(cell=cells).pivot(index=["dataset", "k"], columns="side", values="cell")
    order = [c for c in (*STUMP_VARIANTS, "chosen by smallest bound") if c in shown.columns]
    return shown.reindex(index=list(dict.fromkeys(zip(table["dataset"], table["k"]))), columns=order)


def gene_frequency(results, top=10):
    """How often each gene is chosen across the outer folds, per data set and stump learner.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame; its unrestricted stump rows of the declared prior are counted.
    top : int, default=10
        Genes listed per (data set, learner).

    Returns
    -------
    pandas.DataFrame
        ``dataset, learner, gene, description, folds, of folds``; more folds first, then the
        gene's name. ``description``: the source's Gene Description where the data carry one
        (Leukaemia, :func:`companion.datasets.golub_gene_descriptions`), else empty.
    """
    described = {"leukemia_golub": golub_gene_descriptions()} if "leukemia_golub" in set(results["dataset"]) else {}
    rows = []
    chosen = results[results["learner"].isin(STUMP_VARIANTS) & (results["k"] == 0)
                     & (results["prior"] == PRIORS[0])]
    for (name, learner), g in chosen.groupby(["dataset", "learner"], sort=False):
        genes = pd.Series([gene for text in g["gene_names"] for gene in text.split(";") if gene], dtype=str)
        counts = genes.value_counts(sort=False).rename_axis("gene").reset_index(name="folds")
        counts = counts.sort_values(["folds", "gene"], ascending=[False, True], kind="stable").head(top)
        notes = described.get(name, {})
        rows.extend({"dataset": name, "learner": learner, "gene": r.gene, "description": notes.get(r.gene, ""),
                     "folds": int(r.folds), "of folds": len(g)} for r in counts.itertuples())
    return pd.DataFrame(rows, columns=["dataset", "learner", "gene", "description", "folds", "of folds"])


# --------------------------------------------------------------------------------------------
# The bounds on the full data set: worked example, genes, trade-offs
# --------------------------------------------------------------------------------------------


def framework_costs(
    m, n, n_stumps, errors, code_lengths, range_ratios, gibbs_risk=None, compression_errors=None, delta=0.05
):
    """What each framework pays for one conjunction: the complexity terms (nats) and the bounds.

    Parameters
    ----------
    m, n : int
        Training examples and attributes.
    n_stumps : int
        ``|k|``.
    errors : int
        Training errors (for SC: taken as the errors outside the compression set).
    code_lengths : sequence of int
        Occam: dyadic code length of each threshold.
    range_ratios : sequence of float
        PAC-Bayes: ``(B − A)/(b − a)`` of each margin interval.
    gibbs_risk : float, optional
        PAC-Bayes empirical Gibbs risk (default: ``errors / m``).
    compression_errors : int, optional
        SC: errors outside the compression set (default: ``errors``).
    delta : float, default=0.05
        Confidence of every bound.

    Returns
    -------
    pandas.DataFrame
        One row per framework: attribute choice, threshold cost, data/compression cost, bound.
    """
    k = int(n_stumps)
    gibbs = errors / m if gibbs_risk is None else gibbs_risk
    sc_errors = errors if compression_errors is None else int(compression_errors)
    rows = [
        {
            "framework": "Occam (Thm 2)",
            "attributes + directions": float(log_choose(n, k) + k * np.log(2) - log_zeta(k)),
            "thresholds": float(np.sum(threshold_code_cost(np.asarray(code_lengths)))),
            "sample": 0.0,
            "bound": occam_bound(errors, m, n, code_lengths, delta),
        },
        {
            "framework": "Sample compression (Thm 3)",
            "attributes + directions": compression_log_message(n, k) - float(log_zeta(k)),
            "thresholds": float(log_choose(m, k)),
            "sample": float(log_choose(m - k, sc_errors) - log_zeta(sc_errors)),
            "bound": compression_bound(sc_errors, m, n, k, delta),
        },
        {
            "framework": "PAC-Bayes (Thm 4, Gibbs)",
            "attributes + directions": float(log_choose(n, k) + k * np.log(2) - log_zeta(k)),
            "thresholds": float(np.sum(np.log(range_ratios))),
            "sample": float(np.log(m + 1)),
            "bound": pac_bayes_bound(gibbs, m, n, range_ratios, delta),
        },
    ]
    table = pd.DataFrame(rows).set_index("framework")
    table.insert(3, "total nats", table[["attributes + directions", "thresholds", "sample"]].sum(axis=1))
    assert np.isclose(pac_bayes_kl(n, range_ratios), table.iloc[2, 0] + table.iloc[2, 1])
    return table


# delta: one number (the SC learner takes one δ), not DELTA_CONSTRAINTS' array of them.
@validate_params(
    {"n_prefilter": COUNT, "s": COUNT, "p": SetCoveringStumps._parameter_constraints["p"],
     "delta": DELTA_CONSTRAINTS[:1]},
    prefer_skip_nested_validation=False,
)
def worked_example(n_prefilter=500, s=2, p=1.0, delta=0.05):
    """One SC conjunction on the full Golub data, priced by the three frameworks.

    The same classifier is a compression-set classifier (thresholds = training values), an Occam
    classifier (each threshold coded by the dyadic point of its interval of equivalent thresholds;
    same training errors) and the mean of a PAC-Bayes posterior (thresholds uniform on those
    intervals; Gibbs risk computed exactly). The priors' range is the declared one
    (:func:`declared_feature_range`).

    Parameters
    ----------
    n_prefilter : int, default=500
        Genes of largest |Welch t| the greedy searches (the bounds charge all 7129).
    s : int, default=2
        Stumps.
    p : float, default=1.0
        SC's utility weight.
    delta : float, default=0.05
        Confidence of every bound.

    Returns
    -------
    model : SetCoveringStumps
    table : pandas.DataFrame
        :func:`framework_costs` of that classifier.
    """
    X, y, names = load_dataset("leukemia_golub")
    keep = welch_t_ranking(X, y, n_prefilter)
    frame = pd.DataFrame(X[:, keep], columns=names[keep])
    model = SetCoveringStumps(s=s, p=p, delta=delta, prior_n_features=X.shape[1], length="greedy", stop_idle=False, threshold="observed").fit(frame, y)
    m, k = len(y), model.features_.size
    wrong = model.predict(frame) != y
    # the priors' range is the declared one (the SC model itself does not use it)
    low, high = (np.full(k, v) for v in declared_feature_range("leukemia_golub"))
    a, b = model.intervals_[:, 0], model.intervals_[:, 1]
    lengths, _ = dyadic_code_lengths(a, b, low, high, closed=False)
    positive = (y == model.classes_[1]).astype(int)
    gibbs = gibbs_risk(frame.to_numpy(), positive, model.features_, a, b, model.directions_)
    outside = int(wrong.sum() - wrong[model.compression_set_].sum())
    table = framework_costs(
        m, X.shape[1], k, int(wrong.sum()), lengths, (high - low) / (b - a),
        gibbs_risk=gibbs, compression_errors=outside, delta=delta,
    )
    return model, table


@validate_params({"config": [Config, None], "n_prefilter": COUNT, "prior": [StrOptions(set(PRIORS))]},
                 prefer_skip_nested_validation=False)
def golub_genes(config=None, n_prefilter=500, prior="declared"):
    """Fit each variant on the full Golub data (selection by bound) and list its genes.

    Each learner chooses ``p`` and conjunction or disjunction on its own grid of the protocol
    (:meth:`Config.grid`: SC ``p_grid``, Occam and PAC-Bayes ``costly_p``), as on the training folds.
    The priors' range is ``prior``'s (:func:`prior_feature_range`; by default the declared one).

    Parameters
    ----------
    config : Config, optional
        Learners' settings and grid (default ``Config()``).
    n_prefilter : int, default=500
        Genes of largest |Welch t| the greedy searches (the bounds charge all 7129).
    prior : {"declared", "per_gene", "global"}, default="declared"
        The priors' range (:data:`PRIORS`).

    Returns
    -------
    table : pandas.DataFrame
        One row per (variant, stump): gene name, its Gene Description in the source
        (:func:`companion.datasets.golub_gene_descriptions`), rule, interval; plus each model's bound.
    models : dict
        The fitted models.
    """
    config = config or Config()
    X, y, names = load_dataset("leukemia_golub")
    keep = welch_t_ranking(X, y, n_prefilter)
    frame = pd.DataFrame(X[:, keep], columns=names[keep])
    descriptions = golub_gene_descriptions()
    rows, models = [], {}
    ranges = prior_feature_range("leukemia_golub", X, prior)[:, keep]
    for variant in STUMP_VARIANTS:
        template = stump_template(variant, config, X.shape[1]).set_params(feature_range=ranges)
        model = fit_by_bound(template, frame, y, config.grid(variant))  # the protocol's grid of each learner
        models[variant] = model
        for feature, threshold, direction, (a, b) in zip(
            model.features_, model.thresholds_, model.directions_, model.intervals_
        ):
            rows.append({
                "variant": variant, "model_type": model.model_type, "p": model.p,
                "gene": model.feature_names_in_[feature], "description": descriptions[model.feature_names_in_[feature]],
                "rule": ">" if direction > 0 else "<=",
                "threshold": threshold, "interval": f"[{a:.4g}, {b:.4g}]",
                "training_errors": int(model.training_errors_path_[-1]), "bound": model.bound_,
                "gibbs_bound": float(model.gibbs_bound_path_[-1]) if variant == "pac_bayes" else np.nan,
            })
    return pd.DataFrame(rows), models


def margin_sweep(name="leukemia_golub", gaps=(1, 2, 4, 8, 16, 32), config=None, p=1.0, model_type="conjunction"):
    """PAC-Bayes on the full data set (all genes), one margin width at a time: Gibbs bound along the path.

    Every candidate margin interval is ``[v_j, v_{j+g}]`` (``g`` sorted positions wide); one fit per
    ``g`` with ``margin_gaps=(g,)``, so the bound's margin–sparsity trade-off (Section V: a wider
    margin costs less KL but lets more examples be misclassified stochastically) is read off along
    two axes: the margin width and the number of stumps. Priors: :func:`declared_feature_range`.

    Parameters
    ----------
    name : str, default="leukemia_golub"
        Data set.
    gaps : sequence of int, default=(1, 2, 4, 8, 16, 32)
        Margin widths ``g``.
    config : Config, optional
        ``s_max``, ``eta``, ``delta`` (default ``Config()``).
    p : float, default=1.0
        Utility weight.
    model_type : {"conjunction", "disjunction"}, default="conjunction"
        The model class.

    Returns
    -------
    pandas.DataFrame
        One row per (gap, number of stumps): empirical Gibbs risk, Gibbs bound, mean
        ``ln((B−A)/(b−a))`` of the stumps so far.
    """
    config = config or Config()
    X, y, names = load_dataset(name)
    rows = []
    for gap in gaps:
        model = PacBayesStumps(
            s=config.s_max, p=p, eta=config.eta, delta=config.delta, model_type=model_type,
            margin_gaps=(int(gap),), prior_n_features=X.shape[1], feature_range=declared_feature_range(name, X),
            length="greedy", stop_idle=False, gap_unit="example",
        ).fit(X, y)
        low, high = model.feature_range_[:, model.features_]
        log_ratio = np.log((high - low) / (model.intervals_[:, 1] - model.intervals_[:, 0]))
        for size in range(model.features_.size + 1):
            rows.append({
                "gap": int(gap), "stumps": size, "gibbs_risk": float(model.gibbs_risk_path_[size]),
                "gibbs_bound": float(model.gibbs_bound_path_[size]),
                "mean_log_range_ratio": float(log_ratio[:size].mean()) if size else 0.0,
            })
    return pd.DataFrame(rows)


def occam_tradeoff(name="leukemia_golub", etas=(0.0, 0.25, 0.5, 1.0, 2.0, 4.0), config=None, p=1.0,
                   model_type="conjunction"):
    """Occam on the full data set (all genes) for several code weights ``η``: stumps, code bits, bound.

    ``η`` weighs the threshold's code length in the greedy's utility; small ``η`` buys stumps that
    cover many examples with thresholds that need long codes, large ``η`` prefers short codes
    (wide intervals of equivalent thresholds). Priors: :func:`declared_feature_range`.

    Parameters
    ----------
    name : str, default="leukemia_golub"
        Data set.
    etas : sequence of float, default=(0.0, 0.25, 0.5, 1.0, 2.0, 4.0)
        Code weights.
    config : Config, optional
        ``s_max``, ``delta`` (default ``Config()``).
    p : float, default=1.0
        Utility weight.
    model_type : {"conjunction", "disjunction"}, default="conjunction"
        The model class.

    Returns
    -------
    pandas.DataFrame
        One row per (η, prefix of the greedy path): stumps, code bits, bits per stump, training
        errors, bound.
    """
    config = config or Config()
    X, y, _ = load_dataset(name)
    rows = []
    for eta in etas:
        model = OccamStumps(
            s=config.s_max, p=p, eta=float(eta), delta=config.delta, model_type=model_type,
            prior_n_features=X.shape[1], feature_range=declared_feature_range(name, X), length="greedy", stop_idle=False,
        ).fit(X, y)
        for size in range(model.features_.size + 1):
            codes = model.code_lengths_[:size]
            rows.append({
                "eta": float(eta), "stumps": size, "code bits": int(codes.sum()),
                "bits per stump": float(codes.mean()) if size else 0.0,
                "training errors": int(model.training_errors_path_[size]), "bound": float(model.bound_path_[size]),
            })
    return pd.DataFrame(rows)
