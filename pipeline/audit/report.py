"""Audit a source tree: scan every file, resolve every citation, summarise per file.

:class:`Audit` yields one file's results at a time, so a caller can write them out as they come
(the command line streams its JSON, SARIF and lines: a 50,000-file tree is never held whole);
:func:`audit_tree` collects them into an :class:`AuditReport` for library use and tests.

Two passes per file: each citation on its own evidence, then each paragraph of pasted rule
text that an older edition's wording, title or date placed is read in that edition's numbering,
so "rules 601.2b and 601.2e-g" inside a 2013 quote of the madness rule are 601.2f-h today.
A range whose members fail says which; each file lists which citation follows which numbering.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..model import Document
from .history import RuleHistory
from .resolve import Basis, CitationStatus, Resolver
from ..serialize import INTERNAL, OMIT_DEFAULT, fields_data, json_field, to_data
from .scan import CitationForm, Region, family, read_source, scan_text

_SKIP_DIRS = {"node_modules", "target", "__pycache__", "dist", "build", "venv"}


@dataclass(slots=True)
class Citation:  # not frozen: a frozen init costs, and there are 100,000s
    file: str
    line: int
    column: int
    cited: str
    written: str
    kind: CitationForm
    where: Region
    status: CitationStatus
    suggested: str | None
    evidence: str
    score: float | None = field(metadata=json_field(digits=3))
    numbering: str | None
    kept: str = field(default="", metadata=OMIT_DEFAULT)  # the author's "crpipe: keep" comment: reported, never a finding
    text: str = field(default="", metadata=INTERNAL)  # the citing line as written (what a baseline recognises it by)

    @property
    def is_problem(self) -> bool:
        return self.status != CitationStatus.OK and not self.kept

    def to_dict(self) -> dict:
        return to_data(self)


@dataclass
class FileSummary:
    file: str
    citations: int = 0
    numberings: list[str] = field(default_factory=list)
    by_numbering: dict[str, list[str]] = field(default_factory=dict)  # numbering -> ["line:number"]

    def describe_numberings(self) -> list[str]:
        """One line per numbering with the citations that follow it ("2011-06-17…2013-04-29:
        21:702.53, 23:702.53a"), for the table of files that mix editions."""
        return [f"{k}: {', '.join(self.by_numbering[k])}" for k in sorted(self.by_numbering)]

    def __json__(self) -> dict:
        return {**fields_data(self), "mixes_editions": len(self.numberings) > 1}

    def to_dict(self) -> dict:
        return to_data(self)


@dataclass
class AuditReport:
    root: str
    edition: str
    history: tuple[str, str] | None = field(metadata=json_field(convert=lambda h: h or None))
    citations: list[Citation]
    files: list[FileSummary] = field(metadata=json_field(convert=lambda fs: [f for f in fs if f.citations]))
    scanned: int = field(metadata=json_field(name="files_scanned"))
    #: Files not read: special, oversized, unreadable.
    skipped: list[dict] = field(default_factory=list, metadata=json_field(name="files_skipped"))

    @property
    def problems(self) -> list[Citation]:
        return [c for c in self.citations if c.is_problem]

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for c in self.citations:
            out[c.status] = out.get(c.status, 0) + 1
        return dict(sorted(out.items()))

    def __json__(self) -> dict:
        return {**fields_data(self), "counts": to_data(self.counts())}

    def to_dict(self) -> dict:
        return to_data(self)


def iter_files(root: Path):
    if root.is_file():
        yield root
        return
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith(".") and x not in _SKIP_DIRS)
        for f in sorted(files):
            yield Path(d) / f


