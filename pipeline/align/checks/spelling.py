"""Spelling defects a dictionary cannot see: every word is a word, or a name.

Hunspell (:mod:`.damage`'s typo pass) judges one word at a time, so it accepts "especifico"
(the verb) for "específico", "tuno" for "turno", "cri taura" (two words) for "criatura", a card
name copied with a typo ("Desrmoplasm") or a name whose casing changed ("Magic: the
Gathering").  These checks learn what the word should be from the translation itself:

- ``damage.real-word``: a word the translation writes rarely whose accent variant, or a
  one-letter neighbour inside the word, the same translation writes far more often, *and* the
  English word of the same sentence is rendered by that frequent form across the document
  (word alignment, :mod:`pipeline.align.wordlex`).  Verb and gender paradigms (permite /
  permita, marcados / marcador, certos / certas) change a word's ending, so only an accent or an
  edit before the word's last two letters counts;
- ``damage.split-word``: two rare words that, joined, are a word the translation writes often;
- ``damage.name-typo``: a capitalised word no dictionary knows, one or two edits from a
  capitalised word of the English (a name copied with a slip);
- ``damage.name-case``: a name of the English ("Magic: The Gathering") written with other
  capitals, or a name the translation writes with a lower-case joiner ("Gigante de Duas
  Cabeças") written once with a capital one;
- ``damage.prefix-hyphen``: a prefix the orthography writes apart (the language's spelling
  profile, :mod:`pipeline.profiles.spelling`) hyphenated, where the document also writes it apart;
- ``damage.term-case`` (info): a term the English capitalises mid-sentence ("an Equipment")
  written in lower case where the translation capitalises its rendering nearly everywhere;
- ``damage.accent``: the profile's accent rules a dictionary cannot see in a hyphenated form
  ("permití-lo");
- ``damage.stray-letter``: a subrule's letter written twice after its number ("113.10a a Um");
- ``damage.lost-hyphen``: a compound written apart ("palavra chave") that the translation itself
  hyphenates at least 5× and 3× as often (clitics and the profile's apart-prefixes left out);
- ``damage.se-for-ser``: "se" between a modal verb and a past participle ("devem se tratadas"),
  the infinitive "ser" that lost its r (the profile's modals and participle pattern);
- ``damage.english-kept``: one lower-case English word of the rule kept in the translation, unknown
  to Hunspell, written there at most twice, whose rendering (word alignment) the translation writes
  at least 10× ("variantes de multiplayer": "multijogador").

Round 6 (r6form): on the whole pt-BR PO these three make 2 + 1 + 1 findings, all four judged real
(self-judged); draws 1–5 unchanged, draw 6 38 → 41 named (fitted).

Measured on the real pt-BR PO (issue 24, round 4): 27 findings of these checks, 36 of the 37
spelling defects of the recall draws 1–4 named with damage.typo and damage.glued (fitted).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from rapidfuzz import process
from rapidfuzz.distance import OSA

from ...findings import Category, DefectClass, Severity
from ...profiles.spelling import spelling_profile
from ...segment.hunspell import speller
from .. import wordlex
from ..text import NAME_JOINERS, fold
from .registry import check

#: A word the translation writes at most this often may be a slip for a frequent neighbour.
RARE = 3
#: The frequent form must be written at least this often, and this many times as often as the
#: rare one (an accent variant: half as strict, "especifico" 3 / "específico" 8).
FREQUENT = 5
EDIT_RATIO = 4
ACCENT_RATIO = 2
#: The English word's links to the frequent form: at least this many, this many times its links
#: to the rare form, and this share of all its links (a rendering, not an accident).
MIN_LINKS = 3
LINK_RATIO = 3
LINK_SHARE = 0.3

_PIECE = re.compile(r"[^\W\d_]+")
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


def _counts(ctx) -> Counter:
    """How often the translation writes each word (casefolded; hyphenated words in parts)."""
    key = "spelling.counts"
    if key not in ctx.cache:
        ctx.cache[key] = Counter(m.group().casefold() for p in ctx.pairs if p.target is not None
                                 for m in _PIECE.finditer(p.target_text))
    return ctx.cache[key]


def _word_set(text: str) -> set[str]:
    return {fold(m.group()) for m in _PIECE.finditer(text)}


def _surface_links(lex) -> dict[str, Counter]:
    """English word as written (casefolded) -> the translation's words its links go to."""
    out: dict[str, Counter] = defaultdict(Counter)
    for u in lex.units:
        for i, j in u.links:
            out[u.src[i].text.casefold()][u.tgt[j].text.casefold()] += 1
    return out


