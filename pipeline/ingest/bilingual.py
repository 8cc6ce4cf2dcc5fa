"""Bilingual translator files: gettext PO/POT and XLIFF 1.2/2.0, read with translate-toolkit.

This is how translation teams hold a translation (a translation platform or CAT tool exports
PO or XLIFF), not as a finished text.  Each *unit* pairs an English paragraph (``source``)
with its translation (``target``, empty when untranslated), and keeps the id and location a
translator finds it by in their tool.

XML is refused when it carries a DTD or entity declarations (external entities reach the
network or the disk; nested ones are "billion laughs" bombs), and it is checked by lxml with
entity resolution and network access off before translate-toolkit sees it.
"""

from __future__ import annotations

import codecs
import enum
import re
from enum import StrEnum
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from ..errors import InputError
from ..profiles import OFFICIAL_LANG, PROFILES
from ..language import detect_language

_XML_DECL = re.compile(rb"<!(?:DOCTYPE|ENTITY)", re.I)
_PO_HINT = re.compile(rb'^\s*(?:#.*\n\s*)*msg(?:ctxt|id)\s+"', re.M)
_PO_CHARSET = re.compile(rb'"Content-Type:[^"\n]*?charset=([A-Za-z0-9_.:-]+)')


class UnitState(str, enum.Enum):
    """A unit's state as the translator's tool marks it."""

    TRANSLATED = "translated"
    NEEDS_REVIEW = "needs-review"  # PO fuzzy, XLIFF needs-review-* / 2.0 initial with a target
    UNTRANSLATED = "untranslated"


@dataclass(frozen=True)
class Unit:
    """One translatable paragraph of a bilingual file."""

    id: str  # the tool's id: XLIFF unit id, PO msgctxt+msgid
    location: str  # where a translator finds it: "file.po:123" (the msgid's line) or "file.xlf#id"
    source: str
    target: str
    state: UnitState
    order: int
    notes: str = ""

    @property
    def translated(self) -> bool:
        return bool(self.target.strip()) and self.state is not UnitState.UNTRANSLATED


class BilingualFormat(StrEnum):
    """The bilingual formats read."""

    PO = "po"
    XLIFF_12 = "xliff-1.2"
    XLIFF_20 = "xliff-2.0"


@dataclass
class BilingualFile:
    path: str
    format: BilingualFormat
    source_lang: str | None
    target_lang: str | None  # the language code as the file states it ("pt_BR")
    units: list[Unit] = field(default_factory=list)

    @property
    def translated(self) -> list[Unit]:
        return [u for u in self.units if u.translated]


