"""BuildDLM (Figure 1) for a whole grid of penalties at once, sharing every greedy state.

Sokolova, Marchand, Japkowicz and Shawe-Taylor, *The Decision List Machine*, NIPS 15 (2002).
Notebook 01 selects its machines over grids of penalty pairs ``(p_p, p_n)`` on each training fold
(Section 5's protocol). :func:`greedy_ball_lists` returns, for every pair, the list that
:func:`companion._ball_search.greedy_ball_list` returns for it alone (tested), at a fraction of
the cost:

* the pairs walk down one tree of greedy states: the pairs that chose the same balls so far
  share their state ``S'``, which is scored once (:func:`companion._ball_search.score_state`);
  :func:`greedy_ball_lists_by_types` runs the searches of several sets of ball types (a DLM's
  simple and complex balls) down one tree, where every state their balls lead to alike is shared;
* a scored state is summarised once for all its pairs: for each rule output and each number of
  errors ``e``, the largest covered count ``c`` of an admissible ball. With each penalty read as
  the decimal it prints as (``a / q``), the most useful ball of a pair maximises the integer
  ``q c - a e``, so its best value and its tied ``(output, e, c)`` classes are read from that
  summary (O(|S'|) per pair instead of O(|S'|^2)), for all pairs of the state in one array
  operation; the tie rule orders those classes, and the first (centre, border) of the winning
  class in the state's candidate order is the ball, exactly as the per-pair search picks it.

Without the compression-set constraint, and unless many distances are equal (more than
``_GRID_MAX_TIED_SHARE`` of the positions along the sorted rows), a state's summary does not
count every candidate: :class:`_GridState` reads it from where the remaining examples of each
class lie along each centre's sorted row (a column maximum per class of centre; tested equal to
:class:`_Summary` of every candidate's counts, with and without equal distances). Only the
Pareto front of each output's classes (no other class of that output has as few errors and a
larger cover) can win for a non-negative penalty, so the winners are ranked among those.

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
    restrict_sorted_rows,
    score_state,
    type_allowed,
)

__all__ = ["greedy_ball_lists", "greedy_ball_lists_by_types"]

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
    return greedy_ball_lists_by_types(
        sd, y01, penalties, [types], max_balls=max_balls, stop_when=stop_when,
        compression_constraint=compression_constraint, tie_rule=tie_rule, removal=removal,
        sample_weight=sample_weight,
    )[0]


def greedy_ball_lists_by_types(sd, y01, penalties, type_sets, *, max_balls, stop_when="either_empty",
                               compression_constraint=False, tie_rule="larger_cover", removal="fired",
                               sample_weight=None):
    """:func:`greedy_ball_lists` for each set of ball types of ``type_sets``, in one search.

    The greedy state ``S'`` of the summarised search (:class:`_GridState`) depends on the
    remaining examples only, not on the ball types, so the searches of the type sets (a DLM's
    simple and complex balls, say) share every state they reach from a shared state by balls
    that fire on the same examples: the children of a state are grouped by their ``S'``, and
    each pair of each type set keeps its own balls. Where every candidate is counted
    (:func:`~companion._ball_search.score_state`), a shared state is scored once for all the
    types and each type set reads its own candidates (:class:`_TypesOf`). With the
    compression-set constraint, or with weights, each type set is searched on its own.

    Parameters
    ----------
    sd : SortedDistances or BlockedSortedDistances
        Sorted distances of the ``m`` training examples.
    y01 : ndarray of shape (m,)
        1 for positive, 0 for negative examples.
    penalties : sequence of (float, float)
        The ``(p_p, p_n)`` pairs (``np.inf`` allowed), shared by every type set.
    type_sets : sequence of tuple of str
        The ball types of each search (``types`` of :func:`greedy_ball_lists`).
    max_balls, stop_when, compression_constraint, tie_rule, removal, sample_weight
        As for :func:`~companion._ball_search.greedy_ball_list`, shared by every search.

    Returns
    -------
    list of list of dict
        Per type set, :func:`greedy_ball_lists` for it (one learnt list per pair, in order).
    """
    penalties = [(float(p_p), float(p_n)) for p_p, p_n in penalties]
    type_sets = [tuple(types) for types in type_sets]
    options = dict(max_balls=max_balls, stop_when=stop_when, compression_constraint=compression_constraint,
                   tie_rule=tie_rule, removal=removal)
    if sample_weight is not None or not isinstance(sd, SortedDistances):
        return [[greedy_ball_list(sd, y01, p_p=p_p, p_n=p_n, sample_weight=sample_weight, types=types, **options)
                 for p_p, p_n in penalties] for types in type_sets]
    # the per-pair search validates the options (and y01); one empty-list call per type set is enough
    for types in type_sets:
        greedy_ball_list(sd, y01, p_p=1.0, p_n=1.0, sample_weight=None, types=types, **{**options, "max_balls": 0})
    y01 = np.asarray(y01).astype(bool)
    # every candidate's counts (score_state) with the compression-set constraint, or where many
    # distances are equal (there they are faster); _GridState otherwise (the same classes, tested)
    counted = bool(compression_constraint) or _tied_share(sd) > _GRID_MAX_TIED_SHARE
    if compression_constraint and len(type_sets) > 1:  # the constraint's states: one search each
        return [_search(sd, y01, penalties, [types], counted, **options)[0] for types in type_sets]
    return _search(sd, y01, penalties, type_sets, counted, **options)


def _search(sd, y01, penalties, type_sets, counted, *, max_balls, stop_when, compression_constraint, tie_rule,
            removal):
    """The depth-first search of :func:`greedy_ball_lists_by_types` over validated arguments."""
    m = sd.n_samples
    n_pairs = len(penalties)
    allowed = np.zeros((len(type_sets), 4), dtype=bool)
    for t, types in enumerate(type_sets):
        for name in types:
            allowed[t, BALL_TYPES.index(name)] = True
    exact = np.array([exact_penalty_integers(p_p, p_n) for p_p, p_n in penalties], dtype=object)
    if len(exact) and np.abs(exact).max() < 2**31:  # the same integers, without Python objects (winners reads them often)
        exact = exact.astype(np.int64)
    infinite = np.isinf(np.array(penalties, dtype=float)).reshape(-1, 2)
    limit = np.inf if max_balls is None else max_balls
    stop = _STOP[stop_when]
    # member k: pair k % n_pairs of type set k // n_pairs; its balls so far are the chain of nodes
    # (ball, previous node) ending at node last[k] (node 0: the empty list), length[k] of them
    n_members = n_pairs * len(type_sets)
    nodes = [None]
    last = np.zeros(n_members, dtype=np.intp)
    length = np.zeros(n_members, dtype=np.intp)
    results = [None] * n_members
    chains = {0: ()}

    def finish(ended):
        for k in ended:
            node = int(last[k])
            if node not in chains:
                ball, previous = nodes[node]
                chain = [ball]
                while previous not in chains:
                    ball, previous = nodes[previous]
                    chain.append(ball)
                chains[node] = chains[previous] + tuple(reversed(chain))
            results[k] = _as_list(chains[node])

    # depth-first over the tree of states: (members, S', compression set, parent state)
    stack = [(np.arange(n_members), np.ones(m, dtype=bool), np.zeros(m, dtype=bool), None)]
    while stack:
        members, alive, in_compression, parent = stack.pop()
        n_pos = int((alive & y01).sum())
        going = length[members] < limit
        if stop(n_pos, int(alive.sum()) - n_pos):
            going[:] = False
        state = None
        if going.any():
            if counted:  # scored for every type of the searches (each masks its own below)
                state = score_state(sd, y01, alive, in_compression if compression_constraint else None,
                                    allowed.any(axis=0), parent, keep_sorted=bool(compression_constraint))
            else:
                state = _GridState(sd, y01, alive, parent)
        if state is None or getattr(state, "covered", True) is None:
            going[:] = False
        finish(members[~going])
        members = members[going]
        children = {}  # S' of a child -> (its members, S', compression set)
        sets = members // n_pairs
        for t in np.unique(sets):
            searched = members[sets == t]
            pairs = searched % n_pairs
            if not counted:
                summary = state.summary(allowed[t])
            elif len(allowed) == 1:
                summary = _Summary(state)
            else:
                summary = _Summary(_TypesOf(state, y01, allowed[t]))
            winners = summary.winners(exact[pairs], infinite[pairs], tie_rule)
            finish(searched[winners < 0])  # no admissible ball for these pairs: their lists end here
            for winner in np.unique(winners[winners >= 0]):
                centre, border = summary.ball(winner)
                code, radius, child_alive, child_compression = append_ball(
                    sd, y01, alive, in_compression, centre, border, removal
                )
                chosen = searched[winners == winner]
                previous = last[chosen]
                for node in np.unique(previous):
                    nodes.append(((code, centre, border, radius), int(node)))
                    last[chosen[previous == node]] = len(nodes) - 1
                length[chosen] += 1
                key = child_alive.tobytes() + (child_compression.tobytes() if compression_constraint else b"")
                if key in children:
                    children[key][0].append(chosen)
                else:
                    children[key] = ([chosen], child_alive, child_compression)
        for chosen, child_alive, child_compression in children.values():
            stack.append((np.sort(np.concatenate(chosen)), child_alive, child_compression, state))
    return [results[t * n_pairs: (t + 1) * n_pairs] for t in range(len(type_sets))]


#: Share of the positions along the sorted rows that equal their predecessor beyond which the
#: grid search counts every candidate (score_state) instead of summarising with _GridState.
_GRID_MAX_TIED_SHARE = 0.01


def _tied_share(sd):
    """The share of positions along ``sd``'s sorted rows whose distance equals the previous one (memoised)."""
    if "_tied_share" not in sd.__dict__:
        rows = sd.sorted_rows
        share = float((rows[:, 1:] == rows[:, :-1]).mean()) if sd.has_ties and rows.shape[1] > 1 else 0.0
        sd.__dict__["_tied_share"] = share
    return sd.__dict__["_tied_share"]


