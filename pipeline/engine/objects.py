"""The objects the engine reasons about: cards, characteristics, abilities, permanents.

Abilities are data (a ``kind`` the engine understands plus the printed text), because the
engine implements rules, not an Oracle-text parser: a scenario states what a card does.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from .errors import EngineError
from .mana import CardFaces, Face, ManaCost, combined


@dataclass(frozen=True)
class Ability:
    kind: str  # e.g. enters_tapped, enter_as_copy, persist, as_enters_choose, activated
    text: str = ""
    params: tuple[tuple[str, Any], ...] = ()

    def param(self, key: str, default=None):
        return dict(self.params).get(key, default)

    @classmethod
    def from_data(cls, d: "str | Mapping") -> "Ability":
        if isinstance(d, str):
            return cls("text", d)
        d = dict(d)
        kind = d.pop("kind", None)
        if not kind:
            raise EngineError(f"an ability needs a 'kind': {d}")
        text = d.pop("text", "")
        return cls(kind, text, tuple(sorted((k, _freeze(v)) for k, v in d.items())))

    def to_data(self) -> dict:
        return {"kind": self.kind, **({"text": self.text} if self.text else {}), **dict(self.params)}


def _freeze(v):
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _freeze(x)) for k, x in v.items()))
    return v


@dataclass(frozen=True)
class Characteristics:
    """Characteristics of an object (rule 109.3) that copy effects can see."""

    name: str | None = None
    mana_cost: ManaCost | None = None
    colors: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    power: int | None = None
    toughness: int | None = None
    abilities: tuple[Ability, ...] = ()

    def has(self, kind: str) -> bool:
        return any(a.kind == kind for a in self.abilities)

    def ability(self, kind: str) -> Ability | None:
        return next((a for a in self.abilities if a.kind == kind), None)

    def to_dict(self) -> dict:
        return {
            "name": self.name, "mana_cost": str(self.mana_cost) if self.mana_cost is not None else None,
            "colors": list(self.colors), "types": list(self.types), "subtypes": list(self.subtypes),
            "supertypes": list(self.supertypes), "power": self.power, "toughness": self.toughness,
            "abilities": [a.text or a.kind for a in self.abilities],
        }

    @classmethod
    def from_data(cls, d: Mapping) -> "Characteristics":
        cost = d.get("mana_cost")
        mc = ManaCost.parse(cost) if isinstance(cost, str) else None
        colors = d.get("colors")
        if colors is None:  # 105.2/202.2: color comes from the mana cost unless stated
            colors = cost_colors(mc)
        abilities = tuple(Ability.from_data(a) for a in d.get("abilities", ()))
        if d.get("morph"):
            abilities += (Ability("morph", f"Morph {d['morph']}", (("cost", d["morph"]),)),)
        return cls(
            name=d.get("name"), mana_cost=mc, colors=tuple(colors), types=tuple(d.get("types", ())),
            subtypes=tuple(d.get("subtypes", ())), supertypes=tuple(d.get("supertypes", ())),
            power=d.get("power"), toughness=d.get("toughness"), abilities=abilities,
        )


def cost_colors(mc: ManaCost | None) -> list[str]:
    """An object's colors from its mana cost (105.2, 202.2), in WUBRG order."""
    return sorted(mc.colors(), key="WUBRG".index) if mc else []


#: A face-down permanent's characteristics (rule 708.2a): a 2/2 creature with nothing else.
FACE_DOWN = Characteristics(name=None, mana_cost=None, colors=(), types=("Creature",), power=2, toughness=2)


@dataclass(frozen=True)
class Effect:
    """A non-copy continuous effect applied to a permanent (type-changing, P/T setting…)."""

    source: str
    set_types: tuple[str, ...] | None = None
    add_subtypes: tuple[str, ...] = ()
    power: int | None = None
    toughness: int | None = None

    @classmethod
    def from_data(cls, d: Mapping) -> "Effect":
        st = d.get("types")
        return cls(d.get("source", "effect"), tuple(st) if st is not None else None,
                   tuple(d.get("subtypes", ())), d.get("power"), d.get("toughness"))


