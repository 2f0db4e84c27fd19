"""The templates of notebook 03's generated sentences (:func:`companion.prose.render`), shared by
its protocol and its claims.
"""

from __future__ import annotations



#: The templates of the generated sentences of notebook 03 (:func:`companion.prose.render`).
TEMPLATES = {
    "j48_missing": ("J48 (Weka) was not run on these draws ({reason}): its claims are not evaluated for this "
                    "seed. To run it: `{command}`."),
    "j48_found": "J48 (Weka 3.6.14) on all {n:plural draw} of seed {seed}, hashes verified.",
    "z_values": ("{word}: {items:list} (z = (our mean − paper) / our sd, as in Table 1; agreement: |z| ≤ "
                 "{limit:g}); the four values alone test little: |z| ≤ {limit:g} accepts {ranges:list} (the "
                 "within-draw ratios, bounds-ratios, are the sharper comparison)"),
    "z_ratios": ("{word}. Column 1 at d = {degree}: {items:list} (mean ± sd over draws; z = (our mean − paper) / "
                 "our sd). Read at both thresholds (|z| ≤ {limit:g}, and {strict:.2f}, the 5 % two-sided limit "
                 "corrected for four z at once) and both candidate degrees of column 1: {readings:list}"),
    "bayes_rates": ("exact Bayes error {exact:pct.2}; {items:list} (z = (exact − paper) / binomial sd, as in "
                    "Table 1's Bayes rows; agreement: |z| ≤ {limit:g})"),
}
