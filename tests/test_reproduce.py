"""The papermill runner: order, selection, parameters, where each run writes, failure reporting,
and byte-identical re-runs."""

import json
import os
from pathlib import Path

import nbformat
import pytest

from companion import _notebook_runner, reproduce
from companion.paths import NOTEBOOKS
from companion._files import file_mode
from companion._progress import PROGRESS_ENV


def _write_notebook(path, sources, tag_parameters=True, parameters="fast = False", minor=None):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    cells = [nbformat.v4.new_code_cell(parameters)]
    if tag_parameters:
        cells[0].metadata["tags"] = ["parameters"]
    cells += [nbformat.v4.new_code_cell(src) for src in sources]
    nb.cells = cells
    if minor is not None:  # an older notebook, from before cell ids (nbformat 4.4)
        nb.nbformat_minor = minor
        for cell in nb.cells:
            del cell["id"]
    nbformat.write(nb, path)
    return path


def _printed(path):
    nb = nbformat.read(path, as_version=4)
    return [o["text"] for c in nb.cells if c.cell_type == "code" for o in c.outputs if "text" in o]


@pytest.fixture
def notebooks(tmp_path):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    _write_notebook(folder / "01_ok.ipynb", ["print('mode', 'fast' if fast else 'full')"])
    _write_notebook(folder / "02_fails.ipynb", ["x = 1", "raise RuntimeError('deliberate failure')"])
    (folder / "scratch.ipynb").write_text("{}")  # unnumbered: ignored
    return folder


# A notebook with several parameters that saves a figure and a result table through
# companion.paths, so that where they land can be checked.
_PARAMETERS = "fast = False\nseed = 0\nrate = 0.1\nname = 'x'\nflag = False\nmissing = 1"
_WRITES = [
    "print({k: (type(v).__name__, v) for k, v in "
    "dict(fast=fast, seed=seed, rate=rate, name=name, flag=flag, missing=missing).items()})",
    "import pandas as pd\nfrom companion.paths import save_table, figures_dir\n"
    "save_table(pd.DataFrame({'seed': [seed], 'third': [1 / 3]}), '09_table.csv', index=False)\n"
    "print(figures_dir().name)",
    "import matplotlib.pyplot as plt\nfrom companion.paths import save_figure\n"
    "fig, ax = plt.subplots()\nax.plot([0, seed])\nsave_figure(fig, '09_line');",
]


@pytest.fixture
def writer(tmp_path):
    folder = tmp_path / "writer"
    folder.mkdir()
    return _write_notebook(folder / "09_writer.ipynb", _WRITES, parameters=_PARAMETERS)


def test_discovery_is_ordered_and_selectable(notebooks):
    names = [p.name for p in _notebook_runner.discover_notebooks(notebooks)]
    assert names == ["01_ok.ipynb", "02_fails.ipynb"]
    assert [p.name for p in _notebook_runner.discover_notebooks(notebooks, ["2"])] == ["02_fails.ipynb"]
    with pytest.raises(ValueError, match="no notebook numbered 07"):
        _notebook_runner.discover_notebooks(notebooks, ["07"])


@pytest.mark.parametrize(
    "text, value",
    [("7", 7), ("-3", -3), ("0.5", 0.5), ("1e-3", 0.001), ("True", True), ("False", False),
     ("None", None), ("abc", "abc"), ("true", "true"), ("", "")],
)
def test_parameter_values_are_read_like_papermill(text, value):
    parsed = _notebook_runner.parse_parameter_value(text)
    assert parsed == value and type(parsed) is type(value)


