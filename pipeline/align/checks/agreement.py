"""Agreement learnt from the translation itself: a determiner or an adjective whose gender or
number is not its noun's ("esse jogadores", "das habilidade", "uma jogador", "alvos válido").

Lightproof's agreement rules know the dictionary's genders; a translation of the CR has its
own nouns ("card", "planeswalker", "mana") and its own usage.  So a noun's gender and number
are learnt from the determiners this translation writes before it: "card" follows "o", "um",
"esse" 270 times, so it is masculine singular here, whatever a dictionary says.  A word is
judged only when that evidence is strong (``MIN_EVIDENCE`` uses, ``MIN_SHARE`` of them one
way), and a pair only when it is rare in the document: a pairing the team writes again and
again is its usage, not a slip.

Which words are determiners, their gender and number, and which of them have another reading
("a" is also a preposition: "dano a criaturas") are the language's facts
(:class:`pipeline.profiles.words.WordProfile`).  An adjective's gender and number are read from
its ending when the other gender's form is a word too (válido/válida), and a word that is also
a verb form ("o jogador precisa") or that the document uses as a noun is not taken for one.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from ...findings import Category, Check, DefectClass, Severity
from ...profiles import PROFILES
from ...profiles.words import word_profile
from ...rulenum import RULE_NUMBER_RE
from ...segment.hunspell import speller
from ..model import RowKind
from ..text import fold, sentences, words
from .registry import register_pass

DETERMINER = Check("grammar.determiner", Category.GRAMMAR, Severity.WARNING,
                   "A determiner that does not agree in gender or number with its noun, the noun's gender and "
                   "number learnt from this translation's own usage (\"esse jogadores\", \"uma jogador\").",
                   DefectClass.GRAMMAR)
ADJECTIVE = Check("grammar.adjective", Category.GRAMMAR, Severity.INFO,
                  "An adjective or participle right after a noun that does not agree with it in gender or number, "
                  "the noun's learnt from this translation's own usage (\"alvos válido\").", DefectClass.GRAMMAR)
CHECKS = [DETERMINER, ADJECTIVE]

MIN_EVIDENCE = 3
MIN_SHARE = 0.9
#: A determiner–noun or noun–adjective pair the document writes more often than this is usage.
MAX_PAIR_USES = 2
#: A noun whose gender the team fixes by a clear majority short of MIN_SHARE ("mana": 24 of 33
#: masculine): grammar.team-gender names the minority, grammar.predicate reads the majority.
TEAM_SHARE = 0.7
TEAM_MIN = 20
_GENDER = {"m": "masculine", "f": "feminine"}
_NUMBER = {"s": "singular", "p": "plural"}


class _Features:
    """Each noun's (gender, number) as this document's determiners show them."""

    def __init__(self, counts: dict[str, Counter]):
        self.counts = counts

    def of(self, word: str, without: tuple[tuple[str, str], int] | None = None) -> tuple[str | None, str | None] | None:
        """``without``: (features, uses) left out of the evidence — the pair being judged must
        not lower the bar it is measured against."""
        c = self.counts.get(word)
        if not c:
            return None
        if without is not None:
            c = c.copy()
            c[without[0]] -= without[1]
        genders, numbers = Counter(), Counter()
        for (g, n), k in c.items():
            if g:
                genders[g] += k
            numbers[n] += k
        return _strong(genders), _strong(numbers)


def _strong(c: Counter) -> str | None:
    if not c:
        return None
    v, k = c.most_common(1)[0]
    return v if k >= MIN_EVIDENCE and k >= MIN_SHARE * sum(c.values()) else None


def _tokens(text: str) -> list:
    """Words, without the letters of rule numbers ("120.4a") and with what stands between."""
    out = []
    for t in words(text):
        if t.start and (text[t.start - 1].isdigit() or text[t.start - 1] == "."):
            continue
        out.append(t)
    return out


def _adjacent(text: str, a, b) -> bool:
    return text[a.end:b.start] == " "


class _Learnt:
    """What the agreement checks learn from the whole translation, once per context: its
    tokenised units, each adjacent word pair's count, and the nouns' features."""

    def __init__(self, ctx, wp, dets: dict, stop: frozenset):
        self.units = [(p, p.target_text, _tokens(p.target_text)) for p in ctx.pairs if p.target is not None]
        learnt: dict[str, Counter] = defaultdict(Counter)
        self.pairs: Counter = Counter()
        for _p, text, toks in self.units:
            for a, b in zip(toks, toks[1:]):
                if not _adjacent(text, a, b):
                    continue
                al, bl = a.text.casefold(), b.text.casefold()
                self.pairs[(al, bl)] += 1
                if al in dets and al not in wp.determiners_other_reading and _noun_like(b.text, bl, dets, stop):
                    learnt[bl][dets[al]] += 1
        self.feats = _Features(learnt)
        #: noun -> (gender, uses of it, uses with a gender) where a clear majority, short of the
        #: determiner check's share, fixes the gender (``TEAM_SHARE``, ``TEAM_MIN``: "mana").
        self.team: dict[str, tuple[str, int, int]] = {}
        for w, c in sorted(learnt.items()):
            g = Counter()
            for (gg, _n), k in c.items():
                if gg:
                    g[gg] += k
            if len(g) == 2:
                top, k = g.most_common(1)[0]
                # From MIN_SHARE on, the determiner check knows the gender and names the slips.
                if k >= TEAM_MIN and TEAM_SHARE * sum(g.values()) <= k < MIN_SHARE * sum(g.values()):
                    self.team[w] = (top, k, sum(g.values()))


def _learnt(ctx, wp, dets: dict, stop: frozenset) -> _Learnt:
    key = ("agreement.learnt", ctx.lang)
    if key not in ctx.cache:
        ctx.cache[key] = _Learnt(ctx, wp, dets, stop)
    return ctx.cache[key]


def _setup(ctx):
    """What every agreement pass reads first: the word profile, its determiners, the stop words
    and the genders learnt from the translation (once per context); None without determiners."""
    wp = word_profile(ctx.lang)
    dets = dict(wp.determiners)
    if not dets:
        return None
    stop = ctx.lexicon(ctx.lang).function_words - wp.meaning_words
    return wp, dets, stop, _learnt(ctx, wp, dets, stop)


def run(ctx) -> list:
    setup = _setup(ctx)
    if setup is None:
        return []
    wp, dets, stop, lt = setup
    units, pairs, feats = lt.units, lt.pairs, lt.feats
    hun = speller(ctx.lang)
    out = []
    for p, text, toks in units:
        for i, (a, b) in enumerate(zip(toks, toks[1:])):
            if not _adjacent(text, a, b):
                continue
            al, bl = a.text.casefold(), b.text.casefold()
            if al in wp.determiners_unreported and _subject_article(text, toks, i, dets[al], feats, wp):
                # "a reservas pode": not the preposition ("dano a criaturas", often written, so
                # MAX_PAIR_USES does not apply), whose noun a singular verb cannot follow
                out.append(ctx.issue(DETERMINER, p, f"“{a.text} {b.text}”: “{a.text}” is singular, but “{b.text}” "
                                     f"is plural (and the verb “{toks[i + 2].text}” after it singular)",
                                     (a.start, b.end)))
                continue
            if pairs[(al, bl)] > MAX_PAIR_USES:
                continue
            if al in dets:
                if al in wp.determiners_unreported or not _noun_like(b.text, bl, dets, stop):
                    continue
                own = (dets[al], pairs[(al, bl)]) if al not in wp.determiners_other_reading else None
                bad = _conflict(dets[al], feats.of(bl, own))
                if bad:
                    out.append(ctx.issue(DETERMINER, p, f"“{a.text} {b.text}”: “{a.text}” is {bad[0]}, but this "
                                         f"translation writes “{b.text}” as {bad[1]}", (a.start, b.end)))
            elif hun is not None and _noun_like(a.text, al, dets, stop) and b.text.islower() and bl not in stop \
                    and bl not in dets and feats.of(bl) is None:
                f = feats.of(al)
                adj = _adjective(bl, wp, hun)
                if f is None or adj is None:
                    continue
                bad = _conflict(adj, f)
                nxt = toks[i + 2] if i + 2 < len(toks) and _adjacent(text, b, toks[i + 2]) else None
                after = feats.of(nxt.text.casefold()) if nxt is not None else None
                if after is not None and _conflict(adj, after) is None:
                    continue  # "alvo múltiplas vezes": the adjective goes with the noun after it
                if bad and not _agrees_with_head(toks, i, text, adj, feats, wp):
                    out.append(ctx.issue(ADJECTIVE, p, f"“{a.text} {b.text}”: “{b.text}” is {bad[0]}, but this "
                                         f"translation writes “{a.text}” as {bad[1]}", (a.start, b.end)))
    return out


def _subject_article(text: str, toks, i: int, feat: tuple[str, str], feats, wp) -> bool:
    """"a reservas pode": a singular determiner with another reading (the preposition "a") before
    a plural noun of its gender that a singular verb follows: the subject, so the article."""
    if i + 2 >= len(toks) or not _adjacent(text, toks[i + 1], toks[i + 2]) or feat[1] != "s":
        return False
    f = _with_singular(feats, toks[i + 1].text.casefold())
    return (f is not None and f[1] == "p" and f[0] == feat[0] and toks[i + 2].text in wp.singular_verbs)


def _noun_like(raw: str, w: str, dets: dict, stop: frozenset) -> bool:
    return raw.isalpha() and len(w) > 1 and w not in dets and w not in stop and not raw.isupper()


def _conflict(have: tuple[str, str], want: tuple[str | None, str | None] | None):
    """(what the word is, what the noun is) in words, when they disagree; else None."""
    if want is None:
        return None
    g, n = have
    wg, wn = want
    if wn and n != wn:
        return _NUMBER[n], _NUMBER[wn]
    if wg and g and g != wg:
        return _GENDER[g], _GENDER[wg]
    return None


def _adjective(w: str, wp, hun, verbs: bool = True) -> tuple[str, str] | None:
    """(gender, number) of a gendered adjective or participle, read off its ending when the
    word inflects in all four forms (válido, válida, válidos, válidas: verb forms such as
    "seja" or "tenha" do not); None for anything else, or a verb form."""
    if w in wp.not_adjectives or not w.isalpha() or any(re.fullmatch(v, w) for v in wp.verb_forms):
        return None
    for ending, feat in wp.gendered_endings:
        if w.endswith(ending) and len(w) > len(ending) + 2:
            stem = w[:-len(ending)]
            if not all(stem + e in hun for e, _ in wp.gendered_endings if e != ending):
                return None
            if verbs and any(stem + inf in hun for inf in wp.infinitives):
                return None  # "ativa" is also "ativar"'s present: "o jogador ativa"
            return feat
    return None


def _agrees_with_head(toks, i, text, adj, feats, wp) -> bool:
    """"símbolo de expansão roxo": after "N1 de N2", the adjective may be N1's."""
    if i < 2:
        return False
    prep, head = toks[i - 1], toks[i - 2]
    if prep.text.casefold() not in wp.of_words or not _adjacent(text, head, prep):
        return False
    f = feats.of(head.text.casefold())
    return f is None or _conflict(adj, f) is None


