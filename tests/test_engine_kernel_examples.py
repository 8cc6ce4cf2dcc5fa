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
