"""Benchmark: the ball machines (DLM, SCM with balls) at 20000 and 50000 rows, time and memory (issue 18).

Targets (issue 18): ``DecisionListMachine`` and ``BallSetCoveringMachine`` with their default
parameters fit m = 20000 rows of 8 numeric features **within 4 GB of peak memory and 2 minutes**
on 2 cores. Each fit runs in a fresh interpreter (the same worker as ``learner_scaling``: same
data, ``ru_maxrss`` of the whole process, imports and data included), under an address-space
limit of 8 GB so that a regression fails instead of swapping.

At m = 50000 the default limit (``max_memory_gb=4``) refuses the fit up front with a
``MemoryError`` that says how much to allow; the benchmark records that message, then fits with
``max_memory_gb=8`` and reports time and memory.

A third row per learner checks that the memory-bounded layout learns the list the full layout
learns, on m = 3000 (``max_memory_gb=None`` with sorted distances computed in full, against the
default fit, which takes the blocked layout past 2000 rows): ``identical`` compares the balls.

Run ``python -m benchmarks.run --only ball_memory [--quick]`` or ``python -m benchmarks.ball_memory``.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time

from companion.paths import ROOT

__all__ = ["run", "LEARNERS"]

LEARNERS = ("DecisionListMachine", "BallSetCoveringMachine")
TARGET_GB = 4.0
TARGET_S = 120.0
ADDRESS_LIMIT_GB = 8.0


def _worker(name: str, m: int, params: dict) -> dict:
    """Fit ``name(**params)`` on the learner-scaling data of ``m`` rows in this (fresh) process."""
    limit = int(ADDRESS_LIMIT_GB * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from benchmarks.learner_scaling import make_data
    from companion.discovery import all_estimators

    cls = dict(all_estimators("classifier"))[name]
    X, y = make_data(name, m)
    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start = time.perf_counter()
    try:
        model = cls(**params).fit(X, y)
    except MemoryError as error:
        return {"status": "MemoryError", "message": str(error)}
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"status": "ok", "fit_s": seconds, "peak_mb": peak, "baseline_mb": baseline,
            "n_balls": model.n_balls_}


def _identical_worker(name: str, m: int) -> dict:
    """The default (blocked) fit and a full-layout fit of the same data learn the same balls."""
    from benchmarks.learner_scaling import make_data
    from companion.decision_list import SortedDistances
    from companion.discovery import all_estimators

    cls = dict(all_estimators("classifier"))[name]
    X, y = make_data(name, m)
    blocked = cls().fit(X, y)
    full = cls(max_memory_gb=None).fit(X, y, sorted_distances=SortedDistances.from_points(X))
    balls = [[(b.kind, b.centre_index, b.border_index, b.radius) for b in model.balls_] for model in (blocked, full)]
    return {"status": "ok", "identical": balls[0] == balls[1], "n_balls": blocked.n_balls_}


def _measure(kind: str, name: str, m: int, params: dict, timeout: float) -> dict:
    command = [sys.executable, "-m", "benchmarks.ball_memory", "--worker", kind, name, str(m), json.dumps(params)]
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": f"timeout > {timeout:.0f} s"}
    if done.returncode != 0:
        return {"status": ((done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1])[:160]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def run(quick: bool = False, log=print) -> list[dict]:
    """Rows for ``make bench``: m = 20000 (targets), m = 50000 (default refused, then 8 GB), identity."""
    sizes = (2000, 3000) if quick else (20000, 50000)
    identity_m = 2500 if quick else 3000  # past 2000 rows, where a default fit takes the blocked layout
    rows = []
    for name in LEARNERS:
        target_m, large_m = sizes
        result = _measure("fit", name, target_m, {}, timeout=4 * TARGET_S)
        ok = result["status"] == "ok"
        rows.append({
            "benchmark": f"{name} fit, default parameters (4 GB limit)", "size": target_m,
            "ours_s": round(result["fit_s"], 2) if ok else None, "reference": "2-minute target",
            "reference_s": TARGET_S, "ratio": round(result["fit_s"] / TARGET_S, 3) if ok else None,
            "identical": None, "target": f"<= 1 and peak <= {TARGET_GB:.0f} GB",
            "note": (f"peak {result['peak_mb'] / 1024:.2f} GB (fit {(result['peak_mb'] - result['baseline_mb']) / 1024:.2f} GB), "
                     f"{result['n_balls']} balls") if ok else result["status"],
        })
        log(f"[ball_memory] {name} m={target_m}: {rows[-1]['note']} {rows[-1]['ours_s']} s")
        refused = _measure("fit", name, large_m, {}, timeout=600)
        result = _measure("fit", name, large_m, {"max_memory_gb": 8.0}, timeout=1800)
        ok = result["status"] == "ok"
        rows.append({
            "benchmark": f"{name} fit, max_memory_gb=8", "size": large_m,
            "ours_s": round(result["fit_s"], 2) if ok else None, "reference": "-", "reference_s": None,
            "ratio": None, "identical": None, "target": "",
            "note": ((f"peak {result['peak_mb'] / 1024:.2f} GB, {result['n_balls']} balls" if ok else result["status"])
                     + "; default: " + (refused.get("message", refused["status"])[:140])),
        })
        log(f"[ball_memory] {name} m={large_m}: {rows[-1]['note']} {rows[-1]['ours_s']} s")
        same = _measure("identical", name, identity_m, {}, timeout=600)
        rows.append({
            "benchmark": f"{name}: blocked layout vs full layout", "size": identity_m, "ours_s": None,
            "reference": "full layout", "reference_s": None, "ratio": None,
            "identical": same.get("identical"), "target": "identical balls",
            "note": f"{same.get('n_balls')} balls" if same["status"] == "ok" else same["status"],
        })
    return rows


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--worker"]:
        kind, name, m, params = argv[1], argv[2], int(argv[3]), json.loads(argv[4])
        result = _worker(name, m, params) if kind == "fit" else _identical_worker(name, m)
        print(json.dumps(result))
        return 0
    for row in run(quick="--quick" in argv):
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
