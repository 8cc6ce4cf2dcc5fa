"""Machine-readable declarations: which rule each engine behaviour implements.

Every behaviour function carries :func:`implements`, which records the rule id, the
edition it was written against and the key terms of that rule's text the code relies on.
``crpipe validate-engine`` reads this registry (never the comments) to check that each
declared rule still exists and still says what the code assumes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..rulenum import sort_ids
from ..serialize import to_data

#: The edition every declaration in this package was written against.
ENGINE_EDITION = "2025-11-14"


@dataclass(frozen=True)
class Declaration:
    rule: str
    function: str  # "module.qualname"
    terms: tuple[str, ...]
    edition: str = ENGINE_EDITION
    summary: str = ""

    def to_dict(self) -> dict:
        return to_data(self)


@dataclass
class Registry:
    declarations: list[Declaration] = field(default_factory=list)

    def add(self, decl: Declaration) -> None:
        if decl not in self.declarations:
            self.declarations.append(decl)

    def rules(self) -> list[str]:
        return sort_ids({d.rule for d in self.declarations})

    def for_rule(self, rule: str) -> list[Declaration]:
        return [d for d in self.declarations if d.rule == rule]


REGISTRY = Registry()


def implements(rule: str, *terms: str, edition: str = ENGINE_EDITION, summary: str = "") -> Callable:
    """Declare that the decorated function implements ``rule`` and relies on ``terms``.

    Stack several decorators for a function that implements several rules.  Terms are
    matched case-insensitively against the rule's text by the validator.
    """
    def deco(fn: Callable) -> Callable:
        name = f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__qualname__}"
        first_line = (fn.__doc__ or "").strip().splitlines()[0] if fn.__doc__ else ""
        REGISTRY.add(Declaration(rule, name, tuple(terms), edition, summary or first_line))
        fn.__rules__ = getattr(fn, "__rules__", ()) + (rule,)
        return fn
    return deco

