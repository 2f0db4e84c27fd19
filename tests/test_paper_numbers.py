"""The table of paper numbers: every file readable, with a status for each number."""

import pytest

from companion.paper_numbers import available_tables, paper_table

KNOWN_STATUS = {"CONFIRMED", "DERIVED", "RECONSTRUCTED", "INFERRED", "EXTERNAL", "NOT_RECOVERED"}


@pytest.mark.parametrize("name", available_tables())
def test_table_has_status_column(name):
    table = paper_table(name)
    assert len(table) > 0
    assert "status" in table.columns, f"{name} needs a status column"
    assert set(table["status"].dropna().str.upper()) <= KNOWN_STATUS


def test_unknown_table_lists_available():
    with pytest.raises(ValueError, match="available: .*dataset_sizes"):
        paper_table("no_such_table")
