"""The grammar check: LibreOffice's Lightproof pt-BR rules run without LibreOffice.

The fixture tests run whenever the rule set is installed (Debian libreoffice-lightproof-pt-br,
or unpacked by .ci/run) and skip otherwise; the last ones need the real PO and seed in ../shared.
"""

from __future__ import annotations

import dataclasses
import sys
from types import SimpleNamespace

import pytest

from conftest import SEEDS, SHARED

from pipeline.align.checks import grammar as G
from pipeline.align.lightproof import find_rule_files, regex_requirements, token_requirement
from pipeline.profiles import grammar as GP

FILES = find_rule_files(GP.PT.search_folders(), GP.PT.pkg)
needs_rules = pytest.mark.skipif(FILES is None, reason="Lightproof pt-BR rules not installed "
                                 "(Debian libreoffice-lightproof-pt-br; .ci/run unpacks it)")
PO = SHARED / "corpus" / "translations" / "pt-BR" / "comprehensive-rules.pt-BR.po"


@pytest.fixture(scope="module")
def kept():
    return G.engine("pt", GP.PT.kept())


def _found(lp, text):
    return [(text[h.start:h.end], h.family, h.suggestions) for h in lp.check(text)]


# -- the requirement extraction (no rule set needed) ------------------------------------------

def test_literal_requirements_come_from_mandatory_parts_only():
    reqs = regex_requirements(r"(?u)(?<![-\w–.,])([Nn])ão da (?P<x>[a-z]+)(?:zzz)?(?![-\w])")
    assert frozenset({"Não da ", "não da "}) in reqs
    assert not any("zzz" in s for r in reqs for s in r)  # optional: never required
    # An alternation of literals requires one of its branches, with the literal that follows.
    assert regex_requirements(r"(assim|lhe) x") == [frozenset({"assim x", "lhe x"})]
    # An open-ended branch breaks the run: each branch's own literal is required.
    assert regex_requirements(r"(?:ab[0-9]+|cd[a-z]+)e") == [frozenset({"ab", "cd"}), frozenset({"e"})]


def test_token_requirement_reads_where_a_group_sits_in_its_token():
    p = r"(?u)(?<![-\w–.,])(?P<a>[a-zA-Z]+) (?P<b>[a-zA-Záâ]+[a])s(?![-\w])"
    assert token_requirement(p, "b") == ["s"]  # the token is the group's text + "s"
    assert token_requirement(p, "a") == [""]  # the token is the group's text
    # Glued to a letter before it: the group does not start a token, so nothing is known.
    assert token_requirement(r"(?u)([Tt])(?P<v>[a-z]+) acesso", "v") is False


# -- the adapter and the families -------------------------------------------------------------

@needs_rules
def test_runtime_runs_without_uno_and_asks_hunspell():
    lp = G.engine("pt", GP.PT.kept())
    assert "uno" not in sys.modules
    ns = lp.ns
    assert isinstance(ns["plvrFema"], set) and "regra" in ns["plvrFema"]  # the runtime's word lists
    assert ns["option"](lp.locale, "grammar") and not ns["option"](lp.locale, "times")  # package defaults
    from pipeline.segment.hunspell import speller

    if speller("pt") is None:
        pytest.skip("no pt Hunspell dictionary")
    assert ns["spell"](lp.locale, "regras") is True and ns["spell"](lp.locale, "rregras") is False
    assert "jogar" in ns["stem"](lp.locale, "joga")
    assert ns["morph"](lp.locale, "joga", r"st:jogar") == "st:jogar"
    assert ns["affix"](lp.locale, "joga", r"st:") is None  # no affix fields in pt_BR.dic
    assert "regras" in ns["suggest"](lp.locale, "rregras").split("\n")


