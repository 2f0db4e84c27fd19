"""Protocols and tables of notebook 02 (PRISM covering rules on contact lenses).

* :func:`first_rule_trace` and :func:`trace_comparison`: the slides' walk-through of the first
  ``hard`` rule (slides 8-14), regenerated from :class:`companion.prism.Prism`'s trace.
* :func:`rule_comparison`: our rule list against Weka's (spec §3).
* :func:`weka_cv_folds`: the folds of Weka's stratified cross-validation (``-x 10 -s 1``),
  rebuilt from Weka's own procedure (``java.util.Random``, ``Instances.randomize``,
  ``stratify``, ``testCV``), so that the comparison with Weka's numbers uses Weka's folds.
* :func:`cross_validate`: every learner on the *same* folds, counting unclassified instances.
* :func:`disjunction_data` and :func:`tree_leaf_rules`: the replicated-subtree example of
  slides 2-3, ``(a and b) or (c and d)``.
"""

from __future__ import annotations

import itertools
import warnings
from functools import partial

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.dummy import DummyClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder
from sklearn.tree import DecisionTreeClassifier

from companion.evaluation import comparison_table, parallel_map, stratified_folds
from companion.paper_numbers import paper_table
from companion.prism import Prism
from companion.rule_baselines import OneR

__all__ = [
    "contact_lens_table",
    "first_rule_trace",
    "trace_comparison",
    "rule_comparison",
    "JavaRandom",
    "weka_cv_folds",
    "learners",
    "cross_validate",
    "repeated_cross_validation",
    "weka_comparison",
    "disjunction_data",
    "tree_leaf_rules",
    "replicated_subtree_demo",
    "supermarket_scale",
    "supermarket_speed",
]


def contact_lens_table(X: pd.DataFrame, y: pd.Series) -> pd.DataFrame:
    """The 24-row contact-lens table of slide 8 (attributes, then the recommendation)."""
    return pd.concat([X, y.rename("recommendation")], axis=1)


# --------------------------------------------------------------------------------------------
# The worked example
# --------------------------------------------------------------------------------------------


def first_rule_trace(model: Prism, label) -> pd.DataFrame:
    """p/t of every candidate at every step of the first rule for ``label``.

    ``model`` must have been fitted with ``keep_trace=True``. Columns: ``step``, ``attribute``,
    ``value``, ``p``, ``t``, ``p/t`` (as text, e.g. ``4/12``), ``selected``.
    """
    trace = model.trace_
    first_rule = trace.loc[trace["class"] == label, "rule"].min()
    steps = trace[trace["rule"] == first_rule].copy()
    steps["p/t"] = steps["p"].astype(str) + "/" + steps["t"].astype(str)
    return steps[["step", "attribute", "value", "p", "t", "p/t", "selected"]].reset_index(drop=True)


def trace_comparison(ours: pd.DataFrame, paper: pd.DataFrame | None = None) -> pd.DataFrame:
    """Paper-vs-ours table of the slides' p/t numbers (rows: step, test, p or t)."""
    paper = paper_table("02_prism_first_rule_trace") if paper is None else paper
    key = ["step", "attribute", "value"]

    def long(frame):
        indexed = frame.set_index(key)[["p", "t"]].stack()
        indexed.index = [f"step {s}: {a} = {v} ({m})" for s, a, v, m in indexed.index]
        return indexed

    ours_long = long(ours.merge(paper[key], on=key, how="inner"))
    return comparison_table(long(paper), ours_long)


def rule_comparison(model: Prism, paper: pd.DataFrame | None = None) -> pd.DataFrame:
    """Weka's rules (spec §3) beside ours, in order, with an ``equal`` column."""
    paper = paper_table("02_prism_rules") if paper is None else paper
    ours = [rule.to_text() for rule in model.rules_]
    n = max(len(ours), len(paper))
    table = pd.DataFrame(
        {
            "paper (Weka)": list(paper["rule"]) + [""] * (n - len(paper)),
            "ours": ours + [""] * (n - len(ours)),
        },
        index=pd.RangeIndex(1, n + 1, name="order"),
    )
    table["equal"] = table["paper (Weka)"] == table["ours"]
    return table


