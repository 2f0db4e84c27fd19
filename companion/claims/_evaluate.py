"""From measurements to verdicts: one claim on one protocol variant, Holm within each origin's
family, the design's smallest reachable p, and the sensitivity to the variants."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from numbers import Real

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import validate_params

from companion.claims._claim import Claim
from companion.claims._registry import ORIGINS
from companion.claims._report import TABLE_COLUMNS, ClaimsReport, check_family
from companion.claims._statistics import (
    ALPHA,
    all_rational,
    as_values,
    binomial_tail,
    check_count,
    clopper_pearson,
    holm,
    location_test,
    rejects,
)
from companion.numerics import TIE_RTOL, StrictInterval


def _fingerprint(values):
    """A hashable, exact image of what a claim measured: two variants that give a claim the same
    data have the same fingerprint (so the variant cannot change its verdict and is not counted)."""
    if isinstance(values, np.ndarray):
        return ("array", values.dtype.kind, tuple(values.tolist()))
    if isinstance(values, (list, tuple)):
        return tuple(_fingerprint(v) for v in values)
    if isinstance(values, (pd.Series, pd.Index)):
        return _fingerprint(values.to_numpy())
    if isinstance(values, np.generic):
        return values.item()
    return values


def _tally(d, margin, direction) -> tuple[int, int, int]:
    """Values on the claim's side of ``margin``, equal to it, on the other side.

    With ``margin = 0`` these are the head-to-head wins, ties and losses of the raw differences
    (a *win* is a difference on the side the claim asserts: below 0 for ``<``/``<=``, above for
    ``>``/``>=``; for ``within`` a win is a difference below 0, the first side lower). Equality is
    exact for integers and fractions, within ``TIE_RTOL`` of the largest magnitude for floats (the
    rule of the Wilcoxon zeros)."""
    if all_rational(d):
        centred = [Fraction(x) - Fraction(margin) for x in d]
        if direction == "within" and margin != 0:
            centred = [abs(Fraction(x)) - Fraction(margin) for x in d]
        negative = sum(1 for x in centred if x < 0)
        zero = sum(1 for x in centred if x == 0)
    else:
        x = np.asarray(d, dtype=float)
        centred = (np.abs(x) if direction == "within" and margin != 0 else x) - margin
        scale = max(1.0, float(np.max(np.abs(x))) if x.size else 1.0, abs(margin))
        zero_mask = np.abs(centred) <= TIE_RTOL * scale
        zero = int(zero_mask.sum())
        negative = int(((centred < 0) & ~zero_mask).sum())
    positive = len(d) - negative - zero
    if direction in (">=", ">"):
        return positive, zero, negative
    return negative, zero, positive


def _all_zero(d) -> bool:
    if all_rational(d):
        return all(Fraction(x) == 0 for x in d)
    x = np.asarray(d, dtype=float)
    return bool(np.all(x == 0))


def _design_min_p(claim: Claim, n: int) -> float:
    """The smallest raw one-sided p the claim's test can give with ``n`` paired values (or trials).

    Wilcoxon and sign tests: every value on the claim's side, ``2^-n``; the paired t: 0 (no floor);
    binomial with margin ``m``: ``m^n`` for an upper claim, ``(1 − m)^n`` for a lower one."""
    if claim.kind == "proportion":
        return claim.margin ** n if claim.direction in (">", ">=") else (1 - claim.margin) ** n
    if claim.test in ("t", "corrected_t"):
        return 0.0
    return 2.0 ** -n


def _measure(claim: Claim, data, alpha: float) -> dict:
    """Raw evaluation of one claim on one variant's data (p-values not yet corrected)."""
    row = {"kind": claim.kind, "test": claim.test, "n": np.nan, "estimate": np.nan, "ci_low": np.nan,
           "ci_high": np.nan, "p_raw": np.nan, "p_fail_raw": np.nan, "detail": "", "verdict": None,
           "wins": np.nan, "ties": np.nan, "losses": np.nan, "margin_wins": np.nan, "margin_ties": np.nan,
           "margin_losses": np.nan, "design_p": np.nan, "fingerprint": None}
    if claim.kind == "guaranteed":
        row.update(verdict="guaranteed", detail=claim.reason)
        return row
    values = claim.values(data) if callable(claim.values) else claim.values
    row["fingerprint"] = _fingerprint(values)
    if values is None:
        row["verdict"] = "n/a"
        return row
    where = f"claim {claim.id!r}"
    if claim.kind == "exact":
        ok, detail = (values if isinstance(values, tuple) else (values, ""))
        if not isinstance(ok, (bool, np.bool_)):
            raise TypeError(f"{where}: an exact check must return a bool or (bool, detail), got {ok!r}")
        row.update(verdict="holds" if ok else "fails", detail=str(detail))
        return row
    confidence = 1 - 2 * alpha
    identical = False
    if claim.kind == "proportion":
        if not (isinstance(values, tuple) and len(values) in (2, 3)):
            raise ValueError(f"{where}: a proportion needs (k, n) or (k, n, ties), got {values!r}")
        k, n, *rest = (int(v) if isinstance(v, np.integer) else v for v in values)
        check_count(k, n, where)
        tied = rest[0] if rest else 0
        if not (isinstance(tied, int) and 0 <= tied <= n - k):
            raise ValueError(f"{where}: the ties of a proportion are an integer in [0, n - k] = [0, {n - k}], "
                             f"got {tied!r}")
        estimate = k / n
        low, high = clopper_pearson(k, n, confidence)
        p_less = binomial_tail(k, n, claim.margin, upper=False)
        p_greater = binomial_tail(k, n, claim.margin, upper=True)
        # the trials: k successes, the ties (counted among the n - k non-successes), the rest
        if claim.direction in (">", ">="):
            row.update(wins=k, ties=tied, losses=n - k - tied)
        else:
            row.update(wins=n - k - tied, ties=tied, losses=k)
    else:
        if claim.kind == "ratio":
            if claim.test == "corrected_t":
                if not (isinstance(values, tuple) and len(values) == 4):
                    raise ValueError(f"{where}: test='corrected_t' needs (numerators, denominators, groups, ratios), "
                                     f"got {type(values).__name__}")
                *values, groups, ratios = values
            elif not (isinstance(values, tuple) and len(values) == 2):
                raise ValueError(f"{where}: a ratio needs (numerators, denominators), got {type(values).__name__}")
            a = as_values(values[0], f"{where}: numerators").astype(float) + claim.offset
            b = as_values(values[1], f"{where}: denominators").astype(float) + claim.offset
            if a.shape != b.shape:
                raise ValueError(f"{where}: numerators and denominators differ in length: {a.shape} vs {b.shape}")
            if np.any(a <= 0) or np.any(b <= 0):
                raise ValueError(f"{where}: a ratio needs positive values (use offset=), got "
                                 f"{np.concatenate([a[a <= 0], b[b <= 0]]).tolist()[:5]}")
            d = np.log(a / b)
            identical = bool(np.all(a == b))
            margin, lower_margin = math.log(claim.margin), -math.log(claim.margin)
        else:
            if claim.test == "corrected_t":
                if not (isinstance(values, tuple) and len(values) == 3):
                    raise ValueError(f"{where}: test='corrected_t' needs (differences, groups, ratios), got "
                                     f"{type(values).__name__}")
                values, groups, ratios = values
            # (tested, raw): a test on transformed values (e.g. a variance correction) whose
            # head-to-head tally and identity read the raw differences
            tested, raw = values if isinstance(values, tuple) and len(values) == 2 else (values, values)
            d = as_values(tested, f"{where}: values")
            raw = as_values(raw, f"{where}: raw values")
            if raw.shape != d.shape:
                raise ValueError(f"{where}: raw and tested values differ in length: {raw.shape} vs {d.shape}")
            identical = len(d) > 0 and _all_zero(raw)
            margin, lower_margin = claim.margin, -claim.margin
        if len(d) == 0:
            raise ValueError(f"{where}: no values to test")
        n = len(d)
        # head to head on the raw differences (a ratio's log is 0 exactly where a = b), and
        # against the margin under its own name
        counted = d if claim.kind == "ratio" else raw
        row.update(zip(("wins", "ties", "losses"), _tally(counted, 0.0, claim.direction)))
        row.update(zip(("margin_wins", "margin_ties", "margin_losses"), _tally(counted, margin, claim.direction)))
        extra = {"groups": groups, "ratios": ratios} if claim.test == "corrected_t" else {}
        estimate, low, high, p_less, p_greater = location_test(d, margin, claim.test, claim.zero_method, confidence,
                                                               **extra)
        if claim.direction == "within":
            _, _, _, p_less_low, p_greater_low = location_test(d, lower_margin, claim.test, claim.zero_method,
                                                                confidence, **extra)
    if claim.direction in ("<=", "<"):
        p_hold, p_fail = p_less, p_greater
    elif claim.direction in (">=", ">"):
        p_hold, p_fail = p_greater, p_less
    else:  # within: TOST
        p_hold = max(p_less, p_greater_low)
        p_fail = min(1.0, 2 * min(p_greater, p_less_low))
    if claim.kind == "ratio":
        estimate, low, high = math.exp(estimate), math.exp(low), math.exp(high)
    row.update(n=n, estimate=estimate, ci_low=low, ci_high=high, p_raw=p_hold, p_fail_raw=p_fail,
               design_p=_design_min_p(claim, n))
    if identical:
        row.update(verdict="identical", detail=f"all {n} paired differences are 0: the two sides are identical")
    return row


