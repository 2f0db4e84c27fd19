"""Notebook 01's grids of ball machines on one training fold, every penalty from one search.

Plumbing of :func:`companion.experiments.paper01._grids.dlm_grid_errors` and
:func:`~companion.experiments.paper01._grids.scm_grid_errors`. The lists of every penalty of a grid
(one fold) come from one search, :func:`companion._ball_grid.greedy_ball_lists_by_types` for
the DLM's types together and :func:`~companion._ball_grid.greedy_ball_lists` for each SCM type,
which returns, pair by pair, the list a fit with that pair learns (tested); then

* without the compression-set constraint, the test errors of every prefix are read from the
  lists directly (:func:`list_test_errors`: the estimator's ``staged_predict`` arithmetic on
  the same distances, tested equal to it);
* with it, each grid point is still a fitted estimator (:func:`fit_with_list`), whose paths,
  truncation to a consistent prefix and bounds the protocols read, its greedy search replaced
  by the list already found.

A training set that is not in the canonical order of the ball machines
(canonical order, ``companion._ball_search.canonical_order``) or lacks a class takes the per-fit path.
"""

from __future__ import annotations

import numpy as np
from scipy.spatial.distance import cdist

from companion._ball_grid import greedy_ball_lists, greedy_ball_lists_by_types
from companion.decision_list import TYPE_INSIDE, TYPE_OUTPUT
from companion._ball_search import BALL_TYPES, canonical_order, decision_list_path_predictions, resolve_metric

__all__ = ["lists_apply", "dlm_lists_by_type", "scm_lists", "list_key", "list_test_errors", "fit_with_list", "test_distances"]


def lists_apply(X_train, y_train) -> bool:
    """Whether a fit on ``(X_train, y_train)`` runs its search on exactly these rows and labels.

    True when the labels are 0/1 with both classes present and the rows are in canonical order
    (so a fit's canonical re-ordering is the identity and its search sees ``y_train`` itself).

    Parameters
    ----------
    X_train : ndarray of shape (m, n)
        Training features.
    y_train : ndarray of shape (m,)
        Training labels.

    Returns
    -------
    bool
    """
    y_train = np.asarray(y_train)
    if not set(np.unique(y_train).tolist()) == {0, 1}:
        return False
    return bool((canonical_order(X_train, y_train) == np.arange(len(y_train))).all())


def dlm_lists_by_type(sd, y_train, ball_types, penalties, s_max, *, constraint, tie_rule="larger_cover",
                      removal="fired", grid_state_pass=None):
    """BuildDLM's list for every ``(p_p, p_n)`` of ``penalties`` and each of ``ball_types``, as the
    DLM's fit runs it, from one search that shares the types' common states.

    Parameters
    ----------
    sd : SortedDistances
        The training fold's sorted distances (canonical order).
    y_train : ndarray of shape (m,)
        Labels 0/1.
    ball_types : sequence of {"simple", "complex"}
        The DLM types.
    penalties : sequence of (float, float)
        The ``(p_p, p_n)`` pairs.
    s_max : int
        Stopping point.
    constraint : bool
        The compression-set constraint.
    tie_rule, removal : str
        As for :func:`companion._ball_search.greedy_ball_list`.
    grid_state_pass : callable, optional
        The caller's compiled pass (:func:`companion._ball_grid.compiled_grid_state`), shared by
        its searches; None: the search takes its own.

    Returns
    -------
    list of list of dict
        Per type, one learnt list per pair (:func:`companion._ball_grid.greedy_ball_lists_by_types`).
    """
    type_sets = [("Pi", "Ni") if ball_type == "simple" else BALL_TYPES for ball_type in ball_types]
    return greedy_ball_lists_by_types(sd, y_train, penalties, type_sets, max_balls=s_max, stop_when="either_empty",
                                      compression_constraint=constraint, tie_rule=tie_rule, removal=removal,
                                      grid_state_pass=grid_state_pass)


def scm_lists(sd, y_train, model_type, penalties, s_max, *, constraint=False, grid_state_pass=None):
    """The ball SCM's list for every ``p`` of ``penalties`` (one search), as its fit runs it.

    Parameters
    ----------
    sd : SortedDistances
        The training fold's sorted distances (canonical order).
    y_train : ndarray of shape (m,)
        Labels 0/1.
    model_type : {"conjunction", "disjunction"}
        The SCM's type.
    penalties : sequence of float
        The ``p`` values.
    s_max : int
        Stopping point.
    constraint : bool, default=False
        The compression-set constraint.
    grid_state_pass : callable, optional
        As for :func:`dlm_lists_by_type`.

    Returns
    -------
    list of dict
        One learnt list per ``p``.
    """
    if model_type == "conjunction":
        types, stop, pairs = ("Ni", "No"), "negatives_empty", [(p, 1.0) for p in penalties]
    else:
        types, stop, pairs = ("Pi", "Po"), "positives_empty", [(1.0, p) for p in penalties]
    return greedy_ball_lists(sd, y_train, pairs, types=types, max_balls=s_max, stop_when=stop,
                             compression_constraint=constraint, grid_state_pass=grid_state_pass)


