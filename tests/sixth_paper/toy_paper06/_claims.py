"""The toy paper's claims: the registry's measures and the claims report over the fold seeds."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from companion import claims as C
from toy_paper06._protocol import Config

REGISTRY = Path(__file__).resolve().parents[1] / "paper06.toml"


def majority_error_identity(rng: np.random.Generator, n_samples: int = 200) -> tuple[bool, str]:
    """Eq. (1), checked on random label vectors: the majority class's error equals min(p, 1 − p)
    (in counts, exactly: its errors are min(k, n − k), k the ones)."""
    wrong = 0
    for _ in range(n_samples):
        y = rng.integers(0, 2, rng.integers(1, 50))
        majority = int(2 * y.sum() > len(y))
        wrong += int((y != majority).sum() != min(y.sum(), len(y) - y.sum()))
    return wrong == 0, f"on {n_samples} random label vectors, {wrong} where the errors differ from min(k, n − k)"


def measures(checked: tuple[bool, str] = (True, "")) -> dict:
    """The registry's measures: each reads one seed's rows; the mathematical statement's check,
    run once, is a constant."""

    def stump_minus_majority(results):
        wide = results.pivot(index="fold", columns="method", values="errors")
        n_test = results.groupby("fold")["n_test"].first()
        return (100 * (wide["stump"] - wide["majority"]) / n_test).to_numpy()

    def threshold(results):
        return results.loc[results["method"] == "stump", "threshold"].to_numpy()

    return {"stump_minus_majority": stump_minus_majority, "threshold": threshold,
            "majority_error_identity": checked}


def claims_report(results: pd.DataFrame, config: Config) -> C.ClaimsReport:
    """The registry's claims on the main seed, each re-decided under the other fold seeds."""
    variants = {"main": results[results["seed"] == config.seed]}
    variants.update({f"seed={s}": results[results["seed"] == s] for s in config.other_seeds})
    checked = majority_error_identity(np.random.default_rng(config.seed))
    return C.evaluate(C.family(C.load_registry(REGISTRY), measures(checked)), variants)
