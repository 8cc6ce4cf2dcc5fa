"""Run conformance examples on our own kernel, for the subset it has entry points for.

An example's ``kernel`` block names a scenario of ``engine/scenarios`` (``{scenario: ID}``),
gives one inline run (``{action, given, expect}``), or a list of them (an example with several
cases, e.g. the three ways to pay ``{G/W}{G/W}``).  Every run must pass for the kernel to
agree.  Each run's expectations are flattened into observations, so the mutation check can
perturb them exactly as it does phase's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...errors import InputError
from ...serialize import INTERNAL, json_field, to_data
from ..runner import ACTIONS, Scenario, load_scenarios, run_scenario
from .model import Example, RunStatus


@dataclass
class KernelResult:
    example: str
    status: RunStatus
    runs: list[Scenario] = field(default_factory=list,
                                 metadata=json_field(name="scenarios", convert=lambda rs: [r.id for r in rs]))
    actual: list[Any] = field(default_factory=list, metadata=INTERNAL)
    mismatches: list[str] = field(default_factory=list)
    reason: str = ""

    def to_dict(self) -> dict:
        return to_data(self)


def kernel_runs(ex: Example, library: dict[str, Scenario] | None = None) -> list[Scenario]:
    """The kernel scenarios an example's ``kernel`` block stands for (empty: none)."""
    if not ex.kernel:
        return []
    library = library if library is not None else {s.id: s for s in load_scenarios()}
    blocks = ex.kernel if isinstance(ex.kernel, list) else [ex.kernel]
    out: list[Scenario] = []
    for i, b in enumerate(blocks):
        if "scenario" in b:
            if b["scenario"] not in library:
                raise InputError(f"{ex.id}: no kernel scenario {b['scenario']!r} in engine/scenarios", ex.file)
            out.append(library[b["scenario"]])
        else:
            if b.get("action") not in ACTIONS:
                raise InputError(f"{ex.id}: unknown kernel action {b.get('action')!r} (one of {', '.join(ACTIONS)})",
                                 ex.file)
            out.append(Scenario(f"{ex.id}/kernel#{i + 1}", "", (ex.rule,), (), f"CR {ex.id}", b["action"],
                                b.get("given") or {}, b.get("expect") or {}, ex.file))
    return out


def run(ex: Example, library: dict[str, Scenario] | None = None) -> KernelResult:
    runs = kernel_runs(ex, library)
    if not runs:
        return KernelResult(ex.id, RunStatus.UNSUPPORTED, reason="the kernel has no entry point for this example")
    res = KernelResult(ex.id, RunStatus.PASS, runs)
    for sc in runs:
        r = run_scenario(sc)
        res.actual.append(r.actual)
        if not r.passed:
            res.status = RunStatus.FAIL
            res.mismatches.extend(r.mismatches or [r.error or "failed"])
    return res


def flatten(expect: Any, prefix: str = "") -> dict[str, Any]:
    """``{a: {b: 1}}`` → ``{"a.b": 1}``: the leaves a kernel expectation asserts."""
    if isinstance(expect, dict):
        out: dict[str, Any] = {}
        for k, v in expect.items():
            out.update(flatten(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    return {prefix: expect}
