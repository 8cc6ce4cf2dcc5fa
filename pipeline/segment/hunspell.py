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

import atexit
import os
from functools import lru_cache
from pathlib import Path

from ..io import cache_root, read_cache_json, write_json

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
    """Word lookups against one Hunspell dictionary, memoised in memory and on disk.

    The dictionary itself is loaded only on the first word the memo has not seen: checks ask
    about the same few hundred unknown-to-the-lexicon words run after run, so a second run
    on a translation usually never loads it.  The disk memo is keyed by the dictionary
    files' size and modification time (``$CRPIPE_CACHE/hunspell``)."""

    def __init__(self, lang: str, stem: Path):
        self.lang, self.path = lang, stem
        self._dict = None
        st = [Path(f"{stem}.{x}").stat() for x in ("aff", "dic")]
        self._cache = cache_root() / "hunspell" / f"{stem.name}-{st[1].st_size}-{st[0].st_mtime_ns}-{st[1].st_mtime_ns}.json"
        memo = read_cache_json(self._cache)
        self._memo: dict[str, bool] = memo if isinstance(memo, dict) else {}
        self._dirty = False

    def _load(self):
        if self._dict is None:
            from spylls.hunspell import Dictionary  # optional dependency, needed only on a memo miss

            self._dict = Dictionary.from_files(str(self.path))
        return self._dict

    def __contains__(self, word: str) -> bool:
        r = self._memo.get(word)
        if r is None:
            try:
                r = bool(self._load().lookup(word))
            except ImportError:
                raise
            except Exception:  # spylls can fail on exotic characters; such a word is not known
                r = False
            self._memo[word] = r
            self._dirty = True
        return r

    def save(self) -> None:
        """Write the memo (atomic; a read-only cache only costs time)."""
        if not self._dirty:
            return
        try:
            write_json(self._cache, self._memo)
            self._dirty = False
        except OSError:
            pass

    def suggest(self, word: str, limit: int = 3) -> list[str]:
        out = []
        try:
            for s in self._load().suggest(word):
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
        import spylls  # noqa: F401 - the reader; absent, spelling falls back to the lexicon
    except ImportError:
        return None
    sp = Speller(lang, stem)
    atexit.register(sp.save)
    return sp
