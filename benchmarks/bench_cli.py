"""Benchmark (issue 18, acceptance 2 and 3): how fast commands answer, as a user runs them.

Each command runs as a fresh process (``python -m pipeline.cli ...``), interleaved with the
baseline ``python -c pass`` (the interpreter's own start-up) so both see the same load;
medians and minimums of wall time, plus the children's CPU time.  Commands run "warm":
once before timing, so the OS file cache and crpipe's disk caches are filled.

    python benchmarks/bench_cli.py [--editions ../shared/corpus/cr-en/txt] [--runs 7]

Targets: ``--help`` and ``show 601.2f`` <= 0.25 s and <= 3x ``python -c pass``;
``parse FILE`` <= 0.3 s; ``diff`` of two consecutive editions (warm) <= 0.15 s of work (the
in-process figure is bench_diff.py's); ``history`` warm <= 0.3 s.
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


def run(cmd: list[str], env: dict) -> tuple[float, float]:
    """Wall and CPU seconds of one child process."""
    before = os.times()
    t = time.perf_counter()
    subprocess.run(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - t
    after = os.times()
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def has_command(name: str, env: dict) -> bool:
    r = subprocess.run([sys.executable, "-m", "pipeline.cli", name, "--help"], env=env, cwd=ROOT,
                       capture_output=True, text=True)
    return r.returncode == 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--editions", type=Path, default=ROOT.parent / "shared/corpus/cr-en/txt")
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=str(ROOT), CRPIPE_MIRROR=str(a.editions))
    py = sys.executable
    cli = [py, "-m", "pipeline.cli"]
    new, old = a.editions / "2025-11-14.txt", a.editions / "2025-09-19.txt"
    cases = {
        "python -c pass": [py, "-c", "pass"],
        "crpipe --help": cli + ["--help"],
        "crpipe parse 2025-11-14.txt": cli + ["parse", str(new)],
        "crpipe diff 2025-09-19 2025-11-14 --format json": cli + ["diff", str(old), str(new), "--format", "json"],
    }
    if has_command("show", env):
        cases["crpipe show 601.2f"] = cli + ["show", "601.2f"]
    cases["crpipe history 702.79a --json"] = cli + ["history", "702.79a", "--json"]
    for cmd in cases.values():  # warm: file cache, crpipe's caches
        run(cmd, env)
    wall: dict[str, list[float]] = {k: [] for k in cases}
    cpu: dict[str, list[float]] = {k: [] for k in cases}
    for _ in range(a.runs):
        for k, cmd in cases.items():
            w, c = run(cmd, env)
            wall[k].append(w)
            cpu[k].append(c)
    med = statistics.median
    base_w, base_c = med(wall["python -c pass"]), med(cpu["python -c pass"])
    print(f"{'command':50} {'wall med':>9} {'wall min':>9} {'cpu med':>9} {'x pass (wall)':>14} {'x pass (cpu)':>13}")
    for k in cases:
        print(f"{k:50} {med(wall[k]):8.3f}s {min(wall[k]):8.3f}s {med(cpu[k]):8.3f}s "
              f"{med(wall[k]) / base_w:13.1f}x {med(cpu[k]) / max(base_c, 1e-3):12.1f}x")
    print("targets: --help, show <= 0.25 s and <= 3x python -c pass; parse <= 0.3 s (wall figures "
          "include waiting for a CPU; on a loaded machine read the cpu column and the ratios)")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (2 cores)")


if __name__ == "__main__":
    main()
