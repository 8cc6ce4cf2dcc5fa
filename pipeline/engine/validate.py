"""Validate the engine against the rules model.

* every declared rule id exists in the edition (after renumbering when the edition is not
  the one the declarations were written against: numbers are mapped with the diff's
  renumbering map, :meth:`pipeline.diff.EditionArchive.map_number`);
* the declared key terms are still in the rule's text, else the declaration is flagged for
  review (the rule was reworded);
* every rule a scenario cites is declared by some behaviour (no undeclared ids);
* scenario results;
* coverage of the targeted sections: which rules have an implementation exercised by a passing
  scenario (declared but never exercised is reported apart, not counted as implemented);
* the conformance suite: the CR's own examples run on phase.rs and on the kernel, one verdict
  per example and per rule (:mod:`pipeline.engine.conformance`), with the mutation check.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from ..diff import EditionArchive
from ..errors import InputError
from ..model import Document
from ..rulenum import RuleNumber, sort_ids
from ..serialize import INTERNAL, OMIT_NONE, fields_data, json_field, to_data
from ..text import term_form as normalize
from .catalog import all_declarations
from .conformance.model import Engine, Verdict
from .registry import Declaration, ENGINE_EDITION
from .runner import Result, load_scenarios, run_scenario

#: The sections the engine targets (in the declarations' edition numbering).
TARGET_SECTIONS = ("107.3", "118", "202.3", "601.2", "614", "616", "707", "709", "702.79")


class DeclarationStatus(StrEnum):
    """A declaration against the target edition's text."""

    OK = "ok"
    RENUMBERED = "renumbered"
    MISSING = "missing"  # no rule at the mapped number
    REVIEW = "review"  # some of its terms are no longer in the rule's text


class NumberMapping(StrEnum):
    """How declaration numbers reach the target edition."""

    IDENTITY = "identity"
    DIFF = "diff renumbering map (pipeline.diff.EditionArchive)"


@dataclass
class DeclarationCheck:
    declaration: Declaration
    target_number: str | None  # the number in the target edition (None: no counterpart)
    status: DeclarationStatus
    missing_terms: list[str] = field(default_factory=list)

    def __json__(self) -> dict:
        d = self.declaration
        return {"rule": d.rule, "function": d.function, "edition": d.edition, "target_number": self.target_number,
                "renumbered": self.target_number not in (None, d.rule), "status": self.status,
                "missing_terms": self.missing_terms, "terms": list(d.terms)}

    def to_dict(self) -> dict:
        return to_data(self)


@dataclass
class CoverageRow:
    section: str  # as numbered in the target edition
    declared_as: str
    rules: list[str]
    implemented: list[str]
    with_scenario: list[str]
    declared_only: list[str] = field(default_factory=list)  # declared, but no passing scenario exercises it

    def __json__(self) -> dict:
        return {"section": self.section, "declared_as": self.declared_as, "rules": len(self.rules),
                "implemented": len(self.implemented), "with_scenario": len(self.with_scenario),
                "implemented_ids": self.implemented, "scenario_ids": self.with_scenario,
                "declared_only": self.declared_only,
                "uncovered": [r for r in self.rules if r not in self.implemented and r not in self.with_scenario]}

    def to_dict(self) -> dict:
        return to_data(self)


@dataclass
class ValidationReport:
    edition: str
    declarations_edition: str
    mapping: NumberMapping
    checks: list[DeclarationCheck] = field(metadata=json_field(name="declarations"))
    undeclared: list[str]
    scenario_missing: list[str] = field(metadata=json_field(name="scenario_rules_missing"))
    results: list[Result] = field(metadata=INTERNAL)  # reported under "scenarios" with their counts
    coverage: list[CoverageRow]
    conformance: object | None = field(default=None, metadata=OMIT_NONE)  # conformance.verdicts.ConformanceReport

    @property
    def missing(self) -> list[str]:
        return sort_ids({c.declaration.rule for c in self.checks if c.status == DeclarationStatus.MISSING})

    @property
    def renumbered(self) -> dict[str, str]:
        return {c.declaration.rule: c.target_number for c in self.checks
                if c.target_number and c.target_number != c.declaration.rule}

    @property
    def review(self) -> list[DeclarationCheck]:
        return [c for c in self.checks if c.status == DeclarationStatus.REVIEW]

    @property
    def failed(self) -> list[Result]:
        return [r for r in self.results if not r.passed]

    @property
    def kernel_disagreements(self) -> list[str]:
        if self.conformance is None:
            return []
        return [v.example for v in self.conformance.verdicts if v.kernel == Verdict.DISAGREES]

    @property
    def tautologies(self) -> int:
        """Runnable CR examples whose control the observations do not tell apart (they would pass
        without their rule): each fails the suite."""
        if self.conformance is None or self.conformance.summary is None:
            return 0
        return self.conformance.summary["tautologies"]

    @property
    def ok(self) -> bool:
        return not (self.missing or self.undeclared or self.scenario_missing or self.failed
                    or self.kernel_disagreements or self.tautologies)

    def __json__(self) -> dict:
        return {
            **fields_data(self), "ok": self.ok, "missing": self.missing,
            "renumbered": dict(sorted(self.renumbered.items(), key=lambda kv: RuleNumber.parse(kv[0]).sort_key())),
            "review": to_data(self.review),
            "scenarios": {"total": len(self.results), "passed": sum(r.passed for r in self.results),
                          "results": to_data(self.results)},
        }

    def to_dict(self) -> dict:
        return to_data(self)


