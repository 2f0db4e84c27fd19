"""The sections of notebook 03, one call each: the tables, figures and sentences a section shows.

Each function composes the builders of the lower modules (``_protocol`` < ``_tables`` <
``_studies`` < ``_figures`` < ``_claims`` < ``_prose``) in the order the notebook reads them and
returns a :class:`sklearn.utils.Bunch` (a dict whose keys are also attributes). A figure is drawn
and closed here, and shown where the notebook saves it. Nothing here writes a file.
"""

from __future__ import annotations

from fractions import Fraction
from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.utils import Bunch
from sklearn.utils._param_validation import Interval, StrOptions, validate_params

from companion.claims._stability import seed_stability
from companion.experiments._constraints import COUNT, N_JOBS, SEED
from companion.experiments._seed_runs import SeedRuns, provenance_of, resolve_seed_runs
from companion.experiments._display import closed_figure
from companion.evaluation import comparison_table
from companion.led import bayes_error
from companion.experiments.paper03._protocol import (
    AT_LEAST_TWO, AT_LEAST_ZERO, Config, FitMemo, j48_results_if_run, method_key, paper_table1, run, run_conditioned_protocol,
)
from companion.experiments.paper03._tables import (
    bayes_sample_shift, conditioned_comparison, degree_evidence, draws_table, table1_comparison, tie_summary,
    tree_error_bounds, tree_stand_ins,
)
from companion.experiments.paper03._studies import (
    lambda_sweep, lambda_sweep_summary, row_order_spread, row_order_summary, unpruned_trees,
)
from companion.experiments.paper03._figures import plot_lambda_sweep, plot_risks_against_bounds, plot_row_orders
from companion.experiments.paper03._claims import (
    COLUMN_DEGREES, OTHER_COLUMN1_DEGREE, OTHER_COLUMN2_DEGREES, RECONSTRUCTION_VARIANTS, claims_data, claims_report,
    column1_table, column2_variant, committed_seed_variants, j48_settings_if_run, reconstruction_variant,
    row_readings, seed_run_config, seed_run_key, seed_variant, seed_variants, sentence_table, single_draw_table,
    strongest_rivals,
)
from companion.experiments.paper03._math_checks import math_checks, math_checks_table
from companion.experiments.paper03._prose import (
    describe_bayes_shift, describe_bayes_spread, describe_conditioned, describe_conditioned_degree, describe_degree_evidence, describe_rivals,
    describe_glance, describe_lambda_sweep, describe_row_orders, describe_single_draw, describe_unpruned,
    describe_j48_seeds, describe_verdict_side, NAMES,
)

#: Table 1's columns as the notebook reads them: (name, column, degree). Column 1's degree is
#: undecided between 2 and 3 (the headers were lost), column 2 is d = 7 (any d >= 7).
TABLE1_COLUMNS = (("col1_d2", 1, 2), ("col1_d3", 1, 3), ("col2_d7", 2, 7))

#: The chain of lower and upper bounds the λ sweep checks, smallest first (Eqs. 9, 11, 12).
BOUND_CHAIN = ("perceptron_bound", "mmp_bound", "min_risk", "mmp_risk", "mmp_upper_bound", "eps_upper_bound")


#: The constraints of the sections' counts and sizes (a section names itself when it refuses one).
_SIZES = {"n_train": AT_LEAST_TWO, "n_test": AT_LEAST_TWO, "n_draws": COUNT}


@validate_params({"n_train": COUNT}, prefer_skip_nested_validation=True)
def bayes_section(n_train: int = 500) -> Bunch:
    """The Bayes-optimal classifier's error, and how far a sample's empirical error strays from it.

    Parameters
    ----------
    n_train : int, default=500
        Size of a training sample.

    Returns
    -------
    Bunch
        ``shift`` (:func:`bayes_sample_shift`) and ``text``.
    """
    shift = bayes_sample_shift(n_train)
    return Bunch(shift=shift, text=describe_bayes_shift(shift))


