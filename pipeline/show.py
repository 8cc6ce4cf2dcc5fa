"""One rule by its number, its name or a glossary term: what ``crpipe show`` prints.

A query is a rule number (``601.2f``, ``120.4.`` as the rules print it), a keyword or
other heading (``Persist``), or a glossary term.  A number the edition does not have is
looked up in the older editions and followed to its number today, with a note.  The view
holds the rule's title path, its text, examples and subrules, what it cites and what
cites it, its history in one line and the glossary entry of its name.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from .editions.catalog import default_catalog
from .errors import InputError
from .codekey import code_key
from .inventory import cached_document
from .io import cache_root, cache_write, dumps, read_cache_json
from .model import Document, Rule
from .rulenum import Level
from .serialize import json_field, to_data
from .rule_index import descendants, edition_index
from .rulenum import RuleNumber
from .text import fold, is_heading


@dataclass
class RuleView:
    query: str
    edition: str | None  # the date stated inside the edition shown
    rule: str
    found_as: str  # number, old-number, heading, glossary
    #: (number, title), outermost first; the JSON has {id, title}.
    title_path: list[tuple[str, str]] = field(default_factory=list, metadata=json_field(
        convert=lambda tp: [{"id": i, "title": t} for i, t in tp]))
    text: str = ""
    examples: list[str] = field(default_factory=list)
    subrules: list[dict] = field(default_factory=list)  # {id, text, examples, depth}
    cites: list[str] = field(default_factory=list)
    cited_by: list[str] = field(default_factory=list)
    history: str | None = None
    notes: list[str] = field(default_factory=list)
    glossary: list[dict] = field(default_factory=list)  # {term, definition}
    translation: dict | None = None

    def to_dict(self) -> dict:
        return to_data(self)


def _fold(s: str) -> str:
    return " ".join(fold(s).split())


def _descendants(doc: Document, rule: Rule) -> list[dict]:
    return [{"id": c.id, "text": c.text, "examples": [e.text for e in c.examples], "depth": depth}
            for c, depth in descendants(doc, rule)]


def title_path(doc: Document, rule: Rule) -> list[tuple[str, str]]:
    """Section, then every ancestor whose text is a heading (``7 Additional Rules`` →
    ``702 Keyword Abilities`` → ``702.79 Persist``)."""
    chain = []
    cur = doc.rule(rule.parent) if rule.parent else None
    while cur is not None:
        chain.append(cur)
        cur = doc.rule(cur.parent) if cur.parent else None
    path = []
    sec = next((s for s in doc.sections if str(s.number) == str(rule.section)), None)
    if sec is not None:
        path.append((str(sec.number), sec.title))
    for r in reversed(chain):
        if r.level == Level.RULE or is_heading(r.text):
            path.append((r.id, r.text))
    return path


def find_heading(doc: Document, name: str) -> Rule | None:
    """The rule whose heading is ``name`` (a keyword such as Persist, "Split Cards")."""
    want = _fold(name)
    return next((r for r in doc.rules if r.level != Level.LETTERED and is_heading(r.text) and _fold(r.text) == want), None)


def _glossary_entries(doc: Document, name: str) -> list:
    want = _fold(name)
    return [g for g in doc.glossary if _fold(g.term) == want or _fold(g.term.split(",")[0]) == want]


def _history_line(lin) -> str:
    parts = []
    for s in lin.spans:
        a, b = s.get("first_effective") or s["first"], s.get("last_effective") or s["last"]
        parts.append(f"{s['number']} {a} … {b}" if a != b else f"{s['number']} {a}")
    line = "; ".join(parts)
    if lin.appeared:
        line = f"new in {lin.appeared}: " + line
    if lin.disappeared:
        line += f"; removed in {lin.disappeared}"
    if lin.text_changes:
        line += f" (text changed {len(lin.text_changes)}×, last in {lin.text_changes[-1]['effective_date'] or lin.text_changes[-1]['edition']})"
    return line


#: Bump when the one-line history changes; recorded lines are named by it.
HISTORY_LINE_VERSION = 1


def _history_lines_path(cat, ref) -> Path:
    """Where the history lines of rules numbered as in ``ref`` are kept: named by the
    archive's editions (sha256 and stated date, in the archive's order), the matcher's and
    this code's versions, so another archive or another matcher never reads them."""
    from .diff.cache import cache_key  # noqa: PLC0415 - lazy: only a history line needs the matcher's key

    h = hashlib.sha256(f"{cache_key()}\0{ref.stem}\0".encode())
    h.update(code_key(HISTORY_LINE_VERSION, (__name__, "pipeline.diff.history")).encode())
    for r in sorted((r for r in cat.editions if not r.truncated), key=lambda r: (r.date or r.stem, r.stem)):
        h.update(f"{r.stem}\0{r.sha256}\0{r.date}\n".encode())
    return cache_root() / "show-history" / f"{h.hexdigest()[:32]}.json"


def _cached_history_line(cat, ref, rule_id: str, archive) -> str | None:
    """The rule's one-line history: recorded the first time it is worked out (the lineage
    reads ~110 cached pair maps), then read back."""
    path = _history_lines_path(cat, ref)
    got = read_cache_json(path)
    lines = got.get("lines") if isinstance(got, dict) else None
    if not isinstance(lines, dict) or not all(isinstance(k, str) and (v is None or isinstance(v, str))
                                              for k, v in lines.items()):
        lines = {}
    if rule_id in lines:
        return lines[rule_id]
    try:
        line = _history_line(archive().lineage(rule_id, ref.stem, word_diffs=False))
    except InputError:
        line = None
    lines[rule_id] = line
    cache_write(path, dumps({"lines": lines}))
    return line


