"""Find rule citations in source code of any language.

A file is cut into comments, strings and code with one regular expression per comment
syntax family (C-like ``//`` and ``/* */``, ``#`` with Python's triple quotes, Lua/SQL
``--``); prose files (Markdown, text) are one big comment.  Citations are then read from

* anchored numbers: ``CR 702.19b``, ``Rule 704.5f``, ``rules 601.2b and 601.2c``, ``§ 117.3``,
  with lists (``CR 701.22a / CR 701.25a``, ``CR 120.3 + CR 119.3a``, ``702.16c/d``) and ranges
  (``601.2a–d`` skipping l and o, ``707.2–4``, ``707.2–707.4``, ``707.2 through 707.4``,
  ``Rules 500-514``) — in comments and strings (doc comments, log messages, Markdown tables);
* quoted rule text led by its number (``"702.53a Haunt is a triggered ability…"``) at the
  start of a comment or string;
* a lettered subrule without any cue (``(601.2f)``), by its shape, and a subrule in parentheses
  after a name (``Deathtouch (702.2)``), in comments and strings;
* numbers baked into identifiers (``stateBasedAction704_5r``, ``test_104_3b_player_loses``) — in
  code, and in comments and strings where nothing else cites that number.

Each citation keeps the comment block it sits in (``block``): a block that quotes an older
edition's rules is read in that edition's numbering (see :mod:`pipeline.audit.report`).

Other bare numbers (``x = 100.5``, version strings, "702" alone) are never citations.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from ..errors import InputError
from ..io import read_bounded
from ..rulenum import LETTERS
from ..text import RULE, SUB

NUM = rf"(?<![\w.])(?P<rule>{RULE})(?:\.(?P<sub>{SUB})(?P<letter>[a-z])?)?(?![\w]|\.\d|\.\?)"
_NUM_RE = re.compile(NUM)
# "CR", "Rule(s)", "§", "MagicCompRules", and XMage's dated notes ("//20091005 - 500.4/703.4n").
_ANCHOR = (r"(?:\b(?:CR|C\.R\.|[Rr]ules?|RULES?|[Ss]ection|MagicCompRules)\s*#?\s*|§\s*"
           r"|\b(?:19|20)\d{6}\s*[-–:]?\s*)")
_ANCHORED_RE = re.compile(_ANCHOR + NUM)
# "see 702.7", "but see 704.5q", "(see 704.5f/g fixtures)": "see" without "rule" cites a subrule
# (a bare "see 700" is a page, a weight, a file).
_SEE_RE = re.compile(r"\b[Ss]ee\s+(?P<rule>" + RULE + r")\.(?P<sub>" + SUB + r")(?P<letter>[a-z])?(?![\w]|\.\d|\.\?)")
# A line that ends in "CR" or "rule(s)" (the number wrapped onto the next line: "trigger (CR\n// 702.78d's").
_ANCHOR_AT_END = re.compile(r"(?:\b(?:CR|C\.R\.|[Rr]ules?|RULES?|[Ss]ee(?:\s+rules?)?)|§)\s*$")
_WRAPPED_RE = re.compile(r"^[\s*/#!\-]*" + NUM)
# A subrule opening a comment line with its topic after it: "# 702.78 persist", "// 702.90a: exalted …".
_LEAD_NUM_RE = re.compile(r"^[\s*/#!\-]*(?P<rule>" + RULE + r")\.(?P<sub>" + SUB + r")(?P<letter>[a-z])?"
                          r"(?![\w]|\.\d|\.\?)[.:]?\s+(?=[a-z“\"'])")
# Numbers in parentheses after a name, one or a list: "Exalted (702.83a)", "Undying / persist (702.93 / 702.79)".
_PAREN_LIST_RE = re.compile(rf"(?<=[\w)])\s?\((?P<nums>{RULE}\.{SUB}[a-z]?(?:\s*(?:/|,|&|\band\b)\s*{RULE}\.{SUB}[a-z]?)+)\)")
_PAREN_MEMBER = re.compile(rf"(?P<rule>{RULE})\.(?P<sub>{SUB})(?P<letter>[a-z])?")
# A string literal that is nothing but a rule number: cr!("118.9a", "601.2b"), rule: "405.1".
_LITERAL_RE = re.compile(r"^([\"'`])(?P<rule>" + RULE + r")\.(?P<sub>" + SUB + r")(?P<letter>[a-z])?\1$")
# Declarations that name what the code around a citation is about (its scope).
_DECL_RE = re.compile(r"\b(?:class|interface|struct|enum|trait|object|record|impl|def|fn|func|function|sub|module)"
                      r"\s+(?:\([^)]*\)\s*)?(?P<name>[A-Za-z_]\w*)")
# A per-line or per-file suppression the author writes in a comment.
_KEEP_RE = re.compile(r"crpipe:\s*keep(?P<file>-file)?\b(?P<nums>[^\n]*)")
#: How many words of the text around a citation are its context (either side).
WINDOW = 16
_CONT_RE = re.compile(r"\s*(?:,|/|\+|&|\band\b|\bor\b)\s*(?:" + _ANCHOR + r")?" + NUM)
# The end of a range or the other letter of a pair, right after a number.
_TO_FULL = re.compile(r"(?:[-–—]|\s*[–—]\s*|\s+(?:through|thru|to)\s+)(?:" + _ANCHOR + r")?"
                      rf"(?P<rule>{RULE})(?:\.(?P<sub>{SUB})(?P<letter>[a-z])?)?(?![\w]|\.\d)")
_TO_SUB = re.compile(rf"[-–—](?P<sub>{SUB})(?![\w]|\.\d)")
_TO_LETTER = re.compile(r"[-–—](?P<letter>[a-z])(?![\w])")
_ALT_LETTER = re.compile(r"/(?P<letter>[a-z])(?![\w])")
_MAX_RANGE = 60
_TAIL_START = frozenset("-–—/")
_SPACED_TAIL = re.compile(r"\s*(?:[–—]|through\b|thru\b|to\b)")
# A number followed by a quoted title: 'See rule\n * 607, "Linked Abilities."'.
_TITLED_RE = re.compile(NUM + r",?\s+[“\"](?P<title>[A-Z][^\"”\n]{2,60})[”\"]")
_QUOTE_RE = re.compile(r"^[\s*/#!\-\[\]\"'`“]*" + NUM + r"[.:]?\s+(?P<quote>[A-Z“\"'][^\n]{2,})")
# A lettered subrule ("(see 601.2b)", "per 702.79a") is a citation by its shape alone.
_LETTERED_RE = re.compile(rf"(?<![\w.])(?P<rule>{RULE})\.(?P<sub>{SUB})(?P<letter>[a-z])(?![\w]|\.\d)")
# A subrule in parentheses right after a name: "Deathtouch (702.2), Defender (702.3)".
_PAREN_RE = re.compile(rf"(?<=[\w)])\s?\((?P<rule>{RULE})\.(?P<sub>{SUB})\)")
_NAME_BEFORE = re.compile(r"([A-Za-z][\w' -]*?)\s*$")
_NAMES_BEFORE = re.compile(r"([A-Za-z][\w' /&,-]*?)\s*$")
_CONNECTOR = re.compile(r"[\s,;/+&]*(?:(?:and|or|then|to)[\s,]*)?")
_WORDISH = re.compile(r"[A-Za-z]{3,}")
_SENTENCE_END = re.compile(r"(?<=[.;!?])\s+")
_IDENT_RE = re.compile(rf"(?<![A-Za-z0-9])[A-Za-z_]*[A-Za-z]_?(?P<rule>{RULE})_(?P<sub>{SUB})(?P<letter>[a-z])?(?![A-Za-z0-9])")
_IDENT_TAIL = re.compile(r"\w*")
_TABLE_CELL = re.compile(r"^\s*(?:CR\s*|[Rr]ule\s*)?" + NUM + r"\s*$")
_HAS_NUM = re.compile(rf"{RULE}")
_BLANK_COMMENT = re.compile(r"[\s/*#!\-]*(?:<p/?>)?[\s/*#!\-]*")
_LEAD = re.compile(r"[\s/*#!\-\[\]\"'`“]*(?:(?:19|20)\d{6}\s*[-–:]?\s*)?")
_NEWLINE = re.compile(r"\n")

SLASH = {".java", ".rs", ".cs", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".c", ".h", ".cpp", ".hpp", ".cc",
         ".go", ".kt", ".kts", ".swift", ".scala", ".dart", ".php", ".groovy"}
HASH = {".py", ".rb", ".sh", ".pl", ".r", ".yaml", ".yml", ".toml", ".ps1", ".nim", ".ex", ".exs"}
DASH = {".lua", ".sql", ".hs", ".elm"}
PROSE = {".md", ".txt", ".rst", ".adoc"}

_STR = r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''
_TOKENS = {
    "slash": re.compile(r"(?P<c>//[^\n]*|/\*.*?(?:\*/|\Z))|(?P<s>" + _STR + r"|`(?:\\.|[^`\\])*`)", re.S),
    "hash": re.compile(r"(?P<c>#[^\n]*)|(?P<s>\"\"\".*?(?:\"\"\"|\Z)|'''.*?(?:'''|\Z)|" + _STR + ")", re.S),
    "dash": re.compile(r"(?P<c>--\[(?P<eq>=*)\[.*?(?:\](?P=eq)\]|\Z)|--[^\n]*)|(?P<s>\[(?P<eq2>=*)\[.*?(?:\](?P=eq2)\]|\Z)|" + _STR + ")", re.S),
}


def family(path: Path) -> str | None:
    ext = path.suffix.lower()
    if ext in SLASH:
        return "slash"
    if ext in HASH:
        return "hash"
    if ext in DASH:
        return "dash"
    if ext in PROSE:
        return "prose"
    return None


class CitationForm(StrEnum):
    """How a citation is written."""

    ANCHORED = "anchored"  # after "CR", "rule" or a title
    BARE = "bare"  # a lettered subrule without "CR"/"rule"
    QUOTE = "quote"  # a number followed by quoted rule text
    IDENTIFIER = "identifier"  # digits in a name (test_601_2b)
    LITERAL = "literal"  # a string literal holding only the number ("601.2b")


class Region(StrEnum):
    """Where in the source a citation sits."""

    COMMENT = "comment"
    STRING = "string"
    CODE = "code"


@dataclass(slots=True)
class RawCitation:  # not frozen: a frozen init costs, and there are 100,000s
    line: int
    column: int
    cited: str  # one rule number (ranges and lists are expanded)
    kind: CitationForm
    where: Region
    context: str  # the comment/string/identifier text around it
    quote: str | None = None
    written: str = ""  # the text as written (a range or list member shows its source)
    group: int = 1  # how many numbers share this context (a list or a range)
    after: str = ""  # bare citations: the clause after the number, the other candidate topic
    tail: str = ""  # the words right after the number as written (a title or quoted rule text)
    block: int = 0  # the comment block (offset of its first line)
    para: int = 0  # the paragraph within the block (blank comment lines separate paragraphs)
    lead: bool = False  # the number opens its comment line (after a date at most): pasted rule text
    scope: str = ""  # words of the enclosing class, function or file ("persist" in Persist.java)
    kept: str = ""  # the author's suppression comment that keeps this citation on purpose


def _num(m: re.Match) -> str:
    g = m.groupdict()
    s = g["rule"]
    if g.get("sub"):
        s += "." + g["sub"] + (g.get("letter") or "")
    return s


def _parts(m: re.Match) -> tuple[int, int | None, str | None]:
    g = m.groupdict()
    return int(g["rule"]), (int(g["sub"]) if g.get("sub") else None), g.get("letter")


def _fmt(rule: int, sub: int | None, letter: str | None) -> str:
    return str(rule) if sub is None else f"{rule}.{sub}{letter or ''}"


def _tail(line: str, end: int, first: tuple) -> tuple[list[str], int]:
    """The members of a range or pair written right after a number at ``end`` (``–d``,
    ``–4``, ``–707.4``, `` through 707.4``, ``/d``) and where it ends; none: ``([], end)``."""
    if line[end:end + 1] not in _TAIL_START:  # most citations end at ":" or a space and a word
        if line[end:end + 1] != " " or not _SPACED_TAIL.match(line, end):
            return [], end
    rule, sub, letter = first
    if letter:
        for rx in (_TO_LETTER, _ALT_LETTER):
            t = rx.match(line, end)
            if t:
                to = t.group("letter")
                if rx is _ALT_LETTER and to in LETTERS and to != letter:
                    return [_fmt(rule, sub, to)], t.end()
                if to in LETTERS and letter in LETTERS and LETTERS.index(to) > LETTERS.index(letter):
                    return [_fmt(rule, sub, c) for c in LETTERS[LETTERS.index(letter) + 1: LETTERS.index(to) + 1]], t.end()
    t = _TO_FULL.match(line, end)
    if t:
        r2, s2, l2 = int(t.group("rule")), (int(t.group("sub")) if t.group("sub") else None), t.group("letter")
        if sub is None and s2 is None:  # "Rules 500-514"
            if 0 < r2 - rule <= _MAX_RANGE:
                return [str(r) for r in range(rule + 1, r2 + 1)], t.end()
        elif sub is not None and s2 is not None and r2 >= rule:
            if r2 == rule and letter and l2 and s2 == sub and l2 in LETTERS and letter in LETTERS:
                i, j = LETTERS.index(letter), LETTERS.index(l2)
                return ([_fmt(rule, sub, c) for c in LETTERS[i + 1: j + 1]], t.end()) if j > i else ([], end)
            if r2 == rule and not letter and not l2 and 0 < s2 - sub <= _MAX_RANGE:
                return [_fmt(rule, k, None) for k in range(sub + 1, s2 + 1)], t.end()
            return [_fmt(r2, s2, l2)], t.end()  # a span we don't enumerate: its two ends
    if sub is not None and not letter:
        t = _TO_SUB.match(line, end)
        if t and 0 < int(t.group("sub")) - sub <= _MAX_RANGE:  # "707.2–4"
            return [_fmt(rule, k, None) for k in range(sub + 1, int(t.group("sub")) + 1)], t.end()
    return [], end


def _expand(line: str, m: re.Match) -> tuple[list[str], int]:
    """A number with the range or pair written after it, expanded (letters skip l and o)."""
    more, end = _tail(line, m.end(), _parts(m))
    return [_num(m)] + more, end


def _segments(text: str, fam: str):
    """(start offset, kind, text) for each comment, string and stretch of code."""
    if fam == "prose":
        yield 0, Region.COMMENT, text
        return
    pos = 0
    for m in _TOKENS[fam].finditer(text):
        if m.start() > pos:
            yield pos, Region.CODE, text[pos:m.start()]
        yield m.start(), (Region.COMMENT if m.group("c") else Region.STRING), m.group(0)
        pos = m.end()
    if pos < len(text):
        yield pos, Region.CODE, text[pos:]


_METHOD_RE = re.compile(r"\b(?:void|public|private|protected|internal|static|override|async)\b[^;=(){}\n]*?"
                        r"\b(?P<name>[A-Za-z_]\w*)\s*\(")


def _declarations(seg: str, base: int) -> list[tuple[int, str]]:
    """(offset, name) of the classes, functions and methods declared in a stretch of code."""
    out = [(base + m.start(), m.group("name")) for m in _DECL_RE.finditer(seg)]
    if "(" in seg:
        out += [(base + m.start("name"), m.group("name")) for m in _METHOD_RE.finditer(seg)]
    return sorted(out)


def scan_text(text: str, fam: str, name: str = "") -> list[RawCitation]:
    """Citations in ``text`` (a file of comment family ``fam``; ``name``: its file name, whose
    stem names what the file is about, as ``Persist.java`` does)."""
    if not _HAS_NUM.search(text):
        return []
    nl = [m.start() for m in _NEWLINE.finditer(text)]

    def where(off: int) -> tuple[int, int]:
        i = bisect.bisect_right(nl, off - 1)
        return i + 1, off - (nl[i - 1] + 1 if i else 0) + 1

    out: list[RawCitation] = []
    stem = _ident_words(Path(name).stem) if name else ""
    decls: list[tuple[int, str]] = []  # (offset, name) of every declaration met so far
    scope_of: list[tuple[int, int]] = []  # (index of the first citation, number of declarations then)
    keeps: list[tuple[int, str, str]] = []  # (line, "line" | "file", numbers) of suppression comments
    # Consecutive line comments ("//", "#", "--" on the lines one after another) form one block.
    block, last_end, last_line_comment = -1, -1, False
    carry = ""  # the previous line comment of the same block (a number wrapped after its "CR")
    for start, kind, seg in _segments(text, fam):
        if kind == Region.CODE:
            if fam != "prose":
                decls.extend(_declarations(seg, start))
            if "_" in seg and _HAS_NUM.search(seg):
                scope_of.append((len(out), len(decls)))
                out.extend(_identifiers(seg, start, kind, where, ()))
            if seg.strip():
                carry = ""
            continue
        one_line = "\n" not in seg.rstrip("\n")
        if kind == Region.COMMENT and one_line:
            gap = text[last_end:start]
            if not (last_line_comment and gap.count("\n") == 1 and not gap.strip()):
                block, carry = start, ""
            last_end, last_line_comment = start + len(seg.rstrip("\n")), True
        else:
            block, last_line_comment, carry = start, False, ""
        if kind == Region.COMMENT and "crpipe:" in seg:
            for m in _KEEP_RE.finditer(seg):
                ln, col = where(start + m.start())
                keeps.append((ln, "file" if m.group("file") else "line", m.group("nums"), col, col + len(m.group(0))))
        if not _HAS_NUM.search(seg):
            carry = seg.rstrip("\n") if one_line else ""
            continue
        scope_of.append((len(out), len(decls)))
        if kind == Region.STRING and one_line:
            lit = _LITERAL_RE.match(seg.strip())
            if lit:
                ln, col = where(start + seg.index(lit.group("rule")))
                out.append(RawCitation(ln, col, _num(lit), CitationForm.LITERAL, kind, "", None, _num(lit), block=block))
                continue
        # Within a comment or string, each physical line is its own context: a block comment
        # can hold several citations about different things.
        off, prev, para = 0, "", 0
        for line in seg.split("\n"):
            if _BLANK_COMMENT.fullmatch(line):
                para += 1
            elif _HAS_NUM.search(line):
                found = _scan_line(line, start + off, kind, where, prev, fam == "prose", prev or carry)
                if "_" in line:
                    # In a comment an identifier is a citation only where nothing else cites it.
                    have = {c.cited for c in found}
                    taken = [(c.column, c.column + len(c.written)) for c in found]
                    found.extend(c for c in _identifiers(line, start + off, kind, where, taken) if c.cited not in have)
                for c in found:
                    c.block, c.para = block, para
                    c.lead = bool(_LEAD.fullmatch(line[: c.column - 1]))
                out.extend(found)
            off += len(line) + 1
            prev = line
        carry = seg.rstrip("\n") if one_line else ""
    if not out:
        return out
    _set_scopes(out, scope_of, decls, stem)
    _group_literals(out)
    if keeps:
        _apply_keeps(out, keeps)
    return out


def _set_scopes(out: list[RawCitation], scope_of, decls, stem: str) -> None:
    """Each citation's scope: the last class, function or method declared before it, and the
    file's name (kept apart, one per line, so two names never read as one title)."""
    bounds = scope_of + [(len(out), len(decls))]
    for (i, nd), (j, _) in zip(bounds, bounds[1:]):
        names = [_ident_words(decls[nd - 1][1])] if nd else []
        scope = "\n".join(n for n in names + [stem] if n)
        for c in out[i:j]:
            c.scope = scope


