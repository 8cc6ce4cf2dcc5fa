"""A translated CR as a community site publishes it: Markdown (or HTML) pages, one per section.

Sites built with Jekyll or Hugo keep each page as Markdown with front matter (``---`` YAML or
``+++`` TOML) and write a rule number in bold (``**100.1.**``) or behind an anchor
(``<a id="100.1"></a>100.1.``) at the start of its paragraph.  A page is rendered to HTML by
markdown-it (CommonMark, inline HTML kept), so Markdown and the site's rendered HTML go through
the same paragraph reader (:func:`pipeline.ingest.html.html_paragraphs`) and give the same model.
Several pages — a folder or a list of files — are read as one document, in page order: the
front matter's ``weight``/``nav_order``/``order``/``sidebar_position`` when every page has one,
else the file names in natural order (``2-…`` before ``10-…``) for a folder, the order given
for a list.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

from ..errors import InputError
from ..io import max_input_bytes, read_bounded
from ..text import NUMBER
from ..decode import decode_bytes

#: Front matter at the very start of a page: YAML between ``---`` lines, or TOML between ``+++``.
_FRONT = re.compile(r"\A\ufeff?(?:(?P<y>---)[ \t]*\r?\n(?P<yb>.*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)"
                    r"|(?P<t>\+\+\+)[ \t]*\r?\n(?P<tb>.*?)\r?\n\+\+\+[ \t]*(?:\r?\n|\Z))", re.S)
#: A rule number opening a paragraph the way sites mark it: in bold, or after an anchor.
_MARKED_RULE = re.compile(r"(?m)^(?:\*\*|__|<a\s[^>]*(?:id|name)\s*=\s*[\"']?[^>]*>\s*(?:</a>\s*)?(?:\*\*)?)"
                          rf"\s*{NUMBER}(?!\d)")
_ORDER_KEYS = ("weight", "nav_order", "order", "sidebar_position")
PAGE_SUFFIXES = (".md", ".markdown", ".html", ".htm")


def front_matter(text: str) -> tuple[dict, str]:
    """``(front matter, body)``: the page's metadata (``{}`` when it has none or it does not
    parse: it is the site's, not the rules') and the Markdown after it."""
    m = _FRONT.match(text)
    if not m:
        return {}, text
    try:
        meta = yaml.safe_load(m.group("yb")) if m.group("y") else tomllib.loads(m.group("tb"))
    except (yaml.YAMLError, tomllib.TOMLDecodeError, ValueError):
        meta = None
    return (meta if isinstance(meta, dict) else {}), text[m.end():]


def looks_markdown(text: str) -> bool:
    """Markdown pages of rules: front matter at the start, or rule numbers marked in bold or by
    an anchor at the start of two paragraphs (a plain paste marks none)."""
    return _FRONT.match(text) is not None or len(_MARKED_RULE.findall(text[:200_000])) >= 2


def render(body: str) -> str:
    """The page's HTML as a site renders it (CommonMark; inline HTML such as anchors kept)."""
    from markdown_it import MarkdownIt  # noqa: PLC0415 - lazy: only Markdown input needs it

    return MarkdownIt("commonmark", {"html": True}).render(body)


def page_html(data: bytes, path: Path | str | None) -> bytes:
    """A page's bytes as HTML: a Markdown page rendered (its front matter left out), an HTML
    page as it is."""
    name = str(path or "").lower()
    if name.endswith((".html", ".htm")):
        return data
    text = decode_bytes(data, path).text
    _, body = front_matter(text)
    return ('<html><head><meta charset="utf-8"></head><body>' + render(body) + "</body></html>").encode("utf-8")


def order_pages(paths: list[Path], given: bool = False) -> list[Path]:
    """Page order: every page's front-matter order key, else natural name order (or, for a list
    the user gave, its order)."""
    keys = {}
    for p in paths:
        if p.suffix.lower() in (".md", ".markdown"):
            meta, _ = front_matter(decode_bytes(read_bounded(p), p).text)
            k = next((meta[k] for k in _ORDER_KEYS if isinstance(meta.get(k), (int, float))), None)
            if k is not None:
                keys[p] = k
    if paths and len(keys) == len(paths):
        return sorted(paths, key=lambda p: (keys[p], _natural(p.name)))
    return list(paths) if given else sorted(paths, key=lambda p: _natural(p.name))


def _natural(name: str) -> tuple:
    return tuple(int(t) if t.isdigit() else t.casefold() for t in re.split(r"(\d+)", name))


def pages_of(path: Path) -> list[Path]:
    """The pages of a site folder (Markdown and HTML files, not in hidden folders), in page order."""
    found = [p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in PAGE_SUFFIXES
             and not any(part.startswith((".", "_")) for part in p.relative_to(path).parts[:-1])]
    if not found:
        raise InputError("a directory without Markdown or HTML pages (a site's pages: .md, .markdown, .html, .htm)", path)
    return order_pages(found)


def read_pages(paths: list[Path], lang: str | None = None, source: Path | None = None):
    """One document from several pages, in the order given (see :func:`order_pages`)."""
    from .html import html_paragraphs, segment_paragraphs  # noqa: PLC0415 - lazy (lxml)

    paras: list[str] = []
    total, limit = 0, max_input_bytes()
    blobs = []
    for p in paths:
        data = read_bounded(p)
        total += len(data)
        if total > limit:
            raise InputError(f"the pages hold more than {limit >> 20} MB together", source or p)
        blobs.append(data)
        paras += html_paragraphs(page_html(data, p), p)
    doc = segment_paragraphs(paras, source or paths[0], lang)
    doc.meta.format = "markdown" if any(p.suffix.lower() in (".md", ".markdown") for p in paths) else "html"
    return doc, b"".join(blobs)


def read_markdown(data: bytes, path: Path | str | None = None, lang: str | None = None):
    """One Markdown page as a document."""
    from .html import html_paragraphs, segment_paragraphs  # noqa: PLC0415 - lazy (lxml)

    doc = segment_paragraphs(html_paragraphs(page_html(data, path), path), path, lang)
    doc.meta.format = "markdown"
    return doc
