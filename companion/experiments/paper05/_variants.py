"""The variants of notebook 05's protocol: other fold seeds, other choices of the learners, the
competitors' settings and the selection rules (Shah, Marchand & Corbeil, TPAMI 2012): each re-runs
or re-reads :func:`~companion.experiments.paper05._protocol.run` with one choice changed.
"""

from __future__ import annotations

import warnings
from dataclasses import replace
from functools import partial

import numpy as np
import pandas as pd

from companion.evaluation import parallel_map, stratified_folds
from companion.experiments._seed_runs import SeedRuns, resolve_seed_runs, run_key
from companion.experiments._trusted import trusted_inputs
from companion.experiments.protocol import check_tidy
from companion.interpretable import SingleClassWarning
from companion.numerics import first_near_min
from companion.experiments.paper05._protocol import (
    COMPETITOR_SETTINGS, Config, MATCHED_COMPETITORS, PRIORS, RESULT_COLUMNS, STUMP_LEARNERS,
    STUMP_VARIANTS, data_digest, matched_key, selected_matched, selected_stumps, stump_keys, stump_rows,
    loaded_datasets, method_key, prior_feature_range, run, welch_t_ranking,
)
from companion.experiments.paper05._protocol import BOOST_ORDERS, boosted_genes, boosted_stumps


#: Fold-seed variants of every claim: the whole protocol rerun on other outer folds.
N_SEED_VARIANTS = 4
#: Names of the prior-range variants: the main range first, then the two sample-dependent ones, named as what
#: they are: sensitivity runs whose range reads every example, test folds included, so no valid prior.
VARIANT_NAMES = {"declared": "main",
                 "per_gene": "range=per gene from the whole data (invalid prior: test folds leak)",
                 "global": "range=global from the whole data (invalid prior: test folds leak)"}


def seed_configs(config, n=N_SEED_VARIANTS):
    """The fold-seed variants of ``config``: ``{"seed=<s>": Config}``, each with folds no other uses.

    Variant ``j`` (1..n) is ``config`` with ``seed = config.seed + j × n_repeats`` (its repeats'
    fold seeds follow the main run's and each other's without overlap) and the declared prior
    range only (the range variants are the main run's).

    Parameters
    ----------
    config : Config
    n : int, default=N_SEED_VARIANTS

    Returns
    -------
    dict
    """
    out = {}
    for j in range(1, n + 1):
        seed = config.seed + j * config.n_repeats
        out[f"seed={seed}"] = replace(config, seed=seed, priors=config.priors[:1])
    return out


def seed_run_key(config, digests) -> str:
    """The key of :func:`run` of ``config`` in the committed runs (``data/seed_runs/05``).

    It holds every setting of ``config`` (the seed among them) and each data set's digest, so that a
    committed run is read only for the run it is.

    Parameters
    ----------
    config : Config
    digests : dict
        :func:`data_digests` of the data sets (at least ``config.datasets``): computed once for
        all the seeds whose keys are asked.

    Returns
    -------
    str
    """
    return run_key("paper05.run", config, tuple((name, digests[name]) for name in config.datasets))


def data_digests(data) -> dict:
    """``{name: data_digest(X, y, gene_names)}`` of loaded data sets (:func:`loaded_datasets`)."""
    return {name: data_digest(*arrays) for name, arrays in data.items()}


def seed_run_config(seed: int):
    """The protocol a committed run at fold seed ``seed`` is made for: the full :class:`Config`
    (the notebook's defaults), its seed variant at ``seed`` (:func:`seed_configs`: declared range only).

    Parameters
    ----------
    seed : int

    Returns
    -------
    Config
    """
    full = Config()
    return replace(full, seed=int(seed), priors=full.priors[:1])


def seed_run_keys(seeds) -> dict:
    """``{seed: seed_run_key(seed_run_config(seed), digests)}`` (the data sets loaded and digested once)."""
    digests = data_digests(loaded_datasets(Config().datasets))
    return {int(seed): seed_run_key(seed_run_config(seed), digests) for seed in seeds}


