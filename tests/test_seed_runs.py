"""The committed fold-seed runs: exact files, keys that refuse another run, the command that makes
them (serial, on a LocalCluster, resumable) and the check that the committed runs are still what
the code computes."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import _seed_sweep
from companion.experiments import _seed_runs, paper05
from companion.experiments._seed_runs import MISSING, SeedRuns, committed_runs, run_key
from companion.experiments.paper05 import _variants
from companion.experiments.paper05._protocol import load_dataset
from companion.experiments.paper05._variants import data_digests, seed_configs, seed_run_key

_FLOATS = st.floats(allow_nan=True, allow_infinity=True, width=64)
_TEXTS = st.one_of(st.none(), st.text(st.characters(blacklist_categories=("Cs",)), max_size=12))


@st.composite
def _frames(draw):
    n = draw(st.integers(0, 6))
    return pd.DataFrame({
        "count": pd.Series(draw(st.lists(st.integers(-2**63, 2**63 - 1), min_size=n, max_size=n)), dtype="int64"),
        "maybe": pd.Series(draw(st.lists(st.one_of(st.none(), st.integers(-2**62, 2**62)), min_size=n, max_size=n)),
                           dtype="Int64"),
        "value": pd.Series(draw(st.lists(_FLOATS, min_size=n, max_size=n)), dtype="float64"),
        "text": pd.Series(draw(st.lists(_TEXTS.filter(lambda t: t != MISSING), min_size=n, max_size=n)), dtype="str"),
    })


@settings(max_examples=60, deadline=None)
@given(frame=_frames())
def test_a_written_run_reads_back_to_the_last_bit(tmp_path_factory, frame):
    runs = SeedRuns(tmp_path_factory.mktemp("runs"))
    runs.write(3, "k", frame, seconds=0.0, command="test")
    back = runs.read(3, "k")
    pd.testing.assert_frame_equal(back, frame, check_exact=True)
    floats = frame["value"].to_numpy()
    assert np.array_equal(back["value"].to_numpy().view(np.int64)[~np.isnan(floats)],
                          floats.view(np.int64)[~np.isnan(floats)])  # -0.0 and the last bit kept


def test_the_files_depend_on_the_frame_alone(tmp_path):
    frame = pd.DataFrame({"errors": [1, 2], "bound": [0.1 + 0.2, 1 / 3], "rule": ["x ≤ 1.5, y", None]})
    a, b = SeedRuns(tmp_path / "a"), SeedRuns(tmp_path / "b")
    a.write(1, "k", frame, seconds=1.0, command="one")
    b.write(1, "k", frame, seconds=9.0, command="another")
    assert a.frame_path(1).read_bytes() == b.frame_path(1).read_bytes()  # gzip without a time stamp


def test_a_run_is_read_only_for_its_key(tmp_path):
    runs = SeedRuns(tmp_path)
    frame = pd.DataFrame({"errors": [1]})
    runs.write(5, run_key("protocol", 5), frame, seconds=1.0, command="test", config="P(seed=5)")
    assert runs.read(5, run_key("protocol", 5)).equals(frame)
    assert runs.read(5, run_key("protocol", 6)) is None
    assert runs.read(6, run_key("protocol", 5)) is None
    record = runs.record(5)
    assert record["config"] == "P(seed=5)" and record["command"] == "test" and record["rows"] == 1
    assert record["dtypes"] == {"errors": "int64"} and set(record["versions"]) == {"numpy", "pandas", "scikit-learn"}
    assert runs.seeds() == [5] and SeedRuns(tmp_path / "none").seeds() == []


@pytest.mark.parametrize("frame, message", [
    (pd.DataFrame({"when": pd.to_datetime(["2026-01-01"])}), "column types"),
    (pd.DataFrame({"rule": [MISSING]}, dtype="str"), "marks a missing cell"),
    (pd.DataFrame({"errors": [1, 2]}, index=[3, 4]), "RangeIndex"),
])
def test_a_frame_the_files_cannot_hold_is_refused_and_nothing_written(tmp_path, frame, message):
    runs = SeedRuns(tmp_path)
    with pytest.raises(ValueError, match=message):
        runs.write(1, "k", frame, seconds=0.0, command="test")
    assert not any(tmp_path.iterdir())


def test_parse_seeds_takes_a_step():
    assert _seed_sweep.parse_seeds("2:9:2") == [2, 4, 6, 8]
    with pytest.raises(ValueError, match="STEP"):
        _seed_sweep.parse_seeds("2:9:0")


# --- notebook 05: the seed variants read from committed runs ---------------------------------

@pytest.fixture(scope="module")
def fast_05(tmp_path_factory):
    """A small protocol, its main run, and its first three seed variants' runs committed to a temporary folder."""
    config = replace(paper05.Config.fast(), datasets=("leukemia_golub",), n_prefilter=20, s_max=2, n_repeats=1)
    data = {name: load_dataset(name) for name in config.datasets}
    runs = SeedRuns(tmp_path_factory.mktemp("seed_runs"))
    computed = {}
    for name, variant in seed_configs(config, 3).items():
        computed[name] = paper05.run(variant, data=data)
        runs.write(variant.seed, seed_run_key(variant, data_digests(data)), computed[name], seconds=0.0, command="test")
    return config, paper05.run(config, data=data), runs, computed


