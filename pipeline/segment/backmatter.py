"""The glossary and credits after the rules of a pasted or rendered text.

Official editions have "Glossary" and "Credits" headings (PT "Glossário", "Créditos"; ES
"Glosario", "Créditos").  A translation rendered from a translator's file (one paragraph per
unit) may have no heading at all before its glossary: the headings were units of the
Contents.  So the glossary starts at the heading after the last rule when there is one, and
otherwise where the paragraphs after the last rule turn into term/definition pairs (a short
title-like line, then a sentence), at least three in a row.  Credits start at their heading
or at the first "Role: Name" line after the glossary.
"""

from __future__ import annotations

import re

from ..model import GlossaryEntry
from ..profiles import PROFILES
from ..text import NUMBER

_LINE = re.compile(r"[^\n]+")
_CREDIT = re.compile(r":\s+[A-ZÀ-Ý][\w'’.-]+(?:\s+[A-ZÀ-Ý][\w'’.-]+)")
_REF = re.compile(rf"\b{NUMBER}\b")


def _headings(attr: str) -> set[str]:
    out = set()
    for p in PROFILES.values():
        out.update(h.casefold() for h in getattr(p, attr))
    return out


GLOSSARY_HEADINGS = _headings("glossary_heading") | {"glossary", "glossário", "glosario"}
CREDITS_HEADINGS = {"credits", "créditos", "creditos"}


def _term_like(line: str) -> bool:
    t = line.strip()
    ws = t.split()
    end = t.rstrip("”\"»’)")
    return (0 < len(ws) <= 8 and t[:1].isupper() and end[-1:] not in ".:;!?" and not t[:1].isdigit()
            and not t.startswith(("Example", "Exemplo", "Ejemplo")))


def _definition_like(line: str) -> bool:
    t = line.strip()
    return len(t.split()) >= 3 and (t[-1:] in ".)”\"»:" or len(t) > 60)


def find_back_matter(text: str, after: int) -> tuple[int | None, int | None, int | None]:
    """``(glossary heading or start, first entry, credits start)`` offsets in ``text`` after
    offset ``after`` (the last rule's start); None where absent."""
    lines = [(m.start(), m.group()) for m in _LINE.finditer(text, after) if m.group().strip()]
    if not lines:
        return None, None, None
    lines = lines[1:]  # the last rule's own first line
    g_at = g_entries = None
    for i, (pos, ln) in enumerate(lines):
        if ln.strip().casefold() in GLOSSARY_HEADINGS:
            g_at, g_entries = pos, (lines[i + 1][0] if i + 1 < len(lines) else None)
            break
    if g_at is None:
        # A term, its definition, and at least three more term/definition pairs in the next
        # dozen lines (definitions may run over several paragraphs: "1. …", "2. …").
        pair = [i + 1 < len(lines) and _term_like(lines[i][1]) and _definition_like(lines[i + 1][1])
                for i in range(len(lines))]
        for i in range(len(lines)):
            if pair[i] and sum(pair[i + 2:i + 14]) >= 3:
                g_at = g_entries = lines[i][0]
                break
    c_at = None
    start = g_entries if g_entries is not None else (lines[0][0] if lines else after)
    for pos, ln in lines:
        if pos < start:
            continue
        t = ln.strip()
        if t.casefold() in CREDITS_HEADINGS:
            c_at = pos
            break
        if g_entries is not None and ":" in t and _CREDIT.search(t.replace("Magic: The Gathering", "Magic The Gathering")) \
                and not t.endswith("."):
            c_at = pos
            break
    return g_at, g_entries, c_at


def parse_glossary(text: str) -> list[GlossaryEntry]:
    """Term/definition entries: a term-like line starts an entry, other lines are its definition."""
    out: list[GlossaryEntry] = []
    for m in _LINE.finditer(text):
        ln = m.group().strip()
        if not ln:
            continue
        if _term_like(ln):
            # Two terms in a row: the first one's definition is shared with an earlier term
            # (translation platforms keep one unit per distinct English text).
            out.append(GlossaryEntry(ln, ""))
        elif out:
            e = out[-1]
            e.definition = (e.definition + "\n" + ln) if e.definition else ln
    for e in out:
        e.refs = sorted(set(_REF.findall(e.definition)))
    return out
