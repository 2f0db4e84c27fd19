"""What notebook 02 runs and on which folds: Weka's cross-validation folds rebuilt
(``java.util.Random``), every learner on the same folds, ``Config``, ``run``, the fold-seed
variants and the Weka peers' results read on those folds.
"""

from __future__ import annotations

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
from sklearn.utils._param_validation import validate_params

from companion.datasets import RegisteredDataset, load_contact_lenses, load_peers
from companion.evaluation import fold_hash, parallel_map, stratified_folds
from companion.experiments._constraints import N_JOBS
from companion.experiments.protocol import check_tidy
from companion.baselines import OneR, OrderedRipper
from companion.prism import Prism
from companion.prose import render
from companion.experiments.paper02._templates import TEMPLATES


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
    return counts_table(_fold_rows(estimators, X, y, ("", folds)))


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
    splits = [(seed + repeat, quiet_stratified_folds(y, n_folds, seed + repeat)) for repeat in range(n_repeats)]
    runs = parallel_map(partial(_fold_rows, estimators, X, y), splits, n_jobs=n_jobs)
    return repeated_summary(pd.concat(runs, ignore_index=True))


def quiet_stratified_folds(y, n_folds: int, seed: int):
    """:func:`companion.evaluation.stratified_folds`, quiet about the classes too small to stratify."""
    with warnings.catch_warnings():
        # 4 `hard` instances for 10 folds: scikit-learn warns that some folds lack the class,
        # which is the nature of this data set (Weka's stratification does the same).
        warnings.filterwarnings("ignore", message="The least populated class", category=UserWarning)
        return stratified_folds(y, n_splits=n_folds, seed=seed)


COUNTS = ["correct", "incorrect", "unclassified"]


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


def counts_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Counts summed over the folds of one split and the accuracy (%), one row per learner."""
    table = rows.groupby("method", sort=False)[COUNTS].sum().astype(np.int64)
    table.index.name = None
    table["accuracy %"] = 100.0 * table["correct"] / table[COUNTS].sum(axis=1)
    return table


def repeated_summary(rows: pd.DataFrame) -> pd.DataFrame:
    """Mean and sample standard deviation over the splits of each split's accuracy (%)."""
    accuracy = {seed: counts_table(split)["accuracy %"] for seed, split in rows.groupby("seed", sort=False)}
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


