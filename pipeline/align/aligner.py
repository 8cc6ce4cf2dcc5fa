"""Align a translation's rules with its English base edition and the current edition.

By number first: where the base edition has the translated rule's number, that is its
English.  A translated rule whose number the base edition lacks is matched *by content*
among the English rules nobody claimed: the anchors a translation keeps (cited rules,
counts, mana symbols, English card names) and the length, near the rule's position.
Each base rule then goes to the current edition through the renumbering map.
"""

from __future__ import annotations

import bisect
import dataclasses
from collections import Counter

from ..model import BaseEdition, Document, Rule
from ..profiles import OFFICIAL_LANG, PROFILES
from ..rulenum import RuleNumber
from ..segment.hunspell import dictionary_path, missing_reason
from ..ingest.units import _is_english
from ..xref.extract import extract_from_text
from .checks import Context, Pair, all_checks, run_all
from .checks.grammar import missing_reason as grammar_missing_reason
from .model import SEVERITY_POINTS, AlignResult, Issue, Row, RowMethod, RowStatus, Score, segment_of
from .termbase import load_termbase
from .text import english_names, number_anchors, symbol_spans, words
from .update import update_plan

#: A translation holding at least this share of the base edition's rules is a full translation:
#: every untranslated rule is reported missing.  Below it (a paste, a web card) only gaps are.
COMPLETE_SHARE = 0.5
MIN_CONTENT_SCORE = 0.55


def _anchors(text: str, lang: str, profile=None, number_words: bool = True) -> Counter:
    """``profile``: the learnt cue words of a language without a shipped one; ``number_words``:
    count number words too (not when the other side's cannot be read: digits only)."""
    c: Counter = Counter()
    refs = extract_from_text(text, lang=lang, profile=profile)
    for r in refs:
        c.update(f"ref:{t}" for t in r.targets)
    c.update(f"num:{v}" for v, _ in number_anchors(text, lang if number_words else "", [r.span for r in refs]))
    c.update(f"sym:{s}" for s, _ in symbol_spans(text))
    return c


def _content_score(t_rule: Rule, t_anch: Counter, b_rule: Rule, b_anch: Counter, t_names: set[str]) -> float:
    tl, bl = len(segment_of(t_rule)), len(segment_of(b_rule))
    length = min(tl, bl) / max(tl, bl, 1)
    if t_names:
        b_text = segment_of(b_rule)
        b_anch = b_anch + Counter(f"name:{n}" for n in t_names if n in b_text)
        t_anch = t_anch + Counter(f"name:{n}" for n in t_names)
    inter = sum((t_anch & b_anch).values())
    union = sum((t_anch | b_anch).values())
    if union == 0:
        return 0.5 * length  # nothing to anchor on: length alone is weak evidence
    return 0.7 * inter / union + 0.3 * length


def _match_by_content(unmatched: list[Rule], free: list[Rule], base: Document, lang: str,
                      profile=None) -> dict[str, str]:
    """translated id -> base id for rules whose numbers do not hold (``profile``: the learnt one
    of a language without a shipped profile)."""
    if not unmatched or not free:
        return {}
    order = {r.id: i for i, r in enumerate(base.rules)}
    free_ids = {r.id for r in free}
    cache: dict[str, Counter] = {}
    out: dict[str, str] = {}
    sorted_free = sorted(free, key=lambda r: order[r.id])
    free_pos = [order[r.id] for r in sorted_free]
    for t in unmatched:
        t_anch = _anchors(segment_of(t), lang, profile)
        t_names = {n for n, _ in english_names(segment_of(t))}
        # Where the rule would sit in the base edition: near its number's neighbours.
        n = RuleNumber.try_parse(t.id)
        near = 0
        if n is not None:
            keys = [r.number for r in base.rules]
            near = bisect.bisect_left(keys, n) if keys == sorted(keys) else 0
        lo = bisect.bisect_left(free_pos, near - 200)
        hi = bisect.bisect_right(free_pos, near + 200)
        best, best_score = None, 0.0
        for b in sorted_free[lo:hi]:
            if b.id not in free_ids:
                continue
            if b.id not in cache:
                cache[b.id] = _anchors(segment_of(b), "en", number_words=profile is None)
            s = _content_score(t, t_anch, b, cache[b.id], t_names)
            if n is not None and b.parent is not None and str(n.parent()) == b.parent:
                s += 0.1  # a renumbered subrule usually stays under its parent
            if s > best_score:
                best, best_score = b, s
        if best is not None and best_score >= MIN_CONTENT_SCORE:
            out[t.id] = best.id
            free_ids.discard(best.id)
    return out


