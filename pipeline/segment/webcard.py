"""Rule cards copied from a rules web viewer.

A card looks like::

    Regla 614.12 · Efectos de reemplazo
    <rule text, one or more paragraphs>
    Ejemplo: …
    Subreglas
    <one subrule per paragraph, without numbers>

The header word, the "Example" marker and the subrules heading come from the language
profile.  Unnumbered subrules get the numbers ``Na``, ``Nb``, … (skipping ``l`` and
``o``) and ``inferred_number = True``; a subrule paragraph that does carry a number
keeps it and the letters continue after it.
"""

from __future__ import annotations

import re

from ..model import DocKind, Document, Example, Finding, Meta, Rule
from ..profiles import PROFILES, Profile
from ..profiles.dates import declared_date
from ..rulenum import Level, RuleNumber, RuleNumberError
from ..text import NUMBER

_NUMBER = NUMBER
_SEPARATORS = "·•|:–—-"


def _header_re(p: Profile) -> re.Pattern:
    words = "|".join(re.escape(w) for w in p.card_header_words)
    return re.compile(rf"^\s*(?:{words})\s+(?P<num>{_NUMBER})\.?\s*(?:[{_SEPARATORS}]\s*(?P<title>.*?))?\s*$", re.I)


def card_header(text: str, lang: str | None = None) -> re.Match | None:
    """The header match of the first non-empty line, when ``text`` is a rule card."""
    first = next((line for line in text.split("\n") if line.strip()), "")
    profiles = [PROFILES[lang]] if lang in PROFILES else list(PROFILES.values())
    for p in profiles:
        m = _header_re(p).match(first)
        if m:
            return m
    return None


def looks_like_card(text: str) -> bool:
    return card_header(text) is not None


def segment_card(text: str, lang: str | None, source: str | None = None, repair: bool = True) -> Document:
    """Parse one or more rule cards (each starting with a header line) into a Document."""
    from .paste import merged_profile  # lazy: the paste segmenter and its spelling lists are not needed to detect a card (crpipe parse start-up)

    profile = PROFILES.get(lang or "") or merged_profile()
    header = _header_re(profile)
    ex_re = re.compile(rf"^\s*(?:{'|'.join(re.escape(m) for m in profile.example_markers)})\s*:", re.I)
    sub_heads = {h.casefold() for h in profile.subrules_heading}
    numbered = re.compile(rf"^\s*(?P<num>{_NUMBER})\.?\s+(?P<text>\S.*)$")

    doc = Document(meta=Meta(language=lang or "unknown", format="webcard", kind=DocKind.WEBCARD, source_file=source))
    declared = declared_date(text, lang)
    if declared:
        doc.meta.effective_date, doc.meta.effective_date_text = declared
    lines = text.split("\n")
    offsets = []
    pos = 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1

    parent: Rule | None = None
    current: Rule | None = None
    in_subrules = False
    next_letter: RuleNumber | None = None
    order = 0
    titles: list[str] = []

    def add_text(rule: Rule, raw: str, i: int) -> None:
        fixed, finds = _repair(raw, lang, offsets[i], rule.id, i + 1, repair)
        doc.findings.extend(finds)
        rule.text = (rule.text + "\n" + fixed.strip()) if rule.text else fixed.strip()

    for i, line in enumerate(lines):
        s = line.strip()
        if not s:
            continue
        m = header.match(line)
        if m:
            num = RuleNumber.parse(m.group("num"))
            order += 1
            parent = current = Rule(id=str(num), text="", section=num.section, level=num.level, order=order, line=i + 1)
            if num.level != Level.RULE:
                parent.parent = str(num.parent())
            doc.rules.append(parent)
            in_subrules, next_letter = False, None
            if m.group("title"):
                titles.append(m.group("title").strip())
            continue
        if current is None:
            doc.findings.append(Finding("unassigned-line", f"line before the first card header: {s[:60]!r}", "warning", line=i + 1))
            continue
        if s.casefold().rstrip(":") in sub_heads:
            in_subrules = True
            next_letter = RuleNumber.parse(parent.id).with_letter("a") if parent.number.sub is not None else None
            continue
        if ex_re.match(line):
            fixed, finds = _repair(s, lang, offsets[i] + line.index(s[0]), current.id, i + 1, repair)
            doc.findings.extend(finds)
            current.examples.append(Example(re.sub(r"\s+", " ", fixed).strip(), i + 1))
            continue
        if in_subrules:
            mn = numbered.match(line)
            if mn and RuleNumber.try_parse(mn.group("num")):
                num, inferred, raw = RuleNumber.parse(mn.group("num")), False, mn.group("text")
            elif next_letter is not None:
                num, inferred, raw = next_letter, True, s
            else:
                doc.findings.append(Finding("unnumbered-subrule", f"a subrule under {parent.id} cannot be lettered "
                                            "(the card's rule has no subrule number)", "error", rule=parent.id, line=i + 1))
                continue
            order += 1
            current = Rule(id=str(num), text="", parent=str(num.parent()), section=num.section, level=num.level,
                           order=order, line=i + 1, inferred_number=inferred)
            doc.rules.append(current)
            if current.parent == parent.id:
                parent.children.append(current.id)
            try:
                next_letter = num.next_letter()
            except RuleNumberError:
                next_letter = None
            add_text(current, s if inferred else raw, i)
            if inferred:
                doc.findings.append(Finding("inferred-number", f"unnumbered subrule numbered {num} by its position "
                                            f"under {parent.id}", "info", rule=current.id, line=i + 1))
            continue
        add_text(current, s, i)
    if titles:
        doc.meta.title = titles[0]
    return doc


def _repair(raw: str, lang: str | None, base: int, rule: str, line: int, repair: bool):
    if not repair or lang not in PROFILES:
        return raw, []
    from .spacing import repair_spacing  # lazy: its spelling lists are not needed to detect a card (crpipe parse start-up)

    return repair_spacing(raw, lang, base=base, rule=rule, line=line)
