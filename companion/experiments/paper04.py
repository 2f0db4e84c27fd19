"""Notebook 04 protocol: WIDC decision committees against trees and rule lists (Nock 2002).

The paper's Table 1 (31 domains, ten-fold stratified cross-validation; errors and sizes of
WIDC(o), WIDC(p), WIDC() beside C4.5 and CN2-POE) is lost (an image), so this module re-runs the
protocol on the UCI sets we vendor and tests the paper's *qualitative* statements:

* every data set is split by :func:`companion.evaluation.stratified_folds` (10 folds, seeded);
* on each training fold WIDC grows and vectorises **once** and is pruned three ways
  (:meth:`companion.widc.DecisionCommittee.with_pruning`), because growth does not depend on the
  pruning;
* the "Others" are a cost-complexity-pruned CART tree
  (:class:`companion.baselines.PrunedDecisionTree` with ``pruning="cost_complexity_cv"``:
  ``ccp_alpha`` by inner 5-fold CV on the training fold; nominal attributes one-hot), PRISM
  (:class:`companion.prism.Prism`) and RIPPER (:class:`companion.baselines.OrderedRipper`), run
  here; and the paper's own peers, C4.5 (Weka's J48), Weka's JRip and
  CN2 (Orange3's ordered and unordered learners), run on the same folds by
  ``peers/widc_peers.py`` in their own environments and read from ``data/widc_peers``
  (:func:`peer_results`, which checks the folds);
* PRISM and RIPPER read nominal data: numeric attributes are cut at the same MDL cut points WIDC
  uses (fitted on the training fold), one value per interval.

Sizes: WIDC counts rules and literals (paper, "Building Small Accurate DCs"); a tree is read as
its leaf rules (a leaf's monomial is the conjunction of the tests on its path, paper section
"Partition Boosting"), so rules = leaves and literals = the sum of leaf depths; PRISM and RIPPER
count their rules and conditions.
"""

from __future__ import annotations

import hashlib
import statistics
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import partial

import numpy as np
import pandas as pd
from sklearn.tree import DecisionTreeClassifier

import companion.datasets as datasets
from companion.baselines import OrderedRipper, PrunedDecisionTree, tree_leaf_paths
from companion.datasets import RegisteredDataset
from companion.evaluation import fold_hash, parallel_map, stratified_folds
from companion.experiments.protocol import check_tidy, paper_models
from companion.preprocessing import MDLDiscretizer, encode_frame
from companion.preprocessing import one_hot_nominal as _one_hot_nominal
from companion.prism import Prism
from companion.widc import PRUNINGS, DecisionCommittee

__all__ = [
    "BENCHMARK_SETS",
    "Config",
    "run",
    "folds_table",
    "OTHERS",
    "BenchmarkSet",
    "load_benchmark_set",
    "DOCUMENTED_NOMINAL",
    "TYPINGS",
    "mdl_codes",
    "tree_size",
    "prism_fit_predict",
    "summary_table",
    "claims_data",
    "claims_family",
    "claims_report",
    "claims_variants",
    "polarity_table",
    "peer_tables",
    "CLAIM_PEERS",
    "NON_INFERIORITY_POINTS",
    "MAJORITY",
    "BASELINE_CHECKED",
    "sensitivity_pivot",
    "numeric_typing_sets",
    "numeric_attribute_sets",
    "choose_optimistic_strength",
    "WIDC_LEARNERS",
    "paper_comparison",
    "pattern_cells",
    "plot_partitions",
    "plot_z_trace",
    "plot_size_vs_error",
    "polarity_ablation",
    "PEER_LEARNERS",
    "fold_vector",
    "peer_results",
    "majority_results",
    "peer_claims_table",
    "error_with_std",
    "plot_paired_scatter",
    "SENSITIVITY_STRENGTHS",
    "optimistic_sensitivity",
    "sensitivity_summary",
    "cells_table",
    "plot_sensitivity",
    "z_equivalences",
    "committee_cells",
    "paper_context",
    "MEASURES",
    "SEED_VARIANTS",
    "N_SEED_VARIANTS",
    "seed_variants",
    "seed_runs",
    "FoldMemo",
    "peers_command",
    "peers_environment",
    "variant_ranks",
    "TEMPLATES",
    "prose",
    "strength_prose",
    "cells_prose",
    "committee_cells_prose",
    "ranks_prose",
    "seeds_prose",
    "peers_prose",
    "registry_table",
]

WIDC_LEARNERS = {"pessimistic": "WIDC(p)", "optimistic": "WIDC(o)", "none": "WIDC()"}

#: name -> :class:`companion.datasets.RegisteredDataset` (loader, options, note). MONK's problems use
#: the 432-example "test" file, which is the whole domain (the training files are samples of it,
#: with 5% label noise for MONK-3).
BENCHMARK_SETS = {
    **{
        f"monks{problem}": RegisteredDataset(datasets.load_monks, {"problem": problem, "split": "test"},
                                             "whole 432-example domain")
        for problem in (1, 2, 3)
    },
    "votes": RegisteredDataset(datasets.load_votes, note="Vote0: all 16 votes, missing kept"),
    "breastw": RegisteredDataset(datasets.load_breastw, note="missing kept"),
    "pima": RegisteredDataset(datasets.load_pima),
    "hepatitis": RegisteredDataset(datasets.load_hepatitis, note="missing kept"),
    "heart": RegisteredDataset(datasets.load_heart_statlog, note="Statlog version"),
    "iris": RegisteredDataset(datasets.load_iris),
    "ionosphere": RegisteredDataset(datasets.load_ionosphere),
    "sonar": RegisteredDataset(datasets.load_sonar),
    "glass": RegisteredDataset(datasets.load_glass, note="6 classes"),
    "led7": RegisteredDataset(datasets.load_led7, note="10 classes, 10% noise"),
    "xd6": RegisteredDataset(datasets.load_xd6),
    "tic-tac-toe": RegisteredDataset(datasets.load_tic_tac_toe),
    "mushroom": RegisteredDataset(datasets.load_mushroom, note="missing kept"),
    "balance-scale": RegisteredDataset(datasets.load_balance_scale, note="3 classes"),
}


#: The attributes whose documentation (``data/README.md``) says they are Boolean or nominal but
#: whose CSV cells are numbers, so that :func:`companion.datasets` reads them as numeric; ``None``:
#: every attribute. With ``typing="documented"`` :func:`load_benchmark_set` types them nominal
#: (their values as categories, sorted), so that WIDC writes ``[A = 1]`` for a Boolean
#: attribute instead of a cut ``[A <= 0.5]`` (and C4.5, RIPPER and CN2 split on values).
DOCUMENTED_NOMINAL = {
    "xd6": None,  # "binary 0/1 attributes" (PMLB copy; Buntine & Niblett's Boolean concept)
    "led7": None,  # "binary 0/1 attributes": the seven LED segments
    # "Binary attributes coded 1 = no, 2 = yes (sex 1 male, 2 female)" (UCI hepatitis.names)
    "hepatitis": ("sex", "steroid", "antivirals", "fatigue", "malaise", "anorexia", "liver_big", "liver_firm",
                  "spleen_palpable", "spiders", "ascites", "varices", "histology"),
    "ionosphere": ("a01",),  # "a01 binary, a02 constant 0"
}

#: The typings :func:`load_benchmark_set` offers.
TYPINGS = ("documented", "numeric")


@dataclass
class BenchmarkSet:
    """One data set encoded for the benchmark.

    ``X`` holds numbers: numeric attributes as they are, nominal ones as codes ``0..k-1``
    (``category_names[j]`` names them); NaN is a missing value.

    Parameters
    ----------
    name : str
        Key of :data:`BENCHMARK_SETS`.
    X : numpy.ndarray of shape (n_samples, n_features)
        The encoded attributes.
    y : numpy.ndarray of shape (n_samples,)
        The labels.
    nominal : numpy.ndarray of bool of shape (n_features,)
        Which columns are nominal.
    feature_names : list of str
        The attributes' names.
    category_names : dict, default={}
        ``{column: values}`` of each nominal column, code ``k`` naming ``values[k]``.
    note : str, default=""
        What differs from the paper's version of the set.
    typing : {"documented", "numeric"}, default="documented"
        How the columns were typed (:data:`TYPINGS`).
    """

    name: str
    X: np.ndarray
    y: np.ndarray
    nominal: np.ndarray
    feature_names: list[str]
    category_names: dict[int, list] = field(default_factory=dict)
    note: str = ""
    typing: str = "documented"

    @property
    def n_classes(self) -> int:
        return len(np.unique(self.y))


def load_benchmark_set(name: str, *, typing: str = "documented") -> BenchmarkSet:
    """Load and encode the benchmark set ``name`` (a key of :data:`BENCHMARK_SETS`).

    Parameters
    ----------
    name : str
    typing : {"documented", "numeric"}, default="documented"
        ``"documented"``: the attributes of :data:`DOCUMENTED_NOMINAL` (Boolean or nominal by
        their documentation, numbers in the file) are nominal, their values the categories;
        ``"numeric"``: every attribute the CSV holds as numbers stays numeric (the typing of
        :func:`companion.preprocessing.encode_frame` alone). The two differ only on the data
        sets of :data:`DOCUMENTED_NOMINAL`.

    Returns
    -------
    BenchmarkSet
    """
    if name not in BENCHMARK_SETS:
        raise ValueError(f"unknown benchmark set {name!r}; choose from {sorted(BENCHMARK_SETS)}")
    if typing not in TYPINGS:
        raise ValueError(f"typing must be one of {TYPINGS}, got {typing!r}")
    entry = BENCHMARK_SETS[name]
    X, y = entry.load()
    if typing == "documented" and name in DOCUMENTED_NOMINAL:
        columns = DOCUMENTED_NOMINAL[name]
        X = X.copy()
        for column in X.columns if columns is None else columns:
            X[column] = pd.Categorical(X[column], categories=sorted(X[column].dropna().unique()))
    array, nominal, names = encode_frame(X)
    return BenchmarkSet(name, array, np.asarray(y).astype(str), nominal, [str(c) for c in X.columns], names,
                        entry.note, typing)


def mdl_codes(X_train, y_train, X_test, nominal, max_cuts=8):
    """Nominal version of a fold for PRISM and RIPPER: numeric columns cut at WIDC's MDL points.

    The cut points are :class:`companion.preprocessing.MDLDiscretizer`'s, fitted on the training
    fold. Returns two integer-coded DataFrames of categoricals (training, test), each column's
    categories being the codes present in either; NaN stays missing.

    Parameters
    ----------
    X_train : numpy.ndarray
        The training fold (:class:`BenchmarkSet` coding).
    y_train : numpy.ndarray
        Its labels.
    X_test : numpy.ndarray
        The test fold.
    nominal : numpy.ndarray of bool
        Which columns are nominal.
    max_cuts : int, default=8
        Most cut points per numeric column.

    Returns
    -------
    train, test : pandas.DataFrame
    """
    discretizer = MDLDiscretizer(max_cuts=max_cuts, categorical_features=np.asarray(nominal, dtype=bool))
    coded_train = discretizer.fit(X_train, y_train).transform(X_train)
    coded_test = discretizer.transform(X_test)
    train, test = {}, {}
    for j in range(X_train.shape[1]):
        a, b = coded_train[:, j], coded_test[:, j]
        values = np.unique(np.concatenate([a[~np.isnan(a)], b[~np.isnan(b)]]))
        train[f"a{j}"] = pd.Categorical(a, categories=values)
        test[f"a{j}"] = pd.Categorical(b, categories=values)
    return pd.DataFrame(train), pd.DataFrame(test)


# --------------------------------------------------------------------------------------------
# The "Others"
# --------------------------------------------------------------------------------------------


def tree_size(tree) -> tuple[int, int]:
    """``(leaves, sum of leaf depths)`` of a fitted scikit-learn tree, i.e. its leaf rules' size.

    Parameters
    ----------
    tree : sklearn.tree.DecisionTreeClassifier
        A fitted tree (or an estimator with ``tree_``).

    Returns
    -------
    leaves, literals : int
    """
    leaves = tree_leaf_paths(tree)
    return len(leaves), sum(leaf.depth for leaf in leaves)


def prism_fit_predict(train: pd.DataFrame, y_train, test: pd.DataFrame):
    """PRISM (:class:`companion.prism.Prism`) on MDL-coded data; uncovered rows get the majority class.

    Parameters
    ----------
    train : pandas.DataFrame
        MDL-coded training fold (:func:`mdl_codes`).
    y_train : array-like
        Its labels.
    test : pandas.DataFrame
        MDL-coded test fold.

    Returns
    -------
    predictions : ndarray
    n_rules, n_literals : int
    """
    model = Prism(missing="no_match", discretizer=None, pruning=None).fit(train, y_train)  # the codes as they are
    return np.asarray(model.predict(test)), len(model.rules_), model.complexity_


# --------------------------------------------------------------------------------------------
# The protocol
# --------------------------------------------------------------------------------------------


