"""Spelling facts of a language that a maintained source states, for
:mod:`pipeline.align.checks.spelling` (issue 24, spelling class).

Only what a dictionary cannot tell is here: Hunspell checks words one at a time, so it accepts
"não-básico" (both halves are words) although the orthography writes the prefix apart.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SpellingProfile:
    lang: str
    #: Words used as a prefix that the orthography writes apart, never hyphenated, as
    #: (prefix, the source that says so).  A translation that hyphenates one is told only when
    #: it also writes the prefix apart elsewhere (the check counts the document's own usage).
    unhyphenated_prefixes: tuple[tuple[str, str], ...] = ()
    #: How the English marks the same prefix on a word ("nonbasic", "non-Aura"): a regex over a
    #: whole English word whose group 1 is the word without the prefix.
    source_prefix: str = ""


SPELLING_PROFILES: dict[str, SpellingProfile] = {}


def register(p: SpellingProfile) -> SpellingProfile:
    SPELLING_PROFILES[p.lang] = p
    return p


register(SpellingProfile(
    lang="pt",
    # The 1990 Orthographic Agreement (in force in Brazil since 2009) dropped the hyphen after
    # "não" used as a prefix: the Academia Brasileira de Letras' VOLP (5th ed., 2009) writes
    # "não agressão", "não fumante", "não violência" (Base XVI as the ABL applies it).
    unhyphenated_prefixes=(("não", "Acordo Ortográfico de 1990 (VOLP 2009: “não agressão”, “não fumante”)"),),
    source_prefix=r"(?i)non-?([^\W\d_]{3,})",
))


def spelling_profile(lang: str) -> SpellingProfile | None:
    return SPELLING_PROFILES.get(lang)
