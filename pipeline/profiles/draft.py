"""A language profile drafted from a translation: what its text puts where the English has the
words a profile names.

A profile is data (:class:`pipeline.profiles.Profile`); most of it — the word for "rule" before a
rule number, the verb of "See rule 601.2", the example marker, the glossary and subrules
headings — can be read off a translation aligned with its English by rule number alone, with no
knowledge of the language: the English says "see rule 601.2f", the translation holds "601.2f"
too, and the words just before it there are the language's "see" and "rule".  Each proposal
comes with its evidence (how many aligned places agree), for a person to review before the
profile is written.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..serialize import to_data
from ..text import NUMBER

_NUM = NUMBER
_RULE_REF = re.compile(rf"\b(?P<word>[Rr]ules?)\s+(?P<num>{_NUM})\b")
_SEE_REF = re.compile(rf"\b[Ss]ee\s+rules?\s+(?P<num>{_NUM})\b")
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_EXAMPLE = re.compile(r"^(?P<m>Examples?):")
_SUBRULES = re.compile(r"\b[Ss]ub-?rules?\b")


@dataclass
class Proposal:
    field: str  # the Profile field it is for
    values: list[str]  # proposed, most evidence first
    evidence: dict[str, int] = field(default_factory=dict)  # value -> aligned places that show it
    places: int = 0  # aligned places looked at

    def to_dict(self) -> dict:
        return to_data(self)


def _words_before(text: str, end: int, n: int) -> list[str]:
    return [m.group() for m in _WORD.finditer(text[:end])][-n:]


_BOUNDARY = re.compile(r"(?:^|\(|[.!?:;]\s+)(?=[^\W\d_])")
MAX_PHRASE = 4


def _phrase_head(text: str, end: int) -> str | None:
    """The first word of the shortest phrase of two or more words that ends at ``end`` and
    starts a sentence or a parenthesis; None when there is none within a few words."""
    head = text[:end]
    for m in reversed(list(_BOUNDARY.finditer(head))):
        ws = _WORD.findall(head[m.end():])
        if len(ws) > MAX_PHRASE:
            return None
        if len(ws) >= 2:
            return ws[0]
    return None


def _top(c: Counter, k: int = 2, min_share: float = 0.1) -> list[str]:
    total = sum(c.values())
    return [w for w, n in sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[:k] if n >= min_share * total]


def draft(pairs: list[tuple[str, str]]) -> list[Proposal]:
    """Proposals for the profile fields from (English, translation) pairs of aligned units."""
    rule_s, rule_p, see, example, glossary, subrules = (Counter() for _ in range(6))
    places = Counter()
    sub_units: list[str] = []
    for en, tr in pairs:
        for m in _RULE_REF.finditer(en):
            i = tr.find(m.group("num"))
            if i < 0:
                continue
            before = _words_before(tr, i, 1)
            if before:
                (rule_p if m.group("word").lower().endswith("s") else rule_s)[before[0].casefold()] += 1
                places["rule_words"] += 1
        for m in _SEE_REF.finditer(en):
            i = tr.find(m.group("num"))
            if i < 0:
                continue
            # "(consulte a regra 601.2f)", "… pilha. См. правило 601.2f": the verb opens the
            # phrase that ends at the number (after a parenthesis or a sentence's end).
            verb = _phrase_head(tr, i)
            if verb:
                see[verb.casefold()] += 1
                places["see_words"] += 1
        for piece_en, piece_tr in zip(en.split("\n"), tr.split("\n")):
            m = _EXAMPLE.match(piece_en.strip())
            if m and ":" in piece_tr[:30]:
                example[piece_tr.strip().split(":", 1)[0].strip()] += 1
                places["example_markers"] += 1
        if en.strip() == "Glossary":
            glossary[tr.strip()] += 1
            places["glossary_heading"] += 1
        if _SUBRULES.search(en):
            sub_units.append(tr)
    # "Subrules" is a compound of "rule" in most languages ("sub-regras", "subregras",
    # "подправила"): the words of those units that end in the word learnt for "rule(s)".
    rule_forms = {w for w, n in (rule_s + rule_p).items() if n >= 2}
    for tr in sub_units:
        for w in _WORD.findall(tr):
            f = w.casefold()
            if any(f.endswith(r) and len(f) > len(r) + 1 for r in rule_forms):
                subrules[w[:1].upper() + w[1:]] += 1
                places["subrules_heading"] += 1
    heads = Counter({w: n for w, n in subrules.items()})
    return [
        Proposal("rule_words", _top(rule_s, 1) + _top(rule_p, 1), dict(rule_s + rule_p), places["rule_words"]),
        Proposal("see_words", _top(see), dict(see), places["see_words"]),
        Proposal("example_markers", _top(example), dict(example), places["example_markers"]),
        Proposal("glossary_heading", _top(glossary, 1), dict(glossary), places["glossary_heading"]),
        # A heading is the plural: the form ending in the plural rule word, capitalised.
        Proposal("subrules_heading", _top(Counter({w: n for w, n in heads.items()
                                                   if any(w.casefold().endswith(r) for r in _top(rule_p, 1))}), 2),
                 dict(heads), places["subrules_heading"]),
    ]


def compare(proposals: list[Proposal], profile) -> dict[str, bool]:
    """For each proposal: whether its first value is in the shipped profile's field."""
    out = {}
    for p in proposals:
        have = {v.casefold() for v in getattr(profile, p.field)}
        out[p.field] = bool(p.values) and p.values[0].casefold() in have
    return out


_SECTION_REF = re.compile(r"\b[Ss]ections?\s+(?P<num>[1-9])(?![\d.])")


def _sections(pairs: list[tuple[str, str]]) -> Counter:
    """The word before a section number where the English says "section 8": "раздел 8"."""
    c: Counter = Counter()
    for en, tr in pairs:
        for m in _SECTION_REF.finditer(en):
            for t in re.finditer(rf"(?<![\d.])({_WORD.pattern})\s+{m.group('num')}(?![\d.])", tr):
                c[t.group(1).casefold()] += 1
    return c


def learnt_profile(lang: str, pairs: list[tuple[str, str]]):
    """A :class:`~pipeline.profiles.Profile` for a language no shipped profile describes: the cue
    words drafted from ``pairs`` (English, translation) and nothing else — no number words,
    dates, quotation marks or spelling, so only what needs no language runs with it."""
    from . import Profile  # noqa: PLC0415 - the package imports nothing of this module

    got = {p.field: tuple(p.values) for p in draft(pairs)}
    return Profile(lang=lang, name=lang, rule_words=got["rule_words"], section_words=tuple(_top(_sections(pairs), 2)),
                   see_words=got["see_words"], conjunctions=(), range_words=(),
                   example_markers=got["example_markers"], glossary_heading=got["glossary_heading"],
                   subrules_heading=got["subrules_heading"], effective_date_patterns=(), months=(),
                   card_header_words=())