#: The learners besides WIDC that :func:`run` can run here (the paper's peers are read, not run).
OTHERS = ("CART", "PRISM", "RIPPER")
#: The columns of ``figures/04_benchmark_folds.csv`` (:func:`folds_table`), in order.
FOLDS_COLUMNS = ["dataset", "fold", "learner", "error", "rules", "literals"]


@dataclass(frozen=True)
class Config:
    """Notebook 04's benchmark: which data sets, folds and learners :func:`run` runs.

    ``Config()`` is the notebook's full run (17 data sets, 10 folds); :meth:`fast` its smoke run.

    Parameters
    ----------
    datasets : tuple of str
        Keys of :data:`BENCHMARK_SETS`.
    n_splits : int, default=10
        Stratified folds (:func:`companion.evaluation.stratified_folds`).
    seed : int, default=0
        Seeds the folds, CART's inner CV and RIPPER.
    max_folds : int, optional
        Run only the first ``max_folds`` folds (the fast mode).
    optimistic_strength : float, optional
        ``c_KM`` of WIDC(o); the estimator's default when None. The notebook sets the constant
        :func:`choose_optimistic_strength` recommends (0.0 at the full run: the default).
    others : tuple of str, default=:data:`OTHERS`
        Any of ``"CART"``, ``"PRISM"``, ``"RIPPER"``.
    typing : {"documented", "numeric"}, default="documented"
        The attribute typing of :func:`load_benchmark_set`.
    numeric_literal : {"le", "gt"}, default="le"
        WIDC's positive literal on a numeric cut (:class:`companion.widc.DecisionCommittee`):
        ``[A <= theta]`` or ``[A > theta]``; the other learners do not read it.
    """

    datasets: tuple = tuple(BENCHMARK_SETS)
    n_splits: int = 10
    seed: int = 0
    max_folds: int | None = None
    optimistic_strength: float | None = None
    others: tuple = OTHERS
    typing: str = "documented"
    numeric_literal: str = "le"

    @classmethod
    def fast(cls):
        """The notebook's ``fast=True`` run: 4 data sets, the first 2 of the 10 folds."""
        return cls(datasets=("monks1", "votes", "iris", "breastw"), max_folds=2)


def run(config: Config, n_jobs=1, *, memo: FoldMemo | None = None) -> pd.DataFrame:
    """Stratified K-fold errors and sizes of WIDC (three prunings) and the other learners.

    Parameters
    ----------
    config : Config
    n_jobs : int, default=1
        Workers of :func:`companion.evaluation.parallel_map`, whose items are the (data set,
        fold) pairs, each with its split and seed (WIDC and CART in one task, PRISM and RIPPER
        on the MDL-coded fold in another): the frame does not depend on it.
    memo : FoldMemo, optional
        What this call shares with the other calls given the same memo (:class:`FoldMemo`):
        WIDC's grown committees and PRISM's and RIPPER's results, by everything they read, so a
        fold met before is not refitted; the frame is the one a call without a memo gives.
        Without one, everything is fitted here.

    Returns
    -------
    pandas.DataFrame
        Tidy (:func:`companion.experiments.protocol.check_tidy`): one row per ``dataset`` (a key
        of :data:`BENCHMARK_SETS`), ``method`` (the learner: ``WIDC(p)``, ``WIDC(o)``, ``WIDC()``,
        then ``config.others``), ``seed`` (``config.seed``, the seed of the fold split) and
        ``fold`` (0-based test fold); columns ``errors`` (test errors, a count), ``n_test`` (the
        test fold's size), ``rules``, ``literals``: the value columns of every tidy frame
        (CONTRIBUTING.md). The builders read the error rate ``errors / n_test`` from them;
        :func:`folds_table` gives the layout of ``04_benchmark_folds.csv`` (with that rate as
        ``error``).
    """
    unknown = set(config.others) - set(OTHERS)
    if unknown:
        raise ValueError(f"others must be among CART, PRISM, RIPPER; got {sorted(unknown)}")
    params = {} if config.optimistic_strength is None else {"optimistic_strength": config.optimistic_strength}
    if config.numeric_literal != "le":
        params["numeric_literal"] = config.numeric_literal
    items = []
    for name in config.datasets:
        data = load_benchmark_set(name, typing=config.typing)
        folds = stratified_folds(data.y, n_splits=config.n_splits, seed=config.seed)[: config.max_folds]
        items += [(data, fold, train, test) for fold, (train, test) in enumerate(folds)]
    others = tuple(config.others)
    nominal_learners = tuple(learner for learner in _NOMINAL_LEARNERS if learner in others)
    # WIDC's growth on a fold met before (optimistic_sensitivity grows on the same folds) comes
    # from the memo; the pruning is redone here with this run's constants.
    memo = FoldMemo(limit=0) if memo is None else memo
    growth_keys = [_growth_key(data, train, params) for data, _, train, _ in items]
    tasks = [("fold", (others, params, config.seed, item, memo.grown.get(key))) for item, key in zip(items, growth_keys)]
    nominal_rows = [None] * len(items)
    if nominal_learners:
        # PRISM and RIPPER read the MDL-coded fold only: a coded fold met before (another typing
        # of the same data codes the same; see FoldMemo) takes its rows from the memo, the
        # others are fitted beside the WIDC and CART folds (first: RIPPER is the longest task).
        coded = parallel_map(_coded_fold, items, n_jobs=n_jobs)
        keys = [_nominal_key(nominal_learners, config.seed, *fold) for fold in coded]
        missing = [k for k, key in enumerate(keys) if key not in memo.nominal_rows]
        tasks = [("nominal", (nominal_learners, config.seed, *coded[k])) for k in missing] + tasks
    # Longest first (a rough cost: rows x columns, x classes - 1 for the one-vs-rest RIPPER), so
    # that joblib's batches of quick tasks come last and no long task starts at the end; the
    # results are put back in task order.
    order = sorted(range(len(tasks)), key=lambda t: -_task_cost(tasks[t]))
    done = [None] * len(tasks)
    for t, result in zip(order, parallel_map(_benchmark_task, [tasks[t] for t in order], n_jobs=n_jobs)):
        done[t] = result
    if nominal_learners:
        fitted = {keys[k]: rows for k, rows in zip(missing, done[: len(missing)])}
        done = done[len(missing) :]
        nominal_rows = [fitted[key] if key in fitted else memo.nominal_rows[key] for key in keys]
        for key, rows in fitted.items():
            memo.remember_nominal(key, rows)
    rows = []
    for (data, fold, _, _), (part, grown), nominal, key in zip(items, done, nominal_rows, growth_keys):
        memo.remember_growth(key, grown)
        rows += part
        for learner, errors, n_test, n_rules, n_literals in nominal or ():
            rows.append(dict(dataset=data.name, method=learner, seed=config.seed, fold=fold, errors=errors,
                             n_test=n_test, rules=n_rules, literals=n_literals))
    return check_tidy(pd.DataFrame(rows))


def folds_table(results: pd.DataFrame) -> pd.DataFrame:
    """:func:`run`'s frame in the layout of ``figures/04_benchmark_folds.csv``: :data:`FOLDS_COLUMNS`.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`FOLDS_COLUMNS` (``method`` named ``learner``).
    """
    return _learner_view(results)[FOLDS_COLUMNS].reset_index(drop=True)


def _learner_view(results: pd.DataFrame) -> pd.DataFrame:
    """``results`` with the tidy ``method`` column named ``learner``, as the tables name it, and
    the test error rate ``error = errors / n_test`` (a fraction) beside the counts.

    Every builder takes :func:`run`'s tidy frame (or it with :func:`peer_results`' and
    :func:`majority_results`', concatenated), and only that: :func:`check_tidy` refuses any
    other layout (such as :func:`folds_table`'s).
    """
    view = check_tidy(results).rename(columns={"method": "learner"})
    return view.assign(error=view["errors"] / view["n_test"])


#: The learners of :func:`run` that read the MDL-coded fold (:func:`mdl_codes`), in row order.
_NOMINAL_LEARNERS = ("PRISM", "RIPPER")

class FoldMemo:
    """What :func:`run` and :func:`optimistic_sensitivity` share on the same folds, owned by the caller.

    Pass one memo to the calls that should share (``memo=``, as scikit-learn's ``memory=``
    takes a :class:`joblib.Memory`); it lives as long as the caller keeps it. A call without one
    fits everything itself, so no result depends on what ran earlier in the process. Both
    entries are deterministic functions of their keys, so a hit is what a refit gives:

    * ``grown``: sha-256 of everything WIDC's growth reads (:func:`_growth_key`) -> the grown
      :class:`companion.widc.DecisionCommittee` (``pruning="none"``). Growth (stages 1-2) does
      not read the pruning or its constants; each function prunes its own copy
      (:meth:`~companion.widc.DecisionCommittee.with_pruning`). :func:`optimistic_sensitivity`
      and :func:`run` grow on the same folds of the same data.
    * ``nominal_rows``: sha-256 of everything PRISM and RIPPER read in :func:`run` (the coded
      training and test folds with their categories, the labels, the seed, the learners:
      :func:`_nominal_key`) -> ``(learner, errors, n_test, rules, literals)`` per learner.
      Notebook 04's numeric-typing run meets the coded folds of the documented run again on the
      data sets whose documented nominal attributes are 0/1 (their MDL cut is at 0.5).

    Parameters
    ----------
    limit : int, default=512
        Committees kept at most (a few kB each), the oldest dropped first; 0 keeps nothing.

    Examples
    --------
    >>> memo = FoldMemo()
    >>> config = Config(datasets=("monks1",), max_folds=1, others=())
    >>> sensitivity = optimistic_sensitivity(["monks1"], max_folds=1, memo=memo)
    >>> len(memo.grown)
    1
    >>> run(config, memo=memo).equals(run(config))  # the committee comes from the memo
    True
    """

    def __init__(self, limit=512):
        self.limit = int(limit)
        self.grown = {}
        self.nominal_rows = {}

    def remember_growth(self, key, grown) -> None:
        """Store a grown committee under ``key`` (bounded by ``limit``: the oldest go first).

        Parameters
        ----------
        key : str
            :func:`_growth_key` of the fold it was grown on.
        grown : companion.widc.DecisionCommittee
            The committee grown with ``pruning="none"``.
        """
        if self.limit <= 0:
            return
        self.grown[key] = grown
        while len(self.grown) > self.limit:
            del self.grown[next(iter(self.grown))]

    def remember_nominal(self, key, rows) -> None:
        """Store PRISM's and RIPPER's rows of one coded fold under ``key`` (unless ``limit`` is 0).

        Parameters
        ----------
        key : str
            :func:`_nominal_key` of the coded fold.
        rows : list of tuple
            ``(learner, errors, n_test, rules, literals)`` per learner.
        """
        if self.limit > 0:
            self.nominal_rows[key] = rows


#: The parameters of :class:`companion.widc.DecisionCommittee` that only the pruning reads.
_PRUNING_PARAMS = ("pruning", "optimistic_strength", "optimistic_delta")


def _growth_key(data, train, params) -> str:
    """sha-256 of what WIDC's growth on fold ``train`` of ``data`` reads (a key of :attr:`FoldMemo.grown`):
    the training rows (values, NaN as missing), their labels, the nominal columns and every
    :class:`~companion.widc.DecisionCommittee` parameter but the pruning's."""
    growth = {k: v for k, v in DecisionCommittee(pruning="none", categorical_features=data.nominal, **params)
              .get_params().items() if k not in _PRUNING_PARAMS and k != "categorical_features"}
    digest = hashlib.sha256(repr(sorted(growth.items())).encode())
    X = np.ascontiguousarray(data.X[train], dtype=np.float64)
    digest.update(repr(X.shape).encode())
    digest.update(np.isnan(X).tobytes())
    digest.update(np.where(np.isnan(X), 0.0, X).tobytes())
    digest.update(np.ascontiguousarray(data.nominal, dtype=bool).tobytes())
    digest.update("\x1f".join(np.asarray(data.y[train]).astype(str).tolist()).encode())
    return digest.hexdigest()


def _grow(data, train, params, grown=None):
    """WIDC() grown on fold ``train`` of ``data`` with ``params`` (``grown``: the memo's, if any)."""
    if grown is not None:
        return grown
    return DecisionCommittee(pruning="none", categorical_features=data.nominal, **params).fit(
        data.X[train], data.y[train])


def _coded_fold(item):
    """``(train, test, y_train, y_test)`` of one :func:`run` item, the folds MDL-coded (:func:`mdl_codes`)."""
    data, _, train, test = item
    coded_train, coded_test = mdl_codes(data.X[train], data.y[train], data.X[test], data.nominal)
    return coded_train, coded_test, data.y[train], data.y[test]


def _nominal_key(learners, seed, coded_train, coded_test, y_train, y_test) -> str:
    """sha-256 of the inputs of :func:`_nominal_fold` (a key of :attr:`FoldMemo.nominal_rows`)."""
    digest = hashlib.sha256(repr((learners, int(seed), list(coded_train.columns), len(coded_train),
                                  len(coded_test))).encode())
    for frame in (coded_train, coded_test):
        for column in frame.columns:
            values = frame[column]
            digest.update(np.ascontiguousarray(values.cat.categories.to_numpy(dtype=np.float64)).tobytes())
            digest.update(np.ascontiguousarray(values.cat.codes.to_numpy(dtype=np.int64)).tobytes())
    for labels in (y_train, y_test):
        digest.update("\x1f".join(np.asarray(labels).astype(str).tolist()).encode())
        digest.update(b"\x1e")
    return digest.hexdigest()


