"""Notebook 01's claims as a :mod:`companion.claims` family: the measures of
``registry/paper01.toml``, their data, the protocol variants and the report.
"""

from __future__ import annotations

from functools import partial
from fractions import Fraction

import numpy as np
import pandas as pd

from companion.decision_list import DecisionListMachine
from companion.experiments.protocol import paper_models
from companion.experiments.paper01._grids import COMPARABLE, DISPLAY, Grid
from companion.experiments.paper01._tables import main_fold_seed, paper_table1


# --------------------------------------------------------------------------------------------
# The paper's claims: measures for the registry (companion/experiments/registry/paper01.toml)
# --------------------------------------------------------------------------------------------

#: "This difference is huge" (Section 5): the factor by which the machine's balls must be fewer
#: than the SVM's support vectors on every data set, fixed from the paper's wording before any
#: result (its own smallest factor is 18 / 1 on Votes and 58 / 2 = 29 on BreastW).
SPARSITY_FACTOR = 10
#: The largest DLM of the paper's Table 1 (Glass, ``s = 12``).
PAPER_MAX_BALLS = 12
MACHINES = ("svm", "scm", "dlm")

#: Every sentence this module writes, as a :func:`companion.prose.render` template.
TEMPLATES = {
    "often": "{wins:plural win}, {ties:plural tie} and {losses:plural loss|losses} over {n:plural data set} "
             "(DLM − {other} total errors: {differences:list})",
    "some": "fewer total errors than the {other} on {k} of {n:plural data set} "
            "(DLM − {other} total errors: {differences:list})",
    "difference_item": "{name} {d:signed.0}",
    "guide_item": "{name} {c} against {b}",
    "factor_item": "{name} {factor:.0f}x",
    "range_item": "{name} {target} {outside:sign |in|not in} {low}–{high}",
    "names_in": " ({names:list})",
    "not_on": "; not on {names:list}",
    "sparsity": "support vectors / balls: {factors:list}",
    "at_most": "largest selected DLM: {size:.1f} balls ({name}) at fold seed {seed}",
    "in_range": "within on {inside} of {n:plural data set}: {ranges:list}",
    "counts": "equal on {equal} of {n:plural data set}{differ}",
    "lengths": "every fold reaches s on {reach} of {n:plural data set}{short}",
    "rivest": "on seven points of a line (RIVEST_EXAMPLE) p_p = p_n = 1 learns {balls:plural ball} with "
              "{errors:plural training error}, Rivest's greedy (p_p = p_n = ∞) {exact_balls:plural ball} with "
              "{exact_errors:plural training error}",
    "alternation": "if h1 then 1, else if h2 then 0, else 1 (an alternation) equals h1 ∨ ¬h2 on all four inputs",
    "strict": "if h1 then 1, else if h2 then 0, else if h3 then 1, else 0 equals none of the {n} conjunctions "
              "and disjunctions of literals of h1, h2, h3",
    "log2r": "{r} balls have {orders} orderings; log2(r) bits name {r} of them",
}


def render_claim_text(key, **values) -> str:
    from companion.prose import render

    return str(render(TEMPLATES[key], **values))


def _names_in(names) -> str:
    """`` (a, b and c)`` naming ``names``, or nothing."""
    return render_claim_text("names_in", names=list(names)) if len(names) else ""


def _not_on(names) -> str:
    """``; not on a, b and c``, or nothing."""
    return render_claim_text("not_on", names=list(names)) if len(names) else ""


def _claims_rows(results: pd.DataFrame, protocol: str = "a") -> dict:
    """Per ``(data set, machine, seed)``: total errors, mean size, fold errors and fold sizes of one protocol."""
    part = results[(results["protocol"] == protocol) & results["machine"].isin(MACHINES + ("dlmc",))
                   & results["dataset"].isin(COMPARABLE)]
    rows = {}
    for (name, machine, seed), group in part.groupby(["dataset", "machine", "seed"], sort=False):
        rows[(name, machine, int(seed))] = {
            "errors": int(group["errors"].sum()), "size": float(group["size"].mean()),
            "folds": group["errors"].astype(int).tolist(), "fold_n": group["n_test"].astype(int).tolist()}
    return rows


