"""A static, browsable rules site: editions, traces, change pages, translations, rulings, search.

Public API::

    build_site(out, editions=None, all_editions=False, reports=None, notebooks=None, pairs=None) -> [Path]
"""

from .generate import build_site, default_editions

__all__ = ["build_site", "default_editions"]