def _nominal_fold(learners, seed, coded_train, coded_test, y_train, y_test):
    """PRISM and RIPPER on one MDL-coded fold: ``(learner, errors, n_test, rules, literals)`` each."""
    rows = []

    def record(learner, predictions, rules, literals):
        rows.append((learner, int(np.count_nonzero(predictions != y_test)), len(y_test), int(rules), int(literals)))

    if "PRISM" in learners:
        record("PRISM", *prism_fit_predict(coded_train, y_train, coded_test))
    if "RIPPER" in learners:
        # Only predict and the sizes are read: wittgenstein's rule frequencies (its own
        # predict_proba's) need not be recalibrated; the rules are the same (calibrate_rulesets).
        ripper = OrderedRipper(random_state=seed, calibrate_rulesets=False, fallback=None).fit(coded_train, y_train)
        record("RIPPER", ripper.predict(coded_test), ripper.n_rules_, ripper.n_literals_)
    return rows


def _task_cost(task) -> int:
    """A rough cost of a task of :func:`run`, to hand out the longest first (not a result)."""
    kind, arguments = task
    if kind == "nominal":
        coded_train, y_train = arguments[2], arguments[4]
        return coded_train.size * max(1, len(np.unique(y_train)) - 1)
    data, _, train, _ = arguments[3]
    return len(train) * data.X.shape[1]


def _benchmark_task(task):
    """One task of :func:`run`: ``("fold", ...)`` (:func:`_benchmark_fold`, its rows and the grown
    committee) or ``("nominal", ...)``."""
    kind, arguments = task
    return _benchmark_fold(*arguments, with_growth=True) if kind == "fold" else _nominal_fold(*arguments)


@paper_models
def _benchmark_fold(others, params, seed, item, grown=None, *, with_growth=False):
    """Rows of :func:`run` for one ``(data set, fold, train, test)`` item: WIDC's and CART's (the
    learners of :data:`_NOMINAL_LEARNERS` are :func:`_nominal_fold`'s). ``grown``: WIDC() grown
    on this fold with ``params`` (from a :class:`FoldMemo`), else grown here; ``with_growth``: return
    ``(rows, grown)``."""
    data, fold, train, test = item
    name = data.name
    rows = []
    Xtr, ytr, Xte, yte = data.X[train], data.y[train], data.X[test], data.y[test]

    def record(learner, predictions, rules, literals):
        rows.append(
            dict(dataset=name, method=learner, seed=seed, fold=fold, errors=int(np.count_nonzero(predictions != yte)),
                 n_test=len(yte), rules=int(rules), literals=int(literals))
        )

    grown = _grow(data, train, params, grown)
    # The pruning constants of params (the memo's committee may have been grown with others:
    # growth does not read them).
    pruning_params = {k: v for k, v in params.items() if k in _PRUNING_PARAMS}
    # The pruned copies of with_pruning, sharing the training literals (with_prunings).
    pruned = iter(grown.with_prunings(Xtr, ytr, [(pruning, pruning_params) for pruning in PRUNINGS if pruning != "none"]))
    for pruning in PRUNINGS:
        model = grown if pruning == "none" else next(pruned)
        record(WIDC_LEARNERS[pruning], model.predict(Xte), model.n_rules_, model.n_literals_)
    if "CART" in others:
        tree = PrunedDecisionTree(pruning="cost_complexity_cv", random_state=seed, fallback=None)
        tree.fit(_one_hot_nominal(Xtr, data.nominal, Xtr), ytr)
        record("CART", tree.predict(_one_hot_nominal(Xte, data.nominal, Xtr)), tree.n_leaves_, tree.n_literals_)
    return (rows, grown) if with_growth else rows


def summary_table(results: pd.DataFrame) -> pd.DataFrame:
    """Table 1 layout: per data set and learner, mean error (%), its std over folds, rules, literals.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame (with :func:`peer_results`' and :func:`majority_results`', concatenated).

    Returns
    -------
    pandas.DataFrame
        Index: data set; columns ``(learner, quantity)``.
    """
    grouped = _learner_view(results).groupby(["dataset", "learner"], sort=False)
    table = pd.DataFrame(
        {
            "error %": grouped["error"].mean() * 100,
            "std %": grouped["error"].std(ddof=1) * 100,
            "rules": grouped["rules"].mean(),
            "literals": grouped["literals"].mean(),
        }
    )
    return table.unstack("learner").swaplevel(axis=1).sort_index(axis=1, level=0, sort_remaining=False)


def _per_dataset(results, quantity):
    return _learner_view(results).groupby(["dataset", "learner"], sort=False)[quantity].mean().unstack("learner")


def _exact_per_dataset(results, quantity):
    """:func:`_per_dataset` in exact rational arithmetic (a frame of :class:`fractions.Fraction`).

    A fold's ``error`` is the fraction ``errors / n_test`` of its two counts; ``rules`` and
    ``literals`` are integers. Means over folds are then exact, so that equal mean errors compare
    equal (a float mean of rates with different fold sizes may differ in its last bit).
    """
    view = _learner_view(results)
    if quantity == "error":
        values = [Fraction(int(e), int(n)) for e, n in zip(view["errors"], view["n_test"])]
    else:
        values = [Fraction(int(v)) for v in view[quantity]]
    cells = {}
    for key, value in zip(zip(view["dataset"], view["learner"]), values):
        cells.setdefault(key, []).append(value)
    series = pd.Series({key: sum(v, Fraction(0)) / len(v) for key, v in cells.items()}, dtype=object)
    series.index = pd.MultiIndex.from_tuples(series.index, names=["dataset", "learner"])
    return series.unstack("learner")


def _mean(values):
    """Exact mean of a sequence of fractions."""
    values = list(values)
    return sum(values, Fraction(0)) / len(values)


# --------------------------------------------------------------------------------------------
# Choosing the reconstructed optimistic penalty on synthetic data (not on the benchmark)
# --------------------------------------------------------------------------------------------


def _synthetic_committee_data(n_samples, *, n_variables=12, n_rules=4, noise=0.1, seed=0):
    """Boolean data labelled by a random 2-class decision committee, with label noise.

    Each rule is a random monomial of 2-3 literals with vector (+1 for a random class, -1 for
    the other); ties go to class 0. ``noise`` flips that fraction of labels.

    Returns
    -------
    X : ndarray of shape (n_samples, n_variables), values 0/1
    y : ndarray of int
    """
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n_samples, n_variables)).astype(float)
    vote = np.zeros(n_samples)
    for _ in range(n_rules):
        variables = rng.choice(n_variables, size=rng.integers(2, 4), replace=False)
        signs = rng.integers(0, 2, size=len(variables))
        fires = np.all(X[:, variables] == signs[None, :], axis=1)
        vote += np.where(fires, rng.choice([-1.0, 1.0]), 0.0)
    y = (vote > 0).astype(int)
    flip = rng.random(n_samples) < noise
    return X, np.where(flip, 1 - y, y)


def choose_optimistic_strength(
    strengths=(0.0, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0), *, n_problems=20, seed=0, n_jobs=1
):
    """Mean test error and size of WIDC(o) for each penalty constant on synthetic DC problems.

    Each problem is 300 training and 2000 test examples from :func:`_synthetic_committee_data`
    (10% noise). The recommended constant follows the one-standard-error rule of Breiman et al.
    (1984) for pruning strengths: the largest constant whose mean error is within one standard
    error (over the problems) of the lowest mean error. The lowest mean error is found on
    integer error counts (ties: the smallest constant); "within" includes equality.

    Parameters
    ----------
    strengths : sequence of float
    n_problems : int, default=20
    seed : int, default=0
        Problem ``k`` is drawn with seed ``seed + k``.
    n_jobs : int, default=1
        Problems are independent items of :func:`companion.evaluation.parallel_map` (1: serial);
        the result does not depend on it.

    Returns
    -------
    table : pandas.DataFrame
        Index ``strength``; columns ``error %``, ``se %``, ``rules``, ``literals``.
    recommended : float
    """
    parts = parallel_map(
        partial(_strength_problem, tuple(strengths)), [seed + problem for problem in range(n_problems)], n_jobs=n_jobs
    )
    rows = [row for part in parts for row in part]
    grouped = pd.DataFrame(rows).groupby("strength")
    table = grouped[["error", "rules", "literals"]].mean().rename(columns={"error": "error %"})
    # Every problem has the same test size, so the mean error is the total error count over all
    # test examples: one division of integers, the same float for the same count (exact ties).
    wrong = grouped["wrong"].sum()
    table["error %"] = 100 * wrong / grouped["n_test"].sum()
    table.insert(1, "se %", grouped["error"].std(ddof=1) / np.sqrt(n_problems))
    best = wrong.idxmin()  # least integer error count; ties: the smallest strength
    # One-SE threshold: a float (the standard error has a square root); error rates with equal
    # counts are equal floats, so ties with the best are within.
    within = table.index[table["error %"] <= table.loc[best, "error %"] + table.loc[best, "se %"]]
    return table, float(max(within))


@paper_models
def _strength_problem(strengths, problem_seed):
    """Rows of :func:`choose_optimistic_strength` for the synthetic problem drawn with ``problem_seed``."""
    rows = []
    X, y = _synthetic_committee_data(2300, seed=problem_seed)
    grown = DecisionCommittee(pruning="none", categorical_features=np.arange(X.shape[1])).fit(X[:300], y[:300])
    # with_pruning("optimistic", ...) for each strength, as one sweep (with_prunings).
    models = grown.with_prunings(X[:300], y[:300], [("optimistic", dict(optimistic_strength=s)) for s in strengths])
    for strength, model in zip(strengths, models):
        wrong = int(np.count_nonzero(model.predict(X[300:]) != y[300:]))
        rows.append(dict(strength=strength, error=100 * wrong / len(y[300:]), rules=model.n_rules_,
                         literals=model.n_literals_, wrong=wrong, n_test=len(y[300:])))
    return rows


@paper_models
def _polarity_fold(item):
    """Rows of :func:`polarity_ablation` for one ``(data set, train, test)`` item."""
    data, train, test = item
    rows = []
    for polarity in ("le", "gt"):
        grown = DecisionCommittee(pruning="none", categorical_features=data.nominal, numeric_literal=polarity)
        grown.fit(data.X[train], data.y[train])
        pruned = grown.with_pruning("pessimistic", data.X[train], data.y[train])
        for learner, model in (("WIDC()", grown), ("WIDC(p)", pruned)):
            error = np.mean(model.predict(data.X[test]) != data.y[test]) * 100
            rows.append(dict(dataset=data.name, learner=learner, polarity=polarity, error=error))
    return rows


def polarity_ablation(names=None, *, n_splits=10, seed=0, max_folds=None, n_jobs=1):
    """WIDC() and WIDC(p) errors with ``numeric_literal="le"`` (our default) and ``"gt"``.

    The first literal of a monomial and its negation always tie on Z, so the convention of which
    side of a numeric cut is the positive literal (ties go to it) can change the committee. Only
    data sets with a numeric attribute are run; same folds as :func:`run`.

    ``n_jobs`` (default 1, serial): every (data set, fold) is an independent item of
    :func:`companion.evaluation.parallel_map`; the result does not depend on it.

    Parameters
    ----------
    names : sequence of str, optional
        Keys of :data:`BENCHMARK_SETS` (default: all).
    n_splits : int, default=10
        Folds.
    seed : int, default=0
        Seed of the fold split (and of the learners).
    max_folds : int, optional
        Only the first folds (the notebook's fast run).
    n_jobs : int, default=1
        Workers of :func:`companion.evaluation.parallel_map`; the result does not depend on it.

    Returns
    -------
    pandas.DataFrame
        Index data set; columns ``(learner, polarity)`` of mean test error (%).
    """
    names = list(BENCHMARK_SETS) if names is None else list(names)
    items = []
    for name in names:
        data = load_benchmark_set(name)
        if data.nominal.all():
            continue
        folds = stratified_folds(data.y, n_splits=n_splits, seed=seed)[:max_folds]
        items += [(data, train, test) for train, test in folds]
    frame = pd.DataFrame([row for part in parallel_map(_polarity_fold, items, n_jobs=n_jobs) for row in part])
    return frame.groupby(["dataset", "learner", "polarity"], sort=False)["error"].mean().unstack(["learner", "polarity"])


# --------------------------------------------------------------------------------------------
# Paper-vs-ours numbers, the partition illustration and the figures
# --------------------------------------------------------------------------------------------


