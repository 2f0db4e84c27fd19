"""Committed runs of a notebook's protocol at other fold seeds: ``data/seed_runs/<NN>/``.

A notebook's fold-seed variants re-run its whole protocol on other outer folds. Each such run is
the same computation on every machine (the numbers do not depend on the CPU, the BLAS or
``n_jobs``), so it is made once, by ``python -m companion.sweep --runs``, and committed beside the
data, as the peers' outputs are. One seed is two files:

* ``seed-<S>.csv.gz``: the run's frame, exactly (every field quoted, every float as its shortest
  round-trip text, every missing cell as :data:`MISSING`; gzip without a time stamp or a file
  name, so that the bytes depend on the frame alone);
* ``seed-<S>.json``: its record: the ``key`` of the run (a digest of everything the run reads:
  the protocol's settings, the seed, the data), the ``config`` in words, the columns' types, the
  command, the commit and the versions of numpy, pandas and scikit-learn that made it, its wall
  time.

A notebook reads a seed's frame only when the record's key equals the key of the run it would
make, and runs it otherwise: another protocol, seed or data never reads a run made for different
ones. A change of the learners' code is not in the key; the test that recomputes committed seeds
and compares them exactly (``tests/test_seed_runs.py``, part of ``make test`` and CI) catches it.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import json
import re
import subprocess
from pathlib import Path

import pandas as pd

from companion._files import atomic_path
from companion.paths import ROOT, data_dir

#: How a missing cell is written (pandas' NaN, ``<NA>`` and ``None`` alike): a text no cell of a
#: committed frame holds (:meth:`SeedRuns.write` refuses a frame that has it as a value).
MISSING = "<missing>"

#: The column types a committed frame may have, as pandas names them.
_TYPES = {"int64", "float64", "Int64", "boolean", "bool", "str", "string"}

_SEED_FILE = re.compile(r"^seed-(\d+)\.json$")


def run_key(*parts) -> str:
    """A run's key: sha-256 of the ``repr`` of everything the run reads (settings, seed, data digests).

    Parameters
    ----------
    *parts
        Values whose ``repr`` is deterministic (numbers, strings, tuples, dataclasses of them).

    Returns
    -------
    str
        64 hexadecimal digits.

    Examples
    --------
    >>> run_key("a", 1) == run_key("a", 1), run_key("a", 1) == run_key("a", 2)
    (True, False)
    """
    return hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()


def _commit() -> str:
    """The checkout's commit (with ``+changes`` when the tree differs from it), or "" outside git."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "companion"], cwd=ROOT,
                               capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return ""
    return head.stdout.strip() + ("+changes" if dirty.stdout.strip() else "")


def _versions() -> dict:
    """The versions of the libraries a run's numbers come from (a record, never compared)."""
    import numpy
    import sklearn

    return {"numpy": numpy.__version__, "pandas": pd.__version__, "scikit-learn": sklearn.__version__}


