"""Generated prose: every sentence of notebook 03 that states one of our results.
"""

from __future__ import annotations

import pandas as pd

from companion.prose import render
from companion.experiments.paper03._protocol import paper_table1
from companion.experiments.paper03._studies import lambda_sweep_summary


# --------------------------------------------------------------------------------------------
# Generated prose: every sentence of notebook 03 that states one of our results
# --------------------------------------------------------------------------------------------

#: The templates of the notebook's result sentences (:func:`companion.prose.render`).
PROSE = {
    "bayes_shift": ("The paper's {paper:.0f} Bayes errors on its 500 training examples lie {z:signed.2} binomial "
                    "sd from the {expected:.1f} expected: its training set was {word} than average for the Bayes rule."),
    "degree_evidence": ("Closer to the paper's number at d = {a}: {rows_a:list}; at d = {b}: {rows_b:list}. The "
                        "verdicts take d = {main} for column 1 and judge every column-1 row at d = {other} too, on the main, the "
                        "conditioned and every seed's draws (the variants `column1=d{other}…`)."),
    "row_orders": ("Over the row orders of draw 0, the λ-MMP and the mask perceptron give {fixed_word} test error "
                   "per degree; the λ-perceptron's test error spans {spans:list}."),
    "lambda_sweep": ("Mean bounds over the sweep's draws: λ = {closest:g} puts bound (11) nearest the paper's "
                     "{paper:g} ({value:.1f}); the λ-MMP's test error ranges over {mmp_range:.2f} points across λ, "
                     "the pruned tree's over {tree_range:.2f}."),
    "unpruned": ("Un-pruned against pruned CART, mean risk over draws: {items:list}. Pruning changed the tree on "
                 "{changed:list}; on the other draws the two are one tree."),
    "conditioned": ("On the draws conditioned to the paper's Bayes training error, the paper's risks and bounds lie "
                    "{items:list} draw-to-draw sd from our means: the paper's training-set quantities are {word} than "
                    "those of draws as easy for the Bayes rule as its own sample, so the sample of its Table 1 does "
                    "not look easier than average; we cannot tell whether its 11.2 % was measured on that sample."),
}

#: The methods' names in sentences.
NAMES = {"mask_perceptron": "the mask perceptron", "kernel_perceptron": "the kernel perceptron",
         "best_tree": "the best tree", "j48_tree": "J48"}


def describe_rivals(counts: pd.Series) -> list:
    """:func:`strongest_rivals` as phrases: ``["the mask perceptron on 14 draws", ...]`` (rivals never best left out).

    Parameters
    ----------
    counts : pandas.Series
        Draws on which each rival has the smallest rival test error.

    Returns
    -------
    list of str
    """
    return [f"{NAMES.get(m, m)} best on {int(k)} draw{'s' if k != 1 else ''}" for m, k in counts.items() if k > 0]


def describe_conditioned(table: pd.DataFrame):
    """:func:`conditioned_comparison`'s z of the risks and bounds, per column, in words.

    Parameters
    ----------
    table : pandas.DataFrame
        The conditioned section's table (index ``(column, method, quantity)``, column ``z``).

    Returns
    -------
    companion.prose.Markdown
    """
    frame = table.reset_index()
    risks = frame[(frame["quantity"] == "risk") & frame["z"].notna()]
    items = []
    for column, rows in risks.groupby("column", sort=True):
        items.append(f"{rows['z'].min():+.1f} to {rows['z'].max():+.1f} ({column})".replace("-", "−"))
    mean = float(risks["z"].mean())
    return render(PROSE["conditioned"], items=items, word="higher" if mean > 0 else "lower")


def describe_bayes_shift(shift: pd.Series):
    """:func:`bayes_sample_shift` in words.

    Parameters
    ----------
    shift : pandas.Series
        :func:`bayes_sample_shift`'s result.

    Returns
    -------
    companion.prose.Markdown
    """
    return render(PROSE["bayes_shift"], paper=float(shift["paper's errors"]), z=float(shift["z"]),
                  expected=float(shift["expected errors"]),
                  word="easier" if shift["z"] < 0 else "harder" if shift["z"] > 0 else "no easier")


