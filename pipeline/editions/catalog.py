"""Every English edition crpipe knows, and one way to name one.

Sources, in order of preference: a mirror folder (``--mirror`` / ``$CRPIPE_MIRROR``), the
user's cache of added or downloaded editions (``$CRPIPE_CACHE/editions``), then the
archive embedded in the package.  An edition is named by the date stated inside it
(``2019-06-14``); the date in a file name that disagrees (``2019-06-12.txt``) finds it
too, with a warning once per process.  ``latest`` is the newest edition; a path names a file.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..io import cache_root, cache_write, dumps, read_bounded, read_cache_json, warn_once as _warn_once
from .embedded import embedded
from .meta import meta_key, quick_meta, read_edition

DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
SOURCES = ("mirror", "cache", "embedded")


def warn_once(message: str) -> None:
    """A warning on stderr, printed once per process (file-name dates that disagree)."""
    _warn_once(f"editions:{message}", message)


@dataclass(frozen=True)
class EditionRef:
    """One English edition: where it is and what it says it is."""

    name: str  # file name, e.g. "2019-06-12.txt"
    date: str | None  # the effective date stated inside
    source: str  # mirror, cache, embedded or file
    sha256: str
    path: Path | None = None  # on disk (mirror, cache, file); None for the embedded archive
    truncated: bool = False

    @property
    def stem(self) -> str:
        """The file name's stem; the label folders of editions have always used."""
        return Path(self.name).stem

    @property
    def where(self) -> str:
        return str(self.path) if self.path is not None else f"embedded:{self.name}"

    def content(self) -> bytes:
        """The edition's bytes (the embedded archive checks them against its sha256)."""
        if self.path is None:
            return embedded().read(self.name)
        return read_bounded(self.path)

    read_bytes = content  # the pathlib name

    def parse(self):
        """The parsed :class:`~pipeline.model.Document` (source named by the file name)."""
        from ..decode import decode_bytes  # noqa: PLC0415 - lazy: a warm show reads the inventory, never the parser
        from ..segment.official import parse_text  # noqa: PLC0415 - lazy, as above

        data = self.content()
        return parse_text(decode_bytes(data, self.where), source=Path(self.name), data=data)


def default_mirror() -> Path | None:
    m = os.environ.get("CRPIPE_MIRROR")
    return Path(m).expanduser().resolve() if m else None


def user_editions_dir() -> Path:
    """Where ``crpipe editions add`` stores editions (and the build's downloads are found)."""
    return cache_root() / "editions"


def _meta(path: Path, data: bytes, sha: str) -> dict:
    """Stated date and completeness of a file on disk, cached by sha256."""
    cache = cache_root() / f"editions-meta-{meta_key()}" / f"{sha}.json"
    meta = read_cache_json(cache)
    if isinstance(meta, dict):
        return meta
    meta = quick_meta(data)
    cache_write(cache, dumps(meta))
    return meta


def _scan_index_path(folder: Path) -> Path:
    """Where the scan of ``folder`` is remembered (one small file per folder)."""
    key = hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:24]
    return cache_root() / f"editions-meta-{meta_key()}" / "folders" / f"{key}.json"


def _stat_sig(st: os.stat_result) -> list[int]:
    """What tells a file changed without reading it (as git's index does): size, inode and the
    modification and status-change times in nanoseconds (a rewrite changes the last two)."""
    return [st.st_size, st.st_ino, st.st_mtime_ns, st.st_ctime_ns]


def scan_folder(folder: Path, source: str) -> tuple[list[EditionRef], list[dict]]:
    """The official editions among ``folder/*.txt`` and the files set aside (with why).

    Each file's sha256 and stated date are remembered in the cache with the file's stat
    signature, so a warm scan of the 110-edition mirror reads no edition (0.3 s of reading
    and hashing otherwise); a file whose signature changed is read and hashed again.
    """
    refs, skipped = [], []
    index_path = _scan_index_path(folder)
    old = read_cache_json(index_path)
    old = old if isinstance(old, dict) and old.get("folder") == str(folder) else {}
    seen = old.get("files") if isinstance(old.get("files"), dict) else {}
    files: dict[str, dict] = {}
    for p in sorted(folder.glob("*.txt")):
        try:
            sig = _stat_sig(p.stat())
        except OSError:
            sig = None
        got = seen.get(p.name)
        if sig is not None and isinstance(got, dict) and got.get("sig") == sig and isinstance(got.get("meta"), dict) \
                and isinstance(got.get("sha256"), str):
            sha, meta = got["sha256"], got["meta"]
        else:
            data, why = read_edition(p)
            if data is None:
                skipped.append({"file": str(p), "reason": why})
                continue
            sha = hashlib.sha256(data).hexdigest()
            meta = _meta(p, data, sha)
        if sig is not None:
            files[p.name] = {"sig": sig, "sha256": sha, "meta": meta}
        if meta.get("error"):
            skipped.append({"file": str(p), "reason": meta["error"]})
            continue
        refs.append(EditionRef(p.name, meta.get("effective_date"), source, sha, p, bool(meta.get("truncated"))))
    if files != seen:
        cache_write(index_path, dumps({"folder": str(folder), "files": files}))
    return refs, skipped


def embedded_ref(entry: dict) -> EditionRef:
    """The reference of an edition of the embedded archive (an entry of its index)."""
    return EditionRef(entry["name"], entry["date"], "embedded", entry["sha256"], None, entry["truncated"])


def _embedded_refs() -> list[EditionRef]:
    return [embedded_ref(e) for e in embedded().editions]


