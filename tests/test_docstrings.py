"""Docstrings of the public API validated with numpydoc, as scikit-learn's ``test_docstrings.py``.

The public API is what a user may import: the learners and :func:`companion.from_dict` from the
top level, and the ``__all__`` of every public module listed below (with the public methods of
the classes they export). Each object must have a docstring whose summary is one line, whose
``Parameters`` section names every parameter (and no other), and whose ``Returns``/``Yields``
section exists when it returns or yields. Docstrings cite the papers (section, equation,
table), never a document the repository does not ship.
"""

import importlib
import inspect
import re

import pytest

numpydoc_validate = pytest.importorskip("numpydoc.validate")

#: Modules whose ``__all__`` is public API.
PUBLIC_MODULES = [
    "companion",
    "companion.claims",
    "companion.datasets",
    "companion.discovery",
    "companion.evaluation",
    "companion.experiments.paper02",
    "companion.experiments.paper03",
    "companion.experiments.paper04",
    "companion.experiments.protocol",
    "companion.interpretable",
    "companion.experiments.paper05",
    "companion.stumps",
    "companion.bounds.binomial",
    "companion.bounds.compression",
    "companion.bounds.occam",
    "companion.bounds.pac_bayes",
    "companion.decision_list",
    "companion.perceptrons",
    "companion.kernels",
    "companion.bounds.decision_list",
    "companion.bounds.boolean_kernel",
    "companion.numerics",
    "companion.paper_numbers",
    "companion.paths",
    "companion.reproduce",
    "companion.sweep",
    "companion.prism",
    "companion.baselines",
    "companion.widc",
    "companion.preprocessing",
    "companion.led",
    "companion.experiments.paper01",
    "companion.prose",
]

#: numpydoc checks that hold for every public object (see numpydoc's ``ERROR_MSGS``).
CHECKS = {
    "GL08",  # the object has a docstring
    "SS01",  # ... with a summary
    "SS02",  # starting with a capital letter (or a literal)
    "SS06",  # that fits on one line
    "PR01",  # every parameter documented
    "PR02",  # no parameter documented that does not exist
    "PR10",  # "name : type", with the colon spaced
    "RT01",  # a Returns section where something is returned
    "YD01",  # a Yields section where something is yielded
}

#: A reference to our working notes, which the repository does not ship.
UNSHIPPED_REFERENCE = re.compile(r"\bspec(?:'s)?\b(?! ?\()|\bspecs/|shared/", re.IGNORECASE)


def _members(module_name):
    module = importlib.import_module(module_name)
    for name in getattr(module, "__all__", []):
        obj = getattr(module, name)
        if not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue
        qualified = f"{obj.__module__}.{obj.__qualname__}"
        yield qualified, obj
        if inspect.isclass(obj):
            for method_name, method in inspect.getmembers(obj, inspect.isfunction):
                if method_name.startswith("_") or method.__qualname__.split(".")[0] != obj.__name__:
                    continue  # private, or inherited from scikit-learn / a mixin documented elsewhere
                yield f"{qualified}.{method_name}", method


PUBLIC = sorted({name: obj for module in PUBLIC_MODULES for name, obj in _members(module)}.items())


@pytest.mark.parametrize("name, obj", PUBLIC, ids=[name for name, _ in PUBLIC])
def test_docstring(name, obj):
    result = numpydoc_validate.validate(name)
    errors = [f"{code}: {message}" for code, message in result["errors"] if code in CHECKS]
    assert not errors, f"{name}:\n" + "\n".join(errors)
    assert not UNSHIPPED_REFERENCE.search(inspect.getdoc(obj) or ""), f"{name} cites a document outside the repository"


def test_the_public_api_is_not_empty():
    assert len(PUBLIC) > 20


#: The most public names the package may have: what a user (or a sixth paper) can reach beyond
#: this is plumbing, which lives in private modules.
MAX_PUBLIC_NAMES = 250


def _public_names():
    """Every object in the ``__all__`` of a public module, once (a learner exported by the top
    level and by its module is one name)."""
    names = {}
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            key = id(obj) if inspect.isclass(obj) or inspect.isfunction(obj) else (module_name, name)
            names.setdefault(key, f"{module_name}.{name}")
    return sorted(names.values())


def test_every_public_module_is_listed_and_declares_its_names():
    import pkgutil

    import companion

    found = {"companion"} | {
        info.name for info in pkgutil.walk_packages(companion.__path__, "companion.")
        if not any(part.startswith("_") for part in info.name.split("."))
    }
    namespaces = {"companion.bounds", "companion.experiments"}  # packages that only hold modules
    assert found - namespaces == set(PUBLIC_MODULES)
    for module_name in PUBLIC_MODULES:
        assert isinstance(importlib.import_module(module_name).__all__, list), module_name


def test_the_public_surface_is_at_most_250_names():
    names = _public_names()
    assert len(names) <= MAX_PUBLIC_NAMES, f"{len(names)} public names: move plumbing into private modules"
