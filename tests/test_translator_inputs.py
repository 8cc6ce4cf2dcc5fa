"""Issue 12, item 3 pieces: effective-date phrases, Hunspell (and its absence), renames learnt
from the editions' glossaries, the glossary of a rendered text without headings."""

from __future__ import annotations

import pytest

from conftest import EDITIONS, needs_shared


@pytest.mark.parametrize("text,lang,iso", [
    ("Estas regras entram em vigor em 20 de Novembro de 2020.", "pt", "2020-11-20"),
    ("Estas regras são válidas a partir de 14 de novembro de 2025.", "pt", "2025-11-14"),
    ("Essas regras são efetivas a partir de 1º de fevereiro de 2019.", "pt", "2019-02-01"),
    ("Estas reglas son válidas desde el 14 de noviembre de 2025.", "es", "2025-11-14"),
    ("Estas reglas son válidas a partir del 14 de Noviembre de 2025.", "es", "2025-11-14"),
    ("These rules are effective as of November 20, 2020.", None, "2020-11-20"),
])
def test_effective_date_phrases(text, lang, iso):
    from pipeline.editions.base import declared_date

    assert declared_date(text, lang)[0] == iso


def test_missing_dictionary_degrades_with_a_message(monkeypatch, tmp_path):
    from pipeline.segment import hunspell
    from pipeline.segment.spacing import repair_spacing

    monkeypatch.setattr(hunspell, "DIRS", ())
    monkeypatch.setenv("CRPIPE_HUNSPELL_DIR", str(tmp_path))
    hunspell.speller.cache_clear()
    try:
        assert hunspell.speller("pt") is None
        assert "hunspell-pt-br" in hunspell.missing_reason("pt")
        fixed, _ = repair_spacing("o nome dotexto", "pt")  # the lexicon alone still repairs
        assert fixed == "o nome do texto"
    finally:
        hunspell.speller.cache_clear()


def test_hunspell_never_split_and_typos_reported():
    from pipeline.segment.hunspell import speller
    from pipeline.segment.spacing import repair_spacing

    if speller("pt") is None:
        pytest.skip("no pt_BR Hunspell dictionary (Debian hunspell-pt-br)")
    fixed, finds = repair_spacing("geralmente o jogador novamente comate e commando dotexto; veja "
                                  "Magic.Wizards.com/Rules", "pt")
    assert "geralmente" in fixed and "novamente" in fixed and "Magic.Wizards.com/Rules" in fixed
    assert "do texto" in fixed and "comate" in fixed and "commando" in fixed
    unknown = {f.detail.split("'")[1] for f in finds if f.kind == "unknown-word"}
    assert {"comate", "commando"} <= unknown
    fixed, _ = repair_spacing("If a card would change its name, the time it takes matters.", "pt")
    assert "na me" not in fixed and "ti me" not in fixed


@needs_shared
def test_renamed_terms_learnt_from_the_editions():
    from pipeline.diff.renamed_terms import renamed_terms

    got = {(r.old, r.new, r.edition) for r in renamed_terms(EDITIONS, "2020-11-20", "2026-01-16")}
    assert ("Converted Mana Cost", "Mana Value", "2021-04-19") in got
    assert any(o == "Tribal" and n == "Kindred" for o, n, _ in got)
    assert not any(o.startswith(("Ability", "Partner")) for o, _, _ in got)  # no format or glued-block noise


def test_glossary_and_credits_without_headings():
    from pipeline.segment.paste import segment_text

    text = ("100.1. Estas regras se aplicam a qualquer jogo.\n100.2. Para jogar, cada jogador precisa de um deck.\n"
            "Abandonar\nVirar um card de esquema contínuo para baixo. Consulte a regra 701.26.\n"
            "Habilidade\n1. Texto em um objeto que explica o que ele faz.\n2. Uma habilidade ativada na pilha.\n"
            "Ataque à Direita\nAtaque à Esquerda\nUma opção de variantes multijogador. Consulte a regra 803.\n"
            "Criatura Atacante\nUma criatura declarada como atacante. Consulte a regra 508.\n"
            "Magic: The Gathering Criação Original do Jogo: Richard Garfield\nEdição: Del Laugel (lead)\n")
    doc = segment_text(text, "pt")
    assert [r.id for r in doc.rules] == ["100.1", "100.2"] and doc.rules[-1].text.endswith("um deck.")
    assert [g.term for g in doc.glossary] == ["Abandonar", "Habilidade", "Ataque à Direita", "Ataque à Esquerda",
                                              "Criatura Atacante"]
    assert doc.glossary[1].definition.count("\n") == 1 and doc.glossary[0].refs == ["701.26"]
    assert doc.credits.startswith("Magic: The Gathering Criação Original")


def test_rule_after_sentence_end_continues_the_numbering():
    from pipeline.segment.paste import segment_text

    doc = segment_text("100.7. Estes cards não são cobertos por essas regras. 101.1. Sempre que o texto de um card "
                       "contradiz essas regras, o card tem precedência (consulte a regra 104.3a).", "pt")
    assert [r.id for r in doc.rules] == ["100.7", "101.1"]
