"""What the linker knows about one English edition, built once from the edition itself.

* candidates: every rule with a sentence of its own (titles such as "702.127 Aftermath"
  or "709 Split Cards" are headings, not rules a ruling can cite);
* a BM25 index over the candidates' lemmas (text and examples);
* triggers: lemma phrases that, named in a ruling, point at a subtree of rules —
  keyword abilities and actions (the 702.x / 701.x headings), topics (every other
  heading: "Split Cards", "Copying Objects"), glossary terms (with their "See rule"
  references), each weighted by how specific the phrase is in this edition;
* aliases for renamed terms, read from the glossary's "(Obsolete)" entries
  ("Converted Mana Cost (Obsolete)": "An obsolete term for mana value.").

Nothing here is a hard-coded list of keywords or rule numbers: a new edition brings its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
from scipy import sparse

from ..model import Document
from ..rulenum import Level
from .results import EvidenceKind
from .text import BOUNDARY, content, lemma_lists, with_bigrams, words

_SENTENCE_END = re.compile(r"[.:!?)”\"]\s*$")
_SPLIT_SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z“\"(])")
_OBSOLETE = re.compile(r"\s*\(obsolete\)\s*$", re.IGNORECASE)
_ALIAS_FOR = re.compile(r"\b(?:obsolete|older)\s+(?:term|name|keyword|card type)?\s*(?:for|of)\s+(?:an?\s+|the\s+)?"
                        r"“?([A-Za-z][A-Za-z\- ]+?)(?:\s*\[|[.,”]|$)")
_ALIAS_RENAMED = re.compile(r"renamed\.?\s+See rule [0-9.a-z]+,\s*“([^”]+)”")

#: Card layouts (MTGJSON / Scryfall names) -> the word their rules' heading starts with.
LAYOUT_WORDS = {
    "split": "split", "aftermath": "split", "flip": "flip", "double-faced": "double-faced",
    "transform": "double-faced", "modal_dfc": "double-faced", "meld": "meld", "leveler": "leveler",
    "saga": "saga", "adventure": "adventurer", "class": "class", "case": "case", "prototype": "prototype",
    "attraction": "attraction",
}


@dataclass(frozen=True)
class Trigger:
    """A phrase that, found in a ruling, points at rules (the subtree under ``roots``)."""

    phrase: tuple[str, ...]  # content lemmas
    kind: EvidenceKind  # keyword | topic | glossary | layout
    label: str  # what a person reads in the evidence
    roots: tuple[str, ...]
    weight: float  # 0..1: how specific the phrase is in this edition


@dataclass
class Alias:
    old: tuple[str, ...]
    new: tuple[str, ...]
    label: str


@dataclass
class RuleIndex:
    edition: str | None
    ids: list[str]  # candidate rule ids, in document order
    texts: list[str]
    sentences: list[list[str]]  # per candidate: its sentences as lemma strings (for fuzzy matching)
    sentence_texts: list[list[str]]  # the same sentences as written
    matrix: sparse.csc_matrix  # candidates x vocabulary, BM25 term weights (by column: queries pick terms)
    sent_matrix: sparse.csc_matrix  # sentences x vocabulary, BM25 term weights
    sent_rule: np.ndarray  # sentence row -> candidate row
    vocab: dict[str, int]
    idf: np.ndarray
    pos: dict[str, int]  # rule id -> row
    subtree: dict[str, np.ndarray]  # any rule id -> rows of the candidates at or under it
    triggers: dict[str, list[Trigger]]  # first lemma -> triggers starting with it
    aliases: list[Alias]
    layout_roots: dict[str, tuple[str, ...]]
    gloss_matrix: sparse.csc_matrix | None = None  # glossary definitions x vocabulary
    doc_terms: list[frozenset[int]] = field(default_factory=list)  # candidate -> its vocabulary ids
    gloss_rows: list[np.ndarray] = field(default_factory=list)  # definition -> rows it refers to
    gloss_labels: list[str] = field(default_factory=list)
    all_ids: frozenset[str] = field(default_factory=frozenset)
    # What the re-ranker reads about each candidate (see ``rerank.py``).
    sent_example: np.ndarray | None = None  # sentence row -> True when it is an example
    parent_row: np.ndarray | None = None  # candidate -> its parent's row (-1: a heading or none)
    static: np.ndarray | None = None  # candidates x STATIC_FEATURES
    cites: sparse.csr_matrix | None = None  # candidate i cites candidate j (text and examples)
    cited: sparse.csr_matrix | None = None  # the transpose: candidate j is cited by candidate i
    children_rows: list[np.ndarray] = field(default_factory=list)  # candidate -> rows of its direct subrules
    children_pad: np.ndarray | None = None  # the same, padded with -1 (candidates x most children)
    headings: list[str] = field(default_factory=list)  # candidate -> "702.127 Aftermath" (nearest title)

    def rows(self, root: str) -> np.ndarray:
        return self.subtree.get(root, np.empty(0, dtype=np.int64))


def _is_title(text: str) -> bool:
    t = text.strip()
    return len(t.split()) <= 8 and not _SENTENCE_END.search(t)


def _phrase_rows(phrase: tuple[str, ...], seqs: list[list[str]], inv: dict[str, set[int]]) -> list[int]:
    """Rows whose lemma sequence contains the phrase (contiguously)."""
    cand = set.intersection(*(inv.get(t, set()) for t in phrase))
    n = len(phrase)
    out = []
    for i in sorted(cand):
        s = seqs[i]
        if any(tuple(s[j:j + n]) == phrase for j in range(len(s) - n + 1) if s[j] == phrase[0]):
            out.append(i)
    return out


def _bm25(docs: list[list[str]], vocab: dict[str, int], k1: float, b: float,
          idf: np.ndarray | None = None) -> tuple[sparse.csr_matrix, np.ndarray]:
    rows, cols, tfs = [], [], []
    for i, toks in enumerate(docs):
        counts: dict[int, int] = {}
        for t in toks:
            c = vocab[t]
            counts[c] = counts.get(c, 0) + 1
        for c, n in counts.items():
            rows.append(i), cols.append(c), tfs.append(n)
    shape = (len(docs), len(vocab))
    tf = sparse.csr_matrix((np.array(tfs, dtype=np.float64), (rows, cols)), shape=shape)
    if idf is None:
        df = np.bincount(np.array(cols, dtype=np.int64), minlength=len(vocab))
        idf = np.log(1 + (len(docs) - df + 0.5) / (df + 0.5))
    lens = np.array([len(t) for t in docs], dtype=np.float64)
    norm = k1 * (1 - b + b * lens / max(lens.mean(), 1.0))
    coo = tf.tocoo()
    w = coo.data * (k1 + 1) / (coo.data + norm[coo.row]) * idf[coo.col]
    return sparse.csr_matrix((w, (coo.row, coo.col)), shape=shape), idf


def build_index(doc: Document, k1: float = 1.2, b: float = 0.75) -> RuleIndex:
    rules = doc.rules
    cands = [r for r in rules if r.level != Level.RULE and not _is_title(r.text)]
    ids = [r.id for r in cands]
    pos = {rid: i for i, rid in enumerate(ids)}
    sent_texts: list[list[str]] = [_SPLIT_SENT.split(r.text) + r.example_texts for r in cands]
    flat = [s for ss in sent_texts for s in ss]

    cand_ids = set(ids)
    titles = [r for r in rules if r.id not in cand_ids]
    gloss = [g for g in doc.glossary]
    gloss_names = [[n.strip() for n in _OBSOLETE.sub("", g.term).split(",") if n.strip()] for g in gloss]
    phrases_src = [r.text for r in titles] + [n for ns in gloss_names for n in ns]

    lemmas = lemma_lists(flat + phrases_src)
    flat_l = [content(x) for x in lemmas[:len(flat)]]
    ph_l = [tuple(words(content(x))) for x in lemmas[len(flat):]]
    title_ph = dict(zip((r.id for r in titles), ph_l[:len(titles)]))
    gl_ph = iter(ph_l[len(titles):])

    # A rule's text and examples, sentence by sentence (lemmatized once, used twice).
    sentences, body_l, own_len, k = [], [], [], 0
    for r, ss in zip(cands, sent_texts):
        part = flat_l[k:k + len(ss)]
        sentences.append([" ".join(words(x)) for x in part])
        body_l.append([t for x in part for t in x])
        own_len.append(sum(len(words(x)) for x in part[:len(ss) - len(r.examples)]))
        k += len(ss)

    # BM25 weights, precomputed per (rule, lemma) and per (sentence, lemma): a long rule
    # is found by the one sentence that says what the ruling says.
    vocab: dict[str, int] = {}
    # Each rule is also read under its headings ("Handling Triggered Abilities", "Aftermath"):
    # a ruling speaks of the topic, the rule text often only of its detail.
    parent = {r.id: r.parent for r in rules}
    doc_l = []
    sent_docs = [with_bigrams(x) for x in flat_l]
    k = 0
    for rid, ss in zip(ids, sent_texts):
        toks = [t for x in sent_docs[k:k + len(ss)] for t in x]
        k += len(ss)
        extra, p = [], parent.get(rid)
        while p is not None:
            extra.extend(title_ph.get(p, ()))
            p = parent.get(p)
        doc_l.append(toks + extra)
    for toks in doc_l:
        for t in toks:
            vocab.setdefault(t, len(vocab))
    matrix, idf = _bm25(doc_l, vocab, k1, b)
    sent_matrix, _ = _bm25(sent_docs, vocab, k1, b, idf=idf)
    sent_rule = np.array([i for i, ss in enumerate(sent_texts) for _ in ss], dtype=np.int64)

    inv: dict[str, set[int]] = {}
    for i, toks in enumerate(body_l):
        for t in toks:
            if t != BOUNDARY:
                inv.setdefault(t, set()).add(i)

    # Subtrees: every rule id -> candidate rows at or under it.
    children = {r.id: r.children for r in rules}
    subtree: dict[str, np.ndarray] = {}

    def collect(rid: str) -> list[int]:
        out = [pos[rid]] if rid in pos else []
        for c in children.get(rid, []):
            out.extend(collect(c))
        return out
    for r in rules:
        subtree[r.id] = np.array(collect(r.id), dtype=np.int64)

    def weight(phrase: tuple[str, ...], roots: tuple[str, ...]) -> float:
        inside = set()
        for rt in roots:
            inside.update(subtree.get(rt, np.empty(0, dtype=np.int64)).tolist())
        rows_with = _phrase_rows(phrase, body_l, inv)
        outside = sum(1 for i in rows_with if i not in inside)
        # A phrase used all over the rules ("cast", "spell") says little about where a
        # ruling belongs; one used mostly under its own heading ("aftermath", "copy")
        # says a lot.
        return (len(rows_with) - outside + 1) / (len(rows_with) + 2)

    triggers: list[Trigger] = []
    for r in titles:
        ph = title_ph[r.id]
        if not ph or r.id in ("701", "702") or (r.level == Level.RULE and r.text.strip() == "General"):
            continue
        kind = EvidenceKind.KEYWORD if r.parent in ("701", "702") else EvidenceKind.TOPIC
        parts = [ph]
        if kind == EvidenceKind.KEYWORD and " and " in r.text:  # "Tap and Untap"
            parts = [tuple(words(content(x))) for x in lemma_lists(r.text.split(" and "))]
        for p in parts:
            if p:
                triggers.append(Trigger(p, kind, f"{r.id} {r.text}", (r.id,), weight(p, (r.id,))))

    aliases: list[Alias] = []
    by_term = {}
    for g, names in zip(gloss, gloss_names):
        for n in names:
            by_term.setdefault(next(gl_ph), (g, n))
    term_lookup = {ph: gn for ph, gn in by_term.items()}
    for ph, (g, name) in by_term.items():
        roots = tuple(x for x in g.refs if x in subtree)
        obsolete = bool(_OBSOLETE.search(g.term))
        if obsolete:
            m = _ALIAS_RENAMED.search(g.definition) or _ALIAS_FOR.search(g.definition)
            if m:
                new = tuple(words(content(lemma_lists([m.group(1)])[0])))
                # An old term the current rules still use ("in play", "removed") is no
                # safe alias: only words the edition no longer uses are rewritten.
                if new and new in term_lookup and new != ph and not _phrase_rows(ph, body_l, inv):
                    aliases.append(Alias(ph, new, f"{name} → {term_lookup[new][1]} (glossary: {g.term})"))
                    continue
        if roots and ph:
            triggers.append(Trigger(ph, EvidenceKind.GLOSSARY, f"glossary “{name}” → {', '.join(roots)}", roots, weight(ph, roots)))

    heads = {r.id: r.text.strip().lower() for r in titles}
    layout_roots = {}
    for layout, word in LAYOUT_WORDS.items():
        roots = tuple(rid for rid, h in heads.items() if rid.startswith("7") and "." not in rid and h.split()[0] == word)
        roots = roots or tuple(rid for rid, h in heads.items() if rid.startswith(("701.", "702.")) and h == word)
        if roots:
            layout_roots[layout] = roots

    tix: dict[str, list[Trigger]] = {}
    for t in triggers:
        tix.setdefault(t.phrase[0], []).append(t)
    # Glossary definitions are documents too: "Last Known Information", "Intervening 'If'
    # Clause" explain in plain words what a ruling says, and point to their rule.
    g_with = [(g, tuple(x for x in g.refs if x in subtree)) for g in gloss]
    g_with = [(g, refs) for g, refs in g_with if refs and not _OBSOLETE.search(g.term)]
    g_docs = [with_bigrams(words(content(x))) for x in lemma_lists([f"{g.term}. {g.definition}" for g, _ in g_with])]
    g_docs = [[t for t in d if t in vocab] for d in g_docs]
    gloss_matrix, _ = _bm25(g_docs, vocab, k1, b, idf=idf)
    gloss_rows = []
    for _, refs in g_with:
        rows_ = [pos[x] for x in refs if x in pos] or np.concatenate([subtree[x] for x in refs]).tolist()
        gloss_rows.append(np.unique(np.array(rows_, dtype=np.int64)))
    gloss_labels = [f"glossary definition “{g.term}” → {', '.join(refs)}" for g, refs in g_with]

    # Structure, for the re-ranker: how general a rule is (its depth, how many rules sit
    # under it, whether it opens its group: 702.xa defines the keyword), and the citation
    # graph between candidates (a ruling about one rule often lands on the rule it cites).
    sent_example = np.array([j >= len(ss) - len(r.examples) for r, ss in zip(cands, sent_texts) for j in range(len(ss))],
                            dtype=bool)
    parent_row = np.array([pos.get(parent.get(rid) or "", -1) for rid in ids], dtype=np.int64)
    cites = _citations(doc, pos)
    cited_by = np.asarray(cites.sum(axis=0)).ravel()
    static = np.array([_static(r, len(subtree[r.id]), own_len[i]) + (float(cited_by[i]),) for i, r in enumerate(cands)],
                      dtype=np.float64)
    title_text = {r.id: r.text.strip() for r in titles}
    headings = []
    for rid in ids:
        p = parent.get(rid)
        while p is not None and p not in title_text:
            p = parent.get(p)
        headings.append(f"{p} {title_text[p]}" if p else "")

    return RuleIndex(edition=doc.meta.effective_date, ids=ids, texts=[r.text for r in cands], sentences=sentences,
                     sentence_texts=sent_texts,
                     matrix=matrix.tocsc(), sent_matrix=sent_matrix.tocsc(), sent_rule=sent_rule, vocab=vocab, idf=idf, pos=pos, subtree=subtree, triggers=tix, aliases=aliases,
                     layout_roots=layout_roots, gloss_matrix=gloss_matrix.tocsc(), gloss_rows=gloss_rows,
                     doc_terms=[frozenset(matrix.indices[matrix.indptr[i]:matrix.indptr[i + 1]].tolist()) for i in range(len(ids))],
                     gloss_labels=gloss_labels, all_ids=frozenset(r.id for r in rules),
                     sent_example=sent_example, parent_row=parent_row, static=static, cites=cites, headings=headings,
                     cited=cites.T.tocsr(), children_rows=(kids := _children_rows(parent_row)),
                     children_pad=_padded(kids))


#: Per-candidate facts that do not depend on the ruling (columns of ``RuleIndex.static``).
#: Whether a rule has examples is no feature: the weak queries (the rules' own examples) would
#: teach "a rule with examples is the answer".  ``length`` counts the rule's own words.
STATIC_FEATURES = ("depth", "descendants", "section", "keyword_rule", "letter", "first_letter", "length", "cited_by")


def _static(rule, n_sub: int, n_lemmas: int) -> tuple[float, ...]:
    num = rule.id.split(".")
    letter = re.sub(r"[0-9]", "", num[1]) if len(num) > 1 else ""
    return (2.0 if letter else 1.0, float(n_sub - 1), float(rule.id[0]), float(rule.id.startswith(("701.", "702."))),
            float(ord(letter) - ord("a") + 1) if letter else 0.0, float(letter == "a"), float(n_lemmas))


def _children_rows(parent_row: np.ndarray) -> list[np.ndarray]:
    kids: list[list[int]] = [[] for _ in range(len(parent_row))]
    for i, p in enumerate(parent_row.tolist()):
        if p >= 0:
            kids[p].append(i)
    return [np.array(k, dtype=np.int64) for k in kids]


def _padded(rows: list[np.ndarray]) -> np.ndarray:
    out = np.full((len(rows), max((len(r) for r in rows), default=0) or 1), -1, dtype=np.int64)
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return out


def _citations(doc: Document, pos: dict[str, int]) -> sparse.csr_matrix:
    from ..xref.extract import extract_references  # heavy: networkx comes with xref; only the citation view needs it
    from ..xref.model import RefKind  # with the line above: xref loads only for the citation view

    pairs = set()
    for ref in extract_references(doc):
        i = pos.get(ref.source)
        if i is None or ref.kind == RefKind.SECTION:
            continue
        for t in ref.targets:
            j = pos.get(t)
            if j is not None and j != i:
                pairs.add((i, j))
    n = len(pos)
    if not pairs:
        return sparse.csr_matrix((n, n))
    ii, jj = zip(*sorted(pairs))
    return sparse.csr_matrix((np.ones(len(ii)), (ii, jj)), shape=(n, n))
