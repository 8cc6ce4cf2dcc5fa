"""Terminology against the term base: renamed terms, unapproved variants, missing terms,
and several approved variants mixed in one document."""

from __future__ import annotations

import re
from collections import Counter

from ...diff.renamed_terms import renamed_terms
from ...findings import Category, Check, DefectClass, Severity
from ...rulenum import Level
from .registry import register_pass
from ..termbase import find_all
from .termlearn import aligned_span

RENAMED = Check("terminology.renamed", Category.TERMINOLOGY, Severity.WARNING,
                "The translation uses the rendering of an English term the current edition has renamed "
                "(the term base's former names, and renames learnt from the editions' own glossaries: a "
                "term that disappears while one with the same definition appears).", DefectClass.TERM)
AVOID = Check("terminology.avoid", Category.TERMINOLOGY, Severity.WARNING,
              "The translation uses a rendering the term base marks as not approved.", DefectClass.TERM)
MISSING = Check("terminology.missing", Category.TERMINOLOGY, Severity.WARNING,
                "The English uses a term-base term but the translation has none of its approved renderings, "
                "although the rest of this translation mostly uses them (a team's own rendering is learnt, "
                "not flagged).", DefectClass.TERM)
VARIANT = Check("terminology.variant", Category.TERMINOLOGY, Severity.INFO,
                "The document mixes interchangeable approved variants of one term; the majority one is suggested.", DefectClass.TERM)
MAJORITY = Check("terminology.majority", Category.TERMINOLOGY, Severity.WARNING,
                 "An approved rendering of a term-base term is used here although the translation renders "
                 "the term otherwise in the great majority of its rules with it (the team's own majority "
                 "wins over a list of approved alternatives); the majority rendering is suggested.", DefectClass.TERM)
CHECKS = [RENAMED, AVOID, MISSING, VARIANT, MAJORITY]

#: A rendering is a minority one when the majority rendering is used in at least this many rules
#: with the English term, and the minority one in at most this share of them (fitted on the real
#: PO: "carta" for "card" in 6 of ~330 rules; approved alternatives in real use run above 15%).
MAJORITY_MIN = 20
MINORITY_SHARE = 0.05


def _seps(s: str) -> list[str]:
    return re.findall(r"[\s-]+", s)


def _as_written(matched: str, forms, default: str) -> str:
    """Of the forms a span matches ("palabra ancla", "palabra-ancla"), the one written."""
    return next((f for f in forms if _seps(f) == _seps(matched)), default)


def _form_of(matched: str, forms) -> str:
    """Which of the approved forms a matched span is ("carta" and "card" have the same
    separators, so :func:`_as_written` cannot tell them apart)."""
    return next((f for f in forms if find_all(matched, (f,)) == [(0, len(matched))]), forms[0])


def _scattered(text: str, form: str) -> bool:
    """Every content word of a multiword rendering is in the text: coordination splits
    terms ("custo alternativo ou adicional", "efeitos de substituição e/ou de prevenção")."""
    parts = [w for w in form.split() if len(w) > 3]
    return len(form.split()) > 1 and len(parts) > 1 and all(find_all(text, (w,)) for w in parts)


def _mid_sentence(text: str, i: int) -> bool:
    before = text[:i].rstrip()
    return bool(before) and before[-1] not in ".:;!?\n“\"(«"


def _terms(ctx):
    tb = ctx.termbase
    # Longer English terms first, so "converted mana cost" claims its words before "mana cost".
    return sorted(tb.terms, key=lambda t: -len(t.en)) if tb else []


