"""The checks notebook 02 computes where it shows them: the slides' description of PRISM (slides
6, 7 and 15) run against our :class:`companion.prism.Prism`, the tree-to-rules conversion of
slide 2, and slide 2's replicated-subtree statement over every decision tree of the example.

Each check returns ``(ok, detail)``: whether the statement holds on what was run, and a
generated sentence saying what was run, with its numbers. All of them together take well under
a second.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np
import pandas as pd

from companion.prism import Prism
from companion.prose import render

#: The templates of the checks' sentences (:func:`companion.prose.render`).
TEMPLATES = {
    "stops_when_perfect": ("{n:plural rule}: {first} stop at their first test that makes them perfect on E "
                           "(every shorter prefix has p < t on E); {perfect} of {n} are perfect"),
    "no_more_attributes": ("contact lenses plus a copy of instance {row} labelled `{label}` (seeded): "
                           "{imperfect:plural rule} cannot be made perfect and {stopped} stop with all "
                           "{n_attributes} attributes used; {perfect} of the other {others} stop at their first "
                           "perfect test"),
    "coverage_reduces": ("{steps:plural step} of {rules:plural rule}: the test added never increases the rule's "
                         "coverage of E on {wide} of them (t after ≤ t before) and reduces it on {strict} "
                         "(t after < t before){exceptions}"),
    "coverage_exception": ("; {cases:list} {verb} every instance left in E, so t stays: {pronoun} the rule's "
                           "own p/t and the largest p a test can have, which slide 15 selects when no test has a "
                           "larger p/t"),
    "one_rule_per_leaf": ("the tree (seed {seed}) has {leaves:plural leaf|leaves} and converts into {rules:plural rule}; "
                          "{match} of them have one test per node on a leaf's path (leaf depths against rule lengths)"),
    "replicated_subtree": ("of the {n_trees} decision trees computing (a and b) or (c and d) (each test on a "
                           "variable its subtree's function depends on), {both} test the two variables of one "
                           "conjunction under both branches of the root; the {n_smallest} smallest ({leaves} leaves) "
                           "compute that conjunction in two disjoint subtrees ({replicated} of {n_smallest}; "
                           "{replicated_all} of all {n_trees}); {cart}"),
    "cart": "the CART tree of seed {seed} repeats {tests:list} under both branches of its root",
    "more_rules_2d": ("{uncovered:plural `b` point|`b` points} of {n_b} (our points, one `b` placed among the `a`s) "
                      "{verb} covered by neither of slide 5's two `b` rules"),
}


def _prefix_counts(model: Prism, X, y, j: int) -> tuple[np.ndarray, np.ndarray]:
    """``p`` and ``t`` on rule ``j``'s set E of its prefixes of 0, 1, ... tests."""
    in_e = model.grown_on(X)[:, j]
    steps = model.step_covers(X, j) & in_e[:, None]
    positive = np.asarray(y, dtype=object) == model.rules_[j].label
    return (steps & positive[:, None]).sum(axis=0), steps.sum(axis=0)


def stops_when_perfect(model: Prism, X, y) -> tuple[bool, str]:
    """Slide 15, "Until R is perfect ... do": each rule grows until it is perfect, and no further.

    For every rule, every prefix of its tests (the empty one included) is imperfect on the set
    E the rule was grown on, and the full rule is perfect there (``p = t``).

    Parameters
    ----------
    model : Prism
        Fitted (``pruning=None``) on ``X, y``.
    X : pandas.DataFrame
    y : pandas.Series

    Returns
    -------
    (bool, str)
    """
    first, perfect = 0, 0
    for j in range(len(model.rules_)):
        p, t = _prefix_counts(model, X, y, j)
        perfect += bool(p[-1] == t[-1])
        first += bool(p[-1] == t[-1] and (p[:-1] < t[:-1]).all())
    n = len(model.rules_)
    return first == n, render(TEMPLATES["stops_when_perfect"], n=n, first=first, perfect=perfect).data


