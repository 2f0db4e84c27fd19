"""The notebooks' numbers do not depend on the machine: BLAS kernel, thread count and SIMD level.

Two users' machines differ in the BLAS kernel OpenBLAS picks for their CPU, in their number of
cores and in the SIMD loops numpy dispatches to; all three change the last bits of real-valued
results (the order in which a matrix product adds its terms; a transcendental loop within numpy's
4-ulp tolerance) and the order numpy's SIMD sort gives to equal keys. A decision taken on those
bits (the sign of a score that is truly 0, an ``argmin`` over truly equal bounds) then differs
between the machines. Here one machine plays several: ``tests/cross_machine_probe.py`` runs every
notebook protocol's core computation at small sizes (and MaskPerceptron on the problems where
its candidates' scores tie exactly) in a fresh interpreter per configuration
(``OPENBLAS_CORETYPE`` in {native, Prescott, Haswell where the CPU has AVX2} x
``OPENBLAS_NUM_THREADS`` in {1, 2}, plus numpy at every older SIMD level this CPU can play,
``NPY_DISABLE_CPU_FEATURES`` from :func:`tests._machine.simd_levels`).

Every decision must agree exactly: strings, integers, booleans and integer-valued floats (counts,
sizes, chosen indices) are compared as text. A real-valued float (a bound, a risk, a margin) is
compared at ``FLOAT_RTOL``: its last bits may legitimately follow the machine, and any decision
that moved would show in the exact part (an error count or a chosen feature differs by whole
units), so the tolerance cannot hide one.
"""

from __future__ import annotations

import math
import os
import platform
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests._machine import simd_levels

PROBE = Path(__file__).with_name("cross_machine_probe.py")

#: Relative tolerance of real-valued floats between configurations: a few ulp of float64
#: (numpy's transcendental loops differ by up to 4 ulp between SIMD levels; BLAS sums by a few
#: more through cancellation), far below any change a moved decision makes.
FLOAT_RTOL = 1e-12


def _cpu_has_avx2() -> bool:
    try:
        return " avx2 " in f" {Path('/proc/cpuinfo').read_text().replace(chr(10), ' ')} "
    except OSError:
        return False


def _native_coretype() -> str | None:
    """The machine's own kernel: none, unless the machine pins one with its cache size (some
    processors need OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE set to run at all); CI's override
    of OPENBLAS_CORETYPE alone is not the native kernel."""
    return os.environ.get("OPENBLAS_CORETYPE") if os.environ.get("OPENBLAS_L2_SIZE") else None


def _coretypes() -> list[str | None]:
    """The BLAS kernels to compare, the native one first and each once: native, then Prescott and
    (with AVX2) Haswell on x86-64; the native kernel may be one of those (a machine that pins
    its kernel, or ``OPENBLAS_CORETYPE=Prescott make test`` there)."""
    coretypes: list[str | None] = [_native_coretype()]
    if platform.machine() in ("x86_64", "AMD64"):
        coretypes.append("Prescott")
        if _cpu_has_avx2():
            coretypes.append("Haswell")
    return list(dict.fromkeys(coretypes))


def _configurations() -> list[dict[str, str | None]]:
    coretypes = _coretypes()
    configurations = [
        {"OPENBLAS_CORETYPE": c, "OPENBLAS_NUM_THREADS": t, "NPY_DISABLE_CPU_FEATURES": None}
        for c in coretypes for t in ("1", "2")
    ]
    for _, disabled in simd_levels():  # an older CPU for numpy itself (SIMD loops, sorting), native BLAS
        configurations.append(
            {"OPENBLAS_CORETYPE": coretypes[0], "OPENBLAS_NUM_THREADS": None, "NPY_DISABLE_CPU_FEATURES": disabled}
        )
    return configurations


def _run_probe(folder: Path, settings: dict[str, str | None]) -> dict[str, list[str]]:
    env = {k: v for k, v in os.environ.items() if k not in settings}
    env.update({k: v for k, v in settings.items() if v is not None})
    env.pop("COMPANION_FIGURES", None)
    subprocess.run([sys.executable, str(PROBE), str(folder)], env=env, check=True, timeout=600)
    return {path.name: path.read_text().splitlines() for path in sorted(folder.glob("*.txt"))}


