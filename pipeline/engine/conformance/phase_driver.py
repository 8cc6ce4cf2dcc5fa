"""Run conformance examples on phase.rs through PyPI ``phase-python`` (the ``phase`` extra).

The suite's card pool (``cards.yaml``) is written as an MTGJSON AtomicCards file and turned
into phase's card data by its own ``phase-gen``; phase parses each card's text itself, and
any part it cannot parse comes back as an ``Unimplemented`` effect: such an example is
reported *unsupported* with phase's own description, never run.

A game is set up by starting a match with every board card in its owner's deck, keeping the
opening hands, then rewriting the exported state (each card moved to its zone, counters,
tapped, damage, life) and loading it back.  The game then stands at the first player's
precombat main phase and the actions are driven through phase's prompts.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import io
import json
import tempfile
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from ...io import read_bounded_text
from ...serialize import to_data
from .model import Example, Observation, RunStatus, board_entry, load_cards

#: Seats in turn order (each player's left is the next seat).  A board with seats past
#: ``opponent`` is a multiplayer game (free-for-all unless the example's ``game`` says otherwise).
SEATS = {"you": 0, "opponent": 1, "third": 2, "fourth": 3, "fifth": 4, "sixth": 5}
SEAT_NAMES = {n: seat for seat, n in SEATS.items()}
_ZONE = {"battlefield": "Battlefield", "hand": "Hand", "graveyard": "Graveyard", "library": "Library",
         "exile": "Exile"}
_COUNTERS = {"+1/+1": "P1P1", "-1/-1": "M1M1"}
_COUNTERS_BACK = {v: k for k, v in _COUNTERS.items()}
_COLORS = {"W": "White", "U": "Blue", "B": "Black", "R": "Red", "G": "Green"}
#: The steps after declare blockers: a block asked for there is one phase did not offer.
_AFTER_BLOCKERS = ("CombatDamage", "FirstStrikeDamage", "EndCombat", "PostCombatMain", "End", "Cleanup")
FILLER = "Wastes"  # the library filler when a board gives none (a basic land without types)


def available() -> bool:
    return importlib.util.find_spec("phase") is not None


def skip_reason() -> str | None:
    """Why the phase part cannot run here, or None."""
    try:
        import phase  # noqa: F401
    except ImportError:
        return "phase-python is not installed (pip install '.[phase]')"
    return None


class DriveError(RuntimeError):
    """phase did not offer what the scenario asks for (an action, a target, a value)."""


class DriveFailure(StrEnum):
    """Who stopped a failed run: nobody (""), our driver, or phase itself."""

    NONE = ""
    DRIVER = "driver"  # the driver could not drive phase through it
    PHASE = "phase"  # phase raised


@dataclass
class PhaseResult:
    example: str
    status: RunStatus
    observed: dict[str, Any] = field(default_factory=dict)
    mismatches: list[str] = field(default_factory=list)
    reason: str = ""
    prompts: list[str] = field(default_factory=list)
    error: DriveFailure = DriveFailure.NONE

    def to_dict(self) -> dict:
        return to_data(self)


def _ints(node: Any) -> set[int]:
    """Every integer in a prompt answer's payload (object ids, wherever the payload keeps them)."""
    if isinstance(node, bool):
        return set()
    if isinstance(node, int):
        return {node}
    if isinstance(node, dict):
        return set().union(*(_ints(v) for v in node.values())) if node else set()
    if isinstance(node, list):
        return set().union(*(_ints(v) for v in node)) if node else set()
    return set()


def _oracle_id(name: str) -> str:
    h = hashlib.sha1(name.encode("utf-8")).hexdigest()
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:32]}"


def _atomic_name(name: str, c: dict) -> str:
    """The AtomicCards key: ``Front // Back`` for a double-faced card (one with a ``back``)."""
    return f"{name} // {c['back']['name']}" if c.get("back") else name


def to_mtgjson_faces(name: str, c: dict) -> list[dict]:
    """A pool card as its AtomicCards faces: one, or (``back``: a transforming double-faced card,
    712) the front and the back, each with its ``faceName`` and ``side``."""
    if not c.get("back"):
        return [to_mtgjson(name, c)]
    full = _atomic_name(name, c)
    back = {"colors": c.get("colors"), **c["back"]}
    faces = []
    for side, face_name, face in (("a", name, c), ("b", back["name"], back)):
        d = to_mtgjson(face_name, face)
        d.update({"name": full, "faceName": face_name, "side": side, "layout": c.get("layout", "transform"),
                  "colorIdentity": list(c.get("colors") or []),
                  "identifiers": {"scryfallOracleId": _oracle_id(full)}})
        if side == "b":
            d["manaCost"], d["manaValue"] = None, c.get("mv", 0)
        faces.append(d)
    return faces


