"""Issue 24, grammar class (agreement helper): the agreement checks that read a subject further
back (a participle after "ser"/"estar", a verb after "cada" or a relative "que"), the gender the
team fixes for a noun ("mana"), the English singular "they", and the number of a cross-reference's
noun against the English.  Small hand-written documents: the genders are learnt from the
document's own determiners, so each fixture writes its nouns with a few of them."""

from __future__ import annotations

import pytest

from pipeline.model import Rule
from pipeline.segment.hunspell import speller

from checkpairs import aligned_issues, filler_english, rules_doc

needs_pt_speller = pytest.mark.skipif(speller("pt") is None, reason="no pt_BR Hunspell dictionary (Debian hunspell-pt-br)")




def _findings(pt: list[str], check: str, en: list[str] | None = None) -> list:
    return [i for i in aligned_issues(en if en is not None else filler_english(len(pt)), pt) if i.check == check]


# Genders and numbers the document's own determiners show ("habilidade" feminine, "objetos"
# masculine plural, "subtipo" masculine).
USAGE = ["Essa habilidade sai.", "Uma habilidade entra.", "Aquela habilidade fica.", "Nenhuma habilidade conta.",
         "Essas habilidades saem.", "Aquelas habilidades ficam.", "Algumas habilidades entram.",
         "Esses objetos saem.", "Aqueles objetos ficam.", "Alguns objetos entram.", "Uns objetos contam.",
         "Esse subtipo sai.", "Um subtipo entra.", "Aquele subtipo fica.",
         "Esse terreno sai.", "Um terreno entra.", "Aquele terreno fica.", "Nenhum terreno conta.",
         "Esse jogador sai.", "Um jogador entra.", "Aquele jogador fica."]


@needs_pt_speller
def test_participle_after_a_copula_against_the_clause_subject():
    got = _findings(USAGE + ["Quando um objeto ganha algo, essa habilidade pode ser removido por outro efeito.",
                             "Objetos que não estão na pilha não são controladas por nenhum jogador.",
                             "Essa habilidade pode ser removida por outro efeito."], "grammar.predicate")
    assert [(i.excerpt, i.suggestion) for i in got] == [("essa habilidade pode ser removido", "removida"),
                                                        ("Objetos que não estão na pilha não são controladas",
                                                         "controlados")]


@needs_pt_speller
def test_participle_after_que_and_what_stands_between():
    got = _findings(USAGE + ["Isso não remove habilidades que foram concedidos ao terreno.",
                             "Um subtipo que está correlacionada com o tipo.",
                             # another subject before the predicate: a pronoun, a clause of its own
                             "Um terreno entra quando ela é colocada na pilha.",
                             "Habilidades que foram concedidas ao terreno ficam.",
                             # the subject after the conjunction; a relative with a subject of its own
                             "Se um terreno de fora do jogo estiver envolvida, nada muda.",
                             "Uma habilidade em que cada terreno é colocado na pilha."], "grammar.predicate")
    assert [i.excerpt for i in got] == ["habilidades que foram concedidos", "subtipo que está correlacionada",
                                        "um terreno de fora do jogo estiver envolvida"]


@needs_pt_speller
def test_plural_verb_after_cada_or_a_singular_noun_and_que():
    got = _findings(USAGE + ["Então cada terreno afetado pela habilidade retêm seus tipos.",
                             "Alguns objetos possuem habilidade que desencadeiam sempre.",
                             # "em cada terreno": not the subject; "pontos de dano que": the head is "pontos"
                             "Os jogadores em cada terreno compram.", "Cada terreno afetado retém seus tipos.",
                             # a plural noun and "que" with a singular verb; "na maioria dos objetos que tem":
                             # the head, "maioria", may be the antecedent
                             "Os objetos que não esteja no campo.", "Um número na maioria dos objetos que tem efeito."],
                    "grammar.subject-verb")
    assert [i.excerpt for i in got] == ["cada terreno afetado pela habilidade retêm", "habilidade que desencadeiam",
                                        "objetos que não esteja"]


@needs_pt_speller
def test_verb_right_after_the_subject_that_opens_the_clause():
    got = _findings(USAGE + ["Alguns objetos não tem custo.", "Tais terreno são colocados.",
                             # the verb's subject is not the noun before it: "Um jogo de dois objetos é"
                             "Um subtipo de dois objetos é raro.", "Alguns objetos não têm custo."],
                    "grammar.subject-verb")
    assert [i.excerpt for i in got] == ["objetos não tem", "terreno são"]


@needs_pt_speller
def test_the_gender_the_team_fixes_for_a_noun():
    masc = ["Adicione um mana.", "O mana sai.", "Esse mana fica.", "Aquele mana conta.", "Nenhum mana entra."] * 5
    # 20 masculine uses ("o" is also a pronoun: not counted), 4 feminine: a clear majority, not 0.9, and
    # "uma mana" three times (the determiner check takes a repeated pairing for usage).
    pt = masc + ["Essa mana fica."] + ["Adicione uma mana de qualquer cor."] * 3 + [
        "Reduza o custo em mana genérica.", "A quantidade de mana genérica mudou."]
    en = [f"Thing {i}." for i in range(len(masc))] + ["That mana stays."] + ["Add one mana of any color."] * 3 + [
        "Reduce the cost by generic mana.", "The amount changed."]
    got = _findings(pt, "grammar.team-gender", en)
    # "quantidade de mana genérica": the English has no "generic mana", the adjective may be "quantidade"'s.
    assert [(i.excerpt, i.suggestion) for i in got] == [("Essa mana", None)] + [("uma mana", None)] * 3 + [
        ("mana genérica", "mana genérico")]
    assert "20 of its 24" in got[0].message
    # A word written one way (almost) always is the determiner check's: nothing here.
    assert _findings(masc + ["Pague um mana."], "grammar.team-gender", None) == []


