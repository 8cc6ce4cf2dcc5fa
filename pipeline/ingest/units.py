"""Bilingual units → the rules model, with each unit's place in its English base edition.

In a PO or XLIFF file the English source of every unit *is* a paragraph of the edition the
translation was made from.  So the base edition is pinned from the sources themselves: the
edition of the folder holding the largest number of the unit sources verbatim (the unit
"These rules are effective as of November 20, 2020." alone separates neighbouring
editions).  Unit sources that no paragraph of the base edition holds are *stale* units.

Each unit is then placed: a rule ("100.1. …", by the number its English source starts
with), a three-digit heading ("100. General"), an example (the previous rule's, or the rule
whose English has that example: PO files merge identical examples), a section title, a
glossary term or definition, or front/back matter.  The translated Document holds only the
translated rules (checks that need the target language run on translated text only); the
untranslated ones are coverage, reported once.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from ..editions.base import declared_date, edition_files
from ..editions.catalog import EditionRef, scan_folder
from ..errors import InputError
from .bilingual import BilingualFile, Unit, UnitState
from ..decode import decode_bytes
from ..language import is_english_paragraph, language_scores
from ..codekey import code_key
from ..io import cache_root, cache_write, read_bounded, read_cache_json
from ..model import BaseMethod, Document, Example, Finding, GlossaryEntry, Meta, Pin, Rule, RunnerUp, Section
from ..rulenum import Level, RuleNumber, sort_ids
from ..serialize import fields_data, json_field, to_data
from ..text import NUMBER
from ..editions.light_paragraphs import light, light_paragraphs, shipped as shipped_light_paragraphs

_NUM = re.compile(rf"^\s*(?P<num>{NUMBER})(?P<dot>\.?)\s+(?P<rest>.*)$", re.S)
_SECTION = re.compile(r"^\s*(?P<num>[1-9])\.\s+(?P<rest>\S.*)$", re.S)
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "\u00a0": " ", "–": "-", "—": "-"})
_EXAMPLE = re.compile(r"^\s*Examples?:\s*", re.I)


def norm(s: str) -> str:
    """The comparison form of a paragraph: NFC, straight quotes, single spaces."""
    s = unicodedata.normalize("NFC", s).translate(_QUOTES)
    return " ".join(s.split())


# -- pinning the base edition ------------------------------------------------------------------

_PARAS: dict[tuple, frozenset] = {}


_light = light  # the light comparison form of one paragraph (:mod:`.light_paragraphs`)


def edition_paragraphs(path, light: bool = False) -> frozenset:
    """Every non-empty line of an English edition (a file, or an :class:`EditionRef` of the
    catalog), in comparison form (memoised per file); ``light``: spaces normalised only (fast,
    for pinning over the whole archive)."""
    if isinstance(path, EditionRef):
        key = (path.sha256, light)
    else:
        st = path.stat()
        key = (str(path.resolve()), st.st_size, st.st_mtime_ns, light)
    if key not in _PARAS:
        if isinstance(path, EditionRef):
            text = decode_bytes(path.content(), path.where).text
        else:
            text = decode_bytes(read_bounded(path), path).text
        if light:
            _PARAS[key] = light_paragraphs(text)
        else:
            _PARAS[key] = frozenset(n for n in (norm(x) for x in text.splitlines()) if n)
    return _PARAS[key]


def _identity(f) -> str:
    if isinstance(f, EditionRef):
        return f"{f.stem}:{f.sha256}"
    st = Path(f).stat()
    return f"{Path(f).resolve()}:{st.st_size}:{st.st_mtime_ns}"


def _edition_shas(files: list, editions_dir) -> list[str | None]:
    """Each edition's sha256: a catalog's own, else the folder's scan (remembered in the cache by
    the files' stat signatures, and the catalog of the same folder reads it next)."""
    if all(isinstance(f, EditionRef) for f in files):
        return [f.sha256 for f in files]
    try:
        refs, _ = scan_folder(Path(editions_dir), "mirror")
    except (InputError, OSError, TypeError):
        return [None] * len(files)
    by_path = {r.path.resolve(): r.sha256 for r in refs if r.path is not None}
    return [by_path.get(Path(f).resolve()) for f in files]


