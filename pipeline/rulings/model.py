"""The rulings model: every reader (paste, MTGJSON v3/v5, Scryfall) produces these types."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from ..serialize import json_field, to_data


@dataclass(frozen=True)
class Card:
    """A card as rulings know it.

    ``name`` is the English name, faces joined with `` // `` for split, aftermath, flip and
    double-faced cards ("Refuse // Cooperate"); when a localized name could not be resolved
    it stays as given and ``resolved`` is False.  ``localized`` holds ``(language, name)``
    pairs (ISO 639-1 codes), sorted, so cards hash and compare.  ``text`` is the card's
    rules text when the source has it (MTGJSON); the linker reads it as context.
    """

    name: str
    faces: tuple[str, ...] = ()
    layout: str = "normal"
    localized: tuple[tuple[str, str], ...] = field(default=(), metadata=json_field(convert=dict))  # JSON: {lang: name}
    oracle_id: str | None = None
    resolved: bool = True
    text: str = ""  # rules text, faces separated by a line "//" (when the source has it)

    def localized_name(self, lang: str) -> str | None:
        return next((n for lg, n in self.localized if lg == lang), None)

    def to_dict(self) -> dict:
        return to_data(self)


@dataclass(frozen=True)
class Ruling:
    """One ruling: ISO date, English text, where it came from, its position in the source."""

    date: str | None
    text: str
    source: str
    position: int
    card: Card | None = field(default=None, metadata=json_field(convert=lambda c: c.name if c else None))  # by its name

    def to_dict(self) -> dict:
        return to_data(self)


class RulingsFormat(StrEnum):
    """The rulings files read."""

    PASTE = "paste"
    MTGJSON3 = "mtgjson3"
    MTGJSON5 = "mtgjson5"
    SCRYFALL_LIST = "scryfall-list"
    SCRYFALL_BULK = "scryfall-bulk"


@dataclass
class RulingSet:
    """What one file held: its format, the cards and rulings, and notes on choices made."""

    path: str
    format: RulingsFormat
    cards: list[Card] = field(default_factory=list)
    rulings: list[Ruling] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return to_data(self)
