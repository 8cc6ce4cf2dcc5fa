"""Resolve references against the document they stand in.

``resolved``: every target exists.  ``dangling``: a target does not exist.
``title-mismatch``: the target exists but the quoted title ("rule 601, “Casting
Spells”") is not its heading.  ``external``: a fragment (a paste, a web card) lacks the
target but the full edition it was resolved against has it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

from ..model import Document
from .model import RefKind, RefStatus, Reference, SECTION_PREFIX

FRAGMENT_KINDS = ("paste", "webcard")

_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "«": '"', "»": '"'})
_EDGE_PUNCT = re.compile(r"^[\W_]+|[\W_]+$")


def normalize_title(s: str) -> str:
    s = unicodedata.normalize("NFC", s).translate(_QUOTES).casefold()
    return " ".join(_EDGE_PUNCT.sub("", s).split())


class Resolver:
    """What one document holds: rule ids, section titles, rule headings."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.ids = frozenset(doc.rule_ids)
        self.sections = {f"{SECTION_PREFIX}{s.number}": s.title for s in doc.sections}

    def exists(self, target: str) -> bool:
        return target in self.ids or target in self.sections

    def heading(self, target: str) -> str | None:
        if target in self.sections:
            return self.sections[target]
        r = self.doc.rule(target)
        return r.text if r is not None else None


def resolve(refs: list[Reference], doc: Document, fallback: Document | None = None) -> list[Reference]:
    """The same references with ``status``, ``missing`` and ``detail`` filled in."""
    here = Resolver(doc)
    there = Resolver(fallback) if fallback is not None and doc.meta.kind in FRAGMENT_KINDS else None
    out = []
    for r in refs:
        missing = tuple(t for t in r.targets if not here.exists(t))
        if missing:
            if there is not None and all(there.exists(t) for t in missing):
                status, detail = RefStatus.EXTERNAL, f"not in this fragment; present in {fallback.meta.effective_date or 'the full edition'}"
            else:
                status, detail = RefStatus.DANGLING, "no " + ", ".join(missing) + " in this document"
        elif r.title and r.kind != RefKind.RANGE:
            heading = here.heading(r.targets[0]) or ""
            if normalize_title(heading) == normalize_title(r.title):
                status, detail = RefStatus.RESOLVED, None
            else:
                status, detail = RefStatus.TITLE_MISMATCH, f"cites “{r.title}”; {r.targets[0]} is “{heading[:80]}”"
        else:
            status, detail = RefStatus.RESOLVED, None
        out.append(replace(r, status=status, missing=missing, detail=detail))
    return out
