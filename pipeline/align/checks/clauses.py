"""Punctuation the English gives as evidence: where the English ends a clause (a semicolon, a
sentence break, or ", and") and the translation joins the next clause with a bare comma (a
comma splice: "palavras, todas as palavras" for "words; all words"), the comma before a quoted
rule title ("regra 905, “Draft de Conspiracy”"), the long dash of a type line ("Terreno
Criatura — Floresta", not a hyphen), and the comma before a connective ("permanente, porém";
the words are the profile's).

The clause pairs are found with the lexicon learnt from the translation itself
(:mod:`pipeline.align.wordlex`): the English words on either side of the break, and their
usual renderings in the translation.
"""

from __future__ import annotations

import re

from ...findings import Category, Check, DefectClass, Severity
from ...profiles import PROFILES
from ...profiles.words import word_profile
from ...text import NUMBER
from .. import wordlex
from .commas import _ordered_links
from .registry import check, register_pass

# INFO: an independent judge read all 7 findings on the real PO and took 4 for acceptable asyndetic
# coordination (the blind labellers listed 3 of them as defects): reviewers differ, so it is a hint.
SPLICE = Check("form.comma-splice", Category.FORM, Severity.INFO,
               "Two clauses joined by a bare comma where the English ends the first with a semicolon or a full "
               "stop, or joins them with \", and\"/\", or\" (a comma splice: \"palavras, todas as palavras\" for "
               "\"words; all words\"; \"jogadores, permanentes de Aura são\" for \"players, and Aura permanents are\").",
               DefectClass.PUNCTUATION)

#: The English ends a clause here: a semicolon, or a full stop (a closing quote may follow it)
#: before the next sentence's capital.
_EN_BREAK = re.compile(r"^[^\w,]*(?:;|\.[”\"’)]*\s+[“\"(]*[A-Z])")
_STOP = re.compile(r"[;:.!?]")
_OTHER = re.compile(r"[;:.!?()\[\]—–]")


def splices(ctx) -> list:
    prof = PROFILES.get(ctx.lang)
    if prof is None:
        return []
    wp = word_profile(ctx.lang)
    # Words that make a comma the right mark: a conjunction ("e", "ou") or one the comma goes
    # before ("mas", "porém", "pois").
    joiners = {w.casefold() for w in prof.conjunctions} | set(wp.comma_words) | set(wp.comma_before_connectives)
    en = PROFILES.get("en")
    # ", and" joining two clauses: the translation's bare comma drops the conjunction
    en_join = re.compile(rf"^\s*,\s+(?:{'|'.join(re.escape(w) for w in en.conjunctions if '/' not in w)})\s+(?:\w+\s+){{0,1}}$") if en else None
    lex = wordlex.learn(ctx)
    out = []
    for u in lex.units:
        if u.pair is None or not u.links:
            continue
        linked: dict[int, set[int]] = {}
        for i, j in _ordered_links(u):
            linked.setdefault(j, set()).add(i)
        seen: set[int] = set()
        for i in range(len(u.src) - 1):
            eg = u.source[u.src[i].end:u.src[i + 1].start]
            joined = en_join is not None and en_join.match(eg) is not None
            if not _EN_BREAK.match(eg) and not joined:
                continue
            p = _split_point(u, linked, i)
            if p is None:
                continue
            gap = u.target[u.tgt[p].end:u.tgt[p + 1].start]
            if _in_list(u, p):
                continue
            # the words at the break are rendered on their side of the comma, when they are rendered
            if any(j > p for j, srcs in linked.items() if i in srcs) or any(j <= p for j, srcs in linked.items() if i + 1 in srcs):
                continue
            k = gap.find(",")
            words = gap[k + 1:].split() + [u.tgt[p + 1].text]
            if p in seen:
                continue
            seen.add(p)
            if any(w.casefold() in joiners for w in words) or len(words) > 4:
                continue
            a = u.t_offset + u.tgt[p].start
            b = u.t_offset + u.tgt[p + 1].end
            shown = u.target[u.tgt[p].start:u.tgt[p + 1].end]
            said = u.source[u.src[i].start:u.src[i + 1].end]
            if joined:
                out.append(ctx.issue(SPLICE, u.pair, f"“{shown}”: a bare comma where the English joins with "
                                     f"“{eg.strip()}”: “{said}” (the conjunction is lost)", (a, b)))
                continue
            mark = ";" if ";" in eg else "."
            out.append(ctx.issue(SPLICE, u.pair, f"“{shown}”: a comma joins two clauses; the English ends the first "
                                 f"with “{mark}”: “{said}”", (a, b)))
    return out


def _in_list(u, p: int) -> bool:
    """The comma after word ``p`` is one of a list's ("Elfo, Exército, Fada"): another comma in
    the gap just before or just after."""
    return ((p > 0 and "," in u.target[u.tgt[p - 1].end:u.tgt[p].start])
            or (p + 2 < len(u.tgt) and "," in u.target[u.tgt[p + 1].end:u.tgt[p + 2].start]))


