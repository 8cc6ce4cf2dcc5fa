"""Merge the two labellers' files with the sample into labels.json; compute their agreement.

Run from the repository root:  python tests/data/linking/merge_labels.py /work/labels
Reads sample.json (the rulings drawn before any tuning) and, from the labels folder,
labels-a.json (L000–L219), labels-b.json (L220–L439), overlap-a.json (L220–L249 labelled
blind by A) and overlap-b.json (L000–L029 by B).  Writes labels.json (each sampled ruling
with its primary rule, acceptable rules, reason, governed flag, labeller and split) and
agreement.json (the blind overlaps side by side and the agreement figures).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _items(path: Path) -> dict[str, dict]:
    d = json.loads(path.read_text(encoding="utf-8"))
    items = d["labels"] if isinstance(d, dict) else d
    return {x["id"]: x for x in items}


def _protocol(path: Path) -> tuple[str, str]:
    d = json.loads(path.read_text(encoding="utf-8"))
    return (d.get("labeller", path.stem), d.get("protocol", "")) if isinstance(d, dict) else (path.stem, "")


def agreement(first: dict[str, dict], second: dict[str, dict]) -> dict:
    """Over items both label: governed agreement; for items both call governed, primary
    exact and "the primary of one is among the other's primary + acceptable" (both ways)."""
    ids = sorted(first.keys() & second.keys())
    gov_same = sum(bool(first[i]["governed"]) == bool(second[i]["governed"]) for i in ids)
    both = [i for i in ids if first[i]["governed"] and second[i]["governed"]]
    exact = sum(first[i]["primary"] == second[i]["primary"] for i in both)

    def within(a: dict, b: dict) -> bool:
        return a["primary"] in {b["primary"], *b.get("acceptable", [])}

    a_in_b = sum(within(first[i], second[i]) for i in both)
    b_in_a = sum(within(second[i], first[i]) for i in both)
    either = sum(within(first[i], second[i]) or within(second[i], first[i]) for i in both)
    n = len(both) or 1
    return {"items": len(ids), "governed_agree": gov_same, "both_governed": len(both),
            "primary_exact": exact, "primary_exact_rate": round(exact / n, 3),
            "first_primary_in_second": a_in_b, "second_primary_in_first": b_in_a,
            "primary_within_other_either_way": either, "primary_within_other_rate": round(either / n, 3)}


def main(folder: str) -> None:
    src = Path(folder)
    sample = json.loads((HERE / "sample.json").read_text(encoding="utf-8"))
    a, b = _items(src / "labels-a.json"), _items(src / "labels-b.json")
    labels = {**a, **b}
    out = []
    missing = []
    for r in sample["rulings"]:
        lab = labels.get(r["id"])
        if lab is None:
            missing.append(r["id"])
            continue
        out.append({**r, "primary": lab["primary"], "acceptable": sorted(lab.get("acceptable") or []),
                    "why": lab["why"], "governed": bool(lab["governed"]), "labeller": "A" if r["id"] in a else "B"})
    protocols = [_protocol(src / f) for f in ("labels-a.json", "labels-b.json")]
    gov = [x for x in out if x["governed"]]
    data = {
        "cr_edition": sample["cr_edition"], "sets": sample["sets"], "seed": sample["seed"], "pool": sample["pool"],
        "note": "primary: the most specific rule a careful judge cites for the ruling; acceptable: other rules a "
                "judge also accepts. governed=false: no rule governs the ruling (left out of every metric). "
                "split: train/test by card, fixed before any tuning. Protocol and agreement: PROTOCOL.md.",
        "labellers": {name: text for name, text in protocols},
        "counts": {"rulings": len(out), "governed": len(gov), "ungoverned": len(out) - len(gov),
                   "train_governed": sum(x["split"] == "train" for x in gov),
                   "test_governed": sum(x["split"] == "test" for x in gov), "missing": missing},
        "rulings": out,
    }
    (HERE / "labels.json").write_text(json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")

    ov = {}
    for name, mine, theirs in (("overlap-a.json", "A", b), ("overlap-b.json", "B", a)):
        p = src / name
        if p.is_file():
            o = _items(p)
            ov[name] = {"blind_labeller": mine, "items": [{"id": i, "original": theirs.get(i), "blind": o[i]} for i in sorted(o)],
                        "agreement": agreement({i: theirs[i] for i in o if i in theirs}, o)}
    all_first = {x["id"]: x["original"] for v in ov.values() for x in v["items"] if x["original"]}
    all_second = {x["id"]: x["blind"] for v in ov.values() for x in v["items"]}
    summary = {"overlaps": ov, "overall": agreement(all_first, all_second)}
    (HERE / "agreement.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False, sort_keys=True) + "\n",
                                         encoding="utf-8")
    print(json.dumps({"counts": data["counts"], "agreement": summary["overall"]}, indent=1))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/work/labels")
