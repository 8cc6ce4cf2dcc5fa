"""Find every rule reference in a piece of rules text, or in a whole document.

A subrule number ("601.2f", "regra601.2f") is a reference by its shape alone: nothing
else in rules text looks like it.  A bare three-digit number ("601") is a reference only
in a citation context — after a rule word, a citing verb, continuing a list of
references, or followed by a quoted title — because "exactly 100 cards" is a count.
"""

from __future__ import annotations

import re
from typing import Iterable

from ..model import Document
from ..rulenum import LETTERS, RuleNumber, RuleNumberError, letter_range, sort_ids
from .model import Cue, RefKind, RefPart, Reference, glossary_node, section_node
from .patterns import FOLLOWED_BY_WORD_RE, TITLE_RE, UNIT_RE, patterns_for, patterns_of, title_of
from .resolve import resolve

_CUE_WINDOW = 40  # characters looked at before a number for its cue word
_DIGIT = re.compile(r"[1-9]")
# A digit continuing a list of sections: not part of a number, a fraction or a count
# ("section 5, 2 players" lists no second section).
_SECTION_DIGIT = re.compile(r"[1-9](?!\d)(?![.,/]\d)")


def _clean_title(title: str) -> str:
    # English puts the sentence's punctuation inside the quotes: “Dash,” “Warp.”
    return title.strip().rstrip(".,;:").strip()


def _continues_section_list(pat, text: str, pos: int) -> bool:
    sep = pat.list_sep.match(text, pos)
    return bool(sep and sep.end() > pos and _SECTION_DIGIT.match(text, sep.end()))


def _continues_list(pat, text: str, pos: int) -> bool:
    """A list separator and another rule number follow ``pos`` ("614 and 615")."""
    sep = pat.list_sep.match(text, pos)
    return bool(sep and sep.end() > pos and UNIT_RE.match(text, sep.end()))


def range_end(head: RuleNumber, tail: str) -> RuleNumber | None:
    """The last number of a range written ``head–tail``, or None when it is not a range."""
    try:
        if len(tail) == 1 and tail.isalpha():  # 614.1c–d
            if head.letter is None or tail not in LETTERS:
                return None
            end = head.with_letter(tail)
        elif "." in tail:  # 903.6–903.11
            end = RuleNumber.parse(tail)
        elif head.sub is not None:  # 712.9–10
            digits = tail.rstrip("abcdefghijklmnopqrstuvwxyz")
            end = RuleNumber(head.rule, int(digits), tail[len(digits):] or None)
        elif len(tail) == 3 and tail.isdigit():  # 701–703
            end = RuleNumber(int(tail))
        else:
            return None
    except (RuleNumberError, ValueError):
        return None
    return end if head < end else None


def expand_range(first: RuleNumber, last: RuleNumber, known_ids: set[str] | None = None) -> list[str]:
    """Every rule from ``first`` to ``last``: letters skip l and o; with ``known_ids``, only
    the rules that exist, plus the endpoints (so a missing endpoint stays visible)."""
    cands: list[str]
    if first.rule == last.rule and first.sub == last.sub and first.letter and last.letter:
        try:
            cands = [str(first.with_letter(c)) for c in letter_range(first.letter, last.letter)]
        except RuleNumberError:
            cands = [str(first), str(last)]
    elif first.rule == last.rule and first.sub is not None and last.sub is not None \
            and first.letter is None and last.letter is None:
        cands = [f"{first.rule}.{s}" for s in range(first.sub, last.sub + 1)]
    elif first.sub is None and last.sub is None:
        cands = [str(r) for r in range(first.rule, last.rule + 1)]
    elif known_ids is not None:
        # Mixed levels ("601.2f–601.3"): every existing rule between, at the endpoints' levels.
        levels = {first.level, last.level}
        cands = [i for i in known_ids
                 if (n := RuleNumber.try_parse(i)) and first <= n <= last and n.level in levels]
    else:
        cands = [str(first), str(last)]
    if known_ids is None:
        return sort_ids(set(cands))
    keep = {c for c in cands if c in known_ids} | {str(first), str(last)}
    return sort_ids(keep)


