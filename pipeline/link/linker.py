"""Rank the rules of one English edition for each ruling, with the evidence for each.

A candidate's score adds up what the domain says about it:

* ``text``: BM25 over lemmas of the rule's text and examples (renamed terms rewritten
  first: "converted mana cost" is read as "mana value");
* ``keyword`` / ``topic`` / ``glossary``: a keyword ability or action, a heading's topic
  ("split card") or a glossary term named in the ruling raises every rule under the
  heading it points to, in proportion to how specific the phrase is in the edition;
* ``glossary`` (definition): a glossary definition worded like the ruling raises the rules
  it cites ("Last Known Information", "Intervening 'If' Clause");
* ``layout``: the card's layout (split, flip, double-faced…) raises its rules a little;
* ``card``: the card's rules text and all its rulings, read as one query, and the
  three-digit rules that query lands in (a card about copying favours 707);
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
from rapidfuzz import fuzz, process
from scipy import sparse

from ..model import RankerModel
from ..rulings.model import Ruling
from ..text import RULE, SUBRULE
from .index import RuleIndex
from .results import Candidate, Evidence, EvidenceKind  # noqa: F401 (re-exported: the linker's API)
from .text import BOUNDARY, content, lemma_lists, strip_card_names, with_bigrams, words

_REF = re.compile(rf"\b(?:rules?\s+)?({SUBRULE})\b|\brules?\s+({RULE})\b", re.IGNORECASE)
_SPLIT_SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"“(])")


@dataclass(frozen=True)
class Weights:
    """How much each kind of evidence counts.  Set by a coordinate search over the dev set
    and our own labelled AKH/XLN/RIX/DOM/GRN set together (never the dev set alone)."""

    text: float = 1.0
    passage: float = 0.5  # share of the text score from the best single sentence
    bigram: float = 0.2  # query weight of a lemma pair against a single lemma
    context: float = 0.5  # the card's text and its other rulings, read as one query
    definition: float = 0.1  # a glossary definition that reads like the ruling, for its rules
    card_topic: float = 0.4  # the three-digit rules the card's context points to, by share
    card_triggers: float = 0.0  # share of a heading's boost when only the card's context names it
    keyword: float = 0.9
    topic: float = 0.2
    glossary: float = 0.8
    layout: float = 0.15
    reference: float = 2.0
    sentence: float = 0.1  # fuzzy sentence similarity: a tie-breaker among close candidates
    shortlist: int = 30  # candidates that get the fuzzy sentence comparison


@dataclass
class _Query:
    text: str
    lemmas: list[str]
    layout: str | None
    context: tuple[np.ndarray, np.ndarray] | None = None  # the card's context: BM25, and its three-digit rules
    context_triggers: dict | None = None


class Linker:
    """Built once per edition (``Linker(build_index(doc))``); links any number of rulings."""

    def __init__(self, index: RuleIndex, weights: Weights = Weights(), ranker=RankerModel.SHIPPED, semantic=None):
        """``ranker``: the learned re-ranker (``rerank.Ranker``); ``"shipped"`` loads the
        model in ``pipeline/data`` (``"train-split"`` its twin trained on the train split only,
        to measure on the test split by); None ranks by the hand-weighted sum of the views alone.
        ``semantic``: a ``semantic.SemanticView`` (the optional extra) — its cosines become
        features of the ranker trained with them."""
        self.ix = index
        self.w = weights
        self.semantic = semantic
        self._subtrees: dict[tuple[str, ...], np.ndarray] = {}  # trigger roots -> their candidates
        self._groups: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}  # sentence rows by candidate
        if ranker in (RankerModel.SHIPPED, RankerModel.TRAIN_SPLIT):
            from .rerank import Ranker  # heavy: LightGBM loads only with the learned ranker

            split = ranker == RankerModel.TRAIN_SPLIT
            ranker = Ranker.shipped(semantic=semantic is not None, train_split=split)
            if ranker is None and semantic is not None:  # no model trained with the view: lexical
                self.semantic = None
                ranker = Ranker.shipped(train_split=split)
        self.ranker = ranker

    # -- public ------------------------------------------------------------------
    def link_texts(self, texts: list[str], layouts: list[str | None] | None = None, top: int = 5,
                   cards: list[str | None] | None = None, contexts: list[str | None] | None = None,
                   explain: int = 1) -> list[list[Candidate]]:
        """Rank rules for each text.  ``layouts``: the card's layout (split, flip, …);
        ``cards``: the card's English name ("A // B"), which is not read as rule words;
        ``contexts``: what else is known about the card (its rules text, its other rulings);
        ``explain``: how many of each ruling's candidates the learned ranker explains feature
        by feature (the views' evidence is given for all)."""
        queries = self._queries(texts, layouts, cards, contexts)
        if self.ranker is None:
            out = []
            for start in range(0, len(queries), 64):
                chunk = queries[start:start + 64]
                pre = self.batch_scores([q for q, _ in chunk])
                out.extend(self._rank(q, ss, top, p) for (q, ss), p in zip(chunk, pre))
            return out
        from .rerank import rerank  # heavy: as above

        return rerank(self, queries, top, explain)

    def _queries(self, texts, layouts, cards, contexts) -> list[tuple[_Query, list[list[str]]]]:
        """Each text as a query (lemmas, layout, the card's context scored once per card)
        with its sentences' lemmas."""
        layouts = layouts or [None] * len(texts)
        cards = cards or [None] * len(texts)
        contexts = contexts or [None] * len(texts)
        # Lemmatize every distinct sentence once: rulings repeat across cards, and a card's
        # context is its text plus its other rulings.
        clean = [strip_card_names(t, _names(c)) for t, c in zip(texts, cards)]
        sent_lists = [_SPLIT_SENT.split(t) for t in clean]
        # Each distinct (card, context) once: a card's context holds all its rulings, so walking
        # it once per ruling is quadratic in the rulings of one card.
        distinct = list(dict.fromkeys((c or "", ctx) for c, ctx in zip(cards, contexts) if ctx))
        pieces = {(c, x) for c, ctx in distinct for x in ctx.split("\n") if x.strip()}
        ctx_src = sorted(pieces)
        ctx_pieces = [_SPLIT_SENT.split(strip_card_names(x, _names(c))) for c, x in ctx_src]
        uniq = sorted({s for ss in sent_lists for s in ss} | {s for ss in ctx_pieces for s in ss})
        memo = dict(zip(uniq, (content(x) for x in lemma_lists(uniq))))

        def joined(sentences: list[str]) -> list[str]:
            out: list[str] = []
            for s in sentences:
                if out:
                    out.append(BOUNDARY)
                out.extend(memo[s])
            return out

        piece_l = {key: joined(ss) for key, ss in zip(ctx_src, ctx_pieces)}
        ctx_vec: dict = {}
        ctx_trig: dict = {}
        for key in distinct:
            c, ctx = key
            lem: list[str] = []
            for x in ctx.split("\n"):
                if x.strip():
                    lem.extend(piece_l[(c or "", x)] + [BOUNDARY])
            ctx_vec[key] = self._card_topic(self._text_scores(lem, passage=0.0))
            ctx_trig[key] = self._triggers(self._aliases(lem, []))
        out = []
        for text, ss, layout, c, ctx in zip(texts, sent_lists, layouts, cards, contexts):
            key = (c or "", ctx)
            out.append((_Query(text, joined(ss), layout, ctx_vec.get(key), ctx_trig.get(key)), [memo[s] for s in ss]))
        return out

    def link(self, rulings: list[Ruling], top: int = 5, explain: int = 1) -> list[list[Candidate]]:
        return self.link_texts([r.text for r in rulings], [r.card.layout if r.card else None for r in rulings], top,
                               [r.card.name if r.card else None for r in rulings], card_contexts(rulings), explain)

    def _card_topic(self, ctx: np.ndarray, n: int = 20) -> tuple[np.ndarray, np.ndarray]:
        """Spread the context's best matches over their three-digit rules: a card whose
        text and rulings are about copying makes every rule under 707 a little likelier."""
        ix = self.ix
        k = min(n, len(ctx))
        top = np.argpartition(-ctx, k - 1)[:k] if k < len(ctx) else np.arange(len(ctx))
        top = top[np.lexsort((top, -ctx[top]))]
        mass: dict[str, float] = {}
        for r in top.tolist():
            if ctx[r] > 0:
                root = ix.ids[r].split(".")[0]
                mass[root] = mass.get(root, 0.0) + float(ctx[r])
        total = sum(mass.values())
        topic = np.zeros(len(ctx))
        for root, m in mass.items():
            topic[ix.rows(root)] += m / total
        return ctx, topic

    def _triggers(self, lem: list[str]) -> dict[tuple[str, ...], tuple[float, Evidence]]:
        """Headings and glossary terms named in the lemmas: the strongest per target subtree."""
        best: dict[tuple[str, ...], tuple[float, Evidence]] = {}
        at: dict[str, list[int]] = {}
        for i, x in enumerate(lem):
            at.setdefault(x, []).append(i)
        for first in sorted(at.keys() & self.ix.triggers.keys()):
            for t in self.ix.triggers[first]:
                n = len(t.phrase)
                if n > 1 and not any(tuple(lem[i:i + n]) == t.phrase for i in at[first]):
                    continue
                amount = t.weight * getattr(self.w, t.kind)
                if amount > best.get(t.roots, (0.0, None))[0]:
                    best[t.roots] = (amount, Evidence(t.kind, t.label, amount))
        return best

    def _per_rule_max(self, per_sent: np.ndarray, examples: bool = False) -> np.ndarray:
        """Each candidate's best sentence score (0 without one): one ``maximum.reduceat`` over
        the sentence rows, which are grouped by candidate (``np.maximum.at`` per ruling was a
        tenth of the linking time)."""
        key = "examples" if examples else "all"
        if key not in self._groups:
            ix = self.ix
            sel = (ix.sent_example if examples and ix.sent_example is not None
                   else np.zeros(len(ix.sent_rule), dtype=bool) if examples else np.ones(len(ix.sent_rule), dtype=bool))
            idx = np.flatnonzero(sel)
            owner = ix.sent_rule[idx]
            assert (np.diff(owner) >= 0).all(), "sentence rows are in candidate order"
            starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]]) if len(owner) else np.zeros(0, dtype=np.int64)
            self._groups[key] = (idx, owner[starts], starts)
        idx, rows, starts = self._groups[key]
        out = np.zeros(len(self.ix.ids))
        if len(idx):
            out[rows] = np.maximum(0.0, np.maximum.reduceat(per_sent[idx], starts))
        return out

    def _subtree_rows(self, roots: tuple[str, ...]) -> np.ndarray:
        """The candidates under any of ``roots`` (sorted, once per distinct roots per index: a
        trigger's subtree is the same for every ruling that names it)."""
        if roots not in self._subtrees:
            self._subtrees[roots] = np.unique(np.concatenate([self.ix.rows(r) for r in roots]))
        return self._subtrees[roots]

    def _bm25_query(self, matrix, lem: list[str]) -> np.ndarray:
        counts: dict[int, float] = {}
        for t in with_bigrams(lem):
            c = self.ix.vocab.get(t)
            if c is not None:
                counts[c] = counts.get(c, 0.0) + (self.w.bigram if "_" in t else 1.0)
        if not counts:
            return np.zeros(matrix.shape[0])
        cols = np.fromiter(counts.keys(), dtype=np.int64)
        vals = np.fromiter(counts.values(), dtype=np.float64)
        return np.asarray(matrix[:, cols] @ vals).ravel()

    def _text_scores(self, lem: list[str], passage: float | None = None) -> np.ndarray:
        """BM25 of the lemmas against every candidate, scaled to 0..1 (whole rule and best sentence)."""
        ix = self.ix
        passage = self.w.passage if passage is None else passage
        whole = _unit(self._bm25_query(ix.matrix, lem))
        if passage <= 0 or not whole.any():
            return whole
        per_sent = self._bm25_query(ix.sent_matrix, lem)
        best_sent = self._per_rule_max(per_sent)
        return (1 - passage) * whole + passage * _unit(best_sent)

    # -- scoring -----------------------------------------------------------------
    def _aliases(self, lem: list[str], ev: list[Evidence]) -> list[str]:
        """Renamed terms rewritten to today's ("convert mana cost" -> "mana value")."""
        present = set(lem)
        for a in self.ix.aliases:
            if a.old[0] not in present:
                continue
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
                ev.append(Evidence(EvidenceKind.ALIAS, a.label, 0.0))
                lem = out
        return lem

    def query_matrix(self, lems: list[list[str]]) -> sparse.csr_matrix:
        """Queries x vocabulary: each query's lemma (and lemma pair) weights."""
        rows, cols, vals = [], [], []
        for i, lem in enumerate(lems):
            counts: dict[int, float] = {}
            for t in with_bigrams(lem):
                c = self.ix.vocab.get(t)
                if c is not None:
                    counts[c] = counts.get(c, 0.0) + (self.w.bigram if "_" in t else 1.0)
            rows.extend([i] * len(counts))
            cols.extend(counts.keys())
            vals.extend(counts.values())
        return sparse.csr_matrix((np.array(vals, dtype=np.float64), (np.array(rows, dtype=np.int64),
                                  np.array(cols, dtype=np.int64))), shape=(len(lems), len(self.ix.vocab)))

    def batch_scores(self, queries: list[_Query], extra=None) -> list[tuple[np.ndarray, ...]]:
        """BM25 of a batch of queries against the rules, their sentences and the glossary
        definitions (and ``extra`` matrices), as one sparse product each: per query
        ``(rules, sentences, definitions, *extra)``."""
        ix = self.ix
        q = self.query_matrix([self._aliases(x.lemmas, []) for x in queries])
        mats = [ix.matrix, ix.sent_matrix]
        if ix.gloss_matrix is not None:
            mats.append(ix.gloss_matrix)
        mats.extend(extra or [])
        res = [(q @ m.T).toarray() for m in mats]
        if ix.gloss_matrix is None:
            res.insert(2, np.zeros((len(queries), 0)))
        return [tuple(r[i] for r in res) for i in range(len(queries))]

    def _views(self, q: _Query, sents: list[list[str]], pre: tuple[np.ndarray, ...] | None = None) -> "Views":
        """Every view's score for every candidate, and the hand-weighted sum of them
        (today's linker, and the first stage of the learned one).  ``pre``: the query's
        row of :meth:`batch_scores`."""
        ix, w = self.ix, self.w
        n = len(ix.ids)
        common: list[Evidence] = []
        lem = self._aliases(q.lemmas, common)
        sents = [self._aliases(s, []) for s in sents]
        if pre is None:
            pre = self.batch_scores([q])[0]

        # Text: BM25 of the query lemmas against every candidate (whole rule, best rule
        # sentence, best example).
        whole = _unit(pre[0])
        per_sent = pre[1]
        best_sent = self._per_rule_max(per_sent)
        best_ex = self._per_rule_max(per_sent, examples=True)
        text = (1 - w.passage) * whole + w.passage * _unit(best_sent) if whole.any() else whole
        score = w.text * text
        if q.context is not None:
            score = score + w.context * q.context[0] + w.card_topic * q.context[1]
        v = Views(lem=lem, sents=sents, common=common, text=text, whole=whole, best_sent=_unit(best_sent),
                  best_ex=_unit(best_ex), score=score)

        def boost(rows: np.ndarray, amount: float, ev: Evidence, kind: str, raw: float) -> None:
            if len(rows) == 0 or amount <= 0:
                return
            score[rows] += amount
            arr = v.signal(kind, n)
            arr[rows] = np.maximum(arr[rows], raw)  # rows are distinct
            v.boosts.append((rows, ev))  # evidence is attached to the few candidates shown

        # Headings and glossary terms named in the ruling: one boost per target subtree
        # (the strongest phrase pointing there).
        best = self._triggers(lem)
        for roots, (amount, ev) in sorted(best.items()):
            boost(self._subtree_rows(roots), amount, ev, ev.kind, amount / max(getattr(w, ev.kind), 1e-9))
        for roots, (amount, ev) in sorted((q.context_triggers or {}).items()):
            # What the card itself is about (its keywords, its layout's words) counts for
            # each of its rulings, less than what the ruling names.
            rows = self._subtree_rows(roots)
            raw = amount / max(getattr(w, ev.kind), 1e-9)
            arr = v.signal("card_" + ev.kind, n)
            arr[rows] = np.maximum(arr[rows], raw)
            amount *= w.card_triggers
            if amount > best.get(roots, (0.0, None))[0]:
                boost(rows, amount - best.get(roots, (0.0, None))[0], Evidence(ev.kind, f"card: {ev.detail}", amount),
                      "card_trigger", raw)

        if ix.gloss_matrix is not None and ix.gloss_matrix.shape[0]:
            gs = pre[2]
            if gs.max() > 0:
                gs = gs / gs.max()
                for gi in np.argsort(-gs, kind="stable")[:3].tolist():
                    if gs[gi] > 0:
                        amt = w.definition * float(gs[gi])
                        boost(ix.gloss_rows[gi], max(amt, 1e-12), Evidence(EvidenceKind.GLOSSARY, ix.gloss_labels[gi], amt),
                              "definition", float(gs[gi]))

        if q.layout and q.layout in ix.layout_roots:
            for root in ix.layout_roots[q.layout]:
                boost(ix.rows(root), w.layout, Evidence(EvidenceKind.LAYOUT, f"{q.layout} card → {root}", w.layout), "layout", 1.0)

        for m in _REF.finditer(q.text):
            rid = m.group(1) or m.group(2)
            if rid in ix.pos:
                boost(np.array([ix.pos[rid]]), w.reference, Evidence(EvidenceKind.REFERENCE, f"rule {rid} named in the ruling", w.reference),
                      "reference", 1.0)
            elif rid in ix.subtree:
                boost(ix.rows(rid), w.reference / 2, Evidence(EvidenceKind.REFERENCE, f"rule {rid} named in the ruling", w.reference / 2),
                      "reference", 0.5)

        # Fuzzy sentence similarity on a shortlist: every (ruling sentence, rule sentence) pair
        # of the shortlist scored in one rapidfuzz call; per rule its best pair, the first
        # rule sentence reaching it.
        k = min(w.shortlist, n)
        short = np.argpartition(-score, k - 1)[:k] if k < n else np.arange(n)
        qs = [" ".join(words(s)) for s in sents if words(s)]
        v.fuzzy = np.zeros(n)
        if qs:
            rule_sents = [ix.sentences[r] for r in short.tolist()]
            flat = [rs for ss in rule_sents for rs in ss]
            best_pair = (process.cdist(qs, flat, scorer=fuzz.token_sort_ratio, dtype=np.float64).max(axis=0)
                         if flat else np.zeros(0))
            at = 0
            for r, ss in zip(short.tolist(), rule_sents):
                seg = best_pair[at:at + len(ss)]
                at += len(ss)
                # An empty rule sentence never counts (it scores 0, and only a score above 0 does).
                best_j = int(np.argmax(seg)) if len(seg) and seg.max() > 0 else -1
                best_s = float(seg[best_j]) if best_j >= 0 else 0.0
                v.sent_best[r] = (best_s / 100.0, best_j)
                v.fuzzy[r] = best_s / 100.0
                score[r] += w.sentence * best_s / 100.0
        v.short = short
        return v

    def _rank(self, q: _Query, sents: list[list[str]], top: int, pre=None) -> list[Candidate]:
        v = self._views(q, sents, pre)
        order = sorted(v.short.tolist(), key=lambda r: (-v.score[r], r))[:top]
        return [Candidate(self.ix.ids[r], float(v.score[r]), self._evidence(v, q, r)) for r in order]

    def _evidence(self, v: "Views", q: _Query, r: int) -> list[Evidence]:
        ix, w = self.ix, self.w
        ev = list(v.common)
        if v.known_terms is None:  # the ruling's words the index knows, once for its candidates
            v.known_terms = {t: ix.vocab[t] for t in words(v.lem) if t in ix.vocab}
        terms = sorted((t for t, c in v.known_terms.items() if c in ix.doc_terms[r]),
                       key=lambda t: (-ix.idf[ix.vocab[t]], t))
        if terms:
            ev.append(Evidence(EvidenceKind.TEXT, "matched terms: " + ", ".join(terms[:8]), w.text * float(v.text[r])))
        if v.boosts:
            if v.boost_rows is None:  # every boost's rows in one array, each row tagged with its boost
                v.boost_rows = (np.concatenate([rows for rows, _ in v.boosts]),
                                np.repeat(np.arange(len(v.boosts)), [len(rows) for rows, _ in v.boosts]))
            cat, owner = v.boost_rows
            ev.extend(v.boosts[i][1] for i in np.unique(owner[cat == r]).tolist())
        if q.context is not None:
            c = w.context * q.context[0][r] + w.card_topic * q.context[1][r]
            if c > 0:
                ev.append(Evidence(EvidenceKind.CARD, "the card's text and rulings point here", float(c)))
        if r in v.sent_best and v.sent_best[r][1] >= 0:
            sim, j = v.sent_best[r]
            ev.append(Evidence(EvidenceKind.SENTENCE, f"similar rule sentence ({sim:.2f}): {ix.sentence_texts[r][j]}", w.sentence * sim))
        return ev


