"""Issue 24, grammar class: mood, regência and garbled constructions (pipeline.align.checks.syntax).

Hand-written rules, each with its English; a defect is found with its span, the correct
sentence beside it is left alone.  The mood checks need the Hunspell pt_BR dictionary (skipped
without it)."""

from __future__ import annotations

import pytest

from pipeline.segment.hunspell import speller

from checkpairs import aligned_issues

needs_hunspell = pytest.mark.skipif(speller("pt") is None, reason="no pt_BR Hunspell dictionary")




def _found(pairs: list[tuple[str, str]], check: str) -> list:
    issues = aligned_issues([e for e, _ in pairs], [p for _, p in pairs])
    return [(i.row_id if hasattr(i, "row_id") else None, i.excerpt, i.suggestion) for i in issues if i.check == check]


def _excerpts(pairs, check):
    return [e for _, e, _ in _found(pairs, check)]


@needs_hunspell
def test_conditional_in_an_if_clause():
    got = _found([("If an effect would add mana, it adds one more.",
                   "Se um efeito adicionaria mana, ele adiciona mais um."),
                  ("If an effect would add mana, it adds one more.",
                   "Se um efeito fosse adicionar mana, ele adiciona mais um.")], "grammar.mood")
    assert [(e, s) for _, e, s in got] == [("adicionaria", "fosse adicionar")]


@needs_hunspell
def test_se_as_clitic_or_whether_is_not_an_if_clause():
    # "se tornaria" is the clitic; "Ignore se … poderiam" is "whether" (no comma, no sentence start).
    assert _excerpts([("If it would become a creature, it stays.", "Se tornaria uma criatura, ela fica."),
                      ("Ignore whether the costs could be paid if it would.",
                       "Ignore se os custos poderiam ser pagos.")], "grammar.mood") == []


@needs_hunspell
def test_no_if_in_the_english_no_finding():
    # The English has no hypothetical: "se" may be the clitic or "whether"; nothing is said.
    assert _excerpts([("The player checks whether it adds mana.", "O jogador verifica, se adicionaria mana.")],
                     "grammar.mood") == []


@needs_hunspell
def test_subjunctive_conjunctions():
    got = _excerpts([("They are performed before a player would receive priority.",
                      "Elas são executadas antes que um jogador receberia prioridade."),
                     ("They are performed before a player receives priority.",
                      "Elas são executadas antes que um jogador receba prioridade."),
                     ("Even if it is not a legal target.", "Mesmo que ele não é um alvo válido."),
                     ("Unless an effect caused it to become blocked.",
                      "A não ser que algum efeito torná-la bloqueada."),
                     ("They were given errata so they have the supertype.",
                      "Eles receberam errata para tenham o supertipo.")], "grammar.mood")
    assert got == ["receberia", "é", "torná-la", "para tenham"]


def test_regencia_and_idioms():
    got = _found([("An ability that lets a player exile a card.", "Uma habilidade que permite o jogador exilar um card."),
                  ("An ability that lets a player exile a card.", "Uma habilidade que permite ao jogador exilar um card."),
                  ("If a cost is reduced by an amount of mana.", "Se um custo é reduzido por uma quantidade de mana."),
                  ("A cost can be reduced by effects.", "Um custo pode ser reduzido por efeitos."),
                  ("Dispossess reads, in part, “Name an artifact card.”",
                   "Dispossess diz, em partes, “Escolha um nome de card de artefato.”"),
                  ("The player divides the cards in parts.", "O jogador divide os cards em partes.")],
                 "grammar.regencia")
    assert [(e, s) for _, e, s in got] == [("o jogador", "ao jogador"), ("por", "em"), ("partes", "parte")]


