"""Benchmark and report (issue 4, acceptance 4 and 6): reference extraction + graph build.

Parses every edition once (not timed), then times extraction + resolution + graph build:
the median of ``--runs`` runs on one edition (2025-11-14 unless ``--edition``), and the
sum over all editions.  A baseline — one plain regex pass for number-shaped tokens over
the same texts, the least any extractor must do — is timed in the same run so the figures
read as ratios on a noisy machine.  Prints, per edition, the reference count and the
dangling and title-mismatch counts; exits 1 if extraction raised on any edition.

    python benchmarks/bench_xref.py [--editions ../shared/corpus/cr-en/txt] [--runs 7] [--list]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.segment.official import parse_file  # noqa: E402
from pipeline.xref import build_graph, extract_references  # noqa: E402
from pipeline.xref.extract import _texts  # noqa: E402

_TOKENS = re.compile(r"\d+(?:\.\d+)*[a-z]?")


def work(doc):
    refs = extract_references(doc)
    return refs, build_graph(doc, refs)


def baseline(doc) -> int:
    return sum(len(_TOKENS.findall(t)) for _, _, t, _ in _texts(doc))


def median_time(fn, runs: int) -> float:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return statistics.median(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--editions", type=Path, default=ROOT.parent / "shared/corpus/cr-en/txt")
    ap.add_argument("--edition", default="2025-11-14", help="the edition timed alone")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--list", action="store_true", help="also list every dangling reference of --edition")
    a = ap.parse_args()
    files = sorted(a.editions.glob("*.txt"))
    if not files:
        sys.exit(f"no editions in {a.editions}")

    docs = {f.stem: parse_file(f) for f in files}
    failures = []
    print(f"{'edition':<12} {'refs':>6} {'dangling':>9} {'title-mm':>9} {'edges':>6}")
    for name, doc in docs.items():
        try:
            refs, g = work(doc)
        except Exception as e:  # noqa: BLE001 - the report must name every failing edition
            failures.append((name, repr(e)))
            print(f"{name:<12} FAILED {e!r}")
            continue
        st = Counter(r.status for r in refs)
        print(f"{name:<12} {len(refs):>6} {st['dangling']:>9} {st['title-mismatch']:>9} {g.number_of_edges():>6}")

    one = docs[a.edition]
    t_one = median_time(lambda: work(one), a.runs)
    b_one = median_time(lambda: baseline(one), a.runs)
    all_runs = max(1, a.runs // 3)
    t_all = median_time(lambda: [work(d) for d in docs.values()], all_runs)
    b_all = median_time(lambda: [baseline(d) for d in docs.values()], all_runs)
    print()
    print(f"{a.edition}: extraction + graph {t_one * 1000:.1f} ms median of {a.runs} "
          f"(baseline token scan {b_one * 1000:.1f} ms, ratio {t_one / b_one:.1f}x); target < 500 ms: "
          f"{'met' if t_one < 0.5 else 'NOT met'}")
    print(f"all {len(docs)} editions: {t_all:.2f} s median of {all_runs} "
          f"(baseline {b_all:.2f} s, ratio {t_all / b_all:.1f}x)")
    if a.list:
        refs = extract_references(one)
        print(f"\nproblems in {a.edition}:")
        for r in refs:
            if r.status in ("dangling", "title-mismatch"):
                print(f"  {r.status:<15} {r.source:<28} {r.raw:<10} {r.detail}")
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
