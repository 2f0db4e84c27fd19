"""Real C4.5 (Weka J48), RIPPER (Weka JRip) and CN2 (Orange3) on notebook 04's exact folds.

Two stages, each in its own environment (neither Java nor Orange is a dependency of ``companion``):

``export`` (run with the project's ``.venv/bin/python``)
    Loads the 17 benchmark sets exactly as ``companion.experiments.paper04.run`` does
    (``load_benchmark_set``; folds from ``companion.evaluation.stratified_folds(y, 10, seed=0)``),
    writes every set as ``build/widc_peers/input/<name>__documented.npz`` (numeric array with NaN
    for missing cells, nominal mask, category and class names), and, for the sets of
    ``paper04.DOCUMENTED_NOMINAL``, also under the former typing as ``<name>__numeric.npz``; the
    fold of every row goes to ``data/widc_peers/folds.csv`` (``dataset,row,fold``).

``run`` (run with the peers' Python, e.g. ``/work/peers-venv/bin/python``, which has ``orange3``;
the Weka part needs only ``java`` and ``/usr/share/java/weka.jar``)
    For every data set, typing and fold trains on the other nine folds and tests on the fold;
    nominal attributes are ARFF nominal / Orange ``DiscreteVariable``, numeric ones numeric:

    * ``J48``: ``java -cp weka.jar weka.classifiers.trees.J48 -C 0.25 -M 2 -t train.arff -T test.arff -v``
      (C4.5 revision 8, Weka's defaults); size = leaves, literals = sum of the leaves' depths
      (a leaf's monomial is its path, as for CART in the notebook);
    * ``JRip``: ``weka.classifiers.rules.JRip`` with its defaults (``-F 3 -N 2.0 -O 2 -S 1``);
      size = rules other than the default rule, literals = their conditions;
    * ``CN2``: ``Orange.classification.rules.CN2Learner()`` (ordered) with CN2's significance
      test on (``default_alpha = 0.05``); ``CN2 (alpha=1)``: the same with Orange's defaults
      (test off);
    * ``CN2-unordered``: ``Orange.classification.rules.CN2UnorderedLearner()`` with
      ``default_alpha = 0.05``, every rule's class distribution recounted on the whole training
      set before classifying (:func:`recount_on_training_set`, Clark & Boswell 1991);
      size = rules with at least one selector, literals = selectors (the default rule(s) of an
      empty condition are not counted, as WIDC's default vector is not).

    Writes ``data/widc_peers/results.csv`` (``dataset, typing, fold, learner, n_test, errors,
    rules, literals``), ``data/widc_peers/provenance.csv`` (``key,value``: commands, versions,
    date, fold hashes, nominal columns).

Run ``python peers/widc_peers.py --help``; see ``peers/README.md``.
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
import multiprocessing
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "data" / "widc_peers"
INPUT = ROOT / "build" / "widc_peers" / "input"
PARTS = ROOT / "build" / "widc_peers" / "parts"
WEKA_JAR = Path("/usr/share/java/weka.jar")
N_SPLITS = 10
SEED = 0
J48_OPTIONS = ["-C", "0.25", "-M", "2"]
JRIP_OPTIONS = ["-F", "3", "-N", "2.0", "-O", "2", "-S", "1"]
#: CN2's significance level (Clark & Niblett 1989: a rule is kept only if its likelihood-ratio
#: statistic against the class distribution of the training set is significant). Orange's
#: ``default_alpha`` is that test; its ``parent_alpha`` (a specialisation tested against its
#: parent) is Orange's addition and stays off (1.0).
CN2_ALPHA = 0.05
#: The learners, in the order of results.csv. ``CN2 (alpha=1)`` is Orange's default (the test
#: off: lists grown unpruned), kept as a labelled variant.
LEARNERS = ("J48", "JRip", "CN2", "CN2 (alpha=1)", "CN2-unordered")
#: The typings exported: ``documented`` for every data set, ``numeric`` (the former typing) only
#: for the data sets where the two differ (elsewhere the documented run is the numeric run).
TYPINGS = ("documented", "numeric")


def weka_versions() -> dict:
    """The versions every Weka peer's provenance records: Debian's weka package, its jar and java."""
    listing = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "weka"], capture_output=True, text=True)
    return {
        "weka (Debian package)": listing.stdout.strip(),
        "weka.jar": str(WEKA_JAR.resolve()),
        "java": subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0],
    }


def fold_hash(folds) -> str:
    """sha256 of the fold numbers of the rows, in row order (``companion`` recomputes it)."""
    return hashlib.sha256(",".join(str(int(f)) for f in folds).encode()).hexdigest()


# ----------------------------------------------------------------------------------- export


def export():
    sys.path.insert(0, str(ROOT))
    import pandas as pd

    from companion.evaluation import stratified_folds
    from companion.experiments import paper04

    INPUT.mkdir(parents=True, exist_ok=True)
    OUT.mkdir(parents=True, exist_ok=True)
    rows = []
    for name in paper04.BENCHMARK_SETS:
        for typing in TYPINGS:
            if typing != "documented" and name not in paper04.DOCUMENTED_NOMINAL:
                continue
            data = paper04.load_benchmark_set(name, typing=typing)
            fold_of = np.full(len(data.y), -1)
            for k, (_, test) in enumerate(stratified_folds(data.y, n_splits=N_SPLITS, seed=SEED)):
                fold_of[test] = k
            assert (fold_of >= 0).all()
            np.savez(INPUT / f"{name}__{typing}.npz", X=data.X, y=data.y.astype(str), nominal=data.nominal,
                     folds=fold_of, meta=json.dumps({"feature_names": data.feature_names, "typing": typing,
                                                      "categories": {str(j): v for j, v in data.category_names.items()}}))
            if typing == "documented":  # the folds depend on y only
                rows.append(pd.DataFrame({"dataset": name, "row": np.arange(len(fold_of)), "fold": fold_of}))
            print(f"{name} ({typing}): {len(fold_of)} rows, {int(data.nominal.sum())} nominal attributes, "
                  f"fold hash {fold_hash(fold_of)[:12]}")
    pd.concat(rows).to_csv(OUT / "folds.csv", index=False)


# ----------------------------------------------------------------------------------- run


def _quote(text) -> str:
    return "'" + str(text).replace("\\", "\\\\").replace("'", "\\'") + "'"


def write_arff(path, X, y, nominal, categories, classes, rows):
    """ARFF of ``rows``: numeric attributes as numbers, nominal ones as their names, NaN as ``?``.

    (``benchmarks.prism_supermarket.write_arff`` writes nominal-only data with missing cells as a
    declared value, which C4.5 and RIPPER must not see; hence this writer.)
    """
    lines = ["@relation widc", ""]
    for j in range(X.shape[1]):
        kind = "{" + ",".join(_quote(v) for v in categories[str(j)]) + "}" if nominal[j] else "numeric"
        lines.append(f"@attribute a{j} {kind}")
    lines += ["@attribute class {" + ",".join(_quote(c) for c in classes) + "}", "", "@data"]
    for i in rows:
        cells = []
        for j in range(X.shape[1]):
            v = X[i, j]
            if np.isnan(v):
                cells.append("?")
            elif nominal[j]:
                cells.append(_quote(categories[str(j)][int(v)]))
            else:
                cells.append(repr(float(v)))
        cells.append(_quote(y[i]))
        lines.append(",".join(cells))
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def _weka(classifier, options, train, test):
    java = shutil.which("java")
    command = [java, "-Xmx2g", "-cp", str(WEKA_JAR), classifier, *options, "-t", str(train), "-T", str(test), "-v"]
    out = subprocess.run(command, capture_output=True, text=True, check=True, timeout=3600).stdout
    section = out.split("=== Error on test data ===", 1)[1]
    errors = int(re.search(r"Incorrectly Classified Instances\s+(\d+)", section).group(1))
    total = int(re.search(r"Total Number of Instances\s+(\d+)", section).group(1))
    return out, errors, total


def j48_size(out: str):
    """(leaves, sum of leaf depths) of J48's printed tree."""
    body = out.split("------------------", 1)[1].split("Number of Leaves", 1)[0]
    leaves = depth_sum = 0
    for line in body.splitlines():
        if ":" in line and re.search(r":\s*[^:]+\(\d", line) and "(" in line.split(":")[-1]:
            depth = line.count("|") + 1
            leaves += 1
            depth_sum += depth
    stated = int(re.search(r"Number of Leaves\s*:\s*(\d+)", out).group(1))
    if stated == 1:  # a single leaf prints as ": class (n/e)" with no test
        return 1, 0
    assert leaves == stated, (leaves, stated)
    return leaves, depth_sum


