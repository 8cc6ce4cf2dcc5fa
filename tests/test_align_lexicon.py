"""Issue 24, items 7 and 8: omissions/additions and term consistency learnt from the translation.

A small hand-written translation (three dozen sentence pairs) where the lexicon can be learnt:
a dropped negation and a minority rendering are found, the English word left in the text is
found, and faithful paraphrases ("can't draw more than" -> "pode comprar no máximo", "Each" ->
"Todo") are not.  Then the real pt-BR PO (skipped without ../shared).
"""

from __future__ import annotations

import pytest

from conftest import EDITIONS, SHARED

PAIRS = [
    ("Each player draws a card.", "Cada jogador compra um card."),
    ("A creature card has a color.", "Um card de criatura tem uma cor."),
    ("The color of a creature is not green.", "A cor de uma criatura não é verde."),
    ("A player may not draw a card.", "Um jogador não pode comprar um card."),
    ("Each creature has a color.", "Cada criatura tem uma cor."),
    ("The player chooses a color.", "O jogador escolhe uma cor."),
    ("A card in a hand is not on the battlefield.", "Um card em uma mão não está no campo de batalha."),
    ("Each player has a hand.", "Cada jogador tem uma mão."),
    ("A creature on the battlefield has a controller.", "Uma criatura no campo de batalha tem um controlador."),
    ("The player does not choose a creature.", "O jogador não escolhe uma criatura."),
    ("A color is chosen by each player.", "Uma cor é escolhida por cada jogador."),
    ("The creature is not a card.", "A criatura não é um card."),
    ("Each player chooses a color for each creature.", "Cada jogador escolhe uma cor para cada criatura."),
    ("The player draws a card from the graveyard.", "O jogador compra um card do cemitério."),
    ("A card is not in the graveyard.", "Um card não está no cemitério."),
    ("A creature card on the battlefield is a creature.", "Um card de criatura no campo de batalha é uma criatura."),
    ("A card in a hand is a card.", "Um card em uma mão é um card."),
    ("Each player draws a hand.", "Cada jogador compra uma mão."),
    ("The hand of a player is hidden.", "A mão de um jogador é oculta."),
    ("A player reveals the hand.", "Um jogador revela a mão."),
    ("The controller of a creature is a player.", "O controlador de uma criatura é um jogador."),
    ("A player chooses a creature on the battlefield.", "Um jogador escolhe uma criatura no campo de batalha."),
    ("The controller draws a card.", "O controlador compra um card."),
    ("A creature in the graveyard is a creature card.", "Uma criatura no cemitério é um card de criatura."),
    ("The player reveals a card from the graveyard.", "O jogador revela um card do cemitério."),
    ("Each controller chooses a player.", "Cada controlador escolhe um jogador."),
    ("A player draws a card and reveals the card.", "Um jogador compra um card e revela o card."),
    # The defects.
    ("The player chooses the color of a creature.", "O jogador escolhe a tonalidade de uma criatura."),  # minority
    ("A creature card that is not on the battlefield has no controller.",
     "Um card de criatura que está no campo de batalha tem um controlador."),  # negation dropped
    ("The player shuffles the hand.", "O jogador embaralha a hand."),  # English left
    # Faithful paraphrases: nothing to report.
    ("A player can't draw more than seven cards.", "Um jogador pode comprar no máximo sete cards."),
    ("Each creature card in a graveyard has a color.", "Todo card de criatura em um cemitério tem uma cor."),
    ("A player chooses a card, then reveals it.", "Um jogador escolhe um card e então o revela."),
]
MINORITY, DROPPED, LEFT = "100.28", "100.29", "100.30"
PARAPHRASES = ("100.31", "100.32", "100.33")


def _context(pairs=PAIRS):
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
    glossary_en = [GlossaryEntry("Color", "The five colors of the game."), GlossaryEntry("Hand", "Where a player holds cards.")]
    glossary_pt = [GlossaryEntry("Cor", "As cinco cores do jogo."), GlossaryEntry("Mão", "Onde um jogador mantém cards.")]
    base = Document(Meta(language="en"), rules=en_rules, glossary=glossary_en)
    target = Document(Meta(language="pt"), rules=pt_rules, glossary=glossary_pt)
    return Context(lang="pt", target_doc=target, base_doc=base, current_doc=base, pairs=ps,
                   termbase=load_termbase(), term_renderings={"Color": "Cor", "Hand": "Mão"})


@pytest.fixture()
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path))
    return tmp_path


def _found(mod, ctx):
    return sorted((i.check, i.rule, i.excerpt) for i in mod.run(ctx))


def test_lexicon_learnt_from_the_translation(fresh_cache):
    from pipeline.align import wordlex

    lex = wordlex.learn(_context())
    color, player = wordlex.stem("color", "en"), wordlex.stem("player", "en")
    assert lex.en.top(color)[0] == wordlex.stem("cor", "pt")
    assert lex.en.top(player)[0] == wordlex.stem("jogador", "pt")
    assert lex.en.reliability[player] == 1.0
    assert lex.tgt.shown(wordlex.stem("jogador", "pt")) == "jogador"
    # The links were cached under the training keys: a second context reads them back, equal.
    assert list((fresh_cache / "wordlex").glob("*.json"))
    again = wordlex.learn(_context())
    assert [u.links for u in again.units] == [u.links for u in lex.units]


