"""The build stage: align every translation of the corpus and write its reports to ``aligned/``."""

from __future__ import annotations

from ..diff.context import editions_for
from . import render_json
from .findings_csv import render_csv
from .html import render_html
from .xliff import render_xliff
from ..align.aligner import align_documents
from ..align.termbase import load_termbase


def stage_align(ctx) -> None:
    if not ctx.translations:
        ctx.skip("align", "no translation was read")
        return
    if ctx.reference is None:
        ctx.skip("align", "no English reference edition to align the translations with")
        return
    cards = ctx.card_index("align: card names")
    tb = load_termbase()
    for name in sorted(ctx.translations):
        doc = ctx.translations[name]
        ed = editions_for(ctx, name)
        if ed is None:
            ctx.skip("align", f"{name}: {ctx.edition_errors.get(name, 'no base edition')}")
            continue
        res = align_documents(doc, ed.base, ed.current, map_number=ed.map_number, base_info=ed.info,
                              current_label=ed.current_label, termbase=tb, cards=cards, editions_dir=ctx.editions_dir)
        stem = f"align-{doc.meta.language}-{name}"
        ctx.write(f"{stem}.json", render_json(res))
        ctx.write(f"{stem}.html", render_html(res))
        ctx.write(f"{stem}.csv", render_csv(res))
        ctx.write(f"{stem}.xlf", render_xliff(res))
