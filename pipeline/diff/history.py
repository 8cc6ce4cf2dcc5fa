"""A folder of editions as one archive: rule numbers across time and each rule's lineage.

Consecutive editions are matched once (:func:`~pipeline.diff.classify.diff_documents`)
and the result -- the number map and the texts that changed -- is cached on disk under
a key made of the two files' sha256 and the matcher's version, so a second history query
reads ~100 small JSON files instead of parsing and matching 110 editions.  The pairs of the
editions the package ships are matched at release time (:mod:`.shipped`): a first query on
those editions matches nothing.

File names can lie (``2006-06-01.txt`` holds the 2004-06-01 edition): editions are
ordered by the effective date stated inside them; the file name stays the label.
Truncated editions are left out of the chain (they would make rules vanish and come back).
"""

from __future__ import annotations

import functools
import json
import os
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..collector import collector_paused
from ..editions.catalog import as_catalog
from ..editions.meta import quick_meta, read_edition
from ..codekey import code_key
from ..io import cache_root, cache_write, read_cache_json
from ..model import Document
from ..serialize import INTERNAL, to_data
from .cache import cache_key
from .text import normalize


#: Bump when the rule-text tables (``texts-<key>/<sha256>.json``) change meaning.
TEXTS_VERSION = 1


def default_cache_dir() -> Path:
    return cache_root()


@functools.lru_cache(maxsize=1)
def texts_key() -> str:
    """The code that turns an edition's bytes into its rule texts: the inventory's key (the
    readers, decoder, parser, profiles and model) and this table's version."""
    from ..inventory import inventory_key  # noqa: PLC0415 - lazy: only a table read or written needs it

    return code_key(TEXTS_VERSION, __name__, extra=[inventory_key()])


def match_rules(old: Document, new: Document, items: dict | None = None) -> dict[str, str]:
    """The matcher's rule map of two consecutive editions (only for a pair not cached yet),
    without the diff's document cache: the archive keeps its own, smaller, pair maps.
    ``items``: the matcher's items already made, by ``id`` of their document (a run of
    consecutive pairs meets each edition twice, as the new side then the old); updated."""
    from .match import document_items, match_pairs  # noqa: PLC0415 - lazy: rapidfuzz, never needed warm

    if items is None:
        return match_pairs(old, new)
    got = [items.get(id(d)) for d in (old, new)]
    got = [g[1] if g is not None and g[0] is d else document_items(d) for g, d in zip(got, (old, new))]
    items.clear()
    items[id(new)] = (new, got[1])  # the next pair's old side
    return match_pairs(old, new, *got)


@dataclass(frozen=True)
class Edition:
    label: str  # the file name's stem, e.g. "2021-04-19"
    path: Path | None  # None: in the embedded archive
    sha256: str
    effective_date: str | None  # as stated inside the document
    ref: object = None  # the pipeline.editions.EditionRef it was read from


@dataclass
class PairMap:
    """What the matcher found between two consecutive editions (the cached part).

    Only what differs from "same number, same rule" is stored, so a cached pair is a few
    kilobytes: numbers that changed, old numbers that lost their rule, new numbers that
    have no predecessor, and the texts that changed.
    """

    moved: dict[str, str]  # old number -> new number, where they differ
    removed: list[str]  # old numbers with no successor
    added: list[str]  # new numbers with no predecessor
    changed: dict[str, list[str]]  # old number -> [old text, new text] when the text changed
    _back: dict[str, str] | None = field(default=None, repr=False, metadata=INTERNAL)
    _gone: frozenset | None = field(default=None, repr=False, metadata=INTERNAL)
    _new: frozenset | None = field(default=None, repr=False, metadata=INTERNAL)

    def forward(self, old_id: str) -> str | None:
        """The number in the newer edition of ``old_id`` (which must exist in the older one)."""
        if self._gone is None:
            self._gone = frozenset(self.removed)
        if old_id in self._gone:
            return None
        return self.moved.get(old_id, old_id)

    def backward(self, new_id: str) -> str | None:
        if self._back is None:
            self._back = {n: o for o, n in self.moved.items()}
            self._new = frozenset(self.added)
        if new_id in self._back:
            return self._back[new_id]
        return None if new_id in self._new else new_id

    def backward_all(self, new_ids) -> set[str]:
        """:meth:`backward` of every id that has a predecessor: one pass where a walk back
        through 108 pairs maps every number of an edition (``show`` of an old number)."""
        self.backward("")  # the tables
        back, new = self._back, self._new
        return {back.get(n, n) for n in new_ids if n in back or n not in new}

    def to_dict(self) -> dict:
        return to_data(self)


