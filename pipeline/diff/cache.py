"""The keys of the diff caches: one folder per version of the matching code, one entry per
pair of documents (history: per pair of files, by sha256; ``diff``: by content)."""

from __future__ import annotations

import functools
import hashlib

from ..codekey import code_key
from ..model import Document

#: Bump when matching changes: cached matches are keyed by it (with the code's own bytes).
MATCHER_VERSION = "m6"


@functools.lru_cache(maxsize=1)
def cache_key() -> str:
    """The matcher's version and the code that reads editions and matches them (with all the
    modules it imports: the model, the text normaliser, …)."""
    return code_key(MATCHER_VERSION, ("pipeline.diff.match", "pipeline.diff.classify", "pipeline.segment.official"))


def content_key(doc: Document) -> str:
    """A hash of what a diff reads from ``doc``: rule numbers, levels, parents and texts,
    examples and the glossary (not its file name or layout)."""
    h = hashlib.sha256()
    for r in doc.rules:
        h.update(f"\x1e{r.id}\x1f{r.level}\x1f{r.parent}\x1f{r.text}".encode())
        for e in r.examples:
            h.update(f"\x1d{e.text}".encode())
    for g in doc.glossary:
        h.update(f"\x1c{g.term}\x1f{g.definition}".encode())
    return h.hexdigest()[:24]
