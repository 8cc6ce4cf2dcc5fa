"""A bilingual lexicon learnt from the translation itself, by word alignment.

The training text is the translation's own: every translated rule paired with its English
(sentence by sentence inside each piece when both sides split into as many sentences, else
the piece whole), the glossary's term units (English term -> the team's rendering) and its
definitions.  Words are reduced to keys — casefolded, Snowball-stemmed (``cores``/``cor`` and
``ativada``/``ativar`` meet; the lookup lemma tables turn ``cores`` into ``corar`` and ``pilha``
into ``pilho``) — and only content words are aligned: function words (spaCy's stop words,
less the meaning-bearing ones of :mod:`pipeline.profiles.words`) carry nothing a check can
test and swamp model 1.

Alignment is IBM model 1 as NLTK's ``nltk.translate.IBMModel1`` computes it, ported to numpy
(:func:`_align`; NLTK's own loops took ~3.4 s of the alignment's CPU time, the port ~0.5 s, and a
test holds the two to the same links): deterministic (uniform
start, EM, no sampling), and on the real pt-BR PO's ~3,000 units its lexicon is clean for the
content words (``color``→``cor``, ``library``→``grimório``, ``counter``→``marcador``).  eflomal
(2.0.0) was measured as well: ~9.5 s CPU with its defaults on the same units, and it seeds its
samplers from ``/dev/urandom`` with no option to fix the seed, so two runs give different
links — ruled out by the byte-identical-output rule.  Model 1 takes ~2.5 s CPU on the
content words of the real PO; the links are cached on disk keyed by the training keys and this
code, so a second run of the same translation reads them back.

What the checks use is, per key on either side: how often it occurs, which keys of the other
language its links go to (its *renderings*), and its *reliability* — the share of the units
holding it whose other side holds one of those renderings.  A key the team renders visibly
every time (``not``: 0.98) that has no rendering in one unit may be a dropped word; one the team
paraphrases freely (``only``: 0.83) does not reach the bar.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

import snowballstemmer

from ..codekey import code_key
from ..io import cache_root, cache_write, read_cache_json
from ..profiles import PROFILES
from ..profiles.words import word_profile
from ..lexicon import _stop_words
from .text import sentences

#: Model 1 iterations: the lexicon of the real PO stops changing after ~4 (the content words'
#: top rendering is the same from iteration 3 on).
ITERATIONS = 5
#: A link pair seen fewer times than this is noise (one sentence's accident), not a rendering.
MIN_LINKS = 2
#: A rendering must carry at least this share of the key's links (a long tail is noise).
MIN_SHARE = 0.08

_TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_APOSTROPHE = re.compile(r"['’]")


@dataclass(frozen=True)
class Tok:
    key: str
    text: str
    start: int
    end: int


@dataclass
class Unit:
    """One aligned training unit: the English and the translation (spans into the pair's
    target segment when it comes from a rule, else None), their content tokens and the links."""

    source: str
    target: str
    src: list[Tok]
    tgt: list[Tok]
    pair: object | None = None  # the checks' Pair for a rule's unit; None for the glossary
    t_offset: int = 0  # where ``target`` starts in the pair's target segment
    links: list[tuple[int, int]] = field(default_factory=list)  # (source index, target index)


@dataclass
class Side:
    """What is known of one language's keys."""

    count: Counter = field(default_factory=Counter)  # units holding the key
    renderings: dict = field(default_factory=dict)  # key -> {other key: links}
    reliability: dict = field(default_factory=dict)  # key -> share of its units with a rendering opposite
    surface: dict = field(default_factory=dict)  # key -> Counter of forms written
    #: form written (casefolded) -> (units holding it, units whose other side has a rendering of its key)
    form_reliability: dict = field(default_factory=dict)

    def shown(self, key: str) -> str:
        c = self.surface.get(key)
        return sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[0][0] if c else key

    def top(self, key: str) -> list[str]:
        r = self.renderings.get(key) or {}
        return [k for k, _ in sorted(r.items(), key=lambda kv: (-kv[1], kv[0]))]


@dataclass
class BiLexicon:
    lang: str
    units: list[Unit]
    en: Side
    tgt: Side


