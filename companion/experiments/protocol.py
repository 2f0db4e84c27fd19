"""The one shape every paper's protocol has: a config dataclass, ``run`` and a tidy result frame.

Each ``companion.experiments.paperNN`` package exposes

* ``Config``: a frozen dataclass of everything the protocol's numbers depend on (data sets,
  seeds, fold counts, grids); ``Config()`` is the notebook's full run and ``Config.fast()`` its
  smoke run (the notebook's ``fast`` switch);
* ``run(config, n_jobs=1) -> pandas.DataFrame``: the *tidy* result, one row per
  data set x method x seed x fold (:data:`TIDY_KEYS`, checked by :func:`check_tidy`), one column
  per measured quantity (errors, sizes, bounds, selected parameters). Anything else ``run``
  takes is keyword-only with a default that changes no number: an object the caller owns and
  shares between calls (``paper04.run(config, memo=paper04.FoldMemo())``), never a module cache;
* table and figure builders that take that frame (``summary_table(results)``, ...), so a notebook
  reads ``results = paperNN.run(config)`` and then only builders.

A function of a protocol that fits the paper's learners on every grid point or fold is decorated
with :func:`paper_models`: a paper's model that predicts one class is reported with the others,
without a :class:`companion.interpretable.SingleClassWarning`.

A protocol without folds (one train/test split per random draw, as paper 03's) writes fold 0; one
with a single data set names it; ``seed`` is the seed of the fold split or of the draw, so that two
rows with equal keys would be the same experiment.

Data registries (which data sets a paper uses, how they are loaded and read) are dictionaries
``{name: companion.datasets.RegisteredDataset}``.
"""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import validate_params

from companion.interpretable import SingleClassWarning

__all__ = ["TIDY_KEYS", "check_tidy", "paper_models"]

#: The columns that identify one row of a protocol's result: data set, method, seed, fold.
TIDY_KEYS = ("dataset", "method", "seed", "fold")


@validate_params({"results": [pd.DataFrame], "keys": ["array-like"]}, prefer_skip_nested_validation=True)
def check_tidy(results: pd.DataFrame, keys=TIDY_KEYS) -> pd.DataFrame:
    """Return ``results`` after checking that it is a tidy protocol result.

    Parameters
    ----------
    results : DataFrame
        A protocol's result.
    keys : sequence of str, default=:data:`TIDY_KEYS`

    Returns
    -------
    DataFrame
        ``results`` itself.

    Raises
    ------
    ValueError
        If a key column is missing, holds a missing value, or two rows share their keys.

    Examples
    --------
    >>> frame = pd.DataFrame({"dataset": ["a", "a"], "method": ["m", "m"], "seed": [0, 0],
    ...                       "fold": [0, 1], "errors": [3, 2]})
    >>> check_tidy(frame) is frame
    True
    >>> check_tidy(frame.assign(fold=0))
    Traceback (most recent call last):
    ...
    ValueError: check_tidy: in results, 2 rows share their (dataset, method, seed, fold) with another row,
    e.g. ('a', 'm', 0, 0)
    """
    keys = list(keys)
    missing = [key for key in keys if key not in results.columns]
    if missing:
        raise ValueError(f"check_tidy: results needs the key columns {keys}; missing {missing}")
    if results[keys].isna().any().any():
        empty = [key for key in keys if results[key].isna().any()]
        raise ValueError(f"check_tidy: in results, the key columns {empty} hold missing values")
    repeated = results.duplicated(keys, keep=False)
    if repeated.any():
        # numpy scalars as Python values, so that the message reads ('a', 'm', 0, 0)
        first = tuple(v.item() if isinstance(v, np.generic) else v for v in results.loc[repeated, keys].iloc[0])
        raise ValueError(
            f"check_tidy: in results, {int(repeated.sum())} rows share their ({', '.join(keys)}) with another row, "
            f"e.g. {first}"
        )
    return results


@validate_params({"function": [callable]}, prefer_skip_nested_validation=False)
def paper_models(function):
    """``function`` run without :class:`companion.interpretable.SingleClassWarning`.

    A protocol fits the paper's learners at every grid point, prefix, pruning and fold; a model
    among them that predicts one class on its training rows (a list cut to no ball, a committee
    pruned to its default vector) is one of the paper's models, which the protocol reports with
    the others, not a user's surprise. A decorator rather than a filter around the call, so
    that it also holds in the worker processes of :func:`companion.evaluation.parallel_map`.

    Parameters
    ----------
    function : callable

    Returns
    -------
    callable
        ``function`` with the warning silenced while it runs (other warnings pass).
    """

    @functools.wraps(function)
    def quiet(*args, **kwargs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SingleClassWarning)
            return function(*args, **kwargs)

    return quiet
