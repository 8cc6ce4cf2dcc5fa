"""A plain parser of the official Comprehensive Rules text, kept as the oracle of the fast one.

:mod:`.official` is written for speed (one regex scan of the body, objects built without
their ``__init__``, layouts made when first read).  This module reads the same text the
slow, obvious way -- line by line, a few regular expressions, one named step per kind of
line -- and must give the same :class:`~pipeline.model.Document`.  The test
``tests/test_parse_reference.py`` compares the two on every official edition and on the
test fixtures; a change to the fast parser that changes its output fails there.

Nothing here is used by the pipeline itself: when the two disagree, read this one first to
see what the rules of the layout are, then find where the fast one departs from them.

The layout in short: a title, the effective date, an Introduction, a Contents list (every
section and three-digit rule heading, then "Glossary" and "Credits"), the rules body, the
glossary, the credits.  In the body a paragraph starts at a section heading ("1. Game
Concepts"), a rule line ("100.1a A two-player game ...") or an example line ("Example:
..."); any other non-blank line continues the paragraph above.  In the glossary an entry is
a run of non-blank lines: the term, then its definition.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..errors import InputError
from ..decode import Decoded
from ..model import Document, Example, Finding, GlossaryEntry, Layout, Rule, Section, TocEntry, TocLevel
from ..profiles import EN
from ..rulenum import Level, RuleNumber
from ..text import RULE, SUB, REF_TOKEN
from .official import new_document
from .paragraphs import join_lines

# -- the patterns of a line ---------------------------------------------------------------
#: A rule line: optional indent, the number ("100", "100.1", "100.1a"), a separator (a dot
#: and/or blanks, or a dot right before the text's capital letter or quote), the text.
RULE_LINE = re.compile(rf"^(?P<lead>[ \t]*)(?P<rule>{RULE})(?:\.(?P<sub>{SUB})(?P<letter>[a-z])?)?"
                       r"(?P<sep>\.?[ \t]+|\.(?=[A-Z“\"(]))(?P<text>\S.*)?$")
#: A section heading: one digit, a dot, blanks, the title.
SECTION_LINE = re.compile(r"^(?P<number>[1-9])\.(?P<sep>[ \t]+)(?P<title>\S.*)$")
#: An example line: optional indent, an example marker of the English profile and a colon.
EXAMPLE_LINE = re.compile(r"^(?P<lead>[ \t]*)(?P<text>(?:"
                          + "|".join(re.escape(m) for m in sorted(EN.example_markers, key=len, reverse=True))
                          + r"):.*)$")
DATE_LINE = re.compile(EN.effective_date_patterns[0])
FILE_NAME_DATE = re.compile(r"(\d{4}-\d{2}-\d{2})")
#: "606. 8b Players ..." (2005-2006): the rest of a subrule number after a stray space.
NUMBER_TYPO = re.compile(rf"^({SUB})([a-z])?[ \t]+(?=\S)")


def is_blank(line: str) -> bool:
    return not line.strip()


def iso_date(date_text: str) -> str:
    return datetime.strptime(date_text, "%B %d, %Y").date().isoformat()


def canonical_number(rule: str, sub: str | None, letter: str | None) -> str:
    """The rule id as written canonically: ASCII digits, no leading zero after the dot."""
    out = str(int(rule))
    if sub is not None:
        out += f".{int(sub)}"
    if letter is not None:
        out += letter
    return out


def trailing_blanks(text: str) -> tuple[str, str]:
    """``text`` without its trailing whitespace, and that whitespace."""
    body = text.rstrip()
    return body, text[len(body):]


# -- the document's regions ----------------------------------------------------------------
def find_contents(lines: list[str]) -> int | None:
    for i, line in enumerate(lines):
        if line.strip() in ("Contents", "Table of Contents"):
            return i
    return None


def find_introduction(lines: list[str], contents: int) -> int | None:
    for i in range(contents):
        if lines[i].strip() == "Introduction":
            return i
    return None


def next_nonblank(lines: list[str], start: int, limit: int) -> int | None:
    """The first non-blank line among the ``limit`` lines from ``start`` on, or None."""
    for j in range(start, min(start + limit, len(lines))):
        if not is_blank(lines[j]):
            return j
    return None


def find_body_start(lines: list[str], contents: int) -> int | None:
    """The rules body starts at the first "1. ..." heading after the Contents that is followed
    by rule 100 and then by a subrule (in the Contents, "100. General" is followed by another
    three-digit heading)."""
    for i in range(contents + 1, len(lines)):
        heading = SECTION_LINE.match(lines[i])
        if heading is None or heading.group("number") != "1":
            continue
        rule = next_nonblank(lines, i + 1, 5)
        if rule is None or not lines[rule].startswith("100") or not RULE_LINE.match(lines[rule]):
            continue
        sub = next_nonblank(lines, rule + 1, 5)
        if sub is not None and RULE_LINE.match(lines[sub]) and RULE_LINE.match(lines[sub]).group("sub") is not None:
            return i
    return None


def find_last_heading(lines: list[str], word: str, after: int) -> int | None:
    """The last line that reads ``word``, if it comes after line ``after``."""
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].strip() == word:
            return i if i > after else None
    return None


def read_toc(lines: list[str], contents: int, body_start: int) -> list[TocEntry]:
    toc = []
    for line in lines[contents + 1 : body_start]:
        s = line.strip()
        if not s:
            continue
        section = SECTION_LINE.match(s)
        rule = RULE_LINE.match(s)
        if section:
            toc.append(TocEntry(section.group("number"), section.group("title").strip(), TocLevel.SECTION))
        elif rule and rule.group("sub") is None:
            toc.append(TocEntry(rule.group("rule"), (rule.group("text") or "").strip(), TocLevel.RULE))
        elif s in ("Glossary", "Credits"):
            toc.append(TocEntry("", s, TocLevel.PART))
    return toc


def is_hard_wrapped(lines: list[str], a: int, b: int) -> bool:
    """Editions up to early 2004 wrap their paragraphs at ~100 columns: in a sample of the
    body's first 800 lines, more than 15 % of the non-blank lines continue the line above
    (they follow a non-blank line and start neither a rule nor an example, unindented)."""
    b = min(b, a + 800)
    continuing = 0
    for i in range(a + 1, b):
        line = lines[i]
        if is_blank(line) or is_blank(lines[i - 1]):
            continue
        if RULE_LINE.match(line) or EXAMPLE_LINE.match(line) or line[:1].isspace():
            continue
        continuing += 1
    nonblank = sum(1 for i in range(a, b) if not is_blank(lines[i]))
    return continuing > 0.15 * max(1, nonblank)


# -- the rules body ----------------------------------------------------------------------
@dataclass
class Paragraph:
    """The paragraph being read: its object (Rule, Section or Example), the layout made when
    it started, and its lines (the first one without its number or marker)."""

    target: Rule | Section | Example
    layout: Layout
    lines: list[str]


@dataclass
class BodyReader:
    """Reads the body lines ``a`` to ``b`` (exclusive), one at a time, into ``doc``."""

    doc: Document
    lines: list[str]
    a: int
    b: int
    wrapped: bool
    order: int = 0
    section: int | None = None  # the number of the last section heading
    rule: Rule | None = None  # the last rule
    open: Paragraph | None = None
    blanks: list[str] = field(default_factory=list)  # blank lines since the last non-blank one
    rules_by_id: dict[str, Rule] = field(default_factory=dict)  # the last rule with each id

    def read(self) -> list[str]:
        """Read the body; returns the blank lines after its last paragraph."""
        for i in range(self.a, self.b):
            self.read_line(i, self.lines[i])
        self.close_paragraph()
        self.link_children()
        return self.blanks

    def read_line(self, i: int, line: str) -> None:
        if RULE_LINE.match(line):
            self.rule_line(i, line, RULE_LINE.match(line))
        elif SECTION_LINE.match(line):
            self.section_line(i, line, SECTION_LINE.match(line))
        elif EXAMPLE_LINE.match(line):
            self.example_line(i, line, EXAMPLE_LINE.match(line))
        elif is_blank(line):
            self.blanks.append(line)
        else:
            self.other_line(i, line)

    # A paragraph's start ---------------------------------------------------------------
    def after_blank(self, i: int) -> bool:
        """Whether line ``i`` starts after a blank line (or is the body's first line)."""
        return bool(self.blanks) or i == self.a

    def text_before(self, i: int) -> str:
        """The text between the previous paragraph's end and line ``i``."""
        if i == self.a:
            return ""
        return "\n" + "".join(blank + "\n" for blank in self.blanks)

    def start_paragraph(self, i: int, target, head: str, first: str, tail: str) -> None:
        self.close_paragraph()
        layout = Layout(before=self.text_before(i), head=head, breaks=[], tail=tail)
        self.blanks = []
        target.layout = layout
        self.open = Paragraph(target, layout, [first])

    def close_paragraph(self) -> None:
        """A paragraph of more than one line gets its text (and line breaks) from all its lines."""
        p = self.open
        if p is None or len(p.lines) == 1:
            return
        text, breaks, tail = join_lines(p.lines, self.wrapped)
        p.layout.breaks, p.layout.tail = breaks, tail
        if isinstance(p.target, Section):
            p.target.title = text
        else:
            p.target.text = text

    # The kinds of line -------------------------------------------------------------------
    def rule_line(self, i: int, line: str, m: re.Match) -> None:
        rule, sub, letter = m.group("rule"), m.group("sub"), m.group("letter")
        head = m.group("lead") + line[m.start("rule"):m.end("sep")]
        rest = line[m.end("sep"):]
        if not self.accepts_rule(i, RuleNumber(int(rule), int(sub) if sub is not None else None, letter)):
            self.other_line(i, line)
            return
        fixed = self.number_typo(i, rule, sub, rest, line[m.start("rule"):m.end("sep")])
        if fixed is not None:
            sub, letter, typo, rest = fixed
            head += typo
        text, tail = trailing_blanks(rest)
        rid = canonical_number(rule, sub, letter)
        if sub is None:
            parent, level = None, Level.RULE
        elif letter is None:
            parent, level = canonical_number(rule, None, None), Level.SUBRULE
        else:
            parent, level = canonical_number(rule, sub, None), Level.LETTERED
        self.order += 1
        r = Rule(id=rid, text=text, parent=parent, section=int(rule[0]), level=level, order=self.order, line=i + 1)
        self.start_paragraph(i, r, head, rest, tail)
        self.doc.rules.append(r)
        self.rules_by_id[rid] = r
        self.rule = r

    def accepts_rule(self, i: int, num: RuleNumber) -> bool:
        """A rule line starts a rule, except in a hard-wrapped edition where it directly follows
        a line of a paragraph ("... see rule\\n502.5."): there it must continue the numbering."""
        if self.after_blank(i) or self.open is None or not self.wrapped:
            return True
        if self.rule is None:
            return False
        last = RuleNumber.parse(self.rule.id)
        return num > last and num.rule - last.rule <= 1

    def number_typo(self, i: int, rule: str, sub: str | None, rest: str, number_and_sep: str):
        """``606. 8b Players ...`` read as 606.8b when that continues the numbering: the new
        sub and letter, the rest of the number as written ("8b "), and the text after it; or None."""
        if sub is not None or self.rule is None:
            return None
        last = RuleNumber.parse(self.rule.id)
        t = NUMBER_TYPO.match(rest)
        if not rest[:1].isdecimal() or t is None or last.rule != int(rule) or last.sub is None:
            return None
        num = RuleNumber(int(rule), int(t.group(1)), t.group(2))
        if not num > last or num.sub - last.sub > 1:
            return None
        self.doc.findings.append(Finding("malformed-number", f"'{number_and_sep}{t.group().strip()}' read as {num}",
                                         "warning", rule=str(num), line=i + 1))
        return str(num.sub), num.letter, t.group(), rest[t.end():]

    def section_line(self, i: int, line: str, m: re.Match) -> None:
        number = int(m.group("number"))
        expected = 1 if self.section is None else self.section + 1
        if not self.after_blank(i) or number != expected:
            self.other_line(i, line)
            return
        title, tail = trailing_blanks(m.group("title"))
        self.order += 1
        s = Section(number, title, self.order, i + 1)
        self.start_paragraph(i, s, line[:m.start("title")], m.group("title"), tail)
        self.doc.sections.append(s)
        self.section = number

    def example_line(self, i: int, line: str, m: re.Match) -> None:
        if self.rule is None:
            self.other_line(i, line)
            return
        text, tail = trailing_blanks(m.group("text"))
        e = Example(text, i + 1)
        self.start_paragraph(i, e, m.group("lead"), m.group("text"), tail)
        self.rule.examples.append(e)

    def other_line(self, i: int, line: str) -> None:
        """A non-blank line that starts nothing continues the paragraph above."""
        p = self.open
        if p is None:
            self.doc.findings.append(Finding("unassigned-line", f"line belongs to no rule: {line.strip()[:60]!r}",
                                             "error", line=i + 1))
            self.blanks = []
            return
        owner = self.rule.id if self.rule else None
        if self.after_blank(i):
            # Older editions have a few rules of several paragraphs: kept with the one above.
            self.doc.findings.append(Finding("unnumbered-paragraph", f"paragraph without a rule number kept with "
                                             f"{owner}: {line.strip()[:60]!r}", "warning", rule=owner, line=i + 1))
        elif not self.wrapped and not line[:1].isspace():
            # One paragraph per line in these editions: an unindented line that is neither a
            # rule nor an example is stray text (2021-11-15 has a lone "f").
            self.doc.findings.append(Finding("stray-line", f"line without a rule number kept with {owner}: "
                                             f"{line.strip()[:60]!r}", "warning", rule=owner, line=i + 1))
        p.lines.extend(self.blanks)
        p.lines.append(line)
        self.blanks = []

    def link_children(self) -> None:
        """Each rule lists the rules under it; a parent is the last rule with its id."""
        for r in self.doc.rules:
            r.children = []
        for r in self.doc.rules:
            if r.parent is not None and r.parent in self.rules_by_id:
                self.rules_by_id[r.parent].children.append(r.id)


# -- the glossary ----------------------------------------------------------------------------
def read_glossary(doc: Document, lines: list[str], start: int, end: int, wrapped: bool) -> str:
    """The entries of lines ``start`` to ``end`` (exclusive), each a run of non-blank lines;
    returns the blank lines after the last one, as text."""
    blanks: list[str] = []
    run: list[str] = []
    run_start = 0
    before = ""

    def entry() -> None:
        term = run[0]
        if len(run) == 1:
            definition, breaks, tail = "", [], ""
        else:
            definition, breaks, tail = join_lines(run[1:], wrapped)
        doc.glossary.append(GlossaryEntry(term.strip(), definition, glossary_refs(definition) if definition else [],
                                          run_start + 1, Layout(before, term, breaks, tail)))

    for i in range(start, end):
        line = lines[i]
        if is_blank(line):
            if run:
                entry()
                run = []
            blanks.append(line)
        else:
            if not run:
                before = "\n" + "".join(b + "\n" for b in blanks)
                blanks = []
                run_start = i
            run.append(line)
    if run:
        entry()
    return "\n".join(blanks)


def glossary_refs(definition: str) -> list[str]:
    """The rules a definition refers to: one as found, several once each in rule order."""
    refs = REF_TOKEN.findall(definition)
    if len(refs) > 1:
        refs = sorted(set(refs), key=lambda r: RuleNumber.parse(r).sort_key())
    return refs


# -- the whole document ----------------------------------------------------------------------
def parse_text(dec: Decoded | str, source: Path | None = None, data: bytes | None = None) -> Document:
    """The same Document as :func:`pipeline.segment.official.parse_text`, read plainly."""
    # The Document's frame (meta, sha256, decoder notes) is the fast parser's own: the twin checks
    # how the text is read, not how the file is described.
    dec, doc = new_document(dec, source, data)
    read_document(doc, dec.text)
    return doc


def read_document(doc: Document, text: str) -> None:
    lines = text.split("\n")
    meta = doc.meta
    meta.title = next((line.strip() for line in lines if not is_blank(line)), "")
    date = DATE_LINE.search(text)
    if date:
        meta.effective_date_text = date.group("date")
        meta.effective_date = iso_date(date.group("date"))
    else:
        doc.findings.append(Finding("no-effective-date", "no 'These rules are effective as of …' line", "warning"))

    contents = find_contents(lines)
    if contents is None:
        raise InputError("not an official Comprehensive Rules text: no 'Contents' heading", meta.source_file)
    intro = find_introduction(lines, contents)
    if intro is not None:
        doc.introduction = "\n".join(lines[intro + 1 : contents]).strip()
    body_start = find_body_start(lines, contents)
    if body_start is None:
        raise InputError("not an official Comprehensive Rules text: no rules body starting at '1.' / '100.'",
                         meta.source_file)
    glossary = find_last_heading(lines, "Glossary", body_start)
    credits = find_last_heading(lines, "Credits", glossary if glossary is not None else body_start)
    doc.toc = read_toc(lines, contents, body_start)

    body_end = glossary if glossary is not None else len(lines)
    if glossary is None:
        doc.findings.append(Finding("truncated", "the document ends inside the rules body: no glossary and no credits "
                                    "(the file is truncated)", "error", line=len(lines)))
    elif credits is None:
        doc.findings.append(Finding("truncated", "the document ends inside the glossary: no 'Credits' section "
                                    "(the file is truncated)", "error", line=len(lines)))
    doc.front_matter = "\n".join(lines[:body_start]) + "\n"
    wrapped = is_hard_wrapped(lines, body_start, body_end)
    after_body = BodyReader(doc, lines, body_start, body_end, wrapped).read()
    if glossary is not None:
        before = "\n" + "".join(b + "\n" for b in after_body) if after_body else "\n"
        doc.glossary_heading = Layout(before=before, head=lines[glossary])
        end = credits if credits is not None else len(lines)
        doc.glossary_heading.tail = read_glossary(doc, lines, glossary + 1, end, wrapped)
        if credits is not None:
            doc.credits = "\n".join(lines[credits + 1 :]).strip()
            doc.back_matter = "\n".join(lines[credits:])
    check_file_name_date(doc)


def check_file_name_date(doc: Document) -> None:
    """A file named by a date other than the one it states gets a finding (a warning past a month)."""
    meta = doc.meta
    if not meta.source_name or not meta.effective_date:
        return
    m = FILE_NAME_DATE.search(meta.source_name)
    if not m:
        return
    try:
        named = datetime.strptime(m.group(1), "%Y-%m-%d").date()
    except ValueError:
        return
    stated = datetime.strptime(meta.effective_date, "%Y-%m-%d").date()
    days = abs((named - stated).days)
    if days:
        doc.findings.append(Finding("file-name-date", f"file name says {named.isoformat()} but the document states "
                                    f"it is effective as of {meta.effective_date} ({days} days apart)",
                                    "warning" if days > 31 else "info"))