@dataclass
class Views:
    """One ruling's scores for every candidate, view by view (arrays over ``RuleIndex.ids``)."""

    lem: list[str]
    sents: list[list[str]]
    common: list[Evidence]
    text: np.ndarray
    whole: np.ndarray
    best_sent: np.ndarray
    best_ex: np.ndarray
    score: np.ndarray  # the hand-weighted sum (today's linker)
    signals: dict[str, np.ndarray] = field(default_factory=dict)  # keyword, topic, glossary, definition, layout, …
    boosts: list[tuple[np.ndarray, Evidence]] = field(default_factory=list)
    fuzzy: np.ndarray | None = None
    sent_best: dict[int, tuple[float, int]] = field(default_factory=dict)
    short: np.ndarray | None = None
    memory_sim: np.ndarray | None = None  # similarity to each labelled ruling of the ranker's memory
    # Computed once when the first candidate's evidence is built (``Linker._evidence``).
    known_terms: dict[str, int] | None = None
    boost_rows: tuple[np.ndarray, np.ndarray] | None = None

    def signal(self, kind: str, n: int) -> np.ndarray:
        if kind not in self.signals:
            self.signals[kind] = np.zeros(n)
        return self.signals[kind]


def card_contexts(rulings: list[Ruling]) -> list[str | None]:
    """For each ruling: its card's rules text and the texts of all the card's rulings (one
    context per card, so it is scored once per card)."""
    by_card: dict[str, list[str]] = {}
    for r in rulings:
        if r.card:
            by_card.setdefault(r.card.name, []).append(r.text)
    # One string per card, shared by its rulings: memory stays linear in the rulings.
    joined: dict[str, str | None] = {}
    out = []
    for r in rulings:
        if not r.card:
            out.append(None)
            continue
        if r.card.name not in joined:
            parts = [r.card.text] if r.card.text else []
            parts += by_card[r.card.name]
            joined[r.card.name] = "\n".join(parts) or None
        out.append(joined[r.card.name])
    return out


def _names(card: str | None) -> list[str]:
    if not card:
        return []
    return [card, *(f.strip() for f in card.split("//"))]


def _unit(v: np.ndarray) -> np.ndarray:
    top = v.max() if len(v) else 0.0
    return v / top if top > 0 else v