def _split_point(u, linked: dict[int, set[int]], i: int, window: int = 3, near: int = 3) -> int | None:
    """The translation's gap (after its word ``p``) holding a bare comma that parts the renderings
    of the English words up to ``i`` from those after it: the nearest linked word before the
    comma renders only English words up to ``i``, the nearest after only later ones, both within
    ``window`` words and no clause mark (;:.!?) between them and the comma."""
    side = {}
    for j, srcs in linked.items():
        # only the words next to the break place the comma: a far one says nothing of it
        side[j] = ("L" if i - near < min(srcs) and max(srcs) <= i else "R" if min(srcs) > i and max(srcs) <= i + near
                   else "X")
    for p in range(len(u.tgt) - 1):
        if not _splice_gap_loose(u.target[u.tgt[p].end:u.tgt[p + 1].start]):
            continue
        left = next((j for j in range(p, max(-1, p - window), -1) if j in side), None)
        right = next((j for j in range(p + 1, min(len(u.tgt), p + 1 + window)) if j in side), None)
        if left is None or right is None or side[left] != "L" or side[right] != "R":
            continue
        if _STOP.search(u.target[u.tgt[left].end:u.tgt[p].end]) or _STOP.search(u.target[u.tgt[p + 1].start:u.tgt[right].start]):
            continue  # a sentence or clause break between: the comma is inside one clause
        return p
    return None


def _splice_gap_loose(gap: str) -> bool:
    """One comma (perhaps after a closing quote), then function words only."""
    return gap.count(",") == 1 and re.match(r"^[”\"’]?,\s", gap) is not None and not _OTHER.search(gap)


register_pass(splices, [SPLICE])


# -- a rule's title after its number ---------------------------------------------------------

#: "rule 702, “Keyword Abilities”": a rule number, a comma, its quoted title.
_EN_TITLE = re.compile(rf"(?<![\d.])({NUMBER}), [“\"]")


def _pieces(pair):
    tp, sp = pair.target_pieces, pair.source_pieces
    return list(zip(tp, sp)) if len(tp) == len(sp) else []


@check("form.title-comma", Category.FORM, Severity.WARNING, DefectClass.PUNCTUATION,
       "A rule number and its quoted title not parted by a comma as in the English (\"regra 702. “…”\" or "
       "\"regra 905 “…”\" for \"rule 702, “…”\").")
def title_comma(ctx, c):
    for pair in ctx.aligned:
        for (off, t), (_so, s) in _pieces(pair):
            nums = sorted({m.group(1) for m in _EN_TITLE.finditer(s)})
            for num in nums:
                for m in re.finditer(rf"(?<![\d.]){re.escape(num)}(?![\da-z])(\.?\s*)[“\"]", t):
                    if "\n" in m.group(1) or (not m.group(1).strip() and m.group(1) != " "):
                        continue
                    yield ctx.issue(c, pair, f"“{m.group().strip()}”: the English parts the rule number from its title "
                                    f"with a comma (“{num}, “”)", (off + m.start(), off + m.end() - 1),
                                    suggestion=f"{num}, ")


# -- the long dash of a type line ------------------------------------------------------------

#: "Land Creature — Forest": words with capitals on either side of a spaced long dash.
_EN_TYPE_DASH = re.compile(r"[A-Z][\w’']* — [A-Z]")
_WORD = re.compile(r"[^\W\d_]+")
_TG_TYPE_DASH = re.compile(r"(?<=[^\W\d_]) ([-–]) (?=[^\W\d_])")


@check("form.type-dash", Category.FORM, Severity.WARNING, DefectClass.PUNCTUATION,
       "A hyphen or en dash where the English type line has its long dash (\"Terreno Criatura - Floresta\" for "
       "\"Land Creature — Forest\").")
def type_dash(ctx, c):
    for pair in ctx.aligned:
        for (off, t), (_so, s) in _pieces(pair):
            if not _EN_TYPE_DASH.search(s) or s.count("—") <= t.count("—"):
                continue
            for m in _TG_TYPE_DASH.finditer(t):
                before = _WORD.findall(t[:m.start()])[-1:]
                after = _WORD.findall(t[m.end():])[:1]
                if not (before and after and before[0][:1].isupper() and after[0][:1].isupper()):
                    continue  # a type line has capitals on both sides of its dash
                a, b = off + m.start() - len(before[0]), off + m.end() + len(after[0])
                yield ctx.issue(c, pair, f"“{t[a - off:b - off]}”: the English type line has a long dash (—) here",
                                (a, b), suggestion=f"{before[0]} — {after[0]}")


# -- a connective written straight after a word ------------------------------------------------

