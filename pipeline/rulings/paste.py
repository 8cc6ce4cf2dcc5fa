"""Rulings pasted from a rulings page: an optional card name, then date lines and texts.

    Recusar // Cooperar

    14/07/2017

    Cooperate can copy any instant or sorcery spell, …

A ruling's text runs from its date line to the next date line (wrapped lines are joined,
paragraphs kept).  A date may also open the text's line ("2017-07-14: …").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..profiles.dates import day_first
from .dates import decide_order, parse_date, split_date_prefix


@dataclass
class PasteBlock:
    date_text: str
    lines: list[str] = field(default_factory=list)
    line: int = 0

    @property
    def text(self) -> str:
        paras, cur = [], []
        for ln in self.lines + [""]:
            if ln:
                cur.append(ln)
            elif cur:
                paras.append(" ".join(cur))
                cur = []
        return "\n".join(paras)


@dataclass
class Paste:
    header: list[str]
    blocks: list[PasteBlock]

    @property
    def card_name(self) -> str | None:
        return self.header[0] if self.header else None


def split_paste(text: str) -> Paste:
    header: list[str] = []
    blocks: list[PasteBlock] = []
    for n, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        hit = split_date_prefix(line) if line else None
        if hit:
            blocks.append(PasteBlock(hit[0], [hit[1]] if hit[1] else [], n))
        elif blocks:
            blocks[-1].lines.append(line)
        elif line:
            header.append(line)
    return Paste(header, blocks)


def order_hint(lang: str | None) -> str | None:
    if lang is None:
        return None
    return "dmy" if day_first(lang) else "mdy"


def dated_texts(paste: Paste, hint: str | None) -> tuple[list[tuple[str | None, str, int]], list[str]]:
    """``[(iso date, text, line)]`` and notes; raises DateOrderError on contradicting dates."""
    order, why = decide_order([b.date_text for b in paste.blocks], hint)
    notes = [f"date order {order}: {why}"]
    out = []
    for b in paste.blocks:
        iso = parse_date(b.date_text, order)
        if iso is None:
            notes.append(f"line {b.line}: {b.date_text!r} is not a valid date under {order} order")
        if not b.text:
            notes.append(f"line {b.line}: date with no ruling text, skipped")
            continue
        out.append((iso, b.text, b.line))
    return out, notes
