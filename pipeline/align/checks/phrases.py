"""Phrase facts a translation must keep, counted sentence by sentence (issue 24).

The facts are the target profile's (:class:`pipeline.profiles.words.PhraseFact`): an antonym
rendered for a word ("before" as "após", "one or more" as "mais de um"), a state rendered as
an event ("has priority" as "recebe prioridade"), a phrase rendered by a plain word ("no longer"
as "não"), a possibility the English does not state ("allows" as "pode permitir").  Counting,
not presence: a sentence may hold both a word and its antonym ("before … after").  A count
that differs only because the sentences were split unlike is not a finding: the whole piece
must disagree as well.
"""

from __future__ import annotations

import re

from ...findings import Category, Check, DefectClass, Severity
from ...profiles.words import PhraseKind, word_profile
from .. import wordlex
from .registry import register_pass

FLIPPED = Check("meaning.flipped", Category.MEANING, Severity.WARNING,
                "The English says one thing and the translation its opposite, by the profile's antonym "
                "facts counted in the sentence: \"before\" as \"após\", \"one or more\" as \"mais de um\", "
                "\"has priority\" as \"recebe prioridade\".", DefectClass.MEANING)
DROPPED_PHRASE = Check("omission.dropped-phrase", Category.OMISSION, Severity.WARNING,
                       "An English phrase the profile says must be carried over (\"no longer\") has fewer "
                       "renderings in the translated sentence than the English has occurrences.",
                       DefectClass.OMISSION)
ADDED_MODAL = Check("omission.added-modal", Category.OMISSION, Severity.WARNING,
                    "The translated sentence says something may happen (\"pode\") more times than the English "
                    "sentence has a word of possibility (may, can, able …), or opens with a condition (\"Se\") "
                    "the English does not state: a rule stated as a possibility or a condition.",
                    DefectClass.ADDITION)
CHECKS = [FLIPPED, DROPPED_PHRASE, ADDED_MODAL]


def _n(pattern: str, text: str) -> int:
    return len(re.findall(pattern, text, re.IGNORECASE)) if pattern else 0


def _first(pattern: str, text: str):
    m = re.search(pattern, text, re.IGNORECASE) if pattern else None
    return (m.start(), m.end()) if m else None


def run(ctx) -> list:
    facts = word_profile(ctx.lang).phrase_facts
    if not facts or not ctx.aligned:
        return []
    units = [u for u in wordlex.learn(ctx).units if u.pair is not None]
    pieces: dict = {}
    for u in units:
        offs = [o for o, _ in u.pair.target_pieces]
        pieces.setdefault((id(u.pair), max(i for i, o in enumerate(offs) if o <= u.t_offset)), []).append(u)
    out = []
    for group in pieces.values():
        src = " ".join(u.source for u in group)
        tgt = " ".join(u.target for u in group)
        for u in group:
            for f in facts:
                issue = _judge(ctx, f, u, src, tgt)
                if issue is not None:
                    out.append(issue)
    return out


def _judge(ctx, f, u, piece_src: str, piece_tgt: str):
    s, t = u.source, u.target
    where = None
    if f.sentence_only:
        piece_src, piece_tgt = s, t
    if f.kind == PhraseKind.FLIPPED:
        for a, b in ((s, t), (piece_src, piece_tgt)):
            if not (_n(f.english, a) > _n(f.rendering, b) and _n(f.flipped, b) > _n(f.english_other, a)):
                return None
        where, check = _first(f.flipped, t), FLIPPED
    elif f.kind == PhraseKind.DROPPED:
        for a, b in ((s, t), (piece_src, piece_tgt)):
            if not _n(f.english, a) > _n(f.rendering, b):
                return None
        where, check = _first(f.anchor, t), DROPPED_PHRASE
    elif f.kind == PhraseKind.ADDED:
        for a, b in ((s, t), (piece_src, piece_tgt)):
            if not _n(f.rendering, b) > _n(f.english, a):
                return None
        where, check = _first(f.rendering, t), ADDED_MODAL
    else:
        return None
    if where is None:
        return None
    span = (u.t_offset + where[0], u.t_offset + where[1])
    said = _first(f.english, s)
    english = ""
    if said and f.kind != PhraseKind.ADDED:
        ce, cr = _n(f.english, s), _n(f.rendering, t)
        counts = f", {ce} times; rendered {cr}" if ce > 1 else ""
        english = f" (the English “{s[said[0]:said[1]]}”{counts})"
    return ctx.issue(check, u.pair, f"{f.note}{english}: “{t[where[0]:where[1]]}”", span)


register_pass(run, CHECKS)
