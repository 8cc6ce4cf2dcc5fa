"""Turn matched rules into classified changes, a renumbering map and a summary.

Kinds: ``added``, ``removed``, ``modified`` (same number, other text), ``moved`` (other
number, same text), ``moved_modified``.  Parts: ``rule``, ``title`` (section titles and
three-digit rule headings), ``example``, ``glossary``.  A text change that is explained
entirely by the renumbering (the old text with its citations rewritten through the map
equals the new text) is flagged ``refs_only``.  Typography-only edits (quote and dash
styles, ``_italics_``) are not changes; they are counted in the summary.

A renumbering *cascade* (an inserted keyword shifting every later keyword by one) is a
run of sibling rules that all moved by the same step, with their subrules along: it is
reported once (a summary line plus its members) instead of as hundreds of moves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from difflib import SequenceMatcher
from pathlib import Path

from rapidfuzz import fuzz

from ..collector import collector_paused
from ..errors import InputError
from ..io import cache_root, read_cache_json, write_json
from ..model import DocKind, Document, GlossaryEntry, Rule
from ..rulenum import RULE, Level, RuleNumber, sort_ids
from ..serialize import INTERNAL, OMIT_NONE, fields_data, json_field, to_data
from ..xref import extract_from_text, resolve
from ..xref.model import RefKind, RefPart
from .cache import cache_key, content_key
from .match import LEFTOVER_THRESHOLD, Matching, match_items
from .match import document_items as _items
from .text import mask_refs, normalize, ref_tokens, remap_refs
from .worddiff import word_diff

class ChangeKind(StrEnum):
    ADDED = "added"
    REMOVED = "removed"
    MODIFIED = "modified"
    MOVED = "moved"  # renumbered, same text
    MOVED_MODIFIED = "moved_modified"  # renumbered and reworded


class ChangePart(StrEnum):
    """What changed: a rule's text, a three-digit rule's or a section's title, an example, a glossary entry."""

    RULE = "rule"
    TITLE = "title"
    EXAMPLE = "example"
    GLOSSARY = "glossary"


KINDS = tuple(ChangeKind)
PARTS = tuple(ChangePart)
#: A run of at least this many sibling rules moved by the same step is a cascade.
CASCADE_MIN_ROOTS = 3


@dataclass(kw_only=True)
class Change:
    kind: ChangeKind
    part: ChangePart
    old: str | None
    new: str | None
    old_text: str | None = None
    new_text: str | None = None
    word_diff: list[list[str]] | None = None
    refs_only: bool = False
    similarity: float | None = field(default=None, metadata=json_field(omit="none", digits=1))
    section: int | None = None
    #: {"old": n, "new": n}, 1-based positions within the rule.
    example: dict | None = field(default=None, metadata=OMIT_NONE)
    cascade: str | None = field(default=None, metadata=OMIT_NONE)

    def to_dict(self) -> dict:
        return to_data(self)


@dataclass
class Cascade:
    id: str
    parent_old: str | None
    parent_new: str | None
    step: int
    #: Every member, roots and their subrules, in old order.
    moves: list[tuple[str, str]] = field(metadata=json_field(convert=lambda ms: [{"old": o, "new": n} for o, n in ms]))
    roots: list[tuple[str, str]] = field(metadata=INTERNAL)

    @property
    def line(self) -> str:
        (o1, n1), (o2, n2) = self.roots[0], self.roots[-1]
        subs = len(self.moves) - len(self.roots)
        sign = f"+{self.step}" if self.step > 0 else str(self.step)
        extra = f" and {subs} subrules" if subs else ""
        return (f"{o1}–{o2} renumbered {n1}–{n2} ({sign}): {len(self.roots)} rules{extra}")

    def __json__(self) -> dict:
        return {**fields_data(self), "summary": self.line, "rules": len(self.moves)}

    def to_dict(self) -> dict:
        return to_data(self)


