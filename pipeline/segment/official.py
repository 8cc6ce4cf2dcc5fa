"""Parse an official Comprehensive Rules text (any edition, 2003 onwards) into the model.

The layout: title, effective date, Introduction, Contents (which repeats every section
and three-digit rule heading, then "Glossary" and "Credits"), the rules body, the
glossary, the credits.  Editions up to early 2004 are hard-wrapped at ~100 columns; the
others have one paragraph per line, examples on their own line right under their rule,
and some indented continuation paragraphs.  A blank line between two rules is usual but
not guaranteed, so rule starts are found per line, never per blank-separated block.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import fields
from itertools import chain
from datetime import datetime
from pathlib import Path

from ..collector import collector_paused
from ..errors import InputError
from ..decode import Decoded, decode_bytes
from ..io import read_bounded
from ..model import (_UNSET_DEFAULTS, Deferred, DocKind, Document, Example, Finding, GlossaryEntry, Layout, Meta, Rule, Section,
                     TocEntry, TocLevel)
from ..profiles import EN
from ..rulenum import Level, RuleNumber
from ..text import REF_TOKEN, RULE, SUB
from .paragraphs import join_lines

RULE_LINE = re.compile(
    rf"^(?P<lead>[ \t]*)(?P<num>(?P<r>{RULE})(?:\.(?P<s>{SUB})(?P<l>[a-z])?)?)"
    r"(?P<head>\.?[ \t]+|\.(?=[A-Z“\"(]))(?P<text>\S.*)?$"
)
SECTION_LINE = re.compile(r"^(?P<num>[1-9])\.(?P<head>[ \t]+)(?P<text>\S.*?)$")
# Official editions are English: their markers and date sentence are the English profile's.
EXAMPLE_LINE = re.compile(r"^(?P<lead>[ \t]*)(?P<marker>(?:"
                          + "|".join(re.escape(m) for m in sorted(EN.example_markers, key=len, reverse=True))
                          + r"):)(?P<text>.*)$")
DATE_RE = re.compile(EN.effective_date_patterns[0])
FILE_DATE_RE = re.compile(r"(\d{4}-\d{2}-\d{2})")


#: Every line that can begin a paragraph of the body, in one pattern (the three above, as
#: alternatives: at most one can match a line), for one scan of the whole body.  Each match
#: starts at the newline before its line: a literal first character lets the regex engine
#: jump from newline to newline (a ``^`` anchor is tried at every character: 2.5x slower).
#: Groups are only what the parser keeps (each costs a slice per match).  A rule's head is
#: its indent, number and separator apart: the indent is nearly always empty and the
#: separator one space, which the interpreter does not allocate, so the usual rule keeps
#: no string for its head (its layout is its separator: model._LazyLayout).  The three-digit
#: rule is the number's first three characters (RULE is checked below): no group of its own.
#: Its text comes without its trailing whitespace (``tail``: what ``str.rstrip`` would strip,
#: as regex ``\s`` is ``str.isspace``), saving a call per rule.
#:
#: Read with ``findall`` (a tuple of strings per match: no match object, no method calls),
#: so each match also carries what lies before its line: ``gap``, the text from the end of
#: the previous start line ("" when adjacent, "\n" for the usual blank line, else blank or
#: continuation lines); a last alternative, ``rest``, takes what follows the last start
#: line (without it the lazy gap would be retried from every newline of that trailing run:
#: quadratic in its length).  The gap's first blank line is taken greedily: a blank line is
#: never a start, and not trying the alternatives there saved 0.3 ms a parse.
START = re.compile(
    rf"\n(?P<gap>\n?(?:[^\n]*\n)*?)(?:(?:(?P<lead>[ \t]*)(?P<num>{RULE}(?:\.(?P<s>{SUB})(?P<l>[a-z])?)?)"
    r"(?P<sep>\.?[ \t]+|\.(?=[A-Z“\"(]))(?:(?P<text>\S(?:.*\S)?)(?P<tail>[^\S\n]*))?"
    r"|(?P<shead>(?P<snum>[1-9])\.[ \t]+)(?P<stext>\S.*?)"
    r"|(?P<elead>[ \t]*)(?P<etext>(?:"
    + "|".join(re.escape(m) for m in sorted(EN.example_markers, key=len, reverse=True))
    + r"):.*))$|(?P<rest>[^\n]*+)\Z)", re.M)
if not all(len(m.group()) == 3 for m in map(re.compile(RULE).fullmatch, ("100", "999"))) or \
        re.compile(RULE).fullmatch("1000"):
    raise AssertionError("the parser takes a three-digit rule as the first three characters of a number")
#: The separators the usual rule layout holds, kept once each (the regex makes a new ". " per match).
_SEPARATORS = {". ": ". "}
RULE_LEVEL, SUBRULE_LEVEL, LETTERED_LEVEL = Level.RULE, Level.SUBRULE, Level.LETTERED
#: The fields ``_Parser._body`` sets on each rule it makes without ``Rule.__init__``: a field
#: added to Rule must be set there too (an unset slot would fail only when read), unless
#: Rule.__getattr__ fills its default (model._UNSET_DEFAULTS: the parser leaves those unset).
_RULE_FIELDS = ("id", "text", "parent", "section", "level", "order", "line", "layout")
if {f.name for f in fields(Rule)} != {*_RULE_FIELDS, *_UNSET_DEFAULTS}:
    raise AssertionError("Rule's fields changed: set them in _Parser._body and list them in _RULE_FIELDS")


#: A glossary entry: a run of non-blank lines (a blank line is empty or whitespace only,
#: as ``str.strip`` sees it: regex ``\s`` is the same set of characters): its first line (the
#: term), its second line (nearly always the whole definition) and any further lines apart.
#: Read with ``findall`` (no match object per entry), so each match also carries the blank
#: lines before it (``gap``); a last alternative takes the blank lines after the last entry.
GLOSSARY_ENTRY = re.compile(r"^(?P<gap>(?:[^\S\n]*\n)*+)(?:(?P<term>[^\n]*\S[^\n]*)(?:\n(?P<first>[^\n]*\S[^\n]*))?"
                            r"(?P<rest>(?:\n[^\n]*\S[^\n]*)*)|(?P<end>[^\S\n]*+)\Z)", re.M)
#: The fields ``_Parser._glossary`` sets on each entry it makes without ``GlossaryEntry.__init__``.
_GLOSSARY_FIELDS = ("term", "definition", "refs", "line", "layout")
if tuple(f.name for f in fields(GlossaryEntry)) != _GLOSSARY_FIELDS:
    raise AssertionError("GlossaryEntry's fields changed: set them in _Parser._glossary and list them here")


def _ref_key(ref: str) -> tuple[int, int, int]:
    """``RuleNumber.parse(ref).sort_key()`` for a REF_TOKEN match, without building the number."""
    r, _, rest = ref.partition(".")
    if not rest:
        return (int(r), -1, -1)
    if rest[-1].isdigit():
        return (int(r), int(rest), -1)
    return (int(r), int(rest[:-1]), ord(rest[-1]))


def glossary_refs(definition: str) -> list[str]:
    """The rules a glossary definition refers to: a single reference as found, two or more
    once each in rule order."""
    refs = REF_TOKEN.findall(definition)
    if len(refs) > 1:
        refs = sorted(set(refs), key=_ref_key)
    return refs


def _num(num: str, s: str | None, letter: str | None) -> RuleNumber:
    """The number of a START match's groups (``findall`` gives "" for a missing sub or letter)."""
    return RuleNumber(int(num[:3]), int(s) if s else None, letter or None)