@dataclass(frozen=True)
class Permanent:
    printed: Characteristics
    owner: str = "you"
    controller: str = "you"
    face_down: bool = False
    copy_of: Characteristics | None = None  # copiable values installed by a copy effect
    effects: tuple[Effect, ...] = ()
    counters: tuple[tuple[str, int], ...] = ()
    tapped: bool = False
    is_token: bool = False
    choices: tuple[tuple[str, Any], ...] = ()

    def counter(self, kind: str) -> int:
        return dict(self.counters).get(kind, 0)

    def with_counter(self, kind: str, n: int = 1) -> "Permanent":
        c = dict(self.counters)
        c[kind] = c.get(kind, 0) + n
        return replace(self, counters=tuple(sorted(c.items())))

    @classmethod
    def from_data(cls, d: Mapping) -> "Permanent":
        return cls(
            printed=Characteristics.from_data(d), owner=d.get("owner", "you"),
            controller=d.get("controller", d.get("owner", "you")), face_down=bool(d.get("face_down", False)),
            effects=tuple(Effect.from_data(e) for e in d.get("effects", ())),
            counters=tuple(sorted((k, int(v)) for k, v in (d.get("counters") or {}).items())),
            tapped=bool(d.get("tapped", False)), is_token=bool(d.get("token", False)),
            copy_of=Characteristics.from_data(d["copy_of"]) if d.get("copy_of") else None,
            choices=tuple(sorted((d.get("choices") or {}).items())),
        )


@dataclass(frozen=True)
class CardDef:
    """A card as the caster sees it: its faces, modes, and the costs it offers."""

    name: str
    faces: CardFaces
    types: tuple[str, ...] = ()
    modes: tuple[str, ...] = ()
    modes_to_choose: int = 1
    x_defined: bool = False
    alternative_costs: tuple[tuple[str, ManaCost], ...] = ()
    additional_costs: tuple[tuple[str, ManaCost], ...] = ()
    mandatory_additional: tuple[str, ...] = ()
    targets: int = 0

    @property
    def mana_cost(self) -> ManaCost | None:
        if self.faces.layout == "split":
            return combined(f.mana_cost for f in self.faces.faces)
        return self.faces.faces[0].mana_cost

    def alt_cost(self, name: str) -> ManaCost:
        for n, c in self.alternative_costs:
            if n == name:
                return c
        raise EngineError(f"{self.name} has no alternative cost named {name!r}")

    def add_cost(self, name: str) -> ManaCost:
        for n, c in self.additional_costs:
            if n == name:
                return c
        raise EngineError(f"{self.name} has no additional cost named {name!r}")

    @classmethod
    def from_data(cls, d: Mapping) -> "CardDef":
        if "faces" in d:
            faces = tuple(Face(f["name"], ManaCost.parse(f["mana_cost"]) if f.get("mana_cost") else None,
                               tuple(f.get("types", ()))) for f in d["faces"])
            layout = d.get("layout", "split")
        else:
            mc = d.get("mana_cost")
            faces = (Face(d["name"], ManaCost.parse(mc) if mc is not None else None, tuple(d.get("types", ()))),)
            layout = "normal"
        name = d.get("name") or " // ".join(f.name for f in faces)

        def costs(key):
            return tuple(sorted((k, ManaCost.parse(v)) for k, v in (d.get(key) or {}).items()))
        return cls(
            name=name, faces=CardFaces(faces, layout), types=tuple(d.get("types", ())),
            modes=tuple(d.get("modes", ())), modes_to_choose=int(d.get("modes_to_choose", 1)),
            x_defined=bool(d.get("x_defined", False)), alternative_costs=costs("alternative_costs"),
            additional_costs=costs("additional_costs"), mandatory_additional=tuple(d.get("mandatory_additional", ())),
            targets=int(d.get("targets", 0)),
        )


@dataclass
class Zones:
    """The battlefield as a list of permanents (the only zone replacement checks need)."""

    battlefield: list[Permanent] = field(default_factory=list)
