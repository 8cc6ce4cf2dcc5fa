"""Scenarios as data: load the YAML files under ``scenarios/`` and run them on the engine.

A scenario names an ``action`` (one engine entry point), what is ``given`` and what to
``expect``; expectations are matched as a subset of the result, so a scenario states only
what its rule or ruling says.  Each scenario must cite at least one rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

import yaml

from ..errors import InputError
from ..serialize import to_data
from ..rulenum import RuleNumber
from .casting import Announcement, CostChange, cast_spell
from .copies import (
    become_copy, can_turn_face_up, characteristics, copiable_values, copy_spell, enter_as_copy, morph_cost,
)
from .errors import EngineError, IllegalAction
from .mana import ManaCost, card_mana_value, mana_value
from .objects import CardDef, Permanent
from .persist import add_counter, dies
from .replacement import Event, enter_battlefield, resolve_event, zone_characteristics
from ..io import read_bounded_text

SCENARIO_DIR = Path(__file__).with_name("scenarios")


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    rules: tuple[str, ...]
    rulings: tuple[dict, ...]
    source: str
    action: str
    given: dict
    expect: dict
    file: str

    def cites(self) -> list[str]:
        return list(self.rules)


@dataclass
class Result:
    scenario: Scenario
    passed: bool
    actual: Any = None
    mismatches: list[str] = field(default_factory=list)
    error: str | None = None

    def __json__(self) -> dict:
        return {"id": self.scenario.id, "file": self.scenario.file, "rules": list(self.scenario.rules),
                "passed": self.passed, "mismatches": self.mismatches, "error": self.error}

    def to_dict(self) -> dict:
        return to_data(self)


def load_scenarios(folder: Path = SCENARIO_DIR) -> list[Scenario]:
    out: list[Scenario] = []
    seen: set[str] = set()
    for path in sorted(Path(folder).glob("*.yaml")):
        try:
            items = yaml.safe_load(read_bounded_text(path)) or []
        except yaml.YAMLError as e:
            raise InputError(f"scenario file is not valid YAML: {e}", path) from None
        for i, d in enumerate(items):
            sid = d.get("id") or f"{path.stem}#{i + 1}"
            rules = tuple(str(r) for r in d.get("rules", ()))
            if not rules:
                raise InputError(f"scenario {sid} cites no rule", path)
            for r in rules:
                if RuleNumber.try_parse(r) is None:
                    raise InputError(f"scenario {sid} cites {r!r}, which is not a rule number", path)
            if sid in seen:
                raise InputError(f"duplicate scenario id {sid}", path)
            if d.get("action") not in ACTIONS:
                raise InputError(f"scenario {sid}: unknown action {d.get('action')!r}", path)
            seen.add(sid)
            out.append(Scenario(sid, d.get("title", ""), rules, tuple(d.get("rulings", ())), d.get("source", ""),
                                d["action"], d.get("given") or {}, d.get("expect") or {}, path.name))
    return out


# -- actions: given -> result dict ----------------------------------------------------

def _act_mana_value(g: dict) -> dict:
    if "cost" in g:
        cost = ManaCost.parse(g["cost"])
        return {"mana_value": mana_value(cost, g.get("x") if g.get("on_stack") else None)}
    card = CardDef.from_data(g["card"])
    return {"mana_value": card_mana_value(card.faces, on_stack=bool(g.get("on_stack")), half=g.get("half"),
                                          fused=bool(g.get("fused")), x=g.get("x"), face_up=int(g.get("face_up", 0)))}


def _cast(g: dict):
    card = CardDef.from_data(g["card"])
    changes = [CostChange.from_data(c) for c in g.get("cost_changes", ())]
    return cast_spell(card, Announcement.from_data(g.get("announce")), changes, g.get("controller", "you"))


def _act_cast(g: dict) -> dict:
    return _cast(g).to_dict()


def _act_copy_spell(g: dict) -> dict:
    spell = _cast(g)
    c = g.get("copy") or {}
    new = {int(k): v for k, v in (c.get("new_targets") or {}).items()}
    cp = copy_spell(spell, c.get("controller", spell.controller), new, c.get("legal_targets"), c.get("colors"))
    return {"original": spell.to_dict(), "copy": cp.to_dict()}


def _act_copy_permanent(g: dict) -> dict:
    """``mode: enter`` (Clone enters as a copy, the default) or ``become`` (707.4); a chain
    (``via``) copies a permanent that is itself a copy first."""
    original = Permanent.from_data(g["original"])
    if g.get("via"):
        v = g["via"]
        original = enter_as_copy(Permanent.from_data(v["copier"]), original, v.get("exceptions"))
    copier = Permanent.from_data(g["copier"])
    if g.get("mode", "enter") == "become":
        result = become_copy(copier, original, g.get("exceptions"))
    else:
        result = enter_as_copy(copier, original, g.get("exceptions"))
    c = characteristics(result)
    face_up = characteristics(replace(result, face_down=False))
    return {**c.to_dict(), "face_down": result.face_down, "can_turn_face_up": can_turn_face_up(result),
            "counters": dict(result.counters), "tapped": result.tapped,
            "morph_cost": morph_cost(result), "if_turned_face_up": face_up.to_dict(),
            "original": characteristics(original).to_dict()}


def _battlefield(g: dict) -> list[Permanent]:
    return [Permanent.from_data(p) for p in g.get("battlefield", ())]


def _act_enter(g: dict) -> dict:
    bf = _battlefield(g)
    card = Permanent.from_data(g["card"])
    if g.get("token_copy_of"):
        # 707.2: a token created as a copy has the original's copiable values.
        orig = next(b for b in bf if characteristics(b).name == g["token_copy_of"])
        card = replace(card, copy_of=copiable_values(orig), is_token=True)
    out = enter_battlefield(card, bf, g.get("from_zone", "hand"), g.get("prefer", ()), g.get("choices")).to_dict()
    # what the entering card is where it comes from (Yixlid Jailer's effect applies there, 614.12)
    out["in_from_zone"] = zone_characteristics(card, g.get("from_zone", "hand"), bf).to_dict()
    return out


def _act_zone_change(g: dict) -> dict:
    bf = _battlefield(g)
    card = Permanent.from_data(g["card"])
    ev = Event(card, g.get("from_zone", "battlefield"), g.get("to_zone", "graveyard"))
    return resolve_event(ev, bf, g.get("prefer", ()), g.get("choices")).to_dict()


def _act_dies(g: dict) -> dict:
    bf = _battlefield(g)
    card = Permanent.from_data(g["card"])
    out = dies(card, bf, g.get("prefer", ()), g.get("choices")).to_dict()
    if g.get("then_add_counter") and out["returned"]:
        # Put a counter on the returned permanent and let it die again (704.5q, then 702.79a).
        back = Permanent.from_data({**g["card"], "counters": out["returned"]["counters"],
                                    "controller": out["returned"]["controller"]})
        back = add_counter(back, g["then_add_counter"])
        out["after_counter"] = dict(back.counters)
        out["second_death"] = dies(back, bf, g.get("prefer", ()), g.get("choices")).to_dict()
    return out


def _act_characteristics(g: dict) -> dict:
    """An object's characteristics as they are (color from the mana cost, 202.2)."""
    return characteristics(Permanent.from_data(g["card"])).to_dict()


