"""Benchmark (issue 30, acceptance 4; issue 26's "audit-citations on 50,000 files 2.9 GiB"): peak
memory of ``crpipe audit-citations`` on a 50,000-file synthetic tree, target at most 600 MB.

The tree is bench_engine's generator (six languages, ~40 lines a file, a citation in about every
fourth line: current, stale, wrong-topic, quoted, identifier and list styles, decoys), written
to a temporary folder.  Each mode runs the real command in a child process against the model
edition with every edition's history, its peak resident set size read from the kernel
(``os.wait4``'s rusage, the figure ``/usr/bin/time -v`` prints), with the CPU time it used:

* ``--json`` to /dev/null (every citation streamed),
* ``--sarif FILE`` with the finding lines to /dev/null,
* ``--baseline FILE`` written on a first run, then compared on a second.

    python benchmarks/bench_audit_memory.py [--files 50000] [--rules 2026-01-16] [--limit-mb 600]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_engine import make_tree  # noqa: E402


def run(args: list[str], cwd: Path) -> tuple[int, float, float, float]:
    """(exit code, peak RSS in MB, CPU seconds user+sys, wall seconds) of one command."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    t = time.perf_counter()
    with open(os.devnull, "w") as null:
        p = subprocess.Popen([sys.executable, "-m", "pipeline.cli", *args], cwd=cwd, stdout=null, env=env)
        _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, ru.ru_maxrss / 1024, ru.ru_utime + ru.ru_stime, wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=50_000)
    ap.add_argument("--rules", default="2026-01-16")
    ap.add_argument("--limit-mb", type=float, default=600.0)
    a = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores)")
    with tempfile.TemporaryDirectory(prefix="bench-audit-mem-") as tmp:
        tmp = Path(tmp)
        tree = tmp / "tree"
        t = time.perf_counter()
        lines = make_tree(tree, a.files)
        print(f"tree: {a.files} files, {lines} lines, generated in {time.perf_counter() - t:.1f}s")
        common = ["audit-citations", str(tree), "--rules", a.rules]
        # A tiny tree first: the resolver's fixed cost (the model, 110 editions' history).
        small = tmp / "small"
        small.mkdir()
        (small / "a.py").write_text("# CR 702.19b: trample\n", encoding="utf-8")
        modes = [
            ("fixed cost (one file, --json)", ["audit-citations", str(small), "--rules", a.rules, "--json"]),
            ("--json to /dev/null", common + ["--json"]),
            ("--sarif FILE, lines to /dev/null", common + ["--sarif", str(tmp / "out.sarif")]),
            ("--baseline FILE (first run: writes it)", common + ["--baseline", str(tmp / "base.json")]),
            ("--baseline FILE (second run: compares)", common + ["--baseline", str(tmp / "base.json")]),
        ]
        worst = 0.0
        print(f"{'mode':44} {'exit':>4} {'peak RSS':>10} {'CPU':>8} {'wall':>8}")
        for what, args in modes:
            rc, mb, cpu, wall = run(args, tmp)
            if "one file" not in what:
                worst = max(worst, mb)
            print(f"{what:44} {rc:>4} {mb:>8.0f}MB {cpu:>7.1f}s {wall:>7.1f}s")
        print(f"load average after: {os.getloadavg()[0]:.2f}")
        ok = worst <= a.limit_mb
        print(f"\ntarget: peak RSS at most {a.limit_mb:.0f} MB on {a.files} files:",
              f"{'met' if ok else 'NOT met'} ({worst:.0f} MB)")
        sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
