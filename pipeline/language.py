"""Which language a rules text is in: English, Portuguese, Spanish, or unknown (with why).

Function words decide: each profile lists its most frequent ones, and a text in that
language has a large share of its words among them.  The letters only one language uses
(``Profile.letters``: ã õ ç for Portuguese, ñ ¿ ¡ for Spanish) and the profile's cue words (regra/regla,
Exemplo/Ejemplo) break near ties.  A text with too few words, or whose best language
covers too small a share, is reported as unknown with the figures.
"""

from __future__ import annotations

import re

from .profiles import OFFICIAL_LANG, PROFILES

_WORD = re.compile(r"[^\W\d_]+")
MIN_WORDS = 8
#: A text in a known language has at least this share of its words among that language's
#: function words (measured: 34-41 % on the seeds and the English CR; a short Italian
#: paragraph scores 19 % as Spanish).
MIN_SHARE = 0.25


def language_scores(text: str) -> tuple[dict[str, float], int]:
    """Share of the words of ``text`` that are function or cue words of each language."""
    words = [w.casefold() for w in _WORD.findall(text[:200_000])]
    n = len(words)
    scores: dict[str, float] = {}
    for lang, p in PROFILES.items():
        vocab = set(p.stopwords) | {w.casefold() for w in p.rule_words + p.example_markers + p.see_words}
        hits = sum(1 for w in words if w in vocab)
        bonus = sum(text.count(c) for c in p.letters)
        scores[lang] = (hits + 0.5 * bonus) / n if n else 0.0
    return scores, n


def detect_language(text: str) -> tuple[str | None, str]:
    """``(code, reason)``; code is None when the language is not one of the profiles'."""
    scores, n = language_scores(text)
    if n < MIN_WORDS:
        return None, f"too little text to tell the language ({n} words; at least {MIN_WORDS} needed)"
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    (best, s1), (second, s2) = ranked[0], ranked[1]
    figures = ", ".join(f"{k} {v:.0%}" for k, v in ranked)
    if s1 < MIN_SHARE:
        return None, (f"not English, Portuguese or Spanish: only {s1:.0%} of {n} words are {best} function "
                      f"words (at least {MIN_SHARE:.0%} expected; {figures})")
    if s1 - s2 < 0.02:
        return None, f"undecided between {best} and {second} ({figures})"
    return best, f"{s1:.0%} of {n} words are {PROFILES[best].name} function words ({figures})"


def is_english_paragraph(text: str, lang: str, min_words: int = 6) -> bool:
    """A paragraph of a translation still in English: more English function words than the
    language's (per-paragraph identification; an untranslated unit or a pasted English rule)."""
    if lang == OFFICIAL_LANG:
        return False
    scores, n = language_scores(text)
    en = scores.get(OFFICIAL_LANG, 0)
    return n >= min_words and en >= 0.2 and en > 1.5 * scores.get(lang, 0)
