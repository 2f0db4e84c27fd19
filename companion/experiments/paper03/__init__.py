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
``seed``); every builder takes that frame, and :func:`draws_table` gives the layout of ``03_draws.csv``.

Also: draws rejection-sampled to the paper's Bayes training error
(:func:`run_conditioned_protocol`), the row-order spread of the order-sensitive learners
(:func:`row_order_spread`), un-pruned trees (:func:`unpruned_trees`), a λ sweep with the chain of
bounds (9) ≤ (11) ≤ min R ≤ R(λ-MMP) ≤ (12) and the hinge risk R₁ (:func:`lambda_sweep`),
Theorem 6's enumeration size (:func:`theorem6_table`) and the trees spanning ``P_{d,n}``
(:func:`trees_span_check`).
"""

from companion.experiments.paper03._protocol import (
    Config, j48_results_if_run, method_key, paper_table1, run, run_conditioned_protocol,
)
from companion.experiments.paper03._tables import (
    bayes_sample_shift, conditioned_comparison, degree_evidence, draws_table, kernel_identity_checks,
    table1_comparison, tie_summary, tree_error_bounds, tree_stand_ins,
)
from companion.experiments.paper03._studies import (
    lambda_sweep, lambda_sweep_summary, learnt_models, row_order_spread, row_order_summary, theorem6_table,
    trees_span_check, unpruned_trees,
)
from companion.experiments.paper03._figures import (
    plot_lambda_sweep, plot_risks_against_bounds, plot_row_orders,
)
from companion.experiments.paper03._claims import claims_report, seed_variant, seed_variants
from companion.experiments.paper03._prose import (
    describe_bayes_shift, describe_degree_evidence, describe_lambda_sweep, describe_row_orders,
    describe_unpruned,
)

__all__ = [
    "Config",
    "bayes_sample_shift",
    "claims_report",
    "conditioned_comparison",
    "degree_evidence",
    "describe_bayes_shift",
    "describe_degree_evidence",
    "describe_lambda_sweep",
    "describe_row_orders",
    "describe_unpruned",
    "draws_table",
    "j48_results_if_run",
    "kernel_identity_checks",
    "lambda_sweep",
    "lambda_sweep_summary",
    "learnt_models",
    "method_key",
    "paper_table1",
    "plot_lambda_sweep",
    "plot_risks_against_bounds",
    "plot_row_orders",
    "row_order_spread",
    "row_order_summary",
    "run",
    "run_conditioned_protocol",
    "seed_variant",
    "seed_variants",
    "table1_comparison",
    "theorem6_table",
    "tie_summary",
    "tree_error_bounds",
    "tree_stand_ins",
    "trees_span_check",
    "unpruned_trees",
]