ACTIONS: dict[str, Callable[[dict], dict]] = {
    "characteristics": _act_characteristics,
    "mana_value": _act_mana_value, "cast": _act_cast, "copy_spell": _act_copy_spell,
    "copy_permanent": _act_copy_permanent, "enter": _act_enter, "zone_change": _act_zone_change,
    "dies": _act_dies,
}


def run_action(action: str, given: dict) -> dict:
    """Run one action; an illegal action is a result (``illegal``: the rule), not a failure."""
    try:
        return ACTIONS[action](given)
    except IllegalAction as e:
        return {"illegal": e.rule, "reason": str(e)}


def _match(expected: Any, actual: Any, path: str, out: list[str]) -> None:
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            out.append(f"{path}: expected a mapping, got {actual!r}")
            return
        if not expected and actual:  # `{}` asserts emptiness (no counters), not "anything"
            out.append(f"{path}: expected an empty mapping, got {actual!r}")
            return
        for k, v in expected.items():
            if k not in actual:
                out.append(f"{path}.{k}: missing from the result")
            else:
                _match(v, actual[k], f"{path}.{k}", out)
    elif expected != actual:
        out.append(f"{path}: expected {expected!r}, got {actual!r}")


def run_scenario(s: Scenario) -> Result:
    try:
        actual = run_action(s.action, s.given)
    except (EngineError, KeyError, TypeError, StopIteration) as e:
        return Result(s, False, None, [], f"{type(e).__name__}: {e}")
    mism: list[str] = []
    _match(s.expect, actual, "result", mism)
    return Result(s, not mism, actual, mism)


def run_all(folder: Path = SCENARIO_DIR) -> list[Result]:
    return [run_scenario(s) for s in load_scenarios(folder)]
