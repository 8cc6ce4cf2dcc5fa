"""Input and output at the edges: the one bounded reader, atomic writes, deterministic JSON,
and the one cache scheme.

Every file the tool reads goes through :func:`read_bounded` (so ``CRPIPE_MAX_INPUT_MB`` holds
for every input, and an unreadable file is one :class:`InputError` naming it).  Every file
is written to a temporary name in the same folder and renamed into place, so a failure never
leaves a partial output behind.  Every cache entry is named by :func:`source_key`: a
declared version plus the bytes of the code (and data) that built it.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterable, Iterator

from .errors import InputError

#: The default limit on an input file (an official edition is under 1 MB as TXT, 4 MB as PDF).
DEFAULT_MAX_INPUT_MB = 64


def max_input_bytes() -> int:
    """The largest input read: ``$CRPIPE_MAX_INPUT_MB`` megabytes (64 by default)."""
    raw = os.environ.get("CRPIPE_MAX_INPUT_MB") or str(DEFAULT_MAX_INPUT_MB)
    try:
        return int(raw) << 20
    except ValueError:
        raise InputError(f"CRPIPE_MAX_INPUT_MB must be a whole number of megabytes, not {raw!r}") from None


def read_bounded(path: str | Path, limit: int | None = None, truncate: bool = False) -> bytes:
    """The bytes of ``path``, refusing directories, missing files and files over the limit
    (``limit`` bytes, default :func:`max_input_bytes`).  With ``truncate``, a longer file gives
    its first ``limit`` bytes instead (a scan that only needs the head of each file)."""
    p = Path(path)
    if limit is None:
        limit = max_input_bytes()
    if p.is_dir():
        raise InputError("is a directory, not a file", p)
    if not p.exists():
        raise InputError("no such file", p)
    try:
        size = p.stat().st_size
        if truncate:
            with open(p, "rb") as f:
                return f.read(limit)
        if size > limit:
            raise InputError(f"too large to be a rules document ({size / 2**20:.0f} MB; the limit is "
                             f"{limit >> 20} MB, set CRPIPE_MAX_INPUT_MB to change it)", p)
        with open(p, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror}", p) from None
    if len(data) > limit:  # grew while we looked, or a special file
        raise InputError(f"too large to be a rules document (over {limit >> 20} MB)", p)
    return data


def read_bounded_gzip(path: str | Path) -> bytes:
    """The decompressed bytes of a gzip file (a data table), itself read through :func:`read_bounded`."""
    import gzip  # noqa: PLC0415 - only the data tables are gzipped

    return gzip.decompress(read_bounded(path))


def read_bounded_text(path: str | Path, encoding: str = "utf-8") -> str:
    """A text file read through :func:`read_bounded`, newlines made ``\\n`` (as ``Path.read_text``)."""
    data = read_bounded(path)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        raise InputError(f"not {encoding} text (byte {e.start})", path) from None
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def sha256_file(path: str | Path) -> str:
    """The sha256 of a file (an output or a download: streamed, whatever its size)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def cache_root() -> Path:
    """The one cache folder every stage uses: ``$CRPIPE_CACHE``, else ``$XDG_CACHE_HOME/crpipe``.

    Caches are derived data (edition inventories, lexicons, diff matches); deleting the
    folder only costs time.
    """
    base = os.environ.get("CRPIPE_CACHE")
    if base:
        return Path(base)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "crpipe"


def source_key(version: str | int, files: Iterable[Path] = (), extra: Iterable[str] = ()) -> str:
    """The one cache-versioning scheme: 12 hex digits that change whenever the declared
    ``version``, any of the ``files`` that build the cached data (code, word lists) or any
    ``extra`` string (package versions) changes, so a stale entry is never read."""
    h = hashlib.sha256(str(version).encode())
    for e in extra:
        h.update(e.encode())
    for f in files:
        f = Path(f)
        if f.is_file():
            h.update(f.read_bytes())  # the project's own code and data, not an input
    return h.hexdigest()[:12]


def read_cache_json(path: Path) -> Any | None:
    """A cache entry written by :func:`write_json`, or None when absent or unreadable."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))  # our own cache file, not an input
    except (OSError, ValueError):
        return None


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it onto ``path`` on success."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.replace(tmp_path, path)
    except BaseException:
        tmp_path.unlink(missing_ok=True)
        raise


def atomic_write(path: str | Path, data: str | bytes) -> Path:
    with atomic_path(path) as tmp:
        if isinstance(data, str):
            tmp.write_text(data, encoding="utf-8", newline="\n")
        else:
            tmp.write_bytes(data)
    return Path(path)


def dumps(obj: Any) -> str:
    """Deterministic JSON: sorted keys, UTF-8 text, a trailing newline."""
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, indent=1) + "\n"


def write_json(path: str | Path, obj: Any) -> Path:
    return atomic_write(path, dumps(obj))
