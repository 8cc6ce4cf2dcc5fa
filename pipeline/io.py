"""Output at the edges: atomic writes and deterministic JSON.

Every file is written to a temporary name in the same folder and renamed into place,
so a failure never leaves a partial output behind.
"""

from __future__ import annotations

import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator


def cache_root() -> Path:
    """The one cache folder every stage uses: ``$CRPIPE_CACHE``, else ``$XDG_CACHE_HOME/crpipe``.

    Caches are derived data (edition inventories, lexicons, diff matches); deleting the
    folder only costs time.
    """
    base = os.environ.get("CRPIPE_CACHE")
    if base:
        return Path(base)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "crpipe"


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
