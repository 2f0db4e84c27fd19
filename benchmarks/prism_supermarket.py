"""Benchmark: PRISM on ``supermarket`` (4627 x 216 nominal, missing cells as a value).

Fits :class:`companion.prism.Prism` with ``missing="value"`` and reports the number of rules and
the fit time. When Weka is installed (``/usr/share/java/weka.jar``, Debian package ``weka``) it
also runs ``weka.classifiers.rules.Prism`` on the same data (written as an ARFF in which every
attribute declares the values ``{t, missing}``: Weka's Prism refuses missing cells, so "missing"
becomes a declared value, last, exactly as ``missing="value"`` does) and compares the two rule
lists line by line and the build times (the target: at least 20 times faster than Weka with the
identical list of 1506 rules, issue 29; the measured times are in ``figures/benchmarks.csv``).

:func:`measure` returns the full comparison as a dict; :func:`run` returns it as the result rows
of ``benchmarks/run.py`` (``make bench``). Run ``python -m benchmarks.prism_supermarket``.
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
from companion.experiments.paper02._protocol import missing_declared_first
from companion.preprocessing import MISSING_VALUE_NAME
from companion.prism import Prism
from tests._naive import as_codes, naive_prism, rules_as_tuples

__all__ = ["run", "measure", "write_arff", "run_weka", "record_weka_rules"]

TARGET_RATIO = 0.05  # issue 29 (issue 8 asked 10x): PRISM at least 20x faster than Weka's, identical rule list

WEKA_JAR = Path("/usr/share/java/weka.jar")
ARFF_MISSING = "missing"


def _quote(name) -> str:
    text = str(name)
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def write_arff(X: pd.DataFrame, y: pd.Series, path: Path, relation: str = "supermarket",
               missing_first: bool = False) -> Path:
    """Write ``X, y`` as an ARFF with every value declared, missing cells as the value ``missing``.

    Categories keep their declared order, and ``missing`` is declared last (as ``missing="value"``
    orders it), so that Weka's tie-breaks see the same value order as :class:`Prism`; with
    ``missing_first=True`` it is declared first (the other encoding notebook 02 varies, where
    :class:`Prism` reads :func:`missing_declared_first`'s frame).
    """
    lines = [f"@relation {relation}", ""]
    columns = []
    for column in X.columns:
        declared = [str(v) for v in X[column].cat.categories]
        values = [ARFF_MISSING] + declared if missing_first else declared + [ARFF_MISSING]
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


def measure(repeats: int = 4, weka: bool | None = None, weka_runs: int = 2, missing_first: bool = False) -> dict:
    """Fit Prism on supermarket ``repeats`` times; compare with Weka when it is installed.

    Parameters
    ----------
    repeats : int, default=4
        Timed fits; the best time is reported.
    weka : bool or None, default=None
        Run Weka too: ``None`` = when ``/usr/share/java/weka.jar`` and ``java`` exist.
    weka_runs : int, default=2
        Weka runs, interleaved with our fits (ours, Weka, ours, Weka, ...); the best build time
        is reported, as for ours. On a shared machine single runs of either side moved by 50%.
    missing_first : bool, default=False
        Declare the missing value before ``t`` on both sides (the encoding notebook 02 varies).

    Returns
    -------
    dict
        ``n_samples``, ``n_rules``, ``fit_seconds`` (best of ``repeats``), ``training_accuracy``, and with Weka
        ``weka_n_rules``, ``weka_build_seconds`` (best of ``weka_runs``), ``weka_wall_seconds``,
        ``identical_rules``, ``first_difference`` and ``speedup`` (Weka's build time / ours).
    """
    X, y = load_supermarket()
    frame = missing_declared_first(X) if missing_first else X
    if weka is None:
        weka = WEKA_JAR.is_file() and shutil.which("java") is not None
    rounds = max(1, int(weka_runs)) if weka else 1
    per_round = max(1, -(-int(repeats) // rounds))  # ceil: at least `repeats` fits in all
    times, references = [], []
    with tempfile.TemporaryDirectory() as folder:
        arff = write_arff(X, y, Path(folder) / "supermarket.arff", missing_first=missing_first) if weka else None
        for _ in range(rounds):
            for _ in range(per_round):
                start = time.perf_counter()
                model = Prism(missing="value", pruning=None).fit(frame, y)
                times.append(time.perf_counter() - start)
            if weka:
                references.append(run_weka(arff))
    result = {
        "n_samples": int(X.shape[0]),
        "n_rules": len(model.rules_),
        "fit_seconds": min(times),
        "training_accuracy": float(model.score(frame, y)),
    }
    if weka:
        ours = [
            r.replace(f" = {MISSING_VALUE_NAME} ", f" = {ARFF_MISSING} ").replace(
                f" = {MISSING_VALUE_NAME} then", f" = {ARFF_MISSING} then"
            )
            for r in _split_weka_rules(model.to_text(weka_layout=True).split("----------\n", 1)[1])
        ]
        theirs = references[-1]["rules"]
        assert all(reference["rules"] == theirs for reference in references), "Weka's runs disagree"
        differing = [i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]
        first = differing[0] if differing else (None if len(ours) == len(theirs) else min(len(ours), len(theirs)))
        build = min(reference["build_seconds"] for reference in references)
        result.update(
            weka_n_rules=len(theirs),
            weka_build_seconds=build,
            weka_wall_seconds=min(reference["wall_seconds"] for reference in references),
            identical_rules=ours == theirs,
            first_difference=first,
            speedup=build / result["fit_seconds"],
        )
    return result


def record_weka_rules(path: Path, jar: Path = WEKA_JAR) -> Path:
    """Run Weka's Prism on ``supermarket`` under both declared positions of the missing value and
    write its printed rule lists, one rule a row, as ``data/prism_peers/supermarket_rules.csv.gz``
    (columns ``encoding`` (``last``: after ``t``, Weka's recorded run; ``first``: before it),
    ``rule`` (1, 2, ...) and ``text`` (Weka's line, its ``and`` continuations joined); gzip
    without a timestamp, so that the same lists give the same bytes). Notebook 02 compares its
    rule lists with them, rule by rule.
    """
    import gzip

    X, y = load_supermarket()
    frames = []
    with tempfile.TemporaryDirectory() as folder:
        for encoding, first in (("last", False), ("first", True)):
            arff = write_arff(X, y, Path(folder) / f"supermarket_{encoding}.arff", missing_first=first)
            rules = run_weka(arff, jar=jar)["rules"]
            frames.append(pd.DataFrame({"encoding": encoding, "rule": range(1, len(rules) + 1), "text": rules}))
    text = pd.concat(frames, ignore_index=True).to_csv(index=False, lineterminator="\n")
    Path(path).write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))
    return Path(path)


NAIVE_ROWS = 2000  # the naive reference's pure-Python loops take about 40 s on these rows


def measure_naive(n_rows: int = NAIVE_ROWS, repeats: int = 3) -> dict:
    """Ours against the naive reference (``tests/_naive.py``) on the first ``n_rows`` rows.

    The reference rescans every row and attribute for every candidate test, so the full data set
    would take hours; on a prefix both learn the same rule list (asserted) and the ratio is
    measured. Returns ``n_samples``, ``n_rules``, ``fit_seconds`` (best of ``repeats``),
    ``naive_seconds`` (one run) and ``identical_rules``.
    """
    X, y = load_supermarket()
    X, y = X.iloc[:n_rows], y.iloc[:n_rows]
    times = []
    for _ in range(max(1, int(repeats))):
        start = time.perf_counter()
        model = Prism(missing="value", pruning=None).fit(X, y)
        times.append(time.perf_counter() - start)
    start = time.perf_counter()
    theirs = naive_prism(*as_codes(X, y, "value"))
    naive_seconds = time.perf_counter() - start
    ours = rules_as_tuples(model, X, y)
    return {"n_samples": int(len(X)), "n_rules": len(ours), "fit_seconds": min(times),
            "naive_seconds": naive_seconds, "identical_rules": ours == theirs}


def run(quick: bool = False, repeats: int = 4, weka: bool | None = None) -> list[dict]:
    """:func:`measure` and :func:`measure_naive` as result rows in the format of ``benchmarks/run.py``.

    Parameters
    ----------
    quick : bool, default=False
        One fit, no Weka run, and the naive reference on 120 rows only (smoke test).
    repeats, weka
        As for :func:`measure`.

    Returns
    -------
    list of dict
        Two rows. Against Weka: ``size`` = rows of supermarket, ``ours_s`` = our best fit time,
        ``reference_s`` = Weka's build time (None without Weka), ``ratio`` = ours / Weka,
        ``identical`` = identical rule lists, plus ``n_rules``, ``weka_n_rules``,
        ``first_difference`` and ``training_accuracy``.
    """
    if quick:
        repeats, weka = 1, False
    result = measure(repeats, weka=weka)
    has_weka = "weka_build_seconds" in result
    reference_s = result.get("weka_build_seconds")
    return [{
        "benchmark": "PRISM supermarket vs Weka Prism",
        "size": result["n_samples"],
        "ours_s": round(result["fit_seconds"], 3),
        "reference": "Weka 3 Prism (best build time of 2)" if has_weka else "Weka Prism (not run)",
        "reference_s": round(reference_s, 3) if has_weka else None,
        "ratio": round(result["fit_seconds"] / reference_s, 4) if has_weka else None,
        "identical": result.get("identical_rules"),
        "target": f"<= {TARGET_RATIO}",
        "n_rules": result["n_rules"],
        "weka_n_rules": result.get("weka_n_rules"),
        "first_difference": result.get("first_difference"),
        "training_accuracy": round(result["training_accuracy"], 4),
    }] + _naive_rows(quick)


def _naive_rows(quick: bool) -> list[dict]:
    naive = measure_naive(n_rows=120 if quick else NAIVE_ROWS, repeats=1 if quick else 3)
    return [{
        "benchmark": f"PRISM supermarket (first {naive['n_samples']} rows) vs naive reference",
        "size": naive["n_samples"],
        "ours_s": round(naive["fit_seconds"], 4),
        "reference": "naive loops (tests/_naive.py)",
        "reference_s": round(naive["naive_seconds"], 3),
        "ratio": round(naive["fit_seconds"] / naive["naive_seconds"], 5),
        "identical": naive["identical_rules"],
        "target": "< 1",
        "n_rules": naive["n_rules"],
    }] if naive["identical_rules"] else _raise_differs()


def _raise_differs():
    raise AssertionError("Prism and the naive reference learnt different rule lists on the supermarket prefix")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=4)
    parser.add_argument("--no-weka", action="store_true", help="skip Weka even if installed")
    parser.add_argument("--missing-first", action="store_true",
                        help="declare the missing value before t on both sides (notebook 02's encoding variant)")
    parser.add_argument("--weka-runs", type=int, default=2)
    parser.add_argument("--record", metavar="PATH",
                        help="write Weka's rule lists under both encodings to PATH (data/prism_peers/supermarket_rules.csv.gz)")
    args = parser.parse_args(argv)
    if args.record:
        print(record_weka_rules(Path(args.record)))
        return
    print(json.dumps(measure(args.repeats, weka=False if args.no_weka else None, weka_runs=args.weka_runs,
                             missing_first=args.missing_first), indent=2))


if __name__ == "__main__":
    main()
