"""Issue 24, item 1: the seeded draws of the pt-BR PO's translated units that the blind
reviewers label (the recall set).  Written before any check was changed.

    python benchmarks/po_recall_draw.py --seed 2401 --out tests/data/po-recall/draw-1.units.json
    python benchmarks/po_recall_draw.py --seed 2402 --exclude tests/data/po-recall/draw-1.units.json \
        --out tests/data/po-recall/draw-2.units.json

The committed draw keeps each unit's ``index``, ``kind`` and a digest of its English and
Portuguese, not the PO's text (that stays in ``../shared``); ``--view`` writes the texts for the
labeller to a file outside the project, and the scoring reads them from the PO.

A *rule unit* is a translated unit of the numbered rules (a rule or subrule paragraph, its
heading, or an example); a *glossary unit* is a translated unit between the glossary's first
term ("Abandon") and the credits (a term or a definition).  Units are numbered by their
position in the PO (``index``: 0 is the first unit after the header), which is how the
labels point back to them.  The draw is ``random.Random(seed).sample`` over each kind, sorted
by index; ``--exclude`` removes the units of an earlier draw first.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
from pathlib import Path

from translate.storage import pypo

ROOT = Path(__file__).resolve().parents[1]
PO = ROOT.parent / "shared" / "corpus" / "translations" / "pt-BR" / "comprehensive-rules.pt-BR.po"
_RULE = re.compile(r"^(?:\d{3}\.\d+[a-z]?\.?|\d{3}\.)\s|^Examples?:")
GLOSSARY_FIRST = "Abandon"
CREDITS_FIRST = "Magic: The Gathering Original Game Design"


def units(path: Path = PO) -> list[dict]:
    store = pypo.pofile.parsefile(str(path))
    out, zone = [], "front"
    body = [u for u in store.units if not u.isheader()]
    for i, u in enumerate(body):
        src = str(u.source)
        if zone == "front" and re.match(r"^100\.1\.\s", src):
            zone = "rules"
        elif zone == "rules" and src == GLOSSARY_FIRST:
            zone = "glossary"
        elif zone == "glossary" and src.startswith(CREDITS_FIRST):
            zone = "credits"
        kind = "rule" if zone == "rules" and _RULE.match(src) else ("glossary" if zone == "glossary" else zone)
        out.append({"index": i, "kind": kind, "source": src, "target": str(u.target or ""),
                    "translated": bool(u.istranslated())})
    return out


def digest(u: dict) -> str:
    """Of a unit's English and Portuguese: the scoring refuses a PO whose drawn units changed."""
    return hashlib.sha256(f"{u['source']}\x00{u['target']}".encode()).hexdigest()[:16]


def with_text(draw_file: Path) -> list[dict]:
    """The draw's units with their English (``source``) and Portuguese (``target``) from the PO."""
    by = {u["index"]: u for u in units()}
    out = []
    for d in json.loads(draw_file.read_text(encoding="utf-8"))["units"]:
        u = by[d["index"]]
        if digest(u) != d["digest"]:
            raise SystemExit(f"{draw_file.name}: unit {d['index']} of the PO is not the one drawn")
        out.append({**d, "source": u["source"], "target": u["target"]})
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--rules", type=int, default=90)
    ap.add_argument("--glossary", type=int, default=50)
    ap.add_argument("--exclude", type=Path, action="append", default=[])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--view", type=Path, help="also write the drawn units' texts here, for the labeller")
    a = ap.parse_args()
    if not PO.is_file():
        sys.exit(f"the real PO is not at {PO}")
    taken = {u["index"] for f in a.exclude for u in json.loads(f.read_text())["units"]}
    pool = [u for u in units() if u["translated"] and u["index"] not in taken]
    rng = random.Random(a.seed)
    rules = rng.sample([u for u in pool if u["kind"] == "rule"], a.rules)
    gloss = rng.sample([u for u in pool if u["kind"] == "glossary"], a.glossary)
    drawn = sorted(rules + gloss, key=lambda u: u["index"])
    doc = {"po": "comprehensive-rules.pt-BR.po", "seed": a.seed, "excluded": [str(f.name) for f in a.exclude],
           "rules": a.rules, "glossary": a.glossary,
           "units": [{"index": u["index"], "kind": u["kind"], "digest": digest(u)} for u in drawn]}
    a.out.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(rules)} rule units, {len(gloss)} glossary units -> {a.out}")
    if a.view:
        a.view.write_text(json.dumps({"units": with_text(a.out)}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
