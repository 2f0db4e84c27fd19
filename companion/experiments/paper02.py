"""Protocols and tables of notebook 02 (PRISM covering rules on contact lenses).

* :func:`first_rule_trace` and :func:`trace_comparison`: the slides' walk-through of the first
  ``hard`` rule (slides 8-14), regenerated from :class:`companion.prism.Prism`'s trace.
* :func:`rule_comparison`: our rule list against the one Weka's ``weka.classifiers.rules.Prism``
  3.6.14 prints (the slides give the first two rules only; ``paper_numbers/02_prism_rules.csv``).
* :func:`weka_cv_folds`: the folds of Weka's stratified cross-validation (``-x 10 -s 1``),
  rebuilt from Weka's own procedure (``java.util.Random``, ``Instances.randomize``,
  ``stratify``, ``testCV``), so that the comparison with Weka's numbers uses Weka's folds.
* :func:`cross_validate`: every learner on the *same* folds, counting unclassified instances.
* :class:`Config` and :func:`run`: the notebook's cross-validation as a tidy frame (one row per
  learner, fold split and fold, see :mod:`companion.experiments.protocol`), read by
  :func:`weka_folds_table` and :func:`repeated_table`.
* :func:`disjunction_data` and :func:`tree_leaf_rules`: the replicated-subtree example of
  slides 2-3, ``(a and b) or (c and d)``.
* :func:`rule_trace` and :func:`covered_subsets`: any rule's walk-through (the second ``hard``
  rule included) and the subsets of E that the rule covers after each test (slides 10-14).
* :func:`rule_coverage`, :func:`permuted_predictions` and :func:`order_invariance`: Cendrowska's
  *modular* rules, each one read on its own over the whole training set and in any order.
* :func:`attribute_space`, :func:`rule_conflicts`, :func:`conflict_counts`,
  :func:`cv_conflicts` and :func:`space_conflicts`: where modularity ends, on instances the
  rules were not grown on (none covers them, or rules of different classes do).
* :func:`covering_2d_example`: slide 5's covering of a two-dimensional instance space.
"""

from __future__ import annotations

import itertools
import warnings
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.dummy import DummyClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder
from sklearn.tree import DecisionTreeClassifier

from companion.datasets import RegisteredDataset, load_contact_lenses
from companion.evaluation import comparison_table, fold_hash, parallel_map, stratified_folds
from companion.experiments.protocol import check_tidy
from companion.paper_numbers import paper_table
from companion.baselines import OneR, OrderedRipper, tree_leaf_paths
from companion.prism import Prism
from companion.prose import Markdown, render

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
    "DATASETS",
    "Config",
    "run",
    "weka_folds_table",
    "repeated_table",
    "weka_comparison",
    "WEKA_PEERS",
    "stand_in_table",
    "fold_vector",
    "fold_list_comparison",
    "DEFAULT_CLASS_MARGIN",
    "exact_checks",
    "claims_family",
    "claims_measures",
    "claims_data",
    "claims_report",
    "covering_checks",
    "seed_variants",
    "seed_variant",
    "weka_peer_results_if_run",
    "TEMPLATES",
    "weka_peer_results",
    "prism_peer_comparison",
    "peer_repeated_accuracy",
    "disjunction_data",
    "tree_leaf_rules",
    "replicated_subtree_demo",
    "supermarket_scale",
    "supermarket_speed",
    "rule_trace",
    "covered_subsets",
    "rule_coverage",
    "permuted_predictions",
    "order_invariance",
    "attribute_space",
    "rule_conflicts",
    "conflict_counts",
    "cv_conflicts",
    "space_conflicts",
    "covering_2d_example",
]



def contact_lens_table(X: pd.DataFrame, y: pd.Series) -> pd.DataFrame:
    """The 24-row contact-lens table of slide 8 (attributes, then the recommendation).

    Parameters
    ----------
    X : pandas.DataFrame
        The attributes (:func:`companion.datasets.load_contact_lenses`).
    y : pandas.Series
        The recommendation.

    Returns
    -------
    pandas.DataFrame
    """
    return pd.concat([X, y.rename("recommendation")], axis=1)


# --------------------------------------------------------------------------------------------
# The worked example
# --------------------------------------------------------------------------------------------


def first_rule_trace(model: Prism, label) -> pd.DataFrame:
    """The p/t of every candidate at every step of the first rule for ``label``.

    ``model`` must have been fitted with ``keep_trace=True``. Columns: ``step``, ``attribute``,
    ``value``, ``p``, ``t``, ``p/t`` (as text, e.g. ``4/12``), ``selected``.

    Parameters
    ----------
    model : Prism
        Fitted with ``keep_trace=True``.
    label : object
        The class whose first rule is traced.

    Returns
    -------
    pandas.DataFrame
    """
    trace = model.trace_
    first_rule = trace.loc[trace["class"] == label, "rule"].min()
    steps = trace[trace["rule"] == first_rule].copy()
    steps["p/t"] = steps["p"].astype(str) + "/" + steps["t"].astype(str)
    return steps[["step", "attribute", "value", "p", "t", "p/t", "selected"]].reset_index(drop=True)


def trace_comparison(ours: pd.DataFrame, paper: pd.DataFrame | None = None) -> pd.DataFrame:
    """Paper-vs-ours table of the slides' p/t numbers (rows: step, test, p or t).

    Parameters
    ----------
    ours : pandas.DataFrame
        :func:`first_rule_trace` (or :func:`rule_trace`) of our model.
    paper : pandas.DataFrame, optional
        The slides' numbers (default: ``paper_numbers/02_prism_first_rule_trace.csv``).

    Returns
    -------
    pandas.DataFrame
        :func:`companion.evaluation.comparison_table`'s columns.
    """
    paper = paper_table("02_prism_first_rule_trace") if paper is None else paper
    key = ["step", "attribute", "value"]

    def long(frame):
        indexed = frame.set_index(key)[["p", "t"]].stack()
        indexed.index = [f"step {s}: {a} = {v} ({m})" for s, a, v, m in indexed.index]
        return indexed

    ours_long = long(ours.merge(paper[key], on=key, how="inner"))
    return comparison_table(long(paper), ours_long)


def rule_comparison(model: Prism, paper: pd.DataFrame | None = None) -> pd.DataFrame:
    """Weka's rules (``paper_numbers/02_prism_rules.csv``) beside ours, in order, with an ``equal`` column.

    Parameters
    ----------
    model : Prism
        A fitted :class:`companion.prism.Prism`.
    paper : pandas.DataFrame, optional
        Weka's rules (default: ``paper_numbers/02_prism_rules.csv``).

    Returns
    -------
    pandas.DataFrame
        Columns ``paper (Weka)``, ``ours``, ``equal``; index ``order`` (from 1).
    """
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

    Parameters
    ----------
    seed : int
        The seed of ``new Random(seed)``.

    Examples
    --------
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
        """Uniform integer in ``[0, bound)``, exactly as ``Random.nextInt(int)``.

        Parameters
        ----------
        bound : int
            Exclusive upper bound (positive).

        Returns
        -------
        int
        """
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

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Class labels.
    n_folds : int, default=10
        Folds (``-x``).
    seed : int, default=1
        Weka's seed (``-s``).

    Returns
    -------
    list of (numpy.ndarray, numpy.ndarray)
        ``(train_index, test_index)`` of each fold, in the original row numbering.
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


def learners(seed: int = 0, ripper: bool = True) -> dict:
    """The learners of the notebook's comparison, unfitted, by display name.

    Parameters
    ----------
    seed : int, default=0
        ``random_state`` of the randomised learners.
    ripper : bool, default=True
        Include wittgenstein's RIPPER (an optional dependency).

    Returns
    -------
    dict
        ``{display name: estimator}``.
    """
    found = {
        "PRISM": Prism(uncovered="unclassified", pruning=None),
        "PRISM + default class": Prism(uncovered="default_class", pruning=None),
        "ZeroR": DummyClassifier(strategy="most_frequent"),
        "OneR": OneR(),
        "decision tree (CART, one-hot)": make_pipeline(
            OneHotEncoder(handle_unknown="ignore"), DecisionTreeClassifier(random_state=seed)
        ),
    }
    if ripper:
        # the comparison reads predictions only: the rules' probabilities need no recalibration
        found["RIPPER (wittgenstein, one-vs-rest)"] = OrderedRipper(random_state=seed, calibrate_rulesets=False, fallback=None)
    return found


def cross_validate(estimators: dict, X, y, folds) -> pd.DataFrame:
    """Fit every learner on every training fold; count correct / incorrect / unclassified.

    A prediction of ``None`` (PRISM with ``uncovered="unclassified"``) counts as unclassified,
    as in Weka. Accuracy = correct / all instances (Weka's "Correctly Classified"). The table
    :func:`weka_folds_table` builds from :func:`run`'s rows of one split.

    Parameters
    ----------
    estimators : dict
        ``{name: estimator}`` (:func:`learners`).
    X : pandas.DataFrame
        The attributes.
    y : pandas.Series
        The labels.
    folds : list of (array, array)
        ``(train_index, test_index)`` pairs.

    Returns
    -------
    pandas.DataFrame
        One row per learner: ``correct``, ``incorrect``, ``unclassified``, ``accuracy %``.
    """
    return _counts_table(_fold_rows(estimators, X, y, ("", folds)))


def repeated_cross_validation(
    estimators: dict, X, y, n_repeats: int, seed: int, *, n_jobs: int = 1, n_folds: int = 10
) -> pd.DataFrame:
    """Mean and standard deviation of the accuracy (%) over ``n_repeats`` seeded ``n_folds``-fold CVs.

    Every repeat uses one set of folds (``companion.evaluation.stratified_folds``, seed
    ``seed + repeat``) for all learners. The repeats are independent items of
    :func:`companion.evaluation.parallel_map`: ``n_jobs`` (default 1, serial; -1: all local
    cores; under ``joblib.parallel_backend("dask")``: a Dask cluster) does not change the result.
    The table :func:`repeated_table` builds from :func:`run`'s rows.

    Parameters
    ----------
    estimators : dict
        ``{name: estimator}`` (:func:`learners`).
    X : pandas.DataFrame
        The attributes.
    y : pandas.Series
        The labels.
    n_repeats : int
        Seeded cross-validations.
    seed : int
        Seed of the first.
    n_jobs : int, default=1
        Workers; the result does not depend on it.
    n_folds : int, default=10
        Folds per cross-validation.

    Returns
    -------
    pandas.DataFrame
        One row per learner: mean and standard deviation of the accuracy (%).
    """
    splits = [(seed + repeat, _stratified_folds(y, n_folds, seed + repeat)) for repeat in range(n_repeats)]
    runs = parallel_map(partial(_fold_rows, estimators, X, y), splits, n_jobs=n_jobs)
    return _repeated_summary(pd.concat(runs, ignore_index=True))


