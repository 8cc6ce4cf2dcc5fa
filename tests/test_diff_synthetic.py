"""Planted changes with exact ground truth (acceptance 3).

From a real edition: insert two new keywords in 702 (every later keyword shifts by two,
and every citation of them is updated the way Wizards does), delete one rule elsewhere,
reword 20 rules lightly and 5 heavily, swap two sibling subrules.  The diff must report
exactly the planted changes -- no false move, no false add or remove -- and flag the
citation updates as reference-only.
"""

from __future__ import annotations

import copy
import random
import re

import pytest

from conftest import edition, needs_shared
from pipeline.diff import diff_documents
from pipeline.diff.text import normalize, remap_refs
from pipeline.model import Document, Rule

VOCAB = ["certain", "relevant", "chosen", "affected", "specified", "named", "resulting", "original",
         "eligible", "pending", "visible", "current", "hidden", "matching", "additional"]
WORD = re.compile(r"[A-Za-z]{4,}")


def _light(text: str, rng: random.Random) -> str:
    words = list(WORD.finditer(text))
    m = words[rng.randrange(len(words))]
    how = rng.randrange(3)
    if how == 0:  # replace one word
        return text[:m.start()] + rng.choice(VOCAB) + text[m.end():]
    if how == 1:  # insert one
        return text[:m.start()] + rng.choice(VOCAB) + " " + text[m.start():]
    return text[:m.start()] + text[m.end():].lstrip()  # delete one


def _heavy(text: str, rng: random.Random) -> str:
    out = WORD.sub(lambda m: rng.choice(VOCAB) if rng.random() < 0.35 else m.group(0), text)
    return out + " This requirement also applies to each additional object it names."


def _renumber(rules: list[Rule], f) -> None:
    for r in rules:
        r.id = f(r.id)
        r.parent = f(r.parent) if r.parent else None


def _rebuild_children(doc: Document) -> None:
    kids: dict[str, list[str]] = {}
    for r in doc.rules:
        if r.parent:
            kids.setdefault(r.parent, []).append(r.id)
    for r in doc.rules:
        r.children = kids.get(r.id, [])
    doc._index = None


def plant(doc: Document, seed: int):
    """The mutated document and the truth: old id -> new id (None: deleted), reworded ids, added ids."""
    rng = random.Random(seed)
    new = copy.deepcopy(doc)
    new._index = None
    keywords = [r for r in new.rules if r.parent == "702" and re.fullmatch(r"702\.\d+", r.id)]
    at = int(keywords[rng.randrange(5, len(keywords) - 5)].id.split(".")[1])

    def shift(rid: str) -> str:
        m = re.fullmatch(r"702\.(\d+)([a-z]?)", rid)
        if m and int(m.group(1)) >= at:
            return f"702.{int(m.group(1)) + 2}{m.group(2)}"
        return rid

    truth = {r.id: shift(r.id) for r in doc.rules}
    mapping = {o: n for o, n in truth.items() if o != n}
    _renumber(new.rules, shift)
    # Citations follow the renumbering, as in a real edition.
    for r in new.rules:
        r.text = remap_refs(r.text, mapping)
        for e in r.examples:
            e.text = remap_refs(e.text, mapping)
    for g in new.glossary:
        g.definition = remap_refs(g.definition, mapping)
    pos = next(i for i, r in enumerate(new.rules) if r.id == f"702.{at + 2}")
    added = []
    for k, (name, body) in enumerate([("Glimmerstep", "a static ability that functions while the card is in a graveyard"),
                                      ("Undertow", "a triggered ability that lets its controller mill two cards")]):
        rid = f"702.{at + k}"
        new.rules[pos:pos] = [Rule(rid, name, parent="702", section=7, level="subrule"),
                              Rule(rid + "a", f"{name} is {body}. “{name}” means “{body}.”", parent=rid,
                                   section=7, level="lettered")]
        pos += 2
        added += [rid, rid + "a"]
    by_id = {r.id: r for r in new.rules}
    # Candidates for the other plants: outside 702, not headings, text long enough and unique.
    counts: dict[str, int] = {}
    for r in doc.rules:
        counts[normalize(r.text)] = counts.get(normalize(r.text), 0) + 1
    usable = [r.id for r in doc.rules if r.level != "rule" and len(r.text) >= 80 and counts[normalize(r.text)] == 1]
    outside = [i for i in usable if not i.startswith("702.")]
    # delete one childless rule that is the last of its siblings (no renumbering follows)
    deletable = [i for i in outside if not doc.rule(i).children and doc.rule(doc.rule(i).parent).children[-1] == i]
    gone = rng.choice(deletable)
    new.rules.remove(by_id[gone])
    truth[gone] = None
    # swap two adjacent lettered siblings
    families = [r for r in doc.rules if not r.id.startswith("702.") and r.level == "subrule"
                and sum(1 for c in r.children if c in outside) >= 3 and gone not in r.children]
    fam = rng.choice(families)
    k = rng.randrange(len(fam.children) - 1)
    a, b = fam.children[k], fam.children[k + 1]
    ra, rb = by_id[a], by_id[b]
    ra.text, rb.text = rb.text, ra.text
    ra.examples, rb.examples = rb.examples, ra.examples
    truth[a], truth[b] = b, a
    # reword 20 lightly and 5 heavily (702 included: those are moved and modified)
    pool = [i for i in usable if i not in (gone, a, b)]
    chosen = rng.sample(pool, 25)
    for n, oid in enumerate(chosen):
        r = by_id[truth[oid]]
        r.text = _light(r.text, rng) if n < 20 else _heavy(r.text, rng)
    _rebuild_children(new)
    return new, truth, set(chosen), added


