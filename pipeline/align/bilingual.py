"""Aligning a bilingual translator file (PO/POT, XLIFF 1.2/2.0): base edition pinned from the
unit sources, translated rules checked, untranslated units reported once as coverage."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from ..edition import edition_files
from ..editions.context import editions_of, resolve_editions
from ..errors import InputError
from ..ingest.bilingual import BilingualFile, read_bilingual, sniff, target_language
from ..io import read_bounded
from ..model import Document, Meta
from ..segment.units import Coverage, Placed, coverage_of, edition_paragraphs, pin_base_edition, place_units, units_document
from .aligner import align_documents
from .unit_update import plan_unit_update


@dataclass
class UnitsInfo:
    """What the aligner needs to know about the units behind the translated rules."""

    file: BilingualFile
    placed: list[Placed]
    coverage: Coverage
    pin: dict
    accounted: set[str] = field(default_factory=set)

    def term_renderings(self) -> dict[str, str]:
        """English glossary term -> the translation's rendering of it (its translated glossary unit)."""
        return {p.glossary_term: " ".join(p.unit.target.split()) for p in self.placed
                if p.kind == "glossary-term" and p.unit.translated and not p.english_target and p.glossary_term}

    def units_of(self, rule_id: str | None) -> list[dict]:
        if rule_id is None:
            return []
        if not hasattr(self, "_by_rule"):
            by: dict[str, list[dict]] = {}
            for p in self.placed:
                if p.rule and p.kind in ("rule", "heading", "continuation", "example") and p.unit.translated:
                    by.setdefault(p.rule, []).append({"id": p.unit.id[:80], "location": p.unit.location,
                                                      "kind": p.kind, "piece": p.piece})
            self._by_rule = by
        return self._by_rule.get(rule_id, [])


def is_bilingual(path: Path) -> bool:
    if path.is_dir() or not path.exists():
        return False
    return sniff(read_bounded(path)[:65536], path.name) is not None


def _pin(bf: BilingualFile, reference) -> dict:
    editions = editions_of(reference)
    if editions is not None:
        return pin_base_edition(bf.units, editions)
    paras = edition_paragraphs(reference)
    n = sum(1 for u in bf.units if " ".join(u.source.split()) in paras)
    return {"label": reference.stem, "matched": n, "units": len(bf.units), "share": round(n / len(bf.units), 4),
            "tied": [reference.stem], "runner_up": None, "method": "given",
            "how": f"the given reference file; {n} of {len(bf.units)} unit sources are its paragraphs"}


def align_bilingual(path: str | Path, reference: str | Path, current=None, *, lang: str | None = None,
                    termbase=None, cards=None):
    p = Path(path)
    ref = reference if editions_of(reference) is not None or not isinstance(reference, (str, Path)) else Path(reference)
    editions = editions_of(ref)
    data = read_bounded(p)
    bf = read_bilingual(data, p)
    code = target_language(bf, lang, p)
    pin = _pin(bf, ref)
    if pin["matched"] == 0:
        raise InputError("no unit's English source is a paragraph of any English edition given "
                         "(is --reference the folder of English editions?)", p)
    stub = Document(Meta(language=code, kind="translation", format=bf.format))
    stub.meta.base_edition = {"first": pin["label"], "last": pin["label"], "editions": [pin["label"]],
                              "confidence": pin["share"], "evidence": [pin["how"]], "method": pin["method"]}
    ed = resolve_editions(stub, ref, current)
    base_src = ref if editions is None else next((f for f in edition_files(editions) if f.stem == pin["label"]), None)
    placed = place_units(bf.units, ed.base, code, edition_paragraphs(base_src) if base_src is not None else None)
    doc = units_document(bf, placed, code, pin["label"])
    doc.meta.source_file, doc.meta.source_name = str(p), p.name
    doc.meta.sha256 = hashlib.sha256(data).hexdigest()
    doc.meta.base_edition = stub.meta.base_edition
    info = UnitsInfo(bf, placed, coverage_of(placed), pin,
                     {pl.rule for pl in placed if pl.rule and pl.kind in ("rule", "heading")})
    ed.info["pinned"] = {k: pin[k] for k in ("matched", "units", "share", "tied", "runner_up", "method")}
    ed.info["how"] = pin["how"]
    res = align_documents(doc, ed.base, ed.current, map_number=ed.map_number, base_info=ed.info,
                          current_label=ed.current_label, termbase=termbase, cards=cards, units=info,
                          editions_dir=editions)
    res.unit_update = plan_unit_update(bf, data, ed.base, ed.current, ed.map_number, ed.base_label,
                                       res.current_edition, code)
    if res.update is not None:
        res.update["units"] = res.unit_update.to_dict()["counts"]
    return res
