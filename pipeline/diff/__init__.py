"""Rules-change diffing: what changed between two editions, renumbering recognised.

``diff_documents(old, new)`` matches rules by content and structure and classifies the
changes; ``EditionArchive`` follows rules through a folder of editions (``history``);
:mod:`.context` resolves the editions one translation is read against and maps its numbers
through that archive.
"""

from __future__ import annotations

import importlib

__all__ = ["Cascade", "Change", "DiffResult", "diff_documents", "stale_references", "EditionArchive", "Lineage"]

# Imported on first use: the matcher pulls in numpy, rapidfuzz and the cross-reference graph
# (networkx), which a warm history query, served from the cache, never needs.
_HOME = {"Cascade": "classify", "Change": "classify", "DiffResult": "classify", "diff_documents": "classify",
         "stale_references": "classify", "EditionArchive": "history", "Lineage": "history"}


def __getattr__(name):
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(name)
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
