"""The constraints (scikit-learn's ``validate_params`` vocabulary) every paper's protocols share."""

from __future__ import annotations

from numbers import Integral

from companion.numerics import StrictInterval

#: A protocol's seed: an int >= 0 (``numpy.random.SeedSequence``, ``default_rng`` and
#: scikit-learn's ``random_state`` refuse a negative one; a bool is a mistake).
SEED = [StrictInterval(Integral, 0, None, closed="left")]
#: Workers of :func:`companion.evaluation.parallel_map`: what joblib takes (an int, -1 for every
#: core, or None).
N_JOBS = [Integral, None]
#: A count of draws, problems or genes: an int >= 1.
COUNT = [StrictInterval(Integral, 1, None, closed="left")]
