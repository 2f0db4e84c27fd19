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


def panel_grid(n_panels: int, *, panel_size=(2.6, 2.6), max_columns: int = 4, legend_slot: bool = False):
    """A figure of ``n_panels`` panels in rows of at most ``max_columns``; the unused slots hidden.

    A row of seven panels shrinks to half its size on a notebook's page, and its text with it; rows
    of four keep the text legible (``tests/test_figures_legible.py``). With ``legend_slot`` one
    more slot is kept for :func:`legend_in_slot`.

    Parameters
    ----------
    n_panels : int
        Panels to draw.
    panel_size : (float, float), default=(2.6, 2.6)
        Width and height of one panel, in inches.
    max_columns : int, default=4
        Panels per row at most.
    legend_slot : bool, default=False
        Keep a slot after the last panel for the figure's legend.

    Returns
    -------
    (matplotlib.figure.Figure, list of matplotlib.axes.Axes, list of matplotlib.axes.Axes)
        The figure, its ``n_panels`` panels (row by row) and its hidden slots.
    """
    import matplotlib.pyplot as plt

    slots = n_panels + bool(legend_slot)
    n_cols = min(max_columns, slots)
    n_rows = -(-slots // n_cols)
    fig, axes = plt.subplots(n_rows, n_cols, figsize=(panel_size[0] * n_cols, panel_size[1] * n_rows), squeeze=False)
    panels = list(axes.ravel())
    for ax in panels[n_panels:]:
        ax.set_visible(False)
    return fig, panels[:n_panels], panels[n_panels:]


def legend_in_slot(fig, handles, labels, slot, **style):
    """The figure's legend centred in a hidden panel's slot (call after ``tight_layout``).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure.
    handles, labels : list
        What the legend shows (``ax.get_legend_handles_labels()``).
    slot : matplotlib.axes.Axes
        A hidden panel of :func:`panel_grid`.
    **style
        Passed to ``fig.legend`` (``frameon=False`` by default).

    Returns
    -------
    matplotlib.legend.Legend
    """
    box = slot.get_position()
    return fig.legend(handles, labels, loc="center", bbox_to_anchor=(box.x0 + box.width / 2, box.y0 + box.height / 2),
                      **{"frameon": False, **style})