def _agree(expected: str, found: str) -> bool:
    """Lines agree: same path; same value, or both real-valued floats within ``FLOAT_RTOL``."""
    (path_a, _, a), (path_b, _, b) = expected.partition("\t"), found.partition("\t")
    if path_a != path_b:
        return False
    if a == b:
        return True
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    if not (math.isfinite(x) and math.isfinite(y)) or x.is_integer() or y.is_integer():
        return False  # counts, sizes, indices and non-finite values are decisions: exact
    return math.isclose(x, y, rel_tol=FLOAT_RTOL, abs_tol=0.0)


def test_agreement_rule_is_exact_on_decisions_and_tolerant_on_real_values():
    line = "[3].bound\t{}".format
    assert _agree(line("0.83841305828571690"), line("0.83841305828571701"))  # 1 ulp apart
    assert not _agree(line("0.8384"), line("0.8385"))
    assert not _agree(line("12"), line("13")) and not _agree(line("12.0"), line("12.000000000000002"))
    assert not _agree(line("'x'"), line("'y'")) and not _agree(line("nan"), line("0.5"))
    assert not _agree("[3].bound\t0.5", "[4].bound\t0.5")


@pytest.mark.slow
def test_protocols_give_the_same_numbers_under_every_blas_kernel_thread_count_and_simd_level(tmp_path):
    configurations = _configurations()
    runs = [_run_probe(tmp_path / f"run{k}", settings) for k, settings in enumerate(configurations)]
    reference = runs[0]
    assert set(reference) >= {f"paper0{k}.txt" for k in range(1, 6)}
    # Ties really occur in the probe (else it could not catch a tie decided by rounding).
    ties = [line for line in reference["paper03.txt"] if re.search(r"\.(train|test)_ties\t", line)]
    assert any(float(line.split("\t")[1]) > 0 for line in ties)
    for settings, run in zip(configurations[1:], runs[1:]):
        for name in reference:
            if name == "canary.txt":
                continue
            expected, found = reference[name], run[name]
            differing = [(a, b) for a, b in zip(expected, found) if not _agree(a, b)]
            assert len(expected) == len(found) and not differing, (
                f"{name} differs under {settings} from {configurations[0]}: first differences {differing[:5]}"
            )


@pytest.mark.slow
def test_the_configurations_really_change_the_blas_kernel(tmp_path):
    """The canary (a plain BLAS product) must differ between some configurations; if it did not,
    the test above would compare a machine with itself. Skipped when numpy's BLAS is not
    OpenBLAS on x86-64 (then these variables select nothing)."""
    import numpy  # noqa: F401  (threadpool_info lists only the libraries already loaded)
    from threadpoolctl import threadpool_info

    if platform.machine() not in ("x86_64", "AMD64") or not any(
        info.get("internal_api") == "openblas" for info in threadpool_info()
    ):
        pytest.skip("numpy's BLAS is not OpenBLAS on x86-64: OPENBLAS_CORETYPE selects nothing")
    native, *others = _coretypes()
    if not others:
        pytest.skip(f"no BLAS kernel other than the native {native} runs on this CPU")
    other = others[0]
    canaries = set()
    for k, settings in enumerate([{"OPENBLAS_CORETYPE": native, "OPENBLAS_NUM_THREADS": None},
                                  {"OPENBLAS_CORETYPE": other, "OPENBLAS_NUM_THREADS": "1"}]):
        folder = tmp_path / f"canary{k}"
        env = {key: v for key, v in os.environ.items() if key not in settings}
        env.update({key: v for key, v in settings.items() if v is not None})
        subprocess.run([sys.executable, str(PROBE), str(folder), "none"], env=env, check=True, timeout=120)
        canaries.add((folder / "canary.txt").read_text())
    assert len(canaries) == 2, f"OPENBLAS_CORETYPE={other} did not change the BLAS product's bits"
