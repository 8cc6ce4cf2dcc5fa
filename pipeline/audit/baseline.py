"""Baselines: accept today's findings once, then hear only about new ones.

A baseline is a JSON file of the findings of one run, each recognised by a fingerprint of what
it is — the file (relative to the baseline's folder), the number, the status and suggestion,
and the citing line's words — not by its line number, so code added above a known finding does
not make it new, while an edited citation (another number, other words, another verdict) is new.
Fingerprints are matched as a multiset: two identical lines in one file are two findings.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..io import atomic_text_writer, read_bounded
from .report import Citation

FORMAT = "crpipe-audit-baseline"
VERSION = 1
MAX_BYTES = 64 << 20


def finding_key(name: str, c: Citation) -> str:
    """What a finding is, whatever line it is on now (``name``: its file, relative to the
    baseline's folder)."""
    key = "\x1f".join([name, c.cited, c.status, c.suggested or "", " ".join(c.text.split())])
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]


#: One accepted finding: (file relative to the baseline's folder, line, number, status, suggested, fingerprint).
Row = tuple[str, int, str, str, "str | None", str]


def row(name: str, c: Citation, fp: str) -> Row:
    return (name, c.line, c.cited, c.status, c.suggested, fp)


@dataclass
class Baseline:
    path: Path
    rows: list[Row] = field(default_factory=list)  # compact: a large tree's baseline is 100,000s of rows
    edition: str = ""

    @property
    def folder(self) -> Path:
        return Path(os.path.abspath(self.path)).parent

    def name(self, base: Path, c: Citation) -> str:
        """The citation's file relative to the baseline's folder."""
        return Path(os.path.relpath(os.path.abspath(base / c.file), self.folder)).as_posix()

    @classmethod
    def read(cls, path: Path) -> "Baseline":
        data = read_bounded(path, MAX_BYTES, what="baseline", env=None)
        try:
            doc = json.loads(data.decode("utf-8"))
        except UnicodeDecodeError:
            raise InputError("not a baseline file (not UTF-8 text)", path) from None
        except json.JSONDecodeError as e:
            raise InputError(f"not a baseline file (bad JSON at line {e.lineno})", path) from None
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise InputError(f"not a crpipe audit baseline (no \"format\": \"{FORMAT}\")", path)
        if doc.get("version") != VERSION:
            raise InputError(f"baseline version {str(doc.get('version'))[:20]!r} is not {VERSION}", path)
        found = doc.get("findings")
        if not isinstance(found, list) or not all(
                isinstance(r, dict) and isinstance(r.get("fingerprint"), str) and isinstance(r.get("file"), str)
                for r in found):
            raise InputError("baseline findings must be a list of objects with a file and a fingerprint", path)
        rows = [(r["file"], r["line"] if isinstance(r.get("line"), int) else 0, str(r.get("cited", "")),
                 str(r.get("status", "")), r["suggested"] if isinstance(r.get("suggested"), str) else None,
                 r["fingerprint"]) for r in found]
        edition = doc["edition"] if isinstance(doc.get("edition"), str) else ""
        return cls(Path(path), rows, edition)

    @classmethod
    def empty(cls, path: Path) -> "Baseline":
        return cls(Path(path))


def write(baseline: Baseline, rows: list[Row], audited: set[str], edition: str) -> Path:
    """Write the baseline: this run's ``rows`` plus the earlier rows of files this run did not
    audit (a hook that checks three files keeps the rest of the tree's accepted findings), sorted,
    one per line, streamed to a temporary file renamed into place.  Only a missing file or an
    earlier baseline is written over (``Baseline.read`` refused anything else before the run)."""
    from .stream import ListStream  # noqa: PLC0415 - only a run that writes a baseline

    keep = [r for r in baseline.rows if r[0] not in audited]
    allrows = sorted(keep + rows, key=lambda r: (r[0], r[1], r[2], r[5]))
    with atomic_text_writer(baseline.path) as out:
        s = ListStream(out, {"format": FORMAT, "version": VERSION, "edition": edition,
                             "tool": "crpipe audit-citations"}, "findings")
        for f, line, cited, status, suggested, fp in allrows:
            s.add({"file": f, "line": line, "cited": cited, "status": status, "suggested": suggested,
                   "fingerprint": fp})
        s.close({})
    return baseline.path


class Matcher:
    """Marks each finding known (in the baseline, not yet matched) or new, as a run goes."""

    def __init__(self, baseline: Baseline):
        self.left = Counter(r[5] for r in baseline.rows)
        self.new = 0
        self.known = 0

    def is_new(self, fp: str) -> bool:
        if self.left[fp] > 0:
            self.left[fp] -= 1
            self.known += 1
            return False
        self.new += 1
        return True

    def fixed(self, baseline: Baseline, audited: set[str]) -> int:
        """Accepted findings of the audited files no longer found (fixed, or edited into new ones)."""
        fps = {r[5] for r in baseline.rows if r[0] in audited}
        return sum(self.left[fp] for fp in fps)
