"""Casting a spell: the announcements of 601.2b and the total cost of 601.2f.

The steps run in the rules' order and the order is recorded on the spell, so another
engine's order can be compared with ours (phase.rs asks for targets before X).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping, Sequence

from .errors import EngineError, IllegalAction
from .mana import COLORS, ManaCost, Symbol, card_mana_value
from .objects import CardDef
from .registry import implements

#: The alternative cost "without paying its mana cost" (rule 118.9, 107.3b).
FREE = "without paying its mana cost"


@dataclass(frozen=True)
class Announcement:
    """What the caster announces in 601.2b (and the targets of 601.2c)."""

    half: int | None = None
    fused: bool = False
    modes: tuple[str, ...] = ()
    alternative_costs: tuple[str, ...] = ()
    additional_costs: tuple[str, ...] = ()
    x: int | None = None
    hybrid: tuple[str, ...] = ()  # the nonhybrid half chosen for each hybrid symbol, in order
    phyrexian_life: tuple[bool, ...] = ()  # for each Phyrexian symbol: pay 2 life instead
    targets: tuple[str, ...] = ()

    @classmethod
    def from_data(cls, d: Mapping | None) -> "Announcement":
        d = d or {}
        alt = d.get("alternative_cost")
        alts = tuple(d.get("alternative_costs", ())) + ((alt,) if alt else ())
        if d.get("without_paying_mana_cost"):
            alts += (FREE,)
        return cls(half=d.get("half"), fused=bool(d.get("fused", False)), modes=tuple(d.get("modes", ())),
                   alternative_costs=alts, additional_costs=tuple(d.get("additional_costs", ())),
                   x=d.get("x"), hybrid=tuple(d.get("hybrid", ())),
                   phyrexian_life=tuple(bool(b) for b in d.get("phyrexian_life", ())),
                   targets=tuple(d.get("targets", ())))


@dataclass(frozen=True)
class CostChange:
    """A cost increase or reduction from an effect: ``{1}`` more, ``{B}`` less…"""

    kind: str  # increase | reduce
    cost: ManaCost
    source: str = ""

    @classmethod
    def from_data(cls, d: Mapping) -> "CostChange":
        if d.get("kind") not in ("increase", "reduce"):
            raise EngineError(f"cost change kind must be increase or reduce: {d}")
        return cls(d["kind"], ManaCost.parse(d["cost"]), d.get("source", ""))


@dataclass(frozen=True)
class TotalCost:
    mana: ManaCost
    life: int = 0

    def to_dict(self) -> dict:
        return {"mana": str(self.mana), "life": self.life}


@dataclass(frozen=True)
class Spell:
    """A spell on the stack, cast or copied, with every choice made for it."""

    card: CardDef
    announcement: Announcement
    controller: str
    owner: str
    cast: bool
    is_copy: bool = False
    total_cost: TotalCost | None = None
    steps: tuple[str, ...] = ()  # the order choices were made in, as "rule:what"
    colors_override: tuple[str, ...] | None = None

    @property
    def x(self) -> int | None:
        return self.announcement.x

    @property
    def modes(self) -> tuple[str, ...]:
        return self.announcement.modes

    def mana_value(self) -> int:
        a = self.announcement
        return card_mana_value(self.card.faces, on_stack=True, half=a.half, fused=a.fused, x=a.x)

    def to_dict(self) -> dict:
        a = self.announcement
        return {
            "name": self.card.name, "cast": self.cast, "is_copy": self.is_copy, "controller": self.controller,
            "owner": self.owner, "x": a.x, "modes": list(a.modes), "targets": list(a.targets),
            "alternative_cost": a.alternative_costs[0] if a.alternative_costs else None,
            "additional_costs": list(a.additional_costs), "half": a.half, "fused": a.fused,
            "mana_value": self.mana_value(),
            "total_cost": self.total_cost.to_dict() if self.total_cost else None,
            "steps": list(self.steps),
            **({"colors": list(self.colors_override)} if self.colors_override is not None else {}),
        }


# -- 601.2b: announcements ------------------------------------------------------------

@implements("601.2b", "modal", "mode choice", "alternative or additional costs", "two alternative costs",
            "variable cost", "value of that variable", "hybrid", "Phyrexian")
@implements("118.9", "alternative costs", "rather than paying the spell’s mana cost", "without paying its mana cost")
@implements("118.9a", "Only one alternative cost")
@implements("700.2", "modal", "Choose one", "mode")
@implements("601.2c", "announces their choice", "for each target")
@implements("107.3b", "only legal choice for X is 0", "paying neither its mana cost nor an alternative cost")
@implements("709.3", "chooses which half")
@implements("709.3a", "Only the chosen half is evaluated")
@implements("107.3a", "the controller of that spell or ability chooses and announces the value of X")
def check_announcement(card: CardDef, a: Announcement) -> tuple[list[str], Announcement]:
    """Check the 601.2b announcements in their order; return the steps taken and the
    announcement with X fixed where the rules fix it.

    Raises :class:`IllegalAction` for two alternative costs (118.9a), a wrong number of
    modes, a missing split half, or X other than 0 when the spell is cast without paying
    its mana cost and no alternative cost with X is paid (107.3b).
    """
    steps: list[str] = []
    if card.faces.layout == "split":
        if a.half is None and not a.fused:
            raise IllegalAction(f"casting {card.name} needs the half being cast", "709.3")
        steps.append("709.3:half")
    if card.modes:
        if len(a.modes) != card.modes_to_choose or any(m not in card.modes for m in a.modes):
            raise IllegalAction(f"{card.name} needs {card.modes_to_choose} of its modes {list(card.modes)}", "601.2b")
        steps.append("601.2b:modes")
    elif a.modes:
        raise IllegalAction(f"{card.name} is not modal", "601.2b")
    if len(a.alternative_costs) > 1:
        raise IllegalAction("a player can't apply two alternative costs to a single spell", "118.9a")
    for name in a.alternative_costs:
        if name != FREE:
            card.alt_cost(name)
    for name in a.additional_costs:
        card.add_cost(name)
    for name in card.mandatory_additional:
        if name not in a.additional_costs:
            raise IllegalAction(f"{card.name}'s additional cost {name!r} must be paid", "601.2b")
    if a.alternative_costs or a.additional_costs:
        steps.append("601.2b:costs")
    base = base_cost(card, a)
    printed_x = _printed_has_x(card, a)
    pays_x = base is not None and base.has_x
    if (printed_x or pays_x) and not card.x_defined:
        if a.alternative_costs and not pays_x:
            # Neither the mana cost nor an alternative cost with X is paid: X can only be 0.
            if a.x not in (None, 0):
                raise IllegalAction("paying neither its mana cost nor an alternative cost with X: "
                                    "the only legal choice for X is 0", "107.3b")
            a = replace(a, x=0)
        elif a.x is None or a.x < 0:
            raise IllegalAction(f"{card.name} needs a value for X", "601.2b")
        steps.append("601.2b:X")
    elif a.x not in (None, 0) and not card.x_defined:
        raise IllegalAction(f"{card.name} has no X to announce", "601.2b")
    if base is not None and any(s.is_hybrid for s in base.symbols):
        steps.append("601.2b:hybrid")
    if base is not None and any(s.is_phyrexian for s in base.symbols):
        steps.append("601.2b:phyrexian")
    if card.targets:
        if len(a.targets) != card.targets:
            raise IllegalAction(f"{card.name} needs {card.targets} target(s)", "601.2c")
        steps.append("601.2c:targets")
    return steps, a


def _printed_has_x(card: CardDef, a: Announcement) -> bool:
    mc = _printed_cost(card, a)
    return mc is not None and mc.has_x


def _printed_cost(card: CardDef, a: Announcement) -> ManaCost | None:
    faces = card.faces
    if faces.layout == "split":
        if a.fused:
            return card.mana_cost
        return faces.faces[a.half].mana_cost if a.half is not None else card.mana_cost
    return faces.faces[0].mana_cost


def base_cost(card: CardDef, a: Announcement) -> ManaCost | None:
    """The mana cost or the announced alternative cost (601.2f's starting point)."""
    if a.alternative_costs:
        name = a.alternative_costs[0]
        return ManaCost(()) if name == FREE else card.alt_cost(name)
    return _printed_cost(card, a)


# -- 601.2f: total cost ---------------------------------------------------------------

@implements("601.2f", "total cost", "mana cost or alternative cost", "plus all additional costs and cost increases",
            "minus all cost reductions", "can’t be reduced to less than {0}", "locked in")
@implements("118.9d", "alternative cost", "additional costs, cost increases, and cost reductions",
            "applied to that alternative cost")
@implements("118.8d", "Additional costs don’t change a spell’s mana cost")
@implements("118.6", "no mana cost", "unpayable")
@implements("118.5", "reduced to {0}")
def total_cost(card: CardDef, a: Announcement, changes: Sequence[CostChange] = ()) -> TotalCost:
    """The total cost: the mana cost or the one alternative cost, plus additional costs and
    increases, minus reductions, never below {0} (601.2f).  Increases and reductions apply
    to an alternative cost just as to the mana cost (118.9d)."""
    base = base_cost(card, a)
    if base is None:
        raise IllegalAction(f"{card.name} has no mana cost: its cost is unpayable", "118.6")
    resolved, life = resolve_choices(base, a)
    extra = ManaCost(())
    for name in a.additional_costs:
        extra = extra + _substitute_x(card.add_cost(name), a.x or 0)
    generic, colored = _split(resolved + extra)
    for ch in changes:
        if ch.kind == "increase":
            g, c = _split(_substitute_x(ch.cost, a.x or 0))
            generic += g
            for k, v in c.items():
                colored[k] = colored.get(k, 0) + v
    for ch in changes:
        if ch.kind == "reduce":
            generic = _reduce(generic, colored, ch.cost)
    return TotalCost(_join(generic, colored), life)


@implements("118.7a", "reduce a cost by an amount of generic mana", "only the generic mana component")
@implements("118.7b", "doesn’t require mana of that type", "generic mana")
@implements("118.7c", "exceeds its mana component of that color", "reduced by the difference")
@implements("118.7d", "colorless mana", "reduced by the difference")
@implements("118.7e", "hybrid mana symbol", "chooses one half", "reduced by one mana of that color")
@implements("118.7f", "Phyrexian mana symbol", "one mana of that symbol’s color")
@implements("118.7g", "snow mana symbols", "generic mana")
def _reduce(generic: int, colored: dict[str, int], by: ManaCost) -> int:
    """Apply one reduction in place on ``colored``; return the new generic amount.

    For a hybrid symbol the payer picks the half that helps: a color the cost still has,
    else the generic half ({2/W} takes 2)."""
    def one_color(key: str, generic: int) -> int:
        if colored.get(key, 0):
            colored[key] -= 1
            return generic
        return max(0, generic - 1)  # 118.7b-d: the excess comes off the generic part

    for s in by.symbols:
        if s.kind == "generic":
            generic = max(0, generic - s.amount)
        elif s.kind in ("colored", "phyrexian"):
            generic = one_color(s.colors[0], generic)
        elif s.kind == "colorless":
            generic = one_color("C", generic)
        elif s.kind in ("hybrid", "hybrid_phyrexian", "twobrid"):
            present = [c for c in s.colors if colored.get(c, 0)]
            if present:
                colored[present[0]] -= 1
            else:
                generic = max(0, generic - (2 if s.kind == "twobrid" else 1))
        else:  # snow: generic mana (118.7g)
            generic = max(0, generic - 1)
    return generic


@implements("118.13a", "paid in multiple ways", "as its controller proposes")
def resolve_choices(cost: ManaCost, a: Announcement) -> tuple[ManaCost, int]:
    """Replace X by its value, each hybrid symbol by the half announced, each Phyrexian
    symbol by its colored mana or 2 life; returns (cost, life to pay)."""
    out: list[Symbol] = []
    hybrid = list(a.hybrid)
    phyrexian = list(a.phyrexian_life)
    life = 0
    for s in cost.symbols:
        if s.kind == "variable":
            if a.x:
                out.append(Symbol("generic", a.x))
        elif s.kind in ("hybrid", "twobrid", "hybrid_phyrexian"):
            choice = hybrid.pop(0) if hybrid else (s.colors[0] if s.kind != "twobrid" else "2")
            if s.kind == "hybrid_phyrexian" and choice == "P":
                life += 2
            elif choice == "2" and s.kind == "twobrid":
                out.append(Symbol("generic", 2))
            elif choice in s.colors:
                out.append(Symbol("colored", colors=(choice,)))
            else:
                raise IllegalAction(f"{choice!r} is not a half of {s}", "601.2b")
        elif s.kind == "phyrexian":
            if phyrexian.pop(0) if phyrexian else False:
                life += 2
            else:
                out.append(Symbol("colored", colors=s.colors))
        else:
            out.append(s)
    return ManaCost(tuple(out)), life


def _substitute_x(cost: ManaCost, x: int) -> ManaCost:
    return ManaCost(tuple(Symbol("generic", x) if s.kind == "variable" else s for s in cost.symbols if not (s.kind == "variable" and not x)))


def _split(cost: ManaCost) -> tuple[int, dict[str, int]]:
    generic, colored = 0, {}
    for s in cost.symbols:
        if s.kind == "generic":
            generic += s.amount
        else:
            key = s.colors[0] if s.kind == "colored" else ("C" if s.kind == "colorless" else "S")
            colored[key] = colored.get(key, 0) + 1
    return generic, colored


def _join(generic: int, colored: dict[str, int]) -> ManaCost:
    syms: list[Symbol] = [Symbol("generic", generic)] if generic else []
    for key in list(COLORS) + ["C", "S"]:
        n = colored.get(key, 0)
        kind = "colored" if key in COLORS else ("colorless" if key == "C" else "snow")
        syms.extend(Symbol(kind, colors=(key,) if key in COLORS else ()) for _ in range(n))
    return ManaCost(tuple(syms))


@implements("601.2", "To cast a spell", "put it on the stack", "pay its costs")
@implements("601.2i", "becomes cast")
def cast_spell(card: CardDef, a: Announcement, changes: Sequence[CostChange] = (), controller: str = "you") -> Spell:
    """Cast ``card``: check the announcements, lock in the total cost, and put the spell on
    the stack as a cast spell controlled and owned by ``controller``."""
    steps, a = check_announcement(card, a)
    cost = total_cost(card, a, changes)
    steps.append("601.2f:total cost")
    return Spell(card, a, controller, controller, cast=True, total_cost=cost, steps=tuple(steps))
