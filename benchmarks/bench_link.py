"""Benchmark: link all 10,279 MTGJSON v3 rulings against one edition (index built once).

    python3 benchmarks/bench_link.py [--repeat 3] [--edition 2025-11-14] [--json OUT]

Reports the median wall time (and CPU time) of each phase over the repeats: reading the 18
files, building the index, linking every ruling (top 5) with the learned re-ranker (the
default), and, in the same run for comparison, the hand-weighted views alone (the linker
before it learned) and the plain BM25 baseline (bm25s) over rule texts.  Budget
(acceptance): linking all rulings < 60 s on 2 cores.  The machine's load average is printed
with the figures: wall time on a shared machine varies with it, CPU time much less.
The rulings of all 18 sets are only *timed* here; nothing is learned from them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = Path(os.environ.get("CRPIPE_SHARED", ROOT.parent / "shared"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--edition", default="2025-11-14")
    ap.add_argument("--json", default=None, help="also write the figures here")
    ap.add_argument("--semantic", nargs="?", const="", default=None, metavar="MODEL",
                    help="also time the linker with the semantic view (the 'semantic' extra; MODEL: an ONNX model "
                         "folder, default the packaged one) on --semantic-limit rulings")
    ap.add_argument("--semantic-limit", type=int, default=1000)
    args = ap.parse_args()

    mtg = SHARED / "corpus" / "rulings" / "mtgjson3"
    ed = SHARED / "corpus" / "cr-en" / "txt" / f"{args.edition}.txt"
    if not mtg.is_dir() or not ed.is_file():
        print(f"shared data not found under {SHARED}; nothing to measure", file=sys.stderr)
        return 2

    from pipeline.link.baseline import BM25Baseline
    from pipeline.link.index import build_index
    from pipeline.link.linker import Linker
    from pipeline.rulings import read_rulings
    from pipeline.segment.official import parse_file

    doc = parse_file(ed)
    times: dict[str, list[float]] = {"read": [], "index": [], "link": [], "link_cpu": [], "hand_weighted": [],
                                      "hand_weighted_cpu": [], "baseline": []}
    load_before = os.getloadavg()[0]
    n = 0
    for _ in range(args.repeat):
        t = time.perf_counter()
        rulings = [r for f in sorted(mtg.glob("*.json")) for r in read_rulings(f).rulings]
        times["read"].append(time.perf_counter() - t)
        n = len(rulings)

        t = time.perf_counter()
        linker = Linker(build_index(doc))
        times["index"].append(time.perf_counter() - t)

        t, c = time.perf_counter(), time.process_time()
        links = linker.link(rulings, top=5)
        times["link"].append(time.perf_counter() - t)
        times["link_cpu"].append(time.process_time() - c)
        assert len(links) == n and all(links)
        assert linker.ranker is not None, "the shipped ranker model did not load"

        t, c = time.perf_counter(), time.process_time()
        Linker(linker.ix, ranker=None).link(rulings, top=5)
        times["hand_weighted"].append(time.perf_counter() - t)
        times["hand_weighted_cpu"].append(time.process_time() - c)

        t = time.perf_counter()
        BM25Baseline(doc).rank([r.text for r in rulings], k=5)
        times["baseline"].append(time.perf_counter() - t)

    med = {k: round(statistics.median(v), 3) for k, v in times.items()}
    semantic = None
    if args.semantic is not None:
        from pipeline.link.semantic import SemanticView, load_encoder

        t, c = time.perf_counter(), time.process_time()
        view = SemanticView(linker.ix, load_encoder(args.semantic or None))  # rules' embeddings: cached per edition
        t_index, c_index = time.perf_counter() - t, time.process_time() - c
        sem_linker = Linker(linker.ix, semantic=view)
        assert sem_linker.semantic is not None, "no ranker trained with the semantic view"
        subset = rulings[:args.semantic_limit]
        t, c = time.perf_counter(), time.process_time()
        sem_linker.link(subset, top=5)
        t_link, c_link = time.perf_counter() - t, time.process_time() - c
        semantic = {"rulings_timed": len(subset), "index_seconds": round(t_index, 3), "index_cpu": round(c_index, 3),
                    "link_seconds": round(t_link, 3), "link_cpu": round(c_link, 3),
                    "all_rulings_cpu_extrapolated": round(c_link * n / max(len(subset), 1), 1)}
    out = {"rulings": n, "edition": args.edition, "repeat": args.repeat, "cpus": os.cpu_count(),
           "median_seconds": med, "per_ruling_ms": round(1000 * med["link"] / n, 3),
           "link_vs_baseline": round(med["link"] / med["baseline"], 2) if med["baseline"] else None,
           "link_vs_hand_weighted": round(med["link"] / med["hand_weighted"], 2) if med["hand_weighted"] else None,
           "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
           "budget_seconds": 60, "within_budget": med["index"] + med["link"] < 60, "semantic": semantic}
    print(json.dumps(out, indent=1, sort_keys=True))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0 if out["within_budget"] else 1


if __name__ == "__main__":
    sys.exit(main())
