"""Measure a ranking against gold links: precision at 1, recall at 5, mean reciprocal rank.

Gold format (``rulings-dev/seed-rulings-gold.json``): ``{"rulings": [{"text", "primary",
"acceptable": [...]}, ...]}``; a ruling's hit is its primary rule or any acceptable one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..rulings.model import Card, Ruling
from .linker import card_contexts
from ..io import read_bounded_text


@dataclass(frozen=True)
class GoldItem:
    text: str
    hits: frozenset[str]
    primary: str
    layout: str | None = None
    card: str | None = None


def load_gold(path) -> list[GoldItem]:
    p = Path(path)
    try:
        obj = json.loads(read_bounded_text(p, encoding="utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise InputError(f"gold file is not valid JSON: {e}", p) from None
    items = obj.get("rulings") if isinstance(obj, dict) else None
    if not isinstance(items, list) or not items:
        raise InputError("gold file needs a non-empty 'rulings' list of {text, primary, acceptable}", p)
    out = []
    for i, r in enumerate(items):
        if not isinstance(r, dict) or not isinstance(r.get("text"), str) or not isinstance(r.get("primary"), str):
            raise InputError(f"gold ruling #{i + 1} needs 'text' and 'primary'", p)
        acc = r.get("acceptable") or []
        layout = r.get("layout") or obj.get("layout")
        out.append(GoldItem(r["text"], frozenset([r["primary"], *acc]), r["primary"], layout, r.get("card") or obj.get("card")))
    return out


def metrics(rankings: list[list[str]], gold: list[GoldItem]) -> dict:
    n = len(gold)
    p1 = r5 = rr = 0.0
    for ranked, g in zip(rankings, gold):
        if ranked[:1] and ranked[0] in g.hits:
            p1 += 1
        if any(x in g.hits for x in ranked[:5]):
            r5 += 1
        rank = next((i for i, x in enumerate(ranked, 1) if x in g.hits), None)
        rr += 1.0 / rank if rank else 0.0
    return {"n": n, "p_at_1": round(p1 / n, 4), "r_at_5": round(r5 / n, 4), "mrr": round(rr / n, 4)}


def gold_inputs(gold: list[GoldItem], cards=None) -> dict:
    """Keyword arguments for :meth:`Linker.link_texts` from gold items: the card's name,
    layout and context (its rules text when a card file is given, and its other rulings)."""
    rulings = []
    for g in gold:
        card = cards.resolve(g.card) if (cards is not None and g.card) else None
        if card is None and g.card:
            card = Card(name=g.card, layout=g.layout or "normal")
        rulings.append(Ruling(date=None, text=g.text, source="gold", position=0, card=card))
    return {"cards": [r.card.name if r.card else None for r in rulings],
            "layouts": [g.layout or (r.card.layout if r.card else None) for g, r in zip(gold, rulings)],
            "contexts": card_contexts(rulings)}
