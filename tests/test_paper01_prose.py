"""Notebook 01's generated prose: the numbers it quotes come from the tables it is given."""

from __future__ import annotations

import numpy as np
import pandas as pd

from companion.experiments import paper01
from companion.experiments import paper01_followups as followups


def test_fine_grid_markdown_reads_the_grid_and_table1():
    text = followups.fine_grid_markdown().data
    paper = paper01.paper_table1()
    missing = sorted((set(paper["dlm_p_p"]) | set(paper["dlm_p_n"])) - set(paper01.Grid().dlm_penalties))
    assert ", ".join(f"{v:g}" for v in missing) in text
    assert f"{len(followups.FINE_PENALTIES)} values of $p_p$" in text and "every penalty" in text
    assert "$s \\le 15$" in text and "$s \\le 12$" in text
    small = followups.fine_grid(penalties=(1.0, 2.1), s_max=4, scm_penalties=(1.4,), scm_s_max=3)
    text = followups.fine_grid_markdown(small).data
    n_paper = len(set(paper["dlm_p_p"]) | set(paper["dlm_p_n"]))
    assert f"2 of the {n_paper} penalty" in text and "$s \\le 4$" in text and "$s \\le 3$" in text


def _tables():
    names = [paper01.DISPLAY[n] for n in paper01.COMPARABLE]
    rows = []
    for k, name in enumerate(names):
        for machine, difference in (("SVM", -20 - k if k < 2 else 0), ("SCM", 0), ("DLM", 3 if k % 2 else -1)):
            rows.append({"dataset": name, "machine": machine, "difference": difference})
    errors_a = pd.DataFrame(rows).set_index(["dataset", "machine"])
    parameters = pd.DataFrame({"paper_dlm": ["c p_n=1 p_p=2 s=2"] * 6,
                               "ours_dlm": ["c p_n=1 p_p=2 s=2"] + ["s p_n=1 p_p=1 s=3"] * 5}, index=names)
    fine_dlm = pd.DataFrame({"difference": np.linspace(-2.0, 4.0, 6), "fine_first_seed": ["c p_n=1 p_p=1 s=2"] * 6},
                            index=names)
    fine_scm = pd.DataFrame({"paper": [10, 50, 10, 10, 10, 10], "coarse_min": [8] * 6, "coarse_max": [12] * 6,
                             "fine_min": [9] * 6, "fine_max": [11] * 6,
                             "paper_in_fine_range": [True, False, True, False, True, True]}, index=names)
    tie_rules = pd.DataFrame({"dataset": np.repeat(names, 2), "rule": ["larger_cover", "fewest_errors"] * 6,
                              "mean": [10, 9, 10, 11] + [10, 10] * 4}).set_index(["dataset", "rule"])
    lengths = pd.DataFrame({"dataset": names, "variant": "Figure 1", "paper_s": [4] * 6,
                            "mean_length": [4.0, 2.5, 4.0, 4.0, 4.0, 4.0]}).set_index(["dataset", "variant"])
    svm = pd.DataFrame({"paper": [50] * 6, "near_errors": [60, 60, 60, 40, 40, 40], "absolute": [31, 32, 0, 0, 0, 0],
                        "relative": [30, 29, 0, 0, 0, 0]}, index=names)
    return errors_a, parameters, fine_dlm, fine_scm, tie_rules, lengths, svm


def test_reproduction_markdown_states_what_the_tables_hold():
    text = followups.reproduction_markdown(*_tables()).data
    assert "above the paper's on 3 of 6 data sets (Pima, Bupa and Credit)" in text
    assert "within 0.4–4.0 errors" in text
    assert "lower on BreastW, higher on Pima" in text
    assert "on 1 data sets: Pima (2.5 of 4)" in text
    assert "selects the paper's machine on BreastW (c p_n=1 p_p=2 s=2" in text
    assert "within our fine-grid fold-seed range on BreastW, Haberman, Glass and Credit" in text
    assert "on Pima (paper 50, ours 8–12)" in text
    assert "20–21 fewer errors than the paper's on BreastW and Pima" in text
    assert "gives 31, 32 errors there (relative widths: 30, 29)" in text
    assert "errs more than the paper on 3 of 6" in text
