"""Issue 25: the CR examples our kernel runs, each with its control, without phase.rs.

This is the fast half of the conformance suite: the mutation tool (mutmut, see
``[tool.mutmut]`` in pyproject.toml) runs it with tests/test_engine.py against every mutant of
the kernel.  Each example the kernel runs must agree with the rules, and its control (the
rule's behaviour switched off by a deliberate fault, :mod:`pipeline.engine.conformance.mutation`)
must make it fail: otherwise the example passes on a kernel without the rule.
"""

from __future__ import annotations

import pytest

from pipeline.engine.conformance import kernel_driver
from pipeline.engine.conformance.controls import run_kernel_control
from pipeline.engine.conformance.model import load_examples

LIBRARY = {s.id: s for s in kernel_driver.load_scenarios()}
KERNEL_EXAMPLES = [e for e in load_examples() if e.kernel]


@pytest.mark.parametrize("ex", KERNEL_EXAMPLES, ids=[e.id for e in KERNEL_EXAMPLES])
def test_kernel_agrees_with_the_example(ex):
    r = kernel_driver.run(ex, LIBRARY)
    assert r.status == "pass", r.mismatches


@pytest.mark.parametrize("ex", KERNEL_EXAMPLES, ids=[e.id for e in KERNEL_EXAMPLES])
def test_the_kernel_control_tells_the_example_apart(ex):
    c = run_kernel_control(ex, LIBRARY)
    assert c.status == "differs", f"{ex.id}: passes with {c.why!r} switched on: a tautology"


def test_every_kernel_example_has_a_control():
    assert len(KERNEL_EXAMPLES) >= 26
    assert all(e.kernel_control for e in KERNEL_EXAMPLES)


def test_the_recorded_mutation_score_is_current_and_every_survivor_explained():
    """mutmut's recorded run (pipeline/engine/conformance/kernel-mutation.json) is of these kernel
    sources, scores at least 0.85, and each survivor is explained in kernel-mutation-survivors.yaml."""
    from pipeline.engine.conformance.kernel_mutation import kernel_digest, load_explanations, load_result

    rec = load_result()
    assert rec is not None and rec["tool"] == "mutmut"
    assert rec["kernel_digest"] == kernel_digest(), \
        "the kernel changed since mutmut's run: mutmut run && python -m pipeline.engine.conformance.kernel_mutation record"
    assert rec["not_checked"] == 0 and rec["killed"] + rec["survived"] + rec["not_covered"] == rec["mutants"]
    assert rec["score"] == round(rec["killed"] / rec["mutants"], 4) >= 0.85
    explained = load_explanations()
    assert set(explained) == set(rec["survivors"]), set(explained) ^ set(rec["survivors"])
    assert all(why.split(":")[0] in ("equivalent", "unreachable") for why in explained.values())
