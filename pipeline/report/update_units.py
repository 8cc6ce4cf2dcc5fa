"""The update file of a bilingual input, written unit by unit (:mod:`pipeline.align.unit_update`).

The input file itself is re-read and changed in place, so what the team's platform put there
stays: the PO header, comments, flags, locations and msgctxt (none if it had none), the XLIFF
ids, notes and attributes, the order of the units.  Per unit: the English becomes the current
edition's paragraph; a carried translation whose English changed is ``fuzzy`` with the previous
English (``#| msgid``, as msgmerge writes it; XLIFF 2.0: ``state="initial"`` with the target and a
``crpipe-old-source`` note); references to renumbered rules are pre-applied in it and a
translator comment says which; units of paragraphs the current edition removed become obsolete
(``#~``; XLIFF: ``translate="no"`` and a note) at the end of a PO, as msgmerge puts them;
paragraphs new in the current edition are added, empty, after the unit of the paragraph before
them.  A unit whose English did not change is not touched.

A PO written from an XLIFF input (or the reverse) cannot keep the other format's header: the
PO gets a minimal header and each unit's XLIFF id as msgctxt; the XLIFF 2.0 from a PO gets the
units in order with ids ``u1``, ``u2`` … (or the msgctxt when the PO has one) and the PO
comments as notes.
"""

from __future__ import annotations

import re

from lxml import etree

from ..align.unit_update import NewUnit, UnitChange, UnitFate, UnitUpdate
from ..ingest.bilingual import BilingualFormat, UnitState, _safe_xml

NS2 = "urn:oasis:names:tc:xliff:document:2.0"
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
_LONG_MSGID = re.compile(rb'^msgid "[^\n]{78,}"', re.M)


def _renumber_note(c) -> str:
    moved = ", ".join(f"{a} → {b}" for a, b in c.renumbered)
    return f"crpipe: renumbered in the current edition: {moved} (pre-applied in this translation; check it)"


def _clean(s: str) -> str:
    # XML 1.0 forbids most control characters; a damaged paste may hold them.
    return "".join(ch for ch in s if ch in "\t\n\r" or ord(ch) >= 0x20)


# -- PO ------------------------------------------------------------------------------------------

def _po_store(data: bytes):
    from translate.storage import pypo  # translate-toolkit is heavy: loaded only to write an update

    # A team file with unwrapped msgids (Crowdin writes each paragraph on one line) keeps that
    # style in the units the update changes; a wrapped one keeps gettext's 77 columns.
    width = 1 << 20 if _LONG_MSGID.search(data) else None
    store = pypo.pofile(width=width)
    store.parse(data)
    return store


def _apply_po(pu, c: UnitChange, unit, current_label) -> None:
    if c.fate is UnitFate.CHANGED:
        pu.source = c.source
        if unit.translated:
            if not pu.prev_source:  # already fuzzy against an older English: keep that one
                pu.prev_source = c.previous
            if c.target != pu.target:
                pu.target = c.target
            pu.markfuzzy(True)
            if c.renumbered:
                pu.addnote(_renumber_note(c), origin="translator")
    elif c.fate in (UnitFate.REMOVED, UnitFate.MERGED):
        pu.addnote(f"crpipe: {c.note}", origin="translator")
        pu.makeobsolete()


def _new_po(store, n: NewUnit):
    pu = store.create_unit()
    pu.source = n.source
    if n.target:
        pu.target = n.target
        pu.prev_source = n.previous
        pu.markfuzzy(True)
        pu.addnote("crpipe: new paragraph; the suggestion is the translation of the same English "
                   "elsewhere in the base edition", origin="translator")
    return pu


def _obsolete_apart(body, obsolete) -> None:
    """An obsolete entry with the msgid (and msgctxt) of a live one is a duplicate definition to
    msgfmt; such an entry (the removed paragraph's English returned elsewhere) gets a msgctxt of
    its own so the file stays valid and the old translation stays in it."""
    live = {(u.getcontext(), u.source) for u in body}
    for u in obsolete:
        if (u.getcontext(), u.source) in live:
            u.setcontext(((u.getcontext() + " ") if u.getcontext() else "") + "crpipe-obsolete")


