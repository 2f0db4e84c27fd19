"""``make lab`` works for everyone, and saving a notebook in JupyterLab leaves ``git status`` clean.

What JupyterLab does to a notebook it opens and saves without running anything: it writes the
running kernel's ``language_info`` (with the Python version, which differs between machines) and
its kernel spec's display name into the notebook's metadata, and sends the notebook to the
server's contents manager, which writes it with nbformat. ``make lab`` starts the server with
:func:`companion._notebook_metadata.pre_save_hook`, which normalises exactly those fields as the
runner does. These tests replay that save with a real kernel's reply through a real
``FileContentsManager``.

Opening: JupyterLab copies the kernel's ``language_info`` into the notebook once the kernel is
ready, and marks the notebook unsaved when it differs from the one it was handed. ``make lab``'s
contents manager (:class:`companion._notebook_metadata.LabContentsManager`) hands each notebook
out with the kernel's Python version in it; a test compares what it hands out with a real
kernel's reply. ``.ci/lab_browser_check.py`` makes both checks in real JupyterLab in headless
Chromium (CONTRIBUTING, "Reading the notebooks in JupyterLab").
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess

import pytest

from companion._notebook_metadata import KERNELSPEC, normalise_metadata
from companion.paths import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def test_committed_notebooks_are_fixed_points_of_the_normalisation():
    """The normalisation changes nothing in a committed notebook: the runner and Lab write these bytes."""
    for path in NOTEBOOKS:
        nb = json.loads(path.read_text(encoding="utf-8"))
        assert nb["metadata"]["kernelspec"] == KERNELSPEC, path.name
        assert normalise_metadata(json.loads(json.dumps(nb))) == nb, path.name


def test_make_lab_allows_root_only_for_root():
    completed = subprocess.run(["make", "-n", "lab"], cwd=ROOT, capture_output=True, text=True, check=True)
    lab_line = next(line for line in completed.stdout.splitlines() if "jupyter lab" in line)
    assert ("--allow-root" in lab_line) == (os.geteuid() == 0), lab_line


def _kernel_reply() -> tuple[dict, dict]:
    """The kernel spec and ``language_info`` that JupyterLab would write, from a real python3 kernel."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import start_new_kernel

    spec = KernelSpecManager().get_kernel_spec("python3")
    manager, client = start_new_kernel(kernel_name="python3")
    try:
        reply = client.kernel_info(reply=True, timeout=60)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    kernelspec = {"display_name": spec.display_name, "language": spec.language, "name": "python3"}
    return kernelspec, reply["content"]["language_info"]


def _make_lab_option(trait: str) -> str:
    """The value ``make lab``'s command gives ``--<trait>=``."""
    completed = subprocess.run(["make", "-n", "lab"], cwd=ROOT, capture_output=True, text=True, check=True)
    (value,) = re.findall(rf"--{re.escape(trait)}=(\S+)", completed.stdout)
    return value


def _make_lab_hook() -> str:
    """The ``--ContentsManager.pre_save_hook`` value of ``make lab``'s command."""
    return _make_lab_option("ContentsManager.pre_save_hook")


@pytest.mark.slow
def test_saving_in_lab_writes_the_committed_bytes(tmp_path):
    from jupyter_server.services.contents.filemanager import FileContentsManager

    for path in NOTEBOOKS:
        shutil.copy(path, tmp_path / path.name)
    kernelspec, language_info = _kernel_reply()
    assert "version" in language_info  # what makes a saved notebook machine-dependent
    (tmp_path / "plain").mkdir()
    plain = FileContentsManager(root_dir=str(tmp_path / "plain"))
    lab = FileContentsManager(root_dir=str(tmp_path), pre_save_hook=_make_lab_hook())
    for path in NOTEBOOKS:
        model = lab.get(path.name)  # what the browser receives ...
        model["content"].metadata["kernelspec"] = dict(kernelspec)  # ... and sends back on save
        model["content"].metadata["language_info"] = dict(language_info)
        model = {"type": "notebook", "format": "json", "content": json.loads(json.dumps(model["content"]))}
        plain.save(json.loads(json.dumps(model)), path.name)
        lab.save(model, path.name)
        # Without the hook the save changes the file (so this test can fail) ...
        assert (tmp_path / "plain" / path.name).read_bytes() != path.read_bytes(), path.name
        # ... with it the file is written back byte for byte.
        assert (tmp_path / path.name).read_bytes() == path.read_bytes(), path.name


@pytest.mark.slow
def test_opening_in_lab_changes_nothing_jupyterlab_would_mark_unsaved(tmp_path):
    """What ``make lab``'s contents manager hands out already holds the kernel's ``language_info``
    and kernel spec, the two fields JupyterLab overwrites once the kernel is ready; a plain
    contents manager hands out the committed ``language_info``, which the kernel's differs from."""
    import asyncio

    from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager
    from traitlets.utils.importstring import import_item

    for path in NOTEBOOKS:
        shutil.copy(path, tmp_path / path.name)
    kernelspec, language_info = _kernel_reply()
    lab_class = import_item(_make_lab_option("ServerApp.contents_manager_class"))
    assert issubclass(lab_class, AsyncLargeFileManager)  # JupyterLab's default, extended
    lab = lab_class(root_dir=str(tmp_path), pre_save_hook=_make_lab_hook())
    plain = AsyncLargeFileManager(root_dir=str(tmp_path))
    for path in NOTEBOOKS:
        handed = asyncio.run(lab.get(path.name))["content"]["metadata"]
        assert handed["language_info"] == language_info, path.name
        assert handed["kernelspec"] == kernelspec, path.name
        assert asyncio.run(plain.get(path.name))["content"]["metadata"]["language_info"] != language_info
        # and saving what was handed out writes the committed bytes back
        model = asyncio.run(lab.get(path.name))
        asyncio.run(lab.save({"type": "notebook", "format": "json", "content": model["content"]}, path.name))
        assert (tmp_path / path.name).read_bytes() == path.read_bytes(), path.name


def test_every_cell_id_is_unique_and_the_injected_cell_has_its_own():
    """JupyterLab, nbconvert and the site address cells by id: no two cells of a notebook share
    one, and the cell papermill injects has the runner's fixed id, not the parameters cell's."""
    for path in NOTEBOOKS:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        ids = [cell.get("id") for cell in cells]
        assert None not in ids and len(set(ids)) == len(ids), path.name
        tagged = {tag: [c["id"] for c in cells if tag in c.get("metadata", {}).get("tags", [])]
                  for tag in ("parameters", "injected-parameters")}
        assert len(tagged["parameters"]) == 1 and tagged["injected-parameters"] == ["injected-parameters"], (
            path.name, tagged)
