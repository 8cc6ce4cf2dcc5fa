"""Benchmark (issue 6, acceptance 6): aligning a full-size translation with every check.

The translation is a pseudo-translation of a whole edition (~3,100 rules; see
``testkit/pseudo.py``), built once outside the timing.  Timed (median of --runs):

* ``align``: ``align_documents`` with all checks and the MTGJSON card index, lexicons and
  term base already loaded (what a long-running build pays per translation);
* ``align, cold``: the same in a fresh process, including loading the lexicons (what one
  ``crpipe align`` pays), run as a subprocess once;
* baseline in the same run: aligning by number only (no checks) -- the ratio says what
  the checks cost and does not depend on the machine's load.

    python benchmarks/bench_align_speed.py [--edition ...] [--lang pt] [--runs 3]

Target: under 20 s for the full alignment with all checks.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from pipeline.align.aligner import align_documents, build_rows  # noqa: E402
from testkit.pseudo import pseudo_translate  # noqa: E402
from pipeline.align.run import load_cards  # noqa: E402
from pipeline.align.termbase import load_termbase  # noqa: E402
from pipeline.segment.official import parse_file  # noqa: E402

SHARED = ROOT.parent / "shared" / "corpus"
TARGET_S = 20.0

_COLD = """
import sys, time, pickle
sys.path.insert(0, {root!r})
doc, en = pickle.load(open({pk!r}, "rb"))
t = time.perf_counter()
from pipeline.align.aligner import align_documents
from pipeline.align.run import load_cards
res = align_documents(doc, en, en, map_number=lambda n: n, cards=load_cards({cards!r}))
print(time.perf_counter() - t, len(res.rows), len(res.issues))
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--edition", type=Path, default=SHARED / "cr-en" / "txt" / "2025-11-14.txt")
    ap.add_argument("--cards", type=Path, nargs="*", default=sorted((SHARED / "rulings" / "mtgjson3").glob("*.json")))
    ap.add_argument("--lang", default="pt")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    if not a.edition.is_file():
        print(f"edition not found: {a.edition} (the shared data is needed)", file=sys.stderr)
        return 2
    en = parse_file(a.edition)
    tb = load_termbase()
    cards = load_cards(a.cards) if a.cards else None
    doc = pseudo_translate(en, a.lang, tb, cards).doc
    align_documents(doc, en, en, map_number=lambda n: n, termbase=tb, cards=cards)  # warm lexicons and imports
    warm, base = [], []
    for _ in range(a.runs):
        t = time.perf_counter()
        res = align_documents(doc, en, en, map_number=lambda n: n, termbase=tb, cards=cards)
        warm.append(time.perf_counter() - t)
        t = time.perf_counter()
        build_rows(doc, en, en, lambda n: n)
        base.append(time.perf_counter() - t)
    import pickle
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        pk = Path(tmp) / "docs.pickle"
        pk.write_bytes(pickle.dumps((doc, en)))
        cmd = [sys.executable, "-c", _COLD.format(root=str(ROOT), pk=str(pk), cards=[str(c) for c in a.cards])]
        cold = float(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.split()[0])
    t = Table(title=f"align: pseudo-{a.lang} of {a.edition.stem}, {len(doc.rules)} rules, "
                    f"{len(res.issues)} findings (median of {a.runs})")
    for col in ("what", "seconds", "vs baseline", "target"):
        t.add_column(col)
    mw, mb = statistics.median(warm), statistics.median(base)
    t.add_row("align, all checks (lexicons loaded)", f"{mw:.2f}", f"{mw / mb:.1f}×", f"< {TARGET_S:.0f} s")
    t.add_row("align, all checks, cold process (loads lexicons)", f"{cold:.2f}", f"{cold / mb:.1f}×", f"< {TARGET_S:.0f} s")
    t.add_row("baseline: rows by number only, no checks", f"{mb:.2f}", "1.0×", "")
    Console().print(t)
    met = max(mw, cold) < TARGET_S
    Console().print("target met" if met else "target NOT met")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