@validate_params({"config": [Config], "n_jobs": N_JOBS}, prefer_skip_nested_validation=False)
def table1_section(config: Config, n_jobs: int = 1) -> Bunch:
    """Table 1 reproduced: every learner on the draws, beside the paper's numbers and Weka's J48.

    Parameters
    ----------
    config : Config
        The draws and degrees (2, 3 and 7 among them).
    n_jobs : int or None, default=1
        Worker processes (the numbers do not depend on it).

    Returns
    -------
    Bunch
        ``results`` (:func:`run`'s tidy frame), ``draws`` (:func:`draws_table`), ``j48`` and
        ``j48_status`` (Weka's J48 on these draws, when recorded), ``evidence`` and
        ``evidence_text`` (which d column 1 is), ``columns`` (``{name: paper / ours table}`` for
        :data:`TABLE1_COLUMNS`) and ``table1`` (the three stacked), ``stand_ins`` (the stand-in
        trees), ``ties`` (:func:`tie_summary`), ``risks_figure``, ``tree_bounds`` (Theorem 5 on
        the best trees of depth 2), ``bayes`` (the Bayes rule's errors beside the paper's) and
        ``bayes_spread`` (their spread over draws against the binomial sd, :func:`describe_bayes_spread`).
    """
    results = run(config, n_jobs=n_jobs)
    j48, j48_status = j48_results_if_run(config)
    evidence = degree_evidence(results, candidates=(2, 3), reference=7)
    columns = {name: table1_comparison(results, column=column, degree=degree, j48=j48, n_train=config.n_train,
                                       n_test=config.n_test)
               for name, column, degree in TABLE1_COLUMNS}
    stand_ins = pd.concat({name: tree_stand_ins(results, column, degree) for name, column, degree in TABLE1_COLUMNS},
                          names=["column"])
    bayes = results[results["method"] == method_key("bayes", config.degrees[0])]
    paper_bayes = paper_table1().query("method == 'bayes' and column == 'both'").set_index("quantity")["value"]
    errors = bayes[["train_error", "test_error"]]
    return Bunch(
        results=results, draws=draws_table(results), j48=j48, j48_status=j48_status,
        evidence=evidence,
        evidence_text=describe_degree_evidence(evidence, main=COLUMN_DEGREES[1], other=OTHER_COLUMN1_DEGREE),
        columns=columns, table1=pd.concat(columns, names=["column"]), stand_ins=stand_ins, ties=tie_summary(results),
        risks_figure=closed_figure(plot_risks_against_bounds(results, degrees=(2, 3, 7))),
        tree_bounds=tree_error_bounds(results, degree=2),
        bayes=comparison_table(paper_bayes, errors.mean()).assign(ours_sd=errors.std()),
        bayes_spread=describe_bayes_spread(errors, float(bayes_error(Fraction(1, 10))), n_train=config.n_train,
                                           n_test=config.n_test),
    )


@validate_params({**_SIZES, "seed": SEED, "degrees": ["array-like"], "n_jobs": N_JOBS},
                 prefer_skip_nested_validation=False)
def conditioned_section(n_draws: int, seed: int, *, degrees, n_train: int, n_test: int, n_jobs: int = 1) -> Bunch:
    """Table 1 on draws rejection-sampled to the paper's Bayes training error (11.2 %).

    Parameters
    ----------
    n_draws : int
        Accepted draws.
    seed : int
        Seed of the draws.
    degrees : tuple of int
        Degrees of the kernels (2, 3 and 7 among them).
    n_train, n_test : int
        Sizes of a draw.
    n_jobs : int or None, default=1
        Worker processes (the numbers do not depend on it).

    Returns
    -------
    Bunch
        ``rows`` (:func:`run_conditioned_protocol`), ``table`` (paper / ours per column of
        :data:`TABLE1_COLUMNS`), ``bayes_train_errors`` (the distinct Bayes training errors, %)
        ``median_tries`` (training sets drawn per accepted one), ``text`` (where the paper's
        risks and bounds lie against these draws, in words) and ``degree_text`` (which d of
        column 1 these draws agree with).
    """
    rows = run_conditioned_protocol(n_draws, seed, degrees=degrees, n_train=n_train, n_test=n_test, n_jobs=n_jobs)
    table = pd.concat({name: conditioned_comparison(rows, column, degree) for name, column, degree in TABLE1_COLUMNS},
                      names=["column"])
    bayes = rows[rows["method"] == method_key("bayes", degrees[0])]
    return Bunch(rows=rows, table=table,
                 bayes_train_errors=sorted(float(e) for e in bayes["train_error"].round(2).unique()),
                 median_tries=int(rows.groupby("seed")["tries"].first().median()), text=describe_conditioned(table),
                 degree_text=describe_conditioned_degree(table))


@validate_params({"seed": SEED, "results": [pd.DataFrame], "draw": AT_LEAST_ZERO, "n_orders": AT_LEAST_TWO,
                  "n_orders_fixed": COUNT, "n_train": AT_LEAST_TWO, "n_test": AT_LEAST_TWO, "n_jobs": N_JOBS},
                 prefer_skip_nested_validation=False)
