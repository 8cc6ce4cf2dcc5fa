"""Does the text around a citation talk about what the cited rule says?

Words are lemmatised with spaCy's English lookup table (spacy-lookups-data, offline) and
weighted by their inverse document frequency over the rules of the edition, so "persist"
counts far more than "creature" and words the rules never use (code, names) count for
nothing.  The score is the weighted share of the context's words found in the rule's text
or its headings, each word weighing its idf squared.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from ..model import Document

_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]")


@lru_cache(maxsize=1)
def _lemma_table():
    from spacy.lookups import load_lookups

    return load_lookups("en", ["lemma_lookup"]).get_table("lemma_lookup")


@lru_cache(maxsize=1)
def _stop_words() -> frozenset[str]:
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS) | {"cr", "rule", "rules", "see", "section", "todo", "fixme", "note", "per", "e.g", "i.e"}


@lru_cache(maxsize=200_000)
def lemma(word: str) -> str:
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    return _lemma_table().get(w, w)


def words(text: str) -> frozenset[str]:
    stop = _stop_words()
    out = set()
    for m in _WORD.finditer(text):
        for part in m.group(0).split("-"):
            if len(part) >= 3 and part.lower() not in stop:
                out.add(lemma(part))
    return frozenset(out)


@dataclass(frozen=True)
class Score:
    value: float
    matched: tuple[str, ...]
    weight: float  # total weight of the context's informative words


class TopicModel:
    def __init__(self, doc: Document):
        self.doc = doc
        self._bags: dict[str, frozenset[str]] = {}
        df: dict[str, int] = {}
        for r in doc.rules:
            for w in words(r.text):
                df[w] = df.get(w, 0) + 1
        n = len(doc.rules) or 1
        self.idf = {w: math.log((n + 1) / (c + 1)) + 0.1 for w, c in df.items()}

    def headings(self, rule_id: str) -> str:
        """The texts of the rule's ancestors (a keyword's name, a three-digit rule's title)
        and of its direct subrules (citing "120.3" often means its lettered list)."""
        out = []
        r = self.doc.rule(rule_id)
        if r is not None and r.level != "rule":
            out.extend(c.text for c in (self.doc.rule(x) for x in r.children) if c is not None)
        while r is not None and r.parent:
            r = self.doc.rule(r.parent)
            if r is not None:
                out.append(r.text)
        return " ".join(out)

    def bag(self, rule_id: str, text: str | None = None) -> frozenset[str]:
        """Words of a rule: its text (or ``text``, an older version) and its headings."""
        if text is not None:
            return words(text) | words(self.headings(rule_id))
        b = self._bags.get(rule_id)
        if b is None:
            r = self.doc.rule(rule_id)
            b = words((r.text if r else "") + " " + self.headings(rule_id))
            self._bags[rule_id] = b
        return b

    def score(self, context: frozenset[str], bag: frozenset[str]) -> Score:
        # Squared weights: a missing rare word ("flying") outweighs shared common ones ("creature").
        known = [w for w in context if w in self.idf]
        total = sum(self.idf[w] ** 2 for w in known)
        if not total:
            return Score(1.0, (), 0.0)
        hit = sorted(w for w in known if w in bag)
        return Score(sum(self.idf[w] ** 2 for w in hit) / total, tuple(hit), sum(self.idf[w] for w in known))
