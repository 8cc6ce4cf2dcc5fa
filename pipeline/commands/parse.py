"""``crpipe parse``, ``crpipe check`` and ``crpipe search``."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from ..errors import InputError
from ..findings import Severity
from ..io import cache_root, warn_once
from ..profiles import OFFICIAL_LANG
from ..qa.integrity import check as integrity_check, has_errors
from .common import console, err_console, emit_json, json_option, user_errors


def _load(file: Path, lang: Optional[str], fmt: Optional[str], editions: Optional[Path] = None):
    from ..ingest.loader import load_document  # lazy: a command loads its stage only when it runs (CLI start-up time)

    return load_document(file, lang=lang, fmt=fmt, editions_dir=editions)


def register(app: typer.Typer) -> None:
    @app.command()
    @user_errors
    def parse(
        file: Path = typer.Argument(..., help="A rules document: official TXT of any edition, or any format the ingestion reads."),
        json_out: Optional[str] = json_option("the model"),
        export: Optional[Path] = typer.Option(None, "--export", help="Also write JSON, Parquet, CSV and SQLite (FTS5) into this folder."),
        lang: Optional[str] = typer.Option(None, "--lang", help="Language code (en, pt, es); detected when omitted."),
        fmt: Optional[str] = typer.Option(None, "--format", help="Input format (txt, pdf, docx, html, paste, webcard); detected when omitted."),
        partial: bool = typer.Option(False, "--partial", help="Accept a truncated document and output what it holds."),
        editions: Optional[Path] = typer.Option(None, "--editions", envvar="CRPIPE_MIRROR", file_okay=False,
                                                help="Folder of English editions (YYYY-MM-DD.txt): infer the base-edition "
                                                     "range of a document that does not state its date (meta.base_edition)."),
    ):
        """Parse one document into the structured rules model and print a summary.

        Reads official TXT, PDF and DOCX editions, HTML pages, web-viewer rule cards and text
        pasted from anywhere, in English, Portuguese or Spanish (format and language are
        detected from the content; --format and --lang override).

        Exit codes: 0 parsed; 2 unreadable or truncated input (nothing written).
        """
        doc = _load(file, lang, fmt, editions)
        if editions is None and not doc.meta.effective_date and doc.rules:
            # No --editions and no stated date: the embedded archive (and a mirror, when set) still
            # tells which editions the text fits.  A first run builds the editions' inventories
            # (~15 s CPU, cached); later runs read them.
            from ..editions.base import infer_base_edition  # lazy: a command loads its stage only when it runs
            from ..editions.catalog import default_catalog  # lazy: as above

            with err_console.status("inferring the base edition from the known editions…"):
                doc.meta.base_edition = infer_base_edition(doc, default_catalog())
        truncated = [f for f in doc.findings if f.kind == "truncated"]
        if truncated and not partial:
            from ..errors import InputError  # lazy: a command loads its stage only when it runs (CLI start-up time)
            raise InputError(f"{truncated[0].detail}; use --partial to keep what it holds", file)
        if emit_json(json_out, doc.to_dict() if json_out else None):
            return
        if export:
            stem = f"{doc.meta.language}-{doc.meta.effective_date or file.stem}"
            from ..export import EXPORT_RECORD, export_all  # pandas: imported only when exporting

            export_all(doc, export, stem, record=EXPORT_RECORD)
        c = doc.counts()
        t = Table(title=f"{file.name}", show_header=False)
        t.add_row("language", doc.meta.language)
        t.add_row("effective date", doc.meta.effective_date or "unknown")
        t.add_row("encoding / line endings", f"{doc.meta.encoding} / {doc.meta.line_endings}")
        t.add_row("rules", f"{c['rules']} ({c['three_digit_rules']} three-digit, {c['subrules']} subrules)")
        t.add_row("examples", str(c["examples"]))
        t.add_row("glossary terms", str(c["glossary_terms"]))
        findings = integrity_check(doc)
        t.add_row("findings", f"{len(findings)} ({sum(f.severity == Severity.ERROR for f in findings)} errors)")
        if doc.meta.base_edition:
            be = doc.meta.base_edition
            t.add_row("base edition", f"{be.first} … {be.last} (confidence {be.confidence})")
            for ev in be.evidence[:4]:
                t.add_row("", ev)
        console.print(t)

    @app.command()
    @user_errors
    def check(
        file: Path = typer.Argument(..., help="A rules document (any format `crpipe parse` reads)."),
        json_out: Optional[str] = json_option("the findings"),
        lang: Optional[str] = typer.Option(None, "--lang", help="Language code (en, pt, es); detected when omitted."),
        fmt: Optional[str] = typer.Option(None, "--format", help="Input format (txt, pdf, docx, html, paste, webcard); "
                                          "detected when omitted."),
    ):
        """Integrity check: duplicates, gaps, order, bad letters (l, o), orphans, Contents vs body,
        unassigned lines, truncation.  Exit code 1 when any finding is an error."""
        doc = _load(file, lang, fmt)
        findings = integrity_check(doc)
        if not emit_json(json_out, {"file": str(file), "findings": [f.to_dict() for f in findings]} if json_out else None):
            t = Table(title=f"{file.name}: {len(findings)} findings")
            for col in ("severity", "kind", "rule", "line", "detail"):
                t.add_column(col)
            for f in findings:
                t.add_row(f.severity, f.kind, f.rule or "", str(f.line or ""), f.detail)
            console.print(t)
        if has_errors(findings):
            raise typer.Exit(1)

    @app.command()
    @user_errors
    def search(
        query: str = typer.Argument(..., help="Words, a phrase or a rule number, e.g. \"mana value\", 601.2f."),
        db: Optional[Path] = typer.Option(None, "--db", help="A SQLite file written by build or parse --export "
                                          "(default: the project's aligned/ index of --lang; for English without "
                                          "a build, an index of the latest edition kept in the cache)."),
        lang: str = typer.Option("en", "--lang", help="Language to search: en (the reference edition), or pt / es "
                                 "(the translations in the build, each with its own stemmed index)."),
        limit: int = typer.Option(10, "--limit", min=1, max=500, help="At most this many hits."),
        json_out: Optional[str] = json_option("the hits (snippet, highlight offsets, score)"),
    ):
        """Full-text search (SQLite FTS5) over rule text, examples and the glossary.

        A rule number returns that rule first; a glossary term returns its entry and the
        rules it points to; words are matched by their stems in the index's language, so
        plurals and verb forms match.  An old term (\"converted mana cost\") also finds the
        rules of its new name.  Snippets are the best-matching sentence, matches highlighted.
        Exit codes: 0 (also with no hit); 2 no index.
        """
        from ..search import edition_of, search as run_search  # lazy: a command loads its stage only when it runs (CLI start-up time)

        paths = [db] if db is not None else _default_dbs(lang)
        hits = []
        # Which edition was read (a build's index is of the build's edition, the default one).
        editions = {p: edition_of(p) for p in paths}
        for p in paths:
            for h in run_search(p, query, limit):
                if len(paths) > 1:
                    h["db"] = p.name
                h["edition"] = editions[p]
                hits.append(h)
        eds = sorted({e for e in editions.values() if e})
        hits = hits[:limit] if len(paths) == 1 else sorted(hits, key=lambda h: h["score"] is not None)[:limit]
        if emit_json(json_out, hits):
            return
        from rich.text import Text  # only for the terminal table

        t = Table(title=f"{query!r} ({lang}{', edition ' + ', '.join(eds) if eds else ''}): {len(hits)} hits")
        for col in ("kind", "id", "snippet"):
            t.add_column(col, overflow="fold")
        for h in hits:
            snip = Text(h["snippet"])
            for a, b in h["highlights"]:
                snip.stylize("bold reverse", a, b)
            if h.get("via"):
                snip.append(f"  (via {h['via']})", style="dim")
            t.add_row(h["kind"], h["id"], snip)
        console.print(t)
        if not hits and lang == OFFICIAL_LANG:
            console.print("no hit in the English rules; each language has its own index: --lang pt or --lang es "
                          "searches the Portuguese or Spanish translations of the build")


def _default_dbs(lang: str) -> list[Path]:
    """The project's aligned/ indexes of ``lang``; for English, else an index of the latest edition."""
    from ..paths import default_out  # lazy: a command loads its stage only when it runs (CLI start-up time)
    from ..search import INDEX_VERSION, databases  # lazy: a command loads its stage only when it runs (CLI start-up time)

    out = default_out()
    found = [p for p in databases(lang, out) if p.is_file()]
    if found:
        return found
    if lang != OFFICIAL_LANG:
        raise InputError(f"no {lang} search index: 'crpipe build' writes one for each {lang} translation of the corpus "
                         f"(looked for {lang}-*.sqlite)", out)
    from ..editions import default_catalog, default_edition  # lazy: a command loads its stage only when it runs (CLI start-up time)
    from ..export import write_sqlite  # pandas: imported only when an index is written

    ref = default_edition(default_catalog())
    path = cache_root() / "search" / f"{OFFICIAL_LANG}-{ref.sha256[:16]}-v{INDEX_VERSION}.sqlite"
    if not path.is_file():
        try:
            write_sqlite(ref.parse(), path)
        except OSError as e:  # a cache that cannot be written: index this run in a temporary folder
            # keyed as cache_write keys it: the search-key table (search_terms) warns no second time
            warn_once(f"cache:{cache_root()}", f"cache {path.parent} cannot be written ({e.strerror}); "
                      "the search index is rebuilt each time")
            path = Path(tempfile.mkdtemp(prefix="crpipe-search-")) / path.name
            write_sqlite(ref.parse(), path)
    return [path]