def _stratified_folds(y, n_folds: int, seed: int):
    """:func:`companion.evaluation.stratified_folds`, quiet about the classes too small to stratify."""
    with warnings.catch_warnings():
        # 4 `hard` instances for 10 folds: scikit-learn warns that some folds lack the class,
        # which is the nature of this data set (Weka's stratification does the same).
        warnings.filterwarnings("ignore", message="The least populated class", category=UserWarning)
        return stratified_folds(y, n_splits=n_folds, seed=seed)


_COUNTS = ["correct", "incorrect", "unclassified"]


def _fold_rows(estimators: dict, X, y, split) -> pd.DataFrame:
    """Counts of every learner on every fold of one split ``(seed, folds)``, learner by learner."""
    seed, folds = split
    y_values = np.asarray(y, dtype=object)
    rows = []
    for name, estimator in estimators.items():
        for fold, (train, test) in enumerate(folds):
            model = clone(estimator).fit(X.iloc[train], y.iloc[train])
            predicted = np.asarray(model.predict(X.iloc[test]), dtype=object)
            none = np.array([p is None for p in predicted], dtype=bool)
            hits = (predicted == y_values[test]) & ~none
            rows.append(
                {
                    "method": name,
                    "seed": seed,
                    "fold": fold,
                    "correct": int(hits.sum()),
                    "incorrect": int((~hits & ~none).sum()),
                    "unclassified": int(none.sum()),
                    "n_test": len(test),
                }
            )
    return pd.DataFrame(rows)


def _counts_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Counts summed over the folds of one split and the accuracy (%), one row per learner."""
    table = rows.groupby("method", sort=False)[_COUNTS].sum().astype(np.int64)
    table.index.name = None
    table["accuracy %"] = 100.0 * table["correct"] / table[_COUNTS].sum(axis=1)
    return table


def _repeated_summary(rows: pd.DataFrame) -> pd.DataFrame:
    """Mean and sample standard deviation over the splits of each split's accuracy (%)."""
    accuracy = {seed: _counts_table(split)["accuracy %"] for seed, split in rows.groupby("seed", sort=False)}
    table = pd.concat(accuracy.values(), axis=1)
    return pd.DataFrame({"mean accuracy %": table.mean(axis=1), "std %": table.std(axis=1, ddof=1)})


# --------------------------------------------------------------------------------------------
# The protocol: one row per learner x fold split x fold
# --------------------------------------------------------------------------------------------

#: The data set of the protocol: Cendrowska's contact lenses, as Weka's ARFF declares them.
DATASETS = {"contact-lenses": RegisteredDataset(load_contact_lenses, note="Cendrowska's 24 instances")}

#: ``seed`` key prefix of the two fold generators (a split is named by generator and seed).
WEKA_SPLIT, NUMPY_SPLIT = "weka:", "numpy:"


@dataclass(frozen=True)
class Config:
    """Everything the cross-validation of notebook 02 depends on.

    Parameters
    ----------
    seed : int, default=0
        The learners' ``random_state`` and the seed of the first repeated split (repeat ``r`` is
        split with ``seed + r``).
    weka_seed : int, default=1
        Seed of Weka's stratified cross-validation (``-s 1``), rebuilt by :func:`weka_cv_folds`.
    n_folds : int, default=10
    n_repeats : int, default=10
        Seeded stratified cross-validations (the notebook's ``n_cv_repeats``).
    methods : tuple of str, default=()
        The learners of :func:`learners` run, by display name (empty: all of them). The seed
        variants of the claims run only the two PRISM learners their claims read.
    """

    seed: int = 0
    weka_seed: int = 1
    n_folds: int = 10
    n_repeats: int = 10
    methods: tuple = ()

    @classmethod
    def fast(cls) -> "Config":
        """The notebook's ``fast=True`` run: two repeats."""
        return cls(n_repeats=2)


def run(config: Config, n_jobs: int = 1) -> pd.DataFrame:
    """Every learner of :func:`learners` on Weka's folds and on ``n_repeats`` seeded splits.

    The splits are the items of :func:`companion.evaluation.parallel_map`: ``n_jobs``
    (default 1, serial; -1: every core) does not change the result, since each split is fixed
    by its seed before any learner runs.

    Parameters
    ----------
    config : Config
        The protocol's configuration.
    n_jobs : int, default=1
        Workers of :func:`companion.evaluation.parallel_map`; the result does not depend on it.

    Returns
    -------
    DataFrame
        Tidy (:func:`companion.experiments.protocol.check_tidy`), one row per learner, split and
        fold, learner by learner within a split and Weka's split first. Keys: ``dataset``
        (``"contact-lenses"``), ``method`` (the learner's display name in :func:`learners`),
        ``seed`` (the fold split, as ``"weka:<seed>"`` for :func:`weka_cv_folds` and
        ``"numpy:<seed>"`` for :func:`companion.evaluation.stratified_folds`: the generator is
        part of the name because Weka's seed 1 and the repeats' seed 1 are different splits),
        ``fold`` (from 0, in the split's order). Columns ``correct``, ``incorrect``,
        ``unclassified`` (PRISM's uncovered instances) and ``n_test``.
        :func:`weka_folds_table` and :func:`repeated_table` are the notebook's tables.
    """
    (dataset, entry), = DATASETS.items()
    X, y = entry.load()
    splits = [(f"{WEKA_SPLIT}{config.weka_seed}", weka_cv_folds(y, config.n_folds, seed=config.weka_seed))]
    splits += [
        (f"{NUMPY_SPLIT}{seed}", _stratified_folds(y, config.n_folds, seed))
        for seed in range(config.seed, config.seed + config.n_repeats)
    ]
    chosen = learners(seed=config.seed, ripper="RIPPER (wittgenstein, one-vs-rest)" in config.methods or not config.methods)
    if config.methods:
        unknown = sorted(set(config.methods) - set(chosen))
        if unknown:
            raise ValueError(f"Config.methods names unknown learners {unknown}; known: {list(chosen)}")
        chosen = {name: chosen[name] for name in config.methods}
    frames = parallel_map(partial(_fold_rows, chosen, X, y), splits, n_jobs=n_jobs)
    results = pd.concat(frames, ignore_index=True)
    results.insert(0, "dataset", dataset)
    return check_tidy(results)


#: The Weka learners ``peers/prism_peers.py`` runs (committed in ``data/prism_peers``).
WEKA_PEERS = ("Prism", "J48", "JRip")



def weka_peer_results(config: Config | None = None) -> pd.DataFrame:
    """Weka's own Prism, J48 and JRip on :func:`run`'s splits, after checking every split's folds.

    The rows come from ``data/prism_peers`` (``peers/prism_peers.py``: Weka 3.6.14 on every
    training / test fold). For each split of ``config`` the folds are recomputed as :func:`run`
    makes them (:func:`weka_cv_folds` for ``weka:<seed>``, the seeded stratified splits for
    ``numpy:<seed>``) and compared with the committed fold list and its hash in the provenance;
    Weka's split there was read from Weka itself (its ``StratifiedRemoveFolds`` filter), so the
    check also tests :func:`weka_cv_folds` against Weka.

    Parameters
    ----------
    config : Config, optional
        :func:`run`'s configuration (default ``Config()``); its splits must be among those the
        peers were run on (Weka's seed 1 and the seeded splits 0-9 of 10 folds).

    Returns
    -------
    pandas.DataFrame
        Tidy, :func:`run`'s keys and columns (``dataset, method, seed, fold, correct, incorrect,
        unclassified, n_test``) plus ``rules`` and ``literals``; ``method`` is Weka's name.

    Raises
    ------
    ValueError
        If a split of ``config`` was not run, or its folds differ from the committed ones.
    """
    import companion.datasets as datasets

    config = Config() if config is None else config
    results, folds, provenance = datasets.load_peers("prism")
    (dataset, entry), = DATASETS.items()
    _, y = entry.load()
    splits = {f"{WEKA_SPLIT}{config.weka_seed}": weka_cv_folds(y, config.n_folds, seed=config.weka_seed)}
    for seed in range(config.seed, config.seed + config.n_repeats):
        splits[f"{NUMPY_SPLIT}{seed}"] = _stratified_folds(y, config.n_folds, seed)
    missing = [split for split in splits if split not in set(folds["seed"])]
    if missing:
        raise ValueError(f"the Weka peers were not run on the splits {missing}; rerun peers/prism_peers.py")
    for split, split_folds in splits.items():
        ours = fold_vector(split_folds)
        committed = folds.loc[folds["seed"] == split].sort_values("row")["fold"].to_numpy()
        if not np.array_equal(ours, committed) or provenance.get(f"fold_sha256: {split}") != fold_hash(ours):
            raise ValueError(f"the Weka peers' folds of split {split!r} differ from run's; rerun peers/prism_peers.py")
    frame = results[results["seed"].isin(list(splits))].reset_index(drop=True)
    return check_tidy(frame[["dataset", "method", "seed", "fold", "correct", "incorrect", "unclassified", "n_test",
                             "rules", "literals"]])


def prism_peer_comparison(results: pd.DataFrame, peers: pd.DataFrame) -> pd.DataFrame:
    """Weka's Prism against our ``PRISM`` fold by fold, on every split both were run on.

    ``results`` is :func:`run`'s frame, ``peers`` :func:`weka_peer_results`'. A fold agrees when
    its correct, incorrect and unclassified counts are all equal (our PRISM leaves uncovered
    instances unclassified, as Weka's does).

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame.
    peers : pandas.DataFrame
        :func:`weka_peer_results`.

    Returns
    -------
    DataFrame
        One row per split (index ``split``, in :func:`run`'s order): ``folds``, ``folds equal``,
        Weka's and our summed ``correct`` / ``incorrect`` / ``unclassified`` (``Weka correct``,
        ``ours correct``, ...) and ``identical`` (every fold equal).
    """
    keys = ["seed", "fold"]
    ours = results.loc[results["method"] == "PRISM", [*keys, *_COUNTS]]
    weka = peers.loc[peers["method"] == "Prism", [*keys, *_COUNTS]]
    both = ours.merge(weka, on=keys, suffixes=(" ours", " weka"), validate="one_to_one")
    if both.empty:
        raise ValueError("prism_peer_comparison: results and peers share no (split, fold)")
    equal = np.ones(len(both), dtype=bool)
    for count in _COUNTS:
        equal &= both[f"{count} ours"].to_numpy() == both[f"{count} weka"].to_numpy()
    both["equal"] = equal
    rows = {}
    for split, part in both.groupby("seed", sort=False):
        row = {"folds": len(part), "folds equal": int(part["equal"].sum())}
        for count in _COUNTS:
            row[f"Weka {count}"] = int(part[f"{count} weka"].sum())
            row[f"ours {count}"] = int(part[f"{count} ours"].sum())
        row["identical"] = bool(part["equal"].all())
        rows[split] = row
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "split"
    return table


