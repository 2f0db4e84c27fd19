"""How the notebooks' sections hand over a figure: drawn, closed, shown where it is saved."""

from __future__ import annotations


def closed_figure(figure):
    """``figure``, closed in pyplot, so that a notebook shows it where it saves it, not where it is drawn.

    With matplotlib's inline backend every open figure is shown at the end of the cell that drew
    it; a section draws its figures in the cell that computes it, and the notebook shows each one
    later, beside the cell that saves it.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        The figure.

    Returns
    -------
    matplotlib.figure.Figure
        The same figure.
    """
    import matplotlib.pyplot as plt

    plt.close(figure)
    return figure
