"""Unit and property tests of the diff's parts on small hand-made documents."""

from __future__ import annotations

from hypothesis import given, note, settings, strategies as st

from pipeline.diff import diff_documents
from pipeline.diff.report_html import render_html
from pipeline.diff.report_md import render_markdown
from pipeline.diff.text import normalize, remap_refs
from pipeline.diff.worddiff import side, word_diff
from pipeline.model import Document, Example, GlossaryEntry, Meta, Rule

OLD_WORDS = ["player", "creature", "spell", "ability", "target", "card", "graveyard", "battlefield", "mana", "cost",
             "controller", "turn", "phase", "step", "damage", "counter", "token", "library", "hand", "exile"]
NEW_WORDS = ["sprocket", "lantern", "meadow", "quartz", "violin", "harbor", "saddle", "pepper", "glacier", "ribbon"]


def doc(texts: list[str], examples: dict[int, list[str]] | None = None, glossary=None, name="x.txt") -> Document:
    rules = [Rule("100", "General", level="rule", section=1)]
    for i, t in enumerate(texts, 1):
        rules.append(Rule(f"100.{i}", t, parent="100", level="subrule", section=1,
                          examples=[Example(e) for e in (examples or {}).get(i, [])]))
    rules[0].children = [r.id for r in rules[1:]]
    return Document(Meta(language="en", source_name=name, effective_date="2030-01-01"), rules=rules,
                    glossary=glossary or [])


# Rules are sentences of distinct words; inserted rules come from another vocabulary.
sentences = st.lists(st.sampled_from(OLD_WORDS), min_size=8, max_size=16, unique=True).map(" ".join)


@given(st.text(max_size=200), st.text(max_size=200))
def test_word_diff_rebuilds_both_sides(a, b):
    runs = word_diff(a, b)
    assert side(runs, "-") == a and side(runs, "+") == b
    assert all(op in "=-+" and t for op, t in runs)


@given(st.text(max_size=200))
def test_normalize_is_idempotent(t):
    assert normalize(normalize(t)) == normalize(t)


@settings(max_examples=40, deadline=None)
@given(st.lists(sentences, min_size=3, max_size=25, unique=True), st.data())
def test_deletions_and_insertions_are_found_exactly(texts, data):
    keep = [data.draw(st.booleans()) or len(texts) < 4 for _ in texts]
    new_texts = []
    inserted = []
    for t, k in zip(texts, keep):
        if data.draw(st.booleans()):
            fresh = " ".join(data.draw(st.lists(st.sampled_from(NEW_WORDS), min_size=8, max_size=10, unique=True)))
            if fresh not in inserted:
                inserted.append(fresh)
                new_texts.append(fresh)
        if k:
            new_texts.append(t)
    old, new = doc(texts), doc(new_texts)
    res = diff_documents(old, new)
    note(f"new texts: {new_texts}; changes: {[(c.kind, c.old, c.new) for c in res.changes]}")
    by_text_old = {r.text: r.id for r in old.rules[1:]}
    by_text_new = {r.text: r.id for r in new.rules[1:]}
    removed = {c.old for c in res.changes if c.kind == "removed"}
    added = {c.new for c in res.changes if c.kind == "added"}
    assert removed == {by_text_old[t] for t, k in zip(texts, keep) if not k}
    assert added == {by_text_new[t] for t in inserted}
    for t, k in zip(texts, keep):
        if k:
            assert res.pairs[by_text_old[t]] == by_text_new[t]
    assert all(c.kind in ("added", "removed", "moved") for c in res.changes)


def test_short_rule_that_grows_a_lot_is_modified():
    old = doc(["Color identity is established before the game begins.", "A player draws a card each turn."])
    new = doc(["Color identity is established before the game begins. If a rule or effect refers to the color "
               "identity of an object represented by a card, it uses the identity established for that card as "
               "the game began, even if the card later changes.", "A player draws a card each turn."])
    res = diff_documents(old, new)
    assert [(c.kind, c.old, c.new) for c in res.changes] == [("modified", "100.1", "100.1")]


def test_refs_only_needs_the_renumbering_to_explain_it():
    old = doc(["Alpha rule text that is long enough.", "Beta text. See rule 100.1.", "Gamma text. See rule 100.3."])
    new = doc(["Inserted brand new sprocket lantern meadow.", "Alpha rule text that is long enough.",
               "Beta text. See rule 100.2.", "Gamma text. See rule 100.9."])
    res = diff_documents(old, new)
    beta = res.find(old="100.2")[0]
    gamma = res.find(old="100.3")[0]
    assert beta.kind == "moved_modified" and beta.refs_only  # 100.1 became 100.2
    assert gamma.kind == "moved_modified" and not gamma.refs_only  # 100.3 became 100.4, not 100.9
    assert remap_refs("see 100.1 and 100.10", {"100.1": "100.2"}) == "see 100.2 and 100.10"


def test_examples_and_glossary_are_diffed():
    g_old = [GlossaryEntry("Converted Mana Cost", "The total amount of mana in a mana cost. See rule 100.2.")]
    g_new = [GlossaryEntry("Mana Value", "The total amount of mana in a mana cost. See rule 100.2."),
             GlossaryEntry("Ward", "A triggered ability.")]
    old = doc(["One rule about the stack.", "Two rules about costs."], {1: ["Example: a spell.", "Example: two."]}, g_old)
    new = doc(["One rule about the stack.", "Two rules about costs."], {1: ["Example: a spell!", "Example: three."]}, g_new)
    res = diff_documents(old, new)
    kinds = sorted((c.part, c.kind, c.old, c.new) for c in res.changes)
    assert kinds == [("example", "modified", "100.1", "100.1"), ("example", "modified", "100.1", "100.1"),
                     ("glossary", "added", None, "Ward"), ("glossary", "moved", "Converted Mana Cost", "Mana Value")]


def test_reports_escape_document_text():
    evil = '<script>alert("x")</script> & *bold* _it_'
    old = doc(["A quiet rule about the stack.", "Second rule text here."])
    new = doc(["A quiet rule about the stack. " + evil, "Second rule text here."])
    res = diff_documents(old, new)
    html = render_html(res)
    assert "<script>" not in html and "&lt;script&gt;" in html and "&amp;" in html
    md = render_markdown(res)
    assert "\\*bold\\*" in md and "\\<script\\>" in md
    assert md.rstrip().splitlines()[-1].startswith("For contrast, a plain line diff")
