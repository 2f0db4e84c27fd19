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
from sklearn.utils._param_validation import StrOptions, validate_params

__all__ = ["all_estimators"]


#: The kinds of estimator ``type_filter`` names, as in ``sklearn.utils.discovery.all_estimators``.
_TYPES = ("classifier", "regressor", "cluster", "transformer")


@validate_params({"type_filter": [StrOptions(set(_TYPES)), list, None]}, prefer_skip_nested_validation=True)
def all_estimators(type_filter=None) -> list[tuple[str, type]]:
    """Return ``(name, class)`` for every public estimator class defined in ``companion``, sorted.

    ``type_filter`` takes scikit-learn's options (``sklearn.utils.all_estimators``): None (all,
    for the contract test), ``"classifier"`` (the learners), ``"transformer"``
    (``companion.preprocessing``'s), ``"regressor"`` or ``"cluster"`` (none in ``companion``),
    or a list of them (the estimators of at least one of the kinds).

    Parameters
    ----------
    type_filter : {"classifier", "regressor", "cluster", "transformer"} or list of such str, \
            default=None
        Which estimators.

    Returns
    -------
    list of (str, type)

    Raises
    ------
    ValueError
        If a list names another kind.
    """
    from sklearn.base import ClassifierMixin, ClusterMixin, RegressorMixin, TransformerMixin

    mixins = {"classifier": ClassifierMixin, "regressor": RegressorMixin, "cluster": ClusterMixin,
              "transformer": TransformerMixin}
    if type_filter is None:
        kinds = None
    else:
        kinds = [type_filter] if isinstance(type_filter, str) else list(type_filter)
        unknown = [kind for kind in kinds if not (isinstance(kind, str) and kind in mixins)]
        if unknown:
            raise ValueError(f"all_estimators: type_filter must be {_TYPES} or a list of them, got {type_filter!r}")

    def keep(cls):
        return kinds is None or any(issubclass(cls, mixins[kind]) for kind in kinds)

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
                and keep(cls)
            ):
                found[name] = cls
    return sorted(found.items())
