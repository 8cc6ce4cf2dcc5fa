"""Pseudo-translations with planted defects: ground truth for measuring the checks.

A pseudo-translation keeps what a real translation must keep (rule numbers, references,
digits, mana symbols, English card names) and renders the rest deterministically: term-base
terms by their approved rendering, number words by the language's, card names known to
MTGJSON as "Localized (English)", every other word through a fixed word cipher into the
language's lexicon (function words into function words).  The same English sentence
always gives the same translated sentence, so a clean pseudo-translation should draw no
finding, and each planted defect is one known (rule, check category) pair.
"""

from __future__ import annotations

import copy
import random
import re
import zlib
from dataclasses import dataclass, field

from pipeline.align.checks.form import DECIMAL_POINT, finite_verb_test, serial_commas
from pipeline.align.checks.registry import categories
from pipeline.lexicon import lexicon
from pipeline.profiles.words import word_profile
from pipeline.findings import Category
from pipeline.align.termbase import TermBase, find_all, term_regex
from pipeline.align.text import NUMBER_WORDS, SYMBOL_RE, WORD_RE, sentences
from pipeline.model import Document, Example, Rule
from pipeline.rulenum import Level
from pipeline.profiles import EN, PROFILES, Profile
from pipeline.text import NUMBER, SUBRULE

_URL = re.compile(r"\S+\.(?:com|org|net)\S*|\b[A-Z]{2,}\b|\b\d+[a-z]\b")
_REF = re.compile(rf"{NUMBER}(?:[–-][a-z0-9.]+)?")


def _profile(lang: str) -> Profile:
    """The language's profile; English wording for a language without one."""
    return PROFILES.get(lang, EN)


def cue_words(lang: str) -> dict[str, str]:
    """Words the reference extractor reads as citation cues and list joiners: translated for real."""
    return dict(_profile(lang).cue_words)


def see_rule(lang: str, rule: str) -> str:
    """The phrase that cites another rule, in the language's wording ("véase la regla 601.2")."""
    return _profile(lang).see_rule.format(rule=rule)


@dataclass
class Planted:
    key: str  # translated rule id, or "missing:<base id>"
    category: Category
    kind: str
    detail: str

    def __post_init__(self) -> None:
        # A planted defect names a family the check registry has: a renamed family fails here.
        if self.category not in categories():
            raise ValueError(f"no registered check family {self.category!r}")
        self.category = Category(self.category)


@dataclass
class Pseudo:
    doc: Document
    lang: str
    #: translated rule id -> words the cipher produced in it (safe to damage)
    cipher_words: dict[str, set[str]] = field(default_factory=dict)
    card_rules: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # rule -> [(localized, English)]


class Cipher:
    def __init__(self, lang: str, termbase: TermBase):
        lex = lexicon(lang)
        en = lexicon("en")
        term_words = {w.casefold().rstrip("*") for t in termbase.terms for forms in t.renderings.values()
                      for f in forms for w in f.split()}
        numbers = set(NUMBER_WORDS.get(lang, {}))
        ok = lambda w: (w.isalpha() and w.islower() and w not in en.words and w not in term_words
                        and w not in numbers)
        self.function = sorted(w for w in lex.function_words if ok(w) and 2 <= len(w) <= 6)
        self.content = sorted(w for w in lex.words if ok(w) and 5 <= len(w) <= 9 and w not in lex.function_words)
        self.content_set = frozenset(self.content)
        self.en_function = en.function_words
        self.en_words = en.words
        self.numbers = {v: k for k, v in reversed(list(NUMBER_WORDS.get(lang, {}).items()))}
        self.en_numbers = NUMBER_WORDS["en"]

    def word(self, w: str) -> str:
        if "-" in w.strip("-"):  # "two-player": a count inside a hyphenated word is kept as one ("dois jogadores")
            return "-".join(self.word(x) if x else x for x in w.split("-"))
        lw = w.casefold()
        if lw in self.en_numbers and self.en_numbers[lw] in self.numbers:
            out = self.numbers[self.en_numbers[lw]]
        else:
            pool = self.function if lw in self.en_function else self.content
            out = pool[zlib.crc32(lw.encode()) % len(pool)]
        return out.capitalize() if w[:1].isupper() else out


