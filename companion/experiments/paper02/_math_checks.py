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
    "replicated_subtree": ("of the {n_trees} decision trees computing (a and b) or (c and d) ({trees}), {both} "
                           "test the two variables of one conjunction under both branches of the root; the "
                           "{n_smallest} smallest ({leaves} leaves) compute that conjunction in two disjoint subtrees, "
                           "their tests in any order ({replicated} of {n_smallest}; {replicated_all} of all "
                           "{n_trees}){cart}"),
    "replicated_literal": ("of the {n_smallest} smallest decision trees computing (a and b) or (c and d) ({trees}; "
                           "{leaves} leaves), {identical} contain two identical subtrees (the same tests in the same "
                           "places; {subtrees}) and {different} do not ({identical_all} of all {n_trees} trees contain two identical "
                           "subtrees, {copies_all} two identical copies of a conjunction); {size}{cart}"),
    "replicated_some": ("{identical} of the {n_smallest} smallest decision trees computing (a and b) or (c and d) "
                        "({trees}; {leaves} leaves) contain two identical subtrees (the same tests in the same "
                        "places; {subtrees}), e.g. `{example}`"),
    "size": ("every tree has one leaf more than it has tests ({binary} of {n_trees}), so the smallest trees by leaves "
             "are the smallest by tests and by nodes"),
    "cart": "; the CART tree of seed {seed}, `{tree}` ({leaves} leaves), is {smallest} and {identical}",
    "cart_outside": "; the CART tree of seed {seed}, `{tree}`, is not in this class of trees",
    "rules_to_tree": ("the slide's {n_rules:plural rule} hold {rule_tests:plural test}; the {n_smallest} smallest of "
                      "the {n_trees} decision trees for them ({trees}) have {leaves} leaves and {tree_tests} test "
                      "nodes, and read back one rule per leaf give {leaves} rules"),
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


def stops_when_no_attribute_left(X: pd.DataFrame, y: pd.Series, rng: np.random.Generator | None = None,
                                 model: Prism | None = None, copy: tuple | None = None) -> tuple[bool, str]:
    """Slide 15, "(or there are no more attributes to use)", on data where it happens.

    PRISM learns on :func:`contradictory_copy` (the contact lenses never run out of attributes).
    The check holds when at least one rule is imperfect, every imperfect rule uses all the
    attributes, and every other rule stops at its first perfect test.

    Parameters
    ----------
    X, y : pandas.DataFrame, pandas.Series
        The contact lenses.
    rng : numpy.random.Generator, optional
        The notebook's generator (which instance is copied, and its class); not read when
        ``copy`` is given.
    model : Prism, optional
        A model of the copied data to check instead of fitting one (the tests break it).
    copy : tuple, optional
        :func:`contradictory_copy`'s result, drawn by the caller.

    Returns
    -------
    (bool, str)
    """
    if copy is None:
        if rng is None:
            raise ValueError("stops_when_no_attribute_left: give rng or copy")
        copy = contradictory_copy(X, y, rng)
    X2, y2, row, label = copy
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
# Slide 2: "Corresponding tree contains identical subtrees", over every tree of the example
# ---------------------------------------------------------------------------------------------

_ASSIGNMENTS = np.array(list(itertools.product([0, 1], repeat=4)), dtype=bool)

#: The classes of decision trees enumerated, by which tests a node may make. ``relevant`` (the
#: notebook's choice): each test is on a variable the function of its subtree depends on;
#: ``untested``: each test is on a variable not yet tested on its path (a subtree whose function
#: is constant is a leaf). Both hold the same smallest trees: a test on a variable the subtree's
#: function does not depend on can be replaced by either child, which saves leaves.
TREE_CLASSES = {
    "relevant": "each test on a variable its subtree's function depends on",
    "untested": "each test on a variable not yet tested on its path",
}

