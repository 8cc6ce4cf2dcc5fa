"""Official PDF editions, read with pypdfium2.

Chosen by measurement (``benchmarks/bench_ingest.py``, ``../shared/notes/facts.md``):
pypdfium2 reads the 307-page edition in ~0.6 s where pypdf takes 8-11 s, with the same
words.  What it loses is layout: no blank lines, every paragraph hard-wrapped at the
page width, and U+0002 where a word was hyphenated at a line end.  So the reader
rebuilds paragraphs the way a person reads the page: a line starts a new rule only when
its number continues the numbering and the line before does not end in a citation cue
("see rule" + "704. See also…" is a wrapped reference); "Example:" starts an example; a
glossary term is a short line after a finished definition.  The rebuilt text has the
official TXT layout and goes through the official parser, so PDF and TXT give the same
model.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import InputError
from ..decode import Decoded
from ..model import Document, Finding
from ..profiles import EN
from ..rulenum import RuleNumber
from ..segment.official import parse_text
from ..text import NUMBER

_RULE = re.compile(rf"^(?P<num>{NUMBER})(?P<dot>\.?)(?:\s+(?P<text>\S.*)|\s*$)")
_SECTION = re.compile(r"^(?P<num>[1-9])\.\s+(?P<text>[A-Z].*)$")
_EXAMPLE = re.compile(r"^Examples?:")
_PAGE_NUMBER = re.compile(r"^\s*\d{1,3}\s*$")
#: A line ending in one of these continues on the next line, whatever that line starts with.
_CUE_END = re.compile(r"(?:\b(?:rules?|[Ss]ee|and|or|through|to|in|of|sections?)|[,–—-])\s*$")
_FOLLOW_REF = re.compile(r"^[)\],;:]")
#: What pdfium writes for a hyphen at a line end (U+0002, or U+FFFE in newer builds).
_HYPHENS = ("\x02", "\ufffe")


def pdf_lines(data: bytes, path: Path | str | None = None) -> list[str]:
    """All text lines of the PDF, page by page (pdfium text extraction)."""
    import pypdfium2 as pdfium  # optional/heavy: the PDF engine loads only for a PDF

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as e:
        raise InputError(f"not a readable PDF ({e})", path) from None
    lines: list[str] = []
    try:
        n = len(pdf)
        if n == 0:
            raise InputError("a PDF without pages", path)
        for i in range(n):
            page = pdf[i]
            try:
                tp = page.get_textpage()
                text = tp.get_text_range()
                tp.close()
            finally:
                page.close()
            lines.extend(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    finally:
        pdf.close()
    return lines


def _join(parts: list[str]) -> str:
    out = ""
    for p in parts:
        p = p.rstrip()
        if not out:
            out = p.strip()
        elif out.endswith(_HYPHENS):
            out = out[:-1] + "-" + p.strip()
        elif out.endswith(("—", "–", "-")) and not out[-2:-1].isspace():
            out = out + p.strip()  # "once—\nthe next", "[-\nN]": a dash inside a word group has no spaces
        else:
            out = out + " " + p.strip()
    for h in _HYPHENS:
        out = out.replace(h, "-")
    return out


def rebuild_text(lines: list[str]) -> str:
    """The edition's text in the official TXT layout, from the PDF's wrapped lines."""
    lines = [l for l in lines if not _PAGE_NUMBER.match(l)]
    stripped = [l.strip() for l in lines]
    try:
        contents = stripped.index("Contents")
    except ValueError:
        raise InputError("a PDF that is not a Comprehensive Rules edition (no Contents list)", None) from None
    body = _body_start(stripped, contents)
    gloss = max((i for i, s in enumerate(stripped) if s == "Glossary" and i > body), default=None)
    credits = max((i for i, s in enumerate(stripped) if s == "Credits" and gloss is not None and i > gloss), default=None)

    out: list[str] = []
    out.extend(_front(stripped[:contents]))
    out.append("Contents")
    out.extend(s for s in stripped[contents + 1 : body] if s)
    out.append("")
    out.extend(_rules(lines[body : gloss if gloss is not None else len(lines)]))
    if gloss is not None:
        out.append("Glossary")
        out.append("")
        out.extend(_glossary(stripped[gloss + 1 : credits if credits is not None else len(lines)]))
    if credits is not None:
        out.append("Credits")
        out.append("")
        out.extend(_paragraphs(stripped[credits + 1 :]))
    return "\n".join(out) + "\n"


def _body_start(s: list[str], contents: int) -> int:
    for i in range(contents + 1, len(s) - 2):
        if s[i].startswith("1. ") and s[i + 1].startswith("100.") and re.match(r"^100\.\d", s[i + 2]):
            return i
    raise InputError("a PDF without a rules body starting at '1.' / '100.'", None)


def _front(s: list[str]) -> list[str]:
    out: list[str] = []
    for i, line in enumerate(s):
        if not line:
            continue
        if i < 2 or line == "Introduction":
            out.extend([line, ""])
        else:
            out.append(line)
    return _paragraphs_keep_heads(out)


def _paragraphs_keep_heads(lines: list[str]) -> list[str]:
    """Join wrapped introduction lines; a line ending a sentence ends a paragraph."""
    out: list[str] = []
    cur: list[str] = []
    for line in lines:
        if not line:
            if cur:
                out.append(_join(cur))
                cur = []
            out.append("")
            continue
        cur.append(line)
        if line.endswith((".", ".)", "”")) and not line.endswith(" "):
            out.append(_join(cur))
            out.append("")
            cur = []
    if cur:
        out.append(_join(cur))
        out.append("")
    return out


def _paragraphs(s: list[str]) -> list[str]:
    return [line for line in s if line]


def _rules(lines: list[str]) -> list[str]:
    out: list[str] = []
    para: list[str] = []
    last: RuleNumber | None = None
    section = 0
    cues = _cue_re()

    def flush():
        nonlocal para
        if para:
            out.append(_join(para))
            out.append("")
        para = []

    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        prev = para[-1] if para else ""
        ms = _SECTION.match(line)
        if ms and int(ms.group("num")) == section + 1 and not _CUE_END.search(prev):
            flush()
            section += 1
            para = [line]
            continue
        m = _RULE.match(line)
        if m and not _CUE_END.search(prev) and not cues.search(prev):
            num = RuleNumber.try_parse(m.group("num"))
            rest = m.group("text") or ""
            if num is not None and not _FOLLOW_REF.match(rest) and _continues(last, num):
                flush()
                last = num
                para = [line]
                continue
        if _EXAMPLE.match(line) and last is not None:
            flush()
            para = [line]
            continue
        para.append(raw)
    flush()
    return out


def _cue_re() -> re.Pattern:
    words = "|".join(re.escape(w) for w in sorted(EN.rule_words + EN.see_words, key=len, reverse=True))
    return re.compile(rf"\b(?:{words})\s*$")  # case matters: "Golden Rules" is a heading


def _continues(last: RuleNumber | None, num: RuleNumber) -> bool:
    if last is None:
        return num.rule == 100
    if num <= last:
        return False
    if num.rule == last.rule:
        if num.sub == last.sub or last.sub is None:
            return num.sub is not None and (last.sub is None and num.sub <= 2 or num.sub == last.sub
                                            or (last.sub is not None and 0 < num.sub - last.sub <= 2))
        return num.sub is not None and num.letter is None and 0 < num.sub - (last.sub or 0) <= 2
    # The next three-digit rule (headings of a new rule: "104. Ending the Game"), or the
    # first rule of the next section ("200. General" after 123.9).
    if num.sub is not None:
        return False
    return 0 < num.rule - last.rule <= 10 or (num.rule % 100 == 0 and num.rule // 100 == last.rule // 100 + 1)


#: Terms that end like a sentence: "Bury (Obsolete)", "Banding, “Bands with Other”",
#: "Partner, “Partner—[text],” “Partner with [name]”" (the comma inside the quotes).
_TERM_TAIL = re.compile(r"\((?:Obsolete|[A-Z][a-z]+)\)$|^[^.“]+(?:,? “[^”]+”)+$")
#: A definition that ends on a rule number without its full stop ("See rule 603.4").
_ENDS_WITH_REF = re.compile(rf"\brules? {NUMBER}$")


def _glossary(s: list[str]) -> list[str]:
    out: list[str] = []
    entry: list[str] = []  # [term, definition lines...]
    defs: list[list[str]] = []

    def flush():
        if entry:
            out.append(entry[0])
            for d in defs:
                out.append(_join(d))
            out.append("")

    prev_done = True
    for line in s:
        if not line:
            continue
        is_term = (prev_done and (len(line.split()) <= 7 or _TERM_TAIL.search(line) and len(line) < 90) and (line[:1].isupper() or line[:1].isdigit())
                   and not re.match(r"^(?:\d+\.|See )", line)
                   and (not line.endswith((".", ",", ";", ":", "”", ")")) or _TERM_TAIL.search(line)))
        if is_term:
            flush()
            entry[:] = [line]
            defs.clear()
            prev_done = False
            continue
        if re.match(r"^\d+\.\s", line) or not defs:
            defs.append([line])  # a numbered sense ("1. Text on an object…") or the first line
        else:
            defs[-1].append(line)
        prev_done = line.endswith((".", ".”", ".)", "”", ")")) or bool(_ENDS_WITH_REF.search(line))
    flush()
    return out


def read_pdf(data: bytes, path: Path | str | None = None) -> Document:
    if not data.lstrip()[:5] == b"%PDF-":
        raise InputError("not a PDF (no %PDF- header)", path)
    lines = pdf_lines(data, path)
    try:
        text = rebuild_text(lines)
    except InputError as e:
        raise InputError(e.message, path) from None
    doc = parse_text(Decoded(text=text, encoding="pdf-text", line_endings="rebuilt"),
                     source=Path(path) if path else None, data=data)
    doc.meta.format = "pdf"
    doc.findings.append(Finding("pdf", f"{len(lines)} text lines read with pypdfium2 and rebuilt into paragraphs "
                                "by rule numbering", "info"))
    return doc
