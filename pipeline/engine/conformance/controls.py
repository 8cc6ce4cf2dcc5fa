"""Controls: the same board and actions without what the example is about.

A scenario proves something only if an engine without the example's rule would fail it.  Its
control is that engine's game, played for real: the key card or ability taken away (``remove``,
``replace``), the rule's condition switched (``board``, ``actions``), or, on the kernel, the
rule's behaviour switched off (``kernel_control: {mutant: ID}``, a deliberate fault of
:mod:`.mutation`).  The control runs on the same engine as the example; the example's
observations must differ from what the control shows on at least one of them.  When they do
not, the scenario passes on an engine that lacks the rule: a **tautology**, and the suite fails.

Observations of a card the control takes away are not compared (that a removed card is gone
proves nothing), nor are refusals of actions the control does not attempt.  A control may state
its own outcome (``expect``): it is then a checked scenario too, and what phase.rs does there is
reported with the example (a control can reveal a bug the example does not show).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from ...errors import InputError
from ...serialize import INTERNAL, to_data
from . import kernel_driver
from .model import Engine, Example, Observation, RunStatus, _observations, board_entry
from .mutation import _mutants, _passes
from .phase_driver import mismatches, same


class ControlStatus(StrEnum):
    """What an example's control showed, compared with the example."""

    DIFFERS = "differs"  # the control's outcome differs: the example proves its rule
    ENGINE_SAME = "engine-same"  # the engine shows the same, though the rules' outcomes differ
    SAME = "same"  # a tautology: the example would pass without its rule
    ERROR = "error"
    MISSING = "missing"  # the example has no control


class ControlVerdict(StrEnum):
    """The engine against the control's own ``expect`` (NONE when it states none)."""

    NONE = ""
    AGREES = "agrees"
    DISAGREES = "disagrees"


@dataclass
class ControlResult:
    example: str
    engine: Engine
    status: ControlStatus
    why: str = ""
    differing: list[str] = field(default_factory=list)  # the example's observations the control does not show
    compared: list[str] = field(default_factory=list)  # the observations compared
    observed: dict[str, Any] = field(default_factory=dict, metadata=INTERNAL)
    verdict: ControlVerdict = ControlVerdict.NONE
    mismatches: list[str] = field(default_factory=list)  # the control's own expectation vs the engine
    error: str = ""

    @property
    def tautology(self) -> bool:
        """The scenario cannot be told apart from its control: it would pass without its rule.
        ``engine-same`` is not one: the rules' outcome of the control differs from the
        example's, and the engine shows the same only because it fails the control."""
        return self.status not in (ControlStatus.DIFFERS, ControlStatus.ENGINE_SAME)

    def to_dict(self) -> dict:
        return to_data(self)


def _merge(base: Any, patch: Any) -> Any:
    """``patch`` merged into ``base``: mappings merge, ``null`` deletes, anything else replaces."""
    if isinstance(base, dict) and isinstance(patch, dict):
        out = dict(base)
        for k, v in patch.items():
            if v is None:
                out.pop(k, None)
            else:
                out[k] = _merge(base.get(k), v)
        return out
    return copy.deepcopy(patch)


def _rename(node: Any, names: dict[str, str]) -> Any:
    if isinstance(node, str):
        return names.get(node, node)
    if isinstance(node, list):
        return [_rename(v, names) for v in node]
    if isinstance(node, dict):
        return {_rename(k, names) if isinstance(k, str) else k: _rename(v, names) for k, v in node.items()}
    return node


def _entry_names(e: Any) -> set[str]:
    d = board_entry(e)
    return {d["card"]} | ({d["as"]} if d.get("as") else set())


def control_example(ex: Example) -> tuple[Example, set[str]]:
    """The control of ``ex`` as an example of its own, and the subjects not to compare."""
    c = ex.control or {}
    board = copy.deepcopy(ex.board)
    actions = [dict(a) for a in ex.actions]
    gone: set[str] = set()
    subs: dict[str, str] = {}
    for old, new in (c.get("replace") or {}).items():
        subs[str(old)] = str(new)
    removed = {str(r) for r in c.get("remove") or ()}
    for seat, side in board.items():
        if not isinstance(side, dict):
            continue
        for zone, entries in list(side.items()):
            if not isinstance(entries, list):
                continue
            kept = []
            for e in entries:
                names = _entry_names(e)
                if names & removed:
                    gone |= names
                    continue
                d = board_entry(e)
                if d["card"] in subs:  # a card swap: the label (if any) stays, so actions still name it
                    d = {**d, "card": subs[d["card"]]}
                    e = d if (len(d) > 2 or d["n"] != 1) else d["card"]
                    if isinstance(e, dict) and e.get("n") == 1:
                        e = {k: v for k, v in e.items() if k != "n"}
                kept.append(e)
            side[zone] = kept
    missing = removed - gone
    if missing:
        raise InputError(f"{ex.id}: the control removes {sorted(missing)}, which the board does not have", ex.file)
    if c.get("board"):
        board = _merge(board, c["board"])
    if "actions" in c:
        actions = [dict(a) for a in c["actions"] or ()]
    else:
        actions = [a for a in actions
                   if not ({str(a.get(k)) for k in ("cast", "activate", "play") if a.get(k)} & gone)]
        actions = _rename(actions, subs)
    refusals = tuple(Observation(f"action:{n + 1}", "refused", bool(a["refused"]))
                     for n, a in enumerate(actions) if "refused" in a)
    own = _observations(c.get("expect"), f"{ex.id} control")
    renamed = tuple(Observation(_rename_subject(o.subject, subs), o.field, o.value) for o in ex.expect)
    labels = {o.label() for o in own}
    expect = refusals + tuple(o for o in renamed if not o.subject.startswith("action:") and o.label() not in labels) + own
    skip = {f"card:{g}" for g in gone}
    return replace(ex, board=board, actions=tuple(actions), expect=expect, control=None,
                   note=f"control of {ex.id}: {c.get('why', '')}"), skip


