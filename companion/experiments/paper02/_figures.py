"""Notebook 02's figures: the replicated subtree of slides 2-3 and slide 5's covering of a
two-dimensional instance space.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
from sklearn.tree import DecisionTreeClassifier

from companion.experiments._display import closed_figure
from companion.paper_numbers import paper_table
from companion.baselines import tree_leaf_paths
from companion.prism import Prism


# --------------------------------------------------------------------------------------------
# Trees vs rules: the replicated subtree
# --------------------------------------------------------------------------------------------


def disjunction_data(n_copies: int = 1) -> tuple[pd.DataFrame, pd.Series]:
    """The 16 truth assignments of ``a, b, c, d`` labelled by ``(a and b) or (c and d)``.

    Attributes are categoricals with values ``["false", "true"]``; the class is ``"x"`` where
    the disjunction holds, else ``"not x"`` (categories in that order, so PRISM learns the
    rules for ``x`` first). ``n_copies`` repeats the table (no noise, so the target concept is
    the same).

    Parameters
    ----------
    n_copies : int, default=1
        Copies of the 16 rows.

    Returns
    -------
    X : pandas.DataFrame
    y : pandas.Series
    """
    if not isinstance(n_copies, (int, np.integer)) or n_copies < 1:
        raise ValueError(f"n_copies must be a positive integer, got {n_copies!r}")
    rows = np.array(list(itertools.product([False, True], repeat=4)) * int(n_copies))
    a, b, c, d = rows.T
    X = pd.DataFrame(
        {
            name: pd.Categorical(np.where(column, "true", "false"), categories=["false", "true"])
            for name, column in zip("abcd", rows.T)
        }
    )
    label = np.where((a & b) | (c & d), "x", "not x")
    y = pd.Series(pd.Categorical(label, categories=["x", "not x"]), name="class")
    return X, y


def tree_leaf_rules(tree: DecisionTreeClassifier, feature_names, class_names=None) -> list[str]:
    """One rule per leaf of a fitted tree on 0/1 features, left to right (slide 2: "one rule for each leaf").

    A split ``feature <= 0.5`` reads as ``feature = false`` on its left branch and
    ``feature = true`` on its right one.

    Parameters
    ----------
    tree : sklearn.tree.DecisionTreeClassifier
        Fitted on 0/1 features.
    feature_names : sequence of str
        One name per feature.
    class_names : sequence of str, optional
        Names of ``tree.classes_`` (default: the classes themselves).

    Returns
    -------
    list of str
    """
    classes = tree.classes_ if class_names is None else class_names
    rules = []
    for leaf in tree_leaf_paths(tree):
        label = classes[int(np.argmax(tree.tree_.value[leaf.node][0]))]
        tests = [f"{feature_names[f]} = {'false' if op == '<=' else 'true'}" for f, op, _ in leaf.conditions]
        rules.append(f"If {' and '.join(tests) if tests else 'true'} then {label}")
    return rules


def replicated_tests(x_leaves) -> list[str]:
    """The tests that appear on the paths of two or more leaves for ``x`` in different branches
    of the root's split (a subtree repeated under both): ``["c = true", ...]``."""
    if len(x_leaves) < 2:
        return []
    paths = [r.removeprefix("If ").rsplit(" then ", 1)[0].split(" and ") for r in x_leaves]
    by_root = {}
    for path in paths:
        by_root.setdefault(path[0], set()).update(path[1:])
    if len(by_root) < 2:
        return []
    shared = set.intersection(*by_root.values())
    return sorted(shared)


def replicated_subtree_demo(seed: int = 0):
    """Tree and PRISM rules on :func:`disjunction_data`, drawn side by side (slides 2-3).

    Parameters
    ----------
    seed : int, default=0
        The tree's ``random_state``.

    Returns
    -------
    dict
        ``tree`` (a fitted ``DecisionTreeClassifier`` on the 0/1 codes), ``leaf_rules`` (one
        rule per leaf), ``prism`` (fitted :class:`Prism`), ``x_rules`` (PRISM's rules for
        ``x``) and ``figure`` (matplotlib figure: the tree left, PRISM's rules right).
    """
    import matplotlib.pyplot as plt
    from sklearn.tree import plot_tree

    X, y = disjunction_data()
    codes = X.apply(lambda column: column.cat.codes)
    tree = DecisionTreeClassifier(random_state=seed).fit(codes, y.astype(str))
    leaf_rules = tree_leaf_rules(tree, list(X.columns))
    prism = Prism(pruning=None).fit(X, y)
    x_rules = [rule.to_text() for rule in prism.rules_ if rule.label == "x"]
    # 11 in wide and a 9 pt tree: shrunk to the page's width, the nodes' text stays legible
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 5), gridspec_kw={"width_ratios": [3, 1.3]})
    plot_tree(
        tree,
        feature_names=[f"{name} = true" for name in X.columns],
        class_names=list(tree.classes_),
        impurity=False,
        filled=True,
        ax=left,
        fontsize=9,
    )
    x_leaves = [r for r in leaf_rules if r.endswith("then x")]
    repeated = replicated_tests(x_leaves)
    left.set_title(f"CART tree (seed {seed}): " + (f"{' and '.join(t.split(' = ')[0] for t in repeated)} tested under both branches of the root"
                                                   if repeated else "no test repeated under both branches of the root"))
    right.axis("off")
    right.set_title("PRISM rules for x")
    right.text(0.0, 0.6, "\n\n".join(rule.replace(" then", "\nthen") for rule in x_rules),
               family="monospace", fontsize=10, va="top")
    figure.tight_layout()
    closed_figure(figure)
    return {
        "tree": tree,
        "leaf_rules": leaf_rules,
        "prism": prism,
        "x_rules": x_rules,
        "figure": figure,
    }


