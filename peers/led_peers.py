"""Weka J48 (C4.5) on notebook 03's LED draws (digits 0-4 against 5-9, 500 training / 5000 test).

Two stages, as ``peers/widc_peers.py``:

``export`` (run with the project's ``.venv/bin/python``)
    Regenerates the draws of ``companion.experiments.paper03.run(Config(seed=s))`` for every seed
    ``s`` of ``--seeds`` (default ``2001-2100,11-19``: the notebook's seed, its eight seed variants
    ``seed + 1 .. seed + 8`` and the other seeds up to ``seed + 99``, whose runs are committed in
    ``data/seed_runs/03``, and ``-p seed 11`` with its eight; draw ``k`` from the ``k``-th child
    of ``SeedSequence(s)``, bit for bit) and writes each as ``build/led_peers/draw_<s>_<k>.npz``
    with its hash ``paper03.draw_hash``.

``run`` (run with any Python that has numpy and pandas, e.g. ``/work/peers-venv/bin/python``;
needs ``java`` and ``/usr/share/java/weka.jar``)
    On every draw: what ``java -cp weka.jar weka.classifiers.trees.J48 -C 0.25 -M 2 -t train.arff
    -T test.arff`` does (Weka's defaults; the seven segments are nominal ``{0,1}`` attributes, the
    class ``{-1,1}``), all draws in one JVM (``prism_peers.run_jobs``). Writes
    ``data/led_peers/results.csv`` (``seed, draw, n_train, n_test, train_errors, test_errors,
    leaves, size, depth, options``) and ``data/led_peers/provenance.csv`` (date, versions, command, the
    protocol's parameters and the sha256 of every draw, recomputed here from the arrays written
    to the ARFF files). On the draws of ``--variant-seeds`` (default ``2001,11``: the notebook's
    main draws and ``-p seed 11``'s) J48 also runs at each setting of :data:`VARIANT_OPTIONS`
    (un-pruned ``-U``; the confidence ``-C`` and the leaf size ``-M`` around Weka's defaults),
    in the same JVM; ``options`` names the setting of each row (Weka's defaults first).

J48 has no depth limit; with seven two-valued nominal attributes no path can test an attribute
twice, so its trees have depth at most 7: it is the analogue of the notebook's depth-7 trees only.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import platform
import re
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from prism_peers import _parse_splits, run_jobs  # noqa: E402
from widc_peers import J48_OPTIONS, WEKA_JAR, weka_versions  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "data" / "led_peers"
BUILD = ROOT / "build" / "led_peers"
#: The protocol seeds run by default: notebook 03's seed 2001, its seed variants 2002-2009 and the
#: other seeds judged up to 2100 (``data/seed_runs/03``), and ``-p seed 11`` with its variants 12-19.
DEFAULT_SEEDS = "2001-2100,11-19"
#: J48's other settings, run on the main draws (the paper does not give C4.5's): un-pruned (``-U``,
#: the paper's "un-pruned decision trees"), the pruning confidence ``-C`` and the minimum leaf size
#: ``-M`` on either side of Weka's defaults ``-C 0.25 -M 2``.
VARIANT_OPTIONS = (["-U", "-M", "2"], ["-C", "0.1", "-M", "2"], ["-C", "0.5", "-M", "2"], ["-C", "0.25", "-M", "1"],
                   ["-C", "0.25", "-M", "5"])
#: The protocol seeds whose draws J48 also runs at :data:`VARIANT_OPTIONS`.
VARIANT_SEEDS = "2001,11"


def draw_hash(X, y, X_test, y_test) -> str:
    """sha256 of a draw written as text: one ``bits,label`` line per row, training rows first.

    The same function as ``companion.experiments.paper03.draw_hash`` (which the loader uses).
    """
    lines = ["".join(str(int(b)) for b in row) + f",{int(label)}" for row, label in zip(X, y)]
    lines.append("#")
    lines += ["".join(str(int(b)) for b in row) + f",{int(label)}" for row, label in zip(X_test, y_test)]
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


# ----------------------------------------------------------------------------------- export


def export(seeds: str = DEFAULT_SEEDS):
    sys.path.insert(0, str(ROOT))
    from companion.experiments import paper03
    from companion.experiments.paper03._protocol import draw_data, draw_hash as protocol_draw_hash

    BUILD.mkdir(parents=True, exist_ok=True)
    for old in BUILD.glob("draw_*.npz"):
        old.unlink()
    base = paper03.Config()
    for seed in _parse_splits(seeds):
        config = paper03.Config(seed=seed)
        for k in range(config.n_draws):
            X, y, X_test, y_test = draw_data(config, k)
            digest = protocol_draw_hash(X, y, X_test, y_test)
            assert digest == draw_hash(X, y, X_test, y_test)
            np.savez(BUILD / f"draw_{seed}_{k}.npz", X=X, y=y, X_test=X_test, y_test=y_test)
        print(f"seed {seed}: {config.n_draws} draws of {config.n_train} / {config.n_test} rows")
    parameters = {name: getattr(base, name) for name in ("n_draws", "n_train", "n_test", "noise")}
    parameters["seeds"] = seeds
    (BUILD / "config.json").write_text(json.dumps(parameters), encoding="utf-8")


# ----------------------------------------------------------------------------------- run


def write_arff(path, X, y):
    lines = ["@relation led", ""]
    lines += [f"@attribute s{j + 1} {{0,1}}" for j in range(X.shape[1])]
    lines += ["@attribute class {-1,1}", "", "@data"]
    lines += [",".join(str(int(b)) for b in row) + f",{int(label)}" for row, label in zip(X, y)]
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def _errors(out: str, section: str) -> int:
    part = out.split(section, 1)[1]
    return int(re.search(r"Incorrectly Classified Instances\s+(\d+)", part).group(1))


def tree_depth(out: str) -> int:
    """Depth of J48's printed tree (0 for a single leaf)."""
    body = out.split("------------------", 1)[1].split("Number of Leaves", 1)[0]
    depths = [line.count("|") + 1 for line in body.splitlines() if re.search(r"\(\d", line)]
    return max(depths) if depths and int(re.search(r"Number of Leaves\s*:\s*(\d+)", out).group(1)) > 1 else 0


