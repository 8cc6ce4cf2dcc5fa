"""Audit a source tree: scan every file, resolve every citation, summarise per file.

Two passes per file: each citation on its own evidence, then each paragraph of pasted rule
text that an older edition's wording, title or date placed is read in that edition's numbering,
so "rules 601.2b and 601.2e-g" inside a 2013 quote of the madness rule are 601.2f-h today.
A range whose members fail says which; each file lists which citation follows which numbering.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..model import Document
from .history import RuleHistory
from .resolve import Resolver
from .scan import scan_file

_SKIP_DIRS = {"node_modules", "target", "__pycache__", "dist", "build", "venv"}


@dataclass(slots=True)
class Citation:  # not frozen: a frozen init costs, and there are 100,000s
    file: str
    line: int
    column: int
    cited: str
    written: str
    kind: str
    where: str
    status: str
    suggested: str | None
    evidence: str
    score: float | None
    numbering: str | None

    def to_dict(self) -> dict:
        return {"file": self.file, "line": self.line, "column": self.column, "cited": self.cited,
                "written": self.written, "kind": self.kind, "where": self.where, "status": self.status,
                "suggested": self.suggested, "evidence": self.evidence,
                "score": round(self.score, 3) if self.score is not None else None, "numbering": self.numbering}


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

    def to_dict(self) -> dict:
        return {"file": self.file, "citations": self.citations, "numberings": self.numberings,
                "mixes_editions": len(self.numberings) > 1,
                "by_numbering": {k: self.by_numbering[k] for k in sorted(self.by_numbering)}}


@dataclass
class AuditReport:
    root: str
    edition: str
    history: tuple[str, str] | None
    citations: list[Citation]
    files: list[FileSummary]
    scanned: int
    skipped: list[dict] = field(default_factory=list)  # files not read: special, oversized, unreadable

    @property
    def problems(self) -> list[Citation]:
        return [c for c in self.citations if c.status != "ok"]

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for c in self.citations:
            out[c.status] = out.get(c.status, 0) + 1
        return dict(sorted(out.items()))

    def to_dict(self) -> dict:
        return {"root": self.root, "edition": self.edition,
                "history": list(self.history) if self.history else None, "files_scanned": self.scanned,
                "files_skipped": self.skipped,
                "counts": self.counts(), "citations": [c.to_dict() for c in self.citations],
                "files": [f.to_dict() for f in self.files if f.citations]}


def iter_files(root: Path):
    if root.is_file():
        yield root
        return
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith(".") and x not in _SKIP_DIRS)
        for f in sorted(files):
            yield Path(d) / f


def audit_tree(root: Path, doc: Document, editions: Path | None = None, cache_dir: Path | None = None) -> AuditReport:
    root = Path(root)
    history = RuleHistory(editions, cache_dir) if editions else None
    resolver = Resolver(doc, history)
    base = root if root.is_dir() else root.parent
    citations: list[Citation] = []
    files: list[FileSummary] = []
    scanned = 0
    skipped: list[tuple[Path, str]] = []
    for path in iter_files(root):
        raw = scan_file(path, skipped=skipped)
        if raw is None:
            continue
        scanned += 1
        rel = path.relative_to(base).as_posix()
        summary = FileSummary(rel)
        resolved = _resolve_file(resolver, raw)
        by_numbering: dict[str, list[str]] = {}
        for rc, res in zip(raw, resolved):
            if rc.kind == "identifier" and res.status == "missing" and rc.cited.split(".")[0] not in resolver.table:
                continue  # "rgb_255_128": digits in a name; 255 is no rule number
            if rc.kind == "literal" and res.status == "missing":
                continue  # "100.25" alone in a string is data (a price, a version), not a citation
            citations.append(Citation(rel, rc.line, rc.column, rc.cited, rc.written, rc.kind, rc.where, res.status,
                                      res.suggested, res.evidence, res.score, res.numbering))
            summary.citations += 1
            if res.numbering:
                by_numbering.setdefault(res.numbering, []).append(f"{rc.line}:{rc.cited}")
        summary.numberings = sorted(by_numbering)
        summary.by_numbering = by_numbering
        files.append(summary)
    span = (history.labels[0], history.labels[-1]) if history else None
    return AuditReport(str(root), doc.meta.effective_date or "", span, citations, files, scanned,
                       [{"file": p.relative_to(base).as_posix(), "reason": why} for p, why in skipped])


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
            if rc.where != "code" and rc.lead and r.span and r.basis in ("quote", "title", "date") and r.status != "ok":
                spans.setdefault(rc.block, []).append(r.span)
                key = (rc.block, rc.para)
                starts[key] = min(starts.get(key, rc.line), rc.line)
        for i, rc in enumerate(raw):
            first = starts.get((rc.block, rc.para))
            if first is not None and first <= rc.line and rc.where != "code" and res[i].basis in ("topic", "number"):
                again = resolver.resolve(rc, _block_edition(spans[rc.block]))
                if again.basis == "block":
                    res[i] = again
    # A range or pair: its failing members are named on each of them.
    groups: dict[tuple, list[int]] = {}
    for i, rc in enumerate(raw):
        if rc.group > 1 and any(x in rc.written for x in "-–—/") or " through " in rc.written:
            groups.setdefault((rc.line, rc.column, rc.written), []).append(i)
    for idx in groups.values():
        bad = [raw[i].cited for i in idx if res[i].status != "ok"]
        if bad and len(idx) > 1:
            note = f" [{raw[idx[0]].written}: {len(bad)} of {len(idx)} members need attention: {', '.join(bad)}]"
            for i in idx:
                if res[i].status != "ok":
                    res[i] = replace(res[i], evidence=res[i].evidence + note)
    return res


def _block_edition(spans: list[tuple[str, str]]) -> str:
    """The edition a block of pasted rules is read in: the earliest end among their editions
    (pasted rules are as recent as their oldest wording)."""
    return min(b for _, b in spans)
