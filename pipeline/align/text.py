"""Text helpers shared by the checks: sentences, words, anchors that survive translation.

Anchors are what a translator must carry over untouched or by rule: digits and number
words, mana and tap symbols, rule references, English card names.  Extracting them the
same way on both sides lets the checks compare multisets instead of guessing at words.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ..text import SUBRULE, fold
from ..profiles import PROFILES

#: Mana, tap and other symbols: {X} {2} {B/G} {T} {Q} {E}.
SYMBOL_RE = re.compile(r"\{[0-9A-Z/½∞]{1,5}\}")
WORD_RE = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
DIGITS_RE = re.compile(r"(?<![\w.])[+-]?\d+(?:[.,]\d+)?(?![\w])")
#: Rule-number shapes ("601.2f", "702.46"); counts and P/T never look like this.
RULE_SHAPE_RE = re.compile(SUBRULE)
_SENT_END = re.compile(r"(?<=[.!?:;])[”»\")]*\s+(?=[¿¡“«\"(A-ZÀ-Ý0-9{])|\n")

#: Number words that carry a count, per language (the profiles' data).
NUMBER_WORDS: dict[str, dict[str, int]] = {p.lang: dict(p.number_words) for p in PROFILES.values()}
#: Words before a number word that make it no count ("no two objects"), per language.
_NEGATED = {p.lang: re.compile(rf"\b(?:{'|'.join(map(re.escape, p.count_negators))})\s+$")
            for p in PROFILES.values() if p.count_negators}
# "twice" is "duas vezes" / "dos veces": the count survives as a number word on the other side.

#: Lower-case words allowed inside an English card name ("Orb of Dreams", "Act of Treason").
NAME_JOINERS = frozenset("of the a an to in from with and for on at by".split())
_CAP = r"[A-Z][\w'’-]*"
#: A run of capitalised English words, joiners allowed between them.
CAP_PHRASE_RE = re.compile(rf"{_CAP}(?:,?\s+(?:(?:{'|'.join(sorted(NAME_JOINERS))})\s+)*{_CAP})*")
PAREN_RE = re.compile(r"\(([^()]{1,80})\)")


@dataclass(frozen=True)
class Token:
    text: str
    start: int
    end: int


def words(text: str) -> list[Token]:
    return [Token(m.group(), m.start(), m.end()) for m in WORD_RE.finditer(text)]


def sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans, split the same way in every language (so two sides pair up)."""
    spans, start = [], 0
    for m in _SENT_END.finditer(text):
        end = m.start()
        if text[start:end].strip():
            spans.append((start, end))
        start = m.end()
    if text[start:].strip():
        spans.append((start, len(text.rstrip())))
    return spans


def normalize_sentence(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip().casefold()


def masked(text: str, spans) -> str:
    """``text`` with ``spans`` blanked out (same length, so offsets stay valid)."""
    chars = list(text)
    for a, b in spans:
        for i in range(a, min(b, len(chars))):
            chars[i] = " "
    return "".join(chars)


def symbol_spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    return [(m.group(), m.span()) for m in SYMBOL_RE.finditer(text)]


def number_anchors(text: str, lang: str, exclude=()) -> list[tuple[int, tuple[int, int]]]:
    """Counts in ``text``: digits (outside symbols and rule references) and number words."""
    t = masked(text, list(exclude) + [s for _, s in symbol_spans(text)])
    t = masked(t, [m.span() for m in RULE_SHAPE_RE.finditer(t)])
    out = []
    for m in DIGITS_RE.finditer(t):
        raw = m.group().lstrip("+-").replace(",", ".")
        try:
            v = float(raw)
        except ValueError:
            continue
        out.append((int(v) if v.is_integer() else v, m.span()))
    table = NUMBER_WORDS.get(lang, {})
    negated = _NEGATED.get(lang)
    # "two-player", "four-card": the count inside a hyphenated word counts ("dois jogadores").
    parts = [Token(m.group(), w.start + m.start(), w.start + m.start() + len(m.group()))
             for w in words(t) for m in re.finditer(r"[^\W\d_]+", w.text)]
    for w in parts:
        if not w.text.islower() and not w.text.isupper():
            # "Two-Headed Giant", "Gigante de Duas Cabeças": names; a sentence-initial count
            # is skipped on both sides alike.
            continue
        v = table.get(w.text)
        if v is not None and not (negated and negated.search(t[max(0, w.start - 12):w.start])):
            out.append((v, (w.start, w.end)))  # "no two objects": not a count
    out.sort(key=lambda x: x[1])
    return out


def english_names(text: str) -> list[tuple[str, tuple[int, int]]]:
    """English card names written in parentheses after a localized name: "Bastão Quimérico
    (Chimeric Staff)".  Only parentheses holding nothing but capitalised words and joiners."""
    out = []
    for m in PAREN_RE.finditer(text):
        inner = m.group(1).strip()
        ws = inner.replace(",", " ").split()
        if not ws or not ws[0][:1].isupper():
            continue
        if all(w[:1].isupper() or w in NAME_JOINERS for w in ws) and not any(ch.isdigit() for ch in inner):
            out.append((inner, m.span(1)))
    return out


QUOTE_RE = re.compile(r"[“«\"]([^“”«»\"]{1,60})[”»\"]")


def quoted_names(text: str) -> list[tuple[str, tuple[int, int]]]:
    """Quoted capitalised names: “Voice of All”, «Chimeric Staff» (trailing punctuation dropped)."""
    out = []
    for m in QUOTE_RE.finditer(text):
        inner = m.group(1).strip().rstrip(".,;:!?")
        ws = inner.replace(",", " ").split()
        if ws and len(ws) <= 6 and all(w[:1].isupper() or w in NAME_JOINERS for w in ws) \
                and not any(ch.isdigit() for ch in inner):
            a = m.start(1) + m.group(1).find(inner)
            out.append((inner, (a, a + len(inner))))
    return out


def cap_phrases(text: str) -> list[tuple[str, tuple[int, int]]]:
    """Runs of capitalised words (possible card names), sentence-initial words included."""
    return [(m.group().rstrip(",").strip(), m.span()) for m in CAP_PHRASE_RE.finditer(text)]


def multiset_diff(a: Counter, b: Counter) -> tuple[Counter, Counter]:
    """(what ``a`` has beyond ``b``, what ``b`` has beyond ``a``)."""
    return a - b, b - a


