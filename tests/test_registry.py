"""The claims registries (``companion/experiments/registry/paperNN.toml``) and the tables built from them.

A ``paper`` claim's quote must be the paper's own sentence: it is looked up, whitespace-normalised,
in the paper's text (``../shared/papers/``), or, where the extraction lost the passage, in the
notes that quote the paper (``quote_source = "specs"``). A row's ``unit_test`` (a test that also
checks it) must name a test that exists. Every committed claims table carries the registry's columns, and no claim whose
design cannot reach α has a verdict.
"""

from __future__ import annotations

import ast
import re

import numpy as np
import pandas as pd
import pytest

from companion import claims as C
from companion.claims._statistics import ALPHA
from companion.claims._registry import REGISTRY_DIR
from companion.claims._report import sentence
from companion.paths import ROOT

REGISTRIES = sorted(REGISTRY_DIR.glob("paper[0-9][0-9].toml"))
SHARED = ROOT.parent / "shared"


def _normalised(text: str) -> str:
    """Whitespace collapsed, hyphenation at line ends undone, typographic quotes made plain."""
    text = re.sub(r"-\n\s*", "-", text)
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    return " ".join(text.split())


@pytest.mark.parametrize("path", REGISTRIES, ids=lambda p: p.stem)
def test_registry_loads_and_orders_central_claims_first(path):
    registry = C.load_registry(path)
    assert registry.key == path.stem[-2:]
    origins = [e["origin"] for e in registry.entries]
    central = [bool(e.get("central")) for e in registry.entries]
    # Paper 05's abstract and experiments are lost and its introduction states aims only: its
    # notebook says that no row can be central (referee's report 05, point 1)
    assert any(central) or registry.key == "05", f"{path.name}: no central claim"
    assert central == sorted(central, reverse=True), f"{path.name}: the central claims must come first"
    assert origins[0] == "paper"


@pytest.mark.parametrize("path", REGISTRIES, ids=lambda p: p.stem)
def test_every_paper_quote_is_verbatim(path):
    registry = C.load_registry(path)
    paper = SHARED / "papers" / registry.text
    if not paper.is_file():
        pytest.skip(f"the papers' texts are not beside this checkout ({paper})")
    texts = {"paper": _normalised(paper.read_text(encoding="utf-8"))}
    texts["specs"] = _normalised("\n".join(p.read_text(encoding="utf-8") for p in sorted((SHARED / "specs").glob("*.md"))))
    missing = [e["id"] for e in registry.entries if e["origin"] == "paper"
               and _normalised(e["quote"]) not in texts[e.get("quote_source", "paper")]]
    assert missing == [], f"{path.name}: quotes not found verbatim in {registry.text}: {missing}"


def _collected(node: str) -> bool:
    file, _, name = node.partition("::")
    name = name.split("[")[0]
    source = ROOT / file
    if not source.is_file():
        return False
    tree = ast.parse(source.read_text(encoding="utf-8"))
    return any(isinstance(n, ast.FunctionDef) and n.name == name for n in ast.walk(tree))


@pytest.mark.parametrize("path", REGISTRIES, ids=lambda p: p.stem)
def test_every_unit_test_named_by_a_row_exists(path):
    registry = C.load_registry(path)
    absent = [e["unit_test"] for e in registry.entries if e.get("unit_test") and not _collected(e["unit_test"])]
    assert absent == []


CLAIMS_TABLES = sorted((ROOT / "figures").glob("0[1-5]_claims.csv"))