def peer_repeated_accuracy(peers: pd.DataFrame) -> pd.DataFrame:
    """Accuracy (%) of every Weka peer on every seeded split (rows: split, columns: Weka's learner).

    :func:`_repeated_accuracy`'s layout for :func:`weka_peer_results`' rows (Weka's own split
    ``weka:<seed>`` left out, as :func:`repeated_table` leaves it out).

    Parameters
    ----------
    peers : pandas.DataFrame
        :func:`weka_peer_results`.

    Returns
    -------
    pandas.DataFrame
    """
    rows = peers[peers["seed"].astype(str).str.startswith(NUMPY_SPLIT)]
    if rows.empty:
        raise ValueError(f"peers hold no split whose seed starts with {NUMPY_SPLIT!r}")
    return pd.DataFrame({seed: _counts_table(split[["method", *_COUNTS]])["accuracy %"]
                         for seed, split in rows.groupby("seed", sort=False)}).T


def weka_folds_table(results: pd.DataFrame) -> pd.DataFrame:
    """:func:`cross_validate`'s table on Weka's folds, from :func:`run`'s rows (``02_cv_weka_folds.csv``).

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame.

    Returns
    -------
    pandas.DataFrame
    """
    return _counts_table(_split_rows(results, WEKA_SPLIT))


def repeated_table(results: pd.DataFrame) -> pd.DataFrame:
    """:func:`repeated_cross_validation`'s table, from :func:`run`'s rows (``02_cv_repeated.csv``).

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame.

    Returns
    -------
    pandas.DataFrame
    """
    return _repeated_summary(_split_rows(results, NUMPY_SPLIT))


def _split_rows(results: pd.DataFrame, prefix: str) -> pd.DataFrame:
    chosen = results[results["seed"].str.startswith(prefix)]
    if chosen.empty:
        raise ValueError(f"results hold no split whose seed starts with {prefix!r}")
    return chosen


#: Our learners that run Weka's algorithm (the same name in Weka).
_WEKA_SAME = ("ZeroR", "OneR")
#: Weka learners of the recorded numbers that we do not implement: their rows are Weka's own runs.
_WEKA_ONLY = ("J48", "JRip")
#: Our learners that are *not* Weka's, beside the Weka learner they stand in for.
_STAND_INS = {"decision tree (CART, one-hot)": "J48", "RIPPER (wittgenstein, one-vs-rest)": "JRip"}


def weka_comparison(cv: pd.DataFrame, training_correct: int, peers: pd.DataFrame | None = None) -> pd.DataFrame:
    """Paper (Weka's recorded output) vs ours on contact lenses: PRISM's counts, the baselines' accuracies.

    ``cv`` is :func:`cross_validate`'s table on Weka's folds. ZeroR and OneR are the same
    algorithms as Weka's. J48 and JRip are compared only with Weka's own runs on the same folds:
    ``peers`` is the peers' per-fold table (columns ``method``, ``seed``, ``correct``,
    ``incorrect``, ``unclassified``; rows of Weka's split ``weka:<seed>``); without it their
    ``ours`` is empty. Our stand-ins (CART, wittgenstein's RIPPER) are not in this table: see
    :func:`stand_in_table`.

    Parameters
    ----------
    cv : pandas.DataFrame
        :func:`cross_validate`'s table on Weka's folds.
    training_correct : int
        PRISM's correct training predictions.
    peers : pandas.DataFrame, optional
        The Weka peers' per-fold table (:func:`weka_peer_results`).

    Returns
    -------
    pandas.DataFrame
        :func:`companion.evaluation.comparison_table`'s columns.
    """
    weka = paper_table("02_prism_weka_results")
    weka = weka[weka["dataset"] == "contact_lenses"].set_index(["learner", "measure"])["value"]
    paper, ours = {}, {}
    paper["PRISM training correct"] = weka[("Prism", "training correct")]
    ours["PRISM training correct"] = training_correct
    for measure in ("correct", "incorrect", "unclassified"):
        paper[f"PRISM cv {measure}"] = weka[("Prism", f"cv {measure}")]
        ours[f"PRISM cv {measure}"] = cv.loc["PRISM", measure]
    for name in _WEKA_SAME:
        if name in cv.index:
            paper[f"{name} cv accuracy %"] = weka[(name, "cv accuracy")]
            ours[f"{name} cv accuracy %"] = cv.loc[name, "accuracy %"]
    peer_accuracy = _peer_accuracy(peers) if peers is not None else {}
    for name in _WEKA_ONLY:
        paper[f"{name} (Weka) cv accuracy %"] = weka[(name, "cv accuracy")]
        ours[f"{name} (Weka) cv accuracy %"] = peer_accuracy.get(name, np.nan)
    return comparison_table(pd.Series(paper), pd.Series(ours, dtype=float))


def _peer_accuracy(peers: pd.DataFrame) -> dict:
    weka_rows = peers[peers["seed"].astype(str).str.startswith(WEKA_SPLIT)]
    table = _counts_table(weka_rows[["method", *_COUNTS]])
    return table["accuracy %"].to_dict()


def stand_in_table(cv: pd.DataFrame) -> pd.DataFrame:
    """Our stand-ins on Weka's folds beside the recorded accuracy of the Weka learner they replace.

    Not a reproduction: CART is not C4.5/J48 and wittgenstein's RIPPER is not JRip (other pruning
    and optimisation). Columns ``stands in for``, ``Weka's accuracy %``, ``stand-in accuracy %``.

    Parameters
    ----------
    cv : pandas.DataFrame
        :func:`cross_validate`'s table on Weka's folds.

    Returns
    -------
    pandas.DataFrame
    """
    weka = paper_table("02_prism_weka_results")
    weka = weka[weka["dataset"] == "contact_lenses"].set_index(["learner", "measure"])["value"]
    rows = {name: {"stands in for": other, "Weka's accuracy %": float(weka[(other, "cv accuracy")]),
                   "stand-in accuracy %": float(cv.loc[name, "accuracy %"])}
            for name, other in _STAND_INS.items() if name in cv.index}
    return pd.DataFrame.from_dict(rows, orient="index")


#: Where the peers' runner commits the fold lists Weka used (columns ``seed``, ``row``, ``fold``).
_COMMITTED_FOLDS = "prism_peers/folds.csv"


def fold_vector(folds) -> np.ndarray:
    """Test fold (from 0) of every row, from a list of ``(train, test)`` index pairs.

    Parameters
    ----------
    folds : list of (array, array)
        ``(train_index, test_index)`` pairs.

    Returns
    -------
    numpy.ndarray of int
    """
    n = sum(len(test) for _, test in folds)
    vector = np.full(n, -1, dtype=np.int64)
    for k, (_, test) in enumerate(folds):
        vector[test] = k
    if (vector < 0).any():
        raise ValueError("the folds' test sets do not cover every row exactly once")
    return vector


def _known_split_names(seed) -> set:
    """``{seed}`` when ``seed`` names a split of a known generator, else the empty set."""
    generator, _, number = str(seed).partition(":")
    return {str(seed)} if f"{generator}:" in (WEKA_SPLIT, NUMPY_SPLIT) and number.isdigit() else set()


def fold_list_comparison(y, config: Config | None = None, committed: pd.DataFrame | str | None = None) -> pd.DataFrame:
    """Our fold splits against a committed fold list, row by row.

    Parameters
    ----------
    y : Series
        The labels (the splits are rebuilt from them, as :func:`run` does).
    config : Config, optional
        Only the committed splits :func:`run` makes with it are compared (Weka's and the seeded
        ones); without it, every committed split.
    committed : DataFrame or path, optional
        Columns ``seed`` (``weka:<s>`` or ``numpy:<s>``, as :func:`run`'s keys), ``row``,
        ``fold`` (from 0); default ``data/`` + :data:`_COMMITTED_FOLDS`.

    Returns
    -------
    DataFrame
        One row per committed split compared: ``rows``, ``rows in the same fold``,
        ``identical``; an empty frame when no fold list is committed.
    """
    wanted = None
    if config is not None:
        wanted = {f"{WEKA_SPLIT}{config.weka_seed}"} | {
            f"{NUMPY_SPLIT}{s}" for s in range(config.seed, config.seed + config.n_repeats)}
    from companion.paths import DATA

    config = config or Config()
    if committed is None or isinstance(committed, str):
        path = DATA / (committed or _COMMITTED_FOLDS)
        if not path.is_file():
            return pd.DataFrame(columns=["rows", "rows in the same fold", "identical"])
        committed = pd.read_csv(path)
    missing = {"seed", "row", "fold"} - set(committed.columns)
    if missing:
        raise ValueError(f"fold_list_comparison: committed folds lack columns {sorted(missing)}")
    rows = {}
    for seed, part in committed.groupby("seed", sort=False):
        if wanted is not None and str(seed) in _known_split_names(seed) and seed not in wanted:
            continue
        generator, _, number = str(seed).partition(":")
        if f"{generator}:" == WEKA_SPLIT:
            ours = fold_vector(weka_cv_folds(y, config.n_folds, seed=int(number)))
        elif f"{generator}:" == NUMPY_SPLIT:
            ours = fold_vector(_stratified_folds(y, config.n_folds, int(number)))
        else:
            raise ValueError(f"fold_list_comparison: unknown split {seed!r}; expected 'weka:<s>' or 'numpy:<s>'")
        part = part.sort_values("row")
        theirs = part["fold"].to_numpy()
        same = int(np.sum(ours[part["row"].to_numpy()] == theirs)) if len(theirs) == len(ours) else 0
        rows[seed] = {"rows": len(theirs), "rows in the same fold": same,
                      "identical": bool(len(theirs) == len(ours) and same == len(ours))}
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "split"
    return table


