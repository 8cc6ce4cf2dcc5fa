"""Release-time step: the search keys of every chunk of the embedded archive's newest edition.

    python -m pipeline.pack_search_terms [--out pipeline/data/editions/search-terms-en.json.xz]

A first ``crpipe search`` indexes the newest edition, and keying its ~8k texts needs spaCy's
tokenizer (~2 s CPU with its import); the keys of a whitespace-free chunk depend on the chunk
alone (:mod:`pipeline.search_terms`), so they are computed here once, with a table that starts
empty, over exactly the texts the index holds.  Keyed by the code and the versions of spaCy and
the stemmer: with others, or after a change to that code, the shipped table is not read
(``tests/test_search_terms.py`` fails until this is run again).  Deterministic: same archive,
code and versions, same bytes.
"""

from __future__ import annotations

import tempfile

from .environ import environment
from .release_data import main as release_main


def _make() -> tuple[bytes, str]:
    # A cache of its own, empty, and no mirror: the embedded archive's newest edition, parsed as
    # `crpipe search` parses it, and a table holding its chunks and nothing else.  The cache is
    # this step's own scratch folder, removed when done.
    with tempfile.TemporaryDirectory(prefix="crpipe-pack-search-") as scratch, \
            environment(CRPIPE_CACHE=scratch, CRPIPE_MIRROR=None):
        from . import search_terms  # noqa: PLC0415 - after the cache is set
        from .search import index_rows  # noqa: PLC0415 - as above
        from .editions import default_catalog, default_edition  # noqa: PLC0415 - as above

        search_terms._shipped = lambda lang: None  # the table is made from spaCy alone, never from itself
        ref = default_edition(default_catalog())
        index_rows(ref.parse())
        table = search_terms._memo("en").table
        return search_terms.serialise(dict(sorted(table.items()))), f"{ref.name}: {len(table)} chunks"


def main(argv: list[str] | None = None) -> int:
    from .search_terms import shipped_path  # noqa: PLC0415 - as above

    return release_main(argv, "Write the search keys of the newest embedded edition into the package.",
                        shipped_path(), _make)


if __name__ == "__main__":
    raise SystemExit(main())
