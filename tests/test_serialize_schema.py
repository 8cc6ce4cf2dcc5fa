"""The serializer's output against the JSON schemas (issue 29, item 3).

Real instances, not hand-made ones: an undated paste from ``corpus/seeds`` with its base
edition inferred from the embedded archive (an :class:`EditionRange` with its facts), the
newest embedded official edition (layouts, a glossary heading, the contents), and the diff of
two embedded editions across the 2019 renumbering (cascades, every change part).  Every
dataclass reachable from those objects must be one this test checks, whole and against the
part of ``pipeline/data/*.schema.json`` that describes it, so a new model type cannot slip in
unchecked.
"""

from __future__ import annotations

import json
from dataclasses import fields, is_dataclass
from enum import Enum
from pathlib import Path

import jsonschema
import pytest

from pipeline.diff.classify import Cascade, Change, ChangeKind, ChangePart, DiffResult, DiffSide, diff_documents
from pipeline.editions.catalog import default_catalog, default_edition, resolve_edition
from pipeline.findings import Severity
from pipeline.ingest.loader import load_document
from pipeline.model import (BaseMethod, Document, EditionRange, Example, FactCounts, Finding, GlossaryEntry, Layout,
                            Meta, Rule, Section, TocEntry)
from pipeline.rulenum import RuleNumber
from pipeline.serialize import to_data

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = {p.name.split(".")[0]: json.loads(p.read_text(encoding="utf-8"))
           for p in sorted((ROOT / "pipeline" / "data").glob("*.schema.json"))}


def _validator(schema_name: str, *path: str) -> jsonschema.protocols.Validator:
    """A validator for the part of a schema at ``path`` (``$ref``s resolve against the whole)."""
    root = SCHEMAS[schema_name]
    part = root
    for key in path:
        part = part[key]
    cls = jsonschema.validators.validator_for(root)
    cls.check_schema(root)
    return cls({**part, "$defs": root.get("$defs", {})}, format_checker=cls.FORMAT_CHECKER)


def _json(data):
    """Through JSON text and back, as a reader of the file sees it (tuples are lists, enums strings)."""
    return json.loads(json.dumps(data))


#: Each model type in the two JSON outputs, with the schema part its serialised form must meet.
#: Rule, Example, Section and GlossaryEntry are written by Document.to_dict itself (the rule's
#: examples as texts, layouts apart): they are checked as the document's items.
WHERE = {
    Document: ("document",),
    Meta: ("document", "properties", "meta"),
    EditionRange: ("document", "properties", "meta", "properties", "base_edition"),
    FactCounts: None,  # inside EditionRange: the schema leaves it open
    TocEntry: ("document", "properties", "toc", "items"),
    Finding: ("document", "properties", "findings", "items"),
    Layout: ("document", "$defs", "layout"),
    Rule: ("document", "properties", "rules", "items"),
    Example: ("document", "properties", "rules", "items"),
    Section: ("document", "properties", "sections", "items"),
    GlossaryEntry: ("document", "properties", "glossary", "items"),
    DiffResult: ("diff",),
    DiffSide: ("diff", "$defs", "edition"),
    Change: ("diff", "properties", "changes", "items"),
    Cascade: ("diff", "properties", "cascades", "items"),
}


def _reachable(obj, seen: dict[type, int], depth: int = 0) -> None:
    """Every dataclass type reachable from ``obj`` through its fields (lists, dicts, tuples)."""
    if depth > 6 or isinstance(obj, (str, bytes, int, float, bool, Enum)) or obj is None:
        return
    if is_dataclass(obj) and not isinstance(obj, type):
        seen[type(obj)] = seen.get(type(obj), 0) + 1
        if seen[type(obj)] <= 300:  # a few hundred of each type are enough to meet every member type
            for f in fields(obj):
                if not f.name.startswith("_") and f.name != "num":
                    _reachable(getattr(obj, f.name), seen, depth + 1)
    elif isinstance(obj, dict):
        for v in list(obj.values())[:50]:
            _reachable(v, seen, depth + 1)
    elif isinstance(obj, (list, tuple)):
        for v in list(obj)[:200]:
            _reachable(v, seen, depth + 1)


@pytest.fixture(scope="module")
def catalog():
    return default_catalog()


@pytest.fixture(scope="module")
def paste(catalog) -> Document:
    """Seed 000: an undated pt paste; its base edition inferred from the embedded archive."""
    doc = load_document(next((ROOT / "corpus" / "seeds").glob("000_*.txt")), editions_dir=catalog)
    assert doc.meta.base_edition is not None and doc.meta.base_edition.method is BaseMethod.INVENTORY
    assert doc.meta.base_edition.facts is not None and doc.meta.base_edition.first
    return doc


@pytest.fixture(scope="module")
def official(catalog) -> Document:
    doc = default_edition(catalog).parse()
    assert doc.toc and doc.glossary and doc.findings is not None and doc.glossary_heading is not None
    return doc


