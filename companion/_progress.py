"""Progress lines of long loops: ``label: done/total (elapsed)``, only when ``COMPANION_PROGRESS`` asks.

:func:`companion.evaluation.parallel_map` writes them for its loops (folds, draws) and the learners
for a loop inside one fit (:func:`progress_lines`); the notebook runner points the variable at a
file it shows live and keeps out of the executed notebook. A progress line never changes what a
loop computes.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import sys
import time
from functools import partial

import numpy as np

#: The environment variable naming the file that ``companion.evaluation.parallel_map`` appends its
#: progress lines to (the runner sets it for each notebook's kernel).
PROGRESS_ENV = "COMPANION_PROGRESS"


#: Seconds between two progress lines of one loop, unless ``COMPANION_PROGRESS_INTERVAL`` says otherwise.
_DEFAULT_PROGRESS_INTERVAL = 5.0


def _progress_interval() -> float:
    """``COMPANION_PROGRESS_INTERVAL`` as a number of seconds >= 0, else the default."""
    value = os.environ.get("COMPANION_PROGRESS_INTERVAL", "").strip()
    if not value:
        return _DEFAULT_PROGRESS_INTERVAL
    try:
        seconds = float(value)
    except ValueError:
        seconds = float("nan")
    if not seconds >= 0:  # also refuses nan
        raise ValueError(f"COMPANION_PROGRESS_INTERVAL must be a number of seconds >= 0, got {value!r}")
    return seconds


def progress_label(function) -> str:
    """A readable name for the loop over ``function``: its (unwrapped) qualified name.

    >>> def _one_fold(item): ...
    >>> progress_label(partial(_one_fold, 3))
    'one_fold'
    >>> progress_label(lambda item: item)
    'items'
    """
    while isinstance(function, partial):
        function = function.func
    name = getattr(function, "__qualname__", None) or type(function).__name__
    name = name.replace(".<locals>", "")
    return "items" if name.endswith("<lambda>") else name.lstrip("_")


class Progress:
    """``label: done/total (elapsed)`` lines, at most one per interval, to stderr or a file.

    Written for a person watching a long run; never raises (a progress line that cannot be
    written is dropped), so it cannot change what a protocol computes.
    """

    def __init__(self, target: str, label: str, total: int, interval: float | None = None):
        self.target, self.label, self.total = target, label, total
        self.interval = _progress_interval() if interval is None else interval
        self.start = self.last = time.monotonic()
        self.shown = False

    def update(self, done: int) -> None:
        now = time.monotonic()
        finished = done == self.total
        # Short loops print nothing; a loop that printed ends with its final count.
        if now - self.last >= self.interval or (finished and self.shown):
            self.last, self.shown = now, True
            self._write(f"{self.label}: {done}/{self.total} ({now - self.start:.0f} s)\n")

    def _write(self, line: str) -> None:
        try:
            if self.target in ("1", "stderr"):
                sys.stderr.write(line)
                sys.stderr.flush()
            else:
                with open(self.target, "a", encoding="utf-8") as handle:  # one short append
                    handle.write(line)
        except (OSError, ValueError):
            pass


#: True for the duration of a fit announced as long (:func:`long_fit`): its progress lines go to
#: standard error even when ``COMPANION_PROGRESS`` is unset (in this thread or task only).
_LONG_FIT = contextvars.ContextVar("companion_long_fit", default=False)

#: A fit whose estimate exceeds this many seconds is announced (:func:`long_fit`).
LONG_FIT_SECONDS = 60.0


def progress_target() -> str | None:
    target = os.environ.get(PROGRESS_ENV, "").strip()
    if target == "" and _LONG_FIT.get():
        return "stderr"  # a long fit shows its progress unless COMPANION_PROGRESS=0 says no
    return None if target in ("", "0") else target


def _duration(seconds: float) -> str:
    """``about 3 minutes``, ``about 2.5 hours``: an estimate's order of magnitude in words."""
    if seconds < 90:
        return f"about {seconds:.0f} seconds"
    if seconds < 90 * 60:
        return f"about {seconds / 60:.0f} minutes"
    return f"about {seconds / 3600:.1f} hours"


