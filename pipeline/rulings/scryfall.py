"""Scryfall rulings: the API list object and the bulk "rulings" file.

A ruling object is ``{object: "ruling", oracle_id, source: "wotc"|"scryfall",
published_at: "YYYY-MM-DD", comment}``.  The API wraps them in ``{object: "list",
has_more, data: [...]}``; the bulk file is a bare JSON array of them.  Rulings name no
card, only an oracle id; a card file with Scryfall oracle ids (MTGJSON v5
``identifiers.scryfallOracleId``) gives the name.
"""

from __future__ import annotations

from .model import Card, Ruling


def _is_ruling(x) -> bool:
    return isinstance(x, dict) and x.get("object") == "ruling" and isinstance(x.get("comment"), str)


def detect(obj) -> str | None:
    if isinstance(obj, dict) and obj.get("object") == "list" and isinstance(obj.get("data"), list):
        if all(_is_ruling(x) for x in obj["data"]):
            return "scryfall-list"
        return None
    if isinstance(obj, list) and obj and all(_is_ruling(x) for x in obj):
        return "scryfall-bulk"
    return None


def read(obj, shape: str, by_oracle: dict[str, Card] | None = None) -> tuple[list[Card], list[Ruling]]:
    items = obj["data"] if shape == "scryfall-list" else obj
    by_oracle = by_oracle or {}
    cards: dict[str, Card] = {}
    rulings: list[Ruling] = []
    pos: dict[str, int] = {}
    for x in items:
        # A wrongly typed field is treated as absent (a user's file; a list cannot key a dict).
        oid = x.get("oracle_id") if isinstance(x.get("oracle_id"), str) else ""
        card = cards.get(oid)
        if card is None:
            card = by_oracle.get(oid) or Card(name=f"oracle:{oid}" if oid else "unknown", oracle_id=oid or None,
                                               resolved=False)
            cards[oid] = card
        i = pos.get(oid, 0)
        pos[oid] = i + 1
        date = x.get("published_at") if isinstance(x.get("published_at"), str) else None
        source = x.get("source") if isinstance(x.get("source"), str) else "unknown"
        rulings.append(Ruling(date=date, text=x["comment"].strip(), source=f"scryfall:{source}", position=i, card=card))
    return sorted(cards.values(), key=lambda c: c.name), rulings
