"""Form: what a reviewer corrects in a unit as the file holds it — its head (the rule number
and its dot, a definition's "1."), hard line breaks, list commas, quotation pairs, register and
capitals.  These read the translation's characters as written (curly quotes, breaks and all),
so they run on every unit a bilingual file has: rules, examples, headings, glossary, front
matter and credits.  Language facts (list commas, colloquial spellings, words written in
lower case) are the profile's.
"""

from __future__ import annotations

import re
from collections import Counter

from ...findings import Category, DefectClass, Severity
from ...profiles import PROFILES
from ...profiles.words import word_profile
from ...segment.hunspell import speller
from ...ingest.units import PlacedKind
from ...text import NUMBER
from ..model import RowKind
from ..text import sentences
from .commas import finite_verb_test
from .registry import check

_HEAD = re.compile(rf"^\s*(?P<num>{NUMBER})(?P<dot>\.?)(?=\s)")
_ENUM = re.compile(r"^\s*(?P<num>\d{1,2})\.\s")
_BREAK = re.compile(r"\S*[ \t]*\r?\n[ \t]*\S*")
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_SENTENCE_START = ".:;!?“\"«(—\n"


def _head_units(ctx):
    for pair, us, placed in ctx.unit_rows():
        if placed.kind in (PlacedKind.RULE, PlacedKind.HEADING) and us.start == 0:
            yield pair, us


@check("form.head-number", Category.FORM, Severity.ERROR, DefectClass.REFERENCES,
       "The rule number at the head of the unit differs from the English unit's (a mistyped or stale number).")
def head_number(ctx, c):
    for pair, us in _head_units(ctx):
        src, tgt = _HEAD.match(us.unit.source), _HEAD.match(us.unit.target)
        if src is None:
            continue
        if tgt is None:
            yield ctx.unit_issue(c, pair, us, f"the English unit starts with rule {src['num']}; the translation "
                                 "starts with no rule number", (0, min(len(us.unit.target), 8)),
                                 suggestion=src["num"] + src["dot"])
        elif tgt["num"] != src["num"]:
            yield ctx.unit_issue(c, pair, us, f"numbered {tgt['num']}, but the English unit is rule {src['num']}",
                                 tgt.span("num"), suggestion=src["num"])


@check("form.head-punctuation", Category.FORM, Severity.WARNING, DefectClass.PUNCTUATION,
       "The rule number at the head is written differently from the English (\"111.7.\" against \"111.7\").")
def head_punctuation(ctx, c):
    for pair, us in _head_units(ctx):
        src, tgt = _HEAD.match(us.unit.source), _HEAD.match(us.unit.target)
        if src is not None and tgt is not None and tgt["num"] == src["num"] and tgt["dot"] != src["dot"]:
            yield ctx.unit_issue(c, pair, us, f"“{tgt['num']}{tgt['dot']}”: the English writes “{src['num']}{src['dot']}”",
                                 (tgt.start("num"), tgt.end("dot") + 1), suggestion=src["num"] + src["dot"])


@check("form.list-number", Category.FORM, Severity.WARNING, DefectClass.NUMBERS,
       "A numbered paragraph (a glossary definition's \"1.\", \"2.\") lost or changed its number.")
def list_number(ctx, c):
    rows = [(pair, us) for pair, us, placed in ctx.unit_rows() if placed.kind == PlacedKind.GLOSSARY_DEFINITION
            and _ENUM.match(us.unit.source)]
    if 2 * sum(1 for _, us in rows if _ENUM.match(us.unit.target)) < len(rows):
        return  # the translation leaves its definitions unnumbered: a convention, not a slip
    for pair, us in rows:
        src, tgt = _ENUM.match(us.unit.source), _ENUM.match(us.unit.target)
        if src is not None and (tgt is None or tgt["num"] != src["num"]):
            yield ctx.unit_issue(c, pair, us, f"the English paragraph is numbered “{src['num']}.”; the translation "
                                 + (f"“{tgt['num']}.”" if tgt else "is not"),
                                 tgt.span("num") if tgt else (0, 0), suggestion=f"{src['num']}.")


