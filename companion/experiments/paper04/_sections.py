"""The sections of notebook 04, one call each: the tables, figures and sentences a section shows.

Each function composes the builders of the lower modules (``_protocol`` < ``_peers`` <
``_studies`` < ``_tables`` < ``_figures`` < ``_claims`` < ``_prose``) in the order the notebook
reads them and returns a :class:`sklearn.utils.Bunch` (a dict whose keys are also attributes). A
figure is drawn and closed here, and shown where the notebook saves it. Nothing here writes a file.
"""

from __future__ import annotations

from dataclasses import replace
from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.utils import Bunch
from sklearn.utils._param_validation import StrOptions, validate_params

from companion.experiments._constraints import COUNT, N_JOBS, SEED
from companion.experiments._display import closed_figure
from companion.datasets import load_peers
from companion.numerics import StrictInterval
from companion.widc import DecisionCommittee
from companion.experiments.paper04._protocol import (
    BENCHMARK_SETS, Config, FoldMemo, load_benchmark_set, missing_value_sets, numeric_attribute_sets,
    numeric_typing_sets, run,
)
from companion.claims._stability import seed_stability
from companion.experiments._seed_runs import SeedRuns, provenance_of, resolve_seed_runs
from companion.experiments.protocol import check_tidy
from companion.experiments.paper04._peers import (
    J48_SETTINGS, MAJORITY, N_STABILITY_SEEDS, committed_seed_frames, majority_results, peer_results, seed_variants,
)
from companion.experiments.paper04._peers import seed_runs as runs_at_seeds
from companion.experiments.paper04._studies import (
    choose_optimistic_strength, committee_cells, label_noise_facts, optimistic_sensitivity, optimistic_structures,
    optimistic_trace,
)
from companion.experiments.paper04._tables import (
    cells_table, error_with_std, folds_table, paper_comparison, paper_context, pattern_cells, peer_tables,
    polarity_table, sensitivity_pivot, sensitivity_summary, summary_table,
)
from companion.experiments.paper04._figures import (
    plot_paired_scatter, plot_partitions, plot_sensitivity, plot_size_vs_error, plot_z_trace,
)
from companion.experiments.paper04._claims import (
    beside_paper_variants, claims_report, claims_variants, holm_family_table, same_results, seed_family_check,
    sentence_table, vote0_wilcoxon_table, with_vote0_report,
)
from companion.experiments.paper04._math_checks import math_checks, math_table
from companion.experiments.paper04._prose import (
    cells_prose, committee_cells_prose, degenerate_prose, glance_notes, noise_prose, optimistic_prose, peers_prose,
    ranks_prose, sanity_prose, seed_family_prose, seeds_prose, strength_prose, vote0_prose,
)

#: The learners of the benchmark tables, in the order the notebook shows them (the majority last).
LEARNERS = ("WIDC(p)", "WIDC(o)", "WIDC()", "J48", "CN2", "CN2 (alpha=1)", "CN2-unordered", "JRip", "CART",
            "RIPPER", "PRISM", MAJORITY)
#: WIDC(p)'s peers in the paper's Table 2 scatterplots.
SCATTER_PEERS = ("J48", "CN2", "CN2-unordered", "JRip")


@validate_params({"rng": [None, np.random.Generator], "max_monomials": COUNT}, prefer_skip_nested_validation=True)
def partitions_section(rng=None, max_monomials: int = 8) -> Bunch:
    """Cells of ``t`` monomials against a tree of ``t`` leaves (section 2), and the paper's statements checked.

    The checks of the paper's mathematical statements and of the algorithm steps it describes
    (:func:`companion.experiments.paper04._math_checks.math_checks`) run here, once; the claims
    (:func:`claims_section`) read their results as constants.

    Parameters
    ----------
    rng : numpy.random.Generator, optional
        The notebook's seeded generator (the checks' random inputs); ``None``: one seeded with 0.
    max_monomials : int, default=8
        The largest ``t``.

    Returns
    -------
    Bunch
        ``cells`` (one row per ``t``: :func:`pattern_cells`), ``figure`` (the partitions) and
        ``checks`` (a Bunch: ``results``, ``{measure: (ok, detail)}``, and ``table``: row, kind,
        statement, what was run, result).
    """
    rng = np.random.default_rng(0) if rng is None else rng
    sizes = range(1, max_monomials + 1)
    cells = pd.DataFrame([pattern_cells(t) for t in sizes], index=pd.RangeIndex(1, max_monomials + 1, name="t"),
                         columns=["cells, t monomials (committee)", "cells, t leaves (tree)"])
    results = math_checks(rng)
    return Bunch(cells=cells, figure=closed_figure(plot_partitions()),
                 checks=Bunch(results=results, table=math_table(results)))


