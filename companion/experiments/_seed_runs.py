"""Committed runs of a notebook's protocol at other fold seeds: ``data/seed_runs/<NN>/``.

A notebook's fold-seed variants re-run its whole protocol on other outer folds. Each such run is
the same computation on every machine (the numbers do not depend on the CPU, the BLAS or
``n_jobs``), so it is made once, by ``python -m companion.sweep --runs``, and committed beside the
data, as the peers' outputs are. A notebook's folder holds:

* ``seed-<S>.csv.gz`` per seed: the run's frame, exactly (every field quoted, every float as its
  shortest round-trip text, every missing cell as :data:`MISSING`; gzip without a time stamp or a
  file name, so that the bytes depend on the frame alone);
* ``records.csv``: one row per seed (:data:`RECORD_FIELDS`): the ``key`` of the run (a digest of
  everything the run reads: the protocol's settings, the seed, the data), the frame file's
  sha-256, the columns' types, the settings in words, the command, the commit and the versions
  of numpy, pandas and scikit-learn that made it, its wall time.

``records.csv`` is the inventory of its folder and is itself listed, with its sha-256, in
``data/manifest.csv``; a frame is read only when its bytes have the sha-256 its record gives.

A notebook reads a seed's frame only when the record's key equals the key of the run it would
make, and runs it otherwise: another protocol, seed or data never reads a run made for different
ones. A change of the learners' code is not in the key; the test that recomputes committed seeds
and compares them exactly (``tests/test_seed_runs.py``, part of ``make test`` and CI) catches it.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import json
import subprocess
from pathlib import Path

import pandas as pd

from companion._data_files import MANIFEST_FILE, header_digest, verified_bytes
from companion._files import atomic_path
from companion.paths import ROOT, data_dir

#: How a missing cell is written (pandas' NaN, ``<NA>`` and ``None`` alike): a text no cell of a
#: committed frame holds (:meth:`SeedRuns.write` refuses a frame that has it as a value).
MISSING = "<missing>"

#: The column types a committed frame may have, as pandas names them.
_TYPES = {"int64", "float64", "Int64", "boolean", "bool", "str", "string"}

#: The columns of ``records.csv``, one row per committed seed.
RECORD_FIELDS = ["seed", "key", "sha256", "rows", "seconds", "command", "commit", "versions", "config", "dtypes"]

#: The inventory of a folder of runs.
RECORDS_FILE = "records.csv"

#: ``read_csv``'s argument for correctly rounded floats: none from pandas 3.1, whose parser is
#: exact in every mode and which deprecates ``float_precision`` (pandas PR 64666); before it,
#: only ``"round_trip"`` is (the default "high" converter may miss the last bit).
_EXACT_FLOATS = {} if tuple(int(part) for part in pd.__version__.split(".")[:2]) >= (3, 1) else {
    "float_precision": "round_trip"}


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
    data_dir : path-like, optional
        The data folder whose ``manifest.csv`` lists this folder's ``records.csv`` (the committed
        folder's; :meth:`write` re-records it there). None: no manifest (a scratch folder).

    Examples
    --------
    >>> import tempfile
    >>> runs = SeedRuns(tempfile.mkdtemp())
    >>> frame = pd.DataFrame({"errors": [1, 2], "bound": [0.1, float("nan")], "rule": ["x <= 1.5", None]})
    >>> _ = runs.write(7, run_key("protocol", 7), frame, seconds=1.0, command="example")
    >>> runs.seeds(), runs.read(7, run_key("protocol", 7)).equals(frame), runs.read(7, run_key("other", 7))
    ([7], True, None)
    """

    def __init__(self, folder, *, data_dir=None):
        self.folder = Path(folder)
        self.data_dir = None if data_dir is None else Path(data_dir)

    def __repr__(self) -> str:
        return f"SeedRuns({str(self.folder)!r})"

    def frame_path(self, seed: int) -> Path:
        """The frame file of ``seed``."""
        return self.folder / f"seed-{int(seed)}.csv.gz"

    @property
    def records_path(self) -> Path:
        """The folder's inventory, ``records.csv``."""
        return self.folder / RECORDS_FILE

    def _records(self) -> dict[int, dict]:
        """``{seed: row}`` of ``records.csv`` (checked against the manifest when there is one)."""
        if not self.records_path.is_file():
            return {}
        if self.data_dir is None:
            text = self.records_path.read_text(encoding="utf-8")
        else:
            relative = self.records_path.resolve().relative_to(self.data_dir.resolve()).as_posix()
            text = verified_bytes(relative, self.data_dir).decode("utf-8")
        return {int(row["seed"]): row for row in csv.DictReader(io.StringIO(text, newline=""))}

    def seeds(self) -> list[int]:
        """The seeds with a record, in increasing order."""
        return sorted(self._records())

    def record(self, seed: int) -> dict | None:
        """The record of ``seed`` (None when there is none): :data:`RECORD_FIELDS`, typed."""
        row = self._records().get(int(seed))
        if row is None:
            return None
        return {**row, "seed": int(row["seed"]), "rows": int(row["rows"]), "seconds": float(row["seconds"]),
                "versions": json.loads(row["versions"]), "dtypes": json.loads(row["dtypes"])}

    def provenance(self, seeds) -> str:
        """One sentence on how the committed runs of ``seeds`` were made ("" when none of them has a record).

        The runs are grouped by the command, the commit and the versions of their records, so a
        reader sees which code made the numbers a notebook reads from this folder.

        Parameters
        ----------
        seeds : iterable of int
            The seeds whose committed runs were read.

        Returns
        -------
        str
        """
        records = [record for record in map(self.record, seeds) if record is not None]
        if not records:
            return ""
        groups = {}
        for record in records:
            versions = ", ".join(f"{name} {version}" for name, version in record["versions"].items())
            commit, _, changes = record["commit"].partition("+")
            commit = (commit[:7] or "unknown") + (" with uncommitted changes" if changes else "")
            group = (record["command"], commit, versions)
            groups[group] = groups.get(group, 0) + 1
        try:
            where = self.folder.resolve().relative_to(ROOT.resolve()).as_posix()
        except ValueError:  # a folder outside the checkout (a test's)
            where = self.folder.name
        made = "; ".join(f"{'all' if n == len(records) else n} made by `{command}` at commit {commit} ({versions})"
                         for (command, commit, versions), n in groups.items())
        return f"The {len(records)} committed run{'s' if len(records) != 1 else ''} read (`{where}`): {made}."

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

        Raises
        ------
        ValueError
            When the frame file's sha-256 is not its record's (altered: restore it from git).
        """
        record = self.record(seed)
        if record is None or record["key"] != key:
            return None
        content = self.frame_path(seed).read_bytes()
        digest = hashlib.sha256(content).hexdigest()
        if digest != record["sha256"]:
            raise ValueError(f"{self.frame_path(seed)}: sha256 {digest} is not its record's {record['sha256']} "
                             f"({self.records_path}); restore it from git")
        return _parse_frame(content, record["dtypes"], self.frame_path(seed))

    def write(self, seed: int, key: str, frame: pd.DataFrame, *, seconds: float, command: str,
              config: str = "") -> Path:
        """Commit ``frame`` as the run of ``seed`` made for ``key`` (each file whole or not at all).

        The frame is read back and compared with ``frame`` exactly before its record is written:
        a frame the files cannot hold exactly is refused, and nothing is left for it. With a
        ``data_dir``, the manifest's row of ``records.csv`` is written again.

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
        # every field quoted: an empty text stays a text (not a blank line, not a missing cell);
        # gzip.compress writes neither a time nor a file name into the header
        text = frame.to_csv(index=False, na_rep=MISSING, lineterminator="\n", quoting=csv.QUOTE_ALL)
        content = gzip.compress(text.encode("utf-8"), mtime=0)
        try:
            pd.testing.assert_frame_equal(_parse_frame(content, dtypes, "the frame"), frame, check_exact=True)
        except AssertionError as exc:
            raise ValueError(f"SeedRuns.write: seed {seed}'s frame does not read back exactly: {exc}") from None
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.frame_path(seed)
        with atomic_path(path) as scratch:
            scratch.write_bytes(content)
        records = self._records()
        records[int(seed)] = {
            "seed": int(seed), "key": key, "sha256": hashlib.sha256(content).hexdigest(), "rows": len(frame),
            "seconds": round(float(seconds), 1), "command": command, "commit": _commit(),
            "versions": json.dumps(_versions(), sort_keys=True), "config": config,
            "dtypes": json.dumps(dtypes, ensure_ascii=False)}
        self._write_records(records)
        return path

    def _write_records(self, records: dict) -> None:
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=RECORD_FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(records[seed] for seed in sorted(records))
        with atomic_path(self.records_path) as scratch:
            scratch.write_text(buffer.getvalue(), encoding="utf-8")
        if self.data_dir is not None:
            _record_in_manifest(self.data_dir, self.records_path, len(records))


