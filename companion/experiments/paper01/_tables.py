"""Notebook 01's tables: Table 1 of the paper against ours, the protocols side by side, the
selected parameters, the bound check and the data sets' counts.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from companion.evaluation import stratified_folds
from companion.paper_numbers import paper_table
from companion.experiments.paper01._grids import (
    DATASETS, DISPLAY, Grid, cross_validate_grid, load_table1_dataset,
)
from companion.experiments.paper01._protocol import MACHINE_NAMES, grid_machines, paper_protocol


# --------------------------------------------------------------------------------------------
# Paper numbers and comparison tables
# --------------------------------------------------------------------------------------------


def paper_table1() -> pd.DataFrame:
    """Table 1 of the paper in wide form (one row per data set), from ``paper_numbers/01_table1.csv``.

    Returns
    -------
    pandas.DataFrame
        Columns ``<machine>_<quantity>`` (``svm_errors``, ``dlm_p_p``, ...), rows the keys of
        :data:`DATASETS`.
    """
    long = paper_table("01_table1")
    wide = long.pivot(index="dataset", columns=["machine", "quantity"], values="value")
    wide.columns = [f"{machine}_{quantity}" for machine, quantity in wide.columns]
    wide = wide.reindex(list(DATASETS))
    for column in wide.columns:
        converted = pd.to_numeric(wide[column], errors="coerce")
        if converted.notna().all():
            wide[column] = converted
    return wide


def _comparison_frame(ours: dict, what: str = "errors") -> pd.DataFrame:
    """Paper vs ours for one quantity of each machine; ``ours[dataset][machine][what]``.

    Rows: (data set, machine). Columns ``paper``, ``ours``, ``difference``.
    """
    from companion.evaluation import comparison_table

    paper = paper_table1()
    rows_paper, rows_ours = {}, {}
    for dataset, machines in ours.items():
        for machine, values in machines.items():
            key = (DISPLAY[dataset], machine.upper())
            rows_paper[key] = paper.loc[dataset, f"{machine}_{what}"]
            rows_ours[key] = values[what]
    table = comparison_table(pd.Series(rows_paper), pd.Series(rows_ours))
    table.index = pd.MultiIndex.from_tuples(table.index, names=["dataset", "machine"])
    return table


def glass_binarisation_evidence(candidates, grid: Grid = Grid(), seed=0, n_jobs=1, *, return_folds=False,
                                memo=None):
    """Paper-protocol errors of the three machines for each candidate Glass binarisation.

    Parameters
    ----------
    candidates : dict
        ``{label: positive_class}`` (a class or a tuple of classes of the original Glass data).
    grid : Grid
        The parameter grids.
    seed : int
        Fold seed.
    n_jobs : int, default=1
        Passed to :func:`cross_validate_grid` (the folds run in parallel; same result).
    return_folds : bool, default=False
        Also return each candidate's selected machines fold by fold (the variants ``glass=<split>``
        of the claims read them).
    memo : dict, optional
        The caller's memo of fold grids, passed to :func:`cross_validate_grid` (folds run before
        are read from it).

    Returns
    -------
    pandas.DataFrame
        One row per candidate: ``positives``, each machine's errors and ``distance_to_paper`` (the
        summed absolute differences to Table 1's Glass row).
    dict
        With ``return_folds``: ``{split: {machine: {"errors", "size", "folds", "fold_n"}}}``, the
        grid point of protocol (a) per machine, its total and mean size, its errors and the test
        fold sizes, fold by fold.
    """
    paper = paper_table1().loc["glass"]
    rows, by_fold = [], {}
    for label, positive in candidates.items():
        X, y = load_table1_dataset("glass", positive_class=positive)
        folds = stratified_folds(y, n_splits=10, seed=seed)
        run = cross_validate_grid(X, y, folds, grid, constrained=False, n_jobs=n_jobs, memo=memo)
        best = paper_protocol(run)
        row = {"split": label, "positives": int(y.sum())}
        for machine in ("svm", "scm", "dlm"):
            row[f"{machine}_errors"] = best[machine]["errors"]
        row["distance_to_paper"] = sum(abs(row[f"{m}_errors"] - paper[f"{m}_errors"]) for m in ("svm", "scm", "dlm"))
        rows.append(row)
        fold_n = [len(test) for _, test in folds]
        by_fold[label] = {machine: {"errors": best[machine]["errors"], "size": best[machine]["size"],
                                    "folds": [int(e) for e in np.asarray(errors)[best[machine]["index"]]],
                                    "fold_n": fold_n}
                          for machine, errors, _ in grid_machines(run, constrained=False)}
    table = pd.DataFrame(rows).set_index("split")
    return (table, by_fold) if return_folds else table


def total_errors(results: pd.DataFrame) -> pd.Series:
    """Total test errors over the folds, indexed by (``dataset``, ``method``, ``seed``) in row order.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.

    Returns
    -------
    pandas.Series
    """
    return results.groupby(["dataset", "method", "seed"], sort=False)["errors"].sum()


def main_fold_seed(results: pd.DataFrame):
    """The main fold seed of a :func:`run` result: the one of protocol (c) (else the first row's)."""
    seeds = results.loc[results["protocol"] == "c", "seed"]
    return (seeds if len(seeds) else results["seed"]).iloc[0]


def result_datasets(results: pd.DataFrame) -> list:
    return list(dict.fromkeys(results["dataset"]))


def selected_method(results: pd.DataFrame, name, method, seed) -> dict:
    """Total errors, mean size and the grid point (of the first fold) of one method's rows."""
    part = results[(results["dataset"] == name) & (results["method"] == method) & (results["seed"] == seed)]
    if part.empty:
        return {}
    first = part.iloc[0]
    out = {"errors": int(part["errors"].sum()), "size": float(part["size"].mean())}
    for key in ("T", "p", "p_p", "p_n", "gamma", "C"):
        if pd.notna(first[key]):
            out[key] = first[key]
    if pd.notna(first["s"]):
        out["s"] = int(first["s"])
    return out


def protocol_a_table(results: pd.DataFrame, seed=None) -> dict:
    """``{dataset: {machine: selected_method(...)}}`` of protocol (a) (main seed by default)."""
    seed = main_fold_seed(results) if seed is None else seed
    return {
        name: {m: selected_method(results, name, f"{MACHINE_NAMES[m]} (a)", seed) for m in ("svm", "scm", "dlm", "dlmc")}
        for name in result_datasets(results)
    }


def errors_table(results: pd.DataFrame) -> pd.DataFrame:
    """Protocol (a): paper vs ours (main seed) total test errors, with the range over the seeds.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.

    Returns
    -------
    pandas.DataFrame
        Rows (data set, machine); columns ``paper``, ``ours``, ``difference``, ``seed_min``,
        ``seed_max`` and ``paper_in_range`` (the paper's number lies within our range over the seeds).
    """
    totals = total_errors(results)
    main_seed = main_fold_seed(results)
    seeds = list(dict.fromkeys(results["seed"]))
    machines = ("svm", "scm", "dlm")
    names = result_datasets(results)
    ours = {name: {m: {"errors": totals[(name, f"{MACHINE_NAMES[m]} (a)", main_seed)]} for m in machines}
            for name in names}
    table = _comparison_frame(ours, "errors")
    spread = {
        (DISPLAY[name], machine.upper()): [
            totals[(name, f"{MACHINE_NAMES[machine]} (a)", seed)] for seed in seeds
            if (name, f"{MACHINE_NAMES[machine]} (a)", seed) in totals.index
        ]
        for name in names
        for machine in machines
    }
    table["seed_min"] = [min(spread[key]) for key in table.index]
    table["seed_max"] = [max(spread[key]) for key in table.index]
    table["paper_in_range"] = (table["paper"] >= table["seed_min"]) & (table["paper"] <= table["seed_max"])
    return table


def parameters_table(results: pd.DataFrame) -> pd.DataFrame:
    """Protocol (a), main seed: the chosen parameters and sizes beside the paper's.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.

    Returns
    -------
    pandas.DataFrame
        One row per data set; ``paper_*`` columns from Table 1, ``ours_*`` columns from our grid.
    """
    paper = paper_table1()
    rows = []
    for name, best in protocol_a_table(results).items():
        p = paper.loc[name]
        rows.append(
            {
                "dataset": DISPLAY[name],
                "paper_svm_size": p["svm_size"],
                "ours_svm_size": round(best["svm"]["size"], 1),
                "paper_scm": f"{p['scm_T']} p={p['scm_p']:g} s={p['scm_s']:g}",
                "ours_scm": f"{best['scm']['T']} p={best['scm']['p']:g} s={best['scm']['s']}",
                "ours_scm_size": round(best["scm"]["size"], 1),
                "paper_dlm": f"{p['dlm_T']} p_n={p['dlm_p_n']:g} p_p={p['dlm_p_p']:g} s={p['dlm_s']:g}",
                "ours_dlm": (
                    f"{best['dlm']['T']} p_n={best['dlm']['p_n']:g} p_p={best['dlm']['p_p']:g} s={best['dlm']['s']}"
                ),
                "ours_dlm_size": round(best["dlm"]["size"], 1),
            }
        )
    return pd.DataFrame(rows).set_index("dataset")


def protocols_table(results: pd.DataFrame) -> pd.DataFrame:
    """Total test errors of each machine under the three protocols (main seed).

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.

    Returns
    -------
    pandas.DataFrame
        Columns: the paper's DLM errors, then ours: (a) SVM/SCM/DLM, (a) DLM with the
        compression-set constraint, (b) nested SVM/SCM/DLM (when run), (c) bound-selected
        constrained DLM (the published Theorem 1/2, then the corrected bound) and their mean numbers
        of balls (:data:`PROTOCOL_COLUMNS`).
    """
    paper = paper_table1()
    main_seed = main_fold_seed(results)
    rows = []
    for name, a in protocol_a_table(results, main_seed).items():
        row = {"dataset": DISPLAY[name], "paper_dlm": paper.loc[name, "dlm_errors"]}
        for machine in ("svm", "scm", "dlm"):
            row[f"a_{machine}"] = a[machine]["errors"]
        row["a_dlm_constrained"] = a["dlmc"]["errors"] if a["dlmc"] else np.nan
        for machine in ("svm", "scm", "dlm"):
            nested = selected_method(results, name, f"{MACHINE_NAMES[machine]} (b)", main_seed)
            if nested:
                row[f"b_{machine}"] = nested["errors"]
        for variant, column, balls in (("published", "c_dlm_bound", "c_dlm_balls"),
                                       ("corrected", "c_dlm_corrected", "c_corrected_balls")):
            selected = selected_method(results, name, f"DLM (c) {variant}", main_seed)
            row[column] = selected["errors"]
            row[balls] = round(selected["size"], 1)
        rows.append(row)
    return pd.DataFrame(rows).set_index("dataset")


def bound_check_table(results: pd.DataFrame) -> pd.DataFrame:
    """How the two bounds behave on the machines they select (main seed, all folds).

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s frame.

    Returns
    -------
    pandas.DataFrame
        For each data set and bound variant: the mean bound, the mean training and test error rates
        of the selected machines, and on how many folds the bound is below the selected machine's
        training error rate (impossible for a valid bound to do often) or below its test error rate.
    """
    main_seed = main_fold_seed(results)
    rows = []
    for name in result_datasets(results):
        for variant in ("published", "corrected"):
            chosen = results[(results["dataset"] == name) & (results["method"] == f"DLM (c) {variant}")
                             & (results["seed"] == main_seed)]
            test_error = chosen["errors"] / chosen["n_test"]
            rows.append(
                {
                    "dataset": DISPLAY[name],
                    "bound": variant,
                    "mean_bound": chosen["bound"].mean(),
                    "mean_train_error": chosen["train_error"].mean(),
                    "mean_test_error": test_error.mean(),
                    "folds_bound_below_train": int((chosen["bound"] < chosen["train_error"]).sum()),
                    "folds_bound_below_test": int((chosen["bound"] < test_error).sum()),
                    "total_test_errors": int(chosen["errors"].sum()),
                    "mean_balls": chosen["size"].mean(),
                }
            )
    return pd.DataFrame(rows).set_index(["dataset", "bound"])


def dataset_counts(names=None) -> dict:
    """``{name: (m, n_features, n_positive)}`` of the Table 1 data sets.

    Parameters
    ----------
    names : list of str, optional
        Keys of :data:`DATASETS` (default: all).

    Returns
    -------
    dict
    """
    names = list(DATASETS) if names is None else list(names)
    counts = {}
    for name in names:
        X, y = load_table1_dataset(name)
        counts[name] = (X.shape[0], X.shape[1], int(y.sum()))
    return counts


def examples_table(counts: dict) -> pd.DataFrame:
    """Number of examples per data set, the paper's and ours.

    Parameters
    ----------
    counts : dict
        :func:`dataset_counts`'s result.

    Returns
    -------
    pandas.DataFrame
        ``paper``, ``ours``, ``difference``, ``features`` and ``positives`` per data set.
    """
    from companion.evaluation import comparison_table

    paper = paper_table1()
    ours = pd.Series({DISPLAY[n]: counts[n][0] for n in counts})
    theirs = pd.Series({DISPLAY[n]: paper.loc[n, "data_examples"] for n in counts})
    table = comparison_table(theirs, ours)
    table["features"] = [counts[n][1] for n in counts]
    table["positives"] = [counts[n][2] for n in counts]
    return table
