"""companion: learners, kernels, bounds and data for five papers on sparse Boolean classifiers.

The learners are scikit-learn classifiers; each paper's own learner lives in the module named
after its subject, the baselines the papers compare against in :mod:`companion.baselines`, the
transformers several papers share in :mod:`companion.preprocessing`, and all are reachable from
the top level (``from companion import Prism``):

======================================  ============================  ======================
learner                                 module                        paper
======================================  ============================  ======================
``DecisionListMachine``                 ``companion.decision_list``   01 Sokolova et al. 2002
``BallSetCoveringMachine``              ``companion.decision_list``   01
``Prism``                               ``companion.prism``           02 Cendrowska 1987
``KernelPerceptron``                    ``companion.perceptrons``     03 Kowalczyk et al. 2001
``MaximalMarginPerceptron``             ``companion.perceptrons``     03
``MaskPerceptron``                      ``companion.perceptrons``     03
``DecisionCommittee``                   ``companion.widc``            04 Nock 2002
``SetCoveringStumps``                   ``companion.stumps``          05 Shah et al. 2012 (SC)
``OccamStumps``                         ``companion.stumps``          05 (Occam)
``PacBayesStumps``                      ``companion.stumps``          05 (PAC-Bayes)
``OneR``                                ``companion.baselines``       02 (Holte 1993 baseline)
``OrderedRipper``                       ``companion.baselines``       02, 04 (Cohen 1995 baseline)
``PrunedDecisionTree``                  ``companion.baselines``       03, 04 (CART baseline)
``FrameEncoder``                        ``companion.preprocessing``   01, 02, 04 (transformer)
``MDLDiscretizer``                      ``companion.preprocessing``   02, 04 (transformer)
======================================  ============================  ======================

``import companion`` needs only the core dependencies (numpy, scipy, pandas, scikit-learn,
matplotlib); the notebook runner, the tests, Dask and the RIPPER baseline are extras
(``pip install ".[notebooks]"``, ``".[all]"``), imported only where they are used.

Every interpretable learner exports its fitted model as JSON-able data, ``model.to_dict()``, and
``companion.from_dict(data)`` rebuilds it (:mod:`companion.interpretable` documents the schema).

Bounds are in :mod:`companion.bounds`, data loaders in :mod:`companion.datasets`, the papers'
published numbers in :mod:`companion.paper_numbers`.
"""

from importlib import import_module

from companion._learners import LEARNERS
from companion._version import __version__


__all__ = ["__version__", "from_dict", *LEARNERS]


def __getattr__(name):
    # Lazy: `import companion` stays cheap; the learner's module loads on first use.
    if name in LEARNERS:
        return getattr(import_module(LEARNERS[name]), name)
    if name == "from_dict":
        return import_module("companion.interpretable").from_dict
    raise AttributeError(f"module 'companion' has no attribute {name!r}")


def __dir__():
    return sorted(__all__)
