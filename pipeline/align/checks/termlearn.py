"""Term consistency learnt from the translation itself: every glossary term of the base edition
(card types, keywords, zones, steps: the glossary holds them all), its rendering as the
translation's own glossary gives it and as its rules actually use it.

- ``terminology.minority``: the English rule has the term, most of the translation's rules with
  it use the glossary rendering, this one does not, and the words aligned to the term here
  (the learnt lexicon's links, :mod:`pipeline.align.wordlex`) are another rendering: the
  majority one is suggested.
- ``terminology.english-left``: the English term itself stands in the translated rule, where
  the translation's majority translates it.  Terms the team keeps in English (card, deck,
  planeswalker, mana, commander …) are those whose glossary rendering is the English word, or
  whose English form its rules use at least as often as the rendering: the majority decides.

Terms the term base lists for the language are left to :mod:`.terminology` (its ``missing``
and ``variant`` checks), so nothing is reported twice.  Words are compared by their keys
(casefolded Snowball stems), so ``habilidades ativadas`` is ``Habilidade Ativada`` and
``conjurada`` is ``Conjurar``.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from ...findings import Category, Check, DefectClass, Severity
from ...profiles.words import word_profile
from ..model import RowKind
from .commas import _ordered_links
from .registry import check, register_pass
from ...lexicon import lexicon
from ..termbase import find_all
from .. import wordlex

MINORITY = Check("terminology.minority", Category.TERMINOLOGY, Severity.WARNING,
                 "A glossary term is rendered here otherwise than in most of the translation's rules "
                 "(learnt from the translation: its glossary rendering and its rules' use of it); the "
                 "majority rendering is suggested.", DefectClass.TERM)
ENGLISH_LEFT = Check("terminology.english-left", Category.TERMINOLOGY, Severity.WARNING,
                     "A glossary term is left in English inside the translation, although the translation "
                     "elsewhere translates it (terms the team keeps in English are learnt, not flagged).", DefectClass.UNTRANSLATED)
CHECKS = [MINORITY, ENGLISH_LEFT]

#: Rules using the majority rendering needed before a minority one is reported (fitted on the real PO).
MIN_KEPT = 5
#: The majority rendering's share of the rules with the term (fitted on the real PO).
MIN_SHARE = 0.8


_WORDS = re.compile(r"[^\W\d_]+")


def _keys(text: str, lang: str) -> tuple[str, ...]:
    return tuple(t.key for t in wordlex.tokens(text.replace("-", " "), lang))


def _find_seq(keys: list[str], seq: tuple[str, ...]) -> list[int]:
    n = len(seq)
    return [i for i in range(len(keys) - n + 1) if tuple(keys[i:i + n]) == seq]


def _terms(ctx) -> list[tuple[str, str, tuple, tuple]]:
    """(English term, rendering, English keys, rendering keys), longest English first."""
    renderings = ctx.term_renderings or {}
    listed = set()
    if ctx.termbase is not None:
        listed = {t.en.casefold() for t in ctx.termbase.terms if t.renderings.get(ctx.lang)}
    out = []
    for g in ctx.base_doc.glossary or ():
        term = g.term
        tr = renderings.get(term)
        if not tr or term.casefold() in listed or "(" in term or "," in term:
            continue
        ek, tk = _keys(term, "en"), _keys(tr, ctx.lang)
        if ek and tk:
            out.append((term, tr, ek, tk))
    return sorted(out, key=lambda x: (-len(x[2]), x[0]))


def run(ctx) -> list:
    if not ctx.aligned or not ctx.term_renderings:
        return []
    lex = wordlex.learn(ctx)
    units = [u for u in lex.units if u.pair is not None]
    seg_keys: dict[int, Counter] = {}
    for u in units:
        seg_keys.setdefault(id(u.pair), Counter()).update(t.key for t in u.tgt)
    # Which units hold each English key: a term is looked for only where all its keys are
    # (338 terms x 3,000 units of regex searches took ~2 s; this takes a fraction of it).
    where: dict[str, set[int]] = {}
    for n, u in enumerate(units):
        for t in u.src:
            where.setdefault(t.key, set()).add(n)
    out = []
    pt_words = lexicon(ctx.lang).words
    for term, tr, ek, tk in _terms(ctx):
        with_term, kept_pairs, english_pairs = [], set(), set()
        en_re = _english_re(term)
        cands = set.intersection(*(where.get(k, set()) for k in ek))
        for u in (units[n] for n in sorted(cands)):
            # The term as written (plurals only): stems would take "colored" for "Color".
            if not en_re.search(u.source):
                continue
            hits = _find_seq([t.key for t in u.src], ek)
            if not hits:
                continue
            keys = seg_keys[id(u.pair)]
            if all(keys[k] for k in tk) or find_all(u.pair.target_text, (tr,)):
                kept_pairs.add(id(u.pair))
            elif _english_span(u, term) is not None:
                english_pairs.add(id(u.pair))
            with_term.append((u, hits))
        n = len({id(u.pair) for u, _ in with_term})
        kept = len(kept_pairs)
        if kept < MIN_KEPT or kept < MIN_SHARE * n:
            continue
        keeps_english = ek == tk or len(english_pairs) >= kept
        seen = set()
        for u, hits in with_term:
            pid = id(u.pair)
            if pid in kept_pairs or pid in seen:
                continue
            seen.add(pid)
            if not keeps_english and pid in english_pairs:
                span = _english_span(u, term)
                if span and not (" " not in term and term.casefold() in pt_words):
                    out.append(ctx.issue(ENGLISH_LEFT, u.pair, f"“{u.pair.target_text[span[0]:span[1]]}” is "
                                         f"left in English; the translation renders “{term}” as “{tr}” "
                                         f"({kept} of {n} rules)", span, suggestion=tr))
                continue
            alt = _aligned(u, hits[0], len(ek), lex, tk)
            if alt is None:
                continue
            a, b = alt
            shown = u.pair.target_text[a:b]
            out.append(ctx.issue(MINORITY, u.pair, f"“{shown}” for “{term}”; the translation mostly uses "
                                 f"“{tr}” ({kept} of {n} rules)", alt, suggestion=tr))
    return out


def aligned_span(ctx, pair, term: str, renderings) -> tuple[int, int] | None:
    """The span, in the pair's translated segment, of the words the learnt lexicon aligns with
    the English ``term`` where they are none of ``renderings`` (the first occurrence found)."""
    key = "termlearn.units_by_pair"
    if key not in ctx.cache:
        lex = wordlex.learn(ctx)
        by: dict[int, list] = {}
        for u in lex.units:
            if u.pair is not None:
                by.setdefault(id(u.pair), []).append(u)
        ctx.cache[key] = (lex, by)
    lex, by = ctx.cache[key]
    ek = _keys(term, "en")
    tk = tuple(k for r in renderings for k in _keys(r, ctx.lang))
    if not ek:
        return None
    for u in by.get(id(pair), ()):
        hits = _find_seq([t.key for t in u.src], ek)
        for at in hits:
            span = _aligned(u, at, len(ek), lex, tk)
            if span is not None:
                return span
        # Links the lexicon does not attest ("cast" -> "jogar"): the words between the counterparts
        # of the term's neighbours, a word repeated on both sides paired in order.
        attested = {(i, j) for i, j in _ordered_links(u) if u.tgt[j].key in lex.en.renderings.get(u.src[i].key, {})}
        raw = {wordlex.stem(w.casefold(), "en") for w in re.findall(r"[^\W\d_]+", u.source)}
        to_tgt: dict[int, list[int]] = {}
        for i, j in attested:
            to_tgt.setdefault(i, []).append(j)
        for at in hits:
            left = next((to_tgt[k] for k in range(at - 1, -1, -1) if k in to_tgt), None)
            right = next((to_tgt[k] for k in range(at + len(ek), len(u.src)) if k in to_tgt), None)
            if not (left and right):
                continue
            gaps = sorted((b - a, a, b) for a in left for b in right if b > a + 1)
            if not gaps or gaps[0][0] > len(ek) + 1:
                continue
            _, a, b = gaps[0]
            # a word whose own usual English is written in the sentence renders that, not the term
            js = [j for j in range(a + 1, b) if not set(lex.tgt.top(u.tgt[j].key)[:2]) & raw]
            if js and not any(u.tgt[j].key in tk for j in js):
                return (u.t_offset + u.tgt[js[0]].start, u.t_offset + u.tgt[js[-1]].end)
    return None


@lru_cache(maxsize=2048)
def _english_re(term: str) -> re.Pattern:
    t = re.escape(term)
    if term.endswith("y"):
        t = re.escape(term[:-1]) + "(?:y|ies)"
    return re.compile(rf"(?<![\w-]){t}(?:s|es)?(?![\w-])", re.IGNORECASE)


def _english_span(u, term: str) -> tuple[int, int] | None:
    """The English term written in the translated sentence, in lower case or starting a sentence
    (a capitalised word mid-sentence is a card name the translation keeps: "Exotic Orchard")."""
    for m in _english_re(term).finditer(u.target):
        before = u.target[:m.start()].rstrip()
        if m.group()[0].isupper() and before and before[-1] not in ".:;!?(\"“":
            continue
        return (u.t_offset + m.start(), u.t_offset + m.end())
    return None


def _aligned(u, at: int, n: int, lex, tk) -> tuple[int, int] | None:
    """The span of the translation's words that stand for the English term at ``at`` when they
    are another rendering: the words linked to the term's words by an attested link, else
    (model 1 links a word seen once to anything) the words between its neighbours'
    counterparts that render no other English word of the sentence.  At most one content word
    more than the term has, contiguous, none a word of the glossary rendering."""
    attested = {(i, j) for i, j in u.links if u.tgt[j].key in lex.en.renderings.get(u.src[i].key, {})}
    js = sorted({j for i, j in attested if at <= i < at + n})
    if not js:
        js = _between(u, at, n, lex, attested)
    if not js or js[-1] - js[0] > n:
        return None
    toks = [u.tgt[j] for j in js]
    if any(t.key in tk for t in toks):
        return None
    return (u.t_offset + toks[0].start, u.t_offset + toks[-1].end)


def _between(u, at: int, n: int, lex, attested) -> list[int]:
    to_tgt: dict[int, list[int]] = {}
    for i, j in attested:
        to_tgt.setdefault(i, []).append(j)
    left = next((to_tgt[k] for k in range(at - 1, -1, -1) if k in to_tgt), None)
    right = next((to_tgt[k] for k in range(at + n, len(u.src)) if k in to_tgt), None)
    if not (left and right):
        return []
    gaps = sorted((b - a, a, b) for a in left for b in right if b > a + 1)
    if not gaps or gaps[0][0] > n + 2:
        return []
    _, a, b = gaps[0]
    src_keys = {t.key for t in u.src}
    # Function words are no tokens ("put" is a stop word): a target word whose own usual source
    # is written in the English sentence renders it ("colocado" for "put"), whatever the links say.
    raw = {wordlex.stem(w.casefold(), "en") for w in re.findall(r"[^\W\d_]+", u.source)}
    return [j for j in range(a + 1, b)
            if not any(u.tgt[j].key in lex.en.renderings.get(k, {}) for k in src_keys)
            and not set(lex.tgt.top(u.tgt[j].key)[:2]) & raw]


register_pass(run, CHECKS)


# -- a verb headword rendered as a noun ---------------------------------------------------------

@check("terminology.headword-verb", Category.TERMINOLOGY, Severity.WARNING, DefectClass.TERM,
       "A glossary headword the English defines as a verb (\"To send a creature into combat\") rendered as a "
       "noun (\"Ataque\" beside \"Bloquear\"), although the translated definition reads it as a verb.")
def headword_verb(ctx, c):
    wp = word_profile(ctx.lang)
    if not wp.infinitives:
        return
    for pair in ctx.aligned:
        if pair.row.kind is not RowKind.GLOSSARY:
            continue
        tp, sp = pair.target_pieces, pair.source_pieces
        if len(tp) < 2 or len(sp) < 2:
            continue
        (off, term), (_d, tdef) = tp[0], tp[1]
        en_term, en_def = sp[0][1], sp[1][1]
        # The English defines a verb ("To send …") and the translation's definition opens with an
        # infinitive too ("Enviar …"): the team reads the headword as a verb, as its other ones.
        if not en_def.startswith("To ") or not term.strip() or term.strip().casefold() == en_term.strip().casefold():
            continue
        first_def = (_WORDS.findall(tdef) or [""])[0].casefold()
        first = _WORDS.search(term)
        if first is None or not first_def.endswith(wp.infinitives) or first.group().casefold().endswith(wp.infinitives):
            continue
        yield ctx.issue(c, pair, f"“{term.strip()}” for the verb “{en_term.strip()}”: the definition reads it as a verb "
                        f"(“{first_def}”); the glossary's verb headwords are infinitives", (off + first.start(), off + first.end()))


# -- a name kept in English once and translated once --------------------------------------------

#: Two or more capitalised words in a row: a card's name ("Psychic Vortex", "Vórtice Psíquico").
_NAME = re.compile(r"(?<![\w-])[^\W\d_a-zß-ÿ][\w-]+(?: [^\W\d_a-zß-ÿ][\w-]+)+")


@check("terminology.name-mixed", Category.TERMINOLOGY, Severity.WARNING, DefectClass.TERM,
       "A name the English repeats is kept in English in one place of the translated unit and translated in "
       "another (\"Psychic Vortex … Vórtice Psíquico\"): one form throughout.")
def name_mixed(ctx, c):
    for pair in ctx.aligned:
        s, t = pair.source_text, pair.target_text
        counts = Counter(m.group() for m in _NAME.finditer(s))
        for name, n in sorted(counts.items()):
            kept = len(re.findall(rf"(?<!\w){re.escape(name)}(?!\w)", t))
            if n < 2 or not 0 < kept < n:
                continue
            # the other place: a capitalised name of the translation the English does not have, in
            # mid-sentence (not a sentence's or a quotation's first words)
            # and a rendering, not English words left in it ("Fuera Than Meets" keeps two of the
            # name's words; "Casting Hechizo" one of the sentence's): no word of it is in the English
            en_words = {w.casefold() for w in re.findall(r"[^\W\d_]+", s)}
            other = [m for m in _NAME.finditer(t) if m.group() not in s and m.start() > 1
                     and t[:m.start()].rstrip()[-1:] not in ".:“\"(!?"
                     and not any(w.casefold() in en_words for w in re.findall(r"[^\W\d_]+", m.group()))]
            if len(other) != 1:
                continue
            m = other[0]
            yield ctx.issue(c, pair, f"“{m.group()}”: the translation keeps “{name}” in English elsewhere in this "
                            f"text (the English names it {n} times)", m.span(), suggestion=name)
