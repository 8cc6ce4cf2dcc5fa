"""Links remembered: a ruling linked once against an edition is not ranked again.

Judges link the same set file again and again (another ``--json``, an ``--html`` page, a
set file grown by a few rulings, the build after a change elsewhere).  Ranking is most of a
link's time (LightGBM over each ruling's pool and its SHAP explanations, the index built
from the edition), yet a ruling's candidates depend only on

* the edition (its source bytes) and the code that reads and ranks it,
* the shipped ranker, its calibration and the renumbering archive its prior is carried by,
* the ruling's own inputs: its text, its card's name and layout, and its card's context
  (the card's rules text and all its rulings in the file: :func:`linker.card_contexts`),
* ``top`` and ``explain``.

Ranking is row by row (a sparse product's row, LightGBM's prediction of a row), so a ruling
ranked alone gives the same floats as in a batch: a hit is byte-for-byte what linking would
write.  The semantic view is left out: its encoder pads a batch to its longest text, which
moves the last bits of a cosine with the batch, so it always links afresh.

One marshal file per (edition, code, model, settings) under the cache, each entry a
ruling's key and its candidates as plain tuples; the oldest entries go past
:data:`MAX_ENTRIES`.  A damaged or unreadable file is read as empty (a cache only saves time).
"""

from __future__ import annotations

import functools
import hashlib
import marshal
from collections.abc import Callable
from pathlib import Path

from ..codekey import code_key, package_version
from ..io import cache_root, cache_write, read_cache_marshal
from ..model import Document
from ..rulings.model import Ruling
from .results import Candidate, Evidence, EvidenceKind

#: Layout of a memo file; bump when it changes.
MEMO_VERSION = 1
#: Entries kept per file (about 0.6 KB each): the rulings of every set Wizards has printed fit.
MAX_ENTRIES = 60_000
#: The entry holding the ranker's note on how its prior reached this edition.
_NOTE = ""

_DATA = Path(__file__).resolve().parents[1] / "data"


@functools.lru_cache(maxsize=1)
def _code() -> str:
    """The linking code (index, views, ranker, renumbering, the edition's parser) and the files
    it ranks with (the shipped models, calibrations, the embedded editions it renumbers by)."""
    data = sorted(p for p in _DATA.glob("link-*") if p.is_file())
    data += sorted(p for p in (_DATA / "editions").rglob("*") if p.is_file())
    return code_key(MEMO_VERSION, ("pipeline.link.linker", "pipeline.link.rerank", "pipeline.link.index",
                                   "pipeline.link.renumber", "pipeline.ingest.loader"),
                    data=data, extra=[package_version("lightgbm"), package_version("numpy"),
                                      package_version("scipy"), package_version("rapidfuzz")])


def _ruling_key(text: str, layout: str | None, card: str | None, context: str | None) -> str:
    h = hashlib.sha256()
    for part in (text, layout or "", card or "", context or ""):
        b = part.encode("utf-8", "surrogatepass")
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()[:32]


def _pack(c: Candidate) -> tuple:
    """Plain Python values: marshal writes a NumPy scalar as its raw buffer (read back as bytes)."""
    return (c.rule, float(c.score), None if c.confidence is None else float(c.confidence),
            None if c.confident is None else bool(c.confident),
            tuple((e.kind.value, e.detail, float(e.score)) for e in c.evidence))


def _unpack(t: tuple) -> Candidate:
    rule, score, confidence, confident, ev = t
    return Candidate(rule, score, [Evidence(EvidenceKind(k), d, s) for k, d, s in ev], confidence, confident)


class LinkMemo:
    """The remembered links of one edition, code and settings."""

    def __init__(self, doc: Document, top: int, explain: int):
        edition = doc.meta.sha256 or hashlib.sha256(
            "\n".join(f"{r.id}\t{r.text}\t{r.example_texts}" for r in doc.rules).encode("utf-8", "surrogatepass")).hexdigest()
        key = hashlib.sha256(f"{_code()}|{edition}|{top}|{explain}".encode()).hexdigest()[:24]
        self.path = cache_root() / "link-memo" / f"{key}.marshal"
        self.table = self._read()
        self.added = False

    def _read(self) -> dict:
        table = read_cache_marshal(self.path)
        return table if isinstance(table, dict) else {}

    def get(self, key: str) -> list[Candidate] | None:
        hit = self.table.get(key)
        try:
            return [_unpack(t) for t in hit] if hit is not None else None
        except (TypeError, ValueError):  # a damaged entry: link it again
            return None

    def put(self, key: str, cands: list[Candidate]) -> None:
        self.table[key] = tuple(_pack(c) for c in cands)
        self.added = True

    @property
    def note(self) -> str | None:
        n = self.table.get(_NOTE)
        return n if isinstance(n, str) else None

    @note.setter
    def note(self, value: str | None) -> None:
        if value != self.table.get(_NOTE):
            self.table[_NOTE] = value
            self.added = True

    def save(self) -> None:
        if not self.added:
            return
        if len(self.table) > MAX_ENTRIES + 1:  # the oldest go first (insertion order); the note stays
            note = self.table.pop(_NOTE, None)
            self.table = dict(list(self.table.items())[-MAX_ENTRIES:])
            self.table[_NOTE] = note
        cache_write(self.path, marshal.dumps(self.table))
        self.added = False


def link_remembered(rulings: list[Ruling], doc: Document, make_linker: Callable[[], object], top: int = 5,
                    explain: int = 1) -> tuple[list[list[Candidate]], str | None]:
    """Each ruling's candidates (as ``Linker.link`` ranks them) and the ranker's note on its
    prior, ranking only the rulings not linked before; ``make_linker`` is called only then."""
    from .linker import card_contexts  # lazy: the linker (NumPy, SciPy, rapidfuzz) loads only on a miss

    memo = LinkMemo(doc, top, explain)
    contexts = card_contexts(rulings)
    keys = [_ruling_key(r.text, r.card.layout if r.card else None, r.card.name if r.card else None, ctx)
            for r, ctx in zip(rulings, contexts)]
    out: list[list[Candidate] | None] = [memo.get(k) for k in keys]
    missing = list(dict.fromkeys(k for k, c in zip(keys, out) if c is None))
    if missing or _NOTE not in memo.table:
        linker = make_linker()
        first = {k: i for i, k in reversed(list(enumerate(keys)))}
        todo = [first[k] for k in missing]
        ranked = linker.link_texts([rulings[i].text for i in todo],
                                   [rulings[i].card.layout if rulings[i].card else None for i in todo], top,
                                   [rulings[i].card.name if rulings[i].card else None for i in todo],
                                   [contexts[i] for i in todo], explain) if todo else []
        for k, cands in zip(missing, ranked):
            memo.put(k, cands)
        memo.note = getattr(linker.ranker, "carry_note", None)
        memo.save()
        out = [memo.get(k) for k in keys]
    return [c if c is not None else [] for c in out], memo.note
