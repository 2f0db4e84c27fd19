"""The import direction of the package, read from the source (``ast``), not from a running import.

Three rules (issue 17):

(a) a learner module never imports the protocols (``companion.experiments``, ``companion.reproduce``):
    a learner is usable without the notebooks' machinery;
(b) a bound (``companion.bounds.*``) never imports a learner: it takes counts, or a fitted model's
    public attributes (duck typing). Bounds may import other bounds and ``companion.numerics``
    (the exact-arithmetic kernels learners and bounds share), nothing else from ``companion``;
(c) no module of ``companion`` imports a private name (``_x``) from another ``companion`` module:
    what is shared is public, with a docstring.

Every import counts, also one inside a function (a lazy import is still a dependency). Today's
offenders that another change must remove are listed in explicit allow-lists with the file that
owns the fix; an entry that no longer occurs fails the test too, so the lists only shrink.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.discovery import all_estimators
from companion.paths import ROOT

PROTOCOL_PACKAGES = ("companion.experiments", "companion.reproduce")
#: What a bound may import from ``companion`` besides ``companion.bounds`` itself (rule b).
BOUNDS_MAY_IMPORT = ("companion.numerics",)

#: (importing file, imported module): rule (b) exceptions, each with the change that removes it.
BOUNDS_IMPORT_ALLOWED: set = set()
#: (importing file, imported module, private name): rule (c) exceptions, owner of the fix noted.
PRIVATE_IMPORT_ALLOWED: set = set()


def module_name(path: Path, root: Path) -> str:
    """Dotted name of the module in ``path`` below the folder ``root`` that holds the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, root: Path, package: str):
    """``(imported module, [names])`` for every import of ``package`` in the file (names: from-imports).

    Relative imports are resolved; ``from companion import x`` where ``x`` is a submodule counts as
    an import of ``companion.x``.
    """
    me = module_name(path, root)
    is_package = path.name == "__init__.py"
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names if alias.name.split(".")[0] == package]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = me.split(".") if is_package else me.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != package:
                continue
            names = [alias.name for alias in node.names]
            submodules = [n for n in names if (root / Path(*target.split("."), n)).with_suffix(".py").exists()
                          or (root / Path(*target.split("."), n, "__init__.py")).exists()]
            found += [(f"{target}.{n}", []) for n in submodules]
            rest = [n for n in names if n not in submodules]
            if rest or not submodules:
                found.append((target, rest))
    return found


def estimator_modules() -> set[str]:
    """The top-level modules of ``companion`` that define an estimator (its class's ``__module__``)."""
    return {cls.__module__.split(".")[1] for _, cls in all_estimators()}


def learner_modules(root: Path, package: str, seeds) -> set[str]:
    """Rule (a)'s modules: ``seeds`` (the estimators' modules) and every top-level module of
    ``package`` they import, directly or through each other (what a learner is built from),
    the protocols excepted (importing them is what rule (a) forbids)."""
    protocols = {p.replace("companion", package, 1).split(".")[1] for p in PROTOCOL_PACKAGES}
    found, todo = set(), list(seeds)
    while todo:
        leaf = todo.pop()
        if leaf in found or leaf in protocols:
            continue
        found.add(leaf)
        path = root / package / f"{leaf}.py"
        path = path if path.exists() else root / package / leaf / "__init__.py"
        if path.exists():
            todo += [target.split(".")[1] for target, _ in imports(path, root, package) if target.count(".") >= 1]
    return found


def violations(root: Path, package: str = "companion", seeds=None) -> dict[str, set]:
    """The imports of every module below ``root/package`` that break rules (a), (b), (c).

    ``seeds``: the modules that define estimators (default: companion's, from
    :func:`companion.discovery.all_estimators`); rule (a) holds for them and all they import.
    """
    learners = learner_modules(root, package, estimator_modules() if seeds is None else seeds)
    out = {"a": set(), "b": set(), "c": set()}
    for path in sorted((root / package).rglob("*.py")):
        me = module_name(path, root)
        rel = path.relative_to(root).as_posix()
        leaf = me.split(".")[1] if me.count(".") >= 1 else ""
        for target, names in imports(path, root, package):
            protocols = [p.replace("companion", package, 1) for p in PROTOCOL_PACKAGES]
            if me.count(".") == 1 and leaf in learners and any(
                target == p or target.startswith(p + ".") for p in protocols
            ):
                out["a"].add((rel, target))
            if me.startswith(f"{package}.bounds"):
                allowed = (f"{package}.bounds",) + tuple(m.replace("companion", package, 1) for m in BOUNDS_MAY_IMPORT)
                if target != package and not any(target == a or target.startswith(a + ".") for a in allowed):
                    out["b"].add((rel, target))
            if target != me:
                out["c"].update((rel, target, n) for n in names if n.startswith("_") and not n.startswith("__"))
    return out


@pytest.fixture(scope="module")
def found():
    return violations(ROOT)


def test_learners_never_import_the_protocols(found):
    assert found["a"] == set(), "learner modules import companion.experiments / companion.reproduce"


def test_bounds_never_import_learners(found):
    new = found["b"] - BOUNDS_IMPORT_ALLOWED
    assert new == set(), "bounds import learners: pass counts or a fitted model's public attributes"
    stale = BOUNDS_IMPORT_ALLOWED - found["b"]
    assert stale == set(), "fixed: remove these entries from BOUNDS_IMPORT_ALLOWED"