def test_dropped_negation_found_and_paraphrases_quiet(fresh_cache):
    from pipeline.align.checks import omission

    found = _found(omission, _context())
    assert [(c, r) for c, r, _ in found] == [("omission.dropped", DROPPED)]
    issue = next(i for i in omission.run(_context()) if i.rule == DROPPED)
    assert "“not”" in issue.message and "no negation" in issue.message
    # "no" occurs once in this translation: no habit learnt, so it is not named
    assert "“no”" not in issue.message


def test_restoring_the_negation_silences_the_finding(fresh_cache):
    from pipeline.align.checks import omission

    pairs = list(PAIRS)
    i = int(DROPPED.split(".")[1]) - 1
    pairs[i] = (pairs[i][0], "Um card de criatura que não está no campo de batalha não tem controlador.")
    assert _found(omission, _context(pairs)) == []


def test_added_negation_found(fresh_cache):
    from pipeline.align.checks import omission

    pairs = list(PAIRS)
    i = int(PARAPHRASES[2].split(".")[1]) - 1
    pairs[i] = (pairs[i][0], "Um jogador não escolhe um card e então o revela.")
    found = _found(omission, _context(pairs))
    assert [(c, r) for c, r, _ in found] == [("omission.added", PARAPHRASES[2]), ("omission.dropped", DROPPED)]
    assert found[0][2] == "não"


def test_minority_rendering_and_english_left(fresh_cache):
    from pipeline.align.checks import termlearn

    issues = termlearn.run(_context())
    got = sorted((i.check, i.rule, i.excerpt, i.suggestion) for i in issues)
    assert got == [("terminology.english-left", LEFT, "hand", "Mão"),
                   ("terminology.minority", MINORITY, "tonalidade", "Cor")]
    assert not any(i.rule in PARAPHRASES for i in issues)


def test_a_term_the_team_keeps_in_english_is_not_flagged(fresh_cache):
    """When most rules write "hand" as it is, that is the team's rendering, not English left."""
    from pipeline.align.checks import termlearn

    pairs = [(en, pt.replace("mão", "hand")) for en, pt in PAIRS]
    ctx = _context(pairs)
    ctx.term_renderings = {"Color": "Cor", "Hand": "Hand"}
    assert not [i for i in termlearn.run(ctx) if i.check == "terminology.english-left"]


PO = SHARED / "corpus" / "translations" / "pt-BR" / "comprehensive-rules.pt-BR.po"


@pytest.fixture(scope="module")
def po_result(real_po_alignment):
    return real_po_alignment  # align_file(PO, EDITIONS), once per session (conftest)


def test_real_po_findings(po_result):
    """The findings judged true on the real PO (fitted: the thresholds were tuned on it)."""
    got = {(i.check, i.rule) for i in po_result.issues if i.check in ("omission.dropped", "omission.added")
           or i.check in ("terminology.minority", "terminology.english-left")}
    # 202.3d drops the "not" of "a split card not on the stack"; 103.2c writes "carta" where the
    # team writes "card"; 313 "Conspirações" where the team keeps "Conspiracy".
    assert {("omission.dropped", "202.3d"), ("terminology.minority", "313")} <= got
    # 103.2c's "carta" is named once, by the term base's majority check (round 5), which the
    # learnt minority check yields to.
    assert ("terminology.majority", "103.2c") in {(i.check, i.rule) for i in po_result.issues}
    # Front matter and credits (trademark lists) are not rule text: nothing is learnt or flagged there.
    assert not any(str(r).startswith(("front", "credits")) for _, r in got)
    assert len(got) <= 8  # precision first: a handful of findings, not one per paraphrase
    # One small meaning word at a time, at info level: "only" the translation renders everywhere else.
    words = [i for i in po_result.issues if i.check == "omission.dropped-word"]
    assert words and all(i.severity == "info" for i in words) and len(words) <= 15
    issue = next(i for i in po_result.issues if i.check == "omission.dropped" and i.rule == "202.3d")
    assert "“not”" in issue.message


def test_model1_port_links_as_nltk_does():
    """The numpy IBM model 1 gives NLTK's IBMModel1 links (same EM, NULL word and tie rule)."""
    nltk_translate = pytest.importorskip("nltk.translate", reason="NLTK (the test extra) is the reference")
    from pipeline.align import wordlex

    class Tok:
        def __init__(self, key):
            self.key = key

    class U:
        def __init__(self, src, tgt):
            self.src, self.tgt = [Tok(x) for x in src.split()], [Tok(x) for x in tgt.split()]

    units = [U("player draw card", "jogador compra card"), U("player discard card", "jogador descarta card"),
             U("opponent draw card card", "oponente compra card card"), U("counter spell", "anular mágica"),
             U("player counter spell", "jogador anula mágica"), U("draw", "comprar"),
             U("creature card graveyard", "card criatura cemitério"), U("graveyard", "cemitério")]
    bitext = [nltk_translate.AlignedSent([t.key for t in u.tgt], [s.key for s in u.src]) for u in units]
    nltk_translate.IBMModel1(bitext, wordlex.ITERATIONS)
    ref = [sorted((i, j) for j, i in b.alignment if i is not None) for b in bitext]
    assert wordlex._align(units) == ref
