"""The parameter constraints the papers' protocols and sections share (scikit-learn's ``validate_params``).

One home for what every ``companion.experiments.paperNN`` declares alike, so that a seed, a
worker count or a count of runs is refused with the same message in every notebook:

* :data:`SEED`: a seed of numpy's generators, scikit-learn's folds and the papers' draws, a
  non-negative int (a bool is refused). No upper bound here: ``numpy.random.default_rng`` takes
  any size, and a seed that a fold split or a tree (``random_state``) cannot take is refused
  where it is used.
* :data:`N_JOBS`: the workers of :func:`companion.evaluation.parallel_map`, an int or None as
  joblib takes them (``-1``: every core; ``None``: joblib's default).
* :data:`COUNT`: a number of runs, repeats, test examples or orders, an int >= 1.
"""

from __future__ import annotations

from numbers import Integral

from companion.evaluation import N_JOBS_CONSTRAINTS
from companion.numerics import StrictInterval

#: A seed: an int >= 0, not a bool.
SEED = [StrictInterval(Integral, 0, None, closed="left")]

#: Workers of a protocol's parallel loop: declared once, beside :func:`companion.evaluation.parallel_map`.
N_JOBS = N_JOBS_CONSTRAINTS

#: A positive count (runs, repeats, test examples, random orders): an int >= 1, not a bool.
COUNT = [StrictInterval(Integral, 1, None, closed="left")]
