"""Issue 2, acceptance 4: the integrity check."""

from __future__ import annotations

import collections

import pytest

from conftest import edition, edition_files, needs_shared
from crfixture import CLEAN_RULES, document
from pipeline.qa.integrity import check, has_errors
from pipeline.segment.official import parse_text


def test_clean_fixture_has_no_findings():
    doc = parse_text(document())
    assert check(doc) == []
    assert doc.counts()["rules"] == 9 and doc.counts()["examples"] == 1 and doc.counts()["glossary_terms"] == 2


def test_five_planted_defects_each_reported_once():
    rules = list(CLEAN_RULES)

    def after(anchor: str, line: str) -> None:
        rules.insert(rules.index(anchor) + 1, line)

    after("100.1b A multiplayer game has more.", "100.1b The same number again.")  # duplicate
    after("100.2. Players need decks.", "100.4. Skips 100.3.")  # gap
    after("101.2. Mana value is a number (see rule 101.1).", "101.1b Belongs before 101.2.")  # out of order
    after("101.1a Fractions round down.", "101.1l Uses the letter l.")  # bad letter
    rules.append("101.7a Its parent 101.7 does not exist.")  # orphan
    doc = parse_text(document(rules))
    found = collections.Counter((f.kind, f.rule) for f in check(doc))
    assert found == collections.Counter({
        ("duplicate", "100.1b"): 1,
        ("gap", "100.4"): 1,
        ("out-of-order", "101.1b"): 1,
        ("bad-letter", "101.1l"): 1,
        ("orphan", "101.7a"): 1,
    })
    assert has_errors(check(doc))


def test_gap_is_reported_once_per_run():
    rules = CLEAN_RULES + ["101.5. After a gap of two."]
    doc = parse_text(document(rules))
    gaps = [f for f in check(doc) if f.kind == "gap"]
    assert len(gaps) == 1 and "101.3 to 101.4 are missing before 101.5" in gaps[0].detail


def test_contents_mismatch_and_unassigned_text():
    rules = CLEAN_RULES + ["102. Not In Contents", "102.1. Text."]
    doc = parse_text(document(rules))
    kinds = {f.kind for f in check(doc)}
    assert "body-missing-in-toc" in kinds


def test_truncated_document_is_an_error():
    doc = parse_text(document(CLEAN_RULES[:4]))  # fine
    assert not has_errors(check(doc))
    cut = document(CLEAN_RULES, glossary=False)
    doc = parse_text(cut)
    assert [f.kind for f in check(doc) if f.severity == "error"] == ["truncated"]


@needs_shared
@pytest.mark.parametrize("date", ["2025-11-14", "2026-01-16", "2019-06-12", "2009-07-11"])
def test_modern_editions_check_cleanly_or_with_real_anomalies(date):
    findings = check(edition(date))
    errors = [f for f in findings if f.severity == "error"]
    assert errors == []
    if date == "2009-07-11":
        # The source prints "702. 37a" and "702. 37b": read as 702.37a/b and reported.
        typos = [f.rule for f in findings if f.kind == "malformed-number"]
        assert typos == ["702.37a", "702.37b"]


@needs_shared
def test_every_edition_findings_are_explained():
    """Errors appear only where the source really has them (see the closing note's list)."""
    with_errors = {}
    for p in edition_files():
        errs = sorted({f.kind for f in check(edition(p.stem)) if f.severity == "error"})
        if errs:
            with_errors[p.stem] = errs
    assert with_errors["2013-02-01"] == ["truncated"]
    assert set(with_errors) <= {
        "2005-08-01", "2005-10-01", "2006-02-01", "2006-05-01", "2006-06-01", "2006-07-15", "2006-10-01",
        "2007-02-01", "2007-05-01", "2007-07-13", "2007-09-07", "2008-10-01", "2009-07-11", "2009-09-04",
        "2009-10-01", "2010-06-18", "2013-02-01",
    }
    # 2011–2026 have no numbering errors at all (2013-02-01 aside, which is cut short).
    assert not [d for d in with_errors if d >= "2011" and d != "2013-02-01"]
