"""Vendored data: manifest integrity, loader behaviour and the papers' example counts."""

import hashlib
import re
import shutil

import numpy as np
import pandas as pd
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from companion import _data_files, datasets
from companion.paper_numbers import paper_table
from companion.paths import data_dir

DATA = data_dir()  # the folder the loaders read (the data/ of this checkout unless COMPANION_DATA is set)

MANIFEST = datasets.manifest()
#: The peer-results folders the manifest lists (data/<name>_peers), each one a name of load_peers.
PEER_NAMES = sorted({d.removesuffix("_peers") for d in MANIFEST["dataset"] if d.endswith("_peers")})


def test_manifest_lists_exactly_the_files_in_data():
    """Any unlisted or missing file in data/ fails: the manifest is the inventory, and each folder of
    committed fold-seed runs has its own, ``records.csv`` (listed in the manifest, with the sha-256
    of every frame file it lists)."""
    on_disk = {
        p.relative_to(DATA).as_posix()
        for p in DATA.rglob("*")
        if p.is_file() and p.name not in {"manifest.csv", "README.md"}
    }
    runs = set()
    for records in (f for f in MANIFEST["file"] if f.startswith("seed_runs/") and f.endswith("/records.csv")):
        folder = records.rsplit("/", 1)[0]
        runs |= {f"{folder}/seed-{seed}.csv.gz" for seed in pd.read_csv(DATA / records)["seed"]}
    assert on_disk == set(MANIFEST["file"]) | runs


@pytest.mark.parametrize("row", MANIFEST.to_dict("records"), ids=lambda r: r["file"])
def test_manifest_checksum_and_shape(row):
    """Every file matches its sha256 and its recorded rows x columns."""
    path = DATA / row["file"]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == row["sha256"]
    frame = pd.read_csv(path, low_memory=False)
    assert frame.shape == (row["rows"], row["columns"])
    assert _data_files.header_digest(frame.columns) == row["header_sha256"]
    for field in ("source", "citation", "licence"):
        assert isinstance(row[field], str) and row[field].strip()


def _sizes(paper):
    table = paper_table("dataset_sizes")
    return table[table["paper"] == paper].set_index("dataset")


@pytest.mark.parametrize(
    "dataset, loader",
    [
        ("breastw", lambda: datasets.load_breastw(drop_incomplete=True)),
        ("pima", datasets.load_pima),
        ("haberman", lambda: datasets.load_haberman(drop_contradictory=True)),
        ("bupa", datasets.load_bupa),
        ("glass", lambda: datasets.load_glass(positive_class=2)),
        ("crx", lambda: datasets.load_crx(drop_incomplete=True)),
    ],
)
def test_dlm_paper_counts_after_preprocessing(dataset, loader):
    """The DLM paper's example and feature counts are met by the stated preprocessing."""
    expected = _sizes(1).loc[dataset]
    X, y = loader()
    assert X.shape == (expected["examples"], expected["features"])
    assert len(y) == len(X)


def test_votes_count_is_the_documented_deviation():
    """Votes: the paper's 52 cannot be rebuilt; dropping incomplete rows gives 232 (124/108)."""
    X, y = datasets.load_votes(drop_incomplete=True)
    assert _sizes(1).loc["votes", "examples"] == 52
    assert len(X) == 232
    assert y.value_counts().to_dict() == {"democrat": 124, "republican": 108}
    assert "52" in datasets.load_votes.__doc__ and "232" in datasets.load_votes.__doc__


def test_haberman_contradictions_removed_as_whole_groups():
    """294 = 306 - 12: every row of the 6 contradictory feature vectors goes."""
    X_raw, y_raw = datasets.load_haberman()
    X, y = datasets.load_haberman(drop_contradictory=True)
    assert len(X_raw) - len(X) == 12
    assert X.assign(label=y.values).groupby(list(X.columns))["label"].nunique().max() == 1


@pytest.mark.parametrize(
    "dataset, loader",
    [
        ("colon", datasets.load_colon),
        ("leukemia_golub", datasets.load_golub),
        ("c_md", datasets.load_c_md),
        ("breast_er", datasets.load_breast_er),
    ],
)
def test_microarray_shapes_match_paper_table(dataset, loader):
    """The microarray sets have the example and gene counts of the reference table."""
    expected = _sizes(5).loc[dataset]
    X, y = loader()
    assert X.shape == (expected["examples"], expected["features"])
    assert y.nunique() == 2


def test_all_lineage_collapse():
    """ALL: the BT subtypes collapse to B (95) / T (33)."""
    X, y = datasets.load_all_bioc()
    assert X.shape == (128, 12625)
    assert y.value_counts().to_dict() == {"B": 95, "T": 33}
    assert datasets.load_all_bioc(lineage=False)[1].nunique() == 10


