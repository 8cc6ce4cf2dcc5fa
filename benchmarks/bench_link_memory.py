"""Benchmark: peak memory of linking N rulings of ONE card (issue 14: it grew with N²).

    python3 benchmarks/bench_link_memory.py [--sizes 1000 5000 20000]

Each size runs in a fresh process (peak RSS is per process): the 2025-11-14 index is built,
N distinct real ruling texts (the MTGJSON v3 rulings, numbered so that none repeats) are
given to one card, and all are linked.  Prints the peak RSS after building the index and
after linking, the increase per 1,000 rulings, and the wall time.  Linear memory shows as a
constant increase per 1,000 rulings; before the fix 5,000 rulings of one card took 2 GB.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = Path(os.environ.get("CRPIPE_SHARED", ROOT.parent / "shared"))


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def one(n: int) -> dict:
    from pipeline.link.index import build_index
    from pipeline.link.linker import Linker
    from pipeline.rulings import read_rulings
    from pipeline.rulings.model import Card, Ruling
    from pipeline.segment.official import parse_file

    doc = parse_file(SHARED / "corpus" / "cr-en" / "txt" / "2025-11-14.txt")
    linker = Linker(build_index(doc))
    texts = []
    for f in sorted((SHARED / "corpus" / "rulings" / "mtgjson3").glob("*.json")):
        texts += [r.text for r in read_rulings(f).rulings]
    card = Card(name="Persistent Petitioners", faces=("Persistent Petitioners",))
    rulings = [Ruling("2020-01-01", f"{texts[i % len(texts)]} (#{i})", "bench", i, card) for i in range(n)]
    base = _rss_mb()
    t0 = time.perf_counter()
    ranked = linker.link(rulings, top=5)
    wall = time.perf_counter() - t0
    assert len(ranked) == n
    return {"n": n, "rss_index_mb": round(base, 1), "rss_peak_mb": round(_rss_mb(), 1), "link_s": round(wall, 1)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 20000])
    ap.add_argument("--one", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if not (SHARED / "corpus" / "rulings" / "mtgjson3").is_dir():
        print(f"shared data not found under {SHARED}; nothing to measure", file=sys.stderr)
        return 2
    if args.one is not None:
        print(json.dumps(one(args.one)))
        return 0
    rows = []
    for n in args.sizes:
        out = subprocess.run([sys.executable, __file__, "--one", str(n)], capture_output=True, text=True, check=True)
        rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
    print(f"load average: {os.getloadavg()[0]:.1f}")
    print(f"{'rulings':>8} {'RSS index MB':>13} {'RSS peak MB':>12} {'MB per 1k':>10} {'link s':>7}")
    for r in rows:
        per = (r["rss_peak_mb"] - r["rss_index_mb"]) / (r["n"] / 1000)
        print(f"{r['n']:>8} {r['rss_index_mb']:>13} {r['rss_peak_mb']:>12} {per:>10.1f} {r['link_s']:>7}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
