"""The strong evidence about what a citation means, read from the rules of every edition.

* Titles: a three-digit rule's title ("Copying Objects"), a keyword or keyword action
  ("Trample", "Discard") and the ability words of 207.2c, named in the citing text.  Each
  edition's headings are indexed as lemma sequences (so "Battles" is named by "battle",
  "Special Actions" by "special action"), with the numbers that held them and when.
* Quotes: rule wording written after the number, compared with that number's text in every
  edition (its beginning, or any part of it for a quote that starts mid-rule).
* Dates: a date in the citing text (XMage's ``//20091005 - 500.4``, "FAQ 2013/01/11") names
  the edition whose numbering the citation follows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz

from ..text import RULE, SUB, SUBRULE
from .topic import lemma

_TOKEN = re.compile(r"[A-Za-z][A-Za-z'’]*")
_DATE = re.compile(r"(?<![\d.])((?:19|20)\d\d)[-/.]?([01]\d)[-/.]?([0-3]\d)(?!\d)")
_HEAD_ID = re.compile(rf"^{RULE}(?:\.{SUB})?$")
_ABILITY_WORDS = re.compile(r"ability words are (.+?)\.", re.S)
#: Headings too common as plain words to say which rule a comment means.
_PLAIN = frozenset({("general",), ("mana",), ("life",), ("damage",), ("target",), ("cost",), ("object",),
                    ("card",), ("spell",), ("ability",), ("player",), ("permanent",), ("token",), ("color",),
                    ("hand",), ("library",), ("battlefield",), ("graveyard",), ("stack",), ("command",),
                    ("emblem",), ("play",), ("cast",), ("activate",)})
QUOTE_MATCH = 90.0  # rapidfuzz: "these words are that rule's text"


def words(text: str) -> tuple[str, ...]:
    """Lemmas of the words of ``text``, in order (hyphenated words split)."""
    out = []
    for m in _TOKEN.finditer(text.replace("-", " ")):
        out.append(lemma(m.group(0)))
    return tuple(out)


def norm(text: str) -> str:
    t = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"').lower()
    return " ".join(re.sub(r"[^a-z0-9'+/{}-]+", " ", t).split())


def is_heading(number: str, text: str) -> bool:
    """A three-digit rule (its text is its title) or a subrule that is only a name ("Trample")."""
    if "." not in number:
        return True
    return bool(_HEAD_ID.match(number)) and len(text.split()) <= 6 and not text.rstrip().endswith((".", ":"))


def family(number: str, table: dict[str, str]) -> list[tuple[str, str]]:
    """(heading number, title) of the headings above ``number`` in one edition: its subrule
    heading ("702.19", "Trample") and its three-digit rule ("702", "Keyword Abilities")."""
    out = []
    head, _, rest = number.partition(".")
    if rest:
        sub = head + "." + re.match(r"\d+", rest).group(0)
        t = table.get(sub)
        if t is not None and is_heading(sub, t):
            out.append((sub, t))
    t = table.get(head)
    if t is not None:
        out.append((head, t))
    return out


def suffix(number: str, head: str) -> str:
    """What ``number`` adds below its heading ``head``: "a" for 702.34a under 702.34."""
    return number[len(head):]


def find_date(text: str) -> str | None:
    """An ISO date written in the citing text, if any."""
    for m in _DATE.finditer(text):
        y, mo, d = m.groups()
        if 1 <= int(mo) <= 12 and 1 <= int(d) <= 31:
            return f"{y}-{mo}-{d}"
    return None


def quote_score(quote: str, text: str) -> float:
    """How well ``quote`` reproduces ``text``: its beginning, or any part of it for a quote of
    at least five words that starts mid-rule."""
    q, t = norm(quote).rstrip(".…"), norm(text)
    if not q or not t:
        return 0.0
    s = fuzz.ratio(q, t[: len(q)]) if len(q) < len(t) else fuzz.ratio(q, t)
    if len(q.split()) >= 5 and len(t) >= len(q):
        s = max(s, fuzz.partial_ratio(q, t))
    return s


def diff_window(quote: str, text: str, width: int = 5) -> str:
    """The words around the first place where ``quote`` and ``text`` differ, from both:
    ``…a player that's been dealt… / now …a player who's been dealt…``."""
    a, b = quote.split(), text.split()
    na, nb = [norm(w) for w in a], [norm(w) for w in b]
    i = 0
    while i < min(len(na), len(nb)) and na[i] == nb[i]:
        i += 1
    lo = max(0, i - 2)
    pa = " ".join(a[lo: i + width])
    pb = " ".join(b[lo: i + width])
    lead = "…" if lo else ""
    return f"\"{lead}{pa}…\" where the rule now reads \"{lead}{pb}…\""


@dataclass(frozen=True)
class Named:
    title: tuple[str, ...]
    start: int  # word position in the citing text


class Titles:
    """Every heading of every edition (oldest first, the model last), by its lemmas."""

    def __init__(self, editions: list[tuple[str, dict[str, str]]], model: dict[str, str]):
        self.editions = editions  # (label, number -> text)
        self.model = model
        self.display: dict[tuple[str, ...], str] = {}
        titles: set[tuple[str, ...]] = set()
        for _, table in editions + [("model", model)]:
            for n, t in table.items():
                if "." not in n or (n[:3] in ("701", "702", "502") and is_heading(n, t)):
                    w = words(t)
                    if w and w not in _PLAIN:
                        titles.add(w)
                        self.display.setdefault(w, t)
        for n, t in model.items():
            if "." not in n or is_heading(n, t):
                self.display[words(t)] = t
        self.now: dict[tuple[str, ...], str] = {}
        self._all_now: dict[tuple[str, ...], list[str]] = {}
        for n, t in model.items():
            if "." not in n or (n[:3] in ("701", "702") and is_heading(n, t)):
                self.now.setdefault(words(t), n)
                self._all_now.setdefault(words(t), []).append(n)
        # Ability words (207.2c) are named like keywords but are not rules of their own.
        self.ability_words: set[tuple[str, ...]] = set()
        m = _ABILITY_WORDS.search(model.get("207.2c", ""))
        if m:
            for w in re.split(r",\s*(?:and\s+)?|\s+and\s+", m.group(1)):
                key = words(w)
                if key:
                    self.ability_words.add(key)
                    self.display.setdefault(key, w.strip())
        self._titles = titles | self.ability_words
        self._longest = max((len(t) for t in self._titles), default=1)
        self._held: dict[str, dict[tuple[str, ...], list[str]]] = {}

    def named(self, text: str) -> list[Named]:
        """Titles named in ``text``, longest first where they overlap, in text order."""
        ws = words(text)
        out, i = [], 0
        while i < len(ws):
            for n in range(min(self._longest, len(ws) - i), 0, -1):
                key = ws[i: i + n]
                if key in self._titles:
                    out.append(Named(key, i))
                    i += n
                    break
            else:
                i += 1
        return out

    def held(self, number: str) -> dict[tuple[str, ...], list[str]]:
        """Each title the headings above ``number`` had, with the editions that had it."""
        h = self._held.get(number)
        if h is None:
            h = {}
            for label, table in self.editions:
                for _, t in family(number, table):
                    h.setdefault(words(t), []).append(label)
            self._held[number] = h
        return h

    def now_family(self, number: str) -> list[tuple[str, tuple[str, ...]]]:
        return [(n, words(t)) for n, t in family(number, self.model)]

    def is_keyword(self, title: tuple[str, ...]) -> bool:
        n = self.now.get(title)
        return bool(n and n.startswith("702.")) or title in self.ability_words

    def holder(self, title: tuple[str, ...], near: str = "") -> str | None:
        """The number holding ``title`` now; of several ("Exile": the zone 406 and the keyword
        action 701.13), the one nearest ``near`` (same rule, then same section)."""
        if title in self.ability_words and title not in self.now:
            return "207.2c"
        alls = self._all_now.get(title)
        if not alls:
            return None
        for key in (near[:3], near[:1]):
            hit = [n for n in alls if key and n.startswith(key)]
            if hit:
                return hit[0]
        return alls[0]

    def show(self, title: tuple[str, ...]) -> str:
        return self.display.get(title, " ".join(title))


@lru_cache(maxsize=4096)
def number_positions(text: str) -> tuple[str, ...]:
    """Rule numbers written in ``text``, in order (for pairing numbers with names)."""
    return tuple(m.group(0) for m in re.finditer(rf"(?<![\w.]){SUBRULE}(?![\w])", text))