def run(variant_seeds: str = VARIANT_SEEDS):
    import pandas as pd

    parameters = json.loads((BUILD / "config.json").read_text())
    settings = [J48_OPTIONS, *VARIANT_OPTIONS]
    variant_set = set(_parse_splits(variant_seeds))
    rows, hashes, jobs, data = [], {}, [], {}
    with tempfile.TemporaryDirectory() as folder:
        for seed in _parse_splits(parameters["seeds"]):
            for k in range(parameters["n_draws"]):
                z = np.load(BUILD / f"draw_{seed}_{k}.npz")
                X, y, X_test, y_test = z["X"], z["y"], z["X_test"], z["y_test"]
                hashes[(seed, k)] = draw_hash(X, y, X_test, y_test)
                train, test = Path(folder) / f"train_{seed}_{k}.arff", Path(folder) / f"test_{seed}_{k}.arff"
                write_arff(train, X, y)
                write_arff(test, X_test, y_test)
                for index, options in enumerate(settings):
                    if index == 0 or seed in variant_set:
                        jobs.append((f"{seed}|{k}|{index}", "weka.classifiers.trees.J48", options, train, test))
                        data[(index, seed, k)] = (len(y), len(y_test))
        outputs = run_jobs(jobs)
    for (index, seed, k), (n_train, n_test) in sorted(data.items()):
        out = outputs[f"{seed}|{k}|{index}"]
        rows.append(dict(seed=seed, draw=k, n_train=n_train, n_test=n_test,
                         train_errors=_errors(out, "=== Error on training data ==="),
                         test_errors=_errors(out, "=== Error on test data ==="),
                         leaves=int(re.search(r"Number of Leaves\s*:\s*(\d+)", out).group(1)),
                         size=int(re.search(r"Size of the tree\s*:\s*(\d+)", out).group(1)),
                         depth=tree_depth(out), options=" ".join(settings[index])))
    print(f"{len(rows)} draws done", flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(OUT / "results.csv", index=False)
    provenance = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "version: python": platform.python_version(),
        **{f"version: {name}": value for name, value in weka_versions().items()},
        **{f"config: {name}": str(value) for name, value in parameters.items()},
        "draws": "companion.experiments.paper03.draw_data(Config(seed=s), k): draw k of paper03.run(Config(seed=s)), "
                 "from the k-th child of numpy.random.SeedSequence(s)",
        **{f"draw_sha256: {seed}/{k}": digest for (seed, k), digest in hashes.items()},
        "command: J48": f"java -Xmx1g -cp {WEKA_JAR} weka.classifiers.trees.J48 {' '.join(J48_OPTIONS)} "
                        "-t train.arff -T test.arff (segments nominal {0,1}, class {-1,1})",
        "command: J48 settings": "the same command with each of " + "; ".join(" ".join(o) for o in VARIANT_OPTIONS)
                                 + f" in place of {' '.join(J48_OPTIONS)}, on the draws of the seeds {variant_seeds} "
                                 "(the column options of results.csv)",
        "runner": "one JVM for every draw: peers/prism_peers.py DRIVER (Classifier.forName, buildClassifier, "
                  "Evaluation.evaluateModel on the training and the test set), as the command above",
        "sizes": "leaves = J48's Number of Leaves; size = its Size of the tree (all nodes); depth = longest path",
        "depth": "J48 has no depth limit; with 7 two-valued nominal attributes its depth is at most 7, the "
                 "notebook's d = 7 trees",
        "command: regenerate": f".venv/bin/python peers/led_peers.py export --seeds {parameters['seeds']} && "
                               f".venv/bin/python peers/led_peers.py run --variant-seeds {variant_seeds}",
    }
    pd.DataFrame({"key": list(provenance), "value": list(provenance.values())}).to_csv(OUT / "provenance.csv", index=False)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("stage", choices=["export", "run"])
    parser.add_argument("--seeds", default=DEFAULT_SEEDS,
                        help="export: the protocol seeds whose draws J48 runs on (default %(default)s)")
    parser.add_argument("--variant-seeds", default=VARIANT_SEEDS,
                        help="run: the seeds whose draws J48 also runs at VARIANT_OPTIONS (default %(default)s)")
    args = parser.parse_args(argv)
    export(args.seeds) if args.stage == "export" else run(args.variant_seeds)


if __name__ == "__main__":
    main()
