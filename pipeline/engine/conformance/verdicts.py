"""One verdict per CR example and per rule: the rules vs phase.rs vs our kernel.

A verdict is ``agrees`` (the engine shows what the example says), ``disagrees`` (it shows
something else; the mismatches say what), ``unsupported`` (the engine cannot run it: phase
cannot parse a card, the kernel has no entry point; the reason is given) or ``skipped``
(phase-python is not installed).

Against another edition the suite's rule numbers (written against :data:`SUITE_EDITION`) are
mapped through the diffs' renumbering map.  An example whose text is unchanged keeps its
verdict, under its new number when its rule moved; an example whose text changed (or whose
rule is gone) is marked ``recheck`` and its verdicts are not carried: what the example says
may no longer be what the engine was checked against.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Callable

from ...rulenum import RuleNumber
from ...serialize import OMIT_NONE, fields_data, json_field, to_data
from ...text import term_form
from . import kernel_driver, phase_run
from .controls import ControlResult, ControlVerdict, run_kernel_control
from .model import Engine, Example, RunStatus, Verdict, load_examples
from .phase_driver import DriveFailure, PhaseResult, skip_reason

#: The edition the suite's quotes and rule numbers come from.
SUITE_EDITION = "2025-11-14"

_VERDICT = {RunStatus.PASS: Verdict.AGREES, RunStatus.FAIL: Verdict.DISAGREES, RunStatus.UNSUPPORTED: Verdict.UNSUPPORTED}


@dataclass
class SuiteRun:
    """Raw results of one run of the suite (before any edition mapping)."""

    examples: list[Example]
    phase: dict[str, PhaseResult]
    kernel: dict[str, kernel_driver.KernelResult]
    phase_skipped: str | None = None  # why phase did not run
    controls: dict[str, list[ControlResult]] = field(default_factory=dict)

    def phase_verdict(self, ex: Example) -> Verdict:
        """``agrees`` only when phase shows the example *and* the rules' outcome of its control:
        a pass whose control phase fails proves only that phase does the same either way."""
        if self.phase_skipped:
            return Verdict.SKIPPED
        v = _VERDICT[self.phase[ex.id].status]
        ctl = self.control(ex.id, Engine.PHASE)
        if v == Verdict.AGREES and ctl is not None and ctl.verdict == ControlVerdict.DISAGREES:
            return Verdict.DISAGREES
        return v

    def control(self, example: str, engine: Engine) -> ControlResult | None:
        return next((c for c in self.controls.get(example, ()) if c.engine == engine), None)

    def phase_cause(self, ex: Example) -> str | None:
        """Why phase disagrees: ``breaks-rule`` (a finding) or ``driver`` (ours to fix); None when it does not."""
        if self.phase_verdict(ex) != Verdict.DISAGREES:
            return None
        r = self.phase[ex.id]
        return ex.cause or ("driver" if r.error == DriveFailure.DRIVER else "breaks-rule")

    def ran(self, ex: Example, engine: Engine) -> bool:
        """Whether ``engine`` ran the example to an outcome (not unsupported, not stopped by our driver)."""
        if engine == Engine.PHASE:
            r = self.phase.get(ex.id)
            return r is not None and r.status != RunStatus.UNSUPPORTED and self.phase_cause(ex) != "driver"
        return self.kernel[ex.id].status != RunStatus.UNSUPPORTED

    def discriminated_rules(self, engine: Engine) -> list[str]:
        """The rules whose examples ``engine`` agrees with *and* tells apart from their controls:
        the coverage that proves something (a pass without a discriminating control does not count)."""
        out = set()
        for ex in self.examples:
            ok = (self.phase_verdict(ex) if engine == Engine.PHASE else self.kernel_verdict(ex)) == Verdict.AGREES
            c = self.control(ex.id, engine)
            if ok and self.ran(ex, engine) and c is not None and not c.tautology:
                out.add(ex.rule)
        return sorted(out, key=lambda r: RuleNumber.parse(r).sort_key())

    def summary(self, mutation_score: float | None) -> dict:
        """The suite in figures (the keys issue 25 fixes): encoded, listed, runnable, controls, phase, mutants."""
        encoded = [e for e in self.examples if e.encoded or e.kernel]
        # listed with a reason it cannot be a game here; `not-yet` examples are tracked, not counted
        listed = [e for e in self.examples if e.unsupported and not e.kernel and e.listed != "not-yet"]
        runnable = [e for e in encoded if any(self.ran(e, eng) for eng in Engine)]

        def discriminating(e: Example) -> bool:
            ctls = [self.control(e.id, eng) for eng in Engine if self.ran(e, eng)]
            return all(c is not None and not c.tautology for c in ctls)

        differs = [e for e in runnable if discriminating(e)]
        phase = {"agrees": 0, "disagrees": 0, "driver": 0, "unimplemented": 0}
        if not self.phase_skipped:
            for e in self.examples:
                r = self.phase[e.id]
                if r.status == RunStatus.UNSUPPORTED:
                    phase["unimplemented"] += 0 if e.unsupported else 1
                elif self.phase_cause(e) == "driver":
                    phase["driver"] += 1
                else:
                    phase[self.phase_verdict(e)] += 1
        return {"examples": len(encoded), "examples_listed": len(encoded) + len(listed), "runnable": len(runnable),
                "control_differs": len(differs), "tautologies": len(runnable) - len(differs), "phase": phase,
                "mutation_score": mutation_score}

    def kernel_verdict(self, ex: Example) -> Verdict:
        return _VERDICT[self.kernel[ex.id].status]


def run_suite(use_phase: bool = True, examples: list[Example] | None = None,
              progress: Callable[[str], None] | None = None, cache: bool = False) -> SuiteRun:
    """Run every example on phase.rs (when installed and wanted) and on the kernel.

    ``cache``: with the shipped examples, phase's part as the package ships it or an earlier run
    left it in the cache, for the same driver, examples and phase release (:mod:`.phase_run`;
    ~15 s of a build), else run and kept.  The kernel part always runs (a fraction of a second)."""
    cache = cache and examples is None
    examples = examples if examples is not None else load_examples()
    why = skip_reason() if use_phase else "not requested"
    phase: dict[str, PhaseResult] = {}
    controls: dict[str, list[ControlResult]] = {}
    got = phase_run.remembered() if cache and why is None else None
    if got is not None:
        phase, controls = got
    elif why is None:
        phase, controls = phase_run.run_phase(examples, progress)
        if cache:
            phase_run.remember(phase, controls)
    library = {s.id: s for s in kernel_driver.load_scenarios()}
    kernel = {ex.id: kernel_driver.run(ex, library) for ex in examples}
    for ex in examples:
        if kernel[ex.id].status != RunStatus.UNSUPPORTED:
            controls.setdefault(ex.id, []).append(run_kernel_control(ex, library))
    return SuiteRun(examples, phase, kernel, why, controls)


def _norm(text: str) -> str:
    return term_form(text)


class ExampleText(StrEnum):
    """The example in the edition checked: as in the suite, renumbered, reworded, or gone."""

    SAME = "same"
    RENUMBERED = "renumbered"
    CHANGED = "changed"
    MISSING = "missing"


@dataclass
class ExampleVerdict:
    example: str  # as encoded: "613.4d#1" (suite edition)
    rule: str  # suite edition number
    #: The number in the target edition (None: gone).
    target_rule: str | None = field(metadata=json_field(name="rule_in_edition"))
    text: ExampleText
    phase: Verdict
    kernel: Verdict
    phase_detail: list[str] = field(default_factory=list)
    kernel_detail: list[str] = field(default_factory=list)
    file: str = ""
    note: str = ""

    def to_dict(self) -> dict:
        return to_data(self)


@dataclass
class ConformanceReport:
    edition: str
    suite_edition: str
    phase_skipped: str | None
    verdicts: list[ExampleVerdict] = field(metadata=json_field(name="examples"))
    #: The comparator self-check (perturbed expectations): not a mutation score.
    mutation: dict | None = field(default=None, metadata=OMIT_NONE)
    summary: dict | None = field(default=None, metadata=OMIT_NONE)  # SuiteRun.summary: the suite in figures
    controls: list[dict] = field(default_factory=list)
    #: Engine -> rules agreed with a discriminating control.
    coverage: dict = field(default_factory=dict, metadata=json_field(name="rules_with_a_discriminating_control"))

    def by_rule(self) -> dict[str, dict]:
        """Per rule (target-edition number): the combined verdict of its examples."""
        rules: dict[str, list[ExampleVerdict]] = {}
        for v in self.verdicts:
            if v.target_rule:
                rules.setdefault(v.target_rule, []).append(v)
        out = {}
        for rule in sorted(rules, key=lambda r: RuleNumber.parse(r).sort_key()):
            vs = rules[rule]
            out[rule] = {"examples": [v.example for v in vs], "phase": _combine([v.phase for v in vs]),
                         "kernel": _combine([v.kernel for v in vs])}
        return out

    def totals(self) -> dict:
        def count(attr: str) -> dict:
            c: dict[str, int] = {}
            for v in self.verdicts:
                c[getattr(v, attr)] = c.get(getattr(v, attr), 0) + 1
            return dict(sorted(c.items()))
        return {"examples": len(self.verdicts), "phase": count("phase"), "kernel": count("kernel"),
                "text": count("text")}

    def __json__(self) -> dict:
        return {**fields_data(self), "totals": to_data(self.totals()), "rules": to_data(self.by_rule())}

    def to_dict(self) -> dict:
        return to_data(self)


def _combine(verdicts: list[Verdict]) -> Verdict:
    for v in (Verdict.DISAGREES, Verdict.RECHECK, Verdict.AGREES, Verdict.UNSUPPORTED, Verdict.SKIPPED):
        if v in verdicts:
            return v
    return Verdict.UNSUPPORTED


def verdicts(run: SuiteRun, doc, number_map: Callable[[str], str | None] | None = None) -> ConformanceReport:
    """The run's verdicts against ``doc`` (an English edition), numbers mapped by ``number_map``."""
    nmap = number_map or (lambda r: r)
    out: list[ExampleVerdict] = []
    for ex in run.examples:
        target = nmap(ex.rule)
        rule = doc.rule(target) if target else None
        if rule is None:
            text = ExampleText.MISSING
        else:
            here = {_norm(e.text) for e in rule.examples}
            text = ((ExampleText.SAME if target == ex.rule else ExampleText.RENUMBERED) if _norm(ex.quote) in here
                    else ExampleText.CHANGED)
        pv, kv = run.phase_verdict(ex), run.kernel_verdict(ex)
        pd = (run.phase[ex.id].mismatches or ([run.phase[ex.id].reason] if run.phase[ex.id].reason else [])
              ) if ex.id in run.phase else ([run.phase_skipped] if run.phase_skipped else [])
        ctl = run.control(ex.id, Engine.PHASE)
        if pv == Verdict.DISAGREES and ctl is not None and ctl.verdict == ControlVerdict.DISAGREES:
            pd = list(pd) + [f"control ({ctl.why}): {m}" for m in ctl.mismatches]
        kr = run.kernel[ex.id]
        kd = kr.mismatches or ([kr.reason] if kr.reason else [])
        if text in (ExampleText.CHANGED, ExampleText.MISSING):  # what the engines were checked against is not this edition's example
            pv = kv = Verdict.RECHECK
        out.append(ExampleVerdict(ex.id, ex.rule, target if rule is not None else None, text, pv, kv, pd, kd,
                                  ex.file, ex.note))
    from .kernel_mutation import mutation_score  # the committed result of the mutation tool's run

    return ConformanceReport(doc.meta.effective_date or "", SUITE_EDITION, run.phase_skipped, out,
                             summary=run.summary(mutation_score()),
                             coverage={eng: run.discriminated_rules(eng) for eng in Engine
                                       if eng == Engine.KERNEL or not run.phase_skipped},
                             controls=[c.to_dict() for ex in run.examples for c in run.controls.get(ex.id, ())])
