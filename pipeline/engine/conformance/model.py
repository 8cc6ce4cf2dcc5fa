"""Conformance scenarios as data: load, check and flatten them.

A file is a mapping ``{section: "6xx", edition: DATE, examples: [...]}``; each example:

``example``  the rule id and the example's 1-based index among that rule's examples (``613.4d#1``);
``quote``    the example's text, word for word from ``edition`` (a test checks it);
``note``     where the example names no card, or a stand-in is used, which card and why;
``board``    per player (``you``, ``opponent``): ``life`` and the zones ``battlefield``, ``hand``,
             ``graveyard``, ``library``, ``exile``; an entry is a card name, ``"3 Forest"``, or a
             mapping ``{card, as, counters, tapped, damage, controller, commander}`` (``as`` labels one of
             several same-named cards; ``controller``: a permanent another seat controls; ``commander``:
             the card is its owner's commander, 903.3);
``actions``  ``{cast|activate|play|attack|block|resolve|step|pass|concede: …}`` with the answers to
             prompts (``targets``, ``x``, ``by``, ``choose``, ``accept``, ``name``: a name or type chosen
             exactly, ``modes``: a modal spell's modes by index, refused when not offered); ``attack`` takes a list (they attack the opponent)
             or ``{ATTACKER: SEAT}``; ``concede: SEAT`` makes that player leave the game;
             ``targets`` may hold ``none`` (an optional target slot left empty); ``branch`` picks the
             cost of "unless you pay A or B" (an index, or a list: one per prompt, e.g. per age
             counter); ``step`` with ``hold: true`` stops with the step's triggers still on the stack
             (to respond to them) and answers their ``targets``;
             A multiplayer board has seats past ``opponent`` (``third`` … ``sixth``, in turn order:
             each seat's left is the next one) and may hold ``game: {players, format, range}``: how
             many seats, phase's format name (``FreeForAll`` by default) and (801.2) every player's
             range of influence; a control may patch it (``board: {game: {range: null}}``);
``expect``   observations: ``{card: NAME|LABEL, zone, power, toughness, counters, tapped, types,
             subtypes, colors, controller, name, commander}`` or ``{player: you|opponent, life, hand, graveyard, library}``
             (``team_life``: a Two-Headed Giant team's shared life total, 810.9);
``unsupported`` (optional) why the example cannot be set as a game at all (a tournament shortcut, a
             subgame): reported with the reason, never run, never counted as agreeing;
``kernel``   (optional) the same example on our kernel: ``{scenario: ID}`` of ``engine/scenarios``, an
             inline ``{action, given, expect}``, or a list of them;
``finding``  (optional) for an example phase.rs disagrees with: what phase.rs does instead, in words
             fit for an upstream report (``findings.py`` turns these into a Markdown report);
``cause``    (with a phase disagreement) why it disagrees: ``breaks-rule`` (phase.rs breaks the rule:
             a finding, reproduced directly with phase-python in tests/test_engine_phase_findings.py)
             or ``driver`` (our driver cannot drive phase.rs through it yet: not a finding);
``control``  the same board and actions without what the example is about (:mod:`.controls`):
             ``why`` (what is taken away), ``remove`` (cards or labels taken off the board, with the
             actions that cast, activate or play them), ``replace`` (``{OLD: NEW}`` card swaps),
             ``board`` (a patch merged into the board), ``actions`` (the control's own actions) and
             optionally ``expect`` (what the rules say of the control: the control is then checked
             too).  The example's observations must tell the control apart, else it is a tautology;
``listed``   with ``unsupported`` and no kernel run: why the example is not a game here, one of
             ``not-a-game`` (a definition, a deck-building or seating rule, a tournament procedure:
             no game state shows it), ``not-modelled`` (a mechanic or variant neither engine
             models: name stickers, Vanguard, subgames) or ``not-yet`` (it can be a game; what it
             needs is not set up yet: multiplayer seats, cards the pool lacks).  Only the first
             two count as listed with a reason it cannot be a game;
``kernel_control`` the control of the kernel runs: ``{mutant: ID}`` (the rule's behaviour switched
             off in the kernel, one of :func:`.mutation.mutant_list`) or ``{given: PATCH}``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import yaml

from ...errors import InputError
from ...io import read_bounded_text
from ...rulenum import RuleNumber

EXAMPLES_DIR = Path(__file__).with_name("examples")


class Engine(StrEnum):
    """The engines the suite runs: phase.rs and our kernel."""

    PHASE = "phase"
    KERNEL = "kernel"


class RunStatus(StrEnum):
    """How one engine ran one example."""

    PASS = "pass"
    FAIL = "fail"
    UNSUPPORTED = "unsupported"


class Verdict(StrEnum):
    """What an engine's run says of an example, as the reports name it."""

    AGREES = "agrees"
    DISAGREES = "disagrees"
    UNSUPPORTED = "unsupported"
    SKIPPED = "skipped"
    RECHECK = "recheck"  # the edition's example changed or is gone: what the engines ran is not it

