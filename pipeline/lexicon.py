"""The words of a language, offline: one :class:`Lexicon`, built from the same sources for the
two questions asked of it.

Sources: every form and lemma of the spaCy lookup lemmatizer tables shipped by
``spacy-lookups-data`` (824 k Portuguese forms, 492 k Spanish, 42 k English), read straight from
the package's data files (no model download, ~10x faster than building a pipeline); spaCy's
stop-word lists; pyspellchecker's word frequencies; the project's short lists of uninflected
function words and game nouns (``pipeline/data/lexicon/<lang>.txt``); the profiles.

- :func:`unigram_lexicon`: the words with unigram log-probabilities, which the spacing repair
  of pasted text (:mod:`pipeline.segment.spacing`) weighs splits with (:meth:`Lexicon.logp`,
  :meth:`Lexicon.known`);
- :func:`lexicon`: every form, bucketed for the nearest-word search of the translator's
  spelling checks (:meth:`Lexicon.nearest`), plus the term base's accepted words.

The two keep the word sets their checks were measured with (the unigram one counts the
frequency lists' words; the spelling one adds stop words and spelling variants), each cached
on disk under a key of its sources.
"""

from __future__ import annotations

import importlib.util
import json
import marshal
import math
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from itertools import chain
from pathlib import Path

from .codekey import code_key, package_version
from .errors import CrpipeError
from .io import cache_root, cache_write, read_bounded, read_bounded_gzip, read_bounded_text
from .profiles import PROFILES

_DATA = Path(__file__).resolve().parent / "data" / "lexicon"

#: log-probability of a lexicon word the frequency list does not count (rare forms).
KNOWN_FLOOR = -17.0
#: log-probability given to a token found in no lexicon.
UNKNOWN = -20.0


@dataclass(frozen=True)
class Lexicon:
    """The words of a language: ``words`` (casefolded), with unigram log-probabilities
    (``logprob``, empty when not counted) and (first letter, length) buckets for the nearest-word
    search (``buckets``, empty when not bucketed)."""

    lang: str
    words: frozenset[str]
    logprob: dict[str, float] = field(default_factory=dict)
    #: Function words (spaCy's stop words, the profile's): a glue almost always involves one.
    function_words: frozenset[str] = frozenset()
    #: (first letter, length) -> words, for nearest-word search (each sorted when first searched).
    buckets: dict = field(default_factory=dict)
    #: The buckets sorted so far: a run searches a few dozen of the ~560, so sorting them all
    #: (~0.4 s for 920 k words) would be spent on buckets no search reads.
    _sorted: set = field(default_factory=set, compare=False, repr=False)

    def __contains__(self, w: str) -> bool:
        """Exactly this word (casefolded) is listed."""
        return w.casefold() in self.words

    def known(self, word: str) -> bool:
        """A word of the language as the unigram model judges it: listed, or each part of a
        hyphenated word, or its unaccented form (:meth:`logp`)."""
        return self.logp(word) > UNKNOWN

    def logp(self, word: str) -> float:
        w = word.casefold()
        if "-" in w:  # "tornar-se-á", "mudança-de-tipo": known when every part is
            parts = [p for p in w.split("-") if p]
            return min((self.logp(p) for p in parts), default=UNKNOWN)
        lp = self.logprob.get(w)
        if lp is not None:
            return lp
        if w in self.words:
            return KNOWN_FLOOR
        if w.isascii():
            return UNKNOWN
        bare = _strip_accents(w)
        lp = self.logprob.get(bare)
        if lp is not None:
            return lp
        return KNOWN_FLOOR if bare in self.words else UNKNOWN

    def _bucket(self, key: tuple[str, int]) -> list[str]:
        b = self.buckets.get(key)
        if b is None:
            return []
        if key not in self._sorted:
            b.sort()  # the search takes the first of equally near words: the order is the answer's
            self._sorted.add(key)
        return b

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
        from rapidfuzz import process  # lazy: only the spelling checks search; the spacing repair of a paste never does
        from rapidfuzz.distance import OSA  # lazy: as above

        hit = process.extractOne(w, cands, scorer=OSA.distance, score_cutoff=max_distance)
        return hit[0] if hit else None


