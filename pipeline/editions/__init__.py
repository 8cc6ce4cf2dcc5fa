"""Every English edition crpipe knows (:mod:`.catalog`: mirror, cache, the embedded archive),
one way to name one, and which of them a document is based on (:mod:`.base`).

The editions one translation is read against, and how its numbers move between them, are the
diff's (:mod:`pipeline.diff.context`): they travel through the archive of consecutive diffs.

The catalog's names are loaded on first use: parsing a document imports :mod:`.base` (its
stated date is its base edition) and needs no catalog, no archive reader (CLI start-up time).
"""

from __future__ import annotations

import importlib

__all__ = ["DATE_RE", "SOURCES", "Catalog", "EditionRef", "as_catalog", "default_catalog", "default_edition", "default_mirror",
           "load_edition", "resolve_edition", "scan_folder", "user_editions_dir", "warn_once"]


def __getattr__(name):
    if name not in __all__:
        raise AttributeError(name)
    return getattr(importlib.import_module(f"{__name__}.catalog"), name)