def test_contact_lenses_declared_orders():
    """Categories follow the ARFF's declared order (PRISM's tie-break order)."""
    X, y = datasets.load_contact_lenses()
    assert list(y.cat.categories) == ["soft", "hard", "none"]
    assert list(X["age"].cat.categories) == ["young", "pre-presbyopic", "presbyopic"]


def test_binarise_gives_zero_one_and_rejects_unknown_class():
    X, y = datasets.load_glass(positive_class=[1, 2, 3])
    assert set(y.unique()) == {0, 1} and y.sum() == 70 + 76 + 17
    with pytest.raises(ValueError, match="positive_class.*not among the labels"):
        datasets.load_glass(positive_class=4)
    with pytest.raises(ValueError, match="covers every label"):
        datasets.load_bupa(positive_class=[1, 2])


def test_monks_rejects_unknown_problem_and_split():
    with pytest.raises(ValueError, match=r"The 'problem' parameter of load_monks must be an int in the range \[1, 3\]"):
        datasets.load_monks(4)
    with pytest.raises(ValueError, match=r"The 'split' parameter of load_monks must be a str among"):
        datasets.load_monks(1, "validation")
    X, y = datasets.load_monks(2, "all")
    assert len(X) == 169 + 432


@pytest.fixture
def data_copy(tmp_path):
    """A private copy of data/ so that corrupting it cannot touch the real files."""
    copy = tmp_path / "data"
    shutil.copytree(DATA, copy)
    return copy


def test_altered_file_raises_named_integrity_error(data_copy):
    """One flipped byte is caught, and the message names the file."""
    target = data_copy / "iris" / "iris.csv"
    content = bytearray(target.read_bytes())
    content[100] ^= 1
    target.write_bytes(bytes(content))
    with pytest.raises(datasets.DataIntegrityError, match=r"iris/iris\.csv.*altered"):
        _data_files.verified_bytes("iris/iris.csv", data_dir=data_copy)


def test_missing_file_raises_named_error(data_copy):
    (data_copy / "sonar" / "sonar.csv").unlink()
    with pytest.raises(datasets.DataFileMissingError, match=r"sonar/sonar\.csv is missing"):
        _data_files.verified_bytes("sonar/sonar.csv", data_dir=data_copy)


def test_unlisted_file_is_refused(data_copy):
    (data_copy / "extra.csv").write_text("a,class\n1,0\n")
    with pytest.raises(ValueError, match="not listed"):
        _data_files.verified_bytes("extra.csv", data_dir=data_copy)


@pytest.mark.slow  # loads every data set of the repository
def test_loaders_do_not_write_into_data():
    """Loading every data set leaves every file's modification time and bytes unchanged."""
    before = {p: (p.stat().st_mtime_ns, p.stat().st_size) for p in DATA.rglob("*") if p.is_file()}
    for name in datasets.__all__:
        if name.startswith("load_"):
            loader = getattr(datasets, name)
            if name == "load_peers":
                for folder in PEER_NAMES:
                    loader(folder)
            else:
                loader(1) if name == "load_monks" else loader()
    after = {p: (p.stat().st_mtime_ns, p.stat().st_size) for p in DATA.rglob("*") if p.is_file()}
    assert before == after


def test_every_dataset_in_the_manifest_has_a_loader():
    loaders = {n for n in datasets.__all__ if n.startswith("load_")}
    special = {"leukemia_golub": "load_golub"}
    for dataset in MANIFEST["dataset"].unique():
        if dataset.endswith("_peers"):  # results of other programs, one loader for every folder
            assert dataset.removesuffix("_peers") in {"prism", "led", "widc"}, dataset  # load_peers' names
            continue
        if dataset.startswith("seed_runs_"):  # committed runs: SeedRuns reads them, for the notebooks that make them
            from companion._seed_sweep import PROTOCOL_RUNS

            assert dataset.removeprefix("seed_runs_") in PROTOCOL_RUNS, dataset
            continue
        assert special.get(dataset, f"load_{dataset}") in loaders, dataset


# --------------------------------------------------------------------------------------------
# Options are type-checked like learner parameters (issue 14)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("option", ["drop_incomplete", "drop_contradictory"])
@pytest.mark.parametrize("value", ["yes please", "False", 1, 0, None, 1.0])
def test_boolean_options_refuse_non_bools_by_name(option, value):
    message = (rf"^The '{option}' parameter of load_haberman must be an instance of 'bool' or an instance of "
               rf"'numpy.bool'\. Got {re.escape(repr(value))} instead")
    with pytest.raises(InvalidParameterError, match=message):
        datasets.load_haberman(**{option: value})


