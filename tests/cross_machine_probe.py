"""Run every notebook protocol's core computation at small sizes and write its results as text.

``python tests/cross_machine_probe.py OUTDIR`` writes one file per protocol, ``<name>.txt``: one
line per number, ``path<TAB>value`` with floats at 17 significant digits (every bit). The test
``tests/test_cross_machine.py`` runs this script under several BLAS kernels, thread counts and numpy
SIMD levels (``OPENBLAS_CORETYPE``, ``OPENBLAS_NUM_THREADS``, ``NPY_DISABLE_CPU_FEATURES``: what
differs between two users' machines) and asserts that every decision is identical and every real
value agrees to a few ulp. It is a script, not a test module, because the BLAS kernel is
chosen when numpy is first imported: each configuration needs its own interpreter.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd


def flatten(value, path="") -> list[str]:
    """Every number in nested dicts/lists/dataclasses/arrays/frames as ``path<TAB>repr`` lines."""
    from companion.experiments.paper01._grids import GridResults

    if isinstance(value, dict):
        return [line for key in value for line in flatten(value[key], f"{path}/{key}")]
    if isinstance(value, (list, tuple)):
        return [line for k, item in enumerate(value) for line in flatten(item, f"{path}[{k}]")]
    if isinstance(value, GridResults):
        return [line for name in sorted(vars(value)) for line in flatten(getattr(value, name), f"{path}.{name}")]
    if isinstance(value, pd.DataFrame):
        frame = value.reset_index()
        return [
            line for column in frame.columns
            for k, item in enumerate(frame[column].tolist())
            for line in flatten(item, f"{path}[{k}].{column}")
        ]
    if isinstance(value, pd.Series):
        return flatten(value.to_frame(), path)
    if isinstance(value, np.ndarray):
        return [line for k, item in enumerate(value.ravel().tolist()) for line in flatten(item, f"{path}[{k}]")]
    if isinstance(value, (float, np.floating)):
        return [f"{path}\t{float(value):.17g}"]
    return [f"{path}\t{value!r}"]


def protocols() -> dict:
    """name -> zero-argument callable running that protocol at a small size."""
    from companion.datasets import load_contact_lenses
    from companion.experiments import paper01, paper03, paper04, paper05
    from companion.experiments.paper01._grids import Grid
    from companion.experiments.paper02._protocol import learners, repeated_cross_validation
    from companion.experiments.paper04 import _studies
    from companion.experiments.paper04._studies import polarity_ablation

    def p01():
        grid = Grid(dlm_penalties=(0.3, 2.1), dlm_s_max=3, scm_penalties=(1.0,), scm_s_max=3,
                            svm_gamma_factors=(1.0,), svm_Cs=(1.0,))
        return paper01.run(paper01.Config(names=("haberman",), seeds=(0,), grid=grid, inner_splits=2))

    def p02():
        X, y = load_contact_lenses()
        return repeated_cross_validation(learners(seed=0, ripper=False), X, y, n_repeats=2, seed=5)

    def p03():
        return paper03.run(paper03.Config(seed=7, n_draws=2, degrees=(2, 3), n_train=200, n_test=500))

    def p04():
        kwargs = dict(n_splits=5, seed=3, max_folds=2)
        return {
            "benchmark": paper04.run(paper04.Config(datasets=("monks1", "breastw"), others=("CART",), **kwargs)),
            "ablation": polarity_ablation(["iris"], **kwargs),
            "strength": _studies.choose_optimistic_strength(strengths=(0.0, 0.05), n_problems=2, seed=4),
        }

    def p05():
        config = paper05.Config(
            seed=1, n_repeats=1, n_splits=3, n_prefilter=20, s_max=2, p_grid=(1.0,), model_types=("conjunction",),
            adaboost_rounds=5, rfe_genes=4, datasets=("leukemia_golub",),
        )
        return paper05.run(config)

    def adaboost():
        """Notebook 05's AdaBoost of stumps on Golub's leukemia folds where tied splits met (with
        scikit-learn's ``exp(log(w) + α)`` reweighting, numpy's AVX-512 loops chose other stumps
        than its AVX2 ones on 3 of the 10 x 5 inner folds here: 5.2, 9.1 and 9.3)."""
        from companion.evaluation import stratified_folds
        from companion.experiments.paper05._protocol import boosted_stumps, load_dataset, welch_t_ranking

        X, y, _ = load_dataset("leukemia_golub")
        models = {}
        for outer, (train, _) in enumerate(stratified_folds(y, n_splits=10, seed=2)):
            for inner, (fit, test) in enumerate(stratified_folds(y[train], n_splits=5, seed=3)):
                X_fit, y_fit = X[train][fit], y[train][fit]
                keep = welch_t_ranking(X_fit, y_fit, 100)
                boost, staged = boosted_stumps(X_fit[:, keep], y_fit, X[train][test][:, keep], 25, 2)
                models[f"fold {outer}.{inner}"] = ([(int(t.tree_.feature[0]), float(t.tree_.threshold[0]))
                                                    for t in boost.estimators_], staged[-1])
        return models

    def mask_perceptron():
        """MaskPerceptron at degree 3 on the random 0/1 problems where exactly tied scores of
        different candidates met (a ranking by the refits' last bits chose other monomials under
        OpenBLAS's SkylakeX kernel than under Haswell before scores were tied by a tolerance)."""
        from companion.perceptrons import MaskPerceptron

        models = {}
        for seed, wanted in ((5, (35,)), (7, (8, 30))):
            rng = np.random.default_rng(seed)
            for trial in range(max(wanted) + 1):
                m, n = rng.integers(20, 120), rng.integers(2, 9)
                X = rng.integers(0, 2, size=(m, n)).astype(float)
                if trial % 3 == 1:
                    X = rng.normal(size=(m, n)) * 3
                y = (X[:, 0] + (X[:, 1] if n > 1 else 0) + rng.normal(size=m) * 0.7 > 1).astype(int)
                for setting in range(4):  # the draws of the four settings the problems were found with
                    weights = rng.integers(0, 3, size=m) if trial % 4 == 0 else None
                    if trial in wanted and setting == 1:
                        model = MaskPerceptron(degree=3, n_candidates=3).fit(X, y, sample_weight=weights)
                        models[f"seed {seed} trial {trial}"] = (repr(model.monomials_), model.coef_)
        return models

    return {"paper01": p01, "paper02": p02, "paper03": p03, "paper04": p04, "paper05": p05,
            "adaboost": adaboost, "mask_perceptron": mask_perceptron}


def main(argv: list[str]) -> int:
    import warnings

    warnings.simplefilter("ignore")
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    only = set(argv[1:])
    # Canary: a BLAS product whose last bits depend on the kernel and thread count; the test
    # checks that the configurations really differ (else comparing them would prove nothing).
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((64, 4096)), rng.standard_normal(4096)
    (out / "canary.txt").write_text("".join(f"{v:.17g}\n" for v in a @ b))
    for name, run in protocols().items():
        if only and name not in only:
            continue
        (out / f"{name}.txt").write_text("\n".join(flatten(run())) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