#: The smallest repeated subtree counted as "identical subtrees", by its tests: the variants
#: ``subtrees=…`` (the notebook's choice: any internal subtree, a single test included).
SUBTREE_SIZES = {
    "any": (1, "any internal subtree, a single test included"),
    "two-tests": (2, "subtrees of two tests or more only"),
}

#: The names of the four variables, in the order of ``_ASSIGNMENTS``' columns.
_NAMES = "abcd"


def _function(table: np.ndarray, variable: int, value: int) -> np.ndarray:
    """``table`` (a function of the 16 assignments) with ``variable`` fixed to ``value``."""
    fixed = _ASSIGNMENTS.copy()
    fixed[:, variable] = bool(value)
    index = fixed @ (1 << np.arange(3, -1, -1))
    return table[index]


def _depends(table: np.ndarray, variable: int) -> bool:
    return not np.array_equal(_function(table, variable, 0), _function(table, variable, 1))


def all_trees(table: np.ndarray, tests: str = "relevant") -> list:
    """Every decision tree computing ``table`` (a Boolean function of the 16 assignments of a, b,
    c, d) in the class ``tests`` of :data:`TREE_CLASSES`.

    A tree is ``("leaf", value)`` or ``(variable, tree if 0, tree if 1, function)``, the
    function being the bytes of the subtree's table over the 16 assignments.

    Parameters
    ----------
    table : ndarray of bool, shape (16,)
    tests : {"relevant", "untested"}, default="relevant"

    Returns
    -------
    list of tuple
    """
    if tests not in TREE_CLASSES:
        raise ValueError(f"all_trees: tests must be one of {tuple(TREE_CLASSES)}, got {tests!r}")

    @lru_cache(maxsize=None)  # lives for this call only
    def trees(key: bytes, free: int) -> tuple:
        f = np.frombuffer(key, dtype=bool)
        if f.all() or not f.any():
            return (("leaf", bool(f[0])),)
        out = []
        for v in range(4):
            allowed = _depends(f, v) if tests == "relevant" else bool(free >> v & 1)
            if allowed:
                lo, hi = _function(f, v, 0), _function(f, v, 1)
                rest = free & ~(1 << v)
                out += [(v, a, b, key) for a in trees(lo.tobytes(), rest) for b in trees(hi.tobytes(), rest)]
        return tuple(out)

    return list(trees(np.ascontiguousarray(table, dtype=bool).tobytes(), 0b1111))


def tree_text(tree) -> str:
    """A tree in one line: ``v(T0,T1)`` tests ``v`` (``T0`` when it is false, ``T1`` when true);
    a leaf is ``x`` or ``-`` (not x). ``b(d(-,c(-,x)),a(c(-,d(-,x)),x))`` is CART's tree of seed 0."""
    if tree[0] == "leaf":
        return "x" if tree[1] else "-"
    return f"{_NAMES[tree[0]]}({tree_text(tree[1])},{tree_text(tree[2])})"


def sklearn_tree_text(tree, feature_names) -> str:
    """:func:`tree_text` of a fitted scikit-learn tree on 0/1 features (``feature <= 0.5``: false),
    whose classes are ``"x"`` and ``"not x"``.

    Parameters
    ----------
    tree : sklearn.tree.DecisionTreeClassifier
    feature_names : sequence of str

    Returns
    -------
    str
    """
    inner = tree.tree_
    classes = list(tree.classes_)

    def text(node):
        if inner.children_left[node] == -1:
            return "x" if classes[int(np.argmax(inner.value[node][0]))] == "x" else "-"
        name = feature_names[inner.feature[node]]
        return f"{name}({text(inner.children_left[node])},{text(inner.children_right[node])})"

    return text(0)


def _internal(tree, path=()) -> list:
    """``(path, text, function)`` of every internal node; a path is the (variable, value) pairs above it."""
    if tree[0] == "leaf":
        return []
    return ([(path, tree_text(tree), tree[3])] + _internal(tree[1], path + ((tree[0], 0),))
            + _internal(tree[2], path + ((tree[0], 1),)))


