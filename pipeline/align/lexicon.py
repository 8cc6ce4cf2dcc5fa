"""Offline word lists for spelling and language checks.

The words of a language are every form and lemma of the spaCy lookup lemmatizer tables
shipped by ``spacy-lookups-data`` (824 k Portuguese forms, 492 k Spanish, 42 k English),
read straight from the package's data files: no model download, and ~10x faster than
building a pipeline.  The term base's ``accept`` list adds game words the tables lack.
"""

from __future__ import annotations

import marshal
import re
from collections import defaultdict
from itertools import chain
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from rapidfuzz import process
from rapidfuzz.distance import OSA

from ..segment.spacing import lookups_table, spacy_stop_words
from ..errors import CrpipeError
from ..codekey import code_key
from ..io import cache_root, cache_write, read_bounded, read_bounded_text
from ..profiles import PROFILES

_EXTRA = Path(__file__).resolve().parents[1] / "data" / "lexicon"


def _table(name: str) -> dict:
    return lookups_table(name)


@dataclass(frozen=True)
class Lexicon:
    lang: str
    words: frozenset[str]
    #: (first letter, length) -> words, for nearest-word search (each sorted when first searched).
    buckets: dict
    #: Function words (spaCy's stop words): a glue almost always involves one.
    function_words: frozenset[str] = frozenset()
    #: The buckets sorted so far: a run searches a few dozen of the ~560, so sorting them all
    #: (~0.4 s for 920 k words) would be spent on buckets no search reads.
    _sorted: set = field(default_factory=set, compare=False, repr=False)

    def _bucket(self, key: tuple[str, int]) -> list[str]:
        b = self.buckets.get(key)
        if b is None:
            return []
        if key not in self._sorted:
            b.sort()  # the search takes the first of equally near words: the order is the answer's
            self._sorted.add(key)
        return b

    def __contains__(self, w: str) -> bool:
        return w.casefold() in self.words

    def nearest(self, w: str, max_distance: int = 1, transposition_only: bool = False) -> str | None:
        """The closest known word within ``max_distance`` edits (optimal string alignment:
        a swap of two neighbours is one edit), same first letter; or None."""
        w = w.casefold()
        cands: list[str] = []
        for n in range(len(w) - max_distance, len(w) + max_distance + 1):
            cands.extend(self._bucket((w[:1], n)))
        if transposition_only:
            cands = [c for c in cands if len(c) == len(w) and sorted(c) == sorted(w)]
        if not cands:
            return None
        hit = process.extractOne(w, cands, scorer=OSA.distance, score_cutoff=max_distance)
        return hit[0] if hit else None


def lexicon(lang: str, extra: frozenset[str] = frozenset()) -> Lexicon:
    """The language's words, plus ``extra`` (e.g. the term base's accepted words)."""
    base = _base_lexicon(lang)
    if not extra:
        return base
    return Lexicon(lang, base.words | {w.casefold() for w in extra}, base.buckets, base.function_words)


@lru_cache(maxsize=4)
def _base_lexicon(lang: str) -> Lexicon:
    """The language's words, built once (~2.5 s for Portuguese's 824 k forms) and then read from
    the cache (``marshal``: plain data, no code) under a key of every source: the lookup tables'
    package, the project's word list, the profiles and this code."""
    cache = cache_root() / "align-lexicons" / f"{lang}-{_key(lang)}.marshal"
    try:
        buckets, stop = marshal.loads(read_bounded(cache))
        if not isinstance(buckets, dict):
            raise TypeError("not a lexicon")
    except (CrpipeError, OSError, ValueError, EOFError, TypeError):  # absent or unreadable: build it
        ws, stop = _build_words(lang)
        buckets, stop = _buckets(ws), sorted(stop)
        cache_write(cache, marshal.dumps((buckets, stop)))
    # The cache holds the buckets, not the word list: bucketing 900 k words cost ~0.3 s a run.
    return Lexicon(lang, frozenset(chain.from_iterable(buckets.values())), buckets, frozenset(stop))


def _buckets(ws) -> dict:
    """(first letter, length) -> the words, in no particular order (:meth:`Lexicon._bucket`
    sorts a bucket when a search first reads it)."""
    buckets: dict = defaultdict(list)
    for w in ws:
        buckets[(w[:1], len(w))].append(w)
    return dict(buckets)


def _key(lang: str) -> str:
    try:
        pkg = version("spacy-lookups-data")
    except PackageNotFoundError:
        pkg = "-"
    return code_key(lang, __name__, data=[_EXTRA / f"{lang}.txt"], extra=[pkg])


def _build_words(lang: str) -> tuple[frozenset, set]:
    table = _table(f"{lang}_lemma_lookup")
    ws = set(map(str.casefold, table))
    ws.update(map(str.casefold, [v for v in table.values() if isinstance(v, str)]))
    f = _EXTRA / f"{lang}.txt"
    if f.is_file():  # words the tables lack because they never inflect (shared with ingestion)
        for line in read_bounded_text(f).splitlines():
            ws.update(w.casefold() for w in line.split("#", 1)[0].split())
    stop = _stop_words(lang)
    ws |= stop
    variant = PROFILES[lang].spelling_variant if lang in PROFILES else ""
    if variant in _VARIANTS:
        ws |= _VARIANTS[variant](ws)
    return frozenset(ws), stop


def _stop_words(lang: str) -> set[str]:
    # Invariable words (mais, então, cada) are missing from lemma tables, which list
    # inflected forms; spaCy's stop-word lists have them.
    return {w.casefold() for w in spacy_stop_words(lang)}


_SILENT = re.compile(r"c(?=[tç])|p(?=[tç])")


def _brazilian(ws: set[str]) -> set[str]:
    """Brazilian spellings of the (European) table's words: artefacto -> artefato,
    activado -> ativado, afectar -> afetar; académico -> acadêmico."""
    out = set()
    for w in _with_changed_pair(ws):
        if (b := _SILENT.sub("", w)) != w:
            out.add(b)
        if "ó" in w or "é" in w:
            out.add(_OPEN_O.sub("ô", _OPEN_E.sub("ê", w)))
    return out


_OPEN_E = re.compile(r"é(?=[mn])")
_OPEN_O = re.compile(r"ó(?=[mn])")
_CHANGED_PAIR = re.compile(r"[cp][tç]|[éó][mn]")


def _with_changed_pair(ws) -> set[str]:
    """The words holding a letter pair :func:`_brazilian` changes (~17 k of 920 k; the others
    give themselves, already in ``ws``): one regex scan of the words joined by line breaks,
    instead of a Python loop over every word."""
    text = "\n".join(ws)
    if text.count("\n") != len(ws) - 1:  # a word with a line break in it: word by word
        return {w for w in ws if _CHANGED_PAIR.search(w)}
    out = set()
    for m in _CHANGED_PAIR.finditer(text):
        a = text.rfind("\n", 0, m.start()) + 1
        b = text.find("\n", m.end())
        out.add(text[a:b] if b >= 0 else text[a:])
    return out


#: Spelling variants a profile may name (``Profile.spelling_variant``) and how to add their forms.
_VARIANTS = {"pt-BR": _brazilian}
