"""The toy paper's figure: test errors per fold, stump against majority."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd

from companion.paths import save_figure


def figure_errors(results: pd.DataFrame):
    """Test errors per fold of the main seed, stump against majority; saved as ``06_errors``."""
    fig, ax = plt.subplots(figsize=(4, 3))
    for method, group in results.groupby("method"):
        ax.plot(group["fold"], group["errors"], marker="o", label=method)
    ax.set(xlabel="fold", ylabel="test errors")
    ax.legend()
    save_figure(fig, "06_errors")
    return fig
