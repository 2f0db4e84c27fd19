"""Tests of companion.claims: statistics against enumeration, verdict logic, sensitivity, output."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from companion import claims as C
from companion.claims._statistics import ALPHA, hodges_lehmann, holm, rejects
from companion.claims._publish import render_readme_section, stale_readme_sections
from companion.claims._publish import update_readme
from companion.claims._report import TABLE_COLUMNS, summary, verdict_markdown, verdict_sections
from companion.claims._statistics import binomial_tail, binomial_tails, clopper_pearson, wilcoxon_test
from companion.paths import results_path
from tests._naive import naive_hodges_lehmann, naive_holm, naive_signed_rank_p

# --------------------------------------------------------------------------------------------
# Holm
# --------------------------------------------------------------------------------------------


def test_holm_matches_the_step_down_loop(rng):
    for m in (1, 2, 3, 5, 9):
        for _ in range(40):
            p = rng.uniform(0, 0.2, size=m)
            if m > 2:
                p[1] = p[0]  # a tie
            np.testing.assert_allclose(holm(p), naive_holm(p), rtol=1e-12, atol=0)


def test_holm_ignores_untested_claims():
    adjusted = holm([0.01, np.nan, 0.02])
    assert np.isnan(adjusted[1])
    np.testing.assert_allclose(adjusted[[0, 2]], naive_holm([0.01, 0.02]))


# --------------------------------------------------------------------------------------------
# Wilcoxon, Hodges-Lehmann, binomial
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("alternative", ["less", "greater"])
def test_signed_rank_p_matches_enumeration_with_ties_and_zeros(rng, alternative):
    for n in (1, 4, 7, 10):
        for _ in range(10):
            x = rng.integers(-3, 4, size=n).astype(float)  # ties and zeros on purpose
            p, _ = wilcoxon_test(x, alternative=alternative)
            assert p == pytest.approx(naive_signed_rank_p(x, alternative), rel=1e-12, abs=0)


def test_signed_rank_p_is_exact_dyadic_and_agrees_with_scipy_without_ties(rng):
    from scipy import stats

    x = rng.normal(0.3, 1.0, size=20)
    p, _ = wilcoxon_test(x, alternative="greater")
    assert (p * 2**20) == int(p * 2**20)  # an exact count over 2**20 sign vectors
    assert p == pytest.approx(stats.wilcoxon(x, alternative="greater", method="exact").pvalue, rel=1e-12)


def test_zero_methods():
    x = np.array([0.0, 0.0, 1.0, 2.0, 3.0, -0.5])
    pratt, _ = wilcoxon_test(x, alternative="greater", zero_method="pratt")
    zsplit, _ = wilcoxon_test(x, alternative="greater", zero_method="zsplit")
    wilcox, _ = wilcoxon_test(x, alternative="greater", zero_method="wilcox")
    assert pratt == zsplit == pytest.approx(naive_signed_rank_p(x, "greater"))
    assert wilcox == pytest.approx(naive_signed_rank_p(x[x != 0], "greater"))
    assert wilcoxon_test(np.zeros(5), alternative="less")[0] == 1.0


def test_fractions_are_ranked_exactly():
    # 1/3 - 1/3 is exactly zero and 0.1 + 0.2 vs 0.3 exactly tied as fractions
    d = [Fraction(1, 3) - Fraction(1, 3), Fraction(1, 10) + Fraction(2, 10), Fraction(3, 10), Fraction(-1, 7)]
    p, statistic = wilcoxon_test(d, alternative="greater")
    assert statistic == 3.5 + 3.5  # ranks 3.5 and 3.5 for the tied pair (zero has rank 1)
    assert p == pytest.approx(naive_signed_rank_p([0, 0.3, 0.3, -1 / 7], "greater"))


def test_float_noise_is_tied_within_tie_rtol():
    d = np.array([0.1 + 0.2, 0.3, 1.0, -0.7])
    assert wilcoxon_test(d, alternative="less") == wilcoxon_test(np.array([0.3, 0.3, 1.0, -0.7]),
                                                                      alternative="less")


def test_hodges_lehmann_estimate_matches_the_double_loop(rng):
    for n in (1, 2, 5, 12, 31):
        x = rng.normal(size=n)
        assert hodges_lehmann(x)[0] == pytest.approx(naive_hodges_lehmann(list(x)), rel=1e-12, abs=1e-15)


def test_hodges_lehmann_interval_is_the_inversion_of_the_exact_test(rng):
    tail = 0.025
    for _ in range(6):
        x = rng.normal(size=9)
        _, low, high = hodges_lehmann(x, confidence=0.95)
        eps = 1e-7
        # just inside: neither one-sided test rejects; just outside: one does
        for theta in (low + eps, high - eps):
            assert naive_signed_rank_p(x - theta, "greater") > tail
            assert naive_signed_rank_p(x - theta, "less") > tail
        assert naive_signed_rank_p(x - (low - eps), "greater") <= tail
        assert naive_signed_rank_p(x - (high + eps), "less") <= tail


def test_hodges_lehmann_interval_is_infinite_for_tiny_samples():
    assert hodges_lehmann([1.0, 2.0, 3.0, 4.0, 5.0])[1:] == (-math.inf, math.inf)
    assert np.isfinite(hodges_lehmann([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])[1])


@pytest.mark.slow  # a coverage simulation: thousands of intervals
def test_interval_coverage_on_simulated_data():
    rng = np.random.default_rng(12345)
    truth = 0.7
    n_sim = 400
    covered = {"wilcoxon": 0, "t": 0, "sign": 0}
    for _ in range(n_sim):
        x = truth + rng.standard_t(3, size=15)  # symmetric about `truth`, heavy tails
        family = [C.difference(test, "location", x, direction="<=", margin=0.0, test=test) for test in covered]
        for _, row in C.evaluate(family, None).table.iterrows():
            covered[row["test"]] += row["ci_low"] <= truth <= row["ci_high"]
    for test, count in covered.items():
        # exact intervals: >= 95 % (sign test's is conservative); t under t3 errors is close to it
        assert 0.93 <= count / n_sim <= 0.995, (test, count / n_sim)
    hits = 0
    for _ in range(n_sim):
        k = int(rng.binomial(25, 0.3))
        low, high = clopper_pearson(k, 25, 0.95)
        hits += low <= 0.3 <= high
    assert hits / n_sim >= 0.94


def test_binomial_tail_is_exact():
    assert binomial_tail(7, 10, 0.5, upper=True) == 176 / 1024
    assert binomial_tail(3, 10, 0.5, upper=False) == 176 / 1024
    assert binomial_tail(0, 4, 0.25, upper=True) == 1.0


def test_binomial_tail_is_the_sum_of_its_terms_as_fractions_to_the_last_bit():
    """The integer form gives the float of the same exact rational as the term-by-term sum of
    fractions (a correctly rounded division of the same value), cached or not."""
    rng = np.random.default_rng(20261207)
    for _ in range(300):
        n = int(rng.integers(1, 160))
        k = int(rng.integers(0, n + 1))
        p0 = float(rng.choice([0.05, 0.5, 0.1, 1 / 3, float(rng.random())]))
        for upper in (True, False):
            q = Fraction(p0)
            values = range(k, n + 1) if upper else range(0, k + 1)
            naive = float(sum((math.comb(n, i) * q**i * (1 - q) ** (n - i) for i in values), Fraction(0)))
            assert binomial_tail(k, n, p0, upper=upper) == naive, (k, n, p0, upper)
            assert binomial_tail(np.int64(k), n, np.float64(p0), upper=upper) == naive  # numpy scalars


def test_binomial_tails_give_each_count_the_sum_of_its_terms_as_fractions():
    """The tails of many counts at once (terms summed once) are, count by count, the naive sum of
    fractions to the last bit, in the order given, repeats and counts beyond 0..n included."""
    rng = np.random.default_rng(20261207 + 1)
    for _ in range(60):
        n = int(rng.integers(1, 120))
        ks = [int(k) for k in rng.integers(-2, n + 3, size=int(rng.integers(1, 12)))]
        p0 = float(rng.choice([0.05, 0.5, 1 / 3, float(rng.random())]))
        q = Fraction(p0)
        for upper in (True, False):
            naive = []
            for k in ks:
                values = range(max(k, 0), n + 1) if upper else range(0, min(k, n) + 1)
                naive.append(float(sum((math.comb(n, i) * q**i * (1 - q) ** (n - i) for i in values), Fraction(0))))
            assert binomial_tails(ks, n, p0, upper=upper) == naive, (ks, n, p0, upper)
    assert binomial_tails([], 5, 0.5, upper=True) == []


# --------------------------------------------------------------------------------------------
# Verdicts
# --------------------------------------------------------------------------------------------


def _one(claim, data=None):
    return C.evaluate([claim], data).table.iloc[0]


def test_clear_holds_clear_fails_and_straddling():
    rng = np.random.default_rng(1)
    low = rng.normal(0.0, 0.5, size=20)
    holds = _one(C.difference("a", "A at most 2 worse", low, direction="<=", margin=2.0))
    assert holds["verdict"] == "holds" and holds["ci_high"] < 2.0 and holds["p_holm"] <= ALPHA
    fails = _one(C.difference("a", "A at most 2 worse", low + 4.0, direction="<=", margin=2.0))
    assert fails["verdict"] == "fails" and fails["ci_low"] > 2.0 and fails["p_fail_holm"] <= ALPHA
    straddle = _one(C.difference("a", "A at most 2 worse", low + 2.0, direction="<=", margin=2.0))
    assert straddle["verdict"] == "undecided" and straddle["ci_low"] < 2.0 < straddle["ci_high"]


def test_one_sided_direction():
    d = np.linspace(1.0, 3.0, 15)  # clearly positive
    assert _one(C.difference("a", "A larger", d, direction=">=", margin=0.0))["verdict"] == "holds"
    assert _one(C.difference("a", "A smaller", d, direction="<", margin=0.0))["verdict"] == "fails"
    # a one-sided claim is not decided by the opposite side's evidence
    row = _one(C.difference("a", "A at most 5 larger", d, direction="<=", margin=5.0))
    assert row["verdict"] == "holds" and row["p_raw"] < ALPHA


def test_absence_of_evidence_is_not_holds():
    on_margin = _one(C.difference("a", "no worse", np.full(30, 1.0), direction="<=", margin=1.0))
    assert on_margin["verdict"] == "undecided"  # exactly on the margin: no evidence either way
    # head to head every difference is a loss (+1 > 0); against the margin every one is a tie
    assert (on_margin["wins"], on_margin["ties"], on_margin["losses"]) == (0, 0, 30)
    assert (on_margin["margin_wins"], on_margin["margin_ties"], on_margin["margin_losses"]) == (0, 30, 0)
    zeros = _one(C.difference("a", "no worse", np.zeros(30), direction="<=", margin=0.0))
    assert zeros["verdict"] == "identical"  # the two sides never differ: said as such, never "holds"
    few = _one(C.difference("a", "better", [-1.0, -2.0, -3.0], direction="<", margin=0.0))
    assert few["verdict"] == "not decidable"  # 3 pairs cannot reach 2.5 %: 2^-3 = 0.125
    assert few["min_p"] == 0.125 and "0.125 > α = 0.025" in few["detail"]


def test_within_is_an_equivalence_test():
    rng = np.random.default_rng(3)
    tight = rng.normal(0.0, 0.3, size=30)
    assert _one(C.difference("a", "same", tight, direction="within", margin=1.0))["verdict"] == "holds"
    assert _one(C.difference("a", "same", tight + 3.0, direction="within", margin=1.0))["verdict"] == "fails"
    assert _one(C.difference("a", "same", tight * 10, direction="within", margin=1.0))["verdict"] == "undecided"


def test_ratio_claims_work_on_log_ratios():
    rng = np.random.default_rng(4)
    small = rng.integers(3, 8, size=20)
    large = small * np.exp(rng.normal(math.log(4), 0.2, size=20))
    row = _one(C.ratio("r", "B at least twice A", (large, small), direction=">=", margin=2.0))
    assert row["verdict"] == "holds" and 3.0 < row["estimate"] < 5.5 and row["ci_low"] > 2.0
    row = _one(C.ratio("r", "B at least 5x A", (large, small), direction=">=", margin=5.0))
    assert row["verdict"] == "fails"
    with pytest.raises(ValueError, match="claim 'r'.*positive.*offset"):
        _one(C.ratio("r", "x", (np.array([0.0, 1.0]), np.array([1.0, 1.0])), direction=">=", margin=2.0))
    ok = _one(C.ratio("r", "x", (np.array([0.0, 1.0]), np.array([1.0, 1.0])), direction=">=", margin=2.0, offset=1))
    assert np.isfinite(ok["estimate"])


def test_proportion_claims():
    assert _one(C.proportion("p", "majority", (18, 20)))["verdict"] == "holds"
    assert _one(C.proportion("p", "majority", (2, 20)))["verdict"] == "fails"
    row = _one(C.proportion("p", "majority", (12, 20)))
    assert row["verdict"] == "undecided"
    assert row["p_raw"] == pytest.approx(binomial_tail(12, 20, 0.5, upper=True))
    assert (row["ci_low"], row["ci_high"]) == clopper_pearson(12, 20)


def test_guaranteed_and_exact_claims_stay_out_of_the_holm_family():
    d = -np.linspace(0.5, 1.5, 12)
    tested = C.difference("t", "better", d, direction="<", margin=0.0)
    alone = C.evaluate([tested], None).table.iloc[0]
    family = [tested, C.guaranteed("g", "fewer genes", "capped at 5 against 16"),
              C.exact("e", "same rules", lambda data: (data["equal"], "9/9 rules")),
              C.exact("f", "wrong", False)]
    report = C.evaluate(family, {"main": {"equal": True}})
    table = report.table.set_index("id")
    assert table.loc["t", "p_holm"] == alone["p_holm"]  # m = 1: only the tested claim counts
    assert table.loc["g", "verdict"] == "guaranteed" and np.isnan(table.loc["g", "p_holm"])
    assert table.loc["e", "verdict"] == "holds" and table.loc["e", "detail"] == "9/9 rules"
    assert table.loc["f", "verdict"] == "fails" and np.isnan(table.loc["f", "p_raw"])
    assert "**guaranteed** by construction (capped at 5 against 16)" in str(report.sentence("g"))
    assert "(checked in this notebook: 9/9 rules)" in str(report.sentence("e"))
    # an exact check that a variant flips says so beside its verdict word
    flipping = C.evaluate([dataclasses.replace(family[2], variants=("encoding",))],
                          {"main": {"equal": True}, "encoding=other": {"equal": False}})
    assert "**holds**, not robust (checked in this notebook: 9/9 rules" in str(flipping.sentence("e"))
    assert "**holds** (checked" in str(report.sentence("e"))


def test_holm_correction_changes_a_verdict():
    # raw p just below alpha for one claim; nine other claims make it undecided after Holm
    x = -np.arange(1, 8, dtype=float)  # n = 7: exact p = 1/128 < 0.025
    single = C.evaluate([C.difference("a", "neg", x, direction="<", margin=0.0)], None).table.iloc[0]
    assert single["p_raw"] == 1 / 128 and single["verdict"] == "holds"
    # with three claims over 20 pairs of smaller raw p, "a" (1/128) ranks last and Holm keeps it
    y = -np.arange(1, 21, dtype=float)
    y[:6] *= -1  # raw p = 0.000425
    family = [C.difference("a", "neg", x, direction="<", margin=0.0)] + [
        C.difference(f"b{k}", "neg", y, direction="<", margin=0.0) for k in range(3)]
    table = C.evaluate(family, None).table.set_index("id")
    assert table.loc["a", "min_p"] == 1 / 128  # decidable: ranked last when all reach their minima
    assert table.loc["a", "p_holm"] == 1 / 128 and table.loc["a", "verdict"] == "holds"
    # four claims of 7 pairs: every design minimum is 1/128, Holm makes it 4/128 > alpha
    family = [C.difference(str(k), "neg", x, direction="<", margin=0.0) for k in range(4)]
    table = C.evaluate(family, None).table
    assert (table["min_p"] == 4 / 128).all() and (table["verdict"] == "not decidable").all()
    # three of them: 3/128 = 0.0234 <= alpha, decidable; the observed p's Holm-corrected to 3/128
    table = C.evaluate(family[:3], None).table
    assert (table["p_holm"] == 3 / 128).all() and (table["verdict"] == "holds").all()
    # a 4th claim with a larger raw p turns the first three's verdict after Holm
    z = -np.arange(1, 21, dtype=float)
    z[:9] *= -1  # raw p = 0.0120 > 1/128: the three rank first, x4; design minimum 2^-20
    table = C.evaluate(family[:3] + [C.difference("z", "neg", z, direction="<", margin=0.0)], None).table
    assert (table["verdict"].iloc[:3] == "undecided").all() and (table["p_holm"].iloc[:3] == 4 / 128).all()


def test_p_tie_rule_is_deterministic():
    assert rejects(ALPHA) and rejects(ALPHA * (1 + 1e-13)) and not rejects(ALPHA * (1 + 1e-9))
    assert not rejects(np.nan)


# --------------------------------------------------------------------------------------------
# Sensitivity
# --------------------------------------------------------------------------------------------


def test_sensitivity_robust_flag_and_flips():
    rng = np.random.default_rng(5)
    base = rng.normal(-1.0, 0.4, size=20)
    data = {"main": base, "polarity=other": base + 1.0, "encoding=one-hot": base - 0.1}
    family = [
        C.difference("1", "A better than B", lambda d: d, direction="<", margin=0.0),
        C.difference("2", "A at most 3 worse", lambda d: d, direction="<=", margin=3.0),
        C.difference("3", "only on main", lambda d: d if d is base else None, direction="<", margin=0.0),
    ]
    report = C.evaluate(family, data)
    table = report.table.set_index("id")
    assert not table.loc["1", "robust"] and table.loc["1", "flips"] == "polarity=other (undecided)"
    assert table.loc["1", "sensitivity"] == "robust to encoding=one-hot; flips under polarity=other (undecided)"
    assert table.loc["2", "robust"] and table.loc["2", "sensitivity"] == "robust to polarity=other, encoding=one-hot"
    assert "not evaluated under polarity=other, encoding=one-hot" in table.loc["3", "sensitivity"]
    long = report.sensitivity
    assert len(long) == 9 and set(long["variant"]) == set(data)
    # Holm within each variant's own family: claim 3 is n/a there, so m = 2 for the variants
    other = long[long["variant"] == "encoding=one-hot"].set_index("id")
    assert other.loc["3", "verdict"] == "n/a"
    np.testing.assert_allclose(other.loc[["1", "2"], "p_holm"], naive_holm(other.loc[["1", "2"], "p_raw"]))
    sentence = str(report.sentence("1"))
    assert sentence.endswith("robust to encoding=one-hot; flips under polarity=other (undecided)).")


# --------------------------------------------------------------------------------------------
# Output: sentences, CSV, README sections
# --------------------------------------------------------------------------------------------


def _report():
    rng = np.random.default_rng(6)
    d = rng.normal(1.0, 0.8, size=25)
    family = [
        C.difference("1", "WIDC(p) vs J48", lambda v: v, direction="<=", margin=2.0,
                     quantity="error(WIDC(p)) − error(J48)", unit="points", digits=1),
        C.proportion("2", "WIDC(p) best on a majority of sets", (20, 25)),
        C.guaranteed("3", "fewer genes", "capped at 5"),
    ]
    return C.evaluate(family, {"main": d, "polarity=other": d + 1.0})


def test_sentence_format():
    report = _report()
    text = str(report.sentence("1"))
    row = report.table.iloc[0]
    expected = (f"WIDC(p) vs J48, error(WIDC(p)) − error(J48) ≤ +2.0 points: **holds**, not robust (no variant "
                f"reverses it: the one variant that changes it leaves it undecided) (estimate "
                f"+{row['estimate']:.1f} points, 95 % CI [+{row['ci_low']:.1f}, +{row['ci_high']:.1f}], unadjusted, "
                f"Holm p < 0.001, Wilcoxon, n = 25, head to head {int(row['wins'])}/0/{int(row['losses'])} "
                f"(wins/ties/losses), against the margin {int(row['margin_wins'])}/0/{int(row['margin_losses'])}; "
                f"flips under polarity=other (undecided)).")
    d = rng_differences = np.random.default_rng(6).normal(1.0, 0.8, size=25)
    # head to head: a win is a difference below 0; against the margin, below +2
    assert (row["wins"], row["losses"]) == ((d < 0).sum(), (d > 0).sum())
    assert (row["margin_wins"], row["margin_losses"]) == ((d < 2).sum(), (d > 2).sum())
    assert rng_differences is d
    assert text == expected
    markdown = report.sentences()
    assert markdown._repr_markdown_() == repr(markdown) == markdown.data
    # two layers: the statement and its short verdict, then the statistics folded beneath
    items = markdown.data.split("\n* ")
    assert len(items) == 3 and items[0].startswith('* <a id="claim-1"></a>**1.** WIDC(p) vs J48 — '
                                                   '<span class="verdict-headline">**holds**; the one variant run '
                                                   'makes it undecided: polarity=other (undecided)</span>')
    assert f"<details><summary>Statistics and variants</summary>\n\n  {expected}\n\n  </details>" in items[0]
    # a stand-in peer: marked in the first layer, named in full in the statistics beneath
    table = report.table.copy()
    table.loc[table["id"] == "1", "stand_in"] = "our J48 run for the paper's C4.5"
    first, folded = verdict_markdown(table, "1").data.split("<details>")
    assert "WIDC(p) vs J48 *(against a stand-in)* — " in first and "our J48" not in first
    assert "[peer: our J48 run for the paper's C4.5]" in folded
    table.loc[table["id"] == "1", "statement"] = "WIDC(p) vs J48 (our stand-in)"  # said already: not repeated
    assert "*(against a stand-in)*" not in verdict_markdown(table, "1").data


def test_saved_csv_gives_the_same_sentences():
    report = _report()
    report.save("00_test_claims")
    path = results_path("00_test_claims.csv")
    try:
        assert verdict_sections(path) == report.sentences()
        back = pd.read_csv(path)
        assert list(back.columns) == TABLE_COLUMNS
        assert results_path("00_test_claims_sensitivity.csv").is_file()
    finally:
        path.unlink()
        results_path("00_test_claims_sensitivity.csv").unlink()


def test_readme_sections(tmp_path):
    report = _report()
    csv = tmp_path / "04_claims.csv"
    report.table.to_csv(csv, index=False, float_format="%.10g")
    readme = tmp_path / "README.md"
    readme.write_text("# Title\n\n## Results\n\n<!-- claims:04 -->\nold text\n<!-- /claims:04 -->\n\nTail.\n",
                      encoding="utf-8")
    assert stale_readme_sections(readme, {"04": csv, "03": csv}) == ["04", "03"]
    assert update_readme(readme, {"04": csv, "03": csv}) is True
    text = readme.read_text(encoding="utf-8")
    assert "old text" not in text and text.index("<!-- /claims:04 -->") < text.index("Tail.")
    assert text.rstrip().endswith("<!-- /claims:03 -->")
    assert stale_readme_sections(readme, {"04": csv, "03": csv}) == []
    assert update_readme(readme, {"04": csv}) is False
    # a changed table makes the section stale again
    changed = report.table.copy()
    changed.loc[0, "verdict"] = "fails"
    assert stale_readme_sections(readme, {"04": changed}) == ["04"]
    readme.write_text(text.replace("<!-- /claims:04 -->", ""), encoding="utf-8")
    with pytest.raises(ValueError, match="markers of claims section '04'"):
        stale_readme_sections(readme, {"04": csv})


def test_glance_counts_by_kind_and_states_the_central_ones(tmp_path):
    table = _report().table.copy()
    table["notebook"] = "04"
    table["category"] = ["empirical", "peer", "empirical"]
    table.loc[0, "central"] = True
    table.loc[1, ["origin", "verdict"]] = ["check", "agrees"]
    readme = tmp_path / "README.md"
    readme.write_text("# Title\n\n<!-- claims:glance -->\n<!-- /claims:glance -->\n", encoding="utf-8")
    assert stale_readme_sections(readme, {"04": table}, glance=True) == ["glance"]
    assert update_readme(readme, {"04": table}, glance=True) is True
    text = readme.read_text(encoding="utf-8")
    link = "[nb-04]"
    # the empirical results counted by verdict, the guaranteed one apart; the check by itself
    assert f"| 04 | [1: 1 holds (1 not robust); 1 true by construction (untested)]{link} | [0]{link} | [0]{link} " in text
    assert f"| [1 of 1 agree]{link} | [0]{link} | [0 aims, 0 observations]{link} |" in text
    # no honest check is declared: the main design is not called the paper's protocol
    assert ("* [04: WIDC(p) vs J48 — **holds**; "
            "the one variant run makes it undecided: polarity=other (undecided)][claim-04-1]") in text
    assert "[nb-04]: docs/results.md#notebook-04\n[claim-04-1]: docs/results.md#claim-04-1" in text
    assert stale_readme_sections(readme, {"04": table}, glance=True) == []
    # the full sections are a different block: the glance file has none of them
    assert stale_readme_sections(readme, {"04": table}) == ["04"]


def test_honest_check_and_history_are_reported_beside_the_verdict():
    rng = np.random.default_rng(3)
    paper, nested = -np.abs(rng.normal(1.0, 0.2, 30)), rng.normal(0.0, 1.0, 30)
    claim = dataclasses.replace(
        C.difference("1", "A beats B", lambda data: data, direction="<", unit="points"),
        honest_check="protocol=nested", fixed="2026-12-03 abcdef1234", results_known=True,
        history="Judged under nested CV before; the paper's protocol leads now.", category="empirical")
    report = C.evaluate([claim], {"main": paper, "protocol=nested": nested})
    row = report.table.iloc[0]
    assert row["verdict"] == "holds" and row["check_variant"] == "protocol=nested"
    assert row["check_verdict"] == report.sensitivity.set_index("variant").loc["protocol=nested", "verdict"]
    text = report.sentence("1").data
    assert text.endswith(f"Honest check (protocol=nested): **{row['check_verdict']}** (estimate "
                         f"{row['check_estimate']:+.2f} points, 95 % CI [{row['check_ci_low']:+.2f}, "
                         f"{row['check_ci_high']:+.2f}]).".replace("-", "−"))
    # the central line is the statement and the short verdict: the honest check stated once
    from companion.claims._report import HEADLINE_WORDS, central_lines, headline, headline_words

    table = report.table.assign(central=True, notebook="01")
    line = central_lines(table)[0]
    assert line == f"[A beats B](#claim-01-1) — {headline(table.iloc[0])}"
    assert headline(row) == (f"**holds** under the paper's protocol, **{row['check_verdict']}** under the honest "
                             "check")
    alone = report.table.iloc[0].copy()
    alone[["robust", "seeds", "flips", "check_variant", "check_verdict", "variants_run"]] = \
        [True, "", "", "", "", 0]
    assert headline(alone) == "**holds**; no variant run"
    alone["sensitivity"] = "no listed variant changes the values it is decided on (unchanged here)"
    assert headline(alone) == "**holds**; unchanged by every variant run"  # they ran: not "no variant run"
    alone["variants_run"] = 3
    assert headline(alone) == "**holds**; no variant differs (3 run)"
    # flips counted against the variants run; one flip named; a seed flip counted with the seeds
    alone[["robust", "flips", "variants_run"]] = [False, "a=1 (fails); b=2 (holds); c=3 (fails)", 5]
    assert headline(alone) == "**holds**; 3 of 5 variants differ: a=1 (fails), b=2 (holds), c=3 (fails)"
    # a choice run at several seeds is one family; over the budget, the first family and a count
    alone["flips"] = ("peer=Table 1 SVM (not the same folds) (holds); peer=Table 1 SVM (not the same folds) at seed 1 "
                      "(holds); peer=Table 1 SVM (not the same folds) at seed 3 (holds)")
    alone["seeds"] = "4 of 4 other seeds keep"
    alone[["check_variant", "check_verdict"]] = ["protocol=nested", "holds"]
    assert headline(alone) == ("**holds** under the paper's protocol and the honest check; all 4 other seeds agree; "
                               "3 of 5 variants differ: peer=Table 1 SVM (holds)")
    alone[["check_variant", "check_verdict", "seeds"]] = ["", "", ""]
    alone["flips"] = "a=1 (fails); b=2 (holds); c=3 (fails)"
    alone[["flips", "seeds"]] = ["seed=4 (undecided); a=1 (undecided)", "3 of 4 other seeds keep"]
    assert headline(alone) == "**holds**; 3 of 4 other seeds agree; 1 of 5 variants makes it undecided: a=1 (undecided)"
    alone["flips"] = "a=1 (undecided); b=2 (undecided)"
    # families that give the same verdict share one bracket
    assert headline(alone) == "**holds**; 3 of 4 other seeds agree; 2 of 5 variants make it undecided: a=1, b=2 (undecided)"
    # the budget holds whatever the variant's name: a long one is counted, not named
    alone["flips"] = "a very long variant name " * 4 + "(fails)"
    text = headline(alone)
    assert text == "**holds**; 3 of 4 other seeds agree; 1 of 5 variants differs"
    assert headline_words(text) <= HEADLINE_WORDS
    assert headline_words("**holds** under the paper's protocol; 3 of 4 — agree") == 9
    listing = report.sentences().data
    assert "*Criterion in this form since 2026-12-03 (abcdef1234), after the notebook had shown its numbers. " \
           "Judged under nested CV before; the paper's protocol leads now.*" in listing
    with pytest.raises(ValueError, match="honest_check 'protocol=other', which is not one of the other variants"):
        C.evaluate([dataclasses.replace(claim, honest_check="protocol=other")], {"main": paper, "protocol=nested": nested})


def test_a_seed_that_cannot_change_the_data_does_not_count_as_keeping_the_verdict():
    d = -np.arange(1, 13, dtype=float)
    claim = C.difference("1", "A beats B", lambda data: d, direction="<")
    report = C.evaluate([claim], {"main": None, "seed=1": None, "seed=2": None})
    row = report.table.iloc[0]
    assert row["seeds"] == "" and row["sensitivity"] == "no listed variant changes the values it is decided on (unchanged here)"
    moving = C.difference("1", "A beats B", lambda data: data, direction="<")
    row = C.evaluate([moving], {"main": d, "seed=1": d - 1, "seed=2": d}).table.iloc[0]
    assert row["seeds"] == "2 of 2 other seeds keep (1 of them with the same values)"


def test_fold_seeds_are_counted_not_named_unless_they_flip_the_verdict():
    """Over many fold seeds the sensitivity names the other variants and the seeds that flip the
    verdict; the seeds that keep it are the count in ``seeds``."""
    d = -np.arange(1, 13, dtype=float)
    moving = C.difference("1", "A beats B", lambda data: data, direction="<")
    seeds = {f"seed={k}": d - k for k in range(1, 100)}
    row = C.evaluate([moving], {"main": d, **seeds, "margin=x": d - 0.5}).table.iloc[0]
    assert row["verdict"] == "holds" and row["robust"]
    assert row["seeds"] == "99 of 99 other seeds keep" and row["sensitivity"] == "robust to margin=x"
    row = C.evaluate([moving], {"main": d, **seeds, "seed=7": -d}).table.iloc[0]
    assert row["seeds"] == "98 of 99 other seeds keep" and not row["robust"]
    assert row["sensitivity"] == "flips under seed=7 (fails)" and row["flips"] == "seed=7 (fails)"
    # only seeds varied it, and one variant left its data as they are: not "unchanged here"
    row = C.evaluate([moving], {"main": d, "seed=1": d - 1, "margin=x": d}).table.iloc[0]
    assert row["sensitivity"] == "unchanged by margin=x" and row["seeds"] == "1 of 1 other seeds keep"


def test_summary_counts_rows_by_kind_never_pooled():
    table = _report().table.copy()
    table["notebook"] = "04"
    table["category"] = ["empirical", "mathematical", "observation"]
    table.loc[1, ["kind", "verdict", "by_construction"]] = ["exact", "holds", True]
    from companion.claims._report import kind_counts

    counts = kind_counts(table)
    assert counts["mathematical"] == "0 checked here; 1 more by construction"
    table.loc[1, ["by_construction", "formula"]] = [False, "reconstructed"]  # a check on our reconstruction
    assert kind_counts(table)["mathematical"] == "1 checked here (1 on our reconstruction of a lost formula): 1 holds"
    table.loc[1, ["by_construction", "formula", "robust"]] = [False, "paper", False]  # a check that flips
    assert kind_counts(table)["mathematical"] == "1 checked here: 1 holds (1 not robust)"
    table.loc[1, ["by_construction", "robust"]] = [True, True]
    sanity = table.assign(category=["sanity", "mathematical", "observation"])
    sanity.loc[0, ["kind", "verdict", "robust"]] = ["exact", "passes", False]
    assert kind_counts(sanity)["sanity"] == "1 of 1 pass, 1 of them not robust"
    assert counts["observations"] == "0 aims, 1 observations"
    assert "* empirical results of the paper: 1: 1 holds" in summary(table).data
    report = _report()
    assert report.summary().data == summary(report.table).data
    # conformance rows that hold by construction are counted apart from those that could fail
    table["category"] = ["conformance", "conformance", "observation"]
    table.loc[:1, ["kind", "verdict", "robust"]] = [["exact", "agrees", True], ["exact", "agrees", True]]
    assert kind_counts(table)["conformance"] == "1 of 1 agree; 1 more by construction"
    table.loc[0, "robust"] = False  # an agreement that flips under a variant says so
    assert kind_counts(table)["conformance"] == "1 of 1 agree, 1 of them not robust; 1 more by construction"
    table.loc[0, "robust"] = True
    # when the criteria were fixed, as the rows' history says
    table["fixed"] = ["2026-12-03 abc", "2026-12-06 def", "2026-12-03 abc"]
    table["results_known"] = [True, True, False]
    assert summary(table).data.endswith("2 of 3 criteria were written after the notebook had shown its numbers, 1 "
                                          "before (2026-12-03 to 2026-12-06, from `git log`).")
    table["results_known"] = True
    assert summary(table).data.endswith("none is a pre-registration.")
    # rows whose design, criterion or kind changed after a result are named, from their history
    table["history"] = ["", "Was fails under the coarse grid; the grid became a variant.", ""]
    assert summary(table).data.endswith(
        f"none is a pre-registration. One row ({table['id'][1]}) was changed in design, criterion or kind after a "
        "result had been seen; each row's history gives the earlier design and its verdict then.")


def test_publish_writes_results_and_the_readme_glance(tmp_path):
    (tmp_path / "figures").mkdir()
    (tmp_path / "docs").mkdir()
    _report().table.to_csv(tmp_path / "figures" / "04_claims.csv", index=False, float_format="%.10g")
    (tmp_path / "docs" / "results.md").write_text("# Results\n\n<!-- claims:04 -->\n<!-- /claims:04 -->\n")
    (tmp_path / "README.md").write_text("# R\n\n<!-- claims:glance -->\n<!-- /claims:glance -->\n")
    assert C.publish(tmp_path) == ["docs/results.md", "README.md"]
    assert C.publish(tmp_path) == []
    assert "| 04 |" in (tmp_path / "README.md").read_text()


# --------------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: C.difference("a", "s", [1.0], direction="=<"), r"The 'direction' parameter of difference must be a str among \{.*\}\. Got '=<' instead"),
        (lambda: C.difference("a", "s", [1.0], direction="<=", margin=np.nan), r"The 'margin' parameter of difference must be a float in the range \(-inf, inf\)\. Got nan instead"),
        (lambda: C.difference("a", "s", [1.0], direction="<=", test="ttest"), r"The 'test' parameter of difference must be a str among \{.*\}\. Got 'ttest' instead"),
        (lambda: C.difference("a", "s", [1.0], direction="<=", zero_method="drop"), r"The 'zero_method' parameter of difference must be a str among \{.*\}\. Got 'drop' instead"),
        (lambda: C.difference("", "s", [1.0], direction="<="), r"difference: id must be a non-empty string, got ''"),
        (lambda: C.difference("a", "s", [1.0], direction="within", margin=0.0), r"within' needs margin > 0, got 0.0"),
        (lambda: C.difference("a", "s", [1.0], direction="<=", digits=9), r"The 'digits' parameter of difference must be an int in the range \[0, 6\]\. Got 9 instead"),
        (lambda: C.ratio("a", "s", ([1.0], [1.0]), direction=">=", margin=-2), r"The 'margin' parameter of ratio must be a float in the range \(0\.0, inf\)\. Got -2 instead"),
        (lambda: C.proportion("a", "s", (1, 2), margin=1.5), r"The 'margin' parameter of proportion must be a float in the range \(0\.0, 1\.0\)\. Got 1\.5 instead"),
        (lambda: C.guaranteed("a", "s", ""), r"guaranteed: reason must be a non-empty string"),
        (lambda: holm([0.5, 1.2]), r"holm: p_values must lie in \[0, 1\]"),
        (lambda: wilcoxon_test([1.0], alternative="two-sided"), r"wilcoxon_test: alternative must be 'less' or 'greater', got 'two-sided'"),
        (lambda: hodges_lehmann([1.0, 2.0], confidence=95), r"hodges_lehmann: confidence must lie in \(0, 1\), got 95"),
        (lambda: clopper_pearson(5, 3), r"clopper_pearson: need 0 <= k <= n and n >= 1, got k=5, n=3"),
        (lambda: clopper_pearson(True, 3), r"The 'k' parameter of clopper_pearson must be an int in the range \[0, inf\)\. Got True instead"),
        (lambda: C.ratio("a", "s", ([1.0], [1.0]), direction=">=", margin=2, offset=-1),
         r"The 'offset' parameter of ratio must be a float in the range \[0\.0, inf\)\. Got -1 instead"),
        (lambda: C.difference("a", "s", [1.0], direction="<=", margin=True),
         r"The 'margin' parameter of difference must be a float in the range \(-inf, inf\)\. Got True instead"),
        (lambda: C.evaluate([C.proportion("a", "s", (1.5, 3))], None),
         r"The 'k' parameter of claim 'a' must be an int in the range \[0, inf\)\. Got 1\.5 instead"),
        (lambda: C.evaluate([], None), r"evaluate: claims must be a non-empty sequence"),
        (lambda: C.evaluate([C.guaranteed("a", "s", "r")] * 2, None), r"evaluate: claim ids must be unique.*\['a'\]"),
        (lambda: C.evaluate([C.guaranteed("a", "s", "r")], {"other": 1}), r"evaluate: data has no 'main' variant"),
        (lambda: C.evaluate([C.guaranteed("a", "s", "r")], None, alpha=0.7), r"The 'alpha' parameter of evaluate must be a float in the range \(0\.0, 0\.5\)\. Got 0\.7 instead"),
        (lambda: C.evaluate([C.difference("a", "s", [1.0, np.inf], direction="<=")], None), r"claim 'a': values must be finite"),
        (lambda: C.evaluate([C.difference("a", "s", [], direction="<=")], None), r"claim 'a': no values to test"),
        (lambda: C.exact("a", "s", "yes"),
         r"The 'check' parameter of exact must be a callable, an instance of 'bool' .* Got 'yes' instead"),
        (lambda: C.evaluate([C.exact("a", "s", lambda data: "yes")], None), r"claim 'a': an exact check must return a bool"),
        (lambda: C.evaluate([C.proportion("a", "s", (3,))], None), r"claim 'a': a proportion needs \(k, n\) or \(k, n, ties\)"),
        (lambda: verdict_markdown(pd.DataFrame({"id": ["a"]})), r"verdict_markdown: not a claims table"),
        (lambda: _report().sentence("9"), r"no claim with id '9'"),
        (lambda: render_readme_section(_report().table, "bad key"), r"render_readme_section: key must match"),
    ],
)
def test_bad_input_raises_clear_errors(build, message):
    with pytest.raises((ValueError, TypeError, KeyError), match=message):
        build()


def test_exact_checks_and_unmeasured_discussions_read_plainly():
    family = [
        dataclasses.replace(C.exact("t", "Theorem 1 holds", (True, "on 50 random inputs, max |difference| = 0")),
                            discussion="never rendered", category="mathematical", formula="reconstructed"),
        dataclasses.replace(C.exact("b", "Lemma 2", (True, "by our encoding")), category="mathematical",
                            formula="paper", by_construction=True),
        dataclasses.replace(C.difference("d", "A beats B", lambda data: None, direction="<"),
                            discussion="The difference is {estimate:signed.2} points."),
    ]
    report = C.evaluate(family, None)
    assert report.sentence("t").data == ("Theorem 1 holds: **holds** (checked in this notebook, on our reconstruction "
                                         "of a formula the extracted text lost: on 50 random inputs, max |difference| "
                                         "= 0).")
    assert report.sentence("b").data == ("Lemma 2: **holds** (checked in this notebook, on the paper's formula; holds "
                                         "by construction of our implementation, not counted with the checks that "
                                         "could fail: by our encoding).")
    assert report.discussion(["d"]).data == "* **d.** Not evaluated in this run."
    assert "NaN" not in report.discussion().data


def test_difference_tallies_raw_values_beside_a_transformed_test():
    # A measure may return (tested, raw): the t reads the spread values, the head-to-head counts
    # the raw differences (a spread can move a zero or a small difference across 0).
    raw = np.array([1.0, 1.0, 1.0, 0.0, 4.0])
    spread = raw.mean() + (raw - raw.mean()) * 3.0
    claim = C.difference("a", "a", lambda _: (spread, raw), direction="<", test="t")
    row = C.evaluate([claim], None).table.iloc[0]
    assert (row["wins"], row["ties"], row["losses"]) == (0, 1, 4)
    plain = C.evaluate([C.difference("a", "a", lambda _: spread, direction="<", test="t")], None).table.iloc[0]
    assert plain["estimate"] == pytest.approx(row["estimate"]) and plain["wins"] == 1  # the spread turns the tie into a win
    zero = C.difference("z", "z", lambda _: (np.array([1.0, -1.0]), np.zeros(2)), direction="<", test="t")
    assert C.evaluate([zero], None).table.iloc[0]["verdict"] == "identical"


def test_a_proportion_records_its_ties():
    row = C.evaluate([C.proportion("p", "best on most", (9, 17, 3))], None).table.iloc[0]
    assert (row["wins"], row["ties"], row["losses"]) == (9, 3, 5)
    with pytest.raises(ValueError, match=r"the ties of a proportion are an integer in \[0, n - k\] = \[0, 8\], got 9"):
        C.evaluate([C.proportion("p", "best on most", (9, 17, 9))], None)


def test_alternative_margins_are_variants_and_a_flip_under_one_is_not_robust():
    d = np.linspace(0.2, 1.6, 20)  # location about +0.9
    claim = dataclasses.replace(C.difference("1", "A no worse than B", d, direction="<=", margin=2.0),
                                margins=(0.5, 3.0))
    other = C.difference("2", "another", -np.arange(1, 13, dtype=float), direction="<")
    report = C.evaluate([claim, other], None)
    row = report.table.set_index("id").loc["1"]
    assert row["verdict"] == "holds" and not row["robust"]
    assert "robust to margin=3" in row["sensitivity"] and "flips under margin=0.5 (fails)" in row["sensitivity"]
    long = report.sensitivity.set_index(["variant", "id"])
    assert long.loc[("margin=0.5", "1"), "verdict"] == "fails" and ("margin=0.5", "2") not in long.index
    # the other claim of the family is decided as before (Holm over the same two p-values)
    assert report.table.set_index("id").loc["2", "robust"]
    from companion.claims._report import kind_counts

    table = report.table.copy()
    table["category"] = "empirical"
    assert kind_counts(table)["empirical"] == "2: 2 holds (1 not robust)"


def test_corrected_t_widens_the_fold_level_t_by_nadeau_and_bengio():
    # One group of J folds with n_test / n_train = r: the corrected variance (1/J + r) s^2 against
    # the plain paired t's s^2 / J, same mean; two groups: the mean of the group means.
    from scipy import stats as st

    from companion.claims import difference, evaluate
    from companion.claims._statistics import corrected_t

    d = [-1.0, -2.0, 0.5, -1.5, -0.5, -2.5, -1.0, 0.0, -1.0, -2.0]
    est, low, high, p_less, _ = corrected_t(d, [0] * 10, [1 / 9] * 10)
    s2 = np.var(d, ddof=1)
    se = np.sqrt((1 / 10 + 1 / 9) * s2)
    assert est == pytest.approx(np.mean(d))
    assert p_less == pytest.approx(st.t.cdf(np.mean(d) / se, 9))
    assert high - est == pytest.approx(st.t.ppf(1 - ALPHA, 9) * se)
    est2, *_ = corrected_t(d + [5.0, 7.0], [0] * 10 + [1, 1], [1 / 9] * 12)
    assert est2 == pytest.approx((np.mean(d) + 6.0) / 2)
    with pytest.raises(ValueError, match="at least 2"):
        corrected_t([1.0, 2.0, 3.0], [0, 0, 1], [0.1] * 3)
    claim = difference("x", "A errs less", lambda data: (d, [0] * 10, [1 / 9] * 10), direction="<",
                       test="corrected_t")
    row = evaluate([claim], None).table.iloc[0]
    assert row["estimate"] == pytest.approx(est) and row["ci_high"] == pytest.approx(high)
    assert row["wins"] == 8 and row["ties"] == 1 and row["losses"] == 1
    with pytest.raises(ValueError, match="differences, groups, ratios"):
        evaluate([difference("y", "s", lambda data: d, direction="<", test="corrected_t")], None)


def test_a_ratio_under_the_corrected_t_is_the_corrected_t_of_its_logs():
    # ratio(a, b) with test="corrected_t" is the corrected t on log(a / b), transformed back, with
    # the head-to-head tally on the ratios against 1; a pair without groups and ratios is refused.
    from companion.claims import difference, evaluate, ratio

    rng = np.random.default_rng(3)
    a, b = rng.integers(1, 30, 10).astype(float), rng.integers(1, 30, 10).astype(float)
    groups, fractions = [0] * 5 + [1] * 5, [0.25] * 10
    as_ratio = ratio("r", "A is smaller", lambda data: (a, b, groups, fractions), direction="<=", margin=0.8,
                     test="corrected_t")
    as_logs = difference("d", "log A is smaller", lambda data: (np.log(a / b), groups, fractions), direction="<=",
                         margin=float(np.log(0.8)), test="corrected_t")
    r, d = evaluate([as_ratio], None).table.iloc[0], evaluate([as_logs], None).table.iloc[0]
    assert r["estimate"] == pytest.approx(np.exp(d["estimate"]))
    assert (r["ci_low"], r["ci_high"]) == pytest.approx((np.exp(d["ci_low"]), np.exp(d["ci_high"])))
    assert r["p_raw"] == pytest.approx(d["p_raw"]) and r["verdict"] == d["verdict"]
    assert (r["wins"], r["ties"], r["losses"]) == (int((a < b).sum()), int((a == b).sum()), int((a > b).sum()))
    with pytest.raises(ValueError, match="numerators, denominators, groups, ratios"):
        evaluate([ratio("s", "s", lambda data: (a, b), direction="<=", margin=0.8, test="corrected_t")], None)


def test_a_sentence_is_re_decided_under_every_variant():
    """A sentence whose rows flip under a variant is not robust only where its own verdict changes."""
    rng = np.random.default_rng(4)
    strong, weak = -np.abs(rng.normal(2.0, 0.2, 20)), -np.abs(rng.normal(1.0, 0.2, 20))
    claims = [C.difference("a", "A beats B", lambda data: data["a"], direction="<", unit="points"),
              C.difference("b", "A beats C", lambda data: data["b"], direction="<", unit="points")]
    report = C.evaluate(claims, {"main": {"a": strong, "b": weak},
                                 "x=1": {"a": strong, "b": -weak},        # b fails: the sentence fails
                                 "y=1": {"a": strong + 2.0, "b": weak}})  # a undecided (both sides)
    assert report.verdicts() == {"a": "holds", "b": "holds"}
    assert report.verdicts("x=1") == {"a": "holds", "b": "fails"}
    with pytest.raises(KeyError, match="no variant 'z=1'"):
        report.verdicts("z=1")

    def every_part(verdicts):  # the sentence holds when every part holds, fails when one fails
        words = set(verdicts.values())
        return "fails" if "fails" in words else "holds" if words == {"holds"} else "undecided"

    table = report.sentence_robustness({"A beats B and C": ["a", "b"], "A beats B": ["a"]}, every_part)
    assert table.loc["A beats B and C", "verdict"] == "holds" and not table.loc["A beats B and C", "robust"]
    flips = table.loc["A beats B and C", "flips"]
    assert flips.startswith("x=1 (fails)") and table.loc["A beats B and C", "variants"] == 2
    # a variant that re-decides none of a sentence's rows is not counted for it
    only_a = report.sentence_robustness({"A beats C": ["b"]}, every_part)
    assert only_a.loc["A beats C", "variants"] == 1 and only_a.loc["A beats C", "flips"] == "x=1 (fails)"
    with pytest.raises(KeyError, match="names unknown claims \\['c'\\]"):
        report.sentence_robustness({"s": ["c"]}, every_part)


def test_a_sentence_whose_row_is_not_evaluated_under_a_variant_does_not_flip_there():
    """A part not run under a variant (its row n/a) makes the sentence not evaluated there, not fragile."""
    rng = np.random.default_rng(5)
    strong = -np.abs(rng.normal(2.0, 0.2, 20))
    claims = [C.difference("a", "A beats B", lambda data: data["a"], direction="<", unit="points"),
              C.difference("b", "A beats C", lambda data: data.get("b"), direction="<", unit="points")]
    report = C.evaluate(claims, {"main": {"a": strong, "b": strong}, "seed=7": {"a": strong + 0.1},
                                 "x=1": {"a": strong, "b": -strong}})
    assert report.verdicts("seed=7") == {"a": "holds", "b": "n/a"}

    def every_part(verdicts):
        words = set(verdicts.values())
        return "fails" if "fails" in words else "holds" if words == {"holds"} else "undecided"

    table = report.sentence_robustness({"A beats B and C": ["a", "b"]}, every_part).loc["A beats B and C"]
    assert table["not evaluated"] == "seed=7" and table["flips"] == "x=1 (fails)" and not table["robust"]
    alone = C.evaluate(claims, {"main": {"a": strong, "b": strong}, "seed=7": {"a": strong + 0.1}})
    assert alone.sentence_robustness({"s": ["a", "b"]}, every_part).loc["s", "robust"]


def test_the_story_shows_the_papers_rows_and_folds_the_rest():
    """The paper's results open, and its statements where they do not hold; checks and observations
    folded beneath their count;
    a discussion's first sentence open and the rest folded."""
    from companion.claims._report import _first_sentence

    table = _report().table.copy()
    table["category"] = ["empirical", "peer", "observation"]
    table["origin"] = ["paper", "check", "observation"]
    text = verdict_sections(table).data
    assert text.startswith("**The paper's empirical results**\n\n* <a id=\"claim-1\"></a>**1.** *(empirical result)*")
    assert "<details><summary><strong>Checks against a peer's output or a published number</strong> (" in text
    assert "<details><summary><strong>Our observations (no verdict)</strong> (1)</summary>" in text
    # mathematical statements: one that does not hold stays open, those that hold are folded
    table["category"] = ["empirical", "mathematical", "mathematical"]
    table["origin"] = "paper"
    table["verdict"] = ["holds", "fails", "holds"]
    text = verdict_sections(table).data
    math = text[text.index("**The paper's mathematical statements, checked in the notebook** ("):]
    opened, folded = math.split("<details><summary>The 1 that hold</summary>")
    assert '<a id="claim-2"></a>' in opened and '<a id="claim-3"></a>' not in opened
    assert '<a id="claim-3"></a>' in folded
    # sentences end at a full stop before a capital, not inside brackets nor after an abbreviation
    assert _first_sentence("Our SVM stands in for the paper's (it errs less, e.g. On Pima). Under the paper's "
                           "protocol it is +2.57 points. Robust.") == (
        "Our SVM stands in for the paper's (it errs less, e.g. On Pima).",
        "Under the paper's protocol it is +2.57 points. Robust.")
    assert _first_sentence("Short. Then a longer second sentence that carries on. End.") == (
        "Short. Then a longer second sentence that carries on.", "End.")
    assert _first_sentence("One sentence only, with p = 0.03.") == ("One sentence only, with p = 0.03.", "")