def _gaps(target: Document, paired_base: list[str], base: Document) -> list[str]:
    """Base rules lying between two translated rules of one family (a paste's gaps)."""
    order = {r.id: i for i, r in enumerate(base.rules)}
    ids = [b for b in paired_base if b in order]
    missing: list[str] = []
    taken = set(ids)
    for a, b in zip(ids, ids[1:]):
        ia, ib = order[a], order[b]
        if ib <= ia + 1:
            continue
        pa, pb = RuleNumber.parse(a), RuleNumber.parse(b)
        fam = (pa.rule, pa.sub) == (pb.rule, pb.sub) or pb.parent() == pa or pa.parent() == pb.parent()
        if fam and ib - ia < 30:
            missing.extend(r.id for r in base.rules[ia + 1:ib] if r.id not in taken)
    return missing


def build_rows(target: Document, base: Document, current: Document | None, map_number,
               accounted: set[str] | None = None, profile=None,
               untranslated: set[str] | None = None) -> tuple[list[tuple], bool]:
    """Rows (with their rules) in translation order, then the missing rules; and whether the
    translation is complete.  ``accounted``: base rules a bilingual file holds as units (its
    untranslated ones are coverage, not missing rules); only base rules outside it are missing.
    ``untranslated``: rules of a text translation still in English (coverage, not missing; a
    paste holding one is still a paste: its other rules are not all missing)."""
    lang = target.meta.language
    by_number: dict[str, str] = {}
    seen_base: set[str] = set()
    unmatched = []
    for r in target.rules:
        if base.rule(r.id) is not None and r.id not in seen_base:
            by_number[r.id] = r.id
            seen_base.add(r.id)
        else:
            unmatched.append(r)
    free = [r for r in base.rules if r.id not in seen_base]
    complete = len(seen_base) >= COMPLETE_SHARE * max(1, len(base.rules))
    by_content = _match_by_content(unmatched, free, base, lang, profile)
    rows: list[tuple] = []

    def current_of(base_id: str | None) -> str | None:
        if base_id is None:
            return None
        if map_number is not None:
            return map_number(base_id)
        return base_id if current is not None and current.rule(base_id) is not None else None

    unmatched_objs = {id(r) for r in unmatched}
    for r in target.rules:
        if id(r) in unmatched_objs:
            bid = by_content.get(r.id)
            status, method = ((RowStatus.REALIGNED, RowMethod.ANCHORS) if bid is not None
                              else (RowStatus.EXTRA, RowMethod.NONE))
        else:
            bid = by_number[r.id]
            status, method = RowStatus.ALIGNED, RowMethod.NUMBER
        b = base.rule(bid) if bid else None
        cid = current_of(bid)
        c = current.rule(cid) if (current is not None and cid) else None
        row = Row(r.id, bid, cid, status, method, segment_of(r), segment_of(b), segment_of(c), r.inferred_number)
        rows.append((row, r, b, c))
    claimed = set(by_number.values()) | set(by_content.values()) | (untranslated or set())
    if accounted is not None:
        missing = [b.id for b in base.rules if b.id not in claimed and b.id not in accounted]
    elif complete:
        missing = [b.id for b in base.rules if b.id not in claimed]
    else:
        missing = [m for m in _gaps(target, [row.base_id for row, *_ in rows if row.base_id], base)
                   if m not in claimed]
    for mid in missing:
        b = base.rule(mid)
        cid = current_of(mid)
        c = current.rule(cid) if (current is not None and cid) else None
        rows.append((Row(None, mid, cid, RowStatus.MISSING, RowMethod.NONE, "", segment_of(b), segment_of(c)), None, b, c))
    return rows, complete


