"""The top-level package exposes every learner lazily, and the map names real classes."""

import pytest
from sklearn.base import ClassifierMixin

import companion
from companion.discovery import all_estimators


@pytest.mark.parametrize("name", [n for n in companion.__all__ if n != "__version__"])
def test_top_level_learner_is_the_module_class(name):
    learner = getattr(companion, name)
    assert issubclass(learner, ClassifierMixin)
    assert learner.__name__ == name


def test_every_paper_learner_is_reachable_from_the_top_level():
    discovered = {name for name, _ in all_estimators()}
    assert set(companion.__all__) - {"__version__"} <= discovered


def test_unknown_attribute_raises_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        companion.Nope