def _decide(claim: Claim, row: dict, alpha: float) -> str:
    """The verdict of a tested claim from its corrected p-values and its interval."""
    margin = claim.margin
    tol = TIE_RTOL * max(1.0, abs(margin))
    low, high = row["ci_low"], row["ci_high"]
    if claim.direction in ("<=", "<"):
        claim_side, other_side = high < margin - tol, low > margin + tol
    elif claim.direction in (">=", ">"):
        claim_side, other_side = low > margin + tol, high < margin - tol
    else:
        lower = 1 / margin if claim.kind == "ratio" else -margin
        claim_side = low > lower + tol and high < margin - tol
        other_side = low > margin + tol or high < lower - tol
    if rejects(row["p_holm"], alpha) and claim_side:
        return "holds"
    if rejects(row["p_fail_holm"], alpha) and other_side:
        return "fails"
    return "undecided"


#: The verdict words of each origin (the engine's verdicts on the left). Only ``paper`` claims
#: are judged; a ``check`` agrees with its reference or not; an ``observation`` is reported.
VERDICT_WORDS = {
    "paper": {},
    "check": {"holds": "agrees", "fails": "differs"},
    "sanity": {"holds": "passes", "fails": "does not pass"},
    "observation": {"holds": "observed", "fails": "observed", "undecided": "observed", "not decidable": "observed",
                    "identical": "observed"},
}