def _protected_spans(text: str, names: dict[str, str]) -> list[tuple[int, int, str]]:
    spans: list[tuple[int, int, str]] = []
    for m in SYMBOL_RE.finditer(text):
        spans.append((m.start(), m.end(), m.group()))
    for m in _REF.finditer(text):
        spans.append((m.start(), m.end(), m.group()))
    for m in _URL.finditer(text):
        spans.append((m.start(), m.end(), m.group()))
    return spans


def _in_name(text: str, a: int, b: int, cipher: "Cipher") -> bool:
    """A capitalised word that belongs to a name: not an English word, or next to another
    capitalised word ("Chimeric Staff", "Orb of Dreams")."""
    if text[a:b].casefold() not in cipher.en_words:
        return True
    before = re.search(r"([^\W\d_]+)(?:\s+(?:of|the))?\s+$", text[:a])
    after = re.match(r"\s+(?:(?:of|the)\s+)?([^\W\d_]+)", text[b:])
    return bool((before and before.group(1)[:1].isupper()) or (after and after.group(1)[:1].isupper()))


def translate_text(text: str, lang: str, tb: TermBase, cipher: Cipher, cards: dict[str, str],
                   used: set[str]) -> str:
    """One piece of rule text, pseudo-translated."""
    ex = re.match(r"Examples?:\s*", text)
    head = ""
    if ex:
        head, text = f"{_profile(lang).example_markers[0]}: ", text[ex.end():]
    repl: list[tuple[int, int, str]] = []
    taken: list[tuple[int, int]] = []

    def free(a, b):
        return not any(a < y and x < b for x, y in taken)

    for a, b, s in _protected_spans(text, cards):
        if free(a, b):
            repl.append((a, b, s))
            taken.append((a, b))
    for en_name in sorted(cards, key=len, reverse=True):
        for m in re.finditer(r"(?<![\w-])" + re.escape(en_name) + r"(?![\w-])", text):
            if free(*m.span()):
                loc = cards[en_name]
                # Always "Localized (English)": a first-mention-only rule would make one English
                # sentence translate two ways, which the consistency check rightly reports.
                repl.append((m.start(), m.end(), f"{loc} ({en_name})"))
                used.add(en_name)
                taken.append(m.span())
    for t in sorted(tb.terms, key=lambda t: -len(t.en)):
        pref = t.preferred(lang)
        if not pref:
            continue
        for a, b in find_all(text, (t.en,), taken):
            if pref.casefold() == t.en.casefold():
                # The language keeps the English word ("card"): left as written, its plural and
                # its place in a quoted title ("Attraction Cards") included.
                taken.append((a, b))
                continue
            out = pref if not text[a:a + 1].isupper() else pref[:1].upper() + pref[1:]
            repl.append((a, b, out))
            taken.append((a, b))
    words_re = WORD_RE
    rw = cue_words(lang)
    for m in words_re.finditer(text):
        a, b = m.span()
        if not free(a, b):
            continue
        w = m.group()
        sentence_start = a == 0 or re.search(r"[.!?:]\s*[“\"(]?$", text[:a]) is not None
        lw = w.casefold().replace("’", "'")
        if lw in EN.negations and _profile(lang).negations:
            # A negation stays one ("not" -> "não"); a contraction keeps its verb's own cipher word,
            # so "isn't" and "can't" still read differently.
            neg = _profile(lang).negations[0]
            if lw.endswith("n't") and len(lw) > 3:
                neg = f"{neg} {cipher.word(lw[:-3])}"
            elif lw != "not":
                neg = f"{neg} {cipher.word(lw)}"
            repl.append((a, b, neg.capitalize() if w[:1].isupper() else neg))
            continue
        if w[:1].isupper() and not sentence_start and _in_name(text, a, b, cipher):
            continue  # names: kept as in English (translations keep unknown card names)
        if w.casefold() in rw:
            out = rw[w.casefold()]
            out = out.capitalize() if w[:1].isupper() else out
        else:
            out = cipher.word(w)
        repl.append((a, b, out))
    repl.sort()
    parts, pos = [], 0
    for a, b, s in repl:
        if a < pos:
            continue
        parts.append(text[pos:a])
        parts.append(s)
        pos = b
    parts.append(text[pos:])
    out = head + "".join(parts)
    out = re.sub(r"\b([^\W\d_]+)(?:\s+\1\b)+", lambda m: m.group(1), out, flags=re.I)  # cipher collisions
    prof = _profile(lang)
    if not prof.serial_comma:  # "A, B, and C" -> "A, B e C", as the language writes lists (the check's own reading)
        for i, _j, _item in reversed(serial_commas(out, prof, finite_verb_test(lang))):
            out = out[:i] + out[i + 1:]
    sep = word_profile(lang).decimal_separator
    if sep and sep != ".":  # "2.5" -> "2,5", as the language writes decimals (the check's own reading)
        out = DECIMAL_POINT.sub(lambda m: f"{m[1]}{sep}{m[2]}", out)
    if prof.quotes != EN.quotes:
        out = out.replace(EN.quotes[0], prof.quotes[0]).replace(EN.quotes[1], prof.quotes[1])
    if prof.inverted_marks:
        # Spanish opens what it exclaims or asks: "¡… motores!" (from the last punctuation on).
        out = re.sub(r"(^|[.:;,«(—]\s*)([^.:;,«(—!?¡¿]*?[^\W\d_])([!?])",
                     lambda m: m.group(1) + ("¡" if m.group(3) == "!" else "¿") + m.group(2) + m.group(3), out)
    return out


