"""Notebook 02's tables: the slides' walk-through of PRISM's rules (slides 8-14), ours against
Weka's Prism and the stand-ins, Cendrowska's modular rules and where modularity ends.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import validate_params

from companion.evaluation import comparison_table
from companion.paper_numbers import paper_table
from companion.prism import Prism
from companion.experiments.paper02._protocol import (
    COMMITTED_FOLDS, COUNTS, Config, NUMPY_SPLIT, WEKA_SPLIT, counts_table, fold_vector,
    quiet_stratified_folds, repeated_summary, weka_cv_folds,
)


@validate_params({"X": [pd.DataFrame], "y": [pd.Series]}, prefer_skip_nested_validation=True)
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
    """The restored slide tables against our trace (rows: step, test, p or t).

    The slides' tables are lost; ``paper_numbers/02_prism_first_rule_trace.csv`` is the
    project's restoration of them, counted on the 24 instances (only slide 10's "4 out of 12" is
    the slides' own text). Agreement with it holds by construction of the restoration.

    Parameters
    ----------
    ours : pandas.DataFrame
        :func:`first_rule_trace` (or :func:`rule_trace`) of our model.
    paper : pandas.DataFrame, optional
        The restored numbers (default: ``paper_numbers/02_prism_first_rule_trace.csv``).

    Returns
    -------
    pandas.DataFrame
        Columns ``restored`` (the restoration), ``ours`` and ``difference`` (ours − restored);
        a test the restoration lists at a step our trace does not reach is NaN.
    """
    paper = paper_table("02_prism_first_rule_trace") if paper is None else paper
    key = ["step", "attribute", "value"]

    def long(frame):
        indexed = frame.set_index(key)[["p", "t"]].stack()
        indexed.index = [f"step {s}: {a} = {v} ({m})" for s, a, v, m in indexed.index]
        return indexed

    ours_long = long(ours.merge(paper[key], on=key, how="inner"))
    return comparison_table(long(paper), ours_long).rename(columns={"paper": RESTORED})


#: The column of :func:`trace_comparison` holding the restored slide tables.
RESTORED = "restored"
#: The column of the tables that hold Weka 3.6.14's recorded output (``paper_numbers``).
WEKA_RECORDED = "Weka 3.6.14 (recorded)"


# False: it is given a fitted model (scikit-learn's rule for a function that takes an estimator).
@validate_params({"model": [Prism], "paper": [pd.DataFrame, None]}, prefer_skip_nested_validation=False)
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
        Columns ``Weka 3.6.14 (recorded)``, ``ours``, ``equal``; index ``order`` (from 1).
    """
    paper = paper_table("02_prism_rules") if paper is None else paper
    ours = [rule.to_text() for rule in model.rules_]
    n = max(len(ours), len(paper))
    table = pd.DataFrame(
        {
            WEKA_RECORDED: list(paper["rule"]) + [""] * (n - len(paper)),
            "ours": ours + [""] * (n - len(ours)),
        },
        index=pd.RangeIndex(1, n + 1, name="order"),
    )
    table["equal"] = table[WEKA_RECORDED] == table["ours"]
    return table


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
    ours = results.loc[results["method"] == "PRISM", [*keys, *COUNTS]]
    weka = peers.loc[peers["method"] == "Prism", [*keys, *COUNTS]]
    both = ours.merge(weka, on=keys, suffixes=(" ours", " weka"), validate="one_to_one")
    if both.empty:
        raise ValueError("prism_peer_comparison: results and peers share no (split, fold)")
    equal = np.ones(len(both), dtype=bool)
    for count in COUNTS:
        equal &= both[f"{count} ours"].to_numpy() == both[f"{count} weka"].to_numpy()
    both["equal"] = equal
    rows = {}
    for split, part in both.groupby("seed", sort=False):
        row = {"folds": len(part), "folds equal": int(part["equal"].sum())}
        for count in COUNTS:
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
    return pd.DataFrame({seed: counts_table(split[["method", *COUNTS]])["accuracy %"]
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
    return counts_table(split_rows(results, WEKA_SPLIT))


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
    return repeated_summary(split_rows(results, NUMPY_SPLIT))


def split_rows(results: pd.DataFrame, prefix: str) -> pd.DataFrame:
    chosen = results[results["seed"].str.startswith(prefix)]
    if chosen.empty:
        raise ValueError(f"results hold no split whose seed starts with {prefix!r}")
    return chosen


def fold_accuracy(frame: pd.DataFrame, method: str, n_instances: int) -> pd.DataFrame:
    """Accuracy (%) of ``method`` on every fold of the seeded splits of ``frame`` (:func:`run`'s or
    the Weka peers' rows): index ``(seed, fold)``, columns ``accuracy %``, ``n_test``, ``n_train``.

    Parameters
    ----------
    frame : pandas.DataFrame
        Per-fold counts (``method``, ``seed``, ``fold``, ``correct``, ``n_test``).
    method : str
        The learner.
    n_instances : int
        Instances of the data set (``n_train = n_instances − n_test``).

    Returns
    -------
    pandas.DataFrame
    """
    rows = split_rows(frame, NUMPY_SPLIT)
    rows = rows[rows["method"] == method].set_index(["seed", "fold"])
    return pd.DataFrame({"accuracy %": 100 * rows["correct"] / rows["n_test"], "n_test": rows["n_test"],
                         "n_train": n_instances - rows["n_test"]})


#: Our learners that run Weka's algorithm (the same name in Weka).
WEKA_SAME = ("ZeroR", "OneR")
#: Weka learners of the recorded numbers that we do not implement: their rows are Weka's own runs.
_WEKA_ONLY = ("J48", "JRip")
#: Our learners that are *not* Weka's, beside the Weka learner they stand in for.
_STAND_INS = {"decision tree (CART, one-hot)": "J48", "RIPPER (wittgenstein, one-vs-rest)": "JRip"}


def weka_comparison(cv: pd.DataFrame, training_correct: int, peers: pd.DataFrame | None = None) -> pd.DataFrame:
    """Weka 3.6.14's recorded output on contact lenses against this run: PRISM's counts, the baselines'
    accuracies.

    ``cv`` is :func:`cross_validate`'s table on Weka's folds. PRISM, ZeroR and OneR are ours, the
    same algorithms as Weka's. J48 and JRip are Weka's own runs on the same folds: ``peers`` is
    the peers' per-fold table (columns ``method``, ``seed``, ``correct``, ``incorrect``,
    ``unclassified``; rows of Weka's split ``weka:<seed>``); without it their ``this run`` is
    empty. Our stand-ins (CART, wittgenstein's RIPPER) are not in this table: see
    :func:`stand_in_table`. The slides print none of these numbers.

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
        Columns ``Weka 3.6.14 (recorded)``, ``this run``, ``difference`` (this run − recorded) and
        ``run by`` (``ours``, or ``Weka 3.6.14 (re-run)``).
    """
    weka = paper_table("02_prism_weka_results")
    weka = weka[weka["dataset"] == "contact_lenses"].set_index(["learner", "measure"])["value"]
    paper, ours, by = {}, {}, {}
    paper["PRISM training correct"] = weka[("Prism", "training correct")]
    ours["PRISM training correct"] = training_correct
    for measure in ("correct", "incorrect", "unclassified"):
        paper[f"PRISM cv {measure}"] = weka[("Prism", f"cv {measure}")]
        ours[f"PRISM cv {measure}"] = cv.loc["PRISM", measure]
    for name in WEKA_SAME:
        if name in cv.index:
            paper[f"{name} cv accuracy %"] = weka[(name, "cv accuracy")]
            ours[f"{name} cv accuracy %"] = cv.loc[name, "accuracy %"]
    by.update(dict.fromkeys(ours, "ours"))
    peer_accuracy = _peer_accuracy(peers) if peers is not None else {}
    for name in _WEKA_ONLY:
        paper[f"{name} (Weka) cv accuracy %"] = weka[(name, "cv accuracy")]
        ours[f"{name} (Weka) cv accuracy %"] = peer_accuracy.get(name, np.nan)
        by[f"{name} (Weka) cv accuracy %"] = "Weka 3.6.14 (re-run)"
    table = comparison_table(pd.Series(paper), pd.Series(ours, dtype=float))
    table = table.rename(columns={"paper": WEKA_RECORDED, "ours": "this run"})
    table["run by"] = pd.Series(by)
    return table


def _peer_accuracy(peers: pd.DataFrame) -> dict:
    weka_rows = peers[peers["seed"].astype(str).str.startswith(WEKA_SPLIT)]
    table = counts_table(weka_rows[["method", *COUNTS]])
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
        ``fold`` (from 0); default ``data/`` + :data:`COMMITTED_FOLDS`.

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
    from companion.paths import data_dir

    config = config or Config()
    if committed is None or isinstance(committed, str):
        path = data_dir() / (committed or COMMITTED_FOLDS)
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
            ours = fold_vector(quiet_stratified_folds(y, config.n_folds, int(number)))
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
