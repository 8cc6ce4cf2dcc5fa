"""Text damage and form: what PDF extraction, pasting and hurried editing leave behind.

Glued words (reported by ingestion, or found here: a word outside the lexicon that splits
into two words of it), typos (a word outside the lexicon one or two edits from a word in
it), untranslated English runs, unbalanced brackets and quotes, Spanish ¿…? ¡…! pairs, the
locale's quote style, doubled spaces and words, end punctuation, mojibake, and rules whose
length ratio to the English is an outlier *for this document* (robust z-score over all
its rules, so a terser or wordier language calibrates itself).
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter

from ...findings import Category, Check, DefectClass, Severity
from .form import _QUOTE_RE, quote_style, style_counts
from .registry import register_pass
from ...text import NUMBER
from ...lexicon import Lexicon
from ..text import cap_phrases, english_names, fold, masked, normalize_sentence, sentences, words
from ...profiles import PROFILES
from ...segment.hunspell import speller

GLUED = Check("damage.glued", Category.DAMAGE, Severity.WARNING, "Words or numbers glued together (a lost space).", DefectClass.SPELLING)
TYPO = Check("damage.typo", Category.DAMAGE, Severity.WARNING, "A word outside the language's lexicon, one or two edits from a word in it, or one Hunspell's dictionary rejects that the document seldom writes.", DefectClass.SPELLING)
UNTRANSLATED = Check("damage.untranslated", Category.DAMAGE, Severity.WARNING, "A run of English words left untranslated.", DefectClass.UNTRANSLATED)
BRACKETS = Check("damage.brackets", Category.DAMAGE, Severity.WARNING, "Unbalanced brackets (the English is balanced).", DefectClass.PUNCTUATION)
SPANISH = Check("damage.spanish-marks", Category.DAMAGE, Severity.WARNING, "Spanish ¿…? or ¡…! without its pair.", DefectClass.PUNCTUATION)
QUOTES = Check("damage.quote-style", Category.DAMAGE, Severity.INFO, "Quotation marks of another style than the one this translation mostly writes (“…” against \"…\"); nothing when the document has no prevailing style.", DefectClass.QUOTES)
SPACES = Check("damage.spacing", Category.DAMAGE, Severity.INFO, "Doubled spaces.", DefectClass.PUNCTUATION)
DOUBLED = Check("damage.doubled-word", Category.DAMAGE, Severity.WARNING, "The same word twice in a row.", DefectClass.SPELLING)
END = Check("damage.end-punctuation", Category.DAMAGE, Severity.WARNING, "The rule or example ends with different punctuation than the English.", DefectClass.PUNCTUATION)
MOJIBAKE = Check("damage.mojibake", Category.DAMAGE, Severity.ERROR, "Mis-decoded characters (Ã©, â€™, �): the text went through the wrong encoding.", DefectClass.SPELLING)
LENGTH = Check("damage.length-ratio", Category.DAMAGE, Severity.INFO, "Length against the English is an outlier for this document (omission or addition?).", DefectClass.OMISSION)
CHECKS = [GLUED, TYPO, UNTRANSLATED, BRACKETS, SPANISH, QUOTES, SPACES, DOUBLED, END, MOJIBAKE, LENGTH]

_NUM_GLUE = re.compile(rf"[^\W\d_]{{2}}(?={NUMBER}(?![\d/]))|\d[a-z]?(?=[A-ZÀ-Ýa-zà-ÿ]{{3}})")
_PUNCT_GLUE = re.compile(r"(?<=[^\W\d_]{2})[,;:](?=[^\W\d_]{2})|(?<=[a-zà-ÿ]{2}[.!?])(?=[A-ZÀ-Ý][a-zà-ÿ])")
_MOJIBAKE = re.compile(r"[ÃÂ][\u0080-\u00bf]|â€[\u0080-\u00bf\u2018-\u203a\u2122\u0153\u02dc]?|\ufffd|Ã[ƒ‚]")
_DOUBLE_SPACE = re.compile(r"(?<=\S) {2,}(?=\S)")
_DOUBLED = re.compile(r"\b([^\W\d_]+)\s+\1\b", re.IGNORECASE)
#: Brackets only: quotation pairs, as written, are :func:`.form.quotes`' (mixed, reversed, open).
_PAIRS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = {v: k for k, v in _PAIRS.items()}
_FAMILY = {"(": "(", ")": "(", "[": "[", "]": "[", "{": "{", "}": "{"}
#: A quotation style is reported only where the document itself is this consistent.
STYLE_MAJORITY = 0.6
_GLUE_KINDS = re.compile(r"glue|glued")
_REPAIR = re.compile(r"'([^']+)'\s*->\s*'([^']+)'")


def _unbalanced(text: str) -> list[tuple[str, int]]:
    stack: list[tuple[str, int]] = []
    bad: list[tuple[str, int]] = []
    for i, ch in enumerate(text):
        if ch in _PAIRS:
            stack.append((ch, i))
        elif ch in _CLOSERS:
            if stack and stack[-1][0] == _CLOSERS[ch]:
                stack.pop()
            elif any(o == _CLOSERS[ch] for o, _ in stack):
                while stack and stack[-1][0] != _CLOSERS[ch]:
                    bad.append(stack.pop())
                stack.pop()
            else:
                bad.append((ch, i))
    bad.extend(stack)
    return bad


def _end_mark(s: str) -> str:
    s = s.rstrip().rstrip("”»\"’)]").rstrip()
    return s[-1] if s and s[-1] in ".:;?!" else ""


def _split(word: str, lex) -> tuple[str, str] | None:
    """Two words of the lexicon, one of them a function word ("dotexto", "sobreela",
    "recuperarou"): lost spaces almost always sit next to one."""
    w = word.casefold()
    for i in range(2, len(w) - 1):
        a, b = w[:i], w[i:]
        if a in lex.words and b in lex.words and (a in lex.function_words or b in lex.function_words) \
                and (len(a) > 2 or len(b) > 2):
            return word[:i], word[i:]
    return None


def _token_at(text: str, i: int) -> str:
    a = text.rfind(" ", 0, i) + 1
    b = text.find(" ", i)
    return text[a:b if b >= 0 else len(text)].strip("()“”«»\"'")


class _Vocab:
    """The document's own repeated words, bucketed like the lexicon for near-word search."""

    def __init__(self, ws: list[str]):
        buckets: dict = {}
        for w in ws:
            buckets.setdefault((w[:1], len(w)), []).append(w)
        self.lex = Lexicon("doc", frozenset(ws), buckets=buckets)


