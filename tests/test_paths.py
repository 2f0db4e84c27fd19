"""Paths are absolute and figures are written where the notebooks expect them."""

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
