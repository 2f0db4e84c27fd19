"""Progress when asked: a long fit reports ``label: done/total (elapsed)`` lines only when
``COMPANION_PROGRESS`` is set (the package's one switch, companion.evaluation), never otherwise,
and the lines change nothing the fit learns."""

import numpy as np
import pytest

from companion import BallSetCoveringMachine, DecisionListMachine, KernelPerceptron, MaximalMarginPerceptron
from companion._progress import PROGRESS_ENV


def _problem(m=150, seed=0):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(m, 3)), 1)
    y = (X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=m) > 0).astype(int)
    return X, y


CASES = [
    (lambda: DecisionListMachine(s=4), "DecisionListMachine balls"),
    (lambda: BallSetCoveringMachine(s=4), "BallSetCoveringMachine balls"),
    (lambda: KernelPerceptron(kernel="rbf", lam=0.5, fallback=None), "KernelPerceptron updates"),
    (lambda: MaximalMarginPerceptron(kernel="rbf", lam=1.0, fallback=None), "MaximalMarginPerceptron iterations"),
]


@pytest.mark.parametrize("make,label", CASES, ids=[label.split()[0] for _, label in CASES])
def test_progress_lines_only_when_asked_and_the_same_model(make, label, monkeypatch, capsys):
    X, y = _problem()
    monkeypatch.delenv(PROGRESS_ENV, raising=False)
    quiet = make().fit(X, y)
    assert capsys.readouterr().err == ""  # not asked: not a line
    monkeypatch.setenv(PROGRESS_ENV, "stderr")
    monkeypatch.setenv("COMPANION_PROGRESS_INTERVAL", "0")  # every look at the clock writes
    loud = make().fit(X, y)
    lines = capsys.readouterr().err.splitlines()
    assert lines and all(line.startswith(label + ": ") and line.endswith(" s)") for line in lines), lines
    np.testing.assert_array_equal(loud.predict(X), quiet.predict(X))
    np.testing.assert_array_equal(loud.decision_function(X), quiet.decision_function(X))


def test_progress_lines_go_to_the_named_file(monkeypatch, tmp_path, capsys):
    target = tmp_path / "progress.log"
    monkeypatch.setenv(PROGRESS_ENV, str(target))
    monkeypatch.setenv("COMPANION_PROGRESS_INTERVAL", "0")
    DecisionListMachine(s=3).fit(*_problem())
    assert capsys.readouterr().err == ""
    assert target.read_text().startswith("DecisionListMachine balls: 1/3 (")


def test_progress_lines_at_most_every_interval_by_default(monkeypatch, capsys):
    """With the default interval (5 s) a fit of a fraction of a second writes nothing."""
    monkeypatch.setenv(PROGRESS_ENV, "stderr")
    DecisionListMachine(s=3).fit(*_problem())
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("value", ["soon", "-1", "nan"])
def test_a_bad_progress_interval_names_the_variable(value, monkeypatch):
    monkeypatch.setenv(PROGRESS_ENV, "stderr")
    monkeypatch.setenv("COMPANION_PROGRESS_INTERVAL", value)
    with pytest.raises(ValueError, match=f"COMPANION_PROGRESS_INTERVAL must be a number of seconds >= 0, got '{value}'"):
        DecisionListMachine(s=3).fit(*_problem())


def test_the_progress_interval_spaces_the_lines(monkeypatch, capsys):
    """A long interval: a short fit writes no line at all (the variable is read at each loop)."""
    monkeypatch.setenv(PROGRESS_ENV, "stderr")
    monkeypatch.setenv("COMPANION_PROGRESS_INTERVAL", "3600")
    DecisionListMachine(s=3).fit(*_problem())
    assert capsys.readouterr().err == ""


# Issue 58: a fit estimated over a minute says so first and shows its progress; an interrupted
# fit leaves the machine as it was.
@pytest.mark.parametrize("cls", [DecisionListMachine, BallSetCoveringMachine])
def test_a_long_fit_is_announced_with_its_remedy_and_shows_progress(cls, monkeypatch, capsys):
    import companion.decision_list as decision_list

    X, y = _problem()
    monkeypatch.delenv(PROGRESS_ENV, raising=False)
    quiet = cls(s=4).fit(X, y)
    assert capsys.readouterr().err == ""  # a fit of a fraction of a second: not a line
    # the estimate of a 200,000 x 50 fit, for this small one (the estimate decides only the line)
    monkeypatch.setattr(decision_list, "_estimated_fit_seconds", lambda machine, X: 9000.0)
    monkeypatch.setenv("COMPANION_PROGRESS_INTERVAL", "0")
    loud = cls(s=4).fit(X, y)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith(f"{cls.__name__}: this fit of 150 rows x 3 columns may take about 2.5 hours")
    assert "To shorten it: fit on a subsample" in lines[0] and "n_jobs" in lines[0] and "max_memory_gb" in lines[0]
    assert sum(line.startswith(f"{cls.__name__}: this fit") for line in lines) == 1  # not the inner fits
    assert any(line.startswith(f"{cls.__name__} balls: ") for line in lines[1:]), lines
    np.testing.assert_array_equal(loud.decision_function(X), quiet.decision_function(X))
    monkeypatch.setenv(PROGRESS_ENV, "0")  # says no to both
    cls(s=4).fit(X, y)
    assert capsys.readouterr().err == ""