def extract_from_text(text: str, lang: str = "en", source: str | None = None, part: RefPart = RefPart.RULE,
                      known_ids: set[str] | frozenset[str] | None = None,
                      example: int | None = None, profile=None) -> list[Reference]:
    """Every reference in ``text`` (a rule's text, an example or a glossary definition),
    in text order.  ``known_ids`` (the document's rule ids) limits range expansion to
    rules that exist.  ``profile``: the cue words of a language no shipped profile describes
    (learnt from the document); by default the profile of ``lang``.  The references come
    back ``unresolved``; see :mod:`.resolve`."""
    if not _DIGIT.search(text):  # most rule texts cite nothing; skip them cheaply
        return []
    pat = patterns_of(profile) if profile is not None else patterns_for(lang)
    src = source or ""
    known = set(known_ids) if known_ids is not None and not isinstance(known_ids, (set, frozenset)) else known_ids
    found: list[Reference] = []

    def add(span, raw, kind, targets, cue, title):
        found.append(Reference(source=src, part=part, span=span, raw=raw, kind=kind,
                               targets=tuple(targets), cue=cue, title=title, example=example, lang=lang))

    for m in pat.section.finditer(text):
        span, cue = m.span("sec"), Cue.SECTION
        while True:  # "sections 1 and 2": a list of single digits after the section word
            t = TITLE_RE.match(text, span[1])
            add(span, text[span[0]:span[1]], RefKind.SECTION, [section_node(text[span[0]])], cue,
                _clean_title(title_of(t)) if t else None)
            end = t.end() if t else span[1]
            sep = pat.list_sep.match(text, end)
            nxt = _SECTION_DIGIT.match(text, sep.end()) if sep and sep.end() > end else None
            if nxt is None or (FOLLOWED_BY_WORD_RE.match(text, nxt.end())
                               and not _continues_section_list(pat, text, nxt.end())):
                break
            span, cue = nxt.span(), Cue.LIST

    units = list(UNIT_RE.finditer(text))
    prev_end: int | None = None  # where the last accepted reference (and its title) ended
    prev_bare = False  # whether it was a bare three-digit rule
    i = 0
    while i < len(units):
        m = units[i]
        start, end = m.start(), m.end()
        head = RuleNumber.parse(m.group("num"))
        last = range_end(head, m.group("tail")) if m.group("tail") else None
        if m.group("tail") and last is None:
            end = m.end("num")  # "702.46-x": only the number is a reference
        if last is None and i + 1 < len(units):
            # "rules 702.2 through 702.5": a range word between two numbers of one level.
            nxt = units[i + 1]
            if not nxt.group("tail") and pat.range_sep.fullmatch(text, end, nxt.start()):
                cand = RuleNumber.parse(nxt.group("num"))
                if cand.level == head.level and head < cand:
                    last, end = cand, nxt.end()
                    i += 1
        t = TITLE_RE.match(text, end)
        title = _clean_title(title_of(t)) if t else None
        ext_end = t.end() if t else end
        lo = max(0, start - _CUE_WINDOW)
        if pat.rule_cue.search(text, lo, start):
            cue = Cue.RULE_WORD
        elif head.sub is not None:
            cue = Cue.NUMBER
        elif title:
            cue = Cue.TITLE
        elif prev_end is not None and pat.list_sep.fullmatch(text, prev_end, start) and (
                prev_bare or not FOLLOWED_BY_WORD_RE.match(text, ext_end) or _continues_list(pat, text, ext_end)):
            # After "rules 614," a bare number is the next rule ("…, and 616 for more"); after
            # a subrule one followed by a word is a count ("rule 903.5a and 100 cards").
            cue = Cue.LIST
        elif FOLLOWED_BY_WORD_RE.match(text, ext_end):
            cue = None
        elif pat.see_cue.search(text, lo, start):
            cue = Cue.SEE_WORD
        else:
            cue = None  # a count or a quantity, not a citation
        if cue is not None:
            if last is not None:
                add((start, end), text[start:end], RefKind.RANGE, expand_range(head, last, known), cue, title)
            else:
                add((start, end), text[start:end], RefKind.SINGLE, [str(head)], cue, title)
            prev_end, prev_bare = ext_end, head.sub is None
        i += 1
    found.sort(key=lambda r: r.span)
    return found


def _texts(doc: Document) -> Iterable[tuple[str, RefPart, str, int | None]]:
    """(source node, part, text, example index) for every piece of citing text, in order."""
    for r in doc.rules:
        yield r.id, RefPart.RULE, r.text, None
        for k, e in enumerate(r.examples):
            yield r.id, RefPart.EXAMPLE, e.text, k
    for g in doc.glossary:
        yield glossary_node(g.term), RefPart.GLOSSARY, g.definition, None


def extract_unresolved(doc: Document) -> list[Reference]:
    known = frozenset(doc.rule_ids)
    lang = doc.meta.language or "en"
    out: list[Reference] = []
    for src, part, text, k in _texts(doc):
        out.extend(extract_from_text(text, lang, src, part, known, k))
    return out


def extract_references(doc: Document, fallback: Document | None = None) -> list[Reference]:
    """Every reference in ``doc`` (rules, examples, glossary), resolved against ``doc``
    (and, for what a fragment lacks, against ``fallback``)."""
    return resolve(extract_unresolved(doc), doc, fallback)


def rule_references(doc: Document, rule_id: str) -> list[Reference]:
    """The references in one rule's text and examples (unresolved; cheap)."""
    r = doc.rule(rule_id)
    if r is None:
        return []
    known = frozenset(doc.rule_ids)
    lang = doc.meta.language or "en"
    refs = extract_from_text(r.text, lang, r.id, RefPart.RULE, known)
    for k, e in enumerate(r.examples):
        refs.extend(extract_from_text(e.text, lang, r.id, RefPart.EXAMPLE, known, k))
    return refs
