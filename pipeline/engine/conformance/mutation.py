"""The mutation check: every scenario must be able to fail.

Three kinds of perturbation:

* **expected** — each observation a scenario asserts is changed (a number ±1, a flag flipped,
  a zone or name replaced, an element added to or dropped from a list, a counter added): the
  scenario must then fail against the engine's real answer;
* **answer** — the engine's observed value is changed the same way: the scenario must fail;
* **engine** (kernel only) — a deliberate fault is put into one kernel behaviour (a rule
  misread the way engines misread it); the kill matrix says which scenarios notice.

A scenario that no perturbation makes fail asserts nothing and is a *survivor*.  An
observation whose perturbation goes unnoticed is reported too (a comparator that ignores a
field).  CI requires 0 survivors.
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterator

from ...serialize import fields_data, to_data
from ..runner import Scenario, _match, run_action
from .model import Engine, RunStatus

_OTHER_ZONE = {"battlefield": "graveyard", "graveyard": "exile", "exile": "hand", "hand": "library",
               "library": "battlefield"}


def perturb(value: Any) -> list[Any]:
    """Values that differ from ``value`` in the ways a wrong engine would."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1]
    if value is None:
        return [0, "something"]
    if isinstance(value, str):
        return [_OTHER_ZONE.get(value, value + " (perturbed)")]
    if isinstance(value, list):
        return [value + ["(perturbed)"]] + ([value[:-1]] if value else [])
    if isinstance(value, dict):
        out: list[Any] = [{**value, "(perturbed)": 1}]
        out += [{**value, k: p} for k, v in value.items() for p in perturb(v)[:1]]
        return out
    return [("perturbed", value)]


@dataclass
class ScenarioMutation:
    scenario: str
    engine: Engine
    perturbations: int = 0
    killed: int = 0
    unnoticed: list[str] = field(default_factory=list)  # perturbations that did not make it fail
    engine_mutants: list[str] = field(default_factory=list)  # kernel mutants that make it fail

    @property
    def survivor(self) -> bool:
        return self.killed == 0

    def __json__(self) -> dict:
        return {**fields_data(self), "survivor": self.survivor}

    def to_dict(self) -> dict:
        return to_data(self)


def check_observations(name: str, engine: Engine, expected: dict[str, Any], observed: dict[str, Any],
                       differ: Callable[[Any, Any], bool]) -> ScenarioMutation:
    """Perturb each expected value and each observed value; ``differ(exp, got)`` must notice."""
    m = ScenarioMutation(name, engine)
    for label, exp in expected.items():
        got = observed.get(label)
        trials = [("expected", p, (p, got)) for p in perturb(exp)] + [("answer", p, (exp, p)) for p in perturb(got)]
        for side, p, (e, g) in trials:
            m.perturbations += 1
            if differ(e, g):
                m.killed += 1
            else:
                m.unnoticed.append(f"{side} {label} = {p!r}")
    return m


def _kernel_differ(exp: Any, got: Any) -> bool:
    out: list[str] = []
    _match(exp, got, "r", out)
    return bool(out)


def _leaves(expect: Any, actual: Any, prefix: str = "") -> Iterator[tuple[str, Any, Any]]:
    if isinstance(expect, dict) and expect:
        for k, v in expect.items():
            yield from _leaves(v, actual.get(k) if isinstance(actual, dict) else None, f"{prefix}.{k}" if prefix else k)
    else:
        yield prefix, expect, actual


def check_kernel_scenario(s: Scenario) -> ScenarioMutation | None:
    """Expectation and answer perturbations of one passing kernel scenario (None: it fails as is)."""
    try:
        actual = run_action(s.action, s.given)
    except Exception:  # noqa: BLE001 - a crashing scenario is reported by the suite, not here
        return None
    if _kernel_differ(s.expect, actual):
        return None
    exp, got = {}, {}
    for label, e, a in _leaves(s.expect, actual):
        exp[label], got[label] = e, a
    return check_observations(s.id, Engine.KERNEL, exp, got, _kernel_differ)


# -- engine mutants (kernel) ------------------------------------------------------------------

@dataclass(frozen=True)
class Mutant:
    id: str
    rule: str
    fault: str
    apply: Callable[[], contextlib.AbstractContextManager]


@contextlib.contextmanager
def _swap(module_attr: str, new: Any) -> Iterator[None]:
    """Replace ``pipeline.engine.MODULE.ATTR`` and every engine module's binding of the same object."""
    mod_name, attr = module_attr.rsplit(".", 1)
    mod = sys.modules[f"pipeline.engine.{mod_name}"]
    old = getattr(mod, attr)
    touched = []
    for name, m in list(sys.modules.items()):
        if name.startswith("pipeline.engine") and m is not None and getattr(m, attr, None) is old:
            touched.append(m)
            setattr(m, attr, new)
    try:
        yield
    finally:
        for m in touched:
            setattr(m, attr, old)


