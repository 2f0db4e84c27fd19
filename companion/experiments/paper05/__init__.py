"""Protocol of notebook 05: stump conjunctions (SC, Occam, PAC-Bayes) on microarrays vs. their competitors.

Shah, Marchand & Corbeil, TPAMI 2012 (Paper 05). The paper's experimental section (its protocol,
grids and tables) is lost, so this module runs a protocol built from what Section I sets out to
do ("an accurate classifier that depends on the smallest possible number of attributes", with
"realizable guarantees") and from Ambroise & McLachlan (2002) on selection bias:

* repeated stratified 10-fold CV (:attr:`Config.n_repeats` × :attr:`Config.n_splits`) on all
  seven data sets; on each training fold, and only there, the search is narrowed to the
  ``n_prefilter`` genes of largest |Welch t|; the bounds charge all ``n`` genes (they hold
  uniformly over every conjunction on the ``n`` genes, so a label-driven narrowing costs nothing);
* SC, Occam and PAC-Bayes choose ``p``, conjunction/disjunction (at ``ln 2``) and the number of
  stumps by their bound (Sections III–V); beside them each learner's best model with exactly
  ``k`` stumps (``k`` in :attr:`Config.matched_k`), chosen by the same bound; the ``stumps`` row
  of a fold is the learner whose training-fold bound is smallest (:func:`selected_stumps`);
* competitors: a linear SVM on all genes, SVM-RFE to 16 genes, L1-logistic regression, AdaBoost
  on decision stumps, and the two gene selectors Section I names, nearest shrunken centroids
  (Tibshirani et al. 2003) and BAHSIC (Song et al. 2007) (:mod:`companion.experiments._paper05_peers`); at matched
  sparsity the first ``k`` genes of the L1-logistic path, SVM-RFE, BAHSIC to ``k`` genes and
  AdaBoost with ``k`` stumps. The ``competitor`` row of a fold is the one with the fewest errors
  on inner folds of the training fold (:func:`_selected_competitors`), so no choice on either
  side reads a test fold;
* the priors' range ``[A_k, B_k]`` (Sections II–V, "obtained from the definition of the data") is
  :func:`declared_feature_range`, a constant per data set that no fold can move; the ranges taken
  from the whole data set (per gene, or one for all genes) are protocol variants
  (:func:`prior_feature_range`), run on the same folds; the fold seed is another
  (:func:`seed_configs`).

The claims are data, ``registry/paper05.toml`` (the paper's sentences, quoted, and the criteria,
each with when it took its present form); :func:`claims_section` decides them with
:mod:`companion.claims`, on the protocol, on :func:`bounds_checks_section`'s Monte-Carlo coverage
of the three bounds and its checks of the mathematical statements.

The notebook's sections, one call each returning a :class:`sklearn.utils.Bunch` of its tables,
figures and sentences (``_sections``; the builders they compose live in the private modules
``_protocol``, ``_tables``, ``_figures``, ``_claims`` and ``_prose``): the worked example
(:func:`worked_example`), the priors' ranges (:func:`feature_range_table`), the genes chosen on
the full Golub data (:func:`golub_genes`), the protocol's results (:func:`results_section`), the
margin and code-length trade-offs (:func:`margin_section`, :func:`occam_section`), the claims
(:func:`claims_section`) and the discussion (:func:`discussion`).

Everything is seeded. The outer folds are independent (each carries its own split and seeds), so
:func:`run` sends them through :func:`companion.evaluation.parallel_map` (``n_jobs``); the numbers
do not depend on ``n_jobs``. The variants rerun on the main run's folds share its fits through a
:class:`~companion.experiments.paper05._protocol.FoldMemo` that :func:`results_section` makes and
owns, so no fit is made twice.
"""

from companion.experiments.paper05._protocol import Config, run
from companion.experiments.paper05._tables import feature_range_table, golub_genes, worked_example
from companion.experiments.paper05._prose import discussion
from companion.experiments.paper05._sections import (
    bounds_checks_section, claims_section, margin_section, occam_section, results_section,
)

__all__ = [
    "bounds_checks_section",
    "Config",
    "claims_section",
    "discussion",
    "feature_range_table",
    "golub_genes",
    "margin_section",
    "occam_section",
    "results_section",
    "run",
    "worked_example",
]
