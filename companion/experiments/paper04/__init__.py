"""Notebook 04 protocol: WIDC decision committees against trees and rule lists (Nock 2002).

The paper's Table 1 (31 domains, ten-fold stratified cross-validation; errors and sizes of
WIDC(o), WIDC(p), WIDC() beside C4.5 and CN2-POE) is lost (an image), so this module re-runs the
protocol on the UCI sets we vendor and tests the paper's *qualitative* statements:

* every data set is split by :func:`companion.evaluation.stratified_folds` (10 folds, seeded);
* on each training fold WIDC grows and vectorises **once** and is pruned three ways
  (:meth:`companion.widc.DecisionCommittee.with_pruning`), because growth does not depend on the
  pruning;
* the "Others" are a cost-complexity-pruned CART tree
  (:class:`companion.baselines.PrunedDecisionTree` with ``pruning="cost_complexity_cv"``:
  ``ccp_alpha`` by inner 5-fold CV on the training fold; nominal attributes one-hot), PRISM
  (:class:`companion.prism.Prism`) and RIPPER (:class:`companion.baselines.OrderedRipper`), run
  here; and the paper's own peers, C4.5 (Weka's J48), Weka's JRip and
  CN2 (Orange3's ordered and unordered learners), run on the same folds by
  ``peers/widc_peers.py`` in their own environments and read from ``data/widc_peers``
  (:func:`peer_results`, which checks the folds);
* PRISM and RIPPER read nominal data: numeric attributes are cut at the same MDL cut points WIDC
  uses (fitted on the training fold), one value per interval.

Sizes: WIDC counts rules and literals (paper, "Building Small Accurate DCs"); a tree is read as
its leaf rules (a leaf's monomial is the conjunction of the tests on its path, paper section
"Partition Boosting"), so rules = leaves and literals = the sum of leaf depths; PRISM and RIPPER
count their rules and conditions.
"""

from companion.experiments.paper04._protocol import (
    BENCHMARK_SETS, Config, FoldMemo, load_benchmark_set, numeric_attribute_sets, numeric_typing_sets, run,
)
from companion.experiments.paper04._peers import (
    MAJORITY, majority_results, peer_results, seed_runs, seed_variants,
)
from companion.experiments.paper04._studies import (
    choose_optimistic_strength, committee_cells, optimistic_sensitivity, z_equivalences,
)
from companion.experiments.paper04._tables import (
    cells_table, error_with_std, folds_table, paper_comparison, paper_context, pattern_cells, peer_tables,
    polarity_table, sensitivity_pivot, sensitivity_summary, summary_table,
)
from companion.experiments.paper04._figures import (
    plot_paired_scatter, plot_partitions, plot_sensitivity, plot_size_vs_error, plot_z_trace,
)
from companion.experiments.paper04._claims import claims_report, claims_variants, registry_table
from companion.experiments.paper04._prose import (
    cells_prose, committee_cells_prose, peers_prose, ranks_prose, seeds_prose, strength_prose,
)

__all__ = [
    "BENCHMARK_SETS",
    "Config",
    "FoldMemo",
    "MAJORITY",
    "cells_prose",
    "cells_table",
    "choose_optimistic_strength",
    "claims_report",
    "claims_variants",
    "committee_cells",
    "committee_cells_prose",
    "error_with_std",
    "folds_table",
    "load_benchmark_set",
    "majority_results",
    "numeric_attribute_sets",
    "numeric_typing_sets",
    "optimistic_sensitivity",
    "paper_comparison",
    "paper_context",
    "pattern_cells",
    "peer_results",
    "peer_tables",
    "peers_prose",
    "plot_paired_scatter",
    "plot_partitions",
    "plot_sensitivity",
    "plot_size_vs_error",
    "plot_z_trace",
    "polarity_table",
    "ranks_prose",
    "registry_table",
    "run",
    "seed_runs",
    "seed_variants",
    "seeds_prose",
    "sensitivity_pivot",
    "sensitivity_summary",
    "strength_prose",
    "summary_table",
    "z_equivalences",
]