#: Where in a START tuple the three kinds of start put a group that is never empty when they match.
_KIND_GROUPS = tuple(START.groupindex[g] - 1 for g in ("num", "snum", "etext"))


def _windows(text: str, pos: int, end: int, window: int = 65536):
    """``START.findall(text, pos, end)`` in consecutive lists, a window of about ``window``
    characters each: one list of every paragraph's tuple (3.5k for a modern edition) alive
    at once churned enough memory to slow what came next (decoding the next edition: 1 ms).

    A window ends at a newline, so every line in it is whole and matches as in the whole
    text; the ``rest`` alternative alone depends on where the text ends: a window that
    ends with it is scanned again from where that match began."""
    findall = START.findall
    g1, g2, g3 = _KIND_GROUPS
    size = window
    while True:
        q = text.find("\n", pos + size, end) if end - pos > size else -1
        if q < 0:
            yield findall(text, pos, end)
            return
        got = findall(text, pos, q)
        last = got[-1]  # (never empty: pos is at a newline, and ``rest`` takes any line)
        if last[g1] or last[g2] or last[g3]:
            pos = q  # it ends at the window's end
        elif len(got) == 1:
            size *= 2  # no start in the window: a larger one
            continue
        else:
            got.pop()
            pos = q - len(last[0]) - len(last[-1]) - 1  # the newline where ``rest`` began
        yield got
        size = window


