"""``make bench``: every benchmark side by side in one run, reported as ratios.

Each ``benchmarks/<name>.py`` exposes ``run(quick=False)`` returning a list of result rows (dicts)
with at least ``benchmark``, ``size`` and ``ratio`` (ours / reference time, so < 1 means we are
faster) and, where a peer exists, ``identical`` (same model as the peer). This script calls them
in one process, adds each notebook's wall time under the papermill runner, and writes

* ``figures/benchmarks.csv`` and ``figures/benchmarks.md`` (the table benchmarks/README.md describes);
* ``figures/benchmarks_scaling.png`` (log-log time against problem size; the per-learner rows of
  ``learner_scaling`` have their own time-and-memory figure, ``benchmarks_learner_scaling.png``);
* the README's speed section (``benchmarks.report``).

Only a whole run publishes (rewrites ``figures/``, the README's speed section and
``docs/choosing.md``): a run with ``--quick``, ``--only`` or ``--skip-notebooks`` writes its files
under ``build/bench/figures`` (:data:`PARTIAL_RUN_FIGURES`), and ``COMPANION_FIGURES`` sends any
run's files where it points and leaves the README alone.

Each benchmark runs in a fresh interpreter (``--one NAME``, rows handed back as JSON): timings
taken after another benchmark's large allocations were measurably slower (the DLM at m = 200 took
6.4 ms instead of 4.3 ms behind the pyscm-ml comparison), which is the state of the earlier
benchmark, not a property of the measured code.

Usage: ``python -m benchmarks.run [--quick] [--only NAME ...] [--skip-notebooks]``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

import pandas as pd

from benchmarks.learner_scaling import ROW_PREFIX
from benchmarks.learner_scaling import publish as publish_learner_scaling
from benchmarks.report import REPRODUCE_TARGET_S, update_readme
from companion._notebook_profile import PUBLISHED_TIMES, read_published_times
from companion.paths import NOTEBOOKS, ROOT, figures_dir, save_figure

#: Where a partial run (``--quick``, ``--only``, ``--skip-notebooks``) writes when ``COMPANION_FIGURES`` is unset.
PARTIAL_RUN_FIGURES = ROOT / "build" / "bench" / "figures"

BENCHMARKS = ["prism_supermarket", "stumps_vs_pyscm", "dlm_scaling", "ball_memory", "widc_literal_search", "boolean_kernel_scaling",
              "ripper_vs_wittgenstein", "mask_perceptron_soybean", "learner_defaults",
              "learner_scaling", "sweep_throughput"]


def _notebook_times(quick: bool) -> list[dict]:
    """Wall time of each notebook under the runner, on a scratch copy (committed ones untouched).

    Each full-run time is set beside the last published run's (``figures/notebook_times.csv``,
    written by ``python -m companion.reproduce --profile``), its ratio ours / published; the
    run's cell and section times go to ``build/profile`` (the runner's ``--profile``).
    """
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        shutil.copytree(NOTEBOOKS, scratch / "notebooks")
        env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
        env["COMPANION_FIGURES"] = str(scratch / "figures")
        timings = scratch / "timings.csv"
        command = [sys.executable, "-m", "companion.reproduce", "--notebooks",
                   str(scratch / "notebooks"), "--timings", str(timings),
                   "--failed-dir", str(scratch / "failed"), "--profile"]
        if quick:  # a fast run never writes in place: keep its notebooks and figures in scratch too
            command += ["--fast", "--output-dir", str(scratch / "fast")]
        start = time.perf_counter()
        subprocess.run(command, cwd=ROOT, env=env, check=False)
        total = time.perf_counter() - start
        rows = pd.read_csv(timings).to_dict("records") if timings.exists() else []
    target = REPRODUCE_TARGET_S
    # a fast run has no published counterpart: only full runs are published
    published = {} if quick else read_published_times(ROOT / "figures" / PUBLISHED_TIMES)
    out = []
    for r in rows:
        before = published.get(r["notebook"])
        out.append({"benchmark": "notebook wall time" + (" (fast)" if quick else ""), "size": r["notebook"],
                    "ours_s": r["seconds"], "reference": "last published run" if before else "-",
                    "reference_s": before, "ratio": round(r["seconds"] / before, 3) if before else None,
                    "identical": r["ok"], "target": ""})
    out.append({"benchmark": "make reproduce total" + (" (fast)" if quick else ""), "size": "all",
                "ours_s": round(total, 1), "reference": "6.5-minute target", "reference_s": target,
                "ratio": round(total / target, 3), "identical": None, "target": "<= 1"})
    return out


def _call_with_quick(module, quick):
    return module.run(quick=quick)


def _dlm_rows(module, quick):
    """benchmarks.dlm_scaling returns one dict of per-size lists; turn it into rows."""
    sizes = (200, 400) if quick else tuple(range(200, 2001, 200))
    result = module.run(sizes=sizes, repeats=3 if quick else None)
    exponent = f"fit exponent {result['exponent_fit']:.2f} (floor {result['exponent_floor']:.2f})"
    return [
        {"benchmark": "DLM fit vs distance+argsort floor", "size": m, "ours_s": fit,
         "reference": "floor", "reference_s": floor, "ratio": ratio, "identical": None,
         "target": f"<= {result['target_ratio']}", "note": exponent}
        for m, fit, floor, ratio in zip(result["m"], result["fit_s"], result["floor_s"], result["ratio"])
    ]


_ADAPTERS = {"dlm_scaling": _dlm_rows}


def _run_one(name: str, quick: bool) -> list[dict]:
    """Rows of one benchmark, computed in this process."""
    module = importlib.import_module(f"benchmarks.{name}")
    result = _ADAPTERS.get(name, _call_with_quick)(module, quick)
    return result if isinstance(result, list) else [result]


def _run_isolated(name: str, quick: bool) -> list[dict]:
    """Rows of one benchmark, computed in a fresh interpreter (see the module docstring)."""
    with tempfile.TemporaryDirectory() as scratch:
        rows_file = Path(scratch) / "rows.json"
        command = [sys.executable, "-m", "benchmarks.run", "--one", name, "--rows-to", str(rows_file)]
        if quick:
            command.append("--quick")
        completed = subprocess.run(command, cwd=ROOT, check=False)
        if completed.returncode != 0 or not rows_file.exists():
            raise RuntimeError(f"benchmark {name} failed (exit status {completed.returncode})")
        return json.loads(rows_file.read_text())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only (smoke test)")
    parser.add_argument("--only", action="append", choices=BENCHMARKS, help="run only these")
    parser.add_argument("--skip-notebooks", action="store_true", help="do not time the notebooks")
    parser.add_argument("--one", choices=BENCHMARKS, help=argparse.SUPPRESS)  # worker mode
    parser.add_argument("--rows-to", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        rows = _run_one(args.one, args.quick)
        args.rows_to.write_text(json.dumps(rows, default=_json_scalar))
        return 0

    if (args.quick or args.only or args.skip_notebooks) and not os.environ.get("COMPANION_FIGURES"):
        # a partial report must not replace the committed one (the benchmarks' workers inherit this)
        os.environ["COMPANION_FIGURES"] = str(PARTIAL_RUN_FIGURES)
        print(f"[bench] a partial run: its files go to {PARTIAL_RUN_FIGURES}", flush=True)
    rows, failures = [], []
    for name in args.only or BENCHMARKS:
        if importlib.util.find_spec(f"benchmarks.{name}") is None:
            print(f"[bench] {name}: not present, skipped")
            continue
        print(f"[bench] {name} ...", flush=True)
        try:
            rows.extend(_run_isolated(name, args.quick))
        except Exception:  # one broken benchmark must not hide the others' numbers
            failures.append(name)
            traceback.print_exc()
            continue
    if not args.skip_notebooks and not args.only:
        print("[bench] notebooks ...", flush=True)
        rows.extend(_notebook_times(args.quick))

    table = pd.DataFrame(rows)
    if "learner_scaling" in (args.only or BENCHMARKS) and "learner_scaling" not in failures:
        table = publish_learner_scaling(table, quick=args.quick)  # its series continued by ball_memory's fits
    figures = figures_dir()
    figures.mkdir(parents=True, exist_ok=True)
    table.to_csv(figures / "benchmarks.csv", index=False)
    header = (f"Benchmarks, {time.strftime('%Y-%m-%d')}, {platform.processor() or platform.machine()}, "
              f"{os.cpu_count()} cores, Python {platform.python_version()}"
              + (" (quick mode)" if args.quick else ""))
    (figures / "benchmarks.md").write_text(f"{header}\n\n{_markdown(table)}\n")
    _scaling_figure(table)
    if figures == ROOT / "figures" and not args.quick and not args.only and not args.skip_notebooks:
        update_readme(ROOT / "README.md", table, header)  # the README quotes only a whole, published run
    print(table.to_string(index=False))
    if failures:
        print(f"[bench] failed: {', '.join(failures)}", file=sys.stderr)
    return 1 if failures else 0


def _json_scalar(value):
    """NumPy scalars in result rows, as plain Python numbers for JSON."""
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(f"cannot write {type(value).__name__} to JSON")


def _markdown(table: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table (pandas' to_markdown would need the tabulate package)."""
    cells = table.astype(object).where(table.notna(), "")
    lines = ["| " + " | ".join(map(str, table.columns)) + " |", "|" + "---|" * len(table.columns)]
    lines += ["| " + " | ".join(map(str, row)) + " |" for row in cells.itertuples(index=False)]
    return "\n".join(lines)


def _scaling_figure(table: pd.DataFrame) -> None:
    """Log-log time against numeric problem size, one line per benchmark with a numeric size."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sized = table[pd.to_numeric(table.get("size"), errors="coerce").notna()] if "size" in table else table.iloc[0:0]
    # one line per learner would drown the other benchmarks; learner_scaling draws its own figure
    sized = sized[~sized["benchmark"].astype(str).str.startswith(ROW_PREFIX)]
    if sized.empty:
        return
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, group in sized.groupby("benchmark"):
        group = group.assign(size=pd.to_numeric(group["size"])).sort_values("size", kind="stable")
        ax.loglog(group["size"], group["ours_s"], "o-", label=f"{name} (ours)")
        if group["reference_s"].notna().any():
            ax.loglog(group["size"], group["reference_s"], "x--", label=f"{name} (reference)")
    ax.set_xlabel("problem size")
    ax.set_ylabel("seconds")
    ax.legend(fontsize=7)
    save_figure(fig, "benchmarks_scaling")
    plt.close(fig)


if __name__ == "__main__":
    sys.exit(main())
