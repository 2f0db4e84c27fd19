"""The one protocol shape (companion/experiments/protocol.py), held by every paper module.

Each ``companion.experiments.paperNN`` has a frozen ``Config`` dataclass with a ``fast()`` smoke
configuration, ``run(config, n_jobs=1)`` returning a tidy frame (one row per data set x method x
seed x fold), and data registries in the one format ``{name: RegisteredDataset}``.
"""

import dataclasses
import importlib
import inspect

import pandas as pd
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from companion.datasets import RegisteredDataset
from companion.experiments.protocol import TIDY_KEYS, check_tidy

PAPERS = ["paper01", "paper02", "paper03", "paper04", "paper05"]
#: module -> its data registries (the papers with more than one data set), and the private module
#: of the paper's package that defines them.
REGISTRIES = {"paper01": ["DATASETS"], "paper02": ["DATASETS"], "paper04": ["BENCHMARK_SETS"], "paper05": ["DATASETS"]}
REGISTRY_MODULES = {"paper01": "_grids", "paper02": "_protocol", "paper04": "_protocol", "paper05": "_protocol"}


def module(name):
    return importlib.import_module(f"companion.experiments.{name}")


@pytest.mark.parametrize("paper", PAPERS)
def test_config_is_a_frozen_dataclass_with_a_fast_variant(paper):
    config_class = module(paper).Config
    assert dataclasses.is_dataclass(config_class) and config_class.__dataclass_params__.frozen
    full, fast = config_class(), config_class.fast()
    assert isinstance(fast, config_class) and fast != full
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(full, dataclasses.fields(full)[0].name, None)


@pytest.mark.parametrize("paper", PAPERS)
def test_run_signature(paper):
    parameters = inspect.signature(module(paper).run).parameters
    positional = [name for name, p in parameters.items() if p.kind is not inspect.Parameter.KEYWORD_ONLY]
    assert positional == ["config", "n_jobs"]
    assert parameters["n_jobs"].default == 1
    # anything more (paper04's memo) is keyword-only and optional: run(config, n_jobs) stays the call
    assert all(p.default is None for name, p in parameters.items() if name not in positional)


@pytest.mark.slow
@pytest.mark.parametrize("paper", PAPERS)
def test_fast_run_is_tidy(paper):
    results = module(paper).run(module(paper).Config.fast())
    check_tidy(results)
    assert len(results) > 0
    numeric = results.drop(columns=list(TIDY_KEYS)).select_dtypes("number")
    assert numeric.shape[1] >= 1, "a protocol result measures something"


@pytest.mark.parametrize("paper, registry", [(p, r) for p, names in REGISTRIES.items() for r in names])
def test_registries_have_one_format(paper, registry):
    entries = getattr(importlib.import_module(f"companion.experiments.{paper}.{REGISTRY_MODULES[paper]}"), registry)
    assert entries and all(isinstance(name, str) for name in entries)
    assert all(isinstance(entry, RegisteredDataset) for entry in entries.values())


def test_check_tidy_rejects_bad_frames():
    frame = pd.DataFrame({"dataset": ["a", "a"], "method": ["m", "m"], "seed": [0, 0], "fold": [0, 1]})
    assert check_tidy(frame) is frame
    with pytest.raises(ValueError, match=r"check_tidy: results needs the key columns .*; missing \['fold'\]"):
        check_tidy(frame.drop(columns="fold"))
    with pytest.raises(ValueError, match=r"check_tidy: in results, 2 rows share"):
        check_tidy(frame.assign(fold=0))
    with pytest.raises(ValueError, match=r"check_tidy: in results, the key columns \['seed'\] hold missing values"):
        check_tidy(frame.assign(seed=[0, None]))
    with pytest.raises(InvalidParameterError,
                       match=r"The 'results' parameter of check_tidy must be an instance of 'pandas.DataFrame'\. "
                             r"Got \{'dataset': .*\} instead\."):
        check_tidy(frame.to_dict())
