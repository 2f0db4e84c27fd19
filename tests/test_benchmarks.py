"""``make bench`` plumbing: each benchmark in its own interpreter, rows gathered into one report.

The timings themselves are not asserted (speed claims come from ``make bench``, never from timed
unit tests); this checks that a quick run of two cheap benchmarks writes the report files with
one row per size and a finite ratio, and leaves the committed report alone.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from companion.paths import ROOT


@pytest.mark.slow
def test_quick_run_writes_one_report(tmp_path):
    committed = (ROOT / "figures" / "benchmarks.csv").read_bytes()
    env = {**os.environ, "COMPANION_FIGURES": str(tmp_path)}
    env.pop("MPLBACKEND", None)
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks.run", "--quick", "--only", "dlm_scaling", "--only", "widc_literal_search"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    table = pd.read_csv(tmp_path / "benchmarks.csv")
    dlm = table[table["benchmark"].str.startswith("DLM fit")]
    assert dlm["size"].astype(int).tolist() == [200, 400]
    assert np.isfinite(dlm["ratio"]).all() and (dlm["ratio"] > 0).all()
    widc = table[table["benchmark"].str.startswith("WIDC")]
    assert len(widc) == 2 and widc["identical"].astype(bool).all()
    assert (tmp_path / "benchmarks.md").read_text().startswith("Benchmarks, ")
    assert (tmp_path / "benchmarks_scaling.png").stat().st_size > 0
    assert (ROOT / "figures" / "benchmarks.csv").read_bytes() == committed


@pytest.mark.slow
def test_ball_memory_quick_run_fits_and_compares_layouts():
    """The memory-wall benchmark runs end to end; the streamed and full layouts learn the same balls."""
    from benchmarks import ball_memory

    rows = ball_memory.run(quick=True, log=lambda *_: None)
    fits = [r for r in rows if r["benchmark"].endswith("(4 GB target)")]
    assert len(fits) == len(ball_memory.QUICK_SIZES) * len(ball_memory.LEARNERS)
    assert all(r["ours_s"] is not None and r["ours_s"] > 0 and "load" in r["note"] for r in fits), fits
    same = [r for r in rows if "streamed layout vs full layout" in r["benchmark"]]
    assert [r["identical"] for r in same] == [True, True], same
