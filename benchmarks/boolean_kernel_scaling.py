"""Benchmark: Boolean kernel Gram matrix and λ-MMP on the LED task (paper 03, issue 8).

For the LED digits task of Kowalczyk, Smola & Williamson (NIPS 2001) — 7 noisy segment bits plus
their complements (the Standing Assumption, paper §2), digits 0–4 against 5–9 — at
``m = 500, 2000, 5000`` training examples it times

* the Gram matrix of :func:`companion.kernels.boolean_kernel` (degree 2, ``c_i = 1``; Eq. (5): one
  integer matrix product and a table lookup) against the **explicit monomial feature map**
  (:func:`companion.kernels.monomial_features` over all monomials of degree ≤ 2, then ``Φ Φᵀ``),
  and checks that the two Gram matrices agree (``identical``: equal to 1e-12 relative, and the
  compact float32 Gram the perceptrons keep equal to the float64 one exactly);
* the fit of :class:`companion.perceptrons.MaximalMarginPerceptron` (``kernel="boolean"``,
  ``degree=2``, ``lam=4``: Gram matrix plus Algorithm 2), which has no reference implementation
  here; its row reports the number of iterations.

Run ``python -m benchmarks.run --only boolean_kernel_scaling [--quick]`` or call :func:`run` (``make bench`` does).
"""

from __future__ import annotations

import time

import numpy as np

from companion.kernels import add_complemented_bits, all_monomials, boolean_kernel, monomial_features
from companion.led import make_led_digits
from companion.perceptrons import MaximalMarginPerceptron

__all__ = ["run", "explicit_gram"]

SIZES = (500, 2000, 5000)
DEGREE = 2
LAM = 4.0


def explicit_gram(X, degree):
    """Reference: ``Φ(X) Φ(X)ᵀ`` with the explicit feature map over every monomial of degree ≤ ``degree``."""
    features = monomial_features(X, all_monomials(X.shape[1], degree))
    return features @ features.T


def _median_time(function, repeats):
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return float(np.median(times)), result


def run(quick: bool = False, sizes=SIZES, repeats: int = 3, seed: int = 0):
    """Time the Gram matrix (ours vs the explicit feature map) and the λ-MMP fit for each ``m``.

    Parameters
    ----------
    quick : bool, default=False
        ``m = 500`` only (smoke test).
    sizes : sequence of int
        Training-set sizes ``m``.
    repeats : int
        Timings per measurement (median; interleaved kernel / reference); the λ-MMP fit is timed
        once at ``m >= 2000``.
    seed : int

    Returns
    -------
    list of dict
        Rows in the format of ``benchmarks/run.py`` (``size`` = ``m``); λ-MMP rows add ``n_iter``.

    Raises
    ------
    AssertionError
        If the kernel's Gram matrix differs from the explicit feature map's.
    """
    if quick:
        sizes = tuple(s for s in sizes if s <= 500) or sizes[:1]
    rng = np.random.default_rng(seed)
    rows = []
    for m in sizes:
        X, y = make_led_digits(m, noise=0.1, random_state=rng)
        Xc = add_complemented_bits(X)
        ours, reference = [], []
        for _ in range(repeats):  # interleaved, so that a load change hits both alike
            t, gram = _median_time(lambda: boolean_kernel(Xc, degree=DEGREE), 1)
            ours.append(t)
            t, gram_ref = _median_time(lambda: explicit_gram(Xc, DEGREE), 1)
            reference.append(t)
        identical = bool(np.allclose(gram, gram_ref, rtol=1e-12, atol=0.0))
        # The perceptrons keep the compact (float32) Gram matrix: it must hold the same numbers.
        identical &= bool(np.array_equal(boolean_kernel(Xc, degree=DEGREE, compact=True), gram))
        del gram_ref
        ours_s, ref_s = float(np.median(ours)), float(np.median(reference))
        rows.append({
            "benchmark": "Boolean kernel Gram, LED (d=2)",
            "size": m,
            "ours_s": round(ours_s, 5),
            "reference": "explicit monomial feature map",
            "reference_s": round(ref_s, 5),
            "ratio": round(ours_s / ref_s, 4),
            "identical": identical,
            "target": "",  # issue 8 sets none; with 14 inputs and d = 2 the map has only 106 monomials
        })
        assert identical, f"Boolean kernel Gram differs from the explicit feature map's at m={m}"
        model = MaximalMarginPerceptron(kernel="boolean", degree=DEGREE, lam=LAM)
        fit_s, model = _median_time(lambda: model.fit(Xc, y), repeats if m < 2000 else 1)
        rows.append({
            "benchmark": "lambda-MMP fit, LED (boolean kernel d=2, lam=4)",
            "size": m,
            "ours_s": round(fit_s, 4),
            "reference": "-",
            "reference_s": None,
            "ratio": None,
            "identical": None,
            "target": "",
            "n_iter": model.n_iter_,
        })
    return rows
