"""The build stage: for each translation, what changed in English between the edition it
was translated from (its base edition) and the current edition (the newest available, as
the alignment's "rules to update" read it).

The base edition is the one the build's editions step chose for the alignment too
(``ctx.editions``: :func:`pipeline.editions.resolve_editions`, over issue 3's base-edition
inference), so the diff lists the English changes the translation has not caught up with.
Writes ``diff-<lang>-<name>.json`` / ``.md`` / ``.html`` into ``aligned/``.
"""

from __future__ import annotations

from .context import editions_for
from ..io import dumps
from .classify import diff_documents
from .report_html import render_html
from .report_md import render_markdown

STAGE = "edition diff"


def stage_diff(ctx) -> None:
    if not ctx.translations:
        ctx.skip(STAGE, "no translation was read, so there is no base edition to diff")
        return
    if ctx.reference is None:
        ctx.skip(STAGE, "no English reference edition")
        return
    if ctx.editions_dir is None:
        ctx.skip(STAGE, "the base edition of a translation is only known with a folder of editions "
                 "(--mirror DIR or CRPIPE_MIRROR)")
        return
    for name in sorted(ctx.translations):
        doc = ctx.translations[name]
        ed = editions_for(ctx, name)
        if ed is None:
            ctx.skip(STAGE, f"{name}: {ctx.edition_errors.get(name, 'no base edition')}")
            continue
        if ed.info.range is None or not ed.info.range.first:
            ctx.skip(STAGE, f"{name}: the base edition is unknown ({ed.info.how})")
            continue
        res = diff_documents(ed.base, ed.current)
        d = res.to_dict()
        d["translation"] = {"name": name, "language": doc.meta.language, "base_edition": ed.base_label,
                            "how": ed.info.how, "range": ed.info.to_dict()["range"]}
        stem = f"diff-{doc.meta.language}-{name}"
        ctx.write(f"{stem}.json", dumps(d))
        ctx.write(f"{stem}.md", render_markdown(res))
        ctx.write(f"{stem}.html", render_html(res))