@pytest.mark.parametrize("path", CLAIMS_TABLES, ids=lambda p: p.stem)
def test_claims_tables_carry_the_registry_and_no_verdict_beyond_the_design(path):
    registry_path = REGISTRY_DIR / f"paper{path.name[:2]}.toml"
    if not registry_path.is_file():
        pytest.xfail(f"notebook {path.name[:2]} has no registry yet")
    table = pd.read_csv(path, dtype={"id": str, "notebook": str}, keep_default_na=False, na_values=[""])
    for column in ("origin", "quote", "where", "min_p"):
        assert column in table.columns, f"{path.name} lacks {column}"
    registry = C.load_registry(registry_path)
    assert list(table["id"]) == [e["id"] for e in registry.entries]
    beyond = table[(table["min_p"] > ALPHA * (1 + 1e-12)) & table["verdict"].isin(["holds", "fails"])]
    assert beyond.empty, f"{path.name}: verdicts where the design cannot reach alpha: {list(beyond['id'])}"
    judged = table[~table["origin"].eq("paper")]
    assert not judged["verdict"].isin(["holds", "fails"]).any() or judged["kind"].eq("exact").all()
    # the table carries each row's kind by the referee's standard, as its registry says
    assert list(table["category"]) == [e["category"] for e in registry.entries]


# --------------------------------------------------------------------------------------------
# The loader refuses a malformed registry, naming the file, the claim and the field
# --------------------------------------------------------------------------------------------

GOOD = '''
[paper]
key = "09"
citation = "A. Author. A paper. 2099."
text = "09_paper.txt"

[[claim]]
id = "c1"
origin = "paper"
central = true
quote = "Our method is better."
where = "Section 5"
statement = "The method beats the baseline"
kind = "difference"
category = "empirical"
fixed = "2099-01-01 0123456789"
results_known = false
measure = "diff"
direction = "<"
margin = 0.0
margin_reason = "better means strictly lower error"
quantity = "error(A) − error(B)"
unit = "points"
ties = "a data set with equal errors is a tie, neither a win nor a loss"
variants = ["seed"]
discussion = "On {n:plural data set} the difference is {estimate:signed.2} points."

[[claim]]
id = "c2"
origin = "check"
statement = "Our rules equal the reference's"
kind = "exact"
category = "peer"
fixed = "2099-01-01 0123456789"
results_known = true
measure = "same"
'''


def _write(tmp_path, text):
    path = tmp_path / "paper09.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_registry_builds_a_family_and_its_report(tmp_path):
    registry = C.load_registry(_write(tmp_path, GOOD))
    rng = np.random.default_rng(0)
    main = -np.abs(rng.normal(1.0, 0.2, 12))
    measures = {"diff": lambda data: data["d"], "same": lambda data: data["same"]}
    variants = {"main": {"d": main, "same": True}, "seed=1": {"d": main + 3.0, "same": True},
                "seed=2": {"d": main, "same": True}, "tie=other": {"d": main + 5.0, "same": False}}
    report = C.evaluate(C.family(registry, measures), variants)
    table = report.table.set_index("id")
    assert table.loc["c1", "verdict"] == "holds" and table.loc["c1", "origin"] == "paper"
    assert table.loc["c1", "quote"] == "Our method is better." and bool(table.loc["c1", "central"])
    assert (table.loc["c1", "wins"], table.loc["c1", "ties"], table.loc["c1", "losses"]) == (12, 0, 0)
    assert table.loc["c1", "min_p"] == 2.0 ** -12
    # seed=1 flips it, seed=2 gives the same data ("unchanged by"), tie= is not listed for c1
    assert table.loc["c1", "seeds"] == "1 of 2 other seeds keep (1 of them with the same values)" and not table.loc["c1", "robust"]
    assert "flips under seed=1 (fails)" in table.loc["c1", "sensitivity"]
    assert "unchanged by seed=2" in table.loc["c1", "sensitivity"] and "tie" not in table.loc["c1", "sensitivity"]
    assert table.loc["c2", "verdict"] == "agrees"  # a check's word, not "holds"
    # a seed at which a claim is not measured neither keeps nor flips it
    variants["seed=3"] = {"d": None, "same": True}
    table = C.evaluate(C.family(registry, {"diff": lambda data: data["d"], "same": lambda data: data["same"]}),
                       variants).table.set_index("id")
    assert table.loc["c1", "seeds"] == "1 of 2 other seeds keep (1 of them with the same values)" and "not evaluated under seed=3" in table.loc["c1", "sensitivity"]
    # a claim not measured in the main run has no seed summary, even where its seeds are n/a too
    variants_na = {name: {**data, "d": None} for name, data in variants.items()}
    table_na = C.evaluate(C.family(registry, {"diff": lambda data: data["d"], "same": lambda data: data["same"]}),
                          variants_na).table.set_index("id")
    assert pd.isna(table_na.loc["c1", "verdict"]) or table_na.loc["c1", "verdict"] == "n/a"
    assert not isinstance(table_na.loc["c1", "seeds"], str) or table_na.loc["c1", "seeds"] == ""
    assert report.discussion().data == "* **c1.** On 12 data sets the difference is " + \
        f"{sentence(table.reset_index().iloc[0]).split('estimate ')[1].split(' points')[0]} points."
    with pytest.raises(ValueError, match="measures missing \\['same'\\]"):
        C.family(registry, {"diff": measures["diff"]})


