"""Release step: the embedded archive's consecutive-edition matches, shipped in the package.

    python -m pipeline.diff.release

Writes ``pipeline/data/editions/pairs-<matcher key>.json.xz`` (and removes files of older keys):
every consecutive pair of the embedded editions matched exactly as :meth:`EditionArchive.pair`
matches it, so a first ``show`` or ``history`` reads them instead of matching 109 pairs.
``tests/test_history_shipped.py`` fails when the matcher changed and this was not re-run.
"""

from __future__ import annotations

import json
import lzma
import tempfile

from ..editions.catalog import Catalog
from .history import SHIPPED_DIR, EditionArchive, shipped_pairs_path


def build() -> dict[str, dict]:
    with tempfile.TemporaryDirectory() as tmp:
        arch = EditionArchive(Catalog(use_cache=False), cache_dir=tmp)  # the embedded editions only
        embedded = [i for i in range(len(arch.editions) - 1)
                    if arch.editions[i].ref.source == "embedded" and arch.editions[i + 1].ref.source == "embedded"]
        out = {}
        for i in embedded:
            out[arch._pair_key(i)] = arch.match_pair(i).to_dict()
        return dict(sorted(out.items()))


def main() -> None:
    table = build()
    path = shipped_pairs_path()
    for old in SHIPPED_DIR.glob("pairs-*.json.xz"):
        if old != path:
            old.unlink()
    data = json.dumps(table, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
    path.write_bytes(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
    print(f"{len(table)} pairs -> {path} ({path.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
