"""Mood, regência and garbled constructions: defects of a sentence's build that every word of it
spelled right and agreeing hides from the spelling and agreement checks.

* ``grammar.mood``: the conditional where Portuguese needs the subjunctive — in an "if" clause
  ("Se um efeito adicionaria mana", English "If an effect would add") and after a conjunction
  that always takes the subjunctive ("antes que um jogador receberia"); the indicative after such
  a conjunction ("a menos que … é"); "para" + a subjunctive without its "que" ("para tenham").
  A conditional is recognised with Hunspell (a word in -ria/-riam whose stem is an infinitive the
  dictionary knows), not from a list, so every verb is covered; the "if" clause is judged only
  when the English is a hypothetical too ("if … would/could"), the evidence that "se" is "if".
* ``grammar.regencia``: a verb's or a phrase's preposition ("permite o jogador exilar" →
  "permite ao jogador"), idioms ("em partes" for "in part", "indiferente de" for "regardless of").
* ``grammar.garbled``: a stray or doubled word that breaks the construction ("qualquer o alvo",
  "não é seja", "se referir-se").
* ``grammar.proclisis``: an enclitic verb after a word that attracts the pronoun (próclise
  obrigatória: a negative, a relative, a subordinating conjunction, with at most the clause's
  subject between): "quando a criatura torna-se" → "quando a criatura se torna".  Infinitives and
  gerunds are left alone (the attraction is optional there).
* ``grammar.passive-se``: the synthetic passive in the singular with a plural subject ("se
  escolhe os alvos" → "se escolhem os alvos").
* ``grammar.contraction-determiner``: a preposition contracted with the article before a
  determiner that never takes one ("pelo esse", "do cada").
* ``grammar.object-pronoun``: a subject pronoun as a verb's object ("coloca ela no campo",
  "equipar ele mesmo"), which the written standard does not accept.

The Portuguese facts (conjunctions, endings, the construction rules with their English
evidence) are the grammar profile's (:data:`pipeline.profiles.grammar.SYNTAX`).
"""

from __future__ import annotations

import re

from ...findings import Category, Check, DefectClass, Severity
from ...profiles.grammar import (
    CLISIS, CONTRACTION_DETERMINER, GARBLED, MOOD, MOOD_TEMPORAL, OBJECT_PRONOUN, PASSIVE_SE, PROCLISIS, REGENCIA, SYNTAX,
    ClisisFacts, MoodFacts,
)
from ...profiles.words import word_profile
from ...segment.hunspell import speller
from ..text import words
from .registry import register_pass

CHECKS = [
    Check(MOOD, Category.GRAMMAR, Severity.WARNING,
          "The conditional or the indicative where the subjunctive is required: in an \"if\" clause (\"Se um "
          "efeito adicionaria\") or after a conjunction that takes the subjunctive (\"antes que … receberia\").",
          DefectClass.GRAMMAR),
    Check(MOOD_TEMPORAL, Category.GRAMMAR, Severity.INFO,
          "The conditional in a temporal clause where the English says \"would\" (\"na próxima vez que um jogador "
          "receberia\" → \"fosse receber\").", DefectClass.GRAMMAR),
    Check(REGENCIA, Category.GRAMMAR, Severity.WARNING,
          "A wrong preposition or idiom: the verb's regência (\"permite o jogador\" → \"ao jogador\"), \"em partes\" "
          "for \"in part\", \"à esquerda na\" for \"to the left of\".", DefectClass.GRAMMAR),
    Check(GARBLED, Category.GRAMMAR, Severity.WARNING,
          "A stray or doubled word that garbles the construction (\"qualquer o alvo\", \"não é seja\", \"se "
          "referir-se\").", DefectClass.GRAMMAR),
    Check(OBJECT_PRONOUN, Category.GRAMMAR, Severity.WARNING,
          "A subject pronoun as a verb's object (\"coloca ela no campo\", \"equipar ele mesmo\"): the written "
          "standard uses the clitic (\"coloca-a\", \"equipar a si mesmo\").", DefectClass.GRAMMAR),
]
CHECKS += [
    Check(PROCLISIS, Category.GRAMMAR, Severity.WARNING,
          "An enclitic pronoun after a word that requires próclise (\"quando a criatura torna-se\" → \"quando a "
          "criatura se torna\", \"que não aplica-se\" → \"que não se aplica\").", DefectClass.GRAMMAR),
    Check(PASSIVE_SE, Category.GRAMMAR, Severity.WARNING,
          "The synthetic passive agrees with its subject: \"se escolhe os alvos\" → \"se escolhem os alvos\".",
          DefectClass.GRAMMAR),
    Check(CONTRACTION_DETERMINER, Category.GRAMMAR, Severity.WARNING,
          "A preposition contracted with the article before a determiner that never takes an article (\"pelo "
          "esse\" → \"por esse\"/\"por aquele\", \"do cada\" → \"de cada\").", DefectClass.GRAMMAR),
]
_BY_ID = {c.id: c for c in CHECKS}


