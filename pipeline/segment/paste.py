"""Segment rules text pasted from anywhere: rule starts anywhere in a line.

Text pasted out of a PDF or a web page runs several rules together on one line, glues
numbers to words ("Persistir702.78a", "202.3eQuando") and references too ("consulte a
regra101.4").  Every rule-number-shaped token is a *candidate*; it is a reference when
the language's cue words stand before it (rule/regra/regla, see/consulte/véase, or a
conjunction or range word continuing a reference list: "regras 117.8 e 117.9") or when
what follows cannot begin a rule ("101.4)", "601, “…"); it is a rule start when it
stands at a line start or after a sentence end and is followed by rule text (a capital,
a quote, a parenthesis).  A number glued after a word is a start only when it continues
the numbering of the rule before it (702.78 -> 702.78a) or follows a short heading.
Everything a language needs is in its :class:`~pipeline.profiles.Profile`.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass
from enum import StrEnum

from ..model import DocKind, Document, Example, Finding, Meta, Rule
from ..profiles import PROFILES, Profile
from ..profiles.dates import declared_date
from ..rulenum import Level, RuleNumber
from ..text import RULE, SUB
from .backmatter import find_back_matter, parse_glossary
from .spacing import repair_spacing

#: A rule-number-shaped token.  A trailing letter belongs to the number unless another
#: lowercase letter follows it ("702.78a Persist" / "202.3eQuando", but "100.1 is").
#: "see rule 704.702.92" is rule 704 and a glued 702.92, not 704.702.
_NUM = re.compile(rf"(?<![\d/])(?<!\d,)({RULE}(?!\.{RULE}\.\d)(?:\.{SUB}(?:[a-z](?![a-zà-öø-ÿ]))?)?)(?![\d/])")
_SENTENCE_END = re.compile(r"[.!?;:)\]”\"»…](?:\s*)$")
_LINE_START = re.compile(r"(?:^|\n)[ \t•·*>\-–—]*$")
_FOLLOW_START = re.compile(r"^(?P<head>\.?\s*)(?=[“\"«(\[{¿¡'‘]|[^\W\d_])")
_FOLLOW_REF = re.compile(r"^(?:\.?\s*[)\],;:]|\s*[–—-]\s*\w|\.[a-z]|\s+[a-zà-ÿ])")


class CandidateKind(StrEnum):
    """What a number found in pasted text is taken for."""

    START = "start"  # a rule starts here
    REF = "ref"  # a citation
    OTHER = "other"


@dataclass
class Candidate:
    start: int  # offset of the number
    end: int  # offset after the number
    number: RuleNumber
    kind: CandidateKind = CandidateKind.OTHER
    head_end: int = 0  # offset where the rule text begins (after ". " or nothing)
    reason: str = ""


def merged_profile() -> Profile:
    """Cue words of every known language, for text whose language is unknown."""
    ps = list(PROFILES.values())

    def u(attr):
        seen: dict[str, None] = {}
        for p in ps:
            for w in getattr(p, attr):
                seen.setdefault(w, None)
        return tuple(seen)

    base = ps[0]
    return Profile(lang="unknown", name="unknown", rule_words=u("rule_words"), section_words=u("section_words"),
                   see_words=u("see_words"), conjunctions=u("conjunctions"), range_words=u("range_words"),
                   example_markers=u("example_markers"), glossary_heading=u("glossary_heading"),
                   subrules_heading=u("subrules_heading"), effective_date_patterns=u("effective_date_patterns"),
                   months=base.months, card_header_words=u("card_header_words"))


class _Cues:
    """Compiled cue patterns of one profile."""

    def __init__(self, p: Profile):
        def alt(words):
            return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))

        # A rule word directly before the number, glued or not: "regra101.4", "rules 702.19".
        self.rule_word = re.compile(rf"(?i)(?<![^\W\d_])(?:{alt(p.rule_words + p.section_words)})\.?\s*(?:n\.?º\s*)?$")
        self.see_word = re.compile(rf"(?i)(?<![^\W\d_])(?:{alt(p.see_words)})\s*$")
        # What may stand between two numbers of one reference list.
        self.list_gap = re.compile(rf"(?i)^\s*(?:,\s*)?(?:(?:{alt(p.conjunctions + p.range_words)})\s+)?"
                                   rf"(?:{alt(p.rule_words)})?\s*$|^\s*[–—-]\s*$|^\s*,\s*$")
        # English markers too: untranslated English paragraphs sit inside partial translations.
        self.example = re.compile(rf"(?:{alt(tuple(dict.fromkeys(p.example_markers + ('Examples', 'Example'))))})\s*:")


@functools.lru_cache(maxsize=32)
def _cues(profile: Profile) -> _Cues:
    return _Cues(profile)


def find_candidates(text: str, profile: Profile) -> list[Candidate]:
    """Classify every rule-number-shaped token of ``text`` as rule start, reference or other."""
    cues = _cues(profile)
    out: list[Candidate] = []
    last_ref_end: int | None = None
    last_start: Candidate | None = None
    for m in _NUM.finditer(text):
        num = RuleNumber.try_parse(m.group(1))
        if num is None or not num.letter_valid:
            continue
        s, e = m.start(1), m.end(1)
        c = Candidate(s, e, num)
        left = text[max(0, s - 60) : s]
        follow = text[e : e + 40]
        out.append(c)
        rw = cues.rule_word.search(left)
        if rw and rw.group().rstrip().endswith(".") and last_start is not None and _continues(last_start.number, num) \
                and follow.lstrip(". ")[:1].isupper():
            rw = None  # "…essas regras. 101.1. Sempre que…": a sentence ended; the numbering continues
        if rw:
            c.kind, c.reason = CandidateKind.REF, "rule word before"
        elif cues.see_word.search(left):
            c.kind, c.reason = CandidateKind.REF, "see word before"
        elif last_ref_end is not None and s - last_ref_end <= 40 and cues.list_gap.match(text[last_ref_end:s]):
            c.kind, c.reason = CandidateKind.REF, "continues a reference list"
        elif _FOLLOW_REF.match(follow):
            c.kind, c.reason = CandidateKind.OTHER, "followed by what cannot begin a rule"
            if not follow[:1].isspace() and not _LINE_START.search(left):
                c.kind = CandidateKind.REF  # "601.2f)", "601, “…”": a citation without a cue word
        elif not follow.strip():
            c.kind, c.reason = ((CandidateKind.START, "a number alone at a line start") if _LINE_START.search(left)
                                else (CandidateKind.OTHER, "at the end"))
            c.head_end = e
        else:
            fm = _FOLLOW_START.match(follow)
            if fm is None:
                c.kind, c.reason = CandidateKind.OTHER, "followed by neither text nor punctuation"
            else:
                c.head_end = e + fm.end("head")
                first = text[c.head_end : c.head_end + 1]
                capital = first.isupper() or first in "“\"«([{¿¡'‘"
                if _LINE_START.search(left):
                    ok, why = capital or not first.isalpha(), "at a line start"
                elif _SENTENCE_END.search(left):
                    ok, why = capital, "after a sentence end"
                elif last_start is not None and capital and _continues(last_start.number, num) \
                        and left[-1:].isalpha():
                    ok, why = True, "glued after a word, continuing the numbering"
                elif last_start is not None and capital and s - last_start.head_end <= 80 \
                        and _is_heading(text[last_start.head_end : s]):
                    ok, why = True, "after a heading (\"702.24. Buyback\")"
                else:
                    ok, why = False, "inside a sentence"
                if num.level == Level.RULE and not text[e:e + 1] == "." and not _LINE_START.search(left):
                    ok = False  # "702. Keyword Abilities" keeps its dot; a bare "100" in a sentence is a count
                c.kind, c.reason = (CandidateKind.START, why) if ok else (CandidateKind.OTHER, why)
        if c.kind == CandidateKind.REF:
            last_ref_end = e
        elif c.kind == CandidateKind.START:
            last_start = c
    return out


_HEADING_BREAK = re.compile(r"[.!?;:,()“”\"«»]")


def _is_heading(gap: str) -> bool:
    """A rule heading run into the next rule: "Buyback", "Flipping a Coin", "Persistir"."""
    g = gap.strip()
    words = g.split()
    return 0 < len(words) <= 6 and g[:1].isupper() and not _HEADING_BREAK.search(g.replace("vs.", "vs"))


def _continues(prev: RuleNumber, num: RuleNumber) -> bool:
    """True when ``num`` plausibly comes right after ``prev`` in the rules."""
    if num <= prev:
        return False
    if num.rule == prev.rule:
        if num.sub == prev.sub:
            return True  # 702.78 -> 702.78a, 702.78a -> 702.78b
        return num.sub is not None and prev.sub is not None and num.sub - prev.sub <= 2
    return num.rule - prev.rule <= 1


def segment_text(text: str, lang: str | None, *, kind: str = "paste", source: str | None = None,
                 repair: bool = True) -> Document:
    """Segment pasted rules text of language ``lang`` into a :class:`Document`.

    ``lang`` None or unknown uses the cue words of every profile.  With ``repair``,
    spacing defects are repaired in rule and example text and reported as findings
    whose spans point into ``text``.
    """
    profile = PROFILES.get(lang or "", None) or merged_profile()
    meta = Meta(language=lang or "unknown", format=kind, kind=DocKind(kind), source_file=source)
    doc = Document(meta=meta)
    declared = declared_date(text, lang)
    if declared:
        meta.effective_date, meta.effective_date_text = declared
    cands = find_candidates(text, profile)
    starts = [c for c in cands if c.kind == CandidateKind.START]
    offsets = [c.start for c in starts]
    for c in cands:
        if c.kind != CandidateKind.OTHER and text[c.start - 1 : c.start].isalpha():
            k = bisect.bisect_right(offsets, c.start) - 1  # the rule this number stands in
            doc.findings.append(Finding("glued-number", f"number {c.number} glued to the word before it "
                                        f"({'rule start' if c.kind == CandidateKind.START else 'reference'})", "info",
                                        rule=str(starts[k].number) if k >= 0 else None,
                                        line=_line_of(text, c.start), span=[c.start, c.end]))
    if starts:
        lead = text[: starts[0].start].strip()
        if lead:
            doc.introduction = lead
            doc.findings.append(Finding("unassigned-text", f"text before the first rule: {lead[:60]!r}", "warning", line=1))
    cues = _cues(profile)
    body_end = len(text)
    if starts:
        g_at, g_entries, c_at = find_back_matter(text, starts[-1].start)
        if g_at is not None or c_at is not None:
            body_end = min(x for x in (g_at, c_at) if x is not None)
        if g_entries is not None:
            doc.glossary = parse_glossary(text[g_entries:c_at if c_at is not None else len(text)])
        if c_at is not None:
            doc.credits = text[c_at:].strip()
    for i, c in enumerate(starts):
        end = starts[i + 1].start if i + 1 < len(starts) else body_end
        rule = Rule(id=str(c.number), text="", section=c.number.section, level=c.number.level, order=i + 1,
                    line=_line_of(text, c.start))
        if c.number.level != Level.RULE:
            rule.parent = str(c.number.parent())
        _fill(rule, text, c.head_end, end, cues, lang if lang in PROFILES else None, repair, doc)
        doc.rules.append(rule)
    _link(doc)
    return doc


def _fill(rule: Rule, text: str, a: int, b: int, cues: _Cues, lang: str | None, repair: bool, doc: Document) -> None:
    """Split ``text[a:b]`` into the rule text and its examples; repair spacing."""
    pieces: list[tuple[int, int]] = []
    pos = a
    for m in cues.example.finditer(text, a, b):
        pieces.append((pos, m.start()))
        pos = m.start()
        if m.start() > a and not text[m.start() - 1].isspace():
            doc.findings.append(Finding("glued-example", "an example marker glued to the text before it; split",
                                        "info", rule=rule.id, line=_line_of(text, m.start()), span=[m.start(), m.end()]))
    pieces.append((pos, b))
    for k, (s, e) in enumerate(pieces):
        raw = text[s:e]
        line = _line_of(text, s)
        if repair:
            fixed, finds = repair_spacing(raw, lang, base=s, rule=rule.id, line=line)
            doc.findings.extend(finds)
        else:
            fixed = raw
        if k > 0:
            fixed = cues.example.sub(lambda m: m.group(0).replace(" ", "") + " ", fixed, count=1)
        clean = _squash(fixed)
        if k == 0:
            rule.text = clean
        elif clean:
            rule.examples.append(Example(clean, line))


def _squash(s: str) -> str:
    """Collapse whitespace runs (hard wraps, double spaces) to one space."""
    return re.sub(r"\s+", " ", s).strip()


class _LineIndex:
    """Line numbers of offsets in O(log n) (counting newlines per call is quadratic)."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [m.end() for m in re.finditer("\n", text)]

    def __call__(self, text: str, pos: int) -> int:
        return bisect.bisect_right(self.starts, pos) + 1


def _line_of(text: str, pos: int) -> int:
    idx = _LINE_INDEX.get(id(text))
    if idx is None or idx.text is not text:
        idx = _LineIndex(text)
        _LINE_INDEX.clear()
        _LINE_INDEX[id(text)] = idx
    return idx(text, pos)


_LINE_INDEX: dict[int, _LineIndex] = {}


def _link(doc: Document) -> None:
    index = {r.id: r for r in doc.rules}
    seen: set[str] = set()
    for r in doc.rules:
        if r.id in seen:
            doc.findings.append(Finding("duplicate-rule", f"rule {r.id} found twice", "warning", rule=r.id, line=r.line))
        seen.add(r.id)
        if r.parent and r.parent in index and r.id not in index[r.parent].children:
            index[r.parent].children.append(r.id)
