"""Each claim's verdict over many fold seeds, from one report whose variants are the seeds' runs.

A notebook whose other fold seeds' runs are committed (:mod:`companion.experiments._seed_runs`)
decides its claims once more with each seed's run as a variant named ``seed=<s>``;
:func:`seed_stability` reads those variants' verdicts and counts them per claim, beside the main
verdict (of the main fold seed), naming the seeds where the verdict differs from it.
"""

from __future__ import annotations

import re

import pandas as pd
from sklearn.utils import Bunch

#: The verdict words counted, in the order the table shows them (a count of zero everywhere is left out).
VERDICT_ORDER = ("holds", "fails", "undecided", "identical", "agrees", "disagrees", "observed")

#: The engine's word for a claim it could not measure on a variant's data (a seed where a section did not run).
NOT_EVALUATED = "n/a"

#: Seeds named per claim in the table; more are counted, not named.
NAMED_SEEDS = 10


def seed_stability(report, main_seed: int, *, missing=(), command: str = "python -m companion.sweep --runs",
                   seed_name: str = "fold seed", provenance: str = "") -> Bunch:
    """Count each claim's verdicts over the main fold seed and every variant ``seed=<s>`` of the report.

    Parameters
    ----------
    report : ClaimsReport
        Claims decided with one variant per other fold seed (``report.sensitivity``: ``variant``,
        ``id``, ``role``, ``verdict``); the main verdicts are ``report.table``'s.
    main_seed : int
        The main fold seed.
    missing : sequence of int, default=()
        Seeds asked for that have no committed run for these settings (said in ``text``).
    command : str, default="python -m companion.sweep --runs"
        The command that makes the runs (named in ``text`` when none is there).
    seed_name : str, default="fold seed"
        What a seed draws, as ``text`` names it (notebook 03's seeds draw whole training and test
        sets: ``"protocol seed"``).
    provenance : str, default=""
        A sentence on how the other seeds' runs were made (:meth:`SeedRuns.provenance
        <companion.experiments._seed_runs.SeedRuns.provenance>`), appended to ``text``.

    Returns
    -------
    Bunch
        ``table``: one row per claim whose values some seed's variant changes (role ``varies``; a
        claim that every seed leaves as it is does not depend on the fold seed): ``id``,
        ``central``, ``main verdict``, ``seeds`` (judged, the main one included; a seed whose data
        lack what the claim reads, verdict :data:`NOT_EVALUATED`, is not counted), ``same values``
        (the seeds among them that give the claim exactly the main run's values, as the claims
        table's "(m of them with the same values)"), a count per verdict word seen, ``as main``
        and ``other verdict at seeds`` (the first :data:`NAMED_SEEDS`, then "…"); ``verdicts``:
        claim x seed (the main seed first) of those claims; ``seeds``: the seeds judged;
        ``steady``: how many claims keep their main verdict at every seed; ``central``: the
        central claims' rows; ``missing``: the seeds asked for and not judged; ``text``: one
        sentence on the counts (generated from them).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> report = SimpleNamespace(
    ...     table=pd.DataFrame({"id": ["a", "b"], "central": [True, False], "verdict": ["holds", "fails"]}),
    ...     sensitivity=pd.DataFrame({"variant": ["seed=1", "seed=1", "seed=2", "seed=2"],
    ...                               "id": ["a", "b", "a", "b"], "role": ["varies"] * 4,
    ...                               "verdict": ["holds", "fails", "undecided", "fails"]}))
    >>> stability = seed_stability(report, main_seed=0)
    >>> stability.table[["id", "seeds", "holds", "undecided", "as main", "other verdict at seeds"]].to_dict("records")[0]
    {'id': 'a', 'seeds': 3, 'holds': 2, 'undecided': 1, 'as main': 2, 'other verdict at seeds': '2'}
    >>> stability.steady
    1
    """
    table = report.table.set_index("id")
    main = table["verdict"]
    sensitivity = report.sensitivity
    # every fold seed's variant, in the order of the seeds
    seed_variants = {name: int(name.split("=", 1)[1]) for name in dict.fromkeys(sensitivity["variant"])
                     if re.fullmatch(r"seed=\d+", name)}
    seed_variants = dict(sorted(seed_variants.items(), key=lambda item: item[1]))
    entered = sensitivity[sensitivity["variant"].isin(seed_variants) & (sensitivity["role"] != "not listed")]
    verdicts = entered.pivot(index="id", columns="variant", values="verdict")
    ids = [claim for claim in report.table["id"] if claim in verdicts.index]
    names = [name for name in seed_variants if name in verdicts.columns]
    verdicts = verdicts.reindex(index=ids, columns=names)
    roles = entered.pivot(index="id", columns="variant", values="role").reindex(index=ids, columns=names)
    verdicts.insert(0, f"seed={main_seed}", main.reindex(ids))
    seeds = [int(main_seed), *(int(seed_variants[name]) for name in names)]
    verdicts.columns = seeds
    roles.columns = seeds[1:]
    rows, kept = [], []
    for claim, row in verdicts.iterrows():
        # a seed whose data lack what the claim reads (n/a) gives no verdict; a claim whose values no
        # seed changes (every seed "unchanged") does not depend on the fold seed, and is left out
        measured = row.iloc[1:].notna() & (row.iloc[1:] != NOT_EVALUATED)
        if row.iloc[0] == NOT_EVALUATED or not (measured & (roles.loc[claim] == "varies")).any():
            continue
        kept.append(claim)
        judged = pd.concat([row.iloc[:1], row.iloc[1:][measured]])
        counts = judged.value_counts()
        other = [seed for seed, verdict in judged.items() if verdict != row.iloc[0]]
        named = " ".join(map(str, other[:NAMED_SEEDS])) + (" …" if len(other) > NAMED_SEEDS else "")
        words = [*VERDICT_ORDER, *sorted(set(counts.index) - set(VERDICT_ORDER))]
        rows.append({"id": claim, "central": bool(table.loc[claim, "central"]), "main verdict": row.iloc[0],
                     "seeds": len(judged), "same values": int((measured & (roles.loc[claim] == "unchanged")).sum()),
                     **{word: int(counts.get(word, 0)) for word in words},
                     "as main": len(judged) - len(other), "other verdict at seeds": named})
    fixed = ["id", "central", "main verdict", "seeds", "same values", "as main", "other verdict at seeds"]
    out = pd.DataFrame(rows, columns=None if rows else fixed)
    verdicts = verdicts.loc[kept]
    counted = [c for c in out.columns if c not in fixed]
    out = out.drop(columns=[c for c in counted if not out[c].fillna(0).any()])
    out = out.fillna({c: 0 for c in counted if c in out.columns})
    steady = int((out["as main"] == out["seeds"]).sum()) if len(out) else 0
    stability = Bunch(table=out, verdicts=verdicts, seeds=seeds, steady=steady, central=out[out["central"]],
                      missing=list(missing))
    stability.text = " ".join(filter(None, [_sentence(stability, len(stability.missing), command, seed_name),
                                            provenance]))
    return stability


def _sentence(stability: Bunch, missing: int, command: str, seed_name: str) -> str:
    """One sentence on :func:`seed_stability`'s counts."""
    table, seeds = stability.table, stability.seeds
    if len(seeds) < 2 or table.empty:
        return (f"No {seed_name} other than the main one has a committed run for these settings ({missing} missing): "
                f"{command} makes them.")
    central = stability.central
    others = len(seeds) - 1
    text = (f"Over {len(seeds)} {seed_name}s (the main one, {seeds[0]}, and {others} other{'s' if others != 1 else ''}), "
            f"{stability.steady} of the {len(table)} claims a {seed_name} enters give their main verdict at every seed")
    if len(central):
        text += "; the central claims: " + "; ".join(
            f"{row['id']} {row['main verdict']} at {row['as main']} of {row['seeds']}" for _, row in central.iterrows())
    text += "."
    if missing:
        text += (f" {missing} more seed{'s' if missing != 1 else ''} (of the {len(seeds) + missing} asked for) "
                 f"{'have' if missing != 1 else 'has'} no committed run for these settings and "
                 f"{'are' if missing != 1 else 'is'} not counted ({command} makes them).")
    return text
