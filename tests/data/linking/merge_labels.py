"""Merge the labellers' files with the two draws into labels.json; compute their agreement.

Run from the repository root:  python tests/data/linking/merge_labels.py /work/labels [OUT_DIR]
Reads the draws (sample.json: L000–L439, seed 15; sample-2.json: L440–L919, seed 1515;
sample-3.json: L920–L1649, seed 1616) and,
from the labels folder, each labeller's file and blind overlap:

    draw 1: labels-a.json (L000–L219), labels-b.json (L220–L439);
            overlap-a.json (L220–L249 by A), overlap-b.json (L000–L029 by B)
    draw 2: labels-c.json (L440–L559), labels-d.json (L560–L679), labels-e.json (L680–L799),
            labels-f.json (L800–L919); overlap-c.json (L560–L571 by C), overlap-d.json
            (L680–L691 by D), overlap-e.json (L800–L811 by E), overlap-f.json (L440–L451 by F)
    draw 3: labels-g.json … labels-l.json (G: L920–L1041, H: L1042–L1163, I: L1164–L1285,
            J: L1286–L1407, K: L1408–L1529, L: L1530–L1649); each labeller's blind overlap is
            the first 12 of the next one's range (L's: the first 12 of G's)

Writes labels.json (each labelled ruling with its primary rule, acceptable rules, reason,
governed flag, labeller and split; a drawn ruling nobody labelled is left out and counted per
draw) and agreement.json (the blind overlaps side by side, the agreement per overlap, per draw
and overall).  The label used is always the range owner's; the overlaps only measure agreement.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: Per draw: its sample file, each labeller's letter and id range, and each blind overlap
#: (its labeller, the range it re-labelled; the owner of those ids is who labelled them first).
DRAWS = (
    {"sample": "sample.json",
     "labellers": {"A": ("L000", "L219"), "B": ("L220", "L439")},
     "overlaps": {"A": ("L220", "L249"), "B": ("L000", "L029")}},
    {"sample": "sample-2.json",
     "labellers": {"C": ("L440", "L559"), "D": ("L560", "L679"), "E": ("L680", "L799"), "F": ("L800", "L919")},
     "overlaps": {"C": ("L560", "L571"), "D": ("L680", "L691"), "E": ("L800", "L811"), "F": ("L440", "L451")}},
    {"sample": "sample-3.json",
     "labellers": {"G": ("L920", "L1041"), "H": ("L1042", "L1163"), "I": ("L1164", "L1285"),
                   "J": ("L1286", "L1407"), "K": ("L1408", "L1529"), "L": ("L1530", "L1649")},
     "overlaps": {"G": ("L1042", "L1053"), "H": ("L1164", "L1175"), "I": ("L1286", "L1297"),
                  "J": ("L1408", "L1419"), "K": ("L1530", "L1541"), "L": ("L920", "L931")}},
)


def _num(rid: str) -> int:
    return int(rid[1:])


def _within(rid: str, span: tuple[str, str]) -> bool:
    return _num(span[0]) <= _num(rid) <= _num(span[1])


def _items(path: Path) -> dict[str, dict]:
    if not path.is_file():
        return {}
    d = json.loads(path.read_text(encoding="utf-8"))
    items = d["labels"] if isinstance(d, dict) else d
    return {x["id"]: x for x in items}


def _protocol(path: Path) -> str:
    if not path.is_file():
        return ""
    d = json.loads(path.read_text(encoding="utf-8"))
    return d.get("protocol", "") if isinstance(d, dict) else ""


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


def _owner(draw: dict, rid: str) -> str | None:
    return next((who for who, span in draw["labellers"].items() if _within(rid, span)), None)


def merge(src: Path) -> tuple[dict, dict]:
    """(labels.json, agreement.json) from the labels folder ``src``."""
    out, draws, protocols = [], [], {}
    firsts: dict[str, dict] = {}
    seconds: dict[str, dict] = {}
    overlaps: dict[str, dict] = {}
    for k, draw in enumerate(DRAWS, 1):
        sample = json.loads((HERE / draw["sample"]).read_text(encoding="utf-8"))
        own = {}
        for who, span in draw["labellers"].items():
            path = src / f"labels-{who.lower()}.json"
            protocols[who] = _protocol(path)
            # Only the labeller's own range counts (a stray id elsewhere is not theirs to label).
            own.update({i: {**x, "_by": who} for i, x in _items(path).items() if _within(i, span)})
        missing = []
        for r in sample["rulings"]:
            lab = own.get(r["id"])
            if lab is None:
                missing.append(r["id"])
                continue
            out.append({**r, "primary": lab["primary"] if lab["governed"] else "",
                        "acceptable": sorted(lab.get("acceptable") or []) if lab["governed"] else [],
                        "why": lab["why"], "governed": bool(lab["governed"]), "labeller": lab["_by"], "draw": k})
        mine = [x for x in out if x["draw"] == k]
        gov = [x for x in mine if x["governed"]]
        draws.append({"draw": k, "file": draw["sample"], "seed": sample["seed"], "pool": sample["pool"],
                      "drawn": len(sample["rulings"]), "labelled": len(mine), "governed": len(gov),
                      "train_governed": sum(x["split"] == "train" for x in gov),
                      "test_governed": sum(x["split"] == "test" for x in gov),
                      "not_labelled": len(missing), "not_labelled_ids": missing,
                      "labellers": {who: f"{a}–{b}" for who, (a, b) in draw["labellers"].items()}})
        draw_first, draw_second = {}, {}
        for who, span in draw["overlaps"].items():
            blind = {i: x for i, x in _items(src / f"overlap-{who.lower()}.json").items() if _within(i, span)}
            owner = _owner(draw, span[0])
            # Only rulings both have labelled are compared (a partial file compares what it has).
            both = sorted(i for i in blind if i in own)
            items = [{"id": i, "original": {key: v for key, v in own[i].items() if key != "_by"}, "blind": blind[i]}
                     for i in both]
            first = {it["id"]: it["original"] for it in items}
            second = {it["id"]: it["blind"] for it in items}
            overlaps[f"overlap-{who.lower()}.json"] = {
                "draw": k, "blind_labeller": who, "original_labeller": owner, "range": f"{span[0]}–{span[1]}",
                "pending": len(blind) - len(both), "items": items, "agreement": agreement(first, second)}
            draw_first.update(first)
            draw_second.update(second)
        firsts.update(draw_first)
        seconds.update(draw_second)
        draws[-1]["agreement"] = agreement(draw_first, draw_second)
    gov = [x for x in out if x["governed"]]
    first_sample = json.loads((HERE / DRAWS[0]["sample"]).read_text(encoding="utf-8"))
    data = {
        "cr_edition": first_sample["cr_edition"], "sets": first_sample["sets"],
        "draws": [{key: v for key, v in d.items() if key != "agreement"} for d in draws],
        "note": "primary: the most specific rule a careful judge cites for the ruling; acceptable: other rules a "
                "judge also accepts. governed=false: no rule governs the ruling (left out of every metric). "
                "split: train/test by card, fixed by the draw script before any labelling or tuning. draw: 1 "
                "(sample.json, seed 15), 2 (sample-2.json, seed 1515) or 3 (sample-3.json, seed 1616). "
                "Protocol and agreement: PROTOCOL.md.",
        "labellers": dict(sorted(protocols.items())),
        "counts": {"rulings": len(out), "governed": len(gov), "ungoverned": len(out) - len(gov),
                   "train_governed": sum(x["split"] == "train" for x in gov),
                   "test_governed": sum(x["split"] == "test" for x in gov),
                   "not_labelled": sum(d["not_labelled"] for d in draws)},
        "rulings": out,
    }
    summary = {"overlaps": overlaps, "per_draw": {str(d["draw"]): d["agreement"] for d in draws},
               "overall": agreement(firsts, seconds)}
    return data, summary


def _write(path: Path, obj: dict) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(obj, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def main(folder: str, out: str | None = None) -> None:
    data, summary = merge(Path(folder))
    dest = Path(out) if out else HERE  # another folder: a look at partial labels, the committed set untouched
    _write(dest / "labels.json", data)
    _write(dest / "agreement.json", summary)
    print(json.dumps({"counts": data["counts"],
                      "not_labelled": {d["file"]: d["not_labelled"] for d in data["draws"]},
                      "agreement": {"per_draw": summary["per_draw"], "overall": summary["overall"]}},
                     indent=1, ensure_ascii=False))

if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/work/labels", sys.argv[2] if len(sys.argv) > 2 else None)
