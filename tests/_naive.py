"""Naive reference implementations: the loops the tests and the benchmarks compare the learners against.

One copy serves both: a unit test asserts that a vectorised learner agrees with the loop here on
random data, and a benchmark (``make bench``) times the very same loop, imported as
``from tests._naive import naive_score`` (``tests/`` is a package; the benchmarks run from the
repository root, so no path manipulation is needed).

A reference here is written from the paper, not from the implementation: it may use the
package only for input plumbing that is itself tested elsewhere (e.g. ``companion._partition_boosting.satisfaction``,
a plain boolean AND over literal columns), never for a decision rule (a tie break, a pruning
criterion) it is meant to check. Add new references at the end of this file.
"""

from __future__ import annotations

import numpy as np

from companion.bounds.occam import dyadic_code, threshold_code_cost
from companion.bounds.pac_bayes import sigma
from companion._partition_boosting import satisfaction

__all__ = [
    "naive_z",
    "naive_pattern_blocks",
    "naive_score",
    "naive_prism",
    "naive_oner",
    "as_codes",
    "rules_as_tuples",
    "naive_holm",
    "naive_signed_rank_p",
    "naive_hodges_lehmann",
    "naive_cover_fit",
    "naive_pac_bayes_fit",
]

# --------------------------------------------------------------------------------------------
# WIDC (paper 04): the Z criterion and the literal search, from scratch
# --------------------------------------------------------------------------------------------


def naive_z(blocks, y, w, c):
    """Eq. (1) with explicit loops over blocks and classes."""
    total = 0.0
    for block in set(blocks.tolist()):
        members = blocks == block
        for label in range(c):
            plus = w[members & (y == label)].sum()
            minus = w[members & (y != label)].sum()
            total += 2 * np.sqrt(plus * minus)
    return total


def naive_pattern_blocks(satisfied):
    """Block = the tuple of satisfied monomials, labelled by a dict."""
    labels = {}
    return np.array([labels.setdefault(tuple(row), len(labels)) for row in satisfied])


def naive_score(literals, y, w, c, monomials, term):
    """Z of M + {term + [l]} for every literal l, recomputed from scratch."""
    scores = np.empty(literals.shape[1])
    for literal in range(literals.shape[1]):
        sat = satisfaction(literals, monomials + [tuple(term) + (literal,)])
        scores[literal] = naive_z(naive_pattern_blocks(sat), y, w, c)
    return scores


# --------------------------------------------------------------------------------------------
# PRISM and OneR (paper 02): Weka's loops, instance by instance
# --------------------------------------------------------------------------------------------


def naive_prism(codes, y_codes, n_values, n_classes):
    """Weka's Prism, instance by instance. ``codes[i][a] == -1`` matches no test.

    Returns rules as ``(class, [(attribute, value), ...], p, t)``. Where Weka would pick a
    test reaching no positive (possible only when cells match no test), the rule stops, and a
    class whose remaining positives no test reaches gets no more rules (Prism's documented
    behaviour).
    """
    n, d = len(codes), len(n_values)
    rules = []
    for cl in range(n_classes):
        E = list(range(n))
        while any(y_codes[i] == cl for i in E):
            tests = []
            rule_E = list(E)
            errors = sum(1 for i in E if y_codes[i] != cl)
            while errors != 0:
                best = None
                best_p = best_t = 0
                for a in range(d):
                    if any(a == ta for ta, _ in tests):
                        continue
                    covers = [0] * n_values[a]
                    correct = [0] * n_values[a]
                    for i in rule_E:
                        v = codes[i][a]
                        if v >= 0:
                            covers[v] += 1
                            correct[v] += y_codes[i] == cl
                    for v in range(n_values[a]):
                        diff = correct[v] * best_t - best_p * covers[v]
                        if best is None or diff > 0 or (diff == 0 and correct[v] > best_p):
                            best, best_p, best_t = (a, v), correct[v], covers[v]
                if best is None or best_p == 0:
                    break
                tests.append(best)
                rule_E = [i for i in rule_E if codes[i][best[0]] == best[1]]
                errors = best_t - best_p
            if not tests and errors != 0:
                break
            rules.append((cl, tests, sum(1 for i in rule_E if y_codes[i] == cl), len(rule_E)))
            covered = set(rule_E)
            E = [i for i in E if i not in covered]
    return rules


def naive_oner(codes, y_codes, n_values, n_classes):
    """Holte's 1R: per attribute, value -> majority class; the attribute with most hits."""
    best_attribute, best_correct, best_map = None, -1, None
    for a in range(len(n_values)):
        mapping, correct = {}, 0
        for v in range(n_values[a]):
            counts = [0] * n_classes
            for i in range(len(codes)):
                if codes[i][a] == v:
                    counts[y_codes[i]] += 1
            if sum(counts):
                mapping[v] = counts.index(max(counts))
                correct += max(counts)
        if correct > best_correct:
            best_attribute, best_correct, best_map = a, correct, mapping
    return best_attribute, best_map, len(codes) - best_correct