def test_boolean_options_accept_numpy_bools():
    X, y = datasets.load_breastw(drop_incomplete=np.True_)
    assert len(X) == 683
    X, y = datasets.load_haberman(drop_contradictory=np.bool_(True), drop_incomplete=np.False_)
    assert len(X) == 294


def test_options_are_checked_before_the_file_is_read(tmp_path, monkeypatch):
    """With no data folder at all a bad option still gets its TypeError, not a missing file."""
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))  # empty: any read would fail
    with pytest.raises(TypeError, match="drop_incomplete"):
        datasets.load_prostate(drop_incomplete="yes")
    with pytest.raises(TypeError, match="lineage"):
        datasets.load_all_bioc(lineage="B/T")
    with pytest.raises(datasets.DataFileMissingError):  # the folder is the one read
        datasets.load_prostate()


@pytest.mark.parametrize(
    "value, error, message",
    [
        ({"a": 1}, TypeError, "not a dict"),
        ([[1], [2]], TypeError, "must hold labels"),
        ([], ValueError, "positive_class is empty"),
        (np.array([]), ValueError, "positive_class is empty"),
    ],
)
def test_positive_class_of_the_wrong_kind_is_refused(value, error, message):
    with pytest.raises(error, match=message):
        datasets.load_glass(positive_class=value)


def test_positive_class_accepts_numpy_labels_and_arrays():
    expected = datasets.load_glass(positive_class=[1, 3])[1]
    assert datasets.load_glass(positive_class=np.array([1, 3]))[1].equals(expected)
    assert datasets.load_glass(positive_class=np.int64(2))[1].sum() == 76


def test_monks_options_are_type_checked():
    problem = r"The 'problem' parameter of load_monks must be an int in the range \[1, 3\]\. Got {} instead"
    with pytest.raises(TypeError, match=problem.format("'1'")):
        datasets.load_monks("1")
    with pytest.raises(TypeError, match=problem.format("True")):
        datasets.load_monks(True)  # == 1, but not a problem number
    with pytest.raises(TypeError, match=problem.format(r"1\.0")):
        datasets.load_monks(1.0)
    with pytest.raises(TypeError, match=r"The 'split' parameter of load_monks must be a str among .* Got None instead"):
        datasets.load_monks(1, split=None)
    X, y = datasets.load_monks(np.int64(3), "test")
    assert len(X) == 432


def test_lineage_accepts_numpy_bools():
    assert datasets.load_all_bioc(lineage=np.False_)[1].nunique() == 10


def test_load_peers_reads_each_folder_and_refuses_others():
    assert PEER_NAMES == ["led", "prism", "widc"]
    for name in PEER_NAMES:
        peers = datasets.load_peers(name)
        assert isinstance(peers, datasets.PeerResults) and len(peers.results) > 0 and len(peers.provenance) > 0
        assert (peers.folds is None) == (name == "led")  # LED draws are regenerated from their seeds
    widc = datasets.load_peers("widc")
    assert {"errors", "rules", "literals"} <= set(widc.results.columns)
    assert set(widc.folds["dataset"]) == set(widc.results["dataset"])
    with pytest.raises(InvalidParameterError,
                       match=r"The 'name' parameter of load_peers must be a str among \{.*\}\. Got 'weka' instead"):
        datasets.load_peers("weka")


def test_every_load_is_verified_parsed_and_owned_by_the_caller(data_copy, monkeypatch):
    """Nothing is kept between loads: each one checks the bytes and parses them again, and
    mutating what a load returned changes nothing for the next one."""
    monkeypatch.setenv("COMPANION_DATA", str(data_copy))
    X1, y1 = datasets.load_prostate()
    X1.iloc[0, 0] = -1e9  # the caller's frame
    y1.iloc[0] = "altered"
    X2, y2 = datasets.load_prostate()
    assert X2.iloc[0, 0] != -1e9 and y2.iloc[0] != "altered"
    target = data_copy / "prostate" / "prostate.csv.gz"
    content = bytearray(target.read_bytes())
    content[-20] ^= 1
    target.write_bytes(bytes(content))  # after two loads: a third one reads and checks the file again
    with pytest.raises(datasets.DataIntegrityError, match="prostate.csv.gz has been altered"):
        datasets.load_prostate()


def _rerecord(data_copy, relative_file):
    """Re-record a file's checksum in the copy's manifest (as a careless edit would)."""
    import hashlib

    table = pd.read_csv(data_copy / "manifest.csv", dtype=str, keep_default_na=False)
    digest = hashlib.sha256((data_copy / relative_file).read_bytes()).hexdigest()
    table.loc[table["file"] == relative_file, "sha256"] = digest
    table.to_csv(data_copy / "manifest.csv", index=False)