# False: ``config`` sets the learners' ``random_state``, which their fits still check.
@validate_params({"config": [Config], "n_jobs": N_JOBS}, prefer_skip_nested_validation=False)
def run(config: Config, n_jobs: int = 1) -> pd.DataFrame:
    """Every learner of :func:`learners` on Weka's folds and on ``n_repeats`` seeded splits.

    The splits are the items of :func:`companion.evaluation.parallel_map`: ``n_jobs``
    (default 1, serial; -1: every core) does not change the result, since each split is fixed
    by its seed before any learner runs.

    Parameters
    ----------
    config : Config
        The protocol's configuration.
    n_jobs : int or None, default=1
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
        (f"{NUMPY_SPLIT}{seed}", quiet_stratified_folds(y, config.n_folds, seed))
        for seed in range(config.seed, config.seed + config.n_repeats)
    ]
    chosen = learners(seed=config.seed, ripper="RIPPER (wittgenstein, one-vs-rest)" in config.methods or not config.methods)
    if config.methods:
        unknown = sorted(set(config.methods) - set(chosen))
        if unknown:
            raise ValueError(f"run: config.methods={config.methods!r} names unknown learners {unknown}; "
                             f"known: {list(chosen)}")
        chosen = {name: chosen[name] for name in config.methods}
    frames = parallel_map(partial(_fold_rows, chosen, X, y), splits, n_jobs=n_jobs)
    results = pd.concat(frames, ignore_index=True)
    results.insert(0, "dataset", dataset)
    return check_tidy(results)


#: The orders conflicting rules can be read in, besides the learnt one (the classes in declared
#: order, each class's rules as learnt), which ``Prism.predict`` uses: the variants ``order=…``.
RULE_ORDERS = {
    "reversed": "the classes in reverse order, each class's rules as learnt",
    "coverage": "the rules by the number of instances they were grown on (p), largest first",
}


def rule_order(model: Prism, order: str) -> np.ndarray:
    """The permutation of ``model.rules_`` that reads them in :data:`RULE_ORDERS`' ``order``.

    Parameters
    ----------
    model : Prism
        Fitted.
    order : {"reversed", "coverage"}

    Returns
    -------
    ndarray of int
    """
    labels = [rule.label for rule in model.rules_]
    if order == "reversed":
        classes = list(dict.fromkeys(labels))[::-1]
        return np.array([i for c in classes for i, label in enumerate(labels) if label == c], dtype=int)
    if order == "coverage":
        return np.array(sorted(range(len(labels)), key=lambda i: -model.rules_[i].p), dtype=int)
    raise ValueError(f"rule_order: order must be one of {tuple(RULE_ORDERS)}, got {order!r}")


def rule_order_rows(config: "Config", order: str) -> pd.DataFrame:
    """PRISM and PRISM + default class on every split of ``config``, the rules read in ``order``.

    :func:`rule_order_variants` for one order.

    Parameters
    ----------
    config : Config
        :func:`run`'s configuration (its splits).
    order : {"reversed", "coverage"}
        :data:`RULE_ORDERS`.

    Returns
    -------
    pandas.DataFrame
        :func:`run`'s columns, methods ``PRISM`` and ``PRISM + default class``.
    """
    return rule_order_variants(config, (order,))[order]


def rule_order_variants(config: "Config", orders=tuple(RULE_ORDERS)) -> dict:
    """PRISM and PRISM + default class on every split of ``config``, the rules read in each of ``orders``.

    The same folds, fits and counts as :func:`run` (its tidy rows for those two learners); only
    the order in which a held-out instance's covering rules are read changes, so only instances
    covered by rules of several classes can change class. One fit per fold serves both learners
    (they differ only in what an uncovered instance gets) and every order.

    Parameters
    ----------
    config : Config
        :func:`run`'s configuration (its splits).
    orders : sequence of {"reversed", "coverage"}, default=all of :data:`RULE_ORDERS`
        The orders.

    Returns
    -------
    dict
        ``{order: DataFrame}``, each with :func:`run`'s columns, methods ``PRISM`` and
        ``PRISM + default class``.
    """
    (dataset, entry), = DATASETS.items()
    X, y = entry.load()
    y_values = np.asarray(y, dtype=object)
    splits = [(f"{WEKA_SPLIT}{config.weka_seed}", weka_cv_folds(y, config.n_folds, seed=config.weka_seed))]
    splits += [(f"{NUMPY_SPLIT}{seed}", quiet_stratified_folds(y, config.n_folds, seed))
               for seed in range(config.seed, config.seed + config.n_repeats)]
    rows = {order: {"PRISM": [], "PRISM + default class": []} for order in orders}
    for split, folds in splits:
        for fold, (train, test) in enumerate(folds):
            model = Prism(uncovered="unclassified", pruning=None).fit(X.iloc[train], y.iloc[train])
            covers = model.covers(X.iloc[test])
            for order in orders:
                permutation = rule_order(model, order)
                covered = covers[:, permutation]
                uncovered = ~covered.any(axis=1)
                first = np.where(uncovered, len(permutation), np.argmax(covered, axis=1))
                for method, default in (("PRISM", False), ("PRISM + default class", True)):
                    labels = np.array([model.rules_[i].label for i in permutation]
                                      + [model.default_class_ if default else None], dtype=object)
                    predicted = labels[first]
                    none = uncovered & (not default)  # unclassified: no rule, and no default class
                    hits = (predicted == y_values[test]) & ~none
                    rows[order][method].append({"dataset": dataset, "method": method, "seed": split, "fold": fold,
                                                "correct": int(hits.sum()), "incorrect": int((~hits & ~none).sum()),
                                                "unclassified": int(none.sum()), "n_test": len(test)})
    # rows in the order the one-order loop gave them: split by split, PRISM's folds, then the default class's
    out = {}
    for order in orders:
        ordered = []
        for split, _ in splits:
            for method in ("PRISM", "PRISM + default class"):
                ordered += [row for row in rows[order][method] if row["seed"] == split]
        out[order] = check_tidy(pd.DataFrame(ordered))
    return out


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
    config = Config() if config is None else config
    results, folds, provenance = load_peers("prism")
    (dataset, entry), = DATASETS.items()
    _, y = entry.load()
    splits = {f"{WEKA_SPLIT}{config.weka_seed}": weka_cv_folds(y, config.n_folds, seed=config.weka_seed)}
    for seed in range(config.seed, config.seed + config.n_repeats):
        splits[f"{NUMPY_SPLIT}{seed}"] = quiet_stratified_folds(y, config.n_folds, seed)
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


#: Where the peers' runner commits the fold lists Weka used (columns ``seed``, ``row``, ``fold``).
COMMITTED_FOLDS = "prism_peers/folds.csv"


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
    _, folds, _ = load_peers("prism")
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


#: The declared positions of ``supermarket``'s missing value: ``{name: what it is}`` (the
#: ``encoding=…`` variant of the ``supermarket`` row; ``last`` is Weka's recorded run and the main one).
MISSING_POSITIONS = {
    "last": "the encoding of Weka's recorded run (missing cells a value of their own, declared after `t`: "
            "`missing=\"value\"`)",
    "first": "the missing value declared before `t` (`encoding=missing-first`), Weka's Prism re-run on the same encoding",
}


def missing_declared_first(X: pd.DataFrame) -> pd.DataFrame:
    """``X`` with each missing cell the value ``?`` declared *before* the column's other values.

    ``Prism(missing="value")`` declares it after them; PRISM keeps the earliest value among exactly
    tied candidates (Cendrowska's algorithm fixes only the larger p), so the position can change
    ties and with them the rules. Built from the category codes, column by column.

    Parameters
    ----------
    X : pandas.DataFrame
        Nominal columns (categoricals) with missing cells.

    Returns
    -------
    pandas.DataFrame
        The same cells, no missing one, ``?`` the first category of every column.
    """
    from companion.preprocessing import MISSING_VALUE_NAME

    codes = np.column_stack([X[column].cat.codes.to_numpy() for column in X.columns]) + 1  # missing (-1) -> 0
    return pd.DataFrame({
        column: pd.Categorical.from_codes(codes[:, j], categories=[MISSING_VALUE_NAME, *X[column].cat.categories])
        for j, column in enumerate(X.columns)}, index=X.index)


def supermarket_scale(repeats: int = 1, missing: str = "last", data: tuple | None = None) -> dict:
    """PRISM on ``supermarket`` with missing cells as a value: rules, accuracy, fit time.

    Returns ``n_samples`` and ``n_features`` (baskets and departments), ``n_rules``,
    ``training_accuracy``, ``max_conditions`` and ``fit_seconds`` (best of ``repeats``; wall
    clock, so volatile). The comparison with Weka's own run lives in
    ``benchmarks/prism_supermarket.py``.

    Parameters
    ----------
    repeats : int, default=1
        Fits timed; the best is reported.
    missing : {"last", "first"}, default="last"
        Where the missing value is declared (:data:`MISSING_POSITIONS`): after ``t``, as Weka's
        recorded run, or before it (:func:`missing_declared_first`).
    data : tuple, optional
        ``load_supermarket()``'s ``(X, y)``, when the caller has it (the data are read once).

    Returns
    -------
    dict
    """
    import time

    from companion.datasets import load_supermarket

    if missing not in MISSING_POSITIONS:
        raise ValueError(f"supermarket_scale: missing must be one of {tuple(MISSING_POSITIONS)}, got {missing!r}")
    X, y = load_supermarket() if data is None else data
    if missing == "first":
        X = missing_declared_first(X)
    times = []
    for _ in range(max(1, int(repeats))):
        start = time.perf_counter()
        model = Prism(missing="value", pruning=None).fit(X, y)
        times.append(time.perf_counter() - start)
    return {
        "n_samples": int(X.shape[0]),
        "n_features": int(X.shape[1]),
        "n_rules": len(model.rules_),
        "training_accuracy": float(model.score(X, y)),
        "max_conditions": max(len(rule.conditions) for rule in model.rules_),
        "fit_seconds": min(times),
        "model": model,
    }


def weka_rule_lines(model: Prism) -> np.ndarray:
    """Our rules as Weka's Prism prints them, one line a rule (the ``and`` continuations joined),
    the missing value named ``missing`` as in the ARFF Weka read (``benchmarks/prism_supermarket.py``).

    Parameters
    ----------
    model : Prism
        Fitted.

    Returns
    -------
    ndarray of str
    """
    from companion.preprocessing import MISSING_VALUE_NAME

    body = model.to_text(weka_layout=True).split("----------\n", 1)[1]
    lines = [line for line in body.replace("\n   and ", " and ").strip("\n").split("\n") if line]
    return np.array([line.replace(f" = {MISSING_VALUE_NAME} ", " = missing ") for line in lines], dtype=object)


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
