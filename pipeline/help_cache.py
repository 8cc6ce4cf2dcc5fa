"""``crpipe --help`` replayed from the cache: the same characters, without loading Typer.

The top-level help is Typer's rich rendering of every command's signature and docstring
(~0.15 s of imports and layout).  Its text depends only on the command modules' code, the
Typer and rich versions, the interpreter, how the program was started (its name in the
usage line) and the terminal: whether stdout is one, its size and encoding, and the
environment variables rich and Typer read for colour and width.  All of these make the
cache key; the first ``--help`` under a key renders live, recording what it writes, and
later ones print the recording.  A damaged entry is ignored and rendered again
(tests/test_cli_imports.py checks the replay equals the live rendering).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from contextlib import contextmanager
from importlib.util import find_spec
from pathlib import Path
from typing import Iterator

from .io import cache_root, cache_write, read_cache_json, source_key

#: Bump when the recording's format changes.
HELP_VERSION = 1
#: Environment variables that change how rich and Typer render (colour, width, terminal).
_ENV_WORDS = ("COLOR", "TERM", "TTY", "COLUMNS", "LINES", "TYPER", "RICH", "JUPYTER", "WIDTH", "PYCHARM",
              "GITHUB_ACTIONS", "CI", "LANG", "LC_", "PYTHONIOENCODING", "PYTHONUTF8", "WT_SESSION")


def _versions() -> list[str]:
    """The installed Typer and rich (their dist-info folders carry the version)."""
    out = []
    for name in ("typer", "rich", "click"):
        spec = find_spec(name)
        if spec is None or spec.origin is None:
            out.append(f"{name}:none")
            continue
        pkg = Path(spec.origin).parent
        out.append(f"{name}:{pkg}:" + ",".join(sorted(p.name for p in pkg.parent.glob(f"{name}-*.dist-info"))))
    return out


def help_key(stream=None) -> str:
    """Everything the top-level help's text depends on, hashed."""
    stream = stream or sys.stdout
    h = hashlib.sha256(f"crpipe-help/{HELP_VERSION}\0{sys.version}\0{sys.executable}".encode())
    here = Path(__file__).resolve().parent
    h.update(source_key(HELP_VERSION, [here / "cli.py", here / "help_cache.py", here / "cli_options.py",
                                       *sorted((here / "commands").glob("*.py"))]).encode())
    for v in _versions():
        h.update(v.encode() + b"\0")
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    h.update(f"{sys.argv[0]}\0{getattr(spec, 'name', None)}\0".encode())
    for k in sorted(os.environ):
        if any(w in k for w in _ENV_WORDS):
            h.update(f"{k}={os.environ[k]}\0".encode())
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError, OSError):
        tty = False
    size = None
    if tty:
        try:
            size = tuple(os.get_terminal_size(stream.fileno()))
        except (AttributeError, ValueError, OSError):
            size = None
    h.update(f"tty={tty}\0size={size}\0enc={getattr(stream, 'encoding', None)}\0".encode())
    return h.hexdigest()[:32]


def _path(key: str) -> Path:
    return cache_root() / "help" / f"{key}.json"


def cached_help(key: str) -> str | None:
    """The recorded help for ``key``, or None (absent, damaged or another key's)."""
    entry = read_cache_json(_path(key))
    if isinstance(entry, dict) and entry.get("key") == key and isinstance(entry.get("text"), str) and entry["text"]:
        return entry["text"]
    return None


class _Tee:
    """A stand-in for ``sys.stdout`` that writes through and keeps a copy; everything else
    (isatty, fileno, encoding) is the real stream's, so rich renders exactly as it would."""

    def __init__(self, real) -> None:
        self._real = real
        self.parts: list[str] = []

    def write(self, s: str) -> int:
        n = self._real.write(s)  # first: click probes with bytes, which a text stream refuses
        self.parts.append(s)
        return n

    def __getattr__(self, name):
        return getattr(self._real, name)


@contextmanager
def recording(key: str) -> Iterator[None]:
    """Record what is written to stdout; keep it under ``key`` when the block ends in a
    successful exit (help exits with status 0)."""
    real = sys.stdout
    tee = _Tee(real)
    sys.stdout = tee
    ok = False
    try:
        yield
        ok = True
    except SystemExit as e:
        ok = e.code in (0, None)
        raise
    finally:
        sys.stdout = real
        text = "".join(tee.parts)
        if ok and text:
            cache_write(_path(key), json.dumps({"key": key, "text": text}, ensure_ascii=False))
