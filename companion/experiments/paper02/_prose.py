"""Generated prose: every sentence of notebook 02 that states one of our results.
"""

from __future__ import annotations

import pandas as pd
from sklearn.utils._param_validation import validate_params

from companion.claims import ClaimsReport
from companion.prose import Markdown, render
from companion.experiments.paper02._claims import replicated_tests


# --------------------------------------------------------------------------------------------
# Generated prose: every sentence of notebook 02 that states one of our results
# --------------------------------------------------------------------------------------------

#: The templates of the notebook's result sentences (:func:`companion.prose.render`).
PROSE = {
    "covering_2d": (
        "`{a1}` alone covers {a1_pt} for `a` ({a1_share:pct.0} of what it covers is `a`); adding the second test "
        "leaves `{a2}` at {a2_pt}. The two `b` rules cover {b_covered} of the {n_b} `b` points and no `a`: "
        "{uncovered:plural `b` point|`b` points} {verb} left, which is what slide 5 means by "
        "\"more rules could be added for [a] perfect rule set\"."),
    "step": "Step {step}: `{winner}` ({pt}) is selected{rivals}.",
    "rivals_ratio": "; {names:list} {verb} with it on p/t and p, and the earlier attribute (then value) wins",
    "rivals_p": "; {names:list} {verb} the same p/t ({pt}) and a smaller p",
    "subsets": ("E shrinks {sizes} over the steps; p stays at {p0} until the last test, which keeps "
                "{p_last} of them and makes the rule {exact}."),
    "second_rule": ("The {removed:plural instance} the first rule covers leave E; the second rule is grown on "
                    "the other {left}, which hold {positives:plural `hard` instance}."),
    "coverage": ("{perfect} of {n:plural rule} are correct on every training instance they cover; "
                 "{more:plural rule} cover more of the training set than of their E ({which:list})."),
    "order": ("Over {orders:plural random rule order}, {changed:plural order} changed a prediction on the "
              "training set ({instances:plural instance} whose class depends on the order)."),
    "conflicts_cv": ("On Weka's folds, {no_rule:plural held-out instance} {verb} covered by no "
                     "rule (Weka's unclassified count: {weka_unclassified}) and {several:plural instance} by rules "
                     "of several classes; the correct answers of both kinds sum to {correct} (PRISM's correct "
                     "count: {prism_correct})."),
    "space": ("On the unseen instances of the attribute spaces, {conflicted:list} {verb} instances covered by rules of several classes, and on {orders_changed:list} random "
              "rule orders change predictions ({share:pct.0} of the orders or more on each). Unseen instances "
              "that no rule covers: {no_rule}."),
    "demo": ("PRISM learns {n_rules:plural rule} for `x`: {rules:list}. The tree ({tree}) has "
             "{n_leaves:plural leaf|leaves} for `x`; its root tests `{root}`, and {repeated}."),
    "demo_repeated": ("it tests {tests:list} in two places, once under each branch of the root (the other "
                      "conjunction's tests, repeated: the replicated subtree of slide 2)"),
    "demo_not_repeated": "it tests no attribute under both branches of its root (no replicated subtree in this tree)",
    "supermarket": ("{imperfect:plural rule} of {n_rules} cover training instances of another class "
                    "(the longest rule has {longest:plural test}); training accuracy {accuracy:pct.2}. "
                    "The rule count is {rule_word} Weka's ({weka_rules}); in the last `make bench` report our fit "
                    "took {ratio:.3f} of Weka's build time, and the two rule lists were {identical}."),
}


def _is(count: int) -> str:
    return "is" if count == 1 else "are"


def _rivals(step: pd.DataFrame) -> str:
    from fractions import Fraction

    chosen = step[step["selected"]].iloc[0]
    best = Fraction(int(chosen["p"]), int(chosen["t"]))
    same = step[[Fraction(int(p), int(t)) == best if t else False for p, t in zip(step["p"], step["t"])]]
    same = same[~same["selected"]]
    tied = same[same["p"] == chosen["p"]]
    lower = same[same["p"] < chosen["p"]]
    text = ""
    if len(tied):
        text += render(PROSE["rivals_ratio"], names=[f"`{a} = {v}`" for a, v in zip(tied["attribute"], tied["value"])],
                       verb="ties" if len(tied) == 1 else "tie").data
    if len(lower):
        text += render(PROSE["rivals_p"], names=[f"`{a} = {v}` ({pt})" for a, v, pt in
                                                  zip(lower["attribute"], lower["value"], lower["p/t"])],
                       verb="has" if len(lower) == 1 else "have", pt=chosen["p/t"]).data
    return text


