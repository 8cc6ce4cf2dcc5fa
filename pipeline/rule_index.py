"""One edition as a small look-up table: what ``crpipe show`` reads instead of parsing.

Showing a rule needs its text, examples, subrules, title path, the glossary, and who cites
whom; the last costs a cross-reference pass over the whole edition (~0.35 s).  An index is
the edition's inventory (:mod:`pipeline.inventory`: rules, sections, glossary as plain
lists, cached by the file's sha256) and each rule's "cites" and "cited by" already worked
out (cached beside it, by the same sha256 and the code that finds references).  A warm
``show`` reads two JSON files and imports no parser or cross-reference code.

A damaged or foreign cache file is ignored and rebuilt; a view is the same cold, warm and
after damage (tests/test_rule_index.py).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path

from .inventory import cached_document, inventory_key, lean
from .codekey import code_key
from .io import cache_root, cache_write, read_cache_json
from .model import Document, Rule
from .rulenum import RuleNumber, sort_ids

#: Bump when the index's layout or the meaning of its fields changes.
INDEX_VERSION = 2
SCHEMA = "crpipe-rule-refs/1"


@functools.lru_cache(maxsize=1)
def index_key() -> str:
    """The code that finds cross-references, this file, and the inventory's key (the
    references are found in the inventory)."""
    return code_key(INDEX_VERSION, __name__, extra=[inventory_key()])


@dataclass
class RuleIndex:
    """An edition's inventory (:mod:`pipeline.inventory`: rules, sections, glossary, no
    layout) and, per rule number, what it cites and what cites it, sorted."""

    doc: Document
    cites: dict[str, list[str]] = field(default_factory=dict)
    cited_by: dict[str, list[str]] = field(default_factory=dict)

    def refs_data(self) -> dict:
        return {"schema": SCHEMA, "sha256": self.doc.meta.sha256, "cites": self.cites, "cited_by": self.cited_by}


def _valid_refs(data, sha256: str | None) -> bool:
    return (isinstance(data, dict) and data.get("schema") == SCHEMA and data.get("sha256") == sha256
            and all(isinstance(data.get(k), dict) and all(
                isinstance(a, str) and isinstance(b, list) and all(isinstance(x, str) for x in b)
                for a, b in data[k].items()) for k in ("cites", "cited_by")))


def descendants(doc: Document, rule: Rule, depth: int = 1) -> list[tuple[Rule, int]]:
    """Every rule below ``rule`` and its depth under it (1: a child), depth first in document
    order (with duplicate numbers, the first rule of a number stands for it, as
    :meth:`Document.rule` does)."""
    out: list[tuple[Rule, int]] = []
    for cid in rule.children:
        c = doc.rule(cid)
        if c is not None:
            out.append((c, depth))
            out += descendants(doc, c, depth + 1)
    return out


def _references(doc: Document) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Per rule: what it cites (but itself) and what cites it from outside its own subtree."""
    from .xref import extract_references  # noqa: PLC0415 - lazy: only a cold index extracts references

    out_edges: dict[str, set[str]] = {}
    in_edges: dict[str, set[str]] = {}
    for ref in extract_references(doc):
        out_edges.setdefault(ref.source, set()).update(ref.targets)
        for t in ref.targets:
            in_edges.setdefault(t, set()).add(ref.source)
    fallback = RuleNumber.parse("999")
    cites: dict[str, list[str]] = {}
    cited_by: dict[str, list[str]] = {}
    for r in doc.rules:
        if r.id in cites or doc.rule(r.id) is not r:
            continue
        inside = {r.id} | {c.id for c, _ in descendants(doc, r)}
        cites[r.id] = sort_ids({t for t in out_edges.get(r.id, ()) if t != r.id})
        cited_by[r.id] = sorted({s for s in in_edges.get(r.id, ()) if s not in inside},
                                key=lambda s: (s.startswith("glossary:"), RuleNumber.try_parse(s) or fallback, s))
    return cites, cited_by


def build_index(doc: Document) -> RuleIndex:
    """The index of a parsed edition (its references extracted once)."""
    return RuleIndex(lean(doc), *_references(doc))


def index_path(sha256: str) -> Path:
    return cache_root() / f"rule-index-{index_key()}" / f"{sha256}.json"


def edition_index(ref, cache: bool = True, doc: Document | None = None) -> RuleIndex:
    """The index of an edition (a :class:`pipeline.editions.EditionRef`): its inventory and its
    references, each read from the cache when it holds this edition's (by sha256), else built
    (from the parse, from the inventory) and stored.  ``doc``: its inventory, already read
    (``show`` reads it first and the references only for a rule it shows)."""
    doc = doc or cached_document(ref.sha256, ref.name, "official", ref.parse, cache)
    path = index_path(ref.sha256) if cache else None
    data = read_cache_json(path) if path is not None else None
    if _valid_refs(data, doc.meta.sha256):
        return RuleIndex(doc, data["cites"], data["cited_by"])
    idx = RuleIndex(doc, *_references(doc))
    if path is not None:
        # Compact (one line): the file is read on every warm ``show``.
        cache_write(path, json.dumps(idx.refs_data(), ensure_ascii=False, sort_keys=True, separators=(",", ":")))
    return idx