# Lightproof's own agreement rules name some of the same pairs ("um criatura"): one finding each.
register_pass(run, CHECKS, yields_to=("grammar.agreement",))


# --- Predicate agreement (issue 24) -------------------------------------------------------------
# A participle or adjective after "ser"/"estar" agrees with the subject, however far back it
# stands: "Objetos que não estão na pilha ... não são controlados", "essa habilidade pode ser
# removida".  Two subjects are read, each only where the reading is safe: the noun right before
# a relative "que" ("habilidades que foram concedidas"), and the noun that opens the clause
# ("Cards em algumas zonas normalmente são mantidos"), with nothing between it and the
# predicate that could be a subject of its own (a pronoun, another clause, a verb outside a
# relative, a noun outside a prepositional phrase that agrees with the participle).
PREDICATE = Check("grammar.predicate", Category.GRAMMAR, Severity.WARNING,
                  "A participle or adjective after \"ser\"/\"estar\" that does not agree in gender with its subject "
                  "(\"a habilidade pode ser removido\", \"Objetos ... não são controladas\"), the subject's gender "
                  "learnt from this translation's own determiners.", DefectClass.GRAMMAR)

#: What closes a clause when walking back from the predicate to its subject.
_CLAUSE_MARKS = ".;:,()“”\"\n"
_SENTENCE_MARKS = ".;:()“”\"\n"


