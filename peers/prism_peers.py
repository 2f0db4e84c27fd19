"""Weka's Prism, J48 and JRip on contact lenses, on notebook 02's folds, and Weka's own folds.

Two stages, as ``peers/widc_peers.py`` (whose ARFF and size helpers this script reuses):

``export`` (run with the project's ``.venv/bin/python``)
    Writes ``build/prism_peers/contact-lenses.arff`` from
    ``companion.datasets.load_contact_lenses`` (rows in the loader's order, values declared in
    Weka's order) and the test fold of every row of the seeded splits of
    ``companion.experiments.paper02.run`` (``numpy:<seed>``; ``--splits 0-99``, the default, covers
    the notebook's default seed, its four seed variants and ``-p seed`` up to 50),
    ``build/prism_peers/numpy_folds.json``.

``run`` (run with the peers' Python, e.g. ``/work/peers-venv/bin/python``; needs numpy, pandas,
``java`` and ``/usr/share/java/weka.jar``)
    1. Weka's folds of its stratified cross-validation ``-x 10 -s 1``, from Weka itself: the
       ARFF gets a row number (``weka.filters.unsupervised.attribute.AddID``) and
       ``weka.filters.supervised.instance.StratifiedRemoveFolds -S 1 -N 10 -F k`` keeps fold
       ``k``, which is what ``Evaluation.crossValidateModel`` tests on (both randomise with
       ``new Random(1)``, stratify and take ``testCV(10, k - 1)``).
    2. On every fold of Weka's split and of the seeded splits: ``weka.classifiers.rules.Prism``,
       ``weka.classifiers.trees.J48 -C 0.25 -M 2`` and ``weka.classifiers.rules.JRip -F 3 -N 2.0
       -O 2 -S 1`` (Weka's defaults) trained on the other folds and tested on the fold. All the
       (learner, fold) jobs run in one Java process (:data:`DRIVER`, compiled with ``javac`` under
       ``build/``), which does what ``java -cp weka.jar <classifier> <options> -t train.arff -T
       test.arff`` does (``Classifier.forName``, ``buildClassifier``, ``Evaluation.evaluateModel``
       on the training and the test fold) and prints the model and the counts in Weka's words;
       one JVM per job took about 1 s each, 3000 jobs for 100 splits.
    3. Weka's own ``-x 10 -s 1`` run of each learner on the whole ARFF, whose counts are recorded
       beside the sums of step 2 on Weka's folds.

    Writes ``data/prism_peers/folds.csv`` (``seed,row,fold``: ``weka:1`` from Weka, ``numpy:<s>``
    from the export), ``data/prism_peers/results.csv`` (``dataset, method, seed, fold, n_test,
    correct, incorrect, unclassified, rules, literals``) and ``data/prism_peers/provenance.csv``.
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
from widc_peers import J48_OPTIONS, JRIP_OPTIONS, WEKA_JAR, fold_hash, j48_size, jrip_size, weka_versions  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "data" / "prism_peers"
BUILD = ROOT / "build" / "prism_peers"
ARFF = BUILD / "contact-lenses.arff"
DATASET = "contact-lenses"
N_FOLDS = 10
WEKA_SEED = 1
#: The seeded splits run by default: the notebook's default seed 0 and its four seed variants
#: (seeds 0-49, ten splits each) and any ``-p seed`` up to 50.
DEFAULT_SPLITS = "0-99"
LEARNERS = {
    "Prism": ("weka.classifiers.rules.Prism", []),
    "J48": ("weka.classifiers.trees.J48", J48_OPTIONS),
    "JRip": ("weka.classifiers.rules.JRip", JRIP_OPTIONS),
}


# ----------------------------------------------------------------------------------- export


def _parse_splits(text: str) -> list[int]:
    """``"0-99"`` or ``"0-9,11,20-24"`` as a sorted list of seeds."""
    seeds = set()
    for part in text.split(","):
        low, _, high = part.partition("-")
        seeds.update(range(int(low), int(high or low) + 1))
    return sorted(seeds)


def export(splits: str = DEFAULT_SPLITS):
    sys.path.insert(0, str(ROOT))
    from companion.datasets import load_contact_lenses
    from companion.experiments import paper02
    from companion.experiments.paper02._protocol import NUMPY_SPLIT, fold_vector, quiet_stratified_folds

    BUILD.mkdir(parents=True, exist_ok=True)
    X, y = load_contact_lenses()
    lines = ["@relation contact-lenses", ""]
    for column in X.columns:
        lines.append(f"@attribute {column} {{{','.join(map(str, X[column].cat.categories))}}}")
    lines += [f"@attribute contact-lenses {{{','.join(map(str, y.cat.categories))}}}", "", "@data"]
    lines += [",".join([*map(str, row), str(label)]) for row, label in zip(X.itertuples(index=False), y)]
    ARFF.write_text("\n".join(lines) + "\n", encoding="utf-8")
    config = paper02.Config()
    folds = {}
    for seed in _parse_splits(splits):
        folds[f"{NUMPY_SPLIT}{seed}"] = fold_vector(
            quiet_stratified_folds(y, config.n_folds, seed)).tolist()
    (BUILD / "numpy_folds.json").write_text(json.dumps(folds), encoding="utf-8")
    print(f"{ARFF}: {len(y)} rows; {len(folds)} splits {next(iter(folds))} .. {list(folds)[-1]}")


#: The Java driver of the runs: one JVM for every (learner, fold) job. For each job
#: (``id<TAB>classifier<TAB>options<TAB>train.arff<TAB>test.arff``) it does what Weka's command
#: line ``-t train.arff -T test.arff`` does and prints the model and the counts in Weka's words.
DRIVER = """
import java.io.*;
import weka.core.*;
import weka.classifiers.*;

