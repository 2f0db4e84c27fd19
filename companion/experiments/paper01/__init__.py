"""Table 1 of *The Decision List Machine* (Sokolova et al., NIPS 2002): protocol and table builders.

The paper (Section 5, Table 1) compares an RBF SVM, the SCM with balls and the DLM with balls (L2
metric, no scaling) on seven UCI data sets by the **total number of test errors over the ten
folds** of one 10-fold cross-validation, the same folds for every machine, each machine's
parameters being those "that gave the smallest 10-fold cross-validation error". This module
computes, for every fold, the test errors of every grid point, and derives from them

(a) the paper's protocol: the grid point with the smallest total test error (selection on the
    test folds, optimistic by construction), over several fold seeds;
(b) honest nested cross-validation: on each outer fold, the grid point chosen by an inner
    stratified CV on the outer training set;
(c) the bound-selected DLM: on each outer fold, the grid point (type, ``p_p``, ``p_n``, ``s``)
    whose Theorem 1/2 bound on the training set is smallest.

The DLM of (c) is fitted with the compression-set constraint (Section 4), so that the bounds apply
to every machine of the grid; the paper reports no significant effect of the constraint.

The follow-up experiments ask why our numbers differ from the paper's, one column of Table 1 at a
time, and state the paper's claims for :mod:`companion.claims`:

* the DLM and SCM columns with fine parameter grids, selected on the test folds as the paper
  did (:func:`fine_grid_protocol`, :func:`fine_grid_table`, :func:`fine_seed_table`);
* the tie rule Figure 1 leaves open, on every comparable data set (:func:`tie_rule_protocol`,
  :func:`tie_rule_table`, :func:`first_tie_rule_divergence`), through
  :class:`~companion.decision_list.DecisionListMachine` itself with another ordering of equally
  useful balls;
* the realised list lengths at the paper's own parameters (:func:`list_length_table`);
* the SVM column with an absolute kernel-width grid on the unscaled data (:func:`svm_gamma_protocol`,
  :func:`svm_gamma_table`);
* Monte-Carlo coverage of the published and corrected bounds of Section 4 (:func:`bound_coverage`)
  and the corrected bounds as the general sample-compression bound
  (:func:`compression_relation_table`);
* L1 and L-infinity balls (:func:`metric_table`);
* the claims of the paper's Section 5 as a claims family with its protocol variants
  (:func:`claims_variants`, :func:`claims_report`).

Cost: one distance matrix per data set; per fold one argsort shared by every DLM/SCM grid point
(:class:`~companion.decision_list.SortedDistances`); one fit per (type, penalties) gives every
stopping point ``s`` (prefix property); the SVM uses precomputed kernels from the same distances.
The folds of :func:`cross_validate_grid` and the outer folds of :func:`nested_protocol` are
independent items of :func:`companion.evaluation.parallel_map` (their ``n_jobs``; default 1,
serial); :func:`run` hands its ``n_jobs`` to both.

The protocol has the shape of :mod:`companion.experiments.protocol`: :class:`Config` (``Config()``
the notebook's full run, ``Config.fast()`` its smoke run), ``run(config, n_jobs=1)`` returning the
tidy frame (one row per data set x method x fold seed x fold), and builders over that frame
(:func:`errors_table`, :func:`parameters_table`, :func:`protocols_table`,
:func:`bound_check_table`, :func:`sparsity_frame`, :func:`figure_errors_vs_s`,
:func:`figure_sparsity`).
"""

from companion.experiments.paper01._grids import COMPARABLE, load_table1_dataset
from companion.experiments.paper01._protocol import Config, run
from companion.experiments.paper01._tables import (
    bound_check_table, dataset_counts, errors_table, examples_table, glass_binarisation_evidence,
    parameters_table, protocols_table,
)
from companion.experiments.paper01._figures import (
    figure_dlm_balls, figure_errors_vs_s, figure_penalty_heatmap, figure_sparsity, sparsity_frame, toy_dlm,
)
from companion.experiments.paper01._prose import (
    dataset_notes_markdown, fine_grid_markdown, glass_choice_markdown, penalty_valley_markdown,
    protocol_legend, readable_dlm, reproduction_markdown,
)
from companion.experiments.paper01._followups import (
    LENGTH_VARIANTS, fine_grid_protocol, fine_grid_table, fine_seed_table, first_tie_rule_divergence,
    list_length_table, svm_gamma_protocol, svm_gamma_table, tie_rule_protocol, tie_rule_table,
)
from companion.experiments.paper01._studies import (
    bound_coverage, compression_relation_table, coverage_bayes_risk, coverage_table, metric_table,
)
from companion.experiments.paper01._claims import (
    claims_report, claims_variants, discussion_values, sensitivity_pivot,
)

__all__ = [
    "COMPARABLE",
    "LENGTH_VARIANTS",
    "bound_check_table",
    "bound_coverage",
    "claims_report",
    "claims_variants",
    "compression_relation_table",
    "Config",
    "coverage_bayes_risk",
    "coverage_table",
    "dataset_counts",
    "dataset_notes_markdown",
    "discussion_values",
    "errors_table",
    "examples_table",
    "figure_dlm_balls",
    "figure_errors_vs_s",
    "figure_penalty_heatmap",
    "figure_sparsity",
    "fine_grid_markdown",
    "fine_grid_protocol",
    "fine_grid_table",
    "fine_seed_table",
    "first_tie_rule_divergence",
    "glass_binarisation_evidence",
    "glass_choice_markdown",
    "list_length_table",
    "load_table1_dataset",
    "metric_table",
    "parameters_table",
    "penalty_valley_markdown",
    "protocol_legend",
    "protocols_table",
    "readable_dlm",
    "reproduction_markdown",
    "run",
    "sensitivity_pivot",
    "sparsity_frame",
    "svm_gamma_protocol",
    "svm_gamma_table",
    "tie_rule_protocol",
    "tie_rule_table",
    "toy_dlm",
]
