"""Notebook 02 (PRISM covering rules on contact lenses), one call per section.

* :class:`Config` and :func:`run`: the notebook's cross-validation as a tidy frame (one row per
  learner, fold split and fold, see :mod:`companion.experiments.protocol`).
* :func:`contact_lens_table`: the 24 instances as the slides print them.
* :func:`covering_section`: slide 5's covering of a two-dimensional instance space.
* :func:`walkthrough_section`: the slides' walk-through of the first two ``hard`` rules (slides
  8-14), regenerated from :class:`companion.prism.Prism`'s trace.
* :func:`conformance_section`: the slides' description of PRISM (slides 4, 6, 15, 16) run on
  our code.
* :func:`rule_comparison`: our rule list against the one Weka's ``weka.classifiers.rules.Prism``
  3.6.14 prints.
* :func:`coverage_section` and :func:`order_section`: Cendrowska's *modular* rules, each read on
  its own over the training set and in any order.
* :func:`cross_validation_section`: every learner on Weka's own folds (rebuilt from Weka's
  procedure) and on repeated seeded splits, beside Weka's runs on the same splits.
* :func:`attribute_space_section`: where modularity ends, on instances the rules were not grown on.
* :func:`replicated_subtree_section`: the replicated-subtree example of slides 2-3.
* :func:`supermarket_section`: PRISM on Weka's ``supermarket``.
* :func:`claims_section` and :func:`discussion`: the claims judged, and what they mean.

Each section returns a :class:`sklearn.utils.Bunch` of its tables, figures and sentences
(``_sections``); the builders it composes live in the private modules ``_protocol``,
``_tables``, ``_figures``, ``_claims`` and ``_prose``.
"""

from companion.experiments.paper02._protocol import Config, run
from companion.experiments.paper02._tables import contact_lens_table, rule_comparison
from companion.experiments.paper02._prose import discussion
from companion.experiments.paper02._sections import (
    attribute_space_section, claims_section, conformance_section, coverage_section, covering_section,
    cross_validation_section,
    order_section, replicated_subtree_section, supermarket_section, walkthrough_section,
)

__all__ = [
    "Config",
    "attribute_space_section",
    "claims_section",
    "conformance_section",
    "contact_lens_table",
    "coverage_section",
    "covering_section",
    "cross_validation_section",
    "discussion",
    "order_section",
    "replicated_subtree_section",
    "rule_comparison",
    "run",
    "supermarket_section",
    "walkthrough_section",
]
