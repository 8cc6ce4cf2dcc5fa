"""Benchmark: the test split linked against several editions, in one run (issues 26.4, 27.2).

    python3 benchmarks/bench_link_editions.py [--editions 2025-11-14 2026-01-16 2019-06-12]
                                              [--split test] [--json OUT]

The labels name rules as numbered in 2025-11-14 (``labels.json``'s ``cr_edition``); against
another edition each label is mapped through the renumbering
(:func:`pipeline.link.evaluate.map_gold`), a label whose rule is gone is dropped and a ruling
left with none is left out (counted).  Each edition is measured twice: with the ranker's
prior and labelled-ruling memory carried through the renumbering (what ``crpipe link`` does)
and with them left out (``carry=False``, what it did before).  Figures are given on all the
rulings each edition keeps and on the rulings every edition keeps (``common``), so the
editions compare on the same rulings.  Each card's context is its text and all its rulings in
the six labelled set files, as ``crpipe link`` on those files sees them.  Nothing is fitted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = Path(os.environ.get("CRPIPE_SHARED", ROOT.parent / "shared"))
LABELS = ROOT / "tests" / "data" / "linking" / "labels.json"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--editions", nargs="+", default=["2025-11-14", "2026-01-16", "2019-06-12"])
    ap.add_argument("--split", default="test")
    ap.add_argument("--json", default=None, help="also write the figures here")
    args = ap.parse_args()
    mtg = SHARED / "corpus" / "rulings" / "mtgjson3"
    if not mtg.is_dir():
        print(f"shared data not found under {SHARED}; nothing to measure", file=sys.stderr)
        return 2

    from pipeline.editions import load_edition
    from pipeline.link.evaluate import gold_inputs, load_gold, map_gold, metrics
    from pipeline.link.index import build_index
    from pipeline.link.linker import Linker
    from pipeline.link.rerank import MODEL_PATH, Ranker, train_split_path
    from pipeline.link.train import SETS
    from pipeline.rulings import load_card_index, read_rulings

    labelled_on = json.loads(LABELS.read_text(encoding="utf-8"))["cr_edition"]
    gold = load_gold(LABELS, split=args.split)
    files = [mtg / f"{s}.json" for s in SETS]
    cards = load_card_index(files)
    ctx = [r for f in files for r in read_rulings(f).rulings]
    t0 = time.process_time()
    per: dict[str, dict] = {}
    rankings: dict[tuple[str, bool], dict[str, list[str]]] = {}
    golds: dict[str, dict] = {}
    for ed in args.editions:
        doc = load_edition(ed)
        items, dropped = map_gold(gold, labelled_on, doc.meta.effective_date)
        golds[ed] = {g.id: g for g in items}
        kw = gold_inputs(items, cards, ctx)
        ix = build_index(doc)
        per[ed] = {"edition": doc.meta.effective_date, "rulings": len(items), "left_out": dropped}
        for carry in (True, False):
            # The train-split twin: the shipped ranker learned from the test split's rulings too.
            ranker = Ranker.load(train_split_path(MODEL_PATH))
            ranker.carry = carry
            lk = Linker(ix, ranker=ranker)
            got = [[c.rule for c in r] for r in lk.link_texts([g.text for g in items], top=20, **kw)]
            rankings[(ed, carry)] = {g.id: r for g, r in zip(items, got)}
            per[ed]["carried" if carry else "left_out_prior_memory"] = metrics(got, items)
            per[ed]["carry_note" if carry else "_"] = ranker.carry_note
        per[ed].pop("_", None)
    common = sorted(set.intersection(*(set(g) for g in golds.values())))
    for ed in args.editions:
        for carry in (True, False):
            sub = [golds[ed][i] for i in common]
            per[ed][("carried" if carry else "left_out_prior_memory") + "_common"] = metrics(
                [rankings[(ed, carry)][i] for i in common], sub)
    out = {"split": args.split, "labelled_on": labelled_on, "common_rulings": len(common), "editions": per,
           "cpu_s": round(time.process_time() - t0, 1), "load_average": round(os.getloadavg()[0], 2)}
    text = json.dumps(out, indent=1, sort_keys=True)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