def jrip_size(out: str):
    """(rules other than the default one, their conditions) of JRip's printed rule list."""
    body = out.split("===========", 1)[1].split("Number of Rules", 1)[0]
    rules = literals = 0
    for line in body.splitlines():
        if "=>" not in line:
            continue
        condition = line.split("=>")[0].strip()
        if condition:
            rules += 1
            literals += condition.count(" and ") + 1
    stated = int(re.search(r"Number of Rules\s*:\s*(\d+)", out).group(1))
    assert rules == stated - 1, (rules, stated)
    return rules, literals


def _orange_table(X, y, nominal, categories, classes, rows):
    from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

    attributes = [DiscreteVariable(f"a{j}", values=[str(v) for v in categories[str(j)]]) if nominal[j]
                  else ContinuousVariable(f"a{j}") for j in range(X.shape[1])]
    domain = Domain(attributes, DiscreteVariable("class", values=list(classes)))
    codes = np.searchsorted(classes, y[rows]).astype(float)
    return Table.from_numpy(domain, X[rows].astype(float), codes)


def cn2_learner(learner: str):
    """The Orange learner of ``learner`` (``CN2``, ``CN2 (alpha=1)`` or ``CN2-unordered``)."""
    from Orange.classification.rules import CN2Learner, CN2UnorderedLearner

    model = CN2UnorderedLearner() if learner == "CN2-unordered" else CN2Learner()
    validator = model.rule_finder.significance_validator
    validator.default_alpha = 1.0 if learner == "CN2 (alpha=1)" else CN2_ALPHA
    validator.parent_alpha = 1.0
    return model


