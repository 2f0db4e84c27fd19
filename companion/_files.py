"""Files written whole or not at all, with the mode a plain ``open()`` gives.

Plumbing of :mod:`companion.paths` (figures and tables) and :mod:`companion.reproduce` (notebooks,
timings).
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path


def file_mode() -> int:
    """The mode a new file gets under the process's umask.

    Returns
    -------
    int
        ``0o666 & ~umask``: ``0o644`` under the usual umask 022.
    """
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


@contextmanager
def atomic_path(path):
    """A scratch path beside ``path``; renamed onto ``path`` only when the block succeeds.

    The file appears whole or not at all: an interrupt (Ctrl-C, SIGTERM turned into
    ``SystemExit``) or an error inside the block removes the scratch file and leaves ``path``
    as it was. The file gets the mode of a plain ``open()`` under the umask
    (:func:`file_mode`), not the 0600 of a temporary file.

    Parameters
    ----------
    path : path-like
        The file to write.

    Yields
    ------
    pathlib.Path
        Where to write (same folder, a hidden name ending in ``.part``).

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with atomic_path(folder / "a.txt") as scratch:
    ...     _ = scratch.write_text("whole")
    >>> (folder / "a.txt").read_text(), sorted(p.name for p in folder.iterdir())
    ('whole', ['a.txt'])
    """
    path = Path(path)
    handle, scratch = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.close(handle)
    scratch = Path(scratch)
    try:
        yield scratch
        os.chmod(scratch, file_mode())
        os.replace(scratch, path)
    finally:
        scratch.unlink(missing_ok=True)
