"""``crpipe parse``, ``crpipe check`` and ``crpipe search``."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from ..io import write_json
from .common import console, print_json, user_errors


def _load(file: Path, lang: Optional[str], fmt: Optional[str], editions: Optional[Path] = None):
    from ..ingest.loader import load_document  # lazy: a command loads its stage only when it runs (CLI start-up time)

    return load_document(file, lang=lang, fmt=fmt, editions_dir=editions)


def register(app: typer.Typer) -> None:
    @app.command()
    @user_errors
    def parse(
        file: Path = typer.Argument(..., help="A rules document: official TXT of any edition, or any format the ingestion reads."),
        json_out: Optional[str] = typer.Option(None, "--json", help="Write the model as JSON to this file, or '-' for stdout."),
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
        truncated = [f for f in doc.findings if f.kind == "truncated"]
        if truncated and not partial:
            from ..errors import InputError  # lazy: a command loads its stage only when it runs (CLI start-up time)
            raise InputError(f"{truncated[0].detail}; use --partial to keep what it holds", file)
        if json_out == "-":
            print_json(doc.to_dict())
            return
        if json_out:
            write_json(json_out, doc.to_dict())
        if export:
            stem = f"{doc.meta.language}-{doc.meta.effective_date or file.stem}"
            from ..export import export_all  # lazy: pandas/pyarrow cost 0.3 s and only --export needs them

            export_all(doc, export, stem)
        c = doc.counts()
        t = Table(title=f"{file.name}", show_header=False)
        t.add_row("language", doc.meta.language)
        t.add_row("effective date", doc.meta.effective_date or "unknown")
        t.add_row("encoding / line endings", f"{doc.meta.encoding} / {doc.meta.line_endings}")
        t.add_row("rules", f"{c['rules']} ({c['three_digit_rules']} three-digit, {c['subrules']} subrules)")
        t.add_row("examples", str(c["examples"]))
        t.add_row("glossary terms", str(c["glossary_terms"]))
        from ..qa.integrity import check as integrity_check  # lazy: a command loads its stage only when it runs

        findings = integrity_check(doc)
        t.add_row("findings", f"{len(findings)} ({sum(f.severity == 'error' for f in findings)} errors)")
        if doc.meta.base_edition:
            be = doc.meta.base_edition
            t.add_row("base edition", f"{be.get('first')} … {be.get('last')} (confidence {be.get('confidence')})")
            for ev in be.get("evidence", [])[:4]:
                t.add_row("", ev)
        console.print(t)

    @app.command()
    @user_errors
    def check(
        file: Path = typer.Argument(..., help="A rules document."),
        json_out: bool = typer.Option(False, "--json", help="Print the findings as JSON."),
        lang: Optional[str] = typer.Option(None, "--lang"),
        fmt: Optional[str] = typer.Option(None, "--format"),
    ):
        """Integrity check: duplicates, gaps, order, bad letters (l, o), orphans, Contents vs body,
        unassigned lines, truncation.  Exit code 1 when any finding is an error."""
        from ..qa.integrity import check as integrity_check, has_errors  # lazy (CLI start-up time)

        doc = _load(file, lang, fmt)
        findings = integrity_check(doc)
        if json_out:
            print_json({"file": str(file), "findings": [f.to_dict() for f in findings]})
        else:
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
        query: str = typer.Argument(..., help="Words or a phrase, e.g. \"mana value\"."),
        db: Path = typer.Option(Path("aligned/en-reference.sqlite"), "--db", help="SQLite file written by build or parse --export."),
        limit: int = typer.Option(10, "--limit"),
        json_out: bool = typer.Option(False, "--json"),
    ):
        """Full-text search (SQLite FTS5) over rule text, examples and the glossary."""
        from ..errors import InputError  # lazy: a command loads its stage only when it runs (CLI start-up time)

        if not db.is_file():
            raise InputError("no search database here; run 'crpipe build' or 'crpipe parse FILE --export DIR' first", db)
        from ..export import search as fts_search  # lazy: keeps pandas out of the CLI's start-up

        hits = fts_search(db, query, limit)
        if json_out:
            print_json(hits)
            return
        t = Table(title=f"{query!r}: {len(hits)} hits")
        for col in ("kind", "id", "snippet"):
            t.add_column(col)
        for h in hits:
            t.add_row(h["kind"], h["id"], h["snippet"])
        console.print(t)
