"""Benchmark: :class:`companion.stumps.SetCoveringStumps` (the SC learner) against pyscm-ml.

pyscm-ml (PyPI 1.1.2, A. Drouin, import name ``pyscm``; GPL-3) is the set-covering machine with
decision stumps written by the authors' group (Paper 05's SC learner, Section VI). It needs ``numpy<2`` and builds
a C++ extension, so it cannot share the project's environment: this script builds a separate
virtual environment ``build/pyscm-venv`` (``python3 -m venv`` + ``pip install 'numpy<2' pyscm-ml``;
pyscm-ml never enters ``.venv``) and runs pyscm-ml there in a subprocess, on the very same
arrays (saved as ``.npz``).

For each synthetic microarray (72 x 7129 and 500 x 20000, integer-valued expression levels so that
ties between values occur, as in Affymetrix data) and for conjunctions and disjunctions it

* asserts that both learners pick **identical stumps** (feature, threshold, ``>``/``<=``, in order),
  with ``tie_breaking="pyscm"`` and ``reuse_features=True`` on our side;
* reports the best fit time of each and the ratio ours / pyscm-ml (target ≤ 0.5). The
  repetitions are interleaved (pyscm-ml once, ours once, and again), so that a load change on a
  shared machine hits both learners alike.

Run ``python -m benchmarks.run --only stumps_vs_pyscm [--quick]`` or call :func:`run` (``make bench`` does).
"""

from __future__ import annotations

import json
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from companion.paths import ROOT
from companion.stumps import SetCoveringStumps

__all__ = ["run", "ensure_pyscm_venv", "synthetic_microarray"]

VENV = ROOT / "build" / "pyscm-venv"
SIZES = ((72, 7129), (500, 20000))
TARGET_RATIO = 0.5

_WORKER = r"""
import json, sys, time
import numpy as np
from pyscm import SetCoveringMachineClassifier

data = np.load(sys.argv[1])
X, y = data["X"], data["y"]
settings = json.loads(sys.argv[2])
out = {}
for model_type in settings["model_types"]:
    for _ in range(settings.get("warmup", 0)):  # untimed: first-call costs are not the fit's
        SetCoveringMachineClassifier(p=settings["p"], model_type=model_type, max_rules=settings["max_rules"]).fit(X, y)
    times = []
    for _ in range(settings["repeats"]):
        clf = SetCoveringMachineClassifier(p=settings["p"], model_type=model_type, max_rules=settings["max_rules"])
        start = time.perf_counter()
        clf.fit(X, y)
        times.append(time.perf_counter() - start)
    rules = [[int(r.feature_idx), float(r.threshold), str(r.kind)] for r in clf.model_.rules]
    out[model_type] = {"times": times, "rules": rules}
print(json.dumps(out))
"""


def ensure_pyscm_venv(venv: Path = VENV) -> Path:
    """Create ``venv`` with ``numpy<2`` and pyscm-ml if it is missing; return its python."""
    python = venv / "bin" / "python"
    probe = [str(python), "-c", "import pyscm, numpy; assert numpy.__version__ < '2'"]
    if python.exists() and subprocess.run(probe, capture_output=True).returncode == 0:
        return python
    venv.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["python3", "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", "numpy<2", "pyscm-ml"], check=True)
    subprocess.run(probe, check=True)
    return python


def synthetic_microarray(m: int, n: int, seed: int = 0):
    """Integer log-normal 'expression levels'; the label is a noisy conjunction of two genes."""
    rng = np.random.default_rng(seed)
    X = np.round(rng.lognormal(mean=5.0, sigma=1.0, size=(m, n)))
    informative = (X[:, 0] > np.median(X[:, 0])) & (X[:, 1] < np.quantile(X[:, 1], 0.8))
    y = (informative ^ (rng.random(m) < 0.1)).astype(np.int64)
    return X, y


