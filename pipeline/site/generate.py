"""The static rules site: every page, written from the parsed editions, diffs and reports.

Layout of the output folder (every link relative, so it opens from disk or any host)::

    index.html                      editions, change pages, the pair form, translations, rulings, notebooks
    <edition>/index.html            contents; <edition>/<chapter>.html one page per chapter (rule anchors)
    <edition>/glossary.html         terms, what they cite, which rules cite them
    <edition>/trace-<chapter>.html  each rule's numbers and texts through every edition
    <edition>/search.html           client-side search (MiniSearch over <edition>/search-data.js)
    changes/<old>_<new>.html        what changed between two editions
    translations/<stem>.html        a translation beside its English base and today's English
    rulings/<stem>.html             each card's rulings and the rules they were linked to
    notebooks/<name>.html           the rendered notebooks (when given)

Edition folders are named by the file-name date the history uses (``2019-06-12``).  Output
is deterministic: sorted inputs, no clock, no absolute paths.
"""

from __future__ import annotations

import json
import re
from contextlib import contextmanager
from collections import defaultdict
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from ..errors import InputError
from ..io import atomic_write, dumps, honour_umask, read_bounded, read_bounded_text
from ..model import Document
from ..rulenum import RuleNumber
from ..swap import BuildFolder, record_of
from ..xref import build_graph, extract_references
from ..xref.model import GLOSSARY_PREFIX, SECTION_PREFIX

ASSETS = ("style.css", "site.js", "minisearch.js", "LICENSE-minisearch.txt")


def data_dir() -> Path:
    return Path(str(resources.files("pipeline") / "data" / "site"))