def as_codes(X, y, missing):
    """Integer codes of a categorical frame in the references' format (``missing="value"``: own code)."""
    codes = np.column_stack([X[c].cat.codes.to_numpy() for c in X.columns])
    n_values = [len(X[c].cat.categories) for c in X.columns]
    if missing == "value":
        for a, k in enumerate(n_values):
            codes[codes[:, a] < 0, a] = k
        n_values = [k + 1 for k in n_values]
    return codes.tolist(), y.cat.codes.tolist(), n_values, len(y.cat.categories)


def rules_as_tuples(model, X, y):
    """Rules of a fitted Prism in the naive reference's format."""
    class_code = {c: k for k, c in enumerate(y.cat.categories)}
    return [
        (class_code[r.label], list(zip(r.attributes, r.codes)), r.p, r.t) for r in model.rules_
    ]


# --------------------------------------------------------------------------------------------
# companion.claims: Holm's procedure and the signed-rank statistics, by enumeration
# --------------------------------------------------------------------------------------------


def naive_holm(p_values):
    """Holm (1979) as a step-down loop: reject H_(1), H_(2), ... while p_(k) <= alpha / (m - k + 1).

    Returns the adjusted p-values: the smallest alpha at which each hypothesis is rejected, found
    by trying every candidate alpha = p_(j) (m - j + 1) (and 1) in increasing order.
    """
    p = [float(v) for v in p_values]
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    candidates = sorted({min(1.0, p[order[j]] * (m - j)) for j in range(m)} | {1.0})
    adjusted = [1.0] * m
    for i in range(m):
        for alpha in candidates:
            rejected = set()
            for k, index in enumerate(order):
                if p[index] <= alpha / (m - k) * (1 + 1e-15):
                    rejected.add(index)
                else:
                    break
            if i in rejected:
                adjusted[i] = alpha
                break
    return adjusted


def naive_signed_rank_p(x, alternative):
    """Exact one-sided signed-rank p by enumerating all 2**n sign vectors (Pratt: zeros ranked, unsigned).

    Midranks for tied magnitudes; "less" is P(T+ <= observed), "greater" P(T+ >= observed).
    """
    import itertools

    x = list(x)
    magnitudes = [abs(v) for v in x]
    ranks = []
    for v in magnitudes:
        below = sum(m < v for m in magnitudes)
        equal = sum(m == v for m in magnitudes)
        ranks.append(below + (equal + 1) / 2)
    observed = sum(r for r, v in zip(ranks, x) if v > 0)
    nonzero = [r for r, v in zip(ranks, x) if v != 0]
    count = 0
    for signs in itertools.product((0, 1), repeat=len(nonzero)):
        t = sum(r for r, s in zip(nonzero, signs) if s)
        if (t <= observed + 1e-9) if alternative == "less" else (t >= observed - 1e-9):
            count += 1
    return count / 2 ** len(nonzero)