def run_predicate(ctx) -> list:
    setup, hun = _setup(ctx), speller(ctx.lang)
    if setup is None or not setup[0].copulas or hun is None:
        return []
    wp, dets, stop, lt = setup
    copulas, modals = dict(wp.copulas), dict(wp.modals)
    out = []
    for p, text, toks in lt.units:
        for i in range(2, len(toks)):
            hit = _predicate(text, toks, i, wp, dets, stop, lt.feats, hun, copulas, modals, lt.team)
            if hit is None:
                continue
            s, noun, adj, f = hit
            part = toks[i]
            sugg = _inflect(part.text, adj, f, wp, hun)
            out.append(ctx.issue(PREDICATE, p, f"“{part.text}” is {_GENDER[adj[0]]}, but its subject “{noun.text}” "
                                 f"is {_GENDER[f[0]]} in this translation", (s, part.end), suggestion=sugg))
    return out


def _predicate(text, toks, i, wp, dets, stop, feats, hun, copulas, modals, team):
    """(start of the span, subject token, participle features, subject features) when the
    participle at ``i`` after a copula disagrees in gender with a subject read safely; else None."""
    def gap(a: int, b: int) -> str:
        return text[toks[a].end:toks[b].start]

    def noun(j: int):
        t = toks[j]
        w = t.text.casefold()
        if not _noun_like(t.text, w, dets, stop):
            return None
        f = _with_singular(feats, w)
        if f is not None and f[0] is None and w in team:
            return team[w][0], f[1]  # "Mana genérico ... pode ser paga": the team's gender
        return f

    def in_phrase(x: int, start: int) -> bool:
        """Does a preposition open the noun phrase of token ``x``? ("em algumas zonas")"""
        y = x - 1
        while y > start and toks[y].text.casefold() in dets and toks[y].text.casefold() not in wp.prepositions:
            y -= 1
        return toks[y].text.casefold() in wp.prepositions or toks[x - 1].text.casefold() in wp.prepositions

    w = toks[i].text.casefold()
    prev = toks[i - 1].text.casefold()
    if gap(i - 1, i) != " ":
        return None
    if prev in copulas:
        num, k = copulas[prev], i - 1
    elif prev in wp.copula_infinitives and toks[i - 2].text.casefold() in modals and gap(i - 2, i - 1) == " ":
        num, k = modals[toks[i - 2].text.casefold()], i - 2
    else:
        return None
    adj = _adjective(w, wp, hun, verbs=False)  # after "ser", "paga" is the participle, not "pagar"'s present
    if adj is None or adj[1] != num or feats.of(w) is not None or w in stop:  # "pode ser algo"
        return None
    j = k - 1
    if j >= 0 and toks[j].text.casefold() in wp.negations_before_verb and gap(j, j + 1) == " ":
        j -= 1  # "não são"
    if j < 0 or gap(j, j + 1) != " " or toks[j].text.casefold() in wp.subject_pronouns:
        return None
    if toks[j].text.casefold() == wp.relative:
        # "N que é PART": the noun before "que", unless a noun of the participle's features
        # stands earlier in the sentence (the antecedent may be it: "um card na pilha que foi conjurado").
        if j < 1 or gap(j - 1, j) != " ":
            return None
        f = noun(j - 1)
        if not f or f[1] != num or not f[0] or f[0] == adj[0]:
            return None
        q = j - 1
        while q > 0 and not any(c in gap(q - 1, q) for c in _SENTENCE_MARKS):
            q -= 1
            if noun(q) == adj:
                return None
        return toks[j - 1].start, toks[j - 1], adj, f
    # The clause's first noun: walk back to a clause mark.
    q = j
    while q > 0 and not any(c in gap(q - 1, q) for c in _CLAUSE_MARKS):
        q -= 1
    if toks[q].text.casefold() in wp.clause_openers and q < j:
        q += 1  # "Se um card ... estiver envolvida": the subject after the conjunction
    s = q + 1 if toks[q].text.casefold() in dets else q
    if s > j or toks[q].text.casefold() in wp.prepositions - dets.keys():
        return None
    f = noun(s)
    if not f or f[1] != num or not f[0] or f[0] == adj[0]:
        return None
    mid = [t.text.casefold() for t in toks[s + 1:k]]
    if any(x in wp.subject_pronouns or x in wp.clause_openers for x in mid):
        return None
    before_rel = mid[:mid.index(wp.relative)] if wp.relative in mid else mid
    if any(x in copulas or x in modals for x in before_rel):
        return None  # another verb of the main clause: the predicate may be another's
    rel = next((x for x in range(s + 1, k) if toks[x].text.casefold() == wp.relative), k)
    after = toks[rel + 1].text.casefold() if rel < k else ""
    if rel < k and (toks[rel - 1].text.casefold() in wp.prepositions
                    or after not in wp.negations and (after in dets or noun(rel + 1))):
        return None  # "em que cada deck é", "faz com que um card seja": a clause with a subject of its own
    if any(noun(x) == adj and not in_phrase(x, s) for x in range(s + 1, rel)):
        return None  # a noun of the participle's features could be the subject (not one inside a relative clause)
    return toks[q].start, toks[s], adj, f


