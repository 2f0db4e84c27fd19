"""What notebook 04 runs and on which folds: the benchmark sets, ``Config``, ``run`` (WIDC grown
once per training fold and pruned three ways, beside the "Others"), :class:`FoldMemo` (Nock 2002).
"""

from __future__ import annotations

import dataclasses

import hashlib
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import StrOptions, validate_params

import companion.datasets as datasets
from companion.baselines import OrderedRipper, PrunedDecisionTree, tree_leaf_paths
from companion.datasets import RegisteredDataset
from companion.evaluation import parallel_map, stratified_folds
from companion.experiments._constraints import N_JOBS
from companion.experiments.protocol import check_tidy, paper_models
from companion.preprocessing import FrameEncoder, MDLDiscretizer, encode_frame
from companion.prism import Prism
from companion.widc import DecisionCommittee
from companion._partition_boosting import PRUNINGS


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


@validate_params({"name": [StrOptions(set(BENCHMARK_SETS))], "typing": [StrOptions(set(TYPINGS))]},
                 prefer_skip_nested_validation=True)
def load_benchmark_set(name: str, *, typing: str = "documented") -> BenchmarkSet:
    """Load and encode the benchmark set ``name`` (a key of :data:`BENCHMARK_SETS`).

    Parameters
    ----------
    name : str
        A key of :data:`BENCHMARK_SETS`.
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


#: The missing-value rules of :class:`Config` (``missing``).
MISSING_RULES = ("false", "imputed")


def impute_fold(data: BenchmarkSet, train) -> BenchmarkSet:
    """``data`` with every missing value replaced by the training fold's typical value of its column.

    The most frequent value of a nominal column (ties: the smallest code), the median of a
    numeric one, both over the rows ``train`` that have a value; a column with no value there is
    left as it is. The paper's missing-value rule was not recovered (Nock 2002, *Experiments*):
    this is the variant ``missing=imputed`` of WIDC's own rule (every literal of the attribute
    false).

    Parameters
    ----------
    data : BenchmarkSet
        A loaded set (:func:`load_benchmark_set`).
    train : array-like of int
        The training fold's rows.

    Returns
    -------
    BenchmarkSet
        A copy whose ``X`` has no missing value in a column the training fold has values of
        (``data`` itself when it has no missing value).
    """
    X = np.asarray(data.X, dtype=np.float64)
    if not np.isnan(X).any():
        return data
    X = X.copy()
    rows = X[np.asarray(train)]
    for column in np.flatnonzero(np.isnan(X).any(axis=0)):
        seen = rows[~np.isnan(rows[:, column]), column]
        if not len(seen):
            continue
        if data.nominal[column]:
            values, counts = np.unique(seen, return_counts=True)
            fill = values[np.argmax(counts)]  # the first of the most frequent: the smallest code
        else:
            fill = float(np.median(seen))
        X[np.isnan(X[:, column]), column] = fill
    return dataclasses.replace(data, X=X)


def missing_value_sets(names) -> list:
    """The data sets of ``names`` that have a missing value (those the variant ``missing=imputed`` changes).

    Parameters
    ----------
    names : iterable of str
        Keys of :data:`BENCHMARK_SETS`.

    Returns
    -------
    list of str
    """
    return [name for name in names if np.isnan(np.asarray(load_benchmark_set(name).X, dtype=np.float64)).any()]


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
    max_cuts : int, default=8
        WIDC's MDL cut points per numeric attribute at most (its booleanisation; the paper's
        discretisation was not recovered); PRISM and RIPPER keep theirs (8).
    missing : {"false", "imputed"}, default="false"
        What a missing value is (the paper's rule was not recovered): ``"false"``, every literal
        of its attribute is false (WIDC's own rule); ``"imputed"``, each fold's missing values
        are replaced by the training fold's most frequent value of a nominal attribute or median
        of a numeric one (:func:`impute_fold`) before any learner reads them.
    """

    datasets: tuple = tuple(BENCHMARK_SETS)
    n_splits: int = 10
    seed: int = 0
    max_folds: int | None = None
    optimistic_strength: float | None = None
    others: tuple = OTHERS
    typing: str = "documented"
    numeric_literal: str = "le"
    max_cuts: int = 8
    missing: str = "false"

    @classmethod
    def fast(cls):
        """The notebook's ``fast=True`` run: 4 data sets, the first 2 of the 10 folds."""
        return cls(datasets=("monks1", "votes", "iris", "breastw"), max_folds=2)