@check("form.line-break", Category.FORM, Severity.WARNING, DefectClass.PUNCTUATION,
       "A hard line break inside the translation where the English paragraph has none (left from a copy "
       "or a PDF; the translation platform and the published text show it).")
def line_break(ctx, c):
    for pair, us, _placed in ctx.unit_rows():
        t = us.unit.target.strip()
        if "\n" not in t or "\n" in us.unit.source.strip():
            continue
        lead = len(us.unit.target) - len(us.unit.target.lstrip())
        for m in _BREAK.finditer(t):
            shown = " ⏎ ".join(x.strip() for x in m.group().split("\n"))
            yield ctx.unit_issue(c, pair, us, f"line break in “{shown}”", (lead + m.start(), lead + m.end()),
                                 suggestion=" ".join(m.group().split()))


#: A decimal number written with a point: not a rule number (three digits, a point, digits or a
#: letter: "702.28", "100.1a") nor part of a dotted run ("1.2.3", a version or a date).
DECIMAL_POINT = re.compile(r"(?<![\w.,])(\d{1,2})\.(\d+)(?![\w.]|\.\d)")


@check("form.decimal-point", Category.FORM, Severity.WARNING, DefectClass.PUNCTUATION,
       "A decimal number written with the English decimal point where the language writes its own "
       "separator (\"2.5 polegadas\" for \"2,5 polegadas\"); rule numbers are left alone.")
def decimal_point(ctx, c):
    sep = word_profile(ctx.lang).decimal_separator
    if not sep or sep == ".":
        return
    for pair in ctx.aligned:
        for (off, t), (_so, src) in _pieces(pair) or [(tp, (0, pair.source_text)) for tp in pair.target_pieces]:
            for m in DECIMAL_POINT.finditer(t):
                # the English writes the same number: a measurement copied over, not a reference
                if m.group() not in src:
                    continue
                yield ctx.issue(c, pair, f"“{m.group()}”: the decimal separator is “{sep}”",
                                (off + m.start(), off + m.end()), suggestion=f"{m[1]}{sep}{m[2]}")


_QUOTED_EN = re.compile(r"[“\"]([A-Z][\w’'-]*(?: [\w’'-]+){0,2})[”\"]")


@check("form.dropped-quotes", Category.FORM, Severity.WARNING, DefectClass.QUOTES,
       "The English quotes a glossary term (\"“Imprint” used to be\") and the translation writes the "
       "term's rendering without the quotation marks.")
def dropped_quotes(ctx, c):
    ren = ctx.term_renderings or {}
    if not ren:
        return
    for pair, us, placed in ctx.unit_rows():
        t, src = us.unit.target, us.unit.source
        for m in _QUOTED_EN.finditer(src):
            r = ren.get(m.group(1))
            if not r or src.count(m.group()) != 1 or re.search(rf"[“\"«]{re.escape(r)}", t, re.I):
                continue
            # The term's mentions on each side, in order, paired when both have as many (a glossary
            # entry's headword, a whole first line, is the term itself, not a mention).
            en = [h.start() for h in _mentions(m.group(1), src)]
            tr = list(_mentions(r, t))
            if len(en) != len(tr) or m.start() + 1 not in en:
                continue
            h = tr[en.index(m.start() + 1)]
            yield ctx.unit_issue(c, pair, us, f"“{h.group()}”: the English quotes the term ({m.group()})",
                                 h.span(), suggestion=f"“{h.group()}”")


def _mentions(term: str, text: str):
    for h in re.finditer(rf"(?<![\w-]){re.escape(term)}(?![\w-])", text, re.I):
        if not (h.start() == 0 and text[h.end():h.end() + 1] in ("\n", "")):
            yield h


