"""``crpipe align`` on the real pt-BR PO (4,084 units), the CLI in a fresh process each time.

Issue 24 acceptance 6: at most 20 s CPU with empty caches.  CPU is user + system time of the
process and everything it waited for (the ``hunspell`` pipe included), read from ``wait4`` of
each run: on this shared 2-core machine wall time says more about the other jobs than about
crpipe.  Each round makes a new, empty ``CRPIPE_CACHE``, runs the command once (cold: every
cache is built — edition inventories, the pin, the lexicons, the Lightproof index, the learnt
lexicon's links, the Hunspell memo, the diffs) and again on the caches it left (warm).  The
baseline in the same run is the CLI's ``--help`` (interpreter + imports).  The load average is
printed before and after: CPU time grows too when the other core is busy (shared caches).

    python benchmarks/bench_align_po.py [--rounds 3] [--all-outputs]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
PO = SHARED / "corpus" / "translations" / "pt-BR" / "comprehensive-rules.pt-BR.po"
EDITIONS = SHARED / "corpus" / "cr-en" / "txt"
TARGET = 20.0  # seconds of CPU, cold (issue 24, acceptance 6)


def run(args, env) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one CLI run; a failing run stops the benchmark."""
    t = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "pipeline.cli", *map(str, args)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, ru = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    err = proc.stderr.read().decode("utf-8", "replace")
    proc.stderr.close()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        sys.exit(f"crpipe {' '.join(map(str, args[:1]))} failed ({proc.returncode}): {err.strip()[-500:]}")
    return ru.ru_utime + ru.ru_stime, wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3, help="cold + warm pairs, each with a new empty cache")
    ap.add_argument("--all-outputs", action="store_true", help="write JSON, HTML, CSV, XLIFF and PO (default: JSON)")
    opts = ap.parse_args()
    if not PO.is_file():
        sys.exit(f"the real PO is not at {PO}")
    load_before = os.getloadavg()
    rows: dict[str, list[tuple[float, float]]] = {"crpipe --help": [], "align PO, cold (empty cache)": [],
                                                  "align PO, warm": []}
    with tempfile.TemporaryDirectory() as out:
        outs = ["--json", Path(out) / "r.json"]
        if opts.all_outputs:
            outs += ["--html", Path(out) / "r.html", "--csv", Path(out) / "r.csv", "--xliff", Path(out) / "r.xlf",
                     "--po", Path(out) / "r.po"]
        args = ["align", PO, "--reference", EDITIONS, *outs, "--fail-on", "never"]
        for _ in range(opts.rounds):
            with tempfile.TemporaryDirectory() as cache:
                env = {**os.environ, "PYTHONPATH": str(ROOT), "CRPIPE_CACHE": cache}
                rows["crpipe --help"].append(run(["--help"], env))
                rows["align PO, cold (empty cache)"].append(run(args, env))
                rows["align PO, warm"].append(run(args, env))
    load_after = os.getloadavg()
    print(f"load average (1, 5, 15 min): before {' '.join(f'{x:.2f}' for x in load_before)}, "
          f"after {' '.join(f'{x:.2f}' for x in load_after)}; {os.cpu_count()} CPUs")
    base = statistics.median(c for c, _ in rows["crpipe --help"])
    print(f"{'what':<30}{'CPU s (median)':>15}{'min–max':>14}{'× --help':>10}{'wall s':>9}")
    for name, vals in rows.items():
        cpu = [c for c, _ in vals]
        med = statistics.median(cpu)
        print(f"{name:<30}{med:>15.2f}{min(cpu):>8.2f}–{max(cpu):<5.2f}{med / base:>10.1f}"
              f"{statistics.median(w for _, w in vals):>9.1f}")
    cold = statistics.median(c for c, _ in rows["align PO, cold (empty cache)"])
    print(f"cold CPU {cold:.1f} s: {'within' if cold <= TARGET else 'OVER'} the {TARGET:.0f} s target")


if __name__ == "__main__":
    main()
