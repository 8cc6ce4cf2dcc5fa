"""Benchmark (issue 17, acceptance 3): generating the rules site for three editions plus their diffs.

Editions 2019-06-12, 2021-04-19 and the latest (2026-01-16), no reports: every chapter,
trace, glossary and search page of the three, and the change pages (each edition against
its predecessor release, and between consecutive published editions: 5 diffs).  The history's
consecutive matches are cached on disk once (``--cold`` matches them first into a fresh
cache and reports that too).  Baseline in the same process: one diff of two parsed editions (2021-02-24 → 2021-04-19).
Reports wall and CPU time, and the size per edition folder.

    python benchmarks/bench_site.py [--runs 3] [--cold]

Target: < 20 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.editions import default_catalog  # noqa: E402
from pipeline.site import build_site  # noqa: E402

EDITIONS = ["2019-06-12", "2021-04-19"]


def timed(fn) -> tuple[float, float]:
    w, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w, time.process_time() - c


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cold", action="store_true", help="also time a run whose history cache is empty")
    args = ap.parse_args()
    cat = default_catalog()
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    from pipeline.diff.classify import diff_documents

    old, new = cat.resolve("2021-02-24").parse(), cat.resolve("2021-04-19").parse()
    base = [timed(lambda: diff_documents(old, new)) for _ in range(args.runs)]
    bw = statistics.median(b[0] for b in base)
    bc = statistics.median(b[1] for b in base)
    print(f"baseline: diff 2021-02-24 -> 2021-04-19 (parsed)   wall {bw:.2f} s  cpu {bc:.2f} s")
    with tempfile.TemporaryDirectory() as tmp:
        if args.cold:
            os.environ["CRPIPE_CACHE"] = str(Path(tmp) / "cache")
            w, c = timed(lambda: build_site(Path(tmp) / "cold", editions=EDITIONS, reports=Path(tmp) / "none",
                                            catalog=default_catalog()))
            print(f"site, cold history cache (matches 109 pairs first): wall {w:.1f} s  cpu {c:.1f} s (main process)")
        runs = []
        for i in range(args.runs):
            out = Path(tmp) / f"site{i}"
            runs.append(timed(lambda: build_site(out, editions=EDITIONS, reports=Path(tmp) / "none", catalog=cat)))
        w = statistics.median(r[0] for r in runs)
        c = statistics.median(r[1] for r in runs)
        print(f"site, 3 editions + 5 change pages: wall {w:.1f} s  cpu {c:.1f} s  "
              f"({w / bw:.0f}x / {c / bc:.0f}x the baseline diff)  runs: " + ", ".join(f"{r[0]:.1f}" for r in runs))
        out = Path(tmp) / "site0"
        for d in sorted(p for p in out.iterdir() if p.is_dir()):
            files = [f for f in d.rglob("*") if f.is_file()]
            print(f"  {d.name:12s} {len(files):4d} files {sum(f.stat().st_size for f in files) / 1e6:6.1f} MB")
        total = [f for f in out.rglob("*") if f.is_file()]
        print(f"  total        {len(total):4d} files {sum(f.stat().st_size for f in total) / 1e6:6.1f} MB")
        print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
