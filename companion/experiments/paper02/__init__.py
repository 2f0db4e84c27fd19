"""Protocols and tables of notebook 02 (PRISM covering rules on contact lenses).

* :func:`first_rule_trace` and :func:`trace_comparison`: the slides' walk-through of the first
  ``hard`` rule (slides 8-14), regenerated from :class:`companion.prism.Prism`'s trace.
* :func:`rule_comparison`: our rule list against the one Weka's ``weka.classifiers.rules.Prism``
  3.6.14 prints (the slides give the first two rules only; ``paper_numbers/02_prism_rules.csv``).
* :func:`weka_cv_folds`: the folds of Weka's stratified cross-validation (``-x 10 -s 1``),
  rebuilt from Weka's own procedure (``java.util.Random``, ``Instances.randomize``,
  ``stratify``, ``testCV``), so that the comparison with Weka's numbers uses Weka's folds.
* :func:`cross_validate`: every learner on the *same* folds, counting unclassified instances.
* :class:`Config` and :func:`run`: the notebook's cross-validation as a tidy frame (one row per
  learner, fold split and fold, see :mod:`companion.experiments.protocol`), read by
  :func:`weka_folds_table` and :func:`repeated_table`.
* :func:`disjunction_data` and :func:`tree_leaf_rules`: the replicated-subtree example of
  slides 2-3, ``(a and b) or (c and d)``.
* :func:`rule_trace` and :func:`covered_subsets`: any rule's walk-through (the second ``hard``
  rule included) and the subsets of E that the rule covers after each test (slides 10-14).
* :func:`rule_coverage`, :func:`permuted_predictions` and :func:`order_invariance`: Cendrowska's
  *modular* rules, each one read on its own over the whole training set and in any order.
* :func:`attribute_space`, :func:`rule_conflicts`, :func:`conflict_counts`,
  :func:`cv_conflicts` and :func:`space_conflicts`: where modularity ends, on instances the
  rules were not grown on (none covers them, or rules of different classes do).
* :func:`covering_2d_example`: slide 5's covering of a two-dimensional instance space.
"""

from companion.experiments.paper02._protocol import (
    Config, run, seed_variants, supermarket_scale, supermarket_speed, weka_cv_folds, weka_peer_results_if_run,
)
from companion.experiments.paper02._tables import (
    attribute_space, contact_lens_table, covered_subsets, cv_conflicts, first_rule_trace,
    fold_list_comparison, order_invariance, peer_repeated_accuracy, prism_peer_comparison, repeated_table,
    rule_comparison, rule_coverage, rule_trace, space_conflicts, stand_in_table, trace_comparison,
    weka_comparison, weka_folds_table,
)
from companion.experiments.paper02._figures import covering_2d_example, replicated_subtree_demo
from companion.experiments.paper02._claims import claims_report, exact_checks, seed_variant
from companion.experiments.paper02._prose import (
    describe_claims, describe_conflicts_cv, describe_coverage, describe_covering_2d, describe_demo,
    describe_order, describe_second_rule, describe_space, describe_subsets, describe_supermarket,
    describe_trace, discussion,
)

__all__ = [
    "Config",
    "attribute_space",
    "claims_report",
    "contact_lens_table",
    "covered_subsets",
    "covering_2d_example",
    "cv_conflicts",
    "describe_claims",
    "describe_conflicts_cv",
    "describe_coverage",
    "describe_covering_2d",
    "describe_demo",
    "describe_order",
    "describe_second_rule",
    "describe_space",
    "describe_subsets",
    "describe_supermarket",
    "describe_trace",
    "discussion",
    "exact_checks",
    "first_rule_trace",
    "fold_list_comparison",
    "order_invariance",
    "peer_repeated_accuracy",
    "prism_peer_comparison",
    "repeated_table",
    "replicated_subtree_demo",
    "rule_comparison",
    "rule_coverage",
    "rule_trace",
    "run",
    "seed_variant",
    "seed_variants",
    "space_conflicts",
    "stand_in_table",
    "supermarket_scale",
    "supermarket_speed",
    "trace_comparison",
    "weka_comparison",
    "weka_cv_folds",
    "weka_folds_table",
    "weka_peer_results_if_run",
]
