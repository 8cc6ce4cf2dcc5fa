"""Anchors that must survive translation: counts, mana and tap symbols, English card names."""

from __future__ import annotations

import re
from collections import Counter

from rapidfuzz import fuzz, process

from ...profiles import PROFILES
from ...findings import Category, Check, DefectClass, Severity
from .registry import register_pass
from ...lexicon import lexicon
from ..text import cap_phrases, english_names, fold, number_anchors, quoted_names, symbol_spans, words
from ..termbase import find_all
from .references import cited

NUMBERS = Check("anchors.numbers", Category.ANCHORS, Severity.ERROR,
                "Digits and number words (two/dois/dos) differ from the English: a count was changed or lost.", DefectClass.NUMBERS)
SYMBOLS = Check("anchors.symbols", Category.ANCHORS, Severity.ERROR,
                "Mana and tap symbols ({X}, {2}{B}{B}, {T}) differ from the English.", DefectClass.NUMBERS)
NAMES = Check("anchors.names", Category.ANCHORS, Severity.WARNING,
              "An English card name (in parentheses or quoted) does not occur in the English rule.", DefectClass.TERM)
LIST_ITEMS = Check("anchors.list-items", Category.ANCHORS, Severity.ERROR,
                   "Items of an English list of names (types, planes, sets) that the translation keeps in "
                   "English are absent: a list item was dropped.", DefectClass.OMISSION)
LIST_TERMS = Check("anchors.list-terms", Category.ANCHORS, Severity.WARNING,
                   "Terms of an English list (the parts of a card, card types, zones) whose approved renderings "
                   "are all absent from the translated sentence: an item was dropped or replaced.",
                   DefectClass.OMISSION)
CHECKS = [NUMBERS, SYMBOLS, NAMES, LIST_ITEMS, LIST_TERMS]

#: "name, mana cost, color indicator, card type, …, and/or loyalty": lower-case items.
_TERM_ITEM = r"[a-z][a-z’'-]*(?: [a-z][a-z’'-]*){0,2}"
_TERM_LIST_RE = re.compile(rf"{_TERM_ITEM}(?:, {_TERM_ITEM}){{2,}},? (?:and/or|and|or) {_TERM_ITEM}")

_ITEM = r"[A-Z][\w'’-]*(?: [A-Z][\w'’-]*){0,3}"
#: "Alara, Arkhos, Azgol, …, and Zendikar": at least four capitalised items, commas, a final and/or.
_LIST_RE = re.compile(rf"(?<![\w’']){_ITEM}(?:, {_ITEM}){{2,}},? (?:and|or) {_ITEM}")


def _list_items(src: str) -> list[str]:
    out = []
    for m in _LIST_RE.finditer(src):
        items = [x.strip() for x in re.split(r",\s*(?:and |or )?|\s(?:and|or)\s", m.group()) if x.strip()]
        out.extend(items)
    return out


def _missing_items(src: str, tgt: str) -> tuple[list[str], int]:
    """English list items absent from the translation, when the translation keeps most of the
    list as written (names: planes, creature types); ``(absent, listed)``."""
    items = _list_items(src)
    if len(items) < 4:
        return [], len(items)
    tf = fold(tgt)
    en = lexicon("en")

    def has(w: str) -> bool:
        return re.search(rf"(?<!\w){re.escape(fold(w))}(?!\w)", tf) is not None

    present = [x for x in items if has(x)]
    if len(present) < 0.6 * len(items):
        return [], len(items)  # a translated list (card types, colours): words differ, nothing to count
    absent = []
    for x in items:
        if x in present:
            continue
        # Only a proper name can be missed for sure: "Time", "Moon", "Wildfire" may be translated.
        proper = [w for w in re.findall(r"[\w'’-]+", x) if w.casefold().replace("’", "'") not in en.words]
        if proper and not all(has(w) for w in proper):
            absent.append(x)
    return absent, len(items)


def _english_looking(name: str, ctx) -> bool:
    """Some word of it is English and not a word of the translation's language."""
    en, lex = lexicon("en"), lexicon(ctx.lang)
    return any(w.text.casefold() in en.words and w.text.casefold() not in lex.words for w in words(name))


def _name_zone(text: str, span, name: str) -> tuple[int, int]:
    k = max(3, 2 * len(name.split()))
    head = text[:span[0] - 1]
    start = max(head.rfind(c) for c in ".;:«“(\n") + 1  # a name does not cross a sentence or quote start
    ws = list(re.finditer(r"\S+", head[start:]))[-k:]
    return (start + ws[0].start() if ws else span[0], span[1])


def _fmt(v) -> str:
    return str(v)


_ENUM = re.compile(r"^\s*\d{1,2}\.(?=\s)")


