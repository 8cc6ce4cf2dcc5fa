"""Copies: copiable values of permanents (707.2-707.3) and copies of spells (707.10)."""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Sequence

from .casting import Announcement, Spell
from .errors import IllegalAction
from .objects import Ability, Characteristics, FACE_DOWN, Permanent
from .registry import implements


@implements("707.2", "copiable values", "face-down status", "Other effects", "status, counters, and stickers are not copied")
@implements("707.3", "copiable values become the copied information", "modified by the copy’s status")
@implements("707.2b", "changing the copiable values of the original object won’t cause the copy to change")
def copiable_values(p: Permanent) -> Characteristics:
    """What a copy of ``p`` acquires: its printed values as modified by copy effects and by
    its face-down status; other effects, status and counters are left behind (707.2)."""
    if p.face_down:
        return FACE_DOWN
    return p.copy_of if p.copy_of is not None else p.printed


@implements("707.9a", "gain an ability as part of the copying process", "part of the copiable values")
@implements("707.9b", "modify a characteristic as part of the copying process")
@implements("707.9c", "don’t copy certain characteristics", "retain their original values")
def copy_with_exceptions(original: Permanent, own: Characteristics, exceptions: Mapping | None = None) -> Characteristics:
    """The copiable values a copy effect installs, with its exceptions ("except it doesn't
    copy that creature's color and it has …"): they become part of the copy's copiable values."""
    c = copiable_values(original)
    ex = dict(exceptions or {})
    if ex.get("keep_colors"):
        c = replace(c, colors=own.colors)
    if ex.get("add_abilities"):
        c = replace(c, abilities=c.abilities + tuple(Ability.from_data(a) for a in ex["add_abilities"]))
    if ex.get("add_types"):
        c = replace(c, types=c.types + tuple(t for t in ex["add_types"] if t not in c.types))
    return c


@implements("707.5", "as a copy", "becomes a copy as it enters")
def enter_as_copy(entering: Permanent, original: Permanent, exceptions: Mapping | None = None) -> Permanent:
    """``entering`` enters the battlefield as a copy of ``original`` (Clone): it becomes the
    copy as it enters, face up, with its own status and none of the original's counters."""
    return replace(entering, copy_of=copy_with_exceptions(original, entering.printed, exceptions),
                   face_down=False, effects=(), counters=())


@implements("707.4", "copy a different object while remaining on the battlefield")
def become_copy(p: Permanent, original: Permanent, exceptions: Mapping | None = None) -> Permanent:
    """``p`` becomes a copy of ``original`` where it is; a face-down permanent stays face down
    and keeps the face-down characteristics (707.3's Grinning Demon examples)."""
    own = p.copy_of if p.copy_of is not None else p.printed
    return replace(p, copy_of=copy_with_exceptions(original, own, exceptions))


def characteristics(p: Permanent) -> Characteristics:
    """The permanent's current characteristics: copiable values, then other effects (613)."""
    c = copiable_values(p)
    for e in p.effects:
        if e.set_types is not None:
            c = replace(c, types=e.set_types)
        if e.add_subtypes:
            c = replace(c, subtypes=c.subtypes + tuple(s for s in e.add_subtypes if s not in c.subtypes))
        if e.power is not None:
            c = replace(c, power=e.power, toughness=e.toughness)
    return c


@implements("702.37e", "turn a face-down permanent you control with a morph ability face up", "morph cost")
def morph_cost(p: Permanent) -> str | None:
    """The cost to turn ``p`` face up as a special action, or None when it can't be: it must
    be face down, and the morph must be in the values it would have face up (a face-up
    Clone of a face-down creature has none; a face-down copy of Wandering Ones has none)."""
    if not p.face_down:
        return None
    a = (p.copy_of if p.copy_of is not None else p.printed).ability("morph")
    return a.param("cost") if a else None


def can_turn_face_up(p: Permanent) -> bool:
    return morph_cost(p) is not None


@implements("707.10", "a copy of a spell isn’t cast", "all decisions made for it", "modes, targets, the value of X",
            "additional or alternative costs", "controlled by the player under whose control it was put on the stack")
@implements("707.10c", "choose new targets", "leave any number of the targets unchanged", "new targets must be legal")
def copy_spell(spell: Spell, controller: str, new_targets: Mapping[int, str] | None = None,
               legal_targets: Sequence[str] | None = None, colors: Sequence[str] | None = None) -> Spell:
    """Put a copy of ``spell`` on the stack under ``controller``'s control.

    Every decision is copied (modes, X, targets, the alternative and additional costs paid);
    the copy is not cast and its controller pays nothing.  ``new_targets`` maps a target's
    index to a new choice where the copying effect allows it; a new target must be legal
    (when ``legal_targets`` is given), otherwise that target stays unchanged.
    """
    targets = list(spell.announcement.targets)
    for i, t in sorted((new_targets or {}).items()):
        if not 0 <= i < len(targets):
            raise IllegalAction(f"the copy has no target #{i}", "707.10c")
        if legal_targets is None or t in legal_targets:
            targets[i] = t
    a: Announcement = replace(spell.announcement, targets=tuple(targets))
    return Spell(spell.card, a, controller=controller, owner=controller, cast=False, is_copy=True,
                 total_cost=None, steps=("707.10:copied",),
                 colors_override=tuple(colors) if colors is not None else spell.colors_override)
