"""Every English edition crpipe knows (:mod:`.catalog`: mirror, cache, the embedded archive),
one way to name one, and the editions one translation is read against (:mod:`.context`).

The context names are loaded on first use: :mod:`.context` reads editions through the diff's
archive, which itself reads the catalog, so importing the catalog must not pull it in.
"""

from __future__ import annotations

from .catalog import (DATE_RE, SOURCES, Catalog, EditionRef, as_catalog, default_catalog, default_edition,
                      default_mirror, load_edition, resolve_edition, scan_folder, user_editions_dir, warn_once)

_CONTEXT = ("EditionContext", "editions_for", "reference_only", "resolve_editions", "stage_editions")

__all__ = ["DATE_RE", "SOURCES", "Catalog", "EditionRef", "as_catalog", "default_catalog", "default_edition", "default_mirror",
           "load_edition", "resolve_edition", "scan_folder", "user_editions_dir", "warn_once", *_CONTEXT]


def __getattr__(name):
    if name in _CONTEXT:
        from . import context  # deferred: see the module docstring

        return getattr(context, name)
    raise AttributeError(name)
