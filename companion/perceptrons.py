"""Kernel perceptrons of paper 03 (Kowalczyk, Smola & Williamson, NIPS 2001), and the mask perceptron.

* :class:`KernelPerceptron` — the regularised kernel perceptron ("λ-perceptron", Algorithm 1).
* :class:`MaximalMarginPerceptron` — the greedy soft-margin maximal margin perceptron ("λ-MMP",
  Algorithm 2); the row "Kernel SVM" of Table 1.
* :class:`MaskPerceptron` — a greedy sparse polynomial classifier standing in for the mask
  perceptron of Kowalczyk & Ferrà (1994), paper 03 Section 5: our reconstruction (the 1994
  heuristics are not available; the class docstring states it).
* The risk ``R[f, λ] = ‖f‖² + (1/λ) Σ (1 - y_i f(x_i))_+²`` (Eq. 7) is
  :func:`companion.bounds.boolean_kernel.regularised_risk`, with the bounds on it.

Both kernel algorithms work in the extended feature space ``z_i = y_i (Φ(x_i), √λ e_i)``, whose
Gram matrix is ``G = diag(y) K diag(y) + λ I`` (:func:`companion.bounds.boolean_kernel.extended_gram`);
their states give the lower bounds (9) and (11) on ``min_f R[f, λ]``.

Memory: ``G`` is never stored. Algorithms 1 and 2 read one row of ``G`` per step, formed from a
row of the kernel ``K`` when the step needs it (same arithmetic, same bits as the whole ``G``).
``K`` itself is stored whole only when it fits within ``max_memory_gb`` (the Boolean kernel with
integer weights in float32, exact for its whole-number values: 1.6 GB at ``m = 20,000``);
beyond, its rows are those of the distinct inputs (:class:`_KernelRows`: at most 256 for 8
Boolean inputs, whatever ``m``), each computed by a kernel call of its own and cached within the
limit, so a fit on 50,000 rows needs no 20 GB matrix. Both give the same numbers whenever the
kernel's values do not depend on how its matrix is blocked: always for the Boolean kernel, and
for any kernel on Boolean inputs (integer inner products, exact in any order). A kernel computed
through a BLAS product on real-valued inputs can differ in its last bits between one whole-matrix
call and one call per row; the λ-perceptron's integer updates are then the same in practice, but
the λ-MMP may stop at another point of its ``(1 - tol)`` approximation (coefficients within about
``1e-5``, measured), so a point with ``|f(x)|`` of that order may change sides. With
``kernel="precomputed"`` a float32 or float64 Gram matrix is used as given, not copied. The
Boolean kernel is read by the rows of the distinct inputs whenever an input repeats (LED digits:
at most 128 distinct rows), and everything a fit computes from ``K`` (``αᵀGα``, the training
scores, the predictions) is computed once per distinct input: a default fit on 50,000 LED rows
takes seconds and a few hundred MB. :func:`estimated_fit_bytes` is everything a default fit holds
at once (kernel or cached rows, O(m) arrays, blocks in flight, the fallback check's inner fit);
a fit whose O(m) arrays alone exceed ``max_memory_gb`` is refused before any kernel entry.

The kernel is a parameter: ``"boolean"`` (Eq. 5, with ``degree`` and ``weights``; inputs must be
0/1), ``"precomputed"``, any kernel name of :func:`sklearn.metrics.pairwise.pairwise_kernels`, or a
callable ``k(X, Y) -> Gram``. The default ``"rbf"`` only makes the estimators usable on arbitrary
real data; the paper's setting is ``kernel="boolean"`` on complemented bits with ``lam=4``.
By default (``scale="std"``) a kernel on real values is taken on each column divided by its
standard deviation (:func:`companion._numeric_input.column_scales`, as the ball machines divide
theirs): a column multiplied by 10^4 gives the same model; the Boolean kernel's 0/1 inputs and a
precomputed Gram matrix are taken as they are.

Scores: every learner here has a ``decision_function``, the polynomial or kernel expansion
``f(x)`` (positive values predict ``classes_[1]``), so ``roc_auc`` scoring works as it is. None has a
``predict_proba``: a perceptron estimates no class frequency, and a probability read off the
margin would be an invented link. For probabilities (``neg_log_loss`` scoring), calibrate ``f``:
``sklearn.calibration.CalibratedClassifierCV(KernelPerceptron(...))`` (Platt's sigmoid by default).
All three are two-class learners; for more classes wrap them in
``sklearn.multiclass.OneVsRestClassifier``. Real-valued inputs only: a string column of a
DataFrame is rejected by name (encode it first, e.g. with ``OneHotEncoder``).

>>> import numpy as np
>>> from companion.kernels import add_complemented_bits
>>> X = add_complemented_bits(np.array([[0, 0], [0, 1], [1, 0], [1, 1]]))
>>> y = np.array([0, 1, 1, 1])                       # x1 OR x2
>>> clf = KernelPerceptron(kernel="boolean", degree=2, lam=0.0).fit(X, y)
>>> clf.predict(X).tolist()
[0, 1, 1, 1]
"""

from __future__ import annotations

import math
import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context, clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import PAIRWISE_KERNEL_FUNCTIONS, pairwise_kernels
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data
from threadpoolctl import threadpool_limits

from companion._weights import check_sample_weight
from companion._resources import check_memory
from companion._scale import check_learner_scale, largest_magnitudes
from companion._progress import announced_fit, progress_lines
from companion._learner_support import binary_only_error, check_numeric_input, constant_log_odds, format_number, resolve_feature_names
from companion.interpretable import InterpretableMixin, beats_default_class
from companion._learner_support import fallback_check_running, jsonable
from companion.bounds.boolean_kernel import regularised_risk  # Eq. 7, with the risks it bounds
from companion.numerics import StrictInterval, exact_matvec, first_near_min, is_integer_valued, ordered_dot, ordered_matvec
from companion._numeric_input import column_scales, numeric_input
from companion.kernels import boolean_kernel, degree_weights, monomial_features, monomial_names
from companion._monomials import monomial_columns, monomial_positions, monomial_tuples

__all__ = ["KernelPerceptron", "MaximalMarginPerceptron", "MaskPerceptron"]

#: Kernels of :func:`sklearn.metrics.pairwise.pairwise_kernels` that take a ``gamma``.
_GAMMA_KERNELS = frozenset({"rbf", "laplacian", "sigmoid", "poly", "polynomial", "chi2"})


def _label_text(label) -> str:
    """A class label as Python writes it (``1``, ``'yes'``), not numpy's ``np.int64(1)``."""
    return repr(label.item() if isinstance(label, np.generic) else label)


