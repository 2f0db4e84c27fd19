"""BuildDLM (Figure 1) for a whole grid of penalties at once, sharing every greedy state.

Sokolova, Marchand, Japkowicz and Shawe-Taylor, *The Decision List Machine*, NIPS 15 (2002).
Notebook 01 selects its machines over grids of penalty pairs ``(p_p, p_n)`` on each training fold
(Section 5's protocol). :func:`greedy_ball_lists` returns, for every pair, the list that
:func:`companion._ball_search.greedy_ball_list` returns for it alone (tested), at a fraction of
the cost:

* the pairs walk down one tree of greedy states: the pairs that chose the same balls so far
  share their state ``S'``, which is scored once (:func:`companion._ball_search.score_state`);
* a scored state is summarised once for all its pairs: for each rule output and each number of
  errors ``e``, the largest covered count ``c`` of an admissible ball. With each penalty read as
  the decimal it prints as (``a / q``), the most useful ball of a pair maximises the integer
  ``q c - a e``, so its best value and its tied ``(output, e, c)`` classes are read from that
  summary (O(|S'|) per pair instead of O(|S'|^2)), for all pairs of the state in one array
  operation; the tie rule orders those classes, and the first (centre, border) of the winning
  class in the state's candidate order is the ball, exactly as the per-pair search picks it.

Unit weights and the full :class:`~companion._ball_search.SortedDistances` layout only; other
fits go through :func:`~companion._ball_search.greedy_ball_list` one pair at a time.
"""

from __future__ import annotations

import numpy as np

from companion._ball_search import (
    BALL_TYPES,
    SortedDistances,
    append_ball,
    exact_penalty_integers,
    greedy_ball_list,
    score_state,
)

__all__ = ["greedy_ball_lists"]

_STOP = {
    "either_empty": lambda n_pos, n_neg: n_pos == 0 or n_neg == 0,
    "negatives_empty": lambda n_pos, n_neg: n_neg == 0,
    "positives_empty": lambda n_pos, n_neg: n_pos == 0,
}


def greedy_ball_lists(sd, y01, penalties, *, types=BALL_TYPES, max_balls, stop_when="either_empty",
                      compression_constraint=False, tie_rule="larger_cover", removal="fired", sample_weight=None):
    """:func:`~companion._ball_search.greedy_ball_list` for every ``(p_p, p_n)`` of ``penalties``.

    Parameters
    ----------
    sd : SortedDistances or BlockedSortedDistances
        Sorted distances of the ``m`` training examples.
    y01 : ndarray of shape (m,)
        1 for positive, 0 for negative examples.
    penalties : sequence of (float, float)
        The ``(p_p, p_n)`` pairs (``np.inf`` allowed).
    types, max_balls, stop_when, compression_constraint, tie_rule, removal, sample_weight
        As for :func:`~companion._ball_search.greedy_ball_list`, shared by every pair.

    Returns
    -------
    list of dict
        One per pair, in order: what :func:`~companion._ball_search.greedy_ball_list` returns
        for it (``kind``, ``centre``, ``border``, ``radius``).
    """
    penalties = [(float(p_p), float(p_n)) for p_p, p_n in penalties]
    options = dict(types=types, max_balls=max_balls, stop_when=stop_when, compression_constraint=compression_constraint,
                   tie_rule=tie_rule, removal=removal)
    if sample_weight is not None or not isinstance(sd, SortedDistances):
        return [greedy_ball_list(sd, y01, p_p=p_p, p_n=p_n, sample_weight=sample_weight, **options)
                for p_p, p_n in penalties]
    # the per-pair search validates the options (and y01); one empty-list call is enough
    greedy_ball_list(sd, y01, p_p=1.0, p_n=1.0, sample_weight=None, **{**options, "max_balls": 0})
    y01 = np.asarray(y01).astype(bool)
    m = sd.n_samples
    allowed = np.zeros(4, dtype=bool)
    for name in types:
        allowed[BALL_TYPES.index(name)] = True
    exact = np.array([exact_penalty_integers(p_p, p_n) for p_p, p_n in penalties], dtype=object)
    infinite = np.isinf(np.array(penalties, dtype=float)).reshape(-1, 2)
    limit = np.inf if max_balls is None else max_balls
    stop = _STOP[stop_when]
    results = [None] * len(penalties)
    # depth-first over the tree of states: (pairs, S', compression set, parent state, balls so far)
    stack = [(np.arange(len(penalties)), np.ones(m, dtype=bool), np.zeros(m, dtype=bool), None, ())]
    while stack:
        members, alive, in_compression, parent, balls = stack.pop()
        n_pos = int((alive & y01).sum())
        state = None
        if len(balls) < limit and not stop(n_pos, int(alive.sum()) - n_pos):
            state = score_state(sd, y01, alive, in_compression if compression_constraint else None, allowed, parent,
                                keep_sorted=bool(compression_constraint))
        if state is None or state.covered is None:
            for k in members:
                results[k] = _as_list(balls)
            continue
        summary = _Summary(state)
        winners = summary.winners(exact[members], infinite[members], tie_rule)
        for k in members[winners < 0]:  # no admissible ball for these pairs: their lists end here
            results[k] = _as_list(balls)
        for winner in np.unique(winners[winners >= 0]):
            centre, border = summary.ball(winner)
            code, radius, child_alive, child_compression = append_ball(
                sd, y01, alive, in_compression, centre, border, removal
            )
            stack.append((members[winners == winner], child_alive, child_compression, state,
                          balls + ((code, centre, border, radius),)))
    return results


