"""Benchmark: PRISM on ``supermarket`` (4627 x 216 nominal, missing cells as a value).

Fits :class:`companion.prism.Prism` with ``missing="value"`` and reports the number of rules and
the fit time. When Weka is installed (``/usr/share/java/weka.jar``, Debian package ``weka``) it
also runs ``weka.classifiers.rules.Prism`` on the same data (written as an ARFF in which every
attribute declares the values ``{t, missing}``: Weka's Prism refuses missing cells, so "missing"
becomes a declared value, last, exactly as ``missing="value"`` does) and compares the two rule
lists line by line and the build times (spec ``02_prism.md`` §3: Weka needs about 39 s for
1506 rules; the target is at least 10 times faster with the identical list).

Run ``python -m benchmarks.prism_supermarket`` (or call :func:`run`).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pandas as pd

from companion.datasets import load_supermarket
from companion.prism import MISSING_VALUE_NAME, Prism

__all__ = ["run", "write_arff", "run_weka"]

WEKA_JAR = Path("/usr/share/java/weka.jar")
ARFF_MISSING = "missing"


def _quote(name) -> str:
    text = str(name)
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def write_arff(X: pd.DataFrame, y: pd.Series, path: Path, relation: str = "supermarket") -> Path:
    """Write ``X, y`` as an ARFF with every value declared, missing cells as the value ``missing``.

    Categories keep their declared order, and ``missing`` is declared last (as ``missing="value"``
    orders it), so that Weka's tie-breaks see the same value order as :class:`Prism`.
    """
    lines = [f"@relation {relation}", ""]
    columns = []
    for column in X.columns:
        values = [str(v) for v in X[column].cat.categories] + [ARFF_MISSING]
        lines.append(f"@attribute {_quote(column)} {{{','.join(_quote(v) for v in values)}}}")
        columns.append(X[column].astype(object).where(X[column].notna(), ARFF_MISSING).astype(str))
    classes = [str(c) for c in y.cat.categories]
    lines.append(f"@attribute {_quote(y.name)} {{{','.join(_quote(c) for c in classes)}}}")
    lines += ["", "@data"]
    table = pd.concat(columns + [y.astype(str)], axis=1)
    body = table.apply(lambda row: ",".join(_quote(v) for v in row), axis=1)
    Path(path).write_text("\n".join(lines) + "\n" + "\n".join(body) + "\n", encoding="utf-8")
    return Path(path)


def run_weka(arff: Path, jar: Path = WEKA_JAR, timeout: float = 600.0) -> dict:
    """Run Weka's Prism on ``arff`` (no cross-validation); return its rules and times."""
    java = shutil.which("java")
    if java is None or not Path(jar).is_file():
        raise FileNotFoundError(f"Weka needs java and {jar}")
    start = time.perf_counter()
    completed = subprocess.run(
        [java, "-Xmx2g", "-cp", str(jar), "weka.classifiers.rules.Prism", "-t", str(arff), "-no-cv"],
        capture_output=True, text=True, timeout=timeout, check=True,
    )
    wall = time.perf_counter() - start
    out = completed.stdout
    body = out.split("Prism rules\n----------\n", 1)[1].split("\n\nTime taken", 1)[0]
    build = re.search(r"Time taken to build model: ([\d.]+) seconds", out)
    return {
        "rules": _split_weka_rules(body),
        "build_seconds": float(build.group(1)) if build else float("nan"),
        "wall_seconds": wall,
    }


def _split_weka_rules(body: str) -> list[str]:
    """Weka prints one rule over several lines (``\\n   and``); join them back, one per rule."""
    return [r for r in body.replace("\n   and ", " and ").strip("\n").split("\n") if r]


def run(repeats: int = 3, weka: bool | None = None) -> dict:
    """Fit Prism on supermarket ``repeats`` times; compare with Weka when it is installed.

    Parameters
    ----------
    repeats : int, default=3
        Timed fits; the best time is reported.
    weka : bool or None, default=None
        Run Weka too: ``None`` = when ``/usr/share/java/weka.jar`` and ``java`` exist.

    Returns
    -------
    dict
        ``n_rules``, ``fit_seconds`` (best of ``repeats``), ``training_accuracy``, and with Weka
        ``weka_n_rules``, ``weka_build_seconds``, ``weka_wall_seconds``, ``identical_rules``,
        ``first_difference`` and ``speedup`` (Weka's build time / ours).
    """
    X, y = load_supermarket()
    times = []
    for _ in range(max(1, int(repeats))):
        start = time.perf_counter()
        model = Prism(missing="value").fit(X, y)
        times.append(time.perf_counter() - start)
    result = {
        "n_rules": len(model.rules_),
        "fit_seconds": min(times),
        "training_accuracy": float(model.score(X, y)),
    }
    if weka is None:
        weka = WEKA_JAR.is_file() and shutil.which("java") is not None
    if weka:
        ours = [
            r.replace(f" = {MISSING_VALUE_NAME} ", f" = {ARFF_MISSING} ").replace(
                f" = {MISSING_VALUE_NAME} then", f" = {ARFF_MISSING} then"
            )
            for r in _split_weka_rules(model.to_text(weka_layout=True).split("----------\n", 1)[1])
        ]
        with tempfile.TemporaryDirectory() as folder:
            reference = run_weka(write_arff(X, y, Path(folder) / "supermarket.arff"))
        theirs = reference["rules"]
        differing = [i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]
        first = differing[0] if differing else (None if len(ours) == len(theirs) else min(len(ours), len(theirs)))
        result.update(
            weka_n_rules=len(theirs),
            weka_build_seconds=reference["build_seconds"],
            weka_wall_seconds=reference["wall_seconds"],
            identical_rules=ours == theirs,
            first_difference=first,
            speedup=reference["build_seconds"] / result["fit_seconds"],
        )
    return result


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-weka", action="store_true", help="skip Weka even if installed")
    args = parser.parse_args(argv)
    print(json.dumps(run(args.repeats, weka=False if args.no_weka else None), indent=2))


if __name__ == "__main__":
    main()
