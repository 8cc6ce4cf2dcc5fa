"""Rules-change diffing: what changed between two editions, renumbering recognised.

``diff_documents(old, new)`` matches rules by content and structure and classifies the
changes; ``EditionArchive`` follows rules through a folder of editions (``history``).
"""

from . import history
from .classify import Cascade, Change, DiffResult, diff_documents, stale_references

__all__ = ["Cascade", "Change", "DiffResult", "diff_documents", "stale_references", "EditionArchive", "Lineage"]


def __getattr__(name):  # the archive pulls in more; import it on first use
    if name in ("EditionArchive", "Lineage"):
        return getattr(history, name)
    raise AttributeError(name)
