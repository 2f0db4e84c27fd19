"""Generated prose: the one way a notebook states a number, a direction or a verdict of ours.

Every sentence of a notebook that reports one of our results is rendered from a template and the
results, so that a re-run with another seed, another peer or another tie rule stays true. Static
Markdown holds only the paper's text, the method and definitions.

A template is a Python format string (:meth:`str.format` fields) whose format specs may also be one
of the words below (anything else is a standard format spec):

``signed.K``
    A signed number with ``K`` decimals and a true minus sign: ``+1.60``, ``−0.40``; a value that
    rounds to zero prints ``0.00`` (no sign).
``pct.K``
    A fraction printed as a percentage with ``K`` decimals: ``0.1234`` → ``12.3 %`` (``pct.1``).
``plural WORD`` / ``plural WORD|WORDS``
    A count and its noun: ``1 data set``, ``6 data sets``; irregular plurals after ``|``.
``sign NEG|ZERO|POS``
    One of three words chosen by the sign of the value (``below|equal to|above``).
``p``
    A p-value: ``< 0.001`` or ``= 0.031``.
``list``
    A sequence joined as ``a, b and c`` (``none`` when empty).

Templates live where the results they describe are defined: in a paper's claims registry (a
claim's ``discussion``, rendered by :meth:`companion.claims.ClaimsReport.discussion`) or as a
module-level ``TEMPLATES`` mapping in the paper's experiments module.

Examples
--------
>>> render("On {n:plural data set} the error is {d:signed.2} points {d:sign below|equal to|above} "
...        "the SVM's ({names:list}); p {p:p}.", n=6, d=-0.4, names=["a", "b", "c"], p=0.03)
On 6 data sets the error is −0.40 points below the SVM's (a, b and c); p = 0.030.
>>> render("{k:plural class|classes}, {share:pct.1}", k=1, share=0.1234)
1 class, 12.3 %
"""

from __future__ import annotations

import math
import string
from collections.abc import Mapping, Sequence
from numbers import Integral, Real

from sklearn.utils._param_validation import validate_params

from companion.numerics import StrictInterval

__all__ = ["Markdown", "render", "signed"]


class Markdown:
    """Markdown text that a notebook shows rendered (``_repr_markdown_``) and nbval compares as text.

    Compatible with :class:`IPython.display.Markdown` (``.data``) without importing IPython.

    Parameters
    ----------
    text : str
        The Markdown source.
    """

    def __init__(self, text: str):
        self.data = str(text)

    def _repr_markdown_(self) -> str:
        return self.data

    def __repr__(self) -> str:
        return self.data

    __str__ = __repr__

    def __eq__(self, other) -> bool:
        return isinstance(other, Markdown) and other.data == self.data

    __hash__ = None


@validate_params(
    {"value": [Real], "digits": [StrictInterval(Integral, 0, None, closed="left")]},
    prefer_skip_nested_validation=True,
)
def signed(value: float, digits: int = 2) -> str:
    """``+1.60`` / ``−0.40`` with a true minus sign; a value that rounds to zero prints unsigned.

    Parameters
    ----------
    value : float
        The number.
    digits : int, default=2
        Decimals.

    Returns
    -------
    str

    Examples
    --------
    >>> signed(-0.004), signed(2.5, 1), signed(-3, 0)
    ('0.00', '+2.5', '−3')
    """
    if not math.isfinite(value):
        return "+∞" if value > 0 else "−∞" if value < 0 else "NaN"
    text = f"{value:+.{digits}f}"
    if float(text) == 0:
        return text[1:]
    return text.replace("-", "−")


def _join_words(items: Sequence) -> str:
    """``a, b and c``; ``a and b``; ``a``; ``none`` for no item.

    Parameters
    ----------
    items : sequence
        The items, in order (each printed with ``str``).

    Returns
    -------
    str

    Examples
    --------
    >>> _join_words(["x"]), _join_words(["x", "y", "z"]), _join_words([])
    ('x', 'x, y and z', 'none')
    """
    words = [str(item) for item in items]
    if not words:
        return "none"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]


def _decimals(spec: str, word: str) -> int:
    rest = spec[len(word):]
    if rest == "":
        return 2
    if not rest.startswith(".") or not rest[1:].isdigit():
        raise ValueError(f"render: format spec {spec!r} must be {word}.K with K decimals")
    return int(rest[1:])


class _Formatter(string.Formatter):
    """:class:`string.Formatter` with the specs of the module docstring."""

    def format_field(self, value, spec):
        if spec.startswith("signed"):
            return signed(_number(value, spec), _decimals(spec, "signed"))
        if spec.startswith("pct"):
            digits = _decimals(spec, "pct")
            return f"{100 * _number(value, spec):.{digits}f} %"
        if spec.startswith("plural "):
            words = spec[len("plural "):].split("|")
            if len(words) not in (1, 2) or not all(words):
                raise ValueError(f"render: format spec {spec!r} must be 'plural WORD' or 'plural WORD|WORDS'")
            count = _number(value, spec)
            if count != int(count):
                raise ValueError(f"render: 'plural' needs a whole count, got {value!r}")
            noun = words[0] if int(count) == 1 else (words[1] if len(words) == 2 else words[0] + "s")
            return f"{int(count)} {noun}"
        if spec.startswith("sign "):
            words = spec[len("sign "):].split("|")
            if len(words) != 3:
                raise ValueError(f"render: format spec {spec!r} must be 'sign NEG|ZERO|POS'")
            number = _number(value, spec)
            return words[0] if number < 0 else words[1] if number == 0 else words[2]
        if spec == "p":
            number = _number(value, spec)
            return "< 0.001" if number < 0.001 else f"= {number:.3f}"
        if spec == "list":
            if isinstance(value, str) or not isinstance(value, Sequence):
                raise ValueError(f"render: 'list' needs a sequence, got {type(value).__name__}")
            return _join_words(value)
        return super().format_field(value, spec)


def _number(value, spec) -> float:
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ValueError(f"render: format spec {spec!r} needs a number, got {value!r}")
    return float(value)


_FORMATTER = _Formatter()


@validate_params({"template": [str], "fields": [Mapping, None]}, prefer_skip_nested_validation=True)
def render(template: str, fields: Mapping | None = None, **more) -> Markdown:
    """Render ``template`` with ``fields`` (a mapping) and keyword values, as Markdown.

    Parameters
    ----------
    template : str
        A format string with the specs of the module docstring.
    fields : mapping, optional
        Field values (e.g. one row of a claims table); keyword arguments override them. A field
        named ``template`` or ``fields`` is given here, not as a keyword.
    **more
        Further field values (any other name, ``values`` included).

    Returns
    -------
    Markdown
        Shown rendered by Jupyter, compared as text by nbval.

    Raises
    ------
    KeyError
        A field the template names has no value (the message names the field).
    ValueError
        A format specification does not fit its value.
    """
    given = dict(fields or {})
    given.update(more)
    try:
        return Markdown(_FORMATTER.vformat(template, (), given))
    except KeyError as missing:
        raise KeyError(f"render: the template names {missing.args[0]!r}, which has no value; "
                       f"given {sorted(given)}") from None