def recount_on_training_set(learner, model, train):
    """Clark & Boswell's unordered CN2: every rule's class distribution counted on the whole training set.

    Orange's ``CN2UnorderedLearner`` keeps, for each rule, the distribution of the examples it
    covers *among those left* when it was found (the covered examples of its class are removed
    after each rule), and its classifier sums these distributions. A late rule of class ``c``
    then carries mostly other classes, and votes for them. Clark & Boswell (1991) sum the
    distributions of the covered training examples; this recounts every rule (and the default
    rule) on the whole, preprocessed, training set, then recomputes its Laplace probabilities.
    """
    data = learner.preprocess(train)  # the data fit_storage saw (Orange's imputation etc.)
    X, Y = data.X, data.Y.astype(int)
    W = data.W if data.has_weights() else None
    assert model.domain == data.domain
    for rule in model.rule_list:
        rule.filter_and_store(X, Y, W, rule.target_class)
        rule.create_model()
    return model


def _cn2(learner: str, train, test):
    orange_learner = cn2_learner(learner)
    model = orange_learner(train)
    if learner == "CN2-unordered":
        recount_on_training_set(orange_learner, model, train)
    predicted = np.asarray(model(test), dtype=float)
    errors = int(np.count_nonzero(predicted != test.Y))
    rules = [r for r in model.rule_list if len(r.selectors) > 0]
    return errors, len(rules), int(sum(len(r.selectors) for r in rules))


def _part(stem: str, learner: str) -> Path:
    return PARTS / f"{stem}__{learner.replace(' ', '_').replace('=', '')}.csv"


