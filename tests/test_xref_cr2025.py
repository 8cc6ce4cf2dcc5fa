"""Cross-references of the official 2025-11-14 edition (and a pass over every edition)."""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter

import networkx as nx
import pytest

from conftest import edition, edition_files, needs_shared
from pipeline.xref import build_graph, cited_targets, compare_citations, edges_csv, extract_references, write_exports
from pipeline.xref.extract import _texts

pytestmark = needs_shared

# An independent scan: every token shaped like a rule number (three digits, optionally a
# subrule and letter, no digit touching it) and every digit after the word "section".
SCAN = re.compile(r"(?<!\d)\d{3}(?:\.\d+[a-z]?)?(?!\d)|(?<=section )\d(?!\d)|(?<=sections )\d(?!\d)", re.IGNORECASE)

#: Number-shaped tokens of 2025-11-14 that are provably not references, and why.
NOT_REFERENCES = {
    ("702.124b", "rule", "exactly 100 cards"): "a count of cards (Companion deck size)",
    ("903.5a", "rule", "exactly 100 cards"): "a count of cards (Commander deck size)",
    ("903.5a", "rule", "both 100."): "a deck size",
    ("731.2a", "example", "999,999"): "a number with a thousands separator (loop repetitions)",
}


def _exception(src, part, text, start, end):
    ctx = text[max(0, start - 12):end + 7]
    for (s, p, phrase), reason in NOT_REFERENCES.items():
        if s == src and p == part and phrase in ctx:
            return (s, p, phrase), reason
    return None, None


@pytest.fixture(scope="module")
def refs(cr_2025):
    return extract_references(cr_2025)


def test_every_number_shaped_token_is_a_reference_or_explained(cr_2025, refs):
    spans: dict[tuple, list[tuple[int, int]]] = {}
    for r in refs:
        spans.setdefault((r.source, r.part, r.example), []).append(r.span)
    unexplained, used = [], Counter()
    scanned = 0
    for src, part, text, k in _texts(cr_2025):
        covered = spans.get((src, part, k), [])
        for m in SCAN.finditer(text):
            scanned += 1
            if any(a <= m.start() and m.end() <= b for a, b in covered):
                continue
            key, reason = _exception(src, part, text, m.start(), m.end())
            if key is None:
                unexplained.append((src, part, m.group(), text[max(0, m.start() - 30):m.end() + 20]))
            else:
                used[key] += 1
    assert unexplained == []
    # Every listed exception really occurs (the list cannot go stale silently).
    assert set(used) == set(NOT_REFERENCES)
    assert sum(used.values()) == 5
    assert scanned > 1900


def test_every_reference_is_a_scanned_token(cr_2025, refs):
    """The other direction: no reference comes from something that is not a number."""
    texts = {(s, p, k): t for s, p, t, k in _texts(cr_2025)}
    for r in refs:
        text = texts[(r.source, r.part, r.example)]
        assert text[r.span[0]:r.span[1]] == r.raw
        assert SCAN.search(text, r.span[0], r.span[1] + 1) or r.kind == "section"


def test_counts_and_the_dangling_reference(refs):
    status = Counter(r.status for r in refs)
    assert len(refs) > 1850 and status["resolved"] >= 1890
    dangling = [(r.source, r.raw) for r in refs if r.status == "dangling"]
    # The Map token's glossary entry still cites 110.10 (predefined tokens are 111.10
    # since 111 "Tokens" was inserted in 2019): an anomaly of the source.
    assert dangling == [("glossary:Map", "110.10")]
    mismatched = {(r.source, r.raw, r.title) for r in refs if r.status == "title-mismatch"}
    assert ("glossary:Endure", "702.62", "Endure") in mismatched  # 702.62 is Suspend
    assert ("724.5", "613", "Continuous Effects") in mismatched  # 613 is "Interaction of …"
    assert len(mismatched) == 4
    kinds = Counter(r.part for r in refs)
    assert kinds["rule"] > 1000 and kinds["glossary"] > 700 and kinds["example"] >= 4


