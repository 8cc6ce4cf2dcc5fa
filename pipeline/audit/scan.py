"""Find rule citations in source code of any language.

A file is cut into comments, strings and code with one regular expression per comment
syntax family (C-like ``//`` and ``/* */``, ``#`` with Python's triple quotes, Lua/SQL
``--``); prose files (Markdown, text) are one big comment.  Citations are then read from

* anchored numbers: ``CR 702.19b``, ``Rule 704.5f``, ``rules 601.2b and 601.2c``, ``§ 117.3``,
  with lists (``CR 701.22a / CR 701.25a``, ``CR 120.3 + CR 119.3a``) and letter ranges
  (``601.2a–d``, skipping l and o) — in comments and strings (doc comments, log messages);
* quoted rule text led by its number (``"702.53a Haunt is a triggered ability…"``) at the
  start of a comment or string;
* a lettered subrule without any cue (``(601.2f)``), by its shape, in comments and strings;
* numbers baked into identifiers (``stateBasedAction704_5r``) — in code only.

Other bare numbers (``x = 100.5``, version strings, "702" alone) are never citations.
"""

from __future__ import annotations

import bisect
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from ..rulenum import LETTERS

NUM = r"(?<![\w.])(?P<rule>[1-9]\d{2})(?:\.(?P<sub>\d{1,3})(?P<letter>[a-z])?)?(?![\w]|\.\d)"
_NUM_RE = re.compile(NUM)
_ANCHOR = r"(?:\b(?:CR|C\.R\.|[Rr]ules?|RULES?|[Ss]ection)\s*#?\s*|§\s*)"
_RANGE = r"(?:[-–](?P<to>[a-z])(?![\w]))?"
_ANCHORED_RE = re.compile(_ANCHOR + NUM + _RANGE)
_CONT_RE = re.compile(r"\s*(?:,|/|\+|&|\band\b|\bor\b)\s*(?:" + _ANCHOR + r")?" + NUM + _RANGE)
_QUOTE_RE = re.compile(r"^[\s*/#!\-\[\]\"'`“]*" + NUM + r"\.?\s+(?P<quote>[A-Z“\"'][^\n]{12,})")
# A lettered subrule ("(see 601.2b)", "per 702.79a") is a citation by its shape alone.
_LETTERED_RE = re.compile(r"(?<![\w.])(?P<rule>[1-9]\d{2})\.(?P<sub>\d{1,3})(?P<letter>[a-z])(?![\w]|\.\d)" + _RANGE)
_CONNECTOR = re.compile(r"[\s,;/+&]*(?:(?:and|or|then|to)[\s,]*)?")
_WORDISH = re.compile(r"[A-Za-z]{3,}")
_SENTENCE_END = re.compile(r"(?<=[.;!?])\s+")
_IDENT_RE = re.compile(r"\b[A-Za-z_]*[A-Za-z](?:_)?(?P<rule>[1-9]\d{2})_(?P<sub>\d{1,3})(?P<letter>[a-z])?\b")
_HAS_NUM = re.compile(r"[1-9]\d{2}")
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


@dataclass(slots=True)
class RawCitation:  # not frozen: a frozen init costs, and there are 100,000s
    line: int
    column: int
    cited: str  # one rule number (ranges and lists are expanded)
    kind: str  # anchored | bare (a lettered subrule without "CR"/"rule") | quote | identifier
    where: str  # comment | string | code
    context: str  # the comment/string/identifier text around it
    quote: str | None = None
    written: str = ""  # the text as written (a range or list member shows its source)
    group: int = 1  # how many numbers share this context (a list or a range)
    after: str = ""  # bare citations: the clause after the number, the other candidate topic


def _num(m: re.Match) -> str:
    s = m.group("rule")
    if m.group("sub"):
        s += "." + m.group("sub") + (m.group("letter") or "")
    return s


def _expand(m: re.Match) -> list[str]:
    """One number, or a letter range expanded with l and o skipped (``704.5k–m``)."""
    first = _num(m)
    to = m.group("to") if "to" in m.re.groupindex else None
    letter = m.group("letter")
    if not (to and letter and letter in LETTERS and to in LETTERS and LETTERS.index(to) > LETTERS.index(letter)):
        return [first]
    base = first[:-1]
    return [base + c for c in LETTERS[LETTERS.index(letter): LETTERS.index(to) + 1]]


def _segments(text: str, fam: str):
    """(start offset, kind, text) for each comment, string and stretch of code."""
    if fam == "prose":
        yield 0, "comment", text
        return
    pos = 0
    for m in _TOKENS[fam].finditer(text):
        if m.start() > pos:
            yield pos, "code", text[pos:m.start()]
        yield m.start(), ("comment" if m.group("c") else "string"), m.group(0)
        pos = m.end()
    if pos < len(text):
        yield pos, "code", text[pos:]


def scan_text(text: str, fam: str) -> list[RawCitation]:
    if not _HAS_NUM.search(text):
        return []
    nl = [m.start() for m in _NEWLINE.finditer(text)]

    def where(off: int) -> tuple[int, int]:
        i = bisect.bisect_right(nl, off - 1)
        return i + 1, off - (nl[i - 1] + 1 if i else 0) + 1

    out: list[RawCitation] = []
    for start, kind, seg in _segments(text, fam):
        if not _HAS_NUM.search(seg):
            continue
        if kind == "code":
            for m in _IDENT_RE.finditer(seg):
                ln, col = where(start + m.start())
                ident = m.group(0)
                words = _ident_words(ident[: m.start("rule") - m.start()])
                out.append(RawCitation(ln, col, _num(m), "identifier", kind, words, None, ident))
            continue
        # Within a comment or string, each physical line is its own context: a block comment
        # can hold several citations about different things.
        off, prev = 0, ""
        for line in seg.split("\n"):
            if _HAS_NUM.search(line):
                out.extend(_scan_line(line, start + off, kind, where, prev))
            off += len(line) + 1
            prev = line
    return out


