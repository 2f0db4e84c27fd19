"""wittgenstein's binary RIPPER fit and predict, reimplemented on arrays: the same rules, 5-10x faster.

RIPPER (Cohen 1995 [1]_) grows a rule on two thirds of the uncovered examples by FOIL's
information gain, prunes it on the other third, stops adding rules by description length, then
revises each rule twice (a replacement grown from nothing, a revision grown from the rule) and
keeps the version of least description length. :func:`fit_binary_ripper` makes exactly the choices
``wittgenstein.RIPPER(...).fit(frame, target, pos_class=1)`` (version 0.3.5) makes, on exactly the
same grow/prune splits, and leaves the learner it is given in the state that fit leaves it in:
the same ``ruleset_`` (rules, conditions and their order, the recalibrated class frequencies),
``bin_transformer_``, ``selected_features_``, ``trainset_features_``, ``class_feat``,
``pos_class`` and ``classes_`` (``tests/test_ripper_fast.py`` compares them on every table of
:data:`companion.datasets.RTABLES` and on random frames).

Why it is faster: wittgenstein keeps, per condition ``column = value``, the Python set of the rows
it covers, deep-copies whole rule sets while pruning, and scores one candidate condition at a time.
Here every row holds, per column, the index of the condition it satisfies (a rows x columns integer
matrix), so the positive and negative counts of every candidate condition on the rows a rule
covers are one ``np.bincount``, and the gains of all candidates are computed at once. The bins are
wittgenstein's own (``BinTransformer.fit``); the rows are put in them by ``pd.cut``'s own
``IntervalIndex.get_indexer``, without the cut and map of its ``transform``.
:func:`predict_binary_ripper` is wittgenstein's ``predict`` on the same arrays.

What makes the choices bit for bit wittgenstein's:

* Random draws. wittgenstein splits a set of row labels by ``random.seed(seed)`` and
  ``random.shuffle(list(the_set))``: the permutation depends only on the set's size (it is drawn
  again, reseeded, at every split, so one fit keeps it per size), but the list's order is the
  iteration order of the Python set, which depends on how the set was built. The sets of
  uncovered rows are therefore built here as there, by the same set differences of Python sets
  (only the rows a rule covers come from the arrays), and the global ``random`` state is left as
  wittgenstein leaves it.
* Float formulas. FOIL's gain ``p1 * (log2((p1+1)/(p1+n1+1)) - log2((p0+1)/(p0+n0+1)))`` is
  computed with ``math.log2`` in wittgenstein; numpy's ``log2`` may differ in its last bits. The
  sign of a gain is decided exactly (cross-multiplied counts); numpy's gains then only shortlist the
  candidates within a rounding bound (1e-9 relative, far above any log2's error) of the best, and
  those few are scored again by wittgenstein's own expression with ``math.log2``, the first of the
  best (in wittgenstein's order of conditions) winning as there. Description lengths and prune
  values are computed by wittgenstein's scalar expressions, in its order (``math.comb`` is its
  ``nCr``, the same integer).
* Ties and equality. Conditions are tried in wittgenstein's order (columns, then values in order
  of appearance); a later prune value wins ties (``>=``); rules are equal when wittgenstein's
  ``Rule.__eq__`` says so (same length, same set of ``str`` of conditions).

The settings it reproduces are OrderedRipper's: ``wittgenstein``'s defaults but ``random_state``
(and any ``k``, ``prune_size`` in (0, 1), ``dl_allowance``, ``n_discretize_bins``, ``alpha``), no
early-stopping limits (``max_rules``, ``max_rule_conds``, ``max_total_conds``,
``min_rule_samples``, ``min_ruleset_samples``), ``verbosity=0`` and a target whose index is
``0, ..., n-1``. Other settings are fitted by wittgenstein itself.

References
----------
.. [1] W. W. Cohen, "Fast effective rule induction", ICML 1995.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pandas as pd

__all__ = ["fit_binary_ripper", "predict_binary_ripper"]

#: The relative error bound below which a gain computed by numpy may differ from wittgenstein's
#: ``math.log2`` one: ``log2`` implementations differ by a few units in the last place (1e-16
#: relative), so 1e-9 leaves a margin of seven orders and only shortlists near ties.
_GAIN_RTOL = 1e-9


def fit_binary_ripper(model, frame, target, *, calibrate=True):
    """Fit ``model`` (an unfitted ``wittgenstein.RIPPER``) exactly as ``model.fit(frame, target, pos_class=1)``.

    Parameters
    ----------
    model : wittgenstein.RIPPER
        The learner to fit, with its hyperparameters (``random_state`` seeds the splits). It is
        left in the state wittgenstein's ``fit`` leaves it in.
    frame : DataFrame
        The training rows; numeric columns with more than ``n_discretize_bins`` distinct values are
        binned by wittgenstein's own ``BinTransformer``.
    target : Series of shape (n_rows,)
        1 for the positive class; its name is the class column's, its index ``0, ..., n-1``.
    calibrate : bool, default=True
        Whether the fit ends with wittgenstein's recalibration of its rules' class frequencies
        (``recalibrate_proba(..., min_samples=1)``), as ``wittgenstein.RIPPER.fit`` does; False
        leaves them out, as OrderedRipper's ``_UncalibratedRIPPER`` does.

    Returns
    -------
    model : wittgenstein.RIPPER
        ``model``, fitted.
    """
    if not _reproducible(model, target, len(frame)):
        model.fit(frame, target, pos_class=1)
        if not calibrate:  # wittgenstein's own fit calibrated: drop what it added
            for rule in model.ruleset_.rules:
                for name in ("class_ns_", "class_freqs_", "smoothed_class_freqs_"):
                    rule.__dict__.pop(name, None)
            for name in ("uncovered_class_ns_", "uncovered_class_freqs_", "smoothed_uncovered_class_freqs_"):
                model.ruleset_.__dict__.pop(name, None)
        return model
    from wittgenstein import utils
    from wittgenstein.base import Cond, Rule, Ruleset
    from wittgenstein.check import _warn

    df, model.class_feat, model.pos_class, model.bin_transformer_, binned = _training_frame(model, frame, target)
    search = _RipperSearch(df, model.class_feat, model.pos_class, model, binned)
    if search.n_pos == 0 or search.n_pos == search.n_rows:  # check._check_df_allpos_allneg's warnings
        kind = "positive" if search.n_pos == 0 else "negative"
        _warn(f"No {kind} samples. Existing target labels={df[model.class_feat].unique().tolist()}.",
              RuntimeWarning, filename="ripper", funcname="fit")
    rules = search.fit()
    ruleset = Ruleset([Rule([Cond(search.features[c], search.values[c]) for c in rule]) for rule in rules])
    model.ruleset_ = ruleset
    ruleset._check_allpos_allneg(warn=True, warnstack=[("ripper", "fit")])
    model.selected_features_ = ruleset.get_selected_features()
    model.trainset_features_ = df.drop(model.class_feat, axis=1).columns.tolist()
    kept = _first_occurrences(ruleset.rules)  # which rules remove_duplicates keeps, for their covers
    ruleset.rules = utils.remove_duplicates(ruleset.rules)
    ruleset.trim_conds(max_total_conds=model.max_total_conds)
    if calibrate:
        search.recalibrate(ruleset, [rules[i] for i in kept], model.alpha)
    model.classes_ = np.array([0, 1])
    return model


def predict_binary_ripper(model, frame) -> np.ndarray:
    """``np.asarray(model.predict(frame), dtype=bool)`` for a fitted ``wittgenstein.RIPPER``, on arrays.

    wittgenstein bins the frame (``pd.cut`` and a map per binned column), filters it rule by rule
    and condition by condition, and looks every row up in the set of covered row labels. Here a
    binned column's bins are ``pd.cut``'s own ``IntervalIndex.get_indexer``, any other condition
    is the same pandas ``column == value``, and a row is positive when every condition of one rule
    holds: the same rows. Frames that path does not take (no ``RangeIndex``, the class column
    present, a binned column that is not plain numbers, ...) are predicted by wittgenstein.

    Parameters
    ----------
    model : wittgenstein.RIPPER
        Fitted (or restored with its ``bin_transformer_``).
    frame : DataFrame
        Rows to predict; the model's features among its columns.

    Returns
    -------
    ndarray of bool, shape (n_rows,)
    """
    from wittgenstein.check import _check_is_model_fit, _check_model_features_present

    binner = getattr(model, "bin_transformer_", None)
    if (not isinstance(frame, pd.DataFrame) or len(frame) == 0 or binner is None
            or not frame.index.equals(pd.RangeIndex(len(frame))) or model.class_feat in frame.columns):
        return np.asarray(model.predict(frame), dtype=bool)
    _check_is_model_fit(model)
    _check_model_features_present(frame, model.selected_features_)
    ruleset = model.ruleset_
    # the rules' columns and every binned one (wittgenstein's transform checks them all)
    needed = {cond.feature for rule in ruleset.rules for cond in rule.conds} | set(binner.bins_ or ())
    df = frame[[column for column in frame.columns if column in needed]].infer_objects()
    bins = _bin_indices(binner, df) if binner else {}
    if bins is None:
        return np.asarray(model.predict(frame), dtype=bool)
    ruleset._check_allpos_allneg(warn=True, warnstack=[("base", "predict")])  # Ruleset.predict's warnings
    if ruleset.isuniversal():
        return np.ones(len(frame), dtype=bool)
    fires = np.zeros(len(frame), dtype=bool)
    for rule in ruleset.rules:
        covered = np.ones(len(frame), dtype=bool)
        for cond in rule.conds:
            if cond.feature in bins:  # the bin named cond.val
                indices, names = bins[cond.feature]
                covered &= indices == (names.index(cond.val) if cond.val in names else -2)
            else:
                equal = df[cond.feature] == cond.val
                if not isinstance(equal.dtype, np.dtype):  # a nullable mask: wittgenstein's own way
                    return np.asarray(model.predict(frame), dtype=bool)
                covered &= equal.to_numpy()
        fires |= covered
    return fires


def _reproducible(model, target, n_rows) -> bool:
    """Whether :func:`fit_binary_ripper` reproduces ``model``'s fit (else wittgenstein fits it)."""
    limits = ("max_rules", "min_rule_samples", "min_ruleset_samples", "max_rule_conds", "max_total_conds")
    return (
        all(getattr(model, name, None) is None for name in limits)
        and not model.verbosity
        and isinstance(model.prune_size, (int, float)) and 0 < model.prune_size < 1
        and isinstance(target, pd.Series) and len(target) == n_rows
        and target.index.equals(pd.RangeIndex(n_rows))
    )


