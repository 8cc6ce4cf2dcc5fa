"""Spacing defects of pasted text: words glued by lost spaces, numbers glued to words.

Text pasted out of a PDF loses spaces: "dotexto" (do texto), "regra101.4",
"custo de mana,indicador".  A glue is repaired only when both halves are words of
the language, judged by real lexicons (see :func:`lexicon`) and a unigram model:
a token that is itself a rare word is still split when its two halves are far more
likely ("inthe"), and a rare real word is kept ("deathtouch").  Every repair and
every unknown word that could not be repaired becomes a :class:`Finding`; the finding's
``span`` points into the original text, which the caller keeps.
"""

from __future__ import annotations

import importlib.util
import json
import marshal
import math
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from ..errors import CrpipeError
from ..codekey import code_key
from ..io import cache_root, cache_write, read_bounded, read_bounded_gzip, read_bounded_text
from ..model import Finding
from ..ingest.language import is_english_paragraph
from ..profiles import OFFICIAL_LANG, PROFILES
from ..text import NUMBER
from .hunspell import speller

_DATA = Path(__file__).resolve().parents[1] / "data" / "lexicon"
#: log-probability gain a split must show over the whole token (natural log).
SPLIT_MARGIN = 3.0
# Latin letters spelled out: the Unicode class [^\W\d_] is several times slower here.
_L = "A-Za-zÀ-ÖØ-öø-ÿ"
_LOW = "a-zß-öø-ÿ"
_WORD = re.compile(rf"[{_L}]+(?:[-'][{_L}]+)*")
#: A letter directly followed by a rule number, or a rule number directly followed by a
#: word.  The space goes at the end of each match.
_NUM_GLUE = re.compile(rf"[{_L}](?={NUMBER}(?![\d/]))|\d[a-z]?(?=[A-ZÀ-ÖØ-Þ][{_LOW}])")
#: Punctuation that lost the space after it: "mana,indicador", "copiados.Outros", "cima”que".
_PUNCT_GLUE = re.compile(rf"[{_L}]{{2}}[,;](?=[{_L}])|[{_LOW}]{{2}}[.!?](?=[A-ZÀ-ÖØ-Þ][{_LOW}])|[{_LOW}][”»](?=[{_L}])")
#: Both in one pass over the text.
_GLUE = re.compile(f"(?P<num>{_NUM_GLUE.pattern})|(?P<punct>{_PUNCT_GLUE.pattern})")


#: log-probability of a lexicon word the frequency list does not count (rare forms).
KNOWN_FLOOR = -17.0
#: log-probability given to a token found in no lexicon.
UNKNOWN = -20.0


@dataclass(frozen=True)
class Lexicon:
    lang: str
    words: frozenset[str]
    logprob: dict[str, float]
    function_words: frozenset[str]

    def __contains__(self, word: str) -> bool:
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


def release_lexicons() -> None:
    """Drop the lexicons read so far (~240 MB for pt, es and en): for a caller that has read
    all its documents (the build, after its translations stage); a later read loads them
    again from the disk cache."""
    lexicon.cache_clear()


@lru_cache(maxsize=None)
def lexicon(lang: str) -> Lexicon:
    """The words of ``lang`` with unigram log-probabilities.

    Forms and lemmas come from spaCy's lookup lemmatizer tables (``spacy-lookups-data``:
    strong on verb inflection); frequencies from pyspellchecker's word-frequency lists
    (strong on nouns, adverbs and contractions); plus the project's short list of
    uninflected function words and game nouns (``pipeline/data/lexicon/<lang>.txt``).
    Merging them takes ~2 s, so the result is cached on disk (``marshal``: plain data,
    no code) under a key of the sources' versions.
    """
    key = _sources_key(lang)
    cache = _cache_dir() / f"{lang}-{key}.marshal"
    try:
        words, logprob, fw = marshal.loads(read_bounded(cache))
        return Lexicon(lang, frozenset(words), logprob, frozenset(fw))
    except (CrpipeError, ValueError, EOFError, TypeError):
        pass
    lex = _build_lexicon(lang)
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