@validate_params({"n_problems": COUNT, "seed": SEED, "n_jobs": N_JOBS}, prefer_skip_nested_validation=False)
def strength_section(n_problems: int, seed: int, n_jobs: int = 1) -> Bunch:
    """The optimistic pruning's strength ``c_KM`` chosen on synthetic problems, never on the benchmark.

    Parameters
    ----------
    n_problems : int
        Synthetic problems.
    seed : int
        Seed of the problems.
    n_jobs : int or None, default=1
        Worker processes (the numbers do not depend on it).

    Returns
    -------
    Bunch
        ``strengths`` (the error and size of each strength), ``recommended`` (the chosen
        ``c_KM``) and ``text`` (the choice, and how close it is to the next constant).
    """
    strengths, recommended = choose_optimistic_strength(n_problems=n_problems, seed=seed, n_jobs=n_jobs)
    return Bunch(strengths=strengths, recommended=recommended, text=strength_prose(recommended, strengths))


# Not skipping the nested validation: the data sets' names are checked by load_benchmark_set.
@validate_params(
    {"datasets": ["array-like"], "strengths": [pd.DataFrame],
     "n_splits": [StrictInterval(Integral, 2, None, closed="left")], "seed": SEED, "max_folds": [*COUNT, None],
     "memo": [FoldMemo, None], "n_jobs": N_JOBS},
    prefer_skip_nested_validation=False,
)
def sensitivity_section(datasets, *, strengths: pd.DataFrame, n_splits: int, seed: int, max_folds, memo: FoldMemo,
                        n_jobs: int = 1) -> Bunch:
    """WIDC(o) on the benchmark folds at several ``c_KM``, and the cells its committees realise.

    Parameters
    ----------
    datasets : sequence of str
        Benchmark data sets.
    strengths : DataFrame
        :func:`strength_section`'s ``strengths`` (drawn beside).
    n_splits : int
        Folds.
    seed : int
        Seed of the folds.
    max_folds : int or None
        Folds run of the ``n_splits`` (None: all).
    memo : FoldMemo or None
        The fits the later runs on these folds reuse (None: none kept).
    n_jobs : int or None, default=1
        Worker processes (the numbers do not depend on it).

    Returns
    -------
    Bunch
        ``folds`` (:func:`optimistic_sensitivity`), ``summary`` (:func:`sensitivity_summary`),
        ``figure``, ``cells`` (:func:`cells_table`) and ``cells_text``.
    """
    folds = optimistic_sensitivity(datasets, n_splits=n_splits, seed=seed, max_folds=max_folds, n_jobs=n_jobs,
                                   memo=memo)
    summary = sensitivity_summary(folds)
    cells = cells_table(folds)
    return Bunch(folds=folds, summary=summary, figure=closed_figure(plot_sensitivity(summary, strengths)), cells=cells,
                 cells_text=cells_prose(cells))


def votes_section() -> Bunch:
    """WIDC on Vote0 (all 16 votes, whole data set): the three prunings, Z during growth, the cells.

    Returns
    -------
    Bunch
        ``votes`` (the data), ``committees`` (``{pruning: committee}`` for ``none``,
        ``pessimistic`` and ``optimistic``, pruned from one growth), ``figure`` (Z during the
        growth), ``cells`` (:func:`committee_cells` of the pessimistic committee) and
        ``cells_text``.
    """
    votes = load_benchmark_set("votes")
    grown = DecisionCommittee(pruning="none", fallback=None, categorical_features=votes.nominal).fit(votes.X, votes.y)
    committees = {"none": grown, **{pruning: grown.with_pruning(pruning, votes.X, votes.y)
                                    for pruning in ("pessimistic", "optimistic")}}
    cells = committee_cells(committees["pessimistic"], votes.X, votes.y)
    return Bunch(votes=votes, committees=committees,
                 figure=closed_figure(plot_z_trace(grown, "Vote0: Z during growth (never increases)")),
                 cells=cells, cells_text=committee_cells_prose(committees["pessimistic"], cells))


