"""An edition's inventory: the parsed document without its layout, as plain lists, cached
on disk by the content of the file it came from.

What ``diff`` compares and what ``show`` prints is the rules (numbers, levels, parents,
children, order, texts, examples), the section titles, the glossary and a few facts of the
metadata; an inventory holds exactly that, so a warm command reads one JSON file instead of
decoding and parsing the edition.  Entries are named by the file's sha256, its name (an
edition that states no date is dated by its file name), how it was read (the official
parser, or the loader with a language) and the code that reads editions; each is checked
field by field when read, and a damaged or foreign entry is ignored and rebuilt.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Callable

from .codekey import code_key
from .io import cache_root, cache_write, read_cache_json
from .model import Document, Example, Finding, GlossaryEntry, Meta, Rule, Section

#: Bump when the inventory's layout or the meaning of its fields changes.
INVENTORY_VERSION = 1
SCHEMA = "crpipe-inventory/1"
_META = ("language", "effective_date", "source_name", "sha256", "kind", "format")


@functools.lru_cache(maxsize=1)
def inventory_key() -> str:
    """The code that turns a file into a document (the official parser, the loader of other
    files: readers, decoder, model) and this module's reduction of it."""
    return code_key(INVENTORY_VERSION, (__name__, "pipeline.segment.official", "pipeline.ingest.loader"))


def to_data(doc: Document) -> dict:
    """The inventory of a parsed document (only the findings that say it is truncated)."""
    return {"schema": SCHEMA,
            "meta": {k: (None if getattr(doc.meta, k) is None else str(getattr(doc.meta, k))) for k in _META},
            "sections": [[s.number, s.title] for s in doc.sections],
            "rules": [[r.id, str(r.level), r.parent, r.section, r.text, r.example_texts, list(r.children), r.order]
                      for r in doc.rules],
            "glossary": [[g.term, g.definition, list(g.refs)] for g in doc.glossary],
            "truncated": [f.detail for f in doc.findings if f.kind == "truncated"]}


def lean(doc: Document) -> Document:
    """``doc`` as its inventory reads back (no layout, lines or other findings)."""
    return from_data(to_data(doc))


def _strs(x) -> bool:
    return isinstance(x, list) and all(isinstance(i, str) for i in x)


def _opt(x, kind) -> bool:
    return x is None or isinstance(x, kind)


def _valid(data) -> bool:
    """Every field has its type: a damaged entry is rebuilt, never shown."""
    return (isinstance(data, dict) and data.get("schema") == SCHEMA
            and isinstance(data.get("meta"), dict) and all(_opt(data["meta"].get(k), str) for k in _META)
            and isinstance(data.get("sections"), list) and all(
                isinstance(s, list) and len(s) == 2 and isinstance(s[0], int) and isinstance(s[1], str)
                for s in data["sections"])
            and isinstance(data.get("rules"), list) and all(
                isinstance(r, list) and len(r) == 8 and isinstance(r[0], str) and isinstance(r[1], str)
                and _opt(r[2], str) and _opt(r[3], int) and isinstance(r[4], str) and _strs(r[5]) and _strs(r[6])
                and isinstance(r[7], int) for r in data["rules"])
            and isinstance(data.get("glossary"), list) and all(
                isinstance(g, list) and len(g) == 3 and isinstance(g[0], str) and isinstance(g[1], str)
                and _strs(g[2]) for g in data["glossary"])
            and _strs(data.get("truncated")))


def from_data(data: dict) -> Document:
    """The document of an inventory; ``ValueError`` when ``data`` is not a valid one."""
    if not _valid(data):
        raise ValueError("not an inventory")
    m = data["meta"]
    meta = Meta(language=m["language"], effective_date=m["effective_date"], source_name=m["source_name"],
                sha256=m["sha256"])
    if m["kind"] is not None:
        meta.kind = type(meta.kind)(m["kind"])
    if m["format"] is not None:
        meta.format = m["format"]
    return Document(meta=meta,
                    sections=[Section(number=n, title=t) for n, t in data["sections"]],
                    rules=[Rule(id=i, text=t, examples=[Example(text=e) for e in ex], parent=p, children=list(ch),
                                section=s, level=lv, order=o)
                           for i, lv, p, s, t, ex, ch, o in data["rules"]],
                    glossary=[GlossaryEntry(term=t, definition=d, refs=list(r)) for t, d, r in data["glossary"]],
                    findings=[Finding("truncated", d, "error") for d in data["truncated"]])


def _path(sha256: str, name: str, how: str) -> Path:
    tag = hashlib.sha256(f"{name}\0{how}".encode()).hexdigest()[:16]
    return cache_root() / f"inventory-{inventory_key()}" / f"{sha256}-{tag}.json"


def cached_document(sha256: str, name: str, how: str, parse: Callable[[], Document],
                    cache: bool = True) -> Document:
    """The inventory of the file with this ``sha256`` and ``name`` read ``how`` (e.g.
    ``official``, ``loader:pt``): from the cache, else ``parse()`` reduced and stored."""
    path = _path(sha256, name, how) if cache else None
    if path is not None:
        data = read_cache_json(path)
        if data is not None:
            try:
                doc = from_data(data)
                if doc.meta.sha256 in (None, sha256):
                    return doc
            except (ValueError, TypeError, KeyError):
                pass  # damaged or foreign: rebuilt below
    data = to_data(parse())
    if path is not None:
        cache_write(path, json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")))
    return from_data(data)
