"""Aligning a bilingual translator file (PO/POT, XLIFF 1.2/2.0): base edition pinned from the
unit sources, translated rules checked, untranslated units reported once as coverage."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from ..editions.base import edition_files
from ..diff.context import editions_of, resolve_editions
from ..errors import InputError
from ..ingest.bilingual import BilingualFile, read_bilingual, sniff, target_language
from ..io import read_bounded
from ..model import BaseMethod, Document, EditionRange, Meta, Pin
from ..ingest.units import (Coverage, Placed, PlacedKind, UnitSpan, as_written, coverage_of, edition_paragraphs,
                             pin_base_edition, place_units, units_document)
from ..model import Example
from .aligner import align_documents
from .model import Row, RowKind, RowMethod, RowStatus, TextUnit
from .unit_update import plan_unit_update

#: Placed kinds read as rows of their own (rules, headings and examples are the rules' rows).
_TEXT_KINDS = {PlacedKind.GLOSSARY_TERM: RowKind.GLOSSARY, PlacedKind.GLOSSARY_DEFINITION: RowKind.GLOSSARY,
               PlacedKind.SECTION: RowKind.SECTION, PlacedKind.FRONT: RowKind.FRONT, PlacedKind.OTHER: RowKind.FRONT,
               PlacedKind.CREDITS: RowKind.CREDITS}


@dataclass
class UnitsInfo:
    """What the aligner needs to know about the units behind the translated rules."""

    file: BilingualFile
    placed: list[Placed]
    coverage: Coverage
    pin: Pin
    accounted: set[str] = field(default_factory=set)
    #: row id -> where each stretch of its translated segment comes from (rules and text rows).
    spans: dict[str, list[UnitSpan]] = field(default_factory=dict)

    def text_rows(self) -> list[tuple[Row, TextUnit, TextUnit]]:
        """Every translated unit that is not part of a rule, as a row a check reads: a glossary
        entry (its term, then each definition paragraph), a section title, each paragraph of the
        front matter and the credits.  The English is the unit's own source (the base edition's
        paragraph), both sides as written."""
        groups: list[tuple[RowKind, str, list[Placed]]] = []
        for p in self.placed:
            kind = _TEXT_KINDS.get(p.kind)
            if kind is None or not p.unit.translated or p.english_target:
                continue
            if kind is RowKind.GLOSSARY:
                term = p.glossary_term or p.unit.source.strip()
                if (groups and groups[-1][0] is RowKind.GLOSSARY and groups[-1][1] == term
                        and p.kind != PlacedKind.GLOSSARY_TERM):
                    groups[-1][2].append(p)
                    continue
                groups.append((kind, term, [p]))
            else:
                groups.append((kind, str(p.unit.order), [p]))
        out = []
        for kind, key, members in groups:
            rid = f"glossary: {key}" if kind is RowKind.GLOSSARY else f"{kind.value} #{key}"
            tgt = [as_written(m.unit.target, strip_number=False) for m in members]
            src = [as_written(m.unit.source, strip_number=False)[1] for m in members]
            pos, spans = 0, []
            for m, (off, t) in zip(members, tgt):
                spans.append(UnitSpan(pos, pos + len(t), m.unit, off))
                pos += len(t) + 1
            self.spans[rid] = spans
            target = TextUnit(rid, tgt[0][1], [Example(t) for _, t in tgt[1:]])
            base = TextUnit(rid, src[0], [Example(t) for t in src[1:]])
            row = Row(rid, rid, None, RowStatus.ALIGNED, RowMethod.UNIT, "\n".join(t for _, t in tgt), "\n".join(src),
                      "", kind=kind, units=[{"id": m.unit.id[:80], "location": m.unit.location, "kind": m.kind,
                                              "piece": i} for i, m in enumerate(members)])
            out.append((row, target, base))
        return out

    def locate(self, issue) -> None:
        """Point a finding at its unit: ``issue.unit`` (the location) and ``issue.unit_span``."""
        spans = self.spans.get(issue.rule or "")
        if not spans or issue.unit is not None:
            return
        if issue.span is None:
            issue.unit = spans[0].unit.location
            return
        a, b = issue.span
        for s in spans:
            if s.start <= a <= s.end:
                issue.unit = s.unit.location
                issue.unit_span = (s.offset + a - s.start, s.offset + min(b, s.end) - s.start)
                return

    def term_renderings(self) -> dict[str, str]:
        """English glossary term -> the translation's rendering of it (its translated glossary unit)."""
        return {p.glossary_term: " ".join(p.unit.target.split()) for p in self.placed
                if p.kind == PlacedKind.GLOSSARY_TERM and p.unit.translated and not p.english_target and p.glossary_term}

    def units_of(self, rule_id: str | None) -> list[dict]:
        if rule_id is None:
            return []
        if not hasattr(self, "_by_rule"):
            by: dict[str, list[dict]] = {}
            for p in self.placed:
                if p.rule and p.unit.translated and p.kind in (PlacedKind.RULE, PlacedKind.HEADING,
                                                               PlacedKind.CONTINUATION, PlacedKind.EXAMPLE):
                    by.setdefault(p.rule, []).append({"id": p.unit.id[:80], "location": p.unit.location,
                                                      "kind": p.kind, "piece": p.piece})
            self._by_rule = by
        return self._by_rule.get(rule_id, [])