def _holm_family(claims, rows, alpha):
    """Holm within each origin, over the claims whose design can decide them.

    ``min_p`` of a tested claim is its design's smallest raw p (:func:`_design_min_p`)
    Holm-corrected among the design minima of its origin's family: every claim of the family at
    its best at once. A claim whose ``min_p`` exceeds α is ``not decidable`` and leaves the
    family, and the minima are corrected again without it, until none is dropped."""
    for origin in ORIGINS:
        members = [i for i, (c, r) in enumerate(zip(claims, rows))
                   if c.origin == origin and r["verdict"] is None and origin != "observation"]
        while members:
            minima = holm([rows[i]["design_p"] for i in members])
            for i, m in zip(members, minima):
                rows[i]["min_p"] = m
            kept = [i for i, m in zip(members, minima) if rejects(m, alpha)]
            if len(kept) == len(members):
                break
            for i, m in zip(members, minima):
                if not rejects(m, alpha):
                    rows[i]["verdict"] = "not decidable"
                    rows[i]["detail"] = (f"with n = {int(rows[i]['n'])} the smallest Holm-corrected p this design "
                                         f"can reach is {m:.3g} > α = {alpha:g}")
            members = kept
        p_hold = holm([rows[i]["p_raw"] for i in members]) if members else []
        p_fail = holm([rows[i]["p_fail_raw"] for i in members]) if members else []
        for i, ph, pf in zip(members, p_hold, p_fail):
            rows[i]["p_holm"], rows[i]["p_fail_holm"] = ph, pf
            rows[i]["verdict"] = _decide(claims[i], rows[i], alpha)
    for claim, row in zip(claims, rows):
        if claim.origin == "observation" and row["verdict"] is None:
            row["verdict"] = "observed"


