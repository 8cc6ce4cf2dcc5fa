"""The structured rules model: the typed boundary every stage reads and writes.

A :class:`Document` is one rules text (an official edition, a translation, a paste)
in one language.  Rule text is *logical* text: a paragraph with its hard line wraps
joined.  What is needed to give back the source byte-for-byte (wraps, the number's
punctuation, blank lines) is kept apart in :class:`Layout`, so that search and
matching never see layout and the round trip never loses it.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from enum import StrEnum
from functools import partial
from typing import Any

from .findings import Severity
from .rulenum import Level, RuleNumber
from .serialize import INTERNAL, OMIT_DEFAULT, OMIT_NONE, to_data

SEVERITIES = tuple(Severity)


class DocKind(StrEnum):
    """What a document is: an official edition, a translation, text pasted from a PDF, a web-viewer card."""

    OFFICIAL = "official"
    TRANSLATION = "translation"
    PASTE = "paste"
    WEBCARD = "webcard"


# The classes a parsed edition holds thousands of are slotted: no per-object __dict__ (30
# editions held in memory: 112 MiB instead of 128 MiB; history and the editions step hold many).
@dataclass(slots=True)
class Layout:
    """How a paragraph was laid out in its source (only what differs from the defaults).

    ``before``: the exact text between the previous paragraph's end and this one
    (``"\\n\\n"`` for one blank line).  ``head``: the text between the rule number and
    the rule text (``" "`` or ``". "``).  ``breaks``: ``[offset, original]`` pairs, each
    a line break that the logical text holds as one space at ``offset``.  ``tail``:
    whitespace that ended the paragraph.
    """

    before: str = field(default="\n\n", metadata=OMIT_DEFAULT)
    head: str = field(default="", metadata=OMIT_DEFAULT)
    breaks: list[list[Any]] = field(default_factory=list, metadata=OMIT_DEFAULT)
    tail: str = field(default="", metadata=OMIT_DEFAULT)

    def to_dict(self) -> dict:
        return to_data(self)

    @classmethod
    def from_dict(cls, d: dict | None) -> "Layout":
        d = d or {}
        return cls(d.get("before", "\n\n"), d.get("head", ""), [list(b) for b in d.get("breaks", [])], d.get("tail", ""))


@dataclass
class Finding:
    """One observation about a document: an integrity problem, a repair, a skipped step."""

    kind: str
    detail: str
    severity: Severity = Severity.WARNING
    rule: str | None = field(default=None, metadata=OMIT_NONE)
    line: int | None = field(default=None, metadata=OMIT_NONE)
    span: list[int] | None = field(default=None, metadata=OMIT_NONE)

    def __post_init__(self) -> None:
        self.severity = Severity(self.severity)  # findings are declared with plain strings

    def to_dict(self) -> dict:
        return to_data(self)


@dataclass(slots=True)
class Example:
    text: str
    line: int | None = None
    layout: Layout = field(default_factory=Layout)


@dataclass(slots=True)
class Rule:
    """A numbered rule (``100``), subrule (``100.1``) or lettered subrule (``100.1a``).

    For a three-digit rule ``text`` is its heading ("General").  ``parent`` is None for
    three-digit rules (their section is in ``section``).
    """

    id: str
    text: str
    examples: list[Example] = field(default_factory=list)
    parent: str | None = None
    children: list[str] = field(default_factory=list)
    section: int | None = None
    level: Level | str = ""  # "" until the segmenter sets it
    order: int = 0
    line: int | None = None
    inferred_number: bool = False
    layout: Layout = field(default_factory=Layout)
    #: The parsed number, when the segmenter already had it (saves re-parsing ids).
    num: RuleNumber | None = field(default=None, repr=False, compare=False)

    def __getattr__(self, name: str):
        # Reached only for a slot never assigned: the official parser leaves the fields in
        # _UNSET_DEFAULTS unset when they hold their default (most rules have no examples,
        # and lettered rules no children) -- two lists fewer per rule to make and free.
        # The first read stores the default, so later reads are plain slot reads and the
        # rule compares, copies, pickles and serialises exactly as one built by __init__.
        make = _UNSET_DEFAULTS.get(name)
        if make is None:
            raise AttributeError(f"'Rule' object has no attribute {name!r}")
        value = make()
        object.__setattr__(self, name, value)
        return value

    @property
    def number(self) -> RuleNumber:
        if self.num is None or str(self.num) != self.id:
            self.num = RuleNumber.parse(self.id)
        return self.num

    @property
    def example_texts(self) -> list[str]:
        return [e.text for e in self.examples]


#: Rule fields that may be left unset (see Rule.__getattr__) and how to make their default.
_UNSET_DEFAULTS = {"examples": list, "children": list, "inferred_number": bool, "num": lambda: None}
for _f in fields(Rule):
    if _f.name in _UNSET_DEFAULTS and _UNSET_DEFAULTS[_f.name]() != (
            _f.default_factory() if _f.default is MISSING else _f.default):
        raise AssertionError(f"_UNSET_DEFAULTS[{_f.name!r}] differs from Rule's default")


@dataclass(slots=True)
class Section:
    number: int
    title: str
    order: int = 0
    line: int | None = None
    layout: Layout = field(default_factory=Layout)


@dataclass(slots=True)
class GlossaryEntry:
    """A glossary term; ``definition`` keeps its internal line breaks ("1. …\\n2. …")."""

    term: str
    definition: str
    refs: list[str] = field(default_factory=list)
    line: int | None = None
    layout: Layout = field(default_factory=Layout)


class _LazyLayout:
    """The ``layout`` of the classes a parse makes thousands of, read through this.

    The parser stores a one-line paragraph's layout as a plain ``(before, head, tail)``
    tuple, or, for a rule's usual one (``before`` one blank line, no ``tail``, a head that is
    the rule's id and a separator), as the separator alone -- nearly every paragraph, and
    most of them are never rendered; a one-space separator is a string the interpreter
    shares, so such a rule holds no string of its own for its layout -- and the
    :class:`Layout` is made the first time the attribute is read (then kept).  Readers
    and writers see a ``Layout`` as before; the tuple only saves building objects (and the
    cycle collector tracking them) for layouts nobody reads.

    The value lives in the class's own ``layout`` slot, also reachable as ``_lay``: the
    slot's descriptor put under a second name, so the parser, which makes rules and glossary
    entries without their ``__init__``, stores it with a plain slot store.
    """

    __slots__ = ()

    def __get__(self, obj, cls=None):
        if obj is None:
            return cls._lay  # the slot itself, as before
        v = obj._lay
        if type(v) is tuple:
            v = obj._lay = Layout(v[0], v[1], [], v[2])
        elif type(v) is str:  # a Rule's usual layout: the separator after its id
            v = obj._lay = Layout("\n\n", obj.id + v, [], "")
        return v

    def __set__(self, obj, value) -> None:
        obj._lay = value


class Deferred(partial):
    """A field's value not computed yet: read as ``fn(arg)`` the first time (then kept).
    Only the lazy fields below understand it (:attr:`GlossaryEntry.refs`).  A ``partial``:
    made in C, without a Python ``__init__`` call (one per glossary entry of a parse)."""

    __slots__ = ()


class _LazyRefs:
    """``GlossaryEntry.refs``: the parser leaves a :class:`Deferred` (the definition, and
    the function that finds its rule references) -- a regex scan of every definition was
    a sixth of the glossary's parse, and most uses of a parsed edition (diff, history,
    render, checks) never read the references.  Read, they are found from the definition
    as parsed and kept; assigned, they are stored as given.  Stored in the ``refs`` slot,
    also reachable as ``_refs`` (as ``_lay`` for :class:`_LazyLayout`)."""

    __slots__ = ()

    def __get__(self, obj, cls=None):
        if obj is None:
            return cls._refs
        v = obj._refs
        if type(v) is Deferred:
            v = obj._refs = v()
        return v

    def __set__(self, obj, value) -> None:
        obj._refs = value


for _cls in (Rule, Example, Section, GlossaryEntry):
    _cls._lay = _cls.__dict__["layout"]  # the slot's descriptor under a second name
    _cls.layout = _LazyLayout()
GlossaryEntry._refs = GlossaryEntry.__dict__["refs"]
GlossaryEntry.refs = _LazyRefs()
del _cls


class TocLevel(StrEnum):
    """What a table-of-contents line names."""

    SECTION = "section"
    RULE = "rule"
    PART = "part"  # a line of the contents that is neither (a part's heading)


@dataclass
class TocEntry:
    number: str
    title: str
    level: TocLevel


# -- the base edition: which English editions a document was made from --------------------

class BaseMethod(StrEnum):
    """How the English editions behind a document were found."""

    DECLARED = "declared"  # the document states its effective date
    INVENTORY = "inventory"  # the facts it holds, checked against each edition's inventory
    UNIT_SOURCES = "unit-sources"  # a bilingual file's English sources, found verbatim in an edition
    GIVEN = "given"  # the one reference file given


@dataclass
class FactCounts:
    """How many facts of the document decided an inferred range."""

    used: int
    set_aside: int  # true in no edition (the translation's own wording)
    broken_in_chosen: float  # the weight of the used facts the chosen editions break


@dataclass
class EditionRange:
    """The English editions consistent with a document (``Meta.base_edition``), with the evidence.

    ``first``/``last`` bound the range (None when nothing could be inferred), ``editions``
    lists them, ``declared`` is the date the document states (None when it states none)."""

    # In the order the inferred range's dict had: SQLite's meta cell (export.py) keeps key order.
    first: str | None
    last: str | None
    declared: str | None
    editions: list[str]
    evidence: list[str]
    confidence: float
    method: BaseMethod
    facts: FactCounts | None = field(default=None, metadata=OMIT_NONE)

    @classmethod
    def from_dict(cls, d: dict) -> "EditionRange":
        facts = d.get("facts")
        return cls(d.get("first"), d.get("last"), d.get("declared"), list(d.get("editions", [])),
                   list(d.get("evidence", [])), d.get("confidence", 0.0), BaseMethod(d["method"]),
                   FactCounts(**facts) if facts else None)


@dataclass
class RunnerUp:
    label: str
    matched: int


@dataclass
class Pin:
    """A bilingual file pinned to the edition whose paragraphs hold most of its English sources."""

    label: str = field(metadata=INTERNAL)  # the edition (the JSON names it as the base edition's label)
    matched: int  # unit sources that are paragraphs of it
    units: int
    share: float
    tied: list[str]  # editions with the same count (text identical for every unit)
    runner_up: RunnerUp | None  # the next best edition, so a reader sees how clearly the sources decide
    method: BaseMethod
    how: str = field(metadata=INTERNAL)  # (the JSON says it as the base edition's how)


#: Evidence lines a base-edition record carries into the reports.
EVIDENCE_SHOWN = 12


@dataclass
class BaseEdition:
    """The English edition a translation is read against and how it was chosen: what the
    editions step resolves (``EditionContext.info``) and the alignment reports
    (``AlignResult.base_edition``).  ``range`` is the document's :class:`EditionRange` when it
    was inferred from a folder of editions; ``pinned`` how a bilingual file's sources chose it."""

    label: str | None
    how: str
    range: EditionRange | None = None
    pinned: Pin | None = None

    def __json__(self) -> dict:
        # The reports show the range by its bounds and confidence, its evidence beside it (the
        # document's meta holds the rest); a record without a range says so with null.
        d: dict[str, Any] = {"label": self.label, "how": self.how, "range": None}
        if self.range is not None:
            r = self.range
            d["range"] = {"first": r.first, "last": r.last, "confidence": r.confidence}
            d["evidence"] = list(r.evidence)[:EVIDENCE_SHOWN]
        if self.pinned is not None:
            d["pinned"] = to_data(self.pinned)
        return d

    def to_dict(self) -> dict:
        return to_data(self)