def test_seed_variants_read_committed_runs_and_are_the_runs(fast_05, monkeypatch):
    config, _, runs, computed = fast_05
    monkeypatch.setattr(_variants, "run", lambda *a, **k: pytest.fail("a committed run was computed again"))
    read = _variants.run_seed_variants(config, n=3, seed_runs=runs)
    assert list(read) == list(computed)
    for name in computed:
        pd.testing.assert_frame_equal(read[name], computed[name], check_exact=True)


def test_a_run_made_for_other_settings_is_not_read(fast_05, monkeypatch):
    config, _, runs, _ = fast_05
    other = replace(config, s_max=3)
    ran = []
    monkeypatch.setattr(_variants, "run", lambda variant, **k: ran.append(variant.seed) or pd.DataFrame())
    _variants.run_seed_variants(other, n=3, seed_runs=runs)
    assert ran == [variant.seed for variant in seed_configs(other, 3).values()]


def test_seed_stability_counts_each_claims_verdicts_over_the_committed_seeds(fast_05):
    config, results, runs, computed = fast_05
    section = paper05.claims_section(results, None, None, config=config, seed_runs=runs, n_stability_seeds=5)
    stability = section.stability
    assert stability.seeds == [config.seed, *(v.seed for v in seed_configs(config, 3).values())]
    assert stability.missing == [seed_configs(config, 4)["seed=" + str(config.seed + 4)].seed]
    # the same verdicts as the claims engine gives each seed's run as a variant
    report = paper05.claims_section(results, computed, None).report
    sensitivity = report.sensitivity.set_index(["variant", "id"])["verdict"]
    for claim, row in stability.verdicts.iterrows():
        assert row.iloc[0] == report.table.set_index("id").loc[claim, "verdict"]
        for name, seed in zip(computed, stability.seeds[1:]):
            assert row[seed] == sensitivity[(name, claim)]
    table = stability.table.set_index("id")
    measured = stability.verdicts.notna() & (stability.verdicts != "n/a")
    assert (table["seeds"] == measured.sum(axis=1).loc[table.index]).all()
    assert (table["as main"] <= table["seeds"]).all()
    assert "1 more seed (of the 5 asked for) has no committed run" in stability.text
    # the committed seeds are the report's seed variants: its table (robustness column included) is
    # the one the same runs computed beside the main one give; the per-variant table leaves them to
    # the stability table
    pd.testing.assert_frame_equal(section.report.table, report.table)
    assert section.report.table["seeds"].str.contains("of 3 other seeds keep").any()
    assert not [name for name in section.verdicts.columns if name.startswith("seed=")]


def test_without_committed_runs_the_stability_says_how_to_make_them(fast_05, tmp_path):
    config, results, _, _ = fast_05
    stability = paper05.claims_section(results, None, None, config=config, seed_runs=SeedRuns(tmp_path),
                                       n_stability_seeds=3).stability
    assert stability.table.empty and stability.seeds == [config.seed]
    assert "python -m companion.sweep --runs --only 05" in stability.text


# --- the command ------------------------------------------------------------------------------

