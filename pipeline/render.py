"""Render the model back to text.

``render_body`` gives the rules body and glossary exactly as the source had them
(after line-ending and BOM normalisation); ``render_document`` adds the front and back
matter.  Used by the round-trip test and by exports that need plain text.
"""

from __future__ import annotations

from .model import Document
from .segment.paragraphs import render_paragraph


def _para(layout, text: str) -> str:
    return layout.before + layout.head + render_paragraph(text, layout.breaks, layout.tail)


def render_rules_body(doc: Document) -> str:
    blocks = [(s.order, 0, s) for s in doc.sections] + [(r.order, 1, r) for r in doc.rules]
    out: list[str] = []
    for _, kind, obj in sorted(blocks, key=lambda b: b[0]):
        if kind == 0:
            out.append(_para(obj.layout, obj.title))
        else:
            out.append(_para(obj.layout, obj.text))
            for ex in obj.examples:
                out.append(_para(ex.layout, ex.text))
    return "".join(out)


def render_glossary(doc: Document) -> str:
    gh = doc.glossary_heading
    if gh is None:
        return ""
    out = [gh.before, gh.head]
    for g in doc.glossary:
        lay = g.layout
        out.append(lay.before + lay.head)
        if g.definition or lay.breaks or lay.tail:
            out.append("\n" + render_paragraph(g.definition, lay.breaks, lay.tail))
    out.append("\n" + gh.tail if gh.tail or doc.back_matter else gh.tail)
    return "".join(out)


def render_body(doc: Document) -> str:
    """The rules body and the glossary, as in the source."""
    return render_rules_body(doc) + render_glossary(doc)


def render_document(doc: Document) -> str:
    return doc.front_matter + render_body(doc) + ("\n" + doc.back_matter if doc.back_matter else "")
