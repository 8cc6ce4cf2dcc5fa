"""Cross-references: find every rule reference, resolve it, build the rules graph.

Public API (other stages call these)::

    extract_references(doc, fallback=None) -> list[Reference]
    extract_from_text(text, lang, source=None, part="rule", known_ids=None) -> list[Reference]
    resolve(refs, doc, fallback=None) -> list[Reference]
    build_graph(doc, refs) -> networkx.MultiDiGraph
    cited_targets(doc, rule_id) -> Counter
    compare_citations(doc_a, doc_b, rule_id) -> dict
"""

from .compare import cited_targets, compare_citations
from .extract import expand_range, extract_from_text, extract_references, rule_references
from .model import Reference
from .resolve import resolve

# The graph's names load on first use: networkx costs ~0.2 s to import, and extracting and
# resolving references (show's index, diff's stale references) never needs it.
_GRAPH = ("build_graph", "edges_csv", "node_link", "write_exports")

__all__ = [
    "Reference", "build_graph", "cited_targets", "compare_citations", "edges_csv", "expand_range",
    "extract_from_text", "extract_references", "node_link", "resolve", "rule_references", "write_exports",
]


def __getattr__(name):
    if name in _GRAPH:
        from . import graph  # noqa: PLC0415 - lazy, see _GRAPH

        return getattr(graph, name)
    raise AttributeError(name)
