"""Anchors that must survive translation: counts, mana and tap symbols, English card names."""

from __future__ import annotations

from collections import Counter

from ...align.model import Check
from ...align.text import english_names, fold, number_anchors, symbol_spans
from .references import cited

NUMBERS = Check("anchors.numbers", "anchors", "error",
                "Digits and number words (two/dois/dos) differ from the English: a count was changed or lost.")
SYMBOLS = Check("anchors.symbols", "anchors", "error",
                "Mana and tap symbols ({X}, {2}{B}{B}, {T}) differ from the English.")
NAMES = Check("anchors.names", "anchors", "warning",
              "An English card name in parentheses does not occur in the English rule.")
CHECKS = [NUMBERS, SYMBOLS, NAMES]


def _fmt(v) -> str:
    return str(v)


def run(ctx) -> list:
    out = []
    for p in ctx.aligned:
        tgt_refs, src_refs = cited(p, ctx)
        t_nums = number_anchors(p.target_text, ctx.lang, [s for _, s, _ in tgt_refs])
        s_nums = number_anchors(p.source_text, "en", [s for _, s, _ in src_refs])
        tc, sc = Counter(v for v, _ in t_nums), Counter(v for v, _ in s_nums)
        for v in sorted(tc - sc, key=str):
            span = next(s for x, s in t_nums if x == v)
            out.append(ctx.issue(NUMBERS, p, f"the count {_fmt(v)} is not in the English "
                                 f"(English has {', '.join(map(_fmt, sorted(sc, key=str))) or 'none'})", span))
        for v in sorted(sc - tc, key=str):
            out.append(ctx.issue(NUMBERS, p, f"the English count {_fmt(v)} is missing "
                                 f"({(sc - tc)[v]} occurrence(s) fewer than in the English)"))
        t_sym, s_sym = symbol_spans(p.target_text), symbol_spans(p.source_text)
        tc, sc = Counter(v for v, _ in t_sym), Counter(v for v, _ in s_sym)
        for v in sorted(tc - sc):
            span = next(s for x, s in t_sym if x == v)
            out.append(ctx.issue(SYMBOLS, p, f"symbol {v} is not in the English the same number of times", span))
        for v in sorted(sc - tc):
            out.append(ctx.issue(SYMBOLS, p, f"English symbol {v} is missing ({(sc - tc)[v]} fewer)"))
        src_fold = fold(p.source_text)
        for name, span in english_names(p.target_text):
            if fold(name) not in src_fold:
                out.append(ctx.issue(NAMES, p, f"“{name}” does not occur in the English rule {p.row.base_id}", span))
    return out
