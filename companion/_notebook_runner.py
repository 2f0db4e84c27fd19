"""The notebook runner behind ``python -m companion.reproduce``: papermill execution, outputs, failures.

:func:`run_all` executes the numbered notebooks in order (:func:`run_notebook` each), publishes
only the default run, saves a failed run under ``failed/``, and normalises every executed
notebook so that a re-run gives the same bytes on any machine. :mod:`companion.reproduce` parses
the command line and reports; the description of a run is its module docstring.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from companion._files import file_mode
from companion._progress import PROGRESS_ENV
from companion._notebook_metadata import normalise_metadata, stamp_provenance
from companion._notebook_profile import write_profile
from companion.paths import NOTEBOOKS, ROOT


_NUMBERED = re.compile(r"^(\d\d)_.*\.ipynb$")

#: What the default (publishing) run injects into every notebook.
_DEFAULT_PARAMETERS = {"fast": False}

#: Fixed id of the cell papermill injects (papermill gives it a random one on every run).
INJECTED_CELL_ID = "injected-parameters"
_CELL_ID = re.compile(r"^[a-zA-Z0-9-_]{1,64}$")

#: Lines of the kernel process's own output that say nothing about the run: ipykernel's warning
#: that it listens on local TCP (every start), and its log of the interrupt that jupyter_client
#: sends before every shutdown (when it lands while a message is handled).
_KERNEL_NOISE = re.compile(
    r"Kernel is running over TCP without encryption|KeyboardInterrupt caught in kernel"
)


@dataclass
class NotebookResult:
    """Outcome of executing one notebook.

    Parameters
    ----------
    notebook : pathlib.Path
        The notebook run.
    ok : bool
        Whether every cell succeeded.
    seconds : float
        Wall time of the run.
    failed_cell : int, optional
        0-based index of the failing cell among the notebook's cells as committed.
    error : str, default=""
        The error's message.
    failed_copy : pathlib.Path, optional
        Where the partial run was saved.
    failed_source : str, default=""
        First line of the failing cell's code.
    """

    notebook: Path
    ok: bool
    seconds: float
    failed_cell: int | None = None  # 0-based index among the cells of the notebook as committed
    error: str = ""
    failed_copy: Path | None = None
    failed_source: str = ""  # first line of the failing cell's code

    def summary_line(self) -> str:
        """One line (more when the run failed: where, why, the partial copy) for the progress log.

        Returns
        -------
        str
        """
        status = "ok" if self.ok else "FAILED"
        line = f"{self.notebook.name:<45} {status:<7} {self.seconds:7.1f} s"
        if not self.ok:
            where = f"cell {self.failed_cell} (0-based)" if self.failed_cell is not None else "before any cell"
            line += f"\n    {where}: {self.error}"
            if self.failed_source:
                line += f"\n    the cell begins: {self.failed_source}"
            if self.failed_copy is not None:
                line += f"\n    partial run saved to {self.failed_copy}"
        return line


def discover_notebooks(folder: Path = NOTEBOOKS, only: list[str] | None = None) -> list[Path]:
    """Numbered notebooks in ``folder``, sorted; ``only`` keeps those whose number is listed.

    Parameters
    ----------
    folder : pathlib.Path, default=:data:`companion.paths.NOTEBOOKS`
        Where the notebooks are.
    only : list of str, optional
        Notebook numbers (``"3"`` or ``"03"``) to keep.

    Returns
    -------
    list of pathlib.Path

    Raises
    ------
    ValueError
        If a number in ``only`` matches no notebook.
    """
    notebooks = sorted(p for p in Path(folder).glob("*.ipynb") if _NUMBERED.match(p.name))
    if only:
        wanted = {str(n).zfill(2) for n in only}
        found = {_NUMBERED.match(p.name).group(1) for p in notebooks}
        missing = sorted(wanted - found)
        if missing:
            raise ValueError(f"no notebook numbered {', '.join(missing)} in {folder}")
        notebooks = [p for p in notebooks if _NUMBERED.match(p.name).group(1) in wanted]
    return notebooks


def parse_parameter_value(text: str):
    """Value of ``-p NAME VALUE`` read the way papermill's command line reads it.

    ``True``, ``False`` and ``None`` become those constants, then an int is tried, then a float;
    anything else stays a string.

    Parameters
    ----------
    text : str
        The ``VALUE`` as typed.

    Returns
    -------
    bool, None, int, float or str

    Examples
    --------
    >>> [parse_parameter_value(v) for v in ["7", "-3", "0.5", "1e-3", "True", "None", "abc"]]
    [7, -3, 0.5, 0.001, True, None, 'abc']
    >>> parse_parameter_value("false")  # case matters, as in papermill
    'false'
    """
    if text == "True":
        return True
    if text == "False":
        return False
    if text == "None":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _declared_parameters(notebook: Path) -> set[str]:
    """Names the notebook's ``parameters`` cell assigns (the parameters it declares).

    Parameters
    ----------
    notebook : pathlib.Path
        An ``.ipynb`` file.

    Returns
    -------
    set of str
        Every name bound at the top level of the cell tagged ``parameters`` (empty when it has
        none).
    """
    import ast

    nb = json.loads(Path(notebook).read_text(encoding="utf-8"))
    names: set[str] = set()
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code" and "parameters" in cell.get("metadata", {}).get("tags", []):
            tree = ast.parse("".join(cell.get("source", "")))
            for node in tree.body:
                targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
                names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def declared_parameter_values(notebook: Path) -> dict:
    """The default value of each parameter the notebook's ``parameters`` cell assigns a literal.

    Parameters
    ----------
    notebook : pathlib.Path
        An ``.ipynb`` file.

    Returns
    -------
    dict
        ``name -> value`` for every top-level assignment of a Python literal (``seed = 0``,
        ``fast = False``, ``sizes = (10, 20)``); a name bound to an expression is left out.
    """
    import ast

    nb = json.loads(Path(notebook).read_text(encoding="utf-8"))
    values: dict = {}
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code" and "parameters" in cell.get("metadata", {}).get("tags", []):
            tree = ast.parse("".join(cell.get("source", "")))
            for node in tree.body:
                targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
                value = getattr(node, "value", None)
                for target in targets:
                    if isinstance(target, ast.Name) and value is not None:
                        try:
                            values[target.id] = ast.literal_eval(value)
                        except (ValueError, SyntaxError, TypeError):
                            pass
    return values


def _type_name(value) -> str:
    return {bool: "a bool", int: "an int", float: "a float", str: "a string"}.get(
        type(value), f"a {type(value).__name__}"
    )


def parameter_type_error(name: str, text: str, value, notebook_defaults: dict) -> str | None:
    """The refusal for ``-p name text`` when ``value`` does not fit a notebook's declared default.

    A parameter declared as an int takes an int, a float an int or a float, a bool ``True`` or
    ``False``, a string anything typed (kept as text); ``None`` is accepted for any of them (the
    notebook's own code decides what it means), and a parameter declared ``None`` or as a
    container is not checked here.

    Parameters
    ----------
    name : str
        The parameter.
    text : str
        The value as typed.
    value : object
        ``parse_parameter_value(text)``.
    notebook_defaults : dict
        ``notebook name -> declared_parameter_values(notebook)``.

    Returns
    -------
    str or None

    Examples
    --------
    >>> parameter_type_error("seed", "seven", "seven", {"01_dlm.ipynb": {"seed": 0}})
    "-p seed seven: 01_dlm.ipynb declares seed = 0 (an int), and 'seven' is not an int"
    >>> parameter_type_error("seed", "7", 7, {"01_dlm.ipynb": {"seed": 0}}) is None
    True
    """
    for notebook, defaults in notebook_defaults.items():
        if name not in defaults:
            continue
        default = defaults[name]
        if value is None or default is None or isinstance(default, (list, tuple, dict, set)):
            continue
        kind = type(default)
        if kind is str:
            fits = True
        elif kind is bool:
            fits = isinstance(value, bool)
        elif kind is int:
            fits = isinstance(value, int) and not isinstance(value, bool)
        elif kind is float:
            fits = isinstance(value, (int, float)) and not isinstance(value, bool)
        else:
            fits = isinstance(value, kind)
        if not fits:
            hint = " (True or False)" if kind is bool else ""
            return (f"-p {name} {text}: {notebook} declares {name} = {default!r} ({_type_name(default)}), "
                    f"and {text!r} is not {_type_name(default)}{hint}")
    return None


def declared_or_none(notebook: Path) -> set[str]:
    """:func:`_declared_parameters`, or no name for a notebook that cannot be read (its run reports why)."""
    try:
        return _declared_parameters(notebook)
    except (ValueError, SyntaxError, OSError):
        return set()


def undeclared_parameter_error(name: str, declared: set[str]) -> str | None:
    """The refusal for ``-p name`` when no selected notebook declares it, naming the closest name."""
    import difflib

    if name in declared:
        return None
    close = difflib.get_close_matches(name, sorted(declared), n=1, cutoff=0.5)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return (f"-p {name}: no selected notebook declares a parameter {name!r}{hint} "
            f"(declared: {', '.join(sorted(declared))})")


def run_label(parameters: dict) -> str:
    """Folder name naming a run's parameters: ``fast``, ``seed-7``, ``fast_seed-7``...

    >>> run_label({"fast": True, "seed": 7})
    'fast_seed-7'
    >>> run_label({"fast": False, "name": "a b/c"})
    'name-a_b_c'
    >>> run_label({"fast": False})
    'default'
    """
    parts = ["fast"] if parameters.get("fast") is True else []
    parts += [
        f"{name}-{value}"
        for name, value in parameters.items()
        if not (name == "fast" and isinstance(value, bool))
    ]
    label = "_".join(re.sub(r"[^A-Za-z0-9.=-]+", "_", part) for part in parts) or "default"
    return label[:100]


def default_output_dir(parameters: dict, root: Path | None = None) -> Path:
    """Where a non-publishing run writes when no ``--output-dir`` is given.

    ``root`` defaults to the checkout (``companion.paths.ROOT``); ``build/`` is git-ignored.

    >>> default_output_dir({"fast": True, "seed": 7}, Path("/repo")).as_posix()
    '/repo/build/reproduce/fast_seed-7'
    """
    return Path(root or ROOT) / "build" / "reproduce" / run_label(parameters)


def _check_readable(notebook: Path) -> None:
    """Fail early, with the file's name, on a notebook that is not valid notebook JSON."""
    import nbformat

    try:
        nbformat.validate(nbformat.read(notebook, as_version=4))
    except (json.JSONDecodeError, nbformat.reader.NotJSONError) as exc:
        raise ValueError(f"{notebook.name} is not a valid notebook file (not JSON): {exc}") from exc
    except nbformat.ValidationError as exc:
        raise ValueError(f"{notebook.name} is not a valid notebook: {exc.message}") from exc


def run_notebook(
    notebook: Path,
    *,
    fast: bool = False,
    parameters: dict | None = None,
    output_dir: Path | None = None,
    kernel_name: str | None = None,
    progress_bar: bool = True,
    failed_dir: Path | None = None,
    profile_dir: Path | None = None,
) -> NotebookResult:
    """Execute ``notebook`` with papermill; publish it only when every cell succeeds.

    Parameters
    ----------
    notebook : pathlib.Path
        The notebook to execute; it is read, never written, unless the run publishes.
    fast : bool, default=False
        Value injected as ``fast`` (an entry ``"fast"`` in ``parameters`` wins).
    parameters : dict, optional
        Further parameters to inject (papermill's ``-p NAME VALUE``).
    output_dir : pathlib.Path, optional
        Write the executed notebook to ``output_dir/<name>`` and point ``COMPANION_FIGURES`` of
        the kernel at ``output_dir/figures``. When None, a run with the default parameters
        (``fast=False`` and nothing else) replaces ``notebook`` in place, its figures going to
        ``companion.paths.figures_dir()``; any other run goes to :func:`default_output_dir`.
    kernel_name : str, optional
        Jupyter kernel (default: the notebook's).
    progress_bar : bool, default=True
        Papermill's per-cell progress bar.
    failed_dir : pathlib.Path, optional
        Where the partial run of a failing notebook is saved (default ``build/failed`` when
        publishing, ``output_dir/failed`` otherwise).
    profile_dir : pathlib.Path, optional
        Write the cells' and sections' wall times, as papermill recorded them, into this folder
        (:func:`companion._notebook_profile.write_profile`) before they are stripped from the
        notebook; a failed run's cells that ran are written too.

    Returns
    -------
    NotebookResult
    """
    import papermill
    from papermill.exceptions import PapermillExecutionError

    notebook = Path(notebook).resolve()
    injected = {"fast": bool(fast), **(parameters or {})}
    if output_dir is None and injected != _DEFAULT_PARAMETERS:
        output_dir = default_output_dir(injected)
    if output_dir is None:
        destination = notebook
        environment = {}  # figures wherever companion.paths.figures_dir() points (figures/ by default)
        failed_dir = Path(failed_dir or ROOT / "build" / "failed")
    else:
        output_dir = Path(output_dir).resolve()
        destination = output_dir / notebook.name
        if destination == notebook:
            raise ValueError(f"--output-dir {output_dir} is the notebooks' own folder")
        environment = {"COMPANION_FIGURES": str(output_dir / "figures")}
        failed_dir = Path(failed_dir or output_dir / "failed")
    start = time.perf_counter()
    try:
        _check_readable(notebook)
    except ValueError as exc:
        return NotebookResult(notebook, False, time.perf_counter() - start, None, str(exc))

    destination.parent.mkdir(parents=True, exist_ok=True)
    handle, scratch = tempfile.mkstemp(suffix=".ipynb", dir=destination.parent, prefix=".running-")
    os.close(handle)
    scratch = Path(scratch)
    # The scratch copy sits beside the destination (the final move is a rename); a run stopped
    # half-way (Ctrl-C, SIGTERM: main turns it into SystemExit) must not leave it there for nbval to collect.
    try:
        with _KernelOutput(progress_bar=progress_bar) as kernel_output:
            # The kernel inherits this process's environment. It must use its inline backend so that
            # figures are embedded in the notebook (an inherited MPLBACKEND=Agg would silently drop
            # them); a non-publishing run sends its figures and CSVs to output_dir/figures; progress
            # lines go to the kernel-output file, never into the notebook.
            environment = {**environment, PROGRESS_ENV: str(kernel_output.path)}
            saved = {name: os.environ.get(name) for name in ("MPLBACKEND", *environment)}
            os.environ.pop("MPLBACKEND", None)
            os.environ.update(environment)
            try:
                papermill.execute_notebook(
                    str(notebook),
                    str(scratch),
                    parameters=injected,
                    kernel_name=kernel_name,
                    cwd=str(notebook.parent),
                    progress_bar=progress_bar,
                    log_output=False,
                    kernel_manager_class=kernel_output.kernel_manager_class(),
                )
            except PapermillExecutionError as exc:
                failed_dir.mkdir(parents=True, exist_ok=True)
                copy = failed_dir / notebook.name
                if profile_dir is not None:
                    write_profile(scratch, notebook.name, profile_dir)
                os.chmod(scratch, file_mode())  # mkstemp's 0600 -> the umask's mode (0644 under 022)
                shutil.move(scratch, copy)
                index, first_line = _failed_cell(copy, notebook, exc)
                return NotebookResult(
                    notebook,
                    False,
                    time.perf_counter() - start,
                    failed_cell=index,
                    error=f"{exc.ename}: {exc.evalue}",
                    failed_copy=copy,
                    failed_source=first_line,
                )
            except Exception as exc:  # kernel death, timeouts, bad JSON written by a cell...
                return NotebookResult(notebook, False, time.perf_counter() - start, None, repr(exc))
            finally:
                for name, value in saved.items():
                    if value is None:
                        os.environ.pop(name, None)
                    else:
                        os.environ[name] = value
        if profile_dir is not None:  # papermill's per-cell durations, read before they are stripped
            write_profile(scratch, notebook.name, profile_dir)
        _strip_volatile_metadata(scratch, source=notebook)
        os.chmod(scratch, file_mode())  # mkstemp's 0600 -> the umask's mode (0644 under 022)
        os.replace(scratch, destination)  # same folder: an atomic rename
        return NotebookResult(destination, True, time.perf_counter() - start)
    finally:
        scratch.unlink(missing_ok=True)


class _KernelOutput:
    """Collects what the kernel process writes outside the notebook and shows it, minus noise.

    The kernel's stdout and stderr (its logs, a crash's last words) and the progress lines of
    :func:`companion.evaluation.parallel_map` (``COMPANION_PROGRESS`` points at the same file) are
    appended to a temporary file; a thread forwards its complete lines to this process's stderr
    as they arrive, dropping the lines :data:`_KERNEL_NOISE` matches. With papermill's bar on,
    lines are written through ``tqdm.write`` so that the bar is redrawn below them.
    """

    def __init__(self, *, progress_bar: bool = True, poll_seconds: float = 0.5):
        handle, path = tempfile.mkstemp(prefix="companion-kernel-", suffix=".log")
        os.close(handle)
        self.path = Path(path)
        self.progress_bar = progress_bar
        self.poll_seconds = poll_seconds
        self._sink = None
        self._offset = 0
        self._partial = b""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._follow, name="kernel-output", daemon=True)

    def __enter__(self):
        # Append mode (O_APPEND): the kernel's streams and the progress appends share the file.
        self._sink = open(self.path, "ab")  # noqa: SIM115 - closed in __exit__
        self._thread.start()
        return self

    def __exit__(self, *exc_info):
        self._stop.set()
        self._thread.join()
        self._forward(final=True)
        self._sink.close()
        self.path.unlink(missing_ok=True)
        return False

    def kernel_manager_class(self):
        """An ``AsyncKernelManager`` that starts the kernel with its streams sent to the file."""
        from jupyter_client import AsyncKernelManager

        sink = self._sink

        class _KernelManager(AsyncKernelManager):
            async def start_kernel(self, **kwargs):
                kwargs.setdefault("stdout", sink)
                kwargs.setdefault("stderr", sink)
                return await super().start_kernel(**kwargs)

        return _KernelManager

    def _follow(self):
        while not self._stop.wait(self.poll_seconds):
            self._forward()

    def _forward(self, final: bool = False):
        with open(self.path, "rb") as handle:
            handle.seek(self._offset)
            chunk = handle.read()
        self._offset += len(chunk)
        lines = (self._partial + chunk).split(b"\n")
        self._partial = b"" if final else lines.pop()
        for raw in lines:
            line = raw.decode("utf-8", errors="replace").rstrip("\r")
            if line.strip() and not _KERNEL_NOISE.search(line):
                self._show(line)

    def _show(self, line: str):
        if self.progress_bar:
            from tqdm import tqdm  # papermill's bar: clear it, print, redraw it

            tqdm.write(line, file=sys.stderr)
        else:
            print(line, file=sys.stderr, flush=True)


