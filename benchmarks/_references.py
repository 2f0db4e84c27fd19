"""The naive reference implementations live in the tests; benchmarks load them from there.

A test module is imported from its file (``tests/`` is not a package), so a benchmark times the
very loops the unit tests compare the vectorised learners against, not a copy that could drift.
"""

from __future__ import annotations

import importlib.util
from types import ModuleType

from companion.paths import ROOT

__all__ = ["reference_module"]


def reference_module(name: str) -> ModuleType:
    """``tests/<name>.py`` imported as a module (e.g. ``reference_module("test_prism").naive_prism``)."""
    path = ROOT / "tests" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_reference_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
