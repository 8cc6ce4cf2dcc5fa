"""Benchmark (issue 6, acceptance 3): precision and recall of the alignment checks.

A pseudo-translation of a whole English edition (term-base substitution, numbers, symbols,
references and English card names preserved, card names known to MTGJSON as
"Localized (English)", other words through a fixed cipher into the language's lexicon) gets
known defects planted, at least 20 per check category, with fixed seeds; the alignment is
then scored per category at the rule level.  Findings on rules that carry a planted defect
of *another* category are counted apart as collateral (neither true nor false).

    python benchmarks/bench_align_defects.py [--edition ../shared/corpus/cr-en/txt/2025-11-14.txt]
        [--lang pt es] [--seeds 7 11] [--per-category 24] [--json FILE]

Targets: recall and precision >= 0.95 for structure, references, anchors, card names;
>= 0.85 for terminology and text damage.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from testkit.evaluate import evaluate  # noqa: E402
from pipeline.align.run import load_cards  # noqa: E402
from pipeline.segment.official import parse_file  # noqa: E402

SHARED = ROOT.parent / "shared" / "corpus"
TARGETS = {"structure": 0.95, "references": 0.95, "anchors": 0.95, "cardnames": 0.95,
           "terminology": 0.85, "damage": 0.85}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--edition", type=Path, default=SHARED / "cr-en" / "txt" / "2025-11-14.txt")
    ap.add_argument("--cards", type=Path, nargs="*", default=sorted((SHARED / "rulings" / "mtgjson3").glob("*.json")))
    ap.add_argument("--lang", nargs="+", default=["pt", "es"])
    ap.add_argument("--seeds", type=int, nargs="+", default=[7, 11])
    ap.add_argument("--per-category", type=int, default=24)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    if not a.edition.is_file():
        print(f"edition not found: {a.edition} (the shared data is needed)", file=sys.stderr)
        return 2
    en = parse_file(a.edition)
    cards = load_cards(a.cards) if a.cards else None
    console = Console()
    out, ok = [], True
    for lang in a.lang:
        for seed in a.seeds:
            t = time.perf_counter()
            scores, planted, res = evaluate(en, lang, per_category=a.per_category, seed=seed, cards=cards)
            dt = time.perf_counter() - t
            table = Table(title=f"{a.edition.stem} → pseudo-{lang}, seed {seed}: {len(planted)} defects planted, "
                                f"{len(res.rows)} rows ({dt:.1f} s incl. pseudo-translation)")
            for col in ("category", "planted", "flagged", "true pos.", "collateral", "precision", "recall", "target", "met"):
                table.add_column(col, justify="right" if col not in ("category", "met") else "left")
            for s in scores:
                tgt = TARGETS.get(s.category)
                met = "n/a" if tgt is None else ("yes" if s.precision >= tgt and s.recall >= tgt else "NO")
                ok &= met != "NO"
                table.add_row(s.category, str(s.planted), str(s.found), str(s.true_positives), str(s.collateral),
                              f"{s.precision:.3f}", f"{s.recall:.3f}", f"{tgt:.2f}" if tgt else "—", met)
                out.append({"lang": lang, "seed": seed, **s.to_dict(), "target": tgt})
            console.print(table)
    if a.json:
        a.json.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    console.print("all targets met" if ok else "some targets NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
