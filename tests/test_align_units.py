"""Units of the alignment and its checks, on small hand-made documents (no shared data),
and property tests for the text parsers the checks stand on."""

from __future__ import annotations

import re
from pathlib import Path
from collections import Counter

from hypothesis import given, settings, strategies as st

from pipeline.align.aligner import align_documents
from pipeline.align.termbase import find_all, load_termbase, term_regex
from pipeline.align.text import english_names, number_anchors, sentences, symbol_spans
from pipeline.model import Document, Example, Meta, Rule
from pipeline.align.checks import all_checks
from pipeline.align.checks.damage import _unbalanced


def _doc(lang: str, rules: list[tuple[str, str]], examples: dict | None = None) -> Document:
    d = Document(meta=Meta(language=lang, effective_date="2025-11-14", kind="translation" if lang != "en" else "official"))
    for i, (rid, text) in enumerate(rules):
        parent = rid.rstrip("abcdefghijkmnpqrstuvwxyz") if rid[-1].isalpha() else rid.split(".")[0]
        d.rules.append(Rule(rid, text, [Example(e) for e in (examples or {}).get(rid, [])], parent=parent,
                            level="lettered" if rid[-1].isalpha() else "subrule", order=i))
    return d


EN = _doc("en", [
    ("202.3e", "When calculating the mana value of an object with an {X} in its mana cost, X is treated as 0."),
    ("601.2a", "To propose the casting of a spell, a player moves that card to the stack."),
    ("601.2b", "If the spell is modal, the player announces the mode choice (see rule 700.2). The player pays {2}{B}."),
    ("601.2c", "The player announces their choice of an appropriate player for each target the spell requires."),
    ("601.2d", "If the spell requires the player to divide damage among two targets, the player announces it."),
])


def _align(pt_rules, examples=None, **kw):
    tb = load_termbase()
    return align_documents(_doc("pt", pt_rules, examples), EN, EN, map_number=lambda n: n, termbase=tb, **kw)


GOOD = [
    ("202.3e", "Ao calcular o valor de mana de um objeto com um {X} em seu custo de mana, X é tratado como 0."),
    ("601.2a", "Para propor a conjuração de uma mágica, um jogador move aquele card para a pilha."),
    ("601.2b", "Se a mágica for modal, o jogador anuncia a escolha do modo (consulte a regra 700.2). O jogador paga {2}{B}."),
    ("601.2c", "O jogador anuncia sua escolha de um jogador apropriado para cada alvo que a mágica requer."),
    ("601.2d", "Se a mágica requer que o jogador divida dano entre dois alvos, o jogador anuncia isso."),
]


def _found(res):
    return sorted((i.rule or "", i.check) for i in res.issues)


def test_checks_have_ids_severities_and_explanations():
    checks = all_checks()
    assert len({c.id for c in checks}) == len(checks) >= 25
    for c in checks:
        assert re.fullmatch(r"[a-z]+\.[a-z-]+", c.id) and c.id.startswith(c.category + ".")
        assert c.severity in ("error", "warning", "info") and c.explanation.endswith(".")


def test_faithful_translation_draws_nothing():
    res = _align(GOOD)
    assert _found(res) == []
    assert [(r.id, r.base_id, r.status) for r in res.rows] == [(i, i, "aligned") for i, _ in GOOD]


def test_each_planted_defect_is_found_by_its_check():
    bad = dict(GOOD)
    bad["601.2b"] = bad["601.2b"].replace("700.2", "700.3").replace("{2}{B}", "{3}{B}")
    bad["601.2d"] = bad["601.2d"].replace("dois", "três")
    bad["202.3e"] = bad["202.3e"].replace("valor de mana", "custo de mana convertido")
    bad["601.2c"] = bad["601.2c"].replace("escolha de", "escolha  de").replace("apropriado", "aproprido") + " (x"
    res = _align(list(bad.items()))
    got = set(_found(res))
    assert ("601.2b", "references.mismatch") in got and ("601.2b", "anchors.symbols") in got
    assert ("601.2d", "anchors.numbers") in got
    assert ("202.3e", "terminology.renamed") in got
    assert {("601.2c", "damage.spacing"), ("601.2c", "damage.brackets")} <= got


def test_missing_extra_and_renumbered_rules():
    rules = [r for r in GOOD if r[0] != "601.2c"]
    # 601.2d's content under a number the English lacks: realigned by its anchors, not "extra".
    rules = [(("601.2y" if i == "601.2d" else i), t) for i, t in rules]
    rules.append(("601.2z", "Texto sem relação nenhuma com qualquer regra inglesa aqui presente."))
    res = _align(rules)
    rows = {r.id or f"missing:{r.base_id}": r for r in res.rows}
    assert rows["601.2y"].status == "realigned" and rows["601.2y"].base_id == "601.2d"
    assert rows["601.2z"].status == "extra"
    assert rows["missing:601.2c"].status == "missing"  # a gap between two translated siblings
    got = set(_found(res))
    assert ("601.2y", "structure.numbering") in got and ("601.2z", "structure.extra") in got
    assert any(i.check == "structure.missing" and i.base_id == "601.2c" for i in res.issues)