def seed_run(seed: int, n_jobs=1):
    """One committed run (what ``python -m companion.sweep --runs --only 05`` runs per seed).

    Parameters
    ----------
    seed : int
        The fold seed (the variant's folds are seeded ``seed + repeat``).
    n_jobs : int, default=1

    Returns
    -------
    frame : pandas.DataFrame
        :func:`run`'s frame.
    key : str
        :func:`seed_run_key`.
    config : str
        The protocol in words.
    """
    config = seed_run_config(seed)
    data = loaded_datasets(config.datasets)
    return run(config, n_jobs=n_jobs, data=data), seed_run_key(config, data_digests(data)), repr(config)


def run_seed_variants(config, n=N_SEED_VARIANTS, n_jobs=1, seed_runs: SeedRuns | str | None = None, *, data=None):
    """:func:`run` of every :func:`seed_configs` variant: ``{"seed=<s>": frame}``.

    The data sets are loaded once and shared by the variants' runs.

    Parameters
    ----------
    config : Config
    n : int, default=N_SEED_VARIANTS
    n_jobs : int, default=1
    seed_runs : SeedRuns, "committed" or None, default=None
        Committed runs (``"committed"``: ``data/seed_runs/05``): a variant whose run is there, made for the
        same settings and data (:func:`seed_run_key`), is read instead of run; the frame is the
        one :func:`run` gives. None: every variant is run.
    data : dict or None, default=None
        The data sets already loaded (:func:`loaded_datasets`); None: loaded here.

    Returns
    -------
    dict
    """
    data = loaded_datasets(config.datasets, data)
    out, seed_runs = {}, resolve_seed_runs(seed_runs, "05")
    digests = data_digests(data) if seed_runs is not None else {}
    for name, variant in seed_configs(config, n).items():
        frame = None if seed_runs is None else seed_runs.read(variant.seed, seed_run_key(variant, digests))
        out[name] = run(variant, n_jobs=n_jobs, data=data) if frame is None else frame
    return out


#: The free choices of the stump learners varied beside the main protocol (on its folds, declared
#: range; the competitors' rows are the main run's): ``{variant name: Config fields}``.
#: ``prefilter``: the stump learners' search sees that many in-fold Welch-filtered genes (the
#: competitors keep ``n_prefilter``). A variant naming ``datasets`` reruns those only: on the
#: others its range is the main one, and their rows are the main run's.
CHOICE_VARIANTS = {
    "eta=0.5": {"eta": 0.5},
    "eta=0.25": {"eta": 0.25},
    "p=grid 0.5 1 2 for Occam and PAC-Bayes": {"costly_p": (0.5, 1.0, 2.0)},
    "prefilter=200 (stump learners)": {"n_prefilter": 200},
    "prefilter=50 (stump learners)": {"n_prefilter": 50},
    "range=declared 20-bit envelope for the raw sets": {"priors": ("declared_wide",)},
    "range=declared second reading (Colon [0, 2^18], BreastER ±2^7, ALL [0, 20])": {
        "priors": ("declared_second",), "datasets": ("colon", "breast_er", "all_bioc")},
}


def _stump_fold_rows(loaded, config, task):
    """The stump learners' rows of one outer fold (declared range), as :func:`_fold_rows` makes them.

    ``task = (item, known)``: ``known`` the rows already made on this fold (a
    :class:`~companion.experiments.paper05._protocol.FoldMemo`'s, by ``(learner, prior)``).
    Returns the rows and those fitted here (by ``(learner, prior)``)."""
    item, known = task
    name, (repeat, fold, train, test) = item
    X, y, names, prior_ranges = loaded[name]
    X_tr, y_tr, X_te, y_te = X[train], y[train], X[test], y[test]
    keep = welch_t_ranking(X_tr, y_tr, config.n_prefilter)
    base = {"dataset": name, "repeat": repeat, "fold": fold, "n_train": len(train), "n_test": len(test)}
    with trusted_inputs(), warnings.catch_warnings():
        warnings.simplefilter("ignore", SingleClassWarning)
        computed = {}
        rows = stump_rows(name, X, X_tr, y_tr, X_te, y_te, keep, names, config, prior_ranges, known=known,
                          computed=computed)
        rows += selected_stumps(rows, config)
    return [{**base, **row} for row in rows], computed