def _with_singular(feats, w: str):
    """A noun's features; a plural the determiners seldom show ("os"/"as" are not learnt from:
    they are pronouns too) takes the gender of its singular ("permanentes": "permanente")."""
    f = feats.of(w)
    if (f is None or f[0] is None) and w.endswith("s") and len(w) > 3:
        for sing in (w[:-1], w[:-2]):
            g = feats.of(sing)
            if g is not None and g[0] and g[1] == "s":
                return g[0], "p"
    return f


def _inflect(word: str, have: tuple[str, str], want: tuple[str | None, str | None], wp, hun) -> str | None:
    """The participle in the subject's gender ("removido" -> "removida"), when the dictionary has it."""
    ends = dict((feat, e) for e, feat in wp.gendered_endings)
    old = ends.get(have)
    new = ends.get((want[0], have[1]))
    if old is None or new is None or not word.casefold().endswith(old):
        return None
    cand = word[:-len(old)] + new
    return cand if cand in hun else None


register_pass(run_predicate, [PREDICATE], yields_to=("grammar.agreement",))


# --- A noun's gender as the team fixes it (issue 24) ---------------------------------------------
# "mana" is feminine in the dictionary and in Lightproof, masculine in Magic's Portuguese ("um
# mana", "mana genérico"); a translation that writes it both ways is inconsistent, and its own
# majority says which way it chose.  The determiner check needs a 0.9 share to know a gender;
# this one takes a clear majority (``TEAM_SHARE`` of at least ``TEAM_MIN`` uses) and names the
# minority: a feminine determiner before the noun, or an adjective after it whose English stands
# right before the same word in the English ("generic mana": the adjective is the noun's, not
# that of a head before "de").
TEAM_GENDER = Check("grammar.team-gender", Category.GRAMMAR, Severity.WARNING,
                    "A noun given the gender this translation uses only in a minority of its uses (\"uma mana\" where "
                    "it mostly writes \"um mana\", \"mana genérica\" for \"mana genérico\").", DefectClass.GRAMMAR)