def to_mtgjson(name: str, c: dict) -> dict:
    """One card of ``cards.yaml`` as an MTGJSON AtomicCards entry (what phase-gen reads)."""
    colors = list(c.get("colors") or [])
    d = {"name": name, "manaCost": c.get("cost"), "manaValue": c.get("mv", 0), "types": list(c["types"]),
         "subtypes": list(c.get("subtypes") or []), "supertypes": list(c.get("supertypes") or []),
         "text": c.get("text", ""), "layout": "normal", "colors": colors, "colorIdentity": colors,
         "keywords": list(c.get("keywords") or []), "legalities": {"vintage": "Legal"},
         "identifiers": {"scryfallOracleId": _oracle_id(name)}}
    if "pt" in c:
        p, _, t = str(c["pt"]).partition("/")
        d["power"], d["toughness"] = p, t
    if "loyalty" in c:
        d["loyalty"] = str(c["loyalty"])
    return d


def _unimplemented(node: Any, out: list[str]) -> None:
    if isinstance(node, dict):
        if node.get("type") == "Unimplemented":
            out.append(str(node.get("description") or node.get("name") or "unimplemented"))
        for v in node.values():
            _unimplemented(v, out)
    elif isinstance(node, list):
        for v in node:
            _unimplemented(v, out)


class PhaseSuite:
    """One phase engine over the suite's card pool."""

    def __init__(self, cards: dict[str, dict] | None = None):
        import phase  # optional: the phase extra
        from phase.gen import process_cards  # optional: the phase extra

        self.cards = cards if cards is not None else load_cards()
        self._tmp = tempfile.TemporaryDirectory(prefix="crpipe-conformance-")
        folder = Path(self._tmp.name)
        src = folder / "AtomicCards.json"
        src.write_text(json.dumps({"meta": {"version": "5.2.2"},
                                   "data": {_atomic_name(n, c): to_mtgjson_faces(n, c)
                                            for n, c in sorted(self.cards.items())}}),
                       encoding="utf-8")
        out = folder / "card-data.json"
        with contextlib.redirect_stdout(io.StringIO()):  # phase-gen reports on stdout
            process_cards(str(src), str(out))
        self.faces = json.loads(read_bounded_text(out))
        self.engine = phase.Engine.from_path(str(out))

    def _range_refusal(self) -> str | None:
        """phase's message when it refuses a game with a limited range of influence (801.2), or None."""
        if not hasattr(self, "_range_why"):
            g = kept_game(self.engine, [FILLER] * 10, [FILLER] * 10, [[FILLER] * 10])
            state = g.state()
            state["state"]["format_config"]["range_of_influence"] = {"default_range": 1, "player_overrides": {}}
            try:
                self.engine.load_game(state)
                self._range_why = None
            except (ValueError, RuntimeError) as e:
                self._range_why = f"phase refuses a limited range of influence: {e}"
        return self._range_why

    def close(self) -> None:
        self._tmp.cleanup()

    def __enter__(self) -> "PhaseSuite":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def unsupported(self, ex: Example) -> str | None:
        """Why phase cannot run ``ex``: a card it lacks, a text it cannot parse, or a game option
        it refuses (a limited range of influence: phase's own message)."""
        if ex.unsupported:
            return ex.unsupported
        reasons = []
        if "range" in ((ex.board.get("game") or {}) if isinstance(ex.board.get("game"), dict) else {}):
            why = self._range_refusal()
            if why:
                reasons.append(why)
        for name in ex.cards():
            face = self.faces.get(name.lower())
            if face is None:
                reasons.append(f"{name}: not in the card pool" if name not in self.cards
                               else f"{name}: phase-gen produced no card")
                continue
            gaps: list[str] = []
            _unimplemented(face, gaps)
            if gaps:
                reasons.append(f"{name}: phase cannot parse " + "; ".join(f"“{g}”" for g in gaps))
        return "; ".join(reasons) or None

    def run(self, ex: Example) -> PhaseResult:
        why = self.unsupported(ex)
        if why:
            return PhaseResult(ex.id, RunStatus.UNSUPPORTED, reason=why)
        game = _Game(self, ex)
        try:
            game.setup()
            for n, act in enumerate(ex.actions):
                if "refused" in act:  # the outcome is whether phase lets it happen
                    try:
                        game.do(act)
                        game.refusals[f"action:{n + 1}.refused"] = False
                    except DriveError as e:
                        game.refusals[f"action:{n + 1}.refused"] = True
                        game.prompts.append(f"refused: {e}")
                    continue
                game.do(act)
        except DriveError as e:
            return PhaseResult(ex.id, RunStatus.FAIL, game.observe(ex.expect), [f"could not drive: {e}"], str(e), game.prompts,
                               DriveFailure.DRIVER)
        except (ValueError, RuntimeError) as e:  # phase itself rejected or failed on a step
            msg = f"phase raised {type(e).__name__}: {e}"
            return PhaseResult(ex.id, RunStatus.FAIL, {}, [msg], msg, game.prompts, DriveFailure.PHASE)
        observed = game.observe(ex.expect)
        mism = mismatches(ex.expect, observed)
        return PhaseResult(ex.id, RunStatus.FAIL if mism else RunStatus.PASS, observed, mism, prompts=game.prompts)


