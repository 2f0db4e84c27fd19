"""Benchmark: fit time and peak memory of every public learner against the number of rows (issue 18).

Every estimator that :func:`companion.discovery.all_estimators` finds (so a new learner is
measured the moment it exists) is fitted on synthetic data of ``m`` rows over a geometric range
(``SIZES``), each fit in a **fresh interpreter** that reports

* ``fit_s``: wall time of ``fit`` alone (data generation and imports excluded);
* ``peak_mb``: the child's total peak resident set (``ru_maxrss``), imports and data included —
  what a user's process needs; ``baseline_mb`` is the peak just before ``fit`` (interpreter,
  NumPy/pandas/scikit-learn and the data), and ``fit_mb = peak_mb - baseline_mb`` is the part
  that grows with the fit, from which the memory exponent is fitted.

Data: 8 numeric features for the numeric learners; 8 categorical columns of 4 values each
(``category`` dtype DataFrame) for the rule learners PRISM, OneR and WIDC; 8 Boolean (0/1)
columns for the perceptrons (the Boolean-kernel family). Labels are a fixed rule of the inputs
with 10% of them flipped, so no learner stops early on separable data.

Guards: each fit has a time limit (``TIME_LIMIT_S``) and an address-space limit
(``RLIMIT_AS`` = ``MEMORY_LIMIT_GB`` in the child, so an m x m matrix too large fails with a
``MemoryError`` instead of swapping); a learner's series stops at its first failure or timeout,
or when the power law fitted so far predicts the next size past either guard. Optional budgets,
global (``total_budget_s``) or per learner (``learner_budget_s``), stop starting new fits once spent.

The four learners that ``benchmarks.ball_memory`` fits at 20,000 rows and beyond (the ball machines
to 100,000, the kernel perceptrons to 50,000, each in a fresh process on the same data with default
parameters: the same measurement) are measured here up to 20,000 only. :func:`publish`, which
``benchmarks.run`` calls once every benchmark has run, continues their series with those fits
(figure and summary); their limit is not extrapolated, because past 20,000 rows the perceptrons
switch to reading their kernel by rows, so the curve below 20,000 does not predict the one above.

From the sizes ``>= 1000`` the growth exponents of time and of ``fit_mb`` are fitted by log-log
least squares, and each learner's **limit on a 2-core / 16 GB machine** is the largest m whose
extrapolated peak (baseline + fit_mb) stays under 16 GB and whose extrapolated time stays under
10 minutes (extrapolated from the largest measured size with the fitted exponents; the bound that
binds is named, and no limit is claimed past 100 times the largest size measured).

Run ``python -m benchmarks.run --only learner_scaling [--quick]`` or
``python -m benchmarks.learner_scaling [--quick] [--learners NAME ...]``; writes
``benchmarks_learner_scaling.csv``, ``benchmarks_learner_scaling_summary.csv`` and
``benchmarks_learner_scaling.png`` under ``COMPANION_FIGURES`` (default ``figures/``). With
``--learners`` only those are re-measured and the other learners' rows already in the CSV are
kept, so one learner can be re-run after a change without re-running the rest.
"""

from __future__ import annotations

import json
import math
import os
import resource
import subprocess
import sys
import time

import numpy as np
import pandas as pd

from benchmarks._synthetic import make_data
from companion.paths import ROOT, results_path, save_figure, save_table

__all__ = ["run", "publish", "make_data", "fit_power_law", "machine_limit", "SIZES", "ROW_PREFIX", "LIMIT_SIZE",
           "BALL_MEMORY_SUFFIX"]

SIZES = (500, 1000, 2000, 5000, 10000, 20000, 50000, 100000)
QUICK_SIZES = (100, 200)
TIME_LIMIT_S = 120.0
MEMORY_LIMIT_GB = 16.0  # the address space a child may take: the 16 GB machine below
MACHINE_MEMORY_GB = 16.0  # the "2-core / 16 GB machine" of issue 18
MACHINE_TIME_S = 600.0
#: The report rows' ``benchmark`` prefix, and the ``size`` of each learner's summary row.
ROW_PREFIX = "fit scaling: "
LIMIT_SIZE = "limit 2c/16GB"
#: The ``benchmark`` of a ``benchmarks.ball_memory`` fit row is the learner's name followed by this.
BALL_MEMORY_SUFFIX = " fit, default parameters (4 GB target)"


