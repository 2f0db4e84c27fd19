"""Notebook 01's follow-up experiments on Table 1 of *The Decision List Machine* (NIPS 2002).

:mod:`companion.experiments.paper01` runs the paper's protocol (Section 5, Table 1) and two
honest alternatives. This module asks why our numbers differ from the paper's, one column of
Table 1 at a time, and states the paper's claims for :mod:`companion.claims`:

* the DLM and SCM columns with fine parameter grids, selected on the test folds as the paper
  did (:func:`fine_grid_protocol`, :func:`fine_grid_table`, :func:`fine_seed_table`);
* the tie rule Figure 1 leaves open, on every comparable data set (:func:`tie_rule_table`,
  :func:`first_tie_rule_divergence`), through :class:`~companion.decision_list.DecisionListMachine`
  itself with another ordering of equally useful balls;
* the realised list lengths at the paper's own parameters (:func:`list_length_table`);
* the SVM column with an absolute kernel-width grid on the unscaled data (:func:`svm_gamma_protocol`,
  :func:`svm_gamma_table`);
* Monte-Carlo coverage of the published and corrected bounds of Section 4 (:func:`bound_coverage`)
  and the corrected bounds as the general sample-compression bound
  (:func:`compression_relation_table`);
* L1 and L∞ balls (:func:`metric_table`);
* the claims of the paper's Section 5 as a claims family with its protocol variants
  (:func:`claims_measures` for ``registry/paper01.toml``, :func:`claims_data`, :func:`claims_report`).

Every experiment fits with the same cost-sharing as :mod:`~companion.experiments.paper01`: per
fold one :class:`~companion.decision_list.SortedDistances` for every fit, one greedy search per
machine type for every penalty and stopping point (:mod:`companion._ball_grid`), folds as items of
:func:`companion.evaluation.parallel_map`.
"""

from companion.experiments.paper01._followups import (
    LENGTH_VARIANTS, fine_grid_protocol, fine_grid_table, fine_seed_table, first_tie_rule_divergence,
    list_length_table, svm_gamma_protocol, svm_gamma_table, tie_rule_protocol, tie_rule_table,
)
from companion.experiments.paper01._studies import (
    bound_coverage, compression_relation_table, coverage_bayes_risk, coverage_table, metric_table,
)
from companion.experiments.paper01._figures import figure_penalty_heatmap
from companion.experiments.paper01._claims import (
    claims_report, claims_variants, discussion_values, sensitivity_pivot,
)
from companion.experiments.paper01._prose import (
    dataset_notes_markdown, fine_grid_markdown, glass_choice_markdown, penalty_valley_markdown,
    reproduction_markdown,
)

__all__ = [
    "LENGTH_VARIANTS",
    "bound_coverage",
    "claims_report",
    "claims_variants",
    "compression_relation_table",
    "coverage_bayes_risk",
    "coverage_table",
    "dataset_notes_markdown",
    "discussion_values",
    "figure_penalty_heatmap",
    "fine_grid_markdown",
    "fine_grid_protocol",
    "fine_grid_table",
    "fine_seed_table",
    "first_tie_rule_divergence",
    "glass_choice_markdown",
    "list_length_table",
    "metric_table",
    "penalty_valley_markdown",
    "reproduction_markdown",
    "sensitivity_pivot",
    "svm_gamma_protocol",
    "svm_gamma_table",
    "tie_rule_protocol",
    "tie_rule_table",
]
