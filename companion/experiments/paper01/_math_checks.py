"""The mathematical statements of notebook 01, checked where they are shown.

Each function runs one check of a statement of Sokolova, Marchand, Japkowicz and Shawe-Taylor,
*The Decision List Machine* (NIPS 2002) on inputs drawn from the notebook's seeded generator and
returns ``(ok, detail)``: whether the statement held on every case tried, and what was computed,
with the numbers. :func:`math_checks` runs them all once (a few seconds); the registry's
``math_*`` measures read its results.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.spatial.distance import cdist

from companion.bounds.decision_list import compression_message
from companion.bounds.occam import zeta
from companion.decision_list import DecisionListMachine, reconstruct_decision_list
from companion.experiments.protocol import paper_models


def _problem(rng, m, ties=False):
    """``m`` points of the plane, label mostly the sign of the first coordinate (ties: a coarse grid)."""
    X = rng.normal(size=(m, 2))
    if ties:
        X = np.round(X * 2) / 2
    y = ((X[:, 0] + 0.5 * rng.normal(size=m)) > 0).astype(int)
    return X, y


def _fires(ball, X):
    distance = np.linalg.norm(X - X[ball.centre_index], axis=1)
    return distance < ball.radius if ball.inside else distance > ball.radius


def _largest_error_free_cover(X, y, remaining, ball_type):
    """Rivest's greedy step on the remaining set ``S'``: the largest ``|Q_i|`` over error-free balls.

    Every centre of ``S'`` and every radius: an inside ball of a positive centre (Pi) covers the
    positives strictly closer than the nearest negative; an outside ball of a negative centre (Po)
    the positives strictly farther than the farthest negative; Ni and No the same with the classes
    exchanged. ``ball_type="simple"`` allows Pi and Ni only.
    """
    idx = np.flatnonzero(remaining)
    D = cdist(X[idx], X[idx])
    ys = y[idx]
    best = 0
    for row, label in enumerate(ys):
        same, other = D[row, ys == label], D[row, ys != label]
        if not len(other):
            continue
        # inside ball of this centre: its own class strictly inside the nearest other-class point
        best = max(best, int((same < other.min()).sum()))
        if ball_type == "complex":
            # outside ball: the other class strictly beyond the farthest own-class point
            best = max(best, int((other > same.max()).sum()))
    return best


@paper_models
def check_rivest_greedy(rng, n_problems=6, m=40):
    """Section 2: with ``p_p = p_n = ∞`` BuildDLM is the simple greedy algorithm.

    The extracted text reads "when pp = pn = 1"; the usefulness ``U_i`` gives an error on ``S'`` an
    infinite cost only with infinite penalties, and the same glyph is read as ∞ in the sum of
    ``1/i^2`` (claim ``zeta``). Each step of BuildDLM with infinite penalties is compared with the
    greedy step computed here by brute force: the ball appended must err on no example of ``S'``
    and cover as many as the largest error-free cover of any ball.
    """
    steps = mismatches = 0
    for trial in range(n_problems):
        X, y = _problem(rng, m)
        ball_type = ("simple", "complex")[trial % 2]
        dlm = DecisionListMachine(p_p=np.inf, p_n=np.inf, s=None, ball_type=ball_type, fallback=None, scale=None).fit(X, y)
        remaining = np.ones(len(y), dtype=bool)
        for ball in dlm.balls_:
            fires = _fires(ball, X) & remaining
            output = int(ball.output == dlm.classes_[-1])
            errors = int((y[fires] != output).sum())
            best = _largest_error_free_cover(X, y, remaining, ball_type)
            steps += 1
            mismatches += int(errors > 0 or int(fires.sum()) != best)
            remaining &= ~fires
    ok = mismatches == 0 and steps > 0
    return ok, (f"BuildDLM with p_p = p_n = ∞ against the greedy step computed by brute force (every centre "
                f"and radius, error-free balls only) on {n_problems} random problems of {m} points, simple and "
                f"complex balls: {steps} steps, {mismatches} where the ball appended errs on S' or covers fewer "
                f"than the largest error-free cover")


@paper_models
def check_rivest_zero_error(rng, n_problems=6, m=60):
    """Section 2 (Rivest 1987): the greedy algorithm reaches zero training errors when a consistent list exists.

    On distinct points a ball around each point alone is consistent, so a consistent list of balls
    exists; BuildDLM with infinite penalties must then make no training error, and each of its
    rules must err on no example it is the first to reach.
    """
    failures = 0
    for trial in range(n_problems):
        X, y = _problem(rng, m)
        ball_type = ("simple", "complex")[trial % 2]
        dlm = DecisionListMachine(p_p=np.inf, p_n=np.inf, s=None, ball_type=ball_type, fallback=None, scale=None).fit(X, y)
        wrong = int((dlm.predict(X) != y).sum())
        reached = np.zeros(len(y), dtype=bool)
        rule_errors = 0
        for ball in dlm.balls_:
            first = _fires(ball, X) & ~reached
            rule_errors += int((y[first] != int(ball.output == dlm.classes_[-1])).sum())
            reached |= first
        failures += int(wrong > 0 or rule_errors > 0)
    return failures == 0, (f"BuildDLM with p_p = p_n = ∞ on {n_problems} random problems of {m} distinct points "
                           f"(a consistent list of balls exists), simple and complex balls: {failures} with a "
                           f"training error or a rule that errs on an example it reaches first")


def _usefulness_terms(inside, y, p_p, p_n, centre_label):
    """The two terms of ``U_i`` (Figure 1) of the ball feature ``h``: the centre's label inside, the other outside."""
    positive, negative = y == 1, y == 0
    fires_one = inside if centre_label == 1 else ~inside  # h(x) = 1
    P_i, N_i = (positive & fires_one).sum(), (negative & ~fires_one).sum()
    return P_i - p_n * (negative.sum() - N_i), N_i - p_p * (positive.sum() - P_i)