# --------------------------------------------------------------------------------------------
# Slide 5: covering in two dimensions
# --------------------------------------------------------------------------------------------


def _in_box(points: pd.DataFrame, rule: pd.Series) -> np.ndarray:
    """Points with x_low < x <= x_high and y_low < y <= y_high (NaN bounds: unbounded)."""
    inside = np.ones(len(points), dtype=bool)
    for axis in ("x", "y"):
        low, high = rule[f"{axis}_low"], rule[f"{axis}_high"]
        if pd.notna(low):
            inside &= points[axis].to_numpy() > low
        if pd.notna(high):
            inside &= points[axis].to_numpy() <= high
    return inside


def covering_2d_example(seed: int = 0, n_points: int = 40) -> dict:
    """Slide 5's example: points of classes a and b in the plane and the rectangles of the rules.

    The rules and thresholds (x = 1.2, y = 2.6) are the slide's
    (``paper_numbers/02_prism_covering_2d.csv``); the points are ours (the picture is lost):
    ``n_points`` drawn uniformly on [0.05, 2.95] x [0.05, 3.95] with ``seed``, labelled ``a`` inside
    x > 1.2, y > 2.6 and ``b`` elsewhere, plus one ``b`` inside a's rectangle, so that, as the
    slide says, "more rules could be added for [a] perfect rule set".

    Parameters
    ----------
    seed : int, default=0
        Seed of the points.
    n_points : int, default=40
        Points drawn.

    Returns
    -------
    dict
        ``points`` (x, y, class), ``rules`` (the slide's rules with p/t on the points; class a
        test by test as the covering grows it), ``uncovered_b`` (b points no b rule covers)
        and ``figure`` (left: the rule for a growing; right: the rule set for b).
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    if not isinstance(n_points, (int, np.integer)) or n_points < 2:
        raise ValueError(f"n_points must be an int >= 2, got {n_points!r}")
    rng = np.random.default_rng(seed)
    rules = paper_table("02_prism_covering_2d").reset_index(drop=True)
    x = rng.uniform(0.05, 2.95, n_points)
    y = rng.uniform(0.05, 3.95, n_points)
    a_box = rules[(rules["class"] == "a")].iloc[-1]
    x_a = float(a_box["x_low"])
    y_a = float(a_box["y_low"])
    # the extra b, inside a's rectangle
    x = np.append(x, rng.uniform(x_a + 0.2, 2.8))
    y = np.append(y, rng.uniform(y_a + 0.2, 3.8))
    label = np.where((x > x_a) & (y > y_a), "a", "b")
    label[-1] = "b"
    points = pd.DataFrame({"x": x, "y": y, "class": label})

    p, t = [], []
    for _, rule in rules.iterrows():
        inside = _in_box(points, rule)
        t.append(int(inside.sum()))
        p.append(int((inside & (points["class"] == rule["class"]).to_numpy()).sum()))
    table = rules[["class", "step", "rule", "status"]].copy()
    table["p"], table["t"] = p, t
    table["p/t"] = [f"{pi}/{ti}" for pi, ti in zip(p, t)]
    b_rules = rules[rules["class"] == "b"]
    covered_b = np.zeros(len(points), dtype=bool)
    for _, rule in b_rules.iterrows():
        covered_b |= _in_box(points, rule)
    uncovered_b = int(((points["class"] == "b").to_numpy() & ~covered_b).sum())

    figure, axes = plt.subplots(1, 2, figsize=(11, 4.6), sharey=True)
    limits = {"x": (0.0, 3.0), "y": (0.0, 4.0)}

    def box(ax, rule, **style):
        x0 = rule["x_low"] if pd.notna(rule["x_low"]) else limits["x"][0]
        x1 = rule["x_high"] if pd.notna(rule["x_high"]) else limits["x"][1]
        y0 = rule["y_low"] if pd.notna(rule["y_low"]) else limits["y"][0]
        y1 = rule["y_high"] if pd.notna(rule["y_high"]) else limits["y"][1]
        ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, **style))

    shades = ["#f6c28b", "#e8743b"]
    for ax, cls, title in zip(axes, ("a", "b"), ("growing a rule for a", "a rule set for b")):
        for k, (i, rule) in enumerate(rules[rules["class"] == cls].iterrows()):
            box(ax, rule, facecolor=shades[k] if cls == "a" else ["#b8d8f0", "#7fb3de"][k],
                alpha=0.55, edgecolor="k", linewidth=1.2, linestyle="--" if k == 0 else "-",
                label=f"{rule['rule']}  ({table.loc[i, 'p/t']})")
        for name, marker in (("a", "$a$"), ("b", "$b$")):
            chosen = points[points["class"] == name]
            ax.scatter(chosen["x"], chosen["y"], marker=marker, s=70,
                       color="#b03000" if name == "a" else "#1f4e8c")
        ax.axvline(x_a, color="grey", linewidth=0.6)
        ax.axhline(y_a, color="grey", linewidth=0.6)
        ax.set(xlim=limits["x"], ylim=limits["y"], xlabel="x", title=title)
        ax.set_xticks([0, 1.2, 2, 3])
        ax.set_yticks([0, 1, 2, 2.6, 4])
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), fontsize=8, frameon=False)
    axes[0].set_ylabel("y")
    figure.tight_layout()
    closed_figure(figure)
    return {"points": points, "rules": table, "uncovered_b": uncovered_b, "figure": figure}
