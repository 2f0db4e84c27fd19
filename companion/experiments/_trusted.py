"""The protocols' context for fits on data they have already checked (scikit-learn's per-call checks off)."""

from __future__ import annotations

import sklearn


def trusted_inputs():
    """Context in which scikit-learn skips its per-call checks: for protocol loops on validated data.

    Inside it, ``fit``/``predict`` skip the declarative parameter validation and the finiteness
    scan of their inputs (``sklearn.config_context(skip_parameter_validation=True,
    assume_finite=True)``); every other check (shapes, dtypes, labels) still runs, and the models
    are the same. A protocol enters it inside each item of :func:`companion.evaluation.parallel_map` (a worker process
    does not inherit the parent's configuration) once its data come from a verified loader and its
    parameters are the protocol's fixed grid: across the hundreds of small fits of a fold those
    checks, repeated on the same arrays, cost about a fifth of the time. Never around a user's
    call.

    Returns
    -------
    contextlib.AbstractContextManager
        The configuration context; scikit-learn's previous configuration is restored on exit.
    """
    return sklearn.config_context(skip_parameter_validation=True, assume_finite=True)
