"""An edition's references, kept in the cache: what ``crpipe xref`` reads on a warm run
instead of decoding, parsing and extracting the edition again (~0.15 s CPU).

The document is the edition's inventory (:func:`pipeline.inventory.cached_document`: rules,
examples, sections, glossary; references found in it are those of the parsed edition, on
all 110 embedded editions, tests/test_xref_cached.py), the references a ``marshal`` list of
their fields (plain data) named by the edition's sha256 and keyed by the code that finds
and resolves them.  A damaged entry is ignored and rebuilt.
"""

from __future__ import annotations

import functools
import marshal
import typing
from dataclasses import fields
from enum import Enum

from ..codekey import code_key
from ..inventory import cached_document, inventory_key
from ..io import cache_root, cache_write, read_cache_marshal
from ..model import Document
from .extract import extract_references
from .model import Reference

#: Bump when the entry's layout changes.
REFS_VERSION = 2
_FIELDS = tuple(f.name for f in fields(Reference))
# marshal stores plain values only: an enum field is written as its value and read back
# through its class (a StrEnum member is a str subclass marshal refuses).
_HINTS = typing.get_type_hints(Reference)
_ENUMS = {i: _HINTS[name] for i, name in enumerate(_FIELDS)
          if isinstance(_HINTS[name], type) and issubclass(_HINTS[name], Enum)}


def _row(r: Reference) -> tuple:
    return tuple(v.value if isinstance(v, Enum) else v for v in (getattr(r, f) for f in _FIELDS))


def _reference(row: tuple) -> Reference:
    return Reference(*(_ENUMS[i](v) if i in _ENUMS else v for i, v in enumerate(row)))


@functools.lru_cache(maxsize=1)
def refs_key() -> str:
    return code_key(REFS_VERSION, (__name__, "pipeline.xref.extract"), extra=[inventory_key()])


def _read(path) -> list[Reference] | None:
    rows = read_cache_marshal(path)
    if not isinstance(rows, list) or not all(isinstance(r, tuple) and len(r) == len(_FIELDS) for r in rows):
        return None
    try:
        return [_reference(r) for r in rows]
    except (ValueError, TypeError):  # a field of another kind (a damaged entry): read again
        return None


def edition_references(ref) -> tuple[Document, list[Reference]]:
    """The inventory of an edition (a :class:`pipeline.editions.EditionRef`) and its resolved
    references, each from the cache when it holds this edition's (by sha256), else built and
    stored."""
    doc = cached_document(ref.sha256, ref.name, "official", ref.parse)
    path = cache_root() / f"xref-refs-{refs_key()}" / f"{ref.sha256}.marshal"
    refs = _read(path)
    if refs is None:
        refs = extract_references(doc)
        cache_write(path, marshal.dumps([_row(r) for r in refs]))
    return doc, refs
