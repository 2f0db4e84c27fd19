"""Root pytest configuration: a scratch figures folder for every pytest run in this checkout.

At the repository root so that it applies to any run, `pytest notebooks/03_...ipynb` included.

Nothing a test session writes may land in the tracked tree (`bash .ci/run` fails when `git status`
is not clean after `make test`). Notebooks (under nbval) and tests save their figures and result
CSVs through ``companion.paths``, which honours ``COMPANION_FIGURES``; it is pointed here, when
this file is imported (before any test is collected and before nbval starts a kernel, which
inherits this process's environment), at a temporary folder removed at the end of the session.
A value already set is kept only when it lies outside the checkout or under its ignored
``build/``.
"""

import os
import shutil
import tempfile
from pathlib import Path

_ROOT = Path(__file__).resolve().parent


def _redirect_figures():
    """Point COMPANION_FIGURES out of the tracked tree; return the folder to remove afterwards."""
    scratch, worker = os.environ.get("COMPANION_TEST_SCRATCH"), os.environ.get("PYTEST_XDIST_WORKER")
    if scratch and worker:
        # A pytest-xdist worker (make test runs two): its own folder inside the session's scratch,
        # so that two tests saving the same file name at once cannot meet; the controller removes it.
        folder = Path(scratch) / worker / "figures"
        folder.mkdir(parents=True, exist_ok=True)
        _point_at(folder)
        return None
    preset = os.environ.get("COMPANION_FIGURES")
    if preset:
        folder = Path(preset).resolve()
        inside = _ROOT == folder or _ROOT in folder.parents
        if not inside or _ROOT / "build" in (folder, *folder.parents):
            folder.mkdir(parents=True, exist_ok=True)
            return None
    # Named `figures` like the real one: doctests show figures_dir().name.
    folder = Path(tempfile.mkdtemp(prefix="companion-tests-")) / "figures"
    folder.mkdir()
    os.environ["COMPANION_TEST_SCRATCH"] = str(folder.parent)
    _point_at(folder)
    return folder.parent


def _point_at(folder):
    """COMPANION_FIGURES (read at every save by companion.paths, inherited by nbval's kernels) at ``folder``."""
    os.environ["COMPANION_FIGURES"] = str(folder)


_SCRATCH = _redirect_figures()
# Progress lines (companion.evaluation.parallel_map, COMPANION_PROGRESS) go to stderr, which nbval
# compares: a test session never prints them, whatever the caller's environment says.
os.environ.pop("COMPANION_PROGRESS", None)


def pytest_unconfigure(config):
    """Remove the session's scratch figures folder (kernels have been shut down by now)."""
    if _SCRATCH is not None:
        shutil.rmtree(_SCRATCH, ignore_errors=True)



def pytest_collection_modifyitems(config, items):
    """The notebooks first, longest first (``tests/_ordering.py``): only the order changes, never what runs."""
    from tests._ordering import longest_notebooks_first, notebook_seconds

    items[:] = longest_notebooks_first(items, notebook_seconds(_ROOT / "figures" / "benchmarks.csv"))
