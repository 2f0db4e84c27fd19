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
        "{uncovered:plural `b` point|`b` points} {verb} left uncovered. We placed one `b` among the `a`s, so a point "
        "is left by construction of our points, not by anything the slide shows (its picture is lost)."),
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
                      "conjunction's tests, repeated: slide 2's replicated subtree){same}"),
    "demo_same": "; the two copies are the same subtree, test for test",
    "demo_not_same": "; the two copies test the conjunction in different orders, so they are not identical subtrees",
    "demo_not_repeated": "it tests no attribute under both branches of its root (no replicated subtree in this tree)",
    "supermarket": ("On {n:plural basket} by {d:plural department}, {imperfect:plural rule} of {n_rules} cover "
                    "training instances of another class "
                    "(the longest rule has {longest:plural test}); training accuracy {accuracy:pct.2}. "
                    "The rule count is {rule_word} Weka's ({weka_rules}), checked here, under the encoding Weka's "
                    "recorded run used (missing cells a value of their own, declared after `t`){first}."),
    "supermarket_first": ("; with the missing value declared before `t` instead, which can change exact ties, ours "
                          "learns {ours} rules and Weka's Prism {weka} on the same encoding ({word}; the variant "
                          "`encoding=missing-first`)"),
    "supermarket_lists": "Our rule list and Weka's stored one are {same}: {detail}.",
    "stand_ins": ("On Weka's folds {weka:list}. {repeated}The stand-ins are not the peers of any row: Weka's own J48 "
                  "and JRip, run on the same folds, are."),
    "stand_in": "{name} scores {ours:.1f} % against {peer}'s recorded {theirs:.1f} % ({gap:signed.1} points)",
    "stand_ins_repeated": "Over the repeated splits {lines:list}. ",
    "stand_in_repeated": "{name} scores {ours:.1f} % against Weka's {peer} re-run on the same splits, {theirs:.1f} % ({gap:signed.1} points)",
    "supermarket_bench": ("Not checked here: the last `make bench` report (read from its file, not re-run by this "
                          "notebook) has our fit at {ratio:.3f} of Weka's build time and the two rule lists "
                          "{identical}; these numbers are that report's, not this notebook's results."),
    "default_vs_zeror": ("On Weka's folds PRISM + default class is right on {default}/{n}, ZeroR (the majority class) "
                         "on {zeror}/{n}; over the {repeats:plural repeated cross-validation}, their mean accuracies "
                         "are {mean_default:.1f} % and {mean_zeror:.1f} %, and per repeat PRISM + default class "
                         "beats ZeroR {wins} times, ties {ties} and loses {losses} (row `default-vs-zeror`)."),
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


def describe_demo(demo: dict, seed: int | None = None, identical: bool | None = None):
    """:func:`replicated_subtree_demo` in words: PRISM's rules for ``x``, the tree's root and the
    tests it repeats under both branches of the root (or that it repeats none).

    Parameters
    ----------
    demo : dict
        :func:`replicated_subtree_demo`'s result.
    seed : int, optional
        The tree's ``random_state`` (named in the sentence).
    identical : bool, optional
        Whether the tree has two identical subtrees (:func:`tree_census`); said when given.

    Returns
    -------
    companion.prose.Markdown
    """
    x_leaves = [r for r in demo["leaf_rules"] if r.endswith("then x")]
    tests = replicated_tests(x_leaves)
    first = demo["leaf_rules"][0].removeprefix("If ").rsplit(" then ", 1)[0].split(" and ")[0]
    root = first.rsplit(" = ", 1)[0]
    same = "" if identical is None else PROSE["demo_same"] if identical else PROSE["demo_not_same"]
    repeated = (render(PROSE["demo_repeated"], tests=[f"`{t}`" for t in tests], same=same).data if tests
                else PROSE["demo_not_repeated"])
    return render(PROSE["demo"], n_rules=len(demo["x_rules"]), rules=[f"`{r}`" for r in demo["x_rules"]],
                  tree="CART" if seed is None else f"CART, seed {seed}", n_leaves=len(x_leaves), root=root,
                  repeated=repeated)


