"""Seed 000: Portuguese rules pasted from a PDF (acceptance item 1), and the paste
segmenter's behaviour on small hand-made texts."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from pipeline.ingest.loader import load_document
from pipeline.segment.paste import segment_text

SEED0_RULES = ["616.1", "107.3b", "202.3e", "601.2b", "706.2", "702.78", "702.78a", "117.9d"]
SEED0_REFS = ["101.4", "601", "700.2", "702.46", "117.8", "117.9", "601.2f", "107.3"]


@pytest.fixture(scope="module")
def seed0(request):
    from tests.conftest import CORPUS

    path = sorted((CORPUS / "seeds").glob("000_*.txt"))[0]
    return load_document(path)


def test_seed0_exactly_the_eight_rules(seed0):
    assert seed0.rule_ids == SEED0_RULES
    assert seed0.meta.language == "pt"
    assert seed0.meta.format == "paste"
    for ref in SEED0_REFS:
        if ref not in SEED0_RULES:
            assert seed0.rule(ref) is None, f"inline reference {ref} taken for a rule"


def test_seed0_each_rule_has_its_own_text(seed0):
    r = {x.id: x for x in seed0.rules}
    assert r["616.1"].text.startswith("Se dois ou mais efeitos de substituição")
    assert r["616.1"].text.endswith("(consulte a regra 101.4).")
    assert r["107.3b"].text.startswith("Se um jogador estiver conjurando")
    assert r["107.3b"].text.endswith("Consulte a regra 601, “Conjurando mágicas”.")
    assert r["202.3e"].text.startswith("Quando se calcula o custo de mana convertido")
    assert r["202.3e"].text.endswith("enquanto o objeto estiver na pilha.")
    assert r["601.2b"].text.startswith("Se a mágica é modal")
    assert r["601.2b"].text.endswith("quando fizer estas escolhas.")
    assert r["702.78"].text == "Persistir"
    assert r["702.78a"].text.startswith("Persistir é uma habilidade desencadeada.")
    assert r["117.9d"].text.endswith("(Consulte a regra 601.2f).")
    # No rule's text holds the start of another.
    for x in seed0.rules:
        for other in SEED0_RULES:
            assert not re.search(rf"(?<![\d.]){re.escape(other)}(?![\d])\.?\s+[A-Z]", x.text), (x.id, other)
    assert r["702.78"].children == ["702.78a"] and r["702.78a"].parent == "702.78"


def test_seed0_706_2_examples_split(seed0):
    r = seed0.rule("706.2")
    assert len(r.examples) == 2
    assert r.examples[0].text.startswith("Exemplo: Bastão Quimérico (Chimeric Staff)")
    assert r.examples[1].text.startswith("Exemplo: Clone entra no campo de batalha")
    assert "Exemplo" not in r.text
    assert r.text.endswith("status e marcadores não são copiados.")
    kinds = [f.kind for f in seed0.findings if f.rule == "706.2"]
    assert kinds.count("glued-example") == 2


def test_seed0_glued_words_reported_and_repaired(seed0):
    by_kind: dict[str, list[str]] = {}
    for f in seed0.findings:
        by_kind.setdefault(f.kind, []).append(f.detail)
    repaired = " ".join(by_kind.get("glued-word-repaired", []))
    for glued in ("dotexto", "nocampo", "sobreela"):
        assert glued in repaired or glued in " ".join(by_kind.get("unknown-word", [])), glued
    r = seed0.rule("706.2")
    assert "do texto impresso" in r.text and "dotexto" not in r.text
    assert "no campo de batalha" in r.text and "nocampo" not in r.text
    # The typo is reported, not "repaired" into two words.
    assert any("'jogadro'" in d for d in by_kind["unknown-word"])
    assert "jogadro" in seed0.rule("601.2b").text
    # Glued numbers are reported, rule starts and references alike.
    glued = " ".join(by_kind["glued-number"])
    assert "702.78a" in glued and "101.4" in glued and "601.2f" in glued
    # Spans point at the original text, which is kept unchanged.
    src = open(seed0.meta.source_file, encoding="utf-8").read()
    spans = [f.span for f in seed0.findings if f.kind == "glued-word-repaired"]
    assert any(src[a:b].startswith("dotexto") for a, b in spans)


def test_english_paste_references_are_not_rules():
    text = ("601.2b If the spell is modal, the player announces the mode choice (see rule 700.2). "
            "See rules 117.8 and 117.9. 601.2c The player announces targets.601.2dIf the spell requires "
            "the player to divide an effect, see rule 601.2f and rules 702.19c–702.19e. Example: A spell says "
            "100 damage.Example: Another one.\n702.78. Persist702.78a Persist is a triggered ability.")
    doc = segment_text(text, "en")
    assert doc.rule_ids == ["601.2b", "601.2c", "601.2d", "702.78", "702.78a"]
    assert [e.text for e in doc.rule("601.2d").examples] == ["Example: A spell says 100 damage.", "Example: Another one."]


def test_spanish_and_portuguese_reference_lists():
    es = segment_text("614.12 Véanse las reglas 614.1c y 614.1d. 614.13 Otra regla (véase la regla 616.1).", "es")
    assert es.rule_ids == ["614.12", "614.13"]
    pt = segment_text("117.9d Consulte as regras 117.8 e 117.9, 601.2f. 117.10. Outra.", "pt")
    assert pt.rule_ids == ["117.9d", "117.10"]


_word = st.text(alphabet="abcdefghij", min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(100, 999), st.integers(1, 40), st.lists(_word, min_size=3, max_size=12)),
                min_size=1, max_size=8, unique_by=lambda t: (t[0], t[1])),
       st.sampled_from([" ", "\n", "\n\n"]))
def test_property_numbered_sentences_round_trip(rules, sep):
    """Any run of 'N.M Capitalised sentence.' is cut back into exactly those rules."""
    parts, expect = [], []
    for rule, sub, words in rules:
        sentence = " ".join(words).capitalize() + "."
        parts.append(f"{rule}.{sub} {sentence}")
        expect.append((f"{rule}.{sub}", sentence))
    doc = segment_text(sep.join(parts), "en", repair=False)
    assert [(r.id, r.text) for r in doc.rules] == expect


def test_a_new_language_is_a_profile_not_a_segmenter_change(monkeypatch):
    from pipeline import profiles
    from pipeline.language import detect_language

    fr = profiles.Profile(
        lang="fr", name="Français", rule_words=("règle", "règles"), section_words=("section",),
        see_words=("voir",), conjunctions=("et", "ou"), range_words=("à",), example_markers=("Exemple",),
        glossary_heading=("Glossaire",), subrules_heading=("Sous-règles",),
        effective_date_patterns=(r"en vigueur (?:au|le) (?P<date>\d{1,2} [a-zéû]+ \d{4})",),
        months=("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
                "octobre", "novembre", "décembre"),
        card_header_words=("Règle",),
        stopwords=frozenset("le la les de des du et en un une que ne pas se pour avec par au sa son est".split()))
    monkeypatch.setitem(profiles.PROFILES, "fr", fr)
    text = ("616.1. Si deux effets de remplacement ou plus tentent de modifier la façon dont un événement "
            "affecte un objet (voir règle 101.4), le contrôleur choisit.Exemple: Un exemple. "
            "616.1a Si un des effets est un effet d'auto-remplacement, il doit être choisi.")
    assert detect_language(text)[0] == "fr"
    doc = segment_text(text, "fr", repair=False)
    assert doc.rule_ids == ["616.1", "616.1a"]
    assert doc.rule("616.1").examples[0].text == "Exemple: Un exemple."