@needs_rules
@pytest.mark.parametrize("text,span,family,suggestion", [
    ("Ele revela as carta do grimório.", "as carta", "msg:Não há concordância entre as palavras./P", "as cartas"),
    ("Todo dano marcado em um criatura é removido.", "um criatura", "msg:Não há concordância entre as palavras./P",
     "uma criatura"),
    ("Algumas variantes tem totais diferentes.", "Algumas variantes tem", "msg:Não há concordância verbal./M",
     "Algumas variantes têm"),
    ("O efeito instrui o jogador à adicionar mana.", "à adicionar", "grammar", "a adicionar"),
    ("Há uma equipe inicial ao invés de um jogador inicial.", "ao invés de",
     'msg:Invés = contrário. Ex.: "Novo ao invés de velho". "Em vez de" significa "no lugar de"./-', "em vez de"),
    ("O jogador anuncia (consulte a regras 117.8 e 117.9) o custo.", "a regras", GP.ARTICLE_BEFORE_RULE_NUMBERS,
     "as regras"),
])
def test_kept_families_find_their_defect(kept, text, span, family, suggestion):
    found = _found(kept, text)
    assert any(s == span and f == family and suggestion in sug for s, f, sug in found), found


@needs_rules
@pytest.mark.parametrize("text", [
    "Ele revela as cartas do grimório.",
    "Algumas variantes têm totais diferentes.",
    "O efeito instrui o jogador a adicionar mana em vez de comprar um card.",
    "Essa regra aplica-se a regras de jogo.",  # "a" the preposition before a plural: no article error
])
def test_kept_families_leave_correct_text_alone(kept, text):
    assert _found(kept, text) == []


@needs_rules
def test_prefilter_misses_nothing_the_brute_force_finds():
    """Every rule of the file (every family, default options) run on every sentence gives the
    same hits as the indexed run: the index only ever skips rules that cannot match."""
    every = G.engine("pt", None)
    texts = ["Ele revela as carta e os componente, e essas efeitos dispara à adicionar.",
             "Se ele forem atacados, nenhuma das habilidade foi ativada, igual a quantidade paga.",
             'Algumas efeitos dos coleções são desencadeadas; "um jogadores" é desencadeadas - ao invés de 0 pontos.',
             "Esta regra aplica-se quando se escolhe os alvos ( consulte a regra 601 ) , e um mana híbrido."]
    total = 0
    for text in texts:
        brute = [h for i in every.active() for h in every.run_rule(i, text)]
        total += len(brute)
        assert every.check(text) == brute
    assert total >= 15  # the sentences are full of defects: the comparison is not vacuous


def _pair(target, source):
    return SimpleNamespace(target_text=target, source_text=source)


@needs_rules
def test_english_names_are_masked_not_the_portuguese_around_them(kept):
    # The same defect inside an English name in parentheses is not reported; outside it is
    # (Lightproof does flag "Um Jogadores" when it is not masked).
    assert _found(kept, "x Um Jogadores y")
    text = "Exemplo: um jogadores (Um Jogadores) entra no campo de batalha."
    hits = G.hits(_pair(text, "Example: a player (Um Jogadores) enters the battlefield."), kept)
    assert [text[a:b] for (a, b), _ in hits] == ["um jogadores"]
    # Capitalised words the English has too (a card name kept in English) are masked.
    text = "Exemplo: Das Habilidade entra e das habilidade saem."
    hits = G.hits(_pair(text, "Example: Das Habilidade enters."), kept)
    assert [text[a:b] for (a, b), _ in hits] == ["das habilidade"]


@needs_rules
def test_findings_name_the_check_and_the_suggestion(kept):
    from pipeline.align.checks import Context, Pair
    from pipeline.align.model import Row, RowMethod, RowStatus
    from pipeline.model import Document, Rule

    text = "Algumas efeitos dos coleções têm um mana branco."
    row = Row("100.1", "100.1", "100.1", RowStatus.ALIGNED, RowMethod.NUMBER, text, "Some effects.", "Some effects.")
    rule = SimpleNamespace(text=text, example_texts=[])
    src = SimpleNamespace(text="Some effects of collections have one white mana.", example_texts=[])
    pair = Pair(row, rule, src, src)
    ctx = Context(lang="pt", target_doc=None, base_doc=None, current_doc=None, pairs=[pair])
    issues = G.run(ctx)
    got = {(i.check, i.excerpt, i.suggestion) for i in issues}
    assert ("grammar.agreement", "Algumas efeitos", "Alguns efeitos") in got
    assert ("grammar.agreement", "dos coleções", "das coleções") in got
    assert not any("mana" in (i.excerpt or "") for i in issues)  # the game's "um mana"
    assert all(i.category == "grammar" and i.severity == "warning" and i.span for i in issues)


