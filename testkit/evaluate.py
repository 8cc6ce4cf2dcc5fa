"""Precision and recall of the checks on a pseudo-translation with planted defects."""

from __future__ import annotations

import copy
from dataclasses import dataclass

from pipeline.align.aligner import align_documents
from pipeline.model import BaseEdition
from pipeline.align.checks.registry import categories
from pipeline.align.termbase import load_termbase

from .pseudo import plant_defects, pseudo_translate

#: The categories a pseudo-translation can be scored on.  It renders the English word by word
#: ("dois jogador"), so its grammar is wrong by construction and nothing is planted for the
#: grammar check: that one is judged on a real translation (tests/test_grammar.py).
def pseudo_categories() -> list[str]:
    return [c for c in categories() if c != "grammar"]


@dataclass
class CategoryScore:
    """Rule-level scores of one check category.

    ``found`` counts rules flagged in this category, except *collateral* ones: rules that
    carry a planted defect of another category (a mojibake'd sentence is also inconsistent
    with its twin; a changed reference breaks a range into a bare count).  Those are
    neither true nor false positives and are reported apart."""

    category: str
    planted: int
    found: int
    true_positives: int
    collateral: int = 0

    @property
    def precision(self) -> float:
        return self.true_positives / self.found if self.found else 1.0

    @property
    def recall(self) -> float:
        return self.true_positives / self.planted if self.planted else 1.0

    def to_dict(self) -> dict:
        return {"category": self.category, "planted": self.planted, "found": self.found,
                "true_positives": self.true_positives, "collateral": self.collateral, "precision": round(self.precision, 3),
                "recall": round(self.recall, 3)}


def evaluate(en, lang: str = "pt", per_category: int = 24, seed: int = 7, cards=None, rules: int | None = None):
    """Pseudo-translate ``en`` (optionally only its first ``rules`` rules), plant defects,
    align, and score each check category at the rule level: a planted defect is found when
    its rule has a finding of its category; a finding is a true positive when its rule has
    a planted defect of that category."""
    tb = load_termbase()
    base = en
    if rules is not None:
        base = copy.copy(en)
        base.rules = en.rules[:rules]
        base._index = None
    ps = pseudo_translate(base, lang, tb, cards)
    planted = plant_defects(ps, base, tb, per_category=per_category, seed=seed, cards=cards)
    res = align_documents(ps.doc, base, base, map_number=lambda n: n, termbase=tb, cards=cards,
                          base_info=BaseEdition(base.meta.effective_date, "pseudo-translation"),
                          only=set(pseudo_categories()))
    truth = {(p.key, p.category) for p in planted}
    found = set()
    for row in res.rows:
        key = row.id if row.id is not None else f"missing:{row.base_id}"
        for i in row.issues:
            found.add((key, i.category))
    defective = {k for k, _ in truth}
    scores = []
    # The registry's families, in its order; each planted defect names one (Planted.__post_init__).
    for c in [c for c in categories() if any(k[1] == c for k in truth)]:
        t = {k for k in truth if k[1] == c}
        f = {k for k in found if k[1] == c}
        collateral = {k for k in f - t if k[0] in defective}
        f -= collateral
        scores.append(CategoryScore(c, len(t), len(f), len(t & f), len(collateral)))
    return scores, planted, res
