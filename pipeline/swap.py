"""A build folder that is replaced as a whole: staging beside it, a lock, an atomic swap.

``aligned/`` is never written in place.  A build writes into ``.aligned.staging-XXXX`` beside
it and, once every output and the report are complete, exchanges the two folders with one
``renameat2(RENAME_EXCHANGE)`` (Linux), so a reader, a kill or a full disk only ever sees the
previous complete build or the new one.  Where the exchange is not available the swap is two
renames, and a build interrupted between them is put back (the previous build) by the next
one.  A lock file beside the folder (``.aligned.lock``, ``flock``: released by the kernel
when the process dies, so a killed build never leaves a stale lock) keeps one build per
folder at a time.

Every command that writes a folder (``build --out``, ``site --out``, ``parse --export``) knows
what it wrote there from a record inside it (``build-report.json``, ``crpipe-site.json``,
``crpipe-export.json``: an ``outputs`` list of ``{"file": ...}``), read by
:func:`listed_outputs`; anything else in the folder is the user's and is never swapped away
or overwritten: the build carries a few notes over as found, the site refuses.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from .errors import BusyError, InputError
from .io import honour_umask, read_cache_json, sha256_file

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
#: Outputs found in the folder that no build wrote (a user's own notes): carried over as found.
FOREIGN = "(not written by crpipe build)"


def _exchange(a: Path, b: Path) -> None:
    """Swap two paths atomically (Linux ``renameat2``); OSError when the system cannot."""
    libc = ctypes.CDLL(None, use_errno=True)
    fn = getattr(libc, "renameat2", None)
    if fn is None:
        raise OSError(errno.ENOSYS, "renameat2 is not available")
    if fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) != 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e), str(a), None, str(b))


def listed_outputs(folder: Path, record: str) -> set[str] | None:
    """The files a command recorded writing into ``folder`` (relative paths), or None when the
    folder holds no readable record of that name (then nothing in it is known to be ours)."""
    data = read_cache_json(Path(folder) / record)  # our own output, read like a cache entry
    if not isinstance(data, dict) or not isinstance(data.get("outputs"), list):
        return None
    return {o["file"] for o in data["outputs"] if isinstance(o, dict) and isinstance(o.get("file"), str)}


def foreign_entries(folder: Path, record: str) -> list[str]:
    """Everything in ``folder`` (files, links, folders; relative paths, sorted) that its record
    does not list: what the user put there.  A folder is ours only when a listed file is in it;
    a damaged or foreign record is itself foreign."""
    folder = Path(folder)
    listed = listed_outputs(folder, record)
    if listed is None:
        # Nothing is ours: the top level says so without walking a tree (``--out ~`` by mistake).
        return sorted(p.name for p in folder.iterdir())
    ours = {*listed, record}
    for rel in list(ours):
        ours.update(str(p) for p in Path(rel).parents if str(p) != ".")
    return sorted(rel for rel in (str(p.relative_to(folder)) for p in folder.rglob("*")) if rel not in ours)


def record_of(files: list[str]) -> dict:
    """A folder's record of what a command wrote into it (what :func:`listed_outputs` reads)."""
    return {"outputs": [{"file": f} for f in sorted(set(files))]}


