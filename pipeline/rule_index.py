"""One edition as a small look-up table: what ``crpipe show`` reads instead of parsing.

Showing a rule needs its text, examples, subrules, title path, the glossary, and who cites
whom; the last costs a cross-reference pass over the whole edition (~0.35 s, and the
graph library's import).  An index holds all of it -- the rules, sections and glossary as
plain lists and each rule's "cites" and "cited by" already worked out -- and is cached on
disk per edition, named by the edition's sha256 and the code that builds it.  A warm
``show`` reads one JSON file and imports no parser or cross-reference code.

A damaged or foreign cache file is ignored and rebuilt; the index built from the parse
and the one read back from disk give the same view (tests/test_rule_index.py).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path

from .io import cache_root, cache_write, read_cache_json, source_key
from .model import Document, Example, GlossaryEntry, Meta, Rule, Section
from .rulenum import RuleNumber, sort_ids

#: Bump when the index's layout or the meaning of its fields changes.
INDEX_VERSION = 1
SCHEMA = "crpipe-rule-index/1"


@functools.lru_cache(maxsize=1)
def index_key() -> str:
    """The code that builds an index: the parser, the cross-reference extractor, this file."""
    here = Path(__file__).resolve().parent
    files = [Path(__file__).resolve(), here / "model.py", here / "rulenum.py", here / "text.py",
             *sorted((here / "segment").glob("*.py")), *sorted((here / "xref").glob("*.py")),
             *sorted((here / "ingest").glob("decode*.py")), *sorted((here / "profiles").glob("*.py"))]
    return source_key(INDEX_VERSION, files)


@dataclass
class RuleIndex:
    """A parsed edition reduced to what look-ups read.  ``doc`` is a :class:`Document` with
    the rules' numbers, levels, parents, children, texts and examples, the section titles and
    the glossary (no layout); ``cites``/``cited_by``: per rule number, sorted."""

    doc: Document
    cites: dict[str, list[str]] = field(default_factory=dict)
    cited_by: dict[str, list[str]] = field(default_factory=dict)

    def to_data(self) -> dict:
        d = self.doc
        return {"schema": SCHEMA,
                "meta": {"language": d.meta.language, "effective_date": d.meta.effective_date,
                         "source_name": d.meta.source_name, "sha256": d.meta.sha256},
                "sections": [[s.number, s.title] for s in d.sections],
                "rules": [[r.id, str(r.level), r.parent, r.section, r.text, r.example_texts, list(r.children)]
                          for r in d.rules],
                "glossary": [[g.term, g.definition, list(g.refs)] for g in d.glossary],
                "cites": self.cites, "cited_by": self.cited_by}

    @classmethod
    def from_data(cls, data: dict) -> "RuleIndex":
        """The index of :meth:`to_data`; ``ValueError``/``TypeError``/``KeyError`` on anything else."""
        if not isinstance(data, dict) or data.get("schema") != SCHEMA:
            raise ValueError("not a rule index")
        _check(data)
        m = data["meta"]
        meta = Meta(language=m["language"], effective_date=m["effective_date"], source_name=m["source_name"],
                    sha256=m["sha256"])
        doc = Document(meta=meta,
                       sections=[Section(number=int(n), title=str(t)) for n, t in data["sections"]],
                       rules=[Rule(id=i, text=t, examples=[Example(text=e) for e in ex], parent=p,
                                   children=list(ch), section=s, level=lv)
                              for i, lv, p, s, t, ex, ch in data["rules"]],
                       glossary=[GlossaryEntry(term=t, definition=d, refs=list(r)) for t, d, r in data["glossary"]])
        return cls(doc, data["cites"], data["cited_by"])


def _strs(x) -> bool:
    return isinstance(x, list) and all(isinstance(i, str) for i in x)


def _opt(x, kind) -> bool:
    return x is None or isinstance(x, kind)


def _check(data: dict) -> None:
    """Every field of a cached index has its type, or ``ValueError`` (a damaged entry is
    rebuilt, never shown)."""
    ok = isinstance(data.get("meta"), dict) and all(_opt(data["meta"].get(k), str) for k in
                                                   ("language", "effective_date", "source_name", "sha256"))
    ok = ok and isinstance(data.get("sections"), list) and all(
        isinstance(s, list) and len(s) == 2 and isinstance(s[0], int) and isinstance(s[1], str) for s in data["sections"])
    ok = ok and isinstance(data.get("rules"), list) and all(
        isinstance(r, list) and len(r) == 7 and isinstance(r[0], str) and isinstance(r[1], str) and _opt(r[2], str)
        and _opt(r[3], int) and isinstance(r[4], str) and _strs(r[5]) and _strs(r[6]) for r in data["rules"])
    ok = ok and isinstance(data.get("glossary"), list) and all(
        isinstance(g, list) and len(g) == 3 and isinstance(g[0], str) and isinstance(g[1], str) and _strs(g[2])
        for g in data["glossary"])
    ok = ok and all(isinstance(data.get(k), dict) and all(isinstance(a, str) and _strs(b) for a, b in data[k].items())
                    for k in ("cites", "cited_by"))
    if not ok:
        raise ValueError("not a rule index")


def descendants(doc: Document, rule: Rule) -> list[Rule]:
    """Every rule below ``rule``, depth first in document order (with duplicate numbers, the
    first rule of a number stands for it, as :meth:`Document.rule` does)."""
    out: list[Rule] = []
    for cid in rule.children:
        c = doc.rule(cid)
        if c is not None:
            out.append(c)
            out += descendants(doc, c)
    return out


def build_index(doc: Document) -> RuleIndex:
    """The index of a parsed edition: the cross-references extracted once, and per rule what
    it cites (but itself) and what cites it from outside its own subtree."""
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
        inside = {r.id} | {c.id for c in descendants(doc, r)}
        cites[r.id] = sort_ids({t for t in out_edges.get(r.id, ()) if t != r.id})
        cited_by[r.id] = sorted({s for s in in_edges.get(r.id, ()) if s not in inside},
                                key=lambda s: (s.startswith("glossary:"), RuleNumber.try_parse(s) or fallback, s))
    lean = Document(meta=Meta(language=doc.meta.language, effective_date=doc.meta.effective_date,
                              source_name=doc.meta.source_name, sha256=doc.meta.sha256),
                    sections=[Section(number=s.number, title=s.title) for s in doc.sections],
                    rules=[Rule(id=r.id, text=r.text, examples=[Example(text=t) for t in r.example_texts],
                                parent=r.parent, children=list(r.children), section=r.section, level=r.level)
                           for r in doc.rules],
                    glossary=[GlossaryEntry(term=g.term, definition=g.definition, refs=list(g.refs))
                              for g in doc.glossary])
    return RuleIndex(lean, cites, cited_by)


def index_path(sha256: str) -> Path:
    return cache_root() / f"rule-index-{index_key()}" / f"{sha256}.json"


def edition_index(ref, cache: bool = True) -> RuleIndex:
    """The index of an edition (a :class:`pipeline.editions.EditionRef`): read from the cache
    when it holds this edition's (by sha256), else built from the parse and stored."""
    path = index_path(ref.sha256) if cache else None
    if path is not None:
        data = read_cache_json(path)
        if data is not None:
            try:
                idx = RuleIndex.from_data(data)
                if idx.doc.meta.sha256 == ref.sha256:
                    return idx
            except (ValueError, TypeError, KeyError, AttributeError):
                pass  # damaged or foreign: rebuilt below
    doc = ref.parse()
    idx = build_index(doc)
    if path is not None:
        # Compact (one line): the file is read on every warm ``show``.
        cache_write(path, json.dumps(idx.to_data(), ensure_ascii=False, sort_keys=True, separators=(",", ":")))
    return idx