def _follow_old_number(arch, number: str, k: int) -> tuple[str | None, str, str] | None:
    """The newest edition before position ``k`` holding ``number`` (not a number of edition ``k``),
    and its number at ``k``.

    Returns ``(number at k or None if removed, the edition label, its stated date)``.
    """
    # Every number an older edition held is still in edition k, or was removed or renumbered at
    # some pair: a number in none of them (a typo) was never a rule, and is answered without the
    # walk (from the shipped maps, nothing written; a pair not shipped is matched by the walk).
    ever: set[str] = set()
    for i in range(k):
        pm = arch.shipped_pair(i)
        if pm is None:
            break
        ever.update(pm.removed)
        ever.update(pm.moved)
    else:
        if number not in ever:
            return None
    # Each edition's numbers follow from the next one's through their match (the numbers that
    # moved back, plus the ones it removed): no edition is parsed, the matches are shipped.
    nums = set(arch.texts(k))
    for i in range(k - 1, -1, -1):
        pm = arch.pair(i)
        nums = pm.backward_all(nums) | set(pm.removed)
        if number in nums:
            e = arch.editions[i]
            return arch.map_number(number, e.label, arch.editions[k].label), e.label, e.effective_date or e.label
    return None


def show_rule(query: str, edition: str | None = None, *, catalog=None, translation: Document | None = None,
              history: bool = True) -> RuleView:
    q = query.strip()
    number = q.rstrip(".") if RuleNumber.try_parse(q.rstrip(".")) else None
    cat = catalog or default_catalog()
    ref = cat.resolve(edition or "latest")
    # The inventory alone: a number that is not there (a typo, an old number) needs no references.
    doc = cached_document(ref.sha256, ref.name, "official", ref.parse)
    arch = None

    def archive():
        nonlocal arch
        if arch is None:
            from .diff.history import EditionArchive  # noqa: PLC0415 - lazy: only old numbers and history need it

            arch = EditionArchive(cat)
            arch._remember(ref.sha256, doc)  # its rules and texts are all a lineage reads of it
        return arch

    view = RuleView(q, doc.meta.effective_date, "", "number")
    rule = doc.rule(number) if number else None
    glossary = []
    if number and rule is None:
        a = archive()
        k = a.index(ref.stem)
        found = _follow_old_number(a, number, k)
        if found is None:
            raise InputError(f"no rule {number} in the {view.edition} edition or any earlier one", ref.where)
        now, label, date = found
        if now is None:
            old = a.load(label)
            raise InputError(f"rule {number} was last in the {date} edition ({old.rule(number).text[:80]!r}) "
                             f"and has no successor in the {view.edition} edition", ref.where)
        view.notes.append(f"{number} is the number in the {date} edition and earlier; "
                          f"in the {view.edition} edition it is {now}")
        rule, view.found_as = doc.rule(now), "old-number"
    elif rule is None:
        rule = find_heading(doc, q)
        glossary = _glossary_entries(doc, q)
        view.found_as = "heading"
        if rule is None and glossary:
            target = next((r for g in glossary for r in g.refs if doc.rule(r)), None)
            rule = doc.rule(target) if target else None
            view.found_as = "glossary"
        if rule is None and not glossary and translation is not None:
            tr = find_heading(translation, q)  # a keyword named in the translation ("Persistir")
            rule = doc.rule(tr.id) if tr is not None else None
            if rule is not None:
                view.notes.append(f"{q!r} is the {translation.meta.language} name of {rule.id} {rule.text}")
        if rule is None and not glossary:
            from rapidfuzz import process  # noqa: PLC0415 - lazy: only a miss suggests near names

            names = [g.term for g in doc.glossary]
            near = [m[0] for m in process.extract(q, names, limit=3, score_cutoff=70)]
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            raise InputError(f"no rule, heading or glossary term {q!r} in the {view.edition} edition{hint}", ref.where)
    if rule is not None and not glossary:
        glossary = _glossary_entries(doc, rule.text) if len(rule.text.split()) <= 4 else []
    view.glossary = [{"term": g.term, "definition": g.definition} for g in glossary]
    if rule is None:  # a glossary term that points at no rule
        view.rule = glossary[0].term
        return view
    view.rule = rule.id
    twins = [r for r in doc.rules if r.id == rule.id and r is not rule]
    if twins:  # five official editions print a number twice (the integrity findings name them)
        view.notes.append(f"the {view.edition} edition prints {rule.id} {len(twins) + 1} times; shown: the first; "
                          + "; ".join(f"also: {t.text[:100]!r}" for t in twins))
    view.title_path = title_path(doc, rule)
    view.text = rule.text
    view.examples = [e.text for e in rule.examples]
    view.subrules = _descendants(doc, rule)
    index = edition_index(ref, doc=doc)
    view.cites = list(index.cites.get(rule.id, []))
    view.cited_by = list(index.cited_by.get(rule.id, []))
    if history and not ref.truncated:
        view.history = _cached_history_line(cat, ref, rule.id, archive)
    if translation is not None:
        view.translation = _translated(translation, rule.id, q if view.found_as == "heading" else None)
    return view


def _translated(doc: Document, rule_id: str, name: str | None) -> dict | None:
    r = doc.rule(rule_id) or (find_heading(doc, name) if name else None)
    if r is None:
        return {"language": doc.meta.language, "rule": None, "note": f"no rule {rule_id} in {doc.meta.source_name}"}
    return {"language": doc.meta.language, "rule": r.id, "text": r.text, "examples": [e.text for e in r.examples],
            "subrules": _descendants(doc, r), "source": doc.meta.source_name}
