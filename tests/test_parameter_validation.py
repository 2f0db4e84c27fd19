"""Every public function declares its parameters, as scikit-learn's ``test_public_functions.py``.

A public function is one in the ``__all__`` of a public module (``tests/test_docstrings.py``)
that takes parameters. Each is wrapped in scikit-learn's ``validate_params`` and its declaration
names every parameter of its signature, with ``"no_validation"`` only where anything is accepted.
A value of a type no constraint allows is refused before the function runs, with an
``InvalidParameterError`` that names the function and the parameter, whatever the other
arguments are. Hand-written checks remain inside the functions for what depends on the data.
"""

import importlib
import inspect

import numpy as np
import pytest
from sklearn.utils._param_validation import (
    InvalidParameterError,
    generate_invalid_param_val,
    generate_valid_param,
    make_constraint,
)

from tests.test_docstrings import PUBLIC_MODULES


def _public_functions():
    seen = {}
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj) and inspect.signature(obj).parameters and id(obj) not in seen:
                seen[id(obj)] = (f"{module_name}.{name}", obj)
    return sorted(seen.values(), key=lambda item: item[0])


PUBLIC_FUNCTIONS = _public_functions()


def _named_parameters(function):
    return [
        p.name
        for p in inspect.signature(function).parameters.values()
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]


def _constraints(function):
    return getattr(inspect.unwrap(function), "_skl_parameter_constraints", None)


def _valid_value(constraints):
    """A value meeting one of ``constraints`` (scikit-learn's generator, then a bare instance)."""
    if constraints == "no_validation":
        return 1
    for constraint in map(make_constraint, constraints):
        try:
            return generate_valid_param(constraint)
        except (TypeError, ValueError):
            kind = getattr(constraint, "type", None)
            if isinstance(kind, type):
                # A class whose constructor needs arguments (a dataclass, a results record):
                # an instance made without running ``__init__`` passes ``isinstance``, which is
                # all the validation looks at before the function body would run.
                return object.__new__(kind)
    raise AssertionError(f"no valid value can be generated for {constraints!r}")


def test_there_are_public_functions_to_check():
    assert len(PUBLIC_FUNCTIONS) > 100


@pytest.mark.parametrize("name, function", PUBLIC_FUNCTIONS, ids=[name for name, _ in PUBLIC_FUNCTIONS])
def test_every_parameter_is_declared(name, function):
    constraints = _constraints(function)
    assert constraints is not None, f"{name} is not wrapped in sklearn's validate_params"
    parameters = _named_parameters(function)
    assert sorted(constraints) == sorted(parameters), (
        f"{name} declares {sorted(constraints)} for the parameters {sorted(parameters)}"
    )


@pytest.mark.parametrize("name, function", PUBLIC_FUNCTIONS, ids=[name for name, _ in PUBLIC_FUNCTIONS])
def test_a_value_of_the_wrong_kind_is_refused_by_name(name, function):
    constraints = _constraints(function)
    if constraints is None:
        pytest.fail(f"{name} is not wrapped in sklearn's validate_params")
    signature = inspect.signature(function)
    required = {
        p.name: _valid_value(constraints[p.name])
        for p in signature.parameters.values()
        if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    }
    bad_type = type("BadType", (), {})()
    checked = 0
    for parameter in _named_parameters(function):
        if constraints[parameter] == "no_validation":
            continue
        message = rf"The '{parameter}' parameter of {function.__qualname__} must be .* Got .* instead\."
        with pytest.raises(InvalidParameterError, match=message):
            function(**{**required, parameter: bad_type})
        declared = [make_constraint(c) for c in constraints[parameter]]
        for constraint in declared:
            try:
                bad_value = generate_invalid_param_val(constraint)
            except NotImplementedError:
                continue
            if any(other.is_satisfied_by(bad_value) for other in declared):
                continue  # out of this interval but inside another allowed one
            with pytest.raises(InvalidParameterError, match=message):
                function(**{**required, parameter: bad_value})
        checked += 1
    assert checked or not constraints, f"{name} validates none of its parameters"