def _typo_of(w: str, lex, vocab: _Vocab) -> str | None:
    """A typo is one edit from a word this document uses repeatedly ("jogadro" / "jogador"),
    or two swapped letters of a lexicon word.  Both are calibrated to hold up against a
    lexicon that lacks many real words (so an unknown word alone is never a typo)."""
    if len(w) >= 5:
        near = vocab.lex.nearest(w, 1)
        if near and near in lex.words:
            return near
    return lex.nearest(w, 1, transposition_only=True) if len(w) >= 5 else None


#: A word both dictionaries reject is reported when the document writes it at most this often;
#: a word the team writes more often is its jargon ("supertipo": 30, "boosters": 4).
NON_WORD_MAX_USES = 2


#: A word that reads as English is a typo only next to a word the document writes this often.
ENGLISH_TYPO_MIN_USES = 5


def _capital_typo_candidate(w, lw: str, src_words: set, doc_words: Counter, hun) -> bool:
    """A capitalised word worth a Hunspell look: a word (not an acronym), not in the English
    (names are copied), rare in the document, and rejected by Hunspell as written and in lower case."""
    return (w.text.isalpha() and len(lw) >= 5 and not w.text.isupper() and fold(lw) not in src_words
            and doc_words[lw] <= NON_WORD_MAX_USES and w.text not in hun and lw not in hun)


def _rendering_near(lw: str, rendered: dict, src_fold: str) -> str | None:
    """The team's rendering of a term of this English rule one edit from ``lw`` ("aflingir":
    "Afligir", for "Afflict"); None when there is none (Hunspell's suggestions, ~0.4 s a word,
    are not needed: the term base says what the word should be)."""
    from rapidfuzz.distance import OSA  # noqa: PLC0415 - as in _best_suggestion

    for r, terms in sorted(rendered.items()):
        if " " not in r and OSA.distance(r, fold(lw)) == 1:
            for t, written in terms:
                if re.search(rf"(?<!\w){re.escape(fold(t))}(?!\w)", src_fold):
                    return written
    return None