# Not skipping the nested validation: the names are checked by load_benchmark_set.
@validate_params({"datasets": ["array-like"]}, prefer_skip_nested_validation=False)
def datasets_table(datasets) -> pd.DataFrame:
    """The benchmark data sets: examples, attributes, classes and what we know of their version.

    Parameters
    ----------
    datasets : sequence of str
        Names of :data:`BENCHMARK_SETS`.

    Returns
    -------
    DataFrame
        One row per data set.
    """
    rows = []
    for name in datasets:
        data = load_benchmark_set(name)
        rows.append((name, *data.X.shape, data.n_classes, BENCHMARK_SETS[name].note))
    return pd.DataFrame(rows, columns=["data set", "examples", "attributes", "classes", "note"]).set_index("data set")


@validate_params({"config": [Config], "memo": [FoldMemo, None], "n_jobs": N_JOBS}, prefer_skip_nested_validation=False)
def benchmark_section(config: Config, *, memo: FoldMemo | None = None, n_jobs: int = 1) -> Bunch:
    """The ten-fold benchmark: WIDC and the stand-ins on our folds, beside Weka's and Orange's peers.

    Parameters
    ----------
    config : Config
        The benchmark (data sets, folds, strength ``c_KM``).
    memo : FoldMemo or None, default=None
        Fits already made on these folds.
    n_jobs : int or None, default=1
        Worker processes (the numbers do not depend on it).

    Returns
    -------
    Bunch
        ``results`` (:func:`run`), ``summary`` and ``folds`` (its tables), ``everything`` (with
        the peers and the majority class), ``learners`` (:data:`LEARNERS`), ``with_peers``
        (:func:`summary_table` of everything), ``provenance`` (the peers' runs), ``errors``
        (mean ± sd per learner), ``sizes`` (mean literals), ``size_figure``,
        ``scatter_figure`` (WIDC(p) against :data:`SCATTER_PEERS`), ``beside_paper`` and
        ``context`` (the paper's numeric statements beside ours), ``votes_errors``, ``noise``
        (what the vendored xd6 is, :func:`label_noise_facts`, and what it does to claims 1 and 4:
        ``facts`` and ``text``; no facts when xd6 is not among the data sets) and ``optimistic``
        (WIDC(o) fold by fold, :func:`optimistic_trace` at the benchmark's ``c_KM``: ``trace``,
        ``summary`` per data set, ``focus`` (iris's folds) and ``text``).
    """
    datasets, max_folds = list(config.datasets), config.max_folds
    results = run(config, n_jobs=n_jobs, memo=memo)
    peers = peer_results(datasets, n_splits=config.n_splits, seed=config.seed, max_folds=max_folds)
    majority = majority_results(datasets, n_splits=config.n_splits, seed=config.seed, max_folds=max_folds)
    everything = pd.concat([results, peers, majority], ignore_index=True)
    learners = list(LEARNERS)
    with_peers = summary_table(everything)
    return Bunch(
        results=results, summary=summary_table(results), folds=folds_table(results), everything=everything,
        learners=learners, with_peers=with_peers,
        provenance=load_peers("widc").provenance[["date", "version: weka (Debian package)", "version: orange3", "folds"]],
        errors=error_with_std(everything, learners),
        sizes=with_peers.xs("literals", axis=1, level=1).reindex(columns=learners[:-1]),
        size_figure=closed_figure(plot_size_vs_error(everything, learners)),
        scatter_figure=closed_figure(plot_paired_scatter(everything, "WIDC(p)", SCATTER_PEERS)),
        beside_paper=paper_comparison(everything), context=paper_context(everything),
        votes_errors=error_with_std(everything[everything["dataset"] == "votes"], learners),
        noise=_noise(config, everything), optimistic=_optimistic(config, results, memo),
    )