class NumberMap:
    """Maps a number of the declarations' edition to the target edition."""

    def __init__(self, source: str, target: Document, target_label: str | None, editions: Path | None,
                 cache_dir: Path | None = None):
        self.source = source
        self.identity = target.meta.effective_date == source
        self.archive = None
        self.target_label = target_label or target.meta.effective_date
        if not self.identity:
            if editions is None:
                raise InputError(f"the engine's declarations are numbered as in {source}; to validate against "
                                 f"{target.meta.effective_date} give --editions with a folder holding both editions "
                                 "(numbers are mapped through the diffs)", target.meta.source_file)

            self.archive = EditionArchive(editions, cache_dir=cache_dir)
            self.archive.index(source)  # fails clearly when the folder lacks the declarations' edition
            try:
                self.archive.index(self.target_label)
            except InputError:  # a file not named by its date: find it by its stated date
                self.target_label = target.meta.effective_date
                self.archive.index(self.target_label)

    @property
    def how(self) -> NumberMapping:
        return NumberMapping.IDENTITY if self.identity else NumberMapping.DIFF

    def __call__(self, rule: str) -> str | None:
        if self.identity:
            return rule
        return self.archive.map_number(rule, self.source, self.target_label)


def _covers(prefix: str, rule_id: str) -> bool:
    return rule_id == prefix or rule_id.startswith(prefix + ".") or (
        "." in prefix and rule_id.startswith(prefix) and rule_id[len(prefix):].isalpha())


def validate(doc: Document, editions: Path | None = None, target_label: str | None = None,
             cache_dir: Path | None = None, conformance: bool = True, use_phase: bool = True,
             mutation: bool = True) -> ValidationReport:
    """Check the engine's declarations and scenarios against ``doc`` (an English edition);
    with ``conformance``, also run the CR-example suite (on phase.rs when ``use_phase`` and
    phase-python is installed) and, with ``mutation``, the mutation check."""
    decls = all_declarations()
    source = decls[0].edition if decls else ENGINE_EDITION
    nmap = NumberMap(source, doc, target_label, editions, cache_dir)
    mapped: dict[str, str | None] = {}

    def m(rule: str) -> str | None:
        if rule not in mapped:
            mapped[rule] = nmap(rule)
        return mapped[rule]

    checks: list[DeclarationCheck] = []
    for d in decls:
        num = m(d.rule)
        rule = doc.rule(num) if num else None
        if rule is None:
            checks.append(DeclarationCheck(d, num, DeclarationStatus.MISSING))
            continue
        text = normalize(rule.text)
        gone = [t for t in d.terms if normalize(t) not in text]
        status = (DeclarationStatus.REVIEW if gone else
                  DeclarationStatus.RENUMBERED if num != d.rule else DeclarationStatus.OK)
        checks.append(DeclarationCheck(d, num, status, gone))

    scenarios = load_scenarios()
    declared = {d.rule for d in decls}
    cited = {r for s in scenarios for r in s.rules}
    undeclared = sort_ids(cited - declared)
    scenario_missing = sort_ids(r for r in cited if not (m(r) and doc.rule(m(r))))
    results = [run_scenario(s) for s in scenarios]
    exercised = {r for res in results if res.passed for r in res.scenario.rules}

    conf = None
    if conformance:
        from .conformance.verdicts import run_suite, verdicts  # heavy: the conformance suite loads only when asked

        run = run_suite(use_phase=use_phase, cache=True)  # phase's part kept in the cache between runs
        # a CR example counts toward coverage only with a control it tells apart (no tautology)
        exercised |= set(run.discriminated_rules(Engine.KERNEL))
        conf = verdicts(run, doc, m)
        if mutation:
            from .conformance.mutation import mutation_report  # heavy: runs only when asked

            conf.mutation = mutation_report(run, scenarios)

    impl_t = {m(r) for r in declared} - {None}
    exer_t = {m(r) for r in exercised} - {None}
    scen_t = {m(r) for r in cited} - {None}
    coverage: list[CoverageRow] = []
    for prefix in TARGET_SECTIONS:
        tp = m(prefix) or prefix
        rules = [r.id for r in doc.rules if _covers(tp, r.id)]
        coverage.append(CoverageRow(tp, prefix, rules, [r for r in rules if r in impl_t and r in exer_t],
                                    [r for r in rules if r in scen_t],
                                    [r for r in rules if r in impl_t and r not in exer_t]))
    return ValidationReport(doc.meta.effective_date or "", source, nmap.how, checks, undeclared,
                            scenario_missing, results, coverage, conf)


def stage_engine(ctx) -> None:
    """Build stage: validate the engine against the reference edition; writes
    ``engine-validation.json`` (declarations, scenarios, coverage)."""
    if ctx.reference is None:
        ctx.skip("engine validation", "no English reference edition")
        return
    editions = ctx.editions_dir if ctx.reference.meta.effective_date != ENGINE_EDITION else None
    try:
        rep = validate(ctx.reference, editions)
    except InputError as e:
        ctx.skip("engine validation", e.message)
        return
    ctx.write_json("engine-validation.json", rep.to_dict())
