"""The test suite; a package so that ``tests._naive`` is importable by the benchmarks."""