def _strip_accents(w: str) -> str:
    """Frequency lists sometimes hold only the unaccented form ("esté" -> "este")."""
    return "".join(c for c in unicodedata.normalize("NFD", w) if not unicodedata.combining(c))


def _lookups_file(name: str) -> Path | None:
    try:
        base = resources.files("spacy_lookups_data") / "data" / name
    except ModuleNotFoundError:
        return None
    p = Path(str(base))
    return p if p.is_file() else None


def lookups_table(name: str) -> dict:
    """A table shipped by spacy-lookups-data (e.g. ``pt_lemma_lookup``), or {} when absent.

    Read straight from the package's data file: no pipeline, no download.
    """
    f = _lookups_file(f"{name}.json.gz")
    if f is None:
        return {}
    return json.loads(read_bounded_gzip(f))


@lru_cache(maxsize=None)
def spacy_stop_words(lang: str) -> frozenset[str]:
    """spaCy's stop words for ``lang`` (``spacy/lang/<lang>/stop_words.py``), or empty when spaCy
    or the list is absent.  The module is a plain set of words: it is loaded by its path, so that
    the price of a word list is not importing all of spaCy (~0.7 s CPU: thinc, numpy, its
    registries); a list that needs its package is imported the usual way."""
    spec = importlib.util.find_spec("spacy")
    path = Path(spec.origin).parent / "lang" / lang / "stop_words.py" if spec and spec.origin else None
    if path is None or not path.is_file():
        return frozenset()
    try:
        mspec = importlib.util.spec_from_file_location(f"_crpipe_{lang}_stop_words", path)
        mod = importlib.util.module_from_spec(mspec)
        mspec.loader.exec_module(mod)
    except ImportError:
        mod = __import__(f"spacy.lang.{lang}.stop_words", fromlist=["STOP_WORDS"])
    return frozenset(mod.STOP_WORDS)


# -- the unigram lexicon (spacing repair) --------------------------------------------------------

@lru_cache(maxsize=None)
def unigram_lexicon(lang: str) -> Lexicon:
    """The words of ``lang`` with unigram log-probabilities.

    Forms and lemmas come from spaCy's lookup lemmatizer tables (``spacy-lookups-data``:
    strong on verb inflection); frequencies from pyspellchecker's word-frequency lists
    (strong on nouns, adverbs and contractions); plus the project's short list of
    uninflected function words and game nouns (``pipeline/data/lexicon/<lang>.txt``).
    Merging them takes ~2 s, so the result is cached on disk (``marshal``: plain data,
    no code) under a key of the sources' versions.
    """
    key = _unigram_key(lang)
    cache = _cache_dir() / f"{lang}-{key}.marshal"
    try:
        words, logprob, fw = marshal.loads(read_bounded(cache))
        return Lexicon(lang, frozenset(words), logprob=logprob, function_words=frozenset(fw))
    except (CrpipeError, ValueError, EOFError, TypeError):
        pass
    lex = _build_unigram(lang)
    if cache_write(cache, marshal.dumps((sorted(lex.words), lex.logprob, sorted(lex.function_words)))):
        try:
            for old in cache.parent.glob(f"{lang}-*.marshal"):
                if old != cache:
                    old.unlink(missing_ok=True)
        except OSError:
            pass  # read-only cache: build each time
    return lex


def _cache_dir() -> Path:
    return cache_root() / "lexicons"



def _listed_words(lang: str) -> set[str]:
    """The project's word list for ``lang``: words the tables lack because they never inflect."""
    words: set[str] = set()
    p = _DATA / f"{lang}.txt"
    if p.is_file():
        for line in read_bounded_text(p).splitlines():
            words.update(w.casefold() for w in line.split("#", 1)[0].split())
    return words