def check_types(rng, n_problems=6, m=24, penalties=((1.0, 1.0), (0.5, 2.0), (3.0, 0.25))):
    """Section 3: the most useful ball over every centre and radius is of type Pi, Po, Ni or No.

    Brute force on random remaining sets ``S'`` (half of them on a coarse grid, with equal
    distances): per centre label and per term of ``U_i``, the best usefulness over every centre
    and every distinct inside set ``{d <= t}`` against the best over the four types, whose radius
    sits just below a border of the other class (Pi, Ni) or just above a border of its own class
    (Po, No).
    """
    cases = differ = 0
    for trial in range(n_problems):
        X, y = _problem(rng, m, ties=trial % 2 == 1)
        p_p, p_n = penalties[trial % len(penalties)]
        keep = np.ones(m, dtype=bool) if trial < 2 else rng.random(m) < 0.7
        Xs, ys = X[keep], y[keep]
        if len(set(ys.tolist())) < 2:
            continue
        D = cdist(Xs, Xs)
        best_any = {key: -np.inf for key in ((1, 0), (1, 1), (0, 0), (0, 1))}
        best_typed = dict(best_any)
        for c in range(len(ys)):
            for t in np.concatenate([[-1.0], np.unique(D[c])]):
                for term, value in enumerate(_usefulness_terms(D[c] <= t, ys, p_p, p_n, ys[c])):
                    best_any[(ys[c], term)] = max(best_any[(ys[c], term)], value)
            for b in range(len(ys)):
                below = _usefulness_terms(D[c] < D[c, b], ys, p_p, p_n, ys[c])
                above = _usefulness_terms(D[c] <= D[c, b], ys, p_p, p_n, ys[c])
                if ys[c] == 1 and ys[b] == 0:  # Pi: covers the positives inside
                    best_typed[(1, 0)] = max(best_typed[(1, 0)], below[0])
                elif ys[c] == 1:  # No: covers the negatives outside
                    best_typed[(1, 1)] = max(best_typed[(1, 1)], above[1])
                elif ys[b] == 1:  # Ni: covers the negatives inside
                    best_typed[(0, 1)] = max(best_typed[(0, 1)], below[1])
                else:  # Po: covers the positives outside
                    best_typed[(0, 0)] = max(best_typed[(0, 0)], above[0])
        cases += 1
        differ += int(best_typed != best_any)
    return cases > 0 and differ == 0, (
        f"per centre label and term of U, the largest usefulness over every centre and every radius against the "
        f"largest over the balls of types Pi, Po, Ni, No, brute force on {cases} random sets S' of up to {m} "
        f"points (half on a coarse grid, with equal distances), penalties (p_p, p_n) "
        f"{', '.join(f'({a:g}, {b:g})' for a, b in penalties)}: {differ} sets where they differ")


@paper_models
def check_centres(rng, n_problems=4, m=60):
    """Section 4: with balls of types Pi and Ni only, no example is the centre of two balls."""
    lists = repeats = 0
    for trial in range(n_problems):
        X, y = _problem(rng, m, ties=True)
        for p_p, p_n in ((0.5, 0.5), (1.0, 2.0), (np.inf, np.inf)):
            dlm = DecisionListMachine(p_p=p_p, p_n=p_n, s=None, ball_type="simple", fallback=None, scale=None).fit(X, y)
            centres = [b.centre_index for b in dlm.balls_]
            lists += 1
            repeats += len(centres) - len(set(centres))
    return lists > 0 and repeats == 0, (
        f"{lists} DLMs of Pi and Ni balls (s unbounded, penalties (0.5, 0.5), (1, 2), (∞, ∞)) on {n_problems} "
        f"random problems of {m} points on a coarse grid (equal distances, duplicate points): {repeats} centres "
        f"used twice")