def describe_trace(trace: pd.DataFrame):
    """One generated sentence per step of a rule's trace (:func:`rule_trace`).

    Each sentence names the test selected and the candidates that tie with it on p/t (settled by
    p, then by order).

    Parameters
    ----------
    trace : pandas.DataFrame
        :func:`first_rule_trace` or :func:`rule_trace`.

    Returns
    -------
    companion.prose.Markdown
    """
    from companion.prose import Markdown

    lines = []
    for step_number, step in trace.groupby("step", sort=True):
        chosen = step[step["selected"]].iloc[0]
        lines.append(render(PROSE["step"], step=int(step_number), winner=f"{chosen['attribute']} = {chosen['value']}",
                            pt=chosen["p/t"], rivals=_rivals(step)).data)
    return Markdown(" ".join(lines))


def describe_covering_2d(example: dict):
    """Slide 5's example (:func:`covering_2d_example`) in words, from its rule table.

    Parameters
    ----------
    example : dict
        :func:`covering_2d_example`'s result.

    Returns
    -------
    companion.prose.Markdown
    """
    rules = example["rules"]
    a_rules = rules[rules["class"] == "a"]
    points = example["points"]
    n_b = int((points["class"] == "b").sum())
    first, last = a_rules.iloc[0], a_rules.iloc[-1]
    return render(PROSE["covering_2d"], a1=first["rule"], a1_pt=first["p/t"], a1_share=first["p"] / first["t"],
                  a2=last["rule"], a2_pt=last["p/t"], b_covered=n_b - example["uncovered_b"], n_b=n_b,
                  uncovered=example["uncovered_b"], verb=_is(example["uncovered_b"]))


def describe_subsets(subsets: pd.DataFrame):
    """The shrinking E of :func:`covered_subsets` in words.

    Parameters
    ----------
    subsets : pandas.DataFrame
        :func:`covered_subsets`' table.

    Returns
    -------
    companion.prose.Markdown
    """
    return render(PROSE["subsets"], sizes=" → ".join(str(t) for t in subsets["t"]), p0=int(subsets["p"].iloc[0]),
                  p_last=int(subsets["p"].iloc[-1]),
                  exact="exact" if subsets["p"].iloc[-1] == subsets["t"].iloc[-1] else "still inexact")


def describe_second_rule(first: pd.DataFrame, second: pd.DataFrame, trace: pd.DataFrame | None = None):
    """Where the second rule of a class starts, and :func:`describe_trace` of its ``trace`` when given.

    Parameters
    ----------
    first : pandas.DataFrame
        :func:`covered_subsets` of the class's first rule.
    second : pandas.DataFrame
        :func:`covered_subsets` of its second rule.
    trace : pandas.DataFrame or None, default=None
        :func:`rule_trace` of the second rule.

    Returns
    -------
    companion.prose.Markdown
    """
    from companion.prose import Markdown

    text = render(PROSE["second_rule"], removed=int(first["t"].iloc[-1]), left=int(second["t"].iloc[0]),
                  positives=int(second["p"].iloc[0])).data
    return Markdown(text if trace is None else f"{text} {describe_trace(trace).data}")


def describe_coverage(coverage: pd.DataFrame):
    """:func:`rule_coverage` in words: the rules correct wherever they fire, and those covering more than E.

    Parameters
    ----------
    coverage : pandas.DataFrame
        :func:`rule_coverage`'s table.

    Returns
    -------
    companion.prose.Markdown
    """
    on_e = coverage["p/t on E"].str.split("/").str[1].astype(int)
    more = coverage.index[coverage["covered (all)"] > on_e]
    perfect = int((coverage["accuracy on all %"] == 100).sum())
    return render(PROSE["coverage"], perfect=perfect, n=len(coverage), more=len(more),
                  which=[f"rule {i} ({coverage.loc[i, 'p/t on E']} on E, {coverage.loc[i, 'correct/covered (all)']} "
                         "on all)" for i in more])


def describe_order(order: pd.Series):
    """:func:`order_invariance` on the training set in words.

    Parameters
    ----------
    order : pandas.Series
        :func:`order_invariance`'s counts.

    Returns
    -------
    companion.prose.Markdown
    """
    return render(PROSE["order"], orders=int(order["orders tried"]), changed=int(order["orders changing some prediction"]),
                  instances=int(order["instances whose class depends on the order"]))


def describe_conflicts_cv(conflicts: pd.DataFrame, cv: pd.DataFrame):
    """:func:`cv_conflicts`' totals against the cross-validation's counts (:func:`weka_folds_table`).

    Parameters
    ----------
    conflicts : pandas.DataFrame
        :func:`cv_conflicts`' table, with its ``total`` row.
    cv : pandas.DataFrame
        :func:`weka_folds_table`'s counts per learner.

    Returns
    -------
    companion.prose.Markdown
    """
    total = conflicts.loc["total"]
    return render(PROSE["conflicts_cv"], no_rule=int(total["no rule"]), verb=_is(int(total["no rule"])), several=int(total["rules of several classes"]),
                  weka_unclassified=int(cv.loc["PRISM", "unclassified"]),
                  correct=int(total["correct (one class)"] + total["correct (several classes)"]),
                  prism_correct=int(cv.loc["PRISM", "correct"]))