def _ending_change(a: str, b: str, gender: str) -> bool:
    """The two words differ in their last two letters (an inflection: permite / permita,
    marcados / marcador), or only by the profile's gender letters (certos / certas, ambos / ambas)."""
    if a[-2:] != b[-2:]:
        return True
    if len(a) == len(b) and gender:
        diff = [(x, y) for x, y in zip(a, b) if x != y]
        return len(diff) == 1 and set(diff[0]) <= set(gender)
    return False


def _first_person_slip(s: str, v: str, prof, words) -> bool:
    """``s`` is a first-person verb form of the verb ``v`` is a form of, one the profile says rules
    text never writes ("permiti" of "permitir", for "permite")."""
    for mine, meant, infinitive in prof.first_person_slips if prof else ():
        stem_ = s[:-len(mine)]
        if s.endswith(mine) and v == stem_ + meant and stem_ + infinitive in words:
            return True
    return False


def _cased(word: str, like: str) -> str:
    return word[:1].upper() + word[1:] if like[:1].isupper() else word


@check("damage.real-word", Category.DAMAGE, Severity.WARNING, DefectClass.SPELLING,
       "A real word written in place of another (\"especifico\" for \"específico\", \"tuno\" for \"turno\"): the "
       "translation writes it rarely, writes its accent variant or one-letter neighbour far more often, and "
       "renders the English word of the sentence with that frequent form.")
def real_word(ctx, c):
    hun = speller(ctx.lang)
    if hun is None:
        return
    lex = wordlex.learn(ctx)
    counts = _counts(ctx)
    links = _surface_links(lex)
    prof = spelling_profile(ctx.lang)
    words = known = ctx.lexicon(ctx.lang).words
    gender = prof.gender_letters if prof else ""
    by_fold: dict[str, list[str]] = defaultdict(list)
    for w in sorted(counts):
        by_fold[fold(w)].append(w)
    frequent: dict[str, list[str]] = defaultdict(list)
    for w in sorted(counts):
        if counts[w] >= FREQUENT and len(w) >= 4:
            frequent[w[:1]].append(w)
    seen: set = set()
    for u in lex.units:
        if u.pair is None:
            continue
        src_forms = sorted({t.text.casefold() for t in u.src})
        src_fold = _word_set(u.source)
        for t in u.tgt:
            s = t.text.casefold()
            if len(s) < 4 or counts[s] > RARE or not t.text.isalpha() or s in src_fold:
                continue
            if u.target[t.start - 1:t.start] in ("-", "'", "’") or u.target[t.end:t.end + 1] in ("-", "'", "’"):
                continue  # part of a hyphenated word or a clitic form ("comprá-lo")
            if t.text not in hun and s not in known:
                continue  # a non-word to both dictionaries: damage.typo's
            cands = [(v, True) for v in by_fold[fold(s)] if v != s]
            near = process.extract(s, frequent.get(s[:1], []), scorer=OSA.distance, score_cutoff=1, limit=None)
            cands += [(v, False) for v, _d, _i in near if v != s and fold(v) != fold(s)]
            best = None
            for v, accent in cands:
                ratio = ACCENT_RATIO if accent else EDIT_RATIO
                if counts[v] < max(FREQUENT, ratio * counts[s]):
                    continue
                if not accent and (_ending_change(s, v, gender) or wordlex.stem(s, ctx.lang) == wordlex.stem(v, ctx.lang)) \
                        and not _first_person_slip(s, v, prof, words):
                    continue
                for e in src_forms:
                    got = links.get(e)
                    if not got:
                        continue
                    n = got[v]
                    if n >= MIN_LINKS and n >= LINK_RATIO * got[s] and n >= LINK_SHARE * sum(got.values()):
                        if best is None or n > best[2]:
                            best = (v, e, n)
            if best is None:
                continue
            v, e, n = best
            span = (u.t_offset + t.start, u.t_offset + t.end)
            if (u.pair.row.id, span) in seen:
                continue
            seen.add((u.pair.row.id, span))
            yield ctx.issue(c, u.pair, f"“{t.text}” is a word, but this translation writes it {counts[s]}× and "
                            f"“{v}” {counts[v]}×, and renders “{e}” as “{v}” {n}×: “{_cased(v, t.text)}”?",
                            span, suggestion=_cased(v, t.text))


