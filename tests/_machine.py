"""What numpy dispatches to on this CPU, and how to make it behave like an older one.

numpy picks its SIMD loops (``log``, ``exp``, sorting, ...) at run time from the CPU it finds, and
these may differ in the last bits (numpy accepts up to 4 ulp for its transcendental loops) or in
the order they give to equal sort keys. ``NPY_DISABLE_CPU_FEATURES`` switches dispatch targets
off, so one machine can play a CPU without AVX-512, then one without AVX2. This module is the one
home of those levels: ``tests/test_cross_machine.py`` runs its probe under each, ``.ci/run`` runs
the unit tests under each, and CONTRIBUTING shows how to do it by hand::

    python -m tests._machine          # one line per level: <label><TAB><NPY_DISABLE_CPU_FEATURES value>
"""

from __future__ import annotations

import platform
import sys


def dispatch_targets() -> list[str]:
    """numpy's run-time SIMD targets that this CPU has, lowest first (e.g. ``X86_V3`` = AVX2).

    Empty when numpy dispatches to nothing beyond its baseline, or when it is a numpy without the
    2.x layout of these tables.
    """
    try:
        from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    except ImportError:  # numpy < 2: another layout
        return []
    return [target for target in __cpu_dispatch__ if __cpu_features__.get(target)]


def _is_avx512(target: str) -> bool:
    return target.startswith("AVX512") or target == "X86_V4"


def _is_avx2_or_above(target: str) -> bool:
    # numpy >= 2.4 groups AVX, AVX2, FMA3, F16C... as X86_V3; older releases name them one by one.
    return _is_avx512(target) or target in {"X86_V3", "AVX", "F16C", "FMA3", "AVX2"}


def simd_levels() -> list[tuple[str, str]]:
    """``(label, NPY_DISABLE_CPU_FEATURES value)`` of every older CPU this one can play, newest first.

    On x86-64: ``avx512-off`` (every AVX-512 target off: an AVX2 machine) when the CPU has
    AVX-512, then ``avx2-off`` (AVX2 and above off: numpy's baseline, an SSE4.2 machine). On
    other CPUs, or where numpy names its targets otherwise: ``baseline`` (every dispatch target
    off). Empty when numpy already runs its baseline only.

    >>> all(value for _, value in simd_levels())
    True
    """
    found = dispatch_targets()
    levels: list[tuple[str, str]] = []
    if platform.machine().lower() in ("x86_64", "amd64"):
        avx512 = [t for t in found if _is_avx512(t)]
        avx2 = [t for t in found if _is_avx2_or_above(t)]
        if avx512:
            levels.append(("avx512-off", " ".join(avx512)))
        if avx2 and avx2 != avx512:
            levels.append(("avx2-off", " ".join(avx2)))
    if found and (not levels or levels[-1][1].split() != found):
        levels.append(("baseline", " ".join(found)))
    return levels


if __name__ == "__main__":
    for label, value in simd_levels():
        print(f"{label}\t{value}")
    sys.exit(0)