CARDS_FILE = Path(__file__).with_name("cards.yaml")

#: Observation fields per subject kind; anything else in ``expect`` is an encoding error.
CARD_FIELDS = ("zone", "power", "toughness", "counters", "tapped", "types", "subtypes", "colors", "controller",
               "name", "keywords", "count", "damage", "supertypes", "all_pt", "transformed",
               "loyalty", "commander")
PLAYER_FIELDS = ("life", "hand", "graveyard", "library", "exile", "poison", "status", "mana", "team_life")
ZONES = ("battlefield", "hand", "graveyard", "library", "exile")
ACTION_KINDS = ("cast", "activate", "play", "attack", "block", "resolve", "step", "pass", "concede")
CONTROL_KEYS = ("why", "remove", "replace", "board", "actions", "expect")
CAUSES = ("breaks-rule", "driver")
LISTED = ("not-a-game", "not-modelled", "not-yet")


@dataclass(frozen=True)
class Observation:
    """One expected fact: ``subject`` is ``card:NAME`` or ``player:SEAT``."""

    subject: str
    field: str
    value: Any

    def label(self) -> str:
        return f"{self.subject}.{self.field}"


@dataclass(frozen=True)
class Example:
    id: str  # "613.4d#1"
    rule: str
    index: int
    quote: str
    file: str
    note: str = ""
    board: dict = field(default_factory=dict)
    actions: tuple = ()
    expect: tuple[Observation, ...] = ()
    unsupported: str = ""
    kernel: dict | list | None = None
    finding: str = ""
    cause: str = ""
    listed: str = ""
    control: dict | None = None
    kernel_control: dict | None = None

    @property
    def encoded(self) -> bool:
        """A board, actions and observations: the example is set as a game."""
        return bool(self.expect) and not self.unsupported

    def cards(self) -> list[str]:
        out: list[str] = []
        for seat in self.board.values():
            if not isinstance(seat, dict):
                continue
            for zone in ZONES:
                for entry in seat.get(zone, ()) or ():
                    name = board_entry(entry)["card"]
                    if name not in out:
                        out.append(name)
        return out


def board_entry(entry: Any) -> dict:
    """``"Forest"`` / ``"3 Forest"`` / ``{card: …}`` → ``{card, n, …}``."""
    if isinstance(entry, dict):
        return {"n": 1, **entry}
    text = str(entry)
    head, _, rest = text.partition(" ")
    if head.isdigit() and rest:
        return {"card": rest, "n": int(head)}
    return {"card": text, "n": 1}


def _observations(items: list, where: str) -> tuple[Observation, ...]:
    out: list[Observation] = []
    for item in items or ():
        if not isinstance(item, dict):
            raise InputError(f"{where}: an expectation must be a mapping, got {item!r}")
        if "card" in item:
            subject, fields = f"card:{item['card']}", CARD_FIELDS
        elif "player" in item:
            subject, fields = f"player:{item['player']}", PLAYER_FIELDS
        else:
            raise InputError(f"{where}: an expectation names no card or player: {item!r}")
        for k, v in item.items():
            if k in ("card", "player"):
                continue
            if k not in fields:
                raise InputError(f"{where}: {k!r} is not an observable of {subject.split(':')[0]} ({', '.join(fields)})")
            out.append(Observation(subject, k, v))
    return tuple(out)