def contradictory_copy(X: pd.DataFrame, y: pd.Series, rng: np.random.Generator) -> tuple[pd.DataFrame, pd.Series, int, str]:
    """``X, y`` plus a copy of one instance (drawn with ``rng``) labelled with another class (drawn).

    No rule can separate the two copies, so a rule covering them runs out of attributes.

    Returns
    -------
    X2, y2 : pandas.DataFrame, pandas.Series
    row : int
        The copied instance's position.
    label : str
        The copy's class.
    """
    row = int(rng.integers(len(y)))
    others = [c for c in y.cat.categories if c != y.iloc[row]]
    label = others[int(rng.integers(len(others)))]
    X2 = pd.concat([X, X.iloc[[row]]], ignore_index=True)
    y2 = pd.concat([y, pd.Series(pd.Categorical([label], categories=y.cat.categories), name=y.name)],
                   ignore_index=True)
    return X2, y2, row, str(label)


def stops_when_no_attribute_left(X: pd.DataFrame, y: pd.Series, rng: np.random.Generator,
                                 model: Prism | None = None) -> tuple[bool, str]:
    """Slide 15, "(or there are no more attributes to use)", on data where it happens.

    PRISM learns on :func:`contradictory_copy` (the contact lenses never run out of attributes).
    The check holds when at least one rule is imperfect, every imperfect rule uses all the
    attributes, and every other rule stops at its first perfect test.

    Parameters
    ----------
    X, y : pandas.DataFrame, pandas.Series
        The contact lenses.
    rng : numpy.random.Generator
        The notebook's generator (which instance is copied, and its class).
    model : Prism, optional
        A model of the copied data to check instead of fitting one (the tests break it).

    Returns
    -------
    (bool, str)
    """
    X2, y2, row, label = contradictory_copy(X, y, rng)
    model = Prism(pruning=None).fit(X2, y2) if model is None else model
    n_attributes = X2.shape[1]
    imperfect, stopped, others, perfect = 0, 0, 0, 0
    for j, rule in enumerate(model.rules_):
        p, t = _prefix_counts(model, X2, y2, j)
        if p[-1] < t[-1]:
            imperfect += 1
            stopped += len(set(rule.attributes)) == n_attributes
        else:
            others += 1
            perfect += bool((p[:-1] < t[:-1]).all())
    ok = imperfect > 0 and stopped == imperfect and perfect == others
    return ok, render(TEMPLATES["no_more_attributes"], row=row, label=label, imperfect=imperfect, stopped=stopped,
                      n_attributes=n_attributes, perfect=perfect, others=others).data


def coverage_reduces(model: Prism, X, y, strict: bool = False) -> tuple[bool, str]:
    """Slide 6, "Each new test reduces rules coverage": ``t`` on E never rises (``strict``: falls) at
    every test added.

    Two readings: a test narrows the rule's coverage (never increases it, which holds for any
    conjunction), or strictly reduces it. The sentence names every test that leaves ``t``
    unchanged.

    Parameters
    ----------
    model : Prism
        Fitted on ``X, y``.
    X : pandas.DataFrame
    y : pandas.Series
    strict : bool, default=False
        Judge the strict reading (every test reduces ``t``) instead of the wide one.

    Returns
    -------
    (bool, str)
    """
    steps, reduced, wide, same = 0, 0, 0, []
    for j, rule in enumerate(model.rules_):
        _, t = _prefix_counts(model, X, y, j)
        change = np.diff(t)
        steps += len(change)
        reduced += int((change < 0).sum())
        wide += int((change <= 0).sum())
        same += [f"rule {j + 1}'s test {s + 1} `{rule.conditions[s][0]} = {rule.conditions[s][1]}` ({t[s]} → {t[s + 1]})"
                 for s in np.flatnonzero(change == 0)]
    exceptions = render(TEMPLATES["coverage_exception"], cases=same, verb="holds for" if len(same) == 1 else "hold for",
                        pronoun="it keeps" if len(same) == 1 else "they keep").data if same else ""
    ok = (reduced if strict else wide) == steps
    return ok, render(TEMPLATES["coverage_reduces"], steps=steps, rules=len(model.rules_), wide=wide, strict=reduced,
                      exceptions=exceptions).data


def _leaf_depths(tree) -> dict:
    """Depth of every leaf of a fitted scikit-learn tree, by node id."""
    left, right = tree.tree_.children_left, tree.tree_.children_right
    depths, stack = {}, [(0, 0)]
    while stack:
        node, depth = stack.pop()
        if left[node] == -1:
            depths[node] = depth
        else:
            stack += [(left[node], depth + 1), (right[node], depth + 1)]
    return depths


