"""Localized card names -> English, through the foreign names MTGJSON files carry."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from .model import Card


def _key(name: str) -> str:
    # Pastes differ from MTGJSON in case, apostrophes and spacing around "//".
    n = unicodedata.normalize("NFC", name).replace("’", "'").casefold()
    return " // ".join(p.strip() for p in n.split("//"))


@dataclass
class NameIndex:
    """English and localized names (whole card and each face) of the cards of some files."""

    by_name: dict[str, Card] = field(default_factory=dict)
    by_oracle: dict[str, Card] = field(default_factory=dict)

    @classmethod
    def from_cards(cls, cards) -> "NameIndex":
        idx = cls()
        for c in cards:
            idx.add(c)
        return idx

    def add(self, card: Card) -> None:
        keys = [(card.name, None)] + [(n, lg) for lg, n in card.localized]
        for k, _ in keys:
            self.by_name.setdefault(_key(k), card)
        if len(card.faces) > 1:
            for f in card.faces:
                self.by_name.setdefault(_key(f), card)
        if card.oracle_id:
            self.by_oracle.setdefault(card.oracle_id, card)

    def __len__(self) -> int:
        return len(self.by_name)

    def resolve(self, name: str) -> Card | None:
        """The card a name (English or localized, whole or one face) stands for."""
        hit = self.by_name.get(_key(name))
        if hit:
            return hit
        # "Recusar // Cooperar" when only the faces are indexed: every face must agree.
        parts = [p for p in _key(name).split(" // ") if p]
        if len(parts) > 1:
            found = {self.by_name.get(p) for p in parts}
            if len(found) == 1 and None not in found:
                return found.pop()
        return None