def _disjoint(p, q) -> bool:
    """Two nodes' subtrees share no node: neither path is a prefix of the other."""
    n = min(len(p), len(q))
    return p[:n] != q[:n]


def _tested(tree) -> set:
    if tree[0] == "leaf":
        return set()
    return {tree[0]} | _tested(tree[1]) | _tested(tree[2])


def _leaves(tree) -> int:
    return 1 if tree[0] == "leaf" else _leaves(tree[1]) + _leaves(tree[2])


def _disjunction() -> np.ndarray:
    a, b, c, d = _ASSIGNMENTS.T
    return (a & b) | (c & d)


def tree_census(function: np.ndarray | None = None, tests: str = "relevant", subtrees: str = "any") -> pd.DataFrame:
    """Every decision tree of ``function`` (default slide 2's ``(a and b) or (c and d)``), one row each.

    Columns: ``tree`` (:func:`tree_text`), ``leaves``, ``smallest`` (fewest leaves of all),
    ``other conjunction under both branches`` (the variables of the conjunction, a∧b or c∧d, whose
    variables the root does not test, are tested under both branches of the root),
    ``conjunction in two disjoint subtrees`` (two disjoint subtrees compute a∧b, or two compute
    c∧d, their tests in any order), ``two identical subtrees`` (two disjoint internal subtrees
    are the same tree: the same tests in the same places) and ``identical copies of a
    conjunction`` (such a pair computes a∧b or c∧d).

    Parameters
    ----------
    function : ndarray of bool, shape (16,), optional
    tests : {"relevant", "untested"}, default="relevant"
        The class of trees (:data:`TREE_CLASSES`).
    subtrees : {"any", "two-tests"}, default="any"
        The smallest subtree that counts in ``two identical subtrees`` (:data:`SUBTREE_SIZES`).

    Returns
    -------
    pandas.DataFrame
        Also ``tests`` (test nodes), beside ``leaves``.
    """
    if subtrees not in SUBTREE_SIZES:
        raise ValueError(f"tree_census: subtrees must be one of {tuple(SUBTREE_SIZES)}, got {subtrees!r}")
    min_tests = SUBTREE_SIZES[subtrees][0]
    function = _disjunction() if function is None else np.asarray(function, dtype=bool)
    a, b, c, d = _ASSIGNMENTS.T
    conjunctions = {(a & b).tobytes(), (c & d).tobytes()}
    rows = []
    for tree in all_trees(function, tests):
        nodes = _internal(tree)
        pairs = [(kp, tp, tp == tq) for i, (p, tp, kp) in enumerate(nodes) for (q, tq, kq) in nodes[i + 1:]
                 if _disjoint(p, q)]
        same_function = any(kp == kq and kp in conjunctions for i, (p, tp, kp) in enumerate(nodes)
                            for (q, tq, kq) in nodes[i + 1:] if _disjoint(p, q))
        # a subtree's tests are its text's opening brackets (`c(-,d(-,x))`: 2)
        identical = [kp for kp, tp, same in pairs if same and tp.count("(") >= min_tests]
        both = False
        if tree[0] != "leaf":
            other = {0, 1, 2, 3} - ({0, 1} if tree[0] in (0, 1) else {2, 3})
            both = other <= _tested(tree[1]) and other <= _tested(tree[2])
        rows.append({"tree": tree_text(tree), "leaves": _leaves(tree), "tests": len(nodes), "other conjunction under both branches": both,
                     "conjunction in two disjoint subtrees": same_function,
                     "two identical subtrees": bool(identical),
                     "identical copies of a conjunction": any(k in conjunctions for k in identical)})
    table = pd.DataFrame(rows, columns=["tree", "leaves", "tests", "other conjunction under both branches",
                                        "conjunction in two disjoint subtrees", "two identical subtrees",
                                        "identical copies of a conjunction"])
    table.insert(2, "smallest", table["leaves"] == table["leaves"].min() if len(table) else [])
    table.attrs["tests"] = tests
    table.attrs["subtrees"] = subtrees
    return table