def _group_literals(out: list[RawCitation]) -> None:
    """String literals on one line (``cr!("118.9a", "601.2b")``) are one list, as the members
    of a written list are.  Their only words are their scope's (the test function's name), which
    are read as a title named around them (see :meth:`Resolver._by_scope`), never as a topic."""
    per_line: dict[int, list[RawCitation]] = {}
    for c in out:
        if c.kind == CitationForm.LITERAL:
            per_line.setdefault(c.line, []).append(c)
    for cs in per_line.values():
        for c in cs:
            c.group = len(cs)


def _apply_keeps(out: list[RawCitation], keeps) -> None:
    """``crpipe: keep`` on a citation's line (or alone on the line above) keeps that line's
    citations; ``crpipe: keep-file 702.78a, 702.79`` keeps those numbers in the whole file
    (``crpipe: keep-file`` alone: every citation of the file)."""
    # The numbers a suppression names are not citations themselves.
    out[:] = [c for c in out if not any(c.line == ln and a <= c.column < b for ln, _, _, a, b in keeps)]
    lines = {c.line for c in out}
    for ln, how, nums, _, _ in keeps:
        wanted = {m.group(0) for m in _PAREN_MEMBER.finditer(nums)}
        note = f"crpipe: keep{'-file' if how == 'file' else ''} (line {ln})"
        for c in out:
            if c.kept or (wanted and c.cited not in wanted):
                continue
            if how == "file" or c.line == ln or (c.line == ln + 1 and ln not in lines):
                c.kept = note


