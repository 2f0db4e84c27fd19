"""Notebook 01's follow-up protocols on Table 1, one column at a time: fine DLM and SCM grids, the
tie rule Figure 1 leaves open, the realised list lengths at the paper's parameters and the SVM
column with an absolute kernel-width grid.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd
from scipy.spatial.distance import cdist
from sklearn.svm import SVC

from companion.decision_list import DecisionListMachine, SortedDistances
from companion.evaluation import parallel_map, stratified_folds
from companion.experiments._trusted import trusted_inputs
from companion._ball_grid import compiled_grid_state
from companion._ball_search import greedy_ball_list
from companion._ball_search import BALL_TYPES
from companion.experiments.protocol import check_tidy, paper_models
from companion.experiments.paper01._grids import (
    COMPARABLE, DISPLAY, Grid, dlm_grid_errors, fold_sorted, load_table1_dataset, scm_grid_errors,
)
from companion.experiments.paper01._protocol import (
    MACHINE_NAMES, RESULT_COLUMNS, argmin_prefer_small, as_counts, describe_grid_point,
)
from companion.experiments.paper01._tables import main_fold_seed, paper_table1, selected_method, total_errors


# --------------------------------------------------------------------------------------------
# Fine grids for the DLM and SCM columns
# --------------------------------------------------------------------------------------------

#: The fine DLM penalty grid: 15 values in [0.1, 10], among them the paper's 0.3, 2.1 and 4.8.
FINE_PENALTIES = (0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 2.1, 2.5, 3.0, 4.0, 4.8, 6.0, 10.0)
#: The fine SCM penalty grid: every ``p`` of the paper's SCM column (0.9, 1, 1.1, 1.2, 1.4, 1.8,
#: 2.8) and of our coarse grid (0.5, 1, 1.5, 3).
FINE_SCM_PENALTIES = (0.5, 0.9, 1.0, 1.1, 1.2, 1.4, 1.5, 1.8, 2.8, 3.0)


def fine_grid(penalties=FINE_PENALTIES, s_max: int = 15, scm_penalties=FINE_SCM_PENALTIES,
              scm_s_max: int = 12) -> Grid:
    """The DLM and SCM parts of :class:`~companion.experiments.paper01._grids.Grid` with fine penalty lists.

    Parameters
    ----------
    penalties : tuple of float
        The DLM's ``p_p`` and ``p_n`` values.
    s_max : int
        The DLM's largest stopping point.
    scm_penalties : tuple of float or None
        The SCM's ``p`` values (None or empty: no SCM).
    scm_s_max : int
        The SCM's largest stopping point.

    Returns
    -------
    Grid
        The SVM part is the default's (unused by :func:`fine_grid_protocol`).
    """
    return Grid(dlm_penalties=tuple(penalties), dlm_s_max=int(s_max),
                scm_penalties=tuple(scm_penalties or ()), scm_s_max=int(scm_s_max))


def _fine_fold(D, X, y, grid, fold):
    """DLM and SCM test errors and sizes of every fine-grid point on one fold (one SortedDistances)."""
    train, test = fold
    X_ball, y_ball, sd = fold_sorted(D, X, y, train)
    compiled = compiled_grid_state()  # one compiled pass for the fold's searches
    dlm_errors, dlm_balls, _, _ = dlm_grid_errors(sd, X_ball, y_ball, X[test], y[test], grid, constraint=False,
                                                  grid_state_pass=compiled)
    if not grid.scm_penalties:
        return dlm_errors, dlm_balls, None, None
    return (dlm_errors, dlm_balls,
            *scm_grid_errors(sd, X_ball, y_ball, X[test], y[test], grid, grid_state_pass=compiled))


def fine_grid_protocol(names=COMPARABLE, *, seeds=(0, 1, 2), penalties=FINE_PENALTIES, s_max=15,
                       scm_penalties=FINE_SCM_PENALTIES, scm_s_max=12, n_jobs=1) -> dict:
    """Protocol (a) for the DLM and the SCM with fine penalty grids: the best grid point on the test folds.

    For each data set and fold seed, every (type, ``p_p``, ``p_n``) of ``penalties`` x
    ``penalties`` x {simple, complex} and every (type, ``p``) of ``scm_penalties`` x
    {conjunction, disjunction} is fitted once per fold with its largest stopping point (every
    smaller ``s`` through the prefix property), on one
    :class:`~companion.decision_list.SortedDistances` per fold; the grid point of smallest total
    test errors over the 10 folds is kept, ties to the smaller machine as in
    :func:`~companion.experiments.paper01._protocol.paper_protocol`. The paper selected its Table 1
    parameters this way ("the smallest 10-fold cross-validation error", Section 5) over grids it
    did not publish.

    Parameters
    ----------
    names : tuple of str
        Keys of :data:`~companion.experiments.paper01._grids.DATASETS`.
    seeds : tuple of int
        Fold seeds.
    penalties : tuple of float
        The DLM's ``p_p`` and ``p_n`` values.
    s_max : int
        The DLM's largest stopping point.
    scm_penalties : tuple of float or None
        The SCM's ``p`` values (None: the SCM is not run).
    scm_s_max : int
        The SCM's largest stopping point.
    n_jobs : int, default=1
        The folds are items of :func:`companion.evaluation.parallel_map` (same result).

    Returns
    -------
    dict
        ``best``: DataFrame (one row per data set and seed: ``errors``, ``T``, ``p_p``, ``p_n``,
        ``s``, ``size``) of the DLM; ``scm_best`` the same for the SCM (``T``, ``p``, ``s``;
        None without SCM); ``totals`` {(name, seed): DLM total test errors, shape (types, p_p,
        p_n, s)}; ``fold_grids`` {(name, seed): {machine: (errors, sizes)}}, every grid point's
        test errors and sizes on every fold (last axis), which the nested variants
        (:func:`nested_variant_protocol`) read on the outer folds; ``grid``, ``seeds``.
    """
    grid = fine_grid(penalties, s_max, scm_penalties, scm_s_max)
    rows, scm_rows, totals, fold_grids = [], [], {}, {}
    for name in names:
        X, y = load_table1_dataset(name)
        D = cdist(X, X)
        for seed in seeds:
            folds = stratified_folds(y, n_splits=10, seed=seed)
            per_fold = parallel_map(partial(_fine_fold, D, X, y, grid), folds, n_jobs=n_jobs)
            for machine, (errors, balls) in (("dlm", (0, 1)), ("scm", (2, 3))):
                if per_fold[0][errors] is None:
                    continue
                fold_errors = np.stack([part[errors] for part in per_fold], axis=-1)
                fold_balls = np.stack([part[balls] for part in per_fold], axis=-1)
                fold_grids.setdefault((name, seed), {})[machine] = (fold_errors, fold_balls)
                total, total_size = fold_errors.sum(axis=-1), fold_balls.sum(axis=-1)
                index = argmin_prefer_small(total, total_size)
                if machine == "dlm":
                    totals[(name, seed)] = as_counts(total)
                (rows if machine == "dlm" else scm_rows).append(
                    {"dataset": DISPLAY[name], "seed": seed, "errors": int(total[index]),
                     **describe_grid_point(machine, index, grid), "size": float(total_size[index] / len(folds)),
                     "fold_errors": as_counts(fold_errors[index]).tolist()}
                )
    return {"best": pd.DataFrame(rows), "scm_best": pd.DataFrame(scm_rows) if scm_rows else None,
            "totals": totals, "fold_grids": fold_grids, "grid": grid, "seeds": list(seeds)}


def fine_grid_table(fine: dict, results: pd.DataFrame, machine: str = "dlm") -> pd.DataFrame:
    """Paper vs coarse grid vs fine grid, total test errors of one machine, with the spread over fold seeds.

    Parameters
    ----------
    fine : dict
        :func:`fine_grid_protocol`'s result.
    results : pandas.DataFrame
        :func:`~companion.experiments.paper01.run`'s frame (its protocol (a) rows, coarse grid).
    machine : {"dlm", "scm"}, default="dlm"
        The column of Table 1.

    Returns
    -------
    pandas.DataFrame
        One row per data set of ``fine``: ``paper``; ``coarse_mean``/``coarse_min``/``coarse_max``
        over the fold seeds of ``fine`` that ``results`` also has; ``fine_mean``, ``fine_sd``
        (sample standard deviation, NaN for one seed), ``fine_min``, ``fine_max``;
        ``difference`` = ``fine_mean - paper``; ``paper_in_fine_range``; ``fine_first_seed``:
        the selected machine of the first seed.
    """
    if machine not in ("dlm", "scm"):
        raise ValueError(f"machine must be 'dlm' or 'scm', got {machine!r}")
    paper = paper_table1()
    best = fine["best"] if machine == "dlm" else fine["scm_best"]
    method = f"{MACHINE_NAMES[machine]} (a)"
    rows = []
    inverse = {v: k for k, v in DISPLAY.items()}
    coarse_totals = total_errors(results)
    for display, part in best.groupby("dataset", sort=False):
        name = inverse[display]
        coarse = [int(coarse_totals[(name, method, sd)]) for sd in part["seed"]
                  if (name, method, sd) in coarse_totals.index]
        values = part["errors"].to_numpy(dtype=float)
        target = paper.loc[name, f"{machine}_errors"]
        rows.append(
            {
                "dataset": display,
                "paper": int(target),
                "coarse_mean": float(np.mean(coarse)) if coarse else np.nan,
                "coarse_min": min(coarse) if coarse else np.nan,
                "coarse_max": max(coarse) if coarse else np.nan,
                "fine_mean": float(values.mean()),
                "fine_sd": float(values.std(ddof=1)) if len(values) > 1 else np.nan,
                "fine_min": int(values.min()),
                "fine_max": int(values.max()),
                "difference": float(values.mean() - target),
                "paper_in_fine_range": bool(values.min() <= target <= values.max()),
                "fine_first_seed": _machine_text(part.iloc[0]),
            }
        )
    return pd.DataFrame(rows).set_index("dataset")


def _machine_text(row) -> str:
    """``c p_n=1 p_p=2.1 s=2`` (DLM) or ``c p=1.8 s=2`` (SCM) of a selected row."""
    if "p_p" in row and pd.notna(row.get("p_p")):
        return f"{row['T']} p_n={row['p_n']:g} p_p={row['p_p']:g} s={int(row['s'])}"
    return f"{row['T']} p={row['p']:g} s={int(row['s'])}"


def fine_seed_table(fine: dict) -> pd.DataFrame:
    """Total test errors of the fine-grid DLM and SCM on every fold seed, and the machine each selects.

    Parameters
    ----------
    fine : dict
        :func:`fine_grid_protocol`'s result.

    Returns
    -------
    pandas.DataFrame
        Rows (data set, machine, seed): ``errors``, ``paper`` (Table 1's errors of that machine),
        ``selected`` (type, penalties, ``s``) and ``size`` (mean balls over the folds).
    """
    paper = paper_table1()
    inverse = {v: k for k, v in DISPLAY.items()}
    parts = []
    for machine, best in (("DLM", fine["best"]), ("SCM", fine.get("scm_best"))):
        if best is None:
            continue
        for _, row in best.iterrows():
            parts.append({"dataset": row["dataset"], "machine": machine, "seed": int(row["seed"]),
                          "errors": int(row["errors"]),
                          "paper": int(paper.loc[inverse[row["dataset"]], f"{machine.lower()}_errors"]),
                          "selected": _machine_text(row), "size": float(row["size"])})
    return pd.DataFrame(parts).set_index(["dataset", "machine", "seed"])


# --------------------------------------------------------------------------------------------
# The tie rule of Figure 1
# --------------------------------------------------------------------------------------------

#: The orderings of equally useful balls (Figure 1 leaves it open): ours (the estimators'),
#: fewest errors first, and step 3's ``>=`` read literally (a tie between ``h`` and ``not h`` goes
#: to output 1); see :func:`companion._ball_search.greedy_ball_list`.
TIE_RULES = ("larger_cover", "fewest_errors", "output_one_first")


class _BuildDLMVariant(DecisionListMachine):
    """The DLM with another tie rule or removal rule of BuildDLM (Figure 1 leaves both open).

    Everything but the greedy step is :class:`~companion.decision_list.DecisionListMachine`'s
    (canonical order, prediction, staged prediction, paths); ``tie_rule`` and ``removal`` are
    passed to :func:`~companion._ball_search.greedy_ball_list`. With the defaults it learns the
    estimator's list (tested). An experiment's device, not a learner: it is not exported.
    """

    #: The parameters of the greedy search it changes (what a grid's shared search passes on).
    search_options = ("tie_rule", "removal")

    def __init__(self, *, tie_rule="larger_cover", removal="fired", stop_if_unchanged=False, fallback=None, scale=None,
                 **params):
        # Figure 1's BuildDLM keeps a ball that changes no training prediction (the estimator's
        # safe default stops before it), has no fallback to the default class and takes
        # distances in the input's units (the paper does not scale).
        super().__init__(stop_if_unchanged=stop_if_unchanged, fallback=fallback, scale=scale, **params)
        self.tie_rule = tie_rule
        self.removal = removal

    def _learn(self, sd, y01, weights):
        return greedy_ball_list(
            sd, y01, p_p=float(self.p_p), p_n=float(self.p_n),
            types=("Pi", "Ni") if self.ball_type == "simple" else BALL_TYPES, max_balls=self.s,
            stop_when="either_empty", compression_constraint=bool(self.compression_constraint),
            tie_rule=self.tie_rule, removal=self.removal, sample_weight=weights,
        )


def _tie_fold(D, X, y, grid, rules, fold):
    """DLM test errors and sizes of the grid on one fold under each tie rule, one SortedDistances."""
    train, test = fold
    X_ball, y_ball, sd = fold_sorted(D, X, y, train)
    compiled = compiled_grid_state()  # one compiled pass for every rule's search
    out = []
    for rule in rules:
        errors, balls, _, _ = dlm_grid_errors(sd, X_ball, y_ball, X[test], y[test], grid, constraint=False,
                                              learner=_BuildDLMVariant, grid_state_pass=compiled, tie_rule=rule)
        out.append((errors, balls))
    return out


def tie_rule_protocol(names=COMPARABLE, *, seeds=(0, 1, 2), grid: Grid = Grid(), rules=TIE_RULES,
                      n_jobs=1, return_grids: bool = False):
    """Protocol (a) of the DLM (best grid point on the test folds) under each tie rule.

    Parameters
    ----------
    names : tuple of str
        Keys of :data:`~companion.experiments.paper01._grids.DATASETS`.
    seeds : tuple of int
        Fold seeds.
    grid : Grid
        Its DLM part is used.
    rules : tuple of str
        Members of :data:`TIE_RULES`.
    n_jobs : int, default=1
        The folds are items of :func:`companion.evaluation.parallel_map` (same result).
    return_grids : bool, default=False
        Also return every grid point's test errors and sizes on every fold.

    Returns
    -------
    pandas.DataFrame
        One row per (data set, rule, seed): ``errors`` (best total), ``size``, ``T``, ``p_p``,
        ``p_n``, ``s`` and ``fold_errors`` (list). With ``"larger_cover"`` this is the DLM
        column of :func:`~companion.experiments.paper01._protocol.paper_protocol` (tested).
    dict
        With ``return_grids``: ``{(name, seed, rule): (errors, sizes)}``, arrays of shape (types,
        p_p, p_n, s, folds), which the nested variants (:func:`nested_variant_protocol`) read on
        the outer folds.
    """
    unknown = [rule for rule in rules if rule not in TIE_RULES]
    if unknown:
        raise ValueError(f"unknown tie rules {unknown}; expected members of {TIE_RULES}")
    rows, grids = [], {}
    for name in names:
        X, y = load_table1_dataset(name)
        D = cdist(X, X)
        for seed in seeds:
            folds = stratified_folds(y, n_splits=10, seed=seed)
            per_fold = parallel_map(partial(_tie_fold, D, X, y, grid, tuple(rules)), folds, n_jobs=n_jobs)
            for r, rule in enumerate(rules):
                errors = np.stack([part[r][0] for part in per_fold], axis=-1)
                balls = np.stack([part[r][1] for part in per_fold], axis=-1)
                grids[(name, seed, rule)] = (errors, balls)
                total, size = errors.sum(axis=-1), balls.sum(axis=-1)
                index = argmin_prefer_small(total, size)
                rows.append({"dataset": name, "rule": rule, "seed": seed, "errors": int(total[index]),
                             "size": float(size[index] / len(folds)), **describe_grid_point("dlm", index, grid),
                             "fold_errors": as_counts(errors[index]).tolist()})
    return (pd.DataFrame(rows), grids) if return_grids else pd.DataFrame(rows)


def tie_rule_table(tie: pd.DataFrame, results: pd.DataFrame | None = None) -> pd.DataFrame:
    """Best DLM total test errors per fold seed under each tie rule, with the paper's.

    Parameters
    ----------
    tie : pandas.DataFrame
        :func:`tie_rule_protocol`'s frame (its rules other than ``"larger_cover"`` at least).
    results : pandas.DataFrame, optional
        :func:`~companion.experiments.paper01.run`'s frame: the ``"larger_cover"`` rows are read
        from its protocol (a) (the same numbers, tested) instead of being refitted.

    Returns
    -------
    pandas.DataFrame
        Rows (data set, rule); columns ``seed k`` (one per fold seed), ``mean`` and ``paper``.
    """
    frame = tie[["dataset", "rule", "seed", "errors"]]
    if results is not None:
        totals = total_errors(results)
        own = [{"dataset": name, "rule": "larger_cover", "seed": seed, "errors": int(totals[(name, "DLM (a)", seed)])}
               for name in dict.fromkeys(tie["dataset"]) for seed in dict.fromkeys(tie["seed"])
               if (name, "DLM (a)", seed) in totals.index]
        frame = pd.concat([pd.DataFrame(own), frame[frame["rule"] != "larger_cover"]], ignore_index=True)
    table = frame.pivot_table(index=["dataset", "rule"], columns="seed", values="errors", sort=False)
    table.columns = [f"seed {seed}" for seed in table.columns]
    table["mean"] = table.mean(axis=1)
    paper = paper_table1()
    table["paper"] = [int(paper.loc[name, "dlm_errors"]) for name, _ in table.index]
    table.index = table.index.set_levels([[DISPLAY[n] for n in table.index.levels[0]], table.index.levels[1]])
    rules = [r for r in TIE_RULES if r in set(frame["rule"])]
    order = sorted(range(len(table)), key=lambda i: (i // len(rules), rules.index(table.index[i][1])))
    return table.iloc[order]


@paper_models
def first_tie_rule_divergence(name="breastw", *, p_p=1.0, p_n=np.inf, ball_type="complex", s=None,
                              rules=("larger_cover", "output_one_first")) -> dict:
    """The first step at which two tie rules learn different lists on a whole data set.

    Parameters
    ----------
    name : str
        A key of :data:`~companion.experiments.paper01._grids.DATASETS`.
    p_p, p_n : float
        Penalties.
    ball_type : {"simple", "complex"}
        Ball types.
    s : int or None
        Stopping point.
    rules : tuple of two str
        Members of :data:`TIE_RULES`.

    Returns
    -------
    dict
        ``step`` (1-based, None if the lists agree), and per rule the ball added at that step
        (``kind``, ``output``) and the list's length.
    """
    X, y = load_table1_dataset(name)
    sd = SortedDistances(cdist(X, X))
    lists = {rule: _BuildDLMVariant(p_p=p_p, p_n=p_n, ball_type=ball_type, s=s, metric="l2",
                                              compression_constraint=False, tie_rule=rule).fit(
        X, y, sorted_distances=sd).balls_ for rule in rules}
    a, b = (lists[r] for r in rules)
    key = [lambda ball: (ball.kind, ball.centre_index, ball.border_index)] * 2
    step = next((t for t in range(min(len(a), len(b))) if key[0](a[t]) != key[1](b[t])), None)
    if step is None and len(a) != len(b):
        step = min(len(a), len(b))
    out = {"step": None if step is None else step + 1}
    for rule, balls in lists.items():
        here = step is not None and step < len(balls)
        out[rule] = {"kind": balls[step].kind if here else None,
                     "output": int(balls[step].output) if here else None, "length": len(balls)}
    return out


# --------------------------------------------------------------------------------------------
# The grid and the tie rule under nested cross-validation (protocol (b))
# --------------------------------------------------------------------------------------------

#: Name of the nested-CV variant with the fine DLM and SCM grids.
NESTED_FINE = "protocol=nested (b), grid=fine"


def nested_tie_name(rule: str) -> str:
    """Name of the nested-CV variant under the tie rule ``rule`` (``protocol=nested (b), tie=<rule>``)."""
    return f"protocol=nested (b), tie={rule}"


def _nested_variant_fold(D, X, y, fine, grid, rules, inner_splits, seed, numbered_fold) -> dict:
    """The grid point each variant's inner CV selects on one outer fold: ``{(variant, machine): index}``.

    The inner folds are :func:`~companion.experiments.paper01._protocol.nested_protocol`'s
    (``seed + 1000 + fold``); on each, one SortedDistances serves the fine DLM and SCM grids and
    the coarse DLM grid under every tie rule (every ``s`` through the prefixes).
    """
    f, (train, _test) = numbered_fold
    sums = {}
    compiled = compiled_grid_state()  # one compiled pass for every search of every inner fold
    for inner_train, inner_test in stratified_folds(y[train], n_splits=inner_splits, seed=seed + 1000 + f):
        fit, test = train[inner_train], train[inner_test]
        X_ball, y_ball, sd = fold_sorted(D, X, y, fit)
        parts = {}
        if fine is not None:
            parts[(NESTED_FINE, "dlm")] = dlm_grid_errors(sd, X_ball, y_ball, X[test], y[test], fine,
                                                          constraint=False, grid_state_pass=compiled)[:2]
            if fine.scm_penalties:
                parts[(NESTED_FINE, "scm")] = scm_grid_errors(sd, X_ball, y_ball, X[test], y[test], fine,
                                                              grid_state_pass=compiled)
        for rule in rules:
            parts[(nested_tie_name(rule), "dlm")] = dlm_grid_errors(
                sd, X_ball, y_ball, X[test], y[test], grid, constraint=False, learner=_BuildDLMVariant,
                grid_state_pass=compiled, tie_rule=rule)[:2]
        for key, (errors, sizes) in parts.items():
            total = sums.get(key, (0, 0))
            sums[key] = (total[0] + errors, total[1] + sizes)
    # ties as in protocol (a): fewer errors, then the smaller machine (balls summed over the inner folds)
    return {key: argmin_prefer_small(errors, sizes) for key, (errors, sizes) in sums.items()}


def nested_variant_protocol(names=COMPARABLE, *, seed=0, fine: dict | None = None, tie_grids: dict | None = None,
                            grid: Grid = Grid(), rules=("fewest_errors", "output_one_first"), inner_splits=3,
                            n_jobs=1) -> dict:
    """Protocol (b), nested CV, with the fine DLM and SCM grids and with the DLM's other tie rules.

    The honest check beside the paper's protocol (Sokolova et al. 2002 choose each machine's
    parameters on the test folds, Section 5) selects each outer fold's grid point by an inner
    stratified CV of its training set. The grid and the tie rule of BuildDLM (Figure 1 leaves both
    open) are varied under protocol (a) by :func:`fine_grid_protocol` and
    :func:`tie_rule_protocol`; this runs the same choices under nested CV, on the same outer and
    inner folds as :func:`~companion.experiments.paper01._protocol.nested_protocol`. The outer
    test errors are read from the follow-ups' fold grids (no outer fit is repeated); each inner
    fold is sorted once and serves every grid and tie rule.

    Parameters
    ----------
    names : sequence of str
        Keys of :data:`~companion.experiments.paper01._grids.DATASETS`.
    seed : int, default=0
        The fold seed (outer folds ``stratified_folds(y, 10, seed)``).
    fine : dict, optional
        :func:`fine_grid_protocol` run at ``seed``: the variant :data:`NESTED_FINE` (fine DLM and
        SCM grids; the SVM keeps its nested coarse grid). None: not run.
    tie_grids : dict, optional
        :func:`tie_rule_protocol`'s grids (``return_grids=True``) at ``seed`` for ``rules``: a
        variant :func:`nested_tie_name` per rule (the coarse DLM grid). None: not run.
    grid : Grid, default=Grid()
        The coarse grid (its DLM part under the other tie rules).
    rules : tuple of str
        Members of :data:`TIE_RULES` other than ours.
    inner_splits : int, default=3
        Inner folds.
    n_jobs : int, default=1
        The outer folds are items of :func:`companion.evaluation.parallel_map` (same result).

    Returns
    -------
    dict
        ``{variant: DataFrame}``, each with :func:`~companion.experiments.paper01.run`'s columns,
        one row per (data set, machine, outer fold), methods ``"DLM (b)"`` (and ``"SCM (b)"`` for
        the fine grid) only.
    """
    fine_grid_ = None if fine is None else fine["grid"]
    rules = tuple(rules) if tie_grids is not None else ()
    rows = {}
    for name in names:
        X, y = load_table1_dataset(name)
        D = cdist(X, X)
        folds = stratified_folds(y, n_splits=10, seed=seed)
        outer = {}
        if fine is not None:
            if (name, seed) not in fine["fold_grids"]:
                raise ValueError(f"the fine grid was not run on {name!r} at fold seed {seed}")
            for machine, arrays in fine["fold_grids"][(name, seed)].items():
                outer[(NESTED_FINE, machine)] = (*arrays, fine_grid_)
        for rule in rules:
            if (name, seed, rule) not in tie_grids:
                raise ValueError(f"the tie rule {rule!r} was not run on {name!r} at fold seed {seed}")
            outer[(nested_tie_name(rule), "dlm")] = (*tie_grids[(name, seed, rule)], grid)
        chosen = parallel_map(partial(_nested_variant_fold, D, X, y, fine_grid_, grid, rules, inner_splits, seed),
                              list(enumerate(folds)), n_jobs=n_jobs)
        for (variant, machine), (errors, sizes, run_grid) in outer.items():
            for f, (_train, test) in enumerate(folds):
                index = chosen[f][(variant, machine)]
                rows.setdefault(variant, []).append({
                    "dataset": name, "method": f"{MACHINE_NAMES[machine]} (b)", "seed": seed, "fold": f,
                    "protocol": "b", "machine": machine, "errors": int(as_counts(errors[index + (f,)])),
                    "n_test": len(test), "size": float(sizes[index + (f,)]),
                    **describe_grid_point(machine, index, run_grid)})
    return {variant: check_tidy(pd.DataFrame(part).reindex(columns=RESULT_COLUMNS).astype(
                {"s": "Int64", "longest": "Int64"}))
            for variant, part in rows.items()}


# --------------------------------------------------------------------------------------------
# Realised list lengths at the paper's parameters
# --------------------------------------------------------------------------------------------

#: The variants of :func:`list_length_table`: (label, nominal coding, folds, removal).
LENGTH_VARIANTS = (
    ("Figure 1, our tie rule", "onehot", "stratified", "fired"),
    ("remove covered only", "onehot", "stratified", "covered"),
    ("ordinal nominal coding", "ordinal", "stratified", "fired"),
    ("unstratified folds", "onehot", "unstratified", "fired"),
)


def _plain_folds(m, n_splits=10, seed=0):
    from sklearn.model_selection import KFold

    return list(KFold(n_splits=n_splits, shuffle=True, random_state=seed).split(np.zeros((m, 1))))


def _lengths_from_fine(fine, name, seed, p) -> dict | None:
    """:func:`list_lengths` of Figure 1's variant read from a fine grid's folds, or None.

    The fine grid (:func:`fine_grid_protocol`) fits the same DLM (our tie rule, one-hot coding,
    stratified folds, every ball it fires on removed, ``stop_if_unchanged=False``, no fallback,
    no scaling) at every ``(type, p_p, p_n)`` of its lists with its largest stopping point, on the
    same folds; the list for ``s`` is the prefix of that list (the prefix property), so its test
    errors and its length at ``s`` are the grid's entries at ``s`` when the paper's penalties and
    type are on the grid and ``s`` within it.
    """
    if fine is None or (name, seed) not in fine["fold_grids"]:
        return None
    grid = fine["grid"]
    kind = "simple" if p["dlm_T"] == "s" else "complex"
    p_p, p_n, s = float(p["dlm_p_p"]), float(p["dlm_p_n"]), int(p["dlm_s"])
    if kind not in grid.dlm_types or p_p not in grid.dlm_penalties or p_n not in grid.dlm_penalties \
            or not 1 <= s <= grid.dlm_s_max:
        return None
    errors, balls = fine["fold_grids"][(name, seed)]["dlm"]
    index = (grid.dlm_types.index(kind), grid.dlm_penalties.index(p_p), grid.dlm_penalties.index(p_n), s - 1)
    return {"lengths": [int(v) for v in as_counts(balls[index])], "errors": int(as_counts(errors[index]).sum()),
            "s": s}


@paper_models
def list_lengths(name, *, seed=0, nominal="onehot", folds="stratified", removal="fired", fine=None) -> dict:
    """Realised lengths of the DLM at the paper's parameters (Table 1) on the 10 folds.

    The DLM of type ``T`` with the paper's ``p_p``, ``p_n`` and ``s`` is fitted on each training
    fold; a list stops before ``s`` balls when ``P'`` or ``N'`` runs out (Figure 1, step 5).

    Parameters
    ----------
    name : str
        A key of :data:`~companion.experiments.paper01._grids.DATASETS`.
    seed : int
        Fold seed.
    nominal : {"onehot", "ordinal"}
        Coding of many-valued nominal attributes.
    folds : {"stratified", "unstratified"}
        The 10-fold split.
    removal : {"fired", "covered"}
        Which examples a ball removes from ``S'``: every one it fires on (Figure 1) or only
        those it classifies correctly.
    fine : dict, optional
        :func:`fine_grid_protocol`'s result: Figure 1's variant (one-hot, stratified, ``"fired"``)
        at a fold seed it ran, with the paper's penalties and type on its grid, is read from its
        folds (the same fits, their prefix at ``s``) instead of being refitted.

    Returns
    -------
    dict
        ``lengths`` (one per fold), ``errors`` (total test errors), ``s`` (the paper's).
    """
    if folds not in ("stratified", "unstratified"):
        raise ValueError(f"folds must be 'stratified' or 'unstratified', got {folds!r}")
    p = paper_table1().loc[name]
    if (nominal, folds, removal) == ("onehot", "stratified", "fired"):
        read = _lengths_from_fine(fine, name, seed, p)
        if read is not None:
            return read
    X, y = load_table1_dataset(name, nominal=nominal)
    splits = stratified_folds(y, n_splits=10, seed=seed) if folds == "stratified" else _plain_folds(len(y), 10, seed)
    lengths, errors = [], 0
    for train, test in splits:
        dlm = _BuildDLMVariant(
            p_p=float(p["dlm_p_p"]), p_n=float(p["dlm_p_n"]), ball_type="simple" if p["dlm_T"] == "s" else "complex",
            s=int(p["dlm_s"]), metric="l2", compression_constraint=False, removal=removal,
        ).fit(X[train], y[train])
        lengths.append(dlm.n_balls_)
        errors += int((dlm.predict(X[test]) != y[test]).sum())
    return {"lengths": lengths, "errors": errors, "s": int(p["dlm_s"])}


def list_length_table(names=COMPARABLE, *, seed=0, variants=LENGTH_VARIANTS, fine=None) -> pd.DataFrame:
    """Mean (min-max) realised DLM lengths at the paper's parameters, per data set and variant.

    Parameters
    ----------
    names : tuple of str
        Keys of :data:`~companion.experiments.paper01._grids.DATASETS`.
    seed : int
        Fold seed.
    variants : tuple
        ``(label, nominal, folds, removal)`` tuples (:data:`LENGTH_VARIANTS`).
    fine : dict, optional
        :func:`fine_grid_protocol`'s result, read by :func:`list_lengths` where it holds the same
        fits (the same table).

    Returns
    -------
    pandas.DataFrame
        Rows (data set, variant); columns ``paper_s``, ``mean_length``, ``min_length``,
        ``max_length``, ``errors`` (total test errors at that length) and ``paper_errors``. The
        ordinal-coding variant only differs from the first on data sets with many-valued nominal
        attributes (Credit); it is listed for Credit only.
    """
    paper = paper_table1()
    rows = []
    for name in names:
        for label, nominal, folds, removal in variants:
            if nominal == "ordinal" and name != "credit":
                continue
            out = list_lengths(name, seed=seed, nominal=nominal, folds=folds, removal=removal, fine=fine)
            rows.append(
                {
                    "dataset": DISPLAY[name],
                    "variant": label,
                    "paper_s": out["s"],
                    "mean_length": float(np.mean(out["lengths"])),
                    "min_length": int(min(out["lengths"])),
                    "max_length": int(max(out["lengths"])),
                    "errors": out["errors"],
                    "paper_errors": int(paper.loc[name, "dlm_errors"]),
                }
            )
    return pd.DataFrame(rows).set_index(["dataset", "variant"])


# --------------------------------------------------------------------------------------------
# The SVM column: an absolute kernel-width grid on the unscaled data
# --------------------------------------------------------------------------------------------

#: Absolute RBF widths ``gamma`` of :func:`svm_gamma_protocol` (kernel ``exp(-gamma ||x - x'||²)``
#: on the unscaled features, the paper's "variance 1/gamma"): one per decade from 1e-6 to 10.
ABSOLUTE_GAMMAS = (1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0)


def _svm_fold(squared, y, gammas, Cs, fold):
    """Test errors and support-vector counts of every (gamma, C) on one fold."""
    train, test = fold
    errors = np.zeros((len(gammas), len(Cs)))
    support = np.zeros_like(errors)
    rows = np.concatenate([train, test])
    block = squared[np.ix_(rows, train)]
    with trusted_inputs():  # a verified loader's data, the protocol's fixed grid: 32 SVM fits per fold
        for a, gamma in enumerate(gammas):
            kernel = np.exp(-gamma * block)
            k_train, k_test = kernel[: len(train)], kernel[len(train):]
            for b, C in enumerate(Cs):
                svm = SVC(kernel="precomputed", C=C).fit(k_train, y[train])
                errors[a, b] = (svm.predict(k_test) != y[test]).sum()
                support[a, b] = svm.support_.size
    return errors, support


def svm_gamma_protocol(names=COMPARABLE, *, seeds=(0,), gammas=ABSOLUTE_GAMMAS, Cs=Grid().svm_Cs,
                       n_jobs=1) -> pd.DataFrame:
    """Protocol (a) of the SVM with absolute kernel widths on the unscaled features.

    :func:`~companion.experiments.paper01._grids.cross_validate_grid` expresses ``gamma`` in units of
    each data set's median squared distance; the paper gives no unit ("variance 1/gamma").
    This grid takes ``gamma`` as it is, one per decade, so that a width that suits one feature's
    range (Credit's A15 runs to 100 000, Pima's insulin to 846) but not the others is reachable,
    and reports, beside the best grid point, the grid point whose mean number of support vectors
    is nearest the paper's (Table 1), with its errors.

    Parameters
    ----------
    names : tuple of str
        Keys of :data:`~companion.experiments.paper01._grids.DATASETS`.
    seeds : tuple of int
        Fold seeds.
    gammas : tuple of float
        Absolute kernel widths.
    Cs : tuple of float
        Soft-margin constants.
    n_jobs : int, default=1
        The folds are items of :func:`companion.evaluation.parallel_map` (same result).

    Returns
    -------
    pandas.DataFrame
        One row per (data set, seed): ``errors`` (best total), ``gamma``, ``C``, ``size`` (mean
        support vectors), ``fold_errors`` (list), and ``near_errors``, ``near_gamma``, ``near_C``,
        ``near_size`` (the grid point nearest the paper's number of support vectors; ties to
        fewer errors, then the first).
    """
    paper = paper_table1()
    rows = []
    for name in names:
        X, y = load_table1_dataset(name)
        squared = cdist(X, X, "sqeuclidean")
        for seed in seeds:
            folds = stratified_folds(y, n_splits=10, seed=seed)
            per_fold = parallel_map(partial(_svm_fold, squared, y, tuple(gammas), tuple(Cs)), folds, n_jobs=n_jobs)
            errors = np.stack([e for e, _ in per_fold], axis=-1)
            support = np.stack([s for _, s in per_fold], axis=-1)
            total, total_support = as_counts(errors.sum(axis=-1)), as_counts(support.sum(axis=-1))
            a, b = argmin_prefer_small(total, total_support)
            # nearest the paper's mean count, compared exactly on totals: |total - 10 * paper|
            distance = np.abs(total_support - len(folds) * int(paper.loc[name, "svm_size"]))
            near = np.unravel_index(np.lexsort((total.ravel(), distance.ravel()))[0], total.shape)
            rows.append({
                "dataset": name, "seed": seed, "errors": int(total[a, b]), "gamma": float(gammas[a]), "C": Cs[b],
                "size": float(total_support[a, b] / len(folds)), "fold_errors": as_counts(errors[a, b]).tolist(),
                "near_errors": int(total[near]), "near_gamma": float(gammas[near[0]]), "near_C": Cs[near[1]],
                "near_size": float(total_support[near] / len(folds)),
            })
    return pd.DataFrame(rows)


def svm_gamma_table(svm: pd.DataFrame, results: pd.DataFrame) -> pd.DataFrame:
    """The SVM column: the paper's, ours with the relative grid, and with the absolute grid.

    Parameters
    ----------
    svm : pandas.DataFrame
        :func:`svm_gamma_protocol`'s frame.
    results : pandas.DataFrame
        :func:`~companion.experiments.paper01.run`'s frame (protocol (a), relative grid).

    Returns
    -------
    pandas.DataFrame
        One row per data set: ``paper`` errors and ``paper_size``; ``relative`` errors and
        ``relative_size`` (main seed of ``results``); ``absolute`` errors, ``absolute_gamma``,
        ``absolute_size`` (first seed of ``svm``, and ``absolute_mean`` over its seeds); and the
        grid point nearest the paper's number of support vectors: ``near_errors``,
        ``near_gamma``, ``near_size``.
    """
    paper = paper_table1()
    main_seed = main_fold_seed(results)
    rows = []
    for name, part in svm.groupby("dataset", sort=False):
        first = part.iloc[0]
        ours = selected_method(results, name, "SVM (a)", main_seed)
        rows.append({
            "dataset": DISPLAY[name], "paper": int(paper.loc[name, "svm_errors"]),
            "paper_size": float(paper.loc[name, "svm_size"]),
            "relative": ours["errors"], "relative_size": round(ours["size"], 1),
            "absolute": int(first["errors"]), "absolute_mean": float(part["errors"].mean()),
            "absolute_gamma": first["gamma"], "absolute_size": round(float(first["size"]), 1),
            "near_errors": int(first["near_errors"]), "near_gamma": first["near_gamma"],
            "near_size": round(float(first["near_size"]), 1),
        })
    return pd.DataFrame(rows).set_index("dataset")


@paper_models
def _consistent_fold(name, seed, ball_type):
    """Rivest's greedy (BuildDLM with ``p_p = p_n = ∞``, ``s`` unbounded) on each fold of one split."""
    X, y = load_table1_dataset(name)
    rows = []
    for fold, (train, test) in enumerate(stratified_folds(y, n_splits=10, seed=seed)):
        dlm = DecisionListMachine(p_p=np.inf, p_n=np.inf, s=None, ball_type=ball_type, metric="l2",
                                  fallback=None, scale=None).fit(X[train], y[train])
        rows.append({"dataset": name, "seed": int(seed), "fold": fold, "n_test": len(test),
                     "errors": int((dlm.predict(X[test]) != y[test]).sum()), "balls": int(dlm.n_balls_),
                     "train_errors": int((dlm.predict(X[train]) != y[train]).sum())})
    return rows


def consistent_dlm_protocol(names=COMPARABLE, *, seeds=(0,), ball_type="complex", n_jobs=1) -> pd.DataFrame:
    """The "larger DLM which makes zero training errors" of Section 2 on the folds of protocol (a).

    BuildDLM with infinite penalties and no stopping point (Rivest's greedy algorithm, Section 2)
    on each training fold of the same stratified 10-fold splits as :func:`run` (the data sets have
    no contradictory examples, so a consistent list of balls exists and it reaches zero training
    errors).

    Parameters
    ----------
    names : sequence of str
        Keys of :data:`~companion.experiments.paper01._grids.DATASETS`.
    seeds : sequence of int
        Fold seeds.
    ball_type : {"simple", "complex"}, default="complex"
        The features ``H``: every ball of the four types (complex) or Pi and Ni balls (simple).
    n_jobs : int
        The (data set, seed) pairs are items of :func:`companion.evaluation.parallel_map`.

    Returns
    -------
    pandas.DataFrame
        One row per (data set, seed, fold): ``n_test``, ``errors`` (test), ``balls``, ``train_errors``.
    """
    items = [(name, int(seed)) for name in names for seed in seeds]
    parts = parallel_map(partial(_consistent_item, ball_type), items, n_jobs=n_jobs)
    return pd.DataFrame([row for part in parts for row in part])


def _consistent_item(ball_type, item):
    name, seed = item
    return _consistent_fold(name, seed, ball_type)


def nested_dlm_sizes(results: pd.DataFrame) -> pd.DataFrame:
    """Whether the nested-CV DLM (protocol (b), main seed) collapses to the majority class.

    Per comparable data set: the nested DLM's total test errors beside those of the majority
    class of each training fold, its mean and smallest number of balls over the 10 folds, the
    folds where it has no ball, and the folds where it errs exactly as often as the majority class.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`~companion.experiments.paper01.run`'s frame.

    Returns
    -------
    pandas.DataFrame
        Indexed by data set (display names).
    """
    main = main_fold_seed(results)
    rows = []
    for name in COMPARABLE:
        part = results[(results["dataset"] == name) & (results["method"] == "DLM (b)") & (results["seed"] == main)]
        if part.empty:
            continue
        part = part.sort_values("fold")
        _, y = load_table1_dataset(name)
        majority = []
        for train, test in stratified_folds(y, n_splits=10, seed=main):
            label = int(np.bincount(y[train].astype(int)).argmax())
            majority.append(int((y[test] != label).sum()))
        errors, sizes = part["errors"].astype(int).to_numpy(), part["size"].to_numpy(dtype=float)
        rows.append({"dataset": DISPLAY[name], "b_dlm_errors": int(errors.sum()), "majority_errors": int(sum(majority)),
                     "mean_balls": float(sizes.mean()), "min_balls": float(sizes.min()),
                     "folds_no_ball": int((sizes == 0).sum()),
                     "folds_as_majority": int((errors == np.asarray(majority)).sum())})
    return pd.DataFrame(rows).set_index("dataset")