def run_choice_variants(config, results, n_jobs=1, variants=None, *, memo=None, data=None):
    """The stump learners rerun under each free choice of :data:`CHOICE_VARIANTS`, on the main folds.

    Each variant is ``config`` with the variant's fields and the declared range only (or, for
    ``range=declared …``, the other declared range, whose rows then stand as the main range's); its stump
    rows (and the bound-chosen ``stumps`` rows) are recomputed on every outer fold of the main run,
    and the competitors' rows are ``results``' (their settings do not change).

    Parameters
    ----------
    config : Config
        The main protocol.
    results : pandas.DataFrame
        :func:`run`'s frame of ``config``.
    n_jobs : int, default=1
    variants : dict or None, default=None
        ``{name: Config fields}`` (None: :data:`CHOICE_VARIANTS`).
    memo : FoldMemo or None, default=None
        The memo given to :func:`run` of ``config``
        (:class:`~companion.experiments.paper05._protocol.FoldMemo`): a learner whose parameters
        and range a variant leaves as they are is not refitted. The frames are the ones a call
        without a memo gives.
    data : dict or None, default=None
        The data sets already loaded (:func:`loaded_datasets`); None: loaded here.

    Returns
    -------
    dict
        ``{variant name: frame}``, each shaped as :func:`run`'s.
    """
    variants = CHOICE_VARIANTS if variants is None else variants
    data = loaded_datasets(config.datasets, data)
    digests = {name: data_digest(*arrays) for name, arrays in data.items()} if memo is not None else {}
    out = {}
    competitors = results[~results["learner"].isin([*STUMP_VARIANTS, "stumps"])]
    for label, fields in variants.items():
        fields = dict(fields)
        if "datasets" in fields:  # the other data sets' rows are the main run's (same range there)
            fields["datasets"] = tuple(n for n in config.datasets if n in fields["datasets"])
        variant = replace(config, **{"priors": config.priors[:1], **fields})
        same = results[~results["dataset"].isin(variant.datasets) & results["learner"].isin([*STUMP_VARIANTS, "stumps"])
                       & (results["prior"] == PRIORS[0])]
        loaded = {name: (X, y, names, {p: prior_feature_range(name, X, p) for p in variant.priors})
                  for name, (X, y, names) in data.items() if name in variant.datasets}
        items = [(name, (repeat, fold, train, test)) for name in variant.datasets for repeat in range(variant.n_repeats)
                 for fold, (train, test) in enumerate(stratified_folds(loaded[name][1], n_splits=variant.n_splits,
                                                                       seed=variant.seed + repeat))]
        columns = ["dataset", "method", "seed", "fold", *RESULT_COLUMNS]
        frame = results.iloc[0:0][columns]
        if items:
            if memo is None:
                keys = [{} for _ in items]
            else:
                keys = [stump_keys(digests[name], train, test, variant, loaded[name][3], loaded[name][0].shape[1])
                        for name, (_, _, train, test) in items]
            tasks = [(item, {vp: memo.stump_rows[key] for vp, key in k.items() if key in memo.stump_rows})
                     for item, k in zip(items, keys)]
            done = parallel_map(partial(_stump_fold_rows, loaded, variant), tasks, n_jobs=n_jobs)
            if memo is not None:
                for k, (_, computed) in zip(keys, done):
                    memo.stump_rows.update({k[vp]: rows for vp, rows in computed.items()})
            parts = [rows for rows, _ in done]
            frame = pd.DataFrame([row for part in parts for row in part])
            for column, fill in (("bound", np.nan), ("bound_pairing", np.nan), ("gibbs_errors", np.nan),
                                 ("gibbs_bound", np.nan), ("model_type", ""), ("p", np.nan), ("gene_names", ""),
                                 ("rule", ""), ("chosen", "")):
                frame[column] = frame[column].fillna(fill) if column in frame else fill
            # a variant's own declared range stands where the main one does (the claims read that row)
            frame["prior"] = frame["prior"].replace({variant.priors[0]: PRIORS[0]})
            frame["method"] = [method_key(*key) for key in zip(frame["learner"], frame["k"], frame["prior"])]
            frame["seed"] = variant.seed + frame["repeat"]
        frame = pd.concat([part[columns] for part in (frame, same, competitors) if len(part)], ignore_index=True)
        out[label] = check_tidy(frame)
    return out


