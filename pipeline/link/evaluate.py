"""Measure a ranking against gold links: precision at 1, recall at 5, mean reciprocal rank.

Gold format (``rulings-dev/seed-rulings-gold.json``): ``{"rulings": [{"text", "primary",
"acceptable": [...]}, ...]}``; a ruling's hit is its primary rule or any acceptable one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
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
    card_text: str = ""
    split: str | None = None
    id: str | None = None
    draw: int | None = None  # which random draw of a labelled set it came from (labels.json)
    set: str | None = None  # the card's set (labels.json): leave-one-set-out folds


def load_gold(path, split: str | None = None) -> list[GoldItem]:
    """The governed rulings of a gold file (``governed: false`` items name no rule and are
    left out), optionally only those of one ``split`` (train / test)."""
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
        if r.get("governed") is False or (split and r.get("split") != split):
            continue
        acc = r.get("acceptable") or []
        layout = r.get("layout") or obj.get("layout")
        out.append(GoldItem(r["text"], frozenset([r["primary"], *acc]), r["primary"], layout, r.get("card") or obj.get("card"),
                            r.get("card_text") or "", r.get("split"), r.get("id"), r.get("draw"), r.get("set")))
    if not out:
        raise InputError(f"no governed rulings{f' in split {split!r}' if split else ''}", p)
    return out


def gold_edition(path) -> str | None:
    """The edition whose numbering a gold file's labels use (its ``cr_edition``), if stated."""
    try:
        obj = json.loads(read_bounded_text(Path(path), encoding="utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    ed = obj.get("cr_edition") if isinstance(obj, dict) else None
    return ed if isinstance(ed, str) and ed else None


def map_gold(gold: list[GoldItem], from_date: str | None, to_date: str | None, archive=None
             ) -> tuple[list[GoldItem], int]:
    """The gold items renumbered from ``from_date`` (the edition they were labelled on) to
    ``to_date`` (the edition linked against): each accepted rule mapped through the
    renumbering, rules gone from ``to_date`` dropped, items left with no rule dropped (their
    count is returned).  A primary rule that is gone gives way to the first mapped accepted one."""
    from .renumber import number_map  # deferred: the archive of editions, read only off the labels' edition

    if not from_date or not to_date or from_date == to_date:
        return list(gold), 0
    m = number_map({h for g in gold for h in g.hits}, from_date, to_date, archive)
    out, dropped = [], 0
    for g in gold:
        hits = frozenset(x for x in (m.get(h) for h in g.hits) if x)
        if not hits:
            dropped += 1
            continue
        primary = m.get(g.primary) or sorted(hits)[0]
        out.append(replace(g, hits=hits, primary=primary))
    return out, dropped


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


def by_draw(rankings: dict[str, list[list[str]]], gold: list[GoldItem]) -> dict:
    """Per draw of the gold set (when its items name one): each method's metrics on that
    draw's rulings alone, so figures stay comparable with those measured before a draw was
    added.  ``rankings``: method -> rankings in gold order."""
    draws = sorted({g.draw for g in gold if g.draw is not None})
    out = {}
    for d in draws:
        idx = [i for i, g in enumerate(gold) if g.draw == d]
        sub = [gold[i] for i in idx]
        out[str(d)] = {name: metrics([r[i] for i in idx], sub) for name, r in rankings.items()}
    return out


def gold_inputs(gold: list[GoldItem], cards=None, rulings=None) -> dict:
    """Keyword arguments for :meth:`Linker.link_texts` from gold items: the card's name,
    layout and context — its rules text (from a card file, else the gold item's
    ``card_text``) and its other rulings: all of the card's rulings in ``rulings`` (the set
    files the gold was drawn from, as ``crpipe link`` would see them), else the gold's."""
    gold_r = []
    for g in gold:
        card = cards.resolve(g.card) if (cards is not None and g.card) else None
        if card is None and g.card:
            card = Card(name=g.card, layout=g.layout or "normal", text=g.card_text)
        gold_r.append(Ruling(date=None, text=g.text, source="gold", position=0, card=card))
    contexts = card_contexts(gold_r)
    if rulings:
        by_card: dict[str, list[str]] = {}
        for r in rulings:
            if r.card and r.text not in by_card.setdefault(r.card.name, []):
                by_card[r.card.name].append(r.text)
        contexts = []
        for r in gold_r:
            if r.card is None:
                contexts.append(None)
                continue
            texts = by_card.get(r.card.name) or [r.text]
            contexts.append("\n".join(([r.card.text] if r.card.text else []) + texts))
    return {"cards": [r.card.name if r.card else None for r in gold_r],
            "layouts": [g.layout or (r.card.layout if r.card else None) for g, r in zip(gold, gold_r)],
            "contexts": contexts}


def relation(got: str, want: str) -> str:
    """How a wrong first answer relates to the gold rule: ``general`` (an ancestor of it),
    ``specific`` (a descendant), ``sibling`` (same parent), ``same-rule`` (same three-digit
    rule), ``same-section`` or ``elsewhere``."""
    def chain(rid: str) -> list[str]:
        out = [rid]
        while True:
            head, _, tail = rid.rpartition(".")
            if tail and tail[-1].isalpha():
                rid = rid.rstrip("abcdefghijkmnpqrstuvwxyz")
            elif head:
                rid = head
            else:
                return out
            out.append(rid)
    g, w = chain(got), chain(want)
    if got in w:
        return "general"
    if want in g:
        return "specific"
    if len(g) > 1 and len(w) > 1 and g[1] == w[1]:
        return "sibling"
    if g[-1] == w[-1]:
        return "same-rule"
    if got[0] == want[0]:
        return "same-section"
    return "elsewhere"


def breakdown(rankings: list[list[str]], gold: list[GoldItem], sections: dict[str, str] | None = None) -> dict:
    """Per section of the primary rule: n, P@1, R@5; and for first answers that miss, how
    they relate to the primary rule (general vs specific confusion)."""
    sections = sections or {}
    per: dict[str, list[list[str]]] = {}
    per_gold: dict[str, list[GoldItem]] = {}
    confusion: dict[str, int] = {}
    for ranked, g in zip(rankings, gold):
        sec = g.primary[0]
        per.setdefault(sec, []).append(ranked)
        per_gold.setdefault(sec, []).append(g)
        if ranked and ranked[0] not in g.hits:
            k = relation(ranked[0], g.primary)
            confusion[k] = confusion.get(k, 0) + 1
    out = {}
    for sec in sorted(per):
        m = metrics(per[sec], per_gold[sec])
        out[sec] = {"title": sections.get(sec, ""), "n": m["n"], "p_at_1": m["p_at_1"], "r_at_5": m["r_at_5"]}
    order = ("general", "specific", "sibling", "same-rule", "same-section", "elsewhere")
    return {"sections": out, "first_answer_misses": {k: confusion.get(k, 0) for k in order}}
