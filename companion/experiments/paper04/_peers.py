"""The paper's own peers, C4.5 (Weka's J48), JRip and CN2 (Orange3), run on our folds by
``peers/widc_peers.py`` and read with the folds checked; the majority class; the protocol on the
folds of other seeds.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

import numpy as np
import pandas as pd

import companion.datasets as datasets
from companion.evaluation import fold_hash, stratified_folds
from companion.experiments._seed_runs import SeedRuns, run_key
from companion.experiments.protocol import check_tidy
from companion.experiments.paper04._protocol import (
    BENCHMARK_SETS, Config, DOCUMENTED_NOMINAL, FoldMemo, TYPINGS, load_benchmark_set, run,
)


# --------------------------------------------------------------------------------------------
# The paper's own peers: C4.5 (Weka J48), RIPPER (Weka JRip), CN2 (Orange3), run on our folds
# --------------------------------------------------------------------------------------------

#: The peers run by ``peers/widc_peers.py`` (committed as data in ``data/widc_peers``): C4.5,
#: RIPPER, CN2 with its significance test (Orange's ``default_alpha = 0.05``), the same CN2 with
#: the test off (Orange's default ``alpha = 1``: a variant, not CN2 as published) and unordered
#: CN2 (significance test on, rules' class distributions counted on the whole training set, as
#: Clark & Boswell 1991 classify).
PEER_LEARNERS = ("J48", "JRip", "CN2", "CN2 (alpha=1)", "CN2-unordered")
#: J48 under other settings than Weka's defaults (``-C 0.25 -M 2``), run on the published split
#: only (fold seed 0, documented typing): the paper does not state its C4.5's settings, so the
#: claims on J48 are re-decided with a stronger and a weaker pruning confidence and a larger
#: minimum leaf (the variants ``J48 settings=...``).
J48_SETTINGS = ("J48 (-C 0.1)", "J48 (-C 0.5)", "J48 (-M 5)")


def fold_vector(y, *, n_splits=10, seed=0) -> np.ndarray:
    """Test fold of every row under :func:`companion.evaluation.stratified_folds` (as :func:`run`).

    Parameters
    ----------
    y : array-like
        Labels.
    n_splits : int, default=10
        Folds.
    seed : int, default=0
        Seed of the fold split (and of the learners).

    Returns
    -------
    numpy.ndarray of int
    """
    folds = np.full(len(y), -1, dtype=np.int64)
    for k, (_, test) in enumerate(stratified_folds(y, n_splits=n_splits, seed=seed)):
        folds[test] = k
    return folds



#: The fold seeds whose peer results are committed (``peers/widc_peers.py`` ``SEEDS``); the seed
#: variants of the claims (:func:`seed_variants`) are taken from them, so that every variant has
#: its peers without Java or Orange.
SEED_VARIANTS = (0, 1, 2, 3, 4)
#: How many other fold seeds re-decide every claim (the variants ``seed=s``).
N_SEED_VARIANTS = 4
#: The Python with Orange3 that runs ``peers/widc_peers.py run`` (environment variable
#: ``COMPANION_PEERS_PYTHON``; see ``peers/README.md``).
PEERS_PYTHON_ENV = "COMPANION_PEERS_PYTHON"
_DEFAULT_PEERS_PYTHON = "/work/peers-venv/bin/python"
_PEER_COLUMNS = ["dataset", "method", "seed", "fold", "errors", "n_test", "rules", "literals"]


def seed_variants(seed: int) -> tuple:
    """The fold seeds of the claims' seed variants for a main seed.

    The first :data:`N_SEED_VARIANTS` of :data:`SEED_VARIANTS` other than ``seed``.

    Parameters
    ----------
    seed : int
        The main protocol's fold seed.

    Returns
    -------
    tuple of int

    Examples
    --------
    >>> seed_variants(0), seed_variants(11)
    ((1, 2, 3, 4), (0, 1, 2, 3))
    """
    return tuple(s for s in SEED_VARIANTS if s != seed)[:N_SEED_VARIANTS]


def peers_command(seed: int, names=None, max_folds=None) -> str:
    """The commands that run the peers on the folds of ``seed`` (what a reader runs by hand).

    Parameters
    ----------
    seed : int
        Fold seed.
    names : sequence of str, optional
        Data sets (default: all).
    max_folds : int, optional
        Only the first folds.

    Returns
    -------
    str
    """
    only = f" --only {' '.join(names)}" if names else ""
    folds = f" --max-folds {max_folds}" if max_folds is not None else ""
    # the Python with Orange3 is named by its variable, not by this machine's path
    return (f".venv/bin/python peers/widc_peers.py export --seeds {seed}{only} && "
            f'"${PEERS_PYTHON_ENV}" peers/widc_peers.py run --seeds {seed}{only}{folds} --jobs 2')


def _peers_python() -> str:
    import os

    return os.environ.get(PEERS_PYTHON_ENV, _DEFAULT_PEERS_PYTHON)


def peers_environment() -> bool:
    """Whether the peers can be run here: ``java``, Weka's jar and a Python with Orange3.

    Returns
    -------
    bool
    """
    import shutil
    from pathlib import Path

    return bool(shutil.which("java")) and Path("/usr/share/java/weka.jar").is_file() and Path(_peers_python()).is_file()


def _live_folder(seed: int):
    from companion.paths import ROOT

    return ROOT / "build" / "widc_peers" / f"seed{seed}"


def _run_peers_live(seed, names, max_folds, typings, learners):
    """Run ``peers/widc_peers.py`` (``learners`` only) on the folds of ``seed`` into
    ``build/widc_peers/seed<s>/`` (never the tree)."""
    import subprocess
    import sys

    from companion.paths import ROOT

    folder = _live_folder(seed)
    work = folder / "work"
    script = str(ROOT / "peers" / "widc_peers.py")
    common = ["--seeds", str(seed), "--only", *names, "--out", str(folder), "--build", str(work)]
    subprocess.run([sys.executable, script, "export", *common, "--typings", *typings], check=True,
                   capture_output=True, text=True)
    folds = ["--max-folds", str(max_folds)] if max_folds is not None else []
    subprocess.run([_peers_python(), script, "run", *common, *folds, "--learners", *learners, "--jobs", "2"], check=True,
                   capture_output=True, text=True)


def _peer_source(seed, names, max_folds, typing, run_missing, learners):
    """``(results, folds or None, provenance)`` holding the peers ``learners`` of every data set of
    ``names`` on the folds of ``seed`` (the committed ones, or those run here into ``build/``), or None."""
    needed = set(range(10 if max_folds is None else min(max_folds, 10)))

    def covers(results, every_learner=False):
        if "seed" not in results.columns:
            results = results.assign(seed=0)
        for name in names:
            run_typing = typing if typing == "documented" or name in DOCUMENTED_NOMINAL else "documented"
            rows = results[(results["seed"] == seed) & (results["dataset"] == name) & (results["typing"] == run_typing)]
            if rows.empty or not needed <= set(rows["fold"]):
                return False
            # a run made here is complete for the peers asked (the committed ones hold what was
            # run at each seed: J48's other settings and CN2 with alpha = 1 at seed 0 only)
            if not every_learner:
                continue
            for learner in learners:
                if not needed <= set(rows.loc[rows["learner"] == learner, "fold"]):
                    return False
        return True

    committed = datasets.load_peers("widc")
    if covers(committed.results):
        return committed
    folder = _live_folder(seed)

    def live():
        if not (folder / "results.csv").is_file():
            return None
        results = pd.read_csv(folder / "results.csv")
        provenance = pd.read_csv(folder / "provenance.csv").set_index("key")["value"]
        return datasets.PeerResults(results, None, provenance) if covers(results, every_learner=True) else None

    found = live()
    if found is None and run_missing and peers_environment():
        _run_peers_live(seed, names, max_folds, ("documented", "numeric") if typing == "numeric" else ("documented",),
                        learners)
        found = live()
    return found


def peer_results(names=None, *, n_splits=10, seed=0, max_folds=None, typing="documented",
                 run_missing=True, learners=PEER_LEARNERS) -> pd.DataFrame:
    """The peers' fold results in :func:`run`'s tidy layout, after checking the folds.

    The committed results (``data/widc_peers``) hold the fold seeds of :data:`SEED_VARIANTS`.
    For another seed, the results run earlier into ``build/widc_peers/seed<s>/`` are read; if
    there are none and the peers' environment is present (:func:`peers_environment`), the peers
    are run there first (``peers/widc_peers.py``, the published settings); otherwise the frame is
    empty and the claims that need the peers are not evaluated (:func:`peers_command` says how to
    run them). For every data set the fold of every row is recomputed exactly as :func:`run` does
    and its hash compared with the one the peers recorded (and, at seed 0, with the committed
    ``folds.csv``): a ``ValueError`` names the first data set that differs. The nominal
    attributes the peers received are compared with those of :func:`load_benchmark_set` under
    ``typing``.

    Parameters
    ----------
    names : list of str, optional
        Data sets (default: every data set of :data:`BENCHMARK_SETS`).
    n_splits : int, default=10
        Folds; the peers ran on 10 (another number gives an empty frame).
    seed : int, default=0
        The fold seed.
    max_folds : int, optional
        Keep only the first ``max_folds`` folds (the notebook's fast mode).
    typing : {"documented", "numeric"}, default="documented"
        The typing of :func:`load_benchmark_set` (and :class:`Config`) to pair with. The peers
        were run under ``"numeric"`` only where it differs from ``"documented"``; elsewhere
        the documented run is returned for both.
    run_missing : bool, default=True
        Run the peers into ``build/`` when their results for ``seed`` are missing and the
        environment is present.
    learners : tuple of str, default=:data:`PEER_LEARNERS`
        The peers returned (:data:`J48_SETTINGS`: J48's other settings, at seed 0 only).

    Returns
    -------
    pandas.DataFrame
        Tidy, as :func:`run`'s frame (the two concatenate into one frame): columns ``dataset,
        method, seed, fold, errors, n_test, rules, literals`` (``method``: the peer; ``seed``:
        that of the fold split); empty when the peers did not run on these folds.
    """
    if typing not in TYPINGS:
        raise ValueError(f"typing must be one of {TYPINGS}, got {typing!r}")
    unknown = [n for n in (names or ()) if n not in BENCHMARK_SETS]
    if unknown:
        raise ValueError(f"no peer results for {unknown}: not a data set of BENCHMARK_SETS")
    names = list(BENCHMARK_SETS) if names is None else list(names)
    empty = pd.DataFrame({c: pd.Series(dtype=str if c in ("dataset", "method") else np.int64)
                          for c in _PEER_COLUMNS})
    if n_splits != 10 or not names or not learners:
        return empty
    source = _peer_source(seed, names, max_folds, typing, run_missing, learners)
    if source is None:
        return empty
    results, folds, provenance = source
    if "seed" not in results.columns:
        results = results.assign(seed=0)
    chosen = []
    for name in names:
        data = load_benchmark_set(name, typing=typing)
        ours = fold_vector(data.y, n_splits=n_splits, seed=seed)
        key = f"fold_sha256: {name}" if seed == 0 else f"fold_sha256: {name} (seed {seed})"
        if seed == 0 and folds is not None:
            committed = folds.loc[folds["dataset"] == name].sort_values("row")["fold"].to_numpy()
            if not np.array_equal(ours, committed):
                raise ValueError(f"the peers' folds of {name!r} differ from run's; rerun peers/widc_peers.py")
        if provenance.get(key) != fold_hash(ours):
            raise ValueError(f"the peers' folds of {name!r} (seed {seed}) differ from run's; rerun peers/widc_peers.py")
        here = results[(results["dataset"] == name) & (results["seed"] == seed)]
        run_typing = typing if (here["typing"] == typing).any() else "documented"
        nominal = " ".join(str(j) for j in np.flatnonzero(data.nominal)) or "none"
        if provenance.get(f"nominal columns: {name} ({run_typing})") != nominal:
            raise ValueError(f"the peers' nominal attributes of {name!r} differ from load_benchmark_set(typing="
                             f"{typing!r})'s; rerun peers/widc_peers.py")
        chosen.append(here[here["typing"] == run_typing])
    frame = pd.concat(chosen).copy()
    if max_folds is not None:
        frame = frame[frame["fold"] < max_folds]
    frame = frame.rename(columns={"learner": "method"})
    frame = frame[frame["method"].isin(learners)]
    return check_tidy(frame[_PEER_COLUMNS].reset_index(drop=True))


def majority_results(names=None, *, n_splits=10, seed=0, max_folds=None) -> pd.DataFrame:
    """The majority-class predictor on :func:`run`'s folds, in the same tidy layout.

    On each fold the class most frequent in the training folds (the first in sorted order on a
    tie) is predicted for every test row; ``rules`` and ``literals`` are 0. The baseline every
    learner of :func:`run` and :func:`peer_results` should beat.

    Parameters
    ----------
    names : sequence of str, optional
        Keys of :data:`BENCHMARK_SETS` (default: all).
    n_splits : int, default=10
        Folds.
    seed : int, default=0
        Seed of the fold split (and of the learners).
    max_folds : int, optional
        Only the first folds (the notebook's fast run).

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset, method ("majority class"), seed, fold, errors, n_test, rules, literals``.
    """
    names = list(BENCHMARK_SETS) if names is None else list(names)
    rows = []
    for name in names:
        y = load_benchmark_set(name).y
        for fold, (train, test) in enumerate(stratified_folds(y, n_splits=n_splits, seed=seed)[:max_folds]):
            labels, counts = np.unique(y[train], return_counts=True)
            majority = labels[int(np.argmax(counts))]
            rows.append(dict(dataset=name, method="majority class", seed=seed, fold=fold,
                             errors=int(np.count_nonzero(y[test] != majority)), n_test=len(test), rules=0, literals=0))
    return check_tidy(pd.DataFrame(rows))
#: The learners claim 3 is tested against: the paper's peers (C4.5 = J48; CN2-POE's family = CN2,
#: ordered and unordered), JRip, and the learners run here.
CLAIM_PEERS = ("J48", "CN2", "CN2-unordered", "JRip", "CART", "RIPPER", "PRISM")
#: The method name of :func:`majority_results`.
MAJORITY = "majority class"


def seed_runs(config: Config, seeds, *, n_jobs=1, memo: FoldMemo | None = None, peers=PEER_LEARNERS) -> dict:
    """The main protocol on the folds of other seeds: ``{seed: frame}`` for :func:`claims_variants`.

    Each frame is :func:`run` of WIDC (``config`` with that fold seed and ``others=()``), the
    peers on those folds (:func:`peer_results`; empty where they did not run) and the majority
    class, concatenated, as the main frame is. CART, PRISM and RIPPER are not re-run: they enter
    only observations, which carry no verdict to keep or lose (their rows are "not evaluated"
    under the seed variants).

    Parameters
    ----------
    config : Config
        The main protocol's configuration.
    seeds : sequence of int
        Fold seeds (:func:`seed_variants`).
    n_jobs : int, default=1
        Workers of :func:`run`.
    memo : FoldMemo, optional
        Handed to :func:`run` (:class:`FoldMemo`).
    peers : tuple of str, default=:data:`PEER_LEARNERS`
        The peers read (and run, where not committed): :func:`peer_results`' ``learners``.

    Returns
    -------
    dict
    """
    frames = {}
    for seed in seeds:
        other = replace(config, seed=seed, others=())
        frames[seed] = pd.concat([
            run(other, n_jobs=n_jobs, memo=memo),
            peer_results(list(config.datasets), n_splits=config.n_splits, seed=seed, max_folds=config.max_folds,
                         learners=peers),
            majority_results(config.datasets, n_splits=config.n_splits, seed=seed, max_folds=config.max_folds),
        ], ignore_index=True)
    return frames


# --------------------------------------------------------------------------------------------
# Committed runs at other fold seeds (data/seed_runs/04): the verdicts over 100 fold seeds
# --------------------------------------------------------------------------------------------

#: Fold seeds counted in the stability table, the main one included.
N_STABILITY_SEEDS = 100
#: The peers of a committed run: Weka's J48 (the central claims 3-J48 and 3s-J48). JRip, CN2 and
#: unordered CN2 are committed at the seeds of :data:`SEED_VARIANTS` only (``data/widc_peers``), and
#: their claims are not evaluated at the other seeds: with Orange's two CN2s a run costs about ten
#: minutes on two cores instead of under one, and JRip alone five times J48's time.
SEED_RUN_PEERS = ("J48",)


def _benchmark_digest(name: str) -> str:
    """sha-256 of a benchmark set as :func:`load_benchmark_set` encodes it (values, labels, types, names)."""
    data = load_benchmark_set(name)
    h = hashlib.sha256()
    for part in (np.ascontiguousarray(data.X, dtype=np.float64).tobytes(), repr(data.X.shape).encode(),
                 repr([str(v) for v in data.y]).encode(), np.asarray(data.nominal, dtype=bool).tobytes(),
                 repr(list(data.feature_names)).encode(), repr(sorted(data.category_names.items())).encode()):
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()


def seed_run_config(seed: int) -> Config:
    """The protocol a committed run at fold seed ``seed`` is made for: the notebook's full run
    (:class:`Config` with WIDC(o)'s constant at the estimator's default, which is what the notebook's
    strength study recommends), as :func:`seed_runs` runs it (no CART, PRISM or RIPPER)."""
    from companion.widc import DecisionCommittee

    return Config(seed=int(seed), optimistic_strength=DecisionCommittee().optimistic_strength, others=())


def seed_run_key(config: Config, digests: dict | None = None) -> str:
    """The key of :func:`seed_runs`' frame of ``config`` (its seed among its settings) in the committed runs.

    It holds every setting of ``config``, the peers run (:data:`SEED_RUN_PEERS`) and each data
    set's digest, so that a committed run is read only for the run it is.

    Parameters
    ----------
    config : Config
        The run's configuration (``others=()``, as :func:`seed_runs` runs it).
    digests : dict, optional
        ``{name: digest}`` of the data sets, when already computed.

    Returns
    -------
    str
    """
    digests = {} if digests is None else digests
    data = tuple((name, digests[name] if name in digests else _benchmark_digest(name)) for name in config.datasets)
    return run_key("paper04.seed_runs", config, SEED_RUN_PEERS, data)


def seed_run_keys(seeds) -> dict:
    """``{seed: seed_run_key(seed_run_config(seed))}`` (each data set digested once)."""
    digests = {name: _benchmark_digest(name) for name in Config().datasets}
    return {int(seed): seed_run_key(seed_run_config(seed), digests) for seed in seeds}


def seed_run(seed: int, n_jobs=1):
    """One committed run (what ``python -m companion.sweep --runs --only 04`` runs per seed):
    :func:`seed_runs`' frame at ``seed``: WIDC, the peers of :data:`SEED_RUN_PEERS` (run by
    ``peers/widc_peers.py`` in their own environment) and the majority class.

    Parameters
    ----------
    seed : int
    n_jobs : int, default=1

    Returns
    -------
    frame : pandas.DataFrame
    key : str
        :func:`seed_run_key`.
    config : str
        The protocol in words.

    Raises
    ------
    RuntimeError
        When the peers cannot run here (no ``java``, Weka's jar or the Orange Python): a run
        without them would commit a frame the claims on the peers cannot read.
    """
    config = seed_run_config(seed)
    frame = seed_runs(config, [config.seed], n_jobs=n_jobs, peers=SEED_RUN_PEERS)[config.seed]
    ran = set(frame.loc[frame["method"].isin(SEED_RUN_PEERS), "method"])
    if ran != set(SEED_RUN_PEERS):
        raise RuntimeError(f"paper04.seed_run: the peers did not run at seed {seed} (ran: {sorted(ran) or 'none'}); "
                           f"they need java, /usr/share/java/weka.jar and a Python with orange3 "
                           f"({PEERS_PYTHON_ENV}, default {_DEFAULT_PEERS_PYTHON}; peers/README.md)")
    return frame, seed_run_key(config), f"{config!r}, peers {', '.join(SEED_RUN_PEERS)}"


def committed_seed_frames(config: Config, seeds, seed_runs_folder: SeedRuns | None) -> tuple[dict, list[int]]:
    """The committed runs at ``seeds`` made for ``config``'s settings: ``({seed: frame}, missing seeds)``.

    None is computed here (a run needs the peers' environment and about a minute:
    ``python -m companion.sweep --runs --only 04`` makes them); a seed whose record was made for
    other settings or data is missing.

    Parameters
    ----------
    config : Config
        The main protocol (its seed is replaced by each of ``seeds``; ``others=()``).
    seeds : sequence of int
    seed_runs_folder : SeedRuns or None
        Where the runs are (None: none is read, every seed is missing).

    Returns
    -------
    tuple of (dict, list of int)
    """
    if seed_runs_folder is None or config.max_folds is not None:
        return {}, [int(s) for s in seeds]
    digests = {name: _benchmark_digest(name) for name in config.datasets}
    frames, missing = {}, []
    for seed in seeds:
        frame = seed_runs_folder.read(seed, seed_run_key(replace(config, seed=int(seed), others=()), digests))
        if frame is None:
            missing.append(int(seed))
        else:
            frames[int(seed)] = frame
    return frames, missing
