"""Ruling dates: ISO, day-first, month-first and English month names.

Whether ``05/06/2017`` is 5 June or 6 May is decided once per document: a rulings page
uses one locale, so any line with a first field above 12 (or a second above 12) settles
every line.  A document where nothing settles it falls back to a hint (the locale of the
card name's language) and says so.
"""

from __future__ import annotations

import re
from datetime import date

from ..profiles import EN

_NUMERIC = re.compile(r"^\s*(\d{1,2})[/.\-](\d{1,2})[/.\-](\d{4})\s*$")
_ISO = re.compile(r"^\s*(\d{4})-(\d{2})-(\d{2})\s*$")
_MONTHS = EN.months  # rulings pages write dates in English
_NAMED = re.compile(r"^\s*(" + "|".join(m.capitalize() for m in _MONTHS) + r")\s+(\d{1,2}),\s*(\d{4})\s*$",
                    re.IGNORECASE)



class DateOrderError(ValueError):
    """The lines of one document contradict each other (one needs DMY, another MDY)."""


_PREFIX = re.compile(r"^\s*(\d{4}-\d{2}-\d{2}|\d{1,2}[/.\-]\d{1,2}[/.\-]\d{4}|(?:"
                     + "|".join(_MONTHS) + r")\s+\d{1,2},\s*\d{4})(?:\s*[:\-–—]\s*|\s+|$)(.*)$", re.IGNORECASE)


def is_date_line(line: str) -> bool:
    return bool(_NUMERIC.match(line) or _ISO.match(line) or _NAMED.match(line))


def split_date_prefix(line: str) -> tuple[str, str] | None:
    """``(date text, rest)`` when a line starts with a date ("14/07/2017" alone, or
    "2017-07-14: text" on one line); None otherwise."""
    m = _PREFIX.match(line)
    if not m:
        return None
    return m.group(1), m.group(2).strip()


def _valid(y: int, m: int, d: int) -> str | None:
    try:
        return date(y, m, d).isoformat()
    except ValueError:
        return None


def decide_order(lines: list[str], hint: str | None = None) -> tuple[str, str]:
    """Return ``("dmy"|"mdy", why)`` for the numeric dates among ``lines``."""
    dmy = mdy = False
    for ln in lines:
        m = _NUMERIC.match(ln)
        if not m:
            continue
        a, b = int(m.group(1)), int(m.group(2))
        if a > 12:
            dmy = True
        if b > 12:
            mdy = True
    if dmy and mdy:
        raise DateOrderError("dates mix day-first and month-first order")
    if dmy:
        return "dmy", "a date with a first field above 12 shows day-first order"
    if mdy:
        return "mdy", "a date with a second field above 12 shows month-first order"
    if hint in ("dmy", "mdy"):
        return hint, f"no date settles the order; assumed {hint} from the card name's language"
    return "mdy", "no date settles the order; assumed month-first (US English)"


def parse_date(line: str, order: str = "mdy") -> str | None:
    """ISO date of one date line under the document's order; None when not a valid date."""
    m = _ISO.match(line)
    if m:
        return _valid(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    m = _NAMED.match(line)
    if m:
        return _valid(int(m.group(3)), _MONTHS.index(m.group(1).lower()) + 1, int(m.group(2)))
    m = _NUMERIC.match(line)
    if m:
        a, b, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
        return _valid(y, b, a) if order == "dmy" else _valid(y, a, b)
    return None