def _range_config(rng: Any) -> dict:
    """A board's ``game.range`` as phase's range-of-influence config: ``N`` for every player, or
    ``{default: N, SEAT: M}`` when players' ranges differ (801.5b)."""
    if not isinstance(rng, dict):
        return {"default_range": int(rng), "player_overrides": {}}
    return {"default_range": int(rng["default"]),
            "player_overrides": {str(SEATS[k]): int(v) for k, v in rng.items() if k != "default"}}


def kept_game(engine, you: list[str], opponent: list[str], extra: list[list[str]] | None = None,
              format: str | None = None):
    """A new game (fixed seed, the first seat starts) once every player keeps their hand: two
    players, or more with ``extra`` decks (a free-for-all unless ``format`` names another)."""
    kw = {"extra_players": extra, "format": format or "FreeForAll"} if extra else {}
    if format and not extra:
        kw["format"] = format
    g = engine.new_game(you, opponent, seed=8, first_player=0, **kw)
    for _ in range(2 + len(extra or ())):
        wf = g.waiting_for()
        if wf["type"] != "MulliganDecision":
            break
        keep = next(a for a in g.actions() if (a.data or {}).get("choice", {}).get("type") == "Keep")
        g.apply(wf["data"]["pending"][0]["player"], keep)
    return g


def mismatches(expect: tuple[Observation, ...], observed: dict[str, Any]) -> list[str]:
    out = []
    for o in expect:
        got = observed.get(o.label())
        if not same(o.value, got):
            out.append(f"{o.label()}: the rules say {o.value!r}, the engine has {got!r}")
    return out


def same(expected: Any, got: Any) -> bool:
    if isinstance(expected, list) and isinstance(got, list):
        return sorted(map(str, expected)) == sorted(map(str, got))
    return expected == got


