"""XLIFF 2.0 (OASIS core) via lxml: one unit per rule, English source, translated target,
findings as notes, so a CAT tool opens the alignment with the QA results attached.

Unit ids are the translated rule ids (``601.2b``: a valid NMTOKEN); a missing rule gets
``missing-<base id>`` and an empty target.  Notes carry ``category`` (the check id) and
``priority`` (1 error, 5 warning, 9 info).
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


def render_xliff(result) -> bytes:
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
        uid = row.id if row.id else f"missing-{row.base_id}"
        base_uid, k = uid, 2
        while uid in seen:  # a duplicated rule number must still give unique ids
            uid, k = f"{base_uid}-{k}", k + 1
        seen.add(uid)
        u = etree.SubElement(f, _q("unit"))
        u.set("id", uid)
        u.set("name", row.id or row.base_id or uid)
        if row.issues:
            notes = etree.SubElement(u, _q("notes"))
            for i in row.issues:
                n = etree.SubElement(notes, _q("note"))
                n.set("category", i.check)
                n.set("priority", _PRIORITY.get(i.severity, "5"))
                text = i.message + (f" [{i.excerpt}]" if i.excerpt else "") + (f" → {i.suggestion}" if i.suggestion else "")
                n.text = _clean(text)
        seg = etree.SubElement(u, _q("segment"))
        seg.set("state", "translated" if row.id else "initial")
        src = etree.SubElement(seg, _q("source"))
        src.text = _clean(row.source)
        src.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
        if row.id:
            tgt = etree.SubElement(seg, _q("target"))
            tgt.text = _clean(row.target)
            tgt.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)