def describe_supermarket(scale: dict, speed: pd.Series, weka_rules: int, first: dict | None = None,
                         weka_first: int | None = None):
    """:func:`supermarket_scale` and :func:`supermarket_speed` in words.

    Parameters
    ----------
    scale : dict
        :func:`supermarket_scale`'s result.
    speed : pandas.Series
        :func:`supermarket_speed`'s result.
    weka_rules : int
        The number of rules Weka's Prism prints on the same data.
    first : dict, optional
        :func:`supermarket_scale` with the missing value declared before ``t``.
    weka_first : int, optional
        Weka's rule count under that encoding.

    Returns
    -------
    companion.prose.Markdown
    """
    table = scale["model"].rule_table()
    return render(PROSE["supermarket"], n=scale["n_samples"], d=scale["n_features"],
                  imperfect=int((table["p"] < table["t"]).sum()), n_rules=scale["n_rules"],
                  longest=scale["max_conditions"], accuracy=scale["training_accuracy"],
                  rule_word="equal to" if scale["n_rules"] == weka_rules else "not", weka_rules=weka_rules,
                  first="" if first is None else render(
                      PROSE["supermarket_first"], ours=first["n_rules"], weka=weka_first,
                      word="equal" if first["n_rules"] == weka_first else "different").data)


def describe_stand_ins(stand_ins: pd.DataFrame, repeated: pd.DataFrame, repeated_weka: pd.DataFrame | None = None):
    """How far each stand-in (CART for J48, wittgenstein's RIPPER for JRip) is from the Weka learner
    it stands in for: on Weka's folds against Weka's recorded accuracy and, with Weka's runs, over
    the repeated splits.

    Parameters
    ----------
    stand_ins : pandas.DataFrame
        :func:`stand_in_table`.
    repeated : pandas.DataFrame
        :func:`repeated_table` (``mean accuracy %`` per learner).
    repeated_weka : pandas.DataFrame, optional
        Weka's learners over the same splits (``mean accuracy %``; rows ``J48``, ``JRip``).

    Returns
    -------
    companion.prose.Markdown
    """
    weka = [render(PROSE["stand_in"], name=name, peer=row["stands in for"], ours=float(row["stand-in accuracy %"]),
                   theirs=float(row["Weka's accuracy %"]),
                   gap=float(row["stand-in accuracy %"]) - float(row["Weka's accuracy %"])).data
            for name, row in stand_ins.iterrows()]
    lines = []
    if repeated_weka is not None:
        for name, row in stand_ins.iterrows():
            peer = row["stands in for"]
            if name in repeated.index and peer in repeated_weka.index:
                ours, theirs = float(repeated.loc[name, "mean accuracy %"]), float(repeated_weka.loc[peer, "mean accuracy %"])
                lines.append(render(PROSE["stand_in_repeated"], name=name, peer=peer, ours=ours, theirs=theirs,
                                    gap=ours - theirs).data)
    return render(PROSE["stand_ins"], weka=weka,
                  repeated=render(PROSE["stand_ins_repeated"], lines=lines).data if lines else "")


def describe_supermarket_lists(lists: dict):
    """Our ``supermarket`` rule lists against Weka's stored ones, rule by rule, in words.

    Parameters
    ----------
    lists : dict
        ``{"last" | "first": (ok, detail)}``, :func:`supermarket_rules_check` under each declared
        position of the missing value.

    Returns
    -------
    companion.prose.Markdown
    """
    return Markdown(" ".join(render(PROSE["supermarket_lists"], same="identical" if ok else "not identical",
                                    detail=detail).data for ok, detail in lists.values()))


def describe_bench(speed: pd.Series):
    """The last ``make bench`` report on ``supermarket`` (:func:`supermarket_speed`), said to be
    read, not checked here.

    Parameters
    ----------
    speed : pandas.Series
        :func:`supermarket_speed`'s result.

    Returns
    -------
    companion.prose.Markdown
    """
    return render(PROSE["supermarket_bench"], ratio=float(speed["ratio"]),
                  identical="identical" if bool(speed["identical"]) else "different")


