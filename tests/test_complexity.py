"""``complexity_`` is what ``to_text()`` shows: counted in the printed text, not from the model.

Every interpretable learner (found by :func:`companion.discovery.all_estimators`) is fitted on a
few random tables (numeric with two classes, integer codes with three classes where the
learner takes them, and a mixed table with a string column where its tags say it reads
strings); its text is then parsed and the literals (tests, conditions, balls, stumps, monomial
literals, support points) counted line by line. The count must equal ``complexity_``. A new
learner fails here until its text format has a counter in ``COUNTERS`` (the text format is
each learner's own: no tag carries it).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from sklearn.preprocessing import KBinsDiscretizer

from companion.discovery import all_estimators
from companion.interpretable import InterpretableMixin

LEARNERS = dict(
    (name, cls) for name, cls in all_estimators("classifier") if issubclass(cls, InterpretableMixin)
)


def _lines(text, pattern):
    return [line for line in text.splitlines() if re.match(pattern, line)]


def _ball_lines(text):
    # "if ||x - (a=1, b=2)||_2 < 1.5 then 'p'" / "else if ... then 'q'": one ball a line.
    return len(_lines(text, r"(if|else if) .* then "))


def _condition_count(condition, separator):
    return 0 if condition.strip() in ("", "always", "TRUE") else len(condition.split(separator))


def _committee_literals(text):
    # "IF a <= 0.3 AND city = Nice THEN (p: -1, q: +1)": the literals of each monomial.
    conditions = [re.match(r"IF (.*) THEN \(", line).group(1) for line in _lines(text, r"IF ")]
    return sum(_condition_count(condition, " AND ") for condition in conditions)


def _polynomial_literals(text):
    # "  +0.084 c ¬a": a monomial's literals are the names after the weight; "1" is the constant.
    terms = [line.split()[1:] for line in _lines(text, r"  [-+]")]
    return sum(0 if term == ["1"] else len(term) for term in terms)


def _support_points(text):
    # "  +0.2273 k([a=0.126, b=0.189], x)": one term a support point (all listed: max_terms).
    return len(_lines(text, r"  [-+]\S+ k\("))


def _stumps(text):
    # "a <= 0.37 AND b > 1.2" (conjunction) or "... OR ..." (disjunction); "always p": none.
    if text.startswith("always "):
        return 0
    return len(re.split(r" AND | OR ", text))


def _ripper_conditions(text):
    # "if b = 0.8 - 1.15 AND a = >1.46: predict p"; the last line is "otherwise: predict q".
    conditions = [re.match(r"if (.*): predict ", line).group(1) for line in _lines(text, r"if ")]
    return sum(_condition_count(condition, " AND ") for condition in conditions)


def _prism_tests(text):
    # "If a = [0.5, inf) and b = x then p"; a rule without tests prints its label alone.
    conditions = [re.match(r"If (.*) then ", line).group(1) for line in _lines(text, r"If ")]
    return sum(_condition_count(condition, " and ") for condition in conditions)


def _one_rule_lines(text):
    # "a = [0.5, inf) -> p": one test a line.
    return len(_lines(text, r".* = .* -> "))


def _tree_conditions(text):
    # "if a <= 0.36 AND b > 0.31: predict q (11 of 14 training examples)": the path's tests.
    conditions = [re.match(r"if (.*): predict ", line).group(1) for line in _lines(text, r"if ")]
    return sum(_condition_count(condition, " AND ") for condition in conditions)


#: How each learner's text shows its literals (the format is the learner's, no tag carries it).
COUNTERS = {
    "BallSetCoveringMachine": _ball_lines,
    "DecisionListMachine": _ball_lines,
    "DecisionCommittee": _committee_literals,
    "KernelPerceptron": _support_points,
    "MaximalMarginPerceptron": _support_points,
    "MaskPerceptron": _polynomial_literals,
    "OccamStumps": _stumps,
    "PacBayesStumps": _stumps,
    "SetCoveringStumps": _stumps,
    "OneR": _one_rule_lines,
    "OrderedRipper": _ripper_conditions,
    "Prism": _prism_tests,
    "PrunedDecisionTree": _tree_conditions,
}
#: Rendering options that make the text show every element (the default lists a few terms).
SHOW_ALL = {"KernelPerceptron": {"max_terms": 10**6}, "MaximalMarginPerceptron": {"max_terms": 10**6}}


def _tables(cls, seed):
    """``(X, y)`` tables the learner takes, as its tags say: numeric, 3 classes, a string column."""
    tags = cls().__sklearn_tags__()
    rng = np.random.default_rng(seed)
    n = 90
    numeric = pd.DataFrame({
        "a": rng.normal(size=n).round(3), "b": rng.normal(size=n).round(3), "c": rng.integers(0, 4, n).astype(float),
    })
    noise = rng.random(n)
    yield numeric, np.where(numeric["a"] + numeric["b"] * noise > 0.2, "p", "q")
    codes = pd.DataFrame(rng.integers(0, 3, size=(n, 4)).astype(float), columns=["u", "v", "w", "z"])
    three = np.where(noise < 0.7, codes["u"].map({0.0: "r", 1.0: "s", 2.0: "t"}), rng.choice(["r", "s", "t"], n))
    if tags.classifier_tags.multi_class:
        yield codes, three
    else:
        yield codes, np.where(three == "r", "r", "other")
    if tags.input_tags.string:
        mixed = numeric.assign(city=rng.choice(["Paris", "Nice", "Lyon"], n))
        yield mixed, np.where((mixed["city"] == "Nice") ^ (noise < 0.15) | (mixed["a"] > 1.0), "ill", "well")


def _learner(name):
    estimator = LEARNERS[name]()
    params = estimator.get_params()
    if "discretizer" in params:  # binned into three quantile bins (MDL may keep one on noise)
        estimator.set_params(discretizer=KBinsDiscretizer(n_bins=3, encode="ordinal", strategy="quantile"))
    if "s" in params:
        estimator.set_params(s=3)
    if name == "DecisionCommittee":
        estimator.set_params(pruning="none")  # keep the monomials (more literals to count)
    return estimator


def test_every_interpretable_learner_has_a_counter():
    assert set(COUNTERS) == set(LEARNERS), set(COUNTERS) ^ set(LEARNERS)


@pytest.mark.parametrize("name", sorted(LEARNERS))
@pytest.mark.parametrize("seed", [0, 1])
def test_complexity_is_what_to_text_shows(name, seed):
    counted = []
    for X, y in _tables(LEARNERS[name], seed):
        model = _learner(name).fit(X, y)
        text = model.to_text(**SHOW_ALL.get(name, {}))
        assert COUNTERS[name](text) == model.complexity_, (X.columns.tolist(), model.complexity_, text)
        counted.append(model.complexity_)
    assert max(counted) > 0, "every table gave an empty model: nothing was counted"
