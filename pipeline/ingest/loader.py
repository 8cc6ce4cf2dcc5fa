"""One entry point from a file to a :class:`~pipeline.model.Document`.

Format and language are detected from content; ``fmt`` and ``lang`` override.  Each
format reader (a *filter*, in Okapi's terms) turns bytes into text or into the model;
segmentation steps are shared:

- ``pdf``, ``docx``: the reader rebuilds the edition's text, the official parser reads it;
- ``html``: paragraphs of the page, then the official parser or the paste segmenter;
- text: ``txt`` (official layout), ``webcard`` (a rules viewer's card) or ``paste``.

Bad input of any kind ends in one :class:`InputError` naming the file, before anything
is written; work is bounded by :data:`MAX_INPUT_BYTES`.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Callable

from ..editions.base import declared_edition, infer_base_edition
from ..errors import InputError
from ..io import DEFAULT_MAX_INPUT_MB, read_bounded
from ..model import Document, Finding
from ..profiles import PROFILES
from ..segment.official import looks_official, parse_text
from ..decode import decode_bytes
from .detect import FORMATS, detect
from ..language import detect_language

#: A BCP 47-shaped language code ("ru", "zh-Hans", "pt-BR").
LANG_CODE = re.compile(r"[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*")

#: The default limit (``$CRPIPE_MAX_INPUT_MB`` is read at each call of :func:`read_bounded`).
MAX_INPUT_BYTES = DEFAULT_MAX_INPUT_MB << 20


#: Format filters that turn the bytes into the model themselves: ``(data, path, lang) -> Document``.
#: The text formats (``txt``, ``webcard``, ``paste``) are decoded here and segmented in :func:`_from_text`.
#: Each is imported when first used: lxml and the PDF reader cost more than parsing a TXT edition.
def _read_pdf(data: bytes, p: Path, lang: str | None) -> Document:
    from .pdf import read_pdf  # noqa: PLC0415 - lazy (CLI start-up time)

    return read_pdf(data, p)


def _read_docx(data: bytes, p: Path, lang: str | None) -> Document:
    from .docx import read_docx  # noqa: PLC0415 - lazy (lxml)

    return read_docx(data, p)


def _read_html(data: bytes, p: Path, lang: str | None) -> Document:
    from .html import read_html  # noqa: PLC0415 - lazy (lxml)

    return read_html(data, p, lang)


def _read_markdown(data: bytes, p: Path, lang: str | None) -> Document:
    from .pages import read_markdown  # noqa: PLC0415 - lazy (markdown-it, lxml)

    return read_markdown(data, p, lang)


READERS: dict[str, Callable[[bytes, Path, str | None], Document]] = {
    "pdf": _read_pdf,
    "docx": _read_docx,
    "html": _read_html,
    "markdown": _read_markdown,
}


def load_document(path: str | Path, lang: str | None = None, fmt: str | None = None,
                  editions_dir: str | Path | None = None) -> Document:
    """Read any supported rules document into the model.

    ``lang``: en, pt, es (detected when None).  ``fmt``: one of :data:`FORMATS` (detected
    when None).  ``editions_dir``: a folder of English editions (``YYYY-MM-DD.txt``);
    when given, ``meta.base_edition`` holds the inferred base-edition range.
    """
    p = Path(path[0]) if isinstance(path, (list, tuple)) else Path(path)
    if fmt is not None and fmt not in FORMATS:
        raise InputError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})", p)
    if lang is not None and lang not in PROFILES and not LANG_CODE.fullmatch(lang):
        # A language without a profile is read too (aligned with the checks that need none);
        # what is refused is what cannot be a language code.
        raise InputError(f"not a language code: {lang!r} (a code such as ru, ko, zh-Hans; profiles: "
                         f"{', '.join(sorted(PROFILES))})", p)
    if p.is_dir() or isinstance(path, (list, tuple)):
        # A site's pages (one per section): one document, in page order.
        from .pages import order_pages, pages_of, read_pages  # noqa: PLC0415 - lazy

        if fmt not in (None, "markdown", "html"):
            raise InputError(f"a folder of pages is Markdown or HTML, not {fmt}", p)
        pages = pages_of(p) if p.is_dir() else order_pages([Path(x) for x in path], given=True)
        doc, data = read_pages(pages, lang, p)
        _finish(doc, p, data, lang, editions_dir)
        return doc
    data = read_bounded(p)
    dec = None
    if fmt is None:
        detected, dec = detect(data, str(p), lang)
    else:
        detected = fmt
    reader = READERS.get(detected)
    if reader is not None:
        doc = reader(data, p, lang)
    else:
        if dec is None:
            dec = decode_bytes(data, p)
        doc = _from_text(dec, detected, lang, p, data)
        for note in dec.notes:
            if not any(f.detail == note for f in doc.findings):
                doc.findings.append(Finding("encoding", note, "info"))
        doc.meta.encoding, doc.meta.line_endings = dec.encoding, dec.line_endings
    _finish(doc, p, data, lang, editions_dir)
    return doc


def _from_text(dec, kind: str, lang: str | None, p: Path, data: bytes) -> Document:
    if kind == "txt":
        if not looks_official(dec.text):
            raise InputError("not an official Comprehensive Rules text (no 'Comprehensive Rules' title and "
                             "'Contents' list); try --format paste", p)
        return parse_text(dec, source=p, data=data)  # the bytes already read: not read again for the checksum
    found, reason = detect_language(dec.text) if lang is None else (lang, "given")
    from ..segment.paste import segment_text  # lazy: its spelling lists cost more to import than an official parse (crpipe parse start-up)
    from ..segment.webcard import segment_card  # lazy: as the paste segmenter, only for text that is not an official edition

    if kind == "webcard":
        doc = segment_card(dec.text, found, source=str(p))
        if not doc.rules:
            raise InputError("no rule card header ('Rule N · Title', 'Regra N · …', 'Regla N · …') found", p)
    else:
        doc = segment_text(dec.text, found, source=str(p))
        if not doc.rules:
            raise InputError("no rules found: no rule number (such as 601.2b) starts a rule in this text", p)
    if lang is None:
        doc.findings.append(Finding("language" if found else "language-unknown",
                                    f"language {found or 'unknown'}: {reason}", "info" if found else "warning"))
    return doc


def _finish(doc: Document, p: Path, data: bytes, lang: str | None, editions_dir) -> None:
    doc.meta.source_file = str(p)
    doc.meta.source_name = p.name
    doc.meta.sha256 = hashlib.sha256(data).hexdigest()
    if lang:
        doc.meta.language = lang
    if editions_dir is not None:
        doc.meta.base_edition = infer_base_edition(doc, editions_dir)
    else:
        doc.meta.base_edition = declared_edition(doc)