def _evaluate_variant(claims, data, alpha, raw=None):
    """Measure every claim on one variant's data (or take the measured ``raw`` rows), then
    correct and decide them within their families."""
    rows = [dict(row) for row in raw] if raw is not None else [_measure(claim, data, alpha) for claim in claims]
    for row in rows:
        row.update(p_holm=np.nan, p_fail_holm=np.nan, min_p=np.nan)
    _holm_family(claims, rows, alpha)
    for claim, row in zip(claims, rows):
        row["verdict"] = VERDICT_WORDS[claim.origin].get(row["verdict"], row["verdict"])
    return rows


def _margin_variants(claims, data, alpha) -> dict:
    """``{(claim index, "margin=m"): row}``: each claim re-decided at each of its alternative
    margins on the main data, the rest of its family as measured (Holm within the family)."""
    raw = [_measure(claim, data, alpha) for claim in claims]
    found = {}
    for index, claim in enumerate(claims):
        for margin in claim.margins:
            family = list(claims)
            family[index] = replace(claim, margin=float(margin))
            rows = list(raw)
            rows[index] = _measure(family[index], data, alpha)
            name = f"margin={_margin_name(claim, margin)}"
            found[(index, name)] = _evaluate_variant(family, data, alpha, raw=rows)[index]
    return found


def _margin_name(claim, margin) -> str:
    return f"×{margin:g}" if claim.kind == "ratio" else f"{margin:g}"


def _variant_name(variant: str) -> str:
    return variant.split("=", 1)[0]


def _applies(claim: Claim, variant: str) -> bool:
    return claim.variants is None or _variant_name(variant) in claim.variants


