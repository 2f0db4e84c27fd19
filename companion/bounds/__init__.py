"""Generalisation and lower bounds of the five papers, one submodule per family.

* :mod:`companion.bounds.decision_list` — Paper 01 (DLM Theorems 1 and 2, the SCM bound).
* :mod:`companion.bounds.boolean_kernel` — Paper 03 (lower bounds on the regularised risk).
* :mod:`companion.bounds.binomial`, :mod:`~companion.bounds.occam`,
  :mod:`~companion.bounds.compression`, :mod:`~companion.bounds.pac_bayes` — Paper 05.

Shared by all: :func:`~companion.bounds.binomial.log_choose` (the one log-binomial) and
``companion.bounds._confidence`` (the one check of a confidence ``δ``: ``check_delta``,
``resolve_log_delta``). A bound takes counts, or a fitted model's public attributes,
and never imports a learner (``tests/test_architecture.py``); learners may import bounds.

Import the submodule you need, e.g. ``from companion.bounds import binomial``.
"""
