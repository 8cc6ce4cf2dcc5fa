"""Seed 001: a Spanish web-viewer rule card with unnumbered subrules (acceptance item 2)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from pipeline.ingest.loader import load_document
from pipeline.rulenum import LETTERS
from pipeline.segment.webcard import segment_card


@pytest.fixture(scope="module")
def seed1():
    from tests.conftest import CORPUS

    return load_document(sorted((CORPUS / "seeds").glob("001_*.txt"))[0])


def test_seed1_rule_examples_and_inferred_subrules(seed1):
    assert seed1.meta.language == "es"
    assert seed1.meta.format == "webcard"
    assert seed1.rule_ids == ["614.12", "614.12a", "614.12b", "614.12c"]
    r = seed1.rule("614.12")
    assert r.text.startswith("Algunos efectos de reemplazo modifican")
    assert not r.inferred_number
    assert [e.text[:22] for e in r.examples] == ["Ejemplo: Voice of All ", "Ejemplo: Yixlid Jailer", "Ejemplo: Orb of Dreams"]
    assert r.children == ["614.12a", "614.12b", "614.12c"]
    subs = [seed1.rule(x) for x in r.children]
    assert all(s.inferred_number and s.parent == "614.12" for s in subs)
    assert subs[0].text.startswith("Si un efecto de reemplazo que modifica")
    assert subs[2].text.endswith("Véase la regla 607, «Habilidades vinculadas».")
    assert seed1.meta.title == "Efectos de reemplazo"
    d = seed1.to_dict()
    assert [x["inferred_number"] for x in d["rules"]] == [False, True, True, True]


def test_language_detected_without_hint(seed1):
    lang = [f for f in seed1.findings if f.kind == "language"]
    assert lang and lang[0].detail.startswith("language es")


def test_english_and_portuguese_cards_and_numbered_subrule():
    en = segment_card("Rule 702.78 · Persist\nSubrules\nPersist is a triggered ability.\n702.78b Second.\nThird one.", "en")
    assert en.rule_ids == ["702.78", "702.78a", "702.78b", "702.78c"]
    assert [r.inferred_number for r in en.rules] == [False, True, False, True]
    pt = segment_card("Regra 616.1 · Interação\nTexto.\nSub-regras\nPrimeira.\nExemplo: um exemplo.\nSegunda.", "pt")
    assert pt.rule_ids == ["616.1", "616.1a", "616.1b"]
    assert pt.rule("616.1a").examples[0].text == "Exemplo: um exemplo."


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 23))
def test_property_letters_skip_l_and_o(n):
    lines = "\n".join(f"Subrule text number {i}." for i in range(n))
    doc = segment_card(f"Rule 704.5 · State-based actions\nText.\nSubrules\n{lines}", "en")
    letters = [r.number.letter for r in doc.rules[1:]]
    assert letters == list(LETTERS[:n])
    assert "l" not in letters and "o" not in letters