#: A word split in two: the joined word is written at least this often, each part at most RARE.
JOINED_MIN = 10


@check("damage.split-word", Category.DAMAGE, Severity.WARNING, DefectClass.SPELLING,
       "A word split by a space (\"cri taura\"): two words the translation (almost) never writes that, "
       "joined, are a word it writes often.")
def split_word(ctx, c):
    hun = speller(ctx.lang)
    counts = _counts(ctx)
    lex = ctx.lexicon(ctx.lang)
    often: dict[str, list[str]] = defaultdict(list)
    for w in sorted(counts):
        if counts[w] >= JOINED_MIN and len(w) >= 6:
            often[w[:1]].append(w)
    for p in ctx.aligned:
        text = p.target_text
        src_fold = _word_set(p.source_text)
        ws = list(_WORD.finditer(text))
        for a, b in zip(ws, ws[1:]):
            if text[a.end():b.start()] != " " or not (a.group().isalpha() and b.group().isalpha()):
                continue
            x, y = a.group().casefold(), b.group().casefold()
            if fold(x) in src_fold or fold(y) in src_fold:
                continue
            if counts[x] > RARE or counts[y] > RARE or x in lex.function_words or y in lex.function_words:
                continue
            joined = x + y
            if counts[joined] < JOINED_MIN:
                # The space took a letter's place, or came with a slip ("cri taura": "criatura").
                hit = process.extractOne(joined, often.get(joined[:1], []), scorer=OSA.distance, score_cutoff=1)
                if hit is None:
                    continue
                joined = hit[0]
            if hun is not None and joined not in hun:
                continue
            yield ctx.issue(c, p, f"“{a.group()} {b.group()}” reads as one word, “{joined}” "
                            f"(written {counts[joined]}× in this translation)", (a.start(), b.end()),
                            suggestion=_cased(joined, a.group()))


_CAP_WORD = re.compile(r"(?<![\w'’-])[A-ZÀ-Ý][^\W\d_]+(?![\w'’-])")


@check("damage.name-typo", Category.DAMAGE, Severity.WARNING, DefectClass.SPELLING,
       "A capitalised word no dictionary knows, one or two letters from a capitalised word of the English "
       "(a card or set name copied with a slip: \"Desrmoplasm\" for \"Dermoplasm\").")
def name_typo(ctx, c):
    hun = speller(ctx.lang)
    lex = ctx.lexicon(ctx.lang)
    en = ctx.lexicon("en")
    counts = _counts(ctx)
    for p in ctx.aligned:
        src = p.source_text
        names = sorted({m.group() for m in _CAP_WORD.finditer(src) if len(m.group()) >= 5 and not m.group().isupper()})
        if not names:
            continue
        src_words = {m.group() for m in _CAP_WORD.finditer(src)}
        # A name the translation keeps in English: it writes it somewhere ("Dermoplasm"), unlike
        # a name it translates ("Manticore": "Mantícora").
        names = [n for n in names if counts[n.casefold()]]
        for m in _CAP_WORD.finditer(p.target_text):
            w = m.group()
            lw = w.casefold()
            if len(w) < 5 or w.isupper() or w in src_words or lw in lex.words or lw in en.words:
                continue
            if hun is not None and (w in hun or lw in hun):
                continue
            if not w.isascii():
                continue  # a name adapted to the language ("Mantícora" for Manticore), not copied
            limit = 1 if len(w) < 8 else 2
            hit = process.extractOne(w, names, scorer=OSA.distance, score_cutoff=limit)
            if hit is None or hit[0] == w:
                continue
            if p.target_text[m.end():].lstrip().startswith("(") and hit[0] in p.target_text[m.end():m.end() + 80]:
                continue  # "Triscelavite (Triskelavite)": a localized name with its English one
            yield ctx.issue(c, p, f"“{w}” is no word; the English has “{hit[0]}”", m.span(), suggestion=hit[0])


