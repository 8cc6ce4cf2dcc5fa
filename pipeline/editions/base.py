"""Which English edition a document is based on.

A document that states its effective date ("These rules are effective as of …", "Essas
regras são válidas na data de …", "Estas reglas son válidas desde el …") is that
edition.  Otherwise :func:`infer_base_edition` compares what the document holds with
every English edition of a folder and reports the *range* of editions consistent with
it, the evidence, and how sure it is.  What it compares of an edition (its *facts*: per rule,
the rules it cites, its symbols, its heading) is worked out from the edition's one inventory
(:mod:`pipeline.inventory`, the parsed document ``show`` and ``diff`` read too) and cached beside it.
"""

from __future__ import annotations

import codecs
import functools
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path


from ..errors import InputError
from ..codekey import code_key
from ..inventory import cached_document
from ..io import cache_root, cache_write, read_bounded, read_cache_json
from ..model import BaseMethod, Document, EditionRange, FactCounts
from ..profiles import PROFILES
from ..profiles.dates import declared_date  # noqa: F401  (re-exported: the edition API)
from ..rulenum import sort_ids
from ..text import fold, is_heading as _is_heading
from ..segment.official import DATE_RE as STATED_DATE, _iso, parse_file


def declared_edition(doc: Document) -> EditionRange | None:
    """The base edition of a document that states its effective date, else None."""
    d = doc.meta.effective_date
    if not d:
        return None
    said = doc.meta.effective_date_text or d
    return EditionRange(first=d, last=d, declared=d, editions=[d], confidence=1.0,
                        evidence=[f"the document declares its effective date: {said!r}"], method=BaseMethod.DECLARED)


# -- inference from a folder of English editions ------------------------------------------

DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
SYMBOL = re.compile(r"\{[^{}\s]{1,6}\}")
#: Version of the facts' layout; bump to invalidate disk caches.
FACTS_VERSION = 1
_MEMO: dict[tuple, dict] = {}


def _cache_dir() -> Path:
    return cache_root() / "edition-facts"


def rule_refs(text: str, lang: str | None) -> list[str]:
    """Rule numbers ``text`` cites (references, not rule starts), sorted, unique."""
    from ..segment.paste import CandidateKind, find_candidates, merged_profile  # lazy: a document that states its date needs no inventory (crpipe parse start-up)

    prof = PROFILES.get(lang or "") or merged_profile()
    return sort_ids({str(c.number) for c in find_candidates(text, prof) if c.kind == CandidateKind.REF})


