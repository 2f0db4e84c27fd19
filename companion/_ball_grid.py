"""BuildDLM (Figure 1) for a whole grid of penalties at once, sharing every greedy state.

Sokolova, Marchand, Japkowicz and Shawe-Taylor, *The Decision List Machine*, NIPS 15 (2002).
Notebook 01 selects its machines over grids of penalty pairs ``(p_p, p_n)`` on each training fold
(Section 5's protocol). :func:`greedy_ball_lists` returns, for every pair, the list that
:func:`companion._ball_search.greedy_ball_list` returns for it alone (tested), at a fraction of
the cost:

* the pairs walk down one tree of greedy states: the pairs that chose the same balls so far
  share their state ``S'``, which is scored once;
  :func:`greedy_ball_lists_by_types` runs the searches of several sets of ball types (a DLM's
  simple and complex balls) down one tree, where every state their balls lead to alike is shared;
* a scored state is summarised once for all its pairs: for each rule output and each number of
  errors ``e``, the largest covered count ``c`` of an admissible ball. With each penalty read as
  the decimal it prints as (``a / q``), the most useful ball of a pair maximises the integer
  ``q c - a e``, so its best value and its tied ``(output, e, c)`` classes are read from that
  summary (O(|S'|) per pair instead of O(|S'|^2)), for all pairs of the state in one array
  operation; the tie rule orders those classes, and the first (centre, border) of the winning
  class in the state's candidate order is the ball, exactly as the per-pair search picks it.

Without the compression-set constraint a state's summary does not count every candidate:
:class:`_GridState` reads it from where the remaining examples of each class lie along each
centre's sorted row, in one compiled pass (a column maximum per class of centre; tested equal to
:class:`_Summary` of every candidate's counts, :func:`companion._ball_search.score_state`, with
and without equal distances). With the constraint, whose admissible balls depend on the
compression set, every candidate is counted (``score_state``). Only the
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
    score_state,
)
from companion._ball_grid_kernel import grid_state

__all__ = ["greedy_ball_lists", "greedy_ball_lists_by_types"]

_STOP = {
    "either_empty": lambda n_pos, n_neg: n_pos == 0 or n_neg == 0,
    "negatives_empty": lambda n_pos, n_neg: n_neg == 0,
    "positives_empty": lambda n_pos, n_neg: n_pos == 0,
}


def greedy_ball_lists(sd, y01, penalties, *, types=BALL_TYPES, max_balls, stop_when="either_empty",
                      compression_constraint=False, tie_rule="larger_cover", removal="fired", sample_weight=None,
                      grid_state_pass=None):
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
    grid_state_pass : callable, optional
        :func:`compiled_grid_state`, taken once by the caller and shared by its searches (each
        new one loads numba's compiled code from disk, about 0.03-0.1 s); None: this search
        takes its own.

    Returns
    -------
    list of dict
        One per pair, in order: what :func:`~companion._ball_search.greedy_ball_list` returns
        for it (``kind``, ``centre``, ``border``, ``radius``).
    """
    return greedy_ball_lists_by_types(
        sd, y01, penalties, [types], max_balls=max_balls, stop_when=stop_when,
        compression_constraint=compression_constraint, tie_rule=tie_rule, removal=removal,
        grid_state_pass=grid_state_pass,
        sample_weight=sample_weight,
    )[0]


def greedy_ball_lists_by_types(sd, y01, penalties, type_sets, *, max_balls, stop_when="either_empty",
                               compression_constraint=False, tie_rule="larger_cover", removal="fired",
                               sample_weight=None, grid_state_pass=None):
    """:func:`greedy_ball_lists` for each set of ball types of ``type_sets``, in one search.

    The greedy state ``S'`` of the summarised search (:class:`_GridState`) depends on the
    remaining examples only, not on the ball types, so the searches of the type sets (a DLM's
    simple and complex balls, say) share every state they reach from a shared state by balls
    that fire on the same examples: the children of a state are grouped by their ``S'``, and
    each pair of each type set keeps its own balls. With the compression-set constraint, or
    with weights, each type set is searched on its own.

    Parameters
    ----------
    sd, y01, penalties
        As for :func:`greedy_ball_lists` (the pairs shared by every type set).
    type_sets : sequence of tuple of str
        The ball types of each search (``types`` of :func:`greedy_ball_lists`).
    max_balls, stop_when, compression_constraint, tie_rule, removal, sample_weight
        As for :func:`~companion._ball_search.greedy_ball_list`, shared by every search.
    grid_state_pass : callable, optional
        As for :func:`greedy_ball_lists`.

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
    if compression_constraint and len(type_sets) > 1:  # the constraint's states: one search each
        return [_search(sd, y01, penalties, [types], **options)[0] for types in type_sets]
    return _search(sd, y01, penalties, type_sets, grid_state_pass=grid_state_pass, **options)


def _search(sd, y01, penalties, type_sets, *, max_balls, stop_when, compression_constraint, tie_rule, removal,
            grid_state_pass=None):
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

    # the compiled pass of a _GridState: the caller's, or compiled (or loaded from numba's disk
    # cache) once for this search
    if compression_constraint:
        grid_state_pass = None
    elif grid_state_pass is None:
        grid_state_pass = compiled_grid_state()
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
            if compression_constraint:  # every candidate counted, of the search's one type set
                state = score_state(sd, y01, alive, in_compression, allowed[0], parent, keep_sorted=True)
            else:
                state = _GridState(sd, y01, alive, parent, grid_state_pass)
        if state is None or getattr(state, "covered", True) is None:
            going[:] = False
        finish(members[~going])
        members = members[going]
        children = {}  # S' of a child -> (its members, S', compression set)
        sets = members // n_pairs
        for t in np.unique(sets):
            searched = members[sets == t]
            pairs = searched % n_pairs
            summary = _Summary(state) if compression_constraint else state.summary(allowed[t])
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
    along every centre's sorted row (Section 3's balls) in one compiled pass over ``|S'|^2``
    entries (:func:`companion._ball_grid_kernel.grid_state`, compiled) instead of counting every
    candidate ball:

    * the ``t``-th remaining example of class ``g`` along row ``k``, at position ``at``, is a
      candidate border (``g = 0``, a negative, for the output-1 balls Pi and Po; ``g = 1`` for
      Ni and No), ``at - t`` the examples of the other class before it. A ball that fires inside
      (centre of the other class: Pi, Ni) with that border makes ``e = t`` errors and covers
      ``s - t`` examples, ``s`` the start of the border's group of equal distances, if the border
      is the first of class ``g`` in its group (the others give the same ball); one that fires
      outside (centre of class ``g``: Po, No) makes ``e = count_g - 1 - t`` errors and covers
      ``n_other - (end - t)``, ``end`` the group's end, if the border is the group's last of class
      ``g``. Without equal distances ``s = end = at``.
    * Each class ``(g, e)`` thus has at most one ball per row (its group): the largest covered
      count ``best_cover`` is a column maximum over the rows of a centre class, and the first
      candidate of a class in the state's order is the first row reaching it.

    The sorted distances are carried only for the rows that hold equal distances.
    """

    def __init__(self, sd, y01, alive, parent, grid_state_pass):
        if parent is None:  # the root: centres of one class after the other (see _Root)
            parent = _Root(sd, y01)
        (self.rows, self.order, n_pos, self.tie_index, self.tie_sorted, self.best, self.best_row,
         self.best_at) = grid_state_pass(parent.rows, parent.order, parent.tie_index, parent.tie_sorted, alive, y01)
        self.n_pos = int(n_pos)  # the first n_pos rows: positive centres (each class by index)
        self._summaries = {}

    def summary(self, allowed):
        """The state's classes of admissible balls of the ``allowed`` types (:class:`_GridSummary`)."""
        key = allowed.tobytes()
        if key not in self._summaries:
            self._summaries[key] = _GridSummary(self, allowed)
        return self._summaries[key]