def test_an_interrupted_fit_leaves_the_machine_as_it_was():
    X, y = _problem()
    machine = DecisionListMachine(s=3)

    def interrupted(sd, y01, weights):
        raise KeyboardInterrupt

    machine._learn = interrupted  # the greedy search is where a long fit spends its time
    with pytest.raises(KeyboardInterrupt):
        machine.fit(X, y)
    assert set(vars(machine)) == set(vars(DecisionListMachine(s=3))) | {"_learn"}  # still unfitted
    del machine._learn
    fitted = machine.fit(X, y)
    before = fitted.decision_function(X)
    machine._learn = interrupted
    with pytest.raises(KeyboardInterrupt):
        machine.fit(X[:, ::-1] * 7.0, 1 - y)  # another table, interrupted
    del machine._learn
    np.testing.assert_array_equal(machine.decision_function(X), before)  # the first model, whole


# Issue 58, Deliver 4 for the kernel perceptrons: the same announcement, progress and interruption.
@pytest.mark.parametrize("name", ["KernelPerceptron", "MaximalMarginPerceptron"])
def test_a_long_perceptron_fit_is_announced_with_its_remedy_and_shows_progress(name, monkeypatch, capsys):
    import companion.perceptrons as perceptrons

    cls = getattr(perceptrons, name)
    X, y = _problem()
    monkeypatch.delenv(PROGRESS_ENV, raising=False)
    quiet = cls().fit(X, y)
    assert capsys.readouterr().err == ""  # a fit of a fraction of a second: not a line
    monkeypatch.setattr(perceptrons, "_estimated_fit_seconds", lambda perceptron, X: 2100.0)
    monkeypatch.setenv("COMPANION_PROGRESS_INTERVAL", "0")
    loud = cls().fit(X, y)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith(f"{name}: this fit of 150 rows x 3 columns may take about 35 minutes")
    assert "To shorten it: fit on a subsample" in lines[0] and "fallback=None" in lines[0] and "n_jobs" in lines[0]
    assert sum(line.startswith(f"{name}: this fit") for line in lines) == 1  # not the inner fits
    counted = "updates" if name == "KernelPerceptron" else "iterations"
    assert any(line.startswith(f"{name} {counted}: ") for line in lines[1:]), lines
    np.testing.assert_array_equal(loud.decision_function(X), quiet.decision_function(X))
    monkeypatch.setenv(PROGRESS_ENV, "0")  # says no to both
    cls().fit(X, y)
    assert capsys.readouterr().err == ""


def test_the_perceptrons_estimate_announces_the_big_fits_only():
    from companion.perceptrons import KernelPerceptron, MaximalMarginPerceptron, _estimated_fit_seconds

    for cls in (KernelPerceptron, MaximalMarginPerceptron):
        assert _estimated_fit_seconds(cls(), np.broadcast_to(0.0, (200_000, 50))) > 1800  # the fits
        assert _estimated_fit_seconds(cls(), np.broadcast_to(0.0, (5_000, 50))) < 60
    # 50,000 LED rows (7 bits and their complements, 128 distinct inputs): seconds, not announced
    led = np.tile(np.array([[(k >> b) & 1 for b in range(7)] for k in range(128)], dtype=float), (391, 1))[:50_000]
    assert _estimated_fit_seconds(KernelPerceptron(kernel="boolean"), np.c_[led, 1 - led]) < 60


@pytest.mark.parametrize("name", ["KernelPerceptron", "MaximalMarginPerceptron"])
def test_an_interrupted_perceptron_fit_leaves_it_as_it_was(name, monkeypatch):
    import companion.perceptrons as perceptrons

    cls = getattr(perceptrons, name)
    X, y = _problem()
    perceptron = cls()
    fitted = perceptron.fit(X, y)
    before = fitted.decision_function(X)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    # the iterations are where a long fit spends its time
    monkeypatch.setattr(perceptrons, "_perceptron_updates", interrupted)
    monkeypatch.setattr(perceptrons, "_mmp_iterations", interrupted)
    with pytest.raises(KeyboardInterrupt):
        perceptron.fit(X[:, ::-1] * 7.0, 1 - y)  # another table, interrupted
    np.testing.assert_array_equal(perceptron.decision_function(X), before)  # the first model, whole
    fresh = cls()
    with pytest.raises(KeyboardInterrupt):
        fresh.fit(X, y)
    assert set(vars(fresh)) == set(vars(cls()))  # still unfitted
