"""Issue 24, acceptance 3: crpipe against translate-toolkit's ``pofilter`` on the real pt-BR PO,
in the same run — per defect class, the real defects each tool names (the blind recall sets of
``tests/data/po-recall/``) and the false findings each makes (its findings × the share judged
false in a seeded, volume-stratified sample judged by a reviewer who wrote neither tool).

    python benchmarks/po_compare.py --draw-pofilter 2403   # write the pofilter sample to judge
    python benchmarks/po_compare.py                        # the comparison (both tools run now)

pofilter runs with every test but ``untranslated`` (``--excludefilter=untranslated``), language
pt_BR.  Its tests are mapped to the recall set's classes by what they look at (``CLASS_OF``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

import po_precision  # noqa: E402 - the benchmarks folder is not a package
import po_recall  # noqa: E402

DATA = ROOT / "tests" / "data"
POFILTER_SAMPLE = DATA / "po-pofilter-judged.json"
CRPIPE_SAMPLE = po_precision.OUT
LABELS = sorted((DATA / "po-recall").glob("draw-*.labels.json"))
#: pofilter's tests by the defect class they look for.
CLASS_OF = {"endpunc": "punctuation", "puncspacing": "punctuation", "startpunc": "punctuation",
            "sentencecount": "omission", "newlines": "punctuation", "doublequoting": "quotes",
            "singlequoting": "quotes", "unchanged": "untranslated", "simplecaps": "spelling",
            "brackets": "punctuation", "numbers": "numbers", "simpleplurals": "grammar",
            "pythonbraceformat": "numbers", "doublewords": "spelling", "acronyms": "untranslated",
            "endwhitespace": "punctuation", "doublespacing": "punctuation", "long": "addition", "short": "omission"}


def pofilter_flat() -> list[dict]:
    """One record per (unit, failing test)."""
    from translate.storage import pypo

    per_unit = po_recall.pofilter_findings()
    body = [u for u in pypo.pofile.parsefile(str(po_recall.PO)).units if not u.isheader() and not u.isobsolete()]
    out = []
    for i, tests in sorted(per_unit.items()):
        for t in tests:
            out.append({"index": i, "test": t, "english": str(body[i].source), "portuguese": str(body[i].target)})
    return out


def draw_pofilter(seed: int, size: int = 100) -> None:
    flat = pofilter_flat()
    counts = Counter(f["test"] for f in flat)
    alloc = po_precision.allocate(counts, size)
    rng = random.Random(seed)
    sample = []
    for test in sorted(alloc):
        pool = [f for f in flat if f["test"] == test]
        sample += rng.sample(pool, alloc[test])
    rng.shuffle(sample)
    # The fixture keeps the findings and the verdicts, not the PO's text (that stays in ../shared).
    doc = {"tool": "pofilter --language=pt_BR --excludefilter=untranslated", "seed": seed, "total": len(flat),
           "population": dict(sorted(counts.items())), "size": len(sample), "judged_by": "", "note": "",
           "sample": [{"index": f["index"], "test": f["test"], "verdict": "", "class": "", "reason": ""}
                      for f in sample]}
    POFILTER_SAMPLE.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    view = Path(po_precision.tempfile_path()).with_name("pofilter-judge-view.txt")
    view.write_text("\n".join(f"#{k} [pofilter {f['test']}] unit {f['index']}\n  EN: {f['english']}\n  PT: {f['portuguese']}\n"
                              for k, f in enumerate(sample)), encoding="utf-8")
    print(f"{len(sample)} of {len(flat)} pofilter findings -> {POFILTER_SAMPLE}; the texts to judge by: {view}")


def false_by_class(sample_files: list[Path], counts: Counter, key: str, class_of) -> tuple[dict, float]:
    """Estimated false findings per class: each check's (test's) findings × its judged false share."""
    judged: dict[str, list[bool]] = defaultdict(list)
    for sample_file in sample_files:
        for s in json.loads(sample_file.read_text(encoding="utf-8"))["sample"]:
            if s.get("verdict") in ("real", "false"):
                judged[s[key]].append(s["verdict"] == "false")
    out: Counter = Counter()
    for name, n in counts.items():
        v = judged.get(name)
        share = sum(v) / len(v) if v else 1.0  # an unjudged check counts as all false (conservative)
        out[class_of(name)] += n * share
    return dict(out), sum(out.values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--draw-pofilter", type=int, metavar="SEED")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    if not po_recall.PO.is_file():
        sys.exit(f"the real PO is not at {po_recall.PO}")
    if a.draw_pofilter is not None:
        draw_pofilter(a.draw_pofilter)
        return
    from pipeline.align.checks.registry import all_checks

    crp, pof = po_recall.crpipe_findings(), po_recall.pofilter_findings()
    defect = {c.id: str(c.defect) for c in all_checks()}
    # Every finding crpipe shows counts, info included: its recall above counts info findings too.
    crp_counts = Counter(f["check"] for fs in crp.values() for f in fs)
    pof_counts = Counter(t for ts in pof.values() for t in ts)
    crp_false, crp_false_total = false_by_class([CRPIPE_SAMPLE, po_precision.INFO_OUT], crp_counts, "check", lambda c: defect.get(c, "other"))
    pof_false, pof_false_total = false_by_class([POFILTER_SAMPLE], pof_counts, "test", lambda t: CLASS_OF.get(t, "other"))
    named: dict[str, Counter] = defaultdict(Counter)
    for f in LABELS:
        doc = json.loads(f.read_text(encoding="utf-8"))
        units = {u["index"]: u for u in po_recall.with_text(f.with_name(f.name.replace(".labels", ".units")))}
        s = po_recall.score([{**units[u["index"]], **u} for u in doc["units"]], crp, pof)
        for k, v in s["per_class"].items():
            named[k].update(v)
    classes = sorted(set(named) | set(crp_false) | set(pof_false))
    print(f"{'class':<14}{'defects':>8}{'crpipe':>8}{'pofilter*':>10}{'crpipe false':>14}{'pofilter false':>16}")
    rows = {}
    for k in classes:
        v = named.get(k, Counter())
        rows[k] = {"defects": v["listed"], "crpipe_named": v["crpipe"], "pofilter_flagged": v["pofilter"],
                   "crpipe_false": round(crp_false.get(k, 0.0), 1), "pofilter_false": round(pof_false.get(k, 0.0), 1)}
        r = rows[k]
        print(f"{k:<14}{r['defects']:>8}{r['crpipe_named']:>8}{r['pofilter_flagged']:>10}{r['crpipe_false']:>14.1f}"
              f"{r['pofilter_false']:>16.1f}")
    tot = {"defects": sum(r["defects"] for r in rows.values()), "crpipe_named": sum(r["crpipe_named"] for r in rows.values()),
           "pofilter_flagged": sum(r["pofilter_flagged"] for r in rows.values()),
           "crpipe_false": round(crp_false_total, 1), "pofilter_false": round(pof_false_total, 1),
           "crpipe_findings": sum(crp_counts.values()), "pofilter_findings": sum(pof_counts.values())}
    print(f"{'all':<14}{tot['defects']:>8}{tot['crpipe_named']:>8}{tot['pofilter_flagged']:>10}{tot['crpipe_false']:>14.1f}"
          f"{tot['pofilter_false']:>16.1f}")
    print(f"findings (every severity / every pofilter test but untranslated): crpipe {tot['crpipe_findings']}, "
          f"pofilter {tot['pofilter_findings']}.  *pofilter is credited with a defect whenever it flags the unit.")
    if a.json:
        a.json.write_text(json.dumps({"per_class": rows, "total": tot}, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