@validate_params(
    {
        "claims": [list, tuple],  # of Claim, checked in the body
        # anything: each claim's measure reads it (a dict of variants, or the one main variant)
        "data": "no_validation",
        "alpha": [StrictInterval(Real, 0, 0.5, closed="neither")],
        "main": [str],
    },
    prefer_skip_nested_validation=True,
)
def evaluate(claims, data, *, alpha: float = ALPHA, main: str = "main") -> "ClaimsReport":
    """Evaluate a family of claims on the main protocol and on every alternative protocol choice.

    Parameters
    ----------
    claims : list or tuple of Claim
        The notebook's family (:func:`family` of its registry); ids must be unique.
    data : dict {variant name: data} or any object
        What each claim's ``values`` function receives, per protocol variant; ``main`` must be a
        key. Variant names are ``name=value`` (``seed=3``, ``tie=fewest_errors``); a claim is
        re-decided under the variants whose name its ``variants`` lists. A non-dict is the only
        (main) variant.
    alpha : float, default=ALPHA
        One-sided level; the intervals are at ``1 − 2α``.
    main : str, default="main"
        The variant the verdicts are stated for; the others are its sensitivity.

    Returns
    -------
    ClaimsReport
        A variant that gives a claim exactly the data of the main protocol is listed as
        "unchanged by", never as "robust to"; the fold-seed variants (``seed=…``) are summarised
        in ``seeds`` ("4 of 4 other seeds keep"), and a flip under any of them marks the claim not robust.
    """
    claims = list(claims)
    if not claims or not all(isinstance(c, Claim) for c in claims):
        raise TypeError(f"evaluate: claims must be a non-empty sequence of Claim, got {claims!r}")
    ids = [c.id for c in claims]
    duplicated = sorted({i for i in ids if ids.count(i) > 1})
    if duplicated:
        raise ValueError(f"evaluate: claim ids must be unique, got duplicates {duplicated}")
    variants = data if isinstance(data, dict) else {main: data}
    if main not in variants:
        raise ValueError(f"evaluate: data has no {main!r} variant; got {list(variants)}")
    order = [main] + [v for v in variants if v != main]
    measured = {variant: _evaluate_variant(claims, variants[variant], alpha) for variant in order}
    margins = _margin_variants(claims, variants[main], alpha) if any(c.margins for c in claims) else {}
    long_rows = []
    for variant in order:
        for claim, row, first in zip(claims, measured[variant], measured[main]):
            if variant == main:
                role = "main"
            elif not _applies(claim, variant):
                role = "not listed"
            elif row["fingerprint"] == first["fingerprint"] and claim.kind != "guaranteed":
                role = "unchanged"
            else:
                role = "varies" if claim.kind != "guaranteed" else "not listed"
            long_rows.append({"variant": variant, "id": claim.id, "role": role, **row,
                              "same_as_main": row["verdict"] == first["verdict"]})
    for (index, name), row in margins.items():
        first = measured[main][index]
        long_rows.append({"variant": name, "id": claims[index].id, "role": "varies", **row,
                          "same_as_main": row["verdict"] == first["verdict"]})
    sensitivity = pd.DataFrame(long_rows)
    sensitivity = sensitivity[["variant", "id", "role", "kind", "test", "n", "estimate", "ci_low", "ci_high", "wins",
                               "ties", "losses", "margin_wins", "margin_ties", "margin_losses", "p_raw", "p_holm", "p_fail_raw", "p_fail_holm", "min_p", "verdict",
                               "same_as_main", "detail"]]
    rows = []
    for claim in claims:
        mine = sensitivity[sensitivity["id"] == claim.id].set_index("variant")
        first = mine.loc[main]
        others = mine.drop(index=main)
        varied = others[others["role"] == "varies"]
        unchanged = list(others.index[others["role"] == "unchanged"])
        judged = claim.origin != "observation" and claim.kind != "guaranteed"
        compared = varied[varied["verdict"] != "n/a"] if first["verdict"] != "n/a" else varied.iloc[0:0]
        flips = [f"{v} ({compared.loc[v, 'verdict']})" for v in compared.index
                 if not compared.loc[v, "same_as_main"]] if judged else []
        # the fold seeds that keep the verdict are counted in ``seeds`` ("95 of 99 other seeds keep"),
        # not named one by one; a seed that flips it is named among the flips
        robust_to = [v for v in compared.index if compared.loc[v, "same_as_main"] and _variant_name(v) != "seed"] \
            if judged else []
        missing = [v for v in varied.index if v not in compared.index]
        # a seed at which the claim is not measured (n/a) neither keeps nor flips it; a claim not
        # measured in the main run has nothing for a seed to keep
        # a seed that gives the claim exactly the main run's values keeps its verdict too; the count
        # says how many did so only because nothing changed ("unchanged by" in the sensitivity)
        seeds = [v for v in others.index if _variant_name(v) == "seed" and others.loc[v, "role"] == "varies"
                 and others.loc[v, "verdict"] != "n/a" and first["verdict"] != "n/a"]
        kept = [v for v in seeds if others.loc[v, "same_as_main"]]
        same = [v for v in others.index if _variant_name(v) == "seed" and others.loc[v, "role"] == "unchanged"]
        seed_text = (f"{len(kept) + len(same)} of {len(seeds) + len(same)} other seeds keep"
                     if seeds and judged else "")
        # the other variants run (neither a fold seed nor the honest check, which are stated apart):
        # the count the short verdict sentence gives beside the flips
        other_run = [v for v in [*compared.index, *unchanged]
                     if _variant_name(v) != "seed" and v != claim.honest_check] if judged else []
        if seed_text and same:
            seed_text += f" ({len(same)} of them with the same values)"
        rows.append({
            "notebook": claim.notebook, "id": claim.id, "origin": claim.origin, "central": claim.central,
            "statement": claim.statement, "quote": claim.quote, "where": claim.where,
            "quote_source": claim.quote_source, "kind": claim.kind, "test": claim.test,
            "quantity": claim.quantity, "criterion": claim.criterion(), "direction": claim.direction,
            "margin": claim.margin, "margin_reason": claim.margin_reason, "tie_rule": claim.tie_rule,
            "unit": claim.unit, "digits": claim.digits,
            **{k: first[k] for k in ("n", "estimate", "ci_low", "ci_high", "wins", "ties", "losses", "margin_wins",
                                     "margin_ties", "margin_losses", "p_raw", "p_holm", "p_fail_raw", "p_fail_holm",
                                     "min_p", "verdict", "detail")},
            "robust": bool(not flips),
            "flips": "; ".join(flips), "seeds": seed_text, "variants_run": len(other_run),
            "check_variants_run": sum(check_family(claim.honest_check, v, claim.check_variants) for v in other_run),
            "check_family": "; ".join(claim.check_variants),
            "sensitivity": _sensitivity_text(robust_to, flips, missing, unchanged if judged else [], seeds_varied=bool(seeds)),
            "stand_in": claim.stand_in, "unit_test": claim.unit_test, "discussion": claim.discussion,
            "alpha": alpha, "category": claim.category, "formula": claim.formula,
            "by_construction": claim.by_construction, "fixed": claim.fixed, "results_known": claim.results_known,
            "history": claim.history, "sentence": claim.sentence,
            **_honest_check(claim, mine, main),
        })
    return ClaimsReport(pd.DataFrame(rows, columns=TABLE_COLUMNS), sensitivity, main, alpha)