@pytest.mark.slow
def test_failing_notebook_names_cell_keeps_original_and_exits_nonzero(notebooks, tmp_path, capsys):
    originals = {p.name: p.read_bytes() for p in notebooks.iterdir()}
    out = tmp_path / "out"
    status = reproduce.main(["--notebooks", str(notebooks), "--fast", "--output-dir", str(out)])
    printed = capsys.readouterr().out
    assert status == 1
    assert "01_ok.ipynb" in printed and "02_fails.ipynb" in printed and "FAILED" in printed
    assert "cell 2 (0-based): RuntimeError: deliberate failure" in printed
    assert (out / "failed" / "02_fails.ipynb").is_file()  # partial run kept for inspection
    assert not (out / "02_fails.ipynb").exists()
    assert "1 ok, 1 failed" in printed
    # A --fast run never touches the notebooks it runs.
    assert {p.name: p.read_bytes() for p in notebooks.iterdir()} == originals
    assert "mode fast\n" in _printed(out / "01_ok.ipynb")  # --fast injected the parameter
    assert "start_time" not in json.dumps(nbformat.read(out / "01_ok.ipynb", as_version=4).metadata)


@pytest.mark.slow
def test_only_selects_and_success_exits_zero(notebooks, capsys):
    assert reproduce.main(["--notebooks", str(notebooks), "--only", "01"]) == 0
    out = capsys.readouterr().out
    assert "1 ok, 0 failed" in out and "02_fails" not in out.split("Summary")[1]
    assert "mode full\n" in _printed(notebooks / "01_ok.ipynb")  # the default run: in place


def test_corrupted_notebook_gets_a_clear_message(tmp_path, capsys):
    (tmp_path / "03_broken.ipynb").write_text('{"cells": [')
    assert reproduce.main(["--notebooks", str(tmp_path)]) == 1
    assert "03_broken.ipynb is not a valid notebook" in capsys.readouterr().out


@pytest.mark.slow
def test_parameters_run_writes_only_under_output_dir_with_typed_values(writer, tmp_path, monkeypatch):
    committed_figures = tmp_path / "committed_figures"
    monkeypatch.setenv("COMPANION_FIGURES", str(committed_figures))  # where a publishing run writes
    source = writer.read_bytes()
    out = tmp_path / "out"
    argv = ["--notebooks", str(writer.parent), "-p", "seed", "7", "--fast", "-p", "rate", "0.5",
            "-p", "name", "abc", "-p", "flag", "True", "-p", "missing", "None", "--output-dir", str(out)]
    assert reproduce.main(argv) == 0
    assert writer.read_bytes() == source  # the source notebook is byte-identical
    assert sorted(p.name for p in writer.parent.iterdir()) == ["09_writer.ipynb"]
    assert not committed_figures.exists()
    assert os.environ["COMPANION_FIGURES"] == str(committed_figures)  # restored after the run
    assert sorted(p.name for p in out.iterdir()) == ["09_writer.ipynb", "figures"]
    assert sorted(p.name for p in (out / "figures").iterdir()) == ["09_line.png", "09_table.csv"]
    assert (out / "figures" / "09_table.csv").read_text() == "seed,third\n7,0.3333333333\n"
    # written with the umask's mode (0644 under 022), not the 0600 of a temporary file
    mode = file_mode()
    for written in (out / "09_writer.ipynb", out / "figures" / "09_line.png", out / "figures" / "09_table.csv"):
        assert written.stat().st_mode & 0o777 == mode, written
    printed = _printed(out / "09_writer.ipynb")
    assert printed[0].strip() == repr({
        "fast": ("bool", True), "seed": ("int", 7), "rate": ("float", 0.5), "name": ("str", "abc"),
        "flag": ("bool", True), "missing": ("NoneType", None)})
    executed = nbformat.read(out / "09_writer.ipynb", as_version=4)
    assert executed.metadata.papermill.parameters == {
        "fast": True, "seed": 7, "rate": 0.5, "name": "abc", "flag": True, "missing": None}


@pytest.mark.slow
def test_non_default_run_defaults_to_build_reproduce(writer, tmp_path, monkeypatch):
    monkeypatch.setattr(_notebook_runner, "ROOT", tmp_path / "checkout")
    source = writer.read_bytes()
    assert reproduce.main(["--notebooks", str(writer.parent), "-p", "seed", "7", "--fast"]) == 0
    out = tmp_path / "checkout" / "build" / "reproduce" / "fast_seed-7"
    assert (out / "09_writer.ipynb").is_file()
    assert (out / "figures" / "09_table.csv").read_text().startswith("seed,third\n7,")
    assert writer.read_bytes() == source


