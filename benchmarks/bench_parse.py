"""Benchmark (issue 2, acceptance 7; issue 18, acceptance 1): decode + parse (+ integrity check)
of official editions.

Reports medians over repeated runs: one modern edition (2025-11-14) and all editions of
the archive.  The rule-number parse cache is cleared before every run, so each figure is
a cold start of the parser.  A baseline (reading the bytes, decoding and splitting lines,
the least any parser must do) is timed in the same run, interleaved with the parse, so
the figures can be read as ratios on a noisy machine; CPU time is given beside wall time
(on a shared machine wall time grows with the load, CPU time much less).

Issue 18's targets: parse of 2025-11-14 <= 6x the read+decode+split baseline (Rulesraker's
Go parser is about 5x); all editions parsed in <= 1.5 s.

    python benchmarks/bench_parse.py [--editions ../shared/corpus/cr-en/txt] [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.qa.integrity import check  # noqa: E402
from pipeline.rulenum import _parse_cached  # noqa: E402
from pipeline.segment.official import parse_file  # noqa: E402


def one(path: Path) -> None:
    doc = parse_file(path)
    check(doc)


def timed(fn, runs: int, clock=time.perf_counter) -> list[float]:
    out = []
    for _ in range(runs):
        _parse_cached.cache_clear()
        t = clock()
        fn()
        out.append(clock() - t)
    return out


def interleaved(fn, base, runs: int) -> tuple[list[float], list[float], list[float], list[float]]:
    """Wall and CPU times of ``fn`` and ``base``, run alternately so both see the same load."""
    fw, fc, bw, bc = [], [], [], []
    for _ in range(runs):
        for f, w, c in ((base, bw, bc), (fn, fw, fc)):
            _parse_cached.cache_clear()
            t, u = time.perf_counter(), time.process_time()
            f()
            w.append(time.perf_counter() - t)
            c.append(time.process_time() - u)
    return fw, fc, bw, bc


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--editions", type=Path, default=ROOT.parent / "shared/corpus/cr-en/txt")
    ap.add_argument("--runs", type=int, default=15)
    a = ap.parse_args()
    files = sorted(a.editions.glob("*.txt"))
    if not files:
        sys.exit(f"no editions in {a.editions}")
    modern = a.editions / "2025-11-14.txt"
    one(modern)  # warm the file cache and imports
    med = statistics.median

    def base_one():
        return modern.read_bytes().decode("utf-8-sig").splitlines()

    pw, pc, bw, bc = interleaved(lambda: parse_file(modern), base_one, a.runs)
    cw, cc, _, _ = interleaved(lambda: one(modern), base_one, max(3, a.runs // 3))
    aw, ac, abw, abc = interleaved(lambda: [parse_file(p) for p in files],
                                   lambda: [p.read_bytes().decode("latin-1").splitlines() for p in files],
                                   max(3, a.runs // 5))
    ratio_w = med(pw) / med(bw)
    ratio_c = med(pc) / med(bc)
    print(f"{'what':46} {'wall med':>9} {'wall min':>9} {'cpu med':>9} {'cpu min':>9}")
    for name, w, c in (("baseline 2025-11-14: read+decode+split", bw, bc), ("2025-11-14: parse", pw, pc),
                       ("2025-11-14: parse+check", cw, cc)):
        print(f"{name:46} {med(w) * 1e3:7.1f}ms {min(w) * 1e3:7.1f}ms {med(c) * 1e3:7.1f}ms {min(c) * 1e3:7.1f}ms")
    for name, w, c in ((f"baseline all {len(files)}: read+decode+split", abw, abc), (f"all {len(files)} editions: parse", aw, ac)):
        print(f"{name:46} {med(w):8.3f}s {min(w):8.3f}s {med(c):8.3f}s {min(c):8.3f}s")
    print(f"parse / baseline, 2025-11-14: {ratio_w:.1f}x wall, {ratio_c:.1f}x cpu (min/min {min(pc) / min(bc):.1f}x)  "
          f"[target <= 6x] -> {'met' if min(ratio_w, ratio_c) <= 6 else 'NOT met'}")
    print(f"all {len(files)} editions: {med(aw):.2f} s wall, {med(ac):.2f} s cpu, {med(ac) / med(abc):.1f}x its baseline  "
          f"[target <= 1.5 s] -> {'met' if min(med(aw), med(ac)) <= 1.5 else 'NOT met'}")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (2 cores)")


if __name__ == "__main__":
    main()