#: The competitors' settings at matched sparsity varied beside the main ones (:data:`COMPETITOR_SETTINGS`),
#: one at a time: each ``C`` a decade each way, and AdaBoost's stumps fitted on the genes' columns in
#: reverse order (another tie rule among stumps tied on the weights): ``{variant name: settings}``.
COMPETITOR_VARIANTS = {
    "competitors=SVM C 0.1 (SVM-RFE, BAHSIC)": {**COMPETITOR_SETTINGS, "svm_c": 0.1},
    "competitors=SVM C 10 (SVM-RFE, BAHSIC)": {**COMPETITOR_SETTINGS, "svm_c": 10.0},
    "competitors=L1 refit C 0.1": {**COMPETITOR_SETTINGS, "refit_c": 0.1},
    "competitors=L1 refit C 10": {**COMPETITOR_SETTINGS, "refit_c": 10.0},
    "competitors=AdaBoost tie order (genes reversed)": {**COMPETITOR_SETTINGS, "boost_order": "reversed"},
}


#: The variant of :data:`COMPETITOR_VARIANTS` that changes AdaBoost's tie order.
TIE_ORDER_VARIANT = "competitors=AdaBoost tie order (genes reversed)"


def _tie_order_fold(loaded, config, item):
    """One outer fold of :func:`adaboost_tie_order_effect`: ``(fits, fits moved, outer fits, outer
    fits moved, test predictions, test predictions moved)`` over ``k`` of ``config.matched_k``."""
    name, (repeat, fold, train, test) = item
    X, y, _ = loaded[name]
    X_tr, y_tr, X_te = X[train], y[train], X[test]
    parts = [(X_tr[a], y_tr[a], X_tr[b], None) for a, b in
             stratified_folds(y_tr, n_splits=config.inner_splits, seed=1000 * (config.seed + repeat) + fold)]
    counts = np.zeros(6, dtype=np.int64)
    for position, (A_tr, b_tr, A_te, _) in enumerate([(X_tr, y_tr, X_te, None), *parts]):
        keep = welch_t_ranking(A_tr, b_tr, config.n_prefilter)
        genes, staged = {}, {}
        for order in ("given", "reversed"):
            columns = BOOST_ORDERS[order](keep.size)
            with trusted_inputs():
                boost, stages = boosted_stumps(A_tr[:, keep[columns]], b_tr, A_te[:, keep[columns]],
                                               max(config.matched_k), config.seed)
            genes[order] = {k: {int(keep[columns[g]]) for g in boosted_genes(boost, k)} for k in config.matched_k}
            staged[order] = {k: stages[min(k, len(stages)) - 1] for k in config.matched_k}
        for k in config.matched_k:
            moved = genes["given"][k] != genes["reversed"][k]
            counts[0:2] += (1, moved)
            if position == 0:
                counts[2:4] += (1, moved)
                counts[4] += staged["given"][k].size
                counts[5] += int(np.sum(staged["given"][k] != staged["reversed"][k]))
    return counts


def adaboost_tie_order_effect(config, results, variant, n_jobs=1, *, data=None) -> dict:
    """What AdaBoost's tie-order variant (:data:`TIE_ORDER_VARIANT`) changes, so that a variant that
    changes no verdict can be told from one that changes nothing.

    On every outer fold of the main run and on each of its inner folds, AdaBoost's first ``k``
    stumps (``k`` of ``config.matched_k``) are fitted on the kept genes in the protocol's column
    order and reversed, and their genes compared (as the data set's gene indices); on the outer
    folds, their test predictions too. The frames give the outer test errors and the competitor
    chosen.

    Parameters
    ----------
    config : Config
    results : pandas.DataFrame
        :func:`run`'s frame of ``config``.
    variant : pandas.DataFrame
        :func:`run_competitor_variants`' frame of :data:`TIE_ORDER_VARIANT`.
    n_jobs : int, default=1
    data : dict or None, default=None
        The data sets already loaded (:func:`loaded_datasets`).

    Returns
    -------
    dict
        ``fits`` and ``fits_moved`` (fits, outer and inner, whose genes differ), ``outer`` and
        ``outer_moved`` (the outer folds' alone), ``predictions`` and ``predictions_moved`` (outer
        test examples × ``k``), ``rows`` and ``rows_moved`` (AdaBoost's outer rows at ``k`` ≥ 1
        whose test errors differ), ``chosen`` and ``chosen_moved`` (the competitor rows at
        ``k`` ≥ 1 whose chosen learner differs).
    """
    loaded = loaded_datasets(config.datasets, data)
    items = [(name, (repeat, fold, train, test)) for name in config.datasets for repeat in range(config.n_repeats)
             for fold, (train, test) in enumerate(stratified_folds(loaded[name][1], n_splits=config.n_splits,
                                                                   seed=config.seed + repeat))]
    counts = np.sum(parallel_map(partial(_tie_order_fold, loaded, config), items, n_jobs=n_jobs), axis=0)
    key = ["dataset", "repeat", "fold", "k"]
    paired = results.merge(variant, on=[*key, "learner", "prior"], suffixes=("", "_variant"))
    paired = paired[paired["k"] > 0]
    boosted = paired[paired["learner"] == "adaboost_stumps"]
    chosen = paired[paired["learner"] == "competitor"]
    return {"fits": int(counts[0]), "fits_moved": int(counts[1]), "outer": int(counts[2]),
            "outer_moved": int(counts[3]), "predictions": int(counts[4]), "predictions_moved": int(counts[5]),
            "rows": len(boosted), "rows_moved": int((boosted["errors"] != boosted["errors_variant"]).sum()),
            "chosen": len(chosen), "chosen_moved": int((chosen["chosen"] != chosen["chosen_variant"]).sum())}