_TYPO_TAIL = re.compile(rf"^({SUB})([a-z])?[ \t]+(?=\S)")


def _split_number_typo(num: RuleNumber, text: str, last: RuleNumber | None) -> tuple[RuleNumber, str] | None:
    """``606.`` + ``8b Players…`` -> (606.8b, ``Players…``) when 606.8b continues the numbering."""
    if num.sub is not None or last is None or last.rule != num.rule or last.sub is None:
        return None
    t = _TYPO_TAIL.match(text)
    if not t:
        return None
    cand = RuleNumber(num.rule, int(t.group(1)), t.group(2))
    if not cand > last or cand.sub - last.sub > 1:
        return None
    return cand, text[t.end():]


def _number_typo(lead: str, numtxt: str, sep: str, head_text: str, last_id: str, i: int,
                 find: list[Finding]) -> tuple[str, str, str | None, str, str, str] | None:
    """Step 4 of ``_Parser._body``: "606. 8b Players win…" in the 2005–2006 editions, a stray
    space inside the number 606.8b, read as the subrule the numbering calls for (reported).
    ``head_text`` is what follows the separator.  Returns the number as text, its sub and
    letter, the rule's text and trailing blanks, and the layout's head; or None."""
    fixed = _split_number_typo(_num(numtxt, None, None), head_text, RuleNumber.parse(last_id))
    if fixed is None:
        return None
    num, after = fixed
    split = len(head_text) - len(after)
    find.append(Finding("malformed-number", f"'{numtxt}{sep}{head_text[:split].strip()}' read as {num}",
                        "warning", rule=str(num), line=i + 1))
    body = after.rstrip()
    s, letter = str(num.sub), num.letter
    return f"{numtxt[:3]}.{s}{letter or ''}", s, letter, body, after[len(body):], lead + numtxt + sep + head_text[:split]


def _rule_identity(numtxt: str, s: str, letter: str) -> tuple[str, str | None, Level]:
    """Step 4 of ``_Parser._body``: a rule's id, parent id and level from its number as matched
    (``s`` and ``letter`` "" when absent).  The number as matched is the id when it is
    canonical (ASCII digits, no leading zero after the dot): then the very same string."""
    if not s:
        return (numtxt if numtxt.isascii() else str(int(numtxt))), None, RULE_LEVEL
    if (s[0] != "0" or len(s) == 1) and numtxt.isascii():
        return numtxt, (numtxt[:-1] if letter else numtxt[:3]), (LETTERED_LEVEL if letter else SUBRULE_LEVEL)
    base = f"{int(numtxt[:3])}.{int(s)}"
    if letter:
        return base + letter, base, LETTERED_LEVEL
    return base, str(int(numtxt[:3])), SUBRULE_LEVEL


def _relink_children(rules: list[Rule], index: dict[str, Rule]) -> None:
    """Step 6 of ``_Parser._body``, when a number repeats or a rule came before its parent:
    every rule's children linked anew, a parent being the last rule with its id."""
    for rule in rules:
        rule.children.clear()
    for rule in rules:
        if rule.parent is not None and rule.parent in index:
            index[rule.parent].children.append(rule.id)


def _iso(date_text: str) -> str:
    return datetime.strptime(date_text, "%B %d, %Y").date().isoformat()


def effective_date(text: str) -> str | None:
    """The ISO effective date a CR text states ("These rules are effective as of …"), or None."""
    m = DATE_RE.search(text)
    return _iso(m.group("date")) if m else None


def looks_official(text: str) -> bool:
    """True for a full official-layout CR text: a title, a Contents list and rule lines."""
    head = text[:6000]
    return ("Comprehensive Rules" in head and re.search(r"(?m)^\s*Contents\s*$", head) is not None)


