"""The data files as the manifest records them: verified bytes, shapes and header digests.

Every loader of :mod:`companion.datasets` reads through :func:`verified_bytes`: the file's sha256
must be the one ``data/manifest.csv`` records, and a parsed table must have the recorded rows,
columns and header digest (:func:`header_digest`), or :class:`DataIntegrityError` says which file
to restore from git.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import validate_params

from companion.paths import data_dir as default_data_dir


MANIFEST_FILE = "manifest.csv"


class DataFileMissingError(FileNotFoundError):
    """A data file listed in ``data/manifest.csv`` is not on disk."""


class DataIntegrityError(ValueError):
    """A data file's sha256 differs from the one recorded in ``data/manifest.csv``."""


# --------------------------------------------------------------------------------------------
# Manifest and verified reading
# --------------------------------------------------------------------------------------------


@validate_params({"data_dir": [str, os.PathLike, None]}, prefer_skip_nested_validation=True)
def manifest(data_dir: Path | None = None) -> pd.DataFrame:
    """Return the data manifest: one row per vendored file.

    Columns: ``file`` (path relative to ``data/``), ``dataset``, ``sha256``, ``rows``, ``columns``
    (counting every column of the CSV), ``header_sha256`` (the sha256 of the column names as
    parsed, joined by newlines: :func:`header_digest`), ``source``, ``citation``, ``licence``.

    Parameters
    ----------
    data_dir : path-like, optional
        The data folder (default: :func:`companion.paths.data_dir`, the repository's ``data/`` unless
        ``COMPANION_DATA`` points elsewhere).

    Returns
    -------
    pandas.DataFrame
    """
    path = Path(data_dir or default_data_dir()) / MANIFEST_FILE
    if not path.is_file():
        raise DataFileMissingError(f"data manifest {path} is missing; the data folder is incomplete")
    return pd.read_csv(path, dtype={"file": str, "sha256": str})


#: The manifest's columns every loader relies on.
MANIFEST_FIELDS = ("file", "dataset", "sha256", "rows", "columns", "header_sha256")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


def _checked_manifest(data_dir: Path) -> dict[str, tuple[str, int, int, str]]:
    """``file -> (sha256, rows, columns, header_sha256)`` once every entry is checked (names the
    field wrong)."""
    path = Path(data_dir) / MANIFEST_FILE
    table = manifest(data_dir)
    missing = [field for field in MANIFEST_FIELDS if field not in table.columns]
    if missing:
        raise DataIntegrityError(
            f"data manifest {path} has no column {missing[0]!r} (it needs {', '.join(MANIFEST_FIELDS)})"
        )
    entries = {}
    for line, row in zip(range(2, len(table) + 2), table.itertuples(index=False)):
        where = f"data manifest {path}, line {line} ({row.file!r})"
        if not isinstance(row.file, str) or not row.file:
            raise DataIntegrityError(f"{where}: field 'file' is empty")
        if not isinstance(row.sha256, str) or not _SHA256.match(row.sha256):
            raise DataIntegrityError(f"{where}: field 'sha256' must be 64 lower-case hex digits, got {row.sha256!r}")
        if not isinstance(row.header_sha256, str) or not _SHA256.match(row.header_sha256):
            raise DataIntegrityError(
                f"{where}: field 'header_sha256' must be 64 lower-case hex digits, got {row.header_sha256!r}"
            )
        counts = []
        for field in ("rows", "columns"):
            value = getattr(row, field)
            if isinstance(value, str) and value.strip().isdigit():
                value = int(value)
            if not (isinstance(value, (int, np.integer)) or isinstance(value, float) and value.is_integer()) or value < 1:
                raise DataIntegrityError(f"{where}: field {field!r} must be a whole number >= 1, got {value!r}")
            counts.append(int(value))
        if row.file in entries:
            raise DataIntegrityError(f"{where}: field 'file' lists {row.file!r} twice")
        entries[row.file] = (row.sha256, *counts, row.header_sha256)
    return entries


def expected_sha256(data_dir: Path) -> dict[str, str]:
    return {file: entry[0] for file, entry in _checked_manifest(Path(data_dir)).items()}


