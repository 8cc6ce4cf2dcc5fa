"""Issue 2, acceptance 1-3: every official English edition in the archive parses completely.

The counts are checked against an independent count made here with plain line scans,
not with the parser's own regular expressions.
"""

from __future__ import annotations

import re

import pytest

from conftest import EDITIONS, edition, edition_files, needs_shared
from pipeline.decode import read_text
from pipeline.render import render_body, render_document

pytestmark = needs_shared
DATES = [p.stem for p in edition_files()] or ["none"]


def _independent_counts(text: str) -> tuple[int, int, int, list[str]]:
    """Count rule lines, example lines and glossary terms by scanning lines directly.

    Rules body: from the second "1. …" heading (the first is in the Contents) to the
    last line that reads "Glossary".  A line beginning with a rule number is a rule,
    except where the previous line stops mid-sentence (ends in a word or a comma): in
    hard-wrapped editions that is a reference wrapped onto the next line ("See rule" /
    "409.1f–h.") — those are returned as exceptions with the reason.
    """
    lines = text.split("\n")
    starts = [i for i, l in enumerate(lines) if l.startswith("1. ")]
    body_start = starts[1]
    gloss = max(i for i, l in enumerate(lines) if l.strip() == "Glossary")
    credits = [i for i, l in enumerate(lines) if l.strip() == "Credits" and i > gloss]
    end = credits[-1] if credits else len(lines)
    rules = examples = 0
    exceptions = []
    for i in range(body_start, gloss):
        line = lines[i]
        head = line.lstrip()[:12]
        if head[:3].isdigit() and len(head) > 3 and head[3] in ". \t":
            prev = lines[i - 1].rstrip()
            if len(prev) > 40 and (prev[-1].isalnum() or prev[-1] == ","):
                exceptions.append(f"line {i + 1}: wrapped reference {line[:20]!r}")
                continue
            # "306.b" (a typo in 2008-10-01) is not a rule number
            num = head.split()[0].rstrip(".")
            if "." in num and not num.split(".")[1][:1].isdigit():
                exceptions.append(f"line {i + 1}: malformed number {num!r}")
                continue
            rules += 1
        elif line.lstrip().startswith("Example"):
            examples += 1
    terms = 0
    blank = True
    for line in lines[gloss + 1 : end]:
        if line.strip() and blank:
            terms += 1
        blank = not line.strip()
    return rules, examples, terms, exceptions


@pytest.mark.parametrize("date", DATES)
def test_edition_parses_completely(date):
    doc = edition(date)
    text = read_text(EDITIONS / f"{date}.txt").text
    assert "\ufffd" not in text
    assert all("\ufffd" not in r.text for r in doc.rules)
    # Nothing in the rules body or glossary is left without a rule.
    assert not [f for f in doc.findings if f.kind == "unassigned-line"]
    # The date comes from inside the document.
    assert doc.meta.effective_date and re.fullmatch(r"\d{4}-\d{2}-\d{2}", doc.meta.effective_date)
    assert doc.meta.effective_date_text in text
    rules, examples, terms, _ = _independent_counts(text)
    c = doc.counts()
    assert (c["rules"], c["examples"], c["glossary_terms"]) == (rules, examples, terms)


@pytest.mark.parametrize("date", DATES)
def test_round_trip(date):
    """Rendering the model gives back the source after line-ending/BOM normalisation only."""
    doc = edition(date)
    text = read_text(EDITIONS / f"{date}.txt").text
    assert render_document(doc) == text
    body = render_body(doc)
    assert body and body in text


def test_2025_11_14_counts_and_structure(cr_2025):
    c = cr_2025.counts()
    assert c["rules"] == 3255 and c["three_digit_rules"] == 146 and c["subrules"] == 3109
    assert c["examples"] == 276 and c["glossary_terms"] == 725
    assert cr_2025.meta.effective_date == "2025-11-14"
    assert cr_2025.rule("702.79a").text.startswith("Persist is a triggered ability")
    assert cr_2025.rule("702.79").text == "Persist"
    r = cr_2025.rule("707.10")
    assert len(r.examples) == 3
    assert r.examples[0].text.startswith("Example: A player casts Fork")
    assert r.examples[1].text.startswith("Example: Fling is an instant")
    assert r.examples[2].text.startswith("Example: Dawnglow Infusion")
    assert cr_2025.glossary_term("Mana Value") is not None
    assert cr_2025.glossary_term("Team vs. Team Variant") is not None
    assert cr_2025.rule("601.2b").parent == "601.2"
    assert cr_2025.rule("601.2").parent == "601"
    assert "601.2b" in cr_2025.rule("601.2").children
    assert cr_2025.rule("601").parent is None and cr_2025.rule("601").section == 6
    # Persist's glossary entry points at its rule.
    assert "702.79" in cr_2025.glossary_term("Persist").refs


def test_no_example_cap_and_dotted_terms():
    """The other parsers keep at most 3 examples per rule and drop terms with a dot."""
    doc = edition("2025-11-14")
    most = max(len(r.examples) for r in doc.rules)
    assert most > 3
    assert any("." in g.term for g in doc.glossary)


def test_rules_without_blank_line_between_them_stay_apart():
    from pipeline.segment.official import parse_text

    src = (EDITIONS / "2025-11-14.txt").read_bytes().decode("utf-8-sig").replace("\r\n", "\n")
    squeezed = src.replace("\n\n601.2b ", "\n601.2b ", 1)
    doc = parse_text(squeezed)
    assert doc.rule("601.2a") is not None and doc.rule("601.2b") is not None
    assert not doc.rule("601.2a").text.count("601.2b ")


def test_lying_file_names_and_truncation_are_findings():
    old = edition("2006-06-01")
    assert old.meta.effective_date == "2004-06-01"
    assert any(f.kind == "file-name-date" and f.severity == "warning" for f in old.findings)
    cut = edition("2013-02-01")
    assert any(f.kind == "truncated" and f.severity == "error" for f in cut.findings)


def test_encodings_are_recorded():
    seen = {edition(p.stem).meta.encoding for p in edition_files()}
    assert {"utf-8-sig", "ascii", "cp1252", "cp437", "mac_roman"} <= seen
    assert {"utf-16-le", "utf-16-be"} <= seen
    assert "Dandân" in render_document(edition("2006-07-15"))
    assert "Æther" in render_document(edition("2013-07-11"))