def test_garbled_constructions():
    got = _excerpts([("Lightning Bolt deals 3 damage to any target.", "Lightning Bolt causa 3 pontos de dano a qualquer o alvo."),
                     ("Any one of those players.", "Qualquer um daqueles jogadores."),
                     ("If an ability would produce one or more mana.", "Uma habilidade produz um ou mais um mana."),
                     ("It is not a legal target.", "Mesmo que ele não é seja um alvo válido."),
                     ("To no longer refer to the mana pool.", "Para não mais se referir-se à reserva de mana.")],
                    "grammar.garbled")
    assert got == ["o", "um", "é seja", "se referir-se"]


@needs_hunspell
def test_subject_pronoun_as_object():
    got = _excerpts([("The effect that puts it onto the battlefield.", "O efeito que coloca ela no campo de batalha."),
                     ("An Equipment can't equip itself.", "Um Equipamento não pode equipar ele mesmo."),
                     ("A creature it controls.", "Uma criatura que ele controla."),
                     ("It can be him.", "Pode ser ele.")], "grammar.object-pronoun")
    assert got == ["coloca ela", "equipar ele"]


@needs_hunspell
def test_conditional_in_a_temporal_clause_with_the_english_would():
    got = _excerpts([("A condition checked as the ability would trigger.",
                      "Uma condição verificada quando a habilidade desencadearia."),
                     ("A condition checked when the ability triggers.",
                      "Uma condição verificada quando a habilidade desencadeia.")], "grammar.mood-temporal")
    assert got == ["desencadearia"]


def test_more_garbled_constructions():
    got = _excerpts([("Doing so puts the ability on the stack.", "Fazer isso coloca a habilidade é colocada na pilha."),
                     ("Unspent mana caused loss of life.", "Qualquer mana não gasto mana causava perda de vida."),
                     ("An ability that can have a creature enter.", "Uma habilidade que faz com que a uma criatura entre."),
                     ("An ability that deals damage to a creature.", "Uma habilidade que causa dano a uma criatura."),
                     ("The drawn card is considered to have no characteristics.",
                      "O card comprado é considerado não possui características.")], "grammar.garbled")
    assert got == ["é colocada", "mana", "a", "não possui"]


def test_enclitic_infinitive_after_a_subject_and_broken_correlatives():
    mood = _excerpts([("Unless an effect has caused it to become blocked.",
                       "A não ser que algum efeito torná-la bloqueada."),
                      ("Unless the player may make it blocked.", "A menos que o jogador possa torná-la bloqueada.")],
                     "grammar.mood")
    assert mood == ["torná-la"]
    got = _excerpts([("Cards are neither tapped nor untapped.", "Os cards não estão nem virados ou desvirados."),
                     ("It keeps both the types artifact and land.", "Ele mantém tanto o tipo artefato e terreno."),
                     ("It keeps both the types artifact and land.", "Ele mantém tanto o tipo artefato quanto terreno.")],
                    "grammar.garbled")
    assert got == ["ou", "e"]


@needs_hunspell
def test_present_subjunctive_after_se_and_anexar_em():
    assert _excerpts([("Only if none of its abilities have been activated.",
                       "Somente se nenhuma das suas habilidades tenha sido ativada."),
                      ("Only if none of its abilities have been activated.",
                       "Somente se nenhuma das suas habilidades tiver sido ativada.")], "grammar.mood") == ["tenha"]
    assert _excerpts([("Attach a Fortification to a land.", "Anexar uma fortificação em um terreno."),
                      ("Attach a Fortification to a land.", "Anexar uma fortificação a um terreno.")],
                     "grammar.regencia") == ["em"]


@needs_hunspell
def test_the_comparative_o_mesmo_que_is_not_even_if():
    assert _excerpts([("It has the same value as the card has.", "Ele tem o mesmo valor que a carta tem."),
                      ("Its owner is the same as the card's owner is.", "Seu dono é o mesmo que o dono do card é."),
                      ("Even if it is not a legal target.", "Mesmo que ele não é um alvo válido.")],
                     "grammar.mood") == ["é"]