_CIPHERS: dict[tuple[str, str], Cipher] = {}


def cipher_for(lang: str, tb: TermBase) -> Cipher:
    """One cipher per language and term base (building one sorts the whole lexicon)."""
    key = (lang, tb.path)
    if key not in _CIPHERS:
        _CIPHERS[key] = Cipher(lang, tb)
    return _CIPHERS[key]


def pseudo_translate(en: Document, lang: str, tb: TermBase, cards=None) -> Pseudo:
    """A pseudo-translation of an English edition (see the module docstring)."""
    cipher = cipher_for(lang, tb)
    card_names: dict[str, str] = {}
    if cards is not None:
        en_lex = lexicon("en")
        for key, card in sorted(cards.by_name.items()):
            loc = card.localized_name(lang)
            if not loc or card.name.casefold() != key or " // " in card.name:
                continue
            if " " not in card.name and card.name.casefold() in en_lex.words:
                continue  # "Island", "Status": words before they are names
            card_names[card.name] = loc
    doc = Document(meta=copy.deepcopy(en.meta))
    doc.meta.language = lang
    doc.meta.kind = "translation"
    doc.meta.base_edition = None
    ps = Pseudo(doc, lang)
    by_first: dict[str, list[str]] = {}
    for n in card_names:
        by_first.setdefault(n.split()[0], []).append(n)
    for r in en.rules:
        used: set[str] = set()
        seg = "\n".join([r.text, *r.example_texts])
        present = {n: card_names[n] for w in set(re.findall(r"[A-Z][^\s]*", seg)) for n in by_first.get(w, ())
                   if n in seg}
        text = translate_text(r.text, lang, tb, cipher, present, used)
        exs = [Example(translate_text(e, lang, tb, cipher, present, used)) for e in r.example_texts]
        nr = Rule(r.id, text, exs, r.parent, list(r.children), r.section, r.level, r.order, r.line)
        doc.rules.append(nr)
        if used:
            ps.card_rules[r.id] = [(present[n], n) for n in sorted(used)]
        seg = "\n".join([text] + [e.text for e in exs])
        ps.cipher_words[r.id] = {w for w in re.findall(r"[^\W\d_]+", seg)
                                 if w in cipher.content_set and len(w) >= 6}
    return ps


# -- defects ------------------------------------------------------------------------------

def _replace_once(text: str, old: str, new: str) -> str | None:
    i = text.find(old)
    return None if i < 0 else text[:i] + new + text[i + len(old):]