@lru_cache(maxsize=8)
def _stemmer(lang: str):
    name = PROFILES[lang].stemmer if lang in PROFILES else "english"
    return snowballstemmer.stemmer(name)


@lru_cache(maxsize=8)
def _stem_cache(lang: str) -> dict:
    # The pure-Python stemmer costs ~30 µs a word; a translation has ~5k distinct words in ~40k.
    return {}


def stem(word: str, lang: str) -> str:
    memo = _stem_cache(lang)
    s = memo.get(word)
    if s is None:
        s = memo[word] = _stemmer(lang).stemWord(word)
    return s


@lru_cache(maxsize=8)
def _content_filter(lang: str):
    wp = word_profile(lang)
    stop = frozenset(_stop_words(lang)) - wp.meaning_words - wp.negations
    return stop, wp


def tokens(text: str, lang: str) -> list[Tok]:
    """The content words of ``text`` with their keys (stems) and spans."""
    stop, wp = _content_filter(lang)
    out = []
    for m in _TOKEN.finditer(text):
        raw = m.group()
        alias = wp.alias(raw) if wp.aliases and ("'" in raw or "’" in raw or raw.casefold() in wp.alias_words) else None
        if alias is not None:
            out.append(Tok(stem(alias, lang), raw, m.start(), m.end()))
            continue
        w, off = raw, m.start()
        if "'" in raw or "’" in raw:
            # "player's" is "player"; "d'água" keeps its noun.
            parts = _APOSTROPHE.split(raw)
            w = max(parts, key=len) if len(parts[0]) <= 1 else parts[0]
            off += raw.find(w)
        lw = w.casefold()
        if len(lw) < 2 or lw in stop:
            continue
        out.append(Tok(stem(lw, lang), w, off, off + len(w)))
    return out


def _split_hyphens(text: str) -> str:
    # "não-terreno", "non-Aura": each part is a word of its own (same length, offsets hold).
    return text.replace("-", " ")


def _pieces(source: str, target: str) -> list[tuple[str, int, str, int]]:
    """(English, its offset, translation, its offset): sentence pairs when both sides split into
    as many sentences, else the whole texts."""
    ss, ts = sentences(source), sentences(target)
    if len(ss) == len(ts) and ss:
        return [(source[a:b], a, target[c:d], c) for (a, b), (c, d) in zip(ss, ts)]
    return [(source, 0, target, 0)]


def _outside_rules(pair) -> bool:
    """Front matter and credits (legal notices, trademark lists): not rule text to learn from or check."""
    rid = str(pair.row.id or "")
    return rid.startswith(("front", "credits"))


def training_units(ctx) -> list[Unit]:
    lang = ctx.lang
    out: list[Unit] = []
    for p in ctx.aligned:
        if _outside_rules(p):
            continue
        for (toff, t), (_so, s) in zip(p.target_pieces, p.source_pieces):
            for s_txt, _sa, t_txt, ta in _pieces(s, t):
                out.append(Unit(s_txt, t_txt, tokens(_split_hyphens(s_txt), "en"),
                                tokens(_split_hyphens(t_txt), lang), p, toff + ta))
    renderings = ctx.term_renderings or {}
    for en, tr in sorted(renderings.items()):
        out.append(Unit(en, tr, tokens(_split_hyphens(en), "en"), tokens(_split_hyphens(tr), lang)))
    # Definitions: the translated glossary entry under the rendering of an English term.
    by_target = defaultdict(list)
    for g in ctx.target_doc.glossary or ():
        by_target[g.term].append(g.definition)
    english = {g.term: g.definition for g in (ctx.base_doc.glossary or ())}
    for en, tr in sorted(renderings.items()):
        if tr in by_target and en in english:
            for s_txt, _sa, t_txt, _ta in _pieces(english[en], "\n".join(by_target[tr])):
                out.append(Unit(s_txt, t_txt, tokens(_split_hyphens(s_txt), "en"), tokens(_split_hyphens(t_txt), lang)))
    return out