def compiled_grid_state():
    """:func:`companion._ball_grid_kernel.grid_state` compiled by numba (cached on disk by numba).

    Each call returns a new dispatcher, compiled on its first call or loaded from numba's disk
    cache (a few hundredths of a second); :func:`_search` hands it to every :class:`_GridState`.
    A caller that runs several searches (every grid of one fold, every inner fold of one outer
    fold) takes one and passes it to each (``grid_state_pass``): the object is the caller's and
    lives as long as it keeps it (CONTRIBUTING.md, caches have an owner).
    """
    try:
        import numba
    except ImportError as exc:  # an extra: the learners themselves never need it
        raise ImportError("the grid search of notebook 01 (companion._ball_grid) needs numba: "
                          "pip install 'companion[notebooks]'") from exc
    return numba.njit(cache=True, nogil=True)(grid_state)


class _GridSummary:
    """:class:`_Summary`'s classes for a :class:`_GridState` and a set of allowed ball types.

    ``best_cover[g * width + e]``: the largest cover of an allowed ball of border class ``g``
    (0: Pi, Po; 1: Ni, No) with ``e`` errors, the larger of its two types' columns.
    """

    def __init__(self, state, allowed):
        self.state = state
        self.allowed = np.asarray(allowed, dtype=bool)
        n, n_pos = len(state.rows), state.n_pos
        counts = (n - n_pos, n_pos)
        width = max(counts) + 1
        self.width = width
        self.best_cover = np.zeros(2 * width, dtype=np.intp)
        for kind in np.flatnonzero(self.allowed):  # Pi, Po, Ni, No
            g = kind // 2
            best = self.best_cover[g * width: g * width + counts[g]]
            np.maximum(best, state.best[kind, : counts[g]], out=best)

    winners = _Summary.winners

    def ball(self, slot):
        """``(centre, border)`` of the first candidate of the class ``slot`` in the state's order
        (rows by centre index, then positions along the row), as :meth:`_Summary.ball`."""
        state = self.state
        g, e = divmod(int(slot), self.width)
        wanted = self.best_cover[slot]
        first = None
        for kind in (2 * g, 2 * g + 1):  # fires inside, outside
            if self.allowed[kind] and state.best[kind, e] == wanted:
                row = int(state.best_row[kind, e])
                if first is None or state.rows[row] < state.rows[first]:
                    first, at = row, int(state.best_at[kind, e])
        return int(state.rows[first]), int(state.order[first, at])


class _Root:
    """The root of a grid search's tree: every example, the positive centres' rows first.

    With the rows of each centre class contiguous (each in increasing centre index), the
    classes of :class:`_GridState` are column extrema over row slices. The sorted distances are
    kept only for the rows with equal distances (``tie_index``: each row's among
    ``tie_sorted``, -1 for none).
    """

    def __init__(self, sd, y01):
        self.rows = np.concatenate([np.flatnonzero(y01), np.flatnonzero(~y01)]).astype(np.int64)
        self.order = sd.order[self.rows]
        m = len(self.rows)
        self.tie_index = np.full(m, -1, dtype=np.int64)
        self.tie_sorted = np.zeros((0, m))
        if sd.has_ties:
            sorted_rows = sd.sorted_rows[self.rows]
            tie_rows = np.flatnonzero((sorted_rows[:, 1:] == sorted_rows[:, :-1]).any(axis=1))
            self.tie_index[tie_rows] = np.arange(len(tie_rows))
            self.tie_sorted = np.ascontiguousarray(sorted_rows[tie_rows], dtype=float)