def test_output_dir_may_not_be_the_notebooks_folder(writer):
    with pytest.raises(SystemExit):
        reproduce.main(["--notebooks", str(writer.parent), "--output-dir", str(writer.parent)])


def _run_twice(argv, produced):
    """Run the runner twice; return the bytes of the files ``produced`` lists after each run."""
    snapshots = []
    for _ in range(2):
        assert reproduce.main(argv) == 0
        snapshots.append({str(p): Path(p).read_bytes() for p in produced})
    return snapshots


@pytest.mark.slow
def test_default_run_publishes_in_place_and_reruns_are_byte_identical(writer, tmp_path, monkeypatch):
    figures = tmp_path / "figures"
    monkeypatch.setenv("COMPANION_FIGURES", str(figures))
    first, second = _run_twice(["--notebooks", str(writer.parent)],
                               [writer, figures / "09_table.csv", figures / "09_line.png"])
    assert first == second
    assert (figures / "09_table.csv").read_text() == "seed,third\n0,0.3333333333\n"
    nb = nbformat.read(writer, as_version=4)
    injected = [c for c in nb.cells if "injected-parameters" in c.metadata.get("tags", [])]
    assert len(injected) == 1 and injected[0].id == "injected-parameters"
    assert nb.metadata.papermill == {"default_parameters": {}, "environment_variables": {},
                                     "exception": None, "parameters": {"fast": False}}
    assert "version" not in nb.metadata.language_info  # the machine's Python patch version
    text = writer.read_text()
    for volatile in ("start_time", "duration", str(tmp_path), '"execution":'):
        assert volatile not in text


@pytest.mark.slow
def test_output_dir_reruns_are_byte_identical_even_without_cell_ids(tmp_path):
    (tmp_path / "nb").mkdir()
    source = _write_notebook(tmp_path / "nb" / "01_old.ipynb", ["print(seed)"],
                             parameters="fast = False\nseed = 0", minor=4)
    out = tmp_path / "out"
    first, second = _run_twice(["--notebooks", str(source.parent), "-p", "seed", "3",
                                "--output-dir", str(out)], [out / "01_old.ipynb"])
    assert first == second
    nb = nbformat.read(out / "01_old.ipynb", as_version=4)
    assert [c.id for c in nb.cells] == ["cell-0", "injected-parameters", "cell-2"]
    assert _printed(out / "01_old.ipynb") == ["3\n"]


# --------------------------------------------------------------------------------------------
# Issue 14: the failing cell as a reader counts it, quiet kernels, progress, --timings, --help
# --------------------------------------------------------------------------------------------