@contextlib.contextmanager
def long_fit(estimator, seconds: float, size: str, remedy: str):
    """Announce a fit estimated to take over a minute, and show its progress while it runs.

    Before the fit, one line ``<Learner>: this fit of <size> may take <estimate> (a rough
    estimate). To shorten it: <remedy>.``, written where progress lines go (the file
    ``COMPANION_PROGRESS`` names, as the notebooks' loops, else standard error); during it, the
    fit's progress lines (:func:`progress_lines`) are written there even when the variable is
    unset. ``COMPANION_PROGRESS=0`` silences both. Nothing is written for a shorter estimate or
    inside a fit already announced (the fallback check's inner fits). Never changes the fit.

    Parameters
    ----------
    estimator : the learner (its class name starts the line)
    seconds : float
        The fit's estimated duration.
    size : str
        What is fitted (``"200000 rows x 50 columns"``).
    remedy : str
        How to shorten it (subsample, a parameter, ``n_jobs``...).

    Yields
    ------
    None
    """
    if seconds <= LONG_FIT_SECONDS or _LONG_FIT.get():
        yield
        return
    token = _LONG_FIT.set(True)
    try:
        target = progress_target()
        if target is not None:
            Progress(target, "", 0)._write(
                f"{type(estimator).__name__}: this fit of {size} may take {_duration(seconds)} (a rough "
                f"estimate). To shorten it: {remedy}.\n"
            )
        yield
    finally:
        _LONG_FIT.reset(token)


def fit_size(X) -> str:
    """``"200000 rows x 50 columns"``: what a fit announced by :func:`long_fit` is fitted on."""
    try:
        m, n = np.shape(X)
    except (TypeError, ValueError):
        return "these rows"
    return f"{m} rows x {n} columns"


@contextlib.contextmanager
def announced_fit(estimator, seconds: float, X, remedy: str):
    """A learner's ``fit``: announced with its remedy and its progress shown when its estimate
    exceeds a minute (:func:`long_fit`), and left as it was before the call when interrupted
    (``KeyboardInterrupt``: an unfitted learner stays unfitted, a fitted one keeps its model
    whole; nothing half-fitted). The ball machines and the kernel perceptrons fit inside it.

    Parameters
    ----------
    estimator : the learner being fitted
    seconds : float
        The fit's estimated duration.
    X : array-like
        The training input (its shape names the fit).
    remedy : str
        How to shorten the fit.

    Yields
    ------
    None
    """
    state = dict(estimator.__dict__)  # what an interrupted fit puts back
    try:
        with long_fit(estimator, seconds, fit_size(X), remedy):
            yield
    except KeyboardInterrupt:
        estimator.__dict__.clear()
        estimator.__dict__.update(state)
        raise


def progress_lines(label: str, total: int):
    """The progress of one long loop, or None when ``COMPANION_PROGRESS`` is unset (module doc).

    What :func:`companion.evaluation.parallel_map` writes, for a loop inside one fit (a ball machine's greedy steps, a
    kernel perceptron's updates): ``label: done/total (elapsed)`` at most every few seconds, to
    standard error or the file the variable names. A learner calls ``update(done)`` on the
    returned object when it is not None; it never changes what the loop computes.

    Parameters
    ----------
    label : str
        Start of each line (the learner's name and what it counts).
    total : int
        The count at which the loop would end at the latest.

    Returns
    -------
    object with ``update(done)``, or None

    Examples
    --------
    >>> import os
    >>> os.environ.pop("COMPANION_PROGRESS", None) and None
    >>> progress_lines("KernelPerceptron updates", 100) is None
    True
    """
    target = progress_target()
    return None if target is None else Progress(target, label, int(total))