def _competitor_fold_rows(loaded, config, settings, task):
    """:func:`selected_matched`'s ``{label: rows}`` of one outer fold ``task = (item, shared)``, with the fold keys."""
    item, shared = task
    name, (repeat, fold, train, test) = item
    X, y, _ = loaded[name]
    X_tr, y_tr, X_te, y_te = X[train], y[train], X[test], y[test]
    keep = welch_t_ranking(X_tr, y_tr, config.n_prefilter)
    base = {"dataset": name, "repeat": repeat, "fold": fold, "n_train": len(train), "n_test": len(test)}
    with trusted_inputs():
        out = selected_matched(X_tr, y_tr, X_te, y_te, keep, config, config.seed, 1000 * (config.seed + repeat) + fold,
                               settings, shared=shared)
    return {label: [{**base, **row} for row in rows] for label, rows in out.items()}


def run_competitor_variants(config, results, n_jobs=1, variants=None, *, memo=None, data=None):
    """The competitors at matched sparsity rerun under each setting of :data:`COMPETITOR_VARIANTS`, on the main folds.

    On every outer fold of the main run, the four matched competitors (L1-logistic, SVM-RFE,
    AdaBoost, BAHSIC) are rerun at each ``k`` ≥ 1 under every setting at once, on the inner folds
    and the outer fold, and the ``competitor`` of each ``k`` is chosen on the inner folds as in
    :func:`run`; what no setting changes is computed once per fold and setting group. The stump
    learners' rows and the unrestricted competitors' (``k = 0``) are ``results``' own.

    Parameters
    ----------
    config : Config
        The main protocol.
    results : pandas.DataFrame
        :func:`run`'s frame of ``config``.
    n_jobs : int, default=1
    variants : dict or None, default=None
        ``{name: settings}`` (None: :data:`COMPETITOR_VARIANTS`).
    memo : FoldMemo or None, default=None
        The memo given to :func:`run` of ``config``
        (:class:`~companion.experiments.paper05._protocol.FoldMemo`): on each part of an outer fold
        the L1 path, BAHSIC's order, AdaBoost and the fits at the protocol's own settings are the
        main run's. The frames are the ones a call without a memo gives.
    data : dict or None, default=None
        The data sets already loaded (:func:`loaded_datasets`); None: loaded here.

    Returns
    -------
    dict
        ``{variant name: frame}``, each shaped as :func:`run`'s.
    """
    variants = COMPETITOR_VARIANTS if variants is None else variants
    loaded = loaded_datasets(config.datasets, data)
    items = [(name, (repeat, fold, train, test)) for name in config.datasets for repeat in range(config.n_repeats)
             for fold, (train, test) in enumerate(stratified_folds(loaded[name][1], n_splits=config.n_splits,
                                                                   seed=config.seed + repeat))]
    if memo is None:
        tasks = [(item, None) for item in items]
    else:
        digests = {name: data_digest(*arrays) for name, arrays in loaded.items()}
        tasks = [(item, memo.matched.get(matched_key(digests[name], train, test, config, config.seed, repeat, fold,
                                                      max(config.matched_k))))
                 for item in items for name, (repeat, fold, train, test) in [item]]
    parts = parallel_map(partial(_competitor_fold_rows, loaded, config, variants), tasks, n_jobs=n_jobs)
    matched = results["learner"].isin([*MATCHED_COMPETITORS, "competitor"]) & (results["k"] > 0)
    kept = results[~matched]
    out = {}
    for label in variants:
        frame = pd.DataFrame([row for part in parts for row in part[label]])
        for column, fill in (("bound", np.nan), ("bound_pairing", np.nan), ("gibbs_errors", np.nan),
                             ("gibbs_bound", np.nan), ("model_type", ""), ("p", np.nan), ("gene_names", ""),
                             ("rule", ""), ("chosen", "")):
            frame[column] = frame[column].fillna(fill) if column in frame else fill
        frame["method"] = [method_key(*key) for key in zip(frame["learner"], frame["k"], frame["prior"])]
        frame["seed"] = config.seed + frame["repeat"]
        out[label] = check_tidy(pd.concat([kept, frame[results.columns]], ignore_index=True))
    return out


