"""Sphinx configuration of the companion's static site (``make site``).

The source folder is the checkout itself (``sphinx-build -c docs . build/site``): the pages are
the README (the landing page), ``docs/*.md``, CONTRIBUTING, ``benchmarks/README.md`` and the
executed notebooks as committed (myst-nb, never re-executed). Everything is served from the site:
MathJax comes from the ``sphinx-mathjax-offline`` package, the theme's fonts and scripts from
``sphinx-book-theme``; no page loads anything from another host.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

import companion  # noqa: E402  (the version the pages name)

project = "companion"
author = "the companion's authors"
version = release = companion.__version__
copyright = "the companion's authors"

extensions = [
    "myst_nb",
    "sphinx-mathjax-offline",  # MathJax 3 copied into _static/mathjax, mathjax_path pointed at it
    "companion_site",          # provenance lines, claim links, landing page (docs/_ext)
    "sphinx.ext.autodoc",      # docs/api.md: the public modules' docstrings
    "numpydoc",                # ... read as numpydoc (already pinned for tests/test_docstrings.py)
]
# The API page lists each module's __all__ (autodoc :members: follows __all__); numpydoc's own
# member tables would repeat it and point at pages that do not exist.
numpydoc_show_class_members = False
autodoc_default_options = {"member-order": "bysource"}

root_doc = "README"
include_patterns = [
    "README.md",
    "CONTRIBUTING.md",
    "docs/*.md",
    "docs/review/*.md",
    "benchmarks/README.md",
    "notebooks/[0-9][0-9]_*.ipynb",
]
# Folders never walked (the include patterns alone would still make Sphinx list every file).
exclude_patterns = [
    ".venv", ".git", "build", "data", "peers", "figures", "companion", "tests", ".ci",
    "**/.ipynb_checkpoints", "notebooks/.running-*",
]

# The notebooks are shown as committed: executed by `make reproduce`, never here.
nb_execution_mode = "off"
# Markdown outputs (the verdict sentences) are MyST: their $…$ is math as in the cells.
nb_render_markdown_format = "myst"
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "html_image"]
myst_heading_anchors = 3
suppress_warnings = ["mystnb.unknown_mime_type"]

html_theme = "sphinx_book_theme"
# sections/header.html: the theme's header without its duplicate sidebar toggles (see the file).
templates_path = ["_templates"]
html_title = f"companion {release}"
html_theme_options = {
    "show_toc_level": 2,
    "home_page_in_toc": True,
    "use_download_button": False,
    "use_fullscreen_button": False,
    "use_repository_button": False,
}
# Without a default, the theme's first page in a fresh browser logs "Got invalid theme mode".
html_context = {"default_mode": "auto"}
html_last_updated_fmt = None
html_copy_source = False
html_show_sourcelink = False
