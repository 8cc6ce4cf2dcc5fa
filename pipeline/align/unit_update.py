"""The update of a bilingual file (PO/POT, XLIFF) unit by unit, as the translation team segments it.

A team's PO or XLIFF holds one unit per English paragraph: a rule paragraph with its number
("100.1. These Magic rules …"), each example, a rule's second paragraph, the section titles and
contents lines, each glossary term and each line of its definition, the front matter and the
credits.  A file that platform can take back must keep exactly those units, so the update is
planned here per *unit*, not per rule:

* every paragraph of an English edition gets a structural *key* (``("rule", "702.21")``,
  ``("example", "101.2", 1)``, ``("term", "ward")``, ``("def", "ward", 1)``, ``("section", 7)``,
  ``("front", 3)``, ``("credits", 2)``), from the parsed :class:`~pipeline.model.Document`;
* a unit's English source is looked up among the base edition's paragraphs (its keys; the
  same English can stand in several places, the team's file holds it once);
* each base key goes to the current edition: rules through the renumbering map, examples,
  continuations and definition lines by their owner and position (by similarity when their
  count changed), terms by name, front matter and credits by order and similarity
  (rapidfuzz);
* the unit's msgid becomes the current paragraph; the translation is carried, ``fuzzy``
  with the previous English where the English changed, with the references to renumbered
  rules pre-applied in the carried translation; paragraphs the current edition removed make
  obsolete units; paragraphs new in the current edition are added, empty, after the unit of
  the paragraph before them.

The writers (:mod:`pipeline.report.update_units`) apply this plan to the input file itself, so
its header, comments, flags, locations and ids stay as they are.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum

from ..ingest.bilingual import BilingualFile, BilingualFormat
from ..model import Document
from ..serialize import INTERNAL, fields_data, json_field, to_data
from ..rulenum import Level
from ..ingest.units import _NUM, _SECTION
from ..xref.extract import extract_from_text
from ..xref.model import RefKind

Key = tuple


class UnitFate(StrEnum):
    """What the update does to one unit of the input."""

    KEPT = "kept"  # the English did not change: the unit exactly as it was
    CHANGED = "changed"  # new English; a translation is carried and marked fuzzy
    REMOVED = "removed"  # the current edition has no such paragraph: an obsolete unit
    STALE = "stale"  # the source is no paragraph of the base edition: kept as it was
    MERGED = "merged"  # its new English is already another unit's: obsolete, its translation kept


@dataclass
class UnitChange:
    """The plan for one unit of the input (``index``: its position in ``BilingualFile.units``)."""

    index: int
    fate: UnitFate
    key: Key | None
    source: str  # the English to write (the current paragraph, or the input's own source)
    target: str  # the translation to write (the input's, with renumbered references pre-applied)
    previous: str | None = None  # the English the translation was made from, when it changed
    renumbered: list[tuple[str, str]] = field(default_factory=list)  # (old, new) pre-applied in the target
    note: str = ""


@dataclass
class NewUnit:
    """A paragraph of the current edition no unit of the input holds: added after unit ``after``
    (an index into ``BilingualFile.units``; -1: before the first unit)."""

    after: int
    key: Key
    source: str
    target: str = ""  # a suggestion from a unit whose identical base English stood here too
    previous: str | None = None
    from_unit: int | None = None


@dataclass
class UnitUpdate:
    base_label: str | None = field(metadata=json_field(name="base"))
    current_label: str | None = field(metadata=json_field(name="current"))
    file: BilingualFile = field(metadata=INTERNAL)
    data: bytes = field(metadata=INTERNAL)  # the input file as read: the writers re-apply the plan to it
    changes: list[UnitChange] = field(metadata=INTERNAL)  # (reported by their counts)
    new: list[NewUnit] = field(metadata=INTERNAL)

    @property
    def same_edition(self) -> bool:
        return self.base_label == self.current_label

    def counts(self) -> dict[str, int]:
        out = {f.value: 0 for f in UnitFate}
        for c in self.changes:
            out[c.fate.value] += 1
        out["fuzzy"] = sum(1 for c in self.changes if c.fate is UnitFate.CHANGED and self.file.units[c.index].translated)
        out["renumbered"] = sum(1 for c in self.changes if c.renumbered)
        out["new"] = len(self.new)
        out["units"] = len(self.changes)
        return out

    def __json__(self) -> dict:
        return {**fields_data(self), "counts": self.counts()}

    def to_dict(self) -> dict:
        return to_data(self)


# -- the paragraphs of an edition, keyed -------------------------------------------------------

def _light(s: str) -> str:
    return " ".join(s.split())


def paragraphs(doc: Document) -> list[tuple[Key, str]]:
    """Every paragraph of an English edition with its key, in document order (a paragraph
    that stands twice, such as a contents line and its heading, has one key)."""
    out: list[tuple[Key, str]] = []
    headings = {r.id for r in doc.rules if r.level == Level.RULE}
    k = 0
    for line in doc.front_matter.splitlines():
        line = line.strip()
        if not line:
            continue
        m, s = _NUM.match(line), _SECTION.match(line)
        if m and m.group("num") in headings:  # a contents line: the same paragraph as the heading
            out.append((("rule", m.group("num")), line))
        elif s and any(sec.number == int(s.group("num")) for sec in doc.sections):
            out.append((("section", int(s.group("num"))), line))
        else:
            k += 1
            out.append((("front", k), line))
    body: list[tuple[int, int, Key, str]] = []
    for s in doc.sections:
        body.append((s.line or 0, 0, ("section", s.number), f"{s.number}. {s.title}"))
    for r in doc.rules:
        head = r.layout.head or (r.id + (". " if r.level != Level.LETTERED else " "))
        first, *more = r.text.split("\n")
        body.append((r.line or 0, 1, ("rule", r.id), head + first))
        for i, extra in enumerate(more, 1):
            if extra.strip():
                body.append((r.line or 0, 2 + i, ("cont", r.id, i), extra.strip()))
        for i, e in enumerate(r.examples, 1):
            body.append((e.line or r.line or 0, 100 + i, ("example", r.id, i), e.text.strip()))
    body.sort(key=lambda t: (t[0], t[1]))
    out += [(key, text) for _, _, key, text in body]
    if doc.glossary:
        out.append((("gloss-heading",), "Glossary"))
    for g in doc.glossary:
        t = g.term.casefold()
        out.append((("term", t), g.term.strip()))
        for i, line in enumerate((x.strip() for x in g.definition.split("\n") if x.strip()), 1):
            out.append((("def", t, i), line))
    k = 0
    for line in doc.back_matter.splitlines():
        if line.strip():
            k += 1
            out.append((("credits", k), line.strip()))
    return out


# -- base keys to current keys -----------------------------------------------------------------

def _align(a: list[str], b: list[str], floor: float = 50.0, by_position: bool = True) -> dict[int, int]:
    """Indices of ``a`` matched to indices of ``b``: by position when the counts agree and
    ``by_position`` (the examples of a rule, the lines of a definition) or the texts are the
    same, else a monotone alignment maximising the rapidfuzz similarity (pairs below ``floor``
    are not matched)."""
    if len(a) == len(b) and (by_position or all(_light(x) == _light(y) for x, y in zip(a, b))):
        return {i: i for i in range(len(a))}
    from rapidfuzz import fuzz  # loaded only when a list changed length

    n, m = len(a), len(b)
    score = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            s = fuzz.ratio(a[i], b[j])
            best = max(score[i + 1][j], score[i][j + 1])
            if s >= floor:
                best = max(best, s + score[i + 1][j + 1])
            score[i][j] = best
    out, i, j = {}, 0, 0
    while i < n and j < m:
        s = fuzz.ratio(a[i], b[j])
        if s >= floor and score[i][j] == s + score[i + 1][j + 1]:
            out[i] = j
            i, j = i + 1, j + 1
        elif score[i][j] == score[i + 1][j]:
            i += 1
        else:
            j += 1
    return out


class _KeyMap:
    """Base-edition keys -> current-edition keys."""

    def __init__(self, base: list[tuple[Key, str]], current: list[tuple[Key, str]], map_number):
        self.map_number = map_number
        self.cur_text: dict[Key, str] = {}
        for k, t in current:
            self.cur_text.setdefault(k, t)
        self.base_text: dict[Key, str] = {}
        for k, t in base:
            self.base_text.setdefault(k, t)
        self._children_b = self._children(base)
        self._children_c = self._children(current)
        self._aligned: dict[tuple, dict[int, int]] = {}
        self._rules: dict[str, str | None] = {}
        self._seq: dict[Key, Key] = {}
        for kind in ("front", "credits"):
            bk = [k for k, _ in base if k[0] == kind]
            ck = [k for k, _ in current if k[0] == kind]
            # No numbers to go by: order and similarity (the effective-date line, the
            # introduction's paragraphs and the credits change a little every edition).
            al = _align([self.base_text[k] for k in bk], [self.cur_text[k] for k in ck], floor=40.0, by_position=False)
            self._seq.update({bk[i]: ck[j] for i, j in al.items()})
        self.renamed = self._renamed_terms(base, current)

    def _renamed_terms(self, base, current) -> dict[str, str]:
        """Base glossary terms the current edition lacks -> a new term with the same definition
        (a renamed term: "Converted Mana Cost" became "Mana Value", its definition stayed)."""
        gone = [k[1] for k, _ in base if k[0] == "term" and k not in self.cur_text]
        fresh = [k[1] for k, _ in current if k[0] == "term" and k not in self.base_text]
        if not gone or not fresh:
            return {}
        from rapidfuzz import fuzz, process  # loaded only when a glossary term is gone

        choices = {t: self.cur_text.get(("def", t, 1), "") for t in fresh}
        out: dict[str, str] = {}
        for t in gone:
            d = self.base_text.get(("def", t, 1), "")
            best = process.extractOne(d, choices, scorer=fuzz.ratio, score_cutoff=85.0) if d else None
            if best is not None and best[2] not in out.values():
                out[t] = best[2]
        return out

    def term(self, t: str) -> str | None:
        if ("term", t) in self.cur_text:
            return t
        return self.renamed.get(t)

    @staticmethod
    def _children(pars) -> dict[tuple, list[Key]]:
        out: dict[tuple, list[Key]] = {}
        for k, _ in pars:
            if k[0] in ("example", "cont", "def"):
                out.setdefault((k[0], k[1]), []).append(k)
        return out

    def rule(self, rid: str) -> str | None:
        if rid not in self._rules:
            self._rules[rid] = self._rule(rid)
        return self._rules[rid]

    def _rule(self, rid: str) -> str | None:
        cid = rid if self.map_number is None else self.map_number(rid)
        if cid is None and rid.isdigit():
            cid = self._heading_by_children(rid)
        return cid if cid is not None and ("rule", cid) in self.cur_text else None

    def _heading_by_children(self, rid: str) -> str | None:
        """A three-digit heading the history lost while its subrules went on (the heading was
        retitled: "308. Tribals" became "308. Kindreds"): the heading its subrules now stand under,
        when most of them agree."""
        kids = [k[1] for k in self.base_text if k[0] == "rule" and k[1].startswith(rid + ".")]
        heads = Counter(c.split(".")[0] for c in (self.rule(k) for k in kids) if c)
        if not heads:
            return None
        head, n = heads.most_common(1)[0]
        return head if 2 * n > len(kids) else None

    def __call__(self, key: Key) -> Key | None:
        kind = key[0]
        if kind == "rule":
            c = self.rule(key[1])
            return ("rule", c) if c else None
        if kind in ("example", "cont", "def"):
            owner = self.rule(key[1]) if kind != "def" else self.term(key[1])
            if owner is None:
                return None
            bl = self._children_b.get((kind, key[1]), [])
            cl = self._children_c.get((kind, owner), [])
            memo = (kind, key[1], owner)
            if memo not in self._aligned:
                self._aligned[memo] = _align([self.base_text[k] for k in bl], [self.cur_text[k] for k in cl])
            j = self._aligned[memo].get(bl.index(key)) if key in bl else None
            return cl[j] if j is not None else None
        if kind == "term":
            t = self.term(key[1])
            return ("term", t) if t else None
        if kind in ("section", "gloss-heading"):
            return key if key in self.cur_text else None
        if kind in ("front", "credits"):
            return self._seq.get(key)
        return None


# -- renumbered references in a carried translation --------------------------------------------

def _renumber(target: str, lang: str, rule_map, own: tuple[str, str] | None = None,
              profile=None) -> tuple[str, list[tuple[str, str]]]:
    """The translation with its own rule number and its references to renumbered rules
    moved to their current numbers (a suggestion: the unit is fuzzy anyway).  ``own``: the
    unit's number in its old and its new English; the translation's leading number follows it
    only when it is the old English's (a translation that opens with another number has a slip
    of its own, which the checks report; it is not renumbered as if it were a reference).
    ``profile``: the cue words learnt for a language without a shipped profile."""
    spans: list[tuple[int, int, str, str | None]] = []
    m = _NUM.match(target)
    if m:
        lead = m.group("num")
        spans.append((m.start("num"), m.end("num"), lead, own[1] if own and own[0] == lead else lead))
    for ref in extract_from_text(target, lang=lang, profile=profile):
        if ref.kind == RefKind.SINGLE and not any(s <= ref.span[0] < e for s, e, _, _ in spans):
            spans.append((ref.span[0], ref.span[1], ref.raw, None))
    done: list[tuple[str, str]] = []
    out = target
    for s, e, raw, fixed in sorted(spans, reverse=True):
        new = fixed if fixed is not None else rule_map(raw)
        if new and new != raw:
            out = out[:s] + new + out[e:]
            done.append((raw, new))
    done.reverse()
    return out, done


def _own_numbers(old: str, new: str) -> tuple[str, str] | None:
    a, b = _NUM.match(old), _NUM.match(new)
    return (a.group("num"), b.group("num")) if a and b else None


# -- the plan ------------------------------------------------------------------------------------

def plan_unit_update(bf: BilingualFile, data: bytes, base: Document, current: Document, map_number,
                     base_label: str | None, current_label: str | None, lang: str, profile=None) -> UnitUpdate:
    base_pars = paragraphs(base)
    cur_pars = base_pars if current is base else paragraphs(current)
    keymap = _KeyMap(base_pars, cur_pars, map_number if current is not base else (lambda n: n))
    by_text: dict[str, list[Key]] = {}
    for k, t in base_pars:
        by_text.setdefault(_light(t), [])
        if k not in by_text[_light(t)]:
            by_text[_light(t)].append(k)
    base_rules = {k[1] for k, _ in base_pars if k[0] == "rule"}

    def rule_map(n: str) -> str | None:
        return keymap.rule(n) if n in base_rules else None

    changes: list[UnitChange] = []
    image_of: dict[Key, int] = {}  # current key -> the unit now holding it
    secondary: dict[Key, int] = {}  # current key -> a unit whose identical base English stood there too
    for i, u in enumerate(bf.units):
        src = _light(u.source)
        keys = list(by_text.get(src, ()))
        if not keys:
            m = _NUM.match(src)
            if m and ("rule", m.group("num")) in keymap.base_text:
                keys = [("rule", m.group("num"))]  # the English of another edition under a known number
            else:
                changes.append(UnitChange(i, UnitFate.STALE, None, u.source, u.target))
                continue
        images = [(k, keymap(k)) for k in keys]
        hit = next(((k, c) for k, c in images if c is not None), None)
        if hit is None:
            changes.append(UnitChange(i, UnitFate.REMOVED, keys[0], u.source, u.target,
                                      note=f"not in the current edition {current_label}"))
            continue
        key, ckey = hit
        for k, c in images:
            if c is not None and c != ckey:
                secondary.setdefault(c, i)
        new_src = keymap.cur_text[ckey]
        if _light(new_src) == src:
            changes.append(UnitChange(i, UnitFate.KEPT, key, u.source, u.target))
        else:
            target, moved = u.target, []
            if u.translated:
                target, moved = _renumber(u.target, lang, rule_map, _own_numbers(u.source, new_src), profile)
            changes.append(UnitChange(i, UnitFate.CHANGED, key, new_src, target,
                                      previous=u.source if u.translated else None, renumbered=moved))
        image_of.setdefault(ckey, i)
    # Two units whose English is now one paragraph: a PO holds a msgid once per msgctxt, so the
    # first (unchanged ones first) keeps it and the other becomes obsolete with its translation.
    # An XLIFF unit is known by its id: the same source twice is allowed there.
    def slot(c: UnitChange) -> tuple[str, str]:
        uid = bf.units[c.index].id
        ctx = (uid.split("\x04")[0] if "\x04" in uid else "") if bf.format == BilingualFormat.PO else bf.units[c.index].location
        return ctx, _light(c.source)

    owner: dict[tuple[str, str], int] = {}
    for c in sorted(changes, key=lambda c: (c.fate is not UnitFate.KEPT, c.index)):
        if c.fate in (UnitFate.KEPT, UnitFate.CHANGED, UnitFate.STALE):
            t = slot(c)
            if t in owner and owner[t] != c.index:
                c.fate, c.note = UnitFate.MERGED, (f"the current edition {current_label} has this English once: "
                                                   f"see the unit {bf.units[owner[t]].location}")
                c.source, c.target, c.previous, c.renumbered = bf.units[c.index].source, bf.units[c.index].target, None, []
            else:
                owner[t] = c.index
    # New paragraphs, after the unit holding the paragraph before them in the current edition.
    removed_by_text = {_light(c.source): c for c in changes if c.fate is UnitFate.REMOVED}
    # Only paragraphs new in the current edition are added: a base paragraph the file leaves
    # out (a partial XLIFF) is not the update's to add.
    base_images = {c for c in (keymap(k) for k, _ in base_pars) if c is not None}
    new: list[NewUnit] = []
    after, seen = -1, {t for _, t in owner}
    for k, t in cur_pars:
        if k in image_of and changes[image_of[k]].fate is not UnitFate.MERGED:
            after = image_of[k]
            continue
        lt = _light(t)
        if lt in seen or (k in base_images and k not in secondary and lt not in removed_by_text):
            continue
        seen.add(lt)
        back = removed_by_text.pop(lt, None)
        if back is not None:
            # The paragraph moved where no key followed it (a definition under a renamed term):
            # the unit holds it already, unchanged.
            back.fate, back.key, back.note = UnitFate.KEPT, k, ""
            image_of[k] = back.index
            continue
        j = secondary.get(k)
        if j is not None and bf.units[j].translated:
            u = bf.units[j]
            target, _ = _renumber(u.target, lang, rule_map, _own_numbers(u.source, t), profile)
            new.append(NewUnit(after, k, t, target, previous=u.source, from_unit=j))
        else:
            new.append(NewUnit(after, k, t))
    return UnitUpdate(base_label, current_label, bf, data, changes, new)
