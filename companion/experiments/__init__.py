"""Per-paper experiment protocols and the table and figure builders the notebooks call.

One package per notebook (``paper01`` … ``paper05``), each with the shape fixed in
:mod:`companion.experiments.protocol`: a frozen ``Config``, ``run(config, n_jobs=1)`` returning a
tidy frame (one row per data set x method x seed x fold), and builders over that frame. Inside a
package one private module per concern (``_protocol``, ``_tables``, ``_figures``, ``_claims``,
``_prose``); the package's ``__all__`` lists what its notebook calls. Generic
pieces (folds, the paper-vs-ours table, the parallel loop) live in :mod:`companion.evaluation`.
"""