class _Verbs:
    """Verb forms read with Hunspell: the conditional and the infinitive."""

    def __init__(self, facts: MoodFacts, hun):
        self.f = facts
        self.hun = hun

    def infinitive(self, w: str) -> bool:
        return self.hun is not None and w.endswith(self.f.infinitive_endings) and w in self.hun

    def conditional(self, w: str) -> str | None:
        """The infinitive of a conditional form ("adicionaria" -> "adicionar"), else None (a
        capitalised word is a name: "Dominaria")."""
        if not w[:1].islower():
            return None
        w = w.casefold()
        for end in self.f.conditional_endings:
            if not w.endswith(end) or len(w) <= len(end) + 1:
                continue
            stem = w[: -len(end)]
            if stem in self.f.irregular_conditional:
                return self.f.irregular_conditional[stem]
            if self.infinitive(stem + end[0]):  # adiciona|ria: the infinitive keeps the "r"
                return stem + end[0]
        return None


def _clause(toks, text: str, i: int, breakers, limit: int = 12):
    """The tokens after position ``i`` up to the end of the clause (punctuation or a breaker)."""
    out = []
    for t in toks[i + 1: i + 1 + limit]:
        gap = text[toks[i].end if not out else out[-1].end:t.start]
        if any(ch in gap for ch in ",.;:()”“\"\n") or t.text.casefold() in breakers:
            break
        out.append(t)
    return out


