"""Audit a source tree: scan every file, resolve every citation, summarise per file."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..model import Document
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

    def to_dict(self) -> dict:
        return {"file": self.file, "citations": self.citations, "numberings": self.numberings,
                "mixes_editions": len(self.numberings) > 1}


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
    from .history import RuleHistory

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
        numberings: set[str] = set()
        for rc in raw:
            res = resolver.resolve(rc)
            citations.append(Citation(rel, rc.line, rc.column, rc.cited, rc.written, rc.kind, rc.where, res.status,
                                      res.suggested, res.evidence, res.score, res.numbering))
            summary.citations += 1
            if res.numbering:
                numberings.add(res.numbering)
        summary.numberings = sorted(numberings)
        files.append(summary)
    span = (history.labels[0], history.labels[-1]) if history else None
    return AuditReport(str(root), doc.meta.effective_date or "", span, citations, files, scanned,
                       [{"file": p.relative_to(base).as_posix(), "reason": why} for p, why in skipped])
