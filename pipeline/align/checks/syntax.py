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
* ``grammar.object-pronoun``: a subject pronoun as a verb's object ("coloca ela no campo",
  "equipar ele mesmo"), which the written standard does not accept.

The Portuguese facts (conjunctions, endings, the construction rules with their English
evidence) are the grammar profile's (:data:`pipeline.profiles.grammar.SYNTAX`).
"""

from __future__ import annotations

import re

from ...findings import Category, Check, DefectClass, Severity
from ...profiles.grammar import GARBLED, MOOD, MOOD_TEMPORAL, OBJECT_PRONOUN, REGENCIA, SYNTAX, MoodFacts
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
        if verbs.infinitive(la) or (la.endswith(("a", "e")) and verbs.infinitive(la + "r")):
            out.append(ctx.issue(check, p, f"“{a.text} {b.text}”: “{b.text}” is a subject pronoun; as the verb's "
                                            f"object the written standard uses the clitic (o/a, -lo/-la)",
                                 (a.start, b.end)))
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
    out = []
    for p in ctx.aligned:
        got = _patterns(ctx, p, rules)
        if hun is not None:
            got += _mood(ctx, p, facts, verbs) + _object_pronouns(ctx, p, facts, verbs, function_words)
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