def test_no_private_name_crosses_a_module(found):
    new = found["c"] - PRIVATE_IMPORT_ALLOWED
    assert new == set(), "private names imported from another module: make them public or move them"
    stale = PRIVATE_IMPORT_ALLOWED - found["c"]
    assert stale == set(), "fixed: remove these entries from PRIVATE_IMPORT_ALLOWED"


def test_rule_a_covers_the_learners_and_what_they_are_built_from():
    # Derived from the estimators' modules: a new learner module is covered the moment it exists,
    # and so is every module a learner imports (the shared base, the engines, the numerics).
    modules = learner_modules(ROOT, "companion", estimator_modules())
    assert estimator_modules() < modules
    assert {"interpretable", "numerics", "_ball_search", "_nominal"} <= modules
    assert not {"experiments", "reproduce"} & modules


# --------------------------------------------------------------------------------------------
# The checker itself, on a synthetic package with one violation of each rule
# --------------------------------------------------------------------------------------------


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


CLEAN = {
    "pkg/__init__.py": "",
    "pkg/numerics.py": "def exact(): pass\n",
    "pkg/widc.py": "from pkg.numerics import exact\n",
    "pkg/bounds/__init__.py": "",
    "pkg/bounds/binomial.py": "from pkg.numerics import exact\n",
    "pkg/bounds/occam.py": "from pkg.bounds.binomial import x\nfrom . import binomial\n",
    "pkg/experiments/__init__.py": "",
    "pkg/experiments/paper04.py": "from pkg.widc import grow\nfrom pkg import widc\n",
}


def test_checker_passes_a_clean_package(tmp_path):
    _write(tmp_path, CLEAN)
    assert violations(tmp_path, "pkg", seeds={"widc"}) == {"a": set(), "b": set(), "c": set()}


@pytest.mark.parametrize("rule, file, text, expected", [
    ("a", "pkg/widc.py", "def f():\n    from pkg.experiments import paper04\n",
     ("pkg/widc.py", "pkg.experiments.paper04")),
    ("a", "pkg/widc.py", "import pkg.experiments.paper04\n", ("pkg/widc.py", "pkg.experiments.paper04")),
    ("b", "pkg/bounds/occam.py", "from pkg.widc import DecisionCommittee\n", ("pkg/bounds/occam.py", "pkg.widc")),
    ("b", "pkg/bounds/occam.py", "from ..widc import grow\n", ("pkg/bounds/occam.py", "pkg.widc")),
    ("b", "pkg/bounds/occam.py", "from pkg import widc\n", ("pkg/bounds/occam.py", "pkg.widc")),
    ("c", "pkg/experiments/paper04.py", "from pkg.widc import _literal_matrix\n",
     ("pkg/experiments/paper04.py", "pkg.widc", "_literal_matrix")),
    ("c", "pkg/bounds/occam.py", "from .binomial import _log_delta\n",
     ("pkg/bounds/occam.py", "pkg.bounds.binomial", "_log_delta")),
])
def test_checker_catches_a_synthetic_violation(tmp_path, rule, file, text, expected):
    _write(tmp_path, CLEAN | {file: text})
    found = violations(tmp_path, "pkg", seeds={"widc"})
    assert found[rule] == {expected}
    assert all(found[other] == set() for other in "abc" if other != rule)


def test_checker_follows_what_a_learner_module_imports(tmp_path):
    # pkg.helpers defines no estimator, but widc (which does) is built from it: rule (a) holds there.
    helpers = {"pkg/helpers.py": "from pkg.experiments import paper04\n", "pkg/widc.py": "from pkg import helpers\n"}
    _write(tmp_path, CLEAN | helpers)
    assert violations(tmp_path, "pkg", seeds={"widc"})["a"] == {("pkg/helpers.py", "pkg.experiments.paper04")}
    assert violations(tmp_path, "pkg", seeds={"numerics"})["a"] == set()


def _module_state():
    """Every module-level container of companion (dicts, lists, sets, deques, byte arrays) with
    its size, and every memoising wrapper (functools.cache / lru_cache)."""
    import collections
    import importlib
    import pkgutil

    import companion

    state, memoised = {}, []
    for info in pkgutil.walk_packages(companion.__path__, "companion."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if name.startswith("__"):
                continue
            if isinstance(value, (dict, list, set, collections.deque, bytearray)):
                state[(info.name, name)] = len(value)
            if hasattr(value, "cache_info") and getattr(value, "__module__", "").startswith("companion"):
                memoised.append((info.name, name))
    return state, memoised


def test_no_module_level_cache_fills_while_the_package_works():
    """No hidden state: loading data, fitting and exporting learners leaves every module-level
    container of the package as it was (a cache would grow), and nothing is memoised by functools."""
    import warnings

    from companion import datasets, from_dict
    from companion.baselines import PrunedDecisionTree
    from companion.perceptrons import KernelPerceptron
    from companion.prism import Prism
    from companion.stumps import SetCoveringStumps

    before, memoised = _module_state()
    assert memoised == []
    X, y = datasets.load_iris()
    datasets.load_iris()
    binary = (y == y.iloc[0]).to_numpy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for learner in (Prism(), PrunedDecisionTree(), KernelPerceptron(), SetCoveringStumps()):
            model = learner.fit(X, binary)
            from_dict(model.to_dict()).predict(X)
    after, _ = _module_state()
    assert {key: (before.get(key), size) for key, size in after.items() if before.get(key) != size} == {}
