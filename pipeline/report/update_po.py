"""The update as a gettext PO (translate-toolkit writes it): one entry per rule, msgid = the
current English, msgstr = the existing translation, ``fuzzy`` when the English changed since
the base edition (the old English is the entry's previous msgid, ``#| msgid``, as gettext's
msgmerge writes it, so PO editors show the English diff), findings as extracted comments,
the bilingual file's unit locations as references.  Untranslated and new rules have an
empty msgstr; rules the current edition removed are obsolete entries (``#~``)."""

from __future__ import annotations


def render_update_po(result) -> bytes:
    if getattr(result, "unit_update", None) is not None:
        # A bilingual input: the team's own units, updated one by one (pipeline/report/update_units.py).
        from .update_units import render_units_po  # only a bilingual input needs it

        return render_units_po(result.unit_update)
    from translate.storage import pypo  # translate-toolkit is heavy: loaded only to write an update PO

    store = pypo.pofile()
    lang = result.translation.get("language") or ""
    store.updateheader(add=True, Language=lang, Content_Type="text/plain; charset=UTF-8",
                       X_Generator="crpipe", X_Crpipe_Base_Edition=str(result.base_edition.label),
                       X_Crpipe_Current_Edition=str(result.current_edition))
    seen: set[str] = set()

    def add(ctx: str, source: str, target: str, comments: list[str], locations: list[str], fuzzy: bool = False,
            previous: str | None = None, obsolete: bool = False):
        if not source.strip() or ctx in seen:
            return
        seen.add(ctx)
        u = store.addsourceunit(source)
        u.setcontext(ctx)
        if target:
            u.target = target
        for c in comments:
            u.addnote(c, origin="developer")
        for loc in locations:
            u.addlocation(loc.replace(" ", "_"))
        if previous is not None:
            u.prev_source = previous
        if fuzzy and target:
            u.markfuzzy(True)
        if obsolete:
            u.makeobsolete()

    for row in result.rows:
        locs = [x["location"] for x in row.units]
        notes = [f"{i.severity} {i.check}: {i.message}" for i in row.issues]
        if row.id is None:
            add(row.current_id or row.base_id, row.current or row.source, "", notes, locs)
            continue
        if row.base_id and not row.current_id and not row.current:
            add(row.id, row.source, row.target, [f"removed: not in the current edition {result.current_edition}"]
                + notes, locs, obsolete=True)
            continue
        changed = row.english_changed
        if changed:
            notes.insert(0, f"English changed since {result.base_edition.label}"
                         + (f" (was {row.base_id})" if row.base_id != row.current_id else ""))
        add(row.id, row.current or row.source, row.target, notes, locs, fuzzy=changed,
            previous=row.source if changed else None)
    for n in (result.update or {}).get("untranslated", []):
        add(n["current_id"] or n["base_id"], n["text"], "", [], [])
    for n in (result.update or {}).get("new", []):
        add(n["current_id"], n["text"], "", [f"new in the current edition {result.current_edition}"], [])
    return bytes(store)
