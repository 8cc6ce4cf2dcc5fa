"""Benchmark (issue 5, acceptance 5): diffing editions and rule history.

Figures (wall time, with CPU time beside it because the machine is shared):

* every consecutive pair of the archive's editions (ordered by stated effective date)
  diffed with the full output (word diffs, plain line-diff count, stale references);
  median and maximum.  Caches of normalised texts are cleared before each pair, so each
  figure is what one ``crpipe diff OLD NEW`` pays after parsing: first with an empty disk
  cache (cold), then again with the pair's matching cached on disk (warm, issue 18: every
  pair <= 0.15 s).  Baseline in the same run: a plain difflib line diff of the same two
  editions (the ratio is load-independent).
* 2014-09-26 -> 2026-01-16 in one step, and 2021-02-24 -> 2021-04-19 (medians).
* history of 702.79a across the whole archive: cold (empty cache folder: scan, parse,
  match every consecutive pair) and warm (a new archive object over the filled cache),
  in-process, and the warm ``crpipe history`` command as a user runs it.

    python benchmarks/bench_diff.py [--editions ../shared/corpus/cr-en/txt] [--runs 3] [--json FILE]

Targets: pair median < 0.5 s, max < 2 s; 2014 -> 2026 < 5 s; history < 30 s cold, < 1 s warm.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from difflib import SequenceMatcher
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.diff import EditionArchive, diff_documents  # noqa: E402
from pipeline.diff.text import mask_refs, normalize, ref_tokens  # noqa: E402
from pipeline.segment.official import parse_file  # noqa: E402
import pipeline.xref  # noqa: E402,F401 - imported once up front: the first diff must not pay for imports


def clear_caches() -> None:
    for f in (normalize, mask_refs, ref_tokens):
        f.cache_clear()


def cpu() -> float:
    """CPU seconds of this process and its finished children (history uses worker processes)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def timed(fn) -> tuple[float, float, object]:
    clear_caches()
    w, c = time.perf_counter(), cpu()
    out = fn()
    return time.perf_counter() - w, cpu() - c, out


