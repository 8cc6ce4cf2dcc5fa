"""Commas against the English: a comma the English has between two words whose renderings stand
side by side in the translation with nothing between them, and a comma of the translation
between the renderings of two English words that stand side by side without one.

The CR's English punctuates its clauses carefully, and a translation that keeps the sentence's
order keeps its commas: the ones reviewers correct are the comma that separates a subject from
its verb ("O primeiro mulligan, não conta") and the one that closes a parenthetical ("o
controlador e o dono daquela criatura podem"), both visible as a comma the English does not
have, or lacks.  The words are paired by the lexicon learnt from the translation itself
(:mod:`pipeline.align.wordlex`); only links that are the English word's usual rendering count,
and a list's "and"/"or" (where the Portuguese drops the serial comma) is left alone.

``form.subject-comma`` is the sharper form of the first: the comma stands right before a finite
verb and the English counterparts of the words on either side of it are a few words apart with
no punctuation between ("the first mulligan a player takes doesn't count"); a word both
languages write alike ("mulligan") is paired with itself when the lexicon's link strays.
"""

from __future__ import annotations

import re

from ...findings import Category, Check, DefectClass, Severity
from ...profiles import PROFILES
from ...profiles.words import word_profile
from ...segment.hunspell import speller
from .. import wordlex
from ...lexicon import _stop_words
from .registry import register_pass

EXTRA = Check("form.extra-comma", Category.FORM, Severity.INFO,
              "A comma before a verb, between the renderings of two English words that stand together "
              "without one (a comma between subject and verb).", DefectClass.PUNCTUATION)
MISSING = Check("form.missing-comma", Category.FORM, Severity.INFO,
                "No comma between the renderings of two English words the English separates with one "
                "(a parenthetical left open?).", DefectClass.PUNCTUATION)
SUBJECT = Check("form.subject-comma", Category.FORM, Severity.WARNING,
                "A comma between a subject and its verb (\"a ficha que está em outra zona, deixa de existir\"): the "
                "English has no punctuation between the two words and the translation keeps their order.",
                DefectClass.PUNCTUATION)
CHECKS = [EXTRA, MISSING, SUBJECT]

#: A translation's gap holding one comma, perhaps after a closing bracket or quote.
_COMMA_GAP = re.compile(r"^(?:\s*[^\W\d_]+){0,2}[”\"’)]*,\s+([^\W\d_]+\s+){0,3}$")
#: The English between a subject's last word and its verb: no clause mark (a closing bracket or
#: quote, which the translation closes too, is part of the subject).
_EN_CLAUSE_MARK = re.compile(r"[,;:.!?(\[—–]")

_PUNCT = re.compile(r"[,;:.!?()\[\]—–\"“”«»]")
def _one_comma(gap: str) -> bool:
    """Only function words and one comma between the two words."""
    return gap.count(",") == 1 and not _PUNCT.search(gap.replace(",", "")) and "\n" not in gap


def _gap(text: str, a, b) -> str:
    return text[a.end:b.start]