class FoldMemo:
    """What :func:`run` and :func:`optimistic_sensitivity` share on the same folds, owned by the caller.

    Pass one memo to the calls that should share (``memo=``, as scikit-learn's ``memory=``
    takes a :class:`joblib.Memory`); it lives as long as the caller keeps it. A call without one
    fits everything itself, so no result depends on what ran earlier in the process. Both
    entries are deterministic functions of their keys, so a hit is what a refit gives:

    * ``grown``: sha-256 of everything WIDC's growth reads (:func:`growth_key`) -> the grown
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
    >>> from companion.experiments.paper04._studies import optimistic_sensitivity
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
            :func:`growth_key` of the fold it was grown on.
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


@validate_params({"config": [Config], "n_jobs": N_JOBS, "memo": [FoldMemo, None]},
                 prefer_skip_nested_validation=False)
def run(config: Config, n_jobs=1, *, memo: FoldMemo | None = None) -> pd.DataFrame:
    """Stratified K-fold errors and sizes of WIDC (three prunings) and the other learners.

    Parameters
    ----------
    config : Config
    n_jobs : int or None, default=1
        Workers of :func:`companion.evaluation.parallel_map`, whose items are the (data set,
        fold) pairs, each with its split and seed (WIDC and CART in one task, PRISM and RIPPER
        on the MDL-coded fold in another): the frame does not depend on it.
    memo : FoldMemo or None, default=None
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
        raise ValueError(f"The 'config' parameter of run: others must be among CART, PRISM, RIPPER; "
                         f"got {sorted(unknown)}")
    params = {} if config.optimistic_strength is None else {"optimistic_strength": config.optimistic_strength}
    if config.numeric_literal != "le":
        params["numeric_literal"] = config.numeric_literal
    if config.max_cuts != 8:
        params["max_cuts"] = config.max_cuts
    if config.missing not in MISSING_RULES:
        raise ValueError(f"The 'config' parameter of run: missing must be one of {MISSING_RULES}; got {config.missing!r}")
    items = []
    for name in config.datasets:
        data = load_benchmark_set(name, typing=config.typing)
        folds = stratified_folds(data.y, n_splits=config.n_splits, seed=config.seed)[: config.max_folds]
        items += [(impute_fold(data, train) if config.missing == "imputed" else data, fold, train, test)
                  for fold, (train, test) in enumerate(folds)]
    others = tuple(config.others)
    nominal_learners = tuple(learner for learner in _NOMINAL_LEARNERS if learner in others)
    # WIDC's growth on a fold met before (optimistic_sensitivity grows on the same folds) comes
    # from the memo; the pruning is redone here with this run's constants.
    memo = FoldMemo(limit=0) if memo is None else memo
    growth_keys = [growth_key(data, train, params) for data, _, train, _ in items]
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


#: The learners of :func:`run` that read the MDL-coded fold (:func:`mdl_codes`), in row order.
_NOMINAL_LEARNERS = ("PRISM", "RIPPER")


#: The parameters of :class:`companion.widc.DecisionCommittee` that only the pruning reads.
_PRUNING_PARAMS = ("pruning", "optimistic_strength", "optimistic_delta")


def growth_key(data, train, params) -> str:
    """sha-256 of what WIDC's growth on fold ``train`` of ``data`` reads (a key of :attr:`FoldMemo.grown`):
    the training rows (values, NaN as missing), their labels, the nominal columns and every
    :class:`~companion.widc.DecisionCommittee` parameter but the pruning's."""
    growth = {k: v for k, v in DecisionCommittee(pruning="none", fallback=None, categorical_features=data.nominal, **params)
              .get_params().items() if k not in _PRUNING_PARAMS and k != "categorical_features"}
    digest = hashlib.sha256(repr(sorted(growth.items())).encode())
    X = np.ascontiguousarray(data.X[train], dtype=np.float64)
    digest.update(repr(X.shape).encode())
    digest.update(np.isnan(X).tobytes())
    digest.update(np.where(np.isnan(X), 0.0, X).tobytes())
    digest.update(np.ascontiguousarray(data.nominal, dtype=bool).tobytes())
    digest.update("\x1f".join(np.asarray(data.y[train]).astype(str).tolist()).encode())
    return digest.hexdigest()


def grow(data, train, params, grown=None):
    """WIDC() grown on fold ``train`` of ``data`` with ``params`` (``grown``: the memo's, if any)."""
    if grown is not None:
        return grown
    return DecisionCommittee(pruning="none", fallback=None, categorical_features=data.nominal, **params).fit(
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

    grown = grow(data, train, params, grown)
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
        tree.fit(one_hot_nominal(Xtr, data.nominal, Xtr), ytr)
        record("CART", tree.predict(one_hot_nominal(Xte, data.nominal, Xtr)), tree.n_leaves_, tree.n_literals_)
    return (rows, grown) if with_growth else rows


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


def one_hot_nominal(X, nominal, reference):
    """Numeric columns as they are, nominal columns one-hot over ``reference``'s values.

    ``X`` and ``reference`` are float matrices as :func:`companion.preprocessing.encode_frame`
    returns them (nominal codes, NaN missing); the indicator columns of nominal column ``j`` are
    the distinct present values of ``reference[:, j]``, sorted (``FrameEncoder`` with
    ``encoding="onehot"``, ``categories="present"``). A missing nominal value is NaN in every
    indicator, so that a tree's missing-value support decides where it goes.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Rows to encode.
    nominal : array-like of bool, shape (n_features,)
        The nominal columns.
    reference : ndarray of shape (n_reference, n_features)
        The rows whose values make the indicator columns (the training set).

    Returns
    -------
    ndarray of float
    """
    encoder = FrameEncoder(
        categorical_features=np.asarray(nominal, dtype=bool), encoding="onehot", categories="present"
    )
    return encoder.fit(reference).transform(X)