def one_rule_per_leaf(tree, leaf_rules, seed: int) -> tuple[bool, str]:
    """Slide 2, "One rule for each leaf": as many rules as leaves, each with one test per node of its path.

    Parameters
    ----------
    tree : sklearn.tree.DecisionTreeClassifier
        Fitted.
    leaf_rules : list of str
        Its rules (:func:`tree_leaf_rules`), leaves left to right.
    seed : int
        The tree's ``random_state`` (named in the sentence).

    Returns
    -------
    (bool, str)
    """
    depths = sorted(_leaf_depths(tree).values())
    n_tests = sorted(0 if r.startswith("If true ") else len(r.removeprefix("If ").rsplit(" then ", 1)[0].split(" and "))
                     for r in leaf_rules)
    match = sum(a == b for a, b in zip(depths, n_tests)) if len(depths) == len(n_tests) else 0
    ok = len(leaf_rules) == tree.get_n_leaves() and match == len(leaf_rules)
    return ok, render(TEMPLATES["one_rule_per_leaf"], seed=seed, leaves=int(tree.get_n_leaves()),
                      rules=len(leaf_rules), match=match).data


# ---------------------------------------------------------------------------------------------
# Slide 2: every decision tree of (a and b) or (c and d) replicates a subtree
# ---------------------------------------------------------------------------------------------

_ASSIGNMENTS = np.array(list(itertools.product([0, 1], repeat=4)), dtype=bool)


def _function(table: np.ndarray, variable: int, value: int) -> np.ndarray:
    """``table`` (a function of the 16 assignments) with ``variable`` fixed to ``value``."""
    fixed = _ASSIGNMENTS.copy()
    fixed[:, variable] = bool(value)
    index = fixed @ (1 << np.arange(3, -1, -1))
    return table[index]


def _depends(table: np.ndarray, variable: int) -> bool:
    return not np.array_equal(_function(table, variable, 0), _function(table, variable, 1))


def all_trees(table: np.ndarray) -> list:
    """Every decision tree computing ``table`` (a Boolean function of 16 assignments of a, b, c, d)
    in which each test is on a variable the function of its subtree depends on.

    A tree is ``("leaf", value)`` or ``(variable, tree if 0, tree if 1, function)``.
    """
    @lru_cache(maxsize=None)
    def trees(key: bytes) -> tuple:
        f = np.frombuffer(key, dtype=bool)
        if f.all() or not f.any():
            return (("leaf", bool(f[0])),)
        out = []
        for v in range(4):
            if _depends(f, v):
                lo, hi = _function(f, v, 0), _function(f, v, 1)
                out += [(v, a, b, key) for a in trees(lo.tobytes()) for b in trees(hi.tobytes())]
        return tuple(out)

    return list(trees(np.ascontiguousarray(table, dtype=bool).tobytes()))


def _subtrees(tree) -> list:
    """Every internal node of ``tree`` (its function's key)."""
    if tree[0] == "leaf":
        return []
    return [tree[3]] + _subtrees(tree[1]) + _subtrees(tree[2])


def _tested(tree) -> set:
    if tree[0] == "leaf":
        return set()
    return {tree[0]} | _tested(tree[1]) | _tested(tree[2])


def _leaves(tree) -> int:
    return 1 if tree[0] == "leaf" else _leaves(tree[1]) + _leaves(tree[2])


def _disjunction() -> np.ndarray:
    a, b, c, d = _ASSIGNMENTS.T
    return (a & b) | (c & d)