def _pieces(pair):
    """Translated and English pieces (rule text, each example; a term and its definitions),
    paired when both sides have the same number."""
    tp, sp = pair.target_pieces, pair.source_pieces
    return list(zip(tp, sp)) if len(tp) == len(sp) else []


def _title_piece(pair, k: int) -> bool:
    """Title Case by convention: headings, section titles, a glossary term."""
    return (pair.row.kind is RowKind.SECTION or (pair.row.kind is RowKind.GLOSSARY and k == 0)
            or getattr(pair.target, "level", "") == "rule")


_LIST_EN = re.compile(r",\s+(?:and|or)\s")


_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_PAREN = re.compile(r"\([^()]*\)")


def serial_commas(text: str, prof, verb=None) -> list[tuple[int, int, str]]:
    """``(comma position, end of the conjunction, item)`` of each list-final comma ("A, B, e C"):
    an earlier comma in the sentence and a short item between the two ("mágica, habilidade, ou
    efeito"), not a clause with its own verb or a parenthesis.  A longer item (five to nine words:
    "as características da fonte do dano, e as características") counts when ``verb`` (a finite
    verb test) finds no verb in it, it has no conjunction of its own, and the last item opens
    like it (the same article or preposition: a list's items are parallel, two clauses are not)."""
    conj = "|".join(re.escape(w) for w in prof.conjunctions if "/" not in w)
    last = re.compile(rf",\s+(?:{conj})\s+(?=([^\W\d_]*))")
    conjs = {w.casefold() for w in prof.conjunctions}
    out = []
    for a, b in sentences(text):
        sent = text[a:b]
        for m in last.finditer(sent):
            before = sent[:m.start()]
            # commas inside a closed parenthesis belong to it, not to the list
            outside = _PAREN.sub(lambda p: "(" + "_" * (len(p.group()) - 2) + ")", before)
            if "," not in outside:
                continue
            item = before[outside.rfind(",") + 1:]
            bare = _PLACEHOLDER.sub("", item)  # "{ts:artifact}" is a symbol, not a colon
            # An item with its own parenthesis ("Sacrário (veja a regra 714)"): the parenthesis
            # is the item's note; what counts is the item outside it.
            bare = _PAREN.sub(" ", bare) if bare.rstrip().endswith(")") else bare
            if any(ch in bare for ch in ";:()"):
                continue
            n = len(bare.split())
            if n > 4:
                words = [w.casefold() for w in _WORD.findall(bare)]
                if verb is None or n > 9 or m.group(1).casefold() not in words[:2]:
                    continue
                if any(w in conjs or (w not in prof.stopwords and verb(w)) for w in words):
                    continue
            out.append((a + m.start(), a + m.end() - 1, item.strip()))
    return out


@check("form.serial-comma", Category.FORM, Severity.WARNING, DefectClass.PUNCTUATION,
       "A comma before the last \"e\"/\"ou\" of a list, copied from the English serial comma (the language "
       "writes \"A, B e C\").")
def serial_comma(ctx, c):
    prof = PROFILES.get(ctx.lang)
    if prof is None or prof.serial_comma:
        return
    verb = finite_verb_test(ctx.lang)
    for pair in ctx.aligned:
        for (off, t), (_so, s) in _pieces(pair):
            if not _LIST_EN.search(s):
                continue  # the English has no serial comma here: the translation's comma is its own
            for i, j, item in serial_commas(t, prof, verb):
                yield ctx.issue(c, pair, f"“{item}{t[i:j + 12].rstrip()}”: no comma before the last item of a list",
                                (off + i, off + j), suggestion=" " + t[i + 1:j].strip() + " ")


@check("form.colloquial", Category.FORM, Severity.WARNING, DefectClass.SPELLING,
       "A colloquial spelling (\"pra\" for \"para\") in rules text.")
