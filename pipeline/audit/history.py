"""What each rule number meant across the editions of an archive.

Built on :class:`pipeline.diff.EditionArchive` (which orders editions by their stated
effective date and maps numbers between them through the diffs).  Only editions from
the 2009-07-11 rewrite on are used: every older number means something unrelated, so
matching a citation against them would only produce coincidences.  Each edition's
number -> text table is cached beside the archive's own cache (keyed by the file's
sha256), so a second audit reads small JSON files instead of parsing 85 editions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..io import cache_write, dumps

#: The first edition of today's numbering scheme (the Magic 2010 rewrite).
REWRITE = "2009-07-11"


@dataclass(frozen=True)
class Version:
    label: str  # the edition's file date
    text: str


class RuleHistory:
    def __init__(self, editions_dir: str | Path, cache_dir: str | Path | None = None):
        from ..diff import EditionArchive

        self.archive = EditionArchive(editions_dir, cache_dir=cache_dir)
        eds = self.archive.editions
        self.editions = [e for e in eds if (e.effective_date or e.label) >= REWRITE]
        self.labels = [e.label for e in self.editions]
        self._pos = {e.label: i for i, e in enumerate(self.editions)}
        self.tables: list[dict[str, str]] = [self._table(e) for e in self.editions]
        self._by_number: dict[str, list[tuple[int, str]]] | None = None

    def _table(self, e) -> dict[str, str]:
        # Texts depend only on the file (and the parser), not on the matcher's version.
        path = self.archive.cache_dir.parent / "texts" / f"{e.sha256}.json"
        try:
            with open(path, encoding="utf-8") as f:
                return json.load(f)
        except (OSError, ValueError, RecursionError):
            pass
        doc = self.archive.load(e.label)
        table = {r.id: r.text for r in doc.rules}
        cache_write(path, dumps(table))
        return table

    def position(self, date: str) -> int:
        """Position of an edition given by file date or effective date (in the post-rewrite list)."""
        i = self.archive.index(date)
        label = self.archive.editions[i].label
        if label not in self._pos:
            raise InputError(f"edition {date} predates the {REWRITE} renumbering; citation history starts there",
                             self.archive.dir)
        return self._pos[label]

    def versions(self, number: str) -> list[tuple[int, str]]:
        """(edition position, text) for every edition that has ``number``."""
        if self._by_number is None:
            idx: dict[str, list[tuple[int, str]]] = {}
            for i, t in enumerate(self.tables):
                for n, text in t.items():
                    idx.setdefault(n, []).append((i, text))
            self._by_number = idx
        return self._by_number.get(number, [])

    def map_number(self, number: str, from_pos: int, to_pos: int) -> str | None:
        """The number the rule ``number`` of edition ``from_pos`` has in ``to_pos`` (the diffs' map)."""
        return self.archive.map_number(number, self.labels[from_pos], self.labels[to_pos])
