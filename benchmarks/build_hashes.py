"""Benchmark (issue 29, acceptance 5): every build output byte-identical before and after a change.

Runs ``crpipe build --out DIR`` (the embedded archive, no mirror: ``CRPIPE_MIRROR`` is dropped so
the build reads what a fresh clone reads), hashes every file it wrote and writes the list as
``sha256  ./path`` lines, sorted (the format ``sha256sum`` prints, so either tool can check it).
With ``--against FILE`` it compares with an earlier list and exits 1 on any difference, naming
the files that differ, appeared or disappeared.

    python benchmarks/build_hashes.py --out /tmp/build-a --write /tmp/a.sha256
    python benchmarks/build_hashes.py --out /tmp/build-b --against /tmp/a.sha256

Run it once on the commit before a refactor and once after; run it twice on one commit to see
that the build is deterministic.  An existing --out folder is only reused when an earlier build
wrote it (the build's own guard refuses a folder of the user's).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def hashes(folder: Path) -> dict[str, str]:
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            out["./" + p.relative_to(folder).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def read_list(path: Path) -> dict[str, str]:
    rows = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        digest, _, name = line.partition("  ")
        rows[name] = digest
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="build output folder")
    ap.add_argument("--write", type=Path, help="write the hash list here")
    ap.add_argument("--against", type=Path, help="compare with this hash list; exit 1 on a difference")
    ap.add_argument("--no-build", action="store_true", help="hash --out as it is")
    a = ap.parse_args(argv)
    if not a.no_build:
        env = {k: v for k, v in os.environ.items() if k != "CRPIPE_MIRROR"}
        subprocess.run([sys.executable, "-m", "pipeline.cli", "build", "--out", str(a.out)],
                       cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    now = hashes(a.out)
    text = "".join(f"{d}  {n}\n" for n, d in sorted(now.items()))
    if a.write:
        a.write.write_text(text, encoding="utf-8")
    print(f"{len(now)} files hashed in {a.out}")
    if a.against:
        before = read_list(a.against)
        changed = sorted(n for n in now.keys() & before.keys() if now[n] != before[n])
        added = sorted(now.keys() - before.keys())
        gone = sorted(before.keys() - now.keys())
        for label, names in (("differs", changed), ("new", added), ("gone", gone)):
            for n in names:
                print(f"{label}: {n}")
        same = not (changed or added or gone)
        print("byte-identical" if same else f"{len(changed)} differ, {len(added)} new, {len(gone)} gone")
        return 0 if same else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
