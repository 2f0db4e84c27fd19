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
    _restrict,
    _tie_groups,
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
            if compression_constraint:
                state = score_state(sd, y01, alive, in_compression, allowed, parent, keep_sorted=True)
            else:
                state = _GridState(sd, y01, alive, parent, allowed)
        if state is None or getattr(state, "covered", True) is None:
            for k in members:
                results[k] = _as_list(balls)
            continue
        summary = _Summary(state) if compression_constraint else state
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
class _GridState:
    """One greedy state ``S'`` of the grid search without the compression-set constraint, summarised.

    The classes of :class:`_Summary`, read from where the remaining examples of each class lie
    along every centre's sorted row (Section 3's balls) in a few passes over ``|S'|^2`` entries
    instead of counting every candidate ball:

    * ``at[k, t]``: the position along row ``k`` of the ``t``-th remaining example of class ``g``
      (a candidate border: ``g = 0``, a negative, for the output-1 balls Pi and Po; ``g = 1`` for
      Ni and No), ``at - t`` the examples of the other class before it. A ball that fires inside
      (centre of the other class: Pi, Ni) with that border makes ``e = t`` errors and covers
      ``s - t`` examples, ``s`` the start of the border's group of equal distances, if the border
      is the first of class ``g`` in its group (the others give the same ball); one that fires
      outside (centre of class ``g``: Po, No) makes ``e = count_g - 1 - t`` errors and covers
      ``n_other - (end - t)``, ``end`` the group's end, if the border is the group's last of class
      ``g``. Without equal distances ``s = end = at``; the few borders in groups of two or more
      are corrected one by one.
    * Each class ``(g, e)`` thus has at most one ball per row (its group): the largest covered
      count ``best_cover`` is a column maximum over the rows of a centre class, and the first
      candidate of a class in the state's order is found row by row (:meth:`ball`).
    """

    def __init__(self, sd, y01, alive, parent, allowed):
        rows, order, sorted_rows = _restrict(sd, alive, parent, keep_sorted=sd.has_ties)
        self.alive, self.rows, self.order, self.sorted_rows = alive, rows, order, sorted_rows
        n = len(rows)
        labels = y01[order]  # the class of each remaining example along each sorted row
        centre_positive = y01[rows]
        n_pos = int(centre_positive.sum())
        n_neg = n - n_pos
        tied = multi_start = multi_end = None
        if sd.has_ties and n:
            starts = np.ones((n, n), dtype=bool)
            np.not_equal(sorted_rows[:, 1:], sorted_rows[:, :-1], out=starts[:, 1:])
            if not starts.all():
                ends = np.ones((n, n), dtype=bool)
                ends[:, :-1] = starts[:, 1:]
                single = starts & ends
                tied = ~single.ravel()  # positions in a group of two or more equal distances
                multi_start = np.flatnonzero(starts.ravel() > ends.ravel())
                multi_end = np.flatnonzero(ends.ravel() > starts.ravel())
        self.has_groups = tied is not None
        offsets = np.arange(0, n * n, n)[:, None]
        pi, po, ni, no = (bool(v) for v in allowed)
        self.parts = {}
        best = []
        for g, inside, outside, count, other in ((0, pi, po, n_neg, n_pos), (1, ni, no, n_pos, n_neg)):
            column = np.zeros(count, dtype=np.intp)
            if inside or outside:
                flat = np.flatnonzero(labels if g else ~labels)  # the borders of class g, row after row
                at = flat.reshape(n, count) - offsets
                before = at - np.arange(count)  # examples of the other class before each border
                before_in, before_out = before, before
                if tied is not None:
                    before_in, before_out = self._groups(flat, at, before, count, other, tied, multi_start,
                                                         multi_end, n)
                self.parts[g] = (at, count, other)
                if inside:  # centres of the other class
                    centre_rows = np.flatnonzero(centre_positive != bool(g))
                    cover = before_in[centre_rows]
                    self.parts[g, True] = (centre_rows, cover)
                    if len(cover):
                        np.maximum(column, cover.max(axis=0), out=column)
                if outside:  # centres of class g
                    centre_rows = np.flatnonzero(centre_positive == bool(g))
                    cover = (other - before_out[centre_rows])[:, ::-1]  # column e: the ball with e errors
                    self.parts[g, False] = (centre_rows, cover)
                    if len(cover):
                        np.maximum(column, cover.max(axis=0), out=column)
            best.append(column)
        width = max(n_pos, n_neg) + 1
        self.width = width
        self.best_cover = np.zeros(2 * width, dtype=np.intp)
        self.best_cover[: n_neg] = best[0]
        self.best_cover[width: width + n_pos] = best[1]

    @staticmethod
    def _groups(flat, at, before, count, other, tied, multi_start, multi_end, n):
        """``before`` corrected for the borders in groups of equal distances: an inside ball counts
        the other class before the group start (0: not the group's first border of its class), an
        outside ball up to the group end (``other``: not the group's last)."""
        q = np.flatnonzero(tied[flat])
        if not len(q):
            return before, before
        p = flat[q]
        start = multi_start[np.searchsorted(multi_start, p, side="right") - 1]
        end = multi_end[np.searchsorted(multi_end, p, side="left")]
        row_offset = p - at.ravel()[q]
        t = q % count
        previous = np.where(q > 0, flat[np.maximum(q - 1, 0)], -1)
        following = np.where(q + 1 < len(flat), flat[np.minimum(q + 1, len(flat) - 1)], n * n)
        before_in = before.copy()
        before_out = before.copy()
        before_in.ravel()[q] = np.where(previous < start, start - row_offset - t, 0)
        before_out.ravel()[q] = np.where(following > end, end - row_offset - t, other)
        return before_in, before_out

    winners = _Summary.winners

    def ball(self, slot):
        """``(centre, border)`` of the first candidate of the class ``slot`` in the state's order
        (rows by centre index, then positions along the row), as :meth:`_Summary.ball`."""
        g, e = divmod(int(slot), self.width)
        wanted = self.best_cover[slot]
        first = None
        for fires_inside in (True, False):
            if (g, fires_inside) not in self.parts:
                continue
            centre_rows, cover = self.parts[g, fires_inside]
            hits = np.flatnonzero(cover[:, e] == wanted)
            if len(hits) and (first is None or centre_rows[hits[0]] < first[0]):
                first = (int(centre_rows[hits[0]]), fires_inside)
        row, fires_inside = first
        at, count, _ = self.parts[g]
        position = at[row]
        j = int(position[e if fires_inside else count - 1 - e])
        if not fires_inside and self.has_groups:  # the first border of class g in the group
            distances = self.sorted_rows[row]
            start = int(np.searchsorted(distances, distances[j], side="left"))
            j = int(position[np.searchsorted(position, start)])
        return int(self.rows[row]), int(self.order[row, j])