@dataclass
class DiffSide:
    """One side of a diff as its result names it (the schema's ``edition``): the compared
    document's file name, stated date and sha256 -- any document, a translation too.  An
    edition the catalog knows is a :class:`pipeline.editions.EditionRef`."""

    file: str | None
    effective_date: str | None
    sha256: str | None

    @classmethod
    def of(cls, doc: Document) -> "DiffSide":
        return cls(doc.meta.source_name or doc.meta.source_file, doc.meta.effective_date, doc.meta.sha256)

    def to_dict(self) -> dict:
        return to_data(self)


@dataclass
class DiffResult:
    old: DiffSide
    new: DiffSide
    changes: list[Change]
    pairs: dict[str, str]  # every matched rule: old number -> new number (identity included)
    renumbering: dict[str, str | None]  # only numbers that changed or lost their rule
    cascades: list[Cascade] = field(default_factory=list)
    stale_references: list[dict] = field(default_factory=list)
    summary: dict = field(default_factory=dict)
    section_titles: dict[int, str] = field(default_factory=dict)  # the new edition's, for reports

    def find(self, old: str | None = None, new: str | None = None, part: str | None = None) -> list[Change]:
        return [c for c in self.changes if (old is None or c.old == old) and (new is None or c.new == new)
                and (part is None or c.part == part)]

    def listed_changes(self, expand_moves: bool = False) -> list[Change]:
        """The changes a report lists: cascade members are left to their cascade's line."""
        return [c for c in self.changes if expand_moves or c.cascade is None]

    def to_dict(self, expand_moves: bool = False) -> dict:
        return {
            "schema": "crpipe-diff/1",
            "old": self.old.to_dict(), "new": self.new.to_dict(),
            "summary": self.summary,
            "changes": [c.to_dict() for c in self.listed_changes(expand_moves)],
            "cascades": [c.to_dict() for c in self.cascades],
            "renumbering": [{"old": o, "new": self.renumbering[o]} for o in sort_ids(self.renumbering)],
            "stale_references": self.stale_references,
        }


# -- helpers ------------------------------------------------------------------------------

def _by_id(doc: Document) -> dict[str, Rule]:
    """Rules by number.  (Not ``doc.rule()``: with duplicate numbers, as some old editions
    have, its index never settles and is rebuilt on every call.)  Last one wins, like it."""
    return {r.id: r for r in doc.rules}


def _suffix(rule: Rule) -> str:
    if rule.parent and rule.id.startswith(rule.parent):
        return rule.id[len(rule.parent):].lstrip(".")
    return rule.id


def _section(rule_id: str | None) -> int | None:
    n = RuleNumber.try_parse(rule_id) if rule_id else None
    return n.section if n else None


def _text_change(kind_same: ChangeKind, kind_moved: ChangeKind, old_id, new_id, old_text: str, new_text: str,
                 full_map: dict, part: ChangePart, section, similarity=None, words: bool = True) -> Change | None:
    """A change between two matched texts, or None when they only differ in typography."""
    a, b = normalize(old_text), normalize(new_text)
    moved = old_id != new_id
    if a == b:
        return Change(kind=kind_moved, part=part, old=old_id, new=new_id, old_text=old_text, new_text=new_text,
                      similarity=similarity, section=section) if moved else None
    refs_only = normalize(remap_refs(old_text, full_map)) == b
    reworded = ChangeKind.MOVED_MODIFIED if kind_moved is ChangeKind.MOVED else kind_moved
    return Change(kind=reworded if moved else kind_same, part=part, old=old_id,
                  new=new_id, old_text=old_text, new_text=new_text,
                  word_diff=word_diff(old_text, new_text) if words else None, refs_only=refs_only,
                  similarity=similarity, section=section)


def _step(a: str, b: str) -> int | None:
    """How far a number moved among its siblings: 702.78 -> 702.79 is +1, 704.5m -> 704.5k is -1."""
    na, nb = RuleNumber.try_parse(a), RuleNumber.try_parse(b)
    if not na or not nb or na.level != nb.level:
        return None
    if na.letter is not None:
        ia, ib = na.letter_index, nb.letter_index
        return None if ia is None or ib is None else ib - ia
    if na.sub is not None:
        return nb.sub - na.sub
    return nb.rule - na.rule


