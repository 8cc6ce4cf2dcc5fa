"""Engine errors: an illegal action is a rules outcome, not a crash."""

from __future__ import annotations

from ..errors import CrpipeError


class EngineError(CrpipeError, ValueError):
    """Malformed engine input (an unknown mana symbol, a scenario that names no card)."""


class IllegalAction(EngineError):
    """The rules forbid the proposed action; ``rule`` says which rule forbids it."""

    def __init__(self, message: str, rule: str):
        self.rule = rule
        super().__init__(f"{message} (rule {rule})")
