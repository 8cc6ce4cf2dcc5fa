"""The Hunspell dictionaries translators already use (Debian ``hunspell-pt-br``, ``hunspell-es``,
``hunspell-en-us``), read with spylls.

Why spylls: it is a faithful pure-Python port of Hunspell's lookup (affix rules, compounding,
casing), so it reads the very ``.aff``/``.dic`` files LibreOffice and CAT tools use, with no C
library to build and no network; the bindings to the C hunspell (``hunspell``, ``cyhunspell``)
need ``libhunspell-dev`` and a compiler and are unmaintained.  Loading pt_BR takes ~4-6 s, so a
dictionary is loaded only when a check has a word no other lexicon knows, and once per process;
where the C library is installed (``libhunspell``, which Debian's ``hunspell`` command is built
on), plain words are asked of it instead (the same dictionary read by the C library: ~0.4 s to
load; it agreed with spylls on all 3,973 distinct words of the pt-BR PO's translations), through
``ctypes``; else of the ``hunspell`` command over its ispell pipe.

A missing dictionary is not an error: :func:`speller` returns None and :func:`missing_reason`
says which Debian package to install; checks then fall back to the spaCy lookup lexicon and
say so in the report's notes.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

from ..io import cache_root, read_cache_json, write_json
from ..profiles import PROFILES

#: Where Debian and other distributions put Hunspell dictionaries; ``CRPIPE_HUNSPELL_DIR`` first.
DIRS = ("/usr/share/hunspell", "/usr/share/myspell/dicts", "/usr/share/myspell", "/usr/local/share/hunspell")
#: Dictionary names per language, preferred first, and their packages: the profiles' data.
NAMES = {p.lang: p.hunspell_dictionaries for p in PROFILES.values() if p.hunspell_dictionaries}
PACKAGES = {p.lang: p.hunspell_package for p in PROFILES.values() if p.hunspell_package}


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
            r = self._cli.lookup(word) if self._cli is not None and _CLI_WORD.fullmatch(word) else None
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

    @property
    def _cli(self):
        """The C hunspell on the same dictionary, when installed (the library, else Debian's
        ``hunspell`` command): it loads pt_BR in ~0.4 s where spylls takes ~5 s, so a first run
        (an empty memo) does not pay for the whole dictionary to look up a few hundred words.
        Only plain words go through it (the command splits "revela-lo" where spylls looks the
        whole form up; the library is given the same words, so the two agree)."""
        if not hasattr(self, "_cli_pipe"):
            self._cli_pipe = HunspellLibrary.start(self.path) or HunspellPipe.start(self.path)
        return self._cli_pipe

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
        if self._cli is not None and _CLI_WORD.fullmatch(word):
            found = self._cli.suggestions(word)
            if found is not None:
                return found[:limit]
        out = []
        try:
            for s in self._load().suggest(word):
                out.append(s)
                if len(out) >= limit:
                    break
        except Exception:
            pass
        return out


_CLI_WORD = re.compile(r"[^\W\d_]+")


#: The C library's names (Debian's libhunspell-1.7-0, which the ``hunspell`` command needs).
_LIBRARIES = ("libhunspell-1.7.so.0", "libhunspell-1.6.so.0", "libhunspell.so")


class HunspellLibrary:
    """The C library itself through ``ctypes``: ``Hunspell_spell`` says yes or no, nothing more.

    The ispell pipe of the ``hunspell`` command computes suggestions for every word it does not
    know, which is most of its cost: ~2 s CPU for the hundred-odd unknown words of the pt-BR PO,
    where the library answers the same question in microseconds.  The verdicts are the
    command's: it calls the same ``Hunspell::spell`` per word (compared on the PO's 4,605
    distinct plain words of its translations and their upper-case and capitalised forms: no
    difference).  Only dictionaries in UTF-8 are read this way (every Debian pt, es and en one);
    another encoding goes through the pipe, which converts."""

    def __init__(self, lib, handle):
        self._lib, self._h = lib, handle

    @classmethod
    def start(cls, stem: Path) -> "HunspellLibrary | None":
        if os.environ.get("CRPIPE_HUNSPELL_CLI") == "0":
            return None
        import ctypes  # only when a word misses the memo

        lib = None
        for name in _LIBRARIES:
            try:
                lib = ctypes.CDLL(name)
                break
            except OSError:
                continue
        if lib is None:
            return None
        try:
            lib.Hunspell_create.restype = ctypes.c_void_p
            lib.Hunspell_create.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
            lib.Hunspell_get_dic_encoding.restype = ctypes.c_char_p
            lib.Hunspell_get_dic_encoding.argtypes = [ctypes.c_void_p]
            lib.Hunspell_spell.restype = ctypes.c_int
            lib.Hunspell_spell.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
            lib.Hunspell_destroy.argtypes = [ctypes.c_void_p]
            lib.Hunspell_suggest.restype = ctypes.c_int
            lib.Hunspell_suggest.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.POINTER(ctypes.c_char_p)),
                                             ctypes.c_char_p]
            lib.Hunspell_free_list.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.POINTER(ctypes.c_char_p)),
                                               ctypes.c_int]
        except AttributeError:  # not the Hunspell C API
            return None
        handle = lib.Hunspell_create(os.fsencode(f"{stem}.aff"), os.fsencode(f"{stem}.dic"))
        if not handle:
            return None
        encoding = (lib.Hunspell_get_dic_encoding(handle) or b"").decode("ascii", "replace")
        if encoding.replace("-", "").upper() != "UTF8":
            lib.Hunspell_destroy(handle)
            return None
        return cls(lib, handle)

    def lookup(self, word: str) -> bool | None:
        """Whether the dictionary knows ``word``; None when it cannot be asked."""
        if "\x00" in word:
            return None
        try:
            data = word.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: the pipe cannot send it either
            return None
        return bool(self._lib.Hunspell_spell(self._h, data))

    def suggestions(self, word: str) -> list[str] | None:
        """Hunspell's suggestions for ``word`` (``Hunspell::suggest``, as the command gives them
        on its "&" line; none for a word it knows); None when it cannot be asked."""
        import ctypes  # noqa: PLC0415 - only when a non-word asks for suggestions

        if "\x00" in word:
            return None
        try:
            data = word.encode("utf-8")
        except UnicodeEncodeError:
            return None
        if self._lib.Hunspell_spell(self._h, data):
            return []
        slst = ctypes.POINTER(ctypes.c_char_p)()
        n = self._lib.Hunspell_suggest(self._h, ctypes.byref(slst), data)
        try:
            return [slst[i].decode("utf-8", "replace") for i in range(n)]
        finally:
            if n:
                self._lib.Hunspell_free_list(self._h, ctypes.byref(slst), n)


class HunspellPipe:
    """One ``hunspell -a`` process (the ispell pipe protocol): a word per line, prefixed with
    "^" so that no word is read as a command; "*", "+" or "-" means known."""

    def __init__(self, proc):
        self.proc = proc

    @classmethod
    def start(cls, stem: Path) -> "HunspellPipe | None":
        exe = shutil.which("hunspell")
        if exe is None or os.environ.get("CRPIPE_HUNSPELL_CLI") == "0":
            return None
        try:
            proc = subprocess.Popen([exe, "-a", "-i", "utf-8", "-d", str(stem)], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, encoding="utf-8",
                                    bufsize=1)
            if not proc.stdout.readline().startswith("@(#)"):  # the banner: the dictionary loaded
                proc.kill()
                return None
        except OSError:
            return None
        pipe = cls(proc)
        atexit.register(pipe.close)
        return pipe

    def lookup(self, word: str) -> bool | None:
        """Whether the dictionary knows ``word``; None when the process is gone."""
        try:
            self.proc.stdin.write(f"^{word}\n")
            self.proc.stdin.flush()
            verdicts = []
            while (line := self.proc.stdout.readline()) not in ("\n", ""):
                verdicts.append(line[:1])
        except (OSError, ValueError):
            return None
        if not verdicts:
            return None
        return all(v in "*+-" for v in verdicts)

    def suggestions(self, word: str) -> list[str] | None:
        """Hunspell's suggestions for ``word`` ("&" line), [] when it has none or knows the
        word; None when the process is gone."""
        try:
            self.proc.stdin.write(f"^{word}\n")
            self.proc.stdin.flush()
            lines = []
            while (line := self.proc.stdout.readline()) not in ("\n", ""):
                lines.append(line.rstrip("\n"))
        except (OSError, ValueError):
            return None
        if not lines:
            return None
        out: list[str] = []
        for line in lines:
            if line.startswith("&") and ": " in line:
                out.extend(s for s in line.split(": ", 1)[1].split(", ") if s)
        return out

    def close(self) -> None:
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


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
