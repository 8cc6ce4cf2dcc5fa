"""What the linker answers: a ranked candidate rule and the evidence that carried it.

A leaf module, so that the linker and the learned re-ranker both build candidates without
importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


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
    score: float

    def to_dict(self) -> dict:
        return {"kind": self.kind, "detail": self.detail, "score": round(self.score, 4)}


@dataclass
class Candidate:
    rule: str
    score: float
    evidence: list[Evidence] = field(default_factory=list)
    #: The first answer only: the calibrated probability that it is right, and whether that
    #: is high enough to call it confident (``pipeline/data/link-calibration.json``).
    confidence: float | None = None
    confident: bool | None = None

    def to_dict(self) -> dict:
        d = {"rule": self.rule, "score": round(self.score, 4), "evidence": [e.to_dict() for e in self.evidence]}
        if self.confidence is not None:
            d["confidence"] = round(self.confidence, 3)
            d["confident"] = bool(self.confident)
        return d
