"""Translation-QA checks: small named rules run over an aligned translation.

Every check is declared once in :mod:`.registry` (id, family, severity, defect class, a
one-line explanation) on the function that runs it; the modules of this package hold them,
one family each, and are all loaded by :func:`.registry.load_all` (no list of names to keep).  Checks
read a :class:`Context` (the aligned pairs and the resources: term base, lexicons, card
names, the renumbering map, a bilingual file's units) and never touch files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable

from ...findings import Check, Issue
from ...model import Document, Rule
from ...lexicon import lexicon
from ..model import Row, pieces_of, segment_of
from . import registry



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
    #: Bilingual input: its units and where they sit (pipeline.align.bilingual.UnitsInfo).
    units: object | None = None
    #: The translation's language has no profile: why (the checks that need one are not run).
    no_profile: str | None = None
    #: The cue words the references are read with when no profile ships: learnt from the
    #: document (:func:`pipeline.profiles.draft.learnt_profile`); None: the shipped profile's.
    profile: object | None = None
    #: ``(check id, reason)`` of every check not run.
    not_run: list = field(default_factory=list)
    cache: dict = field(default_factory=dict)

    @property
    def aligned(self) -> list[Pair]:
        return [p for p in self.pairs if p.target is not None and p.base is not None]

    def lexicon(self, lang: str):
        """The spelling lexicon of ``lang`` with the term base's accepted words, built once per
        context (several checks read it)."""
        key = ("lexicon", lang)
        if key not in self.cache:
            accept = frozenset(self.termbase.accept.get(lang, ())) if self.termbase else frozenset()
            self.cache[key] = lexicon(lang, accept)
        return self.cache[key]

    def unit_rows(self):
        """``(pair, unit span, placed unit)`` for every translated unit behind a row, in file
        order (bilingual input only; nothing for a text translation)."""
        if self.units is None:
            return
        key = "unit_rows"
        if key not in self.cache:
            by_id = {p.row.id: p for p in self.pairs if p.row.id is not None}
            placed = {id(p.unit): p for p in self.units.placed}
            rows = [(by_id[rid], us, placed[id(us.unit)]) for rid, spans in self.units.spans.items() if rid in by_id
                    for us in spans]
            self.cache[key] = sorted(rows, key=lambda r: r[1].unit.order)
        yield from self.cache[key]

    def unit_issue(self, check: Check, pair: Pair, us, message: str, span=None, suggestion=None) -> Issue:
        """A finding located in a unit's translation as the file holds it (``span`` in the
        unit's target, which may fall in the rule number the segment leaves out)."""
        seg = None
        if span is not None and span[0] >= us.offset:
            seg = (us.start + span[0] - us.offset, min(us.end, us.start + span[1] - us.offset))
        issue = self.issue(check, pair, message, seg, suggestion)
        issue.unit = us.unit.location
        if span is not None:
            issue.unit_span = tuple(span)
            issue.excerpt = us.unit.target[span[0]:span[1]]
        return issue

    def issue(self, check: Check, pair: Pair | None, message: str, span=None, suggestion=None) -> Issue:
        excerpt = None
        if span is not None and pair is not None:
            excerpt = pair.target_text[span[0]:span[1]]
        return Issue(check.id, check.category, check.severity, pair.row.id if pair else None, message,
                     tuple(span) if span is not None else None, excerpt, suggestion,
                     pair.row.base_id if pair else None)


def all_checks() -> list[Check]:
    return registry.all_checks()


def run_all(ctx: Context, only: set[str] | None = None) -> list[Issue]:
    """Run every registered check (or those of the ``only`` families); issues in registry order."""
    return registry.run(ctx, only)