def _identifiers(seg: str, base: int, kind: Region, where, taken) -> list[RawCitation]:
    out = []
    for m in _IDENT_RE.finditer(seg):
        ln, col = where(base + m.start())
        if any(a <= col < b for a, b in taken):
            continue
        ident = m.group(0) + _IDENT_TAIL.match(seg, m.end()).group(0)
        words = _ident_words(ident[: m.start("rule") - m.start()] + " " + ident[m.end() - m.start():])
        out.append(RawCitation(ln, col, _num(m), CitationForm.IDENTIFIER, kind, words, None, ident))
    return out


def _window(text: str, n: int = WINDOW, last: bool = False) -> str:
    """At most ``n`` words of ``text`` (its last ones with ``last``): a context is measured
    in words, so a long line does not drown the clause next to the number."""
    ws = text.split()
    if len(ws) <= n:
        return text
    return " ".join(ws[-n:] if last else ws[:n])


def _anchor_starts(line: str, above: str) -> list[re.Match]:
    """Where anchored numbers start: "CR"/"rule"/"§" (and dated notes), "see" before a subrule,
    and a number opening the line when the line above ended in "CR" (a wrapped citation)."""
    ms = list(_ANCHORED_RE.finditer(line))
    if "ee" in line:
        ms += [m for m in _SEE_RE.finditer(line) if not any(x.start("rule") == m.start("rule") for x in ms)]
    if above and _ANCHOR_AT_END.search(above):
        w = _WRAPPED_RE.match(line)
        if w and not any(x.start("rule") == w.start("rule") for x in ms):
            ms.append(w)
    return sorted(ms, key=lambda m: m.start("rule"))


