"""Find every scikit-learn estimator that ``companion`` defines.

The contract test (``tests/test_estimator_contract.py``) feeds them all to scikit-learn's
``parametrize_with_checks``, so a learner is held to the contract the moment it exists.

An estimator class may declare ``_sklearn_check_exemptions = {"check_name": "reason"}``; each
entry is passed by the contract test to ``expected_failed_checks`` and must say why the check
cannot hold.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

from sklearn.base import BaseEstimator

__all__ = ["all_estimators"]


def all_estimators(type_filter=None) -> list[tuple[str, type]]:
    """Return ``(name, class)`` for every public estimator class defined in ``companion``, sorted.

    ``type_filter``: None (all, for the contract test), ``"classifier"`` (the learners) or
    ``"transformer"`` (``companion.preprocessing``'s), as in ``sklearn.utils.all_estimators``.

    Parameters
    ----------
    type_filter : {None, "classifier", "transformer"}, default=None
        Which estimators.

    Returns
    -------
    list of (str, type)
    """
    from sklearn.base import ClassifierMixin, TransformerMixin

    keep = {
        None: lambda cls: True,
        "classifier": lambda cls: issubclass(cls, ClassifierMixin),
        "transformer": lambda cls: issubclass(cls, TransformerMixin),
    }
    if type_filter not in keep:
        raise ValueError(f"type_filter must be None, 'classifier' or 'transformer', got {type_filter!r}")

    found = {}
    # the package's own folder, walked without importing the package from inside it
    for module_info in pkgutil.walk_packages([str(Path(__file__).resolve().parent)], prefix="companion."):
        leaf = module_info.name.rsplit(".", 1)[-1]
        if leaf.startswith("_") or leaf in {"reproduce"}:
            continue
        module = importlib.import_module(module_info.name)
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if (
                issubclass(cls, BaseEstimator)
                and cls.__module__.startswith("companion")
                and not name.startswith("_")
                and not inspect.isabstract(cls)
                and keep[type_filter](cls)
            ):
                found[name] = cls
    return sorted(found.items())
