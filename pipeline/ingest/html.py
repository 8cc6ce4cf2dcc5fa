"""HTML pages of rules (lxml.html): the paragraphs that hold numbered rules.

Scripts, styles, navigation and forms are dropped; every block element without block
children (``p``, ``li``, ``h1``…, ``dd``, ``td``, a leaf ``div``) is one paragraph, with
``<br>`` as a soft line break.  The paragraphs then go through the same segmentation as
text: the official parser for a whole edition saved as HTML, the web-card reader for a
rules viewer's card, the paste segmenter otherwise.  Entities are resolved by the HTML
parser only (no DTD, no network).
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

import lxml.html
from lxml import etree

from ..errors import InputError
from ..decode import Decoded
from ..model import Document, Finding
from ..profiles import PROFILES
from ..segment.official import looks_official, parse_text
from ..segment.paste import segment_text
from ..segment.webcard import card_header, segment_card
from ..decode import decode_bytes
from ..language import detect_language

_SKIP = {"script", "style", "nav", "form", "noscript", "template", "svg", "head", "button", "select", "iframe"}
_BLOCKS = {"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "dd", "dt", "td", "th", "div", "blockquote",
           "pre", "section", "article", "main", "body", "ul", "ol", "table", "tr", "tbody", "header", "footer"}


def html_paragraphs(data: bytes, path: Path | str | None = None, keep_empty: bool = False) -> list[str]:
    """The text of every leaf block, in order; ``keep_empty`` keeps empty ones as ``""``
    (an edition saved as HTML marks its blank lines with empty paragraphs)."""
    parser = lxml.html.HTMLParser(no_network=True, remove_comments=True, remove_pis=True, recover=True,
                                  huge_tree=False)
    src: bytes | str = data
    if not re.search(rb"(?i)<meta[^>]+charset", data[:4096]) and not data.startswith(codecs.BOM_UTF8):
        # No declared charset: lxml would assume Latin-1; detect it like any text file.

        src = re.sub(r"^\s*<\?xml[^>]*\?>", "", decode_bytes(data, path).text)
    try:
        root = lxml.html.document_fromstring(src, parser=parser)
    except (etree.ParserError, ValueError) as e:
        raise InputError(f"unreadable HTML: {e}", path) from None
    # A site's chrome too: its footer, and a header outside the article (a page's own header
    # holds its title, which may be a section heading).
    for bad in root.xpath("//script|//style|//nav|//form|//noscript|//template|//svg|//head|//iframe|//footer"
                          "|//header[not(ancestor::article) and not(ancestor::main)]"):
        bad.drop_tree()
    for br in root.iter("br"):
        br.tail = "\n" + (br.tail or "")
    out: list[str] = []
    for el in root.iter():
        if not isinstance(el.tag, str) or el.tag not in _BLOCKS:
            continue
        if any(isinstance(c.tag, str) and c.tag in _BLOCKS for c in el.iterdescendants()):
            # Text directly inside a container, beside its blocks, is a paragraph too.
            own = " ".join(t.strip() for t in [el.text or ""] + [c.tail or "" for c in el if c.tag in _BLOCKS])
            if own.strip():
                out.append(own.strip())
            continue
        text = el.text_content()
        text = " ".join(part.strip() for part in text.split("\n") if part.strip())
        if text or (keep_empty and el.tag in ("p", "div")):
            out.append(text)
    return out


def read_html(data: bytes, path: Path | str | None = None, lang: str | None = None) -> Document:
    paras = html_paragraphs(data, path)
    text = "\n\n".join(paras)
    if not text.strip():
        raise InputError("an HTML page without text", path)
    if looks_official(text):
        # A whole edition: one paragraph per line, as in the TXT (glossary terms sit right
        # above their definitions).
        text = "\n".join(html_paragraphs(data, path, keep_empty=True)) + "\n"
        doc = parse_text(Decoded(text=text, encoding="html", line_endings="paragraphs"),
                         source=Path(path) if path else None, data=data)
        doc.meta.format = "html"
        return doc
    return segment_paragraphs(paras, path, lang)


def segment_paragraphs(paras: list[str], path: Path | str | None, lang: str | None) -> Document:
    """A page's (or a site's pages') paragraphs as rules: a rules viewer's card, or any other
    rules text (the paste segmenter)."""
    text = "\n\n".join(paras)
    found, reason = (lang, "given") if lang else detect_language(text)
    heads = {h.casefold() for p in PROFILES.values() for h in p.subrules_heading}
    if card_header(text, found) and any(p.strip().casefold() in heads for p in paras):
        doc = segment_card("\n".join(paras), found, source=str(path) if path else None)
    else:
        doc = segment_text(text, found, source=str(path) if path else None)
    if not doc.rules:
        raise InputError("no numbered rules in this HTML page" if len(paras) else "no text", path)
    doc.meta.format = "html"
    if not lang:
        doc.findings.append(Finding("language" if found else "language-unknown",
                                    f"language {found or 'unknown'}: {reason}", "info" if found else "warning"))
    return doc
