"""The templates of notebook 02's generated sentences (:func:`companion.prose.render`), shared by
its protocol, checks and discussion.
"""

from __future__ import annotations



#: The templates of the generated sentences of notebook 02 (:func:`companion.prose.render`).
TEMPLATES = {
    "covering": "{n:plural class|classes}: the rules of each cover its instances ({sizes:list}) and no other",
    "first_test": "`{test}` covers {p}/{t} on step 1 (the slides: {paper_p} out of {paper_t})",
    "refine": "after two tests {p2}/{t2}, after `{test}` {p3}/{t3}",
    "ties": ("{steps:plural step} of {rules:plural rule}: the selected test always has the largest p/t; "
             "{ties:plural tie} on p/t went to the larger p"),
    "separate": "{k} of {n} rules grown on exactly the instances their class's earlier rules left",
    "disjunction": "PRISM's rules for x: {rules:list}",
    "modular": "{n:plural random rule order}, {k} change a training prediction",
    "folds": "{k} of {n} committed splits identical, row by row",
    "weka_prism": "{k} of {n} folds equal on {splits:plural split} (correct, incorrect, unclassified)",
    "peers_missing": ("Weka's peers were not run for the splits {missing:list}: the claims that read them are "
                      "not evaluated for this seed. To run them: `{command}`."),
    "peers_found": "Weka 3.6.14 (Prism, J48, JRip) on all {n:plural split} of this run, folds verified.",
}