def test_consistency_both_ways():
    en = _doc("en", [("100.1a", "A player may concede the game at any time during play."),
                     ("100.1b", "A player may concede the game at any time during play."),
                     ("100.1c", "A player may concede the game at any time during play.")])
    pt = _doc("pt", [("100.1a", "Um jogador pode conceder o jogo a qualquer momento da partida."),
                     ("100.1b", "Um jogador pode conceder o jogo a qualquer momento da partida."),
                     ("100.1c", "Um jogador pode desistir do jogo a qualquer momento da partida.")])
    res = align_documents(pt, en, en, map_number=lambda n: n, termbase=load_termbase())
    assert [(i.rule, i.check) for i in res.issues if i.category == "consistency"] == [("100.1c", "consistency.source")]


def test_card_names_against_mtgjson(tmp_path):
    import json

    from pipeline.align.run import load_cards

    f = tmp_path / "set.json"
    f.write_text(json.dumps({"name": "Test", "code": "TST", "cards": [
        {"name": "Serra Angel", "layout": "normal", "rulings": [],
         "foreignNames": [{"language": "Portuguese (Brazil)", "name": "Anjo Serra"}]}]}), encoding="utf-8")
    cards = load_cards([f])
    en = _doc("en", [("100.1a", "Serra Angel has flying and vigilance.")])
    ok = _doc("pt", [("100.1a", "Anjo Serra (Serra Angel) tem voar e vigilância.")])
    bad = _doc("pt", [("100.1a", "Anjo da Serra (Serra Angel) tem voar e vigilância.")])
    tb = load_termbase()
    assert [i.check for i in align_documents(ok, en, en, map_number=lambda n: n, termbase=tb, cards=cards).issues
            if i.category in ("cardnames", "anchors")] == []
    res = align_documents(bad, en, en, map_number=lambda n: n, termbase=tb, cards=cards)
    iss = [i for i in res.issues if i.check == "cardnames.localized"]
    assert len(iss) == 1 and iss[0].suggestion == "Anjo Serra" and iss[0].excerpt == "da Serra"


def test_spanish_marks_and_quote_style():
    en = _doc("en", [("100.1a", "Who controls it? The player does.")])
    es = _doc("es", [("100.1a", "Quién lo controla? El jugador lo hace \"así\".")])
    res = align_documents(es, en, en, map_number=lambda n: n, termbase=load_termbase())
    got = {i.check for i in res.issues}
    assert "damage.spanish-marks" in got
    # One quoting rule is no prevailing style: nothing to depart from.
    assert "damage.quote-style" not in got


def test_quote_style_only_where_the_document_has_one():
    ids = [f"100.1{c}" for c in "abcdef"]
    en = _doc("en", [(i, "The player says “yes.”") for i in ids])
    curly = [(i, "O jogador diz “sim”.") for i in ids[:5]]
    mixed = _doc("pt", curly + [(ids[5], 'O jogador diz "sim".')])
    res = align_documents(mixed, en, en, map_number=lambda n: n, termbase=load_termbase())
    style = [i for i in res.issues if i.check == "damage.quote-style"]
    assert [i.rule for i in style] == [ids[5]] and "straight" in style[0].message
    straight = _doc("pt", [(i, 'O jogador diz "sim".') for i in ids])
    res = align_documents(straight, en, en, map_number=lambda n: n, termbase=load_termbase())
    assert not [i for i in res.issues if i.check == "damage.quote-style"]  # consistently straight: its style


def test_quote_pairs_as_written():
    en = _doc("en", [("100.1a", "The word “attach.”"), ("100.1b", "It is “modal.”"), ("100.1c", "A “loop” ends.")])
    pt = _doc("pt", [("100.1a", 'A palavra "anexar”.'), ("100.1b", "É ”modal“."), ("100.1c", "Um “loop” termina.")])
    res = align_documents(pt, en, en, map_number=lambda n: n, termbase=load_termbase())
    q = {i.rule: i.message for i in res.issues if i.check == "form.quotes"}
    assert set(q) == {"100.1a", "100.1b"}
    assert "straight quote closed by" in q["100.1a"] and "reversed" in q["100.1b"]


def test_score_is_per_thousand_words():
    res = _align(GOOD)
    assert res.score.points == 0 and res.score.words > 60
    bad = dict(GOOD)
    bad["601.2b"] = bad["601.2b"].replace("{2}{B}", "{3}{B}")
    res = _align(list(bad.items()))
    assert res.score.per_thousand_words == res.score.points * 1000 / res.score.words > 0