def _parse_frame(content: bytes, dtypes: dict, where) -> pd.DataFrame:
    """A frame's file content as :meth:`SeedRuns.write` made it, with its columns' types.

    Each column is parsed by pandas' C reader straight into its type: integers by its integer
    parser (exact over the whole int64 range, never through float64), floats with
    the correctly rounded conversion (every float64 comes back to its last bit: :data:`_EXACT_FLOATS`),
    texts as texts; booleans from their words.
    """
    text = gzip.decompress(content)
    columns = list(pd.read_csv(io.BytesIO(text), nrows=0, dtype=str).columns)
    if columns != list(dtypes):
        raise ValueError(f"{where}: columns {columns} are not its record's {list(dtypes)}")
    parsed_as = {"int64": "int64", "Int64": "Int64", "float64": "float64"}
    frame = pd.read_csv(io.BytesIO(text), dtype={c: parsed_as.get(t, str) for c, t in dtypes.items()},
                        keep_default_na=False, na_values=[MISSING], skip_blank_lines=False, **_EXACT_FLOATS)
    out = {}
    for column, dtype in dtypes.items():
        values = frame[column]
        if dtype in ("bool", "boolean"):
            values = values.map({"True": True, "False": False}, na_action="ignore")
        out[column] = pd.Series(values).astype(dtype)
    return pd.DataFrame(out)