class _Game:
    def __init__(self, suite: PhaseSuite, ex: Example):
        self.suite, self.ex = suite, ex
        self.labels: dict[str, int] = {}  # label or name -> card_id
        self.prompts: list[str] = []
        self.refusals: dict[str, bool] = {}
        self._queues: dict[int, list] = {}  # per action: answers consumed one prompt at a time
        self._n_seats: int | None = None
        self._turn_control: tuple | None = None  # (turn, active player, the player controlling that turn)
        self.g = None

    # -- setup ---------------------------------------------------------------------------------
    def _entries(self, seat: str) -> list[tuple[str, dict]]:
        side = self.ex.board.get(seat) or {}
        out = []
        for zone in _ZONE:
            for e in side.get(zone, ()) or ():
                e = board_entry(e)
                out.extend((zone, e) for _ in range(int(e["n"])))
        return out

    def _game_opts(self) -> dict:
        """The board's ``game`` entry: a multiplayer game's seats, format and range of influence."""
        return self.ex.board.get("game") or {}

    def seats(self) -> dict[str, int]:
        """The seats this game has: you, opponent, and any later seat the board (or ``game.players``) names."""
        n = max([SEATS[k] for k in self.ex.board if k in SEATS] + [int(self._game_opts().get("players", 2)) - 1, 1])
        return {seat: i for seat, i in SEATS.items() if i <= n}

    def setup(self) -> None:
        decks = {}
        seats = self.seats()
        for seat in seats:
            entries = self._entries(seat)
            has_library = any(z == "library" for z, _ in entries)
            decks[seat] = [e["card"] for _, e in entries] + ([] if has_library else [FILLER] * 10)
        extra = [decks[seat] for seat in seats if seats[seat] > 1]
        g = kept_game(self.suite.engine, decks["you"], decks["opponent"], extra, self._game_opts().get("format"))
        exported = g.state()
        s = exported["state"]
        if "range" in self._game_opts():  # 801.2: a limited range of influence, one for all or per seat
            s["format_config"]["range_of_influence"] = _range_config(self._game_opts()["range"])
        objs = s["objects"]
        for seat, n in seats.items():
            pl = s["players"][n]
            pool = [o for o in pl["hand"] + pl["library"]]
            pl["hand"], pl["library"], pl["graveyard"] = [], [], []
            side = self.ex.board.get(seat) or {}
            if "life" in side:
                pl["life"] = int(side["life"])
            for zone, e in self._entries(seat):
                oid = next((o for o in pool if objs[str(o)]["name"] == e["card"]), None)
                if oid is None:
                    raise DriveError(f"no {e['card']} among {seat}'s cards")
                pool.remove(oid)
                self._place(s, pl, objs[str(oid)], oid, zone, e)
                label = e.get("as") or e["card"]
                self.labels.setdefault(label, objs[str(oid)]["card_id"])
            for oid in pool:  # filler: the library
                self._place(s, pl, objs[str(oid)], oid, "library", {})
        self.g = self.suite.engine.load_game(exported)
        self.step("PreCombatMain")

    @staticmethod
    def _place(s: dict, pl: dict, o: dict, oid: int, zone: str, e: dict) -> None:
        o["zone"] = _ZONE[zone]
        if e.get("commander"):  # 903.3: the card is its owner's commander (phase keeps it on the object)
            o["is_commander"] = True
        if zone == "battlefield":
            s["battlefield"].append(oid)
            if e.get("controller"):  # owned by the seat it is listed under, controlled by another
                o["controller"] = o["base_controller"] = SEATS[e["controller"]]  # phase recomputes from the base
            o["entered_battlefield_turn"] = 0
            o["tapped"] = bool(e.get("tapped", False))
            o["damage_marked"] = int(e.get("damage", 0))
            o["counters"] = {_COUNTERS.get(k, k): int(v) for k, v in (e.get("counters") or {}).items()}
            if o.get("loyalty") is not None and "loyalty" not in o["counters"]:  # 306.5b: it enters with them
                o["counters"]["loyalty"] = int(o["loyalty"])
        elif zone == "exile":
            s["exile"].append(oid)
        else:
            pl[zone].append(oid)

    # -- driving -----------------------------------------------------------------------------
    def _object(self, ref: str) -> dict | None:
        """The object a label or name refers to now, wherever it is (battlefield first)."""
        g = self.g
        cid = self.labels.get(ref)
        stack = [{**g.object(e["source_id"]), "id": e["id"]} for e in g.stack() if e.get("source_id") is not None
                 and (e.get("kind") or {}).get("type") == "Spell"]  # an ability on the stack is not its source card
        zones = [("battlefield", g.battlefield())] + [("stack", stack)] + \
            [(f"graveyard", g.graveyard(n)) for n in self._seat_ids()] + [("exile", g.exile())] + \
            [("hand", g.hand(n)) for n in self._seat_ids()]
        for zone, objs in zones:
            for o in objs:
                if (cid is not None and o.get("card_id") == cid) or (cid is None and o.get("name") == ref):
                    return {**o, "_zone": zone}
        return None

    def _seat_ids(self) -> list[int]:
        if self._n_seats is None:  # the seats never change (a player who leaves keeps the seat)
            self._n_seats = len(self.g.state()["state"]["players"])
        return list(range(self._n_seats))

    def _target(self, ref: str) -> dict:
        if ref in SEATS:
            return {"Player": SEATS[ref]}
        o = self._object(ref)
        if o is None:
            raise DriveError(f"no object {ref!r} to target")
        return {"Object": o["id"]}

    def _answer(self, wf: dict, acts: list, spec: dict, targets: list) -> Any:
        kind = wf["type"]
        self.prompts.append(kind)
        if kind == "TargetSelection" or any(a.kind == "ChooseTarget" for a in acts):
            choose = [a for a in acts if a.kind == "ChooseTarget"]
            if targets:  # `none`: leave an optional target slot empty ("any number of target cards": zero)
                ref = targets.pop(0)
                want = None if ref == "none" else self._target(ref)
                hit = [a for a in choose if (a.data or {}).get("target") == want]
                if not hit:
                    raise DriveError(f"{spec}: {want} is not offered as a target "
                                     f"(offered: {[a.data.get('target') for a in choose]})")
                return hit[0]
            done = [a for a in acts if a.kind in ("ConfirmTargets", "FinishTargets", "SkipTarget")]
            if done:
                return done[0]
        if kind == "ChooseXValue":
            x = spec.get("x")
            hit = [a for a in acts if a.kind == "ChooseX" and a.data.get("value") == x]
            if not hit:
                raise DriveError(f"{spec}: X = {x} is not offered")
            return hit[0]
        if kind == "AssignCombatDamage" and spec.get("assign"):
            return self._assignment(wf, acts, spec["assign"])
        if kind == "RetargetChoice":  # the scenario's `targets` are the complete new target list
            want = [self._target(t) for t in targets]
            del targets[:]
            hit = [a for a in acts if (a.data or {}).get("new_targets") == want]
            if not hit:
                raise DriveError(f"{spec}: the new targets {want} are not offered "
                                 f"(offered: {[a.data.get('new_targets') for a in acts if a.data]})")
            return hit[0]
        if kind == "OptionalCostChoice":  # kicker and the like: `pay: [true, false, …]`, one per prompt
            pays = self._queues.setdefault(id(spec), list(spec.get("pay") or []))
            want = bool(pays.pop(0)) if pays else False
            hit = [a for a in acts if (a.data or {}).get("pay") is want]
            if hit:
                return hit[0]
        if kind == "ReplacementChoice" and "accept" in spec:  # an optional replacement ("you may have … enter as a copy")
            cands = (wf.get("data") or {}).get("candidates") or []
            decline = not spec["accept"]
            for a in acts:
                i = (a.data or {}).get("index")
                if isinstance(i, int) and i < len(cands) and (cands[i].get("description") == "Decline") == decline:
                    return a
        if kind == "UnlessPayment" and "accept" in spec:  # "… unless you pay …": pay when the scenario accepts
            hit = [a for a in acts if (a.data or {}).get("pay") is bool(spec["accept"])]
            if hit:
                return hit[0]
        if kind == "UnlessPaymentChooseCost" and "accept" in spec:  # "… unless you pay A or B": decline, or pay
            # the cost `branch` (its index, 0 the first listed), or `branch: [0, 0, 1]` one per prompt (phase asks
            # once per age counter of a cumulative upkeep, 702.24a)
            branches = self._queues.setdefault(id(spec) + 1, list(spec["branch"]) if isinstance(
                spec.get("branch"), list) else [])
            index = branches.pop(0) if branches else int(spec.get("branch", 0) if not isinstance(
                spec.get("branch"), list) else 0)
            want = {"type": "Decline"} if not spec["accept"] else {"type": "Pay", "data": {"index": int(index)}}
            hit = [a for a in acts if (a.data or {}).get("choice") == want]
            if hit:
                return hit[0]
        if kind == "OptionalEffectChoice":  # "you may": yes unless the scenario says `accept: false`
            hit = [a for a in acts if (a.data or {}).get("accept") == bool(spec.get("accept", True))]
            if hit:
                return hit[0]
        if kind == "AlternativeCastChoice" and spec.get("choose"):  # how the spell is cast: only as asked
            for want in spec["choose"]:
                hit = [a for a in acts if str(want).lower() in json.dumps(a.data).lower()]
                if hit:
                    return hit[0]
            raise DriveError(f"{spec}: casting it as {spec['choose']} is not offered "
                             f"(offered: {[a.data for a in acts]})")
        if kind == "ModeChoice" and spec.get("modes") is not None:  # `modes: [0, 1]`: the modes chosen, by index
            hit = [a for a in acts if (a.data or {}).get("indices") == list(spec["modes"])]
            if not hit:
                raise DriveError(f"the modes {spec['modes']} are not offered")
            return hit[0]
        if kind == "NamedChoice" and spec.get("name"):  # a name or type chosen exactly, or refused (201.4a, 205.3e)
            hit = [a for a in acts if str((a.data or {}).get("choice", "")).lower() == str(spec["name"]).lower()]
            if not hit:
                raise DriveError(f"{spec['name']!r} is not offered as a choice")
            return hit[0]
        wanted = [(self._object(str(w)) or self._in_library(str(w))) for w in spec.get("choose", ()) or ()
                  if not isinstance(w, bool)]
        ids = {o["id"] for o in wanted if o is not None}
        if len(ids) > 1:  # several cards chosen at once (a search for "up to two"): the answer naming them all
            hit = [a for a in acts if ids <= _ints(a.data)]
            if hit:
                return min(hit, key=lambda a: len(_ints(a.data)))
        for want in spec.get("choose", ()) or ():
            o = (self._object(str(want)) or self._in_library(str(want))) if not isinstance(want, bool) else None
            if o is not None:  # a card: the answer that names its object id
                hit = [a for a in acts if o["id"] in _ints(a.data)]
            else:
                hit = [a for a in acts if str(want).lower() in json.dumps(a.data).lower()]
            if hit:
                return hit[0]
        rest = [a for a in acts if a.kind not in ("CancelCast", "PassPriority")]
        if not rest:  # ManaPayment offers only "pass": pay automatically
            rest = [a for a in acts if a.kind == "PassPriority"]
        if not rest:
            raise DriveError(f"{spec}: no answer to {kind}")
        return rest[0]

    def _assignment(self, wf: dict, acts: list, assign: dict) -> Any:
        """``assign: {ATTACKER: {BLOCKER: n, opponent: m}}``: the example's damage assignment."""
        from phase import GameAction  # optional: the phase extra

        d = wf["data"]
        names = {self._target(a)["Object"]: a for a in assign}
        plan = assign.get(names.get(d["attacker_id"])) if d["attacker_id"] in names else None
        if plan is None:
            return acts[0]
        pairs = [[self._target(b)["Object"], int(n)] for b, n in plan.items() if b not in SEATS]
        to_player = sum(int(n) for b, n in plan.items() if b in SEATS)
        for a in acts:
            if a.data.get("assignments") == pairs and a.data.get("trample_damage", 0) == to_player:
                return a
        return GameAction.from_dict({"type": "AssignCombatDamage", "data": {
            "assignments": pairs, "controller_damage": 0, "mode": "Normal", "trample_damage": to_player}})

    def _settle(self, spec: dict, targets: list, limit: int = 60) -> None:
        """Answer prompts until someone has priority."""
        for _ in range(limit):
            wf = self.g.waiting_for()
            if wf["type"] in ("Priority", "GameOver") or not self.g.actions():
                return
            acts = self.g.actions()
            if wf["type"] in ("DeclareAttackers", "DeclareBlockers"):
                return
            answer = self._answer(wf, acts, spec, targets)
            try:
                self.g.apply(self._actor(wf), answer)
            except Exception as e:  # noqa: BLE001 - phase rejects an answer it did not offer
                offered = [a.data for a in acts]
                raise DriveError(f"phase refuses {answer.to_dict()} at {wf['type']} (offered: {offered}): {e}") from None
        raise DriveError(f"{spec}: prompts did not settle")

    def _actor(self, wf: dict) -> int:
        d = wf.get("data") or {}
        if "player" in d:
            return self._decider(int(d["player"]))
        return self.g.priority_player()

    def _decider(self, seat: int) -> int:
        """Who makes ``seat``'s decisions now: its controller while another player controls its turn (722.5)."""
        turn = self.g.turn
        if self._turn_control is None or self._turn_control[0] != turn:  # exporting the state is slow: once a turn
            st = self.g.state()["state"]
            self._turn_control = (turn, st.get("active_player"),
                                  (st.get("active_full_turn_control") or {}).get("controller"))
        _, active, ctl = self._turn_control
        return int(ctl) if ctl is not None and seat == active else seat

    def _pass(self) -> None:
        acts = self.g.actions()
        p = next((a for a in acts if a.kind == "PassPriority"), None)
        if p is None:
            raise DriveError(f"cannot pass priority at {self.g.waiting_for()['type']}")
        self.g.apply(self.g.priority_player(), p)

    def _stack_targets(self, source_id: int) -> list:
        """The targets of the topmost stack entry ``source_id`` put there (the stack lists bottom first)."""
        for entry in reversed(self.g.stack()):
            if entry.get("source_id") == source_id:
                data = (entry.get("kind") or {}).get("data") or {}
                return list((data.get("ability") or {}).get("targets") or data.get("targets") or [])
        return []

    def resolve(self, spec: dict | None = None, limit: int = 60) -> None:
        """Pass priority until the stack is empty, or (``resolve: N``) until N objects have left it."""
        spec = spec or {}
        targets = list(spec.get("targets") or [])
        n = spec.get("resolve")
        stop = max(len(self.g.stack()) - n, 0) if isinstance(n, int) and not isinstance(n, bool) else 0
        for _ in range(limit):
            self._settle(spec, targets)
            if len(self.g.stack()) <= stop or self.g.waiting_for()["type"] != "Priority":
                return
            self._pass()
        raise DriveError("the stack did not empty")

    def step(self, phase_name: str, turns: int = 0, spec: dict | None = None, limit: int = 80) -> None:
        until = self.g.turn + turns
        targets = list((spec or {}).get("targets") or [])  # the targets of the triggers met on the way
        for _ in range(limit):
            self._settle(spec or {}, targets)
            if self.g.phase == phase_name and self.g.turn >= until and (
                    not self.g.stack() or (spec or {}).get("hold")):  # `hold`: respond to the step's triggers
                return
            wf = self.g.waiting_for()
            if wf["type"] == "DeclareAttackers":
                self._declare_attackers([])
                continue
            if wf["type"] == "DeclareBlockers":
                self._declare_blockers({})
                continue
            if wf["type"] == "GameOver":  # the game's end is an outcome the observations show
                return
            self._pass()
        raise DriveError(f"never reached {phase_name}")

    @staticmethod
    def _unlisted_activation(source_id: int, index: int):
        from phase import GameAction  # optional: the phase extra

        return GameAction.from_dict({"type": "ActivateAbility", "data": {"source_id": source_id,
                                                                          "ability_index": index}})

    def _declare_attackers(self, names: list[str] | dict[str, str], band: list[str] | None = None) -> None:
        from phase import GameAction  # optional: the phase extra

        # `attack: [A, B]` attacks the opponent; `attack: {A: third, B: you}` names each one's player
        at = names if isinstance(names, dict) else {n: "opponent" for n in names}
        attacks = [[self._target(n)["Object"], {"type": "Player", "data": SEATS[at[n]]} if at[n] in SEATS
                    else {"type": "Planeswalker", "data": self._target(at[n])["Object"]}] for n in at]
        bands = [[self._target(n)["Object"] for n in band]] if band else []  # 702.22: `band: [A, B]` attack as a band
        wf = self.g.waiting_for()
        try:
            self.g.apply(self._actor(wf), GameAction.from_dict({"type": "DeclareAttackers",
                                                                 "data": {"attacks": attacks, "bands": bands}}))
        except (ValueError, RuntimeError) as e:  # phase rejects an illegal declaration
            raise DriveError(f"the attack by {names} is not accepted: {e}") from None

    def _declare_blockers(self, blocks: dict) -> None:
        from phase import GameAction  # optional: the phase extra

        wf = self.g.waiting_for()
        pairs = [[self._target(b)["Object"], self._target(a)["Object"]]
                 for b, attackers in blocks.items() for a in ([attackers] if isinstance(attackers, str) else attackers)]
        try:
            self.g.apply(self._actor(wf), GameAction.from_dict({"type": "DeclareBlockers",
                                                                 "data": {"assignments": pairs}}))
        except (ValueError, RuntimeError) as e:  # phase rejects an illegal declaration
            raise DriveError(f"the blocks {blocks} are not accepted: {e}") from None

    def do(self, act: dict) -> None:
        by = self._decider(SEATS[act.get("by", "you")])
        targets = list(act.get("targets") or [])
        if "cast" in act or "activate" in act or "play" in act:
            name = act.get("cast") or act.get("activate") or act.get("play")
            kind = "CastSpell" if "cast" in act else "ActivateAbility" if "activate" in act else "PlayLand"
            self._settle(act, targets)
            for _ in range(len(self._seat_ids()) - 1):
                if self.g.priority_player() == by:
                    break
                self._pass()  # the others pass so that `by` gets priority (nothing resolves: all must pass)
            src = self._object(name) or self._in_library(name)  # 601.3: some effects let a card be cast from a library
            cands = [a for a in self.g.actions() if a.kind == kind
                     and src is not None and (a.data or {}).get("object_id", (a.data or {}).get("source_id")) == src["id"]]
            if "ability" in act:
                cands = [a for a in cands if (a.data or {}).get("ability_index") == act["ability"]]
            if not cands and kind == "ActivateAbility" and src is not None:  # crew (702.122) is an action of its own
                cands = [a for a in self.g.actions() if a.kind == "CrewVehicle"
                         and (a.data or {}).get("vehicle_id") == src["id"]]
            if not cands and kind == "ActivateAbility" and src is not None:  # so is turning face up (116.2b)
                cands = [a for a in self.g.actions() if a.kind == "TurnFaceUp"
                         and (a.data or {}).get("object_id") == src["id"]]
            if not cands and kind == "ActivateAbility" and src is not None:
                # phase never lists mana abilities among the actions at priority (it uses them while
                # paying costs), yet accepts their activation (605.3a: a player may activate one
                # whenever they have priority).  Anything else phase does not list, it refuses.
                cands = [self._unlisted_activation(src["id"], int(act.get("ability", 0)))]
            if not cands:
                raise DriveError(f"{kind} {name} is not offered (offered: "
                                 f"{sorted({a.kind for a in self.g.actions()})})")
            try:
                self.g.apply(by, cands[0])
            except (ValueError, RuntimeError) as e:  # phase refuses an action it did not list
                raise DriveError(f"phase refuses {cands[0].to_dict()}: {e}") from None
            self._settle(act, targets)
            if targets:  # phase picks a lone legal target itself: check it is the one the example names
                chosen = self._stack_targets(src["id"])
                want = [self._target(t) for t in targets]
                if not all(w in chosen for w in want):  # phase may record more (the player "for each opponent")
                    raise DriveError(f"{name}: phase chose the targets {chosen}, not {want}")
        elif "concede" in act:  # 104.3a: a player leaves the game (800.4a in a multiplayer game)
            from phase import GameAction  # optional: the phase extra

            seat = SEATS[act["concede"]]
            self.g.apply(seat, GameAction.from_dict({"type": "Concede", "data": {"player_id": seat}}))
            self._settle(act, targets)
        elif "resolve" in act:
            self.resolve(act)
        elif "step" in act:
            self.step(act["step"], int(act.get("turns", 0)), act)
        elif "pass" in act:
            self._pass()
            self._settle(act, targets)
        elif "attack" in act:
            self.step("DeclareAttackers") if self.g.waiting_for()["type"] != "DeclareAttackers" else None
            if "by" in act and self._actor(self.g.waiting_for()) != by:  # 722.5: who decides the attack
                raise DriveError(f"the attack is not {act['by']}'s decision")
            self._declare_attackers(act["attack"] if isinstance(act["attack"], dict) else list(act["attack"]),
                                    act.get("band"))
            self._settle(act, targets)
        elif "block" in act:
            for _ in range(20):
                if self.g.waiting_for()["type"] == "DeclareBlockers":
                    break
                if self.g.phase in _AFTER_BLOCKERS:  # phase skips the step when no creature can block
                    raise DriveError(f"the blocks {act['block']} are not accepted: no declare blockers step "
                                     f"(phase is at {self.g.phase})")
                if self.g.waiting_for()["type"] != "Priority":
                    self._settle(act, targets)
                    continue
                self._pass()
                self._settle(act, targets)
            if "by" in act:  # several defending players: the others declare no blocks until `by` is asked
                for _ in range(len(self._seat_ids())):
                    wf = self.g.waiting_for()
                    if wf["type"] != "DeclareBlockers" or self._actor(wf) == by:
                        break
                    self._declare_blockers({})
            self._declare_blockers(dict(act["block"]))
            self._settle(act, targets)

    # -- observing -----------------------------------------------------------------------------
    def observe(self, expect: tuple[Observation, ...]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.g is None:
            return out
        for o in expect:
            kind, _, ref = o.subject.partition(":")
            if kind == "action":
                out[o.label()] = self.refusals.get(o.label())
            else:
                out[o.label()] = self._player(ref, o.field) if kind == "player" else self._card(ref, o.field)
        return out

    def _in_library(self, ref: str) -> dict | None:
        """A card a label or name refers to in a library (a search offers it by its object id)."""
        st = self.g.state()["state"]
        cid = self.labels.get(ref)
        for pl in st["players"]:
            for oid in pl.get("library", []):
                o = st["objects"].get(str(oid)) or {}
                if (cid is not None and o.get("card_id") == cid) or (cid is None and o.get("name") == ref):
                    return {**o, "id": oid, "_zone": "library"}
        return None

    def _elsewhere(self, ref: str) -> str:
        """A card in no public zone: in a library, or nowhere at all ("none")."""
        st = self.g.state()["state"]
        cid = self.labels.get(ref)
        for pl in st["players"]:
            for oid in pl.get("library", []):
                o = st["objects"].get(str(oid)) or {}
                if (cid is not None and o.get("card_id") == cid) or (cid is None and o.get("name") == ref):
                    return "library"
        return "none"

    def _team(self, n: int) -> list[int]:
        """The seats of ``n``'s team: phase seats a Two-Headed Giant game as consecutive pairs."""
        return [n - n % 2, n - n % 2 + 1] if self._game_opts().get("format") == "TwoHeadedGiant" else [n]

    def _player(self, seat: str, what: str) -> Any:
        n = SEATS[seat]
        p = self.g.player(n)
        if what == "life":
            return p.get("life")
        if what == "team_life":  # 810.9: the team's shared life total (phase keeps a part on each teammate)
            return sum(self.g.player(m).get("life") for m in self._team(n))
        if what == "status":
            wf = self.g.waiting_for()
            if wf["type"] == "GameOver":
                winner = (wf.get("data") or {}).get("winner")
                if winner is not None:  # 810.8: in Two-Headed Giant a team wins or loses together
                    return "won" if winner in self._team(n) else "lost"
            return "lost" if p.get("is_eliminated") else "active"
        if what == "mana":
            return len((p.get("mana_pool") or {}).get("mana") or [])
        if what == "poison":
            return p.get("poison_counters")
        if what == "exile":
            return sum(1 for o in self.g.exile() if o.get("owner") == n)
        zone = {"hand": self.g.hand(n), "graveyard": self.g.graveyard(n)}.get(what)
        if zone is not None:
            return len(zone)
        return len(self.g.state()["state"]["players"][n].get(what, []))

    def _card(self, ref: str, what: str) -> Any:
        if what == "count":
            return sum(1 for o in self.g.battlefield() if o.get("name") == ref)
        if what == "all_pt":
            return sorted(f"{o.get('power')}/{o.get('toughness')}" for o in self.g.battlefield() if o.get("name") == ref)
        o = self._object(ref)
        if o is None:
            return self._elsewhere(ref) if what == "zone" else None
        if what == "zone":
            return o["_zone"]
        if what == "counters":
            return {_COUNTERS_BACK.get(k, k): v for k, v in (o.get("counters") or {}).items() if v}
        if what == "types":
            return list((o.get("card_types") or {}).get("core_types", []))
        if what == "supertypes":
            return list((o.get("card_types") or {}).get("supertypes", []))
        if what == "subtypes":
            return list((o.get("card_types") or {}).get("subtypes", []))
        if what == "colors":
            back = {v: k for k, v in _COLORS.items()}
            return [back.get(c, c) for c in o.get("color") or []]
        if what == "controller":
            return SEAT_NAMES.get(o.get("controller"))
        if what == "damage":
            return o.get("damage_marked")
        if what == "commander":
            return bool(o.get("is_commander"))
        if what == "keywords":
            return [k if isinstance(k, str) else next(iter(k)) for k in o.get("keywords") or []]
        return o.get(what)