def _mood(ctx, p, facts: MoodFacts, verbs: _Verbs) -> list:
    text, en = p.target_text, p.source_text
    toks = [t for t in words(text)]
    low = [t.text.casefold() for t in toks]
    check = _BY_ID[MOOD]
    out = []
    hypothetical = bool(re.search(facts.english_if, en, re.I)) and bool(re.search(facts.english_would, en, re.I))
    breakers = frozenset(facts.clause_breakers)
    for i, w in enumerate(low):
        # "Se" as "if": at a sentence or quotation start, after a comma or an opener ("como se").
        if w == facts.if_word:
            before = text[:toks[i].start].rstrip()
            opener = i > 0 and low[i - 1] in facts.if_openers and text[toks[i - 1].end:toks[i].start] == " "
            if not (before == "" or before[-1] in ".:;,(“\"" or opener):
                continue
            clause = _clause(toks, text, i, breakers)
            for k, t in enumerate(clause):
                if t.text.casefold() in facts.present_subjunctive and k > 0 and low[i - 1:i] != ["mesmo"]:
                    # ("mesmo se" + the present subjunctive is the grammar profile's own rule.)
                    out.append(ctx.issue(check, p, f"“{toks[i].text} … {t.text}”: “se” takes the future or the "
                                                    f"imperfect subjunctive, not the present", (t.start, t.end)))
                    break
                inf = verbs.conditional(t.text) if hypothetical else None
                if inf is None:
                    continue
                if k == 0 and not (opener and low[i - 1] == facts.as_if_opener):
                    break  # "se tornaria": the clitic, not "if" (but "como se existiria" is "as if")
                aux = facts.subjunctive_aux[1 if t.text.casefold().endswith("m") else 0]
                # "fosse adicionar" renders "would add"; a modal or "as if" takes its own subjunctive.
                fix = None if inf in facts.modal_verbs or k == 0 else f"{aux} {inf}"
                out.append(ctx.issue(check, p, f"conditional “{t.text}” in an “if” clause: Portuguese takes the "
                                                "subjunctive" + (f" (“{fix}”)" if fix else ""), (t.start, t.end),
                                     suggestion=fix))
                break
    conjunctions = [(c, True) for c in facts.subjunctive_conjunctions]
    conjunctions += [(c, False) for c in facts.no_conditional_conjunctions]
    for conj, subjunctive in conjunctions:
        for m in re.finditer(rf"(?i)(?<![\w-]){re.escape(conj)}(?![\w-])", text):
            i = next((k for k, t in enumerate(toks) if t.end == m.end()), None)
            if i is None:
                continue
            first = next(k for k, t in enumerate(toks) if t.start == m.start())
            if first and low[first - 1] in facts.not_after.get(conj, ()):
                continue  # "o mesmo que": the comparative
            for t in _clause(toks, text, i, breakers):
                lw = t.text.casefold()
                if not subjunctive:
                    if verbs.conditional(lw) is not None and re.search(facts.english_would, en, re.I):
                        out.append(ctx.issue(_BY_ID[MOOD_TEMPORAL], p, f"“{conj}” takes the indicative or the "
                                                                       f"subjunctive, not the conditional “{t.text}”",
                                             (t.start, t.end)))
                        break
                    continue
                if verbs.conditional(lw) is not None or lw in facts.present_indicative:
                    what = "conditional" if lw not in facts.present_indicative else "indicative"
                    out.append(ctx.issue(check, p, f"“{conj}” takes the subjunctive, not the {what} “{t.text}”",
                                         (t.start, t.end)))
                    break
    for i, w in enumerate(low[:-1]):
        if w == facts.final_preposition and low[i + 1] in facts.subjunctive_after_para \
                and text[toks[i].end:toks[i + 1].start] == " ":
            out.append(ctx.issue(check, p, f"“{toks[i].text} {toks[i + 1].text}”: a subjunctive after “"
                                            f"{toks[i].text}” needs “que” (“{toks[i].text} que {toks[i + 1].text}”)",
                                 (toks[i].start, toks[i + 1].end),
                                 suggestion=f"{toks[i].text} que {toks[i + 1].text}"))
    return out


def _object_pronouns(ctx, p, facts: MoodFacts, verbs: _Verbs, function_words) -> list:
    """A verb, a subject pronoun, then a word a subject is never followed by ("coloca ela no")."""
    text = p.target_text
    toks = words(text)
    check = _BY_ID[OBJECT_PRONOUN]
    out = []
    for a, b, c in zip(toks, toks[1:], toks[2:] + [None]):
        lb = b.text.casefold()
        if lb not in facts.subject_pronouns or text[a.end:b.start] != " ":
            continue
        la = a.text.casefold()
        if la in facts.linking_verbs or (la in function_words and not verbs.infinitive(la)):
            continue
        after = text[b.end:c.start] if c is not None else text[b.end:]
        ends = after.strip()[:1] in (".", ";", "") and c is None or after.startswith((".", ";", ","))
        follows = c is not None and after == " " and c.text.casefold() in facts.after_object
        if not (ends or follows):
            continue
        # An infinitive, a present form ("coloca" <- colocar) or a gerund ("bloqueando" <- bloquear).
        inf = la[: -len(facts.gerund_ending)] + "r" if la.endswith(facts.gerund_ending) else ""
        # A gerund clause may put its own subject after it ("estando ela no campo"): only a gerund
        # of a verb that is not a linking verb, and the pronoun closing the clause, is an object.
        gerund = ends and verbs.infinitive(inf) and inf not in facts.linking_verbs + facts.auxiliaries
        if verbs.infinitive(la) or (la.endswith(("a", "e")) and verbs.infinitive(la + "r")) or gerund:
            out.append(ctx.issue(check, p, f"“{a.text} {b.text}”: “{b.text}” is a subject pronoun; as the verb's "
                                            f"object the written standard uses the clitic (o/a, -lo/-la)",
                                 (a.start, b.end)))
    return out


