"""Fast variant of benchmarks/bench_align_defects.py: planted defects are found, nothing else is."""

from __future__ import annotations

import pytest

from conftest import SHARED, needs_shared

TARGETS = {"structure": 0.95, "references": 0.95, "anchors": 0.95, "cardnames": 0.95,
           "terminology": 0.85, "damage": 0.85}


@pytest.fixture(scope="module")
def cards():
    from pipeline.align.run import load_cards

    return load_cards(sorted((SHARED / "corpus" / "rulings" / "mtgjson3").glob("*.json")))


@needs_shared
def test_clean_pseudo_translation_draws_no_finding(cr_2025, cards):
    from pipeline.align.aligner import align_documents
    from testkit.evaluate import pseudo_categories
    from testkit.pseudo import pseudo_translate
    from pipeline.align.termbase import load_termbase

    tb = load_termbase()
    ps = pseudo_translate(cr_2025, "pt", tb, cards)
    assert len(ps.doc.rules) == len(cr_2025.rules) and ps.card_rules  # names rendered "Localized (English)"
    # Not the grammar check: word-by-word Portuguese is ungrammatical by construction.  The
    # omission check's lexicon is learnt per English stem, while the cipher gives each inflection
    # its own unrelated word ("substituted" and "substitution" share nothing): one of its run
    # findings on the clean text (705.1) is that artefact, so it is held to precision on the
    # planted defects below and on the real PO, not to silence here.  The same holds for the
    # single dropped meaning words (omission.dropped-word, info): "front" and its cipher are
    # learnt apart from "frontal"'s.
    res = align_documents(ps.doc, cr_2025, cr_2025, map_number=lambda n: n, termbase=tb, cards=cards,
                          only=set(pseudo_categories()))
    # The same holds for the checks that read what Portuguese words *mean* (issue 24, round 4):
    # the phrase facts (a modal "pode", "antes"/"depois", "no longer"), the counted modifiers
    # and the comma splice read real words the cipher emits for unrelated English ones
    # ("will" -> a modal, a capitalised "Instead" kept as a name), so like grammar they are
    # judged on the real PO and the recall draws, not held to silence on the cipher.
    learnt = ("omission.dropped", "omission.dropped-word", "omission.dropped-modifier",
              "omission.dropped-phrase", "omission.added-modal", "meaning.flipped", "form.comma-splice")
    assert [(i.rule, i.check, i.message) for i in res.issues if i.check not in learnt] == []
    assert len([i for i in res.issues if i.check == "omission.dropped"]) <= 1
    assert len([i for i in res.issues if i.check == "omission.dropped-word"]) <= 3
    # The score over what the cipher can be held to: the one artefact above at most.
    from pipeline.align.aligner import score_of

    held = [i for i in res.issues if i.check not in learnt[2:]]
    assert score_of(ps.doc, held).per_thousand_words < 0.05


@needs_shared
@pytest.mark.parametrize("lang,seed", [("pt", 3), ("es", 5)])
def test_planted_defects_precision_recall(cr_2025, cards, lang, seed):
    from testkit.evaluate import evaluate

    scores, planted, _ = evaluate(cr_2025, lang, per_category=10, seed=seed, cards=cards)
    by = {s.category: s for s in scores}
    assert {p.category for p in planted} == set(by)  # every category got defects
    for cat, target in TARGETS.items():
        s = by[cat]
        assert s.planted >= 8, (cat, s)
        assert s.recall >= target and s.precision >= target, s.to_dict()
    assert by["consistency"].recall >= 0.85
