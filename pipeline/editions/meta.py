"""What an edition file says it is, without parsing it: its stated date and whether it is
complete.  Read by the catalog of editions and the diff's archive alike."""

from __future__ import annotations

import functools
from pathlib import Path

from ..errors import InputError
from ..codekey import code_key
from ..io import read_bounded


#: Version of what :func:`quick_meta` returns; cached results are named by it and this file.
META_VERSION = 1


@functools.lru_cache(maxsize=1)
def meta_key() -> str:
    """The cache key of :func:`quick_meta`'s results: its code and all it imports (the parser's
    date pattern and official-text test, the profile that holds the date pattern, …)."""
    return code_key(META_VERSION, quick_meta)


def read_edition(path: Path) -> tuple[bytes | None, str | None]:
    """An edition's bytes through the bounded reader, or None and why it cannot be read."""
    try:
        return read_bounded(path), None
    except InputError as e:
        return None, e.message


def quick_meta(data: bytes) -> dict:
    """Effective date and completeness without a full parse or encoding detection (a cold
    scan of 110 editions would otherwise decode each twice).  Only ASCII words are looked
    at, so latin-1 reads every single-byte encoding well enough; UTF-16 is recognised by
    its BOM or its NUL bytes.  Mirrors the parser's tests: the date line, and a Glossary
    and a Credits heading after the Contents list's own entries."""
    from ..segment.official import DATE_RE, _iso, looks_official  # noqa: PLC0415 - lazy: only a file not scanned before

    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or data[:200].count(b"\x00") > 50:
        le = data[:2] == b"\xff\xfe" or (data[:2] != b"\xfe\xff" and data[1:2] == b"\x00")
        text = data.decode("utf-16-le" if le else "utf-16-be", errors="replace").lstrip("\ufeff")
    else:
        text = data.decode("latin-1")
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # some editions end lines with a bare CR
    if not looks_official(text.lstrip("\ufeff\xef\xbb\xbf")):
        return {"error": "not an official Comprehensive Rules text"}
    m = DATE_RE.search(text)
    lines = [ln.strip() for ln in text.splitlines()]
    gloss = [i for i, ln in enumerate(lines) if ln == "Glossary"]
    credits = [i for i, ln in enumerate(lines) if ln == "Credits"]
    return {"effective_date": _iso(m.group("date")) if m else None,
            "truncated": not (len(gloss) >= 2 and bool(credits) and credits[-1] > gloss[-1])}