#: A name of the English: capitalised words joined by spaces, a colon or lower-case joiners.
_JOINERS = "|".join(sorted(NAME_JOINERS))
_EN_NAME = re.compile(rf"(?<![\w'’-])[A-Z][\w'’-]*(?:(?::? | (?:{_JOINERS}) )(?:(?:{_JOINERS}) )*[A-Z][\w'’-]*)+")
def _en_names(src: str) -> list[str]:
    """The English's names of two words or more, and their runs of two words or more that start
    and end capitalised ("Magic: The Gathering" of "Magic: The Gathering Tournament Rules")."""
    out = set()
    for m in _EN_NAME.finditer(src):
        ws = m.group().split(" ")
        for i in range(len(ws)):
            for j in range(i + 2, len(ws) + 1):
                if ws[i][:1].isupper() and ws[j - 1][:1].isupper():
                    out.add(" ".join(ws[i:j]))
    return sorted(out, key=lambda n: (-len(n), n))  # the longest first: it names the finding


#: A translation's name of three words, the middle one short (a joiner: "Gigante de Duas").
_JOINED_NAME = re.compile(r"(?<![\w'’-])([A-ZÀ-Ý][^\W\d_]+) ([^\W\d_]{1,3}) ([A-ZÀ-Ý][^\W\d_]+)(?![\w'’-])")
#: The majority casing must be written this often, and this many times as often as the variant.
CASE_MAJORITY = 3
CASE_RATIO = 3


@check("damage.name-case", Category.DAMAGE, Severity.WARNING, DefectClass.SPELLING,
       "A name written with other capitals than the English writes it (\"Magic: the Gathering\"), or with a "
       "capitalised joiner the translation writes in lower case everywhere else (\"Gigante De Duas Cabeças\").")
def name_case(ctx, c):
    joined: dict[str, Counter] = defaultdict(Counter)
    for p in ctx.pairs:
        if p.target is not None:
            for m in _JOINED_NAME.finditer(p.target_text):
                joined[fold(m.group())][m.group()] += 1
    for p in ctx.aligned:
        text = p.target_text
        told: list[tuple[int, int]] = []
        for name in _en_names(p.source_text):
            for m in re.finditer(re.escape(name), text, re.IGNORECASE):
                got = m.group()
                if got[1:] == name[1:] or fold(got) != fold(name) or got in p.source_text:
                    continue
                # Name the first word whose capitals differ.
                for gw, nw in zip(re.finditer(r"\S+", got), name.split()):
                    if gw.group()[:1] != nw[:1] and gw.start() > 0:
                        a = m.start() + gw.start()
                        if (a, a + len(nw)) in told:
                            break  # "Magic: the" of "Magic: the Gathering": told once
                        told.append((a, a + len(nw)))
                        yield ctx.issue(c, p, f"“{got}”: the English writes the name “{name}”", (a, a + len(nw)),
                                        suggestion=nw)
                        break
        for m in _JOINED_NAME.finditer(text):
            mid = m.group(2)
            if not mid[:1].isupper() or any(a < m.end(2) and m.start(2) < b for a, b in told):
                continue
            forms = joined[fold(m.group())]
            lower = f"{m.group(1)} {mid.lower()} {m.group(3)}"
            if forms[lower] >= CASE_MAJORITY and forms[lower] >= CASE_RATIO * forms[m.group()]:
                yield ctx.issue(c, p, f"“{m.group()}”: this translation writes “{lower}” {forms[lower]}×",
                                m.span(2), suggestion=mid.lower())


