"""Regular expressions for rule references, built from a language :class:`Profile`.

Nothing here names an English, Portuguese or Spanish word: the cue words (rule, see,
section, conjunctions, range words) all come from the profile, so a new language is a
new profile.  What *is* language-independent lives here: the shape of a rule number,
the dashes of a range and the quotation marks around a title.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..profiles import Profile, get as get_profile
from ..text import RULE, RULE_FIRST, RULE_REST, SUB, SUB_NONZERO

#: Horizontal white space: a citation never runs across a line break (a glossary
#: definition's "…section 4, “Zones.”\n2. A status…" lists no section 2).
H = r"[^\S\n]"

# A rule number as it is cited.  No digit may touch it on either side ("2011–2018",
# "Celebr-8000" are not rules) and it may not be one group of a thousands-separated
# number ("999,999").  A letter is part of it only when no other lowercase letter
# follows: "601.2f," is a subrule, "601.2fand" is too ambiguous to claim.  The start may
# be glued to a word ("regra601.2f"), which pasted PDFs do all the time.
_NUM_CORE = rf"{RULE}(?:\.{SUB_NONZERO}(?:[a-z](?![a-z]))?)?"
# The look-behinds stand after the first digit, not before it: a pattern that opens with
# a character class lets the regex engine skip ahead to candidate digits (5x faster).
NUM = rf"{RULE_FIRST}(?<!\d\d)(?<!\d[.,]\d){RULE_REST}(?:\.{SUB_NONZERO}(?:[a-z](?![a-z]))?)?(?!\d)(?!,\d)(?!\.\d)"

# What may stand after the dash of a range: a full number ("903.6–903.11"), a subrule
# number of the same rule ("712.9–10"), or a letter ("614.1c–d").
_TAIL = rf"(?:{_NUM_CORE}|{SUB}(?:[a-z](?![a-z]))?|[a-z])(?![\w])"
DASHES = "–—‐‑-"  # en dash, em dash, hyphen (Unicode and ASCII)

#: One reference unit: a number, optionally a range.
UNIT_RE = re.compile(
    rf"(?P<num>{NUM})"
    rf"(?:(?:{H}?(?P<dash>[{DASHES}]){H}?|(?P<qdash>\?)(?={RULE}))(?P<tail>{_TAIL}))?"
)
# "306?311": some old editions carry a "?" where an en dash was lost to a bad encoding;
# only between two full three-digit numbers, with no space, is it read as a dash.

# A title's closing mark must match its opening one: with ASCII quotes the closing one
# is the first that no letter follows ("Don't" keeps its apostrophe; single quotes are
# never title marks, they are apostrophes too often).
TITLE_RE = re.compile(
    r",?[^\S\n]*(?:“(?P<t1>[^”\n]{1,90})”|«[^\S\n]?(?P<t2>[^»\n]{1,90}?)[^\S\n]?»|„(?P<t3>[^“”\n]{1,90})[“”]"
    r'|"(?P<t4>[^"\n]{1,90}?)"(?![^\W_]))'
)


def title_of(m: re.Match) -> str:
    return m.group("t1") or m.group("t2") or m.group("t3") or m.group("t4") or ""


#: After a cited number, a following word means a quantity ("exactly 100 cards").
FOLLOWED_BY_WORD_RE = re.compile(r"[^\S\n]+[^\W\d_]")


def _word_start(words) -> str:
    """Words at a word start, case-insensitive, as ``[sS](?<![^\\W\\d_].)(?:ection|…)``:
    opening with a character class (not a look-behind) keeps the scan fast."""
    by_first: dict[str, list[str]] = {}
    for w in sorted(set(words)):
        by_first.setdefault(w[0].casefold(), []).append(w[1:])
    alts = []
    for c, rests in sorted(by_first.items()):
        cls = re.escape(c) + re.escape(c.upper()) if c.upper() != c else re.escape(c)
        alts.append(rf"[{cls}](?<![^\W\d_].)(?:{_alt(rests)})")
    return "(?:" + "|".join(alts) + ")" if alts else "(?!)"  # no words: matches nothing


def _alt(words) -> str:
    # Longest first, so "rules" wins over "rule" and "and/or" over "and".  No words (a profile
    # learnt from a document that never shows them): a pattern that matches nothing, not everything.
    if not words:
        return "(?!)"
    return "|".join(re.escape(w) for w in sorted(set(words), key=lambda w: (-len(w), w)))


@dataclass(frozen=True)
class Patterns:
    """The compiled cue patterns of one language."""

    lang: str
    #: A rule word right before the number, glue allowed: "rule 601", "regra601".
    rule_cue: re.Pattern
    #: A citing verb right before the number: "See 718", "véase 607".
    see_cue: re.Pattern
    #: A section citation: "section 7", "seção 6".
    section: re.Pattern
    #: What may stand between two items of a list: ", ", " and ", ", and rule ", " e ".
    list_sep: re.Pattern
    #: A range word between two full numbers: " through ", " a ", " hasta ".
    range_sep: re.Pattern


@lru_cache(maxsize=None)
def patterns_for(lang: str) -> Patterns:
    return build_patterns(get_profile(lang))


@lru_cache(maxsize=8)
def patterns_of(p: Profile) -> Patterns:
    """The patterns of a profile that is not registered (one learnt from a document)."""
    return build_patterns(p)


def build_patterns(p: Profile) -> Patterns:
    rule_words = _alt(p.rule_words)
    conj = _alt(p.conjunctions)
    # A word boundary made by hand: the cue word must not be the tail of a longer word
    # ("overrule 601" is not a citation), but the number may be glued to it.
    lb = r"(?<![^\W\d_])"
    return Patterns(
        lang=p.lang,
        # Old editions also say "section 101" for a three-digit rule.
        rule_cue=re.compile(rf"{_word_start(p.rule_words + p.section_words)}{H}*$", re.IGNORECASE),
        # Multi-word see phrases ("as described in") end in a preposition; as a cue for a
        # bare three-digit number only the citing verbs themselves are strong enough.
        see_cue=re.compile(rf"{_word_start(w for w in p.see_words if ' ' not in w)}{H}+$", re.IGNORECASE),
        section=re.compile(
            rf"(?P<word>{_word_start(p.section_words)}){H}*(?P<sec>[1-9])(?!\d)(?!\.\d)", re.IGNORECASE),
        list_sep=re.compile(
            rf"{H}*(?:[,;]{H}*)?(?:(?:{conj}){H}+)?(?:{lb}(?:{rule_words}){H}*)?", re.IGNORECASE),
        range_sep=re.compile(rf"{H}+(?:{_alt(p.range_words)}){H}+", re.IGNORECASE),
    )
