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

It also measures what a user waits for inside cross-validation, the **summed cold fits**
(:func:`cold_fits`): on the three microarray sets of Paper 05 that are stored here (colon,
leukaemia Golub, medulloblastoma C_MD), a stratified 5-fold split, and for every fold and every
``(p, s)`` of ``p ∈ {0.5, 1, 2}``, ``s ∈ {3, 5, 10}`` a *fresh* estimator fitted on the fold's
training rows (45 fits per set, the same settings as above on both sides); the wall time of each
``fit`` call is summed per side (pyscm-ml's subprocess start-up and the fold slicing are outside
the timers on both sides; everything ``fit`` does, validation included, is inside). The rounds
alternate between pyscm-ml's 45 fits and ours, set by set; the best summed time of each side is
reported, with every round's ratio in the row's ``note``. The stumps of every fit must agree.
Those rounds run in this (warm) process, after an untimed first fit on each side.

Beside them, :func:`fresh_process_fits` measures the same 135 fits as a user meets them the first
time: each side in a **fresh interpreter** that imports its learner (untimed), then fits every
fold and ``(p, s)`` of the three sets once (the *first round*: no warm-up fit, no
:class:`~companion._stump_search.SortCache` or other state shared between fits; a new estimator per fit)
and reports the wall time of each ``fit``. Fresh processes of the two sides alternate; the best
sum of each side is reported, every process pair's ratio in the ``note``.

:func:`naive_cold_fits` does the same for :class:`~companion.stumps.OccamStumps` and
:class:`~companion.stumps.PacBayesStumps` against their naive references
(``tests/_naive.py``: explicit loops over attributes, thresholds and directions), on the first
``NAIVE_GENES`` genes of each set (the loops would take hours on all of them).

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

__all__ = ["run", "ensure_pyscm_venv", "synthetic_microarray", "cold_fits", "fresh_process_fits", "naive_cold_fits",
           "cold_fit_data"]

VENV = ROOT / "build" / "pyscm-venv"
SIZES = ((72, 7129), (500, 20000))
TARGET_RATIO = 0.5
#: The microarray sets of the summed-cold-fit measurement (loaders of companion.datasets).
COLD_SETS = ("colon", "golub", "c_md")
#: The (p, s) grid of every fold's fits, as a user's grid search would run it.
COLD_GRID = tuple((p, s) for p in (0.5, 1.0, 2.0) for s in (3, 5, 10))
COLD_FOLDS = 5
#: Genes (the first ones) of the naive references' cold fits.
NAIVE_GENES = 10

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


_COLD_WORKER = r"""
import json, sys, time
import numpy as np
from pyscm import SetCoveringMachineClassifier

data = np.load(sys.argv[1])
X, y = data["X"], data["y"]
settings = json.loads(sys.argv[2])
folds = [(X[data[f"train_{k}"]], y[data[f"train_{k}"]]) for k in range(settings["n_folds"])]
X0, y0 = folds[0]
SetCoveringMachineClassifier(p=1.0, max_rules=3).fit(X0, y0)  # untimed: first-call costs
times, rules = [], []
for X_train, y_train in folds:
    for p, s in settings["grid"]:
        clf = SetCoveringMachineClassifier(p=p, model_type="conjunction", max_rules=s)
        start = time.perf_counter()
        clf.fit(X_train, y_train)
        times.append(time.perf_counter() - start)
        rules.append([[int(r.feature_idx), float(r.threshold), str(r.kind)] for r in clf.model_.rules])
print(json.dumps({"times": times, "rules": rules}))
"""


#: One side's first round in a fresh interpreter (module docstring): argv = side, grid (JSON), the
#: sets' .npz files. The learner is imported before any timer; there is no warm-up fit.
_FRESH_WORKER = r"""
import json, sys, time
import numpy as np

side, grid, paths = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3:]
if side == "pyscm":
    from pyscm import SetCoveringMachineClassifier

    def make(p, s):
        return SetCoveringMachineClassifier(p=p, model_type="conjunction", max_rules=s)

    def stumps(clf):
        return [[int(r.feature_idx), float(r.threshold), str(r.kind)] for r in clf.model_.rules]
else:
    from benchmarks.stumps_vs_pyscm import _our_model, _our_rules

    def make(p, s):
        return _our_model("conjunction", p, s)

    stumps = _our_rules
out = []
for path in paths:
    data = np.load(path)
    X, y = data["X"], data["y"]
    folds = [(np.ascontiguousarray(X[data[key]]), y[data[key]]) for key in sorted(data.files) if key.startswith("train_")]
    times, rules = [], []
    for X_train, y_train in folds:
        for p, s in grid:
            clf = make(p, s)
            start = time.perf_counter()
            clf.fit(X_train, y_train)
            times.append(time.perf_counter() - start)
            rules.append(stumps(clf))
    out.append({"times": times, "rules": rules})
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


def _our_model(model_type, p, max_rules):
    """Our SC with pyscm-ml's settings: its tie rule, reuse, its greedy (every stump, up to s)."""
    return SetCoveringStumps(model_type=model_type, p=p, s=max_rules, tie_breaking="pyscm", reuse_features=True, threshold="observed",
                             length="greedy", stop_idle=False)


