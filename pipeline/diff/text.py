"""Text normalisation and rule-reference tokens shared by matching and classification.

Editions differ in typography that carries no meaning (curly vs straight quotes, dash
kinds, ``_Magic_`` italics in old editions, doubled spaces); matching compares the
normalised form so those differences never count as changes.  References to other rules
are masked for matching, so a rule whose only change is an updated citation still
anchors exactly.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..text import REF_TOKEN, normalize

__all__ = ["REF_TOKEN", "normalize", "mask_refs", "ref_tokens", "remap_refs"]


@lru_cache(maxsize=1 << 17)
def mask_refs(text: str) -> str:
    """Replace every rule-number token by ``#`` (the matching key ignores citations)."""
    return REF_TOKEN.sub("#", text)


@lru_cache(maxsize=1 << 16)
def ref_tokens(text: str) -> tuple[str, ...]:
    return tuple(REF_TOKEN.findall(text))


def remap_refs(text: str, mapping: dict[str, str | None]) -> str:
    """Rewrite the rule numbers in ``text`` through ``mapping`` (numbers not in it stay)."""
    def sub(m: re.Match) -> str:
        new = mapping.get(m.group(1))
        return new if new else m.group(1)
    return REF_TOKEN.sub(sub, text)