# --------------------------------------------------------------------------------------------
# The claims, judged by companion.claims (registry: companion/experiments/registry/paper02.toml)
# --------------------------------------------------------------------------------------------

#: "Worth a few points" (the default class for uncovered instances) read as at least this many
#: points of accuracy, over the repeated cross-validations (the registry's margin of
#: ``default-class``; kept here for the notebook's text).
DEFAULT_CLASS_MARGIN = 2.0
#: Seed variants of every claim: the notebook's ``seed`` plus ``n_repeats * k``, k = 1..4, so that
#: the variants' splits never overlap the main ones (``-p seed 11``: 21, 31, 41, 51).
N_SEED_VARIANTS = 4


def seed_variants(seed: int, n_repeats: int, n_variants: int = N_SEED_VARIANTS) -> list[int]:
    """The notebook seeds of the seed variants: ``seed + n_repeats * k`` for ``k = 1 .. n_variants``.

    Each variant runs ``n_repeats`` seeded splits of its own, disjoint from the main ones.

    Parameters
    ----------
    seed : int
        The notebook's seed.
    n_repeats : int
        Seeded splits per run.
    n_variants : int, default=N_SEED_VARIANTS

    Returns
    -------
    list of int
    """
    return [int(seed) + int(n_repeats) * k for k in range(1, int(n_variants) + 1)]


def _repeated_accuracy(results: pd.DataFrame) -> pd.DataFrame:
    """Accuracy (%) of every learner on every repeated split (rows: split seed, columns: learner)."""
    rows = _split_rows(results, NUMPY_SPLIT)
    return pd.DataFrame({seed: _counts_table(split)["accuracy %"] for seed, split in rows.groupby("seed", sort=False)}).T


def _accuracy_difference(data, a, b):
    table = _repeated_accuracy(data["results"])
    return (table[a] - table[b]).to_numpy()


def _peer_difference(data, peer, b):
    """Accuracy of Weka's ``peer`` minus ours of ``b`` on every seeded split both were run on
    (``None``, not evaluated, when the variant has no peer runs on its splits)."""
    peers = data.get("peers")
    if peers is None:
        return None
    ours = _repeated_accuracy(data["results"])
    shared = [seed for seed in ours.index if seed in set(peers["seed"])]
    if not shared:
        return None
    theirs = peer_repeated_accuracy(peers[peers["seed"].isin(shared)])
    return (theirs.loc[shared, peer] - ours.loc[shared, b]).to_numpy()


def _check(name):
    def check(data):
        return data["checks"].get(name)
    return check


#: Registry measure key -> the name of its exact check in :func:`exact_checks`.
_CHECK_MEASURES = {
    "covering": "covering", "first_test": "first-test", "refine": "refine", "ties": "ties", "perfect": "perfect",
    "separate": "separate", "replicated_subtree": "replicated-subtree", "disjunction": "disjunction",
    "trace": "trace", "rules": "rules", "training": "training", "weka_cv": "weka-cv", "folds": "folds",
    "weka_prism": "weka-prism", "baselines": "baselines", "supermarket": "supermarket", "modular": "modular",
    "conflicts": "conflicts-unseen",
}


def claims_measures() -> dict:
    """``{measure key: callable(data)}`` for every measure the registry (``paper02.toml``) names.

    ``data`` is one variant's dict (:func:`claims_data`): ``results`` (:func:`run`), ``peers``
    (:func:`weka_peer_results` or ``None``) and ``checks`` (:func:`exact_checks`).

    Returns
    -------
    dict
    """
    measures = {key: _check(name) for key, name in _CHECK_MEASURES.items()}
    measures["default_class"] = partial(_accuracy_difference, a="PRISM + default class", b="PRISM")
    measures["tree_vs_prism"] = partial(_peer_difference, peer="J48", b="PRISM + default class")
    return measures


def claims_family():
    """The registry's claims (``companion/experiments/registry/paper02.toml``) as a claims family.

    The slides' statements (origin ``paper``, quoted verbatim), our code against Weka 3.6.14 and
    the restored slide tables (``check``) and this notebook's statements (``observation``: the
    default class, J48 against PRISM, modularity), each reading :func:`claims_measures`.

    Returns
    -------
    list of companion.claims.Claim
    """
    import companion.claims as C

    return C.family(C.load_registry("02"), claims_measures())


def claims_data(results: pd.DataFrame, checks: dict, peers: pd.DataFrame | None = None) -> dict:
    """One variant's data for :func:`claims_family`'s measures.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame.
    checks : dict
        :func:`exact_checks`.
    peers : pandas.DataFrame, optional
        :func:`weka_peer_results` on the same splits (``None``: the J48 claim is not evaluated).

    Returns
    -------
    dict
    """
    return {"results": results, "checks": checks, "peers": peers}


def claims_report(results: pd.DataFrame, checks: dict, variants: dict | None = None,
                  peers: pd.DataFrame | None = None):
    """Evaluate :func:`claims_family` on ``results`` and ``checks`` and on the variants.

    ``variants`` maps a variant name (``"seed=10"``) to a :func:`claims_data` dict, or to a
    :func:`run` frame alone (its checks are then the main ones and it has no peers).

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame.
    checks : dict
        :func:`exact_checks`.
    variants : dict, optional
        ``{name: claims_data(...)}`` or ``{name: run() frame}``.
    peers : pandas.DataFrame, optional
        :func:`weka_peer_results`.

    Returns
    -------
    companion.claims.ClaimsReport
    """
    import companion.claims as C

    data = {"main": claims_data(results, checks, peers)}
    for name, other in (variants or {}).items():
        data[name] = other if isinstance(other, dict) else claims_data(other, checks, None)
    return C.evaluate(claims_family(), data)


#: The learners a seed variant runs: those its claims read (J48 is Weka's, from the peers).
_VARIANT_METHODS = ("PRISM", "PRISM + default class")


def seed_variant(seed: int, checks: dict, *, n_repeats: int, n_rule_orders: int, n_jobs: int = 1) -> dict:
    """The data of one seed variant: its own splits, Weka's peers on them, the seeded checks.

    :func:`run` on its own splits, Weka's peers on them (when they were run), and the exact
    checks that depend on the seed recomputed with it.

    The checks that read the seed are the replicated subtree (the tree's ``random_state``), the
    rule orders of ``modular``, the fold list and Weka's Prism on the variant's splits; the others
    (slides' trace, rule list, Weka's folds, ``supermarket``) do not depend on it and keep the
    main values, so the claims engine lists the variant as leaving them unchanged.

    Parameters
    ----------
    seed : int
        The variant's notebook seed (:func:`seed_variants`).
    checks : dict
        The main run's :func:`exact_checks`.
    n_repeats : int
        Seeded splits.
    n_rule_orders : int
        Random rule orders of ``modular``.
    n_jobs : int, default=1
        Workers of :func:`run`; the result does not depend on it.

    Returns
    -------
    dict
        :func:`claims_data`'s dict, plus ``status`` (:func:`weka_peer_results_if_run`'s text).
    """
    config = Config(seed=seed, n_repeats=n_repeats, methods=_VARIANT_METHODS)
    results = run(config, n_jobs=n_jobs)
    peers, status = weka_peer_results_if_run(config)
    (_, entry), = DATASETS.items()
    X, y = entry.load()
    demo = replicated_subtree_demo(seed=seed)
    order = order_invariance(Prism(pruning=None).fit(X, y), X, n_permutations=n_rule_orders, seed=seed)
    recomputed = _seed_checks(demo=demo, order_training=order, folds=fold_list_comparison(y, config),
                              prism_peers=None if peers is None else prism_peer_comparison(results, peers))
    new = {name: value for name, value in checks.items() if name not in ("weka-prism", "folds")}
    new.update(recomputed)
    return {**claims_data(results, new, peers), "status": status}


def _seed_checks(*, demo, order_training, folds, prism_peers) -> dict:
    """The exact checks that depend on the notebook's seed."""
    x_leaves = [r for r in demo["leaf_rules"] if r.endswith("then x")]
    replicated = _replicated_tests(x_leaves)
    checks = {
        "replicated-subtree": (bool(replicated), render(
            TEMPLATES["replicated"], n_leaves=len(x_leaves), tests=replicated or ["none"]).data),
        "disjunction": (demo["x_rules"] == ["If a = true and b = true then x", "If c = true and d = true then x"],
                        render(TEMPLATES["disjunction"], rules=[f"`{r}`" for r in demo["x_rules"]]).data),
        "modular": (int(order_training["orders changing some prediction"]) == 0,
                    render(TEMPLATES["modular"], n=int(order_training["orders tried"]),
                           k=int(order_training["orders changing some prediction"])).data),
    }
    if len(folds):
        checks["folds"] = (bool(folds["identical"].all()),
                           render(TEMPLATES["folds"], k=int(folds["identical"].sum()), n=len(folds)).data)
    if prism_peers is not None and len(prism_peers):
        checks["weka-prism"] = (bool(prism_peers["identical"].all()),
                                render(TEMPLATES["weka_prism"], k=int(prism_peers["folds equal"].sum()),
                                       n=int(prism_peers["folds"].sum()), splits=len(prism_peers)).data)
    return checks


def _replicated_tests(x_leaves) -> list[str]:
    """The tests that appear on the paths of two or more leaves for ``x`` in different branches
    of the root's split (a subtree repeated under both): ``["c = true", ...]``."""
    if len(x_leaves) < 2:
        return []
    paths = [r.removeprefix("If ").rsplit(" then ", 1)[0].split(" and ") for r in x_leaves]
    by_root = {}
    for path in paths:
        by_root.setdefault(path[0], set()).update(path[1:])
    if len(by_root) < 2:
        return []
    shared = set.intersection(*by_root.values())
    return sorted(shared)