def _scan_line(line: str, base: int, kind: Region, where, prev_line: str = "", prose: bool = False,
               above: str = "") -> list[RawCitation]:
    out: list[RawCitation] = []
    taken: list[tuple[int, int]] = []
    context = line.strip().strip("/*#-").strip()
    q = _QUOTE_RE.match(line)
    if q and q.group("sub"):
        ln, col = where(base + q.start("rule"))
        quote = q.group("quote").strip().rstrip("\"'`”;,)").rstrip("*/").strip()
        out.append(RawCitation(ln, col, _num(q), CitationForm.QUOTE, kind, context, quote, _num(q), tail=quote))
        taken.append((q.start("rule"), q.end("rule")))
    if prose and line.lstrip().startswith("|"):
        out.extend(_table_row(line, base, kind, where, taken))
    chains: list[list[tuple[re.Match, list[str], int]]] = []
    for m in _anchor_starts(line, above):
        if any(a <= m.start("rule") < b for a, b in taken) or (chains and m.start("rule") < chains[-1][-1][2]):
            continue
        nums, end = _expand(line, m)
        chain = [(m, nums, end)]
        while True:
            c = _CONT_RE.match(line, end)
            if not c:
                break
            nums, end = _expand(line, c)
            chain.append((c, nums, end))
        chains.append(chain)
    # Each chain's context runs from its start to the next chain (the first also takes what
    # precedes it): "See rule 601.2b for X (CR 601.2f gives the total cost)" has two topics.
    for k, chain in enumerate(chains):
        a = 0 if k == 0 else chain[0][0].start()
        b = chains[k + 1][0][0].start() if k + 1 < len(chains) else len(line)
        ctx = line[a:b].strip().strip("/*#-").strip()
        group = sum(len(ns) for _, ns, _ in chain)
        for i, (c, ns, end) in enumerate(chain):
            ln, col = where(base + c.start("rule"))
            written = line[c.start("rule"):end].strip()
            nxt = chain[i + 1][0].start() if i + 1 < len(chain) else b
            tail = line[end:nxt].strip(" :–—-,.;)(\t*/")
            for n in ns:
                out.append(RawCitation(ln, col, n, CitationForm.ANCHORED, kind, ctx, None, written, group, tail=tail))
            taken.append((c.start("rule"), end))
    lead = _LEAD_NUM_RE.match(line) if not out else None
    if lead and not any(a <= lead.start("rule") < b for a, b in taken):
        # "# 702.78 persist", "// 702.90a: exalted triggers …": the words after it are its topic.
        ln, col = where(base + lead.start("rule"))
        after = _window(_SENTENCE_END.split(line[lead.end():].strip())[0])
        out.append(RawCitation(ln, col, _num(lead), CitationForm.BARE, kind, after, None, _num(lead), 1, after, tail=after))
        taken.append((lead.start("rule"), lead.end("rule")))
    for m in (_PAREN_LIST_RE.finditer(line) if "(" in line else ()):
        if any(a <= m.start("nums") < b for a, b in taken):
            continue
        # "Undying / persist (702.93 / 702.79)": names and numbers pair in the order written.
        prev = max([b for a, b in taken if b <= m.start()], default=0)
        name = _NAMES_BEFORE.search(line[prev:m.start()].split(";")[-1])
        text = name.group(1).strip() if name else ""
        names = [x.strip() for x in re.split(r"\s*(?:/|,|&|\band\b)\s*", text) if x.strip()]
        members = list(_PAREN_MEMBER.finditer(line, m.start("nums"), m.end("nums")))
        for i, mm in enumerate(members):
            ln, col = where(base + mm.start())
            own = names[i] if len(names) == len(members) else text
            out.append(RawCitation(ln, col, mm.group(0), CitationForm.BARE, kind, own, None, m.group("nums"), len(members)))
        taken.append((m.start("nums"), m.end()))
    for m in (_TITLED_RE.finditer(line) if ('"' in line or "“" in line) else ()):
        if not any(a <= m.start("rule") < b for a, b in taken):
            ln, col = where(base + m.start("rule"))
            out.append(RawCitation(ln, col, _num(m), CitationForm.ANCHORED, kind, m.group("title"), None, _num(m),
                                   tail=m.group("title")))
            taken.append((m.start("rule"), m.end()))
    # "Deathtouch (702.2), Defender (702.3)": each number names what precedes it.
    for m in (_PAREN_RE.finditer(line) if "(" in line else ()):
        if any(a <= m.start("rule") < b for a, b in taken):
            continue
        prev = max([b for a, b in taken if b <= m.start()], default=0)
        name = _NAME_BEFORE.search(line[prev:m.start()].split(",")[-1].split(";")[-1])
        ln, col = where(base + m.start("rule"))
        out.append(RawCitation(ln, col, _num(m), CitationForm.BARE, kind, name.group(1).strip() if name else "", None,
                               _num(m)))
        taken.append((m.start("rule"), m.end()))
    # Bare lettered subrules cite the clause before them ("X counts as 0 (202.3e)"); numbers
    # joined by connectors ("(704.5q, then 702.79a)", "616.1a-e") share that clause.
    bare = [m for m in _LETTERED_RE.finditer(line) if not any(a <= m.start() < b for a, b in taken)]
    clusters: list[list[tuple[re.Match, list[str], int]]] = []
    for m in bare:
        if clusters and m.start() < clusters[-1][-1][2]:
            continue  # the end of a range already read
        nums, end = _expand(line, m)
        if clusters and _CONNECTOR.fullmatch(line[clusters[-1][-1][2]:m.start()]):
            clusters[-1].append((m, nums, end))
        else:
            clusters.append([(m, nums, end)])
    for cl in clusters:
        start, end = cl[0][0].start(), cl[-1][2]
        prev = max([b for a, b in taken if b <= start], default=0)
        before = line[prev:start]
        if prev == 0 and len(_WORDISH.findall(before)) < 4 and prev_line:
            # A wrapped sentence: its start is on the line before.
            before = _SENTENCE_END.split(prev_line)[-1] + " " + before
        nxt = min([a for a, b in taken if a >= end] + [len(line)])
        after = _SENTENCE_END.split(line[end:nxt].lstrip(").,;: "))[0]
        before = _window(before.strip().strip("/*#-(").strip(), last=True)
        after = _window(after)
        group = sum(len(ns) for _, ns, _ in cl)
        for m, ns, e in cl:
            ln, col = where(base + m.start())
            for n in ns:
                out.append(RawCitation(ln, col, n, CitationForm.BARE, kind, before, None, line[m.start():e], group,
                                       after.strip(), tail=after.strip()))
        taken.append((start, end))
    return out