def describe_default_vs_zeror(results: pd.DataFrame):
    """PRISM with a default class against ZeroR, on Weka's folds and per repeated split, in words.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`run`'s tidy frame.

    Returns
    -------
    companion.prose.Markdown
    """
    from companion.experiments.paper02._protocol import NUMPY_SPLIT, WEKA_SPLIT, counts_table
    from companion.experiments.paper02._tables import split_rows

    weka = counts_table(split_rows(results, WEKA_SPLIT))
    rows = split_rows(results, NUMPY_SPLIT)
    repeated = pd.DataFrame({seed: counts_table(split)["accuracy %"] for seed, split in rows.groupby("seed", sort=False)}).T
    d = (repeated["PRISM + default class"] - repeated["ZeroR"]).to_numpy()
    return render(PROSE["default_vs_zeror"], default=int(weka.loc["PRISM + default class", "correct"]),
                  zeror=int(weka.loc["ZeroR", "correct"]), n=int(weka.loc["ZeroR", ["correct", "incorrect"]].sum()),
                  repeats=len(d), mean_default=float(repeated["PRISM + default class"].mean()),
                  mean_zeror=float(repeated["ZeroR"].mean()), wins=int((d > 0).sum()), ties=int((d == 0).sum()),
                  losses=int((d < 0).sum()))


def describe_claims(report, status: str, splits: dict, orders: dict) -> "Markdown":
    """What the claims were evaluated on: the variants, the Weka peers' splits, and why no honest
    check applies to the central rows.

    Parameters
    ----------
    report : companion.claims.ClaimsReport
        The claims report (its central rows' sensitivity is stated).
    status : str
        :func:`weka_peer_results_if_run`'s text for the main run.
    splits : dict
        ``{seed variant: the splits Weka's peers were read for}``.
    orders : dict
        ``{tie rule: the priority it used}`` (:func:`tie_variant_checks`).

    Returns
    -------
    companion.prose.Markdown
    """
    from companion.prose import Markdown
    from companion.experiments.paper02._claims import TIE_RULES, split_names
    from companion.experiments.paper02._math_checks import SUBTREE_SIZES, TREE_CLASSES
    from companion.experiments.paper02._protocol import RULE_ORDERS

    seeds = render(CLAIM_PROSE["seeds"], seeds=[f"`{name}`" for name in splits],
                   peers=[f"`{name}`: {len(names)} ({split_names(names)})" if names else f"`{name}`: none"
                          for name, names in splits.items()]).data
    ties = render(CLAIM_PROSE["ties"], rules=[f"`tie={rule}` ({TIE_RULES[rule]}: {orders[rule]})" for rule in orders],
                  trees=[f"`trees={name}` ({text})" for name, text in TREE_CLASSES.items() if name != "relevant"],
                  subtrees=[f"`subtrees={name}` ({text})" for name, (_, text) in SUBTREE_SIZES.items() if name != "any"]).data
    table = report.table
    central = table[table["central"].astype(bool)]
    robustness = "; ".join(f"`{row['id']}` {row['verdict']}: {row['sensitivity'] or 'no variant listed'}"
                           for _, row in central.iterrows())
    honest = render(CLAIM_PROSE["honest"], rows=robustness).data
    orders = render(CLAIM_PROSE["orders"], orders=[f"`order={name}` ({text})" for name, text in RULE_ORDERS.items()]).data
    return Markdown(f"{status} {seeds} {ties} {orders} {honest}")


#: The templates of :func:`describe_claims`.
CLAIM_PROSE = {
    "seeds": ("The seed-dependent rows are re-evaluated under the seed variants {seeds:list} (their own seeded "
              "splits, trees, points and rule orders; `seeds` in the table); the Weka splits each read: {peers:list}."),
    "ties": ("The slides fix only \"the largest p\" for ties; the walk-through and the conformance checks on the "
             "contact lenses are re-run under the exact-tie rules {rules:list}, and slide 2's readings over the "
             "trees of the class {trees:list} and with {subtrees:list} counted as identical subtrees."),
    "orders": ("The cross-validation observations are re-run with the rules read in other orders where rules of "
               "several classes cover a held-out instance (the learnt order, classes in declared order, is the main "
               "run's): {orders:list}; the table `cv_variants` gives them under every variant."),
    "honest": ("The central rows are exact computations on the 24 fixed instances and an exhaustive enumeration of "
               "trees: there is no sampling protocol to improve on, so no honest check applies to them; "
               "their free choices are the variants above ({rows})."),
}


