"""The notebooks' numbers do not depend on the machine: BLAS kernel and thread count (issue 13).

Two users' machines differ in the BLAS kernel OpenBLAS picks for their CPU and in their number of
cores; both change the order in which a matrix product adds its terms, hence its last bits. A
decision taken on those bits (the sign of a score that is truly 0, an ``argmin`` over equal
counts held as float sums) then differs between the machines; so does the order numpy's SIMD
sort gives to equal keys. Here one machine plays several: ``tests/cross_machine_probe.py`` runs
every notebook protocol's core computation at small sizes in a fresh interpreter per
configuration (``OPENBLAS_CORETYPE`` ∈ {native, Prescott, Haswell where the CPU has AVX2} ×
``OPENBLAS_NUM_THREADS`` ∈ {1, 2}, plus numpy with its SIMD dispatch disabled,
``NPY_DISABLE_CPU_FEATURES``) and every number must agree to the last bit.

One documented exception: the mask perceptron's refits solve small linear systems through
LAPACK, so its real-valued risk and coefficients may differ in the last bits (relative ~1e-16);
those values are compared at 10 significant digits, the precision of the published result CSVs.
Its decisions (terms, errors, ties, sizes) are compared exactly like everything else.
"""

from __future__ import annotations

import os
import platform
import re
import subprocess
import sys
from pathlib import Path

import pytest

PROBE = Path(__file__).with_name("cross_machine_probe.py")

# (file, regex on the line's path) of values that pass through LAPACK: compared at 10 digits.
LAPACK_VALUES = [
    ("paper03.txt", re.compile(r"\.risk$")),  # the mask perceptron's rows only, see _lapack_rows
]


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


def _numpy_dispatch_targets() -> str | None:
    """numpy's run-time SIMD targets found on this CPU (e.g. ``X86_V3`` = AVX2), space-separated.

    Disabling them (``NPY_DISABLE_CPU_FEATURES``) makes numpy run its baseline code, as on an
    older CPU. That changes more than speed: the order of equal keys in ``argsort`` (default
    kind) and ``argpartition`` comes from the SIMD sorting kernel, so it differs between an
    AVX2, an AVX-512 and a baseline CPU.
    """
    try:
        from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    except ImportError:  # numpy < 2: another layout; the configuration is then skipped
        return None
    found = [target for target in __cpu_dispatch__ if __cpu_features__.get(target)]
    return " ".join(found) or None


def _configurations() -> list[dict[str, str | None]]:
    coretypes: list[str | None] = [_native_coretype()]
    if platform.machine() in ("x86_64", "AMD64"):
        coretypes.append("Prescott")
        if _cpu_has_avx2():
            coretypes.append("Haswell")
    configurations = [
        {"OPENBLAS_CORETYPE": c, "OPENBLAS_NUM_THREADS": t, "NPY_DISABLE_CPU_FEATURES": None}
        for c in coretypes for t in ("1", "2")
    ]
    targets = _numpy_dispatch_targets()
    if targets:  # an older CPU for numpy itself (sorting, SIMD loops), with the native BLAS
        configurations.append(
            {"OPENBLAS_CORETYPE": coretypes[0], "OPENBLAS_NUM_THREADS": None, "NPY_DISABLE_CPU_FEATURES": targets}
        )
    return configurations


def _run_probe(folder: Path, settings: dict[str, str | None]) -> dict[str, list[str]]:
    env = {k: v for k, v in os.environ.items() if k not in settings}
    env.update({k: v for k, v in settings.items() if v is not None})
    env.pop("COMPANION_FIGURES", None)
    subprocess.run([sys.executable, str(PROBE), str(folder)], env=env, check=True, timeout=600)
    return {path.name: path.read_text().splitlines() for path in sorted(folder.glob("*.txt"))}


def _mask_rows(lines: list[str]) -> set[int]:
    """Row numbers of the mask perceptron in paper03's tidy table (method ``mask_perceptron d=<degree>``)."""
    pattern = re.compile(r"^\[(\d+)\]\.method\t'mask_perceptron d=\d+'$")
    return {int(m.group(1)) for line in lines if (m := pattern.match(line))}


def _comparable(name: str, lines: list[str]) -> list[str]:
    """The lines, with LAPACK-derived values of the mask perceptron rounded to 10 digits."""
    rules = [rule for file, rule in LAPACK_VALUES if file == name]
    if not rules:
        return lines
    mask_rows = _mask_rows(lines)
    result = []
    for line in lines:
        path, _, value = line.partition("\t")
        row = re.match(r"^\[(\d+)\]", path)
        if row and int(row.group(1)) in mask_rows and any(rule.search(path) for rule in rules):
            line = f"{path}\t{float(value):.10g}"
        result.append(line)
    return result


@pytest.mark.slow
def test_protocols_give_identical_numbers_under_every_blas_kernel_and_thread_count(tmp_path):
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
            expected, found = _comparable(name, reference[name]), _comparable(name, run[name])
            differing = [(a, b) for a, b in zip(expected, found) if a != b]
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
    canaries = set()
    for k, settings in enumerate([{"OPENBLAS_CORETYPE": _native_coretype(), "OPENBLAS_NUM_THREADS": None},
                                  {"OPENBLAS_CORETYPE": "Prescott", "OPENBLAS_NUM_THREADS": "1"}]):
        folder = tmp_path / f"canary{k}"
        env = {key: v for key, v in os.environ.items() if key not in settings}
        env.update({key: v for key, v in settings.items() if v is not None})
        subprocess.run([sys.executable, str(PROBE), str(folder), "none"], env=env, check=True, timeout=120)
        canaries.add((folder / "canary.txt").read_text())
    assert len(canaries) == 2, "OPENBLAS_CORETYPE=Prescott did not change the BLAS product's bits"
