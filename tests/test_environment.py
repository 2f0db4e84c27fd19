"""environment.yml, pyproject.toml and requirements.lock describe the same environment."""

import re
import tomllib

import yaml

from companion.paths import ROOT


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[;\s]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _pyproject_packages():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return {_name(r) for r in project["dependencies"]}


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
