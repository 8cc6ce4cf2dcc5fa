"""The Hunspell dictionaries translators already use (Debian ``hunspell-pt-br``, ``hunspell-es``,
``hunspell-en-us``), read with spylls.

Why spylls: it is a faithful pure-Python port of Hunspell's lookup (affix rules, compounding,
casing), so it reads the very ``.aff``/``.dic`` files LibreOffice and CAT tools use, with no C
library to build and no network; the bindings to the C hunspell (``hunspell``, ``cyhunspell``)
need ``libhunspell-dev`` and a compiler and are unmaintained.  Loading pt_BR takes ~4-6 s, so a
dictionary is loaded only when a check has a word no other lexicon knows, and once per process.

A missing dictionary is not an error: :func:`speller` returns None and :func:`missing_reason`
says which Debian package to install; checks then fall back to the spaCy lookup lexicon and
say so in the report's notes.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

#: Where Debian and other distributions put Hunspell dictionaries; ``CRPIPE_HUNSPELL_DIR`` first.
DIRS = ("/usr/share/hunspell", "/usr/share/myspell/dicts", "/usr/share/myspell", "/usr/local/share/hunspell")
#: Dictionary names per language, preferred first (the Brazilian translation uses pt_BR).
NAMES = {"pt": ("pt_BR", "pt_PT"), "es": ("es_ES", "es_MX", "es_AR", "es_US"), "en": ("en_US", "en_GB")}
PACKAGES = {"pt": "hunspell-pt-br", "es": "hunspell-es", "en": "hunspell-en-us"}


def _dirs() -> list[Path]:
    env = os.environ.get("CRPIPE_HUNSPELL_DIR")
    return [Path(d) for d in ((env,) if env else ()) + DIRS]


def dictionary_path(lang: str) -> Path | None:
    """The ``.aff``/``.dic`` stem for ``lang``, or None."""
    for name in NAMES.get(lang, (lang,)):
        for d in _dirs():
            if (d / f"{name}.aff").is_file() and (d / f"{name}.dic").is_file():
                return d / name
    return None


def missing_reason(lang: str) -> str:
    return (f"no Hunspell dictionary for {lang!r} in {', '.join(map(str, _dirs()))} "
            f"(install Debian's {PACKAGES.get(lang, 'hunspell-' + lang)} or set CRPIPE_HUNSPELL_DIR); "
            "spelling falls back to the spaCy lookup lexicon")


class Speller:
    """Word lookups (memoised) against one Hunspell dictionary."""

    def __init__(self, lang: str, stem: Path):
        from spylls.hunspell import Dictionary

        self.lang, self.path = lang, stem
        self._dict = Dictionary.from_files(str(stem))
        self._memo: dict[str, bool] = {}

    def __contains__(self, word: str) -> bool:
        r = self._memo.get(word)
        if r is None:
            try:
                r = bool(self._dict.lookup(word))
            except Exception:  # spylls can fail on exotic characters; such a word is not known
                r = False
            self._memo[word] = r
        return r

    def suggest(self, word: str, limit: int = 3) -> list[str]:
        out = []
        try:
            for s in self._dict.suggest(word):
                out.append(s)
                if len(out) >= limit:
                    break
        except Exception:
            pass
        return out


@lru_cache(maxsize=None)
def speller(lang: str) -> Speller | None:
    """The Hunspell speller for ``lang``, or None when no dictionary is installed (or spylls is not)."""
    stem = dictionary_path(lang)
    if stem is None:
        return None
    try:
        return Speller(lang, stem)
    except ImportError:
        return None
