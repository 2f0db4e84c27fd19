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
  (``_peers.peer_results``, which checks the folds);
* PRISM and RIPPER read nominal data: numeric attributes are cut at the same MDL cut points WIDC
  uses (fitted on the training fold), one value per interval.

Sizes: WIDC counts rules and literals (paper, "Building Small Accurate DCs"); a tree is read as
its leaf rules (a leaf's monomial is the conjunction of the tests on its path, paper section
"Partition Boosting"), so rules = leaves and literals = the sum of leaf depths; PRISM and RIPPER
count their rules and conditions.

The notebook's sections, one call each returning a :class:`sklearn.utils.Bunch` of its tables,
figures and sentences (``_sections``; the builders they compose live in the private modules
``_protocol``, ``_peers``, ``_studies``, ``_tables``, ``_figures``, ``_claims`` and ``_prose``):
the benchmark's data sets (:data:`BENCHMARK_SETS`, :func:`load_benchmark_set`), the claims registry
(:func:`registry_table`), the cells of committees and trees
(:func:`partitions_section`, with the checks of the paper's mathematical statements and of
the algorithm steps it describes), the partition facts on Vote0 (:func:`z_equivalences`), the
optimistic pruning's strength (:func:`strength_section`) and its sensitivity
(:func:`sensitivity_section`, sharing its fits with the runs after it through a
:class:`FoldMemo`), WIDC on Vote0 (:func:`votes_section`), the data sets
(:func:`datasets_table`), the benchmark (:func:`benchmark_section`, with what the vendored xd6
is), its protocol variants (:func:`variants_section`) and the claims (:func:`claims_section`).
"""

from companion.experiments.paper04._protocol import BENCHMARK_SETS, Config, FoldMemo, load_benchmark_set, run
from companion.experiments.paper04._studies import z_equivalences
from companion.experiments.paper04._claims import registry_table
from companion.experiments.paper04._sections import (
    benchmark_section, claims_section, datasets_table, partitions_section, sensitivity_section, strength_section,
    variants_section, votes_section,
)

__all__ = [
    "BENCHMARK_SETS",
    "Config",
    "FoldMemo",
    "benchmark_section",
    "claims_section",
    "datasets_table",
    "load_benchmark_set",
    "partitions_section",
    "registry_table",
    "run",
    "sensitivity_section",
    "strength_section",
    "variants_section",
    "votes_section",
    "z_equivalences",
]
