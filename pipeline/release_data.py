"""Files the package ships that are computed from its own data at release time (the pair maps of
the embedded editions, their light paragraphs): xz-compressed JSON, each keyed by the code that
would compute it now, so a file made by other code is never read (the data is then computed as
without it).  One writer and one reader for all of them."""

from __future__ import annotations

import argparse
import json
import lzma
from collections.abc import Callable
from pathlib import Path

from .errors import CrpipeError
from .io import atomic_write, read_bounded


def pack(version: int, key: str, body: dict) -> bytes:
    """The file's bytes: ``body`` with its ``version`` and ``key``; deterministic (sorted keys,
    fixed xz settings)."""
    text = json.dumps({**body, "version": version, "key": key}, ensure_ascii=False, sort_keys=True,
                      separators=(",", ":"))
    return lzma.compress(text.encode("utf-8"), preset=9 | lzma.PRESET_EXTREME)


def read_any(path: str | Path) -> dict | None:
    """The file as written, whatever code made it (to say what it was made with), or None."""
    try:
        data = json.loads(lzma.decompress(read_bounded(path, what="release data file", env=None)))
    except (CrpipeError, OSError, ValueError, lzma.LZMAError):
        return None
    return data if isinstance(data, dict) else None


def unpack(path: str | Path, version: int, key: str) -> dict | None:
    """The file's body, or None when it is absent (a checkout before the release step), damaged,
    or of another version or key (made by other code: its data might not be what the code gives)."""
    data = read_any(path)
    if not (data is not None and data.get("version") == version and data.get("key") == key):
        return None
    return data


def main(argv: list[str] | None, description: str, default_out: Path, make: Callable[[], tuple[bytes, str]]) -> int:
    """A release step's command line: ``make()`` gives the bytes and a summary; written to ``--out``."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--out", type=Path, default=default_out, help="the file to write (default: the package's)")
    a = ap.parse_args(argv)
    data, summary = make()
    atomic_write(a.out, data)
    print(f"{a.out}: {summary}, {len(data) / 1024:.0f} KiB")
    return 0
