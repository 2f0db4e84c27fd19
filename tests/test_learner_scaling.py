"""``benchmarks/learner_scaling.py``: every public learner measured in fresh processes (issue 18).

Timings are not asserted (speed claims come from ``make bench``); this checks that a run gives
every learner that ``companion.discovery`` finds a series and a summary (with the fresh-interpreter
measurement replaced: every learner fitting ``make_data`` is its own test), that the command line
measures in fresh interpreters and writes its CSVs and figure where ``COMPANION_FIGURES`` points,
and that the exponent fit and the 16 GB limit do the arithmetic they claim.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys

import pandas as pd
import pytest

from benchmarks.learner_scaling import QUICK_SIZES, fit_power_law, machine_limit, make_data
from companion.discovery import all_estimators
from companion.paths import ROOT


def test_power_law_and_limit():
    b, a = fit_power_law([1000, 2000, 4000, 8000], [0.5 * (m / 1000) ** 1.5 for m in (1000, 2000, 4000, 8000)])
    assert b == pytest.approx(1.5) and math.exp(a) * 1000**1.5 == pytest.approx(0.5)
    # memory binds: 100 MB of fit growing as m^2 from m=1000 reaches 16 GB - 100 MB baseline near m = 12,750
    m, by = machine_limit(1000, 0.01, 100.0, 100.0, 1.0, 2.0)
    assert by == "memory" and 12000 <= m <= 12750
    assert machine_limit(1000, 0.01, 1.0, 100.0, 0.0, 0.0) == (-1, "none")


@pytest.mark.parametrize("name", [n for n, _ in all_estimators("classifier")])
def test_data_fits_every_learner(name):
    X, y = make_data(name, 60)
    assert len(X) == len(y) == 60 and set(y) == {0, 1}
    dict(all_estimators("classifier"))[name]().fit(X, y)


def test_a_run_covers_every_learner(monkeypatch):
    """Every discovered learner gets a series, the summary and the report rows (children replaced)."""
    from benchmarks import learner_scaling

    # the fresh-interpreter measurement is exercised below on two learners; here its result is
    # made up (time and memory growing as m and m^2) so that every learner costs nothing
    def fake_measure(name, m, time_limit, memory_limit_gb):
        return {"status": "ok", "fit_s": m / 1e4, "peak_mb": 100.0 + (m / 100) ** 2, "baseline_mb": 100.0}

    monkeypatch.setattr(learner_scaling, "_measure", fake_measure)
    rows = learner_scaling.run(quick=True, log=lambda *_: None)
    names = {n for n, _ in all_estimators("classifier")}
    per_fit = [r for r in rows if r["size"] != "limit 2c/16GB"]
    assert {r["benchmark"].removeprefix("fit scaling: ") for r in per_fit} == names
    assert len(per_fit) == len(names) * len(QUICK_SIZES)
    summary = [r for r in rows if r["size"] == "limit 2c/16GB"]
    assert len(summary) == len(names) and all("time ~ m^1.0, memory ~ m^2.0" in r["note"] for r in summary), summary


@pytest.mark.slow
def test_quick_run_measures_in_fresh_interpreters(tmp_path):
    """The command line: children measure two learners, write CSVs and figure; re-measuring one keeps the other."""
    env = {**os.environ, "COMPANION_FIGURES": str(tmp_path)}
    env.pop("MPLBACKEND", None)
    measured = ["OneR", "DecisionListMachine"]
    completed = subprocess.run([sys.executable, "-m", "benchmarks.learner_scaling", "--quick", "--learners", *measured],
                               cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stderr[-2000:]
    table = pd.read_csv(tmp_path / "benchmarks_learner_scaling.csv")
    assert set(table["learner"]) == set(measured)
    assert (table["status"] == "ok").all(), table[table["status"] != "ok"]
    assert sorted(set(table["m"])) == list(QUICK_SIZES)
    assert (table["fit_s"] > 0).all() and (table["peak_mb"] >= table["baseline_mb"]).all()
    summary = pd.read_csv(tmp_path / "benchmarks_learner_scaling_summary.csv")
    assert set(summary["learner"]) == set(table["learner"]) and summary["time_exponent"].notna().all()
    assert (tmp_path / "benchmarks_learner_scaling.png").stat().st_size > 0

    # re-measuring one learner keeps the other learners' rows
    completed = subprocess.run([sys.executable, "-m", "benchmarks.learner_scaling", "--quick", "--learners", "OneR"],
                               cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stderr[-2000:]
    again = pd.read_csv(tmp_path / "benchmarks_learner_scaling.csv")
    assert set(again["learner"]) == set(table["learner"]) and len(again) == len(table)
    unchanged = again[again["learner"] != "OneR"].sort_values(["learner", "m"]).reset_index(drop=True)
    expected = table[table["learner"] != "OneR"].sort_values(["learner", "m"]).reset_index(drop=True)
    pd.testing.assert_frame_equal(unchanged, expected, check_dtype=False)


def test_learners_of_the_memory_benchmark_stop_where_it_takes_over():
    from benchmarks import ball_memory, learner_scaling

    for name in ball_memory.LEARNERS:
        sizes = learner_scaling._own_sizes(name, learner_scaling.SIZES)
        assert max(sizes) == min(ball_memory.SIZES[name]) and max(learner_scaling.SIZES) > max(sizes)
    assert learner_scaling._own_sizes("OneR", learner_scaling.SIZES) == learner_scaling.SIZES
