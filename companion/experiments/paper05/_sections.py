"""The sections of notebook 05, one call each: the tables, figures and sentences a section shows.

Each function composes the builders of the lower modules (``_protocol`` < ``_tables`` <
``_figures`` < ``_claims`` < ``_prose``) in the order the notebook reads them and returns a
:class:`sklearn.utils.Bunch` (a dict whose keys are also attributes). A figure is drawn and
closed here, and shown where the notebook saves it. Nothing here writes a file.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.utils import Bunch
from sklearn.utils._param_validation import Interval, StrOptions, validate_params

from companion.experiments._constraints import N_JOBS
from companion.experiments._display import closed_figure
from companion.evaluation import comparison_table
from companion.paper_numbers import paper_table
from companion.claims._stability import seed_stability
from companion.experiments._seed_runs import SeedRuns, provenance_of, resolve_seed_runs
from companion.experiments.paper05._protocol import (
    DATASETS, Config, FoldMemo, STUMP_VARIANTS, loaded_datasets, run,
)
from companion.experiments.paper05._variants import (
    TIE_ORDER_VARIANT, adaboost_tie_order_effect, data_digests, inner_cv_variant, run_choice_variants,
    run_competitor_variants, run_seed_variants,
    seed_configs, seed_run_key, selection_variants,
)
from companion.experiments.paper05._tables import (
    accuracy_by_learner, by_learner_display, gene_frequency, margin_sweep, matched_table, occam_tradeoff, summary_table,
)
from companion.experiments.paper05._math_checks import math_checks_table, run_math_checks
from companion.experiments.paper05._coverage import COVERAGE_VARIANTS, bound_coverage, coverage_table
from companion.experiments.paper05._figures import (
    plot_bound_vs_error, plot_gibbs_bound_vs_error, plot_margin_sweep, plot_matched_sparsity, plot_occam_tradeoff,
)
from companion.experiments.paper05._claims import claims_report


def _by_method(rows: pd.DataFrame, column: str, datasets) -> pd.DataFrame:
    """``column`` of the summary ``rows``, one row per method (in their order), one column per data set."""
    return rows.pivot(index="method", columns="dataset", values=column).reindex(
        index=list(dict.fromkeys(rows["method"])), columns=list(datasets))


@validate_params({"config": [Config], "n_jobs": N_JOBS, "memo": [FoldMemo, None],
                  "seed_runs": [SeedRuns, StrOptions({"committed"}), None]},
                 prefer_skip_nested_validation=False)
def results_section(config: Config, n_jobs: int = 1, *, memo: FoldMemo | None = None,
                    seed_runs: SeedRuns | str | None = None) -> Bunch:
    """The protocol's results: errors, genes and bounds per learner and data set, beside the paper.

    Parameters
    ----------
    config : Config
        The protocol (data sets, folds, repeats, grids).
    n_jobs : int or None, default=1
        Worker processes (the numbers do not depend on it).
    memo : FoldMemo or None, default=None
        Shared by the main run and the variants rerun on its folds (:class:`FoldMemo`: no fit made
        twice); None: a memo of this call's own. The numbers do not depend on it.
    seed_runs : SeedRuns, "committed" or None, default=None
        The committed runs at other fold seeds (``"committed"``: ``data/seed_runs/05``): a seed variant
        committed for the same settings and data is read there, not run; the numbers are the
        same. None: every seed variant is run.

    Returns
    -------
    Bunch
        ``results`` (:func:`run`'s frame, one row per fold and method), ``summary``
        (:func:`summary_table`) and ``unrestricted`` (its rows at ``k = 0``); per method and data
        set at ``k = 0``: ``cv_error``, ``sd``, ``genes``, ``bound`` (the methods with one; SC's
        also in its strictly valid form, which pays ``ln |k|!``) and
        ``gibbs`` (PAC-Bayes' Gibbs error and bound); ``seed_results`` (the seed variants'
        frames) and ``seeds`` (each stump learner's, the composite's and the competitor's CV errors under
        each); ``choice_results`` (:func:`run_choice_variants`, :func:`selection_variants`,
        :func:`inner_cv_variant` and :func:`run_competitor_variants`); ``tie_order``
        (:func:`adaboost_tie_order_effect`: what AdaBoost's tie-order variant changes);
        ``bound_figure``, ``gibbs_figure``; ``matched`` (:func:`matched_table`) and
        ``matched_figure``; ``frequency`` (:func:`gene_frequency`, top 3); ``rules`` (the rules
        of the first repetition's folds on Golub's data, or the last data set); ``beside_paper``
        (the paper's CV errors, where they survive, beside ours); ``by_learner``
        (:func:`accuracy_by_learner`: each stump learner and the bound-chosen composite against
        the competitor, per data set) and ``by_learner_shown`` (:func:`by_learner_display`: its
        intervals and head-to-head tallies, one cell per side).
    """
    memo = FoldMemo() if memo is None else memo
    data = loaded_datasets(config.datasets)  # read once, shared by the run and every variant on these data
    results = run(config, n_jobs=n_jobs, memo=memo, data=data)
    summary = summary_table(results)
    unrestricted = summary[summary["k"] == 0]
    pac = unrestricted[unrestricted["learner"] == "pac_bayes"]
    seed_results = run_seed_variants(config, n_jobs=n_jobs, seed_runs=seed_runs, data=data)
    seeds = pd.DataFrame({
        name: summary_table(frame).query("k == 0 and method in ['sc', 'occam', 'pac_bayes', 'stumps', 'competitor']")
        .set_index(["dataset", "method"])["cv_error_%"]
        for name, frame in {"main": results, **seed_results}.items()
    })
    choice_results = {**run_choice_variants(config, results, n_jobs=n_jobs, memo=memo, data=data),
                      **selection_variants(results), **inner_cv_variant(config, results, n_jobs=n_jobs, data=data),
                      **run_competitor_variants(config, results, n_jobs=n_jobs, memo=memo, data=data)}
    tie_order = adaboost_tie_order_effect(config, results, choice_results[TIE_ORDER_VARIANT], n_jobs=n_jobs, data=data)
    matched = matched_table(results)
    by_learner = accuracy_by_learner(results)
    named = "leukemia_golub" if "leukemia_golub" in config.datasets else config.datasets[-1]
    first = results[(results["dataset"] == named) & (results["repeat"] == 0) & results["method"].isin(STUMP_VARIANTS)]
    lost = paper_table("05_results")
    errors_paper = lost[lost["quantity"] == "cv_error"].set_index(["dataset", "learner"])["value"]
    ours = unrestricted[unrestricted["method"].isin(STUMP_VARIANTS)].set_index(["dataset", "learner"])["cv_error_%"]
    return Bunch(
        results=results, summary=summary, unrestricted=unrestricted,
        cv_error=_by_method(unrestricted, "cv_error_%", config.datasets),
        sd=_by_method(unrestricted, "sd over repeats", config.datasets),
        genes=_by_method(unrestricted, "genes", config.datasets),
        bound=pd.concat([_by_method(unrestricted, "bound_%", config.datasets),
                         _by_method(unrestricted[unrestricted["learner"] == "sc"], "bound_pairing_%", config.datasets)
                         .rename(index={"sc": "sc, with ln|k|! (strictly valid)"})]).dropna(how="all"),
        gibbs=pd.concat({"gibbs error": _by_method(pac, "gibbs_error_%", config.datasets),
                         "gibbs bound": _by_method(pac, "gibbs_bound_%", config.datasets)}, axis=1),
        seed_results=seed_results, seeds=seeds, choice_results=choice_results, tie_order=tie_order,
        bound_figure=closed_figure(plot_bound_vs_error(summary)), gibbs_figure=closed_figure(plot_gibbs_bound_vs_error(results)),
        matched=matched, matched_figure=closed_figure(plot_matched_sparsity(matched)),
        frequency=gene_frequency(results, top=3),
        rules=first.pivot(index="fold", columns="method", values="rule")[list(STUMP_VARIANTS)],
        beside_paper=comparison_table(errors_paper, ours.reindex(errors_paper.index)).dropna(subset=["ours"]),
        by_learner=by_learner, by_learner_shown=by_learner_display(by_learner),
    )


@validate_params({"name": [StrOptions(set(DATASETS))], "gaps": ["array-like"], "config": [Config, None]},
                 prefer_skip_nested_validation=False)
def margin_section(name: str, gaps, config: Config) -> Bunch:
    """PAC-Bayes on a whole data set: the Gibbs bound against the margin width and the sparsity.

    Parameters
    ----------
    name : str
        The data set.
    gaps : array-like of int
        Margin widths.
    config : Config or None
        The protocol (its prior range and grids; None: ``Config()``).

    Returns
    -------
    Bunch
        ``sweep`` (:func:`margin_sweep`), ``best`` (the row of least Gibbs bound per width) and
        ``figure``.
    """
    sweep = margin_sweep(name, gaps=gaps, config=config)
    return Bunch(sweep=sweep, best=sweep.loc[sweep.groupby("gap")["gibbs_bound"].idxmin()],
                 figure=closed_figure(plot_margin_sweep(sweep)))


@validate_params({"name": [StrOptions(set(DATASETS))], "etas": ["array-like"], "config": [Config, None]},
                 prefer_skip_nested_validation=False)
def occam_section(name: str, etas, config: Config) -> Bunch:
    """Occam on a whole data set: many short codes or few long ones, as the code weight η moves.

    Parameters
    ----------
    name : str
        The data set.
    etas : array-like of float
        Code weights ``η``.
    config : Config or None
        The protocol (its prior range and grids; None: ``Config()``).

    Returns
    -------
    Bunch
        ``tradeoff`` (:func:`occam_tradeoff`) and ``figure``.
    """
    tradeoff = occam_tradeoff(name, etas=etas, config=config)
    return Bunch(tradeoff=tradeoff, figure=closed_figure(plot_occam_tradeoff(tradeoff)))


@validate_params({"random_state": ["random_state", np.random.Generator],
                  "n_runs": [Interval(Integral, 1, None, closed="left")],
                  "seed": [Interval(Integral, 0, None, closed="left")], "n_jobs": N_JOBS},
                 prefer_skip_nested_validation=True)
def bounds_checks_section(random_state, n_runs: int, seed: int, n_jobs: int = 1) -> Bunch:
    """The statements about the bounds checked by computation, and the bounds' Monte-Carlo coverage.

    Parameters
    ----------
    random_state : numpy.random.Generator, int, RandomState or None
        The notebook's seeded generator, from which the checks of the mathematical statements and
        algorithm descriptions draw their random inputs (an int or None seeds a new one).
    n_runs : int
        Training samples per known distribution of the coverage test.
    seed : int
        Seeds the coverage test's samples.
    n_jobs : int or None, default=1
        Worker processes of the coverage test (the numbers do not depend on it).

    Returns
    -------
    Bunch
        ``checks`` (``{measure key: (ok, detail)}``, the ``math_*`` measures of the claims),
        ``table`` (row id, kind, statement, what was run, result), ``coverage``
        (:func:`bound_coverage`'s frame), ``coverage_table`` (:func:`coverage_table`) and
        ``coverage_variants`` (``{"main": frame, "coverage=…": frame}``: the test rerun under each of
        :data:`COVERAGE_VARIANTS`, its own settings varied) with ``variants_table`` (their tables).
    """
    import companion.claims as C

    if isinstance(random_state, np.random.RandomState):
        random_state = int(random_state.randint(2**31 - 1))
    rng = random_state if isinstance(random_state, np.random.Generator) else np.random.default_rng(random_state)
    checks = run_math_checks(rng)
    coverage = bound_coverage(n_runs, seed=seed, n_jobs=n_jobs)
    variants = {"main": coverage, **{name: bound_coverage(n_runs, seed=seed, n_jobs=n_jobs, **kwargs)
                                     for name, kwargs in COVERAGE_VARIANTS.items()}}
    variants_table = pd.concat({name: coverage_table(frame) for name, frame in variants.items() if name != "main"},
                               names=["variant", None]).reset_index(level=0)
    return Bunch(checks=checks, table=math_checks_table(checks, C.load_registry("05")), coverage=coverage,
                 coverage_table=coverage_table(coverage), coverage_variants=variants, variants_table=variants_table)


#: The fold seeds each claim's verdict is counted over: the main run's and 99 others (their runs
#: committed in ``data/seed_runs/05``, made by ``python -m companion.sweep --runs --only 05``).
N_STABILITY_SEEDS = 100


@validate_params({"results": [pd.DataFrame], "seed_results": [dict, None], "tradeoff": [pd.DataFrame, None],
                  "checks": [dict, None], "coverage": [pd.DataFrame, dict, None], "references": [dict, None],
                  "config": [Config, None], "seed_runs": [SeedRuns, StrOptions({"committed"}), None],
                  "n_stability_seeds": [Interval(Integral, 1, None, closed="left")]},
                 prefer_skip_nested_validation=True)
def claims_section(results: pd.DataFrame, seed_results: dict, tradeoff: pd.DataFrame, checks: dict = None,
                   coverage=None, references: dict = None, *, config: Config | None = None,
                   seed_runs: SeedRuns | str | None = None, n_stability_seeds: int = N_STABILITY_SEEDS) -> Bunch:
    """The registry's claims decided on the protocol, its variants and the Occam trade-off; their stability over seeds.

    Parameters
    ----------
    results : DataFrame
        :func:`run`'s frame.
    seed_results : dict or None
        The seed variants' frames (:func:`run_seed_variants`; None: no seed variant).
    tradeoff : DataFrame or None
        :func:`occam_tradeoff` (None: the code-length claim is not judged).
    checks : dict or None, default=None
        :func:`bounds_checks_section`'s ``checks`` (None: those rows are not evaluated).
    coverage : DataFrame, dict or None, default=None
        :func:`bounds_checks_section`'s ``coverage_variants`` (or its ``coverage`` alone; None: the
        coverage rows are not evaluated).
    references : dict or None, default=None
        ``{prior: probe}``: the first gene of Occam's conjunction on the full Leukaemia data under
        each prior range (:func:`golub_genes`; None: ``occam-gene`` is not evaluated).
    config : Config, optional
        The main run's protocol: with it, ``stability`` counts each claim's verdicts over fold seeds.
    seed_runs : SeedRuns, "committed" or None, default=None
        Where the other seeds' committed runs are (``"committed"``: ``data/seed_runs/05``); None:
        none is read (the main run only).
    n_stability_seeds : int, default=N_STABILITY_SEEDS
        Fold seeds counted, the main one included (100).

    Returns
    -------
    Bunch
        ``report`` (:class:`companion.claims.ClaimsReport`; ``report.sentences()`` states the
        verdicts; with ``config``, the committed runs of the other fold seeds are variants
        ``seed=k`` of it too, so each claim's ``seeds`` and ``robust`` count every seed judged),
        ``verdicts`` (each claim's verdict under each variant its row lists but the committed
        seeds'; empty where the variant never enters the row's data) and ``stability`` (with ``config``: each
        claim's verdict at the main fold seed and at every other seed ``seed + 2j`` whose run is
        committed: :func:`companion.claims._stability.seed_stability`'s table, verdicts, seeds and
        text, and ``missing``; None without ``config``).
    """
    seed_results = dict(seed_results or {})
    seed_runs = resolve_seed_runs(seed_runs, "05")
    committed, missing, read_before = ({}, None, []) if config is None else _committed_seed_runs(
        config, seed_runs, n_stability_seeds, skip=seed_results)
    report = claims_report(results, {**seed_results, **committed}, tradeoff, checks, coverage, references)
    listed = report.sensitivity[report.sensitivity["role"] != "not listed"]  # a variant a row never enters: empty
    verdicts = listed.pivot(index="id", columns="variant", values="verdict")
    # the committed seeds' verdicts are the stability table's: the run's own variants here
    columns = [name for name in dict.fromkeys(report.sensitivity["variant"]) if name not in committed]
    stability = None if config is None else seed_stability(report, config.seed, missing=missing,
                                                          command="python -m companion.sweep --runs --only 05",
                                                          provenance=provenance_of(
                                                              seed_runs, [*read_before, *committed],
                                                              computed=[int(n.split("=", 1)[1]) for n in seed_results
                                                                        if n.startswith("seed=")
                                                                        and n not in read_before]))
    return Bunch(report=report, verdicts=verdicts.reindex(index=list(report.table["id"]), columns=columns),
                 stability=stability)


def _committed_seed_runs(config: Config, seed_runs, n_seeds: int, skip) -> tuple[dict, list[int], list[str]]:
    """The committed runs of the other fold seeds (:func:`seed_configs`: the whole protocol on other
    outer folds, declared range) as variants ``seed=k``, but those in ``skip``; the seeds with no
    committed run; and the names in ``skip`` whose committed run was made for their settings (the
    protocol section read them there, :func:`run_seed_variants`).

    Only the runs made for ``config``'s settings and these data are read, none is computed here
    (a run costs about a minute: ``python -m companion.sweep --runs --only 05`` makes them).
    """
    digests = data_digests(loaded_datasets(config.datasets))  # once: every seed's key holds them
    frames, missing, read_before = {}, [], []
    for name, variant in seed_configs(config, n_seeds - 1).items():
        if name in skip:
            record = None if seed_runs is None else seed_runs.record(variant.seed)
            if record is not None and record["key"] == seed_run_key(variant, digests):
                read_before.append(name)
            continue
        frame = None if seed_runs is None else seed_runs.read(variant.seed, seed_run_key(variant, digests))
        if frame is None:
            missing.append(variant.seed)
        else:
            frames[name] = frame
    return frames, missing, read_before