def _rename_subject(subject: str, subs: dict[str, str]) -> str:
    kind, _, ref = subject.partition(":")
    return f"{kind}:{subs.get(ref, ref)}" if kind == "card" else subject


def compare(ex: Example, ctl: Example, skip: set[str], observed: dict[str, Any], engine: Engine,
            error: str = "") -> ControlResult:
    """Which of the example's observations the control's outcome does not show."""
    c = ex.control or {}
    res = ControlResult(ex.id, engine, ControlStatus.ERROR if error else ControlStatus.SAME, str(c.get("why", "")),
                        observed=observed, error=error)
    if error:
        return res
    subs = {str(k): str(v) for k, v in (c.get("replace") or {}).items()}
    ctl_refusals = {o.label() for o in ctl.expect if o.subject.startswith("action:")}
    for o in ex.expect:
        subject = _rename_subject(o.subject, subs)
        if subject in skip:
            continue
        label = f"{subject}.{o.field}"
        if o.subject.startswith("action:") and label not in ctl_refusals:
            continue
        res.compared.append(o.label())
        if not same(o.value, observed.get(label)):
            res.differing.append(o.label())
    res.status = ControlStatus.DIFFERS if res.differing else ControlStatus.SAME
    # what the rules say of the control: its own `expect`, and the refusals of its own actions
    own = _observations(c.get("expect"), f"{ex.id} control")
    if "actions" in c:
        own = tuple(o for o in ctl.expect if o.subject.startswith("action:")) + own
    if own:
        res.mismatches = mismatches(own, observed)
        res.verdict = ControlVerdict.DISAGREES if res.mismatches else ControlVerdict.AGREES
        if res.status == ControlStatus.SAME and _rules_differ(ex, own, subs):
            res.status = ControlStatus.ENGINE_SAME
    return res


def _rules_differ(ex: Example, own: tuple[Observation, ...], subs: dict[str, str]) -> bool:
    """Whether the rules' outcome of the control differs from the example's on an observation both state."""
    mine = {f"{_rename_subject(o.subject, subs)}.{o.field}": o.value for o in ex.expect}
    return any(o.label() in mine and not same(mine[o.label()], o.value) for o in own)


def run_phase_control(suite, ex: Example) -> ControlResult:
    """The example's control on phase.rs (``suite``: a :class:`.phase_driver.PhaseSuite`)."""
    if not ex.control:
        return ControlResult(ex.id, Engine.PHASE, ControlStatus.MISSING)
    ctl, skip = control_example(ex)
    r = suite.run(ctl)
    if r.status == RunStatus.UNSUPPORTED:
        return ControlResult(ex.id, Engine.PHASE, ControlStatus.ERROR, str(ex.control.get("why", "")), error=r.reason)
    return compare(ex, ctl, skip, r.observed, Engine.PHASE, r.reason if r.error else "")


def run_kernel_control(ex: Example, library: dict | None = None) -> ControlResult:
    """The example's kernel control: its kernel runs with the rule's behaviour switched off
    (``mutant``) or on a changed ``given``; the control differs when some run then fails."""
    kc = ex.kernel_control
    if not kc:
        return ControlResult(ex.id, Engine.KERNEL, ControlStatus.MISSING)
    runs = kernel_driver.kernel_runs(ex, library)
    why = str(kc.get("why", ""))
    if "mutant" in kc:
        found = [m for m in _mutants() if m.id == kc["mutant"]]
        if not found:
            raise InputError(f"{ex.id}: no kernel mutant {kc['mutant']!r}", ex.file)
        why = why or f"{found[0].rule}: {found[0].fault}"
        with found[0].apply():
            failing = [s.id for s in runs if not _passes(s)]
    else:
        failing = [s.id for s in runs if not _passes(replace(s, given=_merge(s.given, kc["given"])))]
    return ControlResult(ex.id, Engine.KERNEL, ControlStatus.DIFFERS if failing else ControlStatus.SAME, why,
                         differing=failing,
                         compared=[s.id for s in runs])
