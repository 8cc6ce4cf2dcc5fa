"""Run scenarios against phase.rs, an existing rules engine, through PyPI ``phase-python``.

phase.rs works offline: its ``phase-gen`` builds the card data from an MTGJSON-shaped file,
which we write from a handful of card definitions below.  A scenario's board is set up by
editing the exported game state (cards moved from the library to the hand or the
battlefield), then the game is driven through phase's own prompts, answering them from
the scenario's ``given``.  Each adapted scenario reports phase's observable result next to
ours, and the order in which phase asked for the choices (it asks for targets before X,
where 601.2b announces X before 601.2c's targets).

Installed as the extra ``.[phase]``; everything here is skipped when ``phase`` is absent.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..serialize import to_data
from .casting import Announcement, cast_spell
from .objects import CardDef
from .runner import Scenario, load_scenarios, run_scenario


def available() -> bool:
    return importlib.util.find_spec("phase") is not None


def _card(name: str, cost: str | None, mv: int, types: list[str], text: str, *, oracle_id: str, **extra) -> dict:
    return {"name": name, "manaCost": cost, "manaValue": mv, "types": types, "subtypes": extra.pop("subtypes", []),
            "supertypes": extra.pop("supertypes", []), "text": text, "layout": "normal",
            "colors": extra.pop("colors", []), "colorIdentity": extra.pop("colors_id", []),
            "keywords": extra.pop("keywords", []), "legalities": {"vintage": "Legal"},
            "identifiers": {"scryfallOracleId": oracle_id}, **extra}


#: The cards the adapted scenarios need, MTGJSON AtomicCards-shaped (oracle ids are local).
CARDS = {
    "Mountain": _card("Mountain", None, 0, ["Land"], "({T}: Add {R}.)", subtypes=["Mountain"], supertypes=["Basic"],
                      oracle_id="00000000-0000-4000-8000-000000000001"),
    "Island": _card("Island", None, 0, ["Land"], "({T}: Add {U}.)", subtypes=["Island"], supertypes=["Basic"],
                    oracle_id="00000000-0000-4000-8000-000000000002"),
    "Blaze": _card("Blaze", "{X}{R}", 1, ["Sorcery"], "Blaze deals X damage to any target.", colors=["R"],
                   oracle_id="00000000-0000-4000-8000-000000000003"),
    "Twincast": _card("Twincast", "{U}{U}", 2, ["Instant"],
                      "Copy target instant or sorcery spell. You may choose new targets for the copy.", colors=["U"],
                      oracle_id="00000000-0000-4000-8000-000000000004"),
    "Lightning Bolt": _card("Lightning Bolt", "{R}", 1, ["Instant"], "Lightning Bolt deals 3 damage to any target.",
                            colors=["R"], oracle_id="00000000-0000-4000-8000-000000000005"),
    "Kitchen Finks": _card("Kitchen Finks", "{1}{G/W}{G/W}", 3, ["Creature"],
                           "When this creature enters, you gain 2 life.\nPersist (When this creature dies, if it had no "
                           "-1/-1 counters on it, return it to the battlefield under its owner's control with a -1/-1 "
                           "counter on it.)", subtypes=["Ouphe"], power="3", toughness="2", keywords=["Persist"],
                           colors=["G", "W"], oracle_id="00000000-0000-4000-8000-000000000006"),
}


def build_card_data(folder: Path) -> Path:
    """Write the MTGJSON-shaped file and turn it into phase's card data with ``phase-gen``."""
    from phase.gen import process_cards  # optional extra (phase): only when the phase adapter runs

    src = folder / "AtomicCards.json"
    src.write_text(json.dumps({"meta": {"version": "5.2.2"}, "data": {k: [v] for k, v in sorted(CARDS.items())}}),
                   encoding="utf-8")
    out = folder / "card-data.json"
    with contextlib.redirect_stdout(io.StringIO()):  # phase-gen reports on stdout
        process_cards(str(src), str(out))
    return out


@dataclass
class Comparison:
    scenario: str
    rules: list[str]
    check: str
    ours: Any
    phase: Any
    agree: bool
    note: str = ""

    def to_dict(self) -> dict:
        return to_data(self)


@dataclass
class PhaseRun:
    prompts: list[str] = field(default_factory=list)  # the order phase asked for choices