class Audit:
    """One audit run over ``paths`` (folders or files): :meth:`files` yields each file's
    summary and citations in a fixed order.  File names are relative to ``base`` (the one
    folder audited, else the current folder), and a baseline records them relative to its own
    folder, so a baseline written for the whole tree
    recognises the files a pre-commit hook passes one by one."""

    def __init__(self, paths: list[Path], doc: Document, editions: Path | None = None,
                 cache_dir: Path | None = None, base: Path | None = None):
        self.paths = [Path(p) for p in paths]
        self.history = RuleHistory(editions, cache_dir) if editions else None
        self.resolver = Resolver(doc, self.history)
        self.edition = doc.meta.effective_date or ""
        one = self.paths[0] if len(self.paths) == 1 else None
        # One folder: names within it (SARIF's SRCROOT).  Files (a hook's): names from the
        # current folder, as git and the hook wrote them.
        self.base = Path(base) if base else (one if one and one.is_dir() else Path.cwd())
        self.scanned = 0
        self.skipped: list[dict] = []
        self.span = (self.history.labels[0], self.history.labels[-1]) if self.history else None

    def name(self, path: Path) -> str:
        # Absolute, not resolved: a symlink in the tree keeps its own name (it may point anywhere).
        try:
            return Path(os.path.abspath(path)).relative_to(os.path.abspath(self.base)).as_posix()
        except ValueError:
            return path.as_posix()

    def files(self) -> Iterator[tuple[FileSummary, list[Citation]]]:
        seen: set[Path] = set()  # a file named twice (a folder and a file in it) is read once
        for top in self.paths:
            for path in iter_files(top):
                if len(self.paths) > 1:
                    if path.resolve() in seen:
                        continue
                    seen.add(path.resolve())
                got = self._file(path)
                if got is not None:
                    yield got

    def _file(self, path: Path) -> tuple[FileSummary, list[Citation]] | None:
        fam = family(path)
        if fam is None:
            return None
        data, why = read_source(path)
        if data is None:
            self.skipped.append({"file": self.name(path), "reason": why})
            return None
        if b"\x00" in data[:4096]:
            return None
        text = data.decode("utf-8", errors="replace")
        raw = scan_text(text, fam, path.name)
        self.scanned += 1
        rel = self.name(path)
        summary = FileSummary(rel)
        if not raw:
            return summary, []
        lines = text.split("\n")
        resolver = self.resolver
        resolved = _resolve_file(resolver, raw)
        by_numbering: dict[str, list[str]] = {}
        out: list[Citation] = []
        for rc, res in zip(raw, resolved):
            if (rc.kind == CitationForm.IDENTIFIER and res.status == CitationStatus.MISSING
                    and rc.cited.split(".")[0] not in resolver.table):
                continue  # "rgb_255_128": digits in a name; 255 is no rule number
            if rc.kind == CitationForm.LITERAL and res.status == CitationStatus.MISSING:
                continue  # "100.25" alone in a string is data (a price, a version), not a citation
            line = lines[rc.line - 1] if rc.line <= len(lines) else ""
            out.append(Citation(rel, rc.line, rc.column, rc.cited, rc.written, rc.kind, rc.where, res.status,
                                res.suggested, res.evidence, res.score, res.numbering, rc.kept, line.strip()))
            summary.citations += 1
            if res.numbering:
                by_numbering.setdefault(res.numbering, []).append(f"{rc.line}:{rc.cited}")
        summary.numberings = sorted(by_numbering)
        summary.by_numbering = by_numbering
        return summary, out


def audit_tree(root: Path, doc: Document, editions: Path | None = None, cache_dir: Path | None = None) -> AuditReport:
    """Every file's results collected (library use, tests); see :class:`Audit` to stream them."""
    root = Path(root)
    run = Audit([root], doc, editions, cache_dir)
    citations: list[Citation] = []
    files: list[FileSummary] = []
    for summary, cs in run.files():
        files.append(summary)
        citations.extend(cs)
    return AuditReport(str(root), run.edition, run.span, citations, files, run.scanned, run.skipped)


def _resolve_file(resolver: Resolver, raw: list) -> list:
    """Resolutions of one file's citations: each on its own, then re-read in the numbering
    of its comment block where the block quotes an older edition; ranges name their failures."""
    res = [resolver.resolve(rc) for rc in raw]
    if resolver.history is not None:
        # A paragraph of pasted rule text (a number opening the line, with its older wording,
        # title or date) is read in the numbering of the block's pasted rules from there on.
        spans: dict[int, list[tuple[str, str]]] = {}
        starts: dict[tuple[int, int], int] = {}
        for rc, r in zip(raw, res):
            if (rc.where != Region.CODE and rc.lead and r.span and r.basis in (Basis.QUOTE, Basis.TITLE, Basis.DATE)
                    and r.status != CitationStatus.OK):
                spans.setdefault(rc.block, []).append(r.span)
                key = (rc.block, rc.para)
                starts[key] = min(starts.get(key, rc.line), rc.line)
        for i, rc in enumerate(raw):
            first = starts.get((rc.block, rc.para))
            if (first is not None and first <= rc.line and rc.where != Region.CODE
                    and res[i].basis in (Basis.TOPIC, Basis.NUMBER)):
                again = resolver.resolve(rc, _block_edition(spans[rc.block]))
                if again.basis == Basis.BLOCK:
                    res[i] = again
    # A range or pair: its failing members are named on each of them.
    groups: dict[tuple, list[int]] = {}
    for i, rc in enumerate(raw):
        if rc.group > 1 and any(x in rc.written for x in "-–—/") or " through " in rc.written:
            groups.setdefault((rc.line, rc.column, rc.written), []).append(i)
    for idx in groups.values():
        bad = [raw[i].cited for i in idx if res[i].status != CitationStatus.OK]
        if bad and len(idx) > 1:
            note = f" [{raw[idx[0]].written}: {len(bad)} of {len(idx)} members need attention: {', '.join(bad)}]"
            for i in idx:
                if res[i].status != CitationStatus.OK:
                    res[i] = replace(res[i], evidence=res[i].evidence + note)
    return res


def _block_edition(spans: list[tuple[str, str]]) -> str:
    """The edition a block of pasted rules is read in: the earliest end among their editions
    (pasted rules are as recent as their oldest wording)."""
    return min(b for _, b in spans)