# -- the cache ----------------------------------------------------------------------------
# Matching two editions and counting their plain line diff are the fixed costs of every
# diff; both depend only on the two documents' rules (and glossaries), so they are kept on
# disk under a hash of that content and the matcher's code: a second diff of the same pair
# (a release check run again, the build, history) reads a few kilobytes instead.

#: ``cache`` arguments: None for the default folder (:func:`pipeline.io.cache_root`, the one
#: history uses), a folder, or False for no disk cache.
CacheArg = "str | Path | None | bool"


def _cached(old: Document, new: Document, cache: CacheArg) -> tuple[Path | None, dict]:
    if cache is False:
        return None, {}
    base = cache_root() if cache is None or cache is True else Path(cache)
    path = base / f"diff-{cache_key()}" / "documents" / f"{content_key(old)}-{content_key(new)}.json"
    entry = read_cache_json(path)
    return path, entry if isinstance(entry, dict) else {}


def _store(path: Path | None, entry: dict) -> None:
    if path is None:
        return
    try:
        write_json(path, entry)
    except OSError:
        pass  # a read-only cache: the diff is still right, only not faster next time


def _matching(old: Document, new: Document, cache: CacheArg = None, slot: tuple | None = None) -> Matching:
    """The rule matching of ``old`` and ``new``, from the disk cache when this pair was seen
    (``slot``: the pair's :func:`_cached` entry when the caller has read it already)."""
    path, entry = slot if slot is not None else _cached(old, new, cache)
    got = entry.get("match")
    if got is not None:
        m = Matching()
        for i, j, score, how in got:
            m.pairs[i], m.score[i], m.how[i] = j, score, how
        return m
    m = match_items(_items(old), _items(new))
    if path is not None:  # history (cache=False) keeps its own pair maps
        entry["match"] = [[i, j, None if m.score.get(i) is None else float(m.score[i]), m.how.get(i)]
                          for i, j in m.pairs.items()]
        _store(path, entry)
    return m


# -- the parts ----------------------------------------------------------------------------

def match_rules(old: Document, new: Document, cache: CacheArg = None) -> dict[str, str]:
    """Only the rule matching: old number -> new number for every matched rule."""
    m = _matching(old, new, cache)
    return {old.rules[i].id: new.rules[j].id for i, j in sorted(m.pairs.items())}


def _rule_changes(old: Document, new: Document, words: bool = True, cache: CacheArg = None,
                  slot: tuple | None = None):
    m = _matching(old, new, cache, slot)
    pairs = {old.rules[i].id: new.rules[j].id for i, j in sorted(m.pairs.items())}
    full_map: dict[str, str | None] = dict(pairs)
    for r in old.rules:
        full_map.setdefault(r.id, None)
    changes: list[Change] = []
    new_matched = set(m.pairs.values())
    for i, r in enumerate(old.rules):
        part = ChangePart.TITLE if r.level == RULE else ChangePart.RULE
        j = m.pairs.get(i)
        if j is None:
            changes.append(Change(kind=ChangeKind.REMOVED, part=part, old=r.id, new=None, old_text=r.text,
                                  section=_section(r.id)))
            continue
        n = new.rules[j]
        c = _text_change(ChangeKind.MODIFIED, ChangeKind.MOVED, r.id, n.id, r.text, n.text, full_map, part, _section(n.id), m.score[i], words)
        if c:
            changes.append(c)
    for j, r in enumerate(new.rules):
        if j not in new_matched:
            part = ChangePart.TITLE if r.level == RULE else ChangePart.RULE
            changes.append(Change(kind=ChangeKind.ADDED, part=part, old=None, new=r.id, new_text=r.text,
                                  section=_section(r.id)))
    return pairs, full_map, changes


def _align_examples(a: list[str], b: list[str]) -> list[tuple[int | None, int | None]]:
    """Pair two example lists: identical texts first, then similar ones in order."""
    na, nb = [mask_refs(normalize(t)) for t in a], [mask_refs(normalize(t)) for t in b]
    out: list[tuple[int | None, int | None]] = []
    used_b: set[int] = set()
    left: list[int] = []
    for i, t in enumerate(na):
        j = next((j for j, u in enumerate(nb) if j not in used_b and u == t), None)
        if j is None:
            left.append(i)
        else:
            used_b.add(j)
            out.append((i, j))
    for i in left:
        cands = [(fuzz.ratio(na[i], nb[j]), -j, j) for j in range(len(nb)) if j not in used_b]
        best = max(cands, default=None)
        if best and best[0] >= 50:
            used_b.add(best[2])
            out.append((i, best[2]))
        else:
            out.append((i, None))
    out += [(None, j) for j in range(len(nb)) if j not in used_b]
    return out


