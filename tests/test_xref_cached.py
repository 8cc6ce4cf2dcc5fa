"""Issue 26, item 5: ``crpipe xref`` of an edition reads its inventory and references from the
cache and walks a plain adjacency: the same references as the parsed edition, and the same
nodes, kinds, degrees, neighbours and first edges as the networkx graph."""

from __future__ import annotations

import pytest

from pipeline.editions import default_catalog
from tests.conftest import edition_spread
from pipeline.xref import build_graph, extract_references
from pipeline.xref import cached
from pipeline.xref.adjacency import Adjacency, within


@pytest.fixture
def cache(monkeypatch, tmp_path):
    monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.mark.parametrize("name", ["2003-03-15", "2019-06-12", "2026-01-16"])
def test_the_adjacency_is_the_graph(name):
    doc = default_catalog().resolve(name).parse()
    refs = extract_references(doc)
    g, a = build_graph(doc, refs), Adjacency(doc, refs)
    assert set(a.kinds) == set(g.nodes)
    for n, kind in g.nodes(data="kind"):
        assert a.kind(n) == kind and n in a
        assert a.in_degree(n) == g.in_degree(n)
        assert list(a.successors(n)) == list(g.successors(n))
        assert list(a.predecessors(n)) == list(g.predecessors(n))
        for t in g.successors(n):
            first = next(iter(g.get_edge_data(n, t).values()))
            ref = a.first(n, t)
            assert (ref.part, *ref.span, ref.raw) == (first["part"], first["start"], first["end"], first["raw"])
            assert ref.example == first.get("example")
    for n in [n for n in ("601.2f", "section:6", "702.19", "100.1", "glossary:Flash") if n in g]:
        for depth in (1, 3):
            assert within(a, n, depth) == within(g, n, depth)
            assert within(a, n, depth, reverse=True) == within(g, n, depth, reverse=True)


def test_cached_references_are_the_parsed_editions(cache):
    ref = default_catalog().resolve("2019-06-12")
    parsed = extract_references(ref.parse())
    doc, refs = cached.edition_references(ref)  # cold: extracted and stored
    assert refs == parsed
    (path,) = cache.glob(f"xref-refs-*/{ref.sha256}.marshal")
    doc2, refs2 = cached.edition_references(ref)  # warm: read back
    assert refs2 == parsed and doc2.rules == doc.rules
    path.write_bytes(b"\x00not marshal")
    assert cached.edition_references(ref)[1] == parsed  # damaged: rebuilt


@pytest.mark.slow
def test_every_embedded_editions_references_from_its_inventory(cache):
    """A spread of the embedded editions in the suite (all 110 with CRPIPE_TEST_ALL_EDITIONS=1)."""
    for ref in edition_spread(default_catalog().editions):
        assert cached.edition_references(ref)[1] == extract_references(ref.parse()), ref.stem