def header_digest(columns) -> str:
    """The sha256 (hex) of a file's column names joined by newlines, as ``header_sha256`` records it.

    Parameters
    ----------
    columns : iterable
        The column names of the parsed file, in order.

    Returns
    -------
    str
        64 lower-case hex digits.

    >>> header_digest(["a", "class"]) == hashlib.sha256(b"a\\nclass").hexdigest()
    True
    """
    return hashlib.sha256("\n".join(map(str, columns)).encode()).hexdigest()


def _check_shape(relative_file: str, frame: pd.DataFrame, data_dir: Path) -> None:
    """Refuse a parsed file whose row or column count, or column names, differ from the manifest's."""
    _, rows, columns, header = _checked_manifest(Path(data_dir))[relative_file]
    for field, expected, got in (("rows", rows, frame.shape[0]), ("columns", columns, frame.shape[1])):
        if got != expected:
            raise DataIntegrityError(
                f"data file {Path(data_dir) / relative_file} has {got} {field} but the manifest's field "
                f"{field!r} says {expected}; the file is truncated or altered: restore it from git "
                f"(git checkout -- data/{relative_file})"
            )
    got = header_digest(frame.columns)
    if got != header:
        names = ", ".join(map(str, frame.columns[:6])) + (", ..." if frame.shape[1] > 6 else "")
        raise DataIntegrityError(
            f"data file {Path(data_dir) / relative_file} has column names ({names}) whose digest {got} "
            f"differs from the manifest's field 'header_sha256' ({header}); a column was renamed or "
            f"moved: restore it from git (git checkout -- data/{relative_file})"
        )


def verified_bytes(relative_file: str, data_dir: Path | None = None) -> bytes:
    """Read ``data/<relative_file>`` read-only and return its bytes once its sha256 is checked.

    Parameters
    ----------
    relative_file : str
        Path relative to the data folder, as the manifest lists it.
    data_dir : path-like, optional
        The data folder (default: :func:`companion.paths.data_dir`, the repository's ``data/`` unless
        ``COMPANION_DATA`` points elsewhere).

    Returns
    -------
    bytes

    Raises
    ------
    ValueError
        If the file is not listed in the manifest.
    DataFileMissingError
        If the file is listed but absent.
    DataIntegrityError
        If its content differs from the manifest's checksum.
    """
    data_dir = Path(data_dir or default_data_dir())
    expected = expected_sha256(data_dir)
    if relative_file not in expected:
        raise ValueError(
            f"{relative_file!r} is not listed in {data_dir / MANIFEST_FILE}; only vendored, "
            "checksummed files can be loaded"
        )
    path = data_dir / relative_file
    if not path.is_file():
        raise DataFileMissingError(
            f"data file {path} is missing; restore it from git (git checkout -- data/{relative_file})"
        )
    with open(path, "rb") as handle:  # read-only by construction
        content = handle.read()
    digest = hashlib.sha256(content).hexdigest()
    if digest != expected[relative_file]:
        raise DataIntegrityError(
            f"data file {path} has been altered: sha256 {digest} differs from the manifest's "
            f"{expected[relative_file]}; restore it from git (git checkout -- data/{relative_file})"
        )
    return content


def read_verified_csv(relative_file: str, **read_csv_kwargs) -> pd.DataFrame:
    """The verified file parsed, as a new consolidated frame: its bytes are checked and parsed on
    every call (nothing is kept between calls; a protocol that reads a set several times loads
    it once and shares the arrays, as ``paper05._protocol.run_seed_variants`` does).
    """
    content = verified_bytes(relative_file)
    # Missing cells are empty; no string in these files is meant as NaN (data/README.md).
    read_csv_kwargs.setdefault("keep_default_na", False)
    read_csv_kwargs.setdefault("na_values", [""])
    compression = "gzip" if relative_file.endswith(".gz") else None
    # copy(): one block per dtype instead of one per column; dropping or selecting columns of a
    # 12,600-column frame straight from the parser costs a second per operation
    try:
        frame = pd.read_csv(io.BytesIO(content), compression=compression, **read_csv_kwargs).copy()
    except (ValueError, UnicodeDecodeError, EOFError, OSError) as exc:  # pandas' ParserError is a ValueError
        raise DataIntegrityError(f"data file {default_data_dir() / relative_file} cannot be read as CSV: {exc}") from exc
    _check_shape(relative_file, frame, default_data_dir())
    return frame