def test_missing_rule_set_reports_nothing_and_says_why(monkeypatch, tmp_path):
    from pipeline.align import aligner

    monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path))
    monkeypatch.setenv("CRPIPE_LIGHTPROOF_DIR", str(tmp_path / "none"))
    monkeypatch.setitem(GP.PROFILES, "pt", dataclasses.replace(GP.PT, folders=()))
    reason = G.missing_reason("pt")
    assert reason and "libreoffice-lightproof-pt-br" in reason and "dpkg-deb -x" in reason
    assert G.engine("pt") is None
    ctx = SimpleNamespace(lang="pt", aligned=[_pair("as carta", "")])
    assert G.run(ctx) == []
    assert any(n.startswith("grammar not checked") for n in aligner._notes(object(), "pt"))
    assert G.missing_reason("en") is None  # no grammar profile: nothing to say


def test_damaged_rule_set_reports_nothing_and_says_why(monkeypatch, tmp_path):
    from pipeline.align import aligner

    lp = tmp_path / "lightproof_pt_br" / "pythonpath"
    lp.mkdir(parents=True)
    (lp / "lightproof_pt_BR.py").write_text("dic = [['(?u)x', 'y', 'z', False]]\n", encoding="utf-8")
    (lp / "lightproof_impl_pt_BR.py").write_bytes(b"word = \xff\xfe not utf-8\n")
    monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("CRPIPE_LIGHTPROOF_DIR", str(lp.parent))
    monkeypatch.setattr(G, "_FAILED", {})
    assert G.engine("pt", ("x",)) is None
    reason = G.missing_reason("pt")
    assert reason.startswith("grammar not checked") and "could not be loaded" in reason
    assert G.run(SimpleNamespace(lang="pt", aligned=[_pair("as carta", "")])) == []
    assert reason in aligner._notes(object(), "pt")


# -- the real translation ---------------------------------------------------------------------

@needs_rules
@pytest.mark.skipif(not PO.is_file(), reason=f"the pt-BR PO is not in {SHARED}")
def test_real_po_findings_are_the_judged_ones(real_po_alignment):
    res = real_po_alignment  # align_file(PO, SHARED / "corpus" / "cr-en" / "txt"), once per session (conftest)
    got = {(r.id, i.excerpt) for r in res.rows for i in r.issues if i.category == "grammar"}
    for expected in [("104.4e", "esse jogadores"), ("302.7", "um criatura"), ("118.7a", "os componente"),
                     ("119.1", "Algumas variantes tem"), ("106.3", "à adicionar"), ("119.10", "essas efeitos"),
                     ("103.1a", "ao invés de")]:
        assert expected in got, expected
    # Lightproof's dictionary gender of "mana" is not the game's: none of its findings name it (the
    # learnt grammar.team-gender names the translation's own minority, "uma mana", instead).
    assert not any("mana" in i.excerpt for r in res.rows for i in r.issues
                   if i.check == "grammar.agreement" and i.excerpt)
    assert not any(n.startswith("grammar not checked") for n in res.notes)


@needs_rules
@pytest.mark.skipif(not (SEEDS / "000_460f8bf0ecd0529f.txt").is_file(), reason=f"seed 000 is not in {SEEDS}")
def test_seed_000_reports_a_regras_in_601_2b():
    from pipeline.align.run import align_file

    res = align_file(SEEDS / "000_460f8bf0ecd0529f.txt", SHARED / "corpus" / "cr-en" / "txt")
    row = next(r for r in res.rows if r.id == "601.2b")
    got = [(i.check, i.excerpt, i.suggestion) for i in row.issues if i.category == "grammar"]
    assert ("grammar.agreement", "a regras", "as regras") in got
    # "anuncia o se tem intenção": an article before the clitic "se" (the profile's rule).
    assert any(c == "grammar.word" and e == "o se tem" for c, e, _ in got), got
