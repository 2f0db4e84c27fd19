"""Memory before the work: each learner whose arrays grow faster than its input estimates them
before allocating, and the estimate is not a lie.

tracemalloc measures the peak of the Python-allocated memory (numpy's arrays included) during one
fit; it must stay within the learner's documented estimate of its big arrays
(``companion._ball_search.estimated_fit_bytes``, ``companion.perceptrons.estimated_kernel_bytes``,
MaskPerceptron's candidate matrix). A fit that would need more than ``max_memory_gb`` is refused
before any large allocation, with a message naming the learner, the GiB and the parameter.
"""

import sys
import tracemalloc
import warnings

import numpy as np
import pytest

from companion import (
    BallSetCoveringMachine,
    DecisionListMachine,
    KernelPerceptron,
    MaskPerceptron,
    MaximalMarginPerceptron,
)
from companion._ball_search import estimated_fit_bytes
from companion.kernels import literal_monomials
from companion.perceptrons import _GivenKernel, estimated_candidate_bytes, estimated_kernel_bytes


def _peak_bytes(call):
    """Peak bytes tracemalloc sees above the start of ``call()`` (and its result or exception)."""
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        try:
            result = call()
        except Exception as exc:  # noqa: BLE001 - returned to the caller, which asserts on it
            result = exc
        return tracemalloc.get_traced_memory()[1] - start, result
    finally:
        tracemalloc.stop()


def _problem(m, seed=0):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(m, 4)), 1)  # ties among distances, as real data have
    y = (X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=m) > 0).astype(int)
    return X, y


@pytest.mark.parametrize("m", [400, 1200])
@pytest.mark.parametrize(
    "make,weighted",
    [
        # the search's own arrays (fallback=None: the fallback's inner fits are fits of their own,
        # each within its own estimate, on the whole weights' copies)
        (lambda: DecisionListMachine(max_memory_gb=None, fallback=None), False),
        (lambda: BallSetCoveringMachine(max_memory_gb=None, fallback=None), False),
        (lambda: BallSetCoveringMachine(max_memory_gb=None, model_type="disjunction", metric="l1", fallback=None), False),
        (lambda: DecisionListMachine(max_memory_gb=None, fallback=None), True),
    ],
    ids=["dlm", "scm", "scm-disjunction-l1", "dlm-weighted"],
)
def test_ball_machines_full_layout_peak_is_within_the_estimate(make, weighted, m):
    X, y = _problem(m)
    weight = np.arange(m) % 3 + 1 if weighted else None
    peak, fitted = _peak_bytes(lambda: make().fit(X, y, sample_weight=weight))
    assert not isinstance(fitted, Exception), fitted
    estimate = estimated_fit_bytes(m, None, weighted=weighted)
    assert estimate == 128 * m * m
    assert peak <= estimate, (peak, estimate)
    assert peak >= 0.3 * estimate  # the estimate is of the arrays this fit does allocate


@pytest.mark.parametrize("make", [DecisionListMachine, BallSetCoveringMachine], ids=["dlm", "scm"])
def test_ball_machines_blocked_layout_peak_is_within_the_estimate(make):
    limit = 1e-4  # far below the full layout: one centre per block, 16 buckets
    for m in (600, 2500):
        X, y = _problem(m, seed=1)
        peak, fitted = _peak_bytes(lambda: make(max_memory_gb=limit).fit(X, y))
        assert not isinstance(fitted, Exception), fitted
        estimate = estimated_fit_bytes(m, limit)
        assert estimate < estimated_fit_bytes(m, limit, layout="full") / 50  # O(m), not O(m^2)
        assert peak <= estimate, (m, peak, estimate)


def test_a_weighted_ball_fit_beyond_the_limit_is_refused_before_it_allocates():
    m = 3000  # 128 * m^2: about 1.07 GiB
    X, y = _problem(m, seed=2)
    machine = DecisionListMachine(max_memory_gb=0.5)
    peak, refused = _peak_bytes(lambda: machine.fit(X, y, sample_weight=np.full(m, 2.0)))
    assert isinstance(refused, ValueError), refused
    assert str(refused).startswith("DecisionListMachine would need about 1.1 GiB for the 3000 x 3000 sorted distances")
    assert "more than max_memory_gb=0.5. Raise max_memory_gb" in str(refused)
    assert peak < 8 * m * m / 4  # not even a quarter of one m x m float64 matrix was allocated
    # the unweighted fit streams the distances and runs within the same limit
    assert estimated_fit_bytes(m, 0.5) < 0.5 * 2**30