class PhaseTable:
    """One phase engine over our card data; sets up boards and drives games."""

    def __init__(self, workdir: Path | None = None):
        import phase  # optional extra (phase): only when the phase adapter runs

        self._tmp = tempfile.TemporaryDirectory(prefix="crpipe-phase-") if workdir is None else None
        folder = Path(workdir or self._tmp.name)
        self.engine = phase.Engine.from_path(str(build_card_data(folder)))

    def close(self) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()

    def game(self, hand: list[str], battlefield: list[str], opponent: list[str] | None = None):
        """A game at its first upkeep: player 0 holds ``hand`` and controls ``battlefield``."""
        from .conformance.phase_driver import kept_game  # heavy: the phase.rs driver loads only when asked

        g = kept_game(self.engine, hand + battlefield, opponent or ["Island"] * 10)
        exported = g.state()
        s = exported["state"]
        objs, me = s["objects"], s["players"][0]
        pool = {o: objs[str(o)]["name"] for o in me["hand"] + me["library"]}
        for name in battlefield:
            oid = next(o for o, n in pool.items() if n == name)
            del pool[oid]
            (me["hand"] if oid in me["hand"] else me["library"]).remove(oid)
            objs[str(oid)]["zone"] = "Battlefield"
            objs[str(oid)]["entered_battlefield_turn"] = 0
            s["battlefield"].append(oid)
        for name in hand:
            oid = next(o for o, n in pool.items() if n == name)
            del pool[oid]
            if oid in me["library"]:
                me["library"].remove(oid)
                me["hand"].append(oid)
                objs[str(oid)]["zone"] = "Hand"
        return self.engine.load_game(exported)


def _drive(g, run: PhaseRun, on_priority: Callable, answer: Callable, limit: int = 200) -> None:
    """Play until ``on_priority`` says stop; every other prompt goes to ``answer``."""
    for _ in range(limit):
        wf = g.waiting_for()
        acts = g.actions()
        if not acts:
            return
        pl = wf["data"].get("player", 0)
        if wf["type"] == "Priority":
            act = on_priority(g, pl, acts)
            if act is None:
                return
            g.apply(pl, act)
            continue
        run.prompts.append(wf["type"])
        g.apply(pl, answer(wf, acts))
    raise RuntimeError("phase game did not settle")


def _pass(acts):
    return next(a for a in acts if a.kind == "PassPriority")


def _hand_names(g) -> dict[int, str]:
    return {o["id"]: o["name"] for o in g.hand(0)}


# -- adapted scenarios ----------------------------------------------------------------------

def x_and_copy(table: PhaseTable, s: Scenario) -> list[Comparison]:
    """Cast an X spell and copy it; does the copy carry X, is it not cast?  Blaze stands in
    for the scenario's card (phase needs only "deals X damage"), X comes from the scenario."""
    x = int(s.given["announce"]["x"])
    g = table.game(["Blaze", "Twincast"], ["Mountain"] * (x + 1) + ["Island"] * (x + 2))
    names = _hand_names(g)
    run, stage = PhaseRun(), {"next": "Blaze"}
    life0 = g.player(1)["life"]

    def on_priority(g, pl, acts):
        want = stage["next"]
        if pl == 0 and want in ("Blaze", "Twincast") and (want == "Blaze" or g.stack()):
            cast = [a for a in acts if a.kind == "CastSpell" and names.get(a.data["object_id"]) == want]
            if cast:
                run.prompts.append(f"cast {want}")
                stage["next"] = "Twincast" if want == "Blaze" else "resolve"
                return cast[0]
        if stage["next"] == "resolve" and not g.stack():
            return None
        return _pass(acts)

    def answer(wf, acts):
        if wf["type"] == "ChooseXValue":
            return next(a for a in acts if a.kind == "ChooseX" and a.data["value"] == x)
        if wf["type"] == "TargetSelection":
            targets = [a for a in acts if a.kind == "ChooseTarget"]
            if names.get(wf["data"]["pending_cast"]["object_id"]) == "Blaze":
                return next(a for a in targets if a.data["target"] == {"Player": 1})
            return targets[0]
        return next(a for a in acts if a.kind not in ("CancelCast",))

    _drive(g, run, on_priority, answer)
    lost = life0 - g.player(1)["life"]
    cast_count = g.state()["state"]["spells_cast_this_game"].get("0", 0)
    ours = run_scenario(s).actual
    order_phase = [p for p in run.prompts if p in ("TargetSelection", "ChooseXValue")][:2]
    ours_steps = [st for st in _our_order(x) if st in ("601.2b:X", "601.2c:targets")]
    return [
        Comparison(s.id, list(s.rules), "copy's X (phase: from the damage the copy dealt)", ours["copy"]["x"],
                   lost - x, ours["copy"]["x"] == lost - x),
        Comparison(s.id, list(s.rules), "spells cast: Blaze and Twincast; the copy is not cast",
                   1 + 1 + int(ours["copy"]["cast"]), cast_count, (not ours["copy"]["cast"]) == (cast_count == 2)),
        Comparison(s.id, ["601.2b", "601.2c"], "order of announcements", " then ".join(ours_steps),
                   " then ".join(order_phase), order_phase == ["ChooseXValue", "TargetSelection"],
                   "phase asks for targets before X; 601.2b announces X, 601.2c then chooses targets"),
    ]