def parse_file(path: str | Path) -> Document:
    p = Path(path)
    data = read_bounded(p)
    return parse_text(decode_bytes(data, p), source=p, data=data)


def parse_text(dec: Decoded | str, source: Path | None = None, data: bytes | None = None) -> Document:
    dec, doc = new_document(dec, source, data)
    with collector_paused():
        split = dec.split
        _Parser(doc, dec.text, split[1] if split is not None and split[0] is dec.text else None).run()
    return doc


def new_document(dec: Decoded | str, source: Path | None = None, data: bytes | None = None) -> tuple[Decoded, Document]:
    """The empty official Document of a decoded text: its meta (encoding, source, sha256) and the
    decoder's notes; the fast parser and its reference twin both fill it."""
    if isinstance(dec, str):
        dec = Decoded(text=dec, encoding="str", line_endings="lf")
    meta = Meta(language="en", format="txt", encoding=dec.encoding, line_endings=dec.line_endings, kind=DocKind.OFFICIAL)
    if source is not None:
        meta.source_file = str(source)
        meta.source_name = source.name
        raw = data if data is not None else (read_bounded(source) if source.is_file() else None)
        if raw is not None:
            meta.sha256 = hashlib.sha256(raw).hexdigest()
    doc = Document(meta=meta)
    for note in dec.notes:
        doc.findings.append(Finding("encoding", note, "info"))
    return dec, doc


