"""What each rule number meant across the editions of an archive.

Built on :class:`pipeline.diff.EditionArchive` (which orders editions by their stated
effective date and maps numbers between them through the diffs).  Only editions from
the 2009-07-11 rewrite on are used to judge a citation by its words: every older number means
something unrelated, so matching topic words against them would only produce coincidences.
The older editions (``old``) are kept for strong evidence only: a title or rule wording quoted
with an old-scheme number ("502.82. Devour" is 702.82 today), or a date naming that era.  Each edition's
number -> text table is cached beside the archive's own cache (keyed by the file's
sha256), so a second audit reads small JSON files instead of parsing 85 editions.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..diff import EditionArchive
from ..errors import InputError
from ..io import cache_write, dumps, read_cache_json

#: The first edition of today's numbering scheme (the Magic 2010 rewrite).
REWRITE = "2009-07-11"


@dataclass(frozen=True)
class Version:
    label: str  # the edition's file date
    text: str


class RuleHistory:
    def __init__(self, editions_dir: str | Path, cache_dir: str | Path | None = None):
        self.archive = EditionArchive(editions_dir, cache_dir=cache_dir)
        eds = self.archive.editions
        self.editions = [e for e in eds if (e.effective_date or e.label) >= REWRITE]
        self.labels = [e.label for e in self.editions]
        self._pos = {e.label: i for i, e in enumerate(self.editions)}
        self.tables: list[dict[str, str]] = [self._table(e) for e in self.editions]
        self.old: list[tuple[str, dict[str, str]]] = [
            (e.label, self._table(e)) for e in eds if (e.effective_date or e.label) < REWRITE]
        self._dates = [(e.effective_date or e.label, e.label) for e in eds]
        self._by_number: dict[str, list[tuple[int, str]]] | None = None

    def _table(self, e) -> dict[str, str]:
        # Texts depend only on the file (and the parser), not on the matcher's version.
        path = self.archive.cache_dir.parent / "texts" / f"{e.sha256}.json"
        cached = read_cache_json(path)
        if cached is not None:
            return cached
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

    def in_force(self, date: str) -> tuple[str, dict[str, str]] | None:
        """(label, number -> text) of the edition in force on ``date`` (ISO), old ones too."""
        label = None
        for eff, lab in self._dates:
            if eff <= date:
                label = lab
        if label is None:
            return None
        if label in self._pos:
            return label, self.tables[self._pos[label]]
        return next(((lab, t) for lab, t in self.old if lab == label), None)

    def table_of(self, label: str) -> dict[str, str] | None:
        if label in self._pos:
            return self.tables[self._pos[label]]
        return next((t for lab, t in self.old if lab == label), None)

    def old_versions(self, number: str) -> list[tuple[str, str]]:
        """(label, text) of ``number`` in the editions before the 2009 rewrite."""
        return [(lab, t[number]) for lab, t in self.old if number in t]

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
