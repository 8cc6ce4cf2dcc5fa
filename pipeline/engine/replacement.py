"""Replacement effects on one event: the order of 616.1 and entering the battlefield (614.12).

An event is a value; applying a replacement returns a new event.  After each application
the applicable effects are found again from the *modified* event (616.1f), which is how an
effect stops applying once another has changed the event (Rusted Sentinel becoming a copy
of Essence of the Wild loses its own "enters tapped").
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

from .copies import characteristics, copiable_values
from .errors import EngineError
from .objects import Characteristics, Permanent
from .registry import implements

#: 616.1b, c and e: the category that must be chosen first, in order.  616.1a (self-replacement
#: effects of a resolving spell or ability) and 616.1d (a transforming double-faced card entering
#: back face up) have no producer in this kernel, which resolves no spells and models one face per
#: permanent: they are not declared, rather than declared and unreachable.
CATEGORY_ORDER = ("control", "copy", "other")
_CATEGORY_RULE = {"control": "616.1b", "copy": "616.1c", "other": "616.1e"}

# Ability kinds that make a replacement effect, and the category each belongs to.
_SELF_ENTER = {"enters_tapped": "other", "as_enters_choose": "other", "enters_with_counters": "other",
               "enter_as_copy": "copy"}
_GLOBAL = {"permanents_enter_tapped": "other", "creatures_you_control_enter_as_copy": "copy",
           "opponents_creatures_enter_under_your_control": "control", "graveyard_to_exile": "other"}
_SELF_ZONE = {"die_to_library": "other"}


@dataclass(frozen=True)
class Event:
    """A permanent moving zones: ``obj`` as it would exist at the destination."""

    obj: Permanent
    from_zone: str
    to_zone: str

    def to_dict(self) -> dict:
        c = characteristics(self.obj)
        p, t = c.power, c.toughness
        n = self.obj.counter("+1/+1") - self.obj.counter("-1/-1")
        return {
            "zone": self.to_zone, "name": c.name, "types": list(c.types), "subtypes": list(c.subtypes),
            "colors": list(c.colors), "abilities": [a.kind for a in c.abilities],
            "power": p + n if p is not None else None, "toughness": t + n if t is not None else None,
            "tapped": self.obj.tapped, "controller": self.obj.controller, "owner": self.obj.owner,
            "counters": dict(self.obj.counters), "choices": dict(self.obj.choices),
            "copy_of": self.obj.copy_of.name if self.obj.copy_of is not None else None,
            "face_down": self.obj.face_down,
        }


@dataclass(frozen=True)
class Replacement:
    name: str  # "<source>: <kind>", unique per event
    kind: str
    category: str
    source: str
    params: tuple[tuple[str, Any], ...] = ()


@dataclass
class Outcome:
    event: Event
    applied: list[str] = field(default_factory=list)
    decided_by: list[str] = field(default_factory=list)  # the 616.1 step each choice was made under
    ignored: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {**self.event.to_dict(), "applied": list(self.applied), "decided_by": list(self.decided_by),
                "ignored": list(self.ignored)}


def _is_creature(c: Characteristics) -> bool:
    return "Creature" in c.types


def zone_characteristics(p: Permanent, zone: str, battlefield: Sequence[Permanent] = ()) -> Characteristics:
    """``p``'s characteristics as an object in ``zone``: effects that apply only there included
    (Yixlid Jailer's "Cards in graveyards lose all abilities")."""
    c = characteristics(p)
    if zone == "graveyard" and any(a.kind == "graveyard_lose_abilities"
                                   for b in battlefield for a in characteristics(b).abilities):
        c = replace(c, abilities=())
    return c


def entering_view(event: Event) -> str:
    """The zone whose view of an entering permanent decides its own replacement effects: the
    battlefield, as it would exist there (614.12) — not the zone it comes from."""
    return event.to_zone


@implements("614.12", "modify how a permanent enters the battlefield", "come from the permanent itself",
            "as it would exist on the battlefield", "general subset")
@implements("614.1c", "enters with", "As [this permanent] enters")
@implements("614.1d", "enters . . .")
def applicable(event: Event, battlefield: Sequence[Permanent], used: set[str]) -> tuple[list[Replacement], list[str]]:
    """The replacement effects that would apply to ``event`` now, and the effects considered
    and ignored (with why).  For an entering permanent, its own effects are read from its
    characteristics as it would exist on the battlefield (614.12), so effects that work only
    in another zone (Yixlid Jailer's) don't remove them; a general effect of the entering
    permanent ("Permanents enter tapped") does not apply to itself."""
    out: list[Replacement] = []
    ignored: list[str] = []
    me = zone_characteristics(event.obj, entering_view(event) if event.to_zone == "battlefield" else event.from_zone,
                              battlefield)
    if event.to_zone == "battlefield":
        for a in me.abilities:
            if a.kind in _SELF_ENTER:
                out.append(Replacement(f"{me.name}: {a.kind}", a.kind, _SELF_ENTER[a.kind], me.name or "", a.params))
            elif a.kind in _GLOBAL:
                ignored.append(f"{me.name}: {a.kind} affects a general set of permanents, not the one entering (614.12)")
    for perm in battlefield:
        pc = characteristics(perm)
        for a in pc.abilities:
            if a.kind == "graveyard_lose_abilities":
                if event.from_zone == "graveyard" and event.to_zone == "battlefield":
                    ignored.append(f"{pc.name}: applies in graveyards, not to a permanent as it would exist on the "
                                   "battlefield (614.12)")
                continue
            if a.kind not in _GLOBAL:
                continue
            r = Replacement(f"{pc.name}: {a.kind}", a.kind, _GLOBAL[a.kind], pc.name or "",
                            a.params + (("controller", perm.controller),))
            if _applies(r, event):
                out.append(r)
    if event.from_zone == "battlefield":
        for a in me.abilities:
            if a.kind in _SELF_ZONE:
                out.append(Replacement(f"{me.name}: {a.kind}", a.kind, _SELF_ZONE[a.kind], me.name or "", a.params))
    out = [r for r in out if r.name not in used and _applies(r, event)]
    return sorted(out, key=lambda r: r.name), ignored


def _applies(r: Replacement, e: Event) -> bool:
    me = characteristics(e.obj)
    p = dict(r.params)
    if r.kind == "permanents_enter_tapped":
        types = p.get("types")
        return e.to_zone == "battlefield" and (not types or any(t in me.types for t in types))
    if r.kind == "creatures_you_control_enter_as_copy":
        return e.to_zone == "battlefield" and _is_creature(me) and e.obj.controller == p.get("controller")
    if r.kind == "opponents_creatures_enter_under_your_control":
        return e.to_zone == "battlefield" and _is_creature(me) and e.obj.controller != p.get("controller")
    if r.kind == "graveyard_to_exile":
        return e.to_zone == "graveyard" and not e.obj.is_token
    if r.kind == "die_to_library":
        return e.from_zone == "battlefield" and e.to_zone == "graveyard"
    return e.to_zone == "battlefield"


def _apply(r: Replacement, e: Event, battlefield: Sequence[Permanent], choices: Mapping[str, Any]) -> Event:
    p = dict(r.params)
    o = e.obj
    if r.kind in ("enters_tapped", "permanents_enter_tapped"):
        return replace(e, obj=replace(o, tapped=True))
    if r.kind == "enters_with_counters":
        return replace(e, obj=o.with_counter(p.get("counter", "+1/+1"), int(p.get("count", 1))))
    if r.kind == "as_enters_choose":
        what = p.get("choice", "color")
        if what not in choices:
            raise EngineError(f"{r.name} needs a choice of {what!r} (give it in 'choices')")
        # 614.12a: the choice is made before the permanent enters.
        return replace(e, obj=replace(o, choices=tuple(sorted(dict(o.choices, **{what: choices[what]}).items()))))
    if r.kind == "enter_as_copy":
        target = choices.get("copy")
        if target is None:
            return e  # "you may": no permanent chosen, it enters as itself
        orig = next((b for b in battlefield if characteristics(b).name == target), None)
        if orig is None:
            raise EngineError(f"{r.name}: no {target!r} on the battlefield to copy")
        return replace(e, obj=replace(o, copy_of=copiable_values(orig), face_down=False))
    if r.kind == "creatures_you_control_enter_as_copy":
        orig = next(b for b in battlefield if characteristics(b).name == r.source)
        return replace(e, obj=replace(o, copy_of=copiable_values(orig)))
    if r.kind == "opponents_creatures_enter_under_your_control":
        return replace(e, obj=replace(o, controller=p["controller"]))
    if r.kind == "graveyard_to_exile":
        return replace(e, to_zone="exile")
    if r.kind == "die_to_library":
        return replace(e, to_zone="library")
    raise EngineError(f"no way to apply {r.kind}")


@implements("616.1", "two or more replacement and/or prevention effects", "chooses one to apply")
@implements("616.1b", "under whose control an object would enter the battlefield", "must be chosen")
@implements("616.1c", "become a copy of another object as it enters the battlefield", "must be chosen")
@implements("616.1e", "Any of the applicable")
@implements("616.1f", "this process is repeated", "would now be applicable")
@implements("614.5", "doesn’t invoke itself repeatedly", "only one opportunity")
@implements("614.1a", "instead", "replacement effects")
def resolve_event(event: Event, battlefield: Sequence[Permanent] = (), prefer: Sequence[str] = (),
                  choices: Mapping[str, Any] | None = None) -> Outcome:
    """Apply every applicable replacement effect to ``event`` in the order 616.1 requires.

    At each step only the effects of the first non-empty category of 616.1a-e may be
    chosen; among them the affected player's preference (``prefer``, effect names or
    sources) decides, else the first by name.  Each effect applies at most once (614.5);
    after each one the applicable set is found again (616.1f).
    """
    choices = dict(choices or {})
    out = Outcome(event)
    used: set[str] = set()
    while True:
        cands, ignored = applicable(out.event, battlefield, used)
        for i in ignored:
            if i not in out.ignored:
                out.ignored.append(i)
        if not cands:
            return out
        for cat in CATEGORY_ORDER:
            group = [r for r in cands if r.category == cat]
            if group:
                break
        rank = {name: i for i, name in enumerate(prefer)}
        chosen = min(group, key=lambda r: (min(rank.get(r.name, 1 << 20), rank.get(r.source, 1 << 20)), r.name))
        out.event = _apply(chosen, out.event, battlefield, choices)
        used.add(chosen.name)
        out.applied.append(chosen.name)
        out.decided_by.append(_CATEGORY_RULE[cat])


@implements("614.12a", "requires a choice", "made before the permanent enters")
def enter_battlefield(card: Permanent, battlefield: Sequence[Permanent] = (), from_zone: str = "hand",
                      prefer: Sequence[str] = (), choices: Mapping[str, Any] | None = None) -> Outcome:
    """Put ``card`` onto the battlefield through every replacement effect that modifies how
    it enters (614.12), choices being made before it enters (614.12a)."""
    return resolve_event(Event(card, from_zone, "battlefield"), battlefield, prefer, choices)