def _stem_in(st: str, keys: set) -> bool:
    """``st`` is one of ``keys``, or one holds the other ("tradicional" / "tradicion": the
    stemmer cuts the singular and the plural differently)."""
    return st in keys or any(len(k) >= 5 and len(st) >= 5 and (k.startswith(st) or st.startswith(k)) for k in keys)


@check("damage.prefix-hyphen", Category.DAMAGE, Severity.WARNING, DefectClass.SPELLING,
       "A prefix the orthography writes apart, hyphenated (\"não-básico\": \"não básico\" since the 1990 "
       "Orthographic Agreement), in a translation that also writes it apart.")
def prefix_hyphen(ctx, c):
    prof = spelling_profile(ctx.lang)
    if prof is None or not prof.unhyphenated_prefixes:
        return
    lex = wordlex.learn(ctx)
    source_prefix = re.compile(prof.source_prefix) if prof.source_prefix else None
    for prefix, source in prof.unhyphenated_prefixes:
        hyphened = re.compile(rf"(?<![\w-])({re.escape(prefix)})-([^\W\d_]+)", re.IGNORECASE)
        apart = re.compile(rf"(?<![\w-]){re.escape(prefix)} ([^\W\d_]+)", re.IGNORECASE)
        found = []
        n_apart = 0
        for p in ctx.aligned:
            found += [(p, m) for m in hyphened.finditer(p.target_text)]
            if source_prefix is None:
                continue
            # The prefix written apart: "não tradicional" where the English has "nontraditional"
            # and the words align (the English base word's renderings), not "não é".
            bases = {wordlex.stem(m.group(1).casefold(), "en") for m in
                     (source_prefix.fullmatch(w) for w in re.findall(r"[\w-]+", p.source_text)) if m}
            if not bases:
                continue
            keys = {k for b in bases for k in lex.en.renderings.get(b, {})}
            n_apart += sum(1 for m in apart.finditer(p.target_text)
                           if _stem_in(wordlex.stem(m.group(1).casefold(), ctx.lang), keys))
        if not n_apart:
            continue  # the document hyphenates it throughout: its style, not a slip
        for p, m in found:
            if m.group(2)[:1].isupper():
                # "Jogador-Ativo/Não-Ativo": a capitalised, hyphenated label the team coined as a name
                # (an independent judge took all four on the real PO for a naming choice).
                continue
            fixed = f"{m.group(1)} {m.group(2)}"
            yield ctx.issue(c, p, f"“{m.group()}”: the prefix “{prefix}” is written apart ({source}; this "
                            f"translation writes it apart {n_apart}×)", m.span(), suggestion=fixed)


#: A term written capitalised this often (and this many times as often as in lower case) in the
#: units whose English capitalises it mid-sentence is the team's capitalised term.
TERM_CASE_MIN = 4
TERM_CASE_RATIO = 4
_ONE_WORD = re.compile(r"[^\W\d_]+")


def _mid_sentence(text: str, word: str) -> list:
    """``word``'s occurrences (any case) that do not start a sentence, a quotation or a line."""
    out = []
    for m in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text, re.IGNORECASE):
        before = text[:m.start()].rstrip()
        if before and before[-1] not in ".:;!?“\"«(\n":
            out.append(m)
    return out


# Info: of its three findings in the recall draws, one blind reviewer listed one ("Um equipamento
# não pode") and another left two alone ("um equipamento anexado"): teams differ on a subtype's capital.
@check("damage.term-case", Category.DAMAGE, Severity.INFO, DefectClass.SPELLING,
       "A game term the English capitalises mid-sentence (a subtype: \"an Equipment\") written in lower case, "
       "where this translation capitalises its rendering (\"Equipamento\") everywhere else.")
