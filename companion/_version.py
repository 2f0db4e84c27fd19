"""The package's version, in a module of its own so that a submodule can read it without
importing the package ``companion`` above it (``companion/__init__.py`` re-exports it)."""

__version__ = "0.1.0"