def score_of(target: Document, issues: list[Issue]) -> Score:
    n_words = sum(len(words(segment_of(r))) for r in target.rules)
    by_sev = Counter(i.severity for i in issues)
    points = sum(SEVERITY_POINTS.get(s, 0) * n for s, n in by_sev.items())
    return Score(n_words, points, 1000.0 * points / max(1, n_words),
                 {s: by_sev.get(s, 0) for s in ("error", "warning", "info")})


def align_documents(target: Document, base: Document, current: Document | None = None, *,
                    map_number=None, base_info: BaseEdition | None = None, current_label: str | None = None,
                    termbase=None, cards=None, only: set[str] | None = None, units=None,
                    editions_dir=None) -> AlignResult:
    """Align ``target`` (a translation) with ``base`` (its English base edition) and ``current``;
    run every check.  ``map_number``: base number -> current number (None: gone).
    ``units``: a :class:`~pipeline.align.bilingual.UnitsInfo` when the translation came from a
    bilingual file (coverage instead of missing rules; findings point back to units)."""
    tb = termbase if termbase is not None else load_termbase()
    accounted = units.accounted if units is not None else None
    text_coverage = None
    if units is None:
        target, untranslated, text_coverage = _split_english(target, base)
    else:
        untranslated = None
    no_profile, learnt = _without_profile(target, base)
    rows, complete = build_rows(target, base, current, map_number, accounted, learnt, untranslated)
    pairs = [Pair(row, t, b, c) for row, t, b, c in rows]
    if units is not None:
        # Glossary, titles, front matter and credits are translated and reviewed too.
        pairs += [Pair(row, t, b, None) for row, t, b in units.text_rows()]
    ctx = Context(lang=target.meta.language, target_doc=target, base_doc=base, current_doc=current, pairs=pairs,
                  base_date=(base_info.label if base_info is not None else None) or base.meta.effective_date,
                  current_date=current_label or (current.meta.effective_date if current else None),
                  map_number=map_number, termbase=tb, cards=cards, complete=complete,
                  editions_dir=editions_dir,
                  term_renderings=units.term_renderings() if units is not None else None, units=units,
                  no_profile=no_profile, profile=learnt)
    issues = run_all(ctx, only)
    if units is not None:
        for i in issues:
            units.locate(i)
    by_row: dict[str | None, list[Issue]] = {}
    for i in issues:
        by_row.setdefault(i.rule, []).append(i)
    missing_rows = {p.row.base_id: p.row for p in pairs if p.row.id is None}
    for p in pairs:
        if p.row.id is not None:
            p.row.issues = sorted(by_row.get(p.row.id, []), key=_issue_key)
    # Missing rules have no translated id: their findings go by base id.
    for i in by_row.get(None, []):
        if i.base_id in missing_rows:
            missing_rows[i.base_id].issues.append(i)
    result_rows = [p.row for p in pairs]
    info = base_info if base_info is not None else BaseEdition(base.meta.effective_date, "the base document given")
    translation = {"name": target.meta.source_name, "language": target.meta.language, "kind": target.meta.kind,
                   "source": target.meta.source_file, "sha256": target.meta.sha256, "complete": complete,
                   "format": target.meta.format, "effective_date": target.meta.effective_date,
                   "effective_date_text": target.meta.effective_date_text}
    if units is not None:
        translation["complete"] = units.coverage.translated >= units.coverage.units
        for r in result_rows:
            r.units = units.units_of(r.id)
    elif text_coverage is not None:
        translation["complete"] = complete and not text_coverage["untranslated_rules"]
    cov = units.coverage.to_dict() if units is not None else text_coverage
    plan = update_plan(result_rows, base, current, map_number, info.label, ctx.current_date,
                       (cov or {}).get("untranslated_rules") or ())
    return AlignResult(
        update=plan, translation=translation, coverage=units.coverage.to_dict() if units is not None else text_coverage,
        base_edition=info, current_edition=ctx.current_date, rows=result_rows, checks=all_checks(),
        score=score_of(target, [i for r in result_rows for i in r.issues]),
        notes=_notes(tb, target.meta.language) + _not_run_notes(ctx, learnt),
        not_run=[{"check": c, "reason": r} for c, r in ctx.not_run], learnt_profile=learnt)