def _cart_sentence(census: pd.DataFrame, cart: dict | None) -> str:
    """Where the seeded CART tree stands in ``census`` (``cart``: ``seed`` and ``tree``, its :func:`tree_text`)."""
    if not cart:
        return ""
    found = census[census["tree"] == cart["tree"]]
    if found.empty:
        return render(TEMPLATES["cart_outside"], seed=cart["seed"], tree=cart["tree"]).data
    row = found.iloc[0]
    return render(TEMPLATES["cart"], seed=cart["seed"], tree=cart["tree"], leaves=int(row["leaves"]),
                  smallest="one of the smallest" if row["smallest"] else "not one of the smallest",
                  identical="has two identical subtrees" if row["two identical subtrees"]
                  else "has no two identical subtrees").data


def _census_counts(census: pd.DataFrame) -> dict:
    smallest = census[census["smallest"]]
    return {"n_trees": len(census), "n_smallest": len(smallest),
            "leaves": int(census["leaves"].min()) if len(census) else 0,
            "both": int(census["other conjunction under both branches"].sum()),
            "replicated": int(smallest["conjunction in two disjoint subtrees"].sum()),
            "replicated_all": int(census["conjunction in two disjoint subtrees"].sum()),
            "identical": int(smallest["two identical subtrees"].sum()),
            "different": int((~smallest["two identical subtrees"]).sum()),
            "identical_all": int(census["two identical subtrees"].sum()),
            "copies_all": int(census["identical copies of a conjunction"].sum()),
            "trees": TREE_CLASSES[census.attrs.get("tests", "relevant")],
            "subtrees": SUBTREE_SIZES[census.attrs.get("subtrees", "any")][1],
            "size": render(TEMPLATES["size"], binary=int((census["leaves"] == census["tests"] + 1).sum()),
                           n_trees=len(census)).data if "tests" in census else ""}


def replicated_subtree(census: pd.DataFrame, cart: dict | None = None) -> tuple[bool, str]:
    """Slide 2, "Corresponding tree contains identical subtrees", read as: every tree of the example
    repeats a conjunction (loose universal reading).

    Holds when every tree of ``census`` (:func:`tree_census`) tests the variables of one
    conjunction under both branches of its root, and every smallest tree (fewest leaves) computes
    that conjunction in two disjoint subtrees ("identical" read as computing the same function:
    the two copies may test its variables in different orders); larger trees need not (their
    count is reported).

    Parameters
    ----------
    census : pandas.DataFrame
        :func:`tree_census`.
    cart : dict, optional
        ``seed`` and ``tree`` (:func:`sklearn_tree_text`) of the notebook's CART tree, placed in
        the census in the sentence.

    Returns
    -------
    (bool, str)
    """
    counts = _census_counts(census)
    ok = counts["n_trees"] > 0 and counts["both"] == counts["n_trees"] and counts["replicated"] == counts["n_smallest"]
    return ok, render(TEMPLATES["replicated_subtree"], **counts, cart=_cart_sentence(census, cart)).data


def replicated_subtree_literal(census: pd.DataFrame, cart: dict | None = None) -> tuple[bool, str]:
    """Slide 2's "identical subtrees" read literally and universally: every smallest tree of the
    example contains two disjoint subtrees that are the same tree (the same tests in the same places).

    Parameters
    ----------
    census : pandas.DataFrame
        :func:`tree_census`.
    cart : dict, optional
        As for :func:`replicated_subtree`.

    Returns
    -------
    (bool, str)
    """
    counts = _census_counts(census)
    ok = counts["n_smallest"] > 0 and counts["identical"] == counts["n_smallest"]
    return ok, render(TEMPLATES["replicated_literal"], **counts, cart=_cart_sentence(census, cart)).data