def run(ctx) -> list:
    out = []
    prof = PROFILES.get(ctx.lang)
    not_counts = prof.not_counts if prof else ()
    for p in ctx.aligned:
        tgt_refs, src_refs = cited(p, ctx)
        # Number words inside a localized card name ("Gigante de dos cabezas (Two-Headed Giant)")
        # are names, not counts: the words just before an English name in parentheses are skipped.
        names = [_name_zone(p.target_text, s, n) for n, s in english_names(p.target_text)]
        # A definition's "1." is its numbering (form.list-number), and "dois pontos" a colon: no counts.
        enums = [(off + m.start(), off + m.end()) for off, t in p.source_pieces if (m := _ENUM.match(t))]
        t_enums = [(off + m.start(), off + m.end()) for off, t in p.target_pieces if (m := _ENUM.match(t))]
        idioms = [m.span() for ph in not_counts for m in re.finditer(rf"(?<!\w){re.escape(ph)}(?!\w)", p.target_text,
                                                                      re.I)]
        t_nums = number_anchors(p.target_text, ctx.lang, [s for _, s, _ in tgt_refs] + names + t_enums + idioms)
        # Without a profile the translation's number words cannot be read: digits against digits.
        s_nums = number_anchors(p.source_text, "" if ctx.no_profile else "en", [s for _, s, _ in src_refs] + enums)
        tc, sc = Counter(v for v, _ in t_nums), Counter(v for v, _ in s_nums)
        for v in sorted(tc - sc, key=str):
            if v in sc or v == 0:
                # A count the English has (repeated for clarity: "cada uma das quatro categorias"),
                # or "zero" for "nothing": wording, not a changed count.
                continue
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
        absent, listed = _missing_items(p.source_text, p.target_text)
        if absent:
            out.append(ctx.issue(LIST_ITEMS, p, f"{len(absent)} of the English list's {listed} items are absent: "
                                 + ", ".join(absent[:20]) + ("…" if len(absent) > 20 else ""),
                                 suggestion=", ".join(absent[:20])))
        out.extend(_missing_list_terms(ctx, p))
        src_fold = fold(p.source_text)
        src_names = [n for n, _ in cap_phrases(p.source_text)]
        quoted = quoted_names(p.target_text)
        for name, span in english_names(p.target_text) + quoted:
            if re.search(rf"(?<!\w){re.escape(fold(name))}(?!\w)", src_fold):
                continue
            if (name, span) in quoted:
                # A quoted title may be translated; only a near miss of an English name is a defect.
                near = process.extractOne(name, src_names, scorer=fuzz.ratio, score_cutoff=85) \
                    if src_names and _english_looking(name, ctx) else None  # not a cognate: "Permanente"
                if near is not None:
                    out.append(ctx.issue(NAMES, p, f"“{name}” is not the English name “{near[0]}”", span,
                                         suggestion=near[0]))
                continue
            if not _english_looking(name, ctx):
                continue  # a translated parenthesis that happens to be capitalised ("(Obsoleto)")
            near = process.extractOne(name, src_names, scorer=fuzz.ratio, score_cutoff=75) if src_names else None
            out.append(ctx.issue(NAMES, p, f"“{name}” does not occur in the English rule {p.row.base_id}"
                                 + (f"; “{near[0]}” does" if near else ""), span,
                                 suggestion=near[0] if near else None))
    return out


def _missing_list_terms(ctx, p) -> list:
    """Items of an English list that are term-base terms with none of their renderings in the
    translated piece (706.2: "color indicator, card type" rendered "indicador de tipo")."""
    tb = ctx.termbase
    if tb is None or len(p.target_pieces) != len(p.source_pieces):
        return []
    terms = {t.en.casefold(): t for t in tb.terms if t.renderings.get(ctx.lang)}
    out = []
    for (off, t), (_so, s) in zip(p.target_pieces, p.source_pieces):
        for m in _TERM_LIST_RE.finditer(s):
            items = [x.strip() for x in re.split(r",\s*(?:and/or |and |or )?|\s(?:and/or|and|or)\s", m.group()) if x.strip()]
            known = [terms[x.casefold()] for x in items if x.casefold() in terms]
            if len(known) < 3:
                continue  # not a list of terms the term base knows
            absent = [k for k in known if not find_all(t, k.renderings[ctx.lang])]
            if absent and len(absent) < len(known):
                said = ", ".join(f"“{k.en}” ({k.preferred(ctx.lang)})" for k in absent)
                out.append(ctx.issue(LIST_TERMS, p, f"the English list names {said}; the translation has none of "
                                     f"{'its' if len(absent) == 1 else 'their'} renderings", suggestion=", ".join(
                                         k.preferred(ctx.lang) for k in absent)))
    return out


register_pass(run, CHECKS, neutral=(NUMBERS, SYMBOLS))  # digits and mana symbols
