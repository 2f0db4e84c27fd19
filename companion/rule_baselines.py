"""Compatibility: :class:`OneR` now lives in :mod:`companion.baselines` (notebook 02 names this path)."""

from companion.baselines import OneR  # noqa: F401
