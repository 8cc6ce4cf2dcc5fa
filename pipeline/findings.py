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
        return to_data(self)


@dataclass
class Issue:
    """One finding of one check on one rule of the translation."""

    check: str
    category: str
    severity: Severity
    rule: str | None  # the translated rule id (None for document-level findings)
    message: str
    span: tuple[int, int] | None = field(default=None, metadata=OMIT_NONE)  # in the translated segment
    excerpt: str | None = field(default=None, metadata=OMIT_NONE)
    suggestion: str | None = field(default=None, metadata=OMIT_NONE)
    base_id: str | None = None  # the English rule the translated rule is aligned with

    def to_dict(self) -> dict:
        return to_data(self)