def _committed_like(path, minor=None):
    """A notebook as `make reproduce` commits it: title, parameters, the injected-parameters cell
    of its last run, then code; cell 4 (0-based) raises."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    parameters = nbformat.v4.new_code_cell("fast = False")
    parameters.metadata["tags"] = ["parameters"]
    injected = nbformat.v4.new_code_cell("# Parameters\nfast = False\n")
    injected.metadata["tags"] = ["injected-parameters"]
    injected["id"] = "injected-parameters"
    nb.cells = [nbformat.v4.new_markdown_cell("# 05 title"), parameters, injected,
                nbformat.v4.new_code_cell("x = 1"),
                nbformat.v4.new_code_cell("\n# the failing cell\nraise RuntimeError('in cell four')")]
    if minor is not None:
        nb.nbformat_minor = minor
        for cell in nb.cells:
            del cell["id"]
    nbformat.write(nb, path)
    return path


@pytest.mark.slow
@pytest.mark.parametrize("minor", [None, 4], ids=["cell-ids", "nbformat-4.4"])
def test_failing_cell_is_numbered_as_in_the_committed_notebook(tmp_path, capsys, minor):
    """The committed notebook holds the injected-parameters cell: it is counted, as a reader
    counts it (papermill replaces it, and adds error banners, which are not counted)."""
    (tmp_path / "nb").mkdir()
    _committed_like(tmp_path / "nb" / "05_fails.ipynb", minor=minor)
    timings = tmp_path / "timings" / "t.csv"
    argv = ["--notebooks", str(tmp_path / "nb"), "--fast", "--output-dir", str(tmp_path / "out"),
            "--timings", str(timings)]
    assert reproduce.main(argv) == 1
    printed = capsys.readouterr().out
    assert "cell 4 (0-based): RuntimeError: in cell four" in printed
    assert "the cell begins: # the failing cell" in printed
    failed = nbformat.read(tmp_path / "out" / "failed" / "05_fails.ipynb", as_version=4)
    assert "the failing cell" in [c for c in failed.cells if c.get("outputs")][-1].source
    assert timings.read_text().splitlines()[1].startswith("05_fails.ipynb,False,")


def test_timings_to_an_unwritable_path_fails_before_running(notebooks, tmp_path, capsys, monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("a notebook ran although --timings cannot be written")

    monkeypatch.setattr(reproduce, "run_all", never)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    for target in (blocker / "timings.csv", tmp_path):  # under a file; a folder
        with pytest.raises(SystemExit) as exit_info:
            reproduce.main(["--notebooks", str(notebooks), "--timings", str(target)])
        assert exit_info.value.code == 2
        assert f"--timings {target} cannot be written" in capsys.readouterr().err


def test_timings_check_leaves_no_file_behind(tmp_path):
    target = tmp_path / "new" / "t.csv"
    assert reproduce._check_writable(target) is None
    assert not target.exists()


def test_a_parameter_no_notebook_declares_is_refused_with_the_closest_name(capsys):
    """``-p sed 3`` (a typo of ``seed``) must not run the default seed and exit 0."""
    declared = _notebook_runner._declared_parameters(NOTEBOOKS / "02_prism_contact_lenses.ipynb")
    assert {"fast", "seed", "n_cv_repeats"} <= declared
    with pytest.raises(SystemExit) as stop:
        reproduce.main(["--only", "02", "-p", "sed", "3"])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert "-p sed: no selected notebook declares a parameter 'sed'; did you mean 'seed'?" in error
    with pytest.raises(SystemExit):
        reproduce.main(["--only", "02", "-p", "coverage_runs", "2"])  # 01 declares it; 02 does not
    assert "'coverage_runs'" in capsys.readouterr().err


def test_help_is_plain_text(capsys):
    with pytest.raises(SystemExit) as exit_info:
        reproduce.main(["--help"])
    assert exit_info.value.code == 0
    text = capsys.readouterr().out
    assert "``" not in text and ":func:" not in text and ":class:" not in text
    assert "\nexamples:\n  python -m companion.reproduce " in text
    assert "\n  python -m companion.reproduce --fast " in text
    assert "Only the *default* run" in text


_PROGRESS_CELL = (
    "import os, sys, time\n"
    "from companion import evaluation\n"
    "def _fold(i):\n"
    "    return i\n"
    "print(evaluation.parallel_map(_fold, range(3), progress_interval=0.0))\n"
    "# what the kernel process writes to its own stderr, outside the notebook\n"
    "os.write(getattr(sys.stderr, '_original_stdstream_copy', 2), b'kernel says hello\\n')"
)


@pytest.mark.slow
def test_runner_shows_progress_and_kernel_output_without_noise(tmp_path, capfd, monkeypatch):
    monkeypatch.setenv(PROGRESS_ENV, "1")  # the user's own setting: kept for them
    (tmp_path / "nb").mkdir()
    _write_notebook(tmp_path / "nb" / "01_progress.ipynb", [_PROGRESS_CELL])
    out = tmp_path / "out"
    assert reproduce.main(["--notebooks", str(tmp_path / "nb"), "--fast", "--output-dir", str(out)]) == 0
    err = capfd.readouterr().err.replace("\r", "\n")
    assert [line.split(" (")[0] for line in err.splitlines() if line.startswith("fold:")] == [
        "fold: 1/3", "fold: 2/3", "fold: 3/3"]
    assert "kernel says hello" in err
    assert "without encryption" not in err and "KeyboardInterrupt" not in err
    assert _printed(out / "01_progress.ipynb") == ["[0, 1, 2]\n"]  # no progress in the notebook
    assert os.environ[PROGRESS_ENV] == "1"  # restored after the run


def test_kernel_output_drops_only_the_known_noise(capsys):
    with _notebook_runner._KernelOutput(progress_bar=False, poll_seconds=60) as output:
        with open(output.path, "a") as handle:
            handle.write(
                "[IPKernelApp] WARNING | Kernel is running over TCP without encryption. All...\n"
                "[IPKernelApp] ERROR | KeyboardInterrupt caught in kernel.\n"
                "KeyboardInterrupt caught in kernel\n"
                "Fatal Python error: Segmentation fault\n"
                "dlm_fold: 3/20 (12 s)\n"
                "last line without newline"
            )
        path = output.path
    assert capsys.readouterr().err.splitlines() == [
        "Fatal Python error: Segmentation fault", "dlm_fold: 3/20 (12 s)", "last line without newline"]
    assert not path.exists()


def test_progress_variable_is_the_one_evaluation_reads(monkeypatch):
    from companion import _progress

    monkeypatch.setenv(_notebook_runner.PROGRESS_ENV, "stderr")  # what the runner sets for a kernel
    assert _progress.progress_target() == "stderr"  # what parallel_map and the learners read


@pytest.mark.slow
def test_a_run_stopped_by_sigterm_leaves_no_scratch_notebook(tmp_path):
    """`kill` during a cell: the runner exits non-zero and removes its .running-*.ipynb copy,
    which nbval would otherwise collect as a notebook."""
    import signal
    import subprocess
    import sys
    import time

    folder = tmp_path / "notebooks"
    folder.mkdir()
    _write_notebook(folder / "01_slow.ipynb", ["import time\ntime.sleep(120)"])
    out = tmp_path / "out"
    process = subprocess.Popen([sys.executable, "-m", "companion.reproduce", "--notebooks", str(folder),
                                "--output-dir", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not list(out.glob(".running-*.ipynb")) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert list(out.glob(".running-*.ipynb")), "the runner never started the notebook"
    time.sleep(3)  # inside the sleeping cell
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) != 0
    assert list(out.glob(".running-*")) == []


@pytest.mark.parametrize(
    "argv, message",
    [
        (["-p", "seed", "seven"], "-p seed seven: 01_decision_list_machine.ipynb declares seed = 0 (an int), and 'seven' is not an int"),
        (["--only", "02", "-p", "seed", "1.5"], "declares seed = 0 (an int), and '1.5' is not an int"),
        (["--only", "02", "-p", "n_cv_repeats", "True"], "and 'True' is not an int"),
    ],
)
def test_a_parameter_of_the_wrong_type_is_refused_before_any_kernel_starts(argv, message, capsys, monkeypatch):
    """``-p seed seven`` used to start a kernel and fail inside the notebook with numpy's
    SeedSequence message; the parameters cell says seed is an int, so it is refused at once."""
    import time

    def no_kernel(*args, **kwargs):
        raise AssertionError("a kernel was started")

    monkeypatch.setattr(reproduce, "run_all", no_kernel)
    start = time.perf_counter()
    with pytest.raises(SystemExit) as stop:
        reproduce.main(argv)
    assert time.perf_counter() - start < 5
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_parameter_types_follow_the_declared_defaults():
    defaults = {"09.ipynb": {"seed": 0, "rate": 0.1, "name": "x", "flag": False, "sizes": (1, 2), "opt": None}}
    ok = [("seed", 7), ("rate", 1), ("rate", 0.5), ("name", "abc"), ("name", 3), ("flag", True),
          ("sizes", "a"), ("opt", 3), ("seed", None)]
    for name, value in ok:
        assert _notebook_runner.parameter_type_error(name, str(value), value, defaults) is None, (name, value)
    bad = [("seed", "seven"), ("seed", 1.5), ("seed", True), ("rate", "fast"), ("flag", 1), ("flag", "yes")]
    for name, value in bad:
        assert "09.ipynb declares" in _notebook_runner.parameter_type_error(name, str(value), value, defaults)
