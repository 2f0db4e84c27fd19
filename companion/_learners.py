"""Where each public learner and transformer of the package is defined: ``{class name: module}``.

The one table read by ``companion/__init__.py`` (lazy attribute access) and by
:func:`companion.interpretable.from_dict` (the class a JSON export names). It imports nothing, so
both read it without an arrow back up to the package.
"""

LEARNERS = {
    "DecisionListMachine": "companion.decision_list",
    "BallSetCoveringMachine": "companion.decision_list",
    "Prism": "companion.prism",
    "KernelPerceptron": "companion.perceptrons",
    "MaximalMarginPerceptron": "companion.perceptrons",
    "MaskPerceptron": "companion.perceptrons",
    "DecisionCommittee": "companion.widc",
    "SetCoveringStumps": "companion.stumps",
    "OccamStumps": "companion.stumps",
    "PacBayesStumps": "companion.stumps",
    "OneR": "companion.baselines",
    "OrderedRipper": "companion.baselines",
    "PrunedDecisionTree": "companion.baselines",
    "FrameEncoder": "companion.preprocessing",
    "MDLDiscretizer": "companion.preprocessing",
}
