"""What ``crpipe diff`` agrees to compare: bounded, complete documents.

The matcher's cost grows with the size of the texts it pairs; an official edition is under
1 MB (PDF 4 MB), about 3,300 rules and 0.8 million characters of rule text, so the bounds
below leave room for decades of growth while refusing a 52 MB one-line file at once
instead of running for minutes.  A truncated edition is refused like ``parse`` refuses it:
its missing end would be reported as thousands of removals.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..errors import InputError
from ..inventory import cached_document
from ..io import env_megabytes, read_bounded
from ..model import Document

#: The largest file diffed, in bytes; None reads ``$CRPIPE_MAX_DIFF_MB`` (16) at each call.
MAX_DIFF_BYTES: int | None = None
MAX_RULES = 20_000
MAX_TEXT_CHARS = 4_000_000
MAX_RULE_CHARS = 50_000


def load_document(path: Path, lang: str | None = None) -> Document:
    """The ingestion loader (any format), for a file read for the first time."""
    from ..ingest.loader import load_document as load  # noqa: PLC0415 - lazy: every reader and the parser (~35 ms), not needed warm

    return load(path, lang=lang)


def load_diffable(path: Path, lang: str | None = None, partial: bool = False, cache: bool = True) -> Document:
    """A file to diff, within the bounds; read from its inventory (:mod:`pipeline.inventory`,
    by the file's sha256) when this file was read before, unless ``cache`` is False."""
    p = Path(path)
    limit = MAX_DIFF_BYTES if MAX_DIFF_BYTES is not None else env_megabytes("CRPIPE_MAX_DIFF_MB", 16)
    try:
        size = p.stat().st_size if p.is_file() else 0
    except OSError:
        size = 0  # the loader names the problem
    if size > limit:
        raise InputError(f"too large to diff ({size / 2**20:.0f} MB; the limit is {limit >> 20} MB, "
                         "set CRPIPE_MAX_DIFF_MB to change it)", p)
    doc = _inventory(p, lang) if cache else load_document(p, lang=lang)
    check_diffable(doc, p, partial)
    return doc


def _inventory(p: Path, lang: str | None) -> Document:
    try:
        data = read_bounded(p)
    except InputError:
        return load_document(p, lang=lang)  # the loader's own message for what is wrong
    doc = cached_document(hashlib.sha256(data).hexdigest(), p.name, f"loader:{lang or ''}",
                          lambda: load_document(p, lang=lang))
    doc.meta.source_file, doc.meta.source_name = str(p), p.name
    return doc


def load_edition_diffable(ref, partial: bool = False, cache: bool = True) -> Document:
    """An edition of the catalog (a :class:`pipeline.editions.EditionRef`) to diff, from its
    inventory when it was read before."""
    doc = cached_document(ref.sha256, ref.name, "official", ref.parse, cache)
    doc.meta.source_file = str(ref.path) if ref.path is not None else ref.name
    check_diffable(doc, ref.path or Path(ref.name), partial)
    return doc


def check_diffable(doc: Document, path: Path, partial: bool = False) -> None:
    if len(doc.rules) > MAX_RULES:
        raise InputError(f"too many rules to diff ({len(doc.rules):,}; the limit is {MAX_RULES:,})", path)
    longest = max((len(r.text) for r in doc.rules), default=0)
    if longest > MAX_RULE_CHARS:
        raise InputError(f"a rule of {longest:,} characters: not an edition the diff can compare "
                         f"(the limit is {MAX_RULE_CHARS:,} per rule)", path)
    total = sum(len(r.text) + sum(len(e) for e in r.example_texts) for r in doc.rules)
    if total > MAX_TEXT_CHARS:
        raise InputError(f"too much rule text to diff ({total:,} characters; the limit is {MAX_TEXT_CHARS:,})", path)
    truncated = [f for f in doc.findings if f.kind == "truncated"]
    if truncated and not partial:
        raise InputError(f"{truncated[0].detail}; use --partial to diff what it holds", path)