def _guide_rows(results: pd.DataFrame) -> dict:
    """Per data set (main seed): the fold errors of the corrected-bound DLM (c) and of the nested DLM (b)."""
    out = {}
    main = main_fold_seed(results)
    for name in COMPARABLE:
        part = results[(results["dataset"] == name) & (results["seed"] == main)]
        c = part[part["method"] == "DLM (c) corrected"]
        b = part[part["method"] == "DLM (b)"]
        if len(c) and len(b):
            out[name] = {"c": c["errors"].astype(int).tolist(), "b": b["errors"].astype(int).tolist(),
                         "fold_n": c["n_test"].astype(int).tolist()}
    return out


def claims_data(results: pd.DataFrame, *, lengths=None, coverage=None, fine: dict | None = None, counts=None,
                seed=None) -> dict:
    """What the measures of :func:`claims_measures` read, from :func:`~companion.experiments.paper01.run`.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`~companion.experiments.paper01.run`'s frame (the comparable data sets are used).
    lengths : dict or pandas.DataFrame, optional
        ``{fold seed: list_length_table(...)}`` (or one table, of the main seed).
    coverage : pandas.DataFrame, optional
        :func:`coverage_table` (indexed by (machine, bound), or by (distribution, machine, bound):
        the first distribution is used), for the bound claims.
    fine : dict, optional
        :func:`fine_grid_protocol`, for the size of the fine-grid DLMs.
    counts : dict, optional
        :func:`~companion.experiments.paper01.dataset_counts`, for the examples of Table 1.
    seed : int, optional
        The fold seed of the claims (default: the main seed of ``results``).

    Returns
    -------
    dict
        ``rows``: the design of the claims that compare machines,
        ``{(data set, machine, seed): {"errors", "size", "folds", "fold_n"}}`` of protocol (b)
        (nested CV: no grid point chosen on a test fold) for the SVM, SCM and DLM where it ran,
        else of protocol (a); ``rows_paper``: the same of protocol (a), the paper's own protocol
        (the grid point of fewest test errors), which the checks against Table 1 and the
        constrained-DLM claim read; ``seed``, ``seeds`` (every fold seed of protocol (a)),
        ``lengths``, ``coverage``, ``fine`` (rows of the fine-grid DLMs), ``counts``, ``guide``.
    """
    main = main_fold_seed(results) if seed is None else seed
    if isinstance(lengths, pd.DataFrame):
        lengths = {main: lengths}
    seeds = [int(s) for s in dict.fromkeys(results.loc[results["protocol"] == "a", "seed"])]
    paper_rows = _claims_rows(results, "a")
    return {"rows": {**paper_rows, **_claims_rows(results, "b")}, "rows_paper": paper_rows, "seed": int(main),
            "seeds": seeds, "lengths": lengths or {},
            "coverage": coverage, "fine": None if fine is None else fine["best"], "counts": counts,
            "guide": _guide_rows(results), "main_seed": int(main)}


def _replace(data: dict, machine: str, frame: pd.DataFrame) -> dict:
    """``data`` with the rows of ``machine`` taken from a follow-up frame (``errors``, ``size``, ``fold_errors``).

    The follow-ups use the same stratified folds as the main run (same seeds), so the fold sizes
    are the main run's. A seed the follow-up did not run keeps the main protocol's row.
    """
    rows = dict(data["rows"])
    inverse = {v: k for k, v in DISPLAY.items()}
    for _, row in frame.iterrows():
        name, seed = inverse.get(row["dataset"], row["dataset"]), int(row["seed"])
        if (name, machine, seed) not in rows:
            continue
        rows[(name, machine, seed)] = {"errors": int(row["errors"]), "size": float(row["size"]),
                                       "folds": list(row["fold_errors"]),
                                       "fold_n": rows[(name, machine, seed)]["fold_n"]}
    return {**data, "rows": rows}


