"""What the learnt bilingual lexicon (:mod:`pipeline.align.wordlex`) knows about a language's words.

spaCy's stop-word lists decide which words are function words, and function words are left
out of word alignment (they carry no checkable meaning and swamp IBM model 1).  Some of them
do carry meaning a translation must not lose — a negation, a quantifier, "only", a game noun
such as "tipo" or "valor" that the Portuguese list counts as a function word — and those are
listed here per language, together with the spellings that hide a word (contracted negation).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

from . import PROFILES


@dataclass(frozen=True)
class WordProfile:
    lang: str
    #: Stop words that are still meaning-bearing for the checks (kept as content words).
    meaning_words: frozenset[str]
    #: Surface forms that stand for another word, as (regex over the whole token, word):
    #: "can't" and "cannot" carry a "not".
    aliases: tuple[tuple[str, str], ...] = ()
    #: The negating words: a sentence with one of them must keep a negation in translation
    #: (which words render them is learnt from the translation, not listed).
    negations: frozenset[str] = frozenset()
    #: Words that negate by an affix ("noncombat", "untapped", "colorless"), as a regex over a
    #: whole word: a translation may render them with a negation ("que não seja de combate").
    negating_affix: str = ""

    @cached_property
    def alias_words(self) -> frozenset[str]:
        """The aliases that are plain words ("cannot"), for a quick test before the regexes."""
        return frozenset(p for p, _ in self.aliases if p.isalpha())

    def alias(self, token: str) -> str | None:
        for pattern, word in _compiled(self.aliases):
            if pattern.fullmatch(token):
                return word
        return None


@lru_cache(maxsize=16)
def _compiled(aliases: tuple[tuple[str, str], ...]) -> tuple[tuple[re.Pattern, str], ...]:
    return tuple((re.compile(p, re.IGNORECASE), w) for p, w in aliases)


def _numbers(lang: str) -> frozenset[str]:
    p = PROFILES.get(lang)
    return frozenset(w for w, _ in p.number_words) if p else frozenset()


WORD_PROFILES: dict[str, WordProfile] = {}


def register(p: WordProfile) -> WordProfile:
    WORD_PROFILES[p.lang] = p
    return p


register(WordProfile(
    "en",
    frozenset("not no never none nothing nobody each every all only other another both either neither without "
              "first last top bottom front back side part name full empty again".split()) | _numbers("en"),
    aliases=((r"[^\W\d_]+n['’]t", "not"), (r"cannot", "not")),
    negations=frozenset("not no never none nothing nobody neither nor without".split()),
    negating_affix=r"(?:non|un)[^\W\d_]{3,}|[^\W\d_]{3,}less|unless|except|instead|rather|other|otherwise|only",
))

register(WordProfile(
    "pt",
    frozenset("não nunca nenhum nenhuma nenhuns nenhumas nada ninguém cada todo toda todos todas tudo apenas "
              "somente só outro outra outros outras ambos ambas sem primeiro primeira último última tipo tipos "
              "valor número números ponto pontos parte lado topo fundo frente verso nome cheio vazio novamente "
              "maior menor máximo posição".split()) | _numbers("pt"),
    negations=frozenset("não nunca nenhum nenhuma nenhuns nenhumas nada ninguém nem sem jamais".split()),
    # "irrelevante", "incolor", "desvirada", "no máximo" (no more than), "reduzido a zero" (to nothing).
    negating_affix=r"(?:in|im|ir|des)[^\W\d_]{4,}|zero|máximo|mínimo|exceto|salvo|senão|impossível",
))

register(WordProfile(
    "es",
    frozenset("no nunca ningún ninguno ninguna nada nadie cada todo toda todos todas solo sólo solamente otro "
              "otra otros otras ambos ambas sin primero primera último última tipo tipos valor número números "
              "parte lado nombre".split()) | _numbers("es"),
    negations=frozenset("no nunca ningún ninguno ninguna nada nadie ni sin jamás".split()),
))


def word_profile(lang: str) -> WordProfile:
    return WORD_PROFILES.get(lang) or WordProfile(lang, _numbers(lang))
