"""`python -m companion.reproduce --fast`, run twice, writes byte-identical result CSVs."""

import os
import shutil
import subprocess
import sys

import pytest

from companion.paths import NOTEBOOKS, ROOT


def _run_fast(tmp_path, label):
    notebooks = tmp_path / f"notebooks_{label}"
    figures = tmp_path / f"figures_{label}"
    shutil.copytree(NOTEBOOKS, notebooks)
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    env["COMPANION_FIGURES"] = str(figures)
    completed = subprocess.run(
        [sys.executable, "-m", "companion.reproduce", "--fast", "--notebooks", str(notebooks),
         "--failed-dir", str(tmp_path / f"failed_{label}")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800,
    )
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-3000:]
    return {p.name: p.read_bytes() for p in figures.glob("*.csv")}


@pytest.mark.slow
def test_fast_reproduction_twice_gives_identical_result_csvs(tmp_path):
    first = _run_fast(tmp_path, "a")
    second = _run_fast(tmp_path, "b")
    notebooks_writing_results = {p.name[:2] for p in (ROOT / "figures").glob("[0-9][0-9]_*.csv")}
    assert {name[:2] for name in first} >= notebooks_writing_results
    assert first.keys() == second.keys()
    differing = sorted(name for name in first if first[name] != second[name])
    assert not differing, f"result CSVs differ between two identical runs: {differing}"