def _example_changes(old: Document, new: Document, pairs: dict, full_map: dict) -> list[Change]:
    O, N = _by_id(old), _by_id(new)
    out = []
    for oid, nid in pairs.items():
        ro, rn = O[oid], N[nid]
        a, b = ro.example_texts, rn.example_texts
        if [normalize(t) for t in a] == [normalize(t) for t in b]:
            continue
        for i, j in _align_examples(a, b):
            pos = {"old": None if i is None else i + 1, "new": None if j is None else j + 1}
            if i is None:
                out.append(Change(kind=ChangeKind.ADDED, part=ChangePart.EXAMPLE, old=oid, new=nid, new_text=b[j],
                                  section=_section(nid), example=pos))
            elif j is None:
                out.append(Change(kind=ChangeKind.REMOVED, part=ChangePart.EXAMPLE, old=oid, new=nid, old_text=a[i],
                                  section=_section(nid), example=pos))
            else:
                c = _text_change(ChangeKind.MODIFIED, ChangeKind.MODIFIED, oid, nid, a[i], b[j], full_map,
                                 ChangePart.EXAMPLE, _section(nid))
                if c:
                    # The example follows its rule; a renumbered rule is reported on its own.
                    c.kind = ChangeKind.MODIFIED
                    c.example = pos
                    out.append(c)
    return out


def _glossary_changes(old: Document, new: Document, full_map: dict) -> list[Change]:
    key = lambda g: normalize(g.term).casefold()  # noqa: E731
    new_by = {key(g): g for g in new.glossary}
    out: list[Change] = []
    left_old: list[GlossaryEntry] = []
    matched_new: set[str] = set()
    for g in old.glossary:
        h = new_by.get(key(g))
        if h is None:
            left_old.append(g)
            continue
        matched_new.add(key(h))
        c = _text_change("modified", "moved", g.term, h.term, g.definition, h.definition, full_map, "glossary", None)
        if c:
            out.append(c)
    left_new = [g for g in new.glossary if key(g) not in matched_new]
    # A renamed term keeps its definition (or most of it).
    for g in left_old:
        da = mask_refs(normalize(g.definition))
        best = max(((fuzz.ratio(da, mask_refs(normalize(h.definition))), -k, k) for k, h in enumerate(left_new)), default=None)
        if best and best[0] >= LEFTOVER_THRESHOLD:
            h = left_new.pop(best[2])
            c = _text_change(ChangeKind.MODIFIED, ChangeKind.MOVED, g.term, h.term, g.definition, h.definition,
                             full_map, ChangePart.GLOSSARY, None, best[0])
            if c is None:  # same definition, new term
                c = Change(kind=ChangeKind.MOVED, part=ChangePart.GLOSSARY, old=g.term, new=h.term,
                           old_text=g.definition, new_text=h.definition, similarity=best[0])
            out.append(c)
        else:
            out.append(Change(kind=ChangeKind.REMOVED, part=ChangePart.GLOSSARY, old=g.term, new=None,
                              old_text=g.definition))
    out += [Change(kind=ChangeKind.ADDED, part=ChangePart.GLOSSARY, old=None, new=h.term, new_text=h.definition)
            for h in left_new]
    return out


def _title_changes(old: Document, new: Document) -> list[Change]:
    a = {s.number: s.title for s in old.sections}
    b = {s.number: s.title for s in new.sections}
    out = []
    for n in sorted(set(a) | set(b)):
        if n not in b:
            out.append(Change(kind=ChangeKind.REMOVED, part=ChangePart.TITLE, old=str(n), new=None, old_text=a[n],
                              section=n))
        elif n not in a:
            out.append(Change(kind=ChangeKind.ADDED, part=ChangePart.TITLE, old=None, new=str(n), new_text=b[n],
                              section=n))
        elif normalize(a[n]) != normalize(b[n]):
            out.append(Change(kind=ChangeKind.MODIFIED, part=ChangePart.TITLE, old=str(n), new=str(n), old_text=a[n],
                              new_text=b[n], word_diff=word_diff(a[n], b[n]), section=n))
    return out


