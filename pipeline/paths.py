"""Default locations, resolved from the project or the user's data folder -- never the cwd.

A checkout (or an editable install) has ``corpus/`` beside the ``pipeline`` package: that is
the project, and ``aligned/`` is written beside it.  An installed package without a checkout
uses ``$CRPIPE_HOME`` or ``$XDG_DATA_HOME/crpipe`` (default ``~/.local/share/crpipe``).
"""

from __future__ import annotations

import os
from pathlib import Path


def project_root() -> Path:
    """The project folder: ``$CRPIPE_HOME``, the checkout holding this package, or the data folder."""
    env = os.environ.get("CRPIPE_HOME")
    if env:
        return Path(env).expanduser().resolve()
    here = Path(__file__).resolve().parent.parent
    if (here / "corpus" / "manifest.yaml").is_file():
        return here
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "crpipe"


def default_corpus() -> Path:
    return project_root() / "corpus"


def default_out() -> Path:
    return project_root() / "aligned"


def default_search_db() -> Path:
    return default_out() / "en-reference.sqlite"