def term_case(ctx, c):
    terms = sorted((t, r) for t, r in (ctx.term_renderings or {}).items()
                   if _ONE_WORD.fullmatch(t) and t[:1].isupper() and _ONE_WORD.fullmatch(r) and r[:1].isupper())
    if not terms:
        return
    written: dict[str, Counter] = defaultdict(Counter)
    lower: dict[str, list] = defaultdict(list)
    for p in ctx.aligned:
        here = {m.group().casefold() for m in _PIECE.finditer(p.source_text)}
        for t, r in terms:
            if t.casefold() not in here:
                continue
            ems = _mid_sentence(p.source_text, t)
            if not ems or any(m.group()[:1].islower() for m in ems):
                continue  # the English writes it in lower case here too ("attack" the verb)
            for m in _mid_sentence(p.target_text, r):
                up = m.group()[:1].isupper()
                written[t][up] += 1
                if not up:
                    lower[t].append((p, m))
    for t, r in terms:
        n = written[t]
        if n[True] >= TERM_CASE_MIN and n[True] >= TERM_CASE_RATIO * n[False]:
            for p, m in lower[t]:
                fixed = m.group()[:1].upper() + m.group()[1:]
                yield ctx.issue(c, p, f"“{m.group()}”: the English writes “{t}” capitalised and this translation "
                                f"writes “{r}” capitalised {n[True]}× (in lower case {n[False]}×)", m.span(),
                                suggestion=fixed)


@check("damage.accent", Category.DAMAGE, Severity.WARNING, DefectClass.SPELLING,
       "A word against an accent rule of the orthography that a dictionary cannot see in a hyphenated "
       "form (\"permití-lo\": an -ir infinitive before -lo takes no accent).")
def accent(ctx, c):
    prof = spelling_profile(ctx.lang)
    if prof is None or not prof.accent_rules:
        return
    rules = [(re.compile(rx), rep, why) for rx, rep, why in prof.accent_rules]
    for p in ctx.aligned:
        for m in _WORD.finditer(p.target_text):
            for rx, rep, why in rules:
                if rx.match(m.group()):
                    fixed = rx.sub(rep, m.group())
                    yield ctx.issue(c, p, f"“{m.group()}”: {why}", m.span(), suggestion=fixed)
                    break


_HEAD_LETTER = re.compile(r"([^\W\d_])\s+(?=[A-ZÀ-Ý])")


@check("damage.stray-letter", Category.DAMAGE, Severity.WARNING, DefectClass.SPELLING,
       "A subrule's letter written twice: the text after \"113.10a\" starts with a lone \"a\" before a "
       "capitalised word (\"113.10a a Um efeito\"), which the English does not.")
def stray_letter(ctx, c):
    for p in ctx.aligned:
        rid = str(p.row.id or "")
        m = _HEAD_LETTER.match(p.target_text)
        if m and rid[-1:].isalpha() and rid[:1].isdigit() and m.group(1) == rid[-1] \
                and not _HEAD_LETTER.match(p.source_text):
            yield ctx.issue(c, p, f"“{m.group(1)}” after the rule number {rid}: its letter written twice",
                            (m.start(1), m.end(1)))


# --- r6form block (round 6) ---------------------------------------------------------------
#: A two-part hyphenated word the translation writes at least this often, and this many times as
#: often as the same two words apart, is its spelling: the words apart are a lost hyphen.
HYPHEN_MIN = 5
HYPHEN_RATIO = 3
_HYPHENED = re.compile(r"(?<![\w-])([^\W\d_]+)-([^\W\d_]+)(?![\w-])")
_APART = re.compile(r"(?<![\w-])([^\W\d_]+) ([^\W\d_]+)(?![\w-])")


@check("damage.lost-hyphen", Category.DAMAGE, Severity.WARNING, DefectClass.SPELLING,
       "A compound written as two words (\"palavra chave\") that this translation hyphenates nearly "
       "everywhere else (\"palavra-chave\").")
