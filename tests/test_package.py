"""The top-level package exposes every learner lazily, and the map names real classes."""

import importlib
import re

import pytest
from sklearn.base import ClassifierMixin, TransformerMixin

import companion
from companion.discovery import all_estimators


#: What the top level exports besides the learners: the version and the reader of exported models.
NOT_LEARNERS = {"__version__", "from_dict"}


def test_top_level_from_dict_is_the_reader_of_exported_models():
    from companion.interpretable import from_dict

    assert companion.from_dict is from_dict


@pytest.mark.parametrize("name", [n for n in companion.__all__ if n not in NOT_LEARNERS])
def test_top_level_learner_is_the_module_class(name):
    learner = getattr(companion, name)
    assert issubclass(learner, (ClassifierMixin, TransformerMixin))
    assert learner.__name__ == name


def _learner_table() -> dict[str, str]:
    """``{learner: module}`` read from the table in ``companion``'s docstring (what a reader sees)."""
    return dict(re.findall(r"^``(\w+)``\s+``(companion[\w.]*)``", companion.__doc__, re.M))


LEARNER_TABLE = _learner_table()


def test_the_docstring_table_lists_exactly_the_top_level_learners():
    assert len(LEARNER_TABLE) >= 15  # the table parsed: the 13 learners and 2 transformers of today
    assert set(LEARNER_TABLE) == set(companion.__all__) - NOT_LEARNERS


@pytest.mark.parametrize("name, module", sorted(LEARNER_TABLE.items()))
def test_table_learner_is_defined_in_its_module_and_reachable_from_the_top_level(name, module):
    defined = getattr(importlib.import_module(module), name)
    assert defined.__module__ == module, f"{name} is re-exported by {module}, defined in {defined.__module__}"
    assert getattr(companion, name) is defined
    namespace = {}
    exec(f"from companion import {name}", namespace)
    assert namespace[name] is defined


def test_every_discovered_estimator_is_in_the_table():
    # discovery walks every module: a public estimator missing from the table is unreachable
    # from the top level and unknown to the reader of the docstring.
    discovered = {name for name, _ in all_estimators()}
    assert discovered - set(LEARNER_TABLE) == set()


def test_all_estimators_takes_scikit_learns_type_filters():
    classifiers = all_estimators("classifier")
    transformers = all_estimators("transformer")
    assert all_estimators(["classifier", "transformer"]) == sorted(classifiers + transformers)
    assert all_estimators("regressor") == all_estimators("cluster") == []
    with pytest.raises(ValueError, match=r"all_estimators: type_filter must be .* got \['classifier', 'learner'\]"):
        all_estimators(["classifier", "learner"])
    with pytest.raises(ValueError, match=r"The 'type_filter' parameter of all_estimators must be .* Got 'learner' instead"):
        all_estimators("learner")


def test_unknown_attribute_raises_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        companion.Nope


# The extras (notebooks, test, dask, baselines) are imported only by the functions that need them:
# importing every module of the package and fitting learners loads none of them (issue 14).
_EXTRA_MODULES = ["papermill", "nbformat", "nbclient", "jupyter_client", "ipykernel", "IPython",
                  "tqdm", "pytest", "nbval", "hypothesis", "yaml", "dask", "distributed",
                  "wittgenstein"]


# Estimators that exist to wrap an extra (OrderedRipper wraps wittgenstein, the `baselines` extra):
# constructing one loads nothing, fitting one loads its extra (checked below).
_EXTRA_WRAPPERS = {"OrderedRipper": "wittgenstein"}


@pytest.mark.slow
def test_package_and_learners_load_no_extra():
    import subprocess
    import sys

    from companion.paths import ROOT

    script = (
        "import sys\n"
        "import numpy as np\n"
        "from companion.discovery import all_estimators\n"
        f"EXTRA_WRAPPERS = {sorted(_EXTRA_WRAPPERS)!r}\n"
        "X = np.random.default_rng(0).integers(0, 2, size=(30, 4)).astype(float)\n"
        "y = X[:, 0].astype(int)\n"
        "for name, cls in all_estimators():\n"
        "    if name in EXTRA_WRAPPERS:\n"
        "        cls(); continue  # constructing one loads nothing; fitting loads its extra\n"
        "    fitted = cls().fit(X, y)\n"
        "    fitted.predict(X) if hasattr(fitted, 'predict') else fitted.transform(X)  # transformers\n"
        f"extras = {_EXTRA_MODULES!r}\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(extras)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]", done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("name, extra", sorted(_EXTRA_WRAPPERS.items()))
def test_extra_wrapper_loads_its_extra_on_fit_not_on_construction(name, extra):
    import subprocess
    import sys

    from companion.paths import ROOT

    pytest.importorskip(extra)
    script = (
        "import sys\n"
        "import numpy as np\n"
        f"from companion import {name}\n"
        f"learner = {name}()\n"
        f"print({extra!r} in sys.modules)\n"
        "X = np.random.default_rng(0).integers(0, 2, size=(30, 4)).astype(float)\n"
        "learner.fit(X, X[:, 0].astype(int))\n"
        f"print({extra!r} in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    assert done.stdout.split() == ["False", "True"], done.stdout


def test_core_install_check_script_is_valid_bash():
    import subprocess

    from companion.paths import ROOT

    script = ROOT / ".ci" / "check_core_install"
    subprocess.run(["bash", "-n", str(script)], check=True)
    assert "bash .ci/check_core_install" in (ROOT / ".ci" / "run").read_text()