def _mutants() -> list[Mutant]:
    from .. import casting, copies, mana, persist, replacement  # noqa: F401  (bind the modules)
    from ..objects import FACE_DOWN  # deferred: only the face-down perturbation needs it

    orig_cv = copies.copiable_values

    def other_effects_copied(p):
        c = orig_cv(p)
        for e in p.effects:
            if e.set_types is not None:
                c = replace(c, types=e.set_types)
            if e.power is not None:
                c = replace(c, power=e.power, toughness=e.toughness)
        return c

    orig_copy_spell, orig_enter_as_copy = copies.copy_spell, copies.enter_as_copy
    orig_cwe, orig_mv, orig_cmv = copies.copy_with_exceptions, mana.mana_value, mana.card_mana_value
    orig_total = casting.total_cost
    orig_resolve = replacement.resolve_event
    orig_choices = casting.resolve_choices

    def mv_counting(**per_kind):
        def mv(cost, x=None):
            if cost is None:
                return 0
            total = 0
            for sym in cost.symbols:
                if sym.kind in per_kind:
                    total += per_kind[sym.kind]
                elif sym.kind == "generic":
                    total += sym.amount
                elif sym.kind == "variable":
                    total += x or 0
                else:
                    total += 2 if sym.kind == "twobrid" else 1
            return total
        return mv

    def back_face_own_cost(card, on_stack=False, half=None, fused=False, x=None, face_up=0):
        if card.layout == "transform" and face_up == 1:
            return mana.mana_value(card.faces[1].mana_cost, x if on_stack else None)
        return orig_cmv(card, on_stack=on_stack, half=half, fused=fused, x=x, face_up=face_up)

    return [
        Mutant("entering-seen-in-origin-zone", "614.12", "an entering permanent's own replacement effects are read "
               "as it exists in the zone it comes from", lambda: _swap("replacement.entering_view",
                                                                       lambda ev: ev.from_zone)),
        Mutant("general-effect-applies-to-itself", "614.12", "\"Permanents enter tapped\" applies to the permanent "
               "that has it", lambda: _swap("replacement._SELF_ENTER",
                                            {**replacement._SELF_ENTER, "permanents_enter_tapped": "other"})),
        Mutant("616.1-order-reversed", "616.1", "the 616.1a-e categories are taken in reverse order",
               lambda: _swap("replacement.CATEGORY_ORDER", tuple(reversed(replacement.CATEGORY_ORDER)))),
        Mutant("other-effects-copied", "707.2", "copiable values include non-copy effects (type, P/T changes)",
               lambda: _swap("copies.copiable_values", other_effects_copied)),
        Mutant("face-down-ignored", "707.2", "a face-down permanent's copiable values are its face-up values",
               lambda: _swap("copies.copiable_values",
                             lambda p: p.copy_of if p.copy_of is not None else p.printed)),
        Mutant("copy-is-cast", "707.10", "a copy of a spell counts as cast",
               lambda: _swap("copies.copy_spell", lambda *a, **k: replace(orig_copy_spell(*a, **k), cast=True))),
        Mutant("counters-copied", "707.2", "a copy enters with the original's counters",
               lambda: _swap("copies.enter_as_copy", lambda entering, original, exceptions=None:
                             replace(orig_enter_as_copy(entering, original, exceptions), counters=original.counters))),
        Mutant("copy-exceptions-dropped", "707.9", "a copy effect's exceptions are not copiable values",
               lambda: _swap("copies.copy_with_exceptions", lambda original, own, exceptions=None:
                             orig_cwe(original, own, None))),
        Mutant("x-ignored-on-stack", "202.3e", "X counts as 0 on the stack too",
               lambda: _swap("mana.mana_value", lambda cost, x=None: orig_mv(cost, None))),
        Mutant("split-half-ignored", "709.4", "a split card's chosen half is ignored: mana value of both halves",
               lambda: _swap("mana.card_mana_value", lambda faces, **k: orig_cmv(faces, **{**k, "half": None}))),
        Mutant("persist-ignores-counters", "702.79a", "persist returns a creature that had a -1/-1 counter",
               lambda: _swap("persist.had_minus_counter", lambda p: False)),
        Mutant("cost-changes-ignored", "601.2f", "cost increases and reductions are not part of the total cost",
               lambda: _swap("casting.total_cost", lambda card, a, changes=(): orig_total(card, a, ()))),
        Mutant("generic-ignored", "202.3", "generic mana doesn't count toward mana value",
               lambda: _swap("mana.mana_value", mv_counting(generic=0))),
        Mutant("hybrid-counts-both-halves", "202.3f", "a hybrid symbol counts 2, a {2/B} symbol 1",
               lambda: _swap("mana.mana_value", mv_counting(hybrid=2, twobrid=1))),
        Mutant("phyrexian-counts-zero", "202.3g", "a Phyrexian symbol counts 0 (its life alternative)",
               lambda: _swap("mana.mana_value", mv_counting(phyrexian=0))),
        Mutant("back-face-own-cost", "202.3b", "a transformed permanent's mana value comes from its back face",
               lambda: _swap("mana.card_mana_value", back_face_own_cost)),
        Mutant("no-choice-as-entering", "614.12a", "\"As … enters, choose\" is not applied as the permanent enters",
               lambda: _swap("replacement._SELF_ENTER", {k: v for k, v in replacement._SELF_ENTER.items()
                                                         if k != "as_enters_choose"})),
        Mutant("affected-player-doesnt-choose", "616.1", "the affected player's choice among replacement effects "
               "is ignored", lambda: _swap("replacement.resolve_event", lambda ev, bf=(), prefer=(), choices=None:
                                           orig_resolve(ev, bf, (), choices))),
        Mutant("hybrid-half-not-chosen", "107.4e", "the payer's choice of hybrid half is ignored",
               lambda: _swap("casting.resolve_choices", lambda cost, a: orig_choices(cost, replace(a, hybrid=())))),
        Mutant("phyrexian-life-not-chosen", "107.4f", "paying 2 life for a Phyrexian symbol is ignored",
               lambda: _swap("casting.resolve_choices",
                             lambda cost, a: orig_choices(cost, replace(a, phyrexian_life=())))),
        Mutant("copy-keeps-own-mana-cost", "707.2", "a copy keeps its own mana cost",
               lambda: _swap("copies.copy_with_exceptions", lambda original, own, exceptions=None:
                             replace(orig_cwe(original, own, exceptions), mana_cost=own.mana_cost))),
        Mutant("color-not-from-cost", "202.2", "an object's color is not taken from its mana cost",
               lambda: _swap("objects.cost_colors", lambda mc: [])),
        Mutant("enters-with-counters-ignored", "614.1c", "\"enters with counters\" is not applied",
               lambda: _swap("replacement._SELF_ENTER", {k: v for k, v in replacement._SELF_ENTER.items()
                                                         if k != "enters_with_counters"})),
        Mutant("face-down-stays-named", "708.2", "a face-down permanent keeps its name",
               lambda: _swap("objects.FACE_DOWN", replace(FACE_DOWN, name="(face-down name)"))),
    ]