#: The rules that pick the stump side of a fold (the ``stumps`` rows, read by the matched-sparsity
#: k-rows) beside the protocol's (the smallest training-fold bound, PAC-Bayes read by its Bayes
#: vote's bound, twice its Gibbs bound, so never chosen): each named learner alone, and the
#: smallest bound with PAC-Bayes read by its Gibbs bound (its Bayes vote predicts) or with SC's
#: bound paying ``ln |k|!`` (:func:`sc_bound_with_pairing`). ``{variant name: rule}``.
SELECTION_RULES = {
    "select=SC alone": "sc",
    "select=Occam alone": "occam",
    "select=PAC-Bayes alone (Bayes vote)": "pac_bayes",
    "select=smallest bound, PAC-Bayes by its Gibbs bound": "gibbs",
    "select=smallest bound, SC paying ln|k|!": "pairing",
}


def selection_variants(results, rules=None):
    """:func:`run`'s frame with its ``stumps`` rows chosen by each rule of :data:`SELECTION_RULES`.

    The stump learners' and competitors' rows are ``results``' own; on each fold, ``k`` and prior
    range the ``stumps`` row becomes the row of the learner the rule picks (ties within
    :data:`companion.numerics.TIE_RTOL` go to the first of :data:`STUMP_VARIANTS`, as in
    :func:`selected_stumps`). Nothing is refitted and no rule reads a test fold.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.
    rules : dict or None, default=None
        ``{variant name: rule}`` (None: :data:`SELECTION_RULES`); a rule is a key of
        :data:`STUMP_LEARNERS` (that learner alone), ``"gibbs"`` or ``"pairing"``.

    Returns
    -------
    dict
        ``{variant name: frame}``, each shaped as :func:`run`'s.
    """
    rules = SELECTION_RULES if rules is None else rules
    learners = results[results["learner"].isin(STUMP_VARIANTS)]
    rest = results[results["learner"] != "stumps"]
    priors = [p for p in dict.fromkeys(results.loc[results["learner"] == "stumps", "prior"])]
    out = {}
    for label, rule in rules.items():
        chosen = []
        for prior in priors:
            part = learners[(learners["prior"] == prior) | (learners["learner"] == "sc")]
            if rule in STUMP_LEARNERS:
                picked = part[part["learner"] == rule]
            else:
                score = part["bound"]
                if rule == "gibbs":
                    score = score.where(part["learner"] != "pac_bayes", part["gibbs_bound"])
                if rule == "pairing":
                    score = score.where(part["learner"] != "sc", part["bound_pairing"])
                order = part["learner"].map({v: i for i, v in enumerate(STUMP_VARIANTS)})
                part = part.assign(_score=score.to_numpy(dtype=float), _order=order)
                rows = []
                for _, group in part.groupby(["dataset", "repeat", "fold", "k"], sort=False):
                    group = group.sort_values("_order", kind="stable")
                    rows.append(group.index[first_near_min(group["_score"].to_numpy())])
                picked = part.loc[rows].drop(columns=["_score", "_order"])
            chosen.append(picked.assign(chosen=picked["learner"], learner="stumps", prior=prior, rule="",
                                        method=[method_key("stumps", k, prior) for k in picked["k"]]))
        frame = pd.concat([rest, *chosen], ignore_index=True)
        out[label] = check_tidy(frame[results.columns])
    return out