def run(ctx) -> list:
    prof = PROFILES.get(ctx.lang)
    if prof is None:
        return []
    lex = wordlex.learn(ctx)
    joins_en = {"and", "or", "nor", "then"}
    joins_tg = {w.casefold() for w in prof.conjunctions}
    wp = word_profile(ctx.lang)
    set_off = wp.comma_words
    hun = speller(ctx.lang)
    out = []
    for u in lex.units:
        if u.pair is None or not u.links:
            continue
        best = _usual_links(u, lex)
        if not best:
            continue
        s_of = {j: i for i, j in best}
        t_of = {i: j for i, j in best}
        # The English has a comma between adjacent content words i, i+1; the translation none.
        for i, j1, j2, _g, tg in _comma_pairs(u.src, u.source, u.tgt, u.target, t_of):
            if _PUNCT.search(tg) or set(tg.casefold().split()) & joins_tg or "\n" in tg:
                continue
            if _comma_near(u, j1, j2):
                continue  # the comma moved a word along ("em todo lugar, mesmo"): kept, not lost
            a, b = u.t_offset + u.tgt[j1].start, u.t_offset + u.tgt[j2].end
            out.append(ctx.issue(MISSING, u.pair, f"no comma in “{u.target[u.tgt[j1].start:u.tgt[j2].end]}”; the "
                                 f"English has one: “{u.source[u.src[i].start:u.src[i + 1].end]}”", (a, b)))
        # The translation has a comma between adjacent content words j, j+1; the English none.
        for j, i1, i2, g, sg in _comma_pairs(u.tgt, u.target, u.src, u.source, s_of):
            after = g.split(",", 1)[1].split()
            if after and after[0].casefold() in set_off or u.tgt[j + 1].text.casefold() in set_off:
                continue
            # Only a comma before the verb: other commas the English lacks ("Em muitos casos, o",
            # "custo, como descrito") are the language's own punctuation far more often than not.
            nxt = [w.casefold() for w in after if w.casefold() not in wp.negations_before_verb] or [u.tgt[j + 1].text.casefold()]
            if hun is None or not _finite_verb(nxt[0], wp, hun):
                continue
            if _PUNCT.search(sg) or set(sg.casefold().split()) & joins_en or "\n" in sg:
                continue
            a, b = u.t_offset + u.tgt[j].start, u.t_offset + u.tgt[j + 1].end
            out.append(ctx.issue(EXTRA, u.pair, f"comma in “{u.target[u.tgt[j].start:u.tgt[j + 1].end]}”; the "
                                 f"English has none: “{u.source[u.src[i1].start:u.src[i2].end]}”", (a, b)))
    # A subject's comma is named once, by the sharper check.
    subj = _subject_commas(ctx, lex, wp, hun, joins_en, set_off)
    taken = {(i.rule, i.span[0]) for i in subj if i.span}
    out = [i for i in out if not (i.check == EXTRA.id and i.span and (i.rule, i.span[0]) in taken)]
    return out + subj


def _subject_commas(ctx, lex, wp, hun, joins_en, set_off) -> list:
    """A comma in the translation right before a finite verb whose English counterpart follows
    the counterpart of the word before the comma with no punctuation between (the subject and
    its verb, a few words apart: "the first mulligan a player takes doesn't count")."""
    out = []
    if hun is None:
        return out
    stop = _stop_words(ctx.lang)
    for u in lex.units:
        if u.pair is None or not u.links:
            continue
        s_of: dict[int, list[int]] = {}
        for i, j in _ordered_links(u):
            if u.tgt[j].key in lex.en.renderings.get(u.src[i].key, {}):  # the word's usual rendering
                s_of.setdefault(j, []).append(i)
        for j in range(len(u.tgt) - 1):
            g = _gap(u.target, u.tgt[j], u.tgt[j + 1])
            m = _COMMA_GAP.match(g)
            if not m or "\n" in g:
                continue
            after = [w.casefold() for w in u.target[u.tgt[j].end + g.index(",") + 1:].split()[:4]]
            if not after or after[0] in set_off:
                continue
            verb = next((w for w in after if w not in wp.negations_before_verb), "")
            if not _finite_verb(verb, wp, hun) or (verb in stop and verb not in wp.finite_verbs):
                continue  # "esta" (this) is not "está"
            # the English words on either side: the subject's last, the verb's or its participle's
            jv = next((k for k in (j + 1, j + 2) if k < len(u.tgt) and k in s_of), None)
            if jv is None:
                continue
            ivs, ibs = s_of[jv], s_of.get(j, [])
            if len(ivs) == 1 and (len(ibs) != 1 or ibs[0] >= ivs[0]):
                # a word both languages write alike ("mulligan", "card"): the same word before the verb
                same = [i for i, t in enumerate(u.src) if t.text.casefold() == u.tgt[j].text.casefold() and i < ivs[0]]
                ibs = same[-1:] if same else ibs
            if len(ivs) != 1 or len(ibs) != 1:
                continue
            ib, iv = ibs[0], ivs[0]
            if not 0 <= ib < iv or iv - ib > 8:
                continue
            sg = u.source[u.src[ib].end:u.src[iv].start]
            if _EN_CLAUSE_MARK.search(sg) or set(re.findall(r"\w+", sg.casefold())) & joins_en or "\n" in sg:
                continue
            c = u.t_offset + u.tgt[j].end + g.index(",")
            a, b = u.t_offset + u.tgt[j].start, c + 1 + len(g.split(",", 1)[1].rstrip()) if g.split(",", 1)[1].strip() \
                else u.t_offset + u.tgt[j + 1].end
            out.append(ctx.issue(SUBJECT, u.pair, f"comma in “{u.target[a - u.t_offset:b - u.t_offset]}” between a "
                                 f"subject and its verb; the English has none: “{u.source[u.src[ib].start:u.src[iv].end]}”",
                                 (a, b)))
    return out


