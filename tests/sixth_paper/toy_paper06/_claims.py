"""The toy paper's claims: the registry's measures and the claims report over the fold seeds."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from companion import claims as C
from toy_paper06._protocol import Config

REGISTRY = Path(__file__).resolve().parents[1] / "paper06.toml"


def measures() -> dict:
    """The registry's measures: each reads one seed's rows."""

    def stump_minus_majority(results):
        wide = results.pivot(index="fold", columns="method", values="errors")
        n_test = results.groupby("fold")["n_test"].first()
        return (100 * (wide["stump"] - wide["majority"]) / n_test).to_numpy()

    def threshold(results):
        return results.loc[results["method"] == "stump", "threshold"].to_numpy()

    return {"stump_minus_majority": stump_minus_majority, "threshold": threshold}


def claims_report(results: pd.DataFrame, config: Config) -> C.ClaimsReport:
    """The registry's claims on the main seed, each re-decided under the other fold seeds."""
    variants = {"main": results[results["seed"] == config.seed]}
    variants.update({f"seed={s}": results[results["seed"] == s] for s in config.other_seeds})
    return C.evaluate(C.family(C.load_registry(REGISTRY), measures()), variants)