def row_order_section(seed: int, results: pd.DataFrame, *, draw: int = 0, n_orders: int, n_orders_fixed: int,
                      n_train: int, n_test: int, n_jobs: int = 1) -> Bunch:
    """The spread over random row orders of one draw, beside the spread over draws.

    Parameters
    ----------
    seed : int
        The protocol's seed (the draw is :func:`run`'s).
    results : DataFrame
        :func:`run`'s tidy frame (the spread over draws).
    draw : int, default=0
        The draw whose rows are permuted.
    n_orders : int
        Random row orders for the λ-perceptron.
    n_orders_fixed : int
        Of them, those for the λ-MMP and the mask perceptron (ten times dearer).
    n_train, n_test : int
        Sizes of the draw.
    n_jobs : int or None, default=1
        Worker processes (the numbers do not depend on it).

    Returns
    -------
    Bunch
        ``orders`` (:func:`row_order_spread`), ``summary`` (:func:`row_order_summary`),
        ``figure`` and ``text``.
    """
    orders = row_order_spread(seed, draw=draw, n_orders=n_orders, n_train=n_train, n_test=n_test, n_jobs=n_jobs,
                              max_orders={"kernel_svm": n_orders_fixed, "mask_perceptron": n_orders_fixed})
    summary = row_order_summary(orders, results)
    return Bunch(orders=orders, summary=summary, figure=closed_figure(plot_row_orders(orders, draw=draw)),
                 text=describe_row_orders(summary))


@validate_params({**_SIZES, "seed": SEED, "lams": ["array-like"], "degree": COUNT, "n_jobs": N_JOBS},
                 prefer_skip_nested_validation=False)
def lambda_section(n_draws: int, seed: int, *, lams, degree: int = 7, n_train: int, n_test: int,
                   n_jobs: int = 1) -> Bunch:
    """The λ sweep: the chain of bounds (9) <= (11) <= min R <= R(MMP) <= (12), trees' R and R₁.

    Parameters
    ----------
    n_draws : int
        Draws of the sweep.
    seed : int
        Seed of the draws.
    lams : tuple of float
        The λ values.
    degree : int, default=7
        Degree of the kernel.
    n_train, n_test : int
        Sizes of a draw.
    n_jobs : int or None, default=1
        Worker processes (the numbers do not depend on it).

    Returns
    -------
    Bunch
        ``sweep`` (:func:`lambda_sweep`), ``chain_holds`` (every link of :data:`BOUND_CHAIN`
        within a relative 1e-6 on every draw and λ), ``tree_r1_gap`` and ``tree_eq8_gap`` (the
        largest |R - R₁| and |R - Eq. 8| of the trees), ``summary``, ``figure`` and ``text``.
    """
    sweep = lambda_sweep(n_draws, seed, lams=lams, degree=degree, n_train=n_train, n_test=n_test, n_jobs=n_jobs)
    chain_holds = all(bool((sweep[a] <= sweep[b] * (1 + 1e-6)).all()) for a, b in zip(BOUND_CHAIN, BOUND_CHAIN[1:]))
    return Bunch(
        sweep=sweep, chain_holds=chain_holds,
        tree_r1_gap=float((sweep["tree_risk"] - sweep["tree_hinge_risk"]).abs().max()),
        tree_eq8_gap=float((sweep["tree_risk"] - sweep["tree_eq8"]).abs().max()),
        summary=lambda_sweep_summary(sweep), figure=closed_figure(plot_lambda_sweep(sweep, column=2)),
        text=describe_lambda_sweep(sweep, column=2),
    )


@validate_params({**_SIZES, "seed": SEED, "degrees": ["array-like"]}, prefer_skip_nested_validation=True)
def unpruned_section(n_draws: int, seed: int, *, degrees, n_train: int, n_test: int) -> Bunch:
    """The paper's remark on un-pruned trees: their risks against the pruned ones'.

    Parameters
    ----------
    n_draws : int
        Draws.
    seed : int
        Seed of the draws (the protocol's).
    degrees : tuple of int
        Depths of the trees.
    n_train, n_test : int
        Sizes of a draw.

    Returns
    -------
    Bunch
        ``trees`` (:func:`unpruned_trees`), ``summary`` (mean and standard deviation of leaves,
        risk and errors per depth and tree) and ``text``.
    """
    trees = unpruned_trees(n_draws, seed, degrees=degrees, n_train=n_train, n_test=n_test)
    summary = trees.groupby(["degree", "tree"])[["leaves", "risk", "train_error", "test_error"]].agg(["mean", "std"])
    return Bunch(trees=trees, summary=summary, text=describe_unpruned(trees))


