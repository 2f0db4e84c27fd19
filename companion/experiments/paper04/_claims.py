"""Notebook 04's claims as a :mod:`companion.claims` family (``registry/paper04.toml``), their
measures and protocol variants.
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial

import numpy as np
import pandas as pd

from companion.experiments.protocol import check_tidy
from companion.experiments.paper04._protocol import WIDC_LEARNERS
from companion.experiments.paper04._peers import CLAIM_PEERS, MAJORITY, PEER_LEARNERS
from companion.experiments.paper04._tables import exact_per_dataset


# --------------------------------------------------------------------------------------------
# The paper's claims as a companion.claims family, and its protocol variants
# --------------------------------------------------------------------------------------------

#: "Without trading accuracy for simplicity": the points of error WIDC(p) may lose to a peer and
#: still not trade accuracy (one-sided non-inferiority margin). The paper's sentence fixes no
#: tolerance; two points is a conventional margin of our choosing (the registry's
#: ``margin_reason``), and the claims' intervals show which margins the data would decide.
NON_INFERIORITY_POINTS = 2.0
#: The constants of WIDC(o)'s reconstructed penalty the variants ``c_KM=...`` re-prune with
#: (the main protocol uses the one chosen on synthetic problems, section 5 of the notebook).
CKM_VARIANTS = (0.05, 0.1)
#: The learners checked against the majority-class baseline.
BASELINE_CHECKED = ("WIDC(p)", "J48", "CN2", "CN2-unordered", "JRip")
#: The data set the paper excepts from its CN2-POE statement.
CN2POE_EXCEPTION = "votes"


def _substitute(results: pd.DataFrame, replacement: pd.DataFrame) -> pd.DataFrame:
    """``results`` with the rows of every (data set, method) pair of ``replacement`` replaced by its rows.

    How a protocol variant is built: re-run only what the variant changes (WIDC with the other
    polarity; the data sets whose typing differs) and substitute it into the main frame.
    """
    check_tidy(results), check_tidy(replacement)
    keys = set(zip(replacement["dataset"], replacement["method"]))
    kept = results[[key not in keys for key in zip(results["dataset"], results["method"])]]
    return check_tidy(pd.concat([kept, replacement[kept.columns.intersection(replacement.columns)]], ignore_index=True))


def _with_cn2(results: pd.DataFrame, cn2: str = "CN2") -> pd.DataFrame:
    """``results`` with the learner ``cn2`` (e.g. ``"CN2 (alpha=1)"``) named ``"CN2"``, the former ``"CN2"`` dropped."""
    check_tidy(results)
    if cn2 == "CN2":
        return results
    if cn2 not in set(results["method"]):
        raise ValueError(f"no learner {cn2!r} in the results")
    kept = results[results["method"] != "CN2"].copy()
    kept["method"] = kept["method"].replace({cn2: "CN2"})
    return check_tidy(kept.reset_index(drop=True))


def claims_data(results: pd.DataFrame, *, cn2: str = "CN2", joint_best: bool = False) -> dict:
    """What the measures (:data:`MEASURES`) read: exact per-data-set means, and the folds.

    ``results``: :func:`run`'s frame with :func:`peer_results`' and :func:`majority_results`'
    (concatenated). ``cn2`` is the CN2 run that plays ``"CN2"`` (:func:`_with_cn2`). Means are
    :class:`fractions.Fraction` (:func:`exact_per_dataset`), so equal errors compare equal.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame (with :func:`peer_results`' and :func:`majority_results`', concatenated).
    cn2 : str, default="CN2"
        The CN2 run that plays ``"CN2"``.
    joint_best : bool, default=False
        Claims 1 and 2b count a data set where the variant ties another for the best for the
        claim (their design until 2026-12-03, the variant ``ties=for the claim``).

    Returns
    -------
    dict
        ``error`` and ``literals``: frames indexed by data set, one column per learner (error
        in points); ``fold_error`` and ``fold_literals``: the same per ``(dataset, fold)``;
        ``joint_best``.
    """
    results = _with_cn2(results, cn2)
    error = exact_per_dataset(results, "error").map(lambda v: v * 100 if isinstance(v, Fraction) else v)
    view = check_tidy(results)
    fold_error = {(d, int(f), m): Fraction(int(e), int(n)) * 100
                  for d, f, m, e, n in zip(view["dataset"], view["fold"], view["method"], view["errors"], view["n_test"])}
    fold_literals = {(d, int(f), m): Fraction(int(v))
                     for d, f, m, v in zip(view["dataset"], view["fold"], view["method"], view["literals"])}
    return {"error": error, "literals": exact_per_dataset(results, "literals"),
            "fold_error": fold_error, "fold_literals": fold_literals, "joint_best": joint_best}


def _pairs(data, quantity, a, b):
    """Per data set where both ran, ``(values of a, values of b)`` as lists of fractions; None if one is absent."""
    table = data[quantity]
    if a not in table.columns or b not in table.columns:
        return None
    both = [n for n in table.index if isinstance(table.loc[n, a], Fraction) and isinstance(table.loc[n, b], Fraction)]
    if not both:
        return None
    return [table.loc[n, a] for n in both], [table.loc[n, b] for n in both]


def _error_difference(data, a, b):
    pair = _pairs(data, "error", a, b)
    return None if pair is None else [x - y for x, y in zip(*pair)]


def _literal_pair(data, a, b):
    return _pairs(data, "literals", a, b)


def _fold_pairs(data, quantity, name, a, b):
    """On data set ``name``, per fold where both ran: ``(values of a, values of b)``; None if absent."""
    table = data[f"fold_{quantity}"]
    folds = sorted({f for d, f, _ in table if d == name})
    both = [f for f in folds if (name, f, a) in table and (name, f, b) in table]
    if not both:
        return None
    return [table[(name, f, a)] for f in both], [table[(name, f, b)] for f in both]


def _fold_difference(data, name, a, b):
    pair = _fold_pairs(data, "error", name, a, b)
    return None if pair is None else [x - y for x, y in zip(*pair)]


def variant_ranks(data, learner, quantity):
    """``(strict, joint, not)``: where ``learner`` alone has the least ``quantity``, ties, or not.

    Counted over the data sets, among the three WIDC variants.

    Parameters
    ----------
    data : dict
        :func:`claims_data`.
    learner : str
        A WIDC variant (:data:`WIDC_LEARNERS`).
    quantity : {"error", "literals"}

    Returns
    -------
    tuple of int, or None when a variant is missing
    """
    table = data[quantity]
    variants = list(WIDC_LEARNERS.values())
    if not set(variants) <= set(table.columns):
        return None
    strict = joint = worse = 0
    for n in table.index:
        mine, others = table.loc[n, learner], [table.loc[n, v] for v in variants if v != learner]
        if mine < min(others):
            strict += 1
        elif mine == min(others):
            joint += 1
        else:
            worse += 1
    return strict, joint, worse


def _strict_share(data, learner, quantity):
    """``(k, n, ties)``: data sets where ``learner`` alone is least in ``quantity`` among the WIDC
    variants, data sets, and data sets where it ties another for the least.

    With ``data["joint_best"]`` (the earlier design) a tie counts for the claim: ``(strict + joint, n, 0)``.
    """
    ranks = variant_ranks(data, learner, quantity)
    if ranks is None:
        return None
    strict, joint, _ = ranks
    return (strict + joint, sum(ranks), 0) if data.get("joint_best") else (strict, sum(ranks), joint)


def _cn2poe_outcomes(data, widc="WIDC(p)", peer="CN2"):
    """Per data set but :data:`CN2POE_EXCEPTION`: does ``widc`` have strictly lower error *and* fewer literals?"""
    error = _pairs(data, "error", widc, peer)
    if error is None:
        return None
    names = [n for n in data["error"].index if n != CN2POE_EXCEPTION
             and isinstance(data["error"].loc[n, peer], Fraction) and isinstance(data["error"].loc[n, widc], Fraction)]
    table_e, table_l = data["error"], data["literals"]
    return {n: bool(table_e.loc[n, widc] < table_e.loc[n, peer] and table_l.loc[n, widc] < table_l.loc[n, peer])
            for n in names} or None


def _counterexample(data, name, widc="WIDC(p)", peer="CN2"):
    """What makes ``name`` a counterexample to claim 4: the error difference (and on how many folds
    the peer makes fewer errors) or the equal errors, and the literals when they decide."""
    error, literals = data["error"], data["literals"]
    mine, theirs = error.loc[name, widc], error.loc[name, peer]
    parts = []
    if mine == theirs:
        parts.append(f"equal errors, {float(mine):.1f} % = {float(theirs):.1f} %")
    elif mine > theirs:
        folds = _fold_difference(data, name, widc, peer) or []
        parts.append(f"error +{float(mine - theirs):.1f} points, {peer} fewer errors on "
                     f"{sum(d > 0 for d in folds)}/{len(folds)} folds")
    if literals.loc[name, widc] >= literals.loc[name, peer]:
        parts.append(f"literals {float(literals.loc[name, widc]):.1f} vs {float(literals.loc[name, peer]):.1f}")
    return f"{name} ({'; '.join(parts)})"


def _cn2poe_all(data):
    outcomes = _cn2poe_outcomes(data)
    if outcomes is None:
        return None
    losers = [n for n, ok in outcomes.items() if not ok]
    return (not losers, f"{len(outcomes) - len(losers)}/{len(outcomes)} data sets; not on "
            + ("; ".join(_counterexample(data, n) for n in losers) if losers else "none"))


def _cn2poe_share(data):
    outcomes = _cn2poe_outcomes(data)
    return None if outcomes is None else (sum(outcomes.values()), len(outcomes))


def _beats_majority(data, learner):
    """Exact check: ``learner``'s mean error is below the majority class's on every data set it ran on."""
    pair = _pairs(data, "error", learner, MAJORITY)
    if pair is None:
        return None
    names = [n for n in data["error"].index if isinstance(data["error"].loc[n, learner], Fraction)
             and isinstance(data["error"].loc[n, MAJORITY], Fraction)]
    table = data["error"]
    bad = [f"{n} ({'equal' if table.loc[n, learner] == table.loc[n, MAJORITY] else 'worse'}: "
           f"{float(table.loc[n, learner]):.1f} vs {float(table.loc[n, MAJORITY]):.1f} %)"
           for n in names if table.loc[n, learner] >= table.loc[n, MAJORITY]]
    return (not bad, f"error below the majority class's on {len(names) - len(bad)}/{len(names)} data sets"
            + (f"; not on {', '.join(bad)}" if bad else ""))


#: The data set of the paper's Echo statements (UCI echocardiogram): not among :data:`BENCHMARK_SETS`,
#: so its claims are not applicable here.
ECHO = "echo"


def _measures() -> dict:
    measures = {
        "widc_p_strictly_best": partial(_strict_share, learner="WIDC(p)", quantity="error"),
        "widc_p_vs_unpruned_error": partial(_error_difference, a="WIDC(p)", b="WIDC()"),
        "widc_p_vs_unpruned_literals": partial(_literal_pair, a="WIDC(p)", b="WIDC()"),
        "widc_o_strictly_smallest": partial(_strict_share, learner="WIDC(o)", quantity="literals"),
        "widc_o_vs_p_error": partial(_error_difference, a="WIDC(o)", b="WIDC(p)"),
        "cn2poe_all": _cn2poe_all,
        "cn2poe_share": _cn2poe_share,
        "vote0_error_o_vs_cn2": partial(_fold_difference, name=CN2POE_EXCEPTION, a="WIDC(o)", b="CN2"),
        "vote0_literals_o_vs_cn2": partial(_fold_pairs, quantity="literals", name=CN2POE_EXCEPTION, a="WIDC(o)",
                                           b="CN2"),
        "echo_error_p_vs_cn2": partial(_fold_difference, name=ECHO, a="WIDC(p)", b="CN2"),
        "echo_literals_p_vs_cn2": partial(_fold_pairs, quantity="literals", name=ECHO, a="WIDC(p)", b="CN2"),
    }
    for peer in CLAIM_PEERS:
        measures[f"error_vs_{peer}"] = partial(_error_difference, a="WIDC(p)", b=peer)
        measures[f"literals_vs_{peer}"] = partial(_literal_pair, a="WIDC(p)", b=peer)
    for learner in BASELINE_CHECKED:
        measures[f"beats_majority_{learner}"] = partial(_beats_majority, learner=learner)
    return measures


#: ``{measure key: callable(claims_data) -> values}``: what the registry
#: (``companion/experiments/registry/paper04.toml``) names; None when the learners a measure
#: compares did not run (the peers on folds they were not run on; Echo).
MEASURES = _measures()


def claims_family(math: dict | None = None):
    """The registry's claims (``registry/paper04.toml``) with :data:`MEASURES`: a :mod:`companion.claims` family.

    The criteria, margins and tie rules are the registry's: the paper's statements (central ones
    first, then its mathematical statements and the algorithm steps it describes, then the rest of
    section *Experiments*), our checks, the sanity checks against the majority class and
    observations on the learners the paper did not run.

    Parameters
    ----------
    math : dict, optional
        :func:`companion.experiments.paper04._math_checks.math_checks`: the ``(ok, detail)`` of
        every ``math_*`` measure, run once per notebook and read as a constant by every variant.
        None: those rows carry no value (a family to list, not to evaluate).

    Returns
    -------
    list of companion.claims.Claim
    """
    import companion.claims as C

    from companion.experiments.paper04._math_checks import CHECKS

    math = {key: None for key in CHECKS} if math is None else dict(math)
    return C.family(C.load_registry("04"), {**MEASURES, **math})


def ckm_frame(sensitivity: pd.DataFrame, strength: float, *, seed: int) -> pd.DataFrame:
    """WIDC(o)'s rows of a tidy frame at another ``c_KM``, read off the benchmark's sensitivity run.

    Parameters
    ----------
    sensitivity : pandas.DataFrame
        :func:`companion.experiments.paper04._studies.optimistic_sensitivity` on the benchmark's
        folds (one row per data set, fold and strength).
    strength : float
        A constant of that run.
    seed : int
        The folds' seed (the tidy frame's ``seed``).

    Returns
    -------
    pandas.DataFrame
        ``dataset, method ("WIDC(o)"), seed, fold, errors, n_test, rules, literals``.
    """
    rows = sensitivity[sensitivity["strength"] == strength]
    if rows.empty:
        raise ValueError(f"no c_KM = {strength} in the sensitivity run (strengths {sorted(set(sensitivity['strength']))})")
    frame = rows[["dataset", "fold", "errors", "n_test", "rules", "literals"]].assign(method="WIDC(o)", seed=seed)
    return check_tidy(frame[["dataset", "method", "seed", "fold", "errors", "n_test", "rules", "literals"]]
                      .reset_index(drop=True))


def claims_variants(everything: pd.DataFrame, *, numeric: pd.DataFrame | None = None,
                    polarity_gt: pd.DataFrame | None = None, cn2_variant: str | None = "CN2 (alpha=1)",
                    seeds: dict | None = None, sensitivity: pd.DataFrame | None = None) -> dict:
    """The protocol variants of the claims, ``{name: frame}``, the main protocol first.

    Parameters
    ----------
    everything : pandas.DataFrame
        Main protocol: :func:`run` (documented typing, ``numeric_literal="le"``), the peers and
        the majority class, concatenated.
    numeric : pandas.DataFrame, optional
        Every learner re-run with ``typing="numeric"`` on the data sets whose typing differs;
        substituted (:func:`_substitute`) as the variant ``typing=numeric``. A peer that did not
        run under that typing is dropped from those data sets (never paired across typings).
    polarity_gt : pandas.DataFrame, optional
        WIDC re-run with ``numeric_literal="gt"``; substituted as the variant ``polarity=gt``.
    cn2_variant : str, optional
        The CN2 run that plays CN2 in the variant ``CN2 alpha=1`` (:func:`_with_cn2`; None or
        absent from ``everything``: no such variant).
    seeds : dict, optional
        ``{fold seed: frame}``: the main protocol on the folds of other seeds
        (:func:`seed_variants`), as the variants ``seed=s``.
    sensitivity : pandas.DataFrame, optional
        WIDC(o) at several ``c_KM`` on the main folds (:func:`ckm_frame`): the variants
        ``c_KM=c`` for each ``c`` of :data:`CKM_VARIANTS`, and ``c_KM=0.1, CN2 alpha=1`` (both
        choices of the Vote0 sentences at once).

    Returns
    -------
    dict
        ``{name: tidy frame}``: ``main``, then the variants given, then ``ties=for the claim``
        (the main frame; :func:`claims_report` reads it with ``joint_best=True``).
    """
    variants = {"main": check_tidy(everything)}
    if numeric is not None and len(numeric):
        base = everything
        for name in set(numeric["dataset"]):
            missing = set(PEER_LEARNERS) - set(numeric.loc[numeric["dataset"] == name, "method"])
            base = base[~((base["dataset"] == name) & base["method"].isin(missing))]
        variants["typing=numeric"] = _substitute(base, numeric)
    if polarity_gt is not None and len(polarity_gt):
        variants["polarity=gt"] = _substitute(everything, polarity_gt)
    if cn2_variant is not None and cn2_variant in set(everything["method"]):
        variants["CN2 alpha=1"] = _with_cn2(everything, cn2_variant)
    for seed, frame in (seeds or {}).items():
        variants[f"seed={seed}"] = check_tidy(frame)
    if sensitivity is not None and len(sensitivity):
        seed = int(everything["seed"].iloc[0])
        for strength in CKM_VARIANTS:
            variants[f"c_KM={strength:g}"] = _substitute(everything, ckm_frame(sensitivity, strength, seed=seed))
        if "CN2 alpha=1" in variants:
            variants[f"c_KM={CKM_VARIANTS[-1]:g}, CN2 alpha=1"] = _with_cn2(variants[f"c_KM={CKM_VARIANTS[-1]:g}"],
                                                                          cn2_variant)
    variants[TIES_VARIANT] = variants["main"]
    return variants


#: The variant that reads claims 1 and 2b with a joint best counted for the claim (their earlier design).
TIES_VARIANT = "ties=for the claim"


def variants_data(variants: dict) -> dict:
    """``{name: claims_data(frame)}`` for :func:`claims_variants`' frames (:data:`TIES_VARIANT` with ``joint_best``).

    Parameters
    ----------
    variants : dict
        :func:`claims_variants`.

    Returns
    -------
    dict
    """
    return {name: claims_data(frame, joint_best=name == TIES_VARIANT) for name, frame in variants.items()}


def claims_report(variants: dict, math: dict | None = None):
    """Evaluate :func:`claims_family` on :func:`claims_variants`' frames (Holm within each origin and variant).

    Parameters
    ----------
    variants : dict
        :func:`claims_variants`.
    math : dict, optional
        :func:`companion.experiments.paper04._math_checks.math_checks` (run once); None: the
        ``math_*`` rows are not evaluated (n/a).

    Returns
    -------
    companion.claims.ClaimsReport
    """
    import companion.claims as C

    return C.evaluate(claims_family(math), variants_data(variants))


def corrected_t(d, *, ratio_test: float, direction: str, margin: float, alpha: float = 0.025) -> dict:
    """Nadeau & Bengio's (2003) corrected resampled t on the ``J`` fold differences ``d`` of one data set.

    The folds of one cross-validation share their training examples, so their differences are
    correlated; the variance of the mean is inflated from ``s²/J`` to ``(1/J + n_test/n_train) s²``.

    Parameters
    ----------
    d : sequence of float
        Per-fold differences (a ratio's on the log scale).
    ratio_test : float
        ``n_test / n_train`` of the folds.
    direction : {"<", "<=", ">", ">="}
        The claim's side of ``margin``.
    margin : float
        On the scale of ``d``.
    alpha : float, default=0.025
        One-sided level; the interval is two-sided at ``1 − 2 alpha``.

    Returns
    -------
    dict
        ``mean``, ``ci_low``, ``ci_high``, ``p`` (one-sided, for the claim), ``p_fail`` and
        ``verdict`` (holds / fails / undecided, unadjusted for multiplicity).
    """
    from scipy import stats

    d = np.asarray(d, dtype=float)
    J = len(d)
    mean, var = float(d.mean()), float(d.var(ddof=1))
    se = float(np.sqrt((1 / J + ratio_test) * var))
    quantile = float(stats.t.ppf(1 - alpha, J - 1))
    low, high = mean - quantile * se, mean + quantile * se
    if se == 0:
        p_greater, p_less = (0.0 if mean > margin else 1.0), (0.0 if mean < margin else 1.0)
    else:
        t = (mean - margin) / se
        p_greater, p_less = float(stats.t.sf(t, J - 1)), float(stats.t.cdf(t, J - 1))
    upper_claim = direction in (">", ">=")
    p, p_fail = (p_greater, p_less) if upper_claim else (p_less, p_greater)
    claim_side = low > margin if upper_claim else high < margin
    other_side = high < margin if upper_claim else low > margin
    verdict = "holds" if p <= alpha and claim_side else "fails" if p_fail <= alpha and other_side else "undecided"
    return {"mean": mean, "ci_low": low, "ci_high": high, "p": p, "p_fail": p_fail, "verdict": verdict}


#: The Vote0 rows judged on folds: ``{id: (measure, kind, direction, margin)}`` (the registry's criteria).
VOTE0_ROWS = {"vote0-error": ("vote0_error_o_vs_cn2", "difference", ">", 0.0),
              "vote0-size": ("vote0_literals_o_vs_cn2", "ratio", "<=", 1 / 7.5)}


def vote0_corrected_table(variants: dict, report) -> pd.DataFrame:
    """The Vote0 rows under the corrected resampled t (:func:`corrected_t`) beside the engine's verdict.

    Parameters
    ----------
    variants : dict
        :func:`claims_variants`.
    report : companion.claims.ClaimsReport
        :func:`claims_report` (its per-variant verdicts, ``report.sensitivity``).

    Returns
    -------
    pandas.DataFrame
        One row per (claim, variant) the claim is evaluated under: the estimate (points, or
        the ratio) with its corrected 95 % interval, the corrected one-sided p, the corrected
        verdict and the engine's (Wilcoxon, folds as independent).
    """
    long = report.sensitivity.set_index(["id", "variant"])["verdict"]
    rows = []
    for claim_id, (measure, kind, direction, margin) in VOTE0_ROWS.items():
        for name, frame in variants.items():
            varied = name == "main" or name.split("=", 1)[0] in ("seed", "CN2 alpha", "c_KM")
            if not varied or (claim_id, name) not in long.index or long[(claim_id, name)] == "n/a":
                continue
            values = MEASURES[measure](claims_data(frame))
            votes = frame[(frame["dataset"] == CN2POE_EXCEPTION) & (frame["method"] == "WIDC(o)")]
            n = int(votes["n_test"].sum())
            ratio_test = float(np.mean([t / (n - t) for t in votes["n_test"]]))
            if kind == "ratio":
                d = np.log((np.asarray(values[0], dtype=float) + 1) / (np.asarray(values[1], dtype=float) + 1))
                result = corrected_t(d, ratio_test=ratio_test, direction=direction, margin=float(np.log(margin)))
                result.update({k: float(np.exp(result[k])) for k in ("mean", "ci_low", "ci_high")})
            else:
                d = np.asarray(values, dtype=float)
                result = corrected_t(d, ratio_test=ratio_test, direction=direction, margin=margin)
            rows.append({"id": claim_id, "variant": name, "folds": len(d), "estimate": result["mean"],
                         "ci_low": result["ci_low"], "ci_high": result["ci_high"], "p (corrected t)": result["p"],
                         "verdict (corrected t)": result["verdict"], "verdict (Wilcoxon)": long[(claim_id, name)]})
    return pd.DataFrame(rows).set_index(["id", "variant"])


def registry_table() -> pd.DataFrame:
    """The claims registry (``registry/paper04.toml``) as a table: the criteria.

    Returns
    -------
    pandas.DataFrame
        One row per claim: ``id, origin, category, kind, statement, criterion, ties, stand-in, where``.
    """
    import companion.claims as C

    registry = C.load_registry("04")
    rows = []
    for claim, entry in zip(claims_family(), registry.entries):
        check = entry.get("measure", "").startswith("math_")
        rows.append({"id": claim.id, "origin": claim.origin, "category": entry["category"], "kind": claim.kind,
                     "statement": claim.statement,
                     "criterion": f"computed in the notebook ({entry['measure']}); also tested by {claim.unit_test}"
                     if check else claim.criterion(),
                     "ties": entry.get("ties", ""), "stand-in": claim.stand_in, "where": claim.where})
    return pd.DataFrame(rows).set_index("id")
