"""The plain baseline the linker is measured against: BM25 (bm25s) over rule texts.

No lemmas, no headings, no glossary: each rule's own text, English stopwords removed.
bm25s is a test/benchmark dependency (the ``test`` extra), imported only here.
"""

from __future__ import annotations

from ..model import Document


class BM25Baseline:
    def __init__(self, doc: Document):
        import bm25s  # heavy: the BM25 index loads only when rulings are linked

        self._bm25s = bm25s
        self.ids = [r.id for r in doc.rules]
        self.model = bm25s.BM25()
        self.model.index(bm25s.tokenize([r.text for r in doc.rules], stopwords="en", show_progress=False),
                         show_progress=False)

    def rank(self, texts: list[str], k: int = 20) -> list[list[str]]:
        toks = self._bm25s.tokenize(texts, stopwords="en", show_progress=False)
        docs, _ = self.model.retrieve(toks, k=k, show_progress=False, n_threads=1)
        return [[self.ids[int(i)] for i in row] for row in docs]