def test_distances(X_test, X_train, metric="l2") -> np.ndarray:
    """Distances of every test example to every training example (the candidate centres).

    Parameters
    ----------
    X_test : ndarray of shape (n_test, n)
        Test features.
    X_train : ndarray of shape (m, n)
        Training features.
    metric : str, default="l2"
        A metric name of the ball machines.

    Returns
    -------
    ndarray of shape (n_test, m)
        SciPy's ``cdist``: each entry computed on its own pair, so a column is the same bits as
        the fitted machine's distances to that centre.
    """
    return cdist(np.asarray(X_test, dtype=float), np.asarray(X_train, dtype=float), metric=resolve_metric(metric))


def list_test_errors(learnt, to_train, y_test, *, default, length, majority):
    """Test errors of every prefix of a learnt list and its sizes, padded to ``length`` stopping points.

    What a fit with that list and ``stop_if_unchanged=False``, no compression-set constraint,
    gives through ``staged_predict`` (and ``predict`` for the empty list), read without fitting.

    Parameters
    ----------
    learnt : dict
        A learnt list (canonical indices of the training fold).
    to_train : ndarray of shape (n_test, m)
        :func:`test_distances` to the training fold.
    y_test : ndarray of shape (n_test,)
        Test labels 0/1.
    default : {"dlm", 0, 1}
        ``"dlm"``: the default of a prefix is the opposite of its last output (Figure 1, step 6);
        0 or 1: the constant default of a disjunction / conjunction.
    length : int
        The grid's number of stopping points.
    majority : int
        The empty list's prediction (the training fold's majority class).

    Returns
    -------
    tuple of ndarray
        ``(errors, balls)``, each of shape ``(length,)``: test errors and numbers of balls of the
        fit with stopping point ``s = 1 .. length``.
    """
    kinds, radii = learnt["kind"], learnt["radius"]
    r = len(kinds)
    if r == 0:
        return np.full(length, float((y_test != majority).sum())), np.zeros(length)
    distances = to_train[:, learnt["centre"]]
    fires = np.where(TYPE_INSIDE[kinds], distances < radii, distances > radii)
    outputs = TYPE_OUTPUT[kinds]
    defaults = 1 - outputs if default == "dlm" else np.full(r, default)
    errors = (decision_list_path_predictions(fires, outputs, defaults) != y_test).sum(axis=1)
    return _pad(errors, length).astype(float), _pad(np.arange(1, r + 1), length).astype(float)


def list_key(learnt) -> bytes:
    """A learnt list as bytes: equal for two lists of one training fold exactly when they are the same list.

    The radius of each ball is the distance from its centre to its border, so the types,
    centres and borders determine the list.

    Parameters
    ----------
    learnt : dict
        A learnt list (``kind``, ``centre``, ``border``, ``radius``).

    Returns
    -------
    bytes
    """
    kinds = np.asarray(learnt["kind"], dtype=np.int64)
    return b"".join((np.int64(len(kinds)).tobytes(), kinds.tobytes(),
                     np.asarray(learnt["centre"], dtype=np.int64).tobytes(),
                     np.asarray(learnt["border"], dtype=np.int64).tobytes()))


def _pad(values, length):
    if len(values) >= length:
        return values[:length]
    return np.concatenate([values, np.repeat(values[-1:], length - len(values))])


def fit_with_list(estimator, X_train, y_train, sd, learnt):
    """``estimator.fit(X_train, y_train, sorted_distances=sd)`` with its greedy search's result known.

    Parameters
    ----------
    estimator : DecisionListMachine or BallSetCoveringMachine
        Unfitted, with the parameters ``learnt`` was searched with.
    X_train, y_train : ndarray
        The training fold (:func:`lists_apply` holds).
    sd : SortedDistances
        Its sorted distances.
    learnt : dict
        The list the estimator's own search returns.

    Returns
    -------
    estimator
        Fitted.
    """
    estimator._learn = lambda sd, y01, weights: learnt
    try:
        return estimator.fit(X_train, y_train, sorted_distances=sd)
    finally:
        del estimator._learn