def _run_dataset(task):
    """All folds of one ``(data set__typing, learner)``; writes a part in ``build/widc_peers/parts/``."""
    stem, learner = task
    name, typing = stem.split("__")
    learners = (learner,)
    import pandas as pd

    z = np.load(INPUT / f"{stem}.npz", allow_pickle=False)
    X, y, nominal, folds = z["X"], z["y"].astype(str), z["nominal"], z["folds"]
    meta = json.loads(str(z["meta"]))
    categories, classes = meta["categories"], np.unique(y)
    rows = []
    for fold in range(N_SPLITS):
        train, test = np.flatnonzero(folds != fold), np.flatnonzero(folds == fold)

        def record(learner, errors, rules, literals):
            rows.append(dict(dataset=name, typing=typing, fold=fold, learner=learner, n_test=len(test),
                             errors=errors, rules=rules, literals=literals))

        with tempfile.TemporaryDirectory() as folder:
            train_arff, test_arff = Path(folder) / "train.arff", Path(folder) / "test.arff"
            if {"J48", "JRip"} & set(learners):
                write_arff(train_arff, X, y, nominal, categories, classes, train)
                write_arff(test_arff, X, y, nominal, categories, classes, test)
            if "J48" in learners:
                out, errors, total = _weka("weka.classifiers.trees.J48", J48_OPTIONS, train_arff, test_arff)
                assert total == len(test)
                record("J48", errors, *j48_size(out))
            if "JRip" in learners:
                out, errors, total = _weka("weka.classifiers.rules.JRip", JRIP_OPTIONS, train_arff, test_arff)
                assert total == len(test)
                record("JRip", errors, *jrip_size(out))
        if learner.startswith("CN2"):
            tr = _orange_table(X, y, nominal, categories, classes, train)
            te = _orange_table(X, y, nominal, categories, classes, test)
            record(learner, *_cn2(learner, tr, te))
        print(stem, fold, [(r["learner"], r["errors"], r["literals"]) for r in rows[-len(learners):]], flush=True)
    pd.DataFrame(rows).to_csv(_part(stem, learner), index=False)
    return task


