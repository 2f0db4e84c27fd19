"""Benchmark: the learners that met the memory wall, fitted at up to 100,000 rows (time and memory).

Targets ("Past the memory wall"): with default parameters, each fit in a fresh interpreter on
the learner-scaling data (``benchmarks.learner_scaling.make_data``: 8 numeric features for the
ball machines, 8 Boolean columns for the perceptrons), on 2 cores, within **4 GB of peak memory**
(``ru_maxrss`` of the whole process, imports and data included) and

* ``DecisionListMachine`` and ``BallSetCoveringMachine``: m = 20,000 within 2 minutes (and no
  slower than before the distances were streamed: 30 s and 41 s), m = 50,000, and m = 100,000
  within 20 minutes;
* ``KernelPerceptron`` and ``MaximalMarginPerceptron``: m = 20,000 and m = 50,000 within 15
  minutes.

Each child runs under an address-space limit of 8 GB, so that a regression fails instead of
swapping. A last row per ball machine checks that the streamed layout learns the list the full
layout learns, on m = 3000 (``max_memory_gb=None`` with sorted distances computed in full,
against the default fit, which streams past 2000 rows): ``identical`` compares the balls.

Run ``python -m benchmarks.run --only ball_memory [--quick]`` or ``python -m benchmarks.ball_memory``.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time

from companion.paths import ROOT

__all__ = ["run", "LEARNERS", "SIZES"]

#: Learner -> (sizes, seconds allowed at the largest size), default parameters.
SIZES = {
    "DecisionListMachine": (20000, 50000, 100000),
    "BallSetCoveringMachine": (20000, 50000, 100000),
    "KernelPerceptron": (20000, 50000),
    "MaximalMarginPerceptron": (20000, 50000),
}
LEARNERS = tuple(SIZES)
BALL_MACHINES = ("DecisionListMachine", "BallSetCoveringMachine")
QUICK_SIZES = (2500,)  # past 2000 rows, where a default ball fit streams
TARGET_GB = 4.0
#: seconds allowed per fit: (learner, m) -> target; the fit's timeout is twice the target
TARGET_S = {("DecisionListMachine", 20000): 120.0, ("BallSetCoveringMachine", 20000): 120.0,
            ("DecisionListMachine", 100000): 1200.0, ("BallSetCoveringMachine", 100000): 1200.0,
            ("KernelPerceptron", 50000): 900.0, ("MaximalMarginPerceptron", 50000): 900.0}
DEFAULT_TARGET_S = 1200.0
ADDRESS_LIMIT_GB = 8.0


def _worker(name: str, m: int, params: dict) -> dict:
    """Fit ``name(**params)`` on the learner-scaling data of ``m`` rows in this (fresh) process."""
    limit = int(ADDRESS_LIMIT_GB * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from benchmarks._synthetic import make_data
    from companion.discovery import all_estimators

    cls = dict(all_estimators("classifier"))[name]
    X, y = make_data(name, m)
    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start = time.perf_counter()
    model = cls(**params).fit(X, y)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    size = getattr(model, "n_balls_", getattr(model, "n_support_", None))
    return {"status": "ok", "fit_s": seconds, "peak_mb": peak, "baseline_mb": baseline, "size": size}


def _identical_worker(name: str, m: int) -> dict:
    """The default (streamed) fit and a full-layout fit of the same data learn the same balls."""
    from benchmarks._synthetic import make_data
    from companion.decision_list import SortedDistances
    from companion.discovery import all_estimators

    cls = dict(all_estimators("classifier"))[name]
    X, y = make_data(name, m)
    # scale=None: the precomputed distances are of X in its own units (both layouts alike)
    blocked = cls(scale=None).fit(X, y)
    full = cls(max_memory_gb=None, scale=None).fit(X, y, sorted_distances=SortedDistances.from_points(X))
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


def _load() -> str:
    """The 1-minute load average, written beside every timing (the machine may be shared)."""
    try:
        with open("/proc/loadavg") as handle:
            return handle.read().split()[0]
    except OSError:  # not Linux
        return "?"


def run(quick: bool = False, log=print) -> list[dict]:
    """Rows for ``make bench``: one fit per (learner, size) of :data:`SIZES`, then the layout identity."""
    identity_m = 2500 if quick else 3000  # past 2000 rows, where a default fit streams
    rows = []
    for name, sizes in SIZES.items():
        for m in (QUICK_SIZES if quick else sizes):
            target = TARGET_S.get((name, m), DEFAULT_TARGET_S)
            load = _load()
            result = _measure("fit", name, m, {}, timeout=2 * target)
            ok = result["status"] == "ok"
            seconds, peak_gb = (result["fit_s"], result["peak_mb"] / 1024) if ok else (None, None)
            what = "balls" if name in BALL_MACHINES else "support points"
            rows.append({
                "benchmark": f"{name} fit, default parameters (4 GB target)", "size": m,
                "ours_s": round(seconds, 2) if ok else None, "reference": "time target",
                "reference_s": target, "ratio": round(seconds / target, 3) if ok else None,
                "identical": None, "target": f"<= 1 and peak <= {TARGET_GB:.0f} GB",
                "peak_mb": round(result["peak_mb"], 1) if ok else None,
                "note": (f"peak {peak_gb:.2f} GB (fit {(result['peak_mb'] - result['baseline_mb']) / 1024:.2f} GB), "
                         f"{result['size']} {what}, load {load}") if ok else f"{result['status']}, load {load}",
            })
            log(f"[ball_memory] {name} m={m}: {rows[-1]['note']} {rows[-1]['ours_s']} s")
    for name in BALL_MACHINES:
        same = _measure("identical", name, identity_m, {}, timeout=600)
        rows.append({
            "benchmark": f"{name}: streamed layout vs full layout", "size": identity_m, "ours_s": None,
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