def lost_hyphen(ctx, c):
    prof = spelling_profile(ctx.lang)
    if prof is None:
        return
    skip = set(prof.clitics) | {pre for pre, _ in prof.unhyphenated_prefixes}
    hyph: Counter = Counter()
    for p in ctx.aligned:
        for m in _HYPHENED.finditer(p.target_text):
            a, b = m.group(1).casefold(), m.group(2).casefold()
            if a not in skip and b not in skip:
                hyph[(a, b)] += 1
    if not hyph:
        return
    found = []
    apart: Counter = Counter()
    for p in ctx.aligned:
        text = p.target_text
        # Overlapping pairs of words: "uma palavra chave" holds "palavra chave" after "uma palavra".
        for i in (m.start() for m in re.finditer(r"(?<![\w-])[^\W\d_]", text)):
            m = _APART.match(text, i)
            if m and (m.group(1).casefold(), m.group(2).casefold()) in hyph:
                apart[(m.group(1).casefold(), m.group(2).casefold())] += 1
                found.append((p, m))
    for p, m in found:
        key = (m.group(1).casefold(), m.group(2).casefold())
        if hyph[key] < HYPHEN_MIN or hyph[key] < HYPHEN_RATIO * apart[key]:
            continue
        if m.group(2)[:1].isupper():
            continue  # "Reciclar Tipo": a capitalised heading, a name the team coined
        fixed = f"{m.group(1)}-{m.group(2)}"
        yield ctx.issue(c, p, f"“{m.group()}”: this translation writes “{key[0]}-{key[1]}” {hyph[key]}× "
                        f"(apart {apart[key]}×)", m.span(), suggestion=fixed)


@check("damage.se-for-ser", Category.DAMAGE, Severity.WARNING, DefectClass.SPELLING,
       "\"se\" for \"ser\" between a modal verb and a past participle (\"devem se tratadas\": \"devem ser "
       "tratadas\"): a modal takes the infinitive, and the clitic \"se\" never stands before a participle.")
def se_for_ser(ctx, c):
    prof = spelling_profile(ctx.lang)
    if prof is None or not prof.modal_auxiliaries or not prof.participle:
        return
    modals = "|".join(re.escape(m) for m in prof.modal_auxiliaries)
    rx = re.compile(rf"(?i)(?<![\w-])(?:{modals}) (se) ({prof.participle.removeprefix('(?i)')})(?![\w-])")
    for p in ctx.aligned:
        for m in rx.finditer(p.target_text):
            yield ctx.issue(c, p, f"“{m.group()}”: after a modal, “{m.group(1)}” before the participle "
                            f"“{m.group(2)}” is the infinitive “ser”", m.span(1), suggestion="ser")


#: An English word kept in the translation: written there at most this often, while the team's
#: rendering of it (word alignment) is written at least this often.
KEPT_MAX = 2
KEPT_RENDERING_MIN = 10
_LOWER_WORD = re.compile(r"(?<![\w{:/.-])[^\W\d_A-Z]{5,}(?![\w}/-])")


@check("damage.english-kept", Category.DAMAGE, Severity.WARNING, DefectClass.UNTRANSLATED,
       "One English word of the rule left in the translation (\"variantes de multiplayer\"), which no "
       "dictionary of the language knows and which this translation renders elsewhere (\"multijogador\").")
def english_kept(ctx, c):
    hun = speller(ctx.lang)
    if hun is None:
        return
    lex = wordlex.learn(ctx)
    counts = _counts(ctx)
    for p in ctx.aligned:
        src = {m.group().casefold() for m in _PIECE.finditer(p.source_text)}
        for m in _LOWER_WORD.finditer(p.target_text):
            w = m.group()
            if w not in src or counts[w] > KEPT_MAX or w in hun:
                continue
            top = lex.en.top(wordlex.stem(w, "en"))
            if not top:
                continue
            shown = lex.tgt.shown(top[0])
            if fold(shown) == fold(w) or counts[shown.casefold()] < KEPT_RENDERING_MIN:
                continue
            yield ctx.issue(c, p, f"“{w}” is the English word kept; this translation writes “{shown}” for it "
                            f"{counts[shown.casefold()]}×", m.span(), suggestion=shown)
