"""What kind of document a file is, judged by its content (the name only breaks ties).

Formats: ``pdf`` (``%PDF-`` header), ``docx`` (a ZIP holding ``word/document.xml``),
``html`` (markup with html/body/p tags), and for text: ``txt`` (an official edition:
a title and a Contents list), ``markdown`` (a site's page: front matter, or rule numbers in
bold or behind an anchor), ``webcard`` (a "Regla N · Title" rule card) or ``paste`` (any
other rules text).
"""

from __future__ import annotations

import io
import re
import zipfile

from ..errors import InputError
from ..segment.official import looks_official
from ..segment.webcard import card_header
from ..decode import decode_bytes

FORMATS = ("txt", "paste", "webcard", "pdf", "docx", "html", "markdown")
_HTML = re.compile(rb"<(?:!doctype\s+html|html|body|p|div|article|section)\b", re.I)


def detect_format(data: bytes, name: str = "", lang: str | None = None) -> str:
    """The format of ``data``: one of :data:`FORMATS`.

    Raises :class:`InputError` for a binary that is none of them (or text in an encoding
    that cannot be told)."""
    fmt, _ = detect(data, name, lang)
    return fmt


def detect(data: bytes, name: str = "", lang: str | None = None):
    """``(format, decoded text or None)``: the text is decoded once, here, for text formats."""
    container = _container(data, name)
    if container != "text":
        return container, None
    dec = decode_bytes(data, name or None)
    return text_kind(dec.text, lang), dec


def _container(data: bytes, name: str) -> str:
    """pdf, docx, html, or text."""
    head = data[:2048]
    if head.lstrip(b"\xef\xbb\xbf \t\r\n")[:5] == b"%PDF-":
        return "pdf"
    if head[:4] == b"PK\x03\x04":
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as zf:
                names = set(zf.namelist())
        except zipfile.BadZipFile:
            raise InputError("damaged ZIP archive (not a readable DOCX)", name) from None
        if "word/document.xml" in names:
            return "docx"
        raise InputError("a ZIP archive without word/document.xml: not a DOCX document", name)
    if head[:4] in (b"\xd0\xcf\x11\xe0",):
        raise InputError("an old binary Word/Office file (.doc); save it as DOCX or PDF", name)
    if _HTML.search(data[:65536]) and b"</" in data[:200_000]:
        return "html"
    if name.lower().endswith(".pdf"):
        raise InputError("named .pdf but it is not a PDF (no %PDF- header)", name)
    if name.lower().endswith(".docx"):
        raise InputError("named .docx but it is not a DOCX (not a ZIP archive)", name)
    return "text"


def text_kind(text: str, lang: str | None = None) -> str:
    """``txt`` (official layout), ``markdown`` (a site's page), ``webcard`` or ``paste`` for decoded text."""
    from .pages import looks_markdown  # noqa: PLC0415 - lazy (YAML for front matter)

    if looks_official(text):
        return "txt"
    if looks_markdown(text):
        return "markdown"
    if card_header(text, lang) is not None:
        return "webcard"
    return "paste"
