"""Every English edition crpipe knows (:mod:`.catalog`: mirror, cache, the embedded archive),
one way to name one, and which of them a document is based on (:mod:`.base`).

The editions one translation is read against, and how its numbers move between them, are the
diff's (:mod:`pipeline.diff.context`): they travel through the archive of consecutive diffs.
"""

from __future__ import annotations

from .catalog import (DATE_RE, SOURCES, Catalog, EditionRef, as_catalog, default_catalog, default_edition,
                      default_mirror, load_edition, resolve_edition, scan_folder, user_editions_dir, warn_once)

__all__ = ["DATE_RE", "SOURCES", "Catalog", "EditionRef", "as_catalog", "default_catalog", "default_edition", "default_mirror",
           "load_edition", "resolve_edition", "scan_folder", "user_editions_dir", "warn_once"]