# --------------------------------------------------------------------------------------------
# Weka's cross-validation folds
# --------------------------------------------------------------------------------------------


class JavaRandom:
    """``java.util.Random`` (48-bit linear congruential generator), enough for Weka's folds.

    >>> JavaRandom(42).next_int(10)
    0
    """

    _MULTIPLIER = 0x5DEECE66D
    _MASK = (1 << 48) - 1

    def __init__(self, seed: int):
        self._seed = (int(seed) ^ self._MULTIPLIER) & self._MASK

    def _next(self, bits: int) -> int:
        self._seed = (self._seed * self._MULTIPLIER + 0xB) & self._MASK
        value = self._seed >> (48 - bits)
        return value - (1 << 32) if value >= 1 << 31 else value  # Java's signed int

    def next_int(self, bound: int) -> int:
        """Uniform integer in ``[0, bound)``, exactly as ``Random.nextInt(int)``."""
        if bound <= 0:
            raise ValueError(f"bound must be positive, got {bound}")
        if bound & -bound == bound:  # a power of two
            return (bound * self._next(31)) >> 31
        while True:
            bits = self._next(31)
            value = bits % bound
            if bits - value + (bound - 1) < 1 << 31:  # Java rejects when this overflows an int
                return value


def weka_cv_folds(y, n_folds: int = 10, seed: int = 1) -> list[tuple[np.ndarray, np.ndarray]]:
    """Train/test index pairs of Weka 3.6's stratified cross-validation with seed ``seed``.

    Weka (``Evaluation.crossValidateModel``) copies the data, shuffles it with
    ``Instances.randomize(new Random(seed))`` (for ``j = n-1 .. 1``: swap ``j`` with
    ``nextInt(j + 1)``), sorts it by class with ``Instances.stratify`` (a stable gathering of
    each class behind its first occurrence), deals the rows into ``n_folds`` piles
    (``stratStep``: rows ``0, k, 2k, ...``, then ``1, k + 1, ...``) and takes fold ``i`` as
    the ``i``-th contiguous block (``testCV``; the first ``n mod k`` folds get one more row).
    The class values are compared by code, as Weka does.

    This is a replication of a reference procedure on small data sets, written as Weka's
    loops are (the O(n^2) class gathering included) to make the correspondence checkable.
    """
    codes = pd.factorize(np.asarray(y, dtype=object))[0]
    order = list(range(len(codes)))
    random = JavaRandom(seed)
    for j in range(len(order) - 1, 0, -1):  # Instances.randomize
        k = random.next_int(j + 1)
        order[j], order[k] = order[k], order[j]
    index = 1  # Instances.stratify: gather each class behind its first occurrence
    while index < len(order):
        first = codes[order[index - 1]]
        for j in range(index, len(order)):
            if codes[order[j]] == first:
                order[index], order[j] = order[j], order[index]
                index += 1
        index += 1
    dealt = [order[j] for start in range(n_folds) for j in range(start, len(order), n_folds)]
    n = len(dealt)
    folds = []
    for fold in range(n_folds):  # Instances.testCV
        size = n // n_folds + (1 if fold < n % n_folds else 0)
        first_row = fold * (n // n_folds) + min(fold, n % n_folds)
        test = np.array(sorted(dealt[first_row : first_row + size]), dtype=np.int64)
        train = np.setdiff1d(np.arange(n), test)
        folds.append((train, test))
    return folds


# --------------------------------------------------------------------------------------------
# Learners compared on the same folds
# --------------------------------------------------------------------------------------------


class _OrderedRipper(ClassifierMixin, BaseEstimator):
    """Multi-class RIPPER from the binary ``wittgenstein.RIPPER``, in JRip's class order.

    Classes are taken from the least to the most frequent: rules for each class are learnt
    against the classes not yet handled (its instances are then set aside), and the most
    frequent class is the default. Prediction: the first class whose rule set fires.
    """

    def __init__(self, random_state=0):
        self.random_state = random_state

    def fit(self, X, y):
        import wittgenstein

        X = pd.DataFrame(X).astype(str).reset_index(drop=True)
        y = pd.Series(np.asarray(y, dtype=object))
        counts = y.value_counts(sort=False)
        order = sorted(counts.index, key=lambda c: (counts[c], str(c)))
        self.classes_ = np.unique(y)
        self.default_ = order[-1]
        self.models_ = []
        remaining = np.ones(len(y), dtype=bool)
        for label in order[:-1]:
            model = wittgenstein.RIPPER(random_state=self.random_state)
            target = (y[remaining] == label).astype(int).to_numpy()
            model.fit(X[remaining].reset_index(drop=True), target, pos_class=1)
            self.models_.append((label, model))
            remaining &= (y != label).to_numpy()
        return self

    def predict(self, X):
        X = pd.DataFrame(X).astype(str).reset_index(drop=True)
        predicted = np.full(len(X), self.default_, dtype=object)
        decided = np.zeros(len(X), dtype=bool)
        for label, model in self.models_:
            fires = np.asarray(model.predict(X), dtype=bool) & ~decided
            predicted[fires] = label
            decided |= fires
        return predicted


def learners(seed: int = 0, ripper: bool = True) -> dict:
    """The learners of the notebook's comparison, unfitted, by display name."""
    found = {
        "PRISM": Prism(uncovered="unclassified"),
        "PRISM + default class": Prism(uncovered="default_class"),
        "ZeroR": DummyClassifier(strategy="most_frequent"),
        "OneR": OneR(),
        "decision tree (CART, one-hot)": make_pipeline(
            OneHotEncoder(handle_unknown="ignore"), DecisionTreeClassifier(random_state=seed)
        ),
    }
    if ripper:
        found["RIPPER (wittgenstein, one-vs-rest)"] = _OrderedRipper(random_state=seed)
    return found


def cross_validate(estimators: dict, X, y, folds) -> pd.DataFrame:
    """Fit every learner on every training fold; count correct / incorrect / unclassified.

    A prediction of ``None`` (PRISM with ``uncovered="unclassified"``) counts as unclassified,
    as in Weka. Accuracy = correct / all instances (Weka's "Correctly Classified").
    """
    y_values = np.asarray(y, dtype=object)
    rows = {}
    for name, estimator in estimators.items():
        correct = incorrect = unclassified = 0
        for train, test in folds:
            model = clone(estimator).fit(X.iloc[train], y.iloc[train])
            predicted = np.asarray(model.predict(X.iloc[test]), dtype=object)
            none = np.array([p is None for p in predicted], dtype=bool)
            hits = (predicted == y_values[test]) & ~none
            correct += int(hits.sum())
            unclassified += int(none.sum())
            incorrect += int((~hits & ~none).sum())
        total = correct + incorrect + unclassified
        rows[name] = {
            "correct": correct,
            "incorrect": incorrect,
            "unclassified": unclassified,
            "accuracy %": 100.0 * correct / total,
        }
    return pd.DataFrame.from_dict(rows, orient="index")


def repeated_cross_validation(
    estimators: dict, X, y, n_repeats: int, seed: int, *, n_jobs: int = 1
) -> pd.DataFrame:
    """Mean and standard deviation of the accuracy (%) over ``n_repeats`` seeded 10-fold CVs.

    Every repeat uses one set of folds (``companion.evaluation.stratified_folds``, seed
    ``seed + repeat``) for all learners. The repeats are independent items of
    :func:`companion.evaluation.parallel_map`: ``n_jobs`` (default 1, serial; -1: all local
    cores; under ``joblib.parallel_backend("dask")``: a Dask cluster) does not change the result.
    """
    fold_sets = []
    for repeat in range(n_repeats):
        with warnings.catch_warnings():
            # 4 `hard` instances for 10 folds: scikit-learn warns that some folds lack the class,
            # which is the nature of this data set (Weka's stratification does the same).
            warnings.filterwarnings("ignore", message="The least populated class", category=UserWarning)
            fold_sets.append(stratified_folds(y, n_splits=10, seed=seed + repeat))
    runs = parallel_map(partial(_repeat_accuracy, estimators, X, y), fold_sets, n_jobs=n_jobs)
    table = pd.concat(runs, axis=1)
    return pd.DataFrame({"mean accuracy %": table.mean(axis=1), "std %": table.std(axis=1, ddof=1)})


def _repeat_accuracy(estimators, X, y, folds) -> pd.Series:
    """Accuracy (%) of every learner over one set of folds (one repeat)."""
    return cross_validate(estimators, X, y, folds)["accuracy %"].astype(float)


_WEKA_NAMES = {
    "ZeroR": "ZeroR",
    "OneR": "OneR",
    "RIPPER (wittgenstein, one-vs-rest)": "JRip",
    "decision tree (CART, one-hot)": "J48",
}


def weka_comparison(cv: pd.DataFrame, training_correct: int) -> pd.DataFrame:
    """Paper (Weka) vs ours on contact lenses: PRISM's counts and the baselines' accuracies.

    ``cv`` is :func:`cross_validate`'s table on Weka's folds. The tree and RIPPER are other
    implementations than J48 and JRip; their rows are labelled with both names.
    """
    weka = paper_table("02_prism_weka_results")
    weka = weka[weka["dataset"] == "contact_lenses"].set_index(["learner", "measure"])["value"]
    paper, ours = {}, {}
    paper["PRISM training correct"] = weka[("Prism", "training correct")]
    ours["PRISM training correct"] = training_correct
    for measure in ("correct", "incorrect", "unclassified"):
        paper[f"PRISM cv {measure}"] = weka[("Prism", f"cv {measure}")]
        ours[f"PRISM cv {measure}"] = cv.loc["PRISM", measure]
    for name, weka_name in _WEKA_NAMES.items():
        if name in cv.index:
            label = name if name == weka_name else f"{name} vs Weka {weka_name}"
            paper[f"{label} cv accuracy %"] = weka[(weka_name, "cv accuracy")]
            ours[f"{label} cv accuracy %"] = cv.loc[name, "accuracy %"]
    return comparison_table(pd.Series(paper), pd.Series(ours))


# --------------------------------------------------------------------------------------------
# Trees vs rules: the replicated subtree
# --------------------------------------------------------------------------------------------


def disjunction_data(n_copies: int = 1) -> tuple[pd.DataFrame, pd.Series]:
    """The 16 truth assignments of ``a, b, c, d`` labelled by ``(a and b) or (c and d)``.

    Attributes are categoricals with values ``["false", "true"]``; the class is ``"x"`` where
    the disjunction holds, else ``"not x"`` (categories in that order, so PRISM learns the
    rules for ``x`` first). ``n_copies`` repeats the table (no noise, so the target concept is
    the same).
    """
    if not isinstance(n_copies, (int, np.integer)) or n_copies < 1:
        raise ValueError(f"n_copies must be a positive integer, got {n_copies!r}")
    rows = np.array(list(itertools.product([False, True], repeat=4)) * int(n_copies))
    a, b, c, d = rows.T
    X = pd.DataFrame(
        {
            name: pd.Categorical(np.where(column, "true", "false"), categories=["false", "true"])
            for name, column in zip("abcd", rows.T)
        }
    )
    label = np.where((a & b) | (c & d), "x", "not x")
    y = pd.Series(pd.Categorical(label, categories=["x", "not x"]), name="class")
    return X, y


def tree_leaf_rules(tree: DecisionTreeClassifier, feature_names, class_names=None) -> list[str]:
    """One rule per leaf of a fitted tree on 0/1 features (slide 2: "one rule for each leaf").

    A split ``feature <= 0.5`` reads as ``feature = false`` on its left branch and
    ``feature = true`` on its right one.
    """
    structure = tree.tree_
    classes = tree.classes_ if class_names is None else class_names
    rules = []

    def walk(node, conditions):
        left, right = structure.children_left[node], structure.children_right[node]
        if left == right:  # a leaf
            label = classes[int(np.argmax(structure.value[node][0]))]
            body = " and ".join(conditions) if conditions else "true"
            rules.append(f"If {body} then {label}")
            return
        name = feature_names[structure.feature[node]]
        walk(left, conditions + [f"{name} = false"])
        walk(right, conditions + [f"{name} = true"])

    walk(0, [])
    return rules


def replicated_subtree_demo(seed: int = 0):
    """Tree and PRISM rules on :func:`disjunction_data`, drawn side by side (slides 2-3).

    Returns
    -------
    dict
        ``tree`` (a fitted ``DecisionTreeClassifier`` on the 0/1 codes), ``leaf_rules`` (one
        rule per leaf), ``prism`` (fitted :class:`Prism`), ``x_rules`` (PRISM's rules for
        ``x``) and ``figure`` (matplotlib figure: the tree left, PRISM's rules right).
    """
    import matplotlib.pyplot as plt
    from sklearn.tree import plot_tree

    X, y = disjunction_data()
    codes = X.apply(lambda column: column.cat.codes)
    tree = DecisionTreeClassifier(random_state=seed).fit(codes, y.astype(str))
    prism = Prism().fit(X, y)
    x_rules = [rule.to_text() for rule in prism.rules_ if rule.label == "x"]
    figure, (left, right) = plt.subplots(1, 2, figsize=(13, 5), gridspec_kw={"width_ratios": [3, 1.3]})
    plot_tree(
        tree,
        feature_names=[f"{name} = true" for name in X.columns],
        class_names=list(tree.classes_),
        impurity=False,
        filled=True,
        ax=left,
        fontsize=8,
    )
    left.set_title("CART tree: the (c and d) test is replicated")
    right.axis("off")
    right.set_title("PRISM rules for x")
    right.text(0.0, 0.6, "\n\n".join(rule.replace(" then", "\nthen") for rule in x_rules),
               family="monospace", fontsize=10, va="top")
    figure.tight_layout()
    plt.close(figure)  # shown where the notebook saves it, not where it is drawn
    return {
        "tree": tree,
        "leaf_rules": tree_leaf_rules(tree, list(X.columns)),
        "prism": prism,
        "x_rules": x_rules,
        "figure": figure,
    }


def supermarket_scale(repeats: int = 1) -> dict:
    """PRISM on ``supermarket`` with missing cells as a value: rules, accuracy, fit time.

    Returns ``n_rules``, ``training_accuracy``, ``max_conditions`` and ``fit_seconds`` (best of
    ``repeats``; wall clock, so volatile). The comparison with Weka's own run lives in
    ``benchmarks/prism_supermarket.py``.
    """
    import time

    from companion.datasets import load_supermarket

    X, y = load_supermarket()
    times = []
    for _ in range(max(1, int(repeats))):
        start = time.perf_counter()
        model = Prism(missing="value").fit(X, y)
        times.append(time.perf_counter() - start)
    return {
        "n_rules": len(model.rules_),
        "training_accuracy": float(model.score(X, y)),
        "max_conditions": max(len(rule.conditions) for rule in model.rules_),
        "fit_seconds": min(times),
        "model": model,
    }


def supermarket_speed() -> pd.Series:
    """PRISM against Weka's Prism on ``supermarket``, from the last ``make bench`` report.

    The notebook prints this instead of a live timing: a wall-clock time measured while the
    notebook runs would change the executed notebook on every run (and on every machine). The
    report (``figures/benchmarks.csv``, committed, written by ``benchmarks/run.py``) holds the
    best build time of each side, timed alternately on the same machine, and whether the two
    rule lists are identical.

    Returns
    -------
    Series
        ``ours_s``, ``reference_s``, ``ratio`` (ours / Weka), ``identical``, ``n_rules``.
    """
    from companion.paths import ROOT

    report = pd.read_csv(ROOT / "figures" / "benchmarks.csv").set_index("benchmark")
    row = report.loc["PRISM supermarket vs Weka Prism"]
    return row[["ours_s", "reference_s", "ratio", "identical", "n_rules"]]
