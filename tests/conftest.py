"""Shared pytest configuration for tests/: headless matplotlib and a seeded generator.

The scratch figures folder (COMPANION_FIGURES) is set up by the root ``conftest.py``.
"""

import matplotlib

# Headless figures in this process only: setting MPLBACKEND instead would leak into the Jupyter
# kernels that nbval starts and stop the notebooks from embedding their figures.
matplotlib.use("Agg")

import numpy as np
import pytest


@pytest.fixture
def rng():
    """A fresh, seeded generator for each test (tests are independent of their order)."""
    return np.random.default_rng(20021209)
