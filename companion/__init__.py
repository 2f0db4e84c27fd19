"""companion: learners, kernels, bounds and data for five papers on sparse Boolean classifiers.

The learners are scikit-learn classifiers; each lives in the module named after its paper's
subject and is also reachable from the top level:

======================================  ============================  ======================
learner                                 module                        paper
======================================  ============================  ======================
``DecisionListMachine``                 ``companion.decision_list``   01 Sokolova et al. 2002
``BallSetCoveringMachine``              ``companion.decision_list``   01
``Prism``                               ``companion.prism``           02 Cendrowska 1987
``KernelPerceptron``                    ``companion.perceptrons``     03 Kowalczyk et al. 2001
``MaximalMarginPerceptron``             ``companion.perceptrons``     03
``DecisionCommittee``                   ``companion.widc``            04 Nock 2002
``StumpConjunction``                    ``companion.stumps``          05 Shah et al. 2012
======================================  ============================  ======================

Bounds are in :mod:`companion.bounds`, data loaders in :mod:`companion.datasets`, the papers'
published numbers in :mod:`companion.paper_numbers`.
"""

from importlib import import_module

__version__ = "0.1.0"

_LEARNERS = {
    "DecisionListMachine": "companion.decision_list",
    "BallSetCoveringMachine": "companion.decision_list",
    "Prism": "companion.prism",
    "KernelPerceptron": "companion.perceptrons",
    "MaximalMarginPerceptron": "companion.perceptrons",
    "DecisionCommittee": "companion.widc",
    "StumpConjunction": "companion.stumps",
}

__all__ = ["__version__", *_LEARNERS]


def __getattr__(name):
    # Lazy: `import companion` stays cheap; the learner's module loads on first use.
    if name in _LEARNERS:
        return getattr(import_module(_LEARNERS[name]), name)
    raise AttributeError(f"module 'companion' has no attribute {name!r}")


def __dir__():
    return sorted(__all__)
