"""Text normalisation and rule-reference tokens shared by matching and classification.

Editions differ in typography that carries no meaning (curly vs straight quotes, dash
kinds, ``_Magic_`` italics in old editions, doubled spaces); matching compares the
normalised form so those differences never count as changes.  References to other rules
are masked for matching, so a rule whose only change is an updated citation still
anchors exactly.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

REF_TOKEN = re.compile(r"(?<![\d.])([1-9]\d{2}(?:\.\d{1,3}[a-z]?)?)(?![\d])")

_TYPOGRAPHY = (("\u2018", "'"), ("\u2019", "'"), ("\u201c", "'"), ("\u201d", "'"), ("\u2013", "-"),
               ("\u2014", "-"), ("\u2212", "-"), ("\u00a0", " "), ("\u2026", "..."))
_ITALIC = re.compile(r"(?<!\w)_([^_\n]+)_(?!\w)")


@lru_cache(maxsize=1 << 17)
def normalize(text: str) -> str:
    """The comparable form of a rule text: NFC, one quote mark, plain dashes, no italics marks.

    Cached: the same texts recur in every edition, and history walks all of them.
    """
    t = text if text.isascii() else unicodedata.normalize("NFC", text)
    if not t.isascii():
        for a, b in _TYPOGRAPHY:  # str.replace is far faster than str.translate with a dict
            if a in t:
                t = t.replace(a, b)
    if "_" in t:
        t = _ITALIC.sub(r"\1", t)
    # Double and single quotes mean the same to a rule; old editions lost their curly
    # quotes to "?" on the way to cp1252 (and the CR asks no questions).
    if '"' in t or "?" in t:
        t = t.replace('"', "'").replace("?", "'")
    return " ".join(t.split())


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