def line_diff(a, b) -> int:
    la = [f"{r.id} {r.text}" for r in a.rules]
    lb = [f"{r.id} {r.text}" for r in b.rules]
    return sum(1 for op in SequenceMatcher(None, la, lb, autojunk=False).get_opcodes() if op[0] != "equal")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--editions", type=Path, default=ROOT.parent / "shared" / "corpus" / "cr-en" / "txt")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", type=Path, help="Also write the figures here.")
    args = ap.parse_args()
    cache_tmp = tempfile.TemporaryDirectory(prefix="crpipe-bench-cache-")
    os.environ["CRPIPE_CACHE"] = cache_tmp.name  # cold: nothing cached before this run
    files = sorted(args.editions.glob("*.txt"))
    docs = [parse_file(p) for p in files]
    order = sorted(range(len(docs)), key=lambda i: (docs[i].meta.effective_date or files[i].stem, files[i].stem))
    label = {i: files[i].stem for i in range(len(files))}
    pairs, base = [], []
    for i, j in zip(order, order[1:]):
        w, c, _ = timed(lambda: diff_documents(docs[i], docs[j]))
        bw, _, _ = timed(lambda: line_diff(docs[i], docs[j]))
        pairs.append((w, c, f"{label[i]} -> {label[j]}"))
        base.append(bw)
    warm_pairs = []
    for i, j in zip(order, order[1:]):
        w, c, _ = timed(lambda: diff_documents(docs[i], docs[j]))
        warm_pairs.append((w, c, f"{label[i]} -> {label[j]}"))
    walls = [p[0] for p in pairs]
    worst = max(pairs)
    warm_worst_w = max(warm_pairs)
    warm_worst_c = max(warm_pairs, key=lambda p: p[1])
    by = {f.stem: d for f, d in zip(files, docs)}

    def med(a, b):
        runs = [timed(lambda: diff_documents(by[a], by[b])) for _ in range(args.runs)]
        return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)

    long_w, long_c = med("2014-09-26", "2026-01-16")
    mv_w, mv_c = med("2021-02-24", "2021-04-19")
    del docs, by
    with tempfile.TemporaryDirectory(prefix="crpipe-bench-") as tmp:
        cw, cc, lin = timed(lambda: EditionArchive(args.editions, cache_dir=tmp).lineage("702.79a"))
        warm = [timed(lambda: EditionArchive(args.editions, cache_dir=tmp).lineage("702.79a")) for _ in range(args.runs)]
        cli = []
        for _ in range(args.runs):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "pipeline.cli", "history", "702.79a", "--editions", str(args.editions),
                            "--cache", tmp, "--json"], check=True, capture_output=True, cwd=ROOT)
            cli.append(time.perf_counter() - t)
    figures = {
        "pairs": len(pairs),
        "pair_median_s": round(statistics.median(walls), 3),
        "pair_max_s": round(worst[0], 3), "pair_max": worst[2],
        "pair_median_cpu_s": round(statistics.median(p[1] for p in pairs), 3),
        "pair_max_cpu_s": round(max(p[1] for p in pairs), 3),
        "warm_pair_median_s": round(statistics.median(p[0] for p in warm_pairs), 3),
        "warm_pair_max_s": round(warm_worst_w[0], 3), "warm_pair_max": warm_worst_w[2],
        "warm_pair_median_cpu_s": round(statistics.median(p[1] for p in warm_pairs), 3),
        "warm_pair_max_cpu_s": round(warm_worst_c[1], 3), "warm_pair_max_cpu": warm_worst_c[2],
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "pair_median_vs_line_diff": round(statistics.median(w / max(b, 1e-6) for (w, _, _), b in zip(pairs, base)), 1),
        "one_step_2014_09_26_to_2026_01_16_s": round(long_w, 3), "one_step_cpu_s": round(long_c, 3),
        "2021_02_24_to_2021_04_19_s": round(mv_w, 3),
        "history_cold_s": round(cw, 2), "history_cold_cpu_s": round(cc, 2),
        "history_warm_s": round(statistics.median(w for w, _, _ in warm), 3),
        "history_warm_cli_s": round(statistics.median(cli), 3),
        "history_numbers": lin.numbers,
    }
    print(f"{len(pairs)} consecutive pairs: median {figures['pair_median_s']} s (cpu {figures['pair_median_cpu_s']} s, "
          f"{figures['pair_median_vs_line_diff']}x a plain line diff), max {figures['pair_max_s']} s ({worst[2]}; "
          f"largest cpu {figures['pair_max_cpu_s']} s)  [target median < 0.5 s, max < 2 s]")
    print(f"warm (matching cached on disk): median {figures['warm_pair_median_s']} s (cpu "
          f"{figures['warm_pair_median_cpu_s']} s), max {figures['warm_pair_max_s']} s ({warm_worst_w[2]}), largest cpu "
          f"{figures['warm_pair_max_cpu_s']} s ({warm_worst_c[2]})  [issue 18 target: every pair <= 0.15 s]")
    print(f"2014-09-26 -> 2026-01-16 in one step: {long_w:.3f} s (cpu {long_c:.3f} s)  [target < 5 s]")
    print(f"2021-02-24 -> 2021-04-19: {mv_w:.3f} s")
    print(f"history 702.79a over {len(files)} files: cold {cw:.2f} s (cpu {cc:.2f} s) [< 30 s], "
          f"warm {figures['history_warm_s']} s [< 1 s], warm CLI incl. interpreter start {figures['history_warm_cli_s']} s")
    print(f"  numbers: {' -> '.join(lin.numbers)}")
    print(f"load average at the end: {figures['load_average']} (2 cores; wall times grow with load, cpu times do not)")
    cache_tmp.cleanup()
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
