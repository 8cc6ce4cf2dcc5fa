"""Text helpers shared by the checks: sentences, words, anchors that survive translation.

Anchors are what a translator must carry over untouched or by rule: digits and number
words, mana and tap symbols, rule references, English card names.  Extracting them the
same way on both sides lets the checks compare multisets instead of guessing at words.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

#: Mana, tap and other symbols: {X} {2} {B/G} {T} {Q} {E}.
SYMBOL_RE = re.compile(r"\{[0-9A-Z/½∞]{1,5}\}")
WORD_RE = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
DIGITS_RE = re.compile(r"(?<![\w.])[+-]?\d+(?:[.,]\d+)?(?![\w])")
#: Rule-number shapes ("601.2f", "702.46"); counts and P/T never look like this.
RULE_SHAPE_RE = re.compile(r"[1-9]\d{2}\.\d{1,3}[a-z]?")
_SENT_END = re.compile(r"(?<=[.!?:;])[”»\")]*\s+(?=[¿¡“«\"(A-ZÀ-Ý0-9{])|\n")

#: Number words that carry a count.  "one"/"um"/"uno" are left out: they double as articles.
NUMBER_WORDS: dict[str, dict[str, int]] = {
    "en": {"zero": 0, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
           "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
           "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
           "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
           "twice": 2, "thrice": 3},
    "pt": {"zero": 0, "dois": 2, "duas": 2, "três": 3, "quatro": 4, "cinco": 5, "seis": 6, "sete": 7,
           "oito": 8, "nove": 9, "dez": 10, "onze": 11, "doze": 12, "treze": 13, "catorze": 14, "quatorze": 14,
           "quinze": 15, "dezesseis": 16, "dezasseis": 16, "dezessete": 17, "dezassete": 17, "dezoito": 18,
           "dezenove": 19, "dezanove": 19, "vinte": 20, "trinta": 30, "quarenta": 40, "cinquenta": 50,
           "cinqüenta": 50, "sessenta": 60, "setenta": 70, "oitenta": 80, "noventa": 90, "cem": 100,
           "dobro": 2, "triplo": 3},
    "es": {"cero": 0, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8,
           "nueve": 9, "diez": 10, "once": 11, "doce": 12, "trece": 13, "catorce": 14, "quince": 15,
           "dieciséis": 16, "diecisiete": 17, "dieciocho": 18, "diecinueve": 19, "veinte": 20, "treinta": 30,
           "cuarenta": 40, "cincuenta": 50, "sesenta": 60, "setenta": 70, "ochenta": 80, "noventa": 90,
           "cien": 100, "doble": 2, "triple": 3},
}
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
    # "two-player", "four-card": the count inside a hyphenated word counts ("dois jogadores").
    parts = [Token(m.group(), w.start + m.start(), w.start + m.start() + len(m.group()))
             for w in words(t) for m in re.finditer(r"[^\W\d_]+", w.text)]
    for w in parts:
        if not w.text.islower() and not w.text.isupper():
            # "Two-Headed Giant", "Gigante de Duas Cabeças": names; a sentence-initial count
            # is skipped on both sides alike.
            continue
        v = table.get(w.text)
        if v is not None and not (lang == "en" and re.search(r"\bno\s+$", t[max(0, w.start - 4):w.start])):
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


@lru_cache(maxsize=4096)
def fold(s: str) -> str:
    """Case- and accent-insensitive form, for comparing names."""
    import unicodedata

    n = unicodedata.normalize("NFKD", s.replace("’", "'"))
    return re.sub(r"\s+", " ", "".join(ch for ch in n if not unicodedata.combining(ch)).casefold()).strip()