@dataclass
class Meta:
    language: str = "en"
    effective_date: str | None = None  # ISO yyyy-mm-dd, as stated inside the document
    effective_date_text: str | None = None
    title: str | None = None
    source_file: str | None = None
    source_name: str | None = None
    sha256: str | None = None
    format: str = "txt"
    encoding: str | None = None
    line_endings: str | None = None
    kind: DocKind = DocKind.OFFICIAL
    base_edition: EditionRange | None = None


@dataclass
class Document:
    meta: Meta
    sections: list[Section] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    glossary: list[GlossaryEntry] = field(default_factory=list)
    toc: list[TocEntry] = field(default_factory=list)
    introduction: str = ""
    credits: str = ""
    findings: list[Finding] = field(default_factory=list)
    # Exact text before the body / after the glossary, so a full render is possible.
    front_matter: str = ""
    back_matter: str = ""
    glossary_heading: Layout | None = None
    _index: dict[str, Rule] | None = field(default=None, repr=False, compare=False)
    _indexed: int = field(default=-1, repr=False, compare=False)

    # -- lookups ---------------------------------------------------------------
    def rule(self, rule_id: str) -> Rule | None:
        # Rebuilt only when rules were added or removed; duplicate numbers (real in some
        # old editions) keep the first occurrence, as a reader of the text would.
        if self._index is None or self._indexed != len(self.rules):
            index: dict[str, Rule] = {}
            for r in self.rules:
                index.setdefault(r.id, r)
            self._index, self._indexed = index, len(self.rules)
        return self._index.get(rule_id)

    def __contains__(self, rule_id: str) -> bool:
        return self.rule(rule_id) is not None

    @property
    def rule_ids(self) -> list[str]:
        return [r.id for r in self.rules]

    def glossary_term(self, term: str) -> GlossaryEntry | None:
        t = term.casefold()
        return next((g for g in self.glossary if g.term.casefold() == t), None)

    def counts(self) -> dict[str, int]:
        return {
            "rules": len(self.rules),
            "three_digit_rules": sum(1 for r in self.rules if r.level == Level.RULE),
            "subrules": sum(1 for r in self.rules if r.level in (Level.SUBRULE, Level.LETTERED)),
            "examples": sum(len(r.examples) for r in self.rules),
            "glossary_terms": len(self.glossary),
            "sections": len(self.sections),
            "findings": len(self.findings),
        }

    # -- serialisation -----------------------------------------------------------
    def to_dict(self, layout: bool = True) -> dict:
        """The JSON form (schema: ``pipeline/data/document.schema.json``)."""
        def lay(x: Layout) -> dict:
            return x.to_dict() if layout else {}

        def rule(r: Rule) -> dict:
            d = {
                "id": r.id, "level": r.level, "section": r.section, "parent": r.parent,
                "children": list(r.children), "text": r.text,
                "examples": [e.text for e in r.examples], "order": r.order, "line": r.line,
                "inferred_number": r.inferred_number,
            }
            if layout:
                d["layout"] = lay(r.layout)
                d["example_layouts"] = [lay(e.layout) for e in r.examples]
                d["example_lines"] = [e.line for e in r.examples]
            return d

        out: dict[str, Any] = {
            "schema": "crpipe-document/1",
            "meta": to_data(self.meta),
            "counts": self.counts(),
            "introduction": self.introduction,
            "toc": to_data(self.toc),
            "sections": [
                {"number": s.number, "title": s.title, "order": s.order, "line": s.line, **({"layout": lay(s.layout)} if layout else {})}
                for s in self.sections
            ],
            "rules": [rule(r) for r in self.rules],
            "glossary": [
                {"term": g.term, "definition": g.definition, "refs": list(g.refs), "line": g.line, **({"layout": lay(g.layout)} if layout else {})}
                for g in self.glossary
            ],
            "credits": self.credits,
            "findings": [f.to_dict() for f in self.findings],
        }
        if layout:
            out["front_matter"] = self.front_matter
            out["back_matter"] = self.back_matter
            out["glossary_heading"] = self.glossary_heading.to_dict() if self.glossary_heading else None
        return out

    @classmethod
    def from_dict(cls, d: dict) -> "Document":
        meta = Meta(**d["meta"])
        meta.kind = DocKind(meta.kind)
        if meta.base_edition is not None:
            meta.base_edition = EditionRange.from_dict(meta.base_edition)
        rules = []
        for r in d["rules"]:
            lays = r.get("example_layouts") or [None] * len(r["examples"])
            lines = r.get("example_lines") or [None] * len(r["examples"])
            rules.append(Rule(
                id=r["id"], text=r["text"],
                examples=[Example(t, ln, Layout.from_dict(l)) for t, l, ln in zip(r["examples"], lays, lines)],
                parent=r.get("parent"), children=list(r.get("children", [])), section=r.get("section"),
                level=Level(r["level"]) if r.get("level") else "", order=r.get("order", 0), line=r.get("line"),
                inferred_number=r.get("inferred_number", False), layout=Layout.from_dict(r.get("layout")),
            ))
        gh = d.get("glossary_heading")
        return cls(
            meta=meta,
            sections=[Section(s["number"], s["title"], s.get("order", 0), s.get("line"), Layout.from_dict(s.get("layout"))) for s in d.get("sections", [])],
            rules=rules,
            glossary=[GlossaryEntry(g["term"], g["definition"], list(g.get("refs", [])), g.get("line"), Layout.from_dict(g.get("layout"))) for g in d.get("glossary", [])],
            toc=[TocEntry(t["number"], t["title"], TocLevel(t["level"])) for t in d.get("toc", [])],
            introduction=d.get("introduction", ""), credits=d.get("credits", ""),
            findings=[Finding(**f) for f in d.get("findings", [])],
            front_matter=d.get("front_matter", ""), back_matter=d.get("back_matter", ""),
            glossary_heading=Layout.from_dict(gh) if gh is not None else None,
        )


# -- linking: which of the shipped rankers links ------------------------------------------------

class RankerModel(StrEnum):
    """Which shipped ranker links: the one trained on every labelled ruling, or its twin trained
    on the train split only (to measure on the test split by); AUTO picks the twin when the
    rulings measured are among those the shipped one learned from."""

    AUTO = "auto"
    SHIPPED = "shipped"
    TRAIN_SPLIT = "train-split"