public class WekaJobs {
  static String summary(Evaluation e) {
    return "Correctly Classified Instances " + (int) Math.round(e.correct()) + "\\n"
         + "Incorrectly Classified Instances " + (int) Math.round(e.incorrect()) + "\\n"
         + "UnClassified Instances " + (int) Math.round(e.unclassified()) + "\\n";
  }
  public static void main(String[] args) throws Exception {
    BufferedReader jobs = new BufferedReader(new FileReader(args[0]));
    String line;
    while ((line = jobs.readLine()) != null) {
      if (line.trim().isEmpty()) continue;
      String[] f = line.split("\\t", -1);
      Instances train = new Instances(new BufferedReader(new FileReader(f[3])));
      Instances test = new Instances(new BufferedReader(new FileReader(f[4])));
      train.setClassIndex(train.numAttributes() - 1);
      test.setClassIndex(test.numAttributes() - 1);
      String[] options = f[2].trim().isEmpty() ? new String[0] : f[2].trim().split(" ");
      Classifier c = Classifier.forName(f[1], options);
      c.buildClassifier(train);
      Evaluation onTrain = new Evaluation(train);
      onTrain.evaluateModel(c, train);
      Evaluation onTest = new Evaluation(train);
      onTest.evaluateModel(c, test);
      System.out.println("### job " + f[0]);
      System.out.println(c.toString());
      System.out.println("=== Error on training data ===");
      System.out.print(summary(onTrain));
      System.out.println("=== Error on test data ===");
      System.out.print(summary(onTest));
      System.out.println("### end " + f[0]);
    }
  }
}
"""


def run_jobs(jobs: list[tuple[str, str, list[str], Path, Path]]) -> dict[str, str]:
    """Run Weka on every job ``(id, classifier, options, train.arff, test.arff)`` in one JVM.

    Returns ``{id: output}``, each output holding the model as Weka prints it and the sections
    ``=== Error on training data ===`` and ``=== Error on test data ===`` (correct, incorrect
    and unclassified counts), as Weka's command line prints them.
    """
    driver = ROOT / "build" / "weka_jobs"
    driver.mkdir(parents=True, exist_ok=True)
    source = driver / "WekaJobs.java"
    if not (driver / "WekaJobs.class").exists() or source.read_text() != DRIVER:
        source.write_text(DRIVER)
        subprocess.run([shutil.which("javac"), "-cp", str(WEKA_JAR), str(source)], check=True,
                       capture_output=True, text=True)
    listing = driver / "jobs.tsv"
    listing.write_text("".join(f"{i}\t{c}\t{' '.join(o)}\t{a}\t{b}\n" for i, c, o, a, b in jobs))
    out = subprocess.run([shutil.which("java"), "-Xmx1g", "-cp", f"{WEKA_JAR}:{driver}", "WekaJobs", str(listing)],
                         capture_output=True, text=True, check=True, timeout=3600).stdout
    found = dict(re.findall(r"### job (\S+)\n(.*?)### end \1\n", out, flags=re.S))
    missing = [job[0] for job in jobs if job[0] not in found]
    if missing:
        raise RuntimeError(f"the Weka driver gave no output for jobs {missing[:5]}")
    return found


# ----------------------------------------------------------------------------------- run


def _java(*arguments) -> str:
    command = [shutil.which("java"), "-Xmx1g", "-cp", str(WEKA_JAR), *map(str, arguments)]
    return subprocess.run(command, capture_output=True, text=True, check=True, timeout=600).stdout


def weka_folds(arff: Path, n_folds=N_FOLDS, seed=WEKA_SEED) -> np.ndarray:
    """Test fold (0-based) of every row under Weka's ``-x n_folds -s seed``, from Weka's filters."""
    n_rows = len(_data_lines(arff))
    fold_of = np.full(n_rows, -1)
    with tempfile.TemporaryDirectory() as folder:
        with_id = Path(folder) / "with_id.arff"
        _java("weka.filters.unsupervised.attribute.AddID", "-i", arff, "-o", with_id)
        for k in range(1, n_folds + 1):
            out = _java("weka.filters.supervised.instance.StratifiedRemoveFolds", "-S", seed, "-N", n_folds,
                        "-F", k, "-c", "last", "-i", with_id)
            for line in _data_lines(text=out):
                fold_of[int(line.split(",")[0]) - 1] = k - 1
    assert (fold_of >= 0).all()
    return fold_of


def _data_lines(path=None, *, text=None):
    text = Path(path).read_text(encoding="utf-8") if text is None else text
    body = re.split(r"(?im)^@data\s*$", text, maxsplit=1)[1]
    return [line for line in body.splitlines() if line.strip() and not line.startswith("%")]


def _header(arff: Path) -> str:
    return re.split(r"(?im)^@data\s*$", arff.read_text(encoding="utf-8"), maxsplit=1)[0] + "@data\n"


def counts(out: str, section="=== Error on test data ===") -> tuple[int, int, int]:
    """(correct, incorrect, unclassified) of one Weka evaluation section."""
    part = out.split(section, 1)[1]
    found = [re.search(rf"{label}\s+(\d+)", part) for label in
             ("Correctly Classified Instances", "Incorrectly Classified Instances", "UnClassified Instances")]
    return tuple(int(match.group(1)) if match else 0 for match in found)


def prism_size(out: str) -> tuple[int, int]:
    """(rules, conditions) of Weka's printed Prism rule set."""
    body = out.split("Prism rules", 1)[1].split("=== Error on", 1)[0]
    lines = [line.strip() for line in body.splitlines()]
    rules = sum(line.startswith("If ") for line in lines)
    conditions = sum(line.startswith(("If ", "and ")) for line in lines)
    return rules, conditions


