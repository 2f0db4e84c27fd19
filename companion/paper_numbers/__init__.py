"""The project's one table of the papers' published numbers.

Each paper's numbers live in a CSV file beside this module (``<notebook>_<what>.csv``), typed once,
with a ``status`` column saying whether the number is CONFIRMED (read in the paper), DERIVED or
RECONSTRUCTED (rebuilt by the project where extraction lost it; the CSV's header says how). Notebooks and tests read them through :func:`paper_table`;
no paper number is typed into a notebook or a test.

>>> sizes = paper_table("dataset_sizes")
>>> int(sizes.set_index(["paper", "dataset"]).loc[(1, "haberman"), "examples"])
294
"""

from __future__ import annotations

from importlib import resources

import pandas as pd
from sklearn.utils._param_validation import validate_params

__all__ = ["paper_table", "available_tables"]


def available_tables() -> list[str]:
    """Names of the stored paper tables (file stems), sorted.

    Returns
    -------
    list of str
    """
    return sorted(
        entry.name[: -len(".csv")]
        for entry in resources.files(__name__).iterdir()
        if entry.name.endswith(".csv")
    )


@validate_params({"name": [str]}, prefer_skip_nested_validation=True)
def paper_table(name: str) -> pd.DataFrame:
    """Return the paper table ``name`` as a DataFrame.

    Parameters
    ----------
    name : str
        One of :func:`available_tables`.

    Returns
    -------
    pandas.DataFrame

    Raises
    ------
    ValueError
        If no table of that name exists; the message lists the available ones.
    """
    tables = available_tables()
    if name not in tables:
        raise ValueError(f"paper_table: name {name!r} is no paper table; available: {', '.join(tables)}")
    with resources.files(__name__).joinpath(f"{name}.csv").open("r", encoding="utf-8") as handle:
        return pd.read_csv(handle, comment="#")