@dataclass
class Lineage:
    """One rule through the archive.

    ``spans``: consecutive editions under one number ({number, first, last}, labels).
    ``text_changes``: every edition where its text changed ({edition, effective_date,
    number, old_text, new_text, word_diff}).  ``appeared``/``disappeared``: the first
    edition that has it / the first that no longer has it (None: present at the archive's
    start / still present at its end).
    """

    rule: str
    edition: str
    spans: list[dict] = field(default_factory=list)
    text_changes: list[dict] = field(default_factory=list)
    appeared: str | None = None
    disappeared: str | None = None
    first_text: str | None = None
    numbers: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return to_data(self)


class EditionArchive:
    """The editions in ``directory`` (``*.txt``), in effective-date order."""

    def __init__(self, directory, cache_dir: str | Path | None = None, memory: int = 3, shipped: bool = True):
        # A folder (``--editions DIR``), or a Catalog: mirror + cache + the embedded archive.
        self.catalog = as_catalog(directory)
        #: Take the pair maps shipped with the package (:mod:`.shipped`) for the archive's editions.
        self.shipped = shipped
        self.dir = self.catalog.folder or self.catalog.mirror or Path(self.catalog.label)
        self.cache_dir_base = str(Path(cache_dir) if cache_dir else default_cache_dir())
        self.cache_dir = Path(self.cache_dir_base) / f"diff-{cache_key()}"
        self._docs: OrderedDict[str, Document] = OrderedDict()
        self._memory = max(2, memory)
        self._pairs: dict[int, PairMap] = {}
        self._items: dict = {}  # see match_rules
        self.skipped: list[dict] = []  # {file, reason}
        self.editions: list[Edition] = self._scan()
        if len(self.editions) < 1:
            raise InputError("no readable Comprehensive Rules edition (*.txt) in this folder", self.dir)
        self._by_label = {e.label: i for i, e in enumerate(self.editions)}
        self._by_date = {e.effective_date: i for i, e in enumerate(self.editions) if e.effective_date}

    # -- the editions ---------------------------------------------------------------------
    def _scan(self) -> list[Edition]:
        found: list[Edition] = []
        self.skipped += [{"file": Path(s["file"]).name, "reason": s["reason"]} for s in self.catalog.skipped]
        self.skipped += [{"file": r.name, "reason": "same bytes as another edition"}
                         for r in self.catalog.shadowed if r.source != "embedded" and self.catalog.folder is not None]
        for r in self.catalog.editions:
            if r.truncated:
                self.skipped.append({"file": r.name, "reason": "truncated edition"})
            else:
                found.append(Edition(r.stem, r.path, r.sha256, r.date, r))
        return sorted(found, key=lambda e: (e.effective_date or e.label, e.label))

    def dates(self) -> list[str]:
        """Edition labels (file dates) in effective-date order."""
        return [e.label for e in self.editions]

    def index(self, date: str) -> int:
        """Position of an edition given by its label (file date) or its stated effective date."""
        if date in self._by_label:
            return self._by_label[date]
        if date in self._by_date:
            return self._by_date[date]
        raise InputError(f"no edition {date} in this archive (have {self.editions[0].label} … {self.editions[-1].label})", self.dir)

    def _remember(self, sha: str, doc: Document) -> None:
        self._docs[sha] = doc
        self._docs.move_to_end(sha)
        while len(self._docs) > self._memory:
            self._docs.popitem(last=False)

    def load(self, date: str) -> Document:
        e = self.editions[self.index(date)]
        doc = self._docs.get(e.sha256)
        if doc is None:
            doc = e.ref.parse()
            if e.path is not None:
                doc.meta.source_file = str(e.path)
            self._remember(e.sha256, doc)
        else:
            self._docs.move_to_end(e.sha256)
        return doc

    def texts(self, i: int) -> dict[str, str]:
        """Rule number -> text of edition ``i`` (the first rule of a number, as
        :meth:`Document.rule`): from memory, else from the cache (by sha256 and the parser's
        code), else parsed and stored, so a warm lineage parses nothing."""
        e = self.editions[i]
        doc = self._docs.get(e.sha256)
        if doc is not None:
            return {r.id: r.text for r in reversed(doc.rules)}
        path = Path(self.cache_dir_base) / f"texts-{texts_key()}" / f"{e.sha256}.json"
        table = read_cache_json(path)
        if isinstance(table, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in table.items()):
            return table
        doc = self.load(e.label)
        table = {r.id: r.text for r in reversed(doc.rules)}
        cache_write(path, json.dumps(table, ensure_ascii=False, sort_keys=True, separators=(",", ":")))
        return table

    # -- consecutive pairs ------------------------------------------------------------------
    def _pair_path(self, i: int) -> Path:
        a, b = self.editions[i], self.editions[i + 1]
        return self.cache_dir / "pairs" / f"{a.sha256}-{b.sha256}.json"

    def _shipped(self, i: int) -> dict | None:
        """The shipped map of pair ``i`` (both editions the package's own), or None."""
        if not self.shipped:
            return None
        from .shipped import shipped_pair  # noqa: PLC0415 - read only when a pair is not cached

        return shipped_pair(self.editions[i].sha256, self.editions[i + 1].sha256)

    def match_pair(self, i: int) -> PairMap:
        """Edition ``i`` and ``i + 1`` matched now (no cache, nothing shipped)."""
        a, b = self.editions[i], self.editions[i + 1]
        old, new = self.load(a.label), self.load(b.label)
        pairs = match_rules(old, new, self._items)
        changed = {}
        O, N = {r.id: r for r in old.rules}, {r.id: r for r in new.rules}
        for o, n in pairs.items():
            ta, tb = O[o].text, N[n].text
            if ta != tb and normalize(ta) != normalize(tb):
                changed[o] = [ta, tb]
        matched_new = set(pairs.values())
        return PairMap({o: n for o, n in pairs.items() if o != n},
                       [r.id for r in old.rules if r.id not in pairs],
                       [r.id for r in new.rules if r.id not in matched_new], changed)

    def shipped_pair(self, i: int) -> PairMap | None:
        """The shipped map of pair ``i`` when there is one, read from memory, the cache or the
        package, but not written to the cache (a walk over all 108 pairs that stops at the
        first answer, such as a number no edition ever held, should not leave 108 files)."""
        pm = self._pairs.get(i)
        if pm is not None:
            return pm
        data = _read_json(self._pair_path(i))
        if data is not None:
            pm = PairMap(data["moved"], data["removed"], data["added"], data["changed"])
        else:
            got = self._shipped(i)
            pm = PairMap(got["moved"], got["removed"], got["added"], got["changed"]) if got else None
        if pm is not None:
            self._pairs[i] = pm
        return pm

    def pair(self, i: int) -> PairMap:
        """The match between edition ``i`` and ``i + 1``: from memory, the cache, the maps
        shipped with the package, else matched now; cached either way."""
        pm = self._pairs.get(i)
        if pm is not None:
            return pm
        path = self._pair_path(i)
        data = _read_json(path)
        if data is None:
            a, b = self.editions[i], self.editions[i + 1]
            got = self._shipped(i)
            pm = PairMap(got["moved"], got["removed"], got["added"], got["changed"]) if got else self.match_pair(i)
            # Shipped maps are cached too: a warm run reads its few pairs, not the whole file.
            # Compact (the C encoder): a first 'show' of an old number writes all 108 pairs.
            cache_write(path, json.dumps({"old": a.sha256, "new": b.sha256, **pm.to_dict()}, ensure_ascii=False,
                                         sort_keys=True, separators=(",", ":")))
        else:
            pm = PairMap(data["moved"], data["removed"], data["added"], data["changed"])
        self._pairs[i] = pm
        return pm

    def missing(self) -> list[int]:
        """Consecutive pairs not matched yet (neither in memory nor in the cache)."""
        return [i for i in range(len(self.editions) - 1) if i not in self._pairs and not self._pair_path(i).is_file()]

    def precompute(self, progress=None, workers: int | None = None) -> int:
        """Match every consecutive pair not cached yet; returns how many were matched.

        Pairs are independent, so a cold archive is split into contiguous runs matched in
        ``workers`` processes (default: up to 2, the cores this is meant to run on); each
        run parses each of its editions once.  Results travel through the cache folder.
        """
        todo = self.missing()
        total = len(self.editions) - 1
        workers = min(2, os.cpu_count() or 1) if workers is None else workers
        match = [i for i in todo if self._shipped(i) is None]  # the pairs that need matching
        if workers > 1 and len(match) >= 8:
            chunks = [match[len(match) * w // workers: len(match) * (w + 1) // workers] for w in range(workers)]
            jobs = [(self.catalog, self.cache_dir_base, c, self.shipped) for c in chunks if c]
            from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415 - lazy: only a cold archive (multiprocessing)

            with ProcessPoolExecutor(max_workers=len(jobs)) as pool:
                for _ in pool.map(_match_run, jobs):
                    pass
        for i in range(total):
            self.pair(i)
            if progress:
                progress(i + 1, total)
        return len(todo)

    # -- queries ------------------------------------------------------------------------------
    def map_number(self, rule_id: str, from_date: str, to_date: str) -> str | None:
        """The number ``rule_id`` of edition ``from_date`` has in ``to_date`` (None: it is gone).

        Composes the consecutive matches, forwards or backwards in time.
        """
        i, j = self.index(from_date), self.index(to_date)
        cur: str | None = rule_id
        if i <= j:
            for k in range(i, j):
                cur = self.pair(k).forward(cur)
                if cur is None:
                    return None
        else:
            for k in range(i - 1, j - 1, -1):
                cur = self.pair(k).backward(cur)
                if cur is None:
                    return None
        return cur

    def follow(self, rule_id: str, text: str, steps: range, versions: dict[int, tuple[str, str]], *,
                forward: bool) -> str | None:
        """Follow a rule through the consecutive pairs ``steps`` (edition i -> i + 1), forwards or
        backwards, recording its number and text per edition in ``versions``.  Returns the label
        of the edition where the trail ends (the rule appears or disappears there), else None."""
        cur = rule_id
        for i in steps:
            pm = self.pair(i)
            nxt = pm.forward(cur) if forward else pm.backward(cur)
            if nxt is None:
                return self.editions[i + 1].label
            old = cur if forward else nxt  # the pair's old-side number
            if old in pm.changed:
                text = pm.changed[old][1 if forward else 0]
            cur = nxt
            versions[i + 1 if forward else i] = (cur, text)
        return None

    def lineage(self, rule_id: str, date: str | None = None, word_diffs: bool = True) -> Lineage:
        """The numbers and texts of ``rule_id`` (as numbered in ``date``, default the latest).
        ``word_diffs=False`` leaves each text change's ``word_diff`` None (a one-line summary
        needs none)."""
        k = self.index(date) if date else len(self.editions) - 1
        if len(self.missing()) >= 8:
            self.precompute()
        text = self.texts(k).get(rule_id)
        if text is None:
            raise InputError(f"no rule {rule_id} in edition {self.editions[k].label}", self.editions[k].ref.where)
        E = self.editions
        # versions[i] = (number, text) for every edition the rule is in
        versions: dict[int, tuple[str, str]] = {k: (rule_id, text)}
        lin = Lineage(rule_id, E[k].label)
        lin.appeared = self.follow(rule_id, text, range(k - 1, -1, -1), versions, forward=False)
        lin.disappeared = self.follow(rule_id, text, range(k, len(E) - 1), versions, forward=True)
        if word_diffs:
            from .worddiff import word_diff  # noqa: PLC0415 - lazy: rapidfuzz, for full lineages only
        idx = sorted(versions)
        lin.first_text = versions[idx[0]][1]
        for a, b in zip([None] + idx, idx):
            num, txt = versions[b]
            if a is None or versions[a][0] != num:
                lin.spans.append({"number": num, "first": E[b].label, "last": E[b].label,
                                  "first_effective": E[b].effective_date, "last_effective": E[b].effective_date})
            else:
                lin.spans[-1]["last"] = E[b].label
                lin.spans[-1]["last_effective"] = E[b].effective_date
            if a is not None and normalize(versions[a][1]) != normalize(txt):
                lin.text_changes.append({"edition": E[b].label, "effective_date": E[b].effective_date,
                                         "number": num, "old_text": versions[a][1], "new_text": txt,
                                         "word_diff": word_diff(versions[a][1], txt) if word_diffs else None})
        lin.numbers = list(dict.fromkeys(s["number"] for s in lin.spans))
        return lin


def _match_run(job) -> int:
    """Worker: match a contiguous run of consecutive pairs into the cache (see precompute)."""
    folder, cache_dir, indices, shipped = job
    # A worker lives for one run and makes no reference cycles worth collecting (parsed
    # editions and match tables are trees), while the cycle collector would walk every
    # object it allocates again and again: off for the run.
    with collector_paused():
        arch = EditionArchive(folder, cache_dir=cache_dir, memory=2, shipped=shipped)
        for i in indices:
            arch.pair(i)
    return len(indices)


def _quick_meta(path: Path, data: bytes | None = None) -> dict:
    """:func:`pipeline.editions.meta.quick_meta` of a file (read through the bounded reader
    unless its bytes are given), or ``{"error": why}`` when it cannot be read."""
    if data is None:
        data, why = read_edition(path)
        if data is None:
            return {"error": why}
    return quick_meta(data)


_read_json = read_cache_json