def _cascades(old: Document, new: Document, changes: list[Change], pairs: dict) -> list[Cascade]:
    O, N = _by_id(old), _by_id(new)
    moves = {c.old: c for c in changes if c.part in (ChangePart.RULE, ChangePart.TITLE)
             and (c.kind == ChangeKind.MOVED or (c.kind == ChangeKind.MOVED_MODIFIED and c.refs_only))}
    root_of: dict[str, str] = {}
    for r in old.rules:  # parents come first
        c = moves.get(r.id)
        if c is None:
            continue
        n = N.get(c.new)
        if r.parent in moves and r.parent in root_of and n is not None and n.parent == pairs.get(r.parent) \
                and _suffix(r) == _suffix(n):
            root_of[r.id] = root_of[r.parent]
        else:
            root_of[r.id] = r.id
    members: dict[str, list[str]] = {}
    for oid, root in root_of.items():
        members.setdefault(root, []).append(oid)
    # Runs of sibling roots, consecutive among the old parent's children, moved by one step.
    runs: list[list[str]] = []
    for r in old.rules:
        if root_of.get(r.id) != r.id:
            continue
        step = _step(r.id, pairs[r.id])
        n = N.get(pairs[r.id])
        key = (r.parent, n.parent if n else None, step)
        if runs and runs[-1][0] == key and _adjacent(old, O, runs[-1][-1], r.id):
            runs[-1].append(r.id)
        else:
            runs.append([key, r.id])
    out = []
    for run in runs:
        (p_old, p_new, step), roots = run[0], run[1:]
        if step is None or step == 0 or len(roots) < CASCADE_MIN_ROOTS:
            continue
        cid = f"c{len(out) + 1}"
        all_ids = [m for root in roots for m in members[root]]
        for m in all_ids:
            moves[m].cascade = cid
        out.append(Cascade(cid, p_old, p_new, step, [(m, pairs[m]) for m in all_ids], [(r, pairs[r]) for r in roots]))
    return out


def _adjacent(doc: Document, index: dict, a: str, b: str) -> bool:
    """True when ``b`` is the next sibling of ``a`` (three-digit rules: the next rule)."""
    ra, rb = index[a], index.get(b)
    if ra.parent:
        sibs = index[ra.parent].children if ra.parent in index else []
    else:
        sibs = [r.id for r in doc.rules if r.level == Level.RULE]
    try:
        return sibs.index(b) == sibs.index(a) + 1
    except ValueError:
        return rb is not None and rb.order > ra.order


def _texts(doc: Document):
    """Every text in which a rule can be cited, keyed like the citing place."""
    for r in doc.rules:
        yield (r.id, None), r.text
        for k, e in enumerate(r.examples):
            yield (r.id, k), e.text
    for g in doc.glossary:
        yield (f"glossary:{g.term}", None), g.definition


def _citations(doc: Document, numbers: set[str]):
    """(source, example, cited number, status, title) for the citations in ``doc`` of texts
    that mention one of ``numbers``.

    Uses the cross-reference extractor (``pipeline.xref``: ranges, quoted titles, title
    mismatches); a cheap token scan picks the texts worth extracting from, so a diff pays
    for the few texts that cite a renumbered rule, not for the whole document.
    """
    texts = [(src, ex, text) for (src, ex), text in _texts(doc) if numbers.intersection(ref_tokens(text))]
    known = frozenset(r.id for r in doc.rules)
    lang = doc.meta.language or "en"
    refs = []
    for src, ex, text in texts:
        part = RefPart.GLOSSARY if src.startswith("glossary:") else (RefPart.RULE if ex is None else RefPart.EXAMPLE)
        refs.extend(extract_from_text(text, lang, src, part, known, ex))
    for ref in resolve(refs, doc):
        if ref.kind == RefKind.SECTION or not ref.targets:
            continue
        cited = ref.targets if ref.kind == RefKind.SINGLE else sorted({ref.targets[0], ref.targets[-1]})
        for t in cited:
            yield ref.source, ref.example, t, ref.status, ref.title


