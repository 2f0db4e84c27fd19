"""The toy paper's generated prose: its one template outside the claims."""

from __future__ import annotations

from companion.prose import render
from toy_paper06._protocol import Config

TEMPLATES = {"size": "The table has {rows:plural row} and {folds:plural fold}."}


def size_sentence(config: Config):
    """The one generated sentence outside the claims."""
    return render(TEMPLATES["size"], rows=config.n_rows, folds=config.n_folds)