def _replicated_subtree_census(key: bytes) -> dict:
    """Every tree of the function ``key`` (slide 2's: (a and b) or (c and d)): how many test the
    variables of the conjunction (a∧b or c∧d) the root does not test under both branches of the
    root, and how many (of the smallest, and of all) compute a∧b or c∧d in two disjoint subtrees."""
    a, b, c, d = _ASSIGNMENTS.T
    conjunctions = ((a & b).tobytes(), (c & d).tobytes())
    trees = all_trees(np.frombuffer(key, dtype=bool))
    sizes = [_leaves(tree) for tree in trees]
    smallest = min(sizes)
    census = {"n_trees": len(trees), "both": 0, "replicated_all": 0, "replicated": 0, "leaves": smallest,
              "n_smallest": sizes.count(smallest)}
    for tree, size in zip(trees, sizes):
        keys = _subtrees(tree)
        twice = any(keys.count(k) >= 2 for k in conjunctions)
        census["replicated_all"] += twice
        census["replicated"] += twice and size == smallest
        other = {0, 1, 2, 3} - ({0, 1} if tree[0] in (0, 1) else {2, 3})
        census["both"] += other <= _tested(tree[1]) and other <= _tested(tree[2])
    return census


def replicated_subtree(cart_tests, seed: int, function: np.ndarray | None = None) -> tuple[bool, str]:
    """Slide 2, "Corresponding tree contains identical subtrees", over every tree of the example.

    Enumerates every decision tree computing ``(a and b) or (c and d)`` whose tests are each on
    a variable its subtree's function depends on. The statement holds when every tree tests the
    variables of one conjunction under both branches of its root and every smallest tree (fewest
    leaves) computes that conjunction in two disjoint subtrees ("identical" read as computing
    the same function: the two copies may test its variables in different orders); larger trees
    need not (their count is reported). ``cart_tests`` (the tests the seeded CART tree
    repeats, :func:`replicated_tests`) is named in the sentence.

    Parameters
    ----------
    cart_tests : list of str
        What the notebook's CART tree repeats.
    seed : int
        That tree's ``random_state``.
    function : ndarray of bool, shape (16,), optional
        Another function of a, b, c, d to enumerate instead (the tests break the statement with it).

    Returns
    -------
    (bool, str)
    """
    function = _disjunction() if function is None else np.asarray(function, dtype=bool)
    census = _replicated_subtree_census(np.ascontiguousarray(function).tobytes())
    cart = render(TEMPLATES["cart"], seed=seed, tests=[f"`{t}`" for t in cart_tests] or ["no test"]).data
    ok = census["n_trees"] > 0 and census["both"] == census["n_trees"] and census["replicated"] == census["n_smallest"]
    return ok, render(TEMPLATES["replicated_subtree"], **census, cart=cart).data


def more_rules_2d(uncovered_b: int, n_b: int) -> tuple[bool, str]:
    """Slide 5, "More rules could be added for perfect rule set", on our points (an illustration).

    Parameters
    ----------
    uncovered_b : int
        ``b`` points neither ``b`` rule covers (:func:`covering_2d_example`).
    n_b : int
        ``b`` points.

    Returns
    -------
    (bool, str)
    """
    return uncovered_b > 0, render(TEMPLATES["more_rules_2d"], uncovered=uncovered_b, n_b=n_b,
                                   verb="is" if uncovered_b == 1 else "are").data


def conformance_table(checks: dict) -> pd.DataFrame:
    """The checks as the notebook shows them: statement (the slide's words), what was run, result.

    Parameters
    ----------
    checks : dict
        ``{name: (ok, detail)}``.

    Returns
    -------
    pandas.DataFrame
    """
    rows = [{"check": name, "slide": STATEMENTS.get(name, ("", ""))[0], "statement": STATEMENTS.get(name, ("", ""))[1],
             "what was run": detail, "result": "agrees" if ok else "differs"}
            for name, (ok, detail) in checks.items()]
    return pd.DataFrame(rows).set_index("check")


#: The slides' words each check runs (slide, quote).
STATEMENTS = {
    "covering": ("4", "for each class in turn find a rule set that covers all instances in it (excluding instances "
                      "not in the class)"),
    "ties": ("15", "Select A and v to maximize the accuracy p/t (break ties by choosing the condition with the "
                   "largest p)"),
    "perfect": ("15", "Until R is perfect"),
    "no-more-attributes": ("15", "(or there are no more attributes to use)"),
    "coverage-reduces": ("6", "Each new test reduces rules coverage."),
    "coverage-reduces-strictly": ("6", "Each new test reduces rules coverage."),
    "separate": ("16", "Subset covered by rule doesnt need to be explored any further"),
    "one-rule-per-leaf": ("2", "One rule for each leaf"),
    "replicated-subtree": ("2", "Corresponding tree contains identical subtrees"),
}