def stale_references(old: Document, new: Document, pairs: dict, renumbering: dict) -> list[dict]:
    """Citations in NEW that still use a number the renumbering changed.

    Stale: the citation names a title that is no longer that number's (``See rule 702.138,
    "Companion"`` after companion moved to 702.139); or the same place in OLD already
    cited that number and it has since moved (nobody updated it); or it names a number
    that no longer exists.
    """
    if not renumbering:
        return []
    old_texts = dict(_texts(old))
    new_refs = {k: ref_tokens(t) for k, t in _texts(new)}
    back = {n: o for o, n in pairs.items()}
    N = _by_id(new)
    out = []
    seen = set()
    for src, ex, tok, status, title in _citations(new, set(renumbering)):
        if tok not in renumbering or (src, ex, tok) in seen:
            continue
        seen.add((src, ex, tok))
        target = renumbering[tok]
        old_src = src if src.startswith("glossary:") else back.get(src)
        before = set(ref_tokens(old_texts.get((old_src, ex), ""))) if old_src else set()
        reason = None
        if title and status == "resolved":
            continue  # the quoted title is the cited rule's: the citation was updated
        if status == "title-mismatch":
            # Stale only when the renumbering explains it: the title is the moved rule's.
            if target and target in N and normalize(title or "").casefold() in normalize(N[target].text).casefold():
                reason = f"cites “{title}”, which is now {target}"
        elif tok in before and target != tok and target not in new_refs.get((src, ex), ()):
            reason = f"{tok} was renumbered {target}" if target else f"rule {tok} was removed"
        elif tok not in N:
            reason = f"no rule {tok} in this edition"
        if reason:
            out.append({"in": src if ex is None else f"{src} example {ex + 1}", "ref": tok, "now": target,
                        "reason": reason})
    return out


def _line_diff(old: Document, new: Document, cache: CacheArg = None, slot: tuple | None = None) -> dict:
    """What a plain line diff of the two texts reports, for contrast (cached with the match)."""
    path, entry = slot if slot is not None else _cached(old, new, cache)
    if isinstance(entry.get("line_diff"), dict):
        return entry["line_diff"]
    entry["line_diff"] = out = _count_line_diff(old, new)
    _store(path, entry)
    return out


def _count_line_diff(old: Document, new: Document) -> dict:
    def lines(doc):
        out = []
        for r in doc.rules:
            out.append(f"{r.id} {r.text}")
            out += [e.text for e in r.examples]
        out += [f"{g.term} {g.definition}" for g in doc.glossary]
        return out
    a, b = lines(old), lines(new)
    sm = SequenceMatcher(None, a, b, autojunk=False)
    rem = add = 0
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag != "equal":
            rem += i2 - i1
            add += j2 - j1
    return {"lines_removed": rem, "lines_added": add, "lines_changed": rem + add}


def _check(doc: Document, side: str) -> None:
    if not doc.rules:
        raise InputError(f"the {side} document holds no numbered rules; is it a Comprehensive Rules text?",
                         doc.meta.source_file or side)


#: Below this share of the smaller document's rules matched, the two texts are unrelated.
MIN_MATCHED_SHARE = 0.10


def _check_related(old: Document, new: Document, pairs: dict) -> None:
    """Refuse a "100 % changed" report: two editions always share most rules (even 2003 and
    2026, across the 2009 rewrite, share over half of the older one's)."""
    smaller = min(len(old.rules), len(new.rules))
    if len(pairs) < MIN_MATCHED_SHARE * smaller:
        odd = new if new.meta.kind != DocKind.OFFICIAL or old.meta.kind == DocKind.OFFICIAL else old
        raise InputError(f"shares almost no rules with the other document ({len(pairs)} of {smaller} matched); "
                         "is it a Comprehensive Rules edition in the same language?",
                         odd.meta.source_file or "document")


