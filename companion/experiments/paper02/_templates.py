"""The templates of notebook 02's generated sentences (:func:`companion.prose.render`), shared by
its protocol, checks and discussion.
"""

from __future__ import annotations



#: The templates of the generated sentences of notebook 02 (:func:`companion.prose.render`).
TEMPLATES = {
    "covering": "{n:plural class|classes}: the rules of each cover its instances ({sizes:list}) and no other",
    "first_test": ("the first test, `{test}`, covers {t} instances, {p} of them `hard` (the slides: {paper_p} out of "
                   "{paper_t}; which test it is, the slides' text does not say)"),
    "refine": ("after its second test, `{test}`, the rule covers {t2} instances, {p2} of them `hard`: not exact; of "
               "the {n} candidate second tests (p/t {pts:list}), exact: {exact:list}"),
    "refine_third": "; the loop goes on: the trace has a third step ({n:plural candidate test}) and the rule a third test",
    "refine_stopped": "; the loop stops: the trace has no third step after the non-exact second one",
    "exact_after_third": ("after {n:plural test}, the last `{test}`, the rule covers {t} instances, {p} of them `hard` "
                          "(the restoration of the lost slide 14: `{restored}`, {restored_p}/{restored_t})"),
    "trace": "{k} of {n} p and t values of the restored tables equal",
    "trace_coverage": ("; the restoration lists {k} of the trace's {n} candidate tests ({steps:list}): the other "
                       "candidates are not compared"),
    "tree_to_rules": ("the tree (seed {seed}) converts, one pass over its leaves' paths, into {rules:plural rule} "
                      "({x} for x) holding {tests:plural test}"),
    "ties": ("{steps:plural step} of {rules:plural rule}: the selected test always has the largest p/t; "
             "{ties:plural tie} on p/t went to the larger p"),
    "separate": "{k} of {n} rules grown on exactly the instances their class's earlier rules left",
    "disjunction": "PRISM's rules for x: {rules:list}",
    "modular": "{n:plural random rule order}, {k} change a training prediction",
    "modular_condition": ("; the reading rests on every rule being perfect on its E: on the contact lenses {perfect} "
                          "of {n} rules are, while {copy} of {n_copy} rules on `no-more-attributes`' contradicting "
                          "copy and {market} of {n_market} on `supermarket` are not (their attributes ran out)"),
    "folds": "{k} of {n:plural committed split} identical, row by row ({names})",
    "weka_prism": "{k} of {n} folds equal on {splits:plural split} ({names}; correct, incorrect, unclassified)",
    "conflicts": ("unseen instances covered by rules of several classes on {k} of the {n} data sets that have unseen "
                  "instances ({names:list}: data sets of ours, not the slides'){without}"),
    "conflicts_without": "; {names:list} {verb} no unseen instance",
    "supermarket": ("{ours} rules, Weka {weka}: the count, under {encoding} (the lists rule by rule: "
                    "`supermarket-rules`; the speed is not checked here)"),
    "supermarket_rules": ("{k} of our {n:plural rule} equal Weka's stored list's ({n_weka}) at the same place, test "
                          "for test, under {encoding}; first difference: {first}"),
    "paired_folds": ("mean fold difference {mean:signed.1} points over {folds} folds of {repeats:plural repeated "
                     "10-fold cross-validation}, each fold weighted equally (Nadeau–Bengio corrected 95 % CI "
                     "[{low:signed.1}, {high:signed.1}], which {covers} 0; test/train {test:.1f}/{train:.1f}: the repeats reuse the "
                     "same 24 instances); per repeat, over its 24 instances (so folds of 2 and 3 weigh as their "
                     "sizes), mean accuracy {mean_a:.1f} % against {mean_b:.1f} %, head to head "
                     "{wins}/{ties}/{losses} (wins/ties/losses)"),
    "default_never_worse": ("over all instances (an unclassified one counted wrong), PRISM + default class is right "
                            "on at least as many instances as PRISM on {k} of {n} folds ({splits:plural split}), as "
                            "it must be; two different accuracies, over two sets of instances: on Weka's folds PRISM "
                            "is right on {correct} of the {classified} instances it classifies ({share:pct.1}), "
                            "PRISM + default class on {d_correct} of all {total} ({d_share:pct.1})"),
    "floor": ("; no fold difference can be negative (`default-never-worse`), and the t-interval ignores that "
              "floor at 0: the direction (≥ 0) holds by construction, the interval speaks only to the size, and "
              "the per-repeat head to head is the strict gain seen on these data"),
    "variant_line": "`{name}` {mean:signed.1} points [{low:signed.1}, {high:signed.1}], head to head {wtl}",
    "variants": ("{lines:list}; the sign of the mean difference {flip}; the corrected interval {support}"),
    "support_split": "excludes 0 under {excludes:list} and includes it under {includes:list}",
    "support_all": "{word} 0 under all {n} (the main run and its variants)",
    "peers_missing": ("Weka's peers were not run for the splits {missing:list}: the claims that read them are "
                      "not evaluated for this seed. To run them: `{command}`."),
    "peers_found": "Weka 3.6.14 (Prism, J48, JRip) on all {n:plural split} of this run, folds verified.",
}