def _optimistic(config: Config, results: pd.DataFrame, memo: FoldMemo | None, focus: str = "iris") -> Bunch:
    """WIDC(o) fold by fold on the benchmark's folds (:func:`benchmark_section`'s ``optimistic``)."""
    strength = DecisionCommittee().optimistic_strength if config.optimistic_strength is None \
        else config.optimistic_strength
    trace = optimistic_trace(config.datasets, strength, n_splits=config.n_splits, seed=config.seed,
                             max_folds=config.max_folds, memo=memo)
    grouped = trace.groupby("dataset", sort=False)
    summary = pd.DataFrame({
        "folds": grouped.size(), "grown rules": grouped["grown_rules"].mean(), "kept rules": grouped["kept_rules"].mean(),
        "folds with a hidden rise": grouped["hidden_removals"].apply(lambda v: int((v > 0).sum())),
        "largest rise (examples)": grouped["worst_rise"].max(), "one-class folds": grouped["one_class"].sum(),
        "test error %": 100 * grouped["errors"].sum() / grouped["n_test"].sum()})
    focus_rows = trace[trace["dataset"] == focus].set_index("fold")[
        ["grown_rules", "kept_rules", "hidden_removals", "worst_rise", "one_class", "train_errors", "n_train", "errors",
         "n_test"]]
    return Bunch(trace=trace, summary=summary, focus=focus_rows, text=optimistic_prose(trace, strength, focus, results))


def _noise(config: Config, everything: pd.DataFrame, name: str = "xd6") -> Bunch | None:
    """What the vendored ``name`` is and what it does to claims 1 and 4 (:func:`benchmark_section`'s ``noise``)."""
    if name not in config.datasets:
        from companion.prose import Markdown

        return Bunch(facts=None, text=Markdown(f"{name} is not among this run's data sets."))
    facts = label_noise_facts(name, n_splits=config.n_splits, seed=config.seed)
    return Bunch(facts=facts, text=noise_prose(facts, everything, name))


@validate_params({"config": [Config], "benchmark": [Bunch], "sensitivity": [Bunch, None], "memo": [FoldMemo, None],
                  "n_jobs": N_JOBS, "seed_runs": [StrOptions({"committed"}), SeedRuns, None],
                  "n_stability_seeds": [StrictInterval(Integral, 1, None, closed="left")]},
                 prefer_skip_nested_validation=False)