def _ours(X, y, model_type, p, max_rules, repeats):
    times, model = [], None
    for _ in range(repeats):
        model = SetCoveringStumps(model_type=model_type, p=p, s=max_rules, tie_breaking="pyscm", reuse_features=True,
                                  length="greedy", stop_idle=False)  # pyscm-ml's greedy: every stump, up to s
        start = time.perf_counter()
        model.fit(X, y)
        times.append(time.perf_counter() - start)
    rules = [
        [int(f), float(t), "greater" if d > 0 else "less_equal"]
        for f, t, d in zip(model.features_, model.thresholds_, model.directions_)
    ]
    return times, rules


def run(quick: bool = False, sizes=SIZES, p: float = 1.0, max_rules: int = 10, repeats: int = 5, seed: int = 0):
    """Compare fit times and stumps; return one result row (dict) per size and model type.

    Parameters
    ----------
    quick : bool, default=False
        Only the smaller size, one repetition (smoke test).
    sizes : sequence of (m, n)
    p : float
        Penalty of the utility ``|Q| − p|R|``.
    max_rules : int
        ``s`` (ours) = ``max_rules`` (pyscm-ml).
    repeats : int
        Rounds of timing, each learner's fits alternating with the other's (5 fits per round and
        learner on the small array, 1 on the large one); the best of all fits is reported.

    Returns
    -------
    list of dict
        Keys ``benchmark``, ``size`` (m x n cells), ``shape``, ``ours_s``, ``reference``, ``reference_s``, ``ratio``,
        ``identical``, ``target``, ``n_rules`` (the format of ``benchmarks/run.py``).

    Raises
    ------
    AssertionError
        If the two learners' stumps differ.
    """
    if quick:
        sizes, repeats = sizes[:1], 1
    python = ensure_pyscm_venv()
    # One fit per model type per worker call; the calls alternate with ours (interleaved repeats).
    settings = {"p": p, "max_rules": max_rules, "repeats": 1, "warmup": 1, "model_types": ["conjunction", "disjunction"]}
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for m, n in sizes:
            X, y = synthetic_microarray(m, n, seed=seed)
            path = Path(scratch) / f"data_{m}x{n}.npz"
            np.savez(path, X=X, y=y)
            their_times = {t: [] for t in settings["model_types"]}
            our_times = {t: [] for t in settings["model_types"]}
            their_rules, our_rules = {}, {}
            for model_type in settings["model_types"]:  # warm-up, as the worker does
                _ours(X, y, model_type, p, max_rules, 1)
            # Fits of a few tens of milliseconds are timed several times per call on both sides:
            # a single fit right after the other side's process exits sees cold caches and
            # moved by a factor 2 between runs.
            per_call = 5 if m * n < 2_000_000 and not quick else 1
            settings_size = {**settings, "repeats": per_call}
            for _ in range(repeats):
                completed = subprocess.run(
                    [str(python), "-c", _WORKER, str(path), json.dumps(settings_size)],
                    capture_output=True, text=True, check=True,
                )
                reference = json.loads(completed.stdout.strip().splitlines()[-1])
                for model_type in settings["model_types"]:
                    their_times[model_type] += reference[model_type]["times"]
                    their_rules[model_type] = reference[model_type]["rules"]
                    times, our_rules[model_type] = _ours(X, y, model_type, p, max_rules, per_call)
                    our_times[model_type] += times
            for model_type in settings["model_types"]:
                identical = our_rules[model_type] == their_rules[model_type]
                # Best of all fits on each side (as timeit advises): background load on a shared
                # machine only ever adds time, and it moved the medians of the small array by 2x.
                ours_s = float(np.min(our_times[model_type]))
                ref_s = float(np.min(their_times[model_type]))
                rows.append({
                    "benchmark": f"SC stump {model_type} vs pyscm-ml",
                    "size": m * n,  # cells, numeric for the scaling figure
                    "shape": f"{m}x{n}",
                    "ours_s": round(ours_s, 4),
                    "reference": "pyscm-ml 1.1 (C++)",
                    "reference_s": round(ref_s, 4),
                    "ratio": round(ours_s / ref_s, 3),
                    "identical": identical,
                    "target": f"<= {TARGET_RATIO}",
                    "n_rules": len(our_rules[model_type]),
                })
                assert identical, (
                    f"stumps differ on {m}x{n} ({model_type}):\nours   {our_rules[model_type]}\n"
                    f"pyscm  {their_rules[model_type]}"
                )
    return rows
