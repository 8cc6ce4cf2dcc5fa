"""XLIFF 2.0 (OASIS core) via lxml for the *update*: one unit per rule, source = the current
English, target = the existing translation, so a CAT tool drives the update.

A translated rule whose English changed between the base and the current edition (text,
examples or number) is ``state="needs-review"`` with the old English in a note
(``category="old-source"``); an unchanged one stays ``translated``.  Untranslated and new
rules are ``initial`` without a target; rules the current edition removed get a unit
``removed-<base id>`` (state ``final``, no target; a note says so).  Rules a bilingual file holds
untranslated are ``todo-<current id>`` units (``initial``, the current English).  Findings are notes with
``category`` (the check id) and ``priority`` (1 error, 5 warning, 9 info).  Unit ids are the
translated rule ids (``601.2b``: a valid NMTOKEN), ``missing-<base id>``, ``new-<current id>``.
"""

from __future__ import annotations

from lxml import etree

NS = "urn:oasis:names:tc:xliff:document:2.0"
_PRIORITY = {"error": "1", "warning": "5", "info": "9"}


def _q(tag: str) -> str:
    return f"{{{NS}}}{tag}"


def _clean(s: str) -> str:
    # XML 1.0 forbids most control characters; a damaged paste may hold them.
    return "".join(ch for ch in s if ch in "\t\n\r" or ord(ch) >= 0x20)


def _unique(uid: str, seen: set[str]) -> str:
    base_uid, k = uid, 2
    while uid in seen:  # a duplicated rule number must still give unique ids
        uid, k = f"{base_uid}-{k}", k + 1
    seen.add(uid)
    return uid


def _unit(f, uid: str, name: str, notes: list[tuple[str, str, str]], source: str, target: str | None, state: str):
    u = etree.SubElement(f, _q("unit"))
    u.set("id", uid)
    u.set("name", name)
    if notes:  # XLIFF 2.0 core order: notes before segments
        el = etree.SubElement(u, _q("notes"))
        for category, priority, text in notes:
            n = etree.SubElement(el, _q("note"))
            n.set("category", category)
            n.set("priority", priority)
            n.text = _clean(text)
    seg = etree.SubElement(u, _q("segment"))
    seg.set("state", state)
    src = etree.SubElement(seg, _q("source"))
    src.text = _clean(source)
    src.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    if target is not None:
        tgt = etree.SubElement(seg, _q("target"))
        tgt.text = _clean(target)
        tgt.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")


def render_xliff(result) -> bytes:
    if getattr(result, "unit_update", None) is not None:
        # A bilingual input: the team's own units, updated one by one (pipeline/report/update_units.py).
        from .update_units import render_units_xliff  # only a bilingual input needs it

        return render_units_xliff(result.unit_update)
    lang = result.translation.get("language") or "und"
    root = etree.Element(_q("xliff"), nsmap={None: NS})
    root.set("version", "2.0")
    root.set("srcLang", "en")
    root.set("trgLang", lang)
    f = etree.SubElement(root, _q("file"))
    f.set("id", "f1")
    f.set("original", result.translation.get("name") or "translation")
    seen: set[str] = set()
    for row in result.rows:
        uid = _unique(row.id if row.id else f"missing-{row.base_id}", seen)
        changed = bool(row.id) and row.english_changed
        removed = bool(row.id) and row.base_id is not None and not row.current_id and row.current == ""
        note_items = []
        if changed and not removed:
            note_items.append(("old-source", "9", f"English of the base edition {result.base_edition.label}"
                               f" ({row.base_id}): {row.source}"))
        if removed:
            note_items.append(("removed", "1", f"rule {row.base_id} is not in the current edition {result.current_edition}"))
        note_items += [(i.check, _PRIORITY.get(i.severity, "5"), i.message + (f" [{i.excerpt}]" if i.excerpt else "")
                        + (f" → {i.suggestion}" if i.suggestion else "")) for i in row.issues]
        _unit(f, uid, row.id or row.base_id or uid, note_items,
              row.current if (row.current and not removed) else row.source,
              row.target if row.id else None,
              "initial" if not row.id else ("needs-review" if changed or removed else "translated"))
    for n in (result.update or {}).get("untranslated", []):
        _unit(f, _unique(f"todo-{n['current_id'] or n['base_id']}", seen), n["current_id"] or n["base_id"],
              [], n["text"], None, "initial")
    for n in (result.update or {}).get("new", []):
        _unit(f, _unique(f"new-{n['current_id']}", seen), n["current_id"],
              [("new", "5", f"new in the current edition {result.current_edition}")], n["text"], None, "initial")
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)
