"""Benchmark (issue 18, acceptance 2 and 3): how fast commands answer, as a user runs them.

Each command runs as a fresh process (``python -m pipeline.cli ...``), interleaved with the
baseline ``python -c pass`` (the interpreter's own start-up) so both see the same load;
medians and minimums of wall time, plus the children's CPU time.  Commands run "warm":
once before timing, so the OS file cache and crpipe's disk caches are filled.

    python benchmarks/bench_cli.py [--editions ../shared/corpus/cr-en/txt] [--runs 7]

Targets: ``--help`` and ``show 601.2f`` <= 0.25 s and <= 3x ``python -c pass``;
``parse FILE`` <= 0.3 s; ``diff`` of two consecutive editions (warm) <= 0.15 s of work (the
in-process figure is bench_diff.py's); ``history`` warm <= 0.3 s.

``--first-answers`` measures issue 26's item 5 instead, as a user meets it: no mirror, the
embedded archive, each figure the CPU time (user + sys) and peak RSS of the process from
``os.wait4`` (what ``/usr/bin/time -v`` prints), with a new empty ``CRPIPE_CACHE`` where it
says "first" (a build's also holds the unpacked Lightproof extension when ``--lightproof DIR``
names one: an installed dependency, not a computed cache).  Targets: first ``show 601.2f``
<= 1.5 s; first ``search "mana value"`` <= 2 s; warm ``show``, ``search``, ``xref`` <= 0.35 s;
``show 999.9z`` <= 0.5 s; a second ``link`` of 1,000 rulings >= 3x faster than the first;
``build`` <= 40 s and <= 900 MB.  Writes ``benchmarks/bench_cli.result.json``.

    python benchmarks/bench_cli.py --first-answers [--runs 3] [--build] [--lightproof DIR] [--without-phase]

The build's figure depends on the extras installed: with the ``phase`` extra a first build also
runs the conformance suite on phase.rs (~15 s CPU, kept in the cache after); ``--without-phase``
measures it as the README's setup installs crpipe.
"""

from __future__ import annotations

import argparse
import json
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


def rusage_run(cmd: list[str], env: dict) -> dict:
    """CPU seconds (user + sys) and peak RSS (MB) of one child process, and its exit code."""
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=null, stderr=null)
        _, status, ru = os.wait4(p.pid, 0)
    return {"cpu_s": round(ru.ru_utime + ru.ru_stime, 2), "peak_mb": round(ru.ru_maxrss / 1024),
            "exit": os.waitstatus_to_exitcode(status), "load": round(os.getloadavg()[0], 2)}


def first_answers(a) -> None:
    import shutil  # noqa: PLC0415 - this mode only
    import tempfile  # noqa: PLC0415 - this mode only

    base = {k: v for k, v in os.environ.items() if k not in ("CRPIPE_MIRROR", "PYTHONDONTWRITEBYTECODE")}
    work = Path(tempfile.mkdtemp(prefix="crpipe-bench-"))
    cli = [sys.executable, "-m", "pipeline.cli"]
    subprocess.run([sys.executable, "-m", "compileall", "-q", "pipeline"], cwd=ROOT, check=True)  # as installed
    n = 0

    path = str(ROOT)
    if a.without_phase:  # as the README's setup installs it: no phase extra (an import that fails)
        (work / "no-phase" / "phase").mkdir(parents=True)
        (work / "no-phase" / "phase" / "__init__.py").write_text("raise ImportError('hidden by bench_cli')\n")
        path = f"{work / 'no-phase'}{os.pathsep}{ROOT}"

    def fresh() -> dict:
        nonlocal n
        n += 1
        cache = work / f"cache-{n}"
        cache.mkdir()
        return dict(base, CRPIPE_CACHE=str(cache), PYTHONPATH=path)

    res: dict[str, list[dict]] = {}

    def rec(name: str, r: dict) -> None:
        res.setdefault(name, []).append(r)
        print(f"{name:34} cpu {r['cpu_s']:6.2f} s  peak {r['peak_mb']:5d} MB  exit {r['exit']}  load {r['load']}", flush=True)

    for _ in range(a.runs):
        rec("first show 601.2f", rusage_run(cli + ["show", "601.2f"], fresh()))
        rec('first search "mana value"', rusage_run(cli + ["search", "mana value"], fresh()))
        rec("first show 999.9z", rusage_run(cli + ["show", "999.9z"], fresh()))
    env = fresh()
    warm = {"warm show 601.2f": ["show", "601.2f"], 'warm search "mana value"': ["search", "mana value"],
            "warm xref 601.2f": ["xref", "601.2f"], "warm show 999.9z": ["show", "999.9z"]}
    for args in warm.values():
        rusage_run(cli + args, env)
    for _ in range(a.runs):
        for name, args in warm.items():
            rec(name, rusage_run(cli + args, env))
    rulings = work / "rulings-1000.json"
    _thousand_rulings(rulings)
    env = fresh()
    for name in ("link 1,000 rulings: first", "link 1,000 rulings: second"):
        rec(name, rusage_run(cli + ["link", str(rulings), "--json", str(work / "links.json")], env))
    if a.build:
        env = fresh()
        if a.lightproof:
            shutil.copytree(a.lightproof, Path(env["CRPIPE_CACHE"]) / "lightproof" / "root")
        rec("build: first (fresh cache)", rusage_run(cli + ["build", "--out", str(work / "out-1")], env))
        rec("build: again (warm cache)", rusage_run(cli + ["build", "--out", str(work / "out-2")], env))
    out = ROOT / "benchmarks" / "bench_cli.result.json"
    out.write_text(json.dumps({"figures": res, "cores": os.cpu_count(), "lightproof": bool(a.lightproof),
                               "phase_extra": not a.without_phase},
                              indent=1, sort_keys=True) + "\n", encoding="utf-8")
    shutil.rmtree(work)
    print(f"written {out}")


def _thousand_rulings(path: Path) -> None:
    """The first 1,000 rulings of AER then KLD (MTGJSON v3, ../shared), as one set file."""
    mtg = ROOT.parent / "shared" / "corpus" / "rulings" / "mtgjson3"
    first = json.loads((mtg / "AER.json").read_text(encoding="utf-8"))
    cards, n = [], 0
    for c in first["cards"] + json.loads((mtg / "KLD.json").read_text(encoding="utf-8"))["cards"]:
        rs = c.get("rulings") or []
        if rs and n < 1000:
            cards.append(dict(c, rulings=rs[:1000 - n]))
            n += len(cards[-1]["rulings"])
    path.write_text(json.dumps(dict(first, cards=cards)), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--editions", type=Path, default=ROOT.parent / "shared/corpus/cr-en/txt")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--first-answers", action="store_true", help="issue 26 item 5's figures (see above)")
    ap.add_argument("--build", action="store_true", help="with --first-answers: also the build, fresh and warm")
    ap.add_argument("--lightproof", type=Path, default=None,
                    help="with --build: an unpacked Lightproof extension (a cache's lightproof/root) to copy in")
    ap.add_argument("--without-phase", action="store_true",
                    help="with --first-answers: hide the phase extra, as the README's setup (.[test]) has it")
    a = ap.parse_args()
    if a.first_answers:
        first_answers(a)
        return
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
