"""The rules graph: rules, sections and glossary terms as nodes, references as typed edges.

Edge ``kind`` is where the citing text stands (``rule``, ``example``, ``glossary``), with
``-range`` appended when the edge comes from expanding a range ("601.2f–h" gives three
``rule-range`` edges).  Targets that do not exist become nodes of kind ``missing`` so a
dangling reference is an edge like any other.  Nodes and edges are added in document
order, so every export of the same document is byte-identical.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import networkx as nx

from ..io import atomic_path, atomic_write, dumps
from ..model import Document
from .adjacency import within  # noqa: F401 - the neighbourhoods, also of the networkx graph
from .model import NodeKind, Reference, glossary_node, section_node

EDGE_FIELDS = ("source", "target", "kind", "raw")


def edge_kind(ref: Reference) -> str:
    # GraphML writes plain str values only: an enum goes in as its value.
    return f"{ref.part}-range" if ref.is_range else str(ref.part)


def build_graph(doc: Document, refs: list[Reference]) -> nx.MultiDiGraph:
    g = nx.MultiDiGraph(language=doc.meta.language or "", edition=doc.meta.effective_date or "")
    g.add_nodes_from((section_node(s.number), {"kind": NodeKind.SECTION.value, "label": s.title}) for s in doc.sections)
    # GraphML writes plain str values only: the level enum goes in as its value.
    g.add_nodes_from((r.id, {"kind": NodeKind.RULE.value, "level": str(r.level), "label": r.text[:80]}) for r in doc.rules)
    g.add_nodes_from((glossary_node(e.term), {"kind": NodeKind.GLOSSARY.value, "label": e.term}) for e in doc.glossary)
    edges = []
    for ref in refs:
        attrs = {"kind": edge_kind(ref), "part": str(ref.part), "raw": ref.raw, "status": str(ref.status),
                 "start": ref.span[0], "end": ref.span[1]}
        if ref.example is not None:
            attrs["example"] = ref.example
        if ref.title:
            attrs["title"] = ref.title
        for t in ref.targets:
            if t not in g:
                g.add_node(t, kind=NodeKind.MISSING.value, label="")
            edges.append((ref.source, t, dict(attrs)))
    g.add_edges_from(edges)
    return g


# -- exports -----------------------------------------------------------------------------

def edges_csv(g: nx.MultiDiGraph) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(EDGE_FIELDS)
    for u, v, d in g.edges(data=True):
        w.writerow((u, v, d["kind"], d["raw"]))
    return buf.getvalue()


def node_link(g: nx.MultiDiGraph) -> dict:
    return nx.node_link_data(g, edges="edges")


def write_exports(g: nx.MultiDiGraph, out_dir: str | Path, stem: str) -> list[Path]:
    """``STEM.xref.json`` (node-link), ``STEM.xref.graphml``, ``STEM.xref-edges.csv``."""
    out = Path(out_dir)
    paths = [atomic_write(out / f"{stem}.xref.json", dumps(node_link(g)))]
    gml = out / f"{stem}.xref.graphml"
    with atomic_path(gml) as tmp:
        nx.write_graphml(g, tmp, encoding="utf-8", prettyprint=True)
    paths.append(gml)
    paths.append(atomic_write(out / f"{stem}.xref-edges.csv", edges_csv(g)))
    return paths


# -- neighbourhoods ------------------------------------------------------------------------

def graph_summary(g: nx.MultiDiGraph) -> dict:
    kinds: dict[str, int] = {}
    for _, _, k in g.edges(data="kind"):
        kinds[k] = kinds.get(k, 0) + 1
    return {"nodes": g.number_of_nodes(), "edges": g.number_of_edges(),
            "edge_kinds": dict(sorted(kinds.items())),
            "missing_nodes": sorted(n for n, k in g.nodes(data="kind") if k == NodeKind.MISSING)}


def dumps_refs(refs: list[Reference]) -> str:
    return json.dumps([r.to_dict() for r in refs], ensure_ascii=False, sort_keys=True, indent=1) + "\n"
