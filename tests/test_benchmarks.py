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
def test_a_partial_run_never_replaces_the_committed_report():
    """``--only`` without ``COMPANION_FIGURES`` writes under build/bench/figures: the committed
    report (and the README quoting it) stays the last whole run's."""
    from benchmarks.run import PARTIAL_RUN_FIGURES

    committed = {name: (ROOT / "figures" / name).read_bytes() for name in ("benchmarks.csv", "benchmarks.md")}
    readme = (ROOT / "README.md").read_bytes()
    (PARTIAL_RUN_FIGURES / "benchmarks.csv").unlink(missing_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("COMPANION_FIGURES", "MPLBACKEND")}
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks.run", "--only", "widc_literal_search", "--quick"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert pd.read_csv(PARTIAL_RUN_FIGURES / "benchmarks.csv")["benchmark"].str.startswith("WIDC").all()
    assert {name: (ROOT / "figures" / name).read_bytes() for name in committed} == committed
    assert (ROOT / "README.md").read_bytes() == readme


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
    # issue 59's LED fits: both perceptrons, default and fallback=None, time, CPU time and peak
    led = [r for r in rows if ", LED digits, " in r["benchmark"]]
    assert len(led) == len(ball_memory.QUICK_SIZES) * len(ball_memory.LED_TARGET_S) * len(ball_memory.LED_VARIANTS)
    assert all(r["ours_s"] > 0 and "peak" in r["note"] and "cpu" in r["note"] and "load" in r["note"] for r in led), led
    assert all("x the plain fit" in r["note"] for r in led if r["benchmark"].endswith(", default")), led


def test_readme_speed_section_is_the_committed_report_rendered():
    """No speed number in the README is typed: its block is ``benchmarks.report`` of the committed CSV."""
    from benchmarks.report import readme_block, speed_markdown

    header = (ROOT / "figures" / "benchmarks.md").read_text(encoding="utf-8").splitlines()[0]
    expected = speed_markdown(ROOT / "figures" / "benchmarks.csv", header)
    assert readme_block((ROOT / "README.md").read_text(encoding="utf-8")) == expected, (
        "README.md's speed section differs from figures/benchmarks.csv: run `python -m benchmarks.report`"
    )


def _report_table():
    rows = [
        {"benchmark": "PRISM supermarket vs Weka Prism", "size": 4627, "ours_s": 0.76, "reference": "Weka 3 Prism",
         "reference_s": 16.64, "ratio": 0.0457, "identical": True},
        {"benchmark": "SC cold fits of a 5-fold CV (9 per fold) vs pyscm-ml", "size": "colon+golub", "ours_s": 1.0,
         "reference": "pyscm-ml 1.1 (C++)", "reference_s": 2.5, "ratio": 0.4, "identical": True, "n_fits": 90},
        {"benchmark": "SC cold fits of a 5-fold CV (9 per fold) vs pyscm-ml", "size": "colon", "ours_s": 0.5,
         "reference": "pyscm-ml 1.1 (C++)", "reference_s": 1.0, "ratio": 0.5, "identical": True, "n_fits": 45},
        {"benchmark": "DecisionListMachine fit, default parameters (4 GB target)", "size": 100000, "ours_s": 142.0,
         "reference": "time target", "reference_s": 1200.0, "ratio": 0.118, "peak_mb": 809.0},
        {"benchmark": "fit scaling: DecisionListMachine", "size": 20000, "ours_s": 5.6, "peak_mb": 350.0},
        {"benchmark": "fit scaling: DecisionListMachine", "size": "limit 2c/16GB", "ours_s": None, "max_m": 20000,
         "time_exponent": 1.9, "memory_exponent": 1.0, "limit_m": 150000.0, "limit_by": "time"},
        {"benchmark": "notebook wall time", "size": "01_decision_list_machine.ipynb", "ours_s": 150.0},
        {"benchmark": "make reproduce total", "size": "all", "ours_s": 400.0, "reference_s": 390.0, "ratio": 1.03},
    ]
    return pd.DataFrame(rows)


def test_speed_section_reports_each_part_from_its_rows():
    from benchmarks.report import MARKERS, speed_markdown

    block = speed_markdown(_report_table(), "Benchmarks, 2026-12-01, x86_64, 2 cores, Python 3.11.7")
    assert block.startswith(MARKERS[0]) and block.endswith(MARKERS[1]) and "`make bench`, 2026-12-01, x86_64" in block
    assert "PRISM vs Weka's Prism on supermarket, 0.0457 (21.9x faster)" in block
    assert "SC stumps vs pyscm-ml, 90 cold fits of CV grids summed, 0.400 (2.50x faster)" in block  # the sum
    assert "45 cold fits" not in block  # not one set's row
    assert "DecisionListMachine 100,000 rows in 142 s, peak 0.79 GB" in block
    assert "b = DecisionListMachine 1.9." in block
    assert "01 150 s; all 400 s (target 390 s: **not met**)." in block
    different = _report_table().assign(identical=False)
    assert "21.9x faster) **(different model)**" in speed_markdown(different, "Benchmarks, x")
    partial = speed_markdown(_report_table().iloc[:1], "Benchmarks, x")
    assert "Largest fits" not in partial and "Notebooks" not in partial and "PRISM" in partial


