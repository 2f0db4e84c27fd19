"""What notebook 03 runs: independent LED draws of 500 training and 5000 test examples (paper 03,
Section 5), every method of Table 1 on each, ``Config``, ``run``, the draws conditioned on the
paper's Bayes training error and J48's (Weka's) results on the same draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import validate_parameter_constraints, validate_params

from companion.bounds.boolean_kernel import tree_risk
from companion.datasets import load_peers
from companion.evaluation import parallel_map
from companion.experiments._constraints import COUNT, N_JOBS
from companion.experiments.protocol import check_tidy
from companion.kernels import add_complemented_bits, boolean_kernel
from companion.baselines import PrunedDecisionTree
from companion.led import bayes_predict, make_led_digits, optimal_boolean_tree
from companion.numerics import StrictInterval
from companion.paper_numbers import paper_table
from companion.perceptrons import KernelPerceptron, MaskPerceptron, MaximalMarginPerceptron
from companion.prose import render
from companion.experiments.paper03._templates import TEMPLATES


#: Row labels of the long results table, in Table 1's order (bounds and Bayes last).
METHODS = (
    "decision_tree",
    "best_tree",
    "kernel_svm",
    "kernel_perceptron",
    "mask_perceptron",
    "mmp_bound",
    "perceptron_bound",
    "bayes",
)
QUANTITIES = ("risk", "size", "train_error", "test_error")
#: Tie counts of the scored methods (points with f(x) = 0, counted as errors), and the test ties
#: whose label is ``classes_[1]`` (the digits 5-9): what a deterministic rule sign(0) -> one class needs.
TIE_COLUMNS = ("train_ties", "test_ties", "test_ties_high")


def error_percent(predicted, y) -> float:
    return 100.0 * float(np.mean(np.asarray(predicted) != np.asarray(y)))


def margin_error(classifier, X, y, inverse=None, *, by_label=False):
    """The paper's ``err(f) = #{y f(x) ≤ 0}`` in %, and the number of ties ``f(x) = 0``.

    A tie is an error whatever the label (Eq. 7's ``err``), not a coin flip: counting it by the
    predicted label would make the error depend on which class the tie rule names. The scores of
    the λ-perceptron are exact integers up to a positive scale, so the ties are exact too.
    ``inverse``: ``X`` holds the distinct rows (:func:`distinct_rows`) and ``inverse`` maps the
    examples of ``y`` to them. With ``by_label``, a third number: the ties whose label is
    ``classes_[1]`` (a rule sign(0) -> ``classes_[0]`` errs on those only).
    """
    values = classifier.decision_function(X)
    if inverse is not None:
        values = values[inverse]
    high = np.asarray(y) == classifier.classes_[1]
    signed = np.where(high, 1.0, -1.0)
    error, ties = 100.0 * float(np.mean(signed * values <= 0)), int(np.count_nonzero(values == 0))
    if by_label:
        return error, ties, int(np.count_nonzero((values == 0) & high))
    return error, ties


#: Counts of the protocols (scikit-learn's constraints): draws >= 1, set sizes and orders >= 2,
#: a draw's index (the tidy ``seed``) and a monomial's degree >= 0.
_DRAWS = {"n_draws": COUNT}
AT_LEAST_TWO = [StrictInterval(Integral, 2, None, closed="left")]
AT_LEAST_ZERO = [StrictInterval(Integral, 0, None, closed="left")]


@validate_params({"n_train": AT_LEAST_TWO, "n_test": AT_LEAST_TWO}, prefer_skip_nested_validation=True)
def run_draw(
    seed,
    *,
    degrees=(2, 3, 7),
    n_train=500,
    n_test=5000,
    lam=4.0,
    mask_terms=None,
    tol=1e-3,
    noise=0.1,
    mask_candidates=10,
    perceptron_scale="paper",
) -> pd.DataFrame:
    """Fit every method of Table 1 on one draw of the LED data, for each degree in ``degrees``.

    Parameters
    ----------
    seed : int or numpy Generator
        Seed of this draw (training and test sets both derive from it).
    degrees : tuple of int, default=(2, 3, 7)
        Maximal degrees ``d`` of the kernel, the trees and the mask perceptron.
    n_train, n_test : int
        Sizes (paper: 500 and 5000).
    lam : float, default=4.0
        Regularisation constant λ (a tree's risk is #leaves + (4/λ)#errors).
    mask_terms : dict {degree: int}, default=None
        Terms of the mask perceptron per degree; default 10 for ``d < 5`` and 26 otherwise
        (Table 1's 10 and 26 terms).
    tol : float, default=1e-3
        ``ε`` of the λ-MMP stopping rule (10).
    noise : float, default=0.1
    mask_candidates : int, default=10
        ``n_candidates`` of the mask perceptron (our reconstruction's search breadth; 1: the
        candidate with the largest risk gradient is added, no shortlist refitted).
    perceptron_scale : {"paper", "min-risk"}, default="paper"
        The λ-perceptron's output scale: ``t / ‖w̃ᵗ‖²`` (our reconstruction of the paper's) or the
        positive scale that minimises its risk (7) (:func:`min_risk_scale`); the sign, hence
        every error, is the same.

    Returns
    -------
    DataFrame
        Columns ``degree, method, risk, size, train_error, test_error`` (errors in %) and
        ``train_ties, test_ties``: for the kernel SVM, the kernel perceptron and the mask
        perceptron, the number of points with ``f(x) = 0`` exactly (counted as errors, the
        paper's ``err(f) = #{y f(x) ≤ 0}``); NaN for the trees, which output labels.
    """
    rng = np.random.default_rng(seed)
    X, y, X_test, y_test = _draw_data(rng, n_train, n_test, noise)
    return _fit_draw(X, y, X_test, y_test, degrees=degrees, lam=lam, mask_terms=mask_terms, tol=tol, noise=noise,
                     mask_candidates=mask_candidates, perceptron_scale=perceptron_scale)


def _draw_data(rng, n_train, n_test, noise):
    """One draw: the training set, then the test set, from the generator ``rng``."""
    X, y = make_led_digits(n_train, noise=noise, random_state=rng)
    X_test, y_test = make_led_digits(n_test, noise=noise, random_state=rng)
    return X, y, X_test, y_test


def distinct_rows(X):
    """The distinct rows of 0/1 inputs and the index of each row among them.

    LED digits have at most 2**7 distinct inputs, so the 5000 test rows are scored on them: a
    score is a function of the row alone (the Boolean kernel is exact integer arithmetic, and a
    row's fixed-order sum depends on that row only), so the scores of the distinct rows,
    expanded, are the scores of the rows, bit for bit.
    """
    distinct, inverse = np.unique(np.asarray(X), axis=0, return_inverse=True)
    return distinct, inverse.reshape(-1)


def min_risk_scale(margins, norm_sq, lam) -> float:
    """The scale ``c > 0`` minimising ``R[c f, λ] = c² ‖f‖² + (1/λ) Σ (1 − c y_i f(x_i))²₊`` (convex in ``c``)."""
    from scipy.optimize import minimize_scalar

    margins = np.asarray(margins, dtype=float)
    positive = margins[margins > 0]
    top = 4.0 / float(positive.min()) if positive.size else 1.0
    risk = lambda c: c * c * norm_sq + float(np.sum(np.maximum(1.0 - c * margins, 0.0) ** 2)) / lam  # noqa: E731
    return float(minimize_scalar(risk, bounds=(0.0, top), method="bounded", options={"xatol": 1e-12}).x)


#: The fits of one degree on one draw, in :func:`run_draw`'s row order: ``{group: its rows' methods}``
#: (a λ-MMP fit gives the SVM's row and bound (11)'s, a λ-perceptron fit its row and bound (9)'s).
FIT_GROUPS = {
    "decision_tree": ("decision_tree",),
    "best_tree": ("best_tree",),
    "kernel_svm": ("kernel_svm", "mmp_bound"),
    "kernel_perceptron": ("kernel_perceptron", "perceptron_bound"),
    "mask_perceptron": ("mask_perceptron",),
}


def fit_keys(degree, *, lam, tol, mask_terms=None, mask_candidates=10, perceptron_scale="paper") -> dict:
    """``{group: key}``: each :data:`FIT_GROUPS` fit of degree ``degree`` on a draw, keyed by all it reads.

    Two fits of a group with equal keys on the same draw are the same fit (every learner here is
    deterministic: CART with ``random_state=0``, the others without randomness), so
    :class:`FitMemo` returns the rows of one for the other.

    Parameters
    ----------
    degree : int
    lam, tol, mask_terms, mask_candidates, perceptron_scale
        As in :func:`run_draw`.

    Returns
    -------
    dict
    """
    degree, lam = int(degree), float(lam)
    terms = (mask_terms or {}).get(degree, 10 if degree < 5 else 26)
    return {
        "decision_tree": (degree, "decision_tree", lam),
        "best_tree": (degree, "best_tree", lam),
        "kernel_svm": (degree, "kernel_svm", lam, float(tol)),
        "kernel_perceptron": (degree, "kernel_perceptron", lam, str(perceptron_scale)),
        "mask_perceptron": (degree, "mask_perceptron", lam, int(terms), int(mask_candidates)),
    }


def _fit_draw(X, y, X_test, y_test, *, degrees, lam, mask_terms, tol, noise, mask_candidates=10,
              perceptron_scale="paper", known=None, learned=None) -> pd.DataFrame:
    """Every method of Table 1 on one drawn training/test pair (the body of :func:`run_draw`).

    ``known``: ``{fit key: rows}`` of a :class:`FitMemo` for these data (:func:`fit_keys`), whose
    rows are taken instead of refitting; ``learned``: a dict filled with the rows of the fits made
    here, under their keys.
    """
    if perceptron_scale not in ("paper", "min-risk"):
        raise ValueError(f"perceptron_scale must be 'paper' or 'min-risk', got {perceptron_scale!r}")
    known = {} if known is None else known
    Xc = add_complemented_bits(X)
    X_test_distinct, test_inverse = distinct_rows(X_test)
    Xc_test = add_complemented_bits(X_test_distinct)
    rows = []

    def record(degree, method, risk, size, train_error, test_error, train_ties=np.nan, test_ties=np.nan,
               test_ties_high=np.nan):
        rows.append(dict(degree=degree, method=method, risk=risk, size=size, train_error=train_error,
                         test_error=test_error, train_ties=train_ties, test_ties=test_ties,
                         test_ties_high=test_ties_high))

    def record_scored(degree, method, classifier, risk, size, X_train, X_evaluate):
        (train_error, train_ties), (test_error, test_ties, test_ties_high) = (
            margin_error(classifier, X_train, y),
            margin_error(classifier, X_evaluate, y_test, test_inverse, by_label=True),
        )
        record(degree, method, risk, size, train_error, test_error, train_ties, test_ties, test_ties_high)

    def fit_decision_tree(degree, kernels):
        tree = PrunedDecisionTree(max_depth=degree, leaf_cost=lam / 4.0, pruning="errors", random_state=0, fallback=None).fit(X, y)
        record(
            degree, "decision_tree", tree_risk(tree.n_leaves_, tree.n_errors_, lam), tree.n_leaves_,
            error_percent(tree.predict(X), y), error_percent(tree.predict(X_test), y_test),
        )

    def fit_best_tree(degree, kernels):
        best = optimal_boolean_tree(X, y, degree, leaf_cost=lam / 4.0)
        record(
            degree, "best_tree", tree_risk(best.n_leaves, best.n_errors, lam), best.n_leaves,
            error_percent(best.predict(X), y), error_percent(best.predict(X_test), y_test),
        )

    def fit_kernel_svm(degree, kernels):
        K, K_test = kernels()
        mmp = MaximalMarginPerceptron(kernel="precomputed", lam=lam, tol=tol, fallback=None, compiled=True).fit(K, y)
        record_scored(degree, "kernel_svm", mmp, mmp.risk_, mmp.n_support_, K, K_test)
        record(degree, "mmp_bound", mmp.lower_bound_, np.nan, np.nan, np.nan)

    def fit_kernel_perceptron(degree, kernels):
        K, K_test = kernels()
        perceptron = KernelPerceptron(kernel="precomputed", lam=lam, fallback=None).fit(K, y)
        risk = perceptron.risk_
        if perceptron_scale == "min-risk":
            margins = np.where(y == perceptron.classes_[1], 1.0, -1.0) * perceptron.decision_function(K)
            c = min_risk_scale(margins, perceptron.norm_sq_, lam)
            risk = c * c * perceptron.norm_sq_ + float(np.sum(np.maximum(1.0 - c * margins, 0.0) ** 2)) / lam
        record_scored(degree, "kernel_perceptron", perceptron, risk, perceptron.n_support_, K, K_test)
        record(degree, "perceptron_bound", perceptron.lower_bound_, np.nan, np.nan, np.nan)

    def fit_mask_perceptron(degree, kernels):
        terms = (mask_terms or {}).get(degree, 10 if degree < 5 else 26)
        mask = MaskPerceptron(degree=degree, n_terms=terms, lam=lam, n_candidates=mask_candidates, fallback=None).fit(X, y)
        record_scored(degree, "mask_perceptron", mask, mask.risk_, mask.n_terms_, X, X_test_distinct)

    fits = {"decision_tree": fit_decision_tree, "best_tree": fit_best_tree, "kernel_svm": fit_kernel_svm,
            "kernel_perceptron": fit_kernel_perceptron, "mask_perceptron": fit_mask_perceptron}
    bayes_train, bayes_test = error_percent(bayes_predict(X, noise), y), error_percent(bayes_predict(X_test, noise), y_test)
    for degree in degrees:
        record(degree, "bayes", np.nan, np.nan, bayes_train, bayes_test)
        keys = fit_keys(degree, lam=lam, tol=tol, mask_terms=mask_terms, mask_candidates=mask_candidates,
                        perceptron_scale=perceptron_scale)
        computed = []

        def kernels(degree=degree, computed=computed):  # the training and test kernels, once per degree
            if not computed:
                computed.append(boolean_kernel(Xc, degree=degree))
                computed.append(boolean_kernel(Xc_test, Xc, degree=degree))
            return computed[0], computed[1]

        for group, fit in fits.items():
            if keys[group] in known:
                rows.extend(dict(row) for row in known[keys[group]])
                continue
            start = len(rows)
            fit(degree, kernels)
            if learned is not None:
                learned[keys[group]] = tuple(dict(row) for row in rows[start:])
    return pd.DataFrame(rows)


class FitMemo:
    """The fits of :func:`run` on the same draws, shared by the calls of the caller that owns it.

    Notebook 03 fits the same learners on the same draws in several places: its claims re-run the
    main protocol with one reconstructed choice changed (ε changes the λ-MMP only, the mask
    perceptron's breadth the mask perceptron only, the perceptron's scale its risk only) and
    column 2 at other degrees beside column 1's. :func:`claims_section` owns one memo and passes
    it to those runs (``memo=``, as paper 04's ``FoldMemo``), so a fit already made on a draw is
    not made again: its rows are taken. (Private: the public surface is capped, and the notebook
    needs no memo of its own.) Every fit is a deterministic function of its
    draw (:func:`draw_key`) and of :func:`fit_keys`, so a hit is what a refit gives, bits
    included; a call without a memo fits everything itself.

    Attributes
    ----------
    rows : dict
        ``{draw key: {fit key: rows}}`` (the rows :func:`run_draw` writes for that fit).

    Examples
    --------
    >>> memo = FitMemo()
    >>> config = Config(n_draws=1, n_train=80, n_test=200, degrees=(2,))
    >>> first = run_with_memo(config, memo=memo)
    >>> from dataclasses import replace
    >>> run_with_memo(replace(config, tol=1e-2), memo=memo).equals(run(replace(config, tol=1e-2)))  # the λ-MMP refitted only
    True
    """

    def __init__(self):
        self.rows = {}

    def known(self, key) -> dict:
        """The fits remembered on the draw ``key`` (:func:`draw_key`): ``{fit key: rows}``.

        Parameters
        ----------
        key : tuple

        Returns
        -------
        dict
        """
        return dict(self.rows.get(key, {}))

    def remember(self, key, fits) -> None:
        """Keep ``fits`` (``{fit key: rows}``) made on the draw ``key``.

        Parameters
        ----------
        key : tuple
            :func:`draw_key`.
        fits : dict
        """
        self.rows.setdefault(key, {}).update(fits)

    def remember_run(self, config: Config, results: pd.DataFrame) -> None:
        """Keep the fits of ``results``, which must be ``run(config)``'s frame (the caller's contract).

        What a section that is handed the main run's frame needs to share its fits with the
        variants it runs.

        Parameters
        ----------
        config : Config
        results : pandas.DataFrame
            :func:`run` with ``config``.
        """
        draws = sorted(int(k) for k in results["seed"].unique())
        if draws != list(range(config.n_draws)) or not set(results["degree"]) <= set(config.degrees):
            raise ValueError(f"FitMemo.remember_run: results are not run(config)'s frame for {config!r}")
        base = [method.rsplit(" d=", 1)[0] for method in results["method"]]
        frame = results.assign(method=base)
        columns = ["degree", "method", *QUANTITIES, *TIE_COLUMNS]
        for (k, degree), block in frame.groupby(["seed", "degree"], sort=False):
            keys = fit_keys(degree, lam=config.lam, tol=config.tol, mask_candidates=config.mask_candidates,
                            perceptron_scale=config.perceptron_scale)
            records = block[columns].to_dict("records")
            fits = {}
            for group, methods in FIT_GROUPS.items():
                fits[keys[group]] = tuple(dict(row, degree=int(degree)) for row in records
                                          if row["method"] in methods)
            self.remember(draw_key(config.seed, int(k), config.n_train, config.n_test, config.noise), fits)


def draw_key(seed, draw, n_train, n_test, noise) -> tuple:
    """What the data of draw ``draw`` of :func:`run` depend on (the key of :class:`FitMemo`).

    Parameters
    ----------
    seed, draw, n_train, n_test : int
    noise : float

    Returns
    -------
    tuple
    """
    return ("led", int(seed), int(draw), int(n_train), int(n_test), float(noise))


def _run_protocol(n_draws, seed, *, n_jobs=1, memo=None, **kwargs) -> pd.DataFrame:
    """Run :func:`run_draw` on ``n_draws`` independent draws seeded from ``seed``.

    Draw ``k`` uses the ``k``-th child of ``numpy.random.SeedSequence(seed)``, so the draws are
    independent items of :func:`companion.evaluation.parallel_map`: ``n_jobs`` (default 1,
    serial; -1: all local cores; under ``joblib.parallel_backend("dask")``: a Dask cluster) does
    not change the result. Other keyword arguments go to :func:`run_draw`. Returns the long
    table of :func:`run_draw` with an extra column ``draw`` (:func:`_tidy` makes it :func:`run`'s).
    With a :class:`FitMemo`, each draw's item carries the fits the memo holds on it, and the
    fits made are remembered.
    """
    validate_parameter_constraints(_DRAWS, {"n_draws": n_draws}, caller_name="paper03.run")
    seeds = np.random.SeedSequence(seed).spawn(n_draws)
    keys = [draw_key(seed, k, kwargs.get("n_train", 500), kwargs.get("n_test", 5000), kwargs.get("noise", 0.1))
            for k in range(n_draws)]
    items = [(k, child, None if memo is None else memo.known(key)) for (k, child), key in zip(enumerate(seeds), keys)]
    outputs = parallel_map(partial(_run_seeded_draw, kwargs), items, n_jobs=n_jobs)
    if memo is not None:
        for key, (_, learned) in zip(keys, outputs):
            memo.remember(key, learned)
    return pd.concat([frame for frame, _ in outputs], ignore_index=True)


def _run_seeded_draw(kwargs, item):
    """:func:`run_draw` on draw ``k`` seeded by its own ``SeedSequence`` child ``(k, child, known)``,
    taking the fits ``known`` (or None); returns the frame and the fits made."""
    k, child, known = item
    sizes = {"n_train": kwargs.get("n_train", 500), "n_test": kwargs.get("n_test", 5000)}
    validate_parameter_constraints({"n_train": AT_LEAST_TWO, "n_test": AT_LEAST_TWO}, sizes, caller_name="run_draw")
    X, y, X_test, y_test = _draw_data(np.random.default_rng(child), sizes["n_train"], sizes["n_test"],
                                      kwargs.get("noise", 0.1))
    options = {key: value for key, value in kwargs.items() if key not in ("n_train", "n_test")}
    learned = {}
    frame = _fit_draw(X, y, X_test, y_test, **{"degrees": (2, 3, 7), "lam": 4.0, "mask_terms": None, "tol": 1e-3,
                                              "noise": 0.1, **options}, known=known, learned=learned)
    return frame.assign(draw=k), learned


# --------------------------------------------------------------------------------------------
# The protocol's tidy result
# --------------------------------------------------------------------------------------------

#: The ``dataset`` key: LED digits drawn by :func:`companion.led.make_led_digits`, 0-4 against 5-9.
DATASET = "led7 0-4 vs 5-9"


@dataclass(frozen=True)
class Config:
    """Everything Table 1's protocol depends on (the notebook's parameters cell).

    Parameters
    ----------
    seed : int, default=2001
        Root of ``numpy.random.SeedSequence``; draw ``k`` uses its ``k``-th child.
    n_draws : int, default=20
    n_train, n_test : int, default=500, 5000
    degrees : tuple of int, default=(2, 3, 7)
    lam : float, default=4.0
    tol : float, default=1e-3
    noise : float, default=0.1
    mask_candidates : int, default=10
        The mask perceptron's search breadth (:func:`run_draw`).
    perceptron_scale : {"paper", "min-risk"}, default="paper"
        The λ-perceptron's output scale (:func:`run_draw`).
    """

    seed: int = 2001
    n_draws: int = 20
    n_train: int = 500
    n_test: int = 5000
    degrees: tuple = (2, 3, 7)
    lam: float = 4.0
    tol: float = 1e-3
    noise: float = 0.1
    mask_candidates: int = 10
    perceptron_scale: str = "paper"

    @classmethod
    def fast(cls) -> "Config":
        """The notebook's ``fast=True`` run: 3 draws, 1000 test examples."""
        return cls(n_draws=3, n_test=1000)


def method_key(method: str, degree: int) -> str:
    """The ``method`` key of :func:`run`'s rows: the method and its maximal degree, ``"kernel_svm d=7"``.

    Parameters
    ----------
    method : str
        One of :data:`METHODS`.
    degree : int
        The maximal degree.

    Returns
    -------
    str
    """
    return f"{method} d={degree}"


@validate_params({"config": [Config], "n_jobs": N_JOBS}, prefer_skip_nested_validation=False)
def run(config: Config, n_jobs: int = 1) -> pd.DataFrame:
    """Table 1's protocol: :func:`run_draw` on independent draws, as a tidy frame.

    Parameters
    ----------
    config : Config
    n_jobs : int or None, default=1
        Workers of :func:`companion.evaluation.parallel_map`, one item per draw; the result
        does not depend on it.

    Returns
    -------
    DataFrame
        One row per draw, degree and method, draw by draw. Keys: ``dataset``
        (:data:`DATASET`), ``method`` (:func:`method_key`: one of :data:`METHODS` and the
        degree, ``"kernel_perceptron d=2"``; the Bayes rule does not depend on ``d`` and is
        repeated under each degree), ``seed`` (the draw ``k``: its data come from the ``k``-th
        child of ``SeedSequence(config.seed)``), ``fold`` (0: one training/test pair per draw).
        Columns ``degree``, then :data:`QUANTITIES` and :data:`TIE_COLUMNS` as in
        :func:`run_draw`. Every builder below takes this frame; :func:`draws_table` gives the
        layout of ``03_draws.csv``.
    """
    return run_with_memo(config, n_jobs, None)


def run_with_memo(config: Config, n_jobs: int = 1, memo: FitMemo | None = None) -> pd.DataFrame:
    """:func:`run`, taking the fits a :class:`FitMemo` holds on these draws and keeping those made
    (``memo`` None: every fit made here); the result does not depend on the memo."""
    draws = _run_protocol(
        config.n_draws, config.seed, n_jobs=n_jobs, degrees=tuple(config.degrees), n_train=config.n_train,
        n_test=config.n_test, lam=config.lam, tol=config.tol, noise=config.noise,
        mask_candidates=config.mask_candidates, perceptron_scale=config.perceptron_scale, memo=memo,
    )
    return _tidy(draws)


def _tidy(draws: pd.DataFrame) -> pd.DataFrame:
    """:func:`run`'s tidy frame from the long per-draw table of :func:`_run_protocol` (column ``draw``)."""
    results = draws.drop(columns="draw")
    results["method"] = [method_key(m, d) for m, d in zip(draws["method"], draws["degree"])]
    results.insert(0, "dataset", DATASET)
    results.insert(2, "seed", draws["draw"])
    results.insert(3, "fold", 0)
    return check_tidy(results)


def paper_table1() -> pd.DataFrame:
    """Table 1 of the paper (and the bounds and Bayes errors), from ``paper_numbers/03_table1.csv``.

    Returns
    -------
    pandas.DataFrame
        Columns ``column``, ``method``, ``quantity``, ``value``.
    """
    return paper_table("03_table1")


# --------------------------------------------------------------------------------------------
# Draws conditioned on the paper's easy training sample
# --------------------------------------------------------------------------------------------


def paper_bayes_train_error() -> float:
    paper = paper_table1()
    return float(paper[(paper["method"] == "bayes") & (paper["quantity"] == "train_error")]["value"].iloc[0])


def draw_conditioned_data(rng, *, n_train=500, n_test=5000, noise=0.1, target=None, tolerance=0.0, max_tries=100_000):
    """Rejection sampling: draw training sets until the Bayes rule errs on ``target`` % of one.

    Training sets are drawn from the LED noise model (:func:`companion.led.make_led_digits`)
    until the Bayes-optimal rule's training error is within ``tolerance`` percentage points of
    ``target`` (default: the paper's 11.2 %, i.e. 56 of 500 errors); the test set is then drawn
    afresh, so it is unconditioned. This is the conditional distribution of the data given the
    paper's Bayes training error, which the paper's single sample is one draw of.

    Parameters
    ----------
    rng : numpy Generator
    n_train, n_test : int
    noise : float
    target : float, optional
        Target Bayes training error in %.
    tolerance : float, default=0.0
        Half-width of the accepted band in percentage points; 0 accepts exactly
        ``round(target·n_train/100)`` errors (which must then be a whole number of errors).
    max_tries : int, default=100_000

    Returns
    -------
    X, y, X_test, y_test, n_tries
    """
    target = paper_bayes_train_error() if target is None else float(target)
    if not 0 <= target <= 100 or not tolerance >= 0:
        raise ValueError(f"target must be in [0, 100] and tolerance >= 0, got {target!r} and {tolerance!r}")
    low = int(np.ceil(target * n_train / 100 - tolerance * n_train / 100 - 1e-9))
    high = int(np.floor(target * n_train / 100 + tolerance * n_train / 100 + 1e-9))
    if low > high:
        raise ValueError(
            f"no whole number of errors out of {n_train} lies within {tolerance} points of {target} %; raise tolerance"
        )
    for tries in range(1, max_tries + 1):
        X, y = make_led_digits(n_train, noise=noise, random_state=rng)
        errors = int(np.count_nonzero(bayes_predict(X, noise) != y))
        if low <= errors <= high:
            X_test, y_test = make_led_digits(n_test, noise=noise, random_state=rng)
            return X, y, X_test, y_test, tries
    raise ValueError(f"no training set with {low}..{high} Bayes errors in max_tries={max_tries} draws")


def _run_conditioned_draw(kwargs, item):
    k, child = item
    sampling = {key: kwargs[key] for key in ("target", "tolerance", "max_tries") if key in kwargs}
    fitting = {key: value for key, value in kwargs.items() if key not in sampling}
    n_train, n_test = fitting.pop("n_train", 500), fitting.pop("n_test", 5000)
    noise = fitting.get("noise", 0.1)
    X, y, X_test, y_test, tries = draw_conditioned_data(
        np.random.default_rng(child), n_train=n_train, n_test=n_test, noise=noise, **sampling
    )
    options = dict(degrees=(2, 3, 7), lam=4.0, mask_terms=None, tol=1e-3, noise=0.1) | fitting
    return _fit_draw(X, y, X_test, y_test, **options).assign(draw=k, tries=tries)


@validate_params(_DRAWS, prefer_skip_nested_validation=True)
def run_conditioned_protocol(n_draws, seed, *, n_jobs=1, target=None, tolerance=0.0, **kwargs) -> pd.DataFrame:
    """:func:`run`'s protocol on draws whose training set is as easy as the paper's (rejection-sampled).

    Draw ``k`` uses the ``k``-th child of ``SeedSequence(seed)``; the training set is drawn by
    :func:`draw_conditioned_data` (Bayes training error = ``target`` ± ``tolerance`` points), the
    test set unconditioned.

    Parameters
    ----------
    n_draws : int
        Number of accepted draws.
    seed : int
        Seed of the draws' ``SeedSequence``.
    n_jobs : int, default=1
        Workers of :func:`companion.evaluation.parallel_map`, one item per draw; the result
        does not depend on it.
    target : float, optional
        Target Bayes training error in % (default: the paper's 11.2 %).
    tolerance : float, default=0.0
        Half-width of the accepted band, in percentage points.
    **kwargs
        Passed to :func:`run_draw` (``degrees``, ``n_train``, ``n_test``, ...) and to
        :func:`draw_conditioned_data` (``max_tries``).

    Returns
    -------
    pandas.DataFrame
        :func:`run`'s tidy frame (``seed`` is the draw), with the extra column ``tries``
        (training sets drawn until one was accepted).
    """
    seeds = np.random.SeedSequence(seed).spawn(n_draws)
    options = dict(kwargs, target=target, tolerance=tolerance)
    frames = parallel_map(partial(_run_conditioned_draw, options), list(enumerate(seeds)), n_jobs=n_jobs)
    return _tidy(pd.concat(frames, ignore_index=True))


# --------------------------------------------------------------------------------------------
# Row-order spread of the perceptron-type methods (issue 16, item 7)
# --------------------------------------------------------------------------------------------


def protocol_draw(seed, draw, n_train, n_test, noise=0.1):
    """The data of draw ``draw`` of :func:`run` with this ``seed`` (same bits)."""
    child = np.random.SeedSequence(seed).spawn(draw + 1)[draw]
    return _draw_data(np.random.default_rng(child), n_train, n_test, noise)


def draw_data(config: Config, draw: int):
    """The data ``(X, y, X_test, y_test)`` of draw ``draw`` of :func:`run` with ``config``, bit for bit.

    Parameters
    ----------
    config : Config
        The protocol's configuration.
    draw : int
        The draw (the tidy ``seed``).

    Returns
    -------
    X, y, X_test, y_test : numpy.ndarray
    """
    return protocol_draw(config.seed, draw, config.n_train, config.n_test, config.noise)


def draw_hash(X, y, X_test, y_test) -> str:
    """The sha256 of a draw written as text: one ``bits,label`` line per row, training rows first.

    The hash ``peers/led_peers.py`` records for every draw it ran J48 on.

    Parameters
    ----------
    X, y : numpy.ndarray
        The training draw (7 segment bits, labels).
    X_test, y_test : numpy.ndarray
        The test draw.

    Returns
    -------
    str
        Hexadecimal digest.
    """
    import hashlib

    # the text written by whole arrays, not a generator per bit (the J48 rows' check hashes
    # every draw of every seed it reads: 20 draws of 5,500 rows, a dozen times in notebook 03)
    text = b"\n".join([_draw_lines(X, y), b"#", _draw_lines(X_test, y_test)])
    return hashlib.sha256(text).hexdigest()


def _draw_lines(X, y) -> bytes:
    """The lines ``bits,label`` of :func:`draw_hash` for the rows of ``(X, y)``, joined by newlines.

    Each bit is written as ``str(int(b))``: the bits must be 0 or 1 (as the LED digits'), else the
    rows are written one by one as the definition reads.
    """
    X = np.asarray(X)
    labels = [str(int(label)) for label in np.asarray(y).tolist()]
    bits = X.astype(np.int64)
    if bits.size and not (np.array_equal(bits, X) and bits.min() >= 0 and bits.max() <= 1):
        return "\n".join("".join(str(int(b)) for b in row) + f",{label}" for row, label in zip(X, labels)).encode()
    rows = [row.decode() for row in (bits.astype(np.uint8) + ord("0")).view(f"S{bits.shape[1]}").ravel()] \
        if bits.shape[1] else [""] * len(labels)
    return "\n".join(f"{row},{label}" for row, label in zip(rows, labels)).encode()


#: Weka's default J48 setting, the one every J48 row is judged at (``options`` in ``data/led_peers``).
J48_DEFAULT = "-C 0.25 -M 2"
#: J48's other settings run on the main draws (``peers/led_peers.py``'s ``VARIANT_OPTIONS``): the
#: paper gives no setting of its C4.5. ``{variant name: options}``; ``-U`` is the un-pruned tree.
J48_SETTINGS = {"j48=C0.1": "-C 0.1 -M 2", "j48=C0.5": "-C 0.5 -M 2", "j48=M1": "-C 0.25 -M 1",
                "j48=M5": "-C 0.25 -M 5", "unpruned=j48": "-U -M 2"}


def j48_results(config: Config | None = None, options: str = J48_DEFAULT) -> pd.DataFrame:
    """Weka's J48 (C4.5, defaults) on the draws of :func:`run`, after checking every draw's hash.

    The rows come from ``data/led_peers`` (``peers/led_peers.py``: Weka 3.6.14 J48 ``-C 0.25
    -M 2``, segments as nominal ``{0,1}`` attributes), run for several protocol seeds (the
    notebook's, its seed variants, and ``-p seed 11``'s). Every draw of ``config`` is regenerated
    (:func:`draw_data`) and its :func:`draw_hash` compared with the committed one. J48 has no
    depth limit; on seven two-valued nominal attributes its trees have depth at most 7, so it
    stands beside the ``d=7`` trees.

    Parameters
    ----------
    config : Config, optional
        :func:`run`'s configuration (default ``Config()``). Its seed must be among those run, its
        sizes and noise those the peer was run with; ``n_draws`` may be smaller (the first draws).
    options : str or list of str, default=J48_DEFAULT
        J48's setting (Weka's options, as ``data/led_peers/results.csv``'s ``options`` names it):
        Weka's defaults, or those of :data:`J48_SETTINGS` (run on the seeds 2001 and 11 only); a
        list gives ``{options: frame}``, the draws' hashes checked once.

    Returns
    -------
    pandas.DataFrame or dict
        Tidy (``dataset`` :data:`DATASET`, ``method`` ``"J48"``, ``seed`` the draw, ``fold`` 0), with
        ``train_error`` and ``test_error`` (%), ``leaves`` (Table 1's size of a tree), ``nodes``
        (all nodes: J48's "Size of the tree", ``size`` in ``data/led_peers``), ``depth``,
        ``train_errors`` (a count) and ``risk`` (Eq. 8 at ``config.lam``, as the other trees':
        :func:`companion.bounds.boolean_kernel.tree_risk` of the leaves and the training errors).

    Raises
    ------
    ValueError
        If ``config`` asks for other draws than those run (or at a setting not run on them), or a
        draw's hash differs.
    """
    config = Config() if config is None else config
    results, _, provenance = load_peers("led")
    for name in ("n_train", "n_test", "noise"):
        if str(getattr(config, name)) != provenance[f"config: {name}"]:
            raise ValueError(f"J48 was run with {name}={provenance[f'config: {name}']}, not {getattr(config, name)}")
    settings = [options] if isinstance(options, str) else list(options)
    frames = {}
    for setting in settings:
        frame = results[(results["seed"] == config.seed) & (results["options"] == setting)]
        if frame.empty:
            raise ValueError(f"J48 ({setting}) was not run on the draws of seed {config.seed} (run for seeds "
                             f"{provenance['config: seeds']}; {provenance['command: J48 settings']})")
        if config.n_draws > len(frame):
            raise ValueError(f"J48 was run on {len(frame)} draws of seed {config.seed}, not {config.n_draws}")
        frames[setting] = frame[frame["draw"] < config.n_draws]
    for draw in range(config.n_draws):  # once for every setting: they ran on the same draws
        if draw_hash(*draw_data(config, draw)) != provenance[f"draw_sha256: {config.seed}/{draw}"]:
            raise ValueError(f"draw {draw} differs from the one J48 was run on; rerun peers/led_peers.py")
    tidy = {setting: check_tidy(pd.DataFrame({
        "dataset": DATASET, "method": "J48", "seed": frame["draw"].to_numpy(), "fold": 0,
        "train_error": 100.0 * frame["train_errors"].to_numpy() / frame["n_train"].to_numpy(),
        "test_error": 100.0 * frame["test_errors"].to_numpy() / frame["n_test"].to_numpy(),
        "leaves": frame["leaves"].to_numpy(), "nodes": frame["size"].to_numpy(), "depth": frame["depth"].to_numpy(),
        "train_errors": frame["train_errors"].to_numpy(),
        "risk": [tree_risk(leaves, errors, config.lam) for leaves, errors in zip(frame["leaves"], frame["train_errors"])],
    })) for setting, frame in frames.items()}
    return tidy[options] if isinstance(options, str) else tidy


def j48_results_if_run(config: Config) -> tuple[pd.DataFrame | None, str]:
    """:func:`j48_results` for ``config``, or ``None`` and the command that runs J48 on its draws.

    J48 was run on the full protocol of a few seeds (``data/led_peers/provenance.csv``); not on
    ``Config.fast()`` or other sizes.

    Parameters
    ----------
    config : Config
        The protocol's configuration.

    Returns
    -------
    frame : pandas.DataFrame or None
        :func:`j48_results`, or ``None``.
    text : str
        What was read, or why nothing was and the command that would run it.
    """
    try:
        frame = j48_results(config)
    except ValueError as exc:
        seeds = load_peers("led").provenance.get("config: seeds", "")
        command = (f".venv/bin/python peers/led_peers.py export --seeds {seeds},{config.seed} && "
                   "/work/peers-venv/bin/python peers/led_peers.py run")
        return None, render(TEMPLATES["j48_missing"], reason=str(exc), command=command).data
    return frame, render(TEMPLATES["j48_found"], n=len(frame), seed=config.seed).data
