"""XLIFF 2.0 written by lxml, read back by an independent reader (translate-toolkit)."""

from __future__ import annotations

import pytest
from lxml import etree

from pipeline.align.model import AlignResult, Issue, Row, Score
from pipeline.model import BaseEdition
from pipeline.report.xliff import NS, render_xliff

xliff2 = pytest.importorskip("translate.storage.xliff2", reason="translate-toolkit is not installed")


def _result() -> AlignResult:
    rows = [
        Row("601.2b", "601.2b", "601.2b", "aligned", "number", target="Se a mágica é modal (consulte a regra 702.46).",
            source="If the spell is modal (see rule 702.46).", current="If the spell is modal (see rule 702.47).",
            issues=[Issue("references.stale", "references", "warning", "601.2b", "cites 702.46, renumbered 702.47",
                          (36, 42), "702.46", "702.47", "601.2b")]),
        Row("614.12a", "614.12a", "614.12a", "aligned", "number", target="Texto <script>alert(1)</script> & «aspas»",
            source="Text & \"quotes\"", current="Text", inferred_number=True,
            issues=[Issue("structure.inferred-number", "structure", "info", "614.12a", "number inferred")]),
        Row(None, "702.79b", "702.79b", "missing", "none", source="If a permanent has multiple instances of persist…",
            issues=[Issue("structure.missing", "structure", "error", None, "rule 702.79b is not translated",
                          base_id="702.79b")]),
    ]
    return AlignResult({"name": "t.txt", "language": "pt"}, BaseEdition("2019-06-12", "given"), "2025-11-14", rows, [],
                       Score(10, 1.0, 1.0, {}))


def _notes(unit) -> list[str]:
    # XLIFF 2.0 puts <notes> on the <unit>; translate-toolkit's unit object wraps the
    # <segment>, so its notes are read from the unit element it parsed.
    el = unit.getunitelement().find(f"{{{NS}}}notes")
    return [] if el is None else [n.text for n in el]


def test_translate_toolkit_reads_units_sources_targets_notes(tmp_path):
    data = render_xliff(_result())
    p = tmp_path / "a.xlf"
    p.write_bytes(data)
    store = xliff2.Xliff2File.parsefile(str(p))
    units = [u for u in store.units if not u.isheader()]
    assert [u.getid() for u in units] == ["601.2b", "614.12a", "missing-702.79b"]
    # Issue 12: the update XLIFF carries the current English; the base English is a note.
    assert units[0].source == "If the spell is modal (see rule 702.47)."
    assert any("see rule 702.46" in n for n in _notes(units[0]))
    assert units[0].target == "Se a mágica é modal (consulte a regra 702.46)."
    assert any("cites 702.46, renumbered 702.47" in n for n in _notes(units[0]))
    assert units[1].target == "Texto <script>alert(1)</script> & «aspas»"
    assert units[1].source == "Text"  # the current English; the base one is a note
    assert any('Text & "quotes"' in n for n in _notes(units[1]))
    assert any("number inferred" in n for n in _notes(units[1]))
    assert any("702.79b is not translated" in n for n in _notes(units[2]))
    assert not units[2].target
    assert store.gettargetlanguage() == "pt" and store.getsourcelanguage() == "en"


def test_structure_is_xliff_2_core():
    root = etree.fromstring(render_xliff(_result()))
    assert root.tag == f"{{{NS}}}xliff" and root.get("version") == "2.0"
    unit = root.find(f"{{{NS}}}file/{{{NS}}}unit")
    # Core order inside a unit: notes before segments.
    assert [etree.QName(c).localname for c in unit] == ["notes", "segment"]
    notes = unit.findall(f"{{{NS}}}notes/{{{NS}}}note")
    assert [n.get("category") for n in notes] == ["old-source", "references.stale"]
    assert notes[1].get("priority") == "5"
    assert unit.find(f"{{{NS}}}segment").get("state") == "needs-review"  # its English changed


def test_deterministic():
    assert render_xliff(_result()) == render_xliff(_result())