@needs_hunspell
def test_if_clause_at_the_start_of_a_quotation():
    got = _excerpts([("Such abilities read “If a source would cause a player to gain life, …”",
                      "Tais habilidades dizem “Se uma fonte faria um jogador ganhar pontos de vida, …”")],
                    "grammar.mood")
    assert got == ["faria"]


# --- Round 5 (r5gram): próclise by attraction, passive "se", contraction + determiner ---------

@needs_hunspell
def test_proclisis_after_a_word_that_attracts_the_pronoun():
    got = _found([("x", "Isso desencadeia quando a criatura torna-se uma criatura atacante."),
                  ("x", "Quando uma regra ou texto em um card refere-se a um jogador, ele é afetado."),
                  ("x", "Um efeito faz com que eles tornem-se criaturas, a menos que aquela permanente torne-se tapada."),
                  ("x", "Um efeito não aplica-se a ela."),
                  # no attraction: a sentence-initial verb, a comparative, an infinitive, a gerund,
                  # a coordinated verb, the pronoun already before the verb
                  ("x", "Torna-se uma criatura."),
                  ("x", "A criatura torna-se uma cópia."),
                  ("x", "Tem mais poder do que a criatura torna-se."),
                  ("x", "Quando a criatura deve tornar-se uma cópia, nada muda."),
                  ("x", "Quando a criatura ataca, tornando-se tapada, nada muda."),
                  ("x", "Cards que produzem mana e referem-se a mana mudam."),
                  ("x", "Quando a criatura se torna uma cópia, nada muda.")], "grammar.proclisis")
    assert [(e, s) for _, e, s in got] == [("torna-se", "se torna"), ("refere-se", "se refere"),
                                           ("tornem-se", "se tornem"), ("torne-se", "se torne"),
                                           ("aplica-se", "se aplica")]


@needs_hunspell
def test_passive_se_agrees_with_its_plural_subject():
    got = _excerpts([("x", "Esta regra aplica-se quando se escolhe os alvos e quando se mudam os alvos ou se escolhe "
                           "novos alvos."),
                     ("x", "Quando se escolhem os alvos, nada muda."),
                     ("x", "Se escolhe os alvos, ele os anuncia."),
                     ("x", "Trata-se das regras."),
                     ("x", "Não se aplica mais tarde.")], "grammar.passive-se")
    assert got == ["se escolhe", "se escolhe"]


def test_contraction_before_a_determiner_that_takes_no_article():
    got = _found([("x", "Um objeto é de cada cor mostrada pelo esse indicador de cor."),
                  ("x", "Isso vale no cada turno."),
                  ("x", "Um objeto é de cada cor mostrada por esse indicador, desse modo.")],
                 "grammar.contraction-determiner")
    assert [(e, s) for _, e, s in got] == [("pelo esse", "por esse"), ("no cada", "em cada")]


@needs_hunspell
def test_object_pronoun_after_a_gerund_closing_its_clause():
    got = _excerpts([("x", "As criaturas que estão bloqueando ela, ou que a atacam, mudam."),
                     ("x", "Estando ela no campo, nada muda."),
                     ("x", "Tendo ela sido destruída, nada muda.")], "grammar.object-pronoun")
    assert got == ["bloqueando ela"]


@needs_hunspell
def test_determiners_cujo_and_algum_never_take():
    # Round 6 (r6gram): "cujo" is itself the relative (no "que" before, no article after); an
    # indefinite article never precedes "algum"/"nenhum".  Correct uses are left alone.
    got = _found([("Cards whose names were printed.", "Cards que cujos nomes foram impressos."),
                  ("A card whose name is X.", "Um card cujo o nome é X."),
                  ("If any mana remains.", "Se um algum mana permanece na reserva."),
                  ("Cards whose names were printed.", "Cards cujos nomes foram impressos."),
                  ("It applies to any creature.", "Aplica-se a alguma criatura que não tem nenhuma habilidade.")],
                 "grammar.garbled")
    assert [(e, s) for _, e, s in got] == [("que cujos", "cujos"), ("cujo o", "cujo"), ("um algum", "algum")]
