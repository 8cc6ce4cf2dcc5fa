"""The rules graph as plain dicts, for reading one node's neighbourhood.

``crpipe xref RULE`` needs a node's kind, what it cites and what cites it, up to a depth, and
the first reference of each edge: networkx (~0.13 s CPU to import) is not needed for that.
Nodes, kinds, in-degrees and the order of neighbours are those of
:func:`pipeline.xref.graph.build_graph` (networkx keeps a node's neighbours in the order of
their first edge; tests compare both on every node of an edition).
"""

from __future__ import annotations

from collections import deque

from ..model import Document
from .model import NodeKind, Reference, glossary_node, section_node


class Adjacency:
    """Nodes and their kinds (``section``, ``rule``, ``glossary``, ``missing``), and per edge
    ``(u, v)`` the first reference that makes it, in document order."""

    def __init__(self, doc: Document, refs: list[Reference]):
        self.kinds: dict[str, NodeKind | None] = {}
        for s in doc.sections:
            self.kinds[section_node(s.number)] = NodeKind.SECTION
        for r in doc.rules:
            self.kinds[r.id] = NodeKind.RULE
        for e in doc.glossary:
            self.kinds[glossary_node(e.term)] = NodeKind.GLOSSARY
        self._succ: dict[str, dict[str, Reference]] = {}
        self._pred: dict[str, dict[str, Reference]] = {}
        self._in: dict[str, int] = {}
        for ref in refs:
            for t in ref.targets:
                self.kinds.setdefault(t, NodeKind.MISSING)
        for ref in refs:
            for t in ref.targets:
                # build_graph adds its edges after every node: a source it lacks becomes a
                # node without a kind
                self.kinds.setdefault(ref.source, None)
                self._succ.setdefault(ref.source, {}).setdefault(t, ref)
                self._pred.setdefault(t, {}).setdefault(ref.source, ref)
                self._in[t] = self._in.get(t, 0) + 1

    def __contains__(self, node: str) -> bool:
        return node in self.kinds

    def kind(self, node: str) -> NodeKind | None:
        return self.kinds.get(node)

    def in_degree(self, node: str) -> int:
        return self._in.get(node, 0)

    def successors(self, node: str):
        return iter(self._succ.get(node, ()))

    def predecessors(self, node: str):
        return iter(self._pred.get(node, ()))

    def first(self, source: str, target: str) -> Reference | None:
        """The first reference from ``source`` to ``target`` (networkx: the edge of key 0)."""
        return self._succ.get(source, {}).get(target)


def within(g, node: str, depth: int, reverse: bool = False) -> dict[str, tuple[int, str]]:
    """Nodes reachable from ``node`` in 1..``depth`` steps (against the edges when
    ``reverse``): what it cites, or what cites it.  Node -> (distance, the node it was
    reached from), in breadth-first order.  ``g``: an :class:`Adjacency` or the networkx
    graph (anything with ``successors`` and ``predecessors``)."""
    seen = {node: 0}
    found: dict[str, tuple[int, str]] = {}
    q = deque([node])
    step = g.predecessors if reverse else g.successors
    while q:
        u = q.popleft()
        if seen[u] >= depth:
            continue
        for v in step(u):
            if v not in seen:
                seen[v] = seen[u] + 1
                found[v] = (seen[v], u)
                q.append(v)
    return found
