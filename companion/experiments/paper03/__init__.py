"""Table 1 of paper 03 (Kowalczyk, Smola & Williamson, NIPS 2001): noisy LED digits 0–4 vs 5–9.

Protocol (paper §5): independent draws of 500 training and 5000 test examples; the
7 segment bits are complemented to 14 (Standing Assumption); Boolean kernel (Eq. 5) with
``c_i = 1`` and ``λ = 4`` (not stated in the paper; inferred: with ``c ≡ 1`` it makes the
risk (8) ``#leaves + #errors``, the CART pruning criterion of §3), for several maximal degrees
``d``. On each draw:

* decision trees — CART grown to depth ``d`` and pruned to minimise #leaves + #errors
  (:class:`companion.baselines.PrunedDecisionTree`), and the exact best tree of depth ≤ d
  (:func:`companion.led.optimal_boolean_tree`), a stand-in for the paper's C4.5;
* kernel SVM — the λ-MMP (:class:`~companion.perceptrons.MaximalMarginPerceptron`), giving bound (11);
* kernel perceptron — the λ-perceptron (:class:`~companion.perceptrons.KernelPerceptron`), bound (9);
* mask perceptron — :class:`~companion.perceptrons.MaskPerceptron`;
* the Bayes-optimal rule's training and test error.

Results are kept in a long table, one row per (draw, degree, method), with columns ``risk``,
``size`` (leaves / support vectors / terms), ``train_error`` and ``test_error`` (in %).
:func:`run` (with a :class:`Config`) returns it in the tidy shape of
:mod:`companion.experiments.protocol` (the degree is part of the ``method`` key, the draw is the
``seed``); :func:`table1_section` sets it beside the paper's Table 1.

The notebook's other sections, one call each returning a :class:`sklearn.utils.Bunch` of its
tables, figures and sentences (``_sections``; the builders they compose live in the private
modules ``_protocol``, ``_tables``, ``_studies``, ``_figures``, ``_claims`` and ``_prose``): the
kernel identities (:func:`kernel_identity_checks`), the Bayes error of a sample
(:func:`bayes_section`), draws rejection-sampled to the paper's Bayes training error
(:func:`conditioned_section`), the row-order spread of the order-sensitive learners
(:func:`row_order_section`), a λ sweep with the chain of bounds (9) ≤ (11) ≤ min R ≤ R(λ-MMP) ≤
(12) and the hinge risk R₁ (:func:`lambda_section`), un-pruned trees (:func:`unpruned_section`),
Theorem 6's enumeration size (:func:`theorem6_table`), the trees spanning ``P_{d,n}``
(:func:`trees_span_check`), two learnt models (:func:`learnt_models`) and the claims
(:func:`claims_section`).
"""

from companion.experiments.paper03._protocol import Config, run
from companion.experiments.paper03._tables import kernel_identity_checks
from companion.experiments.paper03._studies import learnt_models, theorem6_table, trees_span_check
from companion.experiments.paper03._sections import (
    bayes_section, claims_section, conditioned_section, lambda_section, math_section, row_order_section, table1_section,
    unpruned_section,
)

__all__ = [
    "Config",
    "bayes_section",
    "claims_section",
    "conditioned_section",
    "kernel_identity_checks",
    "lambda_section",
    "learnt_models",
    "math_section",
    "row_order_section",
    "run",
    "table1_section",
    "theorem6_table",
    "trees_span_check",
    "unpruned_section",
]