def _as_list(balls):
    kinds, centres, borders, radii = zip(*balls) if balls else ((), (), (), ())
    return {
        "kind": np.array(kinds, dtype=int),
        "centre": np.array(centres, dtype=int),
        "border": np.array(borders, dtype=int),
        "radius": np.array(radii, dtype=float),
    }


class _Summary:
    """A scored state reduced to its classes ``(output, errors, covered)`` of admissible balls.

    ``best_cover[g, e]``: the largest covered count of an admissible ball whose border has class
    ``g`` (1: an output-0 rule, whose errors ``p_p`` penalises; 0: output 1, ``p_n``) and that
    makes ``e`` errors (0: none). For a pair of penalties, the value ``q c - a_g e`` of every
    ball of class ``(g, e)`` is at most that of ``(g, e, best_cover[g, e])``, so the most useful
    balls are exactly those of the classes ``(g, e, best_cover[g, e])`` of largest value.
    """

    def __init__(self, state):
        covered = state.covered.ravel()
        errors = (state.errors_p_p + state.errors_p_n).ravel()
        width = int(max(covered.max(initial=0), errors.max(initial=0))) + 1
        self.width = width
        self.slot = np.multiply(state.label_sorted.ravel(), width, dtype=np.intp)
        self.slot += errors  # g * width + e
        self.covered = covered
        best = np.zeros(2 * width, dtype=covered.dtype)  # the same dtype: ufunc.at's fast path
        np.maximum.at(best, self.slot, covered)  # inadmissible balls have covered = 0
        self.best_cover = best
        self.state = state

    def winners(self, exact, infinite, tie_rule):
        """Per pair (rows of ``exact``: ``(q, a_p, a_n)``), the winning slot, or -1 if none is admissible."""
        width, best = self.width, self.best_cover
        slots = np.flatnonzero(best > 0)
        if not len(slots):
            return np.full(len(exact), -1)
        g, e = np.divmod(slots, width)
        c = best[slots].astype(np.int64)
        # tie rules over the classes (the candidate order decides within a class): lexsort's last key is primary
        keys = {"larger_cover": (g, e, -c), "fewest_errors": (g, -c, e), "output_one_first": (e, -c, g)}[tie_rule]
        ranked = np.lexsort(keys)
        slots, g, e, c = slots[ranked], g[ranked], e[ranked], c[ranked]
        q, a_p, a_n = exact[:, 0:1], exact[:, 1:2], exact[:, 2:3]
        bound = max(int(q.max()) + int(max(a_p.max(), a_n.max())), 1) * width
        dtype = np.int64 if bound < 2**62 else object
        a = np.where(g[None, :] == 1, a_p.astype(dtype), a_n.astype(dtype))
        value = q.astype(dtype) * c[None, :].astype(dtype) - a * e[None, :].astype(dtype)
        # an infinite penalty admits no error of its kind (g = 1: p_p, g = 0: p_n)
        barred = np.where(g[None, :] == 1, infinite[:, 0:1], infinite[:, 1:2]) & (e[None, :] > 0)
        floor = -(bound + 1)
        value = np.where(barred, floor, value)
        top = value.max(axis=1, keepdims=True)
        first = np.argmax(value == top, axis=1)  # the first tied class in the tie rule's order
        return np.where(top[:, 0] > floor, slots[first], -1)

    def ball(self, slot):
        """``(centre, border)`` of the first candidate of the class ``slot`` in the state's order."""
        wanted = self.best_cover[slot]
        flat = int(np.argmax((self.slot == slot) & (self.covered == wanted)))
        row, position = divmod(flat, len(self.state.rows))
        return int(self.state.rows[row]), int(self.state.order[row, position])
