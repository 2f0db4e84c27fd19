# Two commands lead the README:  make reproduce   and   make test.
# Both create .venv on first use from requirements.lock (exact pins), then install `companion` editable.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: reproduce reproduce-fast test bench clean-venv

$(STAMP): pyproject.toml requirements.lock
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -r requirements.lock
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	@touch $(STAMP)

# The only command that publishes (rewrites notebooks/ and figures/): a run with --fast, -p or
# --output-dir writes under build/reproduce/ or the given folder instead.
reproduce: $(STAMP)  ## execute every notebook in order with papermill (in place), regenerating figures/
	$(PY) -m companion.reproduce

reproduce-fast: $(STAMP)  ## the same with fast=True (smoke run), into build/reproduce/fast/: the tree stays clean
	$(PY) -m companion.reproduce --fast

# the root conftest.py points COMPANION_FIGURES (inherited by the nbval kernels) at a temporary folder.
test: $(STAMP)  ## unit tests + doctests + nbval over notebooks/, one pytest run; leaves git status clean
	env -u MPLBACKEND $(PY) -m pytest

bench: $(STAMP)  ## side-by-side timings, ratios to figures/benchmarks.*
	$(PY) -m benchmarks.run

clean-venv:
	rm -rf $(VENV)
