"""Generated prose: every sentence of notebook 04 that states one of our numbers, directions or
verdicts is one of these templates rendered from the results (:func:`companion.prose.render`).
"""

from __future__ import annotations

import pandas as pd

from companion.widc import DecisionCommittee
from companion.experiments.paper04._peers import peers_command
from companion.experiments.paper04._claims import claims_data, variant_ranks


# --------------------------------------------------------------------------------------------
# Generated prose: every sentence of notebook 04 that states one of our numbers, directions or
# verdicts is one of these templates rendered from the results (companion.prose.render)
# --------------------------------------------------------------------------------------------

#: The notebook's prose templates (:func:`companion.prose.render`), filled by :func:`prose`.
TEMPLATES = {
    "strength": (
        "The one-standard-error rule picks $c_{{KM}} = {recommended:g}$ on the synthetic problems"
        "{recommended:sign (negative)|, which removes the penalty term|, which keeps a penalty term}; the benchmark "
        "runs WIDC(o) with that constant. The benchmark curve below is shown, not used to choose."
    ),
    "cells": (
        "Over the {n:plural data set}, a grown committee of $t$ rules realises a median {per_rule:.1f} cells "
        "per rule (a tree with $t$ leaves realises exactly $t$), between {low:pct.0} and {high:pct.0} of "
        "$\\min(2^t, |LS|)$ (median {median:pct.0}); the largest share of $|LS|$ is {top_share:pct.0} "
        "({top_name}). Pruned by WIDC(o), a committee realises a median {pruned:.1f} cells."
    ),
    "committee_cells": (
        "{rules:plural rule} realise {cells:plural non-empty cell} of the {possible} possible on "
        "{examples:plural example}; the training errors ({errors}) sit in {error_cells:plural cell}."
    ),
    "ranks": (
        "{learner} alone has the least {quantity} of the three variants on {strict:plural data set}, ties for "
        "it on {joint} and does not have it on {worse}."
    ),
    "ranks_seeds": "Under the other fold seeds its strict bests range from {low} to {high} of {n}.",
    "seeds": (
        "Every claim is re-decided on the folds of {seeds:plural other seed} ({names:list}); "
        "{flipping:plural claim} change verdict under at least one of them ({ids:list}) and are marked not robust."
    ),
    "seeds_none": (
        "Every claim is re-decided on the folds of {seeds:plural other seed} ({names:list}); no verdict changes "
        "under any of them."
    ),
    "peers_missing": (
        "{peers:list} did not run on the folds of {seeds:list}: the claims that need them are **not "
        "evaluated** there (not run for this seed). To run them: `{command}`."
    ),
    "peers_present": "The peers ran on the folds of every seed used here ({seeds:list}).",
    "noise": (
        "The vendored {data} has {examples} examples of {attributes} Boolean attributes but {distinct} distinct "
        "inputs (of the {possible} possible), {conflicting:plural input} seen with two labels: {noise}. On the folds, {copies:pct.0} of a test "
        "fold's examples have an identical input in the training fold. WIDC(p), WIDC(o) and WIDC() make "
        "{e_p:.1f} %, {e_o:.1f} % and {e_n:.1f} % error on it, CN2 {e_c:.1f} %: in claim 1 {data} is {claim1}, "
        "and in claim 4 {claim4}."
    ),
}


def prose(name: str, **values):
    """Render template ``name`` of :data:`TEMPLATES` with ``values`` (:func:`companion.prose.render`).

    Parameters
    ----------
    name : str
        A key of :data:`TEMPLATES`.
    **values
        The template's fields.

    Returns
    -------
    companion.prose.Markdown
    """
    from companion.prose import render

    if name not in TEMPLATES:
        raise KeyError(f"prose: no template {name!r}; known {sorted(TEMPLATES)}")
    return render(TEMPLATES[name], **values)


def strength_prose(recommended: float):
    """:data:`TEMPLATES` ``strength``: the constant the 1-SE rule picked.

    Parameters
    ----------
    recommended : float
        :func:`choose_optimistic_strength`'s pick.

    Returns
    -------
    companion.prose.Markdown
    """
    return prose("strength", recommended=float(recommended))


def cells_prose(cells: pd.DataFrame):
    """:data:`TEMPLATES` ``cells``: what :func:`cells_table` shows, in words.

    Parameters
    ----------
    cells : pandas.DataFrame
        :func:`cells_table`.

    Returns
    -------
    companion.prose.Markdown
    """
    grown = cells[cells["grown rules t"] > 0]
    of_bound = grown["cells (grown)"] / grown["min(2^t, |LS|)"]
    share = cells["cells / |LS|"]
    return prose("cells", n=len(cells), per_rule=float((grown["cells (grown)"] / grown["grown rules t"]).median()),
                 low=float(of_bound.min()), high=float(of_bound.max()), median=float(of_bound.median()),
                 top_share=float(share.max()), top_name=str(share.idxmax()),
                 pruned=float(cells["cells (WIDC(o))"].median()))