def _training_frame(model, frame, target):
    """``preprocess.preprocess_training_data`` (wittgenstein's own steps and its own ``BinTransformer.fit``)
    but for the binning of the numeric columns, done here on arrays.

    Returns ``df`` (the binned columns still numbers), ``class_feat``, ``pos_class``, the fitted
    ``BinTransformer`` and ``{column: (bin index of each row or -1, bin names)}`` for the binned
    columns; ``{}`` when wittgenstein's own transform ran (a column its fast path does not take).
    """
    from wittgenstein import preprocess
    from wittgenstein.discretize import BinTransformer

    preprocess._check_valid_input_data(frame, target, None, user_requested_feature_names=None)
    class_feat = preprocess._get_class_feat_name(None, target)
    df = preprocess._convert_to_training_df(frame, target, class_feat, user_requested_feature_names=None)
    pos_class = preprocess._get_pos_class(df, class_feat, 1)
    df = df.infer_objects()
    binner = BinTransformer(n_discretize_bins=model.n_discretize_bins, verbosity=model.verbosity)
    binner.fit(df, ignore_feats=[class_feat])
    binned = _bin_indices(binner, df)
    if binned is None:  # BinTransformer.transform itself
        return binner.transform(df), class_feat, pos_class, binner, {}
    return df, class_feat, pos_class, binner, binned