def sniff(data: bytes, name: str = "") -> str | None:
    """``po`` or ``xliff`` when ``data`` is a bilingual file, else None."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    low = name.lower()
    if low.endswith((".po", ".pot")) or (_PO_HINT.search(data[:4096]) and b"msgstr" in data[:65536]):
        return "po"
    if head.startswith(b"<") and re.search(rb"<(?:\w+:)?xliff\b", data[:4096]):
        return "xliff"
    if low.endswith((".xlf", ".xliff")):
        return "xliff"
    return None


def _lang_code(code: str | None) -> str | None:
    """``pt_BR`` / ``pt-BR`` -> ``pt``."""
    if not code:
        return None
    return re.split(r"[-_@.]", code.strip())[0].lower() or None


def _safe_xml(data: bytes, path: Path):
    if _XML_DECL.search(data[:1 << 20]) or _XML_DECL.search(data):
        raise InputError("XML with a DTD or entity declarations is refused (external entities and "
                         "entity expansion are a security risk; export the XLIFF without a DOCTYPE)", path)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        return etree.fromstring(data, parser)
    except etree.XMLSyntaxError as e:
        raise InputError(f"not well-formed XML: {e}", path) from None


def _po_as_utf8(data: bytes, path: Path) -> bytes:
    """A PO file in UTF-8, whatever charset its header declares.

    translate-toolkit 3.20 reads the header's charset and restarts its parser with it, but keeps
    decoding as UTF-8, so a PO declaring ``charset=ISO-8859-1`` was refused as bad UTF-8.  The
    file is decoded here in its declared charset and handed over as UTF-8, its header saying so
    (the charset's name is replaced in the bytes: the charsets a header can declare in ASCII
    are ASCII-compatible)."""
    m = _PO_CHARSET.search(data[:1 << 16])
    if m is None:
        return data
    declared = m.group(1).decode("ascii")
    if declared.upper() == "CHARSET":  # the placeholder of a POT template: UTF-8 by convention
        return data
    try:
        codec = codecs.lookup(declared).name
    except LookupError:
        raise InputError(f"the PO header declares charset {declared!r}, which is not a known encoding", path) from None
    # The header's charset name is replaced in the bytes, before decoding: it is ASCII, as is the
    # text around it in every charset a header can declare in ASCII.
    raw = data if codec == "utf-8" else data[:m.start(1)] + b"UTF-8" + data[m.end(1):]
    try:
        # Checked for UTF-8 too: the toolkit would fall back to ISO-8859-1 when a byte before the
        # header's end is not UTF-8, and refuse the file when one after it is not.
        text = raw.decode(codec)
    except UnicodeDecodeError as e:
        at = e.start if e.start < m.start(1) else e.start - len(raw) + len(data)  # a byte of the file as given
        raise InputError(f"not {declared} text, as its header declares (byte {at})", path) from None
    return data if codec == "utf-8" else text.encode("utf-8")


def _state_of(u, fmt: BilingualFormat) -> UnitState:
    if not (u.target or "").strip():
        return UnitState.UNTRANSLATED
    if u.isfuzzy() or (fmt != BilingualFormat.PO and hasattr(u, "isreview") and u.isreview()):
        return UnitState.NEEDS_REVIEW
    return UnitState.TRANSLATED


def read_bilingual(data: bytes, path: str | Path) -> BilingualFile:
    """Units of a PO/POT or XLIFF 1.2/2.0 file, in file order.

    Raises :class:`InputError` (one line naming the file) for a syntax error, an XLIFF with
    a DTD or entities, or a file with no translatable unit."""
    p = Path(path)
    kind = sniff(data, p.name)
    if kind == "po":
        from translate.storage import pypo  # translate-toolkit is heavy: loaded only for a bilingual file

        try:
            store = pypo.pofile.parsestring(_po_as_utf8(data, p))
        except Exception as e:  # translate-toolkit raises its own PoParseError, ValueError, UnicodeError
            raise InputError(f"PO syntax error: {e}", p) from None
        fmt = BilingualFormat.PO
        tgt_lang = store.gettargetlanguage()
        src_lang = store.getsourcelanguage() or "en"
        units_raw = [u for u in store.units if not u.isheader() and not u.isobsolete()]

        def loc(u):
            return f"{p.name}:{u.line_number}" if getattr(u, "line_number", None) is not None else p.name
    elif kind == "xliff":
        root = _safe_xml(data, p)
        version = root.get("version") or ""
        try:
            if version.startswith("2"):
                from translate.storage import xliff2  # heavy, as above

                store, fmt = xliff2.Xliff2File.parsestring(data), BilingualFormat.XLIFF_20
            else:
                from translate.storage import xliff  # heavy, as above

                store, fmt = xliff.xlifffile.parsestring(data), BilingualFormat.XLIFF_12
        except Exception as e:
            raise InputError(f"XLIFF could not be read: {e}", p) from None
        tgt_lang = store.gettargetlanguage()
        src_lang = store.getsourcelanguage() or "en"
        units_raw = [u for u in store.units if not u.isheader()]

        def loc(u):
            # translate-toolkit's getid() prefixes the file name; the translator's tool shows the unit id.
            el = u.getunitelement() if hasattr(u, "getunitelement") else getattr(u, "xmlelement", None)
            uid = el.get("id") if el is not None and el.get("id") else str(u.getid()).split("\x04")[-1]
            return f"{p.name}#{uid}"
    else:
        raise InputError("not a bilingual file (PO/POT or XLIFF)", p)
    units = []
    for i, u in enumerate(units_raw):
        src = str(u.source or "")
        if not src.strip():
            continue
        notes = ""
        try:
            notes = u.getnotes() or ""
        except Exception:  # some unit classes only hold notes on the element; the notes are optional
            notes = ""
        units.append(Unit(str(u.getid()), loc(u), src, str(u.target or ""), _state_of(u, fmt), i, notes))
    if not units:
        raise InputError("no translatable unit in this file", p)
    if _lang_code(src_lang) not in (None, OFFICIAL_LANG):
        raise InputError(f"the source language is {src_lang!r}; the Comprehensive Rules are translated from English", p)
    return BilingualFile(str(p), fmt, src_lang, tgt_lang, units)


def target_language(bf: BilingualFile, lang: str | None, path: str | Path) -> str:
    """The language of the translation: ``lang`` when given, else the file's declared language,
    else identified from the translated text (``unknown`` when it cannot be).  A language without
    a profile is aligned with the checks that need none; English is bad input (nothing translated)."""

    code = lang or _lang_code(bf.target_lang)
    how = "given" if lang else "declared by the file"
    if code is None:
        code, reason = detect_language("\n".join(u.target for u in bf.translated[:400]))
        how = f"identified: {reason}"
    if code == OFFICIAL_LANG:
        raise InputError(f"the translation's language is {code!r} ({how}): the file holds no translation", path)
    if code is not None and code not in PROFILES and not re.fullmatch(r"[a-z]{2,3}", code):
        raise InputError(f"not a language code: {code!r} ({how})", path)
    return code or "unknown"