#: Letters an adjective shares with its English cognate before the noun ("genérica"/"generic").
COGNATE_PREFIX = 4


def run_team_gender(ctx) -> list:
    setup, hun = _setup(ctx), speller(ctx.lang)
    if setup is None:
        return []
    wp, dets, stop, lt = setup
    fixed = lt.team
    if not fixed:
        return []
    out = []
    for p, text, toks in lt.units:
        for i, t in enumerate(toks):
            w = t.text.casefold()
            if w not in fixed:
                continue
            gender, k, total = fixed[w]
            why = f"this translation writes “{t.text}” {_GENDER[gender]} in {k} of its {total} uses"
            if i and _adjacent(text, toks[i - 1], t):
                d = toks[i - 1].text.casefold()
                if d in dets and d not in wp.determiners_unreported and dets[d][0] and dets[d][0] != gender:
                    out.append(ctx.issue(TEAM_GENDER, p, f"“{toks[i - 1].text} {t.text}”: {why}",
                                         (toks[i - 1].start, t.end)))
                    continue
            if hun is None or i + 1 >= len(toks) or not _adjacent(text, t, toks[i + 1]):
                continue
            a = toks[i + 1]
            adj = _adjective(a.text.casefold(), wp, hun)
            if adj is None or adj[0] == gender or not _english_before(p.source_text, w, a.text):
                continue
            sugg = _inflect(a.text, adj, (gender, adj[1]), wp, hun)
            out.append(ctx.issue(TEAM_GENDER, p, f"“{t.text} {a.text}”: {why}", (t.start, a.end),
                                 suggestion=f"{t.text} {sugg}" if sugg else None))
    return out


def _english_before(source: str, noun: str, adjective: str) -> bool:
    """Does the English put the adjective's cognate right before the same noun ("generic mana")?"""
    stem = fold(adjective)[:COGNATE_PREFIX]
    en = [t.text for t in words(source)]
    return any(b.casefold() == noun and fold(a).startswith(stem) for a, b in zip(en, en[1:]))


register_pass(run_team_gender, [TEAM_GENDER], yields_to=("grammar.agreement", "grammar.determiner"))


# --- Subject–verb number (issue 24) --------------------------------------------------------------
# "cada" makes its noun a singular subject ("cada outro jogador ... faz", never "fazem"); a
# relative "que" right after a head noun takes its number ("habilidade que desencadeia"); a
# noun opening its clause, alone or after one determiner, is the subject of a verb right after it
# ("Alguns objetos não têm"): three readings where the subject is known without parsing.  A "cada" inside a
# prepositional phrase ("em cada equipe") is not the subject; a head noun after a preposition
# may be a complement ("pontos de dano que"); a copula after "que" may agree with what follows
# it ("que não sejam aquelas").
SUBJECT_VERB = Check("grammar.subject-verb", Category.GRAMMAR, Severity.WARNING,
                     "A verb whose number is not its subject's: a plural after \"cada\" + noun (\"cada terreno ... "
                     "retêm\"); after a noun and \"que\", a plural verb for a singular noun (\"habilidade que "
                     "desencadeiam\") or a singular one for a plural noun (\"cards que não esteja\"); right after a subject "
                     "that opens its clause (\"Alguns objetos não tem\"), or after its prepositional complement (\"os marcadores de "
                     "dano tem\").", DefectClass.GRAMMAR)
#: How many words after "cada N" its verb is looked for.
EACH_WINDOW = 8


