"""Benchmark (issue 13, acceptance 2): ``crpipe show`` warm, and reading the embedded archive.

Figures (wall and CPU time; the machine is shared, so CPU time and ratios are the stable ones):

* each acceptance query (601.2f; 702.78a in 2019-06-12; persist; 120.4.) in-process, warm
  (history pairs cached, imports done): median of --runs.  Baseline in the same run: parsing
  the latest edition once (what any command that reads the rules pays).
* the same queries as a fresh ``crpipe show`` process (interpreter + imports included).
* reading one edition from the embedded archive (decompress one run + sha256), and all 110.

    python benchmarks/bench_show.py [--runs 5]

Target: show < 1 s warm.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.editions import default_catalog  # noqa: E402
from pipeline.editions.embedded import EmbeddedArchive  # noqa: E402
from pipeline.show import show_rule  # noqa: E402

QUERIES = [("601.2f", None), ("702.78a", "2019-06-12"), ("persist", None), ("120.4.", None)]


def timed(fn, runs: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    cat = default_catalog()
    for q, e in QUERIES:  # warm the caches (history pairs, imports)
        show_rule(q, e, catalog=cat)
    base_w, base_c = timed(lambda: cat.latest().parse(), a.runs)
    print(f"baseline: parse the latest edition  wall {base_w:.3f} s  cpu {base_c:.3f} s")
    print(f"{'query':28} {'wall s':>8} {'cpu s':>8} {'× parse':>8} {'process wall':>13} {'process cpu':>12}")
    for q, e in QUERIES:
        w, c = timed(lambda: show_rule(q, e, catalog=cat), a.runs)
        args = [sys.executable, "-m", "pipeline.cli", "show", q] + (["--edition", e] if e else [])

        def proc():
            subprocess.run(args, capture_output=True, check=True, cwd=ROOT)

        t0 = os.times()
        pw, _ = timed(proc, max(1, a.runs // 2))
        t1 = os.times()
        pc = (t1.children_user + t1.children_system - t0.children_user - t0.children_system) / max(1, a.runs // 2)
        print(f"{q + (' --edition ' + e if e else ''):28} {w:8.3f} {c:8.3f} {w / base_w:8.1f} {pw:13.3f} {pc:12.3f}")
    arch = EmbeddedArchive()
    names = arch.names()

    def one():
        arch._chunk = None
        arch.read(names[len(names) // 2])

    w, c = timed(one, a.runs)
    print(f"read one edition from the archive (cold run): wall {w * 1000:.0f} ms  cpu {c * 1000:.0f} ms")
    w, c = timed(lambda: [arch.read(n) for n in names], 1)
    print(f"read all {len(names)} editions in order: wall {w:.2f} s  cpu {c:.2f} s")


if __name__ == "__main__":
    main()
