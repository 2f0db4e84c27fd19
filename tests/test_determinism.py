"""`python -m companion.reproduce --fast`, run twice, writes byte-identical result CSVs.

A `--fast` run reads the committed notebooks and writes its executed copies, figures and CSVs
under `--output-dir` only, so the runs go straight to scratch folders.
"""

import os
import subprocess
import sys

import pytest

from companion.paths import ROOT


def _run_fast(tmp_path, label):
    """One `--fast` run of every notebook into its own output folder; its result CSVs' bytes."""
    output = tmp_path / f"run_{label}"
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    completed = subprocess.run(
        [sys.executable, "-m", "companion.reproduce", "--fast", "--output-dir", str(output)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800,
    )
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-3000:]
    return {p.name: p.read_bytes() for p in (output / "figures").glob("*.csv")}


@pytest.mark.slow
def test_fast_reproduction_twice_gives_identical_result_csvs(tmp_path):
    first = _run_fast(tmp_path, "a")
    second = _run_fast(tmp_path, "b")
    notebooks_writing_results = {p.name[:2] for p in (ROOT / "figures").glob("[0-9][0-9]_*.csv")}
    assert {name[:2] for name in first} >= notebooks_writing_results
    assert first.keys() == second.keys()
    differing = sorted(name for name in first if first[name] != second[name])
    assert not differing, f"result CSVs differ between two identical runs: {differing}"
