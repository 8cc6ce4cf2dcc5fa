"""Output at the edges: atomic writes and deterministic JSON.

Every file is written to a temporary name in the same folder and renamed into place,
so a failure never leaves a partial output behind.
"""

from __future__ import annotations

import errno
import json
import os
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from .errors import CrpipeError, OSFailure


def cache_root() -> Path:
    """The one cache folder every stage uses: ``$CRPIPE_CACHE``, else ``$XDG_CACHE_HOME/crpipe``.

    Caches are derived data (edition inventories, lexicons, diff matches); deleting the
    folder only costs time.
    """
    base = os.environ.get("CRPIPE_CACHE")
    if base:
        return Path(base)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "crpipe"


def current_umask() -> int:
    """The process umask: read from /proc on Linux (no change, so no race with other threads),
    else by setting it and putting the same value back at once."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def honour_umask(path: str | Path, directory: bool = False) -> None:
    """Give a file made by ``mkstemp``/``mkdtemp`` (always 0600/0700) the mode a plain
    ``open``/``mkdir`` would have had, so outputs are shared as the user's umask says."""
    os.chmod(path, (0o777 if directory else 0o666) & ~current_umask())


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
        honour_umask(tmp_path)
        os.replace(tmp_path, path)
    except BaseException:
        tmp_path.unlink(missing_ok=True)
        raise


@contextmanager
def atomic_group(paths: list[Path]) -> Iterator[list[Path]]:
    """Temporary paths for several outputs that appear together or not at all: every file is
    written to its temporary name first and the renames happen only after the last one is
    complete; on any failure the temporary files are removed and no target is touched."""
    temps: list[Path] = []
    try:
        for p in paths:
            p = Path(p)
            p.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
            os.close(fd)
            temps.append(Path(tmp))
        yield temps
        for t in temps:
            honour_umask(t)
        for t, p in zip(temps, paths):
            os.replace(t, p)
    except BaseException:
        for t in temps:
            t.unlink(missing_ok=True)
        raise


def sha256_file(path: str | Path) -> str:
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


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


# -- the operating system's errors ------------------------------------------------------

_CAUSES = {
    errno.ENOSPC: "no space left on the device",
    errno.EDQUOT: "disk quota exceeded",
    errno.EROFS: "read-only file system",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.ENOENT: "no such file or folder",
    errno.ENOTDIR: "a path component is not a folder",
    errno.EISDIR: "is a folder, not a file",
    errno.EIO: "input/output error",
    errno.EMFILE: "too many open files",
    errno.ENAMETOOLONG: "file name too long",
}


def os_failure(e: OSError, path: str | Path | None = None, doing: str = "") -> OSFailure:
    """The one translation of an ``OSError`` into a one-line :class:`CrpipeError`."""
    cause = _CAUSES.get(e.errno) or (e.strerror or str(e)).lower()
    where = path if path is not None else (e.filename if e.filename is not None else None)
    if e.filename2 is not None and path is None:
        where = f"{e.filename} → {e.filename2}"
    return OSFailure(f"{doing}: {cause}" if doing else cause, where)


_warned: set[str] = set()


def warn_once(key: str, message: str) -> None:
    """One warning line on stderr per ``key`` and process (an unwritable cache says so once)."""
    if key in _warned:
        return
    _warned.add(key)
    print(f"crpipe: warning: {message}", file=sys.stderr)


def cache_write(path: str | Path, data: str | bytes) -> bool:
    """Write a cache entry atomically; a cache that cannot be written is skipped with one
    warning (caches are optional: losing one only costs time)."""
    path = Path(path)
    try:
        atomic_write(path, data)
        return True
    except OSError as e:
        root = cache_root()
        where = root if path.is_relative_to(root) else path.parent
        warn_once(f"cache:{where}", f"cache {where} cannot be written ({_CAUSES.get(e.errno) or e.strerror}); "
                  "continuing without it")
        return False