def _worker(name: str, m: int, memory_limit_gb: float) -> dict:
    """Fit ``name`` on ``m`` rows in this (fresh) process; time and peak RSS in MB."""
    limit = int(memory_limit_gb * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from companion.discovery import all_estimators

    cls = dict(all_estimators("classifier"))[name]
    X, y = make_data(name, m)
    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux
    start = time.perf_counter()
    cls().fit(X, y)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"fit_s": seconds, "peak_mb": peak, "baseline_mb": baseline}


def _measure(name: str, m: int, time_limit: float, memory_limit_gb: float) -> dict:
    """One fit in a fresh interpreter; ``status`` is ``ok``, ``timeout`` or the error's last line."""
    command = [sys.executable, "-m", "benchmarks.learner_scaling", "--worker", name, str(m), str(memory_limit_gb)]
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=time_limit)
    except subprocess.TimeoutExpired:
        return {"status": f"timeout > {time_limit:.0f} s"}
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        return {"status": last[:120]}
    return {"status": "ok", **json.loads(done.stdout.strip().splitlines()[-1])}


def fit_power_law(m, values) -> tuple[float, float]:
    """Least-squares ``log value = a + b log m``; returns ``(b, a)`` (exponent, intercept).

    >>> b, a = fit_power_law([1000, 2000, 4000], [1.0, 4.0, 16.0])
    >>> round(b, 6)
    2.0
    """
    b, a = np.polyfit(np.log(np.asarray(m, float)), np.log(np.asarray(values, float)), 1)
    return float(b), float(a)