def _best_suggestion(word: str, suggestions: list[str], doc_words: Counter, vocab: "_Vocab") -> str | None:
    """What the word should be: of Hunspell's suggestions that this document writes, the one it
    writes most ("joadores": Hunspell puts "joa dores" first, the document writes "jogadores" 91
    times); else a word the document writes repeatedly within two edits ("permante":
    "permanente"); else a Hunspell suggestion one edit away; None when nothing is that close — a word that far from
    every word is a name or jargon ("supertipo" / "supertinta"), or Hunspell's guess is a word
    nobody would mean ("subregra" / "subserra")."""
    from rapidfuzz.distance import OSA  # noqa: PLC0415 - only for a non-word, a handful a run

    single = [s for s in suggestions if " " not in s and "-" not in s and s.casefold() != word.casefold()]
    used = [s for s in single if doc_words[s.casefold()]]
    if used:
        return max(used, key=lambda s: (doc_words[s.casefold()], -used.index(s)))
    near = vocab.lex.nearest(word, 2)
    if near and near != word.casefold():
        return near
    return next((s for s in single if OSA.distance(s.casefold(), word.casefold()) <= 1), None)


def _ingestion_glues(ctx) -> dict[str, list]:
    """Glue findings of ingestion, by rule: (before, after) when the detail names them."""
    out: dict[str, list] = {}
    found = [f for f in ctx.target_doc.findings if f.rule and _GLUE_KINDS.search(f.kind)]
    repaired = [f.span for f in found if f.span and _REPAIR.search(f.detail or "")]
    for f in found:
        m = _REPAIR.search(f.detail or "")
        if m is None and f.span and any(a < f.span[1] and f.span[0] < b for a, b in repaired):
            continue  # the same glue, also reported with its repair
        out.setdefault(f.rule, []).append((f.kind, f.detail, m.group(1) if m else None, m.group(2) if m else None))
    return out