def diff_documents(old: Document, new: Document, line_diff: bool = True, word_diffs: bool = True,
                   references: bool = True, cache: CacheArg = None) -> DiffResult:
    """Everything that changed from ``old`` to ``new`` (two editions in one language).

    ``line_diff=False`` skips the plain line-diff count of the summary and
    ``word_diffs=False`` the word-level diffs of rule texts, ``references=False`` the scan
    for stale citations (the archive needs none of them).  The rule matching and the
    line-diff count are read from the disk cache when this pair of texts was diffed before
    (``cache``: None for the default folder, a folder, or False for none).
    """
    # A diff, like a parse, makes thousands of objects and no cycle; with many editions held
    # in memory one collection costs ~0.4 s, several times the diff itself.
    with collector_paused():
        return _diff(old, new, line_diff, word_diffs, references, cache)


def _diff(old: Document, new: Document, line_diff: bool, word_diffs: bool, references: bool,
          cache: CacheArg) -> DiffResult:
    _check(old, "old")
    _check(new, "new")
    if old.meta.language != new.meta.language:
        raise InputError(f"cannot diff a {old.meta.language} text with a {new.meta.language} text "
                         "(editions must be in one language)", new.meta.source_file)
    slot = _cached(old, new, cache)  # read once: hashing both documents' content is a fixed cost
    pairs, full_map, changes = _rule_changes(old, new, word_diffs, cache, slot)
    _check_related(old, new, pairs)
    renumbering = {o: n for o, n in full_map.items() if n != o}
    changes += _example_changes(old, new, pairs, full_map)
    changes += _title_changes(old, new)
    changes += _glossary_changes(old, new, full_map)
    cascades = _cascades(old, new, changes, pairs)
    changes = _sorted(changes, old, new)
    res = DiffResult(DiffSide.of(old), DiffSide.of(new), changes, pairs, renumbering, cascades)
    res.section_titles = {s.number: s.title for s in old.sections} | {s.number: s.title for s in new.sections}
    if references:
        res.stale_references = stale_references(old, new, pairs, renumbering)
    res.summary = _summary(res, old, new, line_diff, cache, slot)
    return res


def _sorted(changes: list[Change], old: Document, new: Document) -> list[Change]:
    """Document order: rules and titles by number (new number, else old), then the glossary."""
    def key(c: Change):
        if c.part == ChangePart.GLOSSARY:
            return (1, (0, 0, 0), (c.new or c.old or "").casefold(), 0)
        num = RuleNumber.try_parse(c.new or c.old or "")
        ex = (c.example or {}).get("new") or (c.example or {}).get("old") or 0
        return (0, num.sort_key() if num else (0, 0, 0), c.old or "", ex)
    return sorted(changes, key=key)


def _summary(res: DiffResult, old: Document, new: Document, line_diff: bool, cache: CacheArg = None,
             slot: tuple | None = None) -> dict:
    by_kind = {k: 0 for k in KINDS}
    by_part: dict[str, dict[str, int]] = {p: {k: 0 for k in KINDS} for p in PARTS}
    for c in res.changes:
        by_kind[c.kind] += 1
        by_part[c.part][c.kind] += 1
    O, N = _by_id(old), _by_id(new)
    typo = sum(1 for o, n in res.pairs.items()
               if O[o].text != N[n].text and normalize(O[o].text) == normalize(N[n].text))
    out = {
        "rules_old": len(old.rules), "rules_new": len(new.rules),
        "rules_matched": len(res.pairs),
        "rules_unchanged": sum(1 for o, n in res.pairs.items() if o == n
                               and normalize(O[o].text) == normalize(N[n].text)),
        "changes": len(res.changes),
        "by_kind": by_kind, "by_part": by_part,
        "refs_only": sum(1 for c in res.changes if c.refs_only),
        "renumbered": sum(1 for v in res.renumbering.values() if v),
        "numbers_without_successor": sum(1 for v in res.renumbering.values() if v is None),
        "cascades": [c.line for c in res.cascades],
        "moves_in_cascades": sum(len(c.moves) for c in res.cascades),
        "typography_only": typo,
        "stale_references": len(res.stale_references),
    }
    if line_diff:
        out["line_diff"] = _line_diff(old, new, cache, slot)
    return out
