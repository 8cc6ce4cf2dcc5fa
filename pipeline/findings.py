"""What a check is and what it reports: :class:`Check`, :class:`Issue`, :class:`Severity`.

A leaf module (it imports nothing from the pipeline) so that the checks, the aligner and the
reports can all use these types without importing one another.  Every span in an
:class:`Issue` is a ``[start, end)`` offset into the translated segment (the rule text, then
each example on its own line), so reports can highlight it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Severity(StrEnum):
    """How much a finding matters; the values are what the JSON reports carry."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Check:
    """A small named rule: what it looks for, in one line, and how much it matters."""

    id: str  # "references.stale"
    category: str  # one of pipeline.align.model.CATEGORIES
    severity: Severity
    explanation: str

    def __post_init__(self) -> None:
        # Checks are declared with plain strings; an unknown severity fails at import time.
        object.__setattr__(self, "severity", Severity(self.severity))

    def to_dict(self) -> dict:
        return {"id": self.id, "category": self.category, "severity": self.severity,
                "explanation": self.explanation}


@dataclass
class Issue:
    """One finding of one check on one rule of the translation."""

    check: str
    category: str
    severity: Severity
    rule: str | None  # the translated rule id (None for document-level findings)
    message: str
    span: tuple[int, int] | None = None  # in the translated segment
    excerpt: str | None = None
    suggestion: str | None = None
    base_id: str | None = None  # the English rule the translated rule is aligned with

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"check": self.check, "category": self.category, "severity": self.severity,
                             "rule": self.rule, "base_id": self.base_id, "message": self.message}
        if self.span is not None:
            d["span"] = list(self.span)
        if self.excerpt is not None:
            d["excerpt"] = self.excerpt
        if self.suggestion is not None:
            d["suggestion"] = self.suggestion
        return d