def _render_po_inplace(uu: UnitUpdate) -> bytes:
    store = _po_store(uu.data)
    live = [u for u in store.units if not u.isheader() and not u.isobsolete()]
    change_of = {uu.file.units[c.index].order: c for c in uu.changes}
    pos_of = {uu.file.units[c.index].order: c.index for c in uu.changes}
    after: dict[int, list[NewUnit]] = {}
    for n in uu.new:
        after.setdefault(n.after, []).append(n)
    head = [u for u in store.units if u.isheader()]
    body, obsolete = [], [u for u in store.units if u.isobsolete()]
    body += [_new_po(store, n) for n in after.get(-1, [])]
    for order, pu in enumerate(live):
        c = change_of.get(order)
        if c is not None:
            _apply_po(pu, c, uu.file.units[c.index], uu.current_label)
        (obsolete if pu.isobsolete() else body).append(pu)
        if order in pos_of:
            body += [_new_po(store, n) for n in after.get(pos_of[order], [])]
    _obsolete_apart(body, obsolete)
    store.units = head + body + obsolete
    out = bytes(store)
    # translate-toolkit ends the file with one newline; keep the input's own ending.
    tail = len(uu.data) - len(uu.data.rstrip(b"\r\n"))
    return out.rstrip(b"\r\n") + (uu.data[-tail:] if tail else b"\n")


def _render_po_fresh(uu: UnitUpdate) -> bytes:
    from translate.storage import pypo  # heavy, as above

    store = pypo.pofile()
    # A header of fixed fields: translate-toolkit's own would stamp the time (same input, same bytes).
    head = store.create_unit()
    head.source = ""
    head.target = (f"Language: {uu.file.target_lang or ''}\nMIME-Version: 1.0\n"
                   "Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n")
    store.units = [head]
    after: dict[int, list[NewUnit]] = {}
    for n in uu.new:
        after.setdefault(n.after, []).append(n)
    body, obsolete = [_new_po(store, n) for n in after.get(-1, [])], []
    for c in uu.changes:
        u = uu.file.units[c.index]
        pu = store.create_unit()
        pu.source = u.source
        pu.setcontext(u.location.rsplit("#", 1)[-1])  # the XLIFF id: how the team finds the unit
        if u.target:
            pu.target = u.target
        if u.notes:
            pu.addnote(u.notes, origin="developer")
        if u.state is UnitState.NEEDS_REVIEW:
            pu.markfuzzy(True)
        _apply_po(pu, c, u, uu.current_label)
        (obsolete if pu.isobsolete() else body).append(pu)
        body += [_new_po(store, n) for n in after.get(c.index, [])]
    _obsolete_apart(body, obsolete)
    store.units = store.units[:1] + body + obsolete
    return bytes(store)


def render_units_po(uu: UnitUpdate) -> bytes:
    return _render_po_inplace(uu) if uu.file.format == BilingualFormat.PO else _render_po_fresh(uu)


# -- XLIFF 2.0 -------------------------------------------------------------------------------------

def _q(tag: str) -> str:
    return f"{{{NS2}}}{tag}"


def _add_note(unit_el, category: str, text: str, priority: str = "5") -> None:
    notes = unit_el.find(_q("notes"))
    if notes is None:
        notes = etree.Element(_q("notes"))
        # XLIFF 2.0 core order: notes before originalData and the segments.
        anchor = next((ch for ch in unit_el if ch.tag in (_q("originalData"), _q("segment"), _q("ignorable"))), None)
        if anchor is None:
            unit_el.append(notes)
        else:
            anchor.addprevious(notes)
            notes.tail = unit_el.text  # the file's own indentation before its segment
    n = etree.SubElement(notes, _q("note"))
    n.set("category", category)
    n.set("priority", priority)
    n.text = _clean(text)


def _set_text(seg, tag: str, text: str) -> None:
    el = seg.find(_q(tag))
    if el is None:
        el = etree.SubElement(seg, _q(tag))
        el.set(_XML_SPACE, "preserve")
    for ch in list(el):  # inline markup of the old English does not fit the new one
        el.remove(ch)
    el.text = _clean(text)


def _apply_xliff(unit_el, c: UnitChange, unit, previous_note: bool = True) -> None:
    seg = unit_el.find(_q("segment"))
    if seg is None:
        return
    if c.fate is UnitFate.CHANGED:
        _set_text(seg, "source", c.source)
        if unit.translated:
            if c.target != unit.target:
                _set_text(seg, "target", c.target)
            seg.set("state", "initial")  # with a target: to review (what translate-toolkit calls fuzzy)
            if previous_note:
                _add_note(unit_el, "crpipe-old-source", f"English the translation was made from: {c.previous}", "9")
            if c.renumbered:
                _add_note(unit_el, "crpipe-renumbered", _renumber_note(c), "5")
    elif c.fate in (UnitFate.REMOVED, UnitFate.MERGED):
        unit_el.set("translate", "no")
        _add_note(unit_el, "crpipe-obsolete", c.note, "1")