def describe_space(conflicts: pd.DataFrame, orders: pd.DataFrame):
    """:func:`space_conflicts` and :func:`order_invariance` over the attribute spaces in words.

    Parameters
    ----------
    conflicts : pandas.DataFrame
        :func:`space_conflicts`' table.
    orders : pandas.DataFrame
        :func:`order_invariance` over each attribute space, one row per space.

    Returns
    -------
    companion.prose.Markdown
    """
    conflicted = list(conflicts.index[conflicts["rules of several classes"] > 0])
    changed = orders[orders["orders changing some prediction"] > 0]
    share = float((changed["orders changing some prediction"] / changed["orders tried"]).min()) if len(changed) else 0.0
    no_rule = ", ".join(f"{name} {int(n)}" for name, n in conflicts["no rule"].items() if n > 0) or "none"
    return render(PROSE["space"], conflicted=conflicted, verb="has" if len(conflicted) == 1 else "have", orders_changed=list(changed.index),
                  share=share, no_rule=no_rule)


def describe_demo(demo: dict, seed: int | None = None):
    """:func:`replicated_subtree_demo` in words: PRISM's rules for ``x``, the tree's root and the
    tests it repeats under both branches of the root (or that it repeats none).

    Parameters
    ----------
    demo : dict
        :func:`replicated_subtree_demo`'s result.
    seed : int, optional
        The tree's ``random_state`` (named in the sentence).

    Returns
    -------
    companion.prose.Markdown
    """
    x_leaves = [r for r in demo["leaf_rules"] if r.endswith("then x")]
    tests = replicated_tests(x_leaves)
    first = demo["leaf_rules"][0].removeprefix("If ").rsplit(" then ", 1)[0].split(" and ")[0]
    root = first.rsplit(" = ", 1)[0]
    repeated = (render(PROSE["demo_repeated"], tests=[f"`{t}`" for t in tests]).data if tests
                else PROSE["demo_not_repeated"])
    return render(PROSE["demo"], n_rules=len(demo["x_rules"]), rules=[f"`{r}`" for r in demo["x_rules"]],
                  tree="CART" if seed is None else f"CART, seed {seed}", n_leaves=len(x_leaves), root=root,
                  repeated=repeated)


def describe_supermarket(scale: dict, speed: pd.Series, weka_rules: int):
    """:func:`supermarket_scale` and :func:`supermarket_speed` in words.

    Parameters
    ----------
    scale : dict
        :func:`supermarket_scale`'s result.
    speed : pandas.Series
        :func:`supermarket_speed`'s result.
    weka_rules : int
        The number of rules Weka's Prism prints on the same data.

    Returns
    -------
    companion.prose.Markdown
    """
    table = scale["model"].rule_table()
    return render(PROSE["supermarket"], imperfect=int((table["p"] < table["t"]).sum()), n_rules=scale["n_rules"],
                  longest=scale["max_conditions"], accuracy=scale["training_accuracy"],
                  rule_word="equal to" if scale["n_rules"] == weka_rules else "not", weka_rules=weka_rules,
                  ratio=float(speed["ratio"]), identical="identical" if bool(speed["identical"]) else "different")


def describe_claims(report, status: str, variant_seeds) -> "Markdown":
    """What the claims were evaluated on: the seed variants and the Weka peers' status.

    Parameters
    ----------
    report : companion.claims.ClaimsReport
        The claims report (not read: the sentence names the variants and the peers only).
    status : str
        :func:`weka_peer_results_if_run`'s text.
    variant_seeds : sequence of int
        The seeds of the seed variants (:func:`seed_variants`).

    Returns
    -------
    companion.prose.Markdown
    """
    from companion.prose import Markdown

    text = render(CLAIM_PROSE, seeds=[f"`seed={s}`" for s in variant_seeds]).data
    return Markdown(f"{text} {status}")


CLAIM_PROSE = ("The seed-dependent claims are re-evaluated under the seed variants {seeds:list} (their own seeded "
               "splits, trees and rule orders; `seeds` in the table).")


@validate_params({"report": [ClaimsReport]}, prefer_skip_nested_validation=True)
def discussion(report):
    """Each claim's discussion: the registry's template (``discussion``) rendered from its row.

    Parameters
    ----------
    report : companion.claims.ClaimsReport

    Returns
    -------
    companion.prose.Markdown
    """
    return report.discussion()