def _our_rules(model):
    return [
        [int(f), float(t), "greater" if d > 0 else "less_equal"]
        for f, t, d in zip(model.features_, model.thresholds_, model.directions_)
    ]


def cold_fit_data(name: str, seed: int = 0, n_folds: int = COLD_FOLDS):
    """``X``, ``y`` (0/1) of a microarray set and the training rows of a stratified ``n_folds``-fold split."""
    from sklearn.model_selection import StratifiedKFold

    import companion.datasets as datasets

    X, y = getattr(datasets, f"load_{name}")()
    X = np.ascontiguousarray(np.asarray(X, dtype=np.float64))
    y = np.unique(np.asarray(y), return_inverse=True)[1].astype(np.int64)
    splitter = StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=seed)
    return X, y, [train for train, _ in splitter.split(X, y)]


def _our_cold_fits(folds, grid):
    """Wall time and stumps of a fresh SC fit per fold and (p, s) (the slicing outside the timer)."""
    times, rules = [], []
    for X_train, y_train in folds:
        for p, s in grid:
            model = _our_model("conjunction", p, s)
            start = time.perf_counter()
            model.fit(X_train, y_train)
            times.append(time.perf_counter() - start)
            rules.append(_our_rules(model))
    return times, rules


def cold_fits(quick: bool = False, sets=COLD_SETS, grid=COLD_GRID, rounds: int = 3, seed: int = 0):
    """Summed cold-fit times of ours and pyscm-ml over a CV's fits (module docstring); result rows.

    Parameters
    ----------
    quick : bool, default=False
        One set (colon), one round.
    sets : sequence of str
        Names of ``companion.datasets`` loaders (``load_<name>``).
    grid : sequence of (p, s)
        The fits of every fold.
    rounds : int, default=3
        Interleaved rounds (pyscm-ml's fits of a set, then ours); the best sum of each side is kept.
    seed : int, default=0
        Seed of the fold split.

    Returns
    -------
    list of dict
        One row per set and one for all sets together, in the format of ``benchmarks/run.py``
        (``ours_s``/``reference_s``: best summed seconds; ``note``: every round's ratio).

    Raises
    ------
    AssertionError
        If the two learners' stumps differ on some fit.
    """
    if quick:
        sets, rounds = sets[:1], 1
    python = ensure_pyscm_venv()
    _our_cold_fits([(np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0]]), np.array([0, 1, 1]))], [(1.0, 3)])  # imports
    rows, totals = [], {"ours": np.zeros(rounds), "theirs": np.zeros(rounds)}
    settings = {"grid": [list(point) for point in grid], "n_folds": COLD_FOLDS}
    with tempfile.TemporaryDirectory() as scratch:
        for name in sets:
            X, y, trains = cold_fit_data(name, seed=seed)
            path = Path(scratch) / f"{name}.npz"
            np.savez(path, X=X, y=y, **{f"train_{k}": train for k, train in enumerate(trains)})
            folds = [(np.ascontiguousarray(X[train]), y[train]) for train in trains]
            _our_cold_fits(folds[:1], grid[:1])  # untimed, as the worker's first fit
            ours, theirs = np.zeros(rounds), np.zeros(rounds)
            for index in range(rounds):
                completed = subprocess.run(
                    [str(python), "-c", _COLD_WORKER, str(path), json.dumps(settings)],
                    capture_output=True, text=True, check=True,
                )
                reference = json.loads(completed.stdout.strip().splitlines()[-1])
                times, rules = _our_cold_fits(folds, grid)
                ours[index], theirs[index] = sum(times), sum(reference["times"])
                differing = [k for k, (a, b) in enumerate(zip(rules, reference["rules"])) if a != b]
                assert not differing and len(rules) == len(reference["rules"]), (
                    f"cold fits on {name}: stumps differ on fit {differing[:1]}:\n"
                    f"ours   {rules[differing[0]] if differing else rules}\npyscm  "
                    f"{reference['rules'][differing[0]] if differing else reference['rules']}"
                )
            totals["ours"] += ours
            totals["theirs"] += theirs
            rows.append(_cold_row(f"SC cold fits of a {COLD_FOLDS}-fold CV ({len(grid)} per fold) vs pyscm-ml",
                                  name, X.shape, ours, theirs, len(folds) * len(grid)))
    if len(sets) > 1:
        rows.append(_cold_row(f"SC cold fits of a {COLD_FOLDS}-fold CV ({len(grid)} per fold) vs pyscm-ml",
                              "+".join(sets), None, totals["ours"], totals["theirs"],
                              len(sets) * COLD_FOLDS * len(grid)))
    return rows


