"""Memory a fit will need, estimated before it allocates, and the refusal beyond ``max_memory_gb``.

A learner whose working arrays grow faster than its input (a matrix of candidate monomials, a
Gram or distance matrix) computes their size from the input's shape and its parameters, and calls
:func:`check_memory` before the allocation: beyond ``max_memory_gb`` the fit stops at once with a
``ValueError`` saying how much it would need, for what, and which parameters change it, instead of
asking the system for 15 GiB without a word.

>>> class Learner: max_memory_gb = 1.0
>>> check_memory(Learner(), 3 * 2**30, "a 200000 x 2000 matrix", "lower degree")
Traceback (most recent call last):
...
ValueError: Learner would need about 3.0 GiB for a 200000 x 2000 matrix, more than max_memory_gb=1.0. Raise max_memory_gb (None: no limit) or lower degree.
"""

from __future__ import annotations

__all__ = ["check_memory"]


def check_memory(estimator, need_bytes: float, what: str, fix: str) -> None:
    """Refuse a fit that would need more than ``estimator.max_memory_gb`` GiB (None: no limit).

    Parameters
    ----------
    estimator : object with ``max_memory_gb``
    need_bytes : float
        The estimate.
    what : str
        What the memory is for, for the message.
    fix : str
        The other parameters (or input) that reduce it, for the message.

    Raises
    ------
    ValueError
        Naming the learner, the estimate, ``max_memory_gb`` and the remedies.
    """
    limit = getattr(estimator, "max_memory_gb", None)
    if limit is None or need_bytes <= float(limit) * 2**30:
        return
    raise ValueError(
        f"{type(estimator).__name__} would need about {need_bytes / 2**30:.1f} GiB for {what}, more than "
        f"max_memory_gb={limit}. Raise max_memory_gb (None: no limit) or {fix}."
    )
