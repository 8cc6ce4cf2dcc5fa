"""Draw the ruling-linking sample (issue 15) before any tuning: fixed seed, six sets only.

Run from the repository root:  python tests/data/linking/draw_sample.py ../shared/corpus/rulings/mtgjson3
Writes tests/data/linking/sample.json (unlabelled).  A second draw (``--second``), made on
2026-11-30 before the first model was retrained, takes 480 more from the rulings the first draw
left (seed 1515, ids L440-L919) into sample-2.json; a third (``--third``), made the same day
before any model saw it, takes every ruling the first two left, in the order of seed 1616
(ids from L920), into sample-3.json.  The split rule is the same, so a card's rulings never sit
on both sides.  The split is by card *family*: rulings whose
text is the same once the card's own name is masked (mechanic boilerplate repeated on many cards)
are drawn once, so near-copies cannot sit on both sides of the split.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from pathlib import Path

SETS = ("AKH", "HOU", "XLN", "RIX", "DOM", "GRN")  # the other twelve are reserved for testing
SEED = 15
N = 440  # 400 wanted; a margin for rulings that no rule governs (story notes, ability words)
SEED_2, N_2 = 1515, 480  # the second draw, from what the first left
SEED_3 = 1616  # the third draw: everything the first two left, in a random order
TEST_SHARE = 35  # percent of cards in the test split


def _mask(text: str, name: str) -> str:
    for part in [name, *name.split(" // ")]:
        if part:
            text = text.replace(part, "CARDNAME")
            first = part.split(",")[0]
            text = text.replace(first, "CARDNAME")
    return re.sub(r"\s+", " ", text).strip().lower()


def split_of(card: str) -> str:
    h = int(hashlib.sha256(card.encode("utf-8")).hexdigest(), 16) % 100
    return "test" if h < TEST_SHARE else "train"


def main(folder: str, draw: int = 1) -> None:
    seen: set[str] = set()
    pool = []
    for code in SETS:
        data = json.loads(Path(folder, f"{code}.json").read_text(encoding="utf-8"))
        for card in sorted(data["cards"], key=lambda c: (c["name"], c.get("number", ""))):
            name = " // ".join(card["names"]) if card.get("names") and card.get("layout") in ("split", "aftermath") else card["name"]
            for i, r in enumerate(card.get("rulings") or []):
                key = _mask(r["text"], name)
                if key in seen:
                    continue
                seen.add(key)
                pool.append({
                    "set": code, "card": name, "layout": card.get("layout", "normal"),
                    "type": card.get("type", ""), "card_text": card.get("text", ""),
                    "position": i, "date": r["date"], "text": r["text"],
                })
    first = random.Random(SEED).sample(pool, N)
    drawn, seed, start, name = first, SEED, 0, "sample.json"
    if draw >= 2:
        # the same words on another card (split-card boilerplate naming its own halves) count
        # as drawn: a copy on the other side of the split would leak
        taken = {item["text"] for item in first}
        rest = [dict(item) for item in pool if item["text"] not in taken]
        second = random.Random(SEED_2).sample(rest, N_2)
        drawn, seed, start, name = second, SEED_2, N, "sample-2.json"
        if draw == 3:
            taken |= {item["text"] for item in second}
            rest = [dict(item) for item in pool if item["text"] not in taken]
            drawn = random.Random(SEED_3).sample(rest, len(rest))
            seed, start, name = SEED_3, N + N_2, "sample-3.json"
    for k, item in enumerate(drawn, start):
        item["id"] = f"L{k:03d}"
        item["split"] = split_of(item["card"])
    if draw == 3:
        # The pool masks each card's own name, so the same words on two cards whose names mask
        # differently ("Gideon" on Gideon of the Trials) are two items: within a draw of the
        # whole rest, only the first copy is kept (ids stay those of the seed's order).
        first_of = {}
        for item in drawn:
            first_of.setdefault(item["text"], item)
        drawn = [item for item in drawn if first_of[item["text"]] is item]
    out = {
        "cr_edition": "2025-11-14",
        "sets": list(SETS),
        "seed": seed,
        "pool": len(pool),
        "rulings": drawn,
    }
    Path(__file__).with_name(name).write_text(json.dumps(out, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    n_test = sum(d["split"] == "test" for d in drawn)
    print(f"pool {len(pool)} unique rulings; drew {len(drawn)}: train {len(drawn) - n_test}, test {n_test}")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    which = 3 if "--third" in sys.argv[1:] else 2 if "--second" in sys.argv[1:] else 1
    main(args[0] if args else "../shared/corpus/rulings/mtgjson3", draw=which)