def colloquial(ctx, c):
    prof = PROFILES.get(ctx.lang)
    table = dict(prof.colloquial) if prof else {}
    if not table:
        return
    for pair in ctx.aligned:
        src = pair.source_text.casefold()
        for m in _WORD.finditer(pair.target_text):
            w = m.group().casefold()
            if w in table and not re.search(rf"(?<!\w){re.escape(w)}(?!\w)", src):
                yield ctx.issue(c, pair, f"“{m.group()}” is colloquial; “{table[w]}” in rules text", m.span(),
                                suggestion=table[w])


@check("form.capitals", Category.FORM, Severity.WARNING, DefectClass.SPELLING,
       "A word the language writes in lower case (a month, weekday or language name in Portuguese) "
       "capitalised in mid-sentence.")
def capitals(ctx, c):
    prof = PROFILES.get(ctx.lang)
    low = frozenset(prof.lowercase_words) if prof else frozenset()
    if not low:
        return
    for pair in ctx.aligned:
        for k, (off, t) in enumerate(pair.target_pieces):
            if _title_piece(pair, k):
                continue
            for m in _WORD.finditer(t):
                w = m.group()
                if not w[:1].isupper() or w.casefold() not in low or w.isupper():
                    continue
                before = t[:m.start()].rstrip()
                if not before or before[-1] in _SENTENCE_START:
                    continue
                nxt = t[m.end():].lstrip(" ,")
                prev = before.rstrip(",").rsplit(" ", 1)[-1]
                if prev[:1].isupper() or nxt[:1].isupper():
                    continue  # a name or a list of names ("Bruxo Chinês", "Goblin, Chinês, Elfo")
                yield ctx.issue(c, pair, f"“{w}” is written in lower case in mid-sentence", (off + m.start(), off + m.end()),
                                suggestion=w[0].lower() + w[1:])


def _negated_word(w: str, prof, hun) -> bool:
    """A word made negative by a prefix of the language: "irrelevante" (relevante), "inexistente"."""
    if hun is None:
        return False
    for p in prof.negation_prefixes:
        rest = w[len(p):]
        if w.startswith(p) and len(rest) > 4 and (rest in hun or (p == "ir" and rest[:1] == "r" and rest[1:] in hun)):
            return True
    return False


def _negations(text: str, prof) -> list[tuple[str, int, int]]:
    """The negations of a sentence: phrases first ("a menos que", "neither … nor" counted once),
    then words; "No." (an abbreviation: "Pat. No.") is none."""
    out, taken = [], []
    low = text.casefold()
    for ph in prof.negation_phrases:
        for m in re.finditer(rf"(?<!\w){re.escape(ph)}(?!\w)", low):
            out.append((ph, m.start(), m.end()))
            end = m.end()
            if ph == "neither":  # "neither A nor B": one negation
                nor = re.search(r"(?<!\w)nor(?!\w)", low[end:])
                end = end + nor.end() if nor else end
            taken.append((m.start(), end))
    words = frozenset(prof.negations)
    for m in re.finditer(r"[^\W\d_]+(?:['’][^\W\d_]+)?", text):
        if any(a <= m.start() < b for a, b in taken) or (m.group() == "No" and text[m.end():m.end() + 1] == "."):
            continue
        w = m.group().casefold().replace("’", "'")
        if w in words:
            out.append((w, m.start(), m.end()))
    return out


@check("meaning.negation", Category.MEANING, Severity.WARNING, DefectClass.MEANING,
       "The English sentence negates a verb (not, never, can't) and the translated sentence negates nothing: "
       "a dropped negation inverts the rule.")
def negation(ctx, c):
    prof, en = PROFILES.get(ctx.lang), PROFILES.get("en")
    if prof is None or not prof.negations or en is None:
        return
    hun = speller(ctx.lang)
    for pair in ctx.aligned:
        for (off, t), (_so, s) in _pieces(pair):
            for (a, b), (sa, sb) in _sentence_pairs(t, s):
                ne = _negations(s[sa:sb], en)
                if not ne or _negations(t[a:b], prof):
                    continue
                if any(_negated_word(m.group().casefold(), prof, hun) for m in _WORD.finditer(t[a:b])):
                    continue  # "not relevant" -> "irrelevante": negated by a prefix
                said = ", ".join(f"“{w}”" for w, _, _ in ne)
                yield ctx.issue(c, pair, f"the English sentence negates ({said}); the translation negates "
                                "nothing: a negation dropped?", (off + a, off + b))