# -- property tests -------------------------------------------------------------------------

words_st = st.text(alphabet="abcdefghijklmnopqrstuvwxyzáéíõç ", min_size=0, max_size=60)


@given(st.lists(st.sampled_from(["{X}", "{2}", "{B}", "{T}", "{W/U}", "{10}"]), max_size=8), words_st)
def test_symbols_are_found_exactly(syms, filler):
    text = filler.join(syms) if filler.strip() else " ".join(syms)
    assert Counter(s for s, _ in symbol_spans(text)) == Counter(syms)


@given(st.lists(st.integers(min_value=0, max_value=999), max_size=6))
def test_counts_survive_around_rule_numbers(nums):
    text = " e ".join(str(n) for n in nums) + " (consulte a regra 601.2f)"
    assert Counter(v for v, _ in number_anchors(text, "pt")) == Counter(nums)


def _balanced(text: str, pairs: dict[str, str]) -> bool:
    """The reference the two property tests below hold the checks to: every closer ``pairs``
    names closes the last opener, and nothing is left open."""
    stack = []
    for ch in text:
        if ch in pairs.values():
            stack.append(ch)
        elif ch in pairs and (not stack or stack.pop() != pairs[ch]):
            return False
    return not stack


@given(st.lists(st.sampled_from(["(", ")", "[", "]", "x", " "]), max_size=30))
def test_balanced_iff_nothing_reported(chars):
    text = "".join(chars)
    bad = _unbalanced(text)
    assert (bad == []) == _balanced(text, {")": "(", "]": "["})
    assert all(text[i] == ch for ch, i in bad)


@given(st.lists(st.sampled_from(["“", "”", "«", "»", "x", " "]), max_size=30))
def test_quote_pairs_balanced_iff_nothing_reported(chars):
    from pipeline.align.checks.form import quote_problems

    text = "".join(chars)
    bad = quote_problems(text)
    assert (bad == []) == _balanced(text, {"”": "“", "»": "«"})
    assert all(0 <= a < b <= len(text) and text[a] in "“”«»" for a, b, _ in bad)


@given(st.lists(st.text(alphabet="abcdefghij ", min_size=3, max_size=20).map(str.strip).filter(bool), min_size=1, max_size=6))
def test_sentences_partition_text(parts):
    text = " ".join(p.capitalize() + "." for p in parts)
    spans = sentences(text)
    assert len(spans) == len(parts)
    assert all(text[a:b].endswith(".") for a, b in spans)


@settings(max_examples=60)
@given(st.sampled_from(["efeito de substituição", "valor de mana", "habilidade desencadeada", "campo de batalha"]),
       st.sampled_from(["", "s"]), words_st)
def test_term_regex_finds_inflections_and_nothing_inside_words(term, plural, filler):
    filler = re.sub(r"\s+", " ", filler)
    words = term.split()
    if plural:
        words = [w + ("es" if w.endswith("r") else "s") if i in (0, len(words) - 1) else w for i, w in enumerate(words)]
    inflected = " ".join(words)
    text = f"{filler} {inflected}. x{term}"
    spans = find_all(text, (term,))
    assert (text.index(inflected), text.index(inflected) + len(inflected)) in spans
    assert all(not text[a - 1].isalpha() for a, _ in spans if a > 0)


def test_english_names_in_parentheses():
    t = "Bastão Quimérico (Chimeric Staff) e Clone (Clone) (consulte a regra 707.2) (Entretanto, a cópia)"
    assert [n for n, _ in english_names(t)] == ["Chimeric Staff", "Clone"]
    assert term_regex("mana value").search("their mana values are")


def test_quoted_and_parenthesised_english_names_must_match_the_english():
    en = _doc("en", [("100.1a", "Voice of All says “Protection from the chosen color.”")])
    ok = _doc("es", [("100.1a", "«Voice of All» dice «Protección contra el color elegido».")])
    bad = _doc("es", [("100.1a", "«Voice of Al» dice «Protección contra el color elegido».")])
    tb = load_termbase()
    assert [i.check for i in align_documents(ok, en, en, map_number=lambda n: n, termbase=tb).issues] == []
    iss = [i for i in align_documents(bad, en, en, map_number=lambda n: n, termbase=tb).issues if i.check == "anchors.names"]
    assert len(iss) == 1 and iss[0].excerpt == "Voice of Al" and iss[0].suggestion == "Voice of All"


def test_readme_lists_the_registry():
    """The docs read the one registry: the README's table is the registry's own markdown."""
    from pipeline.align.checks.registry import markdown_table

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    table = readme.split("<!-- checks:begin -->\n", 1)[1].split("\n<!-- checks:end -->", 1)[0]
    assert table.strip() == markdown_table().strip()
