"""Typed boundary of the alignment stage: rows and the whole result (checks and issues are
:mod:`pipeline.findings`).

A *segment* is one rule as a translator sees it: the rule text, then each example on its
own line (``text + "\\n" + example …``).  Every span in an :class:`Issue` is a
``[start, end)`` offset into the translated segment, so reports can highlight it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from ..findings import Check, Issue, Severity
from ..model import BaseEdition, Rule
from ..serialize import INTERNAL, OMIT_DEFAULT, fields_data, json_field, to_data

SEVERITY_POINTS = {Severity.ERROR: 10.0, Severity.WARNING: 3.0, Severity.INFO: 0.5}
__all__ = ["Check", "Issue", "Severity", "SEVERITY_POINTS", "Row", "RowKind", "RowMethod", "RowStatus",
           "Score", "TextUnit",
           "AlignResult",
           "segment_of", "pieces_of"]
class RowStatus(StrEnum):
    """How a translated rule was paired with the English."""

    ALIGNED = "aligned"  # same number
    REALIGNED = "realigned"  # found by its anchors under another number
    EXTRA = "extra"  # no English counterpart
    MISSING = "missing"  # an English rule the translation lacks


class RowMethod(StrEnum):
    NUMBER = "number"
    ANCHORS = "anchors"
    UNIT = "unit"  # a bilingual file's non-rule unit, paired with its own English source
    NONE = "none"


class RowKind(StrEnum):
    """What a row holds: a rule (with its examples), or one of the other texts a translation
    team translates and a reviewer reads (bilingual files carry them all as units)."""

    RULE = "rule"
    GLOSSARY = "glossary"  # a term and its definition paragraphs
    SECTION = "section"  # "1. Game Concepts"
    FRONT = "front"  # title, effective date, introduction, contents
    CREDITS = "credits"


@dataclass
class TextUnit:
    """A translated text that is not a rule, shaped as a rule for the checks: its first
    paragraph is ``text`` (a glossary term, a title), the further ones ``examples`` (a term's
    definition paragraphs)."""

    id: str
    text: str
    examples: list = field(default_factory=list)  # pipeline.model.Example
    level: str = "unit"
    parent: str | None = None

    @property
    def example_texts(self) -> list[str]:
        return [e.text for e in self.examples]


def segment_of(rule: Rule | None) -> str:
    """A rule and its examples as one text, examples on their own lines."""
    if rule is None:
        return ""
    return "\n".join([rule.text, *rule.example_texts])


def pieces_of(rule: Rule | None) -> list[tuple[int, str]]:
    """``(offset in the segment, text)`` of the rule text and each example."""
    if rule is None:
        return []
    out, pos = [], 0
    for t in [rule.text, *rule.example_texts]:
        out.append((pos, t))
        pos += len(t) + 1
    return out


@dataclass
class Row:
    """One translated rule (or one English rule the translation lacks)."""

    id: str | None  # translated id; None for a missing rule
    base_id: str | None
    current_id: str | None
    status: RowStatus
    method: RowMethod
    target: str = ""
    source: str = ""  # the base edition's English
    current: str = ""  # the current edition's English
    inferred_number: bool = False
    issues: list[Issue] = field(default_factory=list, metadata=json_field(name="findings"))
    #: The bilingual file's units this rule came from: ``[{"id", "location", "piece"}]``.
    units: list[dict] = field(default_factory=list, metadata=OMIT_DEFAULT)
    kind: RowKind = RowKind.RULE

    @property
    def english_changed(self) -> bool:
        """The English moved between the base and the current edition (text, examples or number);
        rows other than rules are matched to the current edition by the update file, not here."""
        return self.kind is RowKind.RULE and bool(self.base_id) and (self.current_id != self.base_id or " ".join(self.source.split())
                                        != " ".join(self.current.split()))

    def to_dict(self) -> dict:
        return to_data(self)


@dataclass
class Score:
    words: int
    points: float = field(metadata=json_field(digits=2))
    per_thousand_words: float = field(metadata=json_field(digits=2))
    by_severity: dict[str, int]

    def to_dict(self) -> dict:
        return to_data(self)


@dataclass
class AlignResult:
    """Everything one alignment produced: rows in translation order, then missing rules."""

    translation: dict  # name, language, kind, source
    base_edition: BaseEdition
    current_edition: str | None
    rows: list[Row]
    checks: list[Check]
    score: Score
    notes: list[str] = field(default_factory=list)
    #: Bilingual input: translated share overall and per section, untranslated rules, stale units.
    coverage: dict | None = None
    #: The update workflow (:func:`pipeline.align.update.update_plan`): rules whose English changed.
    update: dict | None = None
    #: Bilingual input: the update planned unit by unit as the team's file segments it
    #: (:class:`pipeline.align.unit_update.UnitUpdate`); the update PO/XLIFF are written from it.
    unit_update: object | None = field(default=None, repr=False, metadata=INTERNAL)
    #: Checks not run and why (``{"check", "reason"}``): those needing a profile the language lacks.
    not_run: list[dict] = field(default_factory=list)
    #: The cue words learnt from the document when its language has no profile (not reported).
    learnt_profile: object | None = field(default=None, repr=False, metadata=INTERNAL)

    @property
    def issues(self) -> list[Issue]:
        return [i for r in self.rows for i in r.issues]

    def counts(self) -> dict[str, int]:
        skipped = {d["check"] for d in self.not_run}
        out: dict[str, int] = {c.id: 0 for c in self.checks if c.id not in skipped}
        for i in self.issues:
            out[i.check] = out.get(i.check, 0) + 1
        return out

    def row(self, rule_id: str) -> Row | None:
        return next((r for r in self.rows if r.id == rule_id), None)

    def __json__(self) -> dict:
        return {"schema": "crpipe-alignment/1", **fields_data(self), "counts": self.counts()}

    def to_dict(self) -> dict:
        return to_data(self)