@pytest.mark.parametrize(
    "make,boolean",
    [
        (lambda: KernelPerceptron(kernel="rbf", fallback=None), False),
        (lambda: KernelPerceptron(kernel="poly", degree=2, fallback=None), False),
        (lambda: KernelPerceptron(kernel="boolean", degree=3, fallback=None), True),
        (lambda: MaximalMarginPerceptron(kernel="rbf", fallback=None), False),
        (lambda: MaximalMarginPerceptron(kernel="boolean", degree=2, lam=1.0, fallback=None), True),
    ],
    ids=["kp-rbf", "kp-poly", "kp-boolean", "mmp-rbf", "mmp-boolean"],
)
def test_kernel_perceptrons_whole_kernel_peak_is_within_the_estimate(make, boolean):
    m = 1000
    X, y = _problem(m, seed=3)
    if boolean:  # 24 columns: no input repeats (a repeated one reads the distinct rows instead)
        X = (np.random.default_rng(3).random((m, 24)) < 0.5).astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        peak, fitted = _peak_bytes(lambda: make().fit(X, y))
    assert not isinstance(fitted, Exception), fitted
    gram = fitted._train_gram(X)
    assert isinstance(gram, _GivenKernel)  # the whole kernel was held
    estimate = estimated_kernel_bytes(m, gram.K.itemsize if hasattr(gram, "K") else 8)
    assert peak <= estimate, (peak, estimate)


@pytest.mark.parametrize("cls", [KernelPerceptron, MaximalMarginPerceptron])
def test_kernel_perceptrons_beyond_the_limit_read_rows_within_it(cls, monkeypatch):
    """Past the limit the whole kernel is not held: rows are read, a block of rows at a time, and
    the peak stays within the cached rows, a few blocks and O(m) vectors. The fixed-size buffers
    counted in the 1 GiB base (a 32 MiB block of rows, the 32 MiB of G's rows a small fit keeps)
    are shrunk here (64 rows, none) so that an m x m array anywhere would show."""
    import companion.kernels as kernels_module
    import companion.perceptrons as perceptrons_module

    m = 800
    monkeypatch.setattr(perceptrons_module, "_BLOCK_BYTES", 8 * m * 64)
    monkeypatch.setattr(kernels_module, "_BLOCK_BYTES", 8 * m * 64)
    monkeypatch.setattr(perceptrons_module, "_G_ROWS_CACHE_BYTES", 0)
    X, y = _problem(m, seed=4)
    limit = 1.0 + 2e-4  # 1 GiB (the process's base) plus 215 kB of cached rows
    peak, fitted = _peak_bytes(lambda: cls(kernel="rbf", fallback=None, max_memory_gb=limit).fit(X, y))
    assert not isinstance(fitted, Exception), fitted
    assert not isinstance(fitted._train_gram(X), _GivenKernel)
    cached, block = 2e-4 * 2**30, 8 * m * 64
    assert peak < cached + 8 * block + 1000 * m < 8 * m * m, (peak, cached + 8 * block + 1000 * m)


@pytest.mark.parametrize("degree, n_vars", [(1, 30), (2, 8), (2, 40), (3, 6)])
def test_mask_perceptron_peak_is_within_its_estimate_and_refuses_before_allocating(degree, n_vars):
    """Degrees 1 and 2 read products of the inputs, degree 3 the candidates' matrix."""
    m = 3000
    rng = np.random.default_rng(5)
    X = (rng.random((m, n_vars)) < 0.5).astype(float)
    y = (X[:, 0] != X[:, 1]).astype(int)
    estimate = estimated_candidate_bytes(m, len(literal_monomials(n_vars, degree)), degree)  # what fit checks
    peak, fitted = _peak_bytes(lambda: MaskPerceptron(degree=degree, n_terms=3, fallback=None).fit(X, y))
    assert not isinstance(fitted, Exception), fitted
    assert peak <= estimate, (peak, estimate)
    limit = 0.5 * estimate / 2**30
    peak, refused = _peak_bytes(lambda: MaskPerceptron(degree=degree, max_memory_gb=limit).fit(X, y))
    assert isinstance(refused, ValueError) and str(refused).startswith("MaskPerceptron would need about"), refused
    assert "Raise max_memory_gb" in str(refused)
    assert peak < estimate / 4