#: The templates of the generated sentences of notebook 02 (:func:`companion.prose.render`).
TEMPLATES = {
    "covering": "{n:plural class|classes}: the rules of each cover its instances ({sizes:list}) and no other",
    "first_test": "`{test}` covers {p}/{t} on step 1 (the slides: {paper_p} out of {paper_t})",
    "refine": "after two tests {p2}/{t2}, after `{test}` {p3}/{t3}",
    "ties": ("{steps:plural step} of {rules:plural rule}: the selected test always has the largest p/t; "
             "{ties:plural tie} on p/t went to the larger p"),
    "perfect": "{k} of {n} rules have p = t on the instances they were grown on",
    "separate": "{k} of {n} rules grown on exactly the instances their class's earlier rules left",
    "replicated": "the tree has {n_leaves:plural leaf|leaves} for x and repeats {tests:list} under both branches of its root",
    "disjunction": "PRISM's rules for x: {rules:list}",
    "modular": "{n:plural random rule order}, {k} change a training prediction",
    "folds": "{k} of {n} committed splits identical, row by row",
    "weka_prism": "{k} of {n} folds equal on {splits:plural split} (correct, incorrect, unclassified)",
    "peers_missing": ("Weka's peers were not run for the splits {missing:list}: the claims that read them are "
                      "not evaluated for this seed. To run them: `{command}`."),
    "peers_found": "Weka 3.6.14 (Prism, J48, JRip) on all {n:plural split} of this run, folds verified.",
}


def weka_peer_results_if_run(config: Config) -> tuple[pd.DataFrame | None, str]:
    """:func:`weka_peer_results` for ``config``, or ``None`` and the command that would run them.

    Parameters
    ----------
    config : Config

    Returns
    -------
    frame : pandas.DataFrame or None
    text : str
        What was read, or which splits the peers were not run on and the command that runs them.
    """
    import companion.datasets as datasets

    _, folds, _ = datasets.load_peers("prism")
    wanted = [f"{WEKA_SPLIT}{config.weka_seed}"] + [
        f"{NUMPY_SPLIT}{s}" for s in range(config.seed, config.seed + config.n_repeats)]
    missing = [s for s in wanted if s not in set(folds["seed"])]
    if missing or config.n_folds != 10:
        seeds = sorted({int(s.partition(":")[2]) for s in folds["seed"] if s.startswith(NUMPY_SPLIT)}
                       | set(range(config.seed, config.seed + config.n_repeats)))
        command = (f".venv/bin/python peers/prism_peers.py export --splits {','.join(map(str, seeds))} && "
                   "/work/peers-venv/bin/python peers/prism_peers.py run")
        return None, render(TEMPLATES["peers_missing"], missing=missing or ["of other fold counts"],
                            command=command).data
    frame = weka_peer_results(config)
    return frame, render(TEMPLATES["peers_found"], n=len(wanted)).data


def exact_checks(*, rules, trace, training_correct, n_train, versus_weka, folds, order_training, conflicts_space,
                 demo, supermarket_rules, weka_supermarket_rules, prism_peers=None, model=None, X=None,
                 y=None) -> dict:
    """The exact checks of :func:`claims_family` from the notebook's tables: ``{name: (ok, detail)}``.

    ``folds`` is :func:`fold_list_comparison`'s table (empty: the check is not evaluated);
    ``prism_peers`` is :func:`prism_peer_comparison`'s table (``None``: ``weka-prism`` is not
    evaluated); ``model`` (PRISM fitted with ``keep_trace=True`` on ``X, y``, the whole data set)
    gives the slides' checks of the covering algorithm (not evaluated without it).

    Parameters
    ----------
    rules : pandas.DataFrame
        :func:`rule_comparison`.
    trace : pandas.DataFrame
        :func:`trace_comparison`.
    training_correct : int
        PRISM's correct training predictions.
    n_train : int
        Training instances.
    versus_weka : pandas.DataFrame
        :func:`weka_comparison`.
    folds : pandas.DataFrame
        :func:`fold_list_comparison`.
    order_training : pandas.Series
        :func:`order_invariance` on the training set.
    conflicts_space : pandas.DataFrame
        :func:`space_conflicts` per data set (one row each).
    demo : dict
        :func:`replicated_subtree_demo`.
    supermarket_rules : int
        Our rule count on ``supermarket``.
    weka_supermarket_rules : int
        Weka's recorded rule count.
    prism_peers : pandas.DataFrame, optional
        :func:`prism_peer_comparison`.
    model : Prism, optional
        Fitted with ``keep_trace=True`` on ``X, y``.
    X, y : pandas.DataFrame, pandas.Series, optional
        The contact lenses.

    Returns
    -------
    dict
        ``{name: (ok, detail)}``.
    """
    def equal_rows(table, labels):
        # the recorded accuracies have one decimal (70.8 for 17/24): equal at that precision
        chosen = table.loc[labels]
        same = (chosen["ours"].round(1) == chosen["paper"]).all()
        return bool(same), f"{len(chosen)} numbers, equal at the recorded precision"

    prism_rows = [r for r in versus_weka.index if r.startswith("PRISM cv")]
    baseline_rows = [f"{n} cv accuracy %" for n in _WEKA_SAME if f"{n} cv accuracy %" in versus_weka.index]
    checks = {
        "trace": (bool((trace["difference"] == 0).all()), f"{len(trace)} p and t values of the restored tables"),
        "rules": (bool(rules["equal"].all()), f"{int(rules['equal'].sum())} of {len(rules)} rules equal, in order"),
        "training": (training_correct == n_train, f"{training_correct}/{n_train} correct"),
        "weka-cv": equal_rows(versus_weka, prism_rows),
        "baselines": equal_rows(versus_weka, baseline_rows),
        "conflicts-unseen": (bool((conflicts_space["rules of several classes"] > 0).any()),
                             f"unseen instances covered by rules of several classes on "
                             f"{int((conflicts_space['rules of several classes'] > 0).sum())} of "
                             f"{len(conflicts_space)} data sets"),
        "supermarket": (supermarket_rules == weka_supermarket_rules,
                        f"{supermarket_rules} rules, Weka {weka_supermarket_rules}"),
    }
    checks.update(_seed_checks(demo=demo, order_training=order_training, folds=folds, prism_peers=prism_peers))
    if model is not None:
        checks.update(covering_checks(model, X, y))
    return checks


def covering_checks(model: Prism, X, y) -> dict:
    """The slides' statements on the covering algorithm, checked on PRISM's model of ``X, y``.

    ``covering`` (slide 4), ``first-test`` (slide 10's "4 out of 12", read from
    ``paper_numbers/02_prism_first_rule_trace.csv``'s CONFIRMED row), ``refine`` (slide 12),
    ``ties`` (slide 15: the largest p/t, ties to the largest p, on every step of every rule),
    ``perfect`` (slide 15) and ``separate`` (slide 16).

    Parameters
    ----------
    model : Prism
        Fitted with ``keep_trace=True`` on ``X, y``.
    X : pandas.DataFrame
    y : pandas.Series

    Returns
    -------
    dict
        ``{name: (ok, detail)}``.
    """
    from fractions import Fraction

    covers = model.covers(X)
    grown = model.grown_on(X)
    labels = np.array([rule.label for rule in model.rules_], dtype=object)
    y_values = np.asarray(y, dtype=object)
    classes = list(dict.fromkeys(labels))
    own = [bool(np.array_equal(covers[:, labels == c].any(axis=1), y_values == c)) for c in classes]
    sizes = [f"{c} {int((y_values == c).sum())}" for c in classes]
    checks = {"covering": (all(own), render(TEMPLATES["covering"], n=len(classes), sizes=sizes).data)}

    paper = paper_table("02_prism_first_rule_trace")
    confirmed = paper[paper["status"] == "CONFIRMED"].iloc[0]
    subsets = covered_subsets(model, X, y, "hard", 1)  # the rule of the slides' walk-through
    first = subsets.iloc[1]
    test = f"{confirmed['attribute']} = {confirmed['value']}"
    checks["first-test"] = (first["test added"] == test and (first["p"], first["t"]) == (confirmed["p"], confirmed["t"]),
                            render(TEMPLATES["first_test"], test=first["test added"], p=first["p"], t=first["t"],
                                   paper_p=confirmed["p"], paper_t=confirmed["t"]).data)
    last, second = subsets.iloc[-1], subsets.iloc[2]
    checks["refine"] = (len(subsets) == 4 and second["p"] < second["t"] and last["p"] == last["t"],
                        render(TEMPLATES["refine"], p2=second["p"], t2=second["t"], test=last["test added"],
                               p3=last["p"], t3=last["t"]).data)

    trace = model.trace_
    ok, n_steps, n_ties = True, 0, 0
    for _, step in trace.groupby(["rule", "step"], sort=False):
        n_steps += 1
        ratio = [Fraction(int(p), int(t)) if t else Fraction(-1) for p, t in zip(step["p"], step["t"])]
        best = max(ratio)
        at_best = step[[r == best for r in ratio]]
        chosen = step[step["selected"]]
        if len(chosen) != 1 or ratio[list(step.index).index(chosen.index[0])] != best:
            ok = False
            continue
        if len(at_best) > 1 and at_best["p"].nunique() > 1:
            n_ties += 1
        if int(chosen["p"].iloc[0]) != int(at_best["p"].max()):
            ok = False
    checks["ties"] = (ok, render(TEMPLATES["ties"], steps=n_steps, rules=len(model.rules_), ties=n_ties).data)

    table = model.rule_table()
    perfect = int((table["p"] == table["t"]).sum())
    checks["perfect"] = (perfect == len(table), render(TEMPLATES["perfect"], k=perfect, n=len(table)).data)

    separate = 0
    for j in range(len(model.rules_)):
        earlier = covers[:, [i for i in range(j) if labels[i] == labels[j]]].any(axis=1)
        separate += bool(np.array_equal(grown[:, j], ~earlier))
    checks["separate"] = (separate == len(model.rules_),
                          render(TEMPLATES["separate"], k=separate, n=len(model.rules_)).data)
    return checks


# --------------------------------------------------------------------------------------------
# Trees vs rules: the replicated subtree
# --------------------------------------------------------------------------------------------