def claims_variants(results: pd.DataFrame, *, lengths=None, coverage=None, fine: dict | None = None, tie=None,
                    svm=None, counts=None) -> dict:
    """The protocol variants of the claims, ``{name: data}``, the main protocol first.

    Each variant changes one choice; a claim's entry in the registry names the variants that
    could move it, and the claims engine reports a variant that leaves a claim's values as they
    are as "unchanged by", not "robust to".

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`~companion.experiments.paper01.run`'s frame: the main design (the machines
        compared under protocol (b), nested CV; the checks against Table 1 and the constrained
        DLM under protocol (a); coarse grids, our tie rule, relative SVM widths, main fold seed)
        and the variants ``seed=k`` (each other fold seed of the run: every claim read at that
        seed) and ``protocol=paper (a)`` (the machines compared under the paper's protocol,
        each grid point chosen on the test folds).
    lengths : dict, optional
        ``{fold seed: list_length_table(...)}``.
    coverage : pandas.DataFrame, optional
        :func:`coverage_table` (run once, main seed).
    fine : dict, optional
        :func:`fine_grid_protocol`: the variant ``grid=fine under (a)`` (DLM and SCM rows, every seed it ran).
    tie : pandas.DataFrame, optional
        :func:`tie_rule_protocol`: a variant ``tie=<rule> under (a)`` per rule other than ours.
    svm : pandas.DataFrame, optional
        :func:`svm_gamma_protocol`: the variant ``gamma=absolute under (a)``.
    counts : dict, optional
        :func:`~companion.experiments.paper01.dataset_counts`.

    Returns
    -------
    dict
        ``{variant: claims_data(...)}``.
    """
    main = claims_data(results, lengths=lengths, coverage=coverage, fine=fine, counts=counts)
    variants = {"main": main}
    for seed in main["seeds"]:
        if seed != main["seed"]:
            variants[f"seed={seed}"] = {**main, "seed": seed}
    # The paper's protocol (a) for every machine: each grid point chosen on the test folds.
    paper = {**main, "rows": main["rows_paper"]}
    variants["protocol=paper (a)"] = paper
    # The follow-up protocols change one choice of protocol (a) (tie rule, grid, SVM width), so
    # they are variants of protocol (a): a flip under one of them marks the claim not robust.
    if tie is not None:
        for rule in dict.fromkeys(tie["rule"]):
            if rule != "larger_cover":
                variants[f"tie={rule} under (a)"] = _on_paper_protocol(_replace(paper, "dlm", tie[tie["rule"] == rule]))
    if fine is not None:
        fined = _replace(paper, "dlm", fine["best"])
        if fine.get("scm_best") is not None:
            fined = _replace(fined, "scm", fine["scm_best"])
        variants["grid=fine under (a)"] = _on_paper_protocol(fined)
    if svm is not None:
        variants["gamma=absolute under (a)"] = _on_paper_protocol(_replace(paper, "svm", svm))
    return variants


def _on_paper_protocol(data: dict) -> dict:
    """A protocol-(a) variant whose ``rows`` a follow-up replaced: the checks against Table 1 (which
    read ``rows_paper``) see the same replaced rows."""
    return {**data, "rows_paper": data["rows"]}


def _names(data):
    return [n for n in COMPARABLE if any(key[0] == n for key in data["rows"])]


def _row(data, name, machine, source="rows"):
    return data[source].get((name, machine, data["seed"]))


