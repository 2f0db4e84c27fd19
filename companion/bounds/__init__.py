"""Generalisation and lower bounds of the five papers, one submodule per family.

* :mod:`companion.bounds.decision_list` — Paper 01 (DLM Theorems 1 and 2, the SCM bound).
* :mod:`companion.bounds.boolean_kernel` — Paper 03 (lower bounds on the regularised risk).
* :mod:`companion.bounds.binomial`, :mod:`~companion.bounds.occam`,
  :mod:`~companion.bounds.compression`, :mod:`~companion.bounds.pac_bayes` — Paper 05.

Import the submodule you need, e.g. ``from companion.bounds import binomial``.
"""
