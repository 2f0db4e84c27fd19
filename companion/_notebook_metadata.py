"""The volatile metadata of a notebook, normalised: one rule for the runner and for JupyterLab.

A notebook's JSON carries fields that say where and when it ran rather than what it computed:
papermill's timestamps, paths and version, nbclient's per-cell timings, the kernel's Python version
(``language_info.version``) and the display name of whichever kernel spec opened it. Two places
write notebooks and apply the same rule, :func:`normalise_metadata`:

* :mod:`companion.reproduce`, on every executed notebook, so that a re-run gives the same bytes
  on any machine;
* JupyterLab started by ``make lab``, through :func:`pre_save_hook` (``--ContentsManager.
  pre_save_hook``): a notebook opened and saved without running anything, which JupyterLab has
  given the running kernel's Python version and display name, is written back byte for byte as
  committed, so ``git status`` stays clean.

The other way round, ``make lab``'s contents manager (:class:`LabContentsManager`) hands
JupyterLab each notebook with the ``language_info`` this interpreter's kernel will report (the
committed one plus the Python version, :func:`kernel_language_info`). JupyterLab replaces a
notebook's ``language_info`` with the kernel's as soon as the kernel is ready and marks the
notebook unsaved when the two differ, which, with the version removed, they always did; now a
notebook opened in ``make lab`` stays saved until something in it changes.
"""

from __future__ import annotations

#: The kernel spec the notebooks are committed with: what ipykernel's own spec reports, which is
#: what JupyterLab writes when it starts the ``python3`` kernel.
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}

#: The command that executes and publishes the notebooks (``make reproduce``).
RUNNER = "python -m companion.reproduce"

_PAPERMILL_VOLATILE = ("start_time", "end_time", "duration", "input_path", "output_path", "version")
_CELL_VOLATILE = ("papermill", "execution")


def normalise_metadata(nb: dict) -> dict:
    """Drop or fix, in place, the metadata that depends on the machine or the moment; return ``nb``.

    Parameters
    ----------
    nb : dict
        A notebook (an ``nbformat.NotebookNode`` or the plain dict of its JSON).

    Returns
    -------
    dict
        ``nb`` itself: papermill's run keys, ``language_info.version`` and the cells'
        ``papermill``/``execution`` metadata removed; ``kernelspec`` set to :data:`KERNELSPEC`
        when the notebook runs the ``python3`` kernel.

    Examples
    --------
    >>> nb = {"metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"},
    ...                    "language_info": {"name": "python", "version": "3.11.7"}},
    ...       "cells": [{"cell_type": "code", "metadata": {"execution": {"iopub.status.busy": "..."}}}]}
    >>> normalised = normalise_metadata(nb)
    >>> normalised["metadata"]["language_info"], normalised["cells"][0]["metadata"]
    ({'name': 'python'}, {})
    >>> normalised["metadata"]["kernelspec"]["display_name"]
    'Python 3 (ipykernel)'
    """
    metadata = nb.setdefault("metadata", {})
    papermill = metadata.get("papermill", {})
    for key in _PAPERMILL_VOLATILE:
        papermill.pop(key, None)
    metadata.get("language_info", {}).pop("version", None)
    if metadata.get("kernelspec", {}).get("name") == KERNELSPEC["name"]:
        metadata["kernelspec"] = dict(KERNELSPEC)
    for cell in nb.get("cells", []):
        cell_metadata = cell.get("metadata", {})
        for key in _CELL_VOLATILE:
            cell_metadata.pop(key, None)
    return nb


def stamp_provenance(nb: dict) -> dict:
    """Record, in place, what executed the notebook; return ``nb``.

    The runner calls it on every notebook it executes: ``metadata.companion`` names the command
    and the companion's version; the parameters are papermill's ``metadata.papermill.parameters``
    and the notebook's ``parameters`` cell. The site's notebook pages read all three.

    Parameters
    ----------
    nb : dict
        A notebook (an ``nbformat.NotebookNode`` or the plain dict of its JSON).

    Returns
    -------
    dict
        ``nb`` itself, with ``metadata.companion = {"executed_by": RUNNER, "version": V}``.

    Examples
    --------
    >>> import companion
    >>> stamped = stamp_provenance({"metadata": {}})["metadata"]["companion"]
    >>> stamped == {"executed_by": "python -m companion.reproduce", "version": companion.__version__}
    True
    """
    from companion._version import __version__

    nb.setdefault("metadata", {})["companion"] = {"executed_by": RUNNER, "version": __version__}
    return nb


