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
to every machine of the grid; the paper reports no significant effect of the constraint. The
follow-up experiments of notebook 01 (fine grids, tie rules, list lengths, the SVM's kernel
width, coverage of the bounds, other metrics, the claims) are in
:mod:`companion.experiments.paper01_followups`.

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
    figure_dlm_balls, figure_errors_vs_s, figure_sparsity, sparsity_frame, toy_dlm,
)
from companion.experiments.paper01._prose import protocol_legend, readable_dlm

__all__ = [
    "COMPARABLE",
    "Config",
    "bound_check_table",
    "dataset_counts",
    "errors_table",
    "examples_table",
    "figure_dlm_balls",
    "figure_errors_vs_s",
    "figure_sparsity",
    "glass_binarisation_evidence",
    "load_table1_dataset",
    "parameters_table",
    "protocol_legend",
    "protocols_table",
    "readable_dlm",
    "run",
    "sparsity_frame",
    "toy_dlm",
]