def _honest_check(claim: Claim, mine: pd.DataFrame, main: str) -> dict:
    """The verdict, estimate and interval of the claim's honest-check variant (empty if none)."""
    empty = {"check_variant": claim.honest_check, "check_verdict": "", "check_estimate": np.nan,
             "check_ci_low": np.nan, "check_ci_high": np.nan, "check_p_holm": np.nan, "check_p_fail_holm": np.nan}
    if not claim.honest_check:
        return empty
    if claim.honest_check == main or claim.honest_check not in mine.index:
        raise ValueError(f"evaluate: claim {claim.id!r} names honest_check {claim.honest_check!r}, which is not "
                         f"one of the other variants {[v for v in mine.index if v != main]}")
    other = mine.loc[claim.honest_check]
    return {**empty, "check_verdict": other["verdict"], "check_estimate": other["estimate"],
            "check_ci_low": other["ci_low"], "check_ci_high": other["ci_high"], "check_p_holm": other["p_holm"],
            "check_p_fail_holm": other["p_fail_holm"]}


def seed_runs_named(variants) -> list:
    """``variants`` with each run of three or more consecutive fold seeds (``seed=k``, ``seed=k+1``, …)
    named once, ``"seed=5 to seed=99 (95 seeds)"``; the other variants as they are, in their order.

    Examples
    --------
    >>> seed_runs_named(["a=1", "seed=5", "seed=6", "seed=7", "seed=9", "seed=10"])
    ['a=1', 'seed=5 to seed=7 (3 seeds)', 'seed=9', 'seed=10']
    """
    out, run = [], []

    def close():
        if len(run) >= 3:
            out.append(f"seed={run[0]} to seed={run[-1]} ({len(run)} seeds)")
        else:
            out.extend(f"seed={k}" for k in run)
        run.clear()

    for variant in variants:
        seed = variant[len("seed="):] if variant.startswith("seed=") else ""
        if seed.isdigit():
            if run and int(seed) != run[-1] + 1:
                close()
            run.append(int(seed))
        else:
            close()
            out.append(variant)
    close()
    return out


def _sensitivity_text(robust_to, flips, missing, unchanged=(), seeds_varied=False) -> str:
    """The variants a claim is robust to, flips under, is not evaluated under and is unchanged by.

    The fold seeds that keep the verdict are not in ``robust_to`` (the ``seeds`` column counts
    them); ``seeds_varied`` says that some did vary the claim's values, so "unchanged" is not
    said of every variant.
    """
    parts = []
    if robust_to:
        parts.append("robust to " + ", ".join(robust_to))
    if flips:
        parts.append("flips under " + ", ".join(flips))
    if missing:
        parts.append("not evaluated under " + ", ".join(seed_runs_named(missing)))
    if unchanged and not (robust_to or flips or missing or seeds_varied):
        # nothing listed changes what the claim measures: say so once, not variant by variant
        parts.append("no listed variant changes the values it is decided on (unchanged here)")
    elif unchanged:
        parts.append("unchanged by " + ", ".join(unchanged))
    return "; ".join(parts)