def _unigram_key(lang: str) -> str:
    """Changes when any source of the lexicon changes: packages, extras, profile, this code."""
    return code_key(lang, __name__, data=[_DATA / f"{lang}.txt"],
                    extra=[package_version(p) for p in ("spacy-lookups-data", "pyspellchecker")])


def _build_unigram(lang: str) -> Lexicon:
    words: set[str] = set()
    table = lookups_table(f"{lang}_lemma_lookup")
    words.update(k.casefold() for k in table)
    words.update(v.casefold() for v in table.values())
    logprob: dict[str, float] = {}
    try:
        from spellchecker import SpellChecker  # optional: guarded, the caller copes without it

        wf = SpellChecker(language=lang, distance=1).word_frequency
        total = float(wf.total_words) or 1.0
        logprob = {w: math.log(n / total) for w, n in wf.dictionary.items() if n > 0}
    except (ImportError, ValueError):
        pass  # no frequency list for this language: membership only
    words.update(logprob)
    extra = _listed_words(lang)
    words |= extra

    fw = set(extra)
    if lang in PROFILES:
        prof = PROFILES[lang]
        fw |= set(prof.stopwords)
        # The profile's cue words are words of the language, whatever the lists say.
        for group in (prof.rule_words, prof.see_words, prof.conjunctions, prof.range_words,
                      prof.example_markers, prof.section_words):
            words.update(w.casefold() for phrase in group for w in phrase.split())
    return Lexicon(lang, frozenset(words), logprob=logprob, function_words=frozenset(fw))


def release_lexicons() -> None:
    """Drop the unigram lexicons read so far (~240 MB for pt, es and en): for a caller that has
    read all its documents (the build, after its translations stage); a later read loads them
    again from the disk cache."""
    unigram_lexicon.cache_clear()


# -- the spelling lexicon (the translator's checks) ---------------------------------------------

def lexicon(lang: str, extra: frozenset[str] = frozenset()) -> Lexicon:
    """The language's words, plus ``extra`` (e.g. the term base's accepted words)."""
    base = _base_lexicon(lang)
    if not extra:
        return base
    return Lexicon(lang, base.words | {w.casefold() for w in extra}, function_words=base.function_words,
                   buckets=base.buckets)


@lru_cache(maxsize=4)
def _base_lexicon(lang: str) -> Lexicon:
    """The language's words, built once (~2.5 s for Portuguese's 824 k forms) and then read from
    the cache (``marshal``: plain data, no code) under a key of every source: the lookup tables'
    package, the project's word list, the profiles and this code."""
    cache = cache_root() / "align-lexicons" / f"{lang}-{_spelling_key(lang)}.marshal"
    try:
        buckets, stop = marshal.loads(read_bounded(cache))
        if not isinstance(buckets, dict):
            raise TypeError("not a lexicon")
    except (CrpipeError, OSError, ValueError, EOFError, TypeError):  # absent or unreadable: build it
        ws, stop = _build_words(lang)
        buckets, stop = _buckets(ws), sorted(stop)
        cache_write(cache, marshal.dumps((buckets, stop)))
    # The cache holds the buckets, not the word list: bucketing 900 k words cost ~0.3 s a run.
    return Lexicon(lang, frozenset(chain.from_iterable(buckets.values())), function_words=frozenset(stop),
                   buckets=buckets)


def _buckets(ws) -> dict:
    """(first letter, length) -> the words, in no particular order (:meth:`Lexicon._bucket`
    sorts a bucket when a search first reads it)."""
    buckets: dict = defaultdict(list)
    for w in ws:
        buckets[(w[:1], len(w))].append(w)
    return dict(buckets)


def _spelling_key(lang: str) -> str:
    return code_key(lang, __name__, data=[_DATA / f"{lang}.txt"], extra=[package_version("spacy-lookups-data")])


def _build_words(lang: str) -> tuple[frozenset, set]:
    table = lookups_table(f"{lang}_lemma_lookup")
    ws = set(map(str.casefold, table))
    ws.update(map(str.casefold, [v for v in table.values() if isinstance(v, str)]))
    ws |= _listed_words(lang)
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
