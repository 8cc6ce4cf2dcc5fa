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
from ..io import read_bounded, write_json
from .report import Citation

FORMAT = "crpipe-audit-baseline"
VERSION = 1
MAX_BYTES = 64 << 20


def finding_key(name: str, c: Citation) -> str:
    """What a finding is, whatever line it is on now (``name``: its file, relative to the
    baseline's folder)."""
    key = "\x1f".join([name, c.cited, c.status, c.suggested or "", " ".join(c.text.split())])
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]


@dataclass
class Baseline:
    path: Path
    rows: list[dict] = field(default_factory=list)
    edition: str = ""

    @property
    def folder(self) -> Path:
        return self.path.resolve().parent

    def name(self, base: Path, c: Citation) -> str:
        """The citation's file relative to the baseline's folder."""
        return Path(os.path.relpath((base / c.file).resolve(), self.folder)).as_posix()

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
        rows = doc.get("findings")
        if not isinstance(rows, list) or not all(
                isinstance(r, dict) and isinstance(r.get("fingerprint"), str) and isinstance(r.get("file"), str)
                for r in rows):
            raise InputError("baseline findings must be a list of objects with a file and a fingerprint", path)
        edition = doc.get("edition") if isinstance(doc.get("edition"), str) else ""
        return cls(Path(path), rows, edition)

    @classmethod
    def empty(cls, path: Path) -> "Baseline":
        return cls(Path(path))


def write(baseline: Baseline, findings: list[tuple[str, Citation, str]], audited: set[str], edition: str) -> Path:
    """Write the baseline: ``findings`` ((file, citation, fingerprint)) of this run, plus the
    earlier rows of files this run did not audit (a hook that checks three files keeps the
    rest of the tree's accepted findings).  Only a missing file or an earlier baseline is
    written over (``Baseline.read`` refused anything else before the run)."""
    rows = [r for r in baseline.rows if r["file"] not in audited]
    rows += [{"file": name, "line": c.line, "cited": c.cited, "status": c.status, "suggested": c.suggested,
              "fingerprint": fp} for name, c, fp in findings]
    rows.sort(key=lambda r: (r["file"], r.get("line") if isinstance(r.get("line"), int) else 0,
                             str(r.get("cited")), r["fingerprint"]))
    return write_json(baseline.path, {"format": FORMAT, "version": VERSION, "edition": edition,
                                      "tool": "crpipe audit-citations", "findings": rows})


class Matcher:
    """Marks each finding known (in the baseline, not yet matched) or new, as a run goes."""

    def __init__(self, baseline: Baseline):
        self.left = Counter(r["fingerprint"] for r in baseline.rows)
        self.files = {r["file"] for r in baseline.rows}
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
        fps = {r["fingerprint"] for r in baseline.rows if r["file"] in audited}
        return sum(self.left[fp] for fp in fps)
