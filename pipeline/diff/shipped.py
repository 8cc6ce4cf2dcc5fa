"""The consecutive-pair maps of the embedded archive, computed at release time and shipped.

The package ships the English editions (:mod:`pipeline.editions.embedded`); matching each
edition with the next is the same work on every machine, and a cold ``crpipe align`` of a
2020 translation to the 2026 edition matches 57 pairs (~1.2 s CPU) before it can map a single
rule number.  :mod:`pipeline.diff.pack_pairs` matches all of them once, at release time, into
``pipeline/data/editions/pairs.json.xz`` (~250 KB for 108 pairs); :class:`EditionArchive`
takes a pair from there when both editions are the archive's (by sha256, whatever folder
they were read from) and the file was made by the code that would match them now (its key:
the matcher's cache key and the code that makes pair maps).  Anything else is matched as
before.  A test checks the file is what matching gives.
"""

from __future__ import annotations

import functools
from pathlib import Path

from ..codekey import code_key
from ..release_data import pack, unpack
from .cache import cache_key

#: Layout of the shipped file; bump when it changes.
VERSION = 1
FILE = "pairs.json.xz"


def shipped_path() -> Path:
    from ..editions.embedded import archive_dir  # noqa: PLC0415 - the package's data folder

    return archive_dir() / FILE


@functools.lru_cache(maxsize=1)
def shipped_key() -> str:
    """The code a shipped pair map depends on: the matcher (its cache key: matching, the
    classifier, the text normaliser, the parser) and the code that turns a match into a map
    (with all it imports)."""
    return code_key(VERSION, (__name__, "pipeline.diff.history", "pipeline.diff.pack_pairs"), extra=[cache_key()])


@functools.lru_cache(maxsize=4)
def _load(path: str) -> dict[str, dict]:
    data = unpack(path, VERSION, shipped_key())
    pairs = data.get("pairs") if data is not None else None
    return pairs if isinstance(pairs, dict) else {}  # none, or made by other code: match as before


def shipped_pair(old_sha: str, new_sha: str, path: Path | None = None) -> dict | None:
    """The shipped map of the pair (``moved``, ``removed``, ``added``, ``changed``), or None."""
    got = _load(str(path or shipped_path())).get(f"{old_sha}-{new_sha}")
    if not (isinstance(got, dict) and all(k in got for k in ("moved", "removed", "added", "changed"))):
        return None
    return got


def serialise(pairs: dict[str, dict]) -> bytes:
    """The shipped file's bytes: deterministic (sorted keys, fixed xz settings)."""
    return pack(VERSION, shipped_key(), {"pairs": pairs})
