"""The English editions shipped inside the package, read without unpacking to disk.

``pipeline/data/editions/`` holds ``index.json`` and a few xz files.  Consecutive editions
share most of their text, so they are packed in runs (``CHUNK`` editions per xz stream):
the whole archive of 110 editions (74 MB) is ~1.7 MB and reading one edition decompresses
one run (~25 ms).  Each edition's sha256 is in the index and is checked on every read.
The archive is written by :mod:`pipeline.editions.pack` at release time.
"""

from __future__ import annotations

import functools
import hashlib
import json
import lzma
import threading
from importlib import resources
from pathlib import Path

from ..errors import CrpipeError
from ..io import read_bounded, read_bounded_text

#: Layout of index.json; the reader refuses an index of another version.
INDEX_VERSION = 1


class ArchiveError(CrpipeError):
    """The embedded archive is missing or damaged (a broken installation)."""


def archive_dir() -> Path:
    return Path(str(resources.files("pipeline") / "data" / "editions"))


class EmbeddedArchive:
    """Index and reader of one packed folder of editions (default: the package's own)."""

    def __init__(self, directory: str | Path | None = None):
        self.dir = Path(directory) if directory is not None else archive_dir()
        ipath = self.dir / "index.json"
        if not ipath.exists():
            self.index = {"version": INDEX_VERSION, "chunks": [], "editions": []}
        else:
            try:
                self.index = json.loads(read_bounded_text(ipath))
            except (CrpipeError, ValueError) as e:
                raise ArchiveError(f"unreadable archive index: {e}", ipath) from None
        if self.index.get("version") != INDEX_VERSION:
            raise ArchiveError(f"archive index version {self.index.get('version')!r}, expected {INDEX_VERSION}", ipath)
        self.editions: list[dict] = self.index["editions"]
        self._by_name = {e["name"]: e for e in self.editions}
        self._lock = threading.Lock()
        self._chunk: tuple[int, bytes] | None = None  # the last run decompressed

    def names(self) -> list[str]:
        return [e["name"] for e in self.editions]

    def entry(self, name: str) -> dict:
        try:
            return self._by_name[name]
        except KeyError:
            raise ArchiveError(f"no edition {name} in the embedded archive", self.dir) from None

    def _run(self, k: int) -> bytes:
        with self._lock:
            if self._chunk is not None and self._chunk[0] == k:
                return self._chunk[1]
            c = self.index["chunks"][k]
            path = self.dir / c["file"]
            try:
                data = lzma.decompress(read_bounded(path))
            except (CrpipeError, lzma.LZMAError) as e:
                raise ArchiveError(f"damaged archive file: {e}", path) from None
            self._chunk = (k, data)
            return data

    def read(self, name: str) -> bytes:
        """The exact bytes of edition ``name`` (e.g. ``2019-06-12.txt``), sha256 verified."""
        e = self.entry(name)
        run = self._run(e["chunk"])
        data = run[e["offset"]:e["offset"] + e["length"]]
        if hashlib.sha256(data).hexdigest() != e["sha256"]:
            raise ArchiveError(f"edition {name} does not match its sha256 in the index", self.dir / "index.json")
        return data


@functools.lru_cache(maxsize=1)
def embedded() -> EmbeddedArchive:
    """The package's own archive (read once per process)."""
    return EmbeddedArchive()
