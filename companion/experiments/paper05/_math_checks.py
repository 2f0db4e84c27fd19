"""The mathematical statements and algorithm descriptions of Paper 05, checked where the notebook shows them.

Shah, Marchand & Corbeil, TPAMI 2012, Sections II-VI. Each check runs in well under a second on
inputs drawn from the notebook's seeded generator and returns ``(ok, detail)``: whether the
statement held on every input tried, and what was computed, with the numbers. Each takes the
functions it checks as keyword arguments (the package's by default) so that a test can hand it a
deliberately broken one and see it fail. The unit test named in the registry row (``unit_test``)
checks the same statement with its own inputs.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import beta

from companion.bounds.binomial import binomial_tail, binomial_tail_inversion, log_choose
from companion.bounds.compression import compression_bound, compression_log_message
from companion.bounds.occam import dyadic_code, log_zeta, occam_bound, occam_log_prior, threshold_code_cost, zeta
from companion.bounds.pac_bayes import bayes_predict, gibbs_output_probability, gibbs_risk, pac_bayes_kl
from companion.stumps import OccamStumps, PacBayesStumps, SetCoveringStumps

#: The greedy of Section VI as the paper states it: every stump the greedy adds, no stop at an idle one.
_GREEDY = {"length": "greedy", "stop_idle": False}
_LEARNERS = {"sc": SetCoveringStumps, "occam": OccamStumps, "pac_bayes": PacBayesStumps}


def _random_data(rng, m=60, n=20):
    """Continuous inputs whose label depends on two attributes, with 15 % of the labels flipped."""
    X = rng.normal(size=(m, n))
    y = ((X[:, 0] > -0.3) & (X[:, 1] > -0.3)).astype(int)
    flip = rng.random(m) < 0.15
    return X, np.where(flip, 1 - y, y)


def _enumerated_miss(counts, m, r, delta, inversion, tail):
    """Every error count ``K`` of ``m`` examples at true risk ``r``: whether ``Bin̄(K, m, δ) < r``,
    and ``P(K = k)`` (the differences of the tail ``Bin(k, m, r)``).

    One call of ``inversion`` and of ``tail`` over all the counts: both are elementwise (each
    count's bisection and tail are computed alone), so the values are those of one call per count.
    """
    below = np.asarray(inversion(counts, m, delta), dtype=float) < r
    pmf = np.diff(np.concatenate([[0.0], np.asarray(tail(counts, m, r), dtype=float)]))
    return below, pmf


def check_test_set_bound(rng, *, inversion=binomial_tail_inversion, tail=binomial_tail):
    """Section III: ``Bin̄(k, m, δ)`` is the largest risk whose tail ``Bin(k, m, r)`` is still ``δ``."""
    worst_tail, worst_cp, n = 0.0, 0.0, 0
    for _ in range(200):
        m = int(rng.integers(1, 500))
        k = int(rng.integers(0, m + 1))
        delta = float(rng.uniform(0.001, 0.5))
        r = float(inversion(k, m, delta))
        n += 1
        if k == m:
            worst_cp = max(worst_cp, abs(r - 1.0))
            continue
        worst_cp = max(worst_cp, abs(r - beta.isf(delta, k + 1, m - k)))
        worst_tail = max(worst_tail, abs(float(tail(k, m, r)) - delta) / delta)
    # "holds with probability at least 1 − δ": the exact probability, over the test set's error
    # count K ~ Bin(m, r), that Bin̄(K, m, δ) falls below the true risk r, for random (m, r) at δ = 0.05
    worst_miss = 0.0
    for _ in range(8):
        m = int(rng.integers(5, 100))
        r = float(rng.uniform(0.01, 0.6))
        counts = np.arange(m + 1)
        below, pmf = _enumerated_miss(counts, m, r, 0.05, inversion, tail)
        worst_miss = max(worst_miss, float(pmf[below].sum()))
    ok = worst_tail <= 1e-6 and worst_cp <= 1e-9 and worst_miss <= 0.05 + 1e-12
    return ok, (f"{n} random (k, m, δ), m < 500: max relative |Bin(k, m, Bin̄) − δ| / δ = {worst_tail:.1e} "
                f"(by construction of the inversion), max |Bin̄ − Clopper–Pearson upper end| = {worst_cp:.1e}; "
                f"8 random (m < 100, true risk r), every error count enumerated: largest probability that "
                f"Bin̄(K, m, 0.05) < r is {worst_miss:.4f} (≤ δ = 0.05)")


def check_occam_tighter_than_blumer(rng, *, bound=occam_bound, log_prior=occam_log_prior):
    """Section III: for a consistent classifier, ``1 − (δP)^{1/m} < ln(1/(δP))/m`` (Blumer et al.)."""
    smallest, worst, n = math.inf, 0.0, 0
    for _ in range(200):
        m = int(rng.integers(5, 500))
        lengths = [int(v) for v in rng.integers(0, 20, size=int(rng.integers(0, 6)))]
        n_features = int(rng.integers(max(1, len(lengths)), 20000))
        delta = float(rng.uniform(0.001, 0.5))
        blumer = (-math.log(delta) - float(log_prior(n_features, lengths))) / m
        langford = float(bound(0, m, n_features, lengths, delta))
        smallest = min(smallest, blumer - langford)
        worst = max(worst, abs(langford - min(1.0, -math.expm1(-blumer))))
        n += 1
    ok = smallest > 0 and worst <= 1e-9
    return ok, (f"{n} random consistent conjunctions (m < 500, n < 20000, ≤ 5 stumps of ≤ 19-bit codes): "
                f"Blumer − Langford ≥ {smallest:.2e} > 0; |Langford − (1 − (δP)^(1/m))| ≤ {worst:.1e}")


def check_occam_subprior(rng, *, log_prior=occam_log_prior):
    """Section III: the prior over (attribute set, directions, threshold codes) sums to at most 1.

    Per stump the codes sum to ``Σ_l ζ(l) 2^l 2^{−l} = 1``, so the total is ``Σ_d C(n,d) 2^d``
    times the prior of ``d`` stumps of 0-bit codes over ``ζ(0)^d``, exactly, for each ``n``."""
    totals = {}
    for n in sorted({5, 30, 200, int(rng.integers(2, 400))}):
        totals[n] = sum(math.exp(log_choose(n, d) + d * math.log(2) + float(log_prior(n, [0] * d))
                                 - d * float(log_zeta(0))) for d in range(n + 1))
    ok = all(t <= 1.0 + 1e-12 for t in totals.values())
    return ok, "sum of the prior over every conjunction: " + ", ".join(f"n = {n}: {t:.6f}" for n, t in totals.items())


def check_occam_codes_sum_to_one(rng, *, zeta_fn=zeta):
    """Section III: ``Σ_σ g(σ) = Σ_l 2^l · 2^{−l} ζ(l) = 1`` since ``Σ_i i^{−2} = π²/6``."""
    levels = np.arange(0, 200000)
    partial_sum = float(np.sum([zeta_fn(int(v)) for v in levels[:2000]]) + np.sum(6 / math.pi**2 / (levels[2000:] + 1.0) ** 2))
    tail = 6 / math.pi**2 / levels.size  # Σ_{i > N} i^{-2} < 1/N
    l = int(rng.integers(0, 60))
    strings = 2.0**l * 2.0**-l * float(zeta_fn(l))
    ok = abs(partial_sum + tail - 1.0) <= tail and abs(strings - float(zeta_fn(l))) <= 1e-15
    return ok, (f"Σ_(l<200000) ζ(l) = {partial_sum:.7f}, its tail < {tail:.1e} (first 2000 terms from zeta, "
                f"the rest 6/π²(l+1)^(−2)); the 2^l strings of length l = {l} carry ζ(l) together")


def check_occam_code_length(rng, *, code=dyadic_code):
    """Section III: at most ``⌊log2((B−A)/(b−a))⌋`` bits give a point of ``Λ_l`` inside ``[a, b]``."""
    worst_slack, outside, n = math.inf, 0, 0
    for _ in range(1000):
        low = float(rng.uniform(-100, 100))
        width = float(10 ** rng.uniform(-2, 3))
        high = low + width
        a = float(rng.uniform(low, high))
        b = min(high, a + width * float(10 ** rng.uniform(-9, 0)))
        if b <= a:
            continue
        level, point = code(a, b, low, high)
        worst_slack = min(worst_slack, math.floor(math.log2((high - low) / (b - a))) - int(level))
        outside += not (a <= point <= b)
        n += 1
    ok = worst_slack >= 0 and outside == 0
    return ok, (f"{n} random intervals (widths 1e-9 to 1 of their range): ⌊log2((B−A)/(b−a))⌋ − l ≥ {worst_slack}; "
                f"coded point outside the interval: {outside}")


def check_occam_linear_in_l(rng, *, cost=threshold_code_cost):
    """Section III: an l-bit threshold costs ``l ln 2 − ln ζ(l)``: linear in ``l`` up to ``2 ln(l+1)``."""
    levels = np.arange(0, 2001)
    values = np.asarray(cost(levels), dtype=float)
    rest = values - levels * math.log(2)
    gap = float(np.max(np.abs(rest - (math.log(math.pi**2 / 6) + 2 * np.log(levels + 1)))))
    per_bit = float(values[-1] / levels[-1])
    ok = gap <= 1e-9 and bool(np.all(np.diff(values) > math.log(2))) and per_bit < 1.02 * math.log(2)
    return ok, (f"l = 0..2000: max |cost − l ln 2 − ln(π²/6) − 2 ln(l+1)| = {gap:.1e}; each bit costs more than "
                f"ln 2; cost/l at l = 2000: {per_bit:.4f} (ln 2 = {math.log(2):.4f})")


def check_occam_code_tradeoff(rng, *, bound=occam_bound):
    """Section III: at equal training errors, a conjunction of more stumps with short threshold codes
    may have a smaller Occam bound than one of fewer stumps with long codes.

    On our reconstruction this holds by construction (each code bit costs at least ``ln 2`` nats,
    a stump of a 0-bit code a fixed number of nats), so the result is the crossover: the fewest
    code bits per stump at which ``d`` stumps of ``l``-bit codes have a larger bound than ``d + 1``
    stumps of 0-bit codes, for each case (searched up to 64 bits)."""
    found, cases, crossovers = 0, 0, []
    for n in (2000, 7129, 12625):
        for m in (72, int(rng.integers(40, 200))):
            for errors in (0, 2):
                for d in (1, 2, 3):
                    cases += 1
                    more = float(bound(errors, m, n, [0] * (d + 1)))
                    longer = next((l for l in range(0, 65) if float(bound(errors, m, n, [l] * d)) > more), None)
                    if longer is not None:
                        found += 1
                        crossovers.append((d, longer))
    ok = found == cases
    per = {d: sorted({l for dd, l in crossovers if dd == d}) for d in (1, 2, 3)}
    return ok, (f"n ∈ {{2000, 7129, 12625}}, m ∈ {{72, random}}, 0 or 2 training errors: crossover found in {found} of "
                f"{cases} cases (by construction of the rebuilt prior); d + 1 stumps of 0-bit codes have the smaller "
                f"bound than d stumps of l-bit codes from l = "
                + "; ".join(f"{min(v)} to {max(v)} bits per stump on (d = {d})" for d, v in per.items() if v))


def check_compression_set(rng, *, learner=SetCoveringStumps):
    """Section IV: one compression example per stump, its attribute value the threshold; the bound
    charges the errors outside the compression set."""
    sizes, worst = [], 0.0
    for _ in range(5):
        X, y = _random_data(rng)
        model = learner(**_GREEDY, threshold="observed", p=1.0, s=5).fit(X, y)
        k = model.features_.size
        sizes.append(k)
        if not (model.compression_set_.size == k == np.unique(model.compression_set_).size):
            return False, f"{model.compression_set_.size} compression examples for {k} stumps"
        if not np.array_equal(X[model.compression_set_, model.features_], model.thresholds_):
            return False, "a threshold differs from its compression example's value"
        wrong = model.predict(X) != y
        outside = int(wrong.sum() - wrong[model.compression_set_].sum())
        worst = max(worst, abs(float(model.bound_) - float(compression_bound(outside, X.shape[0], X.shape[1], k))))
    ok = worst <= 1e-12
    return ok, (f"SC (observed thresholds, s = 5) on 5 random samples of 60 × 20: stumps {sizes}, one distinct "
                f"compression example each, thresholds = their values; |bound − Eq. 5 bound| ≤ {worst:.1e}")


def _random_gibbs(rng, m=50, n=4):
    X = rng.normal(size=(m, n))
    y = (X[:, 0] + 0.5 * rng.normal(size=m) > 0).astype(int)
    size = int(rng.integers(1, n + 1))
    features = np.sort(rng.choice(n, size=size, replace=False))
    lows = rng.normal(size=size) - 0.5
    highs = lows + rng.exponential(1.0, size=size)
    dirs = rng.choice([-1, 1], size=size)
    return X, y, features, lows, highs, dirs


def check_bayes_gibbs(rng, *, bayes=bayes_predict, gibbs=gibbs_risk, proba=gibbs_output_probability):
    """Section V: ``R(B_Q) ≤ 2 R(G_Q)``, checked example by example, as the paper argues it.

    "When B_Q misclassifies an example x, at least half of the binary classifiers (under measure
    Q) misclassifies x": on every example, ``I(B_Q(x) ≠ y) ≤ 2 Q(h(x) ≠ y)``. Inputs: random
    posteriors on random samples, and inputs placed where ``Π σ_k`` is 1/2 exactly or within
    ``1e-9`` of it (a single stump's interval midpoint; a second stump surely passed), the only
    places where the inequality can be tight; the mean of the pointwise Gibbs errors must equal
    the closed-form empirical Gibbs risk."""
    slack, near, n_examples, worst_mean = math.inf, 0, 0, 0.0
    for trial in range(200):
        X, y, f, a, b, d = _random_gibbs(rng)
        if trial % 2:  # inputs on which the vote is decided at Π σ = 1/2 (± 1e-9)
            width = b[0] - a[0]
            X[:, f[0]] = (a[0] + b[0]) / 2 + rng.choice([-1e-9, 0.0, 1e-9], size=len(y)) * width
            for j in range(1, len(f)):  # every other stump surely passed: σ = 1
                X[:, f[j]] = b[j] + 1.0 if d[j] > 0 else a[j] - 1.0
        q = np.asarray(proba(X, f, a, b, d), dtype=float)
        gibbs_error = np.where(y == 1, 1.0 - q, q)
        bayes_error = (np.asarray(bayes(X, f, a, b, d)) != y).astype(float)
        slack = min(slack, float(np.min(2 * gibbs_error - bayes_error)))
        near += int(np.sum(np.abs(q - 0.5) <= 1e-8))  # the inputs placed at 1/2 or 1e-9 from it
        n_examples += len(y)
        worst_mean = max(worst_mean, abs(float(gibbs(X, y, f, a, b, d)) - float(gibbs_error.mean())))
    ok = slack >= -1e-12 and worst_mean <= 1e-9
    return ok, (f"200 random posteriors on 50 × 4 samples ({n_examples} examples, {near} of them placed where Π σ "
                f"is 1/2 or within 1e-9 of it), example by example: min (2 × Gibbs error − Bayes error) = {slack:+.2e} ≥ 0 (0 where "
                f"Π σ = 1/2 exactly: the inequality is tight there); |mean pointwise Gibbs error − closed-form "
                f"Gibbs risk| ≤ {worst_mean:.1e}")


def check_bayes_vote_is_not_the_midpoint(rng, *, bayes=bayes_predict):
    """Section V, "the PAC-Bayes theorem offers a better guarantee for another type of deterministic
    classifier": shown, not judged (the argument it announces is lost).

    Our reconstruction's deterministic classifier is the Bayes vote ``I(Π σ_k > 1/2)``, whose
    risk is at most twice the Gibbs risk (``bayes-gibbs``), so the Gibbs bound doubled bounds it;
    the PAC-Bayes theorem gives the midpoint conjunction ``t_k = (a_k + b_k)/2`` no bound of its
    own. Shown: how often the two classifiers disagree on random posteriors (one stump: never, the
    vote of a single uniform threshold is its midpoint; more stumps: the vote is stricter)."""
    counts = {}
    for size in (1, 2, 3):
        disagree, total = 0, 0
        for _ in range(50):
            X = rng.normal(size=(200, 3))
            f = np.arange(size)
            a = rng.normal(size=size) - 0.5
            b = a + rng.exponential(1.0, size=size)
            d = rng.choice([-1, 1], size=size)
            mid = np.all(np.where(d > 0, X[:, f] > (a + b) / 2, X[:, f] <= (a + b) / 2), axis=1).astype(int)
            disagree += int(np.sum(np.asarray(bayes(X, f, a, b, d)) != mid))
            total += X.shape[0]
        counts[size] = (disagree, total)
    ok = counts[1][0] == 0
    return ok, ("Bayes vote I(Π σ > 1/2) against the midpoint conjunction, 50 random posteriors × 200 inputs: "
                + ", ".join(f"{s} stump{'s' if s > 1 else ''}: disagree on {c} of {t}" for s, (c, t) in counts.items())
                + " (the vote alone has a bound, twice the Gibbs bound)")


def check_kl_continuous_vanishes(rng, *, kl=pac_bayes_kl):
    """Section V: with ``[a_k, b_k] = [A_k, B_k]`` the KL is ``ln C(n,|k|) − ln ζ(|k|) + |k| ln 2`` alone."""
    worst = 0.0
    cases = [(2000, 0), (2000, 1), (7129, 3), (12625, 5)] + [(int(rng.integers(10, 20000)), int(rng.integers(0, 8)))
                                                              for _ in range(20)]
    for n, size in cases:
        discrete = float(log_choose(n, size) - log_zeta(size) + size * math.log(2))
        worst = max(worst, abs(float(kl(n, [1.0] * size)) - discrete) / max(1.0, discrete))
    ok = worst <= 1e-12
    return ok, f"{len(cases)} (n, |k|) with every ratio (B−A)/(b−a) = 1: max relative |KL − discrete part| = {worst:.1e}"


def check_kl_discrete_small(rng, *, kl=pac_bayes_kl):
    """Section V: the discrete part of the KL is small for small ``|k|``: it rises with each stump (|k| ≤ n/2)."""
    rises, falls = 0, []
    for n in (50, 2000, 7129, 12625):
        values = [float(kl(n, [1.0] * size)) for size in range(0, min(n // 2, 40) + 1)]
        steps = np.diff(values)
        rises += int(np.sum(steps > 0))
        falls += [f"n = {n}" for s in steps if not s > 0]
    ok = not falls
    return ok, (f"n ∈ {{50, 2000, 7129, 12625}}, |k| = 0..min(n/2, 40): the KL rises at {rises} of {rises + len(falls)} "
                f"steps; KL(|k| = 1) at n = 2000: {float(kl(2000, [1.0])):.2f} nats")


def check_margin_sparsity_tradeoff(rng, *, kl=pac_bayes_kl):
    """Section V: the KL falls as a margin widens and rises with each stump added."""
    worst, wider_higher = 0.0, 0
    for _ in range(100):
        size = int(rng.integers(1, 6))
        ratios = list(2.0 ** rng.uniform(1, 20, size=size))
        i = int(rng.integers(0, size))
        wider = list(ratios)
        wider[i] /= 2.0
        before, after = float(kl(2000, ratios)), float(kl(2000, wider))
        wider_higher += not after < before
        worst = max(worst, abs(before - after - math.log(2)))
    rises = all(float(kl(2000, [4.0] * (s + 1))) > float(kl(2000, [4.0] * s)) for s in range(10))
    ok = wider_higher == 0 and worst <= 1e-9 and rises
    return ok, (f"100 random posteriors (n = 2000): halving one ratio lowers the KL by ln 2 to {worst:.1e}; "
                f"a wider margin raised it {wider_higher} times; adding a stump raises it: {rises}")


def check_gibbs_closed_form(rng, *, gibbs=gibbs_risk):
    """Section V: the closed-form empirical Gibbs risk equals a Monte Carlo draw of the thresholds."""
    worst, draws = 0.0, 20000
    for _ in range(4):
        X, y, f, a, b, d = _random_gibbs(rng, m=40, n=3)
        closed = float(gibbs(X, y, f, a, b, d))
        t = rng.uniform(a, b, size=(draws, len(f)))
        x = X[:, f][None]
        out = np.all(np.where(d > 0, x > t[:, None], x <= t[:, None]), axis=2)
        worst = max(worst, abs(closed - float(np.mean(out != y[None].astype(bool)))))
    ok = worst <= 0.01  # 0.5/√20000 = 0.0035 is the largest standard error of a draw
    return ok, f"4 random posteriors on 40 × 3 samples, {draws} threshold draws each: max |closed form − Monte Carlo| = {worst:.4f} (≤ 0.01)"


def check_gibbs_deterministic_limit(rng, *, gibbs=gibbs_risk):
    """Section V: as every ``[a_k, b_k]`` shrinks to a point, the Gibbs risk becomes the conjunction's error."""
    worst = 0.0
    for _ in range(100):
        X, y, f, a, _, d = _random_gibbs(rng)
        det = float(np.mean(np.all(np.where(d > 0, X[:, f] > a, X[:, f] <= a), axis=1) != y.astype(bool)))
        worst = max(worst, abs(float(gibbs(X, y, f, a, a + 1e-9, d)) - det))
    ok = worst <= 1e-6
    return ok, f"100 random conjunctions, margins 1e-9 wide: max |Gibbs risk − conjunction's error| = {worst:.1e}"


def check_disjunction_by_label_swap(rng, *, learners=None):
    """Section II: a disjunction is the complement of the conjunction learned with the labels swapped."""
    learners = _LEARNERS if learners is None else learners
    sizes = {}
    for name, learner in learners.items():
        X = rng.normal(size=(50, 8))
        y = (X[:, 0] + X[:, 1] > 0).astype(int)
        disj = learner(**_GREEDY, model_type="disjunction", s=3).fit(X, y)
        conj = learner(**_GREEDY, model_type="conjunction", s=3).fit(X, 1 - y)
        same = (np.array_equal(disj.predict(X), 1 - conj.predict(X))
                and np.array_equal(disj.directions_, -conj.directions_)
                and np.allclose(disj.bound_path_, conj.bound_path_))
        if not same:
            return False, f"{name}: the disjunction is not the complement of the swapped-label conjunction"
        sizes[name] = int(disj.features_.size)
    return True, ("disjunction = 1 − conjunction on swapped labels (predictions, negated directions, bound path) "
                  "for " + ", ".join(f"{k} ({v} stumps)" for k, v in sizes.items()) + " on 50 × 8 samples")


def check_sc_greedy(rng, *, learner=SetCoveringStumps):
    """Section VI: each step adds a stump of largest ``U = |Q| − p|R|`` on the remaining examples,
    removes ``Q ∪ R``, and the greedy stops when no negative is left or ``s`` stumps are used."""
    steps = 0
    for p in (0.5, 1.0, 2.0):
        X, y = _random_data(rng, m=40, n=10)
        s = 4
        model = learner(**_GREEDY, threshold="observed", p=p, s=s).fit(X, y)
        alive = np.ones(len(y), dtype=bool)
        used = set()
        for f, t, d in zip(model.features_, model.thresholds_, model.directions_):
            best = -math.inf
            for g in set(range(X.shape[1])) - used:
                for v in np.unique(X[alive, g]):
                    for covered in (X[:, g] <= v, X[:, g] > v):
                        c = alive & covered
                        best = max(best, np.sum(c & (y == 0)) - p * np.sum(c & (y == 1)))
            chosen = alive & ((X[:, f] <= t) if d > 0 else (X[:, f] > t))
            utility = np.sum(chosen & (y == 0)) - p * np.sum(chosen & (y == 1))
            if not utility >= best - 1e-12:
                return False, f"p = {p}: step {steps + 1} chose utility {utility} where {best} was available"
            alive &= ~chosen
            used.add(int(f))
            steps += 1
        stopped = not np.any(alive & (y == 0)) or model.features_.size == s
        if not stopped:
            return False, f"p = {p}: the greedy stopped after {model.features_.size} stumps with negatives left"
    return True, (f"SC on 3 random samples of 40 × 10 (p = 0.5, 1, 2; s = 4): each of {steps} steps chose a stump "
                  "of largest utility over every remaining attribute and training value; each run stopped with "
                  "no negative left or s stumps")


@dataclass(frozen=True)
class Eq5Enumeration:
    """Every compression set of three small random samples, every message of Eq. 5 and every
    pairing of the compression examples to the message's attributes, counted once (Section IV).

    The three checks of Eq. 5 (:func:`check_sc_message_pairing`, :func:`check_sc_eq5_free_pairing`,
    :func:`check_sc_eq5_canonical_pairing`) read the same enumeration, so their counts are counts of
    one sample. One entry per compression set.

    Attributes
    ----------
    n_features : numpy.ndarray of int
        ``n``, the attributes of the compression set's sample.
    size : numpy.ndarray of int
        ``|k|``, the examples of the compression set (= the stumps of a message).
    free : numpy.ndarray of int
        Distinct (message, conjunction) pairs when any compression example may threshold any
        attribute of the message (the free pairing).
    canonical : numpy.ndarray of int
        The same under the canonical pairing (the ``j``-th example in index order thresholds the
        ``j``-th attribute in index order): one conjunction per message.
    most : numpy.ndarray of int
        The most distinct conjunctions one message denotes under the free pairing.
    """

    n_features: np.ndarray
    size: np.ndarray
    free: np.ndarray
    canonical: np.ndarray
    most: np.ndarray

    def __len__(self) -> int:
        return int(self.size.size)

    def largest_sum(self, counts, log_message) -> float:
        """The largest, over compression sets, of ``counts × exp(−log_message(n, |k|))``: the sum of
        the messages' probabilities over the conjunctions one compression set denotes (Kraft: at
        most 1 for a message distribution)."""
        weights = np.array([math.exp(-float(log_message(int(n), int(k)))) for n, k in zip(self.n_features, self.size)])
        return float(np.max(np.asarray(counts) * weights))


#: The samples of the enumeration: (attributes n, examples m); compression sets of 1 to 3 examples.
EQ5_SAMPLES = ((3, 4), (4, 5), (5, 6))


def eq5_enumeration(rng) -> Eq5Enumeration:
    """Enumerate, once, every compression set and message of Eq. 5 on three random samples (Section IV).

    For each sample of :data:`EQ5_SAMPLES` (``m`` ≤ 6 examples, ``n`` ≤ 5 attributes, drawn from
    ``rng`` with 200 probe points), every compression set of ``|k|`` ≤ 3 examples, every message
    (an attribute set and a direction per stump) and every pairing of the compression examples to
    the attributes is evaluated on the probe; a conjunction is its prediction vector there.

    Parameters
    ----------
    rng : numpy.random.Generator
        The notebook's generator (draws the samples and the probes).

    Returns
    -------
    Eq5Enumeration
    """
    rows = []
    for n, m in EQ5_SAMPLES:
        X = rng.normal(size=(m, n))
        probe = np.vstack([X, rng.normal(size=(200, n))])
        for size in range(1, min(3, n) + 1):
            orders = np.array(list(itertools.permutations(range(size))))  # every pairing, identity first
            for examples in itertools.combinations(range(m), size):
                free, canonical, most = 0, 0, 0
                for attributes in itertools.combinations(range(n), size):
                    values = probe[:, attributes]                       # (probe, |k|)
                    thresholds = X[np.asarray(examples)[orders], list(attributes)]  # (pairings, |k|)
                    above = values[None, :, :] > thresholds[:, None, :]   # (pairings, probe, |k|)
                    for directions in itertools.product((-1, 1), repeat=size):
                        out = np.all(np.where(np.asarray(directions) > 0, above, ~above), axis=2)
                        distinct = len({row.tobytes() for row in out})
                        free, canonical, most = free + distinct, canonical + 1, max(most, distinct)
                rows.append((n, size, free, canonical, most))
    n_features, size, free, canonical, most = (np.array(c, dtype=int) for c in zip(*rows))
    return Eq5Enumeration(n_features, size, free, canonical, most)


def _sample_sizes() -> str:
    return f"m ≤ {max(m for _, m in EQ5_SAMPLES)}, n ≤ {max(n for n, _ in EQ5_SAMPLES)}, |k| ≤ 3"


def check_sc_message_pairing(rng, *, log_message=compression_log_message, enumeration=None):
    """Section IV, Eq. 5 (our reconstruction): does a compression set with a message determine one
    conjunction, and do the messages' probabilities sum to at most 1 over what they denote?

    Every compression set of ``|k|`` examples of small random samples, every message of Eq. 5 (an
    attribute set and a direction per stump) and every pairing of the compression examples to the
    attributes (which example's value is which attribute's threshold) is enumerated
    (:func:`eq5_enumeration`). Each distinct conjunction needs a message of its own, so the
    probabilities ``exp(−log_message)`` summed over the distinct conjunctions of one compression set
    must be at most 1 (Kraft). The check holds when the strictly valid form (``pairing=True``, which
    pays ``ln |k|!``) sums to at most 1 on every compression set; the sum without the pairing term
    and the number of conjunctions one message denotes are reported.

    Parameters
    ----------
    rng : numpy.random.Generator
        Draws the enumeration's samples when ``enumeration`` is not given.
    log_message : callable, default=compression_log_message
        ``(n, |k|, pairing=) -> ln 1/P(σ)``, the function checked.
    enumeration : Eq5Enumeration, optional
        The enumeration shared with the other two checks of Eq. 5 (:func:`run_math_checks`).

    Returns
    -------
    (bool, str)
    """
    e = eq5_enumeration(rng) if enumeration is None else enumeration
    with_pairing = e.largest_sum(e.free, lambda n, size: log_message(n, size, pairing=True))
    without = e.largest_sum(e.free, lambda n, size: log_message(n, size, pairing=False))
    ok = with_pairing <= 1.0 + 1e-9
    return ok, (f"{len(e)} compression sets ({_sample_sizes()}), every message and pairing enumerated: one "
                f"message of Eq. 5 denotes up to {int(e.most.max())} different conjunctions; the messages' "
                f"probabilities summed over the conjunctions one compression set denotes reach {with_pairing:.4f} "
                f"with ln|k|! and {without:.4f} without it (a message distribution must sum to ≤ 1)")


def _learned_pairings(rng, learner=SetCoveringStumps, runs=20):
    """SC conjunctions of at least two stumps learned on random samples: how many pair their
    compression examples with their attributes in the canonical order (both in index order)."""
    canonical, total = 0, 0
    for _ in range(runs):
        X, y = _random_data(rng, m=60, n=20)
        model = learner(**_GREEDY, threshold="observed", p=0.5, s=4).fit(X, y)
        if model.features_.size < 2:
            continue
        total += 1
        by_attribute = np.asarray(model.compression_set_)[np.argsort(model.features_)]
        canonical += bool(np.all(np.diff(by_attribute) > 0))
    return canonical, total


def check_sc_eq5_free_pairing(rng, *, log_message=compression_log_message, enumeration=None):
    """Section IV, "Equation 5 along with the Sample Compression Theorem completes the bound", read
    with the pairing of compression examples to attributes left free (our reconstruction of Eq. 5:
    ``P(σ) = p(|k|) C(n,|k|)⁻¹ 2^−|k|``).

    A message distribution must sum to at most 1 over the distinct classifiers one compression set
    and its messages denote (Kraft). With a free pairing one message denotes up to ``|k|!``
    conjunctions, so the sum can exceed 1: the statement fails on this reading.

    Parameters
    ----------
    rng : numpy.random.Generator
        Draws the enumeration's samples when ``enumeration`` is not given.
    log_message : callable, default=compression_log_message
        ``(n, |k|) -> ln 1/P(σ)``, the function checked.
    enumeration : Eq5Enumeration, optional
        The enumeration shared with the other two checks of Eq. 5 (:func:`run_math_checks`).

    Returns
    -------
    (bool, str)
    """
    e = eq5_enumeration(rng) if enumeration is None else enumeration
    worst = e.largest_sum(e.free, log_message)
    ok = worst <= 1.0 + 1e-9
    return ok, (f"the {len(e)} compression sets ({_sample_sizes()}) of sc-message-pairing's enumeration, every "
                f"message of Eq. 5 and every pairing: {int(e.free.sum())} (compression set, conjunction) pairs; the "
                f"messages' probabilities summed over the conjunctions one compression set denotes reach {worst:.4f} "
                "(a message distribution must sum to ≤ 1)")


def check_sc_eq5_canonical_pairing(rng, *, log_message=compression_log_message, learner=SetCoveringStumps,
                                   enumeration=None):
    """Section IV, the same sentence read with a fixed canonical pairing: the ``j``-th compression
    example (in index order) thresholds the ``j``-th attribute (in index order).

    Then a message denotes one conjunction and Eq. 5 sums to at most 1 (the statement holds on this
    reading); what it costs is shown: the share of the conjunctions a free pairing denotes that the
    canonical one can express, and the share of SC conjunctions learned on random samples (greedy,
    thresholds at training values) whose pairing is canonical (the bound covers only those).

    Parameters
    ----------
    rng : numpy.random.Generator
        Draws the learners' samples (and the enumeration's when ``enumeration`` is not given).
    log_message : callable, default=compression_log_message
        ``(n, |k|) -> ln 1/P(σ)``, the function checked.
    learner : type, default=SetCoveringStumps
        The SC learner whose pairings are counted.
    enumeration : Eq5Enumeration, optional
        The enumeration shared with the other two checks of Eq. 5 (:func:`run_math_checks`).

    Returns
    -------
    (bool, str)
    """
    e = eq5_enumeration(rng) if enumeration is None else enumeration
    worst = e.largest_sum(e.canonical, log_message)
    canonical, total = _learned_pairings(rng, learner)
    ok = worst <= 1.0 + 1e-9
    return ok, (f"the {len(e)} compression sets ({_sample_sizes()}) of sc-message-pairing's enumeration and every "
                f"message of Eq. 5, canonical pairing: the sum reaches {worst:.4f} (≤ 1); it expresses "
                f"{int(e.canonical.sum())} of the {int(e.free.sum())} (compression set, conjunction) pairs a free "
                f"pairing denotes; of {total} SC conjunctions of ≥ 2 stumps learned on random 60 × 20 samples, "
                f"{canonical} pair canonically")


def check_zeta_decreases_slowly(rng, *, cost=threshold_code_cost):
    """Section III: ζ "has the advantage of decreasing slowly so that the risk bound does not
    deteriorate too rapidly as l_i increases": on our reconstruction ``ζ(l) = 6/π² (l+1)⁻²``, the
    part of a threshold's cost that is not its ``l ln 2`` string, ``−ln ζ(l)``, grows as
    ``2 ln(l+1)``, so each extra bit adds at most ``2 ln 2`` nats to it (at ``l = 0``) and less
    after; against a geometric ``2^−(l+1)`` length prior it adds ``ln 2`` per bit for ever."""
    levels = np.arange(0, 1001)
    rest = np.asarray(cost(levels), dtype=float) - levels * math.log(2)
    steps = np.diff(rest)
    geometric = (levels + 1) * math.log(2)  # −ln 2^−(l+1)
    first_below = int(np.argmax(rest < geometric)) if np.any(rest < geometric) else -1
    ok = bool(np.all(steps > 0) and np.all(np.diff(steps) < 0) and steps[0] <= 2 * math.log(2) + 1e-12)
    return ok, (f"l = 0..1000: −ln ζ(l) rises by {steps[0]:.3f} nats from l = 0 to 1, by {steps[9]:.4f} from 9 to 10, "
                f"by {steps[-1]:.5f} from 999 to 1000 (each step smaller than the last); below the geometric prior's "
                f"(l+1) ln 2 from l = {first_below} on; at l = 1000: {rest[-1]:.1f} nats against {geometric[-1]:.1f}")


def check_pac_bayes_prior_normalised(rng, *, kl=pac_bayes_kl):
    """Section V (our reconstruction): the prior over ``(k, d, t)`` integrates to ``Σ_{e=0}^{n} p(e)``.

    ``KL(Q‖P)`` with every margin interval equal to the prior range is ``−ln`` of the prior of the
    discrete part ``(k, d)`` (the continuous parts of ``Q`` and ``P`` coincide), and a margin ratio
    ``r`` adds ``ln r``, the KL of a uniform density on ``[a, b]`` to the uniform ``1/(B − A)`` on
    ``[A, B]``, which integrates to 1. Summed over every attribute set and direction vector the
    prior is therefore ``Σ_e C(n,e) 2^e exp(−KL(n, e stumps))``, which must equal ``Σ_{e ≤ n} p(e)``
    with our ``p(e) = ζ(e)``, at most 1.
    """
    totals, worst_ratio = {}, 0.0
    for n in sorted({5, 30, 200, int(rng.integers(2, 400))}):
        total = sum(math.exp(log_choose(n, e) + e * math.log(2) - float(kl(n, [1.0] * e))) for e in range(n + 1))
        target = float(np.sum(zeta(np.arange(n + 1))))
        totals[n] = (total, target)
    for _ in range(50):
        size = int(rng.integers(1, 5))
        ratios = list(2.0 ** rng.uniform(0, 20, size=size))
        step = float(kl(2000, ratios)) - float(kl(2000, [1.0] * size))
        worst_ratio = max(worst_ratio, abs(step - float(np.sum(np.log(ratios)))))
    ok = all(t <= 1.0 + 1e-12 and abs(t - z) <= 1e-9 for t, z in totals.values()) and worst_ratio <= 1e-9
    return ok, ("prior summed over every (k, d), each threshold's uniform density integrated: "
                + ", ".join(f"n = {n}: {t:.6f} (Σ_e≤n ζ(e) = {z:.6f})" for n, (t, z) in totals.items())
                + f"; 50 random margins: |KL − discrete part − Σ ln((B−A)/(b−a))| ≤ {worst_ratio:.1e}")


def check_occam_subprior_union(rng, *, inversion=binomial_tail_inversion, tail=binomial_tail):
    """Section III: Theorem 1 (Langford's Occam bound ``Bin̄(mR_S(f), m, δP(f))``) is valid when
    ``Σ_f P(f) ≤ 1``: the union bound over a finite class.

    For random finite classes (2 to 6 classifiers, true risks random, a subprior summing to 0.5 to
    1), the probability that ``f``'s bound falls below its true risk is computed exactly (every
    error count ``K ~ Bin(m, r_f)`` enumerated); it must be at most ``δP(f)`` for each ``f``, so
    the probability that any bound fails is at most ``δ Σ_f P(f) ≤ δ``.
    """
    worst_share, worst_total, n = 0.0, 0.0, 0
    delta = 0.05
    for _ in range(10):
        size = int(rng.integers(2, 7))
        prior = rng.dirichlet(np.ones(size)) * float(rng.uniform(0.5, 1.0))
        m = int(rng.integers(5, 80))
        total = 0.0
        for weight in prior:
            r = float(rng.uniform(0.01, 0.6))
            counts = np.arange(m + 1)
            below, pmf = _enumerated_miss(counts, m, r, delta * float(weight), inversion, tail)
            miss = float(pmf[below].sum())
            worst_share = max(worst_share, miss / (delta * float(weight)))
            total += miss
            n += 1
        worst_total = max(worst_total, total / delta)
    ok = worst_share <= 1 + 1e-9 and worst_total <= 1 + 1e-9
    return ok, (f"10 random finite classes ({n} classifiers, subpriors summing to 0.5–1, m < 80, δ = 0.05), every "
                f"error count enumerated: largest P(bound of f < R(f)) / (δP(f)) = {worst_share:.4f} (≤ 1); largest "
                f"P(some bound fails) / δ = {worst_total:.4f} (≤ Σ P(f) ≤ 1)")


#: measure key (``registry/paper05.toml``) -> (check, what it is about).
CHECKS = {
    "math_test_set_bound": check_test_set_bound,
    "math_occam_tighter_than_blumer": check_occam_tighter_than_blumer,
    "math_occam_subprior": check_occam_subprior,
    "math_occam_codes_sum_to_one": check_occam_codes_sum_to_one,
    "math_occam_code_length": check_occam_code_length,
    "math_occam_linear_in_l": check_occam_linear_in_l,
    "math_occam_code_tradeoff": check_occam_code_tradeoff,
    "math_compression_set": check_compression_set,
    "math_bayes_gibbs": check_bayes_gibbs,
    "math_kl_continuous_vanishes": check_kl_continuous_vanishes,
    "math_kl_discrete_small": check_kl_discrete_small,
    "math_margin_sparsity_tradeoff": check_margin_sparsity_tradeoff,
    "math_gibbs_closed_form": check_gibbs_closed_form,
    "math_gibbs_deterministic_limit": check_gibbs_deterministic_limit,
    "math_disjunction_by_label_swap": check_disjunction_by_label_swap,
    "math_sc_greedy": check_sc_greedy,
    "math_sc_message_pairing": check_sc_message_pairing,
    "math_pac_bayes_prior_normalised": check_pac_bayes_prior_normalised,
    "math_occam_subprior_union": check_occam_subprior_union,
    "math_sc_eq5_free_pairing": check_sc_eq5_free_pairing,
    "math_sc_eq5_canonical_pairing": check_sc_eq5_canonical_pairing,
    "math_zeta_decreases_slowly": check_zeta_decreases_slowly,
    "math_bayes_vote_not_midpoint": check_bayes_vote_is_not_the_midpoint,
}


#: The checks that read one shared :func:`eq5_enumeration`.
EQ5_CHECKS = ("math_sc_message_pairing", "math_sc_eq5_free_pairing", "math_sc_eq5_canonical_pairing")


def run_math_checks(rng) -> dict:
    """Every check of :data:`CHECKS`, in order, on ``rng``: ``{measure key: (ok, detail)}``.

    The three checks of Eq. 5 (:data:`EQ5_CHECKS`) read one enumeration, drawn where the first of
    them stands, so that their counts are of the same compression sets."""
    out, enumeration = {}, None
    for key, check in CHECKS.items():
        if key in EQ5_CHECKS:
            enumeration = eq5_enumeration(rng) if enumeration is None else enumeration
            out[key] = check(rng, enumeration=enumeration)
        else:
            out[key] = check(rng)
    return out


def math_checks_table(checks: dict, registry) -> pd.DataFrame:
    """The checks beside their registry rows: id, what the paper states, what was run, the result."""
    by_measure = {e.get("measure"): e for e in registry.entries}
    rows = []
    for key, (ok, detail) in checks.items():
        entry = by_measure[key]
        rows.append({"id": entry["id"], "kind": entry["category"] + (" (by construction)" if entry.get("by_construction") else ""),
                     "statement": entry["statement"], "what was run": detail,
                     "result": "shown, not judged" if entry["category"] == "observation" else "holds" if ok else "fails"})
    return pd.DataFrame(rows)