def _notes(tb, lang: str | None) -> list[str]:
    out = [] if tb else ["no term base"]
    if lang in PROFILES and dictionary_path(lang) is None:
        out.append(missing_reason(lang))
    grammar = grammar_missing_reason(lang) if lang else None
    if grammar:
        out.append(grammar)
    return out


def _without_profile(target: Document, base: Document):
    """``(why not, learnt profile)`` for a translation in a language no profile describes:
    alignment is by rule number, structure, digits, symbols and card names, and the references
    are read with the cue words drafted from the rules aligned by number (the English says
    "see rule 601.2b" where the translation holds 601.2b); ``(None, None)`` with a profile."""
    lang = target.meta.language
    if lang in PROFILES:
        return None, None
    from ..profiles.draft import learnt_profile  # noqa: PLC0415 - only for a language without a profile

    pairs = [(segment_of(b), segment_of(r)) for r in target.rules if (b := base.rule(r.id)) is not None]
    named = "its language was not identified" if lang in (None, "", "unknown") else f"no profile for {lang!r}"
    why = f"needs a language profile ({named}; profiles: {', '.join(sorted(PROFILES))})"
    return why, learnt_profile(lang or "unknown", pairs)


def _not_run_notes(ctx, learnt) -> list[str]:
    if not ctx.not_run:
        return []
    ids = list(dict.fromkeys(c for c, _ in ctx.not_run))
    out = [f"{len(ids)} checks not run: {ctx.no_profile}: {', '.join(ids)}"]
    if learnt is not None:
        cues = [f"{f} {', '.join(getattr(learnt, f)) or '(none found)'}" for f in ("rule_words", "see_words")]
        out.append("references read with cue words learnt from the document: " + "; ".join(cues))
    return out


def _split_english(target: Document, base: Document):
    """A translation's rules still in English (per-paragraph language identification) are
    coverage, not text to check: returns the translated rules only, the English rules' ids
    (accounted for, not missing) and the coverage; ``(target, None, None)`` when all are translated."""
    lang = target.meta.language
    if lang == OFFICIAL_LANG or (lang in PROFILES and PROFILES[lang].official):
        return target, None, None
    eng = {r.id for r in target.rules
           if _is_english(segment_of(r), segment_of(base.rule(r.id)), lang)}
    by: dict[str, Counter] = {}
    for r in target.rules:
        c = by.setdefault(str(r.section or r.id[0]), Counter())
        c["units"] += 1
        c["translated"] += r.id not in eng
    cov = {"units": len(target.rules), "translated": len(target.rules) - len(eng), "unit": "rule",
           "share": round((len(target.rules) - len(eng)) / max(1, len(target.rules)), 4),
           "by_section": {k: {"name": f"section {k}", "units": c["units"], "translated": c["translated"],
                              "share": round(c["translated"] / max(1, c["units"]), 4)} for k, c in sorted(by.items())},
           "untranslated_rules": [r.id for r in target.rules if r.id in eng], "stale_units": []}
    if not eng:
        return target, None, cov
    kept = dataclasses.replace(target, rules=[r for r in target.rules if r.id not in eng], _index=None, _indexed=-1)
    return kept, eng, cov


def _issue_key(i: Issue):
    return (i.span[0] if i.span else -1, i.check, i.message)

