"""Decode rules text of unknown encoding without losing or garbling a character.

The CR archive holds UTF-8 (with and without BOM), UTF-16 LE/BE, ASCII, Windows-1252,
whole files in the DOS code page 437, one in Mac Roman, and Windows-1252 files with
stray CP437 bytes (``Dand\\x83n`` for Dandân).  A single-byte file decodes without error
under every single-byte code page, so the choice is made by plausibility: how many of
the decoded non-ASCII characters look like English typography or accented letters in
card names, and how many look like mojibake.  Stray bytes that are mojibake in the
chosen code page but a letter in CP437 are decoded as CP437 and reported.
"""

from __future__ import annotations

import codecs
import functools
import io
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from .errors import InputError
from .io import read_bounded

# Characters an English rules text really uses beyond ASCII: free.
_TYPOGRAPHY = set("’‘“”–—…•™®©°·×−") | {"\u00a0"}
# Single-byte code pages tried, in order of preference on a tie.
_SINGLE_BYTE = ("cp1252", "cp437", "mac_roman")
_BAD = 10.0
_RARE_LETTER = 0.5


@dataclass
class Decoded:
    text: str  # line endings normalised to \n, BOM removed
    encoding: str  # what was detected: ascii, utf-8, utf-8-sig, utf-16-le, cp1252, cp1252+cp437, …
    line_endings: str  # lf, crlf, cr, or mixed:<kinds>
    notes: list[str] = field(default_factory=list)  # e.g. stray bytes decoded as CP437
    #: ``(text, text.split("\n"))`` when decoding already had the lines (a CRLF file is split
    #: on its line endings, and the text is those lines joined): the parser then need not
    #: split again.  It holds the text it was made for, so a text replaced since is split anew.
    split: tuple[str, list[str]] | None = field(default=None, repr=False, compare=False)


def _char_cost(text: str, i: int) -> float:
    c = text[i]
    if c in _TYPOGRAPHY:
        prev = text[i - 1] if i else " "
        nxt = text[i + 1] if i + 1 < len(text) else " "
        # A no-break space inside a word is a mis-decoded letter (CP437 \xa0 is á).
        if c == "\u00a0" and prev.isalpha() and nxt.isalpha():
            return _BAD
        return 0.0
    cat = unicodedata.category(c)
    if cat in ("Lu", "Ll"):
        # Card names use Latin-1 letters (Dandân, Æther, Jötun); ƒ, Greek, etc. are mojibake.
        if not ("\u00c0" <= c <= "\u00ff") or c in "×÷":
            return _BAD
        prev = text[i - 1] if i else " "
        nxt = text[i + 1] if i + 1 < len(text) else " "
        # Accented letters sit inside ASCII words; runs of them, or a capital in the
        # middle of a lowercase word ("whoÆve"), are mojibake.
        if ord(prev) > 127 and prev.isalpha() or ord(nxt) > 127 and nxt.isalpha():
            return _BAD
        if cat == "Lu" and prev.isalpha() and prev.islower():
            return _BAD
        if not (prev.isalpha() or nxt.isalpha()):
            return _BAD
        return _RARE_LETTER
    return _BAD


_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f]")


# Typography costs nothing (except a no-break space, which depends on its neighbours): only
# the other non-ASCII characters need _char_cost.
_PRICED = re.compile("[^\x00-\x7f" + "".join(sorted(_TYPOGRAPHY - {"\u00a0"})) + "]")


def _line_endings(text: str) -> tuple[str, str]:
    crlf = text.count("\r\n")
    cr = text.count("\r") - crlf
    lf = text.count("\n") - crlf
    return text.replace("\r\n", "\n").replace("\r", "\n"), _endings_label(crlf, lf, cr)


def _endings_label(crlf: int, lf: int, cr: int) -> str:
    kinds = [k for k, n in (("crlf", crlf), ("lf", lf), ("cr", cr)) if n]
    return kinds[0] if len(kinds) == 1 else ("none" if not kinds else "mixed:" + "+".join(kinds))


#: The characters _CONTROL matches, as Latin-1 bytes (all of them are below U+0100).
_CONTROL_LATIN1 = bytes(range(0x00, 0x09)) + bytes(range(0x0e, 0x20)) + bytes(range(0x7f, 0xa0))