def test_ranges_on_real_text(cr_2025, refs):
    by_raw = {(r.source, r.raw): r.targets for r in refs}
    assert by_raw[("614.12", "614.1c–d")] == ("614.1c", "614.1d")
    assert by_raw[("702.27a", "601.2f–h")] == ("601.2f", "601.2g", "601.2h")
    assert by_raw[("608.2p", "608.2c–n")] == tuple(f"608.2{c}" for c in "cdefghijkmn")
    assert by_raw[("701.28a", "712.9–10")] == ("712.9", "712.10")
    assert by_raw[("903.13g", "903.6–903.11")] == tuple(f"903.{i}" for i in range(6, 12))


def test_sections_and_titles_resolve(refs):
    sec = [r for r in refs if r.kind == "section"]
    assert len(sec) == 16 and all(r.status == "resolved" for r in sec)
    persist = [r for r in refs if r.source == "glossary:Persist"]
    assert [(r.targets, r.title, r.status) for r in persist] == [(("702.79",), "Persist", "resolved")]


def test_graph_and_exports(cr_2025, refs, tmp_path):
    g = build_graph(cr_2025, refs)
    assert isinstance(g, nx.MultiDiGraph)
    assert g.nodes["601.2f"]["kind"] == "rule" and g.nodes["glossary:Persist"]["kind"] == "glossary"
    assert g.nodes["110.10"]["kind"] == "missing"
    assert "601.2b" in set(g.predecessors("601.2f"))
    kinds = Counter(k for _, _, k in g.edges(data="kind"))
    assert set(kinds) == {"rule", "rule-range", "example", "glossary", "glossary-range"}
    # One edge per expanded target: "601.2f–h" in 702.27a gives three.
    assert sorted(v for _, v, d in g.out_edges("702.27a", data=True) if d["kind"] == "rule-range") == \
        ["601.2f", "601.2g", "601.2h"]
    rows = list(csv.reader(io.StringIO(edges_csv(g))))
    assert rows[0] == ["source", "target", "kind", "raw"] and len(rows) - 1 == g.number_of_edges()
    a, b = tmp_path / "a", tmp_path / "b"
    pa = write_exports(g, a, "en")
    pb = write_exports(build_graph(cr_2025, extract_references(cr_2025)), b, "en")
    for x, y in zip(pa, pb):
        assert x.read_bytes() == y.read_bytes(), x.name
    back = nx.read_graphml(a / "en.xref.graphml", force_multigraph=True)
    assert back.number_of_edges() == g.number_of_edges()
    data = json.loads((a / "en.xref.json").read_text(encoding="utf-8"))
    assert len(data["edges"]) == g.number_of_edges()


def test_compare_citations_between_editions(cr_2025):
    assert cited_targets(cr_2025, "601.2b") == Counter(
        {"700.2": 1, "702.47": 1, "118.8": 1, "118.9": 1, "601.2f": 1, "107.3": 1})
    same = compare_citations(cr_2025, cr_2025, "601.2b")
    assert same["equal"] and not same["only_a"] and not same["only_b"]
    # Before 111 "Tokens" (2019-07-12) and ward (2021-04-19) were inserted, 601.2b cited
    # costs at 117.x and splice at 702.46: exactly what the Portuguese seed still cites.
    diff = compare_citations(edition("2019-06-12"), cr_2025, "601.2b")
    assert not diff["equal"]
    assert diff["only_a"] == {"117.8": 1, "117.9": 1, "702.46": 1}
    assert diff["only_b"] == {"118.8": 1, "118.9": 1, "702.47": 1}
    gone = compare_citations(cr_2025, edition("2003-03-15"), "601.2b")
    assert gone["in_a"] and not gone["in_b"] and gone["b"] == {}


@pytest.mark.slow
def test_every_edition_extracts_without_error():
    files = edition_files()
    assert len(files) == 110
    for f in files:
        doc = edition(f.stem)
        refs = extract_references(doc)
        assert refs, f.stem
        build_graph(doc, refs)
