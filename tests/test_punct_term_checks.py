"""Issue 24 (punctuation and term classes): checks that read the English punctuation as
evidence — serial comma before a long last item, comma splice, rule number and title, type
line dash, connective comma, subject–verb comma — and the term checks' spans and verb headwords.

Small hand-written pairs for the checks that read characters; the real pt-BR PO (skipped
without ../shared) for the ones that need the lexicon learnt from a whole translation."""

from __future__ import annotations

import pytest

from pipeline.segment.hunspell import speller

from checkpairs import aligned_issues




def _findings(pairs: list[tuple[str, str]], check: str) -> list:
    return [i for i in aligned_issues([e for e, _ in pairs], [t for _, t in pairs]) if i.check == check]


def test_title_comma_after_a_rule_number():
    got = _findings([("See rule 702, “Keyword Abilities.”", "Consulte a regra 702. “Palavras-chave de Habilidade”."),
                     ("See rule 905, “Conspiracy Draft.”", "Consulte a regra 905 “Draft de Conspiracy”."),
                     ("See rule 903, “Commander.”", "Consulte a regra 903, “Commander”.")], "form.title-comma")
    assert [(i.excerpt, i.suggestion) for i in got] == [("702. ", "702, "), ("905 ", "905, ")]


def test_type_dash_hyphen_and_en_dash_but_not_a_sentence_dash():
    got = _findings([("Its type line says “Land Creature — Forest Dryad.”", "A linha de tipo diz “Terreno Criatura - Floresta Dríade”."),
                     ("Listed after a long dash: “Enchantment — Shrine.”", "Listados após um travessão: “Encantamento – Sacrário”."),
                     ("Those aren’t considered cards—even a card.", "Esses não são considerados cards – nem mesmo um card.")],
                    "form.type-dash")
    assert [(i.excerpt, i.suggestion) for i in got] == [("Criatura - Floresta", "Criatura — Floresta"),
                                                        ("Encantamento – Sacrário", "Encantamento — Sacrário")]


def test_connective_comma():
    got = _findings([("It becomes unattached but remains on the battlefield.", "Ela é solta da permanente porém permanece no campo."),
                     ("It can’t enter the battlefield and thus can’t be a permanent.", "Não pode entrar no campo e portanto não é permanente."),
                     ("It can’t, however, attack.", "Ela não pode, porém, atacar.")], "form.connective-comma")
    # "e portanto": the conjunction joins; "não pode, porém,": set off already.
    assert [(i.excerpt, i.suggestion) for i in got] == [("permanente porém", "permanente, porém")]


def test_then_needs_its_comma_where_the_english_sets_it_off():
    got = _findings([("If you control a Forest and an Exotic Orchard, then each one can add mana.",
                      "Se você controlar uma Floresta e um Exotic Orchard então cada um pode gerar mana."),
                     ("Then the player draws a card.", "O jogador então compra um card.")], "form.connective-comma")
    assert [(i.excerpt, i.suggestion) for i in got] == [("Orchard então", "Orchard, então")]


needs_pt_speller = pytest.mark.skipif(speller("pt") is None, reason="no pt_BR Hunspell dictionary (Debian hunspell-pt-br)")


@needs_pt_speller
def test_serial_comma_long_last_item_needs_a_parallel_list():
    got = _findings([
        ("It has one of the results, depending on the recipient, the characteristics of the source, and the characteristics "
         "of the recipient.", "Pode ter um dos resultados, dependendo do recebedor, as características da fonte do dano, e as "
         "características do recebedor."),
        # two clauses, not a list: the item has its own verb
        ("If the player has 0 life, no life gain event occurred, and those abilities won’t trigger.",
         "Se o jogador tem 0 pontos de vida, nenhum evento de ganho de vida ocorreu, e essas habilidades não vão desencadear.")],
        "form.serial-comma")
    assert [i.excerpt for i in got] == [", e"]
    assert "fonte do dano, e as" in got[0].message


def test_serial_comma_a_symbols_colon_is_no_list_break():
    got = _findings([("A flame for sorcery, a chalice for artifact, and a pair of peaks for land.",
                      "Uma chama para feitiço {ts:sorcery}, um cálice para artefato {ts:artifact}, e um par de montanhas.")],
                    "form.serial-comma")
    assert [i.excerpt for i in got] == [", e"]


@pytest.fixture(scope="module")
def po_issues(real_po_alignment):
    """The findings of the session's one alignment of the real PO (conftest)."""
    return real_po_alignment.issues


def test_real_po_comma_splices_subject_commas_and_terms(po_issues):
    """Learnt from the whole translation: the English ';' or '.' against a bare comma, a comma
    between subject and verb, a verb headword as a noun, a term's aligned words."""
    got = {(i.check, i.excerpt) for i in po_issues}
    assert {("form.comma-splice", "palavras, todas"), ("form.comma-splice", "jogadores, permanentes"), ("form.comma-splice", "jogador, isso era chamado"),
            ("form.subject-comma", "batalha, deixa"), ("form.subject-comma", "texto, receberam"),
            ("terminology.headword-verb", "Ataque"), ("terminology.missing", "jogar")} <= got
    # a subject's comma is named once
    subj = {(i.rule, i.span) for i in po_issues if i.check == "form.subject-comma"}
    assert not any((i.rule, i.span) in subj for i in po_issues if i.check == "form.extra-comma")
    # a list's comma ("Exército, Fada" for "Zombie, and Zubera") and "mágicas, portanto" are no splice
    assert not any(i.check == "form.comma-splice" and ("Fada" in (i.excerpt or "") or "portanto" in (i.excerpt or ""))
                   for i in po_issues)
    # "Em seguida, o evento": a comma after an opening adverb is no splice
    assert not any(i.check == "form.comma-splice" and "seguida" in (i.excerpt or "") for i in po_issues)