#: The name of the variant whose stump side is chosen on inner folds (:func:`inner_cv_variant`).
INNER_CV_RULE = "select=inner CV (the learner of fewest inner-fold errors)"


def _inner_cv_choices(loaded, config, item):
    """The stump learner of fewest errors on the inner folds of one outer fold, at each ``k``.

    The training fold is split into the inner folds the competitors are chosen on (same seed);
    on each, the three stump learners are fitted as on the outer fold (Welch filter, grid, length
    chosen by their own bound, declared range) and scored on the inner test part. Ties go to the
    first of :data:`STUMP_VARIANTS`. No outer test example is read."""
    name, (repeat, fold, train, test) = item
    X, y, names, prior_ranges = loaded[name]
    X_tr, y_tr = X[train], y[train]
    errors = {}
    with trusted_inputs(), warnings.catch_warnings():
        warnings.simplefilter("ignore", SingleClassWarning)
        for a, b in stratified_folds(y_tr, n_splits=config.inner_splits, seed=1000 * (config.seed + repeat) + fold):
            keep = welch_t_ranking(X_tr[a], y_tr[a], config.n_prefilter)
            for r in stump_rows(name, X, X_tr[a], y_tr[a], X_tr[b], y_tr[b], keep, names, config, prior_ranges):
                errors[(r["learner"], r["k"])] = errors.get((r["learner"], r["k"]), 0) + r["errors"]
    return [{"dataset": name, "repeat": repeat, "fold": fold, "k": k,
             "chosen": min(STUMP_VARIANTS, key=lambda v: (errors[(v, k)], STUMP_VARIANTS.index(v)))}
            for k in (0, *config.matched_k)]


def inner_cv_variant(config, results, n_jobs=1, *, data=None):
    """:func:`run`'s frame with its ``stumps`` rows (declared range) chosen on inner folds, not by the bound.

    On every outer fold of the main run the three stump learners are rerun on the training
    fold's inner folds (:func:`_inner_cv_choices`) and the one of fewest inner errors at each ``k``
    becomes the stump side; its outer row is ``results``' own row of that learner (nothing else is
    refitted). The rows of the other prior ranges are ``results``'.

    Parameters
    ----------
    config : Config
        The main protocol.
    results : pandas.DataFrame
        :func:`run`'s frame of ``config``.
    n_jobs : int, default=1
    data : dict or None, default=None
        The data sets already loaded (:func:`loaded_datasets`); None: loaded here.

    Returns
    -------
    dict
        ``{INNER_CV_RULE: frame}``, shaped as :func:`run`'s.
    """
    variant = replace(config, priors=config.priors[:1])
    loaded = {name: (X, y, names, {variant.priors[0]: prior_feature_range(name, X, variant.priors[0])})
              for name, (X, y, names) in loaded_datasets(variant.datasets, data).items()}
    items = [(name, (repeat, fold, train, test)) for name in variant.datasets for repeat in range(variant.n_repeats)
             for fold, (train, test) in enumerate(stratified_folds(loaded[name][1], n_splits=variant.n_splits,
                                                                   seed=variant.seed + repeat))]
    parts = parallel_map(partial(_inner_cv_choices, loaded, variant), items, n_jobs=n_jobs)
    choices = pd.DataFrame([row for part in parts for row in part])
    main = PRIORS[0]
    learners = results[results["learner"].isin(STUMP_VARIANTS) & (results["prior"] == main)]
    picked = learners.merge(choices, left_on=["dataset", "repeat", "fold", "k", "learner"],
                            right_on=["dataset", "repeat", "fold", "k", "chosen"], suffixes=("_fit", ""))
    picked = picked.assign(learner="stumps", rule="", method=[method_key("stumps", k, main) for k in picked["k"]])
    rest = results[~((results["learner"] == "stumps") & (results["prior"] == main))]
    return {INNER_CV_RULE: check_tidy(pd.concat([rest, picked[results.columns]], ignore_index=True))}