def _history_renames(ctx, seen: set) -> list:
    """Renames between the base and the current edition learnt from the glossaries of the
    editions in between (:mod:`pipeline.diff.renamed_terms`).  The old term's rendering is the
    translation's own (its glossary), or the English term kept as it is ("tribal")."""
    if not (ctx.editions_dir and ctx.base_date and ctx.current_date) or ctx.base_date >= ctx.current_date:
        return []
    out = []
    for r in renamed_terms(ctx.editions_dir, ctx.base_date, ctx.current_date):
        forms = {r.old}
        own = (ctx.term_renderings or {}).get(r.old)
        if own:
            forms.add(own)
        for p in ctx.pairs:
            if p.target is None or (p.row.id, r.old.casefold()) in seen:
                continue
            cur = "\n".join([p.current.text, *p.current.example_texts]) if p.current is not None else ""
            if find_all(cur, (r.old,)):
                continue  # the current English still says it here
            spans = find_all(p.target_text, sorted(forms, key=len, reverse=True))
            if spans:
                seen.add((p.row.id, r.old.casefold()))
                out.append(ctx.issue(RENAMED, p, f"“{p.target_text[spans[0][0]:spans[0][1]]}” renders “{r.old}”, "
                                     f"which the English renamed “{r.new}” on {r.edition} (learnt from the "
                                     "editions' glossaries)", spans[0], suggestion=r.new))
    return out


def _aligned_span(ctx, pair, term: str, approved) -> tuple[int, int] | None:
    """The span of the translation's words aligned with the English term in this rule (the
    lexicon learnt from the translation, :func:`.termlearn.aligned_span`), or None."""
    return aligned_span(ctx, pair, term, [a.rstrip("*") for a in approved])