def test_name_kept_once_and_translated_once():
    got = _findings([("A player controls Psychic Vortex. The player may pay Psychic Vortex’s cost.",
                      "Um jogador controla Psychic Vortex. O jogador pode pagar o custo de Vórtice Psíquico."),
                     ("A player controls Psychic Vortex. The player may pay Psychic Vortex’s cost.",
                      "Um jogador controla Psychic Vortex. O jogador pode pagar o custo de Psychic Vortex.")],
                    "terminology.name-mixed")
    assert [(i.excerpt, i.suggestion) for i in got] == [("Vórtice Psíquico", "Psychic Vortex")]


def test_bracket_split_in_two():
    got = _findings([("The event becomes [5 damage is dealt to the defending player, the defending player gains 5 life].",
                      "O evento torna-se [5 pontos de dano são causados ao jogador defensor. O jogador defensor ganha 5 pontos de vida]."),
                     ("The event becomes [the player loses 5 life, the player gains 5 life].",
                      "O evento torna-se [o jogador perde 5 pontos de vida, o jogador ganha 5 pontos de vida].")],
                    "form.bracket-split")
    assert [i.excerpt for i in got] == ["defensor. O"]


# -- round 5 (helper r5form): general number, punctuation and majority-term checks --------------

def test_decimal_point_in_a_measurement_but_not_in_a_rule_number():
    got = _findings([("Cards measure approximately 2.5 inches (6.3 cm) by 3.5 inches.",
                      "Os cards medem aproximadamente 2.5 polegadas (6,3 cm) por 3.5 polegadas."),
                     ("See rule 702.28 and rule 100.1a.", "Consulte a regra 702.28 e a regra 100.1a."),
                     ("Its mana value is 2.", "Seu valor de mana é 2.")], "form.decimal-point")
    assert [(i.excerpt, i.suggestion) for i in got] == [("2.5", "2,5"), ("3.5", "3,5")]


def test_semicolon_before_a_connective_rendered_as_a_comma():
    got = _findings([("A player can play one land during their turn; however, effects may increase this number.",
                      "Um jogador pode jogar um terreno durante seu turno, entretanto, efeitos podem aumentar esse número."),
                     ("A player can play one land during their turn; however, effects may increase this number.",
                      "Um jogador pode jogar um terreno durante seu turno; entretanto, efeitos podem aumentar esse número."),
                     ("It can’t, however, attack.", "Ela não pode, porém, atacar.")], "form.semicolon-comma")
    assert [(i.excerpt, i.suggestion) for i in got] == [(", entretanto,", "; entretanto,")]


def test_serial_comma_after_an_items_own_parenthesis():
    got = _findings([("The types are Aura (see rule 303.4), Curse, Saga (see rule 714), and Shrine.",
                      "Os tipos são Aura (consulte a regra 303.4), Maldição, Saga (consulte a regra 714), e Sacrário."),
                     ("Its controller, its would-be controller (if a player is casting, activating, or playing it), or its owner.",
                      "Seu controlador, seu candidato a controlador (se um jogador está conjurando, ativando ou jogando), ou seu dono."),
                     # the parenthesis opened earlier and not closed in the item: left alone
                     ("The types are Aura (see rules 303.4, 303.5, and 303.6).",
                      "Os tipos são Aura (consulte as regras 303.4, 303.5, e 303.6 também) no jogo.")],
                    "form.serial-comma")
    found = [i.message for i in got]
    assert any("Saga (consulte a regra 714), e Sacrário" in m for m in found)
    assert any("candidato a controlador (se um jogador está conjurando, ativando ou jogando), ou seu dono" in m for m in found)


def test_majority_rendering_wins_over_an_approved_minority():
    """"card" and "carta" are both listed; the translation writes "card" in all but one rule."""
    pairs = [(f"Draw a card with mana value {n}.", f"Compre um card com valor de mana {n}.") for n in range(25)]
    pairs.append(("Reveal a card from your hand.", "Revele uma carta da sua mão."))
    got = _findings(pairs, "terminology.majority")
    assert [(i.excerpt, i.suggestion) for i in got] == [("carta", "card")]
    # without a large majority nothing is said
    assert _findings(pairs[:5] + pairs[-1:], "terminology.majority") == []


def test_real_po_majority_decimal_and_dropped_quotes(po_issues):
    got = {(i.check, i.excerpt) for i in po_issues}
    assert {("terminology.majority", "carta"), ("terminology.majority", "cartas"), ("form.decimal-point", "2.5"),
            ("form.dropped-quotes", "Estampar"), ("form.semicolon-comma", ", entretanto,")} <= got
    # the team's own rendering is never the one flagged
    assert not any(i.check == "terminology.majority" and i.excerpt.casefold().startswith("card") for i in po_issues)