class _TinyRuns:
    """A stand-in module of PROTOCOL_RUNS: a run is a small frame of its seed."""

    @staticmethod
    def seed_run_keys(seeds):
        return {seed: run_key("tiny", seed) for seed in seeds}

    @staticmethod
    def seed_run(seed, n_jobs=1):
        rng = np.random.default_rng(seed)
        return pd.DataFrame({"seed": [seed] * 3, "value": rng.random(3)}), run_key("tiny", seed), f"Tiny(seed={seed})"


def test_protocol_runs_are_written_as_they_finish_and_a_rerun_skips_them(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(_seed_sweep, "_protocol_module", lambda number: _TinyRuns)
    runs = SeedRuns(tmp_path)
    assert _seed_sweep.run_protocol_runs("05", [1, 2], runs, command="first") == []
    assert runs.seeds() == [1, 2]
    assert _seed_sweep.run_protocol_runs("05", [1, 2, 3], runs, command="second") == []
    assert "2 of 3 runs of 05 already committed" in capsys.readouterr().out
    assert [runs.record(s)["command"] for s in (1, 2, 3)] == ["first", "first", "second"]


@pytest.mark.slow
def test_protocol_runs_on_a_local_cluster_equal_the_serial_ones(tmp_path):
    distributed = pytest.importorskip("distributed")
    serial, clustered = SeedRuns(tmp_path / "serial"), SeedRuns(tmp_path / "cluster")
    _seed_sweep.PROTOCOL_RUNS["99"] = __name__ + "._TinyRunsModule"
    try:
        import sys
        import types

        module = types.ModuleType(__name__ + "._TinyRunsModule")
        module.seed_run, module.seed_run_keys = _TinyRuns.seed_run, _TinyRuns.seed_run_keys
        sys.modules[module.__name__] = module
        assert _seed_sweep.run_protocol_runs("99", [4, 5, 6], serial, command="serial") == []
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                      dashboard_address=None) as cluster, distributed.Client(cluster) as client:
            assert _seed_sweep.run_protocol_runs("99", [4, 5, 6], clustered, command="cluster", client=client) == []
    finally:
        del _seed_sweep.PROTOCOL_RUNS["99"]
    for seed in (4, 5, 6):
        assert serial.frame_path(seed).read_bytes() == clustered.frame_path(seed).read_bytes()


# --- the committed runs are still what the code computes (CI re-checks a few) -----------------

