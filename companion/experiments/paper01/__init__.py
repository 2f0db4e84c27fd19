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
  did (:func:`fine_section`);
* the tie rule Figure 1 leaves open, on every comparable data set (:func:`tie_section`), through
  :class:`~companion.decision_list.DecisionListMachine` itself with another ordering of equally
  useful balls;
* the fine grids and the other tie rules under nested cross-validation, the honest check
  (:func:`nested_variants_section`);
* the realised list lengths at the paper's own parameters (:func:`lengths_section`);
* unstratified folds and Credit's ordinal coding under protocol (a) (:func:`folds_coding_section`);
* the SVM column with an absolute kernel-width grid on the unscaled data (:func:`svm_section`);
* Monte-Carlo coverage of the published and corrected bounds of Section 4 (:func:`coverage_section`)
  and the corrected bounds as the general sample-compression bound (:func:`math_section`'s
  ``compression_relation``);
* L1 and L-infinity balls (:func:`metric_table`);
* the claims of the paper's Section 5 as a claims family with its protocol variants
  (:func:`claims_section`).

Cost: one distance matrix per data set; per fold one argsort shared by every DLM/SCM grid point
(:class:`~companion.decision_list.SortedDistances`); one fit per (type, penalties) gives every
stopping point ``s`` (prefix property); the SVM uses precomputed kernels from the same distances.
The folds of the grid's cross-validation and the outer folds of the nested protocol are
independent items of :func:`companion.evaluation.parallel_map` (their ``n_jobs``; default 1,
serial); :func:`run` hands its ``n_jobs`` to both.

A memo of fold grids (a ``dict`` the notebook creates and owns) passed as ``memo=`` to
:func:`glass_section`, :func:`run` and :func:`claims_section` fits each outer fold of the coarse
grid once (the main seed's folds are run again by the honest check's second nested
cross-validation, Glass's main split by its binarisation evidence); every call without it fits
everything itself.

The protocol has the shape of :mod:`companion.experiments.protocol`: :class:`Config` (``Config()``
the notebook's full run, ``Config.fast()`` its smoke run), ``run(config, n_jobs=1)`` returning the
tidy frame (one row per data set x method x fold seed x fold), and :func:`table1_section` over
that frame. The notebook's other sections are one call each too, returning a
:class:`sklearn.utils.Bunch` of their tables, figures and sentences (``_sections``; the builders
they compose live in the private modules ``_grids``, ``_protocol``, ``_tables``, ``_figures``,
``_prose``, ``_followups``, ``_studies`` and ``_claims``): the toy DLMs (:func:`toy_section`), the
data sets (:func:`datasets_section`), Glass's binarisation (:func:`glass_section`) and a DLM
learnt on real data (:func:`real_dlm_section`).
"""

from companion.experiments.paper01._protocol import Config, run
from companion.experiments.paper01._studies import metric_table
from companion.experiments.paper01._sections import (
    claims_section, consistent_section, coverage_section, datasets_section, fine_section, folds_coding_section,
    glass_section, lengths_section, math_section, nested_variants_section, real_dlm_section, svm_section,
    table1_section, tie_section, toy_section,
)

__all__ = [
    "Config",
    "claims_section",
    "consistent_section",
    "coverage_section",
    "datasets_section",
    "fine_section",
    "folds_coding_section",
    "glass_section",
    "lengths_section",
    "math_section",
    "metric_table",
    "nested_variants_section",
    "real_dlm_section",
    "run",
    "svm_section",
    "table1_section",
    "tie_section",
    "toy_section",
]