@validate_params({"report": [ClaimsReport], "values": [dict, None]}, prefer_skip_nested_validation=True)
def discussion(report, values=None):
    """Each claim's discussion: the registry's template (``discussion``) rendered from its row.

    Every row has a template. ``{robustness}`` is ``"; "`` and the row's sensitivity (the claims
    table's words), or nothing when the row has none (no empty clause is left); a template without
    ``{robustness}`` for a row that has a sensitivity is refused (``ValueError``), so that the
    Discussion never drops what the claims table says of a row's robustness.

    Parameters
    ----------
    report : companion.claims.ClaimsReport
    values : dict, optional
        ``{claim id: {field: value}}``: further fields (``variants``, the cross-validation rows
        under the seed and rule-order variants, :func:`claims_section`'s ``discussion_values``).

    Returns
    -------
    companion.prose.Markdown
    """
    values = values or {}
    fields = {}
    missing = [row["id"] for _, row in report.table.iterrows()
               if isinstance(row["sensitivity"], str) and row["sensitivity"] and isinstance(row["discussion"], str)
               and row["discussion"] and "{robustness}" not in row["discussion"]]
    if missing:  # the claims table states their robustness: the Discussion must too
        raise ValueError(f"discussion: the templates of {missing} have no {{robustness}} field, but their rows "
                         "have a sensitivity")
    for _, row in report.table.iterrows():
        sensitivity = row["sensitivity"] if isinstance(row["sensitivity"], str) else ""
        fields[row["id"]] = {"robustness": f"; {sensitivity}" if sensitivity else "", "variants": "not run",
                             **values.get(row["id"], {})}
    return report.discussion(values=fields)


#: The rows that judge slide 2's statements on what a tree can express (the glance counts them by sentence).
_SLIDE2_JUDGED = ("replicated-subtree-some-tree", "replicated-subtree-literal", "replicated-subtree")


def _kind_word(row) -> str:
    """``"observation"`` or ``"conformance check, **agrees** (by construction)"``: a row's kind and verdict word."""
    kind = {"conformance": "conformance check", "peer": "peer check", "sanity": "sanity check",
            "mathematical": "mathematical statement", "empirical": "empirical result"}.get(row["category"], row["category"])
    if row["verdict"] in ("observed", "n/a"):
        return kind
    return f"{kind}, **{row['verdict']}**" + (" (by construction)" if bool(row["by_construction"]) else "")


#: Words in a row's history that record an earlier verdict or reading against the paper.
_ADVERSE = r"\b(fails|failed|differs|does not support|would have failed)\b"


