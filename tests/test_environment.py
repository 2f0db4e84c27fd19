"""environment.yml, pyproject.toml and requirements.lock describe the same environment, and the
package's core needs only its core dependencies (issue 14: a light `pip install .`)."""

import ast
import re
import sys
import tomllib

import yaml

from companion.paths import ROOT

#: What using a learner needs; everything else is an extra.
CORE = {"numpy", "scipy", "pandas", "matplotlib", "scikit-learn", "joblib", "threadpoolctl"}
EXTRAS = {"notebooks", "test", "dask", "baselines", "site", "bench", "all"}
#: Distribution name -> the name it is imported by, where they differ.
_IMPORT_NAME = {"scikit-learn": "sklearn", "pyyaml": "yaml"}


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[;\s]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _project():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _pyproject_packages():
    """Every package pyproject names: the core and all extras (without `companion[...]` itself)."""
    project = _project()
    requirements = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        requirements += extra
    return {_name(r) for r in requirements} - {"companion"}


def _environment():
    return yaml.safe_load((ROOT / "environment.yml").read_text())


def test_environment_yml_is_a_valid_conda_forge_environment():
    env = _environment()
    assert env["channels"] == ["conda-forge"]
    conda = [d for d in env["dependencies"] if isinstance(d, str)]
    pip = [d for d in env["dependencies"] if isinstance(d, dict)]
    assert any(d.startswith("conda-forge::python=3.11") for d in conda)
    assert "pip" in conda
    assert len(pip) == 1 and "-e ." in pip[0]["pip"]


def test_environment_names_the_same_packages_as_pyproject():
    env = _environment()
    conda = {
        _name(d.split("::", 1)[-1]) for d in env["dependencies"] if isinstance(d, str)
    } - {"python", "pip"}
    pip = {
        _name(d) for d in next(d for d in env["dependencies"] if isinstance(d, dict))["pip"]
    } - {"-e"}
    assert conda | pip == _pyproject_packages()


def test_lock_pins_every_dependency_exactly():
    pins = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"requirements.lock line not pinned: {line!r}"
            pins[_name(name)] = version
    assert _pyproject_packages() <= set(pins)


def test_core_dependencies_are_only_what_a_learner_needs():
    """No notebook, test, cluster or baseline package in a plain `pip install .`."""
    assert {_name(r) for r in _project()["dependencies"]} == CORE


def test_extras_are_named_and_all_means_all():
    extras = _project()["optional-dependencies"]
    assert set(extras) == EXTRAS
    for name, requirements in extras.items():
        for requirement in requirements:
            if _name(requirement) == "companion":  # a self-reference: names existing extras
                named = re.search(r"\[(.*)\]", requirement).group(1).split(",")
                assert set(named) <= EXTRAS - {name, "all"}, requirement
    (everything,) = extras["all"]
    assert set(re.search(r"\[(.*)\]", everything).group(1).split(",")) == EXTRAS - {"all"}


def _module_level_imports(path):
    """Top-level package names imported outside any function body of ``path``."""
    names = set()

    def visit(node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue  # a lazy import: runs only when the function is called
            if isinstance(child, ast.Import):
                names.update(alias.name.split(".")[0] for alias in child.names)
            elif isinstance(child, ast.ImportFrom) and child.level == 0:
                names.add(child.module.split(".")[0])
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return names


def test_package_imports_only_core_dependencies_at_module_level():
    """Importing any companion module works without the extras: papermill, nbformat, dask,
    wittgenstein... are imported inside the functions that need them."""
    allowed = {_IMPORT_NAME.get(name, name) for name in CORE} | set(sys.stdlib_module_names)
    allowed |= {"companion", "__future__"}
    offenders = {
        path.relative_to(ROOT).as_posix(): sorted(_module_level_imports(path) - allowed)
        for path in sorted((ROOT / "companion").rglob("*.py"))
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_module_level_import_scan_sees_imports():
    """The scan above can fail: it finds module-level imports, also under `if`/`try`."""
    source = ROOT / "companion" / "reproduce.py"
    found = _module_level_imports(source)
    assert {"argparse", "companion"} <= found
    assert "papermill" not in found  # imported inside run_notebook