def pin_base_edition(units: list[Unit], editions_dir: str | Path) -> Pin:
    """The edition whose paragraphs hold the most unit sources verbatim (see :class:`Pin`)."""
    sources = [_light(u.source) for u in units]
    files = edition_files(editions_dir)
    # Decoding all 110 editions costs ~2 s a run: the counts are cached under the sources and
    # the editions' identities (an archive edition's sha256, a file's path, size and time).
    h = hashlib.sha256("\x00".join(sources).encode())
    for f in files:
        h.update(_identity(f).encode())
    cache = cache_root() / "pins" / f"{code_key(1, __name__, extra=[h.hexdigest()])}.json"
    scores = read_cache_json(cache)
    if not (isinstance(scores, list) and len(scores) == len(files)):
        scores = []
        # The package's own editions (by sha256) have their paragraphs shipped: no decoding.
        shas = _edition_shas(files, editions_dir)
        ship = shipped_light_paragraphs() if any(shas) else None
        counts = ship.counts(sources) if ship is not None else []
        for f, sha in zip(files, shas):
            if ship is not None and sha in ship.position:
                n = counts[ship.position[sha]]
            else:
                paras = edition_paragraphs(f, light=True)
                n = sum(1 for s in sources if s in paras)
            scores.append((n, f.stem))
        cache_write(cache, json.dumps(scores))
    scores = [tuple(x) for x in scores]
    best = max(n for n, _ in scores)
    tied = sorted(lbl for n, lbl in scores if n == best)
    label = tied[-1]
    rest = sorted(((n, lbl) for n, lbl in scores if n < best), reverse=True)
    runner = RunnerUp(label=rest[0][1], matched=rest[0][0]) if rest else None
    how = (f"pinned from the unit sources: {best} of {len(sources)} English unit sources are paragraphs of "
           f"the {label} edition" + (f" (next best: {runner.label}, {runner.matched})" if runner else ""))
    if len(tied) > 1:
        how += f"; {', '.join(tied[:-1])} hold the same text, the latest is taken"
    return Pin(label=label, matched=best, units=len(sources), share=round(best / max(1, len(sources)), 4),
               tied=tied, runner_up=runner, how=how, method=BaseMethod.UNIT_SOURCES)


# -- placing units ------------------------------------------------------------------------------

class PlacedKind(StrEnum):
    """What a unit is in the base edition."""

    RULE = "rule"
    HEADING = "heading"  # a three-digit rule's title
    CONTINUATION = "continuation"  # a rule's second paragraph
    EXAMPLE = "example"
    SECTION = "section"
    GLOSSARY_TERM = "glossary-term"
    GLOSSARY_DEFINITION = "glossary-definition"
    FRONT = "front"
    CREDITS = "credits"
    OTHER = "other"


@dataclass
class Placed:
    """Where one unit sits in the base edition."""

    unit: Unit
    kind: PlacedKind
    rule: str | None = None  # the rule (or heading) the unit belongs to
    piece: int = 0  # 0: the rule text; k: its k-th example (1-based)
    in_base: bool = True  # the source is a paragraph of the base edition
    english_target: bool = False  # translated, but the target is English (per-paragraph language id)
    glossary_term: str | None = None

    @property
    def section(self) -> str:
        if self.rule:
            return self.rule[0]
        return {PlacedKind.GLOSSARY_TERM: "glossary", PlacedKind.GLOSSARY_DEFINITION: "glossary",
                PlacedKind.CREDITS: "credits"}.get(
            self.kind, "front")

    def __json__(self) -> dict:
        return {"id": self.unit.id[:80], "location": self.unit.location, "kind": self.kind, "rule": self.rule,
                "piece": self.piece, "state": self.unit.state.value, "in_base": self.in_base,
                "english_target": self.english_target}

    def to_dict(self) -> dict:
        return to_data(self)


def _is_english(target: str, source: str, lang: str) -> bool:
    """A translated unit whose text is still English: identical to its source, or more English
    function words than the language's (paragraph-level language identification)."""
    t, s = norm(target), norm(source)
    if t == s:
        return language_scores(t)[1] >= 3  # a name or a number can stay as it is ("Planechase", "Vanguard")
    return is_english_paragraph(t, lang)