def _fold_differences(data, a, b, source="rows"):
    """Paired differences of the fold error rates (points, exact fractions), ``a`` minus ``b``, every test fold
    of every comparable data set at the variant's fold seed; None when a machine was not run there.
    ``source``: ``"rows"`` (the claims' design, nested CV) or ``"rows_paper"`` (protocol (a))."""
    out = []
    for name in _names(data):
        x, z = _row(data, name, a, source), _row(data, name, b, source)
        if x is None or z is None:
            return None
        out += [Fraction(100 * (e - f), n) for e, f, n in zip(x["folds"], z["folds"], x["fold_n"])]
    return out or None


def _differences(pairs, other):
    """The detail's list: each data set's DLM − ``other`` total errors."""
    return [render_claim_text("difference_item", name=DISPLAY[n], d=a - b) for n, (a, b) in pairs.items()]


def _often_check(pairs, other):
    """More wins than losses over ``{name: (DLM total, other total)}`` (equal totals count as neither)."""
    wins = sum(a < b for a, b in pairs.values())
    losses = sum(a > b for a, b in pairs.values())
    return wins > losses, render_claim_text("often", wins=wins, ties=len(pairs) - wins - losses, losses=losses, n=len(pairs),
                                  other=other.upper(), differences=_differences(pairs, other))


def _totals(data, other):
    """``{name: (DLM total, other total)}`` at the variant's seed, None when a machine was not run."""
    pairs = {}
    for name in _names(data):
        x, z = _row(data, name, "dlm"), _row(data, name, other)
        if x is None or z is None:
            return None
        pairs[name] = (x["errors"], z["errors"])
    return pairs


def _often(data, other):
    """Exact: the DLM has fewer total errors than ``other`` on more data sets than it has more."""
    pairs = _totals(data, other)
    return None if pairs is None else _often_check(pairs, other)


def _table1_often(data, other):
    """The same criterion on Table 1's own numbers (the six comparable data sets)."""
    paper = paper_table1()
    return _often_check({n: (int(paper.loc[n, "dlm_errors"]), int(paper.loc[n, f"{other}_errors"]))
                         for n in COMPARABLE}, other)


def _some(data, other="scm"):
    """Exact: the DLM has fewer total errors than ``other`` on at least one data set."""
    pairs = _totals(data, other)
    if pairs is None:
        return None
    wins = sum(a < b for a, b in pairs.values())
    return wins >= 1, render_claim_text("some", other=other.upper(), k=wins, n=len(pairs), differences=_differences(pairs, other))


def _sparsity(data, machine):
    factors = {}
    for name in _names(data):
        sv, balls = _row(data, name, "svm"), _row(data, name, machine)
        if sv is None or balls is None:
            return None
        factors[name] = sv["size"] / max(balls["size"], 1.0)
    return (all(f >= SPARSITY_FACTOR for f in factors.values()),
            render_claim_text("sparsity", factors=[render_claim_text("factor_item", name=DISPLAY[n], factor=f) for n, f in factors.items()]))


def _at_most_balls(data):
    """Exact, on the fine grid (s up to 15; the coarse grid's s <= 12 would make it true by construction)."""
    fine = data.get("fine")
    if fine is None:
        return None
    part = fine[fine["seed"] == data["seed"]]
    if part.empty:
        return None
    big = part.loc[part["size"].idxmax()]
    return (float(big["size"]) <= PAPER_MAX_BALLS,
            render_claim_text("at_most", size=float(big["size"]), name=big["dataset"], seed=int(big["seed"])))


def _paper_in_range(data, machine):
    """Exact: Table 1's errors of ``machine`` lie within our totals over the fold seeds, on every data set."""
    paper = paper_table1()
    ranges, inside, names = [], 0, _names(data)
    for name in names:
        values = [row["errors"] for key, row in data["rows_paper"].items() if key[:2] == (name, machine)]
        target = int(paper.loc[name, f"{machine}_errors"])
        within = min(values) <= target <= max(values)
        inside += within
        ranges.append(render_claim_text("range_item", name=DISPLAY[name], target=target, outside=int(not within), low=min(values),
                              high=max(values)))
    return inside == len(names), render_claim_text("in_range", inside=inside, n=len(names), ranges=ranges)