def committee_cells_prose(model: DecisionCommittee, cells: pd.DataFrame):
    """:data:`TEMPLATES` ``committee_cells``: a committee's cells (:func:`committee_cells`) in words.

    Parameters
    ----------
    model : DecisionCommittee
        The fitted committee.
    cells : pandas.DataFrame
        :func:`committee_cells` of it.

    Returns
    -------
    companion.prose.Markdown
    """
    return prose("committee_cells", rules=int(model.n_rules_), cells=len(cells), possible=2 ** int(model.n_rules_),
                 examples=int(cells["examples"].sum()), errors=int(cells["errors"].sum()),
                 error_cells=int((cells["errors"] > 0).sum()))


def noise_prose(facts: dict, everything: pd.DataFrame, name: str = "xd6"):
    """:data:`TEMPLATES` ``noise``: what the vendored data set is, and what it does to claims 1 and 4.

    Parameters
    ----------
    facts : dict
        :func:`companion.experiments.paper04._studies.label_noise_facts`.
    everything : pandas.DataFrame
        The benchmark's tidy frame with the peers (:func:`benchmark_section`'s ``everything``).
    name : str, default="xd6"

    Returns
    -------
    companion.prose.Markdown
    """
    data = claims_data(everything[everything["dataset"] == name])
    error = data["error"].loc[name]
    strict, joint, _ = variant_ranks(data, "WIDC(p)", "error")
    claim1 = ("a strict best of WIDC(p)" if strict else "a tie for the least error, which counts against it"
              if joint else "a data set where WIDC(p) does not have the least error")
    claim4 = ("it is not a counterexample" if error["WIDC(p)"] < error["CN2"] else
              "it is a counterexample by equal errors" if error["WIDC(p)"] == error["CN2"] else
              "it is a counterexample (CN2 makes fewer errors)")
    noise = ("the copy carries no label noise" if facts["conflicting"] == 0 else
             "the copy carries label noise")
    return prose("noise", data=name, noise=noise, claim1=claim1, claim4=claim4,
                 e_p=float(error["WIDC(p)"]), e_o=float(error["WIDC(o)"]), e_n=float(error["WIDC()"]),
                 e_c=float(error["CN2"]), possible=2 ** facts["attributes"], **facts)


def ranks_prose(variants: dict):
    """:data:`TEMPLATES` ``ranks`` for claims ``1`` and ``2b``: strict bests, ties and the rest.

    Under the main protocol and (in brackets) the range over the seed variants.

    Parameters
    ----------
    variants : dict
        :func:`claims_variants`.

    Returns
    -------
    companion.prose.Markdown
    """
    from companion.prose import Markdown

    lines = []
    for learner, quantity, word in (("WIDC(p)", "error", "error"), ("WIDC(o)", "literals", "literals")):
        ranks = {name: variant_ranks(claims_data(frame), learner, quantity) for name, frame in variants.items()
                 if name == "main" or name.startswith("seed=")}
        strict, joint, worse = ranks["main"]
        others = [r[0] for name, r in ranks.items() if name != "main" and r is not None]
        text = prose("ranks", learner=learner, quantity=word, strict=strict, joint=joint, worse=worse).data
        if others:
            text = " ".join([text, prose("ranks_seeds", low=min(others), high=max(others), n=sum(ranks["main"])).data])
        lines.append("* " + text)
    return Markdown("\n".join(lines))


def seeds_prose(report, seeds):
    """:data:`TEMPLATES` ``seeds``: which claims change verdict under another fold seed.

    Parameters
    ----------
    report : companion.claims.ClaimsReport
        :func:`claims_report`.
    seeds : sequence of int
        The other fold seeds.

    Returns
    -------
    companion.prose.Markdown
    """
    long = report.sensitivity
    seed_rows = long[long["variant"].str.startswith("seed=") & (long["role"] == "varies")
                     & (long["verdict"] != "n/a") & ~long["same_as_main"]]
    main = report.table.set_index("id")["verdict"]
    ids = [i for i in report.table["id"] if i in set(seed_rows["id"]) and main[i] != "n/a"]
    if not ids:
        return prose("seeds_none", seeds=len(seeds), names=[f"seed={s}" for s in seeds])
    return prose("seeds", seeds=len(seeds), names=[f"seed={s}" for s in seeds], flipping=len(ids), ids=ids)


def peers_prose(frames: dict, names, *, max_folds=None):
    """:data:`TEMPLATES` ``peers_missing`` (or ``peers_present``): the fold seeds whose peers did not run.

    Parameters
    ----------
    frames : dict
        ``{fold seed: frame}`` of every seed used (main and variants).
    names : sequence of str
        The data sets.
    max_folds : int, optional
        The folds run.

    Returns
    -------
    companion.prose.Markdown
    """
    from companion.prose import Markdown

    wanted = ("J48", "JRip", "CN2", "CN2-unordered")
    absent = {seed: [p for p in wanted if p not in set(frame["method"])] for seed, frame in frames.items()}
    missing = [seed for seed, peers in absent.items() if peers]
    if not missing:
        return prose("peers_present", seeds=[f"seed {s}" for s in frames])
    lines = [prose("peers_missing", seeds=[f"seed {seed}"], peers=absent[seed],
                   command=peers_command(seed, list(names), max_folds)).data for seed in missing]
    return Markdown("\n".join(f"* {line}" for line in lines))
