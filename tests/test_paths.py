"""Paths are absolute and figures are written where the notebooks expect them."""

from pathlib import Path

import matplotlib.pyplot as plt
import pytest

from companion import paths


def test_paths_are_absolute_and_exist():
    for folder in (paths.ROOT, paths.DATA, paths.FIGURES, paths.NOTEBOOKS):
        assert folder.is_absolute() and folder.is_dir()


def test_save_figure_writes_png_and_is_byte_stable(monkeypatch, tmp_path):
    monkeypatch.setattr(paths, "FIGURES", tmp_path)
    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0])
    first = paths.save_figure(fig, "00_test").read_bytes()
    second = paths.save_figure(fig, "00_test.png").read_bytes()
    plt.close(fig)
    assert first[:8] == b"\x89PNG\r\n\x1a\n"
    assert first == second


@pytest.mark.parametrize("bad", ["", "sub/name", 3])
def test_save_figure_rejects_bad_names(bad):
    fig = plt.figure()
    with pytest.raises(ValueError, match="plain file name"):
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
    assert paths.FIGURES == redirected  # this process follows it too
    # ... and so does a fresh interpreter started from this one, as a Jupyter kernel is.
    seen = subprocess.run(
        [sys.executable, "-c", "from companion.paths import FIGURES; print(FIGURES)"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    assert Path(seen) == redirected


def test_save_table_fixed_precision_and_index(monkeypatch, tmp_path):
    pd = pytest.importorskip("pandas")
    monkeypatch.setattr(paths, "FIGURES", tmp_path)
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
