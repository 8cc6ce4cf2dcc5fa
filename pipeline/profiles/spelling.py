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
    #: Accent rules over a whole word, as (regex, replacement, the rule): a word the regex
    #: matches is misspelt and the replacement (``re.sub``) is its spelling.
    accent_rules: tuple[tuple[str, str, str], ...] = ()
    #: Verb forms rules text never writes (the first person singular: the rules speak of
    #: players, the examples to "você") one letter from the form it does, as (ending of the
    #: form, ending of the form meant, ending of the infinitive both belong to): "permiti" is
    #: "permite" when "permitir" is a verb.
    first_person_slips: tuple[tuple[str, str, str], ...] = ()
    #: The letters a word's gender changes ("certos" / "certas"): two words one such letter apart
    #: are forms of one word, not a slip.
    gender_letters: str = ""
    # --- r6form block (round 6): hyphen majority and "se" for "ser" ---
    #: Second parts of a hyphenated form that are clitic pronouns ("coloque-o", "tornou-se"): the
    #: same two words apart ("coloque o card") are an article, not a lost hyphen.
    clitics: tuple[str, ...] = ()
    #: Auxiliary verbs that take an infinitive ("deve", "pode"): after one, "se" then a past
    #: participle ("devem se tratadas") is the infinitive "ser" lost its r.
    modal_auxiliaries: tuple[str, ...] = ()
    #: A regex over a whole word that is a past participle ("tratadas", "removido").
    participle: str = ""


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
    # An -ir infinitive before -lo/-la drops its r and takes no accent ("permiti-lo", "dividi-la");
    # the accent stays only where the i stands in hiatus after a vowel ("destruí-lo", "possuí-la").
    accent_rules=((r"(?i)^([^\W\d_]*[^\W\d_aeiouáéíóúâêôãõ])í(-l[oa]s?)$", r"\1i\2",
                   "an -ir infinitive before -lo/-la takes no accent (“permiti-lo”; “destruí-lo” keeps it in hiatus)"),),
    # The preterite's first person of an -ir verb ("permiti", "instruí") against the present's third.
    first_person_slips=(("i", "e", "ir"), ("í", "i", "ir")),
    gender_letters="ao",
    # r6form block: the enclitic and mesoclitic pronouns (Cunha & Cintra, Nova Gramática, ch. 11).
    clitics=("o", "a", "os", "as", "lo", "la", "los", "las", "no", "na", "nos", "nas", "se", "lhe", "lhes",
             "me", "te", "vos"),
    # Modal verbs that govern a bare infinitive (dever, poder, precisar, ir): their forms the rules use.
    modal_auxiliaries=("deve", "devem", "deva", "devam", "deverá", "deverão", "deveria", "deveriam",
                       "pode", "podem", "possa", "possam", "poderá", "poderão", "poderia", "poderiam",
                       "precisa", "precisam", "precise", "precisem", "vai", "vão"),
    # Regular past participles of -ar and -er/-ir verbs, with gender and number.
    participle=r"(?i)[^\W\d_]{2,}(?:ad|id)[oa]s?",
))


def spelling_profile(lang: str) -> SpellingProfile | None:
    return SPELLING_PROFILES.get(lang)
