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
"""

from __future__ import annotations

#: The kernel spec the notebooks are committed with: what ipykernel's own spec reports, which is
#: what JupyterLab writes when it starts the ``python3`` kernel.
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}

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