def run_subject_verb(ctx) -> list:
    setup, hun = _setup(ctx), speller(ctx.lang)
    if setup is None or not setup[0].distributives or hun is None:
        return []
    wp, dets, stop, lt = setup
    copulas = dict(wp.copulas)
    stops = wp.coordinators | wp.clause_openers | {wp.relative}

    def plural(w: str) -> bool:
        if w in wp.plural_verbs:
            return True
        return (w.endswith(wp.plural_verb_endings) and len(w) > 4 and w in hun and w[:-1] in hun and w not in dets
                and lt.feats.of(w) is None and _adjective(w, wp, hun) is None)

    def noun(t):
        w = t.text.casefold()
        return _with_singular(lt.feats, w) if _noun_like(t.text, w, dets, stop) else None

    out = []
    for p, text, toks in lt.units:
        for i, t in enumerate(toks):
            w = t.text.casefold()
            if w in wp.distributives:
                if i and toks[i - 1].text.casefold() in wp.prepositions and not any(
                        c in text[toks[i - 1].end:t.start] for c in _CLAUSE_MARKS):
                    continue  # "em cada equipe": not the subject
                j = i + 1
                if j < len(toks) and toks[j].text.casefold() in wp.distributive_fillers:
                    j += 1
                if j >= len(toks) or (noun(toks[j]) or (None, None))[1] != "s":
                    continue
                for k in range(j + 1, min(j + 1 + EACH_WINDOW, len(toks))):
                    if any(c in text[toks[k - 1].end:toks[k].start] for c in _SENTENCE_MARKS):
                        break
                    v = toks[k].text.casefold()
                    if v in stops:
                        break
                    if plural(v):
                        out.append(ctx.issue(SUBJECT_VERB, p, f"“{toks[k].text}” is plural, but its subject "
                                             f"“{t.text} … {toks[j].text}” is singular", (t.start, toks[k].end)))
                        break
                    if v in copulas or v in dict(wp.modals):
                        break
            elif _clause_subject(text, toks, i, dets, wp) and i + 1 < len(toks) and (f := noun(t)) and f[1]:
                # "Alguns objetos não tem", "Tais custo são": a subject opening its clause, its verb right after it
                k = i + 1
                if toks[k].text.casefold() in wp.negations and k + 1 < len(toks) and _adjacent(text, t, toks[k]):
                    k += 1
                if not all(_adjacent(text, toks[x], toks[x + 1]) for x in range(i, k)):
                    continue
                v = toks[k].text
                far = _verb_after_complement(text, toks, i, wp, hun, stops, plural)
                if far is not None and v not in wp.singular_verbs and v not in wp.plural_verbs \
                        and t.text.casefold() not in wp.partitive_nouns:
                    # "O texto impresso em alguns cards lendários referem-se": the subject, its
                    # participle and a prepositional complement, then the verb (round 5, r5gram).
                    k, v = far
                    if f[1] == "s" and plural(v) and v not in wp.plural_verbs:
                        out.append(ctx.issue(SUBJECT_VERB, p, f"“{toks[k].text}” is plural, but its subject "
                                             f"“{t.text}” is singular", (t.start, toks[k].end)))
                    continue
                if far is None and f[1] == "p" and v not in wp.singular_verbs and v not in wp.plural_verbs \
                        and t.text.casefold() not in wp.partitive_nouns:
                    # "Os marcadores de dano tem": a plural subject, its prepositional complement, then a
                    # singular verb; the verb agrees with the head, not the complement (round 6, r6gram).
                    near = _verb_after_complement(text, toks, i, wp, hun, stops, plural, singular=True)
                    if near is not None:
                        k, v = near
                        out.append(ctx.issue(SUBJECT_VERB, p, f"“{toks[k].text}” is singular, but its subject "
                                             f"“{t.text}” is plural", (t.start, toks[k].end)))
                        continue
                if f[1] == "p" and v in wp.singular_verbs or f[1] == "s" and v in wp.plural_verbs:
                    have, want = ("singular", "plural") if f[1] == "p" else ("plural", "singular")
                    out.append(ctx.issue(SUBJECT_VERB, p, f"“{v}” is {have}, but its subject “{t.text}” is {want}",
                                         (t.start, toks[k].end)))
            elif w == wp.relative and 0 < i < len(toks) - 1 and _adjacent(text, toks[i - 1], t):
                f = noun(toks[i - 1])
                if not f or not f[1]:
                    continue
                y = i - 2
                while y >= 0 and toks[y].text.casefold() in dets and toks[y].text.casefold() not in wp.prepositions:
                    y -= 1
                in_phrase = y >= 0 and toks[y].text.casefold() in wp.prepositions
                k = i + 1
                if toks[k].text.casefold() in wp.negations_before_verb and k + 1 < len(toks):
                    k += 1
                v = toks[k].text.casefold()
                if f[1] == "s" and not in_phrase and plural(v) and v not in copulas:
                    out.append(ctx.issue(SUBJECT_VERB, p, f"“{toks[k].text}” is plural, but “{toks[i - 1].text}”, "
                                         f"the noun “{t.text}” stands for, is singular", (toks[i - 1].start, toks[k].end)))
                elif f[1] == "p" and v in wp.singular_verbs and toks[k].text == v:
                    # "pontos de dano que": the head before the preposition must be plural too
                    if in_phrase and (y < 1 or (noun(toks[y - 1]) or (None, None))[1] != "p"):
                        continue
                    out.append(ctx.issue(SUBJECT_VERB, p, f"“{toks[k].text}” is singular, but “{toks[i - 1].text}”, "
                                         f"the noun “{t.text}” stands for, is plural", (toks[i - 1].start, toks[k].end)))
    return out


