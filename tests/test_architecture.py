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

from companion.paths import ROOT

#: Modules that hold learners, transformers or what they are built from (rule a).
LEARNER_MODULES = frozenset({
    "decision_list", "prism", "perceptrons", "led", "kernels", "widc", "stumps", "baselines",
    "preprocessing", "interpretable", "numerics", "_nominal", "_ball_grid",
})
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


def violations(root: Path, package: str = "companion") -> dict[str, set]:
    """The imports of every module below ``root/package`` that break rules (a), (b), (c)."""
    out = {"a": set(), "b": set(), "c": set()}
    for path in sorted((root / package).rglob("*.py")):
        me = module_name(path, root)
        rel = path.relative_to(root).as_posix()
        leaf = me.split(".")[1] if me.count(".") >= 1 else ""
        for target, names in imports(path, root, package):
            protocols = [p.replace("companion", package, 1) for p in PROTOCOL_PACKAGES]
            if me.count(".") == 1 and leaf in LEARNER_MODULES and any(
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


def test_every_learner_module_exists():
    # A renamed or merged module must be renamed here too, or rule (a) would silently skip it.
    stale = {m for m in LEARNER_MODULES if not (ROOT / "companion" / f"{m}.py").exists()}
    assert stale == set()


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
    assert violations(tmp_path, "pkg") == {"a": set(), "b": set(), "c": set()}


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
    found = violations(tmp_path, "pkg")
    assert found[rule] == {expected}
    assert all(found[other] == set() for other in "abc" if other != rule)
