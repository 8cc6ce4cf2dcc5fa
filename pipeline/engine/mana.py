"""Mana symbols, mana costs and mana value (rules 107.4, 202.3, 709.4b).

A cost is parsed into typed symbols once; every later question (mana value, colors,
what a reduction can touch) is answered from the symbols, never from the string.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable

from .errors import EngineError
from .registry import implements

COLORS = "WUBRG"
_SYMBOL_RE = re.compile(r"\{([^{}]*)\}")


@dataclass(frozen=True, slots=True)
class Symbol:
    """One mana symbol.  ``kind`` is one of generic, variable, colored, colorless, snow,
    hybrid (two colors), twobrid ({2/W}), phyrexian ({W/P}), hybrid_phyrexian ({W/U/P})."""

    kind: str
    amount: int = 0  # generic only
    colors: tuple[str, ...] = ()
    letter: str = ""  # variable only: X, Y or Z

    def __str__(self) -> str:
        return "{" + _SYMBOL_BODY.get(self.kind, _SYMBOL_BODY["hybrid_phyrexian"])(self) + "}"

    @property
    def is_phyrexian(self) -> bool:
        return self.kind in ("phyrexian", "hybrid_phyrexian")

    @property
    def is_hybrid(self) -> bool:
        return self.kind in ("hybrid", "twobrid", "hybrid_phyrexian")


#: How each kind of symbol is written between its braces.
_SYMBOL_BODY: dict[str, Callable[[Symbol], str]] = {
    "generic": lambda s: str(s.amount),
    "variable": lambda s: s.letter,
    "colored": lambda s: s.colors[0],
    "colorless": lambda s: "C",
    "snow": lambda s: "S",
    "hybrid": lambda s: f"{s.colors[0]}/{s.colors[1]}",
    "twobrid": lambda s: f"2/{s.colors[0]}",
    "phyrexian": lambda s: f"{s.colors[0]}/P",
    "hybrid_phyrexian": lambda s: f"{s.colors[0]}/{s.colors[1]}/P",
}


def parse_symbol(body: str) -> Symbol:
    b = body.strip().upper()
    if b.isdigit():
        return Symbol("generic", int(b))
    if b in ("X", "Y", "Z"):
        return Symbol("variable", letter=b)
    if len(b) == 1 and b in COLORS:
        return Symbol("colored", colors=(b,))
    if b == "C":
        return Symbol("colorless")
    if b == "S":
        return Symbol("snow")
    parts = b.split("/")
    if len(parts) == 2 and parts[1] == "P" and parts[0] in COLORS:
        return Symbol("phyrexian", colors=(parts[0],))
    if len(parts) == 2 and parts[0] == "2" and parts[1] in COLORS:
        return Symbol("twobrid", colors=(parts[1],))
    if len(parts) == 2 and all(p in COLORS for p in parts) and parts[0] != parts[1]:
        return Symbol("hybrid", colors=(parts[0], parts[1]))
    if len(parts) == 3 and parts[2] == "P" and all(p in COLORS for p in parts[:2]) and parts[0] != parts[1]:
        return Symbol("hybrid_phyrexian", colors=(parts[0], parts[1]))
    raise EngineError(f"unknown mana symbol {{{body}}}")


@dataclass(frozen=True, slots=True)
class ManaCost:
    """A mana cost as printed: an ordered tuple of symbols.  ``ManaCost(())`` is {0}'s
    symbol-free form; a card with *no* mana cost is represented by ``None`` instead."""

    symbols: tuple[Symbol, ...] = ()

    @classmethod
    def parse(cls, text: str) -> "ManaCost":
        t = text.strip()
        if not t:
            return cls(())
        pos, out = 0, []
        for m in _SYMBOL_RE.finditer(t):
            if t[pos:m.start()].strip():
                raise EngineError(f"not a mana cost: {text!r}")
            out.append(parse_symbol(m.group(1)))
            pos = m.end()
        if t[pos:].strip() or not out:
            raise EngineError(f"not a mana cost: {text!r}")
        # {0} is an explicit zero; it adds nothing and is kept only when it is the whole cost.
        syms = tuple(s for s in out if not (s.kind == "generic" and s.amount == 0))
        return cls(syms)

    def __str__(self) -> str:
        return "".join(str(s) for s in self.symbols) or "{0}"

    def __add__(self, other: "ManaCost") -> "ManaCost":
        return ManaCost(self.symbols + other.symbols)

    @property
    def has_x(self) -> bool:
        return any(s.kind == "variable" for s in self.symbols)

    @property
    def generic(self) -> int:
        return sum(s.amount for s in self.symbols if s.kind == "generic")

    def colors(self) -> set[str]:
        return {c for s in self.symbols for c in s.colors}


@implements("202.3", "mana value", "total amount of mana", "regardless of color")
@implements("202.3e", "X is treated as 0", "not on the stack", "number chosen")
@implements("202.3f", "hybrid", "largest component")
@implements("202.3g", "Phyrexian", "contributes 1")
@implements("107.3g", "any zone other than the stack", "treated as 0")
@implements("107.3i", "all instances of X on an object have the same value")
def mana_value(cost: ManaCost | None, x: int | None = None) -> int:
    """Mana value of one mana cost: the total mana in it, regardless of color.

    ``x`` is the value chosen for X while the object is on the stack; pass None when the
    object is not on the stack, where X is treated as 0 (202.3e).  Hybrid symbols count their largest component
    (202.3f), Phyrexian symbols count 1 (202.3g).  No mana cost gives 0 (202.3a).
    """
    if cost is None:
        return 0
    total = 0
    for s in cost.symbols:
        if s.kind == "generic":
            total += s.amount
        elif s.kind == "variable":
            total += x or 0
        elif s.kind == "twobrid":
            total += 2
        else:  # colored, colorless, snow, hybrid, phyrexian: one mana each
            total += 1
    return total


@dataclass(frozen=True)
class Face:
    name: str
    mana_cost: ManaCost | None
    types: tuple[str, ...] = ()


@dataclass(frozen=True)
class CardFaces:
    """The faces a card has and how they relate: ``layout`` is normal, split,
    transform (nonmodal double-faced) or modal_dfc."""

    faces: tuple[Face, ...]
    layout: str = "normal"


@implements("202.3a", "no mana cost is 0", "back face", "nonmodal double-faced")
@implements("202.3b", "back face", "mana cost of its front face")
@implements("202.3d", "split card", "fused split spell", "combined mana costs", "half that was chosen")
@implements("709.4b", "combined mana costs", "mana value")
@implements("709.3b", "only the characteristics of the half being cast")
@implements("709.4d", "fused split spell", "two halves combined")
@implements("709.4", "In every zone except the stack", "two halves combined")
def card_mana_value(card: CardFaces, on_stack: bool = False, half: int | None = None,
                    fused: bool = False, x: int | None = None, face_up: int = 0) -> int:
    """Mana value of a card in any zone.

    Split cards: the combined costs off the stack or when fused (202.3d, 709.4b), the chosen
    half's cost on the stack (709.3b).  Nonmodal double-faced cards: a back face uses the
    front face's cost (202.3b); modal double-faced faces use their own.
    """
    xs = x if on_stack else None
    if card.layout == "split":
        if on_stack and not fused:
            if half is None:
                raise EngineError("a split spell on the stack needs the half being cast (709.3)")
            return mana_value(card.faces[half].mana_cost, xs)
        return sum(mana_value(f.mana_cost, xs) for f in card.faces)
    if card.layout == "transform" and face_up == 1:
        return mana_value(card.faces[0].mana_cost, xs)
    return mana_value(card.faces[face_up].mana_cost, xs)


def combined(costs: Iterable[ManaCost | None]) -> ManaCost:
    out: tuple[Symbol, ...] = ()
    for c in costs:
        if c is not None:
            out += c.symbols
    return ManaCost(out)