def engine_kill_matrix(scenarios: list[Scenario]) -> dict[str, list[str]]:
    """For each mutant, the scenarios (passing as written) that fail under it."""
    base_ok = {s.id for s in scenarios if _passes(s)}
    out: dict[str, list[str]] = {}
    for m in _mutants():
        with m.apply():
            out[m.id] = [s.id for s in scenarios if s.id in base_ok and not _passes(s)]
    return out


def mutant_list() -> list[dict]:
    return [{"id": m.id, "rule": m.rule, "fault": m.fault} for m in _mutants()]


def _passes(s: Scenario) -> bool:
    try:
        actual = run_action(s.action, s.given)
    except Exception:  # noqa: BLE001 - a crash under a mutant is a kill
        return False
    return not _kernel_differ(s.expect, actual)


def mutation_report(run, scenarios: list[Scenario]) -> dict:
    """The whole check for one suite run plus the kernel's own scenarios: per scenario the
    perturbations tried and killed, the kernel kill matrix, and the survivors (must be none)."""
    from .kernel_driver import kernel_runs  # deferred: the kernel driver loads every scenario

    rows: list[ScenarioMutation] = []
    for ex in run.examples:
        r = run.phase.get(ex.id)
        if r is None or r.status != RunStatus.PASS:
            continue
        exp = {o.label(): o.value for o in ex.expect}
        obs = dict(r.observed)
        rows.append(check_observations(ex.id, Engine.PHASE, exp, obs,
                                       mismatches_one))
    library = {s.id: s for s in scenarios}
    kernel_scenarios = list(scenarios) + [k for ex in run.examples for k in kernel_runs(ex, library)
                                          if k.id not in library]
    matrix = engine_kill_matrix(kernel_scenarios)
    killers: dict[str, list[str]] = {}
    for mid, ids in matrix.items():
        for sid in ids:
            killers.setdefault(sid, []).append(mid)
    for s in kernel_scenarios:
        m = check_kernel_scenario(s)
        if m is not None:
            m.engine_mutants = sorted(killers.get(s.id, []))
            rows.append(m)
    cr_kernel = {ex.id: sorted({mid for k in kernel_runs(ex, library) for mid in killers.get(k.id, [])})
                 for ex in run.examples if ex.kernel}
    return {
        "scenarios": len(rows), "perturbations": sum(r.perturbations for r in rows),
        "killed": sum(r.killed for r in rows), "survivors": [r.scenario for r in rows if r.survivor],
        "unnoticed": {r.scenario: r.unnoticed for r in rows if r.unnoticed},
        "mutants": mutant_list(), "kill_matrix": matrix,
        "cr_examples_killed_by_a_kernel_mutant": cr_kernel,
        "rows": [r.to_dict() for r in rows],
    }


def mismatches_one(expected: Any, got: Any) -> bool:
    """phase's comparison of one observation (the one :func:`phase_driver.mismatches` uses)."""
    from .phase_driver import same  # deferred: the phase driver probes the optional extra

    return not same(expected, got)