def describe_degree_evidence(evidence: pd.DataFrame, main: int = 3, other: int = 2):
    """:func:`degree_evidence` in words: for each row, which candidate degree is closer to the paper.

    Parameters
    ----------
    evidence : pandas.DataFrame
        :func:`degree_evidence`'s table.
    main : int, default=3
        The degree the verdicts take for column 1.
    other : int, default=2
        The degree reported as the variant ``column1=d<other>``.

    Returns
    -------
    companion.prose.Markdown
    """
    a, b = (int(c.split("=")[1].split()[0]) for c in evidence.columns if c.endswith(" mean"))
    gap_a = (evidence[f"d={a} mean"] - evidence["paper"]).abs()
    gap_b = (evidence[f"d={b} mean"] - evidence["paper"]).abs()
    return render(PROSE["degree_evidence"], a=a, b=b, rows_a=list(evidence.index[gap_a < gap_b]),
                  rows_b=list(evidence.index[gap_b < gap_a]), main=main, other=other)


def describe_row_orders(summary: pd.DataFrame):
    """:func:`row_order_summary` in words.

    Parameters
    ----------
    summary : pandas.DataFrame
        :func:`row_order_summary`'s table.

    Returns
    -------
    companion.prose.Markdown
    """
    fixed = summary.drop(index="kernel_perceptron", level="method", errors="ignore")
    one = bool((fixed["orders min"] == fixed["orders max"]).all())
    perceptron = summary.xs("kernel_perceptron", level="method")
    spans = [f"{lo:.2f}-{hi:.2f} % at d = {d} (95 % of the orders below {q95:.2f} %)"
             for d, lo, hi, q95 in zip(perceptron.index, perceptron["orders min"], perceptron["orders max"],
                                       perceptron["q95"])]
    return render(PROSE["row_orders"], fixed_word="one" if one else "more than one", spans=spans)


def describe_lambda_sweep(sweep: pd.DataFrame, column: int = 2):
    """:func:`lambda_sweep` in words: which λ brings bound (11) to the paper's, how much λ moves the errors.

    Parameters
    ----------
    sweep : pandas.DataFrame
        :func:`lambda_sweep`'s frame.
    column : int, default=2
        The column of Table 1 whose bound (11) the sweep is read against.

    Returns
    -------
    companion.prose.Markdown
    """
    summary = lambda_sweep_summary(sweep)
    table = paper_table1()
    paper = float(table[(table["column"] == str(column)) & (table["method"] == "mmp_bound")
                        & (table["quantity"] == "risk")]["value"].iloc[0])
    closest = float((summary["mmp_bound"] - paper).abs().idxmin())
    return render(PROSE["lambda_sweep"], closest=closest, paper=paper, value=float(summary.loc[closest, "mmp_bound"]),
                  mmp_range=float(summary["mmp_test_error"].max() - summary["mmp_test_error"].min()),
                  tree_range=float(summary["tree_test_error"].max() - summary["tree_test_error"].min()))


def describe_unpruned(trees: pd.DataFrame):
    """:func:`unpruned_trees` in words: the mean risk of both trees per degree.

    Parameters
    ----------
    trees : pandas.DataFrame
        :func:`unpruned_trees`' frame.

    Returns
    -------
    companion.prose.Markdown
    """
    means = trees.groupby(["degree", "tree"])["risk"].mean().unstack()
    wide = trees.pivot_table(index=["degree", "draw"], columns="tree", values="risk")
    changed = (wide["unpruned"] != wide["pruned"]).groupby(level="degree").agg(["sum", "count"])
    return render(PROSE["unpruned"], items=[f"d = {d}: {row['unpruned']:.1f} against {row['pruned']:.1f}"
                                             for d, row in means.iterrows()],
                  changed=[f"{int(row['sum'])} of {int(row['count'])} draws at d = {d}" for d, row in changed.iterrows()])
