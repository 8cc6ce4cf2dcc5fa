"""Consistency both ways: one English sentence translated differently in two places, and one
translated sentence standing for different English sentences.

Sentences are paired inside each piece (rule text, each example) when both sides split into
the same number of sentences; numbers and rule references are masked so "see rule 601.2f"
and "see rule 602.2b" count as the same sentence.  The majority translation is taken as the
reference; with a tie, the first one in document order.
"""

from __future__ import annotations

import re
from collections import defaultdict

from ...findings import Category, Check, DefectClass, Severity
from ...profiles import PROFILES
from .registry import register_pass
from ...text import fold
from ...lexicon import _stop_words
from ..text import normalize_sentence, sentences

SOURCE = Check("consistency.source", Category.CONSISTENCY, Severity.INFO,
               "The same English sentence is translated differently elsewhere in the document.", DefectClass.TERM)
TARGET = Check("consistency.target", Category.CONSISTENCY, Severity.WARNING,
               "The same translated sentence stands for different English sentences elsewhere.", DefectClass.MEANING)
CHECKS = [SOURCE, TARGET]

_NUM = re.compile(r"\d+(?:\.\d+[a-z]?)?")
MIN_WORDS = 5


def _key(s: str) -> str:
    return _NUM.sub("#", normalize_sentence(s))


_WORDS = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


def _content_key(s: str, stop: frozenset) -> str:
    """The sentence's content words in order, without function words and accents: two
    renderings that differ only in articles, demonstratives, contractions or prepositions
    ("em seu"/"no seu", "esta"/"essa", "depois do"/"após o") say the same thing, and a
    translator would not harmonise them; a changed content word or a typo still differs."""
    out = []
    for w in _WORDS.findall(_NUM.sub(" ", s).casefold()):
        if w in stop:
            continue
        out.append(fold(w))
    return " ".join(out)


def sentence_pairs(pair) -> list[tuple[str, str, tuple[int, int]]]:
    """(English sentence, translated sentence, span in the translated segment)."""
    out = []
    for (toff, t), (_soff, s) in zip(pair.target_pieces, pair.source_pieces):
        ts, ss = sentences(t), sentences(s)
        if len(ts) != len(ss):
            continue
        for (ta, tb), (sa, sb) in zip(ts, ss):
            out.append((s[sa:sb], t[ta:tb], (toff + ta, toff + tb)))
    return out


def _minority(groups: dict, ctx, check: Check, what: str) -> list:
    out = []
    for key, occ in groups.items():
        variants = defaultdict(list)
        for other_key, idx, pair, span, shown in occ:
            variants[other_key].append((idx, pair, span, shown))
        if len(variants) < 2:
            continue
        ranked = sorted(variants.items(), key=lambda kv: (-len(kv[1]), kv[1][0][0]))
        _top_key, top_occ = ranked[0]
        ref_rule = top_occ[0][1].row.id
        for _k, occs in ranked[1:]:
            for _idx, pair, span, _shown in occs:
                out.append(ctx.issue(check, pair, what.format(rule=ref_rule), span, suggestion=top_occ[0][3]))
    return out


def _free_words(lang: str) -> frozenset[str]:
    """Function words a translator varies freely (the profile's ``free_words``)."""
    p = PROFILES.get(lang)
    return frozenset(p.free_words) if p is not None else frozenset()


def run(ctx) -> list:
    stop = frozenset(_stop_words(ctx.lang)) | _free_words(ctx.lang)
    by_src: dict[str, list] = defaultdict(list)
    by_tgt: dict[str, list] = defaultdict(list)
    for i, p in enumerate(ctx.aligned):
        for s, t, span in sentence_pairs(p):
            if len(s.split()) < MIN_WORDS:
                continue
            ks, kt = _key(s), _key(t)
            by_src[ks].append((_NUM.sub("#", _content_key(t, stop)), i, p, span, t))
            by_tgt[kt].append((ks, i, p, span, s))
    out = _minority(by_src, ctx, SOURCE, "this English sentence is translated differently in rule {rule}")
    for iss in _minority(by_tgt, ctx, TARGET, "this translation stands for a different English sentence in rule {rule}"):
        iss.suggestion = None  # the other English is shown in the message, not a fix
        out.append(iss)
    return out


register_pass(run, CHECKS)