class _Parser:
    def __init__(self, doc: Document, text: str, lines: list[str] | None = None):
        self.doc = doc
        self.text = text
        # Decoding may have split the text already (``Decoded.split``): the same list.
        self.lines = lines if lines is not None else text.split("\n")
        self.find = doc.findings
        self._last_offset = (0, 0)

    # -- regions -----------------------------------------------------------------
    def run(self) -> None:
        L = self.lines
        doc = self.doc
        first = next((l.strip() for l in L if l.strip()), "")
        doc.meta.title = first
        m = DATE_RE.search(self.text)
        if m:
            doc.meta.effective_date_text = m.group("date")
            doc.meta.effective_date = _iso(m.group("date"))
        else:
            self.find.append(Finding("no-effective-date", "no 'These rules are effective as of …' line", "warning"))

        contents = next((i for i, l in enumerate(L) if l.strip() in ("Contents", "Table of Contents")), None)
        if contents is None:
            raise InputError("not an official Comprehensive Rules text: no 'Contents' heading", doc.meta.source_file)
        intro = next((i for i, l in enumerate(L[:contents]) if l.strip() == "Introduction"), None)
        if intro is not None:
            doc.introduction = "\n".join(L[intro + 1 : contents]).strip()

        body_start = self._body_start(contents)
        gloss = self._last_heading("Glossary", body_start)
        credits = self._last_heading("Credits", gloss if gloss is not None else body_start)
        self._toc(contents, body_start)

        body_end = gloss if gloss is not None else len(L)
        if gloss is None:
            self.find.append(Finding("truncated", "the document ends inside the rules body: no glossary and no credits "
                                     "(the file is truncated)", "error", line=len(L)))
        elif credits is None:
            self.find.append(Finding("truncated", "the document ends inside the glossary: no 'Credits' section "
                                     "(the file is truncated)", "error", line=len(L)))
        doc.front_matter = "\n".join(L[:body_start]) + "\n"
        self.wrapped = self._is_wrapped(body_start, body_end)
        self._body(body_start, body_end)
        if gloss is not None:
            gl_end = credits if credits is not None else len(L)
            self._glossary(gloss, gl_end)
            if credits is not None:
                doc.credits = "\n".join(L[credits + 1 :]).strip()
                doc.back_matter = "\n".join(L[credits:])
        self._date_vs_filename()

    def _body_start(self, contents: int) -> int:
        L = self.lines
        # The Contents list repeats the first section heading; the body starts at its second
        # occurrence (the first one that is followed by a rule "100.").
        firsts = (i for i in range(contents + 1, len(L)) if L[i].startswith("1.") and SECTION_LINE.match(L[i]))
        for i in firsts:
            nxt = next((j for j in range(i + 1, min(i + 6, len(L))) if L[j].strip()), None)
            if nxt is not None and RULE_LINE.match(L[nxt]) and L[nxt].startswith("100"):
                # In the Contents, "100. General" follows "1. …" too; the body's 100. is
                # followed by a subrule, the Contents' by another heading.
                after = next((j for j in range(nxt + 1, min(nxt + 6, len(L))) if L[j].strip()), None)
                if after is not None and RULE_LINE.match(L[after]) and "." in RULE_LINE.match(L[after]).group("num"):
                    return i
        raise InputError("not an official Comprehensive Rules text: no rules body starting at '1.' / '100.'",
                         self.doc.meta.source_file)

    def _last_heading(self, word: str, after: int) -> int | None:
        """The last line after line ``after`` that reads ``word`` once stripped, or None.
        Looked for from the end with ``str.rfind`` (the glossary's heading is 2.3k lines from
        the end: a strip per line cost 0.1 ms), its index counted from the end too."""
        text = self.text
        end = len(text)
        while (pos := text.rfind(word, 0, end)) >= 0:
            start = text.rfind("\n", 0, pos) + 1
            stop = text.find("\n", pos)
            if text[start:stop if stop >= 0 else len(text)].strip() == word:
                i = len(self.lines) - 1 - text.count("\n", start)
                return i if i > after else None
            end = start  # the lines before this one
        return None

    def _toc(self, contents: int, body_start: int) -> None:
        for line in self.lines[contents + 1 : body_start]:
            s = line.strip()
            if not s:
                continue
            m = SECTION_LINE.match(s)
            if m:
                self.doc.toc.append(TocEntry(m.group("num"), m.group("text").strip(), TocLevel.SECTION))
                continue
            m = RULE_LINE.match(s)
            if m and "." not in m.group("num"):
                self.doc.toc.append(TocEntry(m.group("num"), (m.group("text") or "").strip(), TocLevel.RULE))
            elif s in ("Glossary", "Credits"):
                self.doc.toc.append(TocEntry("", s, TocLevel.PART))

    def _is_wrapped(self, a: int, b: int) -> bool:
        # Hard-wrapped editions show it from their first page: a sample of the body decides.
        L = self.lines
        b = min(b, a + 800)
        cont = sum(1 for i in range(a + 1, b) if L[i].strip() and L[i - 1].strip()
                   and not RULE_LINE.match(L[i]) and not EXAMPLE_LINE.match(L[i]) and not L[i][:1].isspace())
        return cont > 0.15 * max(1, sum(1 for i in range(a, b) if L[i].strip()))

    # -- body --------------------------------------------------------------------
    def _offset(self, i: int) -> int:
        """Character offset of line ``i`` in the text (``len(text) + 1`` past the last line).
        Asked in increasing order (body, glossary, credits): each call sums on from the last,
        or back from the end of the text when that is nearer (the glossary's heading: the
        glossary and credits are a fifth of the lines)."""
        j, off = self._last_offset
        if i < j:
            j, off = 0, 0
        L = self.lines
        if len(L) - i < i - j:
            off = len(self.text) - sum(map(len, L[i:])) - (len(L) - 1 - i)
        else:
            off += sum(map(len, L[j:i])) + (i - j)
        self._last_offset = (i, off)
        return off

    def _body(self, a: int, b: int) -> None:
        """Read the rules body, lines ``a`` to ``b``, into sections, rules and examples.

        The steps, in the order a line meets them (:mod:`.reference` reads the same text the
        plain way, one line at a time; the two must agree):

        1. ``_windows`` / START: find every line that can start a paragraph (a rule, a
           section heading, an example), with the text since the previous one (``seg``).
        2. ``between``: that text, line by line -- blank lines are kept for the next
           paragraph's layout (``gap``), other lines continue the open paragraph
           (``other``, which reports stray and unnumbered lines).
        3. The usual paragraph (nine in ten): a canonical subrule after one blank line --
           its id, parent and layout straight from the match.
        4. Any other start: a section heading (``start_section``), an example
           (``start_example``), a line the numbering rejects (back to ``other``), or a rule:
           ``_number_typo`` (606. 8b), ``_rule_identity`` (id, parent, level), its layout.
        5. The rule is made and linked to its parent (``index``).
        6. At the end: the last paragraph closed (``close``), the blank lines left for the
           glossary's heading, and the children linked anew when numbers repeat
           (``_relink_children``).

        Speed: one regex scan of the body; the text between two starts is split only when
        it is not the usual single blank line.  Rule numbers stay text: a RuleNumber is
        built only where the numbering is in doubt.  The open paragraph is ``target``, its
        first line ``first``, and ``more`` its lines once it has more than one (rare).
        """
        text = self.text
        doc = self.doc
        rules = doc.rules
        wrapped = self.wrapped
        find = self.find
        start_pos = self._offset(a)
        end_pos = self._offset(b) - 1 if b < len(self.lines) else len(text)
        order = 0
        cur_section: int | None = None
        cur_rule: Rule | None = None
        target = None  # the open paragraph's Rule, Section or Example
        first = ""
        more: list[str] | None = None
        gap: list[str] = []
        i = a  # line index of the cursor
        Rule_, Example_, Section_, new = Rule, Example, Section, object.__new__
        # Children are linked as their rules come: ``index`` holds the last rule seen with
        # each id.  Linking is redone at the end, as a whole, when a number repeats or a
        # rule came before its parent (the parent is the last rule with its id in the text).
        index: dict[str, Rule] = {}
        index_get = index.get
        early = False  # a rule whose parent was not seen yet

        # -- the open paragraph ------------------------------------------------------
        def close():
            # Only a paragraph that grew past its first line: one-line paragraphs (nearly
            # all) got their text and layout when they started.
            text_, breaks, tail = join_lines(more, wrapped)
            # The layout made for its first line (a fresh Layout) holds its before and head.
            lay = target.layout
            lay.breaks, lay.tail = breaks, tail
            if type(target) is Section:
                target.title = text_
            else:
                target.text = text_

        def before_of(i: int) -> str:
            if i == a:
                return ""
            if not gap:
                return "\n"
            if len(gap) == 1 and not gap[0]:
                return "\n\n"  # the usual single blank line
            return "\n" + "\n".join(gap) + "\n"

        def open_paragraph(one: bool, i: int) -> str:
            # A paragraph starts at line i: the open one is closed and the text before the
            # new one returned.
            nonlocal gap, more
            if one:
                before = "\n\n"
            else:
                before = before_of(i)
                gap = []
            if more is not None:
                close()
                more = None
            return before

        # -- step 2: lines that start nothing ------------------------------------------
        def other(line: str, i: int, prev_blank: bool, pending_gap: list[str]) -> None:
            # A non-blank line that starts nothing: it continues the open paragraph.
            nonlocal more
            if target is not None:
                if not prev_blank and not wrapped and not line[:1].isspace():
                    # One paragraph per line in these editions: an unindented line that is
                    # neither a rule nor an example is stray text (2021-11-15 has a lone "f").
                    owner = cur_rule.id if cur_rule else None
                    find.append(Finding("stray-line", f"line without a rule number kept with {owner}: "
                                        f"{line.strip()[:60]!r}", "warning", rule=owner, line=i + 1))
                if more is None:
                    more = [first]
                if prev_blank:
                    # An unnumbered paragraph after a blank line: older editions have a few
                    # multi-paragraph rules; keep it with the paragraph above, and say so.
                    owner = cur_rule.id if cur_rule else None
                    find.append(Finding("unnumbered-paragraph", f"paragraph without a rule number kept with "
                                        f"{owner}: {line.strip()[:60]!r}", "warning", rule=owner, line=i + 1))
                    more.extend(pending_gap)
                more.append(line)
                return
            find.append(Finding("unassigned-line", f"line belongs to no rule: {line.strip()[:60]!r}",
                                "error", line=i + 1))

        def between(seg: str, i: int) -> int:
            # The lines before the next paragraph start: blank ones go to the gap, others
            # continue the open paragraph.  Returns the next line index.
            nonlocal gap, more
            if seg == "\n":
                gap.append("")
                return i + 1
            for line in seg[:-1].split("\n"):
                if not line.strip():
                    gap.append(line)
                elif not gap and i != a and target is not None and (wrapped or line[:1].isspace()):
                    if more is None:  # a wrapped or indented continuation: the usual case
                        more = [first]
                    more.append(line)
                else:
                    prev_blank = bool(gap) or i == a
                    pending, gap = gap, []
                    other(line, i, prev_blank, pending)
                i += 1
            return i

        # -- step 4: starts other than a rule ---------------------------------------------
        def start_section(one: bool, i: int, n: int, shead: str, stext: str) -> None:
            nonlocal order, target, cur_section, first
            before = open_paragraph(one, i)
            order += 1
            title = stext.rstrip()
            target = Section_(n, title, order, i + 1, (before, shead, stext[len(title):]))
            doc.sections.append(target)
            cur_section = n
            first = stext

        def start_example(one: bool, i: int, elead: str, etext: str) -> None:
            nonlocal target, first
            before = open_paragraph(one, i)
            first = etext
            body = etext.rstrip()
            target = Example_(body, i + 1, (before, elead, etext[len(body):]))
            cur_rule.examples.append(target)

        # -- step 1: every start line, with the text before it ----------------------------
        # Each match starts at the newline before its line; the body's first line has one
        # before it too (the Contents precede the body).
        for seg, lead, numtxt, s, letter, sep, body, tail, shead, snum, stext, elead, etext, rest in \
                chain.from_iterable(_windows(text, start_pos - 1, end_pos)):
            # (``findall`` gives "" for the groups of the alternatives that did not match.)
            if not (numtxt or snum or etext):  # ``rest``: the lines after the last start line
                between(seg + rest + "\n", i)
                break
            if seg == "\n" and s and more is None and not lead and not tail and (s[0] != "0" or len(s) == 1) \
                    and numtxt.isascii():
                # -- step 3: the usual paragraph (nine in ten): a canonical subrule or
                # lettered rule on one line after one blank line, the paragraph above on one
                # line.  Step 4 would give the same, with a dozen more tests: the number as
                # matched is the id, and the layout the separator alone.
                i += 1
                rid = numtxt
                if letter:
                    parent, level = numtxt[:-1], LETTERED_LEVEL
                else:
                    parent, level = numtxt[:3], SUBRULE_LEVEL
                lay = sep if sep == " " else _SEPARATORS.get(sep, sep)
            else:
                # -- step 4: any other start.  ``one``: exactly one empty line before this
                # one (the usual separator), kept as a flag; ``gap`` holds the blank lines of
                # any other run (it is empty at the top of each turn: every path resets it).
                if seg == "\n":
                    one = True
                    i += 1
                elif not seg:
                    one = False
                else:
                    one = False
                    i = between(seg, i)
                if not numtxt or not (one or gap or i == a or target is None or not wrapped
                                      or self._continues(numtxt, s, letter, cur_rule)):
                    if snum:
                        n = ord(snum) - 48
                        if (one or gap or i == a) and n == (1 if cur_section is None else cur_section + 1):
                            start_section(one, i, n, shead, stext)
                            i += 1
                            continue
                    elif etext and cur_rule is not None:
                        start_example(one, i, elead, etext)
                        i += 1
                        continue
                    # A line shaped like a start that the numbering rejects: a continuation.
                    prev_blank = one or bool(gap) or i == a
                    pending, gap = ([""] if one else gap), []
                    line = lead + numtxt + sep + body + tail if numtxt else shead + stext if snum else elead + etext
                    other(line, i, prev_blank, pending)
                    i += 1
                    continue
                # A rule.  (The usual case without a call: one blank line before, one-line
                # paragraph above.)
                before = "\n\n" if one and more is None else open_paragraph(one, i)
                m_head = None  # the head when it is not the number and separator as matched
                if not s and cur_rule is not None and body[:1].isdecimal():  # (a typo's digits: \d)
                    fixed = _number_typo(lead, numtxt, sep, body + tail, cur_rule.id, i, find)
                    if fixed is not None:
                        numtxt, s, letter, body, tail, m_head = fixed
                rid, parent, level = _rule_identity(numtxt, s, letter)
                # Made a Layout when read (model._LazyLayout).
                if one and not tail and not lead and m_head is None and rid is numtxt:
                    # The usual layout: its head is the id and this separator (". " is
                    # matched anew for each subrule: one shared copy is kept instead).
                    lay = sep if sep == " " else _SEPARATORS.get(sep, sep)
                else:
                    lay = (before, m_head or lead + numtxt + sep, tail)
            # -- step 5: the rule, made and linked to its parent
            order += 1
            if parent is not None:
                above = index_get(parent)
                if above is not None:
                    above.children.append(rid)
                    parent = above.id  # the same text: one string, not one per child
                else:
                    early = True
            # Every field set here, without Rule.__init__ (a Python call per rule cost more
            # than the stores); _RULE_FIELDS checks the list is complete.
            rule = new(Rule_)
            rule.id = rid
            rule.text = body
            rule.parent = parent
            if not letter:  # a lettered rule has no children: left to Rule.__getattr__
                rule.children = []
            rule.section = ord(numtxt[0]) - 48
            rule.level = level
            rule.order = order
            rule.line = i + 1
            rule._lay = lay  # the layout slot, stored as is (model._LazyLayout)
            rules.append(rule)
            index[rid] = rule
            cur_rule = target = rule
            first = body + tail if tail else body  # the line as read, should the paragraph go on
            i += 1
        # -- step 6: the end of the body
        if more is not None:
            close()
        self._trailing_gap = gap
        if early or len(index) != len(rules):
            _relink_children(rules, index)

    def _continues(self, numtxt: str, s: str | None, letter: str | None, last: Rule | None) -> bool:
        # Hard-wrapped text: a wrapped line can begin with a number ("…see rule\n502.5.").
        # Accept it as a rule start only when it continues the numbering of the ``last`` rule.
        if last is None:
            return False
        num, prev = _num(numtxt, s, letter), RuleNumber.parse(last.id)
        return num > prev and num.rule - prev.rule <= 1

    # -- glossary ----------------------------------------------------------------
    def _glossary(self, start: int, end: int) -> None:
        # One scan: GLOSSARY_ENTRY finds each entry (a run of non-blank lines); what lies
        # between two entries is blank lines, kept for the round trip.
        text = self.text
        doc = self.doc
        wrapped = self.wrapped
        out = doc.glossary
        # text between the last rule paragraph and the "Glossary" heading
        tg = getattr(self, "_trailing_gap", [])
        doc.glossary_heading = Layout(before="\n" + "\n".join(tg) + "\n" if tg else "\n", head=self.lines[start])
        pos = self._offset(start + 1)
        endpos = self._offset(end) - 1 if end < len(self.lines) else len(text)
        i = start + 1
        after = ""  # the blank lines between the last entry and "Credits" (or the end of the file)
        Entry, Deferred_, refs_of, new = GlossaryEntry, Deferred, glossary_refs, object.__new__
        for gap, term, first, rest, end in GLOSSARY_ENTRY.findall(text, pos, endpos):
            # (``findall`` gives "" for a group that did not match; a term is never empty.)
            if not term:
                after = gap + end
                break
            if gap == "\n":  # one blank line: the usual separator
                before = "\n\n"
                i += 1
            elif gap:
                before = "\n" + gap
                i += gap.count("\n")
            else:
                before = "\n"
            breaks = None
            if rest:
                block = [first] + rest[1:].split("\n")
                definition, breaks, tail = join_lines(block, wrapped)
                n = 1 + len(block)
            elif first:
                definition = first.rstrip()
                tail = first[len(definition):]
                n = 2
            else:
                definition, tail, n = "", "", 1
            # Every field set here, without GlossaryEntry.__init__ (a Python call per entry
            # cost more than the stores; _GLOSSARY_FIELDS checks the list).  The references
            # are found when first read (model._LazyRefs); a layout without line breaks
            # stays a tuple until read (model._LazyLayout).
            entry = new(Entry)
            entry.term = term.strip()
            entry.definition = definition
            entry._refs = Deferred_(refs_of, definition) if definition else []
            entry.line = i + 1
            entry._lay = Layout(before, term, breaks, tail) if breaks else (before, term, tail)
            out.append(entry)
            i += n
        doc.glossary_heading.tail = after

    def _date_vs_filename(self) -> None:
        meta = self.doc.meta
        if not meta.source_name or not meta.effective_date:
            return
        m = FILE_DATE_RE.search(meta.source_name)
        if not m:
            return
        try:
            fd = datetime.strptime(m.group(1), "%Y-%m-%d").date()
        except ValueError:
            return
        ed = datetime.strptime(meta.effective_date, "%Y-%m-%d").date()
        days = abs((fd - ed).days)
        if days:
            sev = "warning" if days > 31 else "info"
            self.find.append(Finding("file-name-date", f"file name says {fd.isoformat()} but the document states "
                                     f"it is effective as of {meta.effective_date} ({days} days apart)", sev))