@pytest.fixture(scope="module")
def renumbering_diff(catalog) -> DiffResult:
    """2019-06-12 -> 2019-07-12: rule 117 became 118, a cascade of renumbered rules."""
    old, new = (resolve_edition(d, catalog).parse() for d in ("2019-06-12", "2019-07-12"))
    return diff_documents(old, new)


def test_every_model_type_is_checked(paste, official, renumbering_diff):
    counts: dict[type, int] = {}
    for obj in (paste, official, renumbering_diff):
        _reachable(obj, counts)
    seen = set(counts)
    assert seen - set(WHERE) == set(), "a model type the schema test does not check"
    assert {Document, Meta, EditionRange, FactCounts, TocEntry, Layout, Rule, Section, GlossaryEntry,
            DiffResult, DiffSide, Change, Cascade} <= seen


def test_documents_validate_against_the_document_schema(paste, official):
    whole = _validator("document")
    for doc in (paste, official):
        for layout in (True, False):
            whole.validate(_json(doc.to_dict(layout=layout)))
    # Each type on its own, through the serializer, against its part of the schema.
    for obj in (paste.meta, official.meta, paste.meta.base_edition, official.toc[0], official.toc[-1],
                official.rules[0].layout, official.glossary_heading):
        _validator(*WHERE[type(obj)]).validate(_json(to_data(obj)))
    findings = paste.findings + official.findings + [Finding("truncated", "d", Severity.ERROR, rule="100.1", line=3,
                                                             span=[1, 2])]
    for f in findings:
        _validator(*WHERE[Finding]).validate(_json(f.to_dict()))
    assert {t.level for t in official.toc} >= {"section", "rule"}


def test_the_document_schema_catches_what_it_should(official):
    """The checks above can fail: a wrong enum value, a missing field, a bad rule id."""
    meta = _json(to_data(official.meta))
    v = _validator(*WHERE[Meta])
    v.validate(meta)
    with pytest.raises(jsonschema.ValidationError):
        v.validate({k: x for k, x in meta.items() if k != "format"})
    d = _json(official.to_dict())
    d["toc"][0]["level"] = "chapter"
    with pytest.raises(jsonschema.ValidationError):
        _validator("document").validate(d)
    d = _json(official.to_dict())
    d["rules"][0]["id"] = "99"
    with pytest.raises(jsonschema.ValidationError):
        _validator("document").validate(d)
    be = _json(to_data(EditionRange("2019-01-25", "2019-06-12", None, [], [], 0.5, BaseMethod.INVENTORY)))
    _validator(*WHERE[EditionRange]).validate(be)
    with pytest.raises(jsonschema.ValidationError):
        _validator(*WHERE[EditionRange]).validate({**be, "method": "guessed"})


def test_diffs_validate_against_the_diff_schema(renumbering_diff):
    r = renumbering_diff
    assert r.cascades and {c.part for c in r.changes} >= {ChangePart.RULE, ChangePart.EXAMPLE}
    assert any(c.kind is ChangeKind.MOVED for c in r.changes) and any(c.similarity is not None for c in r.changes)
    whole = _validator("diff")
    whole.validate(_json(r.to_dict()))
    whole.validate(_json(r.to_dict(expand_moves=True)))
    for obj in (r.old, r.new, *r.changes, *r.cascades):
        _validator(*WHERE[type(obj)]).validate(_json(obj.to_dict()))
    bad = _json(r.changes[0].to_dict())
    bad["kind"] = "renamed"
    with pytest.raises(jsonschema.ValidationError):
        _validator(*WHERE[Change]).validate(bad)


def test_the_json_of_a_model_type_is_its_fields():
    """What the serializer derives: enums as values, tuples as lists, optional fields left out
    as their metadata says, renamed and rounded where the JSON format differs."""
    c = Change(kind=ChangeKind.MOVED, part=ChangePart.RULE, old="117.1", new="118.1", similarity=97.345)
    assert c.to_dict() == {"kind": "moved", "part": "rule", "old": "117.1", "new": "118.1", "old_text": None,
                           "new_text": None, "word_diff": None, "refs_only": False, "section": None,
                           "similarity": 97.3}
    assert type(c.to_dict()["kind"]) is str
    cas = Cascade("c1", "117", "118", 1, [("117.1", "118.1"), ("117.1a", "118.1a")], [("117.1", "118.1")])
    assert cas.to_dict() == {"id": "c1", "parent_old": "117", "parent_new": "118", "step": 1,
                             "summary": cas.line, "rules": 2,
                             "moves": [{"old": "117.1", "new": "118.1"}, {"old": "117.1a", "new": "118.1a"}]}
    er = EditionRange("2019-01-25", "2019-06-12", None, ["2019-01-25", "2019-06-12"], ["x"], 0.9, BaseMethod.INVENTORY)
    assert to_data(er) == {"first": "2019-01-25", "last": "2019-06-12", "editions": ["2019-01-25", "2019-06-12"],
                           "confidence": 0.9, "evidence": ["x"], "method": "inventory", "declared": None}
    assert EditionRange.from_dict(_json(to_data(er))) == er
    assert RuleNumber.parse("118.1").level == "subrule"  # a Level compares with its value, as JSON reads it
