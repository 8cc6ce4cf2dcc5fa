"""The words and rule numbers of a text as the search index keys them, with spaCy's tokenizer
loaded only for text it has not cut before.

A key is a word's Snowball stem (case and diacritics folded) or a rule number kept whole
(``601.2f`` → ``r601x2f``); the words are cut by the language's own spaCy tokenizer.  spaCy
cuts each whitespace-free chunk of a text on its own (its special cases that hold a space are
whitespace tokens, or Spanish "EE. UU.", whose words cut alone come out the same; the tests
compare both ways on every embedded edition), so a chunk's terms, relative to the chunk, are
the same wherever it occurs.  They are kept per language in the cache (``marshal``: plain
data), keyed by this code and the versions of spaCy and the stemmer: a warm ``crpipe search``
keys its query and its snippets without importing spaCy (~0.8 s CPU a run), and building an
index leaves every chunk of its edition there.
"""

from __future__ import annotations

import functools
import marshal
import re
from pathlib import Path

from .codekey import code_key, package_version
from .io import cache_root, cache_write, read_cache_marshal
from .release_data import pack, unpack
from .profiles import OFFICIAL_LANG, PROFILES
from .text import NUMBER, RULE, SUBRULE, fold as _fold

_RULE = re.compile(rf"{SUBRULE}|{RULE}(?=\.)|\d+|[^\W\d_]+")
_IS_RULE = re.compile(rf"^{NUMBER}$")
#: What spaCy's tokenizer cuts a text at before anything else (``str.isspace``, which ``\s``
#: of a ``str`` pattern is).
_CHUNK = re.compile(r"\S+")
#: Layout of the cached table; bump when it changes.
MEMO_VERSION = 1


@functools.lru_cache(maxsize=4)
def _tokenizer(lang: str):
    import spacy  # heavy (~0.8 s): loaded only for chunks the cached table lacks

    try:
        return spacy.blank(lang).tokenizer
    except Exception:  # noqa: BLE001 - an unknown language code: English rules of tokenization
        return spacy.blank(OFFICIAL_LANG).tokenizer


@functools.lru_cache(maxsize=4)
def _stemmer(lang: str):
    import snowballstemmer  # loaded only when a new chunk is keyed

    p = PROFILES.get(lang) or PROFILES[OFFICIAL_LANG]
    return snowballstemmer.stemmer(p.stemmer)


@functools.lru_cache(maxsize=1 << 16)
def _stem(lang: str, word: str) -> str:
    # the pure-Python Snowball stemmer costs ~70 µs a word and an edition has ~150k words
    # but only a few thousand distinct ones: an index built 60x faster
    return _stemmer(lang).stemWord(_fold(word))



@functools.lru_cache(maxsize=1)
def _key() -> str:
    return code_key(MEMO_VERSION, __name__, extra=[package_version("spacy"), package_version("snowballstemmer")])


def _path(lang: str):
    return cache_root() / "search" / f"terms-{lang}-{_key()}.marshal"


#: Layout of the shipped table; bump when it changes.
SHIPPED_VERSION = 1


def shipped_path() -> Path:
    """The English table shipped beside the embedded archive (``pipeline.pack_search_terms``):
    every chunk of its newest edition, so a first ``crpipe search`` indexes it without spaCy."""
    return Path(__file__).resolve().parent / "data" / "editions" / "search-terms-en.json.xz"


def serialise(table: dict[str, tuple]) -> bytes:
    return pack(SHIPPED_VERSION, _key(), {"chunks": {c: [list(t) for t in ts] for c, ts in table.items()}})


def _shipped(lang: str) -> dict[str, tuple] | None:
    """The shipped table when it was made by this code with this spaCy and stemmer, else None."""
    body = unpack(shipped_path(), SHIPPED_VERSION, _key()) if lang == OFFICIAL_LANG else None
    chunks = body.get("chunks") if body is not None else None
    if not isinstance(chunks, dict):
        return None
    try:
        return {c: tuple((int(a), int(b), str(k)) for a, b, k in ts) for c, ts in chunks.items()}
    except (TypeError, ValueError):
        return None


class _Memo:
    """One language's table (chunk → its terms), read from the cache on first use (with an empty
    cache: from the shipped table, written to the cache by the first :func:`save`); what a run
    adds is written back by :func:`save`."""

    def __init__(self, lang: str):
        self.lang = lang
        table = read_cache_marshal(_path(lang))
        self.dirty = False
        if not isinstance(table, dict):
            table = _shipped(lang)
            self.dirty = table is not None  # kept in the cache as marshal: a warm run reads no xz JSON
        self.table: dict[str, tuple] = table if isinstance(table, dict) else {}

    def learn(self, chunks: set[str]) -> None:
        """Cut ``chunks`` in one tokenizer call (joined by newlines: each is cut on its own)."""
        order = sorted(chunks)
        text = "\n".join(order)
        from spacy.attrs import IDX, LENGTH  # imported with the tokenizer

        # offsets read as one array: a Token object per word costs more than all the rest
        spans = _tokenizer(self.lang)(text).to_array([IDX, LENGTH]).tolist()
        found: dict[str, list] = {c: [] for c in order}
        starts, i = [], 0
        for c in order:
            starts.append(i)
            i += len(c) + 1
        j = 0
        for start, size in spans:
            while j + 1 < len(starts) and starts[j + 1] <= start:
                j += 1
            c, base = order[j], starts[j]
            for m in _RULE.finditer(text[start:start + size]):
                w = m.group(0)
                a = start - base + m.start()
                if w[0].isdigit():
                    key = "r" + w.replace(".", "x") if _IS_RULE.match(w) else w
                else:
                    key = _stem(self.lang, w)
                found[c].append((a, a + len(w), key))
        for c, ts in found.items():
            self.table[c] = tuple(ts)
        self.dirty = True


@functools.lru_cache(maxsize=4)
def _memo(lang: str) -> _Memo:
    return _Memo(lang)


def terms(text: str, lang: str) -> list[tuple[int, int, str]]:
    """``(start, end, key)`` of every word and rule number of ``text``."""
    memo = _memo(lang)
    chunks = [(m.start(), m.group(0)) for m in _CHUNK.finditer(text)]
    table = memo.table
    missing = {c for _, c in chunks if c not in table}
    if missing:
        memo.learn(missing)
    return [(a + s, a + e, k) for a, c in chunks for s, e, k in table[c]]


def stems(text: str, lang: str) -> str:
    return " ".join(k for _, _, k in terms(text, lang))


def save(lang: str) -> None:
    """Write the table of ``lang`` back to the cache when this run added chunks to it."""
    memo = _memo(lang)
    if memo.dirty and cache_write(_path(lang), marshal.dumps(memo.table)):
        memo.dirty = False