def _align(units: list[Unit]) -> list[list[tuple[int, int]]]:
    """IBM model 1 links ``(source position, target position)``, as NLTK's ``IBMModel1`` trains
    and aligns them (uniform start, a NULL source word, EM over each sentence's distinct target
    words, the floor ``1e-12``, ties to the later source word), computed with numpy over all
    sentence pairs at once: NLTK's loops took ~6 s on the pt-BR PO, this ~0.3 s."""
    import numpy as np  # numpy only when the links are not cached (the heavy path)

    vocab_s: dict[str, int] = {"\x00NULL": 0}
    vocab_t: dict[str, int] = {}
    src = [[0] + [vocab_s.setdefault(x.key, len(vocab_s)) for x in u.src] for u in units]
    tgt = [[vocab_t.setdefault(x.key, len(vocab_t)) for x in u.tgt] for u in units]
    if not vocab_t:
        return [[] for _ in units]
    # One entry per (sentence, distinct target word, source position).
    t_ids, s_ids, groups = [], [], []
    g = 0
    for ss, ts in zip(src, tgt):
        for t in dict.fromkeys(ts):
            t_ids.extend([t] * len(ss))
            s_ids.extend(ss)
            groups.extend([g] * len(ss))
            g += 1
    t_arr, s_arr, g_arr = (np.asarray(x, dtype=np.int64) for x in (t_ids, s_ids, groups))
    keys, pid = np.unique(t_arr * len(vocab_s) + s_arr, return_inverse=True)
    pair_s = keys % len(vocab_s)
    table = np.full(len(keys), 1.0 / len(vocab_t))
    for _ in range(ITERATIONS):
        p = table[pid]
        post = p / np.bincount(g_arr, p, minlength=g)[g_arr]
        counts = np.bincount(pid, post, minlength=len(keys))
        per_s = np.bincount(pair_s, counts, minlength=len(vocab_s))
        table = np.maximum(counts / per_s[pair_s], 1.0e-12)
    index = {int(k): i for i, k in enumerate(keys)}
    out = []
    for ss, ts in zip(src, tgt):
        links = []
        for j, t in enumerate(ts):
            probs = [table[index[t * len(vocab_s) + x]] for x in ss]
            best, point = probs[0], None
            for i in range(1, len(ss)):
                if probs[i] >= best:  # NLTK: the later source word wins a tie
                    best, point = probs[i], i - 1
            if point is not None:
                links.append((point, j))
        out.append(sorted(links))
    return out


def _cache_key(units: list[Unit]) -> str:
    h = hashlib.sha256()
    for u in units:
        h.update(" ".join(s.key for s in u.src).encode())
        h.update(b"\x00")
        h.update(" ".join(t.key for t in u.tgt).encode())
        h.update(b"\x01")
    return code_key(ITERATIONS, __name__, extra=[h.hexdigest()])


def _links(units: list[Unit]) -> list[list[tuple[int, int]]]:
    path = cache_root() / "wordlex" / f"{_cache_key(units)}.json"
    cached = read_cache_json(path)
    if isinstance(cached, list) and len(cached) == len(units):
        return [[tuple(x) for x in ls] for ls in cached]
    links = _align(units)
    cache_write(path, json.dumps(links, separators=(",", ":")))
    return links


def _side(units: list[Unit], mine: str) -> Side:
    side = Side()
    links: dict[str, Counter] = defaultdict(Counter)
    for u in units:
        a, b = (u.src, u.tgt) if mine == "src" else (u.tgt, u.src)
        side.count.update({t.key for t in a})
        for t in a:
            side.surface.setdefault(t.key, Counter())[t.text.casefold()] += 1
        for i, j in u.links:
            x, y = (i, j) if mine == "src" else (j, i)
            links[a[x].key][b[y].key] += 1
    for k, c in links.items():
        total = sum(c.values())
        side.renderings[k] = {o: n for o, n in c.items() if n >= MIN_LINKS and n >= MIN_SHARE * total}
    hits: Counter = Counter()
    form_n: Counter = Counter()
    form_hits: Counter = Counter()
    for u in units:
        a, b = (u.src, u.tgt) if mine == "src" else (u.tgt, u.src)
        other = {t.key for t in b}
        hit = {k for k in {t.key for t in a} if other & side.renderings.get(k, {}).keys()}
        hits.update(hit)
        for form, k in {(t.text.casefold(), t.key) for t in a}:
            form_n[form] += 1
            form_hits[form] += k in hit
    side.reliability = {k: hits[k] / n for k, n in side.count.items()}
    side.form_reliability = {f: (n, form_hits[f]) for f, n in form_n.items()}
    return side