#: The protocol seeds each claim's verdict is counted over: the main run's and 99 others (the
#: seed variants' runs committed in ``data/seed_runs/03``, made by ``python -m companion.sweep
#: --runs --only 03``).
N_STABILITY_SEEDS = 100


@validate_params(
    {"config": [Config], "results": [pd.DataFrame], "orders": [pd.DataFrame, None], "conditioned": [pd.DataFrame, None],
     "j48": [pd.DataFrame, None], "unpruned": [pd.DataFrame, None], "math": [dict, None], "n_jobs": N_JOBS,
     "seed_runs": [SeedRuns, StrOptions({"committed"}), None],
     "n_stability_seeds": [Interval(Integral, 1, None, closed="left")]},
    prefer_skip_nested_validation=False,
)
def claims_section(config: Config, *, results, orders, conditioned, j48, unpruned, math=None, n_jobs: int = 1,
                   seed_runs: SeedRuns | str | None = None, n_stability_seeds: int = N_STABILITY_SEEDS) -> Bunch:
    """The claims judged on the main draws, the protocol variants and the other seeds; their stability over seeds.

    Parameters
    ----------
    config : Config
        The main protocol.
    results : DataFrame
        :func:`run`'s tidy frame.
    orders : DataFrame or None
        :func:`row_order_spread` (None: the row-order claim is not judged).
    conditioned : DataFrame or None
        :func:`run_conditioned_protocol` (None: no conditioned variant).
    j48 : DataFrame or None
        Weka's J48 on the draws, when recorded.
    unpruned : DataFrame or None
        :func:`unpruned_trees` (None: the un-pruned claims are not judged).
    math : dict or None, default=None
        :func:`math_section`'s ``results`` (None: the mathematical statements are not judged).
    n_jobs : int or None, default=1
        Worker processes (the numbers do not depend on it).
    seed_runs : SeedRuns, "committed" or None, default=None
        The committed runs of the seed variants (``"committed"``: ``data/seed_runs/03``): a seed
        variant committed for the same settings (:func:`seed_run_key`) is read, not run, and the
        seeds beyond the eight seed variants are judged when committed (never computed here).
        None: the eight seed variants are run and no other seed is judged.
    n_stability_seeds : int, default=N_STABILITY_SEEDS
        Protocol seeds counted, the main one included (100): ``seed + 1 .. seed + 99``.

    Returns
    -------
    Bunch
        ``variant_seeds`` (the eight seed variants, pooled in the honest check), ``report``
        (:class:`companion.claims.ClaimsReport`; ``report.sentences()`` and
        ``report.discussion(values=fields)`` state the verdicts; every committed seed is a
        variant ``seed=k`` of it too, so each claim's ``seeds`` and ``robust`` count every seed
        judged), ``statuses`` (whether Weka's J48 was found for each seed judged, by seed),
        ``j48_text`` (on how many of them), ``stability`` (each claim's verdict at the main seed
        and every other seed judged: :func:`companion.claims._stability.seed_stability`'s
        table, verdicts, seeds, text and ``missing``), ``fields`` (the further
        numbers the discussion names: the strongest rival of the SVM per draw, the side of its
        estimate, the pooled draws' verdict), ``single_draw`` (the paper's single-draw reading
        beside the tests over draws, :func:`single_draw_table`), ``single_draw_text``, ``column1``
        (every column-1 row at d = 2 and d = 3, :func:`column1_table`), ``sentences`` (the paper's
        judged sentences, the rows that decide each and one verdict per sentence under the paper's
        one-draw protocol, the main draws and the pool, :func:`sentence_table`) and ``glance`` (shown in
        the box at the top under the summary: what of the central claims is not checked, Table 1's rows
        under the paper's protocol, the main draws and the pool, and the verdicts by sentence,
        :func:`describe_glance`).
    """
    # the fits the variants share, owned by this call (FitMemo): the main run's, read from
    # ``results`` (run(config)), so that a variant refits only what its choice changes
    memo = FitMemo()
    memo.remember_run(config, results)
    variant_seeds = seed_variants(config.seed)
    seed_runs = resolve_seed_runs(seed_runs, "03")
    seed_data = {f"seed={s}": seed_variant(config, s, n_jobs=n_jobs, memo=memo, seed_runs=seed_runs)
                 for s in variant_seeds}
    # the other seeds up to n_stability_seeds: read where committed, never computed here (a run costs
    # about 25 s: python -m companion.sweep --runs --only 03 makes them)
    others = [s for s in range(config.seed + 1, config.seed + n_stability_seeds) if s not in variant_seeds]
    committed, missing = committed_seed_variants(config, others, seed_runs)
    # the variant seeds whose committed run seed_variant read (the others it computed)
    read_before = [f"seed={s}" for s in variant_seeds if seed_runs is not None
                   and (seed_runs.record(s) or {}).get("key") == seed_run_key(seed_run_config(s, config))]
    reconstructions = {name: reconstruction_variant(config, changes, j48=j48, unpruned=unpruned, n_jobs=n_jobs,
                                                    memo=memo)
                       for name, changes in RECONSTRUCTION_VARIANTS.items()}
    column2 = {f"column2=d{d}": column2_variant(config, d, j48=j48, n_jobs=n_jobs, memo=memo)
               for d in OTHER_COLUMN2_DEGREES if d not in config.degrees}
    report = claims_report(results, orders=orders, conditioned=conditioned, j48=j48, unpruned=unpruned, seeds=seed_data,
                           math=math, n_test=config.n_test, reconstructions=reconstructions, column2=column2,
                           j48_settings=j48_settings_if_run(config) if j48 is not None else None,
                           other_seeds=committed)
    main = claims_data(results, COLUMN_DEGREES, None, j48, unpruned)
    table, pooled = report.table.set_index("id"), report.sensitivity.set_index(["variant", "id"])
    single = single_draw_table(main, report)
    column1 = column1_table(report)
    fields = row_readings(report, single, column1)
    for c in (1, 2):
        key = f"svm-closest-{c}"
        rivals = strongest_rivals(main, c)
        means = {m: main["draws"].query("method == @m and degree == @d")["test_error"].mean()
                 for m, d in ((m, COLUMN_DEGREES[c]) for m in rivals.index if m != "j48_tree")}
        if "j48_tree" in rivals.index:
            means["j48_tree"] = main["j48"]["test_error"].mean()
        lowest = min(means, key=means.get)
        fields[key].update({"rivals": describe_rivals(rivals), "side": describe_verdict_side(table.loc[key]),
                            "pooled": describe_verdict_side(pooled.loc[("draws=pooled", key)], with_verdict=True),
                            "lowest": NAMES.get(lowest, lowest),
                            "lowest_verdict": describe_verdict_side(pooled.loc[("rival=lowest-mean", key)],
                                                                    with_verdict=True).replace("strongest", "")
                            .replace("  ", " ")})
    sentences = sentence_table(report, single)
    n_pooled = config.n_draws * (1 + len(variant_seeds))
    pooled_verdicts = pd.Series({i: pooled.loc[("draws=pooled", i), "verdict"] for i in single.index
                                 if ("draws=pooled", i) in pooled.index}, dtype=object)
    glance = describe_glance(single, pooled_verdicts, sentences, n_draws=config.n_draws, n_pooled=n_pooled)
    judged = {**seed_data, **committed}
    statuses = {int(name.split("=", 1)[1]): data["status"] for name, data in judged.items()}
    stability = seed_stability(report, config.seed, missing=missing, command="python -m companion.sweep --runs --only 03",
                               seed_name="protocol seed",
                               provenance=provenance_of(seed_runs, [*read_before, *committed],
                                                        computed=[s for s in variant_seeds
                                                                  if f"seed={s}" not in read_before]))
    return Bunch(variant_seeds=variant_seeds, report=report, statuses=statuses,
                 j48_text=describe_j48_seeds({s: data["j48"] is not None for s, data in
                                              zip(statuses, judged.values())}, statuses),
                 stability=stability, fields=fields, single_draw=single, single_draw_text=describe_single_draw(single), column1=column1,
                 sentences=sentences, glance=glance)



@validate_params({"rng": [np.random.Generator, None]}, prefer_skip_nested_validation=True)
def math_section(rng: np.random.Generator | None = None) -> Bunch:
    """The paper's mathematical statements, each checked once on random or exhaustive inputs.

    Lemmas 1-2, Eqs. 5-8, Theorems 3-6, the span of trees, and two conformance checks (the
    complemented inputs, the Bayes rule).

    Parameters
    ----------
    rng : numpy.random.Generator or None, default=None
        The notebook's seeded generator (None: ``numpy.random.default_rng(0)``).

    Returns
    -------
    Bunch
        ``results`` (``{measure: (ok, detail)}``, what :func:`claims_section` takes as ``math``)
        and ``table`` (statement, what was run, result; one row per statement).
    """
    results = math_checks(np.random.default_rng(0) if rng is None else rng)
    return Bunch(results=results, table=math_checks_table(results))
