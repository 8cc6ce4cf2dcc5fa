"""Does the text around a citation talk about what the cited rule says?

Words are lemmatised with the English lookup table that spaCy's lookup lemmatizer uses
(``spacy-lookups-data``, offline; read directly so an audit does not pay for importing
spaCy's pipeline machinery) and weighted by their inverse document frequency over the
rules of the edition, so "persist" counts far more than "creature", function words count
for almost nothing, and words the rules never use (code, names) count for nothing.  The
score is the weighted share of the context's words found in the rule's text or its
headings, each word weighing its idf squared.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from ..model import Document
from ..rulenum import Level
from ..lexicon import lookups_table, spacy_stop_words

_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]")
#: Citation furniture: words that say "this is a citation", not what it is about.
_FURNITURE = frozenset({"cr", "rule", "rules", "see", "section", "todo", "fixme", "note", "per"})


@lru_cache(maxsize=1)
def _noise() -> frozenset[str]:
    """spaCy's English stop words (read without importing spaCy) plus citation furniture."""
    return spacy_stop_words("en") | _FURNITURE


@lru_cache(maxsize=1)
def _lemma_table() -> dict[str, str]:
    return lookups_table("en_lemma_lookup")  # the one reader of spacy-lookups-data tables


@lru_cache(maxsize=200_000)
def lemma(word: str) -> str:
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    return _lemma_table().get(w, w)


@lru_cache(maxsize=50_000)
def words(text: str) -> frozenset[str]:
    out = set()
    noise = _noise()
    for m in _WORD.finditer(text):
        for part in m.group(0).split("-"):
            if len(part) >= 3 and part.lower() not in noise:
                out.add(lemma(part))
    return frozenset(out)


@dataclass(frozen=True)
class Score:
    value: float
    matched: tuple[str, ...]
    weight: float  # total idf of the context's informative words
    hit_weight: float = 0.0  # total idf of the words shared with the rule


class TopicModel:
    def __init__(self, doc: Document):
        self.doc = doc
        self._own = {r.id: words(r.text) for r in doc.rules}
        df: dict[str, int] = {}
        for ws in self._own.values():
            for w in ws:
                df[w] = df.get(w, 0) + 1
        n = len(doc.rules) or 1
        self.idf = {w: math.log((n + 1) / (c + 1)) + 0.1 for w, c in df.items()}
        self._heads: dict[str, frozenset[str]] = {}
        self._bags: dict[str, frozenset[str]] = {}
        self._postings: dict[str, list[str]] | None = None

    def heading_words(self, rule_id: str) -> frozenset[str]:
        """Words of the rule's ancestors (a keyword's name, a three-digit rule's title) and
        of its direct subrules (citing "120.3" often means its lettered list)."""
        h = self._heads.get(rule_id)
        if h is None:
            acc: set[str] = set()
            r = self.doc.rule(rule_id)
            if r is not None and r.level != Level.RULE:
                for c in r.children:
                    acc |= self._own.get(c, frozenset())
            while r is not None and r.parent:
                acc |= self._own.get(r.parent, frozenset())
                r = self.doc.rule(r.parent)
            h = self._heads[rule_id] = frozenset(acc)
        return h

    def bag(self, rule_id: str, text: str | None = None) -> frozenset[str]:
        """Words of a rule: its text (or ``text``, an older version) and its headings."""
        if text is not None:
            return words(text) | self.heading_words(rule_id)
        b = self._bags.get(rule_id)
        if b is None:
            b = self._bags[rule_id] = self._own.get(rule_id, frozenset()) | self.heading_words(rule_id)
        return b

    def best(self, context: frozenset[str], exclude: str = "") -> tuple[str | None, Score]:
        """The rule whose words fit ``context`` best; only rules sharing a word are scored
        (an inverted index), so this stays cheap on a large tree."""
        if self._postings is None:
            post: dict[str, list[str]] = {}
            for rid in self._own:
                for w in self.bag(rid):
                    post.setdefault(w, []).append(rid)
            self._postings = post
        cands = sorted({rid for w in context for rid in self._postings.get(w, ())} - {exclude})
        best, best_s = None, Score(0.0, (), 0.0)
        for rid in cands:
            sc = self.score(context, self.bag(rid))
            # On a tie prefer the deeper rule: 702.79a says what 702.79 ("Persist") only names.
            if sc.value > best_s.value + 1e-9 or (abs(sc.value - best_s.value) <= 1e-9 and best
                                                  and self.doc.rule(rid).parent == best):
                best, best_s = rid, sc
        return best, best_s

    def score(self, context: frozenset[str], bag: frozenset[str]) -> Score:
        # Squared weights: a missing rare word ("flying") outweighs shared common ones ("creature").
        idf = self.idf
        known = [w for w in context if w in idf]
        total = sum(idf[w] ** 2 for w in known)
        if not total:
            return Score(1.0, (), 0.0)
        hit = sorted(w for w in known if w in bag)
        return Score(sum(idf[w] ** 2 for w in hit) / total, tuple(hit), sum(idf[w] for w in known),
                     sum(idf[w] for w in hit))