def learn(ctx) -> BiLexicon:
    """The lexicon of ``ctx``'s translation (computed once per context)."""
    got = ctx.cache.get("wordlex")
    if got is not None:
        return got
    units = training_units(ctx)
    for u, ls in zip(units, _links(units)):
        u.links = ls
    lex = BiLexicon(ctx.lang, units, _side(units, "src"), _side(units, "tgt"))
    ctx.cache["wordlex"] = lex
    return lex


# --- Counted renderings (omission.dropped-modifier) -------------------------------------------
#
# Model 1 aligns content words only, so the renderings of the small meaning words ("also" ->
# "também", "still" -> "ainda", "such" -> "tal") are function words it never sees.  These are
# learnt by association instead, over every word of each sentence pair: a target key is a
# rendering of an English key when the two keep company (Dice coefficient over the units that
# hold them) — the measure word-alignment work uses for a first lexicon, and one that a
# frequent word ("se", "não") cannot reach by being everywhere.

#: The Dice coefficient of an English key and a target key for the target key to count as a
#: rendering (the real PO: "also"/"também" 0.8, "such"/"tal" 0.34, "legendary"/"lendário" 0.8;
#: noise such as "legendary"/"supertipo" stays under 0.3).
DICE = 0.3
_ALL_WORDS = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


def all_keys(text: str, lang: str) -> list[tuple[str, str, int, int]]:
    """Every word of ``text`` (function words too) as ``(key, word, start, end)``, apostrophes as
    :func:`tokens` reads them: a possessive is its noun ("player's"), "d'água" keeps its noun, an
    alias of the profile (a contracted negation, "can't") stays whole under its word's key."""
    wp = word_profile(lang)
    out = []
    for m in _ALL_WORDS.finditer(_split_hyphens(text)):
        w, off = m.group(), m.start()
        if "'" in w or "’" in w:
            alias = wp.alias(w) if wp.aliases else None
            if alias is not None:
                out.append((stem(alias, lang), w, off, off + len(w)))
                continue
            parts = _APOSTROPHE.split(w)
            part = max(parts, key=len) if len(parts[0]) <= 1 else parts[0]
            off += w.find(part)
            w = part
        out.append((stem(w.casefold(), lang), w, off, off + len(w)))
    return out


@dataclass
class Counted:
    """Per rule unit: every key of each side with its count; per English key: its renderings
    (Model 1's plus the associated ones) and the units holding it."""

    units: list[Unit]
    src: list[list[tuple[str, str, int, int]]]
    tgt: list[list[tuple[str, str, int, int]]]
    src_count: list[Counter]
    tgt_count: list[Counter]
    renderings: dict  # English key -> frozenset of target keys
    holders: dict  # English key -> indexes of the units holding it
    ranked: dict = field(default_factory=dict)  # English key -> its renderings, most associated first
    forms: dict = field(default_factory=dict)  # target key -> its most written form

    def top(self, key: str) -> list[str]:
        return list(self.ranked.get(key, ()))

    def shown(self, key: str) -> str:
        return self.forms.get(key, key)

    #: English key -> the prefixes of the words of another root that also render it (the
    #: profile's ``meaning_renderings``: "only" as "a única criatura").
    prefixes: dict = field(default_factory=dict)

    def rendered_key(self, tkey: str, word: str, key: str) -> bool:
        """Does the target word (its key and form) render the English ``key``?"""
        pre = self.prefixes.get(key)
        return tkey in self.renderings.get(key, ()) or bool(pre and word.casefold().startswith(pre))

    def rendered(self, i: int, key: str) -> int:
        """How many words of unit ``i``'s translation render ``key``."""
        r = self.renderings.get(key, ())
        pre = self.prefixes.get(key)
        if pre:
            return sum(1 for k, w, *_ in self.tgt[i] if k in r or w.casefold().startswith(pre))
        return sum(n for k, n in self.tgt_count[i].items() if k in r)

    def reliability(self, key: str, leave_out: int | None = None, need=None) -> float:
        """The share of the units holding ``key`` whose translation renders it at least as many
        times as the English has it (``need(i)`` when given: the occurrences that count) —
        without the unit judged (a defect must not lower the bar)."""
        need = need or (lambda i: self.src_count[i][key])
        idx = [i for i in self.holders.get(key, ()) if i != leave_out and need(i)]
        if not idx:
            return 0.0
        return sum(self.rendered(i, key) >= need(i) for i in idx) / len(idx)


