"""What the linker answers: a ranked candidate rule and the evidence that carried it.

A leaf module, so that the linker and the learned re-ranker both build candidates without
importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from ..serialize import json_field, to_data


class EvidenceKind(StrEnum):
    """The linker's views: what a piece of evidence came from (a trigger's kind is one of the first four)."""

    KEYWORD = "keyword"
    TOPIC = "topic"
    GLOSSARY = "glossary"
    LAYOUT = "layout"
    TEXT = "text"
    ALIAS = "alias"
    REFERENCE = "reference"
    SENTENCE = "sentence"
    CARD = "card"
    MODEL = "model"
    NEIGHBOUR = "neighbour"


@dataclass
class Evidence:
    kind: EvidenceKind
    detail: str
    score: float = field(metadata=json_field(digits=4))

    def to_dict(self) -> dict:
        return to_data(self)


@dataclass
class Candidate:
    rule: str
    score: float = field(metadata=json_field(digits=4))
    evidence: list[Evidence] = field(default_factory=list)
    #: The first answer only: the calibrated probability that it is right, and whether that
    #: is high enough to call it confident (``pipeline/data/link-calibration.json``).
    confidence: float | None = field(default=None, metadata=json_field(omit="none", digits=3))
    confident: bool | None = field(default=None, metadata=json_field(omit="none", convert=bool))

    def to_dict(self) -> dict:
        return to_data(self)