def test_kind_counts_say_which_checks_are_not_robust_and_count_sentences_over_every_reading():
    from companion.claims._report import kind_counts

    table = _report().table.copy()
    table["category"] = ["peer", "peer", "mathematical"]
    table["origin"] = ["check", "check", "paper"]
    table["verdict"] = ["undecided", "undecided", "holds"]
    table["robust"] = [False, True, True]
    assert kind_counts(table)["peer"] == "0 of 2 agree (2 undecided, 1 of them not robust)"
    # two readings of one sentence, one checked and one by construction: the sentence counted once
    table["category"] = ["mathematical"] * 3
    table["origin"] = "paper"
    table["kind"] = "exact"
    table["by_construction"] = [False, True, False]
    table["sentence"] = ["s", "s", ""]
    table["quote"] = ["q1", "q2", "q3"]
    assert kind_counts(table)["mathematical"].startswith("3 rows on 2 sentences; 2 checked here")
    assert kind_counts(table)["mathematical"].endswith("; 1 more by construction")


def test_a_variant_of_the_honest_check_is_compared_with_the_honest_checks_verdict():
    from companion.claims._report import check_family, headline

    check = "protocol=nested (b), every fold seed"
    assert check_family(check, "protocol=nested (b)") and check_family(check, "protocol=nested (b), grid=fine")
    assert check_family(check, "protocol=nested (b) at seed 2") and not check_family(check, check)
    assert not check_family(check, "grid=fine") and not check_family("", "protocol=nested (b)")
    row = _report().table.iloc[0].copy()
    row[["verdict", "check_variant", "check_verdict", "seeds", "variants_run", "check_variants_run", "flips"]] = [
        "undecided", check, "fails", "", 5, 3,
        "protocol=nested (b) (fails); protocol=nested (b), grid=fine (fails); grid=fine (holds)"]
    # the two nested variants that fail agree with the honest check; the third nested one (undecided,
    # as the main verdict) does not, nor does grid=fine: 2 of 5 differ
    assert headline(row) == ("**undecided** under the paper's protocol, **fails** under the honest check; 2 of 5 "
                             "variants differ: grid=fine (holds), honest-check variants (undecided)")
    # a variant the row declares as the honest check's (check_variants), whatever its name
    assert check_family(check, "inner_splits=5", ("inner_splits",)) and not check_family(check, "inner_splits=5")
    row["flips"] += "; inner_splits=5 (fails)"
    row[["check_family", "variants_run", "check_variants_run"]] = ["inner_splits", 6, 4]
    assert headline(row).endswith("; 2 of 6 variants differ: grid=fine (holds), honest-check variants (undecided)")
    row[["check_family", "variants_run", "check_variants_run"]] = ["", 5, 3]
    row["flips"] = "protocol=nested (b) (fails); protocol=nested (b), grid=fine (fails); grid=fine (holds)"
    row["check_variants_run"] = 2  # every nested variant fails, as the honest check does
    assert headline(row).endswith("; 1 of 5 variants differs: grid=fine (holds)")