def test_a_criterion_its_builder_refuses_names_the_file_and_the_claim(tmp_path):
    registry = C.load_registry(_write(tmp_path, GOOD.replace('direction = "<"', 'direction = "=<"')))
    measures = {"diff": lambda data: data["d"], "same": lambda data: data["same"]}
    message = r"paper09\.toml: claim 'c1': The 'direction' parameter of difference must be a str among .* Got '=<' instead"
    with pytest.raises(ValueError, match=message):
        C.family(registry, measures)


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('origin = "check"', 'origin = "folklore"'), r"claim 'c2': origin must be one of"),
    (lambda t: t.replace('quote = "Our method is better."\n', ""), r"claim 'c1': a paper claim needs 'quote'"),
    (lambda t: t.replace('margin_reason = "better means strictly lower error"\n', ""),
     r"claim 'c1': a difference claim needs 'margin_reason'"),
    (lambda t: t.replace('id = "c2"', 'id = "c1"'), r"claim 'c1': the id is repeated"),
    (lambda t: t.replace('kind = "exact"', 'kind = "exact"\nmargn = 1'), r"claim 'c2': unknown fields \['margn'\]"),
    (lambda t: t.replace('variants = ["seed"]', 'variants = ["seed=3"]'), r"claim 'c1': variants must be"),
    (lambda t: t.replace('origin = "check"', 'origin = "check"\ncentral = true'), r"only a paper claim can be central"),
    (lambda t: t.replace('key = "09"\n', ""), r"\[paper\]: field 'key'"),
    (lambda t: t + "\n[oops]\n", r"unknown tables \['oops'\]"),
    (lambda t: t.replace('category = "peer"', 'category = "empirical"'),
     r"claim 'c2': category 'empirical' belongs to origin 'paper', got origin 'check'"),
    (lambda t: t.replace('category = "peer"', 'category = "opinion"'), r"claim 'c2': category must be one of"),
    (lambda t: t.replace('category = "empirical"', 'category = "mathematical"'),
     r"claim 'c1': a mathematical statement needs formula in \('paper', 'reconstructed'\)"),
    (lambda t: t.replace('category = "empirical"', 'category = "mathematical"\nformula = "paper"'),
     r"claim 'c1': a mathematical statement is checked where it is shown: exactly \(kind 'exact'\)"),
    (lambda t: t.replace('category = "peer"', 'category = "peer"\nformula = "paper"'),
     r"claim 'c2': formula is for a mathematical statement, not a 'peer' row"),
    (lambda t: t.replace('category = "peer"', 'category = "sanity"\nby_construction = true').replace(
        'origin = "check"', 'origin = "sanity"'),
     r"claim 'c2': by_construction is for an empirical, mathematical, conformance or peer row"),
    (lambda t: t.replace('category = "empirical"', 'category = "empirical"\nby_construction = true'),
     r"claim 'c1': by_construction on an empirical row is for an exact count"),
    (lambda t: t.replace('kind = "exact"', 'kind = "unit_test"'),
     r"claim 'c2': kind 'unit_test' gives a verdict that nothing in the notebook computed"),
    (lambda t: t.replace('fixed = "2099-01-01 0123456789"\nresults_known = true', 'results_known = true'),
     r"claim 'c2': fixed must be 'YYYY-MM-DD <commit>'"),
    (lambda t: t.replace('results_known = false', 'results_known = "no"'), r"claim 'c1': results_known must be true or false"),
    (lambda t: t.replace('results_known = false', 'results_known = false\nsentence = 3'), r"claim 'c1': sentence must be a string"),
    (lambda t: t.replace('where = "Section 5"', 'where = "Section 5"\nquote_repairs = [["worse", "[better]"]]'),
     r"claim 'c1': quote_repairs: 'worse' is not in the quote"),
    (lambda t: t.replace('where = "Section 5"', 'where = "Section 5"\nquote_repairs = [["better", "best"]]'),
     r"claim 'c1': quote_repairs: the meant text 'best' must mark what it restores in square brackets"),
    (lambda t: t.replace('where = "Section 5"', 'where = "Section 5"\nquote_repairs = ["better"]'),
     r"claim 'c1': quote_repairs must be a list of \[extracted, meant\] pairs"),
    (lambda t: t.replace('text = "09_paper.txt"', 'text = "09_paper.txt"\nquote_repairs = [["1", "oo"]]'),
     r"\[paper\]: quote_repairs: the meant text 'oo' must mark"),
    (lambda t: t.replace('text = "09_paper.txt"', 'text = "09_paper.txt"\nrepairs = []'),
     r"\[paper\]: unknown fields \['repairs'\]"),
    (lambda t: t.replace('results_known = false', 'results_known = false\ncheck_variants = ["inner_splits"]'),
     r"claim 'c1': check_variants must be a list of variant names \(before '='\) of a row with an honest_check"),
])
def test_a_malformed_registry_is_refused_naming_the_field(tmp_path, edit, message):
    with pytest.raises(ValueError, match=message) as error:
        C.load_registry(_write(tmp_path, edit(GOOD)))
    assert "paper09.toml" in str(error.value)