def counted(ctx, min_units: int = 4) -> Counted:
    got = ctx.cache.get("wordlex-counted")
    if got is not None:
        return got
    lex = learn(ctx)
    units = [u for u in lex.units if u.pair is not None]
    src = [all_keys(u.source, "en") for u in units]
    tgt = [all_keys(u.target, ctx.lang) for u in units]
    sc = [Counter(k for k, *_ in s) for s in src]
    tc = [Counter(k for k, *_ in t) for t in tgt]
    tdf: Counter = Counter()
    holders: dict = defaultdict(list)
    for i, (s, t) in enumerate(zip(sc, tc)):
        tdf.update(t.keys())
        for k in s:
            holders[k].append(i)
    # A key Model 1 gives as another English word's first rendering is that word's, however much
    # it keeps company with this one ("mana" and "custo": "mana cost" -> "custo de mana").
    owned = {}
    for k, n in lex.en.count.items():
        top = lex.en.top(k)
        if n >= min_units and top:
            owned.setdefault(top[0], set()).add(k)
    t_holders: dict = defaultdict(list)
    for i, t in enumerate(tc):
        for x in t:
            t_holders[x].append(i)
    best: dict = {}

    def best_english(t: str) -> set:
        # Competitive linking: a target key renders the English keys it keeps the closest company
        # with ("pode" goes with "may", not with the "also" beside it), ties kept.
        if t not in best:
            co: Counter = Counter()
            for i in t_holders[t]:
                co.update(sc[i].keys())
            dice = {e: 2 * m / (len(holders[e]) + len(t_holders[t])) for e, m in co.items()
                    if len(holders[e]) >= min_units}
            top = max(dice.values(), default=0)
            best[t] = {e for e, d in dice.items() if d == top}
        return best[t]

    renderings, ranked = {}, {}
    for k, idx in sorted(holders.items()):
        if len(idx) < min_units:
            continue
        co: Counter = Counter()
        for i in idx:
            co.update(tc[i].keys())
        dice = {t: 2 * m / (len(idx) + tdf[t]) for t, m in co.items() if m >= MIN_LINKS}
        r = {t for t, d in dice.items() if d >= DICE and (owned.get(t, {k}) <= {k} or t in lex.en.renderings.get(k, {}))
             and k in best_english(t)}
        top = lex.en.top(k)
        if top:
            r.add(top[0])
        if r:
            renderings[k] = frozenset(r)
            # Shown to the reviewer: the renderings that keep the closest company, the first and
            # any other at least half as close ("também", not the "consulte" of "see also").
            order = sorted(r, key=lambda t: (-dice.get(t, 0), t))
            first = dice.get(order[0], 0)
            ranked[k] = tuple(t for n, t in enumerate(order) if n == 0 or dice.get(t, 0) >= max(DICE, first / 2))
    written: dict = defaultdict(Counter)
    for t in tgt:
        for k, w, *_ in t:
            written[k][w.casefold()] += 1
    forms = {k: sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[0][0] for k, c in written.items()}
    prefixes = {stem(w, "en"): tuple(p) for w, p in word_profile(ctx.lang).meaning_renderings}
    got = Counted(units, src, tgt, sc, tc, renderings, dict(holders), ranked, forms, prefixes)
    ctx.cache["wordlex-counted"] = got
    return got
