"""Sample-compression bound (Theorem 3 + Eq. 5 of Paper 05, restated from Marchand & Sokolova 2005)."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.bounds.compression import compression_bound
from companion.bounds.occam import zeta


def test_reference_values():
    assert compression_bound(0, 100, 2000, 0) == pytest.approx(0.0391254, abs=1e-7)
    assert compression_bound(5, 62, 2000, 2) == pytest.approx(0.587657, abs=1e-6)
    assert compression_bound(5, 62, 2000, 2, pairing=True) == pytest.approx(0.592821, abs=1e-6)
    assert compression_bound(0, 62, 2000, 1) == pytest.approx(0.253068, abs=1e-6)


def test_closed_form_without_compression():
    m, k, delta = 80, 3, 0.05
    expected = 1 - math.exp(-(math.log(math.comb(m, k)) - math.log(zeta(0) * zeta(k) * delta)) / (m - k))
    assert compression_bound(k, m, 10, 0, delta) == pytest.approx(expected, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(errors=st.integers(0, 20), size=st.integers(0, 5))
def test_monotone_in_errors_and_size(errors, size):
    base = compression_bound(errors, 70, 2000, size)
    assert compression_bound(errors + 1, 70, 2000, size) >= base
    assert compression_bound(errors, 70, 2000, size + 1) >= base
    assert compression_bound(errors, 70, 2000, size, pairing=True) >= base
    assert compression_bound(errors, 70, 2000, size, delta=0.01) >= base


def test_degenerate_sample_gives_trivial_bound():
    assert compression_bound(3, 5, 10, 2) == 1.0


def test_bad_input():
    with pytest.raises(ValueError, match="delta"):
        compression_bound(0, 10, 5, 1, delta=0)
    with pytest.raises(ValueError, match="n_errors"):
        compression_bound(-1, 10, 5, 1)
    with pytest.raises(ValueError, match="cannot exceed m"):
        compression_bound(9, 10, 5, 2)
    with pytest.raises(ValueError, match="n_features"):
        compression_bound(0, 10, 1, 2)
