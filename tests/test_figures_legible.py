"""Every published figure stays legible where the site shows it (issue 56, Deliver 5).

The site shows a notebook's figure at most as wide as its page's content column (about 770 px at
a 1280 px window: the seven-panel figures were shown at 48 % of their 1,605 px), so a wide figure
shrinks, and its smallest text with it. :func:`companion.paths.save_figure` writes the smallest
text's size in points into the PNG (``Smallest text``); this test computes its height in screen
pixels at the content width and holds it at :data:`LEGIBLE_PX` or more. A click enlarges a figure
on the site, but the page as first shown must read.
"""

from __future__ import annotations

import re

import pytest
from PIL import Image

from companion.paths import ROOT

#: The widest a figure is shown on a notebook page at a 1280 px window (the content column).
CONTENT_PX = 770
#: The smallest text height, in screen pixels, that a figure may show at that width.
LEGIBLE_PX = 7.0

FIGURES = sorted((ROOT / "figures").glob("0[0-9]_*.png"))


def shown_text_px(path) -> float:
    """The smallest text's size in screen pixels when the figure is shown at :data:`CONTENT_PX`."""
    image = Image.open(path)
    match = re.fullmatch(r"([0-9.]+) pt at ([0-9]+) dpi", image.info.get("Smallest text", ""))
    assert match, f"{path.name}: no 'Smallest text' in the PNG (written by companion.paths.save_figure)"
    points, dpi = float(match[1]), int(match[2])
    return points * dpi / 72 * min(1.0, CONTENT_PX / image.width)


@pytest.mark.parametrize("path", FIGURES, ids=lambda p: p.stem)
def test_a_published_figure_is_legible_at_the_page_width(path):
    px = shown_text_px(path)
    assert px >= LEGIBLE_PX, (f"{path.name}: its smallest text is {px:.1f} px high at the page's width "
                              f"({CONTENT_PX} px; legible from {LEGIBLE_PX} px): larger fonts, fewer panels "
                              "per row or a narrower figure")


def test_the_check_fails_on_a_wide_figure_with_small_text(tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from companion.paths import save_figure

    monkeypatch.setenv("COMPANION_FIGURES", str(tmp_path))
    fig, axes = plt.subplots(1, 7, figsize=(14.7, 3))
    for ax in axes:
        ax.plot([1, 2, 3], [3, 1, 2], label="stump")
    axes[0].legend(fontsize=6)
    wide = save_figure(fig, "99_wide")
    plt.close(fig)
    assert shown_text_px(wide) < LEGIBLE_PX  # the seven panels of 05 in one row, a 6 pt legend
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot([1, 2, 3], [3, 1, 2], label="stump")
    ax.legend()
    assert shown_text_px(save_figure(fig, "99_narrow")) >= LEGIBLE_PX
    plt.close(fig)