def _bin_indices(binner, df):
    """Per binned column of ``df``, the index of the bin (among ``binner.bins_[column]``) each row
    falls in, -1 for none (a missing cell, a gap): what ``BinTransformer.transform`` computes,
    ``pd.cut(column, IntervalIndex(bins))`` being ``IntervalIndex(bins).get_indexer(column)``
    (pandas' ``cut``), then named. None where that transform would not take this path (a binned
    column that is not a plain numpy number column, bins by thresholds, overlapping bins)."""
    found = {}
    for column, names in (binner.bins_ or {}).items():
        if column not in df.columns:
            continue
        values = df[column]
        if (not isinstance(values.dtype, np.dtype) or values.dtype.kind not in "iuf"
                or column in (binner.thresholds_ or {})):
            return None
        intervals = pd.IntervalIndex(binner._strs_to_intervals(names, column))
        if intervals.is_overlapping:
            return None  # pd.cut refuses them: let wittgenstein's transform raise
        found[column] = (intervals.get_indexer(pd.Index(values.to_numpy())), names)
    return found


def _first_occurrences(rules) -> list[int]:
    """Positions of the rules ``wittgenstein.utils.remove_duplicates`` keeps (first of equal ones)."""
    seen, kept = set(), []
    for i, rule in enumerate(rules):  # by Rule's own hash and ==, as remove_duplicates
        if rule not in seen:
            seen.add(rule)
            kept.append(i)
    return kept


