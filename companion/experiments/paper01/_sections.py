"""The sections of notebook 01, one call each: the tables, figures and sentences a section shows.

Each function composes the builders of the lower modules (``_grids`` < ``_protocol`` <
``_tables`` < ``_figures`` < ``_prose`` < ``_followups`` < ``_studies`` < ``_claims``) in the
order the notebook reads them and returns a :class:`sklearn.utils.Bunch` (a dict whose keys are
also attributes). A figure is drawn and closed here, and shown where the notebook saves it.
Nothing here writes a file.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.utils import Bunch
from sklearn.utils._param_validation import Interval, StrOptions, validate_params

from companion.claims._stability import seed_stability
from companion.experiments._seed_runs import SeedRuns, provenance_of, resolve_seed_runs

from companion.experiments._constraints import COUNT, N_JOBS, SEED
from companion.experiments._display import closed_figure
from companion.prose import Markdown
from companion.bounds.decision_list import compression_message, dlm_bound_path
from companion.decision_list import reconstruct_decision_list
from companion.numerics import StrictInterval
from companion.experiments.paper01._grids import COMPARABLE, DATASETS, DISPLAY, Grid, load_table1_dataset
from companion.experiments.paper01._protocol import (
    PROTOCOL_A_VARIANTS, Config, nested_run, paper_protocol_variant, seed_run_keys,
)
from companion.experiments.paper01._tables import (
    bound_check_table, dataset_counts, errors_table, examples_table, glass_binarisation_evidence, main_fold_seed,
    parameters_table, protocols_table,
)
from companion.experiments.paper01._figures import (
    figure_dlm_balls, figure_errors_vs_s, figure_penalty_heatmap, figure_sparsity, sparsity_frame, toy_dlm,
)
from companion.experiments.paper01._prose import (
    dataset_notes_markdown, fine_grid_markdown, glass_choice_markdown, penalty_valley_markdown, protocol_legend,
    readable_dlm, reproduction_markdown,
)
from companion.experiments.paper01._followups import (
    LENGTH_VARIANTS, consistent_dlm_protocol, fine_grid_protocol, nested_dlm_sizes, fine_grid_table, fine_seed_table, first_tie_rule_divergence,
    list_length_table, nested_variant_protocol, svm_gamma_protocol, svm_gamma_table, tie_rule_protocol, tie_rule_table,
)
from companion.experiments.paper01._studies import (
    COVERAGE_DISTRIBUTION, bound_coverage, compression_relation_table, coverage_bayes_risk, coverage_table,
)
from companion.experiments.paper01._claims import (
    claims_report, claims_rows, claims_variants, discussion_values, sensitivity_by_variant, sentence_table, sentence_tally,
)
from companion.experiments.paper01._math_checks import math_checks, math_checks_table

#: The two distributions of the bounds' Monte-Carlo coverage: with a signal, and without one.
COVERAGE_DISTRIBUTIONS = {
    "signal (mu = 1)": COVERAGE_DISTRIBUTION,
    "no signal (mu = 0)": {"positive_rate": 0.3, "shift": 0.0},
}

# prefer_skip_nested_validation: False for a section that fits the paper's machines (on its data
# sets, seeds, grid), so that their fits still check their parameters; True for a section that
# only reads frames and tables.


@validate_params({"seed": SEED, "n_probe": [StrictInterval(Integral, 0, None, closed="left")]},
                 prefer_skip_nested_validation=False)
def toy_section(seed: int = 0, n_probe: int = 2000) -> Bunch:
    """A simple and a complex DLM on two noisy moons: their balls, compression sets and bounds.

    Parameters
    ----------
    seed : int, default=0
        Seed of the moons and of the probe points.
    n_probe : int, default=2000
        Points drawn around the data on which each list rebuilt from its compression set must
        predict as the machine does.

    Returns
    -------
    Bunch
        ``X``, ``y``, ``machines`` (``{"simple": dlm, "complex": dlm}``), ``figure`` and
        ``compression`` (per machine: the size of its compression set, whether the list rebuilt
        from it predicts identically on the probe points, and its path with the bound and the
        corrected bound after each ball, Section 4).
    """
    X, y, machines = toy_dlm(seed=seed)
    rng = np.random.default_rng(seed)
    probe = np.vstack([X, rng.uniform(X.min(axis=0) - 1, X.max(axis=0) + 1, size=(n_probe, 2))])
    compression = {}
    for kind, machine in machines.items():
        rebuilt = reconstruct_decision_list(compression_message(machine, X))
        compression[kind] = Bunch(
            size=len(machine.compression_set_),
            identical=bool((rebuilt.predict01(probe) == machine.predict(probe)).all()),
            path=machine.path_.assign(bound=dlm_bound_path(machine).round(3),
                                      corrected=dlm_bound_path(machine, variant="corrected").round(3)),
        )
    return Bunch(X=X, y=y, machines=machines, figure=closed_figure(figure_dlm_balls(X, y, machines)),
                 compression=compression)


@validate_params({"n_runs": COUNT, "n_test": COUNT, "seed": SEED, "n_jobs": N_JOBS},
                 prefer_skip_nested_validation=False)
def coverage_section(n_runs: int, *, n_test: int, seed: int, n_jobs: int = 1) -> Bunch:
    """The bounds' Monte-Carlo coverage on :data:`COVERAGE_DISTRIBUTIONS` (200 training examples).

    Parameters
    ----------
    n_runs : int
        Training samples per distribution.
    n_test : int
        Test examples of each sample's true risk.
    seed : int
        Seed of the first distribution's samples (the next one takes ``seed + 1``).
    n_jobs : int or None, default=1
        Worker processes (the numbers do not depend on it).

    Returns
    -------
    Bunch
        ``table``: per distribution and bound, :func:`coverage_table` with the Bayes risk;
        ``runs``: :func:`bound_coverage`'s frames, one row per (distribution, run, machine, bound).
    """
    tables, frames = [], []
    for k, distribution in enumerate(COVERAGE_DISTRIBUTIONS.values()):
        frame = bound_coverage(n_runs, m=200, n_test=n_test, distribution=distribution, seed=seed + k, n_jobs=n_jobs)
        tables.append(coverage_table(frame).assign(bayes_risk=coverage_bayes_risk(**distribution)))
        frames.append(frame)
    names = list(COVERAGE_DISTRIBUTIONS)
    return Bunch(table=pd.concat(tables, keys=names, names=["distribution"]),
                 runs=pd.concat(frames, keys=names, names=["distribution", "row"]).reset_index(level=0).reset_index(drop=True))


@validate_params({"names": ["array-like", None]}, prefer_skip_nested_validation=True)
def datasets_section(names) -> Bunch:
    """The data sets of Table 1 as we have them: examples, incomplete and contradictory ones removed.

    Parameters
    ----------
    names : sequence of str or None
        Data sets (None: every data set of :data:`DATASETS`).

    Returns
    -------
    Bunch
        ``counts`` (:func:`dataset_counts`), ``table`` (:func:`examples_table`), ``notes`` and
        ``comparable`` (the data sets the follow-up protocols compare: :func:`comparable_names`).
    """
    counts = dataset_counts(names)
    return Bunch(counts=counts, table=examples_table(counts), notes=dataset_notes_markdown(counts),
                 comparable=comparable_names(names))


@validate_params({"candidates": [dict], "grid": [Grid], "seed": SEED, "n_jobs": N_JOBS, "memo": [dict, None]},
                 prefer_skip_nested_validation=False)
def glass_section(candidates: dict, grid: Grid, *, seed: int, n_jobs: int = 1, memo: dict | None = None) -> Bunch:
    """Glass's binarisation, which the paper does not state: the evidence of each candidate split.

    Parameters
    ----------
    candidates : dict
        ``{label: positive class or classes}``.
    grid : Grid
        The main protocol's grid.
    seed : int
        Fold seed.
    n_jobs : int or None, default=1
        Worker processes (the numbers do not depend on it).
    memo : dict, optional
        The notebook's memo of fold grids (:func:`~companion.experiments.paper01._grids.cross_validate_grid`):
        a fold's grid run before (by :func:`run` on the same split) is read
        from it, the others are stored in it. None: every fold is fitted here.

    Returns
    -------
    Bunch
        ``evidence`` (:func:`glass_binarisation_evidence`), ``text`` and ``folds`` (each split's
        selected machines fold by fold: the claims' variants ``glass=<split>``).
    """
    evidence, folds = glass_binarisation_evidence(candidates, grid, seed=seed, n_jobs=n_jobs, return_folds=True,
                                                  memo=memo)
    return Bunch(evidence=evidence, text=glass_choice_markdown(evidence), folds=folds)


@validate_params({"results": [pd.DataFrame]}, prefer_skip_nested_validation=True)
def table1_section(results: pd.DataFrame) -> Bunch:
    """Table 1 reproduced from :func:`run`'s frame: errors, parameters, sparsity, protocols, bounds.

    Parameters
    ----------
    results : DataFrame
        :func:`run`'s tidy frame.

    Returns
    -------
    Bunch
        ``errors`` (protocol (a), paper vs ours), ``parameters``, ``errors_figure`` (errors
        against ``s``), ``sparsity_figure`` and ``sparsity`` (balls against support vectors),
        ``protocols`` (protocols (a), (b), (c)) and ``legend``, ``bound_check`` (the bounds on
        the machines they select), ``nested_sizes`` (whether the nested-CV DLM collapses to the
        majority class: :func:`nested_dlm_sizes`).
    """
    return Bunch(
        nested_sizes=nested_dlm_sizes(results),
        errors=errors_table(results), parameters=parameters_table(results),
        errors_figure=closed_figure(figure_errors_vs_s(results)), sparsity_figure=closed_figure(figure_sparsity(results)),
        sparsity=sparsity_frame(results), protocols=protocols_table(results), legend=protocol_legend(),
        bound_check=bound_check_table(results),
    )


@validate_params({"names": ["array-like", None]}, prefer_skip_nested_validation=True)
def comparable_names(names) -> list:
    """The data sets of ``names`` whose Table 1 rows the follow-up protocols compare.

    All of :data:`COMPARABLE` when ``names`` is empty or None.

    Parameters
    ----------
    names : sequence of str or None
        Data sets of the main protocol.

    Returns
    -------
    list of str
    """
    if names is None or len(names) == 0:
        names = COMPARABLE
    return [name for name in names if name in COMPARABLE]


@validate_params({"names": ["array-like"], "results": [pd.DataFrame], "seeds": ["array-like"], "n_jobs": N_JOBS},
                 prefer_skip_nested_validation=False)
def fine_section(names, results: pd.DataFrame, *, seeds, n_jobs: int = 1, **grid) -> Bunch:
    """Protocol (a) with fine DLM and SCM penalty grids, beside the coarse grid's numbers.

    Parameters
    ----------
    names : sequence of str
        Data sets.
    results : DataFrame
        :func:`run`'s tidy frame (the coarse grid).
    seeds : sequence of int
        Fold seeds.
    n_jobs : int or None, default=1
        Worker processes (the numbers do not depend on it).
    **grid
        The fine grid, as :func:`fine_grid_protocol` takes it (its defaults otherwise).

    Returns
    -------
    Bunch
        ``fine`` (:func:`fine_grid_protocol`), ``grid_text``, ``dlm`` and ``scm`` (fine against
        coarse, :func:`fine_grid_table`), ``seeds`` (every seed's total), ``heatmap_dataset``,
        ``heatmap`` and ``valley_text`` (errors over the penalties there).
    """
    fine = fine_grid_protocol(names, seeds=seeds, n_jobs=n_jobs, **grid)
    shown = "pima" if "pima" in names else names[0]
    return Bunch(
        fine=fine, grid_text=fine_grid_markdown(fine["grid"]), dlm=fine_grid_table(fine, results),
        scm=fine_grid_table(fine, results, "scm"), seeds=fine_seed_table(fine), heatmap_dataset=shown,
        heatmap=closed_figure(figure_penalty_heatmap(fine, shown)), valley_text=penalty_valley_markdown(fine, shown),
    )


@validate_params({"names": ["array-like"], "results": [pd.DataFrame], "seeds": ["array-like"], "grid": [Grid],
                  "n_jobs": N_JOBS}, prefer_skip_nested_validation=False)
def tie_section(names, results: pd.DataFrame, *, seeds, grid: Grid, n_jobs: int = 1) -> Bunch:
    """Protocol (a) under another tie rule, and where the two rules first part on BreastW.

    Parameters
    ----------
    names : sequence of str
        Data sets.
    results : DataFrame
        :func:`run`'s tidy frame (the main tie rule).
    seeds : sequence of int
        Fold seeds.
    grid : Grid
        The main protocol's grid.
    n_jobs : int or None, default=1
        Worker processes (the numbers do not depend on it).

    Returns
    -------
    Bunch
        ``tie`` (:func:`tie_rule_protocol` with ``fewest_errors`` and ``output_one_first``, Figure
        1's step 3 read literally), ``grids`` (every grid point's errors and sizes on every fold,
        for :func:`nested_variants_section`), ``table``
        (:func:`tie_rule_table`) and ``divergence`` (:func:`first_tie_rule_divergence` on
        BreastW at ``p_p = 1``, ``p_n = ∞``, complex balls).
    """
    tie, grids = tie_rule_protocol(names, seeds=seeds, grid=grid, rules=("fewest_errors", "output_one_first"),
                                   n_jobs=n_jobs, return_grids=True)
    return Bunch(tie=tie, grids=grids, table=tie_rule_table(tie, results),
                 divergence=first_tie_rule_divergence("breastw", p_p=1.0, p_n=np.inf, ball_type="complex"))


@validate_params({"names": ["array-like"], "results": [pd.DataFrame], "fine": [Bunch], "tie": [Bunch],
                  "grid": [Grid], "inner_splits": [StrictInterval(Integral, 2, None, closed="left")],
                  "n_jobs": N_JOBS}, prefer_skip_nested_validation=False)
def nested_variants_section(names, results: pd.DataFrame, *, fine: Bunch, tie: Bunch, grid: Grid, inner_splits: int,
                            n_jobs: int = 1) -> Bunch:
    """Nested cross-validation (protocol (b)) with the fine grids and under the other tie rules, main fold seed.

    The honest check of the claims runs the coarse grid and our tie rule; this reruns its inner
    selection with the fine DLM and SCM grids of :func:`fine_section` and with each other tie rule of
    :func:`tie_section`, on the same outer and inner folds, reading the outer folds' errors from
    those sections' runs (:func:`nested_variant_protocol`).

    Parameters
    ----------
    names : sequence of str
        Data sets.
    results : DataFrame
        :func:`run`'s tidy frame (its main fold seed and its nested rows).
    fine : Bunch
        :func:`fine_section`, run at the main fold seed.
    tie : Bunch
        :func:`tie_section`, run at the main fold seed.
    grid : Grid
        The main protocol's (coarse) grid.
    inner_splits : int
        Inner folds, as in :func:`run`.
    n_jobs : int or None, default=1
        Worker processes (the numbers do not depend on it).

    Returns
    -------
    Bunch
        ``variants`` (``{variant: frame}``, for :func:`claims_section`) and ``table``: total test
        errors per data set (rows) of the DLM and SCM under nested CV with our choices and under each
        variant (columns).
    """
    seed = main_fold_seed(results)
    rules = tuple(dict.fromkeys(tie.tie["rule"]))
    variants = nested_variant_protocol(names, seed=seed, fine=fine.fine, tie_grids=tie.grids, grid=grid, rules=rules,
                                       inner_splits=inner_splits, n_jobs=n_jobs)
    main = results[(results["protocol"] == "b") & (results["seed"] == seed) & results["dataset"].isin(list(names))
                   & results["machine"].isin(["dlm", "scm"])]
    frames = [main.assign(variant="protocol=nested (b)")] + [f.assign(variant=v) for v, f in variants.items()]
    table = pd.concat(frames).pivot_table(index="dataset", columns=["variant", "method"], values="errors",
                                          aggfunc="sum", sort=False)
    table.index = [DISPLAY[n] for n in table.index]
    return Bunch(variants=variants, table=table)


@validate_params({"names": ["array-like"], "results": [pd.DataFrame], "grid": [Grid], "n_jobs": N_JOBS},
                 prefer_skip_nested_validation=False)
def folds_coding_section(names, results: pd.DataFrame, *, grid: Grid, n_jobs: int = 1) -> Bunch:
    """Protocol (a) with unstratified folds and with Credit's ordinal coding, main fold seed.

    Section 5 of Sokolova et al. (2002) does not say whether its 10 folds were stratified nor how
    nominal attributes were coded; the main run stratifies and codes one-hot. Each other choice
    reruns the three machines' coarse grid and the paper's selection
    (:func:`paper_protocol_variant`).

    Parameters
    ----------
    names : sequence of str
        Data sets.
    results : DataFrame
        :func:`run`'s tidy frame (its main fold seed).
    grid : Grid
        The main protocol's grid.
    n_jobs : int or None, default=1
        Worker processes (the numbers do not depend on it).

    Returns
    -------
    Bunch
        ``variants`` (``{name: frame}``: ``folds=unstratified`` on every data set, ``coding=ordinal``
        on Credit, the only data set with many-valued nominal attributes; for
        :func:`claims_section`) and ``table``: total test errors per (data set, machine) under the
        main run and each variant.
    """
    seed = main_fold_seed(results)
    variants = {}
    for name, (folds, nominal) in PROTOCOL_A_VARIANTS.items():
        chosen = [n for n in names if nominal == "onehot" or n == "credit"]
        if chosen:
            variants[name] = paper_protocol_variant(chosen, seed=seed, grid=grid, folds=folds, nominal=nominal,
                                                    n_jobs=n_jobs)
    main = results[(results["protocol"] == "a") & (results["seed"] == seed) & results["dataset"].isin(list(names))
                   & results["machine"].isin(["svm", "scm", "dlm"])]
    frames = [main.assign(variant="main")] + [f.assign(variant=v) for v, f in variants.items()]
    table = pd.concat(frames).pivot_table(index=["dataset", "method"], columns="variant", values="errors",
                                          aggfunc="sum", sort=False)
    table.index = table.index.set_levels([[DISPLAY[n] for n in table.index.levels[0]], table.index.levels[1]])
    return Bunch(variants=variants, table=table)


@validate_params({"names": ["array-like"], "results": [pd.DataFrame], "seeds": ["array-like"], "n_jobs": N_JOBS},
                 prefer_skip_nested_validation=False)
def svm_section(names, results: pd.DataFrame, *, seeds, n_jobs: int = 1) -> Bunch:
    """Protocol (a) for the SVM with absolute kernel widths.

    Parameters
    ----------
    names : sequence of str
        Data sets.
    results : DataFrame
        :func:`run`'s tidy frame (relative widths).
    seeds : sequence of int
        Fold seeds.
    n_jobs : int or None, default=1
        Worker processes (the numbers do not depend on it).

    Returns
    -------
    Bunch
        ``svm`` (:func:`svm_gamma_protocol`) and ``table`` (:func:`svm_gamma_table`).
    """
    svm = svm_gamma_protocol(names, seeds=seeds, n_jobs=n_jobs)
    return Bunch(svm=svm, table=svm_gamma_table(svm, results))


@validate_params({"names": ["array-like"], "seed": SEED, "seeds": ["array-like"], "fine": [Bunch, None]},
                 prefer_skip_nested_validation=False)
def lengths_section(names, *, seed: int, seeds, fine: Bunch | None = None) -> Bunch:
    """The list lengths at the paper's own parameters (Table 1), on the main and the other fold seeds.

    Parameters
    ----------
    names : sequence of str
        Data sets.
    seed : int
        The main fold seed (every variant of :data:`LENGTH_VARIANTS`).
    seeds : sequence of int
        Every fold seed (the others: the first variant only).
    fine : Bunch, optional
        :func:`fine_section`: the first variant (Figure 1, our tie rule) at the fold seeds it ran
        is read from its fine grid's folds, which fit the same lists at the paper's penalties
        (their prefix at the paper's ``s``), instead of being refitted; the same table.

    Returns
    -------
    Bunch
        ``table`` (:func:`list_length_table` on the main seed) and ``by_seed`` (``{seed: table}``).
    """
    grids = None if fine is None else fine.fine
    table = list_length_table(names, seed=seed, fine=grids)
    by_seed = {seed: table}
    by_seed.update({s: list_length_table(names, seed=s, variants=LENGTH_VARIANTS[:1], fine=grids) for s in seeds[1:]})
    return Bunch(table=table, by_seed=by_seed)


@validate_params({"seed": SEED}, prefer_skip_nested_validation=True)
def math_section(seed: int = 0) -> Bunch:
    """The mathematical statements of Sections 2-4, each checked by a computation (a few seconds).

    Parameters
    ----------
    seed : int, default=0
        Seed of the one generator every check draws from.

    Returns
    -------
    Bunch
        ``results`` (``{measure: (ok, detail)}``, what the registry's ``math_*`` rows read),
        ``table`` (statement, what was computed, result) and ``compression_relation`` (Section 4's
        compression-set relation on two cases: :func:`compression_relation_table`).
    """
    from companion.experiments.paper01._claims import alternation_check, log2_r_check, strict_inclusion_check

    results = math_checks(seed)
    # the three exact statements the claims compute themselves (alternation, strict, log2r), shown
    # here beside the others so that every mathematical verdict has its computation in the notebook
    exact = pd.DataFrame([
        {"measure": name, "statement": statement, "computed": detail, "result": "holds" if ok else "fails"}
        for name, statement, (ok, detail) in (
            ("alternation", "A decision list with an alternation is no conjunction or disjunction of literals",
             alternation_check(None)),
            ("strict_inclusion", "Some decision list is no conjunction or disjunction of literals",
             strict_inclusion_check(None)),
            ("log2_r", "log2(r) bits per ball centre specify the order of the r centres", log2_r_check(None)))
    ]).set_index("measure")
    return Bunch(results=results, table=pd.concat([math_checks_table(results), exact]),
                 compression_relation=compression_relation_table())


@validate_params({"names": ["array-like"], "seeds": ["array-like"], "n_jobs": N_JOBS}, prefer_skip_nested_validation=True)
def consistent_section(names, *, seeds, n_jobs: int = 1) -> Bunch:
    """Section 2's "larger DLM which makes zero training errors" on the folds of protocol (a).

    Parameters
    ----------
    names : sequence of str
        Data sets.
    seeds : sequence of int
        Fold seeds.
    n_jobs : int or None, default=1
        Worker processes (the numbers do not depend on it).

    Returns
    -------
    Bunch
        ``frame`` (:func:`consistent_dlm_protocol`) and ``table`` (per data set and seed: total
        test errors, mean balls, training errors).
    """
    frame = consistent_dlm_protocol(names, seeds=seeds, n_jobs=n_jobs)
    table = (frame.groupby(["dataset", "seed"], sort=False)
             .agg(errors=("errors", "sum"), mean_balls=("balls", "mean"), train_errors=("train_errors", "sum"))
             .rename(index=DISPLAY, level=0).unstack("seed"))
    return Bunch(frame=frame, table=table)


@validate_params({"name": [StrOptions(set(DATASETS))]}, prefer_skip_nested_validation=False)
def real_dlm_section(name: str = "breastw") -> Bunch:
    """The DLM with the paper's parameters for a data set, fitted on all of it, in its column names.

    Parameters
    ----------
    name : str, default="breastw"
        A data set of Table 1.

    Returns
    -------
    Bunch
        ``machine``, ``feature_names``, ``n_examples`` and ``training_errors``.
    """
    machine, feature_names = readable_dlm(name)
    X, y = load_table1_dataset(name)
    return Bunch(machine=machine, feature_names=feature_names, n_examples=len(y),
                 training_errors=int((machine.predict(X) != y).sum()))


#: The fold seeds each claim's verdict is counted over: the main one and 99 others (their Table 1 rows
#: committed in ``data/seed_runs/01``, made by ``python -m companion.sweep --runs --only 01``).
N_STABILITY_SEEDS = 100


@validate_params(
    {"results": [pd.DataFrame], "grid": [Grid],
     **dict.fromkeys(("table1", "coverage", "datasets", "fine", "tie", "svm", "lengths"), [Bunch]),
     **dict.fromkeys(("math", "consistent", "glass", "nested_variants", "folds_coding"), [Bunch, None]),
     "inner_splits_check": [StrictInterval(Integral, 2, None, closed="left"), None], "n_jobs": N_JOBS,
     "memo": [dict, None], "config": [Config, None], "seed_runs": [SeedRuns, StrOptions({"committed"}), None],
     "n_stability_seeds": [Interval(Integral, 1, None, closed="left")]},
    prefer_skip_nested_validation=True,
)
def claims_section(results: pd.DataFrame, *, table1: Bunch, coverage: Bunch, datasets: Bunch, fine: Bunch,
                   tie: Bunch, svm: Bunch, lengths: Bunch, grid: Grid, math: Bunch | None = None,
                   consistent: Bunch | None = None, glass: Bunch | None = None,
                   inner_splits_check: int | None = None, nested_variants: Bunch | None = None,
                   folds_coding: Bunch | None = None, n_jobs: int = 1, memo: dict | None = None,
                   config: Config | None = None, seed_runs: SeedRuns | str | None = None,
                   n_stability_seeds: int = N_STABILITY_SEEDS) -> Bunch:
    """The claims decided on every variant, with the numbers the discussion reads, and their stability over fold seeds.

    Parameters
    ----------
    results : DataFrame
        :func:`run`'s tidy frame.
    table1 : Bunch
        :func:`table1_section`.
    coverage : Bunch
        :func:`coverage_section`.
    datasets : Bunch
        :func:`datasets_section`.
    fine : Bunch
        :func:`fine_section`.
    tie : Bunch
        :func:`tie_section`.
    svm : Bunch
        :func:`svm_section`.
    lengths : Bunch
        :func:`lengths_section`.
    grid : Grid
        The main protocol's grid.
    math : Bunch, optional
        :func:`math_section` (run here from seed 0 when not given).
    consistent : Bunch, optional
        :func:`consistent_section`, for claim ``small-dlm`` (not evaluated without it).
    glass : Bunch, optional
        :func:`glass_section`, for the variants ``glass=<split>`` (none without it).
    inner_splits_check : int, optional
        Inner folds of a second nested cross-validation (:func:`nested_run`) on the outer folds of
        the main fold seed, the comparable data sets of ``results`` and ``grid``: the variant
        ``inner_splits=<k>`` of the honest check (none when None).
    nested_variants : Bunch, optional
        :func:`nested_variants_section`: the variants ``protocol=nested (b), grid=fine`` and
        ``protocol=nested (b), tie=<rule>`` (none without it).
    folds_coding : Bunch, optional
        :func:`folds_coding_section`: the variants ``folds=unstratified`` and ``coding=ordinal``
        (none without it).
    n_jobs : int, default=1
        For that nested run's outer folds.
    memo : dict, optional
        The memo of fold grids :func:`run` was given: that nested run reads its outer folds' grids (the main
        seed's, the same fits) from it instead of refitting them. None: they are refitted.
    config : Config, optional
        :func:`run`'s protocol: with it, ``stability`` counts each claim's verdicts over fold seeds.
    seed_runs : SeedRuns, "committed" or None, default=None
        Where the other seeds' committed Table 1 rows are (``"committed"``: ``data/seed_runs/01``);
        None: only the seeds :func:`run` ran are counted.
    n_stability_seeds : int, default=N_STABILITY_SEEDS
        Fold seeds counted, the main one included (100).

    Returns
    -------
    Bunch
        ``report`` (:class:`companion.claims.ClaimsReport`; ``report.sentences()`` states the
        verdicts; with ``config``, the committed runs of the other fold seeds are variants
        ``seed=k`` of it too, so each claim's ``seeds`` and ``robust`` count every seed judged),
        ``sensitivity`` (each claim's verdict under each variant but the committed seeds': one row
        per variant, one column per claim that lists a variant, :func:`sensitivity_by_variant`), ``discussion``
        (claim by claim), ``variants`` (the data each variant's claims were decided on,
        :func:`~companion.experiments.paper01._claims.claims_variants`) and ``math_results`` (the
        checks of the mathematical statements), ``stability`` (with ``config``: each claim's
        verdict at ``n_stability_seeds`` fold seeds, the main one first, the other seeds read
        from ``seed_runs`` where :func:`run` did not run them;
        :func:`companion.claims._stability.seed_stability`'s table, verdicts, seeds and text,
        and ``missing``; None without ``config``), ``by_sentence`` (the paper's empirical results by sentence:
        :func:`~companion.experiments.paper01._claims.sentence_table`) and ``sentence_tally`` (its
        counts in one sentence), ``nested_check`` (total test errors per data set and machine of the nested
        run with ``inner_splits_check`` inner folds, or None) and ``reproduction`` (the numbers
        behind the reproduction claims).
    """
    nested_check = None
    if inner_splits_check is not None:
        names = [n for n in COMPARABLE if n in set(results["dataset"])]
        nested_check = nested_run(names, seed=main_fold_seed(results), grid=grid, inner_splits=inner_splits_check,
                                  n_jobs=n_jobs, memo=memo)
    variants = claims_variants(results, lengths=lengths.by_seed, coverage=coverage.table, fine=fine.fine, tie=tie.tie,
                               svm=svm.svm, counts=datasets.counts,
                               consistent=None if consistent is None else consistent.frame, grid=grid,
                               figure1=tie.divergence, glass=None if glass is None else glass.folds,
                               coverage_runs=coverage.get("runs"),
                               nested=None if nested_check is None else {inner_splits_check: nested_check},
                               nested_variants=None if nested_variants is None else nested_variants.variants,
                               paper_variants=None if folds_coding is None else folds_coding.variants)
    seed_runs = resolve_seed_runs(seed_runs, "01")
    committed, missing = ({}, None) if config is None else _committed_seed_variants(
        config, variants["main"], seed_runs, n_stability_seeds)
    # the run's own other seeds: read by run() where committed for these settings, else computed
    own = [] if config is None else [s for s in variants["main"]["seeds"] if s != variants["main"]["seed"]]
    own_keys = {} if seed_runs is None or not own else seed_run_keys(own, config)
    read_before = [f"seed={s}" for s in own if seed_runs is not None
                   and (seed_runs.record(s) or {}).get("key") == own_keys[s]]
    report = claims_report({**variants, **committed}, None if math is None else math.results)
    by_sentence = sentence_table(report)
    empirical = int(((report.table["origin"] == "paper") & (report.table["category"] == "empirical")).sum())
    return Bunch(
        report=report, variants={**variants, **committed}, math_results=None if math is None else math.results,
        stability=None if config is None else seed_stability(report, variants["main"]["seed"], missing=missing,
                                                                 command="python -m companion.sweep --runs --only 01",
                                                                 provenance=provenance_of(
                                                                     seed_runs, [*read_before, *committed],
                                                                     computed=[s for s in own
                                                                               if f"seed={s}" not in read_before])),
        # the committed seeds' verdicts are the stability table's: the run's own variants here
        sensitivity=sensitivity_by_variant(report).drop(index=list(committed)), by_sentence=by_sentence,
        sentence_tally=Markdown(sentence_tally(by_sentence, empirical)),
        discussion=report.discussion(values=discussion_values(report, table1.protocols, coverage.table, grid,
                                                              main=variants["main"],
                                                              nested_sizes=table1.nested_sizes,
                                                              coverage_runs=coverage.get("runs"))),
        nested_check=None if nested_check is None else nested_check.pivot_table(
            index="dataset", columns="machine", values="errors", aggfunc="sum"),
        reproduction=reproduction_markdown(table1.errors, table1.parameters, fine.dlm, fine.scm, tie.table,
                                           lengths.table, svm.table),
    )



def _committed_seed_variants(config: Config, main: dict, seed_runs, n_seeds: int) -> tuple[dict, list[int]]:
    """The variants ``seed=k`` of the fold seeds ``main + 1, …, main + n_seeds − 1`` that :func:`run`
    did not run, read from the committed runs, and the seeds with no committed run.

    A variant ``seed=k`` is every claim read at fold seed ``k``: protocol (a)'s rows of that seed
    (Table 1's rows of the committed run, made for ``config``'s data, grid and nested protocol),
    the other sections' results as they are; as for the run's own seeds. Nothing is fitted here.
    """
    variants, missing = {}, []
    seeds = [seed for seed in range(main["seed"] + 1, main["seed"] + n_seeds) if seed not in main["seeds"]]
    keys = {} if seed_runs is None else seed_run_keys(seeds, config)
    for seed in seeds:
        frame = None if seed_runs is None else seed_runs.read(seed, keys[seed])
        if frame is None:
            missing.append(seed)
            continue
        rows = claims_rows(frame, "a")
        variants[f"seed={seed}"] = {**main, "rows": {**main["rows"], **rows},
                                    "rows_paper": {**main["rows_paper"], **rows}, "seed": seed}
    return variants, missing


