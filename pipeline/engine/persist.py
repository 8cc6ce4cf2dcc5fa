"""Persist (702.79) as a worked keyword: dies, triggers, returns with a -1/-1 counter."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

from .copies import characteristics
from .objects import Permanent
from .registry import implements
from .replacement import Event, Outcome, enter_battlefield, resolve_event


@dataclass
class DeathOutcome:
    death: Outcome
    triggered: bool
    returned: Outcome | None = None
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"zone": self.death.event.to_zone, "death_applied": list(self.death.applied),
                "persist_triggered": self.triggered,
                "returned": self.returned.to_dict() if self.returned else None, "notes": list(self.notes)}


@implements("704.5q", "+1/+1 counter and a -1/-1 counter", "removed")
def annihilate_counters(p: Permanent) -> Permanent:
    """State-based action: remove N +1/+1 and N -1/-1 counters, N the smaller count."""
    n = min(p.counter("+1/+1"), p.counter("-1/-1"))
    if not n:
        return p
    return p.with_counter("+1/+1", -n).with_counter("-1/-1", -n)


@implements("702.79", "Persist")
@implements("702.79a", "Persist is a triggered ability", "put into a graveyard from the battlefield",
            "no -1/-1 counters", "under its owner’s control", "-1/-1 counter")
@implements("400.7", "becomes a new object")
@implements("111.7", "token", "ceases to exist")
@implements("614.6", "If an event is replaced, it never happens")
def dies(p: Permanent, battlefield: Sequence[Permanent] = (), prefer: Sequence[str] = (),
         choices: Mapping[str, Any] | None = None) -> DeathOutcome:
    """``p`` would be put into its owner's graveyard from the battlefield.

    Replacement effects apply first (616.1); persist triggers only if the permanent reached
    the graveyard and, as it last existed, had no -1/-1 counters.  It returns as a new object
    (400.7) from its printed card, under its owner's control, with one -1/-1 counter, entering
    through the replacement effects that modify how it enters (614.12).  A token ceases to
    exist in the graveyard (111.7), so its persist finds nothing to return.
    """
    others = [b for b in battlefield if b is not p]
    death = resolve_event(Event(p, "battlefield", "graveyard"), others, prefer, choices)
    has_persist = characteristics(p).has("persist")  # last known information
    notes: list[str] = []
    if death.event.to_zone != "graveyard":
        notes.append(f"went to {death.event.to_zone}, not a graveyard: persist does not trigger")
        return DeathOutcome(death, False, None, notes)
    if not has_persist:
        return DeathOutcome(death, False, None, notes)
    if had_minus_counter(p):
        notes.append("had a -1/-1 counter: persist does not trigger")
        return DeathOutcome(death, False, None, notes)
    if p.is_token:
        notes.append("a token ceases to exist in the graveyard: nothing returns")
        return DeathOutcome(death, True, None, notes)
    fresh = Permanent(printed=p.printed, owner=p.owner, controller=p.owner, counters=(("-1/-1", 1),))
    back = enter_battlefield(fresh, others, from_zone="graveyard", prefer=prefer, choices=choices)
    return DeathOutcome(death, True, back, notes)


def had_minus_counter(p: Permanent) -> bool:
    """Persist's intervening "if it had no -1/-1 counters on it", by last known information."""
    return bool(p.counter("-1/-1"))


def add_counter(p: Permanent, kind: str, n: int = 1) -> Permanent:
    """Put counters on ``p`` and let the 704.5q state-based action run."""
    return annihilate_counters(replace(p).with_counter(kind, n))