def _example_counts(data):
    counts = data.get("counts")
    if not counts:
        return None
    paper = paper_table1()
    differ = [f"{DISPLAY[n]} ({int(paper.loc[n, 'data_examples'])} vs {counts[n][0]})" for n in counts
              if int(paper.loc[n, "data_examples"]) != counts[n][0]]
    return not differ, render_claim_text("counts", equal=len(counts) - len(differ), n=len(counts), differ=_not_on(differ))


def _lengths_reach(data):
    lengths = data["lengths"].get(data["seed"])
    if lengths is None:
        return None
    figure1 = lengths.xs("Figure 1", level="variant")
    short = [f"{d} ({row['mean_length']:.1f} of {int(row['paper_s'])})" for d, row in figure1.iterrows()
             if row["min_length"] < row["paper_s"]]
    return not short, render_claim_text("lengths", reach=len(figure1) - len(short), n=len(figure1), short=_not_on(short))


def _coverage_share(data, bound):
    """(runs where some DLM's ``bound`` lies below its risk, runs) of the first coverage distribution.

    The coverage runs once (it draws its own samples, seeded from the notebook's seed): every
    variant reads the same runs, so the engine reports the variants as leaving it unchanged.
    """
    coverage = data.get("coverage")
    if coverage is None:
        return None
    if coverage.index.nlevels == 3:
        coverage = coverage.xs(coverage.index.get_level_values(0)[0], level=0)
    row = coverage.loc[("DLM", bound)]
    return int(row["any_violated"]), int(row["runs"])


def _guide_differences(data):
    """Fold error rates (points) of the corrected-bound DLM (c) minus the nested-CV DLM (b), main seed only."""
    if data["seed"] != data["main_seed"] or not data.get("guide"):
        return None
    out = []
    for name, row in data["guide"].items():
        out += [Fraction(100 * (c - b), n) for c, b, n in zip(row["c"], row["b"], row["fold_n"])]
    return out


#: A fixed training set on which BuildDLM with ``p_p = p_n = 1`` is not Rivest's greedy algorithm:
#: positives at 0, 1, 2, 3, a negative at 1.5 among them and negatives at 6, 7 (one feature).
RIVEST_EXAMPLE = (np.array([[0.0], [1.0], [2.0], [3.0], [1.5], [6.0], [7.0]]), np.array([1, 1, 1, 1, 0, 0, 0]))


@paper_models
def _rivest_unit_penalties(data):
    """Exact: BuildDLM with ``p_p = p_n = 1`` learns Rivest's list (``p_p = p_n = ∞``: error-free features only)."""
    X, y = RIVEST_EXAMPLE
    lists = {}
    for penalty in (1.0, np.inf):
        dlm = DecisionListMachine(p_p=penalty, p_n=penalty, s=None, stop_if_unchanged=False, fallback=None).fit(X, y)
        errors = int(dlm.path_[["k_p", "k_n"]].sum(axis=1).iloc[-1])
        lists[penalty] = (dlm.n_balls_, errors, [(b.kind, b.centre_index, float(b.radius)) for b in dlm.balls_])
    unit, rivest = lists[1.0], lists[np.inf]
    return unit[2] == rivest[2], render_claim_text("rivest", balls=unit[0], errors=unit[1], exact_balls=rivest[0],
                                         exact_errors=rivest[1])


def _decision_list(rules, default, inputs):
    """Outputs of ``if h_j then b_j ... else default`` on each row of Boolean ``inputs``."""
    out = []
    for x in inputs:
        for j, b in rules:
            if x[j]:
                out.append(b)
                break
        else:
            out.append(default)
    return tuple(out)


