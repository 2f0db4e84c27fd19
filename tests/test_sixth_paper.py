"""The sixth-paper test: a toy paper moves in through the path CONTRIBUTING describes.

``tests/sixth_paper/`` holds what a new paper brings (CONTRIBUTING, "Adding a paper"): its claims
registry (``paper06.toml``) and its package (``toy_paper06/``, shaped as every
``companion.experiments.paperNN``: ``_protocol`` with a toy learner, ``Config`` and ``run``;
``_claims`` with the registry's measures and the claims report with the fold seeds as variants;
``_figures`` with one figure; ``_prose`` with one template; ``__init__`` listing what the notebook
calls). The test writes its notebook in the anatomy every notebook has, executes it
with the project's runner at the default seed and at another one, and publishes its claims into
a copy of the README and ``docs/results.md``. Nothing is written into the checkout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pandas as pd
import pytest

from companion import claims as C
from companion.paths import ROOT

HERE = Path(__file__).with_name("sixth_paper")

CELLS = [
    ("markdown", "# 06 — One stump is enough\n\nA. Toy. *One stump is enough.* Journal of Tests, 2099.\n\n"
                 "We reproduce the paper's one claim: a threshold on the first feature beats the majority class."),
    ("parameters", "fast = False\nseed = 0\nn_jobs = 1"),
    ("code", "import numpy as np\n\nimport toy_paper06 as paper\n\nrng = np.random.default_rng(seed)\n"
             "config = paper.Config.fast(seed) if fast else paper.Config(seed=seed)"),
    ("markdown", "## The paper's claims\n\nThe stump's test error is lower than the majority class's "
                 "(criterion in the registry)."),
    ("code", "results = paper.run(config, n_jobs=n_jobs)\npaper.size_sentence(config)"),
    ("code", "report = paper.claims_report(results, config)\nreport.save(\"06_claims\")\nreport.sentences()"),
    ("code", "report.summary()"),
    ("code", "paper.figure_errors(results[results[\"seed\"] == seed]);"),
    ("markdown", "## Discussion"),
    ("code", "report.discussion()"),
]


def _notebook(path: Path) -> None:
    notebook = nbformat.v4.new_notebook()
    for kind, source in CELLS:
        if kind == "markdown":
            notebook.cells.append(nbformat.v4.new_markdown_cell(source))
        else:
            cell = nbformat.v4.new_code_cell(source)
            if kind == "parameters":
                cell.metadata["tags"] = ["parameters"]
            notebook.cells.append(cell)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, path)


def _run(notebooks: Path, out: Path, *options) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("COMPANION_FIGURES", "COMPANION_PROGRESS")}
    environment["PYTHONPATH"] = os.pathsep.join([str(HERE), str(ROOT), environment.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "companion.reproduce", "--notebooks", str(notebooks),
                           "--output-dir", str(out), *options],
                          cwd=ROOT, env=environment, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_a_sixth_paper_moves_in_through_the_documented_path(tmp_path):
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    _notebook(notebooks / "06_toy_stump.ipynb")

    runs = {}
    for label, options in (("default", ()), ("seed7", ("--fast", "-p", "seed", "7"))):
        result = _run(notebooks, tmp_path / label, *options)
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
        runs[label] = pd.read_csv(tmp_path / label / "figures" / "06_claims.csv", dtype={"id": str})
        assert (tmp_path / label / "figures" / "06_errors.png").stat().st_size > 0
    main = runs["default"].set_index("id")
    # the registry's fields reach the table, and the engine's verdicts follow the origins
    assert list(main.index) == ["stump-beats-majority", "majority-error", "threshold-near-zero"]
    assert main.loc["majority-error", "verdict"] == "holds" and main.loc["majority-error", "category"] == "mathematical"
    assert main.loc["majority-error", "detail"].startswith("on 200 random label vectors")
    assert main.loc["stump-beats-majority", "origin"] == "paper"
    assert main.loc["stump-beats-majority", "where"] == "Section 4, Table 2"
    assert main.loc["stump-beats-majority", "verdict"] == "holds"  # 10 folds (2^-10 reachable) of a clear signal
    assert main.loc["stump-beats-majority", "seeds"] == "4 of 4 other seeds keep"
    assert main.loc["threshold-near-zero", "verdict"] == "observed"
    # the other seed judges the same claims
    assert list(runs["seed7"]["id"]) == list(main.index)

    executed = nbformat.read(tmp_path / "default" / "06_toy_stump.ipynb", as_version=4)
    outputs = "\n".join(o.get("data", {}).get("text/markdown", "") for c in executed.cells if c.cell_type == "code"
                        for o in c.get("outputs", []))
    assert '<a id="claim-06-stump-beats-majority"></a>' in outputs
    assert "The table has 300 rows and 10 folds." in outputs
    assert "* **stump-beats-majority.** Over 10 test folds the stump's error is" in outputs
    assert "* mathematical statements of the paper: 1 checked here: 1 holds" in outputs

    # publishing: the README glance and docs/results.md of a copy of the checkout gain notebook 06
    root = tmp_path / "checkout"
    (root / "figures").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "notebooks").mkdir()
    shutil.copy(tmp_path / "default" / "figures" / "06_claims.csv", root / "figures")
    shutil.copy(notebooks / "06_toy_stump.ipynb", root / "notebooks")
    (root / "README.md").write_text("# R\n\n<!-- claims:glance -->\n<!-- /claims:glance -->\n", encoding="utf-8")
    (root / "docs" / "results.md").write_text("# Results\n", encoding="utf-8")
    assert C.publish(root) == ["docs/results.md", "README.md"]
    readme = (root / "README.md").read_text(encoding="utf-8")
    link = "[nb-06]"
    assert f"| 06 | [1: 1 holds]{link} | [1 checked here: 1 holds]{link} |" in readme
    assert "* [06: The stump is more accurate than the majority class — " in readme
    assert "[claim-06-stump-beats-majority]: docs/results.md#claim-06-stump-beats-majority" in readme
    results = (root / "docs" / "results.md").read_text(encoding="utf-8")
    assert "[stump-beats-majority](../notebooks/06_toy_stump.ipynb#claim-06-stump-beats-majority)" in results
    assert C.publish(root, write=False) == []