def run(ctx) -> list:
    out = []
    terms = _terms(ctx)
    if not terms:
        return out
    lang = ctx.lang
    cur = ctx.current_date or ""
    uses: dict[str, Counter] = {}
    where: list[tuple] = []
    # Per term: in how many rules with the English term the translation uses an approved
    # rendering, and the candidate "missing" findings; decided after the whole document is seen.
    kept: Counter = Counter()
    missing: dict[str, list] = {}
    renamed_seen: set[tuple] = set()
    # Per term: which approved form each rule with the English term uses (all terms, not only
    # the interchangeable ones), for the majority rule.
    rule_forms: dict[str, Counter] = {}
    form_where: list[tuple] = []
    for p in ctx.pairs:
        if p.target is None:
            continue
        text = p.target_text
        src = p.source_text
        t_taken: list[tuple[int, int]] = []
        s_taken: list[tuple[int, int]] = []
        # Renamed first: "custo de mana convertido" must not count as "custo de mana".
        for t in terms:
            for f in t.formerly:
                if f.until and cur and f.until > cur:
                    continue
                for span in find_all(text, f.renderings.get(lang, ()), t_taken):
                    t_taken.append(span)
                    if (p.row.id, f.en.casefold()) in renamed_seen:
                        continue  # one finding per rule and term: the translator fixes them together
                    renamed_seen.add((p.row.id, f.en.casefold()))
                    out.append(ctx.issue(RENAMED, p, f"“{text[span[0]:span[1]]}” renders “{f.en}”, which the English "
                                         f"renamed “{t.en}” on {f.until}", span, suggestion=t.preferred(lang)))
                s_taken += find_all(src, (f.en,), s_taken)
        for t in terms:
            approved = t.renderings.get(lang, ())
            if not approved:
                continue
            hits_avoid = find_all(text, t.avoid.get(lang, ()), t_taken)
            for span in hits_avoid:
                t_taken.append(span)
                out.append(ctx.issue(AVOID, p, f"“{text[span[0]:span[1]]}” is not the approved rendering of "
                                     f"“{t.en}”", span, suggestion=t.preferred(lang)))
            found = []
            for form in approved:
                for span in find_all(text, (form,), t_taken + [sp for _, sp in found]):
                    found.append((_as_written(text[span[0]:span[1]], approved, form), span))
            if not found and any(_scattered(text, form) for form in approved):
                found.append((approved[0], None))  # "efeitos de substituição e/ou de prevenção"
            if not found and find_all(text, approved):
                found.append((approved[0], None))  # inside a longer term's rendering ("habilidades desencadeadas")
            for _, span in found:
                if span is not None:
                    t_taken.append(span)
            s_hits = find_all(src, (t.en,), s_taken) if p.base is not None else []
            if p.base is not None and p.base.level != Level.RULE:
                # Inside an English name ("Elephant Graveyard", "Library of Alexandria"): a capitalised
                # term in mid-sentence is a name the translation keeps; headings are title case.
                s_hits = [h for h in s_hits if not (src[h[0]].isupper() and _mid_sentence(src, h[0]))]
            s_taken += s_hits
            if found and s_hits:
                kept[t.en] += 1
            if found and s_hits and len(approved) > 1:
                used = [(_form_of(text[span[0]:span[1]], approved), span) for _, span in found if span is not None]
                rule_forms.setdefault(t.en, Counter()).update(sorted({f for f, _ in used}))
                form_where.extend((t, f, span, p) for f, span in used)
            if found:
                if t.interchangeable:
                    uses.setdefault(t.en, Counter()).update(f for f, _ in found)
                    where.extend((t, f, span, p) for f, span in found if span is not None)
            elif s_hits and not hits_avoid and t.check and p.base is not None:
                names = ', '.join('“' + a.rstrip('*') + '”' for a in approved)
                # The English word itself left in the translation ("um token predefinido"): each
                # place it stands is where the reviewer corrects it.
                kept_en = [h for h in find_all(text, (t.en,), t_taken) if text[h[0]].islower()]
                for span in kept_en:
                    missing.setdefault(t.en, []).append(ctx.issue(
                        MISSING, p, f"“{text[span[0]:span[1]]}” is left in English; this translation renders "
                        f"“{t.en}” as {names}", span, suggestion=t.preferred(lang)))
                if not kept_en:
                    # Where the reviewer corrects it: the words the learnt lexicon aligns with the term.
                    at = _aligned_span(ctx, p, t.en, approved)
                    shown = f"“{text[at[0]:at[1]]}” for it: " if at else ""
                    missing.setdefault(t.en, []).append(ctx.issue(MISSING, p, f"the English says “{src[s_hits[0][0]:s_hits[0][1]]}”; {shown}none of "
                                         f"{names} is used", at, suggestion=t.preferred(lang)))
    out.extend(_history_renames(ctx, renamed_seen))
    for term, found in missing.items():
        # The translation's own majority decides: when most of its rules with this English term
        # use none of the approved renderings, that is the team's rendering, not a defect.
        rules = len({i.rule for i in found})
        if kept[term] >= 2 * rules and kept[term] >= 3:
            out.extend(found)
    out.extend(_majority(ctx, rule_forms, form_where))
    for t, form, span, p in where:
        c = uses.get(t.en)
        if c and len(c) > 1:
            top, n = sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[0]
            if form != top:
                out.append(ctx.issue(VARIANT, p, f"“{form}” for “{t.en}”; the document mostly uses “{top}” "
                                     f"({n} of {sum(c.values())})", span, suggestion=top))
    return out


def _majority(ctx, rule_forms: dict[str, Counter], form_where: list[tuple]) -> list:
    """Approved renderings the translation uses in a small minority of its rules with the term
    (issue 24 item 8: the translation's own majority wins); interchangeable spelling variants are
    left to ``terminology.variant``."""
    out = []
    for t, form, span, p in form_where:
        if t.interchangeable:
            continue
        c = rule_forms[t.en]
        top, n = sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[0]
        if form == top or n < MAJORITY_MIN or c[form] > MINORITY_SHARE * sum(c.values()):
            continue
        out.append(ctx.issue(MAJORITY, p, f"“{p.target_text[span[0]:span[1]]}” for “{t.en}”; this translation "
                             f"renders it “{top}” in {n} of its rules with it (“{form}” in {c[form]})",
                             span, suggestion=top))
    return out


register_pass(run, CHECKS)
