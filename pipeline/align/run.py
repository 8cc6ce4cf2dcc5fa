"""From files to an :class:`AlignResult`: the edge where documents are read."""

from __future__ import annotations

from pathlib import Path

from ..ingest.loader import load_document
from ..model import Document
from ..rulings.reader import load_card_index
from ..editions.catalog import Catalog, EditionRef
from ..diff.context import editions_of, resolve_editions
from .aligner import align_documents
from .bilingual import align_bilingual, is_bilingual
from .model import AlignResult
from .termbase import load_termbase


def load_cards(paths) -> object | None:
    """A card-name index over MTGJSON files (any version :mod:`pipeline.rulings` reads)."""
    if not paths:
        return None

    return load_card_index([Path(p) for p in paths])


def align_file(translation: str | Path | Document, reference: str | Path, current: str | Path | None = None, *,
               lang: str | None = None, fmt: str | None = None, termbase: str | Path | None = None,
               cards: list | None = None) -> AlignResult:
    """Read a translation (any format ingestion reads) and align it.

    ``reference``: a folder of English editions, a :class:`Catalog` (every known edition) or one
    edition (a file or an :class:`EditionRef`); ``current``: the
    current English edition (default: the newest in the folder); ``cards``: MTGJSON files.
    """
    if not isinstance(translation, Document) and fmt in (None, "po", "xliff"):
        if fmt is not None or is_bilingual(Path(translation)):
            return align_bilingual(translation, reference, current, lang=lang, termbase=load_termbase(termbase),
                                   cards=load_cards(cards))
    editions = editions_of(reference)
    if isinstance(translation, Document):
        doc = translation
    else:
        doc = load_document(translation, lang=lang, fmt=fmt, editions_dir=editions)
    ed = resolve_editions(doc, reference, current)
    return align_documents(doc, ed.base, ed.current, map_number=ed.map_number, base_info=ed.info,
                           current_label=ed.current_label, termbase=load_termbase(termbase), cards=load_cards(cards),
                           editions_dir=editions)