def _env():
    from jinja2 import Environment, FileSystemLoader, StrictUndefined  # heavy: Jinja2 only when a site is written

    env = Environment(loader=FileSystemLoader(str(data_dir() / "templates")), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["chapter"] = chapter_of
    env.filters["glossslug"] = slug
    return env


def chapter_of(rule_id: str) -> str:
    return rule_id.split(".")[0]


def slug(term: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", term.casefold()).strip("-")
    return "g-" + (s or "term")


@dataclass
class SiteInputs:
    """What the site is made of (all optional but the editions)."""

    editions: list[str]  # labels to publish, any order
    alignments: list[dict] = field(default_factory=list)  # crpipe-alignment/1 documents
    alignment_names: list[str] = field(default_factory=list)  # their file stems
    links: list[dict] = field(default_factory=list)  # crpipe-links/1 documents
    link_names: list[str] = field(default_factory=list)
    notebooks: list[Path] = field(default_factory=list)  # rendered HTML files to copy
    pairs: list[tuple[str, str]] = field(default_factory=list)  # extra diffs to publish
    reports: Path | None = None  # the folder the reports were read from (named in their errors)


class SiteWriter:
    def __init__(self, out: Path):
        self.out = out
        self.written: list[Path] = []

    def write(self, rel: str, text: str | bytes) -> Path:
        p = atomic_write(self.out / rel, text)
        honour_umask(p)  # a temp file's private mode would hide the page from a web server
        self.written.append(p)
        return p


def _segments(text: str, refs, base: str, rule_ids: set[str]) -> list[tuple[str, str | None, str]]:
    """Text cut into (text, href, title) pieces: each reference becomes a link."""
    out = []
    pos = 0
    for ref in sorted(refs, key=lambda r: r.span):
        a, b = ref.span
        if a < pos:
            continue
        target = next((t for t in ref.targets if t in rule_ids or t.startswith(SECTION_PREFIX)), None)
        if target is None:
            continue
        if target.startswith(SECTION_PREFIX):
            href = f"{base}index.html#s{target[len(SECTION_PREFIX):]}"
        else:
            href = f"{base}{chapter_of(target)}.html#{target}"
        if a > pos:
            out.append((text[pos:a], None, ""))
        title = ", ".join(t for t in ref.targets if not t.startswith(GLOSSARY_PREFIX))
        out.append((text[a:b], href, title if ref.is_range else ""))
        pos = b
    if pos < len(text):
        out.append((text[pos:], None, ""))
    return out


@dataclass
class EditionPages:
    label: str
    doc: Document
    chapters: dict[str, list] = field(default_factory=dict)


def _sort_key(rid: str):
    n = RuleNumber.try_parse(rid)
    return n.sort_key() if n else (9999, 0, 0)


class SiteBuilder:
    """Build the site into ``out`` from an :class:`~pipeline.diff.history.EditionArchive`."""

    def __init__(self, archive, inputs: SiteInputs, out: Path, progress=None):
        self.arch = archive
        self.inputs = inputs
        self.w = SiteWriter(Path(out))
        self.env = _env()
        self.progress = progress or (lambda msg: None)
        labels = []
        for name in inputs.editions:
            labels.append(archive.editions[archive.index(name)].label)
        order = {e.label: i for i, e in enumerate(archive.editions)}
        self.labels = sorted(set(labels), key=order.__getitem__)
        self.latest = site_default_edition(archive)
        self.order = order
        self.dates = {e.label: e.effective_date or e.label for e in archive.editions}
        self.rule_sets: dict[str, set[str]] = {}
        self.change_pages: list[tuple[str, str]] = []

    # -- helpers -------------------------------------------------------------------------
    def rule_href(self, label: str, rid: str, depth: int = 1) -> str | None:
        """A link to rule ``rid`` of edition ``label`` when that page is published."""
        if label in self.rule_sets and rid in self.rule_sets[label]:
            return f"{'../' * depth}{label}/{chapter_of(rid)}.html#{rid}"
        return None

    def render(self, rel: str, template: str, **kw) -> None:
        depth = rel.count("/")
        kw.setdefault("root", "../" * depth)
        kw.setdefault("latest", self.latest)
        self.w.write(rel, self.env.get_template(template).render(**kw))

    # -- the whole site ------------------------------------------------------------------------
    def build(self) -> list[Path]:
        out = self.w.out
        out.mkdir(parents=True, exist_ok=True)
        for name in ASSETS:
            self.w.write(name, read_bounded(data_dir() / name))
        docs = {}
        for label in self.labels:
            docs[label] = self.arch.load(label)
            self.rule_sets[label] = set(docs[label].rule_ids)
            self.arch._docs.clear()  # keep memory flat: the archive's cache holds a few documents
        if self.latest not in self.rule_sets:
            self.rule_sets[self.latest] = set(self.arch.load(self.latest).rule_ids)
        if len(self.arch.missing()) >= 8:
            self.progress("matching consecutive editions (once; cached)")
            self.arch.precompute()
        olds = self.old_numbers()
        for label in self.labels:
            self.progress(f"edition {label}")
            self.edition(label, docs[label], olds if label == self.latest else {})
        self.progress("change pages")
        self.changes()
        self.progress("translations and rulings")
        self.translations()
        self.rulings()
        for nb in sorted(self.inputs.notebooks):
            self.w.write(f"notebooks/{nb.name}", read_bounded(nb))
        self.index()
        return self.w.written

    def old_numbers(self) -> dict[str, list[dict]]:
        from .trace import old_numbers  # heavy: traces walk the history

        return old_numbers(self.arch)

    # -- one edition ------------------------------------------------------------------------------
    def edition(self, label: str, doc: Document, olds: dict) -> None:
        from .trace import edition_traces  # heavy: as above

        refs = extract_references(doc)
        g = build_graph(doc, refs)
        by_piece = defaultdict(list)
        for r in refs:
            by_piece[(r.source, r.part, r.example)].append(r)
        ids = self.rule_sets[label]
        cited_by: dict[str, list[str]] = defaultdict(list)
        gloss_cites: dict[str, list[str]] = defaultdict(list)
        for u, v in sorted(set((u, v) for u, v in g.edges()), key=lambda e: (_sort_key(e[1]), e[0])):
            if v in ids and u != v:
                if u.startswith(GLOSSARY_PREFIX):
                    gloss_cites[v].append(u[len(GLOSSARY_PREFIX):])
                elif u in ids:
                    cited_by[v].append(u)
        for v in cited_by:
            cited_by[v] = sorted(set(cited_by[v]), key=_sort_key)
        traces = edition_traces(self.arch, label, {r.id: r.text for r in doc.rules})
        latest_map = self._to_latest(label, doc)
        others = [lb for lb in self.labels if lb != label]
        chapters: dict[str, list] = {}
        for r in doc.rules:
            chapters.setdefault(chapter_of(r.id), []).append(r)
        sections = {s.number: s.title for s in doc.sections}
        pages = sorted(chapters, key=_sort_key)
        search_docs = []
        for ci, ch in enumerate(pages):
            rules = []
            for r in chapters[ch]:
                segs = _segments(r.text, by_piece[(r.id, "rule", None)], "", ids)
                exs = [_segments(e.text, by_piece[(r.id, "example", k)], "", ids)
                       for k, e in enumerate(r.examples)]
                now = latest_map.get(r.id)
                rules.append({"id": r.id, "level": r.level, "segs": segs, "examples": exs,
                              "cited_by": cited_by.get(r.id, []), "glossary": gloss_cites.get(r.id, []),
                              "now": now, "now_href": self.rule_href(self.latest, now) if now else None,
                              "gone_today": label != self.latest and r.id in latest_map and now is None,
                              "depth": len(r.id)})
                search_docs.append({"r": r.id, "k": "rule", "t": r.text,
                                    "x": " ".join(e.text for e in r.examples),
                                    "u": f"{ch}.html#{r.id}"})
            sec = int(ch[0]) if ch[:1].isdigit() else None
            self.render(f"{label}/{ch}.html", "chapter.html", label=label, date=self.dates[label], chapter=ch,
                        title=chapters[ch][0].text if chapters[ch] else ch, section=sec,
                        section_title=sections.get(sec, ""), rules=rules,
                        prev=pages[ci - 1] if ci else None, next=pages[ci + 1] if ci + 1 < len(pages) else None)
            trs = []
            for r in chapters[ch]:
                tr = traces[r.id]
                spans = []
                for s in tr.spans:
                    eds = [lb for lb in self.labels if self.order[s["first"]] <= self.order[lb] <= self.order[s["last"]]]
                    spans.append({**s, "first_date": self.dates[s["first"]], "last_date": self.dates[s["last"]],
                                  "links": [(lb, self.rule_href(lb, s["number"])) for lb in eds
                                            if self.rule_href(lb, s["number"])]})
                trs.append({"id": r.id, "spans": spans, "changes": [
                    {**c, "date": self.dates[c["edition"]]} for c in tr.changes],
                    "appeared": tr.appeared, "disappeared": tr.disappeared})
            self.render(f"{label}/trace-{ch}.html", "trace.html", label=label, date=self.dates[label], chapter=ch,
                        traces=trs, others=others)
        gloss = []
        for e in doc.glossary:
            segs = _segments(e.definition, by_piece[(GLOSSARY_PREFIX + e.term, "glossary", None)], "", ids)
            cites = sorted({t for r in by_piece[(GLOSSARY_PREFIX + e.term, "glossary", None)] for t in r.targets
                            if t in ids}, key=_sort_key)
            gloss.append({"term": e.term, "slug": slug(e.term), "segs": segs, "cites": cites})
            search_docs.append({"r": e.term, "k": "glossary", "t": e.definition, "x": "",
                                "u": f"glossary.html#{slug(e.term)}"})
        seen: dict[str, int] = {}
        for g_ in gloss:  # two entries with one slug: number the second
            n = seen.get(g_["slug"], 0)
            seen[g_["slug"]] = n + 1
            if n:
                g_["slug"] += f"-{n + 1}"
        for d in search_docs:
            if d["k"] == "glossary":
                d["u"] = None
        for d, g_ in zip([d for d in search_docs if d["k"] == "glossary"], gloss):
            d["u"] = f"glossary.html#{g_['slug']}"
        self.render(f"{label}/glossary.html", "glossary.html", label=label, date=self.dates[label], entries=gloss)
        for n in sorted(olds, key=_sort_key):
            for run in olds[n]:
                now = run["now"]
                search_docs.append({"r": n, "k": "old", "x": "",
                                    "t": (f"numbered {n} in {run['first']} … {run['last']}; "
                                          + (f"now {now}" if now else "no longer in the rules")),
                                    "u": f"{chapter_of(now)}.html#{now}" if now else
                                    f"trace-{chapter_of(n)}.html"})
        search_docs = [d for d in search_docs if d["k"] != "old" or d["u"].split("#")[0].startswith(
            tuple(f"{c}.html" for c in pages))]
        for i, d in enumerate(search_docs):
            d["n"] = i
        self.w.write(f"{label}/search-data.js", "window.CRPIPE_SEARCH = " + json.dumps(
            search_docs, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + ";\n")
        self.render(f"{label}/search.html", "search.html", label=label, date=self.dates[label])
        toc = []
        for s in doc.sections:
            toc.append({"number": s.number, "title": s.title,
                        "chapters": [(ch, chapters[ch][0].text) for ch in pages if ch[:1] == str(s.number)]})
        self.render(f"{label}/index.html", "edition.html", label=label, date=self.dates[label], toc=toc,
                    rules=len(doc.rules), glossary=len(doc.glossary), others=others,
                    changes=[p for p in self._planned_pairs() if label in p])

    def _to_latest(self, label: str, doc: Document) -> dict[str, str | None]:
        if label == self.latest:
            return {rid: rid for rid in doc.rule_ids}
        out = {}
        i, j = self.arch.index(label), len(self.arch.editions) - 1
        cur = {rid: rid for rid in doc.rule_ids}
        for k in range(i, j):
            pm = self.arch.pair(k)
            cur = {rid: (pm.forward(n) if n is not None else None) for rid, n in cur.items()}
        out.update(cur)
        return out

    # -- change pages ------------------------------------------------------------------------------
    def _planned_pairs(self) -> list[tuple[str, str]]:
        pairs = set()
        E = [e.label for e in self.arch.editions]
        for lb in self.labels:
            i = self.order[lb]
            if i > 0:
                pairs.add((E[i - 1], lb))  # the release's own change page
        for a, b in zip(self.labels, self.labels[1:]):
            pairs.add((a, b))
        for a, b in self.inputs.pairs:
            a, b = self.arch.editions[self.arch.index(a)].label, self.arch.editions[self.arch.index(b)].label
            if a != b:
                pairs.add((a, b) if self.order[a] < self.order[b] else (b, a))
        return sorted(pairs, key=lambda p: (self.order[p[0]], self.order[p[1]]))

    def changes(self) -> None:
        from ..diff.classify import ChangePart, diff_documents  # heavy: the differ (networkx) only for change pages

        self.change_pages = self._planned_pairs()
        for a, b in self.change_pages:
            old, new = self.arch.load(a), self.arch.load(b)
            res = diff_documents(old, new, line_diff=False)
            items = []
            for c in res.listed_changes():
                items.append({"kind": c.kind.replace("_", " "), "part": c.part, "old": c.old, "new": c.new,
                              "old_href": self.rule_href(a, c.old, 1) if c.old and c.part != ChangePart.GLOSSARY else None,
                              "new_href": self.rule_href(b, c.new, 1) if c.new and c.part != ChangePart.GLOSSARY else None,
                              "old_text": c.old_text, "new_text": c.new_text, "diff": c.word_diff,
                              "example": c.example, "refs_only": c.refs_only})
            cascades = [{"line": c.line, "moves": [(o, n, self.rule_href(b, n, 1)) for o, n in c.moves]}
                        for c in res.cascades]
            self.render(f"changes/{a}_{b}.html", "changes.html", a=a, b=b, a_date=self.dates[a],
                        b_date=self.dates[b], summary=res.summary, items=items, cascades=cascades,
                        consecutive=self.order[b] == self.order[a] + 1)

    # -- translations and rulings ---------------------------------------------------------------------
    def translations(self) -> None:
        for stem, al in sorted(zip(self.inputs.alignment_names, self.inputs.alignments)):
            with _report_fields(self.inputs.reports, stem, "alignment report"):
                self._translation(stem, al)

    def _translation(self, stem: str, al: dict) -> None:
        base = (al.get("base_edition") or {}).get("label")
        cur = al.get("current_edition")
        base_label = self._label(base)
        cur_label = self._label(cur)
        rows = []
        for row in al.get("rows", []):
            rows.append({**row, "base_href": self.rule_href(base_label, row["base_id"], 1) if row.get("base_id") else None,
                         "cur_href": self.rule_href(cur_label, row["current_id"], 1) if row.get("current_id") else None})
        self.render(f"translations/{stem}.html", "translation.html", stem=stem, al=al, rows=rows,
                    base=base_label, current=cur_label)

    def _label(self, name: str | None) -> str | None:
        if not isinstance(name, str) or not name:  # a report's wrongly typed field names no edition
            return None
        try:
            return self.arch.editions[self.arch.index(name)].label
        except InputError:
            return None

    def rulings(self) -> None:
        for stem, data in sorted(zip(self.inputs.link_names, self.inputs.links)):
            with _report_fields(self.inputs.reports, stem, "links report"):
                self._rulings(stem, data)

    def _rulings(self, stem: str, data: dict) -> None:
        ed = self._label(data.get("edition"))
        cards = defaultdict(list)
        for item in data.get("links", []):
            ru = item["ruling"]
            cands = [{**c, "href": self.rule_href(ed, c["rule"], 1)} for c in item.get("candidates", [])]
            cards[ru.get("card") or ru.get("card_name") or "?"].append({"ruling": ru, "top": cands[:1],
                                                                       "rest": cands[1:]})
        self.render(f"rulings/{stem}.html", "rulings.html", stem=stem, data=data, edition=ed,
                    cards=sorted(cards.items()))

    def index(self) -> None:
        eds = [{"label": lb, "date": self.dates[lb]} for lb in self.labels]
        all_labels = [e.label for e in self.arch.editions]
        self.render("index.html", "index.html", editions=eds, pairs=self.change_pages,
                    pairs_json=json.dumps([f"{a}_{b}" for a, b in self.change_pages]).replace("<", "\\u003c"), all_labels=all_labels,
                    translations=sorted(self.inputs.alignment_names), rulings=sorted(self.inputs.link_names),
                    notebooks=sorted(p.name for p in self.inputs.notebooks))


def site_default_edition(archive) -> str:
    """The edition the site opens on: the default edition of every command
    (:func:`pipeline.editions.catalog.default_edition`), by its label in ``archive``."""
    from ..editions.catalog import default_edition  # deferred: the catalog is read with the archive

    ref = default_edition(archive.catalog)
    try:
        return archive.editions[archive.index(ref.stem)].label
    except InputError:  # not in this archive (cannot happen with the archive's own catalog)
        return archive.editions[-1].label


def default_editions(archive, alignments: list[dict], links: list[dict]) -> list[str]:
    """The latest edition, the translations' base (and current) editions, the rulings' edition."""
    names = [site_default_edition(archive)]
    for al in alignments:
        base = al.get("base_edition")
        names += [(base if isinstance(base, dict) else {}).get("label"), al.get("current_edition")]
    names += [d.get("edition") for d in links]
    out = []
    for n in names:
        if not isinstance(n, str) or not n:  # a wrongly typed field names no edition (the pages then say so)
            continue
        try:
            out.append(archive.editions[archive.index(n)].label)
        except InputError:
            continue
    return sorted(set(out))


def _read_json_files(folder: Path, pattern: str, what: str, schema: str) -> tuple[list[str], list[dict]]:
    stems, docs = [], []
    for p in sorted(Path(folder).glob(pattern)):
        try:
            doc = json.loads(read_bounded_text(p))
        except (OSError, ValueError) as e:
            raise InputError(f"unreadable {what}: {e}", p) from None
        except RecursionError:
            raise InputError(f"{what} nested too deeply to be one", p) from None
        if not isinstance(doc, dict) or doc.get("schema") != schema:
            article = "an" if what[0] in "aeiou" else "a"
            raise InputError(f"not {article} {what} (a JSON object with \"schema\": \"{schema}\")", p)
        docs.append(doc)
        stems.append(p.stem)
    return stems, docs


@contextmanager
def _report_fields(folder: Path | None, stem: str, what: str):
    """Pages made from one report: a field of the wrong type or missing (the report is the
    user's file, perhaps edited by hand) is that file's problem, in one line naming it."""
    from jinja2.exceptions import UndefinedError  # heavy: Jinja2 only when a site is written

    try:
        yield
    except (TypeError, KeyError, AttributeError, ValueError, RecursionError, UndefinedError) as e:
        where = Path(folder or ".") / f"{stem}.json"
        detail = f"{type(e).__name__}: {e}" if not isinstance(e, RecursionError) else "nested too deeply"
        raise InputError(f"a field of this {what} that the site reads is missing or of the wrong type ({detail})",
                         where) from None


def read_reports(folder: Path | None) -> tuple[list[str], list[dict], list[str], list[dict]]:
    """Alignment and link JSON documents of a build's output folder (``align-*.json``, ``links-*.json``)."""
    if folder is None or not Path(folder).is_dir():
        return [], [], [], []
    an, al = _read_json_files(folder, "align-*.json", "alignment report", "crpipe-alignment/1")
    ln, li = _read_json_files(folder, "links-*.json", "links report", "crpipe-links/1")
    return an, al, ln, li


#: The site folder's record of the files it holds (see :mod:`pipeline.swap`): what a later
#: ``crpipe site --out`` may replace; anything else found there is the user's and refuses the run.
SITE_RECORD = "crpipe-site.json"


def site_folder(out: Path) -> BuildFolder:
    """The site's output folder: staged, locked and swapped as the build's, and refused up front
    when it holds anything the site did not write (``with site_folder(out) as f:`` write into
    ``f.staging``, then ``f.commit()``)."""
    return BuildFolder(Path(out), record=SITE_RECORD, foreign="refuse", command="crpipe site", job="site build")


def build_site(out: Path, editions: list[str] | None = None, all_editions: bool = False, reports: Path | None = None,
               notebooks: list[Path] | None = None, pairs: list[tuple[str, str]] | None = None, catalog=None,
               progress=None) -> list[Path]:
    """Write the site into ``out``, replaced as a whole (built beside it, then swapped) by the
    build's own :class:`~pipeline.swap.BuildFolder`: a folder holding anything the site did
    not write is refused before any work, never swapped away."""
    with site_folder(out) as folder:
        written = write_site(folder.staging, editions, all_editions, reports, notebooks, pairs, catalog, progress)
        folder.commit()
    return [folder.final / p.relative_to(folder.staging) for p in written]


def write_site(out: Path, editions: list[str] | None = None, all_editions: bool = False, reports: Path | None = None,
               notebooks: list[Path] | None = None, pairs: list[tuple[str, str]] | None = None, catalog=None,
               progress=None) -> list[Path]:
    """Write the site into ``out``, a new or empty folder (the build's stage writes into its own
    staging folder, which is swapped in as a whole already); the files written, its record last."""
    from ..diff.history import EditionArchive  # heavy: the history loads only for traces

    arch = EditionArchive(catalog)
    an, al, ln, li = read_reports(reports)
    if all_editions:
        labels = arch.dates()
    else:
        labels = default_editions(arch, al, li) + list(editions or [])
    inputs = SiteInputs(labels, al, an, li, ln, list(notebooks or []), list(pairs or []), reports)
    builder = SiteBuilder(arch, inputs, Path(out), progress)
    pages = builder.build()
    builder.w.write(SITE_RECORD, dumps(record_of([str(p.relative_to(out)) for p in pages])))
    return builder.w.written