def _size(learner: str, out: str) -> tuple[int, int]:
    return {"Prism": prism_size, "J48": j48_size, "JRip": jrip_size}[learner](out)


def run():
    import pandas as pd

    if not ARFF.exists():
        raise SystemExit(f"no {ARFF}: run the export stage first")
    header, rows = _header(ARFF), _data_lines(ARFF)
    splits = {f"weka:{WEKA_SEED}": weka_folds(ARFF)}
    splits.update({k: np.asarray(v) for k, v in json.loads((BUILD / "numpy_folds.json").read_text()).items()})
    results, jobs = [], []
    with tempfile.TemporaryDirectory() as folder:
        for split, fold_of in splits.items():
            for fold in range(N_FOLDS):
                train = Path(folder) / f"{split.replace(':', '_')}_{fold}_train.arff"
                test = Path(folder) / f"{split.replace(':', '_')}_{fold}_test.arff"
                train.write_text(header + "\n".join(r for r, f in zip(rows, fold_of) if f != fold) + "\n")
                test.write_text(header + "\n".join(r for r, f in zip(rows, fold_of) if f == fold) + "\n")
                for learner, (classifier, options) in LEARNERS.items():
                    jobs.append((f"{split}|{fold}|{learner}", classifier, options, train, test))
        outputs = run_jobs(jobs)
    for job, *_ in jobs:
        split, fold, learner = job.split("|")
        fold_of, fold = splits[split], int(fold)
        out = outputs[job]
        correct, incorrect, unclassified = counts(out)
        assert correct + incorrect + unclassified == int((fold_of == fold).sum())
        results.append(dict(dataset=DATASET, method=learner, seed=split, fold=fold,
                            n_test=int((fold_of == fold).sum()), correct=correct, incorrect=incorrect,
                            unclassified=unclassified, **dict(zip(("rules", "literals"), _size(learner, out)))))
    print(f"{len(splits)} splits done", flush=True)
    order = {learner: k for k, learner in enumerate(LEARNERS)}
    frame = pd.DataFrame(results)
    frame = frame.sort_values(["seed", "method", "fold"], key=lambda c: c.map(order) if c.name == "method" else (
        c.map(_split_key) if c.name == "seed" else c), kind="stable").reset_index(drop=True)
    # Weka's own cross-validation, for the record and as a check of the folds.
    own = {}
    for learner, (classifier, options) in LEARNERS.items():
        out = _java(classifier, *options, "-t", ARFF, "-x", N_FOLDS, "-s", WEKA_SEED, "-v")
        own[learner] = counts(out, "=== Stratified cross-validation ===")
    ours = frame[frame["seed"] == f"weka:{WEKA_SEED}"].groupby("method")[["correct", "incorrect", "unclassified"]].sum()
    OUT.mkdir(parents=True, exist_ok=True)
    folds = pd.concat([pd.DataFrame({"seed": split, "row": np.arange(len(f)), "fold": f}) for split, f in splits.items()])
    folds.to_csv(OUT / "folds.csv", index=False)
    frame.to_csv(OUT / "results.csv", index=False)
    provenance = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "version: python": platform.python_version(),
        **{f"version: {name}": value for name, value in weka_versions().items()},
        "data": "build/prism_peers/contact-lenses.arff, written by peers/prism_peers.py export from "
                "companion.datasets.load_contact_lenses (rows in the loader's order)",
        "data_sha256": hashlib.sha256("\n".join(rows).encode()).hexdigest(),
        "folds: weka:1": f"Weka's own: weka.filters.unsupervised.attribute.AddID, then "
                         f"weka.filters.supervised.instance.StratifiedRemoveFolds -S {WEKA_SEED} -N {N_FOLDS} "
                         f"-F k -c last (k = 1..{N_FOLDS}; fold k-1 here)",
        "folds: numpy": "companion.experiments.paper02 seeded splits (companion.evaluation.stratified_folds, "
                        f"seeds {_seed_range(splits)}), as paper02.run makes them for the notebook's seed, its "
                        "seed variants and other seeds",
        "runner": "one JVM for every (learner, fold) job: peers/prism_peers.py DRIVER (Classifier.forName, "
                  "buildClassifier, Evaluation.evaluateModel on the test fold), as the command line below",
        **{f"fold_sha256: {split}": fold_hash(f) for split, f in splits.items()},
        **{f"command: {learner}": f"java -cp {WEKA_JAR} {classifier} {' '.join(options)} -t train.arff "
                                  "-T test.arff -v".replace("  ", " ")
           for learner, (classifier, options) in LEARNERS.items()},
        **{f"weka -x {N_FOLDS} -s {WEKA_SEED}: {learner}": "correct {} incorrect {} unclassified {}".format(*own[learner])
           for learner in LEARNERS},
        **{f"sum over weka:{WEKA_SEED} folds: {learner}": "correct {} incorrect {} unclassified {}".format(
            *ours.loc[learner].tolist()) for learner in LEARNERS},
        "sizes": "Prism: rules and their conditions; J48: rules = leaves, literals = sum of leaf depths; "
                 "JRip: rules without the default rule, literals = their conditions",
        "command: regenerate": f".venv/bin/python peers/prism_peers.py export --splits {_seed_range(splits)} && "
                               "/work/peers-venv/bin/python peers/prism_peers.py run",
    }
    pd.DataFrame({"key": list(provenance), "value": list(provenance.values())}).to_csv(OUT / "provenance.csv", index=False)
    for learner in LEARNERS:
        print(learner, "weka -x:", own[learner], "our folds:", tuple(ours.loc[learner]))


def _split_key(split: str):
    generator, _, number = split.partition(":")
    return (generator != "weka", int(number))


def _seed_range(splits) -> str:
    seeds = sorted(int(s.partition(":")[2]) for s in splits if s.startswith("numpy:"))
    return f"{seeds[0]}-{seeds[-1]}" if seeds == list(range(seeds[0], seeds[-1] + 1)) else ",".join(map(str, seeds))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("stage", choices=["export", "run"])
    parser.add_argument("--splits", default=DEFAULT_SPLITS,
                        help="export: the seeds of the numpy:<seed> splits, e.g. 0-99 or 0-9,11 (default %(default)s)")
    args = parser.parse_args(argv)
    export(args.splits) if args.stage == "export" else run()


if __name__ == "__main__":
    main()