def test_an_empirical_count_its_design_decides_is_counted_apart():
    from companion.claims._report import headline, kind_counts

    table = _report().table.copy()
    table["category"] = "empirical"
    table.loc[0, ["kind", "by_construction", "verdict", "robust", "flips", "seeds", "variants_run"]] = [
        "exact", True, "holds", True, "", "", 0]
    counts = kind_counts(table)["empirical"]
    assert counts == "1: 1 holds; 1 more holds largely by construction of the design; 1 true by construction (untested)"
    assert headline(table.iloc[0]) == "**holds**, largely by construction; no variant run"
    # after the protocols it qualifies, and a family of one flipping member named by that member
    row = table.iloc[0].copy()
    row[["check_variant", "check_verdict", "robust", "flips", "variants_run"]] = [
        "protocol=nested", "holds", False, "grid=fine at seed 1 (fails)", 3]
    assert headline(row) == ("**holds** under the paper's protocol and the honest check, largely by construction; "
                             "1 of 3 variants differs: grid=fine at seed 1 (fails)")
    row["robust"] = False
    table.loc[0, "robust"] = False
    assert kind_counts(table)["empirical"].endswith("largely by construction of the design (1 not robust); "
                                                    "1 true by construction (untested)")
    from companion.claims._report import sentence

    assert "counted apart from the tested results" in sentence(table.iloc[0])
