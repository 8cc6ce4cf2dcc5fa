"""Link rulings files against an edition and shape the result for JSON, CSV and people.

This is the edge shared by ``crpipe link`` and the build stage: read, link, serialise.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..model import Document
from ..rulenum import Level
from ..rulings.model import Ruling, RulingSet
from .memo import link_remembered
from .results import Candidate
from .translations import TranslationMap, translated

if TYPE_CHECKING:  # the linker (NumPy, SciPy, rapidfuzz) loads only when a ruling needs ranking
    from .linker import Linker


@dataclass
class LinkedRuling:
    ruling: Ruling
    candidates: list[Candidate]


def link_set(make_linker: Callable[[], Linker], rs: RulingSet, reference: Document, top: int = 5, explain: int = 1,
             remember: bool = True) -> tuple[list[LinkedRuling], str | None]:
    """The set's rulings with their candidates, and the ranker's note on how its prior reached
    ``reference`` (None on its own edition).  ``remember``: rank only rulings not linked before
    against this edition (:mod:`.memo`); ``make_linker`` is called only when one needs ranking."""
    if remember:
        ranked, note = link_remembered(rs.rulings, reference, make_linker, top, explain)
    else:
        linker = make_linker()
        ranked = linker.link(rs.rulings, top=top, explain=explain)
        note = getattr(linker.ranker, "carry_note", None)
    return [LinkedRuling(r, c) for r, c in zip(rs.rulings, ranked)], note


def rule_heading(doc: Document, rule_id: str) -> str:
    """The title a rule sits under ("702.127 Aftermath", "601 Casting Spells")."""
    rule = doc.rule(rule_id)
    p = rule.parent if rule else None
    while p is not None:
        r = doc.rule(p)
        if r is None:
            break
        if r.level == Level.RULE or (len(r.text.split()) <= 8 and not r.text.rstrip().endswith((".", ":", ")", "”", '"'))):
            return f"{r.id} {r.text.strip()}"
        p = r.parent
    return ""


def links_to_dict(rs: RulingSet, links: list[LinkedRuling], reference: Document,
                  maps: list[TranslationMap] | None = None) -> dict:
    maps = maps or []
    out = []
    for lr in links:
        cands = []
        for rank, c in enumerate(lr.candidates, 1):
            rule = reference.rule(c.rule)
            d = c.to_dict()
            d["rank"] = rank
            d["text"] = rule.text if rule else None
            d["title"] = rule_heading(reference, c.rule)
            if maps:
                d["translations"] = translated(c.rule, maps)
            cands.append(d)
        out.append({"ruling": lr.ruling.to_dict(), "candidates": cands})
    return {
        "schema": "crpipe-links/1",
        "edition": reference.meta.effective_date,
        "rulings_file": Path(rs.path).name,
        "format": rs.format,
        "cards": [c.to_dict() for c in rs.cards],
        "notes": list(rs.notes),
        "translations": [{"name": m.name, "language": m.language, "numbering": m.how} for m in maps],
        "links": out,
    }


CSV_COLUMNS = ["card", "position", "date", "ruling", "rank", "rule", "score", "evidence", "rule_text"]


def links_to_csv(data: dict) -> str:
    """One row per (ruling, candidate); one extra column per translation language."""
    langs = sorted({t["language"] for t in data.get("translations", [])})
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS + [f"rule_text_{lg}" for lg in langs])
    for item in data["links"]:
        r = item["ruling"]
        for c in item["candidates"]:
            tr = {t["language"]: t["text"] for t in c.get("translations", [])}
            w.writerow([r["card"] or "", r["position"], r["date"] or "", r["text"], c["rank"], c["rule"],
                        f"{c['score']:.4f}", "; ".join(sorted({e["kind"] for e in c["evidence"]})), c["text"] or ""]
                       + [tr.get(lg, "") for lg in langs])
    return buf.getvalue()