def test_a_quote_shows_its_repairs_marked_and_the_registry_keeps_the_extracted_sentence(tmp_path):
    text = GOOD.replace('text = "09_paper.txt"', 'text = "09_paper.txt"\nquote_repairs = [["ﬁ", "[ff]"]]').replace(
        'quote = "Our method is better."', 'quote = "Our method is di\uFB01erent, better when p = 1."\n'
                                           'quote_repairs = [["p = 1", "p = [∞]"]]')
    registry = C.load_registry(_write(tmp_path, text))
    entry = registry.entries[0]
    assert entry["quote"] == "Our method is di\uFB01erent, better when p = 1."  # as extracted, checked verbatim
    shown = "Our method is di[ff]erent, better when p = [∞]."
    assert registry.shown_quote(entry) == shown
    family = C.family(registry, {"diff": lambda data: data["d"], "same": lambda data: data["same"]})
    assert family[0].quote == shown
    assert f"“{shown}”" in registry.markdown().data
    # a restored subscript before a parenthesis is no Markdown link where the quote is shown
    from companion.claims._registry import markdown_quote

    assert markdown_quote("provide log[₂](r) bits") == "provide log[₂]\\(r) bits"
    # a ligature the extraction kept as the paper's own glyph is spelt out, unmarked
    assert C.load_registry(_write(tmp_path, GOOD.replace("better.", "classi\uFB01er."))).shown_quote(
        {"quote": "a classi\uFB01er"}) == "a classifier"


def test_the_normaliser_finds_quotes_across_line_breaks():
    assert _normalised("The DLM is a\n   generaliza-\n tion of") == "The DLM is a generaliza-tion of"
    assert _normalised("a “quoted”  word") == 'a "quoted" word'