def _failed_cell(executed: Path, source: Path, exc) -> tuple[int | None, str]:
    """0-based index, in the notebook as committed (``source``), of the cell that raised, and the
    first line of its code.

    Papermill's copy differs from ``source``: error banners are added, and the parameters cell it
    injects replaces the source's injected cell (a committed notebook has one) or is added (a
    notebook never run by papermill has none). The failing cell is found in ``source`` by its id;
    without usable ids (a notebook older than nbformat 4.5), the banners are not counted and the
    injected cell only when ``source`` has one, as a reader of ``source`` counts.
    """
    import nbformat

    cells = nbformat.read(executed, as_version=4).cells
    original = nbformat.read(source, as_version=4)
    source_has_injected = any(_is_injected(cell) for cell in original.cells)
    index = 0
    for cell in cells:
        if "papermill-error-cell-tag" in cell.get("metadata", {}).get("tags", []):
            continue
        if _is_injected(cell) and not source_has_injected:
            continue
        outputs = cell.get("outputs", []) if cell.cell_type == "code" else []
        if any(o.get("output_type") == "error" for o in outputs):
            first_line = next((line for line in cell.source.splitlines() if line.strip()), "")
            if original.get("nbformat_minor", 0) >= 5 and not _is_injected(cell):
                ids = [c.get("id") for c in original.cells]
                if cell.get("id") in ids:
                    return ids.index(cell.get("id")), first_line
            return index, first_line
        index += 1
    return getattr(exc, "cell_index", None), ""