def expected_changes(doc: Document, new: Document, truth: dict, reworded: set, added: list) -> set:
    out = set()
    for oid, nid in truth.items():
        part = "title" if doc.rule(oid).level == "rule" else "rule"
        if nid is None:
            out.add(("removed", part, oid, None, False))
            continue
        changed = normalize(doc.rule(oid).text) != normalize(new.rule(nid).text)
        if oid == nid and not changed:
            continue
        kind = ("moved_modified" if changed else "moved") if oid != nid else "modified"
        out.add((kind, part, oid, nid, changed and oid not in reworded))
    out |= {("added", "rule", None, i, False) for i in added}
    return out


CASES = [("2014-09-26", 1), ("2021-04-19", 2), ("2025-11-14", 3), ("2025-11-14", 4)]


@needs_shared
@pytest.mark.parametrize("date,seed", CASES)
def test_diff_recovers_every_planted_change(date, seed):
    doc = edition(date)
    new, truth, reworded, added = plant(doc, seed)
    res = diff_documents(doc, new)
    got = {(c.kind, c.part, c.old, c.new, c.refs_only) for c in res.changes if c.part in ("rule", "title")}
    want = expected_changes(doc, new, truth, reworded, added)
    assert got - want == set(), "false changes"
    assert want - got == set(), "missed changes"
    # every planted rewording is a real change, not a reference update
    assert all(not c.refs_only for c in res.changes if c.old in reworded)
    # examples and glossary only saw citation updates; no example or term came or went
    others = [c for c in res.changes if c.part in ("example", "glossary")]
    assert all(c.kind == "modified" and c.refs_only for c in others), [c for c in others if not c.refs_only][:3]
    # the keyword shift is one cascade, and the map is the planted one
    assert any(c.step == 2 and c.parent_old == "702" for c in res.cascades)
    assert res.renumbering == {o: n for o, n in truth.items() if n != o}


@needs_shared
def test_planting_is_deterministic():
    doc = edition("2025-11-14")
    a = plant(doc, 7)
    b = plant(doc, 7)
    assert [r.id for r in a[0].rules] == [r.id for r in b[0].rules] and a[2] == b[2]