def fresh_process_fits(quick: bool = False, sets=COLD_SETS, grid=COLD_GRID, rounds: int = 3, seed: int = 0):
    """Summed fit times of the CV of :func:`cold_fits`, each side's first round in a fresh process.

    Each round starts one interpreter per side (pyscm-ml's in its venv, ours with this
    project's Python), which imports the learner outside the timers and then fits every fold and
    ``(p, s)`` of every set once, a new estimator per fit, nothing shared between fits (no
    :class:`~companion._stump_search.SortCache`, no warm-up fit). The rounds alternate the sides; the
    best sum of each is kept (a busy machine only ever adds time).

    Parameters
    ----------
    quick : bool, default=False
        One set (colon), one round.
    sets, grid, seed
        As :func:`cold_fits`.
    rounds : int, default=3
        Fresh-process pairs.

    Returns
    -------
    list of dict
        One row per set and one for all sets together (``note``: every pair's ratio).

    Raises
    ------
    AssertionError
        If the two learners' stumps differ on some fit.
    """
    import sys

    if quick:
        sets, rounds = sets[:1], 1
    python = ensure_pyscm_venv()
    benchmark = f"SC fits of a {COLD_FOLDS}-fold CV ({len(grid)} per fold), first round in a fresh process, vs pyscm-ml"
    ours, theirs = np.zeros((rounds, len(sets))), np.zeros((rounds, len(sets)))
    shapes = []
    with tempfile.TemporaryDirectory() as scratch:
        paths = []
        for name in sets:
            X, y, trains = cold_fit_data(name, seed=seed)
            shapes.append(X.shape)
            paths.append(str(Path(scratch) / f"{name}.npz"))
            np.savez(paths[-1], X=X, y=y, **{f"train_{k}": train for k, train in enumerate(trains)})
        argv = [json.dumps([list(point) for point in grid]), *paths]
        for index in range(rounds):
            results = {}
            for side, interpreter in (("pyscm", str(python)), ("ours", sys.executable)):
                completed = subprocess.run([interpreter, "-c", _FRESH_WORKER, side, *argv],
                                           capture_output=True, text=True, check=True, cwd=ROOT)
                results[side] = json.loads(completed.stdout.strip().splitlines()[-1])
            for j, name in enumerate(sets):
                mine, reference = results["ours"][j], results["pyscm"][j]
                assert mine["rules"] == reference["rules"], f"fresh-process fits on {name}: the stumps differ"
                ours[index, j], theirs[index, j] = sum(mine["times"]), sum(reference["times"])
    n_fits = COLD_FOLDS * len(grid)
    rows = [_cold_row(benchmark, name, shape, ours[:, j], theirs[:, j], n_fits, kind="fresh")
            for j, (name, shape) in enumerate(zip(sets, shapes))]
    if len(sets) > 1:
        rows.append(_cold_row(benchmark, "+".join(sets), None, ours.sum(axis=1), theirs.sum(axis=1),
                              n_fits * len(sets), kind="fresh"))
    return rows


#: Settings of the naive references' cold fits: the paper's greedy as such on both sides.
_NAIVE_SETTINGS = {"length": "greedy", "stop_idle": False, "tie_breaking": "pyscm", "reuse_features": False}