def test_the_committed_05_runs_are_the_notebooks_seed_variants():
    """Every committed run of 05 was made for the notebook's protocol at its seed and these data."""
    runs = committed_runs("05")
    seeds = runs.seeds()
    if not seeds:
        pytest.skip("no committed run of 05 (data/seed_runs/05)")
    variants = seed_configs(paper05.Config(), max(seeds) // paper05.Config().n_repeats)
    by_seed = {variant.seed: variant for variant in variants.values()}
    keys = _variants.seed_run_keys(seeds)
    for seed in seeds:
        record = runs.record(seed)
        assert record["key"] == keys[seed], f"seed {seed}: made for other settings or data"
        assert record["config"] == repr(by_seed[seed]) and record["command"].startswith("python -m companion.sweep --runs")
        assert record["commit"] and not record["commit"].endswith("+changes"), f"seed {seed}: made from uncommitted code"


# --- notebook 01: Table 1's rows at the other fold seeds -------------------------------------

def test_01_run_reads_committed_seeds_and_gives_the_frame_it_computes(tmp_path, monkeypatch):
    from companion.experiments import paper01
    from companion.experiments.paper01 import _protocol
    from companion.experiments.paper01._protocol import FAST_GRID

    config = _protocol.Config(names=("votes", "haberman"), seeds=(0, 1, 2), grid=FAST_GRID, inner_splits=2)
    computed = paper01.run(config)
    runs = SeedRuns(tmp_path)
    for seed in (1, 2):
        rows = computed[computed["seed"] == seed].reset_index(drop=True)
        runs.write(seed, _protocol.seed_run_key(config, seed), rows, seconds=0.0, command="test")
    fitted = []
    seed_rows = _protocol._seed_rows
    monkeypatch.setattr(_protocol, "_seed_rows",
                        lambda name, *args, **kwargs: fitted.append((name, args[4])) or seed_rows(name, *args, **kwargs))
    read = paper01.run(config, seed_runs=runs)
    pd.testing.assert_frame_equal(read, computed, check_exact=True)
    assert fitted == [("votes", 0), ("haberman", 0)]  # only the main seed is fitted
    fitted.clear()
    other = replace(config, inner_splits=3)  # another nested protocol: the committed rows are not its rows
    paper01.run(other, seed_runs=runs)
    assert fitted == [(name, seed) for name in config.names for seed in config.seeds]


def test_01_seed_run_is_the_rows_of_a_seed_that_is_not_the_main_one(monkeypatch):
    from companion.experiments.paper01 import _protocol
    from companion.experiments.paper01._protocol import FAST_GRID

    small = _protocol.Config(names=("votes",), seeds=(3,), grid=FAST_GRID, inner_splits=2)
    monkeypatch.setattr(_protocol, "seed_run_config", lambda seed: replace(small, seeds=(seed,)))
    frame, key, config = _protocol.seed_run(3)
    beside = _protocol.run(replace(small, seeds=(0, 3)))
    pd.testing.assert_frame_equal(frame, beside[beside["seed"] == 3].reset_index(drop=True), check_exact=True)
    assert key == _protocol.seed_run_key(replace(small, seeds=(0, 3)), 3) and config == repr(replace(small, seeds=(3,)))
    assert set(frame["protocol"]) <= {"a", "b", "s"}  # protocol (c) runs at the main seed only


def test_the_committed_01_runs_are_the_notebooks_seeds():
    from companion.experiments.paper01 import _protocol

    runs = committed_runs("01")
    if not runs.seeds():
        pytest.skip("no committed run of 01 (data/seed_runs/01)")
    keys = _protocol.seed_run_keys(runs.seeds())
    for seed in runs.seeds():
        record = runs.record(seed)
        assert record["key"] == keys[seed], f"seed {seed}: made for other settings or data"
        assert record["command"].startswith("python -m companion.sweep --runs")
        assert record["commit"] and not record["commit"].endswith("+changes"), f"seed {seed}: made from uncommitted code"


def test_01_stability_reads_committed_seeds_as_the_claims_would_at_those_seeds(tmp_path):
    """A seed read from the committed rows is judged as the same seed run beside the main one."""
    from companion.experiments import paper01
    from companion.experiments.paper01 import _protocol, _sections
    from companion.experiments.paper01._claims import claims_report, claims_variants
    from companion.experiments.paper01._protocol import FAST_GRID
    from companion.claims._stability import seed_stability

    every = _protocol.Config(names=("votes", "haberman", "glass"), seeds=(0, 1, 2, 3), grid=FAST_GRID, inner_splits=2)
    results_every = paper01.run(every)
    config = replace(every, seeds=(0, 1))
    results = results_every[results_every["seed"].isin(config.seeds)].reset_index(drop=True)
    runs = SeedRuns(tmp_path)
    runs.write(2, _protocol.seed_run_key(config, 2),
               results_every[results_every["seed"] == 2].reset_index(drop=True), seconds=0.0, command="test")
    variants = claims_variants(results)
    committed, missing = _sections._committed_seed_variants(config, variants["main"], runs, 4)
    report = claims_report({**variants, **committed})
    stability = seed_stability(report, 0, missing=missing)
    assert stability.seeds == [0, 1, 2] and stability.missing == [3]
    beside = claims_report(claims_variants(results_every)).sensitivity.set_index(["variant", "id"])["verdict"]
    judged = stability.verdicts
    assert len(judged) and judged[2].notna().any()
    for claim in judged.index:
        assert judged.loc[claim, 0] == report.table.set_index("id").loc[claim, "verdict"]
        for seed in (1, 2):
            if pd.notna(judged.loc[claim, seed]):
                assert judged.loc[claim, seed] == beside[(f"seed={seed}", claim)], (claim, seed)
    assert "1 more seed (of the 4 asked for) has no committed run" in stability.text
    # the committed seed is a variant of the notebook's report: its main verdicts as without it, and
    # each claim's seed count (its robustness column) counts it
    alone = claims_report(variants).table.set_index("id")
    table = report.table.set_index("id")
    assert table["verdict"].equals(alone["verdict"])
    counted = table["seeds"].str.extract(r"of (\d+) other seeds", expand=False).dropna().astype(int)
    assert len(counted) and (counted == 2).all()
    assert (alone["seeds"].str.extract(r"of (\d+) other seeds", expand=False).dropna().astype(int) == 1).all()


def test_provenance_names_the_command_commit_and_versions_of_the_runs_read(tmp_path, monkeypatch):
    runs = SeedRuns(tmp_path / "runs")
    for seed, commit in ((1, "a" * 40), (2, "a" * 40), (3, "b" * 40 + "+changes")):
        monkeypatch.setattr(_seed_runs, "_commit", lambda commit=commit: commit)
        runs.write(seed, "k", pd.DataFrame({"errors": [seed]}), seconds=0.0, command="make runs")
    versions = ", ".join(f"{name} {version}" for name, version in _seed_runs._versions().items())
    assert runs.provenance([1, 2]) == f"The 2 committed runs read (`runs`): all made by `make runs` at commit aaaaaaa ({versions})."
    assert runs.provenance([1, 3, 9]) == (
        f"The 2 committed runs read (`runs`): 1 made by `make runs` at commit aaaaaaa ({versions}); "
        f"1 made by `make runs` at commit bbbbbbb with uncommitted changes ({versions}).")
    assert runs.provenance([9]) == ""
    assert _seed_runs.provenance_of(None, {"seed=1": None}) == ""
    assert _seed_runs.provenance_of(runs, {"seed=1": None}).startswith("The 1 committed run read (`runs`): all made")


def test_a_frame_altered_after_it_was_committed_is_refused(tmp_path):
    runs = SeedRuns(tmp_path)
    runs.write(1, "k", pd.DataFrame({"errors": [1, 2]}), seconds=0.0, command="test")
    runs.frame_path(1).write_bytes(__import__("gzip").compress(b'"errors"\n"1"\n"3"\n', mtime=0))
    with pytest.raises(ValueError, match="restore it from git"):
        runs.read(1, "k")


def test_the_committed_folder_is_listed_in_the_manifest_and_rerecorded_on_write(tmp_path):
    import shutil

    from companion._data_files import manifest

    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(committed_runs("05").data_dir / "manifest.csv", data / "manifest.csv")
    before = (data / "manifest.csv").read_text(encoding="utf-8").splitlines()
    runs = SeedRuns(data / "seed_runs" / "07", data_dir=data)
    for seed in (2, 1):
        runs.write(seed, f"k{seed}", pd.DataFrame({"errors": [seed]}), seconds=0.0, command="test")
    after = (data / "manifest.csv").read_text(encoding="utf-8").splitlines()
    entry = manifest(data).set_index("file").loc["seed_runs/07/records.csv"]
    assert entry["rows"] == 2 and entry["dataset"] == "seed_runs_07"
    assert entry["sha256"] == __import__("hashlib").sha256(runs.records_path.read_bytes()).hexdigest()
    # the other rows as they were, the new one once, at the end
    assert [line for line in after if not line.startswith("seed_runs/07/")] == [
        line for line in before if not line.startswith("seed_runs/07/")]
    assert after[-1].startswith("seed_runs/07/records.csv")
    assert runs.seeds() == [1, 2] and runs.read(1, "k1")["errors"].tolist() == [1]
    runs.records_path.write_text(runs.records_path.read_text().replace("k1", "kX"))  # edited by hand
    with pytest.raises(Exception, match="altered"):
        runs.seeds()


def test_a_seed_where_a_claim_cannot_be_measured_is_not_counted():
    from types import SimpleNamespace

    from companion.claims._stability import NOT_EVALUATED, seed_stability

    report = SimpleNamespace(
        table=pd.DataFrame({"id": ["a", "b"], "central": [False, False], "verdict": ["observed", NOT_EVALUATED]}),
        sensitivity=pd.DataFrame({"variant": ["seed=1", "seed=2", "seed=1", "seed=2"], "id": ["a", "a", "b", "b"],
                                  "role": ["varies"] * 4,
                                  "verdict": ["observed", NOT_EVALUATED, NOT_EVALUATED, NOT_EVALUATED]}))
    stability = seed_stability(report, main_seed=0)
    assert stability.table["id"].tolist() == ["a"]  # b was measured at no seed
    row = stability.table.iloc[0]
    assert row["seeds"] == 2 and row["as main"] == 2 and NOT_EVALUATED not in stability.table.columns


def test_a_claim_no_seed_changes_is_left_out_and_same_values_are_counted_apart():
    """A claim whose values no fold seed changes does not depend on the seed (the claims table gives
    it no seed count either); a seed that gives a varied claim the main run's values is counted in
    ``same values``, as the claims table's "(m of them with the same values)"."""
    from types import SimpleNamespace

    from companion.claims._stability import seed_stability

    report = SimpleNamespace(
        table=pd.DataFrame({"id": ["fixed", "moved"], "central": [True, False], "verdict": ["holds", "fails"]}),
        sensitivity=pd.DataFrame({"variant": ["seed=1", "seed=2", "seed=3"] * 2,
                                  "id": ["fixed"] * 3 + ["moved"] * 3,
                                  "role": ["unchanged"] * 3 + ["varies", "unchanged", "varies"],
                                  "verdict": ["holds"] * 3 + ["fails", "fails", "undecided"]}))
    stability = seed_stability(report, main_seed=0)
    assert stability.table["id"].tolist() == ["moved"] and list(stability.verdicts.index) == ["moved"]
    row = stability.table.iloc[0]
    assert (row["seeds"], row["same values"], row["fails"], row["undecided"], row["as main"]) == (4, 1, 3, 1, 3)
    assert row["other verdict at seeds"] == "3" and stability.central.empty
    assert "0 of the 1 claims a fold seed enters" in stability.text


# --- notebook 03: the seed variants' draws ------------------------------------------------------

@pytest.fixture(scope="module")
def fast_03(tmp_path_factory):
    """Notebook 03's fast protocol, and the runs of its seed variants 9 and 10 (beyond the eight the
    notebook runs itself) committed to a temporary folder, as ``seed_run`` makes them."""
    from companion.experiments import paper03
    from companion.experiments.paper03 import _claims

    config = paper03.Config.fast()
    runs = SeedRuns(tmp_path_factory.mktemp("seed_runs_03"))
    computed = {}
    for seed in (config.seed + 9, config.seed + 10):
        variant = _claims.seed_run_config(seed, config)
        results = paper03.run(variant)
        trees = _claims.unpruned_trees(variant.n_draws, seed, degrees=variant.degrees, n_train=variant.n_train,
                                       n_test=variant.n_test, lam=variant.lam)
        runs.write(seed, _claims.seed_run_key(variant), _claims.seed_run_frame(results, trees), seconds=0.0,
                   command="test", config=repr(variant))
        computed[seed] = (results, trees)
    return config, runs, computed


def test_03_a_committed_frame_splits_back_into_the_run_and_the_trees(fast_03):
    from companion.experiments.paper03 import _claims

    config, runs, computed = fast_03
    for seed, (results, trees) in computed.items():
        frame = runs.read(seed, _claims.seed_run_key(_claims.seed_run_config(seed, config)))
        back_results, back_trees = _claims.split_seed_run(frame)
        pd.testing.assert_frame_equal(back_results, results, check_exact=True)
        pd.testing.assert_frame_equal(back_trees, trees, check_exact=True)


def test_03_seed_variant_reads_a_committed_run_and_gives_the_data_it_computes(fast_03, monkeypatch):
    from companion.experiments.paper03 import _claims

    config, runs, _ = fast_03
    seed = config.seed + 9
    computed = _claims.seed_variant(config, seed)
    for name in ("run_with_memo", "unpruned_trees"):
        monkeypatch.setattr(_claims, name, lambda *a, **k: pytest.fail("a committed run was computed again"))
    read = _claims.seed_variant(config, seed, seed_runs=runs)
    assert read["status"] == computed["status"]
    for part in ("results", "draws", "unpruned"):
        pd.testing.assert_frame_equal(read[part], computed[part], check_exact=True)


def test_03_a_run_made_for_other_settings_is_not_read(fast_03):
    from companion.experiments.paper03 import _claims

    config, runs, _ = fast_03
    other = replace(config, n_draws=2)
    variants, missing = _claims.committed_seed_variants(other, [config.seed + 9, config.seed + 10], runs)
    assert variants == {} and missing == [config.seed + 9, config.seed + 10]
    variants, missing = _claims.committed_seed_variants(config, [config.seed + 9, config.seed + 11], runs)
    assert list(variants) == [f"seed={config.seed + 9}"] and missing == [config.seed + 11]


def test_03_claims_count_every_committed_seed_and_the_stability_reads_the_same_report(fast_03):
    """The committed seeds beyond the eight seed variants are variants seed=k of every claim (counted in
    its seeds), not pooled; the stability table counts the main seed, the eight and the committed ones."""
    from companion.experiments import paper03
    from companion.experiments.paper03 import _claims

    config, runs, _ = fast_03
    results = paper03.run(config)
    section = paper03.claims_section(config, results=results, orders=None, conditioned=None, j48=None, unpruned=None,
                                     seed_runs=runs, n_stability_seeds=12)
    stability = section.stability
    assert stability.seeds[0] == config.seed and stability.missing == [config.seed + 11]
    assert set(stability.seeds[1:]) <= {config.seed + k for k in range(1, 11)}
    variants = set(section.report.sensitivity["variant"])
    assert {f"seed={config.seed + 9}", f"seed={config.seed + 10}"} <= variants
    assert f"column1=d2,seed={config.seed + 9}" not in variants  # the column-1 table keeps the eight
    assert section.report.table["seeds"].str.contains("of 10 other seeds keep").any()
    assert sorted(section.statuses) == [config.seed + k for k in range(1, 11)]
    assert "python -m companion.sweep --runs --only 03" in stability.text
    # the pool (the honest check) is the main draws and the eight seed variants' only
    pooled = section.report.sensitivity.query("variant == 'draws=pooled'")
    assert (pooled["n"].dropna() <= config.n_draws * 9).all()


def test_the_committed_03_runs_are_the_notebooks_seed_variants():
    """Every committed run of 03 was made for the notebook's protocol at its seed."""
    from companion.experiments.paper03 import _claims

    runs = committed_runs("03")
    seeds = runs.seeds()
    if not seeds:
        pytest.skip("no committed run of 03 (data/seed_runs/03)")
    keys = _claims.seed_run_keys(seeds)
    for seed in seeds:
        record = runs.record(seed)
        assert record["key"] == keys[seed], f"seed {seed}: made for other settings"
        assert record["config"] == repr(_claims.seed_run_config(seed))
        assert record["command"].startswith("python -m companion.sweep --runs")
        assert record["commit"] and not record["commit"].endswith("+changes"), f"seed {seed}: made from uncommitted code"


@pytest.mark.slow
@pytest.mark.parametrize("position", [0, -1])
@pytest.mark.parametrize("number", sorted(set(_seed_sweep.PROTOCOL_RUNS) - {"04"}))  # 04: its own test, below
def test_a_committed_run_is_what_the_code_computes_now(number, position):
    """The first and the last committed runs of each notebook, recomputed by the module that makes
    them (``python -m companion.sweep --runs``) and compared to the last bit (the real-valued
    columns of :data:`REAL_VALUED_COLUMNS` within rtol 1e-12): a changed learner, which the key
    does not see, fails here."""
    seeds = committed_runs(number).seeds()
    if not seeds:
        pytest.skip(f"no committed run of {number} (data/seed_runs/{number})")
    frame, key, _ = _seed_sweep._protocol_module(number).seed_run(seeds[position], n_jobs=-1)
    committed = committed_runs(number).read(seeds[position], key)
    loose = REAL_VALUED_COLUMNS.get(number, ())
    pd.testing.assert_frame_equal(committed.drop(columns=list(loose)), frame.drop(columns=list(loose)), check_exact=True)
    for column in loose:  # a real-valued result: equal up to its last bits, missing where missing
        assert np.array_equal(committed[column].isna(), frame[column].isna())
        np.testing.assert_allclose(frame[column].to_numpy(dtype=float), committed[column].to_numpy(dtype=float),
                                   rtol=1e-12, atol=0.0, equal_nan=True)


#: Columns of a committed run holding real-valued results whose last bits follow the machine,
#: compared within rtol 1e-12 (every other column, every decision, to the last bit):
#: 03's ``risk`` (the kernel machines' hinge risks, sums the BLAS computes:
#: ``OPENBLAS_CORETYPE=Prescott``, as CI runs, moves 19 of seed 2002's 600 by one ulp) and 05's
#: bounds (logarithms and ``expm1`` through numpy's SIMD loops: with AVX-512 off, 111 of seed 2's
#: 5,320 ``bound`` values move by at most one ulp). 01's columns are exact.
REAL_VALUED_COLUMNS = {"03": ("risk",), "05": ("bound", "bound_pairing", "gibbs_bound")}


# --- notebook 04: WIDC, J48 and the majority class at the other fold seeds -------------------

def test_04_reads_a_committed_run_only_for_its_settings_and_data(tmp_path):
    from companion.experiments.paper04 import Config, _peers

    runs = SeedRuns(tmp_path / "04")
    config = replace(Config(), optimistic_strength=0.0)  # the notebook's full run
    frame = pd.DataFrame({"dataset": ["iris"], "method": ["J48"], "seed": [7], "fold": [0], "errors": [1],
                          "n_test": [15], "rules": [3], "literals": [5]})
    runs.write(7, _peers.seed_run_key(replace(config, seed=7, others=())), frame.assign(seed=7), seconds=0.0, command="t")
    runs.write(8, _peers.seed_run_key(replace(config, seed=8, others=(), max_cuts=1)), frame.assign(seed=8),
               seconds=0.0, command="t")  # made for other settings
    found, missing = _peers.committed_seed_frames(config, [7, 8, 9], runs)
    assert list(found) == [7] and missing == [8, 9]
    pd.testing.assert_frame_equal(found[7], frame.assign(seed=7))
    assert _peers.committed_seed_frames(config, [7], None) == ({}, [7])
    # a fast run (two folds) never reads a full run's frame
    assert _peers.committed_seed_frames(replace(config, max_folds=2), [7], runs) == ({}, [7])


def test_the_committed_04_runs_are_the_notebooks_seed_variants():
    """Every committed run of 04 was made for the notebook's benchmark at its seed and these data."""
    from companion.experiments.paper04 import Config, _peers

    runs = committed_runs("04")
    seeds = runs.seeds()
    if not seeds:
        pytest.skip("no committed run of 04 (data/seed_runs/04)")
    keys = _peers.seed_run_keys(seeds)
    notebook = replace(Config(), optimistic_strength=0.0)  # the strength study's recommendation at the full run
    for seed in seeds:
        record = runs.record(seed)
        assert record["key"] == keys[seed] == _peers.seed_run_key(replace(notebook, seed=seed, others=()))
        assert record["config"] == f"{_peers.seed_run_config(seed)!r}, peers {', '.join(_peers.SEED_RUN_PEERS)}"
        assert record["command"].startswith("python -m companion.sweep --runs")
        assert record["commit"] and not record["commit"].endswith("+changes"), f"seed {seed}: made from uncommitted code"


@pytest.mark.slow
@pytest.mark.parametrize("position", [0, -1])
def test_a_committed_04_run_is_what_the_code_computes_now(position):
    """The first and the last committed runs of 04 recomputed: WIDC's and the majority class's rows
    to the last bit (J48's need Weka: their folds are checked when they are made), and J48 on
    every fold of every data set."""
    from companion.experiments.paper04 import BENCHMARK_SETS, _peers

    runs = committed_runs("04")
    seeds = runs.seeds()
    if not seeds:
        pytest.skip("no committed run of 04 (data/seed_runs/04)")
    config = _peers.seed_run_config(seeds[position])
    committed = runs.read(config.seed, _peers.seed_run_key(config))
    assert committed is not None
    ours = _peers.seed_runs(config, [config.seed], n_jobs=-1, peers=())[config.seed]
    peers = committed["method"].isin(_peers.SEED_RUN_PEERS)
    pd.testing.assert_frame_equal(committed[~peers].reset_index(drop=True), ours.reset_index(drop=True),
                                  check_exact=True)
    j48 = committed[peers]
    assert set(j48["method"]) == set(_peers.SEED_RUN_PEERS)
    assert (j48.groupby("dataset")["fold"].nunique() == 10).all() and set(j48["dataset"]) == set(BENCHMARK_SETS)