class BuildFolder:
    """``with BuildFolder(out) as f:`` write into ``f.staging``, then ``f.commit()``.

    ``record`` names the file in the folder that lists what the command wrote; ``foreign``
    says what happens to anything else found there: ``"carry"`` (the build: a few small files
    are carried into the new folder by the caller, a tree of them is refused) or ``"refuse"``
    (any of them refuses the run before it starts)."""

    def __init__(self, out: Path, wait: float | None = None, record: str = "build-report.json",
                 foreign: str = "carry", command: str = "crpipe build", job: str = "build"):
        out = Path(out)
        self.name = out.name
        self.parent = out.parent
        self.wait = wait
        self.record = record
        self.foreign = foreign
        self.command = command
        self.job = job  # what the lock messages call the other run
        self.staging: Path | None = None
        self._fd: int | None = None
        self._committed = False

    @property
    def final(self) -> Path:
        return self.parent / self.name

    def __enter__(self) -> "BuildFolder":
        if os.path.ismount(self.final):
            # Checked before anything is written: a mount point cannot be renamed (EBUSY), so the
            # swap would fail only after the whole run.
            raise InputError(f"is a mount point, and {self.command} replaces its output folder as a whole; "
                             "give a folder inside it", self.final)
        self.parent.mkdir(parents=True, exist_ok=True)
        self.parent = self.parent.resolve()
        self._lock()
        try:
            self._recover()
            if self.final.exists() and not self.final.is_dir():
                raise InputError("the output folder is a file", self.final)
            if self.final.is_dir():
                self._check_foreign()
            self.staging = Path(tempfile.mkdtemp(prefix=f".{self.name}.staging-", dir=self.parent))
            honour_umask(self.staging, directory=True)
        except BaseException:
            self._unlock()
            raise
        return self

    def _check_foreign(self) -> None:
        if self.foreign == "carry":
            if not (self.final / self.record).is_file() and not _few_notes(self.final):
                raise InputError(f"holds folders or many files that no {self.command} wrote (no {self.record}); "
                                 "give an empty or new --out folder", self.final)
            return
        found = foreign_entries(self.final, self.record)
        if found:
            # repr: a name with a newline in it still makes one line
            what = f"{found[0]!r} and {len(found) - 1} more" if len(found) > 1 else repr(found[0])
            raise InputError(f"holds {what} that {self.command} did not write and would replace with the folder; "
                             f"move {'them' if len(found) > 1 else 'it'} or give an empty or new --out folder",
                             self.final)

    def __exit__(self, et, ev, tb) -> None:
        if isinstance(ev, OSError) and self.staging is not None and not self._committed \
                and isinstance(ev.filename, str) and Path(ev.filename).is_relative_to(self.staging):
            # The staging folder is removed below: name the output as the user knows it.
            ev.filename = str(self.final / Path(ev.filename).relative_to(self.staging))
        try:
            if not self._committed and self.staging is not None:
                shutil.rmtree(self.staging, ignore_errors=True)
        finally:
            self._unlock()

    # -- the lock ------------------------------------------------------------------
    def _lock(self) -> None:
        path = self.parent / f".{self.name}.lock"
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
                if self.wait == 0:
                    raise BusyError(f"another {self.job} (pid {holder}) is writing this folder; "
                                    "try again when it ends", self.final) from None
                print(f"crpipe: waiting for the {self.job} running in pid {holder} ({self.final})", file=sys.stderr)
                self._wait_for(fd, holder)
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd

    def _wait_for(self, fd: int, holder: str) -> None:
        if self.wait is None:
            fcntl.flock(fd, fcntl.LOCK_EX)
            return
        deadline = time.monotonic() + self.wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise BusyError(f"another {self.job} (pid {holder}) still holds this folder after "
                                    f"{self.wait:g} s", self.final) from None
                time.sleep(0.2)

    def _unlock(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing releases the flock
            self._fd = None

    # -- staging and swap ------------------------------------------------------------
    def _recover(self) -> None:
        """Put back a previous build left beside the folder by an interrupted swap; remove the
        staging folders of killed builds (we hold the lock: none of them is running)."""
        olds = sorted(self.parent.glob(f".{self.name}.old-*"), key=lambda p: p.stat().st_mtime)
        if not self.final.exists() and olds:
            os.rename(olds.pop(), self.final)
        for p in [*self.parent.glob(f".{self.name}.staging-*"), *olds]:
            shutil.rmtree(p, ignore_errors=True)

    def previous_report(self) -> dict | None:
        """The report of the build now in the folder (None when there is none or it is damaged)."""
        if not self.final.is_dir():
            return None
        data = read_cache_json(self.final / "build-report.json")  # our own output, like a cache entry
        if not isinstance(data, dict):
            data = {}
        listed = {o.get("file") for o in data.get("outputs", []) if isinstance(o, dict)}
        foreign = []
        for p in sorted(self.final.rglob("*")):
            rel = str(p.relative_to(self.final))
            if p.is_file() and not p.is_symlink() and rel not in listed and rel != "build-report.json":
                foreign.append({"file": rel, "stage": FOREIGN, "sha256": sha256_file(p)})
        data["outputs"] = [o for o in data.get("outputs", []) if isinstance(o, dict)] + foreign
        return data if data["outputs"] else None

    def commit(self) -> None:
        """Swap the staging folder in; the previous build is removed afterwards."""
        assert self.staging is not None
        if not self.final.exists():
            os.rename(self.staging, self.final)
            self._committed = True
            return
        try:
            _exchange(self.staging, self.final)
            old = self.staging
        except OSError as e:
            if e.errno not in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
                raise
            old = self.parent / f".{self.name}.old-{os.getpid()}"
            os.rename(self.final, old)
            os.rename(self.staging, self.final)
        self._committed = True
        shutil.rmtree(old, ignore_errors=True)


def _few_notes(folder: Path, most: int = 20, size: int = 1 << 20) -> bool:
    """A folder no build wrote may still be used when it holds only a few small files (the
    repository's ``aligned/README.md``): they are carried into every build as found.  Anything
    more (``--out .`` or a home folder by mistake) is refused rather than swapped away."""
    entries = list(folder.iterdir())
    return len(entries) <= most and all(p.is_file() and not p.is_symlink() and p.stat().st_size <= size
                                        for p in entries)