def provenance_of(seed_runs: SeedRuns | None, variants, computed=()) -> str:
    """:meth:`SeedRuns.provenance` of the runs read as ``variants`` (names ``seed=<k>``), then the
    seeds ``computed`` by the notebook itself; "" when ``seed_runs`` is None.

    Examples
    --------
    >>> provenance_of(None, {"seed=3": None}, computed=[1, 2])
    ''
    """
    if seed_runs is None:
        return ""
    made = seed_runs.provenance(int(name.split("=", 1)[1]) for name in variants)
    computed = sorted(int(seed) for seed in computed)
    if computed:
        seeds = ", ".join(map(str, computed[:-1])) + (" and " if len(computed) > 1 else "") + str(computed[-1])
        made += (" " if made else "") + (f"Seed{'s' if len(computed) > 1 else ''} {seeds} "
                                         f"{'are' if len(computed) > 1 else 'is'} run in this notebook.")
    return made


def resolve_seed_runs(seed_runs, number: str) -> SeedRuns | None:
    """``"committed"``: notebook ``number``'s committed runs (:func:`committed_runs`, made by ``python -m
    companion.sweep --runs --only <number>``); a :class:`SeedRuns` or None as given.

    Parameters
    ----------
    seed_runs : SeedRuns, "committed" or None
    number : str
        The notebook's two digits.

    Returns
    -------
    SeedRuns or None
    """
    return committed_runs(number) if isinstance(seed_runs, str) else seed_runs


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
    return SeedRuns(data_dir() / "seed_runs" / number, data_dir=data_dir())


def _record_in_manifest(data: Path, records_path: Path, n_records: int) -> None:
    """Write the manifest's row of ``records_path`` again (its sha-256 and size), the other rows as they are."""
    manifest = data / MANIFEST_FILE
    relative = records_path.resolve().relative_to(data.resolve()).as_posix()
    number = records_path.parent.name
    row = [relative, f"seed_runs_{number}", hashlib.sha256(records_path.read_bytes()).hexdigest(), str(n_records),
           str(len(RECORD_FIELDS)), header_digest(RECORD_FIELDS),
           f"python -m companion.sweep --runs --only {number} (this repository): notebook {number}'s protocol at other "
           "fold seeds, one exact frame per seed (seed-<S>.csv.gz, its sha256 in this file), with the command, "
           "commit and versions that made it",
           "the paper of notebook " + number + " (see the notebook's citation); runs made by this project",
           "generated by this project"]
    with open(manifest, encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    header, body = rows[0], rows[1:]
    at = [i for i, r in enumerate(body) if r and r[0] == relative]
    if at:
        body[at[0]] = row
    else:
        body.append(row)
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows([header, *body])
    with atomic_path(manifest) as scratch:
        scratch.write_text(buffer.getvalue(), encoding="utf-8")
