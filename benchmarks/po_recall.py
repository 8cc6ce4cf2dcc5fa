"""Issue 24, acceptance 1 and 3: what crpipe's translator checks and translate-toolkit's
``pofilter`` name of the real defects a blind reviewer listed (``tests/data/po-recall/``), per
class, in the same run.

    python benchmarks/po_recall.py tests/data/po-recall/draw-1.labels.json
    python benchmarks/po_recall.py tests/data/po-recall/draw-2.labels.json --json out.json

Scoring (PROTOCOL.md): a defect is *named* by crpipe when a finding on the same unit has a span
in that unit's translation overlapping the defect's excerpt (or, spanless or for a defect with
nothing in the Portuguese, names the English words or suggests the fix).  pofilter has no
spans, so it is credited with a defect whenever it flags the defect's unit at all (which
favours pofilter).  ``--misses`` lists what crpipe missed, for tuning on the tuning draw only.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from po_recall_draw import with_text  # noqa: E402 - the benchmarks folder is not a package

SHARED = ROOT.parent / "shared"
PO = SHARED / "corpus" / "translations" / "pt-BR" / "comprehensive-rules.pt-BR.po"
EDITIONS = SHARED / "corpus" / "cr-en" / "txt"
CLASSES = ("spelling", "grammar", "omission", "addition", "meaning", "term", "untranslated", "numbers",
           "references", "quotes", "punctuation")


def crpipe_findings(po: Path = PO, editions: Path = EDITIONS) -> dict[int, list[dict]]:
    """Unit order -> crpipe's findings on it (``check``, ``severity``, ``message``, ``unit_span``…)."""
    from pipeline.align.run import align_file
    from pipeline.ingest.bilingual import read_bilingual

    res = align_file(po, editions)
    order = {u.location: u.order for u in read_bilingual(po.read_bytes(), po).units}
    out: dict[int, list[dict]] = defaultdict(list)
    for i in res.issues:
        if i.unit in order:
            out[order[i.unit]].append(i.to_dict())
    return out


def pofilter_findings(po: Path = PO) -> dict[int, list[str]]:
    """Unit order -> pofilter's failing tests (every test but ``untranslated``), pt_BR."""
    from translate.storage import pypo

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "pofilter.po"
        subprocess.run([str(Path(sys.executable).with_name("pofilter")), "--language=pt_BR",
                        "--excludefilter=untranslated", "--progress=none", str(po), str(out)], check=True,
                       capture_output=True)
        flagged = {}
        for u in pypo.pofile.parsefile(str(out)).units:
            if u.isheader():
                continue
            tests = re.findall(r"\(pofilter\) (\w+)", u.getnotes("translator") or "")
            flagged[(str(u.source), str(u.target))] = tests
    src = pypo.pofile.parsefile(str(po))
    body = [u for u in src.units if not u.isheader() and not u.isobsolete()]
    return {i: flagged[(str(u.source), str(u.target))] for i, u in enumerate(body)
            if (str(u.source), str(u.target)) in flagged}


def _positions(text: str, excerpt: str) -> list[tuple[int, int]]:
    out, i = [], text.find(excerpt)
    while excerpt and i >= 0:
        out.append((i, i + len(excerpt)))
        i = text.find(excerpt, i + 1)
    return out


def names(finding: dict, defect: dict, target: str) -> bool:
    """Does this finding (on the defect's unit) point at the defect?"""
    span = finding.get("unit_span")
    where = _positions(target, defect.get("target_excerpt") or "")
    if span and where:
        a, b = span
        return any(a < y and x < b or (a == b and x <= a <= y) for x, y in where)
    said = " ".join(str(finding.get(k) or "") for k in ("message", "suggestion")).casefold()
    for key in ("source_excerpt", "target_excerpt", "fix"):
        v = (defect.get(key) or "").strip().casefold()
        if v and (v in said or (len(v) > 3 and said and said.strip() == v)):
            return True
    return False


def score(labels: list[dict], crp: dict[int, list[dict]], pof: dict[int, list[str]]) -> dict:
    per = {c: Counter() for c in CLASSES}
    missed, named_by = [], Counter()
    for u in labels:
        for d in u["defects"]:
            c = per[d["class"]]
            c["listed"] += 1
            hit = [f for f in crp.get(u["index"], []) if names(f, d, u["target"])]
            if hit:
                c["crpipe"] += 1
                named_by.update({f["check"] for f in hit})
            else:
                missed.append((u, d))
            c["pofilter"] += bool(pof.get(u["index"]))
    total = Counter()
    for c in per.values():
        total.update(c)
    return {"per_class": {k: dict(v) for k, v in per.items() if v["listed"]}, "total": dict(total),
            "recall": round(total["crpipe"] / max(1, total["listed"]), 3),
            "pofilter_unit_recall": round(total["pofilter"] / max(1, total["listed"]), 3),
            "named_by_check": dict(sorted(named_by.items())), "missed": missed}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("labels", type=Path, nargs="+")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--misses", action="store_true", help="list crpipe's misses (the tuning draw only)")
    a = ap.parse_args()
    if not PO.is_file():
        sys.exit(f"the real PO is not at {PO}")
    crp, pof = crpipe_findings(), pofilter_findings()
    report = {}
    for f in a.labels:
        doc = json.loads(f.read_text(encoding="utf-8"))
        units = {u["index"]: u for u in with_text(f.with_name(f.name.replace(".labels", ".units")))}
        labels = [{**units[u["index"]], **u} for u in doc["units"]]
        s = score(labels, crp, pof)
        n_units = len(labels)
        crp_units = sum(1 for u in labels if crp.get(u["index"]))
        pof_units = sum(1 for u in labels if pof.get(u["index"]))
        print(f"\n{f.name}: {n_units} units, {s['total'].get('listed', 0)} defects; crpipe flags {crp_units} "
              f"units, pofilter {pof_units}")
        print(f"{'class':<14}{'listed':>7}{'crpipe':>8}{'pofilter*':>10}")
        for k, v in s["per_class"].items():
            print(f"{k:<14}{v['listed']:>7}{v.get('crpipe', 0):>8}{v.get('pofilter', 0):>10}")
        t = s["total"]
        print(f"{'all':<14}{t['listed']:>7}{t.get('crpipe', 0):>8}{t.get('pofilter', 0):>10}   recall crpipe "
              f"{s['recall']:.3f}, pofilter (unit flagged) {s['pofilter_unit_recall']:.3f}")
        print("named by:", ", ".join(f"{k} {v}" for k, v in s["named_by_check"].items()))
        if a.misses:
            for u, d in s["missed"]:
                print(f"  MISS {u['index']} [{d['class']}] {d.get('target_excerpt')!r} / {d.get('source_excerpt')!r}: "
                      f"{d.get('note')}  | crpipe: {[x['check'] for x in crp.get(u['index'], [])]}")
        report[f.name] = {k: v for k, v in s.items() if k != "missed"} | {"units": n_units, "crpipe_units": crp_units,
                                                                          "pofilter_units": pof_units}
    if a.json:
        a.json.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
