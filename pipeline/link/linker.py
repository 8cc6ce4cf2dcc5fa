"""Rank the rules of one English edition for each ruling, with the evidence for each.

A candidate's score adds up what the domain says about it:

* ``text``: BM25 over lemmas of the rule's text and examples (renamed terms rewritten
  first: "converted mana cost" is read as "mana value");
* ``keyword`` / ``topic`` / ``glossary``: a keyword ability or action, a heading's topic
  ("split card") or a glossary term named in the ruling raises every rule under the
  heading it points to, in proportion to how specific the phrase is in the edition;
* ``layout``: the card's layout (split, flip, double-faced…) raises its rules a little;
* ``reference``: a rule number written in the ruling;
* ``sentence``: the best fuzzy match (rapidfuzz) between a ruling sentence and a rule
  sentence, computed for the best candidates only.

Headings boost whole subtrees evenly, so which subrule wins inside a subtree is decided
by its own words: the most specific rule that says what the ruling says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
from rapidfuzz import fuzz

from ..rulings.model import Ruling
from .index import RuleIndex
from .text import content, lemma_lists

_REF = re.compile(r"\b(?:rules?\s+)?(\d{3}\.\d{1,3}[a-z]?)\b|\brules?\s+(\d{3})\b", re.IGNORECASE)
_SPLIT_SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"“(])")


@dataclass(frozen=True)
class Weights:
    text: float = 1.0
    keyword: float = 0.9
    topic: float = 0.5
    glossary: float = 0.5
    layout: float = 0.15
    reference: float = 2.0
    sentence: float = 0.6
    shortlist: int = 30  # candidates that get the fuzzy sentence comparison


@dataclass
class Evidence:
    kind: str  # text | keyword | topic | glossary | alias | layout | reference | sentence
    detail: str
    score: float

    def to_dict(self) -> dict:
        return {"kind": self.kind, "detail": self.detail, "score": round(self.score, 4)}


@dataclass
class Candidate:
    rule: str
    score: float
    evidence: list[Evidence] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"rule": self.rule, "score": round(self.score, 4), "evidence": [e.to_dict() for e in self.evidence]}


@dataclass
class _Query:
    text: str
    lemmas: list[str]
    layout: str | None


class Linker:
    """Built once per edition (``Linker(build_index(doc))``); links any number of rulings."""

    def __init__(self, index: RuleIndex, weights: Weights = Weights()):
        self.ix = index
        self.w = weights

    # -- public ------------------------------------------------------------------
    def link_texts(self, texts: list[str], layouts: list[str | None] | None = None, top: int = 5) -> list[list[Candidate]]:
        layouts = layouts or [None] * len(texts)
        lemmas = lemma_lists(texts)
        sent_lists = [_SPLIT_SENT.split(t) for t in texts]
        flat = [s for ss in sent_lists for s in ss]
        flat_l = lemma_lists(flat)
        out, k = [], 0
        for text, lem, layout, ss in zip(texts, lemmas, layouts, sent_lists):
            sents = [content(x) for x in flat_l[k:k + len(ss)]]
            k += len(ss)
            out.append(self._rank(_Query(text, content(lem), layout), sents, top))
        return out

    def link(self, rulings: list[Ruling], top: int = 5) -> list[list[Candidate]]:
        return self.link_texts([r.text for r in rulings], [r.card.layout if r.card else None for r in rulings], top)

    # -- scoring -----------------------------------------------------------------
    def _aliases(self, lem: list[str], ev: list[Evidence]) -> list[str]:
        for a in self.ix.aliases:
            n = len(a.old)
            i, out, hit = 0, [], False
            while i < len(lem):
                if tuple(lem[i:i + n]) == a.old:
                    out.extend(a.new)
                    i += n
                    hit = True
                else:
                    out.append(lem[i])
                    i += 1
            if hit:
                ev.append(Evidence("alias", a.label, 0.0))
                lem = out
        return lem

    def _rank(self, q: _Query, sents: list[list[str]], top: int) -> list[Candidate]:
        ix, w = self.ix, self.w
        n = len(ix.ids)
        common: list[Evidence] = []
        lem = self._aliases(q.lemmas, common)
        sents = [self._aliases(s, []) for s in sents]

        # Text: BM25 of the query lemmas against every candidate.
        counts: dict[int, float] = {}
        for t in lem:
            c = ix.vocab.get(t)
            if c is not None:
                counts[c] = counts.get(c, 0.0) + 1.0
        text = np.zeros(n)
        if counts:
            cols = np.fromiter(counts.keys(), dtype=np.int64)
            vals = np.fromiter(counts.values(), dtype=np.float64)
            text = np.asarray(ix.matrix[:, cols] @ vals).ravel()
            top_text = text.max()
            if top_text > 0:
                text = text / top_text
        score = w.text * text
        extra: dict[int, list[Evidence]] = {}

        def boost(rows: np.ndarray, amount: float, ev: Evidence) -> None:
            if len(rows) == 0 or amount <= 0:
                return
            score[rows] += amount
            for r in rows.tolist():
                extra.setdefault(r, []).append(ev)

        # Headings and glossary terms named in the ruling: one boost per target subtree
        # (the strongest phrase pointing there).
        best: dict[tuple[str, ...], tuple[float, Evidence]] = {}
        present = set(lem)
        for first in present:
            for t in ix.triggers.get(first, ()):
                if not set(t.phrase) <= present or not _contains(lem, t.phrase):
                    continue
                amount = t.weight * getattr(w, t.kind)
                if amount > best.get(t.roots, (0.0, None))[0]:
                    best[t.roots] = (amount, Evidence(t.kind, t.label, amount))
        for roots, (amount, ev) in sorted(best.items()):
            rows = np.unique(np.concatenate([ix.rows(r) for r in roots]))
            boost(rows, amount, ev)

        if q.layout and q.layout in ix.layout_roots:
            for root in ix.layout_roots[q.layout]:
                boost(ix.rows(root), w.layout, Evidence("layout", f"{q.layout} card → {root}", w.layout))

        for m in _REF.finditer(q.text):
            rid = m.group(1) or m.group(2)
            if rid in ix.pos:
                boost(np.array([ix.pos[rid]]), w.reference, Evidence("reference", f"rule {rid} named in the ruling", w.reference))
            elif rid in ix.subtree:
                boost(ix.rows(rid), w.reference / 2, Evidence("reference", f"rule {rid} named in the ruling", w.reference / 2))

        # Fuzzy sentence similarity on a shortlist.
        k = min(w.shortlist, n)
        short = np.argpartition(-score, k - 1)[:k] if k < n else np.arange(n)
        qs = [" ".join(s) for s in sents if s]
        sent_best: dict[int, tuple[float, int]] = {}
        if qs:
            for r in short.tolist():
                best_s, best_j = 0.0, -1
                for j, rs in enumerate(ix.sentences[r]):
                    if not rs:
                        continue
                    for s in qs:
                        v = fuzz.token_sort_ratio(s, rs)
                        if v > best_s:
                            best_s, best_j = v, j
                sent_best[r] = (best_s / 100.0, best_j)
                score[r] += w.sentence * best_s / 100.0

        order = sorted(short.tolist(), key=lambda r: (-score[r], r))[:top]
        out = []
        for r in order:
            ev = list(common)
            terms = sorted({t for t in lem if t in ix.vocab and ix.matrix[r, ix.vocab[t]] > 0},
                           key=lambda t: (-ix.idf[ix.vocab[t]], t))
            if terms:
                ev.append(Evidence("text", "matched terms: " + ", ".join(terms[:8]), w.text * float(text[r])))
            ev.extend(extra.get(r, []))
            if r in sent_best and sent_best[r][1] >= 0:
                sim, j = sent_best[r]
                ev.append(Evidence("sentence", f"similar rule sentence ({sim:.2f}): {ix.sentence_texts[r][j]}", w.sentence * sim))
            out.append(Candidate(ix.ids[r], float(score[r]), ev))
        return out


def _contains(seq: list[str], phrase: tuple[str, ...]) -> bool:
    n = len(phrase)
    return any(tuple(seq[i:i + n]) == phrase for i in range(len(seq) - n + 1) if seq[i] == phrase[0])