def test_the_registry_reads_as_a_markdown_list(tmp_path):
    text = C.load_registry(_write(tmp_path, GOOD)).markdown().data
    assert text == ("<details><summary>The registry's 2 rows (1 quoting the paper, with where each sentence "
                    "stands)</summary>\n\n* **c1** (Section 5): “Our method is better.”\n"
                    "* **c2** *(check)*: Our rules equal the reference's\n\n</details>")


def test_the_criterion_history_is_read_from_git(tmp_path):
    """A row's criterion dates from the oldest registry version, in the unbroken run up to HEAD,
    that has it; a later change of another field (the quote) does not move it."""
    import subprocess

    from companion.claims import _history
    from companion.claims._registry import REGISTRY_DIR as real

    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    folder = tmp_path / real.relative_to(ROOT)
    folder.mkdir(parents=True)
    (tmp_path / "notebooks").mkdir()
    git("init", "-q")
    git("config", "user.email", "t@t")
    git("config", "user.name", "t")
    registry = folder / "paper09.toml"
    versions = [GOOD, GOOD.replace("margin = 0.0", "margin = 1.0"), GOOD.replace("margin = 0.0", "margin = 1.0")
                .replace("Our method is better.", "Our method is better!")]
    for number, text in enumerate(versions):
        registry.write_text(text, encoding="utf-8")
        if number == 1:  # the notebook first executed between the first and second versions? no: before the second
            (tmp_path / "notebooks" / "09_x.ipynb").write_text('{"cells": [{"outputs": [\n{"a": 1}]}]}')
        git("add", "-A")
        git("commit", "-q", "-m", f"v{number}", "--date", f"2099-01-0{number + 1}T00:00:00")
    history = _history.criterion_history("09", tmp_path, registry_dir=folder)
    commits = subprocess.run(["git", "-C", str(tmp_path), "log", "--reverse", "--format=%H"], check=True,
                             capture_output=True, text=True).stdout.split()
    assert history["c1"]["commit"] == commits[1]  # the margin changed there; the quote later does not count
    assert history["c1"]["results_known"] is False  # the notebook arrived in that same commit
    assert history["c2"]["commit"] == commits[0]


@pytest.mark.parametrize("path", REGISTRIES, ids=lambda p: p.stem)
def test_every_row_says_when_its_criterion_was_fixed_as_git_log_shows(path):
    from companion.claims._history import criterion_history

    if not (ROOT / ".git").exists():
        pytest.skip("no git history beside this checkout")
    registry = C.load_registry(path)
    history = criterion_history(registry.key)
    wrong = []
    for entry in registry.entries:
        found = history[entry["id"]]
        expected = f"{found['date']} {found['commit'][:10]}"
        if entry["fixed"] != expected or entry["results_known"] != found["results_known"]:
            wrong.append((entry["id"], entry["fixed"], entry["results_known"], expected, found["results_known"]))
    assert wrong == [], f"{path.name}: fixed / results_known differ from git log (id, registry, git): {wrong}"


def test_rows_of_one_sentence_are_counted_once(tmp_path):
    """Two readings of one sentence of the paper: the summary says how many sentences its rows judge."""
    from companion.claims._report import kind_counts

    second = GOOD.split("[[claim]]")[1].replace('id = "c1"', 'id = "c1b"').replace('central = true\n', '')
    registry = C.load_registry(_write(tmp_path, GOOD + "\n[[claim]]" + second))
    rng = np.random.default_rng(0)
    main = -np.abs(rng.normal(1.0, 0.2, 12))
    report = C.evaluate(C.family(registry, {"diff": lambda data: data["d"], "same": lambda data: data["same"]}),
                        {"main": {"d": main, "same": True}})
    assert kind_counts(report.table)["empirical"] == "2 rows on 1 sentence: 2 holds"
    # a sentence key joins rows whose quotes differ (two fragments of one sentence); none: each its own
    table = report.table.copy()
    table.loc[table["id"] == "c1b", "quote"] = "Our method is better, too."
    assert kind_counts(table)["empirical"] == "2: 2 holds"
    table["sentence"] = "the-sentence"
    assert kind_counts(table)["empirical"] == "2 rows on 1 sentence: 2 holds"
