"""Release-time step: the light paragraphs of every embedded edition, into the package.

    python -m pipeline.editions.pack_light_paragraphs [--out pipeline/data/editions/light-paragraphs.json.xz]

Run it after :mod:`pipeline.editions.pack` and after any change to the decoder or the light form
(``tests/test_shipped_light_paragraphs.py`` fails until it is run: the file is keyed by that code).
Each edition is read from the embedded archive and decoded as pinning reads a file, and nothing
else goes in.  The output is deterministic: same archive and code, same bytes.
"""

from __future__ import annotations

from .embedded import embedded
from ..decode import decode_bytes
from ..release_data import main as release_main
from .light_paragraphs import light_paragraphs, serialise, shipped_path


def read_all() -> dict[str, frozenset[str]]:
    """sha256 -> light paragraphs, for every edition of the embedded archive (in its order)."""
    arch = embedded()
    out = {}
    for e in arch.editions:
        out[e["sha256"]] = light_paragraphs(decode_bytes(arch.read(e["name"]), f"embedded:{e['name']}").text)
    return out


def _make() -> tuple[bytes, str]:
    by_sha = read_all()
    return serialise(by_sha), f"{len(by_sha)} editions, {sum(map(len, by_sha.values()))} paragraphs"


def main(argv: list[str] | None = None) -> int:
    return release_main(argv, "Write the light paragraphs of the embedded editions into the package.",
                        shipped_path(), _make)


if __name__ == "__main__":
    raise SystemExit(main())
