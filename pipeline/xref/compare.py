"""Compare what the same rule number cites in two documents (e.g. English and a translation).

A translation must keep every reference pointing at the same rules as the English: the
multiset of targets is compared, so citing 601.2f twice in one and once in the other is
a difference too.
"""

from __future__ import annotations

from collections import Counter

from ..model import Document
from ..rulenum import sort_ids
from .extract import rule_references


def cited_targets(doc: Document, rule_id: str) -> Counter:
    """Target -> how many times rule ``rule_id`` (text and examples) cites it."""
    c: Counter = Counter()
    for r in rule_references(doc, rule_id):
        c.update(r.targets)
    return c


def _as_dict(c: Counter) -> dict[str, int]:
    return {k: c[k] for k in sort_ids(c)}


def compare_citations(doc_a: Document, doc_b: Document, rule_id: str) -> dict:
    """``{"rule", "in_a", "in_b", "a", "b", "equal", "only_a", "only_b"}``: the targets each
    document's rule cites (target -> count) and what one cites more often than the other."""
    a, b = cited_targets(doc_a, rule_id), cited_targets(doc_b, rule_id)
    return {
        "rule": rule_id,
        "in_a": doc_a.rule(rule_id) is not None,
        "in_b": doc_b.rule(rule_id) is not None,
        "a": _as_dict(a),
        "b": _as_dict(b),
        "equal": a == b,
        "only_a": _as_dict(a - b),
        "only_b": _as_dict(b - a),
    }
