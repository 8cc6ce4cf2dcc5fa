"""Release-time step: match every consecutive pair of the embedded archive into the package.

    python -m pipeline.diff.pack_pairs [--out pipeline/data/editions/pairs.json.xz]

Run it after :mod:`pipeline.editions.pack` and after any change to the matcher or the parser
(``tests/test_shipped_pairs.py`` fails until it is run: the file is keyed by that code).  The
pairs are matched here, one after the other, from the embedded editions alone: no cache entry
and no earlier shipped file is read, so nothing but this code's matching goes into it.  The
output is deterministic: same archive and code, same bytes.
"""

from __future__ import annotations

import sys

from ..editions.catalog import Catalog
from ..release_data import main as release_main
from .history import EditionArchive
from .shipped import serialise, shipped_path


def embedded_archive(cache_dir) -> EditionArchive:
    """The embedded archive's editions as an :class:`EditionArchive` using no shipped pair."""
    return EditionArchive(Catalog(use_cache=False), cache_dir=cache_dir, shipped=False)


def match_all(archive: EditionArchive, progress=None) -> dict[str, dict]:
    """``old sha256-new sha256`` -> the pair's map, for every consecutive pair of ``archive``."""
    out = {}
    n = len(archive.editions) - 1
    for i in range(n):
        a, b = archive.editions[i], archive.editions[i + 1]
        out[f"{a.sha256}-{b.sha256}"] = archive.match_pair(i).to_dict()
        if progress:
            progress(i + 1, n)
    return out


def _make() -> tuple[bytes, str]:
    import tempfile  # noqa: PLC0415 - release time only

    with tempfile.TemporaryDirectory() as tmp:
        pairs = match_all(embedded_archive(tmp), lambda i, n: print(f"\r{i}/{n} pairs", end="", file=sys.stderr))
    print(file=sys.stderr)
    return serialise(pairs), f"{len(pairs)} pairs"


def main(argv: list[str] | None = None) -> int:
    return release_main(argv, "Match the embedded archive's consecutive editions into the package.", shipped_path(),
                        _make)


if __name__ == "__main__":
    raise SystemExit(main())