def describe_glance(report, census: pd.DataFrame):
    """What the summary box does not say, shown under it: how the central claims were chosen,
    why no honest check applies and what was varied, slide 2's sentences counted once each, the
    rows that are not robust, and the criteria changed after an adverse result was seen.

    Parameters
    ----------
    report : companion.claims.ClaimsReport
    census : pandas.DataFrame
        :func:`tree_census` (slide 2's trees).

    Returns
    -------
    companion.prose.Markdown
    """
    import re

    from companion.claims._report import anchor

    table = report.table.set_index("id")
    link = lambda i: f"[`{i}`](#{anchor('02', i)})"  # noqa: E731
    central = table[table["central"].astype(bool)]
    varied = [f"{link(i)}: {row['sensitivity'] or 'no variant listed'}" for i, row in central.iterrows()]
    smallest = census[census["smallest"]]
    sentence = render(GLANCE["slide2"], some=table.loc["replicated-subtree-some-tree", "verdict"],
                      example=link("replicated-subtree-some-tree"),
                      literal=table.loc["replicated-subtree-literal", "verdict"],
                      literal_link=link("replicated-subtree-literal"),
                      identical=int(smallest["two identical subtrees"].sum()), n_smallest=len(smallest),
                      word="ambiguous" if table.loc["replicated-subtree-some-tree", "verdict"]
                      != table.loc["replicated-subtree-literal", "verdict"] else table.loc[
                          "replicated-subtree-literal", "verdict"],
                      loose=table.loc["replicated-subtree", "verdict"], loose_link=link("replicated-subtree"),
                      n_maths=int((table["category"] == "mathematical").sum()),
                      others=[f"\"{row['quote']}\" ({link(i)}, {_kind_word(row)})" for i, row in table.iterrows()
                              if str(row["where"]).startswith("Slide 2 ") and i not in _SLIDE2_JUDGED] or ["none"]).data
    fragile = table[~table["robust"].astype(bool) & (table["verdict"] != "observed")]
    fragile_text = (render(GLANCE["fragile"], rows=[
        f"{link(i)} ({row['category']}{', by construction' if bool(row['by_construction']) else ''}): "
        f"**{row['verdict']}** on the main run, flips under {row['flips'].replace('; ', ', ')}; {row['detail']}"
        for i, row in fragile.iterrows()]).data if len(fragile) else GLANCE["robust"])
    adverse = [i for i, row in table.iterrows()
               if isinstance(row["history"], str) and re.search(_ADVERSE, row["history"])]
    changed = int(table["history"].map(lambda h: isinstance(h, str) and bool(h)).sum())
    adverse_text = render(GLANCE["adverse"], k=len(adverse), n=len(table), changed=changed,
                          rows=[f"{link(i)} (now {table.loc[i, 'category']}, **{table.loc[i, 'verdict']}**)"
                                for i in adverse] or ["none"]).data
    return Markdown("\n\n".join([GLANCE["central"], render(GLANCE["honest"], rows=varied).data, sentence,
                                   fragile_text, adverse_text]))


#: The templates of :func:`describe_glance`.
GLANCE = {
    "central": ("**How the central claims were chosen.** The slides have no abstract or conclusion; the central claims "
                "are the results the slides themselves state: slide 10's one surviving number (\"4 out of 12\") and "
                "slide 2's statements on what a tree for the example's rules can express (\"Corresponding tree "
                "contains identical subtrees\", \"Tree cannot easily express disjunction between rules\"), which are "
                "properties of the resulting trees and are checked by enumerating them. Slide 2's statements on how "
                "easily one form is converted into the other (\"Easy converting a tree into a set of rules\", \"More "
                "difficult transforming a rule set into a tree\") qualify a process, whose ease is not measured here: "
                "they are observations, giving the sizes of what each conversion produces. The other sentences "
                "describe the algorithm or its walk-through (conformance checks) or illustrate an example or a lost "
                "picture (observations)."),
    "honest": ("**Protocol and honest check.** Every central row is an exact count on the 24 fixed instances or an "
               "exhaustive enumeration of the example's trees: there is no sampling protocol to improve on, so no "
               "honest check applies. \"Robust\" is to these variants only: {rows:list}."),
    "slide2": ("**Slide 2's statements on what a tree can express, each counted once.** \"Corresponding tree contains "
               "identical subtrees\" is one sentence, "
               "judged in two readings and counted once here: **{word}**. Read as one tree (the one slide 3 drew) it "
               "**{some}** ({example}); read of every smallest tree, test for test, it **{literal}** ({identical} of "
               "the {n_smallest} smallest trees contain two identical subtrees; {literal_link}). \"Tree cannot easily "
               "express disjunction between rules\", read as: no tree states the two rules without repeating one, "
               "its tests in any order, **{loose}** ({loose_link}). The count above, {n_maths:plural mathematical "
               "statement}, counts readings, not sentences: two sentences, one ambiguous. Slide 2's other sentences: "
               "{others:list}."),
    "fragile": "**Not robust.** {rows:list}.",
    "robust": "**Not robust.** No row with a verdict changes under a variant.",
    "adverse": ("**Changed after the results were seen.** {changed} of the {n} rows have a history (their earlier "
                "design and verdict are in the claims list); {k} of them were changed after an adverse result "
                "(a fail, a differs, or a direction the interval did not support): {rows:list}."),
}