def naive_cold_fits(quick: bool = False, sets=COLD_SETS, grid=COLD_GRID, n_genes: int = NAIVE_GENES, seed: int = 0):
    """Summed cold-fit times of OccamStumps and PacBayesStumps against their naive references.

    The CV of :func:`cold_fits` on the first ``n_genes`` genes of each set; on both sides the
    paper's greedy (``length="greedy"``, ``stop_idle=False``), default ``eta`` (1) and
    ``margin_gaps`` ((1, 2, 4, 8), distinct values), each attribute used once. One round (the
    loops are deterministic and far slower than ours; ours is timed before and after them,
    the better sum kept). Returns one row per learner (all sets together).

    Raises
    ------
    AssertionError
        If a learner and its reference pick different stumps on some fit.
    """
    from tests._naive import naive_cover_fit, naive_pac_bayes_fit

    from companion.stumps import OccamStumps, PacBayesStumps

    if quick:
        sets, grid, n_genes = sets[:1], grid[:2], 10
    learners = {
        "Occam": (OccamStumps, lambda X, y, p, s: naive_cover_fit(X, y, p, s, variant="occam", eta=1.0)),
        "PAC-Bayes": (PacBayesStumps, lambda X, y, p, s: naive_pac_bayes_fit(X, y, p, s, 1.0, (1, 2, 4, 8))),
    }
    rows = []
    for label, (cls, naive) in learners.items():
        ours_total, naive_total, n_fits = np.zeros(2), 0.0, 0
        for name in sets:
            X, y, trains = cold_fit_data(name, seed=seed)
            folds = [(np.ascontiguousarray(X[train, :n_genes]), y[train]) for train in trains]
            cls(**_NAIVE_SETTINGS, s=1).fit(*folds[0])  # untimed first call
            for X_train, y_train in folds:
                for p, s in grid:
                    models = []
                    for index in range(2):
                        model = cls(**_NAIVE_SETTINGS, p=p, s=s)
                        start = time.perf_counter()
                        model.fit(X_train, y_train)
                        ours_total[index] += time.perf_counter() - start
                        models.append(model)
                        if index == 0:
                            start = time.perf_counter()
                            expected = naive(X_train, y_train, p, s)
                            naive_total += time.perf_counter() - start
                    n_fits += 1
                    model = models[0]
                    if label == "Occam":
                        got, want = model.thresholds_, [t for _, t, _ in expected]
                        pairs = [(f, d) for f, _, d in expected]
                    else:
                        got, want = model.intervals_, [(a, b) for _, a, b, _ in expected]
                        pairs = [(f, d) for f, _, _, d in expected]
                    same = [(int(f), int(d)) for f, d in zip(model.features_, model.directions_)] == pairs and (
                        np.allclose(got, want, rtol=1e-12, atol=0) if len(pairs) else True)
                    assert same, f"{label} cold fit on {name} (p={p}, s={s}) differs from the naive reference"
        ours_s = float(ours_total.min())
        rows.append({
            "benchmark": f"{label} stump cold fits of a {COLD_FOLDS}-fold CV vs naive reference",
            "size": "+".join(sets),
            "shape": f"first {n_genes} genes",
            "ours_s": round(ours_s, 4),
            "reference": "naive loops (tests/_naive.py)",
            "reference_s": round(naive_total, 3),
            "ratio": round(ours_s / naive_total, 5),
            "identical": True,
            "target": "< 1",
            "n_fits": n_fits,
            "note": f"summed wall time of {n_fits} cold fits ({len(grid)} (p, s) per fold), the paper's greedy",
        })
    return rows


def _cold_row(benchmark, name, shape, ours, theirs, n_fits, reference="pyscm-ml 1.1 (C++)", identical=True, kind="warm"):
    rounds = ", ".join(f"{a / b:.3f}" for a, b in zip(ours, theirs))
    if kind == "fresh":
        note = (f"summed wall time of {n_fits} fits, each side's first round in a fresh process (no warm-up, "
                f"nothing reused between fits), best of {len(ours)} processes; ratio per process pair: {rounds}")
    else:
        note = (f"summed wall time of {n_fits} cold fits in a warm process, best of {len(ours)} rounds; "
                f"ratio per round: {rounds}")
    return {
        "benchmark": benchmark,
        "size": name,
        "shape": "" if shape is None else f"{shape[0]}x{shape[1]}",
        "ours_s": round(float(np.min(ours)), 4),
        "reference": reference,
        "reference_s": round(float(np.min(theirs)), 4),
        "ratio": round(float(np.min(ours) / np.min(theirs)), 3),
        "identical": identical,
        "target": f"<= {TARGET_RATIO}" if reference.startswith("pyscm") else "< 1",
        "n_fits": int(n_fits),
        "note": note,
    }


def _ours(X, y, model_type, p, max_rules, repeats):
    times, model = [], None
    for _ in range(repeats):
        model = _our_model(model_type, p, max_rules)
        start = time.perf_counter()
        model.fit(X, y)
        times.append(time.perf_counter() - start)
    return times, _our_rules(model)


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
        ``identical``, ``target``, ``n_rules`` (the format of ``benchmarks/run.py``); then the rows of
        :func:`fresh_process_fits` (a CV's fits, first round in a fresh process), of
        :func:`cold_fits` (the same fits, best of warm rounds) and of :func:`naive_cold_fits`.

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
    return (rows + fresh_process_fits(quick=quick, seed=seed) + cold_fits(quick=quick, seed=seed)
            + naive_cold_fits(quick=quick, seed=seed))
