"""The claims engine: from measurements to computed verdicts, with their sensitivity.

A notebook states each claim of its paper once, as a :class:`Claim`: the statement, the quantity
that decides it and its criterion (a direction and a margin, e.g. "error(WIDC(p)) − error(J48) ≤
+2 points"), dated by ``git log`` (``fixed``, ``results_known``: :mod:`companion.claims._history`).
Each row has a category by the referee's standard: the paper's ``empirical`` results and
``mathematical`` statements (the only rows with a verdict word; a mathematical statement is an
``exact`` row whose check runs in the notebook), ``conformance`` and ``peer`` checks, ``sanity``
checks, the paper's ``aim`` and our ``observation`` (never judged). :meth:`ClaimsReport.summary` counts them
by kind, never pooled. :func:`evaluate` measures every claim on the main
protocol and on each alternative protocol choice, and returns a :class:`ClaimsReport`: a tidy
table (estimate, interval, raw and Holm-corrected p, verdict, sensitivity), a long sensitivity
table, and Markdown verdict sentences generated from the table.

Kinds of claim
--------------
``difference``
    Paired differences ``d`` (over data sets, draws or folds) against a margin ``m``. Default test:
    the Wilcoxon signed-rank test on ``d − m`` (exact conditional distribution, Pratt's zeros),
    with the Hodges–Lehmann estimate (median of the Walsh averages) and its distribution-free
    interval (Hollander, Wolfe & Chicken, *Nonparametric Statistical Methods*, 3rd ed., §3.2-3.3).
    Options ``test="t"`` (paired Student t: mean and t interval) and ``test="sign"`` (sign test:
    median and its order-statistic interval).
``ratio``
    Paired positive quantities ``(a, b)`` and a claim on ``a / b`` ("at least 2x fewer literals"),
    tested as a ``difference`` on ``log(a / b)`` against ``log(m)``; estimate and interval are
    transformed back (×).
``proportion``
    A count ``k`` of ``n`` (data sets where a learner is best, ...) and a claim on the success
    probability ("a majority": ``> 0.5``): exact binomial test, Clopper–Pearson interval.
``guaranteed``
    A statement the setup makes true whatever the data (a learner capped at 5 genes "uses fewer
    genes" than one fixed at 16). It is shown with its reason, never tested, and is not in the
    Holm family: it is no claim.
``exact``
    A descriptive statement checked exactly (the rule list equals the paper's; a bound lies below
    every risk on every draw): ``holds`` or ``fails``, no p, not in the Holm family.

Verdicts
--------
Let ``θ`` be the location of the decisive quantity (pseudo-median, mean, median or success
probability). A claim ``θ ≤ m`` (or ``<``; the tests do not distinguish them) is *false* when
``θ > m``. Two one-sided tests are run: ``p_hold`` tests "claim false" (rejecting it supports the
claim) and ``p_fail`` tests "claim true". Each is Holm-corrected across the notebook's family (the
tested claims of one protocol variant) and

* ``holds`` when the corrected ``p_hold ≤ α`` **and** the interval lies strictly on the claim's
  side of the margin;
* ``fails`` when the corrected ``p_fail ≤ α`` and the interval lies strictly on the other side;
* ``undecided`` otherwise: an interval that contains the margin is undecided, never "similar",
  and absence of evidence is never ``holds``.

``α = 0.025`` one-sided (``companion.claims._statistics.ALPHA``) goes with the two-sided 95 % intervals (level ``1 − 2α``),
the convention of non-inferiority analyses (ICH E9, §3.3.2): an uncorrected test rejecting at
0.025 is an interval excluding the margin. ``within`` claims (``|θ| ≤ m``, equivalence) use the
two one-sided tests (TOST): ``p_hold`` is the larger of the two, ``p_fail`` twice the smaller
of the opposite pair.

Determinism
-----------
Ranks, zeros and ties are found exactly for integers and :class:`fractions.Fraction` inputs; for
floats, magnitudes within ``TIE_RTOL`` (relative to the largest) are tied and values within it of
the margin are zeros (:data:`companion.numerics.TIE_RTOL`). The Wilcoxon p is exact: its null
distribution is counted over doubled (integer) ranks; for up to 53 non-zero differences every
probability is an exact dyadic rational in float64, and tails are summed with :func:`math.fsum`
(correctly rounded, order-free), so the p is the same on every CPU. Binomial tails are exact
rational sums. A corrected p is compared with α by ``p ≤ α (1 + TIE_RTOL)``: a p mathematically
equal to α rejects, whatever its last bit.

Sensitivity
-----------
:func:`evaluate` takes ``{"main": data, "encoding=one-hot": other_data, ...}``; every claim is a
function of the data, so it is evaluated on each variant, with Holm within that variant's family.
The table says whether each verdict is ``robust`` (the same in every variant) and which variants
flip it.

Examples
--------
>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> d = rng.normal(0.5, 1.0, size=30)
>>> family = [
...     difference("c1", "A is at most 2 points worse than B", d, direction="<=", margin=2.0,
...                quantity="error(A) − error(B)", unit="points"),
...     guaranteed("c2", "A uses at most 5 genes", "A is capped at 5 genes"),
... ]
>>> report = evaluate(family, {"main": None})
>>> report.table.loc[0, "verdict"]
'holds'
"""

from companion.claims._claim import (
    Claim,
    difference,
    exact,
    guaranteed,
    proportion,
    ratio,
)
from companion.claims._registry import (
    family,
    load_registry,
)
from companion.claims._evaluate import (
    evaluate,
)
from companion.claims._report import (
    ClaimsReport,
)
from companion.claims._publish import (
    publish,
)

__all__ = [
    "Claim",
    "ClaimsReport",
    "difference",
    "ratio",
    "proportion",
    "guaranteed",
    "exact",
    "evaluate",
    "publish",
    "load_registry",
    "family",
]
