"""Benchmark (issue 2, acceptance 7): decode + parse + integrity check of official editions.

Reports medians over repeated runs: one modern edition (2025-11-14) and all editions of
the archive.  The rule-number parse cache is cleared before every run, so each figure is
a cold start of the parser.  A baseline (reading the bytes and splitting lines, the least
any parser must do) is timed in the same run so the figures can be read as ratios on a
noisy machine.

    python benchmarks/bench_parse.py [--editions ../shared/corpus/cr-en/txt] [--runs 7]
"""

from __future__ import annotations

import argparse
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


def timed(fn, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        _parse_cached.cache_clear()
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--editions", type=Path, default=ROOT.parent / "shared/corpus/cr-en/txt")
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()
    files = sorted(a.editions.glob("*.txt"))
    if not files:
        sys.exit(f"no editions in {a.editions}")
    modern = a.editions / "2025-11-14.txt"
    one(modern)  # warm the file cache and imports

    base_one = timed(lambda: modern.read_bytes().decode("utf-8-sig").splitlines(), a.runs)
    t_one = timed(lambda: one(modern), a.runs)
    t_all = timed(lambda: [one(p) for p in files], max(3, a.runs // 2))
    base_all = timed(lambda: [p.read_bytes().splitlines() for p in files], 3)

    m1, ma = statistics.median(t_one), statistics.median(t_all)
    print(f"{'what':44} {'median':>10} {'min':>10} {'max':>10}")
    print(f"{'2025-11-14: decode+parse+check':44} {m1 * 1000:9.1f}ms {min(t_one) * 1000:9.1f}ms {max(t_one) * 1000:9.1f}ms")
    print(f"{f'all {len(files)} editions: decode+parse+check':44} {ma:9.2f}s  {min(t_all):9.2f}s  {max(t_all):9.2f}s")
    print(f"{'baseline 2025-11-14: read+decode+split':44} {statistics.median(base_one) * 1000:9.1f}ms")
    print(f"{'baseline all: read+split':44} {statistics.median(base_all):9.2f}s")
    print(f"targets: one modern edition < 60 ms -> {'met' if m1 < 0.060 else 'NOT met'}; "
          f"all < 8 s -> {'met' if ma < 8 else 'NOT met'}")


if __name__ == "__main__":
    main()