@functools.lru_cache(maxsize=1 << 15)
def _text_facts(full: str, lang: str | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    # Most rules read the same in edition after edition: the inventories of 110 editions
    # find the references of ~30k distinct texts, not of 330k rules.
    return tuple(rule_refs(full, lang)), tuple(sorted(set(SYMBOL.findall(full))))


def _rule_facts(rule, lang: str | None) -> dict:
    refs, symbols = _text_facts(" ".join([rule.text] + [e.text for e in rule.examples]), lang)
    return {"refs": list(refs), "symbols": list(symbols),
            "head": rule.text if _is_heading(rule.text) else None, "text": rule.text}


@functools.lru_cache(maxsize=1)
def _code_version() -> str:
    """Changes whenever the code that works out the facts changes (the inventory's included), so
    stale caches are not read."""
    return code_key(FACTS_VERSION, __name__)


def _document(edition) -> Document:
    """An edition's document as its inventory holds it (parsed and stored when not cached yet)."""
    if isinstance(edition, Path):
        return cached_document(hashlib.sha256(read_bounded(edition)).hexdigest(), edition.name, "official",
                               lambda: parse_file(edition))
    return cached_document(edition.sha256, edition.name, "official", edition.parse)


def edition_facts(path) -> dict:
    """What one English edition holds, for comparison: rule ids and, per rule, the rules it
    cites, its mana symbols, its heading.  ``path``: a file, or a
    :class:`pipeline.editions.EditionRef` (an embedded edition).  Cached in memory and on
    disk (by file name, size, modification time -- or sha256 -- and the code's version)."""
    return _facts_of(path, remember=True)


def _facts_of(path, remember: bool) -> dict:
    """:func:`edition_facts`; kept in memory only when ``remember`` (the facts of 110 editions
    take ~400 MB as Python objects: inference reads them one at a time)."""
    edition = path
    if not isinstance(path, Path) and getattr(path, "path", None) is None:  # embedded: no file
        key = (path.sha256, FACTS_VERSION)
        cache = _cache_dir() / f"{path.stem}-{path.sha256[:16]}-{_code_version()}.json"
    else:
        path = Path(getattr(path, "path", None) or path)
        st = path.stat()
        key = (str(path.resolve()), st.st_size, st.st_mtime_ns, FACTS_VERSION)
        cache = _cache_dir() / f"{path.stem}-{st.st_size}-{st.st_mtime_ns}-{_code_version()}.json"
    if key in _MEMO:
        return _MEMO[key]
    inv = None
    if cache.is_file():
        inv = read_cache_json(cache)
    if inv is None:
        doc = _document(edition)
        inv = {"edition": path.stem, "effective": doc.meta.effective_date,
               "rules": {r.id: _rule_facts(r, "en") for r in doc.rules}}
        # Compact (one line, the C encoder): 110 of them are written on a first run.
        if cache_write(cache, json.dumps(inv, ensure_ascii=False, sort_keys=True, separators=(",", ":"))):  # a read-only cache: the memory cache still serves this process
            try:
                for old in cache.parent.glob(f"{path.stem}-*.json"):
                    if old != cache and old.name.count("-") == cache.name.count("-"):
                        old.unlink(missing_ok=True)  # an older version of the file or of the code
            except OSError:
                pass
    if remember:
        _MEMO[key] = inv
    return inv


#: Bytes of an edition's head read for its stated date: the sentence sits in the first 100
#: characters of every edition of the archive; the rest of the head is margin.
_HEAD_BYTES = 8192
#: Longer than any match of the date pattern ("effective as of September 30, 2025").
_DATE_MARGIN = 64


def _stated_date(path: Path) -> str | None:
    """The effective date the head of an edition file states, when the head alone settles it
    (else None, and the caller reads the whole edition).  The pattern matches ASCII only, so
    reading non-UTF-8 bytes as U+FFFD changes no match; a match well before the cut is
    the first one of the whole text, exactly as the parser finds it."""
    head = read_bounded(path, limit=_HEAD_BYTES, truncate=True)
    for bom, codec, unit in ((codecs.BOM_UTF32_LE, "utf-32-le", 4), (codecs.BOM_UTF32_BE, "utf-32-be", 4),
                             (codecs.BOM_UTF16_LE, "utf-16-le", 2), (codecs.BOM_UTF16_BE, "utf-16-be", 2),
                             (codecs.BOM_UTF8, "utf-8", 1)):
        if head.startswith(bom):
            body = head[len(bom):]
            break
    else:
        if b"\x00" in head:
            return None  # UTF-16 without a BOM: let the decoder tell
        codec, unit, body = "utf-8", 1, head
    text = body[: len(body) - len(body) % unit].decode(codec, errors="replace")
    m = STATED_DATE.search(text)
    if m is None or not m.group(0).isascii() or m.end() > len(text) - _DATE_MARGIN:
        return None
    try:
        return _iso(m.group("date"))
    except ValueError:
        return None


def _effective(path) -> str | None:
    """An edition's effective date: from its head when that settles it, else its facts
    (which loads a large cache file or parses the edition: 110 of them took 2 s)."""
    if isinstance(path, Path):
        st = path.stat()
        key = ("date", str(path.resolve()), st.st_size, st.st_mtime_ns)
        if key not in _MEMO:
            _MEMO[key] = {"effective": _stated_date(path)}
        if _MEMO[key]["effective"] is not None:
            return _MEMO[key]["effective"]
    return edition_facts(path).get("effective")


def edition_files(editions_dir) -> list:
    """The editions of a folder (paths), or of a :class:`pipeline.editions.Catalog` (refs)."""
    if not isinstance(editions_dir, (str, os.PathLike)):  # a folder needs no catalog module (crpipe parse start-up)
        from .catalog import Catalog  # deferred: as above

        if isinstance(editions_dir, Catalog):
            return [r for r in editions_dir.editions if DATE_RE.fullmatch(r.stem) and not r.truncated] or \
                [r for r in editions_dir.editions if not r.truncated]
    d = Path(editions_dir)
    files = sorted(p for p in d.glob("*.txt") if re.fullmatch(r"\d{4}-\d{2}-\d{2}", p.stem))
    if not files:
        raise InputError("no English editions (YYYY-MM-DD.txt) in this folder", d)
    return files


@dataclass
class Fact:
    """One checkable statement about the document, and the editions where it holds."""

    text: str
    weight: float
    holds: list[bool] = field(default_factory=list)


def _name_match(a: str, b: str) -> bool:
    from rapidfuzz import fuzz  # lazy: a document that states its date never needs it

    fa, fb = fold(a), fold(b)
    if not fa or not fb:
        return False
    n = min(len(fa), len(fb))
    return fuzz.ratio(fa, fb) >= 75 or (n >= 5 and (fa.startswith(fb[:n]) or fb.startswith(fa[:n])))


def _facts(doc: Document, invs: Iterable[dict]) -> tuple[list[Fact], list[str]]:
    """The document's facts, each with where it holds in ``invs`` (read one at a time: an
    edition's inventory is dropped before the next is read), and the editions' names."""
    from rapidfuzz import fuzz  # lazy: a document that states its date never needs it
    lang = doc.meta.language if doc.meta.language in PROFILES else None
    official = lang is not None and PROFILES[lang].official
    # (fact, the rule it is about, its test on that rule's entry in an edition's inventory)
    tests: list[tuple[Fact, str, Callable[[dict | None], bool]]] = []
    for r in doc.rules:
        rid = r.id
        mine = _rule_facts(r, lang)
        tests.append((Fact(f"rule {rid} exists", 1.0), rid, lambda g: g is not None))
        for ref in mine["refs"]:
            tests.append((Fact(f"rule {rid} cites {ref}", 1.0), rid,
                          lambda g, ref=ref: g is not None and ref in g["refs"]))
        for sym in mine["symbols"]:
            tests.append((Fact(f"rule {rid} holds the symbol {sym}", 1.0), rid,
                          lambda g, sym=sym: g is not None and sym in g["symbols"]))
        if mine["head"]:
            tests.append((Fact(f"rule {rid} is named {mine['head']!r}", 2.0), rid,
                          lambda g, head=mine["head"]: g is not None and bool(g["head"]) and _name_match(head, g["head"])))
        if official and not mine["head"] and len(r.text) > 20:
            tests.append((Fact(f"rule {rid} has this text", 2.0), rid,
                          lambda g, text=r.text: g is not None and fuzz.ratio(text, g["text"]) >= 90))
    names = []
    for inv in invs:
        names.append(inv["edition"])
        rules = inv["rules"]
        for fact, rid, test in tests:
            fact.holds.append(test(rules.get(rid)))
    return [fact for fact, _, _ in tests], names


def _ranges(flags: list[bool], names: list[str]) -> list[tuple[str, str]]:
    out, start = [], None
    for i, f in enumerate(flags + [False]):
        if f and start is None:
            start = i
        elif not f and start is not None:
            out.append((names[start], names[i - 1]))
            start = None
    return out


def _fmt_ranges(rs: list[tuple[str, str]]) -> str:
    return ", ".join(a if a == b else f"{a} … {b}" for a, b in rs) or "no edition"


def infer_base_edition(doc: Document, editions_dir: str | Path) -> EditionRange:
    """The range of English editions (by file date) consistent with ``doc``.

    A document that states its effective date gets that edition (``method: declared``).
    Facts: which rule numbers exist, the rules each rule cites, the mana symbols in it,
    keyword names at their numbers (compared across languages by spelling similarity)
    and, for English documents, the rule text itself.  A fact that holds in no edition
    (a translation's own wording) is set aside and listed; the editions that break the
    least weight of the remaining facts are the result.
    """
    files = edition_files(editions_dir)
    declared = doc.meta.effective_date
    if declared:
        # A stated date wins; name the folder's edition(s) of that date (file names can lie,
        # so the inventory's own effective date counts too).
        out = declared_edition(doc)
        out.editions = [p.stem for p in files if p.stem == declared or _effective(p) == declared] or [declared]
        out.first, out.last = out.editions[0], out.editions[-1]
        return out
    facts, names = _facts(doc, (_facts_of(p, remember=False) for p in files))
    usable = [f for f in facts if any(f.holds)]
    unusable = [f for f in facts if not any(f.holds)]
    if not usable:
        return EditionRange(first=None, last=None, declared=declared, editions=[], confidence=0.0,
                            evidence=["no fact of the document holds in any edition of the folder"] +
                                     [f"set aside: {f.text}" for f in unusable[:10]], method=BaseMethod.INVENTORY)
    broken = [sum(f.weight for f in usable if not f.holds[i]) for i in range(len(names))]
    best = min(broken)
    chosen = [b == best for b in broken]
    total = sum(f.weight for f in usable)
    picked = [n for n, c in zip(names, chosen) if c]
    evidence: list[str] = []
    # The facts that separate editions, most selective first: they bound the range.
    separating = [f for f in usable if not all(f.holds)]
    separating.sort(key=lambda f: (sum(f.holds), f.text))
    for f in separating:
        if all(f.holds[i] for i, c in enumerate(chosen) if c):
            evidence.append(f"{f.text}: true in {_fmt_ranges(_ranges(f.holds, names))}")
    for f in separating:
        if not all(f.holds[i] for i, c in enumerate(chosen) if c):
            evidence.append(f"contradicted in the chosen editions: {f.text} (true in {_fmt_ranges(_ranges(f.holds, names))})")
    for f in unusable:
        evidence.append(f"set aside (true in no edition): {f.text}")
    runs = _ranges(chosen, names)
    if len(runs) > 1:
        evidence.append(f"the consistent editions are not contiguous: {_fmt_ranges(runs)}")
    # Sure when many facts agree, none is broken, and they bound the range on both sides.
    agree = 1.0 - best / total
    bounded = len(separating) > 0
    confidence = round(agree * (1.0 if bounded else 0.5) * min(1.0, len(usable) / 5), 2)
    return EditionRange(first=picked[0], last=picked[-1], declared=declared, editions=picked, evidence=evidence,
                        confidence=confidence, method=BaseMethod.INVENTORY,
                        facts=FactCounts(used=len(usable), set_aside=len(unusable), broken_in_chosen=best))