def _sentence_pairs(t: str, s: str):
    """Sentences paired in order when both sides split alike; else the whole piece once."""
    ts, ss = sentences(t), sentences(s)
    if len(ts) == len(ss) and ts:
        return list(zip(ts, ss))
    return [((0, len(t)), (0, len(s)))]


# -- quotation marks, as written ---------------------------------------------------------------

_OPEN = {"“": "”", "«": "»", "„": "“"}
_CLOSE = {"”": "“", "»": "«"}
_QUOTE_RE = re.compile('[“”«»„"]')


def quote_problems(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, what)`` for each quotation pair that is mixed (“…"), reversed (”…“) or
    left open; straight quotes pair with each other in order."""
    out: list[tuple[int, int, str]] = []
    stack: list[tuple[str, int]] = []
    for m in _QUOTE_RE.finditer(text):
        ch, i = m.group(), m.start()
        if ch == '"':
            if stack and stack[-1][0] == '"':
                stack.pop()
            elif stack and stack[-1][0] in _OPEN and not _opens_here(text, i):
                o, j = stack.pop()
                out.append((j, i + 1, f"“{o}” closed by a straight quote"))
            else:
                stack.append((ch, i))
        elif ch in _OPEN and not (ch == "“" and stack and stack[-1][0] == "„"):
            stack.append((ch, i))
        else:  # a closer
            if stack and (stack[-1][0] == _CLOSE.get(ch) or stack[-1][0] == "„"):
                stack.pop()
            elif stack and stack[-1][0] == '"':
                _o, j = stack.pop()
                out.append((j, i + 1, f"a straight quote closed by “{ch}”"))
            elif ch == "”" and "“" in text[i + 1:] and not stack:
                k = text.index("“", i + 1)
                out.append((i, k + 1, "the pair is reversed (”…“)"))
            else:
                out.append((i, i + 1, f"“{ch}” closes nothing"))
    for o, j in stack:
        if not any(a <= j < b for a, b, _ in out):
            out.append((j, j + 1, f"“{o}” is never closed"))
    return sorted(out)


def _opens_here(text: str, i: int) -> bool:
    """A straight quote after a space or an opening bracket opens a new quotation."""
    return i == 0 or text[i - 1] in " (\n[—"


@check("form.quotes", Category.FORM, Severity.WARNING, DefectClass.QUOTES,
       "A quotation pair that is mixed (“…\"), reversed (”…“) or left open, where the English pairs its quotes.")
def quotes(ctx, c):
    for pair in ctx.aligned:
        for (off, t), (_so, s) in _pieces(pair) or [(tp, (0, "")) for tp in pair.target_pieces]:
            if s and quote_problems(s):
                continue  # the English itself is unbalanced here (a quotation spanning examples)
            for a, b, what in quote_problems(t):
                yield ctx.issue(c, pair, f"quotation marks: {what}", (off + a, off + b))


def quote_style(text: str) -> str | None:
    """The quotation style a text uses: ``curly`` (“…”), ``straight`` ("…"), ``angle`` («…»)."""
    kinds = Counter("straight" if ch == '"' else "angle" if ch in "«»" else "curly" for ch in _QUOTE_RE.findall(text))
    return kinds.most_common(1)[0][0] if kinds else None


def style_counts(ctx) -> Counter:
    key = "quote_styles"
    if key not in ctx.cache:
        ctx.cache[key] = Counter(st for p in ctx.aligned if (st := quote_style(p.target_text)))
    return ctx.cache[key]
