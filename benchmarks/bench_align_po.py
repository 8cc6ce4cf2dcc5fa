"""Issue 12 acceptance 1: ``crpipe align`` on the real pt-BR PO (4,084 units) — wall time of the
CLI in a fresh process (cold: empty Hunspell memo; warm: second run), median of 3, with the
machine's load.  Baseline in the same run: the CLI's ``--help`` (interpreter + imports).

    python benchmarks/bench_align_po.py
"""

from __future__ import annotations

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


def run(args, env) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pipeline.cli", *map(str, args)], cwd=ROOT, env=env, check=False,
                   capture_output=True)
    return time.perf_counter() - t


def main() -> None:
    if not PO.is_file():
        sys.exit(f"the real PO is not at {PO}")
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "CRPIPE_CACHE": cache}
        args = ["align", PO, "--reference", EDITIONS, "--json", Path(out) / "r.json", "--fail-on", "never"]
        base = statistics.median(run(["--help"], env) for _ in range(3))
        cold = run(args, env)  # the first run fills the caches (lexicons, inventories, Hunspell memo)
        warm = statistics.median(run(args, env) for _ in range(3))
    print(f"load average: {os.getloadavg()[0]:.2f}")
    print(f"{'what':<28}{'seconds':>10}{'× --help':>10}")
    for name, v in (("crpipe --help", base), ("align PO (cold caches)", cold), ("align PO (warm, median 3)", warm)):
        print(f"{name:<28}{v:>10.1f}{v / base:>10.1f}")


if __name__ == "__main__":
    main()