def plant_defects(ps: Pseudo, en: Document, tb: TermBase, per_category: int = 24, seed: int = 7,
                  cards=None) -> list[Planted]:
    """Plant known defects (one per rule, ``per_category`` per check category) into ``ps.doc``."""
    rng = random.Random(seed)
    doc = ps.doc
    lang = ps.lang
    used: set[str] = set()
    planted: list[Planted] = []
    rules = [r for r in doc.rules if r.level != Level.RULE]

    def pick(pred, n):
        cands = [r for r in rules if r.id not in used and pred(r)]
        rng.shuffle(cands)
        out = cands[:n]
        used.update(r.id for r in out)
        return out

    def set_text(r: Rule, new: str) -> None:
        r.text = new

    # structure: missing, extra, renumbered
    n3 = per_category // 3
    for r in pick(lambda r: not r.children and len(r.text) > 60, n3):
        doc.rules.remove(r)
        planted.append(Planted(f"missing:{r.id}", "structure", "missing", r.id))
    cipher = cipher_for(lang, tb)
    for r in pick(lambda r: r.level == Level.LETTERED and len(r.text) > 80, n3):
        new_id = f"{r.parent}z"
        if doc.rule(new_id) is None and en.rule(new_id) is None:
            junk = " ".join(cipher.content[rng.randrange(len(cipher.content))] for _ in range(14)).capitalize() + "."
            doc.rules.insert(doc.rules.index(r) + 1, Rule(new_id, junk, parent=r.parent, level="lettered"))
            planted.append(Planted(new_id, "structure", "extra", new_id))
    anchored = re.compile(r"\{|\d")
    for r in pick(lambda r: r.level == Level.LETTERED and len(anchored.findall(r.text)) >= 3, n3):
        new_id = f"{r.id[:-1]}y" if r.id[-1] != "y" else f"{r.id[:-1]}x"
        doc._index = None
        if en.rule(new_id) is None and doc.rule(new_id) is None:
            r.id = new_id
            doc._index = None
            planted.append(Planted(new_id, "structure", "renumbered", new_id))
    doc._index = None

    # references: a cited number changed to another rule, or a citation added
    ids = [x.id for x in en.rules if x.level in (Level.SUBRULE, Level.LETTERED)]
    sub_ref = re.compile(rf"(?<![\d.])({SUBRULE})(?![\d\w])")
    for r in pick(lambda r: sub_ref.search(r.text) is not None, per_category // 2):
        m = sub_ref.search(r.text)
        other = rng.choice([i for i in ids if i != m.group(1)])
        set_text(r, r.text[:m.start(1)] + other + r.text[m.end(1):])
        planted.append(Planted(r.id, "references", "changed", f"{m.group(1)} -> {other}"))
    for r in pick(lambda r: r.text.endswith(".") and not sub_ref.search(r.text), per_category - per_category // 2):
        other = rng.choice(ids)
        # Each language's own wording (this once gave Spanish "la" to every language but Portuguese).
        set_text(r, r.text[:-1] + f" ({see_rule(lang, other)}).")
        planted.append(Planted(r.id, "references", "added", other))

    # anchors: a digit, a mana symbol, a number word
    digit = re.compile(r"(?<![\w.{/–-])(?<![Ss]eção )(?<![Ss]ección )(?<![Ss]ection )(?<![Ss]ecção )([2-9])(?![\w.}/])")
    for r in pick(lambda r: digit.search(r.text) is not None and not sub_ref.search(r.text[max(0, digit.search(r.text).start() - 4):digit.search(r.text).end() + 4]), n3):
        m = digit.search(r.text)
        set_text(r, r.text[:m.start(1)] + str(int(m.group(1)) % 9 + 1) + r.text[m.end(1):])
        planted.append(Planted(r.id, "anchors", "digit", m.group(1)))
    sym = re.compile(r"\{([0-9WUBRGCX])\}")
    for r in pick(lambda r: sym.search(r.text) is not None, n3):
        m = sym.search(r.text)
        new = "{3}" if m.group(1) != "3" else "{4}"
        set_text(r, r.text[:m.start()] + new + r.text[m.end():])
        planted.append(Planted(r.id, "anchors", "symbol", m.group()))
    nw = NUMBER_WORDS.get(lang, {})
    # Not inside a localized card name ("Gigante de dos cabezas (Two-Headed Giant)"): that is a name.
    nw_re = re.compile(r"\b(" + "|".join(w for w, v in nw.items() if 2 <= v <= 9) + r")\b(?![^().]{0,40}\([A-Z])")
    for r in pick(lambda r: nw_re.search(r.text) is not None, per_category - 2 * n3):
        m = nw_re.search(r.text)
        v = nw[m.group(1)]
        new = next(w for w, x in nw.items() if x == (v % 9) + 1 or (v == 9 and x == 2))
        set_text(r, r.text[:m.start()] + new + r.text[m.end():])
        planted.append(Planted(r.id, "anchors", "number-word", m.group(1)))

    # card names: the localized name replaced by another card's
    if ps.card_rules:
        all_loc = sorted({loc for pairs in ps.card_rules.values() for loc, _ in pairs})
        for r in pick(lambda r: r.id in ps.card_rules and any(f"{l} ({e})" in _seg(r) for l, e in ps.card_rules[r.id]),
                      per_category):
            loc, en_name = next((l, e) for l, e in ps.card_rules[r.id] if f"{l} ({e})" in _seg(r))
            wrong = rng.choice([x for x in all_loc if x != loc and loc not in x and x not in loc])
            _edit_seg(r, f"{loc} ({en_name})", f"{wrong} ({en_name})")
            planted.append(Planted(r.id, "cardnames", "wrong-name", f"{loc} -> {wrong}"))

    # terminology: renamed term, unapproved variant, term dropped
    mv = next(t for t in tb.terms if t.en == "mana value")
    old = mv.formerly[0].renderings.get(lang, ("",))[0]
    pref = mv.preferred(lang)
    for r in pick(lambda r: pref in r.text, n3):
        set_text(r, _replace_once(r.text, pref, old))
        planted.append(Planted(r.id, "terminology", "renamed", old))
    avoidable = [(t.preferred(lang), t.avoid[lang][0]) for t in tb.terms if t.avoid.get(lang) and t.preferred(lang)]
    for r in pick(lambda r: any(p in r.text for p, _ in avoidable), n3):
        p, a = next((p, a) for p, a in avoidable if p in r.text)
        set_text(r, _replace_once(r.text, p, a))
        planted.append(Planted(r.id, "terminology", "avoid", f"{p} -> {a}"))
    checked = [t.preferred(lang) for t in tb.terms if t.check and t.preferred(lang) and " " in t.preferred(lang)]
    for r in pick(lambda r: any(f" {p} " in r.text for p in checked), per_category - 2 * n3):
        p = next(p for p in checked if f" {p} " in r.text)
        other = cipher.content[zlib.crc32(p.encode()) % len(cipher.content)]
        set_text(r, term_regex(p).sub(other, r.text))
        for e in r.examples:
            e.text = term_regex(p).sub(other, e.text)
        planted.append(Planted(r.id, "terminology", "dropped", p))

    # text damage: glue, typo, mojibake, bracket, doubled word, untranslated, end punctuation, spaces
    kinds = ["glue", "typo", "mojibake", "bracket", "doubled", "untranslated", "end", "spaces"]
    per = max(3, per_category // len(kinds))
    en_rules = {x.id: x for x in en.rules}
    lex = lexicon(lang)
    for kind in kinds:
        for r in pick(lambda r: _damage_ok(r, kind, ps, en_rules, tb, lex), per):
            detail = _damage(r, kind, ps, en_rules, rng, lex)
            planted.append(Planted(r.id, "damage", kind, detail))

    # consistency: one occurrence of a repeated English sentence translated differently
    seen: dict[str, list[Rule]] = {}
    for x in en.rules:
        for a, b in sentences(x.text):
            s = x.text[a:b]
            if len(s.split()) >= 6 and not re.search(r"\d", s):
                seen.setdefault(s, []).append(x)
    repeated = {s: xs for s, xs in seen.items() if len(xs) >= 2}
    by_rule = {}
    for s, xs in sorted(repeated.items()):
        for x in xs[1:]:
            by_rule.setdefault(x.id, s)
    for r in pick(lambda r: r.id in by_rule and ps.cipher_words.get(r.id), per_category):
        words_in = sorted(w for w in ps.cipher_words[r.id] if re.search(rf"\b{w}\b", r.text))
        s_en = by_rule[r.id]
        # Find the translated sentence: same position among the rule's sentences.
        en_r = en_rules[r.id]
        es, ts = sentences(en_r.text), sentences(r.text)
        idx = next(i for i, (a, b) in enumerate(es) if en_r.text[a:b] == s_en)
        if len(es) != len(ts):
            continue
        a, b = ts[idx]
        sent = r.text[a:b]
        cand = [w for w in words_in if re.search(rf"\b{w}\b", sent)]
        if not cand:
            continue
        w = cand[0]
        new_w = cipher.content[(cipher.content.index(w) + 7) % len(cipher.content)]
        set_text(r, r.text[:a] + re.sub(rf"\b{w}\b", new_w, sent, count=1) + r.text[b:])
        planted.append(Planted(r.id, "consistency", "retranslated", f"{w} -> {new_w}"))

    # omission: two adjacent content words of a sentence dropped (a list item, a clause), planted
    # last so the other categories' draws stay as they were
    en_stop = cipher.en_function

    def pair_of(r: Rule):
        """The cipher words of the first two adjacent English content words that the pseudo text
        holds exactly once, side by side."""
        ws = list(re.finditer(r"[a-z]{4,}", en_rules[r.id].text))
        for x, y in zip(ws, ws[1:]):
            if en_rules[r.id].text[x.end():y.start()] != " " or x.group() in en_stop or y.group() in en_stop:
                continue
            cut = f"{cipher.word(x.group())} {cipher.word(y.group())}"
            if r.text.count(cut) == 1 and _seg(r).count(cut) == 1 and re.search(rf"\w {re.escape(cut)} \w", r.text):
                return cut, f"{x.group()} {y.group()}"
        return None

    for r in pick(lambda r: r.id in en_rules and pair_of(r) is not None, per_category):
        cut, en_words = pair_of(r)
        set_text(r, r.text.replace(f" {cut} ", " ", 1))
        planted.append(Planted(r.id, "omission", "dropped-words", en_words))
    doc._index = None
    return planted


def _seg(r: Rule) -> str:
    return "\n".join([r.text, *r.example_texts])


def _edit_seg(r: Rule, old: str, new: str) -> None:
    if old in r.text:
        r.text = _replace_once(r.text, old, new)
        return
    for e in r.examples:
        if old in e.text:
            e.text = _replace_once(e.text, old, new)
            return


def _damage_ok(r: Rule, kind: str, ps: Pseudo, en_rules, tb, lex) -> bool:
    t = r.text
    if kind == "glue":
        return re.search(r"\b(?:de|do|da|em|no|na|el|la|en|del)\s+[a-zà-ÿ]{4,}\b", t) is not None
    if kind == "typo":  # a standalone word: the typo check reads words, not hyphenated compounds
        return any(w for w in ps.cipher_words.get(r.id, ()) if re.search(rf"(?<![\w-]){w}(?![\w-])", t))
    if kind == "mojibake":
        return re.search(r"[áéíóúãõçñ]", t) is not None
    if kind == "bracket":
        return "(" in t and ")" in t and t.count("(") == t.count(")")
    if kind == "doubled":
        return re.search(r"\b[a-zà-ÿ]{5,}\b", t) is not None
    if kind == "untranslated":
        e = en_rules.get(r.id)
        return e is not None and not r.example_texts and len(e.text.split()) >= 8 and not re.search(r"\d|\{", e.text) \
            and not any(term_regex(x.en).search(e.text) for x in tb.terms)
    if kind == "end":
        return t.endswith(".") and len(t) > 40
    if kind == "spaces":
        return " " in t
    return False


def _damage(r: Rule, kind: str, ps: Pseudo, en_rules, rng, lex) -> str:
    t = r.text
    if kind == "glue":
        m = re.search(r"\b(de|do|da|em|no|na|el|la|en|del)\s+([a-zà-ÿ]{4,})\b", t)
        r.text = t[:m.start()] + m.group(1) + m.group(2) + t[m.end():]
        return m.group(1) + m.group(2)
    if kind == "typo":
        w = rng.choice(sorted(w for w in ps.cipher_words[r.id] if re.search(rf"(?<![\w-]){w}(?![\w-])", t)))
        i = len(w) // 2
        bad = w[:i] + w[i + 1] + w[i] + w[i + 2:]
        if bad == w or bad in lex.words:
            bad = w[:i] + w[i] + w[i] + w[i + 1:]  # a doubled letter instead
        r.text = re.sub(rf"(?<![\w-]){w}(?![\w-])", bad, t, count=1)
        return f"{w} -> {bad}"
    if kind == "mojibake":
        m = re.search(r"[^\W\d_]*[áéíóúãõçñ][^\W\d_]*", t)
        bad = m.group().encode("utf-8").decode("latin-1")
        r.text = t[:m.start()] + bad + t[m.end():]
        return bad
    if kind == "bracket":
        i = t.rfind(")")
        r.text = t[:i] + t[i + 1:]
        return "dropped )"
    if kind == "doubled":
        m = list(re.finditer(r"\b[a-zà-ÿ]{5,}\b", t))[0]
        r.text = t[:m.end()] + " " + m.group() + t[m.end():]
        return m.group()
    if kind == "untranslated":
        r.text = en_rules[r.id].text
        return "whole rule left in English"
    if kind == "end":
        r.text = t[:-1]
        return "final period dropped"
    if kind == "spaces":
        i = t.index(" ")
        r.text = t[:i] + "  " + t[i + 1:]
        return "doubled space"
    raise ValueError(kind)
