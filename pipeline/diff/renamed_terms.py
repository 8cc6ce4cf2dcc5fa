"""English terms the editions themselves renamed, learnt from their glossaries (no hand list).

Between two consecutive editions, a glossary term that disappears while a new term appears
whose definition is the old one with the name swapped is a rename: "Converted Mana Cost" →
"Mana Value" (2021-04-19), "Tribal" → "Kindred" (2024).  The glossary is read straight from
each edition's text (blank-line separated blocks after the second "Glossary" heading), which
takes milliseconds per edition; results are memoised per folder and edition range.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rapidfuzz import fuzz

from ..editions.base import edition_files
from ..editions.catalog import EditionRef
from ..decode import decode_bytes
from ..io import read_bounded
from ..serialize import to_data

#: Definitions at least this similar (after swapping the names) make a rename.
MIN_SIMILARITY = 70


@dataclass(frozen=True)
class Renamed:
    old: str
    new: str
    edition: str  # the first edition with the new name

    def to_dict(self) -> dict:
        return to_data(self)


def glossary_of(text: str) -> dict[str, str]:
    """``{term: definition}`` of an edition's text (its last "Glossary" heading to "Credits")."""
    lines = text.splitlines()
    heads = [i for i, x in enumerate(lines) if x.strip() == "Glossary"]
    if not heads:
        return {}
    start = heads[-1] + 1
    end = next((i for i in range(len(lines) - 1, start, -1) if lines[i].strip() == "Credits"), len(lines))
    out: dict[str, str] = {}
    block: list[str] = []
    for x in lines[start:end] + [""]:
        if x.strip():
            block.append(x.strip())
        elif block:
            if len(block) >= 2:
                out[block[0]] = " ".join(block[1:])
            block = []
    return out


def _norm_term(t: str) -> str:
    t = t.replace("_", "").replace("’", "'").replace("“", '"').replace("”", '"').casefold()
    return re.sub(r"\s*\(obsolete\)$", "", t).strip()


def _is_rename(old: str, new: str) -> bool:
    """A new name, not a typographic or plural variant ("Planar _Magic_", "Turn-Based Actions"),
    a glued definition ("Ability1. Text …") or the same head word extended ("Partner, …")."""
    a, b = _norm_term(old), _norm_term(new)
    if a == b or a.startswith(b) or b.startswith(a):
        return False
    return a.split()[0].strip(",") != b.split()[0].strip(",")


def _swap(definition: str, old: str, new: str) -> str:
    return re.sub(re.escape(old), new, definition, flags=re.I)


@lru_cache(maxsize=16)
def _renamed(files: tuple) -> tuple[Renamed, ...]:
    out: list[Renamed] = []
    prev: dict[str, str] | None = None
    for f in files:
        data, where = (f.content(), f.where) if isinstance(f, EditionRef) else (read_bounded(f), f)
        g = glossary_of(decode_bytes(data, where).text)
        if prev is not None and g:
            gone = [t for t in prev if t not in g]
            new = [t for t in g if t not in prev]
            for old in gone:
                best = max(((fuzz.ratio(_swap(prev[old], old, n), g[n]), n) for n in new), default=(0, None))
                if best[1] is not None and best[0] >= MIN_SIMILARITY and _is_rename(old, best[1]):
                    out.append(Renamed(old, best[1], f.stem))
        if g:
            prev = g
    return tuple(out)


def renamed_terms(folder: str | Path, first: str, last: str) -> list[Renamed]:
    """Terms renamed by the editions after ``first`` up to ``last`` (file dates)."""
    return list(_renamed(tuple(f for f in edition_files(folder) if first <= f.stem <= last)))