def load_examples(folder: Path = EXAMPLES_DIR) -> list[Example]:
    out: list[Example] = []
    seen: set[str] = set()
    for path in sorted(Path(folder).glob("*.yaml")):
        try:
            data = yaml.safe_load(read_bounded_text(path)) or {}
        except yaml.YAMLError as e:
            raise InputError(f"conformance file is not valid YAML: {e}", path) from None
        for i, d in enumerate(data.get("examples") or ()):
            where = f"{path.name} example #{i + 1}"
            ref = str(d.get("example", ""))
            rule, _, idx = ref.partition("#")
            if RuleNumber.try_parse(rule) is None or not idx.isdigit():
                raise InputError(f"{where}: 'example' must be RULE#N (e.g. 613.4d#1), got {ref!r}", path)
            if ref in seen:
                raise InputError(f"{where}: example {ref} is encoded twice", path)
            seen.add(ref)
            if not str(d.get("quote", "")).startswith("Example:"):
                raise InputError(f"{where} ({ref}): 'quote' must hold the example's text, starting 'Example:'", path)
            for a in d.get("actions") or ():
                if not isinstance(a, dict) or not set(a) & set(ACTION_KINDS):
                    raise InputError(f"{where} ({ref}): unknown action {a!r} (one of {', '.join(ACTION_KINDS)})", path)
            actions = tuple(d.get("actions") or ())
            # `refused: true|false` on an action: the rules forbid (allow) it; observed like any fact
            refusals = tuple(Observation(f"action:{n + 1}", "refused", bool(a["refused"]))
                             for n, a in enumerate(actions) if "refused" in a)
            control = d.get("control")
            if control is not None:
                if not isinstance(control, dict) or set(control) - set(CONTROL_KEYS) or not control.get("why"):
                    raise InputError(f"{where} ({ref}): 'control' must be a mapping with 'why' and some of "
                                     f"{', '.join(CONTROL_KEYS)}", path)
                if len(control) == 1:
                    raise InputError(f"{where} ({ref}): the control changes nothing", path)
                _observations(control.get("expect"), f"{where} control")
            kc = d.get("kernel_control")
            if kc is not None and (not isinstance(kc, dict) or not (set(kc) & {"mutant", "given"})):
                raise InputError(f"{where} ({ref}): 'kernel_control' must be {{mutant: ID}} or {{given: PATCH}}", path)
            cause = str(d.get("cause", "")).strip()
            if cause and cause not in CAUSES:
                raise InputError(f"{where} ({ref}): 'cause' must be one of {', '.join(CAUSES)}, got {cause!r}", path)
            listed = str(d.get("listed", "")).strip()
            if d.get("unsupported") and not d.get("kernel") and listed not in LISTED:
                raise InputError(f"{where} ({ref}): an example listed without a run needs 'listed': one of "
                                 f"{', '.join(LISTED)}", path)
            ex = Example(ref, rule, int(idx), str(d["quote"]).strip(), path.name, str(d.get("note", "")).strip(),
                         d.get("board") or {}, actions, refusals + _observations(d.get("expect"), where),
                         str(d.get("unsupported", "")).strip(), d.get("kernel"), str(d.get("finding", "")).strip(),
                         cause, listed, control, kc)
            if not ex.expect and not ex.unsupported:
                raise InputError(f"{where} ({ref}): neither observations ('expect') nor an 'unsupported' reason", path)
            if ex.expect and ex.unsupported:
                raise InputError(f"{where} ({ref}): observations and an 'unsupported' reason: give one", path)
            out.append(ex)
    return out


class _UniqueKeyLoader(yaml.SafeLoader):
    """YAML's safe loader refusing a mapping key given twice: in the card pool a second entry for
    a name would silently replace the first (and every example using the card)."""

    def construct_mapping(self, node, deep=False):
        seen: set = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(None, None, f"{key!r} is given twice", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def load_cards(path: Path = CARDS_FILE) -> dict[str, dict]:
    """The suite's card pool: name → {cost, types, subtypes, supertypes, pt, text, colors, source}."""
    loader = _UniqueKeyLoader(read_bounded_text(path))
    try:
        data = loader.get_single_data() or {}
    except yaml.YAMLError as e:
        raise InputError(f"card file is not valid YAML: {e}", path) from None
    finally:
        loader.dispose()
    return {str(k): v for k, v in data.items()}