def replicated_subtree_some(census: pd.DataFrame) -> tuple[bool, str]:
    """Slide 2's "the corresponding tree contains identical subtrees" read as one tree (the one slide 3
    drew, lost): some smallest tree of the example contains two disjoint identical subtrees.

    Parameters
    ----------
    census : pandas.DataFrame
        :func:`tree_census`.

    Returns
    -------
    (bool, str)
    """
    counts = _census_counts(census)
    smallest = census[census["smallest"] & census["two identical subtrees"]]
    example = smallest["tree"].iloc[0] if len(smallest) else ""
    return counts["identical"] > 0, render(TEMPLATES["replicated_some"], **counts, example=example).data


def rules_to_tree(census: pd.DataFrame) -> tuple[bool, str]:
    """Slide 2's "More difficult transforming a rule set into a tree", on its example: the size of
    the smallest trees for the two rules against the rules' size (an observation: ``ok`` is that
    the smallest tree has more test nodes than the rules have tests).

    Parameters
    ----------
    census : pandas.DataFrame
        :func:`tree_census`.

    Returns
    -------
    (bool, str)
    """
    counts = _census_counts(census)
    rule_tests = 4  # If a and b then x; If c and d then x: two tests each
    tree_tests = counts["leaves"] - 1  # a binary tree of L leaves has L - 1 test nodes
    return tree_tests > rule_tests, render(TEMPLATES["rules_to_tree"], n_rules=2, rule_tests=rule_tests,
                                           tree_tests=tree_tests, **counts).data


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


def conformance_table(checks: dict, rows: dict | None = None) -> pd.DataFrame:
    """The checks as the notebook shows them: statement (the slide's words), what was run, and,
    from the claims registry (``registry/paper02.toml``), the row that judges it, its kind and
    the verdict word the claims table gives it on the main run, with "(by construction)" where the
    row's ``by_construction`` flag says the check can only hold because of how we built it.

    Parameters
    ----------
    checks : dict
        ``{name: (ok, detail)}``.
    rows : dict, optional
        ``{check name: registry entry}`` (the entry's ``id``, ``origin`` and ``category``); a
        check without one shows no kind or verdict.

    Returns
    -------
    pandas.DataFrame
    """
    from companion.claims._evaluate import VERDICT_WORDS

    rows = rows or {}
    labels = {"empirical": "empirical result", "mathematical": "mathematical statement",
              "conformance": "conformance check", "peer": "peer check", "sanity": "sanity check",
              "observation": "observation (no verdict)"}
    table = []
    for name, (ok, detail) in checks.items():
        entry = rows.get(name, {})
        word = "holds" if ok else "fails"
        verdict = VERDICT_WORDS.get(entry.get("origin", ""), {}).get(word, word) if entry else ""
        if verdict and entry.get("by_construction", False):
            verdict += " (by construction)"  # the registry's flag, as the claims table states it
        table.append({"check": name, "slide": STATEMENTS.get(name, ("", ""))[0],
                      "statement": STATEMENTS.get(name, ("", ""))[1], "what was run": detail,
                      "claims row": entry.get("id", ""), "kind": labels.get(entry.get("category", ""), ""),
                      "verdict (main run)": verdict})
    return pd.DataFrame(table).set_index("check")


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
    "replicated-subtree": ("2", "Tree cannot easily express disjunction between rules (every tree repeats a "
                                "conjunction, its tests in any order)"),
    "replicated-subtree-literal": ("2", "Corresponding tree contains identical subtrees (reading 2: every smallest "
                                        "tree, test for test)"),
    "replicated-subtree-some-tree": ("2", "Corresponding tree contains identical subtrees (reading 1: one tree, "
                                          "test for test)"),
    "rules-to-tree": ("2", "More difficult transforming a rule set into a tree"),
    "tree-to-rules": ("2", "Easy converting a tree into a set of rules"),
}
