"""Language detection: en, pt, es, or unknown with the reason."""

from __future__ import annotations

import pytest

from pipeline.language import detect_language
from pipeline.segment.paste import segment_text
from tests.conftest import CORPUS, EDITIONS, needs_shared


@pytest.mark.parametrize("prefix,lang", [("000", "pt"), ("001", "es"), ("002", "en")])
def test_seeds(prefix, lang):
    text = sorted((CORPUS / "seeds").glob(f"{prefix}_*.txt"))[0].read_text(encoding="utf-8")
    got, reason = detect_language(text)
    assert got == lang, reason
    assert "function words" in reason


@needs_shared
def test_english_edition():
    text = (EDITIONS / "2025-11-14.txt").read_text(encoding="utf-8-sig")
    assert detect_language(text)[0] == "en"


@pytest.mark.parametrize("text,why", [
    ("Le joueur actif choisit une carte et la met dans sa main. Si le joueur ne peut pas le faire, il perd "
     "la partie.", "not English, Portuguese or Spanish"),
    ("Il giocatore attivo sceglie una carta e la mette nella sua mano. Se il giocatore non può farlo, perde "
     "la partita.", "not English, Portuguese or Spanish"),
    ("Der aktive Spieler wählt eine Karte und legt sie in seine Hand. Wenn der Spieler das nicht kann, "
     "verliert er das Spiel.", "not English, Portuguese or Spanish"),
    ("601.2b 702.78a", "too little text"),
])
def test_unknown_with_reason(text, why):
    lang, reason = detect_language(text)
    assert lang is None and why in reason


def test_unknown_language_still_segments_with_every_profile():
    doc = segment_text("601.2b Le joueur annonce (see rule 700.2). 601.2c Le joueur annonce les cibles.", None)
    assert doc.meta.language == "unknown" and doc.rule_ids == ["601.2b", "601.2c"]