def place_units(units: list[Unit], base: Document, lang: str, paragraphs: frozenset | None = None) -> list[Placed]:
    """Place every unit; ``paragraphs``: the base edition's paragraphs (comparison form), to
    tell stale units (a source no paragraph of the base edition holds)."""
    example_owner: dict[str, list[str]] = {}
    for r in base.rules:
        for e in r.examples:
            example_owner.setdefault(norm(e.text), []).append(r.id)
    terms = {norm(g.term): g for g in base.glossary}
    # A definition may run over several paragraphs ("1. …", "2. …"): each is a unit.
    defs = {norm(line): g for g in base.glossary for line in [g.definition, *g.definition.splitlines()] if line.strip()}
    sections = {f"{s.number}. {norm(s.title)}" for s in base.sections}
    credits = {norm(x) for x in (base.credits or "").splitlines() if x.strip()}
    out: list[Placed] = []
    prev_rule: str | None = None
    prev_term: str | None = None
    n_examples: Counter = Counter()
    for u in units:
        src = norm(u.source)
        m = _NUM.match(src)
        p: Placed
        if m and base.rule(m.group("num")) is not None:
            rid = m.group("num")
            r = base.rule(rid)
            kind = PlacedKind.HEADING if r.level == Level.RULE else PlacedKind.RULE
            p = Placed(u, kind, rid, in_base=norm(m.group("rest")) == norm(r.text))
            prev_rule = rid
        elif _EXAMPLE.match(src) or src in example_owner:
            owners = example_owner.get(src, [])
            rid = prev_rule if prev_rule in owners else (owners[0] if owners else prev_rule)
            n_examples[rid] += 1
            p = Placed(u, PlacedKind.EXAMPLE, rid, piece=n_examples[rid], in_base=bool(owners))
        elif src in terms:
            p = Placed(u, PlacedKind.GLOSSARY_TERM, glossary_term=terms[src].term)
            prev_term = terms[src].term
        elif src in defs:
            g = defs[src]
            p = Placed(u, PlacedKind.GLOSSARY_DEFINITION, glossary_term=prev_term if prev_term and base.glossary_term(prev_term)
                       and src in norm(base.glossary_term(prev_term).definition) else g.term)
        elif src in sections or _SECTION.match(src):
            p = Placed(u, PlacedKind.SECTION)
        elif prev_rule and base.rule(prev_rule) is not None and len(src) > 20 and src in norm(base.rule(prev_rule).text):
            p = Placed(u, PlacedKind.CONTINUATION, prev_rule)  # a rule's second paragraph ("Of that list, …")
        elif src in credits:
            p = Placed(u, PlacedKind.CREDITS)
        elif m:
            p = Placed(u, PlacedKind.RULE, m.group("num"), in_base=False)  # a number the base edition lacks
            prev_rule = m.group("num")
        else:
            p = Placed(u, PlacedKind.FRONT if prev_rule is None else PlacedKind.OTHER)
        if paragraphs is not None:
            p.in_base = src in paragraphs
        if u.translated:
            p.english_target = _is_english(u.target, u.source, lang)
        out.append(p)
    # front/other units: a paragraph of the base edition somewhere (introduction, credits)?
    return out


def as_written(target: str, strip_number: bool = True) -> tuple[int, str]:
    """``(offset, text)``: a unit's translation as the translator wrote it — curly or straight
    quotes, dashes and doubled spaces untouched, so the checks see them — without its leading
    rule number (``strip_number``) and outer white space.  A hard line break becomes one space,
    so an offset into ``text`` plus ``offset`` is the same character in the unit."""
    m = _NUM.match(target) if strip_number else None
    start = m.start("rest") if m else len(target) - len(target.lstrip())
    return start, target[start:].rstrip().replace("\r", " ").replace("\n", " ")


@dataclass(frozen=True)
class UnitSpan:
    """Where a stretch of a translated segment comes from: ``[start, end)`` of the segment is
    the unit's target from ``offset`` on."""

    start: int
    end: int
    unit: Unit
    offset: int


