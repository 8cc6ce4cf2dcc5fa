"""One entry point from a file to a :class:`~pipeline.model.Document`.

Format and language are detected from content; ``fmt`` and ``lang`` override.  Each
format reader (a *filter*, in Okapi's terms) turns bytes into text or into the model;
segmentation steps are shared.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError
from ..model import Document
from .decode import read_text


def load_document(path: str | Path, lang: str | None = None, fmt: str | None = None) -> Document:
    """Read any supported rules document into the model."""
    p = Path(path)
    from ..segment.official import looks_official, parse_text

    dec = read_text(p)
    if fmt in (None, "txt") and looks_official(dec.text):
        doc = parse_text(dec, source=p)
        if lang:
            doc.meta.language = lang
        return doc
    raise InputError("not a Comprehensive Rules document this version can read "
                     "(no 'Comprehensive Rules' title and 'Contents' list)", p)
