"""References: what the translation cites, against its English base and the current edition.

Citations are found by :func:`pipeline.xref.extract_from_text` on both sides (in each
side's language), ranges expanded over the base edition's rule ids, and compared as
multisets: a translation citing 702.46 where its English cites 702.46 is faithful; if
702.46 has since become 702.47 the citation is *stale* and the current number is
suggested.
"""

from __future__ import annotations

from collections import Counter

from ...findings import Category, Check, DefectClass, Severity
from .registry import register_pass
from ...xref import extract

MISMATCH = Check("references.mismatch", Category.REFERENCES, Severity.ERROR,
                 "The translation cites different rules than the English base edition does.", DefectClass.REFERENCES)
STALE = Check("references.stale", Category.REFERENCES, Severity.WARNING,
              "A cited rule was renumbered (or removed) since the base edition; the current number is suggested.", DefectClass.REFERENCES)
CHECKS = [MISMATCH, STALE]


def refs_of(pieces, lang: str, known, profile=None) -> list:
    """(targets, absolute span, raw) of every citation in a segment's pieces (``profile``: the
    cue words to read them with when the language has no shipped profile)."""
    out = []
    for off, text in pieces:
        for ref in extract.extract_from_text(text, lang=lang, known_ids=known, profile=profile):
            out.append((tuple(ref.targets), (off + ref.span[0], off + ref.span[1]), ref.raw))
    return out


def cited(pair, ctx) -> tuple[list, list]:
    key = ("refs", id(pair))
    if key not in ctx.cache:
        known = ctx.cache.setdefault("base_ids", frozenset(ctx.base_doc.rule_ids))
        ctx.cache[key] = (refs_of(pair.target_pieces, ctx.lang, known, ctx.profile), refs_of(pair.source_pieces, "en", known))
    return ctx.cache[key]


def run(ctx) -> list:
    out = []
    base_ids = ctx.cache.setdefault("base_ids", frozenset(ctx.base_doc.rule_ids))
    for p in ctx.pairs:
        if p.target is None:
            continue
        tgt, src = cited(p, ctx)
        if p.base is not None:
            tc = Counter(t for targets, _, _ in tgt for t in targets)
            sc = Counter(t for targets, _, _ in src for t in targets)
            extra, missing = tc - sc, sc - tc
            for t in sorted(extra):
                span = next((s for targets, s, _ in tgt if t in targets), None)
                out.append(ctx.issue(MISMATCH, p, f"cites {t}, which the English rule {p.row.base_id} does not"
                                     + (f" (it cites {', '.join(sorted(missing))})" if missing else ""), span,
                                     suggestion=next(iter(sorted(missing)), None) if len(missing) == 1 else None))
            for t in sorted(missing):
                if extra:
                    continue  # already told with the extra citation
                out.append(ctx.issue(MISMATCH, p, f"does not cite {t}, which the English rule {p.row.base_id} cites"))
        if ctx.map_number is None:
            continue
        seen = set()
        for targets, span, raw in tgt:
            for t in targets:
                if t.startswith("section:") or t not in base_ids or (t, span) in seen:
                    continue
                seen.add((t, span))
                now = ctx.map_number(t)
                if now == t:
                    continue
                if now is None:
                    msg = f"cites {t}, which no longer exists in the current edition ({ctx.current_date})"
                else:
                    msg = f"cites {t}, renumbered {now} since the base edition ({ctx.base_date} → {ctx.current_date})"
                out.append(ctx.issue(STALE, p, msg, span, suggestion=now))
    return out


register_pass(run, CHECKS, neutral=(MISMATCH, STALE))