@paper_models
def check_reconstruction(rng, n_problems=10, m=50, n_probe=300):
    """Section 4: the rebuilt list is the hypothesis if and only if the compression set is classified correctly.

    *If*: DLMs learnt with the compression-set constraint (every compression example correctly
    classified) are rebuilt from their compression set and ordering message, and compared with
    the learnt list on the training points and ``n_probe`` random points. *Only if*: DLMs learnt
    without the constraint that misclassify some compression example are rebuilt the same way;
    the condition is necessary when such a list is rebuilt into another classifier.
    """
    checked = wrong = 0
    misclassified = differs = 0
    for trial in range(n_problems):
        X, y = _problem(rng, m, ties=trial % 2 == 1)
        probe = np.vstack([X, rng.normal(size=(n_probe, 2)) * 1.5])
        p_p, p_n = (float(v) for v in rng.choice([0.5, 1.0, 2.0, np.inf], size=2))
        for ball_type in ("simple", "complex"):
            for constrained in (True, False):
                dlm = DecisionListMachine(p_p=p_p, p_n=p_n, s=8, ball_type=ball_type,
                                          compression_constraint=constrained, fallback=None, scale=None).fit(X, y)
                message = compression_message(dlm, X)
                same = bool(np.array_equal(reconstruct_decision_list(message).predict01(probe),
                                           (dlm.predict(probe) == dlm.classes_[-1]).astype(int)))
                members = np.asarray(dlm.compression_set_, dtype=int)
                correct = bool(np.all(dlm.predict(X[members]) == y[members]))
                if constrained:
                    checked += 1
                    wrong += int(not (correct and same))
                elif not correct:
                    misclassified += 1
                    differs += int(not same)
    ok = checked > 0 and wrong == 0 and differs > 0
    return ok, (f"if: {checked} DLMs learnt with the compression-set constraint, {wrong} of them misclassifying "
                f"their compression set or rebuilt into another classifier (training points and {n_probe} random "
                f"points); only if: of the DLMs learnt without the constraint, {misclassified} misclassify their "
                f"compression set, {differs} of them rebuilt into another classifier")


def check_zeta(rng=None, n=100_000):
    """Proof of Theorem 1: the prior ``ζ(a) = (6/π²)(a + 1)^−2`` sums to 1 over ``a = 0, 1, ...``.

    The partial sum up to ``n`` leaves a tail ``(6/π²) Σ_{a ≥ n} (a + 1)^−2``, which lies between
    ``(6/π²)/(n + 1)`` and ``(6/π²)/n`` (integral bounds) exactly when the whole sum is 1.
    """
    partial = math.fsum(np.asarray(zeta(np.arange(n)), dtype=float).tolist())
    tail = 1.0 - partial
    low, high = 6 / math.pi**2 / (n + 1), 6 / math.pi**2 / n
    ok = low - 1e-12 <= tail <= high + 1e-12 and abs(float(zeta(0)) - 6 / math.pi**2) <= 1e-15
    return bool(ok), (f"ζ(a) of companion.bounds.occam summed over a = 0..{n - 1}: 1 − partial sum = {tail:.4e}, "
                      f"inside the integral bounds of the remaining tail [{low:.4e}, {high:.4e}]; ζ(0) = 6/π²")


#: The checks, by the registry's measure name, with the statement each one runs.
CHECKS = {
    "math_Rivest_1": ("Section 2: p_p = p_n = ∞ recovers the simple greedy algorithm", check_rivest_greedy),
    "math_Rivest_inf": ("Section 2: the greedy algorithm reaches zero training errors", check_rivest_zero_error),
    "math_types": ("Section 3: the most useful ball is of type Pi, Po, Ni or No", check_types),
    "math_centres": ("Section 4: Pi/Ni balls use each centre once", check_centres),
    "math_reconstruction": ("Section 4: rebuilt list = hypothesis iff the compression set is classified correctly",
                            check_reconstruction),
    "math_zeta": ("Proof of Theorem 1: Σ 1/i² = π²/6 (the prior sums to 1)", check_zeta),
}


def math_checks(seed: int = 0) -> dict:
    """Run every check of :data:`CHECKS` once, from one generator seeded with ``seed``.

    Parameters
    ----------
    seed : int, default=0
        The notebook's seed.

    Returns
    -------
    dict
        ``{measure: (ok, detail)}``, the registry's ``math_*`` measures.
    """
    rng = np.random.default_rng(seed)
    return {name: check(rng) for name, (_, check) in CHECKS.items()}


def math_checks_table(results: dict) -> pd.DataFrame:
    """The checks as a table: statement, what was run, result.

    Parameters
    ----------
    results : dict
        :func:`math_checks`' result.

    Returns
    -------
    pandas.DataFrame
    """
    rows = [{"measure": name, "statement": CHECKS[name][0], "computed": detail, "result": "holds" if ok else "fails"}
            for name, (ok, detail) in results.items()]
    return pd.DataFrame(rows).set_index("measure")
