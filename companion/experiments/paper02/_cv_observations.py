"""Notebook 02's cross-validation observations: PRISM with and without a default class, ZeroR and
Weka's J48, paired fold by fold over the repeated splits (Nadeau–Bengio's corrected interval), and
the same comparisons under the seed and rule-order variants.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from companion.claims._statistics import corrected_t
from companion.prose import render
from companion.experiments.paper02._templates import TEMPLATES
from companion.experiments.paper02._protocol import WEKA_SPLIT
from companion.experiments.paper02._tables import fold_accuracy, split_rows

#: Instances of the contact lenses (the training size of a fold is this minus its test size).
_N_LENSES = 24


def paired_fold_stats(data, a: str, b: str) -> dict | None:
    """The numbers of :func:`paired_folds`: ``mean``, ``low``, ``high`` (Nadeau–Bengio corrected
    95 % interval of the per-fold differences ``a − b``), ``folds``, ``repeats``, ``test``,
    ``train``, the per-repeat head to head ``wins``, ``ties``, ``losses`` and mean accuracies
    ``mean_a``, ``mean_b``; ``None`` when a learner has no rows in ``data``.

    Parameters
    ----------
    data : dict
        One variant's :func:`claims_data`.
    a, b : str
        The learners.

    Returns
    -------
    dict or None
    """
    results, peers = data["results"], data.get("peers")
    sources = {}
    for name in (a, b):
        if name in set(results["method"]):
            sources[name] = results
        elif peers is not None and name in set(peers["method"]):
            sources[name] = peers
        else:
            return None
    first = fold_accuracy(sources[a], a, _N_LENSES)
    second = fold_accuracy(sources[b], b, _N_LENSES)
    shared = first.index.intersection(second.index)
    if len(shared) < 2:
        return None
    first, second = first.loc[shared], second.loc[shared]
    d = (first["accuracy %"] - second["accuracy %"]).to_numpy()
    # Nadeau & Bengio's corrected resampled t: the folds of the repeated cross-validation overlap
    ratio = float(first["n_test"].mean()) / float(first["n_train"].mean())
    mean, low, high, *_ = corrected_t(d, [0] * d.size, [ratio] * d.size)
    split_a, split_b = _split_accuracy(sources[a], a, shared), _split_accuracy(sources[b], b, shared)
    per_repeat = (split_a - split_b).to_numpy()
    wins, ties = int((per_repeat > 0).sum()), int((per_repeat == 0).sum())
    return {"mean": float(mean), "low": float(low), "high": float(high), "folds": len(d), "repeats": len(per_repeat),
            "test": float(first["n_test"].mean()), "train": float(first["n_train"].mean()), "wins": wins,
            "ties": ties, "losses": len(per_repeat) - wins - ties, "mean_a": float(split_a.mean()),
            "mean_b": float(split_b.mean())}


def paired_folds(data, a: str, b: str, floor: bool = False):
    """``(ok, detail)`` of learner ``a`` against ``b`` over the seeded splits of one variant.

    The paired per-fold accuracy differences ``a − b`` with Nadeau & Bengio's corrected
    resampled-t interval (the repeated cross-validations reuse the same 24 instances: they are
    not independent replicates, and a test over the repeats as if they were is too narrow), and
    the per-repeat head-to-head count of the raw differences. ``a`` or ``b`` is read from the
    Weka peers (``J48``) when it is not one of our learners; ``None`` (not evaluated) when the
    variant has no peer runs on its splits. ``ok``: the mean difference is above 0 (an
    observation: no verdict is drawn from it).

    Parameters
    ----------
    data : dict
        One variant's :func:`claims_data`.
    a, b : str
        The learners (``"PRISM + default class"``, ``"PRISM"``, ``"ZeroR"``, ``"J48"``).
    floor : bool, default=False
        No fold difference can be negative by construction (``a`` is ``b`` plus a default
        class): the sentence says that the t-interval ignores this floor at 0.

    Returns
    -------
    (bool, str) or None
    """
    stats = paired_fold_stats(data, a, b)
    if stats is None:
        return None
    text = render(TEMPLATES["paired_folds"], **stats,
                  covers="includes" if stats["low"] <= 0 <= stats["high"] else "excludes").data
    return bool(stats["mean"] > 0), text + (TEMPLATES["floor"] if floor else "")


#: The cross-validation observations: ``{claim id: (learner a, learner b)}`` of :func:`paired_folds`.
PAIRED_ROWS = {"default-class": ("PRISM + default class", "PRISM"), "tree-vs-prism": ("J48", "PRISM + default class"),
               "default-vs-zeror": ("PRISM + default class", "ZeroR")}


def variant_table(data: dict) -> pd.DataFrame:
    """The cross-validation observations (:data:`PAIRED_ROWS`) under every variant that changes
    their data: one row per (claim, variant), the mean fold difference, its corrected interval
    and the per-repeat head to head.

    Parameters
    ----------
    data : dict
        ``{variant name: claims_data(...)}``, the main one under ``"main"``.

    Returns
    -------
    pandas.DataFrame
        Index (``claim``, ``variant``); columns ``mean``, ``low``, ``high``, ``wins``, ``ties``,
        ``losses``, ``repeats``.
    """
    rows = []
    for claim, (a, b) in PAIRED_ROWS.items():
        for name, variant in data.items():
            if not (name == "main" or name.startswith(("seed=", "order="))):
                continue
            stats = paired_fold_stats(variant, a, b)
            if stats is not None:
                rows.append({"claim": claim, "variant": name, **{k: stats[k] for k in (
                    "mean", "low", "high", "wins", "ties", "losses", "repeats")}})
    return pd.DataFrame(rows).set_index(["claim", "variant"])


def variant_sentences(table: pd.DataFrame) -> dict:
    """``{claim id: sentence}``: each row of :func:`variant_table` under its variants, whether
    the sign of its mean difference flips under any of them, and under which of the main run and
    its variants the corrected interval excludes 0 (supports a direction) or includes it.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`variant_table`.

    Returns
    -------
    dict
    """
    out = {}
    for claim, rows in table.groupby(level="claim", sort=False):
        rows = rows.droplevel("claim")
        signs = np.sign(rows["mean"].round(10))
        main = signs.get("main", signs.iloc[0])
        flipped = [name for name, sign in signs.items() if sign != main and sign != 0 and main != 0]
        zero = [name for name, sign in signs.items() if sign == 0 and name != "main"]
        lines = [render(TEMPLATES["variant_line"], name=name, mean=row["mean"], low=row["low"], high=row["high"],
                        wtl=f"{int(row['wins'])}/{int(row['ties'])}/{int(row['losses'])}").data
                 for name, row in rows.iterrows() if name != "main"]
        flip = (render("flips under {names:list}", names=[f"`{n}`" for n in flipped]).data if flipped
                else f"is the main run's under all {len(lines)}" if not zero
                else "is the main run's wherever it is not 0")
        if zero:
            flip += render(" (it is 0 under {names:list})", names=[f"`{n}`" for n in zero]).data
        excludes = (rows["low"] > 0) | (rows["high"] < 0)
        names = ["the main run" if name == "main" else f"`{name}`" for name in rows.index]
        support = (render(TEMPLATES["support_all"], word="excludes" if excludes.all() else "includes", n=len(rows)).data
                   if excludes.all() or not excludes.any() else
                   render(TEMPLATES["support_split"], excludes=[n for n, e in zip(names, excludes) if e],
                          includes=[n for n, e in zip(names, excludes) if not e]).data)
        out[claim] = render(TEMPLATES["variants"], lines=lines or ["none run"], flip=flip, support=support).data
    return out


def _split_accuracy(frame, method, folds) -> pd.Series:
    """Accuracy (%) of ``method`` over each seeded split, on the ``folds`` (a (seed, fold) index) given."""
    rows = frame[frame["method"] == method].set_index(["seed", "fold"]).loc[folds]
    sums = rows.groupby(level="seed", sort=False)[["correct", "n_test"]].sum()
    return 100 * sums["correct"] / sums["n_test"]


def default_never_worse(data):
    """``(ok, detail)``: on every fold of every split, PRISM with a default class is right on at least
    as many instances as PRISM (an unclassified instance counted wrong); beside it, PRISM's
    accuracy on the instances it classifies and the default-class model's on all instances, on Weka's folds
    (two different sets of instances).

    Parameters
    ----------
    data : dict
        One variant's :func:`claims_data`.

    Returns
    -------
    (bool, str)
    """
    results = data["results"].set_index(["seed", "fold"])
    prism = results[results["method"] == "PRISM"]
    default = results[results["method"] == "PRISM + default class"].loc[prism.index]
    never_worse = int((default["correct"].to_numpy() >= prism["correct"].to_numpy()).sum())
    weka = split_rows(data["results"], WEKA_SPLIT)
    counts = weka.groupby("method", sort=False)[["correct", "incorrect", "unclassified"]].sum()
    p, d = counts.loc["PRISM"], counts.loc["PRISM + default class"]
    classified = int(p["correct"] + p["incorrect"])
    total = int(d["correct"] + d["incorrect"] + d["unclassified"])
    share_p, share_d = p["correct"] / classified, d["correct"] / total
    return never_worse == len(prism), render(
        TEMPLATES["default_never_worse"], k=never_worse, n=len(prism), splits=prism.index.get_level_values(0).nunique(),
        correct=int(p["correct"]), classified=classified, share=float(share_p),
        d_correct=int(d["correct"]), total=total, d_share=float(share_d)).data
