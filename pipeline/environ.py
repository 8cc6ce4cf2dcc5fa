"""Environment variables set for a while and then put back as they were.

For a step that runs crpipe's own code under other settings (a notebook executed for the site,
a release step with a scratch cache): the settings hold inside the ``with`` block only, whatever
happens in it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager


def _put(name: str, value: str | None) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


@contextmanager
def environment(**values: str | None) -> Iterator[None]:
    """Each variable set to its value (None: unset) for the block; afterwards every one is as
    it was before it."""
    saved = {k: os.environ.get(k) for k in values}
    try:
        for k, v in values.items():
            _put(k, v)
        yield
    finally:
        for k, v in saved.items():
            _put(k, v)
