"""Per-paper experiment protocols and table builders that the notebooks call.

One module per notebook (``paper01`` … ``paper05``); generic pieces live in
:mod:`companion.evaluation`.
"""