def units_document(bf: BilingualFile, placed: list[Placed], lang: str, base_label: str | None,
                   spans: dict[str, list[UnitSpan]] | None = None) -> Document:
    """The translation as a Document: translated rules (text + translated examples, as written),
    the translated glossary, its effective date; every unit kept by location in the findings.
    ``spans`` (filled when given): rule id -> where each stretch of its segment
    (:func:`pipeline.align.model.segment_of`) comes from, so a finding points into its unit."""
    meta = Meta(language=lang, kind="translation", format=bf.format)
    doc = Document(meta)
    rules: dict[str, Rule] = {}
    parts: dict[str, list[list[tuple[Unit, int, int]]]] = {}  # rule -> pieces -> (unit, offset, length)
    order = 0
    for p in placed:
        u = p.unit
        if not u.translated or p.english_target:
            continue
        if p.kind in (PlacedKind.RULE, PlacedKind.HEADING) and p.rule:
            n = RuleNumber.try_parse(p.rule)
            if n is None or p.rule in rules:
                continue
            off, text = as_written(u.target)
            r = Rule(id=p.rule, text=text, section=n.section,
                     level=Level.RULE if p.kind == PlacedKind.HEADING else (Level.LETTERED if n.letter else Level.SUBRULE),
                     parent=str(n.parent()) if p.kind != PlacedKind.HEADING and n.parent() is not None else None,
                     order=order, line=None, num=n)
            order += 1
            rules[p.rule] = r
            parts[p.rule] = [[(u, off, len(text))]]
        elif p.kind == PlacedKind.CONTINUATION and p.rule in rules:
            off, text = as_written(u.target, strip_number=False)
            rules[p.rule].text += " " + text
            parts[p.rule][0].append((u, off, len(text)))
        elif p.kind == PlacedKind.EXAMPLE and p.rule in rules:
            off, text = as_written(u.target, strip_number=False)
            rules[p.rule].examples.append(Example(text))
            parts[p.rule].append([(u, off, len(text))])
        elif p.kind == PlacedKind.SECTION:
            m = _SECTION.match(norm(u.target))
            sm = _SECTION.match(norm(u.source))
            if sm:
                doc.sections.append(Section(int(sm.group("num")), m.group("rest") if m else norm(u.target), len(doc.sections)))
    doc.rules = sorted(rules.values(), key=lambda r: r.number)
    if spans is not None:
        for rid, pieces in parts.items():
            pos, out = 0, []
            for piece in pieces:
                for k, (u, off, n) in enumerate(piece):
                    out.append(UnitSpan(pos, pos + n, u, off))
                    pos += n + 1  # the space joining a continuation, or the newline before an example
            spans[rid] = out
    for i, r in enumerate(doc.rules):
        r.order = i
    terms = {p.glossary_term: p for p in placed if p.kind == PlacedKind.GLOSSARY_TERM and p.unit.translated}
    for p in placed:
        if p.kind == PlacedKind.GLOSSARY_DEFINITION and p.unit.translated and p.glossary_term in terms:
            doc.glossary.append(GlossaryEntry(norm(terms[p.glossary_term].unit.target), p.unit.target.strip()))
    # The effective date: the unit whose English source states it ("These rules are effective
    # as of …"); its translation must state the same date in the language's words.
    for p in placed:
        if p.kind in (PlacedKind.RULE, PlacedKind.HEADING, PlacedKind.EXAMPLE) or declared_date(p.unit.source, "en") is None:
            continue
        d = declared_date(p.unit.target, lang) if p.unit.translated else None
        if d:
            meta.effective_date, meta.effective_date_text = d[0], p.unit.target.strip()
            break
        if p.unit.translated:
            doc.findings.append(Finding("effective-date-unreadable", f"{p.unit.location}: the translated "
                                        f"effective date {p.unit.target.strip()!r} could not be read", "warning"))
    stale = [p for p in placed if not p.in_base]
    for p in stale[:200]:
        doc.findings.append(Finding("stale-unit", f"{p.unit.location}: the English source is not a paragraph of "
                                    f"the base edition {base_label}: {p.unit.source[:80]!r}", "warning", p.rule))
    return doc


@dataclass
class Coverage:
    """How much of the document is translated, overall and per section (units)."""

    units: int
    translated: int
    english_targets: int = field(metadata=json_field(name="translated_in_english"))  # marked translated, but still English
    needs_review: int
    by_section: dict[str, dict] = field(default_factory=dict)
    untranslated_rules: list[str] = field(default_factory=list)
    stale_units: list[dict] = field(default_factory=list)

    def __json__(self) -> dict:
        return {**fields_data(self), "share": round(self.translated / max(1, self.units), 4)}

    def to_dict(self) -> dict:
        return to_data(self)


SECTION_NAMES = {"front": "front matter and contents", "glossary": "glossary", "credits": "credits"}


def coverage_of(placed: list[Placed]) -> Coverage:
    by: dict[str, Counter] = {}
    for p in placed:
        c = by.setdefault(p.section, Counter())
        c["units"] += 1
        c["translated"] += p.unit.translated
    sections = {}
    for k in sorted(by, key=lambda s: (not s.isdigit(), s)):
        c = by[k]
        sections[k] = {"name": SECTION_NAMES.get(k, f"section {k}"), "units": c["units"],
                       "translated": c["translated"], "share": round(c["translated"] / max(1, c["units"]), 4)}
    untranslated = sort_ids({p.rule for p in placed if p.kind in (PlacedKind.RULE, PlacedKind.HEADING) and p.rule
                             and (not p.unit.translated or p.english_target)})
    return Coverage(len(placed), sum(p.unit.translated for p in placed), sum(p.english_target for p in placed),
                    sum(p.unit.state is UnitState.NEEDS_REVIEW for p in placed), sections, untranslated,
                    [{"location": p.unit.location, "source": p.unit.source[:120]} for p in placed if not p.in_base])
