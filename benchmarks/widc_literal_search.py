"""Benchmark: WIDC's vectorised literal search against a naive recomputation (issue 8).

One *growth step* of WIDC's partition boosting (Nock 2002, "Building a Large DC using Partition
Boosting", eq. (1)) scores every literal ``l`` by the ``Z`` of the partition obtained when ``l``
is appended to the monomial being grown, and keeps the smallest. :func:`companion._partition_boosting.score_literals`
does it for all literals at once (one segment sum over the examples inside the monomial); the naive
reference (``naive_score`` of ``tests/_naive.py``, the loop ``tests/test_widc.py`` checks) rebuilds
the partition and evaluates eq. (1) with explicit loops, literal by literal.

On mushroom (8124 x 22 nominal) and led24 (3200 x 24 binary), full data, the literals are those
:class:`companion.widc.DecisionCommittee` builds; the growth steps are the first ones of the real
growth path (``grow_monomials``). For each step both searches run on the same state, must pick
**the same literal** (with the path's exclusions and tie rule) and are timed: the row reports the
median time per growth step of each and the ratio vectorised / naive.

Run ``python -m benchmarks.run --only widc_literal_search [--quick]`` or call :func:`run` (``make bench`` does).
"""

from __future__ import annotations

import time

import numpy as np

from companion.datasets import load_led24, load_mushroom
from companion.preprocessing import encode_frame
from companion._partition_boosting import (
    encode_variables, grow_monomials, literal_matrix, pattern_codes, satisfaction, score_literals,
)
from tests._naive import naive_score

__all__ = ["run", "growth_states"]

DATASETS = {"mushroom": load_mushroom, "led24": load_led24}


def _choose(scores, literal_variable, term, existing):
    """The literal ``grow_monomials`` would append (same exclusions and tie rule)."""
    scores = scores.copy()
    scores[np.isin(literal_variable, literal_variable[list(term)])] = np.inf
    for monomial in existing:
        if len(monomial) == len(term) + 1 and monomial.issuperset(term):
            (missing,) = monomial.difference(term)
            scores[missing] = np.inf
    lowest = scores.min()
    return int(np.flatnonzero(scores <= lowest + 1e-12 * max(1.0, abs(lowest)))[0])


def _problem(name):
    """Literal matrix, class codes, uniform weights and class count of a data set (full data)."""
    X, y = DATASETS[name]()
    array, nominal, _ = encode_frame(X)
    _, y_codes = np.unique(np.asarray(y).astype(str), return_inverse=True)
    c = int(y_codes.max()) + 1
    variables, _ = encode_variables(array, y_codes, c, nominal, max_cuts=8)
    literals = literal_matrix(array, variables)
    return literals, y_codes, np.full(len(y_codes), 1.0 / len(y_codes)), c


def growth_states(literals, y, w, c, n_steps):
    """The first ``n_steps`` states of the real growth path: (monomials, term, chosen literal)."""
    monomials, _ = grow_monomials(literals, y, w, c, max_rules=n_steps)
    states = []
    for k, monomial in enumerate(monomials):
        for length in range(len(monomial)):
            states.append((list(monomials[:k]), list(monomial[:length]), monomial[length]))
    return states[:n_steps]


def run(quick: bool = False, datasets=("mushroom", "led24"), n_steps: int = 3, repeats: int = 5):
    """Time the vectorised and the naive literal search on the first growth steps.

    Parameters
    ----------
    quick : bool, default=False
        One growth step per data set (smoke test).
    datasets : sequence of str
    n_steps : int
        Growth steps replayed per data set.
    repeats : int
        Timings of the vectorised search per step (median); the naive one runs once.

    Returns
    -------
    list of dict
        One row per data set in the format of ``benchmarks/run.py`` (``size`` = examples), with
        ``n_literals`` and ``n_steps``.

    Raises
    ------
    AssertionError
        If the two searches pick different literals, or not the path's literal.
    """
    if quick:
        n_steps, repeats = 1, 3
    rows = []
    for name in datasets:
        literals, y, w, c = _problem(name)
        n, n_literals = literals.shape
        literal_variable = np.arange(n_literals) // 2
        fast_times, naive_times = [], []
        identical = True
        for monomials, term, path_literal in growth_states(literals, y, w, c, n_steps):
            existing = {frozenset(m) for m in monomials}
            base = pattern_codes(satisfaction(literals, monomials))
            inside = satisfaction(literals, [tuple(term)])[:, 0]
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                fast = score_literals(literals, y, w, c, base, inside)
                times.append(time.perf_counter() - start)
            fast_times.append(float(np.median(times)))
            start = time.perf_counter()
            naive = naive_score(literals, y, w, c, monomials, term)
            naive_times.append(time.perf_counter() - start)
            ours_pick = _choose(fast, literal_variable, term, existing)
            naive_pick = _choose(naive, literal_variable, term, existing)
            identical &= ours_pick == naive_pick == path_literal
            assert ours_pick == naive_pick == path_literal, (
                f"{name}: vectorised picks {ours_pick}, naive {naive_pick}, path {path_literal}"
            )
        ours_s, ref_s = float(np.median(fast_times)), float(np.median(naive_times))
        rows.append({
            "benchmark": f"WIDC literal search per growth step ({name})",
            "size": n,
            "ours_s": round(ours_s, 5),
            "reference": "naive loops (tests/test_widc.py)",
            "reference_s": round(ref_s, 4),
            "ratio": round(ours_s / ref_s, 5),
            "identical": bool(identical),
            "target": "< 1",
            "n_literals": n_literals,
            "n_steps": len(fast_times),
        })
    return rows
