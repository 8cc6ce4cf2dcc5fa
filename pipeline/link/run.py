"""Link rulings files against an edition and shape the result for JSON, CSV and people.

This is the edge shared by ``crpipe link`` and the build stage: read, link, serialise.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from ..model import Document
from ..rulenum import Level
from ..rulings.model import Ruling, RulingSet
from .linker import Candidate, Linker
from .translations import TranslationMap, translated


@dataclass
class LinkedRuling:
    ruling: Ruling
    candidates: list[Candidate]


def link_set(linker: Linker, rs: RulingSet, top: int = 5, explain: int = 1) -> list[LinkedRuling]:
    ranked = linker.link(rs.rulings, top=top, explain=explain)
    return [LinkedRuling(r, c) for r, c in zip(rs.rulings, ranked)]


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
