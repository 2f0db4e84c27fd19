"""A sixth paper's protocol, built the way every ``companion.experiments.paperNN`` package is.

A toy learner (one threshold on the first feature), a frozen ``Config`` with a ``fast()`` smoke
run, ``run(config, n_jobs)`` returning a tidy frame (``_protocol``), the registry's measures and
the claims report with the fold seeds as variants (``_claims``), one figure (``_figures``) and one
prose template (``_prose``); this front door lists what the notebook calls. Used by
``tests/test_sixth_paper.py`` only: it is the walk-through of CONTRIBUTING ("Adding a paper"),
executed.
"""

from toy_paper06._claims import claims_report
from toy_paper06._figures import figure_errors
from toy_paper06._protocol import Config, run
from toy_paper06._prose import size_sentence

__all__ = ["Config", "run", "claims_report", "figure_errors", "size_sentence"]
