"""Issue 14, acceptance 3 (the unit part): a card's context is built once, shared by its rulings.

The memory figures (1,000 / 5,000 / 20,000 rulings of one card) are measured by
``benchmarks/bench_link_memory.py``; the size limit that refuses 1e6 rulings is tested in
``test_os_errors.py``."""

from __future__ import annotations

from pipeline.link.linker import card_contexts
from pipeline.rulings.model import Card, Ruling


def test_one_context_object_per_card():
    a = Card(name="A", text="Flying")
    b = Card(name="B")
    rulings = [Ruling(None, f"ruling {i}", "t", i, a if i % 3 else b) for i in range(3000)]
    ctx = card_contexts(rulings)
    ids_a = {id(c) for r, c in zip(rulings, ctx) if r.card is a}
    ids_b = {id(c) for r, c in zip(rulings, ctx) if r.card is b}
    assert len(ids_a) == 1 and len(ids_b) == 1
    # Memory is the texts once per card, not once per ruling.
    total = sum(len(c) for c in {id(c): c for c in ctx}.values())
    assert total < 2 * sum(len(r.text) + 1 for r in rulings) + 100
    first_a = next(c for r, c in zip(rulings, ctx) if r.card is a)
    assert first_a.startswith("Flying\n") and "ruling 1\n" in first_a and "ruling 3\n" not in first_a