def _proclisis(ctx, p, cf: ClisisFacts, verbs: _Verbs) -> list:
    """An enclitic verb ("torna-se") whose clause opens with a word that attracts the pronoun."""
    text = p.target_text
    toks = words(text)
    low = [t.text.casefold() for t in toks]
    out = []
    for i, w in enumerate(low):
        verb, dash, clitic = w.rpartition("-")
        if not dash or clitic not in cf.enclitics or not verb or "-" in verb:
            continue
        if verb.endswith("ndo") or verb.endswith(verbs.f.infinitive_endings) or verb[-1:] in "áéêíóô":
            continue  # an infinitive or a gerund: the attraction is optional
        if verbs.hun is None or verb not in verbs.hun or not toks[i].text[:1].islower():
            continue
        # Look back over the clause: the attractor right before, or before the subject phrase.
        k, between, found = i - 1, [], False
        while k >= 0 and len(between) <= 7 and text[toks[k].end:toks[k + 1].start] == " " \
                and not (low[k] in cf.breakers and (not between or low[k] not in cf.subject_coordinators)):
            if low[k] in cf.attractors or (not between and low[k] in cf.attract_adjacent):
                found = True
                break
            between.append(low[k])
            k -= 1
        if not found:
            continue
        att = low[k]
        if between:
            subj = between[::-1]
            if att in cf.attract_adjacent and att not in cf.attractors:
                continue
            if subj[0] not in cf.subject_openers or any(x in cf.attractors or x in cf.attract_adjacent for x in subj):
                continue
            if len(subj) > 1 and subj[0] in word_profile(ctx.lang).subject_pronouns:
                continue
            if len(subj) > 3 and not any(x in cf.subject_prepositions for x in subj[2:]):
                continue  # a long subject is a noun and its complement ("o texto em um card")
        if att == cf.que and k > 0 and low[k - 1] in cf.comparative_before_que \
                and " ".join(low[max(k - 2, 0):k + 1]) not in cf.que_conjunctions:
            continue
        if att == cf.se and not between:
            continue  # "se torna-se" is the doubled clitic (grammar.garbled)
        fixed = f"{clitic} {toks[i].text.rpartition('-')[0]}"
        out.append(ctx.issue(_BY_ID[PROCLISIS], p, f"“{toks[k].text} … {toks[i].text}”: “{toks[k].text}” attracts the "
                                                    f"pronoun before the verb (próclise): “{fixed}”",
                             (toks[i].start, toks[i].end), suggestion=fixed))
    return out


def _passive_se(ctx, p, cf: ClisisFacts, verbs: _Verbs) -> list:
    """A singular verb with the passive "se" and a plural subject after it ("se escolhe os alvos")."""
    text = p.target_text
    toks = words(text)
    low = [t.text.casefold() for t in toks]
    out = []
    for i in range(len(toks) - 2):
        w = low[i]
        if w == cf.se and i + 3 < len(toks):
            verb, vi, art = low[i + 1], i + 1, low[i + 2]
            start = toks[i].start
            if i == 0 or low[i - 1] not in cf.attractors + cf.subject_coordinators or low[i - 1] == cf.se:
                continue  # "se" as "if" opens a clause; after an attractor it is the clitic
        elif w.endswith("-" + cf.se):
            verb, vi, art = w[: -len(cf.se) - 1], i, low[i + 1]
            start = toks[i].start
        else:
            continue
        if text[toks[vi].end:toks[vi + 1].start].strip(" -"):
            continue
        # The plural subject: "os alvos", or an adjective and its noun in the plural ("novos alvos").
        if art not in cf.plural_articles and not (art.endswith("s") and low[vi + 2].endswith("s")
                                                   and art not in cf.not_plural_modifiers):
            continue
        if text[toks[vi + 1].end:toks[vi + 2].start] != " " if vi + 2 < len(toks) else True:
            continue
        if verb in cf.not_passive or verbs.hun is None or verb not in verbs.hun:
            continue
        end = next((e for e in cf.plural_of if verb.endswith(e)), None)
        plural = verb + "m" if end else None
        if plural is None or plural not in verbs.hun or verbs.infinitive(verb + "r") is False:
            continue
        if not verbs.infinitive(verb + "r"):
            continue  # a present form: the stem + "r" is the infinitive (escolhe -> escolher)
        noun = low[vi + 2]
        if not noun.endswith("s"):
            continue
        span = (start, toks[vi].end)
        out.append(ctx.issue(_BY_ID[PASSIVE_SE], p, f"“{text[span[0]:span[1]]} {toks[vi + 1].text} {toks[vi + 2].text}”: "
                                                     f"with the passive “se” the verb agrees with its plural subject "
                                                     f"(“{plural}”)", span))
    return out