def disjunction_data(n_copies: int = 1) -> tuple[pd.DataFrame, pd.Series]:
    """The 16 truth assignments of ``a, b, c, d`` labelled by ``(a and b) or (c and d)``.

    Attributes are categoricals with values ``["false", "true"]``; the class is ``"x"`` where
    the disjunction holds, else ``"not x"`` (categories in that order, so PRISM learns the
    rules for ``x`` first). ``n_copies`` repeats the table (no noise, so the target concept is
    the same).

    Parameters
    ----------
    n_copies : int, default=1
        Copies of the 16 rows.

    Returns
    -------
    X : pandas.DataFrame
    y : pandas.Series
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
    """One rule per leaf of a fitted tree on 0/1 features, left to right (slide 2: "one rule for each leaf").

    A split ``feature <= 0.5`` reads as ``feature = false`` on its left branch and
    ``feature = true`` on its right one.

    Parameters
    ----------
    tree : sklearn.tree.DecisionTreeClassifier
        Fitted on 0/1 features.
    feature_names : sequence of str
        One name per feature.
    class_names : sequence of str, optional
        Names of ``tree.classes_`` (default: the classes themselves).

    Returns
    -------
    list of str
    """
    classes = tree.classes_ if class_names is None else class_names
    rules = []
    for leaf in tree_leaf_paths(tree):
        label = classes[int(np.argmax(tree.tree_.value[leaf.node][0]))]
        tests = [f"{feature_names[f]} = {'false' if op == '<=' else 'true'}" for f, op, _ in leaf.conditions]
        rules.append(f"If {' and '.join(tests) if tests else 'true'} then {label}")
    return rules


def replicated_subtree_demo(seed: int = 0):
    """Tree and PRISM rules on :func:`disjunction_data`, drawn side by side (slides 2-3).

    Parameters
    ----------
    seed : int, default=0
        The tree's ``random_state``.

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
    prism = Prism(pruning=None).fit(X, y)
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

    Parameters
    ----------
    repeats : int, default=1
        Fits timed; the best is reported.

    Returns
    -------
    dict
    """
    import time

    from companion.datasets import load_supermarket

    X, y = load_supermarket()
    times = []
    for _ in range(max(1, int(repeats))):
        start = time.perf_counter()
        model = Prism(missing="value", pruning=None).fit(X, y)
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


# --------------------------------------------------------------------------------------------
# Any rule's walk-through, and the subsets it covers step by step (slides 9-14)
# --------------------------------------------------------------------------------------------


def _rule_index(model: Prism, label, number: int) -> int:
    """Position in ``model.rules_`` of the ``number``-th rule (from 1) for class ``label``."""
    if not isinstance(number, (int, np.integer)) or isinstance(number, (bool, np.bool_)):
        raise TypeError(f"number must be an int (1 = the class's first rule), got {number!r}")
    positions = [j for j, rule in enumerate(model.rules_) if rule.label == label]
    if not 1 <= int(number) <= len(positions):
        raise ValueError(
            f"class {label!r} has {len(positions)} rule(s); number must be in 1..{len(positions)}, got {number}"
        )
    return positions[int(number) - 1]


def rule_trace(model: Prism, label, number: int = 1) -> pd.DataFrame:
    """The p/t of every candidate at every step of the ``number``-th rule for ``label``.

    :func:`first_rule_trace` is ``number=1``; ``number=2`` for ``hard`` is the second rule of
    the slides' result (slide 14), grown on the 21 instances the first one leaves in E.
    ``model`` must have been fitted with ``keep_trace=True``. Columns as in
    :func:`first_rule_trace`.

    Parameters
    ----------
    model : Prism
        Fitted with ``keep_trace=True``.
    label : object
        The class.
    number : int, default=1
        Which of its rules (from 1).

    Returns
    -------
    pandas.DataFrame
    """
    if not hasattr(model, "trace_"):
        raise ValueError("model must be fitted with keep_trace=True")
    index = _rule_index(model, label, number)
    steps = model.trace_[model.trace_["rule"] == index].copy()
    steps["p/t"] = steps["p"].astype(str) + "/" + steps["t"].astype(str)
    return steps[["step", "attribute", "value", "p", "t", "p/t", "selected"]].reset_index(drop=True)


def covered_subsets(model: Prism, X, y, label, number: int = 1) -> pd.DataFrame:
    """The instances of E that the growing rule covers after each test (slides 10-14).

    For the first ``hard`` rule: E is the whole training set (24), ``astigmatism = yes`` keeps
    12 of them ("4 out of 12"), ``tear-prod-rate = normal`` 6, ``spectacle-prescrip = myope``
    3. ``X, y`` must be the training set.

    Parameters
    ----------
    model : Prism
        A fitted :class:`companion.prism.Prism`.
    X : pandas.DataFrame
        The training attributes.
    y : pandas.Series
        The training labels.
    label : object
        The class.
    number : int, default=1
        Which of its rules (from 1).

    Returns
    -------
    DataFrame
        One row per step (0 = the empty left-hand side): ``test added``, ``t`` (instances of E
        covered), ``p`` (of them of class ``label``), ``p/t`` and ``instances`` (their row
        positions in ``X``, comma-separated).
    """
    index = _rule_index(model, label, number)
    rule = model.rules_[index]
    in_E = model.grown_on(X)[:, index]
    steps = model.step_covers(X, index) & in_E[:, None]
    positive = np.asarray(y, dtype=object) == rule.label
    rows = []
    for step in range(steps.shape[1]):
        covered = steps[:, step]
        t, p = int(covered.sum()), int((covered & positive).sum())
        rows.append(
            {
                "step": step,
                "test added": "(none: E)" if step == 0 else "{} = {}".format(*rule.conditions[step - 1]),
                "t": t,
                "p": p,
                "p/t": f"{p}/{t}",
                "instances": ", ".join(str(i) for i in np.flatnonzero(covered)),
            }
        )
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------
# Modular rules: each rule on its own, in any order
# --------------------------------------------------------------------------------------------


def rule_coverage(model: Prism, X, y) -> pd.DataFrame:
    """Every rule on the set E it was grown on and on the whole training set (Cendrowska 1987).

    ``p/t on E`` is the rule's accuracy where PRISM measured it (the shrinking E, slide 16);
    ``correct/covered (all)`` reads the same rule on its own over the whole training set
    ``X, y``: a *modular* rule is correct wherever it fires, so its accuracy there is 100 %
    whenever it was perfect on E and the data are consistent (the second ``soft`` rule shows
    1/1 on E but covers 2/2 of the whole set).

    Parameters
    ----------
    model : Prism
        Fitted with ``keep_trace=True``.
    X : pandas.DataFrame
        The training attributes.
    y : pandas.Series
        The training labels.

    Returns
    -------
    pandas.DataFrame
        One row per rule.
    """
    covered = model.covers(X)
    in_E = model.grown_on(X)
    y_values = np.asarray(y, dtype=object)
    rows = []
    for j, rule in enumerate(model.rules_):
        positive = y_values == rule.label
        on_E = covered[:, j] & in_E[:, j]
        n_all, p_all = int(covered[:, j].sum()), int((covered[:, j] & positive).sum())
        rows.append(
            {
                "class": rule.label,
                "rule": rule.to_text(),
                "p/t on E": f"{int((on_E & positive).sum())}/{int(on_E.sum())}",
                "correct/covered (all)": f"{p_all}/{n_all}",
                "covered (all)": n_all,
                "accuracy on all %": 100.0 * p_all / n_all if n_all else float("nan"),
            }
        )
    return pd.DataFrame(rows, index=pd.RangeIndex(1, len(rows) + 1, name="order"))


def permuted_predictions(model: Prism, X, permutations) -> np.ndarray:
    """First-match predictions of the rule list taken in each given order.

    Parameters
    ----------
    model : Prism
    X : DataFrame
    permutations : array-like of int, shape (n_orders, n_rules)
        Each row a permutation of ``range(len(model.rules_))``: the order the rules are tried.

    Returns
    -------
    ndarray of object, shape (n_orders, n_samples)
        The class of the first rule (in that order) covering each instance; ``None`` where
        no rule covers it (PRISM's "unclassified").
    """
    permutations = np.asarray(permutations)
    n_rules = len(model.rules_)
    if permutations.ndim != 2 or permutations.shape[1] != n_rules:
        raise ValueError(f"permutations must have shape (n_orders, {n_rules}), got {permutations.shape}")
    if not np.array_equal(np.sort(permutations, axis=1), np.broadcast_to(np.arange(n_rules), permutations.shape)):
        raise ValueError("every row of permutations must be a permutation of range(n_rules)")
    covered = model.covers(X)
    labels = np.array([rule.label for rule in model.rules_] + [None], dtype=object)
    out = np.empty((len(permutations), covered.shape[0]), dtype=object)
    for k, order in enumerate(permutations):
        in_order = covered[:, order]
        first = np.where(in_order.any(axis=1), order[np.argmax(in_order, axis=1)], -1)
        out[k] = labels[first]
    return out


def order_invariance(model: Prism, X, n_permutations: int, seed: int) -> pd.Series:
    """Do the predictions on ``X`` depend on the order of the rules? (``n_permutations`` orders)

    Compares the learnt order with ``n_permutations`` random orders (``np.random``
    generator seeded by ``seed``).

    Parameters
    ----------
    model : Prism
        A fitted :class:`companion.prism.Prism`.
    X : pandas.DataFrame
        The instances predicted.
    n_permutations : int
        Random rule orders tried.
    seed : int
        Seed of the orders.

    Returns
    -------
    Series
        ``orders tried``, ``instances``, ``instances whose class depends on the order``,
        ``orders changing some prediction``.
    """
    if not isinstance(n_permutations, (int, np.integer)) or n_permutations < 1:
        raise ValueError(f"n_permutations must be a positive int, got {n_permutations!r}")
    rng = np.random.default_rng(seed)
    n_rules = len(model.rules_)
    orders = np.vstack([np.arange(n_rules)] + [rng.permutation(n_rules) for _ in range(int(n_permutations))])
    predicted = permuted_predictions(model, X, orders)
    changed = predicted[1:] != predicted[0]
    return pd.Series(
        {
            "orders tried": int(n_permutations),
            "instances": predicted.shape[1],
            "instances whose class depends on the order": int(changed.any(axis=0).sum()),
            "orders changing some prediction": int(changed.any(axis=1).sum()),
        }
    )


# --------------------------------------------------------------------------------------------
# Rule conflicts on instances the rules were not grown on
# --------------------------------------------------------------------------------------------

_CONFLICT_STATUSES = ("no rule", "rules of one class", "rules of several classes")


def attribute_space(X: pd.DataFrame) -> pd.DataFrame:
    """Every combination of the declared values of ``X``'s categorical columns.

    Contact lenses: 3 * 2 * 2 * 2 = 24 instances (the data set *is* its attribute space);
    weather: 36; MONK's problems: 432. Columns keep their categories (the first column varies
    slowest).

    Parameters
    ----------
    X : pandas.DataFrame
        Categorical attributes.

    Returns
    -------
    pandas.DataFrame
    """
    if not isinstance(X, pd.DataFrame):
        raise TypeError(f"X must be a pandas DataFrame of categorical columns, got {type(X).__name__}")
    not_categorical = [c for c in X.columns if not isinstance(X[c].dtype, pd.CategoricalDtype)]
    if not_categorical:
        raise TypeError(f"every column must be categorical; these are not: {not_categorical}")
    categories = [list(X[c].cat.categories) for c in X.columns]
    rows = list(itertools.product(*categories))
    return pd.DataFrame(
        {
            c: pd.Categorical([row[j] for row in rows], categories=categories[j])
            for j, c in enumerate(X.columns)
        }
    )


def rule_conflicts(model: Prism, X) -> pd.DataFrame:
    """For each instance: how many rules cover it, of which classes, and what first-match says.

    ``status`` is ``no rule`` (PRISM leaves it unclassified), ``rules of one class`` (any
    order gives that class) or ``rules of several classes`` (a conflict: the class depends on
    the order the rules are read in, which Cendrowska's modular rules do not fix).

    Parameters
    ----------
    model : Prism
        A fitted :class:`companion.prism.Prism`.
    X : pandas.DataFrame
        The instances.

    Returns
    -------
    pandas.DataFrame
        One row per instance.
    """
    covered = model.covers(X)
    labels = [rule.label for rule in model.rules_]
    classes = [sorted({str(labels[j]) for j in np.flatnonzero(row)}) for row in covered]
    status = np.array([_CONFLICT_STATUSES[min(len(c), 2)] for c in classes], dtype=object)
    fired = model.firing_rule(X)
    return pd.DataFrame(
        {
            "rules": covered.sum(axis=1),
            "classes": [", ".join(c) for c in classes],
            "status": status,
            "first match": [labels[j] if j >= 0 else None for j in fired],
        },
        index=X.index if isinstance(X, pd.DataFrame) else None,
    )


def conflict_counts(model: Prism, X) -> pd.Series:
    """Number of instances of ``X`` in each :func:`rule_conflicts` status (all three listed).

    Parameters
    ----------
    model : Prism
        A fitted :class:`companion.prism.Prism`.
    X : pandas.DataFrame
        The instances.

    Returns
    -------
    pandas.Series
    """
    if len(X) == 0:  # e.g. the unseen part of an attribute space the data set fills
        return pd.Series({s: 0 for s in _CONFLICT_STATUSES})
    counts = rule_conflicts(model, X)["status"].value_counts()
    return pd.Series({s: int(counts.get(s, 0)) for s in _CONFLICT_STATUSES})


def cv_conflicts(X, y, folds) -> pd.DataFrame:
    """Rule conflicts on the held-out instances of each fold (PRISM learnt on the rest).

    Rows: folds (from 1) and ``total``; columns: ``held out``, the three statuses, and how many
    of the ``rules of one class`` and ``rules of several classes`` instances the first matching
    rule classifies correctly. The ``no rule`` total is the cross-validation's unclassified
    count; the two ``correct`` totals add up to its correct count.

    Parameters
    ----------
    X : pandas.DataFrame
        Categorical attributes.
    y : pandas.Series
        The labels.
    folds : list of (array, array)
        ``(train_index, test_index)`` pairs.

    Returns
    -------
    pandas.DataFrame
    """
    rows = {}
    y_values = np.asarray(y, dtype=object)
    for k, (train, test) in enumerate(folds, start=1):
        model = Prism(pruning=None).fit(X.iloc[train], y.iloc[train])
        table = rule_conflicts(model, X.iloc[test])
        right = table["first match"].to_numpy(dtype=object) == y_values[test]
        status = table["status"].to_numpy()
        correct = pd.Series(
            {
                f"correct ({name.removeprefix('rules of ')})": int((right & (status == name)).sum())
                for name in _CONFLICT_STATUSES[1:]
            }
        )
        counts = conflict_counts(model, X.iloc[test])
        rows[k] = pd.concat([pd.Series({"held out": len(test)}), counts, correct])
    table = pd.DataFrame.from_dict(rows, orient="index").astype(int)
    table.loc["total"] = table.sum()
    table.index.name = "fold"
    return table


def space_conflicts(X: pd.DataFrame, y) -> pd.Series:
    """PRISM learnt on ``X, y``, read over the attribute space's instances it has not seen.

    Parameters
    ----------
    X : pandas.DataFrame
        Categorical attributes.
    y : pandas.Series
        The labels.

    Returns
    -------
    Series
        ``training instances``, ``attribute space``, ``unseen`` (space minus the training
        rows), then the three :func:`rule_conflicts` statuses counted over the unseen ones.
    """
    model = Prism(pruning=None).fit(X, y)
    space = attribute_space(X)
    seen = pd.MultiIndex.from_frame(X.astype(str))
    unseen = space[~pd.MultiIndex.from_frame(space.astype(str)).isin(seen)].reset_index(drop=True)
    head = pd.Series(
        {"training instances": len(X), "attribute space": len(space), "unseen": len(unseen)}
    )
    return pd.concat([head, conflict_counts(model, unseen)]).astype(int)


# --------------------------------------------------------------------------------------------
# Slide 5: covering in two dimensions
# --------------------------------------------------------------------------------------------


def _in_box(points: pd.DataFrame, rule: pd.Series) -> np.ndarray:
    """Points with x_low < x <= x_high and y_low < y <= y_high (NaN bounds: unbounded)."""
    inside = np.ones(len(points), dtype=bool)
    for axis in ("x", "y"):
        low, high = rule[f"{axis}_low"], rule[f"{axis}_high"]
        if pd.notna(low):
            inside &= points[axis].to_numpy() > low
        if pd.notna(high):
            inside &= points[axis].to_numpy() <= high
    return inside


def covering_2d_example(seed: int = 0, n_points: int = 40) -> dict:
    """Slide 5's example: points of classes a and b in the plane and the rectangles of the rules.

    The rules and thresholds (x = 1.2, y = 2.6) are the slide's
    (``paper_numbers/02_prism_covering_2d.csv``); the points are ours (the picture is lost):
    ``n_points`` drawn uniformly on [0.05, 2.95] x [0.05, 3.95] with ``seed``, labelled ``a`` inside
    x > 1.2, y > 2.6 and ``b`` elsewhere, plus one ``b`` inside a's rectangle, so that, as the
    slide says, "more rules could be added for [a] perfect rule set".

    Parameters
    ----------
    seed : int, default=0
        Seed of the points.
    n_points : int, default=40
        Points drawn.

    Returns
    -------
    dict
        ``points`` (x, y, class), ``rules`` (the slide's rules with p/t on the points; class a
        test by test as the covering grows it), ``uncovered_b`` (b points no b rule covers)
        and ``figure`` (left: the rule for a growing; right: the rule set for b).
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    if not isinstance(n_points, (int, np.integer)) or n_points < 2:
        raise ValueError(f"n_points must be an int >= 2, got {n_points!r}")
    rng = np.random.default_rng(seed)
    rules = paper_table("02_prism_covering_2d").reset_index(drop=True)
    x = rng.uniform(0.05, 2.95, n_points)
    y = rng.uniform(0.05, 3.95, n_points)
    a_box = rules[(rules["class"] == "a")].iloc[-1]
    x_a = float(a_box["x_low"])
    y_a = float(a_box["y_low"])
    # the extra b, inside a's rectangle
    x = np.append(x, rng.uniform(x_a + 0.2, 2.8))
    y = np.append(y, rng.uniform(y_a + 0.2, 3.8))
    label = np.where((x > x_a) & (y > y_a), "a", "b")
    label[-1] = "b"
    points = pd.DataFrame({"x": x, "y": y, "class": label})

    p, t = [], []
    for _, rule in rules.iterrows():
        inside = _in_box(points, rule)
        t.append(int(inside.sum()))
        p.append(int((inside & (points["class"] == rule["class"]).to_numpy()).sum()))
    table = rules[["class", "step", "rule", "status"]].copy()
    table["p"], table["t"] = p, t
    table["p/t"] = [f"{pi}/{ti}" for pi, ti in zip(p, t)]
    b_rules = rules[rules["class"] == "b"]
    covered_b = np.zeros(len(points), dtype=bool)
    for _, rule in b_rules.iterrows():
        covered_b |= _in_box(points, rule)
    uncovered_b = int(((points["class"] == "b").to_numpy() & ~covered_b).sum())

    figure, axes = plt.subplots(1, 2, figsize=(11, 4.6), sharey=True)
    limits = {"x": (0.0, 3.0), "y": (0.0, 4.0)}

    def box(ax, rule, **style):
        x0 = rule["x_low"] if pd.notna(rule["x_low"]) else limits["x"][0]
        x1 = rule["x_high"] if pd.notna(rule["x_high"]) else limits["x"][1]
        y0 = rule["y_low"] if pd.notna(rule["y_low"]) else limits["y"][0]
        y1 = rule["y_high"] if pd.notna(rule["y_high"]) else limits["y"][1]
        ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, **style))

    shades = ["#f6c28b", "#e8743b"]
    for ax, cls, title in zip(axes, ("a", "b"), ("growing a rule for a", "a rule set for b")):
        for k, (i, rule) in enumerate(rules[rules["class"] == cls].iterrows()):
            box(ax, rule, facecolor=shades[k] if cls == "a" else ["#b8d8f0", "#7fb3de"][k],
                alpha=0.55, edgecolor="k", linewidth=1.2, linestyle="--" if k == 0 else "-",
                label=f"{rule['rule']}  ({table.loc[i, 'p/t']})")
        for name, marker in (("a", "$a$"), ("b", "$b$")):
            chosen = points[points["class"] == name]
            ax.scatter(chosen["x"], chosen["y"], marker=marker, s=70,
                       color="#b03000" if name == "a" else "#1f4e8c")
        ax.axvline(x_a, color="grey", linewidth=0.6)
        ax.axhline(y_a, color="grey", linewidth=0.6)
        ax.set(xlim=limits["x"], ylim=limits["y"], xlabel="x", title=title)
        ax.set_xticks([0, 1.2, 2, 3])
        ax.set_yticks([0, 1, 2, 2.6, 4])
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), fontsize=8, frameon=False)
    axes[0].set_ylabel("y")
    figure.tight_layout()
    plt.close(figure)
    return {"points": points, "rules": table, "uncovered_b": uncovered_b, "figure": figure}


