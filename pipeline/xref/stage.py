"""The ``crpipe build`` stage: references and the rules graph of every document of the build.

For the English reference edition and each translation it writes, into ``aligned/``:
``STEM.xref.json`` (networkx node-link), ``STEM.xref.graphml``, ``STEM.xref-edges.csv``
and ``STEM.xref-refs.json`` (every reference with its span, targets and status), plus
one ``xref-summary.json`` with the counts.  Translations that are fragments resolve what
they lack against the reference edition (status ``external``).
"""

from __future__ import annotations

from collections import Counter

from .extract import extract_references
from .graph import build_graph, dumps_refs, graph_summary, write_exports


def _one(ctx, doc, stem: str, fallback=None) -> dict:
    refs = extract_references(doc, fallback)
    g = build_graph(doc, refs)
    for p in write_exports(g, ctx.out, stem):
        ctx.track(p)
    ctx.write(f"{stem}.xref-refs.json", dumps_refs(refs))
    statuses = Counter(r.status for r in refs)
    ctx.shared.setdefault("xref", {})[stem] = refs
    return {"language": doc.meta.language, "references": len(refs),
            "status": dict(sorted(statuses.items())), **graph_summary(g)}


def stage_xref(ctx) -> None:
    summary = {}
    if ctx.reference is not None:
        summary["en-reference"] = _one(ctx, ctx.reference, "en-reference")
    else:
        ctx.skip("xref", "no reference edition: its rules graph was not built")
    for name in sorted(ctx.translations):
        doc = ctx.translations[name]
        stem = f"{doc.meta.language}-{name}"
        summary[stem] = _one(ctx, doc, stem, fallback=ctx.reference)
    if summary:
        ctx.write_json("xref-summary.json", summary)
