"""Rule numbers of the Comprehensive Rules: parse, validate, order.

Numbers come in four levels: a section (``7``), a rule (``702``), a subrule
(``702.79``) and a lettered subrule (``702.79a``).  Letters skip ``l`` and ``o``
(they look like 1 and 0), so ``704.5k`` is followed by ``704.5m``.  Ordering is
numeric, not lexical: ``702.9 < 702.79 < 702.79a``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache, total_ordering

from .errors import CrpipeError

#: Subrule letters in order; ``l`` and ``o`` are never used.
LETTERS = "abcdefghijkmnpqrstuvwxyz"
_LETTER_INDEX = {c: i for i, c in enumerate(LETTERS)}

#: Pieces of a rule number's shape, for the patterns built from them (``pipeline.text``):
#: a three-digit rule never starts with 0; a subrule has up to three digits.
RULE_FIRST_DIGIT = r"[1-9]"
RULE_LAST_DIGITS = r"\d{2}"
RULE_DIGITS = RULE_FIRST_DIGIT + RULE_LAST_DIGITS
SUB_DIGITS = r"\d{1,3}"
#: A subrule number as cited (no leading zero: "601.02" is not a reference).
SUB_DIGITS_NONZERO = r"[1-9]\d{0,2}"

RULE_NUMBER_RE = re.compile(rf"(?P<rule>{RULE_DIGITS})(?:\.(?P<sub>{SUB_DIGITS})(?P<letter>[a-z])?)?")
_FULL_RE = re.compile(r"^\s*(?:(?P<section>[1-9])|" + RULE_NUMBER_RE.pattern + r")\.?\s*$")

class Level(StrEnum):
    """How deep a number is: ``7``, ``702``, ``702.79``, ``702.79a``."""

    SECTION = "section"
    RULE = "rule"
    SUBRULE = "subrule"
    LETTERED = "lettered"


SECTION, RULE, SUBRULE, LETTERED = Level.SECTION, Level.RULE, Level.SUBRULE, Level.LETTERED


class RuleNumberError(CrpipeError, ValueError):
    """A string that is not a rule number."""


@total_ordering
@dataclass(frozen=True, slots=True)
class RuleNumber:
    """A parsed rule number.  ``str()`` gives the canonical form (no trailing dot)."""

    rule: int  # 100..999, or the section number 1..9 when level == SECTION
    sub: int | None = None
    letter: str | None = None

    @classmethod
    def parse(cls, text: str) -> "RuleNumber":
        """Parse ``"702.79a"``, ``"702.79."``, ``"702"`` or a section ``"7"``."""
        return _parse_cached(text)

    @classmethod
    def _parse(cls, text: str) -> "RuleNumber":
        m = _FULL_RE.match(text)
        if not m:
            raise RuleNumberError(f"not a rule number: {text!r}")
        if m.group("section"):
            return cls(int(m.group("section")))
        sub = m.group("sub")
        return cls(int(m.group("rule")), int(sub) if sub is not None else None, m.group("letter"))

    @classmethod
    def try_parse(cls, text: str) -> "RuleNumber | None":
        try:
            return cls.parse(text)
        except RuleNumberError:
            return None

    @property
    def level(self) -> str:
        if self.rule < 10:
            return SECTION
        if self.sub is None:
            return RULE
        return SUBRULE if self.letter is None else LETTERED

    @property
    def section(self) -> int:
        return self.rule if self.rule < 10 else self.rule // 100

    @property
    def letter_valid(self) -> bool:
        """False for the letters the CR never uses (``l``, ``o``)."""
        return self.letter is None or self.letter in _LETTER_INDEX

    @property
    def letter_index(self) -> int | None:
        """0 for ``a``, 10 for ``m`` (``l`` is skipped); None without a letter or for l/o."""
        return None if self.letter is None else _LETTER_INDEX.get(self.letter)

    def parent(self) -> "RuleNumber | None":
        """``601.2b`` -> ``601.2`` -> ``601`` -> section ``6`` -> None."""
        if self.letter is not None:
            return RuleNumber(self.rule, self.sub)
        if self.sub is not None:
            return RuleNumber(self.rule)
        if self.rule >= 10:
            return RuleNumber(self.section)
        return None

    def with_letter(self, letter: str) -> "RuleNumber":
        return RuleNumber(self.rule, self.sub, letter)

    def next_letter(self) -> "RuleNumber":
        """The lettered subrule after this one (``704.5k`` -> ``704.5m``)."""
        if self.sub is None:
            raise RuleNumberError(f"{self} has no letters")
        if self.letter is None:
            return self.with_letter(LETTERS[0])
        i = _LETTER_INDEX.get(self.letter)
        if i is None or i + 1 >= len(LETTERS):
            raise RuleNumberError(f"no letter follows {self}")
        return self.with_letter(LETTERS[i + 1])

    def sort_key(self) -> tuple[int, int, int]:
        if self.rule < 10:  # a section sorts before its first rule (1 < 100)
            return (self.rule * 100, -2, -1)
        letter = -1 if self.letter is None else ord(self.letter)
        return (self.rule, -1 if self.sub is None else self.sub, letter)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, RuleNumber):
            return NotImplemented
        return self.sort_key() < other.sort_key()

    def __str__(self) -> str:
        if self.sub is None:
            return str(self.rule)
        return f"{self.rule}.{self.sub}{self.letter or ''}"

    def __repr__(self) -> str:
        return f"RuleNumber('{self}')"


@lru_cache(maxsize=65536)
def _parse_cached(text: str) -> RuleNumber:
    # Numbers are immutable and the same few thousand recur in every stage.
    return RuleNumber._parse(text)


def letter_range(first: str, last: str) -> list[str]:
    """Letters from ``first`` to ``last`` inclusive, skipping l and o (``a``-``v``)."""
    if first not in _LETTER_INDEX or last not in _LETTER_INDEX:
        raise RuleNumberError(f"bad letter range {first}-{last}")
    i, j = _LETTER_INDEX[first], _LETTER_INDEX[last]
    if j < i:
        raise RuleNumberError(f"backwards letter range {first}-{last}")
    return list(LETTERS[i : j + 1])


def sort_ids(ids) -> list[str]:
    """Sort rule-number strings numerically; strings that do not parse go last, lexically."""
    def key(s: str):
        n = RuleNumber.try_parse(s)
        return (0, n.sort_key(), "") if n else (1, (0, 0, 0), s)
    return sorted(ids, key=key)
