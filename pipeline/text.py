"""The one text toolkit: rule-number patterns built from :mod:`pipeline.rulenum`, and the
normal forms texts are compared in.

Every regular expression that looks for a rule number is built from the fragments here,
so the shape of a number (a first digit that is never 0, up to three subrule digits, one
letter) is written once.  ``normalize`` is the comparable form of a rule text (diffs,
history); ``fold`` the case- and accent-insensitive form of a name or a word.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .rulenum import RULE_DIGITS, RULE_FIRST_DIGIT, RULE_LAST_DIGITS, SUB_DIGITS, SUB_DIGITS_NONZERO

__all__ = ["RULE", "RULE_FIRST", "RULE_REST", "SUB", "SUB_NONZERO", "NUMBER", "SUBRULE", "REF_TOKEN",
           "normalize", "fold", "term_form", "is_heading"]

RULE = RULE_DIGITS  # "702"
RULE_FIRST = RULE_FIRST_DIGIT  # for patterns that put look-behinds after the first digit
RULE_REST = RULE_LAST_DIGITS
SUB = SUB_DIGITS
SUB_NONZERO = SUB_DIGITS_NONZERO
#: Any rule number: "702", "702.79", "702.79a".
NUMBER = rf"{RULE}(?:\.{SUB}[a-z]?)?"
#: A subrule number ("601.2f", "702.46"); counts and P/T never look like this.
SUBRULE = rf"{RULE}\.{SUB}[a-z]?"
#: A rule number standing alone: no digit or dot before it, no digit after it.  The look-behind
#: sits after the first digit (same meaning) so the pattern starts with a character set, which
#: the regex engine scans for quickly: 3-4x faster over a whole edition.
REF_TOKEN = re.compile(rf"({RULE_FIRST}(?<![\d.]{RULE_FIRST}){RULE_REST}(?:\.{SUB}[a-z]?)?)(?![\d])")

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


@lru_cache(maxsize=4096)
def fold(s: str) -> str:
    """Case- and accent-insensitive form, for comparing names."""
    n = unicodedata.normalize("NFKD", s.replace("’", "'"))
    return re.sub(r"\s+", " ", "".join(ch for ch in n if not unicodedata.combining(ch)).casefold()).strip()


def term_form(text: str) -> str:
    """Casefolded, one quote mark per kind, plain dashes, single spaces: the form in which a key
    term of a rule is looked for in that rule's text, so a term survives typography."""
    t = unicodedata.normalize("NFKC", text).casefold()
    t = t.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    t = t.replace("—", "-").replace("–", "-")
    return re.sub(r"\s+", " ", t)


def is_heading(text: str) -> bool:
    """A keyword or section heading ("Persist", "Persistir"), not a sentence."""
    t = text.strip()
    return 0 < len(t.split()) <= 4 and not t.endswith((".", ":", ")")) and "\n" not in t