def _sources_key(lang: str) -> str:
    """Changes when any source of the lexicon changes: packages, extras, profile, this code."""
    def _version(pkg: str) -> str:
        try:
            return version(pkg)
        except PackageNotFoundError:
            return "-"

    return code_key(lang, __name__, data=[_DATA / f"{lang}.txt"],
                    extra=[_version(p) for p in ("spacy-lookups-data", "pyspellchecker")])


def _build_lexicon(lang: str) -> Lexicon:
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
    extra: set[str] = set()
    p = _DATA / f"{lang}.txt"
    if p.is_file():
        for line in read_bounded_text(p).splitlines():
            extra.update(w.casefold() for w in line.split("#", 1)[0].split())
    words |= extra

    fw = set(extra)
    if lang in PROFILES:
        prof = PROFILES[lang]
        fw |= set(prof.stopwords)
        # The profile's cue words are words of the language, whatever the lists say.
        for group in (prof.rule_words, prof.see_words, prof.conjunctions, prof.range_words,
                      prof.example_markers, prof.section_words):
            words.update(w.casefold() for phrase in group for w in phrase.split())
    return Lexicon(lang, frozenset(words), logprob, frozenset(fw))


def split_glued(token: str, lex: Lexicon, english: bool = False) -> tuple[str, str] | None:
    """The two words ``token`` is made of, or None.

    Only a token found in no lexicon is split, and a unigram model decides where: both
    halves must be words and the pair must be ``SPLIT_MARGIN`` more likely than an
    unknown word.  So "dotexto" -> "do texto" and "inthe" -> "in the", while a rare
    real word ("deathtouch") or two rare halves ("artefato": arte + fato) stay as written.
    """
    if len(token) < 4 or not token.islower() or "-" in token:
        return None
    whole = lex.logp(token)
    if whole > UNKNOWN:
        return None  # a word of the language, however rare ("deathtouch", "artefacto")
    if known_word(token, lex.lang, english):
        return None  # the language's Hunspell dictionary ("geralmente"); English in English text ("name")
    best = None
    for i in range(1, len(token) - 1):
        left, right = token[:i], token[i:]
        if len(left) == 1 and left not in lex.function_words:
            continue
        if left not in lex or right not in lex:
            continue
        score = lex.logp(left) + lex.logp(right)
        if score < whole + SPLIT_MARGIN:
            continue
        if best is None or score > best[0]:
            best = (score, left, right)
    if best is not None and _typo_score(token, lex) >= best[0]:
        return None  # one slip of a frequent word ("comate" ~ "combate") beats two words ("com ate")
    return None if best is None else (best[1], best[2])


#: log-probability of one typing slip (one letter added, lost, changed or two swapped).
TYPO_COST = -4.0


def _typo_score(token: str, lex: Lexicon) -> float:
    """log P(token is a slip of its likeliest one-edit neighbour in the lexicon)."""
    letters = set(token) | set("abcdefghijklmnopqrstuvwxyzáâãàçéêíóôõú")
    cands = {token[:i] + token[i + 1:] for i in range(len(token))}
    cands |= {token[:i] + token[i + 1] + token[i] + token[i + 2:] for i in range(len(token) - 1)}
    for i in range(len(token) + 1):
        for c in letters:
            cands.add(token[:i] + c + token[i:])
            if i < len(token):
                cands.add(token[:i] + c + token[i + 1:])
    cands.discard(token)
    best = max((lex.logprob.get(c, UNKNOWN) for c in cands), default=UNKNOWN)
    return best + TYPO_COST if best > UNKNOWN else UNKNOWN


def known_word(token: str, lang: str, english: bool = False) -> bool:
    """A word the language's Hunspell dictionary knows, or, in English text (an untranslated
    paragraph inside a translation), an English word: "name" is never "na me"."""
    if lang != OFFICIAL_LANG and token in lexicon(OFFICIAL_LANG) and (english or len(token) <= 5):
        return True  # "name", "time": never "na me", "ti me"
    sp = speller(lang)
    return sp is not None and token in sp