def _table_row(line: str, base: int, kind: Region, where, taken) -> list[RawCitation]:
    """A Markdown table row citing a rule in a cell of its own: the other cells are its topic."""
    cells = line.strip().strip("|").split("|")
    out, pos = [], line.index("|") + 1
    for i, cell in enumerate(cells):
        m = _TABLE_CELL.match(cell)
        if m and not any(a <= pos + m.start("rule") < b for a, b in taken):
            ln, col = where(base + pos + m.start("rule"))
            others = " ".join(c.strip() for j, c in enumerate(cells) if j != i)
            out.append(RawCitation(ln, col, _num(m), CitationForm.BARE, kind, others, None, _num(m), tail=others))
            taken.append((pos + m.start("rule"), pos + m.end("rule")))
        pos += len(cell) + 1
    return out


def _ident_words(ident: str) -> str:
    s = re.sub(r"[_\d]+", " ", ident)
    s = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", s)
    return " ".join(s.split()).lower()


#: The largest source file read (generated code aside, source files are far smaller).
MAX_SOURCE_BYTES = 2 << 20


def read_source(path: Path, max_bytes: int = MAX_SOURCE_BYTES) -> tuple[bytes | None, str | None]:
    """``(bytes, None)`` for a regular file under the cap, else ``(None, why it was skipped)``:
    the one bounded reader opens only regular files (a FIFO would block, a device never ends)
    and stops one byte past the cap."""
    try:
        return read_bounded(path, max_bytes, what="source file", env=None), None
    except InputError as e:
        return None, e.message


def scan_file(path: Path, max_bytes: int = MAX_SOURCE_BYTES,
              skipped: list[tuple[Path, str]] | None = None) -> list[RawCitation] | None:
    """Citations in one file, or None when the file is not source text we read (a special,
    oversized or unreadable file is added to ``skipped`` with the reason)."""
    fam = family(path)
    if fam is None:
        return None
    data, why = read_source(path, max_bytes)
    if data is None:
        if skipped is not None:
            skipped.append((path, why))
        return None
    if b"\x00" in data[:4096]:
        return None
    return scan_text(data.decode("utf-8", errors="replace"), fam, path.name)
