"""Every behaviour module of the engine, imported so that its ``@implements`` declarations
are in the registry.  The registry itself (:mod:`pipeline.engine.registry`) is a leaf that
these modules import; listing them here, not there, keeps the imports one-way.
"""

from __future__ import annotations

from . import casting, copies, mana, persist, replacement  # noqa: F401  (registration side effect)
from ..rulenum import RuleNumber
from .registry import Declaration, REGISTRY


def all_declarations() -> list[Declaration]:
    """Every registered declaration, in rule order."""
    return sorted(REGISTRY.declarations, key=lambda d: (RuleNumber.parse(d.rule).sort_key(), d.function))
