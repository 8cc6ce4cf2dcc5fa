"""Property test of the PDF paragraph rebuilder: any wrapping of a small edition's lines,
including wraps that put a cited rule number at a line start, gives back its rules."""

from __future__ import annotations

import textwrap

from hypothesis import given, settings, strategies as st

from pipeline.decode import Decoded
from pipeline.ingest.pdf import rebuild_text
from pipeline.segment.official import parse_text

WORDS = ["player", "spell", "the", "card", "ability", "target", "each", "creature", "mana", "cost"]


@st.composite
def editions(draw):
    """Rules 100.1 … with lettered subrules; some texts cite a rule ("see rule 100.2.")."""
    rules: list[tuple[str, str]] = []
    n = draw(st.integers(2, 6))
    for i in range(1, n + 1):
        ids = [f"100.{i}"] + [f"100.{i}{c}" for c in "abc"[: draw(st.integers(0, 3))]]
        for rid in ids:
            words = draw(st.lists(st.sampled_from(WORDS), min_size=4, max_size=30))
            text = " ".join(words).capitalize()
            if draw(st.booleans()):
                text += f", see rule 100.{draw(st.integers(1, n))}"
            rules.append((rid, text + "."))
    return rules


@settings(max_examples=60, deadline=None)
@given(editions(), st.integers(25, 90))
def test_property_wrapped_lines_give_back_the_rules(rules, width):
    lines = ["Magic: The Gathering Comprehensive Rules", "These rules are effective as of June 12, 2019.",
             "Contents", "1. Game Concepts", "100. General", "Glossary", "Credits", "1. Game Concepts", "100. General"]
    for rid, text in rules:
        lines.extend(textwrap.wrap(f"{rid}{'.' if rid[-1].isdigit() else ''} {text}", width,
                                   break_long_words=False, break_on_hyphens=False))
    lines += ["Glossary", "Active Player", "The player whose turn it is.", "Credits", "Thanks."]
    doc = parse_text(Decoded(rebuild_text(lines), "pdf-text", "rebuilt"))
    got = [(r.id, r.text) for r in doc.rules if r.id != "100"]
    assert got == rules
    assert [g.term for g in doc.glossary] == ["Active Player"]