def paper_comparison(results: pd.DataFrame, stand_in: str = "CN2") -> pd.DataFrame:
    """The paper's numeric statements that have a like-for-like number of ours.

    ``vote0_literal_ratio`` (CN2-POE literals / WIDC(o) literals on Vote0) is computed with
    ``stand_in``, which must be a CN2 (default: Orange3's ordered ``CN2``, the decision-list
    learner of the paper's family; CN2-POE itself is not available). Echo is not among our data
    sets, so its rows stay NaN. The number of domains is not a comparison (the paper's 31 vs the
    17 we have): it is in :func:`paper_context`, not here.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame (with :func:`peer_results`' and :func:`majority_results`', concatenated).
    stand_in : str, default="CN2"
        The CN2 run standing in for CN2-POE.

    Returns
    -------
    pandas.DataFrame
        :func:`companion.evaluation.comparison_table`'s columns.
    """
    from companion.evaluation import comparison_table
    from companion.paper_numbers import paper_table

    if not str(stand_in).startswith("CN2"):
        raise ValueError(f"stand_in must be a CN2 learner (the paper compares with CN2-POE), got {stand_in!r}")
    claims = paper_table("04_claims").set_index("key")
    numeric = claims["value"].dropna().astype(float).drop("n_domains")
    literals = _per_dataset(results, "literals")
    ours = pd.Series(np.nan, index=numeric.index)
    ours["n_folds"] = results.groupby("dataset")["fold"].nunique().max()
    if "votes" in literals.index and stand_in in literals.columns:
        ours["vote0_literal_ratio"] = literals.loc["votes", stand_in] / literals.loc["votes", "WIDC(o)"]
    return comparison_table(numeric, ours)


def paper_context(results: pd.DataFrame) -> pd.DataFrame:
    """What the paper ran and what we ran, side by side as text (not a paper/ours/difference row).

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame (with :func:`peer_results`' and :func:`majority_results`', concatenated).

    Returns
    -------
    pandas.DataFrame
    """
    from companion.paper_numbers import paper_table

    claims = paper_table("04_claims").set_index("key")
    learners = sorted(set(_learner_view(results)["learner"]) - set(WIDC_LEARNERS.values()))
    return pd.DataFrame(
        {"paper": [f"{int(claims.loc['n_domains', 'value'])} domains (mostly UCI; the list is in the lost Table 1)",
                   "C4.5, CN2-POE (and other DT/DL/DC learners in Table 1)"],
         "ours": [f"{results['dataset'].nunique()} UCI data sets we vendor",
                  ", ".join(learners)]},
        index=pd.Index(["domains", "other learners"], name="context"))


def pattern_cells(n_monomials: int) -> tuple[int, int]:
    """Cells realised by ``t`` monomials ``x_1 .. x_t`` on ``{0,1}^t`` versus a tree with ``t`` leaves.

    Returns ``(cells of the committee, cells of the tree)``: ``2^t`` satisfaction patterns against
    ``t`` leaves (paper, "Partition Boosting": O(2^t) subsets with t monomials, t with a tree).

    Parameters
    ----------
    n_monomials : int
        ``t``.

    Returns
    -------
    committee, tree : int
    """
    from companion.widc import pattern_codes

    points = np.array(list(np.ndindex(*(2,) * n_monomials)), dtype=bool)
    committee = len(np.unique(pattern_codes(points)))
    # The tree "x1 ? leaf : (x2 ? leaf : ...)" has t leaves: one per first true variable, or none.
    first_true = np.where(points.any(axis=1), points.argmax(axis=1), n_monomials - 1)
    return committee, len(np.unique(first_true))


def plot_partitions():
    """Figure: a 3-leaf tree's partition beside the cells of 3 overlapping monomials (boxes).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    from companion.widc import pattern_codes

    boxes = [(0.05, 0.1, 0.55, 0.6), (0.35, 0.3, 0.9, 0.9), (0.2, 0.45, 0.75, 0.95)]  # x0, y0, x1, y1
    grid = np.linspace(0, 1, 301)
    gx, gy = np.meshgrid(grid, grid)
    inside = np.stack([(gx >= a) & (gx <= c) & (gy >= b) & (gy <= d) for a, b, c, d in boxes], axis=-1)
    cells = pattern_codes(inside.reshape(-1, 3)).reshape(gx.shape)
    tree_cells = np.where(gx < 0.35, 0, np.where(gy < 0.45, 1, 2))
    fig, axes = plt.subplots(1, 2, figsize=(9, 4))
    for ax, labels, title in (
        (axes[0], tree_cells, f"decision tree, 3 leaves: {len(np.unique(tree_cells))} cells"),
        (axes[1], cells, f"decision committee, 3 monomials: {len(np.unique(cells))} cells"),
    ):
        ax.imshow(labels, origin="lower", extent=(0, 1, 0, 1), cmap="tab20", alpha=0.6)
        ax.set_title(title, fontsize=10)
        ax.set_xticks([])
        ax.set_yticks([])
    for k, (a, b, c, d) in enumerate(boxes):
        axes[1].add_patch(Rectangle((a, b), c - a, d - b, fill=False, lw=2, color=f"C{k}"))
        axes[1].text(a + 0.01, b + 0.01, f"$t_{k + 1}$", color=f"C{k}", fontsize=12)
    axes[0].axvline(0.35, color="k", lw=2)
    axes[0].plot([0.35, 1], [0.45, 0.45], color="k", lw=2)
    fig.tight_layout()
    return fig


def plot_z_trace(model, title=""):
    """Figure: Z (paper eq. (1)) after every accepted literal, monomial boundaries dotted.

    Parameters
    ----------
    model : DecisionCommittee
        Fitted; its ``z_trace_`` is drawn.
    title : str, default=""
        The axes' title.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.2))
    trace = np.asarray(model.z_trace_)
    ax.plot(np.arange(len(trace)), trace, marker="o", ms=3)
    for boundary in np.cumsum([len(m) for m in model.grown_monomials_]):
        ax.axvline(boundary, color="grey", lw=0.5, ls=":")
    ax.set_xlabel("literals added (dotted: a monomial is closed)")
    ax.set_ylabel("Z over the partition")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig


def plot_size_vs_error(results: pd.DataFrame, learners=None, *, joined=("J48", "CN2")):
    """Figure: literals against test error (%) per data set, one marker per learner (log size axis).

    ``learners``: the learners drawn (default: every learner of ``results`` with literals; the
    majority class, of size 0, is drawn as a dashed tick at its error on each data set's WIDC(p)
    size). Every WIDC(p) point is labelled with its data set, and grey segments join it to the
    learners of ``joined`` on the same data set.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame (with :func:`peer_results`' and :func:`majority_results`', concatenated).
    learners : sequence of str, optional
        The learners drawn.
    joined : tuple of str, default=("J48", "CN2")
        Learners joined to WIDC(p) by segments.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    error = _per_dataset(results, "error") * 100
    literals = _per_dataset(results, "literals")
    learners = [l for l in (error.columns if learners is None else learners) if l in error.columns]
    drawn = [l for l in learners if l != MAJORITY]
    fig, ax = plt.subplots(figsize=(9, 6))
    markers = "oDs^v<>PX*hp"
    if "WIDC(p)" in error.columns:
        for other in [o for o in joined if o in error.columns]:
            for name in error.index:
                ax.plot([max(literals.loc[name, "WIDC(p)"], 0.5), max(literals.loc[name, other], 0.5)],
                        [error.loc[name, "WIDC(p)"], error.loc[name, other]], color="grey", lw=0.4, zorder=0)
    for k, learner in enumerate(drawn):
        ax.scatter(literals[learner].clip(lower=0.5), error[learner], label=learner, marker=markers[k % len(markers)],
                   s=30, alpha=0.85, color=f"C{k % 10}")
    if "WIDC(p)" in error.columns:
        for name in error.index:
            ax.annotate(name, (max(literals.loc[name, "WIDC(p)"], 0.5), error.loc[name, "WIDC(p)"]), fontsize=7,
                        xytext=(3, 3), textcoords="offset points")
        if MAJORITY in learners:
            ax.scatter(literals["WIDC(p)"].clip(lower=0.5), error[MAJORITY], marker="_", s=120, color="k",
                       label=f"{MAJORITY} (at WIDC(p)'s size)")
    ax.set_xscale("log")
    ax.set_xlabel("literals (mean over folds; log scale; 0 drawn at 0.5)")
    ax.set_ylabel("test error % (10-fold CV)")
    ax.set_title("one point per (data set, learner); labels at WIDC(p); grey: WIDC(p) to " + ", ".join(joined),
                 fontsize=9)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------------------------
# The paper's own peers: C4.5 (Weka J48), RIPPER (Weka JRip), CN2 (Orange3), run on our folds
# --------------------------------------------------------------------------------------------

#: The peers run by ``peers/widc_peers.py`` (committed as data in ``data/widc_peers``): C4.5,
#: RIPPER, CN2 with its significance test (Orange's ``default_alpha = 0.05``), the same CN2 with
#: the test off (Orange's default ``alpha = 1``: a variant, not CN2 as published) and unordered
#: CN2 (significance test on, rules' class distributions counted on the whole training set, as
#: Clark & Boswell 1991 classify).
PEER_LEARNERS = ("J48", "JRip", "CN2", "CN2 (alpha=1)", "CN2-unordered")


def fold_vector(y, *, n_splits=10, seed=0) -> np.ndarray:
    """Test fold of every row under :func:`companion.evaluation.stratified_folds` (as :func:`run`).

    Parameters
    ----------
    y : array-like
        Labels.
    n_splits : int, default=10
        Folds.
    seed : int, default=0
        Seed of the fold split (and of the learners).

    Returns
    -------
    numpy.ndarray of int
    """
    folds = np.full(len(y), -1, dtype=np.int64)
    for k, (_, test) in enumerate(stratified_folds(y, n_splits=n_splits, seed=seed)):
        folds[test] = k
    return folds



#: The fold seeds whose peer results are committed (``peers/widc_peers.py`` ``SEEDS``); the seed
#: variants of the claims (:func:`seed_variants`) are taken from them, so that every variant has
#: its peers without Java or Orange.
SEED_VARIANTS = (0, 1, 2, 3, 4)
#: How many other fold seeds re-decide every claim (the variants ``seed=s``).
N_SEED_VARIANTS = 4
#: The Python with Orange3 that runs ``peers/widc_peers.py run`` (environment variable
#: ``COMPANION_PEERS_PYTHON``; see ``peers/README.md``).
PEERS_PYTHON_ENV = "COMPANION_PEERS_PYTHON"
_DEFAULT_PEERS_PYTHON = "/work/peers-venv/bin/python"
_PEER_COLUMNS = ["dataset", "method", "seed", "fold", "errors", "n_test", "rules", "literals"]


def seed_variants(seed: int) -> tuple:
    """The fold seeds of the claims' seed variants for a main seed.

    The first :data:`N_SEED_VARIANTS` of :data:`SEED_VARIANTS` other than ``seed``.

    Parameters
    ----------
    seed : int
        The main protocol's fold seed.

    Returns
    -------
    tuple of int

    Examples
    --------
    >>> seed_variants(0), seed_variants(11)
    ((1, 2, 3, 4), (0, 1, 2, 3))
    """
    return tuple(s for s in SEED_VARIANTS if s != seed)[:N_SEED_VARIANTS]


def peers_command(seed: int, names=None, max_folds=None) -> str:
    """The commands that run the peers on the folds of ``seed`` (what a reader runs by hand).

    Parameters
    ----------
    seed : int
        Fold seed.
    names : sequence of str, optional
        Data sets (default: all).
    max_folds : int, optional
        Only the first folds.

    Returns
    -------
    str
    """
    only = f" --only {' '.join(names)}" if names else ""
    folds = f" --max-folds {max_folds}" if max_folds is not None else ""
    # the Python with Orange3 is named by its variable, not by this machine's path
    return (f".venv/bin/python peers/widc_peers.py export --seeds {seed}{only} && "
            f'"${PEERS_PYTHON_ENV}" peers/widc_peers.py run --seeds {seed}{only}{folds} --jobs 2')


def _peers_python() -> str:
    import os

    return os.environ.get(PEERS_PYTHON_ENV, _DEFAULT_PEERS_PYTHON)


def peers_environment() -> bool:
    """Whether the peers can be run here: ``java``, Weka's jar and a Python with Orange3.

    Returns
    -------
    bool
    """
    import shutil
    from pathlib import Path

    return bool(shutil.which("java")) and Path("/usr/share/java/weka.jar").is_file() and Path(_peers_python()).is_file()


def _live_folder(seed: int):
    from companion.paths import ROOT

    return ROOT / "build" / "widc_peers" / f"seed{seed}"


def _run_peers_live(seed, names, max_folds, typings):
    """Run ``peers/widc_peers.py`` on the folds of ``seed`` into ``build/widc_peers/seed<s>/`` (never the tree)."""
    import subprocess
    import sys

    from companion.paths import ROOT

    folder = _live_folder(seed)
    work = folder / "work"
    script = str(ROOT / "peers" / "widc_peers.py")
    common = ["--seeds", str(seed), "--only", *names, "--out", str(folder), "--build", str(work)]
    subprocess.run([sys.executable, script, "export", *common, "--typings", *typings], check=True,
                   capture_output=True, text=True)
    folds = ["--max-folds", str(max_folds)] if max_folds is not None else []
    subprocess.run([_peers_python(), script, "run", *common, *folds, "--jobs", "2"], check=True,
                   capture_output=True, text=True)


def _peer_source(seed, names, max_folds, typing, run_missing):
    """``(results, folds or None, provenance)`` holding the peers of every data set of ``names``
    on the folds of ``seed`` (the committed ones, or those run here into ``build/``), or None."""
    needed = set(range(10 if max_folds is None else min(max_folds, 10)))

    def covers(results):
        if "seed" not in results.columns:
            results = results.assign(seed=0)
        for name in names:
            run_typing = typing if typing == "documented" or name in DOCUMENTED_NOMINAL else "documented"
            rows = results[(results["seed"] == seed) & (results["dataset"] == name) & (results["typing"] == run_typing)]
            if rows.empty or not needed <= set(rows["fold"]):
                return False
        return True

    committed = datasets.load_peers("widc")
    if covers(committed.results):
        return committed
    folder = _live_folder(seed)

    def live():
        if not (folder / "results.csv").is_file():
            return None
        results = pd.read_csv(folder / "results.csv")
        provenance = pd.read_csv(folder / "provenance.csv").set_index("key")["value"]
        return datasets.PeerResults(results, None, provenance) if covers(results) else None

    found = live()
    if found is None and run_missing and peers_environment():
        _run_peers_live(seed, names, max_folds, ("documented", "numeric") if typing == "numeric" else ("documented",))
        found = live()
    return found


def peer_results(names=None, *, n_splits=10, seed=0, max_folds=None, typing="documented",
                 run_missing=True) -> pd.DataFrame:
    """The peers' fold results in :func:`run`'s tidy layout, after checking the folds.

    The committed results (``data/widc_peers``) hold the fold seeds of :data:`SEED_VARIANTS`.
    For another seed, the results run earlier into ``build/widc_peers/seed<s>/`` are read; if
    there are none and the peers' environment is present (:func:`peers_environment`), the peers
    are run there first (``peers/widc_peers.py``, the published settings); otherwise the frame is
    empty and the claims that need the peers are not evaluated (:func:`peers_command` says how to
    run them). For every data set the fold of every row is recomputed exactly as :func:`run` does
    and its hash compared with the one the peers recorded (and, at seed 0, with the committed
    ``folds.csv``): a ``ValueError`` names the first data set that differs. The nominal
    attributes the peers received are compared with those of :func:`load_benchmark_set` under
    ``typing``.

    Parameters
    ----------
    names : list of str, optional
        Data sets (default: every data set of :data:`BENCHMARK_SETS`).
    n_splits : int, default=10
        Folds; the peers ran on 10 (another number gives an empty frame).
    seed : int, default=0
        The fold seed.
    max_folds : int, optional
        Keep only the first ``max_folds`` folds (the notebook's fast mode).
    typing : {"documented", "numeric"}, default="documented"
        The typing of :func:`load_benchmark_set` (and :class:`Config`) to pair with. The peers
        were run under ``"numeric"`` only where it differs from ``"documented"``; elsewhere
        the documented run is returned for both.
    run_missing : bool, default=True
        Run the peers into ``build/`` when their results for ``seed`` are missing and the
        environment is present.

    Returns
    -------
    pandas.DataFrame
        Tidy, as :func:`run`'s frame (the two concatenate into one frame): columns ``dataset,
        method, seed, fold, errors, n_test, rules, literals`` (``method``: the peer; ``seed``:
        that of the fold split); empty when the peers did not run on these folds.
    """
    if typing not in TYPINGS:
        raise ValueError(f"typing must be one of {TYPINGS}, got {typing!r}")
    unknown = [n for n in (names or ()) if n not in BENCHMARK_SETS]
    if unknown:
        raise ValueError(f"no peer results for {unknown}: not a data set of BENCHMARK_SETS")
    names = list(BENCHMARK_SETS) if names is None else list(names)
    empty = pd.DataFrame({c: pd.Series(dtype=object if c in ("dataset", "method") else np.int64)
                          for c in _PEER_COLUMNS})
    if n_splits != 10 or not names:
        return empty
    source = _peer_source(seed, names, max_folds, typing, run_missing)
    if source is None:
        return empty
    results, folds, provenance = source
    if "seed" not in results.columns:
        results = results.assign(seed=0)
    chosen = []
    for name in names:
        data = load_benchmark_set(name, typing=typing)
        ours = fold_vector(data.y, n_splits=n_splits, seed=seed)
        key = f"fold_sha256: {name}" if seed == 0 else f"fold_sha256: {name} (seed {seed})"
        if seed == 0 and folds is not None:
            committed = folds.loc[folds["dataset"] == name].sort_values("row")["fold"].to_numpy()
            if not np.array_equal(ours, committed):
                raise ValueError(f"the peers' folds of {name!r} differ from run's; rerun peers/widc_peers.py")
        if provenance.get(key) != fold_hash(ours):
            raise ValueError(f"the peers' folds of {name!r} (seed {seed}) differ from run's; rerun peers/widc_peers.py")
        here = results[(results["dataset"] == name) & (results["seed"] == seed)]
        run_typing = typing if (here["typing"] == typing).any() else "documented"
        nominal = " ".join(str(j) for j in np.flatnonzero(data.nominal)) or "none"
        if provenance.get(f"nominal columns: {name} ({run_typing})") != nominal:
            raise ValueError(f"the peers' nominal attributes of {name!r} differ from load_benchmark_set(typing="
                             f"{typing!r})'s; rerun peers/widc_peers.py")
        chosen.append(here[here["typing"] == run_typing])
    frame = pd.concat(chosen).copy()
    if max_folds is not None:
        frame = frame[frame["fold"] < max_folds]
    frame = frame.rename(columns={"learner": "method"})
    return check_tidy(frame[_PEER_COLUMNS].reset_index(drop=True))


def majority_results(names=None, *, n_splits=10, seed=0, max_folds=None) -> pd.DataFrame:
    """The majority-class predictor on :func:`run`'s folds, in the same tidy layout.

    On each fold the class most frequent in the training folds (the first in sorted order on a
    tie) is predicted for every test row; ``rules`` and ``literals`` are 0. The baseline every
    learner of :func:`run` and :func:`peer_results` should beat.

    Parameters
    ----------
    names : sequence of str, optional
        Keys of :data:`BENCHMARK_SETS` (default: all).
    n_splits : int, default=10
        Folds.
    seed : int, default=0
        Seed of the fold split (and of the learners).
    max_folds : int, optional
        Only the first folds (the notebook's fast run).

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset, method ("majority class"), seed, fold, errors, n_test, rules, literals``.
    """
    names = list(BENCHMARK_SETS) if names is None else list(names)
    rows = []
    for name in names:
        y = load_benchmark_set(name).y
        for fold, (train, test) in enumerate(stratified_folds(y, n_splits=n_splits, seed=seed)[:max_folds]):
            labels, counts = np.unique(y[train], return_counts=True)
            majority = labels[int(np.argmax(counts))]
            rows.append(dict(dataset=name, method="majority class", seed=seed, fold=fold,
                             errors=int(np.count_nonzero(y[test] != majority)), n_test=len(test), rules=0, literals=0))
    return check_tidy(pd.DataFrame(rows))


def peer_claims_table(results: pd.DataFrame, others=PEER_LEARNERS) -> pd.DataFrame:
    """Claim 3 ("no accuracy traded for simplicity") against each peer, paired over data sets.

    For WIDC(p) and WIDC(o) against each learner of ``others``: the mean over data sets of the
    error difference (points, exact fractions), win/tie/loss counts of the per-data-set mean
    errors and the median literal ratio other / WIDC. Only data sets where both learners ran are
    paired. A description, not a test: the tests are :func:`claims_family`'s (Holm-corrected).

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame (with :func:`peer_results`' and :func:`majority_results`', concatenated).
    others : tuple of str
        The peers.

    Returns
    -------
    pandas.DataFrame
        One row per (WIDC variant, other).
    """
    error = _exact_per_dataset(results, "error")
    literals = _exact_per_dataset(results, "literals")
    rows = []
    for widc in ("WIDC(p)", "WIDC(o)"):
        for other in [o for o in others if o in error.columns]:
            both = error[[widc, other]].dropna().index
            difference = [error.loc[n, widc] - error.loc[n, other] for n in both]
            ratio = statistics.median(literals.loc[n, other] / max(literals.loc[n, widc], 1) for n in both)
            rows.append({
                "WIDC": widc, "other": other, "data sets": len(both),
                "mean error difference (points)": float(_mean(difference) * 100),
                "wins/ties/losses": f"{sum(d < 0 for d in difference)}/{sum(d == 0 for d in difference)}/"
                                    f"{sum(d > 0 for d in difference)}",
                "median literal ratio other/WIDC": float(ratio),
            })
    return pd.DataFrame(rows)


def error_with_std(results: pd.DataFrame, learners=None) -> pd.DataFrame:
    """Per data set and learner, ``"mean ± std"`` of the fold test errors (%, one decimal).

    The standard deviation is over the folds (``ddof=1``), as :func:`summary_table`'s ``std %``.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame (with :func:`peer_results`' and :func:`majority_results`', concatenated).
    learners : sequence of str, optional
        Columns, in this order (default: all).

    Returns
    -------
    pandas.DataFrame
    """
    grouped = _learner_view(results).groupby(["dataset", "learner"], sort=False)["error"]
    mean = (grouped.mean() * 100).unstack("learner")
    std = (grouped.std(ddof=1) * 100).unstack("learner")
    learners = list(mean.columns) if learners is None else [l for l in learners if l in mean.columns]
    table = pd.DataFrame(index=mean.index)
    for learner in learners:
        table[learner] = [f"{m:.1f} ± {s:.1f}" if np.isfinite(m) else "" for m, s in zip(mean[learner], std[learner])]
    return table


def plot_paired_scatter(results: pd.DataFrame, widc="WIDC(p)", others=("J48", "CN2", "CN2-unordered", "JRip")):
    """Figure in the layout of the paper's Table 2: WIDC against each peer, one point per data set.

    Top row: mean test error (%), x = the peer, y = ``widc``; bottom row: literals (log scales).
    Points below the diagonal favour WIDC. Data sets are labelled.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame (with :func:`peer_results`' and :func:`majority_results`', concatenated).
    widc : str, default="WIDC(p)"
        The WIDC variant.
    others : tuple of str
        One column of panels per peer.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    error = _per_dataset(results, "error") * 100
    literals = _per_dataset(results, "literals")
    others = [o for o in others if o in error.columns]
    if not others:  # the peers did not run on these folds (peer_results is empty)
        fig, ax = plt.subplots(figsize=(4, 2))
        ax.axis("off")
        ax.text(0.5, 0.5, "no peer ran on these folds", ha="center", va="center")
        return fig
    fig, axes = plt.subplots(2, len(others), figsize=(3.4 * len(others), 6.8), squeeze=False)
    for k, other in enumerate(others):
        for row, (table, label, log) in enumerate(((error, "test error %", False), (literals, "literals", True))):
            ax = axes[row, k]
            pair = table[[other, widc]].dropna()
            x, y = pair[other].clip(lower=0.5 if log else None), pair[widc].clip(lower=0.5 if log else None)
            ax.scatter(x, y, s=14, color="C0")
            for name in pair.index:
                ax.annotate(name, (x[name], y[name]), fontsize=6, xytext=(2, 2), textcoords="offset points")
            low, high = min(x.min(), y.min()), max(x.max(), y.max())
            ax.plot([low, high], [low, high], color="grey", lw=0.8, ls="--")
            if log:
                ax.set_xscale("log")
                ax.set_yscale("log")
            ax.set_xlabel(f"{other}: {label}")
            ax.set_ylabel(f"{widc}: {label}")
            below = int((pair[widc] < pair[other]).sum())
            ax.set_title(f"{widc} vs {other}: below diagonal {below}/{len(pair)}", fontsize=8)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------------------------
# Optimistic pruning: sensitivity to c_KM on the benchmark folds; cells realised vs |LS|
# --------------------------------------------------------------------------------------------

#: Grid of the sensitivity curve (the synthetic selection's grid refined near 0).
SENSITIVITY_STRENGTHS = (0.0, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


@paper_models
def _sensitivity_fold(strengths, item, grown=None, *, with_growth=False):
    """Rows of :func:`optimistic_sensitivity` for one ``(data set, fold, train, test)`` item
    (``grown``: WIDC() grown on this fold, from a :class:`FoldMemo`; ``with_growth``: return
    ``(rows, grown)``)."""
    from companion.widc import literal_matrix, pattern_codes, satisfaction

    data, fold, train, test = item
    Xtr, ytr, Xte, yte = data.X[train], data.y[train], data.X[test], data.y[test]
    grown = _grow(data, train, {}, grown)
    sat = satisfaction(literal_matrix(Xtr, grown.variables_), grown.grown_monomials_)
    base = dict(dataset=data.name, fold=fold, n_train=len(train), grown_rules=len(grown.grown_monomials_),
                grown_cells=int(len(np.unique(pattern_codes(sat)))) if sat.shape[1] else 1)
    rows = []
    # with_pruning("optimistic", ...) for each strength, as one sweep (with_prunings).
    models = grown.with_prunings(Xtr, ytr, [("optimistic", dict(optimistic_strength=s)) for s in strengths])
    for strength, model in zip(strengths, models):
        rows.append(dict(base, strength=strength, errors=int(np.count_nonzero(model.predict(Xte) != yte)),
                         n_test=len(test), rules=model.n_rules_, literals=model.n_literals_,
                         cells=len(model.cell_counts_)))
    return (rows, grown) if with_growth else rows


def _sensitivity_task(strengths, task):
    """:func:`_sensitivity_fold` of ``(item, grown)``: its rows and the grown committee."""
    item, grown = task
    return _sensitivity_fold(strengths, item, grown, with_growth=True)


def optimistic_sensitivity(names=None, strengths=SENSITIVITY_STRENGTHS, *, n_splits=10, seed=0, max_folds=None,
                           n_jobs=1, memo: FoldMemo | None = None):
    """WIDC(o)'s test errors and sizes for each ``c_KM`` on :func:`run`'s folds.

    The committee is grown once per fold and pruned optimistically with each constant (the
    reconstructed Kearns-Mansour penalty, :func:`companion.widc.prune_optimistic`). Each row also
    records the number of cells (distinct satisfaction patterns) the grown committee realises on
    the training fold, beside ``|LS|`` (paper, "Partition Boosting": at most ``|LS|``, up to
    ``2^t``), and the cells of the pruned committee.

    Parameters
    ----------
    names : sequence of str, optional
        Keys of :data:`BENCHMARK_SETS` (default: all).
    strengths : tuple of float, default=:data:`SENSITIVITY_STRENGTHS`
        The constants ``c_KM``.
    n_splits : int, default=10
        Folds.
    seed : int, default=0
        Seed of the fold split (and of the learners).
    max_folds : int, optional
        Only the first folds (the notebook's fast run).
    n_jobs : int, default=1
        Workers of :func:`companion.evaluation.parallel_map`; the result does not depend on it.
    memo : FoldMemo, optional
        Shared with the other calls given it (:class:`FoldMemo`): a committee grown on one of
        these folds before is pruned, not regrown; the frame is the one a call without a memo gives.

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, fold, strength): ``errors``, ``n_test``, ``rules``, ``literals``,
        ``cells``, ``grown_rules``, ``grown_cells``, ``n_train``.
    """
    strengths = tuple(float(s) for s in strengths)
    if any(s < 0 for s in strengths) or not strengths:
        raise ValueError(f"strengths must be a non-empty sequence of non-negative numbers, got {strengths}")
    names = list(BENCHMARK_SETS) if names is None else list(names)
    items = []
    for name in names:
        data = load_benchmark_set(name)
        folds = stratified_folds(data.y, n_splits=n_splits, seed=seed)[:max_folds]
        items += [(data, fold, train, test) for fold, (train, test) in enumerate(folds)]
    # The committees are grown once per fold, shared with run's WIDC on the same folds (memo).
    memo = FoldMemo(limit=0) if memo is None else memo
    keys = [_growth_key(data, train, {}) for data, _, train, _ in items]
    parts = parallel_map(partial(_sensitivity_task, strengths),
                         [(item, memo.grown.get(key)) for item, key in zip(items, keys)], n_jobs=n_jobs)
    for key, (_, grown) in zip(keys, parts):
        memo.remember_growth(key, grown)
    return pd.DataFrame([row for part, _ in parts for row in part])


def sensitivity_summary(sensitivity: pd.DataFrame) -> pd.DataFrame:
    """Per ``c_KM``: mean over data sets of the mean test error (%), rules and literals.

    Also the number of data sets whose mean error is at most that of ``c_KM = 0`` (exact integer
    counts; every data set has the same folds for every constant).

    Parameters
    ----------
    sensitivity : pandas.DataFrame
        :func:`optimistic_sensitivity`'s table.

    Returns
    -------
    pandas.DataFrame
        One row per ``c_KM``.
    """
    per = sensitivity.groupby(["strength", "dataset"]).agg(errors=("errors", "sum"), n_test=("n_test", "sum"),
                                                           rules=("rules", "mean"), literals=("literals", "mean"))
    per["error %"] = 100 * per["errors"] / per["n_test"]
    zero = per.xs(0.0, level="strength")["errors"]
    table = per.groupby("strength")[["error %", "rules", "literals"]].mean()
    table["data sets no worse than c_KM=0"] = [
        int((per.xs(s, level="strength")["errors"] <= zero).sum()) for s in table.index
    ]
    return table


def cells_table(sensitivity: pd.DataFrame) -> pd.DataFrame:
    """Per data set: |LS|, grown rules t, the grown committee's cells, ``min(2^t, |LS|)``, WIDC(o)'s cells.

    |LS| is the mean training fold; WIDC(o) at ``c_KM = 0``; means over folds.

    Parameters
    ----------
    sensitivity : pandas.DataFrame
        :func:`optimistic_sensitivity`'s table.

    Returns
    -------
    pandas.DataFrame
        One row per data set.
    """
    first = sensitivity[sensitivity["strength"] == sensitivity["strength"].min()]
    table = first.groupby("dataset", sort=False).agg(**{
        "|LS|": ("n_train", "mean"), "grown rules t": ("grown_rules", "mean"),
        "cells (grown)": ("grown_cells", "mean"), "cells (WIDC(o))": ("cells", "mean")})
    bound = [float(np.mean([min(2.0 ** t, n) for t, n in zip(g["grown_rules"], g["n_train"])]))
             for _, g in first.groupby("dataset", sort=False)]
    table.insert(3, "min(2^t, |LS|)", bound)
    table["cells / |LS|"] = table["cells (grown)"] / table["|LS|"]
    return table


def plot_sensitivity(summary: pd.DataFrame, synthetic: pd.DataFrame | None = None):
    """Figure: error and literals against ``c_KM`` (benchmark mean; synthetic problems if given).

    Parameters
    ----------
    summary : pandas.DataFrame
        :func:`sensitivity_summary`.
    synthetic : pandas.DataFrame, optional
        :func:`choose_optimistic_strength`'s table.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(9, 3.4))
    x = np.asarray(summary.index, dtype=float)
    shown = np.where(x == 0, x[x > 0].min() / 2 if (x > 0).any() else 1e-3, x)
    axes[0].plot(shown, summary["error %"], marker="o", label="benchmark (mean over data sets)")
    axes[1].plot(shown, summary["literals"], marker="o", label="benchmark")
    if synthetic is not None:
        xs = np.asarray(synthetic.index, dtype=float)
        xs = np.where(xs == 0, shown.min(), xs)
        axes[0].errorbar(xs, synthetic["error %"], yerr=synthetic["se %"], marker="s", capsize=2,
                         label="synthetic DCs (± 1 se)")
        axes[1].plot(xs, synthetic["literals"], marker="s", label="synthetic DCs")
    for ax, label in zip(axes, ("test error %", "literals")):
        ax.set_xscale("log")
        ax.set_xlabel("c_KM (log scale; the leftmost point is c_KM = 0)")
        ax.set_ylabel(label)
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------------------------
# The paper's equivalences shown on data, and a committee read through its cells
# --------------------------------------------------------------------------------------------


def _boolean_view(data: BenchmarkSet):
    """0/1 indicators ``[A = a]`` of a nominal benchmark set (missing: every indicator 0)."""
    columns, names = [], []
    for j in range(data.X.shape[1]):
        for code, value in enumerate(data.category_names.get(j, [])):
            columns.append(data.X[:, j] == code)
            names.append(f"{data.feature_names[j]} = {value}")
    return np.column_stack(columns).astype(np.int64), names


@paper_models
def z_equivalences(name="votes", *, max_leaf_nodes=8, seed=0) -> pd.DataFrame:
    """The two partition facts of the paper's "Partition Boosting" section, on a real data set.

    1. A decision tree's leaves and the monomials of its leaf paths induce the same partition, so
       Z (eq. (1)) over the leaves equals Z over the satisfaction patterns of the monomials.
    2. A decision list partitions the sample by its first firing rule (plus the default); the
       same monomials read as a committee partition it by satisfaction pattern, which refines the
       list's partition, so Z is not larger (a refinement never increases eq. (1)).

    The tree is scikit-learn's CART on the 0/1 indicators ``[A = a]`` of the (nominal) data set;
    the monomials of item 2 are those WIDC() grows on the whole data set, in creation order.

    Parameters
    ----------
    name : str, default="votes"
        Key of :data:`BENCHMARK_SETS` (nominal).
    max_leaf_nodes : int, default=8
        Size of the tree.
    seed : int, default=0
        The tree's ``random_state``.

    Returns
    -------
    pandas.DataFrame
        Rows: partition; columns ``blocks`` and ``Z``.
    """
    from companion.widc import literal_matrix, pattern_codes, satisfaction, z_partition

    data = load_benchmark_set(name)
    if not data.nominal.all():
        raise ValueError(f"z_equivalences needs a nominal data set; {name!r} has numeric attributes")
    B, _ = _boolean_view(data)
    _, y = np.unique(data.y, return_inverse=True)
    c = int(y.max()) + 1
    tree = DecisionTreeClassifier(max_leaf_nodes=max_leaf_nodes, random_state=seed).fit(B, y)
    # Literal 2v is [indicator v = 1], 2v + 1 its negation (the left branch, indicator 0).
    monomials = [
        tuple(2 * v + (op == "<=") for v, op, _ in leaf.conditions) for leaf in tree_leaf_paths(tree)
    ]
    literals = np.empty((len(y), 2 * B.shape[1]), dtype=bool)
    literals[:, 0::2], literals[:, 1::2] = B == 1, B == 0
    sat = satisfaction(literals, monomials)
    weights = np.full(len(y), 1.0 / len(y))
    grown = DecisionCommittee(pruning="none", categorical_features=data.nominal).fit(data.X, data.y)
    sat_dc = satisfaction(literal_matrix(data.X, grown.variables_), grown.grown_monomials_)
    first = np.where(sat_dc.any(axis=1), sat_dc.argmax(axis=1), sat_dc.shape[1])
    t = sat_dc.shape[1]
    rows = {
        f"tree leaves ({len(monomials)}-leaf CART)": tree.apply(B),
        "satisfaction patterns of its leaf monomials": pattern_codes(sat),
        f"decision list: WIDC()'s {t} monomials in order (first firing rule, or default)": first,
        f"decision committee: the same {t} monomials (satisfaction patterns)": pattern_codes(sat_dc),
    }
    return pd.DataFrame({"blocks": [len(np.unique(v)) for v in rows.values()],
                         "Z": [z_partition(v, y, weights, c) for v in rows.values()]}, index=list(rows))


def committee_cells(model: DecisionCommittee, X, y) -> pd.DataFrame:
    """A fitted committee read through its cells on ``(X, y)``.

    A cell is a satisfaction pattern (the set of rules an example fires); every example of a cell
    gets the same summed vector ``S`` and so the same class. One row per non-empty cell: the
    rules fired (1-based, in ``to_text`` order), the examples and their classes, ``S``, the
    predicted class and the errors.

    Parameters
    ----------
    model : DecisionCommittee
        Fitted.
    X : array-like
        Examples.
    y : array-like
        Their labels.

    Returns
    -------
    pandas.DataFrame
    """
    from companion.widc import literal_matrix, satisfaction

    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    sat = satisfaction(literal_matrix(X, model.variables_), model.monomials_)
    predictions = model.predict(X)
    keys = [tuple(np.flatnonzero(row) + 1) for row in sat]
    rows = []
    for key in sorted(set(keys), key=lambda k: (len(k), k)):
        members = np.array([k == key for k in keys])
        S = model.vectors_[list(np.array(key) - 1)].sum(axis=0) if key else np.zeros(len(model.classes_), int)
        counts = {str(c): int(np.count_nonzero(y[members] == c)) for c in model.classes_}
        predicted = predictions[members][0]
        rows.append({"rules fired": ", ".join(map(str, key)) or "(none)", "examples": int(members.sum()),
                     **{f"n {c}": v for c, v in counts.items()},
                     "S": tuple(int(s) for s in S), "predicted": predicted,
                     "errors": int(np.count_nonzero(y[members] != predicted))})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------
# The paper's claims as a companion.claims family, and its protocol variants
# --------------------------------------------------------------------------------------------

#: "Without trading accuracy for simplicity": the points of error WIDC(p) may lose to a peer and
#: still not trade accuracy (one-sided non-inferiority margin), fixed from the paper's wording
#: before any result: two points is the margin the paper itself calls a win over CN2-POE on Echo
#: (``echo_error_advantage`` in ``paper_numbers/04_claims.csv``).
NON_INFERIORITY_POINTS = 2.0
#: The learners claim 3 is tested against: the paper's peers (C4.5 = J48; CN2-POE's family = CN2,
#: ordered and unordered), JRip, and the learners run here.
CLAIM_PEERS = ("J48", "CN2", "CN2-unordered", "JRip", "CART", "RIPPER", "PRISM")
#: The learners checked against the majority-class baseline.
BASELINE_CHECKED = ("WIDC(p)", "J48", "CN2", "CN2-unordered", "JRip")
#: The method name of :func:`majority_results`.
MAJORITY = "majority class"
#: The data set the paper excepts from its CN2-POE statement.
CN2POE_EXCEPTION = "votes"


def _substitute(results: pd.DataFrame, replacement: pd.DataFrame) -> pd.DataFrame:
    """``results`` with the rows of every (data set, method) pair of ``replacement`` replaced by its rows.

    How a protocol variant is built: re-run only what the variant changes (WIDC with the other
    polarity; the data sets whose typing differs) and substitute it into the main frame.
    """
    check_tidy(results), check_tidy(replacement)
    keys = set(zip(replacement["dataset"], replacement["method"]))
    kept = results[[key not in keys for key in zip(results["dataset"], results["method"])]]
    return check_tidy(pd.concat([kept, replacement[kept.columns.intersection(replacement.columns)]], ignore_index=True))


def _with_cn2(results: pd.DataFrame, cn2: str = "CN2") -> pd.DataFrame:
    """``results`` with the learner ``cn2`` (e.g. ``"CN2 (alpha=1)"``) named ``"CN2"``, the former ``"CN2"`` dropped."""
    check_tidy(results)
    if cn2 == "CN2":
        return results
    if cn2 not in set(results["method"]):
        raise ValueError(f"no learner {cn2!r} in the results")
    kept = results[results["method"] != "CN2"].copy()
    kept["method"] = kept["method"].replace({cn2: "CN2"})
    return check_tidy(kept.reset_index(drop=True))


def claims_data(results: pd.DataFrame, *, cn2: str = "CN2") -> dict:
    """What the measures (:data:`MEASURES`) read: exact per-data-set means, and the folds.

    ``results``: :func:`run`'s frame with :func:`peer_results`' and :func:`majority_results`'
    (concatenated). ``cn2`` is the CN2 run that plays ``"CN2"`` (:func:`_with_cn2`). Means are
    :class:`fractions.Fraction` (:func:`_exact_per_dataset`), so equal errors compare equal.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame (with :func:`peer_results`' and :func:`majority_results`', concatenated).
    cn2 : str, default="CN2"
        The CN2 run that plays ``"CN2"``.

    Returns
    -------
    dict
        ``error`` and ``literals``: frames indexed by data set, one column per learner (error
        in points); ``fold_error`` and ``fold_literals``: the same per ``(dataset, fold)``.
    """
    results = _with_cn2(results, cn2)
    error = _exact_per_dataset(results, "error").map(lambda v: v * 100 if isinstance(v, Fraction) else v)
    view = check_tidy(results)
    fold_error = {(d, int(f), m): Fraction(int(e), int(n)) * 100
                  for d, f, m, e, n in zip(view["dataset"], view["fold"], view["method"], view["errors"], view["n_test"])}
    fold_literals = {(d, int(f), m): Fraction(int(v))
                     for d, f, m, v in zip(view["dataset"], view["fold"], view["method"], view["literals"])}
    return {"error": error, "literals": _exact_per_dataset(results, "literals"),
            "fold_error": fold_error, "fold_literals": fold_literals}


def _pairs(data, quantity, a, b):
    """Per data set where both ran, ``(values of a, values of b)`` as lists of fractions; None if one is absent."""
    table = data[quantity]
    if a not in table.columns or b not in table.columns:
        return None
    both = [n for n in table.index if isinstance(table.loc[n, a], Fraction) and isinstance(table.loc[n, b], Fraction)]
    if not both:
        return None
    return [table.loc[n, a] for n in both], [table.loc[n, b] for n in both]


def _error_difference(data, a, b):
    pair = _pairs(data, "error", a, b)
    return None if pair is None else [x - y for x, y in zip(*pair)]


def _literal_pair(data, a, b):
    return _pairs(data, "literals", a, b)


def _fold_pairs(data, quantity, name, a, b):
    """On data set ``name``, per fold where both ran: ``(values of a, values of b)``; None if absent."""
    table = data[f"fold_{quantity}"]
    folds = sorted({f for d, f, _ in table if d == name})
    both = [f for f in folds if (name, f, a) in table and (name, f, b) in table]
    if not both:
        return None
    return [table[(name, f, a)] for f in both], [table[(name, f, b)] for f in both]


def _fold_difference(data, name, a, b):
    pair = _fold_pairs(data, "error", name, a, b)
    return None if pair is None else [x - y for x, y in zip(*pair)]


def variant_ranks(data, learner, quantity):
    """``(strict, joint, not)``: where ``learner`` alone has the least ``quantity``, ties, or not.

    Counted over the data sets, among the three WIDC variants.

    Parameters
    ----------
    data : dict
        :func:`claims_data`.
    learner : str
        A WIDC variant (:data:`WIDC_LEARNERS`).
    quantity : {"error", "literals"}

    Returns
    -------
    tuple of int, or None when a variant is missing
    """
    table = data[quantity]
    variants = list(WIDC_LEARNERS.values())
    if not set(variants) <= set(table.columns):
        return None
    strict = joint = worse = 0
    for n in table.index:
        mine, others = table.loc[n, learner], [table.loc[n, v] for v in variants if v != learner]
        if mine < min(others):
            strict += 1
        elif mine == min(others):
            joint += 1
        else:
            worse += 1
    return strict, joint, worse


def _strict_share(data, learner, quantity):
    """(data sets where ``learner`` alone is least in ``quantity`` among the WIDC variants, data sets)."""
    ranks = variant_ranks(data, learner, quantity)
    return None if ranks is None else (ranks[0], sum(ranks))


def _cn2poe_outcomes(data, widc="WIDC(p)", peer="CN2"):
    """Per data set but :data:`CN2POE_EXCEPTION`: does ``widc`` have strictly lower error *and* fewer literals?"""
    error = _pairs(data, "error", widc, peer)
    if error is None:
        return None
    names = [n for n in data["error"].index if n != CN2POE_EXCEPTION
             and isinstance(data["error"].loc[n, peer], Fraction) and isinstance(data["error"].loc[n, widc], Fraction)]
    table_e, table_l = data["error"], data["literals"]
    return {n: bool(table_e.loc[n, widc] < table_e.loc[n, peer] and table_l.loc[n, widc] < table_l.loc[n, peer])
            for n in names} or None


def _cn2poe_all(data):
    outcomes = _cn2poe_outcomes(data)
    if outcomes is None:
        return None
    losers = [n for n, ok in outcomes.items() if not ok]
    return (not losers, f"{len(outcomes) - len(losers)}/{len(outcomes)} data sets; not on "
            + (", ".join(losers) if losers else "none"))


def _cn2poe_share(data):
    outcomes = _cn2poe_outcomes(data)
    return None if outcomes is None else (sum(outcomes.values()), len(outcomes))


def _beats_majority(data, learner):
    """Exact check: ``learner``'s mean error is below the majority class's on every data set it ran on."""
    pair = _pairs(data, "error", learner, MAJORITY)
    if pair is None:
        return None
    names = [n for n in data["error"].index if isinstance(data["error"].loc[n, learner], Fraction)
             and isinstance(data["error"].loc[n, MAJORITY], Fraction)]
    table = data["error"]
    bad = [f"{n} ({'equal' if table.loc[n, learner] == table.loc[n, MAJORITY] else 'worse'}: "
           f"{float(table.loc[n, learner]):.1f} vs {float(table.loc[n, MAJORITY]):.1f} %)"
           for n in names if table.loc[n, learner] >= table.loc[n, MAJORITY]]
    return (not bad, f"below the majority class on {len(names) - len(bad)}/{len(names)} data sets"
            + (f"; not on {', '.join(bad)}" if bad else ""))


#: The data set of the paper's Echo statements (UCI echocardiogram): not among :data:`BENCHMARK_SETS`,
#: so its claims are not applicable here.
ECHO = "echo"


def _measures() -> dict:
    measures = {
        "widc_p_strictly_best": partial(_strict_share, learner="WIDC(p)", quantity="error"),
        "widc_p_vs_unpruned_error": partial(_error_difference, a="WIDC(p)", b="WIDC()"),
        "widc_p_vs_unpruned_literals": partial(_literal_pair, a="WIDC(p)", b="WIDC()"),
        "widc_o_strictly_smallest": partial(_strict_share, learner="WIDC(o)", quantity="literals"),
        "widc_o_vs_p_error": partial(_error_difference, a="WIDC(o)", b="WIDC(p)"),
        "cn2poe_all": _cn2poe_all,
        "cn2poe_share": _cn2poe_share,
        "vote0_error_o_vs_cn2": partial(_fold_difference, name=CN2POE_EXCEPTION, a="WIDC(o)", b="CN2"),
        "vote0_literals_o_vs_cn2": partial(_fold_pairs, quantity="literals", name=CN2POE_EXCEPTION, a="WIDC(o)",
                                           b="CN2"),
        "echo_error_p_vs_cn2": partial(_fold_difference, name=ECHO, a="WIDC(p)", b="CN2"),
        "echo_literals_p_vs_cn2": partial(_fold_pairs, quantity="literals", name=ECHO, a="WIDC(p)", b="CN2"),
    }
    for peer in CLAIM_PEERS:
        measures[f"error_vs_{peer}"] = partial(_error_difference, a="WIDC(p)", b=peer)
        measures[f"literals_vs_{peer}"] = partial(_literal_pair, a="WIDC(p)", b=peer)
    for learner in BASELINE_CHECKED:
        measures[f"beats_majority_{learner}"] = partial(_beats_majority, learner=learner)
    return measures


#: ``{measure key: callable(claims_data) -> values}``: what the registry
#: (``companion/experiments/registry/paper04.toml``) names; None when the learners a measure
#: compares did not run (the peers on folds they were not run on; Echo).
MEASURES = _measures()


def claims_family():
    """The registry's claims (``registry/paper04.toml``) with :data:`MEASURES`: a :mod:`companion.claims` family.

    The criteria, margins and tie rules are the registry's, fixed before any result: the
    paper's statements (central ones first, then the identities its unit tests check, then the
    rest of section *Experiments*), our checks, the sanity checks against the majority class and
    observations on the learners the paper did not run.

    Returns
    -------
    list of companion.claims.Claim
    """
    import companion.claims as C

    return C.family(C.load_registry("04"), MEASURES)


def claims_variants(everything: pd.DataFrame, *, numeric: pd.DataFrame | None = None,
                    polarity_gt: pd.DataFrame | None = None, cn2_variant: str | None = "CN2 (alpha=1)",
                    seeds: dict | None = None) -> dict:
    """The protocol variants of the claims, ``{name: frame}``, the main protocol first.

    Parameters
    ----------
    everything : pandas.DataFrame
        Main protocol: :func:`run` (documented typing, ``numeric_literal="le"``), the peers and
        the majority class, concatenated.
    numeric : pandas.DataFrame, optional
        Every learner re-run with ``typing="numeric"`` on the data sets whose typing differs;
        substituted (:func:`_substitute`) as the variant ``typing=numeric``. A peer that did not
        run under that typing is dropped from those data sets (never paired across typings).
    polarity_gt : pandas.DataFrame, optional
        WIDC re-run with ``numeric_literal="gt"``; substituted as the variant ``polarity=gt``.
    cn2_variant : str, optional
        The CN2 run that plays CN2 in the variant ``CN2 alpha=1`` (:func:`_with_cn2`; None or
        absent from ``everything``: no such variant).
    seeds : dict, optional
        ``{fold seed: frame}``: the main protocol on the folds of other seeds
        (:func:`seed_variants`), as the variants ``seed=s``.

    Returns
    -------
    dict
        ``{name: tidy frame}``: ``main``, then the variants given.
    """
    variants = {"main": check_tidy(everything)}
    if numeric is not None and len(numeric):
        base = everything
        for name in set(numeric["dataset"]):
            missing = set(PEER_LEARNERS) - set(numeric.loc[numeric["dataset"] == name, "method"])
            base = base[~((base["dataset"] == name) & base["method"].isin(missing))]
        variants["typing=numeric"] = _substitute(base, numeric)
    if polarity_gt is not None and len(polarity_gt):
        variants["polarity=gt"] = _substitute(everything, polarity_gt)
    if cn2_variant is not None and cn2_variant in set(everything["method"]):
        variants["CN2 alpha=1"] = _with_cn2(everything, cn2_variant)
    for seed, frame in (seeds or {}).items():
        variants[f"seed={seed}"] = check_tidy(frame)
    return variants


def claims_report(variants: dict):
    """Evaluate :func:`claims_family` on :func:`claims_variants`' frames (Holm within each origin and variant).

    Parameters
    ----------
    variants : dict
        :func:`claims_variants`.

    Returns
    -------
    companion.claims.ClaimsReport
    """
    import companion.claims as C

    return C.evaluate(claims_family(), {name: claims_data(frame) for name, frame in variants.items()})


def sensitivity_pivot(report) -> pd.DataFrame:
    """Verdict of every claim (rows) under every protocol variant (columns), from ``report.sensitivity``.

    Parameters
    ----------
    report : companion.claims.ClaimsReport
        :func:`claims_report`.

    Returns
    -------
    pandas.DataFrame
    """
    long = report.sensitivity
    table = long.pivot(index="id", columns="variant", values="verdict")
    return table.reindex(index=list(report.table["id"]), columns=list(dict.fromkeys(long["variant"])))


def polarity_table(results: pd.DataFrame, polarity_gt: pd.DataFrame) -> pd.DataFrame:
    """Mean test error (%) of WIDC() and WIDC(p) with ``[A <= theta]`` (``le``) and ``[A > theta]`` (``gt``).

    One row per data set of ``polarity_gt`` (the data sets with a numeric attribute); columns
    ``(learner, polarity)``, the layout of :func:`polarity_ablation`.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame (``numeric_literal="le"``).
    polarity_gt : pandas.DataFrame
        :func:`run`'s tidy frame with ``numeric_literal="gt"``.

    Returns
    -------
    pandas.DataFrame
    """
    columns = {}
    for learner in ("WIDC()", "WIDC(p)"):
        for polarity, frame in (("le", results), ("gt", polarity_gt)):
            columns[(learner, polarity)] = _per_dataset(frame, "error")[learner] * 100
    names = list(dict.fromkeys(_learner_view(polarity_gt)["dataset"]))
    table = pd.DataFrame(columns).reindex(names)
    table.columns = pd.MultiIndex.from_tuples(table.columns, names=["learner", "polarity"])
    table.index.name = "dataset"
    return table


def peer_tables(variants: dict, others=CLAIM_PEERS + (MAJORITY,)) -> pd.DataFrame:
    """:func:`peer_claims_table` of WIDC(p) under each protocol variant ``{name: frame}``, stacked with a ``variant`` column.

    Parameters
    ----------
    variants : dict
        :func:`claims_variants`.
    others : tuple of str, default=:data:`CLAIM_PEERS` + (:data:`MAJORITY`,)
        The peers.

    Returns
    -------
    pandas.DataFrame
    """
    parts = []
    for name, frame in variants.items():
        table = peer_claims_table(frame, others=others)
        parts.append(table[table["WIDC"] == "WIDC(p)"].drop(columns="WIDC").assign(variant=name))
    table = pd.concat(parts, ignore_index=True)
    return table[["variant"] + [c for c in table.columns if c != "variant"]]


def numeric_typing_sets(names) -> list:
    """The data sets of ``names`` whose ``typing="numeric"`` differs from the documented typing.

    Parameters
    ----------
    names : sequence of str
        Keys of :data:`BENCHMARK_SETS`.

    Returns
    -------
    list of str
    """
    return [n for n in names if n in DOCUMENTED_NOMINAL]


def numeric_attribute_sets(names) -> list:
    """The data sets of ``names`` with a numeric attribute (documented typing): those the polarity can change.

    Parameters
    ----------
    names : sequence of str
        Keys of :data:`BENCHMARK_SETS`.

    Returns
    -------
    list of str
    """
    return [n for n in names if not load_benchmark_set(n).nominal.all()]


def seed_runs(config: Config, seeds, *, n_jobs=1, memo: FoldMemo | None = None) -> dict:
    """The main protocol on the folds of other seeds: ``{seed: frame}`` for :func:`claims_variants`.

    Each frame is :func:`run` of WIDC (``config`` with that fold seed and ``others=()``), the
    peers on those folds (:func:`peer_results`; empty where they did not run) and the majority
    class, concatenated, as the main frame is. CART, PRISM and RIPPER are not re-run: they enter
    only observations, which carry no verdict to keep or lose (their rows are "not evaluated"
    under the seed variants).

    Parameters
    ----------
    config : Config
        The main protocol's configuration.
    seeds : sequence of int
        Fold seeds (:func:`seed_variants`).
    n_jobs : int, default=1
        Workers of :func:`run`.
    memo : FoldMemo, optional
        Handed to :func:`run` (:class:`FoldMemo`).

    Returns
    -------
    dict
    """
    frames = {}
    for seed in seeds:
        other = replace(config, seed=seed, others=())
        frames[seed] = pd.concat([
            run(other, n_jobs=n_jobs, memo=memo),
            peer_results(list(config.datasets), n_splits=config.n_splits, seed=seed, max_folds=config.max_folds),
            majority_results(config.datasets, n_splits=config.n_splits, seed=seed, max_folds=config.max_folds),
        ], ignore_index=True)
    return frames


# --------------------------------------------------------------------------------------------
# Generated prose: every sentence of notebook 04 that states one of our numbers, directions or
# verdicts is one of these templates rendered from the results (companion.prose.render)
# --------------------------------------------------------------------------------------------

#: The notebook's prose templates (:func:`companion.prose.render`), filled by :func:`prose`.
TEMPLATES = {
    "strength": (
        "The one-standard-error rule picks $c_{{KM}} = {recommended:g}$ on the synthetic problems"
        "{recommended:sign (negative)|, which removes the penalty term|, which keeps a penalty term}; the benchmark "
        "runs WIDC(o) with that constant. The benchmark curve below is shown, not used to choose."
    ),
    "cells": (
        "Over the {n:plural data set}, a grown committee of $t$ rules realises a median {per_rule:.1f} cells "
        "per rule (a tree with $t$ leaves realises exactly $t$), between {low:pct.0} and {high:pct.0} of "
        "$\\min(2^t, |LS|)$ (median {median:pct.0}); the largest share of $|LS|$ is {top_share:pct.0} "
        "({top_name}). Pruned by WIDC(o), a committee realises a median {pruned:.1f} cells."
    ),
    "committee_cells": (
        "{rules:plural rule} realise {cells:plural non-empty cell} of the {possible} possible on "
        "{examples:plural example}; the training errors ({errors}) sit in {error_cells:plural cell}."
    ),
    "ranks": (
        "{learner} alone has the least {quantity} of the three variants on {strict:plural data set}, ties for "
        "it on {joint} and does not have it on {worse}."
    ),
    "ranks_seeds": "Under the other fold seeds its strict bests range from {low} to {high} of {n}.",
    "seeds": (
        "Every claim is re-decided on the folds of {seeds:plural other seed} ({names:list}); "
        "{flipping:plural claim} change verdict under at least one of them ({ids:list}) and are marked not robust."
    ),
    "seeds_none": (
        "Every claim is re-decided on the folds of {seeds:plural other seed} ({names:list}); no verdict changes "
        "under any of them."
    ),
    "peers_missing": (
        "{peers:list} did not run on the folds of {seeds:list}: the claims that need them are **not "
        "evaluated** there (not run for this seed). To run them: `{command}`."
    ),
    "peers_present": "The peers ran on the folds of every seed used here ({seeds:list}).",
}


def prose(name: str, **values):
    """Render template ``name`` of :data:`TEMPLATES` with ``values`` (:func:`companion.prose.render`).

    Parameters
    ----------
    name : str
        A key of :data:`TEMPLATES`.
    **values
        The template's fields.

    Returns
    -------
    companion.prose.Markdown
    """
    from companion.prose import render

    if name not in TEMPLATES:
        raise KeyError(f"prose: no template {name!r}; known {sorted(TEMPLATES)}")
    return render(TEMPLATES[name], **values)


def strength_prose(recommended: float):
    """:data:`TEMPLATES` ``strength``: the constant the 1-SE rule picked.

    Parameters
    ----------
    recommended : float
        :func:`choose_optimistic_strength`'s pick.

    Returns
    -------
    companion.prose.Markdown
    """
    return prose("strength", recommended=float(recommended))


def cells_prose(cells: pd.DataFrame):
    """:data:`TEMPLATES` ``cells``: what :func:`cells_table` shows, in words.

    Parameters
    ----------
    cells : pandas.DataFrame
        :func:`cells_table`.

    Returns
    -------
    companion.prose.Markdown
    """
    grown = cells[cells["grown rules t"] > 0]
    of_bound = grown["cells (grown)"] / grown["min(2^t, |LS|)"]
    share = cells["cells / |LS|"]
    return prose("cells", n=len(cells), per_rule=float((grown["cells (grown)"] / grown["grown rules t"]).median()),
                 low=float(of_bound.min()), high=float(of_bound.max()), median=float(of_bound.median()),
                 top_share=float(share.max()), top_name=str(share.idxmax()),
                 pruned=float(cells["cells (WIDC(o))"].median()))


def committee_cells_prose(model: DecisionCommittee, cells: pd.DataFrame):
    """:data:`TEMPLATES` ``committee_cells``: a committee's cells (:func:`committee_cells`) in words.

    Parameters
    ----------
    model : DecisionCommittee
        The fitted committee.
    cells : pandas.DataFrame
        :func:`committee_cells` of it.

    Returns
    -------
    companion.prose.Markdown
    """
    return prose("committee_cells", rules=int(model.n_rules_), cells=len(cells), possible=2 ** int(model.n_rules_),
                 examples=int(cells["examples"].sum()), errors=int(cells["errors"].sum()),
                 error_cells=int((cells["errors"] > 0).sum()))


def ranks_prose(variants: dict):
    """:data:`TEMPLATES` ``ranks`` for claims ``1`` and ``2b``: strict bests, ties and the rest.

    Under the main protocol and (in brackets) the range over the seed variants.

    Parameters
    ----------
    variants : dict
        :func:`claims_variants`.

    Returns
    -------
    companion.prose.Markdown
    """
    from companion.prose import Markdown

    lines = []
    for learner, quantity, word in (("WIDC(p)", "error", "error"), ("WIDC(o)", "literals", "literals")):
        ranks = {name: variant_ranks(claims_data(frame), learner, quantity) for name, frame in variants.items()
                 if name == "main" or name.startswith("seed=")}
        strict, joint, worse = ranks["main"]
        others = [r[0] for name, r in ranks.items() if name != "main" and r is not None]
        text = prose("ranks", learner=learner, quantity=word, strict=strict, joint=joint, worse=worse).data
        if others:
            text = " ".join([text, prose("ranks_seeds", low=min(others), high=max(others), n=sum(ranks["main"])).data])
        lines.append("* " + text)
    return Markdown("\n".join(lines))


def seeds_prose(report, seeds):
    """:data:`TEMPLATES` ``seeds``: which claims change verdict under another fold seed.

    Parameters
    ----------
    report : companion.claims.ClaimsReport
        :func:`claims_report`.
    seeds : sequence of int
        The other fold seeds.

    Returns
    -------
    companion.prose.Markdown
    """
    long = report.sensitivity
    seed_rows = long[long["variant"].str.startswith("seed=") & (long["role"] == "varies")
                     & (long["verdict"] != "n/a") & ~long["same_as_main"]]
    main = report.table.set_index("id")["verdict"]
    ids = [i for i in report.table["id"] if i in set(seed_rows["id"]) and main[i] != "n/a"]
    if not ids:
        return prose("seeds_none", seeds=len(seeds), names=[f"seed={s}" for s in seeds])
    return prose("seeds", seeds=len(seeds), names=[f"seed={s}" for s in seeds], flipping=len(ids), ids=ids)


def peers_prose(frames: dict, names, *, max_folds=None):
    """:data:`TEMPLATES` ``peers_missing`` (or ``peers_present``): the fold seeds whose peers did not run.

    Parameters
    ----------
    frames : dict
        ``{fold seed: frame}`` of every seed used (main and variants).
    names : sequence of str
        The data sets.
    max_folds : int, optional
        The folds run.

    Returns
    -------
    companion.prose.Markdown
    """
    from companion.prose import Markdown

    wanted = ("J48", "JRip", "CN2", "CN2-unordered")
    absent = {seed: [p for p in wanted if p not in set(frame["method"])] for seed, frame in frames.items()}
    missing = [seed for seed, peers in absent.items() if peers]
    if not missing:
        return prose("peers_present", seeds=[f"seed {s}" for s in frames])
    lines = [prose("peers_missing", seeds=[f"seed {seed}"], peers=absent[seed],
                   command=peers_command(seed, list(names), max_folds)).data for seed in missing]
    return Markdown("\n".join(f"* {line}" for line in lines))


def registry_table() -> pd.DataFrame:
    """The claims registry (``registry/paper04.toml``) as a table: the criteria, fixed before any result.

    Returns
    -------
    pandas.DataFrame
        One row per claim: ``id, origin, kind, statement, criterion, ties, stand-in, where``.
    """
    import companion.claims as C

    registry = C.load_registry("04")
    rows = []
    for claim, entry in zip(claims_family(), registry.entries):
        rows.append({"id": claim.id, "origin": claim.origin, "kind": claim.kind, "statement": claim.statement,
                     "criterion": claim.unit_test if claim.kind == "unit_test" else claim.criterion(),
                     "ties": entry.get("ties", ""), "stand-in": claim.stand_in, "where": claim.where})
    return pd.DataFrame(rows).set_index("id")