@dataclass
class Catalog:
    """The editions known from the given sources, one per stated date, newest last.

    ``folder``: only that folder (what ``--editions DIR`` means).  Otherwise the mirror
    (default ``$CRPIPE_MIRROR``), the user cache and the embedded archive, in that order of
    preference for the same date.
    """

    mirror: Path | None = None
    folder: Path | None = None
    use_cache: bool = True
    use_embedded: bool = True
    editions: list[EditionRef] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)
    shadowed: list[EditionRef] = field(default_factory=list)  # same date known from a preferred source

    def __post_init__(self):
        found: list[EditionRef] = []
        if self.folder is not None:
            if not self.folder.is_dir():
                raise InputError("not a folder of editions", self.folder)
            refs, skip = scan_folder(self.folder, "mirror")
            found += refs
            self.skipped += skip
        else:
            if self.mirror is not None:
                if not self.mirror.is_dir():
                    raise InputError("the mirror (--mirror or CRPIPE_MIRROR) is not a folder", self.mirror)
                refs, skip = scan_folder(self.mirror, "mirror")
                found += refs
                self.skipped += skip
            if self.use_cache:
                for d in (user_editions_dir(), cache_root()):
                    if d.is_dir():
                        refs, skip = scan_folder(d, "cache")
                        found += refs
                        self.skipped += skip
            if self.use_embedded:
                found += _embedded_refs()
        by_key: dict[str, EditionRef] = {}
        seen_sha: set[str] = set()
        for r in found:  # earlier sources win
            key = r.date or r.stem
            if r.sha256 in seen_sha or key in by_key:
                self.shadowed.append(r)
                continue
            seen_sha.add(r.sha256)
            by_key[key] = r
        self.editions = sorted(by_key.values(), key=lambda r: (r.date or r.stem, r.name))
        if not self.editions:
            if self.folder is not None:
                raise InputError("no readable Comprehensive Rules edition (*.txt) in this folder", self.folder)
            raise InputError("no English edition found (mirror, cache or embedded archive)",
                             self.mirror or user_editions_dir())

    @property
    def label(self) -> str:
        if self.folder is not None:
            return str(self.folder)
        parts = ([f"mirror {self.mirror}"] if self.mirror else []) + (["cache"] if self.use_cache else []) + \
                (["embedded archive"] if self.use_embedded else [])
        return " + ".join(parts)

    def complete(self) -> list[EditionRef]:
        return [r for r in self.editions if not r.truncated]

    def latest(self) -> EditionRef:
        return self.complete()[-1] if self.complete() else self.editions[-1]

    def find(self, name: str) -> EditionRef | None:
        """An edition by stated date, by file-name date, or ``latest``; None if unknown."""
        name = name.strip()
        if name == "latest":
            return default_edition(self)
        if name.endswith(".txt"):
            name = name[:-4]
        for r in self.editions:
            if r.date == name:
                return r
        for r in self.editions + self.shadowed:
            if r.stem == name and r.date and r.date != name:
                warn_once(f"{r.name} states it is the {r.date} edition; {name} names it by its file name")
                return next((x for x in self.editions if x.date == r.date), r)
        return None

    def resolve(self, name: str) -> EditionRef:
        r = self.find(name)
        if r is None:
            dates = [e.date or e.stem for e in self.editions]
            raise InputError(f"no edition {name!r} (known: {dates[0]} … {dates[-1]}, {len(dates)} editions; "
                             f"a date, 'latest', or a file)", self.label)
        return r


def default_edition(catalog: Catalog | None = None) -> EditionRef:
    """The one default edition: what every command (``show``, ``search``, ``xref``, ``link``,
    ``history``, ``diff``) and the build and site use when no edition is named, and what
    ``latest`` means — the newest complete edition known (``catalog``: default the mirror,
    the cache and the embedded archive).  Each prints the edition it used."""
    return (catalog or default_catalog()).latest()


def default_catalog(mirror: Path | None = None) -> Catalog:
    """Every known edition: ``mirror`` (default ``$CRPIPE_MIRROR``), the user cache, the archive."""
    return Catalog(mirror=mirror if mirror is not None else default_mirror())


def as_catalog(editions: "str | Path | Catalog | None") -> Catalog:
    """``--editions DIR`` means that folder only; None means every known edition."""
    if isinstance(editions, Catalog):
        return editions
    if editions is None:
        return default_catalog()
    return Catalog(folder=Path(editions).expanduser())


def resolve_edition(spec: "str | Path | None", catalog: Catalog | None = None) -> EditionRef:
    """An edition named by a date, ``latest`` (the default), or a file on disk."""
    if spec is None:
        spec = "latest"
    s = str(spec)
    if DATE_RE.match(s.removesuffix(".txt")) or s == "latest":
        if not Path(s).is_file():
            return (catalog or default_catalog()).resolve(s)
    p = Path(s).expanduser()
    if not p.is_file():
        raise InputError("no such edition file (give a file, a date such as 2025-11-14, or 'latest')", p.resolve())
    data = read_bounded(p)
    sha = hashlib.sha256(data).hexdigest()
    meta = quick_meta(data)
    date = meta.get("effective_date")
    if date and DATE_RE.match(p.stem) and p.stem != date:
        warn_once(f"{p.name} states it is the {date} edition")
    return EditionRef(p.name, date, "file", sha, p.resolve(), bool(meta.get("truncated")))


def load_edition(spec: "str | Path | None", catalog: Catalog | None = None):
    """The parsed document of :func:`resolve_edition`'s edition."""
    ref = resolve_edition(spec, catalog)
    doc = ref.parse()
    if ref.path is not None:
        doc.meta.source_file = str(ref.path)
    return doc
