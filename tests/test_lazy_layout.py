"""The model's lazy layouts (issue 18): the parser stores a one-line paragraph's layout as a
``(before, head, tail)`` tuple; every reader still sees a :class:`Layout`."""

from __future__ import annotations

import copy
import json
import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.model import Document, Example, GlossaryEntry, Layout, Rule, Section
from pipeline.render import render_document as render
from pipeline.segment.official import parse_text

TEXT = """Magic: The Gathering Comprehensive Rules

These rules are effective as of November 14, 2025.

Introduction

Some words.

Contents

1. Game Concepts
100. General

Glossary

Credits

1. Game Concepts

100. General

100.1. These Magic rules apply to any Magic game.

100.1a A two-player game is a game that begins with only two players.
Example: Two players play a game.

Glossary

Active Player
The player whose turn it is. See rule 100.1.

Credits

Everyone.
"""


def test_a_tuple_is_read_as_a_layout_and_kept():
    for obj in (Rule("100.1", "x", layout=("\n", "100.1. ", " ")), Example("Example: x", 3, ("\n", "", "")),
                Section(1, "Game Concepts", 0, 1, ("\n\n", "1. ", "")),
                GlossaryEntry("Active Player", "The player whose turn it is.", [], 3, ("\n\n", "Active Player", ""))):
        lay = obj.layout
        assert type(lay) is Layout and lay.breaks == []
        assert obj.layout is lay  # made once, then stored
    r = Rule("100.1", "x", layout=("\n", "100.1. ", " "))
    assert r.layout == Layout("\n", "100.1. ", [], " ")
    s = Rule("100.1", "x", layout=". ")  # a rule's usual layout: the separator after its id
    assert s.layout == Layout("\n\n", "100.1. ", [], "") and s.layout is s.layout
    r.layout = Layout(head="z")
    assert r.layout.head == "z"


def test_lazy_layouts_survive_copy_pickle_and_equality():
    a = Rule("100.1", "x", layout=("\n", "100.1. ", ""))
    b = Rule("100.1", "x", layout=Layout("\n", "100.1. ", [], ""))
    assert a == b
    for c in (copy.deepcopy(Rule("100.1", "x", layout=("\n", "h", ""))),
              pickle.loads(pickle.dumps(Rule("100.1", "x", layout=("\n", "h", ""))))):
        assert c.layout == Layout("\n", "h", [], "")


def test_parsed_text_round_trips_through_json_and_render():
    doc = parse_text(TEXT)
    assert [r.id for r in doc.rules] == ["100", "100.1", "100.1a"]
    assert all(type(r.layout) is Layout for r in doc.rules)
    assert [(g.term, g.refs, g.layout) for g in doc.glossary] == [
        ("Active Player", ["100.1"], Layout("\n\n", "Active Player", [], ""))]
    assert render(doc) == TEXT
    again = Document.from_dict(json.loads(json.dumps(doc.to_dict())))
    assert json.dumps(again.to_dict(), sort_keys=True) == json.dumps(doc.to_dict(), sort_keys=True)
    assert render(again) == TEXT


def test_parsing_restores_the_collector_and_respects_an_applications_freeze():
    import gc

    assert gc.isenabled()
    parse_text(TEXT)
    assert gc.isenabled() and gc.get_freeze_count() == 0  # the model joined the oldest generation
    keep = [[i] for i in range(100)]
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        parse_text(TEXT)
        assert gc.get_freeze_count() == frozen and gc.isenabled()  # not unfrozen behind the application's back
    finally:
        gc.unfreeze()
    del keep


def test_glossary_refs_are_found_when_first_read_and_behave_as_a_list():
    from pipeline.model import Deferred
    from pipeline.segment.official import glossary_refs

    g = GlossaryEntry("Attach", "See rules 701.3, 301.5c and 701.3.", Deferred(glossary_refs, "See rules 701.3, 301.5c and 701.3."))
    assert g.refs == ["301.5c", "701.3"]  # once each, in rule order
    assert g.refs is g.refs  # found once, then kept
    g.refs.append("100.1")
    assert g.refs[-1] == "100.1"
    g.refs = ["702.2"]
    assert g.refs == ["702.2"]
    # Found from the definition as parsed, not as later edited.
    h = GlossaryEntry("Bury", "See rule 701.1.", Deferred(glossary_refs, "See rule 701.1."))
    h.definition = "No rule."
    assert h.refs == ["701.1"]
    for c in (copy.deepcopy(GlossaryEntry("X", "See rule 100.1.", Deferred(glossary_refs, "See rule 100.1."))),
              pickle.loads(pickle.dumps(GlossaryEntry("X", "See rule 100.1.", Deferred(glossary_refs, "See rule 100.1."))))):
        assert c.refs == ["100.1"] and type(c.refs) is list
    assert GlossaryEntry("Y", "z").refs == [] and GlossaryEntry("Y", "z", refs=["1"]).refs == ["1"]
    doc = parse_text(TEXT)
    assert doc.glossary[0] == GlossaryEntry("Active Player", "The player whose turn it is. See rule 100.1.", ["100.1"], 29,
                                            Layout("\n\n", "Active Player", [], ""))


def test_fields_the_parser_leaves_unset_read_as_their_defaults():
    doc = parse_text(TEXT)
    lettered = doc.rules[2]
    built = Rule("100.1a", "A two-player game is a game that begins with only two players.", parent="100.1",
                 section=1, level=lettered.level, order=lettered.order, line=lettered.line,
                 layout=Layout("\n\n", "100.1a ", [], ""))
    built.examples.append(Example("Example: Two players play a game.", lettered.examples[0].line,
                                  Layout("\n", "", [], "")))
    assert lettered == built and lettered.children == [] and lettered.inferred_number is False
    rule = doc.rules[1]  # none of its fields read yet: copies must fill them too
    for c in (copy.copy(rule), copy.deepcopy(rule), pickle.loads(pickle.dumps(rule))):
        assert c == rule and c.examples == [] and c.children == ["100.1a"]
    fresh = parse_text(TEXT).rules[1]
    assert fresh.examples == [] and fresh.examples is fresh.examples  # filled once, then a plain slot
    fresh.examples.append(Example("x"))
    assert len(fresh.examples) == 1 and parse_text(TEXT).rules[1].examples == []  # never shared
    assert fresh.number == rule.number
    try:
        fresh.no_such_field
    except AttributeError as e:
        assert "no_such_field" in str(e)
    else:
        raise AssertionError("an unknown attribute must raise AttributeError")


_LINES = ["100. General", "100.1. These rules apply.", "100.1a A game.", "  100.1b Indented.", "702.19c Trample.",
          "1. Game Concepts", "2. Parts of a Card", "Example: A player attacks.", "   Example: indented.",
          "a wrapped continuation", "  an indented continuation", "", "", "  ", "see rule", "502.5. Untap.",
          "606. 8b Players win.", "100.1a trailing  ", "Glossary", "Credits"]


@given(st.lists(st.sampled_from(_LINES), max_size=60), st.integers(1, 400), st.booleans())
@settings(max_examples=300, deadline=None)
def test_the_windowed_scan_finds_what_one_scan_finds(lines, window, final_newline):
    from pipeline.segment.official import START, _windows

    text = "head\n" + "\n".join(lines) + ("\n" if final_newline else "")
    start = text.find("\n")
    found = [t for got in _windows(text, start, len(text), window) for t in got]
    assert found == START.findall(text, start, len(text))
