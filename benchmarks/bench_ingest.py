"""Benchmark (issue 3, acceptance 7): PDF and DOCX editions, and paste segmentation.

Medians over repeated runs of:
- the 2025-11-14 PDF through ``load_document`` (pypdfium2 + paragraph rebuilding +
  official parser); target < 3 s.  Baseline in the same run: pypdf's text extraction of
  the same file, the other candidate library (one run: it takes ~10 s), so the choice
  of library is shown by a ratio;
- the 2025-11-14 DOCX through ``load_document``; target < 0.5 s.  Baseline: the TXT of
  the same date through ``load_document``;
- segmentation of pasted-PDF-style text (the stress generator of
  ``tests/test_segment_stress.py``, 2,000 rules); target >= 1 MB/s, with and without
  spacing repair (the lexicons are loaded before timing).

    python benchmarks/bench_ingest.py [--shared ../shared] [--runs 5] [--no-pypdf]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.ingest.loader import load_document  # noqa: E402
from pipeline.segment.paste import segment_text  # noqa: E402
from pipeline.lexicon import unigram_lexicon  # noqa: E402


def timed(fn, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def row(what: str, ts: list[float], extra: str = "") -> float:
    m = statistics.median(ts)
    print(f"{what:52} {m:9.3f} s {min(ts):9.3f} {max(ts):9.3f}  {extra}")
    return m


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-pypdf", action="store_true", help="skip the slow pypdf baseline")
    a = ap.parse_args()
    cr = a.shared / "corpus" / "cr-en"
    pdf, docx, txt = cr / "pdf/2025-11-14.pdf", cr / "docx/2025-11-14.docx", cr / "txt/2025-11-14.txt"
    if not pdf.is_file():
        sys.exit(f"shared data not found under {a.shared}")
    import os

    os.environ.setdefault("CRPIPE_SHARED", str(a.shared))
    from tests.test_segment_stress import pasted_pdf_text

    load_document(pdf), load_document(docx), load_document(txt)  # warm imports and file cache
    print(f"{'what':52} {'median':>11} {'min':>9} {'max':>9}")
    t_pdf = row("PDF 2025-11-14 (pypdfium2) -> model", timed(lambda: load_document(pdf), a.runs))
    if not a.no_pypdf:
        import pypdf

        def pypdf_text():
            return [p.extract_text() for p in pypdf.PdfReader(str(pdf)).pages]

        t_base = row("  baseline: pypdf text extraction only (1 run)", timed(pypdf_text, 1))
        print(f"  -> pypdfium2 path is {t_base / t_pdf:.1f}x faster than pypdf's extraction alone")
    t_docx = row("DOCX 2025-11-14 (lxml) -> model", timed(lambda: load_document(docx), a.runs))
    t_txt = row("  baseline: TXT 2025-11-14 -> model", timed(lambda: load_document(txt), a.runs))
    print(f"  -> DOCX costs {t_docx / t_txt:.2f}x the TXT")

    text, truth = pasted_pdf_text(2000, 11, True)
    mb = len(text.encode("utf-8")) / 1e6
    t_seg = row(f"segment {len(truth)} glued rules ({mb:.2f} MB), no repair",
                timed(lambda: segment_text(text, "en", repair=False), a.runs))
    unigram_lexicon("en")
    t_rep = row("  same with spacing repair (lexicon preloaded)", timed(lambda: segment_text(text, "en"), a.runs))
    print(f"  -> {mb / t_seg:.2f} MB/s without repair, {mb / t_rep:.2f} MB/s with repair")
    ok = t_pdf < 3 and t_docx < 0.5 and mb / t_seg >= 1
    print(f"targets (PDF < 3 s, DOCX < 0.5 s, segmentation >= 1 MB/s): {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
