"""Paths are absolute and figures are written where the notebooks expect them."""

from pathlib import Path

import matplotlib.pyplot as plt
import pytest

from companion import paths


def test_paths_are_absolute_and_exist():
    for folder in (paths.ROOT, paths.data_dir(), paths.figures_dir(), paths.NOTEBOOKS):
        assert folder.is_absolute() and folder.is_dir()


def test_save_figure_writes_png_and_is_byte_stable(monkeypatch, tmp_path):
    monkeypatch.setenv("COMPANION_FIGURES", str(tmp_path))
    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0])
    first = paths.save_figure(fig, "00_test").read_bytes()
    second = paths.save_figure(fig, "00_test.png").read_bytes()
    plt.close(fig)
    assert first[:8] == b"\x89PNG\r\n\x1a\n"
    assert first == second


@pytest.mark.parametrize("bad, message", [
    ("", r"save_figure: name must be a plain file name without folders, got ''"),
    ("sub/name", r"save_figure: name must be a plain file name without folders, got 'sub/name'"),
    (3, r"The 'name' parameter of save_figure must be an instance of 'str'\. Got 3 instead"),
])
def test_save_figure_rejects_bad_names(bad, message):
    fig = plt.figure()
    with pytest.raises(ValueError, match=message):
        paths.save_figure(fig, bad)
    plt.close(fig)


def test_session_redirects_figures_out_of_the_checkout():
    """the root conftest.py points COMPANION_FIGURES away from the committed figures/ before any
    notebook kernel (nbval) starts: kernels inherit it, so `make test` cannot rewrite figures/."""
    import os
    import subprocess
    import sys

    redirected = Path(os.environ["COMPANION_FIGURES"]).resolve()
    committed = paths.ROOT / "figures"
    assert redirected != committed and committed not in redirected.parents
    assert paths.figures_dir() == redirected  # this process follows it too
    # ... and so does a fresh interpreter started from this one, as a Jupyter kernel is.
    seen = subprocess.run(
        [sys.executable, "-c", "from companion.paths import figures_dir; print(figures_dir())"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    assert Path(seen) == redirected


def test_save_table_fixed_precision_and_index(monkeypatch, tmp_path):
    pd = pytest.importorskip("pandas")
    monkeypatch.setenv("COMPANION_FIGURES", str(tmp_path))
    noisy = pd.DataFrame({"n": [1, 2], "x": [0.1 + 0.2, 2 / 3]}, index=pd.Index(["a", "b"], name="set"))
    clean = noisy.assign(x=[0.3, 0.6666666666666666 + 1e-16])
    path = paths.results_path("00_t.csv")
    assert paths.save_table(noisy, "00_t.csv") is None  # a notebook cell ending with it shows nothing
    first = path.read_bytes()
    paths.save_table(clean, "00_t")
    assert path.read_bytes() == first  # last-bit noise is invisible
    assert first == b"set,n,x\na,1,0.3\nb,2,0.6666666667\n"
    # Same index behaviour as DataFrame.to_csv: kept by default, dropped with index=False.
    paths.save_table(noisy, "00_t.csv", index=False)
    assert path.read_bytes() == b"n,x\n1,0.3\n2,0.6666666667\n"
    paths.save_table(noisy["x"], "00_s.csv")
    assert paths.results_path("00_s.csv").read_text() == "set,x\na,0.3\nb,0.6666666667\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["00_s.csv", "00_t.csv"]
    with pytest.raises(ValueError, match="plain file name"):
        paths.save_table(noisy, "sub/00_t.csv")


@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_figures_and_tables_get_the_umask_s_mode(monkeypatch, tmp_path, mask, mode):
    import os

    import pandas as pd

    monkeypatch.setenv("COMPANION_FIGURES", str(tmp_path))
    previous = os.umask(mask)
    try:
        fig, ax = plt.subplots()
        figure = paths.save_figure(fig, "00_mode")
        plt.close(fig)
        paths.save_table(pd.DataFrame({"a": [1]}), "00_mode.csv")
    finally:
        os.umask(previous)
    assert figure.stat().st_mode & 0o777 == mode
    assert (tmp_path / "00_mode.csv").stat().st_mode & 0o777 == mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["00_mode.csv", "00_mode.png"]


@pytest.mark.parametrize("stop", [KeyboardInterrupt, SystemExit, OSError])
def test_an_interrupted_save_leaves_no_partial_or_empty_file(monkeypatch, tmp_path, stop):
    """Ctrl-C (or SIGTERM, which the runner turns into SystemExit) while a figure or a table is
    written: no empty or half-written file stays behind, and an older file is kept whole."""
    import pandas as pd

    monkeypatch.setenv("COMPANION_FIGURES", str(tmp_path))
    fig, ax = plt.subplots()

    def interrupted(self, target, *args, **kwargs):
        Path(target).write_bytes(b"\x89PNG half")
        raise stop()

    monkeypatch.setattr(type(fig), "savefig", interrupted)
    with pytest.raises(stop):
        paths.save_figure(fig, "00_cut")
    plt.close(fig)
    assert list(tmp_path.iterdir()) == []

    (tmp_path / "00_cut.csv").write_text("old,whole\n")

    def interrupted_csv(self, target, *args, **kwargs):
        Path(target).write_text("a,b\n1,")
        raise stop()

    monkeypatch.setattr(pd.DataFrame, "to_csv", interrupted_csv)
    with pytest.raises(stop):
        paths.save_table(pd.DataFrame({"a": [1]}), "00_cut.csv")
    assert [p.name for p in tmp_path.iterdir()] == ["00_cut.csv"]
    assert (tmp_path / "00_cut.csv").read_text() == "old,whole\n"


def test_a_saved_figure_carries_its_caption_and_alt_text_from_its_own_texts(tmp_path, monkeypatch):
    """save_figure writes the figure's Title and Description into the PNG (the site's caption and
    alt text): from the suptitle, the panels' titles, axis labels and legends, never empty parts."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from companion.paths import _figure_text, save_figure
    from docs._ext.companion_site import png_text

    fig, (left, right) = plt.subplots(1, 2)
    left.plot([0, 1], [1, 0], label="DLM")
    left.legend()
    left.set(xlabel="s", ylabel="errors")
    right.set(xlabel="p_p", ylabel="p_n")
    text = _figure_text(fig)
    assert text == {"Title": "2 panels: errors against s; p_n against p_p",
                    "Description": "2 panels. errors against s; legend: DLM. p_n against p_p."}
    right.set_title("Pima")  # one titled panel names the figure
    assert _figure_text(fig)["Title"] == "2 panels: Pima"
    fig.suptitle("Errors and penalties")
    assert _figure_text(fig)["Title"] == "Errors and penalties"
    empty = plt.figure()
    empty.add_subplot().set_axis_off()
    assert _figure_text(empty) == {"Title": "No labelled panel", "Description": "No labelled panel."}
    monkeypatch.setenv("COMPANION_FIGURES", str(tmp_path))
    path = save_figure(fig, "caption_check")
    # the smallest text is the tick labels' 10 pt (matplotlib's default)
    assert png_text(path) == {"Title": "Errors and penalties", "Description": _figure_text(fig)["Description"],
                              "Smallest text": "10 pt at 110 dpi"}
    left.get_legend().remove()
    fig.legend(*left.get_legend_handles_labels(), fontsize=6)  # a legend of the whole figure is described too
    assert _figure_text(fig)["Description"] == "2 panels. errors against s. Pima: p_n against p_p. Legend: DLM."
    assert png_text(save_figure(fig, "caption_check"))["Smallest text"] == "6 pt at 110 dpi"
    plt.close("all")