def is_bilingual(path: Path) -> bool:
    if path.is_dir() or not path.exists():
        return False
    return sniff(read_bounded(path)[:65536], path.name) is not None


def _pin(bf: BilingualFile, reference) -> Pin:
    editions = editions_of(reference)
    if editions is not None:
        return pin_base_edition(bf.units, editions)
    paras = edition_paragraphs(reference)
    n = sum(1 for u in bf.units if " ".join(u.source.split()) in paras)
    return Pin(label=reference.stem, matched=n, units=len(bf.units), share=round(n / len(bf.units), 4),
               tied=[reference.stem], runner_up=None, method=BaseMethod.GIVEN,
               how=f"the given reference file; {n} of {len(bf.units)} unit sources are its paragraphs")


def align_bilingual(path: str | Path, reference: str | Path, current=None, *, lang: str | None = None,
                    termbase=None, cards=None):
    p = Path(path)
    ref = reference if editions_of(reference) is not None or not isinstance(reference, (str, Path)) else Path(reference)
    editions = editions_of(ref)
    data = read_bounded(p)
    bf = read_bilingual(data, p)
    code = target_language(bf, lang, p)
    pin = _pin(bf, ref)
    if pin.matched == 0:
        raise InputError("no unit's English source is a paragraph of any English edition given "
                         "(is --reference the folder of English editions?)", p)
    stub = Document(Meta(language=code, kind="translation", format=bf.format))
    stub.meta.base_edition = EditionRange(first=pin.label, last=pin.label, declared=None, editions=[pin.label],
                                          confidence=pin.share, evidence=[pin.how], method=pin.method)
    ed = resolve_editions(stub, ref, current)
    base_src = ref if editions is None else next((f for f in edition_files(editions) if f.stem == pin.label), None)
    placed = place_units(bf.units, ed.base, code, edition_paragraphs(base_src) if base_src is not None else None)
    spans: dict[str, list[UnitSpan]] = {}
    doc = units_document(bf, placed, code, pin.label, spans)
    doc.meta.source_file, doc.meta.source_name = str(p), p.name
    doc.meta.sha256 = hashlib.sha256(data).hexdigest()
    doc.meta.base_edition = stub.meta.base_edition
    info = UnitsInfo(bf, placed, coverage_of(placed), pin,
                     {pl.rule for pl in placed if pl.rule and pl.kind in (PlacedKind.RULE, PlacedKind.HEADING)}, spans)
    ed.info.pinned = pin
    ed.info.how = pin.how
    res = align_documents(doc, ed.base, ed.current, map_number=ed.map_number, base_info=ed.info,
                          current_label=ed.current_label, termbase=termbase, cards=cards, units=info,
                          editions_dir=editions)
    res.unit_update = plan_unit_update(bf, data, ed.base, ed.current, ed.map_number, ed.base_label,
                                       res.current_edition, code, res.learnt_profile)
    if res.update is not None:
        res.update["units"] = res.unit_update.to_dict()["counts"]
    return res