def _scan_line(line: str, base: int, kind: str, where, prev_line: str = "") -> list[RawCitation]:
    out: list[RawCitation] = []
    taken: list[tuple[int, int]] = []
    context = line.strip().strip("/*#-").strip()
    q = _QUOTE_RE.match(line)
    if q and q.group("sub"):
        ln, col = where(base + q.start("rule"))
        quote = q.group("quote").strip().rstrip("\"'`”;,)").rstrip("*/").strip()
        out.append(RawCitation(ln, col, _num(q), "quote", kind, context, quote, _num(q)))
        taken.append((q.start("rule"), q.end("rule")))
    chains: list[list[re.Match]] = []
    for m in _ANCHORED_RE.finditer(line):
        if any(a <= m.start("rule") < b for a, b in taken) or (chains and m.start() < chains[-1][-1].end()):
            continue
        chain = [m]
        end = m.end()
        while True:
            c = _CONT_RE.match(line, end)
            if not c:
                break
            chain.append(c)
            end = c.end()
        chains.append(chain)
    # Each chain's context runs from its start to the next chain (the first also takes what
    # precedes it): "See rule 601.2b for X (CR 601.2f gives the total cost)" has two topics.
    for k, chain in enumerate(chains):
        a = 0 if k == 0 else chain[0].start()
        b = chains[k + 1][0].start() if k + 1 < len(chains) else len(line)
        ctx = line[a:b].strip().strip("/*#-").strip()
        expanded = [(c, _expand(c)) for c in chain]
        group = sum(len(ns) for _, ns in expanded)
        for c, ns in expanded:
            ln, col = where(base + c.start("rule"))
            written = line[c.start("rule"):c.end()].strip()
            for n in ns:
                out.append(RawCitation(ln, col, n, "anchored", kind, ctx, None, written, group))
            taken.append((c.start("rule"), c.end()))
    # Bare lettered subrules cite the clause before them ("X counts as 0 (202.3e)"); numbers
    # joined by connectors ("(704.5q, then 702.79a)", "616.1a-e") share that clause.
    bare = [m for m in _LETTERED_RE.finditer(line) if not any(a <= m.start() < b for a, b in taken)]
    clusters: list[list[re.Match]] = []
    for m in bare:
        if clusters and _CONNECTOR.fullmatch(line[clusters[-1][-1].end():m.start()]):
            clusters[-1].append(m)
        else:
            clusters.append([m])
    for cl in clusters:
        start, end = cl[0].start(), cl[-1].end()
        prev = max([b for a, b in taken if b <= start], default=0)
        before = line[prev:start]
        if prev == 0 and len(_WORDISH.findall(before)) < 4 and prev_line:
            # A wrapped sentence: its start is on the line before.
            before = _SENTENCE_END.split(prev_line)[-1] + " " + before
        nxt = min([a for a, b in taken if a >= end] + [len(line)])
        after = _SENTENCE_END.split(line[end:nxt].lstrip(").,;: "))[0]
        before = before.strip().strip("/*#-(").strip()
        members = [(m, _expand(m)) for m in cl]
        group = sum(len(ns) for _, ns in members)
        for m, ns in members:
            ln, col = where(base + m.start())
            for n in ns:
                out.append(RawCitation(ln, col, n, "bare", kind, before, None, m.group(0), group, after.strip()))
        taken.append((start, end))
    return out


def _ident_words(ident: str) -> str:
    s = re.sub(r"[_\d]+", " ", ident)
    s = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", s)
    return s.strip().lower()


#: The largest source file read (generated code aside, source files are far smaller).
MAX_SOURCE_BYTES = 2 << 20


def read_source(path: Path, max_bytes: int = MAX_SOURCE_BYTES) -> tuple[bytes | None, str | None]:
    """``(bytes, None)`` for a regular file under the cap, else ``(None, why it was skipped)``.

    Only regular files are opened (a FIFO would block, a device never ends), the size is
    checked before reading and the read itself stops one byte past the cap."""
    try:
        st = path.stat()
    except OSError as e:
        return None, f"unreadable ({e.strerror})"
    if not stat.S_ISREG(st.st_mode):
        kind = "a pipe" if stat.S_ISFIFO(st.st_mode) else "a device" if (
            stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)) else "a socket" if stat.S_ISSOCK(st.st_mode) else "special"
        return None, f"not a regular file ({kind})"
    if st.st_size > max_bytes:
        return None, f"larger than {max_bytes >> 20} MB ({st.st_size / 2**20:.0f} MB)"
    try:
        with open(path, "rb") as f:
            data = f.read(max_bytes + 1)
    except OSError as e:
        return None, f"unreadable ({e.strerror})"
    if len(data) > max_bytes:
        return None, f"larger than {max_bytes >> 20} MB (grew while read)"
    return data, None


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
    return scan_text(data.decode("utf-8", errors="replace"), fam)