def _check_controls(text: str, path) -> None:
    # Counted on bytes: characters past U+00FF are dropped first (none is a control); a
    # regex scan of a whole edition took 1 ms.
    kept = text.encode("latin-1", "ignore")
    bad = len(kept) - len(kept.translate(None, _CONTROL_LATIN1))
    if "\x00" in text or bad > max(3, len(text) // 200):
        raise InputError("binary data, not a text document (control characters found)", path)


def _byte_table(enc: str, keep) -> bytes:
    """The bytes that ``enc`` decodes to a character ``keep`` accepts."""
    out = []
    for b in range(256):
        try:
            c = bytes([b]).decode(enc)
        except UnicodeDecodeError:
            continue
        if keep(c):
            out.append(b)
    return bytes(out)


# The single-byte readings are priced on the bytes: one byte is one character in these code
# pages, ASCII bytes read as ASCII in all of them, so a character's cost needs only its byte
# and the two beside it, and the text is decoded once, for the winner.
@functools.cache
def _tables(enc: str) -> tuple[re.Pattern | None, re.Pattern, bytes]:
    """For ``enc``: a pattern of the bytes it does not define (None if none), a pattern of the
    bytes whose character ``_PRICED`` matches, and the bytes whose character is a control."""
    def pattern(bs: bytes) -> re.Pattern:
        return re.compile(b"[" + b"".join(re.escape(bytes([b])) for b in bs) + b"]")

    undefined = bytes(sorted(set(range(256)) - set(_byte_table(enc, lambda c: True))))
    return (pattern(undefined) if undefined else None, pattern(_byte_table(enc, _PRICED.match)),
            _byte_table(enc, _CONTROL.match))


_HIGH_BYTES = bytes(range(0x80, 0x100))


def _byte_cost(data: bytes, enc: str, i: int, alt: str | None = None) -> float:
    """``_char_cost`` of byte ``i`` read as ``enc`` (or as the character ``alt``)."""
    lo = max(0, i - 1)
    window = data[lo : i + 2].decode(enc)
    if alt is not None:
        window = window[: i - lo] + alt + window[i - lo + 1 :]
    return _char_cost(window, i - lo)


def _bytes_cost(data: bytes, enc: str, limit: float, costs: list | None = None) -> float:
    """Implausibility of ``data`` read as ``enc``; stops once it reaches ``limit`` (that reading
    lost).  ``costs`` collects ``(offset, cost)`` of the priced bytes."""
    total = 0.0
    for m in _tables(enc)[1].finditer(data):
        c = _byte_cost(data, enc, m.start())
        if costs is not None:
            costs.append((m.start(), c))
        total += c
        if total >= limit:
            break
    return total


def _decode_single_byte(data: bytes, path) -> Decoded:
    best = None
    for enc in _SINGLE_BYTE:
        undefined = _tables(enc)[0]
        if undefined is not None and undefined.search(data):
            continue  # a byte this code page does not define
        costs: list = []
        cost = _bytes_cost(data, enc, best[0] if best is not None else float("inf"), costs)
        if best is None or cost < best[0]:
            best = (cost, enc, costs)
    assert best is not None  # cp437 and mac_roman decode any byte
    cost, enc, costs = best
    # n >= the priced bytes: count the non-ASCII bytes only when that bound does not settle it.
    if costs and cost / len(costs) > 3.0:
        n = len(data) - len(data.translate(None, _HIGH_BYTES))
        if cost / n > 3.0:
            raise InputError(
                f"unknown text encoding: not UTF-8/16, and {n} non-ASCII bytes make no sense "
                "as Windows-1252, CP437 or Mac Roman", path)
    notes: list[str] = []
    fixes = _stray_cp437(data, enc, costs, notes) if enc != "cp437" else []
    controls = _tables(enc)[2]
    bad = len(data) - len(data.translate(None, controls))
    for i, alt in fixes:
        bad += bool(_CONTROL.match(alt)) - (data[i] in controls)
    if b"\x00" in data or bad > max(3, len(data) // 200):
        raise InputError("binary data, not a text document (control characters found)", path)
    if fixes:
        out = list(data.decode(enc))
        for i, alt in fixes:
            out[i] = alt
        text, endings = _line_endings("".join(out))
        return Decoded(text=text, encoding=f"{enc}+cp437", line_endings=endings, notes=notes)
    text, endings = _decode_newlines(data, enc)
    return Decoded(text=text, encoding=enc, line_endings=endings, notes=notes)


def _decode_newlines(data: bytes, enc: str) -> tuple[str, str]:
    """``data`` decoded, line endings made ``\\n`` by the C newline decoder (one pass), and the
    kinds of line ending it saw.  Raises UnicodeDecodeError."""
    reader = io.TextIOWrapper(io.BytesIO(data), encoding=enc, errors="strict", newline=None)
    text = reader.read()
    seen = reader.newlines
    seen = (seen,) if isinstance(seen, str) else (seen or ())
    return text, _endings_label("\r\n" in seen, "\n" in seen, "\r" in seen)


def _stray_cp437(data: bytes, enc: str, costs: list, notes: list[str]) -> list[tuple[int, str]]:
    """Single bytes that are mojibake in ``enc`` but letters in CP437: ``(offset, letter)``, each
    reported in ``notes``.  ``costs``: every priced byte of ``data`` and its cost in ``enc``."""
    fixes = []
    for i, c in costs:
        if c >= _BAD:
            alt = bytes([data[i]]).decode("cp437")
            if _byte_cost(data, enc, i, alt) < _BAD:
                fixes.append((i, alt))
                start = max(0, i - 12)
                notes.append(f"byte 0x{data[i]:02x} at offset {i} read as CP437 {alt!r} "
                             f"(context {data[start:i + 8].decode(enc)!r})")
    return fixes


def decode_bytes(data: bytes, path=None) -> Decoded:
    """Detect the encoding of ``data`` and return its text with ``\\n`` line endings.

    Raises :class:`InputError` for an empty file, binary data, text truncated inside a
    multi-byte character, or an encoding that cannot be told.
    """
    # The head settles it for any real file: stripping the whole of it copies it (0.35 ms).
    if not data[:256].strip(b" \t\r\n\x00") and not data.strip(b" \t\r\n\x00"):
        raise InputError("empty file: no text to read", path)
    notes: list[str] = []
    if data.startswith(codecs.BOM_UTF32_LE) or data.startswith(codecs.BOM_UTF32_BE):
        enc, body = "utf-32", data
    elif data.startswith(codecs.BOM_UTF8):
        # A view, not a copy: the fast path reads it in place (a copy of the bytes cost up
        # to 0.3 ms, most of it the pages of a fresh megabyte).
        enc, body = "utf-8-sig", memoryview(data)[3:]
    elif data.startswith(codecs.BOM_UTF16_LE):
        enc, body = "utf-16-le", data[2:]
    elif data.startswith(codecs.BOM_UTF16_BE):
        enc, body = "utf-16-be", data[2:]
    else:
        enc, body = _sniff_bomless(data, path), data

    if enc in ("utf-8-sig", "bytes"):
        fast = _decode_utf8(body, data, path)
        if fast is not None:
            text, endings, lines = fast
            if enc == "bytes":
                enc = "ascii" if body.isascii() else "utf-8"
            return Decoded(text=text, encoding=enc, line_endings=endings, notes=notes,
                           split=(text, lines) if lines is not None else None)
    if enc in ("utf-16-le", "utf-16-be", "utf-32"):
        if enc.startswith("utf-16") and len(body) % 2:
            raise InputError("truncated: UTF-16 text ends in the middle of a character", path)
        try:
            text = body.decode(enc)
        except UnicodeDecodeError as e:
            raise InputError(f"invalid {enc} data at byte {e.start}", path) from None
        text = text.lstrip("\ufeff")
    elif enc == "utf-8-sig":
        # Not valid UTF-8 (the fast path failed): bad bytes after the BOM are Windows-1252.
        text = bytes(body).decode("utf-8", errors="crpipe-cp1252")
        if "\udcff" in text:  # never produced; guard for the handler below
            raise InputError("undecodable bytes", path)
        if body:
            notes.append("invalid UTF-8 bytes after the BOM were read as Windows-1252")
    else:
        try:
            text = body.decode("utf-8")
            enc = "ascii" if text.isascii() else "utf-8"
        except UnicodeDecodeError as e:
            if e.start >= len(body) - 3 and e.reason == "unexpected end of data":
                raise InputError("truncated: the file ends in the middle of a UTF-8 character", path) from None
            return _decode_single_byte(body, path)
    _check_controls(text, path)
    text, endings = _line_endings(text)
    return Decoded(text=text, encoding=enc, line_endings=endings, notes=notes)


#: The control characters ``_CONTROL`` counts, as bytes (ASCII) and as UTF-8 (C1: U+0080-U+009F).
_ASCII_CONTROL_BYTES = bytes(range(0x00, 0x09)) + bytes(range(0x0e, 0x20)) + b"\x7f"
_C1_UTF8 = re.compile(rb"\xc2[\x80-\x9f]")


def _c1_count(body: bytes, most: int = 64) -> int:
    """How many C1 controls (``\\xc2\\x80``-``\\xc2\\x9f``) UTF-8 ``body`` holds.  The lead byte
    is rare in English text (a few ©, °, no-break spaces): looked for with ``bytes.find``
    (memchr) instead of a regex scan of every byte (0.23 ms an edition); past ``most`` of
    them the regex counts."""
    n = 0
    i = body.find(b"\xc2")
    for _ in range(most):
        if i < 0:
            return n
        if i + 1 < len(body) and 0x80 <= body[i + 1] <= 0x9f:
            n += 1
        i = body.find(b"\xc2", i + 1)
    return len(_C1_UTF8.findall(body)) if i >= 0 else n


def _decode_utf8(body: bytes | memoryview, data: bytes, path) -> tuple[str, str, list[str] | None] | None:
    """Valid UTF-8: decoded with its line endings made ``\\n`` (and their kinds, and the
    lines when a split gave them: :func:`_decode_utf8_lines`), control characters counted on
    the bytes.  None when ``body`` is not valid UTF-8 (the caller's slower paths take it).

    ``body`` is ``data`` or ``data`` past its BOM (a view): the bytes are counted on the
    whole of ``data``, as a UTF-8 BOM holds no control, NUL or C1 byte."""
    try:
        text, endings, lines = _decode_utf8_lines(body)
    except UnicodeDecodeError:
        return None  # not UTF-8, or truncated: the slower paths tell which
    bad = len(data) - len(data.translate(None, _ASCII_CONTROL_BYTES))
    if not data.isascii():
        bad += _c1_count(data)
    if b"\x00" in data or (bad > 3 and bad > (len(text) + data.count(b"\r\n")) // 200):
        raise InputError("binary data, not a text document (control characters found)", path)
    return text, endings, lines


def _decode_utf8_lines(body: bytes | memoryview) -> tuple[str, str, list[str] | None]:
    """UTF-8 ``body`` decoded with ``\\n`` line endings, their kind, and its lines when known.

    The files are all-CRLF or all-LF: for those a plain decode (and, for CRLF, one
    ``splitlines`` and a join) is cheaper than the newline decoder (2025-11-14: 2.2 against
    2.9 ms), and the lines are the parser's, which it then need not split (another 0.6 ms).
    Anything else (a lone ``\\r`` or ``\\n``, or another character ``splitlines`` breaks
    at, such as a form feed) takes the newline decoder, so the text and the label are the
    same either way.  Raises UnicodeDecodeError."""
    raw = str(body, "utf-8")
    if "\r" not in raw:  # LF only (or one line): nothing to translate
        return raw, _endings_label(False, "\n" in raw, False), None
    if "\r\n" in raw:
        lines = raw.splitlines()
        if raw.endswith("\r\n"):
            lines.append("")  # splitlines drops the empty line after a final break
            ends_clean = True
        else:  # any other break ending the text is not CRLF
            ends_clean = len((raw[-1] + "x").splitlines()) == 1
        text = "\n".join(lines)
        # Every break was CRLF exactly when each one shortened the text by one character
        # (each other break splitlines knows is one character).
        if ends_clean and len(raw) - len(text) == len(lines) - 1:
            return text, _endings_label(True, False, False), lines
    text, endings = _decode_newlines(body, "utf-8")
    return text, endings, None


def _sniff_bomless(data: bytes, path) -> str:
    head = data[:4096]
    if b"\x00" not in head:
        return "bytes"
    even_nul = head[0::2].count(0)
    odd_nul = head[1::2].count(0)
    half = len(head) // 2
    if odd_nul > 0.3 * half and even_nul < 0.05 * half:
        return "utf-16-le"
    if even_nul > 0.3 * half and odd_nul < 0.05 * half:
        return "utf-16-be"
    raise InputError("binary data, not a text document (NUL bytes found)", path)


def _cp1252_fallback(err: UnicodeDecodeError):
    bad = err.object[err.start : err.end]
    return bad.decode("cp1252", errors="replace").replace("\ufffd", "?") if False else "".join(
        bytes([b]).decode("cp1252") if b not in (0x81, 0x8D, 0x8F, 0x90, 0x9D) else bytes([b]).decode("cp437")
        for b in bad
    ), err.end


codecs.register_error("crpipe-cp1252", _cp1252_fallback)


def read_text(path) -> Decoded:
    """Read and decode a file, with errors naming the file."""
    return decode_bytes(read_bounded(path), Path(path))
