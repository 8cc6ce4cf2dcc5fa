"""The build stage: align every translation of the corpus and write its reports to ``aligned/``."""

from __future__ import annotations

from ..errors import CrpipeError


def stage_align(ctx) -> None:
    from ..report import render_json
    from ..report.findings_csv import render_csv
    from ..report.html import render_html
    from ..report.xliff import render_xliff
    from .aligner import align_documents
    from .editions import resolve_editions
    from .termbase import load_termbase

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
        try:
            if ctx.editions_dir is not None:
                # "current" is the newest edition available (editions.newest_edition), as in the CLI.
                ed = resolve_editions(doc, ctx.editions_dir, None)
                base, cur, mapper, info, cur_label = ed.base, ed.current, ed.map_number, ed.info, ed.current_label
            else:
                # Without the archive the reference is both base and current: numbers hold as they are.
                base, cur, mapper, cur_label = ctx.reference, ctx.reference, (lambda n: n), ctx.reference.meta.effective_date
                info = {"label": cur_label, "how": "only the reference edition is available (no mirror of editions)",
                        "range": None}
        except CrpipeError as e:
            ctx.skip("align", f"{name}: {e.message}")
            continue
        ctx.current_edition = cur_label
        res = align_documents(doc, base, cur, map_number=mapper, base_info=info, current_label=cur_label,
                              termbase=tb, cards=cards, editions_dir=ctx.editions_dir)
        stem = f"align-{doc.meta.language}-{name}"
        ctx.write(f"{stem}.json", render_json(res))
        ctx.write(f"{stem}.html", render_html(res))
        ctx.write(f"{stem}.csv", render_csv(res))
        ctx.write(f"{stem}.xlf", render_xliff(res))