def test_a_truncated_file_with_a_rerecorded_checksum_is_refused(data_copy, monkeypatch):
    """The checksum alone cannot catch a file cut short whose new checksum was recorded: the
    row count in the manifest does, naming the file and the field."""
    monkeypatch.setenv("COMPANION_DATA", str(data_copy))
    target = data_copy / "iris" / "iris.csv"
    lines = target.read_text().splitlines(keepends=True)
    target.write_text("".join(lines[:78]))  # the header and 77 of the 150 rows
    _rerecord(data_copy, "iris/iris.csv")
    with pytest.raises(datasets.DataIntegrityError, match=r"iris/iris\.csv has 77 rows but the manifest's field 'rows' says 150"):
        datasets.load_iris()


def test_a_file_with_a_column_dropped_is_refused(data_copy, monkeypatch):
    monkeypatch.setenv("COMPANION_DATA", str(data_copy))
    target = data_copy / "iris" / "iris.csv"
    frame = pd.read_csv(target)
    frame.drop(columns=frame.columns[0]).to_csv(target, index=False)
    _rerecord(data_copy, "iris/iris.csv")
    with pytest.raises(datasets.DataIntegrityError, match=r"iris/iris\.csv has 4 columns but the manifest's field 'columns' says 5"):
        datasets.load_iris()


def test_a_file_with_a_renamed_column_is_refused(data_copy, monkeypatch):
    """Same rows, same column count, re-recorded checksum, one column renamed: the manifest's
    header digest refuses it, naming the file and the field."""
    monkeypatch.setenv("COMPANION_DATA", str(data_copy))
    target = data_copy / "iris" / "iris.csv"
    lines = target.read_text().splitlines(keepends=True)
    names = lines[0].split(",")
    lines[0] = ",".join([names[1], names[0], *names[2:]])  # two columns swapped
    target.write_text("".join(lines))
    _rerecord(data_copy, "iris/iris.csv")
    with pytest.raises(datasets.DataIntegrityError, match=r"iris/iris\.csv has column names .* the manifest's field 'header_sha256'"):
        datasets.load_iris()


def test_a_bad_header_digest_in_the_manifest_names_the_field(data_copy, monkeypatch):
    monkeypatch.setenv("COMPANION_DATA", str(data_copy))
    table = pd.read_csv(data_copy / "manifest.csv", dtype=str, keep_default_na=False)
    table.loc[2, "header_sha256"] = "abc"
    table.to_csv(data_copy / "manifest.csv", index=False)
    with pytest.raises(datasets.DataIntegrityError, match=r"line 4 .*field 'header_sha256' must be 64"):
        datasets.load_iris()


@pytest.mark.parametrize("field", ["sha256", "rows", "columns", "file", "header_sha256"])
def test_a_manifest_without_a_field_names_it(data_copy, monkeypatch, field):
    monkeypatch.setenv("COMPANION_DATA", str(data_copy))
    table = pd.read_csv(data_copy / "manifest.csv", dtype=str, keep_default_na=False)
    table.drop(columns=field).to_csv(data_copy / "manifest.csv", index=False)
    with pytest.raises(datasets.DataIntegrityError, match=f"has no column '{field}'"):
        datasets.load_iris()


def test_a_bad_manifest_entry_names_the_line_and_the_field(data_copy, monkeypatch):
    monkeypatch.setenv("COMPANION_DATA", str(data_copy))
    table = pd.read_csv(data_copy / "manifest.csv", dtype=str, keep_default_na=False)
    table.loc[3, "rows"] = "many"
    table.to_csv(data_copy / "manifest.csv", index=False)
    with pytest.raises(datasets.DataIntegrityError, match=r"line 5 .*field 'rows' must be a whole number"):
        datasets.load_iris()


def test_the_loaders_follow_companion_data_set_after_import(tmp_path, monkeypatch):
    """COMPANION_DATA is read at every call: pointed at an empty folder after the package was
    imported, a loader looks there (and says the manifest is missing, naming the folder)."""
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    with pytest.raises(datasets.DataFileMissingError, match=re.escape(str(tmp_path.resolve() / "manifest.csv"))):
        datasets.load_iris()


def test_load_peers_reads_a_further_table_of_its_own_folder_only():
    rules = datasets.load_peers("prism", table="supermarket_rules")
    assert list(rules.columns) == ["encoding", "rule", "text"] and set(rules["encoding"]) == {"last", "first"}
    assert rules.groupby("encoding")["rule"].apply(lambda r: list(r) == list(range(1, len(r) + 1))).all()
    with pytest.raises(ValueError, match="belongs to 'prism', not 'widc'"):
        datasets.load_peers("widc", table="supermarket_rules")
    with pytest.raises(InvalidParameterError, match="The 'table' parameter of load_peers"):
        datasets.load_peers("prism", table="rules")