def _verb_after_complement(text: str, toks, i: int, wp, hun, stops, plural,
                           singular: bool = False) -> tuple[int, str] | None:
    """The verb after a clause-opening subject at ``i``, one participle or adjective and one
    prepositional complement of at most four words ("O texto impresso em alguns cards lendários
    refere-se"): (its index, the verb without its enclitic), when that verb is a plural finite form
    recognised by its ending; else None.  A partitive head ("número de custos podem") may agree
    with its complement (the norma accepts both), so it is left out by the caller.  Any punctuation, coordinator, relative or known verb
    in the complement ends the search (the subject is no longer sure)."""
    k = i + 1
    if k < len(toks) and _adjective(toks[k].text.casefold(), wp, hun) is not None:
        k += 1
    if k >= len(toks) or toks[k].text.casefold() not in wp.prepositions:
        return None
    for j in range(k + 1, min(k + 6, len(toks))):
        if not _adjacent(text, toks[j - 1], toks[j]):
            return None
        w = toks[j].text.casefold()
        if singular and j > k + 1 and w in wp.singular_verbs and toks[j].text == w:
            return j, w  # ``singular``: the verb sought is one of the profile's singular forms
        if w in stops or w in wp.singular_verbs:
            return None
        base = w.rpartition("-")[0] if "-" in w else w
        if j > k + 1 and plural(base) and base not in wp.plural_verbs:
            return j, base
    return None


def _clause_subject(text: str, toks, i: int, dets: dict, wp) -> bool:
    """Does the word at ``i`` open its clause, alone or after one determiner ("Alguns objetos")?"""
    def opens(x: int) -> bool:
        return x == 0 or any(c in text[toks[x - 1].end:toks[x].start] for c in _CLAUSE_MARKS)

    if opens(i):
        return True
    d = toks[i - 1].text.casefold()
    return (d in dets or d in wp.plural_determiners) and _adjacent(text, toks[i - 1], toks[i]) and opens(i - 1)


register_pass(run_subject_verb, [SUBJECT_VERB], yields_to=("grammar.verb", "grammar.agreement", "grammar.determiner"))


# --- The passive's number (issue 24 round 5, helper "r5gram") ------------------------------------
# The auxiliary of the passive and its participle agree with the same subject, so they share a
# number whatever the subject is and however far it stands ("As ações executadas quando se paga
# um custo podem ser modificada" → "modificadas"): the rule needs no parse, only the two words
# side by side.  A participle is recognised with Hunspell (its stem + the infinitive ending is a
# verb), the auxiliaries are the profile's.
PASSIVE_NUMBER = Check("grammar.passive-number", Category.GRAMMAR, Severity.WARNING,
                       "A passive whose participle's number is not its auxiliary's (\"podem ser modificada\", \"foi "
                       "colocados\"): both agree with the same subject.", DefectClass.GRAMMAR)


def run_passive_number(ctx) -> list:
    wp = word_profile(ctx.lang)
    hun = speller(ctx.lang)
    if not wp.passive_aux or hun is None:
        return []
    aux, modals = dict(wp.passive_aux), dict(wp.passive_modals)
    copulas = wp.copula_infinitives

    def participle(w: str) -> str | None:
        for end, number, inf in wp.participle_endings:
            stem = w[: -len(end)]
            if w.endswith(end) and len(stem) >= 3 and stem + inf in hun:
                return number
        return None

    out = []
    for p in ctx.aligned:
        text = p.target_text
        toks = words(text)
        low = [t.text.casefold() for t in toks]
        for i, w in enumerate(low[:-1]):
            if w in aux and toks[i].text[:1].islower() or w in aux and i == 0:
                number, k = aux[w], i + 1
            elif w in modals and low[i + 1] in copulas and i + 2 < len(low):
                number, k = modals[w], i + 2
            else:
                continue
            if not all(text[toks[x].end:toks[x + 1].start] == " " for x in range(i, k)):
                continue
            got = participle(low[k])
            if got is None or got == number:
                continue
            have, want = ("plural", "singular") if got == "p" else ("singular", "plural")
            out.append(ctx.issue(PASSIVE_NUMBER, p, f"“{toks[i].text} … {toks[k].text}”: the participle is {have}, "
                                                    f"the auxiliary {want}; both agree with the subject",
                                 (toks[i].start, toks[k].end)))
    return out


register_pass(run_passive_number, [PASSIVE_NUMBER], yields_to=("grammar.verb", "grammar.agreement",
                                                                "grammar.predicate", "grammar.subject-verb"))


# --- Singular "they" (issue 24) ------------------------------------------------------------------
# The CR says "they" for one player ("If a player wishes to ..., they may do so"); the
# translation writes "ele" for it, and a plural "eles podem" there makes the player several.
# The English is the evidence: the sentence's "they" follows a singular person ("a player",
# "each opponent") and no plural noun it could stand for; the translation's sentence of the same
# place (the two sides split alike into as many sentences) has a plural subject pronoun.
SINGULAR_THEY = Check("grammar.singular-they", Category.GRAMMAR, Severity.WARNING,
                      "A plural pronoun (\"eles podem\") for the English singular \"they\" of one player (\"a player ... "
                      "they may\").", DefectClass.GRAMMAR)


