# Two commands lead the README:  make reproduce   and   make test  (and  make lab  to read the notebooks).
# All create .venv on first use from requirements.lock (exact pins of the core and of every extra:
# notebooks, test, dask, baselines, site, bench), then install `companion` editable. Using only the learners
# needs far less: `pip install .` (the core; see README).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: reproduce reproduce-fast test test-fast lab site bench check-core-install clean-venv

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

# the root conftest.py points COMPANION_FIGURES (inherited by the nbval kernels) at a temporary folder;
# COMPANION_PROGRESS is unset so that no progress line reaches the outputs nbval compares.
#
# Both spread the tests over TEST_WORKERS processes (pytest-xdist); --dist loadfile keeps each file,
# and so each notebook's cells, in order on one worker, and --no-loadscope-reorder hands the files
# out in the order conftest.py collects them: the longest notebooks first. Two workers by default:
# the notebooks' own loops already use every core (n_jobs=-1), so more workers only oversubscribe.
# TEST_WORKERS=0: one process.
TEST_WORKERS ?= 2
XDIST := -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

test: $(STAMP)  ## unit tests + doctests + nbval over notebooks/, one pytest run; leaves git status clean
	env -u MPLBACKEND -u COMPANION_PROGRESS $(PY) -m pytest $(XDIST)

# The quick loop while editing: unit tests and doctests without the notebooks (nbval) and without
# the tests marked `slow` (fresh interpreters, whole protocols, benchmark runs). Not a substitute
# for `make test`, which CI runs.
test-fast: $(STAMP)  ## unit tests + doctests, no nbval, no `slow` tests (a few minutes)
	env -u MPLBACKEND -u COMPANION_PROGRESS $(PY) -m pytest $(XDIST) -m "not slow" tests companion

# JupyterLab refuses to start as root unless told. Saving a notebook writes the running kernel's
# Python version and display name into it; the pre-save hook normalises them as the runner does,
# so a notebook opened and saved without running anything is written back as committed. The
# contents manager hands each notebook out with the kernel's Python version already in it, so
# that opening one does not mark it unsaved (JupyterLab copies the kernel's language_info in).
LAB_ROOT_FLAG := $(shell [ "$$(id -u)" = 0 ] && echo --allow-root)

lab: $(STAMP)  ## open the notebooks in JupyterLab, with the .venv kernel; saving leaves git status clean
	$(VENV)/bin/jupyter lab $(LAB_ROOT_FLAG) \
	  --ServerApp.contents_manager_class=companion._notebook_metadata.LabContentsManager \
	  --ContentsManager.pre_save_hook=companion._notebook_metadata.pre_save_hook notebooks/

# The notebooks as committed (never re-executed), the README and docs/ as a static site: Sphinx
# with myst-nb and the book theme (docs/conf.py, docs/_ext/companion_site.py); MathJax, fonts and
# search are served from the site itself, so it reads offline. tests/test_site.py builds it the
# same way and opens every page in Chromium.
SITE_DIR ?= build/site

site: $(STAMP)  ## the static site of the notebooks and docs into build/site (open build/site/index.html)
	rm -rf $(SITE_DIR)  # no page of a document that is gone
	$(PY) -m sphinx -b html -q -E -c docs . $(SITE_DIR)
	@echo "site: $(SITE_DIR)/index.html (or: $(PY) -m http.server -d $(SITE_DIR), then http://127.0.0.1:8000/)"

bench: $(STAMP)  ## side-by-side timings, ratios to figures/benchmarks.*
	$(PY) -m benchmarks.run

check-core-install:  ## `pip install .` into a fresh temporary venv: the core alone imports and fits every learner
	bash .ci/check_core_install

clean-venv:
	rm -rf $(VENV)