def _is_injected(cell) -> bool:
    return "injected-parameters" in cell.get("metadata", {}).get("tags", [])


def _coalesce_streams(outputs: list) -> list:
    """Merge consecutive stream outputs of the same stream (stdout/stderr) into one.

    Where the kernel cuts a cell's printed text into stream messages depends on when its output
    buffer is flushed (timing, not content), so the same prints can be saved as one output or
    two. nbval merges them before comparing; merging them here makes the saved bytes stable too.

    >>> import nbformat
    >>> parts = [nbformat.v4.new_output("stream", name="stdout", text=t) for t in ("a\\n", "b\\n")]
    >>> [o["text"] for o in _coalesce_streams(parts)]
    ['a\\nb\\n']
    """
    merged: list = []
    for output in outputs:
        previous = merged[-1] if merged else None
        if (output.get("output_type") == "stream" and previous is not None
                and previous.get("output_type") == "stream" and previous.get("name") == output.get("name")):
            previous["text"] = "".join(previous["text"]) + "".join(output["text"])
        else:
            merged.append(output)
    return merged


def _strip_volatile_metadata(path: Path, source: Path | None = None) -> None:
    """Make an executed notebook a function of its inputs only, so reruns give the same bytes.

    Drops papermill's timestamps, durations, paths and version, nbclient's per-cell timings and
    the kernel's Python version, records the command and the companion's version
    (:func:`companion._notebook_metadata.stamp_provenance`), and fixes the kernel spec's display name
    (:func:`companion._notebook_metadata.normalise_metadata`, the rule ``make lab``'s git filter
    applies too), merges stream outputs split by flush timing, and gives the cell papermill injects a fixed
    id instead of its random one. When ``source`` (the
    notebook that was executed) predates cell ids (nbformat < 4.5), papermill's upgrade gave every
    cell a random id; those become ``cell-<n>``.
    """
    import nbformat

    nb = stamp_provenance(normalise_metadata(nbformat.read(path, as_version=4)))
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = _coalesce_streams(cell.outputs)
    if source is not None and nbformat.read(source, as_version=4).get("nbformat_minor", 0) < 5:
        for number, cell in enumerate(nb.cells):
            cell["id"] = f"cell-{number}"
    injected = [c for c in nb.cells if "injected-parameters" in c.metadata.get("tags", [])]
    if injected and "id" in injected[0]:
        taken = {c.get("id") for c in nb.cells if c is not injected[0]}
        candidate, n = INJECTED_CELL_ID, 1
        while candidate in taken:
            candidate, n = f"{INJECTED_CELL_ID}-{n}", n + 1
        assert _CELL_ID.match(candidate)
        injected[0]["id"] = candidate
    nbformat.write(nb, path)


