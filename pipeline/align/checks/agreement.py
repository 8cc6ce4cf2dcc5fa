"""Agreement learnt from the translation itself: a determiner or an adjective whose gender or
number is not its noun's ("esse jogadores", "das habilidade", "uma jogador", "alvos válido").

Lightproof's agreement rules know the dictionary's genders; a translation of the CR has its
own nouns ("card", "planeswalker", "mana") and its own usage.  So a noun's gender and number
are learnt from the determiners this translation writes before it: "card" follows "o", "um",
"esse" 270 times, so it is masculine singular here, whatever a dictionary says.  A word is
judged only when that evidence is strong (``MIN_EVIDENCE`` uses, ``MIN_SHARE`` of them one
way), and a pair only when it is rare in the document: a pairing the team writes again and
again is its usage, not a slip.

Which words are determiners, their gender and number, and which of them have another reading
("a" is also a preposition: "dano a criaturas") are the language's facts
(:class:`pipeline.profiles.words.WordProfile`).  An adjective's gender and number are read from
its ending when the other gender's form is a word too (válido/válida), and a word that is also
a verb form ("o jogador precisa") or that the document uses as a noun is not taken for one.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from ...findings import Category, Check, DefectClass, Severity
from ...profiles.words import word_profile
from ...segment.hunspell import speller
from ..text import words
from .registry import register_pass

DETERMINER = Check("grammar.determiner", Category.GRAMMAR, Severity.WARNING,
                   "A determiner that does not agree in gender or number with its noun, the noun's gender and "
                   "number learnt from this translation's own usage (\"esse jogadores\", \"uma jogador\").",
                   DefectClass.GRAMMAR)
ADJECTIVE = Check("grammar.adjective", Category.GRAMMAR, Severity.INFO,
                  "An adjective or participle right after a noun that does not agree with it in gender or number, "
                  "the noun's learnt from this translation's own usage (\"alvos válido\").", DefectClass.GRAMMAR)
CHECKS = [DETERMINER, ADJECTIVE]

MIN_EVIDENCE = 3
MIN_SHARE = 0.9
#: A determiner–noun or noun–adjective pair the document writes more often than this is usage.
MAX_PAIR_USES = 2
_GENDER = {"m": "masculine", "f": "feminine"}
_NUMBER = {"s": "singular", "p": "plural"}


class _Features:
    """Each noun's (gender, number) as this document's determiners show them."""

    def __init__(self, counts: dict[str, Counter]):
        self.counts = counts

    def of(self, word: str, without: tuple[tuple[str, str], int] | None = None) -> tuple[str | None, str | None] | None:
        """``without``: (features, uses) left out of the evidence — the pair being judged must
        not lower the bar it is measured against."""
        c = self.counts.get(word)
        if not c:
            return None
        if without is not None:
            c = c.copy()
            c[without[0]] -= without[1]
        genders, numbers = Counter(), Counter()
        for (g, n), k in c.items():
            if g:
                genders[g] += k
            numbers[n] += k
        return _strong(genders), _strong(numbers)


def _strong(c: Counter) -> str | None:
    if not c:
        return None
    v, k = c.most_common(1)[0]
    return v if k >= MIN_EVIDENCE and k >= MIN_SHARE * sum(c.values()) else None


def _tokens(text: str) -> list:
    """Words, without the letters of rule numbers ("120.4a") and with what stands between."""
    out = []
    for t in words(text):
        if t.start and (text[t.start - 1].isdigit() or text[t.start - 1] == "."):
            continue
        out.append(t)
    return out


def _adjacent(text: str, a, b) -> bool:
    return text[a.end:b.start] == " "


def run(ctx) -> list:
    wp = word_profile(ctx.lang)
    dets = dict(wp.determiners)
    if not dets:
        return []
    stop = ctx.lexicon(ctx.lang).function_words - wp.meaning_words
    units = [(p, p.target_text, _tokens(p.target_text)) for p in ctx.pairs if p.target is not None]
    learnt: dict[str, Counter] = defaultdict(Counter)
    pairs: Counter = Counter()
    for _p, text, toks in units:
        for a, b in zip(toks, toks[1:]):
            if not _adjacent(text, a, b):
                continue
            al, bl = a.text.casefold(), b.text.casefold()
            pairs[(al, bl)] += 1
            if al in dets and al not in wp.determiners_other_reading and _noun_like(b.text, bl, dets, stop):
                learnt[bl][dets[al]] += 1
    feats = _Features(learnt)
    hun = speller(ctx.lang)
    out = []
    for p, text, toks in units:
        for i, (a, b) in enumerate(zip(toks, toks[1:])):
            if not _adjacent(text, a, b):
                continue
            al, bl = a.text.casefold(), b.text.casefold()
            if pairs[(al, bl)] > MAX_PAIR_USES:
                continue
            if al in dets:
                if al in wp.determiners_unreported or not _noun_like(b.text, bl, dets, stop):
                    continue
                own = (dets[al], pairs[(al, bl)]) if al not in wp.determiners_other_reading else None
                bad = _conflict(dets[al], feats.of(bl, own))
                if bad:
                    out.append(ctx.issue(DETERMINER, p, f"“{a.text} {b.text}”: “{a.text}” is {bad[0]}, but this "
                                         f"translation writes “{b.text}” as {bad[1]}", (a.start, b.end)))
            elif hun is not None and _noun_like(a.text, al, dets, stop) and b.text.islower() and bl not in stop \
                    and bl not in dets and feats.of(bl) is None:
                f = feats.of(al)
                adj = _adjective(bl, wp, hun)
                if f is None or adj is None:
                    continue
                bad = _conflict(adj, f)
                nxt = toks[i + 2] if i + 2 < len(toks) and _adjacent(text, b, toks[i + 2]) else None
                after = feats.of(nxt.text.casefold()) if nxt is not None else None
                if after is not None and _conflict(adj, after) is None:
                    continue  # "alvo múltiplas vezes": the adjective goes with the noun after it
                if bad and not _agrees_with_head(toks, i, text, adj, feats, wp):
                    out.append(ctx.issue(ADJECTIVE, p, f"“{a.text} {b.text}”: “{b.text}” is {bad[0]}, but this "
                                         f"translation writes “{a.text}” as {bad[1]}", (a.start, b.end)))
    return out


def _noun_like(raw: str, w: str, dets: dict, stop: frozenset) -> bool:
    return raw.isalpha() and len(w) > 1 and w not in dets and w not in stop and not raw.isupper()


def _conflict(have: tuple[str, str], want: tuple[str | None, str | None] | None):
    """(what the word is, what the noun is) in words, when they disagree; else None."""
    if want is None:
        return None
    g, n = have
    wg, wn = want
    if wn and n != wn:
        return _NUMBER[n], _NUMBER[wn]
    if wg and g and g != wg:
        return _GENDER[g], _GENDER[wg]
    return None


def _adjective(w: str, wp, hun) -> tuple[str, str] | None:
    """(gender, number) of a gendered adjective or participle, read off its ending when the
    word inflects in all four forms (válido, válida, válidos, válidas: verb forms such as
    "seja" or "tenha" do not); None for anything else, or a verb form."""
    if w in wp.not_adjectives or not w.isalpha() or any(re.fullmatch(v, w) for v in wp.verb_forms):
        return None
    for ending, feat in wp.gendered_endings:
        if w.endswith(ending) and len(w) > len(ending) + 2:
            stem = w[:-len(ending)]
            if not all(stem + e in hun for e, _ in wp.gendered_endings if e != ending):
                return None
            if any(stem + inf in hun for inf in wp.infinitives):
                return None  # "ativa" is also "ativar"'s present: "o jogador ativa"
            return feat
    return None


def _agrees_with_head(toks, i, text, adj, feats, wp) -> bool:
    """"símbolo de expansão roxo": after "N1 de N2", the adjective may be N1's."""
    if i < 2:
        return False
    prep, head = toks[i - 1], toks[i - 2]
    if prep.text.casefold() not in wp.of_words or not _adjacent(text, head, prep):
        return False
    f = feats.of(head.text.casefold())
    return f is None or _conflict(adj, f) is None


# Lightproof's own agreement rules name some of the same pairs ("um criatura"): one finding each.
register_pass(run, CHECKS, yields_to=("grammar.agreement",))