def pre_save_hook(model: dict, **kwargs) -> None:
    """Jupyter server's pre-save hook: normalise a notebook's metadata before it is written.

    Parameters
    ----------
    model : dict
        The contents model being saved; only ``type == "notebook"`` models are touched.
    **kwargs
        ``path`` and ``contents_manager``, passed by the server and not needed here.

    Examples
    --------
    >>> model = {"type": "notebook", "content": {"metadata": {"language_info": {"version": "3.11.7"}}}}
    >>> pre_save_hook(model=model, path="x.ipynb", contents_manager=None)
    >>> model["content"]["metadata"]
    {'language_info': {}}
    """
    if model.get("type") == "notebook" and isinstance(model.get("content"), dict):
        normalise_metadata(model["content"])


def kernel_language_info() -> dict:
    """The ``language_info`` that ipykernel, running in this interpreter, reports to JupyterLab.

    Returns
    -------
    dict
        The committed notebooks' ``language_info`` with this interpreter's Python version
        (``sys.version``'s first word, as ipykernel writes it).

    Examples
    --------
    >>> import sys
    >>> info = kernel_language_info()
    >>> info["version"] == sys.version.split()[0], info["codemirror_mode"]
    (True, {'name': 'ipython', 'version': 3})
    """
    import sys

    return {
        "codemirror_mode": {"name": "ipython", "version": sys.version_info[0]},
        "file_extension": ".py",
        "mimetype": "text/x-python",
        "name": "python",
        "nbconvert_exporter": "python",
        "pygments_lexer": "ipython3",
        "version": sys.version.split()[0],
    }


def add_kernel_version(nb: dict) -> dict:
    """Give a normalised notebook, in place, the Python version its kernel will report; return ``nb``.

    The inverse of what :func:`normalise_metadata` does to ``language_info``: applied to a
    notebook as committed (``python3`` kernel, ``language_info`` without a version and otherwise
    equal to :func:`kernel_language_info`), it sets ``language_info`` to exactly what the kernel
    reports, so that JupyterLab, which copies the kernel's ``language_info`` into the notebook
    once the kernel is ready, finds nothing to change. Any other notebook is left alone.

    Parameters
    ----------
    nb : dict
        A notebook (an ``nbformat.NotebookNode`` or the plain dict of its JSON).

    Returns
    -------
    dict
        ``nb`` itself.

    Examples
    --------
    >>> info = kernel_language_info()
    >>> committed = {k: v for k, v in info.items() if k != "version"}
    >>> nb = {"metadata": {"kernelspec": dict(KERNELSPEC), "language_info": dict(committed)}}
    >>> add_kernel_version(nb)["metadata"]["language_info"] == info
    True
    >>> normalise_metadata(nb)["metadata"]["language_info"] == committed  # and back, on save
    True
    """
    metadata = nb.get("metadata", {})
    info = kernel_language_info()
    current = metadata.get("language_info")
    if (metadata.get("kernelspec", {}).get("name") == KERNELSPEC["name"] and isinstance(current, dict)
            and {k: v for k, v in current.items() if k != "version"}
            == {k: v for k, v in info.items() if k != "version"}):
        metadata["language_info"] = info
    return nb


def _lab_contents_manager():
    from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager

    class LabContentsManager(AsyncLargeFileManager):
        """JupyterLab's default contents manager, handing out notebooks with :func:`add_kernel_version`.

        ``make lab`` starts the server with it (``--ServerApp.contents_manager_class``) and with
        :func:`pre_save_hook`, so that opening a notebook does not mark it unsaved and saving it
        writes the committed bytes back.
        """

        async def get(self, path, content=True, type=None, format=None, **kwargs):
            model = await super().get(path, content=content, type=type, format=format, **kwargs)
            if model.get("type") == "notebook" and model.get("content") is not None:
                add_kernel_version(model["content"])
            return model

    return LabContentsManager


def __getattr__(name: str):
    # The class needs jupyter_server (the notebooks extra): built when the server asks for it,
    # so that the runner and the core install import this module without it.
    if name == "LabContentsManager":
        return _lab_contents_manager()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