def _contraction_determiner(ctx, p, cf: ClisisFacts) -> list:
    """A preposition + article contraction before a determiner that takes no article ("pelo esse")."""
    text = p.target_text
    toks = words(text)
    out = []
    for a, b in zip(toks, toks[1:]):
        la, lb = a.text.casefold(), b.text.casefold()
        if la in cf.article_contractions and lb in cf.no_article_before and text[a.end:b.start] == " ":
            prep = cf.preposition_of[la]
            fix = f"{prep} {b.text}" if a.text[:1].islower() else f"{prep.capitalize()} {b.text}"
            if prep == cf.demonstrative_contractor and lb.startswith(cf.demonstratives):
                fix = None  # "desse"/"daquele": the contraction with the demonstrative is the usual form
            out.append(ctx.issue(_BY_ID[CONTRACTION_DETERMINER], p, f"“{a.text} {b.text}”: “{a.text}” holds the "
                                                                     f"article, which “{b.text}” never takes",
                                 (a.start, b.end), suggestion=fix))
    return out


def _patterns(ctx, p, rules) -> list:
    text, en = p.target_text, p.source_text
    out = []
    for r in rules:
        if r.english and not re.search(r.english, en):
            continue
        for m in re.finditer(r.pattern, text):
            g = "bad" if "bad" in m.re.groupindex else 0
            span = m.span(g)
            sugg = m.expand(r.fix) if r.fix else None
            excerpt = text[span[0]:span[1]]
            msg = f"“{excerpt}”: {r.message}" + (f" → “{sugg}”" if sugg else "")
            out.append(ctx.issue(_BY_ID[r.check], p, msg, span, suggestion=sugg))
    return out


def run(ctx) -> list:
    found = SYNTAX.get(ctx.lang)
    if found is None:
        return []
    facts, rules = found
    hun = speller(ctx.lang)
    verbs = _Verbs(facts, hun)
    function_words = ctx.lexicon(ctx.lang).function_words
    cf = CLISIS.get(ctx.lang)
    out = []
    for p in ctx.aligned:
        got = _patterns(ctx, p, rules)
        if hun is not None:
            got += _mood(ctx, p, facts, verbs) + _object_pronouns(ctx, p, facts, verbs, function_words)
            if cf is not None:
                got += _proclisis(ctx, p, cf, verbs) + _passive_se(ctx, p, cf, verbs)
        if cf is not None:
            got += _contraction_determiner(ctx, p, cf)
        # A stray word reads as a wrong mood too ("mesmo que ele não é seja"): one defect, one finding.
        stray = [i.span for i in got if i.check == GARBLED]
        seen = set()
        for i in sorted(got, key=lambda i: (i.span or (0, 0), i.check)):
            if i.check in (MOOD, MOOD_TEMPORAL) and any(a < i.span[1] and i.span[0] < b for a, b in stray):
                continue
            if (i.span, i.check) not in seen:
                seen.add((i.span, i.check))
                out.append(i)
    return out


register_pass(run, CHECKS)
