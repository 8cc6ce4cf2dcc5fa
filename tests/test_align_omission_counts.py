"""Issue 24: dropped modifiers counted against their learnt renderings, and the profile's phrase
facts (antonyms, "no longer", an added "pode"), on a small hand-written translation."""

from __future__ import annotations

import pytest

BASE = [
    ("A player also draws a card.", "Um jogador também compra um card."),
    ("A creature also has a color.", "Uma criatura também tem uma cor."),
    ("The player also reveals the card.", "O jogador também revela o card."),
    ("Each player also chooses a creature.", "Cada jogador também escolhe uma criatura."),
    ("The controller also draws a card.", "O controlador também compra um card."),
    ("Each other player draws a card.", "Cada outro jogador compra um card."),
    ("Another player chooses a creature.", "Outro jogador escolhe uma criatura."),
    ("The other player reveals a card.", "O outro jogador revela um card."),
    ("Another creature has a color.", "Outra criatura tem uma cor."),
    ("The mana cost of a card is a cost.", "O custo de mana de um card é um custo."),
    ("A creature card has a mana cost.", "Um card de criatura tem um custo de mana."),
    ("The player pays the mana cost.", "O jogador paga o custo de mana."),
    ("The mana cost of the creature is green.", "O custo de mana da criatura é verde."),
    ("A player pays a cost.", "Um jogador paga um custo."),
    ("The cost is paid by the player.", "O custo é pago pelo jogador."),
    ("A player adds mana.", "Um jogador adiciona mana."),
    ("The mana is green.", "O mana é verde."),
    ("A player draws a card before the creature attacks.", "Um jogador compra um card antes que a criatura ataque."),
    ("A player draws a card after the creature attacks.", "Um jogador compra um card após a criatura atacar."),
    ("A player reveals one or more cards.", "Um jogador revela um ou mais cards."),
]
DEFECTS = [
    ("The creature also has a color.", "A criatura tem uma cor."),  # "also" dropped
    ("Each other creature has a color.", "Cada criatura tem uma cor."),  # "other" dropped
    ("The player pays its mana cost.", "O jogador paga seu custo."),  # "mana" dropped
    ("A player reveals a card before the creature attacks.", "Um jogador revela um card após a criatura atacar."),
    ("A player draws one or more cards.", "Um jogador compra mais de um card."),
    ("A creature that is no longer on the battlefield has no color.",
     "Uma criatura que não está no campo de batalha não tem cor."),
    ("An effect allows a player to draw a card.", "Um efeito pode permitir que um jogador compre um card."),
]
FAITHFUL = [
    ("The player chooses a creature other than the card.", "O jogador escolhe uma criatura que não seja o card."),
    ("The players reveal cards to each other.", "Os jogadores revelam cards uns aos outros."),
    ("A player may draw a card.", "Um jogador pode comprar um card."),
    ("A player draws a card, then reveals one or more cards.", "Um jogador compra um card e revela uma ou mais cards."),
]


def _context(pairs):
    from pipeline.align.checks import Context, Pair
    from pipeline.align.model import Row, RowMethod, RowStatus
    from pipeline.align.termbase import load_termbase
    from pipeline.model import Document, GlossaryEntry, Meta, Rule

    en_rules, pt_rules, ps = [], [], []
    for n, (en, pt) in enumerate(pairs, 1):
        rid = f"100.{n}"
        b, t = Rule(rid, en), Rule(rid, pt)
        en_rules.append(b)
        pt_rules.append(t)
        ps.append(Pair(Row(rid, rid, rid, RowStatus.ALIGNED, RowMethod.NUMBER), t, b, b))
    glossary_en = [GlossaryEntry("Mana", "What a player pays costs with.")]
    glossary_pt = [GlossaryEntry("Mana", "Com o que um jogador paga custos.")]
    base = Document(Meta(language="en"), rules=en_rules, glossary=glossary_en)
    target = Document(Meta(language="pt"), rules=pt_rules, glossary=glossary_pt)
    return Context(lang="pt", target_doc=target, base_doc=base, current_doc=base, pairs=ps,
                   termbase=load_termbase(), term_renderings={"Mana": "Mana"})


def _rid(pairs, pair):
    return f"100.{pairs.index(pair) + 1}"


@pytest.fixture()
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path))
    return tmp_path


def _issues(mod, pairs, check):
    return {i.rule: i for i in mod.run(_context(pairs)) if i.check == check}


def test_dropped_modifiers_found_on_their_head(fresh_cache):
    from pipeline.align.checks import omission

    pairs = BASE + DEFECTS + FAITHFUL
    got = _issues(omission, pairs, "omission.dropped-modifier")
    also, other, mana = (_rid(pairs, p) for p in DEFECTS[:3])
    assert {also, other, mana} <= set(got)
    assert "“also”" in got[also].message and "também" in got[also].message
    assert "“other”" in got[other].message
    # "mana" of "mana cost": the finding sits on "custo", the head left without its modifier.
    assert got[mana].excerpt == "custo" and "“mana”" in got[mana].message
    # "other than" (a negation) and "each other" (a reciprocal) are not modifiers to count.
    assert not {_rid(pairs, p) for p in FAITHFUL} & set(got)
    assert not {_rid(pairs, p) for p in BASE} & set(got)


def test_restored_modifier_is_quiet(fresh_cache):
    from pipeline.align.checks import omission

    pairs = BASE + [("The creature also has a color.", "A criatura também tem uma cor."),
                    ("The player pays its mana cost.", "O jogador paga seu custo de mana.")]
    assert _issues(omission, pairs, "omission.dropped-modifier") == {}


def test_phrase_facts(fresh_cache):
    from pipeline.align.checks import phrases

    pairs = BASE + DEFECTS + FAITHFUL
    found = sorted((i.check, i.rule, i.excerpt) for i in phrases.run(_context(pairs)))
    r = [_rid(pairs, p) for p in DEFECTS[3:]]
    assert found == sorted([("meaning.flipped", r[0], "após"), ("meaning.flipped", r[1], "mais de um"),
                            ("omission.dropped-phrase", r[2], "não"), ("omission.added-modal", r[3], "pode")])


def test_phrase_facts_spell_or_ability_and_added_condition(fresh_cache):
    from pipeline.align.checks import phrases

    extra = [
        ("A player chooses the spell or ability that the mana is spent on.",
         "Um jogador escolhe a mágica na qual o mana é gasto."),  # "or ability" dropped
        ("The player reveals a card, then the creature attacks.",
         "Se o jogador revela um card, então a criatura ataca."),  # a condition added
        ("If the player reveals a card, the creature attacks.",
         "Se o jogador revela um card, a criatura ataca."),  # faithful
        ("A spell or ability resolves.", "Uma mágica ou habilidade resolve."),  # faithful
    ]
    pairs = BASE + extra
    found = sorted((i.check, i.rule, i.excerpt) for i in phrases.run(_context(pairs)))
    assert found == [("omission.added-modal", _rid(pairs, extra[1]), "Se"),
                     ("omission.dropped-phrase", _rid(pairs, extra[0]), "mágica")]


def test_owner_rendered_as_controller_is_flipped(fresh_cache):
    from pipeline.align.checks import phrases

    extra = [("The owner of the card draws a card.", "O controlador do card compra um card."),
             ("The owner of the creature reveals it.", "O dono da criatura a revela.")]
    pairs = BASE + extra
    found = sorted((i.check, i.rule, i.excerpt) for i in phrases.run(_context(pairs)))
    assert found == [("meaning.flipped", _rid(pairs, extra[0]), "controlador")]
