"""The typed boundary of the cross-reference stage: one :class:`Reference` per citation."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from ..serialize import OMIT_DEFAULT, OMIT_NONE, to_data


class RefPart(StrEnum):
    """Where in a document the citing text stands."""

    RULE = "rule"
    EXAMPLE = "example"
    GLOSSARY = "glossary"


class RefKind(StrEnum):
    """What a reference cites."""

    SINGLE = "single"
    RANGE = "range"
    SECTION = "section"


class RefStatus(StrEnum):
    """Resolution outcomes.  ``external``: missing from a fragment (a paste, a web card) but
    present in the full edition it was resolved against."""

    UNRESOLVED = "unresolved"
    RESOLVED = "resolved"
    DANGLING = "dangling"
    TITLE_MISMATCH = "title-mismatch"
    EXTERNAL = "external"


class Cue(StrEnum):
    """Why a number counts as a reference (see :class:`Reference`)."""

    NUMBER = "number"
    RULE_WORD = "rule-word"
    SEE_WORD = "see-word"
    TITLE = "title"
    LIST = "list"
    SECTION = "section"


PARTS = tuple(RefPart)
STATUSES = tuple(RefStatus)

GLOSSARY_PREFIX = "glossary:"
SECTION_PREFIX = "section:"


def glossary_node(term: str) -> str:
    return f"{GLOSSARY_PREFIX}{term}"


def section_node(number: int | str) -> str:
    return f"{SECTION_PREFIX}{number}"


class NodeKind(StrEnum):
    """What a node of the citation graph is; ``missing``: a cited target the document lacks."""

    SECTION = "section"
    RULE = "rule"
    GLOSSARY = "glossary"
    MISSING = "missing"


@dataclass(frozen=True)
class Reference:
    """One citation of a rule, a range of rules or a section, in one piece of text.

    ``span`` is the ``[start, end)`` of ``raw`` (the number or range exactly as written,
    without the cue word and title) in the citing text: the rule's text, its
    ``example``-th example, or a glossary definition.  ``targets`` are the cited ids,
    a range expanded to every rule in it that exists (plus its endpoints when they do
    not); sections are ``section:N``.  ``cue`` tells why the number counts as a
    reference: ``number`` (a subrule number is one by its shape), ``rule-word``,
    ``see-word``, ``title``, ``list`` (continues a list of references) or ``section``.
    """

    source: str
    part: RefPart
    span: tuple[int, int]
    raw: str
    kind: RefKind
    targets: tuple[str, ...]
    cue: Cue
    title: str | None = field(default=None, metadata=OMIT_NONE)
    example: int | None = field(default=None, metadata=OMIT_NONE)
    lang: str = "en"
    status: RefStatus = RefStatus.UNRESOLVED
    missing: tuple[str, ...] = field(default=(), metadata=OMIT_DEFAULT)
    detail: str | None = field(default=None, metadata=OMIT_NONE)

    @property
    def is_range(self) -> bool:
        return self.kind == RefKind.RANGE

    def to_dict(self) -> dict:
        return to_data(self)
