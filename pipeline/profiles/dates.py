"""Declared effective dates, read in any language a :class:`~pipeline.profiles.Profile` knows.

"These rules are effective as of November 14, 2025.", "Essas regras são válidas na data de
14 de novembro de 2025", "Estas reglas son válidas desde el 14 de noviembre de 2025": the
sentence and the month names are each profile's data; this module only reads them.
"""

from __future__ import annotations

import re
from datetime import date

from . import PROFILES
from ..text import fold


#: Rulings pages of languages crpipe has no profile for that write the day first (a profile
#: says it with ``date_order``); any other language without a profile is read month-first.
DAY_FIRST_WITHOUT_PROFILE = frozenset({"fr", "de", "it", "ru", "ko", "ja", "zh"})


def day_first(lang: str) -> bool:
    """Whether numeric dates of ``lang`` (``pt``, ``pt-BR``, ``ru``) put the day first."""
    code = lang.split("-")[0]
    p = PROFILES.get(code)
    return p.date_order == "dmy" if p is not None else code in DAY_FIRST_WITHOUT_PROFILE


def declared_date(text: str, lang: str | None = None) -> tuple[str, str] | None:
    """``(iso date, matched text)`` of a declared effective date in any known language."""
    profiles = [PROFILES[lang]] if lang in PROFILES else list(PROFILES.values())
    for p in profiles:
        for pat in p.effective_date_patterns:
            m = re.search(pat, text[:20000], re.I)
            if not m:
                continue
            iso = _parse_date(m.group("date"), p.months)
            if iso:
                return iso, m.group(0)
    return None


def _parse_date(s: str, months: tuple[str, ...]) -> str | None:
    folded = [fold(m) for m in months]
    m = re.match(r"(?P<month>[^\W\d_]+)\s+(?P<day>\d{1,2}),\s*(?P<year>\d{4})", s)  # November 14, 2025
    if not m:
        m = re.match(r"(?P<day>\d{1,2})º?\s+de\s+(?P<month>[^\W\d_]+)\s+del?\s+(?P<year>\d{4})", s)  # 14 de novembro de 2025, 14 de noviembre del 2025
    if not m:
        return None
    month = fold(m.group("month"))
    if month not in folded:
        return None
    try:
        return date(int(m.group("year")), folded.index(month) + 1, int(m.group("day"))).isoformat()
    except ValueError:
        return None