def run(ctx) -> list:
    out = []
    lang = ctx.lang
    lex = ctx.lexicon(lang)
    prof = PROFILES.get(lang)
    en = None if prof is not None and prof.official else ctx.lexicon("en")
    glues = _ingestion_glues(ctx)
    hun = speller(lang)
    doc_words = Counter(w.text.casefold() for p in ctx.pairs if p.target is not None for w in words(p.target_text))
    doc_vocab = _Vocab(sorted(w for w, n in doc_words.items() if n >= 2 and len(w) >= 4))
    ratios = []
    # The team's rendering of each English glossary term -> the terms (a capitalised typo's evidence).
    rendered: dict[str, list[tuple[str, str]]] = {}
    for term, tr in sorted((ctx.term_renderings or {}).items()):
        rendered.setdefault(fold(tr), []).append((term, tr))
    # The document's own quotation style, when it has one: only units that depart from it are told.
    styles = style_counts(ctx)
    top = styles.most_common(1)
    doc_style = top[0][0] if top and top[0][1] >= STYLE_MAJORITY * sum(styles.values()) else None
    for p in ctx.pairs:
        if p.target is None:
            continue
        text = p.target_text
        src = p.source_text
        src_fold = fold(src)
        flagged: list[tuple[int, int]] = []

        def add(check, msg, span=None, suggestion=None):
            if span is not None:
                flagged.append(span)
            out.append(ctx.issue(check, p, msg, span, suggestion))

        examples = iter(p.target_pieces[1:])
        for kind, detail, before, after in glues.get(p.row.id, []):
            span = None
            if after and after in text:
                a = text.index(after)
                span = (a, a + len(after))
            elif kind == "glued-example":  # the marker that was glued: its example's start, in order
                off, piece = next(examples, (None, ""))
                if off is not None:
                    span = (off, off + (piece.find(":") + 1 if ":" in piece[:20] else min(8, len(piece))))
            add(GLUED, f"ingestion: {detail}" if detail else f"ingestion found {kind}", span,
                suggestion=after)
        for m in _NUM_GLUE.finditer(text):
            a = m.end() - 1
            add(GLUED, f"“{text[max(0, m.start()):m.end() + 6].strip()}”: a number glued to a word", (m.start(), min(len(text), m.end() + 1)))
        src_tokens = set(src.split())
        src_words = {fold(m) for m in re.findall(r"[^\W\d_]+", src)}
        for m in _PUNCT_GLUE.finditer(text):
            tok = _token_at(text, m.start())
            if tok in src_tokens or "/" in tok or "{" in tok:
                continue  # "Magic.Wizards.com": an address, as in the English; "{ts:creature}": a symbol code
            add(GLUED, f"no space after “{text[m.start():m.end() or m.start() + 1] or text[m.start() - 1]}”",
                (max(0, m.start() - 2), min(len(text), m.end() + 2)))
        for m in _MOJIBAKE.finditer(text):
            if m.group() not in src:
                add(MOJIBAKE, f"“{m.group()}” looks mis-decoded", m.span())
        for m in _DOUBLE_SPACE.finditer(text):
            add(SPACES, "doubled space", m.span())
        for m in _DOUBLED.finditer(text):
            if not re.search(r"\b" + re.escape(m.group(1)) + r"\s+" + re.escape(m.group(1)) + r"\b", src, re.I):
                add(DOUBLED, f"“{m.group(1)}” twice", m.span(), suggestion=m.group(1))
        # Words: glued (splits into two words), typos, untranslated English runs.
        protect = [s for _, s in english_names(text)]
        protect += [s for n, s in cap_phrases(text) if fold(n) in src_fold]  # names kept in English
        body = masked(text, protect)
        # A hyphenated word ("baseada-no-estado") whose part lost its hyphen ("baseadano-estado"):
        # the part splits into two words, one a function word, and neither dictionary knows it.
        for w in words(body):
            if "-" not in w.text:
                continue
            off = w.start
            for part in w.text.split("-"):
                lp = part.casefold()
                if part.isalpha() and len(lp) >= 5 and lp not in lex.words and lp not in src_words \
                        and not (en is not None and lp in en.words) and not (hun is not None and part in hun):
                    parts = _split(part, lex)
                    if parts and (hun is None or (parts[0] in hun and parts[1] in hun)):
                        add(GLUED, f"“{part}” in “{w.text}” reads as “{parts[0]}-{parts[1]}”", (off, off + len(part)),
                            suggestion=f"{parts[0]}-{parts[1]}")
                off += len(part) + 1
        run_: list = []
        for w in words(body) + [None]:
            eng = False
            if w is not None:
                lw = w.text.casefold()
                known = lw in lex.words
                eng = en is not None and not known and len(lw) > 1 and lw in en.words
                if not known and not eng and w.text.isalpha() and len(lw) >= 4 and not w.text[:1].isupper() \
                        and lw not in src_fold and not any(a <= w.start < b for a, b in flagged) \
                        and not (hun is not None and w.text in hun):  # Hunspell knows it: "geralmente"
                    parts = _split(w.text, lex)
                    if parts and hun is not None and not (parts[0] in hun and parts[1] in hun):
                        parts = None
                    if parts:
                        add(GLUED, f"“{w.text}” reads as “{parts[0]} {parts[1]}”", (w.start, w.end),
                            suggestion=f"{parts[0]} {parts[1]}")
                    else:
                        near = _typo_of(lw, lex, doc_vocab) if doc_words[lw] < 2 else None
                        if near:
                            add(TYPO, f"“{w.text}” is not a {lang} word; “{near}”?", (w.start, w.end), suggestion=near)
                        elif hun is not None and doc_words[lw] <= NON_WORD_MAX_USES:
                            # Neither dictionary knows it and the team does not use it as a word
                            # of its own (jargon recurs: "supertipo", "monocolorido"): a non-word.
                            sugg = _best_suggestion(w.text, hun.suggest(w.text, limit=8), doc_words, doc_vocab)
                            if sugg:
                                add(TYPO, f"“{w.text}” is not in the {lang} Hunspell dictionary; “{sugg}”?",
                                    (w.start, w.end), suggestion=sugg)
                elif not known and not eng and hun is not None and w.text[:1].isupper() and _capital_typo_candidate(
                        w, lw, src_words, doc_words, hun) and not any(a <= w.start < b for a, b in flagged):
                    # A capitalised non-word ("Aflingir", a keyword's name): names are kept out by
                    # the English (a name it has), the English lexicon and Hunspell's proper
                    # names; what is left is reported only one letter from the team's rendering
                    # of a term of the English rule ("Afflict": "Afligir"); a translated name the
                    # dictionary lacks ("Vorme" for Wurm, "Megamorfose") is a rendering itself.
                    sugg = None if fold(lw) in rendered else _rendering_near(lw, rendered, src_fold)
                    if sugg:
                        add(TYPO, f"“{w.text}” is not in the {lang} Hunspell dictionary; “{sugg}”?",
                            (w.start, w.end), suggestion=sugg)
            if eng:
                run_.append(w)
                continue
            if len(run_) == 1 and hun is not None:
                # One English-looking word among Portuguese ones ("zona de commando"): an English
                # word the English does not have, that Hunspell rejects, one letter from a word the
                # document writes often ("comando") is a typo, not English left in.
                x = run_[0]
                lx = x.text.casefold()
                near = doc_vocab.lex.nearest(lx, 1) if len(lx) >= 5 and x.text.islower() else None
                if near and near in lex.words and doc_words[near] >= ENGLISH_TYPO_MIN_USES \
                        and doc_words[lx] <= NON_WORD_MAX_USES and fold(lx) not in src_words \
                        and x.text not in hun and not any(a <= x.start < b for a, b in flagged):
                    add(TYPO, f"“{x.text}” is English, not in the English rule; “{near}”?", (x.start, x.end),
                        suggestion=near)
            if len(run_) >= 3 and sum(1 for x in run_ if x.text.islower()) >= 2:
                a, b = run_[0].start, run_[-1].end
                add(UNTRANSLATED, f"“{text[a:b]}” looks like untranslated English", (a, b))
            run_ = []
        # Whole sentences in English: one the English rule has verbatim, or mostly English words.
        if en is not None:
            src_sents = {normalize_sentence(src[a:b]) for a, b in sentences(src)}
            for a, b in sentences(text):
                if any(a < y and x < b for x, y in flagged):
                    continue
                ws = [w.text.casefold() for w in words(text[a:b])]
                if len(ws) < 4:
                    continue
                if sum(w[:1].isupper() for w in text[a:b].split()) >= 0.6 * len(text[a:b].split()):
                    continue  # a list of names (card names kept in English)
                verbatim = normalize_sentence(text[a:b]) in src_sents
                en_share = sum(w in en.words for w in ws) / len(ws)
                only_share = sum(w in en.words and w not in lex.words for w in ws) / len(ws)
                if verbatim or (en_share >= 0.85 and only_share >= 0.3):
                    add(UNTRANSLATED, "this sentence is in English" + (" (as in the English rule)" if verbatim else ""),
                        (a, b))
        # Brackets and quotes, per piece, only where the English piece is balanced.
        src_bad = {_FAMILY.get(ch, ch) for _o, s in p.source_pieces for ch, _ in _unbalanced(s)}
        for off, piece in p.target_pieces:
            for ch, i in _unbalanced(piece):
                if _FAMILY.get(ch, ch) not in src_bad:
                    add(BRACKETS, f"unbalanced “{ch}”", (off + i, off + i + 1))
            if prof is not None and prof.inverted_marks:
                for a, b in sentences(piece):
                    s = piece[a:b]
                    for o, c in (("¿", "?"), ("¡", "!")):
                        if c in s and o not in s and all(f"{w}{c}" in src for w in re.findall(rf"(\w+){re.escape(c)}", s)):
                            continue  # "Mirrodin!": part of an English name the English has too
                        if (o in s) != (c in s):
                            add(SPANISH, f"“{o}…{c}” pair incomplete", (off + a, off + b))
        style = quote_style(text)
        if style is not None and doc_style is not None and style != doc_style:
            m = next(m for m in _QUOTE_RE.finditer(text) if (m.group() == '"') == (style == "straight"))
            add(QUOTES, f"{style} quotation marks; the rest of this translation writes {doc_style} ones "
                f"({styles[doc_style]} of {sum(styles.values())} quoting rules)", m.span())
        for (off, piece), (_so, spiece) in zip(p.target_pieces, p.source_pieces):
            te, se = _end_mark(piece), _end_mark(spiece)
            if p.base is not None and te != se and not (te in ".;" and se in ".;" and te and se):
                end = off + len(piece.rstrip())
                add(END, f"ends with “{te or 'nothing'}”, the English with “{se or 'nothing'}”",
                    (max(off, end - 1), end), suggestion=se or None)
        if p.base is not None and len(src) >= 40 and text:
            # "Anjo Serra (Serra Angel)": the English name in parentheses is not translation length.
            n = len(text) - sum(b - a + 3 for _, (a, b) in english_names(text))
            ratios.append((math.log(max(n, 1) / len(src)), p))
    out.extend(_length_outliers(ctx, ratios))
    if hun is not None:
        hun.save()
    return out


def _length_outliers(ctx, ratios) -> list:
    out = []
    if not ratios:
        return out
    xs = [r for r, _ in ratios]
    if len(xs) >= 12:
        med = statistics.median(xs)
        mad = statistics.median(abs(x - med) for x in xs) or 0.05
        for x, p in ratios:
            z = 0.6745 * (x - med) / mad
            if abs(z) > 5.5 and abs(x - med) > 0.45:
                out.append(ctx.issue(LENGTH, p, f"{math.exp(x):.2f}× the English length; this document's "
                                     f"median is {math.exp(med):.2f}× (robust z {z:+.1f})"))
    else:  # too few rules to calibrate on: only gross outliers
        for x, p in ratios:
            if not (-0.7 < x < 0.8):
                out.append(ctx.issue(LENGTH, p, f"{math.exp(x):.2f}× the English length"))
    return out


# Mis-decoding, brackets and a doubled word are told by their shape (English runs are not: the
# target lexicon tells "para" from English; rules left in English are coverage instead).
register_pass(run, CHECKS, neutral=(MOJIBAKE, BRACKETS, DOUBLED))