def run(names=None, learners=LEARNERS, jobs=1):
    """Run the peers (``jobs`` tasks at a time), then collect every part into ``results.csv``.

    ``names``: data sets (``iris``) or data set and typing (``xd6__numeric``); default all.
    """
    import pandas as pd

    files = sorted(INPUT.glob("*__*.npz"))
    if not files:
        raise SystemExit(f"no input in {INPUT}: run the export stage first")
    todo = [path.stem for path in files if not names or path.stem in names or path.stem.split("__")[0] in names]
    todo.sort(key=lambda stem: np.load(INPUT / f"{stem}.npz")["X"].size)  # smallest first
    tasks = [(stem, learner) for learner in learners for stem in todo]
    PARTS.mkdir(parents=True, exist_ok=True)
    if jobs > 0:
        with multiprocessing.Pool(jobs) as pool:
            for task in pool.imap_unordered(_run_dataset, tasks):
                print("done", *task, flush=True)
    # Collect every part present (jobs=0: collect only). A (data set, typing, learner) without a
    # part is absent from results.csv, and provenance.csv lists it.
    expected = [(path.stem, learner) for path in files for learner in LEARNERS]
    present = [(stem, learner) for stem, learner in expected if _part(stem, learner).exists()]
    rows = [pd.read_csv(_part(stem, learner)) for stem, learner in present]
    # The versions of every program whose results are collected (a collect-only run, or a run of
    # some learners, still writes the versions of the parts made earlier).
    programs = {learner for _, learner in present}
    versions = {"python": platform.python_version()}
    if {"J48", "JRip"} & programs:
        versions.update(weka_versions())
    if any(learner.startswith("CN2") for learner in programs):
        import Orange

        versions["orange3"] = Orange.__version__
    not_run = [f"{stem.replace('__', ' (')}): {learner}" for stem, learner in expected if (stem, learner) not in present]
    OUT.mkdir(parents=True, exist_ok=True)
    frame = pd.concat(rows)
    frame["typing"] = pd.Categorical(frame["typing"], categories=list(TYPINGS))
    frame["learner"] = pd.Categorical(frame["learner"], categories=list(LEARNERS))
    frame = frame.sort_values(["dataset", "typing", "fold", "learner"]).reset_index(drop=True)
    frame.to_csv(OUT / "results.csv", index=False)
    inputs = {path.stem: np.load(path) for path in files}
    documented = {stem.split("__")[0]: z for stem, z in inputs.items() if stem.endswith("__documented")}
    alpha = f"default_alpha = {CN2_ALPHA}, parent_alpha = 1.0"
    provenance = {
        # when the newest collected result was made (a collect-only run changes no result)
        "date": datetime.datetime.fromtimestamp(max(_part(*task).stat().st_mtime for task in present),
                                                datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        **{f"version: {k}": v for k, v in versions.items()},
        "folds": f"companion.evaluation.stratified_folds(y, n_splits={N_SPLITS}, seed={SEED}) on "
                 "companion.experiments.paper04.load_benchmark_set(name), as paper04.run does",
        **{f"fold_sha256: {k}": fold_hash(z["folds"]) for k, z in documented.items()},
        "typing": "documented: paper04.load_benchmark_set(name) (the attributes of paper04.DOCUMENTED_NOMINAL "
                  "nominal); numeric: load_benchmark_set(name, typing='numeric'), run only where the two differ; "
                  "nominal attributes are ARFF nominal / Orange DiscreteVariable, numeric ones numeric / "
                  "ContinuousVariable",
        **{f"nominal columns: {stem.replace('__', ' (')})": " ".join(str(j) for j in np.flatnonzero(z["nominal"]))
           or "none" for stem, z in inputs.items()},
        "command: J48": f"java -Xmx2g -cp {WEKA_JAR} weka.classifiers.trees.J48 {' '.join(J48_OPTIONS)} "
                        "-t train.arff -T test.arff -v",
        "command: JRip": f"java -Xmx2g -cp {WEKA_JAR} weka.classifiers.rules.JRip {' '.join(JRIP_OPTIONS)} "
                         "-t train.arff -T test.arff -v",
        "command: CN2": f"Orange.classification.rules.CN2Learner() with rule_finder.significance_validator "
                        f"{alpha} (CN2's significance test on, Clark & Niblett 1989), then model(test)",
        "command: CN2 (alpha=1)": "Orange.classification.rules.CN2Learner() with Orange's defaults "
                                  "default_alpha = parent_alpha = 1.0 (significance test off; a variant, "
                                  "not CN2 as published)",
        "command: CN2-unordered": f"Orange.classification.rules.CN2UnorderedLearner() with {alpha}; after "
                                  "fitting, every rule's class distribution recounted on the whole "
                                  "(preprocessed) training set and its Laplace probabilities recomputed "
                                  "(peers/widc_peers.py recount_on_training_set), as Clark & Boswell (1991) "
                                  "classify; Orange counts each rule on the examples left when it was found",
        "command: regenerate": ".venv/bin/python peers/widc_peers.py export && "
                               "/work/peers-venv/bin/python peers/widc_peers.py run --jobs 2",
        "sizes": "J48: rules = leaves, literals = sum of leaf depths; JRip: rules without the default rule, "
                 "literals = their conditions; CN2: rules with >= 1 selector, literals = selectors",
    }
    provenance["not run"] = "; ".join(not_run) or "none"
    pd.DataFrame({"key": list(provenance), "value": list(provenance.values())}).to_csv(OUT / "provenance.csv", index=False)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("stage", choices=["export", "run"])
    parser.add_argument("--only", nargs="*", help="data sets, or name__typing (run stage; default: all)")
    parser.add_argument("--learners", nargs="*", default=list(LEARNERS), choices=list(LEARNERS))
    parser.add_argument("--jobs", type=int, default=1,
                        help="(data set, learner) tasks run at the same time; 0: only collect the parts")
    args = parser.parse_args(argv)
    if args.stage == "export":
        export()
    else:
        run(args.only, tuple(args.learners), args.jobs)


if __name__ == "__main__":
    main()
