"""Input and output at the edges: the one bounded reader, atomic writes, deterministic JSON,
and the one cache scheme.

Every file the tool reads goes through :func:`read_bounded` (so ``CRPIPE_MAX_INPUT_MB`` holds
for every input, and an unreadable file is one :class:`InputError` naming it).  Every file
is written to a temporary name in the same folder and renamed into place, so a failure never
leaves a partial output behind.  Every cache entry is named by :func:`source_key`: a
declared version plus the bytes of the code (and data) that built it.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterable, Iterator, TextIO

from .errors import CrpipeError, InputError, OSFailure

#: The default limit on an input file (an official edition is under 1 MB as TXT, 4 MB as PDF).
DEFAULT_MAX_INPUT_MB = 64


def env_megabytes(env: str, default_mb: int) -> int:
    """A size limit in bytes from ``$env`` (whole megabytes), ``default_mb`` when unset."""
    raw = os.environ.get(env) or str(default_mb)
    try:
        return int(raw) << 20
    except ValueError:
        raise InputError(f"{env} must be a whole number of megabytes, not {raw!r}") from None


def max_input_bytes() -> int:
    """The largest input read: ``$CRPIPE_MAX_INPUT_MB`` megabytes (64 by default)."""
    return env_megabytes("CRPIPE_MAX_INPUT_MB", DEFAULT_MAX_INPUT_MB)


def special_kind(mode: int) -> str:
    """What a file that is not a regular file is, for a message ("a pipe", "a device")."""
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "special"


def _read_capped(f, cap: int) -> bytes:
    """At most ``cap`` bytes of an open file, read a megabyte at a time (memory follows
    the file's real size, not the cap)."""
    chunks, got = [], 0
    while got < cap:
        chunk = f.read(min(1 << 20, cap - got))
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def read_bounded(path: str | Path, limit: int | None = None, truncate: bool = False,
                 what: str = "rules document", env: str | None = "CRPIPE_MAX_INPUT_MB") -> bytes:
    """The bytes of ``path``, refusing folders, missing files, anything but a regular file (a
    FIFO would block, a device never ends) and files over the limit (``limit`` bytes, default
    :func:`max_input_bytes`; ``env`` names the variable that sets it, if any, ``what`` the kind
    of file for the message).  The size is checked before reading and the read itself stops one
    byte past the limit.  With ``truncate``, a longer file gives its first ``limit`` bytes
    instead (a scan that only needs the head of each file)."""
    p = Path(path)
    if limit is None:
        limit = max_input_bytes()
    how = f", set {env} to change it" if env else ""
    try:
        st = p.stat()
    except FileNotFoundError:
        raise InputError("no such file", p) from None
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror}", p) from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"is a directory, not a {what}", p)
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"not a regular file ({special_kind(st.st_mode)}): not a {what}", p)
    if st.st_size > limit and not truncate:
        raise InputError(f"too large for a {what} ({st.st_size / 2**20:.0f} MB; the limit is "
                         f"{limit >> 20} MB{how})", p)
    try:
        with open(p, "rb") as f:
            data = _read_capped(f, limit if truncate else limit + 1)
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror}", p) from None
    if len(data) > limit:  # grew while we looked
        raise InputError(f"too large for a {what} (over {limit >> 20} MB{how})", p)
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


def read_cache_marshal(path: Path) -> Any | None:
    """A cache entry written with ``marshal`` (plain data: no code runs when it is read), or None
    when absent, unreadable, over the bounded reader's limit or damaged."""
    import marshal  # noqa: PLC0415 - only the caches that keep marshal files read it

    try:
        return marshal.loads(read_bounded(path, what="cache file", env=None))
    except (CrpipeError, OSError, ValueError, EOFError, TypeError):
        return None


def read_cache_json(path: Path) -> Any | None:
    """A cache entry written by :func:`write_json`, or None when absent or unreadable."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))  # our own cache file, not an input
    except (OSError, ValueError, RecursionError):
        return None


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
    except BaseException as e:
        tmp_path.unlink(missing_ok=True)
        _name_the_output(e, path)
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
    except BaseException as e:
        for t in temps:
            t.unlink(missing_ok=True)
        if paths:
            _name_the_output(e, Path(paths[0]).parent)  # the outputs' folder: they share its device
        raise


def _name_the_output(e: BaseException, path: Path) -> None:
    """A failed ``write()`` (a full disk, a quota) names no file: the message would say "no space
    left on the device" and not where.  The output being written is named instead."""
    if isinstance(e, OSError) and e.filename is None:
        e.filename = str(path)


@contextmanager
def atomic_text_writer(path: str | Path) -> Iterator[TextIO]:
    """A text file to write ``path`` through, piece by piece (a streamed report): written to a
    temporary name beside it and renamed onto ``path`` only when complete."""
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as out:
        yield out


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