def machine_limit(m_last, t_last, fit_mb_last, baseline_mb, b_time, b_mem,
                  memory_mb=MACHINE_MEMORY_GB * 1024, seconds=MACHINE_TIME_S) -> tuple[int, str]:
    """Largest m with extrapolated peak under ``memory_mb`` and time under ``seconds``, and the bound that binds.

    Extrapolates from the largest measured size: ``t(m) = t_last (m / m_last)**b_time`` and
    ``peak(m) = baseline_mb + fit_mb_last (m / m_last)**b_mem``. An exponent <= 0.05 is treated
    as no growth (the limit is then not set by that resource); the answer is capped at
    ``100 * m_last``.

    >>> machine_limit(1000, 1.0, 100.0, 100.0, 2.0, 2.0, memory_mb=10100.0, seconds=100.0)
    (10000, 'time')
    >>> machine_limit(1000, 1.0, 100.0, 100.0, 1.0, 1.0)[1]
    'extrapolation cap (100x largest m)'
    """
    by_time = m_last * (seconds / t_last) ** (1 / b_time) if b_time > 0.05 else math.inf
    room = memory_mb - baseline_mb
    by_mem = m_last * (room / fit_mb_last) ** (1 / b_mem) if b_mem > 0.05 and fit_mb_last > 0 else math.inf
    if math.isinf(by_time) and math.isinf(by_mem):
        return -1, "none"
    # round down to 2 significant digits: the extrapolation is no more precise than that
    best = min(by_time, by_mem, 100 * m_last)  # past 100x the largest measured size it is guesswork
    if best == 100 * m_last:
        return int(best), "extrapolation cap (100x largest m)"
    scale = 10 ** max(int(math.floor(math.log10(best))) - 1, 0)
    return int(best // scale * scale), ("time" if by_time <= by_mem else "memory")


def run(quick: bool = False, sizes=None, learners=None, time_limit: float | None = None,
        memory_limit_gb: float = MEMORY_LIMIT_GB, total_budget_s: float | None = None,
        learner_budget_s: float | None = None, log=print, keep_others: bool = False) -> list[dict]:
    """Measure every learner over ``sizes``; write the CSV and the figure; return report rows.

    Parameters
    ----------
    quick : bool, default=False
        Tiny sizes (``QUICK_SIZES``), for the smoke test.
    sizes : sequence of int, optional
        Row counts (default ``SIZES``, or ``QUICK_SIZES`` when quick).
    learners : sequence of str, optional
        Class names (default: every public estimator of ``companion``).
    time_limit : float, optional
        Seconds per fit (default ``TIME_LIMIT_S``; 60 when quick).
    memory_limit_gb : float, default=16.0
        Address-space limit of each child.
    total_budget_s : float, optional
        Stop starting fits once this much wall time is spent (default: none).
    learner_budget_s : float, optional
        Stop one learner's series once its fits took this long (default: none), so that a
        time-boxed run still reaches every learner.
    log : callable, default=print
        Progress lines.
    keep_others : bool, default=False
        Keep the rows of the learners not measured now from the CSV already written (re-measure
        some learners only).

    Returns
    -------
    list of dict
        One row per (learner, size) measured, in the report's columns (``benchmark``, ``size``,
        ``ours_s``, ...) plus ``peak_mb``, ``fit_mb``, ``status``; and one summary row per learner
        (``size`` = ``"limit 2c/16GB"``) with the exponents and the limit.
    """
    from companion.discovery import all_estimators

    sizes = tuple(sizes or (QUICK_SIZES if quick else SIZES))
    time_limit = time_limit or (60.0 if quick else TIME_LIMIT_S)
    names = list(learners or [n for n, _ in all_estimators("classifier")])
    start = time.perf_counter()
    records = []
    for name in names:
        done = []
        learner_start = time.perf_counter()
        for m in _own_sizes(name, sizes):
            if learner_budget_s is not None and time.perf_counter() - learner_start > learner_budget_s:
                records.append({"learner": name, "m": m, "status": "skipped: learner budget spent"})
                break
            if total_budget_s is not None and time.perf_counter() - start > total_budget_s:
                records.append({"learner": name, "m": m, "status": "skipped: total budget spent"})
                break
            if len(done) >= 2:  # predict this size from the two last ones; skip what the guards would kill
                (m0, t0, f0), (m1, t1, f1) = [(d["m"], d["fit_s"], max(d["fit_mb"], 1.0)) for d in done[-2:]]
                t_next = t1 * (m / m1) ** max(math.log(t1 / t0) / math.log(m1 / m0), 0)
                f_next = f1 * (m / m1) ** max(math.log(f1 / f0) / math.log(m1 / m0), 0)
                if t_next > 2 * time_limit or done[-1]["baseline_mb"] + f_next > memory_limit_gb * 1024:
                    records.append({"learner": name, "m": m, "status": f"skipped: predicted {t_next:.0f} s, "
                                    f"{(done[-1]['baseline_mb'] + f_next) / 1024:.1f} GB"})
                    break
            result = _measure(name, m, time_limit, memory_limit_gb)
            record = {"learner": name, "m": m, **result}
            if result["status"] == "ok":
                record["fit_mb"] = result["peak_mb"] - result["baseline_mb"]
                done.append(record)
            records.append(record)
            log(f"[learner_scaling] {name:28s} m={m:6d} " + (
                f"{record['fit_s']:8.2f} s {record['peak_mb']:8.0f} MB" if result["status"] == "ok" else result["status"]))
            if result["status"] != "ok":
                break
    table = pd.DataFrame(records)
    previous = results_path("benchmarks_learner_scaling.csv")
    if keep_others and previous.exists():
        kept = pd.read_csv(previous)
        kept = kept[~kept["learner"].isin(names)]
        table = pd.concat([kept, table], ignore_index=True)
    summary = _summaries(table, quick)
    save_table(table, "benchmarks_learner_scaling.csv", index=False)
    save_table(summary, "benchmarks_learner_scaling_summary.csv", index=False)
    _figure(table)
    return _report_rows(table, summary)


def continued_fits(report: pd.DataFrame) -> pd.DataFrame:
    """``benchmarks.ball_memory``'s fits in a ``make bench`` report, as this benchmark's records.

    Parameters
    ----------
    report : pandas.DataFrame
        ``figures/benchmarks.csv`` (or the rows of the run writing it).

    Returns
    -------
    pandas.DataFrame
        ``learner``, ``m``, ``fit_s``, ``peak_mb`` of every successful fit (none: empty).
    """
    name = report["benchmark"].astype(str) if len(report) else pd.Series(dtype=str)
    rows = report[name.str.endswith(BALL_MEMORY_SUFFIX) & report.get("ours_s", pd.Series(dtype=float)).notna()]
    return pd.DataFrame({"learner": rows["benchmark"].str.removesuffix(BALL_MEMORY_SUFFIX),
                         "m": pd.to_numeric(rows["size"]).astype(int), "fit_s": rows["ours_s"].astype(float),
                         "peak_mb": rows["peak_mb"].astype(float)}).reset_index(drop=True)


def publish(report: pd.DataFrame, quick: bool = False) -> pd.DataFrame:
    """Continue the per-learner series with ``benchmarks.ball_memory``'s fits of the same run.

    Rewrites ``benchmarks_learner_scaling_summary.csv`` and the figure from the per-fit CSV this
    benchmark wrote and ``report``'s ball_memory rows, and returns ``report`` with its summary
    rows (``size`` = :data:`LIMIT_SIZE`) replaced accordingly. Re-running it on the report it
    returns changes nothing.

    Parameters
    ----------
    report : pandas.DataFrame
        The whole run's rows (``figures/benchmarks.csv``).
    quick : bool, default=False
        Whether the run was ``--quick`` (exponents over every size).

    Returns
    -------
    pandas.DataFrame
        ``report`` with the learners' summary rows recomputed (unchanged without per-fit CSV).
    """
    per_fit = results_path("benchmarks_learner_scaling.csv")
    if not per_fit.exists() or not len(report):
        return report
    table = pd.read_csv(per_fit)
    continued = continued_fits(report)
    summary = _summaries(table, quick, continued)
    save_table(summary, "benchmarks_learner_scaling_summary.csv", index=False)
    _figure(table, continued)
    rows = pd.DataFrame([r for r in _report_rows(table, summary) if r["size"] == LIMIT_SIZE])
    name, size = report["benchmark"].astype(str), report["size"].astype(str)
    old = name.str.startswith(ROW_PREFIX) & (size == LIMIT_SIZE)
    if not old.any():
        return report
    first = int(np.flatnonzero(old.to_numpy())[0])
    kept = report[~old]
    rows = rows.reindex(columns=report.columns)
    return pd.concat([kept.iloc[:first], rows, kept.iloc[first:]], ignore_index=True)


def _own_sizes(name: str, sizes) -> tuple:
    """``sizes`` up to where ``benchmarks.ball_memory`` takes over ``name`` (its sizes from 20,000 on)."""
    from benchmarks.ball_memory import SIZES as BALL_MEMORY_SIZES

    if name not in BALL_MEMORY_SIZES:
        return tuple(sizes)
    return tuple(m for m in sizes if m <= min(BALL_MEMORY_SIZES[name]))


def _summaries(table: pd.DataFrame, quick: bool, continued: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per learner: largest size reached, exponents (sizes >= 1000, all sizes when quick), limit.

    ``continued``: ``benchmarks.ball_memory``'s fits (:func:`publish`); a learner it continues takes
    its largest size from there, keeps the exponents of this benchmark's sizes and has no
    extrapolated limit.
    """
    out = []
    for name, group in table.groupby("learner", sort=False):
        ok = group[group["status"] == "ok"]
        further = None if continued is None else continued[(continued["learner"] == name) & (continued["m"] > (ok["m"].max() if len(ok) else 0))]
        row = {"learner": name, "max_m": int(ok["m"].max()) if len(ok) else 0,
               "stopped": "; ".join(group.loc[group["status"] != "ok", "status"].astype(str)) or "",
               "time_exponent": np.nan, "memory_exponent": np.nan, "limit_m": np.nan, "limit_by": ""}
        fit = ok if quick else ok[ok["m"] >= 1000]
        if len(fit) >= 2:
            b_t, _ = fit_power_law(fit["m"], fit["fit_s"])
            b_m, _ = fit_power_law(fit["m"], np.maximum(fit["fit_mb"], 1.0))  # < 1 MB is noise of ru_maxrss
            last = fit.iloc[-1]
            limit, by = machine_limit(last["m"], last["fit_s"], max(last["fit_mb"], 1.0), last["baseline_mb"], b_t, b_m)
            row.update(time_exponent=round(b_t, 2), memory_exponent=round(b_m, 2),
                       limit_m=limit if limit > 0 else np.nan, limit_by=by)
        if further is not None and len(further):
            row.update(max_m=int(further["m"].max()), limit_m=np.nan,
                       limit_by=f"not extrapolated: measured to m = {int(further['m'].max())} by ball_memory")
        out.append(row)
    return pd.DataFrame(out)


def _report_rows(table: pd.DataFrame, summary: pd.DataFrame) -> list[dict]:
    """Rows in the columns of ``benchmarks/run.py``'s report (no reference: ratio empty)."""
    rows = []
    for r in table.to_dict("records"):
        ok = r["status"] == "ok"
        rows.append({"benchmark": ROW_PREFIX + r["learner"], "size": r["m"],
                     "ours_s": round(r["fit_s"], 4) if ok else None, "reference": "-", "reference_s": None,
                     "ratio": None, "identical": None, "target": "",
                     "peak_mb": round(r["peak_mb"], 1) if ok else None, "fit_mb": round(r["fit_mb"], 1) if ok else None,
                     "note": f"peak {r['peak_mb']:.0f} MB (fit {r['fit_mb']:.0f} MB)" if ok else r["status"]})
    for s in summary.to_dict("records"):
        limit = "n/a" if pd.isna(s["limit_m"]) else f"m ~ {int(s['limit_m'])} ({s['limit_by']})"
        rows.append({"benchmark": ROW_PREFIX + s["learner"], "size": LIMIT_SIZE, "ours_s": None,
                     "reference": "-", "reference_s": None, "ratio": None, "identical": None, "target": "",
                     "max_m": s["max_m"], "time_exponent": s["time_exponent"], "memory_exponent": s["memory_exponent"],
                     "limit_m": s["limit_m"], "limit_by": s["limit_by"],
                     "note": f"reached m={s['max_m']}; time ~ m^{s['time_exponent']}, "
                             f"memory ~ m^{s['memory_exponent']}; limit {limit}"})
    return rows


def _figure(table: pd.DataFrame, continued: pd.DataFrame | None = None) -> None:
    """Log-log time and peak memory against m, one line per learner (its own colour and marker);
    ``continued`` (``benchmarks.ball_memory``'s fits) extends a learner's line with open markers."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ok = table[table["status"] == "ok"] if "status" in table else table.iloc[0:0]
    fig, (ax_t, ax_m) = plt.subplots(1, 2, figsize=(11, 4.5))
    colours = plt.get_cmap("tab20").colors
    for k, (name, group) in enumerate(ok.groupby("learner")):
        style = dict(color=colours[(2 * k) % 20 + (2 * k) // 20], marker="osD^v<>p"[k % 8])
        further = None if continued is None else continued[(continued["learner"] == name) & (continued["m"] > group["m"].max())]
        for ax, column in ((ax_t, "fit_s"), (ax_m, "peak_mb")):
            ax.loglog(group["m"], group[column], "-", label=name, **style)
            if further is not None and len(further):
                last = group.loc[group["m"].idxmax()]
                ax.loglog([last["m"], *further["m"]], [last[column], *further[column]], "--", color=style["color"])
                ax.loglog(further["m"], further[column], ls="", marker=style["marker"], mfc="white", color=style["color"])
    if continued is not None and len(continued):
        ax_t.plot([], [], "k--", marker="o", mfc="white", label="ball_memory's fits (same data)")
    ax_t.set(xlabel="rows m", ylabel="fit time (s)", title="fit time")
    ax_m.set(xlabel="rows m", ylabel="peak RSS of the process (MB)", title="peak memory")
    ax_m.axhline(MACHINE_MEMORY_GB * 1024, color="grey", ls=":", lw=1)
    ax_t.legend(fontsize=7)
    fig.tight_layout()
    save_figure(fig, "benchmarks_learner_scaling")
    plt.close(fig)


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--worker"]:
        print(json.dumps(_worker(argv[1], int(argv[2]), float(argv[3]))))
        return 0
    budgets = {}
    for flag, key in (("--budget", "total_budget_s"), ("--learner-budget", "learner_budget_s")):
        if flag in argv:
            budgets[key] = float(argv[argv.index(flag) + 1])
    learners = None
    if "--learners" in argv:
        learners = []
        for a in argv[argv.index("--learners") + 1 :]:
            if a.startswith("--"):
                break
            learners.append(a)
    rows = run(quick="--quick" in argv, learners=learners, keep_others=learners is not None, **budgets)
    print(pd.DataFrame(rows).to_string(index=False))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("MPLBACKEND", "Agg")
    sys.exit(main())