def _our_order(x: int) -> list[str]:
    card = CardDef.from_data({"name": "Blaze", "mana_cost": "{X}{R}", "targets": 1})
    return list(cast_spell(card, Announcement(x=x, targets=("opponent",))).steps)


def persist(table: PhaseTable, s: Scenario) -> list[Comparison]:
    """Kill the scenario's persist creature with Lightning Bolt; what comes back?"""
    name = s.given["card"]["name"]
    g = table.game(["Lightning Bolt"], [name, "Mountain"])
    names = _hand_names(g)
    run, stage = PhaseRun(), {"cast": False}
    target = next(o["id"] for o in g.battlefield() if o["name"] == name)

    def on_priority(g, pl, acts):
        if pl == 0 and not stage["cast"]:
            cast = [a for a in acts if a.kind == "CastSpell" and names.get(a.data["object_id"]) == "Lightning Bolt"]
            if cast:
                stage["cast"] = True
                return cast[0]
        if stage["cast"] and not g.stack() and not g.waiting_for()["type"].startswith("Choose"):
            return None
        return _pass(acts)

    def answer(wf, acts):
        if wf["type"] == "TargetSelection":
            return next(a for a in acts if a.kind == "ChooseTarget" and a.data["target"] == {"Object": target})
        return next(a for a in acts if a.kind not in ("CancelCast",))

    _drive(g, run, on_priority, answer)
    back = [o for o in g.battlefield() if o["name"] == name]
    ours = run_scenario(s).actual["returned"] or {}
    theirs = {"returned": bool(back)}
    if back:
        o = back[0]
        theirs.update({"counters": {("-1/-1" if k == "M1M1" else k): v for k, v in (o.get("counters") or {}).items()},
                       "power": o.get("power"), "toughness": o.get("toughness")})
    out = [Comparison(s.id, list(s.rules), "returns to the battlefield", bool(ours), theirs["returned"],
                      bool(ours) == theirs["returned"])]
    if back:
        out.append(Comparison(s.id, list(s.rules), "counters on the returned permanent", ours.get("counters"),
                              theirs["counters"], ours.get("counters") == theirs["counters"]))
        pt_ours, pt_theirs = (ours.get("power"), ours.get("toughness")), (theirs["power"], theirs["toughness"])
        out.append(Comparison(s.id, list(s.rules), "power/toughness", f"{pt_ours[0]}/{pt_ours[1]}",
                              f"{pt_theirs[0]}/{pt_theirs[1]}", pt_ours == pt_theirs))
    return out


ADAPTED: dict[str, Callable[[PhaseTable, Scenario], list[Comparison]]] = {
    "ruling-cooperate-copy-keeps-x": x_and_copy,
    "own-702.79a-returns-with-counter": persist,
}


def compare(scenario_ids: list[str] | None = None) -> list[Comparison]:
    """Run the adapted scenarios on phase.rs and on our engine; one row per observed fact."""
    scenarios = {s.id: s for s in load_scenarios()}
    table = PhaseTable()
    try:
        out: list[Comparison] = []
        for sid, fn in ADAPTED.items():
            if scenario_ids is None or sid in scenario_ids:
                out.extend(fn(table, scenarios[sid]))
        return out
    finally:
        table.close()