class _BinaryKernelClassifier(InterpretableMixin, ClassifierMixin, BaseEstimator):
    """Shared plumbing: parameter checks, label coding and the kernel (not a public estimator)."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.input_tags.pairwise = getattr(self, "kernel", None) == "precomputed"
        return tags

    #: max |X| its kernels handle (companion._scale)
    _scale_range = {"low": 2.0**-400, "high": 2.0**400, "why": "kernel values and gamma='scale' (1 / variance) underflow or overflow"}
    _parameter_constraints: dict = {
        "kernel": [StrOptions({"boolean", "precomputed"} | set(PAIRWISE_KERNEL_FUNCTIONS)), callable],
        "degree": [Interval(Integral, 0, None, closed="left")],
        "weights": [Interval(Real, 0, None, closed="neither"), "array-like", None],
        "gamma": [StrOptions({"scale"}), Interval(Real, 0, None, closed="neither"), None],
        "kernel_params": [dict, None],
        "lam": [Interval(Real, 0, None, closed="left")],
        "scale": [StrOptions({"std"}), None],
        "max_memory_gb": [Interval(Real, 0, None, closed="neither"), None],
        "fallback": [StrOptions({"inner_cv"}), None],
    }
    #: ``to_text``'s own option (``decimals`` is every learner's: interpretable.TEXT_OPTION_CONSTRAINTS).
    _text_option_constraints = {"max_terms": [StrictInterval(Integral, 0, None, closed="left")]}

    def _refuse_fit_params(self, fit_params):
        """A weight cannot be honoured: say so, naming the class and the reason."""
        if "sample_weight" in fit_params:
            raise TypeError(
                f"{type(self).__name__} does not take sample_weight: each training row has its own "
                "coordinate sqrt(lam) e_i in the extended space of paper 03 (Section 4), so a row of "
                "weight 2 is not two copies of it, and the algorithm's stopping point depends on the "
                "copies; use MaskPerceptron (a weighted loss) or duplicate the rows."
            )
        if fit_params:
            raise TypeError(f"{type(self).__name__}.fit got unexpected argument(s) {sorted(fit_params)}")

    def _kernel(self, X, Y):
        """Kernel matrix between rows of ``X`` and ``Y`` (for "precomputed", ``X`` already is it)."""
        params = dict(self.kernel_params or {})
        if self.kernel == "boolean":
            return boolean_kernel(X, Y, degree=self.degree, weights=self.weights)
        if callable(self.kernel):
            return np.asarray(self.kernel(X, Y, **params), dtype=float)
        if self.kernel == "poly":
            params.setdefault("degree", self.degree)
        if getattr(self, "gamma_", None) is not None:
            params.setdefault("gamma", self.gamma_)
        return pairwise_kernels(X, Y, metric=self.kernel, filter_params=True, **params)

    def _fit_labels(self, X, y):
        if self.kernel != "precomputed":
            check_learner_scale(self, X)  # the input scale its arithmetic handles (companion._scale)
        if self.kernel == "boolean":
            degree_weights(self.degree, self.weights)  # raises a ValueError naming the bad parameter
        if self.kernel != "precomputed":  # a Gram matrix has no named input columns to check
            X = numeric_input(self, X, reset=True)  # nominal columns, missing cells: the one pipeline
            check_numeric_input(X, type(self).__name__)
        else:
            self.input_encoder_ = None
        X, y = validate_data(self, X, y, dtype=self._input_dtypes())
        # Kernels on real values (every kernel but the Boolean one, whose inputs are 0/1, and a
        # given Gram matrix) are taken on each column divided by its scale: no column's units
        # decide the kernel (the ball machines' division, companion._numeric_input.column_scales;
        # a 0/1 column is divided by 1, so a 0/1 table is read bit for bit as it is).
        divides = self.scale == "std" and self.kernel not in ("boolean", "precomputed")
        self.scale_ = column_scales(X) if divides else np.ones(X.shape[1])
        X_scaled = self._divided(X)
        # gamma="scale": 1 / (n_features * Var(X)), as scikit-learn's SVC, for the kernels that
        # take a gamma and were given none in kernel_params (of the divided columns)
        self.gamma_ = None
        if not callable(self.kernel) and self.kernel in _GAMMA_KERNELS and "gamma" not in (self.kernel_params or {}):
            if self.gamma == "scale":
                variance = float(X_scaled.var())
                self.gamma_ = 1.0 / (X_scaled.shape[1] * variance) if variance > 0 else 1.0
            elif self.gamma is not None:
                self.gamma_ = float(self.gamma)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.shape[0] != 2:
            raise binary_only_error(type(self).__name__, self.classes_.shape[0])
        if self.kernel == "precomputed" and X.shape[0] != X.shape[1]:
            raise ValueError(f"with kernel='precomputed', X must be a square Gram matrix, got shape {X.shape}")
        return X, X_scaled, np.where(y == self.classes_[1], 1.0, -1.0)

    def _divided(self, X):
        """``X / scale_``, the columns the kernel is taken on (``X`` itself when no column is divided:
        no copy, the same bits)."""
        return X / self.scale_ if (self.scale_ != 1).any() else X

    def _input_dtypes(self):
        """float64, or float32 kept as it is for a precomputed Gram matrix (no m × m copy).

        Every use of a float32 Gram matrix converts its entries to float64 before any arithmetic
        (exactly), so the results are those of the float64 copy, bit for bit.
        """
        return [np.float64, np.float32] if self.kernel == "precomputed" else np.float64

    def _train_gram(self, X):
        """The m × m training kernel, read by rows (see Memory above); never copied.

        ``kernel="precomputed"``: the given matrix. Otherwise a fit that cannot hold even its
        O(m) arrays within ``max_memory_gb`` is refused before any kernel entry is computed
        (:func:`estimated_fit_bytes`); when the whole kernel fits within what is left of
        ``max_memory_gb`` (less what the rest of the process keeps: at least 1 GiB, more for
        O(m) arrays beyond it; its peak with the temporaries of its computation:
        :func:`estimated_kernel_bytes`), it is computed
        once, in one call as always (the Boolean kernel in row blocks, in float32 when its values
        are whole numbers below 2**24: exact, half the memory); beyond, it is read by rows
        (:class:`_KernelRows`), each distinct input's row computed on its own and cached within
        the limit. The Boolean kernel is read by rows of the distinct inputs whenever some input
        repeats (the same numbers, exact in any blocking: the kernel of the distinct inputs is
        all a fit computes, 128 x 128 for the 7 bits of an LED digit whatever ``m``).
        """
        if self.kernel == "precomputed":
            return _GivenKernel(X)
        m, n_features = X.shape
        fallback = self.fallback == "inner_cv" and not fallback_check_running()
        check_memory(
            self, _least_fit_bytes(m, n_features, fallback),
            f"the arrays that grow with the rows ({m} x {n_features} inputs, the iterations' vectors"
            f"{' and the fallback check' if fallback else ''}; the kernel itself is read by rows within the limit)",
            "fit on fewer rows",
        )
        limit = np.inf if self.max_memory_gb is None else float(self.max_memory_gb) * 2**30
        budget = max(0.0, limit - _process_bytes(m, n_features, fallback))
        if self.kernel == "boolean":
            def compute(A, B):
                return boolean_kernel(A, B, degree=self.degree, weights=self.weights, compact=True)

            itemsize = compute(X[:1], X[:1]).itemsize  # 4 when the values are exact in float32
            rows = _KernelRows(compute, X, budget, exact_in_blocks=True)
            # Boolean inputs repeat (at most 2**n distinct rows): with any repeated input the
            # distinct inputs' kernel is smaller than K and its rows give K's numbers (exact in
            # any blocking), so the whole K is computed only for distinct inputs that fit
            if len(rows.unique) == m and estimated_kernel_bytes(m, itemsize) <= budget:
                return _GivenKernel(compute(X, X))
            return rows
        if estimated_kernel_bytes(m) <= budget:
            return _GivenKernel(self._kernel(X, X))
        return _KernelRows(self._kernel, X, budget, exact_in_blocks=False)

    def _store_expansion(self, X, K, y_signed, alpha, scale):
        """Keep the support expansion ``f(x) = scale · Σ_i α_i y_i k(x_i, x)`` over ``α_i > 0``.

        ``X`` is the training input in its own units (``support_vectors_`` keeps them); the kernel
        is taken on ``X / scale_``.

        The unscaled score ``Σ_i α_i y_i k(x_i, x)`` decides the class and the ties; the positive
        ``scale`` only sizes ``f`` (it cannot change a sign). When the kernel values and the
        coefficients ``α_i y_i`` are whole numbers (the λ-perceptron's update counts with the
        Boolean kernel of integer weights), the unscaled score is an exact integer
        (:func:`companion.numerics.exact_matvec`), so a score that is truly 0 is 0 on every machine;
        otherwise it is summed in a fixed order (:func:`companion.numerics.ordered_matvec`).
        """
        self.alpha_ = alpha
        self.support_ = np.flatnonzero(alpha > 0)
        self.n_support_ = int(self.support_.size)
        self.complexity_ = self.n_support_  # terms c_i k(s_i, x) of the rendered expansion
        self.unscaled_coef_ = alpha[self.support_] * y_signed[self.support_]
        self.decision_scale_ = float(scale)
        self.dual_coef_ = self.decision_scale_ * self.unscaled_coef_
        self.support_vectors_ = None if self.kernel == "precomputed" else X[self.support_]
        self._scaled_support = None if self.support_vectors_ is None else self._divided(self.support_vectors_)
        # K[:, support] is never formed whole (m × |support| floats): scores by row blocks.
        train_scores = self._blocked_unscaled_scores(K, None)
        train_values = self.decision_scale_ * train_scores
        # ‖f‖² of the RKHS part only: the λ-part of the extended vector is the slack (Eq. 7).
        self.norm_sq_ = self.decision_scale_**2 * float(
            ordered_dot(self.unscaled_coef_, self._blocked_unscaled_scores(K, self.support_))
        )
        self.risk_ = regularised_risk(train_values, y_signed, self.norm_sq_, self.lam)
        # err(f) of the paper counts y f(x) <= 0: a training point with f(x) = 0 is an error.
        self.n_ties_ = int(np.count_nonzero(train_scores == 0))
        self.training_error_ = float(np.mean(train_scores * y_signed <= 0))

    def _blocked_unscaled_scores(self, K, rows):
        """:meth:`_unscaled_scores` of ``K[rows][:, support_]`` (``rows=None``: all), by row blocks.

        The same numbers as on the whole submatrix: whether the exact product applies is decided
        on the whole submatrix first; an exact product is exact blockwise too, and the fixed-order
        sum adds each row on its own. A kernel read by rows (:class:`_KernelRows`) scores each
        distinct input once (``K[i] = K_U[a_i]``: rows of equal inputs are equal, so are their
        scores) and takes its score for every row of that input: O(distinct inputs x support)
        instead of O(m x support), the same numbers.
        """
        # the layout of the whole submatrix: K[:, S] column-major, K[S][:, S] row-major
        column_major = rows is None
        n_rows = K.shape[0] if rows is None else rows.size
        if isinstance(K, _KernelRows) and n_rows > 0 and self.support_.size > 0:
            wanted = K.inverse if rows is None else K.inverse[rows]
            distinct, back = np.unique(wanted, return_inverse=True)
            scores = self._scores_of_rows(K, K.first_rows[distinct], column_major, whole_rows=n_rows)
            return scores[back.reshape(-1)]
        return self._scores_of_rows(K, rows, column_major, whole_rows=n_rows)

    def _scores_of_rows(self, K, rows, column_major, whole_rows):
        """:meth:`_unscaled_scores` of ``K[rows][:, support_]`` (``rows=None``: all rows), by row
        blocks laid out column-major or row-major as the whole submatrix of ``whole_rows`` rows is."""
        columns = self.support_
        n_rows = K.shape[0] if rows is None else rows.size
        if n_rows == 0 or columns.size == 0:
            return self._unscaled_scores(K.rows(slice(0, 0) if rows is None else rows)[:, columns])
        # A kernel read by rows forms whole rows of K before taking the support's columns: size the
        # blocks by the row's width, or a small support makes a block of m x m floats.
        step = max(2, _block_rows(K.shape[1] if isinstance(K, _KernelRows) else columns.size))
        starts = list(range(0, n_rows, step))
        if len(starts) > 1 and n_rows - starts[-1] == 1:
            starts.pop()  # no block of one row (see below): the last row joins the block before
        blocks = [slice(start, stop) for start, stop in zip(starts, starts[1:] + [n_rows])]

        def block(b):
            # Each block keeps the layout of the whole submatrix (K[:, S] column-major, K[:, S][S]
            # row-major): ordered_matvec's row sums follow the layout (sequential over a
            # column-major array, pairwise over a row-major one), so blocking changes no bit. A
            # single row is both layouts to numpy (summed pairwise): a column-major block of one
            # row of a larger submatrix is that row twice, its sum taken once.
            chosen = b if rows is None else rows[b]
            if not column_major:
                return np.ascontiguousarray(K.submatrix(chosen, columns))
            if b.stop - b.start == 1 and whole_rows > 1:
                return K.submatrix(np.repeat(np.arange(n_rows)[b] if rows is None else chosen, 2), columns)
            return K.submatrix(chosen, columns)

        exact = self._exact_scores_ and all(is_integer_valued(block(b)) for b in blocks)
        product = exact_matvec if exact else ordered_matvec
        return np.concatenate([product(block(b), self.unscaled_coef_)[: b.stop - b.start] for b in blocks])

    def _unscaled_scores(self, K_support):
        """``Σ_i α_i y_i k(x_i, x)`` for the rows of ``K_support`` (columns: the support)."""
        if self._exact_scores_:
            if is_integer_valued(K_support):
                return exact_matvec(K_support, self.unscaled_coef_)
        return ordered_matvec(K_support, self.unscaled_coef_)

    def _scores_of(self, X):
        """``Σ_i α_i y_i k(x_i, x)`` (:meth:`_unscaled_scores`) for the rows of a new ``X``.

        The kernel between ``X`` and the support is formed a block of rows at a time (all rows
        in one call up to :data:`_BLOCK_BYTES`), never ``n x |support|`` floats at once. With
        ``kernel="boolean"`` only the distinct rows of ``X`` are scored (at most ``2**n`` for
        ``n`` Boolean columns; its values are exact in any blocking), and each row takes the
        score of its input: the same numbers as scoring every row.
        """
        X = validate_data(self, numeric_input(self, X, reset=False), reset=False, dtype=self._input_dtypes())
        if self.kernel == "precomputed":
            return self._unscaled_scores(X[:, self.support_])
        X = self._divided(X)  # the same division as fit's: a training row gets the same kernel row
        back = None
        if self.kernel == "boolean" and X.shape[0] > 1:
            X, back = np.unique(X, axis=0, return_inverse=True)
        step = _block_rows(max(1, self.n_support_))
        if X.shape[0] <= step:
            scores = self._unscaled_scores(self._kernel(X, self._scaled_support))
        else:
            scores = np.concatenate([self._unscaled_scores(self._kernel(X[start : start + step], self._scaled_support))
                                     for start in range(0, X.shape[0], step)])
        return scores if back is None else scores[back.reshape(-1)]

    def decision_function(self, X):
        """``f(x) = Σ_i dual_coef_i k(x_i, x)``; positive values predict ``classes_[1]``.

        For ``kernel="precomputed"``, ``X`` is the kernel between test and *training* inputs.
        ``f(x) = 0`` (a tie) is exact when the kernel and the coefficients are whole numbers, as for
        the λ-perceptron with the Boolean kernel (see ``n_ties_``).
        """
        check_is_fitted(self)
        scores = self.decision_scale_ * self._scores_of(X)
        return _fallback_scores(self, scores)

    def predict(self, X):
        """Class labels: ``classes_[1]`` where :meth:`decision_function` is positive, else ``classes_[0]``.

        Tie rule: ``f(x) = 0`` predicts ``classes_[0]``. (Error rates in the paper's sense,
        ``err(f) = #{y f(x) ≤ 0}``, count a tie as an error whatever the label; ``training_error_``
        does, and :func:`companion.experiments.paper03._protocol.run_draw` does on test data.)
        """
        check_is_fitted(self)
        positive = self._scores_of(X) > 0
        if getattr(self, "fallback_class_", None) is not None:
            return np.full(positive.shape, self.fallback_class_, dtype=self.classes_.dtype)
        return self.classes_[positive.astype(int)]

    # -- text -------------------------------------------------------------------------------------
    def _render_text(self, feature_names, *, max_terms=5, decimals=None) -> str:
        """The kernel expansion as text (``to_text``): its size and the ``max_terms`` largest terms.

        Parameters
        ----------
        feature_names : sequence of str, optional
            One name per input column (default ``feature_names_in_``, else ``x0, x1, ...``);
            with ``kernel="precomputed"`` the support points are training rows, named by index.
        max_terms : int, default=5
            How many terms ``c_i k(s_i, x)`` to list, largest ``|c_i|`` first.
        decimals : int or None, default=None
            Decimal places of the coefficients and coordinates; ``None``: 4 significant digits.
        """
        number = "{:.4g}" if decimals is None else "{:.%df}" % decimals
        if callable(self.kernel):
            kernel = getattr(self.kernel, "__name__", type(self.kernel).__name__)
        elif self.kernel in ("boolean", "poly"):
            kernel = f"{self.kernel!r}, degree={self.degree}"
        else:
            kernel = repr(self.kernel)
        lines = [
            f"predict {_label_text(self.classes_[1])} if f(x) > 0, else {_label_text(self.classes_[0])}, "
            f"where f(x) = sum_i c_i k(s_i, x) over {self.n_support_} support points (kernel={kernel}, "
            f"lam={self.lam})"
        ]
        # Largest |c_i| first; equal sizes keep the training order (stable sort).
        order = np.argsort(-np.abs(self.dual_coef_), kind="stable")[:max_terms]
        for k in order:
            if self.support_vectors_ is None:
                point = f"training row {int(self.support_[k])}"
            else:
                point = "[" + ", ".join(
                    f"{name}={number.format(value)}" for name, value in zip(feature_names, self.support_vectors_[k])
                ) + "]"
            coefficient = number.format(self.dual_coef_[k])
            lines.append(f"  {'' if coefficient.startswith('-') else '+'}{coefficient} k({point}, x)")
        if self.n_support_ > len(order):
            lines.append(f"  ... ({self.n_support_ - len(order)} more terms)")
        if (self.scale_ != 1).any():
            scales = ", ".join(f"{name}={number.format(v)}" for name, v in zip(feature_names, self.scale_))
            lines.append(f"k is taken on x / s and s_i / s, where s = ({scales}): each column's standard deviation, "
                         "c for a column of 0 and c (scale='std'); the points are in the input's units")
        return "\n".join(lines)

    # -- exported model ---------------------------------------------------------------------------
    def _model_to_dict(self) -> dict:
        """The expansion: support rows, their points (by column name) and coefficients."""
        names = resolve_feature_names(self) if self.kernel != "precomputed" else None
        return {
            "kernel": self.kernel if isinstance(self.kernel, str) else None,
            "gamma": self.gamma_,
            "n_training_rows": int(self.alpha_.shape[0]),
            "support": self.support_,
            "support_vectors": None if self.support_vectors_ is None else [
                dict(zip(names, map(float, row))) for row in self.support_vectors_
            ],
            "unscaled_coef": self.unscaled_coef_,
            "decision_scale": self.decision_scale_,
            "exact_scores": bool(self._exact_scores_),
            "alpha": self.alpha_,
            # each column's divisor (scale="std"), written only when one is not 1: a 0/1 table,
            # the Boolean or a precomputed kernel and scale=None write the model as before
            **({"scale": [float(v) for v in self.scale_]} if (self.scale_ != 1).any() else {}),
        }

    def _model_from_dict(self, model):
        if callable(self.kernel):
            raise ValueError(f"{type(self).__name__}: a model with a callable kernel cannot be rebuilt from a dict")
        self.gamma_ = None if model["gamma"] is None else float(model["gamma"])
        self.alpha_ = np.asarray([float(a) for a in model["alpha"]], dtype=float)
        self.support_ = np.asarray(model["support"], dtype=np.intp).reshape(-1)
        self.n_support_ = int(self.support_.size)
        self.complexity_ = self.n_support_
        self.unscaled_coef_ = np.asarray([float(c) for c in model["unscaled_coef"]], dtype=float)
        self.decision_scale_ = float(model["decision_scale"])
        self.dual_coef_ = self.decision_scale_ * self.unscaled_coef_
        self._exact_scores_ = bool(model["exact_scores"])
        if model["support_vectors"] is None:
            self.support_vectors_ = None
        else:
            names = resolve_feature_names(self)
            self.support_vectors_ = np.array(
                [[float(point[name]) for name in names] for point in model["support_vectors"]], dtype=float
            ).reshape(self.n_support_, len(names))
        self.scale_ = np.array([float(v) for v in model.get("scale", [1.0] * self.n_features_in_)], dtype=float)
        self._scaled_support = None if self.support_vectors_ is None else self._divided(self.support_vectors_)


class KernelPerceptron(_BinaryKernelClassifier):
    """Regularised kernel perceptron, "λ-perceptron" (paper 03, Algorithm 1 and Theorem 3).

    Rosenblatt's kernel perceptron run on the extended points ``z_i``: while some ``j`` has
    ``(G α)_j = y_j Σ_i α_i y_i k(x_i, x_j) + λ α_j ≤ 0``, increase ``α_j`` by one (``t`` counts the
    updates). Examples are visited in cyclic sweeps in index order (the paper does not say how
    ``j`` is chosen). For ``λ > 0`` it always terminates; for ``λ = 0`` it is the ordinary kernel
    perceptron and terminates on separable data.

    The coefficients are finally scaled by ``t / ‖w̃^t‖²`` (our reconstruction: the paper gives bound (9), not the scaling of the output), which makes
    the norm of the extended vector equal to the bound (9) ``t² / ‖w̃^t‖² ≤ min_f R[f, λ]``.

    Scores: :meth:`decision_function` is ``f(x)`` (positive: ``classes_[1]``; ``predict`` agrees,
    ties ``f(x) = 0`` go to ``classes_[0]``). No ``predict_proba`` (no class frequency is
    estimated): for ``neg_log_loss`` use ``CalibratedClassifierCV(KernelPerceptron(...))``. Two
    classes only (``OneVsRestClassifier`` for more). ``to_text()`` lists the largest terms.

    Parameters
    ----------
    kernel : {"boolean", "precomputed"}, a pairwise_kernels name, or callable, default="rbf"
        The kernel; ``"boolean"`` is Eq. (5) and needs 0/1 inputs.
    degree : int, default=2
        Degree ``d`` of the Boolean kernel (also of ``"poly"``).
    weights : None, float or array-like, default=None
        Complexity weights ``c_i`` of the Boolean kernel (``None``: all 1).
    gamma : "scale", float or None, default="scale"
        ``gamma`` of the kernels that take one (rbf, laplacian, sigmoid, poly, chi2) when
        ``kernel_params`` gives none: "scale" is ``1 / (n_features * X.var())``, as scikit-learn's
        ``SVC`` (so raw columns in large units do not flatten an rbf kernel); ``None`` leaves
        ``pairwise_kernels``' default ``1 / n_features``. The value used is ``gamma_``.
    kernel_params : dict, default=None
        Extra keyword arguments for a named or callable kernel.
    scale : {"std", None}, default="std"
        ``"std"`` (for users' tables): a kernel on real values (every kernel but ``"boolean"``
        and ``"precomputed"``) is taken on each column divided by its standard deviation on the
        training rows (``scale_``; a column of values ``{0, c}`` by ``c``, so a 0/1 column by 1:
        :func:`companion._numeric_input.column_scales`, the ball machines' division), so that a
        column's units (dollars or thousands of dollars) decide neither the kernel nor
        ``gamma="scale"``. Only a division: an inner-product kernel (``"linear"``, ``"poly"``)
        still depends on where a column's 0 is. The support points are printed and exported in
        the input's units. ``kernel="boolean"`` divides nothing whatever ``scale`` says: its
        inputs are 0/1 (the paper's complemented bits, notebook 03), which the division would
        leave as they are anyway. ``None``: the input's own units.
    lam : float, default=4.0
        Regularisation constant ``λ ≥ 0`` added to the diagonal (the paper's experiment: 4).
    max_updates : int, default=100_000
        Safety cap on ``t``; reaching it (possible only for ``λ = 0``) warns.
    max_memory_gb : float or None, default=4.0
        Bounds the memory of the fit: the training kernel is stored whole only if it fits
        within this limit with the temporaries of its computation (less at least 1 GB for the
        rest of the process; 40 bytes per pair, :func:`estimated_kernel_bytes`: m = 9,000 is the
        most the default holds whole; the Boolean kernel only when no input repeats); otherwise
        its rows, one per distinct input, are cached within the limit and recomputed beyond it
        (see Memory in the module docstring for when the two give the same numbers). The
        fallback check's inner fits get what this fit leaves. A fit whose O(m) arrays alone do
        not fit is refused before any kernel entry (:func:`estimated_fit_bytes`). ``None``: no
        limit. Unused with ``kernel="precomputed"``.

    fallback : {"inner_cv", None}, default="inner_cv"
        ``"inner_cv"``: the model becomes the constant majority class (``fallback_class_``,
        printed ``always C`` with a :class:`companion.interpretable.SingleClassWarning`) when
        it predicts one class on every training row or loses to the majority class on 3 inner
        stratified folds (:func:`companion.interpretable.beats_default_class`, CART's
        one-standard-error rule); not for ``kernel="precomputed"``. Its ``decision_function``
        is then the training log-odds of ``class_counts_`` (each class's training count), so
        that one-vs-rest over fallbacks picks the majority class. Beyond 10,000 training rows
        the folds are those of a stratified subsample of 10,000 rows (chosen by the rows'
        content, not their order), so the check's three inner fits cost a bounded share of a
        large fit (at 50,000 rows: three fits of 6,667 rows). ``None``: the paper's model as
        it is (notebook 03 passes it).

    Attributes
    ----------
    complexity_ : int
        Size of the model: the terms ``c_i k(s_i, x)`` of the expansion (``n_support_``).
    classes_ : ndarray of shape (2,)
    alpha_ : ndarray of shape (n_samples,)
        Integer update counts ``α_i`` (unscaled); ``Σ α_i = t``.
    n_updates_ : int
        ``t``, the number of updates to convergence.
    extended_norm_sq_ : float
        ``‖w̃^t‖² = αᵀ G α``.
    lower_bound_ : float
        Eq. (9): ``t² / ‖w̃^t‖²``, a lower bound on ``R[f, λ]`` for every polynomial ``f``.
    support_, n_support_, dual_coef_, support_vectors_
        The expansion ``f(x) = Σ dual_coef_i k(support_vectors_i, x)``; support = ``{i: α_i > 0}``.
    norm_sq_ : float
        ``‖f‖²`` of the scaled classifier (RKHS part).
    risk_ : float
        ``R[f, λ]`` of the scaled classifier on the training set (Table 1's "risk").
    unscaled_coef_ : ndarray
        ``α_i y_i`` over the support: whole numbers, so with an integer-valued kernel (the
        Boolean kernel with integer weights) every score ``Σ α_i y_i k(x_i, x)`` is an exact
        integer and its sign, including 0, is the same on every machine.
    decision_scale_ : float
        The positive scale ``t / ‖w̃^t‖²``: ``dual_coef_ = decision_scale_ * unscaled_coef_``.
    training_error_ : float
        The paper's ``err(f)``: the fraction of training points with ``y f(x) ≤ 0``, so a tie
        ``f(x) = 0`` counts as an error whatever the label.
    n_ties_ : int
        Number of training points with ``f(x) = 0`` exactly (frequent on LED digits: duplicated
        inputs with both labels). :meth:`predict` sends ties to ``classes_[0]``.
    converged_ : bool
    gamma_ : float or None
        The kernel's ``gamma`` from the ``gamma`` parameter (None when the kernel takes none, or
        ``kernel_params`` gives it).
    scale_ : ndarray of shape (n_features_in_,)
        What each column is divided by before the kernel (``scale``): its standard deviation,
        ``c`` for a column of values ``{0, c}`` (1 for a 0/1 column); all 1 with ``scale=None``,
        ``kernel="boolean"`` or ``kernel="precomputed"``.

    Notes
    -----
    **Sample weights** are refused (a ``TypeError`` saying why): each row has its own slack
    coordinate ``√λ e_i`` in the extended space (Section 4), so a row of weight 2 is not two
    copies of it. :class:`MaskPerceptron` takes weights.

    **Exported model.** ``to_dict()["model"]`` holds ``kernel``, ``gamma`` (the value used),
    ``support`` (training rows), ``support_vectors`` (each a ``{column: value}`` mapping; None for
    a precomputed kernel), ``unscaled_coef`` (``α_i y_i``), ``decision_scale`` and ``alpha``:
    ``f(x) = decision_scale · Σ unscaled_coef_i k(support_vector_i, x)``, with the kernel and
    the parameters of the envelope.
    """

    # Read by tests/test_learner_properties.py: a learner whose model depends on the order of the
    # training rows must say why, instead of silently failing the permutation property.
    _row_order_dependence = (
        "Algorithm 1 is an online perceptron: which violated example is updated first changes the "
        "final alpha; the paper does not fix the order and our simulations use "
        "cyclic sweeps in index order."
    )

    _parameter_constraints: dict = {
        **_BinaryKernelClassifier._parameter_constraints,
        "max_updates": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(
        self, *, kernel="rbf", degree=2, weights=None, gamma="scale", kernel_params=None, scale="std", lam=4.0,
        max_updates=100_000, max_memory_gb=4.0, fallback="inner_cv",
    ):
        self.fallback = fallback
        self.kernel = kernel
        self.scale = scale
        self.degree = degree
        self.weights = weights
        self.gamma = gamma
        self.kernel_params = kernel_params
        self.lam = lam
        self.max_updates = max_updates
        self.max_memory_gb = max_memory_gb

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, **fit_params):
        """Run Algorithm 1 to convergence on ``(X, y)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training inputs (0/1 for ``kernel="boolean"``; the training Gram matrix for
            ``kernel="precomputed"``).
        y : array-like of shape (n_samples,)
            Labels of any type, exactly two classes.
        **fit_params : dict
            None accepted: ``sample_weight`` is refused with the reason (a weight is not a
            number of copies of a row for Algorithm 1).

        Returns
        -------
        self
            The fitted perceptron.

        Notes
        -----
        A fit estimated to take over a minute (:func:`_estimated_fit_seconds`) says so first, with
        the remedies, and shows its progress while it runs (:func:`companion._progress.announced_fit`,
        as the ball machines' fits); an interrupted fit (``KeyboardInterrupt``) leaves the
        perceptron as it was before the call.
        """
        self._refuse_fit_params(fit_params)
        with announced_fit(self, _estimated_fit_seconds(self, X), X, _LONG_FIT_REMEDY):
            return self._fit_updates(X, y)

    def _fit_updates(self, X, y):
        """:meth:`fit`'s work (the announcement and the interruption are :meth:`fit`'s)."""
        X, X_scaled, y_signed = self._fit_labels(X, y)  # X in its own units, X_scaled: X / scale_
        K = self._train_gram(X_scaled)
        G = _ExtendedGram(K, y_signed, self.lam)  # rows on demand: no second m × m matrix
        alpha, n_updates, converged = _perceptron_updates(G, self.max_updates, f"{type(self).__name__} updates")
        if not converged:
            warnings.warn(
                f"KernelPerceptron stopped after max_updates={self.max_updates} updates without converging "
                "(the data are probably not separable with lam=0)",
                ConvergenceWarning,
                stacklevel=2,
            )
        self.n_updates_ = int(n_updates)
        self.converged_ = bool(converged)
        self.extended_norm_sq_ = _extended_norm_sq(alpha, G)
        if self.extended_norm_sq_ > 0:
            self.lower_bound_ = n_updates**2 / self.extended_norm_sq_
            scale = n_updates / self.extended_norm_sq_
        else:  # w̃ = 0 after t > 0 updates: 0 is in the cone of the z_i, no separation (λ = 0)
            self.lower_bound_, scale = np.inf, 0.0
        # Update counts are integers: with an integer-valued kernel every score is exact.
        self._exact_scores_ = True
        self._store_expansion(X, K, y_signed, alpha, scale)
        del G, K  # released before the fallback check's inner fits, which hold kernels of their own
        self._fall_back_if_it_loses(X, y, None)
        return self


#: What shortens a long fit of a kernel perceptron (the line :func:`companion._progress.long_fit` writes).
_LONG_FIT_REMEDY = (
    "fit on a subsample of the rows, pass fallback=None (no 3 inner fits of the fallback check), "
    "use kernel='boolean' on 0/1 inputs (each distinct input computed once), run cross-validation "
    "folds in parallel with n_jobs; max_memory_gb bounds the memory (a smaller value reads the "
    "kernel by rows: less memory, more time), not the time"
)


#: CPU seconds per pair of training rows of a fit without the fallback check, 50 real columns
#: (measured: see :func:`_estimated_fit_seconds`).
_SECONDS_PER_PAIR = {"KernelPerceptron": 5e-8, "MaximalMarginPerceptron": 8e-8}


def _estimated_fit_seconds(perceptron, X) -> float:
    """A rough duration of ``perceptron.fit(X, y)`` in seconds, for the announcement of a long fit.

    Measured on the project's 2-core machine (CPU seconds, default rbf kernel, 50 normal
    features, ``fallback=None``): KernelPerceptron 0.25 / 0.96 / 2.96 s at m = 2000 / 4000 /
    8000 rows, MaximalMarginPerceptron 0.34 / 1.08 / 4.91 s: about 5e-8 and 8e-8 s per pair of
    rows (the kernel and the iterations both grow as m^2); beyond about 9,000 rows the kernel is
    read by rows, no faster. The fallback's three inner fits (on at most 10,000 rows) and the
    training predictions multiplied it by 2.8-3.2 at m = 2000. The kernel's share grows with the
    columns; the Boolean kernel computes each distinct input once (LED digits: 128 rows whatever
    m). 200,000 x 50 real values: about 35 minutes (KernelPerceptron), 55 (MaximalMarginPerceptron);
    the first default fits announced have about 32,000 and 24,000 such rows. Only decides whether
    a line is written, never what is learnt.
    """
    try:
        m, n = np.shape(X)
    except (TypeError, ValueError):
        return 0.0
    distinct = m
    if perceptron.kernel == "precomputed":
        n = 0  # the kernel is given: only the iterations remain
    elif perceptron.kernel == "boolean" and m > 1:
        try:  # repeated 0/1 inputs: the kernel is computed once per distinct input
            distinct = len(np.unique(np.asarray(X, dtype=float), axis=0))
        except (TypeError, ValueError):
            pass
    # a subclass is timed as the algorithm it runs (its first base measured)
    per_pair = next(_SECONDS_PER_PAIR[c.__name__] for c in type(perceptron).__mro__ if c.__name__ in _SECONDS_PER_PAIR)
    seconds = per_pair * float(distinct) * m * (0.5 + 0.5 * n / 50.0)
    if perceptron.fallback == "inner_cv" and m > 0:
        inner = min(m, _FALLBACK_MAX_ROWS) * 2.0 / 3.0  # three inner fits on two thirds of the check's rows
        seconds *= 1.0 + 4.0 * (inner / m) ** 2
    return seconds


def _extended_norm_sq(alpha, G) -> float:
    """``αᵀ G α``: exact when ``G`` is integer-valued (integer kernel and λ), else a fixed-order sum.

    ``G`` is an :class:`_ExtendedGram`; ``G α`` is formed by row blocks of ``G`` (each row is
    summed on its own, and an exact product is exact blockwise), the same numbers as on all of ``G``;
    or, for a kernel read by rows with integer values, through the distinct inputs
    (:meth:`_ExtendedGram.exact_product_by_inputs`: the same exact numbers in O(m) work).
    """
    by_inputs = G.exact_product_by_inputs(alpha)
    if by_inputs is not None:
        return float(ordered_dot(alpha, by_inputs))
    blocks = G.row_blocks()
    product = exact_matvec if all(is_integer_valued(G.rows(b)) for b in blocks) else ordered_matvec
    return float(ordered_dot(alpha, np.concatenate([product(G.rows(b), alpha) for b in blocks])))


# Whole numbers up to this are exact in float64, and so is every sum of them that stays below it.
_EXACT_FLOAT_INTEGERS = 2.0**53

#: Iterations between two looks at the clock of the progress lines (COMPANION_PROGRESS only).
_PROGRESS_EVERY = 256

# Size of one block of rows of a temporary float64 matrix (tests shrink it to check that the
# blocked computations give the same bits as the whole matrix).
_BLOCK_BYTES = 32 << 20


def _block_rows(n_columns: int) -> int:
    """Rows per block so that a float64 block of ``n_columns`` columns takes ``_BLOCK_BYTES``."""
    return max(1, _BLOCK_BYTES // (8 * max(1, int(n_columns))))


#: Bytes per pair of training rows a fit holding the whole kernel needs beyond the kernel itself:
#: the temporaries of its computation (squared distances, products, their exponentials) and of the
#: fit's passes over it. Measured with tracemalloc (tests/test_perceptrons.py): 25 (rbf, float64
#: kernel) and 28 (Boolean, float32 kernel) at m = 900..2000.
_KERNEL_TEMPORARY_BYTES_PER_PAIR = 32


def estimated_kernel_bytes(m: int, itemsize: int = 8) -> int:
    """Peak bytes of a kernel perceptron's fit that holds its whole ``m x m`` training kernel.

    Counts the kernel matrix ``K`` (``itemsize`` bytes per entry: 8, or 4 for a Boolean kernel
    exact in float32) and the temporaries of computing it and of the fit's passes over it,
    :data:`_KERNEL_TEMPORARY_BYTES_PER_PAIR` per entry. The fit holds the whole kernel only when
    this fits within ``max_memory_gb`` less what the rest of the process keeps (at least 1 GiB:
    :func:`estimated_fit_bytes`); beyond, it reads the kernel by rows (:class:`_KernelRows`,
    within the limit by construction).

    Parameters
    ----------
    m : int
        Number of training rows.
    itemsize : int, default=8
        Bytes per kernel entry.

    Returns
    -------
    int
        Estimated peak bytes (tests/test_perceptrons.py checks it against tracemalloc's peak).
    """
    return int((int(itemsize) + _KERNEL_TEMPORARY_BYTES_PER_PAIR) * int(m) ** 2)


# Memory of the process beside a fit's own arrays: the interpreter, its imports (about 160 MB
# measured) and the caller's data.
_BASE_BYTES = 256 << 20

# Every fit may take this much for the rest of the process (interpreter, blocks in flight, O(m)
# arrays) before its kernel; more only when its O(m) arrays need more (millions of rows).
_PROCESS_FLOOR_BYTES = 1 << 30

#: Blocks of rows a fit has in flight at once (a block of K's rows, G's float64 rows from it, the
#: integer check's copy and a product's), each at most ``_BLOCK_BYTES``.
_BLOCKS_IN_FLIGHT = 6

#: Bytes a fit holds per training row and per input cell beside its kernel, from the first
#: allocation to the end of the fallback check: the float64 copy of the input and the sorted copy
#: of its distinct rows, the fallback check's frame of ranks and hashes (per cell); the labels,
#: the update counts or simplex point, the vectors of Algorithm 2 (ten buffers, ``G α``, the
#: diagonal, a row of G and its temporaries), the norm history (about 16 iterations per row, 8
#: bytes each), the training scores and the fitted expansion (per row). Measured as the growth
#: of the peak resident memory of fits in a fresh process on LED digits: about 1,000 bytes a row
#: for the λ-perceptron (20,000 to 100,000 rows) and 2,200 for the λ-MMP (3,000 to 8,000 rows),
#: allocator slack included; tests/test_memory.py checks the estimate against such fits.
_ROW_BYTES = 3072
_CELL_BYTES = 64


def _held_bytes(m: int, n_features: int) -> int:
    """The O(m) arrays of a fit on ``m`` rows of ``n_features`` columns (see :data:`_ROW_BYTES`)."""
    return int(m) * (_ROW_BYTES + _CELL_BYTES * int(n_features))


def _fixed_bytes() -> int:
    """The blocks in flight and the rows of G a small fit keeps: the same at every size."""
    return _BLOCKS_IN_FLIGHT * _BLOCK_BYTES + _G_ROWS_CACHE_BYTES


def _inner_rows(m: int) -> int:
    """Training rows of the fallback check's largest inner fit (folds of at most
    ``_FALLBACK_MAX_ROWS`` rows and a few more, each class rounded up)."""
    kept = min(int(m), _FALLBACK_MAX_ROWS + 2)
    return kept - kept // 3


def _least_fit_bytes(m: int, n_features: int, fallback: bool) -> int:
    """What a fit needs whatever its kernel's layout: the interpreter, the blocks in flight, its
    O(m) arrays and, with the fallback check, those of an inner fit beside them."""
    need = _BASE_BYTES + _fixed_bytes() + _held_bytes(m, n_features)
    return need + (_held_bytes(_inner_rows(m), n_features) if fallback else 0)


def _process_bytes(m: int, n_features: int, fallback: bool) -> int:
    """The part of ``max_memory_gb`` a fit keeps for everything but its kernel: at least 1 GiB."""
    return max(_PROCESS_FLOOR_BYTES, _least_fit_bytes(m, n_features, fallback))


def estimated_fit_bytes(m, n_features, *, n_unique=None, itemsize=8, max_memory_gb=4.0, boolean=True,
                        fallback=True) -> int:
    """Peak bytes a kernel perceptron's fit adds to its process: everything it holds at once.

    A fit holds, beside the interpreter and the caller's data (not counted here): blocks of rows
    in flight (``_BLOCKS_IN_FLIGHT`` of ``_BLOCK_BYTES``, and G's rows on a fit of at most 2048
    rows), its O(m) arrays (:data:`_ROW_BYTES` per row, :data:`_CELL_BYTES` per input cell), and

    * while it runs, its kernel: the whole ``m x m`` matrix with the temporaries of computing it
      (:func:`estimated_kernel_bytes`) when that fits within ``max_memory_gb`` less what the rest
      of the process keeps (at least 1 GiB) and, for the Boolean kernel, no input repeats; else
      the cached rows of the ``n_unique`` distinct inputs (:class:`_KernelRows`) within that;
    * during the fallback check (its kernel released), its O(m) arrays and one inner fit on at
      most two thirds of 10,000 rows (:func:`companion.interpretable.beats_default_class`'s
      subsample), whose own limit leaves room for what the outer fit holds.

    A fit whose O(m) arrays alone do not fit within ``max_memory_gb`` is refused before it
    computes any kernel entry (a ``ValueError`` naming the estimate and the remedy).

    Parameters
    ----------
    m, n_features : int
        Training rows and input columns.
    n_unique : int, optional
        Distinct training inputs (default ``m``).
    itemsize : int, default=8
        Bytes per kernel entry (4 for a Boolean kernel exact in float32).
    max_memory_gb : float or None, default=4.0
        The fit's limit.
    boolean : bool, default=True
        The Boolean kernel (read by distinct rows whenever an input repeats).
    fallback : bool, default=True
        Count the fallback check (``fallback="inner_cv"``).

    Returns
    -------
    int
        Estimated peak bytes added by the fit (tests/test_memory.py checks it against the peak
        resident memory of fits in a fresh process).
    """
    m, n_features = int(m), int(n_features)
    n_unique = m if n_unique is None else int(n_unique)
    limit = np.inf if max_memory_gb is None else float(max_memory_gb) * 2**30
    held = _held_bytes(m, n_features)
    process = _process_bytes(m, n_features, fallback)
    kernel = _kernel_bytes(m, n_unique, itemsize, max(0.0, limit - process), boolean)
    during_fit = _fixed_bytes() + held + kernel
    if not fallback:
        return int(during_fit)
    m_in = _inner_rows(m)
    limit_in = limit - (process - _PROCESS_FLOOR_BYTES)
    budget_in = max(0.0, limit_in - _process_bytes(m_in, n_features, False))
    kernel_in = _kernel_bytes(m_in, min(n_unique, m_in), itemsize, budget_in, boolean)
    during_check = _fixed_bytes() + held + _held_bytes(m_in, n_features) + kernel_in
    return int(max(during_fit, during_check))


def _kernel_bytes(m, n_unique, itemsize, budget, boolean):
    """Bytes of the kernel a fit holds within ``budget``: whole, or the distinct rows it caches."""
    whole = estimated_kernel_bytes(m, itemsize)
    if whole <= budget and not (boolean and n_unique < m):
        return whole
    capacity = min(n_unique, budget // max(1, n_unique * itemsize))
    return int(capacity * n_unique * itemsize)


class _GivenKernel:
    """A precomputed training kernel (``kernel="precomputed"``), read as :class:`_KernelRows` is."""

    def __init__(self, K):
        self.K, self.shape = K, K.shape

    def row(self, j):
        return self.K[j]

    def column(self, j):
        return self.K[:, j]

    def diagonal(self):
        return np.diagonal(self.K)

    def rows(self, index):
        """``K[index]`` (a view for a slice); C-contiguous, as the blocks of the computed kernel."""
        return self.K[index]

    def submatrix(self, rows, columns):
        """``K[rows][:, columns]``, laid out as numpy lays it out (column-major)."""
        return self.K[rows][:, columns]


class _KernelRows:
    """The training kernel ``K`` (m × m) of a fit, read by rows and never stored whole.

    Equal inputs have equal rows, so only the rows of the distinct inputs ``U`` are computed:
    ``K[i, j] = K_U[a_i, a_j]`` with ``a_i`` the index of ``x_i`` in ``U`` (Boolean data have few:
    at most 256 for 8 bits, whatever ``m``). Each row of ``K_U`` is computed by a kernel call
    of its own, ``k(U[a], U)``, so its bits do not depend on which other rows are asked for at
    the same time or on the cache (a BLAS product's last bits depend on the shape of the block it
    computes); with ``exact_in_blocks`` (the Boolean kernel: integer arithmetic, exact in any
    order) rows are computed in blocks. Rows are kept in a cache of at most ``budget_bytes``,
    least recently used evicted first; a budget that holds ``K_U`` computes each row once.

    Reads: :meth:`row`, :meth:`rows` (C-contiguous blocks), :meth:`column`, :meth:`diagonal`,
    the entries of the same matrix ``K`` whatever the order of the reads.
    """

    def __init__(self, compute, X, budget_bytes, *, exact_in_blocks):
        self.unique, first_rows, inverse = np.unique(X, axis=0, return_index=True, return_inverse=True)
        self.inverse = inverse.reshape(-1).astype(np.intp)
        self.first_rows = first_rows.astype(np.intp)  # a training row of each distinct input
        self.shape = (X.shape[0], X.shape[0])
        self._compute, self._exact_in_blocks, self._budget = compute, exact_in_blocks, float(budget_bytes)
        n_unique = len(self.unique)
        self._slot_of = np.full(n_unique, -1, dtype=np.intp)  # cache slot of each distinct row
        self._slots = None  # (capacity, n_unique) cached rows, allocated with the first rows
        self._row_in = self._last_used = None
        self._clock = 0

    def _compute_rows(self, wanted):
        """Rows ``wanted`` of ``K_U``, computed (one call per row, or by blocks when exact)."""
        if self._exact_in_blocks:
            step = _block_rows(len(self.unique))
            return np.concatenate([self._compute(self.unique[wanted[s : s + step]], self.unique)
                                   for s in range(0, len(wanted), step)])
        return np.concatenate([self._compute(self.unique[a : a + 1], self.unique) for a in wanted])

    def _unique_rows(self, wanted):
        """``K_U[wanted]`` (a new array), from the cache where it has them."""
        wanted = np.asarray(wanted, dtype=np.intp)
        slot = self._slot_of[wanted]
        missing = np.unique(wanted[slot < 0])
        if self._slots is None and not len(missing):  # nothing asked for yet: learn the dtype
            missing = np.zeros(1, dtype=np.intp)
        fresh = self._compute_rows(missing) if len(missing) else None
        if self._slots is None and fresh is not None:
            n_unique = len(self.unique)
            capacity = int(min(n_unique, self._budget // (n_unique * fresh.dtype.itemsize)))
            self._slots = np.empty((capacity, n_unique), dtype=fresh.dtype)
            self._row_in = np.full(capacity, -1, dtype=np.intp)
            self._last_used = np.full(capacity, -1, dtype=np.int64)  # free slots are used first
        dtype = self._slots.dtype
        out = np.empty((len(wanted), len(self.unique)), dtype=dtype)
        hit = slot >= 0
        out[hit] = self._slots[slot[hit]]
        if fresh is not None:
            out[~hit] = fresh[np.searchsorted(missing, wanted[~hit])]
            self._store(missing, fresh)
        self._clock += 1
        used = self._slot_of[wanted]
        self._last_used[used[used >= 0]] = self._clock
        return out

    def _store(self, rows, values):
        """Cache the computed ``rows``, evicting the least recently used ones (the latest kept)."""
        capacity = len(self._row_in)
        keep = min(capacity, len(rows))
        if keep == 0:
            return
        rows, values = rows[-keep:], values[-keep:]
        slots = np.argpartition(self._last_used, keep - 1)[:keep] if keep < capacity else np.arange(capacity)
        evicted = self._row_in[slots]
        self._slot_of[evicted[evicted >= 0]] = -1
        self._row_in[slots] = rows
        self._slot_of[rows] = slots
        self._slots[slots] = values

    def row(self, j):
        """``K[j]`` (a new array)."""
        slot = self._slot_of[self.inverse[j]]
        if slot >= 0:  # cached: what _unique_rows returns and records, without its general path
            self._clock += 1
            self._last_used[slot] = self._clock
            return self._slots[slot].take(self.inverse)
        return self._unique_rows(self.inverse[j : j + 1])[0].take(self.inverse)

    def rows(self, index):
        """``K[index]`` for a slice or an index array (a new C-contiguous array)."""
        return self._unique_rows(self.inverse[index]).take(self.inverse, axis=1)

    def submatrix(self, rows, columns):
        """``K[rows][:, columns]`` with the layout :meth:`_GivenKernel.submatrix` gives (column-major),
        gathered from the distinct rows without forming ``K[rows]``."""
        return self._unique_rows(self.inverse[rows])[:, self.inverse[columns]]

    def _over_unique_rows(self, take):
        """``take(block_rows, block)`` of every block of rows of ``K_U``, concatenated."""
        n_unique = len(self.unique)
        step = _block_rows(n_unique)
        blocks = [np.arange(s, min(s + step, n_unique)) for s in range(0, n_unique, step)]
        return np.concatenate([take(self._unique_rows(block), block) for block in blocks])

    def column(self, j):
        """``K[:, j]``, taken from the rows (a computed kernel need not be exactly symmetric)."""
        a = self.inverse[j]
        # a copy: the view values[:, a] would keep every block of rows alive (m x m in all)
        return self._over_unique_rows(lambda values, block: values[:, a].copy()).take(self.inverse)

    def diagonal(self):
        """``K[j, j]`` for every ``j``, from the rows."""
        return self._over_unique_rows(
            lambda values, block: values[np.arange(len(block)), block]
        ).take(self.inverse)


#: Largest ``G`` (bytes, m x m float64) whose rows :class:`_ExtendedGram` keeps once read:
#: 32 MB, m <= 2048 (paper 03's fits have m = 500), well inside the 1 GB base every fit may take.
_G_ROWS_CACHE_BYTES = 32 << 20

#: The largest ``m`` whose ``G`` the compiled λ-MMP holds whole (``m * m * 8 ≤ _G_ROWS_CACHE_BYTES``: 2048).
_COMPILED_MAX_ROWS = math.isqrt(_G_ROWS_CACHE_BYTES // 8)


class _ExtendedGram:
    """``G = diag(y) K diag(y) + λ I`` (:func:`companion.bounds.boolean_kernel.extended_gram`) by rows.

    Algorithms 1 and 2 read one row of ``G`` per step, so ``G`` is never stored: a row is
    ``(y_j y) * K[j]`` with ``λ`` added at ``j``, the same floating-point operations as
    ``extended_gram`` and so the same bits, from a kernel ``K`` that may be float32 (converted
    exactly to float64 before any arithmetic). Memory: ``K`` only, instead of ``K`` and ``G``,
    except on a small fit (``G`` within ``_G_ROWS_CACHE_BYTES``), whose rows are kept once read.
    """

    def __init__(self, K, y, lam):
        self.K, self.y, self.lam = K, np.asarray(y, dtype=np.float64), float(lam)
        self.shape = K.shape
        m = K.shape[0]
        # Algorithm 2 reads each row of G about 16 times on average (about 16 m steps): on a
        # small fit the rows read are kept, so each is computed once (the same bits either way)
        small = m * m * 8 <= _G_ROWS_CACHE_BYTES
        self._kept = np.empty((m, m)) if small else None
        self._is_kept = np.zeros(m, dtype=bool) if small else None

    def row(self, j):
        """``G[j]`` as float64, to be read only (a row kept on a small fit, else a new array)."""
        if self._kept is not None and self._is_kept[j]:
            return self._kept[j]
        values = (self.y[j] * self.y) * self.K.row(j)
        values[j] += self.lam
        if self._kept is not None:
            self._kept[j] = values
            self._is_kept[j] = True
        return values

    def column(self, j):
        """``G[:, j]`` (equal to ``G[j]`` for a symmetric ``K``; taken as a column all the same)."""
        values = (self.y * self.y[j]) * self.K.column(j)
        values[j] += self.lam
        return values

    def diagonal(self):
        return (self.y * self.y) * self.K.diagonal() + self.lam

    def exact_product_by_inputs(self, alpha):
        """``G α`` exactly, through the distinct inputs of a kernel read by rows, or None.

        ``(G α)_j = y_j Σ_a K_U[a_j, a] β_a + λ α_j`` with ``β_a = Σ_{i: a_i = a} y_i α_i``: one
        product with the ``U x U`` kernel of the distinct inputs instead of the ``m x m`` one.
        Only when every value is a whole number and every partial sum stays below ``2**53``
        (integer kernel, ``λ`` and ``α``: the λ-perceptron with the Boolean kernel of integer
        weights), so that the result is the exact one :func:`companion.numerics.exact_matvec` gives
        on the rows of ``G``; None otherwise (the caller reads ``G`` by rows).
        """
        K = self.K
        if not isinstance(K, _KernelRows) or not is_integer_valued(self.lam) or not is_integer_valued(alpha):
            return None
        signed = self.y * alpha
        size = float(np.abs(signed).sum())
        if size >= _EXACT_FLOAT_INTEGERS:
            return None
        beta = np.bincount(K.inverse, weights=signed, minlength=len(K.unique))  # exact: whole sums < 2**53
        n_unique = len(K.unique)
        step = _block_rows(n_unique)
        parts = []
        for start in range(0, n_unique, step):
            values = K._unique_rows(np.arange(start, min(start + step, n_unique)))
            if not is_integer_valued(values):
                return None
            if (float(np.abs(values).max(initial=0.0)) + abs(self.lam)) * size >= _EXACT_FLOAT_INTEGERS:
                return None
            parts.append(exact_matvec(values, beta))
        product = np.concatenate(parts)
        # each term and sum below 2**53: exact in float64
        return self.y * product[K.inverse] + self.lam * np.asarray(alpha, dtype=np.float64)

    def row_blocks(self):
        m = self.shape[0]
        step = _block_rows(m)
        return [slice(start, min(start + step, m)) for start in range(0, m, step)]

    def rows(self, block):
        """``G[block]`` as float64 for a slice ``block`` of rows."""
        values = (self.y[block, None] * self.y[None, :]) * self.K.rows(block)
        values[np.arange(values.shape[0]), np.arange(block.start, block.stop)] += self.lam
        return values


def _perceptron_updates(G, max_updates, progress="updates"):
    """Algorithm 1 in cyclic order: returns integer ``α``, the update count ``t`` and convergence.

    The cyclic sweep is reproduced without a loop over examples: after an update at ``j`` the next
    update is at the first violator ``(G α)_i ≤ 0`` with ``i > j``, wrapping around, because ``G α``
    only changes at updates. Each update adds column ``j`` of ``G`` to ``g = G α``. With
    ``COMPANION_PROGRESS`` set, a line ``progress: done/max_updates (elapsed)`` at most every few
    seconds (``companion._progress.progress_lines``).
    """
    tracker = progress_lines(progress, max_updates)
    m = G.shape[0]
    alpha = np.zeros(m, dtype=np.int64)
    g = np.zeros(m)
    violates = np.empty(m, dtype=bool)
    position = 0
    for n_updates in range(max_updates):
        if tracker is not None and not n_updates % _PROGRESS_EVERY:
            tracker.update(n_updates)
        np.less_equal(g, 0, out=violates)
        # The first violator at or after ``position``, else (wrapping around) the first one.
        j = position + int(violates[position:].argmax()) if position < m else m
        if j >= m or not violates[j]:
            j = int(violates.argmax())
            if not violates[j]:
                return alpha, n_updates, True
        alpha[j] += 1
        g += G.row(j)  # G is symmetric: add the row
        position = j + 1
    return alpha, max_updates, not np.any(g <= 0)


class MaximalMarginPerceptron(_BinaryKernelClassifier):
    """Greedy soft-margin maximal margin perceptron, "λ-MMP" (paper 03, Algorithm 2, Theorem 4).

    Minimises ``N(α) = αᵀ G α`` over the simplex (``w̃ = Σ α_i z_i`` is then the point of the
    convex hull of the extended points closest to the origin) by Kowalczyk's two step types: a
    step *toward* ``z_i`` and a step *away* from a support point ``z_i``; each iteration takes the
    step, over all ``i`` and both types, with the largest decrease of ``N`` (step rules
    reconstructed from paper 03, Section 4: Algorithm 2 names the two step types, not their
    step sizes). It stops when ``min_i (G α)_i ≥ (1 - tol) N`` (condition (10)).

    At every iteration ``1 / N ≤ min_f R[f, λ]`` (Eq. 11); at the stop the rescaled output
    ``f = w̃ / min_i (G α)_i`` has ``R[f, λ] ≤ N / min_i (Gα)_i² ≤ (1 - tol)^{-2} / N`` (Eq. 12).

    Scores as :class:`KernelPerceptron`: :meth:`decision_function` is ``f(x)``; for probabilities
    (``neg_log_loss``) calibrate it with ``CalibratedClassifierCV``.

    Parameters
    ----------
    kernel, degree, weights, gamma, kernel_params, scale, lam
        As in :class:`KernelPerceptron` (``scale="std"``: a kernel on real values is taken on
        each column divided by its standard deviation; the Boolean kernel's 0/1 inputs are
        divided by nothing).
    tol : float, default=1e-3
        ``ε`` of the stopping rule (10), in (0, 1).
    max_iter : int or None, default=None
        Cap on the number of iterations. ``None`` means ``max(200_000, 50 m)`` for ``m`` training
        points: the iterations grow with ``m`` (about ``16 m`` on LED digits at ``tol=1e-3``:
        32,596 at m = 2,000, 125,976 at m = 8,000), so a fixed cap fails on large samples; the
        floor keeps the earlier fixed default for ``m ≤ 4,000``. Reaching the cap warns
        (``ConvergenceWarning``) and keeps the current iterate if every extended point already
        has a positive margin; otherwise the fit fails with an error naming ``max_iter``.
    max_memory_gb : float or None, default=4.0
        As in :class:`KernelPerceptron`.

    fallback : {"inner_cv", None}, default="inner_cv"
        ``"inner_cv"``: the model becomes the constant majority class (``fallback_class_``,
        printed ``always C`` with a :class:`companion.interpretable.SingleClassWarning`) when
        it predicts one class on every training row or loses to the majority class on 3 inner
        stratified folds (:func:`companion.interpretable.beats_default_class`, CART's
        one-standard-error rule); not for ``kernel="precomputed"``. Its ``decision_function``
        is then the training log-odds of ``class_counts_`` (each class's training count), so
        that one-vs-rest over fallbacks picks the majority class. Beyond 10,000 training rows
        the folds are those of a stratified subsample of 10,000 rows (chosen by the rows'
        content, not their order), so the check's three inner fits cost a bounded share of a
        large fit (at 50,000 rows: three fits of 6,667 rows). ``None``: the paper's model as
        it is (notebook 03 passes it).
    compiled : bool, default=False
        ``True``: Algorithm 2's iterations run compiled by numba (an extra: ``companion[notebooks]``),
        about ten times faster, with the same iterates bit for bit (the same IEEE operations in
        the same order); for ``m ≤ 2,048`` training points, beyond which the numpy loop runs
        either way. ``False``: the numpy loop, which needs no extra. Notebook 03 passes ``True``.

    Attributes
    ----------
    complexity_ : int
        Size of the model: the terms ``c_i k(s_i, x)`` of the expansion (``n_support_``).
    alpha_ : ndarray of shape (n_samples,)
        Final point of the simplex.
    max_iter_ : int
        The cap used (``max_iter``, or its default for this ``m``).
    n_iter_ : int
    extended_norm_sq_ : float
        ``N = ‖w̃‖²``.
    lower_bound_ : float
        Eq. (11): ``1 / N``.
    risk_upper_bound_ : float
        Eq. (12): ``N / (min_i (G α)_i)²``.
    norm_history_ : ndarray
        ``N`` after every iteration (non-increasing).
    support_, n_support_, dual_coef_, support_vectors_, norm_sq_, risk_, training_error_, converged_, scale_
        As in :class:`KernelPerceptron`.
    unscaled_coef_, decision_scale_, n_ties_
        As in :class:`KernelPerceptron`; ``α`` is real here, so the scores are summed in a fixed
        order (:func:`companion.numerics.ordered_matvec`) rather than exactly, and every inner
        product of the iterations too: the iterates are the same bits on every machine.
    """

    # Read by tests/test_learner_properties.py (see KernelPerceptron).
    _row_order_dependence = (
        "Algorithm 2 stops at a (1 - tol)-approximate optimum reached by greedy steps whose ties "
        "(duplicated rows, frequent on Boolean data) go to the lowest index; permuted rows reach "
        "another approximate optimum, and a point whose f(x) is within that approximation of 0 "
        "can change sides (e.g. -1e-5 against +2e-4 on 40 random Boolean rows)."
    )

    _parameter_constraints: dict = {
        **_BinaryKernelClassifier._parameter_constraints,
        "tol": [Interval(Real, 0, 1, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left"), None],
        "compiled": ["boolean"],
    }

    def __init__(
        self, *, kernel="rbf", degree=2, weights=None, gamma="scale", kernel_params=None, scale="std", lam=4.0,
        tol=1e-3, max_iter=None, max_memory_gb=4.0, fallback="inner_cv", compiled=False,
    ):
        self.fallback = fallback
        self.compiled = compiled
        self.kernel = kernel
        self.scale = scale
        self.degree = degree
        self.weights = weights
        self.gamma = gamma
        self.kernel_params = kernel_params
        self.lam = lam
        self.tol = tol
        self.max_iter = max_iter
        self.max_memory_gb = max_memory_gb

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, **fit_params):
        """Run Algorithm 2 on ``(X, y)`` until the stopping rule (10) holds.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training inputs (0/1 for ``kernel="boolean"``; the training Gram matrix for
            ``kernel="precomputed"``).
        y : array-like of shape (n_samples,)
            Labels of any type, exactly two classes.
        **fit_params : dict
            None accepted: ``sample_weight`` is refused with the reason (Algorithm 2 stops at a
            ``(1 - tol)``-approximate optimum, which duplicated rows do not reach exactly).

        Returns
        -------
        self
            The fitted perceptron.

        Notes
        -----
        A fit estimated to take over a minute (:func:`_estimated_fit_seconds`) says so first, with
        the remedies, and shows its progress while it runs (:func:`companion._progress.announced_fit`,
        as the ball machines' fits); an interrupted fit (``KeyboardInterrupt``) leaves the
        perceptron as it was before the call.
        """
        self._refuse_fit_params(fit_params)
        with announced_fit(self, _estimated_fit_seconds(self, X), X, _LONG_FIT_REMEDY):
            return self._fit_iterations(X, y)

    def _fit_iterations(self, X, y):
        """:meth:`fit`'s work (the announcement and the interruption are :meth:`fit`'s)."""
        X, X_scaled, y_signed = self._fit_labels(X, y)  # X in its own units, X_scaled: X / scale_
        K = self._train_gram(X_scaled)
        G = _ExtendedGram(K, y_signed, self.lam)  # rows on demand: no second m × m matrix
        max_iter = _default_max_iter(G.shape[0]) if self.max_iter is None else int(self.max_iter)
        name = type(self).__name__
        steps = _compiled_mmp_steps(name) if self.compiled and G.shape[0] <= _COMPILED_MAX_ROWS else None
        alpha, g, history, converged = _mmp_iterations(G, self.tol, max_iter, f"{name} iterations", steps)
        norm = ordered_dot(alpha, g)
        min_margin = float(g.min())
        if min_margin <= 0 and not converged:
            # Ran out of iterations while some extended point is still on the wrong side of w̃:
            # w̃ / min_i (Gα)_i would flip signs, so there is no classifier to return.
            hint = " (with lam=0 the data may also be inseparable: use lam > 0)" if self.lam == 0 else ""
            raise ValueError(
                f"MaximalMarginPerceptron ran out of iterations: max_iter={max_iter} iterations ended before "
                f"every extended training point had a positive margin (min margin {min_margin:.3g} <= 0). "
                f"Raise max_iter{hint}."
            )
        if min_margin <= 0:
            # Converged to N = 0: the origin is in the convex hull of the extended points.
            raise ValueError(
                "the extended training points are not separable (min margin <= 0); use lam > 0 or a richer kernel"
            )
        if not converged:
            warnings.warn(
                f"MaximalMarginPerceptron reached max_iter={max_iter} iterations before the stopping rule (10) "
                f"held (tol={self.tol}); the result is the current iterate, with bound (12) not yet within "
                "(1 - tol)^-2 of bound (11). Raise max_iter for the converged classifier.",
                ConvergenceWarning,
                stacklevel=2,
            )
        self.max_iter_ = max_iter
        self.n_iter_ = int(history.size - 1)
        self.converged_ = bool(converged)
        self.norm_history_ = history
        self.extended_norm_sq_ = norm
        self.lower_bound_ = 1.0 / norm
        self.risk_upper_bound_ = norm / min_margin**2
        self._exact_scores_ = False
        self._store_expansion(X, K, y_signed, alpha, 1.0 / min_margin)
        del G, K  # released before the fallback check's inner fits, which hold kernels of their own
        self._fall_back_if_it_loses(X, y, None)
        return self


def _default_max_iter(m: int) -> int:
    """Iteration cap of Algorithm 2 for ``m`` training points when ``max_iter=None``.

    ``50 m``: on LED digits Algorithm 2 needs about ``16 m`` iterations at ``tol = 1e-3``; at least
    200_000, the earlier fixed cap, so that runs with ``m ≤ 4,000`` (paper 03's) are unchanged.
    """
    return max(200_000, 50 * int(m))


def _mmp_iterations(G, tol, max_iter, progress="iterations", compiled=None):
    """Algorithm 2: greedy toward/away steps on the simplex; returns ``α``, ``g = Gα``, ``N`` history.

    ``compiled``: None runs :func:`_mmp_iterations_numpy`; else what :func:`_compiled_mmp_steps`
    returns, which runs the same iterations, bit for bit, compiled by numba
    (:func:`companion._mmp_kernel.mmp_steps`, about ten times faster) on ``G`` held whole (its
    rows computed once, as :class:`_ExtendedGram` keeps them: ``m ≤ _COMPILED_MAX_ROWS``). With
    ``COMPANION_PROGRESS`` set, the same progress lines (the compiled loop runs
    ``_PROGRESS_EVERY`` iterations between two of them).
    """
    m = G.shape[0]
    if compiled is None:
        return _mmp_iterations_numpy(G, tol, max_iter, progress)
    if m > _COMPILED_MAX_ROWS:
        raise ValueError(f"the compiled λ-MMP holds G whole: m={m} > {_COMPILED_MAX_ROWS} rows")
    steps, pairwise_plan = compiled
    plan = pairwise_plan(m)  # N = Σ α_i g_i summed in numpy's order
    stack = np.empty(len(plan))
    tracker = progress_lines(progress, max_iter)
    diag = np.ascontiguousarray(G.diagonal(), dtype=np.float64)
    start = int(np.argmin(diag))
    alpha = np.zeros(m)
    alpha[start] = 1.0
    g = np.array(G.column(start), dtype=np.float64)  # a copy: updated in place
    norm = float(diag[start])
    dense = np.empty((m, m))
    for j in range(m):  # the rows the numpy loop reads, computed by G (the same bits)
        dense[j] = G.row(j)
    history = np.empty(min(max_iter, 1 << 12) + 1)
    history[0] = norm
    n_history = 1
    work = np.empty((6, m))
    keep = 1.0 - tol
    chunk = _PROGRESS_EVERY if tracker is not None else 1 << 16
    done, converged = 0, False
    while done < max_iter:
        if tracker is not None:
            tracker.update(done)
        n_steps = min(chunk, max_iter - done)
        if n_history + n_steps > history.size:  # doubled when full, as the numpy loop's
            history = np.concatenate([history, np.empty(max(history.size, n_steps))])
        taken, norm, converged = steps(dense, diag, alpha, g, norm, keep, n_steps, history, n_history, work,
                                         plan, stack)
        n_history += taken
        done += taken
        if converged:
            break
    else:
        converged = bool(g.min() >= (1.0 - tol) * norm)
    return alpha, g, history[:n_history].copy(), bool(converged)


def _compiled_mmp_steps(estimator_name="MaximalMarginPerceptron"):
    """:func:`companion._mmp_kernel.mmp_steps` compiled by numba for one fit, with
    :func:`companion._mmp_kernel.pairwise_plan` (``compiled=True``; numba is an extra of the
    notebooks, which the learners never need by default).

    Raises
    ------
    ImportError
        numba is not installed: the message names the estimator, the parameter and the remedy.
    """
    try:
        from companion._mmp_kernel import compiled_mmp_steps, pairwise_plan
        return compiled_mmp_steps(), pairwise_plan
    except ImportError as error:
        raise ImportError(
            f"{estimator_name}: compiled=True needs numba, which is not installed "
            f"(pip install 'companion[notebooks]', or pass compiled=False for the numpy loop: the same iterates)"
        ) from error


def _mmp_iterations_numpy(G, tol, max_iter, progress="iterations"):
    """Algorithm 2's iterations written with numpy (what :func:`_mmp_iterations` compiles).

    Each iteration evaluates, for every ``i``, the decrease of ``N`` of the best step toward
    ``z_i`` and away from it, and takes the largest. The arithmetic is written into buffers
    allocated once (the loop runs about ``16 m`` times, and on a few hundred points numpy's
    per-call cost, not the arithmetic, is the time), each value computed by the same
    floating-point operations in the same order as the plain expressions in the comments, so the
    iterates are the same bits. With ``COMPANION_PROGRESS`` set, a line ``progress:
    done/max_iter (elapsed)`` at most every few seconds (``companion._progress.progress_lines``).
    """
    tracker = progress_lines(progress, max_iter)
    diag = G.diagonal()
    m = G.shape[0]
    start = int(np.argmin(diag))
    alpha = np.zeros(m)
    alpha[start] = 1.0
    g = G.column(start)
    norm = float(diag[start])
    # N after every iteration, in a float64 buffer doubled when full (a list of Python floats
    # takes 32 bytes an entry, about 16 entries a row on LED digits)
    history = np.empty(min(max_iter, 1 << 12) + 1)
    history[0] = norm
    n_history = 1
    converged = False
    keep = 1.0 - tol
    gap, slope, twice_slope, ratio, gamma_a, gamma_b, norm_a, norm_b, cap, work = np.empty((10, m))
    minimum, multiply, subtract, add, divide = np.minimum.reduce, np.multiply, np.subtract, np.add, np.divide
    maximum, negative, total = np.maximum, np.negative, np.add.reduce
    # clip(x, lo, hi) as two public ufuncs (the same values, NaN included): ndarray.clip's
    # Python-level argument handling costs more than the arithmetic on a few hundred points
    elementwise_minimum = np.minimum

    def clip(values, low, high, out):
        return elementwise_minimum(maximum(values, low, out=out), high, out=out)
    for iteration in range(max_iter):
        if tracker is not None and not iteration % _PROGRESS_EVERY:
            tracker.update(iteration)
        if minimum(g) >= keep * norm:
            converged = True
            break
        # gap = max(N - 2 g + diag, 1e-300) = ‖w̃ - z_i‖²; it is 0 only when w̃ = z_i, where the
        # numerators below vanish too. slope = N - g = ⟨w̃, w̃ - z_i⟩.
        multiply(g, 2.0, out=work)
        subtract(norm, work, out=work)
        add(work, diag, out=work)
        maximum(work, 1e-300, out=gap)
        subtract(norm, g, out=slope)
        divide(slope, gap, out=ratio)
        multiply(slope, 2.0, out=twice_slope)
        # (A) toward z_i: w̃ <- (1-γ) w̃ + γ z_i, γ = clip(slope / gap, 0, 1);
        # N(γ) = N - γ (2 slope - γ gap).
        clip(ratio, 0.0, 1.0, out=gamma_a)
        multiply(gamma_a, gap, out=work)
        subtract(twice_slope, work, out=work)
        multiply(gamma_a, work, out=work)
        subtract(norm, work, out=norm_a)
        # (B) away from z_i: w̃ <- (1+γ) w̃ - γ z_i, γ = clip(-slope / gap, 0, cap) with
        # cap = α_i / max(1 - α_i, 1e-300), which keeps α_i ≥ 0; N(γ) = N + γ (2 slope + γ gap).
        # (-slope) / gap is -(slope / gap) exactly (IEEE division is sign-symmetric).
        subtract(1.0, alpha, out=work)
        maximum(work, 1e-300, out=work)
        divide(alpha, work, out=cap)
        negative(ratio, out=work)
        clip(work, 0.0, cap, out=gamma_b)
        multiply(gamma_b, gap, out=work)
        add(twice_slope, work, out=work)
        multiply(gamma_b, work, out=work)
        add(norm, work, out=norm_b)
        best_a, best_b = int(norm_a.argmin()), int(norm_b.argmin())
        if norm_a[best_a] <= norm_b[best_b]:
            i, gamma = best_a, gamma_a[best_a]
            alpha *= 1.0 - gamma
            alpha[i] += gamma
            g *= 1.0 - gamma
            multiply(G.row(i), gamma, out=work)  # G is symmetric: a row
            g += work
        else:
            i, gamma = best_b, gamma_b[best_b]
            alpha *= 1.0 + gamma
            alpha[i] -= gamma
            if gamma >= cap[i]:
                alpha[i] = 0.0  # the point leaves the support exactly
            g *= 1.0 + gamma
            multiply(G.row(i), gamma, out=work)
            g -= work
        # N = α·g summed by numpy in a fixed order, not BLAS (companion.numerics.ordered_dot):
        # the same bits on every machine.
        multiply(alpha, g, out=work)
        norm = float(total(work))  # what work.sum() computes (pairwise), without its wrapper
        if n_history == history.size:
            history = np.concatenate([history, np.empty(min(history.size, max_iter + 1 - history.size))])
        history[n_history] = norm
        n_history += 1
    else:
        converged = bool(g.min() >= (1.0 - tol) * norm)
    return alpha, g, history[:n_history].copy(), converged


class MaskPerceptron(InterpretableMixin, ClassifierMixin, BaseEstimator):
    """Greedy sparse polynomial classifier in the spirit of the mask perceptron (paper 03, Section 5).

    Kowalczyk & Ferrà's original heuristics are not available; this is our reconstruction of
    them from paper 03's description (Section 5). Starting from the constant monomial, it repeatedly scores every candidate monomial
    ``x^I`` of degree ≤ ``degree`` by the size of the risk gradient ``|Σ_i ξ_i y_i x_i^I|``
    (``ξ_i = (1 - y_i f(x_i))_+``), refits the ``n_candidates`` best-scoring ones, and adds the one
    giving the lowest regularised risk ``R[f, λ] = Σ_I w_I²/c_|I| + (1/λ) Σ ξ_i²``; it stops after
    ``n_terms`` non-constant terms or when the risk stops decreasing.

    Ties: scores are summed in a fixed order (not BLAS), and scores within a relative ``1e-9``
    (absolute below 1) of the best remaining one are tied, the lower index shortlisted first (a
    score within it of 0 is 0): the scores carry the last bits of the previous refit, which
    depend on the BLAS kernel. Refitted risks within a relative ``1e-9`` are tied and the
    best-scored candidate among them is added. At degree 1 or 2
    the candidates' matrix is never built: a product of the inputs with a rounding bound
    rules out the candidates that cannot be shortlisted, and the others are scored by the same
    fixed-order sums, so the model is the one the full matrix gives.

    With ``complement=True`` the inputs are extended by ``1 - x`` (the Standing Assumption), so
    the candidates are conjunctions of literals on distinct variables (99 for 7 variables and
    degree 2, 2187 for degree 7). Inputs need not be Boolean: a monomial is a product of columns.

    Scale: each column is first divided by its largest training magnitude ``max |x|``
    (``column_divisors_``), so the penalty weighs every column alike and no column's units decide
    the model: a column multiplied by ``c > 0`` has its divisor multiplied by ``c`` (the same bits
    for a power of two, else up to the last bit). A 0/1 column (the paper's setting) is divided by 1,
    left as it is. (Before issue 58 the divisor was the power of two that brought ``max |x|`` into
    ``(0.5, 1]``: a column times 10^4 changed the model.)

    Scores: :meth:`decision_function` is the polynomial ``f(x)`` (positive: ``classes_[1]``; ties
    go to ``classes_[0]``); no ``predict_proba`` (calibrate with ``CalibratedClassifierCV`` for
    ``neg_log_loss``). ``to_text()`` writes the polynomial in the input's column names.

    Parameters
    ----------
    degree : int, default=2
        Maximal degree of a term.
    n_terms : int, default=10
        Maximal number of non-constant terms (Table 1: 10 for column 1, 26 for column 2).
    weights : None, float or array-like, default=None
        Complexity weights ``c_i`` of the norm (Eq. 4).
    lam : float, default=4.0
        Regularisation constant ``λ > 0``.
    complement : bool, default=True
        Append the complemented inputs ``1 - x``.
    n_candidates : int, default=10
        How many top-scoring candidates are refitted at each step.
    max_memory_gb : float or None, default=4.0
        Largest memory the scoring of the candidate monomials may take
        (:func:`estimated_candidate_bytes`: at degree 0 or 3 and more, a matrix of ``n_samples`` rows
        and one column per monomial; at degree 1 or 2, products of the inputs only); beyond
        it ``fit`` refuses at once, saying how much it would need. None: no limit.

    fallback : {"inner_cv", None}, default="inner_cv"
        ``"inner_cv"``: the model becomes the constant majority class (``fallback_class_``,
        printed ``always C`` with a :class:`companion.interpretable.SingleClassWarning`) when
        it predicts one class on every training row or loses to the majority class on 3 inner
        stratified folds (:func:`companion.interpretable.beats_default_class`, CART's
        one-standard-error rule); not for ``kernel="precomputed"``. Its ``decision_function``
        is then the training log-odds of ``class_counts_`` (each class's training count), so
        that one-vs-rest over fallbacks picks the majority class. Beyond 10,000 training rows
        the folds are those of a stratified subsample of 10,000 rows (chosen by the rows'
        content, not their order), so the check's three inner fits cost a bounded share of a
        large fit (at 50,000 rows: three fits of 6,667 rows). ``None``: the paper's model as
        it is (notebook 03 passes it).

    Attributes
    ----------
    complexity_ : int
        Size of the model: the literals of its monomials (the constant term has none).
    classes_ : ndarray of shape (2,)
    monomials_ : list of tuple of int
        The selected monomials (``()`` is the constant) on the (complemented) columns.
    coef_ : ndarray
        Polynomial coefficients ``w_I`` of the selected monomials.
    n_terms_ : int
        Number of non-constant terms.
    norm_sq_, risk_, training_error_ : float
        ``training_error_`` counts ``y f(x) ≤ 0`` (ties are errors, as the paper's ``err(f)``).
    n_ties_ : int
        Training points with ``f(x) = 0`` exactly; :meth:`predict` sends them to ``classes_[0]``.
    column_divisors_ : ndarray of float of shape (n_features_in_,)
        What each input column is divided by: its largest training magnitude (1 for a column
        of zeros; 1 for a 0/1 column: left as it is).
    risk_path_ : ndarray
        ``R[f, λ]`` after each added term (first entry: constant only).

    Notes
    -----
    **Sample weights** weigh each row's squared slack in the risk (see :meth:`fit`); an
    integer weight is that many copies of the row.

    **Exported model.** ``to_dict()["model"]`` holds ``terms``, each with ``monomial`` (column
    positions on the complemented inputs), ``literals`` (``{"column": name, "negated": bool}``,
    ``negated`` meaning ``1 - x``) and ``coef``, so that ``f(x) = Σ coef · Π literals``, where
    ``x`` is the column divided by ``column_divisors[j]``; and the fit's ``norm_sq`` and
    ``risk``. ``rules_frame(X, y)`` lists the terms: a term *decides* the
    rows where its monomial is non-zero, and its ``prediction`` is the class its sign favours.
    """

    _row_order_dependence = (
        "candidate scores and refitted risks are sums over the training rows taken in row order; two "
        "candidates whose true scores are equal can be ranked by the rounding of those sums, so a "
        "permuted row order can shortlist or add the other one and the greedy path diverges (1 of the "
        "first 200 random 40-row Boolean problems of tests/test_learner_properties.py)"
    )

    #: max |X| it rescales exactly (companion._scale)
    _scale_range = {"low": 2.0**-1000, "high": None, "why": "it divides each column by a power of two, which is exact only for normal numbers (above 2**-1022), not for subnormal ones"}
    _parameter_constraints: dict = {
        "degree": [Interval(Integral, 0, None, closed="left")],
        "n_terms": [Interval(Integral, 0, None, closed="left")],
        "weights": [Interval(Real, 0, None, closed="neither"), "array-like", None],
        "lam": [Interval(Real, 0, None, closed="neither")],
        "complement": ["boolean"],
        "n_candidates": [Interval(Integral, 1, None, closed="left")],
        "max_memory_gb": [Interval(Real, 0, None, closed="neither"), None],
        "fallback": [StrOptions({"inner_cv"}), None],
    }

    def __init__(self, *, degree=2, n_terms=10, weights=None, lam=4.0, complement=True, n_candidates=10,
                 max_memory_gb=4.0, fallback="inner_cv"):
        self.fallback = fallback
        self.degree = degree
        self.n_terms = n_terms
        self.weights = weights
        self.lam = lam
        self.complement = complement
        self.n_candidates = n_candidates
        self.max_memory_gb = max_memory_gb

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _expand(self, X):
        return np.hstack([X, 1.0 - X]) if self.complement else X

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Select up to ``n_terms`` monomials greedily and fit their coefficients.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Real inputs (0/1 in the paper's setting); a monomial is a product of columns.
        y : array-like of shape (n_samples,)
            Labels of any type, exactly two classes.
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights of the rows in the loss: ``R = Σ_I w_I²/c_|I| + (1/λ) Σ_i s_i ξ_i²``
            (and in the gradient scores). An integer weight acts as that many copies of the row,
            a weight 0 drops it (up to the rounding of the refits, within ``1e-9`` of the risk).

        Returns
        -------
        self
            The fitted classifier.
        """
        check_sample_weight(self, sample_weight, X)  # one refusal for every learner (companion._weights)
        check_learner_scale(self, X)  # the input scale its arithmetic handles (companion._scale)
        c = degree_weights(self.degree, self.weights)
        X = numeric_input(self, X, reset=True)  # nominal columns, missing cells: the one pipeline
        check_numeric_input(X, type(self).__name__)
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.shape[0] != 2:
            raise binary_only_error(type(self).__name__, self.classes_.shape[0])
        y_signed = np.where(y == self.classes_[1], 1.0, -1.0)
        sw = None if sample_weight is None else _check_sample_weight(
            sample_weight, X, dtype=np.float64, ensure_non_negative=True)
        if sw is not None:
            keep = sw > 0  # a row of weight 0 is a dropped row, bit for bit
            X, y_signed, sw = X[keep], y_signed[keep], sw[keep]
        raw = X  # the inner-fold fallback refits on the input as given
        # Each column divided by its largest |value|: the same numbers, so the same model, in any
        # units (bit for bit at a power-of-two scale, where both are multiplied by it); a 0/1
        # column is left as it is.
        self.column_divisors_ = largest_magnitudes(X)
        X = self._rescaled(X)
        n_vars = X.shape[1]
        # the candidates as arrays (literal_monomials or all_monomials); tuples of the selected only
        positions, degrees = monomial_positions(n_vars, self.degree, literals=self.complement)
        check_memory(  # the candidates' columns, before they are allocated (companion._resources)
            self, estimated_candidate_bytes(X.shape[0], len(degrees), self.degree),
            f"the scores of its {len(degrees)} candidate monomials on {X.shape[0]} rows",
            "lower degree, set complement=False, or fit on fewer rows or columns",
        )
        # columns √c_|I| x^I of the candidates: all of them, or (degree 1 or 2) those asked for
        pool = (_CandidatePairs if 1 <= self.degree <= 2 else _CandidateMatrix)(self._expand(X), positions, degrees, c)
        # The pairs' products are small ((2n + 1)^2 entries): BLAS threads would only fight the
        # caller's own workers (20 times slower on a busy second core, measured), so one thread.
        with threadpool_limits(limits=1, user_api="blas"):
            selected = [0]  # the constant monomial comes first in both enumerations
            v, risk = _squared_hinge_fit(pool.columns(selected), y_signed, self.lam, sw)
            path = [risk]
            w_signed = y_signed if sw is None else sw * y_signed
            while len(selected) - 1 < self.n_terms:
                current = pool.columns(selected)
                slack = np.maximum(0.0, 1.0 - y_signed * ordered_matvec(current, v))
                # the best-scored by |∂R/∂v_I| at v_I = 0 (fixed-order sums: see _CandidateMatrix)
                shortlist = pool.shortlist(slack * w_signed, selected, self.n_candidates)
                if shortlist.size == 0:
                    break
                # A handful of small refits (n_candidates), not a loop over all candidates.
                extra = pool.columns(shortlist)
                fits = [_squared_hinge_fit(_with_column(current, extra[:, j]), y_signed, self.lam, sw)
                        for j in range(shortlist.size)]
                best = first_near_min([r for _, r in fits], rtol=_RISK_TIE_TOLERANCE)
                if fits[best][1] >= risk - 1e-10 * max(1.0, risk):
                    break
                selected.append(int(shortlist[best]))
                v, risk = fits[best]
                path.append(risk)
        self.monomials_ = monomial_tuples(positions[selected], degrees[selected])
        degrees = degrees[selected]
        self.coef_ = v * np.sqrt(c[degrees])
        self.n_terms_ = len(selected) - 1
        self.complexity_ = int(degrees.sum())  # literals of the monomials; the constant has none
        self.norm_sq_ = ordered_dot(v, v)
        self.risk_ = float(risk)
        self.risk_path_ = np.array(path)
        train_values = ordered_matvec(pool.columns(selected), v)
        self.n_ties_ = int(np.count_nonzero(train_values == 0))
        wrong = y_signed * train_values <= 0  # ties are errors
        self.training_error_ = float(np.mean(wrong) if sw is None else np.sum(sw * wrong) / np.sum(sw))
        self._fall_back_if_it_loses(raw, self.classes_[(y_signed > 0).astype(int)], sw)
        return self

    def _rescaled(self, X):
        """``X`` with column ``j`` divided by ``column_divisors_[j]``; as it is for a model built
        by hand or pickled without ``column_divisors_``."""
        divisors = getattr(self, "column_divisors_", None)
        return X if divisors is None or (divisors == 1).all() else X / divisors

    def decision_function(self, X):
        """The polynomial ``f(x) = Σ_I w_I x^I``; positive values predict ``classes_[1]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs with the training columns.

        Returns
        -------
        ndarray of shape (n_samples,)
            ``f(x)``.
        """
        check_is_fitted(self)
        X = self._rescaled(validate_data(self, numeric_input(self, X, reset=False), reset=False, dtype=np.float64))
        return _fallback_scores(self, ordered_matvec(monomial_features(self._expand(X), self.monomials_), self.coef_))

    def predict(self, X):
        """Class labels from the sign of :meth:`decision_function`; ``f(x) = 0`` gives ``classes_[0]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs with the training columns.

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels of ``classes_``.
        """
        positive = self.decision_function(X) > 0
        if getattr(self, "fallback_class_", None) is not None:
            return np.full(positive.shape, self.fallback_class_, dtype=self.classes_.dtype)
        return self.classes_[positive.astype(int)]

    def _render_text(self, feature_names, *, decimals=3) -> str:
        """The polynomial, one signed term per line; ``¬age`` is the complemented input ``1 - age``,
        ``(age/63.5)`` the column divided by its largest training magnitude (``column_divisors_``).

        Called by ``to_text(feature_names=None)`` (:class:`companion.interpretable.InterpretableMixin`):
        columns are named by ``feature_names_in_`` or ``x0, x1, ...``; a product of columns is
        written as their names separated by spaces, ``1`` is the constant.

        Parameters
        ----------
        feature_names : sequence of str
            One name per input column.
        decimals : int or None, default=3
            Decimal places of the coefficients (None: 4 significant digits).
        """
        names = self._term_names(feature_names, decimals)
        lines = [
            f"predict {_label_text(self.classes_[1])} if f(x) > 0, else {_label_text(self.classes_[0])}, where f(x) ="
        ]
        number = "{:+.4g}" if decimals is None else "{:+.%df}" % decimals
        lines += [f"  {number.format(w)} {name}" for w, name in zip(self.coef_, names)]
        return "\n".join(lines)

    def _term_names(self, feature_names, decimals=3):
        divisors = getattr(self, "column_divisors_", None)
        names = feature_names if divisors is None else [
            _rescaled_name(n, d, decimals) for n, d in zip(feature_names, divisors)]
        return monomial_names(self.monomials_, self.n_features_in_ if self.complement else None, names)

    # -- exported model and rules -----------------------------------------------------------------
    def _model_to_dict(self) -> dict:
        """The polynomial: each term's literals (column names, ``¬`` for ``1 - x``) and coefficient."""
        names = resolve_feature_names(self)
        n = self.n_features_in_
        terms = []
        for monomial, w in zip(self.monomials_, self.coef_):
            literals = [
                {"column": names[j % n] if self.complement else names[j], "negated": bool(self.complement and j >= n)}
                for j in monomial
            ]
            terms.append({"monomial": list(monomial), "literals": literals, "coef": float(w)})
        divisors = getattr(self, "column_divisors_", None)
        return {"terms": terms, "column_divisors": [float(d) for d in (divisors if divisors is not None else [1.0] * n)],
                "norm_sq": self.norm_sq_, "risk": self.risk_}

    def _model_from_dict(self, model):
        self.monomials_ = [tuple(int(j) for j in term["monomial"]) for term in model["terms"]]
        self.coef_ = np.array([float(term["coef"]) for term in model["terms"]], dtype=float)
        self.n_terms_ = sum(1 for m in self.monomials_ if m)
        self.complexity_ = int(sum(len(m) for m in self.monomials_))
        self.norm_sq_, self.risk_ = float(model["norm_sq"]), float(model["risk"])
        self.column_divisors_ = np.array(model.get("column_divisors") or [1.0] * self.n_features_in_, dtype=float)

    def _rule_records(self, feature_names):
        """One record per term: its monomial as ``to_text`` names it, the class its sign favours."""
        return [
            {"condition": name, "prediction": self.classes_[int(w > 0)], "coef": float(w)}
            for name, w in zip(self._term_names(feature_names), self.coef_)
        ]

    def _rule_decisions(self, X):
        """A term *decides* the rows where it is non-zero (its monomial holds on 0/1 inputs)."""
        check_is_fitted(self)
        X = self._rescaled(validate_data(self, numeric_input(self, X, reset=False), reset=False, dtype=np.float64))
        return monomial_features(self._expand(X), self.monomials_) != 0


def _rescaled_name(name: str, divisor: float, decimals=3) -> str:
    """A column's name as the polynomial reads it: ``(age/63.5)`` for ``age`` divided by 63.5
    (to ``decimals`` places as every number of ``to_text``; the exported model keeps it whole)."""
    if divisor == 1:
        return name
    return f"({name}/{format_number(float(divisor), decimals)})"


def estimated_candidate_bytes(m: int, n_candidates: int, degree: int) -> int:
    """Peak bytes of a MaskPerceptron fit's candidate monomials, before they are allocated.

    Degree 0 or 3 and more: :func:`companion.kernels.monomial_features` gathers the candidates'
    columns into an ``m x n_candidates`` float64 matrix, ``degree`` factors at a time, scaled
    by the complexity weights: ``degree + 2`` float64 entries per row and candidate. Degree 1
    or 2: no such matrix; the inputs (with their complements and a column of ones, ``w``
    columns, ``w <= 2 √n_candidates + 1``) are read through ``w x w`` products, about 12
    float64 copies of the ``m x w`` inputs and 24 entries per candidate (bounds, indices,
    scores). Measured with tracemalloc (tests/test_memory.py): 8.3 copies at most.

    Parameters
    ----------
    m : int
        Training rows.
    n_candidates : int
        Candidate monomials (``literal_monomials`` or ``all_monomials`` of the inputs).
    degree : int
        The fit's ``degree``.

    Returns
    -------
    int
        Estimated peak bytes.
    """
    m, n_candidates, degree = int(m), int(n_candidates), int(degree)
    if degree >= 3 or degree <= 0:  # degree 0: the constant's one column
        return 8 * m * n_candidates * (max(degree, 1) + 2)
    width = n_candidates if degree == 1 else int(np.ceil(2 * np.sqrt(n_candidates))) + 1
    return 8 * (12 * m * width + 24 * n_candidates)


# Two refitted risks closer than this (relative) are tied: the refits solve small linear systems
# through LAPACK, whose last bits depend on the BLAS kernel, so exact equality cannot be relied on.
_RISK_TIE_TOLERANCE = 1e-9

# Two candidates' scores closer than this (relative to the larger, absolute below 1) are tied, and
# a score within it of 0 is 0: the scores are sums of the slacks of the last refit, whose last bits
# come from LAPACK too, so candidates whose scores are equal in exact arithmetic (different 0/1
# columns agreeing on the rows with slack) would otherwise be ranked by the BLAS kernel's rounding.
_SCORE_TIE_TOLERANCE = 1e-9


#: Entries of the block of products :func:`_column_scores` forms and sums at a time (~2 MB).
_SCORE_BLOCK_ELEMENTS = 2**18


def _column_scores(features, weights):
    """``Σ_i weights_i features[i, k]`` for every column ``k``: ``ordered_matvec(features.T,
    weights)``, bit for bit, without its (n_columns, n_samples) temporary of products.

    The candidates' matrix is column-major (:func:`companion.kernels.monomial_features` gathers
    it so), hence ``features.T`` is a C-contiguous matrix whose rows numpy sums pairwise, an order
    fixed by the row length alone: the products of a block of columns at a time, each row summed
    the same way, give the same numbers (never BLAS's). Another layout takes ``ordered_matvec``.
    """
    weights = np.asarray(weights, dtype=np.float64)
    rows = features.T if isinstance(features, np.ndarray) else None
    if rows is None or rows.dtype != np.float64 or rows.ndim != 2 or not rows.flags.c_contiguous:
        return ordered_matvec(features.T, weights)
    n_columns, n_samples = rows.shape
    scores = np.empty(n_columns)
    block = max(1, _SCORE_BLOCK_ELEMENTS // max(n_samples, 1))
    buffer = np.empty((min(block, n_columns), n_samples))
    for start in range(0, n_columns, block):
        stop = min(start + block, n_columns)
        products = np.multiply(rows[start:stop], weights[None, :], out=buffer[: stop - start])
        products.sum(axis=1, out=scores[start:stop])
    return scores


class _CandidateMatrix:
    """The candidate monomials of a MaskPerceptron fit, every column built: any degree.

    :meth:`shortlist` scores every candidate ``k`` by ``|Σ_i w_i Φ_ik|`` (:func:`_column_scores`,
    a fixed-order sum, not BLAS: monomials whose training columns are identical get identical
    scores) and returns the ``n`` best by :func:`_top_scores` (scores tied within a tolerance,
    the lower index first), without the excluded ones and those scored 0.
    """

    def __init__(self, inputs, positions, degrees, c):
        self.features = monomial_columns(inputs, positions, degrees, c)

    def columns(self, index):
        """``Φ[:, index]`` (column-major)."""
        return self.features[:, index]

    def shortlist(self, weights, excluded, n):
        score = np.abs(_column_scores(self.features, weights))
        score[excluded] = -np.inf
        return _top_scores(score, n)


class _CandidatePairs:
    """The candidate monomials of degree 1 or 2 of a MaskPerceptron fit, without their matrix.

    The same shortlist as :class:`_CandidateMatrix`, index for index, reading the inputs only:
    the score of the monomial ``x_a x_b`` is, up to rounding, ``√c_2 G_ab`` with ``G = Xᵀ diag(w)
    X`` (the inputs with a column of ones, so that ``x_a = x_a · 1`` and ``1 = 1 · 1``), a
    ``(2n + 1)²`` matrix product instead of the ``m x n_candidates`` one. Any order of summing
    ``m`` products is within ``γ_m Σ_i |x_ia x_ib w_i|`` (``γ_m = m u / (1 - m u)``, Higham,
    *Accuracy and Stability of Numerical Algorithms*, 2nd ed., §3.1) of the exact sum, so the
    fixed-order score and the product's differ by at most ``2 γ_{m+3} √c_2 Σ_i |x_ia x_ib w_i|``
    (the products forming the monomial's column included), itself at most ``2 γ_{m+3} √c_2
    max_i |w_i| O_ab`` with ``O = |X|ᵀ |X|`` computed once per fit; the bound used is 4 times
    that, plus ``8 (m + 1)`` times the smallest normal number for underflow. Every candidate whose upper
    bound reaches the tie threshold (:func:`_tied_with`) of the ``n``-th largest lower bound is
    scored by the fixed-order sum of its own column; no other can be taken by :func:`_top_scores`,
    so the shortlist and its order are those of every candidate's fixed-order score.
    """

    def __init__(self, inputs, positions, degrees, c):
        self.inputs, self.positions, self.degrees, self.c = inputs, positions, degrees, c
        ones = inputs.shape[1]  # the index of the appended column of ones
        self.left = np.where(degrees >= 1, positions[:, 0], ones)
        self.right = np.where(degrees >= 2, positions[:, min(1, positions.shape[1] - 1)], ones)
        self.scale = np.sqrt(c[degrees])
        self.extended = np.hstack([inputs, np.ones((inputs.shape[0], 1))])
        magnitudes = np.abs(self.extended)
        self.overlaps = (magnitudes.T @ magnitudes)[self.left, self.right]  # Σ_i |x_ia x_ib|

    def columns(self, index):
        """``Φ[:, index]`` (column-major), built as :class:`_CandidateMatrix` holds it."""
        index = np.asarray(index, dtype=np.intp)
        return monomial_columns(self.inputs, self.positions[index], self.degrees[index], self.c)

    def score_bounds(self, weights):
        """``(lower, upper)``: every candidate's fixed-order score ``|Σ_i w_i Φ_ik|`` is in between."""
        m = weights.shape[0]
        gram = self.extended.T @ (weights[:, None] * self.extended)
        estimate = np.abs(self.scale * gram[self.left, self.right])
        largest = float(np.max(np.abs(weights), initial=0.0))
        error = 8.0 * (m + 4) * np.finfo(float).eps / 2 * largest * self.scale * self.overlaps
        error += 8.0 * (m + 1) * np.finfo(float).tiny
        return estimate - error, estimate + error

    def shortlist(self, weights, excluded, n):
        lower, upper = self.score_bounds(weights)
        lower[excluded] = upper[excluded] = -np.inf
        if n < lower.size - len(excluded):
            # every score _top_scores can take is tied with the n-th largest score or better,
            # which is at least the n-th largest lower bound
            threshold = _tied_with(-np.partition(-lower, n - 1)[n - 1])
            contenders = np.flatnonzero(upper >= threshold)
        else:
            contenders = np.setdiff1d(np.arange(lower.size), excluded)
        score = np.full(lower.size, -np.inf)
        score[contenders] = np.abs(_column_scores(self.columns(contenders), weights))
        return _top_scores(score, n)


def _with_column(columns, column):
    """``columns`` with ``column`` appended, column-major as ``Φ[:, selected + [k]]`` is (the
    fixed-order sums of the refits read the layout)."""
    out = np.empty((columns.shape[0], columns.shape[1] + 1), order="F")
    out[:, :-1] = columns
    out[:, -1] = column
    return out


def _tied_with(value, rtol=_SCORE_TIE_TOLERANCE):
    """The smallest score tied with ``value``: ``value - rtol * max(1, |value|)`` (increasing in
    ``value``, as :func:`companion.numerics.first_near_min`'s rule)."""
    return value - rtol * max(1.0, abs(value))


def _top_scores(score, k, rtol=_SCORE_TIE_TOLERANCE):
    """The ``k`` best positive scores' indices, best first, with ties by a tolerance.

    The rule, applied ``k`` times: of the scores not yet taken, those within ``rtol`` (relative,
    absolute below 1; :func:`_tied_with`) of the largest are tied, and the lowest index among
    them is taken. A score within the tolerance of 0 (or below) is never taken. Only the scores
    tied with the ``k``-th largest or better can be taken (:func:`_tied_with` is increasing), so
    a partition finds them and the loop runs over those few, ``k`` times.
    """
    score = np.asarray(score, dtype=np.float64)
    positive = np.flatnonzero(score > 0)
    if positive.size == 0:
        return positive
    values = score[positive]
    kth = values.max() if k <= 1 else (values.min() if k >= values.size else -np.partition(-values, k - 1)[k - 1])
    pool = values >= _tied_with(kth, rtol)
    index, values = positive[pool], values[pool]
    floor = rtol * max(1.0, float(values.max()))  # at most this: 0 up to rounding
    taken = []
    available = values > floor
    while len(taken) < k and available.any():
        best = values[available].max()
        first = int(np.flatnonzero(available & (values >= _tied_with(best, rtol)))[0])
        taken.append(index[first])
        available[first] = False
    return np.array(taken, dtype=np.intp)


def _squared_hinge_fit(features, y_signed, lam, sample_weight=None, max_iter=100):
    """Minimise ``‖v‖² + (1/λ) Σ s_i (1 - y_i Φ_i v)_+²`` by Newton steps on the active set.

    The objective is convex and piecewise quadratic; each Newton step solves
    ``(I + Φ_Aᵀ S_A Φ_A / λ) v = Φ_Aᵀ S_A y_A / λ`` on the active set ``A = {i : y_i Φ_i v < 1}``
    (``S`` the diagonal of the weights ``s_i``, all 1 by default), with backtracking to guarantee
    descent. Returns ``(v, risk)``.
    """
    s = np.ones(len(y_signed)) if sample_weight is None else np.asarray(sample_weight, dtype=float)

    def objective(v):
        """The objective at ``v`` and the margins ``y_i Φ_i v`` (the next step's active set)."""
        # the unchecked sums of companion.numerics (the same bits): a fit makes thousands of these
        margins = y_signed * ordered_matvec(features, v)
        slack = np.maximum(0.0, 1.0 - margins)
        return ordered_dot(v, v) + ordered_dot(s * slack, slack) / lam, margins

    dim = features.shape[1]
    v = np.zeros(dim)
    value, margins = objective(v)
    for _ in range(max_iter):
        active = margins < 1.0
        phi = features[active]
        weighted = phi * s[active, None] if sample_weight is not None else phi
        target = np.linalg.solve(np.eye(dim) + weighted.T @ phi / lam, weighted.T @ y_signed[active] / lam)
        step, direction = 1.0, target - v
        new_value, new_margins = objective(v + direction)
        while new_value > value and step > 1e-10:
            step *= 0.5
            new_value, new_margins = objective(v + step * direction)
        if new_value > value:
            break
        v = v + step * direction
        converged = value - new_value <= 1e-13 * max(1.0, value)
        value, margins = new_value, new_margins
        if converged:
            break
    return v, value


def _fallback_scores(model, scores):
    """The scores of a model that fell back to one class, else ``scores``: the training log-odds
    of ``class_counts_`` everywhere (:func:`companion._learner_support.constant_log_odds`), so that
    one-vs-rest over fallbacks picks the most frequent class, not the first."""
    label = getattr(model, "fallback_class_", None)
    if label is None:
        return scores
    return np.full(np.shape(scores), constant_log_odds(model.class_counts_))


#: Rows the fallback check's inner folds take at most (a stratified subsample beyond): its three
#: inner fits then cost a bounded share of a large fit (at 50,000 rows, 3 fits of 6,667 rows).
_FALLBACK_MAX_ROWS = 10_000


def _fall_back_if_it_loses(self, X, y, sample_weight):
    """``fallback="inner_cv"``: the model becomes the constant majority class (``fallback_class_``)
    when it predicts one class on every training row or loses to the majority class on 3 inner
    folds (:func:`companion.interpretable.beats_default_class`, CART's one-standard-error rule)
    of at most :data:`_FALLBACK_MAX_ROWS` rows (a stratified subsample beyond);
    a :class:`companion.interpretable.SingleClassWarning` says so. ``None``: the paper's model."""
    self.fallback_class_ = None
    # the (weighted) training count of each class: the score of a fallback (_fallback_scores)
    y_array = np.asarray(y)
    self.class_counts_ = np.array([np.count_nonzero(y_array == c) if sample_weight is None
                                   else sample_weight[y_array == c].sum() for c in self.classes_])
    reason = ""
    if self.fallback == "inner_cv" and not fallback_check_running() and getattr(self, "kernel", None) != "precomputed":
        y = np.asarray(y)
        labels, counts = np.unique(y, return_counts=True)
        weights = counts if sample_weight is None else np.array([sample_weight[y == c].sum() for c in labels])
        single = np.unique(_training_predictions(self, X)).size == 1
        checked = self
        if isinstance(self, _BinaryKernelClassifier) and self.max_memory_gb is not None:
            # the inner fits run beside what this fit still holds: beyond the 1 GiB every fit
            # keeps for the rest of the process, their limit leaves room for it
            held = _process_bytes(*np.shape(X), True) - _PROCESS_FLOOR_BYTES
            if held > 0:
                checked = clone(self).set_params(max_memory_gb=float(self.max_memory_gb) - held / 2**30)
        if single or not beats_default_class(checked, X, y, sample_weight, max_rows=_FALLBACK_MAX_ROWS):
            self.fallback_class_ = labels[int(np.argmax(weights))]
            reason = f" ({type(self).__name__} fell back to the majority class: its expansion did not beat it on inner folds)"
    self._check_single_class(X, predictions=_training_predictions(self, X), reason=reason)


def _training_predictions(model, X):
    """``model.predict(X)`` on the training input (a kernel expansion's ``predict`` forms its
    kernel a block of rows at a time: :meth:`_BinaryKernelClassifier._scores_of`)."""
    with warnings.catch_warnings():  # X may be the validated array of a fitted frame
        warnings.simplefilter("ignore")
        return model.predict(X)


for _cls in (KernelPerceptron, MaximalMarginPerceptron, MaskPerceptron):
    _cls._fall_back_if_it_loses = _fall_back_if_it_loses


def _export_fallback(cls):
    """Add ``fallback_class`` (None unless the model fell back) to the class's exported model."""
    model_to_dict, model_from_dict = cls._model_to_dict, cls._model_from_dict

    def _model_to_dict(self):
        model = model_to_dict(self)
        label = getattr(self, "fallback_class_", None)
        model["fallback_class"] = jsonable(label, where="fallback_class_")
        model["class_counts"] = jsonable(self.class_counts_, where="class_counts_")
        return model

    def _model_from_dict(self, model):
        model_from_dict(self, model)
        counts = np.array(model["class_counts"], dtype=float)
        self.class_counts_ = counts.astype(np.int64) if (counts == np.round(counts)).all() else counts
        label = model.get("fallback_class")
        self.fallback_class_ = None if label is None else self.classes_[
            np.flatnonzero(self.classes_.astype(object) == label)[0]]

    cls._model_to_dict, cls._model_from_dict = _model_to_dict, _model_from_dict


for _cls in (KernelPerceptron, MaximalMarginPerceptron, MaskPerceptron):
    _export_fallback(_cls)