@check("form.connective-comma", Category.FORM, Severity.WARNING, DefectClass.PUNCTUATION,
       "No comma before a connective the language sets off (\"permanente porém permanece\", \"batalha portanto "
       "não\"): the comma is missing.")
def connective_comma(ctx, c):
    wp = word_profile(ctx.lang)
    prof = PROFILES.get(ctx.lang)
    words = sorted(wp.comma_before_connectives)
    if not words or prof is None:
        return
    conj = {w.casefold() for w in prof.conjunctions}
    pat = re.compile(rf"([^\W\d_]+) +({'|'.join(map(re.escape, words))})(?!\w)", re.I)
    # "então" needs the comma where it opens the main clause, which the English marks (", then")
    echoed = [(re.compile(rf"([^\W\d_]+) +({re.escape(w)})(?!\w)", re.I), re.compile(rf",\s+{re.escape(w)}(?!\w)", re.I),
               re.compile(rf",\s+{re.escape(e)}\b"))
              for w, e in wp.comma_when_english_has]
    for pair in ctx.aligned:
        for (off, t), (_so, s) in _pieces(pair) or [(tp, (0, "")) for tp in pair.target_pieces]:
            found = list(pat.finditer(t))
            for bare, set_off, english in echoed:
                if len(english.findall(s)) > len(set_off.findall(t)):  # the English sets off more of them
                    found += [m for m in bare.finditer(t)]
            for m in sorted(found, key=lambda m: m.start()):
                if m.group(1).casefold() in conj:
                    continue  # "e portanto": the conjunction joins; a comma pair is optional there
                yield ctx.issue(c, pair, f"“{m.group()}”: a comma goes before “{m.group(2)}”",
                                (off + m.start(), off + m.end()), suggestion=f"{m.group(1)}, {m.group(2)}")


@check("form.semicolon-comma", Category.FORM, Severity.WARNING, DefectClass.PUNCTUATION,
       "The English ends a clause with a semicolon before a connective (\"turn; however,\") and the "
       "translation has a comma there (\"turno, entretanto,\"): a comma splice; the semicolon is suggested.")
def semicolon_comma(ctx, c):
    tw, ew = word_profile(ctx.lang).semicolon_connectives, word_profile("en").semicolon_connectives
    if not tw or not ew:
        return
    en = re.compile(rf";\s+(?:{'|'.join(map(re.escape, sorted(ew)))})\b", re.I)
    alt = '|'.join(map(re.escape, sorted(tw, key=lambda w: (-len(w), w))))
    kept = re.compile(rf";\s+(?:{alt})(?!\w)", re.I)
    # a comma before the connective, which is itself set off: it opens a clause, not a phrase
    splice = re.compile(rf"(?<=\w),(\s+(?:{alt}))\s*,", re.I)
    for pair in ctx.aligned:
        for (off, t), (_so, s) in _pieces(pair) or [(tp, (0, pair.source_text)) for tp in pair.target_pieces]:
            missing = len(en.findall(s)) - len(kept.findall(t))
            if missing <= 0:
                continue
            for m in list(splice.finditer(t))[:missing]:
                yield ctx.issue(c, pair, f"“{m.group()}”: the English ends the clause with “;” before the "
                                "connective", (off + m.start(), off + m.end()), suggestion=f";{m.group(1)},")


# -- one bracketed clause split in two ---------------------------------------------------------------

_BRACKETS = (re.compile(r"\[([^\[\]]*)\]"), re.compile(r"\(([^()]*)\)"))
_INNER_BREAK = re.compile(r"(?<!\d)[.;]\s+\S")


@check("form.bracket-split", Category.FORM, Severity.WARNING, DefectClass.PUNCTUATION,
       "A bracketed event or parenthesis the English writes as one sentence split in two by the translation "
       "(\"[… ao jogador defensor. O jogador defensor ganha …]\" for \"[… to the defending player, the defending "
       "player gains …]\").")
def bracket_split(ctx, c):
    for pair in ctx.aligned:
        for (off, t), (_so, s) in _pieces(pair):
            for pat in _BRACKETS:
                bs, bt = list(pat.finditer(s)), list(pat.finditer(t))
                if len(bs) != len(bt):
                    continue  # the brackets do not pair one to one
                for ms, mt in zip(bs, bt):
                    if _INNER_BREAK.search(ms.group(1)):
                        continue
                    m = _INNER_BREAK.search(mt.group(1))
                    if m is None:
                        continue
                    a = off + mt.start(1) + m.start()
                    left = _WORD.findall(mt.group(1)[:m.start()])[-1:]
                    a -= len(left[0]) if left else 0
                    yield ctx.issue(c, pair, f"“{t[a - off:off + mt.start(1) + m.end() - off]}…”: the English writes "
                                    "this bracket as one sentence", (a, off + mt.start(1) + m.end()))
