"""The module graph of ``companion`` and ``benchmarks``, read from the source (``ast``).

Every import counts, a top-level one and one inside a function alike (a lazy import is still an
arrow). Three rules:

(a) no import circle: the arrows between modules go one way, so a module can be read, tested and
    moved with only what it imports;
(b) no module imports a package it lives in: inside ``companion`` no ``import companion`` and no
    ``from companion import X`` (submodule or not: write ``import companion.datasets as datasets``
    or ``from companion.datasets import X``), and no ``from companion.experiments import X`` inside
    ``companion.experiments``. A package's ``__init__`` is the front door for users (the notebooks,
    ``benchmarks``, the tests), above every module of the package;
(c) no module imports a private name (``_x``) from another module, unless that module is itself
    private (``companion._x``, ``companion.experiments._x``): a private module is the shared
    piece of the modules above it. Today's exceptions are the frozen allow-list
    :data:`PRIVATE_NAMES_ALLOWED`, which may only shrink (an entry that no longer occurs fails).
"""

from __future__ import annotations

import ast
from pathlib import Path

from companion.paths import ROOT

PACKAGES = ("companion", "benchmarks")

#: (importing module, imported module, private name): rule (c)'s exceptions today. Only shrinks.
PRIVATE_NAMES_ALLOWED: frozenset = frozenset()


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _sources() -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` of :data:`PACKAGES`."""
    return {_module_name(path): path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))}


SOURCES = _sources()


def _is_package(module: str) -> bool:
    return SOURCES[module].name == "__init__.py"


def import_arrows(module: str) -> list[tuple[str, str | None, int]]:
    """``(imported module, imported name or None, line)`` for every import in ``module`` of a
    module of :data:`PACKAGES` (relative imports resolved; ``from package import submodule`` is an
    arrow to the submodule, with no name)."""
    path = SOURCES[module]
    arrows = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            arrows += [(alias.name, None, node.lineno) for alias in node.names if alias.name in SOURCES]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if _is_package(module) else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target not in SOURCES:
                continue
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                arrows.append((submodule, None, node.lineno) if submodule in SOURCES
                              else (target, alias.name, node.lineno))
    return arrows


GRAPH = {module: import_arrows(module) for module in SOURCES}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (or a module importing itself),
    each as one circle through it (Tarjan, then a path back to the start)."""
    index, low, stack, on_stack, components = {}, {}, [], set(), []

    def connect(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph[v]:
                components.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    circles = []
    for component in components:
        start, inside = component[0], set(component)
        # breadth-first from start's successors back to start, inside the component
        paths = {w: [start, w] for w in sorted(graph[start]) if w in inside}
        frontier = list(paths)
        while start not in paths and frontier:
            nxt = []
            for v in frontier:
                for w in sorted(graph[v]):
                    if w in inside and w not in paths:
                        paths[w] = paths[v] + [w]
                        nxt.append(w)
            frontier = nxt
        circles.append(paths.get(start, component))
    return circles


def test_the_cycle_finder_reports_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert _cycles(graph) == [["a", "b", "c", "a"], ["e", "e"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_function_local_and_relative_imports():
    # benchmarks.run imports its benchmarks inside functions; companion.__init__ reads _learners
    assert any(target == "companion._learners" for target, _, _ in GRAPH["companion"])
    assert sum(len(arrows) for arrows in GRAPH.values()) > 100


def test_no_import_circle():
    graph = {module: {target for target, _, _ in arrows} for module, arrows in GRAPH.items()}
    circles = _cycles(graph)
    assert not circles, "import circles: " + "; ".join(" -> ".join(circle) for circle in circles)


def _package_imports(module: str, text: str | None = None) -> list[tuple[str, int]]:
    """``(package, line)`` for every ``import P`` / ``from P import ...`` in ``module`` (its source,
    or ``text``) of a package ``P`` that ``module`` lives in (relative imports resolved)."""
    text = SOURCES[module].read_text(encoding="utf-8") if text is None else text
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")[:-1]  # a package's __init__ is not checked (rule b)
                base = base[: len(base) - (node.level - 1)]
                targets = [".".join(base + ([node.module] if node.module else []))]
            else:
                targets = [node.module or ""]
        else:
            continue
        found += [(target, node.lineno) for target in targets
                  if target in SOURCES and _is_package(target) and module.startswith(target + ".")]
    return found


def test_the_package_rule_sees_every_spelling_of_an_import_of_the_package():
    text = ("import companion\nfrom companion import datasets\nfrom . import paper01\n"
            "def f():\n    from companion.experiments import paper02\n"
            "import companion.datasets as datasets\nfrom companion.experiments.paper01 import run\n")
    assert _package_imports("companion.experiments.paper09", text) == [
        ("companion", 1), ("companion", 2), ("companion.experiments", 3), ("companion.experiments", 5)]


def test_no_module_imports_the_package_it_lives_in():
    offenders = [f"{module} (line {line}) imports its package {package}"
                 for module in SOURCES if module.startswith("companion.")
                 for package, line in _package_imports(module)]
    assert not offenders, "\n".join(offenders)


def _private_name_uses() -> set[tuple[str, str, str]]:
    uses = set()
    for module, arrows in GRAPH.items():
        for target, name, _ in arrows:
            if name is None or not name.startswith("_") or name.startswith("__") or target == module:
                continue
            if target.split(".")[-1].startswith("_"):  # a private module is the shared piece
                continue
            uses.add((module, target, name))
    return uses


def test_private_names_are_imported_only_from_private_modules():
    uses = _private_name_uses()
    new = sorted(uses - PRIVATE_NAMES_ALLOWED)
    gone = sorted(PRIVATE_NAMES_ALLOWED - uses)
    assert not new, f"private names imported from a public module: {new}"
    assert not gone, f"no longer imported, remove from PRIVATE_NAMES_ALLOWED: {gone}"

