"""Translation-QA checks: small named rules run over an aligned translation.

Each module holds a few :class:`~pipeline.align.model.Check` definitions (id, severity, a
one-line explanation) and one ``run(ctx) -> list[Issue]``.  They read a :class:`Context`
(the aligned pairs and the resources: term base, lexicons, card names, the renumbering
map) and never touch files.  ``CHECK_MODULES`` is the order they run in.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable

from ...findings import Check, Issue
from ...model import Document, Rule
from ..model import Row, pieces_of, segment_of

CHECK_MODULES = ("structure", "references", "anchors", "cardnames", "terminology", "consistency", "damage", "omission", "termlearn")


@dataclass
class Pair:
    """A translated rule and its English counterparts (any may be None)."""

    row: Row
    target: Rule | None
    base: Rule | None
    current: Rule | None

    @cached_property
    def target_text(self) -> str:
        return segment_of(self.target)

    @cached_property
    def source_text(self) -> str:
        return segment_of(self.base)

    @cached_property
    def target_pieces(self) -> list[tuple[int, str]]:
        return pieces_of(self.target)

    @cached_property
    def source_pieces(self) -> list[tuple[int, str]]:
        return pieces_of(self.base)


@dataclass
class Context:
    lang: str
    target_doc: Document
    base_doc: Document
    current_doc: Document | None
    pairs: list[Pair]
    base_date: str | None = None
    current_date: str | None = None
    #: base-edition number -> current number (None when the rule is gone); identity without an archive.
    map_number: Callable[[str], str | None] | None = None
    termbase: object | None = None
    cards: object | None = None  # pipeline.rulings.names.NameIndex
    complete: bool = False  # the translation covers the whole edition (missing rules matter)
    #: The folder of English editions (renames learnt from their glossaries); None with one edition file.
    editions_dir: object | None = None  # a folder of editions (Path) or a pipeline.editions.Catalog
    #: English glossary term -> the translation's own rendering (its translated glossary).
    term_renderings: dict | None = None
    cache: dict = field(default_factory=dict)

    @property
    def aligned(self) -> list[Pair]:
        return [p for p in self.pairs if p.target is not None and p.base is not None]

    def issue(self, check: Check, pair: Pair | None, message: str, span=None, suggestion=None) -> Issue:
        excerpt = None
        if span is not None and pair is not None:
            excerpt = pair.target_text[span[0]:span[1]]
        return Issue(check.id, check.category, check.severity, pair.row.id if pair else None, message,
                     tuple(span) if span is not None else None, excerpt, suggestion,
                     pair.row.base_id if pair else None)


def modules():
    return [importlib.import_module(f"{__name__}.{m}") for m in CHECK_MODULES]


def all_checks() -> list[Check]:
    return [c for m in modules() for c in m.CHECKS]


def run_all(ctx: Context, only: set[str] | None = None) -> list[Issue]:
    """Run every check module (or those of the ``only`` categories); issues in pair order."""
    out: list[Issue] = []
    for m in modules():
        if only and m.CHECKS[0].category not in only:
            continue
        out.extend(m.run(ctx))
    return out
