"""Spacing defects of pasted text: words glued by lost spaces, numbers glued to words.

Text pasted out of a PDF loses spaces: "dotexto" (do texto), "regra101.4",
"custo de mana,indicador".  A glue is repaired only when both halves are words of
the language, judged by real lexicons (:func:`pipeline.lexicon.unigram_lexicon`) and a unigram model:
a token that is itself a rare word is still split when its two halves are far more
likely ("inthe"), and a rare real word is kept ("deathtouch").  Every repair and
every unknown word that could not be repaired becomes a :class:`Finding`; the finding's
``span`` points into the original text, which the caller keeps.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..language import is_english_paragraph
from ..lexicon import UNKNOWN, Lexicon, unigram_lexicon
from ..model import Finding
from ..profiles import OFFICIAL_LANG
from ..text import NUMBER
from .hunspell import speller

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
        if not (lex.known(left) and lex.known(right)):
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
    if lang != OFFICIAL_LANG and unigram_lexicon(OFFICIAL_LANG).known(token) and (english or len(token) <= 5):
        return True  # "name", "time": never "na me", "ti me"
    sp = speller(lang)
    return sp is not None and token in sp


@lru_cache(maxsize=200_000)
def _verdict(lang: str, tok: str, english: bool = False) -> tuple[tuple[str, str] | None, bool]:
    """``(split or None, known word?)`` for one lowercase token, memoised: rules text
    repeats its vocabulary, so most tokens are judged once.  ``english``: the paragraph is
    English (per-paragraph language identification)."""
    lex = unigram_lexicon(lang)
    parts = split_glued(tok, lex, english)
    return parts, parts is None and (lex.known(tok) or known_word(tok, lang, english))


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
    lex = unigram_lexicon(lang) if lang else None
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