def _pure_functions(n):
    """Truth tables of every conjunction and disjunction of literals of ``n`` Boolean features."""
    from itertools import product

    inputs = list(product((0, 1), repeat=n))
    tables = set()
    for signs in product((None, 0, 1), repeat=n):  # feature absent, negated, plain
        literals = [(j, s) for j, s in enumerate(signs) if s is not None]
        if not literals:
            continue
        values = [[x[j] if s else 1 - x[j] for j, s in literals] for x in inputs]
        tables.add(tuple(int(all(v)) for v in values))
        tables.add(tuple(int(any(v)) for v in values))
    return inputs, tables


def _alternation(data):
    """Exact: a decision list with an alternation is no conjunction or disjunction of its features' literals."""
    inputs, pure = _pure_functions(2)
    listed = _decision_list([(0, 1), (1, 0)], 1, inputs)
    return listed not in pure, render_claim_text("alternation")


def _strict_inclusion(data):
    """Exact: some decision list is no conjunction or disjunction of literals (three features)."""
    inputs, pure = _pure_functions(3)
    listed = _decision_list([(0, 1), (1, 0), (2, 1)], 0, inputs)
    return listed not in pure, render_claim_text("strict", n=len(pure))


def _log2_r(data):
    """Exact: log2(r) bits specify the ordering of r ball centres (checked at r = 3)."""
    import math

    r = 3
    return 2 ** math.log2(r) >= math.factorial(r), render_claim_text("log2r", r=r, orders=math.factorial(r))


def claims_measures() -> dict:
    """The measurement of every claim of ``registry/paper01.toml``, by its ``measure`` key.

    Returns
    -------
    dict
        ``{measure: callable(data) -> values}``: paired fold differences (points) for the
        difference claims, ``(k, n)`` for the coverage proportions, ``(bool, detail)`` for the
        exact ones, None where a variant does not apply.
    """
    return {
        "dlm_minus_svm": partial(_fold_differences, a="dlm", b="svm"),
        "dlm_minus_scm": partial(_fold_differences, a="dlm", b="scm"),
        "dlm_often_svm": partial(_often, other="svm"),
        "dlm_often_scm": partial(_often, other="scm"),
        "dlm_some_scm": partial(_some, other="scm"),
        "sparsity_dlm": partial(_sparsity, machine="dlm"),
        "sparsity_scm": partial(_sparsity, machine="scm"),
        "coverage_published": partial(_coverage_share, bound="published"),
        "coverage_corrected": partial(_coverage_share, bound="corrected"),
        # both sides of protocol (a): the constrained DLM runs under (a) only (main seed)
        "constrained_minus_dlm": partial(_fold_differences, a="dlmc", b="dlm", source="rows_paper"),
        "rivest_unit_penalties": _rivest_unit_penalties,
        "alternation": _alternation,
        "strict_inclusion": _strict_inclusion,
        "log2_r": _log2_r,
        "table1_often_svm": partial(_table1_often, other="svm"),
        "table1_often_scm": partial(_table1_often, other="scm"),
        "examples": _example_counts,
        "paper_in_range_dlm": partial(_paper_in_range, machine="dlm"),
        "paper_in_range_scm": partial(_paper_in_range, machine="scm"),
        "paper_in_range_svm": partial(_paper_in_range, machine="svm"),
        "at_most_balls": _at_most_balls,
        "lengths_reach": _lengths_reach,
        "guide_minus_nested": _guide_differences,
    }


def claims_report(variants: dict):
    """Evaluate the registry's claims (``registry/paper01.toml``) on :func:`claims_variants`' data.

    Parameters
    ----------
    variants : dict
        ``{variant: data}`` of :func:`claims_variants`, the main protocol first.

    Returns
    -------
    companion.claims.ClaimsReport
    """
    import companion.claims as C

    return C.evaluate(C.family(C.load_registry("01"), claims_measures()), variants)