class _RipperSearch:
    """One fit's data and search state: the condition index of every cell, the rules' covers,
    and the split permutations per size (all of which live and die with the fit).

    A rule is a tuple of condition indices; condition ``c`` is ``features[c] = values[c]``, in
    wittgenstein's order (``CatNap.possible_conds``: columns in order, values in order of
    appearance, missing values included: they cover no row).
    """

    def __init__(self, df, class_feat, pos_class, model, binned=None):
        columns = [column for column in df.columns if column != class_feat]
        self.k, self.dl_allowance, self.seed = model.k, model.dl_allowance, model.random_state
        self.split_size = 1 - model.prune_size  # wittgenstein's argument, the same float
        self.features, self.values, offsets = [], [], []
        codes = np.empty((len(df), len(columns)), dtype=np.intp)
        for j, column in enumerate(columns):  # per column: which of its conditions each row meets
            if binned and column in binned:
                values, where = _binned_conditions(*binned[column])
            else:
                values, where = _column_conditions(df[column])
            offsets.append(len(self.values))
            codes[:, j] = np.where(where >= 0, len(self.values) + where, -1)
            self.features += [column] * len(values)
            self.values += values
        self.n_conds = len(self.values)
        codes[codes < 0] = self.n_conds  # no condition: a bin np.bincount drops
        self.codes = codes
        self.column_of = np.repeat(np.arange(len(columns)), np.diff([*offsets, self.n_conds]))
        self.n_rows = len(df)
        self.pos_labels = df[df[class_feat] == pos_class].index.tolist()  # pos_neg_split's rows
        self.neg_labels = df[df[class_feat] != pos_class].index.tolist()
        self.is_pos = np.zeros(self.n_rows, dtype=bool)
        self.is_pos[self.pos_labels] = True
        self.is_neg = np.zeros(self.n_rows, dtype=bool)
        self.is_neg[self.neg_labels] = True
        self.n_pos, self.n_neg = len(self.pos_labels), len(self.neg_labels)
        self._covers, self._texts, self._theory, self._permutations = {}, {}, {}, {}
        self._state_after = None  # the random state the last split left, when it was not redrawn

    # ---- the fit (ripper.RIPPER.fit with cn_optimize=True) ----------------------------------

    def fit(self) -> list[tuple]:
        """The rules of the fit, before wittgenstein's removal of duplicates."""
        pos_idx, neg_idx = set(self.pos_labels), set(self.neg_labels)
        rules = self._grow_ruleset(pos_idx, neg_idx, [], self.seed)
        for iteration in range(1, self.k + 1):
            seed = self.seed + 100 if self.seed is not None else None
            revised = self._optimize_ruleset(rules, pos_idx, neg_idx, seed)
            if iteration != self.k and self._same_ruleset(rules, revised):
                break
            rules = revised
        if self.n_pos >= 1:  # _cover_remaining_positives_cn: grown again from every positive
            rules = self._grow_ruleset(set(self.pos_labels), set(self.neg_labels), rules, self.seed)
        rules, _ = self._best_subset(rules)
        if self._state_after is not None:
            random.setstate(self._state_after)
        return rules

    def _grow_ruleset(self, pos_idx, neg_idx, initial, seed) -> list[tuple]:
        """``RIPPER._grow_ruleset_cn``: add pruned rules until the description length exceeds the
        smallest seen by more than ``dl_allowance`` bits or no positive is left uncovered."""
        rules = list(initial)
        pos_left, neg_left = pos_idx, neg_idx
        pos_mask, neg_mask = self.is_pos.copy(), self.is_neg.copy()  # pos_left, neg_left as masks
        ruleset_dl = mdl = None
        dl_diff = 0
        while len(pos_left) > 0 and dl_diff <= self.dl_allowance:
            pos_grow, pos_prune = self._split(pos_left, seed)
            neg_grow, neg_prune = self._split(neg_left, seed)
            if len(pos_grow) == 0:
                break
            grown = self._grow_rule(pos_grow, neg_grow, ())
            if not grown:
                break
            pruned = self._prune_grown(grown, pos_prune, neg_prune)
            rules.append(pruned)
            rule_dl = self._theory_bits(pruned)
            if ruleset_dl is None:
                theory_dl = rule_dl
                ruleset_dl = theory_dl + self._exceptions_bits(rules)
                mdl = ruleset_dl
            else:
                theory_dl += rule_dl
                ruleset_dl = theory_dl + self._exceptions_bits(rules)
                dl_diff = ruleset_dl - mdl
            mdl = ruleset_dl if ruleset_dl < mdl else mdl
            pos_left, pos_mask = self._uncovered(pruned, pos_left, pos_mask)
            neg_left, neg_mask = self._uncovered(pruned, neg_left, neg_mask)
        return rules

    def _optimize_ruleset(self, rules, pos_idx, neg_idx, seed) -> list[tuple]:
        """``RIPPER._optimize_ruleset_cn``: per rule, its replacement and its revision, pruned on
        accuracy; the version whose rule set has the least description length stays."""
        pos_left, neg_left = pos_idx, neg_idx
        pos_mask, neg_mask = self.is_pos.copy(), self.is_neg.copy()
        _, original_dl = self._best_subset(rules)
        revised = list(rules)
        for i, rule in enumerate(rules):
            pos_grow, pos_prune = self._split(pos_left, seed)
            neg_grow, neg_prune = self._split(neg_left, seed)
            if len(pos_grow) == 0:
                break
            replacement = self._prune_on_accuracy(self._grow_rule(pos_grow, neg_grow, ()), pos_prune, neg_prune)
            revision = self._prune_on_accuracy(self._grow_rule(pos_grow, neg_grow, rule), pos_prune, neg_prune)
            replacement_dl = (self._total_bits([*rules[:i], replacement, *rules[i + 1:]])
                              if not self._same_rule(replacement, rule) else original_dl)
            revision_dl = (self._total_bits([*rules[:i], revision, *rules[i + 1:]])
                           if not self._same_rule(revision, rule) else original_dl)
            dls = [original_dl, replacement_dl, revision_dl]
            best = [rule, replacement, revision][_argmin(dls)]
            if not any(self._same_rule(other, best) for other in revised):
                revised[i] = best
            else:
                revised[i] = rule
            pos_left, pos_mask = self._uncovered(rule, pos_left, pos_mask)
            neg_left, neg_mask = self._uncovered(rule, neg_left, neg_mask)
            if len(pos_left) == 0:
                break
        return revised

    # ---- one rule -----------------------------------------------------------------------------

    def _grow_rule(self, pos, neg, rule) -> tuple:
        """``grow_rule_cn``: add the condition of largest positive FOIL gain on the grow rows
        (``pos``, ``neg``: row positions) until the rule covers no negative row or none gains."""
        rule = tuple(rule)
        pos, neg = self._covered_rows(rule, pos), self._covered_rows(rule, neg)
        while len(neg) > 0:
            condition = self._best_condition(pos, neg)
            if condition is None:
                break
            rule += (condition,)
            column = self.column_of[condition]
            pos = pos[self.codes[pos, column] == condition]
            neg = neg[self.codes[neg, column] == condition]
        return rule

    def _best_condition(self, pos, neg):
        """``best_rule_successor_cn``: the first condition of largest FOIL gain if that gain is
        positive, else None. Every candidate at once; the few within rounding of the best are
        scored by wittgenstein's expression (``gain_cn``, ``math.log2``)."""
        p0, n0 = len(pos), len(neg)
        p1 = np.bincount(self.codes[pos].ravel(), minlength=self.n_conds + 1)[: self.n_conds]
        n1 = np.bincount(self.codes[neg].ravel(), minlength=self.n_conds + 1)[: self.n_conds]
        # gain > 0 exactly when p1 > 0 and (p1+1)/(p1+n1+1) > (p0+1)/(p0+n0+1): decided on integers
        positive = (p1 > 0) & ((p1 + 1) * (p0 + n0 + 1) > (p0 + 1) * (p1 + n1 + 1))
        if not positive.any():
            return None
        candidates = np.flatnonzero(positive)
        p1, n1 = p1[candidates], n1[candidates]
        base = math.log2((p0 + 1) / (p0 + n0 + 1))
        logs = np.log2((p1 + 1) / (p1 + n1 + 1))
        gains = p1 * (logs - base)
        bound = _GAIN_RTOL * float(np.max(p1 * (np.abs(logs) + abs(base))))
        near = np.flatnonzero(gains >= gains.max() - 2 * bound)
        if near.size == 1:  # nothing else within rounding: numpy's best is wittgenstein's
            return int(candidates[near[0]])
        # A few near ties: wittgenstein's expression on each distinct (p1, n1), the first best wins.
        pairs, inverse = np.unique(p1[near] * (p0 + n0 + 2) + n1[near], return_inverse=True)
        exact = np.array([_foil_gain(int(pair) // (p0 + n0 + 2), int(pair) % (p0 + n0 + 2), p0, n0)
                          for pair in pairs])[inverse]
        return int(candidates[near[np.flatnonzero(exact == exact.max())[0]]])

    def _prune_grown(self, rule, pos, neg) -> tuple:
        """``prune_rule_cn`` with the grow phase's metric ``(p - n + 1)/(p + n + 1)`` on the prune
        rows: the shortest prefix of largest value (a later, shorter one wins ties), kept only if
        that value is at least 0."""
        p, n = self._prefix_counts(rule, pos), self._prefix_counts(rule, neg)
        best, best_v = len(rule), 0
        for length in range(len(rule), 0, -1):
            v = (p[length - 1] - n[length - 1] + 1) / (p[length - 1] + n[length - 1] + 1)
            if v >= best_v:
                best, best_v = length, v
        return rule[:best]

    def _prune_on_accuracy(self, rule, pos, neg) -> tuple:
        """``prune_rule_cn`` with the optimisation's metric (the rule's accuracy on the prune rows,
        ``_rule_accuracy_cn``); an empty rule is returned as it is."""
        if not rule:
            return rule
        total, n_neg = len(pos) + len(neg), len(neg)
        p, n = self._prefix_counts(rule, pos), self._prefix_counts(rule, neg)
        best, best_v = None, 0
        for length in range(len(rule), 0, -1):
            v = (p[length - 1] + (n_neg - n[length - 1])) / total
            if v >= best_v:
                best, best_v = length, v
        return rule[:best]

    def _prefix_counts(self, rule, rows) -> list[int]:
        """How many of ``rows`` each prefix of ``rule`` (1, 2, ... conditions) covers."""
        counts = []
        for condition in rule:
            rows = rows[self.codes[rows, self.column_of[condition]] == condition]
            counts.append(len(rows))
        return counts

    def _covered_rows(self, rule, rows):
        for condition in rule:
            rows = rows[self.codes[rows, self.column_of[condition]] == condition]
        return rows

    def _cover(self, rule):
        """The rows (mask) a rule covers; every row for the empty rule."""
        if rule not in self._covers:
            mask = np.ones(self.n_rows, dtype=bool)
            for condition in rule:
                mask &= self.codes[:, self.column_of[condition]] == condition
            self._covers[rule] = mask
        return self._covers[rule]

    # ---- description lengths -----------------------------------------------------------------

    def _theory_bits(self, rule):
        """``_r_theory_bits``: bits of a rule of ``len(rule)`` of the ``n_conds`` conditions."""
        key = len(rule)
        if key not in self._theory:
            k = max(key, 1)  # wittgenstein's expression, in its order
            n = self.n_conds
            pr = k / n
            S = k * math.log2(1 / pr) + (n - k) * math.log2((1 / (1 - pr)))
            K = math.log2(k)
            rule_dl = 0.5 * (K + S)
            self._theory[key] = max(rule_dl, 1)
        return self._theory[key]

    def _exceptions_bits(self, rules, cover=None):
        """``_exceptions_bits_cn`` over every training row: ``log2 C(p, fp) + log2 C(N - p, fn)``.
        ``cover``: the rows the rules cover, when the caller has it."""
        if any(len(rule) == 0 for rule in rules):  # a universal rule set: CatNap.ruleset_covers
            pos_covered = self.n_pos if self.n_pos else self.n_rows
            neg_covered = self.n_neg if self.n_neg else self.n_rows
        elif not rules:
            pos_covered = neg_covered = 0
        else:
            if cover is None:
                cover = np.logical_or.reduce([self._cover(rule) for rule in rules])
            pos_covered = int(np.count_nonzero(cover & self.is_pos))
            neg_covered = int(np.count_nonzero(cover & self.is_neg))
        N = self.n_pos + self.n_neg
        p = pos_covered + neg_covered
        fp = neg_covered
        fn = self.n_pos - pos_covered
        return math.log2(_n_choose_r(p, fp)) + math.log2(_n_choose_r((N - p), fn))

    def _total_bits(self, rules):
        """``_rs_total_bits_cn`` (``bestsubset_dl=False``): theory bits summed in rule order, plus
        the exceptions."""
        theory = 0
        for rule in rules:
            theory += self._theory_bits(rule)
        return theory + self._exceptions_bits(rules)

    def _best_subset(self, rules):
        """``_rs_total_bits_cn(..., bestsubset_dl=True, ret_bestsubset=True)``: the rules that do
        not lengthen the description of the rules before them, and that subset's bits."""
        subset_dls = []
        theory_dl = 0
        cover = np.zeros(self.n_rows, dtype=bool)
        for i, rule in enumerate(rules):
            theory_dl += self._theory_bits(rule)
            cover |= self._cover(rule)
            subset_dls.append(theory_dl + self._exceptions_bits(rules[: i + 1], cover))
        kept = [rule for i, rule in enumerate(rules) if i == 0 or subset_dls[i] <= subset_dls[i - 1]]
        return kept, self._total_bits(kept)

    # ---- rows left, splits, equality --------------------------------------------------------

    def _uncovered(self, rule, left: set, mask):
        """``rm_rule_covers_cn``: the Python set ``left`` minus the rows of it the rule covers (a
        set difference as wittgenstein's, so the result iterates in the same order), and its mask."""
        covered = mask & self._cover(rule)
        return left - set(np.flatnonzero(covered).tolist()), mask & ~covered

    def _split(self, rows: set, seed):
        """``random_split``: ``list(rows)`` shuffled by ``random.seed(seed); random.shuffle``,
        cut at ``int(n * split_size)``; grow and prune row positions."""
        order = np.fromiter(rows, dtype=np.intp, count=len(rows))
        shuffled = order[self._permutation(len(order), seed)]
        at = int(len(order) * self.split_size)
        return shuffled[:at], shuffled[at:]

    def _permutation(self, n, seed):
        """The positions ``random.shuffle`` puts a list of ``n`` items in after ``random.seed(seed)``
        (its draws depend only on ``n``): drawn once per size for a fixed seed, the global
        ``random`` state then set to what the last draw left."""
        if seed is None:  # fresh entropy at every split, as wittgenstein
            random.seed(seed)
            order = list(range(n))
            random.shuffle(order)
            self._state_after = None
            return np.array(order, dtype=np.intp)
        if (seed, n) not in self._permutations:
            random.seed(seed)
            order = list(range(n))
            random.shuffle(order)
            self._permutations[seed, n] = (np.array(order, dtype=np.intp), random.getstate())
        permutation, self._state_after = self._permutations[seed, n]
        return permutation

    def _text(self, condition):
        if condition not in self._texts:
            self._texts[condition] = f"{self.features[condition]}={self.values[condition]}"  # str(Cond)
        return self._texts[condition]

    def _same_rule(self, a, b) -> bool:
        """``Rule.__eq__``: as many conditions, and the same set of their texts."""
        return len(a) == len(b) and {self._text(c) for c in a} == {self._text(c) for c in b}

    def _same_ruleset(self, a, b) -> bool:
        """``Ruleset.__eq__``: every rule of each is (by ``Rule.__eq__``) in the other."""
        return (all(any(self._same_rule(r, s) for s in b) for r in a)
                and all(any(self._same_rule(s, r) for r in a) for s in b))

    # ---- the class frequencies of the rules ------------------------------------------------

    def recalibrate(self, ruleset, rules, alpha):
        """``base_functions.recalibrate_proba(ruleset, df, ..., min_samples=1)`` on the training
        rows: each rule's (negative, positive) counts among the rows it covers, and the uncovered
        rows' (negative, positive) counts, with their rates and additively smoothed rates."""
        from wittgenstein.base_functions import additive_smoothed_rates

        covered_any = np.zeros(self.n_rows, dtype=bool)
        for rule_object, rule in zip(ruleset.rules, rules):
            cover = self._cover(rule)
            covered_any |= cover
            num_pos_pred = int(np.count_nonzero(cover))
            tp = int(np.count_nonzero(cover & self.is_pos))
            fp = num_pos_pred - tp
            tpr = tp / num_pos_pred if num_pos_pred else 0
            fpr = fp / num_pos_pred if num_pos_pred else 0
            rule_object.class_ns_ = (fp, tp)
            rule_object.class_freqs_ = (fpr, tpr)
            rule_object.smoothed_class_freqs_ = additive_smoothed_rates((fp, tp), alpha=alpha)
        if ruleset.isuniversal():
            covered_any[:] = True
        uncovered = ~covered_any
        num_neg_pred = int(np.count_nonzero(uncovered))
        tn = int(np.count_nonzero(uncovered & self.is_neg))
        fn = num_neg_pred - tn
        tnr = tn / num_neg_pred if num_neg_pred else 0
        fnr = fn / num_neg_pred if num_neg_pred else 0
        ruleset.uncovered_class_ns_ = (tn, fn)
        ruleset.uncovered_class_freqs_ = (tnr, fnr)
        ruleset.smoothed_uncovered_class_freqs_ = additive_smoothed_rates((tn, fn), alpha=alpha)


def _column_conditions(column):
    """CatNap's conditions on a column (``column.unique()``, in its order) and, per row, the one
    it meets (-1: none). ``Cond.covers`` is ``df[column] == value``: pandas' equality, which its
    hash tables (``unique``, ``get_indexer``) share; a missing value equals nothing."""
    values = list(column.unique())
    missing = pd.Series(values, dtype=object).isna().to_numpy()
    present = np.flatnonzero(~missing)
    if present.size == 0:  # every value missing: no row meets a condition
        return values, np.full(len(column), -1, dtype=np.intp)
    where = pd.Index([values[i] for i in present], dtype=object).get_indexer(column.astype(object))
    return values, np.where(where >= 0, present[np.maximum(where, 0)], -1)


def _binned_conditions(bins, names):
    """The conditions on a binned column, as ``column.unique()`` lists them after wittgenstein's
    transform (bin names in order of first appearance, NaN for rows in no bin), and the one each
    row meets (-1: none)."""
    codes, first = np.unique(bins, return_index=True)
    order = codes[np.argsort(first)]  # the bins (and -1) in order of appearance
    values = [names[code] if code >= 0 else np.nan for code in order.tolist()]
    position = np.empty(len(names) + 1, dtype=np.intp)
    position[order] = np.arange(len(order))  # position[-1]: the slot of "no bin"
    where = position[bins]
    return values, np.where(bins >= 0, where, -1)


def _argmin(values) -> int:
    """``base_functions.argmin``: the first smallest."""
    lowest, index = values[0], 0
    for i, value in enumerate(values):
        if value < lowest:
            lowest, index = value, i
    return index


def _foil_gain(p1: int, n1: int, p0: int, n0: int) -> float:
    """``gain_cn``'s expression, verbatim (``math.log2`` on Python numbers)."""
    return p1 * (math.log2((p1 + 1) / (p1 + n1 + 1)) - math.log2((p0 + 1) / (p0 + n0 + 1)))


def _n_choose_r(n: int, r: int) -> int:
    """``base_functions.nCr``: ``math.comb`` (the same integer) where it is defined."""
    if n >= 0 and r >= 0:
        return math.comb(n, r)
    from wittgenstein.base_functions import nCr

    return nCr(n, r)