def variants_section(config: Config, benchmark: Bunch, *, sensitivity: Bunch | None = None,
                     memo: FoldMemo | None = None, n_jobs: int = 1, seed_runs: SeedRuns | str | None = None,
                     n_stability_seeds: int = N_STABILITY_SEEDS) -> Bunch:
    """The protocol variants of the claims: typing, polarity, cuts, tree size, data sets, seeds, ``c_KM``, readings.

    Parameters
    ----------
    config : Config
        The benchmark's configuration.
    benchmark : Bunch
        :func:`benchmark_section`.
    sensitivity : Bunch or None, default=None
        :func:`sensitivity_section` on the benchmark's folds: WIDC(o) at the other constants
        (the variants ``c_KM=...``; None: none).
    memo : FoldMemo or None, default=None
        Fits already made on these folds.
    n_jobs : int or None, default=1
        Worker processes (the numbers do not depend on it).
    seed_runs : "committed", SeedRuns or None, default=None
        Where the runs at the other fold seeds up to ``n_stability_seeds`` are (``"committed"``:
        ``data/seed_runs/04``, made by ``python -m companion.sweep --runs --only 04``); only the
        runs made for ``config``'s settings and these data are read, none is computed here. None:
        none is read.
    n_stability_seeds : int, default=N_STABILITY_SEEDS
        Fold seeds counted in the stability table, the main one included.

    Returns
    -------
    Bunch
        ``numeric (every learner under ``typing=numeric`` on the sets it changes, or None),
        ``polarity_gt`` (WIDC with the other first-literal polarity), ``polarity`` (the ablation
        table), ``cuts`` (WIDC with one MDL cut per numeric attribute), ``imputed`` (WIDC with
        the training fold's typical value for a missing one, on the data sets that have any, or
        None), ``structures`` (WIDC(o) under the other structures of our optimistic pass,
        :func:`optimistic_structures`), ``j48_settings`` (J48 under the other settings of
        :data:`J48_SETTINGS` on the main folds, empty where not run), ``other_seeds`` and ``seed_frames`` (the benchmark on other folds), ``variants``
        (``{variant: frame}``, what the claims read) and ``peers_text``; ``committed``
        (``{"seed=s": frame}``: the committed runs read, variants of the claims beside
        ``variants``), ``missing_seeds`` (the seeds up to ``n_stability_seeds`` with no committed
        run for these settings), ``main_seed`` and ``seed_provenance`` (how the runs read were made).
    """
    datasets = list(config.datasets)
    numeric_sets = numeric_typing_sets(datasets)
    numeric = pd.concat([
        run(replace(config, datasets=tuple(numeric_sets), typing="numeric"), n_jobs=n_jobs, memo=memo),
        peer_results(numeric_sets, n_splits=config.n_splits, seed=config.seed, max_folds=config.max_folds,
                     typing="numeric"),
    ]) if numeric_sets else None
    gt_config = replace(config, datasets=tuple(numeric_attribute_sets(datasets)), numeric_literal="gt", others=())
    polarity_gt = run(gt_config, n_jobs=n_jobs)
    cuts = run(replace(gt_config, numeric_literal="le", max_cuts=1), n_jobs=n_jobs)
    missing_sets = missing_value_sets(datasets)
    imputed = run(replace(config, datasets=tuple(missing_sets), missing="imputed", others=()), n_jobs=n_jobs,
                  memo=memo) if missing_sets else None
    other_seeds = seed_variants(config.seed)
    seed_frames = runs_at_seeds(config, other_seeds, n_jobs=n_jobs)
    # the other seeds up to n_stability_seeds: read where committed, never computed here (a run
    # needs the peers' environment: python -m companion.sweep --runs --only 04 makes them)
    seed_runs_folder = resolve_seed_runs(seed_runs, "04")
    later = [s for s in range(config.seed + 1, config.seed + n_stability_seeds) if s not in other_seeds]
    committed, missing_seeds = committed_seed_frames(config, later, seed_runs_folder)
    committed = {f"seed={s}": check_tidy(frame) for s, frame in committed.items()}
    strength = DecisionCommittee().optimistic_strength if config.optimistic_strength is None \
        else config.optimistic_strength
    structures = optimistic_structures(datasets, strength, n_splits=config.n_splits,
                                       seed=config.seed, max_folds=config.max_folds, n_jobs=n_jobs, memo=memo)
    j48_settings = peer_results(datasets, n_splits=config.n_splits, seed=config.seed, max_folds=config.max_folds,
                                run_missing=False, learners=J48_SETTINGS)
    variants = claims_variants(benchmark.everything, numeric=numeric, polarity_gt=polarity_gt, cuts=cuts,
                               seeds=seed_frames, sensitivity=None if sensitivity is None else sensitivity.folds,
                               imputed=imputed, structures=structures, j48_settings=j48_settings)
    return Bunch(
        numeric=numeric, imputed=imputed, structures=structures, j48_settings=j48_settings, polarity_gt=polarity_gt, polarity=polarity_table(benchmark.results, polarity_gt), cuts=cuts,
        other_seeds=other_seeds, seed_frames=seed_frames, variants=variants,
        peers_text=peers_prose({config.seed: benchmark.everything, **seed_frames}, datasets, max_folds=config.max_folds,
                               committed=committed),
        committed=committed, missing_seeds=missing_seeds, main_seed=config.seed,
        seed_provenance=provenance_of(seed_runs_folder, committed, computed=other_seeds),
    )


