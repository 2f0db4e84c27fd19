"""companion.prose: the one template mechanism of generated sentences."""

from __future__ import annotations

import pytest

from companion.prose import Markdown, render, signed


def test_specs():
    text = render("{n:plural data set}; {m:plural class|classes}; {d:signed.1}; {z:signed.2}; {s:pct.1}; "
                  "{d:sign below|equal to|above}; {z:sign below|at|above}; {p:p}; {q:p}; {names:list}; {x:.3f}",
                  n=1, m=3, d=-0.44, z=0.0001, s=0.5, p=0.0312, q=0.0002, names=("a", "b"), x=1 / 3)
    assert isinstance(text, Markdown)
    assert text.data == "1 data set; 3 classes; −0.4; 0.00; 50.0 %; below; above; = 0.031; < 0.001; a and b; 0.333"


def test_values_mapping_and_keywords_override():
    assert render("{a} {b}", {"a": 1, "b": 2}, b=3).data == "1 3"
    # any other keyword is a field, ``values`` included (notebook 01's grid sentences use it)
    assert render("{values} {k}", k=2, values="0.5, 1").data == "0.5, 1 2"


@pytest.mark.parametrize("template, values, error, message", [
    ("{missing}", {}, KeyError, "names 'missing'"),
    ("{n:plural}", {"n": 2}, ValueError, "format spec"),
    ("{n:plural data set}", {"n": 2.5}, ValueError, "whole count"),
    ("{x:sign a|b}", {"x": 1}, ValueError, "NEG|ZERO|POS"),
    ("{x:signed.k}", {"x": 1}, ValueError, "signed.K"),
    ("{x:p}", {"x": "0.1"}, ValueError, "needs a number"),
    ("{x:list}", {"x": "abc"}, ValueError, "needs a sequence"),
])
def test_bad_templates_are_refused_clearly(template, values, error, message):
    with pytest.raises(error, match=message):
        render(template, values)


def test_helpers():
    assert signed(float("inf")) == "+∞" and signed(-1.005, 1) == "−1.0"
    assert str(render("{w:list}", w=["a", "b", "c"])) == "a, b and c"