def naive_hodges_lehmann(x):
    """Median of the Walsh averages (x_i + x_j)/2, i <= j, by a double loop."""
    walsh = sorted((x[i] + x[j]) / 2 for i in range(len(x)) for j in range(i, len(x)))
    m = len(walsh)
    return (walsh[(m - 1) // 2] + walsh[m // 2]) / 2


# --------------------------------------------------------------------------------------------
# Stump conjunctions (paper 05): the set-covering greedy of Section VI, candidate by candidate
# --------------------------------------------------------------------------------------------

#: pyscm-ml's double comparison tolerance (utilities within it are tied).
STUMP_TOL = 1e-7


def naive_cover_fit(X, y, p, s, variant="sc", eta=0.0, tie_breaking="pyscm", reuse=False):
    """Loop version of the SC / Occam greedy (pyscm-ml's scan order and tie rule).

    Returns the stumps ``(feature, threshold, direction)`` in the order they were added (Occam:
    the threshold is the dyadic point of the interval of equivalent thresholds).
    """
    m, n = X.shape
    low, high = X.min(axis=0), X.max(axis=0)
    alive = np.ones(m, dtype=bool)
    used = set()
    stumps = []
    while len(stumps) < s and np.any(alive & (y == 0)):
        candidates = []  # (utility, q - r, feature, threshold, kind, code)
        for f in range(n):
            if f in used and not reuse:
                continue
            vals = np.sort(X[alive, f])
            ends = [j for j in range(len(vals)) if j == len(vals) - 1 or vals[j + 1] - vals[j] > (STUMP_TOL if tie_breaking == "pyscm" else 0)]
            for j in ends:
                t = vals[j]
                upper = vals[j + 1] if j + 1 < len(vals) else high[f]
                for kind in (0, 1):
                    covered = alive & ((X[:, f] <= t) if kind == 0 else (X[:, f] > t))
                    q = int(np.sum(covered & (y == 0)))
                    r = int(np.sum(covered & (y == 1)))
                    u = q - p * r
                    code = None
                    if variant == "occam":
                        if high[f] <= low[f]:
                            continue
                        code, _ = dyadic_code(t, upper, low[f], high[f], closed=False)
                        if code < 0:
                            continue
                        u -= eta * float(threshold_code_cost(code))
                    candidates.append((u, q - r, f, t, kind, code, upper))
        if not candidates:
            break
        chosen = _naive_choice(candidates, tie_breaking)
        u, _, f, t, kind, code, upper = chosen
        if variant == "occam":
            _, t = dyadic_code(t, upper, low[f], high[f], closed=False)
        stumps.append((f, t, 1 if kind == 0 else -1))
        used.add(f)
        alive &= (X[:, f] > t) if kind == 0 else (X[:, f] <= t)
    return stumps


def naive_pac_bayes_fit(X, y, p, s, eta, gaps, tie_breaking="pyscm", reuse=False):
    """Loop version of the PAC-Bayes soft greedy with margins ``g`` *distinct* values wide.

    Every example keeps the probability ``w(x)`` that the Gibbs conjunction built so far says 1;
    each candidate ``(attribute, [a, b], direction)`` (``a`` a distinct training value, ``b`` the
    one ``g`` distinct values further) removes the expected weight ``w(x) (1 − σ(x))`` and costs
    ``η ln((B − A)/(b − a))`` (``[A, B]``: the attribute's training range). Candidates are scanned
    attribute by attribute, gap by gap (ascending), ``a`` ascending, ``x > t`` before ``x ≤ t``;
    ties as pyscm-ml's (utilities within 1e-7, then the largest ``Q − R``, then the first).
    Returns the stumps ``(feature, a, b, direction)``.
    """
    m, n = X.shape
    low, high = X.min(axis=0), X.max(axis=0)
    distinct = [np.unique(X[:, f]) for f in range(n)]
    gaps = sorted({int(g) for g in gaps if g < max(len(d) for d in distinct)})
    gibbs = np.ones(m)
    used = set()
    stumps = []
    while len(stumps) < s and gibbs[y == 0].sum() > 1e-9 and gaps:
        candidates = []
        for f in range(n):
            if f in used and not reuse:
                continue
            for g in gaps:
                for i in range(len(distinct[f]) - g):
                    a, b = distinct[f][i], distinct[f][i + g]
                    for d in (1, -1):
                        removed = gibbs * (1.0 - sigma(X[:, f], a, b, d))
                        q, r = removed[y == 0].sum(), removed[y == 1].sum()
                        u = q - p * r - eta * np.log((high[f] - low[f]) / (b - a))
                        candidates.append((u, q - r, f, a, b, d))
        if not candidates:
            break
        chosen = _naive_choice(candidates, tie_breaking)
        _, _, f, a, b, d = chosen
        stumps.append((f, float(a), float(b), d))
        used.add(f)
        gibbs = gibbs * sigma(X[:, f], a, b, d)
    return stumps


def _naive_choice(candidates, tie_breaking):
    """The candidate ``(utility, q - r, ...)`` the greedy takes: the first of the largest utility
    (``"index"``), or pyscm-ml's rule: utilities within STUMP_TOL, then the largest ``q - r``, then the first."""
    best = max(c[0] for c in candidates)
    if tie_breaking == "index":
        return next(c for c in candidates if c[0] == best)
    tied = [c for c in candidates if c[0] >= best - STUMP_TOL]
    top = max(c[1] for c in tied)
    return next(c for c in tied if c[1] == top)


def naive_bahsic_order(Z, y, step=0.1):
    """BAHSIC (Song et al. 2007) loop by loop: at each step, for every remaining gene, the HSIC
    ``tr(K H L H)`` of the Gaussian kernel on the other remaining genes (``γ = 1/(2n)``) with the
    linear kernel on ±1 labels; the ``max(1, ⌊step·|S|⌋)`` genes whose removal leaves it largest go
    first (equal scores: the lower index). Returns the elimination order, the last kept gene last."""
    Z = np.asarray(Z, dtype=float)
    m, n = Z.shape
    gamma = 1.0 / (2.0 * n)
    classes = np.unique(y)
    s = np.array([1.0 if v == classes[-1] else -1.0 for v in y])
    H = np.eye(m) - np.ones((m, m)) / m
    L = np.outer(s, s)
    remaining = list(range(n))
    removed = []
    while len(remaining) > 1:
        scores = []
        for j in remaining:
            others = [g for g in remaining if g != j]
            K = np.empty((m, m))
            for a in range(m):
                for b in range(m):
                    K[a, b] = np.exp(-gamma * sum((Z[a, g] - Z[b, g]) ** 2 for g in others))
            scores.append(np.trace(K @ H @ L @ H))
        count = max(1, int(step * len(remaining)))
        ranked = sorted(range(len(remaining)), key=lambda i: (-scores[i], i))[:count]
        drop = [remaining[i] for i in ranked]
        removed.extend(drop)
        remaining = [g for g in remaining if g not in drop]
    return removed + remaining