@lru_cache(maxsize=200_000)
def _verdict(lang: str, tok: str, english: bool = False) -> tuple[tuple[str, str] | None, bool]:
    """``(split or None, known word?)`` for one lowercase token, memoised: rules text
    repeats its vocabulary, so most tokens are judged once.  ``english``: the paragraph is
    English (per-paragraph language identification)."""
    lex = lexicon(lang)
    parts = split_glued(tok, lex, english)
    return parts, parts is None and (tok in lex or known_word(tok, lang, english))


def _is_english_text(raw: str, lang: str) -> bool:
    return is_english_paragraph(raw, lang, min_words=5)


#: Web addresses are never repaired ("Magic.Wizards.com/Rules", "WPN.Wizards.com/en").
_URL = re.compile(r"(?:https?://)?(?:[A-Za-z0-9-]+\.)+(?:com|org|net|br|es|io|gg|info)(?:/[^\s)\]”\"]*)?", re.I)


def repair_spacing(raw: str, lang: str | None, base: int = 0, rule: str | None = None,
                   line: int | None = None) -> tuple[str, list[Finding]]:
    """Repair lost spaces in ``raw``; return the repaired text and one finding per defect.

    ``base`` is the offset of ``raw`` in the original document, so spans point there.
    """
    findings: list[Finding] = []
    urls = [m.span() for m in _URL.finditer(raw)]
    # 1. numbers glued to words and punctuation glued to words: deterministic, always repaired.
    edits: list[tuple[int, int, str, str]] = []  # (start, end, replacement, kind)
    for m in _GLUE.finditer(raw):
        if any(a <= m.end() <= b for a, b in urls):
            continue
        edits.append((m.end(), m.end(), " ", "glued-number" if m.lastgroup == "num" else "glued-punctuation"))
    # 2. glued words, judged by the lexicon.
    lex = lexicon(lang) if lang else None
    if lex is not None and lex.words:
        # Judge each distinct lowercase word once (names and sentence starts are not
        # judged); only the flagged ones are then located in the text.
        flagged = {}
        english = _is_english_text(raw, lang)
        for tok in {t for t in _WORD.findall(raw) if t.islower()}:
            parts, known = _verdict(lang, tok, english)
            if parts or (not known and len(tok) >= 4):
                flagged[tok] = parts
        for tok in sorted(flagged, key=lambda t: (raw.find(t), t)):
            parts = flagged[tok]
            for m in re.finditer(rf"(?<![{_L}'-]){re.escape(tok)}(?![{_L}'-])", raw):
                if any(a <= m.start() < b for a, b in urls):
                    continue
                if parts:
                    at = m.start() + len(parts[0])
                    edits.append((at, at, " ", f"glued-word:{tok}"))
                else:  # once per text: the span names the first occurrence
                    findings.append(Finding("unknown-word", f"{tok!r} is not a {lang} word (Hunspell and the "
                                            "lexicon) and is not two glued words; kept as written: a typo?", "info",
                                            rule=rule, line=line, span=[base + m.start(), base + m.end()]))
                    break
    if not edits:
        return raw, findings
    edits.sort(key=lambda e: (e[0], e[1]))
    out: list[str] = []
    prev = 0
    seen: set[int] = set()
    for start, end, rep, kind in edits:
        if start in seen or start < prev:
            continue
        seen.add(start)
        out.append(raw[prev:start])
        out.append(rep)
        prev = end
        lo, hi = _context(raw, start)
        before, after = raw[lo:hi], raw[lo:start] + rep + raw[start:hi]
        if kind.startswith("glued-word:"):
            tok = kind.split(":", 1)[1]
            findings.append(Finding("glued-word-repaired", f"{before!r} -> {after!r}: both halves are {lang} words",
                                    "info", rule=rule, line=line, span=[base + lo, base + hi]))
        else:
            findings.append(Finding(f"{kind}-repaired", f"{before!r} -> {after!r}: space restored", "info",
                                    rule=rule, line=line, span=[base + lo, base + hi]))
    out.append(raw[prev:])
    return "".join(out), findings


def _context(raw: str, pos: int) -> tuple[int, int]:
    """The whitespace-delimited token around ``pos``."""
    lo = pos
    while lo > 0 and not raw[lo - 1].isspace():
        lo -= 1
    hi = pos
    while hi < len(raw) and not raw[hi].isspace():
        hi += 1
    return lo, hi
