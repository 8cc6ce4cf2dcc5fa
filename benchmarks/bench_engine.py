"""Benchmark (issue 8, acceptance 5; issue 16, acceptance 3): citation audit of a 10,000-file
synthetic tree and a validate-engine run.

The tree is generated deterministically in a temporary folder: files in six languages,
each with ~40 lines of code and comments, a citation in about every fourth line (current,
stale, wrong-topic, quoted, identifier and list styles) plus decoy numbers.  Timed, as
medians over runs:

* baseline: reading every file and running one regular expression for rule-like numbers
  (the least any audit must do), in the same run, so figures read as ratios;
* the audit against the model edition only;
* the audit with the archive's history (``--editions``; the diffs' cache is warmed first,
  its cold cost is reported separately);
* validate-engine against 2025-11-14, and against 2019-06-12 through the diffs (declarations
  and scenarios; the conformance suite is timed apart);
* the conformance suite (issue 19): the CR's own examples on the kernel alone, on phase.rs and
  the kernel, and the whole check (verdicts per example and per rule plus the mutation check),
  target under 3 minutes.

    python benchmarks/bench_engine.py [--editions ../shared/corpus/cr-en/txt] [--files 10000] [--runs 3]
                                      [--conformance-only]
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.audit.report import audit_tree  # noqa: E402
from pipeline.engine.conformance.mutation import mutation_report  # noqa: E402
from pipeline.engine.conformance.phase_driver import skip_reason  # noqa: E402
from pipeline.engine.conformance.verdicts import run_suite, verdicts  # noqa: E402
from pipeline.engine.runner import load_scenarios  # noqa: E402
from pipeline.engine.validate import validate  # noqa: E402
from pipeline.segment.official import parse_file  # noqa: E402

COMMENTS = {
    ".rs": "// {}", ".java": "// {}", ".ts": "// {}", ".cs": "/// {}", ".py": "# {}", ".lua": "-- {}",
}
CODE = {
    ".rs": "let v{i} = compute(v{j}, 100.5);", ".java": "int v{i} = compute(v{j}, 3);",
    ".ts": "const v{i} = compute(v{j}, '1.20.3');", ".cs": "var v{i} = Compute(v{j}, 702.5);",
    ".py": "v{i} = compute(v{j}, 100.5)", ".lua": "local v{i} = compute(v{j}, 2)",
}
CITES = [
    "CR 702.19b: trample assigns lethal damage to blockers",
    "CR 702.78a: persist returns the creature with a -1/-1 counter",
    "CR 500.4: unspent mana empties from mana pools as steps end",
    "CR 601.2b: announce modes, X and alternative costs",
    "CR 701.22a / CR 701.25a: scry and surveil look at the top of the library",
    "CR 120.3 + CR 119.3a: damage dealt to a player causes life loss",
    "Rule 704.5f - a creature with toughness 0 or less goes to the graveyard",
    "CR 702.19b: flying creatures can only be blocked by flying or reach",
    "(see rule 707.10) copies of spells are not cast",
    "CR 613.3d: layer 7d applies counters",
    "CR 733.4: invented",
    "rules 704.5k-m: the world rule, then Auras attached to an illegal object",
    "rules 707.2 through 707.4: copiable values",
    "CR 702.16c/d: protection from a color",
    "Deathtouch (702.2), Defender (702.3), Double Strike (702.4)",
    "CR 701.8: Discard",
    "CR 702.90a: exalted triggers when a creature attacks alone",
    "20091005 - 500.4/703.4n",
    'CR 202.3e: "When calculating the converted mana cost of an object with an {X} in its mana cost"',
    "see stateBasedAction704_5r for the order",
]
QUOTE = '"702.53a Haunt is a triggered ability. “Haunt” on a permanent means “When this permanent is put into a graveyard from the battlefield, exile it haunting target creature.”"'


def make_tree(root: Path, n: int, seed: int = 8) -> int:
    rnd = random.Random(seed)
    exts = list(COMMENTS)
    lines_total = 0
    for k in range(n):
        ext = exts[k % len(exts)]
        d = root / f"pkg{k % 50:02d}"
        d.mkdir(parents=True, exist_ok=True)
        lines = []
        for i in range(40):
            r = rnd.random()
            if r < 0.22:
                lines.append(COMMENTS[ext].format(rnd.choice(CITES)))
            elif r < 0.24:
                lines.append(f"void stateBasedAction704_5{rnd.choice('fgr')}() {{}}" if ext != ".py" else "def check_rule_704_5f(): pass")
            elif r < 0.25:
                lines.append(f"s{i} = {QUOTE};")
            else:
                lines.append(CODE[ext].format(i=i, j=max(0, i - 1)))
        (d / f"f{k:05d}{ext}").write_text("\n".join(lines) + "\n", encoding="utf-8")
        lines_total += len(lines)
    return lines_total


def baseline(root: Path) -> int:
    rx = re.compile(r"[1-9]\d{2}\.\d+[a-z]?")
    return sum(len(rx.findall(p.read_text(encoding="utf-8"))) for p in root.rglob("*") if p.is_file())


def timed(fn, runs: int) -> tuple[list[float], object]:
    out, res = [], None
    for _ in range(runs):
        t = time.perf_counter()
        res = fn()
        out.append(time.perf_counter() - t)
    return out, res


def row(what: str, ts: list[float], base: float | None = None) -> None:
    m = statistics.median(ts)
    ratio = f"{m / base:8.1f}x" if base else ""
    print(f"{what:52} {m:9.2f}s {min(ts):9.2f}s {max(ts):9.2f}s {ratio}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--editions", type=Path, default=ROOT.parent / "shared/corpus/cr-en/txt")
    ap.add_argument("--files", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--conformance-only", action="store_true", help="Time only the conformance suite.")
    a = ap.parse_args()
    model_path = a.editions / "2025-11-14.txt"
    if not model_path.is_file():
        sys.exit(f"no 2025-11-14.txt in {a.editions}")
    model = parse_file(model_path)
    if a.conformance_only:
        conformance(model, a.runs)
        return
    with tempfile.TemporaryDirectory(prefix="bench-engine-") as tmp:
        root = Path(tmp) / "tree"
        t0 = time.perf_counter()
        nlines = make_tree(root, a.files)
        print(f"synthetic tree: {a.files} files, {nlines} lines, generated in {time.perf_counter() - t0:.1f}s\n")
        print(f"{'what':52} {'median':>10} {'min':>10} {'max':>10} {'vs base':>9}")
        tb, hits = timed(lambda: baseline(root), a.runs)
        base = statistics.median(tb)
        row(f"baseline: read + one regex ({hits} number-like hits)", tb)
        ta, rep = timed(lambda: audit_tree(root, model), a.runs)
        row(f"audit vs 2025-11-14 ({len(rep.citations)} citations)", ta, base)
        t = time.perf_counter()
        audit_tree(root, model, a.editions)  # first run may build the diffs' cache
        first = time.perf_counter() - t
        th, rep = timed(lambda: audit_tree(root, model, a.editions), a.runs)
        row(f"audit with history ({len(rep.problems)} need attention)", th, base)
        print(f"{'  (first history run, cache as found: ' + f'{first:.1f}s)':52}")
        counts = rep.counts()
        print("  statuses:", ", ".join(f"{k} {v}" for k, v in counts.items()))
    tv, vrep = timed(lambda: validate(model, conformance=False), max(a.runs, 5))
    row(f"validate-engine vs 2025-11-14 ({len(vrep.results)} scenarios)", tv)
    old = parse_file(a.editions / "2019-06-12.txt")
    validate(old, a.editions, target_label="2019-06-12", conformance=False)  # warm the diffs' cache
    to, orep = timed(lambda: validate(old, a.editions, target_label="2019-06-12", conformance=False), max(a.runs, 5))
    row(f"validate-engine vs 2019-06-12 ({len(orep.renumbered)} renumbered)", to)
    ok = statistics.median(th) < 5 and statistics.median(tv) < 5 and statistics.median(to) < 5
    print("\ntargets: audit of 10,000 files (with history) < 5 s, validation < 5 s:", "met" if ok else "NOT met")
    conformance(model, a.runs)


def conformance(model, runs: int) -> None:
    """Issues 19 and 25: the CR-example suite; the kernel-only run is the baseline for the ratios."""
    print(f"\n{'conformance suite':52} {'median':>10} {'min':>10} {'max':>10} {'vs kernel':>9}")
    tk, krun = timed(lambda: run_suite(use_phase=False), runs)
    base = statistics.median(tk)
    row(f"kernel only ({sum(r.status != 'unsupported' for r in krun.kernel.values())} examples run)", tk)
    if skip_reason():
        print(f"  phase.rs part skipped: {skip_reason()}")
        return
    tp, prun = timed(lambda: run_suite(use_phase=True), runs)
    row(f"phase.rs + kernel ({sum(r.status != 'unsupported' for r in prun.phase.values())} run on phase)", tp, base)
    scenarios = load_scenarios()

    def whole():
        r = run_suite(use_phase=True)
        rep = verdicts(r, model)
        rep.mutation = mutation_report(r, scenarios)
        return rep

    tw, rep = timed(whole, runs)
    mu = rep.mutation
    row(f"whole check: verdicts, controls + comparator self-check ({mu['perturbations']} values)", tw, base)
    print(f"  summary: {rep.summary}")
    # Issue 25: the whole suite as a user runs it, phase included: `crpipe validate-engine --json`
    # in a fresh interpreter, CPU time (user + sys) of the child, the machine being shared.
    import json
    import os
    import resource
    import subprocess

    cpu = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([sys.executable, "-m", "pipeline.cli", "validate-engine", "--rules",
                              str(model.meta.source_file), "--json"], capture_output=True, text=True, cwd=ROOT,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
        assert out.returncode == 0, out.stderr[-2000:]
    su = json.loads(out.stdout)["conformance"]["summary"]
    print(f"{'validate-engine --json (CPU user+sys)':52} {statistics.median(cpu):9.2f}s {min(cpu):9.2f}s "
          f"{max(cpu):9.2f}s; load {os.getloadavg()[0]:.2f}; tautologies {su['tautologies']}")
    print("target: the whole suite, phase included, <= 60 s:", "met" if statistics.median(cpu) <= 60 else "NOT met")


if __name__ == "__main__":
    main()