def _as_list(balls):
    kinds, centres, borders, radii = zip(*balls) if balls else ((), (), (), ())
    return {
        "kind": np.array(kinds, dtype=int),
        "centre": np.array(centres, dtype=int),
        "border": np.array(borders, dtype=int),
        "radius": np.array(radii, dtype=float),
    }


class _TypesOf:
    """A scored state's candidates of the ``allowed`` types only (the others inadmissible).

    What :func:`~companion._ball_search.score_state` returns for those types alone when it
    scored a superset of them: ``covered`` is zeroed outside the types; the errors are not
    (it does not zero them for inadmissible candidates either).
    """

    def __init__(self, state, y01, allowed):
        self.rows, self.order, self.label_sorted = state.rows, state.order, state.label_sorted
        inside = y01[state.rows][:, None] ^ state.label_sorted
        self.covered = state.covered * type_allowed(allowed, inside, state.label_sorted)
        self.errors_p_p, self.errors_p_n = state.errors_p_p, state.errors_p_n


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
        if (exact[:, 1:] >= 0).all():
            # a class beaten within its output by one of no more errors and a larger cover (or as
            # large with fewer errors) has a smaller value for every non-negative penalty, or an
            # equal one (zero penalty) that every tie rule ranks after it: only the Pareto front
            # of each output can win (slots run by output, then errors)
            front = np.ones(len(slots), dtype=bool)
            for output in (0, 1):
                part = np.flatnonzero(g == output)
                if len(part) > 1:
                    cover = c[part]
                    front[part[1:]] = cover[1:] > np.maximum.accumulate(cover)[:-1]
            slots, g, e, c = slots[front], g[front], e[front], c[front]
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

    def __init__(self, sd, y01, alive, parent):
        if parent is None:  # the root: centres of one class after the other (see _Root)
            parent = _Root(sd, y01)
        rows, order, tie_rows, tie_sorted = _restrict_grid(parent, alive)
        self.rows, self.order = rows, order
        n = len(rows)
        self.labels = y01[order]  # the class of each remaining example along each sorted row
        self.n_pos = int(y01[rows].sum())  # the first n_pos rows: positive centres (each class by index)
        self.tied = self.dense = None
        if tie_rows is not None:
            # equal distances in the rows that had some in the parent (a removal creates none)
            starts = np.ones(tie_sorted.shape, dtype=bool)
            np.not_equal(tie_sorted[:, 1:], tie_sorted[:, :-1], out=starts[:, 1:])
            some = ~starts.all(axis=1)
            if not some.all():
                tie_rows, tie_sorted, starts = tie_rows[some], tie_sorted[some], starts[some]
            if len(tie_rows):
                ends = np.ones(starts.shape, dtype=bool)
                ends[:, :-1] = starts[:, 1:]
                single = starts & ends
                local = np.flatnonzero(~single)  # in a group of two or more equal distances
                if len(local) * 16 > n * n:  # many: every position's group start and end, row by row
                    positions = np.arange(n)
                    first = np.broadcast_to(positions, (n, n)).copy()
                    last = first.copy()
                    # running maximum of the group starts, reversed running minimum of the ends
                    first[tie_rows] = np.maximum.accumulate(starts * positions, axis=1)
                    last[tie_rows] = np.minimum.accumulate(np.where(ends, positions, n)[:, ::-1], axis=1)[:, ::-1]
                    self.dense = (first.ravel(), last.ravel())
                is_start, is_end = starts.ravel()[local], ends.ravel()[local]
                positions = tie_rows[local // n] * n + local % n  # flat positions in the state's rows
                self.tied = (positions, positions[is_start], positions[is_end])
            else:
                tie_rows = tie_sorted = None
        self.tie_rows, self.tie_sorted = tie_rows, tie_sorted
        self.has_groups = self.tied is not None
        self._parts = {}
        self._summaries = {}

    def part(self, g):
        """``(flat, count, other, before_in, before_out, rows_in, rows_out)`` of the borders of class ``g``."""
        if g not in self._parts:
            n, n_pos = len(self.rows), self.n_pos
            count, other = (n - n_pos, n_pos) if g == 0 else (n_pos, n - n_pos)
            flat = np.flatnonzero(self.labels if g else ~self.labels).reshape(n, count)  # by row
            before = flat - np.arange(0, n * n, n)[:, None]
            before -= np.arange(count)  # examples of the other class before each border
            before_in, before_out = before, before
            if self.dense is not None:
                before_in, before_out = self._dense_groups(flat, before, count, other, self.dense)
            elif self.tied is not None:
                before_in, before_out = self._groups(flat.ravel(), before, count, other, self.tied, n)
            # centres of the other class fire inside (Pi, Ni), those of class g outside (Po, No)
            rows_in = slice(0, n_pos) if g == 0 else slice(n_pos, n)
            rows_out = slice(n_pos, n) if g == 0 else slice(0, n_pos)
            self._parts[g] = (flat, count, other, before_in, before_out, rows_in, rows_out)
        return self._parts[g]

    def summary(self, allowed):
        """The state's classes of admissible balls of the ``allowed`` types (:class:`_GridSummary`)."""
        key = allowed.tobytes()
        if key not in self._summaries:
            self._summaries[key] = _GridSummary(self, allowed)
        return self._summaries[key]

    @staticmethod
    def _dense_groups(flat, before, count, other, dense):
        """:meth:`_groups` for states with many equal distances: every border at once, from the
        group start and end of every position."""
        first, last = dense
        at = before + np.arange(count)  # positions along the rows
        start = first[flat]
        end = last[flat]
        before_in = start - np.arange(count)
        before_in[:, 1:] *= at[:, :-1] < start[:, 1:]  # only the group's first border of its class
        before_out = end - np.arange(count)
        np.copyto(before_out[:, :-1], other, where=at[:, 1:] <= end[:, :-1])  # only its last
        return before_in, before_out

    @staticmethod
    def _groups(flat, before, count, other, tied, n):
        """``before`` corrected for the borders in groups of equal distances: an inside ball counts
        the other class before the group start (0: not the group's first border of its class), an
        outside ball up to the group end (``other``: not the group's last)."""
        positions, group_starts, group_ends = tied
        if len(positions) * 8 < len(flat):  # few tied positions: find them among the borders
            q = np.searchsorted(flat, positions)
            hit = q < len(flat)
            hit[hit] = flat[q[hit]] == positions[hit]
            q = q[hit]
        else:
            mask = np.zeros(n * n, dtype=bool)
            mask[positions] = True
            q = np.flatnonzero(mask[flat])
        if not len(q):
            return before, before
        p = flat[q]
        start = group_starts[np.searchsorted(group_starts, p, side="right") - 1]
        end = group_ends[np.searchsorted(group_ends, p, side="left")]
        row_offset = p - p % n
        t = q % count
        previous = np.where(q > 0, flat[np.maximum(q - 1, 0)], -1)
        following = np.where(q + 1 < len(flat), flat[np.minimum(q + 1, len(flat) - 1)], n * n)
        before_in = before.copy()
        before_out = before.copy()
        before_in.ravel()[q] = np.where(previous < start, start - row_offset - t, 0)
        before_out.ravel()[q] = np.where(following > end, end - row_offset - t, other)
        return before_in, before_out



class _GridSummary:
    """:class:`_Summary`'s classes for a :class:`_GridState` and a set of allowed ball types."""

    def __init__(self, state, allowed):
        self.state = state
        pi, po, ni, no = (bool(v) for v in allowed)
        self.types = {0: (pi, po), 1: (ni, no)}
        n, n_pos = len(state.rows), state.n_pos
        n_neg = n - n_pos
        best = []
        for g, count in ((0, n_neg), (1, n_pos)):
            column = np.zeros(count, dtype=np.intp)
            inside, outside = self.types[g]
            if inside or outside:
                _, _, other, before_in, before_out, rows_in, rows_out = state.part(g)
                if inside and before_in[rows_in].size:
                    np.maximum(column, before_in[rows_in].max(axis=0), out=column)
                if outside and before_out[rows_out].size:  # column e: the ball with e errors
                    np.maximum(column, (other - before_out[rows_out].min(axis=0))[::-1], out=column)
            best.append(column)
        width = max(n_pos, n_neg) + 1
        self.width = width
        self.best_cover = np.zeros(2 * width, dtype=np.intp)
        self.best_cover[: n_neg] = best[0]
        self.best_cover[width: width + n_pos] = best[1]

    winners = _Summary.winners

    def ball(self, slot):
        """``(centre, border)`` of the first candidate of the class ``slot`` in the state's order
        (rows by centre index, then positions along the row), as :meth:`_Summary.ball`."""
        state = self.state
        g, e = divmod(int(slot), self.width)
        wanted = self.best_cover[slot]
        flat, count, other, before_in, before_out, rows_in, rows_out = state.part(g)
        first = None
        for fires_inside, ok, rows in ((True, self.types[g][0], rows_in), (False, self.types[g][1], rows_out)):
            if not ok:
                continue
            cover = before_in[rows, e] if fires_inside else other - before_out[rows, count - 1 - e]
            hits = np.flatnonzero(cover == wanted)
            if len(hits):
                row = rows.start + int(hits[0])
                if first is None or state.rows[row] < state.rows[first[0]]:
                    first = (row, fires_inside)
        row, fires_inside = first
        n = len(state.rows)
        position = flat[row] - row * n
        j = int(position[e if fires_inside else count - 1 - e])
        if not fires_inside and state.has_groups:  # the first border of class g in the group
            k = int(np.searchsorted(state.tie_rows, row))
            if k < len(state.tie_rows) and state.tie_rows[k] == row:  # (a row without ties: j itself)
                distances = state.tie_sorted[k]
                start = int(np.searchsorted(distances, distances[j], side="left"))
                j = int(position[np.searchsorted(position, start)])
        return int(state.rows[row]), int(state.order[row, j])


class _Root:
    """The root of a grid search's tree: every example, the positive centres' rows first.

    With the rows of each centre class contiguous (each in increasing centre index), the
    classes of :class:`_GridState` are column extrema over row slices, not over copies. The
    sorted distances are kept only for the rows with equal distances (``tie_rows``).
    """

    def __init__(self, sd, y01):
        self.rows = np.concatenate([np.flatnonzero(y01), np.flatnonzero(~y01)])
        self.order = sd.order[self.rows]
        self.tie_rows = self.tie_sorted = None
        if sd.has_ties:
            sorted_rows = sd.sorted_rows[self.rows]
            self.tie_rows = np.flatnonzero((sorted_rows[:, 1:] == sorted_rows[:, :-1]).any(axis=1))
            self.tie_sorted = sorted_rows[self.tie_rows]


def _restrict_grid(parent, alive):
    """``(rows, order, tie_rows, tie_sorted)`` of the parent state restricted to ``alive``.

    As :func:`companion._ball_search.restrict_sorted_rows` (each kept row keeps the remaining
    examples in the same order), the sorted distances only for the parent's rows with equal distances.
    """
    rows, order, tie_rows, tie_sorted = parent.rows, parent.order, parent.tie_rows, parent.tie_sorted
    if len(rows) == int(alive.sum()):
        return rows, order, tie_rows, tie_sorted
    row_alive, mask, kept, rows, order = restrict_sorted_rows(rows, order, alive)
    n = len(rows)
    if tie_rows is not None and len(tie_rows) == len(row_alive):  # every row: the same flat indices
        tie_sorted = tie_sorted.ravel().take(kept).reshape(n, n)
        tie_rows = np.arange(n)
    elif tie_rows is not None:
        survive = row_alive[tie_rows]
        tie_mask = mask[tie_rows[survive]]
        tie_sorted = tie_sorted[survive].ravel()[np.flatnonzero(tie_mask)].reshape(-1, n)
        tie_rows = (np.cumsum(row_alive) - 1)[tie_rows[survive]]
    return rows, order, tie_rows, tie_sorted