def test_plural_pronoun_for_the_singular_they_of_one_player():
    pt = ["Se um jogador desejar revelar um card, eles podem fazê-lo depois.",
          "Se os jogadores desejarem revelar cards, eles podem fazê-lo depois.",
          "Se um jogador desejar revelar um card, ele pode fazê-lo depois."]
    en = ["If a player wishes to reveal a card, they may do so afterward.",
          "If players wish to reveal cards, they may do so afterward.",
          "If a player wishes to reveal a card, they may do so afterward."]
    got = _findings(pt, "grammar.singular-they", en)
    assert [(i.rule, i.excerpt) for i in got] == [("100.1", "eles podem")]


def test_plural_rule_word_before_one_rule_number():
    pt = ["Uma habilidade que se encaixe nos critérios descritos nas regras 113.6.",
          "Consulte as regras 113.6 e 113.7.", "Consulte a regra 113.6."]
    en = ["An ability that fits the criteria described in rule 113.6.", "See rules 113.6 and 113.7.",
          "See rule 113.6."]
    got = _findings(pt, "grammar.reference-number", en)
    assert [(i.rule, i.excerpt) for i in got] == [("100.1", "regras 113.6")]


def test_glossary_term_plural_in_english_singular_in_the_translation():
    """A bilingual PO's glossary: the term "Double-Faced Cards" rendered with a singular head."""
    from pipeline.align.checks import Context, Pair
    from pipeline.align.checks.agreement import run_term_number
    from pipeline.align.model import Row, RowKind, RowMethod, RowStatus

    usage = ["Esse card sai.", "Um card entra.", "Aquele card fica.", "Nenhum card conta.", "Esses cards saem."]
    pairs = []
    # The term is the row's first piece ("Double-Faced Cards"; a card, with "card" singular elsewhere).
    for i, (pt, en) in enumerate([("Card Dupla Face", "Double-Faced Cards"), ("Cards Dupla Face", "Double-Faced Cards"),
                                  ("Status", "Status")] + [(u, "The card.") for u in usage]):
        kind = RowKind.GLOSSARY if i < 3 else RowKind.RULE
        t = Rule(f"g{i}", pt, [], parent="100", level="subrule", order=i)
        b = Rule(f"g{i}", en, [], parent="100", level="subrule", order=i)
        pairs.append(Pair(Row(f"g{i}", f"g{i}", None, RowStatus.ALIGNED, RowMethod.UNIT, kind=kind), t, b, None))
    ctx = Context("pt", rules_doc("pt", []), rules_doc("en", []), None, pairs)
    got = run_term_number(ctx)
    assert [(i.rule, i.excerpt) for i in got] == [("g0", "Card Dupla Face")]


def test_singular_article_a_before_a_plural_subject():
    usage = ["Essa reserva sai.", "Uma reserva entra.", "Aquela reserva fica.", "Nenhuma reserva conta."]
    got = _findings(usage + ["No formato construído, a reservas pode conter cards.",
                             "O efeito se aplica a reservas e decks."], "grammar.determiner")
    # "a reservas pode": the subject, so the article; "a reservas e decks": the preposition.
    assert [i.excerpt for i in got] == ["a reservas"]


@needs_pt_speller
def test_passive_auxiliary_and_participle_share_a_number():
    # Round 5 (r5gram): the subject may be far ("As ações executadas quando se paga um custo"); the
    # auxiliary and the participle side by side are enough.
    got = _findings(["As ações executadas quando se paga um custo podem ser modificada por efeitos.",
                     "As ações executadas quando se paga um custo podem ser modificadas por efeitos.",
                     "O marcador foi colocado na criatura.",
                     "Os jogadores são vida."], "grammar.passive-number")
    assert [i.excerpt for i in got] == ["podem ser modificada"]
    # "foi colocados", the auxiliary right before: Lightproof's grammar.agreement names it; this check yields.
    assert [i.excerpt for i in _findings(["O marcador foi colocados na criatura."], "grammar.agreement")] \
        == ["foi colocados"]
    assert _findings(["O marcador foi colocados na criatura."], "grammar.passive-number") == []


@needs_pt_speller
def test_verb_after_the_subject_its_participle_and_a_complement():
    # Round 5 (r5gram): "O texto impresso em alguns cards lendários referem-se" — the plural noun of
    # the complement is not the subject; a partitive head may agree with its complement.
    got = _findings(USAGE + ["O terreno impresso em alguns objetos antigos referem-se a eles.",
                             "O terreno impresso em alguns objetos antigos refere-se a eles.",
                             "Qualquer número de objetos adicionais podem ser aplicados."], "grammar.subject-verb")
    assert [i.excerpt for i in got] == ["terreno impresso em alguns objetos antigos referem-se"]


@needs_pt_speller
def test_singular_verb_after_a_plural_subject_and_its_complement():
    # Round 6 (r6gram): "alguns cards de criatura tem poder" — the verb agrees with the plural head,
    # not with the complement's noun; a plural verb, or a partitive head, is left alone.
    got = _findings(USAGE + ["Alguns objetos de terreno tem um subtipo.",
                             "Alguns objetos de terreno têm um subtipo.",
                             "Aquele terreno de objetos tem um subtipo.",
                             "A maioria dos objetos de terreno tem um subtipo."], "grammar.subject-verb")
    assert [i.excerpt for i in got] == ["objetos de terreno tem"]