# A fit in a fresh interpreter: the growth of its peak resident memory (the whole process,
# allocator slack included) is what a user's process needs beyond its data. Read as VmHWM, the
# high-water mark of this process's own memory: Linux's ru_maxrss also keeps the peak of the
# process that forked it (pytest's, often larger than the fit's).
_FRESH_FIT = r"""
import json, sys
import numpy as np


def peak_rss():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM:"))


from companion import KernelPerceptron, MaximalMarginPerceptron
cls, m, n, params, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), json.loads(sys.argv[4]), int(sys.argv[5])
rng = np.random.default_rng(seed)
if n == 7:
    from companion.led import make_led_digits
    X, y = make_led_digits(m, random_state=seed)
else:
    X = (rng.random((m, n)) < 0.5).astype(float)
    y = ((X[:, 0] + X[:, 1] + X[:, 2] >= 2) ^ (rng.random(m) < 0.1)).astype(int)
before = peak_rss()
model = {"KernelPerceptron": KernelPerceptron, "MaximalMarginPerceptron": MaximalMarginPerceptron}[cls](**params).fit(X, y)
peak = peak_rss()
gram = model._train_gram(np.asarray(X, dtype=float))
print(json.dumps({"before": before, "peak": peak, "n_unique": len(np.unique(X, axis=0)),
                  "whole": type(gram).__name__ == "_GivenKernel"}))
"""


def _fresh_fit(cls, m, n, params, seed=0):
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _FRESH_FIT, cls, str(m), str(n), json.dumps(params), str(seed)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    "cls, m, n, params, whole",
    [
        # the whole kernel (24 Boolean columns: no repeated input), the fallback check included
        ("KernelPerceptron", 4000, 24, {"kernel": "boolean", "degree": 2}, True),
        # the distinct rows cached within a limit (every row of the 6,000 cached, the whole kernel
        # would take 1.3 GB), the inner fits' limit less what the outer fit holds
        ("KernelPerceptron", 6000, 16, {"kernel": "boolean", "degree": 2, "max_memory_gb": 1.2}, False),
        # LED digits past the subsample of the fallback check: 128 distinct rows at most
        ("KernelPerceptron", 20000, 7, {"kernel": "boolean", "degree": 2}, False),
        ("MaximalMarginPerceptron", 3000, 7, {"kernel": "boolean", "degree": 2}, False),
        ("MaximalMarginPerceptron", 2500, 5, {"kernel": "rbf"}, True),
    ],
    ids=["kp-whole", "kp-rows-limited", "kp-led-20000", "mmp-led-3000", "mmp-rbf-whole"],
)
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_kernel_perceptron_default_fit_peak_in_a_fresh_process_is_within_the_estimate(cls, m, n, params, whole):
    """Everything a default fit holds at once (its kernel or cached rows, its O(m) arrays, the
    blocks in flight, the fallback check's inner fit) is within estimated_fit_bytes, measured as
    the growth of the peak resident memory of a fresh process; and the whole process stays
    within max_memory_gb."""
    from companion.perceptrons import estimated_fit_bytes

    measured = _fresh_fit(cls, m, n, params)
    assert measured["whole"] == whole
    boolean = params["kernel"] == "boolean"
    estimate = estimated_fit_bytes(m, n, n_unique=measured["n_unique"], itemsize=4 if boolean else 8,
                                   max_memory_gb=params.get("max_memory_gb", 4.0), boolean=boolean)
    grown = measured["peak"] - measured["before"]
    assert grown <= estimate, (grown, estimate)
    assert measured["peak"] <= params.get("max_memory_gb", 4.0) * 2**30
    if whole:  # the whole kernel was held (the estimate counts what the fit does allocate)
        assert grown >= (4 if boolean else 8) * m * m, grown


def test_kernel_perceptron_beyond_its_limit_is_refused_before_any_kernel_entry():
    """A fit whose O(m) arrays alone (with the fallback check's) exceed max_memory_gb is refused
    by name, with the estimate and the remedy, before it allocates anything of the kernel."""
    m = 300_000
    rng = np.random.default_rng(7)
    X = (rng.random((m, 7)) < 0.5).astype(float)
    y = (X[:, 0] > 0).astype(int)
    learner = KernelPerceptron(kernel="boolean", degree=2, max_memory_gb=0.9)
    peak, refused = _peak_bytes(lambda: learner.fit(X, y))
    assert isinstance(refused, ValueError), refused
    message = str(refused)
    assert message.startswith("KernelPerceptron would need about 1.")
    assert f"({m} x 7 inputs" in message and "more than max_memory_gb=0.9" in message
    assert message.endswith("Raise max_memory_gb (None: no limit) or fit on fewer rows.")
    assert peak < 3 * X.nbytes  # the validated copy and the labels, nothing of the kernel
    # the paper's model (no fallback check) needs less, and a larger limit runs the fit
    from companion.perceptrons import _least_fit_bytes

    assert _least_fit_bytes(m, 7, False) < _least_fit_bytes(m, 7, True)