class SeedRuns:
    """The committed runs of one notebook's protocol, one per fold seed (``data/seed_runs/<NN>``).

    Parameters
    ----------
    folder : path-like
        The notebook's folder of runs (:func:`committed_runs` gives the committed one).

    Examples
    --------
    >>> import tempfile
    >>> runs = SeedRuns(tempfile.mkdtemp())
    >>> frame = pd.DataFrame({"errors": [1, 2], "bound": [0.1, float("nan")], "rule": ["x <= 1.5", None]})
    >>> _ = runs.write(7, run_key("protocol", 7), frame, seconds=1.0, command="example")
    >>> runs.seeds(), runs.read(7, run_key("protocol", 7)).equals(frame), runs.read(7, run_key("other", 7))
    ([7], True, None)
    """

    def __init__(self, folder):
        self.folder = Path(folder)

    def __repr__(self) -> str:
        return f"SeedRuns({str(self.folder)!r})"

    def frame_path(self, seed: int) -> Path:
        """The frame file of ``seed``."""
        return self.folder / f"seed-{int(seed)}.csv.gz"

    def record_path(self, seed: int) -> Path:
        """The record file of ``seed``."""
        return self.folder / f"seed-{int(seed)}.json"

    def seeds(self) -> list[int]:
        """The seeds with a record, in increasing order."""
        if not self.folder.is_dir():
            return []
        found = (_SEED_FILE.match(path.name) for path in self.folder.iterdir())
        return sorted(int(match.group(1)) for match in found if match)

    def record(self, seed: int) -> dict | None:
        """The record of ``seed`` (None when there is none)."""
        path = self.record_path(seed)
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None

    def read(self, seed: int, key: str) -> pd.DataFrame | None:
        """The committed frame of ``seed`` if it was made for ``key``, else None (run it instead).

        Parameters
        ----------
        seed : int
        key : str
            :func:`run_key` of the run the caller would make.

        Returns
        -------
        pandas.DataFrame or None
        """
        record = self.record(seed)
        if record is None or record.get("key") != key or not self.frame_path(seed).exists():
            return None
        return _read_frame(self.frame_path(seed), record["dtypes"])

    def write(self, seed: int, key: str, frame: pd.DataFrame, *, seconds: float, command: str,
              config: str = "") -> Path:
        """Commit ``frame`` as the run of ``seed`` made for ``key`` (whole or not at all).

        The frame is read back and compared with ``frame`` exactly before its record is written:
        a frame the files cannot hold exactly is refused, and nothing is left for it.

        Parameters
        ----------
        seed : int
        key : str
            :func:`run_key` of the run.
        frame : pandas.DataFrame
            The run's frame (a default ``RangeIndex``; columns of :data:`_TYPES`).
        seconds : float
            The run's wall time (a record, never read back into a result).
        command : str
            The command that made it.
        config : str, default=""
            The run's settings in words (the protocol's ``repr``).

        Returns
        -------
        pathlib.Path
            The frame file.

        Raises
        ------
        ValueError
            When a column's type is not one a file holds exactly, a text cell equals
            :data:`MISSING`, the index is not the default one, or the frame read back differs.
        """
        dtypes = {str(column): str(dtype) for column, dtype in frame.dtypes.items()}
        odd = {column: dtype for column, dtype in dtypes.items() if dtype not in _TYPES}
        if odd:
            raise ValueError(f"SeedRuns.write: column types a file cannot hold exactly: {odd}")
        if not frame.index.equals(pd.RangeIndex(len(frame))):
            raise ValueError("SeedRuns.write: the frame's index must be the default RangeIndex (reset_index first)")
        texts = [column for column, dtype in dtypes.items() if dtype in ("str", "string")]
        clash = [column for column in texts if frame[column].eq(MISSING).any()]
        if clash:
            raise ValueError(f"SeedRuns.write: column(s) {clash} hold the text {MISSING!r}, which marks a missing cell")
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.frame_path(seed)
        with atomic_path(path) as scratch:
            # every field quoted: an empty text stays a text (not a blank line, not a missing cell)
            text = frame.to_csv(index=False, na_rep=MISSING, lineterminator="\n", quoting=csv.QUOTE_ALL)
            # gzip.compress writes neither a time nor a file name into the header
            scratch.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
            back = _read_frame(scratch, dtypes)
            try:
                pd.testing.assert_frame_equal(back, frame, check_exact=True)
            except AssertionError as exc:
                raise ValueError(f"SeedRuns.write: seed {seed}'s frame does not read back exactly: {exc}") from None
        record = {"seed": int(seed), "key": key, "config": config, "rows": len(frame), "dtypes": dtypes,
                  "command": command, "commit": _commit(), "versions": _versions(), "seconds": round(float(seconds), 1)}
        with atomic_path(self.record_path(seed)) as scratch:
            scratch.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        return path


def _read_frame(path: Path, dtypes: dict) -> pd.DataFrame:
    """A frame written by :meth:`SeedRuns.write`, with its columns' types."""
    frame = pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[MISSING], compression="gzip",
                        skip_blank_lines=False)
    if list(frame.columns) != list(dtypes):
        raise ValueError(f"{path}: columns {list(frame.columns)} are not its record's {list(dtypes)}")
    columns = {}
    for column, dtype in dtypes.items():
        values = frame[column]
        if dtype in ("bool", "boolean"):
            values = values.map({"True": True, "False": False}, na_action="ignore")
        elif dtype in ("int64", "Int64"):
            # from Python ints, never through float64 (an integer above 2**53 keeps its last digit)
            values = pd.array([None if pd.isna(v) else int(v) for v in values], dtype="Int64")
        elif dtype == "float64":
            # float() of a repr is correctly rounded: every float64 comes back to its last bit
            values = values.astype(object).map(float, na_action="ignore")
        columns[column] = pd.Series(values).astype(dtype)
    return pd.DataFrame(columns)


def committed_runs(number: str) -> SeedRuns:
    """The committed runs of notebook ``number`` (``<data>/seed_runs/<number>``; see :func:`~companion.paths.data_dir`).

    Parameters
    ----------
    number : str
        The notebook's two digits.

    Returns
    -------
    SeedRuns
    """
    return SeedRuns(data_dir() / "seed_runs" / number)
