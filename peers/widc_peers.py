"""Real C4.5 (Weka J48), RIPPER (Weka JRip) and CN2 (Orange3) on notebook 04's exact folds.

Two stages, each in its own environment (neither Java nor Orange is a dependency of ``companion``):

``export`` (run with the project's ``.venv/bin/python``)
    Loads the 17 benchmark sets exactly as ``companion.experiments.paper04.run`` does
    (``load_benchmark_set``; folds from ``companion.evaluation.stratified_folds(y, 10, seed=s)``
    for every fold seed ``s`` of ``--seeds``, default :data:`SEEDS`), writes every set as
    ``build/widc_peers/input/seed<s>/<name>__documented.npz`` (numeric array with NaN for missing
    cells, nominal mask, category and class names, the fold of every row), and, at seed 0 (the
    published split) for the sets of ``paper04.DOCUMENTED_NOMINAL``, also under the former typing
    as ``<name>__numeric.npz``; the fold of every row of seed 0 goes to
    ``data/widc_peers/folds.csv`` (``dataset,row,fold``); every seed's fold vector is hashed in
    ``provenance.csv``.

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

    Writes ``data/widc_peers/results.csv`` (``dataset, typing, seed, fold, learner, n_test, errors,
    rules, literals``; ``seed`` is the fold seed), ``data/widc_peers/provenance.csv``
    (``key,value``: commands, versions, date, fold hashes of every seed, nominal columns). The rows
    of a (seed, data set, typing, learner) not re-run are kept from the results already there.

``--out DIR --build DIR`` write elsewhere (``companion.experiments.paper04`` runs the peers this
way, into ``build/``, for a fold seed whose results are not committed).

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
BUILD = ROOT / "build" / "widc_peers"
WEKA_JAR = Path("/usr/share/java/weka.jar")
N_SPLITS = 10
#: The fold seeds whose peer results are committed: the published split (0) and the four seeds of
#: notebook 04's seed variants (``paper04.SEED_VARIANTS``).
SEEDS = (0, 1, 2, 3, 4)
J48_OPTIONS = ["-C", "0.25", "-M", "2"]
JRIP_OPTIONS = ["-F", "3", "-N", "2.0", "-O", "2", "-S", "1"]
#: CN2's significance level (Clark & Niblett 1989: a rule is kept only if its likelihood-ratio
#: statistic against the class distribution of the training set is significant). Orange's
#: ``default_alpha`` is that test; its ``parent_alpha`` (a specialisation tested against its
#: parent) is Orange's addition and stays off (1.0).
CN2_ALPHA = 0.05
#: The learners, in the order of results.csv. ``CN2 (alpha=1)`` is Orange's default (the test
#: off: lists grown unpruned), kept as a labelled variant.
#: J48's other settings, run on the published split (seed 0, documented typing) only: notebook 04's
#: variants ``J48 settings=...`` (the paper does not state its C4.5 settings): a stronger and a
#: weaker pruning confidence, and a larger minimum leaf.
J48_SETTINGS = {
    "J48 (-C 0.1)": ["-C", "0.1", "-M", "2"],
    "J48 (-C 0.5)": ["-C", "0.5", "-M", "2"],
    "J48 (-M 5)": ["-C", "0.25", "-M", "5"],
}
LEARNERS = ("J48", "JRip", "CN2", "CN2 (alpha=1)", "CN2-unordered", *J48_SETTINGS)
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


def export(seeds=SEEDS, *, names=None, out=OUT, build=None, typings=None):
    """Write the inputs of every (seed, data set, typing) to ``build/input/seed<s>/`` (see the module doc).

    ``typings``: default ``documented`` everywhere and ``numeric`` at seed 0 only (the typing
    variant of the published split); given, every seed gets those typings.
    """
    sys.path.insert(0, str(ROOT))
    import pandas as pd

    from companion.evaluation import stratified_folds
    from companion.experiments import paper04
    from companion.experiments.paper04._protocol import DOCUMENTED_NOMINAL

    build = Path(build) if build is not None else BUILD
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for seed in seeds:
        folder = build / "input" / f"seed{seed}"
        folder.mkdir(parents=True, exist_ok=True)
        for name in paper04.BENCHMARK_SETS:
            if names and name not in names:
                continue
            for typing in TYPINGS:
                if typing != "documented" and name not in DOCUMENTED_NOMINAL:
                    continue
                if (typings is None and typing != "documented" and seed != 0) or (typings and typing not in typings):
                    continue
                data = paper04.load_benchmark_set(name, typing=typing)
                fold_of = np.full(len(data.y), -1)
                for k, (_, test) in enumerate(stratified_folds(data.y, n_splits=N_SPLITS, seed=seed)):
                    fold_of[test] = k
                assert (fold_of >= 0).all()
                np.savez(folder / f"{name}__{typing}.npz", X=data.X, y=data.y.astype(str), nominal=data.nominal,
                         folds=fold_of, meta=json.dumps({"feature_names": data.feature_names, "typing": typing,
                                                          "seed": seed, "categories": {
                                                              str(j): v for j, v in data.category_names.items()}}))
                if typing == "documented" and seed == 0:  # the folds depend on y only
                    rows.append(pd.DataFrame({"dataset": name, "row": np.arange(len(fold_of)), "fold": fold_of}))
                print(f"seed {seed} {name} ({typing}): {len(fold_of)} rows, {int(data.nominal.sum())} nominal "
                      f"attributes, fold hash {fold_hash(fold_of)[:12]}")
    if rows and not names:
        pd.concat(rows).to_csv(out / "folds.csv", index=False)


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


def _part(build: Path, seed: int, stem: str, learner: str) -> Path:
    return build / "parts" / f"seed{seed}" / f"{stem}__{learner.replace(' ', '_').replace('=', '')}.csv"


def _run_dataset(task):
    """All folds of one ``(seed, data set__typing, learner)``; writes a part in ``<build>/parts/seed<s>/``."""
    build, seed, stem, learner, max_folds = task
    name, typing = stem.split("__")
    learners = (learner,)
    import pandas as pd

    z = np.load(Path(build) / "input" / f"seed{seed}" / f"{stem}.npz", allow_pickle=False)
    X, y, nominal, folds = z["X"], z["y"].astype(str), z["nominal"], z["folds"]
    meta = json.loads(str(z["meta"]))
    categories, classes = meta["categories"], np.unique(y)
    rows = []
    for fold in range(N_SPLITS if max_folds is None else min(max_folds, N_SPLITS)):
        train, test = np.flatnonzero(folds != fold), np.flatnonzero(folds == fold)

        def record(learner, errors, rules, literals):
            rows.append(dict(dataset=name, typing=typing, seed=seed, fold=fold, learner=learner, n_test=len(test),
                             errors=errors, rules=rules, literals=literals))

        with tempfile.TemporaryDirectory() as folder:
            train_arff, test_arff = Path(folder) / "train.arff", Path(folder) / "test.arff"
            if learner.startswith("J48") or learner == "JRip":
                write_arff(train_arff, X, y, nominal, categories, classes, train)
                write_arff(test_arff, X, y, nominal, categories, classes, test)
            if "J48" in learners:
                out, errors, total = _weka("weka.classifiers.trees.J48", J48_OPTIONS, train_arff, test_arff)
                assert total == len(test)
                record("J48", errors, *j48_size(out))
            if learner in J48_SETTINGS:
                out, errors, total = _weka("weka.classifiers.trees.J48", J48_SETTINGS[learner], train_arff, test_arff)
                assert total == len(test)
                record(learner, errors, *j48_size(out))
            if "JRip" in learners:
                out, errors, total = _weka("weka.classifiers.rules.JRip", JRIP_OPTIONS, train_arff, test_arff)
                assert total == len(test)
                record("JRip", errors, *jrip_size(out))
        if learner.startswith("CN2"):
            tr = _orange_table(X, y, nominal, categories, classes, train)
            te = _orange_table(X, y, nominal, categories, classes, test)
            record(learner, *_cn2(learner, tr, te))
        print(f"seed {seed}", stem, fold, [(r["learner"], r["errors"], r["literals"]) for r in rows[-len(learners):]],
              flush=True)
    part = _part(Path(build), seed, stem, learner)
    part.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(part, index=False)
    return task


def _inputs(build: Path, seeds):
    """``{(seed, stem): path}`` of the exported inputs of ``seeds`` (all seeds exported if None)."""
    found = {}
    for path in sorted((build / "input").glob("seed*/*__*.npz")):
        seed = int(path.parent.name[len("seed"):])
        if seeds is None or seed in seeds:
            found[(seed, path.stem)] = path
    return found


def run(names=None, learners=LEARNERS, jobs=1, *, seeds=None, max_folds=None, out=OUT, build=None):
    """Run the peers (``jobs`` tasks at a time), then collect every part into ``results.csv``.

    ``names``: data sets (``iris``) or data set and typing (``xd6__numeric``); default all.
    ``seeds``: fold seeds (default: every seed exported). ``max_folds``: only the first folds (a
    quick run). The rows of ``out/results.csv`` of a (seed, data set, typing, learner) with no part
    in ``build`` are kept.
    """
    import pandas as pd

    build = Path(build) if build is not None else BUILD
    out = Path(out)
    files = _inputs(build, seeds)
    if not files:
        raise SystemExit(f"no input in {build / 'input'}: run the export stage first")
    todo = [key for key in files if not names or key[1] in names or key[1].split("__")[0] in names]
    todo.sort(key=lambda key: (key[0], np.load(files[key])["X"].size))  # by seed, smallest first
    tasks = [(str(build), seed, stem, learner, max_folds) for learner in learners for seed, stem in todo]
    if jobs > 0:
        with multiprocessing.Pool(jobs) as pool:
            for task in pool.imap_unordered(_run_dataset, tasks):
                print("done", *task[1:4], flush=True)
    # Collect every part present (jobs=0: collect only), and keep the rows already in results.csv
    # of every (seed, data set, typing, learner) without a part.
    all_inputs = _inputs(build, None)
    present = [(seed, stem, learner) for (seed, stem) in all_inputs for learner in LEARNERS
               if _part(build, seed, stem, learner).exists()]
    # A learner is collected at a seed only with every data set of that seed's documented typing:
    # never a claim paired over a subset of the data sets.
    complete = {(seed, learner) for seed, learner in {(s, l) for s, _, l in present}
                if all((seed, stem, learner) in set(present) for (s, stem) in all_inputs
                       if s == seed and stem.endswith("__documented"))}
    present = [(seed, stem, learner) for seed, stem, learner in present if (seed, learner) in complete]
    rows = [pd.read_csv(_part(build, *key)) for key in present]
    old = pd.read_csv(out / "results.csv") if (out / "results.csv").exists() else None
    if old is not None:
        if "seed" not in old.columns:  # results made before fold seeds were recorded: seed 0
            old.insert(2, "seed", 0)
        done = {(seed, stem.split("__")[0], stem.split("__")[1], learner) for seed, stem, learner in present}
        keep = [(s, d, t, l) not in done for s, d, t, l in zip(old["seed"], old["dataset"], old["typing"], old["learner"])]
        rows.append(old[keep])
    old_provenance = {}
    if (out / "provenance.csv").exists():
        table = pd.read_csv(out / "provenance.csv")
        old_provenance = dict(zip(table["key"], table["value"]))
    # The versions of every program whose results are collected (a collect-only run, or a run of
    # some learners, still writes the versions of the parts made earlier).
    programs = {learner for _, _, learner in present}
    versions = {"python": platform.python_version()}
    if any(learner.startswith("J48") or learner == "JRip" for learner in programs):
        versions.update(weka_versions())
    if any(learner.startswith("CN2") for learner in programs):
        import Orange

        versions["orange3"] = Orange.__version__
    out.mkdir(parents=True, exist_ok=True)
    frame = pd.concat(rows)
    frame["typing"] = pd.Categorical(frame["typing"], categories=list(TYPINGS))
    frame["learner"] = pd.Categorical(frame["learner"], categories=list(LEARNERS))
    frame = frame.sort_values(["seed", "dataset", "typing", "fold", "learner"]).reset_index(drop=True)
    frame = frame[["dataset", "typing", "seed", "fold", "learner", "n_test", "errors", "rules", "literals"]]
    frame.to_csv(out / "results.csv", index=False)
    expected = sorted({(int(s), d, t) for s, d, t in zip(frame["seed"], frame["dataset"], frame["typing"])})
    have = set(zip(frame["seed"], frame["dataset"], frame["typing"], frame["learner"]))
    not_run = [f"seed {s} {d} ({t}): {learner}" for s, d, t in expected for learner in LEARNERS
               if (s, d, t, learner) not in have and (learner not in J48_SETTINGS or (s == 0 and t == "documented"))]
    inputs = {key: np.load(path) for key, path in all_inputs.items()}
    alpha = f"default_alpha = {CN2_ALPHA}, parent_alpha = 1.0"
    provenance = dict(old_provenance)
    dates = [_part(build, *key).stat().st_mtime for key in present]
    seeds_run = sorted({int(s) for s in frame["seed"]})
    provenance.update({
        # when the newest collected result was made (a collect-only run changes no result)
        "date": datetime.datetime.fromtimestamp(max(dates), datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        if dates else old_provenance.get("date", ""),
        **{f"version: {k}": v for k, v in versions.items()},
        "folds": f"companion.evaluation.stratified_folds(y, n_splits={N_SPLITS}, seed=s) on "
                 "companion.experiments.paper04.load_benchmark_set(name), as paper04.run does; "
                 "seeds: " + " ".join(str(s) for s in seeds_run),
        # seed 0 (the published split): "fold_sha256: <name>"; another seed s: "fold_sha256: <name> (seed s)"
        **{(f"fold_sha256: {stem.split('__')[0]}" if seed == 0 else f"fold_sha256: {stem.split('__')[0]} (seed {seed})"):
           fold_hash(z["folds"]) for (seed, stem), z in inputs.items() if stem.endswith("__documented")},
        "typing": "documented: paper04.load_benchmark_set(name) (the attributes of paper04.DOCUMENTED_NOMINAL "
                  "nominal); numeric: load_benchmark_set(name, typing='numeric'), run only where the two differ "
                  "and only on the folds of seed 0; nominal attributes are ARFF nominal / Orange DiscreteVariable, "
                  "numeric ones numeric / ContinuousVariable",
        **{f"nominal columns: {stem.replace('__', ' (')})": " ".join(str(j) for j in np.flatnonzero(z["nominal"]))
           or "none" for (seed, stem), z in inputs.items()},
        "command: J48": f"java -Xmx2g -cp {WEKA_JAR} weka.classifiers.trees.J48 {' '.join(J48_OPTIONS)} "
                        "-t train.arff -T test.arff -v",
        **{f"command: {learner}": f"java -Xmx2g -cp {WEKA_JAR} weka.classifiers.trees.J48 {' '.join(options)} "
                                  "-t train.arff -T test.arff -v (seed 0, documented typing only: notebook 04's "
                                  "variants J48 settings=...)" for learner, options in J48_SETTINGS.items()},
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
    })
    provenance["not run"] = "; ".join(not_run) or "none"
    pd.DataFrame({"key": list(provenance), "value": list(provenance.values())}).to_csv(out / "provenance.csv", index=False)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("stage", choices=["export", "run"])
    parser.add_argument("--only", nargs="*", help="data sets, or name__typing (default: all)")
    parser.add_argument("--learners", nargs="*", default=list(LEARNERS), choices=list(LEARNERS))
    parser.add_argument("--seeds", nargs="*", type=int, default=None,
                        help=f"fold seeds (export default: {' '.join(map(str, SEEDS))}; run default: every seed exported)")
    parser.add_argument("--typings", nargs="*", choices=list(TYPINGS), default=None,
                        help="export: the typings (default: documented, and numeric at seed 0)")
    parser.add_argument("--max-folds", type=int, default=None, help="run only the first folds (a quick run)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="(seed, data set, learner) tasks run at the same time; 0: only collect the parts")
    parser.add_argument("--out", default=str(OUT), help=f"where results.csv and provenance.csv go (default {OUT})")
    parser.add_argument("--build", default=str(BUILD), help=f"inputs and parts (default {BUILD})")
    args = parser.parse_args(argv)
    if args.stage == "export":
        export(tuple(args.seeds) if args.seeds is not None else SEEDS, names=args.only, out=args.out,
               build=args.build, typings=args.typings)
    else:
        run(args.only, tuple(args.learners), args.jobs, seeds=args.seeds, max_folds=args.max_folds,
            out=args.out, build=args.build)


if __name__ == "__main__":
    main()