def _comma_pairs(a_toks, a_text: str, b_toks, b_text: str, link: dict[int, int]):
    """Adjacent words i, i+1 of one side with one comma between them whose counterparts on the
    other side are adjacent too: (i, k, k + 1, the gap on this side, the gap on the other)."""
    for i in range(len(a_toks) - 1):
        g = _gap(a_text, a_toks[i], a_toks[i + 1])
        if not _one_comma(g) or i not in link or i + 1 not in link:
            continue
        k1, k2 = link[i], link[i + 1]
        if k2 == k1 + 1:
            yield i, k1, k2, g, _gap(b_text, b_toks[k1], b_toks[k2])


def _comma_near(u, j1: int, j2: int) -> bool:
    """A comma in the gaps next to the pair's."""
    for a, b in ((j1 - 1, j1), (j2, j2 + 1)):
        if 0 <= a and b < len(u.tgt) and "," in _gap(u.target, u.tgt[a], u.tgt[b]):
            return True
    return False


def _finite_verb(w: str, wp, hun) -> bool:
    """A finite verb form: the profile's irregular ones ("é", "são", "tem"), or a word with a
    verb ending whose stem takes an infinitive ending ("receberam": receber)."""
    if w in wp.finite_verbs:
        return True
    if not w.isalpha() or any(re.fullmatch(v, w) for v in wp.verb_forms) or w.endswith(("ado", "ada", "ido", "ida", "ados", "adas", "idos", "idas")):
        return False
    for end in wp.finite_endings:
        if w.endswith(end) and len(w) > len(end) + 2:
            stem = w[:-len(end)]
            if any(stem + inf in hun for inf in wp.infinitives):
                return True
    return False


def _ordered_links(u) -> list[tuple[int, int]]:
    """The unit's links, with a word repeated as often on both sides ("words; all words" and
    "palavras, todas as palavras") paired in order rather than each to each."""
    pairs = {(u.src[i].key, u.tgt[j].key) for i, j in u.links}
    out = set()
    for sk, tk in sorted(pairs):
        ss = [i for i, t in enumerate(u.src) if t.key == sk]
        ts = [j for j, t in enumerate(u.tgt) if t.key == tk]
        if len(ss) == len(ts):
            out.update(zip(ss, ts))
        else:
            out.update((i, j) for i, j in u.links if u.src[i].key == sk and u.tgt[j].key == tk)
    return sorted(out)


def finite_verb_test(lang: str):
    """``word -> bool``: :func:`_finite_verb` with the language's word profile and Hunspell, or
    None when the language has no dictionary."""
    wp, hun = word_profile(lang), speller(lang)
    if hun is None:
        return None
    return lambda w: _finite_verb(w.casefold(), wp, hun)


def _usual_links(u, lex) -> list[tuple[int, int]]:
    """The unit's links that are one-to-one and the English word's usual rendering."""
    src_n: dict[int, int] = {}
    tgt_n: dict[int, int] = {}
    for i, j in u.links:
        src_n[i] = src_n.get(i, 0) + 1
        tgt_n[j] = tgt_n.get(j, 0) + 1
    out = []
    for i, j in u.links:
        if src_n[i] == 1 and tgt_n[j] == 1 and u.tgt[j].key in lex.en.renderings.get(u.src[i].key, {}):
            out.append((i, j))
    return out


register_pass(run, CHECKS)