def _new_xliff(parent_tag_ns: str, uid: str, n: NewUnit):
    u = etree.Element(f"{{{parent_tag_ns}}}unit")
    u.set("id", uid)
    if n.target:
        notes = etree.SubElement(u, f"{{{parent_tag_ns}}}notes")
        note = etree.SubElement(notes, f"{{{parent_tag_ns}}}note")
        note.set("category", "crpipe-suggestion")
        note.set("priority", "9")
        note.text = _clean("new paragraph; the suggestion is the translation of the same English elsewhere "
                           f"in the base edition: {n.previous}")
    seg = etree.SubElement(u, f"{{{parent_tag_ns}}}segment")
    seg.set("state", "initial")
    src = etree.SubElement(seg, f"{{{parent_tag_ns}}}source")
    src.set(_XML_SPACE, "preserve")
    src.text = _clean(n.source)
    if n.target:
        tgt = etree.SubElement(seg, f"{{{parent_tag_ns}}}target")
        tgt.set(_XML_SPACE, "preserve")
        tgt.text = _clean(n.target)
    return u


def _unique(uid: str, seen: set[str]) -> str:
    base_uid, k = uid, 2
    while uid in seen:
        uid, k = f"{base_uid}-{k}", k + 1
    seen.add(uid)
    return uid


def _render_xliff_inplace(uu: UnitUpdate) -> bytes:
    root = _safe_xml(uu.data, uu.file.path)
    units = {el.get("id"): el for el in root.iter(_q("unit"))}
    seen = set(units)
    ids = [_unique(f"crpipe-new-{k}", seen) for k in range(1, len(uu.new) + 1)]  # in document order
    after: dict[int, list[tuple[str, NewUnit]]] = {}
    for uid, n in zip(ids, uu.new):
        after.setdefault(n.after, []).append((uid, n))
    el_of: dict[int, object] = {}
    for c in uu.changes:
        u = uu.file.units[c.index]
        el = units.get(u.location.rsplit("#", 1)[-1])
        if el is not None:
            el_of[c.index] = el
            _apply_xliff(el, c, u)
    for idx, group in after.items():
        anchor = el_of.get(idx) if idx != -1 else None
        first = next(iter(el_of.values()), None) if idx == -1 else None
        if anchor is None and first is None:
            continue
        for uid, n in group:
            el = _new_xliff(NS2, uid, n)
            if first is not None:
                el.tail = first.getprevious().tail if first.getprevious() is not None else first.getparent().text
                first.addprevious(el)
            else:
                el.tail = anchor.tail  # the indentation of the file's own units
                anchor.addnext(el)
                anchor = el
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8") + b"\n"


def _render_xliff_fresh(uu: UnitUpdate) -> bytes:
    bf = uu.file
    root = etree.Element(_q("xliff"), nsmap={None: NS2})
    root.set("version", "2.0")
    root.set("srcLang", "en")
    root.set("trgLang", (bf.target_lang or "und").replace("_", "-"))
    f = etree.SubElement(root, _q("file"))
    f.set("id", "f1")
    f.set("original", bf.path.rsplit("/", 1)[-1])
    seen: set[str] = set()
    n_new = 0
    after: dict[int, list[NewUnit]] = {}
    for n in uu.new:
        after.setdefault(n.after, []).append(n)

    def add_new(idx: int) -> None:
        nonlocal n_new
        for n in after.get(idx, []):
            n_new += 1
            f.append(_new_xliff(NS2, _unique(f"crpipe-new-{n_new}", seen), n))

    add_new(-1)
    for c in uu.changes:
        u = bf.units[c.index]
        if bf.format == BilingualFormat.PO:
            ctx = u.id.split("\x04")[0] if "\x04" in u.id else ""
            uid = ctx if ctx and re.fullmatch(r"[\w.\-]+", ctx) else f"u{c.index + 1}"
        else:
            uid = u.location.rsplit("#", 1)[-1]
        el = etree.SubElement(f, _q("unit"))
        el.set("id", _unique(uid, seen))
        el.set("name", u.location)
        if u.notes:
            _add_note(el, "comment", u.notes)
        seg = etree.SubElement(el, _q("segment"))
        seg.set("state", "initial" if not u.translated or u.state is UnitState.NEEDS_REVIEW else "translated")
        _set_text(seg, "source", u.source)
        if u.target:
            _set_text(seg, "target", u.target)
        _apply_xliff(el, c, u)
        add_new(c.index)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def render_units_xliff(uu: UnitUpdate) -> bytes:
    return _render_xliff_inplace(uu) if uu.file.format == BilingualFormat.XLIFF_20 else _render_xliff_fresh(uu)