def test_update_readme_needs_its_markers(tmp_path):
    from benchmarks.report import MARKERS, update_readme

    readme = tmp_path / "README.md"
    readme.write_text("# R\n\nno block\n", encoding="utf-8")
    with pytest.raises(ValueError, match="bench:speed"):
        update_readme(readme, _report_table(), "Benchmarks, x")
    readme.write_text(f"# R\n\n{MARKERS[0]}\nstale text\n{MARKERS[1]}\n\nafter\n", encoding="utf-8")
    assert update_readme(readme, _report_table(), "Benchmarks, x") is True
    assert update_readme(readme, _report_table(), "Benchmarks, x") is False
    text = readme.read_text(encoding="utf-8")
    assert "stale text" not in text and text.endswith("\n\nafter\n") and "21.9x" in text


def test_learner_scaling_series_continue_with_ball_memorys_fits(tmp_path, monkeypatch):
    """``publish`` continues a learner's series with ball_memory's larger fits of the same run: its
    largest size comes from there and no limit is extrapolated across the layout change; the other
    learners' summaries, the report's row order and a second call change nothing."""
    from benchmarks import learner_scaling as ls

    monkeypatch.setenv("COMPANION_FIGURES", str(tmp_path))
    sizes = (1000, 2000, 5000, 10000, 20000)
    per_fit = pd.DataFrame(
        [{"learner": name, "m": m, "status": "ok", "fit_s": scale * (m / 1000) ** 1.5, "peak_mb": 170 + m / 100,
          "baseline_mb": 170.0, "fit_mb": m / 100} for name, scale in (("Alpha", 0.01), ("Beta", 0.1)) for m in sizes])
    per_fit.to_csv(tmp_path / "benchmarks_learner_scaling.csv", index=False)
    before = pd.DataFrame(ls._report_rows(per_fit, ls._summaries(per_fit, quick=False)))
    ball = pd.DataFrame([{"benchmark": "Beta" + ls.BALL_MEMORY_SUFFIX, "size": m, "ours_s": s, "peak_mb": p}
                         for m, s, p in ((20000, 9.0, 400.0), (50000, 30.0, 300.0))])
    report = pd.concat([ball, before, pd.DataFrame([{"benchmark": "notebook wall time", "size": "00.ipynb"}])],
                       ignore_index=True)
    report.to_csv(tmp_path / "report.csv", index=False)
    report = pd.read_csv(tmp_path / "report.csv")

    published = ls.publish(report)
    assert published["benchmark"].tolist() == report["benchmark"].tolist()
    limits = published[published["size"].astype(str) == ls.LIMIT_SIZE].set_index("benchmark")
    beta, alpha = limits.loc[ls.ROW_PREFIX + "Beta"], limits.loc[ls.ROW_PREFIX + "Alpha"]
    assert beta["max_m"] == 50000 and pd.isna(beta["limit_m"]) and beta["limit_by"].startswith("not extrapolated")
    assert beta["time_exponent"] == pytest.approx(1.5, abs=0.01)  # this benchmark's own sizes
    old_alpha = report[report["benchmark"] == ls.ROW_PREFIX + "Alpha"].iloc[-1]
    assert alpha["max_m"] == 20000 and alpha["limit_m"] == old_alpha["limit_m"] > 20000
    summary = pd.read_csv(tmp_path / "benchmarks_learner_scaling_summary.csv").set_index("learner")
    assert summary.loc["Beta", "max_m"] == 50000 and summary.loc["Alpha", "limit_by"] == old_alpha["limit_by"]
    assert (tmp_path / "benchmarks_learner_scaling.png").stat().st_size > 0
    published.to_csv(tmp_path / "once.csv", index=False)
    ls.publish(pd.read_csv(tmp_path / "once.csv")).to_csv(tmp_path / "twice.csv", index=False)
    assert (tmp_path / "twice.csv").read_text() == (tmp_path / "once.csv").read_text()


def test_choosing_page_is_the_committed_learner_defaults_rendered():
    """docs/choosing.md holds the numbers of the committed figures/learner_defaults.csv (what
    `make bench` measured), rendered by the benchmark itself: no number on the page is typed."""
    from benchmarks.learner_defaults import read_results, render_choosing

    frame = read_results(ROOT / "figures" / "learner_defaults.csv")
    assert (ROOT / "docs" / "choosing.md").read_text() == render_choosing(frame)


def test_choosing_page_does_not_depend_on_the_row_order():
    """Ties (many learners fall back to the majority rate on a table) are ordered by the page's tie
    rule (size, then name), not by where a sort happened to leave them: reversing the rows inside
    each table renders the same page."""
    from benchmarks.learner_defaults import read_results, render_choosing

    frame = read_results(ROOT / "figures" / "learner_defaults.csv")
    reversed_rows = pd.concat([group.iloc[::-1] for _, group in frame.groupby("table", sort=False)])
    assert render_choosing(reversed_rows) == render_choosing(frame)


def test_learner_defaults_are_the_same_at_every_run():
    """The published page must not change with the run: every learner that draws random numbers
    is seeded (OrderedRipper's grow/prune splits varied its accuracy on 6 of 9 tables between two
    runs when it was not), and two evaluations give the same accuracies and sizes."""
    pytest.importorskip("wittgenstein")
    from benchmarks.learner_defaults import _learners, evaluate

    seeded = {name: learner.get_params()["random_state"] for name, learner in _learners().items()
              if "random_state" in learner.get_params()}
    assert "OrderedRipper" in seeded and set(seeded.values()) == {0}, seeded
    runs = [evaluate(tables=["crabs"], learners=["OrderedRipper", "PrunedDecisionTree"]) for _ in range(2)]
    columns = ["table", "learner", "accuracy", "size", "single_class_folds", "pareto"]
    pd.testing.assert_frame_equal(runs[0][columns], runs[1][columns])