def _variant_verdict(report, id, variant) -> str:
    """The verdict of claim ``id`` under ``variant`` (``"not run"`` when the run has no such variant)."""
    part = report.sensitivity[(report.sensitivity["id"] == id) & (report.sensitivity["variant"] == variant)]
    return str(part["verdict"].iloc[0]) if len(part) else "not run"


def discussion_values(report, protocols: pd.DataFrame, coverage: pd.DataFrame, grid: Grid) -> dict:
    """The fields the registry's discussion templates name beyond the claims table's own columns.

    Parameters
    ----------
    report : companion.claims.ClaimsReport
        :func:`claims_report`'s result.
    protocols : pandas.DataFrame
        :func:`~companion.experiments.paper01.protocols_table`.
    coverage : pandas.DataFrame
        :func:`coverage_table` per distribution (indexed by (distribution, machine, bound)).
    grid : Grid
        The coarse grid of protocol (a).

    Returns
    -------
    dict
        ``{claim id: {field: value}}`` for :meth:`companion.claims.ClaimsReport.discussion`.
    """
    n_dlm = len(grid.dlm_types) * len(grid.dlm_penalties) ** 2 * grid.dlm_s_max
    n_scm = len(grid.scm_types) * len(grid.scm_penalties) * grid.scm_s_max
    n_svm = len(grid.svm_gamma_factors) * len(grid.svm_Cs)
    verdicts = report.verdicts()
    names = [DISPLAY[n] for n in COMPARABLE if DISPLAY[n] in protocols.index]
    rows = protocols.loc[names]
    constrained = [render_claim_text("difference_item", name=n, d=int(rows.loc[n, "a_dlm_constrained"] - rows.loc[n, "a_dlm"]))
                   for n in names]
    values = {
        "2": {"dlm_points": n_dlm, "svm_points": n_svm, "paper": _variant_verdict(report, "2", "protocol=paper (a)")},
        "1": {"dlm_points": n_dlm, "scm_points": n_scm, "paper": _variant_verdict(report, "1", "protocol=paper (a)")},
        "1-often": {"table1": verdicts["1-often-table1"]},
        "2-often": {"table1": verdicts["2-often-table1"]},
        "C": {"differences": constrained},
        "B": {"corrected": verdicts["B-corrected"], "no_signal": float("nan")},
    }
    if coverage.index.nlevels == 3 and coverage.index.get_level_values(0).nunique() > 1:
        other = coverage.xs(coverage.index.get_level_values(0).unique()[1], level=0).loc[("DLM", "published")]
        values["B"]["no_signal"] = float(other["any_violated"] / other["runs"])
    if "b_dlm" in rows:
        values["guide"] = {
            "pairs": [render_claim_text("guide_item", name=n, c=int(rows.loc[n, "c_dlm_corrected"]), b=int(rows.loc[n, "b_dlm"]))
                      for n in names],
            "balls_low": float(rows["c_corrected_balls"].min()), "balls_high": float(rows["c_corrected_balls"].max())}
    return {id: fields for id, fields in values.items() if id in verdicts}


def sensitivity_pivot(report) -> pd.DataFrame:
    """Verdict of every claim (rows) under every protocol variant (columns).

    Parameters
    ----------
    report : companion.claims.ClaimsReport
        :func:`claims_report`'s result.

    Returns
    -------
    pandas.DataFrame
        From ``report.sensitivity``, claims and variants in their order: the verdict where the
        variant is one of the claim's and changes its data, "=" where it leaves the data as they
        are, empty where the claim does not list it.
    """
    long = report.sensitivity.copy()
    long["shown"] = np.where(long["role"].isin(["main", "varies"]), long["verdict"],
                             np.where(long["role"] == "unchanged", "=", ""))
    table = long.pivot(index="id", columns="variant", values="shown")
    return table.reindex(index=list(report.table["id"]), columns=list(dict.fromkeys(long["variant"])))


