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
from typing import Callable

from ...rulenum import RuleNumber
from ...text import term_form
from . import kernel_driver
from .model import Example, load_examples
from .phase_driver import PhaseResult, PhaseSuite, skip_reason

#: The edition the suite's quotes and rule numbers come from.
SUITE_EDITION = "2025-11-14"

_VERDICT = {"pass": "agrees", "fail": "disagrees", "unsupported": "unsupported"}


@dataclass
class SuiteRun:
    """Raw results of one run of the suite (before any edition mapping)."""

    examples: list[Example]
    phase: dict[str, PhaseResult]
    kernel: dict[str, kernel_driver.KernelResult]
    phase_skipped: str | None = None  # why phase did not run

    def phase_verdict(self, ex: Example) -> str:
        if self.phase_skipped:
            return "skipped"
        return _VERDICT[self.phase[ex.id].status]

    def kernel_verdict(self, ex: Example) -> str:
        return _VERDICT[self.kernel[ex.id].status]


def run_suite(use_phase: bool = True, examples: list[Example] | None = None,
              progress: Callable[[str], None] | None = None) -> SuiteRun:
    """Run every example on phase.rs (when installed and wanted) and on the kernel."""
    examples = examples if examples is not None else load_examples()
    why = skip_reason() if use_phase else "not requested"
    phase: dict[str, PhaseResult] = {}
    if why is None:
        with PhaseSuite() as suite:
            for ex in examples:
                if progress:
                    progress(ex.id)
                phase[ex.id] = suite.run(ex)
    library = {s.id: s for s in kernel_driver.load_scenarios()}
    kernel = {ex.id: kernel_driver.run(ex, library) for ex in examples}
    return SuiteRun(examples, phase, kernel, why)


def _norm(text: str) -> str:
    return term_form(text)


@dataclass
class ExampleVerdict:
    example: str  # as encoded: "613.4d#1" (suite edition)
    rule: str  # suite edition number
    target_rule: str | None  # number in the target edition (None: gone)
    text: str  # same | renumbered | changed | missing
    phase: str
    kernel: str
    phase_detail: list[str] = field(default_factory=list)
    kernel_detail: list[str] = field(default_factory=list)
    file: str = ""
    note: str = ""

    def to_dict(self) -> dict:
        return {"example": self.example, "rule": self.rule, "rule_in_edition": self.target_rule, "text": self.text,
                "phase": self.phase, "kernel": self.kernel, "phase_detail": self.phase_detail,
                "kernel_detail": self.kernel_detail, "file": self.file, "note": self.note}


@dataclass
class ConformanceReport:
    edition: str
    suite_edition: str
    phase_skipped: str | None
    verdicts: list[ExampleVerdict]
    mutation: dict | None = None

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

    def to_dict(self) -> dict:
        return {"edition": self.edition, "suite_edition": self.suite_edition,
                "phase_skipped": self.phase_skipped, "totals": self.totals(),
                "examples": [v.to_dict() for v in self.verdicts], "rules": self.by_rule(),
                **({"mutation": self.mutation} if self.mutation is not None else {})}


def _combine(verdicts: list[str]) -> str:
    for v in ("disagrees", "recheck", "agrees", "unsupported", "skipped"):
        if v in verdicts:
            return v
    return "unsupported"


def verdicts(run: SuiteRun, doc, number_map: Callable[[str], str | None] | None = None) -> ConformanceReport:
    """The run's verdicts against ``doc`` (an English edition), numbers mapped by ``number_map``."""
    nmap = number_map or (lambda r: r)
    out: list[ExampleVerdict] = []
    for ex in run.examples:
        target = nmap(ex.rule)
        rule = doc.rule(target) if target else None
        if rule is None:
            text = "missing"
        else:
            here = {_norm(e.text) for e in rule.examples}
            text = ("same" if target == ex.rule else "renumbered") if _norm(ex.quote) in here else "changed"
        pv, kv = run.phase_verdict(ex), run.kernel_verdict(ex)
        pd = (run.phase[ex.id].mismatches or ([run.phase[ex.id].reason] if run.phase[ex.id].reason else [])
              ) if ex.id in run.phase else ([run.phase_skipped] if run.phase_skipped else [])
        kr = run.kernel[ex.id]
        kd = kr.mismatches or ([kr.reason] if kr.reason else [])
        if text in ("changed", "missing"):  # what the engines were checked against is not this edition's example
            pv = kv = "recheck"
        out.append(ExampleVerdict(ex.id, ex.rule, target if rule is not None else None, text, pv, kv, pd, kd,
                                  ex.file, ex.note))
    return ConformanceReport(doc.meta.effective_date or "", SUITE_EDITION, run.phase_skipped, out)