@validate_params({"variants": [Bunch], "math": [Bunch]}, prefer_skip_nested_validation=True)
def claims_section(variants: Bunch, math: Bunch) -> Bunch:
    """The registry's claims decided on every variant, with what the verdicts rest on.

    Parameters
    ----------
    variants : Bunch
        :func:`variants_section`.
    math : Bunch
        :func:`partitions_section`'s ``checks`` (their results, read as constants by every variant).

    Returns
    -------
    Bunch
        ``report`` (:class:`companion.claims.ClaimsReport`; ``report.sentences()`` and
        ``report.discussion()`` state the verdicts; the committed runs of the other fold seeds are
        variants ``seed=s`` of it too, so each claim's ``seeds`` and ``robust`` count every seed
        judged), ``stability`` (each claim's verdict at the main fold seed and at every other seed
        judged: :func:`companion.claims._stability.seed_stability`), ``seed_family`` and
        ``seed_family_text`` (the seeds where some paper rows are not evaluated, decided in a Holm
        family of the main design's size: :func:`seed_family_check`), ``ranks_text`` and ``seeds_text``
        (the four seeds the notebook runs itself),
        ``sensitivity`` (each claim's verdict under each variant; an observation's estimate; with the
        estimate and the deciding Holm p under the margins, tie readings and surrogate structures,
        :func:`sensitivity_pivot`), ``holm_family`` (the paper rows whose verdicts depend on whether
        the two Vote0 rows share the paper rows' Holm family, :func:`holm_family_table`), ``peer_table`` (claim 3's
        peers under the variants that change WIDC(p) or a peer, the seeds, ``c_KM``, the data sets
        left out and the readings aside), ``vote0`` (the Vote0 rows' verdicts under the corrected resampled
        t beside the Wilcoxon test on the folds as independent, their design until 2026-12-06,
        :func:`vote0_wilcoxon_table`, and ``vote0_text``: what that says), ``sentences`` (each paper sentence with its rows and its
        verdict, :func:`sentence_table`), ``notes`` (what the summary's counts do not say,
        :func:`glance_notes`) and ``degenerate`` (the peers that are the majority-class model on a
        data set, and the verdicts without it), ``beside_paper`` (the paper's numeric statements
        beside ours under the main protocol and each variant of the Vote0 rows,
        :func:`beside_paper_variants`) and ``sanity_text`` (the sanity checks that do not pass and
        what they mean for the central claims, :func:`sanity_prose`).
    """
    # the committed seeds are variants of the claims (each claim's seeds and robustness count them);
    # the tables of variants show the notebook's own, and the stability table the seeds
    report = claims_report({**variants.variants, **variants.committed}, math.results)
    shown = replace(report, sensitivity=report.sensitivity[~report.sensitivity["variant"].isin(variants.committed)])
    sentences = sentence_table(report)
    own = ("seed=", "c_KM=", "data sets=")
    with_vote0 = with_vote0_report(variants.variants, math.results)
    vote0 = vote0_wilcoxon_table(variants.variants, shown, math.results, with_vote0=with_vote0)
    stability = seed_stability(report, variants.main_seed, missing=variants.missing_seeds,
                               command="python -m companion.sweep --runs --only 04",
                               provenance=variants.seed_provenance)
    seed_family = seed_family_check(report)
    return Bunch(
        report=report, stability=stability, seed_family=seed_family, seed_family_text=seed_family_prose(seed_family),
        ranks_text=ranks_prose(variants.variants),
        seeds_text=seeds_prose(report, sorted([*variants.other_seeds,
                                               *(int(name.split("=", 1)[1]) for name in variants.committed)])),
        sensitivity=sensitivity_pivot(shown), holm_family=holm_family_table(shown, with_vote0),
        peer_table=peer_tables({name: frame for name, frame in variants.variants.items()
                                if not name.startswith(own) and not same_results(name)}),
        vote0=vote0, vote0_text=vote0_prose(vote0), sentences=sentences,
        beside_paper=beside_paper_variants(variants.variants, report=shown),
        sanity_text=sanity_prose(variants.variants["main"]),
        notes=glance_notes(report, sentences, stability), degenerate=degenerate_prose(variants.variants["main"], report),
    )