def run_singular_they(ctx) -> list:
    wp, en = word_profile(ctx.lang), word_profile("en")
    if not wp.plural_pronouns or not en.they:
        return []
    out = []
    for p in ctx.aligned:
        src, tgt = p.source_text, p.target_text
        es, ts = sentences(src), sentences(tgt)
        if len(es) != len(ts):
            continue
        for (ea, eb), (ta, tb) in zip(es, ts):
            person = _singular_they(words(src[ea:eb]), en)
            if person is None:
                continue
            toks = words(tgt[ta:tb])
            for a, b in zip(toks, toks[1:]):
                if a.text.casefold() in wp.plural_pronouns and not b.text[0].isupper():
                    out.append(ctx.issue(SINGULAR_THEY, p, f"“{a.text}” is plural, but the English “{en.they}” here "
                                         f"is one {person}", (ta + a.start, ta + b.end)))
    return out


def _singular_they(toks, en) -> str | None:
    """The singular person an English sentence's "they" stands for, when nothing plural before
    it could be its antecedent; else None."""
    low = [t.text.casefold() for t in toks]
    if en.they not in low:
        return None
    before = low[:low.index(en.they)]
    person = None
    for i, w in enumerate(before):
        if w in en.person_nouns and i and before[i - 1] in en.singular_determiners:
            person = w
        elif w.endswith("s") and not w.endswith("ss") and len(w) > 3 and w not in en.not_plurals \
                and not (i and before[i - 1] in en.person_nouns):  # "a player wishes": its verb
            return None
    return person


register_pass(run_singular_they, [SINGULAR_THEY])


# --- Number of a cross-reference's noun (issue 24) -----------------------------------------------
# "nas regras 113.6" for "in rule 113.6": one rule number after the plural word (or several after
# the singular one).  The English decides: it writes the same number after its singular word.
REFERENCE_NUMBER = Check("grammar.reference-number", Category.GRAMMAR, Severity.WARNING,
                         "\"regras\" before a single rule number the English calls \"rule\" (\"nas regras 113.6\" for "
                         "\"in rule 113.6\").", DefectClass.GRAMMAR)


def run_reference_number(ctx) -> list:
    mine, en = PROFILES.get(ctx.lang), PROFILES.get("en")
    if mine is None or en is None:
        return []
    plural = [w for w in mine.rule_words + mine.section_words if w.endswith("s")]
    singular_en = [w for w in en.rule_words + en.section_words if not w.endswith("s")]
    if not plural or not singular_en:
        return []
    pat = re.compile(rf"(?<![\w-])({'|'.join(map(re.escape, plural))}) ({RULE_NUMBER_RE.pattern})(?![\w.]*\s*(?:[,–-]|\b\w{{1,3}}\s+\d))")
    out = []
    for p in ctx.aligned:
        for m in pat.finditer(p.target_text):
            num = m.group(2)
            said = rf"\b(?:{'|'.join(singular_en)}) {re.escape(num)}(?![\w.]*\d)"
            if re.search(said, p.source_text, re.I) and not re.search(rf"\b\w+s {re.escape(num)}\b", p.source_text):
                out.append(ctx.issue(REFERENCE_NUMBER, p, f"“{m.group(0)}”: one rule, and the English says "
                                     f"“{re.search(said, p.source_text, re.I).group(0)}”", m.span()))
    return out


register_pass(run_reference_number, [REFERENCE_NUMBER], yields_to=("grammar.agreement",))


# --- A glossary term's number (issue 24) ---------------------------------------------------------
# "Double-Faced Cards" is a plural term, its translation "Card Dupla Face" a singular one: the
# English last word is a plural whose singular the English writes elsewhere ("card"), and the
# translation's first word (its head) a noun this translation's determiners show singular.
TERM_NUMBER = Check("grammar.term-number", Category.GRAMMAR, Severity.WARNING,
                    "A glossary term plural in English (\"Double-Faced Cards\") whose translation's head noun is "
                    "singular (\"Card Dupla Face\").", DefectClass.GRAMMAR)


def run_term_number(ctx) -> list:
    wp = word_profile(ctx.lang)
    dets = dict(wp.determiners)
    if not dets:
        return []
    stop = ctx.lexicon(ctx.lang).function_words - wp.meaning_words
    lt = _learnt(ctx, wp, dets, stop)
    english = {t.text.casefold() for p in ctx.aligned for t in words(p.source_text)}
    out = []
    for p in ctx.aligned:
        if p.row.kind is not RowKind.GLOSSARY or not p.target_pieces or not p.source_pieces:
            continue
        (_, term), (_, mine) = p.source_pieces[0], p.target_pieces[0]
        en, tw = words(term), words(mine)
        if not en or not tw:
            continue
        last = en[-1].text.casefold()
        if not (last.endswith("s") and not last.endswith("ss") and last[:-1] in english):
            continue
        head = tw[0]
        f = lt.feats.of(head.text.casefold()) if _noun_like(head.text, head.text.casefold(), dets, stop) else None
        if f and f[1] == "s":
            at = p.target_text.find(mine)
            if at >= 0:
                out.append(ctx.issue(TERM_NUMBER, p, f"“{mine}”: the English term “{term}” is plural, “{head.text}” "
                                     f"singular", (at, at + len(mine))))
    return out


register_pass(run_term_number, [TERM_NUMBER])
