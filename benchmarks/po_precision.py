"""Issue 12 acceptance 3: precision of the translator checks on the real pt-BR PO, by volume.

``--draw SEED`` aligns the PO, draws a random sample of error and warning findings stratified
by check and weighted by volume (each check gets a share of the 100 by its count, largest
remainders first, and a check of more than 30 findings at least 15; within a check, a seeded
random choice) and writes it, with the English and
Portuguese of each finding's rule and an empty verdict, to ``tests/data/po-judged-sample.json``
(existing verdicts of the same findings are kept).  A person then judges each finding by
reading the English and the Portuguese: ``verdict`` ``real`` or ``false``, ``reason`` one line.

``--score`` prints precision overall (by volume: each check's precision weighted by its
share of all findings) and per check from the judged file.

    python benchmarks/po_precision.py --draw 12
    python benchmarks/po_precision.py --score
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
PO = SHARED / "corpus" / "translations" / "pt-BR" / "comprehensive-rules.pt-BR.po"
EDITIONS = SHARED / "corpus" / "cr-en" / "txt"
OUT = ROOT / "tests" / "data" / "po-judged-sample.json"
INFO_OUT = ROOT / "tests" / "data" / "po-info-judged.json"
SIZE = 100
#: A check with more than LARGE findings is held to its own bar (issue 24: at least 0.7), which a
#: by-volume share of 6 or 9 judged findings cannot show: such a check gets at least PER_LARGE
#: judged (a further seeded draw of its findings).  Per-check precision is its judged share; the
#: overall figure still weights each check by its population, so the extra findings do not tilt it.
LARGE = 30
PER_LARGE = 15


def finding_key(f: dict) -> str:
    return f"{f['rule']}|{f['check']}|{f['message']}"


def findings(severities=("error", "warning")) -> tuple[list[dict], dict]:
    sys.path.insert(0, str(ROOT))
    from pipeline.align.run import align_file

    res = align_file(PO, EDITIONS)
    out = []
    for r in res.rows:
        for i in r.issues:
            if i.severity in severities:
                out.append({"rule": r.id, "check": i.check, "severity": str(i.severity), "message": i.message,
                            "excerpt": i.excerpt, "suggestion": i.suggestion, "english": r.source,
                            "english_current": r.current, "portuguese": r.target, "unit": i.unit})
    return out, res.counts()


def allocate(counts: Counter, size: int) -> dict[str, int]:
    total = sum(counts.values())
    if total <= size:
        return dict(counts)
    raw = {c: size * n / total for c, n in counts.items()}
    alloc = {c: int(v) for c, v in raw.items()}
    for c in sorted(raw, key=lambda c: (-(raw[c] - alloc[c]), c))[:size - sum(alloc.values())]:
        alloc[c] += 1
    return alloc


def tempfile_path() -> str:
    import tempfile

    return str(Path(tempfile.gettempdir()) / "po-judge-view.txt")


def draw(seed: int, info: bool = False, reuse: list[Path] = ()) -> None:
    out_file = INFO_OUT if info else OUT
    fs, _ = findings(("info",) if info else ("error", "warning"))
    by = defaultdict(list)
    for f in fs:
        by[f["check"]].append(f)
    counts = Counter({c: len(v) for c, v in by.items()})
    alloc = allocate(counts, SIZE)
    rng = random.Random(seed)
    old = {}
    # Verdicts already given to the very same finding (same rule, check and message) by a judge
    # of an earlier sample are kept: the finding, and so its truth, is unchanged.
    for f in [*reuse, out_file]:
        if f.is_file():
            old.update({finding_key(x): x for x in json.loads(f.read_text(encoding="utf-8"))["sample"] if x.get("verdict")})
    sample, view = [], []
    for c in sorted(by):
        if not info and counts[c] > LARGE:
            alloc[c] = max(alloc[c], min(PER_LARGE, counts[c]))
        for f in rng.sample(sorted(by[c], key=finding_key), alloc[c]):
            prev = old.get(finding_key(f), {})
            # The fixture keeps the finding and the verdict, not the PO's text (that stays in ../shared).
            keep = {k: f[k] for k in ("rule", "check", "severity", "message", "excerpt", "suggestion")}
            sample.append({**keep, "verdict": prev.get("verdict", ""), "reason": prev.get("reason", ""),
                           **({"judge": prev["judge"]} if prev.get("judge") else {})})
            view.append(f"#{len(sample) - 1} [{c}] {f['rule']} ({f['unit']}): {f['message']} | {f['excerpt']!r} → {f['suggestion']!r}\n"
                        f"  EN (base):    {f['english']}\n  EN (current): {f['english_current']}\n"
                        f"  PT:           {f['portuguese']}\n")
    view_file = Path(tempfile_path()).with_suffix(".info.txt" if info else ".txt")
    view_file.write_text("\n".join(view), encoding="utf-8")
    print(f"the texts to judge by: {view_file}")
    data = {"seed": seed, "population": dict(sorted(counts.items())), "total": sum(counts.values()),
            "size": len(sample), "sample": sample}
    out_file.parent.mkdir(parents=True, exist_ok=True)
    out_file.write_text(json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"drew {len(sample)} of {data['total']} findings (seed {seed}) into {out_file}")


def score(path: Path = OUT) -> dict:
    data = json.loads(path.read_text(encoding="utf-8"))
    per = defaultdict(Counter)
    for s in data["sample"]:
        per[s["check"]][s["verdict"]] += 1
    pop = data["population"]
    total = sum(pop.values())
    rows = {}
    overall = 0.0
    for c, n in sorted(pop.items()):
        j = per.get(c, Counter())
        judged = j["real"] + j["false"]
        p = j["real"] / judged if judged else None
        rows[c] = {"population": n, "judged": judged, "real": j["real"], "precision": p}
        if p is not None:
            overall += p * n / total
    return {"overall": overall, "checks": rows, "total": total, "seed": data["seed"]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--draw", type=int)
    ap.add_argument("--score", action="store_true")
    ap.add_argument("--info", action="store_true", help="the info findings (tests/data/po-info-judged.json)")
    ap.add_argument("--reuse", type=Path, action="append", default=[],
                    help="earlier judged samples whose verdicts carry over to the same findings")
    a = ap.parse_args()
    if a.draw is not None:
        draw(a.draw, a.info, a.reuse)
    if a.score:
        s = score(INFO_OUT if a.info else OUT)
        print(f"seed {s['seed']}: {s['total']} error+warning findings; precision by volume {s['overall']:.3f}")
        for c, r in s["checks"].items():
            p = "—" if r["precision"] is None else f"{r['precision']:.2f}"
            print(f"  {c:<28}{r['population']:>5}{r['judged']:>5}{r['real']:>5}  {p}")


if __name__ == "__main__":
    main()