# --------------------------------------------------------------------------------------------
# Generated prose: every sentence of notebook 02 that states one of our results
# --------------------------------------------------------------------------------------------

#: The templates of the notebook's result sentences (:func:`companion.prose.render`).
PROSE = {
    "covering_2d": (
        "`{a1}` alone covers {a1_pt} for `a` ({a1_share:pct.0} of what it covers is `a`); adding the second test "
        "leaves `{a2}` at {a2_pt}. The two `b` rules cover {b_covered} of the {n_b} `b` points and no `a`: "
        "{uncovered:plural `b` point|`b` points} {verb} left, which is what slide 5 means by "
        "\"more rules could be added for [a] perfect rule set\"."),
    "step": "Step {step}: `{winner}` ({pt}) is selected{rivals}.",
    "rivals_ratio": "; {names:list} {verb} with it on p/t and p, and the earlier attribute (then value) wins",
    "rivals_p": "; {names:list} {verb} the same p/t ({pt}) and a smaller p",
    "subsets": ("E shrinks {sizes} over the steps; p stays at {p0} until the last test, which keeps "
                "{p_last} of them and makes the rule {exact}."),
    "second_rule": ("The {removed:plural instance} the first rule covers leave E; the second rule is grown on "
                    "the other {left}, which hold {positives:plural `hard` instance}."),
    "coverage": ("{perfect} of {n:plural rule} are correct on every training instance they cover; "
                 "{more:plural rule} cover more of the training set than of their E ({which:list})."),
    "order": ("Over {orders:plural random rule order}, {changed:plural order} changed a prediction on the "
              "training set ({instances:plural instance} whose class depends on the order)."),
    "conflicts_cv": ("On Weka's folds, {no_rule:plural held-out instance} {verb} covered by no "
                     "rule (Weka's unclassified count: {weka_unclassified}) and {several:plural instance} by rules "
                     "of several classes; the correct answers of both kinds sum to {correct} (PRISM's correct "
                     "count: {prism_correct})."),
    "space": ("On the unseen instances of the attribute spaces, {conflicted:list} {verb} instances covered by rules of several classes, and on {orders_changed:list} random "
              "rule orders change predictions ({share:pct.0} of the orders or more on each). Unseen instances "
              "that no rule covers: {no_rule}."),
    "demo": ("PRISM learns {n_rules:plural rule} for `x`; the tree has {n_leaves:plural leaf|leaves} for `x` and "
             "repeats {tests:list} under both branches of its root: the replicated subtree of slide 2."),
    "supermarket": ("{imperfect:plural rule} of {n_rules} cover training instances of another class "
                    "(the longest rule has {longest:plural test}); training accuracy {accuracy:pct.2}. "
                    "The rule count is {rule_word} Weka's ({weka_rules}); in the last `make bench` report our fit "
                    "took {ratio:.3f} of Weka's build time, and the two rule lists were {identical}."),
}


