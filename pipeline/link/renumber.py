"""Rule numbers carried from one edition's numbering to another's, for the linker.

The learned ranker's label prior and labelled-ruling memory, and the gold labels it is
measured against, name rules as numbered in 2025-11-14.  Linked against another edition they
are mapped through the renumbering (:meth:`pipeline.diff.EditionArchive.map_number`, the
composed consecutive matches), so "117.3a" of 2025-11-14 is "116.3a" of 2019-06-12 and a rule
that did not exist yet is dropped, instead of pointing at whatever rule holds its number.
"""

from __future__ import annotations

import functools


class NoRenumbering(LookupError):
    """One of the two editions is not in the known archive (a user's own file)."""


@functools.lru_cache(maxsize=1)
def _archive():
    from ..diff.history import EditionArchive  # deferred: the archive is read only off the training edition
    from ..editions import default_catalog  # deferred: as above

    return EditionArchive(default_catalog())


def number_map(ids, from_date: str, to_date: str, archive=None) -> dict[str, str | None]:
    """``{number in from_date: number in to_date, or None when the rule is gone}`` for ``ids``.

    Raises :class:`NoRenumbering` when either edition is unknown to the archive."""
    from ..errors import CrpipeError  # deferred: as above

    ids = sorted(set(ids))
    if from_date == to_date:
        return {i: i for i in ids}
    arch = archive or _archive()
    try:
        arch.index(from_date), arch.index(to_date)
    except CrpipeError as e:
        raise NoRenumbering(str(e)) from None
    return {i: arch.map_number(i, from_date, to_date) for i in ids}
