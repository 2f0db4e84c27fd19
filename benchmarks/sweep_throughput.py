"""Throughput of ``python -m companion.sweep`` on a LocalCluster of 1 and of 2 worker processes.

The same sweep (notebook 02 in fast mode, the fastest notebook with a ``seed`` parameter) runs
twice from an empty folder: ``--workers 1`` and ``--workers 2``. Each row gives the wall time,
the tasks per hour and, for two workers, the parallel efficiency ``e = t1 / (2 t2)``. The
projection to N workers (each with a core of its own, as on a cluster) is ``N e`` times the
one-worker rate: the tasks are independent, so only the scheduler's overhead and the machine's
shared resources (measured by ``e`` here) stand between them and N-fold throughput.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

#: Workers whose projected throughput the note states.
PROJECTED_WORKERS = (8, 32, 100)


def _sweep_seconds(seeds: str, workers: int, out: Path) -> float:
    from companion import sweep

    start = time.perf_counter()
    status = sweep.main(["--only", "02", "--seeds", seeds, "--fast", "--workers", str(workers),
                         "--output-dir", str(out)])
    if status != 0:
        raise RuntimeError(f"the sweep on {workers} worker(s) failed (exit status {status})")
    return time.perf_counter() - start


def run(quick: bool = False) -> list[dict]:
    """Rows of the two sweeps (1 and 2 workers) with the projection in the note.

    Parameters
    ----------
    quick : bool, default=False
        Two seeds instead of four.

    Returns
    -------
    list of dict
    """
    n_tasks = 2 if quick else 4
    seeds = f"0:{n_tasks}"
    with tempfile.TemporaryDirectory(prefix="companion-sweep-bench-") as scratch:
        one = _sweep_seconds(seeds, 1, Path(scratch) / "one")
        two = _sweep_seconds(seeds, 2, Path(scratch) / "two")
        identical = all((Path(scratch) / "one" / name).read_bytes() == (Path(scratch) / "two" / name).read_bytes()
                        for name in ("02_seed_verdicts.csv", "02_seed_stability.csv"))
    rate = n_tasks / one * 3600  # tasks per hour on one worker
    efficiency = one / (2 * two)
    projection = ", ".join(f"{n} workers ~ {n * efficiency * rate:,.0f} tasks/h" for n in PROJECTED_WORKERS)
    name = f"sweep throughput, fast notebook 02, {n_tasks} seeds, LocalCluster"
    return [
        {"benchmark": name, "size": "1 worker", "ours_s": round(one, 1), "reference": "-", "reference_s": None,
         "ratio": None, "identical": None, "target": "", "note": f"{rate:,.0f} tasks/h"},
        {"benchmark": name, "size": "2 workers", "ours_s": round(two, 1), "reference": "1 worker",
         "reference_s": round(one, 1), "ratio": round(two / one, 3), "identical": identical, "target": "~ 0.5",
         "note": (f"{n_tasks / two * 3600:,.0f} tasks/h, parallel efficiency {efficiency:.2f}; "
                  f"projected, a core per worker: {projection}")},
    ]