def run_all(
    notebooks: list[Path],
    *,
    fast: bool = False,
    parameters: dict | None = None,
    output_dir: Path | None = None,
    kernel_name: str | None = None,
    failed_dir: Path | None = None,
    stream=None,
    profile_dir: Path | None = None,
) -> list[NotebookResult]:
    """Run ``notebooks`` in order, printing one progress line per notebook, and return results.

    ``parameters`` and ``output_dir`` are handed to :func:`run_notebook` (see there for where
    each run writes).

    Parameters
    ----------
    notebooks : list of pathlib.Path
        The notebooks, in the order they run.
    fast : bool, default=False
        Inject ``fast=True``.
    parameters : dict, optional
        Further parameters to inject.
    output_dir : pathlib.Path, optional
        Where the executed notebooks go (:func:`run_notebook`).
    kernel_name : str, optional
        Jupyter kernel (default: each notebook's).
    failed_dir : pathlib.Path, optional
        Where partial runs of failing notebooks are saved.
    stream : file-like, optional
        Where progress lines go (default: standard output).
    profile_dir : pathlib.Path, optional
        Where each notebook's cell and section times go (:func:`run_notebook`).

    Returns
    -------
    list of NotebookResult
    """
    stream = stream or sys.stdout
    results = []
    for position, notebook in enumerate(notebooks, start=1):
        print(f"[{position}/{len(notebooks)}] {notebook.name}", file=stream, flush=True)
        results.append(
            run_notebook(
                notebook,
                fast=fast,
                parameters=parameters,
                output_dir=output_dir,
                kernel_name=kernel_name,
                failed_dir=failed_dir,
                profile_dir=profile_dir,
            )
        )
    return results
