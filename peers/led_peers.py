"""Weka J48 (C4.5) on notebook 03's LED draws (digits 0-4 against 5-9, 500 training / 5000 test).

Two stages, as ``peers/widc_peers.py``:

``export`` (run with the project's ``.venv/bin/python``)
    Regenerates the draws of ``companion.experiments.paper03.run(Config())`` (draw ``k`` from the
    ``k``-th child of ``SeedSequence(Config().seed)``, bit for bit) and writes each as
    ``build/led_peers/draw_<k>.npz`` with its hash ``paper03.draw_hash``.

``run`` (run with any Python that has numpy and pandas, e.g. ``/work/peers-venv/bin/python``;
needs ``java`` and ``/usr/share/java/weka.jar``)
    On every draw: ``java -cp weka.jar weka.classifiers.trees.J48 -C 0.25 -M 2 -t train.arff -T
    test.arff`` (Weka's defaults; the seven segments are nominal ``{0,1}`` attributes, the class
    ``{-1,1}``). Writes ``data/led_peers/results.csv`` (``draw, n_train, n_test, train_errors,
    test_errors, leaves, size, depth``) and ``data/led_peers/provenance.csv`` (date, versions,
    command, the protocol's parameters and the sha256 of every draw, recomputed here from the
    arrays written to the ARFF files).

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
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from widc_peers import J48_OPTIONS, WEKA_JAR, weka_versions  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "data" / "led_peers"
BUILD = ROOT / "build" / "led_peers"


def draw_hash(X, y, X_test, y_test) -> str:
    """sha256 of a draw written as text: one ``bits,label`` line per row, training rows first.

    The same function as ``companion.experiments.paper03.draw_hash`` (which the loader uses).
    """
    lines = ["".join(str(int(b)) for b in row) + f",{int(label)}" for row, label in zip(X, y)]
    lines.append("#")
    lines += ["".join(str(int(b)) for b in row) + f",{int(label)}" for row, label in zip(X_test, y_test)]
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


# ----------------------------------------------------------------------------------- export


def export():
    sys.path.insert(0, str(ROOT))
    from companion.experiments import paper03

    config = paper03.Config()
    BUILD.mkdir(parents=True, exist_ok=True)
    for k in range(config.n_draws):
        X, y, X_test, y_test = paper03.draw_data(config, k)
        digest = paper03.draw_hash(X, y, X_test, y_test)
        assert digest == draw_hash(X, y, X_test, y_test)
        np.savez(BUILD / f"draw_{k}.npz", X=X, y=y, X_test=X_test, y_test=y_test)
        print(f"draw {k}: {len(y)} / {len(y_test)} rows, sha256 {digest[:12]}")
    parameters = {name: getattr(config, name) for name in ("seed", "n_draws", "n_train", "n_test", "noise")}
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


def run():
    import pandas as pd

    parameters = json.loads((BUILD / "config.json").read_text())
    java = shutil.which("java")
    rows, hashes = [], {}
    for k in range(parameters["n_draws"]):
        z = np.load(BUILD / f"draw_{k}.npz")
        X, y, X_test, y_test = z["X"], z["y"], z["X_test"], z["y_test"]
        hashes[k] = draw_hash(X, y, X_test, y_test)
        with tempfile.TemporaryDirectory() as folder:
            train, test = Path(folder) / "train.arff", Path(folder) / "test.arff"
            write_arff(train, X, y)
            write_arff(test, X_test, y_test)
            command = [java, "-Xmx1g", "-cp", str(WEKA_JAR), "weka.classifiers.trees.J48", *J48_OPTIONS,
                       "-t", str(train), "-T", str(test)]
            out = subprocess.run(command, capture_output=True, text=True, check=True, timeout=600).stdout
        rows.append(dict(draw=k, n_train=len(y), n_test=len(y_test),
                         train_errors=_errors(out, "=== Error on training data ==="),
                         test_errors=_errors(out, "=== Error on test data ==="),
                         leaves=int(re.search(r"Number of Leaves\s*:\s*(\d+)", out).group(1)),
                         size=int(re.search(r"Size of the tree\s*:\s*(\d+)", out).group(1)),
                         depth=tree_depth(out)))
        print(rows[-1], flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(OUT / "results.csv", index=False)
    provenance = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "version: python": platform.python_version(),
        **{f"version: {name}": value for name, value in weka_versions().items()},
        **{f"config: {name}": str(value) for name, value in parameters.items()},
        "draws": "companion.experiments.paper03.draw_data(Config(), k): draw k of paper03.run(Config()), "
                 "from the k-th child of numpy.random.SeedSequence(Config().seed)",
        **{f"draw_sha256: {k}": digest for k, digest in hashes.items()},
        "command: J48": f"java -Xmx1g -cp {WEKA_JAR} weka.classifiers.trees.J48 {' '.join(J48_OPTIONS)} "
                        "-t train.arff -T test.arff (segments nominal {0,1}, class {-1,1})",
        "sizes": "leaves = J48's Number of Leaves; size = its Size of the tree (all nodes); depth = longest path",
        "depth": "J48 has no depth limit; with 7 two-valued nominal attributes its depth is at most 7, the "
                 "notebook's d = 7 trees",
        "command: regenerate": ".venv/bin/python peers/led_peers.py export && "
                               "/work/peers-venv/bin/python peers/led_peers.py run",
    }
    pd.DataFrame({"key": list(provenance), "value": list(provenance.values())}).to_csv(OUT / "provenance.csv", index=False)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("stage", choices=["export", "run"])
    args = parser.parse_args(argv)
    export() if args.stage == "export" else run()


if __name__ == "__main__":
    main()
