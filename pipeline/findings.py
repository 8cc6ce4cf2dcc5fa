"""What a check is and what it reports: :class:`Check`, :class:`Issue`, :class:`Severity`.

A leaf module (it imports only the serializer) so that the checks, the aligner and the
reports can all use these types without importing one another.  Every span in an
:class:`Issue` is a ``[start, end)`` offset into the translated segment (the rule text, then
each example on its own line), so reports can highlight it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .serialize import OMIT_NONE, to_data


class Severity(StrEnum):
    """How much a finding matters; the values are what the JSON reports carry."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Category(StrEnum):
    """A check's family: the module that holds it, and the report's filter."""

    STRUCTURE = "structure"
    REFERENCES = "references"
    ANCHORS = "anchors"
    CARDNAMES = "cardnames"
    TERMINOLOGY = "terminology"
    CONSISTENCY = "consistency"
    DAMAGE = "damage"
    FORM = "form"
    MEANING = "meaning"
    GRAMMAR = "grammar"
    OMISSION = "omission"


class DefectClass(StrEnum):
    """What a reviewer calls the defect a check finds (the recall set's classes)."""

    SPELLING = "spelling"
    GRAMMAR = "grammar"
    OMISSION = "omission"
    ADDITION = "addition"
    MEANING = "meaning"
    TERM = "term"
    UNTRANSLATED = "untranslated"
    NUMBERS = "numbers"
    REFERENCES = "references"
    QUOTES = "quotes"
    PUNCTUATION = "punctuation"
    STRUCTURE = "structure"  # a rule missing, extra or out of order


@dataclass(frozen=True)
class Check:
    """A small named rule: what it looks for, in one line, and how much it matters."""

    id: str  # "references.stale"
    category: Category
    severity: Severity
    explanation: str
    defect: DefectClass | None = None  # what a reviewer calls what it finds

    def __post_init__(self) -> None:
        # An unknown family, severity or class fails at import time, not in a report.
        object.__setattr__(self, "category", Category(self.category))
        object.__setattr__(self, "severity", Severity(self.severity))
        if self.defect is not None:
            object.__setattr__(self, "defect", DefectClass(self.defect))

    def to_dict(self) -> dict:
        return to_data(self)


@dataclass
class Issue:
    """One finding of one check on one rule of the translation."""

    check: str
    category: Category
    severity: Severity
    rule: str | None  # the translated rule id (None for document-level findings)
    message: str
    span: tuple[int, int] | None = field(default=None, metadata=OMIT_NONE)  # in the translated segment
    excerpt: str | None = field(default=None, metadata=OMIT_NONE)
    suggestion: str | None = field(default=None, metadata=OMIT_NONE)
    base_id: str | None = None  # the English rule the translated rule is aligned with
    #: Bilingual input: the unit the finding is in (its location, "file.po:123") and the span in
    #: that unit's translation as the file holds it.
    unit: str | None = field(default=None, metadata=OMIT_NONE)
    unit_span: tuple[int, int] | None = field(default=None, metadata=OMIT_NONE)

    def to_dict(self) -> dict:
        return to_data(self)
