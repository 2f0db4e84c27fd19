"""Shared pytest configuration for tests/: headless matplotlib and a seeded generator.

The scratch figures folder (COMPANION_FIGURES) is set up by the root ``conftest.py``.
"""

import matplotlib

# Headless figures in this process only: setting MPLBACKEND instead would leak into the Jupyter
# kernels that nbval starts and stop the notebooks from embedding their figures.
matplotlib.use("Agg")

import numpy as np
import pytest


@pytest.fixture
def rng():
    """A fresh, seeded generator for each test (tests are independent of their order)."""
    return np.random.default_rng(20021209)


class EditableData:
    """A private copy of ``data/`` that the loaders read (``COMPANION_DATA`` points at it).

    :meth:`write` replaces one of its files by a frame and records the file's new checksum, row
    and column counts and header digest in the copy's manifest, as a careless edit that
    re-recorded the manifest would: what must refuse such a file then is the protocol's own
    check (folds, provenance), not the manifest's.
    """

    def __init__(self, folder):
        self.folder = folder

    def write(self, relative_file, frame):
        """Write ``frame`` (index dropped) as ``relative_file`` and re-record it in the manifest."""
        import hashlib

        import pandas as pd

        from companion._data_files import header_digest

        path = self.folder / relative_file
        frame.to_csv(path, index=False)
        manifest = pd.read_csv(self.folder / "manifest.csv", dtype=str, keep_default_na=False)
        row = manifest["file"] == relative_file
        manifest.loc[row, "sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
        manifest.loc[row, "rows"] = str(frame.shape[0])
        manifest.loc[row, "columns"] = str(frame.shape[1])
        manifest.loc[row, "header_sha256"] = header_digest(frame.columns)
        manifest.to_csv(self.folder / "manifest.csv", index=False)

    def write_provenance(self, relative_file, provenance):
        """Write a ``key -> value`` series as the two-column provenance file it was read from."""
        import pandas as pd

        self.write(relative_file, pd.DataFrame({"key": provenance.index, "value": provenance.to_numpy()}))


@pytest.fixture
def editable_data(tmp_path, monkeypatch):
    """An :class:`EditableData` copy of ``data/``, read by the loaders for the test's duration."""
    import shutil

    from companion.paths import data_dir

    folder = tmp_path / "data"
    shutil.copytree(data_dir(), folder)
    monkeypatch.setenv("COMPANION_DATA", str(folder))
    return EditableData(folder)