#: The templates of the notebook's generated prose outside the claims (:func:`fine_grid_markdown`,
#: :func:`reproduction_markdown`, :func:`dataset_notes_markdown`, :func:`glass_choice_markdown`,
#: :func:`penalty_valley_markdown`); rendered by :func:`companion.prose.render`.
TEMPLATES.update({
    "fine_missing": "* The paper's DLM penalties not on our coarse grid: {dlm_missing}; its SCM penalties not on it: "
                    "{scm_missing} (Table 1).",
    "fine_dlm": "* Fine DLM grid: {k} values of $p_p$ and $p_n$ in [{low:g}, {high:g}] ({values}), {share} penalty of "
                "the paper's DLM column; both ball types; $s \\le {s_max}$.",
    "fine_scm": "* Fine SCM grid: {k} values of $p$ ({values}), {share} $p$ of the paper's SCM column{coarse}; both "
                "types; $s \\le {s_max}$.",
    "share_of": "{k} of the {n}",
    "repro_dlm": "* DLM: the coarse grid's total (main seed) is above the paper's on {above} of {n:plural data set} "
                 "({above_names:list}); the fine grid's fold-seed means are within {gap_low:.1f}–{gap_high:.1f} errors "
                 "of the paper's. With \"{other}\" first the mean total is lower on {lower:list}, higher on "
                 "{higher:list}. At the paper's own parameters the lists stop before the paper's $s$ on "
                 "{short_count:plural data set|data sets}: {short:list} (mean balls). The coarse grid selects the "
                 "paper's machine on {same:list}{same_detail}.",
    "repro_short": "{name} ({mean:.1f} of {s})",
    "repro_same": " ({paper}; the fine grid's first seed: {fine})",
    "repro_scm": "* SCM: the paper's errors lie within our fine-grid fold-seed range on {inside:list}; the paper's SCM "
                 "errs more than every run of ours, coarse or fine, on {worse:list}.",
    "repro_scm_worse": "{name} (paper {paper}, ours {low:g}–{high:g})",
    "repro_svm": "* SVM: ours makes {low:g}–{high:g} fewer errors than the paper's on {names:list}; the best absolute "
                 "width gives {absolute} errors there (relative widths: {relative}), and the width with the paper's "
                 "number of support vectors errs more than the paper on {near_worse} of {n:plural data set}.",
    "repro_svm_none": "* SVM: ours is never {gap} errors below the paper's.",
    "votes": "* **Votes**: the paper has {paper} examples; dropping incomplete rows of UCI `house-votes-84` gives {m} "
             "({democrats} democrats, {republicans} republicans) and no rule stated in the paper gives {paper}. We use "
             "the {m}, so the Votes row is not comparable (the paper's {errors} errors fit ~{paper} examples).",
    "haberman": "* **Haberman**: {paper} is reproduced (ours: {m}) by removing *every* member of the {vectors} feature "
                "vectors that occur with both labels ({rows} rows).",
    "glass": "Against the paper's Glass errors (SVM {svm}, SCM {scm}, DLM {dlm}), the split closest over the three "
             "machines is **{best}** (summed distance {distance:g}{runner_up}).{used}{svm_only}",
    "glass_next": "; next: {name}, {distance:g}",
    "glass_used_other": " The split we use, {used}, is at {distance:g}.",
    "glass_used_best": " It is the split we use ({positives} positives).",
    "glass_svm_only": " On the SVM errors alone {name} is closer ({errors} against {best_errors}), not on the three "
                      "machines together.",
    "valley": "On {name}'s {type} panel (the paper's type) the lowest total, {low:g}, lies at $p_p$ = {p_p:g} (the "
              "paper's $p_p$: {paper_p_p:g}). That $p_p$ is the best one at {in_valley} of the {n_p_n} values of "
              "$p_n$, and along it $p_n$ moves the total between {valley_low:g} and {valley_high:g}; across $p_p$ the "
              "best totals run from {best_low:g} to {best_high:g}.",
})