def _is(count: int) -> str:
    return "is" if count == 1 else "are"


def _rivals(step: pd.DataFrame) -> str:
    from fractions import Fraction

    chosen = step[step["selected"]].iloc[0]
    best = Fraction(int(chosen["p"]), int(chosen["t"]))
    same = step[[Fraction(int(p), int(t)) == best if t else False for p, t in zip(step["p"], step["t"])]]
    same = same[~same["selected"]]
    tied = same[same["p"] == chosen["p"]]
    lower = same[same["p"] < chosen["p"]]
    text = ""
    if len(tied):
        text += render(PROSE["rivals_ratio"], names=[f"`{a} = {v}`" for a, v in zip(tied["attribute"], tied["value"])],
                       verb="ties" if len(tied) == 1 else "tie").data
    if len(lower):
        text += render(PROSE["rivals_p"], names=[f"`{a} = {v}` ({pt})" for a, v, pt in
                                                  zip(lower["attribute"], lower["value"], lower["p/t"])],
                       verb="has" if len(lower) == 1 else "have", pt=chosen["p/t"]).data
    return text


def describe_trace(trace: pd.DataFrame):
    """One generated sentence per step of a rule's trace (:func:`rule_trace`): the test selected, and
    the candidates that tie with it on p/t (settled by p, then by order).

    Parameters
    ----------
    trace : pandas.DataFrame
        :func:`first_rule_trace` or :func:`rule_trace`.

    Returns
    -------
    companion.prose.Markdown
    """
    from companion.prose import Markdown

    lines = []
    for step_number, step in trace.groupby("step", sort=True):
        chosen = step[step["selected"]].iloc[0]
        lines.append(render(PROSE["step"], step=int(step_number), winner=f"{chosen['attribute']} = {chosen['value']}",
                            pt=chosen["p/t"], rivals=_rivals(step)).data)
    return Markdown(" ".join(lines))


def describe_covering_2d(example: dict):
    """Slide 5's example (:func:`covering_2d_example`) in words, from its rule table."""
    rules = example["rules"]
    a_rules, b_rules = rules[rules["class"] == "a"], rules[rules["class"] == "b"]
    points = example["points"]
    n_b = int((points["class"] == "b").sum())
    first, last = a_rules.iloc[0], a_rules.iloc[-1]
    return render(PROSE["covering_2d"], a1=first["rule"], a1_pt=first["p/t"], a1_share=first["p"] / first["t"],
                  a2=last["rule"], a2_pt=last["p/t"], b_covered=n_b - example["uncovered_b"], n_b=n_b,
                  uncovered=example["uncovered_b"], verb=_is(example["uncovered_b"]))


def describe_subsets(subsets: pd.DataFrame):
    """The shrinking E of :func:`covered_subsets` in words."""
    return render(PROSE["subsets"], sizes=" → ".join(str(t) for t in subsets["t"]), p0=int(subsets["p"].iloc[0]),
                  p_last=int(subsets["p"].iloc[-1]),
                  exact="exact" if subsets["p"].iloc[-1] == subsets["t"].iloc[-1] else "still inexact")


def describe_second_rule(first: pd.DataFrame, second: pd.DataFrame, trace: pd.DataFrame | None = None):
    """Where the second rule of a class starts (:func:`covered_subsets` of the first and the second),
    followed by :func:`describe_trace` of its ``trace`` when given."""
    from companion.prose import Markdown

    text = render(PROSE["second_rule"], removed=int(first["t"].iloc[-1]), left=int(second["t"].iloc[0]),
                  positives=int(second["p"].iloc[0])).data
    return Markdown(text if trace is None else f"{text} {describe_trace(trace).data}")


def describe_coverage(coverage: pd.DataFrame):
    """:func:`rule_coverage` in words: the rules correct wherever they fire, and those covering more than E."""
    on_e = coverage["p/t on E"].str.split("/").str[1].astype(int)
    more = coverage.index[coverage["covered (all)"] > on_e]
    perfect = int((coverage["accuracy on all %"] == 100).sum())
    return render(PROSE["coverage"], perfect=perfect, n=len(coverage), more=len(more),
                  which=[f"rule {i} ({coverage.loc[i, 'p/t on E']} on E, {coverage.loc[i, 'correct/covered (all)']} "
                         "on all)" for i in more])


def describe_order(order: pd.Series):
    """:func:`order_invariance` on the training set in words."""
    return render(PROSE["order"], orders=int(order["orders tried"]), changed=int(order["orders changing some prediction"]),
                  instances=int(order["instances whose class depends on the order"]))


def describe_conflicts_cv(conflicts: pd.DataFrame, cv: pd.DataFrame):
    """:func:`cv_conflicts`' totals against the cross-validation's counts (:func:`weka_folds_table`)."""
    total = conflicts.loc["total"]
    return render(PROSE["conflicts_cv"], no_rule=int(total["no rule"]), verb=_is(int(total["no rule"])), several=int(total["rules of several classes"]),
                  weka_unclassified=int(cv.loc["PRISM", "unclassified"]),
                  correct=int(total["correct (one class)"] + total["correct (several classes)"]),
                  prism_correct=int(cv.loc["PRISM", "correct"]))


def describe_space(conflicts: pd.DataFrame, orders: pd.DataFrame):
    """:func:`space_conflicts` and :func:`order_invariance` over the attribute spaces in words."""
    conflicted = list(conflicts.index[conflicts["rules of several classes"] > 0])
    changed = orders[orders["orders changing some prediction"] > 0]
    share = float((changed["orders changing some prediction"] / changed["orders tried"]).min()) if len(changed) else 0.0
    no_rule = ", ".join(f"{name} {int(n)}" for name, n in conflicts["no rule"].items() if n > 0) or "none"
    return render(PROSE["space"], conflicted=conflicted, verb="has" if len(conflicted) == 1 else "have", orders_changed=list(changed.index),
                  share=share, no_rule=no_rule)


def describe_demo(demo: dict):
    """:func:`replicated_subtree_demo` in words: PRISM's rules for ``x`` and the tree's repeated tests."""
    x_leaves = [r for r in demo["leaf_rules"] if r.endswith("then x")]
    return render(PROSE["demo"], n_rules=len(demo["x_rules"]), n_leaves=len(x_leaves),
                  tests=[f"`{t}`" for t in _replicated_tests(x_leaves)] or ["no test"])


def describe_supermarket(scale: dict, speed: pd.Series, weka_rules: int):
    """:func:`supermarket_scale` and :func:`supermarket_speed` in words."""
    table = scale["model"].rule_table()
    return render(PROSE["supermarket"], imperfect=int((table["p"] < table["t"]).sum()), n_rules=scale["n_rules"],
                  longest=scale["max_conditions"], accuracy=scale["training_accuracy"],
                  rule_word="equal to" if scale["n_rules"] == weka_rules else "not", weka_rules=weka_rules,
                  ratio=float(speed["ratio"]), identical="identical" if bool(speed["identical"]) else "different")


def describe_claims(report, status: str, variant_seeds) -> "Markdown":
    """What the claims were evaluated on: the seed variants and the Weka peers' status."""
    from companion.prose import Markdown

    text = render(CLAIM_PROSE, seeds=[f"`seed={s}`" for s in variant_seeds]).data
    return Markdown(f"{text} {status}")


CLAIM_PROSE = ("The seed-dependent claims are re-evaluated under the seed variants {seeds:list} (their own seeded "
               "splits, trees and rule orders; `seeds` in the table).")


def discussion(report):
    """Each claim's discussion: the registry's template (``discussion``) rendered from its row.

    Parameters
    ----------
    report : companion.claims.ClaimsReport

    Returns
    -------
    companion.prose.Markdown
    """
    return report.discussion()
